"""The GM table as a Qt model: Qt's contract kept through every kind of change (QAbstractItemModelTester),
the rows that changed and only those reported, never a reset; the players' view shows no number."""

from __future__ import annotations

import re
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QAbstractItemModelTester

import rules
from tests.ui.table_helpers import mixed_vm, wolf
from ui.table.model import (
    HEADERS,
    NAME,
    NOTE,
    PLAYER_COLUMNS,
    POINTS,
    STATE,
    IdRole,
    SortRole,
    SummaryRole,
    TableModel,
)
from ui.table.viewmodel import BulkRequest, TableViewModel

ROLES = (
    Qt.ItemDataRole.DisplayRole,
    Qt.ItemDataRole.ToolTipRole,
    Qt.ItemDataRole.AccessibleTextRole,
    Qt.ItemDataRole.EditRole,
    Qt.ItemDataRole.StatusTipRole,
    Qt.ItemDataRole.WhatsThisRole,
)


def watch(model: Any) -> QAbstractItemModelTester:
    return QAbstractItemModelTester(model, QAbstractItemModelTester.FailureReportingMode.Warning)


@pytest.fixture(autouse=True)
def _qt_warnings_fail(qapp: Any, qtlog: Any) -> Any:
    yield
    problems = [r.message for r in qtlog.records if "FAIL" in r.message or "QAbstractItemModelTester" in r.message]
    assert not problems, problems


class Spy:
    """Every notification a model sends, in order (``changed``: first row, last row, first and last column)."""

    def __init__(self, model: Any) -> None:
        self.events: list[tuple[Any, ...]] = []
        model.dataChanged.connect(
            lambda a, b, _r=None: self.events.append(("changed", a.row(), b.row(), a.column(), b.column()))
        )
        model.rowsInserted.connect(lambda _p, a, b: self.events.append(("inserted", a, b)))
        model.rowsRemoved.connect(lambda _p, a, b: self.events.append(("removed", a, b)))
        model.modelReset.connect(lambda: self.events.append(("reset",)))
        model.layoutChanged.connect(lambda *_: self.events.append(("layout",)))

    def take(self) -> list[tuple[Any, ...]]:
        events, self.events = self.events, []
        return events


def test_the_model_keeps_qt_s_contract_through_every_change(qtmodeltester: Any) -> None:
    vm = mixed_vm()
    model = TableModel(vm)
    proxy = model  # the model sorts and filters itself
    proxy.sort(0, Qt.SortOrder.DescendingOrder)
    qtmodeltester.check(model)
    testers = [watch(model)]
    ids = [c.id for c in vm.creatures]
    vm.bulk(ids[:4], BulkRequest("damage", "2d6", factors={ids[0]: "half"}))
    vm.add_creatures(wolf(), 3, maximum="1d8+2")
    vm.duplicate(ids[2:4])
    vm.remove([ids[1], ids[5], ids[7]])
    vm.roll_initiative([c.id for c in vm.creatures], "1d20")
    proxy.set_living_only(True)
    proxy.set_name_filter("loup")
    vm.next_turn()
    vm.next_round()
    vm.rename(ids[0], "Croc")
    proxy.set_name_filter("")
    proxy.set_state_filter("dead")
    proxy.set_state_filter("state:en_forme")
    vm.set_gm_view(False)
    vm.set_gm_view(True)
    while vm.undo_stack.canUndo():
        vm.undo_stack.undo()
    assert model.rowCount() == 0
    while vm.undo_stack.canRedo():
        vm.undo_stack.redo()
    assert model.rowCount() == len([c for c in vm.creatures if vm.state_of(c) == "en_forme"])
    proxy.set_state_filter("")
    assert model.rowCount() == len(vm.creatures)
    proxy.sort(1, Qt.SortOrder.AscendingOrder)
    proxy.set_living_only(False)
    qtmodeltester.check(model)
    del testers


def test_a_change_reports_only_the_rows_that_changed_never_a_reset() -> None:
    vm = TableViewModel()
    vm.add_creatures(wolf(), 10)
    model = TableModel(vm)
    spy = Spy(model)
    ids = [c.id for c in vm.creatures]
    sheet_columns = (NAME, HEADERS.index("Blessures"))
    vm.bulk([ids[2], ids[3], ids[7]], BulkRequest("damage", "2"))
    # The sheets changed: their rows, in the columns a sheet shows (not the turn order's column).
    assert spy.take() == [("changed", 2, 3, *sheet_columns), ("changed", 7, 7, *sheet_columns)]
    vm.set_note(ids[5], "blessé à la patte")
    assert spy.take() == [("changed", 5, 5, NOTE, NOTE)]
    vm.undo_stack.undo()
    assert spy.take() == [("changed", 5, 5, NOTE, NOTE)]
    vm.remove([ids[1], ids[2], ids[8]])
    assert spy.take() == [("removed", 8, 8), ("removed", 1, 2)]
    vm.undo_stack.undo()
    assert spy.take() == [("inserted", 1, 2), ("inserted", 8, 8)]
    vm.duplicate([ids[4]])
    assert spy.take() == [("inserted", 5, 5)]
    vm.undo_stack.undo()
    spy.take()
    # The turn marker moves: only its rows repaint, whole.
    vm.next_turn()
    assert spy.take() == [("changed", 0, 0, 0, len(HEADERS) - 1)]
    vm.next_turn()
    assert spy.take() == [("changed", 0, 1, 0, len(HEADERS) - 1)]
    # An initiative that changes the turn order moves the row: a layout change, never a reset.
    vm.set_initiative(ids[6], 20)
    events = spy.take()
    assert events[0] == ("layout",) and ("reset",) not in events
    assert model.row_of(ids[6]) == 0
    # Journal-only changes repaint nothing.
    vm.set_title("Meute")
    assert spy.take() == []


def test_display_follows_the_rules_summary() -> None:
    vm = mixed_vm()
    model = TableModel(vm)
    for row in range(model.rowCount()):
        creature = model.creature(row)
        assert creature is not None
        summary = rules.summarise(creature.sheet)
        assert model.index(row, NAME).data() == creature.name
        assert model.index(row, STATE).data() == summary.state_label
        assert model.index(row, SummaryRole if False else STATE).data(SummaryRole) == summary
        points = model.index(row, POINTS).data()
        assert str(summary.current).replace("-", "−") in points
        assert model.index(row, 0).data(IdRole) == creature.id


def test_editing_a_cell_goes_through_the_view_model() -> None:
    vm = TableViewModel()
    vm.add_creatures(wolf())
    model = TableModel(vm)
    assert model.setData(model.index(0, NAME), "Croc")
    assert vm.creatures[0].sheet.name == "Croc"
    initiative = HEADERS.index("Init.")
    assert model.setData(model.index(0, initiative), "−3")
    assert vm.creatures[0].initiative == -3
    assert not model.setData(model.index(0, initiative), "vite")
    assert vm.creatures[0].initiative == -3
    assert model.setData(model.index(0, initiative), "")
    assert vm.creatures[0].initiative is None


def test_the_players_view_shows_no_number_in_any_column() -> None:
    vm = mixed_vm()
    ids = [c.id for c in vm.creatures]
    vm.roll_initiative(ids, "1d20")
    vm.bulk(ids, BulkRequest("damage", "6"))
    vm.set_note(ids[0], "12 PV, rusé")
    vm.next_turn()
    vm.set_gm_view(False)
    for model in (TableModel(vm), TableModel(vm, player=True)):
        assert model.player
        shown_somewhere = 0
        for row in range(model.rowCount()):
            creature = model.creature(row)
            assert creature is not None
            for column in range(model.columnCount()):
                index = model.index(row, column)
                for role in ROLES:
                    value = index.data(role)
                    if value is None or value == "":
                        continue
                    shown_somewhere += 1
                    assert column in PLAYER_COLUMNS, (column, role, value)
                    if column == NAME:
                        assert value == creature.name  # a name is the GM's word, numbered or not
                    else:
                        assert not re.search(r"\d", str(value)), (creature.name, HEADERS[column], role, value)
                assert index.data(SummaryRole) is None or column in PLAYER_COLUMNS
                assert not (model.flags(index) & Qt.ItemFlag.ItemIsEditable)
        assert shown_somewhere
        # The players still see the words: state labels and conditions.
        labels = {model.index(r, STATE).data() for r in range(model.rowCount())}
        assert "Mort" in labels or "En forme" in labels


def test_a_fixed_players_model_ignores_the_gm_switch() -> None:
    vm = mixed_vm()
    players = TableModel(vm, player=True)
    gm = TableModel(vm)
    assert players.player and not gm.player
    assert players.index(0, POINTS).data() is None
    assert gm.index(0, POINTS).data()


def test_filters_by_name_state_and_the_living() -> None:
    vm = mixed_vm()
    wolves = [c.id for c in vm.creatures if c.name.startswith("Loup")]
    vm.bulk(wolves[:2], BulkRequest("damage", "50"))
    proxy = TableModel(vm)
    total = len(vm.creatures)
    proxy.set_living_only(True)
    assert proxy.rowCount() == total - 2
    proxy.set_living_only(False)
    proxy.set_state_filter("dead")
    assert proxy.ids() == wolves[:2]
    proxy.set_state_filter("")
    proxy.set_name_filter("aldric")  # folded: accents and case
    assert [vm.creature(i).name for i in proxy.ids()] == ["Aldric de Valombre"]  # type: ignore[union-attr]
    proxy.set_name_filter("ALDÉR")
    assert [vm.creature(i).name for i in proxy.ids()] == ["Aldéric"]  # type: ignore[union-attr]


def test_turn_order_sort_puts_the_highest_initiative_first() -> None:
    vm = mixed_vm()
    for value, creature in zip((3, 18, None, 7, 18, 1, 2, 9, 11, 4), vm.creatures, strict=False):
        vm.set_initiative(creature.id, value)
    proxy = TableModel(vm)
    proxy.sort(HEADERS.index("Init."), Qt.SortOrder.DescendingOrder)
    assert proxy.ids() == vm.turn_order()
    assert proxy.index(0, 0).data(SortRole) >= proxy.index(1, 0).data(SortRole) == 18.0
    assert proxy.headerData(NAME, Qt.Orientation.Horizontal) == "Nom"
    assert not proxy.index(0, 0).parent().isValid() and not proxy.index(0, 0, proxy.index(0, 0)).isValid()


def test_every_role_of_a_cell_in_one_call_and_none_left_over_from_the_previous_cell(qapp: Any) -> None:
    """A delegate asks a cell's roles in one ``multiData`` call whose storage Qt reuses from cell to
    cell: the turn's highlight and bold must not leak onto the next cell drawn."""
    from PySide6.QtWidgets import QStyledItemDelegate, QStyleOptionViewItem

    vm = TableViewModel()
    vm.add_creatures(wolf(), 2)
    vm.next_turn()
    model = TableModel(vm)
    delegate = QStyledItemDelegate()
    turn_row = model.row_of(vm.state.turn)  # type: ignore[arg-type]
    other_row = 1 - turn_row
    highlighted = QStyleOptionViewItem()
    delegate.initStyleOption(highlighted, model.index(turn_row, NAME))
    plain = QStyleOptionViewItem()
    delegate.initStyleOption(plain, model.index(other_row, NAME))
    assert highlighted.font.bold() and highlighted.backgroundBrush.style() != Qt.BrushStyle.NoBrush
    assert highlighted.text == "Loup 1"
    assert not plain.font.bold() and plain.backgroundBrush.style() == Qt.BrushStyle.NoBrush
    assert plain.text == "Loup 2"


def test_a_blow_to_every_row_is_one_data_changed_over_them_never_a_reset_nor_a_layout() -> None:
    """Issue 11's speed, held by structure: a bulk action on the whole table repaints the rows that
    changed in one notification (the sheet's columns), moves no row, resets nothing."""
    vm = TableViewModel()
    vm.add_creatures(wolf(), 40)
    vm.roll_initiative([c.id for c in vm.creatures], "1d20")
    model = TableModel(vm)
    spy = Spy(model)
    vm.bulk([c.id for c in vm.creatures], BulkRequest("damage", "1"))
    assert spy.take() == [("changed", 0, 39, NAME, HEADERS.index("Blessures"))]
    vm.undo_stack.undo()
    assert spy.take() == [("changed", 0, 39, NAME, HEADERS.index("Blessures"))]


def test_what_a_repaint_asks_is_worked_out_once_per_row_change_and_never_stale() -> None:
    """A view asks every role of every visible cell at each repaint: the answers come from each row's
    values kept until the row changes (its creature, its turn mark, the view mode), and they are always
    those a full computation gives."""
    from ui.table.model import PAINT_ROLES

    vm = mixed_vm()
    model = TableModel(vm)

    def check_all() -> None:
        for row in range(model.rowCount()):
            creature = model.creature(row)
            assert creature is not None
            for column in range(model.columnCount()):
                for role in PAINT_ROLES:
                    expected = model._value(creature, column, role, model.player)
                    assert model.index(row, column).data(role) == expected, (row, column, role)

    check_all()
    first = model._painted_row(model.creature(0))  # type: ignore[arg-type]
    assert model._painted_row(model.creature(0)) is first  # type: ignore[arg-type]
    assert model.drawing(0, POINTS) is not None and model.drawing(0, NAME) is None
    ids = [c.id for c in vm.creatures]
    vm.bulk(ids[:3], BulkRequest("damage", "4"))
    vm.bulk(ids[:1], BulkRequest("damage", "20"))
    assert vm.is_dead(vm.creatures[0])
    vm.next_turn()
    vm.next_turn()
    check_all()
    turn_row = model.row_of(vm.state.turn)  # type: ignore[arg-type]
    assert model.index(turn_row, 0).data() == "▶" and model.drawing(turn_row, POINTS)[1] is True  # type: ignore[index]
    vm.set_gm_view(False)
    check_all()
    assert not (model.flags(model.index(0, NAME)) & Qt.ItemFlag.ItemIsEditable)
    vm.set_gm_view(True)
    assert model.flags(model.index(0, NAME)) & Qt.ItemFlag.ItemIsEditable
    assert not model.flags(model.index(0, STATE)) & Qt.ItemFlag.ItemIsEditable
    assert model.flags(model.index(-1, -1)) == Qt.ItemFlag.NoItemFlags
