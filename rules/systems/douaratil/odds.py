"""Douaratil's odds (seed 000): the rolls its rules ask, how they are made, and the dying story.

Every number comes from the rule table (``saves``, ``healing``, ``wounds``, ``exhaustion``) and the
sheet; the rolls are the ones ``handlers`` and ``time`` make: 3d6 + a characteristic modifier + the
exhaustion malus against a DD, the death save's 3d6 (with the malus) against 10.

The dying story: « après trois succès, vous êtes stabilisé … et après trois échecs, vous mourez » —
the chance of reaching the successes needed before the failures, from the counts on the sheet, each
save with the sheet's exhaustion malus. Nothing else moves the counts while the character lies at
0 PA (a bleed at 0 PA takes nothing more), so the story is that chain alone.
"""

from __future__ import annotations

from typing import Any

from rules.actions import Stabilise
from rules.labels import ABILITY_LABELS
from rules.model import Term, plural
from rules.odds import Chance, Trigger, absorption, at_least, chance, dice, fmt_percent, roll_text, shifted
from rules.systems.douaratil.actions import DeathSave, WakeSave, WoundRisk
from rules.systems.douaratil.sheet import DouaratilSheet, ability_modifier, exhaustion_penalty
from rules.systems.douaratil.table import DouaratilRules


def _exhaustion_terms(sheet: DouaratilSheet, rs: DouaratilRules) -> list[Term]:
    penalty = exhaustion_penalty(sheet, rs)
    return [Term(penalty, f"épuisement niveau {sheet.exhaustion}")] if penalty else []


def _check(
    sheet: DouaratilSheet, rs: DouaratilRules, ability: str, dd: int, *, exhaustion: bool = True, bonus: int = 0
) -> tuple[float, str]:
    """A characteristic test or save, as ``handlers._check`` rolls it: 3d6 + modifier + malus ≥ DD."""
    count, sides = rs.saves.check_dice
    mod = ability_modifier(getattr(sheet, ability), rs)
    terms = [Term(mod, ABILITY_LABELS[ability][:3].upper())]
    if exhaustion:
        terms += _exhaustion_terms(sheet, rs)
    if bonus:
        terms.append(Term(bonus, "bonus"))
    total = sum(t.value for t in terms)
    p = at_least(shifted(dice(count, sides), total), dd)
    return float(p), roll_text(f"{count}d{sides}", terms, "≥", f"DD {dd}")


def death_save(sheet: DouaratilSheet, rs: DouaratilRules) -> tuple[float, str]:
    """« Lancez 3d6 (non explosifs). Sur un résultat de 10 ou plus, vous avez réussi. »"""
    count, sides = rs.saves.death_save_dice
    terms = _exhaustion_terms(sheet, rs) if rs.saves.exhaustion_on_death_saves else []
    p = at_least(shifted(dice(count, sides), sum(t.value for t in terms)), rs.saves.death_save_success)
    return float(p), roll_text(f"{count}d{sides}", terms, "≥", rs.saves.death_save_success)


def _dying(sheet: DouaratilSheet) -> bool:
    return sheet.current == 0 and not sheet.dead and not sheet.stabilised and not sheet.dies_at_zero


def _first_aid(sheet: DouaratilSheet, rs: DouaratilRules, modifier: int) -> Chance:
    # « test de Sagesse (Médecine) DD 16 » of the one who gives first aid: their bonus, not the patient's malus.
    count, sides = rs.saves.check_dice
    dd = rs.saves.first_aid_dd
    p = at_least(shifted(dice(count, sides), modifier), dd)
    how = roll_text(f"{count}d{sides}", [Term(modifier, "bonus du soigneur")], "≥", f"DD {dd}")
    return chance("first_aid", "Premiers soins, Sagesse (Médecine)", p, how, action="stabilise")


def rolls(sheet: DouaratilSheet, rs: DouaratilRules) -> list[Chance]:
    found: list[Chance] = []
    if sheet.dead:
        return found
    if _dying(sheet):
        p, how = death_save(sheet, rs)
        # « À chaque fois que vous commencez votre tour de jeu à 0 point d'action ou moins »
        found.append(chance("death_save", "Jet contre la mort", p, how, action="death_save", trigger="time"))
        found.append(_first_aid(sheet, rs, 0))
    if "inconscient" in sheet.conditions:
        p, how = _check(sheet, rs, "constitution", rs.saves.constitution_dd)
        trigger: Trigger = "time" if sheet.unconscious_rounds > 0 else "action"
        found.append(
            chance("wake_save", "JS de Constitution pour se réveiller", p, how, action="wake_save", trigger=trigger)
        )
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
        rule = rs.wounds.get(wound.type)
        label = f"{rule.label if rule else wound.type} ({rs.severities[wound.severity].label})"
        if rule is not None and rule.reopen_dd is not None and rule.bleeding_dice is not None and not wound.bleeding:
            p, how = _check(sheet, rs, "constitution", rule.reopen_dd)
            found.append(
                chance(
                    "wound_risk",
                    f"JS de Constitution, {label} (ne pas rouvrir la plaie)",
                    p,
                    how,
                    action="wound_risk",
                    subject=wound.id,
                )
            )
        delay = rule.days if rule else 0
        if wound.rests + 1 >= delay:
            # « à chaque repos long, un JS DD 16 est fait pour chaque blessure grave » (no DD steps).
            p, how = _check(sheet, rs, "constitution", rs.healing.test_dd, exhaustion=rs.healing.exhaustion_applies)
            found.append(
                chance(
                    "wound_healing",
                    f"Test de guérison, {label} (au prochain repos long)",
                    p,
                    how,
                    action="long_rest",
                    trigger="time",
                    subject=wound.id,
                )
            )
    return found


def for_action(sheet: DouaratilSheet, rs: DouaratilRules, action: Any) -> list[Chance]:
    if sheet.dead:
        return []
    if isinstance(action, DeathSave):
        if not _dying(sheet):
            return []
        p, how = death_save(sheet, rs)
        return [chance("death_save", "Jet contre la mort", p, how, action="death_save")]
    if isinstance(action, WakeSave):
        if "inconscient" not in sheet.conditions:
            return []
        p, how = _check(sheet, rs, "constitution", rs.saves.constitution_dd)
        return [chance("wake_save", "JS de Constitution pour se réveiller", p, how, action="wake_save")]
    if isinstance(action, Stabilise):
        if action.method != "first_aid" or sheet.current > 0 or sheet.stabilised:
            return []
        return [_first_aid(sheet, rs, action.modifier)]
    if isinstance(action, WoundRisk):
        return [c for c in rolls(sheet, rs) if c.id == "wound_risk" and c.subject == action.wound_id]
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
