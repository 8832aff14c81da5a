"""Make ``docs/screenshots/<system>-<W>x<H>.png``: each system's demo sheet, played into a telling
state, at the smallest screen the app is made for (1024×700) and a large one (1920×1080).

    .venv/bin/python -m sheet_app.tools.screenshots [DOSSIER]

Runs off screen (no display needed), with a seeded dice generator so the pictures only change when the
sheet or the rules do. Settings go to a temporary folder, never the user's.
"""

from __future__ import annotations

import os
import random
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

SIZES = ((1024, 700), (1920, 1080))


def _scenes() -> dict[str, Callable[[Any], None]]:
    """What is played on each demo sheet before the picture (system id → steps on the view-model)."""
    import rules

    def douaratil(vm: Any) -> None:
        vm.apply(rules.GainTemporary(amount=4))
        vm.apply(rules.Damage(amount="2d6+3"))
        vm.apply(rules.AddWound(wound_type="plaie", severity="minor", bleeding=True, note="Coup d'épée au flanc"))
        vm.apply(rules.SetExhaustion(level=2))
        vm.apply(rules.SetCondition(condition="empoisonne", duration=10, unit="round"))
        vm.apply(rules.AdvanceTime(unit="round", count=3))

    def d20(vm: Any) -> None:
        vm.apply(rules.Damage(amount=16))  # dying: the red frame, the stabilise choices
        vm.apply(rules.AdvanceTime(unit="round", count=1))

    def segments(vm: Any) -> None:
        vm.apply(rules.Damage(amount=6, damage_type="tranchant"))
        vm.apply(rules.AdvanceTime(unit="segment", count=1))

    def severite(vm: Any) -> None:
        vm.apply(rules.AdvanceTime(unit="turn", count=1))

    return {"douaratil": douaratil, "d20": d20, "segments": segments, "severite": severite}


def prepare(folder: Path) -> Any:
    """The application for a screenshot tool: off screen, fresh user folders, French, played documents
    closed without a question; ``folder`` made."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    settings_home = tempfile.mkdtemp(prefix="sheet_app_shots_")
    os.environ["XDG_CONFIG_HOME"] = settings_home
    os.environ["XDG_DATA_HOME"] = settings_home
    from PySide6.QtWidgets import QApplication

    from sheet_app.app import install_translations
    from ui.common import prompts

    # The played demos are not kept: closing their windows must not ask about saving.
    prompts.save_changes = lambda *args: "discard"  # type: ignore[assignment]

    app = QApplication.instance() or QApplication([sys.argv[0]])
    install_translations(app)
    folder.mkdir(parents=True, exist_ok=True)
    return app


def shoot(folder: Path) -> list[Path]:
    app = prepare(folder)
    import rules
    from sheet_app.main_window import MainWindow

    scenes = _scenes()
    written = []

    def settle() -> None:
        for _ in range(8):
            app.processEvents()

    for width, height in SIZES:
        suffix = f"-{width}x{height}"
        for system_id in rules.SYSTEMS:
            window = MainWindow(rng=random.Random(2024))
            window.resize(width, height)
            window.show()
            view = window.open_demo(system_id)
            assert view is not None
            settle()
            scene = scenes.get(system_id)
            if scene is not None:
                scene(view.vm)
            view.vm.undo_stack.setClean()
            window.resize(width, height)
            settle()
            path = folder / f"{system_id}{suffix}.png"
            window.grab().save(str(path))
            written.append(path)
            window.close()
            window.deleteLater()
            settle()
        window = MainWindow(rng=random.Random(1))
        window.resize(width, height)
        window.show()
        window.show_welcome()
        settle()
        path = folder / f"accueil{suffix}.png"
        window.grab().save(str(path))
        written.append(path)
        window.close()
        window.deleteLater()
        settle()
    return written


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    folder = Path(args[0]) if args else Path(__file__).resolve().parents[2] / "docs" / "screenshots"
    for path in shoot(folder):
        print(f"écrit : {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
