"""House rules in the window (issue 18): the words both documents use, and the header's banner.

A sheet (``ui/sheet/viewmodel.py``) and a GM table (``ui/table/viewmodel.py``) each keep the house-rule
table they play by in their undoable state; this module says in French what a change of rules does
(the journal entry, the refusal when a sheet does not fit the new rules) and shows the rules in force
(« Règles maison : Campagne de Brume », the differences from the base rules in the tooltip).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QLabel, QWidget

import rules

# Differences listed in a tooltip or a journal entry before « … et N autres ».
MAX_LISTED = 40


def _tr(text: str) -> str:
    return QCoreApplication.translate("HouseRules", text)


def difference_lines(house: Any, limit: int = MAX_LISTED) -> list[str]:
    """What ``house`` (a ``rules.HouseRules``) changes, one French line each, at most ``limit``."""
    lines = house.difference_lines()
    if len(lines) > limit:
        more = len(lines) - limit
        lines = [*lines[:limit], _tr("… et {0} autres différences.").format(more)]
    return lines


def change_entry(old: Any, new: Any, label: str = "") -> tuple[str, list[str]]:
    """The title (also the undo step's) and lines of a journal entry for rules going from ``old`` to
    ``new`` (``None``: the base rules); ``label`` names the system when a table holds several."""
    scope = f" ({label})" if label else ""
    if new is None:
        title = _tr("Retour aux règles de base{0}").format(scope)
        lines = [_tr("Les règles maison « {0} » ne s'appliquent plus.").format(old.title)] if old is not None else []
        return title, lines
    title = _tr("Règles maison : {0}{1}").format(new.title, scope)
    diffs = difference_lines(new)
    if not diffs:
        return title, [_tr("Aucune différence avec les règles de base.")]
    return title, [_tr("Différences avec les règles de base :"), *diffs]


def misfit_lines(house: Any, sheet: Any) -> list[str]:
    """What in ``sheet`` the rules ``house`` do not allow (empty: the sheet can play by them)."""
    if house is None:
        table = None
    else:
        if house.system != sheet.system:
            return [_tr("ces règles sont pour un autre système que celui de la fiche.")]
        table = house.table
    problems = rules.house.sheet_problems(sheet, table) if table is not None else []
    if problems:
        return problems
    try:
        rules.check_sheet(sheet, table)
    except rules.SheetError as exc:
        return list(exc.lines)
    return []


def misfit_message(who: str, lines: Sequence[str]) -> str:
    """The refusal when a sheet does not fit the rules asked for (nothing changes)."""
    head = _tr("Règles refusées : {0} ne les respecte pas (rien n'a changé) :").format(who)
    return "\n".join([head, *lines[:12]])


def tooltip(houses: Sequence[Any]) -> str:
    """The banner's tooltip: for each house table, its title, its file and what it changes."""
    parts: list[str] = []
    for house in houses:
        label = rules.system(house.system).label
        head = _tr("Règles maison « {0} » pour {1}").format(house.title, label)
        diffs = difference_lines(house) or [_tr("Aucune différence avec les règles de base.")]
        parts.append("\n".join([head + _tr(", différences avec les règles de base :"), *diffs]))
    return "\n\n".join(parts)


class HouseRulesBanner(QLabel):
    """« Règles maison : Campagne de Brume » under a document's header; hidden under the base rules.
    Plain text (the title comes from a file); the tooltip is ``tooltip``, escaped."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("houseRulesBanner")
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setWordWrap(True)
        self.setStyleSheet("QLabel { background: #f3e5f5; color: #4a148c; padding: 3px 8px; border-radius: 3px; }")
        self.hide()

    def show_rules(self, houses: Sequence[Any]) -> None:
        houses = [h for h in houses if h is not None]
        if not houses:
            self.clear()
            self.setToolTip("")
            self.hide()
            return
        if len(houses) == 1:
            text = _tr("Règles maison : {0}").format(houses[0].title)
        else:
            shown = ", ".join(f"{h.title} ({rules.system(h.system).label})" for h in houses)
            text = _tr("Règles maison : {0}").format(shown)
        import html  # with the first house rules shown (issue 15: not at start-up)

        self.setText(text)
        # Qt reads a tooltip as rich text when it looks like markup: the file's words are escaped.
        self.setToolTip("<qt>" + html.escape(tooltip(houses)).replace("\n", "<br>") + "</qt>")
        self.show()
