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
import contextlib
import errno
import functools
import gc
import hashlib
import json
import operator
import os
import re
import secrets
import stat
import time
import weakref
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeAlias

from pydantic import (
    BeforeValidator,
    Field,
    TypeAdapter,
    ValidationError,
    create_model,
)
from pydantic_core import from_json

import rules
from sheet_app import __version__ as APP_VERSION
from sheet_app.records import FRESH, Compared

if TYPE_CHECKING:  # the envelope models are imported when first used (``sheet_app.envelopes``)
    from sheet_app.envelopes import TableFile, _Envelope

try:  # POSIX: a lock held while a file is checked and replaced (see ``_folder_lock``)
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

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
MAX_PROBLEMS = 50  # problems listed in one message; the others are counted (« … et 9 950 autres problèmes. »)
# Counted before anything is built (see « Limits » in docs/file-format.md): what parsing a file may
# build is bounded whatever its bytes, so any file is answered in a bounded time and memory.
# Commas, [ and { in one file, texts included (a 1,000-NPC table: ~70,000; a 32 Mo journal of real
# lines: ~1,500,000): they bound the JSON values parsing builds, so its memory (~100 bytes a value).
MAX_JSON_MARKS = 2_000_000
MAX_INT_DIGITS = 30  # an integer of a file (the largest a sheet holds, a clock in seconds: ~12 digits)
SHEET_PROBLEM_LINES = 8  # lines the rules word for one sheet (then « … »)
# Values in one sheet of a file too big for the fast reader (the largest a system's model allows: ~8,000).
MAX_SHEET_VALUES = 20_000
# Files up to this many marks are validated by pydantic in one pass per model first (fast; a bad file
# can make it word an error per value); bigger ones go to the reader that counts before it validates.
FAST_PATH_MAX_MARKS = 200_000
# Validation errors worth counting in one file: past them the reading stops (« plus de N problèmes »).
MAX_VALIDATION_EFFORT = 50_000

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


# How a read-only record's ``__init__`` sets a field (``rules.Record`` refuses ``setattr``).
_set = object.__setattr__

# The records below were dataclasses: each made its methods from source text when this module was imported,
# ~2.4–3.6 M instructions a class at every start (issue 15). ``rules.Record`` (read-only) and
# ``sheet_app.records`` (mutable) give them the same behaviour; ``tests/files/test_records.py`` checks it.


class FileStamp(rules.Record):
    """What we knew of a file when we read or wrote it (to notice changes made by others).

    Two stamps are equal when modification time and size are; ``sha256`` (the content's digest, when
    known) lets ``changed_since`` tell a file merely touched from one really rewritten.
    """

    __slots__ = ("mtime_ns", "size", "sha256")  # noqa: RUF023  (the fields, in order)
    mtime_ns: int
    size: int
    sha256: str

    def __init__(self, mtime_ns: int, size: int, sha256: str = "") -> None:
        _set(self, "mtime_ns", mtime_ns)
        _set(self, "size", size)
        _set(self, "sha256", sha256)

    def _values(self) -> tuple[Any, ...]:
        return (self.mtime_ns, self.size)  # what compares and hashes: not ``sha256``


class TableTracker(Compared):
    """What a GM table keeps beside its sheets: each row's initiative and note (``rows[i]`` goes with
    ``sheets[i]``; may be shorter), the fight's round (0: no fight), whose turn it is and whose turn has
    started this round (row numbers from 0), and the table's own journal."""

    _fields = ("rows", "round", "turn", "started", "journal")

    def __init__(
        self,
        rows: list[tuple[int | None, str]] = FRESH,
        round: int = 0,
        turn: int | None = None,
        started: list[int] = FRESH,
        journal: list[str] = FRESH,
    ) -> None:
        self.rows = [] if rows is FRESH else rows
        self.round = round
        self.turn = turn
        self.started = [] if started is FRESH else started
        self.journal = [] if journal is FRESH else journal

    def is_empty(self) -> bool:
        return self == TableTracker()


class Document(Compared):
    """What one file holds: one sheet (kind "sheet") or many (kind "table"), with their journals.

    ``journals[i]`` is the journal of ``sheets[i]`` (lines of text, in the order the app keeps them).
    ``migrated_from`` is the older format version the file was converted from on reading, if any:
    saving it writes the current format. ``tracker``: a table's initiatives, notes, round and journal
    (None when it has none). ``house``: the house rules the document plays by (``rules.HouseRules``, at
    most one per system), embedded in the file so that it travels alone.
    """

    _fields = ("kind", "sheets", "journals", "title", "migrated_from", "tracker", "house")

    def __init__(
        self,
        kind: str,
        sheets: list[Any],
        journals: list[list[str]] = FRESH,
        title: str = "",
        migrated_from: int | None = None,
        tracker: TableTracker | None = None,
        house: list[Any] = FRESH,
    ) -> None:
        self.kind = kind
        self.sheets = sheets
        self.journals = [] if journals is FRESH else journals
        self.title = title
        self.migrated_from = migrated_from
        self.tracker = tracker
        self.house = [] if house is FRESH else house

    def house_table(self, system_id: str) -> Any:
        """The rule table ``system_id``'s sheets play by here (``None``: the shipped one)."""
        return next((h.table for h in self.house if h.system == system_id), None)


# --------------------------------------------------------------------------------------------------
# Envelope models (format 1). The sheet itself is validated by the rules facade.
# --------------------------------------------------------------------------------------------------


def _no_items() -> list[Any]:
    """An empty list: the envelope models' default. (A named function, not ``list``: pydantic asks the
    signature of each default factory when it builds a model, and ``inspect`` parses the text signature
    of a builtin for it: ~0.3 ms each at start-up against a few µs.)"""
    return []


def _no_entries() -> dict[str, Any]:
    """An empty dict (as ``_no_items``)."""
    return {}


# The envelope models (``HouseEntry``, ``SheetFile``, ``TableRow``, ``TableFile``) live in
# ``sheet_app.envelopes``, imported when first used (the wording reader, the JSON Schema; ``files.SheetFile``
# & co. still name them): the fast reader checks a well-formed file's envelope without them
# (``_plain_envelope``), so a start that opens a sheet neither builds nor even declares them (their class
# creation, fields collected, ~13 M instructions before the first paint: issue 15, session 7).
_ENVELOPE_NAMES = frozenset({"HouseEntry", "SheetFile", "TableRow", "TableFile", "_Envelope", "_ENVELOPES"})


def __getattr__(name: str) -> Any:
    if name in _ENVELOPE_NAMES:
        from sheet_app import envelopes

        return getattr(envelopes, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _names_its_system(value: Any) -> Any:
    if isinstance(value, dict) and "system" not in value:
        raise ValueError("no system")
    return value


@functools.cache
def _typed(systems: tuple[str, ...]) -> TypeAdapter[Any]:
    """Both envelopes with their sheets typed as the registered systems' sheet models.

    Gives the JSON Schema of the files. (The fast reader, ``_fast``, validates the same thing in
    parts: the envelope, then each system's sheets with their own model, cheaper than this union.)
    """
    from sheet_app.envelopes import SheetFile, TableFile

    sheet_types = [rules.system(s).sheet_type for s in systems]
    sheet: Any = functools.reduce(operator.or_, sheet_types)
    if len(sheet_types) > 1:
        sheet = Annotated[sheet, Field(discriminator="system")]
    else:  # as the discriminator would: a sheet must name its system (a model's default is not enough)
        sheet = Annotated[sheet, BeforeValidator(_names_its_system)]
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
    "house": "règles maison",
}


# --------------------------------------------------------------------------------------------------
# Problems: French text naming the file, the line and what is wrong
# --------------------------------------------------------------------------------------------------


class _Issue(rules.Record):
    """One problem: its French text, and its line when known, or where it is in the data (``loc``):
    the lines of the problems a message shows are found in one pass over the text (``_Source.lines``)."""

    __slots__ = ("text", "line", "loc", "later")  # noqa: RUF023  (the fields, in order)
    text: str
    line: int | None
    loc: Location | None
    later: bool  # a name given twice: the line of its later occurrence

    def __init__(self, text: str, line: int | None = None, loc: Location | None = None, later: bool = False) -> None:
        _set(self, "text", text)
        _set(self, "line", line)
        _set(self, "loc", loc)
        _set(self, "later", later)


class _Bad(Exception):
    """Internal: problems found in a file, turned into one ``FileProblem`` naming it.

    ``total``: how many problems there are in all (``issues`` keeps the first ``MAX_PROBLEMS``);
    ``stopped``: the reading stopped before counting them all (too many to be worth counting).
    """

    def __init__(self, *issues: _Issue, total: int | None = None, stopped: bool = False) -> None:
        super().__init__(issues)
        self.issues = list(issues[:MAX_PROBLEMS])
        self.total = max(total if total is not None else len(issues), len(self.issues))
        self.stopped = stopped


class _Issues:
    """The problems of one file as they are found: the first ``MAX_PROBLEMS`` kept, the others counted.

    ``effort`` counts the validation errors met (a broken sheet can give thousands); past
    ``MAX_VALIDATION_EFFORT`` the reading stops (``stopped``) rather than spend seconds counting.
    """

    def __init__(self) -> None:
        self.kept: list[_Issue] = []
        self.total = 0
        self.effort = 0
        self.stopped = False

    def add(self, issue: _Issue) -> None:
        self.total += 1
        if len(self.kept) < MAX_PROBLEMS:
            self.kept.append(issue)

    def __bool__(self) -> bool:
        return self.total > 0

    @property
    def exhausted(self) -> bool:
        return self.effort > MAX_VALIDATION_EFFORT

    @property
    def full(self) -> bool:
        """As many problems kept as a message lists: the others need counting, not wording."""
        return len(self.kept) >= MAX_PROBLEMS

    def count_only(self, errors: int) -> None:
        """Count the problems of a sheet as its wording would list them (8, then « … »)."""
        self.effort += errors
        self.total += min(errors, SHEET_PROBLEM_LINES) + (errors > SHEET_PROBLEM_LINES)

    def bad(self) -> _Bad:
        return _Bad(*self.kept, total=self.total, stopped=self.stopped)


def _count(value: int) -> str:
    """« 12 345 » (narrow no-break space between thousands, as French typography wants)."""
    return f"{value:,}".replace(",", "\u202f")


def _problem(
    name: str,
    issues: Sequence[_Issue],
    cls: type[FileProblem] = FileProblem,
    src: _Source | None = None,
    total: int | None = None,
    stopped: bool = False,
) -> FileProblem:
    """One ``FileProblem`` for the problems of ``name``: at most ``MAX_PROBLEMS`` listed with their
    lines (found in one pass over the text), the others counted."""
    shown = list(issues[:MAX_PROBLEMS])
    total = max(total if total is not None else len(issues), len(shown))
    if src is not None:
        lines = src.lines(
            [i.loc for i in shown if i.line is None and i.loc is not None],
            [i.loc for i in shown if i.later and i.loc is not None],
        )
        shown = [i.replace(line=lines.get(i.loc)) if i.line is None and i.loc is not None else i for i in shown]
    texts = [f"ligne {i.line} : {i.text}" if i.line is not None else i.text for i in shown]
    rest = total - len(shown)
    if rest > 0 or stopped:
        more = "plus de " if stopped else ""
        texts.append(f"… et {more}{_count(rest)} autre{'s' if rest > 1 else ''} problème{'s' if rest > 1 else ''}.")
    if total == 1 and len(texts) == 1:
        message = f"{name} : {texts[0]}"
    else:
        count = f"plus de {_count(total)}" if stopped else _count(total)
        message = f"{name} : {count} problèmes :\n" + "\n".join(f"  {line}" for line in texts)
    return cls(message, path=name, details=texts)


def _from_bad(name: str, bad: _Bad, src: _Source | None = None) -> FileProblem:
    return _problem(name, bad.issues, src=src, total=bad.total, stopped=bad.stopped)


def _shown_key(key: str) -> str:
    """A field name from a file, as a message shows it (a hostile name may be a megabyte long)."""
    return key if len(key) <= 60 else key[:60] + "…"


def _where(loc: Location) -> str:
    parts = [f"n° {p + 1}" if isinstance(p, int) else _LABELS.get(p, _shown_key(p)) for p in loc]
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
# Reading: bytes → shape checked → text → JSON → migrated envelope → sheets
# --------------------------------------------------------------------------------------------------


def _os_reason(exc: OSError) -> str:
    return rules.os_reason(exc)


def _mib(size: int) -> str:
    return f"{size / (1024 * 1024):.1f}".replace(".", ",") + " Mo"


NOT_REGULAR = "ce n'est pas un fichier ordinaire (périphérique, tube…) : rien n'a été lu."


def _read_limited(path: Path) -> tuple[bytes, FileStamp]:
    """The file's bytes, refusing directories, special files and files above ``MAX_FILE_BYTES``."""
    name = str(path)
    too_big = f"fichier trop gros ({{size}} ; au plus {_mib(MAX_FILE_BYTES)}) : ce n'est sans doute pas une fiche."
    try:
        st = os.stat(path)
        if stat.S_ISDIR(st.st_mode):
            raise _problem(name, [_Issue("c'est un dossier, pas un fichier de fiche.")])
        if not stat.S_ISREG(st.st_mode):
            raise _problem(name, [_Issue(NOT_REGULAR)])
        if st.st_size > MAX_FILE_BYTES:
            raise _problem(name, [_Issue(too_big.format(size=_mib(st.st_size)))])
        # O_NONBLOCK: if the path was swapped for a pipe since the check, opening it does not hang.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode):
                raise _problem(name, [_Issue(NOT_REGULAR)])
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


def _utf16_without_bom(raw: bytes) -> str | None:
    """« UTF-16 » or « UTF-32 » when the bytes look like JSON in one of those (every other byte NUL)."""
    head = raw[:200]
    if len(head) < 4 or b"\x00" not in head:
        return None
    if head[1::4].count(0) == len(head[1::4]) and head[2::4].count(0) == len(head[2::4]):
        return "UTF-32"
    if head[0::2].count(0) >= len(head[0::2]) * 0.9 or head[1::2].count(0) >= len(head[1::2]) * 0.9:
        return "UTF-16"
    return None


def _text_of(raw: bytes) -> str:
    if raw.startswith(codecs.BOM_UTF8):
        raw = raw[len(codecs.BOM_UTF8) :]
    elif raw.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):
        raise _Bad(_Issue("le fichier est encodé en UTF-32 ; sheet_app lit des fichiers UTF-8."))
    elif raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        raise _Bad(_Issue("le fichier est encodé en UTF-16 ; sheet_app lit des fichiers UTF-8."))
    other = _utf16_without_bom(raw)
    if other is not None:
        raise _Bad(
            _Issue(f"le fichier semble encodé en {other} (sans marque d'ordre) ; sheet_app lit des fichiers UTF-8.")
        )
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


# --- shape: how much parsing would build, counted before anything is built ----------------------


def _marks(raw: bytes) -> int:
    """Commas, [ and { in ``raw`` (texts included): at the speed of memory, an upper bound of the
    JSON values parsing would build (each value but the first of a list or object follows a comma;
    each list or object opens with a bracket)."""
    return raw.count(b",") + raw.count(b"[") + raw.count(b"{")


def _shape(raw: bytes) -> int:
    """``_marks(raw)``; ``_Bad`` past ``MAX_JSON_MARKS`` (then nothing is built: no memory spent)."""
    return _bounded_marks(_marks(raw))


def _bounded_marks(marks: int) -> int:
    """``marks``; ``_Bad`` past ``MAX_JSON_MARKS``."""
    if marks > MAX_JSON_MARKS:
        raise _Bad(
            _Issue(
                f"structure démesurée : {_count(marks)} virgules, crochets et accolades (au plus "
                f"{_count(MAX_JSON_MARKS)}) : ce n'est pas une fiche ni une table sheet_app."
            )
        )
    return marks


# --- JSON ------------------------------------------------------------------------------------------

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


class _Repeated(dict):  # type: ignore[type-arg]
    """An object of the file in which a name appears twice (``repeated``: those names)."""

    repeated: list[str]


def _line_of(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


_PAUSE_FROM = 4 * 1024 * 1024  # characters: below, pausing costs more than the collections it saves


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector: reading a file makes no cycle, and a file of a million
    small objects would otherwise trigger it thousands of times (half the time of such a file)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


class _LongNumber(ValueError):
    pass


def _bounded_int(digits: str) -> int:
    """A JSON integer of at most ``MAX_INT_DIGITS`` digits (Python converts longer ones in quadratic
    time: thousands of 4,300-digit numbers would take seconds)."""
    if len(digits) > MAX_INT_DIGITS + digits.startswith("-"):
        raise _LongNumber(digits)
    return int(digits)


# For ``_tight``: every digit as « 0 »; commas, [ and { as commas; the quote, the colon, the backslash,
# « u », « d » and « D » as they are; every other byte as « x » (blanks are deleted).
_TIGHT = bytes(
    ord("0")
    if chr(b).isdigit() and b < 128
    else ord(",")
    if chr(b) in ",[{"
    else b
    if chr(b) in '":\\udD'
    else ord("x")
    for b in range(256)
)
_TOO_MANY_DIGITS = b"0" * (MAX_INT_DIGITS + 1)


def _tight(raw: bytes) -> tuple[int, bool, int, bool]:
    """What ``raw`` holds, counted on one copy of it without its blanks (one ``translate``, then a few
    searches, at the speed of memory; a regular expression would try each of millions of short numbers
    in turn: seconds):

    - ``_marks(raw)``: its commas, [ and { (blanks are none of them);
    - whether it may hold a run of more than ``MAX_INT_DIGITS`` digits, in a number or a text (digits
      apart only by blanks count as one run: a rare text may then send the parse the careful way for
      nothing; a real long number is never missed);
    - how many field names it holds, as a count of ``":`` (a text starting with « : » counts too; an
      escaped quote before a colon does not);
    - whether it may hold half a UTF-16 pair: a « \\ud » or « \\uD » (the same three ASCII bytes in
      UTF-8 as in the text; one apart by blanks counts too, sending the file the careful way for nothing).
    """
    tight = raw.translate(_TIGHT, b" \t\r\n")
    if b"\\" not in tight:  # no backslash (most files): no escaped quote, no « \ud » (one ``memchr``)
        return tight.count(b","), tight.find(_TOO_MANY_DIGITS) >= 0, tight.count(b'":'), False
    return (
        tight.count(b","),
        tight.find(_TOO_MANY_DIGITS) >= 0,
        tight.count(b'":') - tight.count(b'\\":'),
        b"\\ud" in tight or b"\\uD" in tight,
    )


def _loads(text: str, long_digits: bool = True, **hooks: Any) -> Any:
    """``json.loads`` with every failure worded in French, with its line (``long_digits``: the text
    may hold a number too long, checked while parsing; else the C parser alone)."""
    if long_digits:
        hooks["parse_int"] = _bounded_int
    try:
        if len(text) < _PAUSE_FROM:
            return json.loads(text, parse_constant=_refuse_constant, **hooks)
        with _collector_paused():
            return json.loads(text, parse_constant=_refuse_constant, **hooks)
    except _LongNumber as exc:
        digits = str(exc)
        at = text.find(digits)
        line = _line_of(text, at) if at >= 0 else None
        size = len(digits.lstrip("-"))
        raise _Bad(_Issue(f"nombre démesuré : {_count(size)} chiffres (au plus {MAX_INT_DIGITS}).", line)) from None
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


def _parse(raw: bytes, text: str, tight: tuple[int, bool, int, bool] | None = None) -> tuple[Any, bool]:
    """The JSON data of ``text`` and whether an object of it names a field twice.

    Such an object is a ``_Repeated`` (JSON lets the last value win silently; a file edited by hand
    may hold two « level », and the reader must not pick one). The names the parser kept are counted
    against the names of the text (``_tight``): only when they differ (a name given twice, or a
    text starting with « : ») is the text parsed again, object by object, to find which. ``tight``:
    ``_tight(raw)`` if already known.
    """
    kept = 0

    def count(made: dict[str, Any]) -> dict[str, Any]:
        nonlocal kept
        kept += len(made)
        return made

    _, long_digits, names, _ = _tight(raw) if tight is None else tight
    data = _loads(text, long_digits, object_hook=count)
    if kept == names:
        return data, False
    repeated = False

    def make_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        nonlocal repeated
        made = dict(pairs)
        if len(made) == len(pairs):
            return made
        repeated = True
        twice = _Repeated(made)
        seen: set[str] = set()
        twice.repeated = list(dict.fromkeys(k for k, _ in pairs if k in seen or seen.add(k)))  # type: ignore[func-returns-value]
        return twice

    return _loads(text, long_digits, object_pairs_hook=make_object), repeated


def _names_kept(data: Any) -> int:
    """How many names the objects of ``data`` (JSON data) hold, at every depth: what ``_parse``'s hook
    counts. One depth at a time: ``gc.get_referents`` gives, at C speed, the values of every list and
    dict among the values of a depth (their ``tp_traverse``; texts, numbers, booleans and None have
    none). (A count that missed some would only send the file the careful way; none is counted twice:
    a parse shares no list or dict.)"""
    count = 0
    level = [data]
    while level:
        count += sum([len(value) for value in level if type(value) is dict])
        level = gc.get_referents(*level)
    return count


def _quick_data(raw: bytes, tight: tuple[int, bool, int, bool]) -> Any:
    """The JSON data of ``raw`` as ``_parse`` gives it for a file of no name given twice, parsed by
    pydantic-core's parser (``from_json``: no text decoded, no Python hook per object; ~half the time of
    ``json.loads``); None when the careful way must decide (``tight``: ``_tight(raw)``).

    ``from_json`` takes only what ``json.loads`` takes, with the same values (numbers, escapes, UTF-8,
    blanks; ``tests/files/test_open_cost.py`` holds the two parsers to it), and refuses more: a byte
    order mark, NaN and Infinity, more than 201 levels, half a UTF-16 pair written « \\ud800 ». Every
    refusal, a possible long number (``MAX_INT_DIGITS``), a possible half pair and a name given twice
    (the names kept counted against the names of the bytes, as ``_parse`` does) give None.
    """
    _, long_digits, names, surrogates = tight
    if long_digits or surrogates:
        return None
    try:
        data = from_json(raw, allow_inf_nan=False)
    except ValueError:
        return None
    return data if _names_kept(data) == names else None


# --- where a problem is: lines of many locations in one pass over the text -------------------------

_WS = re.compile(r"[ \t\n\r]*")
_scanstring: Callable[[str, int], tuple[str, int]] = json.decoder.scanstring  # type: ignore[attr-defined]


def _skip(text: str, pos: int) -> int:
    """Position of the first non-blank character from ``pos``."""
    found = _WS.match(text, pos)
    return found.end() if found else pos


def _nothing(*_: Any) -> None:
    return None


# Skips a value to find where it ends: objects and numbers are not built (a list of them is a list of
# None), so skipping a big value costs a fraction of the memory parsing it did.
_SKIPPER = json.JSONDecoder(
    object_pairs_hook=_nothing, parse_float=_nothing, parse_int=_nothing, parse_constant=_nothing
)


def _end_of_value(text: str, pos: int) -> int:
    return int(_SKIPPER.raw_decode(text, pos)[1])


class _AllFound(Exception):
    pass


_HERE = None  # the key of a trie node that marks a location ending there


def _under(node: dict[Any, Any]) -> Iterator[Location]:
    for key, child in node.items():
        if key is _HERE:
            yield child
        else:
            yield from _under(child)


def _positions(text: str, locs: Iterable[Location], last: Iterable[Location] = ()) -> dict[Location, int]:
    """Where each location's value starts in the JSON ``text`` (a missing field: the object that
    lacks it; a location past what the text holds: the deepest value found), in one pass: the text
    is walked once, along the locations asked only, and the walk stops as soon as all are found.

    ``last``: locations of a name given twice, whose later occurrence is wanted (those are settled
    only at the end of the object that holds them).
    """
    trie: dict[Any, Any] = {}
    for loc in set(locs):
        node = trie
        for part in loc:
            node = node.setdefault(part, {})
        node[_HERE] = loc
    wanted = len(set(locs))
    later = set(last)
    found: dict[Location, int] = {}
    settled: set[Location] = set()
    if not wanted:
        return found

    def settle(loc: Location) -> None:
        settled.add(loc)
        if len(settled) == wanted:
            raise _AllFound

    def visit(pos: int, node: dict[Any, Any]) -> int:
        """Record the locations of ``node`` in the value at ``pos``; the position after that value."""
        start = pos
        here = node.get(_HERE)
        if here is not None:
            found[here] = pos  # a name given twice: the later one overwrites
            if here not in later:
                settle(here)
        keys = [k for k in node if k is not _HERE]
        if not keys:
            return _end_of_value(text, pos)
        seen: set[Any] = set()
        opening = text[pos]
        if opening == "{":
            pos = _skip(text, pos + 1)
            while text[pos] != "}":
                key, pos = _scanstring(text, pos + 1)
                pos = _skip(text, _skip(text, pos) + 1)
                child = node.get(key)
                if child is not None:
                    seen.add(key)
                    pos = visit(pos, child)
                else:
                    pos = _end_of_value(text, pos)
                pos = _skip(text, pos)
                if text[pos] == ",":
                    pos = _skip(text, pos + 1)
            end = pos + 1
        elif opening == "[":
            index = 0
            pos = _skip(text, pos + 1)
            while text[pos] != "]":
                child = node.get(index)
                if child is not None:
                    seen.add(index)
                    pos = visit(pos, child)
                else:
                    pos = _end_of_value(text, pos)
                pos = _skip(text, pos)
                if text[pos] == ",":
                    pos = _skip(text, pos + 1)
                index += 1
            end = pos + 1
        else:
            end = _end_of_value(text, pos)
        for key in keys:
            child = node[key]
            if key not in seen:  # a missing field, or a value that is not the container asked: here
                for loc in _under(child):
                    found.setdefault(loc, start)
                    settle(loc)
            elif child.get(_HERE) in later:
                settle(child[_HERE])  # the object is over: its last occurrence is known
        return end

    try:
        visit(_skip(text, 0), trie)
    except _AllFound:
        pass
    except (ValueError, IndexError, RecursionError):
        pass  # the text is not what the data says (cannot happen for parsed data): lines left unknown
    return found


def _lines_at(text: str, positions: Iterable[int]) -> dict[int, int]:
    """The line of each position, counting line breaks once from the start to the last position."""
    lines: dict[int, int] = {}
    line, last = 1, 0
    for pos in sorted(set(positions)):
        line += text.count("\n", last, pos)
        last = pos
        lines[pos] = line
    return lines


class _Source:
    """The parsed file and how to find the lines of locations (through the migrations applied)."""

    def __init__(self, text: str, prefix: Location = ()) -> None:
        self.text = text
        self.prefix = prefix
        # Each migration step maps a location in its output back to its input (None: not in the file).
        self.back: list[Callable[[Location], Location | None]] = []

    def _in_file(self, loc: Location) -> Location | None:
        current: Location | None = loc
        for step in reversed(self.back):
            if current is None:
                return None
            current = step(current)
        return None if current is None else self.prefix + current

    def lines(self, locs: Sequence[Location], later: Sequence[Location] = ()) -> dict[Location, int | None]:
        """The line of each location (None when not in the file), all found in one pass (``later``:
        those of a name given twice, whose later occurrence is wanted)."""
        in_file = {loc: self._in_file(loc) for loc in locs}
        later_in_file = [self._in_file(loc) for loc in later]
        positions = _positions(
            self.text, [f for f in in_file.values() if f is not None], [f for f in later_in_file if f is not None]
        )
        line_at = _lines_at(self.text, positions.values())
        result: dict[Location, int | None] = {}
        for loc, where in in_file.items():
            pos = positions.get(where) if where is not None else None
            result[loc] = line_at.get(pos) if pos is not None else None
        return result

    def line(self, loc: Location) -> int | None:
        return self.lines([loc])[loc]

    def issue(self, loc: Location, text: str) -> _Issue:
        return _Issue(text, loc=loc)


def _odd_places(data: Any, src: _Source, issues: _Issues, surrogates: bool, repeats: bool) -> None:
    """Texts holding half a UTF-16 pair (``"\\ud800"`` is valid JSON but no character at all), and
    objects naming a field twice (JSON lets the last one win silently: a reader must not guess)."""
    stack: list[tuple[Location, Any]] = [((), data)]
    while stack:
        loc, value = stack.pop()
        if isinstance(value, str):
            if surrogates and not _is_unicode(value):
                issues.add(src.issue(loc, f"{_where(loc)} : texte invalide : demi-caractère UTF-16 isolé (\\ud800…)."))
        elif isinstance(value, dict):
            if repeats and isinstance(value, _Repeated):
                for key in value.repeated:
                    where = (*loc, key)
                    text = f"{_where(where)} : ce champ figure deux fois (le fichier a été modifié à la main ?)."
                    issues.add(_Issue(text, loc=where, later=True))
            children = []
            for key, item in value.items():
                if surrogates and not _is_unicode(key):
                    issues.add(src.issue(loc, f"{_where(loc)} : nom de champ invalide : demi-caractère UTF-16 isolé."))
                children.append(((*loc, key), item))
            stack.extend(reversed(children))
        elif isinstance(value, list):
            stack.extend(reversed([((*loc, i), item) for i, item in enumerate(value)]))


def _is_unicode(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


# --- migrations ------------------------------------------------------------------------------------


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split("."))


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
            # A version this sheet_app already is cannot read a newer format: the file says wrong.
            if (
                isinstance(value, str)
                and re.fullmatch(r"\d{1,6}(\.\d{1,6}){1,3}", value)
                and _version(value) > _version(APP_VERSION)
            ):
                needed = value
                break
        who = f"sheet_app {needed} ou plus récent" if needed else "une version plus récente de sheet_app"
        raise _Bad(
            _Issue(
                f"ce fichier est au format {_count(version)}, plus récent que le format {FORMAT_VERSION} que lit "
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

# Lists of the envelope checked by hand before pydantic sees them: a list far over its limit is
# refused by its length alone (pydantic would first word an error for each of its million items).
_LIST_LIMITS: dict[str, int] = {
    "sheets": MAX_TABLE_SHEETS,
    "systems": 100,
    "journals": MAX_TABLE_SHEETS,
    "rows": MAX_TABLE_SHEETS,
    "started": MAX_TABLE_SHEETS,
}


def _journal(value: Any, loc: Location, src: _Source, issues: _Issues) -> list[str]:
    """A journal as the format allows it (problems added to ``issues``; then an empty stand-in)."""
    if not isinstance(value, list):
        issues.add(src.issue(loc, f"{_where(loc)} : doit être une liste"))
        return []
    if len(value) > MAX_JOURNAL_LINES:
        issues.add(src.issue(loc, f"{_where(loc)} : {_count(len(value))} lignes (au plus {_count(MAX_JOURNAL_LINES)})"))
        return []
    if all(type(line) is str for line in value) and max(map(len, value), default=0) <= MAX_JOURNAL_LINE:
        return value
    for i, line in enumerate(value):
        if type(line) is not str:
            issues.add(src.issue((*loc, i), f"{_where((*loc, i))} : doit être un texte"))
        elif len(line) > MAX_JOURNAL_LINE:
            issues.add(src.issue((*loc, i), f"{_where((*loc, i))} : est trop long (au plus {MAX_JOURNAL_LINE})"))
    return []


def _envelope(data: dict[str, Any], src: _Source, issues: _Issues) -> _Envelope | None:
    """The envelope of a (migrated) file, or None with its problems in ``issues``."""
    from sheet_app.envelopes import _ENVELOPES

    kind = data.get("kind")
    model = _ENVELOPES.get(kind) if isinstance(kind, str) else None
    if model is None:
        raise _Bad(
            src.issue(("kind",), "« kind » : doit valoir « sheet » (une fiche) ou « table » (une table de meneur).")
        )
    known: dict[str, Any] = {}
    for key, value in data.items():
        if key not in model.model_fields:
            issues.add(src.issue((key,), f"« {_shown_key(key)} » : n'est pas un champ connu de ce format"))
        elif key == "journal":
            known[key] = _journal(value, (key,), src, issues)
        elif key in _LIST_LIMITS and isinstance(value, list) and len(value) > _LIST_LIMITS[key]:
            limit = _count(_LIST_LIMITS[key])
            issues.add(src.issue((key,), f"{_where((key,))} : {_count(len(value))} éléments (au plus {limit})"))
            known[key] = []  # a stand-in, so that it is not also said to be missing
        elif key == "journals" and isinstance(value, list):
            known[key] = [_journal(journal, (key, i), src, issues) for i, journal in enumerate(value)]
        else:
            known[key] = value
    try:
        env = model.model_validate(known, strict=True)
    except ValidationError as exc:
        for err in exc.errors(include_url=False, include_input=False):
            loc: Location = tuple(err["loc"])
            issues.add(src.issue(loc, f"{_where(loc)} : {_envelope_error_text(dict(err))}"))
        return None
    return None if issues else env


def _unknown_system(system_id: str) -> str:
    known = ", ".join(rules.SYSTEMS)
    return (
        f"« système » : inconnu « {_shown_key(system_id)} » (systèmes disponibles : {known} ; "
        "le fichier vient peut-être d'une version plus récente de sheet_app)."
    )


def _house(env: _Envelope, src: _Source) -> list[Any]:
    """The house rules a document embeds, each validated by its system's schema (its problems located
    in the file)."""
    found: list[Any] = []
    for system_id, entry in env.house.items():
        if system_id not in rules.SYSTEMS:
            raise _Bad(src.issue(("house", system_id), _unknown_system(system_id)))
        try:
            found.append(rules.house.house_rules_from_data(system_id, entry.model_dump(), "règles maison"))
        except rules.HouseRulesError as exc:
            where = ("house", system_id, "table")
            raise _Bad(
                *(
                    src.issue((*where, *path), f"« règles maison » ({system_id}) : {line}")
                    for line, path in zip(exc.lines, exc.paths, strict=False)
                )
            ) from None
        except rules.RulesetError as exc:
            raise _Bad(src.issue(("house", system_id), f"« règles maison » ({system_id}) : {exc}")) from None
    return found


def _values_in(value: Any, limit: int) -> int:
    """How many JSON values the lists and objects of ``value`` hold, counting no further than past ``limit``."""
    count = 0
    stack = [value]
    while stack:
        item = stack.pop()
        items = item.values() if type(item) is dict else item
        count += len(items)
        if count > limit:
            break
        stack.extend([v for v in items if type(v) is dict or type(v) is list])
    return count


def _twin_of(sheet_type: Any) -> Any:
    """The validator of ``sheet_type``'s type twin (``rules.strict_validator``: its core schema written
    directly, not generated by pydantic at the first read of a sheet, before the window's first paint)."""
    return rules.strict_validator(sheet_type)


def _twins_of(sheet_type: Any) -> Any:
    """A list of ``sheet_type``'s type twins: the sheets of one system checked in one call."""
    return rules.strict_list_validator(sheet_type)


def _errors_in(system_id: str, data: dict[str, Any]) -> int:
    """How many validation errors a sheet has, as ``rules.sheet_from_data(strict=True)`` finds them."""
    sheet_type = rules.system(system_id).sheet_type
    try:
        _twin_of(sheet_type).validate_python(data, strict=True)
        rules.check_sheet(sheet_type.model_validate(data))
    except ValidationError as exc:
        return exc.error_count()
    except rules.SheetError as exc:  # what needs the rule table (ids, exact bounds)
        return len(exc.lines)
    return 0


def _sheets(
    entries: Sequence[tuple[Location, Any, str | None]],
    src: _Source,
    label: bool,
    issues: _Issues,
    count_values: bool,
    house: Sequence[Any] = (),
) -> list[Any]:
    """Validate each sheet through the facade, strictly (as file data), against the house rules of its
    system if the document has some; every problem with its line.

    ``count_values``: the file is big enough for one sheet to hold more than ``MAX_SHEET_VALUES``
    values; such a sheet is refused by its size, before validation (which would word each error).
    """
    tables = {h.system: h.table for h in house}
    sheets: list[Any] = []
    for where, data, expected_system in entries:
        if issues.exhausted:
            issues.stopped = True
            break
        who = ""
        if label:
            name = data.get("name") if isinstance(data, dict) else None
            shown = f" « {name[:60]} »" if isinstance(name, str) and name else ""
            who = f"fiche n° {where[-1] + 1 if isinstance(where[-1], int) else '?'}{shown} : "
        if not isinstance(data, dict):
            issues.add(src.issue(where, f"{who}doit être un objet (des paires nom : valeur)"))
            continue
        if count_values and _values_in(data, MAX_SHEET_VALUES) > MAX_SHEET_VALUES:
            issues.add(
                src.issue(
                    where,
                    f"{who}fiche démesurée : plus de {_count(MAX_SHEET_VALUES)} valeurs JSON (ce n'est pas une fiche).",
                )
            )
            continue
        system_id = data.get("system")
        if expected_system is not None and system_id is not None and system_id != expected_system:
            shown_id = _shown_key(system_id) if isinstance(system_id, str) else system_id
            issues.add(
                src.issue(
                    (*where, "system"),
                    f"{who}« système » : la fiche dit « {shown_id} » mais le fichier « {expected_system} ».",
                )
            )
            continue
        if isinstance(system_id, str) and system_id not in rules.SYSTEMS:
            issues.add(src.issue((*where, "system"), who + _unknown_system(system_id)))
            continue
        if issues.full and isinstance(system_id, str):
            issues.count_only(_errors_in(system_id, data))  # the file is refused: only the count matters
            continue
        try:
            table = tables.get(system_id) if isinstance(system_id, str) else None
            sheet = rules.sheet_from_data(data, table, strict=True)
        except rules.SheetError as exc:
            issues.effort += exc.count
            for text, loc in zip(exc.lines, exc.locations, strict=False):
                issues.add(src.issue((*where, *loc), who + text))
            continue
        if expected_system is not None and sheet.system != expected_system:
            issues.add(src.issue(where, f"« système » : la fiche n'indique pas le système « {expected_system} »."))
            continue
        sheets.append(sheet)
    return sheets


class _Parsed:
    """A file's bytes once counted and parsed (what both readers start from), and their text (decoded
    when first asked: the fast reader of a file parsed by ``_quick_data`` never asks). (A plain class:
    a dataclass compiles its methods from source text when its module is imported, ~2 M instructions at start-up.)"""

    __slots__ = ("_raw", "_src", "data", "marks", "repeated", "surrogates")

    def __init__(
        self, marks: int, raw: bytes, src: _Source | None, data: Any, repeated: bool, surrogates: bool
    ) -> None:
        self.marks = marks  # commas, [ and { (``_marks``)
        self._raw = raw
        self._src = src
        self.data = data
        self.repeated = repeated  # an object of the file names a field twice
        # Maybe half a UTF-16 pair (``_tight``): searched in the bytes, a tenth of the cost of searching
        # the text (UCS-2 for its « » and narrow spaces).
        self.surrogates = surrogates

    @property
    def src(self) -> _Source:
        # Bytes ``from_json`` took are UTF-8 without a byte order mark, neither empty nor holding a NUL:
        # ``_text_of`` decodes them without a problem.
        if self._src is None:
            self._src = _Source(_text_of(self._raw))
        return self._src


def _parsed(raw: bytes, name: str) -> _Parsed:
    """Bound (``MAX_JSON_MARKS``), decode (UTF-8) and parse (JSON) ``raw``; ``FileProblem`` if bad.
    A file the fast reader may take is parsed by ``_quick_data`` if it can, its text decoded later if needed."""
    try:
        tight = _tight(raw)
        marks = _bounded_marks(tight[0])
        data = _quick_data(raw, tight) if marks <= FAST_PATH_MAX_MARKS else None
        if data is not None:
            return _Parsed(marks, raw, None, data, False, False)
        text = _text_of(raw)
        data, repeated = _parse(raw, text, tight)
    except _Bad as bad:
        raise _from_bad(name, bad) from None
    return _Parsed(marks, raw, _Source(text), data, repeated, tight[3])


def decode_document(raw: bytes, name: str = "fichier") -> Document:
    """Read a document from the bytes of a file; ``FileProblem`` (French, naming ``name``) if bad.

    Whatever the bytes, the answer comes within time and memory proportional to their size: the
    values are bounded before anything is built (``MAX_JSON_MARKS``), problems are listed up to
    ``MAX_PROBLEMS`` and located in one pass. Strict: ``true``, ``"3"`` or ``3.0`` are no integer.
    """
    with _collector_paused():
        parsed = _parsed(raw, name)
        doc = _fast(parsed) or _slow(parsed, name)
        # The file's JSON data freed while the collector is paused: the young collection that comes
        # right after the pause then walks the document only, not every value of the file too.
        del parsed
    _mark_verified(doc)
    return doc


def _decode_fast(raw: bytes) -> Document | None:
    """The fast reader alone (for the tests that check both readers agree)."""
    try:
        return _fast(_parsed(raw, "fichier"))
    except FileProblem:
        return None


def _decode_slow(raw: bytes, name: str) -> Document:
    """The wording reader alone (for the tests that check both readers agree)."""
    return _slow(_parsed(raw, name), name)


def _fast(parsed: _Parsed) -> Document | None:
    """A well-formed current file, validated by pydantic in one pass per model; None for anything else
    (then the wording reader decides, and words the problems).

    The envelope is checked by hand (``_plain_envelope``: only an envelope exactly as the format
    writes it passes, else the wording reader decides); then the sheets of each system are checked
    strictly against their model's type twin (``rules.strict_types``) and validated by their model,
    each system's in one call. Files of more than ``FAST_PATH_MAX_MARKS`` marks, with a field named
    twice or half a UTF-16 pair take the other way.
    """
    data = parsed.data
    if parsed.repeated or parsed.marks > FAST_PATH_MAX_MARKS or parsed.surrogates:
        return None
    if type(data) is not dict or type(data.get("format")) is not int or data["format"] != FORMAT_VERSION:
        return None
    env = _plain_envelope(data)
    if env is None:
        return None
    sheets = env.sheets
    # The sheets of each system, with their places: the sheets of a system are validated in one call
    # of their own model (what ``_typed``'s union of every system does, at four fifths of its cost).
    by_system: dict[str, tuple[list[int], list[Any]]] = {}
    for i, sheet in enumerate(sheets):
        system_id = sheet.get("system") if type(sheet) is dict else None
        group = by_system.get(system_id) if type(system_id) is str else None
        if group is None:
            if type(system_id) is not str or system_id not in rules.SYSTEMS:
                return None
            group = by_system[system_id] = ([], [])
        group[0].append(i)
        group[1].append(sheet)
    made: list[Any] = [None] * len(sheets)
    try:
        for system_id, (places, given) in by_system.items():
            sheet_type = rules.system(system_id).sheet_type
            if len(given) == 1:  # one sheet (a sheet's file): its model and its twin, no list of them
                _twin_of(sheet_type).validate_python(given[0], strict=True)
                made[places[0]] = sheet_type.model_validate(given[0])
                continue
            # One pass per system over its sheets (not one call per sheet): the model with its twin's
            # check in the same pass (``rules.file_sheets_validator``), else the twin then the model.
            both = rules.file_sheets_validator(sheet_type)
            if both is None:
                _twins_of(sheet_type).validate_python(given, strict=True)
                both = _sheet_list(sheet_type)
            for i, sheet in zip(places, both.validate_python(given), strict=True):
                made[i] = sheet
    except ValidationError:
        return None
    try:  # what needs the rule table (ids, exact bounds): the slow way words it
        for sheet in made:
            rules.check_sheet(sheet)
    except rules.SheetError:
        return None
    if env.kind == "sheet":
        if env.system not in rules.SYSTEMS or made[0].system != env.system:
            return None
        return Document("sheet", made, [list(env.journal)])
    if len(env.journals) > len(made) or any(s not in rules.SYSTEMS for s in env.systems):
        return None
    if _tracker_issue(env, len(made)) is not None:
        return None
    journals = [list(j) for j in env.journals] + [[] for _ in range(len(made) - len(env.journals))]
    return Document("table", made, journals, env.title, tracker=_tracker(env))


class _Row:
    """A table row as ``_plain_envelope`` reads it (what ``TableRow`` gives: its two fields)."""

    __slots__ = ("initiative", "note")

    def __init__(self, initiative: int | None, note: str) -> None:
        self.initiative = initiative
        self.note = note


class _PlainEnvelope:
    """An envelope as ``_plain_envelope`` found it: the fields of ``SheetFile`` or ``TableFile`` the
    readers use, their defaults filled in, the sheets left as they are."""

    __slots__ = (
        "journal",
        "journals",
        "kind",
        "round",
        "rows",
        "sheets",
        "started",
        "system",
        "systems",
        "title",
        "turn",
    )

    def __init__(self, kind: str, data: dict[str, Any]) -> None:
        self.kind = kind
        self.journal: list[str] = data.get("journal", [])
        if kind == "sheet":
            self.system: str = data["system"]
            self.sheets: list[Any] = [data["sheet"]]
            return
        self.sheets = data["sheets"]
        self.title: str = data.get("title", "")
        self.systems: list[str] = data.get("systems", [])
        self.journals: list[list[str]] = data.get("journals", [])
        self.rows = [_Row(row.get("initiative"), row.get("note", "")) for row in data.get("rows", ())]
        self.round: int = data.get("round", 0)
        self.turn: int | None = data.get("turn")
        self.started: list[int] = data.get("started", [])


# The fields of each envelope (known without building the models).
# The fields of ``SheetFile`` and ``TableFile`` (``tests/files/test_open_cost.py`` checks they are).
_SHEET_KEYS = frozenset({"format", "app", "needs", "house", "kind", "system", "sheet", "journal"})
_TABLE_KEYS = frozenset(
    {"format", "app", "needs", "house", "kind", "title", "systems", "sheets", "journals", "rows", "round", "turn"}
    | {"started", "journal"}
)


def _texts(value: Any, count: int, length: int) -> bool:
    """``value`` is a list of at most ``count`` texts of at most ``length`` characters each."""
    return (
        type(value) is list
        and len(value) <= count
        and all(type(item) is str for item in value)
        and max(map(len, value), default=0) <= length
    )


def _indices(value: Any) -> bool:
    """``value`` is a list of row numbers as ``TableFile.started`` holds them (strict integers)."""
    return (
        type(value) is list
        and len(value) <= MAX_TABLE_SHEETS
        and all(type(item) is int and 0 <= item < MAX_TABLE_SHEETS for item in value)
    )


def _plain_row(row: Any) -> bool:
    """``row`` is a table row as ``TableRow`` takes it."""
    if type(row) is not dict or not row.keys() <= {"initiative", "note"}:
        return False
    initiative = row.get("initiative")
    if initiative is not None and not (type(initiative) is int and -MAX_INITIATIVE <= initiative <= MAX_INITIATIVE):
        return False
    note = row.get("note", "")
    return type(note) is str and len(note) <= MAX_NOTE


def _plain_envelope(data: dict[str, Any]) -> _PlainEnvelope | None:
    """The envelope of a current file when it is exactly what ``SheetFile`` or ``TableFile`` take, its
    sheets left as they are (each one checked by the fast reader); None for anything else, even what
    pydantic would take (a house rule, a value of another type that lax validation converts): then the
    wording reader validates the envelope with its model. Every test here is one of the model's, or
    stricter (exact types), so what passes here is what the model takes, with the same values.

    Validating the envelope with a model costs a copy of every journal line list (2 ms for 1,000
    sheets), and building those models ~10 ms at start-up: a start that opens a sheet builds none.
    """
    kind: str = data.get("kind")  # type: ignore[assignment]  # "sheet" or "table" below, else None
    keys = _SHEET_KEYS if kind == "sheet" else _TABLE_KEYS if kind == "table" else None
    if keys is None or not data.keys() <= keys:
        return None
    version = data.get("format")
    if type(version) is not int or version != FORMAT_VERSION:
        return None
    for key in ("app", "needs"):
        value = data.get(key, "")
        if type(value) is not str or len(value) > 40:
            return None
    house = data.get("house", {})
    if type(house) is not dict or house:
        return None  # house rules: the sheets are checked against them, the slow way
    if not _texts(data.get("journal", []), MAX_JOURNAL_LINES, MAX_JOURNAL_LINE):
        return None
    if kind == "sheet":
        system = data.get("system")
        if type(system) is not str or len(system) > 40 or "sheet" not in data:
            return None
        return _PlainEnvelope(kind, data)
    sheets = data.get("sheets")
    title = data.get("title", "")
    if type(sheets) is not list or len(sheets) > MAX_TABLE_SHEETS or type(title) is not str or len(title) > MAX_TITLE:
        return None
    if not _texts(data.get("systems", []), 100, 40):
        return None
    journals = data.get("journals", [])
    if type(journals) is not list or len(journals) > MAX_TABLE_SHEETS:
        return None
    if not all(_texts(journal, MAX_JOURNAL_LINES, MAX_JOURNAL_LINE) for journal in journals):
        return None
    rows = data.get("rows", [])
    if type(rows) is not list or len(rows) > MAX_TABLE_SHEETS or not all(_plain_row(row) for row in rows):
        return None
    round_, turn = data.get("round", 0), data.get("turn")
    if type(round_) is not int or not 0 <= round_ <= MAX_ROUND:
        return None
    if turn is not None and not (type(turn) is int and 0 <= turn < MAX_TABLE_SHEETS):
        return None
    if not _indices(data.get("started", [])):
        return None
    return _PlainEnvelope(kind, data)


def _slow(parsed: _Parsed, name: str) -> Document:
    """Step by step, so that every problem is worded in French with its line; older formats migrated."""
    try:
        # Files the fast reader may take (``FAST_PATH_MAX_MARKS``) are bounded as a whole; in bigger
        # ones each sheet is bounded (``MAX_SHEET_VALUES``) before it is validated.
        big = parsed.marks > FAST_PATH_MAX_MARKS
        return _document_from_data(parsed.data, parsed.src, parsed.repeated, count_values=big)
    except _Bad as bad:
        raise _from_bad(name, bad, parsed.src) from None


def document_from_data(data: Any, text: str, name: str, where: Location = ()) -> Document:
    """A document from JSON data already parsed out of ``text`` (the whole file; ``where``: the place
    of the document inside it, so that messages give the right line). ``FileProblem`` if bad."""
    src = _Source(text, where)
    try:
        return _document_from_data(data, src, None, count_values=True)
    except _Bad as bad:
        raise _from_bad(name, bad, src) from None


def parse_json(raw: bytes, name: str) -> tuple[Any, str]:
    """The JSON data and text of a file's bytes (UTF-8 and size checked); ``FileProblem`` naming the line."""
    try:
        _shape(raw)
        text = _text_of(raw)
        return _parse(raw, text)[0], text
    except _Bad as bad:
        raise _from_bad(name, bad) from None


def _document_from_data(data: Any, src: _Source, repeated: bool | None, count_values: bool) -> Document:
    """``repeated``: whether the parser met a field named twice (None: unknown, look)."""
    issues = _Issues()
    surrogates = "\\ud" in src.text or "\\uD" in src.text
    if surrogates or repeated or repeated is None:
        _odd_places(data, src, issues, surrogates, repeated is not False)
        if issues:
            raise issues.bad()
    from sheet_app.envelopes import SheetFile, TableFile

    data, migrated_from = _migrate(data, src)
    env = _envelope(data, src, issues)
    if env is None:
        raise issues.bad()
    if isinstance(env, SheetFile):
        if env.system not in rules.SYSTEMS:
            raise _Bad(src.issue(("system",), _unknown_system(env.system)))
        house = _house(env, src)
        sheets = _sheets([(("sheet",), env.sheet, env.system)], src, False, issues, count_values, house)
        if issues:
            raise issues.bad()
        return Document("sheet", sheets, [list(env.journal)], migrated_from=migrated_from, house=house)
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
    house = _house(env, src)
    entries = [(("sheets", i), s, None) for i, s in enumerate(env.sheets)]
    sheets = _sheets(entries, src, True, issues, count_values, house)
    if issues:
        raise issues.bad()
    journals = [list(j) for j in env.journals] + [[] for _ in range(len(sheets) - len(env.journals))]
    return Document(
        "table", sheets, journals, env.title, migrated_from=migrated_from, tracker=_tracker(env), house=house
    )


def _tracker_issue(env: TableFile | _PlainEnvelope, count: int) -> tuple[Location, str] | None:
    """Where a table's rows, turn or started rows point past its sheets, and what to say."""
    if len(env.rows) > count:
        return ("rows",), f"« lignes » : {len(env.rows)} lignes pour {count} fiches (une ligne par fiche au plus)."
    if env.turn is not None and env.turn >= count:
        return ("turn",), f"« tour » : la fiche n° {env.turn + 1} n'existe pas ({count} fiches)."
    for i, row in enumerate(env.started):
        if row >= count:
            return ("started", i), f"« tours commencés » : la fiche n° {row + 1} n'existe pas ({count} fiches)."
    return None


def _tracker(env: TableFile | _PlainEnvelope) -> TableTracker | None:
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
    if doc.kind not in ("sheet", "table"):
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
                f'  "journal": {_journal_json(journals[0], "  ")}{_house_json(doc)}\n}}\n'
            )
        else:
            systems = sorted({s.system for s in doc.sheets})
            bodies = [t.replace("\n", "\n    ") for t in texts]
            logs = [_journal_json(j, "    ") for j in journals]
            extra = "" if tracker is None else _tracker_json(tracker)
            extra += _house_json(doc)
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


def _house_json(doc: Document) -> str:
    """The document's house rules, after everything else (``""`` under the base rules)."""
    if not doc.house:
        return ""
    data = {h.system: h.to_data() for h in doc.house}
    return ',\n  "house": ' + json.dumps(data, ensure_ascii=False, indent=2).replace("\n", "\n  ")


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


class _Sheets:
    """Sheets by identity and by the key of the rule table they were checked under, held weakly (a
    sheet no longer used leaves by itself): a dict of weak references, pruned of the dead ones as it
    doubles (a ``WeakValueDictionary`` costs a microsecond a sheet in Python: a millisecond a save)."""

    def __init__(self) -> None:
        self._refs: dict[tuple[int, int], weakref.ref[Any]] = {}
        self._prune_at = 1024

    def __contains__(self, item: tuple[Any, int]) -> bool:
        ref = self._refs.get((id(item[0]), item[1]))
        return ref is not None and ref() is item[0]

    def add(self, sheet: Any, key: int) -> None:
        refs = self._refs
        refs[id(sheet), key] = weakref.ref(sheet)
        if len(refs) > self._prune_at:
            for dead in [k for k, ref in refs.items() if ref() is None]:
                del refs[dead]
            self._prune_at = max(1024, 2 * len(refs))

    def forget_house_rules(self) -> None:
        for key in [k for k in self._refs if k[1]]:
            del self._refs[key]

    def clear(self) -> None:
        self._refs.clear()

    def __len__(self) -> int:
        return len(self._refs)


# Sheets known to validate (read from a file, or already checked before a save), by identity and by
# the rule table they were checked under (a sheet good under the shipped rules may break a house rule).
# Sheets are immutable, so a sheet once checked stays good: a table saved every minute re-checks only
# the sheets that changed. A sheet the rules made (``rules.apply``) is *not* known good: handlers
# build it without validation, and catching one of their slips before it reaches a file is what the
# check on saving is for (done on saving, or earlier in idle time by ``checks_ahead``: the same
# check, the same memory).
_VERIFIED = _Sheets()
# Sheets ``checks_ahead`` found bad: not tried again in idle time (a save checks them and says why).
_REFUSED = _Sheets()
# The house tables sheets were checked under, held so that their ids stay theirs (a table's id is
# part of the key above); a few per session: past ``_MAX_CHECK_TABLES``, their checks are forgotten.
_CHECK_TABLES: dict[int, Any] = {}
_MAX_CHECK_TABLES = 32


def _table_key(table: Any) -> int:
    """The key of the rule table a sheet is checked under (0: the shipped one)."""
    if table is None:
        return 0
    key = id(table)
    if _CHECK_TABLES.get(key) is not table:
        if len(_CHECK_TABLES) >= _MAX_CHECK_TABLES:
            _CHECK_TABLES.clear()
            _VERIFIED.forget_house_rules()
            _REFUSED.forget_house_rules()
        _CHECK_TABLES[key] = table
    return key


def is_checked(sheet: Any, house_table: Any = None) -> bool:
    """Whether ``sheet`` is known to read back under ``house_table`` (None: the shipped rules): read
    from a file, or checked by a save or ``checks_ahead``."""
    return (sheet, _table_key(house_table)) in _VERIFIED


def _mark_verified(doc: Document) -> None:
    tables = {h.system: _table_key(h.table) for h in doc.house}
    add = _VERIFIED.add
    for sheet in doc.sheets:
        add(sheet, tables.get(sheet.system, 0))


@functools.cache
def _sheet_list(sheet_type: Any) -> TypeAdapter[Any]:
    """A list of ``sheet_type``'s sheets: a system's sheets validated in one call (a call per sheet
    costs a fifth more, and the discriminated union of every system more still)."""
    return TypeAdapter(list[sheet_type])  # type: ignore[valid-type]


class _Under:
    """What the sheets of one system are checked under in a document: its rule table (house rules or
    the shipped one), the table's key in ``_VERIFIED``, the validation context."""

    __slots__ = ("context", "key", "table")

    def __init__(self, table: Any) -> None:
        self.table = table
        self.key = _table_key(table)
        self.context = {"rules_table": table}


def _check_group(sheet_type: Any, items: Sequence[tuple[Any, str]], under: _Under) -> list[int]:
    """Check sheets of one system, each against its JSON text as written (``items``: (sheet, text)), as
    a reader will: validated by the system's model under the rule table, then its ``check``. The
    good ones are remembered (``_VERIFIED``); the positions in ``items`` of the others.

    One validation of the whole group first; only if it fails, one per sheet to find which. The
    collector is paused meanwhile: the group's new sheets, all alive until checked, would otherwise be
    walked by collection after collection (they make no cycle, and go when checked).
    """
    add = _VERIFIED.add
    key, table = under.key, under.table
    bad: list[int] = []
    with _collector_paused():
        try:
            made = _sheet_list(sheet_type).validate_json(
                "[" + ",".join([text for _, text in items]) + "]", context=under.context
            )
        except ValidationError:
            made = None
        for i, (sheet, text) in enumerate(items):
            try:
                model = made[i] if made is not None else sheet_type.model_validate_json(text, context=under.context)
                rules.check_sheet(model, table)
            except (ValidationError, rules.SheetError):
                bad.append(i)
                continue
            add(sheet, key)
        del made
    return bad


def _verify_sheets(doc: Document, texts: Sequence[str], name: str) -> None:
    """Each sheet as written must validate as it will be read; else ``FileProblem`` saying why."""
    under: dict[str, _Under] = {}
    pending: dict[str, list[tuple[int, Any, str]]] = {}
    verified = _VERIFIED
    for i, (sheet, text) in enumerate(zip(doc.sheets, texts, strict=True)):
        system_id = sheet.system
        found = under.get(system_id)
        if found is None:
            found = under[system_id] = _Under(doc.house_table(system_id))
        if (sheet, found.key) in verified:
            continue
        pending.setdefault(system_id, []).append((i, sheet, text))
    failed: list[tuple[int, Any, str]] = []
    for system_id, group in pending.items():
        bad = _check_group(type(group[0][1]), [(sheet, text) for _, sheet, text in group], under[system_id])
        failed.extend(group[j] for j in bad)
    if not failed:
        return
    issues: list[_Issue] = []
    for i, sheet, text in sorted(failed, key=operator.itemgetter(0)):
        table = under[sheet.system].table
        try:  # the rules' French wording of what is wrong
            rules.sheet_from_data(json.loads(text), table)
            lines = ["incohérente"]
        except rules.SheetError as exc:
            lines = exc.lines
        who = f"fiche n° {i + 1}" if doc.kind == "table" else "la fiche"
        shown = f" « {sheet.name} »" if sheet.name else ""
        for line in lines:
            issues.append(_Issue(f"{who}{shown} ne se rouvrirait pas : {line}"))
    issues.append(_Issue("rien n'a été écrit (l'ancien fichier est intact) ; corrigez la valeur et réessayez."))
    raise _problem(name, issues)


CHECK_AHEAD_BATCH = 32  # sheets checked in one step of ``checks_ahead`` (~1.5 ms)


def checks_ahead(sheets: Iterable[Any], house: Sequence[Any] = ()) -> Iterator[None]:
    """Check, as the next save will, the sheets not yet known good: one step (a batch of
    ``CHECK_AHEAD_BATCH`` sheets of one system) per item, so that idle time can stop between two.

    For idle time: the sheets the rules made (``rules.apply`` does not validate them) are checked
    while the user does nothing, so that saving finds them checked. The same check and the same
    memory as the save's (``_verify_sheets``): a sheet found bad here is left unmarked (and not tried
    again here), and the save checks it and refuses it, saying why; nothing else changes. Each sheet
    is looked at once: start again (a new iterator) when the sheets change.
    """
    tables = {h.system: h.table for h in house}
    under: dict[str, _Under] = {}
    todo: dict[str, list[Any]] = {}
    verified, refused = _VERIFIED, _REFUSED
    for sheet in sheets:
        system_id = sheet.system
        found = under.get(system_id)
        if found is None:
            found = under[system_id] = _Under(tables.get(system_id))
        if (sheet, found.key) in verified or (sheet, found.key) in refused:
            continue
        group = todo.setdefault(system_id, [])
        group.append(sheet)
        if len(group) >= CHECK_AHEAD_BATCH:
            _check_ahead(group, found)
            del todo[system_id]
            yield
    for system_id, group in todo.items():
        _check_ahead(group, under[system_id])
        yield


def _check_ahead(batch: list[Any], under: _Under) -> None:
    items = [(sheet, rules.sheet_to_json(sheet, indent=2)) for sheet in batch]
    for j in _check_group(type(batch[0]), items, under):
        _REFUSED.add(batch[j], under.key)


def document_data(doc: Document) -> dict[str, Any]:
    """The document as the plain JSON data its file holds."""
    data: dict[str, Any] = json.loads(encode_document(doc))
    return data


def stamp_of(path: Path | str) -> FileStamp:
    """Modification time and size of ``path`` now (no digest)."""
    st = os.stat(path)
    return FileStamp(st.st_mtime_ns, st.st_size)


def digest_of(path: Path | str) -> FileStamp | None:
    """What ``path`` is now, with its content's digest (None if it is not there or cannot be read)."""
    try:
        with open(path, "rb") as handle:
            st = os.fstat(handle.fileno())
            if not stat.S_ISREG(st.st_mode):
                return None
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError:
        return None
    return FileStamp(st.st_mtime_ns, len(data), hashlib.sha256(data).hexdigest())


def changed_since(path: Path | str, stamp: FileStamp) -> bool:
    """Whether the file at ``path`` differs from what ``stamp`` saw (a deleted file has not changed).

    When the stamp knows the content's digest, the content decides: a file only touched (same bytes,
    new time) has not changed, and a file rewritten with the same size and its old time put back
    (what ``cp -p``, ``rsync -t`` or ``tar`` do) has. Without a digest, time and size decide.
    """
    if not stamp.sha256:
        try:
            return stamp_of(path) != stamp
        except FileNotFoundError:
            return False
    try:
        with open(path, "rb") as handle:
            if handle.seek(0, os.SEEK_END) != stamp.size:
                return True
            handle.seek(0)
            return hashlib.sha256(handle.read(MAX_FILE_BYTES + 1)).hexdigest() != stamp.sha256
    except FileNotFoundError:
        return False
    except OSError:
        return True


def is_read_only(path: Path | str) -> bool:
    """Whether the existing file at ``path`` is marked read-only: not writable by us, or writable by
    nobody (its mode has no « w »: even an administrator's app respects it)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return stat.S_ISREG(mode) and (not os.access(path, os.W_OK) or not mode & 0o222)


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


@contextlib.contextmanager
def _folder_lock(folder: Path) -> Iterator[None]:
    """Hold a lock of sheet_app's own on ``folder`` (``flock`` on the folder itself: no lock file to
    leave behind): two sheet_app windows, even of two processes, never check-then-replace a file of
    the same folder at once. Best effort: where folders cannot be locked, nothing is held."""
    fd = None
    if fcntl is not None:
        try:
            fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0))
            fcntl.flock(fd, fcntl.LOCK_EX)
        except OSError:
            if fd is not None:
                os.close(fd)
            fd = None
    try:
        yield
    finally:
        if fd is not None:
            os.close(fd)  # releases the lock


# A temp file of ours: ``.<name>.<8 hex digits>.tmp`` (see ``atomic_write``).
_TEMP_NAME = re.compile(r"\..+\.[0-9a-f]{8}\.tmp")
STALE_TEMP_SECONDS = 600  # no save takes that long: an older temp file was left by a crash


def remove_stale_temps(folder: Path, older_than: float = STALE_TEMP_SECONDS) -> int:
    """Remove the temp files a crash during a save left in ``folder`` (ours by their name, stale by
    their age: a save in progress, even of another window, is seconds old); how many were removed."""
    removed = 0
    limit = time.time() - older_than
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                if not _TEMP_NAME.fullmatch(entry.name):
                    continue
                try:
                    if entry.is_file(follow_symlinks=False) and entry.stat(follow_symlinks=False).st_mtime < limit:
                        os.unlink(entry.path)
                        removed += 1
                except OSError:
                    continue
    except OSError:
        return removed
    return removed


def atomic_write(path: Path, data: bytes, check: Callable[[], None] | None = None) -> FileStamp:
    """Replace ``path`` by ``data`` so that any crash leaves the old file or the new one, never a mix.

    A temp file in the same folder (same file system, so the rename is atomic) is written, synced to
    disk, given the old file's permissions, then renamed over the target; the folder is synced too.
    ``check`` runs right before the rename, under ``_folder_lock``: it may raise to leave the old file
    (the last moment another program's change can be noticed). Then stale temp files a crash left in
    the folder are removed. Raises ``OSError`` (or what ``check`` raises); the temp file is removed on
    failure and the old file is untouched.
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
        with _folder_lock(folder):
            if check is not None:
                check()
            os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    _fsync_folder(folder)
    remove_stale_temps(folder)
    return FileStamp(st.st_mtime_ns, st.st_size, hashlib.sha256(data).hexdigest())


def _target(path: Path) -> Path:
    """Where to write: through a symbolic link to its target, so the link stays a link."""
    if path.is_symlink():
        return Path(os.path.realpath(path))
    return path


class ReadOnly(FileProblem):
    """The file is marked read-only: it is not replaced (offer « Enregistrer sous… »)."""


def write_document(path: Path | str, doc: Document, expected: FileStamp | None = None) -> FileStamp:
    """Save ``doc`` to ``path`` atomically; the stamp of what was written.

    ``expected``: the stamp taken when the file was opened or last saved; if the file changed on disk
    since, ``ChangedOnDisk`` is raised and nothing is written (pass ``None`` to overwrite anyway). The
    content is compared twice: before anything is written, and again right before the new file
    replaces it, under a lock every sheet_app holds for that moment (what remains: another program
    writing within that instant, or writing into the old file after the replace; see
    docs/file-format.md). A file marked read-only is not replaced: ``ReadOnly``. On any failure
    (read-only place, full disk…) ``FileProblem`` is raised and the old file is intact.
    """
    path = Path(path)
    name = str(path)
    data = encode_document(doc, name)
    changed = _problem(
        name, [_Issue("le fichier a été modifié ailleurs depuis son ouverture ; rien n'a été écrit.")], ChangedOnDisk
    )

    def unchanged() -> None:
        if expected is not None and changed_since(target, expected):
            raise changed

    try:
        target = _target(path)
        if target.is_dir():
            raise _problem(name, [_Issue("c'est un dossier : choisissez un nom de fichier.")])
        if is_read_only(target):
            raise _problem(
                name,
                [_Issue("le fichier est en lecture seule : rien n'a été écrit (enregistrez sous un autre nom).")],
                ReadOnly,
            )
        unchanged()
        return atomic_write(target, data, unchanged)
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
