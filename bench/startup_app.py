"""One start of the real app (run as a process by ``bench.startup``), until what the user waits for is
painted, then exit at once (no tear-down, as the floor).

``startup_app.py sheet FILE``: ``sheet-app FILE`` until the sheet (``SheetView``) has painted;
``startup_app.py welcome``: ``sheet-app`` alone, first run, until the welcome page has painted."""

import os
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication

WAITED = {"sheet": "SheetView", "welcome": "WelcomePage"}[sys.argv[1]]


class FirstPaint(QObject):
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint and watched.metaObject().className() == WAITED:
            QTimer.singleShot(0, lambda: os._exit(0))  # after the whole pass is painted
        return False


# The app makes its QApplication only when there is none: this one carries the watch. Its cost is in
# the floor too.
app = QApplication([sys.argv[0]])
watch = FirstPaint()
app.installEventFilter(watch)

from sheet_app.__main__ import main  # noqa: E402

main(sys.argv[2:])
os._exit(1)  # the app quit without painting what was waited for
