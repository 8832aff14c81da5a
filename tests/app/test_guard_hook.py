"""The outer guard (issue 16 item 6): « Every slot connected to a user action or a timer has an outer
guard: a bug shows a French message and is logged, never an exception escaping into Qt (today the
Temporaires quick entry lets `1d6/0` escape with no message at all). »

pytest-qt turns an exception in a slot into a test failure with its own hook; the tests that check
ours take it off (``qt_no_exception_capture``) and put ``sys.excepthook`` back afterwards.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt, QTimer

import rules
from sheet_app import app, guard
from sheet_app.main_window import MainWindow
from tests.files.test_hostile import english_in


@pytest.fixture
def guarded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The guard installed as the app installs it, its log in tmp_path; the hook restored after."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    before = sys.excepthook
    guard.install()
    yield guard.log_path()
    sys.excepthook = before
    for handler in list(guard.log.handlers):
        if getattr(handler, "baseFilename", "").startswith(str(tmp_path)):
            guard.log.removeHandler(handler)
            handler.close()


@pytest.mark.qt_no_exception_capture
def test_a_bug_behind_a_menu_entry_is_said_in_french_and_logged(
    qtbot: Any, window: MainWindow, answer: Any, guarded: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise ZeroDivisionError("division by zero")

    real_describe = rules.describe
    monkeypatch.setattr(rules, "describe", broken)  # « À propos » now meets a bug
    errors = answer("show_error", None)
    window.act_about.trigger()
    ((parent, title, text),) = errors.calls
    assert parent is None or isinstance(parent, MainWindow)
    assert title == "Erreur inattendue" and "l'action n'a pas abouti" in text and str(guarded) in text
    assert not english_in(text.replace(str(guarded), ""), guarded)
    logged = guarded.read_text(encoding="utf-8")
    assert "ZeroDivisionError: division by zero" in logged and "Traceback" in logged
    monkeypatch.setattr(rules, "describe", real_describe)
    info = answer("show_info", None)
    window.act_about.trigger()  # the window goes on: the same entry works again
    assert len(info.calls) == 1 and window.isVisible()


@pytest.mark.qt_no_exception_capture
def test_a_bug_in_a_timer_is_said_once_even_if_saying_it_fails(
    qtbot: Any, window: MainWindow, guarded: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shown: list[str] = []

    def failing_dialog(text: str) -> None:
        shown.append(text)
        raise RuntimeError("no screen")

    monkeypatch.setattr(guard, "_show_dialog", failing_dialog)

    def tick() -> None:
        raise KeyError("a timer's bug")

    QTimer.singleShot(0, tick)
    qtbot.waitUntil(lambda: bool(shown), timeout=3000)
    qtbot.wait(50)
    assert len(shown) == 1
    logged = guarded.read_text(encoding="utf-8")
    assert 'KeyError: "a timer\'s bug"' in logged and "le message d'erreur n'a pas pu s'afficher" in logged


def test_interrupts_keep_their_meaning(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[type[BaseException]] = []
    monkeypatch.setattr(sys, "__excepthook__", lambda kind, exc, tb: seen.append(kind))
    guard.handle(KeyboardInterrupt, KeyboardInterrupt(), None, show=lambda text: seen.append(str))
    assert seen == [KeyboardInterrupt]


def test_the_app_installs_the_guard(monkeypatch: pytest.MonkeyPatch) -> None:
    installed: list[bool] = []
    monkeypatch.setattr(guard, "install", lambda: installed.append(True))
    monkeypatch.setattr(app, "start", lambda window, files: None)
    monkeypatch.setattr("PySide6.QtWidgets.QApplication.exec", lambda self=None: 0)
    assert app.run([]) == 0
    assert installed == [True]


def test_dice_that_divide_by_zero_in_the_temporary_points_entry_are_refused_in_french(
    qtbot: Any, window: MainWindow
) -> None:
    """The example of the item, through the real quick entry: a French refusal, no exception."""
    view = window.open_demo("douaratil")
    assert view is not None
    before = view.vm.sheet
    window.act_temporary.trigger()
    entry = view.health.quick.amount
    entry.clear()
    qtbot.keyClicks(entry, "1d6/0")
    qtbot.keyClick(entry, Qt.Key.Key_Return)
    assert view.vm.sheet == before
    text = view.messages.text()
    assert text and not english_in(text, Path("x")), text
