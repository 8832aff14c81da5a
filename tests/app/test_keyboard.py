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
from sheet_app.main_window import MainWindow
from sheet_app.welcome import NewSheetDialog
from ui.common import prompts
from ui.sheet.actions import ShortRestDialog


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


def test_no_mnemonic_twice_in_a_menu(window: MainWindow) -> None:
    window.open_demo("douaratil")
    for menu in menus(window):
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
    return asked


def leaf_actions(win: MainWindow) -> list[QAction]:
    found = []
    for menu in menus(win):
        found += [a for a in menu.actions() if not a.isSeparator() and a.menu() is None]
    return found


def test_every_menu_entry_runs(qtbot: Any, window: MainWindow, answers: list[str], tmp_path: Path) -> None:
    triggered = []
    for system in (*rules.SYSTEMS[1:], rules.SYSTEMS[0]):  # Douaratil last: it has temporary points
        window.open_demo(system)
    window.settings.add_recent(tmp_path / "absent.fiche.json")
    window.refresh_recent()
    count = len(leaf_actions(window))
    for i in range(count):
        window.tabs.setCurrentIndex(window.tabs.count() - 1)
        doc = window.current_doc()
        if doc is not None and not doc.vm.undo_stack.canUndo():
            doc.vm.apply(rules.Damage(amount=1))  # something for Annuler, then Rétablir
            doc.vm.apply(rules.Damage(amount=1))
        action = leaf_actions(window)[i]  # menus rebuilt by a command (recent files) are read again
        if not action.isEnabled() or action.objectName() == "actQuit":
            continue
        triggered.append(action.text())
        action.trigger()  # the strict guard of the tests fails the test on any bug
        if not window.docs:
            window.open_demo("douaratil")
    assert len(triggered) >= 20, "|".join(triggered)
    assert {"new_sheet", "open_paths", "save_path", "show_info"} <= set(answers)
    window.act_quit.trigger()
    assert not window.isVisible()


def test_every_shortcut_triggers_its_action(qtbot: Any, window: MainWindow, answers: list[str]) -> None:
    window.open_demo("douaratil")
    view = window.open_demo("d20")
    assert view is not None
    view.vm.apply(rules.Damage(amount=1))  # something to undo
    fired: list[str] = []
    actions = [a for a in window.actions() if not a.shortcut().isEmpty() and a.objectName() != "actQuit"]
    for action in actions:
        name = action.objectName()
        action.triggered.connect(lambda _=False, n=name: fired.append(n))
    for action in actions:
        for sequence in action.shortcuts():
            if not action.isEnabled():
                continue
            if not window.docs:
                window.open_demo("douaratil")
            combination = sequence[0]
            QTest.keyClick(window, combination.key(), combination.keyboardModifiers())
            assert fired and fired[-1] == action.objectName(), QKeySequence(sequence).toString()
    quit_key = window.act_quit.shortcut()[0]
    QTest.keyClick(window, quit_key.key(), quit_key.keyboardModifiers())
    assert not window.isVisible()
