"""The table's dialogs: adding creatures, one bulk action with a factor per creature, rolling initiative.

They collect what the GM chooses and nothing else: the view-model applies it through the rules. Every
dialog is shown through ``run_dialog`` (tests replace it and drive the real dialog with keys and clicks).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QSpinBox,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

import rules
from rules import table as rtable
from ui.common import guard
from ui.common.texts import tr_const
from ui.table.viewmodel import MAX_BATCH, BulkRequest, TableViewModel

AnyIndex = QModelIndex | QPersistentModelIndex
# Reads a sheet file: (sheet, journal), or raises ``ValueError`` with a French message.
SheetLoader = Callable[[Path], tuple[Any, Sequence[str]]]

FACTOR_TEXTS = {
    "full": QT_TRANSLATE_NOOP("Constant", "Entier"),
    "half": QT_TRANSLATE_NOOP("Constant", "Moitié"),
    "double": QT_TRANSLATE_NOOP("Constant", "Double"),
    "none": QT_TRANSLATE_NOOP("Constant", "Aucun"),
}


def run_dialog(dialog: QDialog) -> bool:
    """Show ``dialog`` modally; True when accepted (tests replace this to drive the dialog)."""
    return dialog.exec() == QDialog.DialogCode.Accepted


def _error_label() -> QLabel:
    label = QLabel()
    label.setObjectName("dialogError")
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setStyleSheet("color: #b71c1c;")
    label.hide()
    return label


def _buttons(dialog: QDialog, ok: str) -> QDialogButtonBox:
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
    buttons.button(QDialogButtonBox.StandardButton.Ok).setText(ok)
    buttons.button(QDialogButtonBox.StandardButton.Cancel).setText(dialog.tr("Annuler"))
    guard.connect(buttons.rejected, dialog.reject)
    return buttons


# --------------------------------------------------------------------------------------------------
# Adding creatures
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AddRequest:
    template: Any
    count: int = 1
    name: str = ""
    numbered: bool = False
    maximum: str = ""
    npc: bool | None = None
    journal: tuple[str, ...] = ()


class AddCreaturesDialog(QDialog):
    """From a blank sheet, a demo sheet, a creature of the table, or a sheet file; ×N, numbered, each
    maximum rolled from dice."""

    def __init__(
        self,
        vm: TableViewModel,
        current: int | None = None,
        loader: SheetLoader | None = None,
        opened: Sequence[tuple[str, Any, Sequence[str]]] = (),
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Ajouter des créatures"))
        self.vm = vm
        self.loader = loader
        self.opened = list(opened)
        self.result_request: AddRequest | None = None
        layout = QVBoxLayout(self)
        form = QFormLayout()
        self.source = QComboBox()
        self.source.setObjectName("addSource")
        self.source.addItem(self.tr("Une fiche vierge"), "blank")
        self.source.addItem(self.tr("Une fiche de démonstration"), "demo")
        if vm.creatures:
            self.source.addItem(self.tr("Une créature de la table (modèle)"), "row")
        if self.opened:
            self.source.addItem(self.tr("Une fiche ouverte dans un onglet"), "open")
        if loader is not None:
            self.source.addItem(self.tr("Un fichier de fiche"), "file")
        form.addRow(self.tr("&Depuis :"), self.source)
        self.open_sheet = QComboBox()
        self.open_sheet.setObjectName("addOpenSheet")
        for name, _sheet, _journal in self.opened:
            self.open_sheet.addItem(name)
        form.addRow(self.tr("F&iche :"), self.open_sheet)
        self.system = QComboBox()
        self.system.setObjectName("addSystem")
        for system_id in rules.SYSTEMS:
            self.system.addItem(vm.info(system_id).label, system_id)
        form.addRow(self.tr("&Système :"), self.system)
        self.row = QComboBox()
        self.row.setObjectName("addRow")
        for creature in vm.creatures:
            self.row.addItem(creature.name or self.tr("(sans nom)"), creature.id)
        if current is not None:
            self.row.setCurrentIndex(max(0, self.row.findData(current)))
        form.addRow(self.tr("&Modèle :"), self.row)
        file_row = QHBoxLayout()
        self.path = QLineEdit()
        self.path.setObjectName("addPath")
        self.path.setPlaceholderText(self.tr("chemin d'une fiche .fiche.json"))
        browse = QPushButton(self.tr("&Parcourir…"))
        browse.setObjectName("addBrowse")
        guard.connect(browse.clicked, self._browse)
        file_row.addWidget(self.path, 1)
        file_row.addWidget(browse)
        self.file_box = QWidget()
        self.file_box.setLayout(file_row)
        file_row.setContentsMargins(0, 0, 0, 0)
        form.addRow(self.tr("&Fichier :"), self.file_box)
        self.name = QLineEdit()
        self.name.setObjectName("addName")
        self.name.setMaxLength(200)
        form.addRow(self.tr("&Nom :"), self.name)
        self.count = QSpinBox()
        self.count.setObjectName("addCount")
        self.count.setRange(1, MAX_BATCH)
        self.count.setPrefix("× ")
        form.addRow(self.tr("&Combien :"), self.count)
        self.numbered = QCheckBox(self.tr("Numéroter (« Loup 1 », « Loup 2 »…)"))
        self.numbered.setObjectName("addNumbered")
        form.addRow("", self.numbered)
        self.npc = QCheckBox(self.tr("PNJ ou monstre"))
        self.npc.setObjectName("addNpc")
        self.npc.setChecked(True)
        form.addRow("", self.npc)
        self.roll_maximum = QCheckBox(self.tr("Tirer le maximum de chacun aux dés :"))
        self.roll_maximum.setObjectName("addRollMaximum")
        self.maximum = QLineEdit("2d8+4")
        self.maximum.setObjectName("addMaximum")
        self.maximum.setMaxLength(80)
        self.maximum.setToolTip(self.tr("Une expression de dés (2d8+4) ou un nombre ; le jet est noté au journal."))
        form.addRow(self.roll_maximum, self.maximum)
        layout.addLayout(form)
        self.error = _error_label()
        layout.addWidget(self.error)
        buttons = _buttons(self, self.tr("Ajouter"))
        guard.connect(buttons.accepted, self._accept)
        layout.addWidget(buttons)
        self.form = form
        guard.connect(self.source.currentIndexChanged, self._follow)
        guard.connect(self.system.currentIndexChanged, self._follow)
        guard.connect(self.row.currentIndexChanged, self._follow)
        guard.connect(self.open_sheet.currentIndexChanged, self._follow)
        guard.connect(self.path.editingFinished, self._follow)
        guard.connect(self.count.valueChanged, lambda n: self.numbered.setChecked(n > 1))
        guard.connect(self.roll_maximum.toggled, self.maximum.setEnabled)
        self.maximum.setEnabled(False)
        if current is not None and vm.creatures:
            self.source.setCurrentIndex(self.source.findData("row"))
        self._follow()

    def source_kind(self) -> str:
        return str(self.source.currentData())

    def _follow(self) -> None:
        kind = self.source_kind()
        for widget, shown in (
            (self.system, kind in ("blank", "demo")),
            (self.row, kind == "row"),
            (self.open_sheet, kind == "open"),
            (self.file_box, kind == "file"),
        ):
            self.form.setRowVisible(widget, shown)
        template = self._template_or_none()
        if template is not None:
            if not self.name.isModified():
                # The name follows the template until the GM types one.
                self.name.setText(template.name)
            can_roll = rtable.has_rolled_maximum(template.system)
            self.roll_maximum.setEnabled(can_roll)
            if not can_roll:
                self.roll_maximum.setChecked(False)

    def _browse(self) -> None:
        from ui.common import prompts

        paths = prompts.open_paths(self, prompts.documents_folder())
        if paths:
            self.path.setText(str(paths[0]))

    def _template_or_none(self) -> Any:
        try:
            return self.template()[0]
        except (ValueError, rules.Refused):
            return None

    def template(self) -> tuple[Any, tuple[str, ...]]:
        """The chosen template sheet and the journal it brings (a file's); ``ValueError`` in French."""
        kind = self.source_kind()
        if kind == "blank":
            return rules.new_sheet(str(self.system.currentData())), ()
        if kind == "demo":
            return rules.demo_sheet(str(self.system.currentData())), ()
        if kind == "row":
            creature = self.vm.creature(int(self.row.currentData()))
            if creature is None:
                raise ValueError(self.tr("Choisissez la créature qui sert de modèle."))
            return creature.sheet, ()
        if kind == "open":
            _name, sheet, journal = self.opened[self.open_sheet.currentIndex()]
            return sheet, tuple(journal)
        text = self.path.text().strip()
        if not text or self.loader is None:
            raise ValueError(self.tr("Choisissez le fichier de la fiche."))
        sheet, journal = self.loader(Path(text))
        return sheet, tuple(journal)

    def _accept(self) -> None:
        try:
            template, journal = self.template()
        except (ValueError, rules.Refused) as exc:
            self.error.setText(str(exc.reason if isinstance(exc, rules.Refused) else exc))
            self.error.show()
            return
        maximum = self.maximum.text().strip() if self.roll_maximum.isChecked() else ""
        if self.roll_maximum.isChecked() and not maximum:
            self.error.setText(self.tr("Entrez les dés du maximum (2d8+4), ou décochez la case."))
            self.error.show()
            return
        self.result_request = AddRequest(
            template=template,
            count=self.count.value(),
            name=self.name.text().strip() if self.name.isModified() else template.name,
            numbered=self.numbered.isChecked(),
            maximum=maximum,
            npc=self.npc.isChecked(),
            # One sheet brought in whole keeps its journal (a PC joining the table); copies start afresh.
            journal=journal if self.source_kind() in ("file", "open") and self.count.value() == 1 else (),
        )
        self.accept()


def ask_add(
    parent: QWidget | None,
    vm: TableViewModel,
    current: int | None = None,
    loader: SheetLoader | None = None,
    opened: Sequence[tuple[str, Any, Sequence[str]]] = (),
) -> AddRequest | None:
    dialog = AddCreaturesDialog(vm, current, loader, opened, parent)
    try:
        return dialog.result_request if run_dialog(dialog) else None
    finally:
        dialog.deleteLater()


# --------------------------------------------------------------------------------------------------
# One action on the selection
# --------------------------------------------------------------------------------------------------


class FactorDelegate(QStyledItemDelegate):
    """A factor cell edited with a list: entier, moitié, double, aucun."""

    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem, index: AnyIndex) -> QWidget:
        combo = QComboBox(parent)
        for factor, text in FACTOR_TEXTS.items():
            combo.addItem(tr_const(text), factor)
        return combo

    def setEditorData(self, editor: QWidget, index: AnyIndex) -> None:
        assert isinstance(editor, QComboBox)
        editor.setCurrentIndex(max(0, editor.findData(index.data(Qt.ItemDataRole.UserRole))))

    def setModelData(self, editor: QWidget, model: Any, index: AnyIndex) -> None:
        assert isinstance(editor, QComboBox)
        factor = editor.currentData()
        model.setData(index, factor, Qt.ItemDataRole.UserRole)
        model.setData(index, editor.currentText(), Qt.ItemDataRole.DisplayRole)


class BulkDialog(QDialog):
    """Damage, healing, temporary points, nonlethal damage or a condition for every selected creature:
    the amount or dice, rolled once for all or once each, a factor per creature (a save, a resistance)."""

    KINDS = (
        ("damage", QT_TRANSLATE_NOOP("Constant", "Dégâts")),
        ("nonlethal", QT_TRANSLATE_NOOP("Constant", "Dégâts non létaux")),
        ("heal", QT_TRANSLATE_NOOP("Constant", "Soins")),
        ("temporary", QT_TRANSLATE_NOOP("Constant", "Points temporaires")),
        ("condition_on", QT_TRANSLATE_NOOP("Constant", "Ajouter un état")),
        ("condition_off", QT_TRANSLATE_NOOP("Constant", "Retirer un état")),
    )

    def __init__(
        self, vm: TableViewModel, ids: Sequence[int], kind: str = "damage", parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Action sur la sélection"))
        self.vm = vm
        self.ids = [c.id for c in vm.creatures if c.id in set(ids)]
        self.result_request: BulkRequest | None = None
        systems = vm.systems(self.ids)
        features = set().union(*(vm.info(s).features for s in systems)) if systems else set()
        layout = QVBoxLayout(self)
        intro = QLabel(self.tr("{0} créature(s) ; les règles de chacune s'appliquent.").format(len(self.ids)))
        intro.setObjectName("bulkIntro")
        layout.addWidget(intro)
        form = QFormLayout()
        self.kind = QComboBox()
        self.kind.setObjectName("bulkKind")
        for value, text in self.KINDS:
            if value == "nonlethal" and "nonlethal" not in features:
                continue
            if value == "temporary" and "temporary" not in features:
                continue
            self.kind.addItem(tr_const(text), value)
        self.kind.setCurrentIndex(max(0, self.kind.findData(kind)))
        form.addRow(self.tr("&Action :"), self.kind)
        self.amount = QLineEdit()
        self.amount.setObjectName("bulkAmount")
        self.amount.setPlaceholderText(self.tr("7 ou 2d6+3"))
        self.amount.setMaxLength(80)
        self.amount.setAccessibleName(self.tr("Montant : un nombre ou des dés"))
        form.addRow(self.tr("&Montant :"), self.amount)
        roll_row = QHBoxLayout()
        self.once = QRadioButton(self.tr("Lancer &une fois pour tous"))
        self.once.setObjectName("bulkOnce")
        self.each = QRadioButton(self.tr("Lancer pour &chacun"))
        self.each.setObjectName("bulkEach")
        self.once.setChecked(True)
        group = QButtonGroup(self)
        group.addButton(self.once)
        group.addButton(self.each)
        roll_row.addWidget(self.once)
        roll_row.addWidget(self.each)
        roll_row.addStretch(1)
        self.roll_box = QWidget()
        self.roll_box.setLayout(roll_row)
        roll_row.setContentsMargins(0, 0, 0, 0)
        form.addRow(self.tr("Dés :"), self.roll_box)
        self.condition = QComboBox()
        self.condition.setObjectName("bulkCondition")
        seen: set[str] = set()
        for system_id in systems:
            for condition in vm.info(system_id).conditions:
                if condition.id not in seen:
                    seen.add(condition.id)
                    self.condition.addItem(condition.label, condition.id)
        form.addRow(self.tr("É&tat :"), self.condition)
        self.replace = QCheckBox(self.tr("Remplacer les points temporaires actuels (ils ne se cumulent jamais)"))
        self.replace.setObjectName("bulkReplace")
        form.addRow("", self.replace)
        layout.addLayout(form)
        self.form = form

        self.list = QTableWidget(len(self.ids), 2)
        self.list.setObjectName("bulkList")
        self.list.setHorizontalHeaderLabels([self.tr("Créature"), self.tr("Facteur")])
        self.list.verticalHeader().hide()
        self.list.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.list.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked
            | QAbstractItemView.EditTrigger.SelectedClicked
            | QAbstractItemView.EditTrigger.EditKeyPressed
        )
        self.list.setItemDelegateForColumn(1, FactorDelegate(self.list))
        self.list.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for row, cid in enumerate(self.ids):
            creature = vm.creature(cid)
            name = QTableWidgetItem(creature.name if creature is not None else "")
            name.setFlags(name.flags() & ~Qt.ItemFlag.ItemIsEditable)
            name.setData(Qt.ItemDataRole.UserRole, cid)
            self.list.setItem(row, 0, name)
            factor = QTableWidgetItem(tr_const(FACTOR_TEXTS["full"]))
            factor.setData(Qt.ItemDataRole.UserRole, "full")
            self.list.setItem(row, 1, factor)
        layout.addWidget(self.list, 1)
        factor_row = QHBoxLayout()
        factor_row.addWidget(QLabel(self.tr("Facteur des lignes choisies :")))
        self.factor_buttons: dict[str, QPushButton] = {}
        for factor, text in FACTOR_TEXTS.items():
            button = QPushButton(tr_const(text))
            button.setObjectName(f"bulkFactor_{factor}")
            button.setAutoDefault(False)
            button.setToolTip(self.tr("Pour les lignes choisies dans la liste (toutes si aucune n'est choisie)."))
            guard.connect(button.clicked, lambda _=False, f=factor: self.set_factor(f))
            factor_row.addWidget(button)
            self.factor_buttons[factor] = button
        factor_row.addStretch(1)
        layout.addLayout(factor_row)
        self.error = _error_label()
        layout.addWidget(self.error)
        buttons = _buttons(self, self.tr("Appliquer"))
        guard.connect(buttons.accepted, self._accept)
        layout.addWidget(buttons)
        guard.connect(self.kind.currentIndexChanged, self._follow)
        self._follow()
        self.resize(520, min(640, 300 + 26 * len(self.ids)))
        self.amount.setFocus()

    def kind_value(self) -> str:
        return str(self.kind.currentData())

    def _follow(self) -> None:
        kind = self.kind_value()
        is_condition = kind.startswith("condition")
        self.form.setRowVisible(self.amount, not is_condition)
        self.form.setRowVisible(self.roll_box, not is_condition)
        self.form.setRowVisible(self.condition, is_condition)
        self.form.setRowVisible(self.replace, kind == "temporary")

    def factor_of(self, row: int) -> str:
        item = self.list.item(row, 1)
        return str(item.data(Qt.ItemDataRole.UserRole)) if item is not None else "full"

    def set_factor(self, factor: str) -> None:
        rows = sorted({i.row() for i in self.list.selectionModel().selectedRows()}) or list(range(self.list.rowCount()))
        for row in rows:
            item = self.list.item(row, 1)
            if item is not None:
                item.setData(Qt.ItemDataRole.UserRole, factor)
                item.setText(tr_const(FACTOR_TEXTS[factor]))

    def request(self) -> BulkRequest:
        factors = {cid: self.factor_of(row) for row, cid in enumerate(self.ids) if self.factor_of(row) != "full"}
        return BulkRequest(
            kind=self.kind_value(),
            amount=self.amount.text().strip(),
            once=self.once.isChecked(),
            factors=factors,
            condition=str(self.condition.currentData() or ""),
            replace_temporary=self.replace.isChecked(),
        )

    def _accept(self) -> None:
        request = self.request()
        if not request.kind.startswith("condition") and not request.amount:
            self.error.setText(self.tr("Entrez un montant : un nombre (7) ou des dés (2d6+3)."))
            self.error.show()
            self.amount.setFocus()
            return
        if request.kind.startswith("condition") and not request.condition:
            self.error.setText(self.tr("Aucun état à choisir pour ces créatures."))
            self.error.show()
            return
        self.result_request = request
        self.accept()


def ask_bulk(
    parent: QWidget | None, vm: TableViewModel, ids: Sequence[int], kind: str = "damage"
) -> BulkRequest | None:
    dialog = BulkDialog(vm, ids, kind, parent)
    try:
        return dialog.result_request if run_dialog(dialog) else None
    finally:
        dialog.deleteLater()


# --------------------------------------------------------------------------------------------------
# Initiative
# --------------------------------------------------------------------------------------------------


class InitiativeDialog(QDialog):
    """Roll an initiative for the selected creatures or the whole table."""

    def __init__(self, selected: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Lancer l'initiative"))
        self.result_value: tuple[str, bool] | None = None
        layout = QVBoxLayout(self)
        form = QFormLayout()
        self.expression = QLineEdit("1d20")
        self.expression.setObjectName("initiativeExpression")
        self.expression.setMaxLength(80)
        form.addRow(self.tr("&Dés :"), self.expression)
        self.selection = QRadioButton(self.tr("Les créatures sélectionnées ({0})").format(selected))
        self.selection.setObjectName("initiativeSelection")
        self.everyone = QRadioButton(self.tr("Toute la table"))
        self.everyone.setObjectName("initiativeEveryone")
        (self.selection if selected else self.everyone).setChecked(True)
        self.selection.setEnabled(selected > 0)
        form.addRow(self.tr("Pour :"), self.selection)
        form.addRow("", self.everyone)
        layout.addLayout(form)
        self.error = _error_label()
        layout.addWidget(self.error)
        buttons = _buttons(self, self.tr("Lancer"))
        guard.connect(buttons.accepted, self._accept)
        layout.addWidget(buttons)

    def _accept(self) -> None:
        text = self.expression.text().strip()
        if not text:
            self.error.setText(self.tr("Entrez les dés de l'initiative (1d20+2)."))
            self.error.show()
            return
        self.result_value = (text, self.everyone.isChecked())
        self.accept()


def ask_initiative(parent: QWidget | None, selected: int) -> tuple[str, bool] | None:
    dialog = InitiativeDialog(selected, parent)
    try:
        return dialog.result_value if run_dialog(dialog) else None
    finally:
        dialog.deleteLater()
