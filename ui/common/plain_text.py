"""Text from a file or a user is shown as text, never as markup (issue 16, item 13).

A sheet name, a wound's note, a journal line or a file name may hold ``<img src=…>`` or a link: Qt
would render them wherever it guesses rich text (labels in « auto » format, tooltips, message
boxes). Two application-wide rules, installed once by the main window:

- every ``QLabel`` is plain text (a label of our own that wants rich text sets the ``richText``
  property; none does today);
- every tooltip is shown as the literal text it holds: widgets', item views' (the journal, the
  wounds, the states) and tab bars'. Our own tooltips are written as plain text too.

Both go through the application's one event filter (``app_events``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QModelIndex, QObject, Qt
from PySide6.QtGui import QHelpEvent
from PySide6.QtWidgets import QAbstractItemView, QApplication, QLabel, QTabBar, QToolTip, QWidget

from ui.common import app_events

if TYPE_CHECKING:  # the message box's class comes with the first box (issue 15)
    from PySide6.QtWidgets import QMessageBox

_installed: PlainTextPolicy | None = None


def literal(text: str) -> str:
    """Rich text that shows ``text`` exactly as it is (markup included, as characters), line breaks kept."""
    import html  # with the first tooltip (issue 15: not at start-up)

    if not text:
        return ""
    return "<p style='white-space:pre-wrap'>" + html.escape(text) + "</p>"


def tooltip_text(widget: QWidget, event: QHelpEvent) -> tuple[str, bool]:
    """The tooltip Qt would show for ``event`` on ``widget`` (and whether we know how to find it)."""
    parent = widget.parentWidget()
    if isinstance(parent, QAbstractItemView) and widget is parent.viewport():
        index: QModelIndex = parent.indexAt(event.pos())
        value = index.data(Qt.ItemDataRole.ToolTipRole) if index.isValid() else None
        return (str(value) if value else ""), True
    if isinstance(widget, QTabBar):
        at = widget.tabAt(event.pos())
        return (widget.tabToolTip(at) if at >= 0 else ""), True
    if isinstance(widget, (QAbstractItemView,)):
        return "", False
    return widget.toolTip(), True


class PlainTextPolicy:
    """Labels become plain text when polished; tooltips are shown literally (through ``app_events``:
    the application's one event filter)."""

    @staticmethod
    def polish(label: QWidget) -> None:
        if isinstance(label, QLabel) and not label.property("richText"):
            label.setTextFormat(Qt.TextFormat.PlainText)

    @staticmethod
    def tooltip(watched: QObject, event: QEvent) -> bool:
        if not isinstance(watched, QWidget) or not isinstance(event, QHelpEvent):
            return False
        text, known = tooltip_text(watched, event)
        if known:
            if text:
                QToolTip.showText(event.globalPos(), literal(text), watched)
            else:
                QToolTip.hideText()
                event.ignore()
            return True
        return False


def install(app: QApplication | None = None) -> PlainTextPolicy:
    global _installed
    if _installed is None:
        events = app_events.hub(app)
        _installed = PlainTextPolicy()
        events.on_polish((QLabel,), _installed.polish)
        events.on_tooltip(_installed.tooltip)
        for widget in app_events.existing(QLabel):
            if not widget.property("richText"):
                widget.setTextFormat(Qt.TextFormat.PlainText)
    return _installed


def plain_box(box: QMessageBox) -> QMessageBox:
    """A message box whose text (and informative text) is plain, whatever it holds."""
    box.setTextFormat(Qt.TextFormat.PlainText)
    return box
