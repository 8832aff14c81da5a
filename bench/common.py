"""What every section of ``python -m bench`` shares: a figure, statistics, paired rounds, the table.

A figure is measured where the user is and against a baseline measured in the same run. On these
shared, loaded machines wall-clock time counts the other processes too: every figure is also measured
in CPU time of the process doing the work (``time.process_time``; for a child process, its rusage),
and the verdict is taken on CPU time when there is one. Paired rounds put the figure and its baseline
side by side, in alternating order, so that a burst of load slows both alike; a ratio is the median of
the per-round ratios.
"""

from __future__ import annotations

import dataclasses
import math
import os
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass
class Figure:
    """One line of the table.

    ``wall`` / ``cpu``: the median (milliseconds, or what ``unit`` says); ``*_p95`` for a latency;
    ``base_*`` the baseline of the same run; ``ratio`` the median of paired ratios (CPU when known).
    ``target``: (measure, "<=" or ">=", bound) where measure is "median", "p95" or "ratio"; the verdict
    uses CPU time when there is one, else wall time.
    """

    section: str
    name: str
    unit: str = "ms"
    wall: float | None = None
    cpu: float | None = None
    wall_p95: float | None = None
    cpu_p95: float | None = None
    base_name: str = ""
    base_wall: float | None = None
    base_cpu: float | None = None
    ratio: float | None = None
    target: tuple[str, str, float] | None = None
    note: str = ""

    def trusted(self, measure: str) -> float | None:
        if measure == "ratio":
            return self.ratio
        if measure == "p95":
            return self.cpu_p95 if self.cpu_p95 is not None else self.wall_p95
        return self.cpu if self.cpu is not None else self.wall

    @property
    def met(self) -> bool | None:
        if self.target is None:
            return None
        measure, op, bound = self.target
        value = self.trusted(measure)
        if value is None or math.isnan(value):
            return None
        return value <= bound if op == "<=" else value >= bound

    def target_text(self) -> str:
        if self.target is None:
            return ""
        measure, op, bound = self.target
        sign = "≤" if op == "<=" else "≥"
        if measure == "ratio":
            return f"{sign} {bound:g}× base"
        shown = f"{bound:,.0f}" if bound >= 1000 else f"{bound:g}"
        return f"{'p95 ' if measure == 'p95' else ''}{sign} {shown} {self.unit}"

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Figure:
        if data.get("target") is not None:
            data = {**data, "target": tuple(data["target"])}
        return cls(**data)


# --- statistics ------------------------------------------------------------------------------------


def percentile(values: Sequence[float], fraction: float) -> float:
    """The value below which ``fraction`` of ``values`` lie (nearest rank; p95 of 20 values = the 19th)."""
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = max(1, math.ceil(fraction * len(ordered)))
    return ordered[rank - 1]


def median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else math.nan


@dataclass
class Samples:
    """Wall and CPU milliseconds of repeated runs of one thing."""

    wall: list[float] = dataclasses.field(default_factory=list)
    cpu: list[float] = dataclasses.field(default_factory=list)

    def add(self, wall_ms: float, cpu_ms: float) -> None:
        self.wall.append(wall_ms)
        self.cpu.append(cpu_ms)

    def time(self, fn: Callable[[], object]) -> object:
        start, cpu = time.perf_counter(), time.process_time()
        result = fn()
        self.add((time.perf_counter() - start) * 1000, (time.process_time() - cpu) * 1000)
        return result


def paired(a: Callable[[], object], b: Callable[[], object], rounds: int) -> tuple[Samples, Samples, list[float]]:
    """``rounds`` rounds of ``a`` and ``b`` back to back, the order alternating; also the per-round CPU
    ratios a / b."""
    sa, sb = Samples(), Samples()
    for r in range(rounds):
        if r % 2:
            sb.time(b)
            sa.time(a)
        else:
            sa.time(a)
            sb.time(b)
    ratios = [x / y for x, y in zip(sa.cpu, sb.cpu, strict=True) if y > 0]
    return sa, sb, ratios


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load {one:.1f} (5 min {five:.1f}) on {os.cpu_count()} cores"


# --- the table -------------------------------------------------------------------------------------


def _num(value: float | None, unit: str) -> str:
    if value is None or math.isnan(value):
        return "—"
    if unit == "/s":
        return f"{value:,.0f}"
    if abs(value) >= 100:
        return f"{value:.0f}"
    if abs(value) >= 10:
        return f"{value:.1f}"
    return f"{value:.2f}"


def _pair(cpu: float | None, wall: float | None, unit: str) -> str:
    if cpu is None and wall is None:
        return "—"
    if cpu is None:
        return f"{_num(wall, unit)} {unit}"
    return f"{_num(cpu, unit)} | {_num(wall, unit)} {unit}"


def format_table(figures: Sequence[Figure]) -> str:
    """One table: what, median (CPU | wall), p95 (CPU | wall), baseline of the same run, ratio, target, met."""
    head = ("figure", "median CPU | wall", "p95 CPU | wall", "baseline, same run (CPU | wall)", "ratio", "target")
    head += ("met",)
    rows = [head]
    for f in figures:
        base = f"{f.base_name} {_pair(f.base_cpu, f.base_wall, f.unit)}" if f.base_name else "—"
        met = {True: "yes", False: "NO", None: ""}[f.met]
        rows.append(
            (
                f.name,
                _pair(f.cpu, f.wall, f.unit),
                _pair(f.cpu_p95, f.wall_p95, f.unit) if (f.cpu_p95 or f.wall_p95) else "—",
                base,
                "—" if f.ratio is None or math.isnan(f.ratio) else f"{f.ratio:.2f}×",
                f.target_text() or "—",
                met,
            )
        )
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    lines = []
    for n, row in enumerate(rows):
        cells = [c.ljust(w) if i in (0, 3, 5) else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths, strict=True))]
        lines.append("  ".join(cells).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    notes = [f"  {f.name}: {f.note}" for f in figures if f.note]
    if notes:
        lines += ["", "notes:", *notes]
    return "\n".join(lines)
