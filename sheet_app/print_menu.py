"""Fichier › Imprimer… (Ctrl+P), Exporter en PDF…, Imprimer une fiche vierge…, Format du papier.

``PrintCommands(window, file_menu)`` adds these entries where the file menu stands when it is built.
What is printed is the document of the current tab: a tab widget that has ``printable_document()``
(the GM table) gives its ``files.Document``; a sheet tab gives its sheet and journal. Printing reads the
document and never changes it (not its data, not its modified flag, not its undo history).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QMenu

from sheet_app import files
from ui.common import guard, prompts
from ui.common.shortcuts import new_action

if TYPE_CHECKING:
    from ui.printing.blocks import Printout

# The printing code (its layout, renderer, dialogs and Qt's print support) is imported when a print
# entry is used, not at start-up: ``_dialogs()`` and ``_layout()``.


def _dialogs() -> Any:
    from ui.printing import dialogs

    return dialogs


def _layout() -> Any:
    from ui.printing import layout

    return layout


PAPERS = (("a4", "A4"), ("letter", "Letter (US)"))


class PrintCommands(QObject):
    """The print entries of the main window's file menu, and what they do."""

    def __init__(self, window: Any, menu: QMenu) -> None:
        super().__init__(window)
        self.window = window
        self.page = "a4"
        self.act_print = new_action(self.tr("&Imprimer…"), window)
        self.act_print.setObjectName("actPrint")
        self.act_print.setShortcut(QKeySequence(QKeySequence.StandardKey.Print))
        self.act_print.setToolTip(self.tr("Aperçu puis impression du document de l'onglet courant."))
        guard.connect(self.act_print.triggered, self.print_current)
        self.act_pdf = new_action(self.tr("E&xporter en PDF…"), window)
        self.act_pdf.setObjectName("actExportPdf")
        guard.connect(self.act_pdf.triggered, self.export_pdf)
        self.act_blank = new_action(self.tr("Imprimer une fiche &vierge…"), window)
        self.act_blank.setObjectName("actPrintBlank")
        guard.connect(self.act_blank.triggered, self.print_blank)
        for action in (self.act_print, self.act_pdf, self.act_blank):
            window.addAction(action)  # the shortcut works wherever the focus is
        menu.addSeparator()
        menu.addAction(self.act_print)
        menu.addAction(self.act_pdf)
        menu.addAction(self.act_blank)
        self.paper_menu = menu.addMenu(self.tr("For&mat du papier"))
        self.paper_group = QActionGroup(self)
        self.paper_actions: dict[str, QAction] = {}
        for page, label in PAPERS:
            action = self.paper_menu.addAction(label)
            action.setCheckable(True)
            action.setChecked(page == self.page)
            action.setObjectName(f"actPaper_{page}")
            guard.connect(action.triggered, lambda _=False, p=page: self.set_page(p))
            self.paper_group.addAction(action)
            self.paper_actions[page] = action
        menu.aboutToShow.connect(self.update)
        guard.connect(window.tabs.currentChanged, lambda _index: self.update())
        self.update()

    # --- what to print ---------------------------------------------------------------------------

    def current_document(self) -> tuple[Any, str] | None:
        """The document of the current tab and its name, or None when no document is open."""
        widget = self.window.tabs.currentWidget()
        printable = getattr(widget, "printable_document", None)
        if callable(printable):
            document = printable()
            return document, document.title or self.tr("Table de meneur")
        sheet_vm = getattr(widget, "vm", None)
        if sheet_vm is not None and hasattr(sheet_vm, "sheet"):
            # A sheet tab: a sheet document's, or a table's creature's (that creature's sheet).
            name = sheet_vm.sheet.name or self.tr("Fiche")
            house = [sheet_vm.house] if getattr(sheet_vm, "house", None) is not None else []
            return files.Document("sheet", [sheet_vm.sheet], [list(sheet_vm.journal)], house=house), name
        doc = self.window.current_doc()
        if doc is None:
            return None
        return doc.document(), doc.display_name()

    def printouts(self) -> list[Printout]:
        current = self.current_document()
        if current is None:
            return []
        document, _name = current
        return list(_layout().document_printouts(document, gm_view=self.window.act_gm.isChecked()))

    def update(self) -> None:
        has = self.current_document() is not None
        self.act_print.setEnabled(has)
        self.act_pdf.setEnabled(has)

    def set_page(self, page: str) -> None:
        self.page = page
        self.paper_actions[page].setChecked(True)

    # --- commands --------------------------------------------------------------------------------

    def print_current(self) -> bool:
        printouts = self.printouts()
        if not printouts:
            return False
        return bool(_dialogs().preview(self.window, printouts, self.page))

    def export_pdf(self) -> Path | None:
        current = self.current_document()
        if current is None:
            return None
        document, name = current
        printouts = _layout().document_printouts(document, gm_view=self.window.act_gm.isChecked())
        stem = re.sub(r"[^\w\-]+", "_", name, flags=re.UNICODE).strip("_").lower() or "fiche"
        folder = getattr(self.window.controller, "last_folder", Path.home())
        path = _dialogs().ask_pdf_path(self.window, Path(folder) / f"{stem}.pdf")
        if path is None:
            return None
        from sheet_app.printing import PrintProblem, write_pdf

        try:
            pages = write_pdf(path, printouts, self.page)
        except PrintProblem as exc:
            prompts.show_error(self.window, self.tr("Export en PDF impossible"), exc.message)
            return None
        self.window.statusBar().showMessage(self.tr("PDF enregistré : {0} ({1} page(s))").format(path, pages), 8000)
        return path

    def print_blank(self) -> bool:
        # The current sheet's system first (a sheet tab, or a table creature's); a table has no one system.
        sheet = getattr(getattr(self.window.tabs.currentWidget(), "vm", None), "sheet", None)
        system_id = _dialogs().ask_blank_system(self.window, getattr(sheet, "system", None))
        if system_id is None:
            return False
        return bool(_dialogs().preview(self.window, [_layout().blank_printout(system_id)], self.page))
