"""The message bar at the top of a sheet: refusals, notices of what just happened.

Non-modal on purpose: a refused action says why right above the sheet without stopping play, and the
text stays readable (and selectable) until the next action or until it is closed.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QToolButton, QWidget

from ui.common import guard

STYLES = {
    "error": ("#fdecea", "#b71c1c"),
    "warning": ("#fff4e5", "#8a4b00"),
    "info": ("#e8f1fb", "#0d47a1"),
}


class MessageBar(QFrame):
    """One message at a time; ``kind`` is "error", "warning" or "info"."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("messageBar")
        self._kind = ""
        layout = QHBoxLayout(self)
        layout.setContentsMargins(10, 6, 6, 6)
        self._label = QLabel()
        self._label.setWordWrap(True)
        self._label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self._label.setTextFormat(Qt.TextFormat.PlainText)
        layout.addWidget(self._label, 1)
        close = QToolButton()
        close.setText("✕")
        close.setAutoRaise(True)
        close.setToolTip(self.tr("Fermer le message"))
        close.setAccessibleName(self.tr("Fermer le message"))
        guard.connect(close.clicked, self.clear)
        layout.addWidget(close, 0, Qt.AlignmentFlag.AlignTop)
        self.setAccessibleName(self.tr("Message"))
        self.hide()

    def kind(self) -> str:
        return self._kind

    def text(self) -> str:
        return self._label.text() if self.isVisibleTo(self.parentWidget()) else ""

    def show_message(self, text: str, kind: str = "error") -> None:
        background, foreground = STYLES.get(kind, STYLES["info"])
        self._kind = kind
        self.setStyleSheet(
            f"#messageBar {{ background: {background}; border: 1px solid {foreground}; border-radius: 4px; }}"
            f"#messageBar QLabel {{ color: {foreground}; }}"
        )
        self._label.setText(text)
        self.setAccessibleDescription(text)
        self.show()

    def clear(self) -> None:
        self._kind = ""
        self._label.clear()
        self.hide()
