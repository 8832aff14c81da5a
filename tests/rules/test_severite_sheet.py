"""Sévérité: a sheet names only what its rule table knows, and its fields agree (issue 16 items 14, 16).

One function, ``sheet_problems(sheet, table)``, checks a sheet however it comes — read from a file, made
new, edited by hand — against the table given (a GM's house rules) or the shipped one; the actions keep
what it checks (the property tests run it after every action).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import rules

RS = rules.ruleset("severite")
WOUND = {"id": 1, "grade": "grave", "notches": 3, "body_part": "bras_gauche", "damage_type": "tranchant"}


def demo_data(**changes: Any) -> dict[str, Any]:
    data = rules.sheet_to_data(rules.demo_sheet("severite"))
    data.update(changes)
    return data


def refused_lines(data: dict[str, Any]) -> tuple[list[str], list[tuple[str | int, ...]]]:
    """The French lines and locations of a sheet refused on every road in: data, JSON text, ``new_sheet``."""
    with pytest.raises(rules.SheetError) as from_data:
        rules.sheet_from_data(data)
    with pytest.raises(rules.SheetError) as from_json:
        rules.sheet_from_json(json.dumps(data))
    fields = {k: v for k, v in data.items() if k != "system"}
    with pytest.raises(rules.SheetError) as new:
        rules.new_sheet("severite", **fields)
    assert from_data.value.lines == from_json.value.lines == new.value.lines
    assert from_data.value.locations == from_json.value.locations
    return from_data.value.lines, from_data.value.locations


@pytest.mark.parametrize(
    ("changes", "line", "location"),
    [
        (
            {"wounds": [{**WOUND, "grade": "grav="}]},
            "« blessures › n° 1 › degré » : degré de Blessure inconnu « grav= » (attendu : Bénigne, Légère, Grave, "
            "Critique, Fatale)",
            ("wounds", 0, "grade"),
        ),
        (
            {"wounds": [{**WOUND, "body_part": "aile"}]},
            "« blessures › n° 1 › partie du corps » : zone du corps inconnue « aile » (attendu : Tête, Torse, Abdomen, "
            "Bras droit, Bras gauche, Jambe droite, Jambe gauche)",
            ("wounds", 0, "body_part"),
        ),
        (
            {"wounds": [{**WOUND, "damage_type": "feu"}]},
            "« blessures › n° 1 › type de dégâts » : type de dégâts inconnu « feu » (attendu : Écrasant, Tranchant, "
            "Perçant, Psychique)",
            ("wounds", 0, "damage_type"),
        ),
        (
            {"wounds": [{**WOUND, "treatment": "priere"}]},
            "« blessures › n° 1 › traitement » : traitement inconnu « priere » (attendu : Bandage, Médicament, "
            "Opération)",
            ("wounds", 0, "treatment"),
        ),
        (
            {"conditions": ["ljnteur"], "turn_timers": []},
            "« états › n° 1 » : état inconnu « ljnteur » (attendu : Hors combat, Tourmenté, Stoïque, Inébranlable, "
            "Stable, Inconscient)",
            ("conditions", 0),
        ),
        (
            {"equipment": [{"name": "Cape", "body_parts": ["torse", "aile"]}]},
            "« équipement › n° 1 › zones › n° 2 » : zone du corps inconnue « aile »",
            ("equipment", 0, "body_parts", 1),
        ),
        (
            {
                "equipment": [
                    {"name": "Cape", "body_parts": ["torse"], "protections": [{"damage_type": "feu", "modifier": 1}]}
                ]
            },
            "« équipement › n° 1 › protections › n° 1 › type de dégâts » : type de dégâts inconnu « feu »",
            ("equipment", 0, "protections", 0, "damage_type"),
        ),
    ],
)
def test_unknown_ids_are_refused_when_a_sheet_is_read(
    changes: dict[str, Any], line: str, location: tuple[str | int, ...]
) -> None:
    """Issue 16: “a grade grav= loads silently” — every id of a sheet is one of its rule table's."""
    lines, locations = refused_lines(demo_data(**changes))
    assert any(entry.startswith(line) for entry in lines), lines
    assert location in locations


@pytest.mark.parametrize(
    ("changes", "line", "location"),
    [
        (
            {"wounds": [WOUND, {**WOUND, "grade": "legere", "notches": 1}]},
            "« blessures › n° 2 › numéro » : deux blessures portent le numéro 1",
            ("wounds", 1, "id"),
        ),
        (
            {"wounds": [{**WOUND, "handicap_penalty": -2}]},
            "« blessures › n° 1 › Handicap » : un malus de Handicap demande le texte du Handicap",
            ("wounds", 0, "handicap"),
        ),
        (
            {"conditions": ["tourmente"], "turn_timers": [{"condition": "tourmente", "turns": 1}] * 2},
            "« durées en tours › n° 2 › état » : l'état Tourmenté a deux durées en tours",
            ("turn_timers", 1, "condition"),
        ),
        (
            {"conditions": [], "turn_timers": [{"condition": "tourmente", "turns": 1}]},
            "« durées en tours › n° 1 › état » : une durée en tours cite l'état Tourmenté, qui n'est pas en place",
            ("turn_timers", 0, "condition"),
        ),
        (
            {"conditions": ["hors_de_combat"], "turn_timers": [{"condition": "hors_de_combat", "turns": 3}]},
            "« durées en tours › n° 1 › état » : l'état Hors combat ne se compte pas en tours",
            ("turn_timers", 0, "condition"),
        ),
        (
            {"clock": 3_600, "last_rest_end": 7_200},
            "« fin du dernier repos » : le dernier repos ne peut pas finir après le temps écoulé de la fiche",
            ("last_rest_end",),
        ),
        ({"clock": 10**13}, "« temps écoulé » : doit être inférieur ou égal à 1000000000000", ("clock",)),
        ({"last_rest_end": -1}, "« fin du dernier repos » : doit être supérieur ou égal à 0", ("last_rest_end",)),
        ({"sequels": ["x"] * 101}, "« séquelles » : est trop long (au plus 100)", ("sequels",)),
    ],
)
def test_fields_that_contradict_each_other_are_refused(
    changes: dict[str, Any], line: str, location: tuple[str | int, ...]
) -> None:
    """Issue 16: “Every stored field has a bound and a cross-field check, the same on load, on edit and after
    every action.”"""
    lines, locations = refused_lines(demo_data(**changes))
    assert line in lines, lines
    assert location in locations
    # The same check on an edit, and nothing changes (a condition taken off by hand takes its count with it:
    # that edit is not refused).
    if changes.get("conditions") == []:
        return
    s = rules.demo_sheet("severite")
    edit = {k: v for k, v in changes.items()}
    with pytest.raises(rules.SheetError) as err:
        rules.apply(s, rules.Edit(changes=edit))
    assert line in err.value.lines, err.value.lines


def test_a_house_table_is_the_one_the_sheet_is_checked_against() -> None:
    """A GM's table with a grade of its own: a sheet that names it is good under that table, not the shipped one."""
    grades = dict(RS.grades)
    grades["mortelle"] = RS.grades["fatale"].model_copy(update={"label": "Mortelle", "min_severity": 20})
    house = RS.model_copy(update={"grades": grades})
    s = rules.new_sheet("severite")
    out = rules.apply(
        s, rules.Edit(changes={"wounds": [{"id": 1, "grade": "mortelle", "notches": 9}]}), rules_table=house
    )
    assert out.sheet.wounds[0].grade == "mortelle"
    assert rules.derive(out.sheet, house).current == 9
    with pytest.raises(rules.SheetError, match="degré de Blessure inconnu « mortelle »"):
        rules.apply(s, rules.Edit(changes={"wounds": [{"id": 1, "grade": "mortelle", "notches": 9}]}))
    # The model takes the table in its validation context: how the file layer can pass it later.
    data = rules.sheet_to_data(out.sheet)
    assert rules.SeveriteSheet.model_validate(data, context={"rules_table": house}) == out.sheet
    with pytest.raises(Exception, match="mortelle"):
        rules.SeveriteSheet.model_validate(data)


def test_a_house_table_cannot_have_more_conditions_than_a_sheet_holds(tmp_path: Any) -> None:
    """A sheet holds at most 40 conditions at once; a table with more could not be saved once all are set."""
    from tests.rules.helpers import write_table

    data = json.loads(json.dumps(RS.model_dump(mode="json")))
    for i in range(40):
        data["conditions"][f"etat_{i}"] = {**data["conditions"]["stoique"], "label": f"État {i}"}
    with pytest.raises(rules.RulesetError, match="conditions"):
        rules.load_rules_table("severite", write_table(tmp_path, data))


def test_sequels_stay_within_what_a_sheet_holds() -> None:
    """« Dans le meilleur des cas, elle se contente de rendre le membre touché complètement invalide, ou
    sectionné. » — a healed crippled limb leaves a sequel, as long as the sheet has room for one."""
    crippled = {"id": 1, "grade": "fatale", "notches": 1, "body_part": "bras_droit", "crippled": True}
    crippled["handicap"] = "Membre invalide ou sectionné"
    s = rules.new_sheet("severite", wounds=[crippled], sequels=["Ancienne blessure"] * 100)
    out = rules.apply(s, rules.SupernaturalHealing(success_level="faible", wound_id=1))
    assert out.sheet.wounds == () and len(out.sheet.sequels) == 100
    assert "séquelle non notée : la fiche en compte déjà 100" in " ".join(out.log)
    assert rules.sheet_from_json(rules.sheet_to_json(out.sheet)) == out.sheet
    room = rules.new_sheet("severite", wounds=[crippled])
    assert rules.apply(room, rules.SupernaturalHealing(success_level="faible", wound_id=1)).sheet.sequels == (
        "Bras droit : Membre invalide ou sectionné",
    )


def test_a_sheet_holds_200_wounds_and_refuses_the_next() -> None:
    """« Chaque Blessure que vous allez subir va remplir une jauge de Trauma » — up to what a sheet can hold:
    the 200th wound is written, the 201st refused (erase old ones first), and the sheet always saves."""
    wounds = [{"id": i + 1, "grade": "legere", "notches": 0} for i in range(199)]
    s = rules.new_sheet("severite", wounds=wounds)
    full = rules.apply(s, rules.InflictWound(grade="legere", tenacity_test=False)).sheet
    assert len(full.wounds) == 200
    assert rules.sheet_from_json(rules.sheet_to_json(full)) == full
    with pytest.raises(rules.Refused, match="La fiche compte déjà 200 blessures"):
        rules.apply(full, rules.InflictWound(grade="legere", tenacity_test=False))
    with pytest.raises(rules.Refused, match="La fiche compte déjà 200 blessures"):
        rules.apply(full, rules.Damage(amount=3))
