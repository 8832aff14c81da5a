"""What an action is called in a journal and in Édition › Annuler, and how a journal entry is written:
one place for the sheet and the table, so both journals read alike.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from typing import Any

from PySide6.QtCore import QCoreApplication

import rules

# Longest journal entry kept (the file format bounds each entry at 10,000 characters).
MAX_ENTRY = 9000
# Between a journal entry's title and its date: « Dégâts 7 · jour 1, 00:00:06 » (issue 10 item 24).
CLOCK_SEPARATOR = " · "


def _tr(text: str) -> str:
    return QCoreApplication.translate("Titles", text)


def _capitalised(label: str) -> str:
    return label[:1].upper() + label[1:]


def action_title(info: rules.SystemInfo, action: rules.Action) -> str:
    """The action's French title with the system's labels in place of ids."""
    if isinstance(action, rules.Edit):
        # The fields' French labels, never their code names (« Modifier Points d'action », not « current »).
        names = ", ".join(_capitalised(rules.field_label(info.id, key)) for key in action.changes)
        return _tr("Modifier {0}").format(names)
    if isinstance(action, rules.SetCondition):
        label = next((c.label for c in info.conditions if c.id == action.condition), action.condition)
        if not action.active:
            return _tr("État {0} : retiré").format(label)
        if action.duration is not None and action.unit:
            unit = next((u.label for u in info.time_units if u.id == action.unit), action.unit)
            return _tr("État {0} : ajouté pour {1} × {2}").format(label, action.duration, unit)
        if action.until_conflict_end:
            return _tr("État {0} : ajouté jusqu'à la fin du Conflit").format(label)
        return _tr("État {0} : ajouté").format(label)
    if isinstance(action, rules.AdvanceTime):
        unit = next((u.label for u in info.time_units if u.id == action.unit), action.unit)
        return _tr("Le temps passe : {0} × {1}").format(action.count, unit)
    title = action.title()
    for name, labels in id_labels(info).items():
        value = getattr(action, name, None)
        if isinstance(value, str) and value in labels and name != "damage_type":
            # Issue 10 item 18: « Blessure localisée (tete) » → « Blessure localisée (Tête) ».
            title = re.sub(rf"(?<![\w-]){re.escape(value)}(?![\w-])", labels[value], title)
    damage_type = getattr(action, "damage_type", None)
    if isinstance(damage_type, str):
        label = next((c.label for c in info.damage_types if c.id == damage_type), damage_type)
        title += f" ({label})"
    return title


def id_labels(info: rules.SystemInfo) -> dict[str, dict[str, str]]:
    """For an action field holding an id of the system's tables, its French labels by id."""

    def pairs(raw: Any) -> dict[str, str]:
        try:
            return {str(k): str(v) for k, v in raw or ()}
        except (TypeError, ValueError):
            return {}

    wound_types = {c.id: c.label for c in info.wound_types}
    return {
        "wound_type": wound_types,
        "grade": pairs(info.extra.get("wound_grades")) or wound_types,
        "severity": pairs(info.extra.get("wound_severities")),
        "body_part": pairs(info.extra.get("body_part_choices")),
        "treatment": pairs(info.extra.get("treatment_choices")),
        "damage_type": {c.id: c.label for c in info.damage_types},
        "ability": pairs(info.extra.get("ability_choices")),
    }


def bounded(entry: str) -> str:
    """An entry held to ``MAX_ENTRY`` characters: its start and its end, the lines in between counted."""
    if len(entry) <= MAX_ENTRY:
        return entry
    head, tail = entry[: MAX_ENTRY // 2], entry[-MAX_ENTRY // 2 + 200 :]
    skipped = entry.count("\n", len(head), len(entry) - len(tail))
    return head + "\n" + _tr("… ({0} lignes omises) …").format(skipped) + "\n" + tail


def sheet_clock(sheet: Any) -> int:
    """The sheet's clock in seconds, as its journal dates entries (0: a sheet whose time never passed)."""
    return int(getattr(sheet, "clock", 0) or 0)


@functools.lru_cache(maxsize=256)
def clock_text(clock: int) -> str:
    """``rules.format_clock``, kept per value: a thousand creatures of one table share their clock."""
    return rules.format_clock(clock)


def journal_entry(title: str, lines: Iterable[str], rolls: Iterable[rules.Roll] = (), clock: int | None = None) -> str:
    """A journal entry: the title line (dated with the sheet's ``clock`` when given), what happened, then
    the dice the lines did not spell out. The sheet and the GM table write every entry through here, so
    both journals read alike (« Dégâts 7 · jour 1, 00:00:06 »)."""
    lines = list(lines)
    text = "\n".join(lines)
    extra = [r.detail for r in rolls if not r.given and r.detail not in text]
    head = f"{title}{CLOCK_SEPARATOR}{clock_text(clock)}" if clock is not None else title
    parts = [head, *lines]
    if extra:
        parts.append(_tr("Dés : {0}").format(" ; ".join(extra)))
    return bounded("\n".join(parts))
