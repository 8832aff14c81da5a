"""Douaratil's odds (seed 000) against hand-computed values and against the real rules."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rules
from tests.rules.odds_helpers import (
    RUNS,
    exact_story,
    monte_carlo,
    outcomes_of,
    success_share,
    within_standard_errors,
)

NBSP = "\u00a0"
P10 = Fraction(135, 216)  # P(3d6 ≥ 10)


def dying(**fields: Any) -> Any:
    base: dict[str, Any] = {"name": "Ulfred", "base_maximum": 14, "current": 0, "constitution": 12}
    return rules.new_sheet("douaratil", **{**base, **fields})


def test_the_death_save_is_three_dice_against_ten() -> None:
    """« Lancez 3d6 (non explosifs). Sur un résultat de 10 ou plus, vous avez réussi. »"""
    save = rules.sheet_odds(dying()).get("death_save")
    assert save is not None
    assert save.probability == pytest.approx(float(P10))
    assert save.percent == f"62,5{NBSP}%"
    assert save.text == f"Jet contre la mort : 3d6 ≥ 10 : 62,5{NBSP}%"
    assert save.action == "death_save" and save.trigger == "time"


def malus_on_death_saves() -> Any:
    """A house table where the exhaustion malus applies to the death save too (the earlier reading of D9)."""
    table = rules.ruleset("douaratil")
    return table.model_copy(update={"saves": table.saves.model_copy(update={"exhaustion_on_death_saves": True})})


def test_exhaustion_and_the_death_save() -> None:
    """« À la différence des autres jets de sauvegarde, celui-ci n'est pas lié à une caractéristique. Vous êtes
    entre les mains du destin »: with the shipped table (D9) the malus stays off the death save, 3d6 ≥ 10 at
    any level. A house table that applies « Le malus s'applique à tout lancer de dés » to it too: at level 2,
    3d6 − 2 ≥ 10 is 3d6 ≥ 12, 81 faces of 216."""
    shipped = rules.sheet_odds(dying(exhaustion=2)).get("death_save")
    assert shipped is not None and shipped.probability == pytest.approx(float(P10))
    assert shipped.text == f"Jet contre la mort : 3d6 ≥ 10 : 62,5{NBSP}%"
    save = rules.sheet_odds(dying(exhaustion=2), rules_table=malus_on_death_saves()).get("death_save")
    assert save is not None
    assert save.probability == pytest.approx(81 / 216)
    assert save.text == f"Jet contre la mort : 3d6 − 2 (épuisement niveau 2) ≥ 10 : 37,5{NBSP}%"


def test_the_numbers_come_from_the_rule_table() -> None:
    table = rules.ruleset("douaratil")
    house = table.model_copy(
        update={"saves": table.saves.model_copy(update={"death_save_success": 12, "exhaustion_on_death_saves": False})}
    )
    save = rules.sheet_odds(dying(exhaustion=3), rules_table=house).get("death_save")
    assert save is not None and save.probability == pytest.approx(81 / 216)
    assert "épuisement" not in save.how
    assert rules.action_odds(dying(), rules.DeathSave(), rules_table=house)[0].probability == pytest.approx(81 / 216)


def test_the_chance_of_pulling_through_from_where_the_character_stands() -> None:
    """« après trois succès, vous êtes stabilisé … et après trois échecs, vous mourez. Ces succès ou ces
    échecs n'ont pas besoin d'être consécutifs »."""
    p = float(P10)
    q = 1 - p
    fresh = rules.sheet_odds(dying()).survival
    assert fresh is not None
    assert fresh.probability == pytest.approx(p**3 * (1 + 3 * q + 6 * q * q))
    assert fresh.percent == f"72,5{NBSP}%"
    assert fresh.trigger == "story"
    two_two = rules.sheet_odds(dying(death_successes=2, death_failures=2)).survival
    assert two_two is not None and two_two.probability == pytest.approx(p)
    assert "déjà 2 succès et 2 échecs" in two_two.how
    last_chance = rules.sheet_odds(dying(death_failures=2)).survival
    assert last_chance is not None and last_chance.probability == pytest.approx(p**3)


def test_no_story_for_those_not_dying_and_none_for_a_monster_that_succumbs() -> None:
    assert rules.sheet_odds(dying(current=5)).survival is None
    assert rules.sheet_odds(dying(stabilised=True)).survival is None
    assert rules.sheet_odds(dying(dead=True)).survival is None
    assert rules.sheet_odds(dying(dead=True)).rolls == ()
    monster = dying(dies_at_zero=True, dies_after_rounds=True, death_in_rounds=3, is_npc=True)
    story = rules.sheet_odds(monster).survival
    assert story is not None and story.probability == 0.0 and "3 rounds" in story.how


def test_first_aid_takes_the_bonus_chosen_in_the_dialog() -> None:
    """« vous devez pour cela réussir un test de Sagesse (Médecine) DD 16 »: 3d6 + bonus ≥ 16."""
    sheet = dying(exhaustion=4)  # the patient's exhaustion is not the healer's
    plain = rules.action_odds(sheet, rules.Stabilise(method="first_aid", modifier=0))
    helped = rules.action_odds(sheet, rules.Stabilise(method="first_aid", modifier=3))
    assert plain[0].probability == pytest.approx(10 / 216)
    assert helped[0].probability == pytest.approx(56 / 216)
    assert "+ 3 (bonus du soigneur)" in helped[0].how
    assert rules.action_odds(sheet, rules.Stabilise(method="magic")) == ()
    assert rules.action_odds(dying(current=3), rules.Stabilise(method="first_aid")) == ()


def test_constitution_saves_wake_and_wound_rolls() -> None:
    """« Chaque round, la personne inconsciente peut essayer de réussir le JS DD 16 de Constitution et se
    réveiller. »"""
    sheet = dying(current=4, constitution=14, exhaustion=1, conditions=("inconscient",), unconscious_rounds=3)
    wake = rules.sheet_odds(sheet).get("wake_save")
    assert wake is not None and wake.trigger == "time"
    # 3d6 + 2 (CON 14) − 1 ≥ 16 → 3d6 ≥ 15: 20 faces of 216.
    assert wake.probability == pytest.approx(20 / 216)
    assert wake.how == "3d6 + 2 (CON) − 1 (épuisement niveau 1) ≥ DD 16"
    assert rules.action_odds(sheet, rules.WakeSave())[0].probability == pytest.approx(20 / 216)
    # At 0 PA no save wakes anyone (D14): none is offered.
    at_zero = dying(current=0, constitution=14, conditions=("inconscient",), unconscious_rounds=3)
    assert rules.sheet_odds(at_zero).get("wake_save") is None
    assert rules.action_odds(at_zero, rules.WakeSave()) == ()
    standing = dying(current=10, constitution=14)
    fall = rules.sheet_odds(standing).get("constitution_save")
    assert fall is not None and fall.probability == pytest.approx(35 / 216)  # 3d6 ≥ 14


def test_wound_rolls() -> None:
    """« plaie … risque d'ouverture de la plaie avec saignement (1d6/rd) (JS CON DD 16) », « fracture …
    risque d'aggravation », the « test de volonté(SAG) » column (plaie 16, fracture 28) and « à chaque
    repos long, un JS DD 16 est fait pour chaque blessure grave »."""
    standing = dying(current=10, constitution=14, wisdom=12, exhaustion=2)
    wounded = rules.apply(standing, rules.AddWound(wound_type="plaie")).sheet
    wounded = rules.apply(wounded, rules.AddWound(wound_type="fracture", severity="major")).sheet
    # CON 14: +2, exhaustion −2: 3d6 ≥ 16, 10 faces of 216.
    reopen = rules.action_odds(wounded, rules.WoundRisk(wound_id=1))
    assert reopen[0].subject == 1 and reopen[0].probability == pytest.approx(10 / 216)
    assert "ne pas rouvrir la plaie" in reopen[0].label
    worse = rules.action_odds(wounded, rules.WoundRisk(wound_id=2))
    assert worse[0].subject == 2 and worse[0].probability == pytest.approx(10 / 216)
    assert "ne pas l'aggraver" in worse[0].label
    # SAG 12: +1, −2: plaie 3d6 ≥ 17 (4 faces); fracture 3d6 ≥ 29 never; a bonus of 15 makes it 3d6 ≥ 14.
    assert rules.action_odds(wounded, rules.WillTest(wound_id=1))[0].probability == pytest.approx(4 / 216)
    assert rules.action_odds(wounded, rules.WillTest(wound_id=2))[0].probability == 0
    helped = rules.action_odds(wounded, rules.WillTest(wound_id=2, bonus=15))[0]
    assert helped.probability == pytest.approx(35 / 216) and "+ 15 (bonus)" in helped.how
    shown = rules.sheet_odds(wounded)
    assert shown.get("will_test", 1) is not None and shown.get("wound_risk", 2) is not None
    # Not yet: plaie needs 5 long rests, fracture 20.
    assert shown.get("wound_healing") is None
    due = wounded.model_copy(update={"wounds": tuple(w.model_copy(update={"rests": 19}) for w in wounded.wounds)})
    healing = rules.sheet_odds(due).get("wound_healing", 2)
    # At the end of the long rest exhaustion has dropped to 1: 3d6 + 2 − 1 ≥ 16 → 3d6 ≥ 15, 20 faces.
    assert healing is not None and healing.probability == pytest.approx(20 / 216)
    hungry = rules.action_odds(due, rules.LongRest(ate_and_drank=False))
    assert [c.probability for c in hungry] == pytest.approx([10 / 216, 10 / 216])
    assert rules.action_odds(due, rules.LongRest(interrupted=True)) == ()


def test_a_healing_test_as_the_long_rest_makes_it() -> None:
    """« Une fois cette période passée, à chaque repos long, un JS DD 16 est fait pour chaque blessure grave.
    Si le test est réussi, un blessure grave est enlevée »: the chance shown is that of the real long rest,
    every face played through ``rules.apply``."""
    sheet = dying(current=10, constitution=12, exhaustion=3)
    sheet = rules.apply(sheet, rules.AddWound(wound_type="contusion")).sheet
    shown = rules.action_odds(sheet, rules.LongRest())
    assert len(shown) == 1
    healed = sum(float(p) for p, out in outcomes_of(sheet, rules.LongRest()).values() if not out.wounds)
    assert healed == pytest.approx(shown[0].probability, abs=1e-12)


def test_a_characteristic_test_and_a_save() -> None:
    """« Une blessure mineure augmente le DD de tout test de caractéristique la difficulté d'un degré: par
    exemple un test moyen (DD 16) se transforme en test difficile (DD 22) » and an unconscious creature
    « rate automatiquement tous ses jets de sauvegarde de Force et de Dextérité »."""
    sheet = dying(current=10, strength=14, exhaustion=1)
    plain = rules.action_odds(sheet, rules.AbilityCheck(ability="strength", dd=16))[0]
    assert plain.probability == pytest.approx(20 / 216)  # STR 14: +2, −1: 3d6 ≥ 15
    wounded = rules.apply(sheet, rules.AddWound(wound_type="contusion")).sheet
    test = rules.action_odds(wounded, rules.AbilityCheck(ability="strength", dd=16))[0]
    save = rules.action_odds(wounded, rules.AbilityCheck(ability="strength", dd=16, save=True))[0]
    assert "DD 22" in test.how and "1 palier des blessures" in test.how
    assert save.probability == pytest.approx(plain.probability) and "DD 16" in save.how
    out = rules.apply(wounded, rules.SetCondition(condition="inconscient")).sheet
    failed = rules.action_odds(out, rules.AbilityCheck(ability="strength", dd=3, save=True))[0]
    assert failed.probability == 0 and "raté automatiquement" in failed.how
    for action in (
        rules.AbilityCheck(ability="strength", dd=16),
        rules.AbilityCheck(ability="strength", dd=16, save=True, bonus=3),
        rules.AbilityCheck(ability="constitution", dd=10, save=True),
    ):
        for state in (wounded, out):
            shown = rules.action_odds(state, action)[0].probability
            assert shown == pytest.approx(float(success_share(state, action)), abs=1e-12)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 6), st.integers(0, 2), st.integers(0, 2))
def test_more_exhaustion_never_helps(exhaustion: int, successes: int, failures: int) -> None:
    house = malus_on_death_saves()
    here = rules.sheet_odds(
        dying(exhaustion=exhaustion, death_successes=successes, death_failures=failures), rules_table=house
    )
    worse = rules.sheet_odds(
        dying(exhaustion=min(6, exhaustion + 1), death_successes=successes, death_failures=failures),
        rules_table=house,
    )
    assert here.survival is not None and worse.survival is not None
    assert worse.survival.probability <= here.survival.probability


def _ended(sheet: Any) -> bool | None:
    if sheet.dead:
        return False
    if sheet.stabilised:
        return True
    return None


@pytest.mark.parametrize(
    ("exhaustion", "successes", "failures", "step", "malus"),
    [(0, 0, 0, "save", False), (2, 1, 0, "round", True), (5, 1, 1, "save", True), (3, 0, 2, "turn", False)],
)
def test_the_story_equals_the_real_rules_face_by_face(
    exhaustion: int, successes: int, failures: int, step: str, malus: bool
) -> None:
    """Every face of every death save played through ``rules.apply`` (the button, time passing round by
    round, or the GM table's start of turn): the same chance, exactly."""
    table = malus_on_death_saves() if malus else None
    sheet = dying(exhaustion=exhaustion, death_successes=successes, death_failures=failures)
    story = rules.sheet_odds(sheet, rules_table=table).survival
    assert story is not None
    action = {"save": rules.DeathSave(), "round": rules.AdvanceTime(unit="round"), "turn": rules.StartTurn()}[step]

    def outcomes(s: Any, a: rules.Action) -> Any:
        return outcomes_of(s, a, rules_table=table)

    real = exact_story(sheet, lambda s: action, _ended, outcomes=outcomes)
    assert real == pytest.approx(story.probability, abs=1e-12)


@pytest.mark.slow
@pytest.mark.parametrize(("exhaustion", "failures", "seed", "malus"), [(0, 0, 1, False), (3, 1, 2, True)])
def test_the_story_against_a_monte_carlo_of_the_real_rules(
    exhaustion: int, failures: int, seed: int, malus: bool
) -> None:
    table = malus_on_death_saves() if malus else None
    sheet = dying(exhaustion=exhaustion, death_failures=failures)
    story = rules.sheet_odds(sheet, rules_table=table).survival
    assert story is not None

    def play(s: Any, rng: random.Random) -> bool:
        out = rules.apply(s, rules.AdvanceTime(unit="round", count=12), rng=rng, rules_table=table).sheet
        assert out.dead or out.stabilised
        return bool(out.stabilised)

    observed = monte_carlo(sheet, play, RUNS, seed)
    assert within_standard_errors(observed, story.probability, RUNS), (observed, story.probability)


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 6), st.integers(0, 2), st.integers(0, 2), st.integers(6, 14), st.booleans())
def test_any_dying_start_equals_the_real_rules(
    exhaustion: int, successes: int, failures: int, target: int, malus: bool
) -> None:
    """Any exhaustion, any counts, any house target for the save, the malus on it or not: the chance shown is
    the rules' own."""
    table = rules.ruleset("douaratil")
    saves = table.saves.model_copy(update={"death_save_success": target, "exhaustion_on_death_saves": malus})
    house = table.model_copy(update={"saves": saves})
    sheet = dying(exhaustion=exhaustion, death_successes=successes, death_failures=failures)
    story = rules.sheet_odds(sheet, rules_table=house).survival
    assert story is not None

    def outcomes(s: Any, action: rules.Action) -> Any:
        return outcomes_of(s, action, rules_table=house)

    real = exact_story(sheet, lambda s: rules.DeathSave(), _ended, outcomes=outcomes)
    assert real == pytest.approx(story.probability, abs=1e-12)


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 6), st.integers(3, 18), st.integers(-5, 5), st.sampled_from(["plaie", "fracture", "contusion"]))
def test_a_will_test_equals_the_real_rules(exhaustion: int, wisdom: int, bonus: int, wound_type: str) -> None:
    """The « test de volonté(SAG) » of any wound, at any exhaustion, with any bonus: every face played."""
    sheet = dying(current=8, exhaustion=exhaustion, wisdom=wisdom)
    sheet = rules.apply(sheet, rules.AddWound(wound_type=wound_type)).sheet
    action = rules.WillTest(wound_id=1, bonus=bonus)
    shown = rules.action_odds(sheet, action)[0].probability
    assert shown == pytest.approx(float(success_share(sheet, action)), abs=1e-12)
