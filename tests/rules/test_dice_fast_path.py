"""The fast path for plain ``NdS±K`` dice rolls exactly what the d20 library rolls (issue 15: dice expressions
through the library's parser were 15–24 % of ``rules.apply``)."""

from __future__ import annotations

import random

import d20
import d20.expression
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.dice import _roll_plain, roll_expression


def library_roll(expression: str, seed: int) -> tuple[int, str]:
    """What the d20 library rolls for ``expression`` with ``random.Random(seed)``, as ``roll_expression`` shows it."""
    saved = d20.expression.random
    d20.expression.random = random.Random(seed)
    try:
        result = d20.roll(expression, stringifier=d20.SimpleStringifier())
    finally:
        d20.expression.random = saved
    return int(result.total), str(result).replace("`", "")


@given(
    count=st.sampled_from(["", "1", "2", "3", "10", "100", "01"]),
    sides=st.sampled_from(["1", "2", "4", "6", "8", "10", "12", "20", "100", "1000", "06"]),
    bonus=st.sampled_from(["", "+0", "+2", "-1", " + 3", " - 10", "+02", "-999999"]),
    seed=st.integers(0, 2**32 - 1),
)
def test_plain_rolls_match_the_library(count: str, sides: str, bonus: str, seed: int) -> None:
    expression = f"{count}d{sides}{bonus}"
    fast = _roll_plain(expression, random.Random(seed))
    assert fast is not None
    assert (fast.total, fast.detail) == library_roll(expression, seed)
    # The generator is left where the library leaves it: the next rolls of the same action are the same.
    rng_fast, rng_lib = random.Random(seed), random.Random(seed)
    _roll_plain(expression, rng_fast)
    saved = d20.expression.random
    d20.expression.random = rng_lib
    try:
        d20.roll(expression)
    finally:
        d20.expression.random = saved
    assert rng_fast.random() == rng_lib.random()


@pytest.mark.parametrize("expression", ["1D6", "0d6", "1d0", "101d6", "1d1001", "2d6+1d4", "1d6*2", "4d6kh3", "1d6+-1"])
def test_anything_else_goes_to_the_library(expression: str) -> None:
    assert _roll_plain(expression, random.Random(1)) is None


def test_roll_expression_takes_the_fast_path_for_plain_dice() -> None:
    roll = roll_expression(" 2d6+3 ", random.Random(4))
    assert roll.expression == "2d6+3"
    assert (roll.total, roll.detail) == library_roll("2d6+3", 4)
