"""Opening, saving and closing sheets: every path between a tab and its file goes through here.

The window asks; this module talks to ``sheet_app.files`` (atomic writes, refusal to overwrite a file
changed on disk) and to the user through ``ui.prompts``. Autosave and crash recovery (issue 7) hook in
here: ``saved`` and ``closed`` say when a document's autosave can be dropped, ``Autosaver`` keeps the
copies (``sheet_app.autosave``) and ``recover`` reopens one after a crash.
"""

from __future__ import annotations

import logging
import random
import re
import time
import weakref
from collections.abc import Callable, Iterable, Iterator
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import shiboken6
from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtWidgets import QWidget

from sheet_app import files
from sheet_app.autosave import AutosaveEntry, AutosaveStore
from sheet_app.records import Fields
from sheet_app.settings import Settings, start_folder
from ui.common import guard, prompts
from ui.sheet.viewmodel import SheetViewModel

if TYPE_CHECKING:  # the GM table's modules load with the first table (start-up opens sheets: issue 15)
    from ui.table.state import TableState
    from ui.table.viewmodel import TableViewModel

log = logging.getLogger(__name__)

HEARTBEAT_MS = 5_000


class OpenSheet(Fields):
    """One open document (a sheet): its view-model, and the file it came from (None until first saved).

    A document without a file is always « modified » (closing or quitting asks, the autosave keeps
    it), except an untouched demo copy, which the shipped file already holds.
    ``differs_from_file``: the sheet at the undo stack's clean point is not what the file holds (a
    sheet recovered from an autosave): modified until saved. ``autosave_key``: its copy in the
    autosave store under this app's key, if one was made; ``autosaved``: the (sheet, journal) the
    latest copy holds; ``recovered_from``: the copy a crash left that this sheet came back from
    (removed once this app's own copy or the user's save supersedes it). ``confirm_path``: ``path``
    comes from an autosave and the file there is no longer the one the work started from (or cannot
    be checked): « Enregistrer » asks before writing there. (The same for ``OpenTable``.) A
    ``sheet_app.records.Fields``, as the ``@dataclass(eq=False)`` it was (issue 15: its class cost ~2.5 M
    instructions at every start).
    """

    _fields = (
        "vm",
        "path",
        "stamp",
        "differs_from_file",
        "autosave_key",
        "autosaved",
        "demo",
        "recovered_from",
        "confirm_path",
    )

    def __init__(
        self,
        vm: SheetViewModel,
        path: Path | None = None,
        stamp: files.FileStamp | None = None,
        differs_from_file: bool = False,
        autosave_key: str | None = None,
        autosaved: tuple[Any, tuple[str, ...]] | None = None,
        demo: bool = False,
        recovered_from: AutosaveEntry | None = None,
        confirm_path: bool = False,
    ) -> None:
        self.vm = vm
        self.path = path
        self.stamp = stamp
        self.differs_from_file = differs_from_file
        self.autosave_key = autosave_key
        self.autosaved = autosaved
        self.demo = demo
        self.recovered_from = recovered_from
        self.confirm_path = confirm_path

    kind = "sheet"

    def display_name(self) -> str:
        return self.vm.sheet.name or (self.path.name if self.path else "Sans nom")

    def is_modified(self) -> bool:
        if self.differs_from_file or not self.vm.undo_stack.isClean():
            return True
        return self.path is None and not self.demo

    def document(self) -> files.Document:
        house = [self.vm.house] if self.vm.house is not None else []
        return files.Document("sheet", [self.vm.sheet], [list(self.vm.journal)], house=house)

    def snapshot(self) -> tuple[Any, tuple[str, ...]]:
        """What an autosave copy holds (compared by identity: the sheet is immutable)."""
        return (self.vm.sheet, self.vm.journal)

    def autosave_is_current(self) -> bool:
        saved = self.autosaved
        return saved is not None and saved[0] is self.vm.sheet and saved[1] == self.vm.journal


class OpenTable(Fields):
    """One open GM table: its view-model and its file, with the same life as a sheet (``OpenSheet``):
    saved, autosaved, recovered and closed through the same paths."""

    _fields = (
        "vm",
        "path",
        "stamp",
        "differs_from_file",
        "autosave_key",
        "autosaved",
        "recovered_from",
        "confirm_path",
    )

    def __init__(
        self,
        vm: TableViewModel,
        path: Path | None = None,
        stamp: files.FileStamp | None = None,
        differs_from_file: bool = False,
        autosave_key: str | None = None,
        autosaved: Any = None,
        recovered_from: AutosaveEntry | None = None,
        confirm_path: bool = False,
    ) -> None:
        self.vm = vm
        self.path = path
        self.stamp = stamp
        self.differs_from_file = differs_from_file
        self.autosave_key = autosave_key
        self.autosaved = autosaved
        self.recovered_from = recovered_from
        self.confirm_path = confirm_path

    kind = "table"

    def display_name(self) -> str:
        return self.vm.state.title or (self.path.name.removesuffix(files.TABLE_SUFFIX) if self.path else "Table")

    def is_modified(self) -> bool:
        state = self.vm.state
        never_saved_work = self.path is None and bool(state.creatures or state.journal)
        return self.differs_from_file or not self.vm.undo_stack.isClean() or never_saved_work

    def document(self) -> files.Document:
        return table_document(self.vm.state)

    def snapshot(self) -> TableState:
        return self.vm.state

    def autosave_is_current(self) -> bool:
        return self.autosaved is self.vm.state


OpenDocument = OpenSheet | OpenTable
D = TypeVar("D", OpenSheet, OpenTable)


def table_document(state: TableState) -> files.Document:
    """A table's state as its file holds it."""
    creatures = state.creatures
    rows = {c.id: i for i, c in enumerate(creatures)}
    tracker = files.TableTracker(
        rows=[(c.initiative, c.note) for c in creatures],
        round=state.round,
        turn=rows.get(state.turn) if state.turn is not None else None,
        started=sorted(rows[cid] for cid in state.started if cid in rows),
        journal=list(state.journal),
    )
    # Trailing rows without initiative or note are left out (the format allows a shorter list).
    while tracker.rows and tracker.rows[-1] == (None, ""):
        tracker.rows.pop()
    return files.Document(
        "table",
        [c.sheet for c in creatures],
        [list(c.journal) for c in creatures],
        state.title,
        tracker=tracker,
        house=list(state.house),
    )


def table_state(doc: files.Document) -> TableState:
    """A table's state from its file's document."""
    from ui.table.viewmodel import state_from

    tracker = doc.tracker or files.TableTracker()
    state = state_from(
        doc.sheets,
        doc.journals,
        initiatives=[initiative for initiative, _note in tracker.rows],
        notes=[note for _initiative, note in tracker.rows],
        title=doc.title,
        round_=tracker.round,
        turn=tracker.turn,
        started=tracker.started,
        journal=tracker.journal,
    )
    return state.with_(house=tuple(doc.house)) if doc.house else state


def suggested_name(sheet: Any) -> str:
    base = re.sub(r"[^\w\-]+", "_", sheet.name or "fiche", flags=re.UNICODE).strip("_") or "fiche"
    return base.lower() + files.SHEET_SUFFIX


def suggested_file(doc: OpenDocument) -> str:
    if isinstance(doc, OpenTable):
        base = re.sub(r"[^\w\-]+", "_", doc.vm.state.title or "table", flags=re.UNICODE).strip("_") or "table"
        return base.lower() + files.TABLE_SUFFIX
    return suggested_name(doc.vm.sheet)


def _sheets_of(doc: OpenDocument) -> tuple[list[Any], list[Any]]:
    """The sheets of ``doc`` and the house rules they play by: what its next save checks."""
    if isinstance(doc, OpenTable):
        state = doc.vm.state
        return [c.sheet for c in state.creatures], list(state.house)
    return [doc.vm.sheet], [doc.vm.house] if doc.vm.house is not None else []


# Idle checks (issue 15: a first save of 1,000 NPCs right after a blow to all of them checked 1,000
# sheets). They start once the user has left a document alone this long after a change (an edit's own
# events, a blow's report and repaint even on a loaded machine, and the next action of someone at work
# are not slowed) and run in slices of at most
# ``IDLE_CHECK_SLICE_S`` (one batch of ``files.CHECK_AHEAD_BATCH`` sheets past it), the event loop
# turning between two slices: a key pressed meanwhile waits one slice at most.
IDLE_CHECK_DELAY_MS = 1000
IDLE_CHECK_SLICE_S = 0.005


class IdleChecks(QObject):
    """Checks in idle time, as the next save will (``files.checks_ahead``), the sheets the rules made
    since the document was read or saved, so that saving finds them checked.

    Nothing else changes: a sheet found bad here is left as it is, and the save checks it and refuses
    it with its usual message (the old file intact); a save that comes before the checks ran checks
    what is left itself. ``watch`` a document: each change of its undo stack schedules its checks.
    """

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        # Each document waiting, with its checks under way (None: to start from its sheets as they are).
        self._work: weakref.WeakKeyDictionary[OpenDocument, Iterator[None] | None] = weakref.WeakKeyDictionary()
        self.timer = QTimer(self)
        self.timer.setObjectName("idleChecksTimer")
        self.timer.setSingleShot(True)
        guard.connect(self.timer.timeout, self._slice)

    def watch(self, doc: OpenDocument) -> None:
        ref = weakref.ref(doc)
        guard.connect(doc.vm.undo_stack.indexChanged, lambda _index: self._changed(ref()))

    def _changed(self, doc: OpenDocument | None) -> None:
        # The window (and this object with it) may be gone while its documents live on: as the app quits, a
        # document's undo stack is cleared after the window's children were deleted. Nothing to check then.
        if doc is not None and shiboken6.isValid(self.timer):
            self._work[doc] = None  # its sheets changed: start again from them
            self.timer.start(IDLE_CHECK_DELAY_MS)  # again from the latest change

    def pending(self) -> bool:
        """Whether some document's sheets wait for their checks."""
        return len(self._work) > 0

    def _slice(self) -> None:
        deadline = time.perf_counter() + IDLE_CHECK_SLICE_S
        for doc, steps in list(self._work.items()):
            del self._work[doc]  # back below if not done (a bug is reported once, not each slice)
            if steps is None:
                steps = files.checks_ahead(*_sheets_of(doc))
            for _step in steps:
                if time.perf_counter() >= deadline:
                    self._work[doc] = steps
                    self.timer.start(0)
                    return


class DocumentController(QObject):
    """Open, save, save as, reload, recover, close (with the questions they need)."""

    saved = Signal(object)  # OpenSheet or OpenTable: written to its file by the user
    closed = Signal(object)  # closed cleanly (saved, or its changes dropped by the user)
    reloaded = Signal(object)  # now holds its file as it is on disk
    # (old, new): the file on disk now holds another kind of document, or a sheet of another system,
    # which needs another view; the window puts the new one in the old one's tab.
    replaced = Signal(object, object)

    def __init__(self, settings: Settings, rng: random.Random, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.settings = settings
        self.rng = rng
        self.last_folder = start_folder(settings)
        self.idle_checks = IdleChecks(self)

    def new(
        self,
        sheet: Any,
        journal: tuple[str, ...] = (),
        parent: QObject | None = None,
        house: Any = None,
        *,
        demo: bool = False,
    ) -> OpenSheet:
        """A document without a file; ``house``: the house rules it plays by; ``demo``: a copy of a shipped
        demo (unmodified until changed)."""
        vm = SheetViewModel(sheet, rng=self.rng, journal=journal, house=house, parent=parent)
        return self._watched(OpenSheet(vm, demo=demo))

    def new_table(self, state: TableState | None = None, parent: QObject | None = None) -> OpenTable:
        from ui.table.viewmodel import TableViewModel

        return self._watched(OpenTable(TableViewModel(state, rng=self.rng, parent=parent)))

    def _watched(self, doc: D) -> D:
        """``doc``, its sheets checked in idle time after each change (``IdleChecks``)."""
        self.idle_checks.watch(doc)
        return doc

    def _open_document(
        self, doc: files.Document, path: Path | None, stamp: files.FileStamp | None, parent: QObject | None = None
    ) -> OpenDocument:
        """The open document for what a file holds: a sheet or a GM table."""
        if doc.kind == "table":
            from ui.table.viewmodel import TableViewModel

            return self._watched(OpenTable(TableViewModel(table_state(doc), rng=self.rng, parent=parent), path, stamp))
        journal = tuple(doc.journals[0]) if doc.journals else ()
        house = doc.house[0] if doc.house else None
        vm = SheetViewModel(doc.sheets[0], rng=self.rng, journal=journal, house=house, parent=parent)
        return self._watched(OpenSheet(vm, path, stamp))

    def _read(self, path: Path, window: QWidget | None) -> tuple[files.Document, files.FileStamp] | None:
        """The document and stamp of the file ``path``; a problem is shown and None returned."""
        try:
            return files.read_document(path)
        except files.FileProblem as exc:
            prompts.show_error(window, self.tr("Ouverture impossible"), exc.message)
            return None

    def read_sheet(self, path: Path) -> tuple[Any, tuple[str, ...]]:
        """The sheet and journal of a sheet file, for a table that takes it in; ``ValueError`` in French."""
        try:
            doc, _stamp = files.read_document(path)
        except files.FileProblem as exc:
            raise ValueError(exc.message) from None
        if doc.kind != "sheet":
            raise ValueError(
                self.tr("{0} : c'est une table de meneur ({1} fiches), pas une fiche.").format(path, len(doc.sheets))
            )
        return doc.sheets[0], tuple(doc.journals[0]) if doc.journals else ()

    def open(self, path: Path, window: QWidget | None, parent: QObject | None = None) -> list[OpenDocument] | None:
        """Read ``path`` (a sheet or a table); a problem is shown (French, names the file) and ``None``
        returned."""
        path = Path(path)
        read = self._read(path, window)
        if read is None:
            if not path.exists():
                self.settings.remove_recent(path)
            return None
        doc, stamp = read
        opened = self._open_document(doc, path, stamp, parent)
        self.last_folder = path.parent
        self.settings.add_recent(path)
        return [opened]

    def recover(self, doc: files.Document, entry: AutosaveEntry, parent: QObject | None = None) -> OpenDocument:
        """A sheet or table recovered from the autosave ``entry``: modified until saved, to its user's file.

        The copy names its file (``entry.source``) and that file's digest when the work started. If the
        file is still exactly that, it is the version the recovered work replaces: « Enregistrer »
        writes over it unless someone changes it meanwhile (then the changed-on-disk question). If it
        is not (changed since, gone, or a copy that names no digest: its ``source`` alone could name
        any file), « Enregistrer » first asks whether to write there. The copy itself stays until this
        app's own copy or the user's save supersedes it (``recovered_from``); this app never writes
        under the copy's key (which may not even be a key: a sync tool's renamed file).
        """
        source = entry.source
        stamp = files.digest_of(source) if source is not None else None
        trusted = stamp is not None and bool(entry.source_sha256) and stamp.sha256 == entry.source_sha256
        opened = self._open_document(doc, source, stamp, parent)
        opened.differs_from_file = True
        opened.autosaved = opened.snapshot()
        opened.recovered_from = entry
        opened.confirm_path = source is not None and not trusted
        return opened

    def save(self, doc: OpenDocument, window: QWidget | None) -> bool:
        if doc.path is None:
            return self.save_as(doc, window)
        table = doc.kind == "table"
        what = self.tr("la table") if table else self.tr("la fiche")
        title = self.tr("Enregistrer la table récupérée") if table else self.tr("Enregistrer la fiche récupérée")
        if doc.confirm_path and not prompts.confirm(
            window,
            title,
            self.tr(
                "Ce document a été récupéré d'une sauvegarde automatique qui indique le fichier :\n{0}\n\n"
                "Ce fichier n'est plus celui d'où venait {1} (il a changé depuis, ou la sauvegarde ne permet "
                "pas de le vérifier). L'enregistrer là remplacera son contenu."
            ).format(doc.path, what),
            self.tr("Enregistrer dans ce fichier"),
        ):
            return False
        doc.confirm_path = False
        return self._write(doc, doc.path, doc.stamp, window)

    def save_as(self, doc: OpenDocument, window: QWidget | None) -> bool:
        folder = doc.path.parent if doc.path else self.last_folder
        path = prompts.save_path(window, folder / suggested_file(doc))
        if path is None:
            return False
        # A new name: whatever is there was chosen by the user in the dialog (it asked about overwriting).
        return self._write(doc, path, None, window)

    def _write(self, doc: OpenDocument, path: Path, expected: files.FileStamp | None, window: QWidget | None) -> bool:
        try:
            stamp = files.write_document(path, doc.document(), expected=expected)
        except files.ReadOnly as exc:
            if prompts.confirm(
                window,
                self.tr("Fichier en lecture seule"),
                exc.message + "\n\n" + self.tr("L'enregistrer sous un autre nom ?"),
                self.tr("Enregistrer sous…"),
            ):
                return self.save_as(doc, window)
            return False
        except files.ChangedOnDisk:
            answer = prompts.changed_on_disk(window, path)
            if answer == "overwrite":
                return self._write(doc, path, None, window)
            if answer == "save_as":
                return self.save_as(doc, window)
            if answer == "reload":
                self.reload(doc, window)
            # Reloaded: the tab holds the file again, but nothing was written (a close waits).
            return False
        except files.FileProblem as exc:
            prompts.show_error(window, self.tr("Enregistrement impossible"), exc.message)
            return False
        doc.path, doc.stamp = path, stamp
        doc.differs_from_file = False
        doc.confirm_path = False
        doc.vm.undo_stack.setClean()
        self.last_folder = path.parent
        self.settings.add_recent(path)
        self.saved.emit(doc)
        return True

    def reload(self, doc: OpenDocument, window: QWidget | None) -> OpenDocument | None:
        """Replace the tab's sheet or table by its file as it is on disk; its undo history starts over.

        Returns the document now showing the file (``doc`` itself, or a new one when the file holds
        another kind of document or a sheet of another system: ``replaced`` is emitted), or None if the
        file cannot be read (shown; the tab keeps what it had).
        """
        if doc.path is None:
            return None
        read = self._read(doc.path, window)
        if read is None:
            return None
        content, stamp = read
        same_kind = content.kind == doc.kind
        if same_kind and isinstance(doc, OpenSheet) and content.sheets[0].system != doc.vm.sheet.system:
            same_kind = False
        if not same_kind:
            new = self._open_document(content, doc.path, stamp)
            new.autosave_key, new.recovered_from = doc.autosave_key, doc.recovered_from
            self.replaced.emit(doc, new)
            self.reloaded.emit(new)
            return new
        if isinstance(doc, OpenTable):
            doc.vm.replace_state(table_state(content))
        else:
            journal = tuple(content.journals[0]) if content.journals else ()
            doc.vm.replace_sheet(content.sheets[0], journal, content.house[0] if content.house else None)
        doc.vm.undo_stack.setClean()
        doc.stamp = stamp
        doc.differs_from_file = False
        doc.confirm_path = False  # the tab now holds that very file
        self.reloaded.emit(doc)
        return doc

    def may_close(self, doc: OpenDocument, window: QWidget | None) -> bool:
        """Whether ``doc`` may close: asks about unsaved changes (« Enregistrer » saves; cancelling the
        question or the save keeps it open). Nothing is closed here."""
        if doc.is_modified():
            answer = prompts.save_changes(window, doc.display_name())
            if answer is None:
                return False
            if answer == "save" and not self.save(doc, window):
                return False
        return True

    def close(self, doc: OpenDocument, window: QWidget | None) -> bool:
        """Whether ``doc`` may close (asks about unsaved changes; saving may be cancelled)."""
        if not self.may_close(doc, window):
            return False
        self.closed.emit(doc)
        return True


class Autosaver(QObject):
    """Copies of the open documents with unsaved changes, in the one ``AutosaveStore`` of the app.

    Every ``interval_ms`` (a minute) and right after a rest or a time advance (``save``), each modified
    document is written to the store, never over the user's own file; a document back to its saved
    state loses its copy. ``discard`` after the user's save or a clean close. A copy that cannot be
    written is reported by ``failed`` (French) and tried again at the next tick.
    """

    saved = Signal(object, object)  # OpenSheet or OpenTable, AutosaveEntry
    failed = Signal(str)

    def __init__(
        self,
        store: AutosaveStore,
        interval_ms: int,
        documents: Callable[[], Iterable[OpenDocument]],
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.store = store
        self._documents = documents
        self.timer = QTimer(self)
        self.timer.setObjectName("autosaveTimer")
        self.timer.setInterval(interval_ms)
        guard.connect(self.timer.timeout, self.save_all)
        # The session says it is alive every few seconds (``AutosaveStore.heartbeat``): after a crash,
        # its copies are offered even if another window saved their file in the meantime.
        self.heartbeat = QTimer(self)
        self.heartbeat.setObjectName("autosaveHeartbeat")
        self.heartbeat.setInterval(min(interval_ms, HEARTBEAT_MS))
        guard.connect(self.heartbeat.timeout, store.heartbeat)
        self.last_saved: datetime | None = None

    def start(self) -> None:
        self.timer.start()
        self.heartbeat.start()

    def stop(self) -> None:
        self.timer.stop()
        self.heartbeat.stop()

    def save_all(self) -> int:
        """Autosave every open document that needs it; the number of copies written. One document's
        failure (even a bug) never keeps the others from their copies."""
        written = 0
        for doc in list(self._documents()):
            try:
                written += self.save(doc)
            except Exception:  # a bug: logged and said; the other documents still get their copies
                log.exception("autosave of %r failed", doc.display_name())
                self.failed.emit(
                    self.tr("Sauvegarde automatique impossible de « {0} » (erreur interne).").format(doc.display_name())
                )
        return written

    def save(self, doc: OpenDocument) -> bool:
        """Copy ``doc`` to the store if it has unsaved changes the copy lacks; True if written."""
        if not doc.is_modified():
            self.discard(doc)  # back to its saved state (undone): the copy would only mislead
            return False
        if doc.autosave_is_current():
            return False
        state = doc.snapshot()
        if doc.autosave_key is None:
            doc.autosave_key = self.store.key_for(doc.path)
        # The file the work started from, by its digest (a recovered copy goes back there unasked
        # only if that file is still exactly that one).
        base = doc.stamp.sha256 if doc.stamp is not None and not doc.confirm_path else ""
        try:
            entry = self.store.save(doc.autosave_key, doc.document(), doc.path, base)
        except files.FileProblem as exc:
            log.warning("autosave failed: %s", exc.message)
            self.failed.emit(exc.message)
            return False
        self._forget_recovered(doc)  # our own copy now holds the recovered work
        doc.autosaved = state
        self.last_saved = entry.saved_at
        self.saved.emit(doc, entry)
        return True

    def discard(self, doc: OpenDocument) -> None:
        """Drop ``doc``'s copy (saved by the user, closed cleanly, or back to its saved state)."""
        if doc.autosave_key is not None:
            try:
                self.store.discard(doc.autosave_key)
            except OSError as exc:  # the store's folder gone bad: the copy stays, ``clean`` drops it later
                log.warning("autosave not discarded: %s", exc)
        self._forget_recovered(doc)
        doc.autosave_key = None
        doc.autosaved = None

    def _forget_recovered(self, doc: OpenDocument) -> None:
        """Remove the crash's copy ``doc`` was recovered from (superseded by our copy or a save)."""
        entry, doc.recovered_from = doc.recovered_from, None
        if entry is not None:
            try:
                self.store.remove(entry)
            except (OSError, ValueError) as exc:
                log.warning("recovered autosave not removed: %s", exc)
