"""The window's shortcuts win over a text field's own key bindings (issue 10, item 16).

A line edit claims some Ctrl keys for itself (Ctrl+E: end of line, Ctrl+H: backspace, Ctrl+D: delete…)
through a ``ShortcutOverride`` event, so « Aller aux états » did nothing while the damage field had
focus — where focus stays after every Ctrl+D. The window's own shortcuts are refused to the fields of
that window; undo and redo keep their field-first behaviour (``undo_keys``).
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QAction, QKeyEvent, QKeySequence
from PySide6.QtWidgets import QAbstractSpinBox, QComboBox, QLineEdit, QPlainTextEdit, QTextEdit, QWidget

from ui.common import app_events

EDITORS = (QLineEdit, QAbstractSpinBox, QPlainTextEdit, QTextEdit, QComboBox)


def new_action(text: str, parent: QObject) -> QAction:
    """``QAction(text, parent)`` without its cost: that constructor makes PySide weigh the
    ``QAction(icon, text, parent)`` overload first, which loads ``QIcon`` and its 157-member enums before the
    window's first paint (issue 15); ``QAction(parent)`` then ``setText`` makes the same action."""
    action = QAction(parent)
    action.setText(text)
    return action


def field_first() -> frozenset[str]:
    """Keys left to the field while it is being edited (``undo_keys`` passes them on when it is not).
    (Key sequences need the application: not computed at import.)"""
    keys = (QKeySequence.StandardKey.Undo, QKeySequence.StandardKey.Redo, "Ctrl+Y", "Ctrl+Shift+Z")
    return frozenset(QKeySequence(k).toString() for k in keys)


class WindowShortcutsWin(QObject):
    """In ``window``, a key that is one of its actions' shortcuts goes to the action, not to the text field
    that has focus (a handler of the application's one event filter, ``app_events``)."""

    def __init__(self, window: QWidget, actions: Iterable[QAction]) -> None:
        super().__init__(window)
        self.window = window
        self.sequences: set[str] = set()
        self.update(actions)
        app_events.hub().on_shortcut_override(self, self.override)

    def update(self, actions: Iterable[QAction]) -> None:
        kept = field_first()
        self.sequences = {
            s.toString()
            for action in actions
            for s in action.shortcuts()
            if not s.isEmpty() and s.toString() not in kept
        }

    def override(self, watched: QObject, event: QEvent) -> bool:
        """A ``ShortcutOverride`` (from the application's one event filter): True refuses it to the field."""
        if isinstance(event, QKeyEvent) and isinstance(watched, EDITORS) and watched.window() is self.window:
            typed = QKeySequence(event.keyCombination()).toString()
            if typed in self.sequences:
                return True  # not accepted by the field: the window's shortcut runs
        return False
