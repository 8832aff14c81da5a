"""The main window as a user drives it: tabs, undo naming the action, saving, closing, reopening."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

import rules
from sheet_app import files
from sheet_app.app import start
from sheet_app.main_window import MainWindow
from sheet_app.settings import Settings, examples_dir
from ui.sheet.sheet_view import SheetView


def type_damage(qtbot: Any, win: MainWindow, text: str) -> SheetView:
    view = win.current_view()
    assert view is not None
    qtbot.keyClick(win, Qt.Key.Key_D, Qt.KeyboardModifier.ControlModifier)
    assert view.health.quick.amount.hasFocus()
    qtbot.keyClicks(view.health.quick.amount, text)
    qtbot.keyClick(view.health.quick.amount, Qt.Key.Key_Return)
    return view


def test_welcome_screen_when_nothing_is_open(window: MainWindow) -> None:
    assert window.is_welcome_shown()
    assert window.windowTitle() == "Fiche de personnage"
    assert not window.act_save.isEnabled()


def test_ctrl_z_restores_the_exact_previous_sheet_and_the_menu_names_the_action(qtbot: Any, window: MainWindow) -> None:
    view = window.open_demo("douaratil")
    assert view is not None
    before = view.vm.sheet
    type_damage(qtbot, window, "7")
    assert view.vm.sheet.current == 7
    assert window.act_undo.text() == "&Annuler : Dégâts 7"
    assert window.isWindowModified() and "[*]" in window.windowTitle()
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert view.vm.sheet == before and view.vm.sheet.model_dump() == before.model_dump()
    assert window.act_redo.text() == "&Rétablir : Dégâts 7"
    assert window.act_undo.text() == "&Annuler"
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert view.vm.sheet.current == 7


def test_ctrl_z_while_typing_a_field_undoes_the_typing_only(qtbot: Any, window: MainWindow) -> None:
    view = window.open_demo("douaratil")
    assert view is not None
    type_damage(qtbot, window, "3")
    field = view.fields.binders["name"].widget
    field.setFocus()
    qtbot.keyClicks(field, "x")
    qtbot.keyClick(field, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert field.text() == "Ulfred"
    assert view.vm.sheet.current == 11


def test_undo_follows_the_current_tab(qtbot: Any, window: MainWindow) -> None:
    first = window.open_demo("douaratil")
    type_damage(qtbot, window, "2")
    second = window.open_demo(rules.SYSTEMS[-1])
    assert first is not None and second is not None
    assert window.act_undo.text() == "&Annuler"
    window.tabs.setCurrentWidget(first)
    assert window.act_undo.text() == "&Annuler : Dégâts 2"


def test_save_then_reopen_gives_the_same_sheet_and_journal(
    qtbot: Any, window: MainWindow, answer: Any, tmp_path: Path
) -> None:
    view = window.open_demo("douaratil")
    assert view is not None
    type_damage(qtbot, window, "2d6")
    target = tmp_path / "ulfred.fiche.json"
    ask = answer("save_path", target)
    qtbot.keyClick(window, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert ask.calls and target.exists()
    assert not window.isWindowModified()
    assert window.tabs.tabText(window.tabs.currentIndex()) == "Ulfred"
    data = json.loads(target.read_text(encoding="utf-8"))
    assert data["kind"] == "sheet" and data["system"] == "douaratil"
    sheet, journal = view.vm.sheet, view.vm.journal
    doc, _ = files.read_document(target)
    assert doc.sheets[0] == sheet and tuple(doc.journals[0]) == journal
    answer("save_changes", "discard")
    assert window.close_view(view)
    views = window.open_paths([target])
    assert len(views) == 1 and views[0].vm.sheet == sheet and views[0].vm.journal == journal
    assert window.settings.recent_files()[0] == target.resolve()


def test_saving_a_demo_never_writes_the_shipped_file(qtbot: Any, window: MainWindow, answer: Any) -> None:
    shipped = examples_dir() / "douaratil.fiche.json"
    before = shipped.read_bytes()
    window.open_demo("douaratil")
    type_damage(qtbot, window, "1")
    answer("save_path", None)
    assert not window.save()
    assert shipped.read_bytes() == before


def test_closing_with_unsaved_changes_asks(qtbot: Any, window: MainWindow, answer: Any) -> None:
    view = window.open_demo("douaratil")
    type_damage(qtbot, window, "4")
    ask = answer("save_changes", None)
    qtbot.keyClick(window, Qt.Key.Key_W, Qt.KeyboardModifier.ControlModifier)
    assert ask.calls and ask.calls[0][1] == "Ulfred"
    assert window.current_view() is view
    answer("save_changes", "discard")
    window.close_current()
    assert window.current_view() is None
    assert window.is_welcome_shown()


def test_a_broken_file_shows_a_french_error_and_leaves_the_tabs_alone(
    window: MainWindow, answer: Any, tmp_path: Path
) -> None:
    window.open_demo("douaratil")
    broken = tmp_path / "cassée.fiche.json"
    broken.write_text('{"format": 1, "kind": "sheet", "sheet": {"system": "douaratil", "level": "abc"', "utf-8")
    error = answer("show_error", None)
    assert window.open_paths([broken]) == []
    assert error.calls and "cassée.fiche.json" in error.calls[0][2]
    assert window.tabs.count() == 1


def test_the_file_changed_on_disk_is_not_overwritten_silently(
    qtbot: Any, window: MainWindow, answer: Any, tmp_path: Path
) -> None:
    target = tmp_path / "a.fiche.json"
    files.write_document(target, files.Document("sheet", [rules.demo_sheet("douaratil")], [[]]))
    (view,) = window.open_paths([target])
    type_damage(qtbot, window, "1")
    other = rules.new_sheet("douaratil", name="Quelqu'un d'autre")
    files.write_document(target, files.Document("sheet", [other], [["ailleurs"]]))
    ask = answer("changed_on_disk", None)
    assert not window.save()
    assert ask.calls
    assert files.read_document(target)[0].sheets[0].name == "Quelqu'un d'autre"
    answer("changed_on_disk", "overwrite")
    assert window.save()
    assert files.read_document(target)[0].sheets[0] == view.vm.sheet


def test_new_sheet_from_the_welcome_screen(qtbot: Any, window: MainWindow) -> None:
    form = window.welcome.new_form
    form.system.setCurrentIndex(form.system.findData("douaratil"))
    form.name.setText("Brunehilde")
    form.editors["base_maximum"].setValue(17)
    form.editors["level"].setValue(2)
    qtbot.mouseClick(form.create_button, Qt.MouseButton.LeftButton)
    view = window.current_view()
    assert view is not None
    sheet = view.vm.sheet
    assert (sheet.name, sheet.level, sheet.base_maximum, sheet.current) == ("Brunehilde", 2, 17, 17)
    assert sheet.critical_threshold is None
    assert window.tabs.tabText(window.tabs.currentIndex()) == "Brunehilde *"  # never saved: modified


@pytest.mark.parametrize("system", rules.SYSTEMS)
def test_new_sheet_form_for_every_system(qtbot: Any, window: MainWindow, system: str) -> None:
    form = window.welcome.new_form
    form.system.setCurrentIndex(form.system.findData(system))
    form.name.setText("Essai")
    sheet = form.build()
    assert sheet.system == system and sheet.name == "Essai"
    d = rules.derive(sheet)
    if "trauma" not in rules.describe(system).features:
        assert d.current == d.maximum


def test_gm_view_toggles_every_sheet(qtbot: Any, window: MainWindow) -> None:
    a = window.open_demo("douaratil")
    b = window.open_demo(rules.SYSTEMS[-1])
    assert a is not None and b is not None
    qtbot.keyClick(window, Qt.Key.Key_M, Qt.KeyboardModifier.ControlModifier)
    assert a.vm.gm_view and b.vm.gm_view
    assert "(vue meneur)" in window.windowTitle()
    c = window.open_demo("douaratil")
    assert c is not None and c.vm.gm_view


def test_last_session_comes_back(qtbot: Any, window: MainWindow, answer: Any, tmp_path: Path) -> None:
    target = tmp_path / "b.fiche.json"
    files.write_document(target, files.Document("sheet", [rules.demo_sheet("douaratil")], [[]]))
    window.open_paths([target])
    window.close()
    assert Settings().last_session() == [target.resolve()]
    again = MainWindow(rng=random.Random(1))
    qtbot.addWidget(again)
    start(again, [])
    again.settings.set_last_session([])
    assert again.tabs.count() == 1 and again.current_doc() is not None
    assert again.current_doc().path == target.resolve()


def test_start_with_files_opens_them_in_tabs(qtbot: Any, tmp_path: Path) -> None:
    paths = []
    for system in rules.SYSTEMS:
        path = tmp_path / f"{system}.fiche.json"
        files.write_document(path, files.Document("sheet", [rules.demo_sheet(system)], [[]]))
        paths.append(path)
    win = MainWindow(rng=random.Random(1))
    qtbot.addWidget(win)
    start(win, paths)
    assert win.tabs.count() == len(paths)
    assert [win.docs[win.tabs.widget(i)].vm.sheet.system for i in range(win.tabs.count())] == list(rules.SYSTEMS)


def test_settings_live_in_the_test_folder(tmp_path: Path) -> None:
    assert str(Settings().path).startswith(str(tmp_path))


def test_menus_reach_every_command(window: MainWindow) -> None:
    titles = [a.text() for a in window.menuBar().actions()]
    assert titles == ["&Fichier", "&Édition", "Fi&che", "Tab&le", "Aff&ichage", "Aid&e"]
    shortcuts = {a.objectName(): a.shortcut().toString() for a in window.actions() if a.objectName()}
    assert shortcuts["actUndo"] == "Ctrl+Z" and shortcuts["actRedo"] == "Ctrl+Shift+Z"
    assert shortcuts["actSave"] == "Ctrl+S" and shortcuts["actOpen"] == "Ctrl+O"


def test_new_sheet_dialog_from_ctrl_n(qtbot: Any, window: MainWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    """Fichier › Nouvelle fiche… (Ctrl+N): the form in a dialog, created with the dialog's own button."""
    from PySide6.QtWidgets import QDialogButtonBox

    from sheet_app.welcome import NewSheetDialog

    seen: list[NewSheetDialog] = []

    def run(dialog: NewSheetDialog) -> int:
        seen.append(dialog)
        assert not dialog.form.create_button.isVisibleTo(dialog)
        dialog.form.system.setCurrentIndex(dialog.form.system.findData("douaratil"))
        dialog.form.name.setText("Garance")
        dialog.form.editors["base_maximum"].setValue(12)
        buttons = dialog.findChild(QDialogButtonBox)
        buttons.button(QDialogButtonBox.StandardButton.Ok).click()
        return int(dialog.result())

    monkeypatch.setattr(NewSheetDialog, "exec", run)
    qtbot.keyClick(window, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    assert len(seen) == 1
    view = window.current_view()
    assert view is not None
    assert (view.vm.sheet.name, view.vm.sheet.base_maximum) == ("Garance", 12)
