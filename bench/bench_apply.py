"""How fast ``rules.apply`` runs on a Douaratil sheet, against plain Python doing the same arithmetic.

Run: ``.venv/bin/python bench/bench_apply.py``. Prints actions per second for both, measured in the same
run, and their ratio. Target: at least 100,000 actions per second. A benchmark, never a timed test.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

import rules

ROUNDS = 7
N = 20_000


def baseline_apply(sheet: dict[str, int], kind: str, amount: int) -> tuple[dict[str, int], list[str]]:
    """The same arithmetic on a dict: a copy (the input stays untouched), temporary first, clamp, a log line."""
    new = dict(sheet)
    log: list[str] = []
    if kind == "damage":
        absorbed = min(new["temporary"], amount)
        new["temporary"] -= absorbed
        before = new["current"]
        new["current"] = max(0, before - (amount - absorbed))
        log.append(f"{new['name']} subit {amount} dégâts : {before} → {new['current']} PA.")
    else:
        top = new["base_maximum"] - new["exhaustion"]
        before = new["current"]
        new["current"] = min(top, before + amount)
        log.append(f"Soins {amount} : {before} → {new['current']} PA.")
    return new, log


def timed(fn: Callable[[], None]) -> float:
    samples = []
    for _ in range(ROUNDS):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def main() -> None:
    sheet = rules.new_sheet("douaratil", name="Ulfred", base_maximum=10_000, current=5_000, exhaustion=2)
    damage, heal = rules.Damage(amount=2), rules.Heal(amount=2)
    rng = random.Random(1)

    def run_rules() -> None:
        s = sheet
        for i in range(N):
            s = rules.apply(s, damage if i % 2 else heal, rng).sheet

    plain = {"name": 0, "current": 5_000, "base_maximum": 10_000, "temporary": 0, "exhaustion": 2}
    plain["name"] = "Ulfred"  # type: ignore[assignment]

    def run_plain() -> None:
        s = plain
        for i in range(N):
            s, _ = baseline_apply(s, "damage" if i % 2 else "heal", 2)

    def run_derive() -> None:
        for _ in range(N // 10):
            rules.derive(sheet)

    # Paired rounds: each round times both, so a noisy neighbour slows both alike; the ratio is the
    # median of the per-round ratios.
    pairs = []
    for _ in range(ROUNDS):
        a = time.perf_counter()
        run_rules()
        b = time.perf_counter()
        run_plain()
        c = time.perf_counter()
        pairs.append((b - a, c - b))
    t_rules = statistics.median(p[0] for p in pairs)
    t_plain = statistics.median(p[1] for p in pairs)
    ratio = statistics.median(p[0] / p[1] for p in pairs)
    t_derive = timed(run_derive)
    rate_rules, rate_plain = N / t_rules, N / t_plain
    print(f"rules.apply (Douaratil, dégâts/soins) : {rate_rules:12,.0f} actions/s")
    print(f"dict Python, même arithmétique       : {rate_plain:12,.0f} actions/s")
    print(f"ratio apply / dict (médiane par paire): {ratio:12.1f} × plus lent")
    print(f"rules.derive (toutes les valeurs)     : {(N // 10) / t_derive:12,.0f} fiches/s")
    verdict = "atteint" if rate_rules >= 100_000 else "NON atteint"
    print(f"objectif 100 000 actions/s           : {verdict}")
    print()
    print("Par système (dégâts 1 / soins 1 alternés ; derive de la fiche de démonstration) :")
    for system_id in rules.SYSTEMS:
        demo = rules.demo_sheet(system_id)
        kinds = {a.__name__ for a in rules.describe(system_id).actions}
        line = f"  {system_id:10}"
        if {"Damage", "Heal"} <= kinds and "trauma" not in rules.describe(system_id).features:
            start = rules.apply(demo, rules.Heal(amount=1000, magical=True), rng).sheet
            hit, cure = rules.Damage(amount=1), rules.Heal(amount=1)

            def run_system(start: object = start, hit: rules.Action = hit, cure: rules.Action = cure) -> None:
                s = start
                for i in range(N // 4):
                    s = rules.apply(s, hit if i % 2 else cure, rng).sheet

            t = timed(run_system)
            line += f" apply {(N // 4) / t:10,.0f} actions/s ({t / (N // 4) / (t_plain / N):5.1f} × le dict)"
        else:
            line += " apply        (pas de points de vie : jauge de Trauma)            "

        def run_system_derive(demo: object = demo) -> None:
            for _ in range(N // 20):
                rules.derive(demo)

        t = timed(run_system_derive)
        line += f" ; derive {(N // 20) / t:8,.0f} fiches/s"
        print(line)


if __name__ == "__main__":
    main()
