"""Douaratil's odds (seed 000): the rolls its rules ask, how they are made, and the dying story.

Every number comes from the rule table (``saves``, ``healing``, ``wounds``, ``difficulty``, ``exhaustion``,
``conditions``) and the sheet; the rolls are the ones ``handlers`` and ``time`` make: 3d6 + a characteristic
modifier + the exhaustion malus (+ a bonus typed in a dialog) against a DD — the fall and wake saves, first
aid, a wound's risk (reopening or aggravation), its « test de volonté (SAG) », the healing test at a long
rest, a characteristic test (raised by the wounds' DD steps) or save — and the death save's 3d6 against
10 (with the malus only when ``saves.exhaustion_on_death_saves``: not with the shipped table, D9).

The dying story: « après trois succès, vous êtes stabilisé … et après trois échecs, vous mourez » —
the chance of reaching the successes needed before the failures, from the counts on the sheet. Nothing
else moves the counts while the character lies at 0 PA (a bleed at 0 PA takes nothing more), so the
story is that chain alone; it is the same whether the saves come from the button, from rounds passing or
from the GM table's start of turn (``StartTurn``).
"""

from __future__ import annotations

from typing import Any

from rules.actions import LongRest, Stabilise
from rules.labels import ABILITY_LABELS
from rules.model import Term, evolve, plural
from rules.odds import Chance, Trigger, absorption, chance, dice_at_least, fmt_percent, roll_text
from rules.systems.douaratil.actions import AbilityCheck, DeathSave, WakeSave, WillTest, WoundRisk
from rules.systems.douaratil.handlers import out_at_zero
from rules.systems.douaratil.sheet import (
    DouaratilSheet,
    Wound,
    ability_modifier,
    dd_steps,
    effective_conditions,
    exhaustion_penalty,
    wound_label,
)
from rules.systems.douaratil.table import DouaratilRules


def _exhaustion_terms(sheet: DouaratilSheet, rs: DouaratilRules) -> list[Term]:
    penalty = exhaustion_penalty(sheet, rs)
    return [Term(penalty, f"épuisement niveau {sheet.exhaustion}")] if penalty else []


def _check(
    sheet: DouaratilSheet, rs: DouaratilRules, ability: str, dd: int, *, exhaustion: bool = True, bonus: int = 0
) -> tuple[float, str]:
    """A characteristic test or save, as ``handlers._check`` rolls it: 3d6 + modifier + malus (+ bonus) ≥ DD."""
    count, sides = rs.saves.check_dice
    mod = ability_modifier(getattr(sheet, ability), rs)
    terms = [Term(mod, ABILITY_LABELS[ability][:3].upper())]
    if exhaustion:
        terms += _exhaustion_terms(sheet, rs)
    if bonus:
        terms.append(Term(bonus, "bonus"))
    total = sum(t.value for t in terms)
    p = dice_at_least(count, sides, dd - total)
    return float(p), roll_text(f"{count}d{sides}", terms, "≥", f"DD {dd}")


def death_save(sheet: DouaratilSheet, rs: DouaratilRules) -> tuple[float, str]:
    """« Lancez 3d6 (non explosifs). Sur un résultat de 10 ou plus, vous avez réussi. »"""
    count, sides = rs.saves.death_save_dice
    terms = _exhaustion_terms(sheet, rs) if rs.saves.exhaustion_on_death_saves else []
    p = dice_at_least(count, sides, rs.saves.death_save_success - sum(t.value for t in terms))
    return float(p), roll_text(f"{count}d{sides}", terms, "≥", rs.saves.death_save_success)


def _dying(sheet: DouaratilSheet) -> bool:
    return sheet.current == 0 and not sheet.dead and not sheet.stabilised and not sheet.dies_at_zero


def _first_aid(sheet: DouaratilSheet, rs: DouaratilRules, modifier: int) -> Chance:
    # « test de Sagesse (Médecine) DD 16 » of the one who gives first aid: their bonus, not the patient's malus.
    count, sides = rs.saves.check_dice
    dd = rs.saves.first_aid_dd
    p = dice_at_least(count, sides, dd - modifier)
    how = roll_text(f"{count}d{sides}", [Term(modifier, "bonus du soigneur")], "≥", f"DD {dd}")
    return chance("first_aid", "Premiers soins, Sagesse (Médecine)", p, how, action="stabilise")


def _can_wake(sheet: DouaratilSheet, rs: DouaratilRules) -> bool:
    """The wake save is asked of an unconscious creature, never at 0 PA (D14: only PA regained wake it)."""
    return "inconscient" in sheet.conditions and not out_at_zero(sheet, rs)


def _wake(sheet: DouaratilSheet, rs: DouaratilRules, trigger: Trigger) -> Chance:
    p, how = _check(sheet, rs, "constitution", rs.saves.constitution_dd)
    return chance("wake_save", "JS de Constitution pour se réveiller", p, how, action="wake_save", trigger=trigger)


def _wound_risk(sheet: DouaratilSheet, rs: DouaratilRules, wound: Wound) -> Chance | None:
    """``handlers.wound_risk``: « risque d'ouverture de la plaie » (a closed wound that can bleed) or the
    fracture's « risque d'aggravation », each a Constitution save against the wound type's DD."""
    rule = rs.wounds.get(wound.type)
    if rule is None:
        return None
    label = wound_label(wound, rs)
    if rule.bleeding_dice is not None and rule.reopen_dd is not None:
        if wound.bleeding:
            return None
        p, how = _check(sheet, rs, "constitution", rule.reopen_dd)
        what = f"JS de Constitution, {label} (ne pas rouvrir la plaie)"
    elif rule.aggravation_dd is not None:
        p, how = _check(sheet, rs, "constitution", rule.aggravation_dd)
        what = f"JS de Constitution, {label} (ne pas l'aggraver)"
    else:
        return None
    return chance("wound_risk", what, p, how, action="wound_risk", subject=wound.id)


def _will_test(sheet: DouaratilSheet, rs: DouaratilRules, wound: Wound, bonus: int) -> Chance | None:
    """``handlers.will_test``: the wound table's « test de volonté (SAG) », Sagesse against the wound's DD
    (plus the wounds' DD steps when ``difficulty.will_test_steps``), with the malus and the GM's bonus."""
    rule = rs.wounds.get(wound.type)
    if rule is None:
        return None
    dd = rule.will_dd
    if rs.difficulty.will_test_steps:
        dd += dd_steps(sheet, rs) * rs.difficulty.step
    p, how = _check(sheet, rs, "wisdom", dd, bonus=bonus)
    what = f"Test de volonté (SAG), {wound_label(wound, rs)}"
    return chance("will_test", what, p, how, action="will_test", subject=wound.id)


def _healing_tests(sheet: DouaratilSheet, rs: DouaratilRules, ate_and_drank: bool = True) -> list[Chance]:
    """« Une fois cette période passée, à chaque repos long, un JS DD 16 est fait pour chaque blessure grave »,
    no DD steps (« cela ne s'applique pas pour le test de guérison »). The test comes at the end of the long
    rest, after it has lowered the exhaustion (when the character ate and drank), so that level's malus."""
    found: list[Chance] = []
    after = sheet
    if sheet.exhaustion and ate_and_drank:
        after = evolve(sheet, exhaustion=max(0, sheet.exhaustion - rs.exhaustion.long_rest_reduction))
    for wound in sheet.wounds:
        rule = rs.wounds.get(wound.type)
        delay = rule.days if rule else 0
        if wound.rests + 1 < delay:
            continue
        p, how = _check(after, rs, "constitution", rs.healing.test_dd, exhaustion=rs.healing.exhaustion_applies)
        found.append(
            chance(
                "wound_healing",
                f"Test de guérison, {wound_label(wound, rs)} (au prochain repos long)",
                p,
                how,
                action="long_rest",
                trigger="time",
                subject=wound.id,
            )
        )
    return found


def _ability_check(sheet: DouaratilSheet, rs: DouaratilRules, action: AbilityCheck) -> Chance:
    """``handlers.ability_check``: a test gets the wounds' DD steps (« Une blessure mineure augmente le DD de
    tout test de caractéristique … d'un degré »), a save does not; both get the malus and the bonus typed.
    A save a state makes fail (« rate automatiquement tous ses jets de sauvegarde de Force et de Dextérité »)
    has no chance. The advantage or disadvantage of states is the GM's to apply: not counted here."""
    label = ABILITY_LABELS[action.ability]
    effective = effective_conditions(sheet, rs)
    if action.save:
        fails = [
            rs.conditions[c].label
            for c in effective
            if c in rs.conditions and action.ability in rs.conditions[c].auto_fail_saves
        ]
        if fails:
            how = f"raté automatiquement ({', '.join(fails)})"
            return chance("ability_check", f"JS de {label}", 0, how, action="ability_check")
        p, how = _check(sheet, rs, action.ability, action.dd, bonus=action.bonus)
        return chance("ability_check", f"JS de {label}", p, how, action="ability_check")
    steps = dd_steps(sheet, rs)
    dd = action.dd + steps * rs.difficulty.step
    p, how = _check(sheet, rs, action.ability, dd, bonus=action.bonus)
    if steps:
        how += f" (DD {action.dd} + {steps * rs.difficulty.step} : {plural(steps, 'palier')} des blessures)"
    moded = sorted({rs.conditions[c].label for c in effective if c in rs.conditions and rs.conditions[c].checks})
    if moded:
        how += f" ; avantage ou désavantage des états ({', '.join(moded)}) non compté : au meneur"
    return chance("ability_check", f"Test de {label}", p, how, action="ability_check")


def rolls(sheet: DouaratilSheet, rs: DouaratilRules) -> list[Chance]:
    found: list[Chance] = []
    if sheet.dead:
        return found
    if _dying(sheet):
        p, how = death_save(sheet, rs)
        # « À chaque fois que vous commencez votre tour de jeu à 0 point d'action ou moins »
        found.append(chance("death_save", "Jet contre la mort", p, how, action="death_save", trigger="time"))
        found.append(_first_aid(sheet, rs, 0))
    if _can_wake(sheet, rs):
        found.append(_wake(sheet, rs, "time" if sheet.unconscious_rounds > 0 else "action"))
    if sheet.current > 0 and not sheet.dies_at_zero:
        # « vous êtes inconscient … pour 1d6 rounds à moins de réussir un JS DD 16 de Constitution »,
        # and the same save after massive damage.
        p, how = _check(sheet, rs, "constitution", rs.saves.constitution_dd)
        found.append(
            chance(
                "constitution_save",
                "JS de Constitution (chute à 0 PA, dégâts massifs)",
                p,
                how,
                trigger="event",
            )
        )
    for wound in sheet.wounds:
        risk = _wound_risk(sheet, rs, wound)
        if risk is not None:
            found.append(risk)
        will = _will_test(sheet, rs, wound, 0)
        if will is not None:
            found.append(will)
    found += _healing_tests(sheet, rs)
    return found


def _wound(sheet: DouaratilSheet, wound_id: int) -> Wound | None:
    return next((w for w in sheet.wounds if w.id == wound_id), None)


def for_action(sheet: DouaratilSheet, rs: DouaratilRules, action: Any) -> list[Chance]:
    if sheet.dead:
        return []
    if isinstance(action, DeathSave):
        if not _dying(sheet):
            return []
        p, how = death_save(sheet, rs)
        return [chance("death_save", "Jet contre la mort", p, how, action="death_save")]
    if isinstance(action, WakeSave):
        return [_wake(sheet, rs, "action")] if _can_wake(sheet, rs) else []
    if isinstance(action, Stabilise):
        if action.method != "first_aid" or not _dying(sheet):
            return []
        return [_first_aid(sheet, rs, action.modifier)]
    if isinstance(action, WoundRisk):
        wound = _wound(sheet, action.wound_id)
        risk = None if wound is None else _wound_risk(sheet, rs, wound)
        return [] if risk is None else [risk]
    if isinstance(action, WillTest):
        wound = _wound(sheet, action.wound_id)
        will = None if wound is None else _will_test(sheet, rs, wound, action.bonus)
        return [] if will is None else [will]
    if isinstance(action, AbilityCheck):
        return [_ability_check(sheet, rs, action)]
    if isinstance(action, LongRest):
        return [] if action.interrupted else _healing_tests(sheet, rs, action.ate_and_drank)
    return []


def survival(sheet: DouaratilSheet, rs: DouaratilRules) -> Chance | None:
    """The chance of pulling through at 0 PA: the saves needed before as many failures."""
    if sheet.dead or sheet.current > 0 or sheet.stabilised:
        return None
    if sheet.dies_at_zero:
        if sheet.death_in_rounds is None:
            return None
        how = f"monstre à 0 PA : agit encore {plural(sheet.death_in_rounds, 'round')} puis succombe"
        return chance("survival", "Chance de s'en sortir", 0, how, trigger="story")
    needed = rs.saves.death_saves_needed
    p, roll = death_save(sheet, rs)
    successes, failures = sheet.death_successes, sheet.death_failures

    def step(state: tuple[int, int]) -> list[tuple[float, tuple[int, int] | bool]]:
        s, f = state
        win: tuple[int, int] | bool = True if s + 1 >= needed else (s + 1, f)
        lose: tuple[int, int] | bool = False if f + 1 >= needed else (s, f + 1)
        return [(p, win), (1 - p, lose)]

    start: tuple[int, int] | bool = (successes, failures)
    if successes >= needed or failures >= needed:
        start = successes >= needed
    result = absorption(start, step)
    so_far = (
        f"déjà {plural(successes, 'succès', 'succès')} et {plural(failures, 'échec')}"
        if successes or failures
        else "aucun jet encore"
    )
    how = f"{needed} succès avant {needed} échecs ({so_far}), chaque jet contre la mort {roll} à {fmt_percent(p)}"
    return chance("survival", "Chance de s'en sortir", result, how, trigger="story")
