"""``rules.apply`` as one function (issue 15, session 6): it makes its ``Context`` and ends it itself, without
calling ``Context.__init__`` or ``Context.finish``, reads a sheet's clock and timers directly, and passes a state
put or taken off without a duration straight to the system. Each shortcut gives what the long way gives."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

import rules
from rules.model import CLOCK_REFUSAL, MAX_CLOCK, ConditionTimer, Context, SheetBase
from rules.systems import KNOWN

SYSTEMS = ["douaratil", "d20", "segments", "severite"]


def _slots(ctx: Context) -> dict[str, Any]:
    """Each slot of ``ctx`` with its type, lists copied (the Context fills them later)."""
    values = {name: getattr(ctx, name) for name in Context.__slots__}
    return {name: (type(v), list(v) if type(v) is list else v) for name, v in values.items()}


@pytest.fixture
def seen(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Any]]:
    """Douaratil's ``Damage`` handler replaced by one that keeps the Context it is given, as it is on entry
    (its slots, then the Context itself), and changes nothing."""
    kept: list[Any] = []

    def keep(sheet: Any, action: Any, ctx: Context) -> Any:
        kept.append(_slots(ctx))
        kept.append(ctx)
        return sheet

    monkeypatch.setitem(rules.system("douaratil").handlers, rules.Damage, keep)
    yield kept


def test_apply_makes_and_ends_its_context_as_context_does(seen: list[Any]) -> None:
    """The Context a handler gets from ``apply`` holds what ``Context(rng, table, action.rolls)`` holds, slot for
    slot, with or without values given for the dice; a Context type with a slot more would have to be made here
    too (this test names the slots)."""
    assert sorted(Context.__slots__) == ["events", "given", "log", "rng", "roll" + "s", "ruleset"]
    rng, table = random.Random(1), rules.ruleset("douaratil")
    sheet = rules.demo_sheet("douaratil")
    rules.apply(sheet, rules.Damage(amount=1), rng)
    rules.apply(sheet, rules.Damage(amount=1, rolls=(4, 2)), rng)
    quiet, given = seen[0], seen[2]
    made = Context(rng, table)
    assert quiet == _slots(made)
    assert quiet["log"] == (list, [])
    assert given == _slots(Context(rng, table, (4, 2)))
    assert given["given"] == (list, [4, 2]), "the values given are used one by one (pop)"
    assert seen[1] is not seen[3], "one Context per action"
    assert isinstance(seen[1], Context)
    assert type(seen[1]).__slots__ == (), "the Context apply makes has the slots of Context and no other"


def test_the_values_given_and_not_used_are_named_once() -> None:
    """Values given for dice the action does not roll end the journal, in order (``Context.finish``'s line)."""
    sheet = rules.demo_sheet("douaratil")
    out = rules.apply(sheet, rules.Heal(amount=1, rolls=(3, 5)), random.Random(1))
    assert out.log[-1] == "Valeurs de dés non utilisées : 3, 5."
    assert sum("non utilisées" in line for line in out.log) == 1
    plain = rules.apply(sheet, rules.Heal(amount=1), random.Random(1))
    assert not any("non utilisées" in line for line in plain.log)
    assert out.log[:-1] == plain.log
    ctx = Context(random.Random(1), None, (3, 5))
    assert ctx.finish(sheet).log == ("Valeurs de dés non utilisées : 3, 5.",)


@pytest.mark.parametrize(("clock", "refused"), [(MAX_CLOCK, False), (MAX_CLOCK + 1, True)])
def test_a_clock_past_the_limit_is_refused_and_the_limit_itself_is_not(
    monkeypatch: pytest.MonkeyPatch, clock: int, refused: bool
) -> None:
    """What ``Context.finish`` refuses, ``apply`` refuses: a sheet whose clock would pass ``MAX_CLOCK``."""
    monkeypatch.setitem(rules.system("douaratil").handlers, rules.Damage, lambda s, a, c: rules.evolve(s, clock=clock))
    sheet = rules.demo_sheet("douaratil")
    if refused:
        with pytest.raises(rules.Refused) as exc:
            rules.apply(sheet, rules.Damage(amount=1), random.Random(1))
        assert exc.value.reason == CLOCK_REFUSAL
        with pytest.raises(rules.Refused):
            Context(None, None).finish(rules.evolve(sheet, clock=clock))
    else:
        assert rules.apply(sheet, rules.Damage(amount=1), random.Random(1)).sheet.clock == MAX_CLOCK
        assert Context(None, None).finish(rules.evolve(sheet, clock=clock)).sheet.clock == MAX_CLOCK


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_a_system_met_before_its_table_is_loaded_applies_the_same(
    monkeypatch: pytest.MonkeyPatch, system_id: str
) -> None:
    """``apply`` reads the loaded system and its shipped table from two dicts; when either is missing (first
    use) it loads them, and the outcome is the same."""
    sheet, action = rules.demo_sheet(system_id), rules.Damage(amount="1d6+1")
    before = rules.apply(sheet, action, random.Random(4))
    monkeypatch.setattr(rules, "_TABLES", {})
    assert rules.apply(sheet, action, random.Random(4)) == before
    monkeypatch.setattr(rules, "_LOADED", {})
    assert rules.apply(sheet, action, random.Random(4)) == before


def test_every_system_sheet_has_a_clock_and_timers() -> None:
    """``apply`` reads ``clock`` and ``condition_timers`` of the sheets it is given and makes without a default:
    every system's sheet is a ``SheetBase``."""
    for system_id in KNOWN:
        assert issubclass(rules.system(system_id).sheet_type, SheetBase), system_id


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_a_state_taken_off_without_a_duration_drops_its_timer(system_id: str) -> None:
    """A state put for two rounds, then taken off (no duration given): its timer goes with it; a state put
    without a duration leaves the other states' timers alone."""
    sheet = rules.demo_sheet(system_id)
    first, second = _settable(sheet)[:2]
    unit = rules.describe(system_id).round_unit
    timed = rules.SetCondition(condition=first, duration=2, unit=unit)
    put = rules.apply(sheet, timed, random.Random(1)).sheet
    assert [t.condition for t in put.condition_timers] == [first]
    other = rules.apply(put, rules.SetCondition(condition=second), random.Random(1)).sheet
    assert [t.condition for t in other.condition_timers] == [first]
    off = rules.apply(other, rules.SetCondition(condition=first, active=False), random.Random(1)).sheet
    assert off.condition_timers == ()
    assert first not in off.conditions


def _settable(sheet: Any) -> list[str]:
    """The states of the system that can be put on ``sheet`` by hand and taken off again."""
    found = []
    for condition in rules.describe(sheet.system).conditions:
        try:
            on = rules.apply(sheet, rules.SetCondition(condition=condition.id), random.Random(0)).sheet
            rules.apply(on, rules.SetCondition(condition=condition.id, active=False), random.Random(0))
        except rules.Refused:
            continue
        found.append(condition.id)
    return found


def _off_is_allowed(sheet: Any, state: str) -> bool:
    try:
        rules.apply(sheet, rules.SetCondition(condition=state, active=False), random.Random(0))
    except rules.Refused:
        return False
    return True


def test_a_state_put_until_the_end_of_the_conflict_is_noted_without_a_duration() -> None:
    """« jusqu'à la fin du Conflit » has no duration yet goes the long way: its timer is noted."""
    sheet = rules.demo_sheet("severite")
    action = rules.SetCondition(condition="inconscient", until_conflict_end=True)
    out = rules.apply(sheet, action, random.Random(1))
    assert [t.ends_at for t in out.sheet.condition_timers] == [None]


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_taking_off_a_state_that_is_not_there_forgets_its_timer(system_id: str) -> None:
    """A timer left for a state no longer on the sheet (an older file, an edit): taking the state off says it
    was not there and forgets the timer, even though the system's handler changes nothing."""
    sheet = rules.demo_sheet(system_id)
    state = next(c for c in _settable(sheet) if c not in sheet.conditions and _off_is_allowed(sheet, c))
    timer = ConditionTimer(condition=state, ends_at=sheet.clock + 600, unit="minute", label="10 minutes")
    stale = rules.evolve(sheet, condition_timers=(timer,))
    out = rules.apply(stale, rules.SetCondition(condition=state, active=False), random.Random(1))
    assert out.sheet.condition_timers == ()
    assert len(out.log) == 1 and "n'était pas en place" in out.log[0]


def test_the_outcome_holds_the_rolls_and_events_of_the_action(monkeypatch: pytest.MonkeyPatch) -> None:
    """What a handler rolls and notes reaches the outcome, in order, as tuples (``Context.finish``'s last step,
    done by ``apply``)."""

    def noting(sheet: Any, action: Any, ctx: Context) -> Any:
        ctx.event("critical")
        first = ctx.dice(1, 6, "Test")
        ctx.event("died")
        return rules.evolve(sheet, current=first.total + ctx.amount("2d4", "Dégâts").total)

    monkeypatch.setitem(rules.system("douaratil").handlers, rules.Damage, noting)
    out = rules.apply(rules.demo_sheet("douaratil"), rules.Damage(amount=1), random.Random(2))
    assert out.events == ("critical", "died")
    assert [r.expression for r in out.rolls] == ["1d6", "2d4"]
    assert out.sheet.current == sum(r.total for r in out.rolls)
    assert type(out.rolls) is tuple and type(out.events) is tuple
