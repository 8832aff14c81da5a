"""Segments (seed 002): what the clock does — the dying character's try once per turn, timed harm counted
from when it begins, the GM table's turns (``StartTurn`` / ``EndRound``). Each test quotes its passage."""

from __future__ import annotations

import random

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import rules

TURN = 10
HOUR = 3600


def sheet(**fields: object) -> rules.SegmentsSheet:
    base: dict[str, object] = {"name": "Brune", "base_maximum": 20, "current": 20, "constitution": 12}
    base.update(fields)
    return rules.new_sheet("segments", **base)


def run(s: object, action: rules.Action, seed: int | None = None) -> rules.Outcome:
    return rules.apply(s, action, rng=random.Random(seed) if seed is not None else None)


def text(outcome: rules.Outcome) -> str:
    return "\n".join(outcome.log)


def tries(outcome: rules.Outcome) -> int:
    return sum(line.startswith("Vigueur pour se stabiliser sans aide") for line in outcome.log)


# --- « une fois par tour » (S5) ---------------------------------------------------------------------------


def test_a_character_who_falls_in_the_segment_of_its_window_gets_that_turns_try() -> None:
    """« Il peut tenter un jet de Vigueur difficulté 20, une fois par tour, pour se stabiliser seul. » — the turn
    of the fall included: CON 10, fallen to −1 in the segment where its window opens, dies 9 segments later."""
    fallen = rules.apply(
        rules.new_sheet("segments", current=5, base_maximum=20, constitution=10), rules.Damage(amount=6)
    ).sheet
    assert (fallen.current, fallen.clock) == (-1, 0)
    out = rules.apply(fallen, rules.AdvanceTime(unit="turn"), rng=random.Random(1))
    assert len(out.rolls) == 1 and out.rolls[0].expression == "1d20"
    assert tries(out) == 1
    # Its try comes at once, before any point is lost: a success keeps it at −1.
    saved = run(fallen, rules.AdvanceTime(unit="turn", rolls=(20,)))
    assert (saved.sheet.current, saved.sheet.stabilised, saved.sheet.clock) == (-1, True, TURN)
    lost = run(fallen, rules.AdvanceTime(unit="turn", rolls=(19,)))
    assert (lost.sheet.current, lost.sheet.dead) == (-10, True)
    assert tries(lost) == 1


def test_a_character_who_falls_after_its_window_tries_at_once() -> None:
    """« Il peut tenter un jet de Vigueur difficulté 20, une fois par tour » : fallen at segment 6 when its
    window opened at segment 1, the try of this turn comes right away, the next one when its window opens."""
    s = rules.evolve(sheet(current=-1, initiative_segment=1), clock=5)
    out = run(s, rules.AdvanceTime(unit="turn", rolls=(2, 3)))
    assert tries(out) == 2
    assert "la tentative de ce tour vient tout de suite" in text(out)
    # Tried at clock 5 (no point lost yet) and 10 (5 lost); 10 segments in all: −11.
    assert (out.sheet.current, out.sheet.self_stabilise_turn, out.sheet.clock) == (-11, 1, 15)
    ok = run(s, rules.AdvanceTime(unit="turn", rolls=(20,)))
    assert (ok.sheet.current, ok.sheet.stabilised) == (-1, True)


def test_a_window_pushed_past_the_last_segment_still_gets_its_try() -> None:
    """« | Vacillant | le troisième degré : −3 à tous les jets, et le tour commence un segment plus tard | » ;
    « une fois par tour » : Lenteur and Vacillant push a segment-9 window past segment 10; the dying character
    still tries once each turn, at the last segment."""
    s = sheet(current=-1, constitution=30, initiative_segment=9, conditions=("lenteur",), fatigue=3)
    assert rules.derive(s).turn_start == 11
    out = run(s, rules.AdvanceTime(unit="turn", count=2, rolls=(1, 1)))
    assert tries(out) == 2
    assert text(out).count("Sa fenêtre s'ouvre (segment 10)") == 2
    # Tried at clock 9 and 19, after the loss of those segments; alive at −21 (dies at −30).
    assert (out.sheet.current, out.sheet.dead, out.sheet.self_stabilise_turn) == (-21, False, 1)


def test_the_button_and_the_clock_share_the_once_per_turn() -> None:
    """« une fois par tour » : a try made with the button in this turn is this turn's try; the clock brings the
    next one at the opening of its window in the next turn."""
    s = sheet(current=-1, constitution=18, initiative_segment=4)
    tried = run(s, rules.Stabilise(method="self", rolls=(2,))).sheet
    assert tried.self_stabilise_turn == 0
    out = run(tried, rules.AdvanceTime(unit="turn", count=2, rolls=(4,)))
    assert tries(out) == 1 and [r.total for r in out.rolls] == [4]
    assert out.sheet.self_stabilise_turn == 1


def test_no_automatic_try_when_the_table_says_so(tmp_path: object) -> None:
    """« Il peut tenter un jet de Vigueur difficulté 20 » : the automatic try is a reading (S5), switched off in a
    GM's copy of the table; then only the button tries."""
    data = rules.ruleset("segments").model_dump()
    data["dying"]["auto_self_stabilise"] = False
    table = rules.SegmentsRules.model_validate(data)
    out = rules.apply(sheet(current=-1), rules.AdvanceTime(unit="turn"), rules_table=table)
    assert out.rolls == () and out.sheet.current == -11


# --- Timed harm counts from when it begins (S13, S16, S4) ----------------------------------------------------


def test_fire_deals_its_die_after_each_whole_turn_spent_burning() -> None:
    """« | Feu | 1d6 par tour tant qu'on brûle » : set on fire at clock 9, one segment later nothing yet; the
    first 1d6 comes a whole turn after the flames caught (S13)."""
    burning = run(rules.evolve(sheet(), clock=9), rules.SetBurning()).sheet
    one = run(burning, rules.AdvanceTime(unit="segment"))
    assert (one.sheet.current, one.rolls) == (20, ())
    assert "le prochain dans 9 segments" in rules.derive(one.sheet).explain("ongoing_harm")
    turn = run(one.sheet, rules.AdvanceTime(unit="segment", count=9, rolls=(4,)))
    assert turn.sheet.current == 16 and len(turn.rolls) == 1 and turn.sheet.clock == 19
    # Catching fire again while burning does not restart the count.
    assert run(one.sheet, rules.SetBurning()).sheet.burning_for == 1


def test_surprise_counts_from_when_it_is_set() -> None:
    """« | Surpris | démarre plus loin dans sa fenêtre, du nombre de segments de surprise accordés aux agresseurs
    (chapitre 6.13) | » : surprised at clock 9, after its window of that turn, the surprise still delays its next
    window; it lasts one turn from when it was set (S16)."""
    s = run(rules.evolve(sheet(initiative_segment=3), clock=9), rules.SetSurprise(segments=2)).sheet
    later = run(s, rules.AdvanceTime(unit="segment")).sheet
    assert "surpris" in later.conditions and rules.derive(later).turn_start == 5
    started = run(later, rules.StartTurn())
    assert started.sheet.clock == 14  # segment 5 of turn 1, not segment 3
    ended = run(started.sheet, rules.EndRound())
    assert "surpris" not in ended.sheet.conditions and ended.sheet.clock == 20
    assert "la surprise est passée" in text(ended)
    assert rules.derive(ended.sheet).turn_start == 3


def test_a_surprise_over_lets_the_next_window_open_on_time() -> None:
    """« | Surpris | démarre plus loin dans sa fenêtre, du nombre de segments de surprise accordés aux agresseurs
    (chapitre 6.13) | » : surprised by 5 at clock 0, its window of turn 0 opens at segment 7; the surprise is over
    at clock 10, so in turn 1 the window opens at segment 2 again, and so does the dying character's try."""
    s = run(sheet(current=-1, constitution=30, initiative_segment=2), rules.SetSurprise(segments=5)).sheet
    first = run(s, rules.AdvanceTime(unit="segment", count=7, rolls=(1,)))
    assert first.sheet.self_stabilise_turn == 0 and first.sheet.current == -8
    second = run(first.sheet, rules.AdvanceTime(unit="turn", rolls=(20,)))
    # Tried at clock 11 (segment 2 of turn 1), after 4 more segments lost.
    assert (second.sheet.current, second.sheet.stabilised) == (-12, True)
    assert "Sa fenêtre s'ouvre (segment 2)" in text(second)


def test_nonlethal_fades_an_hour_after_it_was_taken() -> None:
    """« Les dégâts non létaux sont comptés à part » : they fade by 1 per level per hour (S4), hours counted from
    the first point taken, not from the clock's hours."""
    hit = run(rules.evolve(sheet(), clock=HOUR - 1), rules.Damage(amount=5, nonlethal=True)).sheet
    one = run(hit, rules.AdvanceTime(unit="segment")).sheet
    assert (one.nonlethal, one.nonlethal_for) == (5, 1)
    assert run(hit, rules.AdvanceTime(unit="hour")).sheet.nonlethal == 4
    # Two half-hours are an hour.
    half = run(hit, rules.AdvanceTime(unit="minute", count=30)).sheet
    assert run(half, rules.AdvanceTime(unit="minute", count=30)).sheet.nonlethal == 4
    gone = run(hit, rules.AdvanceTime(unit="hour", count=5)).sheet
    assert (gone.nonlethal, gone.nonlethal_for) == (0, 0)


def test_the_journal_tells_the_hour_a_knocked_out_character_wakes_up() -> None:
    """« | Inconscient | dégâts non létaux supérieurs aux points de vie | » : 9 nonlethal against 6 PV, fading by 1
    an hour (S4): awake after 3 hours, and the journal says so at that hour, not at the end of the rest."""
    s = sheet(current=6, nonlethal=9, level=1)
    out = run(s, rules.AdvanceTime(unit="hour", count=5))
    assert out.log[1:4] == (
        "Dégâts non létaux qui s'effacent avec le temps : 9 → 6.",
        "Brune : Inconscient → Blessé (6 PV sur 20 : la moitié ou moins).",
        "Dégâts non létaux qui s'effacent avec le temps : 6 → 4.",
    )
    assert out.sheet.nonlethal == 4


def test_the_capped_fatigue_is_told_once() -> None:
    """« | Vacillant | le troisième degré : −3 à tous les jets, et le tour commence un segment plus tard | » : no
    fourth degree (S14); two days without food, water or sleep say it once, not for every period."""
    s = sheet(fatigue=3)
    for need in ("food", "water", "sleep"):
        s = run(s, rules.SetPrivation(need=need)).sheet  # type: ignore[arg-type]
    out = run(s, rules.AdvanceTime(unit="hour", count=48))
    assert text(out).count("La fatigue ne dépasse pas le degré 3") == 1
    assert "Fatigue inchangée" not in text(out)
    assert out.sheet.fatigue == 3


# --- The GM table's turns: StartTurn / EndRound --------------------------------------------------------------


def test_segments_rounds_are_turns() -> None:
    info = rules.describe("segments")
    assert info.round_unit == "turn"
    assert rules.StartTurn in info.actions and rules.EndRound in info.actions


def test_start_turn_goes_to_the_window_and_brings_the_try() -> None:
    """« Il peut tenter un jet de Vigueur difficulté 20, une fois par tour » : the start of a dying character's
    turn is the opening of its window (segment 4); the segments before it are lost first."""
    s = sheet(current=-1, constitution=18, initiative_segment=4)
    started = run(s, rules.StartTurn(rolls=(20,)))
    assert (started.sheet.clock, started.sheet.current, started.sheet.stabilised) == (3, -4, True)
    assert "Début du tour de Brune (segment 4 sur 10)." in started.log
    at_once = run(sheet(initiative_segment=1), rules.StartTurn())
    assert at_once.log == ("Début du tour de Brune (segment 1 sur 10).",) and at_once.sheet.clock == 0
    ended = run(started.sheet, rules.EndRound())
    assert (ended.sheet.clock, ended.sheet.current) == (TURN, -4)
    assert ended.rolls == ()


def test_start_turn_after_the_window_opened_stays_put() -> None:
    """« une fois par tour » : a GM who starts a turn whose window already opened gets this turn's try now."""
    s = rules.evolve(sheet(current=-1, initiative_segment=2), clock=6)
    out = run(s, rules.StartTurn(rolls=(3,)))
    assert out.sheet.clock == 6 and tries(out) == 1
    assert "sa fenêtre de ce tour s'est déjà ouverte" in text(out)
    with pytest.raises(rules.Refused, match="Une seule tentative"):
        run(out.sheet, rules.Stabilise(method="self", rolls=(20,)))


CONDITIONS = [c for c in rules.ruleset("segments").conditions if c not in rules.ruleset("segments").fatigue.levels]


@st.composite
def fights(draw: st.DrawFn) -> rules.SegmentsSheet:
    """Sheets in a fight, at the start of a turn: dying, stabilised, burning, surprised, without air, exposed."""
    con = draw(st.integers(1, 20))
    current = draw(st.integers(-con + 1, 20))
    s = rules.new_sheet(
        "segments",
        name="Essai",
        base_maximum=20,
        current=current,
        constitution=con,
        level=draw(st.integers(1, 5)),
        nonlethal=draw(st.sampled_from([0, 0, 3, 25])),
        stabilised=current < 0 and draw(st.booleans()),
        initiative_segment=draw(st.integers(1, 12)),
        fatigue=draw(st.integers(0, 3)),
        conditions=draw(st.lists(st.sampled_from(CONDITIONS), max_size=3)),
        energy_resistances=draw(st.sampled_from([(), ("feu 2",)])),
        armour=draw(st.sampled_from(["", "legere"])),
    )
    turn = draw(st.integers(0, 50))
    s = rules.evolve(s, clock=turn * TURN)
    if draw(st.booleans()):
        s = rules.evolve(s, burning=True, burning_for=draw(st.integers(0, turn * TURN)))
    if current < 0 and draw(st.booleans()):
        s = rules.evolve(s, self_stabilise_turn=turn - draw(st.integers(0, min(turn, 1))))
    if draw(st.booleans()):
        s = rules.evolve(s, suffocating_for=draw(st.integers(0, turn * TURN)))
    if "surpris" in s.conditions:
        s = rules.evolve(
            s, surprise_segments=draw(st.integers(1, 4)), surprised_for=draw(st.integers(0, min(9, s.clock)))
        )
    if draw(st.booleans()):
        s = rules.evolve(s, exposure=draw(st.sampled_from(["froid", "chaleur"])))
    return rules.sheet_from_json(rules.sheet_to_json(s))


@settings(max_examples=150, deadline=None)
@given(start=fights(), seed=st.integers(0, 2**32 - 1))
@example(  # the fire kills a surprised creature before its surprise ends: its counter ends all the same
    start=rules.new_sheet(
        "segments",
        name="Essai",
        constitution=1,
        initiative_segment=1,
        current=0,
        base_maximum=20,
        conditions=["surpris"],
        surprise_segments=1,
        burning=True,
    ),
    seed=0,
)
def test_start_turn_then_end_round_is_one_turn(start: rules.SegmentsSheet, seed: int) -> None:
    """« une fois par tour » : ``StartTurn`` then ``EndRound`` apply the same rules as one ``AdvanceTime`` of a
    turn, each once, with the same dice: the same sheet."""
    whole = rules.apply(start, rules.AdvanceTime(unit="turn"), rng=random.Random(seed))
    rng = random.Random(seed)
    started = rules.apply(start, rules.StartTurn(), rng=rng)
    ended = rules.apply(started.sheet, rules.EndRound(), rng=rng)
    assert ended.sheet == whole.sheet
    assert [r.total for r in started.rolls + ended.rolls] == [r.total for r in whole.rolls]
