"""The GM table's scroll under callgrind (issue 15): the bench's table (``bench.table``: 1,000 creatures of
the four systems, the real main window, the GM's view, every row selected, the idle warm-up done), then
pages scrolled and repainted as ``bench.table`` does, each pass inside ``operator.call`` so that callgrind
collects only the scroll:

    PYTHONHASHSEED=0 TABLE_CG_INSTR=1 valgrind --tool=callgrind --instr-atstart=no --collect-atstart=no \\
        --toggle-collect=_operator_call --dump-after=_operator_call --callgrind-out-file=/tmp/x.cg \\
        .venv/bin/python -m bench.table_cg FILE [--pages N] [--passes P] [--plain]

(``TABLE_CG_INSTR=1`` switches callgrind's instrumentation on once the table is ready: the set-up runs
uninstrumented, several times faster.)

One dump per pass (the first pass finds each row's bar not drawn yet, the second finds it kept);
instructions per page = a dump's total / pages. ``--plain`` scrolls the bench's baseline instead (a bare
``QTableView`` over a ``QStandardItemModel`` of the same cells). FILE is made first when missing.
"""

from __future__ import annotations

import argparse
import operator
import os
import subprocess
import sys
import time
from pathlib import Path

from bench import qt


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("file", type=Path)
    parser.add_argument("--pages", type=int, default=10)
    parser.add_argument("--passes", type=int, default=2)
    parser.add_argument("--plain", action="store_true")
    args = parser.parse_args(argv)
    qt.isolate()
    qt.app()
    from bench.table import idle, make_table_file

    if not args.file.exists():
        make_table_file(args.file, 1000)
    window = qt.main_window(2)
    window.open_paths([args.file])
    qt.settle()
    view = window.current_view()
    window.set_gm_view(True)
    qt.settle()
    view.grid.selectAll()
    qt.settle()
    idle(view)
    # Nothing but the scroll in the counts: the autosave of the whole table (valgrind's clock is ~50×
    # slower, its timer fires inside the scroll) held off.
    from PySide6.QtCore import QTimer

    for timer in window.findChildren(QTimer):
        if timer.objectName() in ("autosaveTimer", "autosaveHeartbeat"):
            timer.stop()
    grid = view.grid
    if args.plain:
        from PySide6.QtGui import QStandardItem, QStandardItemModel
        from PySide6.QtWidgets import QTableView

        source = grid.model()
        model = QStandardItemModel(source.rowCount(), source.columnCount())
        for row in range(source.rowCount()):
            for column in range(source.columnCount()):
                model.setItem(row, column, QStandardItem(str(source.index(row, column).data() or "")))
        plain = QTableView()
        plain.setModel(model)
        plain.verticalHeader().setDefaultSectionSize(grid.verticalHeader().defaultSectionSize())
        plain.resize(grid.size())
        plain.show()
        grid = plain
        qt.settle()

    def scroll() -> None:
        bar = grid.verticalScrollBar()
        for _ in range(args.pages):
            bar.setValue(bar.value() + bar.pageStep())
            grid.viewport().repaint()
            qt.settle()

    if os.environ.get("TABLE_CG_INSTR"):  # run with --instr-atstart=no: instrument from here on
        subprocess.run(["callgrind_control", "-i", "on", str(os.getpid())], check=False, capture_output=True)
        time.sleep(0.5)
        qt.settle()
    for _ in range(args.passes):
        grid.verticalScrollBar().setValue(0)
        qt.settle()
        operator.call(scroll)
    print("pages", args.pages, "passes", args.passes, "rows", grid.model().rowCount())
    qt.close_window(window)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
