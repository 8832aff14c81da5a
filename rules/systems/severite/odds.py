"""Sévérité's odds (seed 003): the Défi de Ténacité, the Fatale survival roll, a strike's Sévérité.

Every number comes from the rule table (``tests``, ``power``, ``resistance``, ``grades``, ``survival``,
``trauma``, ``success_levels``, ``tenacity``) and the sheet; the rolls are the ones ``handlers`` make:

- the Défi de Ténacité, « votre Physique (ou votre Mental …) face à l'Opposition passive indiquée »:
  the attribute die + Physique or Mental (+ the skill die, + the Talents' bonus) against the tier's
  Opposition, its margin giving the success level;
- the Survie: « un seul et unique jet de dé pour égaliser ou dépasser ce montant. Si cette valeur est
  supérieure à 19, il vous faudra impérativement obtenir un 20 »;
- a strike: Puissance (dice and modifiers of the margin's grade) minus Résistance (a die and the
  protection of what covers the zone) gives the Sévérité, hence the grade of the wound.

Sévérité has no dying sequence: a Fatale wound is decided by one roll at once, so ``survival`` is None.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from rules.model import Term
from rules.odds import (
    Chance,
    Distribution,
    at_least,
    best_of,
    chance,
    constant,
    convolve,
    dice,
    negated,
    roll_text,
    shifted,
    terms_text,
    total_of,
)
from rules.ruleset import per_table
from rules.systems.severite.actions import InflictWound, Strike, TenacityTest, WorseningRisk
from rules.systems.severite.derive import handicap_penalty
from rules.systems.severite.gauge import (
    power_grade,
    protection,
    success_level,
    tier_of,
    tier_rule,
    trauma,
    wound_grade,
)
from rules.systems.severite.handlers import _test_needed
from rules.systems.severite.sheet import SeveriteSheet
from rules.systems.severite.table import SeveriteRules

# --- Ténacité ------------------------------------------------------------------------------------------


def tenacity_roll(sheet: SeveriteSheet, rs: SeveriteRules, psychological: bool) -> tuple[Distribution, str]:
    """``handlers._tenacity_roll``: D10 + Physique (Mental) [+ D6 of a skill] [+ Talents] [+ Handicaps]."""
    attribute = sheet.mental if psychological else sheet.physique
    die = rs.tests.attribute_die
    dist = shifted(dice(1, die), attribute)
    text = f"1d{die}" + terms_text([Term(attribute, "Mental" if psychological else "Physique")])
    if sheet.tenacity_skill:
        dist = convolve(dist, dice(1, rs.tests.skill_die))
        text += f" + 1d{rs.tests.skill_die} (Compétence)"
    extra = [Term(sheet.tenacity_bonus, "Talents")]
    if rs.tenacity.handicaps_apply:
        extra.append(Term(handicap_penalty(sheet), "Handicaps"))
    dist = shifted(dist, sum(t.value for t in extra))
    return dist, text + terms_text(extra)


def _blocked(sheet: SeveriteSheet, rs: SeveriteRules) -> bool:
    return sheet.dead or any(c in sheet.conditions for c in rs.tenacity.skipped_when)


# ``tenacity`` by its inputs (issue 15: a sheet shows the Défi once per untreated wound and the window asks
# again on every edit; the exact sums are the same as long as these numbers are). Key: the rule table's
# identity (tables are frozen; the table is kept in the value, so its id cannot be reused while cached) and
# every number and word the result is made of.
_TENACITY: dict[tuple[Any, ...], tuple[SeveriteRules, Chance]] = {}
_TENACITY_SIZE = 512


def tenacity(
    sheet: SeveriteSheet,
    rs: SeveriteRules,
    *,
    opposition: int,
    against: str,
    psychological: bool,
    roll_id: str = "tenacity",
    label: str = "Défi de Ténacité",
    action: str | None = "tenacity_test",
) -> Chance:
    """The chance of succeeding, and of each success level (« Si le Défi est échoué, vous êtes hors combat »)."""
    key = (
        id(rs),
        sheet.mental if psychological else sheet.physique,
        psychological,
        sheet.tenacity_skill,
        sheet.tenacity_bonus,
        handicap_penalty(sheet) if rs.tenacity.handicaps_apply else None,
        opposition,
        against,
        roll_id,
        label,
        action,
    )
    cached = _TENACITY.get(key)
    if cached is not None and cached[0] is rs:
        return cached[1]
    found = _tenacity(sheet, rs, opposition, against, psychological, roll_id, label, action)
    if len(_TENACITY) >= _TENACITY_SIZE:
        _TENACITY.clear()
    _TENACITY[key] = (rs, found)
    return found


def _tenacity(
    sheet: SeveriteSheet,
    rs: SeveriteRules,
    opposition: int,
    against: str,
    psychological: bool,
    roll_id: str,
    label: str,
    action: str | None,
) -> Chance:
    dist, text = tenacity_roll(sheet, rs, psychological)
    outcomes: list[tuple[str, Fraction]] = []
    failed = Fraction(0)
    levels: dict[str, Fraction] = {}
    for total, p in dist.items():
        reached = success_level(total - opposition, rs)
        if reached is None:
            failed += p
        else:
            levels[reached] = levels.get(reached, Fraction(0)) + p
    failure = rs.conditions[rs.tenacity.failure_condition].label
    outcomes.append((f"échec : {failure.lower()}", failed))
    for level_id, level in rs.success_levels.items():
        result = rs.tenacity_results[level.tenacity]
        outcomes.append((f"réussite {level.label} : Ténacité {result.label}", levels.get(level_id, Fraction(0))))
    how = roll_text(text, [], "≥", f"{against} ({opposition})")
    return chance(roll_id, label, at_least(dist, opposition), how, action=action, outcomes=outcomes)


def _tier_opposition(sheet: SeveriteSheet, rs: SeveriteRules) -> tuple[str, int] | None:
    label, opposition = tier_rule(tier_of(trauma(sheet), rs), rs)
    return None if opposition is None else (label, opposition)


# --- Survie --------------------------------------------------------------------------------------------


def survival_chance(severity: int, rs: SeveriteRules) -> Fraction:
    """« égaliser ou dépasser ce montant … Si cette valeur est supérieure à 19, … obtenir un 20 »."""
    needed = min(severity, rs.survival.needed_cap)
    return at_least(dice(1, rs.survival.die), needed)


def _fatal_grades(rs: SeveriteRules) -> list[str]:
    return [gid for gid, grade in rs.grades.items() if grade.fatal]


def _survival_overview_of(rs: SeveriteRules) -> Chance | None:
    fatal = _fatal_grades(rs)
    if not fatal:
        return None
    lowest = rs.grades[fatal[0]].min_severity
    cap = rs.survival.needed_cap
    die = rs.survival.die
    outcomes = [(f"Sévérité {s}", survival_chance(s, rs)) for s in range(lowest, max(lowest, cap))]
    outcomes.append((f"Sévérité {max(lowest, cap)} ou plus", survival_chance(max(lowest, cap), rs)))
    how = f"1d{die} ≥ Sévérité de la Blessure (au-delà de {cap - 1} : {cap} au moins), dès Sévérité {lowest}"
    label = f"Jet de Survie (Blessure {rs.grades[fatal[0]].label} sur une zone vitale)"
    return chance("fatal_survival", label, survival_chance(lowest, rs), how, trigger="event", outcomes=outcomes)


# The Survie roll's overview: it depends on the rule table alone (kept per table).
_survival_overview: Callable[[SeveriteRules], Chance | None] = per_table(_survival_overview_of, keep=16)


# --- A strike --------------------------------------------------------------------------------------------


def _vital_bonus(action: Strike, rs: SeveriteRules) -> int:
    """The « Modificateur de plus » of a strike on a vital zone, when the GM grants it (``Strike.vital_zone``)."""
    return rs.power.vital_zone_modifier if action.vital_zone else 0


def severity_distribution(sheet: SeveriteSheet, rs: SeveriteRules, action: Strike) -> tuple[Distribution, str]:
    """Puissance − Résistance, as ``handlers.strike`` rolls them."""
    pw = rs.power
    grade = pw.grades[power_grade(action.margin, rs)]
    power_parts: list[Distribution] = [dice(1, pw.base_die)]
    text = f"Puissance {grade.label} 1d{pw.base_die}"
    if grade.adds_modifiers:
        terms = [
            Term(action.damage_modifier, "mod. de dégâts"),
            Term(_vital_bonus(action, rs), "zone vitale"),
        ]
        power_parts.append(constant(sum(t.value for t in terms)))
        text += terms_text(terms)
    if grade.extra_dice:
        power_parts.append(dice(grade.extra_dice, pw.extra_die))
        text += f" + {grade.extra_dice}d{pw.extra_die}"
    for _ in range(grade.efficacy_dice):
        power_parts.append(best_of(dice(1, pw.efficacy_die), pw.facility_rolls))
        text += f" + 1d{pw.efficacy_die} d'Efficacité avec Facilité (meilleur de {pw.facility_rolls})"
    prot, names = protection(sheet, action.body_part, action.damage_type, rs)
    resistance = shifted(dice(1, rs.resistance.die), prot)
    text += f", moins Résistance 1d{rs.resistance.die}" + (terms_text([Term(prot, ", ".join(names))]) if prot else "")
    return total_of(*power_parts, negated(resistance)), text


def _strike(sheet: SeveriteSheet, rs: SeveriteRules, action: Strike) -> list[Chance]:
    if action.body_part not in rs.body_parts or action.damage_type not in rs.damage_types or sheet.dead:
        return []
    if action.vital_zone and not rs.body_parts[action.body_part].vital:
        return []  # the rules refuse the vital-zone modifier off a vital zone
    dist, how = severity_distribution(sheet, rs, action)
    vital = rs.body_parts[action.body_part].vital
    psychological = rs.damage_types[action.damage_type].psychological
    grades: dict[str, Fraction] = {}
    none = Fraction(0)
    death = Fraction(0)
    out = Fraction(0)
    before = trauma(sheet)
    blocked = _blocked(sheet, rs)
    for severity, p in dist.items():
        if severity < 0:
            none += p
            continue
        gid = wound_grade(severity, rs)
        grade = rs.grades[gid]
        grades[gid] = grades.get(gid, Fraction(0)) + p
        if grade.fatal and vital:
            death += p if sheet.is_npc else p * (1 - survival_chance(severity, rs))
            continue
        needed = _test_needed(before, before + grade.notches, grade, rs)
        if needed is not None and not blocked:
            opposition, _ = needed
            dist_t, _text = tenacity_roll(sheet, rs, psychological)
            out += p * (1 - at_least(dist_t, opposition))
    outcomes: list[tuple[str, Fraction]] = [("pas de Blessure (Sévérité négative)", none)]
    outcomes += [(f"Blessure {rs.grades[g].label}", grades.get(g, Fraction(0))) for g in rs.grades]
    found = [
        chance(
            "strike_wound",
            "Blessure infligée (Sévérité 0 ou plus)",
            1 - none,
            how,
            action="strike",
            outcomes=outcomes,
        )
    ]
    if death:
        why = "meurt d'une Blessure Fatale" if sheet.is_npc else "Blessure Fatale et jet de Survie raté"
        found.append(chance("strike_death", "Risque de mort", death, why, action="strike"))
    if out:
        failure = rs.conditions[rs.tenacity.failure_condition].label.lower()
        found.append(
            chance(
                "strike_out",
                f"Risque d'être {failure}",
                out,
                "Défi de Ténacité raté après la Blessure",
                action="strike",
            )
        )
    return found


# --- What the system offers ---------------------------------------------------------------------------


def rolls(sheet: SeveriteSheet, rs: SeveriteRules) -> list[Chance]:
    found: list[Chance] = []
    if sheet.dead:
        return found
    tier = _tier_opposition(sheet, rs)
    if tier is not None and not _blocked(sheet, rs):
        label, opposition = tier
        found.append(tenacity(sheet, rs, opposition=opposition, against=label, psychological=False))
        for wound in sheet.wounds:
            if wound.treatment is None:
                found.append(
                    tenacity(
                        sheet,
                        rs,
                        opposition=opposition,
                        against=label,
                        psychological=wound.psychological,
                        roll_id="worsening_risk",
                        label=f"Risque d'aggravation, blessure n° {wound.id} : réussir le Défi",
                        action="worsening_risk",
                    )
                )
                found[-1] = _with_subject(found[-1], wound.id)
    if not sheet.is_npc:
        overview = _survival_overview(rs)
        if overview is not None:
            found.append(overview)
    return found


def _with_subject(item: Chance, subject: int) -> Chance:
    return chance(
        item.id,
        item.label,
        item.probability,
        item.how,
        action=item.action,
        trigger=item.trigger,
        subject=subject,
        outcomes=item.outcomes,
    )


def for_action(sheet: SeveriteSheet, rs: SeveriteRules, action: Any) -> list[Chance]:
    if sheet.dead:
        return []
    if isinstance(action, TenacityTest):
        if _blocked(sheet, rs):
            return []
        if action.opposition is not None:
            found: tuple[str, int] | None = ("l'Opposition choisie", action.opposition)
        else:
            found = _tier_opposition(sheet, rs)
        if found is None:
            return []
        return [tenacity(sheet, rs, opposition=found[1], against=found[0], psychological=action.psychological)]
    if isinstance(action, WorseningRisk):
        wound = next((w for w in sheet.wounds if w.id == action.wound_id), None)
        if wound is None or wound.treatment is not None:
            return []
        found = ("l'Opposition choisie", action.opposition) if action.opposition is not None else None
        found = found or _tier_opposition(sheet, rs)
        if found is None:
            return []
        item = tenacity(
            sheet,
            rs,
            opposition=found[1],
            against=found[0],
            psychological=wound.psychological,
            roll_id="worsening_risk",
            label="Risque d'aggravation : réussir le Défi",
            action="worsening_risk",
        )
        return [_with_subject(item, wound.id)]
    if isinstance(action, InflictWound):
        return _inflict(sheet, rs, action)
    if isinstance(action, Strike):
        return _strike(sheet, rs, action)
    return []


def _inflict(sheet: SeveriteSheet, rs: SeveriteRules, action: InflictWound) -> list[Chance]:
    grade = rs.grades.get(action.grade)
    if grade is None:
        return []
    vital = action.body_part is None or (action.body_part in rs.body_parts and rs.body_parts[action.body_part].vital)
    if grade.fatal and vital:
        if sheet.is_npc:
            return [
                chance(
                    "inflict_death", "Risque de mort", 1, "un PNJ meurt d'une Blessure Fatale", action="inflict_wound"
                )
            ]
        if action.severity is None:
            return []
        p = survival_chance(action.severity, rs)
        needed = min(action.severity, rs.survival.needed_cap)
        how = f"1d{rs.survival.die} ≥ {needed} (Sévérité {action.severity})"
        return [chance("fatal_survival", "Jet de Survie", p, how, action="inflict_wound", trigger="event")]
    if not action.tenacity_test or _blocked(sheet, rs):
        return []
    before = trauma(sheet)
    needed_test = _test_needed(before, before + grade.notches, grade, rs)
    if needed_test is None:
        return []
    opposition, against = needed_test
    psychological = action.psychological or (
        action.damage_type is not None
        and action.damage_type in rs.damage_types
        and rs.damage_types[action.damage_type].psychological
    )
    item = tenacity(sheet, rs, opposition=opposition, against=against, psychological=psychological)
    return [
        chance(
            item.id,
            f"Défi de Ténacité après la Blessure {grade.label}",
            item.probability,
            item.how,
            action="inflict_wound",
            trigger="event",
            outcomes=item.outcomes,
        )
    ]


def survival(sheet: SeveriteSheet, rs: SeveriteRules) -> Chance | None:
    return None


__all__ = ["for_action", "rolls", "survival"]
