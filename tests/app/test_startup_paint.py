"""The first paint of a start (issue 15: start-up ≤ 2× the floor), guarded by structure, never a time.

A real start (``sheet_app.app.run``, off screen, in a process of its own) paints its window before the
application-wide event filters are installed (each is a Python call per event, and the first event
one of them sees for an object of a Qt class PySide does not expose makes PySide load every Qt class
with its enums); they come in the next pass of the event loop. What must hold all the same: at the
first paint every label of the window is plain text (what ``plain_text``'s filter does at polish), and
right after it the three filters are there, and Python's garbage collector (off from the start of
``run`` to the first paint) is back on. ``guard`` must not read the ``__doc__`` of a Qt method
(PySide builds it on first read, ~80 ms and ~26 enums at a start).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.app.start_probe import ROOT, start_report

DEMO = ROOT / "resources" / "examples" / "douaratil.fiche.json"

# Run as ``python -c``: starts the app on argv[1:], watches the awaited widget (the sheet, or the
# welcome page without argument) and reports at its first paint, then once the loop has turned.
START = r"""
import enum, gc, json, os, sys

enums = []
_create = enum.EnumType._create_


def counted(cls, name, *args, **kwargs):
    made = _create(cls, name, *args, **kwargs)
    enums.append(made)
    return made


enum.EnumType._create_ = counted
# Modules a start has no use for before its first paint (issue 15): imported when first needed.
LATER = ("logging.handlers", "socket", "pickle", "html", "html.entities")
import sheet_app.app as entry

opened = entry.start
report = {}


def state(window):
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QLabel

    from ui.common import app_events, plain_text, wheel

    import pydantic
    import rules

    # Counted before this probe's own walks (``findChildren`` hands Python every object of the window).
    made, owners = len(enums), sorted({e.__qualname__.split(".")[0] for e in enums})
    from PySide6.QtWidgets import QAbstractSpinBox, QComboBox

    kinds = (QLabel, QAbstractSpinBox, QComboBox)
    held = [set(app_events.wrapped(kind, window)) for kind in kinds]  # before findChildren makes wrappers
    walked = [set(window.findChildren(kind)) for kind in kinds]
    labels = window.findChildren(QLabel)
    models, todo = [], [pydantic.BaseModel]
    while todo:
        for sub in todo.pop().__subclasses__():
            models.append(sub)
            todo.append(sub)
    built = [m for m in set(models) if m.__dict__.get("__pydantic_complete__")]
    return {
        "filters": [wheel._installed is not None, plain_text._installed is not None, window.shortcuts_win is not None],
        "labels": len(labels),
        "rich_labels": [l.text() for l in labels if l.textFormat() != Qt.TextFormat.PlainText],
        "enums": made,
        "enum_owners": owners,
        "held_as_walked": [len(h) if h == w else sorted(map(str, w - h)) for h, w in zip(held, walked)],
        "modules": sorted(m for m in LATER if m in sys.modules),
        "gc": gc.isenabled(),
        "frozen": gc.get_freeze_count(),
        "models_built": len(built),
        "actions_built": sorted(m.__name__ for m in built if issubclass(m, rules.Action)),
    }


def start(window, files):
    from PySide6.QtCore import QEvent, QObject, QTimer

    opened(window, files)
    target = next(iter(window.docs)) if window.docs else window.welcome

    def after():
        report["after"] = state(window)
        sys.stdout.write(json.dumps(report) + "\n")
        sys.stdout.flush()
        os._exit(0)

    class FirstPaint(QObject):
        def eventFilter(self, watched, event):
            if event.type() == QEvent.Type.Paint and "paint" not in report:
                report["paint"] = state(window)
                QTimer.singleShot(0, after)
            return False

    start.watch = FirstPaint()
    target.installEventFilter(start.watch)


entry.start = start
from sheet_app.__main__ import main  # the entry point of ``sheet-app``

main(sys.argv[1:])
os._exit(3)
"""


# What a start of the Douaratil demo sheet makes before its first paint (counts are steady where times
# are not): Python enum classes for Qt's enums (37 for the floor; 389 in session 3, 304 in session 4, 246
# in session 6: no widget class loaded wholesale, ``ui.common.scroll_parts``), and
# pydantic models built (63 in session 4, before ``defer_build`` on the actions). Session 7: 233–241 (no
# ``QIcon``, no ``QStandardPaths``; no ``QStyleOptionViewItem`` without a journal entry or a wound); then
# 218–226, counted before this probe's own ``findChildren`` (the window's labels found among the objects
# Python holds, ``app_events.wrapped``: no walk hands Python a spin box's validator, a tab widget's stacked
# layout, a combo box's list view… whose classes cost 15 enum classes). Right after the paint, counted
# after this probe's walk at the paint: ≤ 247 (240 for d20 and Sévérité).
ENUMS_AT_PAINT = 228
ENUMS_AFTER_PAINT = 247
MODELS_AT_PAINT = 37
# The welcome page (first run): 273 in session 5; no widget of a class PySide does not expose is reached
# before its paint, so no Qt class is loaded that the page does not use.
WELCOME_ENUMS_AT_PAINT = 220  # session 7: 224, then 217 (``app_events.wrapped``)
# Qt classes of dialogs (and the item delegate's style, with the first journal entry drawn): their
# classes and enums are loaded where a dialog is made (session 6), not by the modules' imports.
DIALOG_CLASSES = ("QMessageBox", "QFileDialog", "QDialogButtonBox", "QInputDialog", "QStyle")
# Session 7: ``QIcon`` (3 enum classes, 157 members: ``QAction(text, parent)`` weighed the icon overload
# first; an action is made from its parent, then given its text) and ``QStandardPaths`` (the documents
# folder, asked with the first export) are not loaded before the first paint either.
LATER_CLASSES = ("QIcon", "QStandardPaths")


def _start(tmp_path: Path, *args: str) -> dict[str, Any]:
    return start_report(START, tmp_path, *args, timeout=180)


def test_a_sheet_is_painted_before_the_application_filters_and_in_plain_text(tmp_path: Path) -> None:
    report = _start(tmp_path, str(DEMO))
    paint, after = report["paint"], report["after"]
    assert paint["filters"] == [False, False, False]  # none of the three sees the building and first paint
    assert paint["labels"] > 20
    assert paint["rich_labels"] == []  # every label plain text at the first paint, as the filter makes them
    assert after["filters"] == [True, True, True]  # installed in the loop's next pass
    assert after["rich_labels"] == []
    # Python's garbage collector is off while the start builds and paints, back on right after, the
    # start's objects (~60,000) moved out of its way first: turned on as they were, the collector walked
    # them all in the next allocation (~30 ms right after the paint).
    assert paint["gc"] is False and after["gc"] is True
    assert paint["frozen"] == 0 and after["frozen"] > 20_000


def test_the_welcome_page_is_painted_in_plain_text_then_the_filters_come(tmp_path: Path) -> None:
    report = _start(tmp_path)
    paint, after = report["paint"], report["after"]
    assert paint["filters"] == [False, False, False]
    assert paint["labels"] > 5 and paint["rich_labels"] == []
    assert after["filters"] == [True, True, True]


def test_the_qt_enums_made_before_the_first_paint_stay_few(tmp_path: Path) -> None:
    """PySide makes a Python ``enum`` class for each Qt enum type the first time its class is used; a
    Python filter on the application (or reading a Qt method's ``__doc__``) before the first paint made
    ~60–90 more of them, loading every Qt class (389 at a start in session 3; ~300 since)."""
    report = _start(tmp_path, str(DEMO))
    assert report["paint"]["enums"] <= ENUMS_AT_PAINT, report["paint"]["enums"]
    # Nor in the pass right after it, where the application filters come (session 6: their rules reach
    # the widgets already there by ``findChildren``, not ``allWidgets()``, which loaded every widget
    # class: 290 there, 307 on main).
    assert report["after"]["enums"] <= ENUMS_AFTER_PAINT, report["after"]["enums"]


def test_the_welcome_page_loads_no_dialog_class_and_few_enums_before_its_paint(tmp_path: Path) -> None:
    """Session 6: the dialogs' Qt classes (message boxes, file dialogs, button boxes, the input dialog)
    are imported where a dialog is made; each costs its enum classes (~1.3 M instructions each) and its
    class. The sheet's start reaches a scroll area's viewport before its paint, which makes PySide load
    every widget class (dialogs' included): the welcome page does not."""
    paint = _start(tmp_path)["paint"]
    assert not set(DIALOG_CLASSES) & set(paint["enum_owners"]), paint["enum_owners"]
    assert not set(LATER_CLASSES) & set(paint["enum_owners"]), paint["enum_owners"]
    assert paint["enums"] <= WELCOME_ENUMS_AT_PAINT, paint["enums"]
    # Its spin boxes' validators and the tab widget's stacked layout (its recent files are a list view).
    assert not {"QStackedLayout", "QValidator"} & set(paint["enum_owners"]), paint["enum_owners"]


@pytest.mark.parametrize("system", ["douaratil", "d20", "segments", "severite"])
def test_a_sheet_start_loads_no_widget_class_wholesale(tmp_path: Path, system: str) -> None:
    """A widget Qt made in C++ (a scroll area's viewport, a scroll bar's container) first handed to Python
    by ``viewport()`` or ``parentWidget()`` makes PySide load every widget class, dialogs' included
    (~30–60 enum classes); ``scroll_parts.meet`` hands them over by name first (session 6). Every demo
    sheet is painted without a dialog's class or the style's."""
    paint = _start(tmp_path, str(ROOT / "resources" / "examples" / f"{system}.fiche.json"))["paint"]
    assert not set(DIALOG_CLASSES) & set(paint["enum_owners"]), paint["enum_owners"]
    assert not set(LATER_CLASSES) & set(paint["enum_owners"]), paint["enum_owners"]
    assert paint["enums"] <= ENUMS_AT_PAINT, paint["enums"]
    if system in ("douaratil", "segments"):  # no journal entry, no wound: nothing for a delegate to measure
        assert not {"QStyleOptionViewItem", "QStyleOption"} & set(paint["enum_owners"]), paint["enum_owners"]
    # Session 7: the labels are made plain without a walk over every object of the window (the objects Qt
    # made in C++ under the widgets, a combo box's list view, a spin box's validator: their classes).
    assert not {"QListView", "QStackedLayout", "QValidator"} & set(paint["enum_owners"]), paint["enum_owners"]


@pytest.mark.parametrize("what", ["douaratil", "d20", "segments", "severite", "welcome"])
def test_the_widgets_python_holds_are_every_label_and_box_of_the_window(tmp_path: Path, what: str) -> None:
    """``plain_labels`` and the filters' rules for the widgets already there (``wheel``, ``plain_text``)
    take the labels and boxes among the objects Python holds (``app_events.wrapped``: every widget made
    in Python, and the labels a form layout made for its rows), not by ``findChildren``, which hands
    Python every object of the window (session 7: 15 enum classes before the first paint). At the first
    paint of each demo sheet and of the welcome page, and once the loop has turned, they are exactly
    the labels, spin boxes and combo boxes ``findChildren`` finds (a count when the same, else the
    ones missed)."""
    args = [] if what == "welcome" else [str(ROOT / "resources" / "examples" / f"{what}.fiche.json")]
    report = _start(tmp_path, *args)
    for when in ("paint", "after"):
        same = report[when]["held_as_walked"]
        assert all(isinstance(count, int) for count in same), (when, same)
        assert same[0] > 10, (when, same)  # labels there to compare


@pytest.mark.parametrize("sheet", [True, False])
def test_a_start_imports_no_log_file_machinery_nor_html_before_its_paint(tmp_path: Path, sheet: bool) -> None:
    """Session 6: the log file's handler imports ``logging.handlers`` (and with it ``socket``, ``pickle``…)
    with the first record; ``html`` (and its 2,000 named entities) comes with the first tooltip, journal
    entry or house rules shown."""
    paint = _start(tmp_path, *([str(DEMO)] if sheet else []))["paint"]
    assert paint["modules"] == [], paint["modules"]


def test_action_models_are_built_when_first_used_not_at_start(tmp_path: Path) -> None:
    """A pydantic model's validator is built when its class is made, unless ``defer_build``: the action
    models (``rules.Action``, ~30 at a start: the core's and the system's) are built when first used, as
    only a few are made before the user's first edit (issue 15): at the first paint of a Douaratil sheet,
    « Stabiliser » alone, whose chances the dying panel shows. Otherwise only what reading the file and
    the rule table needed is built."""
    report = _start(tmp_path, str(DEMO))
    assert report["paint"]["actions_built"] == ["Stabilise"]
    assert report["paint"]["models_built"] <= MODELS_AT_PAINT, report["paint"]["models_built"]


def test_guard_reads_no_doc_of_a_builtin_slot() -> None:
    from ui.common import guard

    class QtLikeMethod:
        """A builtin-like callable whose ``__doc__`` is costly to build (as PySide's methods)."""

        def __init__(self) -> None:
            self.__name__ = "close"
            self.__qualname__ = "QWidget.close"

        def __call__(self) -> bool:
            return True

        def __getattribute__(self, name: str) -> Any:
            if name == "__doc__":
                raise AssertionError("the guard read __doc__")
            return object.__getattribute__(self, name)

    slot = guard.guarded(QtLikeMethod())
    assert slot.__name__ == "close" and slot.__qualname__ == "QWidget.close"
    assert slot() is True

    def documented() -> int:
        """Kept."""
        return 1

    assert guard.guarded(documented).__doc__ == "Kept."


@pytest.mark.parametrize("after_paint", [False, True])
def test_a_window_made_for_tests_or_by_the_app_ends_with_the_filters(qtbot: Any, after_paint: bool) -> None:
    from sheet_app.main_window import MainWindow

    window = MainWindow(filters_after_paint=after_paint)
    qtbot.addWidget(window)
    assert (window.shortcuts_win is None) is after_paint
    window.resize(1280, 800)
    window.show()
    qtbot.waitUntil(lambda: window.shortcuts_win is not None)
    window.close()
