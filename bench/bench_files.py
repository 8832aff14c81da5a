"""Save and load of a 1,000-NPC GM table against plain ``json.dumps`` / ``json.loads`` of the same data.

Run: ``.venv/bin/python bench/bench_files.py [--npcs 1000] [--repeat 15]``
     ``.venv/bin/python bench/bench_files.py --hostile [--full] [--only NAME…]``

Everything is measured in the same run and printed as ratios to the baselines (fastest of
``--repeat`` runs, the least disturbed on a shared machine), so the numbers mean the same on a slow or
a busy machine. Target: ≤ 3× both ways.

- encode: ``files.encode_document`` (document → indented UTF-8 JSON bytes, sheets as the rules write
  them, each checked to validate as it will be read) against ``json.dumps`` of the same plain data —
  compact (the C encoder: the hard baseline) and indented (what a human-readable file costs with the
  standard library). « first save »: every sheet is checked; « saved again »: the sheets were checked
  before (immutable sheets are checked once; a GM's table saved every minute re-checks only the
  sheets that changed; a table read from a file starts all checked).
- decode: ``files.decode_document`` (bytes → checked text → JSON → envelope → every sheet validated by
  its system's pydantic model) against ``json.loads`` of the same bytes.
- ``--hostile``: the hostile corpus of ``tests/files/hostile.py`` (issue 16). Each file of megabytes
  is read by ``read_document`` in a fresh process: its time and the process's peak memory (Python,
  pydantic and the rules included; the import baseline is shown apart) against the target « every
  file ≤ 32 Mo answered in ≤ 2 s and ≤ 400 Mo peak ». The small files (truncations, byte flips,
  every field × wrong types and extreme numbers, special files; ``--full``: every offset and value)
  are read in this process: count, slowest, total.
- save / load: the same through the disk. Save is the atomic write (temp file + fsync + rename + fsync
  of the folder) against ``json.dumps`` + a plain write; load is ``read_document`` (size-checked read,
  digest) against a plain read + ``json.loads``. fsync depends on the disk, so it is shown apart.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import rules
from sheet_app import files

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script: the repository's bench package
from bench.save import npc_table


def best_ms(fn: Callable[[], object], repeat: int) -> float:
    """Fastest of ``repeat`` runs: on a shared machine, the run the others disturbed least."""
    fn()  # warm-up (first-call caches, page cache)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times) * 1000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--npcs", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--hostile", action="store_true", help="the hostile corpus (issue 16)")
    parser.add_argument("--full", action="store_true", help="with --hostile: every offset and value")
    parser.add_argument("--only", nargs="*", default=None, help="with --hostile: only these big files")
    parser.add_argument("--big-only", action="store_true", help="with --hostile: only the big files")
    parser.add_argument("--timeout", type=float, default=300, help="with --hostile: seconds allowed a big file")
    args = parser.parse_args(argv)
    if args.hostile:
        return hostile(args.full, args.only, args.timeout, args.big_only)

    doc = npc_table(args.npcs)
    raw = files.encode_document(doc)
    data = json.loads(raw)
    assert files.decode_document(raw).sheets == doc.sheets, "round trip broken"

    folder = Path(tempfile.mkdtemp(prefix="bench_files."))
    ours = folder / "table.table.json"
    plain = folder / "plain.json"

    def plain_save() -> None:
        with open(plain, "w", encoding="utf-8") as handle:
            handle.write(json.dumps(data, ensure_ascii=False))

    def plain_load() -> object:
        with open(plain, encoding="utf-8") as handle:
            return json.loads(handle.read())

    plain_save()
    files.write_document(ours, doc)
    r = args.repeat
    results = {
        "json.dumps (compact)": best_ms(lambda: json.dumps(data, ensure_ascii=False), r),
        "json.dumps (indent=2)": best_ms(lambda: json.dumps(data, ensure_ascii=False, indent=2), r),
        "encode_document, first save": best_ms(lambda: _first(lambda: files.encode_document(doc)), r),
        "encode_document, saved again": best_ms(lambda: files.encode_document(doc), r),
        "json.loads": best_ms(lambda: json.loads(raw), r),
        "decode_document": best_ms(lambda: files.decode_document(raw), r),
        "plain save (dumps + write)": best_ms(plain_save, r),
        "write_document, first save": best_ms(lambda: _first(lambda: files.write_document(ours, doc)), r),
        "write_document, saved again": best_ms(lambda: files.write_document(ours, doc), r),
        "fsync of the file alone": best_ms(lambda: _fsync_only(ours), r),
        "plain load (read + loads)": best_ms(plain_load, r),
        "read_document": best_ms(lambda: files.read_document(ours), r),
    }
    for path in folder.iterdir():
        path.unlink()
    folder.rmdir()

    size = len(raw) / 1e6
    print(f"sheet_app files bench: {args.npcs} NPCs ({', '.join(rules.SYSTEMS)}), {size:.2f} MB file, fastest of {r}")
    width = max(len(k) for k in results)
    for name, ms in results.items():
        print(f"  {name:<{width}}  {ms:8.2f} ms")
    dumps, plain_write = results["json.dumps (compact)"], results["plain save (dumps + write)"]
    ratios = [
        ("encode first save / json.dumps compact", results["encode_document, first save"] / dumps),
        ("encode saved again / json.dumps compact", results["encode_document, saved again"] / dumps),
        (
            "encode first save / json.dumps indent=2",
            results["encode_document, first save"] / results["json.dumps (indent=2)"],
        ),
        ("decode / json.loads", results["decode_document"] / results["json.loads"]),
        ("save first / plain save", results["write_document, first save"] / plain_write),
        ("save again / plain save", results["write_document, saved again"] / plain_write),
        ("load / plain load", results["read_document"] / results["plain load (read + loads)"]),
    ]
    print("ratios (target ≤ 3×):")
    for name, ratio in ratios:
        print(f"  {name:<{width + 14}}  {ratio:5.2f}×  {'ok' if ratio <= 3 else 'SLOWER THAN TARGET'}")
    return 0


TARGET_SECONDS = 2.0
TARGET_PEAK_MB = 400.0


def hostile(full: bool, only: list[str] | None, timeout: float = 300, big_only: bool = False) -> int:
    """Time and peak memory of every hostile file against the target; 1 if any misses it."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the corpus lives with the tests
    from tests.files import hostile as corpus

    missed = 0
    with tempfile.TemporaryDirectory(prefix="bench_hostile.") as tmp:
        folder = Path(tmp)
        small = [] if big_only else list(corpus.corpus(full=full, big=False))
        worst = (0.0, "")
        outcomes: dict[str, int] = {}
        start = time.perf_counter()
        for item in small:
            sub = folder / f"s{len(outcomes)}"
            sub.mkdir(exist_ok=True)
            path = item.make(sub)
            t0 = time.perf_counter()
            try:
                files.read_document(path)
                outcome = "ok"
            except files.FileProblem:
                outcome = "refused"
            except BaseException as exc:
                outcome = f"crash {type(exc).__name__}"
                print(f"  CRASH {item.name}: {exc!r}"[:300])
            dt = time.perf_counter() - t0
            worst = max(worst, (dt, item.name))
            outcomes[outcome] = outcomes.get(outcome, 0) + 1
            for p in sorted(sub.iterdir(), reverse=True):
                if p.is_dir() and not p.is_symlink():
                    p.rmdir()
                else:
                    p.unlink()
        total = time.perf_counter() - start
        print(f"hostile corpus, small files ({'full' if full else 'quick'}): {len(small)} files in {total:.1f} s")
        print(f"  outcomes: {outcomes}; slowest {worst[0] * 1000:.0f} ms ({worst[1]})")
        if any(k.startswith("crash") for k in outcomes):
            missed += 1
        print(
            f"hostile corpus, big files (a fresh process each; target ≤ {TARGET_SECONDS:.0f} s, "
            f"≤ {TARGET_PEAK_MB:.0f} Mo):"
        )
        # How busy the machine is: the times above scale with it (the target is for a quiet core).
        reference = files.encode_document(npc_table(1000))
        loads_ms = best_ms(lambda: json.loads(reference), 5)
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        print(
            f"  machine: load average {load:.1f} on {os.cpu_count()} cores; json.loads of the 1,000-NPC table "
            f"({len(reference) / 1e6:.1f} MB): {loads_ms:.0f} ms"
        )
        print(f"  {'file':<32} {'size':>8} {'time':>8} {'peak':>8} {'base':>6}  outcome")
        for item in corpus.big_files():
            if only and item.name not in only:
                continue
            path = item.make(folder)
            size = path.stat().st_size / 1e6
            got = corpus.answer_in_child(path, timeout=timeout)
            path.unlink()
            ok = got.outcome in ("ok", "refused") and got.seconds <= TARGET_SECONDS and got.peak_mb <= TARGET_PEAK_MB
            missed += not ok
            first = got.message.splitlines()[0][:90] if got.message else ""
            print(
                f"  {item.name:<32} {size:6.1f}MB {got.seconds:7.2f}s {got.peak_mb:6.0f}MB {got.baseline_mb:5.0f}MB"
                f"  {got.outcome}{'' if ok else '  MISSES TARGET'}  {first}"
            )
    return 1 if missed else 0


def _first(fn: Callable[[], object]) -> object:
    """As on the first save of a table: no sheet checked yet (sheets read from a file count as checked)."""
    files._VERIFIED.clear()
    return fn()


def _fsync_only(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


if __name__ == "__main__":
    sys.exit(main())
