"""A journal entry drawn as the sheet and the GM table both show it: the title in bold (its date in grey),
what happened, the dice in grey italics, the GM's lines in purple italics. One delegate for both documents.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, QRectF, QSize, Qt
from PySide6.QtGui import QFont, QPainter, QPalette, QPixmap
from PySide6.QtWidgets import QAbstractItemView, QStyledItemDelegate, QWidget

import rules
from ui.common.titles import CLOCK_SEPARATOR

if TYPE_CHECKING:
    from PySide6.QtGui import QTextDocument
    from PySide6.QtWidgets import QStyleOptionViewItem

DICE_PREFIX = "Dés : "
MARGIN = 4
CACHE_LIMIT = 5000
DOCUMENTS_KEPT = 120
PICTURES_KEPT = 120
# Entries shown at once: a campaign's journal grows to thousands of entries, and a list view lays out
# every row it holds after each change. The rest is one click away.
SHOWN_ENTRIES = 100


def entry_html(text: str) -> str:
    """An entry as rich text: its title in bold (its date in grey), the dice in grey italics, the GM's
    lines (``rules.SECRET_MARK``, GM view only) in purple italics. Everything is escaped: a name or a
    note holding markup shows as text."""
    import html  # with the first entry drawn (issue 15: a start with an empty journal draws none)

    lines = text.split("\n")
    title, sep, when = lines[0].rpartition(CLOCK_SEPARATOR)
    if not sep:
        title, when = lines[0], ""
    head = f"<b>{html.escape(title)}</b>"
    if when:
        head += f"<span style='color:#666666'>{html.escape(CLOCK_SEPARATOR + when)}</span>"
    parts = [head]
    for line in lines[1:]:
        if line.startswith(DICE_PREFIX):
            parts.append(f"<span style='color:#555555'><i>{html.escape(line)}</i></span>")
        elif line.startswith(rules.SECRET_MARK):
            parts.append(f"<span style='color:#6a1b9a'><i>{html.escape(line)}</i></span>")
        else:
            parts.append(html.escape(line))
    return "<br>".join(parts)


def folded(text: str) -> str:
    """For searching: no case, no accents (« epuise » finds « Épuisé »)."""
    import unicodedata  # with the first search (issue 15: not at start-up)

    decomposed = unicodedata.normalize("NFD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


class JournalDelegate(QStyledItemDelegate):
    """Draws an entry as rich text (bold title), wrapped to the width of the list.

    Entries never change once written, so their heights are cached per width: a new entry costs one
    layout, not one per entry already in the journal.
    """

    def __init__(self, parent: QWidget | None = None, *, pictures: bool = False) -> None:
        """``pictures``: keep each row's picture and paint it again from there (the sheet's journal view,
        a ``QTreeView`` whose rows are checked pixel for pixel against the direct drawing)."""
        super().__init__(parent)
        self._keep_pictures = pictures
        self._heights: dict[tuple[str, int, str], QSize] = {}
        self._documents: dict[tuple[str, int, str], QTextDocument] = {}
        self._pictures: dict[tuple[object, ...], QPixmap] = {}
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
            # With the first entry measured, as ``QStyleOptionViewItem``: an empty journal (a new sheet, the
            # four demos) is painted without their 13 enum classes (issue 15).
            from PySide6.QtGui import QTextDocument

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
        """The row from its picture when it was drawn before in the same state (issue 15: a new entry
        pushes every row on screen down, and each was drawn again through Python and the text layout)."""
        from PySide6.QtWidgets import QStyle  # with the first entry drawn (issue 15: ~20 enum classes)

        view = option.widget
        viewport = view.viewport() if isinstance(view, QAbstractItemView) else None
        rect = option.rect
        ratio = painter.device().devicePixelRatio() if painter.device() is not None else 1.0
        if (
            not self._keep_pictures
            or viewport is None
            or not viewport.autoFillBackground()
            or painter.transform().type().value > 1
        ):
            # Drawn where it shows: only the lines of the entry that the viewport shows (a long entry —
            # a blow to a thousand creatures — is several screens tall, and only its top is seen).
            self._paint(painter, option, index, viewport.rect() if viewport is not None else None)
            return
        key = (
            str(index.data(Qt.ItemDataRole.DisplayRole) or ""),
            rect.width(),
            rect.height(),
            self._font_key(option.font),
            option.state.value,
            option.features.value,
            option.palette.cacheKey(),
            viewport.palette().cacheKey(),
            ratio,
        )
        picture = self._pictures.get(key)
        if picture is None:
            picture = QPixmap(QSize(round(rect.width() * ratio), round(rect.height() * ratio)))
            picture.setDevicePixelRatio(ratio)
            picture.fill(Qt.GlobalColor.transparent)
            # Drawn as the view draws the row: its viewport's background, the row's own (alternate colour,
            # selection) as ``QTreeView.drawRow`` asks the style for it, then the entry as ``_paint`` does.
            under = QPainter(picture)
            under.fillRect(
                QRect(0, 0, rect.width(), rect.height()), viewport.palette().brush(viewport.backgroundRole())
            )
            under.translate(-rect.x(), -rect.y())
            view.style().drawPrimitive(QStyle.PrimitiveElement.PE_PanelItemViewRow, option, under, view)
            self._paint(under, option, index)
            under.end()
            if len(self._pictures) >= PICTURES_KEPT:
                self._pictures.pop(next(iter(self._pictures)))
            self._pictures[key] = picture
        painter.drawPixmap(rect.topLeft(), picture)

    def _paint(
        self,
        painter: QPainter,
        option: QStyleOptionViewItem,
        index: QModelIndex | QPersistentModelIndex,
        shown: QRect | None = None,
    ) -> None:
        """The entry in ``option.rect``; ``shown`` (the viewport's rectangle, in the same coordinates):
        the text is laid out only where it meets ``shown`` (the lines wholly outside it are not drawn,
        the others are drawn whole: the same pixels where the viewport shows them)."""
        from PySide6.QtGui import QAbstractTextDocumentLayout
        from PySide6.QtWidgets import QStyle, QStyleOptionViewItem

        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        doc = self._document(opt, index)
        opt.text = ""
        style = opt.widget.style() if opt.widget is not None else None
        if style is not None:
            style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, opt.widget)
        context = QAbstractTextDocumentLayout.PaintContext()
        if shown is not None:
            rect = opt.rect
            visible = rect.intersected(shown)
            if visible.isEmpty():
                return
            if visible != rect:
                context.clip = QRectF(visible.translated(-rect.x(), -rect.y()))
        selected = bool(opt.state & QStyle.StateFlag.State_Selected)
        role = QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        context.palette.setColor(QPalette.ColorRole.Text, opt.palette.color(role))
        painter.save()
        painter.translate(opt.rect.topLeft())
        doc.documentLayout().draw(painter, context)
        painter.restore()

    def createEditor(
        self, parent: QWidget, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> QWidget | None:
        return None  # an entry is never edited (the journal's model is a list of strings that Qt could edit)

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:
        view = option.widget
        width = view.viewport().width() - 2 if isinstance(view, QAbstractItemView) else option.rect.width()
        text = str(index.data(Qt.ItemDataRole.DisplayRole) or "")
        key = (text, width, self._font_key(option.font))
        size = self._heights.get(key)
        if size is None:
            if len(self._heights) > CACHE_LIMIT:
                self._heights.clear()
            from PySide6.QtWidgets import QStyleOptionViewItem

            opt = QStyleOptionViewItem(option)
            opt.rect.setWidth(width)
            doc = self._document(opt, index)
            size = QSize(width, int(doc.size().height()))
            self._heights[key] = size
        return size
