"""What an action is called in a journal and in Édition › Annuler, and how a journal entry is written:
one place for the sheet and the table, so both journals read alike.
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QCoreApplication

import rules

# Longest journal entry kept (the file format bounds each entry at 10,000 characters).
MAX_ENTRY = 9000


def _tr(text: str) -> str:
    return QCoreApplication.translate("Titles", text)


def action_title(info: rules.SystemInfo, action: rules.Action) -> str:
    """The action's French title with the system's labels in place of ids."""
    if isinstance(action, rules.SetCondition):
        label = next((c.label for c in info.conditions if c.id == action.condition), action.condition)
        return _tr("État {0} : ajouté").format(label) if action.active else _tr("État {0} : retiré").format(label)
    if isinstance(action, rules.AdvanceTime):
        unit = next((u.label for u in info.time_units if u.id == action.unit), action.unit)
        return _tr("Le temps passe : {0} × {1}").format(action.count, unit)
    title = action.title()
    for name, table in (("wound_type", info.wound_types), ("grade", info.wound_types)):
        value = getattr(action, name, None)
        if isinstance(value, str):
            label = next((c.label for c in table if c.id == value), None)
            if label:
                title = title.replace(value, label)
    damage_type = getattr(action, "damage_type", None)
    if isinstance(damage_type, str):
        label = next((c.label for c in info.damage_types if c.id == damage_type), damage_type)
        title += f" ({label})"
    return title


def bounded(entry: str) -> str:
    """An entry held to ``MAX_ENTRY`` characters: its start and its end, the lines in between counted."""
    if len(entry) <= MAX_ENTRY:
        return entry
    head, tail = entry[: MAX_ENTRY // 2], entry[-MAX_ENTRY // 2 + 200 :]
    skipped = entry.count("\n", len(head), len(entry) - len(tail))
    return head + "\n" + _tr("… ({0} lignes omises) …").format(skipped) + "\n" + tail


def journal_entry(title: str, lines: Iterable[str], rolls: Iterable[rules.Roll] = ()) -> str:
    """A journal entry: the title line, what happened, then the dice the lines did not spell out."""
    lines = list(lines)
    text = "\n".join(lines)
    extra = [r.detail for r in rolls if not r.given and r.detail not in text]
    parts = [title, *lines]
    if extra:
        parts.append(_tr("Dés : {0}").format(" ; ".join(extra)))
    return bounded("\n".join(parts))
