"""The mouse wheel scrolls the page; it changes a number box or a drop-down only once the user chose it.

Issue 10 item 4: one notch over « Épuisement » while scrolling applied an exhaustion level. Every spin
box and combo box of the application gets ``Qt.StrongFocus`` (the wheel no longer gives them focus)
and, while unfocused, lets wheel events go to the page under it (the column scrolls). Through the
application's one event filter (``app_events``).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QAbstractSpinBox, QApplication, QComboBox, QWidget

from ui.common import app_events

BOXES = (QAbstractSpinBox, QComboBox)

_installed: WheelGuard | None = None


class WheelGuard:
    """The guard's two handlers, on the application's one event filter (``app_events``)."""

    @staticmethod
    def polish(box: QWidget) -> None:
        if box.focusPolicy() == Qt.FocusPolicy.WheelFocus:
            box.setFocusPolicy(Qt.FocusPolicy.StrongFocus)

    @staticmethod
    def wheel(watched: QObject, event: QEvent) -> bool:
        if isinstance(watched, BOXES) and not watched.hasFocus():
            # Not for this box: Qt hands an ignored wheel event to the parent (the scroll area).
            event.ignore()
            return True
        return False


def install(app: QApplication | None = None) -> WheelGuard:
    """Install the guard on ``app`` (the running application) once; later calls return it."""
    global _installed
    if _installed is None:
        events = app_events.hub(app)
        _installed = WheelGuard()
        events.on_polish(BOXES, _installed.polish)
        events.on_wheel(_installed.wheel)
        # Boxes already polished before the guard came.
        for kind in BOXES:
            for widget in app_events.existing(kind):
                if widget.focusPolicy() == Qt.FocusPolicy.WheelFocus:
                    widget.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
    return _installed


def takes_wheel(widget: QWidget) -> bool:
    """Whether a wheel over ``widget`` now would change it (for tests and the help text)."""
    return not isinstance(widget, BOXES) or widget.hasFocus()
