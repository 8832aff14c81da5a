"""What importing the rules and opening a sheet costs, guarded by structure, never by a time (issue 15:
the rules' own share of a start).

A pydantic model's validator is built when its class is made unless ``defer_build``: the bases of every
rules model (``rules.model.Frozen``, ``rules.ruleset.Table``) defer it, so ``import rules`` builds none,
loading a system builds none (but the models a class makes an instance of as a field's default), and
opening a sheet builds its system's sheet model and rule-table model, whose validators hold the nested
models: a nested model, a base, an action are built only when used on their own. ``rules.table`` (the GM
table's summaries) is imported when first asked for; the shipped tables are read without
``importlib.resources``. Every model validates and serialises exactly as before (the JSON schema of
``docs/file-format.md`` is checked by ``tests/files``).
"""

from __future__ import annotations
import __future__

import importlib.resources
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pydantic
import pytest

import rules
from rules.ruleset import shipped_text

ROOT = Path(__file__).resolve().parents[2]

# Run in a fresh process, as a start has it: pydantic's plugin loader replaced by the app's stand-in
# (``sheet_app.app.skip_plugin_loader``: no plugin, no ``importlib.metadata``).
CODE = r"""
import json, sys, types

stand_in = types.ModuleType("pydantic.plugin._loader")
stand_in.get_plugins = lambda: ()
sys.modules[stand_in.__name__] = stand_in

import pydantic
import dataclasses

made = []  # the dataclasses the rules make (each execs its generated methods: ~4 M instructions)
_process_class = dataclasses._process_class


def _logged(cls, *args, **kwargs):
    if cls.__module__.split(".")[0] == "rules":
        made.append(cls.__module__ + "." + cls.__qualname__)
    return _process_class(cls, *args, **kwargs)


dataclasses._process_class = _logged


def built():
    found, todo = set(), [pydantic.BaseModel]
    while todo:
        for sub in todo.pop().__subclasses__():
            todo.append(sub)
            if sub.__dict__.get("__pydantic_complete__"):
                found.add(sub.__module__ + "." + sub.__qualname__)
    return sorted(found)


import rules

report = {"import": built(), "modules": sorted(m for m in sys.modules if m.startswith(("rules.", "importlib.")))}
system_id = sys.argv[1]
rules.system(system_id)
report["system"] = built()
table = rules.ruleset(system_id)
report["table"] = built()
data = json.loads(rules.sheet_to_json(rules.demo_sheet(system_id)))
rules.sheet_from_data(data, table, strict=True)
report["sheet"] = built()
report["resources"] = "importlib.resources" in sys.modules
sheet = rules.sheet_from_data(data, table)
rules.derive(sheet, table), rules.describe(system_id, table)
rules.sheet_odds(sheet, table), rules.countdowns(sheet, table)
report["dataclasses"] = made
report["opened"] = sorted(m for m in sys.modules if m.startswith("rules."))
print(json.dumps(report))
"""

# What opening a sheet builds, per system: its sheet model and its rule table's model, and the models of
# which a class makes an instance as a field's default (Douaratil's ``magic: Pool = Pool()``,
# ``temporary: TemporaryRules = TemporaryRules()``).
DEFAULTS = {
    "douaratil": {"rules.systems.douaratil.sheet.Pool", "rules.systems.douaratil.table.TemporaryRules"},
}
OPENED = {
    "douaratil": {"rules.systems.douaratil.sheet.DouaratilSheet", "rules.systems.douaratil.table.DouaratilRules"},
    "d20": {"rules.systems.d20.sheet.D20Sheet", "rules.systems.d20.table.D20Rules"},
    "segments": {"rules.systems.segments.sheet.SegmentsSheet", "rules.systems.segments.table.SegmentsRules"},
    "severite": {"rules.systems.severite.sheet.SeveriteSheet", "rules.systems.severite.table.SeveriteRules"},
}


def _report(system_id: str) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-c", CODE, system_id], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-3000:]
    report: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return report


def test_the_systems_are_the_four_listed_here() -> None:
    assert set(OPENED) == set(rules.SYSTEMS)


@pytest.mark.parametrize("system_id", sorted(OPENED))
def test_opening_a_sheet_builds_its_sheet_and_table_models_only(system_id: str) -> None:
    report = _report(system_id)
    assert report["import"] == []  # no model of the core, no action, no house-rule file's header
    defaults = DEFAULTS.get(system_id, set())
    assert set(report["system"]) == defaults  # loading a system: its field defaults alone
    table_model = {m for m in OPENED[system_id] if ".table." in m}
    assert set(report["table"]) == defaults | table_model
    assert set(report["sheet"]) == defaults | OPENED[system_id]


@pytest.mark.parametrize("system_id", sorted(OPENED))
def test_opening_a_sheet_makes_no_dataclass_and_imports_no_house_rules_module(system_id: str) -> None:
    """A dataclass execs the source of its methods when its class is made (~4 M instructions each, issue 15):
    the rules' records are ``rules.record.Record``s. The modules of ``rules.house`` (differences,
    explanations, export, problems of a GM's file) load when house rules are first used."""
    report = _report(system_id)
    assert report["dataclasses"] == []
    assert [m for m in report["opened"] if m.startswith("rules.house.")] == []


def test_the_house_rules_modules_come_when_asked_for() -> None:
    """``rules.house``'s modules and the names it exports from them are theirs, however reached."""
    differences = importlib.import_module("rules.house.differences")
    toml_text = importlib.import_module("rules.house.toml_text")
    assert rules.house.differences is differences and rules.house.toml_text is toml_text
    assert rules.Difference is rules.house.Difference is differences.Difference
    assert rules.house.ABSENT is differences.ABSENT and rules.house.key_text is toml_text.key_text
    for name in ("explain", "export", "problems", "schema"):
        assert getattr(rules.house, name) is importlib.import_module(f"rules.house.{name}")
    from rules.house import ABSENT, Difference, explain

    assert (ABSENT, Difference, explain) == (differences.ABSENT, differences.Difference, rules.house.explain)
    with pytest.raises(AttributeError, match=r"^module 'rules.house' has no attribute 'nope'$"):
        rules.house.nope  # noqa: B018


def test_import_rules_leaves_the_gm_table_and_importlib_resources_out() -> None:
    report = _report("douaratil")
    assert "rules.table" not in report["modules"]
    assert not any(m.startswith("importlib.resources") for m in report["modules"])
    assert report["resources"] is False  # reading the shipped table did not import it either


def test_the_gm_table_module_comes_when_asked_for() -> None:
    """``rules.table``, ``rules.Summary`` and ``rules.summarise`` are the module's own, however reached."""
    table = importlib.import_module("rules.table")
    assert rules.table is table
    assert rules.Summary is table.Summary and rules.summarise is table.summarise
    from rules import Summary, summarise
    from rules import table as again

    assert (again, Summary, summarise) == (table, table.Summary, table.summarise)
    with pytest.raises(AttributeError, match=r"^module 'rules' has no attribute 'nope'$"):
        rules.nope  # noqa: B018


@pytest.mark.parametrize("system_id", sorted(OPENED))
def test_the_shipped_table_is_read_as_importlib_resources_reads_it(system_id: str) -> None:
    text, source = shipped_text(system_id)
    ref = importlib.resources.files("resources").joinpath("rulesets", f"{system_id}.toml")
    assert text == ref.read_text(encoding="utf-8")
    assert source == f"resources/rulesets/{system_id}.toml"


def _models(cls: type[pydantic.BaseModel]) -> list[type[pydantic.BaseModel]]:
    found = []
    for sub in cls.__subclasses__():
        found += [sub, *_models(sub)]
    return found


def test_a_nested_model_used_on_its_own_is_built_then_and_refuses_as_before() -> None:
    """A model deferred (a wound, a condition of a rule table) validates and refuses when first used on its
    own, with pydantic's same error."""
    sheet_module = importlib.import_module("rules.systems.douaratil.sheet")
    table_module = importlib.import_module("rules.systems.douaratil.table")
    wound = sheet_module.Wound.model_validate({"id": 3, "type": "entaille"})
    assert wound.model_dump() == {
        "id": 3,
        "type": "entaille",
        "severity": "minor",
        "rests": 0,
        "bleeding": False,
        "note": "",
    }
    with pytest.raises(pydantic.ValidationError) as caught:
        table_module.WoundType.model_validate(
            {"label": "L", "days": 1, "limitation": "x", "will_dd": 10, "bleeding_dice": [1, 4]}
        )
    assert "reopen_dd" in str(caught.value)
    assert sheet_module.Wound.__pydantic_complete__ and table_module.WoundType.__pydantic_complete__


def test_every_rules_model_defers_its_build() -> None:
    """The bases say it once for all: a model of the rules that would build its validator when its class is
    made would cost every start that imports it."""
    for system_id in rules.SYSTEMS:
        rules.system(system_id)
    importlib.import_module("rules.house")
    models = [m for m in _models(pydantic.BaseModel) if m.__module__.split(".")[0] == "rules"]
    assert len(models) > 100
    assert [m for m in models if not m.model_config.get("defer_build")] == []


def test_a_model_class_lacks_a_name_as_any_class_does() -> None:
    """``rules.model`` takes pydantic's class-level ``__getattr__`` away (it served private attributes alone,
    which no model of the app has: ``test_apply_fast_paths``); pydantic asked it every name a class lacks while
    making each model class. A model class's fields, methods and pydantic's own class attributes read as before."""
    from pydantic._internal._model_construction import ModelMetaclass

    assert "__getattr__" not in vars(ModelMetaclass)
    sheet_type = rules.system("douaratil").sheet_type
    with pytest.raises(AttributeError, match="nope"):
        sheet_type.nope  # noqa: B018
    assert getattr(sheet_type, "nope", 5) == 5 and not hasattr(sheet_type, "nope")
    assert "current" in sheet_type.model_fields and sheet_type.__private_attributes__ == {}
    assert sheet_type.model_validate(rules.sheet_to_data(rules.demo_sheet("douaratil"))).system == "douaratil"


# The modules that declare pydantic models (a system's rule table, sheet and actions; the shared actions): their
# annotations are objects, not text. Under ``from __future__ import annotations`` pydantic compiles and
# evaluates every field's annotation text when it makes each model class (~15 M instructions of a system's
# first use, issue 15).
DECLARATIONS = ["rules.actions"] + [
    f"rules.systems.{system_id}.{part}" for system_id in OPENED for part in ("table", "sheet", "actions")
]


@pytest.mark.parametrize("name", DECLARATIONS)
def test_model_declarations_keep_their_annotations_as_objects(name: str) -> None:
    module = importlib.import_module(name)
    assert getattr(module, "annotations", None) is not __future__.annotations
    models = [m for m in vars(module).values() if isinstance(m, type) and issubclass(m, pydantic.BaseModel)]
    models = [m for m in models if m.__module__ == name]
    assert models
    for model in models:
        assert not any(isinstance(a, str) for a in model.__annotations__.values()), model
