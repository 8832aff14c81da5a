"""Core: tests that kill the mutants of ``rules/*.py`` a mutation sample left alive (issue 19).

Each pins what a user reads or gets from the shared core — an action's title, a signed number, a rolled
maximum, the French error a sheet carries — exactly, so a changed bound or branch shows.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import rules
from rules import table


def test_damage_title_shows_the_hits_from_two() -> None:
    """The journal titles a blow « Dégâts 3 », several blows of one attack « Dégâts 3 ×2 »."""
    assert rules.Damage(amount=3).title() == "Dégâts 3"
    assert rules.Damage(amount=3, hits=2).title() == "Dégâts 3 ×2"
    assert rules.Damage(amount="1d6", hits=3).title() == "Dégâts 1d6 ×3"


def test_signed_zero_is_plus_zero() -> None:
    """A modifier of 0 reads « +0 », a negative one with the typographic minus sign."""
    assert (rules.signed(0), rules.signed(2), rules.signed(-3)) == ("+0", "+2", "−3")


def test_a_rolled_maximum_of_one_is_enough() -> None:
    """The GM table's rolled maximum refuses less than 1 point, and takes exactly 1."""
    out = table.with_rolled_maximum(rules.new_sheet("douaratil"), "1d1", random.Random(1))
    assert out.sheet.base_maximum == 1
    assert out.log[0] == "Maximum tiré aux dés : 1d1 (1) = 1."
    with pytest.raises(rules.Refused, match="il faut au moins 1"):
        table.with_rolled_maximum(rules.new_sheet("douaratil"), "1d1-1", random.Random(1))


def test_roll_once_rolls_with_the_given_generator() -> None:
    """The GM table's one roll for every creature comes from the generator it passes (the same seed, the
    same total)."""
    first = table.roll_once("3d6", random.Random(7))
    assert first == table.roll_once("3d6", random.Random(7))
    assert 3 <= first.total <= 18 and first.expression == "3d6"


def test_sheet_error_locates_each_line() -> None:
    """Without locations, each line of a ``SheetError`` sits on the sheet as a whole (``()``)."""
    err = rules.SheetError("Fiche invalide", ["a", "b"])
    assert err.locations == [(), ()]
    assert rules.SheetError("Fiche invalide", ["a"], [("wounds", 0)]).locations == [("wounds", 0)]


def test_edit_journal_names_each_changed_field_only() -> None:
    """An edit writes one line per field it changes, in the system's words; a field given unchanged is
    skipped and the fields after it are still written."""
    for system, notes in (("d20", "Notes : (vide) → « blessée »."), ("severite", "Notes modifiées.")):
        s = rules.new_sheet(system, name="Ysolde")
        out = rules.apply(s, rules.Edit(changes={"name": "Ysolde", "notes": "blessée", "player": "Léa"}))
        assert out.log == (notes, "Joueur : (vide) → « Léa »."), system


def test_edit_of_unknown_fields_refused_by_name() -> None:
    """An edit naming fields the sheet does not have is refused, each named, and changes nothing."""
    s = rules.new_sheet("segments", name="Ysolde")
    with pytest.raises(rules.Refused) as err:
        rules.apply(s, rules.Edit(changes={"couleur": "bleu", "teinte": 1}))
    assert str(err.value) == "Champ inconnu : « couleur », « teinte »."


def test_a_table_not_in_utf8_names_the_line_of_the_first_bad_byte(tmp_path: Path) -> None:
    """A GM's table saved in Latin-1: the error names the line where the first byte that is not UTF-8 stands
    (line 3 here), not the last line of the file."""
    latin = tmp_path / "maison.toml"
    latin.write_bytes('[general]\nx = 1\ny = "\xe9t\xe9"\nz = 2\n\n'.encode("latin-1"))
    with pytest.raises(rules.RulesetError) as err:
        rules.load_rules_table("douaratil", latin)
    assert str(err.value) == f"{latin} : ligne 3 : le fichier n'est pas en UTF-8."


def test_sheet_data_is_plain_json_data() -> None:
    """``sheet_to_data`` gives what ``json.dumps`` writes and ``json.loads`` gives back: lists, not tuples."""
    s = rules.new_sheet("douaratil", conditions=("aveugle",))
    data = rules.sheet_to_data(s)
    assert data == json.loads(json.dumps(data))
    assert data["conditions"] == ["aveugle"]


def test_data_naming_an_unknown_system_is_refused_by_its_name() -> None:
    """A sheet whose ``system`` no system of the app has: the French error names it and lists the known ones."""
    data = rules.sheet_to_data(rules.new_sheet("douaratil"))
    data["system"] = "pathfinder"
    with pytest.raises(rules.SheetError) as err:
        rules.sheet_from_data(data)
    assert str(err.value) == (
        "Système inconnu : « pathfinder » (systèmes disponibles : douaratil, d20, segments, severite)."
    )


def test_a_value_a_system_does_not_derive_is_an_attribute_error_naming_it() -> None:
    """Asking a sheet's derived values for one its system does not have raises ``AttributeError`` with its name."""
    with pytest.raises(AttributeError, match=r"^scars$"):
        _ = rules.derive(rules.new_sheet("douaratil")).scars
