"""What the GM table must not do again (issue 11, speed): structure, never time.

- The journal draws only the part of an entry the viewport shows (a blow to a thousand creatures writes
  an entry several screens tall), with the very same pixels.
"""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect
from PySide6.QtGui import QAbstractTextDocumentLayout, QImage, QPainter
from PySide6.QtWidgets import QApplication, QStyleOptionViewItem

from tests.ui.table_helpers import make_table, wolf
from ui.common.journal import JournalDelegate
from ui.table.viewmodel import BulkRequest, TableViewModel


class WholeEntries(JournalDelegate):
    """The drawing before: every entry drawn whole, whatever the viewport shows (the oracle)."""

    def _paint(
        self,
        painter: QPainter,
        option: QStyleOptionViewItem,
        index: QModelIndex | QPersistentModelIndex,
        shown: QRect | None = None,
    ) -> None:
        super()._paint(painter, option, index, None)


def _long_journal_table(qtbot: Any) -> Any:
    vm = TableViewModel()
    for _ in range(3):
        vm.add_creatures(wolf(), 30)
    ids = [c.id for c in vm.creatures]
    vm.bulk(ids, BulkRequest("damage", "2"))
    vm.bulk(ids[:10], BulkRequest("heal", "1"))
    view = make_table(qtbot, vm)
    view.resize(1100, 520)
    QApplication.processEvents()
    return view


def _grab(view: Any) -> QImage:
    viewport = view.journal.viewport()
    viewport.repaint()
    return viewport.grab().toImage()


def test_journal_draws_only_what_the_viewport_shows(qtbot: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    view = _long_journal_table(qtbot)
    journal = view.journal
    viewport = journal.viewport()
    tall = journal.visualRect(journal.model().index(1, 0))
    assert tall.height() > 2 * viewport.height()  # the blow's entry: several screens tall
    clips: list[tuple[float, float]] = []
    draw = QAbstractTextDocumentLayout.draw

    def spy(layout: Any, painter: QPainter, context: Any) -> None:
        whole = layout.documentSize().height()
        clips.append((context.clip.top(), context.clip.height()) if context.clip.isValid() else (0.0, whole))
        draw(layout, painter, context)

    monkeypatch.setattr(QAbstractTextDocumentLayout, "draw", spy)
    for value in (0, tall.height() // 2, journal.verticalScrollBar().maximum()):
        journal.verticalScrollBar().setValue(value)
        QApplication.processEvents()
        clips.clear()
        viewport.repaint()
        assert clips, "nothing drawn"
        # What each entry draws is at most as tall as the viewport: none is drawn whole when it is taller.
        assert all(0 <= height <= viewport.height() for _top, height in clips), clips


def test_journal_pixels_are_those_of_whole_entries(qtbot: Any) -> None:
    view = _long_journal_table(qtbot)
    journal = view.journal
    bar = journal.verticalScrollBar()
    clipped = journal.itemDelegate()
    whole = WholeEntries(journal)
    for value in (0, 37, bar.maximum() // 3, bar.maximum() // 2 + 11, bar.maximum()):
        bar.setValue(value)
        QApplication.processEvents()
        journal.setItemDelegate(clipped)
        ours = _grab(view)
        journal.setItemDelegate(whole)
        theirs = _grab(view)
        assert ours == theirs, f"journal scrolled to {value}"
    journal.setItemDelegate(clipped)
    journal.setFocus()
    journal.setCurrentIndex(journal.model().index(1, 0))
    bar.setValue(bar.maximum() // 4)
    QApplication.processEvents()
    ours = _grab(view)
    journal.setItemDelegate(whole)
    assert ours == _grab(view), "selected entry"


def test_the_idle_warm_up_leaves_every_shown_row_ready_to_draw(qtbot: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """While the app is idle the model works out, for every row shown, what a repaint asks of its cells:
    scrolling to any row then only draws (nothing of a row is worked out during the scroll)."""
    from ui.table import model as table_model

    vm = TableViewModel()
    vm.add_creatures(wolf(), 100)
    vm.add_creatures(wolf(), 20)
    vm.roll_initiative([c.id for c in vm.creatures], "1d20")
    view = make_table(qtbot, vm)
    model = view.model
    model.set_name_filter("Loup 1")  # some rows hidden by the filter: only the rows shown are worked out
    shown = model.rowCount()
    visible = view.grid.viewport().height() // view.grid.verticalHeader().defaultSectionSize() + 1
    assert visible < shown < 120
    vm.bulk([c.id for c in vm.creatures], BulkRequest("damage", "1"))
    qtbot.waitUntil(lambda: not model._warm.isActive(), timeout=10_000)
    for row in range(shown):
        creature = model.creature(row)
        assert creature is not None
        kept = model._painted.get(creature.id)
        assert kept is not None and kept[0] is creature, row
    worked: list[int] = []
    row_cells = table_model.TableModel._row_cells

    def counting(self: Any, creature: Any) -> Any:
        worked.append(creature.id)
        return row_cells(self, creature)

    monkeypatch.setattr(table_model.TableModel, "_row_cells", counting)
    bar = view.grid.verticalScrollBar()
    bar.setValue(0)
    while bar.value() < bar.maximum():
        bar.setValue(bar.value() + bar.pageStep())
        view.grid.viewport().repaint()
    assert worked == []


def test_a_thousand_bars_stay_kept_and_the_store_is_bounded_by_bytes(
    qapp: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Scrolling back through a 1,000-creature table finds every bar it drew (kept by least recent use:
    a store smaller than the table would lose each bar before the scroll came back to it); the store
    never holds more than its bytes."""
    from PySide6.QtCore import QRectF

    from ui.table import delegates

    bar_bytes = 220 * 28 * 4
    assert delegates.PIXMAPS_KEPT >= 2 * 1000 and delegates.PIXMAP_BYTES_KEPT >= 1000 * bar_bytes
    delegate = delegates.PointsDelegate()
    image = QImage(240, 40, QImage.Format.Format_ARGB32_Premultiplied)
    painter = QPainter(image)
    option = QStyleOptionViewItem()
    option.rect = QRect(0, 0, 220, 28)
    option.font = qapp.font()
    monkeypatch.setattr(delegates, "PIXMAP_BYTES_KEPT", 10 * bar_bytes)
    try:
        for i in range(25):
            delegate._cached(painter, option, ("bar", i), False, lambda p, r, f: p.fillRect(QRectF(r), 0))
    finally:
        painter.end()
    assert len(delegate._pixmaps) == 10 and delegate._bytes == 10 * bar_bytes
    assert next(iter(delegate._pixmaps))[0] == ("bar", 15)  # the oldest ones went first


def test_a_bulk_action_titles_each_system_s_entries_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A blow to many creatures gives each of them the same action: its title is worked out once per
    system and found again by the action object (not by hashing the action at each creature), and each
    creature's entry carries it."""
    import rules
    from ui.table import viewmodel

    vm = TableViewModel()
    vm.add_creatures(wolf(), 40)
    for system_id in rules.SYSTEMS:
        vm.add_creatures(rules.demo_sheet(system_id), 5)
    titled: list[str] = []
    hashed: list[Any] = []
    action_title = viewmodel.action_title
    damage_hash = rules.Damage.__hash__

    def hashing(action: Any) -> int:
        hashed.append(action)
        return damage_hash(action)

    monkeypatch.setattr(rules.Damage, "__hash__", hashing)

    def counting(info: Any, action: Any) -> str:
        titled.append(info.id)
        return action_title(info, action)

    monkeypatch.setattr(viewmodel, "action_title", counting)
    ids = [c.id for c in vm.creatures]
    vm.bulk(ids, BulkRequest("damage", "1"))
    assert sorted(titled) == sorted(rules.SYSTEMS)
    assert len(hashed) <= 2 * len(rules.SYSTEMS)  # per system (here and in the rules), not per creature
    assert all(c.journal[-1].startswith("Dégâts 1") for c in vm.creatures)
    titled.clear()
    vm.advance_time("minute")  # a new action object per creature, equal ones: one title per system still
    assert sorted(titled) == sorted(rules.SYSTEMS)
