"""The message bar at the top of a sheet: refusals, notices of what just happened.

Non-modal on purpose: a refused action says why right above the sheet without stopping play, and the
text stays readable (and selectable) until the next action or until it is closed.

Its space is reserved (issue 10, item 13): it never appears or disappears, so a message never moves
the controls under the pointer (five quick clicks on « +1 round » are five rounds). Two lines show at
once; a longer message scrolls inside the bar. The text is always plain text (issue 16, item 13).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QScrollArea, QSizePolicy, QToolButton, QWidget

from ui.common import guard

STYLES = {
    "error": ("#fdecea", "#b71c1c"),
    "warning": ("#fff4e5", "#8a4b00"),
    "info": ("#e8f1fb", "#0d47a1"),
}
LINES_SHOWN = 2


class MessageBar(QFrame):
    """One message at a time; ``kind`` is "error", "warning" or "info" ("" when empty)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("messageBar")
        self._kind = ""
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 3, 4, 3)
        layout.setSpacing(4)
        self._label = QLabel()
        self._label.setObjectName("messageText")
        self._label.setWordWrap(True)
        self._label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self._label.setTextFormat(Qt.TextFormat.PlainText)
        self._label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        self._label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self._scroll = QScrollArea()
        self._scroll.setObjectName("messageScroll")
        self._scroll.setWidget(self._label)
        self._scroll.setWidgetResizable(True)
        self._scroll.setFrameShape(QFrame.Shape.NoFrame)
        self._scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self._scroll.setStyleSheet("QScrollArea, QScrollArea > QWidget > QWidget { background: transparent; }")
        layout.addWidget(self._scroll, 1)
        self._close = QToolButton()
        self._close.setText("✕")
        self._close.setAutoRaise(True)
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

    def show_message(self, text: str, kind: str = "error") -> None:
        background, foreground = STYLES.get(kind, STYLES["info"])
        self._kind = kind
        self.setStyleSheet(
            f"#messageBar {{ background: {background}; border: 1px solid {foreground}; border-radius: 4px; }}"
            f"#messageBar QLabel {{ color: {foreground}; }}"
        )
        self._label.setText(text)
        self._label.setToolTip("")
        self.setAccessibleDescription(text)
        self._close.setVisible(True)
        self._scroll.verticalScrollBar().setValue(0)

    def clear(self) -> None:
        """Empty: the space stays, without a frame."""
        self._kind = ""
        self._label.clear()
        self.setAccessibleDescription("")
        self.setStyleSheet("#messageBar { background: transparent; border: 1px solid transparent; }")
        self._close.setVisible(False)
