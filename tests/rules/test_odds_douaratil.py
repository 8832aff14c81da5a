"""Douaratil's odds (seed 000) against hand-computed values and against the real rules."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rules
from tests.rules.odds_helpers import RUNS, exact_story, monte_carlo, outcomes_of, within_standard_errors

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


def test_exhaustion_lowers_the_death_save() -> None:
    """« Le malus s'applique à tout lancer de dés c'est à dire test de caractéristique, test de compétence,
    Jets de sauvegarde »: at level 2, 3d6 − 2 ≥ 10 is 3d6 ≥ 12, 81 faces of 216."""
    save = rules.sheet_odds(dying(exhaustion=2)).get("death_save")
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
    sheet = dying(current=0, constitution=14, exhaustion=1, conditions=("inconscient",), unconscious_rounds=3)
    wake = rules.sheet_odds(sheet).get("wake_save")
    assert wake is not None and wake.trigger == "time"
    # 3d6 + 2 (CON 14) − 1 ≥ 16 → 3d6 ≥ 15: 20 faces of 216.
    assert wake.probability == pytest.approx(20 / 216)
    assert wake.how == "3d6 + 2 (CON) − 1 (épuisement niveau 1) ≥ DD 16"
    standing = dying(current=10, constitution=14)
    fall = rules.sheet_odds(standing).get("constitution_save")
    assert fall is not None and fall.probability == pytest.approx(35 / 216)  # 3d6 ≥ 14
    wounded = rules.apply(standing, rules.AddWound(wound_type="plaie")).sheet
    risk = rules.action_odds(wounded, rules.WoundRisk(wound_id=1))
    assert risk[0].subject == 1 and risk[0].probability == pytest.approx(35 / 216)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 6), st.integers(0, 2), st.integers(0, 2))
def test_more_exhaustion_never_helps(exhaustion: int, successes: int, failures: int) -> None:
    here = rules.sheet_odds(dying(exhaustion=exhaustion, death_successes=successes, death_failures=failures))
    worse = rules.sheet_odds(
        dying(exhaustion=min(6, exhaustion + 1), death_successes=successes, death_failures=failures)
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
    ("exhaustion", "successes", "failures", "step"),
    [(0, 0, 0, "save"), (2, 1, 0, "round"), (5, 1, 1, "save"), (3, 0, 2, "round")],
)
def test_the_story_equals_the_real_rules_face_by_face(
    exhaustion: int, successes: int, failures: int, step: str
) -> None:
    """Every face of every death save played through ``rules.apply`` (the button, or time passing round by
    round): the same chance, exactly."""
    sheet = dying(exhaustion=exhaustion, death_successes=successes, death_failures=failures)
    story = rules.sheet_odds(sheet).survival
    assert story is not None
    action = rules.DeathSave() if step == "save" else rules.AdvanceTime(unit="round")
    assert exact_story(sheet, lambda s: action, _ended) == pytest.approx(story.probability, abs=1e-12)


def _play(sheet: Any, rng: random.Random) -> bool:
    out = rules.apply(sheet, rules.AdvanceTime(unit="round", count=12), rng=rng).sheet
    assert out.dead or out.stabilised
    return bool(out.stabilised)


@pytest.mark.slow
@pytest.mark.parametrize(("exhaustion", "failures", "seed"), [(0, 0, 1), (3, 1, 2)])
def test_the_story_against_a_monte_carlo_of_the_real_rules(exhaustion: int, failures: int, seed: int) -> None:
    sheet = dying(exhaustion=exhaustion, death_failures=failures)
    story = rules.sheet_odds(sheet).survival
    assert story is not None
    observed = monte_carlo(sheet, _play, RUNS, seed)
    assert within_standard_errors(observed, story.probability, RUNS), (observed, story.probability)


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 6), st.integers(0, 2), st.integers(0, 2), st.integers(6, 14))
def test_any_dying_start_equals_the_real_rules(exhaustion: int, successes: int, failures: int, target: int) -> None:
    """Any exhaustion, any counts, any house target for the save: the chance shown is the rules' own."""
    table = rules.ruleset("douaratil")
    house = table.model_copy(update={"saves": table.saves.model_copy(update={"death_save_success": target})})
    sheet = dying(exhaustion=exhaustion, death_successes=successes, death_failures=failures)
    story = rules.sheet_odds(sheet, rules_table=house).survival
    assert story is not None

    def outcomes(s: Any, action: rules.Action) -> Any:
        return outcomes_of(s, action, rules_table=house)

    real = exact_story(sheet, lambda s: rules.DeathSave(), _ended, outcomes=outcomes)
    assert real == pytest.approx(story.probability, abs=1e-12)
