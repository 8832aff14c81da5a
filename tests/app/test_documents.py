"""Nothing lost (issue 10, items 1–3): new documents, quitting, the session list after a crash.

Issue 10 item 1: « Fichier › Nouvelle fiche… and Ctrl+N do nothing ». Item 2: « A document without a
file is always « modified »; it is autosaved like the others; Annuler at any point of a quit cancels
the whole quit with nothing closed. » Item 3: « Keep the session list current as tabs open and close. »
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox

import rules
from sheet_app import autosave, files
from sheet_app.app import start
from sheet_app.main_window import MainWindow
from sheet_app.settings import Settings
from sheet_app.welcome import NewSheetDialog


def write_sheet(path: Path, name: str = "Ulfred") -> Path:
    sheet = rules.new_sheet("douaratil", name=name, base_maximum=14, current=14)
    files.write_document(path, files.Document("sheet", [sheet], [[]]))
    return path


def fill_and_accept(qtbot: Any, name: str) -> Any:
    """Stands for ``NewSheetDialog.exec``: types a name, clicks « Créer la fiche »."""

    def run(dialog: NewSheetDialog) -> int:
        dialog.show()
        qtbot.keyClicks(dialog.form.name, name)
        ok = dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok)
        qtbot.mouseClick(ok, Qt.MouseButton.LeftButton)
        return dialog.result()

    return run


def create_on_welcome(qtbot: Any, win: MainWindow, name: str) -> None:
    form = win.welcome.new_form
    form.name.clear()
    qtbot.keyClicks(form.name, name)
    qtbot.mouseClick(form.create_button, Qt.MouseButton.LeftButton)


# --- item 1 ----------------------------------------------------------------------------------------


def test_ctrl_n_opens_the_new_sheet_dialog_and_creates_the_sheet(
    qtbot: Any, window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(NewSheetDialog, "exec", fill_and_accept(qtbot, "Gobelin"))
    qtbot.keyClick(window, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    view = window.current_view()
    assert view is not None and view.vm.sheet.name == "Gobelin"


def test_the_menu_entry_nouvelle_fiche_does_the_same(
    qtbot: Any, window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(NewSheetDialog, "exec", fill_and_accept(qtbot, "Kobold"))
    window.act_new.trigger()
    assert window.current_view() is not None and window.current_view().vm.sheet.name == "Kobold"


def test_the_dialog_hides_the_forms_own_button_and_cancel_creates_nothing(
    qtbot: Any, window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    def cancel(dialog: NewSheetDialog) -> int:
        dialog.show()
        assert not dialog.form.create_button.isVisible()
        dialog.reject()
        return dialog.result()

    monkeypatch.setattr(NewSheetDialog, "exec", cancel)
    window.act_new.trigger()
    assert window.current_view() is None


# --- item 2 ----------------------------------------------------------------------------------------


def test_a_new_sheet_is_modified_from_the_start(qtbot: Any, window: MainWindow) -> None:
    create_on_welcome(qtbot, window, "Gobelin 1")
    doc = window.current_doc()
    assert doc is not None and doc.path is None and doc.vm.journal == ()
    assert doc.is_modified()
    assert window.isWindowModified()
    assert window.tabs.tabText(window.tabs.currentIndex()) == "Gobelin 1 *"


def test_an_untouched_demo_copy_is_not_modified_until_changed(qtbot: Any, window: MainWindow) -> None:
    window.open_demo("douaratil")
    doc = window.current_doc()
    assert doc is not None and not doc.is_modified()
    doc.vm.apply(rules.Damage(amount=1))
    assert doc.is_modified()


def test_closing_a_new_sheet_asks(qtbot: Any, window: MainWindow, answer: Any) -> None:
    create_on_welcome(qtbot, window, "Gobelin")
    ask = answer("save_changes", None)
    qtbot.keyClick(window, Qt.Key.Key_W, Qt.KeyboardModifier.ControlModifier)
    assert ask.calls and window.current_doc() is not None


def test_new_sheets_are_autosaved(qtbot: Any, window: MainWindow) -> None:
    for i in range(3):
        create_on_welcome(qtbot, window, f"Gobelin {i}")
        window.show_welcome()
    window.autosaver.timer.timeout.emit()
    saved = sorted(window.store.folder.glob(f"*{autosave.AUTOSAVE_SUFFIX}"))
    assert len(saved) == 3
    titles = sorted(entry.title for entry in window.store.entries())
    assert titles == ["Gobelin 0", "Gobelin 1", "Gobelin 2"]


def test_cancel_at_any_question_of_a_quit_closes_nothing(qtbot: Any, window: MainWindow, answer: Any) -> None:
    for i in range(10):
        create_on_welcome(qtbot, window, f"Gobelin {i}")
        window.show_welcome()
    assert len(window.docs) == 10
    # « Fermer sans enregistrer » for the first two, then « Annuler » at the third.
    ask = answer("save_changes", "discard", "discard", None)
    qtbot.keyClick(window, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)
    assert len(ask.calls) == 3
    assert window.isVisible()
    assert len(window.docs) == 10
    assert sorted(d.vm.sheet.name for d in window.docs.values()) == [f"Gobelin {i}" for i in range(10)]


def test_a_cancelled_save_during_a_quit_closes_nothing(
    qtbot: Any, window: MainWindow, answer: Any, tmp_path: Path
) -> None:
    create_on_welcome(qtbot, window, "A")
    window.show_welcome()
    create_on_welcome(qtbot, window, "B")
    answer("save_changes", "discard", "save")
    answer("save_path", None)  # the save dialog of B is cancelled
    window.close()
    assert window.isVisible() and len(window.docs) == 2


def test_a_quit_that_goes_through_closes_everything_and_drops_the_copies(
    qtbot: Any, window: MainWindow, answer: Any
) -> None:
    create_on_welcome(qtbot, window, "A")
    window.autosaver.timer.timeout.emit()
    assert window.store.entries()
    answer("save_changes", "discard")
    window.close()
    assert not window.isVisible() and not window.docs
    assert not window.store.entries()


# --- item 3 ----------------------------------------------------------------------------------------


def test_the_session_list_follows_the_tabs_without_quitting(qtbot: Any, window: MainWindow, tmp_path: Path) -> None:
    a, b, c = (write_sheet(tmp_path / f"{n}.fiche.json", n) for n in "abc")
    window.open_paths([a, b])
    assert Settings().last_session() == [a.resolve(), b.resolve()]
    window.open_paths([c])
    assert Settings().last_session() == [a.resolve(), b.resolve(), c.resolve()]
    window.tabs.setCurrentIndex(0)
    qtbot.keyClick(window, Qt.Key.Key_W, Qt.KeyboardModifier.ControlModifier)
    assert Settings().last_session() == [b.resolve(), c.resolve()]


def test_a_new_sheet_saved_joins_the_session_list(qtbot: Any, window: MainWindow, answer: Any, tmp_path: Path) -> None:
    create_on_welcome(qtbot, window, "Nouveau")
    assert Settings().last_session() == []
    target = tmp_path / "nouveau.fiche.json"
    answer("save_path", target)
    qtbot.keyClick(window, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert Settings().last_session() == [target.resolve()]


def test_after_a_crash_every_open_file_comes_back_not_only_the_autosaved(
    qtbot: Any, make_window: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = [write_sheet(tmp_path / f"{n}.fiche.json", n) for n in ("un", "deux", "trois")]
    first = make_window()
    first.open_paths(paths)
    # The app dies here: no closeEvent. A second app starts with the same settings.
    first.autosaver.stop()
    again = MainWindow(rng=random.Random(2))
    qtbot.addWidget(again)
    start(again, [])
    reopened = [d.path for d in again.open_documents()]
    assert reopened == [p.resolve() for p in paths]
    monkeypatch.setattr("ui.common.prompts.save_changes", lambda *args: "discard")
    again.close()
