"""The GM table with 1,000 creatures, inside the real main window (issue 11), against baselines of the
same run. Off screen, the window at 1280×800, events processed until quiet after each step.

- open + paint: ``open_paths`` on a ``.table.json`` of 1,000 creatures (the four systems in turn), until
  painted; baseline: reading the same file (``files.read_document``), the part no table can skip.
  Target ≤ 1 s.
- bulk damage to all + repaint: every creature selected, 1 damage through each one's rules (then 1
  healing, alternately, so nobody dies), one undo step each, until repainted. Baseline: ``rules.apply``
  of the same action to the same 1,000 sheets, the rules alone. Target ≤ 100 ms.
- scrolling the whole table a page at a time, each page repainted at once: p95 of a page. Baseline:
  the same scroll, page for page in turn, over a plain ``QStandardItemModel`` of the same cells in a
  plain ``QTableView``. Target p95 ≤ 16 ms (a frame).
- memory: resident size with the table open minus the empty app's. Target ≤ +150 MB.

``python -m bench.table [--quick]``
"""

from __future__ import annotations

import gc
import random
import sys
import time
from pathlib import Path
from typing import Any

from bench import qt
from bench.common import Figure, Samples, median, percentile

TARGET_OPEN_MS = 1000.0
TARGET_BULK_MS = 100.0
TARGET_FRAME_MS = 16.0
TARGET_MEMORY_MB = 150.0


def make_table_file(path: Path, count: int) -> None:
    import rules
    from sheet_app import files
    from sheet_app.controller import table_document
    from ui.table.viewmodel import TableViewModel

    vm = TableViewModel(rng=random.Random(1))
    per_system = -(-count // len(rules.SYSTEMS))
    for system_id in rules.SYSTEMS:
        template = rules.demo_sheet(system_id)
        left = min(per_system, count - len(vm.creatures))
        while left > 0:
            batch = min(left, 100)
            vm.add_creatures(template, batch, name=f"{rules.describe(system_id).label} ", numbered=True, npc=True)
            left -= batch
    vm.roll_initiative([c.id for c in vm.creatures], "1d20")
    files.write_document(path, table_document(vm.state))


def idle(view: Any) -> None:
    """Events processed until the table's idle work (each row's summary, ahead of scrolling) is done."""
    warm = getattr(view.model, "_warm", None)
    deadline = time.perf_counter() + 20
    while warm is not None and warm.isActive() and time.perf_counter() < deadline:
        qt.settle()
        time.sleep(0.002)


def timed(samples: Samples, action: Any) -> None:
    start, cpu = time.perf_counter(), time.process_time()
    action()
    qt.settle()
    samples.add((time.perf_counter() - start) * 1000, (time.process_time() - cpu) * 1000)


def run(quick: bool = False) -> list[Figure]:
    from PySide6.QtGui import QStandardItem, QStandardItemModel
    from PySide6.QtWidgets import QTableView

    import rules
    from sheet_app import files
    from ui.table import delegates
    from ui.table.model import POINTS
    from ui.table.table_view import TableView
    from ui.table.viewmodel import BulkRequest

    count = 200 if quick else 1000
    opens_n, bulks_n = (2, 3) if quick else (5, 21)
    folder = qt.isolate()
    qt.app()
    path = folder / "grande.table.json"
    make_table_file(path, count)
    size_mb = path.stat().st_size / 1e6
    window = qt.main_window(2)
    gc.collect()
    empty_rss = qt.rss_mb()
    figures = []

    # --- open + paint ------------------------------------------------------------------------------
    reads, opens = Samples(), Samples()

    def open_and_paint() -> None:
        window.open_paths([path])
        view = window.current_view()
        assert isinstance(view, TableView)
        view.grid.viewport().repaint()

    for i in range(opens_n):
        timed(reads, lambda: files.read_document(path))
        timed(opens, open_and_paint)
        if i < opens_n - 1:
            window.close_current()
            qt.settle()
    view = window.current_view()
    assert isinstance(view, TableView) and len(view.vm.creatures) == count
    window.set_gm_view(True)
    qt.settle()
    gc.collect()
    table_rss = qt.rss_mb()
    figures.append(
        Figure(
            section="table",
            name=f"GM table of {count:,}: open + paint",
            wall=median(opens.wall),
            cpu=median(opens.cpu),
            base_name="read the file",
            base_wall=median(reads.wall),
            base_cpu=median(reads.cpu),
            ratio=median([a / b for a, b in zip(opens.cpu, reads.cpu, strict=True)]),
            target=("median", "<=", TARGET_OPEN_MS),
            note=f"file of {size_mb:.1f} MB",
        )
    )

    # --- only visible rows are painted ---------------------------------------------------------------
    painted: list[int] = []

    class Counting(delegates.PointsDelegate):
        def paint(self, painter: Any, option: Any, index: Any) -> None:
            painted.append(index.row())
            super().paint(painter, option, index)

    normal = view.grid.itemDelegateForColumn(POINTS)
    counting = Counting(view.grid)
    view.grid.setItemDelegateForColumn(POINTS, counting)
    view.grid.viewport().repaint()
    view.grid.setItemDelegateForColumn(POINTS, normal)
    visible_rows = view.grid.viewport().height() // view.grid.verticalHeader().defaultSectionSize() + 1

    # --- bulk damage to all + repaint -----------------------------------------------------------------
    view.grid.selectAll()
    ids = view.selected_ids()
    assert len(ids) == count
    sheets = [c.sheet for c in view.vm.creatures]
    bulks, rules_only = Samples(), Samples()
    rng = random.Random(3)

    def bulk(kind: str) -> None:
        view.vm.bulk(ids, BulkRequest(kind, "1"))
        qt.settle()
        view.grid.viewport().repaint()

    def apply_only(kind: str) -> None:
        action = rules.Damage(amount=1) if kind == "damage" else rules.Heal(amount=1)
        for sheet in sheets:
            try:
                rules.apply(sheet, action, rng)
            except rules.Refused:
                pass

    for i in range(bulks_n):
        kind = "damage" if i % 2 == 0 else "heal"
        idle(view)  # the GM reads the table between two blows: the idle summaries are done
        if i == 0:
            bulk(kind)  # warm-up
            continue
        if i % 2:
            timed(rules_only, lambda kind=kind: apply_only(kind))
            timed(bulks, lambda kind=kind: bulk(kind))
        else:
            timed(bulks, lambda kind=kind: bulk(kind))
            timed(rules_only, lambda kind=kind: apply_only(kind))
    steps = view.vm.undo_stack.count()
    undo = Samples()
    timed(undo, view.vm.undo_stack.undo)
    assert view.vm.undo_stack.index() == steps - 1
    figures.append(
        Figure(
            section="table",
            name=f"GM table: bulk damage to all {count:,} + repaint",
            wall=median(bulks.wall),
            cpu=median(bulks.cpu),
            wall_p95=percentile(bulks.wall, 0.95),
            cpu_p95=percentile(bulks.cpu, 0.95),
            base_name="rules.apply × N",
            base_wall=median(rules_only.wall),
            base_cpu=median(rules_only.cpu),
            ratio=median([a / b for a, b in zip(bulks.cpu, rules_only.cpu, strict=True)]),
            target=("median", "<=", TARGET_BULK_MS),
            note=f"{len(bulks.cpu)} blows, one undo step each; undo {undo.cpu[0]:.0f} ms CPU",
        )
    )

    # --- scrolling ------------------------------------------------------------------------------------
    idle(view)
    plain_model = QStandardItemModel(count, view.grid.model().columnCount())
    source = view.grid.model()
    for row in range(count):
        for column in range(source.columnCount()):
            plain_model.setItem(row, column, QStandardItem(str(source.index(row, column).data() or "")))
    plain = QTableView()
    plain.setModel(plain_model)
    plain.verticalHeader().setDefaultSectionSize(view.grid.verticalHeader().defaultSectionSize())
    plain.resize(view.grid.size())
    plain.show()
    qt.settle()
    ours, theirs = Samples(), Samples()
    passes = 1 if quick else 2
    for table in (view.grid, plain):
        table.verticalScrollBar().setValue(0)
    qt.settle()

    def page(table: QTableView, samples: Samples) -> bool:
        bar = table.verticalScrollBar()
        if bar.value() >= bar.maximum():
            return False
        start, cpu = time.perf_counter(), time.process_time()
        bar.setValue(bar.value() + bar.pageStep())
        table.viewport().repaint()
        samples.add((time.perf_counter() - start) * 1000, (time.process_time() - cpu) * 1000)
        return True

    for _ in range(passes):
        for table in (view.grid, plain):
            table.verticalScrollBar().setValue(0)
        qt.settle()
        more = True
        while more:
            more = page(view.grid, ours)
            more = page(plain, theirs) or more
            qt.settle()
    plain.close()
    figures.append(
        Figure(
            section="table",
            name="GM table: scroll a page + repaint",
            wall=median(ours.wall),
            cpu=median(ours.cpu),
            wall_p95=percentile(ours.wall, 0.95),
            cpu_p95=percentile(ours.cpu, 0.95),
            base_name="bare QTableView, p95",
            base_wall=percentile(theirs.wall, 0.95),
            base_cpu=percentile(theirs.cpu, 0.95),
            ratio=percentile(ours.cpu, 0.95) / max(percentile(theirs.cpu, 0.95), 1e-9),
            target=("p95", "<=", TARGET_FRAME_MS),
            note=(
                f"{len(ours.cpu)} pages; {len(painted)} health bars painted for {visible_rows} visible rows "
                f"of {count:,}; baseline and ratio are p95s"
            ),
        )
    )
    figures.append(
        Figure(
            section="table",
            name="GM table: memory with the table open",
            unit="MB",
            wall=table_rss - empty_rss,
            base_name="the empty app",
            base_wall=empty_rss,
            target=("median", "<=", TARGET_MEMORY_MB),
            note="resident size over the empty app's",
        )
    )
    qt.close_window(window)
    return figures


if __name__ == "__main__":
    from bench.__main__ import main

    sys.exit(main(["--only", "table", *sys.argv[1:]]))
