"""How the GM table's cells are drawn: the health bar (the sheet's, at a row's height), the state badge
(the sheet's words and colours), and the plain text columns whose cells repeat from row to row. Only
the rows a view shows are painted, and each drawing is kept as a pixmap per what it shows, its size and
its background (selected, the turn's highlight): a repaint of rows already seen is one copy per cell.

A paint asks the table's model directly what the cell draws (``TableModel.drawing`` and
``TableModel.look``, worked out once per row change), not through Qt's roles: scrolling a thousand rows
paints two hundred cells a page, and each cell Qt draws itself from the model's roles costs a Python
call for its seven roles, then the layout of its text.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPixmap
from PySide6.QtWidgets import QApplication, QStyle, QStyledItemDelegate, QStyleOptionViewItem, QWidget

import rules
from ui.common.badge import paint_badge
from ui.common.health_bar import BarState, paint_bar
from ui.table.model import TURN_BRUSH, ColourRole, SummaryRole, bar_state, points_short

AnyIndex = QModelIndex | QPersistentModelIndex
_row_of_index = QModelIndex.row
_column_of_index = QModelIndex.column
_rect_of = QRect.getRect


class PaintPass:
    """What every cell of one repaint of the table's grid shares, set by the grid for the length of its
    paint (``TableGrid.paintEvent``): the pixel ratio of what it paints on (the viewport's: what a
    delegate's ``painter.device()`` answers) and whether its rows alternate colours (then an odd row is
    drawn with the style's alternate look: the ``Alternate`` feature Qt's view gives its cells). Outside
    a paint ``ratio`` is None and a delegate asks the painter and the option as usual.

    A scroll paints two hundred cells a page; each question a Python delegate asks a Qt object (the
    painter's device, its ratio, the option's features, the index's model) is a crossing into C++ and
    back, several of them an object or an enum made and thrown away: asked once per paint instead."""

    __slots__ = ("alternating", "ratio")

    def __init__(self) -> None:
        self.ratio: float | None = None
        self.alternating = False


# Pixmaps kept per delegate: at most this many, and at most this many bytes of them (a 1,000-creature
# table's bars, each 220 × 28 pixels: scrolling back and forth through the whole table finds them all;
# kept by least recent use, a smaller store would lose every bar before the scroll comes back to it).
PIXMAPS_KEPT = 2400
PIXMAP_BYTES_KEPT = 40 * 1024 * 1024
# The parts of an item's state its background depends on (the style's item panel).
_SELECTED = QStyle.StateFlag.State_Selected
_BACKGROUND_STATES = (
    QStyle.StateFlag.State_Selected
    | QStyle.StateFlag.State_Active
    | QStyle.StateFlag.State_Enabled
    | QStyle.StateFlag.State_MouseOver
)


class _RowDelegate(QStyledItemDelegate):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._pixmaps: OrderedDict[Hashable, QPixmap] = OrderedDict()
        self._bytes = 0
        # ``QFont.key()`` costs more than comparing two fonts: the last font seen and its key.
        self._font: QFont | None = None
        self._font_key = ""
        # Each item state seen (an enum Qt makes per read; few distinct ones): the part of it the
        # background depends on, as a number, and whether it is selected.
        self._states: dict[Any, tuple[int, bool]] = {}
        # Set by ``bind``: the table model's ``drawing`` and the grid's paint pass.
        self._bound: tuple[Callable[[int, int], tuple[Any, bool] | None], PaintPass] | None = None

    def bind(self, model: Any, paint_pass: PaintPass) -> None:
        """Paint the cells of ``model`` (the grid's own, a ``TableModel``) with what ``paint_pass`` says
        of each repaint. The grid forgets the kept drawings when its font, palette or style changes
        (``forget``): a bound delegate's drawings are not keyed by the font."""
        self._bound = (model.drawing, paint_pass)
        self.forget()

    def forget(self) -> None:
        self._pixmaps.clear()
        self._bytes = 0

    def _key_of(self, font: QFont) -> str:
        if self._font is None or font != self._font:
            self._font, self._font_key = QFont(font), font.key()
        return self._font_key

    def _drawn(self, index: AnyIndex) -> tuple[Any, bool] | None:
        """What the table's model says the cell draws, and whether its row is the turn's (None: a model
        that does not say: Qt's roles are asked)."""
        bound = self._bound
        if bound is not None and bound[1].ratio is not None:
            try:
                return bound[0](_row_of_index(index), _column_of_index(index))
            except TypeError:  # a QPersistentModelIndex, from Python
                pass
        model = index.model()
        drawing = getattr(model, "drawing", None)
        if drawing is None:
            return None
        found: tuple[Any, bool] | None = drawing(index.row(), index.column())
        return found

    def _cached(
        self,
        painter: QPainter,
        option: QStyleOptionViewItem,
        key: Hashable,
        turn: bool,
        draw: Callable[[QPainter, QRectF, QFont], None],
    ) -> None:
        """Draw the cell's background and ``draw`` through a pixmap kept per ``key``, the cell's size,
        its background (selected or not, the turn's highlight) and the screen's pixel ratio."""
        x, y, width, height = _rect_of(option.rect)  # type: ignore[attr-defined]
        state = option.state  # type: ignore[attr-defined]
        seen = self._states.get(state)
        if seen is None:
            masked = state & _BACKGROUND_STATES
            seen = self._states[state] = (masked.value, bool(masked & _SELECTED))
        # A background is drawn only where the row is selected or is the turn's: else the view's own.
        background = turn or seen[1]
        bound = self._bound
        ratio = bound[1].ratio if bound is not None else None
        if ratio is not None:
            font_key = ""  # a bound delegate is forgotten when the grid's font changes
        else:
            device = painter.device()
            ratio = device.devicePixelRatioF() if device is not None else 1.0
            font_key = self._key_of(option.font)  # type: ignore[attr-defined]
        full = (key, width, height, ratio, font_key, (seen[0], turn) if background else None)
        pixmap = self._pixmaps.get(full)
        if pixmap is None:
            font: QFont = option.font  # type: ignore[attr-defined]
            pixmap = QPixmap(max(1, int(width * ratio)), max(1, int(height * ratio)))
            pixmap.setDevicePixelRatio(ratio)
            pixmap.fill(QColor(0, 0, 0, 0))
            inner = QPainter(pixmap)
            try:
                if background:
                    self._background(inner, option, turn, QRect(0, 0, width, height))
                inner.setFont(font)
                draw(inner, QRectF(0, 0, width, height), font)
            finally:
                inner.end()
            self._pixmaps[full] = pixmap
            self._bytes += pixmap.width() * pixmap.height() * 4
            while len(self._pixmaps) > 1 and (len(self._pixmaps) > PIXMAPS_KEPT or self._bytes > PIXMAP_BYTES_KEPT):
                _key, old = self._pixmaps.popitem(last=False)
                self._bytes -= old.width() * old.height() * 4
        else:
            self._pixmaps.move_to_end(full)
        painter.drawPixmap(x, y, pixmap)

    def _background(self, painter: QPainter, option: QStyleOptionViewItem, turn: bool, rect: QRect) -> None:
        """The item's background (selection, the turn's highlight) as the style draws it, in ``rect``."""
        opt = QStyleOptionViewItem(option)
        opt.rect = rect  # type: ignore[attr-defined]
        if turn:
            opt.backgroundBrush = TURN_BRUSH  # type: ignore[attr-defined]
        widget = opt.widget
        style = widget.style() if widget is not None else QApplication.style()
        style.drawPrimitive(QStyle.PrimitiveElement.PE_PanelItemViewItem, opt, painter, widget)


class PointsDelegate(_RowDelegate):
    """Current / maximum as the sheet's health bar: temporary beyond it, nonlethal over it, the
    negative range down to death where the system has one."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # The key of each bar met, by the bar object (the model gives equal bars as one object, worked
        # out with the row: ``TableModel._painted_row``), and by value for a bar met as a new object:
        # a repaint hashes and compares no ``BarState`` (their hash and equality are Python code).
        self._keys: dict[int, tuple[BarState, tuple[str, int]]] = {}
        self._by_value: dict[BarState, tuple[str, int]] = {}

    def forget(self) -> None:
        super().forget()
        self._keys.clear()
        self._by_value.clear()

    def _key(self, state: BarState) -> tuple[str, int]:
        known = self._keys.get(id(state))
        if known is not None and known[0] is state:
            return known[1]
        if len(self._keys) > 4 * PIXMAPS_KEPT or len(self._by_value) > 4 * PIXMAPS_KEPT:
            self.forget()  # their pixmaps go with them: a key is never given to two bars
        key = self._by_value.get(state)
        if key is None:
            key = self._by_value[state] = ("bar", len(self._by_value))
        self._keys[id(state)] = (state, key)
        return key

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: AnyIndex) -> None:
        drawn = self._drawn(index)
        state: BarState | None = None
        if drawn is not None:
            (_kind, state), turn = drawn
        else:
            summary, turn = index.data(SummaryRole), index.data(Qt.ItemDataRole.BackgroundRole) is not None
            if isinstance(summary, rules.Summary):
                state = bar_state(summary, points_short(summary.system))
        if not isinstance(state, BarState):
            super().paint(painter, option, index)
            return
        bar = state
        self._cached(
            painter,
            option,
            self._key(bar),
            turn,
            lambda p, rect, font: paint_bar(p, rect.adjusted(2, 1, -2, -1), bar, font, compact=True),
        )

    def sizeHint(self, option: QStyleOptionViewItem, index: AnyIndex) -> QSize:
        return QSize(200, 26)


class StateDelegate(_RowDelegate):
    """The state's label on its colour, as the sheet's badge shows it."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: AnyIndex) -> None:
        drawn = self._drawn(index)
        if drawn is not None:
            (_kind, label, colour), turn = drawn
        else:
            label, colour = index.data(), index.data(ColourRole)
            turn = index.data(Qt.ItemDataRole.BackgroundRole) is not None
        if not isinstance(label, str) or not isinstance(colour, str):
            super().paint(painter, option, index)
            return
        self._cached(
            painter,
            option,
            ("badge", label, colour),
            turn,
            lambda p, rect, font: paint_badge(p, rect, label, colour, font),
        )

    def sizeHint(self, option: QStyleOptionViewItem, index: AnyIndex) -> QSize:
        base = super().sizeHint(option, index)
        return QSize(base.width() + 24, max(base.height(), 26))


# The text pixmaps kept: at most this many bytes of them (the few looks of a column, many times over).
TEXT_BYTES_KEPT = 24 * 1024 * 1024
_ALTERNATE = QStyleOptionViewItem.ViewItemFeature.Alternate
_NO_FEATURE = QStyleOptionViewItem.ViewItemFeature.None_


class TextDelegate(QStyledItemDelegate):
    """Text columns whose cells repeat from row to row (the turn's mark, the system, the conditions,
    the wounds, the initiative, the note): each distinct cell is drawn once by Qt's own delegate into a
    pixmap, then copied wherever it shows again, in any row.

    The pixmap holds exactly what the view would have painted there: the view's background under the
    row (its base colour, or the alternate row's, or the selection's: the style's row panel), then Qt's
    drawing of the cell from the model's roles. It is kept per what the model says the cell shows
    (``TableModel.look``), the item's state (selected, focus, hover, active window…), its features (an
    alternate row), its size and the screen's pixel ratio; a change of the view's font, palette or
    style forgets them all (``forget``). A model that says nothing of its cells is drawn by Qt as usual.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._pixmaps: OrderedDict[Hashable, QPixmap] = OrderedDict()
        self._bytes = 0
        # Set by ``bind``: the table model's ``look`` and the grid's paint pass.
        self._bound: tuple[Callable[[int, int], tuple[Any, ...] | None], PaintPass] | None = None

    def bind(self, model: Any, paint_pass: PaintPass) -> None:
        """Paint the cells of ``model`` (the grid's own, a ``TableModel``) with what ``paint_pass`` says
        of each repaint: the cell's features are then its row's parity (the grid's rows are never
        hidden nor moved: Qt gives ``Alternate`` to every odd row when rows alternate)."""
        self._bound = (model.look, paint_pass)
        self.forget()

    def forget(self) -> None:
        self._pixmaps.clear()
        self._bytes = 0

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: AnyIndex) -> None:
        bound = self._bound
        if bound is not None:
            paint_pass = bound[1]
            ratio = paint_pass.ratio
            if ratio is not None:
                try:
                    row, column = _row_of_index(index), _column_of_index(index)
                except TypeError:  # a QPersistentModelIndex, from Python
                    pass
                else:
                    shown = bound[0](row, column)
                    if shown is None:
                        super().paint(painter, option, index)
                        return
                    x, y, width, height = _rect_of(option.rect)  # type: ignore[attr-defined]
                    alternate = _ALTERNATE if paint_pass.alternating and row & 1 else _NO_FEATURE
                    # The same key as below: ``option.features`` is ``alternate`` here.
                    self._copy(
                        painter,
                        option,
                        index,
                        (shown, option.state, alternate, width, height, ratio),
                        x,
                        y,
                        ratio,  # type: ignore[attr-defined]
                    )
                    return
        model = index.model()
        look = getattr(model, "look", None)
        try:
            row, column = _row_of_index(index), _column_of_index(index)
        except TypeError:  # a QPersistentModelIndex, from Python
            row, column = index.row(), index.column()
        shown = look(row, column) if look is not None else None
        if shown is None:
            super().paint(painter, option, index)
            return
        rect: QRect = option.rect  # type: ignore[attr-defined]
        device = painter.device()
        ratio = device.devicePixelRatioF() if device is not None else 1.0
        key = (
            shown,
            option.state,  # type: ignore[attr-defined]
            option.features,  # type: ignore[attr-defined]
            rect.width(),
            rect.height(),
            ratio,
        )
        self._copy(painter, option, index, key, rect.x(), rect.y(), ratio)

    def _copy(
        self,
        painter: QPainter,
        option: QStyleOptionViewItem,
        index: AnyIndex,
        key: Hashable,
        x: int,
        y: int,
        ratio: float,
    ) -> None:
        """The cell's kept pixmap (drawn first if there is none for ``key``) copied at ``x, y``."""
        pixmap = self._pixmaps.get(key)
        if pixmap is None:
            pixmap = self._drawn(option, index, option.rect, ratio)  # type: ignore[attr-defined]
            if pixmap is None:
                super().paint(painter, option, index)
                return
            self._pixmaps[key] = pixmap
            self._bytes += pixmap.width() * pixmap.height() * 4
            while self._bytes > TEXT_BYTES_KEPT and len(self._pixmaps) > 1:
                _key, old = self._pixmaps.popitem(last=False)
                self._bytes -= old.width() * old.height() * 4
        else:
            self._pixmaps.move_to_end(key)
        painter.drawPixmap(x, y, pixmap)

    def _drawn(self, option: QStyleOptionViewItem, index: AnyIndex, rect: QRect, ratio: float) -> QPixmap | None:
        """What the view paints in the cell (its background under the row, the style's row panel, Qt's
        drawing of the cell, at the cell's place), on a pixmap of the cell's size; None when the
        background is not one plain colour (a pattern would not line up)."""
        widget = option.widget  # type: ignore[attr-defined]
        viewport = getattr(widget, "viewport", None)
        if viewport is None:
            return None
        surface = viewport()
        brush = surface.palette().brush(surface.backgroundRole())
        if brush.style() != Qt.BrushStyle.SolidPattern:
            return None
        width, height = rect.width(), rect.height()
        pixmap = QPixmap(max(1, int(width * ratio)), max(1, int(height * ratio)))
        pixmap.setDevicePixelRatio(ratio)
        pixmap.fill(brush.color())
        inner = QPainter(pixmap)
        try:
            # Drawn where the view would draw it (the pixmap moved under the cell): antialiased edges
            # (the focus frame's corners) fall on the very same pixels.
            inner.translate(-rect.x(), -rect.y())
            opt = QStyleOptionViewItem(option)
            widget.style().drawPrimitive(QStyle.PrimitiveElement.PE_PanelItemViewRow, opt, inner, widget)
            super().paint(inner, opt, index)
        finally:
            inner.end()
        return pixmap
