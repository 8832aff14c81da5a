"""Files you can trust, seen from the window (issue 7): broken files, the closing prompt, a file
changed on disk (« Recharger », « Enregistrer sous… », « Écraser », « Annuler »), Ctrl+S, « Enregistrer
sous », recent files.

Issue 7 « Proof »: « pytest-qt: open a broken file → an error dialog (patched in tests) and the open
tabs unchanged; modify, close → the prompt ». « Saving »: « Refuse to overwrite a file changed on disk
since it was opened: offer reload, save as, or overwrite. Ctrl+S, Save as, Recent files (QSettings), a
prompt on closing with unsaved changes. » « Bad input »: « The message names the file and what is
wrong … the sheets already open stay untouched. »
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import QDialog, QMessageBox

import rules
from sheet_app import files
from sheet_app.main_window import MainWindow
from sheet_app.settings import MAX_RECENT, Settings
from ui.common import prompts
from ui.sheet.sheet_view import SheetView

KEPT = Path(__file__).resolve().parents[1] / "files" / "data" / "v1"


def write_sheet(path: Path, sheet: Any = None, journal: tuple[str, ...] = ()) -> Path:
    sheet = sheet if sheet is not None else rules.demo_sheet("douaratil")
    files.write_document(path, files.Document("sheet", [sheet], [list(journal)]))
    return path


def sheet_text(**changes: Any) -> str:
    sheet = rules.evolve(rules.demo_sheet("douaratil"), **changes)
    return files.encode_document(files.Document("sheet", [sheet], [["Création."]])).decode("utf-8")


def snapshot(win: MainWindow) -> list[tuple[Any, ...]]:
    """Everything a user could lose in the open tabs: sheet, journal, undo history, file, title."""
    rows = []
    for i in range(win.tabs.count()):
        view = win.tabs.widget(i)
        assert isinstance(view, SheetView)
        doc = win.docs[view]
        stack = doc.vm.undo_stack
        history = tuple(stack.text(j) for j in range(stack.count()))
        rows.append((view, doc.vm.sheet, doc.vm.journal, history, stack.index(), doc.path, win.tabs.tabText(i)))
    return rows


# --- broken files: an error dialog naming the file and what is wrong; the tabs stay -----------------


def _truncated_kept(path: Path) -> None:
    text = (KEPT / "d20.fiche.json").read_bytes()
    path.write_bytes(text[: len(text) * 2 // 3])


def _flipped_kept(path: Path) -> None:
    raw = bytearray((KEPT / "segments.fiche.json").read_bytes())
    raw[raw.index(b'"level"') + 2] = 0xFF  # a byte flip inside a field name: not UTF-8 any more
    path.write_bytes(bytes(raw))


BROKEN: dict[str, tuple[Callable[[Path], None], str]] = {
    "tronqué (fichier gardé d20)": (_truncated_kept, "le fichier semble tronqué"),
    "octet invalide (fichier gardé segments)": (_flipped_kept, "ce n'est pas du texte UTF-8"),
    "JSON invalide": (
        lambda p: p.write_text(sheet_text().replace('"player": "Camille",', '"player": "Camille"', 1), "utf-8"),
        "une virgule est attendue ici",
    ),
    "mauvais type": (
        lambda p: p.write_text(sheet_text().replace('"level": 3', '"level": "trois"', 1), "utf-8"),
        "« niveau » : doit être un nombre entier",
    ),
    "niveau 10^9": (
        lambda p: p.write_text(sheet_text().replace('"level": 3', '"level": 1000000000', 1), "utf-8"),
        "« niveau » : doit être inférieur ou égal à 100",
    ),
    "maximum négatif": (
        lambda p: p.write_text(sheet_text().replace('"base_maximum": 14', '"base_maximum": -5', 1), "utf-8"),
        "doit être supérieur ou égal à 0",
    ),
    "système inconnu": (
        lambda p: p.write_text(sheet_text().replace('"system": "douaratil"', '"system": "pathfinder"'), "utf-8"),
        "inconnu « pathfinder »",
    ),
    "format plus récent": (
        lambda p: p.write_text(
            sheet_text().replace('"format": 1', '"format": 9', 1).replace('"needs": "0.1.0"', '"needs": "4.2"'),
            "utf-8",
        ),
        "il faut sheet_app 4.2",
    ),
    "imbrication profonde": (lambda p: p.write_text("[" * 5000 + "]" * 5000, "utf-8"), "imbriquées trop profondément"),
    "vide": (lambda p: p.write_bytes(b""), "le fichier est vide"),
    "UTF-16": (lambda p: p.write_bytes(sheet_text().encode("utf-16")), "encodé en UTF-16"),
    "pas une fiche": (lambda p: p.write_text('"bonjour"', "utf-8"), "fiche"),
    "dossier": (lambda p: p.mkdir(), "c'est un dossier"),
    "introuvable": (lambda p: None, "introuvable"),
}


@pytest.mark.parametrize("kind", list(BROKEN))
def test_a_broken_file_shows_a_french_error_naming_it_and_the_open_tabs_stay(
    qtbot: Any, window: MainWindow, answer: Any, tmp_path: Path, kind: str
) -> None:
    make, what = BROKEN[kind]
    (first,) = window.open_paths([write_sheet(tmp_path / "bonne.fiche.json")])
    first.vm.apply(rules.Damage(amount=3))
    window.open_demo("d20")
    window.tabs.setCurrentIndex(0)
    before = snapshot(window)
    recent = window.settings.recent_files()
    broken = tmp_path / "cassée.fiche.json"
    make(broken)
    error = answer("show_error", None)
    assert window.open_paths([broken]) == []
    assert len(error.calls) == 1
    _parent, title, message = error.calls[0]
    assert title == "Ouverture impossible"
    assert "cassée.fiche.json" in message and what in message, message
    assert "Traceback" not in message and "Error" not in message
    assert snapshot(window) == before
    assert window.current_view() is first and window.isWindowModified()
    assert window.settings.recent_files() == recent


def test_a_huge_file_is_refused_with_the_limit(
    window: MainWindow, answer: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """“huge files (refuse above a documented size limit before reading it all)”."""
    window.open_demo("douaratil")
    before = snapshot(window)
    big = tmp_path / "énorme.fiche.json"
    big.write_text(sheet_text(notes="x" * 8000), "utf-8")
    monkeypatch.setattr(files, "MAX_FILE_BYTES", 4096)
    error = answer("show_error", None)
    assert window.open_paths([big]) == []
    assert "énorme.fiche.json" in error.calls[0][2] and "fichier trop gros" in error.calls[0][2]
    assert snapshot(window) == before


def test_among_several_files_the_good_ones_open_and_each_bad_one_is_named(
    window: MainWindow, answer: Any, tmp_path: Path
) -> None:
    good = [write_sheet(tmp_path / f"{s}.fiche.json", rules.demo_sheet(s)) for s in ("douaratil", "severite")]
    bad = tmp_path / "mauvaise.fiche.json"
    bad.write_text("{ pas du json", "utf-8")
    error = answer("show_error", None)
    views = window.open_paths([good[0], bad, good[1]])
    assert [v.vm.sheet.system for v in views] == ["douaratil", "severite"]
    assert len(error.calls) == 1 and "mauvaise.fiche.json" in error.calls[0][2]
    assert window.tabs.count() == 2


# --- closing with unsaved changes: « Enregistrer », « Fermer sans enregistrer », « Annuler » ---------


@pytest.fixture
def modified(window: MainWindow, tmp_path: Path) -> tuple[SheetView, Path, bytes]:
    path = write_sheet(tmp_path / "ulfred.fiche.json")
    (view,) = window.open_paths([path])
    view.vm.apply(rules.Damage(amount=4))
    return view, path, path.read_bytes()


def test_closing_a_modified_sheet_and_choosing_save_writes_it_then_closes(
    window: MainWindow, answer: Any, modified: tuple[SheetView, Path, bytes]
) -> None:
    view, path, _ = modified
    sheet, journal = view.vm.sheet, view.vm.journal
    ask = answer("save_changes", "save")
    window.close_current()
    assert ask.calls == [(window, "Ulfred")]
    assert not window.docs and window.is_welcome_shown()
    doc, _ = files.read_document(path)
    assert doc.sheets[0] == sheet and tuple(doc.journals[0]) == journal


def test_closing_and_choosing_discard_closes_without_writing(
    window: MainWindow, answer: Any, modified: tuple[SheetView, Path, bytes]
) -> None:
    _, path, before = modified
    ask = answer("save_changes", "discard")
    window.close_current()
    assert ask.calls and not window.docs
    assert path.read_bytes() == before


def test_closing_and_choosing_cancel_keeps_the_tab_and_its_history(
    window: MainWindow, answer: Any, modified: tuple[SheetView, Path, bytes]
) -> None:
    _, path, before = modified
    kept = snapshot(window)
    ask = answer("save_changes", None)
    window.act_close.trigger()  # Ctrl+W
    assert ask.calls
    assert snapshot(window) == kept and window.isWindowModified()
    assert path.read_bytes() == before
    assert window.act_undo.text() == "&Annuler : Dégâts 4"


def test_saving_a_new_sheet_on_close_asks_where_and_cancelling_that_keeps_the_tab(
    window: MainWindow, answer: Any, tmp_path: Path
) -> None:
    view = window.open_demo("douaratil")
    assert view is not None
    view.vm.apply(rules.Damage(amount=2))
    answer("save_changes", "save", "save")
    where = answer("save_path", None, tmp_path / "nouvelle.fiche.json")
    window.close_current()
    assert len(where.calls) == 1 and window.current_view() is view
    window.close_current()
    assert not window.docs
    assert files.read_document(tmp_path / "nouvelle.fiche.json")[0].sheets[0] == view.vm.sheet


def test_an_unmodified_sheet_closes_without_a_question(window: MainWindow, tmp_path: Path) -> None:
    window.open_paths([write_sheet(tmp_path / "a.fiche.json")])
    window.close_current()  # an unpatched prompt would fail the test
    assert not window.docs


def test_quitting_asks_for_each_modified_sheet_and_cancel_keeps_the_window(
    window: MainWindow, answer: Any, tmp_path: Path
) -> None:
    for name in ("a", "b"):
        (view,) = window.open_paths([write_sheet(tmp_path / f"{name}.fiche.json")])
        view.vm.apply(rules.Damage(amount=1))
    ask = answer("save_changes", "discard", None)
    event = QCloseEvent()
    window.closeEvent(event)
    assert not event.isAccepted()
    # Issue 10 item 2: « Annuler at any point of a quit cancels the whole quit with nothing closed ».
    assert len(ask.calls) == 2 and window.tabs.count() == 2 and window.isVisible()


# --- changed on disk: « Recharger », « Enregistrer sous… », « Écraser », « Annuler » --------------------


@pytest.fixture
def changed(window: MainWindow, tmp_path: Path) -> tuple[SheetView, Path, Any]:
    """A sheet open and modified here, while another program rewrote its file."""
    path = write_sheet(tmp_path / "a.fiche.json")
    (view,) = window.open_paths([path])
    view.vm.apply(rules.Damage(amount=5))
    view.vm.apply(rules.Heal(amount=1))
    other = rules.evolve(rules.demo_sheet("douaratil"), name="Quelqu'un d'autre", current=3)
    write_sheet(path, other, ("écrit ailleurs",))
    return view, path, other


def test_reload_takes_the_file_from_disk_and_starts_a_new_undo_history(
    window: MainWindow, answer: Any, changed: tuple[SheetView, Path, Any]
) -> None:
    view, path, other = changed
    on_disk = path.read_bytes()
    ask = answer("changed_on_disk", "reload")
    assert not window.save()  # nothing was written: the tab now holds the file
    assert ask.calls == [(window, path)]
    assert path.read_bytes() == on_disk
    assert view.vm.sheet == other and view.vm.journal == ("écrit ailleurs",)
    assert view.vm.undo_stack.count() == 0 and not window.act_undo.isEnabled()
    assert not window.isWindowModified()
    assert window.tabs.tabText(window.tabs.currentIndex()) == "Quelqu'un d'autre"
    assert view.health.isVisible()  # the same view, redrawn from the new sheet
    # The next save goes through without a question: the tab knows the file as it is now.
    view.vm.apply(rules.Damage(amount=1))
    assert window.save()
    assert files.read_document(path)[0].sheets[0] == view.vm.sheet


def test_reload_of_a_file_now_holding_another_system_replaces_the_tab_in_place(
    window: MainWindow, answer: Any, tmp_path: Path
) -> None:
    window.open_demo("severite")
    path = write_sheet(tmp_path / "a.fiche.json")
    (view,) = window.open_paths([path])
    window.open_demo("segments")
    window.tabs.setCurrentWidget(view)
    view.vm.apply(rules.Damage(amount=5))
    d20 = rules.demo_sheet("d20")
    write_sheet(path, d20)
    answer("changed_on_disk", "reload")
    assert not window.save()
    assert window.tabs.count() == 3
    new = window.tabs.widget(1)
    assert isinstance(new, SheetView) and new is not view and window.current_view() is new
    assert new.vm.sheet == d20 and window.docs[new].path == path
    assert [window.tabs.widget(i).vm.sheet.system for i in range(3)] == ["severite", "d20", "segments"]
    assert view not in window.docs and not window.isWindowModified()


def test_reload_of_a_file_now_broken_keeps_the_tab_as_it_was(
    window: MainWindow, answer: Any, changed: tuple[SheetView, Path, Any]
) -> None:
    _, path, _ = changed
    path.write_text("{ cassé", "utf-8")
    kept = snapshot(window)
    answer("changed_on_disk", "reload")
    error = answer("show_error", None)
    assert not window.save()
    assert "a.fiche.json" in error.calls[0][2] and "JSON invalide" in error.calls[0][2]
    assert snapshot(window) == kept and window.isWindowModified()


def test_save_as_keeps_both_versions(
    window: MainWindow, answer: Any, changed: tuple[SheetView, Path, Any], tmp_path: Path
) -> None:
    view, path, _ = changed
    on_disk = path.read_bytes()
    answer("changed_on_disk", "save_as")
    where = answer("save_path", tmp_path / "la-mienne.fiche.json")
    assert window.save()
    assert where.calls and path.read_bytes() == on_disk
    assert files.read_document(tmp_path / "la-mienne.fiche.json")[0].sheets[0] == view.vm.sheet
    assert window.current_doc() is not None and window.current_doc().path == tmp_path / "la-mienne.fiche.json"
    assert not window.isWindowModified()


def test_overwrite_and_cancel(window: MainWindow, answer: Any, changed: tuple[SheetView, Path, Any]) -> None:
    view, path, _ = changed
    on_disk = path.read_bytes()
    answer("changed_on_disk", None)
    assert not window.save()
    assert path.read_bytes() == on_disk and window.isWindowModified()
    answer("changed_on_disk", "overwrite")
    assert window.save()
    assert files.read_document(path)[0].sheets[0] == view.vm.sheet and not window.isWindowModified()


def test_a_file_only_touched_is_not_a_change(window: MainWindow, tmp_path: Path) -> None:
    path = write_sheet(tmp_path / "a.fiche.json")
    (view,) = window.open_paths([path])
    view.vm.apply(rules.Damage(amount=1))
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 5_000_000_000))
    assert window.save()  # an unpatched changed-on-disk prompt would fail the test


def test_closing_with_save_then_reload_keeps_the_tab_open_on_the_file(
    window: MainWindow, answer: Any, changed: tuple[SheetView, Path, Any]
) -> None:
    view, _, other = changed
    answer("save_changes", "save")
    answer("changed_on_disk", "reload")
    window.close_current()
    assert window.current_view() is view and view.vm.sheet == other


# --- the dialogs themselves (their buttons, in French) ------------------------------------------------


@pytest.mark.parametrize(
    ("button", "expected"),
    [("Recharger", "reload"), ("Enregistrer sous…", "save_as"), ("Écraser", "overwrite"), ("Annuler", None)],
)
def test_the_changed_on_disk_dialog_offers_four_answers(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, button: str, expected: str | None
) -> None:
    seen: dict[str, Any] = {}

    def click(box: QMessageBox) -> int:
        buttons = {b.text(): b for b in box.buttons()}
        seen.update(texts=sorted(buttons), text=box.text(), info=box.informativeText(), title=box.windowTitle())
        seen["default"] = box.defaultButton().text()
        buttons[button].click()
        return 0

    monkeypatch.setattr(QMessageBox, "exec", click)
    assert prompts.changed_on_disk(None, tmp_path / "ulfred.fiche.json") == expected
    assert seen["texts"] == sorted(["Recharger", "Enregistrer sous…", "Écraser", "Annuler"])
    assert seen["title"] == "Fichier modifié ailleurs" and "« ulfred.fiche.json »" in seen["text"]
    assert str(tmp_path) in seen["text"]
    assert "historique d'annulation" in seen["info"]
    assert seen["default"] == "Enregistrer sous…"  # the answer that loses nothing


@pytest.mark.parametrize(
    ("button", "expected"), [("Enregistrer", "save"), ("Fermer sans enregistrer", "discard"), ("Annuler", None)]
)
def test_the_save_changes_dialog(monkeypatch: pytest.MonkeyPatch, button: str, expected: str | None) -> None:
    def click(box: QMessageBox) -> int:
        assert "« Ulfred »" in box.text()
        {b.text(): b for b in box.buttons()}[button].click()
        return 0

    monkeypatch.setattr(QMessageBox, "exec", click)
    assert prompts.save_changes(None, "Ulfred") == expected


# --- Ctrl+S, « Enregistrer sous », recent files ----------------------------------------------------


def test_ctrl_s_saves_in_place_without_asking(qtbot: Any, window: MainWindow, tmp_path: Path) -> None:
    path = write_sheet(tmp_path / "a.fiche.json")
    (view,) = window.open_paths([path])
    view.vm.apply(rules.Damage(amount=2))
    qtbot.keyClick(window, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert not window.isWindowModified()
    assert files.read_document(path)[0].sheets[0] == view.vm.sheet


def test_ctrl_shift_s_saves_under_a_new_name(qtbot: Any, window: MainWindow, answer: Any, tmp_path: Path) -> None:
    path = write_sheet(tmp_path / "a.fiche.json")
    before = path.read_bytes()
    (view,) = window.open_paths([path])
    view.vm.apply(rules.Damage(amount=2))
    where = answer("save_path", tmp_path / "copie.fiche.json")
    qtbot.keyClick(window, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert where.calls and where.calls[0][1] == tmp_path / "ulfred.fiche.json"
    copy = tmp_path / "copie.fiche.json"
    assert files.read_document(copy)[0].sheets[0] == view.vm.sheet
    assert path.read_bytes() == before
    assert window.current_doc() is not None and window.current_doc().path == copy
    assert window.settings.recent_files()[:2] == [copy.resolve(), path.resolve()]
    assert str(copy) in window.tabs.tabToolTip(window.tabs.currentIndex())


def test_a_failed_save_says_why_and_keeps_the_changes(window: MainWindow, answer: Any, tmp_path: Path) -> None:
    view = window.open_demo("douaratil")
    assert view is not None
    view.vm.apply(rules.Damage(amount=2))
    blocker = tmp_path / "pas-un-dossier"
    blocker.write_text("", "utf-8")
    answer("save_path", blocker / "a.fiche.json")
    error = answer("show_error", None)
    assert not window.save()
    assert error.calls[0][1] == "Enregistrement impossible" and "a.fiche.json" in error.calls[0][2]
    assert window.isWindowModified() and window.current_doc() is not None and window.current_doc().path is None


def test_recent_files_are_remembered_newest_first_and_open_from_the_menu(
    window: MainWindow, make_window: Callable[..., MainWindow], tmp_path: Path
) -> None:
    paths = [
        write_sheet(tmp_path / f"{i}.fiche.json", rules.evolve(rules.demo_sheet("douaratil"), name=f"N{i}"))
        for i in range(3)
    ]
    for path in paths:
        window.open_paths([path])
        window.close_current()
    assert window.settings.recent_files() == [p.resolve() for p in reversed(paths)]
    texts = [a.text() for a in window.recent_menu.actions()]
    assert texts == [f"{p.name} — {p.parent}" for p in reversed(paths)]
    paths[0].unlink()
    window.refresh_recent()
    enabled = {a.text().split(" — ")[0]: a.isEnabled() for a in window.recent_menu.actions()}
    assert enabled == {"2.fiche.json": True, "1.fiche.json": True, "0.fiche.json": False}
    # QSettings keeps them for the next run; a menu entry opens its file.
    again = make_window()
    assert again.settings.recent_files() == window.settings.recent_files()
    again.recent_menu.actions()[1].trigger()
    assert again.current_doc() is not None and again.current_doc().path == paths[1]


def test_a_recent_file_that_is_gone_leaves_the_list_with_a_message(
    window: MainWindow, answer: Any, tmp_path: Path
) -> None:
    path = write_sheet(tmp_path / "parti.fiche.json")
    window.open_paths([path])
    window.close_current()
    path.unlink()
    error = answer("show_error", None)
    assert window.open_paths([path]) == []
    assert "parti.fiche.json" in error.calls[0][2] and "introuvable" in error.calls[0][2]
    assert window.settings.recent_files() == []
    assert [a.text() for a in window.recent_menu.actions()] == ["(aucune)"]


def test_the_recent_list_keeps_the_last_ten(tmp_path: Path) -> None:
    settings = Settings()
    for i in range(MAX_RECENT + 3):
        settings.add_recent(tmp_path / f"{i}.fiche.json")
    settings.add_recent(tmp_path / "5.fiche.json")
    recent = settings.recent_files()
    assert len(recent) == MAX_RECENT and recent[0] == (tmp_path / "5.fiche.json").resolve()
    assert recent.count((tmp_path / "5.fiche.json").resolve()) == 1


# --- the recovery dialog -------------------------------------------------------------------------------


def test_the_recovery_dialog_lists_each_copy_ticked_and_a_click_on_its_text_unticks_it(qtbot: Any) -> None:
    texts = [
        "« Ulfred » (/jdr/ulfred.fiche.json) : sauvegarde automatique aujourd'hui à 14:32, plus récente "
        "que le fichier.",
        "« Brunehilde », jamais enregistré : sauvegarde automatique hier à 09:05.",
    ]
    dialog = prompts.RecoveryDialog(texts)
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.choices() == [True, True]
    labels = [w for w in dialog.findChildren(prompts.QLabel) if w.text() in texts]
    assert [label.text() for label in labels] == texts
    qtbot.mouseClick(labels[1], Qt.MouseButton.LeftButton)
    assert dialog.choices() == [True, False]
    assert dialog.boxes[0].accessibleName() == texts[0]
    assert dialog.recover_button.text() == "Récupérer la sélection" and dialog.later_button.text() == "Plus tard"


@pytest.mark.parametrize(
    ("code", "expected"), [(QDialog.DialogCode.Accepted, [True]), (QDialog.DialogCode.Rejected, None)]
)
def test_ask_recovery_answers(monkeypatch: pytest.MonkeyPatch, code: QDialog.DialogCode, expected: Any) -> None:
    monkeypatch.setattr(QDialog, "exec", lambda self: code)
    assert prompts.ask_recovery(None, ["« Ulfred » : sauvegarde automatique aujourd'hui à 14:32."]) == expected
