"""The rules the GM table needs (rules/table.py): summaries, who fell, scaled bulk amounts, rolled maxima,
turns and rounds, for every system."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rules
from rules import table


@pytest.mark.parametrize("system_id", rules.SYSTEMS)
def test_summary_reads_the_derived_values_of_every_system(system_id: str) -> None:
    sheet = rules.demo_sheet(system_id)
    d = rules.derive(sheet)
    s = rules.summarise(sheet)
    info = rules.describe(system_id)
    assert (s.current, s.maximum, s.state) == (d.current, d.maximum, d.state)
    assert (s.state_label, s.colour) == (info.state(d.state).label, info.state(d.state).colour)
    assert s.temporary == d.temporary
    assert (s.nonlethal is None) == ("nonlethal" not in d)
    assert s.gauge == ("trauma" in info.features)
    labels = {c.id: c.label for c in info.conditions}
    assert s.conditions == tuple((c, labels.get(c, c)) for c in d.conditions)
    assert s.wounds == len(getattr(sheet, "wounds", ()))


def test_summary_names_the_gravest_wound_by_the_table_order() -> None:
    sheet = rules.new_sheet("douaratil", name="Brann", base_maximum=20, current=20)
    for wound_type, severity in (("plaie", "minor"), ("fracture", "major"), ("contusion", "minor")):
        sheet = rules.apply(sheet, rules.AddWound(wound_type=wound_type, severity=severity)).sheet
    s = rules.summarise(sheet)
    assert s.wounds == 3
    assert s.worst_wound == "Fracture majeure"


def test_summary_of_severite_wounds_uses_the_grades_and_the_body_part() -> None:
    s = rules.summarise(rules.demo_sheet("severite"))
    assert s.wounds == 2
    assert s.worst_wound == "Grave (bras gauche)"


def test_summary_of_d20_local_wounds_names_the_part() -> None:
    s = rules.summarise(rules.demo_sheet("d20"))
    assert (s.wounds, s.worst_wound) == (1, "Main droite")
    assert s.floor == -10 and s.nonlethal == 14


def test_a_system_without_wounds_counts_none() -> None:
    s = rules.summarise(rules.demo_sheet("segments"))
    assert (s.wounds, s.worst_wound, s.bleeding) == (0, "", False)


def test_categories_of_the_shared_state_ids() -> None:
    assert table.category("mort") == "dead"
    assert table.category("mourant") == "dying"
    for state in ("inconscient", "stabilise", "hors_de_combat"):
        assert table.category(state) == "down"
    for state in ("en_forme", "blesse", "chancelant", "sonne", "au_dela"):
        assert table.category(state) == "up"


@pytest.mark.parametrize("system_id", rules.SYSTEMS)
def test_every_state_of_every_system_has_a_category(system_id: str) -> None:
    """The categories name states by the glossary's ids: each system's death state is « mort »."""
    ids = {s.id for s in rules.describe(system_id).health_states}
    assert "mort" in ids
    assert {table.category(i) for i in ids} >= {"up", "dead"}


def test_state_change_says_who_fell_who_is_dying_who_died() -> None:
    assert table.state_change("en_forme", "inconscient") == table.StateChange(fell=True)
    assert table.state_change("en_forme", "mourant") == table.StateChange(dying=True)
    assert table.state_change("mourant", "mort") == table.StateChange(died=True)
    assert table.state_change("inconscient", "en_forme") == table.StateChange(rose=True)
    assert not table.state_change("en_forme", "blesse")
    assert not table.state_change("mort", "mort")


def test_a_douaratil_monster_at_0_is_dead() -> None:
    """« La plupart des Narrateurs font mourir les adversaires dès qu'ils atteignent 0 point d'action »"""
    wolf = rules.new_sheet("douaratil", name="Loup", is_npc=True, dies_at_zero=True, base_maximum=9, current=9)
    after = rules.apply(wolf, rules.Damage(amount=12), random.Random(1)).sheet
    s = rules.summarise(after)
    assert s.state == "mort" and s.category == "dead"
    assert table.state_change(rules.summarise(wolf).state, s.state).died


# --- scaled bulk amounts -------------------------------------------------------------------------


def test_factors_scale_a_known_amount() -> None:
    damage = rules.Damage(amount=7)
    assert table.scaled(damage, "full", "douaratil") == damage
    half = table.scaled(damage, "half", "douaratil")
    assert isinstance(half, rules.Damage) and half.amount == 3
    double = table.scaled(damage, "double", "douaratil")
    assert isinstance(double, rules.Damage) and double.amount == 14
    assert table.scaled(damage, "none", "douaratil") is None
    heal = table.scaled(rules.Heal(amount=5), "half", "segments")
    assert isinstance(heal, rules.Heal) and heal.amount == 2


@pytest.mark.parametrize("system_id", [s for s in rules.SYSTEMS if "save_halves" in rules.describe(s).features])
def test_half_damage_goes_to_the_system_s_own_save_rule(system_id: str) -> None:
    """A system whose rules halve a hit on a save does it itself (after that creature's reductions)."""
    half = table.scaled(rules.Damage(amount=9), "half", system_id)
    assert isinstance(half, rules.Damage)
    assert half.amount == 9 and half.save_halves


def test_a_negative_shared_total_is_left_to_each_creature_s_rules() -> None:
    """Sévérité: « Si le résultat est négatif, cela signifie que l'attaque n'a pas causé suffisamment de
    dommages pour créer une Blessure. »"""
    action = table.scaled(rules.Damage(amount=-2), "full", "severite")
    assert isinstance(action, rules.Damage) and action.amount == "(-2)"
    sev = rules.demo_sheet("severite")
    outcome = rules.apply(sev, action, random.Random(1))
    assert outcome.sheet.wounds == sev.wounds
    dou = rules.demo_sheet("douaratil")
    assert rules.apply(dou, action, random.Random(1)).sheet.current == dou.current


def test_a_rolled_total_is_held_to_what_a_sheet_stores() -> None:
    action = table.scaled(rules.Damage(amount=0), "double", "douaratil", total=90_000)
    assert isinstance(action, rules.Damage) and action.amount == 100_000
    action = table.scaled(rules.Heal(amount=1), "full", "d20", total=250_000)
    assert isinstance(action, rules.Heal) and action.amount == 100_000


def test_a_factor_needs_a_known_amount() -> None:
    with pytest.raises(rules.Refused, match="une fois pour tous"):
        table.scaled(rules.Damage(amount="2d6"), "half", "douaratil")
    assert table.scaled(rules.Damage(amount="2d6"), "full", "douaratil") == rules.Damage(amount="2d6")
    with pytest.raises(rules.Refused, match="Facteur inconnu"):
        table.scaled(rules.Damage(amount=3), "triple", "douaratil")


@given(st.integers(-100_000, 100_000), st.sampled_from(table.FACTORS), st.sampled_from(rules.SYSTEMS))
def test_scaled_amounts_stay_valid_actions(amount: int, factor: str, system_id: str) -> None:
    action = table.scaled(rules.Damage(amount=amount), factor, system_id)
    if factor == "none":
        assert action is None
        return
    assert isinstance(action, rules.Damage)
    # Rebuilding it from its fields validates it as the rules would.
    rebuilt = rules.build_action(rules.Damage, **action.model_dump(exclude={"kind"}))
    assert rebuilt == action
    if isinstance(action.amount, int):
        assert abs(action.amount) <= 100_000
        assert (action.amount >= 0) == (amount >= 0) or action.amount == 0


# --- rolled maxima -------------------------------------------------------------------------------


@pytest.mark.parametrize("system_id", [s for s in rules.SYSTEMS if table.has_rolled_maximum(s)])
def test_a_rolled_maximum_is_journaled_and_the_creature_starts_unhurt(system_id: str) -> None:
    sheet = rules.new_sheet(system_id, name="Loup")
    outcome = table.with_rolled_maximum(sheet, "2d8+4", random.Random(11))
    roll = outcome.rolls[0]
    assert 6 <= roll.total <= 20
    assert outcome.log[0] == f"Maximum tiré aux dés : {roll.detail}."
    assert outcome.sheet.base_maximum == roll.total
    d = rules.derive(outcome.sheet)
    assert d.current == d.maximum


def test_severite_has_no_maximum_to_roll() -> None:
    assert not table.has_rolled_maximum("severite")
    with pytest.raises(rules.Refused, match="pas de maximum"):
        table.with_rolled_maximum(rules.demo_sheet("severite"), "2d6", random.Random(1))


def test_a_rolled_maximum_below_1_is_refused() -> None:
    with pytest.raises(rules.Refused, match="au moins 1"):
        table.with_rolled_maximum(rules.new_sheet("douaratil"), "1d4-10", random.Random(1))
    with pytest.raises(rules.Refused):
        table.with_rolled_maximum(rules.new_sheet("douaratil"), "2d", random.Random(1))


# --- turns and rounds ----------------------------------------------------------------------------


@pytest.mark.parametrize("system_id", rules.SYSTEMS)
def test_turn_start_and_round_end_are_one_round_of_time(system_id: str) -> None:
    """Either the system splits a round (StartTurn then EndRound) or the round passes whole at its end."""
    start, end = table.turn_start(system_id), table.round_end(system_id)
    if table.has_turns(system_id):
        assert isinstance(start, rules.StartTurn) and isinstance(end, rules.EndRound)
    else:
        assert start is None
        assert end == rules.AdvanceTime(unit=rules.describe(system_id).round_unit)
    # Both are accepted by the rules on the demo sheet.
    sheet = rules.demo_sheet(system_id)
    if start is not None:
        sheet = rules.apply(sheet, start, random.Random(2)).sheet
    rules.apply(sheet, end, random.Random(2))


def test_a_dying_douaratil_npc_rolls_its_death_save_within_its_round() -> None:
    """« À chaque fois que vous commencez votre tour de jeu à 0 point d'action ou moins, vous devez faire
    un jet de sauvegarde spécial appelé jet de sauvegarde contre la mort. »"""
    npc = rules.new_sheet("douaratil", name="Brann", is_npc=True, base_maximum=12, current=0)
    assert rules.derive(npc).state == "mourant"
    log: list[str] = []
    start = table.turn_start("douaratil")
    if start is not None:
        outcome = rules.apply(npc, start, random.Random(4))
        npc, log = outcome.sheet, [*log, *outcome.log]
        assert any("contre la mort" in line for line in outcome.log)
    outcome = rules.apply(npc, table.round_end("douaratil"), random.Random(4))
    log += outcome.log
    assert sum("contre la mort" in line for line in log) >= 1


# --- the health state alone -----------------------------------------------------------------------


def _actions(system_id: str) -> st.SearchStrategy[rules.Action]:
    info = rules.describe(system_id)
    conditions = [c.id for c in info.conditions] or ["x"]
    units = [u.id for u in info.time_units]
    options = [
        st.builds(rules.Damage, amount=st.integers(0, 40)),
        st.builds(rules.Heal, amount=st.integers(0, 40)),
        st.builds(rules.SetCondition, condition=st.sampled_from(conditions), active=st.booleans()),
        st.builds(rules.AdvanceTime, unit=st.sampled_from(units), count=st.integers(1, 3)),
        st.just(rules.Stabilise()),
    ]
    if "nonlethal" in info.features:
        options.append(st.builds(rules.Damage, amount=st.integers(0, 30), nonlethal=st.just(True)))
    return st.one_of(options)


@pytest.mark.parametrize("system_id", rules.SYSTEMS)
def test_every_system_says_its_state_alone(system_id: str) -> None:
    """The table asks a thousand creatures their state after a bulk action: each system gives it alone."""
    assert rules.system(system_id).state is not None


@pytest.mark.parametrize("system_id", rules.SYSTEMS)
@given(data=st.data())
def test_the_state_alone_is_the_derived_state(system_id: str, data: st.DataObject) -> None:
    sheet = rules.demo_sheet(system_id)
    if system_id == "douaratil" and data.draw(st.booleans()):
        sheet = rules.apply(sheet, rules.Edit(changes={"dies_at_zero": True, "is_npc": True})).sheet
    rng = random.Random(data.draw(st.integers(0, 1000)))
    for action in data.draw(st.lists(_actions(system_id), max_size=12)):
        assert table.health_state(sheet) == rules.derive(sheet).state
        try:
            sheet = rules.apply(sheet, action, rng).sheet
        except rules.Refused:
            continue
    assert table.health_state(sheet) == rules.derive(sheet).state
