"""Exact odds of the rolls the rules ask for: dice distributions, small Markov chains, French percentages.

Nothing here samples. A roll's chance comes from the exact distribution of its dice (convolution of
the faces, with ``Fraction``); a dying character's whole story is a small absorbing Markov chain
solved exactly (``absorption``). Each rule system says, in ``rules/systems/<id>/odds.py``, which rolls
its rules can ask of a sheet and how they are made; the interface only shows the ``Chance`` records
this gives (``rules.sheet_odds``, ``rules.action_odds``) and never computes a probability itself.

A ``Chance`` explains itself in the style of ``derive(...).explain``::

    Jet contre la mort : 3d6 − 2 (épuisement niveau 2) ≥ 10 : 37,5 %
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from fractions import Fraction
from types import MappingProxyType
from typing import Any, Literal, Protocol, TypeVar

from rules.model import Term, fmt_int
from rules.record import Record, _set

Distribution = Mapping[int, Fraction]
Probability = Fraction | float

# Sums of more faces than this are refused (a GM's table could ask for 100d1000: 10⁵ totals).
MAX_TOTALS = 20_000
# States of one Markov chain at most (a dying story has a few dozen; a GM's table could ask for more).
MAX_STATES = 200_000

NBSP = "\u00a0"


# --- Percentages, in French ------------------------------------------------------------------------


def fmt_percent(probability: Probability) -> str:
    """A probability as a French percentage: « 62,5 % », « 10 % », « < 0,1 % », « > 99,9 % ».

    One decimal, rounded half up from the exact value; « 0 % » and « 100 % » only when the event is
    impossible or certain, so a rare outcome never reads as impossible.
    """
    p = Fraction(probability)
    if p <= 0:
        return f"0{NBSP}%"
    if p >= 1:
        return f"100{NBSP}%"
    if p < Fraction(1, 1000):
        return f"<{NBSP}0,1{NBSP}%"
    if p > Fraction(999, 1000):
        return f">{NBSP}99,9{NBSP}%"
    # Tenths of a percent, rounded half up from the exact value (integers only: no binary rounding).
    tenths = (2 * 1000 * p.numerator + p.denominator) // (2 * p.denominator)
    whole, decimal = divmod(tenths, 10)
    text = str(whole) if decimal == 0 else f"{whole},{decimal}"
    return f"{text}{NBSP}%"


# --- Dice distributions ----------------------------------------------------------------------------


def convolve(a: Distribution, b: Distribution) -> Distribution:
    """The distribution of the sum of two independent totals."""
    if len(a) * len(b) > MAX_TOTALS * 50:
        raise ValueError("trop de totaux possibles pour un calcul exact")
    result: dict[int, Fraction] = {}
    for x, px in a.items():
        for y, py in b.items():
            result[x + y] = result.get(x + y, Fraction(0)) + px * py
    return MappingProxyType(result)


@functools.lru_cache(maxsize=512)
def dice(count: int, sides: int) -> Distribution:
    """The exact distribution of ``count``d``sides`` (a sum of fair faces), by convolution."""
    if count < 0 or sides < 1:
        raise ValueError(f"{count}d{sides} : des dés impossibles")
    if count * (sides - 1) + 1 > MAX_TOTALS:
        raise ValueError(f"{count}d{sides} : trop de totaux possibles pour un calcul exact")
    one = MappingProxyType({face: Fraction(1, sides) for face in range(1, sides + 1)})
    result: Distribution = MappingProxyType({0: Fraction(1)})
    for _ in range(count):
        result = convolve(result, one)
    return result


def constant(value: int) -> Distribution:
    return MappingProxyType({value: Fraction(1)})


def shifted(dist: Distribution, by: int) -> Distribution:
    """``dist`` plus a fixed modifier."""
    return MappingProxyType({x + by: p for x, p in dist.items()}) if by else dist


def negated(dist: Distribution) -> Distribution:
    return MappingProxyType({-x: p for x, p in dist.items()})


def total_of(*parts: Distribution) -> Distribution:
    """The distribution of the sum of independent parts."""
    result: Distribution = constant(0)
    for part in parts:
        result = convolve(result, part)
    return result


def best_of(dist: Distribution, times: int) -> Distribution:
    """The highest of ``times`` independent draws of ``dist`` (a roll « avec Facilité »)."""
    if times <= 1:
        return dist
    result: dict[int, Fraction] = {}
    below = Fraction(0)
    for x in sorted(dist):
        up_to = below + dist[x]
        result[x] = up_to**times - below**times
        below = up_to
    return MappingProxyType(result)


def at_least(dist: Distribution, target: int) -> Fraction:
    """P(total ≥ target)."""
    return sum((p for x, p in dist.items() if x >= target), Fraction(0))


def dice_at_least(count: int, sides: int, target: int) -> Fraction:
    """P(``count``d``sides`` ≥ target): ``at_least(dice(count, sides), target)``, read from a table of tail
    sums worked out once per die (a test's chance is asked on every refresh of a sheet or a table row)."""
    tails = _tails(count, sides)
    if target <= count:
        return Fraction(1)
    if target > count * sides:
        return Fraction(0)
    return tails[target - count]


@functools.lru_cache(maxsize=256)
def _tails(count: int, sides: int) -> tuple[Fraction, ...]:
    """P(total ≥ count + i) for each i, from the distribution of ``count``d``sides``."""
    dist = dice(count, sides)
    result: list[Fraction] = []
    running = Fraction(0)
    for total in range(count * sides, count - 1, -1):
        running += dist.get(total, Fraction(0))
        result.append(running)
    return tuple(reversed(result))


def at_most(dist: Distribution, target: int) -> Fraction:
    """P(total ≤ target)."""
    return sum((p for x, p in dist.items() if x <= target), Fraction(0))


def single_die_check(
    sides: int,
    modifier: int,
    target: int,
    *,
    natural_success: int | None = None,
    natural_failure: int | None = None,
) -> Fraction:
    """One die + ``modifier`` ≥ ``target``, where a natural ``natural_success`` always succeeds and a natural
    ``natural_failure`` always fails (a d20 save's natural 20 and natural 1)."""
    wins = 0
    for face in range(1, sides + 1):
        if natural_success is not None and face == natural_success:
            wins += 1
        elif natural_failure is not None and face == natural_failure:
            continue
        elif face + modifier >= target:
            wins += 1
    return Fraction(wins, sides)


def percent_chance(chance: int, die: int) -> Fraction:
    """A percentile roll: ``1d{die}`` showing ``chance`` or less."""
    return Fraction(max(0, min(chance, die)), die)


# --- How a roll is written -------------------------------------------------------------------------


def terms_text(terms: Iterable[Term]) -> str:
    """`` + 2 (CON) − 1 (épuisement niveau 1)``: the modifiers of a roll, in the journal's order."""
    return "".join(f" {'+' if t.value > 0 else '−'} {abs(t.value)} ({t.reason})" for t in terms if t.value)


def roll_text(dice_text: str, terms: Iterable[Term], comparison: str, target: int | str) -> str:
    """« 3d6 − 2 (épuisement niveau 2) ≥ 10 »."""
    shown = fmt_int(target) if isinstance(target, int) else target
    return f"{dice_text}{terms_text(terms)} {comparison} {shown}"


# --- Small Markov chains ---------------------------------------------------------------------------

State = TypeVar("State", bound=Hashable)
# A transition leads to another state, or ends the story: True (pulled through) or False (did not).
Step = Callable[[State], Iterable[tuple[Probability, "State | bool"]]]


def absorption(start: State | bool, step: Step[State]) -> float:
    """The probability that the chain from ``start`` ends in ``True``.

    ``step(state)`` lists the transitions of a state: (probability, next state) where the next state
    is another state or an end (``True``/``False``). The chain may loop on a state (a roll that changes
    nothing: « on le rejoue toutes les heures ») but must otherwise move forward (no longer cycles):
    every story of the rules does, since time, points or counters only go one way. A state that only
    loops on itself never ends: it counts as not pulling through.
    """
    if isinstance(start, bool):
        return 1.0 if start else 0.0
    solved: dict[Any, float] = {}
    # Depth first, one successor at a time: the states whose transitions are known and which are not
    # solved yet are exactly the path from ``start`` (a successor among them would be a cycle).
    path: list[Any] = [start]
    transitions: dict[Any, list[tuple[float, Any]]] = {}
    while path:
        state = path[-1]
        moves = transitions.get(state)
        if moves is None:
            moves = [(float(p), nxt) for p, nxt in step(state) if p]
            transitions[state] = moves
            if len(solved) + len(transitions) > MAX_STATES:
                raise ValueError("histoire trop longue pour un calcul exact")
        waiting = next(
            (nxt for _, nxt in moves if not isinstance(nxt, bool) and nxt != state and nxt not in solved), None
        )
        if waiting is not None:
            if waiting in transitions:
                raise ValueError("la chaîne revient sur un état : elle doit avancer")
            path.append(waiting)
            continue
        stay = 0.0
        value = 0.0
        for p, nxt in moves:
            if isinstance(nxt, bool):
                value += p if nxt else 0.0
            elif nxt == state:
                stay += p
            else:
                value += p * solved[nxt]
        solved[state] = value / (1.0 - stay) if stay < 1.0 else 0.0
        path.pop()
        del transitions[state]
    return solved[start]


# --- What a system says about its rolls ------------------------------------------------------------

Trigger = Literal["action", "time", "event", "story"]


class Chance(Record):
    """One roll the rules can ask (or a whole story), with its chance and how it is made, in French.

    ``how`` is the roll as the journal writes it (« 3d6 − 2 (épuisement niveau 2) ≥ 10 »); ``text``
    adds the label and the percentage. ``action`` is the kind of the action that makes this roll (the
    button or dialog it belongs beside); ``trigger`` says when the rules make it: at the user's request
    (``action``), as time passes (``time``: rounds, turns, hours, rests), when something happens
    (``event``: a fall, a hit), or ``story`` for the chance of a whole dying sequence. ``subject``
    names what the roll is about when a sheet has several (a wound's id). ``outcomes`` details a roll
    with more than two results (Ténacité levels, wound grades), each with its own chance.
    """

    __slots__ = ("id", "label", "probability", "how", "action", "trigger", "subject", "outcomes")  # noqa: RUF023  (the fields, in order)
    id: str
    label: str
    probability: float
    how: str
    action: str | None
    trigger: Trigger
    subject: int | None
    outcomes: tuple[tuple[str, float], ...]

    def __init__(
        self,
        id: str,
        label: str,
        probability: float,
        how: str,
        action: str | None = None,
        trigger: Trigger = "action",
        subject: int | None = None,
        outcomes: tuple[tuple[str, float], ...] = (),
    ) -> None:
        _set(self, "id", id)
        _set(self, "label", label)
        _set(self, "probability", probability)
        _set(self, "how", how)
        _set(self, "action", action)
        _set(self, "trigger", trigger)
        _set(self, "subject", subject)
        _set(self, "outcomes", outcomes)

    @property
    def percent(self) -> str:
        return fmt_percent(self.probability)

    @property
    def text(self) -> str:
        """« Jet contre la mort : 3d6 − 2 (épuisement niveau 2) ≥ 10 : 37,5 % », outcomes on further lines."""
        lines = [f"{self.label} : {self.how} : {self.percent}"]
        lines += [f"• {label} : {fmt_percent(p)}" for label, p in self.outcomes]
        return "\n".join(lines)


def chance(
    id: str,
    label: str,
    probability: Probability,
    how: str,
    *,
    action: str | None = None,
    trigger: Trigger = "action",
    subject: int | None = None,
    outcomes: Sequence[tuple[str, Probability]] = (),
) -> Chance:
    """A ``Chance`` from an exact or float probability (kept within [0, 1])."""
    return Chance(
        id,
        label,
        _clamped(probability),
        how,
        action,
        trigger,
        subject,
        tuple((text, _clamped(p)) for text, p in outcomes),
    )


def _clamped(p: Probability) -> float:
    return min(1.0, max(0.0, float(p)))


class Odds(Record):
    """Every roll the rules can ask of a sheet now, and a dying character's chance of pulling through."""

    __slots__ = ("rolls", "survival")
    rolls: tuple[Chance, ...]
    survival: Chance | None

    def __init__(self, rolls: tuple[Chance, ...] = (), survival: Chance | None = None) -> None:
        _set(self, "rolls", rolls)
        _set(self, "survival", survival)

    def get(self, roll_id: str, subject: int | None = None) -> Chance | None:
        """The roll ``roll_id`` (about ``subject`` when given), or None when the rules do not ask it now."""
        for item in self.rolls:
            if item.id == roll_id and (subject is None or item.subject == subject):
                return item
        return None

    def for_action(self, kind: str) -> tuple[Chance, ...]:
        """The rolls the action ``kind`` makes (its button shows them)."""
        return tuple(item for item in self.rolls if item.action == kind)

    def by_trigger(self, trigger: Trigger) -> tuple[Chance, ...]:
        return tuple(item for item in self.rolls if item.trigger == trigger)


class SystemOdds(Protocol):
    """What ``rules/systems/<id>/odds.py`` provides (the registry finds it by its path)."""

    def rolls(self, sheet: Any, table: Any) -> list[Chance]:
        """Every roll the rules can ask of ``sheet`` now, with the sheet's own modifiers."""
        ...

    def for_action(self, sheet: Any, table: Any, action: Any) -> list[Chance]:
        """The rolls ``action`` would make, with the values chosen in its dialog (empty: none)."""
        ...

    def survival(self, sheet: Any, table: Any) -> Chance | None:
        """A dying character's chance of pulling through, from where it stands (None: not dying)."""
        ...


__all__ = [
    "Chance",
    "Distribution",
    "Odds",
    "SystemOdds",
    "Trigger",
    "absorption",
    "at_least",
    "at_most",
    "best_of",
    "chance",
    "constant",
    "convolve",
    "dice",
    "dice_at_least",
    "fmt_percent",
    "negated",
    "percent_chance",
    "roll_text",
    "shifted",
    "single_die_check",
    "terms_text",
    "total_of",
]
