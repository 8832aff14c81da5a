"""Editable stored fields: header, characteristics, health values, notes, resource pools.

One binder per field (napari ``qt_gamma_slider`` shape): widget → model by one call (``vm.edit``) when
the user is done (Enter or leaving the field); model → widget with the widget's signals blocked. A
value the rules refuse leaves the old value in place and the view-model shows the French message.
"""

from __future__ import annotations

import types
import typing
from typing import Any

from PySide6.QtCore import QObject, QRect, QSignalBlocker, QSize, Qt, Signal
from PySide6.QtGui import QFocusEvent, QKeyEvent, QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

import rules
from ui.common import guard
from ui.common.texts import fmt_number, fmt_signed, parse_int
from ui.common.undo_keys import pass_undo_when_unmodified
from ui.sheet.viewmodel import Changes, SheetViewModel


class NotesEdit(QPlainTextEdit):
    """A multi-line text that commits when the user leaves it (or Ctrl+Entrée)."""

    editingFinished = Signal()

    def focusOutEvent(self, event: QFocusEvent) -> None:
        super().focusOutEvent(event)
        self.editingFinished.emit()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and (
            event.modifiers() & Qt.KeyboardModifier.ControlModifier
        ):
            self.editingFinished.emit()
            return
        super().keyPressEvent(event)


def nullable(sheet: Any, name: str) -> bool:
    """Whether the stored field ``name`` accepts « none » (an empty field)."""
    field = type(sheet).model_fields.get(name)
    if field is None:
        return False
    annotation = field.annotation
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        return type(None) in typing.get_args(annotation)
    return False


class FieldBinder(QObject):
    """Binds one stored field (``rules.FieldInfo``) to one editor widget."""

    def __init__(self, vm: SheetViewModel, info: rules.FieldInfo, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.vm = vm
        self.info = info
        self.widget = self._make()
        self.widget.setObjectName(f"field_{info.name}")
        self.widget.setAccessibleName(info.label)
        if info.tooltip:
            self.widget.setToolTip(info.tooltip)
        self.refresh()

    def _make(self) -> QWidget:
        kind = self.info.kind
        if kind == "bool":
            box = QCheckBox(self.info.label)
            guard.connect(box.toggled, self.commit)
            return box
        if kind == "choice":
            combo = QComboBox()
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(10)
            for value, label in self.info.choices:
                combo.addItem(label, value)
            guard.connect(combo.activated, self.commit)
            return combo
        if kind == "longtext":
            notes = NotesEdit()
            notes.setTabChangesFocus(True)
            guard.connect(notes.editingFinished, self.commit)
            return notes
        edit = QLineEdit()
        if kind == "int":
            edit.setAlignment(Qt.AlignmentFlag.AlignRight)
            edit.setMaximumWidth(90)
            low, high = self.info.minimum, self.info.maximum
            if low is not None and high is not None:
                hint = self.tr("Nombre entier de {0} à {1}").format(fmt_number(low), fmt_number(high))
                edit.setToolTip(self.info.tooltip + ("\n" if self.info.tooltip else "") + hint)
            if nullable(self.vm.sheet, self.info.name):
                # An optional number left empty means « none », as the new-sheet form says.
                edit.setPlaceholderText(self.tr("aucun"))
        guard.connect(edit.editingFinished, self.commit)
        pass_undo_when_unmodified(edit)
        return edit

    def model_value(self) -> Any:
        return getattr(self.vm.sheet, self.info.name, None)

    def _list_separator(self) -> str | None:
        """A text field stored as a list (segments' « 5/argent, 2/− »): the separator shown between items."""
        lists = self.vm.info.extra.get("text_lists") or {}
        sep = lists.get(self.info.name) if isinstance(lists, dict) else None
        return str(sep) if sep else None

    def refresh(self) -> None:
        """Show the model's value (signals blocked: showing is not editing)."""
        value = self.model_value()
        w = self.widget
        blocker = QSignalBlocker(w)
        try:
            if isinstance(w, QCheckBox):
                w.setChecked(bool(value))
            elif isinstance(w, QComboBox):
                w.setCurrentIndex(max(w.findData(value), 0))
            elif isinstance(w, NotesEdit):
                if w.toPlainText() != (value or ""):
                    w.setPlainText(value or "")
            elif isinstance(w, QLineEdit):
                sep = self._list_separator()
                if sep is not None and isinstance(value, (tuple, list)):
                    text = sep.join(str(v) for v in value)
                else:
                    text = "" if value is None else (fmt_number(value) if isinstance(value, int) else str(value))
                if w.text() != text:
                    w.setText(text)
                w.setModified(False)
                w.setCursorPosition(0)
        finally:
            blocker.unblock()

    def commit(self) -> None:
        """Send the widget's value to the model; on refusal put the old value back."""
        w = self.widget
        value: Any
        if isinstance(w, QCheckBox):
            value = w.isChecked()
        elif isinstance(w, QComboBox):
            value = w.currentData()
        elif isinstance(w, NotesEdit):
            value = w.toPlainText()
        elif isinstance(w, QLineEdit):
            text = w.text()
            if self.info.kind == "int":
                if not text.strip() and nullable(self.vm.sheet, self.info.name):
                    value = None
                else:
                    number = parse_int(text)
                    if number is None:
                        self.vm.refused.emit(
                            self.tr("« {0} » : « {1} » n'est pas un nombre entier ; la valeur {2} est gardée.").format(
                                self.info.label, text.strip(), self._shown_old()
                            )
                        )
                        self.refresh()
                        return
                    value = number
            elif self._list_separator() is not None:
                sep = str(self._list_separator()).strip() or ","
                value = tuple(part.strip() for part in text.split(sep) if part.strip())
            else:
                value = text
        else:
            return
        if value == self.model_value():
            self.refresh()
            return
        self.vm.edit({self.info.name: value})
        self.refresh()

    def _shown_old(self) -> str:
        value = self.model_value()
        return "(vide)" if value is None else (fmt_number(value) if isinstance(value, int) else str(value))


class VerticalLabel(QWidget):
    """A column title written from bottom to top (narrow columns of numbers)."""

    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._text = text
        self.setAccessibleName(text)
        self.setToolTip(text)

    def text(self) -> str:
        return self._text

    def sizeHint(self) -> QSize:
        metrics = self.fontMetrics()
        return QSize(metrics.height() + 4, metrics.horizontalAdvance(self._text) + 6)

    def minimumSizeHint(self) -> QSize:
        return self.sizeHint()

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setPen(self.palette().color(QPalette.ColorRole.WindowText))
        painter.translate(0, self.height())
        painter.rotate(-90)
        painter.drawText(
            QRect(0, 0, self.height(), self.width()),
            Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
            self._text,
        )
        painter.end()


def _column_title(label: str, base_label: str) -> str:
    """« Affaiblissement de Force » with base « Force » → « Affaiblissement »."""
    for joint in (f" de {base_label}", f" d'{base_label}", f" d’{base_label}", f" {base_label}"):
        if label.endswith(joint):
            return label[: -len(joint)]
    return label


class FieldsPanel(QWidget):
    """The header (identity, characteristics), the health base values and the notes, from ``info.fields``."""

    def __init__(self, vm: SheetViewModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.vm = vm
        self.binders: dict[str, FieldBinder] = {}
        self._modifiers: dict[str, QLabel] = {}
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        groups: dict[str, list[rules.FieldInfo]] = {}
        for info in vm.info.fields:
            groups.setdefault(info.group, []).append(info)
        titles = {
            "identity": self.tr("Personnage"),
            "characteristics": self.tr("Caractéristiques"),
            "health": self.tr("Santé : valeurs de base"),
        }
        for group in ("identity", "characteristics", "health"):
            if group in groups:
                box = QGroupBox(titles[group])
                if group == "characteristics":
                    self._characteristics(box, groups[group])
                else:
                    self._grid(box, groups[group], columns=2 if group == "identity" else 1)
                layout.addWidget(box)
        others = [f for g, fs in groups.items() if g not in titles for f in fs]
        texts = [f for f in others if f.kind == "longtext"]
        rest = [f for f in others if f.kind != "longtext"]
        if rest:
            box = QGroupBox(self.tr("Autres"))
            self._grid(box, rest, columns=1)
            layout.addWidget(box)
        # Long texts (notes) go in their own boxes, which the sheet places last in the column.
        self.text_boxes: list[QGroupBox] = []
        for info in texts:
            box = QGroupBox(info.label)
            inner = QVBoxLayout(box)
            binder = self._bind(info)
            binder.widget.setMinimumHeight(90)
            binder.widget.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
            inner.addWidget(binder.widget)
            self.text_boxes.append(box)
        vm.changed.connect(self._on_changed)

    def _bind(self, info: rules.FieldInfo) -> FieldBinder:
        binder = FieldBinder(self.vm, info, self)
        self.binders[info.name] = binder
        return binder

    def _grid(self, box: QGroupBox, infos: list[rules.FieldInfo], columns: int) -> None:
        """Label/editor pairs, ``columns`` pairs a row; free texts take a whole row of their own."""
        grid = QGridLayout(box)
        grid.setHorizontalSpacing(8)
        row, col = 0, 0
        for info in infos:
            binder = self._bind(info)
            wide = info.kind == "text" and columns > 1
            if wide and col:
                row, col = row + 1, 0
            span = 2 * columns - 1 if wide else 1
            if info.kind == "bool":
                grid.addWidget(binder.widget, row, col * 2, 1, 2)
            else:
                label = QLabel(info.label + " :")
                label.setWordWrap(True)
                label.setBuddy(binder.widget)
                grid.addWidget(label, row, col * 2)
                grid.addWidget(binder.widget, row, col * 2 + 1, 1, span)
            col = columns if wide else col + 1
            if col >= columns:
                row, col = row + 1, 0
        for c in range(columns):
            grid.setColumnStretch(c * 2 + 1, 1)

    def _characteristics(self, box: QGroupBox, infos: list[rules.FieldInfo]) -> None:
        """Characteristics with their modifier; companions (``force_damage``…) as columns of a table."""
        names = {i.name for i in infos}
        companions: dict[str, dict[str, rules.FieldInfo]] = {}
        suffixes: dict[str, str] = {}
        for info in infos:
            base, _, suffix = info.name.rpartition("_")
            if base in names and suffix:
                companions.setdefault(base, {})[suffix] = info
                if suffix not in suffixes:
                    suffixes[suffix] = _column_title(info.label, next(i.label for i in infos if i.name == base))
        if companions:
            self._matrix(
                box,
                [i for i in infos if i.name not in {c.name for d in companions.values() for c in d.values()}],
                companions,
                suffixes,
            )
            return
        grid = QGridLayout(box)
        grid.setHorizontalSpacing(6)
        columns = 3 if len(infos) > 4 and max(len(i.label) for i in infos) < 16 else 2
        for i, info in enumerate(infos):
            binder = self._bind(info)
            binder.widget.setMaximumWidth(56)
            row, col = divmod(i, columns)
            label = QLabel(info.label)
            label.setWordWrap(True)
            label.setBuddy(binder.widget)
            cell = QHBoxLayout()
            cell.setSpacing(4)
            cell.addWidget(binder.widget)
            cell.addWidget(self._modifier_label(info))
            cell.addStretch(1)
            grid.addWidget(label, row * 2, col)
            grid.addLayout(cell, row * 2 + 1, col)
        self._refresh_modifiers()

    def _modifier_label(self, info: rules.FieldInfo) -> QLabel:
        modifier = QLabel()
        modifier.setMinimumWidth(26)
        modifier.setAccessibleName(self.tr("Modificateur de {0}").format(info.label))
        self._modifiers[info.name] = modifier
        return modifier

    def _matrix(
        self,
        box: QGroupBox,
        rows: list[rules.FieldInfo],
        companions: dict[str, dict[str, rules.FieldInfo]],
        suffixes: dict[str, str],
    ) -> None:
        grid = QGridLayout(box)
        grid.setHorizontalSpacing(6)
        grid.setVerticalSpacing(3)
        headers = [self.tr("Valeur"), "", *suffixes.values()]
        for col, text in enumerate(headers, start=1):
            # Companion columns are narrow number fields: their titles are written upwards.
            header = VerticalLabel(text) if col > 2 else QLabel(text)
            grid.addWidget(header, 0, col, Qt.AlignmentFlag.AlignBottom | Qt.AlignmentFlag.AlignHCenter)
        for r, info in enumerate(rows, start=1):
            binder = self._bind(info)
            binder.widget.setMaximumWidth(48)
            label = QLabel(info.label)
            label.setWordWrap(True)
            label.setBuddy(binder.widget)
            grid.addWidget(label, r, 0)
            grid.addWidget(binder.widget, r, 1)
            grid.addWidget(self._modifier_label(info), r, 2)
            for c, suffix in enumerate(suffixes, start=3):
                companion = companions.get(info.name, {}).get(suffix)
                if companion is not None:
                    other = self._bind(companion)
                    other.widget.setMaximumWidth(44)
                    other.widget.setToolTip(companion.label + ("\n" + companion.tooltip if companion.tooltip else ""))
                    grid.addWidget(other.widget, r, c)
        grid.setColumnStretch(len(headers) + 1, 1)
        self._refresh_modifiers()

    def _refresh_modifiers(self) -> None:
        for name, label in self._modifiers.items():
            key = f"{name}_modifier"
            if key in self.vm.derived:
                label.setText(f"({self.vm.shown(key) if self.vm.is_hidden(key) else fmt_signed(self.vm.value(key))})")
                label.setToolTip(self.vm.explain(key))
            else:
                label.clear()

    def _on_changed(self, changes: Changes) -> None:
        for name, binder in self.binders.items():
            if changes.everything or name in changes.fields:
                binder.refresh()
        if changes.everything or any(n.endswith("_modifier") for n in changes.derived):
            self._refresh_modifiers()


class PoolsPanel(QGroupBox):
    """Resource pools with a stored maximum (Douaratil: PM, PF, PH, SAM), from ``info.extra["pools"]``."""

    def __init__(self, vm: SheetViewModel, parent: QWidget | None = None) -> None:
        super().__init__(self.tr("Réserves"), parent)
        self.vm = vm
        self._rows: dict[str, tuple[QLineEdit, QLineEdit, QLabel]] = {}
        grid = QGridLayout(self)
        grid.addWidget(QLabel(self.tr("Actuels")), 0, 1)
        grid.addWidget(QLabel(self.tr("Maximum")), 0, 2)
        grid.addWidget(QLabel(self.tr("Effectif")), 0, 3)
        for row, (pool, label) in enumerate(vm.info.extra.get("pools", ()), start=1):
            name = QLabel(label[:1].upper() + label[1:])
            current, base = QLineEdit(), QLineEdit()
            for edit, what in ((current, self.tr("actuels")), (base, self.tr("maximum"))):
                edit.setMaximumWidth(70)
                edit.setAlignment(Qt.AlignmentFlag.AlignRight)
                edit.setAccessibleName(f"{label}, {what}")
                edit.setObjectName(f"pool_{pool}_{'current' if edit is current else 'base_maximum'}")
                guard.connect(edit.editingFinished, lambda p=pool: self._commit(p))
                pass_undo_when_unmodified(edit)
            name.setBuddy(current)
            effective = QLabel()
            effective.setAccessibleName(self.tr("{0}, maximum effectif").format(label))
            grid.addWidget(name, row, 0)
            grid.addWidget(current, row, 1)
            grid.addWidget(base, row, 2)
            grid.addWidget(effective, row, 3)
            self._rows[pool] = (current, base, effective)
        grid.setColumnStretch(0, 1)
        self.refresh()
        vm.changed.connect(self._on_changed)

    def refresh(self) -> None:
        for pool, (current, base, effective) in self._rows.items():
            stored = getattr(self.vm.sheet, pool)
            for edit, value in ((current, stored.current), (base, stored.base_maximum)):
                blocker = QSignalBlocker(edit)
                edit.setText(fmt_number(value))
                edit.setModified(False)
                blocker.unblock()
            key = f"{pool}_maximum"
            effective.setText(self.vm.shown(key))
            effective.setToolTip(self.vm.explain(key))

    def _commit(self, pool: str) -> None:
        current, base, _ = self._rows[pool]
        values = {}
        for edit, key in ((current, "current"), (base, "base_maximum")):
            number = parse_int(edit.text())
            if number is None:
                self.vm.refused.emit(self.tr("« {0} » n'est pas un nombre entier.").format(edit.text().strip()))
                self.refresh()
                return
            values[key] = number
        stored = getattr(self.vm.sheet, pool)
        if values == {"current": stored.current, "base_maximum": stored.base_maximum}:
            return
        self.vm.edit({pool: values})
        self.refresh()

    def _on_changed(self, changes: Changes) -> None:
        if changes.touches(self._rows, [f"{p}_maximum" for p in self._rows]):
            self.refresh()
