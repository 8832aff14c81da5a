"""Loading rule tables (TOML) into pydantic models, with errors naming the file and the field.

The shipped tables live in ``resources/rulesets/<system>.toml``. A GM's own copy (house rules) goes
through the very same validation: ``load_ruleset(model, path)``.
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Iterable, Mapping
from importlib import resources as importlib_resources
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from rules.errors import RulesetError, describe_validation_error, os_reason

MAX_RULESET_BYTES = 2_000_000

R = TypeVar("R", bound=BaseModel)


class Table(BaseModel):
    """Base of every rule-table model: immutable, unknown keys refused (typos show up)."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class HealthStateTable(Table):
    """A health state as the sheet's badge shows it (every system's table has them)."""

    label: str
    colour: str = Field(pattern=r"^#[0-9a-fA-F]{6}$")


class ConditionGroupTable(Table):
    """A group of conditions, as the seed groups them."""

    label: str


class ConditionTable(Table):
    """A condition (état): its label, group and effects as French text; systems add their numbers."""

    label: str
    group: str
    effects: tuple[str, ...]
    implies: tuple[str, ...] = ()


def check_condition_references(
    conditions: Mapping[str, ConditionTable],
    groups: Mapping[str, ConditionGroupTable],
    health_states: Mapping[str, HealthStateTable],
    needed_states: Iterable[str] = (),
    needed_conditions: Iterable[str] = (),
) -> None:
    """Raise ``ValueError`` (French) when a table cites a group, state or condition it does not define."""
    for cid, cond in conditions.items():
        if cond.group not in groups:
            raise ValueError(f"l'état « {cid} » cite un groupe inconnu « {cond.group} »")
        for other in (*cond.implies, *getattr(cond, "on_end_adds", ())):
            if other not in conditions:
                raise ValueError(f"l'état « {cid} » cite un état inconnu « {other} »")
    for needed in needed_states:
        if needed not in health_states:
            raise ValueError(f"l'état de santé « {needed} » manque dans health_states")
    for needed in needed_conditions:
        if needed not in conditions:
            raise ValueError(f"l'état « {needed} » manque dans conditions")


def check_time_units(time_units: Mapping[str, int], needed: Iterable[str]) -> None:
    """Raise ``ValueError`` (French) when a unit the rules count in is missing from ``time_units``."""
    for unit in needed:
        if unit not in time_units:
            raise ValueError(f"l'unité de temps « {unit} » manque dans time_units")


def parse_ruleset(model: type[R], text: str, source: str) -> R:
    """Validate TOML ``text`` as ``model``; ``source`` names the file in messages."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RulesetError(f"{source} : syntaxe TOML invalide ({exc}).") from None
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        # The keys as written in the TOML file: they are what its author must find.
        lines = describe_validation_error(exc, labels=None)
        raise RulesetError(f"{source} : " + " ; ".join(lines)) from None


def load_ruleset(model: type[R], path: Path) -> R:
    """Load a GM's rule table from ``path``."""
    try:
        if path.stat().st_size > MAX_RULESET_BYTES:
            raise RulesetError(f"{path} : fichier trop gros pour une table de règles.")
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise RulesetError(f"{path} : le fichier n'est pas en UTF-8.") from None
    except OSError as exc:
        raise RulesetError(f"{path} : lecture impossible ({os_reason(exc)}).") from None
    return parse_ruleset(model, text, str(path))


def shipped_text(system: str) -> tuple[str, str]:
    """Text of the shipped table for ``system`` and the name to show in messages."""
    name = f"{system}.toml"
    ref = importlib_resources.files("resources").joinpath("rulesets", name)
    return ref.read_text(encoding="utf-8"), f"resources/rulesets/{name}"


@functools.cache
def _cached(model: type[BaseModel], system: str) -> BaseModel:
    text, source = shipped_text(system)
    return parse_ruleset(model, text, source)


def shipped_ruleset(model: type[R], system: str) -> R:
    """The shipped table for ``system`` (validated once, then cached)."""
    result = _cached(model, system)
    assert isinstance(result, model)
    return result
