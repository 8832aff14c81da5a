"""Minimal window (until the sheet window lands): a demo Douaratil sheet's numbers from the core."""

from __future__ import annotations

import os
import sys

import rules


def _ensure_platform() -> None:
    if (
        not os.environ.get("QT_QPA_PLATFORM")
        and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
        and sys.platform.startswith("linux")
    ):
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
        sys.stderr.write("Pas d'écran détecté : sheet_app démarre hors écran (QT_QPA_PLATFORM=offscreen).\n")


def run(argv: list[str]) -> int:
    _ensure_platform()
    from PySide6.QtWidgets import QApplication, QLabel, QMainWindow

    app = QApplication.instance() or QApplication([sys.argv[0], *argv])
    sheet = rules.demo_sheet("douaratil")
    d = rules.derive(sheet)
    window = QMainWindow()
    window.setWindowTitle(f"sheet_app — {sheet.name}")
    label = QLabel(f"{sheet.name} — {d.explain('current')}\n{d.explain('maximum')}\n{d.explain('state')}")
    window.setCentralWidget(label)
    window.show()
    return int(app.exec())
