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
