"""The GM table with 1,000 creatures, inside the real main window (issue 11), against baselines of the
same run.

    .venv/bin/python bench/bench_table.py [CREATURES]

Measured (off screen, the window at 1280×800, events processed until quiet after each step):

- open + paint: ``open_paths`` on a ``.table.json`` of CREATURES creatures (the four systems, in turn),
  until the window has painted; the baseline is reading the same file (``files.read_document``), the
  part no table can skip. Target ≤ 1 s.
- bulk damage to all + repaint: every creature selected, 1 damage through each one's rules (then 1
  healing, alternately, so nobody dies), one undo step each, until repainted. Target ≤ 100 ms.
- scrolling the whole table a page at a time, each page repainted at once: p95 of a page's paint.
  Target ≤ 16 ms (a frame); the baseline is the same scroll over a plain ``QStandardItemModel`` of
  the same cells in a plain ``QTableView``.
- memory: resident size with the table open minus the empty app's. Target ≤ +150 MB.

Prints figures, targets and ratios; a benchmark, never a timed test.
"""

from __future__ import annotations

import gc
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QApplication, QTableView

import rules
from sheet_app import files
from sheet_app.autosave import AutosaveStore
from sheet_app.controller import table_document
from sheet_app.main_window import MainWindow
from sheet_app.settings import Settings
from ui.table import delegates
from ui.table.model import POINTS
from ui.table.table_view import TableView
from ui.table.viewmodel import BulkRequest, TableViewModel

TARGET_OPEN_MS = 1000.0
TARGET_BULK_MS = 100.0
TARGET_FRAME_MS = 16.0
TARGET_MEMORY_MB = 150.0


def rss_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def settle(app: QApplication) -> None:
    """Process events until the queue is quiet (posted paints and deferred deletes included)."""
    for _ in range(3):
        app.processEvents()
        app.sendPostedEvents()
    app.processEvents()


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def idle(app: QApplication, view: TableView) -> None:
    """Events processed until the table's idle work (each row's summary, ahead of scrolling) is done."""
    deadline = time.perf_counter() + 10
    while time.perf_counter() < deadline and view.model._warm.isActive():
        app.processEvents()
        time.sleep(0.005)


def make_table_file(path: Path, count: int) -> None:
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


CPU: list[float] = []


def timed(app: QApplication, action: Callable[[], object]) -> float:
    """Wall-clock milliseconds of ``action`` and the event processing after it; its CPU time (this
    process only: what the figure would be on a machine nobody else uses) goes to ``CPU``."""
    start, cpu = time.perf_counter(), time.process_time()
    action()
    settle(app)
    CPU.append((time.process_time() - cpu) * 1000)
    return (time.perf_counter() - start) * 1000


def main() -> int:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    app = QApplication.instance() or QApplication([])
    folder = Path(tempfile.mkdtemp(prefix="bench_table_"))
    os.environ["XDG_DATA_HOME"] = str(folder / "data")
    os.environ["XDG_CONFIG_HOME"] = str(folder / "config")
    path = folder / "grande.table.json"
    make_table_file(path, count)
    size_mb = path.stat().st_size / 1e6
    store = AutosaveStore()
    win = MainWindow(Settings(), random.Random(2), store=store)
    win.resize(1280, 800)
    win.show()
    settle(app)
    gc.collect()
    empty_rss = rss_mb()

    # --- open + paint ------------------------------------------------------------------------------
    read_ms = statistics.median(timed(app, lambda: files.read_document(path)) for _ in range(5))
    read_cpu = statistics.median(CPU[-5:])
    opens: list[float] = []
    open_cpus: list[float] = []

    def open_and_paint() -> None:
        win.open_paths([path])
        view = win.current_view()
        assert isinstance(view, TableView)
        view.grid.viewport().repaint()

    for i in range(5):
        opens.append(timed(app, open_and_paint))
        open_cpus.append(CPU[-1])
        view = win.current_view()
        assert isinstance(view, TableView) and len(view.vm.creatures) == count
        if i < 4:
            win.docs[view].vm.undo_stack.setClean()
            win.close_current()
            settle(app)
    view = win.current_view()
    assert isinstance(view, TableView)
    win.set_gm_view(True)
    settle(app)
    gc.collect()
    table_rss = rss_mb()

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
    vm = view.vm
    view.grid.selectAll()
    ids = view.selected_ids()
    assert len(ids) == count
    bulks: list[float] = []
    bulk_cpus: list[float] = []

    def bulk_and_paint(kind: str) -> None:
        view.vm.bulk(ids, BulkRequest(kind, "1"))
        settle(app)
        view.grid.viewport().repaint()

    for i in range(21):
        kind = "damage" if i % 2 == 0 else "heal"
        idle(app, view)  # the GM reads the table between two blows: the idle summaries are done
        bulks.append(timed(app, lambda kind=kind: bulk_and_paint(kind)))
        bulk_cpus.append(CPU[-1])
    bulk_ms = statistics.median(bulks[1:])
    bulk_cpu = statistics.median(bulk_cpus[1:])
    steps = vm.undo_stack.count()
    undo_ms = timed(app, vm.undo_stack.undo)
    assert vm.undo_stack.index() == steps - 1

    # --- scrolling ------------------------------------------------------------------------------------
    def scroll_pages(table: QTableView) -> list[float]:
        bar = table.verticalScrollBar()
        bar.setValue(0)
        settle(app)
        samples = []
        while bar.value() < bar.maximum():
            start, cpu = time.perf_counter(), time.process_time()
            bar.setValue(bar.value() + bar.pageStep())
            table.viewport().repaint()
            samples.append((time.perf_counter() - start) * 1000)
            CPU.append((time.process_time() - cpu) * 1000)
        return samples

    idle(app, view)

    scroll = scroll_pages(view.grid)
    scroll_cpu = percentile(CPU[-len(scroll) :], 0.95)
    plain_model = QStandardItemModel(count, 9)
    proxy = view.proxy
    for row in range(count):
        for column in range(9):
            plain_model.setItem(row, column, QStandardItem(str(proxy.index(row, column).data() or "")))
    plain = QTableView()
    plain.setModel(plain_model)
    plain.verticalHeader().setDefaultSectionSize(view.grid.verticalHeader().defaultSectionSize())
    plain.resize(view.grid.size())
    plain.show()
    settle(app)
    base_scroll = scroll_pages(plain)
    base_scroll_cpu = percentile(CPU[-len(base_scroll) :], 0.95)
    plain.close()

    # --- report ---------------------------------------------------------------------------------------
    def line(what: str, value: float, cpu: float, target: float, base: float | None, base_name: str = "") -> None:
        verdict = "dans la cible" if value <= target else "AU-DELÀ de la cible"
        verdict_cpu = "dans la cible" if cpu <= target else "AU-DELÀ"
        ratio = f" ; {value / base:5.1f}× {base_name}" if base else ""
        print(f"{what:34s} {value:8.1f} ms  (cible ≤ {target:g} ms : {verdict}){ratio}")
        print(f"{'   CPU de ce processus':34s} {cpu:8.1f} ms  ({verdict_cpu})")

    print(f"Table de {count} créatures ({', '.join(rules.SYSTEMS)}), fichier de {size_mb:.1f} Mo, fenêtre 1280×800")
    load = os.getloadavg()[0]
    print(f"Machine : {os.cpu_count()} cœurs, charge moyenne {load:.1f} (le temps réel compte les autres processus)")
    line(
        "ouverture + affichage (médiane)",
        statistics.median(opens),
        statistics.median(open_cpus),
        TARGET_OPEN_MS,
        read_ms,
        f"la lecture seule ({read_ms:.0f} ms, CPU {read_cpu:.0f} ms)",
    )
    line("dégâts groupés à tous + affichage", bulk_ms, bulk_cpu, TARGET_BULK_MS, None)
    print(f"{'   (p95 sur 20, annulation)':34s} {percentile(bulks[1:], 0.95):9.1f} ms, annuler : {undo_ms:.1f} ms")
    p95, base95 = percentile(scroll, 0.95), percentile(base_scroll, 0.95)
    line(
        f"défilement, p95 de {len(scroll)} pages",
        p95,
        scroll_cpu,
        TARGET_FRAME_MS,
        base95,
        f"un QTableView nu ({base95:.2f} ms, CPU {base_scroll_cpu:.2f} ms)",
    )
    extra = table_rss - empty_rss
    verdict = "dans la cible" if extra <= TARGET_MEMORY_MB else "AU-DELÀ de la cible"
    print(
        f"{'mémoire, table ouverte':34s} {extra:+9.1f} Mo (cible ≤ +{TARGET_MEMORY_MB:g} Mo : {verdict}) ; "
        f"application vide {empty_rss:.0f} Mo"
    )
    print(
        f"{'barres peintes pour un affichage':34s} {len(painted):9d}     (lignes visibles : {visible_rows} sur {count})"
    )
    win.docs[view].vm.undo_stack.setClean()
    for doc in win.docs.values():
        doc.differs_from_file = False
    from ui.common import prompts

    prompts.save_changes = lambda *args: "discard"  # type: ignore[assignment]
    win.close()
    store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
