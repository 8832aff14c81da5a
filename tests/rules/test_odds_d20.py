"""d20 odds (seed 001) against hand-computed values and against the real rules."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rules
from tests.rules.odds_helpers import RUNS, exact_story, monte_carlo, outcomes_of, within_standard_errors

NBSP = "\u00a0"


def sheet(**fields: Any) -> Any:
    base: dict[str, Any] = {"name": "Brenna", "base_maximum": 20, "level": 3}
    return rules.new_sheet("d20", **{**base, **fields})


def test_stabilising_from_minus_one_before_minus_ten() -> None:
    """« Le premier de ces jets a lieu le round suivant sa chute à –1 point de vie ou moins. Il a 10% de
    chances de se stabiliser, et s'il ne réussit pas, il perd 1 point de vie. » From −1 PV: one roll at each
    of −1 … −9 before −10, so 1 − 0,9⁹ ≈ 61,3 %."""
    story = rules.sheet_odds(sheet(current=-1)).survival
    assert story is not None
    label, stabilise = story.outcomes[0]
    assert stabilise == pytest.approx(1 - 0.9**9)
    assert rules.fmt_percent(stabilise) == f"61,3{NBSP}%"
    assert "se stabiliser seul avant −10 PV" in label
    roll = rules.sheet_odds(sheet(current=-1)).get("dying_roll")
    assert roll is not None and roll.percent == f"10{NBSP}%" and roll.trigger == "time"
    assert roll.how.startswith("1d100 ≤ 10")


def test_the_whole_story_without_help() -> None:
    """« Chaque heure, il a 10 % de chances de reprendre connaissance. Chaque fois qu'il rate ce jet, il perd
    1 point de vie » and « Chaque jour … 10 % de chances de commencer à récupérer des points de vie
    normalement. En cas d'échec, il rechute et perd 1 point de vie. »"""
    last = rules.sheet_odds(sheet(current=-9)).survival
    assert last is not None
    # At −9 each phase has one roll before −10: 10 %, then 10 %, then 10 %.
    assert [p for _, p in last.outcomes] == pytest.approx([0.1, 0.01, 0.001])
    assert last.probability == pytest.approx(0.001) and last.percent == f"0,1{NBSP}%"

    def by_hand(pv: int, phases: int) -> float:
        """Each phase: 10 % to pass at this PV, else one PV less; dead at −10."""
        if phases == 0:
            return 1.0
        if pv <= -10:
            return 0.0
        return 0.1 * by_hand(pv, phases - 1) + 0.9 * by_hand(pv - 1, phases)

    for pv in (-1, -4, -8):
        story = rules.sheet_odds(sheet(current=pv)).survival
        assert story is not None
        assert [p for _, p in story.outcomes] == pytest.approx([by_hand(pv, n) for n in (1, 2, 3)])
    alone = rules.sheet_odds(sheet(current=-3, recovery="alone")).survival
    assert alone is not None and alone.probability == pytest.approx(by_hand(-3, 2))
    assert rules.sheet_odds(sheet(current=0)).survival is None


def test_recovery_with_help_is_certain() -> None:
    """« Si un sort de guérison lui rend ne serait-ce qu'un point de vie, il cesse de perdre des points de vie »
    and « Jetez 1d100 une heure après que l'état d'un personnage mourant a été stabilisé. Le personnage a 10 %
    de chances de reprendre connaissance »: with help, nothing in the rules can kill any more; waking up
    takes 1 + 9 × 1 = 10 hours on average (first roll after 1 hour, then one hour per failure, 0,9 / 0,1 = 9)."""
    helped = rules.sheet_odds(sheet(current=-3, recovery="assisted"))
    story = helped.survival
    assert story is not None and story.probability == 1 and story.percent == f"100{NBSP}%"
    assert "ne perd plus de PV" in story.how and "1d100 ≤ 10" in story.how
    assert "en moyenne au bout de 10 heures" in story.how
    assert story.outcomes == (("reprendre connaissance au premier jet", pytest.approx(0.1)),)
    roll = helped.get("assisted_wake")
    assert roll is not None and roll.percent == f"10{NBSP}%" and roll.trigger == "time"
    table = rules.ruleset("d20")
    slow = table.model_copy(
        update={
            "recovery": table.recovery.model_copy(update={"assisted_wake_chance": 25, "assisted_first_roll_hours": 2})
        }
    )
    story = rules.sheet_odds(sheet(current=-3, recovery="assisted"), rules_table=slow).survival
    assert story is not None and "en moyenne au bout de 5 heures" in story.how  # 2 + 0,75 / 0,25


def test_temporary_points_take_the_losses_first() -> None:
    """« Quand les points de vie temporaires sont perdus, il n'existe aucun moyen de les récupérer »: they
    absorb the dying losses, and the real PV decide death (T4)."""
    story = rules.sheet_odds(sheet(current=-5, temporary=3)).survival
    assert story is not None
    assert story.outcomes[0][1] == pytest.approx(1 - 0.9**8)


def test_the_numbers_come_from_the_rule_table() -> None:
    table = rules.ruleset("d20")
    house = table.model_copy(update={"dying": table.dying.model_copy(update={"stabilise_chance": 25})})
    story = rules.sheet_odds(sheet(current=-1), rules_table=house).survival
    assert story is not None and story.outcomes[0][1] == pytest.approx(1 - 0.75**9)


def test_first_aid_and_massive_damage() -> None:
    """« Un test de Premiers secours de DD 15 réussi permet de stabiliser l'état d'un personnage mourant »."""
    dying = sheet(current=-2)
    assert rules.action_odds(dying, rules.Stabilise(method="first_aid", modifier=4))[0].probability == 0.5
    assert rules.sheet_odds(dying).get("first_aid") is not None
    assert rules.action_odds(dying, rules.Stabilise(method="magic")) == ()
    assert rules.action_odds(sheet(current=5), rules.Stabilise(method="first_aid")) == ()
    # A save: the natural 1 fails and the natural 20 succeeds, whatever the bonus.
    strong = rules.sheet_odds(sheet(fortitude=30)).get("massive_damage")
    weak = rules.sheet_odds(sheet(fortitude=-30)).get("massive_damage")
    assert strong is not None and strong.probability == 0.95
    assert weak is not None and weak.probability == 0.05


def test_the_resurrection_test() -> None:
    """« Le DD de base pour le test de résurrection final est de 10 … Pour chaque test de compétence de
    contribution réussi, ce DD est diminué de 3, alors que chaque test de compétence de contribution raté
    augmente le DD de 1. »"""
    dead = sheet(current=-12, dead=True)
    plain = rules.action_odds(dead, rules.Resurrection(procedure="ritual"))
    assert plain[0].probability == 0.55  # d20 ≥ 10
    helper = rules.ResurrectionContribution(modifier=0, dd=15)  # 30 % to succeed
    ritual = rules.action_odds(dead, rules.Resurrection(procedure="ritual", contributions=(helper,)))
    assert ritual[0].probability == pytest.approx(0.3 * 0.7 + 0.7 * 0.5)  # DD 7 or DD 11
    given = rules.action_odds(dead, rules.Resurrection(procedure="ritual", contribution_successes=2))
    assert given[0].probability == pytest.approx(0.85)  # DD 4
    quick = rules.action_odds(dead, rules.Resurrection(procedure="quick", caster_level=5))
    assert quick[0].probability == 0.8
    assert rules.action_odds(dead, rules.Resurrection(procedure="souhait"))[0].probability == 1.0
    # Against the real rules, every face of the contribution and of the final test.
    two = rules.Resurrection(procedure="ritual", contributions=(rules.ResurrectionContribution(modifier=4, dd=12),))
    real = sum(float(p) for p, after in outcomes_of(dead, two).values() if not after.dead)
    assert rules.action_odds(dead, two)[0].probability == pytest.approx(real, abs=1e-12)
    assert rules.action_odds(sheet(current=-12, dead=True, soul_lost=True), rules.Resurrection()) == ()


def _step(s: Any) -> rules.Action:
    """One roll at a time: a round while dying, an hour stabilised alone, a day awake alone."""
    unit = {"": "round", "alone": "hour", "alone_awake": "day"}[s.recovery]
    return rules.AdvanceTime(unit=unit)


def _stabilised(s: Any) -> bool | None:
    return False if s.dead else True if s.recovery else None


def _recovering(s: Any) -> bool | None:
    return False if s.dead else True if s.recovery == "awake" else None


@pytest.mark.parametrize(("current", "temporary"), [(-1, 0), (-6, 0), (-5, 3)])
def test_the_story_equals_the_real_rules_face_by_face(current: int, temporary: int) -> None:
    """Every face of every d100 played through ``rules.apply``: the same chances, exactly."""
    start = sheet(current=current, temporary=temporary)
    story = rules.sheet_odds(start).survival
    assert story is not None
    assert exact_story(start, _step, _stabilised) == pytest.approx(story.outcomes[0][1], abs=1e-12)
    if temporary == 0 and current < -4:
        assert exact_story(start, _step, _recovering) == pytest.approx(story.probability, abs=1e-12)


def _play(s: Any, rng: random.Random) -> bool:
    out = rules.apply(s, rules.AdvanceTime(unit="round", count=30), rng=rng).sheet
    assert out.dead or out.recovery == "alone"
    return not out.dead


@pytest.mark.slow
@pytest.mark.parametrize(("current", "seed"), [(-1, 1), (-7, 2)])
def test_the_story_against_a_monte_carlo_of_the_real_rules(current: int, seed: int) -> None:
    start = sheet(current=current)
    story = rules.sheet_odds(start).survival
    assert story is not None
    observed = monte_carlo(start, _play, RUNS, seed)
    assert within_standard_errors(observed, story.outcomes[0][1], RUNS), (observed, story.outcomes[0][1])


@settings(max_examples=8, deadline=None)
@given(current=st.integers(-9, -1), temporary=st.integers(0, 3), chance=st.integers(0, 60))
def test_any_dying_start_equals_the_real_rules(current: int, temporary: int, chance: int) -> None:
    """Any PV, temporary PV and house chance to stabilise: the first phase shown is the rules' own."""
    table = rules.ruleset("d20")
    house = table.model_copy(update={"dying": table.dying.model_copy(update={"stabilise_chance": chance})})
    start = sheet(current=current, temporary=min(temporary, -current - 1))
    story = rules.sheet_odds(start, rules_table=house).survival
    assert story is not None

    def step(s: Any) -> rules.Action:
        return rules.AdvanceTime(unit="round")

    def outcomes(s: Any, action: rules.Action) -> Any:
        return outcomes_of(s, action, rules_table=house)

    real = exact_story(start, step, _stabilised, outcomes=outcomes)
    assert real == pytest.approx(story.outcomes[0][1], abs=1e-12)
