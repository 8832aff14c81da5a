"""``rules.apply`` on issue 15's realistic mix, for each system, against plain Python doing the same
bookkeeping on dicts, in the same run.

The mix, per 20 actions: 8 damages (3 of them dice), 5 heals, 2 temporary points (gained, then lost;
Sévérité has none: 2 strikes, Puissance against Résistance, take their place), 4 condition changes
(two conditions set then taken off), 1 time advance (the system's round or turn). Each system on a
character with what makes its rules work: armour, reductions and states (segments), 30 wounds, armour
and Ténacité (Sévérité), a level and pools (Douaratil), nonlethal damage and a body part (d20). Every
20 actions the character starts again from the same sheet (a fight, then another), so states, dying
and thresholds are crossed as in play.

Paired rounds, in CPU time of this process, the order alternating; the ratio is the median of the
per-round ratios. Target: at least 100,000 actions per second for each system.

Also: typed dice (« 2d6+3 »…) through ``rules.roll_expression`` against the d20 library rolling the
same expressions (what the rules used before their own path for plain ``NdS±K``).

``python -m bench.apply [--quick]``
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from typing import Any

import rules
from bench.common import Figure, median, paired

TARGET = 100_000
EXPRESSIONS = ("2d6+3", "1d8-1", "3d6", "1d20+5", "d4", "4d6-2", "1d10", "2d8+1")


def _douaratil() -> tuple[Any, list[rules.Action]]:
    sheet = rules.new_sheet(
        "douaratil", **{**rules.system("douaratil").demo, "level": 5, "current": 40, "base_maximum": 40}
    )
    hit, heal = rules.Damage, rules.Heal
    mix: list[rules.Action] = [
        hit(amount=3),
        rules.SetCondition(condition="aveugle"),
        hit(amount="1d4+1"),
        heal(amount=2),
        hit(amount=6),
        rules.GainTemporary(amount=3),
        heal(amount=1),
        hit(amount=4),
        rules.SetCondition(condition="aveugle", active=False),
        hit(amount="1d6"),
        heal(amount=2),
        hit(amount=5),
        rules.SetCondition(condition="assourdi"),
        rules.LoseTemporary(),
        heal(amount=1),
        hit(amount="2d6"),
        rules.SetCondition(condition="assourdi", active=False),
        hit(amount=3),
        heal(amount=2),
        rules.AdvanceTime(unit="round"),
    ]
    return sheet, mix


def _d20() -> tuple[Any, list[rules.Action]]:
    sheet = rules.new_sheet("d20", **{**rules.system("d20").demo, "current": 40, "base_maximum": 40})
    conditions = _toggling(sheet, 2)
    hit, heal = rules.Damage, rules.Heal
    mix: list[rules.Action] = [
        hit(amount=5),
        rules.SetCondition(condition=conditions[0]),
        hit(amount="1d8+2"),
        heal(amount=3),
        hit(amount=4, nonlethal=True),
        rules.GainTemporary(amount=5),
        heal(amount=2),
        hit(amount=7),
        rules.SetCondition(condition=conditions[0], active=False),
        hit(amount="2d6"),
        heal(amount=4),
        hit(amount=3),
        rules.SetCondition(condition=conditions[1]),
        rules.LoseTemporary(),
        heal(amount=2),
        hit(amount="1d10"),
        rules.SetCondition(condition=conditions[1], active=False),
        hit(amount=6),
        heal(amount=3),
        rules.AdvanceTime(unit="round"),
    ]
    return sheet, mix


def _segments() -> tuple[Any, list[rules.Action]]:
    sheet = rules.new_sheet(
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
    mix: list[rules.Action] = [
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
    return sheet, mix


def _severite() -> tuple[Any, list[rules.Action]]:
    wounds = [
        {"id": i + 1, "grade": "legere", "notches": 1, "severity": 3, "body_part": "bras_gauche"} for i in range(30)
    ]
    sheet = rules.new_sheet(
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
    hit = rules.Damage
    mix: list[rules.Action] = [
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
    return sheet, mix


MIXES: dict[str, Callable[[], tuple[Any, list[rules.Action]]]] = {
    "douaratil": _douaratil,
    "d20": _d20,
    "segments": _segments,
    "severite": _severite,
}


def _toggling(sheet: Any, count: int) -> list[str]:
    """The first ``count`` conditions of the system that can be set on ``sheet`` and taken off again."""
    found = []
    for condition in rules.describe(sheet.system).conditions:
        try:
            on = rules.apply(sheet, rules.SetCondition(condition=condition.id), random.Random(0)).sheet
            rules.apply(on, rules.SetCondition(condition=condition.id, active=False), random.Random(0))
        except rules.Refused:
            continue
        found.append(condition.id)
        if len(found) == count:
            return found
    raise RuntimeError(f"{sheet.system}: fewer than {count} conditions can be set and taken off")


# --- the baseline: the same bookkeeping on dicts --------------------------------------------------------


def plain_steps(mix: list[rules.Action]) -> list[tuple[str, Any, bool]]:
    steps: list[tuple[str, Any, bool]] = []
    for action in mix:
        kind = action.kind
        if kind in ("damage", "strike"):
            steps.append(("damage", getattr(action, "amount", 4), False))
        elif kind == "heal":
            steps.append(("heal", action.amount, False))  # type: ignore[attr-defined]
        elif kind == "gain_temporary":
            steps.append(("temporary", action.amount, False))  # type: ignore[attr-defined]
        elif kind == "lose_temporary":
            steps.append(("lose_temporary", 0, False))
        elif kind == "set_condition":
            steps.append(("condition", action.condition, action.active))  # type: ignore[attr-defined]
        else:
            steps.append(("time", 6, False))
    return steps


def plain_apply(
    sheet: dict[str, Any], step: tuple[str, Any, bool], rng: random.Random
) -> tuple[dict[str, Any], list[str]]:
    """What any character sheet program does for these actions, without the rules: a copy (the input
    stays untouched), dice, a reduction, temporary points first, clamps, conditions, a state by
    thresholds, a journal line."""
    new = dict(sheet)
    log: list[str] = []
    kind, value, active = step
    if kind == "damage":
        amount = value
        if isinstance(amount, str):
            count, _, rest = amount.partition("d")
            sides, _, bonus = rest.partition("+")
            amount = sum(rng.randint(1, int(sides)) for _ in range(int(count or 1))) + int(bonus or 0)
        rest_ = max(0, amount - new["reduction"])
        absorbed = min(new["temporary"], rest_)
        new["temporary"] -= absorbed
        before = new["current"]
        new["current"] = before - (rest_ - absorbed)
        log.append(f"Coup : {amount} dégâts − {new['reduction']} = {rest_} → PV {before} → {new['current']}.")
    elif kind == "heal":
        before = new["current"]
        new["current"] = min(new["base_maximum"], before + value)
        log.append(f"Soins {value} : PV {before} → {new['current']}.")
    elif kind == "temporary":
        new["temporary"] = new["temporary"] or value
        log.append(f"Points de vie temporaires : {new['temporary']}.")
    elif kind == "lose_temporary":
        new["temporary"] = 0
        log.append("Les points de vie temporaires prennent fin.")
    elif kind == "condition":
        conditions = set(new["conditions"])
        (conditions.add if active else conditions.discard)(value)
        new["conditions"] = tuple(sorted(conditions))
        log.append(f"État {value}.")
    else:
        new["clock"] += value
        log.append("Le temps passe : 1 round.")
    cur, top = new["current"], new["base_maximum"]
    new["state"] = "mourant" if cur < 0 else "chancelant" if cur == 0 else "blesse" if 2 * cur <= top else "en_forme"
    return new, log


PLAIN_START = {"current": 40, "base_maximum": 40, "temporary": 0, "reduction": 2, "conditions": (), "clock": 0}


def bench_system(system_id: str, n: int, rounds: int) -> Figure:
    start, mix = MIXES[system_id]()
    steps = plain_steps(mix)
    counts = {"applied": 0, "refused": 0}

    def run_rules() -> None:
        rng = random.Random(1)
        s = start
        applied = refused = 0
        for i in range(n):
            if i % 20 == 0:
                s = start
            try:
                s = rules.apply(s, mix[i % 20], rng).sheet
                applied += 1
            except rules.Refused:
                refused += 1
        counts["applied"], counts["refused"] = applied, refused

    def run_plain() -> None:
        rng = random.Random(1)
        s = PLAIN_START
        for i in range(n):
            if i % 20 == 0:
                s = PLAIN_START
            s, _ = plain_apply(s, steps[i % 20], rng)

    run_rules()  # warm-up: rule tables loaded, caches filled
    ours, base, ratios = paired(run_rules, run_plain, rounds)

    def rate(ms: float) -> float:
        return n / (ms / 1000)

    share = counts["refused"] / max(1, n)
    return Figure(
        section="apply",
        name=f"rules.apply, {system_id}, realistic mix",
        unit="/s",
        wall=rate(median(ours.wall)),
        cpu=rate(median(ours.cpu)),
        base_name="dict",
        base_wall=rate(median(base.wall)),
        base_cpu=rate(median(base.cpu)),
        ratio=median(ratios),
        target=("median", ">=", TARGET),
        note=f"{n:,} actions × {rounds} rounds, {share:.0%} refused by the rules; ratio = time / the dict's time",
    )


def bench_dice(n: int, rounds: int) -> Figure:
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

    a, b, ratios = paired(ours, library, rounds)
    return Figure(
        section="apply",
        name="typed dice NdS±K, rules.roll_expression",
        unit="/s",
        wall=n / (median(a.wall) / 1000),
        cpu=n / (median(a.cpu) / 1000),
        base_name="d20 library",
        base_wall=n / (median(b.wall) / 1000),
        base_cpu=n / (median(b.cpu) / 1000),
        ratio=median(ratios),
        note="ratio = time / the library's time",
    )


def run(quick: bool = False) -> list[Figure]:
    n, rounds = (1_000, 3) if quick else (20_000, 11)
    figures = [bench_system(s, n, rounds) for s in rules.SYSTEMS if s in MIXES]
    figures.append(bench_dice(n, rounds))
    return figures


if __name__ == "__main__":
    from bench.__main__ import main

    sys.exit(main(["--only", "apply", *sys.argv[1:]]))
