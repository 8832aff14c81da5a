"""Ctrl+Z in a text field: the field's own undo while it is being edited, the sheet's undo otherwise.

A line edit normally swallows Ctrl+Z. Once its value has been committed to the sheet (or when it is
empty, like the quick entry after Entrée), Ctrl+Z belongs to the sheet's undo stack, as in a
spreadsheet cell.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QKeyEvent, QKeySequence
from PySide6.QtWidgets import QLineEdit

_KEYS = (QKeySequence.StandardKey.Undo, QKeySequence.StandardKey.Redo)


class _PassUndo(QObject):
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ShortcutOverride and isinstance(watched, QLineEdit):
            key = event if isinstance(event, QKeyEvent) else None
            if key is not None and any(key.matches(k) for k in _KEYS) and not watched.isModified():
                return True  # not accepted: the window's Annuler / Rétablir shortcut runs
        return False


_FILTER: _PassUndo | None = None


def pass_undo_when_unmodified(edit: QLineEdit) -> None:
    global _FILTER
    if _FILTER is None:
        _FILTER = _PassUndo()
    edit.installEventFilter(_FILTER)
