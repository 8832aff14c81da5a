"""The table as a Qt model: one row per creature, over the view-model's plain rows, sorted (turn
order by default) and filtered (a name, a state, « seulement les vivants ») by the model itself.

It computes no rule: each row's numbers and words come from ``rules.summarise`` (kept per sheet by the
view-model, computed only for the rows a view asks about, and ahead of time while the app is idle). A
state swap becomes the smallest Qt notification that fits: rows removed and inserted in runs,
``dataChanged`` for the runs of rows that changed and only in the columns that changed, a layout change
only when the sort order really moves rows; never a reset.

Sorting and filtering live here rather than in a ``QSortFilterProxyModel``: a proxy asks the source for
every role of every cell one by one through Python, and re-sorts with a Python comparison; here a sort
is one ``sorted()`` and a cell answers all its roles in one call (``multiData``).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import Any, NamedTuple

from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QAbstractItemModel,
    QAbstractTableModel,
    QModelIndex,
    QModelRoleData,
    QObject,
    QPersistentModelIndex,
    Qt,
    QTimer,
)
from PySide6.QtGui import QBrush, QColor, QFont

import rules
from rules import table as rtable
from ui.common import guard
from ui.common.health_bar import BarState
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

# Roles as plain numbers: a repaint compares them thousands of times, and an enum compares slower.
_DISPLAY = int(Qt.ItemDataRole.DisplayRole)
_BACKGROUND = int(Qt.ItemDataRole.BackgroundRole)
_FOREGROUND = int(Qt.ItemDataRole.ForegroundRole)
_FONT = int(Qt.ItemDataRole.FontRole)
_ALIGNMENT = int(Qt.ItemDataRole.TextAlignmentRole)
# Roles the table never gives: answered at once.
_IGNORED = frozenset(
    int(r)
    for r in (
        Qt.ItemDataRole.DecorationRole,
        Qt.ItemDataRole.CheckStateRole,
        Qt.ItemDataRole.SizeHintRole,
        Qt.ItemDataRole.StatusTipRole,
        Qt.ItemDataRole.WhatsThisRole,
    )
)
_ROOT = QModelIndex()
_COLUMNS = len(HEADERS)
# The roles a view asks of every cell it paints (a delegate's ``initStyleOption``: font, alignment,
# foreground, check state, decoration, text, background): answered from each row's values, worked
# out once per row change (``_painted``), never per call.
_CHECK_STATE = int(Qt.ItemDataRole.CheckStateRole)
_DECORATION = int(Qt.ItemDataRole.DecorationRole)
PAINT_ROLES = (_DISPLAY, _FONT, _ALIGNMENT, _FOREGROUND, _BACKGROUND, _CHECK_STATE, _DECORATION)
_MISSING = object()
# Qt's methods taken once from their classes: a repaint calls them for every cell, and an attribute
# looked up on a Qt object each time costs more than the call itself. They take a ``QModelIndex``
# (what Qt passes); Python callers may pass a ``QPersistentModelIndex``, answered the usual way.
_row_of_index = QModelIndex.row
_column_of_index = QModelIndex.column
_valid_index = QModelIndex.isValid
_create_index = QAbstractItemModel.createIndex
_role_of = QModelRoleData.role
_set_data = QModelRoleData.setData

CURRENT_MARK = "▶"
DONE_MARK = "✓"
TURN_BACKGROUND = QColor("#fff3c4")
DEAD_TEXT = QColor("#757575")
TURN_BRUSH = QBrush(TURN_BACKGROUND)
DEAD_BRUSH = QBrush(DEAD_TEXT)
CENTRED = int(Qt.AlignmentFlag.AlignCenter)
HIDDEN = "?"

# Rows worked out per idle step (summary, and what a repaint asks of their cells), the pause between
# steps (the app stays responsive meanwhile), and the quiet time after a change before the first step
# (a GM dealing blow after blow is not slowed down).
WARM_CHUNK = 20
WARM_INTERVAL_MS = 20
WARM_DELAY_MS = 400

# Distinct health bars kept as one object each (beyond, the next ones start a new set).
BARS_KEPT = 4096

CATEGORY_RANK = {"up": 0, "down": 1, "dying": 2, "dead": 3}
# What a row's parts show: its sheet (columns Nom … Blessures; greyed when dead), its initiative (the
# turn order, and the « Tour » column sorted by it), its note. A change repaints only those columns,
# and a sheet change leaves the turn order's sort alone.
SHEET_COLUMNS = (NAME, WOUNDS)
INITIATIVE_COLUMNS = (TURN, INITIATIVE)
NOTE_COLUMNS = (NOTE, NOTE)


def _span(sheet: bool, initiative: bool, note: bool) -> tuple[int, int] | None:
    parts = [p for p, on in ((SHEET_COLUMNS, sheet), (INITIATIVE_COLUMNS, initiative), (NOTE_COLUMNS, note)) if on]
    return (min(p[0] for p in parts), max(p[1] for p in parts)) if parts else None


# The columns to repaint for each combination of (sheet, initiative, note) changed.
_SPANS = {(a, b, c): _span(a, b, c) for a in (False, True) for b in (False, True) for c in (False, True)}
_FLAGS = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemNeverHasChildren
_EDITABLE_FLAGS = _FLAGS | Qt.ItemFlag.ItemIsEditable
# Each column's flags, by view mode; the last entry answers an invalid index (its column is -1). A view
# asks the flags of every cell it paints, up to three times for a selected one.
_GM_FLAGS = (*(_EDITABLE_FLAGS if c in EDITABLE else _FLAGS for c in range(len(HEADERS))), Qt.ItemFlag.NoItemFlags)
_PLAYER_FLAGS = (*(_FLAGS for _c in range(len(HEADERS))), Qt.ItemFlag.NoItemFlags)


_BOLD: list[QFont] = []


def _bold() -> QFont:
    """A bold font, made once the application exists."""
    if not _BOLD:
        font = QFont()
        font.setBold(True)
        _BOLD.append(font)
    return _BOLD[0]


def bar_state(summary: rules.Summary, short: str) -> BarState:
    """What the bar draws for one row (numbers from the rules' summary, nothing computed here)."""
    hidden = "current" in summary.hidden or "maximum" in summary.hidden
    text = f"{fmt_number(summary.current)} / {fmt_number(summary.maximum)} {short}"
    if summary.gauge:
        # Trauma fills as wounds come: the row shows how full the gauge is, in the state's colour.
        return BarState(summary.current, summary.maximum, 0, 0, 0, summary.colour, hidden, text)
    return BarState(
        summary.current,
        summary.maximum,
        summary.temporary,
        summary.nonlethal or 0,
        summary.floor,
        summary.colour,
        hidden,
        text,
    )


_SHORT: dict[str, str] = {}


def points_short(system_id: str) -> str:
    """The system's short name for its points (« PA », « PV »…), asked of the rules once."""
    found = _SHORT.get(system_id)
    if found is None:
        found = _SHORT[system_id] = rules.describe(system_id).points_short
    return found


class Painted(NamedTuple):
    """What a repaint asks of one row: per column, the value of each of ``PAINT_ROLES``; what the
    delegates draw (by column); whether the row is the creature whose turn it is; per column, what the
    cell looks like (``looks``: equal for two cells that Qt draws alike, whatever their row)."""

    roles: tuple[dict[int, Any], ...]
    drawings: dict[int, Any]
    turn: bool
    looks: tuple[tuple[Any, ...], ...] = ()


def _look(column: int, values: dict[int, Any]) -> tuple[Any, ...]:
    """What Qt's delegate draws a cell from: its text, and the font, colour, background and alignment
    the model gives (each one of the model's few shared objects, or None), by identity."""
    return (
        column,
        values[_DISPLAY],
        id(values[_FONT]) if values[_FONT] is not None else None,
        id(values[_FOREGROUND]) if values[_FOREGROUND] is not None else None,
        id(values[_BACKGROUND]) if values[_BACKGROUND] is not None else None,
        values[_ALIGNMENT],
    )


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
        self._player = self._fixed_player if self._fixed_player is not None else not vm.gm_view
        # Turn order by default; the filters (all off: every row shown).
        self._sort_column = INITIATIVE
        self._sort_order = Qt.SortOrder.DescendingOrder
        self._name = ""
        self._state_filter = ""  # "" all; a category ("up", "down", "dying", "dead"); or "state:<id>"
        self._living = False
        self._state: TableState = vm.state
        # The rows shown, in the order shown, and the row of each creature id.
        self._rows: tuple[Creature, ...] = self._arranged(vm.state)
        self._rows_of: dict[int, int] = {c.id: i for i, c in enumerate(self._rows)}
        self._flags = _PLAYER_FLAGS if self._player else _GM_FLAGS
        # Each row's cell texts, kept per creature object (rows are immutable) and view mode; and what
        # a repaint asks of each of its cells (``_painted``), kept per creature object, turn mark and view
        # mode: a view asks every role of every visible cell at each repaint.
        self._cells: dict[int, tuple[Creature, bool, tuple[str, ...]]] = {}
        self._painted: dict[int, tuple[Creature, int, bool, Painted]] = {}
        # One object per distinct health bar of the rows (``_painted_row``).
        self._bars: dict[BarState, BarState] = {}
        # The rules' summary of each row, worked out a few rows at a time while the app is idle, so
        # that scrolling finds them ready (a view asks only for the rows it shows).
        self._warm_from = 0
        self._warm = QTimer(self)
        self._warm.setSingleShot(True)
        self._warm.setInterval(WARM_INTERVAL_MS)
        guard.connect(self._warm.timeout, self._warm_up)
        if self._fixed_player is None:
            self._warm.start(WARM_DELAY_MS)
        vm.swapped.connect(self._on_swapped)
        vm.gmViewChanged.connect(self._on_view_mode)

    # --- reading ----------------------------------------------------------------------------------

    @property
    def player(self) -> bool:
        return self._player

    def creature(self, row: int) -> Creature | None:
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def row_of(self, creature_id: int) -> int:
        """The row shown for ``creature_id`` (-1: filtered out or gone)."""
        return self._rows_of.get(creature_id, -1)

    def ids(self, rows: Sequence[int] | None = None) -> list[int]:
        """Creature ids of the rows shown (all, or ``rows``), in the order shown."""
        if rows is None:
            return [c.id for c in self._rows]
        return [self._rows[r].id for r in rows if 0 <= r < len(self._rows)]

    # --- sorting and filtering ------------------------------------------------------------------------

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Qt's sort (a click on a column's header): the rows move, the selection follows them."""
        if not 0 <= column < len(HEADERS):
            return
        if self._player and column not in PLAYER_SORTS:
            column = INITIATIVE
        self._sort_column, self._sort_order = column, order
        self._relayout(self._arranged(self._state))

    def sort_column(self) -> int:
        return self._sort_column

    def set_name_filter(self, text: str) -> None:
        folded = _fold(text.strip())
        if folded != self._name:
            self._name = folded
            self._refilter()

    def set_state_filter(self, value: str) -> None:
        if value != self._state_filter:
            self._state_filter = value
            self._refilter()

    def set_living_only(self, on: bool) -> None:
        if on != self._living:
            self._living = on
            self._refilter()

    def active(self) -> bool:
        return bool(self._name or self._state_filter or self._living)

    def accepts(self, creature: Creature) -> bool:
        if self._name and self._name not in _fold(creature.name):
            return False
        if self._state_filter or self._living:
            state = self.vm.state_of(creature)
            category = rtable.category(state)
            if self._living and category == "dead":
                return False
            if self._state_filter.startswith("state:"):
                return state == self._state_filter[6:]
            if self._state_filter and category != self._state_filter:
                return False
        return True

    def _arranged(self, state: TableState) -> tuple[Creature, ...]:
        """The creatures of ``state`` that the filters let through, in the sort's order (equal keys in
        table order, either way: Python's sort is stable, reversed too)."""
        rows = [c for c in state.creatures if self.accepts(c)] if self.active() else list(state.creatures)
        column = self._sort_column
        descending = self._sort_order == Qt.SortOrder.DescendingOrder
        rows.sort(key=lambda c: self._sort_key(c, column), reverse=descending)
        return tuple(rows)

    def _refilter(self) -> None:
        new = self._arranged(self._state)
        if not self._move_to(new):
            self._relayout(new)

    def _set_rows(self, rows: Sequence[Creature]) -> None:
        self._rows = tuple(rows)
        self._rows_of = {c.id: i for i, c in enumerate(self._rows)}

    def _move_to(self, target: tuple[Creature, ...]) -> bool:
        """From the rows shown to ``target`` by removals then insertions in runs, when the rows kept
        keep their order; False (nothing done) when rows must move."""
        target_ids = {c.id: c for c in target}
        kept_old = [c.id for c in self._rows if c.id in target_ids]
        current = self._rows_of
        if kept_old != [c.id for c in target if c.id in current]:
            return False
        rows = list(self._rows)
        end = len(rows)
        while end > 0:
            if rows[end - 1].id in target_ids:
                end -= 1
                continue
            start = end - 1
            while start > 0 and rows[start - 1].id not in target_ids:
                start -= 1
            self.beginRemoveRows(QModelIndex(), start, end - 1)
            del rows[start:end]
            self._set_rows(rows)
            self.endRemoveRows()
            end = start
        kept = set(kept_old)
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
            self._set_rows(rows)
            self.endInsertRows()
        return True

    def _relayout(self, target: tuple[Creature, ...]) -> None:
        """Rows move (a new sort, or a sort key that changed): a layout change, the selection and the
        current row following their creatures."""
        self.layoutAboutToBeChanged.emit()
        persistent = self.persistentIndexList()
        ids = [self._rows[i.row()].id if 0 <= i.row() < len(self._rows) else None for i in persistent]
        self._set_rows(target)
        moved = [
            self.index(self._rows_of[cid], i.column()) if cid in self._rows_of else QModelIndex()
            for cid, i in zip(ids, persistent, strict=True)
        ]
        self.changePersistentIndexList(persistent, moved)
        self.layoutChanged.emit()

    def index(self, row: int, column: int, parent: AnyIndex = _ROOT) -> QModelIndex:
        # One Python call where Qt's own ``index`` would make two (``rowCount`` and ``columnCount``):
        # a view asks for an index for every cell it paints.
        if 0 <= row < len(self._rows) and 0 <= column < _COLUMNS:
            try:
                valid = _valid_index(parent)
            except TypeError:  # a QPersistentModelIndex, from Python
                valid = parent.isValid()
            if not valid:
                return _create_index(self, row, column)
        return QModelIndex()

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
        # An invalid index has column -1: the table's last entry, no flags. A view asks up to three
        # times per cell it paints (a selected one).
        try:
            column = _column_of_index(index)
        except TypeError:  # a QPersistentModelIndex, from Python
            column = index.column()
        return self._flags[column]

    def data(self, index: AnyIndex, role: int = _DISPLAY) -> Any:
        row, column = index.row(), index.column()
        if row < 0 or row >= len(self._rows):
            return None
        creature = self._rows[row]
        role = int(role)
        value = self._painted_row(creature).roles[column].get(role, _MISSING)
        if value is not _MISSING:
            return value
        return self._value(creature, column, role, self._player)

    def _value(self, creature: Creature, column: int, role: int, player: bool) -> Any:
        """What the cell of ``creature`` in ``column`` says for ``role`` (each call works it out)."""
        if role == _DISPLAY:
            if player and column not in PLAYER_COLUMNS:
                return None
            if column == TURN:
                return self._turn_mark(creature)
            return self._row_cells(creature)[column]
        if role == _BACKGROUND:
            return TURN_BRUSH if creature.id == self._state.turn else None
        if role == _FOREGROUND:
            if NAME <= column <= WOUNDS and column != STATE and self.vm.category_of(creature) == "dead":
                return DEAD_BRUSH
            return None
        if role == _FONT:
            return _bold() if column in (TURN, NAME) and creature.id == self._state.turn else None
        if role == _ALIGNMENT:
            return CENTRED if column in (TURN, INITIATIVE) else None
        if role in _IGNORED:
            return None
        if role == IdRole:
            return creature.id
        if role == SortRole:
            if player and column not in PLAYER_SORTS:
                return None
            return self._sort_key(creature, column)
        if player and column not in PLAYER_COLUMNS and role in _TEXT_ROLES:
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
        return None

    def _painted_row(self, creature: Creature) -> Painted:
        """What a repaint asks of each cell of ``creature``'s row, worked out once per row change."""
        state = self._state
        cid = creature.id
        mark = 1 if cid == state.turn else 2 if cid in state.started else 0
        player = self._player
        cached = self._painted.get(cid)
        if cached is not None and cached[0] is creature and cached[1] == mark and cached[2] == player:
            return cached[3]
        # The same answers as ``_value`` (a test holds them equal), worked out for the whole row at once.
        cells = self._row_cells(creature)
        turn = mark == 1
        background = TURN_BRUSH if turn else None
        bold = _bold() if turn else None
        dead = self.vm.category_of(creature) == "dead"
        roles = tuple(
            {
                _DISPLAY: None
                if player and column not in PLAYER_COLUMNS
                else (CURRENT_MARK if turn else DONE_MARK if mark else "")
                if column == TURN
                else cells[column],
                _FONT: bold if column == TURN or column == NAME else None,
                _ALIGNMENT: CENTRED if column == TURN or column == INITIATIVE else None,
                _FOREGROUND: DEAD_BRUSH if dead and NAME <= column <= WOUNDS and column != STATE else None,
                _BACKGROUND: background,
                _CHECK_STATE: None,
                _DECORATION: None,
            }
            for column in range(len(HEADERS))
        )
        drawings: dict[int, Any] = {}
        summary = self._value(creature, POINTS, SummaryRole, player)
        if isinstance(summary, rules.Summary):
            # The bar, worked out with the row; equal bars (most rows of a fight) as one object.
            bar = bar_state(summary, points_short(summary.system))
            if len(self._bars) > BARS_KEPT:
                self._bars.clear()
            drawings[POINTS] = ("bar", self._bars.setdefault(bar, bar))
        label = roles[STATE][_DISPLAY]
        colour = self._value(creature, STATE, ColourRole, player)
        if isinstance(label, str) and isinstance(colour, str):
            drawings[STATE] = ("badge", label, colour)
        painted = Painted(roles, drawings, mark == 1, tuple(_look(c, values) for c, values in enumerate(roles)))
        self._painted[cid] = (creature, mark, player, painted)
        return painted

    def drawing(self, row: int, column: int) -> tuple[Any, bool] | None:
        """For the table's delegates, without a round trip through Qt: what the cell draws (``("bar",
        BarState)`` or ``("badge", label, colour)``; None: nothing of its own) and whether the row is
        highlighted as the creature whose turn it is."""
        if not 0 <= row < len(self._rows):
            return None
        painted = self._painted_row(self._rows[row])
        found = painted.drawings.get(column)
        return None if found is None else (found, painted.turn)

    def look(self, row: int, column: int) -> tuple[Any, ...] | None:
        """For the table's text delegate: what the cell shows, as a key equal for two cells that Qt
        draws alike (None: no such row)."""
        if not 0 <= row < len(self._rows) or not 0 <= column < _COLUMNS:
            return None
        return self._painted_row(self._rows[row]).looks[column]

    def _warm_up(self) -> None:
        """A few rows more worked out while the app is idle: their summary, and for the rows shown what a
        repaint asks of their cells (``_painted_row``: texts, colours, what the delegates draw), so that
        scrolling to them only draws."""
        rows = self._state.creatures
        end = min(len(rows), self._warm_from + WARM_CHUNK)
        shown = self._rows_of
        for creature in rows[self._warm_from : end]:
            self.vm.summary(creature)
            if creature.id in shown:
                self._painted_row(creature)
        self._warm_from = end
        if end < len(rows):
            self._warm.start(WARM_INTERVAL_MS)

    def multiData(self, index: AnyIndex, roleDataSpan: Any) -> None:
        """Every role a view asks of one cell in one call (a delegate asks seven at a time), each set
        or cleared (the span is reused from cell to cell: a role without value must be cleared)."""
        try:
            row, column = _row_of_index(index), _column_of_index(index)
        except TypeError:  # a QPersistentModelIndex, from Python
            row, column = index.row(), index.column()
        if row < 0 or row >= len(self._rows):
            return
        creature = self._rows[row]
        get = self._painted_row(creature).roles[column].get
        for item in roleDataSpan:
            role = _role_of(item)
            value = get(role, _MISSING)
            if value is _MISSING:
                value = self._value(creature, column, role, self._player)
            _set_data(item, value)  # None clears it

    def _turn_mark(self, creature: Creature) -> str:
        state = self._state
        if creature.id == state.turn:
            return CURRENT_MARK
        return DONE_MARK if creature.id in state.started else ""

    def _row_cells(self, creature: Creature) -> tuple[str, ...]:
        cached = self._cells.get(creature.id)
        if cached is not None and cached[0] is creature and cached[1] == self._player:
            return cached[2]
        cells = tuple("" if c == TURN else self._text(creature, c, self._player) for c in range(len(HEADERS)))
        self._cells[creature.id] = (creature, self._player, cells)
        return cells

    def _state_hidden(self, summary: rules.Summary, player: bool) -> bool:
        return player and "state" in summary.hidden

    def _text(self, creature: Creature, column: int, player: bool) -> str:
        if column == TURN:
            return self._turn_mark(creature)
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
            if self._state_hidden(summary, player):
                return HIDDEN
            # A dying creature's chance of pulling through (issue 17), for the GM: a number, never for players.
            chance = None if player else self.vm.survival(creature)
            return summary.state_label if chance is None else f"{summary.state_label} · {chance.percent}"
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
            lines = [d.explain(n) for n in names if n in d and d.explain(n)]
            if column == STATE:
                # The chance of pulling through, and of the rolls the rules make on their own at its turn.
                lines += [c.text for c in self.vm.timed_odds(creature)]
                chance = self.vm.survival(creature)
                if chance is not None:
                    lines.append(chance.text)
            return "\n".join(lines) or None
        if column == SYSTEM:
            info = self.vm.info(creature.sheet.system)
            return f"{info.label} ({info.seed})"
        if column == TURN:
            return self._header_tip(TURN)
        text = self._text(creature, column, False)
        return text or None

    def _sort_key(self, creature: Creature, column: int) -> Any:
        if column == INITIATIVE or column == TURN:
            # Turn order when sorted descending: highest first, no initiative last.
            return float(creature.initiative) if creature.initiative is not None else float("-inf")
        if column == NAME:
            return _fold(creature.name)
        if column == SYSTEM:
            return self.vm.info(creature.sheet.system).label.casefold()
        if column == NOTE:
            return _fold(creature.note)
        if column == STATE:
            state = self.vm.state_of(creature)
            return float(CATEGORY_RANK[rtable.category(state)] * 1000 + len(state))
        summary = self.vm.summary(creature)
        if column == POINTS:
            if summary.maximum <= 0:
                return 0.0
            ratio = summary.current / summary.maximum
            return -ratio if summary.gauge else ratio
        if column == CONDITIONS:
            return float(len(summary.conditions))
        if column == WOUNDS:
            return float(summary.wounds)
        return 0.0

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

    def _on_view_mode(self, gm: bool) -> None:
        if self._fixed_player is None:
            self._player = not gm
            self._flags = _PLAYER_FLAGS if self._player else _GM_FLAGS
        if self._fixed_player is None and self._rows:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self._rows) - 1, len(HEADERS) - 1))
            self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(HEADERS) - 1)

    def _on_swapped(self, old: TableState, new: TableState) -> None:
        """From ``old`` to ``new``: rows gone and come in runs, rows moved (a sort key changed) by a layout
        change, then ``dataChanged`` for the rows that changed, in the columns of what changed."""
        previous = {c.id: c for c in old.creatures}
        self._state = new
        if len(new.creatures) < len(old.creatures):
            index = new.index()
            for cid in previous.keys() - index.keys():
                self._cells.pop(cid, None)
                self._painted.pop(cid, None)
        target = self._arranged(new)
        if not self._move_to(target):
            self._relayout(target)
        spans: dict[int, tuple[int, int]] = {}
        for r, b in enumerate(target):
            a = previous.get(b.id)
            if a is None or a is b:
                continue
            span = _SPANS[(a.sheet is not b.sheet, a.initiative != b.initiative, a.note != b.note)]
            if span is not None:
                spans[r] = span
        self._set_rows(target)
        moved = {old.turn, new.turn} if old.turn != new.turn else set()
        for cid in moved | (old.started ^ new.started):
            if cid is not None and (r := self._rows_of.get(cid, -1)) >= 0:
                # The marker's row is drawn highlighted: all of it repaints.
                spans[r] = (0, len(HEADERS) - 1)
        for first, stop, columns in _runs(sorted(spans.items())):
            self.dataChanged.emit(self.index(first, columns[0]), self.index(stop, columns[1]))
        if self._fixed_player is None:
            self._warm_from = 0
            self._warm.start(WARM_DELAY_MS)


def _runs(rows: list[tuple[int, tuple[int, int]]]) -> list[tuple[int, int, tuple[int, int]]]:
    """Runs of consecutive rows with the same columns: [(1, a), (2, a), (5, b)] → [(1, 2, a), (5, 5, b)]."""
    runs: list[tuple[int, int, tuple[int, int]]] = []
    for row, columns in rows:
        if runs and runs[-1][1] == row - 1 and runs[-1][2] == columns:
            runs[-1] = (runs[-1][0], row, columns)
        else:
            runs.append((row, row, columns))
    return runs


STATE_FILTERS = ("", "up", "down", "dying", "dead")
