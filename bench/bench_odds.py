"""What the odds (issue 17) cost where the user is, against baselines of the same run.

    .venv/bin/python bench/bench_odds.py [CREATURES]

Measured off screen, in the real main window at 1280×800, events processed until quiet after each step:

- rules: ``rules.sheet_odds`` of a dying sheet of each system (every roll and the dying story), against
  ``rules.derive`` of the same sheet (what every refresh of a sheet computes anyway), and the d20 story
  cold (its cache cleared) against warm;
- sheet: a dying Douaratil character whose exhaustion level changes (1 ↔ 2) in its window, every chance
  shown beside its roll, the story and the « Chances » panel refreshed; the baseline is the same window
  and steps with the odds answered empty (``rules.sheet_odds``/``action_odds``/``survival_odds`` stubbed);
- table: « Round suivant » on a GM table of CREATURES dying creatures (Douaratil at 0 PA, d20 at −3 PV,
  segments at −4 PV, in turn) and its repaint, the state column giving each one's chance, then undone;
  the baseline is the same with the odds stubbed;
- hover: the state column's tooltip of every visible dying row (the rolls at its turn and its story).

Prints figures and ratios (odds / baseline); a benchmark, never a timed test.
"""

from __future__ import annotations

import contextlib
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

import rules
from rules.systems.d20 import odds as d20_odds
from sheet_app.autosave import AutosaveStore
from sheet_app.main_window import MainWindow
from sheet_app.settings import Settings
from ui.common import prompts
from ui.table.model import STATE
from ui.table.table_view import TableView

DYING: dict[str, dict[str, Any]] = {
    "douaratil": {"current": 0},
    "d20": {"current": -3, "temporary": 0, "temporary_noted": None, "nonlethal": 0},
    "segments": {"current": -4},
}


def settle(app: QApplication) -> None:
    for _ in range(3):
        app.processEvents()
        app.sendPostedEvents()
    app.processEvents()


def dying_sheet(system_id: str) -> Any:
    data = rules.sheet_to_data(rules.demo_sheet(system_id))
    data.update(DYING[system_id])
    if system_id == "douaratil":
        data.update(exhaustion=2, death_successes=1, death_failures=1, is_npc=False, dies_at_zero=False)
    return rules.sheet_from_data(data)


def per_call_us(fn: Callable[[], object], repeat: int = 7, number: int = 200) -> float:
    """Median over ``repeat`` runs of the microseconds per call of ``fn``."""
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        runs.append((time.perf_counter() - start) / number * 1e6)
    return statistics.median(runs)


@contextlib.contextmanager
def odds_stubbed() -> Iterator[None]:
    """The baseline: the same window with the rules answering no odds at all."""
    saved = rules.sheet_odds, rules.action_odds, rules.survival_odds
    rules.sheet_odds = lambda sheet, rules_table=None: rules.Odds()  # type: ignore[assignment]
    rules.action_odds = lambda sheet, action, rules_table=None: ()  # type: ignore[assignment]
    rules.survival_odds = lambda sheet, rules_table=None: None  # type: ignore[assignment]
    try:
        yield
    finally:
        rules.sheet_odds, rules.action_odds, rules.survival_odds = saved


def timed(app: QApplication, action: Callable[[], object]) -> tuple[float, float]:
    """Wall and CPU milliseconds of ``action`` and the event processing after it."""
    start, cpu = time.perf_counter(), time.process_time()
    action()
    settle(app)
    return (time.perf_counter() - start) * 1000, (time.process_time() - cpu) * 1000


def paired(app: QApplication, step: Callable[[int], None], blocks: int, size: int = 6) -> tuple[float, ...]:
    """Medians (wall, CPU) of ``step`` with the odds and with them stubbed: blocks of ``size`` steps taken in
    turn, so both sides see the same machine load; each block's first step (the window switching between
    showing chances and not) is left out."""
    with_odds: list[tuple[float, float]] = []
    without: list[tuple[float, float]] = []
    i = 0
    for _ in range(blocks):
        for side in (with_odds, without):
            stub = odds_stubbed() if side is without else contextlib.nullcontext()
            with stub:
                for k in range(size):
                    figures = timed(app, lambda i=i: step(i))
                    i += 1
                    if k:
                        side.append(figures)
    return (
        statistics.median(w for w, _ in with_odds),
        statistics.median(c for _, c in with_odds),
        statistics.median(w for w, _ in without),
        statistics.median(c for _, c in without),
    )


def main() -> int:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    home = tempfile.mkdtemp(prefix="bench_odds_")
    os.environ["XDG_DATA_HOME"] = os.path.join(home, "data")
    os.environ["XDG_CONFIG_HOME"] = os.path.join(home, "config")
    app = QApplication.instance() or QApplication([])
    prompts.save_changes = lambda *args: "discard"  # type: ignore[assignment]

    # --- rules ------------------------------------------------------------------------------------------
    print("rules (µs par appel, médiane) :")
    for system_id in DYING:
        sheet = dying_sheet(system_id)
        odds_us = per_call_us(lambda sheet=sheet: rules.sheet_odds(sheet))
        derive_us = per_call_us(lambda sheet=sheet: rules.derive(sheet))
        print(
            f"  {system_id:10} sheet_odds {odds_us:8.1f}   derive {derive_us:8.1f}   ratio {odds_us / derive_us:5.2f}"
        )
    d20 = dying_sheet("d20")

    def cold() -> None:
        d20_odds._story.cache_clear()
        rules.survival_odds(d20)

    cold_us = per_call_us(cold, number=50)
    warm_us = per_call_us(lambda: rules.survival_odds(d20))
    print(f"  d20 story: cold {cold_us:.1f} µs, warm {warm_us:.1f} µs, ratio cold/warm {cold_us / warm_us:.1f}")

    win = MainWindow(Settings(), random.Random(2), store=AutosaveStore())
    win.resize(1280, 800)
    win.show()
    settle(app)

    # --- sheet: exhaustion changes on a dying character ------------------------------------------------------
    view = win.open_demo("douaratil")
    assert view is not None
    vm = view.vm
    start = dying_sheet("douaratil")
    vm.apply(rules.Edit(changes={k: getattr(start, k) for k in ("current", "death_successes", "death_failures")}))
    settle(app)
    assert vm.odds.survival is not None

    def exhaustion(i: int) -> None:
        vm.apply(rules.SetExhaustion(level=1 + i % 2))

    wall, cpu, base_wall, base_cpu = paired(app, exhaustion, 20)
    print("fiche (Douaratil mourant, épuisement 1 ↔ 2, jusqu'au calme) :")
    print(f"  avec les chances {wall:6.2f} ms (CPU {cpu:6.2f})   sans {base_wall:6.2f} ms (CPU {base_cpu:6.2f})")
    print(f"  ratio {wall / base_wall:.2f} (CPU {cpu / base_cpu:.2f})")
    vm.undo_stack.setClean()
    win.close_current()
    settle(app)

    # --- table: « Round suivant » with every creature dying ------------------------------------------------
    table_view = win.new_table()
    assert isinstance(table_view, TableView)
    win.set_gm_view(True)
    tvm = table_view.vm
    systems = list(DYING)
    per = -(-count // len(systems))
    for system_id in systems:
        tvm.add_creatures(dying_sheet(system_id), min(per, count - len(tvm.creatures)), name=system_id, numbered=True)
    settle(app)
    assert sum(1 for c in tvm.creatures if tvm.survival(c) is not None) == len(tvm.creatures)

    def next_round(_i: int) -> None:
        tvm.next_round()
        settle(app)
        table_view.grid.viewport().repaint()
        settle(app)
        tvm.undo_stack.undo()
        settle(app)
        table_view.grid.viewport().repaint()

    wall, cpu, base_wall, base_cpu = paired(app, next_round, 8, size=4)
    print(f"table ({len(tvm.creatures)} créatures mourantes, Round suivant + affichage, puis annulé) :")
    print(f"  avec les chances {wall:7.1f} ms (CPU {cpu:7.1f})   sans {base_wall:7.1f} ms (CPU {base_cpu:7.1f})")
    print(f"  ratio {wall / base_wall:.2f} (CPU {cpu / base_cpu:.2f})")

    # --- hover: the state column's tooltip of each visible row -------------------------------------------
    model = table_view.grid.model()
    rows = min(model.rowCount(), table_view.grid.viewport().height() // table_view.grid.rowHeight(0) + 1)

    def hover_all() -> None:
        for row in range(rows):
            model.data(model.index(row, STATE), Qt.ItemDataRole.ToolTipRole)

    tip_ms = per_call_us(hover_all, repeat=5, number=3) / 1000 / rows
    paint_ms = per_call_us(lambda: table_view.grid.viewport().repaint(), repeat=5, number=5) / 1000
    print(f"survol de l'état : {tip_ms:.2f} ms par ligne ; une image de la table : {paint_ms:.2f} ms")
    print(f"  ratio survol / image {tip_ms / paint_ms:.2f}")
    tvm.undo_stack.setClean()
    return 0


if __name__ == "__main__":
    sys.exit(main())
