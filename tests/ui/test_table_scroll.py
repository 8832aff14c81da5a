"""The GM table's scroll (issue 15, session 8), held by structure: the delegates bound to the grid key
each cell as Qt's own option would, and a table edited, scrolled and undone shows what it shows once
every kept drawing and row value is dropped and worked out again."""

from __future__ import annotations

import random
from typing import Any

from PySide6.QtWidgets import QApplication

import rules
from tests.ui.table_helpers import make_table
from ui.table import delegates
from ui.table.model import NAME, NOTE
from ui.table.table_view import TableView
from ui.table.viewmodel import BulkRequest, TableViewModel


def _many(count: int = 12) -> TableViewModel:
    vm = TableViewModel(rng=random.Random(3))
    for system_id in rules.SYSTEMS:
        vm.add_creatures(rules.demo_sheet(system_id), count, name=f"{system_id} ", numbered=True, npc=True)
    vm.roll_initiative([c.id for c in vm.creatures], "1d20")
    return vm


def _grab(view: TableView) -> Any:
    QApplication.processEvents()
    view.grid.viewport().repaint()
    return view.grid.viewport().grab().toImage()


def _drop_caches(view: TableView) -> None:
    """Everything the table keeps between two paints forgotten: the delegates' pixmaps and bars, the
    model's row texts and painted values."""
    grid = view.grid
    for column in range(view.model.columnCount()):
        delegate = grid.itemDelegateForColumn(column)
        if delegate is not None:
            delegate.forget()
            for name in ("_bars", "_tokens", "_states"):
                getattr(delegate, name, {}).clear()
    view.model._painted.clear()
    view.model._cells.clear()


def _positions(view: TableView) -> list[int]:
    bar = view.grid.verticalScrollBar()
    return [0, 1, bar.maximum() // 2, bar.maximum() // 2 + 1, bar.maximum()]


def _same_as_fresh(view: TableView) -> None:
    bar = view.grid.verticalScrollBar()
    positions = _positions(view)
    kept = []
    for value in positions:
        bar.setValue(value)
        kept.append(_grab(view))
    _drop_caches(view)
    for value, image in zip(positions, kept, strict=True):
        bar.setValue(value)
        assert _grab(view) == image, f"scrolled to {value}"


def test_an_edited_table_scrolled_shows_what_it_shows_with_nothing_kept(qtbot: Any) -> None:
    vm = _many()
    view = make_table(qtbot, vm)
    view.resize(1400, 420)
    ids = [c.id for c in vm.creatures]
    _same_as_fresh(view)
    view.select_ids(ids[2:9])
    view.grid.setFocus()

    def renamed() -> None:
        vm.rename(ids[4], "Loup alpha")

    steps = [
        renamed,
        lambda: vm.set_note(ids[5], "embusqué"),
        lambda: vm.set_initiative(ids[6], 30),
        lambda: vm.bulk(ids[::3], BulkRequest("damage", "9")),
        lambda: vm.bulk(ids[1::4], BulkRequest("condition_on", condition=vm.info("d20").conditions[0].id)),
        vm.next_turn,
        vm.next_turn,
        vm.undo_stack.undo,
        vm.undo_stack.undo,
        vm.undo_stack.redo,
        lambda: vm.bulk(ids, BulkRequest("damage", "40")),
        lambda: vm.set_gm_view(False),
        lambda: vm.set_gm_view(True),
    ]
    for step in steps:
        step()
        _same_as_fresh(view)
    # What the rows say after the edits, read back from what the grid shows.
    row = view.model.row_of(ids[4])
    assert view.model.index(row, NAME).data() == "Loup alpha"
    assert view.model.index(view.model.row_of(ids[5]), NOTE).data() == "embusqué"


def test_the_bound_delegates_key_each_cell_as_qt_s_option_says(qtbot: Any, monkeypatch: Any) -> None:
    """The text delegate keys a cell by its row's parity instead of reading ``option.features``, and
    every delegate takes the pixel ratio from the grid's paint pass instead of the painter's device:
    both equal what Qt gives, at every scroll position (odd and even first rows), selected or not."""
    vm = _many()
    view = make_table(qtbot, vm)
    view.resize(1400, 420)
    grid = view.grid
    seen: list[tuple[Any, Any, float, float]] = []
    copy = delegates.TextDelegate._copy

    def checked(self: Any, painter: Any, option: Any, index: Any, key: Any, x: int, y: int, ratio: float) -> None:
        seen.append((key[2], option.features, ratio, painter.device().devicePixelRatioF()))
        copy(self, painter, option, index, key, x, y, ratio)

    cached = delegates._RowDelegate._cached
    ratios: list[tuple[float | None, float]] = []

    def checked_row(self: Any, painter: Any, *args: Any) -> None:
        ratios.append((grid.paint_pass.ratio, painter.device().devicePixelRatioF()))
        cached(self, painter, *args)

    monkeypatch.setattr(delegates.TextDelegate, "_copy", checked)
    monkeypatch.setattr(delegates._RowDelegate, "_cached", checked_row)
    for value in _positions(view):
        grid.verticalScrollBar().setValue(value)
        _grab(view)
    view.select_ids([c.id for c in vm.creatures][::2])
    for value in _positions(view):
        grid.verticalScrollBar().setValue(value)
        _grab(view)
    assert len(seen) > 100 and len(ratios) > 40
    assert {s[0] for s in seen} == {s[1] for s in seen} and len({s[0] for s in seen}) == 2
    assert all(mine == theirs for mine, theirs, _r, _d in seen)
    assert all(ratio == device for _m, _t, ratio, device in seen)
    assert all(ratio == device for ratio, device in ratios)
    assert grid.paint_pass.ratio is None  # only during a paint


def test_a_bar_seen_again_is_found_by_its_summary_without_comparing_bars(qtbot: Any, monkeypatch: Any) -> None:
    """A repaint of rows already seen neither hashes nor compares a ``BarState`` (Python code, several
    microseconds each): each summary's bar has its number."""
    from ui.common.health_bar import BarState

    vm = _many(4)
    view = make_table(qtbot, vm)
    _grab(view)
    calls: list[str] = []
    monkeypatch.setattr(BarState, "__hash__", lambda self: calls.append("hash") or 0)
    monkeypatch.setattr(BarState, "__eq__", lambda self, other: calls.append("eq") or self is other)
    _grab(view)
    _grab(view)
    assert calls == []


def test_each_row_s_bar_is_worked_out_with_the_row_and_equal_bars_are_one_object(qtbot: Any) -> None:
    """The bar a row draws is part of what the model works out once per row change (the idle warm-up
    does it ahead of a scroll), not at each paint; rows with equal bars share one object, and a row
    whose sheet changes gets its new bar."""
    from ui.table.model import POINTS

    vm = _many(3)
    view = make_table(qtbot, vm)
    model = view.model
    same = [c.id for c in vm.creatures if c.sheet.system == "d20"]
    bars = {id(model.drawing(model.row_of(cid), POINTS)[0][1]) for cid in same}  # type: ignore[index]
    assert len(bars) == 1
    before = model.drawing(model.row_of(same[0]), POINTS)[0][1]  # type: ignore[index]
    vm.bulk(same[:1], BulkRequest("damage", "5"))
    after = model.drawing(model.row_of(same[0]), POINTS)[0][1]  # type: ignore[index]
    assert after != before
    assert model.drawing(model.row_of(same[1]), POINTS)[0][1] is before  # type: ignore[index]
