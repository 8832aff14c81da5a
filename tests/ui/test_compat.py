"""PySide6 6.12.0 drops a reference to None on every void call under Python 3.11 (« Fatal Python error:
none_dealloc » after a few thousand calls); pyproject.toml excludes it. This guards against a regression."""

from __future__ import annotations

import subprocess
import sys

LOOP = """
import os
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
import sys
import ui
from PySide6.QtWidgets import QApplication, QLabel
app = QApplication([])
label = QLabel("x")
before = sys.getrefcount(None)
for i in range(30000):
    label.setText(str(i % 7))  # a void call: the kind that dropped a reference to None
print("vivant", sys.getrefcount(None) - before)
"""


def test_thirty_thousand_void_calls_keep_none_alive() -> None:
    done = subprocess.run([sys.executable, "-c", LOOP], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-500:]
    alive, delta = done.stdout.split()
    assert alive == "vivant"
    assert abs(int(delta)) < 100, f"None lost {delta} references: a broken PySide6 is installed"
