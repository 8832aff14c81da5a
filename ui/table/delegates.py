"""How two columns of the GM table are drawn: the health bar (the sheet's, at a row's height) and the
state badge (the sheet's words and colours). Only the rows a view shows are painted, and each drawing
is kept as a pixmap per what it shows and its size: a repaint of rows already seen is a copy."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QPoint, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPixmap
from PySide6.QtWidgets import QApplication, QStyle, QStyledItemDelegate, QStyleOptionViewItem, QWidget

import rules
from ui.common.badge import paint_badge
from ui.common.health_bar import BarState, paint_bar
from ui.common.texts import fmt_number
from ui.table.model import ColourRole, SummaryRole

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


class _RowDelegate(QStyledItemDelegate):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._pixmaps: OrderedDict[Hashable, QPixmap] = OrderedDict()

    def _cached(
        self, painter: QPainter, option: QStyleOptionViewItem, key: Hashable, draw: Callable[[QPainter, QRectF], None]
    ) -> None:
        """Draw through a pixmap kept per ``key`` and the cell's size (and the screen's pixel ratio)."""
        rect = option.rect  # type: ignore[attr-defined]
        ratio = painter.device().devicePixelRatioF() if painter.device() is not None else 1.0
        full = (key, rect.width(), rect.height(), ratio, option.font.key())  # type: ignore[attr-defined]
        pixmap = self._pixmaps.get(full)
        if pixmap is None:
            pixmap = QPixmap(max(1, int(rect.width() * ratio)), max(1, int(rect.height() * ratio)))
            pixmap.setDevicePixelRatio(ratio)
            pixmap.fill(QColor(0, 0, 0, 0))
            inner = QPainter(pixmap)
            try:
                inner.setFont(option.font)  # type: ignore[attr-defined]
                draw(inner, QRectF(0, 0, rect.width(), rect.height()))
            finally:
                inner.end()
            self._pixmaps[full] = pixmap
            if len(self._pixmaps) > PIXMAPS_KEPT:
                self._pixmaps.popitem(last=False)
        else:
            self._pixmaps.move_to_end(full)
        painter.drawPixmap(QPoint(rect.x(), rect.y()), pixmap)

    def _background(self, painter: QPainter, option: QStyleOptionViewItem, index: AnyIndex) -> None:
        """The item's background (selection, alternate rows, the turn's highlight), without its text.

        Only the background role is asked: the full ``initStyleOption`` would ask every role again.
        """
        opt = QStyleOptionViewItem(option)
        brush = index.data(Qt.ItemDataRole.BackgroundRole)
        if brush is not None:
            opt.backgroundBrush = brush  # type: ignore[attr-defined]
        widget = opt.widget  # type: ignore[attr-defined]
        style = widget.style() if widget is not None else QApplication.style()
        style.drawPrimitive(QStyle.PrimitiveElement.PE_PanelItemViewItem, opt, painter, widget)


class PointsDelegate(_RowDelegate):
    """Current / maximum as the sheet's health bar: temporary beyond it, nonlethal over it, the
    negative range down to death where the system has one."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: AnyIndex) -> None:
        summary = index.data(SummaryRole)
        if not isinstance(summary, rules.Summary):
            super().paint(painter, option, index)
            return
        self._background(painter, option, index)
        state = bar_state(summary, _short(summary.system))
        font: QFont = option.font  # type: ignore[attr-defined]
        self._cached(
            painter,
            option,
            ("bar", state),
            lambda p, rect: paint_bar(p, rect.adjusted(2, 1, -2, -1), state, font, compact=True),
        )

    def sizeHint(self, option: QStyleOptionViewItem, index: AnyIndex) -> QSize:
        return QSize(200, 26)


class StateDelegate(_RowDelegate):
    """The state's label on its colour, as the sheet's badge shows it."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: AnyIndex) -> None:
        label = index.data()
        colour = index.data(ColourRole)
        if not isinstance(label, str) or not isinstance(colour, str):
            super().paint(painter, option, index)
            return
        self._background(painter, option, index)
        font: QFont = option.font  # type: ignore[attr-defined]
        self._cached(
            painter, option, ("badge", label, colour), lambda p, rect: paint_badge(p, rect, label, colour, font)
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
