"""Editing a Sévérité sheet by hand (``rules.Edit``): what the rules check, what the journal says.

The journal names what changed with the labels the sheet shows (« Physique », « Blessures », « Tête »),
never a field id or an id of the rule table.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rules.model import Context, fmt_int, plural, signed
from rules.systems.severite.gauge import _put_condition as put_condition
from rules.systems.severite.gauge import condition_label, wound_label
from rules.systems.severite.sheet import Equipment, SeveriteSheet, TurnTimer, Wound
from rules.systems.severite.table import SeveriteRules

# The sheet's own words for its fields (as the sheet window and the describe() fields name them).
SHEET_LABELS: dict[str, str] = {
    "name": "Nom",
    "player": "Joueur",
    "level": "Niveau",
    "notes": "Notes",
    "is_npc": "PNJ",
    "clock": "Temps écoulé",
    "physique": "Physique",
    "mental": "Mental",
    "tenacity_skill": "Compétence de Ténacité",
    "tenacity_bonus": "Bonus de Ténacité (Talents)",
    "equipment": "Équipement",
    "wounds": "Blessures",
    "sequels": "Séquelles",
    "conditions": "États",
    "turn_timers": "Durées en tours",
    "dead": "Décès",
    "last_rest_end": "Fin du dernier repos",
}

WOUND_LABELS: dict[str, str] = {
    "id": "numéro",
    "grade": "degré",
    "notches": "crans",
    "severity": "Sévérité",
    "body_part": "zone",
    "damage_type": "type de dégâts",
    "psychological": "psychologique",
    "treatment": "traitement",
    "diagnosis": "diagnostic",
    "handicap": "Handicap",
    "handicap_penalty": "malus du Handicap",
    "crippled": "membre invalide",
    "ignored": "ignorée jusqu'à la fin du Conflit",
    "survived": "jet de Survie réussi",
    "note": "note",
}


def prepare_edit(old: SeveriteSheet, data: dict[str, Any]) -> dict[str, Any]:
    """A condition taken off by hand takes its count of turns with it."""
    conditions, timers = data.get("conditions"), data.get("turn_timers")
    if conditions == old.conditions or not isinstance(conditions, (list, tuple)):
        return data
    if isinstance(timers, (list, tuple)):
        kept = {c for c in conditions if isinstance(c, str)}
        data["turn_timers"] = tuple(
            t
            for t in timers
            if not isinstance(t, (TurnTimer, dict))
            or (t.condition if isinstance(t, TurnTimer) else t.get("condition")) in kept
        )
    return data


def after_edit(old: SeveriteSheet, new: SeveriteSheet, rs: SeveriteRules, ctx: Context) -> SeveriteSheet:
    """A condition that lasts some turns, ticked by hand, gets its length (as when the rules set it).

    What the sheet names was checked against ``rs`` when the edited sheet was validated (``sheet_problems``).
    """
    timed = {t.condition for t in new.turn_timers}
    for cid in new.conditions:
        if cid not in old.conditions and cid not in timed and rs.conditions[cid].duration == "turns":
            new = put_condition(new, cid, rs)
    return new


# --------------------------------------------------------------------------------------------------
# What the journal says of an edited field
# --------------------------------------------------------------------------------------------------


def duration_text(seconds: int) -> str:
    """``93784`` → « 1 j 2 h 3 min 4 s » (in-game time)."""
    if seconds <= 0:
        return "0 s"
    parts = []
    for size, unit in ((86_400, "j"), (3_600, "h"), (60, "min"), (1, "s")):
        count, seconds = divmod(seconds, size)
        if count:
            parts.append(f"{count} {unit}")
    return " ".join(parts)


def _text(value: str) -> str:
    return f"« {value} »" if value else "(vide)"


def _yes(value: bool) -> str:
    return "oui" if value else "non"


def _label_of(table: dict[str, Any], key: str | None) -> str:
    if key is None:
        return "(aucun)"
    rule = table.get(key)
    return str(rule.label) if rule is not None else f"« {key} »"


def _wound_value(field: str, value: Any, rs: SeveriteRules) -> str:
    if field == "grade":
        return _label_of(rs.grades, value)
    if field == "body_part":
        return _label_of(rs.body_parts, value)
    if field == "damage_type":
        return _label_of(rs.damage_types, value)
    if field == "treatment":
        return _label_of(rs.treatments, value)
    if isinstance(value, bool):
        return _yes(value)
    if isinstance(value, int):
        return fmt_int(value)
    if value is None:
        return "(aucune)"
    return _text(str(value))


def _wound_change(before: Wound, after: Wound, rs: SeveriteRules) -> str:
    changed = []
    for field, label in WOUND_LABELS.items():
        old, new = getattr(before, field), getattr(after, field)
        if old != new:
            changed.append(f"{label} : {_wound_value(field, old, rs)} → {_wound_value(field, new, rs)}")
    return f"{wound_label(after, rs)} ({', '.join(changed)})"


def _wounds_line(before: Sequence[Wound], after: Sequence[Wound], rs: SeveriteRules) -> str:
    old = {w.id: w for w in before}
    new = {w.id: w for w in after}
    parts = []
    added = [f"{wound_label(w, rs)}, {plural(w.notches, 'cran')}" for w in after if w.id not in old]
    removed = [wound_label(w, rs) for w in before if w.id not in new]
    changed = [_wound_change(old[w.id], w, rs) for w in after if w.id in old and old[w.id] != w]
    if added:
        parts.append(f"{'ajoutées' if len(added) > 1 else 'ajoutée'} : " + " ; ".join(added))
    if removed:
        parts.append(f"{'retirées' if len(removed) > 1 else 'retirée'} : " + " ; ".join(removed))
    if changed:
        parts.append(f"{'modifiées' if len(changed) > 1 else 'modifiée'} : " + " ; ".join(changed))
    return "Blessures — " + " ; ".join(parts or ["réordonnées"]) + "."


def _equipment_text(item: Equipment, rs: SeveriteRules) -> str:
    parts = ", ".join(_label_of(rs.body_parts, p) for p in item.body_parts) or "aucune zone"
    prot = ", ".join(f"{_label_of(rs.damage_types, p.damage_type)} {signed(p.modifier)}" for p in item.protections)
    return f"« {item.name} » ({parts}{' ; ' + prot if prot else ''})"


def _added_removed(
    before: Sequence[Any], after: Sequence[Any], show: Callable[[Any], str]
) -> tuple[list[str], list[str]]:
    left = list(before)
    added: list[str] = []
    for item in after:
        if item in left:
            left.remove(item)
        else:
            added.append(show(item))
    return added, [show(item) for item in left]


def _list_line(label: str, added: list[str], removed: list[str], feminine: bool = False) -> str:
    e = "e" if feminine else ""
    parts = []
    if added:
        parts.append(f"ajouté{e}{'s' if len(added) > 1 else ''} : " + " ; ".join(added))
    if removed:
        parts.append(f"retiré{e}{'s' if len(removed) > 1 else ''} : " + " ; ".join(removed))
    return f"{label} — " + " ; ".join(parts or ["réordonné" + e + "s"]) + "."


def _timers_line(before: Sequence[TurnTimer], after: Sequence[TurnTimer], rs: SeveriteRules) -> str:
    old = {t.condition: t.turns for t in before}
    new = {t.condition: t.turns for t in after}
    parts = []
    for cid in sorted(old.keys() | new.keys()):
        if old.get(cid) == new.get(cid):
            continue
        shown = [
            "(aucune)" if turns is None else f"{turns} {'fins de tour' if turns > 1 else 'fin de tour'}"
            for turns in (old.get(cid), new.get(cid))
        ]
        parts.append(f"{condition_label(cid, rs)} : {shown[0]} → {shown[1]}")
    return "Durées en tours — " + " ; ".join(parts or ["réordonnées"]) + "."


def edit_line(field: str, before: Any, after: Any, rs: SeveriteRules) -> str | None:
    """The journal line of one field changed by ``Edit`` (``None``: the facade's generic line)."""
    label = SHEET_LABELS.get(field)
    if label is None:
        return None
    if field == "wounds":
        return _wounds_line(before, after, rs)
    if field == "equipment":
        added, removed = _added_removed(before, after, lambda item: _equipment_text(item, rs))
        return _list_line(label, added, removed)
    if field == "sequels":
        added, removed = _added_removed(before, after, _text)
        return _list_line(label, added, removed, feminine=True)
    if field == "conditions":
        added, removed = _added_removed(before, after, lambda cid: condition_label(cid, rs))
        return _list_line(label, added, removed)
    if field == "turn_timers":
        return _timers_line(before, after, rs)
    if field == "notes":
        return "Notes modifiées." if after else "Notes effacées."
    if field in ("clock", "last_rest_end"):
        shown = ["(aucune)" if v is None else duration_text(v) for v in (before, after)]
        return f"{label} : {shown[0]} → {shown[1]}."
    if field in ("physique", "mental", "tenacity_bonus"):
        return f"{label} : {signed(before)} → {signed(after)}."
    if isinstance(before, bool):
        return f"{label} : {_yes(before)} → {_yes(after)}."
    if isinstance(before, int):
        return f"{label} : {fmt_int(before)} → {fmt_int(after)}."
    return f"{label} : {_text(str(before))} → {_text(str(after))}."
