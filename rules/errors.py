"""Errors of the rules core, and French wording for pydantic validation errors.

Everything here is user-facing French text: the rules core raises these, the UI shows them as they are.
"""

from __future__ import annotations

import errno
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pydantic import ValidationError

from rules.labels import ABILITY_LABELS


class Refused(Exception):
    """An action the rules forbid (or that cannot be carried out); nothing has changed.

    ``reason`` is a French sentence meant for the player.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class NeedsRoll(Refused):
    """A die must be rolled but neither a ``random.Random`` nor an explicit value was given."""


class RulesetError(Exception):
    """A rule table (``resources/rulesets/*.toml`` or a GM's copy) is broken.

    The message names the file and the field.
    """


# French labels for the field names the user can meet in messages (code names are English).
FIELD_LABELS: dict[str, str] = {
    "name": "nom",
    "player": "joueur",
    "level": "niveau",
    "notes": "notes",
    "system": "système",
    "current": "points actuels",
    "base_maximum": "maximum",
    "temporary": "points temporaires",
    "nonlethal": "dégâts non létaux",
    **ABILITY_LABELS,
    "exhaustion": "épuisement",
    "conditions": "états",
    "wounds": "blessures",
    "amount": "montant",
    "count": "nombre",
    "unit": "unité",
    "hours": "heures",
    "rolls": "valeurs de dés",
    "xp": "points d'expérience",
    "speed_m": "déplacement",
}


def _label(part: str | int) -> str:
    if isinstance(part, int):
        return f"n° {part + 1}"
    return FIELD_LABELS.get(part, part)


def location_text(loc: Sequence[str | int]) -> str:
    """``("wounds", 0, "days")`` → ``« blessures › n° 1 › days »``."""
    shown = [p for p in loc if not (isinstance(p, str) and p.startswith(("function-", "tagged-union")))]
    if not shown:
        return ""
    return "« " + " › ".join(_label(p) for p in shown) + " »"


def _ctx(err: Mapping[str, Any], key: str) -> Any:
    ctx = err.get("ctx") or {}
    return ctx.get(key, "?")


_TEMPLATES: dict[str, str] = {
    "missing": "est obligatoire et manque",
    "int_type": "doit être un nombre entier",
    "int_parsing": "doit être un nombre entier",
    "int_from_float": "doit être un nombre entier, sans décimales",
    "float_type": "doit être un nombre",
    "float_parsing": "doit être un nombre",
    "finite_number": "doit être un nombre fini",
    "string_type": "doit être un texte",
    "bool_type": "doit être vrai ou faux",
    "bool_parsing": "doit être vrai ou faux",
    "list_type": "doit être une liste",
    "tuple_type": "doit être une liste",
    "set_type": "doit être une liste",
    "frozen_set_type": "doit être une liste",
    "dict_type": "doit être un objet (des paires nom : valeur)",
    "model_type": "doit être un objet (des paires nom : valeur)",
    "model_attributes_type": "doit être un objet (des paires nom : valeur)",
    "extra_forbidden": "n'est pas un champ connu",
    "json_invalid": "n'est pas du JSON valide",
    "union_tag_not_found": "doit indiquer son système",
    "recursion_loop": "est imbriqué trop profondément",
}


def error_text(err: Mapping[str, Any]) -> str:
    """French wording of one pydantic error dict (without its location)."""
    kind = str(err.get("type", ""))
    if kind in _TEMPLATES:
        return _TEMPLATES[kind]
    if kind == "greater_than_equal":
        return f"doit être supérieur ou égal à {_ctx(err, 'ge')}"
    if kind == "greater_than":
        return f"doit être strictement supérieur à {_ctx(err, 'gt')}"
    if kind == "less_than_equal":
        return f"doit être inférieur ou égal à {_ctx(err, 'le')}"
    if kind == "less_than":
        return f"doit être strictement inférieur à {_ctx(err, 'lt')}"
    if kind in ("string_too_long", "too_long"):
        return f"est trop long (au plus {_ctx(err, 'max_length')})"
    if kind in ("string_too_short", "too_short"):
        return f"est trop court (au moins {_ctx(err, 'min_length')})"
    if kind in ("literal_error", "enum"):
        return f"doit être l'une des valeurs : {choices_text(str(_ctx(err, 'expected')))}"
    if kind == "union_tag_invalid":
        return f"système inconnu « {_ctx(err, 'tag')} » (attendu : {choices_text(str(_ctx(err, 'expected_tags')))})"
    if kind == "int_parsing_size":
        return "nombre démesuré"
    if kind == "multiple_of":
        return f"doit être un multiple de {_ctx(err, 'multiple_of')}"
    if kind == "string_pattern_mismatch":
        return "n'a pas la forme attendue"
    if kind == "value_error":
        # Our own validators raise ValueError with a French sentence.
        msg = str(err.get("msg", ""))
        return msg.removeprefix("Value error, ")
    if kind == "assertion_error":
        return str(err.get("msg", "")).removeprefix("Assertion failed, ")
    return "valeur invalide"  # pydantic's own message is English: never shown


def choices_text(expected: str) -> str:
    """pydantic's ``'a', 'b' or 'c'`` in French: ``« a », « b » ou « c »`` (``« »`` for an empty text)."""
    parts = [p.strip() for p in re.split(r", | or ", expected) if p.strip()]
    shown = [f"« {p[1:-1]} »" if len(p) >= 2 and p[0] == p[-1] and p[0] in "'\"" else p for p in parts]
    shown = ["« »" if s == "«  »" else s for s in shown]
    if len(shown) < 2:
        return "".join(shown)
    return ", ".join(shown[:-1]) + " ou " + shown[-1]


def describe_validation_error(exc: ValidationError, limit: int = 8) -> list[str]:
    """One French line per pydantic error: ``« niveau » : doit être supérieur ou égal à 1``."""
    lines: list[str] = []
    errors: Iterable[Mapping[str, Any]] = exc.errors(include_url=False)
    for err in errors:
        where = location_text(err.get("loc", ()))
        text = error_text(err)
        lines.append(f"{where} : {text}" if where else text)
        if len(lines) >= limit:
            lines.append("…")
            break
    return lines


_OS_REASONS: dict[int, str] = {
    errno.ENOENT: "fichier ou dossier introuvable",
    errno.ENOTDIR: "un élément du chemin n'est pas un dossier",
    errno.EACCES: "accès refusé",
    errno.EPERM: "opération non permise",
    errno.EROFS: "le support est en lecture seule",
    errno.ENOSPC: "le disque est plein",
    errno.EDQUOT: "quota disque dépassé",
    errno.EISDIR: "c'est un dossier",
    errno.EIO: "erreur d'entrée-sortie du disque",
    errno.ENAMETOOLONG: "nom de fichier trop long",
    errno.ELOOP: "trop de liens symboliques",
    errno.EMFILE: "trop de fichiers ouverts",
    errno.EFBIG: "fichier trop gros pour ce support",
    errno.ETXTBSY: "fichier occupé",
    errno.EEXIST: "le fichier existe déjà",
    errno.EBUSY: "ressource occupée",
}


def os_reason(exc: OSError) -> str:
    """The French reason for an operating-system error (never the OS's English text when we know it)."""
    if exc.errno in _OS_REASONS:
        return _OS_REASONS[exc.errno]
    return f"erreur système n° {exc.errno}" if exc.errno else str(exc)
