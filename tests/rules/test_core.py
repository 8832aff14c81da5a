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
    s = rules.new_sheet("douaratil", base_maximum=14, exhaustion=3)
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
    """One rule for every amount: a number and the same number typed as text are treated alike."""
    with pytest.raises(rules.Refused, match="« montant » : est vide"):
        rules.build_action(rules.Heal, amount="  ")
    for bad in (1.5, "1.5", "2,5"):
        with pytest.raises(rules.Refused, match="sans décimales"):
            rules.build_action(rules.Damage, amount=bad)
    for huge in (100_001, "100001", "9" * 80, -100_001):
        with pytest.raises(rules.Refused, match="entre −100"):
            rules.build_action(rules.GainTemporary, amount=huge)
    assert rules.Damage(amount="-3").amount == rules.Damage(amount=-3).amount == -3
    assert rules.Damage(amount=" 007 ").amount == 7
    s = rules.new_sheet("douaratil", base_maximum=20, current=20)
    for negative in (-3, "-3"):
        with pytest.raises(rules.Refused, match=r"Des dégâts négatifs \(-3\) n'ont pas de sens"):
            rules.apply(s, rules.Damage(amount=negative))


@pytest.mark.parametrize("system_id", rules.SYSTEMS)
@pytest.mark.parametrize("expression", ["1d6/0", "1/0", "5//0", "1d6%0"])
def test_division_by_zero_is_refused_in_french(system_id: str, expression: str) -> None:
    s = rules.demo_sheet(system_id)
    for action in (rules.Damage(amount=expression), rules.Heal(amount=expression, magical=True)):
        if not rules.supports(system_id, type(action)):
            continue
        with pytest.raises(rules.Refused, match="division par zéro"):
            rules.apply(s, action, rng=random.Random(1))


def test_zero_sided_die_is_refused_in_french() -> None:
    s = rules.new_sheet("douaratil", base_maximum=20, current=20)
    with pytest.raises(rules.Refused, match="un dé à 0 face ne se lance pas"):
        rules.apply(s, rules.Damage(amount="1d0"), rng=random.Random(1))


@pytest.mark.parametrize("expression", ["1000d1000", "1d100000000", "1d6*100000"])
def test_rolled_totals_are_held_to_the_bound_and_the_sheet_still_saves(expression: str) -> None:
    for system_id in ("douaratil", "d20", "segments"):
        s = rules.new_sheet(system_id, base_maximum=30, current=30)
        rng = random.Random(3)
        out = rules.apply(s, rules.Damage(amount=expression), rng=rng)
        assert any("compté 100000" in r.detail for r in out.rolls), out.rolls
        assert rules.sheet_from_json(rules.sheet_to_json(out.sheet)) == out.sheet


def test_a_hit_that_rolls_below_zero_deals_nothing_and_the_others_land() -> None:
    """Issue 14: « 1d4-2 », three hits rolling 4, 4, 1: two hits of 2 land, the third deals 0."""
    for system_id in ("douaratil", "d20", "segments"):
        s = rules.new_sheet(system_id, base_maximum=30, current=30)
        rng = random.Random(0)  # 1d4 rolls 4, 4, 1 with this seed
        out = rules.apply(s, rules.Damage(amount="1d4-2", hits=3), rng=rng)
        assert out.sheet.current == 26, (system_id, out.log)
        assert any("compté 0" in r.detail for r in out.rolls)


def test_decimal_totals_are_rounded_down_and_said() -> None:
    s = rules.new_sheet("douaratil", base_maximum=30, current=30)
    out = rules.apply(s, rules.Damage(amount="1d1*7/2"), rng=random.Random(1))
    assert out.sheet.current == 27
