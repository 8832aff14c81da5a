"""The questions the print commands ask (tests replace these functions, so nothing blocks).

``preview`` shows Qt's print preview (``QPrintPreviewDialog``): the user sees the pages, picks a
printer, the paper (A4, Letter…) and prints; what is drawn comes from ``ui.printing.render``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtPrintSupport import QPrinter, QPrintPreviewDialog
from PySide6.QtWidgets import QFileDialog, QInputDialog, QWidget

import rules
from ui.printing.blocks import Printout
from ui.printing.render import PrintError, page_layout, render

PDF_FILTER = "Documents PDF (*.pdf);;Tous les fichiers (*)"


def _tr(text: str) -> str:
    return QCoreApplication.translate("Printing", text)


def make_printer(page: str = "a4") -> QPrinter:
    """A high-resolution printer set to ``page`` (``a4`` or ``letter``), portrait, with our margins."""
    printer = QPrinter(QPrinter.PrinterMode.HighResolution)
    printer.setPageLayout(page_layout(page))
    printer.setDocName(_tr("Fiche de personnage"))
    printer.setCreator("sheet_app")
    return printer


def make_preview(parent: QWidget | None, printouts: Sequence[Printout], page: str = "a4") -> QPrintPreviewDialog:
    """The print preview of ``printouts``, not yet shown (its printer is ``dialog.printer()``)."""
    printer = make_printer(page)
    dialog = QPrintPreviewDialog(printer, parent)
    dialog.setWindowTitle(_tr("Aperçu avant impression"))
    dialog.setProperty("pages_painted", 0)

    def paint(target: QPrinter) -> None:
        try:
            dialog.setProperty("pages_painted", render(printouts, target))
        except PrintError as exc:
            dialog.setProperty("print_error", str(exc))

    dialog.paintRequested.connect(paint)
    # QPrinter is no QObject: the dialog does not keep it alive, so it rides on the dialog's wrapper.
    dialog._printer = printer  # type: ignore[attr-defined]
    return dialog


def preview(parent: QWidget | None, printouts: Sequence[Printout], page: str = "a4") -> bool:
    """Show the print preview (modal); True when the user printed."""
    dialog = make_preview(parent, printouts, page)
    accepted = dialog.exec() == QPrintPreviewDialog.DialogCode.Accepted
    dialog.deleteLater()
    return accepted


def ask_pdf_path(parent: QWidget | None, suggested: Path) -> Path | None:
    """Where to export the PDF (``.pdf`` added when the name has no extension); None: cancelled."""
    # Qt's own dialog, translated with the app (never the desktop's, in its own language): issue 10 item 18.
    name, _ = QFileDialog.getSaveFileName(
        parent, _tr("Exporter en PDF"), str(suggested), _tr(PDF_FILTER), "", QFileDialog.Option.DontUseNativeDialog
    )
    if not name:
        return None
    path = Path(name)
    if not path.suffix:
        path = path.with_name(path.name + ".pdf")
    return path


def ask_blank_system(parent: QWidget | None, current: str | None = None) -> str | None:
    """Which system's blank sheet to print; None: cancelled."""
    labels = [rules.describe(s).label for s in rules.SYSTEMS]
    start = rules.SYSTEMS.index(current) if current in rules.SYSTEMS else 0
    label, ok = QInputDialog.getItem(
        parent,
        _tr("Imprimer une fiche vierge"),
        _tr("Système de règles de la fiche vierge :"),
        labels,
        start,
        False,
    )
    if not ok or label not in labels:
        return None
    return rules.SYSTEMS[labels.index(label)]
