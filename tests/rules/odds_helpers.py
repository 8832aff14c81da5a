"""Checking the odds against the real rules: every die face through ``rules.apply``, and Monte Carlo runs.

``exact_story`` plays a story through the real ``rules.apply`` with every face of every die the rules
roll (a scripted generator hands out the faces and stops at the first die not scripted yet), each
branch weighted by its chance: the exact probability of the rules as coded, with no sampling and no
model of ours. ``monte_carlo`` plays the same story with a seeded generator many times.
"""

from __future__ import annotations

import math
import os
import random
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import rules

# ``SHEET_APP_BIG=1``: the thorough run (100,000 stories per Monte Carlo check); the default keeps the
# shared suite within its time budget with fewer stories, still within 3 standard errors.
BIG = os.environ.get("SHEET_APP_BIG", "") not in ("", "0")
RUNS = 100_000 if BIG else 3_000

Verdict = Callable[[Any], bool | None]
Step = Callable[[Any], rules.Action]


class _Unscripted(Exception):
    def __init__(self, low: int, high: int) -> None:
        super().__init__(f"randint({low}, {high})")
        self.low, self.high = low, high


class ScriptedRandom(random.Random):
    """Hands out the scripted values in order, then raises ``_Unscripted`` naming the range wanted.

    The dice draw with ``randint`` or ``randrange``; any other use of the generator fails loudly, so a
    new way of drawing cannot slip unscripted values into an "exact" story.
    """

    def __init__(self, script: list[int]) -> None:
        super().__init__(0)
        self.script = script
        self.used = 0

    def _draw(self, low: int, high: int) -> int:
        if self.used < len(self.script):
            value = self.script[self.used]
            self.used += 1
            assert low <= value <= high
            return value
        raise _Unscripted(low, high)

    def randint(self, a: int, b: int) -> int:
        return self._draw(a, b)

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:  # type: ignore[override]
        assert step == 1
        return self._draw(0, start - 1) if stop is None else self._draw(start, stop - 1)

    def random(self) -> float:
        raise AssertionError("the rules drew from the generator in a way the exact story does not script")

    def getrandbits(self, k: int) -> int:
        raise AssertionError("the rules drew from the generator in a way the exact story does not script")


def outcomes_of(sheet: Any, action: rules.Action, rules_table: Any = None) -> dict[str, tuple[Fraction, Any]]:
    """Every sheet ``action`` can lead to, by its JSON, with its exact probability."""
    found: dict[str, tuple[Fraction, Any]] = {}

    def explore(script: list[int], weight: Fraction) -> None:
        try:
            out = rules.apply(sheet, action, rng=ScriptedRandom(script), rules_table=rules_table)
        except _Unscripted as need:
            faces = range(need.low, need.high + 1)
            for face in faces:
                explore([*script, face], weight / len(faces))
            return
        key = rules.sheet_to_json(out.sheet)
        before = found.get(key, (Fraction(0), out.sheet))[0]
        found[key] = (before + weight, out.sheet)

    explore([], Fraction(1))
    assert sum(p for p, _ in found.values()) == 1
    return found


def success_share(sheet: Any, action: rules.Action, rules_table: Any = None) -> Fraction:
    """The exact share of die faces for which the journal of ``action`` ends its roll with « réussite »: for
    a test that changes nothing on the sheet (a characteristic test, a will test), every face played."""
    total = Fraction(0)

    def explore(script: list[int], weight: Fraction) -> None:
        nonlocal total
        try:
            out = rules.apply(sheet, action, rng=ScriptedRandom(script), rules_table=rules_table)
        except _Unscripted as need:
            faces = range(need.low, need.high + 1)
            for face in faces:
                explore([*script, face], weight / len(faces))
            return
        if any(line.rstrip(".").endswith("→ réussite") for line in out.log):
            total += weight

    explore([], Fraction(1))
    return total


def exact_story(
    sheet: Any,
    step: Step,
    verdict: Verdict,
    max_steps: int = 400,
    outcomes: Callable[[Any, rules.Action], dict[str, tuple[Fraction, Any]]] = outcomes_of,
) -> float:
    """P(the story ends with ``verdict`` True), playing ``step(sheet)`` until the verdict is known."""
    memo: dict[str, float] = {}

    def value(current: Any, depth: int) -> float:
        known = verdict(current)
        if known is not None:
            return 1.0 if known else 0.0
        assert depth < max_steps, "the story does not end"
        key = rules.sheet_to_json(current)
        if key not in memo:
            memo[key] = sum(float(p) * value(nxt, depth + 1) for p, nxt in outcomes(current, step(current)).values())
        return memo[key]

    return value(sheet, 0)


def monte_carlo(sheet: Any, play: Callable[[Any, random.Random], bool], runs: int, seed: int) -> float:
    """The share of ``runs`` stories (``play`` with a generator seeded from ``seed``) that end well."""
    rng = random.Random(seed)
    return sum(1 for _ in range(runs) if play(sheet, rng)) / runs


def within_standard_errors(observed: float, expected: float, runs: int, errors: float = 3.0) -> bool:
    """|observed − expected| within ``errors`` standard errors of a share of ``runs`` draws."""
    spread = math.sqrt(max(expected * (1 - expected), 1e-12) / runs)
    return abs(observed - expected) <= errors * spread + 1e-12
