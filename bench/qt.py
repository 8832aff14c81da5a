"""Qt helpers of the benches: an isolated app (off screen, user folders in a temporary folder), the real
main window, events processed until quiet, paints counted."""

from __future__ import annotations

import os
import random
import tempfile
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QAbstractEventDispatcher, QEvent, QEventLoop, QObject
from PySide6.QtWidgets import QApplication

MAX_PASSES = 200


def app() -> QApplication:
    instance = QApplication.instance()
    return instance if isinstance(instance, QApplication) else QApplication(["bench"])


def isolate() -> Path:
    """User folders (settings, autosave, recent files) in a fresh temporary folder."""
    folder = Path(tempfile.mkdtemp(prefix="sheet_app_bench_"))
    os.environ["XDG_CONFIG_HOME"] = str(folder / "config")
    os.environ["XDG_DATA_HOME"] = str(folder / "data")
    os.environ["XDG_STATE_HOME"] = str(folder / "state")
    os.environ["XDG_CACHE_HOME"] = str(folder / "cache")
    return folder


def settle() -> int:
    """Process events until a pass finds nothing to do (posted events, layouts, timers due, paints);
    the number of passes that did something."""
    dispatcher = QAbstractEventDispatcher.instance()
    flags = QEventLoop.ProcessEventsFlag.AllEvents
    passes = 0
    while passes < MAX_PASSES and dispatcher.processEvents(flags):
        passes += 1
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    return passes


class PaintCounter(QObject):
    """Counts the widgets painted while installed (a diagnostic, never inside a timed run)."""

    def __init__(self) -> None:
        super().__init__()
        self.paints = 0
        self.layouts = 0

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind == QEvent.Type.Paint:
            self.paints += 1
        elif kind == QEvent.Type.LayoutRequest:
            self.layouts += 1
        return False

    def __enter__(self) -> PaintCounter:
        app().installEventFilter(self)
        return self

    def __exit__(self, *exc: object) -> None:
        app().removeEventFilter(self)


def main_window(rng_seed: int = 1) -> Any:
    """The app's real main window at 1280×800, shown, with its own autosave store, events quiet."""
    from sheet_app.autosave import AutosaveStore
    from sheet_app.main_window import MainWindow
    from sheet_app.settings import Settings
    from ui.common import prompts

    # Nothing the bench does is worth keeping: closing a document never asks.
    prompts.save_changes = lambda *args, **kwargs: "discard"
    store = AutosaveStore()
    window = MainWindow(Settings(), random.Random(rng_seed), store=store)
    window.resize(1280, 800)
    window.show()
    settle()
    return window


def close_window(window: Any) -> None:
    """Close without questions (nothing the bench did is worth saving)."""
    window.close()
    window.store.close()
    settle()


def rss_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")
