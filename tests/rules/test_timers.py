"""States put for a while end on their own as time passes, in every system (issue 10 item 23: « Conditions
with a duration (3 rounds, 1 heure, jusqu'à la fin du Conflit) that end on their own as time passes on
the sheet, shown counting down; the sheet's clock shown »). Pure: no Qt."""

from __future__ import annotations

import random

import pytest

import rules

# A state each system lets the user put by hand on its demo sheet (Sévérité: its only state without a
# length of its own).
PLAIN = {"douaratil": "aveugle", "d20": "sans_defense", "segments": "etourdi", "severite": "inconscient"}


def put(system: str, count: int = 3, unit: str | None = None) -> rules.Outcome:
    sheet = rules.demo_sheet(system)
    unit = unit or rules.describe(system).round_unit
    return rules.apply(sheet, rules.SetCondition(condition=PLAIN[system], duration=count, unit=unit), random.Random(1))


def test_the_clock_reads_as_a_date() -> None:
    assert rules.format_clock(0) == "jour 1, 00:00:00"
    assert rules.format_clock(6) == "jour 1, 00:00:06"
    assert rules.format_clock(86_400 + 3600 * 8 + 61) == "jour 2, 08:01:01"


@pytest.mark.parametrize("system", rules.SYSTEMS)
def test_a_state_put_for_three_rounds_ends_after_three_rounds(system: str) -> None:
    info = rules.describe(system)
    seconds = rules.ruleset(system).time_units[info.round_unit]
    out = put(system)
    sheet = out.sheet
    cid = PLAIN[system]
    assert cid in sheet.conditions
    (timer,) = sheet.condition_timers
    assert (timer.condition, timer.ends_at) == (cid, sheet.clock + 3 * seconds)
    assert any("fin à jour 1" in line for line in out.log)
    rng = random.Random(2)
    for _ in range(2):
        sheet = rules.apply(sheet, rules.AdvanceTime(unit=info.round_unit, count=1), rng).sheet
        assert cid in sheet.conditions, "still there before its time is up"
    last = rules.apply(sheet, rules.AdvanceTime(unit=info.round_unit, count=1), rng)
    assert cid not in last.sheet.conditions and last.sheet.condition_timers == ()
    ended = [line for line in last.log if "prend fin" in line]
    assert ended and rules.format_clock(timer.ends_at) in ended[0]


@pytest.mark.parametrize("system", rules.SYSTEMS)
def test_the_countdown_says_what_is_left_in_the_units_given(system: str) -> None:
    sheet = put(system, 2, "hour").sheet
    (countdown,) = [c for c in rules.countdowns(sheet) if c.condition == PLAIN[system]]
    assert countdown.text.startswith("encore 2 heures")
    later = rules.apply(sheet, rules.AdvanceTime(unit="minute", count=30), random.Random(1)).sheet
    (countdown,) = [c for c in rules.countdowns(later) if c.condition == PLAIN[system]]
    assert countdown.text.startswith("encore 2 heures") and countdown.left == 5400
    later = rules.apply(later, rules.AdvanceTime(unit="minute", count=31), random.Random(1)).sheet
    (countdown,) = [c for c in rules.countdowns(later) if c.condition == PLAIN[system]]
    assert countdown.text.startswith("encore 1 heure ")


def test_a_long_time_passing_ends_the_state_on_its_way() -> None:
    """“+8 heures” after “Aveuglé pour 3 rounds”: the state ends during the first part, journaled
    before the rest of the time passes."""
    sheet = put("douaratil").sheet
    out = rules.apply(sheet, rules.AdvanceTime(unit="hour", count=8), random.Random(1))
    assert "aveugle" not in out.sheet.conditions and out.sheet.clock == 8 * 3600
    ended = next(i for i, line in enumerate(out.log) if "prend fin" in line)
    assert ended < len(out.log) - 1


def test_a_rest_moves_the_clock_and_ends_the_state() -> None:
    sheet = put("douaratil", 1, "hour").sheet
    out = rules.apply(sheet, rules.LongRest(hours=8), random.Random(1))
    assert "aveugle" not in out.sheet.conditions
    assert any("Aveuglé prend fin" in line for line in out.log)


def test_taking_the_state_off_forgets_its_time() -> None:
    sheet = put("douaratil").sheet
    off = rules.apply(sheet, rules.SetCondition(condition="aveugle", active=False), random.Random(1)).sheet
    assert off.condition_timers == ()
    cleared = rules.apply(sheet, rules.ClearConditions(), random.Random(1)).sheet
    assert cleared.condition_timers == ()


def test_the_longer_time_is_kept() -> None:
    sheet = put("douaratil", 5).sheet
    out = rules.apply(sheet, rules.SetCondition(condition="aveugle", duration=2, unit="round"), random.Random(1))
    assert out.sheet.condition_timers[0].ends_at == 30
    longer = rules.apply(sheet, rules.SetCondition(condition="aveugle", duration=2, unit="minute"), random.Random(1))
    assert longer.sheet.condition_timers[0].ends_at == 120


def test_until_the_end_of_the_conflict() -> None:
    sheet = rules.demo_sheet("severite")
    out = rules.apply(sheet, rules.SetCondition(condition="inconscient", until_conflict_end=True), random.Random(1))
    sheet = out.sheet
    assert sheet.condition_timers[0].ends_at is None
    assert sheet.condition_timers[0].label == "jusqu'à la fin du Conflit"
    assert any("fin du Conflit" in c.text for c in rules.countdowns(sheet))
    sheet = rules.apply(sheet, rules.AdvanceTime(unit="hour", count=5), random.Random(1)).sheet
    assert "inconscient" in sheet.conditions, "hours do not end a Conflict"
    over = rules.apply(sheet, rules.EndConflict(), random.Random(1))
    assert "inconscient" not in over.sheet.conditions and over.sheet.condition_timers == ()


@pytest.mark.parametrize(
    ("action", "said"),
    [
        (rules.SetCondition(condition="aveugle", duration=3, unit="siècle"), "Unité de temps inconnue"),
        (rules.SetCondition(condition="aveugle", duration=3), "sans unité"),
        (rules.SetCondition(condition="aveugle", unit="round"), "sans durée"),
        (rules.SetCondition(condition="aveugle", until_conflict_end=True), "pas de fin de Conflit"),
        (rules.SetCondition(condition="aveugle", active=False, duration=2, unit="round"), "en posant"),
    ],
)
def test_a_duration_the_system_cannot_count_is_refused_in_french(action: rules.SetCondition, said: str) -> None:
    sheet = rules.demo_sheet("douaratil")
    with pytest.raises(rules.Refused) as exc:
        rules.apply(sheet, action, random.Random(1))
    assert said in exc.value.reason


def test_a_refused_duration_is_refused_before_anything_changes() -> None:
    with pytest.raises(rules.SheetError):
        rules.build_action(rules.SetCondition, condition="aveugle", duration=0, unit="round")


def test_an_older_file_without_timers_still_loads() -> None:
    data = rules.sheet_to_data(rules.demo_sheet("d20"))
    del data["condition_timers"]
    assert rules.sheet_from_data(data).condition_timers == ()


def test_timers_are_saved_and_read_back() -> None:
    sheet = put("segments").sheet
    again = rules.sheet_from_json(rules.sheet_to_json(sheet))
    assert again == sheet and again.condition_timers == sheet.condition_timers


def test_the_systems_own_countdowns_read_the_same() -> None:
    """Sévérité's states that last some ends of turn, and Douaratil's waking, in the same list."""
    severite = rules.demo_sheet("severite")
    turn_bound = next(
        (cid for cid, rule in rules.ruleset("severite").conditions.items() if rule.duration == "turns"), None
    )
    if turn_bound is not None:
        severite = rules.apply(severite, rules.SetCondition(condition=turn_bound), random.Random(1)).sheet
        texts = [c.text for c in rules.countdowns(severite) if c.condition == turn_bound]
        assert texts and texts[0].startswith("encore ")
    douaratil = rules.evolve(rules.demo_sheet("douaratil"), wake_in=2 * 3600)
    (wake,) = [c for c in rules.countdowns(douaratil) if c.condition is None]
    assert wake.text == "regagne des points dans 2 heures"


def test_apply_never_changes_the_sheet_it_is_given() -> None:
    sheet = put("douaratil").sheet
    before = sheet.model_dump()
    rules.apply(sheet, rules.AdvanceTime(unit="hour", count=1), random.Random(1))
    assert sheet.model_dump() == before


def test_each_state_ends_at_its_own_time_within_a_long_wait() -> None:
    """Two states put for 1 and 3 hours, then 8 hours pass: the time is cut at each end, so that each
    state is journaled ending at its own hour, then the rest of the time passes."""
    sheet = rules.demo_sheet("douaratil")
    for cid, hours in (("aveugle", 1), ("assourdi", 3)):
        put_ = rules.SetCondition(condition=cid, duration=hours, unit="hour")
        sheet = rules.apply(sheet, put_, random.Random(1)).sheet
    out = rules.apply(sheet, rules.AdvanceTime(unit="hour", count=8), random.Random(1))
    assert out.log == (
        "Le temps passe : 1 heure.",
        "Aveuglé prend fin : 1 heure écoulé(s) (jour 1, 01:00:00).",
        "État Aveuglé retiré.",
        "Le temps passe : 2 heures.",
        "Assourdi prend fin : 3 heures écoulé(s) (jour 1, 03:00:00).",
        "État Assourdi retiré.",
        "Le temps passe : 5 heures.",
    )
    assert out.sheet.clock == 8 * 3600 and out.sheet.condition_timers == ()
