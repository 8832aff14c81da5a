"""What a rule table's schema says of each key: its French description and the value it expects.

Each system's ``table.py`` describes its keys for the game master with a French docstring under each
field (the convention pydantic's ``use_attribute_docstrings`` reads). They are read here, from the
source, only when an exported table or a message needs them: loading a table pays nothing for them.

``slot(model, path)`` finds what the schema declares at a place of a table (``saves.death_save_dice``,
``wounds.plaie.days``, ``trauma.tiers n° 2``); ``expected(slot)`` says in French what it accepts
(« un entier entre 1 et 100 », « une liste de 2 entiers », « vrai ou faux »).
"""

from __future__ import annotations

import ast
import functools
import inspect
import itertools
import textwrap
import types
import typing
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel
from pydantic.fields import FieldInfo

from rules.house.toml_text import Path, toml_value

_BOUNDS = ("ge", "gt", "le", "lt", "min_length", "max_length")


@dataclass(frozen=True)
class Slot:
    """What the schema declares at one place of a table: a type, its bounds, whether it may be left out,
    and the French description of the key (the nearest described field when the place is inside one)."""

    annotation: Any
    bounds: dict[str, Any] = field(default_factory=dict)
    optional: bool = False
    description: str = ""
    field: FieldInfo | None = None

    @property
    def model(self) -> type[BaseModel] | None:
        a = self.annotation
        return a if isinstance(a, type) and issubclass(a, BaseModel) else None


# --------------------------------------------------------------------------------------------------
# Descriptions: French docstrings under the fields of each table model
# --------------------------------------------------------------------------------------------------


@functools.cache
def field_docs(model: type[BaseModel]) -> dict[str, str]:
    """The French description of each field of ``model``: its ``description``, else the docstring
    written under it in the source (inherited fields included)."""
    docs: dict[str, str] = {}
    for klass in reversed(model.__mro__):
        if not (isinstance(klass, type) and issubclass(klass, BaseModel)) or klass is BaseModel:
            continue
        docs.update(_docstrings(klass))
    for name, info in model.model_fields.items():
        if info.description:
            docs[name] = info.description
    return {name: docs[name] for name in model.model_fields if docs.get(name)}


def _docstrings(klass: type) -> dict[str, str]:
    try:
        source = textwrap.dedent(inspect.getsource(klass))
    except (OSError, TypeError):  # no source at hand: the keys go without their description
        return {}
    tree = ast.parse(source)
    if not tree.body or not isinstance(tree.body[0], ast.ClassDef):
        return {}
    body = tree.body[0].body
    found: dict[str, str] = {}
    for node, after in itertools.pairwise(body):
        if (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and isinstance(after, ast.Expr)
            and isinstance(after.value, ast.Constant)
            and isinstance(after.value.value, str)
        ):
            found[node.target.id] = inspect.cleandoc(after.value.value)
    return found


# --------------------------------------------------------------------------------------------------
# Walking a schema
# --------------------------------------------------------------------------------------------------


def _bounds_of(metadata: typing.Iterable[Any], into: dict[str, Any]) -> None:
    for item in metadata:
        if isinstance(item, FieldInfo):
            _bounds_of(item.metadata, into)
            continue
        for name in _BOUNDS:
            value = getattr(item, name, None)
            if value is not None:
                into.setdefault(name, value)


def unwrap(annotation: Any, bounds: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any], bool]:
    """``Annotated[X, …]`` and ``X | None`` → ``X``, the bounds met on the way, whether None is allowed."""
    bounds = dict(bounds or {})
    optional = False
    while True:
        origin = typing.get_origin(annotation)
        if origin is typing.Annotated:
            args = typing.get_args(annotation)
            _bounds_of(args[1:], bounds)
            annotation = args[0]
        elif origin in (typing.Union, types.UnionType):
            members = [a for a in typing.get_args(annotation) if a is not type(None)]
            if len(members) != len(typing.get_args(annotation)):
                optional = True
            if len(members) != 1:
                return annotation, bounds, optional
            annotation = members[0]
        else:
            return annotation, bounds, optional


def _field_slot(model: type[BaseModel], name: str) -> Slot | None:
    info = model.model_fields.get(name)
    if info is None:
        return None
    bounds: dict[str, Any] = {}
    _bounds_of(info.metadata, bounds)
    annotation, bounds, optional = unwrap(info.annotation, bounds)
    return Slot(
        annotation,
        bounds,
        optional or not info.is_required(),
        field_docs(model).get(name, ""),
        info,
    )


def slot(model: type[BaseModel], path: Path) -> Slot | None:
    """What ``model`` declares at ``path`` (``None`` for a place the schema does not know)."""
    current = Slot(model)
    for part in path:
        annotation = current.annotation
        sub: Slot | None
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            sub = _field_slot(annotation, part) if isinstance(part, str) else None
        else:
            origin = typing.get_origin(annotation)
            args = typing.get_args(annotation)
            if origin is dict and len(args) == 2:
                inner, bounds, optional = unwrap(args[1])
                sub = Slot(inner, bounds, optional, current.description)
            elif origin is tuple and isinstance(part, int):
                if len(args) == 2 and args[1] is Ellipsis:
                    element = args[0]
                elif part < len(args):
                    element = args[part]
                else:
                    return None
                inner, bounds, optional = unwrap(element)
                sub = Slot(inner, bounds, optional, current.description)
            else:
                return None
        if sub is None:
            return None
        current = sub
    return current


def known_keys(model: type[BaseModel], path: Path) -> list[str]:
    """The keys the schema knows at ``path`` (a table's fields), for « vouliez-vous dire … ? »."""
    found = slot(model, path)
    if found is None or found.model is None:
        return []
    return list(found.model.model_fields)


def models_in(model: type[BaseModel]) -> Iterator[type[BaseModel]]:
    """Every table model reachable from ``model`` (itself first), each once."""
    seen: set[type[BaseModel]] = set()
    pending = [model]
    while pending:
        current = pending.pop(0)
        if current in seen:
            continue
        seen.add(current)
        yield current
        for info in current.model_fields.values():
            pending.extend(_models_of(info.annotation))


def _models_of(annotation: Any) -> Iterator[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        yield annotation
        return
    for arg in typing.get_args(annotation):
        yield from _models_of(arg)


# --------------------------------------------------------------------------------------------------
# What a key expects, in French
# --------------------------------------------------------------------------------------------------


def _number(value: Any) -> str:
    return str(value)


def _range(bounds: dict[str, Any], integer: bool, plural: bool) -> str:
    low = bounds.get("ge")
    high = bounds.get("le")
    if integer:
        if low is None and bounds.get("gt") is not None:
            low = bounds["gt"] + 1
        if high is None and bounds.get("lt") is not None:
            high = bounds["lt"] - 1
    if low is not None and high is not None:
        return f" entre {_number(low)} et {_number(high)}"
    if low is not None:
        if low == 0:
            return " positifs ou nuls" if plural else " positif ou nul"
        return f" d'au moins {_number(low)}"
    if high is not None:
        if high == 0:
            return " négatifs ou nuls" if plural else " négatif ou nul"
        return f" d'au plus {_number(high)}"
    if bounds.get("gt") is not None:
        gt = bounds["gt"]
        if gt == 0:
            return " strictement positifs" if plural else " strictement positif"
        return f" strictement supérieur{'s' if plural else ''} à {_number(gt)}"
    if bounds.get("lt") is not None:
        return f" strictement inférieur{'s' if plural else ''} à {_number(bounds['lt'])}"
    return ""


def _length(bounds: dict[str, Any], unit: str) -> str:
    low, high = bounds.get("min_length"), bounds.get("max_length")
    if low and high:
        return f" (de {low} à {high} {unit})"
    if high:
        return f" (au plus {high} {unit})"
    if low:
        return f" (au moins {low} {unit[:-1] if low == 1 and unit.endswith('s') else unit})"
    return ""


def _noun(annotation: Any, bounds: dict[str, Any], plural: bool) -> str:
    """``un entier entre 1 et 6`` / ``entiers entre 1 et 6`` (no article in the plural)."""
    annotation, bounds, _ = unwrap(annotation, bounds)
    s = "s" if plural else ""
    if annotation is bool:
        return "vrai ou faux (true ou false)" if not plural else "valeurs vrai ou faux"
    if annotation is int:
        return ("" if plural else "un ") + f"entier{s}" + _range(bounds, True, plural)
    if annotation is float:
        return ("" if plural else "un ") + f"nombre{s}" + _range(bounds, False, plural)
    if annotation is str:
        return ("" if plural else "un ") + f"texte{s} entre guillemets" + _length(bounds, "caractères")
    if typing.get_origin(annotation) is Literal:
        values = ", ".join(toml_value(v) for v in typing.get_args(annotation))
        return f"l'une des valeurs {values}" if not plural else f"valeurs parmi {values}"
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            inner = _noun(args[0], {}, True)
            return ("" if plural else "une ") + f"liste{s} {_of(inner)}" + _length(bounds, "éléments")
        parts = [_noun(a, {}, False) for a in args]
        if len(set(parts)) == 1:
            inner = _noun(args[0], {}, True)
            return ("" if plural else "une ") + f"liste{s} de {len(args)} {inner}"
        return ("" if plural else "une ") + f"liste{s} de {len(args)} valeurs (" + ", puis ".join(parts) + ")"
    if origin is dict:
        value = unwrap(args[1])[0] if len(args) == 2 else None
        if isinstance(value, type) and issubclass(value, BaseModel):
            return ("" if plural else "une ") + f"table{s} de tables"
        inner = _noun(args[1], {}, False) if len(args) == 2 else "une valeur"
        return ("" if plural else "une ") + f"table{s} où chaque clé vaut {inner}"
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return ("" if plural else "une ") + f"table{s}"
    return "une valeur" if not plural else "valeurs"


def _of(plural_noun: str) -> str:
    """« de » before a plural noun phrase, elided before a vowel (« d'entiers », « de textes »)."""
    return f"d'{plural_noun}" if plural_noun[:1] in "aeiouyéèêh" else f"de {plural_noun}"


def expected(found: Slot) -> str:
    """What ``found`` accepts, in French: « un entier entre 1 et 100 », « une liste de 2 entiers »…"""
    return _noun(found.annotation, found.bounds, False)
