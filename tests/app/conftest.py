"""App tests share the GUI fixtures: user folders in tmp, no modal dialog may block, prompt answers;
and main windows that close without asking at the end of a test."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from sheet_app.autosave import AutosaveStore
from sheet_app.main_window import MainWindow
from sheet_app.settings import Settings
from tests.qt_cleanup import collect_qt_garbage
from tests.ui.conftest import Recorder, answer, isolated, make_view
from ui.common import prompts

__all__ = ["Recorder", "answer", "isolated", "make_view", "make_window", "window"]


@pytest.fixture
def make_window(qtbot: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., MainWindow]]:
    """``make_window(settings=None, store=None, seed=5)``: a main window shown at 1280×800."""
    made: list[MainWindow] = []

    def make(settings: Settings | None = None, store: AutosaveStore | None = None, seed: int = 5) -> MainWindow:
        win = MainWindow(settings, random.Random(seed), store=store)
        win.resize(1280, 800)
        win.show()
        qtbot.waitExposed(win)
        # Activation comes a little after the window is shown; shortcuts need an active window.
        win.activateWindow()
        qtbot.waitUntil(win.isActiveWindow, timeout=3000)
        made.append(win)
        return win

    yield make
    # Whatever the test left unsaved is dropped without asking.
    monkeypatch.setattr(prompts, "save_changes", lambda *args: "discard")
    for win in made:
        try:
            win.close()
            win.deleteLater()
        except RuntimeError:  # already deleted by the test
            pass


@pytest.fixture
def window(make_window: Callable[..., MainWindow]) -> MainWindow:
    return make_window()


@pytest.fixture(autouse=True)
def _collect_garbage_after_each_test() -> Iterator[None]:
    yield
    collect_qt_garbage()
