"""Files you can trust, part two, seen from the window (issue 16, items 3–5, 7, 10, 12, 18).

Each test quotes the item it holds to. The file layer's own parts (changes by content, the check right
before the replace, stale temp files) are in ``tests/files/test_save.py``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

import rules
from sheet_app import files
from sheet_app.app import start
from sheet_app.autosave import AUTOSAVE_SUFFIX, AutosaveStore
from sheet_app.main_window import MainWindow
from tests.app.test_autosave_window import MakeWindow, copies, crash, write_sheet
from ui.common import prompts

LONG_AGO = 10**18  # 2001, in nanoseconds


def _played(win: MainWindow, path: Path, damage: int = 3) -> Any:
    (view,) = win.open_paths([path])
    view.vm.apply(rules.Damage(amount=damage))
    return view


# --- item 3: a symbolic link loop on the command line ------------------------------------------------


def test_a_link_loop_on_the_command_line_is_named_and_the_good_files_still_open(
    make_window: MakeWindow, answer: Any, tmp_path: Path
) -> None:
    """Item 3: “A symlink loop on the command line crashes the app at start-up (`RuntimeError: Symlink
    loop` from `Path.resolve()` in `MainWindow.open_paths`), and even the good files given with it
    never open.”"""
    loop = tmp_path / "boucle.fiche.json"
    loop.symlink_to(loop)
    good = write_sheet(tmp_path / "ulfred.fiche.json")
    win = make_window()
    errors = answer("show_error", None, None, None)
    start(win, [loop, good])
    assert win.tabs.count() == 1 and win.docs[win.tabs.widget(0)].path == good
    ((_parent, title, text),) = errors.calls
    assert title == "Ouverture impossible" and str(loop) in text and "trop de liens symboliques" in text
    win.open_paths([loop, loop])  # again, and twice: still named, still no exception
    assert win.tabs.count() == 1 and len(errors.calls) == 3


# --- item 4: a file name that is not UTF-8 ------------------------------------------------------------


def test_a_file_name_that_is_not_utf8_opens_saves_autosaves_and_is_remembered(
    make_window: MakeWindow, answer: Any, tmp_path: Path
) -> None:
    """Item 4: “A file name that is not valid UTF-8 (a Latin-1 `\\xe9t\\xe9.fiche.json`) opens and saves,
    but `AutosaveStore.save` raises `UnicodeEncodeError`, uncaught; because `save_all` is a generator,
    every tab after it loses its autosave too; the path is not added to the recent files.”"""
    latin = Path(os.fsdecode(os.fsencode(tmp_path)) + "/" + os.fsdecode(b"\xe9t\xe9.fiche.json"))
    write_sheet(latin)
    other = write_sheet(tmp_path / "autre.fiche.json")
    win = make_window()
    first = _played(win, latin)
    second = _played(win, other)
    assert win.autosaver.save_all() == 2
    sources = {e.source for e in win.store.entries()}
    assert sources == {latin, other}
    (entry,) = [e for e in win.store.entries() if e.source == latin]
    assert win.store.load(entry).sheets[0] == first.vm.sheet
    assert latin in win.settings.recent_files()
    assert win.docs[second].path == other  # the tab after the odd name got its copy too (above)
    win.tabs.setCurrentWidget(first)
    assert win.save()
    assert files.read_document(latin)[0].sheets[0] == first.vm.sheet
    assert os.fsencode(latin).endswith(b"/\xe9t\xe9.fiche.json")


def test_one_documents_autosave_failing_leaves_the_others_theirs(
    make_window: MakeWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    win = make_window()
    first = _played(win, write_sheet(tmp_path / "a.fiche.json"))
    second = _played(win, write_sheet(tmp_path / "b.fiche.json"))
    real = win.store.save

    def broken_for_a(key: str, doc: files.Document, source: Any, base: str = "") -> Any:
        if source is not None and Path(source).name == "a.fiche.json":
            raise RuntimeError("bug")
        return real(key, doc, source, base)

    monkeypatch.setattr(win.store, "save", broken_for_a)
    failures: list[str] = []
    win.autosaver.failed.connect(failures.append)
    assert win.autosaver.save_all() == 1
    assert [e.source.name for e in win.store.entries() if e.source] == ["b.fiche.json"]
    assert failures == ["Sauvegarde automatique impossible de « Ulfred » (erreur interne)."]
    assert win.store.load(win.store.entries()[0]).sheets[0] == second.vm.sheet
    assert first.vm.sheet is not None


# --- item 5: an autosave whose file name is not a key of ours -----------------------------------------


def _crashed_copy(make_window: MakeWindow, tmp_path: Path, name: str) -> tuple[Path, Any]:
    """A played file, autosaved, the app crashed; its copy renamed as a sync tool would."""
    path = write_sheet(tmp_path / "jdr" / "ulfred.fiche.json")
    win = make_window()
    view = _played(win, path)
    win.autosaver.save_all()
    held = view.vm.sheet
    crash(win)
    (copy,) = copies(win.store)
    renamed = copy.with_name(name + AUTOSAVE_SUFFIX)
    copy.rename(renamed)
    return renamed, held


def test_a_copy_with_a_foreign_file_name_can_be_declined(make_window: MakeWindow, answer: Any, tmp_path: Path) -> None:
    """Item 5: “An autosave file whose name is not a valid key (`mauvaise clé.autosave.json`, a sync
    tool's « conflicted copy ») makes `ValueError: invalid autosave key` escape `sheet_app.app.start()`
    when the user unticks it in the recovery dialog; if ticked, every later autosave of that tab raises
    it.”"""
    renamed, _ = _crashed_copy(make_window, tmp_path, "mauvaise clé (copie en conflit)")
    again = make_window()
    answer("ask_recovery", [False])
    start(again, [])
    assert not renamed.exists()
    # The file that was open comes back from the session list (issue 10 item 3), as it is on disk.
    (view,) = again.docs
    doc = again.docs[view]
    assert doc.path == tmp_path / "jdr" / "ulfred.fiche.json" and not doc.is_modified()


def test_a_copy_with_a_foreign_file_name_can_be_recovered_and_autosaved_again(
    make_window: MakeWindow, answer: Any, tmp_path: Path
) -> None:
    renamed, held = _crashed_copy(make_window, tmp_path, "mauvaise clé")
    again = make_window()
    answer("ask_recovery", [True])
    start(again, [])
    view = again.tabs.widget(0)
    assert again.docs[view].vm.sheet == held
    view.vm.apply(rules.Damage(amount=1))
    assert again.autosaver.save_all() == 1
    assert not renamed.exists(), "our own copy supersedes the recovered one"
    (entry,) = again.store.entries()
    assert again.store.load(entry).sheets[0] == view.vm.sheet and entry.session == again.store.session


# --- item 7: two windows on one file -----------------------------------------------------------------


def test_two_apps_on_one_file_keep_two_copies_and_a_crash_of_one_leaves_its_copy(
    make_window: MakeWindow, answer: Any, tmp_path: Path
) -> None:
    """Item 7: “Two instances on the same file share one autosave key: B's copy overwrites A's, A's save
    deletes the shared copy, kill -9 B → B's unsaved work is not offered. Autosave copies are per
    running instance (and recovery still finds them all).”"""
    path = write_sheet(tmp_path / "jdr" / "ulfred.fiche.json")
    first = make_window()
    second = make_window(store=AutosaveStore())  # another app: its own session
    a = _played(first, path, damage=1)
    b = _played(second, path, damage=5)
    assert first.autosaver.save_all() == 1 and second.autosaver.save_all() == 1
    assert len(copies(first.store)) == 2
    assert first.save()  # A saves: only A's copy goes
    second.store.heartbeat()  # B still runs a few seconds after (its timer says so every 5 s)
    (left,) = first.store.entries()
    assert left.session == second.store.session and first.store.load(left).sheets[0] == b.vm.sheet
    crash(second)
    third = make_window()
    offer = answer("ask_recovery", [True])
    start(third, [])
    assert len(offer.calls[0][1]) == 1
    assert third.docs[third.tabs.widget(0)].vm.sheet == b.vm.sheet != a.vm.sheet


# --- item 10: a read-only file --------------------------------------------------------------------------


def test_a_read_only_file_is_not_replaced_and_save_as_is_offered(
    window: MainWindow, answer: Any, tmp_path: Path
) -> None:
    """Item 10: “A read-only file (mode 0444) is replaced by Ctrl+S with no warning. Respect the file's
    permission: refuse with a French message and offer « Enregistrer sous ».”"""
    path = write_sheet(tmp_path / "ulfred.fiche.json")
    view = _played(window, path)
    path.chmod(0o444)
    before = path.read_bytes()
    ask = answer("confirm", False, True)
    assert not window.save()
    ((_parent, title, text, yes),) = ask.calls
    assert title == "Fichier en lecture seule" and "lecture seule" in text and str(path) in text
    assert yes == "Enregistrer sous…"
    assert path.read_bytes() == before and window.isWindowModified()
    elsewhere = tmp_path / "copie.fiche.json"
    answer("save_path", elsewhere)
    assert window.save()
    assert path.read_bytes() == before
    assert files.read_document(elsewhere)[0].sheets[0] == view.vm.sheet
    assert window.docs[view].path == elsewhere
    assert stat_mode(path) == 0o444


def stat_mode(path: Path) -> int:
    return path.stat().st_mode & 0o777


# --- item 12: an autosave's source is not trusted ---------------------------------------------------------


def _forged(copy: Path, source: Path) -> None:
    data = json.loads(copy.read_text(encoding="utf-8"))
    data["source"] = str(source)
    copy.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")


def test_a_recovered_copy_goes_back_to_its_file_only_after_the_user_confirms_a_doubtful_path(
    make_window: MakeWindow, answer: Any, tmp_path: Path
) -> None:
    """Item 12: “The autosave's `source` path is trusted: an autosave with `"source": "/any/file"` is
    offered, and Ctrl+S then overwrites that file with no question. Recovered documents are saved to
    their source only after the user confirms the path (or the source is verified to be the document
    it claims).”"""
    renamed, held = _crashed_copy(make_window, tmp_path, "ulfred")
    victim = tmp_path / "important.fiche.json"
    write_sheet(victim, rules.evolve(rules.demo_sheet("douaratil"), name="Précieux"))
    os.utime(victim, ns=(LONG_AGO, LONG_AGO))  # older than the copy: it is offered
    before = victim.read_bytes()
    _forged(renamed, victim)
    again = make_window()
    answer("ask_recovery", [True])
    start(again, [])
    ask = answer("confirm", False, True)
    assert not again.save()
    ((_parent, title, text, yes),) = ask.calls
    assert title == "Enregistrer la fiche récupérée" and str(victim) in text and yes == "Enregistrer dans ce fichier"
    assert victim.read_bytes() == before
    assert again.save()  # confirmed: written there
    assert files.read_document(victim)[0].sheets[0] == held


def test_a_recovered_copy_whose_file_is_still_the_same_goes_back_without_a_question(
    make_window: MakeWindow, answer: Any, tmp_path: Path
) -> None:
    _, held = _crashed_copy(make_window, tmp_path, "ulfred")
    path = tmp_path / "jdr" / "ulfred.fiche.json"
    again = make_window()
    answer("ask_recovery", [True])
    start(again, [])
    assert again.save()  # no prompt patched: a question would fail the test
    assert files.read_document(path)[0].sheets[0] == held


def test_a_copy_of_a_file_rewritten_since_asks_first(make_window: MakeWindow, answer: Any, tmp_path: Path) -> None:
    _, held = _crashed_copy(make_window, tmp_path, "ulfred")
    path = tmp_path / "jdr" / "ulfred.fiche.json"
    write_sheet(path, rules.evolve(rules.demo_sheet("douaratil"), name="Réécrit"))
    os.utime(path, ns=(LONG_AGO, LONG_AGO))  # rewritten, its old time put back (what `cp -p` does)
    again = make_window()
    answer("ask_recovery", [True])
    start(again, [])
    ask = answer("confirm", True)
    assert again.save() and len(ask.calls) == 1
    assert files.read_document(path)[0].sheets[0] == held


# --- item 18: a table refused by the sheet window names its path --------------------------------------------


def test_a_table_given_where_a_sheet_is_expected_is_refused_naming_its_whole_path(
    window: MainWindow, tmp_path: Path
) -> None:
    """Item 18: “table refusals in the window name only the file name” (now: a GM table taking in a
    sheet file, and given a table)."""
    path = tmp_path / "seance" / "auberge.table.json"
    path.parent.mkdir()
    files.write_document(path, files.Document("table", [rules.demo_sheet("d20")] * 2))
    with pytest.raises(ValueError) as caught:
        window.controller.read_sheet(path)
    assert str(caught.value).startswith(f"{path} : c'est une table de meneur (2 fiches)")


def test_prompts_used_here_exist() -> None:
    assert callable(prompts.confirm) and callable(prompts.save_path)
