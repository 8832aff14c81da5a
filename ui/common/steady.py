"""Texts that change on every edit without moving anything else (issue 15: edit → repainted in one frame).

A ``QLabel`` whose text changes asks its parent's layout to lay out again, whatever the new size: the
request climbs panel → column → splitter → main window, and every widget that moves repaints. Two
ways out, both keeping the text a plain, readable label:

- ``SteadyText``: a text of at most ``lines`` lines in a box of constant height (the rest elided with
  « … », the whole text in the tooltip). The label lives in a holder without a layout, so a new text
  repaints the label and nothing else.
- ``steady_width``: a label whose size only grows (numbers: « 9 » then « 14 » keep the place of « 14 »);
  a label of fixed width and height never asks its parent to lay out again.
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QResizeEvent, QTextLayout
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

ELLIPSIS = "…"


def wrapped_lines(text: str, label: QLabel, width: int, lines: int) -> tuple[str, bool]:
    """``text`` wrapped at ``width`` pixels in ``label``'s font, cut to ``lines`` lines (the last one
    elided when more would be needed): (the lines joined by newlines, whether something was cut)."""
    if not text or width <= 0:
        return text, False
    layout = QTextLayout(text.replace("\n", "\u2028"), label.font())
    option = layout.textOption()
    option.setWrapMode(option.wrapMode().WrapAtWordBoundaryOrAnywhere)
    layout.setTextOption(option)
    spans: list[tuple[int, int]] = []
    layout.beginLayout()
    while True:
        line = layout.createLine()
        if not line.isValid():
            break
        line.setLineWidth(width)
        spans.append((line.textStart(), line.textLength()))
    layout.endLayout()
    if len(spans) <= lines:
        return "\n".join(text[s : s + n].rstrip("\n\u2028 ") for s, n in spans), False
    kept = [text[s : s + n].rstrip("\n\u2028 ") for s, n in spans[: lines - 1]]
    rest = text[spans[lines - 1][0] :].replace("\n", " ")
    metrics = label.fontMetrics()
    last = metrics.elidedText(rest, Qt.TextElideMode.ElideRight, width)
    if last == rest:  # the layout's width and the metrics' disagree by a pixel: cut all the same
        last = metrics.elidedText(rest + ELLIPSIS, Qt.TextElideMode.ElideRight, width)
    return "\n".join([*kept, last]), True


class SteadyText(QWidget):
    """A plain text of at most ``lines`` lines whose box never changes size (see the module's doc).

    ``text()`` is the whole text; the label shows it wrapped, elided past the last line, and then its
    tooltip holds it whole. ``label`` is the ``QLabel`` (its object name is ``name``).
    """

    def __init__(self, lines: int = 1, name: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._lines = max(1, lines)
        self._text = ""
        self._tooltip = ""
        self.label = QLabel(self)
        if name:
            self.label.setObjectName(name)
        self.label.setTextFormat(Qt.TextFormat.PlainText)
        self.label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.label.setWordWrap(False)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.setFixedHeight(self._lines * self.label.fontMetrics().lineSpacing() + 2)

    def sizeHint(self) -> QSize:
        return QSize(80, self.height())

    def minimumSizeHint(self) -> QSize:
        return QSize(40, self.height())

    def text(self) -> str:
        return self._text

    def shown(self) -> str:
        """What the label shows (wrapped and elided to the box)."""
        return self.label.text()

    def setText(self, text: str) -> None:
        if text != self._text:
            self._text = text
            self._show()

    def clear(self) -> None:
        self.setText("")

    def setToolTip(self, tip: str) -> None:
        """The tooltip when the text is shown whole (an elided text's tooltip is the text itself)."""
        self._tooltip = tip
        self._show()

    def setAccessibleName(self, name: str) -> None:
        self.label.setAccessibleName(name)

    def setTextInteractionFlags(self, flags: Qt.TextInteractionFlag) -> None:
        self.label.setTextInteractionFlags(flags)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.label.setGeometry(0, 0, self.width(), self.height())
        self._show()

    def _show(self) -> None:
        shown, cut = wrapped_lines(self._text, self.label, self.width() - 2, self._lines)
        if shown != self.label.text():
            self.label.setText(shown)
            if self.label.textInteractionFlags() & Qt.TextInteractionFlag.TextSelectableByMouse:
                # A selectable label lays its text out when first painted, and asks for a paint again from
                # inside that paint: measured now, the label is painted once per change, not twice.
                self.label.sizeHint()
        tip = self._text if cut else self._tooltip
        if self.label.toolTip() != tip:
            self.label.setToolTip(tip)
        self.label.setAccessibleDescription(self._text)


def steady_width(label: QLabel, text: str) -> None:
    """Set ``text`` on ``label`` whose size is fixed and only grows to fit (see the module's doc)."""
    if label.text() == text:
        return
    metrics = label.fontMetrics()
    margins = label.contentsMargins()
    width = metrics.horizontalAdvance(text) + margins.left() + margins.right() + 2 * label.margin() + 1
    height = metrics.height() + margins.top() + margins.bottom() + 2 * label.margin()
    if width > label.maximumWidth() or label.minimumWidth() != label.maximumWidth():
        label.setFixedWidth(max(width, label.minimumWidth()))
    if label.minimumHeight() != label.maximumHeight() or height > label.maximumHeight():
        label.setFixedHeight(height)
    label.setText(text)


def set_tip(widget: QWidget, tip: str) -> None:
    """``setToolTip`` only when the tooltip changes (each call sends an event through every application
    event filter, and a sheet's panels set dozens per edit)."""
    if widget.toolTip() != tip:
        widget.setToolTip(tip)


def set_description(widget: QWidget, text: str) -> None:
    """``setAccessibleDescription`` only when it changes (same reason as ``set_tip``)."""
    if widget.accessibleDescription() != text:
        widget.setAccessibleDescription(text)


def set_name(widget: QWidget, text: str) -> None:
    """``setAccessibleName`` only when it changes (same reason as ``set_tip``)."""
    if widget.accessibleName() != text:
        widget.setAccessibleName(text)
