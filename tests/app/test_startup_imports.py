"""What a start of the app imports, and in which order (issue 15: start-up ≤ 2× the floor).

Laziness is guarded here, never a time: a real start (``sheet_app.app.run`` on a sheet, off screen, in
a process of its own) must not load the GM table's modules, printing or the dice library, and must
import the modules that do not use Qt (pydantic, the rules core, the file formats, the autosave store)
before PySide6, whose import hook reads the source of every module imported after it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.app.start_probe import ROOT, start_report

DEMO = ROOT / "resources" / "examples" / "douaratil.fiche.json"

# Run as ``python -c``: records the order of imports, starts the app on argv[1] and reports once the
# document is open (before the window shows: nothing to wait for), then leaves at once.
START = r"""
import inspect, json, os, sys

order = []
sources = []  # the modules whose source was read through ``inspect`` (PySide's import hook reads them so)
_getsource = inspect.getsource


def getsource(thing):
    sources.append([getattr(thing, "__name__", repr(thing)), isinstance(getattr(thing, "__file__", None), str)])
    return _getsource(thing)


inspect.getsource = getsource


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
        "sources": sources,
    }
    sys.stdout.write(json.dumps(report) + "\n")
    sys.stdout.flush()
    os._exit(0)


entry.start = start
from sheet_app.__main__ import main  # the entry point of ``sheet-app``

main(sys.argv[1:])
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


def test_the_next_start_reads_the_shipped_table_without_parsing_toml(tmp_path: Path) -> None:
    """The first start parses the shipped table's TOML and keeps its data in the app's cache folder
    (``rules.keep_parsed_tables``); the next start reads it back: no ``tomllib`` imported at all (issue 15)."""
    kept = tmp_path / "cache" / "sheet_app" / "rulesets" / "douaratil.json"
    first = _start(tmp_path, str(DEMO))
    assert first["docs"] == 1 and "tomllib" in first["loaded"]
    assert kept.is_file()
    again = _start(tmp_path, str(DEMO))
    assert again["docs"] == 1 and "tomllib" not in again["loaded"]


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


def test_a_start_reads_no_module_source_and_loads_no_plugin_scan(tmp_path: Path) -> None:
    """Two costs of a start no user needs (issue 15). PySide's import hook asks of every module imported
    after PySide6 whether its source names PySide6: through ``inspect.getsource`` it tokenized ~95 files
    and read compiled modules as text (20–40 ms); ``sheet_app.app.quick_pyside_probe`` answers by
    reading the bytes. And pydantic's plugin loader (for no plugin: ``PYDANTIC_DISABLE_PLUGINS``, set by
    the entry point) imported ``importlib.metadata`` with ``email``, ``csv``… (15–35 ms)."""
    report = _start(tmp_path, str(DEMO))
    sources = report["sources"]
    assert isinstance(sources, list)
    # Only modules that are no file (``sys``, ``io``…) still go to PySide's own answer.
    # Files read: PySide's own first three, at its import (before the app can answer in its place); after
    # that only modules that are no file (``sys``, ``io``…), which PySide's own answer dismisses at once.
    read = [name for name, is_file in sources if is_file]
    assert set(read) <= {"shiboken6", "enum", "PySide6"}, sources
    assert len(sources) <= 10, sources
    loaded = report["loaded"]
    assert isinstance(loaded, list)
    for module in ("importlib.metadata", "email", "csv"):
        assert module not in loaded, module


def _run(code: str, **env: str) -> str:
    full_env = {k: v for k, v in os.environ.items() if k != "PYDANTIC_DISABLE_PLUGINS"}
    full_env.update(env)
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=full_env, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout.strip()


PLUGIN_CODE = (
    "import sys\n"
    "from sheet_app import app\n"
    "put = app.skip_plugin_loader()\n"
    "from pydantic import BaseModel, ValidationError\n"
    "class Point(BaseModel):\n"
    "    x: int\n"
    "assert Point(x='3').x == 3\n"
    "try:\n"
    "    Point(x='a')\n"
    "except ValidationError:\n"
    "    pass\n"
    "else:\n"
    "    raise AssertionError('not validated')\n"
    "from pydantic.plugin._loader import get_plugins\n"
    "print(put, 'importlib.metadata' in sys.modules, list(get_plugins()))\n"
)


def test_the_plugin_loader_is_left_out_only_when_plugins_are_off() -> None:
    # Off (the entry point's setting, or pydantic's other words for it): a stand-in answers « no plugin ».
    for off in ("__all__", "1", "true"):
        assert _run(PLUGIN_CODE, PYDANTIC_DISABLE_PLUGINS=off) == "True False []"
    # Some plugins wanted, or no setting: pydantic's own loader, as without the app.
    assert _run(PLUGIN_CODE, PYDANTIC_DISABLE_PLUGINS="some_plugin").startswith("False True")
    assert _run(PLUGIN_CODE).startswith("False True")


def test_the_quick_pyside_probe_answers_as_pyside_for_every_module() -> None:
    code = (
        "import sys\n"
        "from sheet_app import app\n"
        "app.preload()\n"
        "import PySide6.QtCore, __feature__\n"
        "original = __feature__._mod_uses_pyside\n"
        "assert app.quick_pyside_probe() is True\n"
        "assert app.quick_pyside_probe() is False  # once\n"
        "quick = __feature__._mod_uses_pyside\n"
        "import sheet_app.main_window, ui.sheet.sheet_view, PySide6.QtWidgets\n"
        "names = [n for n in sorted(sys.modules) if n not in ('typing.io', 'typing.re')]\n"
        "differ = [n for n in names if quick(sys.modules[n]) != original(sys.modules[n])]\n"
        "uses = sum(bool(quick(sys.modules[n])) for n in names)\n"
        "print(len(names), uses, differ)\n"
    )
    modules, uses, differ = _run(code).split(" ", 2)
    assert differ == "[]"
    # ~296 modules: no model is built by these imports any more (``rules.house``'s header, session 9), so pydantic's
    # plugin loader (``importlib.metadata``, ``email``… ~36 modules) is no longer imported here.
    assert int(modules) > 250 and int(uses) > 30  # the window's own modules name PySide6, the core's do not
