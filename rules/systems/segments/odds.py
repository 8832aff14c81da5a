"""Segments odds (seed 002): the rolls its rules ask, how they are made, and the dying story.

Every number comes from the rule table (``dying``, ``general.check_dice``, the states' ``all_rolls`` and
``reflex``, ``fire``, ``time_units``) and the sheet; the rolls are the ones ``handlers._check`` makes: a
d20 + the sheet's bonus + the states' modifiers against a difficulty.

The dying story: « Il perd 1 point de vie par segment et meurt quand il atteint l'opposé de sa valeur
de Constitution … Il peut tenter un jet de Vigueur difficulté 20, une fois par tour, pour se stabiliser
seul. » With no help and nothing else happening, the character gets one try at each of the instants
``time`` gives it (``derive.stabilise_try_instant``: at its window's opening in every turn it is dying,
the turn of the fall included) before the segment of its death (at one instant, what completes comes
first: no try at the instant of death); the chance of pulling through is that of one success among
those tries.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Literal

from rules.actions import Stabilise
from rules.model import Term, evolve, fmt_int, plural
from rules.odds import Chance, chance, dice_at_least, fmt_percent, roll_text
from rules.systems.segments.actions import Extinguish, Fall
from rules.systems.segments.derive import (
    OUT_OF_ACTION,
    effective_conditions,
    health_state_id,
    is_dead,
    is_dying,
    stabilise_try_instant,
)
from rules.systems.segments.sheet import SegmentsSheet
from rules.systems.segments.table import SegmentsRules

Save = Literal["fortitude", "reflex", "agility"]
SAVE_LABELS = {"fortitude": "Vigueur", "reflex": "Réflexes", "agility": "Agilité"}


def check(sheet: SegmentsSheet, rs: SegmentsRules, save: Save, dd: int, bonus: int = 0) -> tuple[Fraction, str]:
    """``handlers._check``: d20 + the sheet's bonus + the states' modifiers (+ a chosen bonus) ≥ difficulty."""
    known = effective_conditions(sheet, rs)
    terms = [Term(int(rs.conditions[c].all_rolls), f"{rs.conditions[c].label}, tous les jets") for c in known]
    base = {"fortitude": sheet.fortitude_save, "reflex": sheet.reflex_save, "agility": sheet.agility}[save]
    if save == "reflex":
        terms = [Term(int(rs.conditions[c].reflex), rs.conditions[c].label) for c in known] + terms
    terms = [Term(base, SAVE_LABELS[save]), *terms, Term(bonus, "bonus")]
    count, sides = rs.general.check_dice
    p = dice_at_least(count, sides, dd - sum(t.value for t in terms))
    return p, roll_text(f"{count}d{sides}", terms, "≥", f"difficulté {dd}")


def _self_stabilise(sheet: SegmentsSheet, rs: SegmentsRules, bonus: int, trigger: Literal["action", "time"]) -> Chance:
    p, how = check(sheet, rs, "fortitude", rs.dying.self_stabilise_dd, bonus)
    return chance("self_stabilise", "Vigueur pour se stabiliser seul", p, how, action="stabilise", trigger=trigger)


def rolls(sheet: SegmentsSheet, rs: SegmentsRules) -> list[Chance]:
    found: list[Chance] = []
    if is_dead(sheet):
        return found
    if is_dying(sheet):
        found.append(_self_stabilise(sheet, rs, 0, "time" if rs.dying.auto_self_stabilise else "action"))
    if sheet.burning:
        p, how = check(sheet, rs, "reflex", rs.fire.extinguish_dd)
        found.append(chance("extinguish", "Réflexes pour éteindre les flammes", p, how, action="extinguish"))
    known = effective_conditions(sheet, rs)
    drop = [rs.conditions[c].drop_weapon_dd for c in known if rs.conditions[c].drop_weapon_dd is not None]
    if drop and health_state_id(sheet, rs) not in OUT_OF_ACTION:
        dd = max(d for d in drop if d is not None)
        p, how = check(sheet, rs, "fortitude", dd)
        found.append(
            chance("weapon_drop", "Vigueur pour garder son arme (à chaque coup encaissé)", p, how, trigger="event")
        )
    if sheet.exposure and sheet.exposure_save_dd is not None:
        rule = rs.exposure[sheet.exposure]
        p, how = check(sheet, rs, "fortitude", sheet.exposure_save_dd)
        found.append(
            chance(
                "exposure_save",
                f"Vigueur contre le {rule.label} (dégâts réduits de moitié)",
                p,
                how + f" (toutes les {plural(rule.damage_every_hours, 'heure')})",
                trigger="time",
            )
        )
    return found


def for_action(sheet: SegmentsSheet, rs: SegmentsRules, action: Any) -> list[Chance]:
    if is_dead(sheet):
        return []
    if isinstance(action, Stabilise):
        if action.method != "self" or not is_dying(sheet):
            return []
        return [_self_stabilise(sheet, rs, action.modifier, "action")]
    if isinstance(action, Extinguish):
        if action.method == "maneuver" or not sheet.burning:
            return []
        p, how = check(sheet, rs, "reflex", rs.fire.extinguish_dd)
        return [chance("extinguish", "Réflexes pour éteindre les flammes", p, how, action="extinguish")]
    if isinstance(action, Fall):
        if action.agility_dd is None:
            return []
        p, how = check(sheet, rs, "agility", action.agility_dd)
        label = f"Agilité pour amortir la chute (retire les {rs.fall.agility_metres} premiers mètres)"
        return [chance("fall_agility", label, p, how, action="fall")]
    return []


# --- The dying story ---------------------------------------------------------------------------------


def death_instant(sheet: SegmentsSheet, rs: SegmentsRules) -> int | None:
    """The clock instant at which the PV reach the negative of the Constitution (None: no loss)."""
    loss = rs.dying.loss_per_segment
    if not loss:
        return None
    seg = rs.time_units["segment"]
    segments = max(1, -(-(sheet.current + sheet.constitution) // loss))
    return (sheet.clock // seg + segments) * seg


def try_instants(sheet: SegmentsSheet, rs: SegmentsRules, until: int) -> list[int]:
    """The instants before ``until`` at which ``time`` makes the dying character's Vigueur try (S5):
    asked of ``derive.stabilise_try_instant`` one try after the other, as the clock would reach them
    (the points lost on the way, the try of that turn made), so the schedule is the rules' own."""
    seg, turn = rs.time_units["segment"], rs.time_units["turn"]
    loss = rs.dying.loss_per_segment
    found: list[int] = []
    probe = sheet
    instant = stabilise_try_instant(probe, rs)
    while instant is not None and instant < until:
        found.append(instant)
        lost = (instant // seg - probe.clock // seg) * loss
        probe = evolve(probe, clock=instant, current=probe.current - lost, self_stabilise_turn=instant // turn)
        instant = stabilise_try_instant(probe, rs)
    return found


def survival(sheet: SegmentsSheet, rs: SegmentsRules) -> Chance | None:
    if not is_dying(sheet):
        return None
    p, roll = check(sheet, rs, "fortitude", rs.dying.self_stabilise_dd)
    dies_at = death_instant(sheet, rs)
    death = fmt_int(-sheet.constitution)
    if dies_at is None:
        result = Fraction(1) if p > 0 and rs.dying.auto_self_stabilise else Fraction(0)
        how = f"ne perd pas de PV ; Vigueur {roll} à {fmt_percent(p)} par tour"
        return chance("survival", "Chance de s'en sortir", result, how, trigger="story")
    tries = len(try_instants(sheet, rs, dies_at))
    result = 1 - (1 - p) ** tries
    segments = (dies_at - sheet.clock) // rs.time_units["segment"]
    how = (
        f"sans aide, {plural(tries, 'tentative')} de Vigueur avant de mourir à {death} PV "
        f"(dans {plural(segments, 'segment')}), chacune {roll} à {fmt_percent(p)} ; "
        "un allié le stabilise sans jet"
    )
    return chance("survival", "Chance de s'en sortir", result, how, trigger="story")


__all__ = ["check", "death_instant", "for_action", "rolls", "survival", "try_instants"]
