"""Segments (seed 002): damage types, reductions and resistances, falls, the world's harm, and what an
Engourdi character may read. Each test quotes the passage it checks."""

from __future__ import annotations

import random
from typing import Any

import pytest

import rules


def sheet(**fields: object) -> rules.SegmentsSheet:
    base: dict[str, object] = {"name": "Brune", "base_maximum": 20, "current": 20, "constitution": 12}
    base.update(fields)
    return rules.new_sheet("segments", **base)


def run(s: object, action: rules.Action, seed: int | None = None, table: Any = None) -> rules.Outcome:
    return rules.apply(s, action, rng=random.Random(seed) if seed is not None else None, rules_table=table)


def text(outcome: rules.Outcome) -> str:
    return "\n".join(outcome.log)


def house_table(**changes: dict[str, object]) -> rules.SegmentsRules:
    """A GM's copy of the shipped table with some sections changed (built from the parsed data)."""
    data = rules.ruleset("segments").model_dump()
    for section, values in changes.items():
        data[section] = {**data[section], **values}
    return rules.SegmentsRules.model_validate(data)


# --- Damage types (S10) ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["fue", "poison", "tranchant, fue"])
def test_an_unknown_damage_type_is_refused_with_the_known_ones(kind: str) -> None:
    """« Résistance à l'énergie. Même principe, mais réservé à une énergie précise (feu, froid, foudre) » : a
    misspelt type would be a plain blow that armour stops; it is refused, naming the types the table knows."""
    s = sheet(armour="lourde", energy_resistances=("feu 10",))
    with pytest.raises(rules.Refused) as err:
        run(s, rules.Damage(amount=8, damage_type=kind))
    assert "Type de dégâts inconnu" in err.value.reason
    for known in ("feu", "froid", "foudre", "tranchant", "argent"):
        assert known in err.value.reason
    # Written in capitals or with spaces, a known type is accepted.
    assert run(s, rules.Damage(amount=8, damage_type=" Feu ")).sheet.current == 20
    assert run(s, rules.Damage(amount=8, damage_type="Tranchant, ARGENT")).sheet.current == 15


def test_a_reduction_or_resistance_naming_an_unknown_type_is_refused() -> None:
    """« Une réduction 5/argent ne protège pas contre une lame d'argent » : the type after the bar is one an
    attack can carry; a resistance names an energy of the table."""
    with pytest.raises(rules.SheetError, match="« bois » n'est pas un type de dégâts connu"):
        sheet(damage_reductions=("5/bois",))
    with pytest.raises(rules.SheetError, match="« poison » n'est pas une énergie connue"):
        sheet(energy_resistances=("poison 5",))
    with pytest.raises(rules.SheetError, match="« tranchant » n'est pas une énergie connue"):
        sheet(energy_resistances=("tranchant 5",))


@pytest.mark.parametrize("typed", ["feu -5", "feu − 5", "feu:-5"])
def test_a_negative_resistance_is_refused(typed: str) -> None:
    """« Résistance à l'énergie. Même principe » as the reduction: a value to take off, never a negative one."""
    s = sheet()
    with pytest.raises(rules.SheetError, match="ne peut pas être négative") as err:
        run(s, rules.Edit(changes={"energy_resistances": typed}))
    assert typed in err.value.reason
    with pytest.raises(rules.SheetError, match="ne peut pas être négative"):
        sheet(energy_resistances=(typed,))


@pytest.mark.parametrize(("typed", "stored"), [("feu 5", ("feu 5",)), ("Feu : 5, froid=3", ("feu 5", "froid 3"))])
def test_resistances_as_typed(typed: str, stored: tuple[str, ...]) -> None:
    """« réservé à une énergie précise (feu, froid, foudre) et sans contournement possible »"""
    out = run(sheet(), rules.Edit(changes={"energy_resistances": typed}))
    assert out.sheet.energy_resistances == stored
    assert run(out.sheet, rules.Damage(amount=7, damage_type="feu")).sheet.current == 18


# --- S8: reductions against energies ---------------------------------------------------------------------------


def test_a_2_dash_reduction_and_armour_stop_energies_too() -> None:
    """« une réduction 2/− ne se contourne par rien du tout » ; « Ils sont en revanche soumis aux réductions et
    aux résistances quand elles s'appliquent » : fire meets the armour, the 2/− and the fire resistance (S8)."""
    s = sheet(armour="lourde", damage_reductions=("2/−",))
    assert run(s, rules.Damage(amount=10, damage_type="feu")).sheet.current == 15
    resistant = rules.evolve(s, energy_resistances=("feu 4",))
    out = run(resistant, rules.Damage(amount=10, damage_type="feu"))
    assert out.sheet.current == 19
    assert "− 5 (réduction 3/− armure lourde + 2/− propre à la créature)" in text(out)
    assert "− 4 (résistance feu 4)" in text(out)
    # An hour of cold meets the armour as well.
    cold = run(
        run(sheet(armour="lourde"), rules.SetExposure(exposure="froid")).sheet,
        rules.AdvanceTime(unit="hour", rolls=(5,)),
    )
    assert cold.sheet.current == 18


def test_the_older_reading_of_s8_stays_available() -> None:
    """« Résistance à l'énergie. Même principe, mais réservé à une énergie précise » : a GM's table may keep
    reductions for blows only (``reduction.applies_to_energy = false``)."""
    table = house_table(reduction={"applies_to_energy": False})
    s = sheet(armour="lourde", damage_reductions=("2/−",))
    out = run(s, rules.Damage(amount=10, damage_type="feu"), table=table)
    assert out.sheet.current == 10
    assert "les réductions n'arrêtent pas les énergies" in text(out)
    assert run(s, rules.Damage(amount=10, damage_type="tranchant"), table=table).sheet.current == 15


# --- S12: falls -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("metres", "landed", "dice"),
    [
        (100, False, "20d6"),
        (100, True, "19d6"),
        (63, True, "19d6"),
        (60, False, "20d6"),
        (9, True, "2d6"),
        (3, True, None),
    ],
)
def test_the_agility_roll_takes_off_the_first_slice_after_the_cap(metres: int, landed: bool, dice: str | None) -> None:
    """« | Chute | 1d6 par tranche de 3 m, jusqu'à 20d6. Un jet d'Agilité réussi retire les dégâts des trois
    premiers mètres | » : at 100 m a successful roll still counts, 20d6 − 1d6 (S12)."""
    s = sheet(base_maximum=400, current=400, constitution=30)
    out = run(s, rules.Fall(metres=metres, agility_success=landed), seed=2)
    assert (out.rolls[0].expression if out.rolls else None) == dice
    assert ("premiers mètres sont retirés" in text(out)) == landed


def test_the_older_fall_reading_stays_available() -> None:
    """« jusqu'à 20d6. Un jet d'Agilité réussi retire les dégâts des trois premiers mètres » : a GM's table may
    take the slice off before the cap (``fall.agility_before_cap = true``)."""
    table = house_table(fall={"agility_before_cap": True})
    s = sheet(base_maximum=400, current=400, constitution=30)
    assert run(s, rules.Fall(metres=100, agility_success=True), seed=2, table=table).rolls[0].expression == "20d6"
    assert run(s, rules.Fall(metres=9, agility_success=True), seed=2, table=table).rolls[0].expression == "2d6"


def test_a_fall_leaves_the_character_prone_only_when_the_table_says_so() -> None:
    """« | Chute | 1d6 par tranche de 3 m » : the landing is a reading (S12, ``fall.lands_prone``)."""
    assert "a_terre" in run(sheet(), rules.Fall(metres=6, rolls=(5,))).sheet.conditions
    table = house_table(fall={"lands_prone": False})
    out = run(sheet(), rules.Fall(metres=6, rolls=(5,)), table=table)
    assert out.sheet.conditions == () and out.sheet.current == 15
    # A fall that kills leaves a dead body, not a character to stand up.
    fatal = run(sheet(current=3, constitution=5), rules.Fall(metres=6, rolls=(8,)))
    assert fatal.sheet.dead and fatal.sheet.conditions == ()


# --- Exposure, standing up, healing ------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["froid", "chaleur"])
def test_exposure_rolls_one_d6_each_hour(kind: str) -> None:
    """« | Froid, chaleur extrême | 1d6 par heure d'exposition sans protection, et un degré de fatigue par tranche
    de quatre heures | »"""
    s = run(sheet(base_maximum=60, current=60, constitution=20), rules.SetExposure(exposure=kind)).sheet  # type: ignore[arg-type]
    out = run(s, rules.AdvanceTime(unit="hour", count=3), seed=5)
    assert [r.expression for r in out.rolls] == ["1d6", "1d6", "1d6"]
    assert all(1 <= r.total <= 6 for r in out.rolls)
    with pytest.raises(rules.Refused, match="impossible sur 1d6"):
        run(s, rules.AdvanceTime(unit="hour", rolls=(7,)))


def test_standing_up_from_two_lying_states_costs_the_dearest() -> None:
    """« | À terre | −4 en attaque et −4 à la classe d'armure ; se relever coûte 1 segment | » : a GM's table may
    add another lying state; standing up from both costs the dearest of the two."""
    data = rules.ruleset("segments").model_dump()
    data["conditions"]["enseveli"] = {**data["conditions"]["a_terre"], "label": "Enseveli", "stand_up_segments": 3}
    table = rules.SegmentsRules.model_validate(data)
    s = rules.SegmentsSheet.model_validate(
        {"system": "segments", "conditions": ["a_terre", "enseveli"]}, context={"rules_table": table}
    )
    out = run(s, rules.StandUp(), table=table)
    assert "cela coûte 3 segments de sa fenêtre" in text(out)
    assert out.sheet.conditions == ()


def test_healing_nothing_is_no_refusal() -> None:
    """« la Médecine soigne ce qui vient après » : a heal of 0 (or a roll of 1d4−4) heals nothing and is no error."""
    s = sheet(current=12)
    out = run(s, rules.Heal(amount=0))
    assert out.sheet == s and "Soins 0 : PV 12 → 12" in text(out)
    rolled = run(s, rules.Heal(amount="1d4-4"), seed=1)
    assert rolled.sheet.current == 12
    with pytest.raises(rules.Refused, match="négatifs"):
        run(s, rules.Heal(amount=-1))


def test_a_hit_never_stores_points_below_what_a_sheet_keeps() -> None:
    """« La mort est automatique » : a huge blow kills; the PV stop at the lowest a sheet stores."""
    out = run(sheet(current=-5), rules.Damage(amount=100_000))
    assert out.sheet.dead and out.sheet.current == -100_000
    assert rules.sheet_from_json(rules.sheet_to_json(out.sheet)) == out.sheet


# --- Engourdi: « on ignore son propre total » (S17) ------------------------------------------------------------


def player_view(outcome: rules.Outcome) -> str:
    return "\n".join(line for line in outcome.log if not line.startswith(rules.SECRET_MARK))


def gm_view(outcome: rules.Outcome) -> str:
    return "\n".join(outcome.log)


NUMB = {"name": "Brune", "conditions": ("engourdi",), "constitution": 12, "base_maximum": 873, "current": 437}


@pytest.mark.parametrize(
    ("fields", "action", "figures"),
    [
        ({}, rules.Damage(amount=3, rolls=(19,)), ["437", "434", "873"]),
        ({}, rules.Damage(amount=3, nonlethal=True, rolls=(19,)), ["non létaux 0 → 3", "437"]),
        ({"temporary": 7}, rules.Damage(amount=10, rolls=(19,)), ["437", "434", "873", "7"]),
        ({"current": 13}, rules.Heal(amount=5), ["13", "18", "873"]),
        ({"current": 3}, rules.Damage(amount=9, rolls=(19,)), ["−6", "-6", "873"]),
        ({"current": -5}, rules.Damage(amount=9, rolls=(19,)), ["−14", "-14", "−5", "-5"]),
        ({"current": -2}, rules.AdvanceTime(unit="segment", count=4, rolls=(3,)), ["−2", "−6", "-2", "-6"]),
        ({"current": -2}, rules.AdvanceTime(unit="turn", rolls=(3, 3)), ["−2", "−12", "-12"]),
        ({}, rules.GainTemporary(amount=17), ["17"]),
        ({"temporary": 17}, rules.LoseTemporary(), ["17"]),
        ({"nonlethal": 33}, rules.AdvanceTime(unit="hour"), ["33", "32"]),
        ({"current": 437, "suffocating_for": 0}, rules.AdvanceTime(unit="turn", count=13), ["0 point de vie", "0 PV"]),
        ({}, rules.Edit(changes={"current": 401, "base_maximum": 875}), ["437", "401", "873", "875"]),
        ({"current": 12}, rules.LongRest(), ["12", "13", "873"]),
    ],
)
def test_an_engourdi_character_reads_no_figure_of_its_points(
    fields: dict[str, object], action: rules.Action, figures: list[str]
) -> None:
    """« | Engourdi | Toucher | … et on ignore son propre total de points de vie, que le meneur garde pour lui | » :
    every line that shows the PV is the GM's; the player reads that something happened, not the figures."""
    s = rules.new_sheet("segments", **{**NUMB, **fields})
    out = run(s, action, seed=4)
    shown = player_view(out)
    for figure in figures:
        assert figure not in shown.replace("Constitution (12)", ""), (figure, shown)
    assert shown  # the player is told something happened
    assert any(line.startswith(rules.SECRET_MARK) for line in out.log)
    assert any(figure in gm_view(out) for figure in figures)


def test_an_engourdi_refusal_carries_no_figure_either() -> None:
    """« que le meneur garde pour lui » : a refused edit does not tell the player the total it protects."""
    s = rules.new_sheet("segments", **NUMB)
    with pytest.raises(rules.SheetError) as err:
        run(s, rules.Edit(changes={"base_maximum": 400}))
    assert "dépassent le maximum" in err.value.reason and "437" not in err.value.reason
    # Without Engourdi the GM and the player read the figures.
    with pytest.raises(rules.SheetError, match="437"):
        run(rules.evolve(s, conditions=()), rules.Edit(changes={"base_maximum": 400}))
