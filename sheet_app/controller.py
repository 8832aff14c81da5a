"""Opening, saving and closing sheets: every path between a tab and its file goes through here.

The window asks; this module talks to ``sheet_app.files`` (atomic writes, refusal to overwrite a file
changed on disk) and to the user through ``ui.prompts``. Autosave and crash recovery (issue 7) hook in
here: ``saved`` and ``closed`` say when a document's autosave can be dropped.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QWidget

from sheet_app import files
from sheet_app.settings import Settings, documents_dir
from ui import prompts
from ui.viewmodel import SheetViewModel


@dataclass
class OpenSheet:
    """One open sheet: its view-model, and the file it came from (None until first saved)."""

    vm: SheetViewModel
    path: Path | None = None
    stamp: files.FileStamp | None = None

    def display_name(self) -> str:
        return self.vm.sheet.name or (self.path.name if self.path else "Sans nom")

    def is_modified(self) -> bool:
        return not self.vm.undo_stack.isClean() or (self.path is None and self.vm.journal != ())

    def document(self) -> files.Document:
        return files.Document("sheet", [self.vm.sheet], [list(self.vm.journal)])


def suggested_name(sheet: Any) -> str:
    base = re.sub(r"[^\w\-]+", "_", sheet.name or "fiche", flags=re.UNICODE).strip("_") or "fiche"
    return base.lower() + files.SHEET_SUFFIX


class DocumentController(QObject):
    """Open, save, save as, close (with the questions they need)."""

    saved = Signal(object)  # OpenSheet
    closed = Signal(object)  # OpenSheet

    def __init__(self, settings: Settings, rng: random.Random, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.settings = settings
        self.rng = rng
        self.last_folder = documents_dir()

    def new(self, sheet: Any, journal: tuple[str, ...] = (), parent: QObject | None = None) -> OpenSheet:
        return OpenSheet(SheetViewModel(sheet, rng=self.rng, journal=journal, parent=parent))

    def open(self, path: Path, window: QWidget | None, parent: QObject | None = None) -> list[OpenSheet] | None:
        """Read ``path``; a problem is shown (French, names the file) and ``None`` returned."""
        path = Path(path)
        try:
            doc, stamp = files.read_document(path)
        except files.FileProblem as exc:
            prompts.show_error(window, self.tr("Ouverture impossible"), exc.message)
            if not path.exists():
                self.settings.remove_recent(path)
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
        opened = OpenSheet(SheetViewModel(doc.sheets[0], rng=self.rng, journal=journal, parent=parent), path, stamp)
        self.last_folder = path.parent
        self.settings.add_recent(path)
        return [opened]

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
            return False
        except files.FileProblem as exc:
            prompts.show_error(window, self.tr("Enregistrement impossible"), exc.message)
            return False
        doc.path, doc.stamp = path, stamp
        doc.vm.undo_stack.setClean()
        self.last_folder = path.parent
        self.settings.add_recent(path)
        self.saved.emit(doc)
        return True

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
