"""A real sheet_app process that plays a sheet, autosaves, says so, then waits to be killed.

    python -m tests.app.crashing_app FICHIER ATTENDU

Used by the crash test (``test_autosave_window``): opens FICHIER in a main window (offscreen, user
folders from ``XDG_*`` as the test set them), deals damage and takes a long rest (a rest autosaves at
once), writes the sheet it now holds to ATTENDU (what recovery must give back), prints « prêt » and
runs the event loop until the test sends SIGKILL: no clean close, no cleanup at all.
"""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path


def main(path: str, expected: str) -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    import rules
    from sheet_app import files
    from sheet_app.main_window import MainWindow

    app = QApplication([sys.argv[0]])
    window = MainWindow(rng=random.Random(11))
    (view,) = window.open_paths([Path(path)])
    view.vm.apply(rules.Damage(amount="2d6"))
    view.vm.apply(rules.SetCondition(condition=view.vm.info.conditions[0].id))
    view.vm.apply(rules.LongRest())
    view.vm.apply(rules.Damage(amount=1))  # after the rest: only the one-minute timer would keep it
    window.autosaver.save_all()
    files.write_document(Path(expected), files.Document("sheet", [view.vm.sheet], [list(view.vm.journal)]))
    sys.stdout.write("prêt\n")
    sys.stdout.flush()
    return app.exec()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
