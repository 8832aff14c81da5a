"""Printing to a PDF file, for the command line and the window alike (issue 12).

``write_pdf(path, printouts, page)`` renders in memory (``ui.printing.render``) then writes the file
atomically: a failure leaves the old file as it was. ``check_output`` refuses a target that is a
folder, one of the documents being printed, or an existing file that is not a PDF: printing never
destroys a sheet by a slip of the command line.
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Iterable, Sequence
from pathlib import Path

import rules
from sheet_app import files
from ui.printing.blocks import Printout
from ui.printing.render import PrintError, pdf_bytes


class PrintProblem(Exception):
    """Printing could not be done; ``message`` is French and names the file."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve() or (a.exists() and b.exists() and os.path.samefile(a, b))
    except OSError:
        return False


def check_output(path: Path, inputs: Iterable[Path] = ()) -> None:
    """Raise ``PrintProblem`` if writing the PDF to ``path`` would lose something."""
    shown = str(path)
    if path.is_dir():
        raise PrintProblem(f"« {shown} » est un dossier : donnez un nom de fichier PDF (par exemple fiches.pdf).")
    for source in inputs:
        if _same_file(path, Path(source)):
            raise PrintProblem(
                f"« {shown} » est aussi un des fichiers à imprimer : le PDF l'écraserait. Rien n'a été écrit."
            )
    if path.exists():
        try:
            with open(path, "rb") as handle:
                head = handle.read(5)
        except OSError as exc:
            raise PrintProblem(
                f"« {shown} » : lecture impossible ({rules.os_reason(exc)}) ; rien n'a été écrit."
            ) from None
        if head and head != b"%PDF-":
            raise PrintProblem(
                f"« {shown} » existe et n'est pas un PDF : rien n'a été écrit (choisissez un autre nom)."
            )
    if not path.parent.exists():
        raise PrintProblem(f"« {shown} » : le dossier « {path.parent} » n'existe pas ; rien n'a été écrit.")


def write_pdf(
    path: Path | str,
    printouts: Sequence[Printout],
    page: str = "a4",
    *,
    inputs: Iterable[Path] = (),
    today: dt.date | None = None,
) -> int:
    """Write ``printouts`` as one PDF at ``path``; the number of pages. ``PrintProblem`` on failure."""
    path = Path(path)
    check_output(path, inputs)
    try:
        data, pages = pdf_bytes(printouts, page, today=today)
    except PrintError as exc:
        raise PrintProblem(str(exc)) from None
    target = Path(os.path.realpath(path)) if path.is_symlink() else path
    try:
        files.atomic_write(target, data)
    except OSError as exc:
        raise PrintProblem(f"« {path} » : écriture impossible ({rules.os_reason(exc)}) ; rien n'a été écrit.") from None
    return pages
