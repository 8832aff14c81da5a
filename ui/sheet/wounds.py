"""Wounds: a table (Qt model) with type, grade, effect, care, healing, note; add, treat, remove.

The buttons come from the system's actions: every action with a ``wound_id`` acts on the selected
wound, every action with a ``wound_type`` adds one. Rows are built from the sheet's stored wounds and
the labels of the rule table; the rules decide everything else.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QEvent, QItemSelectionModel, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QGroupBox,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

import rules
from ui.common import guard, prompts
from ui.common.flow import FlowLayout
from ui.common.forms import user_fields
from ui.common.labels import adds_wound, button_label, button_tip
from ui.common.models import Row, RowsModel
from ui.common.steady import set_tip
from ui.common.texts import fmt_signed, tr_const
from ui.sheet.odds import tooltip, words
from ui.sheet.viewmodel import Changes, SheetViewModel

if TYPE_CHECKING:
    from PySide6.QtWidgets import QStyleOptionViewItem

# Columns of the wound table: name, grade, effect, care, healing, note.
HEALING = 4
LONG_COLUMNS = (2, 5)


def _labels(pairs: Any) -> dict[str, str]:
    return {str(k): str(v) for k, v in pairs or ()}


class WoundRows:
    """Display rows of the wounds: the rules' own ``wound_rows`` when the system derives them, else the
    stored wounds' fields with the labels of the system's description (nothing computed here).
    """

    def __init__(self, vm: SheetViewModel) -> None:
        self.vm = vm
        extra = vm.info.extra
        self.types = {c.id: c.label for c in vm.info.wound_types}
        self.severities = _labels(extra.get("wound_severities"))
        self.grades = _labels(extra.get("wound_grades")) or self.types
        self.parts = _labels(extra.get("body_part_choices"))
        self.treatments = _labels(extra.get("treatment_choices"))
        self.damage_types = {c.id: c.label for c in vm.info.damage_types}
        # A row is a function of its place and its wound (frozen records): kept, so that an edit builds the
        # rows of the wounds it changed, not of every wound (a fight's sheet holds dozens; issue 15).
        self._rows: dict[tuple[int, Any], Row] = {}

    def _get(self, wound: Any, name: str, default: Any = None) -> Any:
        if isinstance(wound, dict):
            return wound.get(name, default)
        return getattr(wound, name, default)

    def _name(self, wound: Any) -> str:
        label = self._get(wound, "label")
        wtype = self._get(wound, "type")
        grade = self._get(wound, "grade")
        if label:
            name = str(label)
        elif wtype:
            name = self.types.get(str(wtype), str(wtype))
        elif grade:
            name = self.grades.get(str(grade), str(grade))
        else:
            name = ""
        part = self._get(wound, "body_part")
        if part:
            part_label = self.parts.get(str(part), str(part))
            name = f"{name} ({part_label})" if name else part_label
        return name

    def _gravity(self, wound: Any) -> str:
        severity = self._get(wound, "severity")
        parts = []
        if isinstance(severity, str):
            parts.append(self.severities.get(severity, severity))
        elif isinstance(severity, int) and not isinstance(severity, bool):
            parts.append(tr_const(QT_TRANSLATE_NOOP("Constant", "Sévérité {0}")).format(severity))
        damage_type = self._get(wound, "damage_type")
        if damage_type:
            parts.append(self.damage_types.get(str(damage_type), str(damage_type)).lower())
        if self._get(wound, "psychological", False):
            parts.append(tr_const(QT_TRANSLATE_NOOP("Constant", "psychologique")))
        return ", ".join(parts)

    def _effect(self, wound: Any) -> str:
        parts = []
        limitation = self._get(wound, "limitation", "")
        if limitation:
            parts.append(str(limitation))
        handicap = self._get(wound, "handicap", "")
        if handicap:
            penalty = self._get(wound, "handicap_penalty") or self._get(wound, "penalty")
            parts.append(f"{handicap} ({fmt_signed(penalty)})" if isinstance(penalty, int) and penalty else handicap)
        if self._get(wound, "crippled", False):
            parts.append(tr_const(QT_TRANSLATE_NOOP("Constant", "membre invalide")))
        if self._get(wound, "ignored", False):
            parts.append(tr_const(QT_TRANSLATE_NOOP("Constant", "ignorée jusqu'à la fin du Conflit")))
        return " ; ".join(parts)

    def _care(self, wound: Any) -> str:
        care = []
        bleeding = self._get(wound, "bleeding", False)
        if isinstance(bleeding, str) and bleeding:
            care.append(tr_const(QT_TRANSLATE_NOOP("Constant", "saigne ({0})")).format(bleeding))
        elif bleeding is True:
            care.append(tr_const(QT_TRANSLATE_NOOP("Constant", "saigne")))
        treated = self._get(wound, "treated")
        if isinstance(treated, bool):
            care.append(
                tr_const(QT_TRANSLATE_NOOP("Constant", "traitée"))
                if treated
                else tr_const(QT_TRANSLATE_NOOP("Constant", "non traitée"))
            )
        elif (isinstance(wound, dict) and "treatment" in wound) or hasattr(wound, "treatment"):
            treatment = self._get(wound, "treatment")
            care.append(
                self.treatments.get(str(treatment), str(treatment))
                if treatment
                else tr_const(QT_TRANSLATE_NOOP("Constant", "non traitée"))
            )
        return ", ".join(care)

    def _healing(self, wound: Any) -> str:
        healing = self._get(wound, "healing")
        if healing:
            return str(healing)
        notches = self._get(wound, "notches")
        if isinstance(notches, int):
            return tr_const(QT_TRANSLATE_NOOP("Constant", "{0} cran(s) de Trauma")).format(notches)
        return ""

    def wound(self, index: int, wound: Any) -> Row:
        key = self._get(wound, "id", index + 1)
        name = self._name(wound)
        gravity = self._gravity(wound)
        effect = self._effect(wound)
        care = self._care(wound)
        healing = self._healing(wound)
        notes = [str(self._get(wound, "note", "") or ""), str(self._get(wound, "diagnosis", "") or "")]
        note = " — ".join(n for n in notes if n)
        lines = [f"{name} — {gravity}" if gravity else name]
        lines += [t for t in (effect, care, healing, note) if t]
        will = self._get(wound, "will_dd")
        if will:
            lines.append(tr_const(QT_TRANSLATE_NOOP("Constant", "Test de volonté (SAG) DD {0}")).format(will))
        colour = "#b71c1c" if self._get(wound, "bleeding", False) else ""
        return Row(key, (name, gravity, effect, care, healing, note), ("\n".join(lines),), colour)

    def scar(self, index: int, scar: Any) -> Row:
        name = self._name(scar)
        gravity = self._gravity(scar)
        note = str(self._get(scar, "note", "") or "")
        text = f"{name} ({gravity})" if gravity else name
        return Row(index, (name, gravity, note), (text + (f" — {note}" if note else ""),))

    def stored(self) -> tuple[Any, ...]:
        """The wounds as the rules describe them for display, else as stored."""
        rows = self.vm.value("wound_rows")
        if isinstance(rows, tuple):
            return rows
        return tuple(getattr(self.vm.sheet, "wounds", ()) or ())

    def rows(self) -> list[Row]:
        rows = []
        kept = self._rows
        if len(kept) > 1024:
            kept.clear()
        for i, w in enumerate(self.stored()):
            try:
                row = kept.get((i, w))
            except TypeError:  # a wound that cannot be a key (a dict): built each time
                rows.append(self.wound(i, w))
                continue
            if row is None:
                row = kept[(i, w)] = self.wound(i, w)
            rows.append(row)
        return rows

    def scar_rows(self) -> list[Row]:
        rows = self.vm.value("scar_rows")
        scars = rows if isinstance(rows, tuple) else tuple(getattr(self.vm.sheet, "scars", ()) or ())
        return [self.scar(i, s) for i, s in enumerate(scars)]


class MeasuredLabel(QLabel):
    """A word-wrapped, selectable label that measures each text once per width (issue 15).

    A selectable label lays its text out again whenever it is asked its height for a width, and asks
    for a paint each time: the column fitting its panels after any edit had the wound's details painted
    in a second pass, the text unchanged. The height is kept per (text, width) until the text, the font
    or the style changes, and measured when the text is set (painted with it, in the same pass).
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._heights: dict[int, int] = {}

    def setText(self, text: str) -> None:
        if text == self.text():
            return
        self._heights.clear()
        super().setText(text)
        if self.isVisible() and self.width() > 0:
            self.heightForWidth(self.width())

    def heightForWidth(self, width: int) -> int:
        height = self._heights.get(width)
        if height is None:
            height = self._heights[width] = super().heightForWidth(width)
        return height

    def changeEvent(self, event: QEvent) -> None:
        self._heights.clear()
        super().changeEvent(event)


class WoundsTable(QTableView):
    """The wound table, whose columns fit their contents measuring each distinct cell once (issue 15).

    Fitting a column (``resizeColumnsToContents``, then the header's own ``ResizeToContents`` pass after
    each change of the rows) asks the delegate for the size of every cell of the column, each asking the
    model for a dozen roles through Python: a fight's sheet holds dozens of wounds, and a hit that adds
    one measured them all twice. A cell's width depends only on its text and its font (bold or not) in
    this table (no icon, no check box, no size hint of its own), so the width is kept per (text, bold)
    until the view's font or style changes; the column's hint is the largest kept width, as Qt's own
    ``sizeHintForColumn`` computes it (every row, the grid's pixel added). Qt's own is used whenever the
    shortcut would not be the same: another model, hidden rows, more rows than the header measures.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._widths: dict[tuple[str, bool], int] = {}

    def sizeHintForColumn(self, column: int) -> int:
        model = self.model()
        precision = self.horizontalHeader().resizeContentsPrecision()
        if not isinstance(model, RowsModel):
            return super().sizeHintForColumn(column)
        rows = model.shown_rows()
        if (
            precision != -1 and (precision == 0 or len(rows) > precision)
        ) or self.verticalHeader().hiddenSectionCount():
            return super().sizeHintForColumn(column)
        self.ensurePolished()
        widths = self._widths
        if len(widths) > 4096:
            widths.clear()
        option: QStyleOptionViewItem | None = None
        hint = 0
        for at, row in enumerate(rows):
            key = (row.cells[column] if column < len(row.cells) else "", row.bold)
            width = widths.get(key)
            if width is None:
                if option is None:
                    # With the first wound measured: a sheet without wounds is painted without its class
                    # and those of ``QStyleOption`` (8 enum classes, issue 15).
                    from PySide6.QtWidgets import QStyleOptionViewItem

                    option = QStyleOptionViewItem()
                    self.initViewItemOption(option)
                index = model.index(at, column)
                width = widths[key] = self.itemDelegateForIndex(index).sizeHint(option, index).width()
            if width > hint:
                hint = width
        return hint + 1 if self.showGrid() else hint

    def changeEvent(self, event: QEvent) -> None:
        self._widths.clear()  # a font, a style, a palette: measured again
        super().changeEvent(event)


class WoundsPanel(QGroupBox):
    """The wound table, its buttons, and the scars."""

    def __init__(self, vm: SheetViewModel, parent: QWidget | None = None) -> None:
        super().__init__(self.tr("Blessures"), parent)
        self.vm = vm
        self.builder = WoundRows(vm)
        layout = QVBoxLayout(self)
        self.model = RowsModel(
            [
                self.tr("Blessure"),
                self.tr("Gravité"),
                self.tr("Effet"),
                self.tr("Soins"),
                self.tr("Guérison"),
                self.tr("Note"),
            ],
            self,
        )
        self.view = WoundsTable()
        self.view.setObjectName("woundsView")
        self.view.setAccessibleName(self.tr("Liste des blessures"))
        self.view.setModel(self.model)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.setWordWrap(False)
        self.view.verticalHeader().hide()
        header = self.view.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(HEALING, QHeaderView.ResizeMode.Stretch)
        header.setStretchLastSection(False)
        self.view.setTextElideMode(Qt.TextElideMode.ElideRight)
        # The long texts (effect, note) are read in full under the table, for the chosen wound.
        for column in LONG_COLUMNS:
            self.view.setColumnHidden(column, True)
        layout.addWidget(self.view, 1)
        self.details = MeasuredLabel()
        self.details.setObjectName("woundDetails")
        self.details.setWordWrap(True)
        self.details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.details.setAccessibleName(self.tr("Détails de la blessure choisie"))
        layout.addWidget(self.details)
        buttons = FlowLayout(spacing=4)
        self.add_types = [t for t in vm.info.actions if adds_wound(t, vm.info)]
        self.buttons: dict[str, QPushButton] = {}
        self._tips: dict[str, str] = {}
        for action_type in self.add_types:
            button = QPushButton(self.tr("&Ajouter une blessure…"))
            button.setToolTip(button_label(action_type, vm.info).replace("&", ""))
            button.setObjectName("woundAdd")
            button.setAutoDefault(False)
            guard.connect(button.clicked, lambda _=False, t=action_type: self.add(t))
            buttons.addWidget(button)
            self.buttons["add"] = button
        # Actions on one wound (an optional ``wound_id`` means « a wound or the whole gauge »: not here).
        self.per_wound = [
            t for t in vm.info.actions if "wound_id" in t.model_fields and t.model_fields["wound_id"].is_required()
        ]
        for action_type in self.per_wound:
            kind = _kind(action_type)
            if kind == "set_wound_bleeding":
                text = self.tr("Saig&nement")
                tip = self.tr("Ouvrir ou arrêter le saignement de la blessure choisie (bandage).")
            else:
                text, tip = button_label(action_type, vm.info), button_tip(action_type)
            button = QPushButton(text)
            button.setObjectName(f"wound_{kind}")
            button.setToolTip(tip)
            button.setAutoDefault(False)
            guard.connect(button.clicked, lambda _=False, t=action_type: self.act(t))
            buttons.addWidget(button)
            self.buttons[kind] = button
        layout.addLayout(buttons)
        self.scars_label: QLabel | None = None
        self.scar_model: RowsModel | None = None
        if vm.has("scars"):
            self.scar_model = RowsModel([self.tr("Cicatrice"), self.tr("Gravité"), self.tr("Note")], self)
            self.scars_label = QLabel()
            self.scars_label.setObjectName("scarsLabel")
            self.scars_label.setWordWrap(True)
            layout.addWidget(self.scars_label)
        guard.connect(self.view.selectionModel().selectionChanged, self._update_buttons)
        self.refresh()
        vm.changed.connect(self._on_changed)

    def selected_key(self) -> Any:
        rows = self.view.selectionModel().selectedRows()
        if not rows:
            return None
        return self.model.key_at(rows[0].row())

    def select(self, key: Any) -> None:
        row = self.model.row_of(key)
        if row >= 0:
            self.view.selectionModel().select(
                self.model.index(row, 0),
                QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows,
            )
            self.view.setCurrentIndex(self.model.index(row, 0))

    def selected_wound(self) -> Any:
        key = self.selected_key()
        for index, wound in enumerate(getattr(self.vm.sheet, "wounds", ()) or ()):
            if getattr(wound, "id", index + 1) == key:
                return wound
        return None

    def _fit_table(self) -> None:
        """As tall as its rows (two at least, seven at most; beyond, the table scrolls)."""
        rows = min(max(self.model.rowCount(), 2), 7)
        height = self.view.horizontalHeader().height() + rows * self.view.verticalHeader().defaultSectionSize()
        frame = 2 * self.view.frameWidth()
        scroll = self.view.horizontalScrollBar().sizeHint().height()
        if self.view.height() == height + frame + scroll:
            return
        self.view.setFixedHeight(height + frame + scroll)
        layout = self.layout()
        if layout is not None and self.isVisible():
            # The panel laid out now, with the edit: its request to the column is then posted before the
            # window's paint, and the column grows in the same pass. Left to the panel's own request, the
            # column's came after the paint: the window was painted twice, the first time with the taller
            # table over the panel's old height (issue 15).
            layout.activate()

    def refresh(self) -> None:
        rows = self.builder.rows()
        self.model.set_rows(rows)
        # Columns this system never fills (no grade in d20, no bleeding in Sévérité…) are hidden.
        for column in range(1, self.model.columnCount()):
            empty = bool(rows) and all(not r.cells[column] for r in rows)
            self.view.setColumnHidden(column, empty or column in LONG_COLUMNS)
        alone = all(self.view.isColumnHidden(c) for c in range(1, self.model.columnCount()))
        mode = QHeaderView.ResizeMode.Stretch if alone else QHeaderView.ResizeMode.ResizeToContents
        header = self.view.horizontalHeader()
        header.setSectionResizeMode(0, mode)
        # The columns fit their contents; a stretched column takes what the others leave (fitting it to its
        # contents too, as ``resizeColumnsToContents`` did, widened it for the header to narrow it again:
        # two resizes, and the table painted a second time in the next pass; issue 15).
        for column in range(self.model.columnCount()):
            if header.sectionResizeMode(column) != QHeaderView.ResizeMode.Stretch:
                self.view.resizeColumnToContents(column)
        self._fit_table()
        # The rows and the header's sections laid out now rather than by the view's zero timer: the table
        # is painted in the same pass as the rest of the edit (one repaint of the window, not two).
        self.view.executeDelayedItemsLayout()
        if self.model.rowCount() and self.selected_key() is None:
            self.select(self.model.key_at(self.model.rowCount() - 1))
        if self.scar_model is not None and self.scars_label is not None:
            rows = self.builder.scar_rows()
            self.scar_model.set_rows(rows)
            names = [r.tooltips[0] for r in rows]
            self.scars_label.setText(
                self.tr("Cicatrices : {0}").format(" ; ".join(names)) if names else self.tr("Cicatrices : aucune")
            )
        self._update_buttons()

    def _update_buttons(self) -> None:
        row = self.model.row_of(self.selected_key()) if self.selected_key() is not None else -1
        tip = self.model.rows()[row].tooltips[0] if row >= 0 else ""
        wound = self.selected_wound()
        # The rolls this wound may call for, with their chances (from the rules: « vm.odds »).
        key = self.selected_key()
        chances = [c for c in self.vm.odds.rolls if c.subject is not None and c.subject == key] if wound else []
        if chances:
            tip += "\n" + "\n".join(f"{c.label} : {words(c)[0]}" for c in chances)
        self.details.setText(tip)
        self.details.setVisible(bool(tip))
        for kind, button in self.buttons.items():
            if kind != "add":
                button.setEnabled(wound is not None)
                mine = [c for c in chances if c.action == kind]
                base = self._tips.setdefault(kind, button.toolTip())
                set_tip(button, base + ("\n\n" + tooltip(mine) if mine else ""))
        bleed = self.buttons.get("set_wound_bleeding")
        if bleed is not None:
            stop = wound is not None and getattr(wound, "bleeding", False)
            bleed.setText(self.tr("Arrêter le saig&nement") if stop else self.tr("Saig&nement"))

    def add(self, action_type: type[rules.Action]) -> None:
        action = prompts.ask_action(
            self, action_type, self.vm.info, title=self.tr("Nouvelle blessure"), preview=self.vm.action_odds
        )
        if action is not None and self.vm.apply(action) is not None:
            self.select(self.model.key_at(self.model.rowCount() - 1))

    def act(self, action_type: type[rules.Action]) -> None:
        wound = self.selected_wound()
        if wound is None:
            self.vm.refused.emit(self.tr("Choisissez d'abord une blessure dans la liste."))
            return
        key = self.selected_key()
        fixed: dict[str, Any] = {"wound_id": key}
        if _kind(action_type) == "set_wound_bleeding":
            fixed["bleeding"] = not getattr(wound, "bleeding", False)
        if user_fields(action_type, fixed):
            action = prompts.ask_action(self, action_type, self.vm.info, fixed=fixed, preview=self.vm.action_odds)
        else:
            action = action_type(**fixed)
        if action is not None:
            self.vm.apply(action)
            self.select(key)

    def _on_changed(self, changes: Changes) -> None:
        if (
            changes.everything
            or changes.fields & {"wounds", "scars"}
            or any(n.startswith("wound") for n in changes.derived)
        ):
            self.refresh()
        elif changes.fields or changes.derived:
            self._update_buttons()  # the chances of the wound's rolls follow exhaustion, characteristics…


def _kind(action_type: type[rules.Action]) -> str:
    field = action_type.model_fields.get("kind")
    return str(field.default) if field is not None else action_type.__name__
