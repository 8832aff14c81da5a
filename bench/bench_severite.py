"""How fast ``rules.apply`` runs Sévérité on a realistic mix, and how fast the dice roll, against baselines
measured in the same run.

    .venv/bin/python bench/bench_severite.py [--quick]

1. ``rules.apply`` on a Sévérité character in a long fight, the mix of issue 15 per 20 actions: 8 damages
   (a Sévérité worked out at the table; 3 of them typed as dice), 5 heals (supernatural care), 2 strikes
   (Puissance against Résistance: Sévérité has no temporary points, its own damage action takes their
   place), 4 conditions set or taken off, 1 turn of time. The baseline is plain Python doing the same
   bookkeeping on dicts (copy, wounds, gauge, a journal line). Target: 100,000 actions per second.
2. Typed dice (« 2d6+3 », « 1d8-1 », « 3d6 »…): ``rules.roll_expression`` against the d20 library rolling
   the same expressions (what the rules used before their own fast path for plain ``NdS±K``).
3. Start-up: ``import rules`` in a fresh interpreter, with and without the d20 library imported too.

Paired rounds (each round times both sides, so a noisy neighbour slows both alike); the ratio is the
median of the per-round ratios. A benchmark, never a timed test.
"""

from __future__ import annotations

import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

import rules

ROUNDS = 9
N = 20_000
EXPRESSIONS = ("2d6+3", "1d8-1", "3d6", "1d20+5", "d4", "4d6-2", "1d10", "2d8+1")


def mix() -> list[rules.Action]:
    """20 actions: 8 damages (3 dice), 5 heals, 2 strikes, 4 conditions, 1 turn."""
    hit = rules.Damage
    return [
        hit(amount=3, body_part="bras_droit"),
        rules.SetCondition(condition="tourmente", active=True),
        hit(amount="1d4+1", body_part="jambe_gauche"),
        rules.Heal(amount=2, magical=True),
        hit(amount=2, body_part="torse"),
        rules.Strike(margin=3, damage_type="tranchant", body_part="bras_gauche", damage_modifier=1),
        rules.Heal(amount=2, magical=True),
        hit(amount=4, body_part="jambe_droite"),
        rules.SetCondition(condition="tourmente", active=False),
        hit(amount="1d6", body_part="abdomen"),
        rules.Heal(amount=2, magical=True),
        hit(amount=2, body_part="bras_droit"),
        rules.SetCondition(condition="inebranlable", active=True),
        rules.Strike(margin=1, damage_type="ecrasant", body_part="jambe_gauche"),
        rules.Heal(amount=2, magical=True),
        hit(amount="2d2", body_part="torse"),
        rules.SetCondition(condition="inebranlable", active=False),
        hit(amount=3, body_part="jambe_droite"),
        rules.Heal(amount=2, magical=True),
        rules.AdvanceTime(unit="turn"),
    ]


def fighter() -> Any:
    """A character some way into a long fight: 30 light wounds already on the sheet, armour, skills."""
    wounds = [
        {"id": i + 1, "grade": "legere", "notches": 1, "severity": 3, "body_part": "bras_gauche"} for i in range(30)
    ]
    return rules.new_sheet(
        "severite",
        name="Maëlle",
        physique=3,
        tenacity_skill=True,
        is_npc=False,
        wounds=wounds,
        equipment=[
            {
                "name": "Brigandine",
                "body_parts": ["torse"],
                "protections": [{"damage_type": "tranchant", "modifier": 2}],
            }
        ],
    )


def plain_mix() -> list[tuple[str, int]]:
    """The same 20 steps as data for the dict baseline."""
    kinds = []
    for action in mix():
        if isinstance(action, rules.Damage):
            kinds.append(("wound", 1))
        elif isinstance(action, rules.Strike):
            kinds.append(("wound", 1))
        elif isinstance(action, rules.Heal):
            kinds.append(("heal", int(action.amount)))
        elif isinstance(action, rules.SetCondition):
            kinds.append(("condition", 1 if action.active else 0))
        else:
            kinds.append(("time", 6))
    return kinds


def plain_step(sheet: dict[str, Any], kind: str, value: int, rng: random.Random) -> tuple[dict[str, Any], list[str]]:
    """Bookkeeping a careful hand-written program would do: copy, wounds, gauge, conditions, a journal."""
    new = dict(sheet)
    log: list[str] = []
    if kind == "wound":
        severity = rng.randint(1, 4) + 1
        wounds = list(new["wounds"])
        wounds.append({"id": len(wounds) + 1, "notches": 1, "severity": severity})
        new["wounds"] = wounds
        log.append(f"Blessure : +1 cran ({sum(w['notches'] for w in wounds)}).")
    elif kind == "heal":
        wounds = sorted(new["wounds"], key=lambda w: -w["notches"])
        left = value
        kept = []
        for wound in wounds:
            if left and wound["notches"]:
                take = min(left, wound["notches"])
                left -= take
                wound = {**wound, "notches": wound["notches"] - take}
            if wound["notches"]:
                kept.append(wound)
        new["wounds"] = kept
        log.append(f"Soins : {value - left} crans retirés.")
    elif kind == "condition":
        conditions = set(new["conditions"])
        (conditions.add if value else conditions.discard)("x")
        new["conditions"] = tuple(sorted(conditions))
        log.append("État.")
    else:
        new["clock"] += value
        log.append("Le temps passe.")
    return new, log


def paired(a: Callable[[], None], b: Callable[[], None], rounds: int) -> tuple[float, float, float]:
    pairs = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        a()
        t1 = time.perf_counter()
        b()
        t2 = time.perf_counter()
        pairs.append((t1 - t0, t2 - t1))
    return (
        statistics.median(p[0] for p in pairs),
        statistics.median(p[1] for p in pairs),
        statistics.median(p[0] / p[1] for p in pairs),
    )


def bench_apply(n: int, rounds: int) -> None:
    actions = mix()
    steps = plain_mix()
    start = fighter()
    applied = refused = wounds_seen = 0

    def run_rules() -> None:
        nonlocal applied, refused, wounds_seen
        rng = random.Random(1)
        s = start
        for i in range(n):
            try:
                s = rules.apply(s, actions[i % 20], rng).sheet
                applied += 1
            except rules.Refused:
                refused += 1
            wounds_seen += len(s.wounds)
            if s.dead or len(s.wounds) > 150:
                s = start

    plain_start = {
        "wounds": [{"id": i + 1, "notches": 1, "severity": 3} for i in range(30)],
        "conditions": (),
        "clock": 0,
    }

    def run_plain() -> None:
        rng = random.Random(1)
        s = plain_start
        for i in range(n):
            kind, value = steps[i % 20]
            s, _ = plain_step(s, kind, value, rng)

    t_rules, t_plain, ratio = paired(run_rules, run_plain, rounds)
    rate = n / t_rules
    share = refused / max(1, applied + refused)
    mean_wounds = wounds_seen / max(1, applied + refused)
    print(f"rules.apply Sévérité (mélange réaliste)  : {rate:12,.0f} actions/s")
    print(f"  (refusées : {share:.0%} ; blessures sur la fiche : {mean_wounds:.0f} en moyenne)")
    print(f"dict Python, même tenue de compte        : {n / t_plain:12,.0f} actions/s")
    print(f"ratio apply / dict (médiane par paire)   : {ratio:12.1f} × plus lent")
    print(f"objectif 100 000 actions/s               : {'atteint' if rate >= 100_000 else 'NON atteint'}")


def douaratil_mix() -> list[rules.Action]:
    """Issue 15's mix for Douaratil (it has temporary points), the reference system."""
    hit, heal = rules.Damage, rules.Heal
    return [
        hit(amount=3),
        rules.SetCondition(condition="aveugle"),
        hit(amount="1d4+1"),
        heal(amount=2),
        hit(amount=2),
        rules.GainTemporary(amount=3),
        heal(amount=1),
        hit(amount=4),
        rules.SetCondition(condition="aveugle", active=False),
        hit(amount="1d6"),
        heal(amount=2),
        hit(amount=2),
        rules.SetCondition(condition="assourdi"),
        rules.GainTemporary(amount=2, replace=True),
        heal(amount=1),
        hit(amount="2d2"),
        rules.SetCondition(condition="assourdi", active=False),
        hit(amount=3),
        heal(amount=2),
        rules.AdvanceTime(unit="round"),
    ]


def bench_reference(n: int, rounds: int) -> None:
    """Sévérité against Douaratil on the same kind of mix, in the same run (Douaratil's meets the target on
    an idle machine): how far Sévérité is from it, whatever the machine's load."""
    sev, doua = mix(), douaratil_mix()
    sev_start = fighter()
    doua_start = rules.new_sheet("douaratil", name="Ulfred", base_maximum=10_000, current=5_000, level=5)

    def run(actions: list[rules.Action], start: Any) -> Callable[[], None]:
        def go() -> None:
            rng = random.Random(1)
            s = start
            for i in range(n):
                try:
                    s = rules.apply(s, actions[i % 20], rng).sheet
                except rules.Refused:
                    pass
                if getattr(s, "dead", False):
                    s = start

        return go

    _t_sev, t_doua, ratio = paired(run(sev, sev_start), run(doua, doua_start), rounds)
    print(f"référence : Douaratil, même mélange      : {n / t_doua:12,.0f} actions/s")
    print(f"Sévérité / Douaratil (médiane par paire) : {ratio:12.2f} × son temps")


def bench_dice(n: int, rounds: int) -> None:
    import d20

    roller = d20.Roller()
    rng = random.Random(1)

    def ours() -> None:
        for i in range(n):
            rules.roll_expression(EXPRESSIONS[i % len(EXPRESSIONS)], rng)

    def library() -> None:
        for i in range(n):
            result = roller.roll(EXPRESSIONS[i % len(EXPRESSIONS)])
            str(result)
            int(result.total)

    t_ours, t_lib, ratio = paired(ours, library, rounds)
    print(f"rules.roll_expression (NdS±K)            : {n / t_ours:12,.0f} lancers/s")
    print(f"bibliothèque d20, mêmes expressions      : {n / t_lib:12,.0f} lancers/s")
    print(f"ratio (médiane par paire)                : {ratio:12.2f} × le temps de d20")


def bench_import(rounds: int) -> None:
    def fresh(code: str) -> Callable[[], None]:
        def run() -> None:
            subprocess.run([sys.executable, "-c", code], check=True)

        return run

    t_rules, t_both, ratio = paired(fresh("import rules"), fresh("import rules, d20"), rounds)
    print(f"import rules (interpréteur neuf)         : {t_rules * 1000:9.0f} ms")
    print(f"import rules puis d20                    : {t_both * 1000:9.0f} ms")
    print(f"  (d20 en plus : {(t_both - t_rules) * 1000:+.0f} ms)")
    print(f"ratio                                    : {ratio:12.2f}")
    loaded = subprocess.run(
        [sys.executable, "-c", "import sys, rules; print('d20' in sys.modules)"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    print(f"d20 chargé par « import rules »          : {'oui' if loaded == 'True' else 'non'}")


def main() -> None:
    quick = "--quick" in sys.argv
    n = N // 20 if quick else N
    rounds = 3 if quick else ROUNDS
    bench_apply(n, rounds)
    bench_reference(n, rounds)
    print()
    bench_dice(n, rounds)
    print()
    bench_import(3 if quick else 11)


if __name__ == "__main__":
    main()
