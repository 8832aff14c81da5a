"""What a house-rule table changes from the shipped one, key by key (the header's tooltip, the notes that
name a house value in explanations and in the journal)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from rules.house.schema import slot
from rules.house.toml_text import Path, found_text, key_text

# Nothing, as opposed to a value of None: a key the other table does not have.
ABSENT: Any = type("Absent", (), {"__repr__": lambda self: "ABSENT"})()


@dataclass(frozen=True, slots=True)
class Difference:
    """One key whose house value is not the shipped one (``base`` or ``house`` is ``ABSENT`` when the
    key exists on one side only: an entry the GM added or took out)."""

    path: Path
    base: Any
    house: Any
    label: str = ""

    @property
    def key(self) -> str:
        return key_text(self.path)

    @property
    def short(self) -> str:
        """« saves.death_save_success = 12 au lieu de 10 », as explanations cite it."""
        if self.house is ABSENT:
            return f"{self.key} retiré"
        if self.base is ABSENT:
            return f"{self.key} ajouté"
        return f"{self.key} = {found_text(self.house, 40)} au lieu de {found_text(self.base, 40)}"

    @property
    def text(self) -> str:
        """« Seuil de réussite d'un jet contre la mort (saves.death_save_success) : 12 au lieu de 10 »."""
        where = f"{self.label} ({self.key})" if self.label else self.key
        if self.house is ABSENT:
            return f"{where} : retiré des règles de base"
        if self.base is ABSENT:
            return f"{where} : ajouté ({found_text(self.house, 60)})"
        return f"{where} : {found_text(self.house, 40)} au lieu de {found_text(self.base, 40)}"


def _walk(base: Any, house: Any, path: Path, out: list[tuple[Path, Any, Any]]) -> None:
    if isinstance(base, dict) and isinstance(house, dict):
        for key in base:
            if key not in house:
                out.append(((*path, key), base[key], ABSENT))
            else:
                _walk(base[key], house[key], (*path, key), out)
        for key in house:
            if key not in base:
                out.append(((*path, key), ABSENT, house[key]))
        return
    if _tables(base) and _tables(house) and len(base) == len(house):
        for index, (old, new) in enumerate(zip(base, house, strict=True)):
            _walk(old, new, (*path, index), out)
        return
    if base != house:
        out.append((path, base, house))


def _tables(value: Any) -> bool:
    """A list of tables (``[[trauma.tiers]]``): compared entry by entry; other lists are one value."""
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)


def short_label(description: str, limit: int = 70) -> str:
    """The first clause of a key's description, for a one-line list."""
    first = re.split(r"(?<=[.:;])\s|\n", description.strip(), maxsplit=1)[0].rstrip(".:;")
    return first if len(first) <= limit else first[: limit - 1].rstrip() + "…"


def differences(model: type[BaseModel], base: BaseModel, house: BaseModel) -> tuple[Difference, ...]:
    """Every key of ``house`` that differs from ``base`` (lists compared whole), in the schema's order."""
    found: list[tuple[Path, Any, Any]] = []
    _walk(base.model_dump(mode="json"), house.model_dump(mode="json"), (), found)
    result = []
    for path, old, new in found:
        place = slot(model, path)
        label = short_label(place.description) if place is not None and place.description else ""
        result.append(Difference(path, old, new, label))
    return tuple(result)


def with_base_value(data: dict[str, Any], diff: Difference) -> dict[str, Any]:
    """A copy of a table's data with ``diff`` put back to the shipped reading (the entry taken out or
    put back): the table « but for this one house value »."""
    copy: dict[str, Any] = _copy(data)
    node: Any = copy
    for part in diff.path[:-1]:
        node = node[part]
    last = diff.path[-1]
    if diff.base is ABSENT:
        del node[last]
    else:
        node[last] = _copy(diff.base)
    return copy


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value
