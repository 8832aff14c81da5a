"""A creature of the table opened in its full sheet (``ui/sheet/sheet_view.SheetView``), bound to its row.

The sheet's view-model is the sheet's own, except that every change goes to the table
(``TableViewModel.apply_to``) and its undo stack is the table's: one history for the document, an edit
made in the sheet shows at once in the row and an edit of the row (a bulk damage, an undo) at once in
the sheet, and nothing is applied twice.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from PySide6.QtCore import QObject, Signal

import rules
from ui.sheet.viewmodel import SheetViewModel, State
from ui.table.viewmodel import TableChanges, TableViewModel


class RowSheetViewModel(SheetViewModel):
    """The sheet view-model of one creature of a table."""

    gone = Signal()  # the creature left the table (removed, or its addition undone): close the sheet

    def __init__(self, table: TableViewModel, creature_id: int, parent: QObject | None = None) -> None:
        creature = table.creature(creature_id)
        if creature is None:
            raise KeyError(creature_id)
        super().__init__(
            creature.sheet,
            rng=table.rng,
            journal=creature.journal,
            house=table.house_of(creature.sheet.system),
            parent=parent,
        )
        own = self.undo_stack
        # One history per document: the sheet's Annuler / Rétablir are the table's.
        self.undo_stack = table.undo_stack
        own.setParent(None)
        own.deleteLater()
        self.table = table
        self.creature_id = creature_id
        table.changed.connect(self._on_table_changed)

    def apply(self, action: rules.Action, *, text: str | None = None, preface: Iterable[str] = ()) -> Any:
        """Through the table: its rules, its journal, its undo stack (the row and this sheet follow)."""
        reasons: list[str] = []
        outcome = self.table.apply_to(
            self.creature_id,
            action,
            text=text or self.title_of(action),
            preface=preface,
            on_refused=reasons.append,
        )
        if outcome is None:
            if reasons:
                self.refused.emit(reasons[0])
            return None
        dice = "; ".join(r.detail for r in outcome.rolls if not r.given)
        if dice:
            self.rolled.emit(dice)
        self._notify(outcome.events)
        self.applied.emit(action)
        return outcome

    def replace_sheet(self, sheet: Any, journal: Iterable[str] | None = None, house: Any = None) -> None:
        raise RuntimeError("a table's creature is reloaded with its table")

    def set_house_rules(self, house: Any) -> bool:
        """A creature plays by its table's rules: the change is the table's, for its whole system."""
        reasons: list[str] = []
        done = self.table.set_house_rules(self.sheet.system, house, on_refused=reasons.append)
        if reasons:
            self.refused.emit(reasons[0])
        return done

    def _on_table_changed(self, changes: TableChanges) -> None:
        if self.creature_id in changes.removed:
            self.gone.emit()
            return
        if changes.everything or self.creature_id in changes.rows or self.creature_id in changes.added:
            creature = self.table.creature(self.creature_id)
            if creature is None:
                self.gone.emit()
                return
            house = self.table.house_of(creature.sheet.system)
            if creature.sheet is not self.sheet or creature.journal != self.journal or house != self.house:
                self._install(State(creature.sheet, creature.journal, house))

    def unbind(self) -> None:
        try:
            self.table.changed.disconnect(self._on_table_changed)
        except (RuntimeError, TypeError):
            pass
