"""Segments odds (seed 002) against hand-computed values and against the real rules."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rules
from tests.rules.odds_helpers import RUNS, exact_story, monte_carlo, within_standard_errors

NBSP = "\u00a0"


def dying(**fields: Any) -> Any:
    base: dict[str, Any] = {"name": "Sil", "base_maximum": 20, "current": -1, "constitution": 15}
    return rules.new_sheet("segments", **{**base, **fields})


def test_the_vigour_roll_with_the_sheet_bonus_and_the_states() -> None:
    """« Il peut tenter un jet de Vigueur difficulté 20, une fois par tour, pour se stabiliser seul. »"""
    roll = rules.sheet_odds(dying(fortitude_save=4)).get("self_stabilise")
    assert roll is not None and roll.probability == 0.25
    assert roll.how == "1d20 + 4 (Vigueur) ≥ difficulté 20"
    tired = rules.sheet_odds(dying(fortitude_save=4, fatigue=2)).get("self_stabilise")
    assert tired is not None and tired.probability == pytest.approx(0.15)
    assert "− 2 (Épuisé, tous les jets)" in tired.how
    chosen = rules.action_odds(dying(fortitude_save=4), rules.Stabilise(method="self", modifier=3))
    assert chosen[0].probability == pytest.approx(0.4)
    assert rules.action_odds(dying(), rules.Stabilise(method="ally")) == ()


def test_the_chance_of_pulling_through_counts_the_tries_before_death() -> None:
    """« Il perd 1 point de vie par segment et meurt quand il atteint l'opposé de sa valeur de Constitution »:
    at −1 PV with 15 in Constitution, death comes 14 segments later; a window opening at segment 3 of each
    10-segment turn gives a try at segments 2 and 12 of the clock: 1 − 0,75² at 25 % each."""
    story = rules.sheet_odds(dying(fortitude_save=4, initiative_segment=3)).survival
    assert story is not None
    assert story.probability == pytest.approx(1 - 0.75**2)
    assert story.percent == f"43,8{NBSP}%"
    assert "2 tentatives" in story.how and "−15 PV" in story.how and "14 segments" in story.how
    assert rules.sheet_odds(dying(current=3)).survival is None
    assert rules.sheet_odds(dying(stabilised=True)).survival is None


def test_the_turn_of_the_fall_has_its_try() -> None:
    """Fallen at segment 6 of a turn whose window opened at segment 1: the try of this turn comes at once,
    the next one at the next window, then death at −15 comes 14 segments after the fall (S5)."""
    story = rules.sheet_odds(dying(fortitude_save=4, initiative_segment=1, clock=5)).survival
    assert story is not None
    assert story.probability == pytest.approx(1 - 0.75**2)
    tried = rules.sheet_odds(dying(fortitude_save=4, initiative_segment=1, clock=5, self_stabilise_turn=0)).survival
    assert tried is not None and tried.probability == pytest.approx(0.25)


def test_other_rolls_of_the_sheet() -> None:
    """« éteindre les flammes est une manœuvre, ou une action gratuite en se jetant à terre puis en roulant,
    avec un jet de Réflexes »."""
    burning = rules.new_sheet("segments", base_maximum=20, current=20, reflex_save=5, burning=True)
    roll = rules.sheet_odds(burning).get("extinguish")
    assert roll is not None and roll.action == "extinguish"
    dd = rules.ruleset("segments").fire.extinguish_dd
    assert roll.probability == pytest.approx((21 - (dd - 5)) / 20)
    assert rules.action_odds(burning, rules.Extinguish(method="maneuver")) == ()
    fall = rules.action_odds(burning, rules.Fall(metres=9, agility_dd=15))
    assert fall[0].probability == pytest.approx(0.3)


def _ended(s: Any) -> bool | None:
    return False if s.dead else True if s.stabilised else None


@pytest.mark.parametrize(
    "fields",
    [
        {"fortitude_save": 4, "initiative_segment": 3},
        {"fortitude_save": 2, "initiative_segment": 1},
        {"fortitude_save": 6, "initiative_segment": 8, "constitution": 10, "current": -2},
        {"fortitude_save": 5, "initiative_segment": 4, "clock": 7},
        {"fortitude_save": 5, "fatigue": 3},
    ],
)
def test_the_story_equals_the_real_rules_face_by_face(fields: dict[str, Any]) -> None:
    """Time passing segment by segment through ``rules.apply``, every face of every Vigueur try."""
    start = dying(**fields)
    story = rules.sheet_odds(start).survival
    assert story is not None
    real = exact_story(start, lambda s: rules.AdvanceTime(unit="segment"), _ended)
    assert real == pytest.approx(story.probability, abs=1e-12)


def _play(s: Any, rng: random.Random) -> bool:
    out = rules.apply(s, rules.AdvanceTime(unit="turn", count=8), rng=rng).sheet
    assert out.dead or out.stabilised
    return bool(out.stabilised)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("fields", "seed"), [({"fortitude_save": 4, "initiative_segment": 3}, 1), ({"fortitude_save": 8}, 2)]
)
def test_the_story_against_a_monte_carlo_of_the_real_rules(fields: dict[str, Any], seed: int) -> None:
    start = dying(**fields)
    story = rules.sheet_odds(start).survival
    assert story is not None
    observed = monte_carlo(start, _play, RUNS, seed)
    assert within_standard_errors(observed, story.probability, RUNS), (observed, story.probability)


@settings(max_examples=25, deadline=None)
@given(
    constitution=st.integers(3, 14),
    below=st.integers(1, 13),
    fortitude=st.integers(-2, 12),
    initiative=st.integers(1, 12),
    clock=st.integers(0, 29),
    fatigue=st.integers(0, 3),
)
def test_any_dying_story_equals_the_real_rules(
    constitution: int, below: int, fortitude: int, initiative: int, clock: int, fatigue: int
) -> None:
    """Any dying character, any window, any moment of the turn: the chance shown is the rules' own."""
    start = dying(
        constitution=constitution,
        current=-min(below, constitution - 1),
        fortitude_save=fortitude,
        initiative_segment=initiative,
        clock=clock,
        fatigue=fatigue,
    )
    story = rules.sheet_odds(start).survival
    assert story is not None
    real = exact_story(start, lambda s: rules.AdvanceTime(unit="segment"), _ended)
    assert real == pytest.approx(story.probability, abs=1e-12)
