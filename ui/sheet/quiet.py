"""A word-wrapped status text that asks for a layout only when it needs another size (issue 15).

A ``QLabel`` whose text changes always asks its parent's layout to lay out again, even when the new
text takes the very same lines: the request climbs panel → column → viewport, three passes of layouts
of the middle column after each edit (d20's dying status, ~2 ms of an edit). ``QuietText`` holds the
label in a box without a layout, placed where the label was, with the label's hints: a new text of the
same size repaints the label and nothing else; another size asks the panel's layout, as before.
"""

from __future__ import annotations

from PySide6.QtCore import QSize
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

    def setText(self, text: str) -> None:
        label = self.label
        if text == label.text():
            return
        width = self.width()
        before = (label.sizeHint(), label.minimumSizeHint(), label.heightForWidth(width))
        label.setText(text)
        if not self.isVisible() or (label.sizeHint(), label.minimumSizeHint(), label.heightForWidth(width)) != before:
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

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.label.setGeometry(0, 0, self.width(), self.height())
        if self._stale and event.oldSize().width() != event.size().width():
            # The layout may have used a height measured for this width with an older text.
            self._stale = False
            self.updateGeometry()
