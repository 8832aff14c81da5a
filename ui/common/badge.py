"""The health state as a coloured badge: its words and colour come from the system's table.

``StateBadge`` is the sheet's badge (a label); ``paint_badge`` draws the same words on the same colour
anywhere else (the GM table's state column).
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPaintEvent
from PySide6.QtWidgets import QLabel, QWidget

BADGE_TEXT = QColor("white")


def paint_badge(p: QPainter, rect: QRectF, label: str, colour: str, font: QFont) -> None:
    """A rounded badge of ``colour`` with ``label`` in white bold, elided to fit ``rect``."""
    if not label:
        return
    p.save()
    try:
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        bold = QFont(font)
        bold.setBold(True)
        p.setFont(bold)
        metrics = p.fontMetrics()
        area = QRectF(rect).adjusted(3, 3, -3, -3)
        text = metrics.elidedText(label, Qt.TextElideMode.ElideRight, int(area.width()) - 16)
        width = min(area.width(), metrics.horizontalAdvance(text) + 20)
        box = QRectF(area.left(), area.top(), width, area.height())
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor(colour))
        radius = min(10.0, box.height() / 2)
        p.drawRoundedRect(box, radius, radius)
        p.setPen(BADGE_TEXT)
        p.drawText(box, Qt.AlignmentFlag.AlignCenter, text)
    finally:
        p.restore()


class StateBadge(QLabel):
    """The health state as a coloured badge (label and colour from the system's table).

    Painted by ``paint_badge``, not by a style sheet (a new style sheet re-polishes the widget and lays out
    its panel again), and only ever wider (a new state's words never make the row under it move back and
    forth): an edit that changes the state repaints the badge and nothing else (issue 15).
    """

    PADDING = 12

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("stateBadge")
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)
        font = QFont(self.font())
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() + 1)
        self.setFont(font)
        self._colour = ""
        self.setFixedSize(110, self.fontMetrics().height() + 10)

    def colour(self) -> str:
        return self._colour

    def show_state(self, label: str, colour: str, tooltip: str) -> None:
        if label != self.text():
            needed = self.fontMetrics().horizontalAdvance(label) + 2 * self.PADDING + 8
            if needed > self.width():
                self.setFixedWidth(needed)
            self.setText(label)
            self.setAccessibleName(self.tr("État de santé : {0}").format(label))
        if tooltip != self.toolTip():
            self.setToolTip(tooltip)
        if colour != self._colour:
            self._colour = colour
            self.update()

    def paintEvent(self, event: QPaintEvent) -> None:
        if not self.text():
            return
        painter = QPainter(self)
        try:
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QColor(self._colour or "#757575"))
            box = QRectF(self.rect()).adjusted(0.5, 0.5, -0.5, -0.5)
            painter.drawRoundedRect(box, 10, 10)
            painter.setPen(BADGE_TEXT)
            painter.setFont(self.font())
            painter.drawText(box, Qt.AlignmentFlag.AlignCenter, self.text())
        finally:
            painter.end()
