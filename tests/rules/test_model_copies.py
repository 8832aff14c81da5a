"""The models the rules make without validation (``evolve``, ``with_values``, ``construct``: every action makes
one) are indistinguishable from pydantic's own (issue 15: a faster way to make them must pass these first)."""

from __future__ import annotations

import copy
import pickle
import sys
from typing import Any

import pydantic
import pytest

import rules
from rules import model
from rules.model import construct, evolve, with_values
from rules.systems.severite.sheet import Wound


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


def _python_calls(make: Any) -> list[str]:
    """The Python functions that run while ``make()`` runs (``sys.setprofile``'s ``call`` events)."""
    seen: list[str] = []

    def profile(frame: Any, event: str, arg: Any) -> None:
        if event == "call":
            seen.append(frame.f_code.co_name)

    sys.setprofile(profile)
    try:
        make()
    finally:
        sys.setprofile(None)
    return seen


def test_a_copy_stores_its_slots_without_a_python_call() -> None:
    """Issue 15, session 9: ``evolve``, ``with_values`` and ``construct`` make the model as a ``_Blank`` (plain
    slot stores) then give it its class. ``_Blank`` must keep ``object``'s two attribute hooks (they share one
    slot of the type: with one of pydantic's left, every store would go through a Python call, dearer than before;
    that happened once) and the very layout of the models (else ``__class__`` is refused)."""
    assert model._Blank.__setattr__ is object.__setattr__ and model._Blank.__delattr__ is object.__delattr__
    assert model._Blank.__init__ is object.__init__  # ``_Blank()`` runs no validation
    assert model._Blank.__basicsize__ == rules.model.Frozen.__basicsize__
    sheet = rules.demo_sheet("severite")
    wound = construct(Wound, id=1, grade="legere", notches=1)
    assert _python_calls(lambda: evolve(sheet, clock=6)) == ["<lambda>", "evolve"]
    assert _python_calls(lambda: with_values(sheet, dict(sheet.__dict__))) == ["<lambda>", "with_values"]
    timer = rules.model.ConditionTimer
    construct(timer, condition="aveugle")  # its template made once
    assert _python_calls(lambda: construct(timer, condition="aveugle")) == ["<lambda>", "construct"]
    assert type(evolve(wound, notches=2)) is type(wound)
    # Not a model of the app: never built, no field.
    assert not model._Blank.__dict__.get("__pydantic_complete__") and model._Blank.__pydantic_fields__ == {}
