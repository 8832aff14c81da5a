"""Douaratil (seed 000): the health state and its sentence, as the table asks it of every creature after a
bulk action (``rules.table.health_state``, the ``state`` hook) and as ``rules.derive`` explains it.

Session 5, round 2: the hook takes the common case (standing, with points) first and reads the stored
maximum when there is no exhaustion; these tests hold what it says to what it said before (a copy of
the previous code below, on random sheets) and kill its mutants (exhaustion ignored, the points read
as the maximum)."""

from __future__ import annotations

import importlib
import random
from typing import Any

import rules
from rules import table as rtable
from rules.model import plural
from rules.systems.douaratil.sheet import effective_maximum

# The module (the package exports its ``derive`` function under the same name).
derive_module = importlib.import_module("rules.systems.douaratil.derive")


def sheet(**fields: Any) -> rules.DouaratilSheet:
    base: dict[str, Any] = {"name": "Brenna", "base_maximum": 14, "constitution": 10}
    base.update(fields)
    return rules.new_sheet("douaratil", **base)


def house(section: str, **changes: Any) -> rules.DouaratilRules:
    table = rules.ruleset("douaratil")
    data = table.model_dump()
    data[section].update(changes)
    return rules.DouaratilRules.model_validate(data)


def previous_health_state(sheet: Any, rs: Any) -> tuple[str, str]:
    """The hook as it was on main at f8680d2 (before this change), word for word."""
    if sheet.dead:
        return "mort", "a succombé"
    out = ", sans connaissance" if "inconscient" in sheet.conditions else ""
    if sheet.current == 0:
        if sheet.stabilised:
            return "stabilise", f"0 PA, stabilisation : plus de jets contre la mort{out}"
        if sheet.dies_at_zero:
            reprieve = sheet.death_in_rounds or 0
            return "mourant", f"monstre à 0 PA, succombe dans {plural(reprieve, 'round')}"
        return "mourant", f"0 PA{out} : jet contre la mort au début de chaque tour"
    if "inconscient" in sheet.conditions:
        rounds = f" ({plural(sheet.unconscious_rounds, 'round')} au plus)" if sheet.unconscious_rounds else ""
        return "inconscient", f"sans connaissance{rounds}"
    return "en_forme", f"{sheet.current} PA sur {effective_maximum(sheet, rs)}"


def test_an_exhausted_creature_standing_says_its_lowered_maximum() -> None:
    """« A noter que le malus impacte aussi le maximum de chaque catégorie. » The state's sentence of a
    standing creature names the maximum exhaustion leaves, not the stored one."""
    rs = rules.ruleset("douaratil")
    tired = sheet(exhaustion=2, current=9)
    assert effective_maximum(tired, rs) == 12
    assert rtable.health_state(tired) == "en_forme"
    assert derive_module.health_state(tired, rs) == ("en_forme", "9 PA sur 12")
    assert rules.derive(tired)["state"].text == "état : En forme (9 PA sur 12)"
    # A house table that takes 3 a level, never below 5: the sentence follows it.
    table = house("exhaustion", maximum_per_level=3, minimum_maximum=5)
    assert derive_module.health_state(sheet(exhaustion=2, current=4), table) == ("en_forme", "4 PA sur 8")
    assert derive_module.health_state(sheet(exhaustion=5, current=4), table) == ("en_forme", "4 PA sur 5")
    explained = rules.derive(sheet(exhaustion=2, current=4), table)["state"].text
    assert explained.startswith("état : En forme (4 PA sur 8) — règles maison")


def test_a_standing_creature_says_its_points_then_its_maximum() -> None:
    """« Les points d'action actuels d'une créature (généralement appelés simplement « points d'action ») se
    situent entre 0 et son maximum de points d'action. » The sentence says both, in that order."""
    rs = rules.ruleset("douaratil")
    hurt = rules.apply(sheet(), rules.Damage(amount=1)).sheet
    assert derive_module.health_state(hurt, rs) == ("en_forme", "13 PA sur 14")
    assert derive_module.health_state(sheet(current=1), rs) == ("en_forme", "1 PA sur 14")
    assert derive_module.health_state(sheet(), rs) == ("en_forme", "14 PA sur 14")


def test_without_exhaustion_the_state_reads_the_stored_maximum_only() -> None:
    """What must not come back: the table's state of a standing creature without exhaustion working out
    the effective maximum (the common case of a bulk blow to a thousand creatures)."""
    rs = rules.ruleset("douaratil")
    calls: list[Any] = []
    real = derive_module.effective_maximum

    def counted(s: Any, table: Any) -> int:
        calls.append(s)
        return real(s, table)

    derive_module.effective_maximum = counted  # type: ignore[assignment]
    try:
        assert derive_module.health_state(sheet(current=5), rs) == ("en_forme", "5 PA sur 14")
        assert calls == []
        assert derive_module.health_state(sheet(current=5, exhaustion=1), rs) == ("en_forme", "5 PA sur 13")
        assert len(calls) == 1
    finally:
        derive_module.effective_maximum = real  # type: ignore[assignment]


def test_the_state_says_what_it_said_before_on_random_sheets() -> None:
    """The hook against its previous code on random sheets and what random actions make of them (every
    state, with and without exhaustion, unconscious with or without points, monsters dying at 0)."""
    rs = rules.ruleset("douaratil")
    conditions = sorted(rs.conditions)
    rng = random.Random(5)
    seen: set[str] = set()
    for _ in range(150):
        top = rng.choice([0, 1, 2, 5, 14, 40])
        fields: dict[str, Any] = {"base_maximum": top, "exhaustion": rng.choice([0, 0, 1, 3, 6])}
        if rng.random() < 0.7:
            fields["current"] = rng.randint(0, top)
        if rng.random() < 0.4:
            fields["conditions"] = tuple(rng.sample(conditions, rng.randint(1, 2)))
        fields["dies_at_zero"] = rng.random() < 0.2
        try:
            s: Any = sheet(**fields)
        except rules.Refused:
            continue
        for _ in range(6):
            expected = previous_health_state(s, rs)
            assert derive_module.health_state(s, rs) == expected, s
            assert rtable.health_state(s) == expected[0]
            seen.add(expected[0])
            action = rng.choice(
                [
                    rules.Damage(amount=rng.choice([1, 3, 10])),
                    rules.Heal(amount=rng.choice([1, 5])),
                    rules.SetCondition(condition=rng.choice(conditions), active=rng.random() < 0.6),
                    rules.StartTurn(),
                    rules.Stabilise(),
                ]
            )
            try:
                s = rules.apply(s, action, rng=rng).sheet
            except rules.Refused:
                pass
    assert seen == set(rs.health_states)
