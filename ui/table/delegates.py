"""How two columns of the GM table are drawn: the health bar (the sheet's, at a row's height) and the
state badge (the sheet's words and colours). Only the rows a view shows are painted."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRectF, QSize
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QApplication, QStyle, QStyledItemDelegate, QStyleOptionViewItem

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


class _RowDelegate(QStyledItemDelegate):
    def _background(self, painter: QPainter, option: QStyleOptionViewItem, index: AnyIndex) -> None:
        """The item's own background (selection, turn highlight), without its text."""
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        opt.text = ""  # type: ignore[attr-defined]
        widget = opt.widget  # type: ignore[attr-defined]
        style = widget.style() if widget is not None else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, widget)


class PointsDelegate(_RowDelegate):
    """Current / maximum as the sheet's health bar: temporary beyond it, nonlethal over it, the
    negative range down to death where the system has one."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: AnyIndex) -> None:
        summary = index.data(SummaryRole)
        if not isinstance(summary, rules.Summary):
            super().paint(painter, option, index)
            return
        self._background(painter, option, index)
        short = _short(summary.system)
        rect = QRectF(option.rect).adjusted(2, 1, -2, -1)  # type: ignore[attr-defined]
        paint_bar(painter, rect, bar_state(summary, short), option.font, compact=True)  # type: ignore[attr-defined]

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
        paint_badge(painter, QRectF(option.rect), label, colour, option.font)  # type: ignore[attr-defined]

    def sizeHint(self, option: QStyleOptionViewItem, index: AnyIndex) -> QSize:
        base = super().sizeHint(option, index)
        return QSize(base.width() + 24, max(base.height(), 26))


_SHORT: dict[str, str] = {}


def _short(system_id: str) -> str:
    found = _SHORT.get(system_id)
    if found is None:
        found = _SHORT[system_id] = rules.describe(system_id).points_short
    return found
