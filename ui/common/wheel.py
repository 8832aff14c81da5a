"""The mouse wheel scrolls the page; it changes a number box or a drop-down only once the user chose it.

Issue 10 item 4: one notch over « Épuisement » while scrolling applied an exhaustion level. Every spin
box and combo box of the application gets ``Qt.StrongFocus`` (the wheel no longer gives them focus)
and, while unfocused, lets wheel events go to the page under it (the column scrolls).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QAbstractSpinBox, QApplication, QComboBox, QWidget

_installed: WheelGuard | None = None


class WheelGuard(QObject):
    """An application-wide event filter (one per application)."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind == QEvent.Type.Polish and isinstance(watched, (QAbstractSpinBox, QComboBox)):
            if watched.focusPolicy() == Qt.FocusPolicy.WheelFocus:
                watched.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        elif kind == QEvent.Type.Wheel and isinstance(watched, (QAbstractSpinBox, QComboBox)):
            if not watched.hasFocus():
                # Not for this box: Qt hands an ignored wheel event to the parent (the scroll area).
                event.ignore()
                return True
        return False


def install(app: QApplication | None = None) -> WheelGuard:
    """Install the guard on ``app`` (the running application) once; later calls return it."""
    global _installed
    app = app or QApplication.instance()  # type: ignore[assignment]
    if _installed is None:
        _installed = WheelGuard(app)
        assert app is not None
        app.installEventFilter(_installed)
        # Boxes already polished before the guard came.
        for widget in app.allWidgets():
            if isinstance(widget, (QAbstractSpinBox, QComboBox)) and widget.focusPolicy() == Qt.FocusPolicy.WheelFocus:
                widget.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
    return _installed


def takes_wheel(widget: QWidget) -> bool:
    """Whether a wheel over ``widget`` now would change it (for tests and the help text)."""
    return not isinstance(widget, (QAbstractSpinBox, QComboBox)) or widget.hasFocus()
