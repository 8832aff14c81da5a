"""How fast ``rules.apply`` runs a realistic Douaratil fight, against plain Python doing the same work.

Run: ``.venv/bin/python bench/bench_douaratil.py [--quick]``. The mix is issue 15's, per 20 actions: 8 damages
(3 of them dice), 5 heals (2 of them dice), 2 temporary-point grants, 4 condition changes, 1 round passing,
on a character who stays in the fight. The baseline is the same arithmetic on a plain dict (a copy per
action, dice from the same generator, one journal line each), measured in the same run; rounds are paired
and interleaved so a noisy neighbour slows both alike. Target: at least 100,000 actions per second.
A benchmark, never a timed test.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from typing import Any

import rules

N = 20_000
TARGET = 100_000


def mix() -> list[rules.Action]:
    """Twenty actions, in the order a fight throws them."""
    damages: list[int | str] = ["1d6", 3, "1d8", 2, 4, "2d4", 1, 2]
    heals: list[int | str] = [4, "1d6", 5, 6, "1d4"]
    actions: list[rules.Action] = []
    for i in range(8):
        actions.append(rules.Damage(amount=damages[i]))
        if i < 5:
            actions.append(rules.Heal(amount=heals[i]))
    actions.insert(3, rules.GainTemporary(amount=5, replace=True))
    actions.insert(11, rules.GainTemporary(amount=3))
    for i, condition in enumerate(("aveugle", "a_terre")):
        actions.insert(5 + 6 * i, rules.SetCondition(condition=condition))
        actions.insert(8 + 6 * i, rules.SetCondition(condition=condition, active=False))
    actions.append(rules.AdvanceTime(unit="round"))
    assert len(actions) == 20
    return actions


def start() -> Any:
    return rules.new_sheet("douaratil", name="Ulfred", level=3, base_maximum=40, constitution=14)


def run_rules(actions: list[rules.Action], rng: random.Random) -> int:
    sheet, refused = start(), 0
    for i in range(N):
        try:
            sheet = rules.apply(sheet, actions[i % 20], rng).sheet
        except rules.Refused:
            refused += 1
    return refused


def baseline(actions: list[rules.Action], rng: random.Random) -> int:
    """The same mix on a dict: temporary points first, clamps, keep-or-replace, a set of states, a clock."""
    plain: dict[str, Any] = {"name": "Ulfred", "current": 40, "maximum": 40, "temporary": 0, "conditions": (),
                             "clock": 0}  # fmt: skip
    sheet = plain
    for i in range(N):
        action = actions[i % 20]
        new = dict(sheet)
        log: list[str] = []
        kind = action.kind
        if kind in ("damage", "heal", "gain_temporary"):
            amount = action.amount  # type: ignore[attr-defined]
            if isinstance(amount, str):
                count, sides = (int(x) for x in amount.split("d"))
                faces = [rng.randrange(sides) + 1 for _ in range(count)]
                amount = sum(faces)
                log.append(f"{count}d{sides} ({', '.join(map(str, faces))}) = {amount}")
            if kind == "damage":
                absorbed = min(new["temporary"], amount)
                new["temporary"] -= absorbed
                before = new["current"]
                new["current"] = max(0, before - (amount - absorbed))
                log.append(f"{new['name']} subit {amount} dégâts : {before} → {new['current']} PA.")
            elif kind == "heal":
                before = new["current"]
                new["current"] = min(new["maximum"], before + amount)
                log.append(f"Soins {amount} : {before} → {new['current']} PA.")
            else:
                new["temporary"] = amount if action.replace or not new["temporary"] else new["temporary"]  # type: ignore[attr-defined]
                log.append(f"Points temporaires : {new['temporary']}.")
        elif kind == "set_condition":
            cid = action.condition  # type: ignore[attr-defined]
            kept = set(new["conditions"]) - {cid}
            new["conditions"] = tuple(sorted(kept | {cid})) if action.active else tuple(sorted(kept))  # type: ignore[attr-defined]
            log.append(f"État {cid} {'ajouté' if action.active else 'retiré'}.")  # type: ignore[attr-defined]
        else:
            new["clock"] += 6
            log.append("Le temps passe : 1 round.")
        sheet = new
    return 0


def main() -> None:
    quick = "--quick" in sys.argv
    rounds = 3 if quick else 9
    actions = mix()
    refused = run_rules(actions, random.Random(1))
    # Each round times both, on the wall clock and in processor time (which a busy machine inflates less:
    # a process waiting for a core is not counted).
    pairs, cpu_pairs = [], []
    for r in range(rounds):
        a, a_cpu = time.perf_counter(), time.process_time()
        run_rules(actions, random.Random(r))
        b, b_cpu = time.perf_counter(), time.process_time()
        baseline(actions, random.Random(r))
        c, c_cpu = time.perf_counter(), time.process_time()
        pairs.append((b - a, c - b))
        cpu_pairs.append((b_cpu - a_cpu, c_cpu - b_cpu))
    t_rules = statistics.median(p[0] for p in pairs)
    t_plain = statistics.median(p[1] for p in pairs)
    cpu_rules = statistics.median(p[0] for p in cpu_pairs)
    ratio = statistics.median(p[0] / p[1] for p in cpu_pairs)
    rate = N / cpu_rules
    print(f"Douaratil, mélange réaliste ({N} actions, {refused} refusées) :")
    print(f"  rules.apply          : {N / t_rules:12,.0f} actions/s ; {rate:,.0f} en temps processeur")
    print(f"  dict Python (témoin) : {N / t_plain:12,.0f} actions/s")
    print(f"  ratio apply / témoin : {ratio:12.1f} × (médiane des paires, temps processeur)")
    verdict = "atteint" if rate >= TARGET else "NON atteint"
    print(f"  objectif {TARGET:,} actions/s (temps processeur) : {verdict}".replace(",", "\u202f"))


if __name__ == "__main__":
    main()
