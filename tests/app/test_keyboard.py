"""The keyboard (issue 10, items 14–16 and 21; item 1's « every menu entry and shortcut of the main window
gets a test that triggers it »)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractButton, QApplication, QGroupBox, QLabel, QMenu, QWidget

import rules
from sheet_app import house_menu
from sheet_app.main_window import MainWindow
from sheet_app.welcome import NewSheetDialog
from ui.common import prompts
from ui.printing import dialogs as print_dialogs
from ui.sheet.actions import ShortRestDialog
from ui.sheet.sheet_view import SheetView
from ui.table import dialogs as table_dialogs
from ui.table.table_view import TableView


def mnemonic(text: str) -> str | None:
    match = re.search(r"&([^&\s])", text.replace("&&", ""))
    return match.group(1).lower() if match else None


def page_mnemonics(page: QWidget) -> list[tuple[str, str]]:
    """Every mnemonic a page offers: buttons, check boxes, labels with a buddy, group boxes."""
    found = []
    for widget in page.findChildren(QWidget):
        text = ""
        if isinstance(widget, QAbstractButton):
            text = widget.text()
        elif isinstance(widget, QLabel) and widget.buddy() is not None:
            text = widget.text()
        elif isinstance(widget, QGroupBox):
            text = widget.title()
        key = mnemonic(text) if text else None
        if key:
            found.append((key, text))
    return found


def clashes(pairs: list[tuple[str, str]]) -> dict[str, list[str]]:
    by_key: dict[str, list[str]] = {}
    for key, text in pairs:
        by_key.setdefault(key, []).append(text)
    return {k: v for k, v in by_key.items() if len(v) > 1}


def bar_mnemonics(win: MainWindow) -> list[tuple[str, str]]:
    return [(k, a.text()) for a in win.menuBar().actions() if (k := mnemonic(a.text()))]


def menus(win: MainWindow) -> Iterator[QMenu]:
    todo = [a.menu() for a in win.menuBar().actions() if a.menu() is not None]
    while todo:
        menu = todo.pop()
        yield menu
        todo += [a.menu() for a in menu.actions() if a.menu() is not None]


# --- item 15: mnemonics --------------------------------------------------------------------------------


def test_no_mnemonic_twice_on_the_welcome_page(window: MainWindow) -> None:
    assert clashes(bar_mnemonics(window) + page_mnemonics(window.welcome_area)) == {}


@pytest.mark.parametrize("system", rules.SYSTEMS)
def test_no_mnemonic_twice_on_a_sheet(window: MainWindow, system: str) -> None:
    view = window.open_demo(system)
    assert view is not None
    # Every button the sheet may show counts, even those hidden until the rules need them.
    assert clashes(bar_mnemonics(window) + page_mnemonics(view)) == {}


def test_no_mnemonic_twice_on_a_table(window: MainWindow) -> None:
    view = window.new_table()
    assert clashes(bar_mnemonics(window) + page_mnemonics(view)) == {}


@pytest.mark.parametrize("current", ["sheet", "table"])
def test_no_mnemonic_twice_in_a_menu(window: MainWindow, current: str) -> None:
    """Every menu, the « Table » menu of a table and the print entries included."""
    table = window.new_table()
    window.open_demo("douaratil")
    if current == "table":
        window.tabs.setCurrentWidget(table)
    assert len(window.table_menu.actions()) > (10 if current == "table" else 0)
    for menu in menus(window):
        menu.aboutToShow.emit()
        pairs = [(k, a.text()) for a in menu.actions() if (k := mnemonic(a.text()))]
        assert clashes(pairs) == {}, menu.title()


def test_no_mnemonic_twice_in_the_dialogs(window: MainWindow) -> None:
    dialog = NewSheetDialog(window)
    assert clashes(page_mnemonics(dialog)) == {}
    view = window.open_demo("douaratil")
    assert view is not None
    rest = ShortRestDialog(view.vm, view)
    assert clashes(page_mnemonics(rest)) == {}
    dialog.deleteLater()
    rest.deleteLater()
    table = window.new_table()
    window.act_gm.trigger()  # the GM's view: adding creatures and bulk actions are the GM's
    table.vm.add_creatures(rules.demo_sheet("d20"), 2)
    table.select_ids([c.id for c in table.vm.creatures])
    shown: list[QWidget] = []
    original = table_dialogs.run_dialog

    def look(dialog: QWidget) -> bool:
        shown.append(dialog)
        assert clashes(page_mnemonics(dialog)) == {}, type(dialog).__name__
        return False

    table_dialogs.run_dialog = look  # type: ignore[assignment]
    try:
        for action in (table.act_add, table.act_bulk, table.act_initiative):
            action.trigger()
    finally:
        table_dialogs.run_dialog = original
    assert len(shown) == 3


def test_the_scan_finds_a_clash() -> None:
    assert clashes([("c", "Fi&che"), ("c", "&Créer")]) == {"c": ["Fi&che", "&Créer"]}


def test_a_name_with_an_ampersand_is_not_a_mnemonic_in_its_tab(window: MainWindow) -> None:
    window.add_new_sheet(rules.new_sheet("douaratil", name="Bob & Alice"))
    assert window.tabs.tabText(window.tabs.currentIndex()) == "Bob && Alice *"


# --- item 14: the welcome form -------------------------------------------------------------------------


def tab_to(qtbot: Any, win: MainWindow, times: int = 1) -> QWidget | None:
    for _ in range(times):
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
    return QApplication.focusWidget()


@pytest.mark.parametrize("system", rules.SYSTEMS)
def test_tab_goes_through_the_fields_in_order_after_changing_the_system(
    qtbot: Any, window: MainWindow, system: str
) -> None:
    form = window.welcome.new_form
    form.system.setFocus()
    # The system chosen with the keyboard, as a user would (Down on the drop-down).
    while form.system.currentData() != system:
        qtbot.keyClick(form.system, Qt.Key.Key_Down)
    QApplication.processEvents()  # between two key presses, the event loop shows the new fields
    expected = [form.name, *form.editors.values(), form.create_button]
    for widget in expected:
        focused = tab_to(qtbot, window)
        assert focused is widget or (focused is not None and focused.parentWidget() is widget), (
            widget.objectName(),
            focused.objectName() if focused else None,
        )


def test_values_typed_with_tab_land_in_their_fields_and_enter_creates(qtbot: Any, window: MainWindow) -> None:
    form = window.welcome.new_form
    form.system.setCurrentIndex(form.system.findData("d20"))
    QApplication.processEvents()
    form.name.setFocus()
    qtbot.keyClicks(form.name, "Gobelin")
    names = list(form.editors)
    typed = {"level": "2", "strength": "9"}
    for name in names:
        focused = tab_to(qtbot, window)
        assert focused is not None
        if name in typed:
            focused.selectAll() if hasattr(focused, "selectAll") else None
            qtbot.keyClicks(focused, typed[name])
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Return)
    view = window.current_view()
    assert view is not None
    sheet = view.vm.sheet
    assert (sheet.name, sheet.level, sheet.strength) == ("Gobelin", 2, 9)


@pytest.mark.parametrize("field", ["name", "level"])
def test_enter_in_any_field_creates_the_sheet(qtbot: Any, window: MainWindow, field: str) -> None:
    form = window.welcome.new_form
    form.system.setCurrentIndex(form.system.findData("douaratil"))
    qtbot.keyClicks(form.name, "Brenna")
    widget = form.name if field == "name" else form.editors[field]
    widget.setFocus()
    qtbot.keyClick(widget, Qt.Key.Key_Return)
    assert window.current_view() is not None and window.current_view().vm.sheet.name == "Brenna"
    assert len(window.docs) == 1


def test_enter_in_the_dialog_creates_once(qtbot: Any, window: MainWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    def run(dialog: NewSheetDialog) -> int:
        dialog.show()
        qtbot.keyClicks(dialog.form.name, "Kobold")
        qtbot.keyClick(dialog.form.name, Qt.Key.Key_Return)
        return dialog.result()

    monkeypatch.setattr(NewSheetDialog, "exec", run)
    qtbot.keyClick(window, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    assert [d.vm.sheet.name for d in window.docs.values()] == ["Kobold"]


# --- item 21: a blank form for the next character ------------------------------------------------------


def test_the_form_is_blank_again_after_a_sheet_is_made(qtbot: Any, window: MainWindow) -> None:
    form = window.welcome.new_form
    form.system.setCurrentIndex(form.system.findData("douaratil"))
    qtbot.keyClicks(form.name, "Gobelin 1")
    form.editors["base_maximum"].setValue(17)
    qtbot.mouseClick(form.create_button, Qt.MouseButton.LeftButton)
    assert form.name.text() == ""
    assert form.editors["base_maximum"].value() == rules.new_sheet("douaratil").base_maximum
    assert form.system_id() == "douaratil"


# --- item 16: the window's shortcuts win ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "target"),
    [(Qt.Key.Key_E, "conditions"), (Qt.Key.Key_J, "journal"), (Qt.Key.Key_H, "heal"), (Qt.Key.Key_T, "temporary")],
)
def test_window_shortcuts_work_while_the_damage_field_has_focus(
    qtbot: Any, window: MainWindow, key: Qt.Key, target: str
) -> None:
    view = window.open_demo("douaratil")
    assert view is not None
    qtbot.keyClick(window, Qt.Key.Key_D, Qt.KeyboardModifier.ControlModifier)
    assert view.health.quick.amount.hasFocus()
    qtbot.keyClicks(view.health.quick.amount, "12")
    qtbot.keyClick(view.health.quick.amount, key, Qt.KeyboardModifier.ControlModifier)
    if target == "conditions":
        assert view.conditions.view.hasFocus()
    elif target == "journal":
        assert view.journal.view.hasFocus()
    else:
        assert view.health.quick.mode == target and view.health.quick.amount.hasFocus()
        assert view.health.quick.amount.text() == "12", "Ctrl+H is not the field's backspace"


# --- item 1: every menu entry and every shortcut of the main window ------------------------------------


@pytest.fixture
def answers(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[str]:
    """Every question the commands may ask is answered (and recorded)."""
    asked: list[str] = []

    def record(name: str, value: Any) -> Any:
        def answer(*args: Any, **kwargs: Any) -> Any:
            asked.append(name)
            return value(*args) if callable(value) else value

        return answer

    saved = iter(tmp_path / f"f{i}.fiche.json" for i in range(100))
    monkeypatch.setattr(prompts, "save_path", record("save_path", lambda *a: next(saved)))
    monkeypatch.setattr(prompts, "open_paths", record("open_paths", []))
    monkeypatch.setattr(prompts, "save_changes", record("save_changes", "discard"))
    monkeypatch.setattr(prompts, "show_info", record("show_info", None))
    monkeypatch.setattr(prompts, "show_error", record("show_error", None))
    monkeypatch.setattr(prompts, "save_text_path", record("save_text_path", None), raising=False)
    monkeypatch.setattr(NewSheetDialog, "exec", record("new_sheet", 0))
    # The table's dialogs (add creatures, a bulk action, initiative…) and the print lane's are cancelled.
    monkeypatch.setattr(table_dialogs, "run_dialog", record("table_dialog", False))
    monkeypatch.setattr(print_dialogs, "preview", record("preview", True))
    monkeypatch.setattr(print_dialogs, "ask_pdf_path", record("ask_pdf_path", None))
    monkeypatch.setattr(print_dialogs, "ask_blank_system", record("ask_blank_system", None))
    for question in ("ask_system", "ask_export_path", "ask_house_path"):  # Règles maison: cancelled
        monkeypatch.setattr(house_menu, question, record(question, None))
    return asked


def leaf_actions(win: MainWindow) -> list[QAction]:
    found = []
    for menu in menus(win):
        found += [a for a in menu.actions() if not a.isSeparator() and a.menu() is None]
    return found


def _ready(window: MainWindow, kind: str) -> None:
    """The last tab of ``kind`` current, with something to undo (then redo) and creatures selected."""
    views = [window.tabs.widget(i) for i in range(window.tabs.count())]
    view = next(v for v in reversed(views) if isinstance(v, TableView if kind == "table" else SheetView))
    window.tabs.setCurrentWidget(view)
    if not window.act_gm.isChecked():
        window.act_gm.trigger()  # the GM's view: adding creatures and bulk actions are the GM's
    window.activateWindow()  # back from the players' window or the guide (shortcuts need it active)
    if isinstance(view, TableView):
        if len(view.vm.creatures) < 3:
            view.vm.add_creatures(rules.demo_sheet("d20"), 3)
        view.select_ids([c.id for c in view.vm.creatures[:2]])
        if not view.vm.undo_stack.canUndo():
            view.vm.advance_time("minute")
    elif not view.vm.undo_stack.canUndo():
        view.vm.apply(rules.Damage(amount=1))  # something for Annuler, then Rétablir
        view.vm.apply(rules.Damage(amount=1))


def test_every_menu_entry_runs(qtbot: Any, window: MainWindow, answers: list[str], tmp_path: Path) -> None:
    """Every entry of every menu (the sheet's, the « Table » menu of a table, the print entries), with a
    sheet then a table current."""
    triggered = set()
    window.new_table()
    for system in (*rules.SYSTEMS[1:], rules.SYSTEMS[0]):  # Douaratil last: it has temporary points
        window.open_demo(system)
    window.settings.add_recent(tmp_path / "absent.fiche.json")
    window.refresh_recent()
    for kind in ("sheet", "table"):
        _ready(window, kind)
        count = len(leaf_actions(window))
        for i in range(count):
            if not any(isinstance(v, TableView) for v in window.docs):
                window.new_table()
            if not any(isinstance(v, SheetView) for v in window.docs):
                window.open_demo("douaratil")
            _ready(window, kind)
            actions = leaf_actions(window)  # menus rebuilt by a command (recent files) are read again
            if i >= len(actions):
                break
            action = actions[i]
            if not action.isEnabled() or action.objectName() == "actQuit":
                continue
            triggered.add(action.objectName() or action.text())
            action.trigger()  # the strict guard of the tests fails the test on any bug
            QApplication.processEvents()
            for widget in QApplication.topLevelWidgets():  # the players' window, the guide
                if widget is not window and widget.isVisible():
                    widget.close()
    names = {a.objectName() for a in leaf_actions(window)}
    assert {"actNextTurn", "actNextRound", "actBulk", "actPrint", "actExportPdf", "actPrintBlank"} <= triggered
    assert {"actHelp", "actSearch", "actExport", "actNewTable", "actUndo", "actRedo"} <= triggered
    assert len(triggered) >= 40, sorted(triggered)
    assert {"new_sheet", "open_paths", "save_path", "show_info", "preview", "ask_blank_system"} <= set(answers)
    assert names  # the window still has its menus
    window.act_quit.trigger()
    assert not window.isVisible()


def test_every_shortcut_triggers_its_action(qtbot: Any, window: MainWindow, answers: list[str]) -> None:
    """Every shortcut of the window, typed on the window: with a sheet current, then a table current (its
    own keys, and the window's that work on a table)."""
    window.new_table()
    window.open_demo("douaratil")
    window.open_demo("d20")
    fired: list[str] = []
    typed: set[str] = set()
    for kind in ("sheet", "table"):
        _ready(window, kind)
        view = window.tabs.currentWidget()
        actions = [a for a in view.actions() if not a.shortcut().isEmpty()] if isinstance(view, TableView) else []
        actions += [a for a in window.actions() if not a.shortcut().isEmpty() and a.objectName() != "actQuit"]
        for action in actions:
            name = action.objectName()
            action.triggered.connect(lambda _=False, n=name: fired.append(n))
        for action in actions:
            for sequence in action.shortcuts():
                if not window.docs:
                    window.open_demo("douaratil")
                if not any(isinstance(v, TableView) for v in window.docs):
                    window.new_table()
                _ready(window, kind)
                if not action.isEnabled():
                    continue
                combination = sequence[0]
                target = window.tabs.currentWidget()
                if isinstance(target, TableView):
                    target.grid.setFocus()
                    target = target.grid
                QTest.keyClick(target, combination.key(), combination.keyboardModifiers())
                QApplication.processEvents()
                assert fired and fired[-1] == action.objectName(), QKeySequence(sequence).toString()
                typed.add(f"{kind}:{action.objectName()}")
                focus, current = QApplication.focusWidget(), window.tabs.currentWidget()
                if isinstance(current, TableView) and focus is not None and current.grid.isAncestorOf(focus):
                    qtbot.keyClick(focus, Qt.Key.Key_Escape)  # F2's editor in a cell: left as it was
                for widget in QApplication.topLevelWidgets():  # the players' window, the guide
                    if widget is not window and widget.isVisible():
                        widget.close()
                window.activateWindow()
                qtbot.waitUntil(window.isActiveWindow)
    assert {"table:actNextTurn", "table:actBulk", "table:actUndo", "sheet:actHelp", "sheet:actSearch"} <= typed
    assert {"sheet:actDamage", "table:actDamage", "sheet:actPrint", "table:actPrint"} <= typed
    quit_key = window.act_quit.shortcut()[0]
    QTest.keyClick(window, quit_key.key(), quit_key.keyboardModifiers())
    assert not window.isVisible()


@pytest.mark.parametrize("system", rules.SYSTEMS)
def test_opening_a_sheet_leaves_the_window_active_and_shows_no_other_window(window: MainWindow, system: str) -> None:
    """A panel shown before it had a parent became a window of its own, took the activation, and the
    window's shortcuts and the fields' focus stopped working (found after the odds merge)."""
    window.open_demo(system)
    window.new_table()
    QApplication.processEvents()
    assert window.isActiveWindow()
    assert [w for w in QApplication.topLevelWidgets() if w.isVisible() and w is not window] == []
