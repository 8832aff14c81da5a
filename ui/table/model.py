"""The table as a Qt model: one row per creature, over the view-model's plain rows.

It computes no rule: each row's numbers and words come from ``rules.summarise`` (kept per sheet by the
view-model, computed only for the rows a view asks about). A state swap becomes the smallest Qt
notification that fits: rows removed and inserted in runs, ``dataChanged`` for the runs of rows that
changed, never a reset. ``TableFilter`` sorts (turn order by default) and filters (name, state,
« seulement les vivants ») without touching the rows.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)
from PySide6.QtGui import QBrush, QColor, QFont

import rules
from ui.common.texts import fmt_number, tr_const
from ui.table.state import Creature, TableState
from ui.table.viewmodel import TableViewModel

AnyIndex = QModelIndex | QPersistentModelIndex

TURN, NAME, SYSTEM, STATE, POINTS, CONDITIONS, WOUNDS, INITIATIVE, NOTE = range(9)
HEADERS = (
    QT_TRANSLATE_NOOP("Constant", "Tour"),
    QT_TRANSLATE_NOOP("Constant", "Nom"),
    QT_TRANSLATE_NOOP("Constant", "Système"),
    QT_TRANSLATE_NOOP("Constant", "État"),
    QT_TRANSLATE_NOOP("Constant", "Points"),
    QT_TRANSLATE_NOOP("Constant", "États"),
    QT_TRANSLATE_NOOP("Constant", "Blessures"),
    QT_TRANSLATE_NOOP("Constant", "Init."),
    QT_TRANSLATE_NOOP("Constant", "Note"),
)
# What the players may see: names, state words and conditions, the turn marker; never a number.
PLAYER_COLUMNS = frozenset({TURN, NAME, STATE, CONDITIONS})
EDITABLE = frozenset({NAME, INITIATIVE, NOTE})
# The players' screen lists the creatures in turn order (a sort key, never shown).
PLAYER_SORTS = frozenset({TURN, NAME, INITIATIVE})

IdRole = Qt.ItemDataRole.UserRole + 1
SummaryRole = Qt.ItemDataRole.UserRole + 2
SortRole = Qt.ItemDataRole.UserRole + 3
ColourRole = Qt.ItemDataRole.UserRole + 4
# Roles that carry what a cell says (hidden from the players in the columns they may not see).
_TEXT_ROLES = (
    Qt.ItemDataRole.DisplayRole,
    Qt.ItemDataRole.ToolTipRole,
    Qt.ItemDataRole.AccessibleTextRole,
    Qt.ItemDataRole.EditRole,
    SummaryRole,
)

CURRENT_MARK = "▶"
DONE_MARK = "✓"
TURN_BACKGROUND = QColor("#fff3c4")
DEAD_TEXT = QColor("#757575")
HIDDEN = "?"

CATEGORY_RANK = {"up": 0, "down": 1, "dying": 2, "dead": 3}


def _fold(text: str) -> str:
    """Case and accents folded, so « eleve » finds « Élève »."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


class TableModel(QAbstractTableModel):
    """The rows of one ``TableViewModel``; ``player`` shows only what players may see."""

    def __init__(self, vm: TableViewModel, *, player: bool | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.vm = vm
        # None: follow the view-model's GM/player view; True/False: fixed (the players' screen).
        self._fixed_player = player
        self._rows: tuple[Creature, ...] = vm.state.creatures
        self._state: TableState = vm.state
        vm.swapped.connect(self._on_swapped)
        vm.gmViewChanged.connect(self._on_view_mode)

    # --- reading ----------------------------------------------------------------------------------

    @property
    def player(self) -> bool:
        return self._fixed_player if self._fixed_player is not None else not self.vm.gm_view

    def creature(self, row: int) -> Creature | None:
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def row_of(self, creature_id: int) -> int:
        return self._state.row_of(creature_id) if self._state.creatures is self._rows else -1

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008 (Qt signature)
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(HEADERS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(HEADERS):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return tr_const(HEADERS[section])
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._header_tip(section)
        return None

    def _header_tip(self, section: int) -> str | None:
        tips = {
            TURN: QT_TRANSLATE_NOOP("Constant", "▶ : la créature dont c'est le tour ; ✓ : son tour est passé ce round"),
            POINTS: QT_TRANSLATE_NOOP(
                "Constant", "Points actuels / maximum effectif ; en bleu les temporaires, en violet les non létaux"
            ),
            INITIATIVE: QT_TRANSLATE_NOOP(
                "Constant", "Initiative : l'ordre du tour va de la plus haute à la plus basse"
            ),
        }
        text = tips.get(section)
        return tr_const(text) if text else None

    def flags(self, index: AnyIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        base = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemNeverHasChildren
        if index.column() in EDITABLE and not self.player:
            base |= Qt.ItemFlag.ItemIsEditable
        return base

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        creature = self.creature(index.row())
        if creature is None:
            return None
        column = index.column()
        if role == IdRole:
            return creature.id
        player = self.player
        if player:
            if role == SortRole and column not in PLAYER_SORTS:
                return None
            if column not in PLAYER_COLUMNS and role in _TEXT_ROLES:
                return None
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
            return self._text(creature, column, player)
        if role == Qt.ItemDataRole.EditRole:
            if column == NAME:
                return creature.name
            if column == INITIATIVE:
                return "" if creature.initiative is None else str(creature.initiative)
            if column == NOTE:
                return creature.note
            return self._text(creature, column, player)
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(creature, column, player)
        if role == SummaryRole:
            return self.vm.summary(creature)
        if role == ColourRole and column == STATE:
            summary = self.vm.summary(creature)
            return "#616161" if self._state_hidden(summary, player) else summary.colour
        if role == SortRole:
            return self._sort_key(creature, column, index.row())
        if role == Qt.ItemDataRole.BackgroundRole and creature.id == self.vm.state.turn:
            return QBrush(TURN_BACKGROUND)
        if role == Qt.ItemDataRole.ForegroundRole and column != STATE and self.vm.summary(creature).category == "dead":
            return QBrush(DEAD_TEXT)
        if role == Qt.ItemDataRole.FontRole and column in (TURN, NAME) and creature.id == self.vm.state.turn:
            font = QFont()
            font.setBold(True)
            return font
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (TURN, INITIATIVE):
            return int(Qt.AlignmentFlag.AlignCenter)
        return None

    def _state_hidden(self, summary: rules.Summary, player: bool) -> bool:
        return player and "state" in summary.hidden

    def _text(self, creature: Creature, column: int, player: bool) -> str:
        state = self.vm.state
        if column == TURN:
            if creature.id == state.turn:
                return CURRENT_MARK
            return DONE_MARK if creature.id in state.started else ""
        if column == NAME:
            return creature.name
        if column == SYSTEM:
            return self.vm.info(creature.sheet.system).label
        if column == INITIATIVE:
            return "" if creature.initiative is None else fmt_number(creature.initiative)
        if column == NOTE:
            return creature.note
        summary = self.vm.summary(creature)
        if column == STATE:
            return HIDDEN if self._state_hidden(summary, player) else summary.state_label
        if column == CONDITIONS:
            return ", ".join(label for _id, label in summary.conditions)
        if column == POINTS:
            return self._points_text(creature, summary)
        if column == WOUNDS:
            if not summary.wounds:
                return ""
            text = f"{summary.wounds}"
            if summary.worst_wound:
                text += f" — {summary.worst_wound}"
            if summary.bleeding:
                text += tr_const(QT_TRANSLATE_NOOP("Constant", " (saigne)"))
            return text
        return ""

    def _points_text(self, creature: Creature, summary: rules.Summary) -> str:
        short = self.vm.info(creature.sheet.system).points_short
        if summary.gauge:
            return tr_const(QT_TRANSLATE_NOOP("Constant", "Trauma {0} / {1} {2}")).format(
                fmt_number(summary.current), fmt_number(summary.maximum), short
            )
        text = f"{fmt_number(summary.current)} / {fmt_number(summary.maximum)} {short}"
        if summary.temporary:
            text += tr_const(QT_TRANSLATE_NOOP("Constant", ", +{0} temporaires")).format(summary.temporary)
        if summary.nonlethal:
            text += tr_const(QT_TRANSLATE_NOOP("Constant", ", {0} non létaux")).format(summary.nonlethal)
        return text

    def _tooltip(self, creature: Creature, column: int, player: bool) -> str | None:
        if player:
            # Words only: the name, the state's label, the conditions' labels.
            text = self._text(creature, column, True)
            return text or None
        if column in (POINTS, STATE):
            # How the rules computed them (on hover only: a full derive).
            d = rules.derive(creature.sheet)
            names = ("state",) if column == STATE else ("current", "maximum", "temporary", "nonlethal")
            return "\n".join(d.explain(n) for n in names if n in d and d.explain(n)) or None
        if column == SYSTEM:
            info = self.vm.info(creature.sheet.system)
            return f"{info.label} ({info.seed})"
        if column == TURN:
            return self._header_tip(TURN)
        text = self._text(creature, column, False)
        return text or None

    def _sort_key(self, creature: Creature, column: int, row: int) -> Any:
        if column == INITIATIVE or column == TURN:
            # Turn order when sorted descending: highest first, no initiative last, ties in table order
            # (the row breaks ties, since Qt reverses equal keys in a descending sort).
            rank = float(creature.initiative) if creature.initiative is not None else -1e9
            return rank * 100_000 - row
        if column == NAME:
            return _fold(creature.name)
        if column == SYSTEM:
            return self.vm.info(creature.sheet.system).label.casefold()
        if column == NOTE:
            return _fold(creature.note)
        summary = self.vm.summary(creature)
        if column == STATE:
            return CATEGORY_RANK[summary.category] * 1000 + len(summary.state_label)
        if column == POINTS:
            if summary.maximum <= 0:
                return 0.0
            ratio = summary.current / summary.maximum
            return -ratio if summary.gauge else ratio
        if column == CONDITIONS:
            return float(len(summary.conditions))
        if column == WOUNDS:
            return float(summary.wounds)
        return 0

    # --- editing (through the view-model; the row changes when it says so) -------------------------

    def setData(self, index: AnyIndex, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if role != Qt.ItemDataRole.EditRole or not index.isValid() or self.player:
            return False
        creature = self.creature(index.row())
        if creature is None:
            return False
        column = index.column()
        text = "" if value is None else str(value)
        if column == NAME:
            return self.vm.rename(creature.id, text)
        if column == NOTE:
            return self.vm.set_note(creature.id, text)
        if column == INITIATIVE:
            from ui.common.texts import parse_int

            stripped = text.strip()
            if not stripped:
                return self.vm.set_initiative(creature.id, None)
            number = parse_int(stripped)
            if number is None:
                self.vm.refused.emit(
                    tr_const(QT_TRANSLATE_NOOP("Constant", "Initiative : un nombre entier, ou rien (« {0} »).")).format(
                        stripped
                    )
                )
                return False
            return self.vm.set_initiative(creature.id, number)
        return False

    # --- following the view-model --------------------------------------------------------------------

    def _on_view_mode(self, _gm: bool) -> None:
        if self._fixed_player is None and self._rows:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self._rows) - 1, len(HEADERS) - 1))
            self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(HEADERS) - 1)

    def _on_swapped(self, old: TableState, new: TableState) -> None:
        """From ``old`` rows to ``new`` with removals and insertions in runs, then ``dataChanged`` for the
        runs of rows that changed (common rows keep their relative order: the table never moves one)."""
        rows = list(self._rows)
        new_ids = new.index()
        # Removals, bottom up, in runs.
        end = len(rows)
        while end > 0:
            if rows[end - 1].id in new_ids:
                end -= 1
                continue
            start = end - 1
            while start > 0 and rows[start - 1].id not in new_ids:
                start -= 1
            self.beginRemoveRows(QModelIndex(), start, end - 1)
            del rows[start:end]
            self._rows = tuple(rows)
            self.endRemoveRows()
            end = start
        # Insertions, top down, in runs.
        kept = {c.id for c in rows}
        target = new.creatures
        i = 0
        while i < len(target):
            if target[i].id in kept:
                i += 1
                continue
            start = i
            while i < len(target) and target[i].id not in kept:
                i += 1
            self.beginInsertRows(QModelIndex(), start, i - 1)
            rows[start:start] = target[start:i]
            self._rows = tuple(rows)
            self.endInsertRows()
        if [c.id for c in rows] != [c.id for c in target]:  # never by design: rows are not moved
            self.beginResetModel()
            self._rows, self._state = target, new
            self.endResetModel()
            return
        # Same ids in the same order now: changed rows, and the turn column where the marker moved.
        marks = {old.turn, new.turn} | (old.started ^ new.started)
        changed = [r for r, (a, b) in enumerate(zip(rows, target, strict=True)) if a is not b]
        self._rows = target
        self._state = new
        last = len(HEADERS) - 1
        for first, stop in _runs(changed):
            self.dataChanged.emit(self.index(first, 0), self.index(stop, last))
        marked = sorted({new.row_of(cid) for cid in marks if cid is not None} - {-1} - set(changed))
        for first, stop in _runs(marked):
            # The marker row is drawn highlighted: its whole row repaints.
            self.dataChanged.emit(self.index(first, 0), self.index(stop, last))


def _runs(rows: list[int]) -> list[tuple[int, int]]:
    """Consecutive runs of sorted row numbers: [1, 2, 3, 7] → [(1, 3), (7, 7)]."""
    runs: list[tuple[int, int]] = []
    for row in rows:
        if runs and runs[-1][1] == row - 1:
            runs[-1] = (runs[-1][0], row)
        else:
            runs.append((row, row))
    return runs


STATE_FILTERS = ("", "up", "down", "dying", "dead")


class TableFilter(QSortFilterProxyModel):
    """Sort (by the column's ``SortRole``; turn order by default) and filter: a name, a state or a
    category of states, the living only. Nothing is computed while no filter is on."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.setSortRole(SortRole)
        self.setDynamicSortFilter(True)
        self._name = ""
        self._state = ""  # "" all; a category ("up", "down", "dying", "dead"); or "state:<id>"
        self._living = False

    def table(self) -> TableModel:
        source = self.sourceModel()
        assert isinstance(source, TableModel)
        return source

    def set_name_filter(self, text: str) -> None:
        folded = _fold(text.strip())
        if folded != self._name:
            self._refilter(lambda: setattr(self, "_name", folded))

    def set_state_filter(self, value: str) -> None:
        if value != self._state:
            self._refilter(lambda: setattr(self, "_state", value))

    def set_living_only(self, on: bool) -> None:
        if on != self._living:
            self._refilter(lambda: setattr(self, "_living", on))

    def _refilter(self, change: Callable[[], None]) -> None:
        self.beginFilterChange()
        change()
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def active(self) -> bool:
        return bool(self._name or self._state or self._living)

    def filterAcceptsRow(self, source_row: int, source_parent: AnyIndex) -> bool:
        if not (self._name or self._state or self._living):
            return True
        model = self.table()
        creature = model.creature(source_row)
        if creature is None:
            return False
        if self._name and self._name not in _fold(creature.name):
            return False
        if self._state or self._living:
            summary = model.vm.summary(creature)
            if self._living and summary.category == "dead":
                return False
            if self._state.startswith("state:"):
                return summary.state == self._state[6:]
            if self._state and summary.category != self._state:
                return False
        return True

    def lessThan(self, left: AnyIndex, right: AnyIndex) -> bool:
        a, b = left.data(SortRole), right.data(SortRole)
        if a is None or b is None:
            return a is None and b is not None
        if type(a) is not type(b):
            return str(a) < str(b)
        return bool(a < b)

    def ids(self, proxy_rows: list[int] | None = None) -> list[int]:
        """Creature ids of the rows shown (all, or ``proxy_rows``), in the order shown."""
        rows = range(self.rowCount()) if proxy_rows is None else proxy_rows
        return [self.index(r, 0).data(IdRole) for r in rows]

    def proxy_row_of(self, creature_id: int) -> int:
        source = self.table().row_of(creature_id)
        if source < 0:
            return -1
        return self.mapFromSource(self.table().index(source, 0)).row()
