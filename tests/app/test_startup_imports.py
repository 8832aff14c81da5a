"""What a start of the app imports, and in which order (issue 15: start-up ≤ 2× the floor).

Laziness is guarded here, never a time: a real start (``sheet_app.app.run`` on a sheet, off screen, in
a process of its own) must not load the GM table's modules, printing or the dice library, and must
import the modules that do not use Qt (pydantic, the rules core, the file formats, the autosave store)
before PySide6, whose import hook reads the source of every module imported after it.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.app.start_probe import ROOT, start_report

DEMO = ROOT / "resources" / "examples" / "douaratil.fiche.json"

# Run as ``python -c``: records the order of imports, starts the app on argv[1] and reports once the
# document is open (before the window shows: nothing to wait for), then leaves at once.
START = r"""
import json, os, sys

order = []


class Recorder:
    def find_spec(self, name, path=None, target=None):
        order.append(name)
        return None


sys.meta_path.insert(0, Recorder())
import sheet_app.app as entry

opened = entry.start


def start(window, files):
    opened(window, files)
    report = {
        "order": order,
        "loaded": sorted(sys.modules),
        "docs": len(window.docs),
        "welcome_built": window.welcome_area.widget() is not None,
    }
    sys.stdout.write(json.dumps(report) + "\n")
    sys.stdout.flush()
    os._exit(0)


entry.start = start
entry.run(sys.argv[1:])
os._exit(3)
"""


def _start(tmp_path: Path, *args: str) -> dict[str, object]:
    return start_report(START, tmp_path, *args, timeout=120)


def test_a_sheet_opens_without_the_table_printing_or_dice_modules(tmp_path: Path) -> None:
    report = _start(tmp_path, str(DEMO))
    assert report["docs"] == 1
    assert report["welcome_built"] is False  # the welcome page is built when its tab first shows
    loaded = report["loaded"]
    assert isinstance(loaded, list)
    for lazy in ("ui.table", "ui.printing", "sheet_app.printing", "PySide6.QtPrintSupport", "d20", "lark"):
        assert not any(m == lazy or m.startswith(lazy + ".") for m in loaded), lazy
    # One system: the one of the sheet opened.
    assert "rules.systems.douaratil" in loaded
    assert not any(
        m.startswith(("rules.systems.d20", "rules.systems.segments", "rules.systems.severite")) for m in loaded
    )


def test_the_welcome_page_is_built_when_shown(qtbot: Any) -> None:
    from sheet_app.main_window import MainWindow

    window = MainWindow()
    qtbot.addWidget(window)
    assert window.welcome_area.widget() is None  # not yet: a start that opens a document never builds it
    window.resize(1280, 800)
    window.show()
    qtbot.waitExposed(window)
    assert window.welcome_area.widget() is window.welcome
    assert window.welcome.isVisible()
    window.close()


def test_modules_without_qt_are_imported_before_pyside(tmp_path: Path) -> None:
    report = _start(tmp_path, str(DEMO))
    order = report["order"]
    assert isinstance(order, list)
    first_qt = order.index("PySide6")
    for module in ("pydantic", "pydantic_core", "rules", "rules.model", "sheet_app.files", "sheet_app.autosave"):
        assert module in order[:first_qt], f"{module} is imported after PySide6"


def test_the_window_modules_do_not_import_the_table() -> None:
    code = (
        "import sys\n"
        "import sheet_app.main_window, sheet_app.controller\n"
        "print(sorted(m for m in sys.modules if m.startswith(('ui.table', 'ui.printing'))))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.strip() == "[]"
