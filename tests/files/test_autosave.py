"""Autosave store: in the user data folder, never over the user's file, recovery after a crash.

Issue 7 « Saving »: « Autosave every minute (and on each rest or time advance) to the user data
folder (platformdirs), never over the user's own file; after a crash, the next start offers to
recover the newer autosave, showing its time. » (The timer and the dialog are the window's; this is
the store they use.)
"""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest

import rules
from sheet_app import autosave, files
from sheet_app.autosave import AutosaveStore

ROOT = Path(__file__).resolve().parents[2]


def _doc(name: str) -> files.Document:
    return files.Document("sheet", [rules.evolve(rules.demo_sheet("douaratil"), name=name)], [[f"{name} arrive."]])


@pytest.fixture
def store(tmp_path: Path) -> AutosaveStore:
    return AutosaveStore(tmp_path / "data" / "autosave")


@pytest.fixture
def user_file(tmp_path: Path) -> Path:
    path = tmp_path / "jdr" / "ulfred.fiche.json"
    path.parent.mkdir()
    files.write_document(path, _doc("Ulfred"))
    return path


def _ended_session(folder: Path, key: str, source: Path | None, name: str) -> None:
    """Another app process autosaves, then dies without closing (os._exit: no cleanup at all)."""
    code = (
        "import os, sys, rules\n"
        "from pathlib import Path\n"
        "from sheet_app import files\n"
        "from sheet_app.autosave import AutosaveStore\n"
        f"doc = files.Document('sheet', [rules.evolve(rules.demo_sheet('douaratil'), name={name!r})], [['x']])\n"
        f"AutosaveStore(Path({str(folder)!r})).save({key!r}, doc, {str(source) if source else None!r})\n"
        "os._exit(0)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def test_the_default_folder_is_in_the_user_data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    if sys.platform.startswith("linux"):
        assert autosave.default_folder() == tmp_path / "xdg" / "sheet_app" / "autosave"
    assert AutosaveStore().folder == autosave.default_folder()


def test_an_autosave_never_touches_the_users_file(store: AutosaveStore, user_file: Path) -> None:
    before = (user_file.read_bytes(), user_file.stat().st_mtime_ns)
    entry = store.save(store.key_for(user_file), _doc("Ulfred modifié"), user_file)
    assert (user_file.read_bytes(), user_file.stat().st_mtime_ns) == before
    assert entry.path.parent == store.folder and entry.path != user_file
    assert store.load(entry).sheets[0].name == "Ulfred modifié"
    assert sorted(p.suffix for p in user_file.parent.iterdir()) == [".json"]


def test_it_refuses_to_write_over_the_users_file(tmp_path: Path) -> None:
    """Even when the user keeps a file inside the autosave folder under an autosave's very name."""
    folder = tmp_path / "autosave"
    folder.mkdir()
    victim = folder / f"ulfred{autosave.AUTOSAVE_SUFFIX}"
    victim.write_text("mes notes", encoding="utf-8")
    with pytest.raises(files.FileProblem, match="refus d'écrire la sauvegarde automatique"):
        AutosaveStore(folder).save("ulfred", _doc("x"), victim)
    assert victim.read_text(encoding="utf-8") == "mes notes"


def test_keys(user_file: Path, tmp_path: Path) -> None:
    store = AutosaveStore(tmp_path)
    key = store.key_for(user_file)
    assert key == store.key_for(str(user_file)) and key.startswith("ulfred-")
    assert key != store.key_for(tmp_path / "autre" / "ulfred.fiche.json")
    assert store.key_for(None) != store.key_for(None)
    assert store.key_for(tmp_path / "Élé onore?.fiche.json").startswith("l-onore-")
    # Issue 16 item 7: « Two instances on the same file share one autosave key … Autosave copies are
    # per running instance (and recovery still finds them all). »
    assert AutosaveStore(tmp_path).key_for(user_file) != key
    with pytest.raises(ValueError):
        AutosaveStore(tmp_path).path_for("../evil")


def test_entries_newest_first_and_latest_per_key(store: AutosaveStore, monkeypatch: pytest.MonkeyPatch) -> None:
    clock = iter(range(1_000_000_000_000_000_000, 2_000_000_000_000_000_000, 10**9))
    monkeypatch.setattr(autosave.time, "time_ns", lambda: next(clock))
    store.save("a", _doc("A1"), None)
    store.save("b", _doc("B1"), None)
    store.save("a", _doc("A2"), None)
    entries = store.entries()
    assert [(e.key, e.title) for e in entries] == [("a", "A2"), ("b", "B1")]
    latest = store.latest("a")
    assert latest is not None and latest.title == "A2" and store.latest("zz") is None


def test_newer_than_the_users_file(store: AutosaveStore, user_file: Path) -> None:
    entry = store.save(store.key_for(user_file), _doc("Ulfred"), user_file)
    assert entry.newer_than_source()
    os.utime(user_file, ns=(entry.saved_at_ns + 10**9, entry.saved_at_ns + 10**9))  # the user saved after
    assert not entry.newer_than_source()
    user_file.unlink()
    assert entry.newer_than_source()
    assert store.save("nouveau-1", _doc("Sans fichier"), None).newer_than_source()


def test_after_a_crash_the_newer_autosave_is_offered_with_its_time(store: AutosaveStore, user_file: Path) -> None:
    key = store.key_for(user_file)
    _ended_session(store.folder, key, user_file, "Ulfred blessé")
    _ended_session(store.folder, "nouveau-abc", None, "Gobelin")
    offered = store.recoverable()
    assert sorted(e.title for e in offered) == ["Gobelin", "Ulfred blessé"]
    entry = next(e for e in offered if e.key == key)
    assert entry.source == user_file
    assert store.load(entry).sheets[0].name == "Ulfred blessé"
    now = datetime.now().astimezone()
    text = entry.describe(now)
    assert text.startswith("« Ulfred blessé » (") and "plus récente que le fichier" in text
    assert f"aujourd'hui à {entry.saved_at.strftime('%H:%M')}" in text
    gobelin = next(e for e in offered if e.key == "nouveau-abc")
    assert "jamais enregistré" in gobelin.describe(now)


def test_autosaves_of_a_running_app_are_not_offered(store: AutosaveStore, tmp_path: Path) -> None:
    store.save("a", _doc("A"), None)
    assert store.recoverable() == []  # our own session
    other = AutosaveStore(store.folder)  # another app still running (it holds its lock)
    assert other.recoverable() == []
    store.close()  # closed cleanly, but forgot to discard: now it is an ended session's autosave
    assert [e.title for e in other.recoverable()] == ["A"]


def test_an_autosave_older_than_the_users_file_is_not_offered(store: AutosaveStore, user_file: Path) -> None:
    key = store.key_for(user_file)
    _ended_session(store.folder, key, user_file, "Ancien")
    entry = store.latest(key)
    assert entry is not None
    # The user saved after the app was last seen alive (its lock's heartbeat may be later than the copy).
    later = max(entry.saved_at_ns, entry.last_seen_ns) + 1
    os.utime(user_file, ns=(later, later))
    assert store.recoverable() == []


def test_when_text() -> None:
    entry = autosave.AutosaveEntry("k", Path("x"), None, 0, "T", "s", 1)
    at = entry.saved_at
    assert entry.when_text(at) == f"aujourd'hui à {at:%H:%M}"
    assert entry.when_text(at.replace(year=at.year + 1)) == f"le {at:%d/%m/%Y} à {at:%H:%M}"


def test_discard_and_clean(store: AutosaveStore, user_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store.save("mine", _doc("Le mien"), None)
    store.discard("mine")
    store.discard("mine")  # twice is fine
    assert store.latest("mine") is None
    key = store.key_for(user_file)
    _ended_session(store.folder, key, user_file, "Dépassé")  # then the user saves his file: superseded
    entry = store.latest(key)
    assert entry is not None
    later = max(entry.saved_at_ns, entry.last_seen_ns) + 1
    os.utime(user_file, ns=(later, later))
    _ended_session(store.folder, "nouveau-vieux", None, "Vieux")
    _ended_session(store.folder, "nouveau-frais", None, "Frais")
    damaged = store.folder / f"casse{autosave.AUTOSAVE_SUFFIX}"
    damaged.write_text("{", encoding="utf-8")
    stale_tmp = store.folder / ".x.autosave.json.1234.tmp"
    stale_tmp.write_text("", encoding="utf-8")
    for path in (damaged, stale_tmp):
        os.utime(path, (0, 0))
    store.save("vivant", _doc("Vivant"), None)  # our own, running: never cleaned
    real_time_ns = autosave.time.time_ns
    monkeypatch.setattr(autosave.time, "time", lambda: real_time_ns() / 1e9 + 40 * 86400)  # 40 days later
    removed = store.clean()
    names = sorted(p.name for p in store.folder.iterdir())
    assert f"vivant{autosave.AUTOSAVE_SUFFIX}" in names
    assert not any(n.startswith((key, "nouveau-vieux", "nouveau-frais", "casse", ".x")) for n in names)
    assert f"{store.session}.lock" in names and sum(n.endswith(".lock") for n in names) == 1
    assert removed >= 5


def test_clean_keeps_recent_useful_autosaves(store: AutosaveStore) -> None:
    _ended_session(store.folder, "nouveau-frais", None, "Frais")
    locks = sorted(store.folder.glob("*.lock"))
    assert store.clean() == 0  # the copy, and its session's lock: its time says until when the app ran
    assert sorted(store.folder.glob("*.lock")) == locks
    assert [e.title for e in store.recoverable()] == ["Frais"]


def test_a_copy_whose_app_outlived_a_change_of_its_file_is_still_offered(store: AutosaveStore, user_file: Path) -> None:
    """Issue 16 item 7: “A's save deletes the shared copy, kill -9 B → B's unsaved work is not
    offered.” B's copy is older than the file A saved, but B ran on after: its work is not in it."""
    b = AutosaveStore(store.folder)
    entry = b.save(b.key_for(user_file), _doc("Travail de B"), user_file)
    later = entry.saved_at_ns + 10**9
    os.utime(user_file, ns=(later, later))  # A saves the file one second later
    lock = b.folder / f"{b.session}.lock"
    os.utime(lock, ns=(later + 10**9, later + 10**9))  # B's heartbeat after that
    os.close(b._lock_fd)  # B is killed (the kernel drops its lock)
    b._lock_fd = None
    (offered,) = store.recoverable()
    assert offered.title == "Travail de B" and not offered.newer_than_source()
    assert "plus ancienne que le fichier" in offered.describe()
    os.utime(lock, ns=(later - 1, later - 1))  # had B died before A's save, the file would supersede it
    assert store.recoverable() == []


def test_a_damaged_autosave_is_skipped_and_explained(store: AutosaveStore) -> None:
    store.save("a", _doc("A"), None)
    path = store.path_for("a")
    path.write_bytes(path.read_bytes()[:-40])
    assert store.entries() == [] and store.latest("a") is None
    entry = autosave.AutosaveEntry("a", path, None, 0, "A", "s", 1)
    with pytest.raises(files.FileProblem, match="JSON invalide"):
        store.load(entry)


def test_a_bad_document_inside_an_autosave_names_its_line(store: AutosaveStore) -> None:
    store.save("a", _doc("A"), None)
    path = store.path_for("a")
    text = path.read_text(encoding="utf-8").replace('"level": 3', '"level": 0', 1)
    path.write_text(text, encoding="utf-8")
    entry = store.entries()[0]
    line = next(i + 1 for i, t in enumerate(text.splitlines()) if '"level"' in t)
    with pytest.raises(files.FileProblem, match=f"ligne {line} : « niveau » : doit être supérieur ou égal à 1"):
        store.load(entry)


def test_a_failing_autosave_is_a_clean_problem(store: AutosaveStore, tmp_path: Path) -> None:
    blocked = tmp_path / "fichier"
    blocked.write_text("", encoding="utf-8")
    with pytest.raises(files.FileProblem, match="sauvegarde automatique impossible"):
        AutosaveStore(blocked / "autosave").save("a", _doc("A"), None)
