"""The table's data: plain, immutable rows (a creature's sheet, journal, initiative, note, stable id) and
the fight's clock (round, whose turn, who has started). No Qt here.

An undo step puts a whole previous ``TableState`` back: the rows are immutable, so a state is cheap to
keep (a tuple of references), and undo can never half-apply.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any


@dataclass(frozen=True, slots=True)
class Creature:
    """One row: ``id`` is stable for the life of the open table (selection, undo, an open sheet tab)."""

    id: int
    sheet: Any
    journal: tuple[str, ...] = ()
    initiative: int | None = None
    note: str = ""

    @property
    def name(self) -> str:
        return str(self.sheet.name)

    def with_(self, **changes: Any) -> Creature:
        return replace(self, **changes)


@dataclass(frozen=True, slots=True)
class TableState:
    """Everything an undo step restores.

    ``round``: the round in progress (0: no fight yet); ``turn``: id of the creature whose turn it is
    (None between turns); ``started``: ids whose turn has started in this round (each creature's
    start-of-turn rules run once per round); ``journal``: the table's own journal, oldest first.
    """

    creatures: tuple[Creature, ...] = ()
    round: int = 0
    turn: int | None = None
    started: frozenset[int] = frozenset()
    journal: tuple[str, ...] = ()
    title: str = ""
    # The house rules the table plays by (``rules.HouseRules``), at most one per system: the others
    # play by their base rules. Part of the state, so changing rules is one undoable step.
    house: tuple[Any, ...] = ()
    # Ids are never reused within an open table (an undone creature keeps its id if redone).
    next_id: int = 1
    _index: dict[int, int] | None = field(default=None, compare=False, repr=False)

    def index(self) -> dict[int, int]:
        """Row of each creature id (built once per state)."""
        found = self._index
        if found is None:
            found = {c.id: i for i, c in enumerate(self.creatures)}
            object.__setattr__(self, "_index", found)
        return found

    def row_of(self, creature_id: int) -> int:
        return self.index().get(creature_id, -1)

    def get(self, creature_id: int) -> Creature | None:
        row = self.row_of(creature_id)
        return self.creatures[row] if row >= 0 else None

    def house_of(self, system_id: str) -> Any:
        """The house rules of ``system_id``'s creatures here (``None``: the base rules)."""
        return next((h for h in self.house if h.system == system_id), None)

    def with_(self, **changes: Any) -> TableState:
        if "creatures" in changes:
            changes.setdefault("_index", None)
        return replace(self, **changes)

    def replacing(self, updated: Iterable[Creature]) -> TableState:
        """This state with some creatures replaced (same ids, same rows)."""
        rows = list(self.creatures)
        index = self.index()
        for creature in updated:
            rows[index[creature.id]] = creature
        new = replace(self, creatures=tuple(rows), _index=None)
        object.__setattr__(new, "_index", index)
        return new
