"""Strict reading of data from a file: JSON types exactly as a model says (issue 16, item 15).

A sheet model validates leniently (an ``Edit`` typed by a user may say « 3 »), but a file is read
strictly: ``true``, ``"3"``, ``3.0`` or ``1e-400`` are no integer there. pydantic's own strict mode
cannot do it for the systems' models (a model with a ``before`` validator hands its fields Python
data, and strict Python refuses a JSON list for a ``tuple``), so each model gets a **type twin**: the
same fields and nesting, only the types that lenient validation would coerce (integers, booleans,
numbers, non-text literals, and the lists and models holding them), no validator, no constraint,
strict. Data is checked against the twin (pydantic, in one pass) before the model validates it.
The twins are typed dicts (no model is built: the check costs a fraction of the validation).
"""

from __future__ import annotations

import collections.abc
import functools
import operator
import types
import typing
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, TypeAdapter
from typing_extensions import TypedDict

_COERCED = (int, bool, float)


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
    twin_dict.__pydantic_config__ = ConfigDict(extra="ignore", strict=True)
    return twin_dict


def type_twin(model: type[BaseModel]) -> Any:
    """The strict type twin of ``model`` (cached): a typed dict, to validate with ``strict=True``
    (``TypeAdapter(type_twin(m)).validate_python(data, strict=True)``, or as part of a bigger type):
    pydantic's ``ValidationError`` (same locations as the model's) where a type is not exact."""
    return _twin_dict(model)


@functools.cache
def twin_adapter(model: type[BaseModel]) -> TypeAdapter[Any]:
    """``TypeAdapter(type_twin(model))``, cached."""
    return TypeAdapter(_twin_dict(model))
