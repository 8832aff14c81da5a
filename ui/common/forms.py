"""A form built from an action's pydantic model: how a system's own actions get controls without new code.

Choices come from the system's description (wound types, damage types, time units, conditions, the
``extra`` lists); labels from ``ui.texts.ACTION_FIELD_LABELS`` or the field's own title. The form only
collects values; the rules validate and apply them.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

from pydantic import ValidationError
from pydantic_core import PydanticUndefined
from PySide6.QtCore import QLocale, Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDoubleSpinBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

import rules
from ui.common import guard
from ui.common.texts import ACTION_FIELD_LABELS, parse_int, tr_const

SPIN_LIMIT = 100_000
SKIPPED = frozenset({"kind"})
NONE_TEXT = "—"


def action_label(action_type: type[rules.Action]) -> str:
    """The French name of an action type: its ``title()`` with default values when it has them.

    An action whose title needs a value the user has not chosen yet gets its class name; the
    interface's label table (``ui.actions.ACTION_LABELS``) should name it.
    """
    try:
        return str(action_type.model_construct().title())
    except Exception:  # title() needs a field without default
        return action_type.__name__


def user_fields(action_type: type[rules.Action], fixed: Mapping[str, Any] | None = None) -> list[str]:
    """Fields of ``action_type`` the user fills (all but the fixed ones and the technical ones)."""
    fixed = fixed or {}
    return [n for n in action_type.model_fields if n not in SKIPPED and n not in fixed and n != "rolls"]


def _bounds(info: Any) -> tuple[int, int]:
    low, high = -SPIN_LIMIT, SPIN_LIMIT
    for meta in info.metadata:
        if getattr(meta, "ge", None) is not None:
            low = max(low, int(meta.ge))
        if getattr(meta, "gt", None) is not None:
            low = max(low, int(meta.gt) + 1)
        if getattr(meta, "le", None) is not None:
            high = min(high, int(meta.le))
        if getattr(meta, "lt", None) is not None:
            high = min(high, int(meta.lt) - 1)
    return low, high


def _parts(annotation: Any) -> tuple[Any, ...]:
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        return typing.get_args(annotation)
    return (annotation,)


class ActionForm(QDialog):
    """Asks the values of one action; ``result_action`` holds the validated action after ``accept``."""

    def __init__(
        self,
        action_type: type[rules.Action],
        info: rules.SystemInfo,
        *,
        title: str = "",
        fixed: Mapping[str, Any] | None = None,
        defaults: Mapping[str, Any] | None = None,
        intro: str = "",
        preview: Callable[[rules.Action], Sequence[rules.Chance]] | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self._type = action_type
        self._preview = preview
        self._info = info
        self._fixed = dict(fixed or {})
        self._defaults = dict(defaults or {})
        self.result_action: rules.Action | None = None
        self._editors: dict[str, QWidget] = {}
        self.setWindowTitle(title or action_label(action_type))
        layout = QVBoxLayout(self)
        if intro:
            note = QLabel(intro)
            note.setWordWrap(True)
            layout.addWidget(note)
        form = QFormLayout()
        layout.addLayout(form)
        for name in [*user_fields(action_type, self._fixed), "rolls"]:
            editor = self._editor(name)
            if editor is None:
                continue
            label = self._title(name)
            editor.setAccessibleName(label)
            editor.setObjectName(f"field_{name}")
            self._editors[name] = editor
            if isinstance(editor, QCheckBox):
                editor.setText(label)
                form.addRow("", editor)
            else:
                form.addRow(label + " :", editor)
        # The chances of the rolls the action will make, as its values change (computed by the rules).
        self.odds = QLabel()
        self.odds.setObjectName("formOdds")
        self.odds.setWordWrap(True)
        self.odds.setTextFormat(Qt.TextFormat.PlainText)
        self.odds.setAccessibleName(self.tr("Chances"))
        self.odds.hide()
        layout.addWidget(self.odds)
        if preview is not None:
            for editor in self._editors.values():
                _on_edit(editor, self.update_odds)
            self.update_odds()
        self._error = QLabel()
        self._error.setWordWrap(True)
        self._error.setStyleSheet("color: #b71c1c;")
        self._error.setAccessibleName(self.tr("Erreur"))
        self._error.hide()
        layout.addWidget(self._error)
        from PySide6.QtWidgets import QDialogButtonBox  # with the first form (issue 15: not at start-up)

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText(self.tr("Appliquer"))
        buttons.button(QDialogButtonBox.StandardButton.Cancel).setText(self.tr("Annuler"))
        guard.connect(buttons.accepted, self.accept)
        guard.connect(buttons.rejected, self.reject)
        layout.addWidget(buttons)

    def editor(self, name: str) -> QWidget | None:
        return self._editors.get(name)

    def update_odds(self, *_args: object) -> None:
        """Show the chances of the action as it stands (nothing while its values are incomplete)."""
        if self._preview is None:
            return
        values = self.values()
        chances: Sequence[rules.Chance] = ()
        if not isinstance(values, str):
            try:
                chances = self._preview(self._type(**values))
            except (ValidationError, rules.Refused):
                chances = ()
        lines = [f"{c.label} : {c.percent}" for c in chances]
        self.odds.setText("\n".join(lines))
        self.odds.setToolTip("\n\n".join(c.text for c in chances))
        self.odds.setVisible(bool(lines))

    def _title(self, name: str) -> str:
        """The system's own French title of the field, else ours, else its name."""
        info = self._type.model_fields[name]
        if info.title:
            return str(info.title)
        if name in ACTION_FIELD_LABELS:
            return tr_const(ACTION_FIELD_LABELS[name])
        return name.replace("_", " ").capitalize()

    def _default(self, name: str) -> Any:
        if name in self._defaults:
            return self._defaults[name]
        default = self._type.model_fields[name].default
        return None if default is PydanticUndefined else default

    def _choices(self, name: str, annotation: Any) -> list[tuple[Any, str]] | None:
        info = self._info
        table: Sequence[Any] | None = {
            "wound_type": info.wound_types,
            "damage_type": info.damage_types,
            "unit": info.time_units,
        }.get(name)
        if table:
            return [(c.id, c.label) for c in table]
        if name == "condition":
            return [(c.id, c.label) for c in info.conditions]
        extra = {"method": "stabilise_methods", "severity": "wound_severities", "grade": "wound_grades"}.get(name)
        if extra and extra in info.extra:
            return [(k, v) for k, v in info.extra[extra]]
        if f"{name}_choices" in info.extra:
            return [(k, v) for k, v in info.extra[f"{name}_choices"]]
        for part in _parts(annotation):
            if typing.get_origin(part) is Literal:
                return [(v, str(v)) for v in typing.get_args(part)]
        return None

    def _editor(self, name: str) -> QWidget | None:
        info = self._type.model_fields[name]
        annotation = info.annotation
        parts = _parts(annotation)
        optional = type(None) in parts
        default = self._default(name)
        if name == "rolls":
            edit = QLineEdit()
            edit.setPlaceholderText(self.tr("ex. : 4, 6, 2"))
            edit.setToolTip(self.tr("Les résultats de vos propres dés, dans l'ordre où les règles les demandent."))
            return edit
        choices = self._choices(name, annotation)
        if choices is not None:
            combo = QComboBox()
            if optional:
                combo.addItem(self.tr("(aucun)"), None)
            for value, label in choices:
                combo.addItem(label, value)
            at = combo.findData(default)
            combo.setCurrentIndex(max(at, 0))
            return combo
        if bool in parts:
            box = QCheckBox()
            box.setChecked(bool(default))
            return box
        if int in parts and str not in parts:
            spin = QSpinBox()
            low, high = _bounds(info)
            if optional:
                spin.setRange(low - 1, high)
                spin.setSpecialValueText(NONE_TEXT)
                spin.setValue(low - 1 if default is None else int(default))
            else:
                spin.setRange(low, high)
                spin.setValue(int(default) if isinstance(default, int) else max(low, 0))
            return spin
        if float in parts:
            number = QDoubleSpinBox()
            low, high = _bounds(info)
            number.setRange(max(low, -SPIN_LIMIT), high)
            number.setDecimals(1)
            number.setLocale(QLocale(QLocale.Language.French, QLocale.Country.France))
            number.setValue(float(default) if isinstance(default, (int, float)) else max(float(low), 0.0))
            return number
        if str in parts:
            edit = QLineEdit()
            edit.setText("" if default is None else str(default))
            if int in parts:
                edit.setPlaceholderText(self.tr("7 ou 2d6+3"))
            return edit
        return None  # nested data: left to its default

    def values(self) -> dict[str, Any] | str:
        """The values typed, or a French message saying what is wrong."""
        values: dict[str, Any] = dict(self._fixed)
        for name, editor in self._editors.items():
            info = self._type.model_fields[name]
            parts = _parts(info.annotation)
            if isinstance(editor, QComboBox):
                values[name] = editor.currentData()
            elif isinstance(editor, QCheckBox):
                values[name] = editor.isChecked()
            elif isinstance(editor, QDoubleSpinBox):
                values[name] = editor.value()
            elif isinstance(editor, QSpinBox):
                if editor.specialValueText() and editor.value() == editor.minimum():
                    values[name] = None
                else:
                    values[name] = editor.value()
            elif isinstance(editor, QLineEdit):
                text = editor.text().strip()
                if name == "rolls":
                    if text:
                        dice = [parse_int(t) for t in text.replace(";", ",").replace(" ", ",").split(",") if t]
                        if any(d is None for d in dice):
                            return self.tr("Dés lancés à la main : des nombres entiers séparés par des virgules.")
                        values[name] = tuple(d for d in dice if d is not None)
                    continue
                number = parse_int(text)
                if int in parts and number is not None:
                    values[name] = number
                elif text or type(None) not in parts:
                    values[name] = text
                else:
                    values[name] = None
        return values

    def accept(self) -> None:
        values = self.values()
        if isinstance(values, str):
            self._show_error(values)
            return
        try:
            self.result_action = self._type(**values)
        except ValidationError as exc:
            names = []
            for err in exc.errors(include_url=False):
                loc = err.get("loc", ())
                field = str(loc[0]) if loc else ""
                label = tr_const(ACTION_FIELD_LABELS[field]) if field in ACTION_FIELD_LABELS else field
                names.append(f"« {label} »")
            self._show_error(self.tr("Valeur refusée : {0}.").format(", ".join(dict.fromkeys(names))))
            return
        super().accept()

    def _show_error(self, text: str) -> None:
        self._error.setText(text)
        self._error.show()


def _on_edit(editor: QWidget, slot: Callable[..., None]) -> None:
    """Call ``slot`` whenever the user changes ``editor``'s value."""
    if isinstance(editor, QComboBox):
        guard.connect(editor.currentIndexChanged, slot)
    elif isinstance(editor, QCheckBox):
        guard.connect(editor.toggled, slot)
    elif isinstance(editor, QSpinBox):
        guard.connect(editor.valueChanged, slot)
    elif isinstance(editor, QLineEdit):
        guard.connect(editor.textChanged, slot)
