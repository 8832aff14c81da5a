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
