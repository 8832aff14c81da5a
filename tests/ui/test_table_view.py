"""The GM table as a GM drives it: clicks and keys on the real widgets, the dialogs filled in by hand."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication, QDialog, QDialogButtonBox, QLineEdit, QWidget

import rules
from rules import table as rtable
from tests.ui.table_helpers import make_table, mixed_vm, named_npc, wolf
from ui.table import dialogs
from ui.table.model import NAME, NOTE, POINTS, STATE, IdRole
from ui.table.table_view import TableView
from ui.table.viewmodel import BulkRequest, TableViewModel


def row_point(view: TableView, creature_id: int, column: int = NAME) -> QPoint:
    row = view.model.row_of(creature_id)
    assert row >= 0
    index = view.proxy.index(row, column)
    view.grid.scrollTo(index)
    return view.grid.visualRect(index).center()


def click_row(qtbot: Any, view: TableView, creature_id: int, modifier: Any = Qt.KeyboardModifier.NoModifier) -> None:
    qtbot.mouseClick(view.grid.viewport(), Qt.MouseButton.LeftButton, modifier, row_point(view, creature_id))


def double_click(qtbot: Any, view: TableView, creature_id: int, column: int) -> None:
    """A real double-click: the press that selects, then the double-click on the same cell."""
    point = row_point(view, creature_id, column)
    qtbot.mouseClick(view.grid.viewport(), Qt.MouseButton.LeftButton, pos=point)
    qtbot.mouseDClick(view.grid.viewport(), Qt.MouseButton.LeftButton, pos=point)


def drive(monkeypatch: pytest.MonkeyPatch, qtbot: Any, handler: Callable[[Any], None]) -> list[QDialog]:
    """The next dialogs are shown and driven by ``handler`` (keys and clicks) instead of blocking."""
    seen: list[QDialog] = []

    def run(dialog: QDialog) -> bool:
        seen.append(dialog)
        dialog.show()
        qtbot.waitExposed(dialog)
        dialog.activateWindow()
        qtbot.waitUntil(dialog.isActiveWindow)
        handler(dialog)
        dialog.hide()
        owner = dialog.parentWidget()
        if owner is not None:  # back to the table's window, as after a modal dialog
            owner.window().activateWindow()
            qtbot.waitUntil(owner.window().isActiveWindow)
        return dialog.result() == QDialog.DialogCode.Accepted

    monkeypatch.setattr(dialogs, "run_dialog", run)
    return seen


def press_ok(qtbot: Any, dialog: QDialog) -> None:
    box = dialog.findChild(QDialogButtonBox)
    qtbot.mouseClick(box.button(QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton)


def shown_text(view: TableView, creature_id: int, column: int) -> str:
    row = view.model.row_of(creature_id)
    return str(view.proxy.index(row, column).data() or "")


# --- the proof of issue 11 (window side; files and crash in tests/app) ------------------------------


def test_six_wolves_half_on_two_undo_death_save_and_players_view(qtbot: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    view = make_table(qtbot, seed=11)
    vm = view.vm
    vm.add_creatures(wolf("Loup"))  # the template, a row of the table
    template = vm.creatures[0].id
    click_row(qtbot, view, template)

    def add_six(dialog: Any) -> None:
        assert dialog.source.currentData() == "row" and dialog.row.currentData() == template
        dialog.count.setValue(6)
        assert dialog.numbered.isChecked()
        qtbot.mouseClick(dialog.roll_maximum, Qt.MouseButton.LeftButton)
        dialog.maximum.selectAll()
        qtbot.keyClicks(dialog.maximum, "2d8+4")
        press_ok(qtbot, dialog)

    drive(monkeypatch, qtbot, add_six)
    qtbot.keyClick(view.grid, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    vm.remove([template])
    wolves = [c.id for c in vm.creatures]
    assert [c.name for c in vm.creatures] == [f"Loup {i}" for i in range(1, 7)]
    for creature in vm.creatures:
        assert "Maximum tiré aux dés : 2d8" in creature.journal[-1]
    vm.add_creatures(named_npc("Brann", current=0))
    brann = vm.creatures[-1].id
    before = {c.id: c.sheet for c in vm.creatures}

    # Select 4 wolves: a click, then Maj+clicks.
    click_row(qtbot, view, wolves[0])
    click_row(qtbot, view, wolves[3], Qt.KeyboardModifier.ShiftModifier)
    assert sorted(view.selected_ids()) == wolves[:4]

    def two_d6_half_on_two(dialog: Any) -> None:
        qtbot.keyClicks(dialog.amount, "2d6")
        assert dialog.once.isChecked()
        # The first two lines of the dialog's list get « moitié ».
        first = dialog.list.visualRect(dialog.list.model().index(0, 0)).center()
        second = dialog.list.visualRect(dialog.list.model().index(1, 0)).center()
        qtbot.mouseClick(dialog.list.viewport(), Qt.MouseButton.LeftButton, pos=first)
        qtbot.mouseClick(dialog.list.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ControlModifier, second)
        qtbot.mouseClick(dialog.factor_buttons["half"], Qt.MouseButton.LeftButton)
        press_ok(qtbot, dialog)

    drive(monkeypatch, qtbot, two_d6_half_on_two)
    qtbot.keyClick(view.grid, Qt.Key.Key_B, Qt.KeyboardModifier.ControlModifier)
    rolled = re.search(r"2d6 \((\d), (\d)\) = (\d+)", vm.state.journal[-1])
    assert rolled
    total = int(rolled.group(3))
    halved = set(dialog_order := [c.id for c in vm.creatures if c.id in wolves[:4]][:2])
    assert dialog_order == wolves[:2]
    for cid in wolves:
        old = before[cid]
        dealt = 0 if cid not in wolves[:4] else (total // 2 if cid in halved else total)
        expected = max(0, old.current - dealt)
        assert vm.creature(cid).sheet.current == expected  # type: ignore[union-attr]
        assert shown_text(view, cid, POINTS).startswith(f"{expected} / {old.base_maximum} PA")
        # A monster at 0 is dead; the others are as their rules say (a big hit may knock one out).
        state = rules.derive(vm.creature(cid).sheet).state  # type: ignore[union-attr]
        assert shown_text(view, cid, STATE) == rules.describe("douaratil").state(state).label
        assert (state == "mort") == (expected == 0)

    # Undo (the table's one stack) restores all six at once.
    vm.undo_stack.undo()
    for cid in wolves:
        assert vm.creature(cid).sheet == before[cid]  # type: ignore[union-attr]
        assert shown_text(view, cid, POINTS).startswith(f"{before[cid].current} / ")

    # A dying named NPC rolls its death save when its turn starts, and it shows.
    vm.set_initiative(brann, 30)
    view.grid.setFocus()
    qtbot.keyClick(view.grid, Qt.Key.Key_Space, Qt.KeyboardModifier.ControlModifier)
    if not rtable.has_turns("douaratil"):
        # Until Douaratil splits its round (StartTurn), the round passes whole at its end.
        qtbot.keyClick(
            view.grid, Qt.Key.Key_Space, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
        )
    entry = vm.creature(brann).journal[-1]  # type: ignore[union-attr]
    assert re.search(r"contre la mort.*3d6 \(\d, \d, \d\) = \d+", entry, re.S), entry
    assert re.search(r"3d6 \(\d, \d, \d\) = \d+", view.messages._label.text())
    assert "Brann" in view.turn_label.text() or vm.state.round == 2

    # The players' view: no number anywhere.
    view.set_gm_view(False)
    for row in range(view.proxy.rowCount()):
        for column in range(view.proxy.columnCount()):
            if view.grid.isColumnHidden(column):
                continue
            text = str(view.proxy.index(row, column).data() or "")
            if column != NAME:
                assert not re.search(r"\d", text), text
    assert not view.messages.text() and view.messages.kind() == ""  # the bar's space stays, empty


# --- keyboard first ----------------------------------------------------------------------------------


def test_typing_an_amount_and_enter_damages_the_selection(qtbot: Any) -> None:
    vm = TableViewModel()
    vm.add_creatures(named_npc(current=12), 3, name="Garde")
    view = make_table(qtbot, vm)
    ids = [c.id for c in vm.creatures]
    click_row(qtbot, view, ids[0])
    click_row(qtbot, view, ids[2], Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(view.grid, "5")
    assert view.amount.hasFocus() and view.amount.text() == "5"
    qtbot.keyClick(view.amount, Qt.Key.Key_Return)
    assert [c.sheet.current for c in vm.creatures] == [7, 12, 7]
    assert view.amount.text() == "" and view.grid.hasFocus()
    # A key for heal: Maj+Entrée.
    qtbot.keyClicks(view.grid, "2")
    qtbot.keyClick(view.amount, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    assert [c.sheet.current for c in vm.creatures] == [9, 12, 9]
    # Ctrl+A then dice.
    qtbot.keyClick(view.grid, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(view.grid, "1")
    qtbot.keyClicks(view.amount, "d4")
    qtbot.keyClick(view.amount, Qt.Key.Key_Return)
    assert len({c.sheet.current for c in vm.creatures}) <= 3
    assert "Lancé une fois pour tous : 1d4" in vm.state.journal[-1]


def test_the_window_s_heal_key_makes_enter_heal(qtbot: Any) -> None:
    vm = TableViewModel()
    vm.add_creatures(named_npc(current=4))
    view = make_table(qtbot, vm)
    click_row(qtbot, view, vm.creatures[0].id)
    view.focus_quick_entry("heal")
    qtbot.keyClicks(view.amount, "3")
    qtbot.keyClick(view.amount, Qt.Key.Key_Enter)
    assert vm.creatures[0].sheet.current == 7


def test_nothing_selected_or_nothing_typed_is_said(qtbot: Any) -> None:
    vm = TableViewModel()
    vm.add_creatures(wolf())
    view = make_table(qtbot, vm)
    view.amount.setFocus()
    qtbot.keyClicks(view.amount, "3")
    qtbot.keyClick(view.amount, Qt.Key.Key_Return)
    assert "Sélectionnez" in view.messages._label.text()
    click_row(qtbot, view, vm.creatures[0].id)
    view.amount.clear()
    view.amount.setFocus()
    qtbot.keyClick(view.amount, Qt.Key.Key_Return)
    assert "montant" in view.messages._label.text()
    qtbot.keyClicks(view.amount, "1,5")
    qtbot.keyClick(view.amount, Qt.Key.Key_Return)
    assert "décimales" in view.messages._label.text()
    assert vm.creatures[0].sheet.current == 9


def test_escape_returns_to_the_rows_and_delete_removes(qtbot: Any) -> None:
    vm = TableViewModel()
    vm.add_creatures(wolf(), 3)
    view = make_table(qtbot, vm)
    second = vm.creatures[1].id
    click_row(qtbot, view, second)
    qtbot.keyClicks(view.grid, "4")
    qtbot.keyClick(view.amount, Qt.Key.Key_Escape)
    assert view.grid.hasFocus()
    qtbot.keyClick(view.grid, Qt.Key.Key_Delete)
    assert [c.name for c in vm.creatures] == ["Loup 1", "Loup 3"]
    vm.undo_stack.undo()
    assert len(vm.creatures) == 3


def test_arrows_and_shift_select_rows(qtbot: Any) -> None:
    vm = TableViewModel()
    vm.add_creatures(wolf(), 5)
    view = make_table(qtbot, vm)
    ids = [c.id for c in vm.creatures]
    click_row(qtbot, view, ids[1])
    qtbot.keyClick(view.grid, Qt.Key.Key_Down, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClick(view.grid, Qt.Key.Key_Down, Qt.KeyboardModifier.ShiftModifier)
    assert view.selected_ids() == ids[1:4]
    qtbot.keyClick(view.grid, Qt.Key.Key_Down)
    assert view.selected_ids() == [ids[4]]


def test_f2_renames_in_place_and_the_note_is_typed_in_its_cell(qtbot: Any) -> None:
    vm = TableViewModel()
    vm.add_creatures(wolf())
    view = make_table(qtbot, vm)
    cid = vm.creatures[0].id
    click_row(qtbot, view, cid, Qt.KeyboardModifier.NoModifier)
    qtbot.keyClick(view.grid, Qt.Key.Key_F2)
    editor = QApplication.focusWidget()
    assert isinstance(editor, QLineEdit)
    editor.selectAll()
    qtbot.keyClicks(editor, "Croc-Blanc")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    # The item delegate commits on the next turn of the event loop.
    qtbot.waitUntil(lambda: vm.creatures[0].sheet.name == "Croc-Blanc")
    double_click(qtbot, view, cid, NOTE)
    editor = QApplication.focusWidget()
    assert isinstance(editor, QLineEdit)
    qtbot.keyClicks(editor, "boite")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: vm.creatures[0].note == "boite")


def test_double_click_or_ctrl_enter_asks_for_the_full_sheet(qtbot: Any) -> None:
    vm = mixed_vm()
    view = make_table(qtbot, vm)
    cid = vm.creatures[7].id
    with qtbot.waitSignal(view.openRequested) as opened:
        double_click(qtbot, view, cid, STATE)
    assert opened.args == [cid]
    click_row(qtbot, view, cid)
    with qtbot.waitSignal(view.openRequested) as opened:
        qtbot.keyClick(view.grid, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert opened.args == [cid]
    with qtbot.waitSignal(view.openRequested):
        qtbot.keyClick(view.grid, Qt.Key.Key_Return)


def test_next_turn_and_next_round_keys_and_buttons(qtbot: Any) -> None:
    vm = TableViewModel()
    vm.add_creatures(wolf(), 3)
    view = make_table(qtbot, vm)
    view.grid.setFocus()
    qtbot.keyClick(view.grid, Qt.Key.Key_Space, Qt.KeyboardModifier.ControlModifier)
    assert view.turn_label.text() == "Round 1 — tour de Loup 1"
    assert shown_text(view, vm.creatures[0].id, 0) == "▶"
    button = view.findChild(QWidget, "button_actNextTurn")
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert view.turn_label.text() == "Round 1 — tour de Loup 2"
    assert shown_text(view, vm.creatures[0].id, 0) == "✓"
    qtbot.keyClick(view.grid, Qt.Key.Key_Space, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert view.turn_label.text() == "Round 2 — tour de Loup 1"


def test_the_bulk_dialog_rolls_per_creature_and_sets_a_condition(qtbot: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    vm = mixed_vm()
    view = make_table(qtbot, vm)
    view.grid.setFocus()
    qtbot.keyClick(view.grid, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)

    def per_creature(dialog: Any) -> None:
        qtbot.keyClicks(dialog.amount, "1d6")
        qtbot.mouseClick(dialog.each, Qt.MouseButton.LeftButton)
        press_ok(qtbot, dialog)

    drive(monkeypatch, qtbot, per_creature)
    qtbot.mouseClick(view.findChild(QWidget, "button_actBulk"), Qt.MouseButton.LeftButton)
    assert "lancés pour chacun" in vm.state.journal[-1]

    def condition(dialog: Any) -> None:
        assert dialog.kind.currentData() == "condition_on"
        dialog.condition.setCurrentIndex(dialog.condition.findData("a_terre"))
        press_ok(qtbot, dialog)

    drive(monkeypatch, qtbot, condition)
    qtbot.keyClick(view.grid, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert "État À terre : ajouté" in vm.state.journal[-1]

    def empty_then_cancel(dialog: Any) -> None:
        press_ok(qtbot, dialog)
        assert dialog.error.isVisible() and "montant" in dialog.error.text()
        dialog.reject()

    drive(monkeypatch, qtbot, empty_then_cancel)
    steps = vm.undo_stack.count()
    view.act_bulk.trigger()
    assert vm.undo_stack.count() == steps


def test_the_factor_of_a_row_is_chosen_in_its_cell(qtbot: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    vm = TableViewModel()
    vm.add_creatures(named_npc(current=12), 2, name="Garde")
    view = make_table(qtbot, vm)
    qtbot.keyClick(view.grid, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)

    def double_on_second(dialog: Any) -> None:
        qtbot.keyClicks(dialog.amount, "3")
        index = dialog.list.model().index(1, 1)
        dialog.list.setCurrentIndex(index)
        qtbot.keyClick(dialog.list, Qt.Key.Key_F2)
        combo = dialog.list.indexWidget(index) or QApplication.focusWidget()
        combo.setCurrentIndex(combo.findData("double"))
        qtbot.keyClick(combo, Qt.Key.Key_Return)
        qtbot.waitUntil(lambda: dialog.factor_of(1) == "double")
        press_ok(qtbot, dialog)

    drive(monkeypatch, qtbot, double_on_second)
    view.act_bulk.trigger()
    assert [c.sheet.current for c in vm.creatures] == [9, 6]


def test_initiative_rolled_from_the_dialog_sorts_the_rows(qtbot: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    vm = mixed_vm()
    view = make_table(qtbot, vm)

    def everyone(dialog: Any) -> None:
        qtbot.mouseClick(dialog.everyone, Qt.MouseButton.LeftButton)
        dialog.expression.selectAll()
        qtbot.keyClicks(dialog.expression, "1d20+1")
        press_ok(qtbot, dialog)

    drive(monkeypatch, qtbot, everyone)
    view.grid.setFocus()
    qtbot.keyClick(view.grid, Qt.Key.Key_I, Qt.KeyboardModifier.ControlModifier)
    assert all(c.initiative is not None for c in vm.creatures)
    assert view.proxy.ids() == vm.turn_order()


def test_filters_from_the_bar(qtbot: Any) -> None:
    vm = mixed_vm()
    wolves = [c.id for c in vm.creatures if c.name.startswith("Loup")]
    vm.remove([])
    view = make_table(qtbot, vm)
    from ui.table.viewmodel import BulkRequest

    vm.bulk(wolves[:3], BulkRequest("damage", "40"))
    qtbot.mouseClick(view.living_only, Qt.MouseButton.LeftButton)
    assert view.proxy.rowCount() == len(vm.creatures) - 3
    qtbot.mouseClick(view.living_only, Qt.MouseButton.LeftButton)
    qtbot.keyClicks(view.filter_name, "loup")
    assert view.proxy.rowCount() == 6
    view.filter_state.setCurrentIndex(view.filter_state.findData("dead"))
    assert view.proxy.ids() == wolves[:3]


def test_rest_and_time_menus(qtbot: Any) -> None:
    vm = mixed_vm()
    view = make_table(qtbot, vm)
    ids = [c.id for c in vm.creatures if c.sheet.system == "douaratil"]
    view.select_ids(ids)
    view.refresh_rest_menu()
    labels = [a.text() for a in view.rest_menu.actions()]
    assert labels == ["Repos court", "Repos long"]
    view.rest_menu.actions()[1].trigger()
    assert all("Repos long" in vm.creature(i).journal[-1] for i in ids)  # type: ignore[union-attr]
    clock = vm.creatures[0].sheet.clock
    view.act_day.trigger()
    assert vm.creatures[0].sheet.clock > clock


def test_every_table_action_can_be_triggered(qtbot: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    vm = mixed_vm()
    view = make_table(qtbot, vm)
    view.select_ids([vm.creatures[0].id])
    monkeypatch.setattr(dialogs, "run_dialog", lambda dialog: False)  # every dialog cancelled
    names = []
    for item in view.table_actions():
        if item is None or not hasattr(item, "trigger"):
            continue
        names.append(item.objectName())
        item.trigger()
        QApplication.processEvents()
    assert len(set(names)) == len(names) and all(names)
    assert view.player_window is not None and view.player_window.isVisible()
    # Each action with a shortcut shows it in its menu text (Qt does) and has a unique one.
    keys = [a.shortcut().toString() for a in view.table_actions() if a is not None and hasattr(a, "shortcut")]
    keys = [k for k in keys if k]
    assert len(keys) == len(set(keys))


def test_the_players_window_follows_the_table(qtbot: Any) -> None:
    vm = mixed_vm()
    view = make_table(qtbot, vm)
    qtbot.keyClick(view.grid, Qt.Key.Key_J, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    window = view.player_window
    assert window is not None
    qtbot.waitExposed(window)
    assert window.model.player
    view.vm.next_turn()
    assert "tour de" in window.heading.text()
    visible = [c for c in range(window.proxy.columnCount()) if not window.grid.isColumnHidden(c)]
    for row in range(window.proxy.rowCount()):
        for column in visible:
            text = str(window.proxy.index(row, column).data() or "")
            if column != NAME:
                assert not re.search(r"\d", text)
    first = window.proxy.index(0, 0).data(IdRole)
    assert first == vm.turn_order()[0]


def test_add_from_a_demo_sheet_and_from_a_file(qtbot: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    view = make_table(qtbot)
    vm = view.vm

    def demo(dialog: Any) -> None:
        dialog.source.setCurrentIndex(dialog.source.findData("demo"))
        dialog.system.setCurrentIndex(dialog.system.findData("severite"))
        assert not dialog.roll_maximum.isEnabled()  # Sévérité has no maximum to roll
        press_ok(qtbot, dialog)

    drive(monkeypatch, qtbot, demo)
    view.act_add.trigger()
    assert vm.creatures[-1].sheet.system == "severite" and vm.creatures[-1].sheet.is_npc

    sheet = rules.demo_sheet("d20")
    view.loader = lambda path: (sheet, ["Ancienne entrée"])

    def from_file(dialog: Any) -> None:
        dialog.source.setCurrentIndex(dialog.source.findData("file"))
        qtbot.keyClicks(dialog.path, str(tmp_path / "aldric.fiche.json"))
        dialog.npc.setChecked(False)
        press_ok(qtbot, dialog)

    drive(monkeypatch, qtbot, from_file)
    view.act_add.trigger()
    added = vm.creatures[-1]
    assert added.sheet.name == "Aldric de Valombre" and not added.sheet.is_npc
    assert added.journal[0] == "Ancienne entrée"


def test_the_grid_s_rows_have_one_fixed_height_and_no_column_sizes_itself_to_its_contents(qtbot: Any) -> None:
    """Issue 11's scrolling, held by structure: a view that measured its rows or columns would ask every
    row of a thousand for its size at each change."""
    from PySide6.QtWidgets import QHeaderView

    view = make_table(qtbot, mixed_vm())
    rows = view.grid.verticalHeader()
    assert rows.sectionResizeMode(0) == QHeaderView.ResizeMode.Fixed
    assert rows.defaultSectionSize() == 28 and not rows.isVisible()
    header = view.grid.horizontalHeader()
    for column in range(header.count()):
        assert header.sectionResizeMode(column) != QHeaderView.ResizeMode.ResizeToContents
    assert not view.grid.wordWrap()
    assert not view.grid.styleSheet()
    # The header draws no selection: it never asks a thousand selected rows whether they are.
    assert not header.highlightSections()
    assert header.selectionModel() is not view.grid.selectionModel()


def test_the_bar_and_badge_of_a_row_seen_before_are_copied_not_drawn(qtbot: Any) -> None:
    """Each drawing is kept per what it shows, its size and its background: a repaint of rows already
    seen draws no new pixmap; a row that becomes selected draws its selected look once."""
    vm = mixed_vm()
    view = make_table(qtbot, vm)
    grid = view.grid
    points, badge = grid.itemDelegateForColumn(POINTS), grid.itemDelegateForColumn(STATE)
    grid.viewport().repaint()
    kept = (len(points._pixmaps), len(badge._pixmaps))
    assert kept[0] and kept[1]
    grid.viewport().repaint()
    assert (len(points._pixmaps), len(badge._pixmaps)) == kept
    click_row(qtbot, view, vm.creatures[0].id)
    grid.viewport().repaint()
    assert len(points._pixmaps) == kept[0] + 1
    grid.viewport().repaint()
    assert len(points._pixmaps) == kept[0] + 1


def test_a_bulk_action_leaves_the_garbage_collector_as_it_found_it(qtbot: Any) -> None:
    import gc

    vm = mixed_vm()
    assert gc.isenabled()
    vm.bulk([c.id for c in vm.creatures], BulkRequest("damage", "3"))
    assert gc.isenabled()
    vm.bulk([c.id for c in vm.creatures], BulkRequest("damage", "3 ans"))  # refused in French
    assert gc.isenabled()
    gc.disable()
    try:
        vm.advance_time("hour")
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_which_columns_python_draws_and_which_qt_draws(qtbot: Any) -> None:
    """Issue 11's scroll speed, held by structure: the bar and the badge are drawn by the table's own
    delegates, the text columns whose cells repeat from row to row by the text delegate (one pixmap
    per look), and only the names (one per row) by Qt from the model's roles."""
    from ui.table.delegates import PointsDelegate, StateDelegate, TextDelegate
    from ui.table.model import HEADERS
    from ui.table.table_view import TEXT_COLUMNS

    view = make_table(qtbot, mixed_vm())
    grid = view.grid
    kinds = {column: type(grid.itemDelegateForColumn(column)) for column in range(len(HEADERS))}
    assert kinds.pop(POINTS) is PointsDelegate and kinds.pop(STATE) is StateDelegate
    assert grid.itemDelegateForColumn(NAME) is None and kinds.pop(NAME) is type(None)
    assert set(kinds) == set(TEXT_COLUMNS) and set(kinds.values()) == {TextDelegate}


def _grabbed(view: TableView) -> Any:
    QApplication.processEvents()
    view.grid.viewport().repaint()
    return view.grid.viewport().grab().toImage()


def test_the_text_columns_kept_as_pixmaps_show_the_very_pixels_qt_draws(qtbot: Any) -> None:
    """The kept drawings are Qt's own, pixel for pixel: a plain row, a selected one, the current cell
    with its focus frame (in the first row and column too), the turn's highlighted row, a dead row's
    grey, a note, the players' view."""
    from PySide6.QtWidgets import QStyledItemDelegate

    from ui.table.table_view import TEXT_COLUMNS

    vm = mixed_vm()
    ids = [c.id for c in vm.creatures]
    vm.bulk(ids[:2], BulkRequest("damage", "40"))
    vm.set_note(ids[0], "embusqué derrière le rocher")
    vm.next_turn()
    vm.next_turn()
    view = make_table(qtbot, vm)
    grid = view.grid
    qt_drawn = QStyledItemDelegate(grid)
    ours = view.text_delegate

    def compare() -> None:
        mine = _grabbed(view)
        for column in TEXT_COLUMNS:
            grid.setItemDelegateForColumn(column, qt_drawn)
        theirs = _grabbed(view)
        for column in TEXT_COLUMNS:
            grid.setItemDelegateForColumn(column, ours)
        assert mine == theirs

    compare()
    view.select_ids(ids[1:4])
    grid.setFocus()
    compare()
    for row, column in ((0, 0), (2, 2), (3, 5)):
        grid.setCurrentIndex(view.model.index(row, column))
        compare()
    vm.set_gm_view(False)
    compare()
    assert ours._pixmaps


def test_a_text_look_is_drawn_once_whatever_the_rows_that_show_it(qtbot: Any) -> None:
    """Forty wolves show few looks (one system, a few initiatives, no conditions): the text delegate
    keeps a pixmap per look, not per row; a repaint of rows already seen draws nothing new; a new font
    forgets them all."""
    vm = TableViewModel()
    vm.add_creatures(wolf(), 40)
    for creature in vm.creatures:
        vm.set_initiative(creature.id, creature.id % 3)
    view = make_table(qtbot, vm)
    grid = view.grid
    bar = grid.verticalScrollBar()
    while True:
        grid.viewport().repaint()
        if bar.value() >= bar.maximum():
            break
        bar.setValue(bar.value() + bar.pageStep())
    kept = len(view.text_delegate._pixmaps)
    # turn, system, conditions, wounds, note: one look each per row background (plain or alternate);
    # initiative: three values.
    assert 0 < kept <= 2 * (5 + 3)
    bar.setValue(0)
    grid.viewport().repaint()
    assert len(view.text_delegate._pixmaps) == kept
    font = grid.font()
    font.setPointSizeF(font.pointSizeF() + 1)
    grid.setFont(font)
    assert not view.text_delegate._pixmaps
