"""The odds machinery (rules/odds.py): dice by convolution, absorbing chains, French percentages."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rules
from rules import odds
from rules.model import Term

NBSP = "\u00a0"


def pct(text: str) -> str:
    """« 62,5 % » as shown: no break inside a percentage."""
    return text.replace(" ", NBSP)


@pytest.mark.parametrize(
    ("p", "shown"),
    [
        (0, "0 %"),
        (1, "100 %"),
        (Fraction(5, 8), "62,5 %"),
        (Fraction(1, 10), "10 %"),
        (0.6125795110000001, "61,3 %"),
        (Fraction(1, 1000), "0,1 %"),
        (Fraction(999, 1000), "99,9 %"),
        (Fraction(1, 1001), "< 0,1 %"),
        (1e-9, "< 0,1 %"),
        (Fraction(9991, 10000), "> 99,9 %"),
        (1 - 1e-9, "> 99,9 %"),
        (Fraction(61, 8000), "0,8 %"),  # 0,7625 % rounds half up to 0,8
        (Fraction(1, 80), "1,3 %"),  # 1,25 % exactly: half up, not half even
        (Fraction(1, 3), "33,3 %"),
    ],
)
def test_percentages_are_french_and_never_round_to_impossible(p: Fraction | float, shown: str) -> None:
    assert rules.fmt_percent(p) == pct(shown)


def test_dice_distributions_by_convolution() -> None:
    """P(3d6 ≥ 10) = 62,5 %: 135 of the 216 faces."""
    three = odds.dice(3, 6)
    assert sum(three.values()) == 1
    assert min(three) == 3 and max(three) == 18
    assert three[10] == Fraction(27, 216) and three[3] == Fraction(1, 216)
    assert odds.at_least(three, 10) == Fraction(135, 216) == Fraction(5, 8)
    assert rules.fmt_percent(odds.at_least(three, 10)) == pct("62,5 %")
    assert odds.at_most(three, 9) == Fraction(3, 8)
    # Against counting every face.
    for count, sides in ((1, 20), (2, 8), (3, 6), (4, 4)):
        dist = odds.dice(count, sides)
        faces = list(itertools.product(range(1, sides + 1), repeat=count))
        for total, p in dist.items():
            assert p == Fraction(sum(1 for f in faces if sum(f) == total), len(faces))


def test_a_test_s_chance_from_the_tail_table_is_the_distribution_s() -> None:
    """« Lancez 3d6 (non explosifs). Sur un résultat de 10 ou plus, vous avez réussi. »: read from the table
    of tail sums, the same chance as summing the distribution, for every target, below and beyond the dice."""
    assert odds.dice_at_least(3, 6, 10) == Fraction(5, 8)
    for count, sides in ((1, 20), (2, 8), (3, 6), (4, 4), (0, 6)):
        dist = odds.dice(count, sides)
        for target in range(-3, count * sides + 4):
            assert odds.dice_at_least(count, sides, target) == odds.at_least(dist, target), (count, sides, target)


def test_modifiers_sums_and_best_of() -> None:
    d20 = odds.dice(1, 20)
    assert odds.at_least(odds.shifted(d20, 3), 20) == Fraction(4, 20)
    assert odds.at_least(odds.negated(d20), -5) == Fraction(5, 20)
    d4_minus_d4 = odds.total_of(odds.dice(1, 4), odds.negated(odds.dice(1, 4)))
    assert d4_minus_d4[0] == Fraction(4, 16) and d4_minus_d4[3] == Fraction(1, 16)
    # The best of two d8 (a roll « avec Facilité »): P(max = x) = (x² − (x−1)²) / 64.
    best = odds.best_of(odds.dice(1, 8), 2)
    assert best == {x: Fraction(x * x - (x - 1) * (x - 1), 64) for x in range(1, 9)}
    assert odds.best_of(d20, 1) is d20


def test_a_natural_twenty_and_a_natural_one() -> None:
    assert odds.single_die_check(20, 30, 15, natural_failure=1) == Fraction(19, 20)
    assert odds.single_die_check(20, -30, 15, natural_success=20) == Fraction(1, 20)
    assert odds.single_die_check(20, 0, 15) == Fraction(6, 20)
    assert odds.percent_chance(10, 100) == Fraction(1, 10)
    assert odds.percent_chance(150, 100) == 1 and odds.percent_chance(-5, 100) == 0


def test_too_many_totals_are_refused_rather_than_computed_for_ever() -> None:
    with pytest.raises(ValueError):
        odds.dice(100, 1000)


def test_a_roll_is_written_as_the_journal_writes_it() -> None:
    terms = [Term(-2, "épuisement niveau 2"), Term(0, "rien"), Term(3, "CON")]
    assert odds.roll_text("3d6", terms, "≥", 10) == "3d6 − 2 (épuisement niveau 2) + 3 (CON) ≥ 10"
    assert odds.roll_text("1d20", [], "≥", -3) == "1d20 ≥ −3"
    item = odds.chance("x", "Jet", Fraction(3, 8), "3d6 − 2 (épuisement) ≥ 10", outcomes=[("a", 0.25)])
    assert item.text == f"Jet : 3d6 − 2 (épuisement) ≥ 10 : 37,5{NBSP}%\n• a : 25{NBSP}%"
    assert odds.chance("x", "y", 1.2, "").probability == 1.0
    assert odds.chance("x", "y", -0.1, "").probability == 0.0


@given(st.floats(0.01, 0.99), st.integers(1, 8), st.integers(1, 8))
def test_an_absorbing_chain_against_a_closed_form(p: float, wins: int, losses: int) -> None:
    """``wins`` successes before ``losses`` failures: the negative binomial sum."""

    def step(state: tuple[int, int]) -> list[tuple[float, tuple[int, int] | bool]]:
        s, f = state
        return [(p, True if s + 1 >= wins else (s + 1, f)), (1 - p, False if f + 1 >= losses else (s, f + 1))]

    closed = sum(math.comb(wins - 1 + j, j) * p**wins * (1 - p) ** j for j in range(losses))
    assert odds.absorption((0, 0), step) == pytest.approx(closed, abs=1e-12)


def test_a_chain_that_loops_on_a_state_and_one_that_never_ends() -> None:
    # A roll replayed until it succeeds (« on le rejoue toutes les heures ») with a 1/3 chance of the end.
    def replay(state: str) -> list[tuple[Fraction, str | bool]]:
        return [(Fraction(1, 10), True), (Fraction(1, 5), False), (Fraction(7, 10), state)]

    assert odds.absorption("s", replay) == pytest.approx(1 / 3)
    assert odds.absorption("s", lambda s: [(1, s)]) == 0.0
    assert odds.absorption(True, replay) == 1.0 and odds.absorption(False, replay) == 0.0


def test_a_diamond_is_not_a_cycle_but_a_cycle_is_refused() -> None:
    graph: dict[str, list[tuple[float, str | bool]]] = {
        "a": [(0.5, "b"), (0.5, "c")],
        "b": [(0.5, "c"), (0.5, True)],
        "c": [(0.5, True), (0.5, False)],
    }
    assert odds.absorption("a", lambda s: graph[s]) == pytest.approx(0.5 * (0.5 * 0.5 + 0.5) + 0.5 * 0.5)
    loop: dict[str, list[tuple[float, str | bool]]] = {"a": [(0.5, "b"), (0.5, True)], "b": [(1.0, "a")]}
    with pytest.raises(ValueError):
        odds.absorption("a", lambda s: loop[s])


def test_every_system_has_odds_and_the_facade_answers_for_all() -> None:
    for system_id in rules.SYSTEMS:
        assert rules.system(system_id).odds() is not None
        found = rules.sheet_odds(rules.demo_sheet(system_id))
        for item in found.rolls:
            assert 0.0 <= item.probability <= 1.0
            assert item.text.startswith(item.label) and item.percent in item.text
            assert item.trigger in ("action", "time", "event", "story")
        assert rules.action_odds(rules.demo_sheet(system_id), rules.Heal(amount=1)) == ()
