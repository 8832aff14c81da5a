"""Autosave store (pure Python, no Qt): copies of the open documents in the user data folder.

The windows call ``AutosaveStore.save`` every minute and after each rest or time advance, ``discard``
once the document is saved by the user or closed cleanly, and at start ``recoverable()`` to offer what a
crash left behind (each entry says its time and whether it is newer than the user's own file).

How a window uses it::

    store = AutosaveStore()                   # one per app; store.close() when the app quits
    for entry in store.recoverable():         # at start: entry.describe() for the dialog
        doc = store.load(entry)               # reopen (source: entry.source), marked modified
        # … or store.discard(entry.key) if the user declines
    key = store.key_for(path_or_None)         # per open document and per running app (two windows on
                                              # one file keep two copies); a new key after « Enregistrer sous »
    store.save(key, doc, path_or_None, base)  # every minute, after a rest or a time advance; ``base``:
                                              # the digest of the file the document was read from
    store.discard(key)                        # after the user's save succeeded, or a clean close
    store.remove(entry)                       # a copy found in the folder, whatever its file name
    store.clean()                             # now and then (at start): drops what is no longer useful

The store never writes anywhere but its own folder (``<user data>/sheet_app/autosave`` by default,
from platformdirs, which follows ``XDG_DATA_HOME``): never over the user's file. Each autosave is
one JSON file written atomically, like the user's files::

    {"format": 1, "kind": "autosave", "saved_at_ns": …, "saved_at": "2026-03-12T14:32:05+01:00",
     "source": "/home/…/ulfred.fiche.json" or null, "source_sha256": "…" or "",
     "title": "Ulfred", "session": "…", "pid": 1234,
     "document": { the sheet or table file, exactly as on disk }}

``source_sha256`` is the digest of the user's file as the document was read from it: after a crash,
the copy is trusted to go back to ``source`` only if that file is still exactly that (else the window
asks before writing there: an autosave's ``source`` alone could name any file). A file name that is
not valid UTF-8 is kept exactly (as ``\\udcXX`` escapes).

A running app holds a lock on ``<session>.lock`` in the store: an autosave whose session still holds
its lock belongs to a running app (maybe another window of the same user) and is not offered for
recovery; the lock goes with the process, however it ends.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import secrets
import time
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import platformdirs
from pydantic import ValidationError

import rules
from sheet_app import __version__ as APP_VERSION
from sheet_app.files import (
    Document,
    FileProblem,
    atomic_write,
    document_from_data,
    encode_document,
    parse_json,
)

try:  # POSIX; elsewhere every session counts as ended (recovery is offered, the user decides)
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

AUTOSAVE_SUFFIX = ".autosave.json"
AUTOSAVE_FORMAT = 1
DEFAULT_MAX_AGE_DAYS = 30
MAX_AUTOSAVE_BYTES = 40 * 1024 * 1024  # a full-size document plus its wrapper
STALE_TEMP_SECONDS = 3600


def default_folder() -> Path:
    """``<user data folder>/sheet_app/autosave`` (computed on each call, so tests can move it)."""
    return platformdirs.user_data_path("sheet_app", appauthor=False) / "autosave"


# How a record's ``__init__`` sets a field (``rules.Record`` refuses ``setattr``).
_set = object.__setattr__


def __getattr__(name: str) -> Any:
    """``_AutosaveFile``, the model of an autosave file, lives in ``sheet_app.envelopes`` (imported when an
    autosave is first read: a start with an empty store never declares it, issue 15)."""
    if name == "_AutosaveFile":
        from sheet_app.envelopes import _AutosaveFile

        return _AutosaveFile
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class AutosaveEntry(rules.Record):
    """One autosave in the store: what it is a copy of, and when it was made. (A ``rules.Record``: the frozen
    dataclass it was made its methods from source text at import, ~5 M instructions at every start.)"""

    __slots__ = (  # noqa: RUF023  (the fields, in order)
        "key",
        "path",
        "source",
        "saved_at_ns",
        "title",
        "session",
        "pid",
        "source_sha256",
        "last_seen_ns",
    )
    key: str  # the file's name in the store (informative: a copy from elsewhere may have any name)
    path: Path
    source: Path | None
    saved_at_ns: int
    title: str
    session: str
    pid: int
    source_sha256: str  # the digest of ``source`` when the document was read from it
    last_seen_ns: int  # when the app that wrote it was last known alive (its lock's heartbeat)

    def __init__(
        self,
        key: str,
        path: Path,
        source: Path | None,
        saved_at_ns: int,
        title: str,
        session: str,
        pid: int,
        source_sha256: str = "",
        last_seen_ns: int = 0,
    ) -> None:
        _set(self, "key", key)
        _set(self, "path", path)
        _set(self, "source", source)
        _set(self, "saved_at_ns", saved_at_ns)
        _set(self, "title", title)
        _set(self, "session", session)
        _set(self, "pid", pid)
        _set(self, "source_sha256", source_sha256)
        _set(self, "last_seen_ns", last_seen_ns)

    @property
    def saved_at(self) -> datetime:
        """Local time of the autosave."""
        return datetime.fromtimestamp(self.saved_at_ns / 1e9).astimezone()

    def source_mtime_ns(self) -> int | None:
        """Modification time of the user's file now (None: never saved, or no longer there)."""
        if self.source is None:
            return None
        try:
            return self.source.stat().st_mtime_ns
        except OSError:
            return None

    def newer_than_source(self) -> bool:
        """Whether this copy was made after the user's file last changed (or there is no such file)."""
        mtime = self.source_mtime_ns()
        return mtime is None or self.saved_at_ns > mtime

    def holds_unsaved_work(self) -> bool:
        """Whether this copy may hold work the user's file lacks: it is newer than the file, or its app
        was still running when the file last changed (another window saved the file meanwhile: this
        app's work is not in it). A file changed after the app ended supersedes the copy."""
        mtime = self.source_mtime_ns()
        return mtime is None or max(self.saved_at_ns, self.last_seen_ns) > mtime

    def when_text(self, now: datetime | None = None) -> str:
        """« aujourd'hui à 14:32 », « hier à 09:05 », « le 12/03/2026 à 14:32 »."""
        at = self.saved_at
        today = (now or datetime.now().astimezone()).date()
        clock = at.strftime("%H:%M")
        if at.date() == today:
            return f"aujourd'hui à {clock}"
        if at.date() == today - timedelta(days=1):
            return f"hier à {clock}"
        return f"le {at.strftime('%d/%m/%Y')} à {clock}"

    def describe(self, now: datetime | None = None) -> str:
        """French sentence for the recovery dialog."""
        title = f"« {self.title} »" if self.title else "Document sans titre"
        when = self.when_text(now)
        if self.source is None:
            return f"{title}, jamais enregistré : sauvegarde automatique {when}."
        mtime = self.source_mtime_ns()
        if mtime is None:
            return f"{title} ({self.source}, introuvable) : sauvegarde automatique {when}."
        state = "plus récente" if self.saved_at_ns > mtime else "plus ancienne"
        return f"{title} ({self.source}) : sauvegarde automatique {when}, {state} que le fichier."


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]+", "-", text).strip("-")[:40] or "document"


class AutosaveStore:
    """The autosave folder: write, list newest first, compare with the user's files, clean."""

    def __init__(self, folder: Path | str | None = None) -> None:
        self.folder = Path(folder) if folder is not None else default_folder()
        self.session = secrets.token_hex(8)
        self._lock_fd: int | None = None

    # --- keys --------------------------------------------------------------------------------------

    def key_for(self, source: Path | str | None) -> str:
        """The key of a user's file in this running app (same file, same key; another app on the same
        file has its own: its copies never overwrite ours); a new one for a never-saved document."""
        if source is None:
            return f"nouveau-{secrets.token_hex(6)}"
        resolved = Path(os.path.abspath(source))
        digest = hashlib.sha256(str(resolved).encode("utf-8", "surrogatepass")).hexdigest()[:12]
        stem = resolved.name.removesuffix(".json").removesuffix(".fiche").removesuffix(".table")
        return f"{_slug(stem)}-{digest}-{self.session[:8]}"

    def path_for(self, key: str) -> Path:
        if not re.fullmatch(r"[A-Za-z0-9_-]{1,80}", key):
            raise ValueError(f"invalid autosave key {key!r}")
        return self.folder / f"{key}{AUTOSAVE_SUFFIX}"

    # --- session lock --------------------------------------------------------------------------------

    def _ensure_folder(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True, mode=0o700)

    def _hold_session(self) -> None:
        if self._lock_fd is not None or fcntl is None:
            return
        fd = os.open(self.folder / f"{self.session}.lock", os.O_RDWR | os.O_CREAT, 0o600)
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        self._lock_fd = fd

    def heartbeat(self) -> None:
        """Say this session is alive now (its lock's time): after a crash, a copy whose app outlived
        a change of its file by someone else is still offered (``AutosaveEntry.holds_unsaved_work``)."""
        if self._lock_fd is None:
            return
        with contextlib.suppress(OSError):
            os.utime(self._lock_fd)

    def _last_seen_ns(self, session: str) -> int:
        if not re.fullmatch(r"[0-9a-f]{1,64}", session):
            return 0
        return _mtime_ns(self.folder / f"{session}.lock")

    def close(self) -> None:
        """Release this session's lock (the app is closing cleanly)."""
        if self._lock_fd is None:
            return
        with contextlib.suppress(OSError):
            os.unlink(self.folder / f"{self.session}.lock")
        os.close(self._lock_fd)
        self._lock_fd = None

    def session_alive(self, session: str) -> bool:
        """Whether the app session that wrote an autosave is still running."""
        if session == self.session:
            return True
        if fcntl is None or not re.fullmatch(r"[0-9a-f]{1,64}", session):
            return False
        try:
            fd = os.open(self.folder / f"{session}.lock", os.O_RDWR)
        except OSError:
            return False
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return True  # someone holds it
        else:
            fcntl.flock(fd, fcntl.LOCK_UN)
            return False
        finally:
            os.close(fd)

    # --- writing -------------------------------------------------------------------------------------

    def save(self, key: str, doc: Document, source: Path | str | None, source_sha256: str = "") -> AutosaveEntry:
        """Write (or replace) the autosave ``key`` of ``doc``, a copy of the user's file ``source``
        (``source_sha256``: that file's digest when the document was read from it, or "").

        Raises ``FileProblem`` if it cannot be written (the user's file is never touched).
        """
        path = self.path_for(key)
        source_path = Path(os.path.abspath(source)) if source is not None else None
        name = str(path)
        if source_path is not None and (
            source_path == Path(os.path.abspath(path)) or (path.exists() and _same_file(path, source_path))
        ):
            raise FileProblem(f"{name} : refus d'écrire la sauvegarde automatique sur le fichier de l'utilisateur.")
        # Unverified: even a sheet the rules left inconsistent is kept (to be repaired), not lost.
        body = encode_document(doc, name, verify=False).decode("utf-8").replace("\n", "\n  ").rstrip()
        now_ns = time.time_ns()
        title = doc.title if doc.kind == "table" else (doc.sheets[0].name if doc.sheets else "")
        meta = {
            "format": AUTOSAVE_FORMAT,
            "kind": "autosave",
            "app": APP_VERSION,
            "saved_at_ns": now_ns,
            "saved_at": datetime.fromtimestamp(now_ns / 1e9).astimezone().isoformat(timespec="seconds"),
            "source": str(source_path) if source_path is not None else None,
            "source_sha256": source_sha256 if source_path is not None else "",
            "title": title,
            "session": self.session,
            "pid": os.getpid(),
        }
        head = json.dumps(meta, ensure_ascii=False, indent=2)[:-2]  # without the closing "\n}"
        if not head.isascii() and not _is_utf8(head):
            # A file name that is not UTF-8 (surrogate escapes): kept exactly as \udcXX escapes.
            head = json.dumps(meta, ensure_ascii=True, indent=2)[:-2]
        data = f'{head},\n  "document": {body}\n}}\n'.encode()
        try:
            self._ensure_folder()
            self._hold_session()
            atomic_write(path, data)
        except OSError as exc:
            raise FileProblem(f"{name} : sauvegarde automatique impossible ({rules.os_reason(exc)}).") from None
        return AutosaveEntry(key, path, source_path, now_ns, title, self.session, os.getpid(), meta["source_sha256"])

    def discard(self, key: str) -> None:
        """Remove the autosave ``key`` (saved by the user, or closed cleanly)."""
        with contextlib.suppress(FileNotFoundError):
            self.path_for(key).unlink()

    def remove(self, entry: AutosaveEntry) -> None:
        """Remove an autosave found in the store (recovery declined, or its work carried on under a
        key of this app), whatever its file's name; nothing outside the store's folder."""
        path = entry.path
        if path.parent != self.folder or not path.name.endswith(AUTOSAVE_SUFFIX):
            raise ValueError(f"not an autosave of this store: {path!r}")
        with contextlib.suppress(FileNotFoundError):
            path.unlink()

    # --- reading -------------------------------------------------------------------------------------

    def _read(self, path: Path) -> tuple[AutosaveEntry, Any, str]:
        name = str(path)
        try:
            if path.stat().st_size > MAX_AUTOSAVE_BYTES:
                raise FileProblem(f"{name} : sauvegarde automatique trop grosse.")
            raw = path.read_bytes()
        except OSError as exc:
            raise FileProblem(f"{name} : lecture impossible ({rules.os_reason(exc)}).") from None
        data, text = parse_json(raw, name)
        from sheet_app.envelopes import _AutosaveFile

        try:
            meta = _AutosaveFile.model_validate(data)
        except ValidationError:
            raise FileProblem(f"{name} : ce n'est pas une sauvegarde automatique lisible.") from None
        key = path.name.removesuffix(AUTOSAVE_SUFFIX)
        source = Path(meta.source) if meta.source else None
        seen = self._last_seen_ns(meta.session)
        entry = AutosaveEntry(
            key, path, source, meta.saved_at_ns, meta.title, meta.session, meta.pid, meta.source_sha256, seen
        )
        return entry, meta.document, text

    def load(self, entry: AutosaveEntry) -> Document:
        """The document an autosave holds (``FileProblem`` if the copy is damaged)."""
        _, document, text = self._read(entry.path)
        return document_from_data(document, text, str(entry.path), ("document",))

    def entries(self) -> list[AutosaveEntry]:
        """Every readable autosave, newest first (damaged ones are skipped; ``clean`` removes them)."""
        found = []
        for path in self._files():
            try:
                entry, _, _ = self._read(path)
            except FileProblem:
                continue
            found.append(entry)
        found.sort(key=lambda e: e.saved_at_ns, reverse=True)
        return found

    def latest(self, key: str) -> AutosaveEntry | None:
        path = self.path_for(key)
        if not path.exists():
            return None
        try:
            return self._read(path)[0]
        except FileProblem:
            return None

    def recoverable(self) -> list[AutosaveEntry]:
        """What a crash left: autosaves of ended sessions holding work their file lacks, newest first."""
        return [e for e in self.entries() if not self.session_alive(e.session) and e.holds_unsaved_work()]

    def _files(self) -> list[Path]:
        try:
            return [p for p in self.folder.iterdir() if p.name.endswith(AUTOSAVE_SUFFIX) and p.is_file()]
        except OSError:
            return []

    # --- cleaning ------------------------------------------------------------------------------------

    def clean(self, max_age_days: float = DEFAULT_MAX_AGE_DAYS) -> int:
        """Remove what is no longer useful; the number of files removed.

        Removed: autosaves of ended sessions that the user's file already supersedes, or older than
        ``max_age_days``; damaged autosave files older than that; locks of ended sessions left without
        copies; temp files
        left by a crash during an autosave. Autosaves of running sessions are never removed.
        """
        removed = 0
        now = time.time()
        limit_ns = int((now - max_age_days * 86400) * 1e9)
        kept_sessions: set[str] = set()
        for path in self._files():
            try:
                entry, _, _ = self._read(path)
            except FileProblem:
                if _mtime_ns(path) < limit_ns:
                    removed += _remove(path)
                continue
            if self.session_alive(entry.session):
                continue
            if not entry.holds_unsaved_work() or entry.saved_at_ns < limit_ns:
                removed += _remove(path)
            else:
                kept_sessions.add(entry.session)
        try:
            others = list(self.folder.iterdir())
        except OSError:
            others = []
        for path in others:
            session = path.name.removesuffix(".lock")
            # An ended session's lock goes, unless a copy of it is kept: its time says until when it ran.
            if path.name.endswith(".lock") and session not in kept_sessions and not self.session_alive(session):
                removed += _remove(path)
            elif path.name.endswith(".tmp") and _mtime_ns(path) < (now - STALE_TEMP_SECONDS) * 1e9:
                removed += _remove(path)
        return removed


def _is_utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _mtime_ns(path: Path) -> int:
    try:
        return path.stat().st_mtime_ns
    except OSError:
        return 0


def _remove(path: Path) -> int:
    try:
        path.unlink()
    except OSError:
        return 0
    return 1
