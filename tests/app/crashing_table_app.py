"""A real sheet_app process that plays a GM table, autosaves, says so, then waits to be killed.

    python -m tests.app.crashing_table_app FICHIER ATTENDU

The table twin of ``crashing_app``: opens the table FICHIER, adds three wolves with rolled maxima,
deals a bulk damage, plays a round (a round autosaves at once), makes one more change, writes the
table it now holds to ATTENDU (what recovery must give back), prints « prêt » and runs the event loop
until the test sends SIGKILL: no clean close, no cleanup at all.
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
    from sheet_app.controller import table_document
    from sheet_app.main_window import MainWindow
    from ui.table.viewmodel import BulkRequest

    app = QApplication([sys.argv[0]])
    window = MainWindow(rng=random.Random(11))
    (view,) = window.open_paths([Path(path)])
    vm = view.vm
    wolf = rules.new_sheet("douaratil", name="Loup", is_npc=True, dies_at_zero=True, base_maximum=9, current=9)
    ids = vm.add_creatures(wolf, 3, maximum="2d8+4")
    vm.bulk(ids[:2], BulkRequest("damage", "2d6", factors={ids[0]: "half"}))
    vm.next_round()
    vm.set_note(ids[2], "s'enfuit")  # after the round: only the one-minute timer would keep it
    window.autosaver.save_all()
    files.write_document(Path(expected), table_document(vm.state))
    sys.stdout.write("prêt\n")
    sys.stdout.flush()
    return app.exec()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
