"""Douaratil derived values: effective maxima, state, penalties, speed, wounds… each explained."""

from __future__ import annotations

from rules.labels import ABILITIES, ABILITY_LABELS
from rules.model import (
    Derived,
    Explained,
    Term,
    explained_modifier,
    explained_sum,
    fmt_int,
    of,
    plural,
    signed,
)
from rules.systems.douaratil.sheet import (
    DouaratilSheet,
    Pool,
    ability_modifier,
    effective_conditions,
    effective_maximum,
    exhaustion_penalty,
    maximum_reduction,
    wound_label,
)
from rules.systems.douaratil.table import POOLS, SYSTEM_ID, DouaratilRules


def health_state(sheet: DouaratilSheet, rs: DouaratilRules) -> tuple[str, str]:
    """The state id and why. The table asks it of every creature after a bulk action: the conditions
    are looked through once, and without exhaustion the maximum is the stored one (``points_maximum``
    of level 0 is ``base_maximum`` whatever the table)."""
    if sheet.dead:
        return "mort", "a succombé"
    unconscious = "inconscient" in sheet.conditions
    current = sheet.current
    if current:
        if unconscious:
            rounds = f" ({plural(sheet.unconscious_rounds, 'round')} au plus)" if sheet.unconscious_rounds else ""
            return "inconscient", f"sans connaissance{rounds}"
        top = effective_maximum(sheet, rs) if sheet.exhaustion else sheet.base_maximum
        return "en_forme", f"{current} PA sur {top}"
    out = ", sans connaissance" if unconscious else ""
    if sheet.stabilised:
        return "stabilise", f"0 PA, stabilisation : plus de jets contre la mort{out}"
    if sheet.dies_at_zero:
        reprieve = sheet.death_in_rounds or 0
        return "mourant", f"monstre à 0 PA, succombe dans {plural(reprieve, 'round')}"
    return "mourant", f"0 PA{out} : jet contre la mort au début de chaque tour"


def _mode_explained(label: str, effective: dict[str, str], rs: DouaratilRules, attr: str) -> Explained:
    adv = [rs.conditions[c].label for c in effective if getattr(rs.conditions[c], attr) == "avantage"]
    dis = [rs.conditions[c].label for c in effective if getattr(rs.conditions[c], attr) == "desavantage"]
    if adv and dis:
        return Explained(
            "normal", f"{label} : avantage ({', '.join(adv)}) et désavantage ({', '.join(dis)}) s'annulent"
        )
    if adv:
        return Explained("avantage", f"{label} : avantage ({', '.join(adv)})")
    if dis:
        return Explained("desavantage", f"{label} : désavantage ({', '.join(dis)})")
    return Explained("normal", f"{label} : normal")


def derive(sheet: DouaratilSheet, rs: DouaratilRules) -> Derived:
    values: dict[str, Explained] = {}
    exh = sheet.exhaustion
    reduction = maximum_reduction(sheet, rs)
    exh_reason = f"épuisement niveau {exh}"
    maximum = effective_maximum(sheet, rs)
    floored = maximum > sheet.base_maximum - reduction
    values["maximum"] = explained_sum(
        "maximum",
        sheet.base_maximum,
        [Term(maximum - sheet.base_maximum, exh_reason + (f", jamais sous {maximum}" if floored else ""))],
    )
    values["current"] = Explained(sheet.current, f"points d'action {sheet.current} sur {maximum}")
    values["temporary"] = Explained(
        sheet.temporary,
        f"points d'action temporaires {sheet.temporary} (absorbés en premier, jamais cumulés, perdus au repos long)",
    )
    state, why = health_state(sheet, rs)
    values["state"] = Explained(state, f"état : {rs.health_states[state].label} ({why})")
    penalty = exhaustion_penalty(sheet, rs)
    values["roll_penalty"] = explained_modifier(
        "malus à tous les jets", [Term(penalty, exh_reason)], "aucun épuisement"
    )
    effective = effective_conditions(sheet, rs)
    known = {c: r for c, r in effective.items() if c in rs.conditions}
    values["conditions"] = Explained(
        tuple(sorted(known)),
        "états : " + (", ".join(f"{rs.conditions[c].label} ({why})" for c, why in sorted(known.items())) or "aucun"),
    )
    values["condition_reasons"] = Explained(
        dict(sorted(known.items())), "pourquoi chaque état est en place (posé, ou découle d'un autre)"
    )
    # Movement: base − exhaustion; Empoigné/Entravé/… → 0; Étourdi → half; Écrasement → half.
    speed_terms = [Term(-min(exh * rs.exhaustion.speed_m_per_level, sheet.speed_m), exh_reason)]
    speed = explained_sum("déplacement", sheet.speed_m, speed_terms, "base, en mètres")
    zero = [rs.conditions[c].label for c in known if rs.conditions[c].speed == "zero"]
    halves = [rs.conditions[c].label for c in known if rs.conditions[c].speed == "half"]
    halves += [wound_label(w, rs) for w in sheet.wounds if w.type in rs.wounds and rs.wounds[w.type].halves_speed]
    if zero:
        speed = Explained(0, f"déplacement 0 ({', '.join(zero)})")
    elif halves:
        value = int(speed.value) // 2
        speed = Explained(value, f"{speed.text}, divisé par deux ({', '.join(halves)}) = {value}")
    values["speed"] = speed
    values["attacks"] = _mode_explained("ses attaques", known, rs, "attacks")
    values["attacked"] = _mode_explained("les attaques contre lui", known, rs, "attacked")
    values["checks"] = _mode_explained("ses tests de caractéristique", known, rs, "checks")
    incap = [rs.conditions[c].label for c in known if rs.conditions[c].incapacitated]
    values["incapacitated"] = Explained(
        bool(incap), "ni action ni réaction (" + ", ".join(incap) + ")" if incap else "peut agir"
    )
    fails = sorted({s for c in known for s in rs.conditions[c].auto_fail_saves})
    fails_by = [rs.conditions[c].label for c in known if rs.conditions[c].auto_fail_saves]
    values["auto_fail_saves"] = Explained(
        tuple(fails),
        "rate automatiquement ses JS de "
        + ", ".join(ABILITY_LABELS.get(s, s) for s in fails)
        + f" ({', '.join(fails_by)})"
        if fails
        else "aucun échec automatique",
    )
    # Wounds: the DD of every characteristic test goes up one step (minor) or two (major).
    step_terms = []
    for wound in sheet.wounds:
        steps = rs.severities[wound.severity].steps
        step_terms.append(Term(steps, f"blessure {wound_label(wound, rs)}"))
    if rs.difficulty.steps_stack or not step_terms:
        steps_value = explained_modifier("paliers de difficulté", step_terms, "aucune blessure")
    else:
        worst = max(step_terms, key=lambda t: t.value)
        steps_value = Explained(
            worst.value,
            f"paliers de difficulté +{worst.value} ({worst.reason} ; la plus lourde compte, hors test de guérison)",
        )
    values["dd_steps"] = steps_value
    shift = int(steps_value.value) * rs.difficulty.step
    ref = rs.difficulty.reference_dd
    if shift:
        values["test_dd"] = Explained(
            ref + shift, f"un test moyen (DD {ref}) devient DD {ref + shift} ({steps_value.text})"
        )
    else:
        values["test_dd"] = Explained(ref, f"un test moyen reste DD {ref}")
    available = sheet.level - sheet.action_dice_spent
    # One row per wound, as the wound list shows it (the UI computes nothing).
    rows = []
    bleeding_parts = []
    for wound in sheet.wounds:
        rule = rs.wounds.get(wound.type)
        delay = rule.days if rule else 0
        left = max(0, delay - wound.rests)
        bleed = ""
        if wound.bleeding and rule and rule.bleeding_dice:
            bleed = f"{rule.bleeding_dice[0]}d{rule.bleeding_dice[1]} par round"
            bleeding_parts.append(f"{bleed} ({wound_label(wound, rs)})")
        rows.append(
            {
                "id": wound.id,
                "type": wound.type,
                "label": rule.label if rule else wound.type,
                "severity": rs.severities[wound.severity].label,
                "steps": rs.severities[wound.severity].steps,
                "limitation": rule.limitation if rule else "",
                "will_dd": rule.will_dd if rule else None,
                "rests_left": left,
                "healing": (
                    f"test de guérison (CON DD {rs.healing.test_dd}) à chaque repos long"
                    if left == 0
                    else f"encore {plural(left, 'repos long', 'repos longs')} avant le test de guérison"
                ),
                "bleeding": bleed,
                "can_bleed": bool(rule and rule.bleeding_dice),
                "note": wound.note,
            }
        )
    values["wound_rows"] = Explained(tuple(rows), f"{plural(len(rows), 'blessure')}")
    values["bleeding"] = Explained(
        tuple(bleeding_parts),
        "saignement : " + "; ".join(bleeding_parts) if bleeding_parts else "aucun saignement",
    )
    values["scar_rows"] = Explained(
        tuple({"type": sc.type, "label": wound_label(sc, rs), "note": sc.note} for sc in sheet.scars),
        f"{plural(len(sheet.scars), 'cicatrice')}",
    )
    values["action_dice"] = Explained(
        available, f"dés d'action {available} sur {sheet.level} (d{sheet.action_die} + mod. CON chacun)"
    )
    for ability in ABILITIES:
        mod = ability_modifier(getattr(sheet, ability), rs)
        values[f"{ability}_modifier"] = Explained(
            mod,
            f"modificateur {of(ABILITY_LABELS[ability])} {signed(mod)} = ({getattr(sheet, ability)} − "
            f"{rs.general.ability_base}) ÷ {rs.general.ability_step}, arrondi vers le bas",
        )
    for pool in POOLS:
        stored: Pool = getattr(sheet, pool)
        label = rs.rests.pools[pool].label
        if pool == "sanity":
            values[f"{pool}_maximum"] = Explained(stored.base_maximum, f"{label} maximum {stored.base_maximum}")
        else:
            values[f"{pool}_maximum"] = explained_sum(
                f"{label} maximum", stored.base_maximum, [Term(-min(reduction, stored.base_maximum), exh_reason)]
            )
    needed = rs.saves.death_saves_needed
    values["death_saves"] = Explained(
        (sheet.death_successes, sheet.death_failures),
        f"jets contre la mort : {sheet.death_successes}/{needed} succès, {sheet.death_failures}/{needed} échecs "
        f"(3d6, {rs.saves.death_save_success} ou plus)",
    )
    critical_reasons = []
    if sheet.current == 0 and not sheet.dead:
        critical_reasons.append("tout dégât reçu à 0 PA")
    if sheet.critical_threshold is not None:
        critical_reasons.append(f"un coup de plus de {sheet.critical_threshold} dégâts")
    adj = [rs.conditions[c].label for c in known if rs.conditions[c].critical_if_adjacent]
    if adj:
        critical_reasons.append(f"toute attaque à 1,50 m ou moins ({', '.join(adj)})")
    values["critical_on"] = Explained(
        tuple(critical_reasons),
        "coup critique sur : " + ("; ".join(critical_reasons) if critical_reasons else "trois 6 à l'attaque seulement"),
    )
    values["massive_damage"] = Explained(
        sheet.constitution,
        f"dégâts massifs : un coup de plus de {sheet.constitution} (Constitution) → JS DD {rs.saves.constitution_dd}",
    )
    if sheet.last_long_rest_end is None:
        values["long_rest_ready_in"] = Explained(0, "repos long possible")
    else:
        hour = rs.time_units["hour"]
        cooldown = rs.rests.long_cooldown_hours * hour
        # The next rest, of the minimum length, must end 24 h after the last one ended.
        wait = max(0, sheet.last_long_rest_end + cooldown - rs.rests.long_min_hours * hour - sheet.clock)
        values["long_rest_ready_in"] = Explained(
            wait, "repos long possible" if wait == 0 else f"repos long possible dans {fmt_int(-(-wait // hour))} h"
        )
    if sheet.wake_in is not None:
        hours_left = -(-sheet.wake_in // rs.time_units["hour"])
        values["wake_in"] = Explained(sheet.wake_in, f"regagne 1 PA dans {hours_left} h")
    values["constitution_priority"] = Explained(
        sheet.constitution_priority,
        "prochains points de caractéristique en Constitution (jusqu'à 10)" if sheet.constitution_priority else "",
    )
    return Derived(SYSTEM_ID, values)
