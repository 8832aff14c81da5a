"""What the game master's table asks of the rules: a creature's summary, who fell, bulk amounts, rolled
maxima, and the actions of a turn and a round.

Pure Python, no Qt. The table (``ui/table``) shows these and sends the actions through ``rules.apply``;
it decides no rule itself. Everything here works for every registered system from what the system
already says about itself (``derive``, ``describe``, its sheet model), so a new system gets a working
table row without new code.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from typing import Any, Literal

import rules
from rules.actions import Action, AdvanceTime, Damage, Edit, EndRound, StartTurn
from rules.dice import Roll, roll_expression
from rules.errors import Refused
from rules.info import SystemInfo
from rules.model import MAX_POINTS, Derived, Outcome, fmt_int

# --------------------------------------------------------------------------------------------------
# States by what they mean at the table
# --------------------------------------------------------------------------------------------------

Category = Literal["up", "down", "dying", "dead"]

# State ids are shared by the four systems (GLOSSARY): « mort », « mourant », and the states of a
# creature out of the fight without dying. Every other state is a creature still standing.
DEAD_STATES = frozenset({"mort"})
DYING_STATES = frozenset({"mourant"})
DOWN_STATES = frozenset({"inconscient", "stabilise", "hors_de_combat"})


def category(state: str) -> Category:
    """Whether a health state is a creature standing ("up"), out of the fight ("down"), dying or dead."""
    if state in DEAD_STATES:
        return "dead"
    if state in DYING_STATES:
        return "dying"
    if state in DOWN_STATES:
        return "down"
    return "up"


@dataclass(frozen=True, slots=True)
class StateChange:
    """How one creature's lot changed through an action: ``fell`` (now down, was up), ``dying`` (now
    dying, was not), ``died`` (now dead, was not), ``rose`` (up again)."""

    fell: bool = False
    dying: bool = False
    died: bool = False
    rose: bool = False

    def __bool__(self) -> bool:
        return self.fell or self.dying or self.died or self.rose


# Nothing changed (most creatures of a bulk action): one shared value, it is immutable.
UNCHANGED = StateChange()


def state_change(before: str, after: str) -> StateChange:
    """What changed between two health states (ids), for « who fell, who is dying, who died »."""
    was, now = category(before), category(after)
    if was == now:
        return UNCHANGED
    return StateChange(
        fell=now == "down" and was == "up",
        dying=now == "dying",
        died=now == "dead",
        rose=now == "up",
    )


def health_state(sheet: Any) -> str:
    """The health state id of ``sheet``: the same as ``rules.derive(sheet).state``, without computing
    every other derived value when the system can say it alone (a thousand creatures after one bulk
    action)."""
    sys_ = rules.system(sheet.system)
    if sys_.state is not None:
        return sys_.state(sheet, sys_.ruleset())[0]
    return rules.derive(sheet).state


# --------------------------------------------------------------------------------------------------
# A creature in one row
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Summary:
    """What a row of the table shows of one creature, read from its derived values.

    ``nonlethal`` is None when the system counts no nonlethal damage; ``floor`` is where death comes
    when the points may go below 0 (d20 −10, segments −CON), else 0; ``gauge``: the points are the
    notches of a gauge that fills with wounds (Sévérité's Trauma) rather than a pool that empties.
    ``conditions`` are (id, French label) of the states posed or implied; ``worst_wound`` names the
    gravest wound (by the order of gravities of the system's table; the latest when it has none).
    ``hidden`` names the values the rules hide from the player.
    """

    system: str
    state: str
    state_label: str
    colour: str
    current: int
    maximum: int
    temporary: int
    nonlethal: int | None
    floor: int
    gauge: bool
    conditions: tuple[tuple[str, str], ...]
    wounds: int
    worst_wound: str
    bleeding: bool
    hidden: frozenset[str]

    @property
    def category(self) -> Category:
        return category(self.state)


@functools.cache
def _info(system_id: str) -> SystemInfo:
    return rules.describe(system_id)


def _labels(pairs: Any) -> dict[str, str]:
    return {str(k): str(v) for k, v in pairs or ()}


def _get(item: Any, name: str, default: Any = None) -> Any:
    if isinstance(item, dict):
        return item.get(name, default)
    return getattr(item, name, default)


def _wounds(sheet: Any, derived: Derived, info: SystemInfo) -> tuple[int, str, bool]:
    """Count, worst label and whether one bleeds, from the stored wounds and the system's tables."""
    wounds = tuple(getattr(sheet, "wounds", ()) or ())
    if not wounds:
        return 0, "", False
    extra = info.extra
    types = {c.id: c.label for c in info.wound_types}
    parts = _labels(extra.get("body_part_choices"))
    severities = _labels(extra.get("wound_severities"))
    grades = _labels(extra.get("wound_grades"))
    # The gravities, mildest first, as the system's table orders them.
    order = list(grades) or list(severities)

    def gravity(wound: Any) -> int:
        value = _get(wound, "grade") or _get(wound, "severity")
        return order.index(value) if isinstance(value, str) and value in order else -1

    def label(wound: Any) -> str:
        grade = _get(wound, "grade")
        wtype = _get(wound, "type")
        severity = _get(wound, "severity")
        part = _get(wound, "body_part")
        if isinstance(grade, str) and grade:
            text = grades.get(grade) or types.get(grade, grade)
        elif isinstance(wtype, str) and wtype:
            text = types.get(wtype, wtype)
            if isinstance(severity, str) and severity in severities:
                text += f" {severities[severity]}"
        else:
            text = ""
        if isinstance(part, str) and part:
            part_label = parts.get(part) or types.get(part, part)
            text = f"{text} ({part_label.lower()})" if text else part_label
        return text

    worst = wounds[-1]
    if order:
        # The gravest; among equals, the latest.
        worst = max(reversed(wounds), key=gravity)
    bleeding = any(
        _get(w, "bleeding") is True or (isinstance(_get(w, "bleeding"), str) and _get(w, "bleeding")) for w in wounds
    )
    return len(wounds), label(worst), bleeding


def summarise(sheet: Any, derived: Derived | None = None) -> Summary:
    """The row of ``sheet`` in the table (``derived``: its derived values when already computed)."""
    d = derived if derived is not None else rules.derive(sheet)
    info = _info(sheet.system)
    state = d.state
    state_info = info.state(state)
    condition_labels = {c.id: c.label for c in info.conditions}
    raw_conditions = d.get("conditions")
    ids = tuple(raw_conditions.value) if raw_conditions is not None else ()
    nonlethal_value = d.get("nonlethal")
    threshold = d.get("death_threshold")
    floor = threshold.value if threshold is not None and isinstance(threshold.value, int) else 0
    count, worst, bleeding = _wounds(sheet, d, info)
    return Summary(
        system=sheet.system,
        state=state,
        state_label=state_info.label,
        colour=state_info.colour,
        current=d.current,
        maximum=d.maximum,
        temporary=d.temporary if "temporary" in d else 0,
        nonlethal=int(nonlethal_value.value or 0) if nonlethal_value is not None else None,
        floor=min(floor, 0),
        gauge="trauma" in info.features,
        conditions=tuple((c, condition_labels.get(c, c)) for c in ids),
        wounds=count,
        worst_wound=worst,
        bleeding=bleeding,
        hidden=d.hidden,
    )


# --------------------------------------------------------------------------------------------------
# Bulk actions: one amount, a factor per creature
# --------------------------------------------------------------------------------------------------

Factor = Literal["full", "half", "double", "none"]
FACTORS: tuple[Factor, ...] = ("full", "half", "double", "none")
FACTOR_LABELS: dict[str, str] = {"full": "entier", "half": "moitié", "double": "double", "none": "aucun"}


def roll_once(expression: str, rng: random.Random) -> Roll:
    """One roll for every creature (« lancé une fois pour tous »); a bad expression is ``Refused``."""
    return roll_expression(expression, rng)


def _half(value: int) -> int:
    # Halves are rounded down (toward zero), as every seed that halves damage does.
    return value // 2 if value >= 0 else -((-value) // 2)


def scaled(action: Action, factor: str, system_id: str, total: int | None = None) -> Action | None:
    """``action`` for one creature after its factor (a save, a resistance): None when it takes nothing.

    A known amount (``action.amount``, an int) is scaled here; « moitié » on damage in a system whose
    rules halve a hit themselves (``save_halves``) goes to them, so the halving comes after that
    creature's reductions exactly as its rules say. A total below 0 (« 1d4−5 ») is handed to each
    creature's rules as an expression of that value: they decide (nothing, or Sévérité's « pas de
    Blessure »). ``total``: the amount already rolled for this creature (it replaces ``action.amount``).
    """
    if factor not in FACTORS:
        raise Refused(f"Facteur inconnu : « {factor} » (attendu : {', '.join(FACTOR_LABELS.values())}).")
    if factor == "none":
        return None
    amount = total if total is not None else getattr(action, "amount", None)
    if amount is None:
        return action
    changes: dict[str, Any] = {}
    if factor == "half" and isinstance(action, Damage) and "save_halves" in _info(system_id).features:
        changes["save_halves"] = True
    elif isinstance(amount, int):
        if factor == "half":
            amount = _half(amount)
        elif factor == "double":
            amount *= 2
    if isinstance(amount, int):
        # Held to what a sheet can store, as every rolled total is (``Context.amount``).
        amount = max(-MAX_POINTS, min(MAX_POINTS, amount))
    elif factor != "full":
        raise Refused("Un facteur (moitié, double) s'applique à un montant connu : lancez les dés une fois pour tous.")
    if isinstance(amount, int) and amount < 0:
        amount = f"({amount})"
    changes["amount"] = amount
    return action.model_copy(update=changes)


# --------------------------------------------------------------------------------------------------
# New creatures: a maximum rolled from dice
# --------------------------------------------------------------------------------------------------


def has_rolled_maximum(system_id: str) -> bool:
    """Whether a sheet of ``system_id`` has a maximum of points to roll (Sévérité's gauge has none)."""
    return (
        "base_maximum" in rules.system(system_id).sheet_type.model_fields and "trauma" not in _info(system_id).features
    )


def with_rolled_maximum(sheet: Any, expression: str, rng: random.Random) -> Outcome:
    """``sheet`` with its maximum rolled from ``expression`` (« 2d8+4 ») and its points at that maximum.

    The journal says what was rolled. ``Refused`` when the system has no maximum to roll, or when the
    roll gives less than 1.
    """
    if not has_rolled_maximum(sheet.system):
        raise Refused(f"Les règles {rules.system(sheet.system).label} n'ont pas de maximum de points à tirer aux dés.")
    roll = roll_expression(expression, rng)
    if roll.total < 1:
        raise Refused(f"Maximum tiré : {roll.detail} ; il faut au moins 1.")
    if roll.total > MAX_POINTS:
        raise Refused(f"Maximum tiré : {roll.detail} ; au plus {fmt_int(MAX_POINTS)}.")
    first = rules.apply(sheet, Edit(changes={"base_maximum": roll.total}))
    log = [f"Maximum tiré aux dés : {roll.detail}.", *first.log]
    new = first.sheet
    # A new creature starts unhurt: its points at the (effective) maximum the roll gave.
    top = rules.derive(new).maximum
    if getattr(new, "current", top) != top:
        second = rules.apply(new, Edit(changes={"current": top}))
        new = second.sheet
        log.extend(second.log)
    return Outcome(new, tuple(log), (roll,))


# --------------------------------------------------------------------------------------------------
# Turns and rounds
# --------------------------------------------------------------------------------------------------


def has_turns(system_id: str) -> bool:
    """Whether the system's rules split a round into ``StartTurn`` and ``EndRound`` (both, or neither:
    one without the other would apply a start-of-turn rule twice, or never)."""
    return rules.supports(system_id, StartTurn) and rules.supports(system_id, EndRound)


def turn_start(system_id: str) -> Action | None:
    """The action for « this creature's turn starts »: ``StartTurn`` where the system's rules split
    the round, else None (its round then passes whole at the end of the round)."""
    return StartTurn() if has_turns(system_id) else None


def round_end(system_id: str) -> Action:
    """The action for « the round ends » for one creature: ``EndRound`` where the system's rules split
    the round, else one whole round of its time (``AdvanceTime(unit=round_unit)``)."""
    if has_turns(system_id):
        return EndRound()
    return AdvanceTime(unit=_info(system_id).round_unit)


__all__ = [
    "DEAD_STATES",
    "DOWN_STATES",
    "DYING_STATES",
    "FACTORS",
    "FACTOR_LABELS",
    "Category",
    "Factor",
    "StateChange",
    "Summary",
    "category",
    "has_rolled_maximum",
    "has_turns",
    "health_state",
    "roll_once",
    "round_end",
    "scaled",
    "state_change",
    "summarise",
    "turn_start",
    "with_rolled_maximum",
]
