"""The rules' read-only records (``rules.record.Record``: what the UI is told of a system, a derived value, a
roll's chance, a countdown, a system, house rules) behave as the frozen dataclasses they were (issue 15: a
dataclass execs its generated methods when its class is made, ~4 M instructions each at every start)."""

import copy
import dataclasses
import importlib
import inspect
import pickle

import pytest

import rules
from rules.record import Record


def _records() -> list[type[Record]]:
    for system_id in rules.SYSTEMS:
        rules.system(system_id)
    importlib.import_module("rules.systems.d20.derive")
    found, todo = [], [Record]
    while todo:
        for sub in todo.pop().__subclasses__():
            found.append(sub)
            todo.append(sub)
    return found


def test_every_record_names_its_fields_in_the_order_of_its_init() -> None:
    """``__slots__`` are the fields, in order: ``repr``, equality, ``match`` and ``replace`` read them (a linter
    that sorts ``__slots__`` would mix them up: each says ``noqa: RUF023``)."""
    records = _records()
    names = {f"{r.__module__}.{r.__qualname__}" for r in records}
    assert {
        "rules.info.SystemInfo",
        "rules.info.FieldInfo",
        "rules.model.Explained",
        "rules.odds.Chance",
        "rules.systems.System",
        "rules.house.HouseRules",
        "rules.systems.d20.derive.Figures",
    } <= names
    for record in records:
        params = list(inspect.signature(record.__init__).parameters)[1:]
        assert params == list(record.__slots__), record
        assert record.__match_args__ == record.__slots__
        assert not any(hasattr(base, "__dict__") and "__dict__" in vars(base) for base in record.__mro__[:-1])


def test_a_record_reads_compares_and_hashes_as_its_dataclass_did() -> None:
    field = rules.FieldInfo("level", "Niveau", "int", minimum=1, maximum=100)
    assert repr(field) == (
        "FieldInfo(name='level', label='Niveau', kind='int', group='identity', minimum=1, maximum=100, "
        "choices=(), tooltip='')"
    )
    same = rules.FieldInfo("level", "Niveau", "int", "identity", 1, 100)
    assert field == same and hash(field) == hash(same) and not field != same
    assert hash(field) == hash(("level", "Niveau", "int", "identity", 1, 100, (), ""))
    assert field != rules.FieldInfo("level", "Niveau", "int", maximum=99)
    # Another class with the same fields is not equal, nor is a tuple of them.
    assert rules.ChoiceInfo("a", "b") != rules.HealthStateInfo("a", "b", "c")
    assert rules.ChoiceInfo("a", "b") != ("a", "b")
    assert rules.ChoiceInfo("a", "b").__eq__(("a", "b")) is NotImplemented
    assert len({rules.ChoiceInfo("a", "b"), rules.ChoiceInfo("a", "b"), rules.ChoiceInfo("a", "c")}) == 2


def test_a_record_cannot_be_changed_but_replaced() -> None:
    field = rules.FieldInfo("name", "Nom", "text")
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'label'"):
        field.label = "x"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot delete field 'label'"):
        del field.label
    with pytest.raises(AttributeError):
        field.nope = 1  # type: ignore[attr-defined]
    other = field.replace(label="Prénom")
    assert (other.label, other.name, field.label) == ("Prénom", "name", "Nom")
    with pytest.raises(TypeError, match="nope"):
        field.replace(nope=1)
    info = rules.describe("d20")
    assert info.actions[0] is rules.Edit and info.replace(round_unit="turn").round_unit == "turn"


def test_a_record_is_copied_pickled_and_matched() -> None:
    odds = rules.sheet_odds(rules.demo_sheet("d20"))
    assert odds.rolls
    assert pickle.loads(pickle.dumps(odds)) == odds
    assert copy.deepcopy(odds) == odds and copy.copy(odds) == odds
    match odds.rolls[0]:
        case rules.Chance(roll_id, label):
            assert (roll_id, label) == (odds.rolls[0].id, odds.rolls[0].label)
        case _:
            pytest.fail("a chance matches by position")


def test_house_rules_are_equal_whatever_their_source() -> None:
    """``source`` says where house rules were read from, for messages: not part of what they are."""
    table = rules.ruleset("d20")
    one = rules.HouseRules("d20", "Brume", table, "brume.toml")
    other = rules.HouseRules("d20", "Brume", table, "dans le document")
    assert one == other
    assert hash(rules.HouseRules("d20", "B", ("x",), "a")) == hash(rules.HouseRules("d20", "B", ("x",), "b"))
    assert one != rules.HouseRules("d20", "Brume 2", table, "brume.toml")
    assert repr(one).startswith("HouseRules(system='d20', title='Brume', table=D20Rules(") and repr(one).endswith(
        "source='brume.toml')"
    )
