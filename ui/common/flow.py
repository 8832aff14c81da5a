"""A layout that puts its widgets side by side and wraps them to the next line when the width runs out.

Rows of buttons and options (rests, other actions, wound buttons, damage options) use it so that a
column stays usable at 1024×700 (issue 10, item 12) and does not leave space unused on a wide screen.
The Qt « Flow Layout » example, with height-for-width so the scrollable columns give it the height
it needs at their width.

Measures are kept until Qt invalidates the layout (``invalidate``: a child's size hint changed, a child
shown or hidden, or any activation of the window's layouts, which invalidates every layout in the tree),
as Qt's own box layouts do: one activation asks ``heightForWidth`` of the same width dozens of times
(every scrollable column and box above asks), each a walk of the items through Python (issue 15).
"""

from __future__ import annotations

from PySide6.QtCore import QMargins, QPoint, QRect, QSize, Qt
from PySide6.QtWidgets import QLayout, QLayoutItem, QWidget


class FlowLayout(QLayout):
    def __init__(self, parent: QWidget | None = None, spacing: int = 6, line_spacing: int = 4) -> None:
        super().__init__(parent)
        self._items: list[QLayoutItem] = []
        self._spacing = spacing
        self._line_spacing = line_spacing
        # Kept until ``invalidate``: the visible items' measures, heights per width, the rectangle placed.
        self._measured: list[tuple[QLayoutItem, int, int, int]] | None = None
        self._heights: dict[int, int] = {}
        self._placed: QRect | None = None
        self.setContentsMargins(0, 0, 0, 0)

    # --- QLayout -------------------------------------------------------------------------------------

    def addItem(self, item: QLayoutItem) -> None:
        self._items.append(item)
        self.invalidate()

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:  # type: ignore[override]
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:  # type: ignore[override]
        item = self._items.pop(index) if 0 <= index < len(self._items) else None
        self.invalidate()
        return item

    def invalidate(self) -> None:
        self._measured = None
        self._heights.clear()
        self._placed = None
        super().invalidate()

    def expandingDirections(self) -> Qt.Orientation:
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        height = self._heights.get(width)
        if height is None:
            height = self._heights[width] = self._arrange(QRect(0, 0, width, 0), move=False)
        return height

    def setGeometry(self, rect: QRect) -> None:
        super().setGeometry(rect)
        if self._placed is not None and self._placed == rect:
            return  # the same rectangle, nothing invalidated since: every item is where it goes
        self._arrange(rect, move=True)
        self._placed = QRect(rect)

    def sizeHint(self) -> QSize:
        """Everything on one line (what the layout would like)."""
        measured = self._measures()
        width = sum(w for _, w, _, _ in measured) + self._spacing * max(len(measured) - 1, 0)
        height = max((h for _, _, h, _ in measured), default=0)
        m = self.contentsMargins()
        return QSize(width + m.left() + m.right(), height + m.top() + m.bottom())

    def minimumSize(self) -> QSize:
        """The widest item alone on its line."""
        size = QSize()
        for item in self._items:
            if not item.isEmpty():
                size = size.expandedTo(item.minimumSize())
        m: QMargins = self.contentsMargins()
        return size + QSize(m.left() + m.right(), m.top() + m.bottom())

    def _measures(self) -> list[tuple[QLayoutItem, int, int, int]]:
        """The visible items with their size hint's width and height and their minimum width."""
        if self._measured is None:
            measured = []
            for item in self._items:
                if not item.isEmpty():
                    hint = item.sizeHint()
                    measured.append((item, hint.width(), hint.height(), item.minimumSize().width()))
            self._measured = measured
        return self._measured

    # --- placing -------------------------------------------------------------------------------------

    def _arrange(self, rect: QRect, move: bool) -> int:
        m = self.contentsMargins()
        area = rect.adjusted(m.left(), m.top(), -m.right(), -m.bottom())
        left, right, available = area.x(), area.right() + 1, area.width()
        x, y, line_height = left, area.y(), 0
        for item, hint_width, hint_height, min_width in self._measures():
            width = min(hint_width, available) if available > 0 else hint_width
            width = max(width, min_width)
            if x > left and x + width > right:
                x = left
                y += line_height + self._line_spacing
                line_height = 0
            if move:
                item.setGeometry(QRect(QPoint(x, y), QSize(width, hint_height)))
            x += width + self._spacing
            line_height = max(line_height, hint_height)
        return y + line_height - rect.y() + m.bottom()
