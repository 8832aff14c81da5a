"""Saving and opening a GM table of 1,000 NPCs (the four systems, each hit, healed, with a condition),
against plain ``json.dumps`` + write and read + ``json.loads`` of the same data, in the same run.

- first save: ``files.write_document`` of a table whose 1,000 sheets the rules made since it was read
  (a blow to all of them: none known good), against ``json.dumps`` + a plain write. Each such sheet is
  checked to read back; the app does it in idle time (``controller.IdleChecks``: 1 s after the
  last change, slices of ≤ 5 ms), so the save the user waits for finds them checked. Three rows, each
  round forgetting every check first: the save after the idle checks (target ≤ 2×); the idle checks
  themselves (their CPU, the same ``files.checks_ahead`` slices as the app, no target: nobody waits
  for them); the save with nothing checked yet (a save within 1 s of the change: it checks every
  sheet itself, the worst case; no target).
- saved again: the same table, its sheets checked before (a table saved every minute re-checks only
  the sheets that changed). Target ≤ 3×.
- open: ``files.read_document`` (checked read, every sheet validated) against a read + ``json.loads``.
  Target ≤ 3×.

Our save is the atomic write (temp file, fsync, rename, fsync of the folder); the plain write is not.
CPU time (the verdict) leaves the disk's fsync out; wall time has it (and the fsync alone is shown).
Paired rounds, the order alternating; a ratio is the median of the per-round ratios.

``python -m bench.save [--quick]``
"""

from __future__ import annotations

import json
import os
import random
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import rules
from bench.common import Figure, Samples, median, paired
from sheet_app import files


def npc_table(count: int, seed: int = 7) -> files.Document:
    """``count`` NPCs of every system, each hit, healed, conditioned: varied, realistic sheets."""
    rng = random.Random(seed)
    sheets = []
    journals = []
    for i in range(count):
        system_id = rules.SYSTEMS[i % len(rules.SYSTEMS)]
        sheet = rules.evolve(rules.demo_sheet(system_id), name=f"PNJ {i + 1}", is_npc=True)
        info = rules.describe(system_id)
        log: list[str] = []
        actions: list[rules.Action] = [rules.Damage(amount=rng.randint(1, 8)), rules.Heal(amount=rng.randint(0, 3))]
        if info.conditions:
            actions.append(rules.SetCondition(condition=rng.choice(info.conditions).id))
        for action in actions:
            try:
                out = rules.apply(sheet, action, rng=rng)
            except rules.Refused:
                continue
            sheet = out.sheet
            log.extend(out.log)
        sheets.append(sheet)
        journals.append(log)
    return files.Document("table", sheets, journals, "Bench : 1 000 PNJ")


def _forget_checks() -> None:
    """As on a table's first save: no sheet checked yet (sheets read from a file count as checked)."""
    for name in ("_VERIFIED", "_REFUSED"):
        cache = getattr(files, name, None)
        if cache is not None:
            cache.clear()


def _idle_checks(doc: files.Document) -> None:
    """What ``controller.IdleChecks`` runs after a change: the steps of ``files.checks_ahead`` in slices
    of ``IDLE_CHECK_SLICE_S`` (the event loop turns between two slices in the app)."""
    from sheet_app.controller import IDLE_CHECK_SLICE_S

    deadline = time.perf_counter() + IDLE_CHECK_SLICE_S
    for _step in files.checks_ahead(doc.sheets, doc.house):
        if time.perf_counter() >= deadline:
            deadline = time.perf_counter() + IDLE_CHECK_SLICE_S  # the next slice


def _after_idle(
    save: Callable[[], object], plain: Callable[[], object], doc: files.Document, rounds: int
) -> tuple[Samples, Samples, Samples]:
    """Paired rounds of the save (after the idle checks) and the plain save, the order alternating; each
    round forgets every check, then runs and times the idle checks apart."""
    _slice_ms()  # the app's modules imported before anything is timed
    idle, ours, base = Samples(), Samples(), Samples()
    for r in range(rounds):
        _forget_checks()
        if r % 2:
            base.time(plain)
        idle.time(lambda: _idle_checks(doc))
        ours.time(save)
        if not r % 2:
            base.time(plain)
    return idle, ours, base


def _figure(
    name: str, ours: Samples, base: Samples, ratios: list[float], base_name: str, target: float | None
) -> Figure:
    return Figure(
        section="save",
        name=name,
        wall=median(ours.wall),
        cpu=median(ours.cpu),
        base_name=base_name,
        base_wall=median(base.wall),
        base_cpu=median(base.cpu),
        ratio=median(ratios),
        target=("ratio", "<=", target) if target else None,
        note=f"wall ratio {median([a / b for a, b in zip(ours.wall, base.wall, strict=True)]):.2f}×",
    )


def run(quick: bool = False) -> list[Figure]:
    npcs, rounds = (100, 3) if quick else (1000, 21)
    doc = npc_table(npcs)
    raw = files.encode_document(doc)
    data = json.loads(raw)
    folder = Path(tempfile.mkdtemp(prefix="bench_save_"))
    ours = folder / "table.table.json"
    plain = folder / "plain.json"
    try:

        def plain_save() -> None:
            with open(plain, "w", encoding="utf-8") as handle:
                handle.write(json.dumps(data, ensure_ascii=False))

        def plain_load() -> object:
            with open(plain, encoding="utf-8") as handle:
                return json.loads(handle.read())

        def first_save() -> None:
            _forget_checks()
            files.write_document(ours, doc)

        def save_again() -> None:
            files.write_document(ours, doc)

        def fsync_alone() -> None:
            fd = os.open(ours, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)

        plain_save()
        files.write_document(ours, doc)  # warm-up: the file exists, first-call caches filled
        plain_load()
        files.read_document(ours)
        # A first save's checks cannot be paired without un-checking: the forgetting is in ``first_save``,
        # and costs nothing next to a sheet's check.
        idle, after_idle, base = _after_idle(save_again, plain_save, doc, rounds)
        first = paired(first_save, plain_save, rounds)
        again = paired(save_again, plain_save, rounds)
        opened = paired(lambda: files.read_document(ours), plain_load, rounds)
        sync = Samples()
        for _ in range(rounds):
            sync.time(fsync_alone)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    size = len(raw) / 1e6
    cpu_ratios = lambda ours: [a / b for a, b in zip(ours.cpu, base.cpu, strict=True) if b > 0]  # noqa: E731
    figures = [
        _figure(
            f"first save, table of {npcs:,} NPCs ({size:.1f} MB), checked in idle time",
            after_idle,
            base,
            cpu_ratios(after_idle),
            "json.dumps + write",
            2.0,
        ),
        _figure(
            f"  its idle checks, {npcs:,} sheets (nobody waits)",
            idle,
            base,
            cpu_ratios(idle),
            "json.dumps + write",
            None,
        ),
        _figure("first save within 1 s of the change (checks all)", *first, "json.dumps + write", None),
        _figure("saved again (sheets checked before)", *again, "json.dumps + write", 3.0),
        _figure("open (read, check, validate every sheet)", *opened, "read + json.loads", 3.0),
    ]
    figures[0].note += f"; the fsync of the file alone: {median(sync.wall):.1f} ms wall"
    figures[1].note = f"in slices of ≤ {_slice_ms():g} ms, 1 s after the last change; {figures[1].note}"
    return figures


def _slice_ms() -> float:
    from sheet_app.controller import IDLE_CHECK_SLICE_S

    return IDLE_CHECK_SLICE_S * 1000


if __name__ == "__main__":
    from bench.__main__ import main

    sys.exit(main(["--only", "save", *sys.argv[1:]]))
