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
from rules import house, table
from tests.rules.house_helpers import set_key


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


def _house(system: str, section: str, **values: object) -> object:
    """A GM's copy of ``system``'s shipped table with keys of one section changed (built from the parsed data)."""
    data = rules.ruleset(system).model_dump()
    data[section] = {**data[section], **values}
    return type(rules.ruleset(system)).model_validate(data)


def _blind_for_two_hours() -> rules.Sheet:
    blind = rules.SetCondition(condition="aveugle", duration=2, unit="hour")
    return rules.apply(rules.demo_sheet("douaratil"), blind, random.Random(1)).sheet


def test_a_state_for_some_turns_counts_down_the_seconds_left() -> None:
    """« jusqu’à la fin du prochain tour »: a Sévérité state put for 2 turns has 2 turns of the table's length
    left (2 × 6 s), so the sheet's countdown can be ordered with the timed states."""
    s = rules.new_sheet(
        "severite", name="Ysolde", conditions=["tourmente"], turn_timers=[{"condition": "tourmente", "turns": 2}]
    )
    assert rules.countdowns(s) == (rules.Countdown("tourmente", "Tourmenté", "encore 2 fins de tour", 12),)
    ten = _house("severite", "time_units", turn=10)
    assert rules.countdowns(s, ten)[0].left == 20


def test_countdowns_read_the_house_table_given() -> None:
    """Under a GM's table whose hour lasts 30 minutes, a state put for 2 shipped hours (7,200 s) has 4 of
    those hours left: the countdown uses the table it is given, not the shipped one."""
    sheet = _blind_for_two_hours()
    (shipped,) = rules.countdowns(sheet)
    assert shipped.text == "encore 2 heures (fin à jour 1, 02:00:00)"
    (house,) = rules.countdowns(sheet, _house("douaratil", "time_units", hour=1800))
    assert (house.text, house.left) == ("encore 4 heures (fin à jour 1, 02:00:00)", 7200)


def test_a_timer_in_an_unknown_unit_is_refused_where_it_stands() -> None:
    """A stored sheet whose timed state counts in a unit the table does not have (“semaine”): the French
    line names the unit and sits on the timer's unit."""
    sheet = _blind_for_two_hours()
    data = rules.sheet_to_data(sheet)
    data["condition_timers"][0]["unit"] = "semaine"
    with pytest.raises(rules.SheetError) as err:
        rules.sheet_from_data(data)
    assert err.value.lines == ["« durées des états › n° 1 › unité » : unité de temps inconnue « semaine »"]
    assert err.value.locations == [("condition_timers", 0, "unit")]


def test_a_nested_field_is_named_by_its_own_label() -> None:
    """A bad value inside a Douaratil pool reads “points de magie (PM) › actuels”, the pool's own word for
    its current points, not the sheet's “points actuels”."""
    s = rules.new_sheet("douaratil")
    expected = ["« points de magie (PM) › actuels » : doit être un nombre entier"]
    with pytest.raises(rules.SheetError) as err:
        rules.apply(s, rules.Edit(changes={"magic": {"current": "x", "base_maximum": 0}}))
    assert err.value.lines == expected
    with pytest.raises(rules.SheetError) as err:
        rules.new_sheet("douaratil", magic={"current": "x", "base_maximum": 3})
    assert err.value.lines == expected


def test_the_gm_table_shows_a_body_part_only_a_house_table_knows() -> None:
    """A Sévérité wound on a zone a GM's table adds (“queue”): the GM table's row still shows the wound,
    with the zone's id where the shipped table has no label for it."""
    data = rules.ruleset("severite").model_dump()
    data["body_parts"]["queue"] = {"label": "Queue", "vital": False}
    house = type(rules.ruleset("severite")).model_validate(data)
    s = rules.new_sheet("severite", name="Ysolde")
    hurt = rules.apply(
        s, rules.InflictWound(grade="grave", rolls=(6,), body_part="queue"), random.Random(1), rules_table=house
    ).sheet
    row = rules.summarise(hurt, rules.derive(hurt, rules_table=house))
    assert (row.wounds, row.worst_wound) == (1, "Grave (queue)")
    s = rules.new_sheet("severite", name="Ysolde")
    shipped = rules.apply(s, rules.InflictWound(grade="grave", rolls=(6,), body_part="bras_gauche"), random.Random(1))
    assert rules.summarise(shipped.sheet).worst_wound == "Grave (bras gauche)"


def test_the_dice_library_is_loaded_on_first_use(monkeypatch: pytest.MonkeyPatch) -> None:
    """An expression the simple path does not read (“4d6kh3”) loads the dice library the first time one is
    rolled, and rolls the same as when it was already loaded."""
    from rules import dice

    loaded = rules.roll_expression("4d6kh3", random.Random(5))
    monkeypatch.setattr(dice, "_d20", None)
    assert rules.roll_expression("4d6kh3", random.Random(5)) == loaded
    assert rules.roll_expression("4d6kh3+1", random.Random(5)).total == loaded.total + 1


def test_a_number_given_as_such_is_its_own_detail() -> None:
    """A system handler's amount given as a number (not typed text) is that number, given, and its detail
    (what the journal would show) is the number itself."""
    from rules.model import Context

    assert Context(random.Random(1), None).amount(7, "Dégâts") == rules.Roll("7", 7, "7", True)
    assert Context(random.Random(1), None).amount(-2, "Soins") == rules.Roll("-2", -2, "-2", True)


def test_the_odds_of_a_sheet_list_its_rolls() -> None:
    """The odds of the Douaratil demo character: one roll the rules may ask (its Constitution save on a fall
    to 0 PA), and no survival chance while it is not dying."""
    odds = rules.sheet_odds(rules.demo_sheet("douaratil"))
    assert [c.id for c in odds.rolls] == ["constitution_save"]
    assert odds.rolls[0].how == "3d6 + 2 (CON) ≥ DD 16"
    assert odds.survival is None


# --------------------------------------------------------------------------------------------------
# House-rule tables: what their reader, writer and explainer give
# --------------------------------------------------------------------------------------------------

_BASE_TITLE = 'title = "Règles maison Douaratil"'


def test_a_house_error_has_its_line_and_its_place() -> None:
    """A value out of bounds in a GM's table: the French line names its line and key, and the error says
    where the problem sits in the table (for the editor to point at it)."""
    text = house.export_base("douaratil").replace("ability_base = 10", "ability_base = 1000", 1)
    with pytest.raises(house.HouseRulesError) as err:
        house.parse_house_rules("douaratil", text, "maison.toml")
    assert err.value.lines == ["ligne 24, general.ability_base : attendu un entier entre -100 et 100, trouvé 1000"]
    assert err.value.paths == [("general", "ability_base")]


@pytest.mark.parametrize(
    "title",
    ['"""Brume"""', '"""Brume \\""" et pluie"""', '"""\nBrume\n"""', "'''Brume'''", '"""Brume ""\n"""'],
)
def test_a_multiline_title_does_not_move_the_lines_of_the_errors_after_it(title: str) -> None:
    """A title written as a TOML multi-line string (with an escaped “\\\"\"\"” inside, or quotes before its
    end): the keys after it are still found, so an error names its own line."""
    text = house.export_base("douaratil").replace("ability_base = 10", "ability_base = 1000", 1)
    text = text.replace(_BASE_TITLE, f"title = {title}", 1)
    extra = title.count("\n")
    with pytest.raises(house.HouseRulesError) as err:
        house.parse_house_rules("douaratil", text, "maison.toml")
    assert err.value.lines == [
        f"ligne {24 + extra}, general.ability_base : attendu un entier entre -100 et 100, trouvé 1000"
    ]


def test_a_table_of_numbers_given_a_number_says_what_each_key_holds() -> None:
    """Time units given as one number instead of a table: the line says a table is expected and what each of
    its keys holds."""
    data = rules.ruleset("douaratil").model_dump(mode="json")
    data["time_units"] = 3
    with pytest.raises(house.HouseRulesError) as err:
        house.house_rules_from_data("douaratil", {"title": "Brume", "table": data}, "brume.json")
    assert err.value.lines == [
        "time_units : attendu une table où chaque clé vaut un entier entre 1 et 1000000000, trouvé 3"
    ]
    assert err.value.paths == [("time_units",)]


def test_the_exported_table_says_what_a_missing_key_is_worth() -> None:
    """Each key that may be left out says the value it then takes; a key without a default says nothing."""
    text = house.export_base("douaratil")
    assert (
        "# Valeur de caractéristique qui donne un modificateur de 0. Attendu\u00a0: un entier entre -100 et 100 ;\n"
        "# peut manquer (vaut alors 10).\n"
    ) in text
    assert "vaut alors None" not in text and "vaut alors absent" not in text


def test_an_entry_a_house_table_adds_is_marked_absent_from_the_base_rules() -> None:
    """A body part a GM adds to Sévérité is exported under a note saying the base rules do not have it; the
    shipped ones are not."""
    data = rules.ruleset("severite").model_dump()
    data["body_parts"]["queue"] = {"label": "Queue", "vital": False}
    table_ = type(rules.ruleset("severite")).model_validate(data)
    text = house.export_rules("severite", table_, "Brume")
    assert "# (absent des règles de base)\n[body_parts.queue]\n" in text
    assert text.count("# (absent des règles de base)") == 1
    assert "# (absent des règles de base)" not in house.export_base("severite")


def _brume(*changes: tuple[tuple[str, ...], object]) -> house.HouseRules:
    text = house.export_base("douaratil")
    for path, value in changes:
        text, _ = set_key(text, path, value)
    return house.parse_house_rules("douaratil", text, "brume.toml")


def test_a_refusal_names_only_the_house_value_that_caused_it() -> None:
    """Of two house values, the refusal of a short long rest names the one that makes it too short; a refusal
    the base rules give too names none."""
    brume = _brume((("rests", "long_min_hours"), 10), (("saves", "death_save_success"), 12))
    sheet = rules.demo_sheet("douaratil")
    with pytest.raises(rules.Refused) as caught:
        rules.apply(sheet, rules.LongRest(hours=8), random.Random(1), rules_table=brume.table)
    assert caught.value.reason == (
        "Un repos long dure au moins 10 heures. (Règles maison : rests.long_min_hours = 10 au lieu de 8.)"
    )
    with pytest.raises(rules.Refused) as shipped:
        rules.apply(sheet, rules.DeathSave(rolls=(10,)), random.Random(1))
    with pytest.raises(rules.Refused) as under_house:
        rules.apply(sheet, rules.DeathSave(rolls=(10,)), random.Random(1), rules_table=brume.table)
    assert under_house.value.reason == shipped.value.reason


def test_a_file_checked_alone_finds_its_system_and_title(tmp_path: Path) -> None:
    """`sheet-app --check brume.toml`: the system named in its [house] table, its title, its values."""
    text = house.export_base("d20").replace('title = "Règles maison d20"', 'title = "Brume"', 1)
    path = tmp_path / "brume.toml"
    path.write_text(text, encoding="utf-8")
    checked = house.check_file(path)
    assert (checked.system, checked.title, checked.table) == ("d20", "Brume", rules.ruleset("d20"))
