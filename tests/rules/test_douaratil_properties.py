"""Douaratil invariants over thousands of random action sequences (hypothesis)."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

import rules
from tests.rules.helpers import apply_checked, story

CONDITIONS = [c.id for c in rules.describe("douaratil").conditions]
WOUNDS = [w.id for w in rules.describe("douaratil").wound_types]
ABILITIES = ["strength", "dexterity", "constitution", "intelligence", "wisdom", "charisma"]

# Amounts as a user gives them: numbers, typed text, dice, and the extremes the bound holds.
TYPED = ["7", " 12 ", "2d6+3", "1d4", "3d6", "6d6", "0", "100000", "1d1000000", "1d6*1000", "1d4-3"]
amounts = st.one_of(st.integers(0, 40), st.sampled_from(TYPED))
wound_ids = st.integers(1, 4)

# Edits of stored fields, valid or not (a refused edit must change nothing).
EDIT_VALUES: dict[str, st.SearchStrategy[object]] = {
    "base_maximum": st.integers(0, 40),
    "current": st.integers(0, 40),
    "temporary": st.integers(0, 30),
    "exhaustion": st.integers(0, 8),
    "constitution": st.integers(0, 20),
    "level": st.integers(1, 12),
    "critical_threshold": st.none() | st.integers(0, 20),
    "dead": st.booleans(),
    "stabilised": st.booleans(),
    "dies_at_zero": st.booleans(),
    "dies_after_rounds": st.booleans(),
    "death_failures": st.integers(0, 4),
    "death_successes": st.integers(0, 3),
    "unconscious_rounds": st.integers(0, 6),
    "action_dice_spent": st.integers(0, 12),
    "constitution_priority": st.booleans(),
    "conditions": st.lists(st.sampled_from(CONDITIONS), max_size=3).map(tuple),
    "path": st.sampled_from(["", "magie", "armes", "voleur"]),
    "magic": st.builds(lambda c, m: {"current": c, "base_maximum": m}, st.integers(0, 8), st.integers(0, 8)),
    "clock": st.integers(0, 10**6),
}
edits = st.lists(st.sampled_from(sorted(EDIT_VALUES)), min_size=1, max_size=3, unique=True).flatmap(
    lambda keys: st.fixed_dictionaries({k: EDIT_VALUES[k] for k in keys})
)

actions = st.one_of(
    st.builds(rules.Damage, amount=st.integers(5, 30)),
    st.builds(rules.Damage, amount=amounts, critical=st.booleans(), adjacent=st.booleans(), hits=st.integers(1, 3)),
    st.builds(rules.Heal, amount=amounts),
    st.builds(rules.GainTemporary, amount=amounts, replace=st.booleans()),
    st.builds(rules.LoseTemporary),
    st.builds(rules.SetCondition, condition=st.sampled_from(CONDITIONS), active=st.booleans()),
    st.builds(rules.ClearConditions, include=st.lists(st.sampled_from(["repousse", "surpris"])).map(tuple)),
    st.builds(rules.Stabilise, method=st.sampled_from(["first_aid", "magic"]), modifier=st.integers(-2, 6)),
    st.builds(rules.ShortRest, hours=st.integers(1, 3), dice=st.integers(0, 2)),
    st.builds(rules.SpendActionDie),
    st.builds(rules.LongRest, hours=st.integers(8, 10), interrupted=st.booleans(), ate_and_drank=st.booleans()),
    st.builds(rules.AdvanceTime, unit=st.sampled_from(["round", "minute", "hour", "day"]), count=st.integers(1, 12)),
    st.builds(rules.StartTurn),
    st.builds(rules.EndRound),
    st.builds(rules.DeathSave),
    st.builds(rules.WakeSave),
    st.builds(rules.SetExhaustion, level=st.integers(0, 6)),
    st.builds(rules.AddExhaustion, levels=st.integers(-3, 3)),
    st.builds(
        rules.AddWound,
        wound_type=st.sampled_from(WOUNDS),
        severity=st.sampled_from(["minor", "major"]),
        bleeding=st.booleans(),
    ),
    st.builds(rules.WoundRisk, wound_id=wound_ids),
    st.builds(rules.SetWoundBleeding, wound_id=wound_ids, bleeding=st.booleans()),
    st.builds(rules.HealWound, wound_id=wound_ids, scar=st.booleans()),
    st.builds(rules.RemoveWound, wound_id=wound_ids),
    st.builds(rules.WillTest, wound_id=wound_ids, bonus=st.integers(-3, 3)),
    st.builds(
        rules.AbilityCheck,
        ability=st.sampled_from(ABILITIES),
        dd=st.integers(5, 30),
        bonus=st.integers(-3, 3),
        save=st.booleans(),
    ),
    st.builds(
        rules.HeroicSurvival,
        action_points_lost=st.integers(0, 8),
        magic_lost=st.integers(0, 3),
        faith_lost=st.integers(0, 3),
        honour_lost=st.integers(0, 3),
        xp_minimum=st.integers(0, 500),
    ),
    st.builds(rules.Edit, changes=edits),
)

starts = st.builds(
    lambda level, maximum, con, npc, reprieve, xp, low: rules.new_sheet(
        "douaratil",
        name="Essai",
        level=level,
        base_maximum=maximum,
        **({} if low is None else {"current": low}),
        constitution=con,
        is_npc=npc,
        dies_at_zero=npc,
        dies_after_rounds=npc and reprieve,
        xp=xp,
        magic={"current": 3, "base_maximum": 6},
        sanity={"current": 5, "base_maximum": 8},
    ),
    st.integers(1, 12),
    st.integers(1, 25),
    st.integers(3, 18),
    st.booleans(),
    st.booleans(),
    st.integers(0, 1000),
    st.sampled_from([None, None, 0, 1]),  # full, or dying, or one hit away
)


def _step(sheet: rules.DouaratilSheet, action: rules.Action, rng: random.Random) -> rules.DouaratilSheet:
    return _try(sheet, action, rng)[0]


def _try(sheet: rules.DouaratilSheet, action: rules.Action, rng: random.Random) -> tuple[rules.DouaratilSheet, bool]:
    """``action`` applied with the invariants checked, and whether the rules accepted it."""
    out = apply_checked(sheet, action, rng)
    if out is None:
        return sheet, False
    new: rules.DouaratilSheet = out.sheet
    d = rules.derive(new)
    # Current never above the effective maximum, never below 0.
    assert 0 <= new.current <= d.maximum, (new.current, d.maximum, action)
    for pool in ("magic", "faith", "honour", "sanity"):
        assert getattr(new, pool).current <= getattr(d, f"{pool}_maximum")
    # Temporary points are never the sum of two grants.
    if isinstance(action, rules.GainTemporary):
        granted = action.amount if isinstance(action.amount, int) else out.rolls[0].total if out.rolls else None
        if granted is not None:
            assert new.temporary in (sheet.temporary, granted)
        if sheet.temporary and not action.replace:
            assert new.temporary == sheet.temporary
    elif not isinstance(action, rules.Edit):
        assert new.temporary <= sheet.temporary
    # The dead regain nothing (but the story may save a hero, and an edit corrects the sheet).
    if sheet.dead and not isinstance(action, (rules.Edit, rules.HeroicSurvival)):
        assert new.dead
        assert new.current <= sheet.current
    # Every sheet an action leaves is one the rules accept, and can be saved and read back.
    assert rules.sheet_problems(new) == [], (action, rules.sheet_problems(new))
    # Every journal line is text; every derived value explains itself.
    assert all(isinstance(line, str) and line for line in out.log)
    for name in d:
        assert isinstance(d.explain(name), str)
    return new, True


def test_no_sequence_leaves_a_sheet_that_cannot_be_read_back() -> None:
    """Issue 13's proof: whatever is done to a sheet (typed amounts at the bound, rolled ones beyond it, edits
    valid or not, every action), ``sheet_from_json(sheet_to_json(sheet))`` gives it back; and most actions
    apply, so the proof is not a run of refusals."""
    tally = {"applied": 0, "refused": 0}

    @given(starts, st.lists(actions, min_size=1, max_size=25), st.integers(0, 2**32))
    def run(start: rules.DouaratilSheet, sequence: list[rules.Action], seed: int) -> None:
        rng = random.Random(seed)
        sheet = start
        for action in sequence:
            sheet, applied = _try(sheet, action, rng)
            tally["applied" if applied else "refused"] += 1
            assert rules.sheet_from_json(rules.sheet_to_json(sheet)) == sheet

    run()
    applied, refused = tally["applied"], tally["refused"]
    # The share applied moves a lot between runs (whole sequences on a dead or spent sheet are refused
    # together): 0.34 to 0.74 over 52 seeds of the « quick » profile (30 examples), ~0.6 at 200. A run of
    # refusals stays far below a quarter; 0.4 failed once in 40 seeds by chance.
    assert applied >= 0.25 * (applied + refused), tally


@given(starts, st.lists(actions, max_size=10), st.integers(0, 2**32))
def test_same_seed_same_story(start: rules.DouaratilSheet, sequence: list[rules.Action], seed: int) -> None:
    """Every die comes from the generator passed: the same seed replays the same story."""
    assert story(start, sequence, seed) == story(start, sequence, seed)


dying_actions = st.one_of(
    st.builds(rules.DeathSave),
    st.builds(rules.Stabilise, method=st.sampled_from(["first_aid", "magic"]), modifier=st.integers(-2, 6)),
    st.builds(rules.Damage, amount=st.integers(0, 6)),
    st.builds(rules.Heal, amount=st.integers(0, 3)),
    st.builds(rules.GainTemporary, amount=st.integers(0, 5), replace=st.booleans()),
    st.builds(rules.AdvanceTime, unit=st.sampled_from(["round", "hour"]), count=st.integers(1, 3)),
    st.builds(rules.WakeSave),
)


@given(st.lists(dying_actions, max_size=30), st.integers(0, 2**32), st.integers(3, 18))
def test_dying_invariants(sequence: list[rules.Action], seed: int, con: int) -> None:
    """At 0 PA: counters stay below three; three failures mean death, three successes stabilisation."""
    rng = random.Random(seed)
    sheet = rules.new_sheet("douaratil", base_maximum=10, current=0, constitution=con)
    for action in sequence:
        sheet = _step(sheet, action, rng)
        assert (sheet.death_successes < 3 and sheet.death_failures < 3) or sheet.dead
        if sheet.stabilised:
            assert sheet.current == 0 and (sheet.death_successes, sheet.death_failures) == (0, 0)
        if sheet.current > 0:
            assert (sheet.death_successes, sheet.death_failures) == (0, 0)
        state = rules.derive(sheet).state
        if sheet.dead:
            assert state == "mort"
        elif sheet.current == 0:
            assert state in ("mourant", "stabilise")
