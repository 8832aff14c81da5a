"""The health state as a coloured badge: its words and colour come from the system's table.

``paint_badge`` draws it anywhere (the GM table's state column); the sheet's ``StateBadge`` label shows
the same words on the same colour.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter

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
