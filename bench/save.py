"""Saving and opening a GM table of 1,000 NPCs (the four systems, each hit, healed, with a condition),
against plain ``json.dumps`` + write and read + ``json.loads`` of the same data, in the same run.

- first save: ``files.write_document`` of a table none of whose sheets were checked yet (each sheet is
  checked to read back before anything is written), against ``json.dumps`` + a plain write. Target ≤ 2×.
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
    verified = getattr(files, "_VERIFIED", None)
    if verified is not None:
        verified.clear()


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
        first = paired(first_save, plain_save, rounds)
        again = paired(save_again, plain_save, rounds)
        opened = paired(lambda: files.read_document(ours), plain_load, rounds)
        sync = Samples()
        for _ in range(rounds):
            sync.time(fsync_alone)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    size = len(raw) / 1e6
    figures = [
        _figure(f"first save, table of {npcs:,} NPCs ({size:.1f} MB)", *first, "json.dumps + write", 2.0),
        _figure("saved again (sheets checked before)", *again, "json.dumps + write", 3.0),
        _figure("open (read, check, validate every sheet)", *opened, "read + json.loads", 3.0),
    ]
    figures[0].note += f"; the fsync of the file alone: {median(sync.wall):.1f} ms wall"
    return figures


if __name__ == "__main__":
    from bench.__main__ import main

    sys.exit(main(["--only", "save", *sys.argv[1:]]))
