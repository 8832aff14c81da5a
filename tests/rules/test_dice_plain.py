"""The plain-dice fast path (« 2d6+3 ») rolls exactly as the d20 library does: same draws, same words.

A speed change of the shared dice code (issue 15: a third of a Douaratil ``apply`` went to the d20
parser); this proof keeps it invisible in every journal.
"""

from __future__ import annotations

import random

import d20
import d20.expression
from hypothesis import given
from hypothesis import strategies as st

import rules

expressions = st.builds(
    lambda count, sides, sign, bonus, spaces: (
        f"{count or ''}d{sides}" + (f"{spaces}{sign}{spaces}{bonus}" if sign else "")
    ),
    st.one_of(st.none(), st.integers(1, 99)),
    st.integers(1, 99_999),
    st.sampled_from(["", "+", "-"]),
    st.integers(0, 999_999),
    st.sampled_from(["", " ", "  "]),
)


def _by_d20(expression: str, seed: int) -> tuple[int, str]:
    saved = d20.expression.random
    d20.expression.random = random.Random(seed)
    try:
        result = d20.Roller().roll(expression, stringifier=d20.SimpleStringifier())
        return int(result.total), str(result).replace("`", "")
    finally:
        d20.expression.random = saved


@given(expressions, st.integers(0, 2**32))
def test_plain_dice_roll_as_the_d20_library_does(expression: str, seed: int) -> None:
    ours = rules.roll_expression(expression, random.Random(seed))
    assert (ours.total, ours.detail) == _by_d20(expression, seed)


@given(st.integers(0, 2**32))
def test_the_generator_is_left_where_d20_leaves_it(seed: int) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    rules.roll_expression("3d6+2", ours)
    saved = d20.expression.random
    d20.expression.random = theirs
    try:
        d20.Roller().roll("3d6+2")
    finally:
        d20.expression.random = saved
    assert ours.random() == theirs.random()
