"""The rules core imports and its tests pass with PySide6 made unimportable."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

BLOCKER = r"""
import importlib.abc, sys

class _NoQt(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] in ('PySide6', 'shiboken6', 'PyQt5', 'PyQt6'):
            raise ImportError(f'{name} est bloqué pour ce test')
        return None

sys.meta_path.insert(0, _NoQt())
"""


def test_rules_import_without_qt() -> None:
    code = BLOCKER + "import rules\nassert not any(m.startswith('PySide6') for m in sys.modules)\nprint('ok')"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


def test_blocker_really_blocks() -> None:
    """The blocker itself works: importing PySide6 under it fails (so the test above can fail)."""
    code = BLOCKER + "import PySide6.QtCore"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    assert "bloqué" in done.stderr


@pytest.mark.timeout(900)  # the whole rules suite in a subprocess: minutes on a loaded machine
def test_rules_tests_pass_without_qt() -> None:
    code = (
        BLOCKER
        + "import pytest\n"
        + "sys.exit(pytest.main(['-p', 'no:pytest-qt', '-p', 'no:cacheprovider', '-x',"
        + " 'tests/rules', '--deselect', 'tests/rules/test_no_qt.py',"
        + " '--deselect', 'tests/rules/test_table_mutation.py::test_table_mutant_sample_is_caught']))"
    )
    env = {**os.environ, "HYPOTHESIS_PROFILE": "quick"}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=900, env=env)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "passed" in done.stdout
