"""A rule table that does not validate, said in French with the line, the key, what was expected and what
was found: « ligne 42, saves.death_save_success : attendu un entier entre -100 et 1000, trouvé "dix" ».
"""

from __future__ import annotations

import difflib
import re
import typing
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ValidationError

from rules.errors import error_text, shown_location
from rules.house.schema import Slot, expected, known_keys, slot, unwrap
from rules.house.toml_text import KeyMap, Path, found_text, key_lines, key_text, toml_key

# Lines listed in one message; the rest are counted (« … et 12 autres problèmes »).
MAX_PROBLEMS = 8

_LEADING_KEY = re.compile(r"^([A-Za-z_][\w-]*(?:\.[\w-]+)*)\s+(?=\S)")


def _refined(loc: Path, message: str, keys: KeyMap) -> tuple[Path, str]:
    """A check of a whole table that names a key first (« death_at doit être inférieur à disabled_at »)
    is placed on that key's line: the key leaves the sentence and becomes its place."""
    m = _LEADING_KEY.match(message)
    if m is None:
        return loc, message
    parts = tuple(m.group(1).split("."))
    for candidate in ((*loc, *parts), parts):
        if candidate in keys.lines:
            return candidate, message[m.end() :]
    return loc, message


def _one(err: Mapping[str, Any], model: type[BaseModel], keys: KeyMap) -> tuple[Path, str]:
    """The place and the French sentence of one pydantic error about a rule table."""
    loc: Path = shown_location(err.get("loc", ()))
    kind = str(err.get("type", ""))
    if loc and loc[-1] == "[key]":  # a key of the wrong kind in a table of keys
        loc = loc[:-1]
        container = slot(model, loc[:-1])
        wanted = ""
        if container is not None:
            args = typing.get_args(container.annotation)
            if args:
                key_type, bounds, _ = unwrap(args[0])
                wanted = expected(Slot(key_type, bounds))
        found_key = f", trouvé {toml_key(loc[-1])}" if loc else ""
        return loc, (f"attendu comme clé {wanted}" if wanted else "clé invalide") + found_key
    if kind == "extra_forbidden":
        name = str(loc[-1]) if loc else ""
        close = difflib.get_close_matches(name, known_keys(model, loc[:-1]), n=1)
        hint = f" (vouliez-vous dire {close[0]} ?)" if close else ""
        return loc, f"clé inconnue{hint}"
    if kind in ("value_error", "assertion_error"):
        return _refined(loc, error_text(err), keys)
    found = slot(model, loc)
    if kind == "missing":
        wanted = f" (attendu {expected(found)})" if found is not None else ""
        return loc, f"la clé manque{wanted}"
    if found is None:
        return loc, error_text(err)
    return loc, f"attendu {expected(found)}, trouvé {found_text(err.get('input'))}"


def table_problems(
    exc: ValidationError, model: type[BaseModel], text: str | None, limit: int = MAX_PROBLEMS
) -> list[str]:
    """One French line per problem, ordered by line: « ligne 42, saves.x : attendu …, trouvé … »."""
    return [line for _, line in placed_problems(exc, model, text, limit)]


def placed_problems(
    exc: ValidationError, model: type[BaseModel], text: str | None, limit: int = MAX_PROBLEMS
) -> list[tuple[Path, str]]:
    """``table_problems`` with the place of each problem in the table (``()`` for « … et N autres »):
    a document that embeds the table finds the line of each in its own file."""
    keys = key_lines(text) if text is not None else KeyMap()
    found: list[tuple[int, Path, str]] = []
    seen: set[str] = set()
    for err in exc.errors(include_url=False):
        path, message = _one(err, model, keys)
        line, _ = keys.line_of(path)
        text_line = f"{key_text(path)} : {message}"
        if line is not None:
            text_line = f"ligne {line}, {text_line}"
        if text_line in seen:
            continue
        seen.add(text_line)
        found.append((line or 0, path, text_line))
    found.sort(key=lambda item: item[0])
    placed = [(path, text) for _, path, text in found[:limit]]
    rest = len(found) - limit
    if rest > 0:
        placed.append(((), f"… et {rest} autre{'s' if rest > 1 else ''} problème{'s' if rest > 1 else ''}"))
    return placed


def _leaves(data: Any, path: Path = ()) -> list[tuple[Path, Any]]:
    """Every value of ``data`` that is neither a table nor a list, with its place (without recursion)."""
    found: list[tuple[Path, Any]] = []
    pending: list[tuple[Path, Any]] = [(path, data)]
    while pending:
        where, node = pending.pop()
        if isinstance(node, dict):
            pending.extend(((*where, k), v) for k, v in node.items())
        elif isinstance(node, list):
            pending.extend(((*where, i), v) for i, v in enumerate(node))
        else:
            found.append((where, node))
    return found


def loose_types(model: type[BaseModel], data: Any, text: str | None, limit: int = MAX_PROBLEMS) -> list[str]:
    """Values pydantic would convert but a GM did not mean: ``1`` for a switch, ``true`` or ``3.0`` for an
    integer. A rule table is read strictly: each is a problem, said like the others."""
    keys = key_lines(text) if text is not None else KeyMap()
    found: list[tuple[int, str]] = []
    for path, value in _leaves(data):
        place = slot(model, path)
        if place is None:
            continue
        annotation = place.annotation
        if annotation is bool:
            wrong = not isinstance(value, bool)
        elif annotation is int:
            wrong = isinstance(value, (bool, float))
        else:
            continue
        if not wrong:
            continue
        line, _ = keys.line_of(path)
        sentence = f"{key_text(path)} : attendu {expected(place)}, trouvé {found_text(value)}"
        found.append((line or 0, f"ligne {line}, {sentence}" if line is not None else sentence))
    found.sort(key=lambda item: item[0])
    lines = [text for _, text in found[:limit]]
    rest = len(found) - limit
    if rest > 0:
        lines.append(f"… et {rest} autre{'s' if rest > 1 else ''} problème{'s' if rest > 1 else ''}")
    return lines
