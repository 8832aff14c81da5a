"""Helpers of the house-rule tests: edit one key of an exported table the way a GM does, in its line."""

from __future__ import annotations

import re
from typing import Any

from rules.house.toml_text import key_lines, toml_key, toml_value

# English words pydantic or Python would write; none is French. Keys and quoted values are left out
# of the check (``english_words``): they are the file's own words.
ENGLISH = re.compile(
    r"\b(Input|input|should|must|valid|integer|Unable|unable|parse|exceeded|Value|value|error|string|"
    r"greater|less|than|equal|Field|field|required|Extra|permitted|dictionary|instance|items|characters|"
    r"after|validation|not|or|and|the|of|to|is|with|at|least|most|Invalid|Assertion|failed|number|"
    r"range|float|object|expected|got|has|attribute|None|True|False|list|Expecting|line|column)\b"
)


def english_words(message: str) -> list[str]:
    """English words of a house-rule message, outside keys, file names and the file's quoted texts."""
    text = re.sub(r'"(?:[^"\\]|\\.)*"', "", message)
    text = re.sub(r"« [^»]*? »", "", text)
    text = re.sub(r"[\w./-]*[._/][\w./-]*", "", text)  # keys (saves.x), paths, file names
    return ENGLISH.findall(text)


def set_key(text: str, path: tuple[Any, ...], value: Any) -> tuple[str, int]:
    """``text`` with the key at ``path`` (or the nearest key holding it) given ``value`` on its line, as
    a GM edits an exported table; the text and the line number changed. ``value`` is the new value of
    the key found (``data_at`` gives it from a whole table's data)."""
    keys = key_lines(text)
    lines = text.split("\n")
    for end in range(len(path), 0, -1):
        number = keys.lines.get(path[:end])
        if number is None:
            continue
        line = lines[number - 1]
        if line.lstrip().startswith("["):
            if end != len(path) - 1 or not isinstance(path[-1], str):
                continue  # a header: the key is further in
            # A key the export left out (it had its default value): written under its table's header.
            new = toml_value(value(path) if callable(value) else value)
            lines.insert(number, f"{toml_key(path[-1])} = {new}")
            return "\n".join(lines), number + 1
        new = toml_value(value(path[:end]) if callable(value) else value)
        key, _, _ = line.partition("=")
        lines[number - 1] = f"{key.rstrip()} = {new}"
        return "\n".join(lines), number
    raise KeyError(path)


def data_at(data: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        data = data[part]
    return data
