"""The message bar (ui/common/messages.py) lays a message out once, where a resizable scroll area would
have put it: the same pixels, the same scrolling, without the area's resize loop (issue 11)."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QSize
from PySide6.QtGui import QFont, QImage
from PySide6.QtWidgets import QLabel, QScrollArea, QVBoxLayout, QWidget

from ui.common import messages
from ui.common.messages import MessageBar

SHORT = "Dégâts (1) : 12 créatures touchées. Tombés : Loup 3, Loup 7."
LONG = ("Loup 12 : subit 3 dégâts (1d6 : 3), tombe à 0 PV et meurt. " * 40)[:2171]
TEXTS = [
    "",
    "Court.",
    SHORT,
    LONG,
    "ligne 1\nligne 2\nligne 3",
    "x" * 300,
    *("mot " * n for n in range(20, 80, 3)),  # one line, two, then just over two: the scroll bar's edge
]


def _reference(parent: QWidget) -> MessageBar:
    """The bar as it was built before: a plain word-wrapped label in a plain resizable scroll area."""
    bar = MessageBar(parent)
    bar._place = lambda: None  # type: ignore[method-assign]
    ours: Any = bar._scroll
    label: Any = bar._label
    plain = QLabel()
    plain.setObjectName(label.objectName())
    plain.setWordWrap(True)
    plain.setTextInteractionFlags(label.textInteractionFlags())
    plain.setTextFormat(label.textFormat())
    plain.setAlignment(label.alignment())
    plain.setSizePolicy(label.sizePolicy())
    scroll = QScrollArea()
    scroll.setObjectName(ours.objectName())
    scroll.setWidget(plain)
    scroll.setWidgetResizable(True)
    scroll.setFrameShape(ours.frameShape())
    scroll.setHorizontalScrollBarPolicy(ours.horizontalScrollBarPolicy())
    scroll.setStyleSheet(ours.styleSheet())
    bar.layout().replaceWidget(ours, scroll)
    ours.setParent(None)
    ours.deleteLater()
    bar._scroll = scroll
    bar._label = plain
    return bar


def _window(qtbot: Any, width: int, reference: bool = False) -> tuple[QWidget, MessageBar]:
    window = QWidget()
    qtbot.addWidget(window)
    layout = QVBoxLayout(window)
    bar = _reference(window) if reference else MessageBar(window)
    layout.addWidget(bar)
    layout.addStretch(1)
    window.resize(width, 200)
    window.show()
    qtbot.waitExposed(window)
    return window, bar


def _pixels(widget: QWidget) -> bytes:
    image = widget.grab().toImage().convertToFormat(QImage.Format.Format_ARGB32)
    return bytes(image.constBits())


@pytest.mark.parametrize("width", [320, 700, 1233])
def test_same_pixels_and_scrolling_as_a_resizable_scroll_area(qtbot: Any, qapp: Any, width: int) -> None:
    ours_window, ours = _window(qtbot, width)
    theirs_window, theirs = _window(qtbot, width, reference=True)
    hints = [(w.sizeHint(), w.minimumSizeHint()) for w in (ours, ours_window)]
    # The bar asks its parents for the same room as before (its size hints and theirs).
    assert hints == [(w.sizeHint(), w.minimumSizeHint()) for w in (theirs, theirs_window)]
    for kind in ("error", "info"):
        for text in TEXTS:
            for bar in (ours, theirs):
                bar.show_message(text, kind)
            qapp.processEvents()
            assert ours._label.geometry() == theirs._label.geometry(), (width, text)
            assert ours._scroll.verticalScrollBar().isVisible() == theirs._scroll.verticalScrollBar().isVisible()
            assert ours._scroll.verticalScrollBar().maximum() == theirs._scroll.verticalScrollBar().maximum()
            assert _pixels(ours_window) == _pixels(theirs_window), (width, kind, text)
            for bar in (ours, theirs):  # scrolled to the end of a long message
                bar._scroll.verticalScrollBar().setValue(bar._scroll.verticalScrollBar().maximum())
            qapp.processEvents()
            assert _pixels(ours_window) == _pixels(theirs_window), (width, kind, text)
    for new_width in (width + 57, width - 100):  # the window resized with a long message shown
        for window in (ours_window, theirs_window):
            window.resize(new_width, 200)
        qapp.processEvents()
        assert ours._label.geometry() == theirs._label.geometry()
        assert _pixels(ours_window) == _pixels(theirs_window)
    for bar in (ours, theirs):
        bar.clear()
    qapp.processEvents()
    assert _pixels(ours_window) == _pixels(theirs_window)
    assert [(w.sizeHint(), w.minimumSizeHint()) for w in (ours, ours_window)] == hints


def test_a_message_is_measured_once_or_twice_never_in_a_loop(
    qtbot: Any, qapp: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[str] = []

    class Counting(messages._Text):
        def heightForWidth(self, width: int) -> int:
            asked.append("heightForWidth")
            return super().heightForWidth(width)

    monkeypatch.setattr(messages, "_Text", Counting)
    _, bar = _window(qtbot, 900)
    qapp.processEvents()
    for text, times in ((SHORT, 1), (LONG, 2), (SHORT + " ", 1), (LONG + " ", 2)):
        asked.clear()
        bar.show_message(text, "info")
        qapp.processEvents()
        bar.repaint()
        # One measure at the viewport's width; a second, without the scroll bar's width, when it scrolls.
        assert asked == ["heightForWidth"] * times, text
    asked.clear()
    bar.clear()
    qapp.processEvents()
    assert asked == []
    # A text already measured at this width (the GM table's reports, damage then healing) is not
    # measured again; another font measures it anew.
    for text in (SHORT, LONG, SHORT + " ", LONG + " "):
        bar.show_message(text, "info")
        qapp.processEvents()
        bar.repaint()
    assert asked == []
    bar._label.setFont(QFont("DejaVu Serif", 15))
    qapp.processEvents()
    asked.clear()
    bar.show_message(SHORT, "info")
    qapp.processEvents()
    assert asked == ["heightForWidth"]
    asked.clear()
    # The label's own size hints (a layout of the whole text each) are not the text's measure.
    bar.show_message(LONG, "info")
    assert bar._label.sizeHint() == bar._label.size()
    assert bar._label.minimumSizeHint() == QSize(0, 0)


def test_still_plain_selectable_text_that_scrolls(qtbot: Any, qapp: Any) -> None:
    _, bar = _window(qtbot, 500)
    bar.show_message("<b>pas du gras</b> " * 30, "warning")
    qapp.processEvents()
    assert bar.text().startswith("<b>pas du gras</b>")
    assert bar._label.textFormat() == messages.Qt.TextFormat.PlainText
    assert bar._label.wordWrap()
    assert bar._label.textInteractionFlags() & messages.Qt.TextInteractionFlag.TextSelectableByMouse
    scroll_bar = bar._scroll.verticalScrollBar()
    assert scroll_bar.isVisible() and scroll_bar.maximum() > 0
    assert bar._label.width() == bar._scroll.viewport().width()
    bar.show_message("Court.", "info")
    qapp.processEvents()
    assert not scroll_bar.isVisible()
    assert bar._label.width() == bar._scroll.viewport().width()


@pytest.mark.parametrize("width", [320, 1233])
def test_heights_remembered_give_the_same_pixels(qtbot: Any, qapp: Any, width: int) -> None:
    """Texts coming back (measured before, at this width or another) are placed and drawn as the
    resizable scroll area draws them: the remembered heights are the ones the text takes."""
    ours_window, ours = _window(qtbot, width)
    theirs_window, theirs = _window(qtbot, width, reference=True)
    for new_width in (width, width + 57, width):
        for window in (ours_window, theirs_window):
            window.resize(new_width, 200)
        for text in (SHORT, LONG, "mot " * 41, SHORT, LONG, "mot " * 41, LONG):
            for bar in (ours, theirs):
                bar.show_message(text, "warning")
            qapp.processEvents()
            assert ours._label.geometry() == theirs._label.geometry(), (new_width, text)
            assert _pixels(ours_window) == _pixels(theirs_window), (new_width, text)
    assert len(ours._label._heights) <= messages.HEIGHTS_KEPT
