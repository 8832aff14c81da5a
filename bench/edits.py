"""Edits where the user makes them: in the app's real ``MainWindow`` (1280×800, off screen), a sheet opened
from its file, each edit made with the keyboard, then events processed until quiet (layouts, timers,
paints: every pass until one finds nothing to do).

Per system, a cycle of four edits, repeated: damage typed in the quick entry (« 1d4 » + Entrée: the dice
are shown), healing typed there (« 4 » + Entrée), a condition ticked in the conditions list (space bar)
and unticked again. Plus the same on a Douaratil sheet whose journal holds 5,000 entries, all shown
(« Afficher tout le journal »).

The baseline, in the same window and the same run, interleaved with the edits: a label's ``setText``
and the same event processing (what any visible change costs here). Target: p95 ≤ 16 ms (one frame).

``python -m bench.edits [--quick]`` (through ``python -m bench``: a process of its own);
``python -m bench.edits --cases douaratil,journal [--cycles N]``: only those cases (a system's id, or
« journal » for the long journal), in this process, one line per case (CPU p50 / p95, the baseline's p95,
widgets painted): what an A/B of two trees alternated in one run reads.
"""

from __future__ import annotations

import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench import qt
from bench.common import Figure, Samples, median, percentile

FRAME_MS = 16.0
JOURNAL_ENTRIES = 5000
RAW: dict[str, list[float]] = {}  # the last run's CPU times per edit (ms), per figure name


def _sheet_file(folder: Path, system_id: str, journal: tuple[str, ...] = ()) -> Path:
    import rules
    from sheet_app import files

    path = folder / f"{system_id}{'-journal' if journal else ''}.fiche.json"
    files.write_document(path, files.Document("sheet", [rules.demo_sheet(system_id)], [list(journal)]))
    return path


def long_journal() -> tuple[str, ...]:
    """A campaign's journal: entries as the sheet writes them (title, what happened, the dice)."""
    entries = []
    for i in range(JOURNAL_ENTRIES):
        if i % 3 == 0:
            entries.append(f"Dégâts\nUlfred subit {i % 7 + 1} dégâts : 14 → {13 - i % 7} PA.\nDés : 1d8 = {i % 8 + 1}")
        elif i % 3 == 1:
            entries.append(f"Soins\nUlfred récupère {i % 5 + 1} PA : {9 + i % 5} → 14 PA.")
        else:
            entries.append("État : Aveuglé\nUlfred est désormais aveuglé (les attaques contre lui ont l'avantage).")
    return tuple(entries)


class Session:
    """One sheet open in the real window, and its edits as the user makes them."""

    def __init__(self, window: Any, path: Path, show_all: bool) -> None:
        from PySide6.QtCore import Qt
        from PySide6.QtTest import QTest
        from PySide6.QtWidgets import QCheckBox, QLabel, QLineEdit, QPushButton, QTreeView

        self.Qt, self.QTest = Qt, QTest
        self.window = window
        window.open_paths([path])
        qt.settle()
        self.view = window.current_view()
        self.vm = self.view.vm
        self.refused = 0
        self.vm.refused.connect(self._on_refused)
        self.amount = self.view.findChild(QLineEdit, "quickAmount")
        self.quick = self.amount.parent()
        self.tree = self.view.findChild(QTreeView, "conditionsView")
        if show_all:
            button = self.view.findChild(QPushButton, "journalShowAll")
            QTest.mouseClick(button, Qt.MouseButton.LeftButton)
            qt.settle()
        self.condition = self._toggleable_condition()
        magical = self.view.findChild(QCheckBox, "quick_magical")
        if magical is not None and "supernatural_healing" in self.vm.info.features:
            magical.setChecked(True)  # Sévérité: only supernatural care lowers the gauge during a fight
        self.refused = 0
        # The baseline: a label of the same window, of fixed size (its text changes nothing else's geometry:
        # only its own paint).
        self.label = QLabel("0", self.view)
        self.label.move(2, 2)
        self.label.setFixedSize(60, 20)
        self.label.show()
        qt.settle()

    def _on_refused(self, _reason: str) -> None:
        self.refused += 1

    def _toggleable_condition(self) -> Any:
        """The first condition of the list that ticks and unticks, not one of the health states when
        there is another (a blindness, not « hors de combat »)."""
        import rules
        from ui.common.models import KeyRole

        model = self.tree.model()
        Qt = self.Qt
        states = {s.id for s in rules.describe(self.vm.sheet.system).health_states}
        candidates = []
        for row in range(model.rowCount()):
            group = model.index(row, 0)
            candidates += [model.index(r, 0, group) for r in range(model.rowCount(group))] or [group]
        candidates.sort(key=lambda index: index.data(KeyRole) in states)
        for index in candidates:
            if not model.flags(index) & Qt.ItemFlag.ItemIsUserCheckable:
                continue
            before = self.vm.sheet
            self.tree.setCurrentIndex(index)
            self._space()
            ticked = self.vm.sheet is not before
            self._space()
            if ticked and self.vm.sheet == before:
                return index
        raise RuntimeError("no condition ticks and unticks here")

    def _space(self) -> None:
        self.QTest.keyClick(self.tree, self.Qt.Key.Key_Space)
        qt.settle()

    def _typed(self, mode: str, text: str) -> Callable[[], None]:
        def prepare() -> None:
            self.quick.set_mode(mode)
            self.amount.clear()
            self.QTest.keyClicks(self.amount, text)
            qt.settle()

        def edit() -> None:
            self.QTest.keyClick(self.amount, self.Qt.Key.Key_Return)

        prepare.edit = edit  # type: ignore[attr-defined]
        return prepare

    def cycle(self) -> list[tuple[str, Callable[[], None] | None, Callable[[], None]]]:
        """(name, untimed preparation, the edit) × 4."""
        damage, heal = self._typed("damage", "1d4"), self._typed("heal", "4")

        def tick() -> None:
            self.tree.setCurrentIndex(self.condition)

        def space() -> None:
            self.QTest.keyClick(self.tree, self.Qt.Key.Key_Space)

        return [
            ("damage", damage, damage.edit),  # type: ignore[attr-defined]
            ("heal", heal, heal.edit),  # type: ignore[attr-defined]
            ("condition on", tick, space),
            ("condition off", tick, space),
        ]


def measure(session: Session, cycles: int) -> tuple[Samples, Samples, dict[str, float]]:
    edits, base = Samples(), Samples()
    steps = session.cycle()
    counter = 0

    def timed(samples: Samples, fn: Callable[[], None]) -> None:
        start, cpu = time.perf_counter(), time.process_time()
        fn()
        qt.settle()
        samples.add((time.perf_counter() - start) * 1000, (time.process_time() - cpu) * 1000)

    def baseline() -> None:
        nonlocal counter
        counter += 1
        session.label.setText(str(counter))

    journal_before = len(session.vm.journal)
    for c in range(cycles + 1):
        for _name, prepare, edit in steps:
            if prepare is not None:
                prepare()
            if c == 0:  # warm-up cycle: caches, first layouts
                edit()
                qt.settle()
                continue
            timed(base, baseline)
            timed(edits, edit)
    applied = len(session.vm.journal) - journal_before
    # Diagnostics (untimed): widgets painted and event passes per edit.
    paints, passes = [], []
    for _name, prepare, edit in steps:
        if prepare is not None:
            prepare()
        with qt.PaintCounter() as count:
            edit()
            passes.append(qt.settle())
        paints.append(count.paints)
    info = {
        "applied": applied,
        "expected": 4 * (cycles + 1),
        "paints": median(paints),
        "passes": max(passes),
    }
    return edits, base, info


def run(quick: bool = False, cases: list[str] | None = None, cycles: int | None = None) -> list[Figure]:
    """The figures; ``cases``: only these (system ids, « journal »); ``cycles``: rounds of four edits."""
    import rules

    cycles = cycles or (3 if quick else 60)
    folder = qt.isolate()
    qt.app()
    window = qt.main_window()
    work = Path(tempfile.mkdtemp(prefix="edits_", dir=folder))
    every = [(s, s, False, ()) for s in rules.SYSTEMS]
    every.append(("douaratil", f"douaratil, {JOURNAL_ENTRIES:,} journal entries shown", True, long_journal()))
    if cases is not None:
        unknown = set(cases) - {*rules.SYSTEMS, "journal"}
        if unknown:
            raise SystemExit(f"unknown case(s): {', '.join(sorted(unknown))}")
        every = [c for c in every if (c[0] if not c[2] else "journal") in cases]
    figures = []
    RAW.clear()
    for system_id, name, show_all, journal in every:
        path = _sheet_file(work, system_id, journal)
        session = Session(window, path, show_all)
        edits, base, info = measure(session, cycles)
        RAW[name] = list(edits.cpu)
        ratios = [e / b for e, b in zip(edits.cpu, base.cpu, strict=True) if b > 0]
        refused = session.refused
        rows = ""
        if show_all:
            rows = f"journal rows shown {session.view.journal.model.rowCount():,}; "
        figures.append(
            Figure(
                section="edits",
                name=f"edit → repainted, {name}",
                wall=median(edits.wall),
                cpu=median(edits.cpu),
                wall_p95=percentile(edits.wall, 0.95),
                cpu_p95=percentile(edits.cpu, 0.95),
                base_name="label.setText",
                base_wall=percentile(base.wall, 0.95),
                base_cpu=percentile(base.cpu, 0.95),
                ratio=percentile(ratios, 0.95) if ratios else None,
                target=("p95", "<=", FRAME_MS),
                note=(
                    f"{rows}{len(edits.cpu)} edits ({info['applied']:.0f}/{info['expected']:.0f} applied, "
                    f"{refused} refused); "
                    f"~{info['paints']:.0f} widgets painted per edit, up to {info['passes']:.0f} event passes; "
                    "baseline and ratio are p95s"
                ),
            )
        )
        window.close_current()
        qt.settle()
    qt.close_window(window)
    return figures


def _cases_main(argv: list[str]) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m bench.edits")
    parser.add_argument("--cases", required=True, help="system ids and/or « journal », comma-separated")
    parser.add_argument("--cycles", type=int, default=60)
    parser.add_argument("--raw", action="store_true", help="also print each edit's CPU time (JSON)")
    args = parser.parse_args(argv)
    for figure in run(cases=[c.strip() for c in args.cases.split(",") if c.strip()], cycles=args.cycles):
        print(
            f"{figure.name}: CPU p50 {figure.cpu:.2f} p95 {figure.cpu_p95:.2f} ms; "
            f"baseline p95 {figure.base_cpu:.2f} ms; {figure.note}",
            flush=True,
        )
    if args.raw:
        import json

        print("RAW " + json.dumps(RAW, ensure_ascii=False), flush=True)
    return 0


if __name__ == "__main__":
    if any(a.startswith("--cases") for a in sys.argv[1:]):
        sys.exit(_cases_main(sys.argv[1:]))
    from bench.__main__ import main

    sys.exit(main(["--only", "edits", *sys.argv[1:]]))
