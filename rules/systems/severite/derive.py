"""Sévérité's derived values (the gauge, the state, penalties, what the next rest gives)."""

from __future__ import annotations

from rules.model import Derived, Explained, Term, explained_modifier, plural, signed
from rules.systems.severite.gauge import gauge_notches, tier_of, tier_rule, tier_text, trauma, wound_label
from rules.systems.severite.sheet import SYSTEM_ID, SeveriteSheet, Wound
from rules.systems.severite.table import SeveriteRules


def handicap_penalty(sheet: SeveriteSheet, wounds: tuple[Wound, ...] | None = None) -> int:
    """Penalties of the Handicaps in force (an ignored wound's Handicap is ignored too); ``wounds``: the
    sheet's wounds when they are not on ``sheet`` yet."""
    return sum(w.handicap_penalty for w in (sheet.wounds if wounds is None else wounds) if w.handicap and not w.ignored)


def health_state(sheet: SeveriteSheet, rs: SeveriteRules) -> tuple[str, str]:
    conds = set(sheet.conditions)
    if sheet.dead:
        return "mort", "mort"
    if "stabilise" in conds:
        return "stabilise", "jet de Survie réussi : inconscient, stable jusqu'à la fin du Conflit"
    if "inconscient" in conds:
        return "inconscient", "inconscient, a besoin de soins importants"
    if rs.tenacity.failure_condition in conds:
        return "hors_de_combat", "Défi de Ténacité échoué : incapable d'agir jusqu'à la fin du Conflit"
    idle = [rs.conditions[c].label for c in sorted(conds) if c in rs.conditions and rs.conditions[c].no_action]
    if idle:
        return "sonne", "pas d'Action pour l'instant (" + ", ".join(idle) + ")"
    notches = gauge_notches(sheet)
    if notches > rs.capacity:
        return "au_dela", f"{notches} crans, au-delà des {rs.capacity} de la jauge"
    if notches or sheet.wounds:
        return "blesse", f"{plural(notches, 'cran')} de Trauma, {plural(len(sheet.wounds), 'blessure')}"
    return "en_forme", "aucune blessure"


def derive(sheet: SeveriteSheet, rs: SeveriteRules) -> Derived:
    values: dict[str, Explained] = {}
    notches = trauma(sheet)
    capacity = rs.capacity
    held = [w for w in sheet.wounds if w.notches]
    text = f"jauge de Trauma : {plural(notches, 'cran')} sur {capacity} ({tier_text(notches, rs)})"
    if held:
        text += " = " + " + ".join(f"{w.notches} ({wound_label(w, rs)})" for w in held)
    values["current"] = Explained(notches, text)
    values["maximum"] = Explained(
        capacity,
        f"capacité de la jauge {capacity} crans = {len(rs.trauma.tiers)} paliers × {rs.trauma.notches_per_tier} "
        f"crans ; au-delà : {rs.trauma.beyond.label} ({rs.trauma.beyond.opposition})",
    )
    values["temporary"] = Explained(0, "pas de points temporaires dans Sévérité")
    state, why = health_state(sheet, rs)
    values["state"] = Explained(state, f"état : {rs.health_states[state].label} ({why})")
    values["roll_penalty"] = explained_modifier(
        "malus des Handicaps",
        [
            Term(w.handicap_penalty, f"{w.handicap}, blessure {wound_label(w, rs)}")
            for w in sheet.wounds
            if w.handicap and not w.ignored
        ],
        "aucun Handicap",
    )
    known = {c: "posé" for c in sheet.conditions if c in rs.conditions}
    timers = {t.condition: t.turns for t in sheet.turn_timers}

    def _shown(cid: str) -> str:
        rule = rs.conditions[cid]
        if cid in timers:
            return f"{rule.label} (encore {plural(timers[cid], 'fin de tour', 'fins de tour')})"
        if rule.duration == "conflict":
            return f"{rule.label} (jusqu'à la fin du Conflit)"
        return rule.label

    values["conditions"] = Explained(
        tuple(sorted(known)), "états : " + (", ".join(_shown(c) for c in sorted(known)) or "aucun")
    )
    values["condition_reasons"] = Explained(
        dict(sorted(known.items())), "chaque état est posé par les règles ou à la main"
    )
    tier = tier_of(notches, rs)
    tier_label, opposition = tier_rule(tier, rs)
    values["trauma_tier"] = Explained(tier, tier_text(notches, rs))
    if opposition is None:
        values["tenacity_opposition"] = Explained(None, f"aucun Défi de Ténacité ({tier_text(notches, rs)})")
    else:
        values["tenacity_opposition"] = Explained(
            opposition, f"un Défi de Ténacité se fait maintenant contre {tier_label} ({opposition})"
        )
    for attr, label in (("physique", "Physique"), ("mental", "Mental")):
        value = getattr(sheet, attr) + sheet.tenacity_bonus
        skill = f" + D{rs.tests.skill_die} (Compétence)" if sheet.tenacity_skill else ""
        bonus = f" {signed(sheet.tenacity_bonus)} (Talents)" if sheet.tenacity_bonus else ""
        die = f"D{rs.tests.attribute_die}"
        values[f"tenacity_{attr}"] = Explained(
            value, f"Défi de Ténacité ({label}) : {die} {signed(getattr(sheet, attr))} ({label}){skill}{bonus}"
        )
    idle = [rs.conditions[c].label for c in sheet.conditions if c in rs.conditions and rs.conditions[c].no_action]
    values["can_act"] = Explained(
        not sheet.dead and not idle,
        "mort" if sheet.dead else ("ne peut pas agir (" + ", ".join(idle) + ")" if idle else "peut agir"),
    )
    treated = [w for w in sheet.wounds if w.treatment is not None]
    untreated = [w for w in sheet.wounds if w.treatment is None]
    per = rs.rest.notches_per_treated_wound
    recovery = sum(min(per, w.notches) for w in treated)
    values["rest_recovery"] = Explained(
        recovery,
        f"au prochain repos : −{plural(recovery, 'cran')}, {per} par blessure traitée"
        + (
            f" ; {plural(len(untreated), 'blessure non traitée', 'blessures non traitées')}, sans guérison"
            if untreated
            else ""
        ),
    )
    values["untreated_wounds"] = Explained(
        len(untreated),
        "blessures non traitées : " + (", ".join(wound_label(w, rs) for w in untreated) or "aucune"),
    )
    values["handicaps"] = Explained(
        tuple((w.id, w.handicap, w.handicap_penalty, w.ignored) for w in sheet.wounds if w.handicap),
        "Handicaps : "
        + (
            "; ".join(
                f"{w.handicap} ({wound_label(w, rs)}{', ignoré' if w.ignored else ''})"
                for w in sheet.wounds
                if w.handicap
            )
            or "aucun"
        ),
    )
    hour = rs.time_units["hour"]
    if sheet.last_rest_end is None or not rs.rest.cooldown_hours:
        values["rest_ready_in"] = Explained(0, "repos possible")
    else:
        wait = max(0, sheet.last_rest_end + (rs.rest.cooldown_hours - rs.rest.min_hours) * hour - sheet.clock)
        values["rest_ready_in"] = Explained(
            wait, "repos possible" if wait == 0 else f"repos possible dans {-(-wait // hour)} h"
        )
    return Derived(SYSTEM_ID, values)
