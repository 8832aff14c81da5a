"""TOML as a game master reads and writes it: where each key sits in a file, and values written back.

``key_lines(text)`` reads a valid TOML text once, line by line, and says on which line each key (and
each ``[table]`` header) is written, with the comments just above it and at the end of its line: an
error about ``saves.death_save_success`` can then say « ligne 42 », and the exported table can carry the
shipped file's comments (the seed's words) next to each key. It never evaluates anything: the values are
parsed by ``tomllib`` elsewhere; here only keys, headers, strings, brackets and comments are told apart.

``toml_value`` and ``toml_key`` write Python data back as TOML (for the exported table and for the
« trouvé … » part of messages).
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from typing import Any

Path = tuple[str | int, ...]

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


@dataclass
class KeyMap:
    """Where each key of a TOML text is written (1-based lines) and the comments that go with it."""

    lines: dict[Path, int] = field(default_factory=dict)
    comments: dict[Path, list[str]] = field(default_factory=dict)

    def line_of(self, path: Path) -> tuple[int | None, Path]:
        """The line of ``path``, or of the nearest enclosing key or table written in the file."""
        for end in range(len(path), 0, -1):
            found = self.lines.get(path[:end])
            if found is not None:
                return found, path[:end]
        return None, ()


@dataclass
class _State:
    multiline: str | None = None  # the closing delimiter of a multi-line string being read
    depth: int = 0  # open brackets of a value that spans lines (arrays)


def _basic_string_end(s: str, i: int) -> int:
    """Index after the basic string that opens at ``s[i]`` (``"``), or ``len(s)``."""
    j = i + 1
    while j < len(s):
        if s[j] == "\\":
            j += 2
            continue
        if s[j] == '"':
            return j + 1
        j += 1
    return len(s)


def _scan_value(s: str, i: int, state: _State) -> str | None:
    """Read ``s`` from ``i`` as (part of) a value: strings and brackets tracked in ``state``; the text of
    a trailing comment if there is one."""
    n = len(s)
    while i < n:
        if state.multiline is not None:
            delim = state.multiline
            j = s.find(delim, i)
            while j > 0 and delim == '"""' and _escaped(s, j):
                j = s.find(delim, j + 1)
            if j < 0:
                return None
            i = j + 3
            while i < n and s[i] == delim[0]:  # up to two quotes may end the string's content
                i += 1
            state.multiline = None
            continue
        c = s[i]
        if s.startswith('"""', i) or s.startswith("'''", i):
            state.multiline = s[i : i + 3]
            i += 3
        elif c == '"':
            i = _basic_string_end(s, i)
        elif c == "'":
            j = s.find("'", i + 1)
            i = n if j < 0 else j + 1
        elif c in "[{":
            state.depth += 1
            i += 1
        elif c in "]}":
            state.depth = max(0, state.depth - 1)
            i += 1
        elif c == "#":
            return s[i + 1 :].strip()
        else:
            i += 1
    return None


def _escaped(s: str, j: int) -> bool:
    count = 0
    k = j - 1
    while k >= 0 and s[k] == "\\":
        count += 1
        k -= 1
    return count % 2 == 1


def _key(s: str, i: int) -> tuple[list[str], int]:
    """The dotted key that starts at ``s[i]``: its parts and the index after it."""
    parts: list[str] = []
    n = len(s)
    while True:
        while i < n and s[i] in " \t":
            i += 1
        if i >= n:
            break
        if s[i] == '"':
            end = _basic_string_end(s, i)
            raw = s[i:end]
            try:
                parts.append(json.loads(raw))
            except ValueError:
                parts.append(raw.strip('"'))
            i = end
        elif s[i] == "'":
            j = s.find("'", i + 1)
            j = n if j < 0 else j
            parts.append(s[i + 1 : j])
            i = j + 1
        else:
            m = _BARE_KEY.match(s, i)
            if m is None:
                break
            parts.append(m.group())
            i = m.end()
        while i < n and s[i] in " \t":
            i += 1
        if i < n and s[i] == ".":
            i += 1
            continue
        break
    return parts, i


def key_lines(text: str) -> KeyMap:
    """Where each key and table header of the (valid) TOML ``text`` is written, in one pass."""
    found = KeyMap()
    state = _State()
    header: Path = ()
    counters: dict[Path, int] = {}
    pending: list[str] = []
    for number, raw in enumerate(text.splitlines(), 1):
        if state.multiline is not None or state.depth > 0:
            _scan_value(raw, 0, state)
            continue
        s = raw.strip()
        if not s:
            pending = []
            continue
        if s.startswith("#"):
            pending.append(s[1:].removeprefix(" ").rstrip())
            continue
        comments, pending = pending, []
        if s.startswith("["):
            array = s.startswith("[[")
            parts, end = _key(s, 2 if array else 1)
            table: Path = tuple(parts)
            if array:
                index = counters.get(table, -1) + 1
                counters[table] = index
                found.lines.setdefault(table, number)
                table = (*table, index)
            header = table
            for cut in range(1, len(table)):
                found.lines.setdefault(table[:cut], number)
            found.lines[table] = number
            trailing = _scan_value(s, end, _State())
            _remember(found, table, comments, trailing)
            continue
        parts, end = _key(s, 0)
        if not parts or end >= len(s) or s[end] != "=":
            continue  # not a key line (the text was valid TOML: a value's continuation)
        path = (*header, *parts)
        for cut in range(len(header) + 1, len(path)):
            found.lines.setdefault(path[:cut], number)
        found.lines[path] = number
        trailing = _scan_value(s, end + 1, state)
        _remember(found, path, comments, trailing)
    return found


def _remember(found: KeyMap, path: Path, comments: list[str], trailing: str | None) -> None:
    lines = [*comments, *([trailing] if trailing else [])]
    if lines:
        found.comments[path] = lines


# --------------------------------------------------------------------------------------------------
# Writing values back
# --------------------------------------------------------------------------------------------------


def toml_key(key: str | int) -> str:
    """A key as TOML writes it: bare when it can be, else quoted (``"feu magique"``, ``""``)."""
    text = str(key)
    if _BARE_KEY.fullmatch(text):
        return text
    return toml_string(text)


def toml_string(text: str) -> str:
    """A TOML basic string (escapes what TOML requires, keeps accents as they are)."""
    out = json.dumps(text, ensure_ascii=False)
    # TOML also forbids DEL and the other control characters JSON leaves alone.
    return re.sub(r"[\x7f\x80-\x9f]", lambda m: f"\\u{ord(m.group()):04x}", out)


def toml_value(value: Any) -> str:
    """``value`` (parsed TOML or a table's data) written as TOML, inline."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return toml_string(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        if not value:
            return "{}"
        return "{ " + ", ".join(f"{toml_key(k)} = {toml_value(v)}" for k, v in value.items()) + " }"
    return toml_string(str(value))


def found_text(value: Any, limit: int = 60) -> str:
    """A value a file gave, as a message quotes it after « trouvé » (TOML spelling, shortened)."""
    if isinstance(value, dict):
        return "une table"
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**15:
        return f"un nombre de {len(str(abs(value)))} chiffres"
    if value is None:
        return "rien"
    try:
        text = toml_value(value)
    except RecursionError:
        return "des données imbriquées trop profondément"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def key_text(path: Path) -> str:
    """A key's place as a GM finds it in the file: ``saves.death_save_success``, ``trauma.tiers n° 2``."""
    out = ""
    after_index = False
    for part in path:
        if isinstance(part, int):
            out += f" n° {part + 1}"
            after_index = True
        else:
            out += (", " if after_index else "." if out else "") + toml_key(part)
            after_index = False
    return out or "(la table entière)"
