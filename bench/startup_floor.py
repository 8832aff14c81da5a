"""The floor of start-up (run as a process by ``bench.startup``): import pydantic, show an empty 1280×800
``QMainWindow`` and exit at once after its first paint. Python + Qt + pydantic and nothing of ours: the
whole budget a start of the app is compared with.

``startup_floor.py welcome|sheet`` — the argument is ignored (the app's runs take the same one)."""

import os
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from pydantic import BaseModel  # noqa: F401  (the floor imports pydantic, as the app does)
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication, QMainWindow


class FirstPaint(QObject):
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint:
            QTimer.singleShot(0, lambda: os._exit(0))  # after the whole pass is painted
        return False


app = QApplication([sys.argv[0]])
watch = FirstPaint()
window = QMainWindow()
window.installEventFilter(watch)  # on the window alone, as the app's harness watches its widget
window.resize(1280, 800)
window.show()
app.exec()
os._exit(1)
