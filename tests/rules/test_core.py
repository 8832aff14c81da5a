"""The rules core shared by every system: sheets stay immutable, dice, explanations, rule-table errors."""

from __future__ import annotations

import random
import re
import subprocess
import sys
import tomllib
import typing
from pathlib import Path
from typing import Literal

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel, ValidationError
from pydantic_core.core_schema import ErrorType

import rules
from rules import dice
from rules.dice import MAX_EXPRESSION_LENGTH
from rules.errors import choices_text, describe_validation_error, error_text
from rules.model import Term, evolve, explained_modifier, explained_sum
from tests.rules.helpers import write_table

RULESETS = Path(rules.__file__).parent.parent / "resources" / "rulesets"


def _parsed(system_id: str) -> dict[str, typing.Any]:
    return tomllib.loads((RULESETS / f"{system_id}.toml").read_text("utf-8"))


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
    data = _parsed("douaratil")
    data["wounds"]["fracture"]["days"] = "vingt"
    broken = write_table(tmp_path, data)
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
    data = _parsed("douaratil")
    cid = next(k for k, c in data["conditions"].items() if c.get("implies"))
    data["conditions"][cid]["implies"] = ["neutralisee"]
    with pytest.raises(rules.RulesetError, match="état inconnu « neutralisee »"):
        rules.load_rules_table("douaratil", write_table(tmp_path, data))


def test_ruleset_missing_time_unit(tmp_path: Path) -> None:
    data = _parsed("douaratil")
    del data["time_units"]["round"]
    with pytest.raises(rules.RulesetError, match="l'unité de temps « round » manque dans time_units"):
        rules.load_rules_table("douaratil", write_table(tmp_path, data))


def test_house_rules_table_changes_the_rules(tmp_path: Path) -> None:
    """A GM's copy of the table, loaded through the same validation, changes the numbers without code."""
    data = _parsed("douaratil")
    data["exhaustion"]["maximum_per_level"] = 2
    table = rules.load_rules_table("douaratil", write_table(tmp_path, data))
    s = rules.new_sheet("douaratil", base_maximum=14, exhaustion=3)
    assert rules.derive(s, table).maximum == 14 - 3 * 2
    assert rules.derive(s).maximum == 14 - 3 * rules.ruleset("douaratil").exhaustion.maximum_per_level


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


# --------------------------------------------------------------------------------------------------
# French everywhere: pydantic's and the dice library's messages (issues 13 item 18, 14 item 5)
# --------------------------------------------------------------------------------------------------

ENGLISH_WORDS = frozenset(
    "input should be valid the and or is not none true false value error field must unable parse string "
    "integer number list missing required expected greater less than equal cannot item items object dict "
    "tuple at least most character characters roll rolled dice die sided divide zero too many selector "
    "exceeded maximum size finite match pattern instance".split()
)


def _english(text: str) -> set[str]:
    return {w for w in re.findall(r"[A-Za-zÀ-ÿ']+", text.lower()) if w in ENGLISH_WORDS}


def test_choices_are_listed_with_the_french_or() -> None:
    """“'legere', 'intermediaire' or 'lourde'” (issue 14) lists its choices with the French “ou”."""

    class Choice(BaseModel):
        grade: Literal["legere", "intermediaire", "lourde"]

    with pytest.raises(ValidationError) as err:
        Choice(grade="x")  # type: ignore[arg-type]
    (line,) = describe_validation_error(err.value)
    assert line.endswith("doit être l'une des valeurs : « legere », « intermediaire » ou « lourde »")
    assert choices_text("'seul'") == "« seul »"


def test_every_pydantic_error_type_is_worded_in_french() -> None:
    """Every error type pydantic can raise gets French words, never its English message."""
    ctx = {
        "ge": 1,
        "gt": 0,
        "le": 9,
        "lt": 10,
        "multiple_of": 2,
        "max_length": 5,
        "min_length": 1,
        "pattern": "^#[0-9a-f]{6}$",
        "expected": "'a' or 'b'",
        "tag": "x",
        "expected_tags": "'douaratil', 'd20'",
    }
    for kind in typing.get_args(ErrorType):
        if kind in ("value_error", "assertion_error"):
            continue  # our own validators' French sentences, passed through
        text = error_text({"type": kind, "msg": "Input should be a valid string, unable to parse", "ctx": ctx})
        assert text and not _english(text), (kind, text)
    # A type pydantic may add one day: still no English.
    assert error_text({"type": "brand_new", "msg": "Input should be shiny"}) == "valeur invalide"
    assert error_text({"type": "value_error", "msg": "Value error, doit être pair"}) == "doit être pair"


def test_a_number_too_big_to_read_is_said_in_french() -> None:
    """“Unable to parse input string as an integer, exceeded maximum size” (issue 16) never reaches a user."""
    with pytest.raises(rules.SheetError) as err:
        rules.sheet_from_json('{"system": "severite", "physique": ' + "9" * 5000 + "}")
    assert not any(_english(line) for line in err.value.lines), err.value.lines
    with pytest.raises(rules.SheetError) as err:
        rules.new_sheet("severite", physique="9" * 5000)
    assert err.value.lines == ["« Physique » : est un nombre trop grand"]


def test_a_sheets_system_tag_is_not_shown_as_a_field() -> None:
    """An error in a sheet read from JSON names the field, not « severite › … »."""
    with pytest.raises(rules.SheetError) as err:
        rules.sheet_from_json('{"system": "severite", "physique": 99}')
    assert err.value.lines == ["« Physique » : doit être inférieur ou égal à 20"]
    assert err.value.locations == [("physique",)]


def test_rule_table_errors_keep_the_keys_as_written(tmp_path: Path) -> None:
    """A GM looks for the key in the TOML file: a table's error names it as written."""
    data = _parsed("severite")
    data["grades"]["grave"]["handicap"] = "souvent"
    with pytest.raises(rules.RulesetError) as err:
        rules.load_rules_table("severite", write_table(tmp_path, data))
    assert "« grades › grave › handicap » : doit être l'une des valeurs : « never », « possible » ou « likely »" in str(
        err.value
    )


@pytest.mark.parametrize(
    ("expression", "message"),
    [
        ("1d6/0", "division par zéro"),
        ("1d0", "un dé à 0 face ne se lance pas"),
        ("10000d6", "trop de dés"),
        ("1d6kx", "pas une expression de dés valide"),
        ("2^3", "pas une expression de dés valide"),
        ("(((", "pas une expression de dés valide"),
        ("1d6mih1", "sélecteur de dés invalide"),
    ],
)
def test_dice_library_messages_are_french(expression: str, message: str) -> None:
    with pytest.raises(rules.Refused) as err:
        rules.roll_expression(expression, random.Random(1))
    assert message in err.value.reason
    assert not _english(err.value.reason), err.value.reason


def test_an_edit_journal_never_shows_none_or_a_python_value() -> None:
    """The generic journal line of an edit: labels and French values (« (aucun) », « oui »), never ``None``."""
    assert rules._show(None) == "(aucun)"  # type: ignore[attr-defined]
    assert rules._show(("a", "b")) == "« a », « b »"  # type: ignore[attr-defined]
    assert rules._show(()) == "(aucun)"  # type: ignore[attr-defined]


# --------------------------------------------------------------------------------------------------
# Bounds exactly where they are (issue 19: a bound moved by one is a test failing)
# --------------------------------------------------------------------------------------------------


def test_a_dice_expression_of_80_characters_rolls_and_81_is_refused() -> None:
    """The longest expression a user may type is 80 characters, in ``roll_expression`` as in an amount."""
    longest = "+".join(["1"] * 39) + "+10"
    assert len(longest) == 80 == MAX_EXPRESSION_LENGTH
    assert rules.roll_expression(longest, random.Random(1)).total == 49
    with pytest.raises(rules.Refused, match="trop longue"):
        rules.roll_expression(longest + "0", random.Random(1))
    action = rules.build_action(rules.Damage, amount=longest)
    out = rules.apply(rules.new_sheet("douaratil", base_maximum=60, current=60), action, rng=random.Random(1))
    assert out.sheet.current == 60 - 49
    with pytest.raises(rules.Refused, match="« montant » : est trop long \\(au plus 80 caractères\\)"):
        rules.build_action(rules.Damage, amount=longest + "0")


def test_evolve_may_change_every_field_at_once() -> None:
    s = rules.new_sheet("severite", name="A")
    every = {name: getattr(s, name) for name in type(s).model_fields}
    every["name"] = "B"
    new = evolve(s, **every)
    assert new.name == "B" and new == s.model_copy(update={"name": "B"})


# --------------------------------------------------------------------------------------------------
# Plain dice without the d20 library (issue 15): same draws, same journal, same bounds and French refusals
# --------------------------------------------------------------------------------------------------


@given(
    count=st.none() | st.integers(0, 60),
    sides=st.integers(0, 10**6),
    modifier=st.none() | st.tuples(st.sampled_from("+-"), st.integers(0, 10**6)),
    spaces=st.sampled_from(["", " "]),
    seed=st.integers(0, 2**32),
)
def test_plain_dice_roll_as_the_d20_library_rolls_them(
    count: int | None, sides: int, modifier: tuple[str, int] | None, spaces: str, seed: int
) -> None:
    expression = f"{'' if count is None else count}{'d' if seed % 2 else 'D'}{sides}"
    if modifier is not None:
        expression += f"{spaces}{modifier[0]}{spaces}{modifier[1]}"
    expression = expression.strip()

    def roll(fn: typing.Callable[[str, random.Random], rules.Roll]) -> rules.Roll | str:
        try:
            return fn(expression, random.Random(seed))
        except rules.Refused as exc:
            return exc.reason

    assert roll(rules.roll_expression) == roll(dice._roll_library)


@pytest.mark.parametrize("expression", ["1001d2", "1d0", "0d0", "d1", "1000d1+0", "2D6 - 1"])
def test_plain_dice_bounds_and_refusals_are_the_librarys(expression: str) -> None:
    def roll(fn: typing.Callable[[str, random.Random], rules.Roll]) -> rules.Roll | str:
        try:
            return fn(expression, random.Random(4))
        except rules.Refused as exc:
            return exc.reason

    assert roll(rules.roll_expression) == roll(dice._roll_library)


def test_the_d20_library_is_imported_only_for_expressions_that_need_it() -> None:
    code = (
        "import random, sys, rules\n"
        "print('d20' in sys.modules)\n"
        "rules.roll_expression('2d6+3', random.Random(1)); print('d20' in sys.modules)\n"
        "rules.roll_expression('4d6kh3', random.Random(1)); print('d20' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["False", "False", "True"]


def test_construct_is_model_construct_with_fields_in_order() -> None:
    """A model built by the handlers' fast constructor is the one pydantic builds, down to its JSON text."""
    from rules.model import construct

    wound_type = type(rules.demo_sheet("severite").wounds[0])
    fields = {"grade": "grave", "id": 3, "notches": 2, "body_part": "tete"}
    fast, slow = construct(wound_type, **fields), wound_type.model_construct(**fields)
    assert fast == slow and fast.model_dump_json() == slow.model_dump_json()
    assert list(fast.__dict__) == list(wound_type.model_fields)
    with pytest.raises(AttributeError):
        construct(wound_type, grade="grave")
