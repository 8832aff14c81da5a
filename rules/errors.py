"""Errors of the rules core, and French wording for pydantic validation errors.

Everything here is user-facing French text: the rules core raises these, the UI shows them as they are.
"""

from __future__ import annotations

import errno
import re
from collections.abc import Collection, Iterable, Mapping, Sequence
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
    "is_npc": "PNJ",
    "clock": "temps écoulé",
    "id": "numéro",
    "note": "note",
    # The common actions' fields (``rules.actions``).
    "kind": "type d'action",
    "changes": "modifications",
    "damage_type": "type de dégâts",
    "hits": "nombre de coups",
    "critical": "coup critique",
    "adjacent": "attaquant au contact",
    "spell_check": "résultat du lanceur de sort",
    "save_halves": "sauvegarde réussie (moitié des dégâts)",
    "single_attack": "une seule attaque",
    "magical": "soins magiques",
    "replace": "remplacer les points temporaires",
    "condition": "état",
    "active": "actif",
    "include": "états à retirer aussi",
    "method": "méthode",
    "modifier": "modificateur",
    "dice": "dés à dépenser",
    "interrupted": "interrompu",
    "ate_and_drank": "a bu et mangé",
    # States put for a while (``rules.timers``).
    "condition_timers": "durées des états",
    "ends_at": "fin",
    "label": "durée",
    "duration": "durée",
    "until_conflict_end": "jusqu'à la fin du Conflit",
}


def _label(part: str | int, labels: Mapping[str, str] | None, path: str = "") -> str:
    if isinstance(part, int):
        return f"n° {part + 1}"
    if labels is None:
        return part
    # A dotted key names a field inside another (``magic.current``) before the field's own name does.
    return (path and labels.get(f"{path}.{part}")) or labels.get(part) or FIELD_LABELS.get(part, part)


def shown_location(loc: Sequence[str | int], tags: Collection[str] = ()) -> tuple[str | int, ...]:
    """The location of an error without pydantic's inner steps (validator names, the union's tag)."""
    shown = tuple(p for p in loc if not (isinstance(p, str) and p.startswith(("function-", "tagged-union"))))
    if shown and isinstance(shown[0], str) and shown[0] in tags:
        shown = shown[1:]
    return shown


def location_text(
    loc: Sequence[str | int], labels: Mapping[str, str] | None = FIELD_LABELS, tags: Collection[str] = ()
) -> str:
    """``("wounds", 0, "days")`` → ``« blessures › n° 1 › jours »`` (``labels``, then ``FIELD_LABELS``).

    ``labels=None`` keeps the keys as written (a rule table's keys, which its author must find);
    ``tags``: the ids of a discriminated union's members (a sheet's ``system``), left out.
    """
    shown = shown_location(loc, tags)
    if not shown:
        return ""
    parts, path = [], ""
    for p in shown:
        parts.append(_label(p, labels, path))
        if isinstance(p, str):
            path = f"{path}.{p}" if path else p
    return "« " + " › ".join(parts) + " »"


def _ctx(err: Mapping[str, Any], key: str) -> Any:
    ctx = err.get("ctx") or {}
    return ctx.get(key, "?")


# Every pydantic error type a user can meet (a typed field, a sheet file, a rule table), in French. The
# types whose wording needs a value from the error's context are worded in ``error_text``.
_TEMPLATES: dict[str, str] = {
    "missing": "est obligatoire et manque",
    "missing_argument": "est obligatoire et manque",
    "missing_keyword_only_argument": "est obligatoire et manque",
    "missing_positional_only_argument": "est obligatoire et manque",
    "missing_sentinel_error": "est obligatoire et manque",
    "unexpected_keyword_argument": "n'est pas un champ connu",
    "unexpected_positional_argument": "n'est pas attendu",
    "multiple_argument_values": "est donné deux fois",
    "arguments_type": "doit être une liste de valeurs ou un objet",
    "extra_forbidden": "n'est pas un champ connu",
    "no_such_attribute": "n'est pas un champ connu",
    "frozen_field": "ne peut pas être modifié",
    "frozen_instance": "ne peut pas être modifié",
    "none_required": "doit être vide",
    "int_type": "doit être un nombre entier",
    "int_parsing": "doit être un nombre entier",
    "int_parsing_size": "est un nombre trop grand",
    "int_from_float": "doit être un nombre entier, sans décimales",
    "float_type": "doit être un nombre",
    "float_parsing": "doit être un nombre",
    "finite_number": "doit être un nombre fini",
    "decimal_type": "doit être un nombre",
    "decimal_parsing": "doit être un nombre",
    "fraction_type": "doit être un nombre",
    "fraction_parsing": "doit être un nombre",
    "complex_type": "doit être un nombre",
    "complex_str_parsing": "doit être un nombre",
    "string_type": "doit être un texte",
    "string_unicode": "doit être un texte valide (Unicode)",
    "string_not_ascii": "ne doit contenir que des caractères ASCII",
    "bytes_type": "doit être un texte",
    "bytes_invalid_encoding": "n'est pas dans l'encodage attendu",
    "bool_type": "doit être vrai ou faux",
    "bool_parsing": "doit être vrai ou faux",
    "list_type": "doit être une liste",
    "tuple_type": "doit être une liste",
    "set_type": "doit être une liste",
    "frozen_set_type": "doit être une liste",
    "deque_type": "doit être une liste",
    "iterable_type": "doit être une liste",
    "iteration_error": "n'a pas pu être lu comme une liste",
    "set_item_not_hashable": "contient une valeur qui ne peut pas figurer dans un ensemble",
    "dict_type": "doit être un objet (des paires nom : valeur)",
    "frozen_dict_type": "doit être un objet (des paires nom : valeur)",
    "ordered_dict_type": "doit être un objet (des paires nom : valeur)",
    "counter_type": "doit être un objet (des paires nom : valeur)",
    "mapping_type": "doit être un objet (des paires nom : valeur)",
    "model_type": "doit être un objet (des paires nom : valeur)",
    "model_attributes_type": "doit être un objet (des paires nom : valeur)",
    "dataclass_type": "doit être un objet (des paires nom : valeur)",
    "dataclass_exact_type": "doit être un objet (des paires nom : valeur)",
    "named_tuple_type": "doit être une liste de valeurs ou un objet",
    "invalid_key": "a un nom qui n'est pas un texte",
    "get_attribute_error": "n'a pas pu être lu",
    "is_instance_of": "n'est pas du type attendu",
    "is_subclass_of": "n'est pas du type attendu",
    "callable_type": "n'est pas du type attendu",
    "default_factory_not_called": "n'a pas de valeur par défaut ici",
    "json_invalid": "n'est pas du JSON valide",
    "json_type": "doit être du JSON (un texte)",
    "needs_python_object": "n'est pas du type attendu",
    "union_tag_not_found": "doit indiquer son système",
    "recursion_loop": "est imbriqué trop profondément",
    "recursion_depth_exceeded": "est imbriqué trop profondément",
    "ellipsis_error": "n'est pas une valeur acceptée",
    "date_type": "doit être une date",
    "date_parsing": "doit être une date (AAAA-MM-JJ)",
    "date_from_datetime_parsing": "doit être une date (AAAA-MM-JJ)",
    "date_from_datetime_inexact": "doit être une date sans heure",
    "date_past": "doit être une date passée",
    "date_future": "doit être une date à venir",
    "time_type": "doit être une heure",
    "time_parsing": "doit être une heure (HH:MM:SS)",
    "datetime_type": "doit être une date et une heure",
    "datetime_parsing": "doit être une date et une heure",
    "datetime_object_invalid": "doit être une date et une heure",
    "datetime_from_date_parsing": "doit être une date et une heure",
    "datetime_past": "doit être une date passée",
    "datetime_future": "doit être une date à venir",
    "timezone_naive": "ne doit pas indiquer de fuseau horaire",
    "timezone_aware": "doit indiquer un fuseau horaire",
    "time_delta_type": "doit être une durée",
    "time_delta_parsing": "doit être une durée",
    "url_type": "doit être une adresse web",
    "url_parsing": "doit être une adresse web",
    "url_syntax_violation": "doit être une adresse web",
    "url_scheme": "doit être une adresse web",
    "uuid_type": "doit être un identifiant UUID",
    "uuid_parsing": "doit être un identifiant UUID",
    "uuid_version": "doit être un identifiant UUID",
}


def choices_text(expected: str) -> str:
    """pydantic's « 'a', 'b' or 'c' » as French: « « a », « b » ou « c » »."""
    values = re.findall(r"'((?:[^'\\]|\\.)*)'", expected)
    if not values:
        return expected.replace(" or ", " ou ")
    quoted = [f"« {v} »" for v in values]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " ou " + quoted[-1]


def error_text(err: Mapping[str, Any]) -> str:
    """French wording of one pydantic error dict (without its location); never pydantic's English."""
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
    if kind == "multiple_of":
        return f"doit être un multiple de {_ctx(err, 'multiple_of')}"
    if kind in ("string_too_long", "too_long", "bytes_too_long", "url_too_long"):
        return f"est trop long (au plus {_ctx(err, 'max_length')})"
    if kind in ("string_too_short", "too_short", "bytes_too_short"):
        return f"est trop court (au moins {_ctx(err, 'min_length')})"
    if kind == "string_pattern_mismatch":
        return f"n'a pas la forme attendue (motif {_ctx(err, 'pattern')})"
    if kind in ("decimal_max_digits", "decimal_max_places", "decimal_whole_digits"):
        return "a trop de chiffres"
    if kind in ("literal_error", "enum"):
        return f"doit être l'une des valeurs : {choices_text(str(_ctx(err, 'expected')))}"
    if kind == "union_tag_invalid":
        expected = choices_text(str(_ctx(err, "expected_tags")))
        return f"système inconnu « {_ctx(err, 'tag')} » (attendu : {expected})"
    if kind == "value_error":
        # Our own validators raise ValueError with a French sentence.
        msg = str(err.get("msg", ""))
        return msg.removeprefix("Value error, ")
    if kind == "assertion_error":
        return str(err.get("msg", "")).removeprefix("Assertion failed, ")
    # A type pydantic may add later: a French sentence, never its English message.
    return "valeur invalide"


def describe_validation_error(
    exc: ValidationError,
    limit: int = 8,
    labels: Mapping[str, str] | None = FIELD_LABELS,
    tags: Collection[str] = (),
) -> list[str]:
    """One French line per pydantic error: ``« niveau » : doit être supérieur ou égal à 1``.

    ``labels`` names fields before ``FIELD_LABELS`` does (an action's own field titles, for instance);
    ``None`` keeps the keys as written (rule tables). ``tags``: see ``location_text``.
    """
    lines: list[str] = []
    errors: Iterable[Mapping[str, Any]] = exc.errors(include_url=False)
    for err in errors:
        where = location_text(err.get("loc", ()), labels, tags)
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
