"""Saving: atomic, refuses to overwrite a file changed on disk, clean failures, old file intact.

Issue 7 « Saving »: « Atomic: … a temp file in the same folder + fsync + os.replace. … Refuse to
overwrite a file changed on disk since it was opened » and « Bad input »: « a read-only destination,
a full disk … the sheets already open stay untouched ».
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import Any

import pytest

import rules
from sheet_app import files


def _doc(name: str = "Ulfred", journal: tuple[str, ...] = ()) -> files.Document:
    return files.Document("sheet", [rules.evolve(rules.demo_sheet("douaratil"), name=name)], [list(journal)])


@pytest.fixture
def saved(tmp_path: Path) -> tuple[Path, files.FileStamp, bytes]:
    path = tmp_path / "ulfred.fiche.json"
    stamp = files.write_document(path, _doc("Ancien"))
    return path, stamp, path.read_bytes()


def _only(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_a_save_replaces_the_file_and_leaves_nothing_else(saved: tuple[Path, files.FileStamp, bytes]) -> None:
    path, stamp, _ = saved
    new_stamp = files.write_document(path, _doc("Nouveau"), expected=stamp)
    doc, read_stamp = files.read_document(path)
    assert doc.sheets[0].name == "Nouveau"
    assert read_stamp == new_stamp
    assert _only(path.parent) == [path.name]


def test_the_write_is_synced_and_renamed_in_the_same_folder(
    saved: tuple[Path, files.FileStamp, bytes], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Temp file in the same folder, fsync of the data, os.replace, then fsync of the folder."""
    path, stamp, _ = saved
    events: list[tuple[str, Any]] = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd: int) -> None:
        events.append(("fsync", "folder" if stat.S_ISDIR(os.fstat(fd).st_mode) else "file"))
        real_fsync(fd)

    def replace(src: Any, dst: Any) -> None:
        events.append(("replace", (Path(src).parent, Path(dst))))
        real_replace(src, dst)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    files.write_document(path, _doc("Nouveau"), expected=stamp)
    assert events == [("fsync", "file"), ("replace", (path.parent, path)), ("fsync", "folder")]


def test_a_file_changed_on_disk_is_not_overwritten(saved: tuple[Path, files.FileStamp, bytes]) -> None:
    path, stamp, _ = saved
    files.write_document(path, _doc("Changé par un autre"))  # someone else saves meanwhile
    theirs = path.read_bytes()
    with pytest.raises(files.ChangedOnDisk) as caught:
        files.write_document(path, _doc("Le mien"), expected=stamp)
    assert "modifié ailleurs depuis son ouverture" in caught.value.message
    assert isinstance(caught.value, files.FileProblem)
    assert path.read_bytes() == theirs
    # The window's « Écraser » choice: save without the stamp.
    files.write_document(path, _doc("Le mien"), expected=None)
    assert files.read_document(path)[0].sheets[0].name == "Le mien"


def test_a_file_changed_to_the_same_size_is_noticed(saved: tuple[Path, files.FileStamp, bytes]) -> None:
    path, stamp, old = saved
    changed = old.replace(b'"Ancien"', b'"Andr\xc3\xa9"')  # same length in bytes
    assert len(changed) == len(old)
    path.write_bytes(changed)
    os.utime(path, ns=(stamp.mtime_ns, stamp.mtime_ns + 1))
    with pytest.raises(files.ChangedOnDisk):
        files.write_document(path, _doc(), expected=stamp)


def test_a_file_only_touched_is_not_a_change(saved: tuple[Path, files.FileStamp, bytes]) -> None:
    """Same bytes, new time (a backup tool, a sync client): saving goes on."""
    path, stamp, old = saved
    os.utime(path, ns=(stamp.mtime_ns + 10**9, stamp.mtime_ns + 10**9))
    assert files.stamp_of(path) != stamp and not files.changed_since(path, stamp)
    files.write_document(path, _doc("Nouveau"), expected=stamp)
    assert path.read_bytes() != old


def test_a_file_deleted_since_opened_is_written_again(saved: tuple[Path, files.FileStamp, bytes]) -> None:
    path, stamp, _ = saved
    path.unlink()
    files.write_document(path, _doc("Revenu"), expected=stamp)
    assert files.read_document(path)[0].sheets[0].name == "Revenu"


def _assert_intact(path: Path, old: bytes) -> None:
    assert path.read_bytes() == old
    assert _only(path.parent) == [path.name], "a temp file was left behind"


def test_a_full_disk_leaves_the_old_file(
    saved: tuple[Path, files.FileStamp, bytes], monkeypatch: pytest.MonkeyPatch
) -> None:
    path, stamp, old = saved
    real_write = os.write
    calls: list[int] = []

    def write(fd: int, data: Any) -> int:
        calls.append(len(data))
        if len(calls) == 1:
            return real_write(fd, bytes(data[: len(data) // 2]))  # half goes in, then the disk is full
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "write", write)
    with pytest.raises(files.FileProblem) as caught:
        files.write_document(path, _doc("Nouveau"), expected=stamp)
    assert caught.value.message == f"{path} : écriture impossible : le disque est plein ; l'ancien fichier est intact."
    assert len(calls) == 2
    monkeypatch.undo()
    _assert_intact(path, old)


@pytest.mark.parametrize(
    ("code", "reason"),
    [
        (errno.EACCES, "accès refusé"),
        (errno.EROFS, "le support est en lecture seule"),
        (errno.EDQUOT, "quota disque dépassé"),
    ],
)
def test_a_read_only_destination_leaves_the_old_file(
    saved: tuple[Path, files.FileStamp, bytes], monkeypatch: pytest.MonkeyPatch, code: int, reason: str
) -> None:
    path, stamp, old = saved
    real_open = os.open

    def refusing(target: Any, flags: int, *args: Any) -> int:
        if flags & os.O_CREAT:
            raise OSError(code, os.strerror(code), str(target))
        return real_open(target, flags, *args)

    monkeypatch.setattr(os, "open", refusing)
    with pytest.raises(files.FileProblem, match=f"écriture impossible : {reason} ; l'ancien fichier est intact"):
        files.write_document(path, _doc("Nouveau"), expected=stamp)
    monkeypatch.undo()
    _assert_intact(path, old)


@pytest.mark.parametrize("failing", ["fsync", "replace", "fchmod"])
def test_a_failure_at_any_step_leaves_the_old_file(
    saved: tuple[Path, files.FileStamp, bytes], monkeypatch: pytest.MonkeyPatch, failing: str
) -> None:
    path, stamp, old = saved

    def fail(*args: Any) -> None:
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    monkeypatch.setattr(os, failing, fail)
    with pytest.raises(files.FileProblem, match="erreur d'entrée-sortie du disque ; l'ancien fichier est intact"):
        files.write_document(path, _doc("Nouveau"), expected=stamp)
    monkeypatch.undo()
    _assert_intact(path, old)


def test_a_folder_the_os_refuses(tmp_path: Path) -> None:
    """A real refusal, no patch: a folder that cannot hold files (/proc) or does not exist."""
    for target in (Path("/proc/sheet_app_test.fiche.json"), tmp_path / "absent" / "x.fiche.json"):
        with pytest.raises(files.FileProblem, match="écriture impossible"):
            files.write_document(target, _doc())
        assert not target.exists()


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes everywhere")
def test_a_read_only_folder_for_real(saved: tuple[Path, files.FileStamp, bytes]) -> None:
    path, stamp, old = saved
    path.parent.chmod(0o500)
    try:
        with pytest.raises(files.FileProblem, match="accès refusé"):
            files.write_document(path, _doc("Nouveau"), expected=stamp)
    finally:
        path.parent.chmod(0o700)
    _assert_intact(path, old)


def test_a_directory_as_destination(tmp_path: Path) -> None:
    with pytest.raises(files.FileProblem, match="c'est un dossier"):
        files.write_document(tmp_path, _doc())


def test_permissions_of_the_old_file_are_kept(saved: tuple[Path, files.FileStamp, bytes]) -> None:
    path, _, _ = saved
    path.chmod(0o640)
    files.write_document(path, _doc("Nouveau"), expected=files.stamp_of(path))
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


def test_a_new_file_follows_the_umask(tmp_path: Path) -> None:
    old_mask = os.umask(0o027)
    try:
        files.write_document(tmp_path / "n.fiche.json", _doc())
    finally:
        os.umask(old_mask)
    assert stat.S_IMODE((tmp_path / "n.fiche.json").stat().st_mode) == 0o640


def test_a_symbolic_link_stays_a_link(tmp_path: Path) -> None:
    real = tmp_path / "vrai" / "ulfred.fiche.json"
    real.parent.mkdir()
    files.write_document(real, _doc("Ancien"))
    link = tmp_path / "lien.fiche.json"
    link.symlink_to(real)
    files.write_document(link, _doc("Nouveau"), expected=files.read_document(link)[1])
    assert link.is_symlink()
    assert files.read_document(real)[0].sheets[0].name == "Nouveau"


def test_a_document_beyond_the_limits_is_not_written(saved: tuple[Path, files.FileStamp, bytes]) -> None:
    """The app never writes a file it would refuse to open."""
    path, stamp, old = saved
    too_long = _doc(journal=("x" * (files.MAX_JOURNAL_LINE + 1),))
    with pytest.raises(files.FileProblem, match="une ligne dépasse"):
        files.write_document(path, too_long, expected=stamp)
    table = files.Document("table", [rules.demo_sheet("douaratil")], [], "T" * (files.MAX_TITLE + 1))
    with pytest.raises(files.FileProblem, match="titre trop long"):
        files.write_document(path, table, expected=stamp)
    _assert_intact(path, old)


def test_a_malformed_document_is_a_programming_error(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="exactly one sheet"):
        files.encode_document(files.Document("sheet", []))
    with pytest.raises(ValueError, match="unknown document kind"):
        files.encode_document(files.Document("campagne", []))
    with pytest.raises(ValueError, match="not a sheet"):
        files.encode_document(files.Document("table", [{"name": "x"}]))


def test_describe(tmp_path: Path) -> None:
    assert files.describe(_doc("Ulfred")) == "fiche Douaratil « Ulfred »"
    table = files.Document("table", [rules.demo_sheet("douaratil")] * 2, [], "Séance")
    assert files.describe(table) == "table « Séance » : 2 fiches (Douaratil)"


def test_a_document_bigger_than_a_file_may_be_is_not_written(
    saved: tuple[Path, files.FileStamp, bytes], monkeypatch: pytest.MonkeyPatch
) -> None:
    path, stamp, old = saved
    monkeypatch.setattr(files, "MAX_FILE_BYTES", len(old) + 100)
    with pytest.raises(files.FileProblem, match="document trop gros pour un fichier"):
        files.write_document(path, _doc(journal=("x" * 500,)), expected=stamp)
    _assert_intact(path, old)


def test_text_that_cannot_be_utf8_is_not_written(saved: tuple[Path, files.FileStamp, bytes]) -> None:
    path, stamp, old = saved
    with pytest.raises(files.FileProblem, match="texte impossible à enregistrer"):
        files.write_document(path, _doc(journal=("demi \ud800 caractère",)), expected=stamp)
    _assert_intact(path, old)


def test_journal_lines_must_be_text() -> None:
    with pytest.raises(ValueError, match="journal lines must be str"):
        files.encode_document(files.Document("sheet", [rules.demo_sheet("douaratil")], [["ok", 3]]))  # type: ignore[list-item]


def _broken_sheet() -> Any:
    """A sheet the rules could produce by mistake: handlers use ``evolve`` (no re-validation)."""
    sheet = rules.demo_sheet("douaratil")
    return rules.evolve(sheet, current=sheet.base_maximum + 5, level=0)


def test_a_sheet_that_would_not_reopen_is_not_written(saved: tuple[Path, files.FileStamp, bytes]) -> None:
    """The file must open again: a sheet its own model refuses is caught before the old file goes."""
    path, stamp, old = saved
    doc = files.Document("table", [rules.demo_sheet("douaratil"), _broken_sheet()], [], "T")
    with pytest.raises(files.FileProblem) as caught:
        files.write_document(path, doc, expected=stamp)
    message = caught.value.message
    assert "fiche n° 2 « Ulfred » ne se rouvrirait pas : « niveau » : doit être supérieur ou égal à 1" in message
    assert "rien n'a été écrit (l'ancien fichier est intact)" in message
    _assert_intact(path, old)


def test_a_sheet_the_rules_made_is_checked_on_saving(
    saved: tuple[Path, files.FileStamp, bytes], monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the check on saving is for: a slip of a handler (they build sheets without validation).
    A sheet ``rules.apply`` returned is not taken as good, even from a sheet read from a file (known good):
    the file is not replaced."""
    path, stamp, old = saved
    handlers = rules.system("douaratil").handlers
    real = handlers[rules.Damage]

    def slipping(sheet: Any, action: Any, ctx: Any) -> Any:
        return rules.evolve(real(sheet, action, ctx), level=0)

    monkeypatch.setitem(handlers, rules.Damage, slipping)  # type: ignore[index]
    opened, _ = files.read_document(path)
    hit = rules.apply(opened.sheets[0], rules.Damage(amount=2)).sheet
    assert hit.current == opened.sheets[0].current - 2
    with pytest.raises(files.FileProblem) as caught:
        files.write_document(path, files.Document("sheet", [hit], [[]]), expected=stamp)
    message = caught.value.message
    assert "la fiche « Ancien » ne se rouvrirait pas : « niveau » : doit être supérieur ou égal à 1" in message
    _assert_intact(path, old)
    # The same sheet made right is written (the refusal was the slip, not the sheet's history).
    monkeypatch.setitem(handlers, rules.Damage, real)  # type: ignore[index]
    files.write_document(path, files.Document("sheet", [rules.apply(opened.sheets[0], rules.Damage(amount=2)).sheet]))


def test_checked_sheets_are_not_checked_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """Immutable sheets are checked once: a table saved every minute re-checks only what changed."""
    sheets = [rules.evolve(rules.demo_sheet("douaratil"), name=f"PNJ {i}") for i in range(5)]
    doc = files.Document("table", sheets, [], "T")
    checked: list[str] = []
    real = rules.check_sheet

    def counting(sheet: Any, table: Any = None) -> Any:  # the last step of a sheet's check on saving
        checked.append(sheet.name)
        return real(sheet, table)

    monkeypatch.setattr(rules, "check_sheet", counting)
    files.encode_document(doc)
    assert len(checked) == 5
    doc.sheets[2] = rules.evolve(sheets[2], name="Changé")
    files.encode_document(doc)
    assert len(checked) == 6
    back = files.decode_document(files.encode_document(doc))
    checked.clear()
    files.encode_document(back)  # sheets read from a file were validated on reading
    assert checked == []


def test_an_autosave_keeps_even_an_inconsistent_sheet(tmp_path: Path) -> None:
    from sheet_app.autosave import AutosaveStore

    store = AutosaveStore(tmp_path / "autosave")
    entry = store.save("k", files.Document("sheet", [_broken_sheet()]), None)
    assert entry.path.exists()
    with pytest.raises(files.FileProblem, match="« niveau » : doit être supérieur ou égal à 1"):
        store.load(entry)


# --- issue 16: other programs, permissions, leftovers -------------------------------------------------


def test_a_change_with_the_same_size_and_the_old_time_put_back_is_noticed(
    saved: tuple[Path, files.FileStamp, bytes],
) -> None:
    """Issue 16 item 8: “A change on disk with the same size and the old modification time put back
    (what `cp -p`, `rsync -t`, `tar` do) is silently overwritten. Detect changes by content”."""
    path, stamp, old = saved
    changed = old.replace(b'"Ancien"', b'"Autre!"')
    assert len(changed) == len(old)
    path.write_bytes(changed)
    os.utime(path, ns=(stamp.mtime_ns, stamp.mtime_ns))
    assert files.stamp_of(path) == stamp, "time and size alone cannot tell"
    with pytest.raises(files.ChangedOnDisk):
        files.write_document(path, _doc("Le mien"), expected=stamp)
    assert path.read_bytes() == changed


def test_a_change_made_while_the_new_file_is_written_is_noticed_right_before_the_replace(
    saved: tuple[Path, files.FileStamp, bytes], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 16 item 9: “Race between the check and the replace … Narrow the window to the minimum the
    OS allows (check the content right before `os.replace`, with a lock file of our own for instances
    of the app)”. Another program writes the file while ours is being synced to disk (the slow part)."""
    path, stamp, _ = saved
    theirs = files.encode_document(_doc("Écrit pendant la sauvegarde"))
    real_fsync = os.fsync

    def fsync_then_another_program_writes(fd: int) -> None:
        real_fsync(fd)
        if not path.read_bytes() == theirs and not stat.S_ISDIR(os.fstat(fd).st_mode):
            path.write_bytes(theirs)

    monkeypatch.setattr(os, "fsync", fsync_then_another_program_writes)
    with pytest.raises(files.ChangedOnDisk):
        files.write_document(path, _doc("Le mien"), expected=stamp)
    assert path.read_bytes() == theirs
    assert _only(path.parent) == [path.name], "the temp file is removed"


def test_two_apps_saving_one_file_take_turns_and_the_second_sees_the_first(
    saved: tuple[Path, files.FileStamp, bytes],
) -> None:
    """The lock of item 9: while one app checks and replaces, another waits, then sees the change."""
    import threading

    path, stamp, _ = saved
    outcome: list[str] = []
    holding = threading.Event()
    release = threading.Event()

    def other_app() -> None:
        with files._folder_lock(path.parent):  # the other app is between its check and its replace
            holding.set()
            release.wait(10)
            path.write_bytes(files.encode_document(_doc("Autre application")))  # its replace

    def ours() -> None:
        try:
            files.write_document(path, _doc("Le mien"), expected=stamp)
            outcome.append("written")
        except files.ChangedOnDisk:
            outcome.append("changed")

    other = threading.Thread(target=other_app)
    other.start()
    assert holding.wait(10)
    mine = threading.Thread(target=ours)
    mine.start()
    mine.join(0.3)
    assert mine.is_alive(), "our replace waits for the other app's lock"
    release.set()
    other.join(10)
    mine.join(10)
    assert outcome == ["changed"]
    assert files.read_document(path)[0].sheets[0].name == "Autre application"


def test_a_read_only_file_is_not_replaced(saved: tuple[Path, files.FileStamp, bytes]) -> None:
    """Issue 16 item 10: “A read-only file (mode 0444) is replaced by Ctrl+S with no warning.”"""
    path, stamp, old = saved
    path.chmod(0o444)
    with pytest.raises(files.ReadOnly) as caught:
        files.write_document(path, _doc("Le mien"), expected=stamp)
    assert "le fichier est en lecture seule : rien n'a été écrit" in caught.value.message
    assert isinstance(caught.value, files.FileProblem)
    with pytest.raises(files.ReadOnly):
        files.write_document(path, _doc("Le mien"), expected=None)  # « Écraser » does not override it either
    assert path.read_bytes() == old and _only(path.parent) == [path.name]
    path.chmod(0o644)
    files.write_document(path, _doc("Le mien"), expected=stamp)


def test_a_link_to_a_read_only_file_is_read_only(saved: tuple[Path, files.FileStamp, bytes]) -> None:
    path, _, old = saved
    link = path.with_name("lien.fiche.json")
    link.symlink_to(path)
    path.chmod(0o400)
    with pytest.raises(files.ReadOnly):
        files.write_document(link, _doc("Le mien"))
    assert path.read_bytes() == old


def test_stale_temp_files_of_crashed_saves_are_removed_by_the_next_save(
    saved: tuple[Path, files.FileStamp, bytes],
) -> None:
    """Issue 16 item 11: “each kill during a save leaves a hidden `.…tmp` (the size of the sheet) next
    to the user's file, forever. The app removes its own stale temp files (recognisable by name and
    age) on the next save in that folder.”"""
    path, stamp, old = saved
    folder = path.parent
    old_time = 10**18  # 2001
    stale = [folder / f".{path.name}.0a1b2c3d.tmp", folder / ".autre.fiche.json.deadbeef.tmp"]
    fresh = folder / f".{path.name}.12345678.tmp"  # another window's save in progress
    foreign = [folder / ".notes.tmp", folder / f".{path.name}.xyz.tmp", folder / "brouillon.0a1b2c3d.tmp"]
    for leftover in [*stale, fresh, *foreign]:
        leftover.write_bytes(old)
    for leftover in [*stale, *foreign]:
        os.utime(leftover, ns=(old_time, old_time))
    files.write_document(path, _doc("Nouveau"), expected=stamp)
    assert _only(folder) == sorted([path.name, fresh.name, *(p.name for p in foreign)])


def test_checked_ahead_sheets_are_not_checked_again_on_saving(monkeypatch: pytest.MonkeyPatch) -> None:
    """``checks_ahead`` (idle time, issue 15) is the save's check run earlier: what it found good the save
    takes as checked; past its deadline it stops, and the save checks what is left."""
    hit = [
        rules.apply(rules.evolve(rules.demo_sheet(s), name=f"PNJ {s}"), rules.Damage(amount=1)).sheet
        for s in rules.SYSTEMS
    ]
    checked: list[str] = []
    real = rules.check_sheet

    def counting(sheet: Any, table: Any = None) -> Any:
        checked.append(sheet.name)
        return real(sheet, table)

    monkeypatch.setattr(rules, "check_sheet", counting)
    doc = files.Document("table", hit, [], "T")
    monkeypatch.setattr(files, "CHECK_AHEAD_BATCH", 1)
    steps = files.checks_ahead(hit)
    next(steps)  # idle time may stop after any step
    assert len(checked) == 1
    assert list(steps) and sorted(checked) == sorted(s.name for s in hit)
    checked.clear()
    files.encode_document(doc)
    assert checked == []
    assert list(files.checks_ahead(hit)) == [] and checked == []  # nothing left to do


def test_a_sheet_found_bad_ahead_is_refused_on_saving_as_without_it(monkeypatch: pytest.MonkeyPatch) -> None:
    good = rules.evolve(rules.demo_sheet("d20"), name="Bon")
    bad = _broken_sheet()
    doc = files.Document("table", [good, bad], [], "T")
    with pytest.raises(files.FileProblem) as without:
        files.encode_document(doc)
    files._VERIFIED.clear()
    assert len(list(files.checks_ahead([good, bad]))) == 2  # one step per system
    assert files.is_checked(good) and not files.is_checked(bad)
    checked: list[str] = []
    real = rules.check_sheet
    monkeypatch.setattr(rules, "check_sheet", lambda s, t=None: checked.append(s.name) or real(s, t))
    assert list(files.checks_ahead([good, bad])) == [] and checked == [], "a sheet found bad is not tried again"
    with pytest.raises(files.FileProblem) as ahead:
        files.encode_document(doc)
    assert ahead.value.message == without.value.message
    assert (
        "fiche n° 2 « Ulfred » ne se rouvrirait pas : « niveau » : doit être supérieur ou égal à 1"
        in ahead.value.message
    )
