"""The quick entry's field, the same on a sheet and on the GM table: a number or dice (« 7 », « 2d6+3 »);
Entrée applies the current choice, Maj+Entrée heals, Échap gives the focus back."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QLineEdit, QWidget

# Amounts are short: a number or a dice expression (the rules bound what they may roll).
AMOUNT_MAX_LENGTH = 80


class AmountField(QLineEdit):
    """Entrée emits ``submitted("damage")`` (the current choice), Maj+Entrée ``submitted("heal")``,
    Échap ``escaped``."""

    submitted = Signal(str)  # "damage" or "heal"
    escaped = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setMaxLength(AMOUNT_MAX_LENGTH)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            shift = bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
            self.submitted.emit("heal" if shift else "damage")
            event.accept()
            return
        if event.key() == Qt.Key.Key_Escape:
            self.escaped.emit()
            event.accept()
            return
        super().keyPressEvent(event)
