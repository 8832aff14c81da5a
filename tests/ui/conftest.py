"""GUI test fixtures: user folders in tmp, no modal dialog may block, a seeded dice generator."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QDialog, QFileDialog, QMessageBox

import rules
from tests.qt_cleanup import collect_qt_garbage
from ui.common import guard, prompts
from ui.sheet.sheet_view import SheetView

# The guard's own way of telling the user, for the tests of the guard itself.
GUARD_REPORT = guard.report


def _strict_report(where: str) -> None:
    """In tests a bug caught by the guard is raised again: pytest-qt fails the test with it."""
    raise  # called from the guard's ``except`` block: re-raises the bug


def _blocked(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError("a modal dialog was opened in a test without being patched")


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Settings and user folders point at tmp_path; every modal dialog fails instead of blocking."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_DOCUMENTS_DIR", str(tmp_path / "documents"))
    monkeypatch.setattr(QDialog, "exec", _blocked)
    monkeypatch.setattr(QMessageBox, "exec", _blocked)
    monkeypatch.setattr(QFileDialog, "getOpenFileNames", _blocked)
    monkeypatch.setattr(QFileDialog, "getSaveFileName", _blocked)
    monkeypatch.setattr(guard, "report", _strict_report)
    guard.set_reporter(None)
    yield
    guard.set_reporter(None)


class Recorder:
    """Stands for a prompt: records its calls and returns the answers given in order."""

    def __init__(self, *answers: Any) -> None:
        self.answers = list(answers)
        self.calls: list[tuple[Any, ...]] = []

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.calls.append(args + tuple(kwargs.items()))
        if not self.answers:
            raise AssertionError(f"unexpected prompt: {args!r}")
        return self.answers.pop(0)


@pytest.fixture
def answer(monkeypatch: pytest.MonkeyPatch) -> Callable[..., Recorder]:
    """``answer("keep_or_replace", True)`` makes that prompt answer True (once per given answer)."""

    def patch(name: str, *answers: Any) -> Recorder:
        recorder = Recorder(*answers)
        monkeypatch.setattr(prompts, name, recorder)
        return recorder

    return patch


@pytest.fixture
def make_view(qtbot: Any) -> Callable[..., SheetView]:
    """A sheet view over ``sheet`` (default: the system's demo sheet), shown at 1280×800."""

    def make(system: str = "douaratil", sheet: Any = None, seed: int = 7) -> SheetView:
        view = SheetView(sheet if sheet is not None else rules.demo_sheet(system), rng=random.Random(seed))
        qtbot.addWidget(view)
        view.resize(1280, 760)
        view.show()
        qtbot.waitExposed(view)
        return view

    return make


@pytest.fixture(autouse=True)
def _collect_garbage_after_each_test() -> Iterator[None]:
    yield
    collect_qt_garbage()
