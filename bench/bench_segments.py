"""How fast ``rules.apply`` runs a realistic Segments mix, against plain Python doing the same bookkeeping.

The mix of issue 15, per 20 actions: 8 damages (3 of them dice), 5 heals, 2 temporary points, 4 condition
changes, 1 time advance — on a sheet with armour, a shield, a resistance, a few states and fatigue, so that
reductions, states and the clock all do their work.

Run: ``.venv/bin/python bench/bench_segments.py [--quick]``. Paired rounds: each round times the rules and the
baseline back to back, so a noisy neighbour slows both alike; the ratio is the median of the per-round ratios.
Times are the process's CPU time (``time.process_time``): on a shared machine, the time spent waiting for a
core is not ours.
Target: at least 100,000 actions per second. A benchmark, never a timed test.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from typing import Any

import rules

TARGET = 100_000

MIX: list[rules.Action] = [
    rules.Damage(amount=6, damage_type="tranchant"),
    rules.Heal(amount=3),
    rules.Damage(amount="1d6+2"),
    rules.SetCondition(condition="effraye"),
    rules.Damage(amount=7),
    rules.GainTemporary(amount=4),
    rules.Heal(amount=5),
    rules.Damage(amount="2d6", damage_type="feu"),
    rules.SetCondition(condition="effraye", active=False),
    rules.Damage(amount=5, nonlethal=True),
    rules.Heal(amount=4),
    rules.Damage(amount=8, damage_type="perforant"),
    rules.SetCondition(condition="a_terre"),
    rules.AdvanceTime(unit="turn"),
    rules.Damage(amount="1d8"),
    rules.Heal(amount=6),
    rules.LoseTemporary(),
    rules.SetCondition(condition="a_terre", active=False),
    rules.Damage(amount=4),
    rules.Heal(amount=4),
]
assert len(MIX) == 20


def start_sheet() -> Any:
    return rules.new_sheet(
        "segments",
        name="Aldéric",
        level=4,
        constitution=14,
        fortitude_save=5,
        base_maximum=60,
        current=45,
        armour="intermediaire",
        shield=True,
        energy_resistances=("froid 5",),
        conditions=("lenteur",),
        fatigue=1,
        light="faible",
    )


def baseline(sheet: dict[str, Any], action: rules.Action, rng: random.Random) -> tuple[dict[str, Any], list[str]]:
    """The same bookkeeping on a dict: a copy, dice, reduction, temporary points first, clamps, a state by
    thresholds, a journal line — what any character sheet program does for these actions, without the rules."""
    new = dict(sheet)
    log: list[str] = []
    kind = action.kind
    if kind == "damage":
        amount = action.amount  # type: ignore[attr-defined]
        if isinstance(amount, str):
            count, _, rest = amount.partition("d")
            sides, _, bonus = rest.partition("+")
            amount = sum(rng.randint(1, int(sides)) for _ in range(int(count))) + int(bonus or 0)
        rest_ = max(0, amount - new["reduction"])
        absorbed = min(new["temporary"], rest_)
        new["temporary"] -= absorbed
        before = new["current"]
        new["current"] = before - (rest_ - absorbed)
        log.append(f"Coup : {amount} dégâts − {new['reduction']} = {rest_} → PV {before} → {new['current']}.")
    elif kind == "heal":
        before = new["current"]
        new["current"] = min(new["base_maximum"], before + action.amount)  # type: ignore[attr-defined]
        log.append(f"Soins {action.amount} : PV {before} → {new['current']}.")  # type: ignore[attr-defined]
    elif kind == "gain_temporary":
        new["temporary"] = new["temporary"] or action.amount  # type: ignore[attr-defined]
        log.append(f"Points de vie temporaires : {new['temporary']}.")
    elif kind == "lose_temporary":
        new["temporary"] = 0
        log.append("Les points de vie temporaires prennent fin.")
    elif kind == "set_condition":
        conditions = set(new["conditions"])
        (conditions.add if action.active else conditions.discard)(action.condition)  # type: ignore[attr-defined]
        new["conditions"] = tuple(sorted(conditions))
        log.append(f"État {action.condition}.")  # type: ignore[attr-defined]
    else:
        new["clock"] += 10
        log.append("Le temps passe : 1 tour.")
    cur, top = new["current"], new["base_maximum"]
    new["state"] = "mourant" if cur < 0 else "chancelant" if cur == 0 else "blesse" if 2 * cur <= top else "en_forme"
    return new, log


def main() -> None:
    quick = "--quick" in sys.argv
    rounds, n = (5, 2_000) if quick else (11, 20_000)
    actions = [MIX[i % len(MIX)] for i in range(n)]
    sheet = start_sheet()
    plain = {
        "current": 45,
        "base_maximum": 60,
        "temporary": 0,
        "reduction": 3,
        "conditions": ("lenteur",),
        "clock": 0,
    }
    # The rules stay on the sheet they start from: every 20 actions, back to the start (a fight, then another).

    def run_rules(rng: random.Random) -> None:
        s = sheet
        for i, action in enumerate(actions):
            if i % 20 == 0:
                s = sheet
            s = rules.apply(s, action, rng).sheet

    def run_plain(rng: random.Random) -> None:
        s = plain
        for i, action in enumerate(actions):
            if i % 20 == 0:
                s = plain
            s, _ = baseline(s, action, rng)

    run_rules(random.Random(0))  # warm-up: tables loaded, caches filled
    pairs = []
    for r in range(rounds):
        a = time.process_time()
        run_rules(random.Random(r))
        b = time.process_time()
        run_plain(random.Random(r))
        c = time.process_time()
        pairs.append((b - a, c - b))
    t_rules = statistics.median(p[0] for p in pairs)
    t_plain = statistics.median(p[1] for p in pairs)
    ratio = statistics.median(p[0] / p[1] for p in pairs)
    rate = n / t_rules
    print("Segments, rules.apply sur le mélange réaliste (issue 15) :")
    print(f"  rules.apply           : {rate:12,.0f} actions/s (médiane de {rounds} tours)")
    print(f"  dict Python (base)    : {n / t_plain:12,.0f} actions/s (même mélange, même tour)")
    print(f"  ratio apply / base    : {ratio:12.1f} × plus lent (médiane des ratios par tour)")
    verdict = "atteint" if rate >= TARGET else "NON atteint"
    print(f"  objectif {TARGET:,} actions/s : {verdict}".replace(",", "\u202f"))


if __name__ == "__main__":
    main()
