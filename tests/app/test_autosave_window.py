"""Autosave and recovery, seen from the window (issue 7).

Issue 7 « Saving »: « Autosave every minute (and on each rest or time advance) to the user data folder
(platformdirs), never over the user's own file; after a crash, the next start offers to recover the
newer autosave, showing its time. » « Proof »: « pytest-qt: … simulated crash → recovery offered. »
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPushButton

import rules
from sheet_app import autosave, files
from sheet_app.app import start
from sheet_app.autosave import AutosaveStore
from sheet_app.controller import OpenSheet
from sheet_app.main_window import MainWindow
from sheet_app.settings import AUTOSAVE_INTERVAL_MS, Settings
from ui.common import prompts
from ui.sheet.sheet_view import SheetView

ROOT = Path(__file__).resolve().parents[2]

MakeWindow = Callable[..., MainWindow]


def write_sheet(path: Path, sheet: Any = None, journal: tuple[str, ...] = ()) -> Path:
    sheet = sheet if sheet is not None else rules.demo_sheet("douaratil")
    path.parent.mkdir(parents=True, exist_ok=True)
    files.write_document(path, files.Document("sheet", [sheet], [list(journal)]))
    return path


def doc_of(win: MainWindow, view: SheetView) -> OpenSheet:
    return win.docs[view]


def copies(store: AutosaveStore) -> list[Path]:
    return sorted(store.folder.glob(f"*{autosave.AUTOSAVE_SUFFIX}")) if store.folder.exists() else []


def crash(win: MainWindow) -> None:
    """What the end of the process does to a window that crashes: its timer stops, its lock goes.

    The kernel releases a dead process's ``flock``; here the store's lock file descriptor is closed
    the same way (without the unlink of a clean ``close()``), and nothing else of a clean close runs.
    """
    win.autosaver.stop()
    fd = win.store._lock_fd
    assert fd is not None, "the store holds its session lock once it has autosaved"
    os.close(fd)
    win.store._lock_fd = None


def recover_only(monkeypatch: pytest.MonkeyPatch, word: str) -> None:
    """The recovery dialog answers: tick the copies whose description holds ``word``."""
    monkeypatch.setattr(prompts, "ask_recovery", lambda _parent, texts: [word in t for t in texts])


# --- where and when ------------------------------------------------------------------------------------


def test_autosaves_go_to_the_user_data_folder_of_the_test(window: MainWindow, tmp_path: Path) -> None:
    assert window.store.folder == tmp_path / "data" / "sheet_app" / "autosave"
    assert window.store.folder == autosave.default_folder()


def test_the_timer_ticks_every_minute_by_default(window: MainWindow) -> None:
    assert AUTOSAVE_INTERVAL_MS == 60_000 and Settings().autosave_interval_ms == 60_000
    assert window.autosaver.timer.isActive() and window.autosaver.timer.interval() == 60_000


def test_an_interval_must_be_positive() -> None:
    with pytest.raises(ValueError):
        Settings(autosave_interval_ms=0)


def test_the_timer_autosaves_every_modified_sheet_and_never_the_users_file(
    qtbot: Any, make_window: MakeWindow, tmp_path: Path
) -> None:
    win = make_window(Settings(autosave_interval_ms=40))
    path = write_sheet(tmp_path / "jdr" / "ulfred.fiche.json")
    before = (path.read_bytes(), path.stat().st_mtime_ns)
    (played,) = win.open_paths([path])
    untouched = win.open_demo("severite")  # a new sheet with no change: nothing to keep
    fresh = win.open_demo("d20")
    assert untouched is not None and fresh is not None
    played.vm.apply(rules.Damage(amount=3))
    fresh.vm.apply(rules.Damage(amount=2))
    qtbot.waitUntil(lambda: len(copies(win.store)) == 2, timeout=3000)
    entries = {e.source: e for e in win.store.entries()}
    assert set(entries) == {path.resolve(), None}
    assert win.store.load(entries[path.resolve()]).sheets[0] == played.vm.sheet
    assert win.store.load(entries[None]).sheets[0] == fresh.vm.sheet
    assert tuple(win.store.load(entries[None]).journals[0]) == fresh.vm.journal
    assert (path.read_bytes(), path.stat().st_mtime_ns) == before
    assert sorted(p.name for p in path.parent.iterdir()) == ["ulfred.fiche.json"]
    assert "Sauvegarde automatique à" in win.autosave_status.text()
    # Later ticks follow the sheet.
    played.vm.apply(rules.Damage(amount=1))
    qtbot.waitUntil(
        lambda: win.store.load(win.store.latest(doc_of(win, played).autosave_key)).sheets[0] == played.vm.sheet,
        timeout=3000,
    )


def test_a_copy_is_not_rewritten_when_nothing_changed(window: MainWindow) -> None:
    view = window.open_demo("douaratil")
    assert view is not None
    view.vm.apply(rules.Damage(amount=3))
    assert window.autosaver.save_all() == 1
    (copy,) = copies(window.store)
    stamp = copy.stat().st_mtime_ns
    assert window.autosaver.save_all() == 0
    assert copy.stat().st_mtime_ns == stamp
    view.vm.apply(rules.Damage(amount=1))
    assert window.autosaver.save_all() == 1


def test_undoing_back_to_the_saved_state_drops_the_copy(window: MainWindow, tmp_path: Path) -> None:
    (view,) = window.open_paths([write_sheet(tmp_path / "a.fiche.json")])
    view.vm.apply(rules.Damage(amount=3))
    window.autosaver.save_all()
    assert copies(window.store)
    view.vm.undo_stack.undo()
    window.autosaver.save_all()
    assert copies(window.store) == []


def _rests_and_time(system: str) -> list[rules.Action]:
    info = rules.describe(system)
    actions: list[rules.Action] = [action_type() for action_type, _label in info.rests]
    actions.append(rules.AdvanceTime(unit=info.time_units[0].id, count=1))
    return actions


REST_CASES = [
    pytest.param(system, i, id=f"{system}-{type(action).__name__}")
    for system in rules.SYSTEMS
    for i, action in enumerate(_rests_and_time(system))
]


@pytest.mark.parametrize(("system", "index"), REST_CASES)
def test_a_rest_or_time_advance_autosaves_at_once(window: MainWindow, system: str, index: int) -> None:
    """“and on each rest or time advance”: every rest the system offers (d20's full day of rest
    too) and the passing of time write the copy right away, without waiting for the minute."""
    action = _rests_and_time(system)[index]
    view = window.open_demo(system)
    assert view is not None
    view.vm.apply(rules.Damage(amount=1))
    assert copies(window.store) == []  # a blow waits for the timer
    assert view.vm.apply(action) is not None, view.vm.sheet
    (entry,) = window.store.entries()
    assert window.store.load(entry).sheets[0] == view.vm.sheet
    assert window.autosaver.timer.remainingTime() > 30_000  # not the timer's doing


def test_rests_and_time_are_the_moments_the_view_model_reports() -> None:
    from ui.sheet.viewmodel import SheetViewModel

    for system in rules.SYSTEMS:
        vm = SheetViewModel(rules.demo_sheet(system))
        for action in _rests_and_time(system):
            assert vm.passes_time(action), (system, action)
        assert not vm.passes_time(rules.Damage(amount=1))
        assert not vm.passes_time(rules.Heal(amount=1))
        assert not vm.passes_time(rules.SetCondition(condition=vm.info.conditions[0].id))


def test_the_time_button_of_the_sheet_autosaves(qtbot: Any, window: MainWindow) -> None:
    view = window.open_demo("douaratil")
    assert view is not None
    view.vm.apply(rules.Damage(amount=2))
    button = view.rests.findChild(QPushButton, "timeAdvance")
    assert button is not None
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    (entry,) = window.store.entries()
    assert window.store.load(entry).sheets[0] == view.vm.sheet
    assert "Le temps passe" in view.vm.journal[-1]


# --- when the copy goes ---------------------------------------------------------------------------------


def test_the_users_save_drops_the_copy(window: MainWindow, tmp_path: Path) -> None:
    (view,) = window.open_paths([write_sheet(tmp_path / "a.fiche.json")])
    view.vm.apply(rules.Damage(amount=3))
    window.autosaver.save_all()
    assert copies(window.store)
    assert window.save()
    assert copies(window.store) == []


def test_save_as_drops_the_copy_and_the_next_one_follows_the_new_file(
    window: MainWindow, answer: Any, tmp_path: Path
) -> None:
    view = window.open_demo("douaratil")
    assert view is not None
    view.vm.apply(rules.Damage(amount=3))
    window.autosaver.save_all()
    assert [e.source for e in window.store.entries()] == [None]
    target = tmp_path / "nouvelle.fiche.json"
    answer("save_path", target)
    assert window.save_as()
    assert copies(window.store) == []
    view.vm.apply(rules.Damage(amount=1))
    window.autosaver.save_all()
    assert [e.source for e in window.store.entries()] == [target.resolve()]


def test_a_failed_save_keeps_the_copy(window: MainWindow, answer: Any, tmp_path: Path) -> None:
    view = window.open_demo("douaratil")
    assert view is not None
    view.vm.apply(rules.Damage(amount=3))
    window.autosaver.save_all()
    (tmp_path / "fichier").write_text("", "utf-8")
    answer("save_path", tmp_path / "fichier" / "a.fiche.json")
    answer("show_error", None)
    assert not window.save()
    assert len(copies(window.store)) == 1


@pytest.mark.parametrize("choice", ["discard", "save"])
def test_a_clean_close_drops_the_copy(window: MainWindow, answer: Any, tmp_path: Path, choice: str) -> None:
    (view,) = window.open_paths([write_sheet(tmp_path / "a.fiche.json")])
    view.vm.apply(rules.Damage(amount=3))
    window.autosaver.save_all()
    answer("save_changes", choice)
    window.close_current()
    assert copies(window.store) == []


def test_a_cancelled_close_keeps_the_copy(window: MainWindow, answer: Any) -> None:
    view = window.open_demo("douaratil")
    assert view is not None
    view.vm.apply(rules.Damage(amount=3))
    window.autosaver.save_all()
    answer("save_changes", None)
    window.close_current()
    assert len(copies(window.store)) == 1


def test_quitting_releases_the_session_lock(window: MainWindow, answer: Any) -> None:
    view = window.open_demo("douaratil")
    assert view is not None
    view.vm.apply(rules.Damage(amount=3))
    window.autosaver.save_all()
    session = window.store.session
    assert AutosaveStore(window.store.folder).session_alive(session)
    answer("save_changes", "discard")
    assert window.close()
    assert not AutosaveStore(window.store.folder).session_alive(session)
    assert not (window.store.folder / f"{session}.lock").exists()
    assert copies(window.store) == [] and not window.autosaver.timer.isActive()


def test_a_store_given_by_the_app_is_closed_by_the_app_not_the_window(
    make_window: MakeWindow, answer: Any, tmp_path: Path
) -> None:
    store = AutosaveStore()
    win = make_window(store=store)
    view = win.open_demo("douaratil")
    assert view is not None
    view.vm.apply(rules.Damage(amount=3))
    win.autosaver.save_all()
    answer("save_changes", "discard")
    win.close()
    assert AutosaveStore().session_alive(store.session)
    store.close()
    assert not AutosaveStore().session_alive(store.session)


def test_an_autosave_that_cannot_be_written_is_shown_without_blocking(window: MainWindow) -> None:
    window.store.folder.parent.mkdir(parents=True)
    window.store.folder.write_text("un fichier à la place du dossier", "utf-8")
    view = window.open_demo("douaratil")
    assert view is not None
    view.vm.apply(rules.Damage(amount=3))
    assert window.autosaver.save_all() == 0  # an unpatched dialog would fail the test
    assert window.autosave_status.text() == "Sauvegarde automatique impossible"
    assert "sauvegarde automatique impossible" in window.autosave_status.toolTip()
    assert window.isWindowModified()


# --- recovery after a crash -------------------------------------------------------------------------------


def _played_then_crashed(make_window: MakeWindow, tmp_path: Path) -> tuple[list[tuple[Any, tuple[str, ...]]], Path]:
    """A window with a file-backed sheet and a never-saved one, both played and autosaved; then a crash."""
    win = make_window()
    path = write_sheet(tmp_path / "jdr" / "ulfred.fiche.json", journal=("Création.",))
    (played,) = win.open_paths([path])
    played.vm.apply(rules.Damage(amount="2d6"))
    played.vm.apply(rules.SetCondition(condition="empoisonne"))
    fresh = win.open_demo("segments")
    assert fresh is not None
    fresh.vm.apply(rules.Damage(amount=6, damage_type="tranchant"))  # 4 would be all armour: no change
    assert win.autosaver.save_all() == 2
    held = [(played.vm.sheet, played.vm.journal), (fresh.vm.sheet, fresh.vm.journal)]
    crash(win)
    return held, path


def test_after_a_crash_the_next_start_offers_recovery_and_restores_the_exact_sheets(
    qtbot: Any, make_window: MakeWindow, answer: Any, tmp_path: Path
) -> None:
    held, path = _played_then_crashed(make_window, tmp_path)
    again = make_window()
    offer = answer("ask_recovery", [True, True])
    start(again, [])
    assert len(offer.calls) == 1
    _parent, texts = offer.calls[0]
    assert len(texts) == 2
    by_kind = {("jamais enregistré" in t): t for t in texts}
    assert "« Ulfred »" in by_kind[False] and str(path.resolve()) in by_kind[False]
    assert "plus récente que le fichier" in by_kind[False] and "aujourd'hui à " in by_kind[False]
    assert by_kind[True].startswith(f"« {held[1][0].name} »")
    assert again.tabs.count() == 2 and not again.is_welcome_shown()
    recovered = sorted(
        (again.docs[again.tabs.widget(i)] for i in range(2)), key=lambda d: d.vm.sheet.system != "douaratil"
    )
    for doc, (sheet, journal) in zip(recovered, held, strict=True):
        assert doc.vm.sheet == sheet and doc.vm.sheet.model_dump() == sheet.model_dump()
        assert doc.vm.journal == journal
        assert doc.is_modified()
    assert recovered[0].path == path.resolve() and recovered[1].path is None
    for i in range(2):
        assert again.tabs.tabText(i).endswith(" *")
    again.tabs.setCurrentIndex(again.tabs.indexOf(again.view_of(recovered[0])))
    assert again.isWindowModified()
    # « Enregistrer » goes to the user's file, and the copy goes.
    assert again.save()
    on_disk, _ = files.read_document(path)
    assert on_disk.sheets[0] == held[0][0] and tuple(on_disk.journals[0]) == held[0][1]
    assert not again.isWindowModified()
    assert [e.source for e in again.store.entries()] == [None]


def test_a_recovered_sheet_asks_before_overwriting_a_file_changed_since(
    make_window: MakeWindow, answer: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    held, path = _played_then_crashed(make_window, tmp_path)
    again = make_window()
    recover_only(monkeypatch, "« Ulfred »")
    (view,) = again.recover_autosaves()
    other = rules.evolve(rules.demo_sheet("douaratil"), name="Modifié ailleurs")
    write_sheet(path, other)
    ask = answer("changed_on_disk", None)
    assert not again.save()
    assert ask.calls and files.read_document(path)[0].sheets[0] == other
    assert view.vm.sheet == held[0][0] and again.isWindowModified()


def test_declined_copies_are_deleted_and_later_keeps_them_for_the_next_start(
    make_window: MakeWindow, answer: Any, tmp_path: Path
) -> None:
    _played_then_crashed(make_window, tmp_path)
    second = make_window()
    answer("ask_recovery", None)  # « Plus tard »
    assert second.recover_autosaves() == []
    assert len(copies(second.store)) == 2
    third = make_window()
    offer = answer("ask_recovery", [False, True])
    views = third.recover_autosaves()
    assert len(offer.calls[0][1]) == 2 and len(views) == 1
    assert len(copies(third.store)) == 1  # the recovered one, until saved or closed


def test_no_recovery_is_offered_for_a_session_still_running(make_window: MakeWindow) -> None:
    first = make_window()
    view = first.open_demo("douaratil")
    assert view is not None
    view.vm.apply(rules.Damage(amount=3))
    first.autosaver.save_all()
    second = make_window()
    assert second.recover_autosaves() == []  # an unpatched recovery dialog would fail the test
    assert len(copies(second.store)) == 1


def test_a_copy_older_than_its_file_is_not_offered(make_window: MakeWindow, answer: Any, tmp_path: Path) -> None:
    """“offers to recover the newer autosave”: a file saved after the copy supersedes it."""
    _held, path = _played_then_crashed(make_window, tmp_path)
    stamp = path.stat()
    os.utime(path, ns=(stamp.st_atime_ns, stamp.st_mtime_ns + 3600 * 10**9))
    again = make_window()
    offer = answer("ask_recovery", [False])
    assert again.recover_autosaves() == []
    (texts,) = [call[1] for call in offer.calls]
    assert len(texts) == 1 and "jamais enregistré" in texts[0]  # only the never-saved sheet
    assert copies(again.store) == []  # the superseded copy was cleaned, the declined one deleted


def test_the_file_reopened_from_the_last_session_is_the_recovered_tab(
    make_window: MakeWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    held, path = _played_then_crashed(make_window, tmp_path)
    again = make_window()
    again.settings.set_last_session([path])
    recover_only(monkeypatch, "« Ulfred »")
    start(again, [])
    assert again.tabs.count() == 1
    assert again.current_doc() is not None and again.current_doc().vm.sheet == held[0][0]


def test_a_damaged_copy_is_reported_and_kept(make_window: MakeWindow, answer: Any, tmp_path: Path) -> None:
    store = AutosaveStore()
    store.folder.mkdir(parents=True)
    good = write_sheet(tmp_path / "x.fiche.json")
    document = json.loads(good.read_text("utf-8"))
    document["sheet"]["level"] = 10**9
    damaged = store.folder / f"abimee{autosave.AUTOSAVE_SUFFIX}"
    meta = {"format": 1, "kind": "autosave", "saved_at_ns": time.time_ns(), "source": None, "title": "Abîmée"}
    damaged.write_text(json.dumps({**meta, "session": "dead", "document": document}), "utf-8")
    win = make_window()
    error = answer("show_error", None)
    assert win.recover_autosaves() == []  # nothing to offer: no recovery dialog
    assert error.calls[0][1] == "Récupération impossible"
    assert str(win.store.folder) in error.calls[0][2] and "« niveau »" in error.calls[0][2]
    assert damaged.exists()


def test_recovery_after_a_real_process_is_killed(
    qtbot: Any, make_window: MakeWindow, answer: Any, tmp_path: Path
) -> None:
    """The real thing: an app process plays a sheet, autosaves, and is killed with SIGKILL."""
    path = write_sheet(tmp_path / "jdr" / "ulfred.fiche.json", journal=("Création.",))
    expected = tmp_path / "attendu.fiche.json"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.app.crashing_app", str(path), str(expected)],
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
    assert "« Ulfred »" in text and "plus récente que le fichier" in text
    doc = again.current_doc()
    assert doc is not None and doc.path == path.resolve() and doc.is_modified()
    assert doc.vm.sheet == want.sheets[0] and list(doc.vm.journal) == want.journals[0]
    assert files.read_document(path)[0].sheets[0] == rules.demo_sheet("douaratil")  # never written


def test_the_app_makes_one_store_for_its_window_and_closes_it_on_quitting(
    monkeypatch: pytest.MonkeyPatch, qtbot: Any
) -> None:
    from PySide6.QtWidgets import QApplication

    from sheet_app import app

    made: list[AutosaveStore] = []
    seen: dict[str, Any] = {}

    class Store(AutosaveStore):
        def __init__(self) -> None:
            super().__init__()
            made.append(self)

    def exec_(_app: Any = None) -> int:
        (win,) = [w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow) and w.isVisible()]
        view = win.open_demo("douaratil")
        view.vm.apply(rules.LongRest())  # autosaved at once: the session lock is taken
        seen.update(store=win.store, alive=AutosaveStore().session_alive(win.store.session))
        monkeypatch.setattr(prompts, "save_changes", lambda *args: "discard")
        win.close()
        win.deleteLater()
        return 0

    monkeypatch.setattr(autosave, "AutosaveStore", Store)
    monkeypatch.setattr(QApplication, "exec", exec_)
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)  # the app sets its own: put pytest's back
    assert app.run([]) == 0
    assert len(made) == 1 and seen["store"] is made[0] and seen["alive"]
    assert not AutosaveStore().session_alive(made[0].session)
