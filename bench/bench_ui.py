"""An edit → the sheet's widgets repainted: how long, against a bare label update in the same run.

    .venv/bin/python bench/bench_ui.py [ITERATIONS]

For each system, and a long campaign (a journal of 5,000 entries): a sheet shown at 1280×800
(off screen), then ITERATIONS edits alternating damage
and healing of 1 point through the view-model (the rules, the undo stack, every panel's refresh),
each followed by the event processing that repaints what changed. The baseline, measured in the
same run and the same window, is a QLabel.setText + the same event processing. Prints p50 / p95 in
milliseconds and their ratio to the baseline; the target is a p95 within one frame (16 ms).
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtWidgets import QApplication, QLabel

import rules
from ui.sheet.sheet_view import SheetView
from ui.sheet.viewmodel import SheetViewModel

FRAME_MS = 16.0


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def timed(app: QApplication, action: object, n: int) -> list[float]:
    samples = []
    for i in range(n):
        start = time.perf_counter()
        action(i)  # type: ignore[operator]
        app.processEvents()
        samples.append((time.perf_counter() - start) * 1000)
    return samples


def main() -> int:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    app = QApplication.instance() or QApplication([])
    print(
        f"{'système':12s} {'p50 ms':>8s} {'p95 ms':>8s} {'base p95':>9s} {'ratio p95':>10s}  cible p95 ≤ {FRAME_MS} ms"
    )
    worst = 0.0
    # Each system's demo, plus a long campaign: a Douaratil sheet whose journal holds 5,000 entries.
    long_journal = tuple(f"Dégâts {i}\nUlfred subit 1 dégâts : 14 → 13 PA.\nDés : 1d6 = 3" for i in range(5000))
    cases = [(s, s, ()) for s in rules.SYSTEMS] + [("douaratil", "journal 5000", long_journal)]
    for system, name, journal in cases:
        view = SheetView(vm=SheetViewModel(rules.demo_sheet(system), rng=random.Random(1), journal=journal))
        view.resize(1280, 760)
        view.show()
        for _ in range(10):
            app.processEvents()
        label = QLabel("0", view.health)
        label.show()
        vm = view.vm
        edits = [rules.Damage(amount=1), rules.Heal(amount=1, magical=True)]

        def edit(i: int, vm: object = vm, edits: list[object] = edits) -> None:
            vm.apply(edits[i % 2])  # type: ignore[attr-defined]

        def baseline(i: int, label: QLabel = label) -> None:
            label.setText(str(i))

        timed(app, edit, 20)  # warm-up
        timed(app, baseline, 20)
        base = timed(app, baseline, n)
        samples = timed(app, edit, n)
        p50, p95, b95 = statistics.median(samples), percentile(samples, 0.95), percentile(base, 0.95)
        worst = max(worst, p95)
        print(f"{name:12s} {p50:8.2f} {p95:8.2f} {b95:9.3f} {p95 / b95 if b95 else float('inf'):9.1f}×")
        view.close()
        view.deleteLater()
        app.processEvents()
    print(f"pire p95 : {worst:.2f} ms ({'dans' if worst <= FRAME_MS else 'au-delà de'} une image de {FRAME_MS} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
