"""Loading rule tables (TOML) into pydantic models, with errors naming the file and the field.

The shipped tables live in ``resources/rulesets/<system>.toml``. A GM's own copy (house rules) goes
through the very same validation: ``load_ruleset(model, path)``.
"""

from __future__ import annotations

import functools
import json
import os
import re
import stat
import sys
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from rules.errors import RulesetError, describe_validation_error, os_reason

if TYPE_CHECKING:
    import tomllib

MAX_RULESET_BYTES = 2_000_000

R = TypeVar("R", bound=BaseModel)


class Table(BaseModel):
    """Base of every rule-table model: immutable, unknown keys refused (typos show up)."""

    # Built when first used (issue 15): loading a table validates its system's top model alone, whose
    # validator holds the nested ones; the bases and the nested models on their own are never built at a start.
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class HealthStateTable(Table):
    """A health state as the sheet's badge shows it (every system's table has them)."""

    label: str
    """Nom de l'état de santé, tel que le badge de la fiche l'affiche."""
    colour: str = Field(pattern=r"^#[0-9a-fA-F]{6}$")
    """Couleur du badge, en hexadécimal (#rrvvbb)."""


class ConditionGroupTable(Table):
    """A group of conditions, as the seed groups them."""

    label: str
    """Nom du groupe d'états, tel que la fiche l'affiche."""


class ConditionTable(Table):
    """A condition (état): its label, group and effects as French text; systems add their numbers."""

    label: str
    """Nom de l'état, tel que la fiche l'affiche."""
    group: str
    """Groupe de l'état (une clé de condition_groups)."""
    effects: tuple[str, ...]
    """Effets de l'état, en phrases, tels que la fiche les montre."""
    implies: tuple[str, ...] = ()
    """États que celui-ci entraîne avec lui (des clés de conditions)."""


def check_condition_references(
    conditions: Mapping[str, ConditionTable],
    groups: Mapping[str, ConditionGroupTable],
    health_states: Mapping[str, HealthStateTable],
    needed_states: Iterable[str] = (),
    needed_conditions: Iterable[str] = (),
) -> None:
    """Raise ``ValueError`` (French) when a table cites a group, state or condition it does not define."""
    for cid, cond in conditions.items():
        if cond.group not in groups:
            raise ValueError(f"l'état « {cid} » cite un groupe inconnu « {cond.group} »")
        for other in (*cond.implies, *getattr(cond, "on_end_adds", ())):
            if other not in conditions:
                raise ValueError(f"l'état « {cid} » cite un état inconnu « {other} »")
    for needed in needed_states:
        if needed not in health_states:
            raise ValueError(f"l'état de santé « {needed} » manque dans health_states")
    for needed in needed_conditions:
        if needed not in conditions:
            raise ValueError(f"l'état « {needed} » manque dans conditions")


def check_time_units(time_units: Mapping[str, int], needed: Iterable[str]) -> None:
    """Raise ``ValueError`` (French) when a unit the rules count in is missing from ``time_units``."""
    for unit in needed:
        if unit not in time_units:
            raise ValueError(f"l'unité de temps « {unit} » manque dans time_units")


# tomllib's messages (Python 3.11), in French; the coordinates that follow them are kept as a line.
_TOML_MESSAGES: tuple[tuple[str, str], ...] = (
    ("Invalid statement", "instruction invalide"),
    ("Cannot overwrite a value", "une valeur est définie deux fois"),
    ("Cannot declare", "une table est déclarée deux fois"),
    ("Cannot mutate immutable namespace", "une table en ligne ou une liste ne se complète pas plus loin"),
    ("Cannot redefine namespace", "une table est redéfinie"),
    ("Duplicate inline table key", "une clé figure deux fois dans la table en ligne"),
    ("Expected ']' at the end of a table declaration", "« ] » attendu à la fin du nom de table"),
    ("Expected ']]' at the end of an array declaration", "« ]] » attendu à la fin du nom de liste de tables"),
    ("Expected '=' after a key in a key/value pair", "« = » attendu après la clé"),
    ("Invalid initial character for a key part", "caractère invalide au début d'une clé"),
    ("Unclosed array", "liste non fermée"),
    ("Unclosed inline table", "table en ligne non fermée"),
    ("Unescaped '\\' in a string", "« \\ » non échappé dans un texte"),
    ("Invalid hex value", "séquence \\u invalide"),
    ("Escaped character is not a Unicode scalar value", "caractère échappé invalide"),
    ("Unterminated string", "texte sans guillemet fermant"),
    ("Illegal character", "caractère interdit dans un texte"),
    ("Found invalid character", "caractère invalide"),
    ("Invalid date or datetime", "date invalide"),
    ("Invalid value", "valeur invalide"),
    ("Expected newline or end of document after a statement", "fin de ligne attendue après la valeur"),
    ("Expected", "caractère attendu manquant"),
)
_TOO_DEEP = "données imbriquées trop profondément (ce n'est pas une table de règles)."
_TOO_BIG = f"fichier trop gros pour une table de règles (au plus {MAX_RULESET_BYTES:,} octets).".replace(",", "\u202f")
_TOML_WHERE = re.compile(r"\(at (?:line (\d+), column (\d+)|end of document)\)$")


def _toml_error(exc: tomllib.TOMLDecodeError, source: str) -> RulesetError:
    """A French ``RulesetError`` for tomllib's English one: its line and column kept."""
    text = str(exc)
    what = next((fr for en, fr in _TOML_MESSAGES if text.startswith(en)), "syntaxe incorrecte")
    expected = re.match(r"Expected '(.{1,3})' \(", text)
    if expected:
        what = f"« {expected.group(1)} » attendu ici"
    where = _TOML_WHERE.search(text)
    if where is None:
        place = ""
    elif where.group(1) is None:
        place = "fin du fichier : "
    else:
        place = f"ligne {where.group(1)} (colonne {where.group(2)}) : "
    return RulesetError(f"{source} : {place}syntaxe TOML invalide : {what}.")


def parse_toml(text: str, source: str) -> dict[str, Any]:
    """The data of the TOML ``text`` of a rule table; a French ``RulesetError`` naming ``source`` (and the
    line, for the syntax) when it is not TOML: deep nesting and giant integers too, which the TOML parser
    itself lets escape.

    ``tomllib`` is imported here, when a table is parsed (issue 15): a start that finds the shipped table's
    data already parsed (``keep_parsed_tables``) never imports it (~12 M instructions of compiled regular
    expressions and modules)."""
    import tomllib

    text = text.removeprefix("\ufeff")  # a UTF-8 byte-order mark, as some editors write
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise _toml_error(exc, source) from None
    except RecursionError:
        raise RulesetError(f"{source} : {_TOO_DEEP}") from None
    except ValueError:  # an integer of thousands of digits (Python's own guard)
        raise RulesetError(f"{source} : nombre démesuré (des milliers de chiffres).") from None


def validate_table(model: type[R], data: Any, source: str) -> R:
    """``data`` (a TOML table's) validated as ``model``; a French ``RulesetError`` naming ``source`` and
    the keys as written in the file otherwise."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        # The keys as written in the TOML file: they are what its author must find.
        lines = describe_validation_error(exc, labels=None)
        raise RulesetError(f"{source} : " + " ; ".join(lines)) from None
    except RecursionError:
        raise RulesetError(f"{source} : {_TOO_DEEP}") from None


def parse_ruleset(model: type[R], text: str, source: str) -> R:
    """Validate TOML ``text`` as ``model``; ``source`` names the file in messages.

    Every failure is a French ``RulesetError`` naming the file (and the line, for the syntax): deep
    nesting and giant integers too, which the TOML parser itself lets escape.
    """
    return validate_table(model, parse_toml(text, source), source)


def _read_table(path: Path) -> bytes:
    """The bytes of a rule table file: only an ordinary file, at most ``MAX_RULESET_BYTES``; a pipe,
    a device or a folder is refused without being read (a pipe would block, ``/dev/zero`` never ends)."""
    st = os.stat(path)
    if stat.S_ISDIR(st.st_mode):
        raise RulesetError(f"{path} : c'est un dossier, pas une table de règles.")
    if not stat.S_ISREG(st.st_mode):
        raise RulesetError(f"{path} : ce n'est pas un fichier ordinaire (périphérique, tube…) : rien n'a été lu.")
    if st.st_size > MAX_RULESET_BYTES:
        raise RulesetError(f"{path} : {_TOO_BIG}")
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):  # swapped since the check
            raise RulesetError(f"{path} : ce n'est pas un fichier ordinaire (périphérique, tube…) : rien n'a été lu.")
        chunks: list[bytes] = []
        total = 0
        while chunk := os.read(fd, min(1 << 20, MAX_RULESET_BYTES + 1 - total)):
            chunks.append(chunk)
            total += len(chunk)
            if total > MAX_RULESET_BYTES:
                raise RulesetError(f"{path} : {_TOO_BIG}")
    finally:
        os.close(fd)
    return b"".join(chunks)


def load_ruleset(model: type[R], path: Path) -> R:
    """Load a GM's rule table from ``path`` (same limits and French errors as sheet files)."""
    try:
        raw = _read_table(path)
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise RulesetError(f"{path} : ligne {line} : le fichier n'est pas en UTF-8.") from None
    except OSError as exc:
        raise RulesetError(f"{path} : lecture impossible ({os_reason(exc)}).") from None
    except ValueError:  # a NUL character in the path
        raise RulesetError(f"{path} : nom de fichier invalide.") from None
    return parse_ruleset(model, text, str(path))


def shipped_text(system: str) -> tuple[str, str]:
    """Text of the shipped table for ``system`` and the name to show in messages.

    Read from the ``resources`` package's folder, as the app finds its demo sheets
    (``sheet_app.settings.examples_dir``): ``importlib.resources`` would cost a start its import (with
    ``zipfile``'s, ~3 ms) for the same file (issue 15)."""
    import resources

    name = f"{system}.toml"
    path = Path(resources.__file__).parent / "rulesets" / name
    return path.read_text(encoding="utf-8"), f"resources/rulesets/{name}"


# Where the shipped tables' parsed data is kept between starts (``keep_parsed_tables``); None: nowhere.
_parsed_folder: Path | None = None
_PARSED_FORMAT = 1
_MAX_PARSED_BYTES = 4 * MAX_RULESET_BYTES  # the text and its data, as JSON (escapes included)


def keep_parsed_tables(folder: Path | None) -> None:
    """Keep the data of each shipped table, as parsed from its TOML text, in ``folder`` (the app's cache
    folder; None: nowhere, the default), to be read back at the next start instead of parsing the text.

    Issue 15: parsing a shipped table (~12 KB of TOML) took ~16 M instructions of every start, and importing
    ``tomllib`` ~12 M more; reading the parsed copy back (JSON) takes ~1 M. Only the parsing is kept, never
    the validation: the data is validated by the table's model at every start, as before, so a refusal is
    the same refusal, in the same words. The copy holds the whole text it was parsed from and is used only
    for that very text (and the same Python, whose ``tomllib`` parsed it): a table a GM edited is parsed
    again (and its new data kept). A copy that cannot be read or written is ignored: the text is parsed."""
    global _parsed_folder
    _parsed_folder = folder


def _parsed_path(system: str) -> Path | None:
    return None if _parsed_folder is None else _parsed_folder / f"{system}.json"


def _kept_data(path: Path, text: str) -> Any:
    """The data kept in ``path`` for exactly ``text`` by this Python, or None."""
    try:
        with open(path, "rb") as kept:
            raw = kept.read(_MAX_PARSED_BYTES + 1)
        if len(raw) > _MAX_PARSED_BYTES:
            return None
        blob = json.loads(raw)
    except (OSError, ValueError, RecursionError):  # none, unreadable, not JSON, not UTF-8, too deep
        return None
    if (
        not isinstance(blob, dict)
        or blob.get("format") != _PARSED_FORMAT
        or blob.get("python") != sys.version
        or blob.get("text") != text
        or not isinstance(blob.get("data"), dict)
    ):
        return None
    return blob["data"]


def _keep_data(path: Path, text: str, data: dict[str, Any]) -> None:
    """Keep ``data``, parsed from ``text``, in ``path`` (written whole, then moved in place: a start that
    reads it meanwhile sees the old copy or the new one); nothing when it cannot be written as JSON exactly
    (a date or time of TOML) or when the folder cannot be written."""
    try:
        blob = json.dumps({"format": _PARSED_FORMAT, "python": sys.version, "text": text, "data": data})
    except TypeError:  # a date or a time: no JSON type holds it
        return
    part = path.with_name(f"{path.name}.{os.getpid()}.part")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        part.write_text(blob, encoding="utf-8")
        os.replace(part, path)
    except OSError:
        try:
            part.unlink(missing_ok=True)
        except OSError:  # the folder itself could not be made
            pass


def shipped_data(system: str) -> tuple[Any, str]:
    """The data of the shipped table of ``system``, as ``parse_toml`` gives it, and the name to show in
    messages: read from the copy kept for its very text (``keep_parsed_tables``), else parsed (and kept)."""
    text, source = shipped_text(system)
    path = _parsed_path(system)
    data = None if path is None else _kept_data(path, text)
    if data is None:
        data = parse_toml(text, source)
        if path is not None:
            _keep_data(path, text, data)
    return data, source


@functools.cache
def _cached(model: type[BaseModel], system: str) -> BaseModel:
    data, source = shipped_data(system)
    return validate_table(model, data, source)


def shipped_ruleset(model: type[R], system: str) -> R:
    """The shipped table for ``system`` (validated once, then cached)."""
    result = _cached(model, system)
    assert isinstance(result, model)
    return result


V = TypeVar("V")


def per_table(build: Callable[[Any], V], keep: int = 64) -> Callable[[Any], V]:
    """``build(table)`` computed once per rule table (issue 15: what a handler reads of its table, every action).

    A table is immutable once loaded, so the value is kept by the table's identity; the table is kept beside
    its value, so its id cannot be reused by another table while cached. The table of the last call is
    answered without a dict lookup (nearly always the shipped one); house tables come and go, so at most
    ``keep`` are kept.
    """
    cache: dict[int, tuple[Any, V]] = {}
    last: list[Any] = [None, None]

    def value_of(table: Any) -> V:
        if last[0] is table:
            found: V = last[1]
            return found
        pair = cache.get(id(table))
        if pair is None or pair[0] is not table:
            if len(cache) >= keep:
                cache.clear()
            pair = cache[id(table)] = (table, build(table))
        last[0], last[1] = pair
        return pair[1]

    value_of.__doc__ = build.__doc__
    return value_of
