"""How fast ``rules.apply`` runs d20 on a realistic mix, against plain Python in the same run (issue 15).

Run: ``.venv/bin/python bench/bench_d20.py [--profile]``. The mix, per 20 actions: 8 damages (3 of them
dice), 5 heals, 2 temporary PV grants, 4 condition changes, 1 time advance; the sheet is brought back
to full PV when it falls, so every action does real work. Target: at least 100,000 actions per second.
The baseline is a dict doing the same arithmetic (a copy, temporary PV first, a clamp, a log line);
rounds are paired (each times both), and the ratio is the median of the per-round ratios, so a noisy
neighbour slows both alike. A benchmark, never a timed test.
"""

from __future__ import annotations

import cProfile
import pstats
import random
import statistics
import sys
import time

import rules

ROUNDS = 7
N = 20_000
TARGET = 100_000


def mix() -> list[rules.Action]:
    """20 actions in the proportions of issue 15."""
    return [
        rules.Damage(amount=4),
        rules.Heal(amount=3),
        rules.Damage(amount="1d6"),
        rules.SetCondition(condition="chancelant"),
        rules.Damage(amount=2),
        rules.GainTemporary(amount=5),
        rules.Heal(amount=2, magical=True),
        rules.Damage(amount="2d6+1"),
        rules.SetCondition(condition="chancelant", active=False),
        rules.Damage(amount=3, nonlethal=True),
        rules.Heal(amount=4),
        rules.SetCondition(condition="sans_defense"),
        rules.Damage(amount=5),
        rules.AdvanceTime(unit="round"),
        rules.Heal(amount=3),
        rules.Damage(amount="1d8"),
        rules.SetCondition(condition="sans_defense", active=False),
        rules.GainTemporary(amount=3, replace=True),
        rules.Damage(amount=6),
        rules.Heal(amount=5),
    ]


def start() -> rules.D20Sheet:
    return rules.new_sheet(
        "d20", name="Aldric", level=5, constitution=14, constitution_bonus=2, base_maximum=60, current=60
    )


def run_rules(n: int, rng: random.Random) -> rules.D20Sheet:
    actions = mix()
    fresh = start()
    sheet = fresh
    apply = rules.apply
    for i in range(n):
        sheet = apply(sheet, actions[i % 20], rng).sheet
        if sheet.current < 20:
            sheet = fresh
    return sheet


def baseline_apply(sheet: dict[str, int], kind: str, amount: int) -> tuple[dict[str, int], list[str]]:
    """The same arithmetic on a dict: a copy (the input stays untouched), temporary first, clamp, a log line."""
    new = dict(sheet)
    log: list[str] = []
    if kind == "damage":
        absorbed = min(new["temporary"], amount)
        new["temporary"] -= absorbed
        before = new["current"]
        new["current"] = before - (amount - absorbed)
        log.append(f"Dégâts : {amount} : {before} → {new['current']} PV.")
    elif kind == "heal":
        before = new["current"]
        new["current"] = min(new["maximum"], before + amount)
        log.append(f"Soins {amount} : {before} → {new['current']} PV.")
    elif kind == "temporary":
        new["temporary"] = max(new["temporary"], amount)
        log.append(f"PV temporaires : {new['temporary']}.")
    elif kind == "condition":
        new["conditions"] = new["conditions"] ^ 1
        log.append("État changé.")
    else:
        new["clock"] += 6
        log.append("Le temps passe : 1 × round.")
    return new, log


PLAIN_KINDS = [
    ("damage", 4),
    ("heal", 3),
    ("damage", 3),
    ("condition", 0),
    ("damage", 2),
    ("temporary", 5),
    ("heal", 2),
    ("damage", 8),
    ("condition", 0),
    ("damage", 3),
    ("heal", 4),
    ("condition", 0),
    ("damage", 5),
    ("time", 0),
    ("heal", 3),
    ("damage", 4),
    ("condition", 0),
    ("temporary", 3),
    ("damage", 6),
    ("heal", 5),
]


def run_plain(n: int, rng: random.Random) -> dict[str, int]:
    fresh = {"current": 60, "maximum": 60, "temporary": 0, "conditions": 0, "clock": 0}
    sheet = fresh
    for i in range(n):
        kind, amount = PLAIN_KINDS[i % 20]
        if kind == "damage" and i % 20 in (2, 7, 15):
            amount = rng.randint(1, 6)  # the dice of the mix
        sheet, _ = baseline_apply(sheet, kind, amount)
        if sheet["current"] < 20:
            sheet = fresh
    return sheet


def main() -> None:
    if "--profile" in sys.argv:
        profiler = cProfile.Profile()
        profiler.enable()
        run_rules(N, random.Random(1))
        profiler.disable()
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(30)
        return
    pairs = []
    for r in range(ROUNDS):
        a = time.perf_counter()
        run_rules(N, random.Random(r))
        b = time.perf_counter()
        run_plain(N, random.Random(r))
        c = time.perf_counter()
        pairs.append((b - a, c - b))
    t_rules = statistics.median(p[0] for p in pairs)
    t_plain = statistics.median(p[1] for p in pairs)
    ratio = statistics.median(p[0] / p[1] for p in pairs)
    rate = N / t_rules
    print(f"rules.apply d20, mélange réaliste : {rate:12,.0f} actions/s")
    print(f"dict Python, même arithmétique    : {N / t_plain:12,.0f} actions/s")
    print(f"ratio apply / dict (médiane)      : {ratio:12.1f} × plus lent")
    print(f"objectif {TARGET:,} actions/s      : {'atteint' if rate >= TARGET else 'NON atteint'}")


if __name__ == "__main__":
    main()
