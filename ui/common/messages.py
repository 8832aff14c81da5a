"""The message bar at the top of a sheet: refusals, notices of what just happened.

Non-modal on purpose: a refused action says why right above the sheet without stopping play, and the
text stays readable (and selectable) until the next action or until it is closed.

Its space is reserved (issue 10, item 13): it never appears or disappears, so a message never moves
the controls under the pointer (five quick clicks on « +1 round » are five rounds). Two lines show at
once; a longer message scrolls inside the bar. The text is always plain text (issue 16, item 13).

Nothing in the bar changes its size or its style sheet when a message comes or goes (issue 15): its
frame is painted from its kind and the close button keeps its place (disabled and blank when empty).
A style sheet or a child shown or hidden would make the layout climb to the main window and repaint
the whole sheet on every edit (each edit clears the previous message).

The text is laid out once per message (issue 11: a bulk action's report on the GM table). A word-wrapped
label in a resizable scroll area is measured again at every step of the area's resize loop (its size
hints, then its height at each width the scroll bar comes and goes with): 8 to 10 layouts of the whole
text per message, 40 ms for a report of 2,000 characters. Here the bar places the text itself
(``_place``), where the resizable area would have settled: the viewport's width (less the scroll bar's
when the text is taller than the viewport) and its height for that width; the label's own size hints
are not asked for. A text already measured at that width (the GM table's reports of blows alternating
damage and healing) is not measured again: its height is remembered (``_Text.measure``).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QPalette, QResizeEvent
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QScrollArea, QSizePolicy, QToolButton, QWidget

from ui.common import guard

STYLES = {
    "error": ("#fdecea", "#b71c1c"),
    "warning": ("#fff4e5", "#8a4b00"),
    "info": ("#e8f1fb", "#0d47a1"),
}
LINES_SHOWN = 2
HEIGHTS_KEPT = 8  # texts × widths whose height the bar remembers


class _Text(QLabel):
    """The message's text. Its place and size are set by the bar (``MessageBar._place``), so its size
    hints are never the text's measure: asking a word-wrapped label for them lays the text out anew."""

    def __init__(self, relayout: Callable[[], None]) -> None:
        super().__init__()
        self._relayout = relayout
        # The room and text it was placed for: the viewport's own resizes (the scroll bar coming and
        # going) leave the room as it was and need no measure.
        self.placed: tuple[QSize, str] | None = None
        # The heights already measured, by text and width (a few: the GM table's alternating reports).
        self._heights: dict[tuple[str, int], int] = {}

    def measure(self, width: int) -> int:
        """The text's height at ``width``, laid out once per distinct text and width (issue 11: each
        measure lays a selectable label's whole document out twice)."""
        key = (self.text(), width)
        height = self._heights.get(key)
        if height is None:
            height = self.heightForWidth(width)
            if len(self._heights) >= HEIGHTS_KEPT:
                del self._heights[next(iter(self._heights))]
            self._heights[key] = height
        return height

    def sizeHint(self) -> QSize:
        return self.size()

    def minimumSizeHint(self) -> QSize:
        return QSize(0, 0)

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self.placed = None  # the same text takes another height
            self._heights.clear()
            self._relayout()


class _Scroll(QScrollArea):
    """The area the text scrolls in; the text is placed again when the area's size changes."""

    def __init__(self, relayout: Callable[[], None]) -> None:
        super().__init__()
        self._relayout = relayout
        self._hint: QSize | None = None

    def sizeHint(self) -> QSize:
        """What the resizable area answered (the bar's and its parents' size hints stay the same): its
        text's own size hint at the first call (empty: the bar is built empty), kept as Qt keeps it."""
        if self._hint is None:
            label = self.widget()
            line = self.fontMetrics().height()
            hint = QLabel.sizeHint(label) if isinstance(label, QLabel) else QSize(12 * line, 8 * line)
            frame = 2 * self.frameWidth()
            self._hint = (hint + QSize(frame, frame)).boundedTo(QSize(36 * line, 24 * line))
        return self._hint

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._relayout()


class MessageBar(QFrame):
    """One message at a time; ``kind`` is "error", "warning" or "info" ("" when empty)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("messageBar")
        self._kind = ""
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 3, 4, 3)
        layout.setSpacing(4)
        self._label = _Text(self._place)
        self._label.setObjectName("messageText")
        self._label.setWordWrap(True)
        self._label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self._label.setTextFormat(Qt.TextFormat.PlainText)
        self._label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        self._label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self._scroll = _Scroll(self._place)
        self._scroll.setObjectName("messageScroll")
        self._scroll.setWidget(self._label)
        self._scroll.setWidgetResizable(False)  # placed by ``_place``, once per message or size
        self._scroll.setFrameShape(QFrame.Shape.NoFrame)
        self._scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        layout.addWidget(self._scroll, 1)
        # Once in the bar: Qt re-polishes a widget with a style sheet of its own, and its children, each time
        # it changes parent (issue 15).
        self._scroll.setStyleSheet("QScrollArea, QScrollArea > QWidget > QWidget { background: transparent; }")
        self._close = QToolButton()
        self._close.setText("✕")
        self._close.setAutoRaise(True)
        # Its size never changes: its text comes and goes without any layout (see the module's doc).
        self._close.setFixedSize(self._close.sizeHint())
        self._close.setToolTip(self.tr("Fermer le message"))
        self._close.setAccessibleName(self.tr("Fermer le message"))
        guard.connect(self._close.clicked, self.clear)
        layout.addWidget(self._close, 0, Qt.AlignmentFlag.AlignTop)
        self.setAccessibleName(self.tr("Message"))
        line = self.fontMetrics().lineSpacing()
        self.setFixedHeight(LINES_SHOWN * line + 12)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.clear()

    def kind(self) -> str:
        return self._kind

    def text(self) -> str:
        return self._label.text()

    def closable(self) -> bool:
        """Whether the close button is offered (a message is shown)."""
        return self._close.isEnabled()

    def show_message(self, text: str, kind: str = "error") -> None:
        _background, foreground = STYLES.get(kind, STYLES["info"])
        if kind != self._kind:
            self._kind = kind
            palette = self._label.palette()
            palette.setColor(QPalette.ColorRole.WindowText, QColor(foreground))
            self._label.setPalette(palette)
            self.update()
        self._label.setText(text)
        self._place()
        self._label.setToolTip("")
        self.setAccessibleDescription(text)
        self._close.setText("✕")
        self._close.setEnabled(True)
        self._scroll.verticalScrollBar().setValue(0)

    def clear(self) -> None:
        """Empty: the space stays, without a frame."""
        if self._kind == "" and not self._label.text() and not self._close.isEnabled():
            return  # already empty: nothing to repaint (every edit clears the bar)
        self._kind = ""
        self._label.clear()
        self._place()
        self.setAccessibleDescription("")
        self._close.setText("")
        self._close.setEnabled(False)
        self.update()

    def _place(self) -> None:
        """The text where a resizable scroll area settles it, measured once (twice when it scrolls): as
        wide as the viewport, less the scroll bar when the text is taller than the viewport, and as high
        as the text at that width (at least the viewport)."""
        label = getattr(self, "_label", None)
        scroll = getattr(self, "_scroll", None)
        if label is None or scroll is None:
            return  # still being built
        room = scroll.maximumViewportSize()
        text = label.text()
        if label.placed == (room, text):
            return
        label.placed = (room, text)
        width = room.width()
        height = label.measure(width) if text else 0
        if height > room.height():
            width -= scroll.verticalScrollBar().sizeHint().width()
            height = label.measure(width)
        size = QSize(width, max(height, room.height()))
        if label.size() != size:
            label.resize(size)

    def paintEvent(self, event: QPaintEvent) -> None:
        """The frame of the message's kind (nothing when empty)."""
        if self._kind:
            background, foreground = STYLES.get(self._kind, STYLES["info"])
            painter = QPainter(self)
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            painter.setPen(QColor(foreground))
            painter.setBrush(QColor(background))
            painter.drawRoundedRect(QRectF(self.rect()).adjusted(0.5, 0.5, -0.5, -0.5), 4, 4)
            painter.end()
