"""House rules (issue 18): a GM exports a system's table, edits it, loads it back; what differs is listed,
and every explanation and journal names the house values it uses.

Issue 18 « Proof »: « every key of every system's table changed one at a time to a valid other value still
loads and changes what it should (a property over the schema); invalid values of each type give a French
message with the line; … a table file of 10 MB, deep nesting or unknown keys is refused cleanly; no code
runs from a table (TOML data only) ».
"""

from __future__ import annotations

import ast
import functools
import random
import time
from pathlib import Path
from typing import Any

import pytest

import rules
from rules import house
from rules.house.schema import field_docs, models_in
from rules.house.toml_text import found_text, key_lines
from rules.ruleset import shipped_text
from tests.rules import house_mutants as tm
from tests.rules.house_helpers import data_at, english_words, set_key

ROOT = Path(__file__).resolve().parents[2]


@functools.cache
def exported(system_id: str) -> str:
    return house.export_base(system_id)


@functools.cache
def shipped_data(system_id: str) -> dict[str, Any]:
    return tm.table_data(system_id)


def refused(system_id: str, text: str) -> house.HouseRulesError:
    with pytest.raises(house.HouseRulesError) as caught:
        house.parse_house_rules(system_id, text, "maison.toml")
    error = caught.value
    assert str(error).startswith("maison.toml : "), str(error)
    for line in error.lines:
        assert not english_words(line), (english_words(line), line)
    return error


# --------------------------------------------------------------------------------------------------
# Exporting the base rules
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("system_id", rules.SYSTEMS)
def test_the_exported_base_rules_read_back_as_the_shipped_table(system_id: str) -> None:
    text = exported(system_id)
    read = house.parse_house_rules(system_id, text, "base.toml")
    assert read.table == rules.ruleset(system_id)
    assert read.differences == ()
    assert read.title == f"Règles maison {rules.system(system_id).label}"


@pytest.mark.parametrize("system_id", rules.SYSTEMS)
def test_every_key_is_written_with_its_french_description_and_the_shipped_comments(system_id: str) -> None:
    text = exported(system_id)
    model = rules.system(system_id).ruleset_type
    for klass in models_in(model):
        docs = field_docs(klass)
        for name in klass.model_fields:
            assert docs.get(name, "").strip(), f"{klass.__name__}.{name} has no description"
            assert not english_words(docs[name]), (klass.__name__, name, docs[name])
    # The seed's words of the shipped file travel with their key.
    comments = key_lines(shipped_text(system_id)[0]).comments
    quoted = [c for lines in comments.values() for c in lines if c.startswith("«")]
    assert quoted
    for comment in quoted:
        assert f"# {comment}" in text, comment


def test_the_exported_douaratil_table_reads_like_a_rule_book() -> None:
    text = exported("douaratil")
    lines = text.splitlines()
    at = lines.index("death_save_success = 10")
    above = "\n".join(lines[at - 4 : at])
    assert "« Sur un résultat de 10 ou plus, vous avez réussi »" in above
    assert "Attendu\u00a0: un entier" in above
    assert text.startswith("# Règles maison pour Douaratil")
    assert "[house]\n# Le nom de ces règles maison" in text


# --------------------------------------------------------------------------------------------------
# Every key changed to another valid value (the mutation tool's mutants, edited in the exported text)
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("system_id", rules.SYSTEMS)
def test_every_key_changed_to_a_valid_other_value_loads_and_changes_only_that_key(system_id: str) -> None:
    found = tm.mutants_of(system_id)
    assert len(found) > 50
    model = rules.system(system_id).ruleset_type
    text = exported(system_id)
    for mutant in found:
        data = tm.with_value(shipped_data(system_id), mutant.path, mutant.new)
        edited, _ = set_key(text, mutant.path, lambda path, data=data: data_at(data, path))
        read = house.parse_house_rules(system_id, edited, "maison.toml")
        assert read.table == model.model_validate(data), mutant
        # A list of numbers is one value (« [2, 6] au lieu de [3, 6] »); a list of tables, one per entry.
        changed = mutant.path if not isinstance(mutant.path[-1], int) else mutant.path[:-1]
        assert [d.path for d in read.differences] == [changed], mutant
        was = found_text(data_at(shipped_data(system_id), changed), 40)
        assert read.difference_lines()[0].endswith(f"au lieu de {was}"), read.difference_lines()


# --------------------------------------------------------------------------------------------------
# Invalid values: French, with the line, the key, what was expected and what was found
# --------------------------------------------------------------------------------------------------


def test_the_issue_s_example_message() -> None:
    text, line = set_key(exported("douaratil"), ("saves", "death_save_success"), "dix")
    error = refused("douaratil", text)
    expected = f'ligne {line}, saves.death_save_success : attendu un entier entre -100 et 1000, trouvé "dix"'
    assert error.lines == [expected]


# (key, wrong value, what the message must say), one case per kind of value the tables hold.
WRONG: dict[str, list[tuple[tuple[Any, ...], Any, str]]] = {
    "douaratil": [
        (("saves", "death_saves_needed"), 0, "attendu un entier entre 1 et 10, trouvé 0"),
        (("saves", "death_saves_needed"), "trois", 'attendu un entier entre 1 et 10, trouvé "trois"'),
        (("saves", "exhaustion_on_death_saves"), "oui", 'attendu vrai ou faux (true ou false), trouvé "oui"'),
        (("saves", "death_save_dice"), "3d6", "attendu une liste de 2 valeurs"),
        # Read strictly: no switch for an integer, no decimal number for an integer (pydantic would convert).
        (("saves", "death_saves_needed"), True, "attendu un entier entre 1 et 10, trouvé true"),
        (("saves", "death_saves_needed"), 3.0, "attendu un entier entre 1 et 10, trouvé 3.0"),
        (("wounds", "plaie", "label"), 12, "attendu un texte entre guillemets, trouvé 12"),
        (("rests", "pools", "magic", "ability"), "int", 'attendu l\'une des valeurs "strength"'),
        (("conditions", "a_terre", "effects"), "rien", "attendu une liste de textes entre guillemets"),
        (("health_states", "mort", "colour"), "noir", "attendu un texte"),
    ],
    "d20": [
        (("dying", "stabilise_chance"), 101, "attendu un entier entre 0 et 100, trouvé 101"),
        (("nonlethal", "healing_removes"), "tout", 'attendu l\'une des valeurs "any", "magical", trouvé "tout"'),
        (("local_wounds", "penalty"), 2, "attendu un entier négatif ou nul, trouvé 2"),
        (("general", "natural_one_save_fails"), 1, "attendu vrai ou faux (true ou false), trouvé 1"),
    ],
    "segments": [
        (("general", "square_m"), 0, "attendu un nombre strictement positif, trouvé 0"),
        (("fatigue", "levels"), [], "(de 1 à 20 éléments), trouvé []"),
        (("conditions", "enchevetre", "movement_cost"), 11, "attendu un entier entre 1 et 10, trouvé 11"),
    ],
    "severite": [
        (("trauma", "notches_per_tier"), 0, "attendu un entier entre 1 et 20, trouvé 0"),
        (("fatal", "crippled_handicap"), "x" * 301, "attendu un texte entre guillemets (au plus 300 caractères)"),
        (("grades", "grave", "test"), "parfois", 'trouvé "parfois"'),
    ],
}


@pytest.mark.parametrize(
    ("system_id", "path", "value", "says"), [(s, *case) for s, cases in WRONG.items() for case in cases]
)
def test_a_wrong_value_is_refused_in_french_with_its_line_and_key(
    system_id: str, path: tuple[Any, ...], value: Any, says: str
) -> None:
    text, line = set_key(exported(system_id), path, value)
    error = refused(system_id, text)
    key = house.key_text(path)
    assert any(problem.startswith(f"ligne {line}, {key} : ") and says in problem for problem in error.lines), (
        error.lines,
        line,
        says,
    )


def test_an_unknown_key_is_named_with_the_key_it_resembles() -> None:
    text = exported("douaratil").replace("death_save_success = 10", "death_save_sucess = 10")
    line = text.splitlines().index("death_save_sucess = 10") + 1
    error = refused("douaratil", text)
    unknown = f"ligne {line}, saves.death_save_sucess : clé inconnue (vouliez-vous dire death_save_success ?)"
    assert unknown in error.lines
    assert any("saves.death_save_success : la clé manque (attendu un entier" in p for p in error.lines), error.lines


def test_a_check_across_keys_is_placed_on_the_key_it_names() -> None:
    text, line = set_key(exported("d20"), ("thresholds", "death_at"), 5)
    error = refused("d20", text)
    assert error.lines == [f"ligne {line}, thresholds.death_at : doit être inférieur à disabled_at"]


def test_a_table_for_another_system_is_refused_by_name() -> None:
    error = refused("douaratil", exported("d20"))
    line = exported("d20").splitlines().index('system = "d20"') + 1
    assert error.lines == [
        f"ligne {line}, house.system : ces règles sont pour d20 (« d20 »), pas pour Douaratil (« douaratil »)"
    ]


def test_many_problems_are_listed_by_line_and_counted_past_the_first() -> None:
    text = exported("segments")
    for index, key in enumerate(("segment", "turn", "minute", "hour", "day")):
        text, _ = set_key(text, ("time_units", key), -index - 1)
    text = text.replace("[general]", "[general]\n" + "\n".join(f"x{i} = {i}" for i in range(20)))
    error = refused("segments", text)
    assert len(error.lines) == house.problems.MAX_PROBLEMS + 1
    assert error.lines[-1] == "… et 17 autres problèmes"
    numbers = [int(p.split(",")[0].removeprefix("ligne ")) for p in error.lines[:-1]]
    assert numbers == sorted(numbers)


# --------------------------------------------------------------------------------------------------
# Hostile files: big, deep, many keys; no code runs from a table
# --------------------------------------------------------------------------------------------------


@pytest.mark.timeout(30)
def test_a_table_file_of_ten_megabytes_is_refused_cleanly(tmp_path: Path) -> None:
    path = tmp_path / "enorme.toml"
    path.write_text(exported("douaratil") + "# " + "x" * 10_000_000 + "\n", encoding="utf-8")
    start = time.monotonic()
    with pytest.raises(rules.RulesetError) as caught:
        house.load_house_rules("douaratil", path)
    assert time.monotonic() - start < 10
    assert "fichier trop gros pour une table de règles" in str(caught.value)


@pytest.mark.timeout(30)
def test_deep_nesting_is_refused_cleanly(tmp_path: Path) -> None:
    for text in ("x = " + "[" * 100_000, "x = " + "[" * 50 + "]" * 50, "[" + ".".join(["a"] * 40) + "]\nb = 1\n"):
        with pytest.raises(rules.RulesetError) as caught:
            house.parse_house_rules("douaratil", text, "profond.toml")
        message = str(caught.value)
        assert message.startswith("profond.toml : ") and not english_words(message), message


@pytest.mark.timeout(30)
def test_tens_of_thousands_of_unknown_keys_are_refused_quickly(tmp_path: Path) -> None:
    path = tmp_path / "cles.toml"
    path.write_text(exported("d20") + "\n[extra]\n" + "\n".join(f"k{i} = {i}" for i in range(30_000)) + "\n")
    start = time.monotonic()
    with pytest.raises(house.HouseRulesError) as caught:
        house.load_house_rules("d20", path)
    assert time.monotonic() - start < 10
    assert caught.value.lines == ["beaucoup trop de clés pour une table de règles (plus de 20\u202f000)"]
    some = exported("d20") + "\n[extra]\n" + "\n".join(f"k{i} = {i}" for i in range(3000)) + "\n"
    error = refused("d20", some)
    assert error.lines == [f"ligne {some.splitlines().index('[extra]') + 1}, extra : clé inconnue"]


def test_no_code_runs_from_a_table(tmp_path: Path) -> None:
    marker = tmp_path / "pirate"
    payload = f"__import__('os').system('touch {marker}')"
    text = exported("segments")
    text, _ = set_key(text, ("conditions", "lenteur", "label"), payload)
    text, _ = set_key(text, ("conditions", "lenteur", "effects"), ["{0.__class__}", "${HOME}", "`touch x`", payload])
    read = house.parse_house_rules("segments", text, "maison.toml")
    assert read.table.conditions["lenteur"].label == payload  # kept as a text, nothing else
    sheet = rules.apply(
        rules.demo_sheet("segments"),
        rules.SetCondition(condition="lenteur", active=True),
        random.Random(1),
        rules_table=read.table,
    ).sheet
    assert rules.derive(sheet, read.table).explain("conditions")
    assert not marker.exists()
    # Keys that would reach Python objects are unknown keys, nothing more.
    for key in ("__class__", "__init__", "model_config", "__dict__"):
        error = refused("segments", text.replace("[general]", f"[general]\n{key} = 1"))
        assert any(f"general.{key} : clé inconnue" in p for p in error.lines), error.lines


def test_the_house_rules_code_reads_data_only() -> None:
    """No eval, exec, pickle, import of names from data, or YAML in what reads a table."""
    for path in [*(ROOT / "rules" / "house").glob("*.py"), ROOT / "rules" / "ruleset.py"]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                if isinstance(node.func, ast.Name):
                    assert node.func.id not in ("eval", "exec", "compile", "__import__"), (path.name, node.func.id)
                if isinstance(node.func, ast.Attribute):
                    assert node.func.attr not in ("import_module", "literal_eval"), (path.name, node.func.attr)
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [a.name for a in node.names] + [getattr(node, "module", None) or ""]
                assert not any(n.split(".")[0] in ("pickle", "yaml", "marshal", "shelve") for n in names), path


# --------------------------------------------------------------------------------------------------
# Documents keep their rules: embedded data
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("system_id", rules.SYSTEMS)
def test_house_rules_embedded_in_a_document_read_back_equal(system_id: str) -> None:
    found = tm.mutants_of(system_id)
    table = tm.build(found[len(found) // 2])
    rules_ = house.HouseRules(system_id, "Campagne de Brume", table)
    again = house.house_rules_from_data(system_id, rules_.to_data(), "fiche.json")
    assert again == rules_
    assert again.differences == rules_.differences and len(again.differences) == 1


def test_embedded_house_rules_are_checked_like_a_file() -> None:
    data = house.HouseRules("d20", "Brume", rules.ruleset("d20")).to_data()
    data["table"]["dying"]["stabilise_chance"] = 400
    with pytest.raises(house.HouseRulesError) as caught:
        house.house_rules_from_data("d20", data, "fiche.json")
    assert caught.value.lines == ["dying.stabilise_chance : attendu un entier entre 0 et 100, trouvé 400"]
    for bad in ([], {"table": {}, "code": "x"}, {"title": 3, "table": {}}, {"title": "x" * 201, "table": {}}):
        with pytest.raises(house.HouseRulesError):
            house.house_rules_from_data("d20", bad, "fiche.json")


@pytest.mark.timeout(20)
def test_a_pipe_a_device_and_a_folder_are_refused_without_reading(tmp_path: Path) -> None:
    """What the window's “Charger des règles maison…” may be given: never a hang, never a crash."""
    import os

    fifo = tmp_path / "tube.toml"
    os.mkfifo(fifo)
    zero = tmp_path / "zero.toml"
    zero.symlink_to("/dev/zero")
    for path in (fifo, zero):
        with pytest.raises(rules.RulesetError, match="ce n'est pas un fichier ordinaire"):
            house.load_house_rules("douaratil", path)
    with pytest.raises(rules.RulesetError, match="c'est un dossier"):
        house.load_house_rules("douaratil", tmp_path)
    with pytest.raises(rules.RulesetError, match="lecture impossible"):
        house.load_house_rules("douaratil", tmp_path / "absent.toml")
    latin = tmp_path / "latin.toml"
    latin.write_bytes('title = "\xe9t\xe9"'.encode("latin-1"))
    with pytest.raises(rules.RulesetError, match="pas en UTF-8"):
        house.load_house_rules("douaratil", latin)
