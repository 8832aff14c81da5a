"""Sheet and GM-table files (pure Python, no Qt): read, validate, migrate, write atomically.

API used by the windows and the command line (kept stable)::

    doc, stamp = read_document(path)     -> Document (kind "sheet" or "table") and what we saw of the
                                            file; raises FileProblem (French, names the file and the line)
    stamp = write_document(path, doc, expected=stamp_or_None)
                                         -> FileStamp; raises FileProblem (old file intact), or
                                            ChangedOnDisk if the file changed since ``expected`` was taken
    check_files(paths)                   -> list of (path, French message or None)

In memory, without touching the disk: ``encode_document(doc) -> bytes`` and
``decode_document(raw, name) -> Document`` (what the two above use; the fuzz and round-trip tests
call them directly).

The format is described in ``docs/file-format.md``: human-readable UTF-8 JSON, an envelope (format
version, kind, system id, the sheet_app version that wrote it) around each sheet's data as the rules
facade gives it. No code ever runs from a file: JSON only, validated by pydantic models.
"""

from __future__ import annotations

import codecs
import errno
import functools
import hashlib
import json
import operator
import os
import re
import secrets
import stat
import weakref
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal, TypeAlias

from pydantic import BaseModel, ConfigDict, Field, Strict, TypeAdapter, ValidationError, create_model

import rules
from sheet_app import __version__ as APP_VERSION

# --------------------------------------------------------------------------------------------------
# Format and limits (documented in docs/file-format.md)
# --------------------------------------------------------------------------------------------------

FORMAT_VERSION = 1
# The sheet_app version that introduced each format: a file names the one it needs, so an older
# sheet_app that meets a newer file can say which version to install.
FORMAT_INTRODUCED_IN: dict[int, str] = {0: "0.0 (avant publication)", 1: "0.1.0"}

SHEET_SUFFIX = ".fiche.json"
TABLE_SUFFIX = ".table.json"

MAX_FILE_BYTES = 32 * 1024 * 1024  # refused before reading further (a 1,000-NPC table is ~2 Mo)
MAX_TABLE_SHEETS = 10_000
MAX_JOURNAL_LINES = 100_000  # per sheet
MAX_JOURNAL_LINE = 10_000  # characters
MAX_TITLE = 200
MAX_NOTE = 2000  # a table row's note
MAX_INITIATIVE = 10_000
MAX_ROUND = 1_000_000
MAX_PROBLEM_LINES = 12  # lines listed in one message; the rest are counted

Location: TypeAlias = tuple[str | int, ...]


class FileProblem(Exception):
    """A file that cannot be read or written; ``message`` is French and names the file.

    ``details`` lists the problems one per line (``« ligne 12 : « niveau » : doit être … »``) when
    there are several; ``path`` is the file concerned.
    """

    def __init__(self, message: str, *, path: Path | str | None = None, details: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.message = message
        self.path = Path(path) if path is not None else None
        self.details = list(details)


class ChangedOnDisk(FileProblem):
    """The file was changed by someone else since it was opened (offer reload, save as, overwrite)."""


@dataclass(frozen=True)
class FileStamp:
    """What we knew of a file when we read or wrote it (to notice changes made by others).

    Two stamps are equal when modification time and size are; ``sha256`` (the content's digest, when
    known) lets ``changed_since`` tell a file merely touched from one really rewritten.
    """

    mtime_ns: int
    size: int
    sha256: str = field(default="", compare=False)


@dataclass
class TableTracker:
    """What a GM table keeps beside its sheets: each row's initiative and note (``rows[i]`` goes with
    ``sheets[i]``; may be shorter), the fight's round (0: no fight), whose turn it is and whose turn has
    started this round (row numbers from 0), and the table's own journal."""

    rows: list[tuple[int | None, str]] = field(default_factory=list)
    round: int = 0
    turn: int | None = None
    started: list[int] = field(default_factory=list)
    journal: list[str] = field(default_factory=list)

    def is_empty(self) -> bool:
        return self == TableTracker()


@dataclass
class Document:
    """What one file holds: one sheet (kind "sheet") or many (kind "table"), with their journals.

    ``journals[i]`` is the journal of ``sheets[i]`` (lines of text, in the order the app keeps them).
    ``migrated_from`` is the older format version the file was converted from on reading, if any:
    saving it writes the current format. ``tracker``: a table's initiatives, notes, round and journal
    (None when it has none).
    """

    kind: str
    sheets: list[Any]
    journals: list[list[str]] = field(default_factory=list)
    title: str = ""
    migrated_from: int | None = None
    tracker: TableTracker | None = None


# --------------------------------------------------------------------------------------------------
# Envelope models (format 1). The sheet itself is validated by the rules facade.
# --------------------------------------------------------------------------------------------------

JournalLine = Annotated[str, Field(max_length=MAX_JOURNAL_LINE)]
Journal = Annotated[list[JournalLine], Field(max_length=MAX_JOURNAL_LINES)]
Version = Annotated[str, Field(max_length=40)]


class _Envelope(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    # Strict: ``1.0`` or ``true`` are not a format number.
    format: Annotated[int, Strict(), Field(ge=FORMAT_VERSION, le=FORMAT_VERSION)] = Field(
        description="Version du format de fichier.", json_schema_extra={"const": FORMAT_VERSION}
    )
    app: Version = Field("", description="Version de sheet_app qui a écrit le fichier (information).")
    needs: Version = Field("", description="Plus ancienne version de sheet_app qui sait lire ce format.")


class SheetFile(_Envelope):
    """Une fiche de personnage : un fichier ``.fiche.json``."""

    kind: Literal["sheet"] = Field(description="« sheet » : une fiche.")
    system: str = Field(max_length=40, description="Identifiant du système de règles (douaratil, d20…).")
    sheet: dict[str, Any] = Field(description="La fiche, telle que le cœur des règles la décrit.")
    journal: Journal = Field(default_factory=list, description="Le journal de la fiche, une ligne par entrée.")


class TableRow(BaseModel):
    """Ce que la table note d'une fiche en plus de la fiche elle-même."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    initiative: int | None = Field(None, ge=-MAX_INITIATIVE, le=MAX_INITIATIVE, description="Initiative (ou rien).")
    note: str = Field("", max_length=MAX_NOTE, description="Note libre du meneur.")


class TableFile(_Envelope):
    """Une table de meneur : plusieurs fiches (PJ, PNJ, monstres) dans un fichier ``.table.json``."""

    kind: Literal["table"] = Field(description="« table » : une table de meneur.")
    title: str = Field("", max_length=MAX_TITLE, description="Titre de la table (la séance, la rencontre…).")
    systems: list[Annotated[str, Field(max_length=40)]] = Field(
        default_factory=list, max_length=100, description="Systèmes de règles des fiches (information)."
    )
    sheets: list[dict[str, Any]] = Field(max_length=MAX_TABLE_SHEETS, description="Les fiches, dans l'ordre.")
    journals: list[Journal] = Field(
        default_factory=list,
        max_length=MAX_TABLE_SHEETS,
        description="Le journal de chaque fiche, dans le même ordre (peut être plus court : journaux vides).",
    )
    rows: list[TableRow] = Field(
        default_factory=list,
        max_length=MAX_TABLE_SHEETS,
        description="Initiative et note de chaque fiche, dans le même ordre (peut être plus court).",
    )
    round: int = Field(0, ge=0, le=MAX_ROUND, description="Round du combat en cours (0 : pas de combat).")
    turn: int | None = Field(
        None, ge=0, lt=MAX_TABLE_SHEETS, description="N° (à partir de 0) de la fiche dont c'est le tour."
    )
    started: list[Annotated[int, Field(ge=0, lt=MAX_TABLE_SHEETS)]] = Field(
        default_factory=list,
        max_length=MAX_TABLE_SHEETS,
        description="N° (à partir de 0) des fiches dont le tour a commencé dans ce round.",
    )
    journal: Journal = Field(default_factory=list, description="Le journal de la table, une ligne par entrée.")


@functools.cache
def _typed(systems: tuple[str, ...]) -> TypeAdapter[Any]:
    """Both envelopes with their sheets typed as the registered systems' sheet models.

    Gives the JSON Schema, and the fast way to read a well-formed current file: pydantic parses and
    validates the whole file in one pass. Any failure there is re-read the slow way, which is the one
    that words the problem (and decides; the tests check both always agree).
    """
    sheet_types = [rules.system(s).sheet_type for s in systems]
    sheet: Any = functools.reduce(operator.or_, sheet_types)
    if len(sheet_types) > 1:
        sheet = Annotated[sheet, Field(discriminator="system")]
    sheet_model = create_model(
        "SheetFile",
        __base__=SheetFile,
        __doc__=SheetFile.__doc__,
        sheet=(sheet, Field(description="La fiche, selon son système.")),
    )
    table_model = create_model(
        "TableFile",
        __base__=TableFile,
        __doc__=TableFile.__doc__,
        sheets=(list[sheet], Field(max_length=MAX_TABLE_SHEETS, description="Les fiches, dans l'ordre.")),
    )
    return TypeAdapter(Annotated[sheet_model | table_model, Field(discriminator="kind")])


def json_schema() -> dict[str, Any]:
    """The JSON Schema of both file kinds (format ``FORMAT_VERSION``), every registered system's sheet."""
    schema = _typed(rules.SYSTEMS).json_schema(mode="validation")
    schema["title"] = "Fichier sheet_app (fiche ou table de meneur)"
    schema["$comment"] = f"Format {FORMAT_VERSION} (sheet_app {APP_VERSION})."
    return schema


_ENVELOPES: dict[str, type[_Envelope]] = {"sheet": SheetFile, "table": TableFile}

_LABELS: dict[str, str] = {
    "format": "format",
    "kind": "kind",
    "app": "app",
    "needs": "needs",
    "system": "système",
    "sheet": "fiche",
    "journal": "journal",
    "title": "titre",
    "systems": "systèmes",
    "sheets": "fiches",
    "journals": "journaux",
    "rows": "lignes",
    "initiative": "initiative",
    "note": "note",
    "round": "round",
    "turn": "tour",
    "started": "tours commencés",
}


# --------------------------------------------------------------------------------------------------
# Problems: French text naming the file, the line and what is wrong
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Issue:
    text: str
    line: int | None = None


class _Bad(Exception):
    """Internal: problems found in a file, turned into one ``FileProblem`` naming it."""

    def __init__(self, *issues: _Issue) -> None:
        super().__init__(issues)
        self.issues = list(issues)


def _problem(name: str, issues: Sequence[_Issue], cls: type[FileProblem] = FileProblem) -> FileProblem:
    lines = [f"ligne {i.line} : {i.text}" if i.line is not None else i.text for i in issues]
    shown = lines[:MAX_PROBLEM_LINES]
    if len(lines) > len(shown):
        shown.append(f"… et {len(lines) - len(shown)} autres problèmes.")
    if len(lines) == 1:
        message = f"{name} : {lines[0]}"
    else:
        message = f"{name} : {len(lines)} problèmes :\n" + "\n".join(f"  {line}" for line in shown)
    return cls(message, path=name, details=shown)


def _where(loc: Location) -> str:
    parts = [f"n° {p + 1}" if isinstance(p, int) else _LABELS.get(p, p) for p in loc]
    return "« " + " › ".join(parts) + " »" if parts else ""


_ENVELOPE_TEXTS: dict[str, str] = {
    "missing": "est obligatoire et manque",
    "extra_forbidden": "n'est pas un champ connu de ce format",
    "string_type": "doit être un texte",
    "list_type": "doit être une liste",
    "dict_type": "doit être un objet (des paires nom : valeur)",
    "model_type": "doit être un objet (des paires nom : valeur)",
    "int_type": "doit être un nombre entier",
}


def _envelope_error_text(err: dict[str, Any]) -> str:
    kind = str(err.get("type", ""))
    ctx = err.get("ctx") or {}
    if kind in _ENVELOPE_TEXTS:
        return _ENVELOPE_TEXTS[kind]
    if kind in ("too_long", "string_too_long"):
        return f"est trop long (au plus {ctx.get('max_length', '?')})"
    if kind == "literal_error":
        return f"doit valoir {ctx.get('expected', '?')}"
    return "valeur invalide"


# --------------------------------------------------------------------------------------------------
# Reading: bytes → text → JSON → migrated envelope → sheets
# --------------------------------------------------------------------------------------------------


def _os_reason(exc: OSError) -> str:
    return rules.os_reason(exc)


def _mib(size: int) -> str:
    return f"{size / (1024 * 1024):.1f}".replace(".", ",") + " Mo"


def _read_limited(path: Path) -> tuple[bytes, FileStamp]:
    """The file's bytes, refusing directories, special files and files above ``MAX_FILE_BYTES``."""
    name = str(path)
    too_big = f"fichier trop gros ({{size}} ; au plus {_mib(MAX_FILE_BYTES)}) : ce n'est sans doute pas une fiche."
    try:
        st = os.stat(path)
        if stat.S_ISDIR(st.st_mode):
            raise _problem(name, [_Issue("c'est un dossier, pas un fichier de fiche.")])
        if not stat.S_ISREG(st.st_mode):
            raise _problem(name, [_Issue("ce n'est pas un fichier ordinaire (périphérique, tube…).")])
        if st.st_size > MAX_FILE_BYTES:
            raise _problem(name, [_Issue(too_big.format(size=_mib(st.st_size)))])
        # O_NONBLOCK: if the path was swapped for a pipe since the check, opening it does not hang.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode):
                raise _problem(name, [_Issue("ce n'est pas un fichier ordinaire (périphérique, tube…).")])
            chunks: list[bytes] = []
            total = 0
            while True:
                chunk = os.read(fd, min(1 << 20, MAX_FILE_BYTES + 1 - total))
                if not chunk:
                    break
                chunks.append(chunk)
                total += len(chunk)
                if total > MAX_FILE_BYTES:
                    raise _problem(name, [_Issue(too_big.format(size=f"plus de {_mib(MAX_FILE_BYTES)}"))])
        finally:
            os.close(fd)
    except OSError as exc:
        raise _problem(name, [_Issue(f"lecture impossible : {_os_reason(exc)}.")]) from None
    except ValueError:  # e.g. a NUL character in the path
        raise _problem(name, [_Issue("nom de fichier invalide.")]) from None
    raw = b"".join(chunks)
    return raw, FileStamp(st.st_mtime_ns, len(raw), hashlib.sha256(raw).hexdigest())


def _text_of(raw: bytes) -> str:
    if raw.startswith(codecs.BOM_UTF8):
        raw = raw[len(codecs.BOM_UTF8) :]
    elif raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        raise _Bad(_Issue("le fichier est encodé en UTF-16 ; sheet_app lit des fichiers UTF-8."))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        byte = raw[exc.start]
        raise _Bad(
            _Issue(f"ce n'est pas du texte UTF-8 (octet 0x{byte:02X} inattendu) : fichier d'un autre encodage ?", line)
        ) from None
    if not text or text.isspace():
        raise _Bad(_Issue("le fichier est vide."))
    return text


_JSON_MESSAGES: tuple[tuple[str, str], ...] = (
    ("Expecting value", "une valeur est attendue ici"),
    ("Expecting ',' delimiter", "une virgule est attendue ici"),
    ("Expecting ':' delimiter", "un deux-points est attendu ici"),
    ("Expecting property name enclosed in double quotes", "un nom de champ entre guillemets droits est attendu ici"),
    ("Unterminated string starting at", "texte sans guillemet fermant"),
    ("Invalid control character", "caractère de contrôle interdit dans un texte (à écrire \\n, \\t…)"),
    ("Invalid \\uXXXX escape", "séquence \\u invalide"),
    ("Invalid \\escape", "séquence d'échappement \\ invalide"),
    ("Extra data", "données en trop après la fin du JSON"),
    ("Illegal trailing comma", "virgule en trop avant la fin de la liste ou de l'objet"),
)


class _BadConstant(ValueError):
    pass


def _refuse_constant(name: str) -> Any:
    raise _BadConstant(name)


def _line_of(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def _parse(text: str) -> Any:
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as exc:
        what = next((fr for en, fr in _JSON_MESSAGES if exc.msg.startswith(en)), "JSON invalide")
        # A text still open at the end (raw line breaks are refused inside texts) is a cut file too.
        if not text[exc.pos :].strip() or exc.msg.startswith("Unterminated string"):
            what += " (le fichier semble tronqué)"
        raise _Bad(_Issue(f"JSON invalide (colonne {exc.colno}) : {what}.", exc.lineno)) from None
    except RecursionError:
        raise _Bad(_Issue("données imbriquées trop profondément (ce n'est pas une fiche).")) from None
    except _BadConstant as exc:
        found = re.search(r"-?\b" + re.escape(str(exc).lstrip("-")) + r"\b", text)
        line = _line_of(text, found.start()) if found else None
        raise _Bad(_Issue(f"« {exc} » n'est pas un nombre JSON valide.", line)) from None
    except ValueError:
        # Python refuses integers of more than a few thousand digits (a deliberate guard).
        found = re.search(r"\d{1000,}", text)
        line = _line_of(text, found.start()) if found else None
        raise _Bad(_Issue("nombre démesuré (des milliers de chiffres).", line)) from None


_WS = re.compile(r"[ \t\n\r]*")
_LOCATOR = json.JSONDecoder(parse_constant=_refuse_constant)
_scanstring: Callable[[str, int], tuple[str, int]] = json.decoder.scanstring  # type: ignore[attr-defined]


def _skip(text: str, pos: int) -> int:
    """Position of the first non-blank character from ``pos``."""
    found = _WS.match(text, pos)
    return found.end() if found else pos


def _locate(text: str, loc: Location) -> int | None:
    """Line of the JSON text where the value at ``loc`` starts (or of the deepest part found)."""
    try:
        pos = _skip(text, 0)
        for part in loc:
            opening = text[pos]
            start = pos
            if opening == "{" and isinstance(part, str):
                found = None
                pos = _skip(text, pos + 1)
                while text[pos] != "}":
                    key, pos = _scanstring(text, pos + 1)
                    pos = _skip(text, pos) + 1
                    pos = _skip(text, pos)
                    if key == part:
                        found = pos  # keep going: with a repeated key, the last one counts
                    _, pos = _LOCATOR.raw_decode(text, pos)
                    pos = _skip(text, pos)
                    if text[pos] == ",":
                        pos = _skip(text, pos + 1)
                if found is None:  # a missing field: the object that lacks it
                    return _line_of(text, start)
                pos = found
            elif opening == "[" and isinstance(part, int):
                pos = _skip(text, pos + 1)
                for _ in range(part):
                    if text[pos] == "]":
                        return _line_of(text, start)
                    _, pos = _LOCATOR.raw_decode(text, pos)
                    pos = _skip(text, pos)
                    if text[pos] == ",":
                        pos = _skip(text, pos + 1)
            else:
                break
        return _line_of(text, pos)
    except (ValueError, IndexError, RecursionError):
        return None


class _Source:
    """The parsed file and how to find the line of a location (through the migrations applied)."""

    def __init__(self, text: str, prefix: Location = ()) -> None:
        self.text = text
        self.prefix = prefix
        # Each migration step maps a location in its output back to its input (None: not in the file).
        self.back: list[Callable[[Location], Location | None]] = []

    def line(self, loc: Location) -> int | None:
        current: Location | None = loc
        for step in reversed(self.back):
            if current is None:
                break
            current = step(current)
        if current is None:
            return None
        return _locate(self.text, self.prefix + current)

    def issue(self, loc: Location, text: str) -> _Issue:
        return _Issue(text, self.line(loc))


def _find_lone_surrogates(data: Any) -> list[Location]:
    """Texts holding half a UTF-16 pair (``"\\ud800"`` is valid JSON but no character at all)."""
    found: list[Location] = []
    stack: list[tuple[Location, Any]] = [((), data)]
    while stack and len(found) < MAX_PROBLEM_LINES:
        loc, value = stack.pop()
        if isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                found.append(loc)
        elif isinstance(value, dict):
            for key, item in value.items():
                try:
                    key.encode("utf-8")
                except UnicodeEncodeError:
                    found.append(loc)
                stack.append(((*loc, key), item))
        elif isinstance(value, list):
            stack.extend(((*loc, i), item) for i, item in enumerate(value))
    return found


# --- migrations ------------------------------------------------------------------------------------


def _format_of(data: Any, src: _Source) -> int:
    if isinstance(data, list):
        return 0  # format 0: a bare list of sheets (a table before the format had a version)
    if not isinstance(data, dict):
        raise _Bad(src.issue((), "le fichier ne décrit ni une fiche ni une table (un objet JSON est attendu)."))
    if "format" not in data:
        if "system" in data and "kind" not in data:
            return 0  # format 0: a bare sheet, as the rules facade writes it
        raise _Bad(
            src.issue((), "« format » : est obligatoire et manque (ce fichier n'est pas une fiche sheet_app ?).")
        )
    version = data["format"]
    if type(version) is not int or version < 0:
        raise _Bad(src.issue(("format",), "« format » : doit être un nombre entier positif ou nul."))
    if version > FORMAT_VERSION:
        needed = ""
        for key in ("needs", "app"):
            value = data.get(key)
            if isinstance(value, str) and re.fullmatch(r"\d+(\.\d+){1,3}", value):
                needed = value
                break
        who = f"sheet_app {needed} ou plus récent" if needed else "une version plus récente de sheet_app"
        raise _Bad(
            _Issue(
                f"ce fichier est au format {version}, plus récent que le format {FORMAT_VERSION} que lit "
                f"sheet_app {APP_VERSION} : il faut {who} pour l'ouvrir (rien n'a été modifié)."
            )
        )
    return version


def _from_v0(data: Any, src: _Source) -> dict[str, Any]:
    """Format 0 → 1: the bare sheet (or bare list of sheets) gets its envelope."""
    if isinstance(data, list):
        src.back.append(lambda loc: loc[1:] if loc[:1] == ("sheets",) else (() if not loc else None))
        return {"format": 1, "kind": "table", "title": "", "sheets": data, "journals": []}
    src.back.append(lambda loc: loc[1:] if loc[:1] == ("sheet",) else (loc if loc == ("system",) else None))
    return {"format": 1, "kind": "sheet", "system": data.get("system"), "sheet": data, "journal": []}


MIGRATIONS: dict[int, Callable[[Any, _Source], Any]] = {0: _from_v0}


def _migrate(data: Any, src: _Source) -> tuple[Any, int | None]:
    version = _format_of(data, src)
    start = version
    while version < FORMAT_VERSION:
        data = MIGRATIONS[version](data, src)
        version += 1
    return data, (start if start < FORMAT_VERSION else None)


# --- envelope and sheets ---------------------------------------------------------------------------


def _envelope(data: dict[str, Any], src: _Source) -> _Envelope:
    kind = data.get("kind")
    model = _ENVELOPES.get(kind) if isinstance(kind, str) else None
    if model is None:
        raise _Bad(
            src.issue(("kind",), "« kind » : doit valoir « sheet » (une fiche) ou « table » (une table de meneur).")
        )
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        issues = []
        for err in exc.errors(include_url=False):
            loc: Location = tuple(err["loc"])
            issues.append(src.issue(loc, f"{_where(loc)} : {_envelope_error_text(dict(err))}"))
        raise _Bad(*issues) from None


def _unknown_system(system_id: str) -> str:
    known = ", ".join(rules.SYSTEMS)
    return (
        f"« système » : inconnu « {system_id} » (systèmes disponibles : {known} ; "
        "le fichier vient peut-être d'une version plus récente de sheet_app)."
    )


def _sheets(entries: Sequence[tuple[Location, dict[str, Any], str | None]], src: _Source, label: bool) -> list[Any]:
    """Validate each sheet through the facade; collect every problem with its line."""
    sheets: list[Any] = []
    issues: list[_Issue] = []
    for where, data, expected_system in entries:
        system_id = data.get("system")
        who = ""
        if label:
            name = data.get("name")
            shown = f" « {name[:60]} »" if isinstance(name, str) and name else ""
            who = f"fiche n° {where[-1] + 1 if isinstance(where[-1], int) else '?'}{shown} : "
        if expected_system is not None and system_id is not None and system_id != expected_system:
            issues.append(
                src.issue(
                    (*where, "system"),
                    f"{who}« système » : la fiche dit « {system_id} » mais le fichier « {expected_system} ».",
                )
            )
            continue
        if isinstance(system_id, str) and system_id not in rules.SYSTEMS:
            issues.append(src.issue((*where, "system"), who + _unknown_system(system_id)))
            continue
        try:
            sheet = rules.sheet_from_data(data)
        except rules.SheetError as exc:
            for text, loc in zip(exc.lines, exc.locations, strict=False):
                issues.append(src.issue((*where, *loc), who + text))
            continue
        if expected_system is not None and sheet.system != expected_system:
            issues.append(src.issue(where, f"« système » : la fiche n'indique pas le système « {expected_system} »."))
            continue
        sheets.append(sheet)
    if issues:
        raise _Bad(*issues)
    return sheets


def decode_document(raw: bytes, name: str = "fichier") -> Document:
    """Read a document from the bytes of a file; ``FileProblem`` (French, naming ``name``) if bad."""
    doc = _decode_fast(raw) or _decode_slow(raw, name)
    _mark_verified(doc.sheets)
    return doc


def _decode_fast(raw: bytes) -> Document | None:
    """A well-formed current file, parsed and validated by pydantic in one pass; None for anything else.

    The standard JSON module refuses NaN and Infinity (``parse_constant``) where pydantic accepts them:
    such files take the slow way, which decides.
    """
    if raw.startswith(codecs.BOM_UTF8):
        raw = raw[len(codecs.BOM_UTF8) :]
    if b"NaN" in raw or b"Infinity" in raw:
        return None
    try:
        env: Any = _typed(rules.SYSTEMS).validate_json(raw)
    except ValidationError:
        return None
    try:  # what needs the rule table (ids, exact bounds): the slow way words it
        for sheet in [env.sheet] if env.kind == "sheet" else env.sheets:
            rules.check_sheet(sheet)
    except rules.SheetError:
        return None
    if env.kind == "sheet":
        if env.system not in rules.SYSTEMS or env.sheet.system != env.system:
            return None
        return Document("sheet", [env.sheet], [list(env.journal)])
    if len(env.journals) > len(env.sheets) or any(s not in rules.SYSTEMS for s in env.systems):
        return None
    if _tracker_issue(env, len(env.sheets)) is not None:
        return None
    journals = [list(j) for j in env.journals] + [[] for _ in range(len(env.sheets) - len(env.journals))]
    return Document("table", list(env.sheets), journals, env.title, tracker=_tracker(env))


def _decode_slow(raw: bytes, name: str) -> Document:
    """Step by step, so that every problem is worded in French with its line; older formats migrated."""
    try:
        text = _text_of(raw)
        data = _parse(text)
        return _document_from_data(data, _Source(text))
    except _Bad as bad:
        raise _problem(name, bad.issues) from None


def document_from_data(data: Any, text: str, name: str, where: Location = ()) -> Document:
    """A document from JSON data already parsed out of ``text`` (the whole file; ``where``: the place
    of the document inside it, so that messages give the right line). ``FileProblem`` if bad."""
    try:
        return _document_from_data(data, _Source(text, where))
    except _Bad as bad:
        raise _problem(name, bad.issues) from None


def parse_json(raw: bytes, name: str) -> tuple[Any, str]:
    """The JSON data and text of a file's bytes (UTF-8 checked); ``FileProblem`` naming the line."""
    try:
        text = _text_of(raw)
        return _parse(text), text
    except _Bad as bad:
        raise _problem(name, bad.issues) from None


def _document_from_data(data: Any, src: _Source) -> Document:
    if "\\ud" in src.text or "\\uD" in src.text:
        bad = _find_lone_surrogates(data)
        if bad:
            raise _Bad(*(src.issue(loc, "texte invalide : demi-caractère UTF-16 isolé (\\ud800…).") for loc in bad))
    data, migrated_from = _migrate(data, src)
    env = _envelope(data, src)
    if isinstance(env, SheetFile):
        if env.system not in rules.SYSTEMS:
            raise _Bad(src.issue(("system",), _unknown_system(env.system)))
        sheets = _sheets([(("sheet",), env.sheet, env.system)], src, label=False)
        return Document("sheet", sheets, [list(env.journal)], migrated_from=migrated_from)
    assert isinstance(env, TableFile)
    if len(env.journals) > len(env.sheets):
        raise _Bad(
            src.issue(
                ("journals",),
                f"« journaux » : {len(env.journals)} journaux pour {len(env.sheets)} fiches (un journal par fiche).",
            )
        )
    unknown = [s for s in env.systems if s not in rules.SYSTEMS]
    if unknown:
        raise _Bad(src.issue(("systems",), _unknown_system(unknown[0])))
    problem = _tracker_issue(env, len(env.sheets))
    if problem is not None:
        raise _Bad(src.issue(*problem))
    sheets = _sheets([(("sheets", i), s, None) for i, s in enumerate(env.sheets)], src, label=True)
    journals = [list(j) for j in env.journals] + [[] for _ in range(len(sheets) - len(env.journals))]
    return Document("table", sheets, journals, env.title, migrated_from=migrated_from, tracker=_tracker(env))


def _tracker_issue(env: TableFile, count: int) -> tuple[Location, str] | None:
    """Where a table's rows, turn or started rows point past its sheets, and what to say."""
    if len(env.rows) > count:
        return ("rows",), f"« lignes » : {len(env.rows)} lignes pour {count} fiches (une ligne par fiche au plus)."
    if env.turn is not None and env.turn >= count:
        return ("turn",), f"« tour » : la fiche n° {env.turn + 1} n'existe pas ({count} fiches)."
    for i, row in enumerate(env.started):
        if row >= count:
            return ("started", i), f"« tours commencés » : la fiche n° {row + 1} n'existe pas ({count} fiches)."
    return None


def _tracker(env: TableFile) -> TableTracker | None:
    tracker = TableTracker(
        rows=[(r.initiative, r.note) for r in env.rows],
        round=env.round,
        turn=env.turn,
        started=list(env.started),
        journal=list(env.journal),
    )
    return None if tracker.is_empty() else tracker


def read_document(path: Path | str) -> tuple[Document, FileStamp]:
    """Open a sheet or table file: the document and its stamp; ``FileProblem`` if anything is wrong.

    Nothing is kept from a bad file: the caller's open documents stay as they are.
    """
    path = Path(path)
    raw, stamp = _read_limited(path)
    return decode_document(raw, str(path)), stamp


def check_files(paths: Iterable[Path | str]) -> list[tuple[Path, str | None]]:
    """Each path with the French message saying what is wrong with it, or None if it opens."""
    results: list[tuple[Path, str | None]] = []
    for path in paths:
        try:
            read_document(Path(path))
            results.append((Path(path), None))
        except FileProblem as exc:
            results.append((Path(path), exc.message))
    return results


# --------------------------------------------------------------------------------------------------
# Writing: document → bytes → temp file in the same folder → fsync → os.replace → fsync the folder
# --------------------------------------------------------------------------------------------------


def _json_text(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _list_json(items: Sequence[str], indent: str) -> str:
    """A JSON list of already-encoded items, one per line, indented under ``indent``."""
    if not items:
        return "[]"
    inner = indent + "  "
    return "[\n" + ",\n".join(inner + item for item in items) + "\n" + indent + "]"


# The C string encoder json.dumps uses, without its per-call overhead (journals have many short lines).
_encode_string: Callable[[str], str] = json.encoder.encode_basestring


def _journal_json(lines: Sequence[str], indent: str) -> str:
    return _list_json([_encode_string(line) for line in lines], indent)


def _check_document(doc: Document) -> list[list[str]]:
    """Programming errors in a document are ``ValueError``; what the format forbids is a FileProblem."""
    if doc.kind not in _ENVELOPES:
        raise ValueError(f"unknown document kind {doc.kind!r}")
    if doc.kind == "sheet" and len(doc.sheets) != 1:
        raise ValueError(f"a sheet document holds exactly one sheet, not {len(doc.sheets)}")
    if len(doc.journals) > len(doc.sheets):
        raise ValueError(f"{len(doc.journals)} journals for {len(doc.sheets)} sheets")
    for sheet in doc.sheets:
        if not isinstance(sheet, rules.SheetBase):
            raise ValueError(f"not a sheet: {type(sheet).__name__}")
    journals = [list(j) for j in doc.journals] + [[] for _ in range(len(doc.sheets) - len(doc.journals))]
    if not all(isinstance(line, str) for journal in journals for line in journal):
        raise ValueError("journal lines must be str")
    return journals


def encode_document(doc: Document, name: str = "fichier", verify: bool = True) -> bytes:
    """The file's bytes: indented UTF-8 JSON (sheets as the rules facade writes them).

    Raises ``FileProblem`` for what the format cannot hold (too many sheets or journal lines, a text
    that is not valid Unicode) and, with ``verify``, for a sheet its own model would refuse on reading
    (the rules keep their invariants without re-validating; a slip there must not turn into a file that
    no longer opens): such a document is not written, so the old file stays as it was.
    """
    journals = _check_document(doc)
    issues: list[_Issue] = []
    if len(doc.sheets) > MAX_TABLE_SHEETS:
        issues.append(_Issue(f"trop de fiches ({len(doc.sheets)} ; au plus {MAX_TABLE_SHEETS})."))
    if len(doc.title) > MAX_TITLE:
        issues.append(_Issue(f"titre trop long ({len(doc.title)} caractères ; au plus {MAX_TITLE})."))
    tracker = doc.tracker if doc.kind == "table" and doc.tracker is not None and not doc.tracker.is_empty() else None
    if tracker is not None:
        issues.extend(_check_tracker(tracker, len(doc.sheets)))
    for i, journal in enumerate(journals):
        if len(journal) > MAX_JOURNAL_LINES:
            issues.append(
                _Issue(f"journal n° {i + 1} trop long ({len(journal)} lignes ; au plus {MAX_JOURNAL_LINES}).")
            )
        if any(len(line) > MAX_JOURNAL_LINE for line in journal):
            issues.append(_Issue(f"journal n° {i + 1} : une ligne dépasse {MAX_JOURNAL_LINE} caractères."))
    if issues:
        raise _problem(name, issues)
    head = f'{{\n  "format": {FORMAT_VERSION},\n  "kind": "{doc.kind}",\n'
    head += f'  "app": "{APP_VERSION}",\n  "needs": "{FORMAT_INTRODUCED_IN[FORMAT_VERSION]}",\n'
    try:
        texts = [rules.sheet_to_json(sheet, indent=2) for sheet in doc.sheets]
        if verify:
            _verify_sheets(doc, texts, name)
        if doc.kind == "sheet":
            body = texts[0].replace("\n", "\n  ")
            text = (
                f'{head}  "system": {_json_text(doc.sheets[0].system)},\n  "sheet": {body},\n'
                f'  "journal": {_journal_json(journals[0], "  ")}\n}}\n'
            )
        else:
            systems = sorted({s.system for s in doc.sheets})
            bodies = [t.replace("\n", "\n    ") for t in texts]
            logs = [_journal_json(j, "    ") for j in journals]
            extra = "" if tracker is None else _tracker_json(tracker)
            text = (
                f'{head}  "title": {_json_text(doc.title)},\n  "systems": {_json_text(systems)},\n'
                f'  "sheets": {_list_json(bodies, "  ")},\n  "journals": {_list_json(logs, "  ")}{extra}\n}}\n'
            )
        data = text.encode("utf-8")
    except (UnicodeEncodeError, ValueError) as exc:
        # A lone UTF-16 surrogate cannot be written as UTF-8 (pydantic refuses it in sheets).
        raise _problem(name, [_Issue(f"texte impossible à enregistrer ({type(exc).__name__}).")]) from None
    if len(data) > MAX_FILE_BYTES:
        size = f"{_mib(len(data))} ; au plus {_mib(MAX_FILE_BYTES)}"
        raise _problem(name, [_Issue(f"document trop gros pour un fichier ({size}) : allégez les journaux.")])
    return data


def _check_tracker(tracker: TableTracker, count: int) -> list[_Issue]:
    """What the format cannot hold of a table's own data (the same limits as on reading)."""
    issues: list[_Issue] = []
    if len(tracker.rows) > count:
        issues.append(_Issue(f"{len(tracker.rows)} lignes de table pour {count} fiches."))
    for i, (initiative, note) in enumerate(tracker.rows):
        if initiative is not None and not -MAX_INITIATIVE <= initiative <= MAX_INITIATIVE:
            issues.append(_Issue(f"fiche n° {i + 1} : initiative hors limites (±{MAX_INITIATIVE})."))
        if len(note) > MAX_NOTE:
            issues.append(_Issue(f"fiche n° {i + 1} : note trop longue (au plus {MAX_NOTE} caractères)."))
    if not 0 <= tracker.round <= MAX_ROUND:
        issues.append(_Issue(f"round hors limites ({tracker.round})."))
    if tracker.turn is not None and not 0 <= tracker.turn < count:
        issues.append(_Issue(f"tour : la fiche n° {tracker.turn + 1} n'existe pas."))
    if any(not 0 <= row < count for row in tracker.started):
        issues.append(_Issue("tours commencés : une fiche qui n'existe pas."))
    if len(tracker.journal) > MAX_JOURNAL_LINES:
        issues.append(_Issue(f"journal de la table trop long ({len(tracker.journal)} lignes)."))
    if any(len(line) > MAX_JOURNAL_LINE for line in tracker.journal):
        issues.append(_Issue(f"journal de la table : une ligne dépasse {MAX_JOURNAL_LINE} caractères."))
    return issues


def _tracker_json(tracker: TableTracker) -> str:
    """The table's own fields, after its journals (one row per line: a thousand rows stay readable)."""
    rows = [
        _json_text({"initiative": initiative, "note": note} if note else {"initiative": initiative})
        for initiative, note in tracker.rows
    ]
    return (
        f',\n  "rows": {_list_json(rows, "  ")},\n  "round": {tracker.round},\n'
        f'  "turn": {_json_text(tracker.turn)},\n  "started": {_json_text(tracker.started)},\n'
        f'  "journal": {_journal_json(tracker.journal, "  ")}'
    )


# Sheets known to validate (read from a file, or already checked before a save), by identity. Sheets
# are immutable, so a sheet once checked stays good: a table saved every minute re-checks only the
# sheets that changed. Weak: a sheet no longer used leaves the cache by itself.
_VERIFIED: weakref.WeakValueDictionary[int, Any] = weakref.WeakValueDictionary()


def _mark_verified(sheets: Iterable[Any]) -> None:
    for sheet in sheets:
        _VERIFIED[id(sheet)] = sheet


def _verify_sheets(doc: Document, texts: Sequence[str], name: str) -> None:
    """Each sheet as written must validate as it will be read; else ``FileProblem`` saying why."""
    issues: list[_Issue] = []
    for i, (sheet, text) in enumerate(zip(doc.sheets, texts, strict=True)):
        if _VERIFIED.get(id(sheet)) is sheet:
            continue
        try:
            rules.check_sheet(type(sheet).model_validate_json(text))
            _VERIFIED[id(sheet)] = sheet
        except (ValidationError, rules.SheetError):
            try:  # the rules' French wording of what is wrong
                rules.sheet_from_data(json.loads(text))
                lines = ["incohérente"]
            except rules.SheetError as exc:
                lines = exc.lines
            who = f"fiche n° {i + 1}" if doc.kind == "table" else "la fiche"
            shown = f" « {sheet.name} »" if sheet.name else ""
            for line in lines:
                issues.append(_Issue(f"{who}{shown} ne se rouvrirait pas : {line}"))
    if issues:
        issues.append(_Issue("rien n'a été écrit (l'ancien fichier est intact) ; corrigez la valeur et réessayez."))
        raise _problem(name, issues)


def document_data(doc: Document) -> dict[str, Any]:
    """The document as the plain JSON data its file holds."""
    data: dict[str, Any] = json.loads(encode_document(doc))
    return data


def stamp_of(path: Path | str) -> FileStamp:
    """Modification time and size of ``path`` now (no digest)."""
    st = os.stat(path)
    return FileStamp(st.st_mtime_ns, st.st_size)


def changed_since(path: Path | str, stamp: FileStamp) -> bool:
    """Whether the file at ``path`` differs from what ``stamp`` saw (a deleted file has not changed).

    Same time and size: unchanged. Otherwise, when the stamp knows the content's digest, a file only
    touched (same bytes) is not counted as changed.
    """
    try:
        now = stamp_of(path)
    except FileNotFoundError:
        return False
    if now == stamp:
        return False
    if stamp.sha256 and now.size == stamp.size:
        try:
            with open(path, "rb") as handle:
                return hashlib.sha256(handle.read(MAX_FILE_BYTES + 1)).hexdigest() != stamp.sha256
        except OSError:
            return True
    return True


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def _fsync_folder(folder: Path) -> None:
    """Make the rename itself durable; some file systems cannot sync a folder (then we cannot help)."""
    flags = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0)
    try:
        fd = os.open(folder, flags)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def atomic_write(path: Path, data: bytes) -> FileStamp:
    """Replace ``path`` by ``data`` so that any crash leaves the old file or the new one, never a mix.

    A temp file in the same folder (same file system, so the rename is atomic) is written, synced to
    disk, given the old file's permissions, then renamed over the target; the folder is synced too.
    Raises ``OSError``; the temp file is removed on failure and the old file is untouched.
    """
    folder = path.parent
    try:
        mode: int | None = stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        mode = None  # a new file gets 0o666 minus the umask, as any program's would
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    for _ in range(100):
        tmp = folder / f".{path.name}.{secrets.token_hex(4)}.tmp"
        try:
            fd = os.open(tmp, flags, 0o666)
            break
        except FileExistsError:
            continue
    else:
        raise FileExistsError(errno.EEXIST, "temp file names exhausted", str(folder))
    try:
        try:
            _write_all(fd, data)
            if mode is not None:
                os.fchmod(fd, mode)
            os.fsync(fd)
            st = os.fstat(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    _fsync_folder(folder)
    return FileStamp(st.st_mtime_ns, st.st_size, hashlib.sha256(data).hexdigest())


def _target(path: Path) -> Path:
    """Where to write: through a symbolic link to its target, so the link stays a link."""
    if path.is_symlink():
        return Path(os.path.realpath(path))
    return path


def write_document(path: Path | str, doc: Document, expected: FileStamp | None = None) -> FileStamp:
    """Save ``doc`` to ``path`` atomically; the stamp of what was written.

    ``expected``: the stamp taken when the file was opened or last saved; if the file changed on disk
    since, ``ChangedOnDisk`` is raised and nothing is written (pass ``None`` to overwrite anyway).
    On any failure (read-only place, full disk…) ``FileProblem`` is raised and the old file is intact.
    """
    path = Path(path)
    name = str(path)
    data = encode_document(doc, name)
    try:
        target = _target(path)
        if target.is_dir():
            raise _problem(name, [_Issue("c'est un dossier : choisissez un nom de fichier.")])
        if expected is not None and changed_since(target, expected):
            raise _problem(
                name,
                [_Issue("le fichier a été modifié ailleurs depuis son ouverture ; rien n'a été écrit.")],
                ChangedOnDisk,
            )
        return atomic_write(target, data)
    except OSError as exc:
        raise _problem(
            name, [_Issue(f"écriture impossible : {_os_reason(exc)} ; l'ancien fichier est intact.")]
        ) from None
    except ValueError:
        raise _problem(name, [_Issue("nom de fichier invalide.")]) from None


def describe(doc: Document) -> str:
    """A short French description of a document (for the command line and dialogs)."""
    if doc.kind == "sheet":
        sheet = doc.sheets[0]
        label = rules.system(sheet.system).label
        return f"fiche {label} « {sheet.name or 'sans nom'} »"
    systems = ", ".join(sorted({rules.system(s.system).label for s in doc.sheets})) or "vide"
    title = f" « {doc.title} »" if doc.title else ""
    count = len(doc.sheets)
    return f"table{title} : {count} fiche{'s' if count > 1 else ''} ({systems})"
