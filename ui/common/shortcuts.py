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
from PySide6.QtWidgets import QAbstractSpinBox, QApplication, QComboBox, QLineEdit, QPlainTextEdit, QTextEdit, QWidget

EDITORS = (QLineEdit, QAbstractSpinBox, QPlainTextEdit, QTextEdit, QComboBox)


def field_first() -> frozenset[str]:
    """Keys left to the field while it is being edited (``undo_keys`` passes them on when it is not).
    (Key sequences need the application: not computed at import.)"""
    keys = (QKeySequence.StandardKey.Undo, QKeySequence.StandardKey.Redo, "Ctrl+Y", "Ctrl+Shift+Z")
    return frozenset(QKeySequence(k).toString() for k in keys)


class WindowShortcutsWin(QObject):
    """Application event filter: in ``window``, a key that is one of its actions' shortcuts goes to the
    action, not to the text field that has focus."""

    def __init__(self, window: QWidget, actions: Iterable[QAction]) -> None:
        super().__init__(window)
        self.window = window
        self.sequences: set[str] = set()
        self.update(actions)
        app = QApplication.instance()
        assert app is not None
        # Qt drops a deleted filter from the application's list by itself (it goes with the window).
        app.installEventFilter(self)

    def update(self, actions: Iterable[QAction]) -> None:
        kept = field_first()
        self.sequences = {
            s.toString()
            for action in actions
            for s in action.shortcuts()
            if not s.isEmpty() and s.toString() not in kept
        }

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (
            event.type() == QEvent.Type.ShortcutOverride
            and isinstance(event, QKeyEvent)
            and isinstance(watched, EDITORS)
            and watched.window() is self.window
        ):
            typed = QKeySequence(event.keyCombination()).toString()
            if typed in self.sequences:
                return True  # not accepted by the field: the window's shortcut runs
        return False
