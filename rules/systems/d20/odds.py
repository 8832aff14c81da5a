"""d20 odds (seed 001): the rolls its rules ask, how they are made, and the dying story.

Every number comes from the rule table (``dying``, ``recovery``, ``thresholds``, ``massive_damage``,
``resurrection``, ``general``) and the sheet. The rolls are the ones ``handlers`` and ``time`` make: a
percentile die against a chance in %, a d20 test against a DD (saves: a natural 20 succeeds, a natural
1 fails).

The dying story, as ``time`` plays it: « Lors de chacun de ses tours de jeu, un personnage mourant
doit lancer 1d100 … Il a 10% de chances de se stabiliser, et s'il ne réussit pas, il perd 1 point de
vie. » The first of these rolls comes « le round suivant sa chute » and no point is lost before it, so
a character who falls to −1 PV has one roll at each of −1, −2 … −9: 1 − 0,9⁹ ≈ 61,3 % to stabilise
before −10. Temporary PV take the losses first (the real PV decide death). Stabilised without help,
the story goes on: each hour 10 % to wake up or 1 PV lost, then each day 10 % to start recovering or
1 PV lost; stabilised with help, no PV is lost any more.
"""

from __future__ import annotations

import functools
from fractions import Fraction
from typing import Any

from rules.actions import Stabilise
from rules.model import Term, fmt_int, plural
from rules.odds import (
    Chance,
    absorption,
    chance,
    fmt_percent,
    percent_chance,
    roll_text,
    single_die_check,
)
from rules.systems.d20.actions import Resurrection
from rules.systems.d20.derive import is_dead, pv_total, resurrection_dd, state_id
from rules.systems.d20.sheet import D20Sheet
from rules.systems.d20.table import D20Rules

BYPASS = ("resurrection_supreme", "souhait")


def _percent(rs: D20Rules, chance_in: int) -> tuple[Fraction, str]:
    die = rs.general.percent_die
    return percent_chance(chance_in, die), f"1d{die} ≤ {chance_in}"


def _test(rs: D20Rules, modifier: int, dd: int, reason: str, *, save: bool = False) -> tuple[Fraction, str]:
    """``handlers._check``: 1d20 + modifier ≥ DD; a save's natural 20 succeeds and natural 1 fails."""
    die = rs.general.check_die
    natural = ""
    if save:
        p = single_die_check(
            die,
            modifier,
            dd,
            natural_success=die if rs.general.natural_max_save_succeeds else None,
            natural_failure=1 if rs.general.natural_one_save_fails else None,
        )
        rules_text = [
            f"{die} naturel réussit" if rs.general.natural_max_save_succeeds else "",
            "1 naturel échoue" if rs.general.natural_one_save_fails else "",
        ]
        natural = " ; ".join(t for t in rules_text if t)
    else:
        p = single_die_check(die, modifier, dd)
    how = roll_text(f"1d{die}", [Term(modifier, reason)], "≥", f"DD {dd}")
    return p, how + (f" ({natural})" if natural else "")


def _first_aid(rs: D20Rules, modifier: int) -> Chance:
    # « Un test de Premiers secours de DD 15 réussi permet de stabiliser l'état d'un personnage mourant »
    p, how = _test(rs, modifier, rs.dying.first_aid_dd, "bonus du soigneur")
    return chance("first_aid", "Premiers secours", p, how, action="stabilise")


def rolls(sheet: D20Sheet, rs: D20Rules) -> list[Chance]:
    found: list[Chance] = []
    if is_dead(sheet, rs):
        if not sheet.soul_lost:
            found += _resurrection(sheet, rs, Resurrection(procedure="ritual"))
            if not sheet.quick_blocked:
                found += _resurrection(sheet, rs, Resurrection(procedure="quick"))
        return found
    state = state_id(sheet, rs)
    if state == "mourant":
        p, how = _percent(rs, rs.dying.stabilise_chance)
        found.append(
            chance("dying_roll", "Jet du mourant : se stabiliser", p, how + " (à chaque round)", trigger="time")
        )
    if pv_total(sheet, rs) < rs.thresholds.disabled_at and sheet.recovery in ("", "alone"):
        found.append(_first_aid(rs, 0))
    recovery = {
        "assisted": (
            "assisted_wake",
            "Reprendre connaissance (avec assistance)",
            rs.recovery.assisted_wake_chance,
            "heure",
        ),
        "alone": ("alone_wake", "Reprendre connaissance (seul)", rs.recovery.alone_wake_chance, "heure"),
        "alone_awake": ("alone_daily", "Commencer à récupérer (seul)", rs.recovery.alone_daily_chance, "jour"),
    }.get(sheet.recovery)
    if recovery is not None and pv_total(sheet, rs) < rs.thresholds.disabled_at:
        roll_id, label, percent, every = recovery
        p, how = _percent(rs, percent)
        found.append(chance(roll_id, label, p, f"{how} (chaque {every})", trigger="time"))
    md = rs.massive_damage
    p, how = _test(rs, sheet.fortitude, md.save_dd, "Vigueur", save=True)
    found.append(
        chance(
            "massive_damage",
            f"Jet de Vigueur après des dégâts excessifs ({md.threshold} ou plus en une attaque)",
            p,
            how,
            trigger="event",
        )
    )
    return found


def _resurrection(sheet: D20Sheet, rs: D20Rules, action: Resurrection) -> list[Chance]:
    rr = rs.resurrection
    label = rr.procedures[action.procedure]
    if action.procedure in BYPASS:
        if not action.consents:
            return []
        return [chance("resurrection", label, 1, "aucun test", action="resurrection")]
    if sheet.soul_lost or not action.consents:
        return []
    base = resurrection_dd(sheet, rs)
    die = rs.general.check_die
    if action.procedure == "quick":
        if sheet.quick_blocked:
            return []
        dd = int(base.value)
        p, how = _test(rs, action.caster_level, dd, "niveau de lanceur de sorts")
        return [chance("resurrection", "Test de Résurrection rapide", p, how, action="resurrection")]
    # The ritual: each contribution rolled here succeeds with its own chance; the final test, « sans
    # modificateurs », is made against the DD they leave.
    odds_of = [single_die_check(die, c.modifier, c.dd) for c in action.contributions]
    successes_dist: dict[int, Fraction] = {0: Fraction(1)}
    for q in odds_of:
        nxt: dict[int, Fraction] = {}
        for k, pk in successes_dist.items():
            nxt[k + 1] = nxt.get(k + 1, Fraction(0)) + pk * q
            nxt[k] = nxt.get(k, Fraction(0)) + pk * (1 - q)
        successes_dist = nxt
    n = len(action.contributions)
    total = Fraction(0)
    dds: list[int] = []
    for k, pk in successes_dist.items():
        successes = action.contribution_successes + k
        failures = action.contribution_failures + n - k
        dd = int(base.value) + rr.contribution_success * successes + rr.contribution_failure * failures
        dds.append(dd)
        total += pk * single_die_check(die, 0, dd)
    if len(set(dds)) == 1:
        how = roll_text(f"1d{die}", [], "≥", f"DD {dds[0]}") + " (sans modificateur)"
    else:
        how = (
            f"{plural(n, 'contribution')} à lancer puis 1d{die} ≥ DD de {fmt_int(min(dds))} à {fmt_int(max(dds))} "
            "selon les contributions (sans modificateur)"
        )
    return [chance("resurrection", "Test de Résurrection final", total, how, action="resurrection")]


def for_action(sheet: D20Sheet, rs: D20Rules, action: Any) -> list[Chance]:
    if isinstance(action, Resurrection):
        return _resurrection(sheet, rs, action) if is_dead(sheet, rs) else []
    if is_dead(sheet, rs):
        return []
    if isinstance(action, Stabilise):
        if action.method != "first_aid":
            return []
        if pv_total(sheet, rs) >= rs.thresholds.disabled_at or sheet.recovery in ("assisted", "awake"):
            return []
        return [_first_aid(rs, action.modifier)]
    return []


# --- The dying story ---------------------------------------------------------------------------------

# A state of the story: the phase ("" dying, "alone" stabilised alone, "alone_awake"), real PV, temporary PV.
_State = tuple[str, int, int]


# Each phase's roll: (chance in %, PV lost on a failure); with the percentile die and the death threshold,
# all a story depends on, so stories are shared between sheets (a GM's table of dying creatures).
_Rules = tuple[tuple[tuple[int, int], ...], int, int]
PHASES = ("", "alone", "alone_awake", "awake")


def _story_rules(rs: D20Rules) -> _Rules:
    rec = rs.recovery
    phases = (
        (rs.dying.stabilise_chance, rs.dying.loss_per_round),
        (rec.alone_wake_chance, rec.alone_loss),
        (rec.alone_daily_chance, rec.alone_daily_loss),
    )
    return phases, rs.general.percent_die, rs.thresholds.death_at


@functools.lru_cache(maxsize=4096)
def _story(story_rules: _Rules, start: _State, until: str) -> float:
    """The chance, from ``start``, of reaching the phase ``until`` (``alone``, ``alone_awake``, ``awake``):
    at each roll of the phase, its chance to pass, else the PV lost (temporary PV first, ``handlers._lose``);
    dead when the real PV reach the threshold."""
    phases, die, death_at = story_rules
    goal = PHASES.index(until)
    rolls = [(float(percent_chance(chance_in, die)), loss) for chance_in, loss in phases]

    def step(state: _State) -> list[tuple[float, _State | bool]]:
        phase, current, temporary = state
        at = PHASES.index(phase)
        success, loss = rolls[at]
        win: _State | bool = True if at + 1 >= goal else (PHASES[at + 1], current, temporary)
        absorbed = min(temporary, loss)
        left = current - (loss - absorbed)
        lose: _State | bool = False if left <= death_at else (phase, left, temporary - absorbed)
        return [(success, win), (1 - success, lose)]

    if PHASES.index(start[0]) >= goal:
        return 1.0
    return absorption(start, step)


def survival(sheet: D20Sheet, rs: D20Rules) -> Chance | None:
    """Dying (or stabilised alone): the chance of pulling through with no help, phase by phase."""
    if is_dead(sheet, rs) or pv_total(sheet, rs) >= rs.thresholds.disabled_at:
        return None
    if sheet.recovery == "assisted":
        return _assisted(sheet, rs)
    if sheet.recovery not in ("", "alone", "alone_awake"):
        return None
    temporary = sheet.temporary
    start: _State = (sheet.recovery, sheet.current, temporary)
    death = fmt_int(rs.thresholds.death_at)
    die = rs.general.percent_die
    rec = rs.recovery
    steps: list[tuple[str, str]] = []
    if sheet.recovery == "":
        steps.append(
            (
                "alone",
                f"se stabiliser seul avant {death} PV (1d{die} ≤ {rs.dying.stabilise_chance} à chaque round, "
                f"sinon −{rs.dying.loss_per_round} PV)",
            )
        )
    if sheet.recovery in ("", "alone"):
        steps.append(
            (
                "alone_awake",
                f"puis reprendre connaissance seul (1d{die} ≤ {rec.alone_wake_chance} chaque heure, "
                f"sinon −{rec.alone_loss} PV)",
            )
        )
    steps.append(
        (
            "awake",
            f"puis commencer à récupérer seul (1d{die} ≤ {rec.alone_daily_chance} chaque jour, "
            f"sinon −{rec.alone_daily_loss} PV)",
        )
    )
    story_rules = _story_rules(rs)
    outcomes = [(text, _story(story_rules, start, until)) for until, text in steps]
    whole = outcomes[-1][1]
    where = f"{fmt_int(sheet.current)} PV" + (f" et {temporary} PV temporaires" if temporary else "")
    how = f"sans aide, depuis {where}, mort à {death} PV"
    if sheet.recovery == "":
        aid = _first_aid(rs, 0)
        how += (
            f" ; stabilisé par un allié (premiers secours DD {rs.dying.first_aid_dd} : {fmt_percent(aid.probability)} "
            "sans bonus, ou un sort de guérison), il ne perd plus de PV"
        )
    return chance("survival", "Chance de s'en sortir", whole, how, trigger="story", outcomes=outcomes)


def _assisted(sheet: D20Sheet, rs: D20Rules) -> Chance:
    """Stabilised with help: « il cesse de perdre des points de vie » and « Jetez 1d100 une heure après … 10 %
    de chances de reprendre connaissance … Si le jet est raté, on le rejoue toutes les heures »: no roll of
    the story can kill, so pulling through is certain; waking up takes, on average, the first roll's delay
    plus one interval per expected failure (a geometric count: (1 − p) / p)."""
    rec = rs.recovery
    die = rs.general.percent_die
    p = percent_chance(rec.assisted_wake_chance, die)
    how = (
        f"stabilisé avec assistance, ne perd plus de PV ; reprendre connaissance : 1d{die} ≤ {rec.assisted_wake_chance}"
    )
    how += f" {plural(rec.assisted_first_roll_hours, 'heure')} après la stabilisation, puis toutes les "
    how += plural(rec.assisted_interval_hours, "heure")
    outcomes: list[tuple[str, Fraction]] = []
    if p > 0:
        mean = rec.assisted_first_roll_hours + rec.assisted_interval_hours * (1 - p) / p
        shown = fmt_int(int(mean)) if mean.denominator == 1 else f"{float(mean):.1f}".replace(".", ",")
        how += f" (en moyenne au bout de {shown} heures)"
        outcomes.append(("reprendre connaissance au premier jet", p))
    else:
        how += " : ne reprend pas connaissance par ce jet"
    return chance("survival", "Chance de s'en sortir", 1, how, trigger="story", outcomes=outcomes)


__all__ = ["for_action", "rolls", "survival"]
