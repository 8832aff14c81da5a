"""One-key changes of a system's shipped rule table, for the house-rule tests.

Every number and switch of the table is changed, one at a time, to the first other value the system's
schema accepts (an enum or a ``Literal``: its other choices; a switch: its opposite; a number: ±1, then
0 or 2). The house-rule tests then write each change into an exported table the way a GM would and
read it back. Words (labels, effects, dice texts) are left alone: they are not numbers or switches.
"""

from __future__ import annotations

import copy
import enum
import tomllib
import typing
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import rules
from rules.house.schema import slot
from rules.ruleset import shipped_text

Path = tuple[str | int, ...]


@dataclass(frozen=True)
class Mutant:
    system: str
    path: Path
    old: Any
    new: Any


def table_data(system_id: str) -> dict[str, Any]:
    """The shipped table of ``system_id`` as plain TOML data."""
    text, _ = shipped_text(system_id)
    return tomllib.loads(text)


def table_model(system_id: str) -> Any:
    return rules.system(system_id).ruleset_type


def leaves(data: Any, path: Path = ()) -> Iterator[tuple[Path, Any]]:
    """Every value of ``data`` that is neither a table nor a list, with its place."""
    if isinstance(data, dict):
        for key, value in data.items():
            yield from leaves(value, (*path, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from leaves(value, (*path, index))
    else:
        yield path, data


def with_value(data: Any, path: Path, value: Any) -> Any:
    """A copy of ``data`` with ``value`` at ``path``."""
    changed = copy.deepcopy(data)
    node = changed
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = value
    return changed


def _choices(model: Any, path: Path) -> list[Any] | None:
    found = slot(model, path)
    annotation = None if found is None else found.annotation
    if typing.get_origin(annotation) is typing.Literal:
        return list(typing.get_args(annotation))
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return [m.value for m in annotation]
    return None


def _candidates(value: Any, choices: list[Any] | None) -> list[Any]:
    if choices is not None:
        return [c for c in choices if c != value]
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, int):
        return [value + 1, value - 1, 0 if value else 2]
    if isinstance(value, float):
        return [value * 2, value / 2, value + 1]
    return []


def mutants_of(system_id: str) -> list[Mutant]:
    """Every one-key change of ``system_id``'s table that its schema accepts (one per key at most)."""
    model = table_model(system_id)
    data = table_data(system_id)
    found: list[Mutant] = []
    for path, value in leaves(data):
        choices = _choices(model, path)
        if isinstance(value, str) and choices is None:
            continue
        for new in _candidates(value, choices):
            try:
                model.model_validate(with_value(data, path, new))
            except ValueError:
                continue
            found.append(Mutant(system_id, path, value, new))
            break
    return found


def build(mutant: Mutant) -> Any:
    """The validated table with ``mutant``'s change."""
    return table_model(mutant.system).model_validate(with_value(table_data(mutant.system), mutant.path, mutant.new))
