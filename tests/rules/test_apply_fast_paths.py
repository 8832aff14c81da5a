"""The shared apply path's shortcuts (issue 15) give exactly what the long path gives: same draws from the
generator, same journal text, same rolls; generators that script their draws are still asked through
``randrange``."""

from __future__ import annotations

import importlib
import random
from collections.abc import Iterator

import pydantic
import pytest

import rules
from rules import dice
from rules.model import Context


@pytest.mark.parametrize("sides", [1, 2, 6, 20, 100, 1000])
def test_one_die_is_rolled_as_roll_dice_rolls_it(sides: int) -> None:
    fast, slow = Context(random.Random(sides), None), random.Random(sides)
    for _ in range(50):
        assert fast.dice(1, sides, "Test") == dice.roll_dice(1, sides, slow, None, "Test")
    assert fast.rng.getstate() == slow.getstate()  # type: ignore[union-attr]


@pytest.mark.parametrize("text", ["7", " 12 ", "-3", "+2", "2d6+3", "1d8-1", "d4", "3d6", "1d6 + 2", "2D6", "4d6kh3"])
def test_typed_amounts_read_as_parse_amount_read_them_before(text: str) -> None:
    fast, slow = random.Random(5), random.Random(5)
    for _ in range(20):
        got = dice.parse_amount(text, fast, "Dégâts")
        stripped = text.strip()
        if dice.INTEGER.fullmatch(stripped):
            assert got == dice.Roll(stripped, int(stripped), stripped, given=True)
        else:
            assert got == dice.roll_expression(text, slow)
    assert fast.getstate() == slow.getstate()


def test_a_generator_that_scripts_its_draws_is_asked_through_randrange() -> None:
    class Scripted(random.Random):
        def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:  # type: ignore[override]
            return 2

    ctx = Context(Scripted(0), None)
    assert ctx.dice(1, 6, "Test").total == 3
    assert ctx.amount("1d6+1", "Dégâts").total == 4
    assert dice.roll_dice(2, 6, Scripted(0), None, "Test").total == 6


def test_a_number_given_as_such_is_its_own_roll_and_never_bounded() -> None:
    ctx = Context(random.Random(0), None)
    assert ctx.amount(7, "Dégâts") == dice.Roll("7", 7, "7", True)
    assert ctx.amount(-4, "Dégâts") == dice.Roll("-4", -4, "-4", True)
    assert ctx.amount(True, "Dégâts") == dice.Roll("True", True, "True", True)
    assert ctx.rolls == () and list(ctx.rolls) == []  # a sequence a handler may read, empty


def test_a_rolled_total_below_the_minimum_is_still_held() -> None:
    ctx = Context(random.Random(0), None)
    assert ctx.amount("1d4-10", "Dégâts").total == 0
    assert ctx.amount("1d4-10", "Sévérité", minimum=None).total < 0
    assert ctx.amount("1d4+5", "Dégâts", minimum=7).total >= 7


def _models(cls: type[pydantic.BaseModel]) -> Iterator[type[pydantic.BaseModel]]:
    for sub in cls.__subclasses__():
        yield sub
        yield from _models(sub)


def test_no_model_of_the_app_needs_the_attribute_hook_rules_removes() -> None:
    """``rules.model`` takes ``BaseModel.__getattr__`` away (issue 15: its mere presence sends every attribute read
    of every model through a slower path, 15-20 % of ``rules.apply``). pydantic needs it only for private
    attributes and for the extra fields of ``extra="allow"``: no model of the app may have either."""
    for system_id in rules.SYSTEMS:
        rules.system(system_id)
    for module in ("rules.house", "rules.table", "rules.odds", "sheet_app.files", "sheet_app.autosave"):
        importlib.import_module(module)
    assert "__getattr__" not in vars(pydantic.BaseModel)
    models = list(_models(pydantic.BaseModel))
    assert len(models) > 100
    needing = [m for m in models if m.__private_attributes__ or m.model_config.get("extra") == "allow"]
    assert needing == []


def test_a_name_a_sheet_does_not_have_is_refused_as_before() -> None:
    """Without the hook a missing name raises the ``AttributeError`` pydantic raised, word for word; a field
    and a method read as before."""
    sheet = rules.demo_sheet("douaratil")
    with pytest.raises(AttributeError, match=r"^'DouaratilSheet' object has no attribute 'nope'$"):
        sheet.nope  # noqa: B018
    assert getattr(sheet, "nope", 5) == 5
    assert not hasattr(sheet, "nope")
    assert sheet.system == "douaratil" and sheet.model_dump()["system"] == "douaratil"
    with pytest.raises(pydantic.ValidationError):
        sheet.name = "Autre"  # type: ignore[misc]


def test_an_outcome_holds_tuples_whatever_the_context_held() -> None:
    """The Context keeps its rolls and events as an empty tuple until the first one (issue 15); the outcome
    holds tuples either way, each roll and event once, in order."""
    quiet = rules.apply(rules.demo_sheet("douaratil"), rules.Heal(amount=1), random.Random(0))
    assert quiet.rolls == () and quiet.events == () and type(quiet.log) is tuple
    ctx = Context(random.Random(3), None)
    first, second = ctx.dice(1, 6, "Test"), ctx.amount("2d6", "Dégâts")
    ctx.event("critical")
    ctx.event("died")
    ctx.event("critical")
    out = ctx.finish(rules.demo_sheet("douaratil"))
    assert out.rolls == (first, second) and out.events == ("critical", "died")
    assert type(out.rolls) is tuple and type(out.events) is tuple


@pytest.mark.parametrize("system_id", ["douaratil", "d20", "segments", "severite"])
def test_a_sheet_an_action_copies_keeps_what_was_set_and_nothing_extra(system_id: str) -> None:
    """``evolve`` is ``model_copy(update=…)`` without its cost: the copy keeps the fields set of the sheet it comes
    from (what ``exclude_unset`` writes), no extra fields and no private values, and equals the same copy made
    by pydantic (the mutant that drops one of the four slot stores)."""
    sheet = rules.demo_sheet(system_id)
    new = rules.evolve(sheet, name="Autre nom")
    assert new.model_fields_set == sheet.model_fields_set
    assert new.model_dump(exclude_unset=True) == {**sheet.model_dump(exclude_unset=True), "name": "Autre nom"}
    assert new.__pydantic_extra__ is None and new.__pydantic_private__ is None
    assert new == sheet.model_copy(update={"name": "Autre nom"})
    hit = rules.apply(sheet, rules.Damage(amount=1), random.Random(0)).sheet
    assert hit.model_fields_set == sheet.model_fields_set
