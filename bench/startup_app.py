"""One start of the real app (run as a process by ``bench.startup``), until what the user waits for is
painted, then exit at once (no tear-down, as the floor).

``startup_app.py sheet FILE``: ``sheet-app FILE`` until the sheet (``SheetView``) has painted;
``startup_app.py welcome``: ``sheet-app`` alone, first run, until the welcome page has painted.

The app is started as ``sheet-app`` starts it, its imports in its own order: this script imports
nothing of Qt before the app does (PySide6's import hook costs every module imported after it, so a
harness that imported Qt first would measure a start no user has). The watch for the first paint is an
event filter on the awaited widget alone, put there when the app's ``start`` has opened its documents
(before the window is shown): an application-wide Python filter would see every event of every object,
and the first one sent to an object of a Qt class PySide does not expose (a ``QGestureManager``, a line
edit's control) makes PySide load every Qt class not yet loaded, with their enums (~180, ~60 ms): a cost
of the harness, not of the app."""

import os
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import sheet_app.app as entry

WAITED = sys.argv[1]
_start = entry.start
_keep: list[object] = []


def _watched_start(window, files):  # type: ignore[no-untyped-def]
    from PySide6.QtCore import QEvent, QObject, QTimer

    _start(window, files)
    if WAITED == "sheet":
        target = next(iter(window.docs))  # the sheet's view (``SheetView``), the one document opened
        assert type(target).__name__ == "SheetView", target
    else:
        assert not window.docs, window.docs
        target = window.welcome  # the page the welcome tab builds when it shows (built here instead)
        assert type(target).__name__ == "WelcomePage", target

    class FirstPaint(QObject):
        def eventFilter(self, watched: QObject, event: QEvent) -> bool:
            if event.type() == QEvent.Type.Paint:
                QTimer.singleShot(0, lambda: os._exit(0))  # after the whole pass is painted
            return False

    watch = FirstPaint()
    target.installEventFilter(watch)
    _keep.append(watch)


entry.start = _watched_start

from sheet_app.__main__ import main  # noqa: E402

main(sys.argv[2:])
os._exit(1)  # the app quit without painting what was waited for
