"""Strict reading of data from a file: JSON types exactly as a model says (issue 16, item 15).

A sheet model validates leniently (an ``Edit`` typed by a user may say « 3 »), but a file is read
strictly: ``true``, ``"3"``, ``3.0`` or ``1e-400`` are no integer there. pydantic's own strict mode
cannot do it for the systems' models (a model with a ``before`` validator hands its fields Python
data, and strict Python refuses a JSON list for a ``tuple``), so each model gets a **type twin**: the
same fields and nesting, only the types that lenient validation would coerce (integers, booleans,
numbers, non-text literals, and the lists and models holding them), no validator, no constraint,
strict. Data is checked against the twin (pydantic, in one pass) before the model validates it.
The twins are typed dicts (no model is built: the check costs a fraction of the validation).

A twin's validator (``twin_validator``) is made from its core schema written here directly, not by
pydantic's schema generation (``TypeAdapter``: ~13 M instructions for a Douaratil sheet's twin, at
the first read of a sheet, before the window's first paint: issue 15): the same schema pydantic
generates for the typed dict (``tests/rules/test_strict_twin.py`` compares them for every system), so
the same answers and the same errors. A twin holding anything else than what the systems' twins hold
(integers, booleans, numbers, lists, texts-keyed dicts, typed dicts, « or null ») is left to pydantic.
"""

from __future__ import annotations

import collections.abc
import functools
import operator
import types
import typing
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, TypeAdapter
from pydantic_core import CoreSchema, SchemaValidator, core_schema
from typing_extensions import TypedDict, is_typeddict

_COERCED = (int, bool, float)
_TWIN_CONFIG = ConfigDict(extra="ignore", strict=True)  # every twin typed dict's


def _union(parts: list[Any]) -> Any:
    return functools.reduce(operator.or_, parts)


def _generic(origin: Any, *params: Any) -> Any:
    """``list[item]`` or ``dict[key, value]`` of types known only when the program runs."""
    return origin[params if len(params) > 1 else params[0]]


def _twin_of(annotation: Any) -> Any:
    """The twin of a field type, or None when lenient validation coerces nothing there."""
    if annotation in _COERCED:
        return annotation
    if annotation is Any or annotation is None or annotation is type(None):
        return None
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is None:
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            return _twin_dict(annotation)
        return None  # str, and types lenient validation does not coerce from JSON data
    if origin is Annotated:
        return _twin_of(args[0])
    if origin is Literal:
        return annotation if any(not isinstance(a, str) for a in args) else None
    if origin in (tuple, list, set, frozenset, collections.abc.Sequence):
        twins = [_twin_of(a) for a in args if a is not Ellipsis]
        if all(t is None for t in twins):
            return None  # lenient and strict agree on a list of texts
        return _generic(list, _union([t if t is not None else Any for t in twins]))
    if origin in (typing.Union, types.UnionType):
        twins = [_twin_of(a) for a in args]
        if all(t is None for t in twins):
            return None
        # A member that needs no check accepts anything its own way: keep it as it is.
        return _union([t if t is not None else (a if _plain(a) else Any) for t, a in zip(twins, args, strict=True)])
    if origin is dict:
        value = _twin_of(args[1]) if len(args) == 2 else None
        return None if value is None else _generic(dict, str, value)
    return None


def _plain(annotation: Any) -> bool:
    """A type strict validation of JSON data handles as lenient validation does (texts, None)."""
    return annotation in (str, type(None)) or (
        typing.get_origin(annotation) is Literal and all(isinstance(a, str) for a in typing.get_args(annotation))
    )


@functools.cache
def _twin_dict(model: type[BaseModel]) -> Any:
    """The typed dict twin of ``model``: its fields whose types lenient validation would coerce."""
    fields: dict[str, Any] = {}
    for name, info in model.model_fields.items():
        twin = _twin_of(info.annotation)
        if twin is None:
            continue
        key = info.validation_alias if isinstance(info.validation_alias, str) else (info.alias or name)
        fields[key] = twin | None  # missing and null are the model's own business
    make: Any = TypedDict  # built from a model known only when the program runs
    twin_dict = make(f"{model.__name__}Types", fields, total=False)
    twin_dict.__pydantic_config__ = _TWIN_CONFIG
    return twin_dict


def type_twin(model: type[BaseModel]) -> Any:
    """The strict type twin of ``model`` (cached): a typed dict, to validate with ``strict=True``
    (``TypeAdapter(type_twin(m)).validate_python(data, strict=True)``, or as part of a bigger type):
    pydantic's ``ValidationError`` (same locations as the model's) where a type is not exact."""
    return _twin_dict(model)


class _NotDirect(Exception):
    """A twin type the direct schema below does not write (pydantic's own schema generation does it)."""


_SCALARS: dict[Any, Any] = {int: core_schema.int_schema, bool: core_schema.bool_schema, float: core_schema.float_schema}


def _core_of(twin: Any) -> CoreSchema:
    """The core schema pydantic generates for the twin type ``twin`` (``TypeAdapter(twin).core_schema``,
    its typed dicts written in place rather than by reference); ``_NotDirect`` for a type not written here."""
    scalar = _SCALARS.get(twin)
    if scalar is not None:
        return scalar()  # type: ignore[no-any-return]
    if is_typeddict(twin):
        return _core_dict(twin)
    origin = typing.get_origin(twin)
    args = typing.get_args(twin)
    if origin in (typing.Union, types.UnionType) and len(args) == 2 and args[1] is type(None):
        return core_schema.nullable_schema(_core_of(args[0]))
    if origin is list and len(args) == 1:
        return core_schema.list_schema(_core_of(args[0]))
    if origin is dict and len(args) == 2 and args[0] is str:
        return core_schema.dict_schema(core_schema.str_schema(), _core_of(args[1]))
    raise _NotDirect(twin)


def _core_dict(twin: Any) -> CoreSchema:
    """A twin typed dict's schema (``total=False``, extra keys ignored, strict), as pydantic writes it."""
    if twin.__required_keys__ or getattr(twin, "__pydantic_config__", None) != _TWIN_CONFIG:
        raise _NotDirect(twin)
    name = twin.__name__
    fields = {
        key: core_schema.typed_dict_field(_core_of(annotation), required=False, metadata={})
        for key, annotation in twin.__annotations__.items()
    }
    return core_schema.typed_dict_schema(
        fields,
        cls=twin,
        computed_fields=[],
        extra_behavior="ignore",
        config=core_schema.CoreConfig(title=name, extra_fields_behavior="ignore", strict=True),
    )


def _twin_validator(twin: Any) -> Any:
    """A validator of ``twin`` (a twin type): from its core schema written directly, else pydantic's."""
    try:
        schema = _core_of(twin)
    except _NotDirect:
        return TypeAdapter(twin).validator
    return SchemaValidator(schema)


@functools.cache
def twin_validator(model: type[BaseModel]) -> Any:
    """The validator of ``model``'s twin (cached): ``twin_validator(m).validate_python(data, strict=True)``
    answers as ``TypeAdapter(type_twin(m))`` does, without pydantic's schema generation."""
    return _twin_validator(_twin_dict(model))


@functools.cache
def twins_validator(model: type[BaseModel]) -> Any:
    """The validator of a list of ``model``'s twins (cached), as ``TypeAdapter(list[type_twin(m)])``."""
    return _twin_validator(list[_twin_dict(model)])  # type: ignore[misc]


# --- The twin's check and the model's validation in one pass (a table's sheets, issue 15) ----------
#
# The twin exists because a model validates leniently: only its integers, booleans and numbers (and
# non-text literals) are coerced from other JSON types. The same model's core schema with each of those
# leaves made strict (``"strict": True`` on its ``int``, ``bool`` and ``float`` schemas; containers and
# texts left as they are, so a JSON list is still a tuple) refuses exactly what the twin refuses, in the
# model's own pass: the systems' ``before`` validators only add missing fields (copies of given ones,
# or exact integers from the rule table) or split a text into texts, so a leaf that reaches its strict
# schema holds either the file's own value or an exact one. Accepted, it gives the model's own sheets
# (an exact value validates to itself). ``tests/rules/test_strict_twin.py`` holds the two ways to the
# same answers on every system's sheets and their mutations.

_STRICT_LEAVES = frozenset({"int", "bool", "float"})
# The schema kinds the systems' sheet models are made of; any other kind: the twin's way (None below).
_PLAIN_KINDS = frozenset(
    {
        "definitions",
        "definition-ref",
        "list",
        "tuple",
        "model",
        "model-fields",
        "model-field",
        "default",
        "nullable",
        "function-before",
        "function-after",
        "str",
        "literal",
    }
)
# The keys of a schema that hold schemas (every other key is kept as it is: defaults, functions, classes).
_SCHEMA_KEYS = frozenset({"schema", "items_schema", "definitions", "fields"})


def _strict_leaves(node: Any, models: set[Any]) -> Any:
    """A copy of the core schema ``node`` with its integers, booleans and numbers strict (the classes of
    its models added to ``models``); ``_NotDirect`` for a kind of schema whose lenient validation may
    coerce otherwise (an enum, a number literal…)."""
    if type(node) is list:
        return [_strict_leaves(item, models) for item in node]
    kind = node.get("type")
    if kind == "model-fields":
        fields = {name: _strict_leaves(field, models) for name, field in node["fields"].items()}
        return {**node, "fields": fields}
    if kind == "model":
        models.add(node["cls"])
    copy = {key: _strict_leaves(value, models) if key in _SCHEMA_KEYS else value for key, value in node.items()}
    if kind in _STRICT_LEAVES:
        copy["strict"] = True
    elif kind == "literal":
        if not all(isinstance(value, str) for value in node["expected"]):
            raise _NotDirect(node)
    elif kind not in _PLAIN_KINDS:
        raise _NotDirect(node)
    return copy


@functools.cache
def file_sheets_validator(model: type[BaseModel]) -> Any:
    """A list of ``model``'s sheets as a file holds them, validated in one pass: what
    ``twins_validator(model)`` (strict) then ``TypeAdapter(list[model])`` accept, with the same sheets;
    only whether it fails, not how, is the same (the twin's errors word the problems). None when the
    model holds a kind of schema not written here (then the twin's way)."""
    models: set[Any] = set()
    try:
        schema = _strict_leaves(TypeAdapter(list[model]).core_schema, models)  # type: ignore[valid-type]
    except _NotDirect:
        return None
    return _built_apart(schema, models)


def _built_apart(schema: CoreSchema, models: set[Any]) -> SchemaValidator:
    """``SchemaValidator(schema)``, each model of it built from ``schema`` itself: pydantic-core takes the
    validator a model class already has (lenient) for a ``model`` schema of it whenever the class's own
    ``__pydantic_complete__`` is true; it is false for the time of this build (one thread: the rules
    validate in the app's main thread), then as it was."""
    saved = [(cls, cls.__dict__.get("__pydantic_complete__")) for cls in models]
    try:
        for cls, _ in saved:
            type.__setattr__(cls, "__pydantic_complete__", False)
        return SchemaValidator(schema)
    finally:
        for cls, complete in saved:
            if complete is None:
                type.__delattr__(cls, "__pydantic_complete__")
            else:
                type.__setattr__(cls, "__pydantic_complete__", complete)
