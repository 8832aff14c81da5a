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
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtWidgets import QWidget

from sheet_app import files
from sheet_app.autosave import AutosaveEntry, AutosaveStore
from sheet_app.settings import Settings, documents_dir
from ui.common import prompts
from ui.sheet.viewmodel import SheetViewModel

log = logging.getLogger(__name__)

HEARTBEAT_MS = 5_000


@dataclass(eq=False)
class OpenSheet:
    """One open sheet: its view-model, and the file it came from (None until first saved).

    ``differs_from_file``: the sheet at the undo stack's clean point is not what the file holds (a
    sheet recovered from an autosave): modified until saved. ``autosave_key``: its copy in the
    autosave store under this app's key, if one was made; ``autosaved``: the (sheet, journal) the
    latest copy holds; ``recovered_from``: the copy a crash left that this sheet came back from
    (removed once this app's own copy or the user's save supersedes it). ``confirm_path``: ``path``
    comes from an autosave and the file there is no longer the one the work started from (or cannot
    be checked): « Enregistrer » asks before writing there.
    """

    vm: SheetViewModel
    path: Path | None = None
    stamp: files.FileStamp | None = None
    differs_from_file: bool = False
    autosave_key: str | None = None
    autosaved: tuple[Any, tuple[str, ...]] | None = None
    recovered_from: AutosaveEntry | None = None
    confirm_path: bool = False

    def display_name(self) -> str:
        return self.vm.sheet.name or (self.path.name if self.path else "Sans nom")

    def is_modified(self) -> bool:
        return (
            self.differs_from_file or not self.vm.undo_stack.isClean() or (self.path is None and self.vm.journal != ())
        )

    def document(self) -> files.Document:
        return files.Document("sheet", [self.vm.sheet], [list(self.vm.journal)])


def suggested_name(sheet: Any) -> str:
    base = re.sub(r"[^\w\-]+", "_", sheet.name or "fiche", flags=re.UNICODE).strip("_") or "fiche"
    return base.lower() + files.SHEET_SUFFIX


class DocumentController(QObject):
    """Open, save, save as, reload, recover, close (with the questions they need)."""

    saved = Signal(object)  # OpenSheet: written to its file by the user
    closed = Signal(object)  # OpenSheet: closed cleanly (saved, or its changes dropped by the user)
    reloaded = Signal(object)  # OpenSheet: now holds its file as it is on disk
    # (old OpenSheet, new OpenSheet): the file on disk now holds a sheet of another system, which
    # needs another view; the window puts the new one in the old one's tab.
    replaced = Signal(object, object)

    def __init__(self, settings: Settings, rng: random.Random, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.settings = settings
        self.rng = rng
        self.last_folder = documents_dir()

    def new(self, sheet: Any, journal: tuple[str, ...] = (), parent: QObject | None = None) -> OpenSheet:
        return OpenSheet(SheetViewModel(sheet, rng=self.rng, journal=journal, parent=parent))

    def _read_sheet(self, path: Path, window: QWidget | None) -> tuple[Any, tuple[str, ...], files.FileStamp] | None:
        """The sheet, journal and stamp of the sheet file ``path``; a problem is shown and None returned."""
        try:
            doc, stamp = files.read_document(path)
        except files.FileProblem as exc:
            prompts.show_error(window, self.tr("Ouverture impossible"), exc.message)
            return None
        if doc.kind != "sheet":
            prompts.show_error(
                window,
                self.tr("Ouverture impossible"),
                self.tr(
                    "{0} : c'est une table de meneur ({1} fiches) ; la fenêtre de fiche ouvre une fiche à la fois."
                ).format(path, len(doc.sheets)),
            )
            return None
        journal = tuple(doc.journals[0]) if doc.journals else ()
        return doc.sheets[0], journal, stamp

    def open(self, path: Path, window: QWidget | None, parent: QObject | None = None) -> list[OpenSheet] | None:
        """Read ``path``; a problem is shown (French, names the file) and ``None`` returned."""
        path = Path(path)
        read = self._read_sheet(path, window)
        if read is None:
            if not path.exists():
                self.settings.remove_recent(path)
            return None
        sheet, journal, stamp = read
        opened = OpenSheet(SheetViewModel(sheet, rng=self.rng, journal=journal, parent=parent), path, stamp)
        self.last_folder = path.parent
        self.settings.add_recent(path)
        return [opened]

    def recover(self, doc: files.Document, entry: AutosaveEntry, parent: QObject | None = None) -> OpenSheet:
        """A sheet recovered from the autosave ``entry``: modified until saved, to its user's file.

        The copy names its file (``entry.source``) and that file's digest when the work started. If the
        file is still exactly that, it is the version the recovered work replaces: « Enregistrer »
        writes over it unless someone changes it meanwhile (then the changed-on-disk question). If it
        is not (changed since, gone, or a copy that names no digest: its ``source`` alone could name
        any file), « Enregistrer » first asks whether to write there.
        """
        journal = tuple(doc.journals[0]) if doc.journals else ()
        vm = SheetViewModel(doc.sheets[0], rng=self.rng, journal=journal, parent=parent)
        source = entry.source
        stamp = files.digest_of(source) if source is not None else None
        trusted = stamp is not None and bool(entry.source_sha256) and stamp.sha256 == entry.source_sha256
        return OpenSheet(
            vm,
            source,
            stamp,
            differs_from_file=True,
            autosaved=(vm.sheet, vm.journal),
            recovered_from=entry,
            confirm_path=source is not None and not trusted,
        )

    def save(self, doc: OpenSheet, window: QWidget | None) -> bool:
        if doc.path is None:
            return self.save_as(doc, window)
        if doc.confirm_path and not prompts.confirm(
            window,
            self.tr("Enregistrer la fiche récupérée"),
            self.tr(
                "Cette fiche a été récupérée d'une sauvegarde automatique qui indique le fichier :\n{0}\n\n"
                "Ce fichier n'est plus celui d'où venait la fiche (il a changé depuis, ou la sauvegarde "
                "ne permet pas de le vérifier). L'enregistrer là remplacera son contenu."
            ).format(doc.path),
            self.tr("Enregistrer dans ce fichier"),
        ):
            return False
        doc.confirm_path = False
        return self._write(doc, doc.path, doc.stamp, window)

    def save_as(self, doc: OpenSheet, window: QWidget | None) -> bool:
        folder = doc.path.parent if doc.path else self.last_folder
        path = prompts.save_path(window, folder / suggested_name(doc.vm.sheet))
        if path is None:
            return False
        # A new name: whatever is there was chosen by the user in the dialog (it asked about overwriting).
        return self._write(doc, path, None, window)

    def _write(self, doc: OpenSheet, path: Path, expected: files.FileStamp | None, window: QWidget | None) -> bool:
        try:
            stamp = files.write_document(path, doc.document(), expected=expected)
        except files.ReadOnly as exc:
            if prompts.confirm(
                window,
                self.tr("Fichier en lecture seule"),
                exc.message + "\n\n" + self.tr("Enregistrer la fiche sous un autre nom ?"),
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

    def reload(self, doc: OpenSheet, window: QWidget | None) -> OpenSheet | None:
        """Replace the tab's sheet by its file as it is on disk; its undo history starts over.

        Returns the document now showing the file (``doc`` itself, or a new one when the file holds a
        sheet of another system: ``replaced`` is emitted), or None if the file cannot be read (shown;
        the tab keeps its sheet).
        """
        if doc.path is None:
            return None
        read = self._read_sheet(doc.path, window)
        if read is None:
            return None
        sheet, journal, stamp = read
        if sheet.system != doc.vm.sheet.system:
            new = OpenSheet(SheetViewModel(sheet, rng=self.rng, journal=journal), doc.path, stamp)
            new.autosave_key, new.recovered_from = doc.autosave_key, doc.recovered_from
            self.replaced.emit(doc, new)
            self.reloaded.emit(new)
            return new
        doc.vm.replace_sheet(sheet, journal)
        doc.vm.undo_stack.setClean()
        doc.stamp = stamp
        doc.differs_from_file = False
        doc.confirm_path = False  # the tab now holds that very file
        self.reloaded.emit(doc)
        return doc

    def close(self, doc: OpenSheet, window: QWidget | None) -> bool:
        """Whether ``doc`` may close (asks about unsaved changes; saving may be cancelled)."""
        if doc.is_modified():
            answer = prompts.save_changes(window, doc.display_name())
            if answer is None:
                return False
            if answer == "save" and not self.save(doc, window):
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

    saved = Signal(object, object)  # OpenSheet, AutosaveEntry
    failed = Signal(str)

    def __init__(
        self,
        store: AutosaveStore,
        interval_ms: int,
        documents: Callable[[], Iterable[OpenSheet]],
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.store = store
        self._documents = documents
        self.timer = QTimer(self)
        self.timer.setObjectName("autosaveTimer")
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self.save_all)
        # The session says it is alive every few seconds (``AutosaveStore.heartbeat``): after a crash,
        # its copies are offered even if another window saved their file in the meantime.
        self.heartbeat = QTimer(self)
        self.heartbeat.setObjectName("autosaveHeartbeat")
        self.heartbeat.setInterval(min(interval_ms, HEARTBEAT_MS))
        self.heartbeat.timeout.connect(store.heartbeat)
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

    def save(self, doc: OpenSheet) -> bool:
        """Copy ``doc`` to the store if it has unsaved changes the copy lacks; True if written."""
        if not doc.is_modified():
            self.discard(doc)  # back to its saved state (undone): the copy would only mislead
            return False
        state = (doc.vm.sheet, doc.vm.journal)
        if doc.autosaved is not None and doc.autosaved[0] is state[0] and doc.autosaved[1] == state[1]:
            return False
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

    def discard(self, doc: OpenSheet) -> None:
        """Drop ``doc``'s copy (saved by the user, closed cleanly, or back to its saved state)."""
        if doc.autosave_key is not None:
            try:
                self.store.discard(doc.autosave_key)
            except OSError as exc:  # the store's folder gone bad: the copy stays, ``clean`` drops it later
                log.warning("autosave not discarded: %s", exc)
        self._forget_recovered(doc)
        doc.autosave_key = None
        doc.autosaved = None

    def _forget_recovered(self, doc: OpenSheet) -> None:
        """Remove the crash's copy ``doc`` was recovered from (superseded by our copy or a save)."""
        entry, doc.recovered_from = doc.recovered_from, None
        if entry is not None:
            try:
                self.store.remove(entry)
            except (OSError, ValueError) as exc:
                log.warning("recovered autosave not removed: %s", exc)
