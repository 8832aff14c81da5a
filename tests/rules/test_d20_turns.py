"""d20 on the GM table: ``StartTurn`` (« Tour suivant ») and ``EndRound`` (« Round suivant »).

Contract (COMMON): ``StartTurn`` is what the rules make happen at the start of this creature's turn; then
``EndRound`` the rest of one round for it; together, the same rules as one ``AdvanceTime(unit="round")``,
each once. docs/rules-notes.md T29 says where each d20 rule falls.
"""

from __future__ import annotations

import random

from hypothesis import example, given
from hypothesis import strategies as st

import rules
from tests.rules.test_d20_properties import actions, starts

ROUND = 6


def run(s: rules.D20Sheet, action: rules.Action) -> rules.Outcome:
    return rules.apply(s, action)


def dying(current: int) -> rules.D20Sheet:
    s = rules.new_sheet("d20", name="Brenna", level=3, base_maximum=30, current=0)
    return run(s, rules.Damage(amount=-current)).sheet


def test_the_dying_roll_comes_at_the_turn_from_the_round_after_the_fall() -> None:
    """« Lors de chacun de ses tours de jeu, un personnage mourant doit lancer 1d100 pour savoir s'il devient
    stable ou s'il s'enfonce. Le premier de ces jets a lieu le round suivant sa chute à –1 point de vie ou
    moins. » « Un personnage mourant perd 1 point de vie chaque round. »"""
    s = dying(-3)  # hit before its turn in this round
    turn = run(s, rules.StartTurn())
    assert turn.sheet == s and not turn.rolls
    assert turn.log == ("Début du tour : pas de jet du mourant ce round-ci (le prochain dans 1 round).",)
    end = run(turn.sheet, rules.EndRound())
    assert (end.sheet.current, end.sheet.clock, end.rolls) == (-3, ROUND, ())
    # The round after the fall: the roll comes at its turn, and the clock stays until the round ends.
    turn = run(end.sheet, rules.StartTurn(rolls=(40,)))
    assert (turn.sheet.current, turn.sheet.clock) == (-4, ROUND)
    assert turn.log[0] == "Début du tour : 1d100 = 40 (valeur donnée) > 10 — s'enfonce."
    end = run(turn.sheet, rules.EndRound())
    assert (end.sheet.current, end.sheet.clock, end.rolls) == (-4, 2 * ROUND, ())
    # One roll a round: a second StartTurn in the same round rolls nothing.
    again = run(turn.sheet, rules.StartTurn())
    assert not again.rolls and again.sheet.current == -4
    # Stabilised at its turn: no more loss.
    turn = run(end.sheet, rules.StartTurn(rolls=(7,)))
    assert turn.sheet.recovery == "alone" and "stabilised" in turn.events
    assert rules.derive(turn.sheet).state == "stabilise"


def test_end_round_makes_the_roll_a_skipped_turn_did_not() -> None:
    """« Un personnage mourant perd 1 point de vie chaque round. Cela continue tant qu'il n'est pas
    stabilisé. » — a round passed without its turn (« Round suivant » alone) still brings its roll."""
    s = run(dying(-3), rules.EndRound()).sheet
    out = run(s, rules.EndRound(rolls=(50,)))
    assert (out.sheet.current, out.sheet.clock) == (-4, 2 * ROUND)
    assert "Round 1 : 1d100 = 50 (valeur donnée) > 10 — s'enfonce." in out.log


def test_hourly_rules_fall_in_the_round_that_reaches_the_hour() -> None:
    """« Les dégâts non-létaux disparaissent au rythme de 1 point par heure et par niveau global. »"""
    s = rules.new_sheet("d20", level=2, base_maximum=20, nonlethal=5)
    s = run(s, rules.AdvanceTime(unit="round", count=599)).sheet
    assert s.nonlethal == 5
    assert run(s, rules.StartTurn()).sheet.nonlethal == 5
    assert run(s, rules.EndRound()).sheet.nonlethal == 3


def test_the_dead_and_the_healthy_have_nothing_at_their_turn() -> None:
    healthy = rules.new_sheet("d20", base_maximum=10)
    assert run(healthy, rules.StartTurn()) == rules.Outcome(healthy, ())
    corpse = run(healthy, rules.Damage(amount=20)).sheet
    assert run(corpse, rules.StartTurn()) == rules.Outcome(corpse, ())


@given(starts, st.lists(actions, max_size=12), st.integers(0, 2**32), st.integers(0, 2**32))
@example(
    start=rules.new_sheet("d20", name="Essai", level=1, base_maximum=10, constitution=10, nonlethal=3),
    sequence=[rules.Damage(amount=12), rules.AdvanceTime(unit="round")],
    seed=1,
    dice=3,
)
def test_start_turn_then_end_round_is_one_round(
    start: rules.D20Sheet, sequence: list[rules.Action], seed: int, dice: int
) -> None:
    """COMMON's contract: “StartTurn” then “EndRound” = one “AdvanceTime(unit=\"round\")”, each rule once,
    with the same dice — whatever the sheet went through before."""
    rng = random.Random(seed)
    sheet = start
    for action in sequence:
        try:
            sheet = rules.apply(sheet, action, rng=rng).sheet
        except rules.Refused:
            continue
    one = rules.apply(sheet, rules.AdvanceTime(unit="round"), rng=random.Random(dice))
    pair_rng = random.Random(dice)
    turn = rules.apply(sheet, rules.StartTurn(), rng=pair_rng)
    end = rules.apply(turn.sheet, rules.EndRound(), rng=pair_rng)
    assert end.sheet == one.sheet
    assert [r.total for r in (*turn.rolls, *end.rolls)] == [r.total for r in one.rolls]
    assert set(end.events) | set(turn.events) == set(one.events)
    assert end.sheet.clock == sheet.clock + ROUND
