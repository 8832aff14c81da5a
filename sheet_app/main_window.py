"""The main window: sheets and GM tables in tabs, the menus, undo/redo naming the action, the welcome
screen, autosave every minute and after each rest or time advance, recovery after a crash (issue 7).

A table's creature opens in its full sheet, in a tab bound to its row (issue 11): that tab is part of
the table's document (its undo history, its file), not a document of its own."""

from __future__ import annotations

import os
import random
import sys
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeGuard

from PySide6.QtCore import QEvent, QObject, QRect, QSize, Qt, QTimer
from PySide6.QtGui import QAction, QCloseEvent, QGuiApplication, QKeySequence, QShowEvent, QUndoGroup
from PySide6.QtWidgets import (
    QFrame,
    QLabel,
    QMainWindow,
    QMenu,
    QScrollArea,
    QTabBar,
    QTabWidget,
    QWidget,
)

import rules
from sheet_app import files
from sheet_app.autosave import AutosaveEntry, AutosaveStore
from sheet_app.controller import Autosaver, DocumentController, OpenDocument, OpenSheet, OpenTable
from sheet_app.house_menu import HouseRulesCommands
from sheet_app.print_menu import PrintCommands
from sheet_app.settings import Settings, examples_dir
from ui.common import app_events, guard, plain_text, prompts, wheel
from ui.common.shortcuts import WindowShortcutsWin, new_action
from ui.sheet.sheet_view import SheetView

if TYPE_CHECKING:  # the GM table's widgets load with the first table (start-up opens sheets: issue 15)
    from sheet_app.welcome import WelcomePage  # with the welcome page, when its tab first shows
    from ui.common.help import HelpDialog  # with the help window
    from ui.table.binding import RowSheetViewModel
    from ui.table.table_view import TableView

    DocumentView = SheetView | TableView


def is_table_view(widget: object) -> TypeGuard[TableView]:
    """``isinstance(widget, TableView)``, without importing the table's module: no table was ever
    made while it is not loaded."""
    module = sys.modules.get("ui.table.table_view")
    return module is not None and isinstance(widget, module.TableView)


@dataclass(eq=False)
class CreatureTab:
    """A tab showing one creature of an open table in its full sheet."""

    table: OpenTable
    creature_id: int
    vm: RowSheetViewModel


APP_TITLE = "Fiche de personnage"


def plain_mnemonic(text: str) -> str:
    """A name shown where ``&`` marks a shortcut (tab titles, menu entries): « Bob & Alice » stays so."""
    return text.replace("&", "&&")


class _WelcomeArea(QScrollArea):
    """The welcome tab: builds its page (``build``) when it first shows."""

    def __init__(self, build: Callable[[], QWidget]) -> None:
        super().__init__()
        self._build = build

    def showEvent(self, event: QShowEvent) -> None:
        if self.widget() is None:
            self._build()
        super().showEvent(event)


class _AfterFirstPaint(QObject):
    """Watches the main window of a start until its first paint, then installs the application-wide
    event filters in the next pass of the event loop (issue 15).

    A Python filter on the application is called for each of the ~5,000 events of building, showing and
    painting the window (three filters: three calls each), and the first event it gets for an object of
    a Qt class PySide does not expose (a scroll area's ``QGestureManager``, a line edit's control) makes
    PySide load every Qt class not yet loaded, with their ~180 enums (~60 ms). Installed after the first
    paint, none of that is between the start and the painted sheet. Nothing they do is missed: no key,
    wheel or tooltip reaches a window before it is painted, and the labels are made plain text before
    each paint of the window until then (``MainWindow.plain_labels``), as the filter would at their
    polish; ``wheel.install`` and ``plain_text.install`` apply their rules to the widgets already there.
    """

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        window.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind == QEvent.Type.Show or kind == QEvent.Type.Paint:
            self.window.plain_labels()  # labels made since (a page built when shown): plain before painted
            done = guard.guarded(self.window.first_painted)
            if kind == QEvent.Type.Paint:
                self.window.removeEventFilter(self)
                QTimer.singleShot(0, self.window, done)
            else:  # a window shown but never painted (not exposed): the filters all the same, a little later
                QTimer.singleShot(2000, self.window, done)
        return False


class MainWindow(QMainWindow):
    def __init__(
        self,
        settings: Settings | None = None,
        rng: random.Random | None = None,
        parent: QWidget | None = None,
        *,
        store: AutosaveStore | None = None,
        filters_after_paint: bool = False,
    ) -> None:
        """``store``: the app's one autosave store (the window makes its own, and closes it, without).

        ``filters_after_paint`` (the app's start): the application-wide event filters (``wheel``,
        ``plain_text``, ``WindowShortcutsWin``) are installed in the event loop's pass after the window's
        first paint, not here (``_AfterFirstPaint``); until then every label of the window is made plain
        text by the window itself (``plain_labels``), so the first frame is the same."""
        super().__init__(parent)
        self._quitting = False
        # The labels ``plain_labels`` has made plain text (or left rich: ``richText``) already.
        self._plain_seen: weakref.WeakSet[QLabel] = weakref.WeakSet()
        self._welcome_asked = False
        self.settings = settings if settings is not None else Settings()
        self.rng = rng if rng is not None else random.Random()
        self.controller = DocumentController(self.settings, self.rng, self)
        self.undo_group = QUndoGroup(self)
        self.docs: dict[DocumentView, OpenDocument] = {}
        # The sheets of tables' creatures: part of their table's document, not documents of their own.
        self.creature_tabs: dict[SheetView, CreatureTab] = {}
        self._owns_store = store is None
        self.store = store if store is not None else AutosaveStore()
        self.autosaver = Autosaver(self.store, self.settings.autosave_interval_ms, lambda: self.docs.values(), self)
        self.autosaver.saved.connect(self._on_autosaved)
        self.autosaver.failed.connect(self._on_autosave_failed)
        self.controller.saved.connect(self.autosaver.discard)
        self.controller.closed.connect(self.autosaver.discard)
        self.controller.reloaded.connect(self._on_reloaded)
        self.controller.replaced.connect(self._on_replaced)

        self.tabs = QTabWidget()
        self.tabs.setObjectName("sheetTabs")
        self.tabs.setDocumentMode(True)
        self.tabs.setTabsClosable(True)
        self.tabs.setMovable(True)
        guard.connect(self.tabs.tabCloseRequested, self._close_tab)
        guard.connect(self.tabs.currentChanged, self._on_current_changed)
        # The welcome page scrolls: a system with many fields never grows the window past the screen.
        # The page itself is built when its tab first shows (or is asked for: ``welcome``): a start
        # that opens documents never builds it (issue 15).
        self._welcome: WelcomePage | None = None
        self._recent: list[Path] = []
        self.welcome_area = _WelcomeArea(lambda: self.welcome)
        self.welcome_area.setObjectName("welcomeArea")
        self.welcome_area.setWidgetResizable(True)
        self.welcome_area.setFrameShape(QFrame.Shape.NoFrame)
        # The welcome page is a tab like the documents (issue 10 item 17): Affichage › Accueil brings
        # it back without hiding anything; it goes when the user closes it (never while alone).
        self.setCentralWidget(self.tabs)
        self._build_actions()
        self._build_menus()
        self.shortcuts_win: WindowShortcutsWin | None = None
        self.refresh_recent()
        self.show_welcome()
        geometry = self.settings.geometry()
        if geometry is None or not self.restoreGeometry(geometry):
            self.resize(self.first_size())
        self._fit_screen()
        self.autosave_status = QLabel()
        self.autosave_status.setObjectName("autosaveStatus")
        self.statusBar().addPermanentWidget(self.autosave_status)
        self._update_title()
        self._update_actions()
        guard.set_reporter(self._report_bug)
        self.after_first_paint: list[Callable[[], object]] = []
        if filters_after_paint:
            self._after_first_paint: _AfterFirstPaint | None = _AfterFirstPaint(self)
        else:
            self._after_first_paint = None
            self.install_app_filters()
        self.autosaver.start()

    def first_painted(self) -> None:
        """The loop's pass after the first paint of a start: the application-wide filters, then what
        the app asked for then (``after_first_paint``: the app turns Python's garbage collector back on)."""
        self.install_app_filters()  # once (a second call: nothing left to do)
        waiting, self.after_first_paint = self.after_first_paint, []
        for then in waiting:
            then()

    def install_app_filters(self) -> None:
        """The application-wide event filters: the window's shortcuts win over a field's keys, the
        wheel leaves unfocused boxes alone, labels and tooltips are plain text. Once."""
        if self.shortcuts_win is None:
            self.shortcuts_win = WindowShortcutsWin(self, self.actions())
            wheel.install()
            plain_text.install()

    def plain_labels(self, root: QWidget | None = None) -> None:
        """What ``plain_text``'s filter does to a label when it is polished, done now to the labels under
        ``root`` (the window): the start paints its first frame before that filter is installed.

        A start walks the window before ``show()``, then at its Show and Paint events (labels made since:
        a page built when shown); each label is seen once (``_plain_seen``, weak: a label deleted goes),
        the later walks only go through the labels made since (issue 15: ~4.5 M instructions a walk)."""
        seen = self._plain_seen
        for label in app_events.wrapped(QLabel, root or self, skip=seen):
            if not label.property("richText") and label.textFormat() != Qt.TextFormat.PlainText:
                label.setTextFormat(Qt.TextFormat.PlainText)
            seen.add(label)

    def _report_bug(self, message: str) -> None:
        """The guard's French message: in the current sheet's message bar, else in a box."""
        view = self.current_view()
        if view is not None and self.isVisible():
            view.messages.show_message(message, "error")
        else:
            prompts.show_error(self, self.tr("Erreur interne"), message)

    def sizeHint(self) -> QSize:
        return self.first_size()

    def _available(self) -> QRect | None:
        screen = self.screen() or QGuiApplication.primaryScreen()
        return screen.availableGeometry() if screen is not None else None

    def first_size(self) -> QSize:
        """1280×800, or less on a smaller screen: the screen's available space, minus the frame a
        window manager adds (issue 10 item 12)."""
        available = self._available()
        if available is None:
            return QSize(1280, 800)
        return QSize(min(1280, available.width() - 16), min(800, available.height() - 40))

    def _fit_screen(self) -> None:
        """A restored geometry from a bigger screen is brought back within this one."""
        available = self._available()
        if available is None:
            return
        width = min(self.width(), available.width())
        height = min(self.height(), available.height())
        if (width, height) != (self.width(), self.height()):
            self.resize(width, height)

    # --- actions and menus ----------------------------------------------------------------------------

    def _action(self, text: str, slot: Any, shortcut: Any = None, name: str = "") -> QAction:
        action = new_action(text, self)
        if shortcut is not None:
            if isinstance(shortcut, list):
                action.setShortcuts(shortcut)
            else:
                action.setShortcut(shortcut)
        guard.connect(action.triggered, slot)
        if name:
            action.setObjectName(name)
        self.addAction(action)
        return action

    def _build_actions(self) -> None:
        key = QKeySequence
        self.act_new = self._action(self.tr("&Nouvelle fiche…"), self.new_dialog, key.StandardKey.New, "actNew")
        self.act_new_table = self._action(
            self.tr("Nouvelle &table de meneur"), self.new_table, key("Ctrl+Alt+N"), "actNewTable"
        )
        self.act_open = self._action(self.tr("&Ouvrir…"), self.open_dialog, key.StandardKey.Open, "actOpen")
        self.act_save = self._action(self.tr("&Enregistrer"), self.save, key.StandardKey.Save, "actSave")
        self.act_save_as = self._action(self.tr("Enregistrer &sous…"), self.save_as, key("Ctrl+Shift+S"), "actSaveAs")
        self.act_close = self._action(self.tr("&Fermer la fiche"), self.close_current, key("Ctrl+W"), "actClose")
        self.act_quit = self._action(self.tr("&Quitter"), self.close, key("Ctrl+Q"), "actQuit")
        self.act_undo = self._action(self.tr("&Annuler"), self.undo_group.undo, key("Ctrl+Z"), "actUndo")
        self.act_redo = self._action(
            self.tr("&Rétablir"), self.undo_group.redo, [key("Ctrl+Shift+Z"), key("Ctrl+Y")], "actRedo"
        )
        self.undo_group.undoTextChanged.connect(self._update_undo_texts)
        self.undo_group.redoTextChanged.connect(self._update_undo_texts)
        self.undo_group.canUndoChanged.connect(self._update_undo_texts)
        self.undo_group.canRedoChanged.connect(self._update_undo_texts)
        self.undo_group.cleanChanged.connect(lambda _clean: self._update_title())
        self.act_gm = self._action(self.tr("Vue &meneur (tout voir)"), self.set_gm_view, key("Ctrl+M"), "actGm")
        self.act_gm.setCheckable(True)
        self.act_gm.setToolTip(self.tr("La vue joueur masque ce que les règles cachent au joueur."))
        self.act_damage = self._action(self.tr("&Dégâts…"), lambda: self._quick("damage"), key("Ctrl+D"), "actDamage")
        self.act_heal = self._action(self.tr("&Soins…"), lambda: self._quick("heal"), key("Ctrl+H"), "actHeal")
        self.act_temporary = self._action(
            self.tr("Points &temporaires…"), lambda: self._quick("temporary"), key("Ctrl+T"), "actTemporary"
        )
        self.act_conditions = self._action(
            self.tr("Aller aux &états"), lambda: self._focus("conditions"), key("Ctrl+E"), "actConditions"
        )
        self.act_journal = self._action(
            self.tr("Aller au &journal"), lambda: self._focus("journal"), key("Ctrl+J"), "actJournal"
        )
        self.act_welcome = self._action(self.tr("&Accueil"), lambda: self.show_welcome(asked=True), None, "actWelcome")
        self.act_about = self._action(self.tr("À &propos"), self.about, None, "actAbout")
        self.act_help = self._action(self.tr("&Guide de la fiche"), self.show_help, key("F1"), "actHelp")
        self.act_search = self._action(
            self.tr("&Chercher dans le journal"), lambda: self._focus("search"), key("Ctrl+F"), "actSearch"
        )
        self.act_export = self._action(self.tr("Exporter le &journal…"), self.export_journal, None, "actExport")
        self.help_dialog: HelpDialog | None = None

    def _build_menus(self) -> None:
        bar = self.menuBar()
        file_menu = bar.addMenu(self.tr("&Fichier"))
        file_menu.addAction(self.act_new)
        file_menu.addAction(self.act_new_table)
        file_menu.addAction(self.act_open)
        self.recent_menu = QMenu(self.tr("Fiches &récentes"), self)
        file_menu.addMenu(self.recent_menu)
        demo_menu = file_menu.addMenu(self.tr("Fiches de &démonstration"))
        for system_id in rules.SYSTEMS:
            action = demo_menu.addAction(rules.system_label(system_id))  # no system's rules loaded
            guard.connect(action.triggered, lambda _=False, s=system_id: self.open_demo(s))
        file_menu.addSeparator()
        file_menu.addAction(self.act_save)
        file_menu.addAction(self.act_save_as)
        file_menu.addAction(self.act_export)
        self.printing = PrintCommands(self, file_menu)  # Imprimer…, Exporter en PDF…, fiche vierge (issue 12)
        file_menu.addSeparator()
        file_menu.addAction(self.act_close)
        file_menu.addAction(self.act_quit)
        edit_menu = bar.addMenu(self.tr("&Édition"))
        edit_menu.addAction(self.act_undo)
        edit_menu.addAction(self.act_redo)
        sheet_menu = bar.addMenu(self.tr("Fi&che"))
        for action in (self.act_damage, self.act_heal, self.act_temporary):
            sheet_menu.addAction(action)
        sheet_menu.addSeparator()
        sheet_menu.addAction(self.act_conditions)
        sheet_menu.addAction(self.act_journal)
        sheet_menu.addAction(self.act_search)
        # Règles maison… (issue 18): the current sheet's, or a table's creatures' (also in « Table »).
        self.house_rules = HouseRulesCommands(self, sheet_menu)
        self.table_menu = bar.addMenu(self.tr("Tab&le"))
        self.table_menu.setObjectName("tableMenu")
        view_menu = bar.addMenu(self.tr("Aff&ichage"))
        view_menu.addAction(self.act_gm)
        view_menu.addAction(self.act_welcome)
        help_menu = bar.addMenu(self.tr("Aid&e"))
        help_menu.addAction(self.act_help)
        help_menu.addAction(self.act_about)

    def refresh_recent(self) -> None:
        self.recent_menu.clear()
        recent = self.settings.recent_files()
        for path in recent:
            action = self.recent_menu.addAction(plain_mnemonic(f"{path.name} — {path.parent}"))
            action.setEnabled(path.exists())
            guard.connect(action.triggered, lambda _=False, p=path: self.open_paths([p]))
        if not recent:
            empty = self.recent_menu.addAction(self.tr("(aucune)"))
            empty.setEnabled(False)
        self._recent = recent
        if self._welcome is not None:
            self._welcome.set_recent(recent)

    @property
    def welcome(self) -> WelcomePage:
        """The welcome page (its tab: ``welcome_area``), built on first use."""
        if self._welcome is None:
            from sheet_app.welcome import WelcomePage

            page = self._welcome = WelcomePage()
            guard.connect(page.new_form.created, self.add_new_sheet)
            guard.connect(page.open_requested, self.open_dialog)
            guard.connect(page.path_chosen, lambda p: self.open_paths([p]))
            guard.connect(page.demo_chosen, self.open_demo)
            guard.connect(page.table_requested, self.new_table)
            page.set_recent(self._recent)
            if self.shortcuts_win is None:  # built at the start, before the filters: plain text all the same
                self.plain_labels(page)
            self.welcome_area.setWidget(page)
            if self.welcome_area.isVisible():
                page.show()
        return self._welcome

    # --- the open sheets -----------------------------------------------------------------------------

    def current_view(self) -> DocumentView | None:
        """The current tab's view: a sheet (a document's, or a table's creature's) or a table."""
        widget = self.tabs.currentWidget()
        return widget if (isinstance(widget, SheetView) or is_table_view(widget)) else None

    def current_doc(self) -> OpenDocument | None:
        """The document of the current tab (a creature's tab belongs to its table's document)."""
        view = self.current_view()
        if view is None:
            return None
        if isinstance(view, SheetView) and view in self.creature_tabs:
            return self.creature_tabs[view].table
        return self.docs.get(view)

    def add_doc(self, doc: OpenDocument, index: int = -1) -> DocumentView:
        view: DocumentView
        if isinstance(doc, OpenTable):
            from ui.table.table_view import TableView

            view = TableView(vm=doc.vm, loader=self.controller.read_sheet)
            view.openRequested.connect(lambda cid, d=doc: self.open_creature(d, cid))
            # A creature saved as a sheet of its own keeps the house rules it plays by at the table.
            view.exporter = lambda sheet, journal, d=doc: self.export_creature(
                sheet, journal, d.vm.house_of(sheet.system)
            )
            view.open_sheets = self._open_sheets
            view.printable_document = doc.document  # type: ignore[attr-defined]  # Fichier › Imprimer
            doc.vm.applied.connect(lambda kind, d=doc: self._on_table_applied(d, kind))
            doc.vm.setObjectName("vm_table")
        else:
            view = SheetView(vm=doc.vm)
            doc.vm.applied.connect(lambda action, d=doc: self._on_applied(d, action))
            doc.vm.rulesChanged.connect(lambda _house, vm=doc.vm: self._on_sheet_rules(vm))
            doc.vm.setObjectName(f"vm_{doc.vm.sheet.system}")
        doc.vm.setParent(view)
        self.docs[view] = doc
        self.undo_group.addStack(doc.vm.undo_stack)
        view.titleChanged.connect(self._on_view_title)
        doc.vm.set_gm_view(self.act_gm.isChecked())
        index = self.tabs.insertTab(index, view, "")
        if not self._welcome_asked:
            self.hide_welcome()
            index = self.tabs.indexOf(view)
        self._update_welcome_tab()
        self._update_tab(view)
        self.tabs.setCurrentIndex(index)
        self._update_actions()
        self._save_session()
        return view

    def add_new_sheet(self, sheet: Any) -> DocumentView:
        return self.add_doc(self.controller.new(sheet))

    def new_table(self) -> TableView:
        """Fichier › Nouvelle table de meneur: an empty table, never saved yet."""
        view = self.add_doc(self.controller.new_table())
        assert is_table_view(view)
        if not self.act_gm.isChecked():
            view.messages.show_message(
                self.tr("Vue joueur : les nombres sont masqués. Ctrl+M passe en vue meneur."), "info"
            )
        return view

    # --- a table's creatures in their full sheet ---------------------------------------------------

    def open_creature(self, table: OpenTable, creature_id: int) -> SheetView | None:
        """The full sheet of a table's creature, in a tab bound to its row (one history, one file)."""
        for view, tab in self.creature_tabs.items():
            if tab.table is table and tab.creature_id == creature_id:
                self.tabs.setCurrentWidget(view)
                return view
        if table.vm.creature(creature_id) is None:
            return None
        from ui.table.binding import RowSheetViewModel

        vm = RowSheetViewModel(table.vm, creature_id)
        view = SheetView(vm=vm)
        vm.setParent(view)
        vm.set_gm_view(self.act_gm.isChecked())
        tab = CreatureTab(table, creature_id, vm)
        self.creature_tabs[view] = tab
        vm.gone.connect(lambda vm=vm: self._close_creature_tab(self._sheet_view_of(vm)))
        vm.rulesChanged.connect(lambda _house, vm=vm: self._on_sheet_rules(vm))
        vm.applied.connect(lambda action, d=table: self._on_applied(d, action))
        view.titleChanged.connect(self._on_view_title)
        table_view = self.view_of(table)
        index = self.tabs.indexOf(table_view) + 1 if table_view is not None else -1
        while 0 < index < self.tabs.count() and self.tabs.widget(index) in self.creature_tabs:
            index += 1
        index = self.tabs.insertTab(index, view, "")
        self._update_tab(view)
        self.tabs.setCurrentIndex(index)
        self._update_actions()
        return view

    def _sheet_view_of(self, vm: Any) -> SheetView | None:
        """The tab showing the sheet view-model ``vm`` (a sheet document's, or a table creature's)."""
        for view in (*self.docs, *self.creature_tabs):
            if isinstance(view, SheetView) and view.vm is vm:
                return view
        return None

    def _on_sheet_rules(self, vm: Any) -> None:
        """Other rules (issue 18) may lay a sheet out otherwise (its states, ladders, fields): when its
        description changed, the tab gets a new view over the same view-model (same history, same file)."""
        view = self._sheet_view_of(vm)
        if view is None or view.built_info == vm.info:
            return
        index = self.tabs.indexOf(view)
        if index < 0:
            return
        current = self.tabs.currentWidget() is view
        new = SheetView(vm=vm)
        vm.setParent(new)
        new.titleChanged.connect(self._on_view_title)
        if view in self.docs:
            self.docs[new] = self.docs.pop(view)
        else:
            self.creature_tabs[new] = self.creature_tabs.pop(view)
        self.tabs.insertTab(index, new, "")
        self.tabs.removeTab(index + 1)
        if current:
            self.tabs.setCurrentIndex(index)
        self._update_tab(new)
        view.unbind()
        view.setParent(None)
        view.deleteLater()

    def _close_creature_tab(self, view: SheetView | None) -> None:
        tab = self.creature_tabs.pop(view, None) if view is not None else None
        if tab is None or view is None:
            return
        tab.vm.unbind()
        view.unbind()
        self.tabs.removeTab(self.tabs.indexOf(view))
        view.deleteLater()
        self._update_title()
        self._update_actions()

    def _close_creature_tabs(self, table: OpenTable) -> None:
        for view in [v for v, t in self.creature_tabs.items() if t.table is table]:
            self._close_creature_tab(view)

    def export_creature(self, sheet: Any, journal: tuple[str, ...], house: Any = None) -> bool:
        """A creature of a table saved as a sheet file of its own (« Enregistrer la fiche sous… »), with
        the house rules it plays by (issue 18)."""
        return self.controller.save_as(self.controller.new(sheet, journal, house=house), self)

    def _open_sheets(self) -> list[tuple[str, Any, tuple[str, ...]]]:
        """The sheets open in tabs (name, sheet, journal): a table can take one in."""
        return [
            (doc.display_name(), doc.vm.sheet, doc.vm.journal)
            for doc in self.docs.values()
            if isinstance(doc, OpenSheet)
        ]

    def open_paths(self, paths: list[Path]) -> list[DocumentView]:
        views = []
        for path in paths:
            resolved = _resolved(Path(path))
            already = next((v for v, d in self.docs.items() if d.path and _resolved(d.path) == resolved), None)
            if already is not None:
                self.tabs.setCurrentWidget(already)
                views.append(already)
                continue
            opened = self.controller.open(Path(path), self)
            for doc in opened or ():
                views.append(self.add_doc(doc))
        self.refresh_recent()
        return views

    def open_demo(self, system_id: str) -> SheetView | None:
        """A demo sheet: a copy to play with (saving asks for a new file, never over the shipped one)."""
        path = examples_dir() / f"{system_id}.fiche.json"
        try:
            doc, _ = files.read_document(path)
            sheet, journal = doc.sheets[0], tuple(doc.journals[0]) if doc.journals else ()
        except files.FileProblem:
            sheet, journal = rules.demo_sheet(system_id), ()
        return self.add_doc(self.controller.new(sheet, journal, demo=True))

    def close_view(self, view: QWidget | None) -> bool:
        if isinstance(view, SheetView) and view in self.creature_tabs:
            self._close_creature_tab(view)  # the table keeps everything: nothing to ask
            return True
        if not (isinstance(view, SheetView) or is_table_view(view)):
            return False
        doc = self.docs.get(view)
        if doc is None:
            return False
        self.tabs.setCurrentWidget(view)
        if not self.controller.close(doc, self):
            return False
        if isinstance(doc, OpenTable):
            self._close_creature_tabs(doc)
        self._remove_view(view)
        if not self.docs:
            self.show_welcome()
        self._update_title()
        self._update_actions()
        return True

    def _remove_view(self, view: DocumentView) -> OpenDocument:
        doc = self.docs.pop(view)
        self.undo_group.removeStack(doc.vm.undo_stack)
        view.unbind()
        self.tabs.removeTab(self.tabs.indexOf(view))
        view.deleteLater()
        self._save_session()
        self._update_welcome_tab()
        return doc

    def open_documents(self) -> list[OpenDocument]:
        """The open documents in tab order (a table's creature tabs belong to their table)."""
        found = [self.tabs.widget(i) for i in range(self.tabs.count())]
        return [self.docs[w] for w in found if w in self.docs]

    def _save_session(self) -> None:
        """The files of the open documents, written as tabs open, close and get saved: after a crash
        they all come back (issue 10, item 3), not only those with an autosave. A quit writes the
        list once, before its tabs close."""
        if self._quitting:
            return
        self.settings.set_last_session([d.path for d in self.open_documents() if d.path is not None])
        self.settings.sync()

    def view_of(self, doc: OpenDocument) -> DocumentView | None:
        return next((v for v, d in self.docs.items() if d is doc), None)

    def close_current(self) -> None:
        view = self.current_view()
        if view is not None:
            self.close_view(view)

    # --- commands ------------------------------------------------------------------------------------

    def new_dialog(self) -> None:
        from sheet_app.welcome import NewSheetDialog

        dialog = NewSheetDialog(self)
        if dialog.exec() == NewSheetDialog.DialogCode.Accepted and dialog.sheet is not None:
            self.add_new_sheet(dialog.sheet)

    def open_dialog(self) -> None:
        paths = prompts.open_paths(self, self.controller.last_folder)
        if paths:
            self.open_paths(paths)

    def save(self) -> bool:
        doc = self.current_doc()
        if doc is None:
            return False
        done = self.controller.save(doc, self)
        self._after_save(doc)
        return done

    def save_as(self) -> bool:
        doc = self.current_doc()
        if doc is None:
            return False
        done = self.controller.save_as(doc, self)
        self._after_save(doc)
        return done

    def _after_save(self, doc: OpenDocument) -> None:
        for view, d in self.docs.items():
            if d is doc:
                self._update_tab(view)
        for view, tab in self.creature_tabs.items():
            if tab.table is doc:
                self._update_tab(view)
        self.refresh_recent()
        self._save_session()

    def _on_reloaded(self, doc: OpenDocument) -> None:
        """The tab holds its file again (« Recharger »): no copy to keep, the title loses its mark."""
        self.autosaver.discard(doc)
        if isinstance(doc, OpenTable):
            self._close_creature_tabs(doc)  # the file's creatures are other objects now
        view = self.view_of(doc)
        if view is not None:
            self._update_tab(view)
        self._update_actions()

    def _on_replaced(self, old: OpenDocument, new: OpenDocument) -> None:
        """The reloaded file holds another kind of document, or a sheet of another system: a new view in
        the same tab."""
        view = self.view_of(old)
        if view is None:
            return
        if isinstance(old, OpenTable):
            self._close_creature_tabs(old)
        index = self.tabs.indexOf(view)
        self._remove_view(view)
        self.add_doc(new, index)

    # --- autosave and recovery (issue 7) --------------------------------------------------------------

    def _on_applied(self, doc: OpenDocument, action: rules.Action) -> None:
        # « Autosave every minute (and on each rest or time advance) »: a night of rest or the hours
        # that pass are what a player would hate to play again.
        if isinstance(doc, OpenTable):
            passes = isinstance(action, (rules.ShortRest, rules.LongRest, rules.AdvanceTime, rules.EndRound))
        else:
            passes = doc.vm.passes_time(action)
        if passes:
            self.autosaver.save(doc)

    def _on_table_applied(self, doc: OpenTable, kind: str) -> None:
        # A table's rests, time and rounds are autosaved at once, like a sheet's.
        if kind in ("time", "rest", "turn"):
            self.autosaver.save(doc)

    def _on_autosaved(self, _doc: OpenSheet, entry: AutosaveEntry) -> None:
        self.autosave_status.setStyleSheet("")
        self.autosave_status.setText(
            self.tr("Sauvegarde automatique à {0}").format(entry.saved_at.strftime("%H:%M:%S"))
        )
        self.autosave_status.setToolTip(
            self.tr("Copie de secours dans {0} (jamais sur vos fichiers).").format(self.store.folder)
        )

    def _on_autosave_failed(self, message: str) -> None:
        self.autosave_status.setStyleSheet("color: #b71c1c;")
        self.autosave_status.setText(self.tr("Sauvegarde automatique impossible"))
        self.autosave_status.setToolTip(message)

    def recover_autosaves(self) -> list[DocumentView]:
        """At start: offer what a crash left in the autosave store; the recovered sheets' tabs.

        Each offered copy shows its time and whether it is newer than its file; a recovered one opens
        marked modified, its file kept for « Enregistrer »; one the user unticks is deleted; « Plus
        tard » keeps them all for the next start. Then the store drops what is no longer useful.
        """
        offered: list[tuple[AutosaveEntry, files.Document]] = []
        damaged: list[str] = []
        for entry in self.store.recoverable():
            try:
                doc = self.store.load(entry)
            except files.FileProblem as exc:
                damaged.append(exc.message)
                continue
            if doc.kind in ("sheet", "table"):
                offered.append((entry, doc))
        if damaged:
            prompts.show_error(
                self,
                self.tr("Récupération impossible"),
                self.tr("Ces sauvegardes automatiques sont illisibles ; elles restent dans {0} :").format(
                    self.store.folder
                )
                + "\n"
                + "\n".join(damaged),
            )
        views: list[DocumentView] = []
        if offered:
            choices = prompts.ask_recovery(self, [entry.describe() for entry, _ in offered])
            if choices is not None:
                for (entry, doc), recover in zip(offered, choices, strict=True):
                    if recover:
                        views.append(self.add_doc(self.controller.recover(doc, entry)))
                    else:
                        self.store.remove(entry)
        self.store.clean()
        return views

    def set_gm_view(self, on: bool) -> None:
        self.act_gm.setChecked(on)
        for doc in self.docs.values():
            doc.vm.set_gm_view(on)
        for tab in self.creature_tabs.values():
            tab.vm.set_gm_view(on)
        self._update_title()

    def show_welcome(self, asked: bool = False) -> None:
        """The welcome tab, first of the tabs (added back if it was closed); the documents stay.

        Shown because the window is empty, it makes way for the first document that opens; ``asked``
        (Affichage › Accueil) it stays until the user closes it.
        """
        self.refresh_recent()
        self._welcome_asked = self._welcome_asked or asked
        if self.tabs.indexOf(self.welcome_area) < 0:
            self.tabs.insertTab(0, self.welcome_area, self.tr("Accueil"))
            self.tabs.setTabToolTip(0, self.tr("Nouvelle fiche, fichiers récents, démonstrations"))
        self.tabs.setCurrentWidget(self.welcome_area)
        self._update_welcome_tab()

    def _update_welcome_tab(self) -> None:
        """The welcome tab's close button only when documents are open (alone it stays)."""
        index = self.tabs.indexOf(self.welcome_area)
        if index < 0:
            return
        bar = self.tabs.tabBar()
        for side in (QTabBar.ButtonPosition.RightSide, QTabBar.ButtonPosition.LeftSide):
            button = bar.tabButton(index, side)
            if button is not None:
                button.setVisible(bool(self.docs))

    def hide_welcome(self) -> None:
        """Take the welcome tab away when documents are open (the start with the last session)."""
        index = self.tabs.indexOf(self.welcome_area)
        if index >= 0 and self.docs:
            self.tabs.removeTab(index)
            self._welcome_asked = False

    def is_welcome_shown(self) -> bool:
        return self.tabs.currentWidget() is self.welcome_area

    def _close_tab(self, index: int) -> None:
        widget = self.tabs.widget(index)
        if widget is self.welcome_area:
            if self.docs:  # alone, the welcome tab stays: the window is never empty
                self.hide_welcome()
            return
        self.close_view(widget)

    def about(self) -> None:
        systems = ", ".join(rules.describe(s).label for s in rules.SYSTEMS)
        prompts.show_info(
            self,
            self.tr("À propos"),
            self.tr("Fiche de personnage : la santé des personnages pour les jeux de rôle francophones.\n")
            + self.tr("Systèmes disponibles : {0}.").format(systems),
        )

    def _quick(self, mode: str) -> None:
        view = self.current_view()
        if view is None:
            return
        if is_table_view(view) and mode == "temporary":
            view.bulk_dialog("temporary")  # temporary points never stack: the dialog asks how
            return
        view.focus_quick_entry(mode)

    def _focus(self, what: str) -> None:
        view = self.current_view()
        if view is None:
            return
        target: QWidget
        if is_table_view(view):
            target = view.grid if what == "conditions" else view.journal
        else:
            targets = {"conditions": view.conditions.view, "journal": view.journal.view, "search": view.journal.search}
            target = targets[what]
        target.setFocus(Qt.FocusReason.ShortcutFocusReason)
        if what == "search":
            view.journal.search.selectAll()

    def export_journal(self) -> None:
        view = self.current_view()
        if isinstance(view, SheetView):
            view.journal.export()

    def show_help(self) -> None:
        """F1: the guide, beside the sheet (one window, brought back to the front)."""
        if self.help_dialog is None:
            from ui.common.help import HelpDialog

            self.help_dialog = HelpDialog(self)
        self.help_dialog.show()
        self.help_dialog.raise_()
        self.help_dialog.activateWindow()

    # --- titles and states ---------------------------------------------------------------------------

    def _on_current_changed(self, _index: int) -> None:
        doc = self.current_doc()
        self.undo_group.setActiveStack(doc.vm.undo_stack if doc is not None else None)
        self._update_title()
        self._update_actions()
        self._update_undo_texts()
        self._fill_table_menu()

    def _fill_table_menu(self) -> None:
        """The « Table » menu: the current table's actions with their shortcuts (disabled elsewhere)."""
        menu = self.table_menu
        view = self.current_view()
        shown = view if is_table_view(view) else None
        if getattr(self, "_table_menu_of", False) is shown and menu.actions():
            return
        self._table_menu_of = shown
        menu.clear()
        if not is_table_view(view):
            empty = menu.addAction(self.tr("(ouvrez ou créez une table de meneur)"))
            empty.setEnabled(False)
            menu.addAction(self.act_new_table)
            return
        for item in view.table_actions():
            if item is None:
                menu.addSeparator()
            elif isinstance(item, QMenu):
                menu.addMenu(item)
            else:
                menu.addAction(item)
        menu.addSeparator()
        menu.addMenu(self.house_rules.menu)

    def _on_view_title(self) -> None:
        view = self.sender()
        if isinstance(view, SheetView) or is_table_view(view):
            self._update_tab(view)
        if is_table_view(view):
            doc = self.docs.get(view)
            for other, tab in self.creature_tabs.items():
                if tab.table is doc:
                    self._update_tab(other)

    def _tab_text(self, view: QWidget) -> tuple[str, str] | None:
        """The tab's text and tooltip (None: not a tab of ours)."""
        if isinstance(view, SheetView) and view in self.creature_tabs:
            tab = self.creature_tabs[view]
            mark = " *" if tab.table.is_modified() else ""
            name = tab.vm.sheet.name or self.tr("(sans nom)")
            tip = self.tr("{0} — fiche d'une créature de la table « {1} »").format(
                rules.describe(tab.vm.sheet.system).label, tab.table.display_name()
            )
            return plain_mnemonic(f"{name} ⟵ {tab.table.display_name()}{mark}"), tip
        doc = self.docs.get(view)  # type: ignore[call-overload]
        if doc is None:
            return None
        mark = " *" if doc.is_modified() else ""
        label = self._kind_label(doc)
        where = doc.path or self.tr("pas encore enregistrée")
        return plain_mnemonic(f"{doc.display_name()}{mark}"), f"{label} — {where}"

    def _kind_label(self, doc: OpenDocument) -> str:
        if isinstance(doc, OpenTable):
            return self.tr("Table de meneur ({0} créatures)").format(len(doc.vm.creatures))
        return rules.describe(doc.vm.sheet.system).label

    def _update_tab(self, view: QWidget) -> None:
        index = self.tabs.indexOf(view)
        text = self._tab_text(view)
        if text is None or index < 0:
            return
        self.tabs.setTabText(index, text[0])
        self.tabs.setTabToolTip(index, text[1])
        if view is self.current_view():
            self._update_title()

    def _update_title(self) -> None:
        doc = self.current_doc()
        if doc is None:
            self.setWindowTitle(APP_TITLE)
            self.setWindowModified(False)
            return
        label = self._kind_label(doc)
        view = self.tr(" (vue meneur)") if self.act_gm.isChecked() else ""
        self.setWindowTitle(f"{doc.display_name()} — {label}{view}[*] — {APP_TITLE}")
        self.setWindowModified(doc.is_modified())
        current = self.current_view()
        if current is not None:
            text = self._tab_text(current)
            if text is not None:
                self.tabs.setTabText(self.tabs.indexOf(current), text[0])

    def _update_actions(self) -> None:
        has = self.current_doc() is not None
        for action in (
            self.act_save,
            self.act_save_as,
            self.act_close,
            self.act_damage,
            self.act_heal,
            self.act_temporary,
            self.act_conditions,
            self.act_journal,
            self.act_search,
            self.act_export,
        ):
            action.setEnabled(has)
        doc = self.current_doc()
        view = self.current_view()
        if is_table_view(view):
            self.act_temporary.setEnabled(True)
        elif isinstance(view, SheetView):
            self.act_temporary.setEnabled(view.vm.has("temporary"))
        else:
            self.act_temporary.setEnabled(False)
        # The journal's search and export are the sheet's (a table has its own journal controls).
        self.act_search.setEnabled(isinstance(view, SheetView))
        self.act_export.setEnabled(isinstance(view, SheetView))
        self.act_close.setText(
            self.tr("&Fermer la table")
            if isinstance(doc, OpenTable) and view in self.docs
            else self.tr("&Fermer la fiche")
        )
        self._update_undo_texts()

    def _update_undo_texts(self, *_: object) -> None:
        group = self.undo_group
        undo, redo = group.undoText(), group.redoText()
        self.act_undo.setEnabled(group.canUndo())
        self.act_redo.setEnabled(group.canRedo())
        self.act_undo.setText(
            self.tr("&Annuler : {0}").format(undo) if group.canUndo() and undo else self.tr("&Annuler")
        )
        self.act_redo.setText(
            self.tr("&Rétablir : {0}").format(redo) if group.canRedo() and redo else self.tr("&Rétablir")
        )

    # --- closing -------------------------------------------------------------------------------------

    def may_quit(self) -> bool:
        """Ask about every modified document before anything closes: « Annuler » at any question (or a
        save that does not happen) cancels the whole quit, with every document still open."""
        for doc in self.open_documents():
            view = self.view_of(doc)
            if view is not None and doc.is_modified():
                self.tabs.setCurrentWidget(view)
                if not self.controller.may_close(doc, self):
                    return False
                self._after_save(doc)
        return True

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self.may_quit():
            event.ignore()
            return
        session = [d.path for d in self.open_documents() if d.path is not None]
        self._quitting = True
        for view, doc in list(self.docs.items()):
            self.controller.closed.emit(doc)
            if isinstance(doc, OpenTable):
                self._close_creature_tabs(doc)
            self._remove_view(view)
        self._quitting = False
        self.settings.set_last_session(session)
        self.settings.set_geometry(self.saveGeometry())
        self.settings.sync()
        self.autosaver.stop()
        if self._owns_store:
            self.store.close()
        event.accept()


def _resolved(path: Path) -> str:
    """``path`` with its links followed, to tell whether two paths are one file; never raises (a link
    loop or a name the system refuses is compared as written, and opening it says what is wrong)."""
    try:
        return os.path.realpath(path)
    except (OSError, RuntimeError, ValueError):
        return os.path.abspath(path)
