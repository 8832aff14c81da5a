"""d20: tests that kill the rule-table mutants the table-mutation check left alive (issue 19).

Each key of ``resources/rulesets/d20.toml`` changed to another valid value must make a rule test fail
(``python -m tests.rules.table_mutation d20``). These pin the shipped reading of the keys no other test
watched — the GM may change them in a house table, but then play changes, and a test must say so.
"""

from __future__ import annotations

import random

import pytest

import rules

ROUND = 6
MINUTE = 60


def sheet(**fields: object) -> rules.D20Sheet:
    base: dict[str, object] = {"name": "Aldric", "level": 3, "base_maximum": 30, "current": 30}
    base.update(fields)
    return rules.new_sheet("d20", **base)


def run(s: rules.D20Sheet, action: rules.Action, seed: int | None = None) -> rules.Outcome:
    return rules.apply(s, action, rng=random.Random(seed) if seed is not None else None)


def text(outcome: rules.Outcome) -> str:
    return "\n".join(outcome.log)


def test_a_minute_is_sixty_seconds_ten_rounds() -> None:
    """``time_units.minute``: time passing by minutes moves the clock 60 s each, ten rounds of 6 s (T3)."""
    s = sheet()
    out = run(s, rules.AdvanceTime(unit="minute", count=2))
    assert out.sheet.clock == s.clock + 2 * MINUTE == s.clock + 20 * ROUND
    assert out.sheet.clock == run(s, rules.AdvanceTime(unit="round", count=20)).sheet.clock


def test_massive_damage_counts_lethal_damage_only() -> None:
    """« Si le personnage subit une attaque si terrible qu'elle lui inflige au moins 50 points de dégâts, il
    doit réussir un jet de Vigueur (DD 15). » Nonlethal damage is not taken from the points de vie, so 50 of
    it asks for no Vigueur (``massive_damage.nonlethal_counts = false``, T6)."""
    big = sheet(base_maximum=120, current=120)
    soft = run(big, rules.Damage(amount=50, nonlethal=True, rolls=(1,)))
    assert "massive_damage" not in soft.events
    assert not soft.sheet.dead and soft.sheet.nonlethal == 50
    assert "Vigueur" not in text(soft)
    hard = run(big, rules.Damage(amount=50, rolls=(1,)))
    assert "massive_damage" in hard.events and hard.sheet.dead


def test_two_wounds_on_one_part_give_one_malus() -> None:
    """« le personnage subit un malus de -2 à toute action qu'il entreprend en se servant de la partie du corps
    blessée » — one malus for a wounded part, however many wounds it has (``penalties_stack = false``, T7)."""
    s = run(sheet(), rules.AddLocalWound(body_part="main_droite", note="flammes")).sheet
    second = run(s, rules.AddLocalWound(body_part="main_droite", note="lame"))
    assert len(second.sheet.wounds) == 2
    assert rules.derive(second.sheet).body_part_penalties == {"main_droite": -2}
    assert "(déjà blessée : le malus ne se cumule pas)" in text(second)
    first = run(sheet(), rules.AddLocalWound(body_part="main_droite"))
    assert "ne se cumule pas" not in text(first)


def test_healing_magic_does_not_heal_a_localised_wound_by_itself() -> None:
    """« Lorsqu'il reçoit ce genre de blessure, le personnage subit un malus de -2 » until the wound heals: a
    healing spell that does not bring the PV back to the maximum leaves it (``heal_by_magic = false``, T8)."""
    s = run(sheet(current=20), rules.AddLocalWound(body_part="oeil_gauche", note="flèche")).sheet
    out = run(s, rules.Heal(amount=5, magical=True))
    assert out.sheet.current == 25
    assert [w.body_part for w in out.sheet.wounds] == ["oeil_gauche"]
    assert "Blessures localisées guéries" not in text(out)
    full = run(out.sheet, rules.Heal(amount=5, magical=True))
    assert full.sheet.wounds == ()
    assert "Blessures localisées guéries (PV au maximum)" in text(full)


def test_recovery_alone_wakes_on_ten_percent_exactly() -> None:
    """« Chaque heure, il a 10 % de chances de reprendre connaissance. Chaque fois qu'il rate ce jet, il perd
    1 point de vie » — 10 on the d100 wakes him, 11 does not."""
    s = sheet(current=-3, recovery="alone")
    ten = run(s, rules.AdvanceTime(unit="hour", count=1, rolls=(10,)))
    assert ten.sheet.recovery == "alone_awake" and ten.sheet.current == -3
    eleven = run(s, rules.AdvanceTime(unit="hour", count=1, rolls=(11,)))
    assert eleven.sheet.recovery == "alone" and eleven.sheet.current == -4


def test_raised_from_constitution_zero_comes_back_at_one() -> None:
    """« Il peut également perdre la vie si un affaiblissement temporaire ou une diminution permanente de
    caractéristique fait tomber sa valeur de Constitution à 0. » Brought back, the Constitution returns to 1,
    not more (``restore_zero_abilities_to = 1``, T15)."""
    s = rules.new_sheet("d20", name="Essai", level=1, base_maximum=40, constitution=3)
    corpse = run(s, rules.AbilityDamage(ability="constitution", points=3)).sheet
    assert corpse.dead
    out = run(corpse, rules.Resurrection(procedure="souhait"))
    assert not out.sheet.dead
    assert out.sheet.constitution_damage == 2
    assert "Constitution ramenée à 1." in out.log


def test_supreme_resurrection_counts_as_a_successful_one() -> None:
    """« Le DD de base pour le test de résurrection final est de 10, augmentant de 1 pour chaque résurrection
    réussie précédente » — Résurrection suprême and Souhait count (``bypass_counts = true``, T16)."""
    dead = run(sheet(), rules.Damage(amount=40)).sheet
    back = run(dead, rules.Resurrection(procedure="resurrection_supreme")).sheet
    assert back.resurrections == 1
    again = run(back, rules.Damage(amount=40)).sheet
    assert rules.derive(again).resurrection_dd == 11


def test_helpless_can_be_set_by_hand() -> None:
    """« Il est sans défense si on continue à l'attaquer. » A GM can also mark a conscious character helpless
    (bound, held): ``[conditions.sans_defense] settable = true``."""
    out = run(sheet(), rules.SetCondition(condition="sans_defense"))
    d = rules.derive(out.sheet)
    assert "sans_defense" in d.conditions
    assert d.condition_reasons["sans_defense"] == "posé"
    lifted = run(out.sheet, rules.SetCondition(condition="sans_defense", active=False)).sheet
    assert rules.derive(lifted).conditions == ()
    with pytest.raises(rules.Refused, match="on ne le pose pas à la main"):
        run(sheet(), rules.SetCondition(condition="stabilise"))


# --- Code mutants left by the mutation sample (scripts/mutation sample d20) ------------------------


def test_raised_ability_takes_back_the_temporary_weakening_first() -> None:
    """« Il peut également perdre la vie si un affaiblissement temporaire ou une diminution permanente de
    caractéristique fait tomber sa valeur de Constitution à 0. » Brought back at 1, the point comes off the
    temporary weakening first; the permanent loss stays as it was."""
    s = rules.new_sheet("d20", name="Essai", level=1, base_maximum=40, constitution=3)
    s = run(s, rules.AbilityDamage(ability="constitution", points=1, drain=True)).sheet
    corpse = run(s, rules.AbilityDamage(ability="constitution", points=2)).sheet
    assert corpse.dead
    out = run(corpse, rules.Resurrection(procedure="souhait")).sheet
    assert (out.constitution_damage, out.constitution_drain) == (1, 1)


def test_nights_in_a_row_date_the_last_rest() -> None:
    """« Grâce à une bonne nuit de repos (8 heures de sommeil ou plus), un personnage regagne un nombre de
    points de vie égal à son niveau global. » Several days passed at once heal one night each and date the
    last one: a night's rest right after is refused, with when it could heal (T14)."""
    s = sheet(current=10)
    nights = run(s, rules.AdvanceTime(unit="night", count=2))
    assert nights.sheet.current == 16
    assert nights.sheet.last_rest_at == nights.sheet.clock
    with pytest.raises(
        rules.Refused,
        match="une seule guérison naturelle par période de 24 h ; ce repos pourra guérir en commençant dans 16 heures",
    ):
        run(nights.sheet, rules.LongRest())
