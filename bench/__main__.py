"""``python -m bench [--quick] [--only SECTION,…]``: every speed figure of the app in one table.

Each section runs in a process of its own (a 1,000-creature table does not weigh on the edits that
follow) and hands its figures back; one table is printed at the end: median and p95 (CPU time | wall
time), the baseline measured in the same run, the ratio, the target and whether it is met (judged on
CPU time: on a shared, loaded machine wall time counts the others' work too).

``--quick``: a few rounds of everything, so that the benches never rot (``.ci/run``); its numbers are
not worth reading and it never fails on one. A benchmark, never a test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import datetime
import importlib
import json
import os
import platform
import subprocess
import sys
import time
from collections.abc import Sequence

from bench.common import Figure, format_table, load

# section → module (each has ``run(quick) -> list[Figure]``), in the order of the table.
SECTIONS = {
    "startup": "bench.startup",
    "edits": "bench.edits",
    "apply": "bench.apply",
    "save": "bench.save",
    "table": "bench.table",
    "printing": "bench.printing",
}
MARK = "BENCH-FIGURES:"


def machine() -> str:
    from pydantic import VERSION as pydantic_version
    from PySide6 import __version__ as qt_version

    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            cpu = next((line.split(":", 1)[1].strip() for line in info if line.startswith("model name")), cpu)
    except OSError:
        pass
    return (
        f"{cpu}, {os.cpu_count()} cores; Python {platform.python_version()}, PySide6 {qt_version}, "
        f"pydantic {pydantic_version}; {platform.system()} {platform.release()}"
    )


def run_section(name: str, quick: bool) -> list[Figure]:
    module = importlib.import_module(SECTIONS[name])
    figures: list[Figure] = module.run(quick)
    return figures


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few rounds only (CI: the benches keep running)")
    parser.add_argument("--only", default="", help="comma-separated sections: " + ", ".join(SECTIONS))
    parser.add_argument("--section", help=argparse.SUPPRESS)  # run one section here, figures as JSON
    args = parser.parse_args(argv)

    if args.section:
        figures = run_section(args.section, args.quick)
        print(MARK + json.dumps([f.to_json() for f in figures], ensure_ascii=False), flush=True)
        return 0

    names = [n.strip() for n in args.only.split(",") if n.strip()] or list(SECTIONS)
    unknown = [n for n in names if n not in SECTIONS]
    if unknown:
        parser.error(f"unknown section(s): {', '.join(unknown)} (known: {', '.join(SECTIONS)})")
    started = time.perf_counter()
    load_before = load()
    figures: list[Figure] = []
    failed: list[str] = []
    for name in names:
        print(f"[bench] {name}…", file=sys.stderr, flush=True)
        cmd = [sys.executable, "-m", "bench", "--section", name, *(["--quick"] if args.quick else [])]
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, text=True, check=False)
        found = [line for line in proc.stdout.splitlines() if line.startswith(MARK)]
        if proc.returncode != 0 or not found:
            failed.append(name)
            print(proc.stdout, file=sys.stderr)
            continue
        figures += [Figure.from_json(d) for d in json.loads(found[-1][len(MARK) :])]
    print()
    print(f"sheet_app benchmarks — {datetime.datetime.now().isoformat(timespec='minutes')}")
    print(f"machine: {machine()}")
    print(f"load before: {load_before}; after: {load()}; {time.perf_counter() - started:.0f} s")
    if args.quick:
        print("QUICK MODE: a few rounds only, the numbers are not worth reading.")
    print("median and p95: CPU time of the process doing the work | wall time; verdicts on CPU time.")
    print()
    print(format_table(figures))
    if failed:
        print(f"\nsections that failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
