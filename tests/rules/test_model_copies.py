"""The models the rules make without validation (``evolve``, ``with_values``, ``construct``: every action makes
one) are indistinguishable from pydantic's own (issue 15: a faster way to make them must pass these first)."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import pydantic
import pytest

import rules
from rules.model import construct, evolve, with_values


def _same(fast: Any, slow: Any) -> None:
    """``fast`` is what pydantic would have made: type, fields, their order, JSON, hash, copies, frozenness."""
    assert type(fast) is type(slow)
    assert fast == slow and hash(fast) == hash(slow)
    assert list(fast.__dict__.items()) == list(slow.__dict__.items())
    assert fast.model_dump() == slow.model_dump() and fast.model_dump_json() == slow.model_dump_json()
    assert fast.__pydantic_extra__ is None and fast.__pydantic_private__ is None
    assert fast.model_extra is None
    assert repr(fast) == repr(slow)
    for again in (pickle.loads(pickle.dumps(fast)), copy.copy(fast), copy.deepcopy(fast), fast.model_copy()):
        assert type(again) is type(fast) and again == fast
        assert again.model_fields_set == fast.model_fields_set
    with pytest.raises(pydantic.ValidationError, match="frozen"):
        fast.name = "x"
    with pytest.raises(pydantic.ValidationError, match="frozen"):
        del fast.name


@pytest.mark.parametrize("system_id", ["douaratil", "d20", "segments", "severite"])
def test_evolve_is_a_model_copy_that_keeps_the_fields_set(system_id: str) -> None:
    sheet = rules.demo_sheet(system_id)
    new = evolve(sheet, name="Autre", clock=sheet.clock + 6)
    slow = sheet.model_copy(update={"name": "Autre", "clock": sheet.clock + 6})
    _same(new, slow)
    # The fields set is the input's own (``model_copy`` would add the changed names): what ``evolve`` always did.
    assert new.__pydantic_fields_set__ is sheet.__pydantic_fields_set__
    assert sheet.name != "Autre"  # the input is left as it was
    assert rules.sheet_from_json(rules.sheet_to_json(new)) == new


@pytest.mark.parametrize("system_id", ["douaratil", "d20", "segments", "severite"])
def test_with_values_holds_the_very_dict_given(system_id: str) -> None:
    sheet = rules.demo_sheet(system_id)
    values = {**sheet.__dict__, "notes": "n"}
    new = with_values(sheet, values)
    assert new.__dict__ is values
    assert new.__pydantic_fields_set__ is sheet.__pydantic_fields_set__
    _same(new, sheet.model_copy(update={"notes": "n"}))


def test_construct_makes_what_model_construct_makes() -> None:
    wound_type = type(rules.demo_sheet("severite").wounds[0])
    fields = {"grade": "grave", "id": 3, "notches": 2, "body_part": "tete"}
    fast = construct(wound_type, **fields)
    _same(fast, wound_type.model_construct(**fields))
    assert fast.model_fields_set == set(fields)
    timer = construct(rules.model.ConditionTimer, condition="aveugle", ends_at=60)
    _same(timer, rules.model.ConditionTimer.model_construct(condition="aveugle", ends_at=60))
    assert timer.model_fields_set == {"condition", "ends_at"}


def test_copies_refuse_names_the_model_lacks() -> None:
    sheet = rules.demo_sheet("d20")
    with pytest.raises(AttributeError, match="no field"):
        evolve(sheet, curent=3)
    with pytest.raises(AttributeError, match="unknown"):
        construct(rules.model.ConditionTimer, condition="aveugle", nope=1)
    with pytest.raises(AttributeError, match="missing"):
        construct(rules.model.ConditionTimer, ends_at=1)
