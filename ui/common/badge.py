"""The health state as a coloured badge: its words and colour come from the system's table.

``StateBadge`` is the sheet's badge (a label); ``paint_badge`` draws the same words on the same colour
anywhere else (the GM table's state column).
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter
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
    """The health state as a coloured badge (label and colour from the system's table)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("stateBadge")
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setMinimumWidth(110)
        font = QFont(self.font())
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() + 1)
        self.setFont(font)

    def show_state(self, label: str, colour: str, tooltip: str) -> None:
        if label != self.text():
            self.setText(label)
            self.setAccessibleName(self.tr("État de santé : {0}").format(label))
        self.setToolTip(tooltip)
        style = f"#stateBadge {{ background: {colour}; color: white; border-radius: 10px; padding: 3px 12px; }}"
        # A style sheet change re-polishes the widget: only when the colour really changes.
        if style != self.styleSheet():
            self.setStyleSheet(style)
