"""A house table the schema accepts never crashes the rules (issue 16, item 20).

« Accepted tables that crash the rules: Douaratil `hour = 0` → `ZeroDivisionError` in `derive` once
`wake_in` is set; segments `[conditions.fatigue] effects = []` → `IndexError` in `AddFatigue`. The table
schema encodes what the code relies on (positive durations, non-empty ladders…); a property test mutates
each key of each table and asserts: refused with a French `RulesetError`, or every action of a random
sequence runs without an exception other than `Refused`. »

The mutants are hostile but well typed: every number of a table set to 0, −1, 1 or far too big, every
switch flipped, every text emptied, every list emptied, cut to one item or given one more, every table
of entries emptied or missing one entry (``leaves`` and ``with_value`` of ``tests/rules/house_mutants.py``
walk the parsed table). Each goes through the house-rule reader; one it
accepts plays a random game (the actions of ``tests/files/strategies.py``) on a sheet that fits it.
``python -m tests.rules.test_house_tables_run`` sweeps every mutant instead of a sample.
"""

from __future__ import annotations

import functools
import random
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rules
from rules import house
from rules.house.toml_text import key_text
from tests.files.strategies import actions
from tests.rules import house_mutants as tm
from tests.rules.house_helpers import english_words

Mutant = tuple[tuple[Any, ...], Any]  # (path, the table's data with that one change)


def _hostile(value: Any) -> list[Any]:
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, int):
        return [0, -1, 1, 10**9, -(10**9)]
    if isinstance(value, float):
        return [0.0, -1.0, 1e12, float("inf"), float("nan")]
    if isinstance(value, str):
        return ["", "inconnu"]
    return []


def _containers(data: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    if isinstance(data, dict):
        if path:
            yield path, data
        for key, value in data.items():
            yield from _containers(value, (*path, key))
    elif isinstance(data, list):
        yield path, data
        for index, value in enumerate(data):
            yield from _containers(value, (*path, index))


@functools.cache
def mutants(system_id: str) -> tuple[tuple[str, tuple[Any, ...], Any], ...]:
    """(key, path, new value) of every hostile one-key change of ``system_id``'s table."""
    data = tm.table_data(system_id)
    found: list[tuple[str, tuple[Any, ...], Any]] = []
    for path, value in tm.leaves(data):
        found.extend((key_text(path), path, new) for new in _hostile(value))
    for path, node in _containers(data):
        key = key_text(path)
        if isinstance(node, dict):
            found.append((key, path, {}))
            found.extend((f"{key} sans {k}", path, {x: v for x, v in node.items() if x != k}) for k in node)
        else:
            found.extend([(key, path, []), (key, path, node[:1]), (key, path, [*node, *node[-1:]])])
    return tuple(found)


def _house_rules(system_id: str, path: tuple[Any, ...], new: Any) -> house.HouseRules | None:
    data = tm.with_value(tm.table_data(system_id), path, new)
    try:
        return house.house_rules_from_data(system_id, {"title": "Mutant", "table": data}, "maison.toml")
    except rules.RulesetError as exc:
        message = str(exc)
        assert message.startswith("maison.toml : ") and not english_words(message), message
        return None


def _start(system_id: str, table: Any) -> Any:
    """The demo sheet when it fits the table, else a new sheet (which must)."""
    demo = rules.demo_sheet(system_id)
    if not house.sheet_problems(demo, table):
        return demo
    fresh = rules.new_sheet(system_id)
    assert not house.sheet_problems(fresh, table), house.sheet_problems(fresh, table)
    return fresh


def play(system_id: str, table: Any, sequence: list[Any], seed: int) -> int:
    """Every action of ``sequence`` under ``table``: applied or refused, never another exception; the
    derived values and the description follow. How many were applied."""
    sheet = _start(system_id, table)
    rng = random.Random(seed)
    rules.describe(system_id, table)
    rules.derive(sheet, table).explain("maximum")
    applied = 0
    for action in sequence:
        if action is None:
            continue
        try:
            sheet = rules.apply(sheet, action, rng, rules_table=table).sheet
        except rules.Refused:
            continue
        applied += 1
        derived = rules.derive(sheet, table)
        for name in derived:
            derived.explain(name)
    return applied


def _time_passes(system_id: str) -> list[Any]:
    unit = rules.describe(system_id).round_unit
    return [rules.AdvanceTime(unit=unit, count=3), rules.AdvanceTime(unit="hour", count=30)]


@st.composite
def games(draw: st.DrawFn) -> tuple[str, str, Any, list[Any], int]:
    system_id = draw(st.sampled_from(rules.SYSTEMS))
    key, path, new = draw(st.sampled_from(mutants(system_id)))
    sequence = draw(st.lists(actions(system_id), min_size=5, max_size=20))
    return system_id, key, (path, new), [*sequence, *_time_passes(system_id)], draw(st.integers(0, 2**16))


@settings(max_examples=150)
@given(games())
def test_a_hostile_house_table_is_refused_in_french_or_plays_without_crashing(
    game: tuple[str, str, Any, list[Any], int],
) -> None:
    system_id, _key, (path, new), sequence, seed = game
    rules_ = _house_rules(system_id, path, new)
    if rules_ is not None:
        play(system_id, rules_.table, sequence, seed)


@pytest.mark.parametrize(
    ("system_id", "path", "new"),
    [
        # The two of the issue, refused in French now.
        ("douaratil", ("time_units", "hour"), 0),
        ("segments", ("conditions", "fatigue", "effects"), []),
    ],
)
def test_the_issue_s_two_tables(system_id: str, path: tuple[Any, ...], new: Any) -> None:
    rules_ = _house_rules(system_id, path, new)
    if rules_ is not None:
        sheet = _start(system_id, rules_.table)
        play(system_id, rules_.table, [*_time_passes(system_id)], 1)
        if system_id == "segments":
            out = rules.apply(sheet, rules.AddFatigue(), random.Random(1), rules_table=rules_.table)
            assert rules.derive(out.sheet, rules_.table).explain("conditions")


def sweep(systems: list[str]) -> int:
    """Every mutant of ``systems`` with two random games each: the crashes, if any, are printed."""
    from hypothesis import find  # noqa: F401  (hypothesis is only used to draw the games)

    failures = 0
    for system_id in systems:
        pool = [a for a in (actions(system_id).example() for _ in range(400)) if a is not None]
        found = mutants(system_id)
        accepted = 0
        for index, (key, path, new) in enumerate(found):
            rules_ = _house_rules(system_id, path, new)
            if rules_ is None:
                continue
            accepted += 1
            rng = random.Random(index)
            for seed in (1, 2):
                sequence = [*rng.sample(pool, 25), *_time_passes(system_id)]
                try:
                    play(system_id, rules_.table, sequence, seed)
                except Exception as exc:  # the sweep reports every crash
                    failures += 1
                    print(f"{system_id}: {key} = {new!r} : {type(exc).__name__}: {exc}", flush=True)
                    break
        print(f"{system_id} : {len(found)} tables mutantes, {accepted} acceptées", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    import warnings

    warnings.filterwarnings("ignore")
    raise SystemExit(sweep(sys.argv[1:] or list(rules.SYSTEMS)))
