"""Checks every system's property tests share."""

from __future__ import annotations

import random
from typing import Any

import rules


def apply_checked(sheet: Any, action: rules.Action, rng: random.Random) -> rules.Outcome | None:
    """``rules.apply``, asserting the input sheet never changes; ``None`` when the rules refuse."""
    before = sheet.model_dump()
    try:
        out = rules.apply(sheet, action, rng=rng)
    except rules.Refused:
        assert sheet.model_dump() == before, "a refused action changed its input"
        return None
    assert sheet.model_dump() == before, "apply mutated its input"
    assert all(isinstance(line, str) and line for line in out.log)
    return out


def story(start: Any, sequence: list[rules.Action], seed: int) -> list[object]:
    """What happens to ``start`` under ``sequence`` with dice from ``seed``: journals and refusals."""
    rng = random.Random(seed)
    sheet, told = start, []
    for action in sequence:
        try:
            out = rules.apply(sheet, action, rng=rng)
        except rules.Refused as exc:
            told.append(exc.reason)
            continue
        sheet = out.sheet
        told.append(out.log)
    told.append(rules.sheet_to_json(sheet))
    return told


def broken_table_message(system: str, shipped: Any, tmp_path: Any, old: str, new: str) -> str:
    """Copy ``system``'s shipped table with ``old`` replaced by ``new`` (which must be there), load it as a
    GM's copy, and return the ``RulesetError`` message, checked to name the file."""
    import pytest

    text = shipped.read_text(encoding="utf-8")
    assert old in text, f"{old!r} is not in the shipped table"
    broken = tmp_path / f"{system}-maison.toml"
    broken.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(rules.RulesetError) as err:
        rules.load_rules_table(system, broken)
    message = str(err.value)
    assert str(broken) in message
    return message


def toml_text(data: dict[str, Any]) -> str:
    """``data`` (parsed TOML: tables, arrays of tables, strings, numbers, booleans, lists) as TOML text.

    Tests build broken rule tables from the parsed data rather than by replacing text in the file, so a
    table edit never breaks them (issue 19).
    """
    import json
    import re

    def key(name: str) -> str:
        return name if re.fullmatch(r"[A-Za-z0-9_-]+", name) else json.dumps(name, ensure_ascii=False)

    def value(v: Any) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, (int, float)):
            return repr(v)
        if isinstance(v, str):
            return json.dumps(v, ensure_ascii=False)
        if isinstance(v, list):
            return "[" + ", ".join(value(x) for x in v) + "]"
        if isinstance(v, dict):
            return "{" + ", ".join(f"{key(k)} = {value(x)}" for k, x in v.items()) + "}"
        raise TypeError(f"no TOML for {v!r}")

    def is_table_array(v: Any) -> bool:
        return isinstance(v, list) and bool(v) and all(isinstance(x, dict) for x in v)

    lines: list[str] = []

    def emit(table: dict[str, Any], path: tuple[str, ...]) -> None:
        table = {k: v for k, v in table.items() if v is not None}  # TOML has no null: the key is left out
        for k, v in table.items():
            if not isinstance(v, dict) and not is_table_array(v):
                lines.append(f"{key(k)} = {value(v)}")
        for k, v in table.items():
            here = ".".join(key(p) for p in (*path, k))
            if isinstance(v, dict):
                lines.append(f"\n[{here}]")
                emit(v, (*path, k))
            elif is_table_array(v):
                for item in v:
                    lines.append(f"\n[[{here}]]")
                    emit(item, (*path, k))

    emit(data, ())
    return "\n".join(lines) + "\n"


def write_table(tmp_path: Any, data: dict[str, Any], name: str = "maison.toml") -> Any:
    """Write ``data`` as a TOML rule table in ``tmp_path``; returns its path."""
    path = tmp_path / name
    path.write_text(toml_text(data), encoding="utf-8")
    return path
