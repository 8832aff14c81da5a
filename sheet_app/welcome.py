"""The welcome screen: a new sheet (system, name, level, the characteristics the health rules need),
open a file, the recent files, one demo sheet per system.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont, QKeyEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QFormLayout,
    QFrame,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

import rules
from sheet_app.settings import examples_dir
from ui.common import guard
from ui.sheet.fields import nullable as _nullable


def demo_files() -> list[tuple[str, Path]]:
    """(system id, file) of the shipped demo sheets of the systems that have landed."""
    found = []
    for system_id in rules.SYSTEMS:
        path = examples_dir() / f"{system_id}.fiche.json"
        if path.exists():
            found.append((system_id, path))
    return found


class NewSheetForm(QWidget):
    """Choose a system and fill what its health rules need; ``created`` gives the new sheet."""

    created = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        top = QFormLayout()
        self.system = QComboBox()
        self.system.setObjectName("newSystem")
        self.system.setAccessibleName(self.tr("Système de règles"))
        for system_id in rules.SYSTEMS:
            self.system.addItem(rules.system_label(system_id), system_id)  # no system's rules loaded
        top.addRow(self.tr("&Système :"), self.system)
        self.name = QLineEdit()
        self.name.setObjectName("newName")
        self.name.setAccessibleName(self.tr("Nom du personnage"))
        top.addRow(self.tr("&Nom :"), self.name)
        layout.addLayout(top)
        self.fields_box = QGroupBox(self.tr("Ce que les règles de santé demandent"))
        self.form = QFormLayout(self.fields_box)
        layout.addWidget(self.fields_box)
        self.error = QLabel()
        self.error.setObjectName("newError")
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #b71c1c;")
        self.error.hide()
        layout.addWidget(self.error)
        self.create_button = QPushButton(self.tr("C&réer la fiche"))
        self.create_button.setObjectName("newCreate")
        guard.connect(self.create_button.clicked, self.submit)
        layout.addWidget(self.create_button, 0, Qt.AlignmentFlag.AlignRight)
        self._editors: dict[str, QWidget] = {}
        # The fields are built when the form is first shown or read (start-up opening a file never
        # shows it): building them loads the chosen system's rules. Entrée in any field (the name
        # included) creates the sheet: keyPressEvent below.
        self._built = False
        guard.connect(self.system.currentIndexChanged, self._rebuild)

    @property
    def editors(self) -> dict[str, QWidget]:
        """The editor of each field the chosen system's health rules need, by field name."""
        if not self._built:
            self._rebuild()
        return self._editors

    def showEvent(self, event: Any) -> None:
        if not self._built:
            self._rebuild()
        super().showEvent(event)

    def system_id(self) -> str:
        return str(self.system.currentData())

    def _rebuild(self) -> None:
        self._built = True
        while self.form.rowCount():
            self.form.removeRow(0)
        self._editors.clear()
        system_id = self.system_id()
        if not system_id or system_id == "None":
            return
        info = rules.describe(system_id)
        try:
            defaults = rules.new_sheet(system_id)
        except rules.Refused:
            defaults = None
        wanted = [f for f in info.fields if f.name == "level" or f.group in ("characteristics", "health")]
        for field in wanted:
            value = getattr(defaults, field.name, None)
            editor: QWidget
            if field.kind == "int":
                spin = QSpinBox()
                low = field.minimum if field.minimum is not None else -100_000
                high = field.maximum if field.maximum is not None else 100_000
                if defaults is not None and _nullable(defaults, field.name):
                    # An optional number (a threshold the character may not have): "—" means none.
                    spin.setRange(low - 1, high)
                    spin.setSpecialValueText(self.tr("aucun"))
                    spin.setValue(int(value) if isinstance(value, int) else low - 1)
                else:
                    spin.setRange(low, high)
                    spin.setValue(int(value) if isinstance(value, int) else max(low, 0))
                editor = spin
            elif field.kind == "bool":
                box = QCheckBox(field.label)
                box.setChecked(bool(value))
                editor = box
            elif field.kind == "choice":
                combo = QComboBox()
                for choice, label in field.choices:
                    combo.addItem(label, choice)
                combo.setCurrentIndex(max(combo.findData(value), 0))
                editor = combo
            else:
                continue
            editor.setObjectName(f"new_{field.name}")
            editor.setAccessibleName(field.label)
            if field.tooltip:
                editor.setToolTip(field.tooltip)
            if isinstance(editor, QCheckBox):
                self.form.addRow("", editor)
            else:
                self.form.addRow(field.label + " :", editor)
            self._editors[field.name] = editor
        self.fields_box.setVisible(bool(self._editors))
        self._chain_focus()

    def _chain_focus(self) -> None:
        """Tab goes Système → Nom → each field in order → Créer la fiche (issue 10 item 14); the
        fields made for another system join the chain at their place, not at its end."""
        chain: list[QWidget] = [self.system, self.name, *self._editors.values(), self.create_button]
        for before, after in itertools.pairwise(chain):
            QWidget.setTabOrder(before, after)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Entrée in any field creates the sheet (the fields let Entrée through to their form)."""
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            event.accept()
            guard.guarded(self.submit)()
            return
        super().keyPressEvent(event)

    def reset(self) -> None:
        """A blank form for the next character (same system): no name, the system's defaults."""
        self.name.clear()
        self.error.hide()
        self._rebuild()

    def values(self) -> dict[str, Any]:
        values: dict[str, Any] = {"name": self.name.text().strip()}
        for name, editor in self.editors.items():
            if isinstance(editor, QSpinBox):
                none = editor.specialValueText() and editor.value() == editor.minimum()
                values[name] = None if none else editor.value()
            elif isinstance(editor, QCheckBox):
                values[name] = editor.isChecked()
            elif isinstance(editor, QComboBox):
                values[name] = editor.currentData()
        return values

    def build(self) -> Any:
        """The new sheet, or raises ``rules.SheetError`` with French lines."""
        system_id = self.system_id()
        values = self.values()
        probe = rules.new_sheet(system_id)
        # A new character starts unhurt: its current points at the maximum it was given.
        if (
            "base_maximum" in values
            and "current" in type(probe).model_fields
            and not rules.describe(system_id).features & {"trauma"}
        ):
            values["current"] = values["base_maximum"]
        return rules.new_sheet(system_id, **values)

    def submit(self) -> None:
        try:
            sheet = self.build()
        except rules.SheetError as exc:
            self.error.setText(self.tr("Fiche refusée :") + "\n" + "\n".join(exc.lines))
            self.error.show()
            return
        except rules.Refused as exc:
            self.error.setText(exc.reason)
            self.error.show()
            return
        self.error.hide()
        self.created.emit(sheet)
        # Issue 10 item 21: the next character does not start with this one's name and values.
        self.reset()
        self.name.setFocus(Qt.FocusReason.OtherFocusReason)


class NewSheetDialog(QDialog):
    """« Nouvelle fiche » from the menu: the same form in a dialog."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Nouvelle fiche"))
        self.sheet: Any = None
        layout = QVBoxLayout(self)
        self.form = NewSheetForm()
        self.form.create_button.hide()  # the dialog's own « Créer la fiche » button creates it
        self.form.created.connect(self._created)
        layout.addWidget(self.form)
        from PySide6.QtWidgets import QDialogButtonBox  # with the first dialog (issue 15: not at start-up)

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText(self.tr("Créer la fiche"))
        buttons.button(QDialogButtonBox.StandardButton.Cancel).setText(self.tr("Annuler"))
        guard.connect(buttons.accepted, self.form.submit)
        guard.connect(buttons.rejected, self.reject)
        layout.addWidget(buttons)

    def _created(self, sheet: Any) -> None:
        self.sheet = sheet
        self.accept()


class WelcomePage(QWidget):
    """Shown when no sheet is open."""

    open_requested = Signal()
    path_chosen = Signal(object)  # Path
    demo_chosen = Signal(str)  # system id
    table_requested = Signal()  # a new, empty GM table

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("welcomePage")
        outer = QVBoxLayout(self)
        outer.setContentsMargins(40, 30, 40, 30)
        title = QLabel(self.tr("Fiche de personnage"))
        font = QFont(title.font())
        font.setPointSizeF(font.pointSizeF() + 10)
        font.setBold(True)
        title.setFont(font)
        outer.addWidget(title)
        subtitle = QLabel(
            self.tr("Points, dégâts, états, blessures, repos : la santé de vos personnages, règle par règle.")
        )
        outer.addWidget(subtitle)
        line = QFrame()
        line.setFrameShape(QFrame.Shape.HLine)
        outer.addWidget(line)
        columns = QHBoxLayout()
        outer.addLayout(columns, 1)
        new_box = QGroupBox(self.tr("Nouvelle fiche"))
        new_layout = QVBoxLayout(new_box)
        self.new_form = NewSheetForm()
        new_layout.addWidget(self.new_form)
        new_layout.addStretch(1)
        columns.addWidget(new_box, 1)
        right = QVBoxLayout()
        open_button = QPushButton(self.tr("&Ouvrir une fiche…"))
        open_button.setObjectName("welcomeOpen")
        open_button.clicked.connect(self.open_requested)
        right.addWidget(open_button)
        table_button = QPushButton(self.tr("Nouvelle &table de meneur"))
        table_button.setObjectName("welcomeNewTable")
        table_button.setToolTip(self.tr("Tous vos PNJ et monstres dans une table : dégâts groupés, tours et rounds."))
        table_button.clicked.connect(self.table_requested)
        right.addWidget(table_button)
        recent_box = QGroupBox(self.tr("Fiches récentes"))
        recent_layout = QVBoxLayout(recent_box)
        self.recent = QListWidget()
        self.recent.setObjectName("welcomeRecent")
        self.recent.setAccessibleName(self.tr("Fiches récentes"))
        guard.connect(
            self.recent.itemActivated, lambda item: self.path_chosen.emit(Path(item.data(Qt.ItemDataRole.UserRole)))
        )
        recent_layout.addWidget(self.recent)
        right.addWidget(recent_box, 1)
        demo_box = QGroupBox(self.tr("Fiches de démonstration"))
        demo_layout = QVBoxLayout(demo_box)
        for system_id, _path in demo_files():
            button = QPushButton(self.tr("Démo {0}").format(rules.system_label(system_id)))
            button.setObjectName(f"demo_{system_id}")
            guard.connect(button.clicked, lambda _=False, s=system_id: self.demo_chosen.emit(s))
            demo_layout.addWidget(button)
        right.addWidget(demo_box)
        columns.addLayout(right, 1)

    def set_recent(self, paths: list[Path]) -> None:
        self.recent.clear()
        for path in paths:
            item = QListWidgetItem(f"{path.name} — {path.parent}")
            item.setData(Qt.ItemDataRole.UserRole, str(path))
            item.setToolTip(str(path))
            if not path.exists():
                item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEnabled)
            self.recent.addItem(item)
        if not paths:
            item = QListWidgetItem(self.tr("(aucune pour l'instant)"))
            item.setFlags(Qt.ItemFlag.NoItemFlags)
            self.recent.addItem(item)
