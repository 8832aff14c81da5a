"""One start of the real app (run as a process by ``bench.startup``), until what the user waits for is
painted, then exit at once (no tear-down, as the floor).

``startup_app.py sheet FILE``: ``sheet-app FILE`` until the sheet (``SheetView``) has painted;
``startup_app.py welcome``: ``sheet-app`` alone, first run, until the welcome page has painted.

The app is started as ``sheet-app`` starts it, its imports in its own order: this script imports
nothing of Qt before the app does (PySide6's import hook costs every module imported after it, so a
harness that imported Qt first would measure a start no user has). The watch for the first paint is
installed on the app's own ``QApplication``, when the app installs its translations (before any window
exists)."""

import os
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import sheet_app.app as entry

WAITED = {"sheet": "SheetView", "welcome": "WelcomePage"}[sys.argv[1]]
_install_translations = entry.install_translations
_keep: list[object] = []


def _watched_translations(app):  # type: ignore[no-untyped-def]
    from PySide6.QtCore import QEvent, QObject, QTimer

    class FirstPaint(QObject):
        def eventFilter(self, watched: QObject, event: QEvent) -> bool:
            if event.type() == QEvent.Type.Paint and watched.metaObject().className() == WAITED:
                QTimer.singleShot(0, lambda: os._exit(0))  # after the whole pass is painted
            return False

    watch = FirstPaint()
    app.installEventFilter(watch)
    _keep.append(watch)
    return _install_translations(app)


entry.install_translations = _watched_translations

from sheet_app.__main__ import main  # noqa: E402

main(sys.argv[2:])
os._exit(1)  # the app quit without painting what was waited for
