"""The journal panel: what happened, newest first, with the dice rolled.

Each entry is drawn as its title in bold, what happened, and the dice line in grey.
"""

from __future__ import annotations

import html

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QSize, Qt
from PySide6.QtGui import QAbstractTextDocumentLayout, QFont, QPainter, QPalette, QTextDocument
from PySide6.QtWidgets import (
    QAbstractItemView,
    QGroupBox,
    QListView,
    QPushButton,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QVBoxLayout,
    QWidget,
)

from ui.common import guard
from ui.common.models import JournalModel
from ui.sheet.viewmodel import Changes, SheetViewModel

DICE_PREFIX = "Dés : "
MARGIN = 4
CACHE_LIMIT = 5000
DOCUMENTS_KEPT = 120
# Entries shown at once: a campaign's journal grows to thousands of entries, and a list view lays out
# every row it holds after each change. The rest is one click away.
SHOWN_ENTRIES = 100


def entry_html(text: str) -> str:
    lines = text.split("\n")
    parts = [f"<b>{html.escape(lines[0])}</b>"]
    for line in lines[1:]:
        if line.startswith(DICE_PREFIX):
            parts.append(f"<span style='color:#555555'><i>{html.escape(line)}</i></span>")
        else:
            parts.append(html.escape(line))
    return "<br>".join(parts)


class JournalDelegate(QStyledItemDelegate):
    """Draws an entry as rich text (bold title), wrapped to the width of the list.

    Entries never change once written, so their heights are cached per width: a new entry costs one
    layout, not one per entry already in the journal.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._heights: dict[tuple[str, int, str], QSize] = {}
        self._documents: dict[tuple[str, int, str], QTextDocument] = {}
        self._font: QFont | None = None
        self._key = ""

    def _font_key(self, font: QFont) -> str:
        """``font.key()`` costs more than comparing fonts, and a list asks for every row's size."""
        if self._font is None or font != self._font:
            self._font, self._key = QFont(font), font.key()
        return self._key

    def _document(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QTextDocument:
        text = str(index.data(Qt.ItemDataRole.DisplayRole) or "")
        width = max(option.rect.width(), 80)
        key = (text, width, self._font_key(option.font))
        doc = self._documents.get(key)
        if doc is None:
            # Parented to the delegate: Qt deletes what is left with the view, before the application.
            doc = QTextDocument(self)
            doc.setDefaultFont(option.font)
            doc.setDocumentMargin(MARGIN)
            doc.setHtml(entry_html(text))
            doc.setTextWidth(width)
            # Laid-out documents of the entries on screen are kept: repainting is then drawing only.
            if len(self._documents) >= DOCUMENTS_KEPT:
                self._documents.pop(next(iter(self._documents))).deleteLater()
            self._documents[key] = doc
        return doc

    def paint(
        self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> None:
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        doc = self._document(opt, index)
        opt.text = ""
        style = opt.widget.style() if opt.widget is not None else None
        if style is not None:
            style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, opt.widget)
        context = QAbstractTextDocumentLayout.PaintContext()
        selected = bool(opt.state & QStyle.StateFlag.State_Selected)
        role = QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        context.palette.setColor(QPalette.ColorRole.Text, opt.palette.color(role))
        painter.save()
        painter.translate(opt.rect.topLeft())
        doc.documentLayout().draw(painter, context)
        painter.restore()

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:
        view = option.widget
        width = view.viewport().width() - 2 if isinstance(view, QAbstractItemView) else option.rect.width()
        text = str(index.data(Qt.ItemDataRole.DisplayRole) or "")
        key = (text, width, self._font_key(option.font))
        size = self._heights.get(key)
        if size is None:
            if len(self._heights) > CACHE_LIMIT:
                self._heights.clear()
            opt = QStyleOptionViewItem(option)
            opt.rect.setWidth(width)
            doc = self._document(opt, index)
            size = QSize(width, int(doc.size().height()))
            self._heights[key] = size
        return size


class JournalPanel(QGroupBox):
    def __init__(self, vm: SheetViewModel, parent: QWidget | None = None) -> None:
        super().__init__(self.tr("Journal"), parent)
        self.vm = vm
        layout = QVBoxLayout(self)
        self.model = JournalModel(self)
        self.view = QListView()
        self.view.setObjectName("journalView")
        self.view.setAccessibleName(self.tr("Journal, le plus récent en haut"))
        self.view.setModel(self.model)
        self.view.setItemDelegate(JournalDelegate(self.view))
        self.view.setWordWrap(True)
        self.view.setAlternatingRowColors(True)
        self.view.setResizeMode(QListView.ResizeMode.Adjust)
        self.view.setLayoutMode(QListView.LayoutMode.Batched)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        layout.addWidget(self.view)
        self.limit: int | None = SHOWN_ENTRIES
        self.show_all = QPushButton()
        self.show_all.setObjectName("journalShowAll")
        guard.connect(self.show_all.clicked, self._toggle_all)
        layout.addWidget(self.show_all)
        self._refresh()
        vm.changed.connect(self._on_changed)

    def _refresh(self) -> None:
        self.model.set_entries(self.vm.journal, self.limit)
        total = len(self.vm.journal)
        self.show_all.setVisible(total > SHOWN_ENTRIES)
        if self.limit is None:
            self.show_all.setText(self.tr("N'afficher que les {0} dernières entrées").format(SHOWN_ENTRIES))
        else:
            self.show_all.setText(self.tr("Afficher tout le journal ({0} entrées)").format(total))

    def _toggle_all(self) -> None:
        self.limit = SHOWN_ENTRIES if self.limit is None else None
        self._refresh()

    def _on_changed(self, changes: Changes) -> None:
        if changes.journal or changes.everything:
            self._refresh()
            self.view.scrollToTop()
