"""Douaratil round by round for the GM table: ``StartTurn`` then ``EndRound`` is one round of ``AdvanceTime``."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

import rules

ROUND = 6


def sheet(**fields: Any) -> Any:
    base: dict[str, Any] = {"name": "Brenna", "base_maximum": 20, "constitution": 10}
    base.update(fields)
    return rules.new_sheet("douaratil", **base)


def test_start_turn_rolls_the_death_save_and_keeps_the_clock() -> None:
    """« À chaque fois que vous commencez votre tour de jeu à 0 point d'action ou moins, vous devez faire un jet
    de sauvegarde spécial appelé jet de sauvegarde contre la mort. »"""
    dying = sheet(current=0, conditions=("inconscient",))
    out = rules.apply(dying, rules.StartTurn(rolls=(12,)))
    assert out.sheet.death_successes == 1 and out.sheet.clock == 0
    assert out.log == ("Jet contre la mort : 3d6 = 12 (valeur donnée) → succès (1/3 succès, 0/3 échecs).",)
    assert rules.apply(sheet(), rules.StartTurn()).log == ()


def test_end_round_bleeds_counts_down_and_moves_the_clock_one_round() -> None:
    """« risque d'ouverture de la plaie avec saignement (1d6/rd) » and « Chaque round, la personne inconsciente
    peut essayer de réussir le JS DD 16 de Constitution et se réveiller. »"""
    s = rules.apply(sheet(), rules.AddWound(wound_type="plaie", bleeding=True)).sheet
    s = rules.apply(s, rules.Damage(amount=11, rolls=(4, 2))).sheet  # massive: knocked out 2 rounds
    out = rules.apply(s, rules.EndRound(rolls=(9, 4)))  # wake save 9 fails, bleed 4
    assert out.sheet.clock == ROUND
    assert out.sheet.unconscious_rounds == 1 and out.sheet.current == 20 - 11 - 4
    assert out.log == (
        "JS de Constitution pour se réveiller : 3d6 = 9 (valeur donnée) +0 (CON) = 9 contre DD 16 → échec.",
        "Saignement (Plaie (mineure)) : 1d6 = 4 (valeur donnée).",
        "Brenna subit 4 dégâts : 9 → 5 PA.",
    )


def test_a_monsters_reprieve_ends_with_a_round() -> None:
    """« il peut la laisser agir librement pendant 1d6 rounds ou de toutes les façons la créature succombe à ses
    blessures. »"""
    orc = sheet(name="Orque", is_npc=True, dies_at_zero=True, dies_after_rounds=True)
    s = rules.apply(orc, rules.Damage(amount=20, rolls=(1,))).sheet
    assert s.death_in_rounds == 1
    assert rules.apply(s, rules.StartTurn()).sheet == s
    out = rules.apply(s, rules.EndRound())
    assert out.sheet.dead and "died" in out.events


states = st.fixed_dictionaries(
    {
        "current": st.integers(0, 12),
        "temporary": st.integers(0, 4),
        "bleeding": st.sampled_from([None, "plaie", "hemorragie"]),
        "knocked": st.integers(0, 4),
        "successes": st.integers(0, 2),
        "failures": st.integers(0, 2),
        "stabilised_hours": st.none() | st.integers(1, 6),
        "monster": st.sampled_from(["pc", "dies", "reprieve"]),
        "constitution": st.integers(3, 18),
        "exhaustion": st.integers(0, 6),
    }
)


def _state(d: dict[str, Any]) -> Any:
    fields: dict[str, Any] = {"base_maximum": 12, "current": d["current"], "temporary": d["temporary"]}
    fields["constitution"] = d["constitution"]
    fields["exhaustion"] = d["exhaustion"]
    fields["current"] = min(fields["current"], max(1, 12 - d["exhaustion"]))
    conditions = set()
    if d["knocked"]:
        fields["unconscious_rounds"] = d["knocked"]
        conditions.add("inconscient")
    if d["bleeding"]:
        fields["wounds"] = ({"id": 1, "type": d["bleeding"], "bleeding": True},)
    if fields["current"] == 0:
        if d["monster"] == "pc":
            conditions.add("inconscient")
            if d["stabilised_hours"]:
                fields.update(stabilised=True, wake_in=d["stabilised_hours"] * 3600)
            else:
                fields.update(death_successes=d["successes"], death_failures=d["failures"])
        else:
            fields.update(dies_at_zero=True, dies_after_rounds=True, death_in_rounds=1 + d["successes"])
    elif d["monster"] != "pc":
        fields.update(dies_at_zero=True, dies_after_rounds=d["monster"] == "reprieve")
    fields["conditions"] = tuple(conditions)
    return sheet(**fields)


@given(states, st.integers(0, 2**32))
def test_start_turn_then_end_round_is_one_round(state: dict[str, Any], seed: int) -> None:
    """The contract of the GM table: the same rules, each once, with the same dice."""
    s = _state(state)
    one = rules.apply(s, rules.AdvanceTime(unit="round"), rng=random.Random(seed))
    rng = random.Random(seed)
    started = rules.apply(s, rules.StartTurn(), rng=rng)
    ended = rules.apply(started.sheet, rules.EndRound(), rng=rng)
    assert ended.sheet == one.sheet
    told = [line for line in one.log if not line.startswith(("Le temps passe", "— Round"))]
    assert [*started.log, *ended.log] == told
    assert set(started.events) | set(ended.events) >= set(one.events)
