"""The journal panel: what happened, newest first, with the dice rolled.

Each entry is drawn as its title in bold, what happened, and the dice line in grey.
"""

from __future__ import annotations

import re
from datetime import datetime

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import (
    QKeySequence,
    QResizeEvent,
    QShortcut,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QPushButton,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from ui.common import guard, prompts, scroll_parts
from ui.common.flow import FlowLayout
from ui.common.journal import SHOWN_ENTRIES, JournalDelegate, folded
from ui.common.models import JournalModel
from ui.sheet.viewmodel import Changes, SheetViewModel


class JournalView(QTreeView):
    """The entries, one row each, as tall as its text wrapped to the width.

    A tree without branches rather than a ``QListView`` (issue 15): a list view measures every row after
    each new entry (5,000 entries shown: 5,000 heights through Python), a tree scrolling per entry measures
    only the rows on screen. A new width makes the rows measured again (their text wraps otherwise).
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        scroll_parts.meet(self)  # its viewport and scroll bars' containers, without loading every class
        self.setHeaderHidden(True)
        self.setRootIsDecorated(False)
        self.setItemsExpandable(False)
        self.setIndentation(0)
        self.setUniformRowHeights(False)
        self.setWordWrap(True)
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerItem)
        self.header().setStretchLastSection(True)
        self._width = -1
        # The scroll bar changes with every new entry: its container is opaque (the colour that showed
        # through), so the panel under it is not painted again each time (issue 15).
        container = self.verticalScrollBar().parentWidget()
        if container is not None and container is not self:
            container.setAutoFillBackground(True)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self.viewport().width() != self._width:
            self._width = self.viewport().width()
            self.scheduleDelayedItemsLayout()


class JournalPanel(QGroupBox):
    def __init__(self, vm: SheetViewModel, parent: QWidget | None = None) -> None:
        super().__init__(self.tr("Journal"), parent)
        self.vm = vm
        # Opaque, like the sheet's columns: a new entry changes the scroll bar's range, and its transparent
        # container made the splitter, the sheet, the tabs and the window under it repaint too (issue 15).
        # The colour is the one that showed through.
        self.setAutoFillBackground(True)
        layout = QVBoxLayout(self)
        self.model = JournalModel(self)
        self.view = JournalView()
        self.view.setObjectName("journalView")
        self.view.setAccessibleName(self.tr("Journal, le plus récent en haut"))
        self.view.setModel(self.model)
        self.view.setItemDelegate(JournalDelegate(self.view, pictures=True))
        self.view.setAlternatingRowColors(True)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        guard.connect(self.view.customContextMenuRequested, self._context_menu)
        # Issue 10 item 24: search, copy and export; each entry is dated with the sheet's clock.
        search_row = QHBoxLayout()
        search_label = QLabel(self.tr("Filtrer :"))  # no mnemonic: Ctrl+F (Fiche › Chercher dans le journal) comes here
        self.search = QLineEdit()
        self.search.setObjectName("journalSearch")
        self.search.setPlaceholderText(self.tr("mot à chercher (sans accents ni majuscules)"))
        self.search.setAccessibleName(self.tr("Filtrer le journal"))
        self.search.setClearButtonEnabled(True)
        search_label.setBuddy(self.search)
        guard.connect(self.search.textChanged, lambda _text: self._refresh())
        search_row.addWidget(search_label)
        search_row.addWidget(self.search, 1)
        layout.addLayout(search_row)
        layout.addWidget(self.view)
        self.found = QLabel()
        self.found.setObjectName("journalFound")
        layout.addWidget(self.found)
        buttons = FlowLayout()
        self.copy_button = QPushButton(self.tr("Copier le journal"))
        self.copy_button.setObjectName("journalCopy")
        self.copy_button.setAutoDefault(False)
        self.copy_button.setToolTip(
            self.tr("Copie les entrées affichées (le filtre s'applique), la plus ancienne en premier.")
        )
        guard.connect(self.copy_button.clicked, self.copy_all)
        buttons.addWidget(self.copy_button)
        self.export_button = QPushButton(self.tr("E&xporter…"))
        self.export_button.setObjectName("journalExport")
        self.export_button.setAutoDefault(False)
        self.export_button.setToolTip(self.tr("Enregistre le journal dans un fichier texte."))
        guard.connect(self.export_button.clicked, self.export)
        buttons.addWidget(self.export_button)
        self.limit: int | None = SHOWN_ENTRIES
        # (journal, (filter, GM view), entries shown) of the last ``entries()``.
        self._shown: tuple[tuple[str, ...], tuple[str, bool], tuple[tuple[int, str], ...]] | None = None
        self.show_all = QPushButton()
        self.show_all.setObjectName("journalShowAll")
        self.show_all.setAutoDefault(False)
        guard.connect(self.show_all.clicked, self._toggle_all)
        buttons.addWidget(self.show_all)
        layout.addLayout(buttons)
        self.copy_shortcut = QShortcut(
            QKeySequence.StandardKey.Copy, self.view, context=Qt.ShortcutContext.WidgetShortcut
        )
        guard.connect(self.copy_shortcut.activated, self.copy_selected)
        self._refresh()
        vm.changed.connect(self._on_changed)

    # --- what is shown ----------------------------------------------------------------------------------

    def entries(self) -> list[tuple[int, str]]:
        """(index in the journal, entry as this view shows it) of the entries the filter keeps, oldest
        first: the player's view leaves out the GM's lines (``rules.SECRET_MARK``)."""
        needle = folded(self.search.text().strip())
        journal = self.vm.journal
        mode = (needle, self.vm.gm_view)
        done = 0
        shown: list[tuple[int, str]] = []
        cached = self._shown
        # The journal only grows by its end between two edits: the entries already filtered are kept
        # (5,000 entries: each edit filters its own new entries only).
        if cached is not None and cached[1] == mode and len(cached[0]) <= len(journal):
            before = cached[0]
            if journal[: len(before)] == before:
                done, shown = len(before), list(cached[2])
        for index in range(done, len(journal)):
            visible = self.vm.visible_entry(journal[index])
            if visible and (not needle or needle in folded(visible)):
                shown.append((index, visible))
        self._shown = (journal, mode, tuple(shown))
        return shown

    def _refresh(self) -> None:
        kept = self.entries()
        first = 0 if self.limit is None else max(0, len(kept) - self.limit)
        window = kept[first:]  # only what the model shows is handed to it
        self.model.set_entries([e for _, e in window], keys=[i for i, _ in window])
        total = len(kept)
        filtering = bool(self.search.text().strip())
        self.found.setVisible(filtering)
        self.found.setText(self.tr("{0} entrée(s) sur {1}").format(total, len(self.vm.journal)))
        self.show_all.setVisible(total > SHOWN_ENTRIES)
        if self.limit is None:
            self.show_all.setText(self.tr("N'afficher que les {0} dernières entrées").format(SHOWN_ENTRIES))
        else:
            self.show_all.setText(self.tr("Afficher tout le journal ({0} entrées)").format(total))
        has = bool(total)
        self.copy_button.setEnabled(has)
        self.export_button.setEnabled(bool(self.vm.journal))

    def _toggle_all(self) -> None:
        self.limit = SHOWN_ENTRIES if self.limit is None else None
        self._refresh()

    def _on_changed(self, changes: Changes) -> None:
        if changes.journal or changes.everything:
            self._refresh()
            # The rows laid out now rather than by the view's zero timer: the new entry is painted in
            # the same pass as the rest of the edit (one repaint of the window, not two).
            self.view.executeDelayedItemsLayout()
            self.view.scrollToTop()

    # --- copy and export --------------------------------------------------------------------------------

    def text(self, entries: list[str] | None = None) -> str:
        """Entries as plain text, oldest first, a blank line between them."""
        chosen = entries if entries is not None else [e for _, e in self.entries()]
        return "\n\n".join(chosen) + ("\n" if chosen else "")

    def copy_all(self) -> None:
        QApplication.clipboard().setText(self.text())
        self.vm.notified.emit(self.tr("Journal copié ({0} entrées).").format(len(self.entries())), False)

    def copy_selected(self) -> None:
        rows = self.view.selectionModel().selectedRows() if self.view.selectionModel() else []
        index = rows[0] if rows else self.view.currentIndex()
        if not index.isValid():
            return
        QApplication.clipboard().setText(self.model.entry(index.row()))

    def export(self) -> None:
        """The journal (as this view shows it, the filter set aside) in a UTF-8 text file."""
        name = self.vm.sheet.name or self.tr("personnage")
        suggested = re.sub(r"[^\w\-]+", "_", name, flags=re.UNICODE).strip("_").lower() or "journal"
        path = prompts.save_text_path(self, suggested + "-journal.txt")
        if path is None:
            return
        header = self.tr("Journal de {0} — exporté le {1} (horloge de la fiche : {2})").format(
            name, datetime.now().strftime("%d/%m/%Y %H:%M"), self.vm.clock_text()
        )
        body = self.text([self.vm.visible_entry(e) for e in self.vm.journal if self.vm.visible_entry(e)])
        from PySide6.QtCore import QIODevice, QSaveFile  # with the first export (issue 15: not at start-up)

        out = QSaveFile(str(path))
        if not out.open(QIODevice.OpenModeFlag.WriteOnly):
            self.vm.refused.emit(self.tr("Export impossible : {0} ({1}).").format(path, out.errorString()))
            return
        out.write((header + "\n\n" + body).encode("utf-8"))
        if not out.commit():
            self.vm.refused.emit(self.tr("Export impossible : {0} ({1}).").format(path, out.errorString()))
            return
        self.vm.notified.emit(self.tr("Journal exporté dans {0}.").format(path), False)

    def _context_menu(self, pos: QPoint) -> None:
        menu = QMenu(self.view)
        index = self.view.indexAt(pos)
        if index.isValid():
            self.view.setCurrentIndex(index)
            copy_one = menu.addAction(self.tr("Copier l'entrée"))
            guard.connect(copy_one.triggered, self.copy_selected)
        copy_all = menu.addAction(self.tr("Copier le journal affiché"))
        guard.connect(copy_all.triggered, self.copy_all)
        export = menu.addAction(self.tr("Exporter le journal…"))
        guard.connect(export.triggered, self.export)
        self.context_menu = menu  # tests look at it
        menu.popup(self.view.viewport().mapToGlobal(pos))
