"""Run the app's real start in a fresh process with a probe script, and read the JSON it reports.

Shared by the start-up structure tests (``test_startup_imports``, ``test_startup_paint``): each passes a
script that replaces ``sheet_app.app.start`` with one that records what it must and prints one JSON line.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def start_report(script: str, tmp_path: Path, *args: str, timeout: float = 180) -> dict[str, Any]:
    """The last stdout line of ``python -c script args…`` as JSON, in an empty settings home, offscreen."""
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
    }
    proc = subprocess.run(
        [sys.executable, "-c", script, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    report: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return report
