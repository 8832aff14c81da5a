"""Loading rule tables (TOML) into pydantic models, with errors naming the file and the field.

The shipped tables live in ``resources/rulesets/<system>.toml``. A GM's own copy (house rules) goes
through the very same validation: ``load_ruleset(model, path)``.
"""

from __future__ import annotations

import functools
import tomllib
from importlib import resources as importlib_resources
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from rules.errors import RulesetError, describe_validation_error

MAX_RULESET_BYTES = 2_000_000

R = TypeVar("R", bound=BaseModel)


class Table(BaseModel):
    """Base of every rule-table model: immutable, unknown keys refused (typos show up)."""

    model_config = ConfigDict(frozen=True, extra="forbid")


def parse_ruleset(model: type[R], text: str, source: str) -> R:
    """Validate TOML ``text`` as ``model``; ``source`` names the file in messages."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RulesetError(f"{source} : syntaxe TOML invalide ({exc}).") from None
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        lines = describe_validation_error(exc)
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
        raise RulesetError(f"{path} : lecture impossible ({exc.strerror or exc}).") from None
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
