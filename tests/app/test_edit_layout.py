"""Issue 15, « edit → repainted in one frame »: what an edit must not do in the real main window.

Speed is measured by ``python -m bench --only edits``, never here. These tests check the structure that
makes an edit cheap, so that it cannot silently come back: an edit changes texts and repaints them; it
does not lay the sheet out again (no layout request climbs to the sheet, nothing moves), and with a long
journal shown in full a new entry is one inserted row, measured alone.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QEvent, QObject, QRect, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractItemView, QApplication, QLineEdit, QPushButton, QTreeView, QWidget

import rules
from sheet_app import files
from sheet_app.main_window import MainWindow
from ui.common.journal import JournalDelegate
from ui.common.messages import MessageBar
from ui.common.models import KeyRole
from ui.sheet.conditions import SUMMARY_LINES
from ui.sheet.sheet_view import SheetView


def settle() -> None:
    for _ in range(30):
        QApplication.processEvents()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def open_sheet(window: MainWindow, tmp_path: Path, system: str, journal: tuple[str, ...] = ()) -> SheetView:
    path = tmp_path / f"{system}.fiche.json"
    files.write_document(path, files.Document("sheet", [rules.demo_sheet(system)], [list(journal)]))
    window.open_paths([path])
    settle()
    view = window.current_view()
    assert isinstance(view, SheetView)
    return view


class Watch(QObject):
    """Layout requests, moves and resizes of the widgets of the window while installed."""

    def __init__(self) -> None:
        super().__init__()
        self.layouts: list[QObject] = []
        self.moved: list[QObject] = []

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind == QEvent.Type.LayoutRequest:
            self.layouts.append(watched)
        elif kind in (QEvent.Type.Move, QEvent.Type.Resize):
            self.moved.append(watched)
        return False


@contextmanager
def watching() -> Iterator[Watch]:
    watch = Watch()
    app = QApplication.instance()
    assert app is not None
    app.installEventFilter(watch)
    try:
        yield watch
    finally:
        app.removeEventFilter(watch)


def geometry(view: SheetView, *names: str) -> dict[str, QRect]:
    """Where each panel of the sheet is, in the sheet's coordinates (the frame, the right-hand column, and
    the ``names`` asked for)."""
    panels = {
        "messages": view.messages,
        "splitter": view.splitter,
        "conditions": view.conditions,
        "journal": view.journal,
        "health": view.health,
        "quick": view.health.quick,
    }
    kept = {"messages", "splitter", "conditions", "journal", *names}
    return {name: QRect(w.mapTo(view, w.rect().topLeft()), w.size()) for name, w in panels.items() if name in kept}


def a_condition(view: SheetView) -> Any:
    """The first state of the list that can be ticked and is not a health state."""
    tree = view.conditions.view
    model = tree.model()
    states = {s.id for s in rules.describe(view.vm.sheet.system).health_states}
    for row in range(model.rowCount()):
        group = model.index(row, 0)
        for index in [model.index(r, 0, group) for r in range(model.rowCount(group))] or [group]:
            if model.flags(index) & Qt.ItemFlag.ItemIsUserCheckable and index.data(KeyRole) not in states:
                return index
    raise AssertionError("no state to tick")


def tick(view: SheetView, index: Any) -> None:
    tree = view.conditions.view
    tree.setFocus()
    tree.setCurrentIndex(index)
    QTest.keyClick(tree, Qt.Key.Key_Space)


def typed(view: SheetView, mode: str, text: str) -> None:
    quick = view.health.quick
    quick.set_mode(mode)
    quick.amount.setFocus()
    quick.amount.clear()
    QTest.keyClicks(quick.amount, text)
    QTest.keyClick(quick.amount, Qt.Key.Key_Return)


@pytest.mark.parametrize("system", rules.SYSTEMS)
def test_a_condition_ticked_and_unticked_moves_nothing_and_lays_out_nothing_above_its_panel(
    window: MainWindow, tmp_path: Path, system: str
) -> None:
    view = open_sheet(window, tmp_path, system)
    index = a_condition(view)
    tick(view, index)  # once for the caches and the first message
    settle()
    tick(view, index)
    settle()
    # The panels above the derived values stay (the derived values may gain a row: a state's effects).
    before = geometry(view, "health", "quick")
    summary_height = view.conditions.summary.height()
    for _ in range(2):
        sheet = view.vm.sheet
        with watching() as watch:
            tick(view, index)
            settle()
        assert view.vm.sheet is not sheet  # the state really changed
        assert geometry(view, "health", "quick") == before
        assert view.conditions.summary.height() == summary_height
        # Nothing of the sheet's frame was asked to lay out again: the request stops in the column.
        climbed = [w for w in watch.layouts if w in (window, view, view.splitter, view.messages)]
        assert not climbed, climbed
        assert not [w for w in watch.moved if isinstance(w, QWidget) and w in (view.splitter, view.journal)]


@pytest.mark.parametrize("system", rules.SYSTEMS)
def test_damage_and_healing_typed_move_no_panel(window: MainWindow, tmp_path: Path, system: str) -> None:
    """The roll line, the numbers, the badge and the message bar keep their places whatever they say: the
    sheet's frame and the right-hand column do not move, the quick entry keeps its size. (The health panel
    may grow or shrink by a line when temporary points come or go: that is the state changing.)"""
    view = open_sheet(window, tmp_path, system)
    typed(view, "damage", "1d4")
    typed(view, "heal", "4")
    settle()
    before = geometry(view)
    quick = view.health.quick.size()
    for mode, text in (("damage", "1d4"), ("heal", "4"), ("damage", "2"), ("heal", "2")):
        with watching() as watch:
            typed(view, mode, text)
            settle()
        assert geometry(view) == before, (mode, text)
        assert view.health.quick.size() == quick
        climbed = [w for w in watch.layouts if w in (window, view, view.splitter)]
        assert not climbed, (mode, climbed)


def test_the_message_bar_shows_and_clears_without_a_style_sheet_or_a_layout(qtbot: Any) -> None:
    holder = QWidget()
    qtbot.addWidget(holder)
    bar = MessageBar(holder)
    bar.resize(600, bar.height())
    holder.show()
    settle()
    size = bar.size()
    with watching() as watch:
        bar.show_message("Refusé : rien n'a changé.", "error")
        settle()
        assert bar.kind() == "error" and bar.closable() and bar.text() == "Refusé : rien n'a changé."
        bar.clear()
        settle()
    assert bar.kind() == "" and not bar.closable() and bar.text() == ""
    assert bar.styleSheet() == "" and bar.size() == size
    assert bar not in watch.layouts and holder not in watch.layouts


def test_the_conditions_summary_keeps_its_height_and_elides_a_long_text(window: MainWindow, tmp_path: Path) -> None:
    view = open_sheet(window, tmp_path, "segments")
    summary = view.conditions.summary
    height = summary.height()
    long = "états : " + ", ".join(f"État numéro {i} (posé)" for i in range(40))
    summary.setText(long)
    settle()
    assert summary.height() == height
    assert summary.text() == long  # the whole text, for whoever reads it
    assert summary.shown().endswith("…") and summary.shown().count("\n") < SUMMARY_LINES
    assert summary.label.toolTip() == long
    summary.setText("états : aucun")
    settle()
    assert summary.height() == height and summary.shown() == "états : aucun" and summary.label.toolTip() == ""


def test_a_new_entry_in_a_journal_of_5000_shown_in_full_is_one_inserted_row_measured_alone(
    window: MainWindow, tmp_path: Path
) -> None:
    entries = tuple(f"Dégâts\nUlfred subit {i % 7 + 1} dégâts.\nDés : 1d8 = {i % 8 + 1}" for i in range(5000))
    view = open_sheet(window, tmp_path, "douaratil", entries)
    QTest.mouseClick(view.findChild(QPushButton, "journalShowAll"), Qt.MouseButton.LeftButton)
    settle()
    journal = view.journal
    model = journal.model
    assert model.rowCount() == len(view.vm.journal) >= 5000
    # A tree scrolling per entry: only the rows on screen are measured (a list view measures them all).
    assert isinstance(journal.view, QTreeView)
    assert journal.view.verticalScrollMode() == QAbstractItemView.ScrollMode.ScrollPerItem
    delegate = journal.view.itemDelegate()
    assert isinstance(delegate, JournalDelegate)
    signals: list[str] = []
    model.modelReset.connect(lambda: signals.append("reset"))
    model.rowsInserted.connect(lambda _p, first, last: signals.append(f"inserted {first}-{last}"))
    model.rowsRemoved.connect(lambda *_: signals.append("removed"))
    measured: list[int] = []
    size_hint = delegate.sizeHint

    def counting(option: Any, index: Any) -> Any:
        measured.append(index.row())
        return size_hint(option, index)

    delegate.sizeHint = counting  # type: ignore[method-assign]
    rows = model.rowCount()
    amount = view.findChild(QLineEdit, "quickAmount")
    amount.setFocus()
    QTest.keyClicks(amount, "2")
    QTest.keyClick(amount, Qt.Key.Key_Return)
    settle()
    added = model.rowCount() - rows
    assert added >= 1 and model.entry(0) == view.vm.journal[-1]
    assert signals == [f"inserted 0-{added - 1}"]
    on_screen = journal.view.viewport().height() // max(1, journal.view.fontMetrics().lineSpacing())
    assert 0 < len(set(measured)) <= on_screen + 10, len(set(measured))


@pytest.mark.parametrize("width", [300, 356, 460])
def test_the_trauma_gauge_labels_fit_under_their_tiers(qtbot: Any, width: int) -> None:
    """« Compliqué (10) » was clipped at 1024×700: each tier's label fits in its tier and half the gaps
    around it, in a smaller font if it must (never below 6.5 pt)."""
    from PySide6.QtGui import QFontMetricsF

    from ui.common.health_bar import _label_font
    from ui.sheet.health import _tiers

    info = rules.describe("severite")
    tiers = _tiers(info.extra.get("trauma_tiers", ()))
    assert any(t.label.startswith("Compliqué") for t in tiers)
    notches = sum(t.notches for t in tiers)
    holder = QWidget()
    qtbot.addWidget(holder)
    cell_gap, tier_gap = 2.0, 8.0
    cell = (width - 2 - tier_gap * (len(tiers) - 1) - cell_gap * (notches - len(tiers))) / notches
    font = _label_font(tiers, cell, cell_gap, tier_gap, holder.font())
    assert font.pointSizeF() >= 6.5
    metrics = QFontMetricsF(font)
    for tier in tiers:
        room = tier.notches * (cell + cell_gap) - cell_gap + tier_gap
        assert metrics.horizontalAdvance(tier.label) <= room, (tier.label, width)
