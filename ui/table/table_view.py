"""The GM table: one row per creature, the fight's round and turn, a quick entry for the selection,
bulk actions, filters, the journal. A tab of the main window, like a sheet.

Keyboard first: arrows and Maj/Ctrl select; typing an amount sends it to the quick entry, Entrée deals
it as damage to the selection, Maj+Entrée heals; Ctrl+Espace is « Tour suivant ». Every action is a
``QAction`` with its shortcut (``table_actions``), so the window's « Table » menu shows them all.
The widgets compute no rule: they show the view-model's rows and send it what the GM asks.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import QEvent, QItemSelectionModel, QModelIndex, Qt, Signal
from PySide6.QtGui import QAction, QKeyEvent, QKeySequence, QPaintEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListView,
    QMenu,
    QPushButton,
    QSizePolicy,
    QSplitter,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

import rules
from ui.common import guard
from ui.common.amount import AmountField
from ui.common.house_rules import HouseRulesBanner
from ui.common.journal import SHOWN_ENTRIES, JournalDelegate
from ui.common.messages import MessageBar
from ui.common.models import JournalModel
from ui.common.undo_keys import pass_undo_when_unmodified
from ui.table import dialogs
from ui.table.delegates import PaintPass, PointsDelegate, StateDelegate, TextDelegate
from ui.table.model import (
    CONDITIONS,
    HEADERS,
    INITIATIVE,
    NAME,
    NOTE,
    PLAYER_COLUMNS,
    POINTS,
    STATE,
    SYSTEM,
    TURN,
    WOUNDS,
    IdRole,
    TableModel,
)
from ui.table.state import TableState
from ui.table.viewmodel import BulkRequest, TableChanges, TableViewModel

COLUMN_WIDTHS = {TURN: 40, NAME: 150, SYSTEM: 80, STATE: 175, POINTS: 220, CONDITIONS: 170, WOUNDS: 150, INITIATIVE: 50}
JOURNAL_LIMIT = SHOWN_ENTRIES
AMOUNT_START = set("0123456789+-−")
# Columns whose cells repeat from row to row, drawn once per look and then copied (``TextDelegate``);
# the names, one per row, are drawn by Qt from the model's roles.
TEXT_COLUMNS = (TURN, SYSTEM, CONDITIONS, WOUNDS, INITIATIVE, NOTE)
# What makes every kept drawing of the rows out of date.
_RESTYLED = frozenset(
    {
        QEvent.Type.FontChange,
        QEvent.Type.PaletteChange,
        QEvent.Type.StyleChange,
        QEvent.Type.LayoutDirectionChange,
        QEvent.Type.LocaleChange,
    }
)


class TableGrid(QTableView):
    """The rows: typing a number starts the quick entry, Suppr removes, Entrée opens the sheet."""

    typed = Signal(str)
    openRequested = Signal()
    removeRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # What the cells of one repaint share, for the delegates bound to it (``PaintPass``).
        self.paint_pass = PaintPass()

    def paintEvent(self, event: QPaintEvent) -> None:
        paint_pass = self.paint_pass
        paint_pass.ratio = self.viewport().devicePixelRatioF()
        paint_pass.alternating = self.alternatingRowColors()
        try:
            super().paintEvent(event)
        finally:
            paint_pass.ratio = None

    def changeEvent(self, event: QEvent) -> None:
        if event.type() in _RESTYLED:
            for column in range(self.model().columnCount() if self.model() is not None else 0):
                forget = getattr(self.itemDelegateForColumn(column), "forget", None)
                if forget is not None:
                    forget()
        super().changeEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if self.state() == QAbstractItemView.State.EditingState:
            super().keyPressEvent(event)
            return
        text = event.text()
        mods = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        if (
            text
            and text[0] in AMOUNT_START
            and mods in (Qt.KeyboardModifier.NoModifier, Qt.KeyboardModifier.ShiftModifier)
        ):
            self.typed.emit(text)
            event.accept()
            return
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and not mods:
            self.openRequested.emit()
            event.accept()
            return
        if event.key() == Qt.Key.Key_Delete and not mods:
            self.removeRequested.emit()
            event.accept()
            return
        super().keyPressEvent(event)


class TableView(QWidget):
    """One GM table (a tab of the main window)."""

    titleChanged = Signal()  # the title or the saved state changed: the tab's title must follow
    openRequested = Signal(int)  # a creature's full sheet is asked for (its id)

    def __init__(
        self,
        vm: TableViewModel | None = None,
        *,
        state: TableState | None = None,
        rng: random.Random | None = None,
        loader: dialogs.SheetLoader | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.vm = vm if vm is not None else TableViewModel(state, rng=rng, parent=self)
        self.loader = loader
        # Set by the window: save a creature as a sheet file of its own; the sheets open in other tabs.
        self.exporter: Callable[[Any, tuple[str, ...]], bool] | None = None
        self.open_sheets: Callable[[], list[tuple[str, Any, tuple[str, ...]]]] | None = None
        self.setObjectName("gmTable")
        self.player_window: PlayerWindow | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)

        top = QHBoxLayout()
        self.title = QLineEdit(self.vm.state.title)
        self.title.setObjectName("tableTitle")
        self.title.setPlaceholderText(self.tr("Titre de la table (séance, rencontre…)"))
        self.title.setMaxLength(200)
        self.title.setMaximumWidth(320)
        guard.connect(self.title.editingFinished, lambda: self.vm.set_title(self.title.text()))
        pass_undo_when_unmodified(self.title)
        top.addWidget(self.title)
        self.turn_label = QLabel()
        self.turn_label.setObjectName("turnLabel")
        self.turn_label.setMinimumWidth(260)
        self.turn_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        font = self.turn_label.font()
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() + 1)
        self.turn_label.setFont(font)
        top.addWidget(self.turn_label, 1)
        layout.addLayout(top)

        self.messages = MessageBar()
        layout.addWidget(self.messages)
        # « Règles maison : … » when some of the table's systems play by a GM's house rules (issue 18).
        self.house_banner = HouseRulesBanner()
        self.house_banner.show_rules(self.vm.state.house)
        layout.addWidget(self.house_banner)

        self._build_actions()
        buttons = QHBoxLayout()
        for action in (self.act_next_turn, self.act_next_round, self.act_add, self.act_bulk):
            buttons.addWidget(self._button(action))
        self.time_button = QToolButton()
        self.time_button.setObjectName("timeButton")
        self.time_button.setText(self.tr("Te&mps"))
        self.time_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.time_menu = QMenu(self.time_button)
        for action in (self.act_minute, self.act_hour, self.act_day, self.act_end_conflict, self.act_end_fight):
            self.time_menu.addAction(action)
        self.time_button.setMenu(self.time_menu)
        buttons.addWidget(self.time_button)
        self.rest_button = QToolButton()
        self.rest_button.setObjectName("restButton")
        self.rest_button.setText(self.tr("Re&pos"))
        self.rest_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.rest_menu = QMenu(self.tr("Re&pos de la sélection"), self.rest_button)
        self.rest_menu.aboutToShow.connect(self.refresh_rest_menu)
        self.rest_button.setMenu(self.rest_menu)
        buttons.addWidget(self.rest_button)
        buttons.addStretch(1)
        buttons.addWidget(self._button(self.act_players))
        layout.addLayout(buttons)

        entry = QHBoxLayout()
        self.amount = AmountField()
        self.amount.setObjectName("tableAmount")
        self.amount.setPlaceholderText(self.tr("7 ou 2d6+3 : Entrée dégâts, Maj+Entrée soins"))
        self.amount.setAccessibleName(self.tr("Montant pour la sélection : un nombre ou des dés"))
        self.amount.setMinimumWidth(230)
        self.amount.submitted.connect(self._on_submitted)
        self._mode = "damage"
        self.amount.escaped.connect(lambda: self.grid.setFocus(Qt.FocusReason.ShortcutFocusReason))
        pass_undo_when_unmodified(self.amount)
        entry.addWidget(self.amount)
        self.damage_button = QPushButton(self.tr("&Dégâts"))
        self.damage_button.setObjectName("tableDamage")
        guard.connect(self.damage_button.clicked, lambda: self.submit_amount("damage"))
        self.heal_button = QPushButton(self.tr("&Soins"))
        self.heal_button.setObjectName("tableHeal")
        guard.connect(self.heal_button.clicked, lambda: self.submit_amount("heal"))
        for button in (self.damage_button, self.heal_button):
            button.setAutoDefault(False)
            entry.addWidget(button)
        entry.addSpacing(16)
        self.filter_name = QLineEdit()
        self.filter_name.setObjectName("filterName")
        self.filter_name.setPlaceholderText(self.tr("Filtrer par nom"))
        self.filter_name.setClearButtonEnabled(True)
        self.filter_name.setMaximumWidth(180)
        entry.addWidget(self.filter_name)
        self.filter_state = QComboBox()
        self.filter_state.setObjectName("filterState")
        self.filter_state.setAccessibleName(self.tr("Filtrer par état"))
        entry.addWidget(self.filter_state)
        self.living_only = QCheckBox(self.tr("Seulement les viva&nts"))
        self.living_only.setObjectName("livingOnly")
        entry.addWidget(self.living_only)
        entry.addStretch(1)
        layout.addLayout(entry)

        self.model = TableModel(self.vm, parent=self)
        # The model sorts and filters itself: the rows as shown (kept under this name for readers).
        self.proxy = self.model
        self.grid = TableGrid()
        self.grid.setObjectName("tableGrid")
        self.grid.setModel(self.model)
        self.grid.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.grid.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.grid.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked | QAbstractItemView.EditTrigger.EditKeyPressed
        )
        self.grid.setWordWrap(False)
        # Turn order from the start: one sort when sorting is switched on, not two.
        self.grid.horizontalHeader().setSortIndicator(INITIATIVE, Qt.SortOrder.DescendingOrder)
        self.grid.setSortingEnabled(True)
        self.grid.setAlternatingRowColors(True)
        self.grid.verticalHeader().hide()
        self.grid.verticalHeader().setDefaultSectionSize(28)
        self.grid.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        header = self.grid.horizontalHeader()
        header.setStretchLastSection(True)
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        # A header asks, at each of its repaints, whether every row of its columns is selected (to
        # draw them highlighted): with a thousand rows selected, ten thousand questions. The header
        # gets a selection of its own, always empty, and does not highlight.
        header.setHighlightSections(False)
        self._header_selection = QItemSelectionModel(self.model, self)
        header.setSelectionModel(self._header_selection)
        for column, width in COLUMN_WIDTHS.items():
            header.resizeSection(column, width)
        # The delegates ask the model and the grid's paint pass directly (``bind``), not through Qt.
        for column, delegate in ((POINTS, PointsDelegate(self.grid)), (STATE, StateDelegate(self.grid))):
            delegate.bind(self.model, self.grid.paint_pass)
            self.grid.setItemDelegateForColumn(column, delegate)
        self.text_delegate = TextDelegate(self.grid)
        self.text_delegate.bind(self.model, self.grid.paint_pass)
        for column in TEXT_COLUMNS:
            self.grid.setItemDelegateForColumn(column, self.text_delegate)
        self.grid.setAccessibleName(self.tr("Créatures de la table"))
        self.grid.typed.connect(self.start_amount)
        self.grid.openRequested.connect(self.open_current)
        self.grid.removeRequested.connect(self.remove_selected)
        guard.connect(self.grid.doubleClicked, self._on_double_clicked)
        guard.connect(self.grid.selectionModel().selectionChanged, lambda *_: self._on_selection())

        self.journal_box = QWidget()
        journal_layout = QVBoxLayout(self.journal_box)
        journal_layout.setContentsMargins(0, 0, 0, 0)
        self.journal_scope = QComboBox()
        self.journal_scope.setObjectName("journalScope")
        self.journal_scope.addItem(self.tr("Journal de la table"), "table")
        self.journal_scope.addItem(self.tr("Journal de la créature choisie"), "creature")
        journal_layout.addWidget(self.journal_scope)
        self.journal_model = JournalModel(self)
        self.journal = QListView()
        self.journal.setObjectName("tableJournal")
        self.journal.setModel(self.journal_model)
        # The sheet's journal drawing: bold titles, dice in grey, heights kept per entry.
        self.journal.setItemDelegate(JournalDelegate(self.journal))
        self.journal.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.journal.setWordWrap(True)
        self.journal.setAlternatingRowColors(True)
        self.journal.setAccessibleName(self.tr("Journal"))
        journal_layout.addWidget(self.journal, 1)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(self.grid)
        self.splitter.addWidget(self.journal_box)
        self.splitter.setStretchFactor(0, 4)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([1080, 280])
        layout.addWidget(self.splitter, 1)

        guard.connect(self.filter_name.textChanged, self.model.set_name_filter)
        guard.connect(
            self.filter_state.currentIndexChanged,
            lambda _i: self.model.set_state_filter(str(self.filter_state.currentData() or "")),
        )
        guard.connect(self.living_only.toggled, self.model.set_living_only)
        guard.connect(self.journal_scope.currentIndexChanged, lambda _i: self.refresh_journal())

        vm = self.vm
        vm.refused.connect(self._on_refused)
        vm.reported.connect(self._on_reported)
        vm.changed.connect(self._on_changed)
        vm.gmViewChanged.connect(self._on_view_mode)
        vm.undo_stack.cleanChanged.connect(self._on_clean_changed)
        self.refresh_filters()
        self.refresh_turn()
        self.refresh_journal()
        self._on_view_mode(vm.gm_view)
        self._update_actions()

    # --- actions --------------------------------------------------------------------------------------

    def _action(self, text: str, slot: Any, shortcut: Any = None, name: str = "", tip: str = "") -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            if isinstance(shortcut, list):
                action.setShortcuts(shortcut)
            else:
                action.setShortcut(shortcut)
        action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        guard.connect(action.triggered, lambda _checked=False: slot())
        if name:
            action.setObjectName(name)
        if tip:
            action.setToolTip(tip)
            action.setStatusTip(tip)
        self.addAction(action)
        return action

    def _build_actions(self) -> None:
        key = QKeySequence
        self.act_next_turn = self._action(
            self.tr("&Tour suivant"),
            self.next_turn,
            key("Ctrl+Space"),
            "actNextTurn",
            self.tr("La créature suivante dans l'ordre du tour commence son tour (ses règles de début de tour)."),
        )
        self.act_next_round = self._action(
            self.tr("&Round suivant"),
            self.next_round,
            key("Ctrl+Shift+Space"),
            "actNextRound",
            self.tr("Le round se termine pour toutes les créatures, le suivant commence."),
        )
        self.act_add = self._action(
            self.tr("&Ajouter des créatures…"), self.add_dialog, key("Ctrl+Shift+N"), "actAddCreatures"
        )
        self.act_duplicate = self._action(
            self.tr("D&upliquer la sélection"), self.duplicate_selected, key("Ctrl+Shift+D"), "actDuplicate"
        )
        self.act_remove = self._action(
            self.tr("Retirer de &la table"), self.remove_selected, key("Ctrl+Del"), "actRemove"
        )
        self.act_bulk = self._action(
            self.tr("Acti&on sur la sélection…"),
            lambda: self.bulk_dialog(),
            key("Ctrl+B"),
            "actBulk",
            self.tr("Dégâts, soins, points temporaires, non létaux ou un état pour toutes les créatures choisies."),
        )
        self.act_condition = self._action(
            self.tr("&État sur la sélection…"),
            lambda: self.bulk_dialog("condition_on"),
            key("Ctrl+Shift+E"),
            "actBulkCondition",
        )
        self.act_initiative = self._action(
            self.tr("Lancer l'&initiative…"), self.initiative_dialog, key("Ctrl+I"), "actInitiative"
        )
        self.act_turn_order = self._action(
            self.tr("Trier &dans l'ordre du tour"), self.sort_turn_order, key("Ctrl+Shift+O"), "actTurnOrder"
        )
        self.act_minute = self._action(self.tr("+1 &minute"), lambda: self.vm.advance_time("minute"), None, "actMinute")
        self.act_hour = self._action(self.tr("+1 &heure"), lambda: self.vm.advance_time("hour"), None, "actHour")
        self.act_day = self._action(self.tr("+1 &jour"), lambda: self.vm.advance_time("day"), None, "actDay")
        self.act_end_conflict = self._action(self.tr("Fin du &Conflit"), self.vm.end_conflict, None, "actEndConflict")
        self.act_end_fight = self._action(
            self.tr("Fin du com&bat (rounds à zéro)"), self.vm.end_fight, None, "actEndFight"
        )
        self.act_rename = self._action(self.tr("Re&nommer"), lambda: self.edit_current(NAME), key("F2"), "actRename")
        self.act_note = self._action(self.tr("Not&e…"), lambda: self.edit_current(NOTE), key("Ctrl+Shift+M"), "actNote")
        self.act_open = self._action(
            self.tr("Ouvrir la &fiche complète"), self.open_current, key("Ctrl+Return"), "actOpenSheet"
        )
        self.act_export = self._action(
            self.tr("Enre&gistrer sa fiche sous…"),
            self.export_current,
            None,
            "actExportCreature",
            self.tr("La fiche de la créature choisie, dans un fichier à elle (un PJ qui quitte la table)."),
        )
        self.act_players = self._action(
            self.tr("&Vue des joueurs (second écran)"),
            self.show_player_window,
            key("Ctrl+Shift+J"),
            "actPlayerWindow",
            self.tr("Une fenêtre à montrer aux joueurs : noms, états et conditions, aucun nombre."),
        )

    def table_actions(self) -> list[QAction | QMenu | None]:
        """The « Table » menu of the main window, in order (None: a separator)."""
        return [
            self.act_next_turn,
            self.act_next_round,
            self.act_initiative,
            self.act_turn_order,
            None,
            self.act_add,
            self.act_duplicate,
            self.act_remove,
            self.act_rename,
            self.act_note,
            self.act_open,
            self.act_export,
            None,
            self.act_bulk,
            self.act_condition,
            self.rest_menu,
            None,
            self.act_minute,
            self.act_hour,
            self.act_day,
            self.act_end_conflict,
            self.act_end_fight,
            None,
            self.act_players,
        ]

    def _button(self, action: QAction) -> QPushButton:
        """A button for ``action``: its text, its state (enabled or not) and its shortcut in the tooltip."""
        button = QPushButton(action.text())
        button.setObjectName("button_" + action.objectName())
        tip = action.toolTip()
        shortcut = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
        button.setToolTip(f"{tip} ({shortcut})" if shortcut and tip else tip or shortcut)
        button.setAutoDefault(False)
        button.setEnabled(action.isEnabled())
        guard.connect(button.clicked, lambda: action.trigger())
        action.changed.connect(lambda b=button, a=action: b.setEnabled(a.isEnabled()))
        return button

    def _update_actions(self) -> None:
        has_rows = bool(self.vm.creatures)
        gm = self.vm.gm_view
        for action in (
            self.act_next_turn,
            self.act_next_round,
            self.act_initiative,
            self.act_minute,
            self.act_hour,
            self.act_day,
        ):
            action.setEnabled(has_rows)
        self.act_add.setEnabled(gm)
        for action in (
            self.act_duplicate,
            self.act_remove,
            self.act_rename,
            self.act_note,
            self.act_open,
            self.act_bulk,
            self.act_condition,
        ):
            action.setEnabled(has_rows and gm)
        self.act_export.setEnabled(has_rows and gm and self.exporter is not None)
        self.act_end_conflict.setEnabled(self.vm.has_end_conflict())
        self.act_end_fight.setEnabled(self.vm.state.round > 0)

    # --- reading the selection ----------------------------------------------------------------------

    def selected_ids(self) -> list[int]:
        """Ids of the selected rows, in the order shown."""
        rows = sorted({i.row() for i in self.grid.selectionModel().selectedRows()})
        return self.model.ids(rows)

    def current_id(self) -> int | None:
        index = self.grid.currentIndex()
        if not index.isValid():
            return None
        value = index.siblingAtColumn(0).data(IdRole)
        return int(value) if value is not None else None

    def select_ids(self, ids: Sequence[int]) -> None:
        """Select the rows of ``ids`` (tests, and after adding creatures)."""
        selection = self.grid.selectionModel()
        selection.clearSelection()
        first: QModelIndex | None = None
        for cid in ids:
            row = self.model.row_of(cid)
            if row < 0:
                continue
            index = self.model.index(row, 0)
            first = first or index
            selection.select(index, QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows)
        if first is not None:
            selection.setCurrentIndex(first, QItemSelectionModel.SelectionFlag.NoUpdate)
            self.grid.scrollTo(first)

    # --- commands -------------------------------------------------------------------------------------

    def focus_quick_entry(self, mode: str = "damage") -> None:
        """Ctrl+D / Ctrl+H of the window: the quick entry, ready for an amount; Entrée then deals it as
        ``mode`` (Maj+Entrée: the other one)."""
        self._mode = mode if mode in ("damage", "heal") else "damage"
        self.amount.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.amount.selectAll()

    def _on_submitted(self, kind: str) -> None:
        if self._mode == "heal":
            kind = "damage" if kind == "heal" else "heal"
        self.submit_amount(kind)

    def start_amount(self, text: str) -> None:
        """A number typed on the rows: it goes to the quick entry, which keeps the focus."""
        self.amount.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.amount.setText(text)
        self.amount.setModified(True)

    def submit_amount(self, kind: str) -> None:
        """Deal the quick entry's amount to the selection as ``kind`` ("damage" or "heal")."""
        text = self.amount.text().strip()
        ids = self.selected_ids()
        if not ids:
            self._on_refused(self.tr("Sélectionnez d'abord les créatures concernées (Ctrl+A : toutes)."))
            return
        if not text:
            self._on_refused(self.tr("Entrez un montant : un nombre (7) ou des dés (2d6+3)."))
            self.amount.setFocus()
            return
        report = self.vm.bulk(ids, BulkRequest(kind=kind, amount=text, once=True))
        if report is not None and report.applied:
            self._mode = "damage"
            self.amount.clear()
            self.amount.setModified(False)
            self.grid.setFocus(Qt.FocusReason.OtherFocusReason)

    def bulk_dialog(self, kind: str | None = None) -> None:
        ids = self.selected_ids()
        if not ids:
            self._on_refused(self.tr("Sélectionnez d'abord les créatures concernées (Ctrl+A : toutes)."))
            return
        request = dialogs.ask_bulk(self, self.vm, ids, kind or "damage")
        if request is not None:
            self.vm.bulk(ids, request)

    def add_dialog(self) -> list[int]:
        opened = self.open_sheets() if self.open_sheets is not None else []
        request = dialogs.ask_add(self, self.vm, self.current_id(), self.loader, opened)
        if request is None:
            return []
        ids = self.vm.add_creatures(
            request.template,
            request.count,
            name=request.name or None,
            numbered=request.numbered,
            maximum=request.maximum,
            npc=request.npc,
            journal=request.journal,
        )
        if ids:
            self.select_ids(ids)
        return ids

    def duplicate_selected(self) -> list[int]:
        ids = self.vm.duplicate(self.selected_ids())
        if ids:
            self.select_ids(ids)
        return ids

    def remove_selected(self) -> int:
        return self.vm.remove(self.selected_ids())

    def initiative_dialog(self) -> None:
        selected = self.selected_ids()
        answer = dialogs.ask_initiative(self, len(selected))
        if answer is None:
            return
        expression, everyone = answer
        ids = [c.id for c in self.vm.creatures] if everyone else selected
        self.vm.roll_initiative(ids, expression)

    def sort_turn_order(self) -> None:
        self.grid.sortByColumn(INITIATIVE, Qt.SortOrder.DescendingOrder)

    def next_turn(self) -> None:
        self.vm.next_turn()
        self._show_turn()

    def next_round(self) -> None:
        self.vm.next_round()
        self._show_turn()

    def _show_turn(self) -> None:
        turn = self.vm.state.turn
        if turn is not None:
            row = self.model.row_of(turn)
            if row >= 0:
                self.grid.scrollTo(self.model.index(row, 0))

    def edit_current(self, column: int) -> None:
        index = self.grid.currentIndex()
        if not index.isValid():
            self._on_refused(self.tr("Choisissez d'abord une créature."))
            return
        target = index.siblingAtColumn(column)
        self.grid.setCurrentIndex(target)
        self.grid.edit(target)

    def export_current(self) -> bool:
        """The chosen creature's sheet saved to a file of its own (it stays at the table)."""
        creature = self.vm.creature(self.current_id() or -1)
        if creature is None:
            self._on_refused(self.tr("Choisissez d'abord une créature."))
            return False
        if self.exporter is None:
            return False
        return self.exporter(creature.sheet, creature.journal)

    def open_current(self) -> None:
        creature_id = self.current_id()
        if creature_id is not None:
            self.openRequested.emit(creature_id)

    def _on_double_clicked(self, index: QModelIndex) -> None:
        # Name, initiative and note are edited in place; a double-click elsewhere opens the sheet.
        if index.column() in (NAME, INITIATIVE, NOTE) and self.vm.gm_view:
            return
        value = index.siblingAtColumn(0).data(IdRole)
        if value is not None:
            self.openRequested.emit(int(value))

    def refresh_rest_menu(self) -> None:
        """The rests the selected creatures' rules know (each listed once, with every system's name)."""
        self.rest_menu.clear()
        ids = self.selected_ids()
        labels: dict[type[rules.Action], list[str]] = {}
        for system_id in self.vm.systems(ids):
            for action_type, label in self.vm.info(system_id).rests:
                names = labels.setdefault(action_type, [])
                if label not in names:
                    names.append(label)
        if not labels:
            empty = self.rest_menu.addAction(self.tr("(sélectionnez des créatures)"))
            empty.setEnabled(False)
            return
        for action_type, names in labels.items():
            label = " / ".join(names)
            action = self.rest_menu.addAction(label)
            action.setObjectName(f"rest_{action_type.__name__}")
            guard.connect(action.triggered, lambda _=False, t=action_type, lbl=label: self.rest_selected(t, lbl))

    def rest_selected(self, action_type: type[rules.Action], label: str) -> None:
        self.vm.rest(self.selected_ids(), action_type, label)

    def set_gm_view(self, on: bool) -> None:
        self.vm.set_gm_view(on)

    def show_player_window(self) -> PlayerWindow:
        if self.player_window is None:
            self.player_window = PlayerWindow(self.vm, self)
        self.player_window.show()
        self.player_window.raise_()
        return self.player_window

    # --- following the view-model -------------------------------------------------------------------

    def _on_refused(self, reason: str) -> None:
        self.messages.show_message(reason, "error")

    def _on_reported(self, text: str, grave: bool) -> None:
        if not self.vm.gm_view:
            return  # the players' view shows no numbers; the report has them
        self.messages.show_message(text, "warning" if grave else "info")

    def _on_changed(self, changes: TableChanges) -> None:
        if changes.everything or changes.turn:
            self.refresh_turn()
        if changes.everything or changes.journal or changes.rows or changes.added or changes.removed:
            self.refresh_journal()
        if changes.added or changes.removed or changes.sheets or changes.everything:
            self.refresh_filters()
        if changes.everything:
            self.house_banner.show_rules(self.vm.state.house)
        if changes.title or changes.everything:
            if self.title.text() != self.vm.state.title:
                self.title.setText(self.vm.state.title)
            self.titleChanged.emit()
        self._update_actions()

    def _on_clean_changed(self, _clean: bool) -> None:
        self.titleChanged.emit()

    def _on_selection(self) -> None:
        if self.journal_scope.currentData() == "creature":
            self.refresh_journal()

    def _on_view_mode(self, gm: bool) -> None:
        if not gm:
            self.messages.clear()
        for column in range(len(HEADERS)):
            self.grid.setColumnHidden(column, not gm and column not in PLAYER_COLUMNS)
        self.journal_box.setVisible(gm)
        for widget in (self.amount, self.damage_button, self.heal_button, self.title):
            widget.setEnabled(gm)
        self._update_actions()

    def refresh_turn(self) -> None:
        self.turn_label.setText(self.vm.turn_text())

    def refresh_filters(self) -> None:
        """The state filter lists the categories, then each state present at the table."""
        combo = self.filter_state
        current = combo.currentData()
        states: dict[str, str] = {}
        for system_id in self.vm.systems():
            for state in self.vm.info(system_id).health_states:
                states.setdefault(state.id, state.label)
        items = [
            ("", self.tr("Tous les états")),
            ("up", self.tr("Debout")),
            ("down", self.tr("Hors de combat")),
            ("dying", self.tr("Mourants")),
            ("dead", self.tr("Morts")),
        ] + [(f"state:{sid}", label) for sid, label in states.items()]
        if [(combo.itemData(i), combo.itemText(i)) for i in range(combo.count())] == items:
            return
        combo.blockSignals(True)
        combo.clear()
        for value, text in items:
            combo.addItem(text, value)
        combo.setCurrentIndex(max(0, combo.findData(current)))
        combo.blockSignals(False)

    def refresh_journal(self) -> None:
        if self.journal_scope.currentData() == "creature":
            creature = self.vm.creature(self.current_id() or -1)
            entries: Sequence[str] = creature.journal if creature is not None else ()
        else:
            entries = self.vm.state.journal
        self.journal_model.set_entries(list(entries), limit=JOURNAL_LIMIT)

    def unbind(self) -> None:
        """Disconnect from the view-model before the view goes away."""
        for signal, slot in (
            (self.vm.refused, self._on_refused),
            (self.vm.reported, self._on_reported),
            (self.vm.changed, self._on_changed),
            (self.vm.gmViewChanged, self._on_view_mode),
            (self.vm.undo_stack.cleanChanged, self._on_clean_changed),
        ):
            try:
                signal.disconnect(slot)
            except (RuntimeError, TypeError):
                pass
        if self.player_window is not None:
            self.player_window.close()


class PlayerWindow(QWidget):
    """What the players may see, on a second screen: names, state words and conditions, the turn."""

    def __init__(self, vm: TableViewModel, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setObjectName("playerWindow")
        self.setWindowTitle(self.tr("Vue des joueurs"))
        self.vm = vm
        layout = QVBoxLayout(self)
        self.heading = QLabel()
        self.heading.setObjectName("playerHeading")
        font = self.heading.font()
        font.setPointSizeF(font.pointSizeF() + 4)
        font.setBold(True)
        self.heading.setFont(font)
        layout.addWidget(self.heading)
        self.model = TableModel(vm, player=True, parent=self)
        self.proxy = self.model
        self.grid = QTableView()
        self.grid.setObjectName("playerGrid")
        self.grid.setModel(self.model)
        self.grid.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.grid.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.grid.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.grid.verticalHeader().hide()
        big = self.grid.font()
        big.setPointSizeF(big.pointSizeF() + 3)
        self.grid.setFont(big)
        self.grid.horizontalHeader().setFont(big)
        self.grid.verticalHeader().setDefaultSectionSize(34)
        self.grid.setItemDelegateForColumn(STATE, StateDelegate(self.grid))
        for column in range(len(HEADERS)):
            self.grid.setColumnHidden(column, column not in PLAYER_COLUMNS)
        header = self.grid.horizontalHeader()
        header.setStretchLastSection(True)
        header.resizeSection(TURN, 48)
        header.resizeSection(NAME, 240)
        header.resizeSection(STATE, 180)
        layout.addWidget(self.grid, 1)
        vm.changed.connect(self._on_changed)
        self.refresh()
        self.resize(760, 520)

    def _on_changed(self, changes: TableChanges) -> None:
        if changes.turn or changes.title or changes.everything:
            self.refresh()

    def refresh(self) -> None:
        title = self.vm.state.title
        turn = self.vm.turn_text()
        self.heading.setText(f"{title} — {turn}" if title else turn)
