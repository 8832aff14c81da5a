"""How two columns of the GM table are drawn: the health bar (the sheet's, at a row's height) and the
state badge (the sheet's words and colours). Only the rows a view shows are painted, and each drawing
is kept as a pixmap per what it shows, its size and its background (selected, the turn's highlight): a
repaint of rows already seen is one copy per cell.

A paint asks the table's model directly what the cell draws (``TableModel.drawing``, worked out once
per row change), not through Qt's roles: scrolling a thousand rows paints forty of these cells a page.
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
from ui.common.texts import fmt_number
from ui.table.model import TURN_BRUSH, ColourRole, SummaryRole

AnyIndex = QModelIndex | QPersistentModelIndex


def bar_state(summary: rules.Summary, points_short: str) -> BarState:
    """What the bar draws for one row (numbers from the rules' summary, nothing computed here)."""
    hidden = "current" in summary.hidden or "maximum" in summary.hidden
    text = f"{fmt_number(summary.current)} / {fmt_number(summary.maximum)} {points_short}"
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


# Pixmaps kept per delegate (a few hundred rows' worth: scrolling back finds them).
PIXMAPS_KEPT = 600
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
        # ``QFont.key()`` costs more than comparing two fonts: the last font seen and its key.
        self._font: QFont | None = None
        self._font_key = ""

    def _key_of(self, font: QFont) -> str:
        if self._font is None or font != self._font:
            self._font, self._font_key = QFont(font), font.key()
        return self._font_key

    def _drawn(self, index: AnyIndex) -> tuple[Any, bool] | None:
        """What the table's model says the cell draws, and whether its row is the turn's (None: a model
        that does not say: Qt's roles are asked)."""
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
        rect: QRect = option.rect  # type: ignore[attr-defined]
        state = option.state & _BACKGROUND_STATES  # type: ignore[attr-defined]
        # A background is drawn only where the row is selected or is the turn's: else the view's own.
        background = turn or bool(state & _SELECTED)
        font: QFont = option.font  # type: ignore[attr-defined]
        device = painter.device()
        ratio = device.devicePixelRatioF() if device is not None else 1.0
        width, height = rect.width(), rect.height()
        full = (key, width, height, ratio, self._key_of(font), (state.value, turn) if background else None)
        pixmap = self._pixmaps.get(full)
        if pixmap is None:
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
            if len(self._pixmaps) > PIXMAPS_KEPT:
                self._pixmaps.popitem(last=False)
        else:
            self._pixmaps.move_to_end(full)
        painter.drawPixmap(rect.x(), rect.y(), pixmap)

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
        # The bar of each summary the model gave (kept per summary object: a row's summary changes only
        # when its sheet does).
        self._bars: dict[int, tuple[rules.Summary, BarState]] = {}

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: AnyIndex) -> None:
        drawn = self._drawn(index)
        if drawn is not None:
            (_kind, summary), turn = drawn
        else:
            summary, turn = index.data(SummaryRole), index.data(Qt.ItemDataRole.BackgroundRole) is not None
        if not isinstance(summary, rules.Summary):
            super().paint(painter, option, index)
            return
        known = self._bars.get(id(summary))
        if known is not None and known[0] is summary:
            state = known[1]
        else:
            state = bar_state(summary, _short(summary.system))
            if len(self._bars) > 4 * PIXMAPS_KEPT:
                self._bars.clear()
            self._bars[id(summary)] = (summary, state)
        self._cached(
            painter,
            option,
            ("bar", state),
            turn,
            lambda p, rect, font: paint_bar(p, rect.adjusted(2, 1, -2, -1), state, font, compact=True),
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


_SHORT: dict[str, str] = {}


def _short(system_id: str) -> str:
    found = _SHORT.get(system_id)
    if found is None:
        found = _SHORT[system_id] = rules.describe(system_id).points_short
    return found
