"""The rules core shared by every system: sheets stay immutable, dice, explanations, rule-table errors."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import rules
from rules.model import Term, evolve, explained_modifier, explained_sum


def test_evolve_matches_model_copy_and_leaves_the_input() -> None:
    s = rules.new_sheet("douaratil", name="A", base_maximum=12, current=12)
    new = evolve(s, current=4, conditions=("aveugle",))
    assert new == s.model_copy(update={"current": 4, "conditions": ("aveugle",)})
    assert s.current == 12 and s.conditions == ()
    assert rules.sheet_from_json(rules.sheet_to_json(new)) == new
    with pytest.raises(AttributeError):
        evolve(s, curent=3)


def test_sheets_are_frozen() -> None:
    s = rules.new_sheet("douaratil")
    with pytest.raises(Exception, match="frozen"):
        s.current = 3  # type: ignore[misc]


def test_explained_sum_and_modifier_texts() -> None:
    assert explained_sum("maximum", 14, [Term(-6, "épuisement niveau 6")]).text == (
        "maximum 8 = 14 − 6 (épuisement niveau 6)"
    )
    mod = explained_modifier("attaque", [Term(-1, "Lenteur"), Term(-4, "À terre"), Term(0, "rien")])
    assert mod.value == -5
    assert mod.text == "attaque −5 = −1 (Lenteur) − 4 (À terre)"
    assert explained_modifier("attaque", []).text == "attaque 0 (aucun)"


def test_dice_expression_rolled_with_the_given_generator() -> None:
    a = rules.roll_expression("2d6+3", random.Random(7))
    b = rules.roll_expression("2d6+3", random.Random(7))
    assert a == b and 5 <= a.total <= 15
    assert "2d6" in a.detail and "`" not in a.detail


@pytest.mark.parametrize(
    ("expression", "message"),
    [
        ("abc", "pas une expression de dés valide"),
        ("10000d6", "trop de dés"),
        ("", "vide"),
        ("1d6" * 40, "trop longue"),
    ],
)
def test_bad_dice_expressions_are_french_refusals(expression: str, message: str) -> None:
    with pytest.raises(rules.Refused, match=message):
        rules.roll_expression(expression, random.Random(1))


def test_dice_range() -> None:
    assert rules.dice_range("3d6") == (3, 18)
    assert rules.dice_range("d20") == (1, 20)
    assert rules.dice_range("2d6+1") is None


def test_ruleset_error_names_file_and_field(tmp_path: Path) -> None:
    text = Path(rules.__file__).parent.parent.joinpath("resources", "rulesets", "douaratil.toml").read_text("utf-8")
    broken = tmp_path / "maison.toml"
    broken.write_text(text.replace("days = 20", 'days = "vingt"'), encoding="utf-8")
    with pytest.raises(rules.RulesetError) as err:
        rules.load_rules_table("douaratil", broken)
    message = str(err.value)
    assert str(broken) in message and "fracture" in message and "days" in message and "entier" in message


def test_ruleset_syntax_error_and_missing_file(tmp_path: Path) -> None:
    bad = tmp_path / "x.toml"
    bad.write_text("[general\n", encoding="utf-8")
    with pytest.raises(rules.RulesetError, match="syntaxe TOML"):
        rules.load_rules_table("douaratil", bad)
    with pytest.raises(rules.RulesetError, match="lecture impossible"):
        rules.load_rules_table("douaratil", tmp_path / "absent.toml")


def test_ruleset_dangling_reference(tmp_path: Path) -> None:
    text = Path(rules.__file__).parent.parent.joinpath("resources", "rulesets", "douaratil.toml").read_text("utf-8")
    broken = tmp_path / "maison.toml"
    broken.write_text(text.replace('implies = ["neutralise"]', 'implies = ["neutralisee"]', 1), encoding="utf-8")
    with pytest.raises(rules.RulesetError, match="état inconnu « neutralisee »"):
        rules.load_rules_table("douaratil", broken)


def test_ruleset_missing_time_unit(tmp_path: Path) -> None:
    text = Path(rules.__file__).parent.parent.joinpath("resources", "rulesets", "douaratil.toml").read_text("utf-8")
    broken = tmp_path / "maison.toml"
    broken.write_text(text.replace("round = 6\n", "", 1), encoding="utf-8")
    with pytest.raises(rules.RulesetError, match="l'unité de temps « round » manque dans time_units"):
        rules.load_rules_table("douaratil", broken)


def test_house_rules_table_changes_the_rules(tmp_path: Path) -> None:
    """A GM's copy of the table, loaded through the same validation, changes the numbers without code."""
    text = Path(rules.__file__).parent.parent.joinpath("resources", "rulesets", "douaratil.toml").read_text("utf-8")
    house = tmp_path / "maison.toml"
    house.write_text(text.replace("maximum_per_level = 1", "maximum_per_level = 2"), encoding="utf-8")
    table = rules.load_rules_table("douaratil", house)
    s = rules.new_sheet("douaratil", base_maximum=14, current=14, exhaustion=3)
    assert rules.derive(s, table).maximum == 8
    assert rules.derive(s).maximum == 11


def test_every_shipped_table_loads() -> None:
    for system_id in rules.SYSTEMS:
        assert rules.ruleset(system_id) is not None
        info = rules.describe(system_id)
        assert info.id == system_id and info.health_states


def test_demo_sheets_derive_and_round_trip() -> None:
    for system_id in rules.SYSTEMS:
        s = rules.demo_sheet(system_id)
        d = rules.derive(s)
        for name in ("current", "maximum", "temporary", "state", "roll_penalty", "conditions"):
            assert name in d, (system_id, name)
            assert d.explain(name)
        assert rules.sheet_from_json(rules.sheet_to_json(s)) == s


def test_action_not_in_system_is_refused() -> None:
    s = rules.new_sheet("douaratil")

    class Fly(rules.Action):
        kind: str = "fly"

    with pytest.raises(rules.Refused, match="n'existe pas"):
        rules.apply(s, Fly())


def test_amount_validation() -> None:
    with pytest.raises(ValueError, match="montant"):
        rules.Damage(amount=-3)
    with pytest.raises(ValueError, match="vide"):
        rules.Heal(amount="  ")
