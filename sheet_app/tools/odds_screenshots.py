"""Make ``docs/screenshots/chances-<system>.png``: a dying character's sheet with its odds (issue 17).

    .venv/bin/python -m sheet_app.tools.odds_screenshots [DOSSIER]

Each system's demo sheet is played into a dying state (Douaratil at 0 PA with exhaustion and saves
already counted, d20 at −3 PV, segments below 0 PV), then the window is grabbed with the explanation of
the chance of pulling through drawn below it, as its hover shows it (off screen Qt shows no tooltip).
Runs off screen, at 1280×800, with seeded dice; settings go to a temporary folder, never the user's.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sheet_app.tools.screenshots import prepare

SIZE = (1280, 800)


def _scenes() -> dict[str, Callable[[Any], None]]:
    import rules

    def douaratil(vm: Any) -> None:
        vm.apply(rules.SetExhaustion(level=2))
        vm.apply(rules.Damage(amount=12))
        vm.apply(rules.DeathSave(rolls=(14,)))
        vm.apply(rules.DeathSave(rolls=(7,)))

    def d20(vm: Any) -> None:
        vm.apply(rules.Damage(amount=17))

    def segments(vm: Any) -> None:
        vm.apply(rules.Damage(amount=17))

    return {"douaratil": douaratil, "d20": d20, "segments": segments}


def shoot(folder: Path) -> list[Path]:
    app = prepare(folder)
    from PySide6.QtCore import QPoint, Qt
    from PySide6.QtGui import QPainter, QPixmap
    from PySide6.QtWidgets import QFrame, QLabel, QToolTip

    from sheet_app.main_window import MainWindow

    written = []

    def settle() -> None:
        for _ in range(8):
            app.processEvents()

    for system_id, scene in _scenes().items():
        window = MainWindow(rng=random.Random(2024))
        window.resize(*SIZE)
        window.show()
        view = window.open_demo(system_id)
        assert view is not None
        settle()
        scene(view.vm)
        view.vm.undo_stack.setClean()
        settle()
        shot = window.grab()
        # The chance of pulling through, with its explanation as its hover shows it.
        story = window.findChild(QLabel, "dyingSurvival")
        if story is not None and story.isVisible() and story.toolTip():
            # Off screen Qt shows no tooltip: the same text is drawn in a label with the tooltip's colours,
            # just below the chance, where the hover would show it.
            tip = QLabel(story.toolTip())
            tip.setTextFormat(Qt.TextFormat.PlainText)
            tip.setPalette(QToolTip.palette())
            tip.setAutoFillBackground(True)
            tip.setFrameShape(QFrame.Shape.Box)
            tip.setMargin(4)
            tip.setWordWrap(True)
            tip.setMaximumWidth(SIZE[0] // 2)
            tip.adjustSize()
            picture = tip.grab()
            at = story.mapTo(window, QPoint(0, story.height() + 2))
            painter = QPainter(shot)
            painter.drawPixmap(QPoint(max(0, min(at.x(), SIZE[0] - picture.width())), at.y()), picture)
            painter.end()
        path = folder / f"chances-{system_id}.png"
        QPixmap(shot).save(str(path))
        written.append(path)
        window.close()
        window.deleteLater()
        settle()
    written.append(_table(folder, settle))
    return written


def _table(folder: Path, settle: Any) -> Path:
    """The GM table: two creatures of each system, the first six struck down, each dying one's chance in its
    state badge and, drawn below the table, the hover of the last one (its roll at its turn and its story)."""
    from PySide6.QtCore import QPoint, Qt
    from PySide6.QtGui import QPainter
    from PySide6.QtWidgets import QFrame, QLabel, QToolTip

    import rules
    from sheet_app.main_window import MainWindow
    from ui.table.model import STATE

    window = MainWindow(rng=random.Random(2024))
    window.resize(*SIZE)
    window.show()
    view = window.new_table()
    window.set_gm_view(True)
    vm = view.vm
    for system_id in rules.SYSTEMS:
        vm.add_creatures(rules.demo_sheet(system_id), 2, name=rules.describe(system_id).label, npc=False)
    for creature in vm.creatures[:6]:
        amount = creature.sheet.current if creature.sheet.system == "douaratil" else 17
        vm.apply_to(creature.id, rules.Damage(amount=amount))
    vm.undo_stack.setClean()
    view.messages.clear()
    settle()
    shot = window.grab()
    model = view.grid.model()
    index = model.index(5, STATE)
    tip = QLabel(str(model.data(index, Qt.ItemDataRole.ToolTipRole)))
    tip.setTextFormat(Qt.TextFormat.PlainText)
    tip.setPalette(QToolTip.palette())
    tip.setAutoFillBackground(True)
    tip.setFrameShape(QFrame.Shape.Box)
    tip.setMargin(4)
    tip.setWordWrap(True)
    tip.setMaximumWidth(SIZE[0] // 2)
    tip.adjustSize()
    rect = view.grid.visualRect(index)
    at = view.grid.viewport().mapTo(window, rect.bottomLeft() + QPoint(24, 2))
    painter = QPainter(shot)
    painter.drawPixmap(at, tip.grab())
    painter.end()
    path = folder / "chances-table.png"
    shot.save(str(path))
    vm.undo_stack.setClean()
    window.close()
    window.deleteLater()
    settle()
    return path


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    folder = Path(args[0]) if args else Path(__file__).resolve().parents[2] / "docs" / "screenshots"
    for path in shoot(folder):
        print(f"écrit : {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
