"""``rules.apply`` of two trees, A and B, on bench.apply's realistic mix, alternated many times.

Each tree runs in its own process (its own ``rules``, its own pydantic: one tree's module-level changes,
such as ``BaseModel.__getattr__`` taken away, cannot speed up the other), both alive for the whole run.
The driver asks one batch of each in turn, in ABBA order, and never both at once: a burst of load on the
shared machine slows A and B alike. Each batch is ``n`` actions of the mix, the character starting again
every 20 actions as in ``bench.apply`` (same generator seed in both), timed in CPU time of its process
(``time.process_time``) and wall time. Printed: each tree's median rate, and the median of the per-round
rates' ratio B/A with its interquartile range: what a change of instructions per action should move.

``python -m bench.ab_apply A_TREE B_TREE [--system segments] [--n 2000] [--rounds 200]``

A tree is a checkout of the project (``git archive <commit> | tar -x -C DIR``); its own ``rules`` and
``bench.apply`` are imported (``PYTHONPATH=TREE``), with this process's Python.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

WORKER = r"""
import gc, random, sys, time
import rules
from bench.apply import MIXES
start, mix = MIXES[sys.argv[1]]()
n = int(sys.argv[2])
apply, Refused, process_time, perf_counter = rules.apply, rules.Refused, time.process_time, time.perf_counter

def run():
    rng = random.Random(1)
    s = start
    for i in range(n):
        if i % 20 == 0:
            s = start
        try:
            s = apply(s, mix[i % 20], rng).sheet
        except Refused:
            pass

run()  # warm-up: the rule table loaded, caches filled
print(rules.__file__, flush=True)
for line in sys.stdin:
    gc.collect()
    c0, w0 = process_time(), perf_counter()
    run()
    c1, w1 = process_time(), perf_counter()
    print(c1 - c0, w1 - w0, flush=True)
"""


class Worker:
    def __init__(self, tree: Path, system: str, n: int) -> None:
        env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONHASHSEED": "0"}
        self.proc = subprocess.Popen(
            [sys.executable, "-c", WORKER, system, str(n)],
            cwd=tree,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.proc.stdout is not None
        self.module = self.proc.stdout.readline().strip()

    def batch(self) -> tuple[float, float]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write("go\n")
        self.proc.stdin.flush()
        cpu, wall = self.proc.stdout.readline().split()
        return float(cpu), float(wall)

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait()


def quartiles(values: list[float]) -> tuple[float, float, float]:
    q1, q2, q3 = statistics.quantiles(values, n=4)
    return q1, q2, q3


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("a", type=Path)
    parser.add_argument("b", type=Path)
    parser.add_argument("--system", default="segments")
    parser.add_argument("--n", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=200)
    args = parser.parse_args(argv)
    a, b = Worker(args.a.resolve(), args.system, args.n), Worker(args.b.resolve(), args.system, args.n)
    print(f"A: {a.module}\nB: {b.module}")
    times: dict[str, list[tuple[float, float]]] = {"A": [], "B": []}
    try:
        for r in range(args.rounds):
            order = (("A", a), ("B", b)) if r % 2 == 0 else (("B", b), ("A", a))
            for name, worker in order:
                times[name].append(worker.batch())
    finally:
        a.close()
        b.close()
    n = args.n
    for measure, index in (("CPU", 0), ("wall", 1)):
        rate_a = [n / t[index] for t in times["A"]]
        rate_b = [n / t[index] for t in times["B"]]
        ratios = [y / x for x, y in zip(rate_a, rate_b, strict=True)]
        q1, q2, q3 = quartiles(ratios)
        print(
            f"{measure:>4}: A {statistics.median(rate_a):,.0f}/s  B {statistics.median(rate_b):,.0f}/s  "
            f"B/A {q2:.4f} (quartiles {q1:.4f}–{q3:.4f}; {args.rounds} rounds of {n:,} actions, ABBA)"
        )


if __name__ == "__main__":
    main()
