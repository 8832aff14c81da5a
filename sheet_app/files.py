"""Sheet and GM-table files (pure Python, no Qt): read, validate, write atomically.

API used by the windows (kept stable; issue « Files you can trust » hardens the inside):

    doc = read_document(path)            -> Document (kind "sheet" or "table"), or raises FileProblem
    stamp = write_document(path, doc, expected=stamp_or_None)
                                         -> FileStamp; raises FileProblem, or ChangedOnDisk if the file
                                            changed since ``expected`` was taken
    check_files(paths)                   -> list of (path, French message or None)

``FileProblem.message`` is French and names the file and what is wrong.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import rules

FORMAT_VERSION = 1
SHEET_SUFFIX = ".fiche.json"
TABLE_SUFFIX = ".table.json"
MAX_FILE_BYTES = 20_000_000


class FileProblem(Exception):
    """A file that cannot be read or written; ``message`` is French and names the file."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class ChangedOnDisk(FileProblem):
    """The file was changed by someone else since it was opened."""


@dataclass(frozen=True)
class FileStamp:
    """What we knew of a file when we read or wrote it (to notice changes by others)."""

    mtime_ns: int
    size: int


@dataclass
class Document:
    """What one file holds: one sheet (kind "sheet") or many (kind "table"), with their journals."""

    kind: str
    sheets: list[Any]
    journals: list[list[str]] = field(default_factory=list)
    title: str = ""


def stamp_of(path: Path) -> FileStamp:
    st = path.stat()
    return FileStamp(st.st_mtime_ns, st.st_size)


def read_document(path: Path) -> tuple[Document, FileStamp]:
    path = Path(path)
    try:
        if path.is_dir():
            raise FileProblem(f"{path} : c'est un dossier, pas une fiche.")
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise FileProblem(f"{path} : fichier trop gros ({size} octets ; au plus {MAX_FILE_BYTES}).")
        raw = path.read_bytes()
        stamp = stamp_of(path)
    except OSError as exc:
        raise FileProblem(f"{path} : lecture impossible ({exc.strerror or exc}).") from None
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise FileProblem(f"{path} : le fichier n'est pas du texte UTF-8.") from None
    except json.JSONDecodeError as exc:
        raise FileProblem(f"{path} : ligne {exc.lineno} : JSON invalide ({exc.msg}).") from None
    if not isinstance(data, dict):
        raise FileProblem(f"{path} : le fichier ne décrit pas une fiche.")
    kind = data.get("kind", "sheet")
    try:
        if kind == "table":
            sheets = [rules.sheet_from_data(s) for s in data.get("sheets", [])]
            journals = [list(j) for j in data.get("journals", [[] for _ in sheets])]
            return Document("table", sheets, journals, str(data.get("title", ""))), stamp
        sheet = rules.sheet_from_data(data.get("sheet", data))
        return Document("sheet", [sheet], [list(data.get("journal", []))]), stamp
    except rules.Refused as exc:
        raise FileProblem(f"{path} : {exc.reason}") from None


def document_data(doc: Document) -> dict[str, Any]:
    if doc.kind == "table":
        return {
            "format": FORMAT_VERSION,
            "kind": "table",
            "title": doc.title,
            "sheets": [rules.sheet_to_data(s) for s in doc.sheets],
            "journals": doc.journals,
        }
    sheet = doc.sheets[0]
    return {
        "format": FORMAT_VERSION,
        "kind": "sheet",
        "system": sheet.system,
        "sheet": rules.sheet_to_data(sheet),
        "journal": doc.journals[0] if doc.journals else [],
    }


def write_document(path: Path, doc: Document, expected: FileStamp | None = None) -> FileStamp:
    """Write atomically (temp file in the same folder, fsync, ``os.replace``)."""
    path = Path(path)
    if expected is not None and path.exists() and stamp_of(path) != expected:
        raise ChangedOnDisk(f"{path} : le fichier a été modifié ailleurs depuis son ouverture.")
    text = json.dumps(document_data(doc), ensure_ascii=False, indent=2) + "\n"
    folder = path.parent if str(path.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(text)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError as exc:
        raise FileProblem(f"{path} : écriture impossible ({exc.strerror or exc}).") from None
    return stamp_of(path)


def check_files(paths: list[Path]) -> list[tuple[Path, str | None]]:
    results: list[tuple[Path, str | None]] = []
    for path in paths:
        try:
            read_document(Path(path))
            results.append((Path(path), None))
        except FileProblem as exc:
            results.append((Path(path), exc.message))
    return results
