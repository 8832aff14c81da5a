"""The window fits the screen (issue 10, items 11–13 and 17), from 1024×700 up."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtWidgets import QApplication, QGroupBox, QPushButton, QScrollArea, QWidget

import rules
from sheet_app.main_window import MainWindow
from ui.sheet.sheet_view import Column

SMALL = (1024, 700)


def settle() -> None:
    for _ in range(6):
        QApplication.processEvents()


def small(make_window: Any) -> MainWindow:
    win: MainWindow = make_window()
    win.resize(*SMALL)
    settle()
    return win


# --- item 11: the welcome page -------------------------------------------------------------------------


@pytest.mark.parametrize("system", rules.SYSTEMS)
def test_the_welcome_page_scrolls_and_never_grows_the_window(qtbot: Any, make_window: Any, system: str) -> None:
    win = small(make_window)
    form = win.welcome.new_form
    form.system.setFocus()
    form.system.setCurrentIndex(form.system.findData(system))
    settle()
    assert (win.width(), win.height()) == SMALL
    assert win.minimumSizeHint().width() <= SMALL[0] and win.minimumSizeHint().height() <= SMALL[1]
    area = win.welcome_area
    area.ensureWidgetVisible(form.create_button)
    settle()
    top_left = form.create_button.mapTo(area.viewport(), QPoint(0, 0))
    inside = QRect(top_left, form.create_button.size())
    assert area.viewport().rect().contains(inside), "« Créer la fiche » can be reached"


# --- item 12: every sheet at 1024×700 ------------------------------------------------------------------


@pytest.mark.parametrize("system", rules.SYSTEMS)
def test_every_sheet_is_usable_at_1024x700(qtbot: Any, make_window: Any, system: str) -> None:
    win = small(make_window)
    view = win.open_demo(system)
    assert view is not None
    settle()
    hint = win.minimumSizeHint()
    assert hint.width() <= SMALL[0] and hint.height() <= SMALL[1], hint
    assert (win.width(), win.height()) == SMALL
    columns = view.findChildren(Column)
    assert len(columns) == 3  # left, middle, and the states on the right
    for column in columns:
        # Nothing cut on the side: the panels fit the column's width (it scrolls only downwards).
        assert column.horizontalScrollBar().maximum() == 0, column.widget().minimumSizeHint()
    for box in view.findChildren(QGroupBox):
        if box.isVisible() and box.title():
            needed = box.fontMetrics().horizontalAdvance(box.title().replace("&", ""))
            assert box.width() >= needed, f"« {box.title()} » is cut"
    assert view.conditions.view.height() >= 6 * view.conditions.view.fontMetrics().lineSpacing()
    assert view.journal.view.height() >= 60
    for button in view.findChildren(QPushButton):
        if button.isVisible() and not isinstance(button.parentWidget(), QScrollArea):
            assert button.width() >= button.minimumSizeHint().width() - 1, button.text()


def test_the_first_window_size_follows_the_screen(qtbot: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(MainWindow, "_available", lambda self: QRect(0, 0, 1024, 700))
    win = MainWindow()
    qtbot.addWidget(win)
    assert win.width() <= 1024 and win.height() <= 700
    assert win.sizeHint().width() <= 1024


def test_a_geometry_from_a_bigger_screen_is_brought_back(qtbot: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    first = MainWindow()
    qtbot.addWidget(first)
    first.resize(1900, 1050)
    first.settings.set_geometry(first.saveGeometry())
    monkeypatch.setattr(MainWindow, "_available", lambda self: QRect(0, 0, 1024, 700))
    again = MainWindow()
    qtbot.addWidget(again)
    assert again.width() <= 1024 and again.height() <= 700


# --- item 13: messages never move the controls ---------------------------------------------------------


def positions(widgets: list[QWidget]) -> list[QPoint]:
    return [w.mapToGlobal(QPoint(0, 0)) for w in widgets]


@pytest.mark.parametrize("system", ["douaratil", "d20"])
def test_a_message_never_moves_the_controls_under_the_pointer(qtbot: Any, make_window: Any, system: str) -> None:
    win = small(make_window)
    view = win.open_demo(system)
    assert view is not None
    settle()
    watched = [view.health.quick.amount, *view.rests.buttons.values()]
    if view.dying is not None:
        watched += list(view.dying.buttons.values())
    before = positions(watched)
    view.messages.show_message("Une ligne\nDeux lignes\nTrois lignes\nQuatre lignes", "error")
    settle()
    assert positions(watched) == before
    view.messages.clear()
    settle()
    assert positions(watched) == before


def test_five_quick_clicks_on_plus_one_round_are_five_rounds(qtbot: Any, make_window: Any) -> None:
    win = small(make_window)
    view = win.open_demo("d20")
    assert view is not None and view.dying is not None
    settle()
    button = view.dying.buttons["tick_round"]
    clock = view.vm.sheet.clock
    for _ in range(5):
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert view.vm.sheet.clock == clock + 5 * 6


# --- item 17: Affichage › Accueil --------------------------------------------------------------------


def test_the_welcome_page_is_a_tab_and_the_documents_stay(qtbot: Any, make_window: Any) -> None:
    win = small(make_window)
    a = win.open_demo("douaratil")
    b = win.open_demo("d20")
    assert not win.is_welcome_shown() and win.tabs.indexOf(win.welcome_area) < 0
    win.act_welcome.trigger()
    assert win.is_welcome_shown()
    assert win.tabs.count() == 3 and win.tabs.indexOf(a) > 0 and win.tabs.indexOf(b) > 0
    assert win.tabs.tabText(win.tabs.indexOf(win.welcome_area)) == "Accueil"
    # A document made from the welcome tab opens beside it; the tab stays (it was asked for).
    win.open_demo("segments")
    assert win.tabs.indexOf(win.welcome_area) == 0 and len(win.docs) == 3
    win.tabs.tabCloseRequested.emit(0)
    assert win.tabs.indexOf(win.welcome_area) < 0 and len(win.docs) == 3


def test_alone_the_welcome_tab_cannot_be_closed(qtbot: Any, make_window: Any) -> None:
    win = small(make_window)
    assert win.is_welcome_shown()
    win.tabs.tabCloseRequested.emit(0)
    assert win.is_welcome_shown()
