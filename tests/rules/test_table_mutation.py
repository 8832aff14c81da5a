"""The table-mutation check (tests/rules/table_mutation.py): its mutants are real and valid, its list of
untested keys names real keys, and a small sample runs here (the full sweep is a script mode)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

import rules
from tests.rules import table_mutation as tm


@pytest.mark.parametrize("system", rules.SYSTEMS)
def test_every_number_and_switch_of_the_table_gets_a_valid_mutant(system: str) -> None:
    data = tm.table_data(system)
    found, stuck = tm.mutants_of(system)
    numbers_and_switches = [path for path, value in tm.leaves(data) if isinstance(value, int | float)]  # bool too
    mutated = {m.path for m in found}
    stuck_keys = {key for key, _ in stuck}
    for path in numbers_and_switches:
        assert path in mutated or tm.key_text(path) in stuck_keys, tm.key_text(path)
    for mutant in found[:: max(1, len(found) // 10)]:
        assert mutant.new != mutant.old
        table = tm.build(mutant)  # valid for the system's schema
        assert table != rules.ruleset(system)


def test_mutants_are_built_from_the_parsed_table_not_its_text() -> None:
    found, _ = tm.mutants_of("d20")
    die = next(m for m in found if m.key == "general.check_die")
    assert (die.old, die.new) == (20, 21)
    assert tm.build(die).general.check_die == 21
    assert rules.ruleset("d20").general.check_die == 20  # the shipped table is left alone
    flag = next(m for m in found if m.key == "nonlethal.healing_removes")
    shipped = rules.ruleset("d20").nonlethal.healing_removes
    # A Literal switch ("any" | "magical"): the mutant is the shipped word's other value.
    assert (flag.old, flag.new) == (shipped, {"any": "magical", "magical": "any"}[shipped])
    assert tm.build(flag).nonlethal.healing_removes == flag.new


def test_untested_keys_are_keys_of_the_tables_with_a_reason() -> None:
    for system, keys in tm.UNTESTED.items():
        assert system in rules.SYSTEMS
        mutated = {m.key for m in tm.mutants_of(system)[0]}
        for key, reason in keys.items():
            assert key in mutated, (system, key)
            assert len(reason) > 10, (system, key)


def test_table_mutant_sample_is_caught() -> None:
    """Runs the check as a developer does, on 2 mutants drawn at random (seeded), plus its canary:
    the unchanged table must pass, or a "killed" would mean nothing."""
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    done = subprocess.run(
        [sys.executable, "-m", "tests.rules.table_mutation", "--sample", "2", "--seed", "5"],
        cwd=tm.ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert "canari : la table d'origine passe" in done.stdout, done.stdout + done.stderr
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count(tm.KILLED) >= 2
