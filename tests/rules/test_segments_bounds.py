"""Segments sheets hold only what the rules can use: ids of the rule table, bounded numbers, fields that agree
with each other — the same checks when a file is read, on ``Edit`` and after every action."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import rules

MAX_CLOCK = 1_000 * 365 * 86_400
COUNTERS = [
    "clock",
    "surprised_for",
    "burning_for",
    "suffocating_for",
    "exposure_for",
    "hungry_for",
    "thirsty_for",
    "sleepless_for",
    "nonlethal_for",
    "self_stabilise_turn",
]


def data(**fields: Any) -> dict[str, Any]:
    return {**rules.sheet_to_data(rules.new_sheet("segments", name="Brune")), **fields}


def refused(**fields: Any) -> str:
    """The French reason a sheet with ``fields`` is refused when read from JSON."""
    with pytest.raises(rules.SheetError) as err:
        rules.sheet_from_json(json.dumps(data(**fields)))
    with pytest.raises(rules.SheetError):
        rules.sheet_from_data(data(**fields))
    return err.value.reason


# --- Ids against the rule table (issue 16, item 14) ---------------------------------------------------------


def test_an_unknown_condition_id_does_not_load() -> None:
    reason = refused(conditions=["ljnteur"])
    assert "« ljnteur » n'est pas un état connu" in reason and "Lenteur" in reason


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({"conditions": ["vacillant"]}, "se règle sur l'échelle de fatigue"),
        ({"armour": "plaques"}, "« plaques » n'est pas au choix"),
        ({"light": "nuit"}, "« nuit » n'est pas au choix"),
        ({"exposure": "pluie"}, "« pluie » n'est pas au choix"),
        ({"privations": ["air"]}, "« air » n'est pas une privation connue"),
        ({"damage_reductions": ["5/bois"]}, "« bois » n'est pas un type de dégâts connu"),
        ({"energy_resistances": ["poison 5"]}, "« poison » n'est pas une énergie connue"),
    ],
)
def test_every_id_is_checked_against_the_table(fields: dict[str, Any], expected: str) -> None:
    assert expected in refused(**fields)


def test_the_ids_come_from_the_table_given() -> None:
    """One check takes the table: a GM's table with a state « Lutteur » reads a sheet that has it."""
    table_data = rules.ruleset("segments").model_dump()
    table_data["conditions"]["lutteur"] = {**table_data["conditions"]["agrippe"], "label": "Lutteur"}
    table = rules.SegmentsRules.model_validate(table_data)
    sheet = rules.SegmentsSheet.model_validate(data(conditions=["lutteur"]), context={"rules_table": table})
    assert sheet.conditions == ("lutteur",)
    assert "lutteur" in rules.derive(sheet, rules_table=table).conditions
    assert "« lutteur » n'est pas un état connu" in refused(conditions=["lutteur"])


# --- Bounds (issue 16, item 16) -------------------------------------------------------------------------------


@pytest.mark.parametrize("field", COUNTERS)
@pytest.mark.parametrize("value", [10**400, MAX_CLOCK + 1, -1])
def test_no_counter_holds_an_unbounded_number(field: str, value: int) -> None:
    assert "Fiche invalide" in refused(**{field: value})


@pytest.mark.parametrize("field", COUNTERS)
def test_a_4300_digit_number_in_a_file_is_refused(field: str) -> None:
    text = json.dumps(data()).replace(f'"{field}": ', f'"{field}": {"9" * 4300}, "_": ', 1)
    text = text.replace(', "_": 0', "").replace(', "_": null', "")
    with pytest.raises(rules.SheetError):
        rules.sheet_from_json(text)


def test_time_never_goes_past_what_a_sheet_holds() -> None:
    """An AdvanceTime that would take the clock past its bound is refused, and nothing changes."""
    s = rules.evolve(rules.new_sheet("segments"), clock=MAX_CLOCK - 5)
    with pytest.raises(rules.Refused, match=r"1.000 ans"):
        rules.apply(s, rules.AdvanceTime(unit="turn"))
    assert rules.apply(s, rules.AdvanceTime(unit="segment", count=5)).sheet.clock == MAX_CLOCK
    with pytest.raises(rules.Refused, match=r"1.000 ans"):
        rules.apply(s, rules.LongRest())


# --- Fields that agree ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({"current": 30, "base_maximum": 20}, "dépassent le maximum"),
        ({"stabilised": True}, "« stabilisé »"),
        ({"current": -20, "constitution": 10, "dead": True, "stabilised": True}, "« stabilisé »"),
        ({"self_stabilise_turn": 3}, "ce tour n'est pas encore venu"),
        ({"burning_for": 5, "clock": 10}, "ne compte que pendant que le feu brûle"),
        ({"burning": True, "burning_for": 50, "clock": 10}, "plus long que le temps écoulé"),
        ({"exposure_for": 5, "clock": 10}, "ne compte que pendant une exposition"),
        ({"exposure_save_dd": 12}, "sans exposition, pas de sauvegarde"),
        ({"hungry_for": 5, "clock": 10}, "ne compte que sans manger"),
        ({"surprised_for": 5, "clock": 10}, "ne compte que pendant la surprise"),
        ({"conditions": ["surpris"], "surprised_for": 10, "clock": 20}, "la surprise dure 1 tour"),
        ({"nonlethal_for": 5, "clock": 10}, "ne compte qu'avec ces dégâts"),
        ({"suffocating_for": 50, "clock": 10}, "plus long que le temps écoulé"),
        ({"fatigue": 4}, "au plus 3 (Vacillant)"),
    ],
)
def test_fields_that_disagree_do_not_load(fields: dict[str, Any], expected: str) -> None:
    assert expected in refused(**fields)


def test_an_edit_takes_its_consequences_along() -> None:
    """Healed above 0 by an edit, a stabilised character is no longer stabilised; an exposure edited away stops
    its counter: the edit passes the same checks as a file, with what it entails."""
    s = rules.new_sheet("segments", current=-3, constitution=10, stabilised=True)
    out = rules.apply(s, rules.Edit(changes={"current": 5}))
    assert (out.sheet.current, out.sheet.stabilised) == (5, False)
    exposed = rules.evolve(rules.new_sheet("segments", clock=100, exposure="froid"), exposure_for=40)
    calm = rules.apply(exposed, rules.Edit(changes={"exposure": ""})).sheet
    assert (calm.exposure, calm.exposure_for) == ("", 0)
    # What the user asks for explicitly is checked as asked.
    dying = rules.new_sheet("segments", current=-3, constitution=10)
    with pytest.raises(rules.SheetError, match="« stabilisé »"):
        rules.apply(dying, rules.Edit(changes={"current": 5, "stabilised": True}))


ACTIONS: list[rules.Action] = [
    rules.GainTemporary(amount=100_000),
    rules.AdvanceTime(unit="day", count=100_000),
    rules.AdvanceTime(unit="hour", count=100_000),
    rules.LongRest(hours=168),
    rules.SetBurning(),
    rules.SetExposure(exposure="chaleur", save_dd=100),
    rules.SetPrivation(need="water"),
    rules.SetSurprise(segments=100),
    rules.SetSuffocating(),
    rules.Fall(metres=100_000),
    rules.AddFatigue(steps=20),
    rules.StartTurn(),
    rules.EndRound(),
    rules.Damage(amount="1000d1000", nonlethal=True),
    rules.Heal(amount=100_000),
    rules.Damage(amount=100_000, hits=100),
    rules.AdvanceTime(unit="turn", count=3),
]


def test_the_largest_actions_leave_a_sheet_that_reloads() -> None:
    """Every action at its largest, one after the other: each sheet left reloads equal (or the action is refused)."""
    rng = random.Random(7)
    sheet = rules.new_sheet("segments", base_maximum=100_000, current=100_000, constitution=50, level=100)
    sheet = rules.evolve(sheet, clock=MAX_CLOCK - 100 * 86_400)
    applied = 0
    for action in ACTIONS:
        try:
            sheet = rules.apply(sheet, action, rng=rng).sheet
        except rules.Refused:
            continue
        applied += 1
        assert rules.sheet_from_json(rules.sheet_to_json(sheet)) == sheet
    assert applied >= len(ACTIONS) - 4
