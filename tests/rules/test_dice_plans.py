"""Dice rolled by their plan (issue 15, session 7: ``rules.dice.roll_plan``, ``Context.dice``, ``Context.amount``)
draw what ``random.Random.randrange`` draws, die after die, and write what ``roll_dice`` and the d20 library
wrote: checked here against a reference that asks the generator itself, not against the code it replaces."""

from __future__ import annotations

import random

import pytest

from rules import dice
from rules.model import MAX_POINTS, Context

SIDES = [1, 2, 3, 5, 6, 7, 8, 10, 12, 15, 16, 17, 20, 100, 215, 216, 217, 1000]


def reference_rule_roll(count: int, sides: int, rng: random.Random) -> dice.Roll:
    """``roll_dice`` as it was written before plans: each face ``randrange(sides) + 1``."""
    faces = [rng.randrange(sides) + 1 for _ in range(count)]
    total = sum(faces)
    if count == 1:
        return dice.Roll(f"1d{sides}", total, f"1d{sides} = {total}")
    return dice.Roll(f"{count}d{sides}", total, f"{count}d{sides} ({', '.join(map(str, faces))}) = {total}")


@pytest.mark.parametrize("count", [1, 2, 3, 4])
@pytest.mark.parametrize("sides", SIDES)
def test_a_rule_roll_draws_and_writes_as_randrange_would(count: int, sides: int) -> None:
    ours, theirs = random.Random(count * 1000 + sides), random.Random(count * 1000 + sides)
    ctx = Context(ours, None)
    for _ in range(60):
        expected = reference_rule_roll(count, sides, theirs)
        assert ctx.dice(count, sides, "Test") == expected
        assert dice.roll_dice(count, sides, ours, None, "Test") == reference_rule_roll(count, sides, theirs)
    assert ours.getstate() == theirs.getstate()
    assert ctx.rolls and len(ctx.rolls) == 60


@pytest.mark.parametrize(("count", "sides"), [(0, 6), (101, 6), (2, 1001), (1, 5000)])
def test_a_rule_roll_without_a_plan_draws_and_writes_as_randrange_would(count: int, sides: int) -> None:
    ours, theirs = random.Random(count + sides), random.Random(count + sides)
    ctx = Context(ours, None)
    for _ in range(5):
        assert ctx.dice(count, sides, "Test") == reference_rule_roll(count, sides, theirs)
    assert ours.getstate() == theirs.getstate()


@pytest.mark.parametrize("sides", [2, 6, 14])
def test_a_result_met_again_is_the_same_roll(sides: int) -> None:
    """A result already met is not written again (its ``Roll`` is immutable): what made a dice hit cost 11,000 to
    22,000 CPU instructions more than a number. Kept for up to ``MAX_KEPT`` results (2d14: 196)."""
    ctx = Context(random.Random(3), None)
    for roll_once in (
        lambda: ctx.dice(1, sides, "Test"),
        lambda: ctx.dice(2, sides, "Test"),
        lambda: ctx.amount(f"1d{sides}+1", "Dégâts"),
    ):
        seen: dict[tuple[int, str], dice.Roll] = {}
        for _ in range(400):
            roll = roll_once()
            assert seen.setdefault((roll.total, roll.detail), roll) is roll
        assert len(seen) >= sides


@pytest.mark.parametrize("text", ["1d6", "2d6+3", "3d6", "1d20 + 5", "d4", "4d6-2", "1d1000", "10d10", "2d2", "1d2-5"])
def test_a_typed_amount_draws_and_writes_as_randrange_would(text: str) -> None:
    count_text, rest = text.replace(" ", "").split("d")
    count = int(count_text or 1)
    sides_text, sign, bonus_text = rest.partition("+") if "+" in rest else rest.partition("-")
    sides, bonus = int(sides_text), int(bonus_text or 0) * (-1 if sign == "-" else 1)
    ours, theirs = random.Random(len(text)), random.Random(len(text))
    ctx = Context(ours, None)
    for _ in range(60):
        faces = [theirs.randrange(sides) + 1 for _ in range(count)]
        total = sum(faces) + bonus
        shown = f"{count}d{sides} ({', '.join(map(str, faces))})" + (f" {sign} {abs(bonus)}" if sign else "")
        got = ctx.amount(text, "Dégâts", minimum=None)
        assert got == dice.Roll(text.strip(), total, f"{shown} = {total}")
    assert ours.getstate() == theirs.getstate()


def test_a_generator_that_is_not_a_plain_random_is_asked_through_randrange_for_every_die() -> None:
    asked: list[int] = []

    class Scripted(random.Random):
        def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:  # type: ignore[override]
            asked.append(start)
            return len(asked) % start

    ctx = Context(Scripted(0), None)
    assert ctx.dice(3, 6, "Test") == dice.Roll("3d6", 9, "3d6 (2, 3, 4) = 9")
    assert ctx.amount("2d6+1", "Dégâts") == dice.Roll("2d6+1", 12, "2d6 (5, 6) + 1 = 12")
    assert ctx.amount("1d8", "Dégâts") == dice.Roll("1d8", 7, "1d8 (7) = 7")
    assert asked == [6, 6, 6, 6, 6, 8]


def test_only_whole_numbers_of_dice_and_sides_take_a_plan() -> None:
    """``True == 1`` as a dict key: a plan found for 1 die must not roll ``True`` dice (``roll_dice`` writes them
    as it always did)."""
    ctx = Context(random.Random(0), None)
    ctx.dice(1, 6, "Test")
    assert ctx.dice(True, 6, "Test").expression == "Trued6"
    assert ctx.dice(1, True, "Test").expression == "1dTrue"
    assert dice.rule_plan(True, 6) is None and dice.rule_plan(1, 6) is not None


def test_a_rolled_total_past_the_bound_is_held_to_it() -> None:
    ctx = Context(random.Random(0), None)
    roll = ctx.amount("1d6+100000", "Dégâts")
    assert roll.total == MAX_POINTS and roll.detail.endswith(f"→ compté {MAX_POINTS} (au plus {MAX_POINTS})")
    low = ctx.amount("1d4-100005", "Sévérité", minimum=None)
    assert low.total == -MAX_POINTS and low.detail.endswith("→ compté −100000 (au moins −100000)")
    assert [r.total for r in ctx.rolls] == [MAX_POINTS, -MAX_POINTS]


def test_a_whole_number_typed_is_given_and_not_recorded_as_rolled() -> None:
    ctx = Context(random.Random(0), None)
    assert ctx.amount(" 12 ", "Dégâts") == dice.Roll("12", 12, "12", given=True)
    assert ctx.amount("-3", "Dégâts") == dice.Roll("-3", -3, "-3", given=True)
    assert ctx.rolls == ()


def test_an_expression_the_plans_do_not_roll_goes_to_the_library() -> None:
    ours, theirs = random.Random(8), random.Random(8)
    ctx = Context(ours, None)
    for text in ("4d6kh3", "1d6*2", "101d6", "2D6"):
        assert ctx.amount(text, "Dégâts") == dice.roll_expression(text, theirs)
    assert ours.getstate() == theirs.getstate()
