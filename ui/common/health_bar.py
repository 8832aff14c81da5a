"""The health bar: a custom-painted widget that shows points, or the Trauma gauge of Sévérité.

It computes no rule: it draws the numbers it is given (``BarState``), built by the health panel from
the derived values of the sheet.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

import rules

TRACK = QColor("#e3e3e3")
TRACK_BORDER = QColor("#9e9e9e")
NEGATIVE_ZONE = QColor("#f6d5d8")
NEGATIVE_HATCH = QColor("#c62828")
NEGATIVE_FILL = QColor("#b71c1c")
TEMPORARY = QColor("#1565c0")
NONLETHAL = QColor("#6a1b9a")
TEXT = QColor("#111111")
HALO = QColor(255, 255, 255, 215)

# How a record's ``__init__`` sets a field (``rules.Record`` refuses ``setattr``).
_set = object.__setattr__


class Tier(rules.Record):
    """A tier of the Trauma gauge: how many notches, its French label, its colour."""

    __slots__ = ("notches", "label", "colour")  # noqa: RUF023  (the fields, in order)
    notches: int
    label: str
    colour: str

    def __init__(self, notches: int, label: str, colour: str) -> None:
        _set(self, "notches", notches)
        _set(self, "label", label)
        _set(self, "colour", colour)


class BarState(rules.Record):
    __slots__ = ("current", "maximum", "temporary", "nonlethal", "floor", "colour", "hidden", "text", "gauge", "tiers")  # noqa: RUF023  (the fields, in order)
    current: int
    maximum: int
    temporary: int
    nonlethal: int
    # The PV at which death comes (negative for d20 and segments); 0 when the bar stops at 0.
    floor: int
    colour: str
    hidden: bool
    text: str
    # Trauma gauge: ``current`` notches filled out of ``maximum``, drawn by tiers.
    gauge: bool
    tiers: tuple[Tier, ...]

    def __init__(
        self,
        current: int = 0,
        maximum: int = 0,
        temporary: int = 0,
        nonlethal: int = 0,
        floor: int = 0,
        colour: str = "#2e7d32",
        hidden: bool = False,
        text: str = "",
        gauge: bool = False,
        tiers: tuple[Tier, ...] = (),
    ) -> None:
        _set(self, "current", current)
        _set(self, "maximum", maximum)
        _set(self, "temporary", temporary)
        _set(self, "nonlethal", nonlethal)
        _set(self, "floor", floor)
        _set(self, "colour", colour)
        _set(self, "hidden", hidden)
        _set(self, "text", text)
        _set(self, "gauge", gauge)
        _set(self, "tiers", tiers)


class HealthBar(QWidget):
    """Current / effective maximum, temporary points beyond the bar, nonlethal over it, negative range."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._state = BarState()
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setAccessibleName(self.tr("Barre de santé"))
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)

    def state(self) -> BarState:
        return self._state

    def set_state(self, state: BarState) -> None:
        if state == self._state:
            return
        resized = state.gauge != self._state.gauge
        self._state = state
        self.setAccessibleDescription(state.text or f"{state.current} / {state.maximum}")
        if resized:
            self.updateGeometry()
        self.update()

    def sizeHint(self) -> QSize:
        return QSize(360, 64 if self._state.gauge else 40)

    def minimumSizeHint(self) -> QSize:
        return QSize(180, 64 if self._state.gauge else 40)

    # --- painting ----------------------------------------------------------------------------------------

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        try:
            paint_bar(painter, QRectF(self.rect()), self._state, self.font())
        finally:
            painter.end()


def paint_bar(p: QPainter, rect: QRectF, state: BarState, font: QFont, *, compact: bool = False) -> None:
    """Draw ``state`` in ``rect``: the widget's paint, and the GM table's delegate (``compact``: a row's
    height, the gauge drawn as a bar)."""
    p.save()
    try:
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        if state.gauge and not compact:
            _paint_gauge(p, rect, state, font)
        else:
            _paint_points(p, rect, state, font, 2 if compact else 4)
    finally:
        p.restore()


def _paint_points(p: QPainter, rect: QRectF, s: BarState, base_font: QFont, margin: int = 4) -> None:
    area = QRectF(rect).adjusted(1, margin, -1, -margin)
    if s.hidden or s.maximum - s.floor <= 0:
        p.setPen(QPen(TRACK_BORDER, 1))
        p.setBrush(QBrush(TRACK, Qt.BrushStyle.Dense5Pattern if s.hidden else Qt.BrushStyle.SolidPattern))
        p.drawRoundedRect(area, 4, 4)
        _text(p, area, s.text or "?", base_font)
        return
    span = s.maximum - s.floor
    gap = 6.0 if s.temporary > 0 else 0.0
    # Temporary points are drawn beyond the bar, at the same scale (at most a third of the width).
    temp_units = min(s.temporary, span // 2 + 1) if s.temporary > 0 else 0
    scale = (area.width() - gap) / (span + temp_units)

    def x(value: int) -> float:
        return area.left() + (min(max(value, s.floor), s.maximum) - s.floor) * scale

    track = QRectF(area.left(), area.top(), span * scale, area.height())
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(TRACK)
    p.drawRoundedRect(track, 4, 4)
    if s.floor < 0:
        negative = QRectF(x(s.floor), area.top(), x(0) - x(s.floor), area.height())
        p.setBrush(NEGATIVE_ZONE)
        p.drawRect(negative)
        p.setBrush(QBrush(NEGATIVE_HATCH, Qt.BrushStyle.BDiagPattern))
        p.drawRect(negative)
    if s.current > 0:
        p.setBrush(QColor(s.colour))
        p.drawRect(QRectF(x(0), area.top(), x(s.current) - x(0), area.height()))
    elif s.current < 0:
        p.setBrush(NEGATIVE_FILL)
        p.drawRect(QRectF(x(s.current), area.top(), x(0) - x(s.current), area.height()))
    if s.nonlethal > 0:
        # Nonlethal damage is counted apart and drawn over the points it "covers".
        covered = min(s.nonlethal, max(s.current, 0))
        if covered > 0:
            p.setBrush(QBrush(NONLETHAL, Qt.BrushStyle.DiagCrossPattern))
            p.drawRect(QRectF(x(0), area.top(), x(covered) - x(0), area.height()))
        p.setPen(QPen(NONLETHAL, 3))
        mark = x(min(s.nonlethal, s.maximum))
        p.drawLine(int(mark), int(area.top()) - 3, int(mark), int(area.bottom()) + 3)
        p.setPen(Qt.PenStyle.NoPen)
    if s.floor < 0:
        p.setPen(QPen(TEXT, 2))
        p.drawLine(int(x(0)), int(area.top()), int(x(0)), int(area.bottom()))
    p.setPen(QPen(TRACK_BORDER, 1))
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.drawRoundedRect(track, 4, 4)
    if s.temporary > 0:
        temp = QRectF(track.right() + gap, area.top() + 3, temp_units * scale, area.height() - 6)
        p.setPen(QPen(TEMPORARY.darker(130), 1))
        p.setBrush(TEMPORARY)
        p.drawRoundedRect(temp, 3, 3)
        if temp.width() > 24:
            p.setPen(QColor("white"))
            font = QFont(base_font)
            font.setBold(True)
            p.setFont(font)
            p.drawText(temp, Qt.AlignmentFlag.AlignCenter, f"+{s.temporary}")
            p.setFont(base_font)
    _text(p, track, s.text, base_font)


def _paint_gauge(p: QPainter, rect: QRectF, s: BarState, base_font: QFont) -> None:
    notches = max(s.maximum, 1)
    tiers = s.tiers or (Tier(notches, "", s.colour),)
    label_h = 18.0 if any(t.label for t in tiers) else 0.0
    area = QRectF(rect).adjusted(1, 3, -1, -3 - label_h)
    tier_gap = 8.0
    cell_gap = 2.0
    n_tiers = len(tiers)
    cells_w = area.width() - tier_gap * (n_tiers - 1)
    cell = (cells_w - cell_gap * (notches - n_tiers)) / notches
    xpos = area.left()
    filled = 0 if s.hidden else s.current
    index = 0
    small = _label_font(tiers, cell, cell_gap, tier_gap, base_font)
    for t_i, tier in enumerate(tiers):
        start = xpos
        for _ in range(tier.notches):
            cell_rect = QRectF(xpos, area.top(), cell, area.height())
            if s.hidden:
                p.setBrush(QBrush(TRACK, Qt.BrushStyle.Dense5Pattern))
            elif index < filled:
                p.setBrush(QColor(tier.colour))
            else:
                p.setBrush(TRACK)
            p.setPen(QPen(TRACK_BORDER, 1))
            p.drawRoundedRect(cell_rect, 3, 3)
            xpos += cell + cell_gap
            index += 1
        xpos -= cell_gap
        if label_h and tier.label:
            p.setPen(TEXT)
            p.setFont(small)
            # The label may use half the gap on each side of its tier (« Compliqué (10) » at 1024×700),
            # never past the gauge's ends.
            left = max(rect.left(), start - tier_gap / 2)
            right = min(rect.right(), xpos + tier_gap / 2)
            label_rect = QRectF(left, area.bottom() + 2, right - left, label_h)
            text = p.fontMetrics().elidedText(tier.label, Qt.TextElideMode.ElideRight, int(label_rect.width()))
            p.drawText(label_rect, Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextSingleLine, text)
            p.setFont(base_font)
        if t_i < n_tiers - 1:
            xpos += tier_gap
    _text(p, area, s.text, base_font)


def _label_font(tiers: Sequence[Tier], cell: float, cell_gap: float, tier_gap: float, base_font: QFont) -> QFont:
    """The font of the tiers' labels: one point smaller than the text, smaller still (down to 6.5 pt) until
    every label fits under its tier (half a gap on each side); what is still too long is elided."""
    small = QFont(base_font)
    size = max(7.0, base_font.pointSizeF() - 1)
    while True:
        small.setPointSizeF(size)
        metrics = QFontMetricsF(small)
        fits = all(
            metrics.horizontalAdvance(t.label) <= t.notches * (cell + cell_gap) - cell_gap + tier_gap - 1
            for t in tiers
            if t.label
        )
        if fits or size <= 6.5:
            return small
        size -= 0.5


def _text(p: QPainter, rect: QRectF, text: str, base_font: QFont) -> None:
    if not text:
        return
    font = QFont(base_font)
    font.setBold(True)
    p.setFont(font)
    metrics = p.fontMetrics()
    width = metrics.horizontalAdvance(text) + 12
    height = metrics.height() + 2
    box = QRectF(rect.center().x() - width / 2, rect.center().y() - height / 2, width, height)
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(HALO)
    p.drawRoundedRect(box, 4, 4)
    p.setPen(TEXT)
    p.drawText(box, Qt.AlignmentFlag.AlignCenter, text)
    p.setFont(base_font)
