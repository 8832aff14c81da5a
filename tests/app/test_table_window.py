"""The GM table as a document of the main window (issue 11): new, opened from everywhere a sheet opens,
saved, reopened identical, autosaved, recovered after a crash; a creature's full sheet bound to its row;
the « Table » menu and every shortcut."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QMenu, QPushButton

import rules
from sheet_app import files, house_menu
from sheet_app.app import start
from sheet_app.controller import OpenTable, table_document
from sheet_app.main_window import MainWindow
from tests.ui.table_helpers import named_npc, wolf
from ui.common import prompts
from ui.sheet.sheet_view import SheetView
from ui.table import dialogs
from ui.table.table_view import TableView
from ui.table.viewmodel import BulkRequest, TableViewModel

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def window(make_window: Any) -> MainWindow:
    """The main window in the GM's view, as a GM runs a table (the players' view is tested apart)."""
    win = make_window()
    win.set_gm_view(True)
    return win


def table_file(path: Path, seed: int = 3) -> Path:
    """A table with wolves, a named NPC and the demo creatures, some play on it, saved to ``path``."""
    import random

    vm = TableViewModel(rng=random.Random(seed))
    ids = vm.add_creatures(wolf(), 4, maximum="2d8+4")
    vm.add_creatures(named_npc())
    for system_id in rules.SYSTEMS:
        vm.add_creatures(rules.demo_sheet(system_id))
    vm.roll_initiative([c.id for c in vm.creatures], "1d20")
    vm.bulk(ids[:3], BulkRequest("damage", "2d6", factors={ids[0]: "half"}))
    vm.set_note(ids[1], "garde la porte")
    vm.set_title("Embuscade au gué")
    vm.next_turn()
    vm.next_turn()
    path.parent.mkdir(parents=True, exist_ok=True)
    files.write_document(path, table_document(vm.state))
    return path


def current_table(win: MainWindow) -> TableView:
    view = win.current_view()
    assert isinstance(view, TableView)
    return view


def activate(qtbot: Any, win: MainWindow) -> None:
    win.activateWindow()
    qtbot.waitUntil(win.isActiveWindow)


def same_table(a: Any, b: Any) -> None:
    """Two table states hold the same creatures (sheets, journals, initiatives, notes) and fight."""
    assert [c.sheet for c in a.creatures] == [c.sheet for c in b.creatures]
    assert [c.journal for c in a.creatures] == [c.journal for c in b.creatures]
    assert [(c.initiative, c.note) for c in a.creatures] == [(c.initiative, c.note) for c in b.creatures]
    ids_a = {c.id: i for i, c in enumerate(a.creatures)}
    ids_b = {c.id: i for i, c in enumerate(b.creatures)}
    assert (a.round, a.title, a.journal) == (b.round, b.title, b.journal)
    assert (ids_a.get(a.turn), sorted(ids_a[i] for i in a.started)) == (
        ids_b.get(b.turn),
        sorted(ids_b[i] for i in b.started),
    )


# --- a document like a sheet ------------------------------------------------------------------------


def test_new_table_from_the_file_menu_its_shortcut_and_the_welcome_screen(qtbot: Any, window: MainWindow) -> None:
    activate(qtbot, window)
    window.act_new_table.trigger()
    first = current_table(window)
    assert window.tabs.count() == 1 and window.tabs.tabText(0) == "Table"
    qtbot.keyClick(window, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier)
    assert window.tabs.count() == 2 and current_table(window) is not first
    assert QKeySequence("Ctrl+Alt+N").toString() in window.act_new_table.shortcut().toString()
    window.show_welcome()
    button = window.welcome.findChild(QPushButton, "welcomeNewTable")
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert window.tabs.count() == 3 and not window.is_welcome_shown()  # the welcome tab made way
    # A never-saved empty table asks nothing when closed.
    window.close_current()
    assert window.tabs.count() == 2


def test_a_table_opens_from_the_command_line_the_open_dialog_and_the_recent_list(
    qtbot: Any, make_window: Any, answer: Any, tmp_path: Path
) -> None:
    path = table_file(tmp_path / "jdr" / "gue.table.json")
    want, _ = files.read_document(path)
    win = make_window()
    start(win, [path])
    view = current_table(win)
    assert window_title_has(win, "Embuscade au gué — Table de meneur (9 créatures)")
    assert [c.sheet for c in view.vm.creatures] == want.sheets
    assert win.settings.recent_files()[0] == path.resolve()
    win.close_current()
    answer("open_paths", [path])
    win.act_open.trigger()
    assert isinstance(win.current_view(), TableView)
    win.close_current()
    # The recent list, in the menu and on the welcome screen.
    recent = [a for a in win.recent_menu.actions() if a.text().startswith("gue.table.json")]
    recent[0].trigger()
    assert isinstance(win.current_view(), TableView)
    win.close_current()
    win.show_welcome()
    item = win.welcome.recent.item(0)
    win.welcome.recent.itemActivated.emit(item)
    assert isinstance(win.current_view(), TableView)


def window_title_has(win: MainWindow, text: str) -> bool:
    return text in win.windowTitle()


def test_saved_closed_reopened_identical(qtbot: Any, window: MainWindow, answer: Any, tmp_path: Path) -> None:
    view = window.new_table()
    vm = view.vm
    ids = vm.add_creatures(wolf(), 6, maximum="2d8+4")
    vm.add_creatures(named_npc(current=0))
    vm.add_creatures(rules.demo_sheet("severite"))
    vm.roll_initiative(ids, "1d20+2")
    vm.bulk(ids[:4], BulkRequest("damage", "2d6", factors={ids[0]: "half", ids[1]: "half"}))
    vm.set_note(ids[5], "chef de meute")
    vm.set_title("Les loups du col")
    vm.next_turn()
    vm.next_turn()
    assert "*" in window.tabs.tabText(0)
    target = tmp_path / "loups.table.json"
    save_as = answer("save_path", target)
    activate(qtbot, window)
    qtbot.keyClick(window, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert save_as.calls[0][1].name == "les_loups_du_col.table.json"  # the title suggests the name
    assert "*" not in window.tabs.tabText(0) and not window.isWindowModified()
    before = vm.state
    window.close_current()
    assert not window.docs
    (again,) = window.open_paths([target])
    assert isinstance(again, TableView)
    same_table(again.vm.state, before)
    assert again.vm.turn_text() == TableViewModel(before).turn_text()
    assert not window.current_doc().is_modified()  # type: ignore[union-attr]


def test_closing_a_modified_table_asks_and_can_stay(window: MainWindow, answer: Any) -> None:
    view = window.new_table()
    view.vm.add_creatures(wolf())
    ask = answer("save_changes", None)
    assert not window.close_view(view)
    assert ask.calls and ask.calls[0][1] == "Table"
    assert view in window.docs


def test_undo_names_the_table_action_and_follows_the_tab(qtbot: Any, window: MainWindow) -> None:
    view = window.new_table()
    vm = view.vm
    ids = vm.add_creatures(wolf(), 3)
    view.select_ids(ids[:2])
    view.grid.setFocus()
    activate(qtbot, window)
    qtbot.keyClicks(view.grid, "4")
    qtbot.keyClick(view.amount, Qt.Key.Key_Return)
    assert window.act_undo.text() == "&Annuler : Dégâts 4"
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert [c.sheet.current for c in vm.creatures] == [9, 9, 9]
    assert window.act_redo.text() == "&Rétablir : Dégâts 4"


# --- a creature's full sheet, bound to its row ------------------------------------------------------


def test_double_click_opens_the_creature_s_sheet_bound_to_its_row(qtbot: Any, window: MainWindow) -> None:
    table = window.new_table()
    vm = table.vm
    ids = vm.add_creatures(wolf(), 3)
    brann = vm.add_creatures(named_npc(current=12))[0]
    steps = vm.undo_stack.count()
    sheet_view = window.open_creature(window.docs[table], brann)  # type: ignore[arg-type]
    assert isinstance(sheet_view, SheetView) and window.current_view() is sheet_view
    assert window.tabs.tabText(window.tabs.indexOf(sheet_view)).startswith("Brann ⟵ Table")
    assert window.current_doc() is window.docs[table]
    # An edit in the sheet shows at once in the row, once in the journal, one undo step.
    activate(qtbot, window)
    qtbot.keyClick(window, Qt.Key.Key_D, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(sheet_view.health.quick.amount, "5")
    qtbot.keyClick(sheet_view.health.quick.amount, Qt.Key.Key_Return)
    assert vm.creature(brann).sheet.current == 7  # type: ignore[union-attr]
    assert sheet_view.vm.sheet is vm.creature(brann).sheet  # type: ignore[union-attr]
    assert vm.undo_stack.count() == steps + 1
    assert sheet_view.vm.journal == vm.creature(brann).journal  # type: ignore[union-attr]
    assert sum("Dégâts 5" in e for e in vm.creature(brann).journal) == 1  # type: ignore[union-attr]
    assert sheet_view.health.current_label.text() == "7"
    # An edit of the table shows at once in the sheet.
    vm.bulk([brann, ids[0]], BulkRequest("damage", "3"))
    assert sheet_view.vm.sheet.current == 4 and sheet_view.health.current_label.text() == "4"
    # Undo from the sheet's tab is the table's: both follow.
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert vm.creature(brann).sheet.current == 7 and sheet_view.vm.sheet.current == 7  # type: ignore[union-attr]
    assert vm.creature(ids[0]).sheet.current == 9  # type: ignore[union-attr]
    # The table is modified; the sheet's tab says so too.
    assert "*" in window.tabs.tabText(window.tabs.indexOf(sheet_view))
    # Double-clicking the same row again goes to the same tab.
    count = window.tabs.count()
    window.tabs.setCurrentWidget(table)
    table.openRequested.emit(brann)
    assert window.tabs.count() == count and window.current_view() is sheet_view
    # The creature taken off the table: its sheet closes; closing the sheet's tab asks nothing.
    vm.remove([brann])
    assert sheet_view not in window.creature_tabs and window.tabs.indexOf(sheet_view) == -1
    vm.undo_stack.undo()
    other = window.open_creature(window.docs[table], ids[1])  # type: ignore[arg-type]
    assert other is not None
    window.close_view(other)
    assert window.docs and other not in window.creature_tabs


def test_a_refusal_in_the_creature_s_sheet_is_said_there(qtbot: Any, window: MainWindow) -> None:
    table = window.new_table()
    cid = table.vm.add_creatures(rules.demo_sheet("severite"))[0]
    sheet_view = window.open_creature(window.docs[table], cid)  # type: ignore[arg-type]
    assert sheet_view is not None
    before = table.vm.undo_stack.count()
    assert sheet_view.vm.apply(rules.Damage(amount=2, nonlethal=True)) is None
    assert "non létaux" in sheet_view.messages.text()
    assert table.vm.undo_stack.count() == before


def test_closing_the_table_closes_its_creatures_sheets(window: MainWindow, answer: Any) -> None:
    table = window.new_table()
    ids = table.vm.add_creatures(wolf(), 2)
    for cid in ids:
        window.open_creature(window.docs[table], cid)  # type: ignore[arg-type]
    assert len(window.creature_tabs) == 2
    answer("save_changes", "discard")
    assert window.close_view(table)
    assert not window.creature_tabs and window.tabs.count() == 1 and window.is_welcome_shown()


def test_a_creature_goes_out_of_the_table_as_a_sheet_file(window: MainWindow, answer: Any, tmp_path: Path) -> None:
    table = window.new_table()
    cid = table.vm.add_creatures(rules.demo_sheet("d20"))[0]
    table.select_ids([cid])
    target = tmp_path / "aldric.fiche.json"
    answer("save_path", target)
    table.act_export.trigger()
    doc, _ = files.read_document(target)
    assert doc.kind == "sheet" and doc.sheets[0] == table.vm.creature(cid).sheet  # type: ignore[union-attr]
    # And in again, from a file or from an open tab.
    sheet_tab = window.open_paths([target])[0]
    window.tabs.setCurrentWidget(table)

    def from_open_tab(dialog: Any) -> None:
        dialog.source.setCurrentIndex(dialog.source.findData("open"))
        assert dialog.open_sheet.currentText() == "Aldric de Valombre"
        dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok).click()

    import pytest as _pytest

    with _pytest.MonkeyPatch.context() as mp:
        mp.setattr(dialogs, "run_dialog", lambda d: (from_open_tab(d), True)[1])
        table.act_add.trigger()
    assert [c.name for c in table.vm.creatures] == ["Aldric de Valombre", "Aldric de Valombre"]
    assert sheet_tab in window.docs


# --- the « Table » menu, every entry and every shortcut --------------------------------------------


def test_the_table_menu_lists_the_current_table_s_actions_and_each_works(
    qtbot: Any, window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert not [a for a in window.table_menu.actions() if a.isEnabled() and a is not window.act_new_table]
    view = window.new_table()
    vm = view.vm
    ids = vm.add_creatures(wolf(), 3)
    vm.add_creatures(rules.demo_sheet("severite"))
    view.select_ids(ids[:2])
    monkeypatch.setattr(dialogs, "run_dialog", lambda dialog: False)
    monkeypatch.setattr(prompts, "save_path", lambda *a: None)
    for question in ("ask_system", "ask_export_path", "ask_house_path"):  # Règles maison (issue 18): cancelled
        monkeypatch.setattr(house_menu, question, lambda *a: None)
    shown = [a for a in window.table_menu.actions() if not a.isSeparator()]
    assert [a for a in shown if a.menu() is None] == [
        a for a in view.table_actions() if a is not None and not isinstance(a, QMenu)
    ]
    entries = []
    # « Ouvrir la fiche complète » last: it goes to another tab.
    shown.sort(key=lambda a: a is view.act_open)
    for action in shown:
        view.select_ids([c.id for c in vm.creatures[:2]])
        if action.menu() is not None:
            submenu = action.menu()
            assert isinstance(submenu, QMenu)
            submenu.aboutToShow.emit()
            entries.extend(a.text() for a in submenu.actions())
            for sub in submenu.actions():
                sub.trigger()
            continue
        entries.append(action.text())
        action.trigger()
        QApplication.processEvents()
    assert "&Tour suivant" in entries and "&Round suivant" in entries and "Repos court / Repos long" not in entries
    assert any(entry.startswith("Fin du round 1") for entry in vm.state.journal)
    # Shown with their shortcuts: every entry with one has a unique one.
    window.tabs.setCurrentWidget(view)
    keys = [a.shortcut().toString() for a in window.table_menu.actions() if not a.shortcut().isEmpty()]
    assert len(keys) == len(set(keys)) >= 10
    # Another tab: the menu follows.
    window.open_demo("douaratil")
    assert not [a for a in window.table_menu.actions() if a.isEnabled() and a is not window.act_new_table]


def test_every_table_shortcut_from_the_keyboard(
    qtbot: Any, window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    view = window.new_table()
    vm = view.vm
    ids = vm.add_creatures(named_npc(current=12), 3, name="Garde")
    vm.add_creatures(rules.demo_sheet("severite"))
    opened: list[str] = []

    def cancel(dialog: Any) -> bool:
        opened.append(type(dialog).__name__)
        return False

    monkeypatch.setattr(dialogs, "run_dialog", cancel)
    monkeypatch.setattr(prompts, "save_path", lambda *a: None)
    activate(qtbot, window)
    view.select_ids(ids[:1])
    view.grid.setFocus()
    done: dict[str, bool] = {}
    for action in view.table_actions():
        if action is None or isinstance(action, QMenu) or action.shortcut().isEmpty():
            continue
        hit: list[bool] = []
        action.triggered.connect(lambda *_a, h=hit: h.append(True))
        sequence = action.shortcut()
        combined = sequence[0]
        window.tabs.setCurrentWidget(view)  # « Ouvrir la fiche complète » goes to another tab
        view.select_ids([vm.creatures[0].id])  # « Retirer » took the first one away
        view.grid.setFocus()
        QTest.keyClick(view.grid, combined.key(), combined.keyboardModifiers())
        QApplication.processEvents()
        done[action.objectName()] = bool(hit)
        if QApplication.focusWidget() is not view.grid and window.isActiveWindow():
            qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Escape)
        activate(qtbot, window)
    assert all(done.values()), done
    assert {"actNextTurn", "actNextRound", "actBulk", "actInitiative", "actRename"} <= set(done)
    assert {"BulkDialog", "InitiativeDialog", "AddCreaturesDialog"} <= set(opened)


def test_the_window_s_sheet_keys_work_on_a_table(
    qtbot: Any, window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    view = window.new_table()
    vm = view.vm
    ids = vm.add_creatures(named_npc(current=6), 2, name="Garde")
    view.select_ids(ids)
    activate(qtbot, window)
    qtbot.keyClick(window, Qt.Key.Key_D, Qt.KeyboardModifier.ControlModifier)
    assert view.amount.hasFocus()
    qtbot.keyClicks(view.amount, "2")
    qtbot.keyClick(view.amount, Qt.Key.Key_Return)
    assert [c.sheet.current for c in vm.creatures] == [4, 4]
    qtbot.keyClick(window, Qt.Key.Key_H, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(view.amount, "1")
    qtbot.keyClick(view.amount, Qt.Key.Key_Return)
    assert [c.sheet.current for c in vm.creatures] == [5, 5]
    seen: list[str] = []
    monkeypatch.setattr(dialogs, "run_dialog", lambda d: (seen.append(d.kind.currentData()), False)[1])
    qtbot.keyClick(window, Qt.Key.Key_T, Qt.KeyboardModifier.ControlModifier)
    assert seen == ["temporary"]
    qtbot.keyClick(window, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier)
    assert view.grid.hasFocus()
    qtbot.keyClick(window, Qt.Key.Key_J, Qt.KeyboardModifier.ControlModifier)
    assert view.journal.hasFocus()
    # Ctrl+M: the players' view of the table (the columns with numbers hidden, no typing), then back.
    qtbot.keyClick(window, Qt.Key.Key_M, Qt.KeyboardModifier.ControlModifier)
    assert not vm.gm_view and not window.act_gm.isChecked()
    assert [c for c in range(view.proxy.columnCount()) if view.grid.isColumnHidden(c)]
    assert not view.amount.isEnabled() and not view.act_bulk.isEnabled()
    qtbot.keyClick(window, Qt.Key.Key_M, Qt.KeyboardModifier.ControlModifier)
    assert vm.gm_view and not [c for c in range(view.proxy.columnCount()) if view.grid.isColumnHidden(c)]


def test_a_new_table_in_the_players_view_says_how_to_see_everything(make_window: Any) -> None:
    win = make_window()
    assert not win.act_gm.isChecked()
    view = win.new_table()
    assert not view.vm.gm_view and "Ctrl+M" in view.messages.text()


# --- autosave and crash recovery --------------------------------------------------------------------


def test_a_table_is_autosaved_at_once_after_a_round_and_the_copy_is_the_table(window: MainWindow) -> None:
    view = window.new_table()
    vm = view.vm
    vm.add_creatures(named_npc(current=0))
    doc = window.docs[view]
    assert doc.autosave_key is None
    vm.next_round()
    assert doc.autosave_key is not None
    entry = window.store.latest(doc.autosave_key)
    copy = window.store.load(entry)
    assert copy.kind == "table"
    assert copy.sheets == [c.sheet for c in vm.creatures] and copy.tracker is not None
    assert copy.tracker.round == vm.state.round
    # Saved by the user: the copy goes.
    vm.set_title("Col")
    assert window.autosaver.save(doc)
    assert not window.autosaver.save(doc)  # nothing new since


def test_recovery_after_a_real_process_with_a_table_is_killed(
    qtbot: Any, make_window: Any, answer: Any, tmp_path: Path
) -> None:
    """An app process plays a table, autosaves, and is killed with SIGKILL: the next start offers it."""
    path = table_file(tmp_path / "jdr" / "gue.table.json")
    original = path.read_bytes()
    expected = tmp_path / "attendu.table.json"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.app.crashing_table_app", str(path), str(expected)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line == "prêt\n", proc.stderr.read() if proc.stderr else ""
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    want, _ = files.read_document(expected)
    again = make_window()
    offer = answer("ask_recovery", [True])
    start(again, [])
    (text,) = offer.calls[0][1]
    assert "« Embuscade au gué »" in text and "plus récente que le fichier" in text
    doc = again.current_doc()
    assert isinstance(doc, OpenTable) and doc.path == path.resolve() and doc.is_modified()
    got = table_document(doc.vm.state)
    assert got.sheets == want.sheets and got.journals == want.journals and got.tracker == want.tracker
    assert path.read_bytes() == original  # never written
    assert "*" in again.tabs.tabText(0)


def test_reload_a_changed_table_file(qtbot: Any, window: MainWindow, answer: Any, tmp_path: Path) -> None:
    path = table_file(tmp_path / "gue.table.json")
    (view,) = window.open_paths([path])
    assert isinstance(view, TableView)
    cid = view.vm.creatures[0].id
    window.open_creature(window.docs[view], cid)  # type: ignore[arg-type]
    view.vm.set_note(cid, "ici")
    other = table_file(tmp_path / "autre.table.json", seed=9)
    path.write_bytes(other.read_bytes())
    answer("changed_on_disk", "reload")
    window.tabs.setCurrentWidget(view)
    window.save()
    want, _ = files.read_document(other)
    assert [c.sheet for c in view.vm.creatures] == want.sheets
    assert not window.creature_tabs  # the old creatures' sheets closed with the old content
    assert not view.vm.undo_stack.canUndo()


def test_undo_of_a_bulk_in_the_window_restores_every_row(qtbot: Any, window: MainWindow) -> None:
    view = window.new_table()
    vm = view.vm
    ids = vm.add_creatures(wolf(), 6, maximum="2d8+4")
    before = [c.sheet for c in vm.creatures]
    vm.bulk(ids[:4], BulkRequest("damage", "2d6", factors={ids[0]: "half", ids[1]: "half"}))
    assert re.search(r"Dégâts 2d6 = \d+", window.act_undo.text())
    window.act_undo.trigger()
    assert [c.sheet for c in vm.creatures] == before


def test_printing_a_table_prints_the_table_and_a_creature_s_tab_its_sheet(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ui.printing import dialogs as print_dialogs

    shown: list[Any] = []
    monkeypatch.setattr(print_dialogs, "preview", lambda _parent, printouts, _page: shown.append(printouts) or True)
    view = window.new_table()
    view.vm.set_title("Le col")
    ids = view.vm.add_creatures(wolf(), 3)
    steps = view.vm.undo_stack.count()
    window.printing.act_print.trigger()
    (table_printout,) = shown[0]
    assert table_printout.name == "Le col"
    assert "Loup 3" in repr(table_printout.blocks)
    window.open_creature(window.docs[view], ids[1])  # type: ignore[arg-type]
    window.printing.act_print.trigger()
    assert [p.name for p in shown[1]] == ["Loup 2"]
    assert view.vm.undo_stack.count() == steps  # printing changes nothing
