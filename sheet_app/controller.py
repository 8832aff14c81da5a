"""Opening, saving and closing sheets: every path between a tab and its file goes through here.

The window asks; this module talks to ``sheet_app.files`` (atomic writes, refusal to overwrite a file
changed on disk) and to the user through ``ui.prompts``. Autosave and crash recovery (issue 7) hook in
here: ``saved`` and ``closed`` say when a document's autosave can be dropped, ``Autosaver`` keeps the
copies (``sheet_app.autosave``) and ``recover`` reopens one after a crash.
"""

from __future__ import annotations

import hashlib
import logging
import os
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
from sheet_app.settings import Settings, start_folder
from ui.common import guard, prompts
from ui.sheet.viewmodel import SheetViewModel

log = logging.getLogger(__name__)


@dataclass(eq=False)
class OpenSheet:
    """One open document (a sheet): its view-model, and the file it came from (None until first saved).

    A document without a file is always « modified » (closing or quitting asks, the autosave keeps
    it), except an untouched demo copy, which the shipped file already holds.
    ``differs_from_file``: the sheet at the undo stack's clean point is not what the file holds (a
    sheet recovered from an autosave): modified until saved. ``autosave_key``: its copy in the
    autosave store, if one was made; ``autosaved``: the (sheet, journal) that copy holds.
    """

    vm: SheetViewModel
    path: Path | None = None
    stamp: files.FileStamp | None = None
    differs_from_file: bool = False
    autosave_key: str | None = None
    autosaved: tuple[Any, tuple[str, ...]] | None = None
    demo: bool = False

    def display_name(self) -> str:
        return self.vm.sheet.name or (self.path.name if self.path else "Sans nom")

    def is_modified(self) -> bool:
        if self.differs_from_file or not self.vm.undo_stack.isClean():
            return True
        return self.path is None and not self.demo

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
        self.last_folder = start_folder(settings)

    def new(
        self, sheet: Any, journal: tuple[str, ...] = (), parent: QObject | None = None, *, demo: bool = False
    ) -> OpenSheet:
        """A document without a file; ``demo``: a copy of a shipped demo (unmodified until changed)."""
        return OpenSheet(SheetViewModel(sheet, rng=self.rng, journal=journal, parent=parent), demo=demo)

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
                ).format(path.name, len(doc.sheets)),
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

        The file is taken as it is now as the version the recovered work replaces: « Enregistrer »
        writes over it unless someone changes it meanwhile (then the changed-on-disk question).
        """
        journal = tuple(doc.journals[0]) if doc.journals else ()
        vm = SheetViewModel(doc.sheets[0], rng=self.rng, journal=journal, parent=parent)
        source = entry.source
        stamp = _stamp_now(source) if source is not None else None
        return OpenSheet(
            vm,
            source,
            stamp,
            differs_from_file=True,
            autosave_key=entry.key,
            autosaved=(vm.sheet, vm.journal),
        )

    def save(self, doc: OpenSheet, window: QWidget | None) -> bool:
        if doc.path is None:
            return self.save_as(doc, window)
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
            new.autosave_key = doc.autosave_key
            self.replaced.emit(doc, new)
            self.reloaded.emit(new)
            return new
        doc.vm.replace_sheet(sheet, journal)
        doc.vm.undo_stack.setClean()
        doc.stamp = stamp
        doc.differs_from_file = False
        self.reloaded.emit(doc)
        return doc

    def may_close(self, doc: OpenSheet, window: QWidget | None) -> bool:
        """Whether ``doc`` may close: asks about unsaved changes (« Enregistrer » saves; cancelling the
        question or the save keeps it open). Nothing is closed here."""
        if doc.is_modified():
            answer = prompts.save_changes(window, doc.display_name())
            if answer is None:
                return False
            if answer == "save" and not self.save(doc, window):
                return False
        return True

    def close(self, doc: OpenSheet, window: QWidget | None) -> bool:
        """Whether ``doc`` may close (asks about unsaved changes; saving may be cancelled)."""
        if not self.may_close(doc, window):
            return False
        self.closed.emit(doc)
        return True


def _stamp_now(path: Path) -> files.FileStamp | None:
    """What ``path`` is now, with its content's digest (None if it is not there or cannot be read)."""
    try:
        with open(path, "rb") as handle:
            st = os.fstat(handle.fileno())
            data = handle.read(files.MAX_FILE_BYTES + 1)
    except OSError:
        return None
    return files.FileStamp(st.st_mtime_ns, len(data), hashlib.sha256(data).hexdigest())


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
        guard.connect(self.timer.timeout, self.save_all)
        self.last_saved: datetime | None = None

    def start(self) -> None:
        self.timer.start()

    def stop(self) -> None:
        self.timer.stop()

    def save_all(self) -> int:
        """Autosave every open document that needs it; the number of copies written."""
        return sum(self.save(doc) for doc in list(self._documents()))

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
        try:
            entry = self.store.save(doc.autosave_key, doc.document(), doc.path)
        except files.FileProblem as exc:
            log.warning("autosave failed: %s", exc.message)
            self.failed.emit(exc.message)
            return False
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
        doc.autosave_key = None
        doc.autosaved = None
