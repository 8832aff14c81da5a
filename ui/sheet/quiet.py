"""A word-wrapped status text that asks for a layout only when it needs another size (issue 15).

A ``QLabel`` whose text changes always asks its parent's layout to lay out again, even when the new
text takes the very same lines: the request climbs panel → column → viewport, three passes of layouts
of the middle column after each edit (d20's dying status, ~1 ms of an edit). ``QuietText`` holds the
label in a box without a layout, placed where the label was, with the label's hints: a new text of the
same size repaints the label and nothing else; another size asks the panel's layout, as before.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSize
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QLabel, QWidget


class QuietText(QWidget):
    """A box for one word-wrapped ``label``, laid out as the label itself would be."""

    def __init__(self, label: QLabel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.label = label
        label.setParent(self)
        self.setSizePolicy(label.sizePolicy())
        self._stale = False  # a text changed without a layout: the hints kept for other widths are old
        self._measured: tuple[int, str, tuple[QSize, QSize, int]] | None = None  # width, text, its hints

    def _hints(self, width: int) -> tuple[QSize, QSize, int]:
        label = self.label
        known = self._measured
        if known is not None and known[0] == width and known[1] == label.text():
            return known[2]
        hints = (label.sizeHint(), label.minimumSizeHint(), label.heightForWidth(width))
        self._measured = (width, label.text(), hints)
        return hints

    def setText(self, text: str, *, laid_out: bool = False) -> None:
        """``laid_out``: the panel lays out again anyway (its rows changed): nothing measured."""
        label = self.label
        if text == label.text():
            return
        if laid_out or not self.isVisible():
            label.setText(text)
            self._measured = None
            self.updateGeometry()
            return
        width = self.width()
        before = self._hints(width)
        label.setText(text)
        if self._hints(width) != before:
            self.updateGeometry()
        else:
            self._stale = True

    def text(self) -> str:
        return self.label.text()

    def sizeHint(self) -> QSize:
        return self.label.sizeHint()

    def minimumSizeHint(self) -> QSize:
        return self.label.minimumSizeHint()

    def hasHeightForWidth(self) -> bool:
        return self.label.hasHeightForWidth()

    def heightForWidth(self, width: int) -> int:
        return self.label.heightForWidth(width)

    def changeEvent(self, event: QEvent) -> None:
        self._measured = None  # a font or a style: other sizes
        super().changeEvent(event)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.label.setGeometry(0, 0, self.width(), self.height())
        if self._stale and event.oldSize().width() != event.size().width():
            # The layout may have used a height measured for this width with an older text.
            self._stale = False
            self.updateGeometry()
