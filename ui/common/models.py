"""Qt item models over plain data: the journal, the wounds and scars, the conditions.

They hold display rows built from the view-model; they never apply a rule. Row updates are diffed
(insert at the top, remove a block, change in place) so views keep their selection and scroll.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import (
    QAbstractItemModel,
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QStringListModel,
    Qt,
)
from PySide6.QtGui import QBrush, QColor, QFont

AnyIndex = QModelIndex | QPersistentModelIndex
KeyRole = Qt.ItemDataRole.UserRole + 1


@dataclass(frozen=True, slots=True)
class Row:
    """One display row: a stable key, its cells, a tooltip per cell (or one for all)."""

    key: Hashable
    cells: tuple[str, ...]
    tooltips: tuple[str, ...] = ()
    # Colour of the text (e.g. a bleeding wound in red); "" for the default.
    colour: str = ""
    bold: bool = False


def _diff_apply(
    model: QAbstractItemModel,
    old: list[Row],
    new: list[Row],
    store: Callable[[list[Row]], None],
    columns: int,
) -> None:
    """Move ``model`` from ``old`` rows to ``new`` with the smallest Qt notification that fits."""
    old_keys = [r.key for r in old]
    new_keys = [r.key for r in new]
    if old_keys == new_keys:
        store(new)
        changed = [i for i, (a, b) in enumerate(zip(old, new, strict=True)) if a != b]
        if changed:
            model.dataChanged.emit(model.index(changed[0], 0), model.index(changed[-1], columns - 1))
        return
    grow = len(new_keys) - len(old_keys)
    if grow > 0:
        # Insertion of one block anywhere (new journal entries go on top, new wounds at the end).
        for start in range(len(new_keys) - grow + 1):
            if new_keys[:start] + new_keys[start + grow :] == old_keys:
                between = [*old[:start], *new[start : start + grow], *old[start:]]
                model.beginInsertRows(QModelIndex(), start, start + grow - 1)
                store(between)
                model.endInsertRows()
                _diff_apply(model, between, new, store, columns)
                return
    elif grow < 0:
        shrink = -grow
        for start in range(len(old_keys) - shrink + 1):
            if old_keys[:start] + old_keys[start + shrink :] == new_keys:
                between = [*old[:start], *old[start + shrink :]]
                model.beginRemoveRows(QModelIndex(), start, start + shrink - 1)
                store(between)
                model.endRemoveRows()
                _diff_apply(model, between, new, store, columns)
                return
    model.beginResetModel()
    store(new)
    model.endResetModel()


_TEXT_ROLES = frozenset({int(Qt.ItemDataRole.DisplayRole), int(Qt.ItemDataRole.AccessibleTextRole)})
_TOOLTIP_ROLE = int(Qt.ItemDataRole.ToolTipRole)
_FOREGROUND_ROLE = int(Qt.ItemDataRole.ForegroundRole)
_FONT_ROLE = int(Qt.ItemDataRole.FontRole)
# Every role ``RowsModel.data`` may answer.
_ROWS_ROLES = _TEXT_ROLES | {_TOOLTIP_ROLE, _FOREGROUND_ROLE, _FONT_ROLE, int(KeyRole)}


class RowsModel(QAbstractTableModel):
    """A flat table of ``Row``s with fixed French headers (wounds, scars)."""

    def __init__(self, headers: Sequence[str], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._headers = tuple(headers)
        self._rows: list[Row] = []

    def rows(self) -> list[Row]:
        return list(self._rows)

    def shown_rows(self) -> Sequence[Row]:
        """The rows as the views are told them (read only; no copy)."""
        return self._rows

    def set_rows(self, rows: Sequence[Row]) -> None:
        _diff_apply(self, self._rows, list(rows), self._store, len(self._headers))

    def _store(self, rows: list[Row]) -> None:
        self._rows = rows

    def key_at(self, row: int) -> Hashable | None:
        return self._rows[row].key if 0 <= row < len(self._rows) else None

    def row_of(self, key: Hashable) -> int:
        for i, r in enumerate(self._rows):
            if r.key == key:
                return i
        return -1

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008 (Qt signature)
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._headers)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            if 0 <= section < len(self._headers):
                return self._headers[section]
        return None

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        # A view asks each cell for a dozen roles each time it measures or paints it (every row, when
        # its columns fit their contents after each edit): the roles this model never fills are answered
        # first, without looking at the row (issue 15).
        if role not in _ROWS_ROLES or not index.isValid():
            return None
        at = index.row()
        if not 0 <= at < len(self._rows):
            return None
        row = self._rows[at]
        col = index.column()
        if role in _TEXT_ROLES:
            return row.cells[col] if col < len(row.cells) else ""
        if role == _TOOLTIP_ROLE:
            if not row.tooltips:
                return None
            return row.tooltips[col] if col < len(row.tooltips) else row.tooltips[0]
        if role == _FOREGROUND_ROLE and row.colour:
            return QBrush(QColor(row.colour))
        if role == _FONT_ROLE and row.bold:
            font = QFont()
            font.setBold(True)
            return font
        if role == KeyRole:
            return row.key
        return None


class JournalModel(QStringListModel):
    """The journal, newest entry first; each entry is its title line then what happened, dice included.

    A C++ list of strings underneath (issue 15): a view laying out 5,000 entries asks the model for each
    row's index, and a Python ``rowCount`` answered 5,000 times per new entry. New entries come in with
    ``beginInsertRows`` at the top, entries that leave go with ``beginRemoveRows``, never a reset (a view
    then lays out again only what it must).
    """

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._keys: list[int] = []
        self._texts: list[str] = []

    def set_entries(
        self, entries_oldest_first: Sequence[str], limit: int | None = None, keys: Sequence[int] | None = None
    ) -> None:
        """Show the entries, newest on top; only the newest ``limit`` when given (long campaigns).

        ``keys``: each entry's place in the whole journal (when a filter shows only some of them).
        """
        count = len(entries_oldest_first)
        first = 0 if limit is None else max(0, count - limit)
        # Keys number entries from the oldest, so an entry keeps its key as newer ones arrive on top.
        places = list(keys) if keys is not None else range(count)
        new_keys = [places[i] for i in range(count - 1, first - 1, -1)]
        new_texts = [entries_oldest_first[i] for i in range(count - 1, first - 1, -1)]
        grown = len(new_keys) - len(self._keys)
        if grown >= 0 and new_keys[grown:] == self._keys:
            # The usual step: new entries on top, the rest unchanged (one block in).
            self._insert(0, new_keys[:grown], new_texts[:grown])
        else:
            # Rows that leave (the oldest sliding out of the window, or entries undone) go first, in runs
            # from the bottom; then the new ones come in, block by block.
            keep = set(new_keys)
            end = len(self._keys)
            while end > 0:
                if self._keys[end - 1] in keep:
                    end -= 1
                    continue
                start = end - 1
                while start > 0 and self._keys[start - 1] not in keep:
                    start -= 1
                super().removeRows(start, end - start)  # Qt's own begin/endRemoveRows
                del self._keys[start:end], self._texts[start:end]
                end = start
            # What is left is in the new order (keys only ever go down the list): insert the missing runs.
            row = 0
            while row < len(new_keys):
                if row < len(self._keys) and self._keys[row] == new_keys[row]:
                    row += 1
                    continue
                stop = row
                while stop < len(new_keys) and (row >= len(self._keys) or new_keys[stop] != self._keys[row]):
                    stop += 1
                self._insert(row, new_keys[row:stop], new_texts[row:stop])
                row = stop
        changed = [i for i, (a, b) in enumerate(zip(self._texts, new_texts, strict=True)) if a is not b and a != b]
        for i in changed:  # the same entry shown otherwise (the GM's lines shown or hidden)
            self._texts[i] = new_texts[i]
            super().setData(self.index(i, 0), new_texts[i], Qt.ItemDataRole.DisplayRole)

    def _insert(self, row: int, keys: list[int], texts: list[str]) -> None:
        if not keys:
            return
        # Qt's own insertRows announces the rows (rowsInserted), then their texts come in as one
        # dataChanged (one signal for the block, not one per row).
        super().insertRows(row, len(keys))
        blocked = self.blockSignals(True)
        try:
            for offset, text in enumerate(texts):
                super().setData(self.index(row + offset, 0), text, Qt.ItemDataRole.DisplayRole)
        finally:
            self.blockSignals(blocked)
        self._keys[row:row] = keys
        self._texts[row:row] = texts
        self.dataChanged.emit(self.index(row, 0), self.index(row + len(keys) - 1, 0))

    @property
    def shown(self) -> int:
        return len(self._keys)

    def entry(self, row: int) -> str:
        return self._texts[row]

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole, Qt.ItemDataRole.ToolTipRole):
            # Qt's list holds the text as the views were told (``_texts`` follows once a change is done).
            return super().data(index, Qt.ItemDataRole.DisplayRole)
        return None

    # No ``flags`` here: a view asks every row's flags as it lays them out (Qt's list answers in C++);
    # nothing edits an entry: ``setData`` refuses and ``JournalDelegate`` opens no editor.
    def setData(self, index: AnyIndex, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        return False  # the journal is written by the rules only

    def insertRows(self, row: int, count: int, parent: AnyIndex = QModelIndex()) -> bool:  # noqa: B008
        return False

    def removeRows(self, row: int, count: int, parent: AnyIndex = QModelIndex()) -> bool:  # noqa: B008
        return False


@dataclass(slots=True)
class ConditionItem:
    """One tickable state: ticked when posed, ticked and greyed when implied by another."""

    id: str
    label: str
    effects: tuple[str, ...]
    posed: bool = False
    implied_by: str = ""  # French reason when the state comes from another one
    countdown: str = ""  # « encore 2 rounds » for a state put for a while


@dataclass(slots=True)
class ConditionGroup:
    id: str
    label: str
    note: str
    items: list[ConditionItem] = field(default_factory=list)


# A state's row flags (ticked and greyed, or checkable), combined on the first row asked for, then kept
# (issue 15: ``Flag.__or__`` is Python's ``enum``, a class call and a member lookup each: ~100 of them
# per sheet built when each row's flags were combined again).
_row_flags: tuple[Qt.ItemFlag, Qt.ItemFlag] | None = None


def _flags_of_rows() -> tuple[Qt.ItemFlag, Qt.ItemFlag]:
    global _row_flags
    if _row_flags is None:
        implied = Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemNeverHasChildren
        _row_flags = implied, implied | Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsUserCheckable
    return _row_flags


class ConditionModel(QAbstractItemModel):
    """The system's states grouped as the seed groups them (a two-level tree: groups, then states).

    Ticking a state calls ``on_toggle(id, active)``; the model changes only when the view-model says
    the sheet changed (``set_state``), so a refused tick leaves the box as it was.
    """

    def __init__(
        self,
        groups: Sequence[ConditionGroup],
        on_toggle: Callable[[str, bool], bool] | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._groups = [g for g in groups if g.items]
        self._on_toggle = on_toggle

    def condition_ids(self) -> list[str]:
        return [i.id for g in self._groups for i in g.items]

    def item(self, condition_id: str) -> ConditionItem | None:
        for g in self._groups:
            for i in g.items:
                if i.id == condition_id:
                    return i
        return None

    def set_state(self, posed: frozenset[str], implied: dict[str, str]) -> None:
        """Update ticks from the sheet: ``posed`` ids, and ``implied`` id → French reason."""
        for g_row, group in enumerate(self._groups):
            for row, item in enumerate(group.items):
                now_posed = item.id in posed
                now_implied = "" if now_posed else implied.get(item.id, "")
                if (now_posed, now_implied) != (item.posed, item.implied_by):
                    item.posed, item.implied_by = now_posed, now_implied
                    idx = self.createIndex(row, 0, g_row + 1)
                    self.dataChanged.emit(idx, idx)

    def set_countdowns(self, countdowns: dict[str, str]) -> None:
        """What remains of each timed state (condition id → French text); others have none."""
        for g_row, group in enumerate(self._groups):
            for row, item in enumerate(group.items):
                text = countdowns.get(item.id, "")
                if text != item.countdown:
                    item.countdown = text
                    idx = self.createIndex(row, 0, g_row + 1)
                    self.dataChanged.emit(idx, idx)

    # --- tree structure: internal id 0 = a group row; n > 0 = a state of group n − 1 -------------------

    def index(self, row: int, column: int, parent: AnyIndex = QModelIndex()) -> QModelIndex:  # noqa: B008
        if column != 0 or row < 0:
            return QModelIndex()
        if not parent.isValid():
            return self.createIndex(row, 0, 0) if row < len(self._groups) else QModelIndex()
        if parent.internalId() != 0 or parent.column() != 0:
            return QModelIndex()
        g_row = parent.row()
        if 0 <= g_row < len(self._groups) and row < len(self._groups[g_row].items):
            return self.createIndex(row, 0, g_row + 1)
        return QModelIndex()

    def parent(self, index: AnyIndex = QModelIndex()) -> QModelIndex:  # type: ignore[override]  # noqa: B008
        if not index.isValid() or index.internalId() == 0:
            return QModelIndex()
        return self.createIndex(int(index.internalId()) - 1, 0, 0)

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        if not parent.isValid():
            return len(self._groups)
        if parent.internalId() == 0 and parent.column() == 0:
            return len(self._groups[parent.row()].items)
        return 0

    def columnCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        return 1

    def hasChildren(self, parent: AnyIndex = QModelIndex()) -> bool:  # noqa: B008
        return self.rowCount(parent) > 0

    def _item(self, index: AnyIndex) -> ConditionItem | None:
        if not index.isValid() or index.internalId() == 0:
            return None
        return self._groups[int(index.internalId()) - 1].items[index.row()]

    def flags(self, index: AnyIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        item = self._item(index)
        if item is None:
            return Qt.ItemFlag.ItemIsEnabled
        implied, checkable = _row_flags or _flags_of_rows()
        if item.implied_by:
            # Shown ticked and greyed: it comes from another state and goes with it.
            return implied
        return checkable

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        item = self._item(index)
        if item is None:
            group = self._groups[index.row()]
            if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
                return group.label
            if role == Qt.ItemDataRole.ToolTipRole:
                return group.note or None
            if role == Qt.ItemDataRole.FontRole:
                font = QFont()
                font.setBold(True)
                return font
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return f"{item.label} — {item.countdown}" if item.countdown and item.posed else item.label
        if role == Qt.ItemDataRole.AccessibleTextRole:
            state = "coché" if item.posed or item.implied_by else "non coché"
            text = f"{item.label}, {state}" + (f", {item.implied_by}" if item.implied_by else "")
            return text + (f", {item.countdown}" if item.countdown and item.posed else "")
        if role == Qt.ItemDataRole.CheckStateRole:
            on = item.posed or bool(item.implied_by)
            return Qt.CheckState.Checked if on else Qt.CheckState.Unchecked
        if role == Qt.ItemDataRole.ToolTipRole:
            # Plain text (the labels come from a rule table a GM may have written).
            lines = [item.label]
            if item.countdown and item.posed:
                lines.append(item.countdown)
            if item.implied_by:
                lines.append(f"({item.implied_by})")
            lines.extend(f"• {e}" for e in item.effects)
            return "\n".join(lines)
        if role == KeyRole:
            return item.id
        return None

    def setData(self, index: AnyIndex, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        item = self._item(index)
        if item is None or role != Qt.ItemDataRole.CheckStateRole or item.implied_by:
            return False
        state = value if isinstance(value, Qt.CheckState) else Qt.CheckState(int(value))
        active = state == Qt.CheckState.Checked
        if active == item.posed or self._on_toggle is None:
            return False
        return self._on_toggle(item.id, active)
