"""Plain dice (« 2d6+1 ») are rolled without the d20 library's parser (issue 15), with the same result.

Same total, same detail, same draws from the caller's generator as the library: a replay with the same
seed tells the same story whichever way an expression is rolled.
"""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rules
import rules.dice as dice


def library_roll(expression: str, rng: random.Random) -> rules.Roll:
    """``roll_expression`` with the fast path turned off: the d20 library rolls."""
    saved = dice._PLAIN_DICE
    dice._PLAIN_DICE = re.compile(r"(?!)")
    try:
        return dice.roll_expression(expression, rng)
    finally:
        dice._PLAIN_DICE = saved


plain = st.builds(
    lambda count, sides, sign, bonus, spaces: (
        f"{'' if count is None else count}d{sides}" + ("" if sign is None else f"{spaces}{sign}{spaces}{bonus}")
    ),
    st.one_of(st.none(), st.integers(1, 40)),
    st.integers(1, 1000),
    st.one_of(st.none(), st.sampled_from("+-")),
    st.integers(0, 10**6),
    st.sampled_from(["", " ", "  "]),
)


@given(plain, st.integers(0, 2**32))
def test_plain_dice_roll_as_the_library_does(expression: str, seed: int) -> None:
    fast_rng, library_rng = random.Random(seed), random.Random(seed)
    assert dice._PLAIN_DICE.fullmatch(expression)
    assert dice.roll_expression(expression, fast_rng) == library_roll(expression, library_rng)
    assert fast_rng.getstate() == library_rng.getstate()


@pytest.mark.parametrize("expression", ["0d6", "1d0", "1001d6", "D6", "2 d6", "2d6*2", "1d6+1d4", "4d6kh3"])
def test_what_the_fast_path_leaves_to_the_library(expression: str) -> None:
    """Anything but plain NdS±K, and what the library words itself (no dice, 0 faces, too many dice)."""
    outcomes = []
    for roll in (dice.roll_expression, library_roll):
        try:
            outcomes.append(roll(expression, random.Random(5)))
        except rules.Refused as exc:
            outcomes.append(exc.reason)
    assert outcomes[0] == outcomes[1]
