"""A document embeds the house rules it plays by (issue 18: « the document stores the house-rule table it
plays by (embedded, so the file travels alone) »): written, read back equal, checked as strictly as a
house-rule file, and its sheets checked against them."""

from __future__ import annotations

import json
from typing import Any

import pytest

import rules
from rules import house
from sheet_app import files
from tests.rules.house_mutants import build, mutants_of

TITLE = "Campagne de Brume"


def _house(system_id: str, key: tuple[Any, ...], value: Any) -> house.HouseRules:
    table = rules.ruleset(system_id)
    data = table.model_dump(mode="json")
    node = data
    for part in key[:-1]:
        node = node[part]
    node[key[-1]] = value
    return house.HouseRules(system_id, TITLE, type(table).model_validate(data))


@pytest.mark.parametrize("system_id", rules.SYSTEMS)
def test_a_sheet_and_a_table_keep_their_house_rules(system_id: str) -> None:
    found = mutants_of(system_id)
    chosen = house.HouseRules(system_id, TITLE, build(found[len(found) // 3]))
    sheet = rules.demo_sheet(system_id)
    doc = files.Document("sheet", [sheet], [["Règles maison : Campagne de Brume"]], house=[chosen])
    again = files.decode_document(files.encode_document(doc))
    assert again.house == [chosen] and again.sheets == [sheet] and again.journals == doc.journals
    data = json.loads(files.encode_document(doc))
    assert list(data["house"]) == [system_id] and data["house"][system_id]["title"] == TITLE
    table_doc = files.Document("table", [sheet, rules.demo_sheet("douaratil")], [[], []], "Brume", house=[chosen])
    again = files.decode_document(files.encode_document(table_doc))
    assert again.house == [chosen] and again.house_table(system_id) == chosen.table
    # Under the base rules, a file has no « house » key (files written before issue 18 read the same).
    assert "house" not in json.loads(files.encode_document(files.Document("sheet", [sheet], [[]])))


def test_a_sheet_is_read_against_its_house_rules() -> None:
    """d20 with death at −CON: a sheet at −12 PV (Constitution 18) dying, not dead, is valid only so."""
    minus_con = _house("d20", ("thresholds", "death_at_minus_constitution"), True)
    sheet = rules.evolve(rules.demo_sheet("d20"), current=-12)
    assert rules.derive(sheet, minus_con.table).state == "mourant"
    raw = files.encode_document(files.Document("sheet", [sheet], [[]], house=[minus_con]))
    doc = files.decode_document(raw)
    assert doc.sheets == [sheet] and doc.house == [minus_con]


def test_a_broken_embedded_table_is_refused_in_french_with_its_line() -> None:
    brume = _house("douaratil", ("saves", "death_save_success"), 12)
    raw = files.encode_document(files.Document("sheet", [rules.demo_sheet("douaratil")], [[]], house=[brume]))
    text = raw.decode("utf-8").replace('"death_save_success": 12', '"death_save_success": "douze"')
    line = text.split("\n").index(next(x for x in text.split("\n") if '"douze"' in x)) + 1
    with pytest.raises(files.FileProblem) as caught:
        files.decode_document(text.encode("utf-8"), "brume.fiche.json")
    message = caught.value.message
    assert "brume.fiche.json" in message and "« règles maison » (douaratil)" in message, message
    assert 'saves.death_save_success : attendu un entier entre -100 et 1000, trouvé "douze"' in message
    assert f"ligne {line} : « règles maison » (douaratil) : saves.death_save_success" in message, message


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (lambda h: {**h, "couleur": 1}, "règles maison"),
        (lambda h: {"inconnu": h["douaratil"]}, "inconnu « inconnu »"),
        (lambda h: {"douaratil": {**h["douaratil"], "title": "x" * 201}}, "règles maison"),
        (lambda h: {"douaratil": {"title": TITLE}}, "règles maison"),
    ],
)
def test_a_malformed_house_entry_is_refused(change: Any, says: str) -> None:
    brume = _house("douaratil", ("saves", "death_save_success"), 12)
    raw = files.encode_document(files.Document("sheet", [rules.demo_sheet("douaratil")], [[]], house=[brume]))
    data = json.loads(raw)
    data["house"] = change(data["house"])
    with pytest.raises(files.FileProblem) as caught:
        files.decode_document(json.dumps(data).encode("utf-8"), "brume.fiche.json")
    assert says in caught.value.message + " ".join(caught.value.details), caught.value.message


def test_a_sheet_the_embedded_rules_do_not_allow_is_refused() -> None:
    """Two death failures are the end when the house table needs two: a sheet still dying at two is not
    a sheet of those rules."""
    two = _house("douaratil", ("saves", "death_saves_needed"), 2)
    sheet = rules.evolve(rules.demo_sheet("douaratil"), current=0, death_failures=2)
    raw = files.encode_document(files.Document("sheet", [sheet], [[]]), verify=False)
    data = json.loads(raw)
    data["house"] = {"douaratil": two.to_data()}
    with pytest.raises(files.FileProblem) as caught:
        files.decode_document(json.dumps(data).encode("utf-8"), "brume.fiche.json")
    assert "2 échecs signifient la mort" in caught.value.message + " ".join(caught.value.details)


def test_a_sheet_checked_under_the_shipped_rules_is_checked_again_under_house_rules() -> None:
    """Saving remembers which sheets it checked, and under which rules: a sheet good under the shipped
    table (dying, 2 failures of 3) is no sheet of a house table where 2 failures are death."""
    two = _house("douaratil", ("saves", "death_saves_needed"), 2)
    sheet = rules.evolve(rules.demo_sheet("douaratil"), current=0, death_failures=2)
    files.encode_document(files.Document("sheet", [sheet], [[]]))  # checked: good under the shipped rules
    with pytest.raises(files.FileProblem) as caught:
        files.encode_document(files.Document("sheet", [sheet], [[]], house=[two]))
    says = "la fiche « Ulfred » ne se rouvrirait pas : « échecs aux jets contre la mort » : 2 échecs signifient la mort"
    assert says in caught.value.message
