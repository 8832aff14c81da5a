"""Douaratil handlers: damage, healing, temporary PA, states, dying, exhaustion, wounds, tests, edits.

Every journal line is French and speaks of the character without a gendered adjective (« Brenna
meurt », « sans connaissance »), since the sheet does not say how to refer to the character.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.actions import (
    ClearConditions,
    Damage,
    GainTemporary,
    Heal,
    LoseTemporary,
    SetCondition,
    ShortRest,
    Stabilise,
)
from rules.errors import Refused
from rules.labels import ABILITY_LABELS
from rules.model import Context, evolve, fmt_int, plural, signed
from rules.systems.douaratil.actions import (
    AbilityCheck,
    AddExhaustion,
    AddWound,
    DeathSave,
    HealWound,
    HeroicSurvival,
    RemoveWound,
    SetExhaustion,
    SetWoundBleeding,
    SpendActionDie,
    WakeSave,
    WillTest,
    WoundRisk,
)
from rules.systems.douaratil.sheet import (
    DouaratilSheet,
    Pool,
    Scar,
    Wound,
    ability_modifier,
    condition_label,
    dd_steps,
    effective_conditions,
    effective_maximum,
    exhaustion_penalty,
    field_label,
    fmt_duration,
    pool_maximum,
    sheet_problems,
    wound_label,
)
from rules.systems.douaratil.table import POOLS, DouaratilRules

Handler = Callable[[DouaratilSheet, Any, Context], DouaratilSheet]


def name_of(sheet: DouaratilSheet, start: bool = True) -> str:
    """The character's name, or « la créature » (``start``: at the start of a sentence)."""
    return sheet.name or ("La créature" if start else "la créature")


# --------------------------------------------------------------------------------------------------
# Rolls
# --------------------------------------------------------------------------------------------------


def _check(ctx: Context, sheet: DouaratilSheet, ability: str, dd: int, what: str, bonus: int = 0) -> bool:
    """A Douaratil characteristic test or save: 3d6 + modifier + exhaustion penalty against ``dd``."""
    rs: DouaratilRules = ctx.ruleset
    count, sides = rs.saves.check_dice
    roll = ctx.dice(count, sides, what)
    mod = ability_modifier(getattr(sheet, ability), rs)
    penalty = exhaustion_penalty(sheet, rs)
    total = roll.total + mod + penalty + bonus
    parts = f"{roll.detail} {signed(mod)} ({ABILITY_LABELS[ability][:3].upper()})"
    if penalty:
        parts += f" {signed(penalty)} (épuisement)"
    if bonus:
        parts += f" {signed(bonus)}"
    success = total >= dd
    ctx.say(f"{what} : {parts} = {fmt_int(total)} contre DD {dd} → {'réussite' if success else 'échec'}.")
    return success


# --------------------------------------------------------------------------------------------------
# Consciousness, dying, death
# --------------------------------------------------------------------------------------------------


def out_at_zero(sheet: DouaratilSheet, rs: DouaratilRules) -> bool:
    """D14: at 0 PA a creature following the players' rules is unconscious until it regains PA
    (« Une personne stabilisée … reste inconsciente »; temporary PA « ne … permet pas de reprendre
    conscience »). A monster that dies at 0 PA acts freely through its reprieve instead."""
    return rs.saves.unconscious_at_zero and sheet.current == 0 and not sheet.dead and not sheet.dies_at_zero


def dying(sheet: DouaratilSheet) -> bool:
    """At 0 PA, making death saves at the start of each turn."""
    return sheet.current == 0 and not sheet.stabilised and not sheet.dies_at_zero and not sheet.dead


def _lose_consciousness(sheet: DouaratilSheet, ctx: Context, line: str) -> DouaratilSheet:
    ctx.event("unconscious")
    if "inconscient" in sheet.conditions:
        return sheet
    ctx.say(line)
    return evolve(sheet, conditions=tuple(sorted({*sheet.conditions, "inconscient"})))


def _wake(sheet: DouaratilSheet, rs: DouaratilRules, ctx: Context, why: str) -> DouaratilSheet:
    """Leaving Inconscient: « Si la créature reprend conscience, elle est à terre. »"""
    if "inconscient" not in sheet.conditions:
        return evolve(sheet, unconscious_rounds=0) if sheet.unconscious_rounds else sheet
    if out_at_zero(sheet, rs):
        ctx.say(f"{name_of(sheet)} reste sans connaissance : 0 point d'action.")
        return evolve(sheet, unconscious_rounds=0)
    conditions = set(sheet.conditions) - {"inconscient"}
    added = [c for c in rs.conditions["inconscient"].on_end_adds if c not in conditions]
    conditions.update(added)
    line = f"{name_of(sheet)} reprend conscience ({why})"
    if added:
        line += " : " + ", ".join(condition_label(c, rs) for c in added)
    ctx.say(line + ".")
    return evolve(sheet, conditions=tuple(sorted(conditions)), unconscious_rounds=0)


def _knock_out(sheet: DouaratilSheet, rs: DouaratilRules, ctx: Context, why: str) -> DouaratilSheet:
    """« inconscient … pour 1d6 rounds »: knocked out, even if healed meanwhile, until the rounds run out
    or a CON save succeeds."""
    count, sides = rs.saves.unconscious_dice
    rounds = ctx.dice(count, sides, "Durée de l'inconscience").total
    ctx.say(f"Sans connaissance pour {plural(rounds, 'round')} ({why}) : {count}d{sides} = {rounds}.")
    ctx.event("unconscious")
    conditions = tuple(sorted({*sheet.conditions, "inconscient"}))
    return evolve(sheet, conditions=conditions, unconscious_rounds=min(1000, max(sheet.unconscious_rounds, rounds)))


def _die(sheet: DouaratilSheet, ctx: Context, why: str) -> DouaratilSheet:
    ctx.say(f"{name_of(sheet)} meurt ({why}).")
    ctx.event("died")
    return evolve(
        sheet,
        dead=True,
        stabilised=False,
        wake_in=None,
        death_in_rounds=None,
        unconscious_rounds=0,
        short_rest_open=False,
    )


def _fall_to_zero(sheet: DouaratilSheet, rs: DouaratilRules, ctx: Context, save_why: str | None) -> DouaratilSheet:
    """The creature has just fallen to 0 PA; ``save_why`` names the hit's Constitution save (``None``: no
    hit, e.g. an edit)."""
    ctx.event("fell")
    if sheet.dies_at_zero:
        # « La plupart des Narrateurs font mourir les adversaires dès qu'ils atteignent 0 point d'action »
        if sheet.dies_after_rounds:
            count, sides = rs.saves.npc_death_dice
            rounds = ctx.dice(count, sides, "Sursis du monstre").total
            ctx.say(f"À 0 PA, le monstre agit encore librement {plural(rounds, 'round')} puis succombe.")
            return evolve(sheet, death_in_rounds=rounds)
        return _die(sheet, ctx, "monstre à 0 point d'action")
    if rs.saves.unconscious_at_zero and "inconscient" not in sheet.conditions:
        who = name_of(sheet, start=False)
        line = f"À 0 point d'action, {who} perd conscience : jet contre la mort au début de chaque tour."
        sheet = _lose_consciousness(sheet, ctx, line)
    elif rs.saves.unconscious_at_zero:
        ctx.say("À 0 point d'action : jet contre la mort au début de chaque tour.")
    else:
        ctx.say("À 0 point d'action : jets de sauvegarde contre la mort au début de chaque tour.")
    if save_why is not None:
        # « vous êtes inconscient … pour 1d6 rounds à moins de réussir un JS DD 16 de Constitution »
        if _check(ctx, sheet, "constitution", rs.saves.constitution_dd, f"JS de Constitution ({save_why})"):
            if rs.saves.unconscious_at_zero:
                ctx.say("JS réussi : des soins suffiront à reprendre conscience.")
        else:
            sheet = _knock_out(sheet, rs, ctx, save_why)
    return sheet


def _regain(sheet: DouaratilSheet, current: int, rs: DouaratilRules, ctx: Context, why: str) -> DouaratilSheet:
    """``current`` PA now; from 0 to above it: « Ce compteur est remis à 0 dès que vous regagnez des points
    d'action pour être au dessus de zéro »; the stabilisation and the 0-PA unconsciousness end with it."""
    was_at_zero = sheet.current == 0
    sheet = evolve(sheet, current=current)
    if not was_at_zero or current == 0:
        return sheet
    if sheet.death_successes or sheet.death_failures:
        ctx.say("Jets contre la mort remis à 0.")
    sheet = evolve(sheet, death_successes=0, death_failures=0, stabilised=False, wake_in=None, death_in_rounds=None)
    if "inconscient" not in sheet.conditions:
        return sheet
    if sheet.unconscious_rounds:
        ctx.say(
            f"{name_of(sheet)} reste sans connaissance encore {plural(sheet.unconscious_rounds, 'round')} au plus "
            "(JS de Constitution chaque round)."
        )
        return sheet
    return _wake(sheet, rs, ctx, why)


def _take(
    sheet: DouaratilSheet,
    amount: int,
    rs: DouaratilRules,
    ctx: Context,
    *,
    attack: bool,
    adjacent: bool = False,
    critical: bool = False,
) -> DouaratilSheet:
    """One hit (or one round of bleeding) of ``amount`` damage."""
    name = sheet.name or "La créature"
    if sheet.dead:
        ctx.say(f"{name} a déjà succombé : {amount} dégâts sans effet.")
        return sheet
    effective = effective_conditions(sheet, rs) if sheet.conditions else {}  # the common case stays cheap
    if effective and amount > 0 and any(rs.conditions[c].resists_all_damage for c in effective if c in rs.conditions):
        halved = amount // 2
        ctx.say(f"Résistance à tous les dégâts (Pétrifié) : {amount} → {halved}.")
        amount = halved
    was_at_zero = sheet.current == 0
    absorbed = min(sheet.temporary, amount)
    real = amount - absorbed
    # D15: temporary PA « évite à un personnage de subir véritablement des dégâts ».
    felt = amount if rs.temporary.absorbed_damage_counts else real
    if attack:
        reasons = []
        if critical:
            reasons.append("trois 6 à l'attaque")
        if was_at_zero and felt > 0:
            reasons.append("dégâts reçus sans point d'action")
        if sheet.critical_threshold is not None and felt > sheet.critical_threshold:
            reasons.append(f"seuil de critique {sheet.critical_threshold} dépassé")
        if (
            adjacent
            and effective
            and any(rs.conditions[c].critical_if_adjacent for c in effective if c in rs.conditions)
        ):
            reasons.append("cible sans défense touchée à 1,50 m ou moins")
        if reasons:
            ctx.say("Coup critique (" + ", ".join(reasons) + ") : tirez sur la table des coups critiques.")
            ctx.event("critical")
    new_current = max(0, sheet.current - real)
    line = f"{name} subit {amount} dégâts"
    if absorbed:
        line += f" ({absorbed} absorbés par les points temporaires)"
    line += f" : {sheet.current} → {new_current} PA."
    ctx.say(line)
    sheet = evolve(sheet, temporary=sheet.temporary - absorbed, current=new_current)
    if felt > 0 and sheet.stabilised:
        # « Si la créature subit de nouveaux dégâts, elle n'est plus considérée comme stabilisée »
        ctx.say("Les nouveaux dégâts rompent la stabilisation : les jets contre la mort reprennent.")
        sheet = evolve(sheet, stabilised=False, wake_in=None)
    # « Si ce montant est dépassé, il faut réussir un JS DD 16 de Constitution ou s'effondrer »; a monster
    # that dies (or acts out its reprieve) at 0 PA makes no save, and one hit asks for one save.
    massive = attack and felt > sheet.constitution
    if massive:
        ctx.event("massive_damage")
        ctx.say(f"Dégâts massifs ({felt} > Constitution {sheet.constitution}).")
    if new_current == 0 and not was_at_zero:
        return _fall_to_zero(sheet, rs, ctx, "chute à 0 PA et dégâts massifs" if massive else "chute à 0 PA")
    if massive and not (sheet.dies_at_zero and new_current == 0):
        if not _check(ctx, sheet, "constitution", rs.saves.constitution_dd, "JS de Constitution (dégâts massifs)"):
            sheet = _knock_out(sheet, rs, ctx, "dégâts massifs")
    return sheet


# --------------------------------------------------------------------------------------------------
# Small helpers
# --------------------------------------------------------------------------------------------------


def _find_wound(sheet: DouaratilSheet, wound_id: int) -> Wound:
    for wound in sheet.wounds:
        if wound.id == wound_id:
            return wound
    raise Refused(f"Aucune blessure n° {wound_id} sur la fiche.")


def _alive(sheet: DouaratilSheet, what: str) -> None:
    if sheet.dead:
        raise Refused(f"{name_of(sheet)} a succombé : {what} impossible.")


def _clamp_to_maxima(sheet: DouaratilSheet, rs: DouaratilRules, ctx: Context) -> DouaratilSheet:
    """After a maximum dropped: no pool above its effective maximum."""
    changes: dict[str, object] = {}
    top = effective_maximum(sheet, rs)
    if sheet.current > top:
        ctx.say(f"Points d'action ramenés au nouveau maximum : {sheet.current} → {top}.")
        changes["current"] = top
    for pool in POOLS:
        stored: Pool = getattr(sheet, pool)
        cap = pool_maximum(sheet, pool, rs)
        if stored.current > cap:
            ctx.say(f"{field_label(pool)} ramenés au nouveau maximum : {stored.current} → {cap}.")
            changes[pool] = evolve(stored, current=cap)
    if not changes:
        return sheet
    fell = "current" in changes and top == 0 and sheet.current > 0 and not sheet.dead
    sheet = evolve(sheet, **changes)
    return _fall_to_zero(sheet, rs, ctx, None) if fell else sheet


# --------------------------------------------------------------------------------------------------
# Handlers
# --------------------------------------------------------------------------------------------------


def damage(sheet: DouaratilSheet, action: Damage, ctx: Context) -> DouaratilSheet:
    rs: DouaratilRules = ctx.ruleset
    if action.nonlethal:
        raise Refused("Douaratil ne compte pas de dégâts non létaux à part.")
    for _ in range(action.hits):
        if type(action.amount) is int:  # a number as such: nothing to roll
            total = action.amount
        else:
            amount = ctx.amount(action.amount, "Dégâts")
            if not amount.given:
                ctx.say(f"Dégâts : {amount.detail}.")
            total = amount.total
        if total < 0:
            raise Refused(f"Des dégâts négatifs ({total}) n'ont pas de sens : utilisez Soins.")
        sheet = _take(sheet, total, rs, ctx, attack=True, adjacent=action.adjacent, critical=action.critical)
    return sheet


def heal(sheet: DouaratilSheet, action: Heal, ctx: Context) -> DouaratilSheet:
    rs: DouaratilRules = ctx.ruleset
    # « Une créature morte ne peut pas regagner de point d'action. »
    _alive(sheet, "regagner des points d'action")
    shown: int | str
    if isinstance(action.amount, int):  # a number as such: nothing to roll
        total = shown = action.amount
    else:
        amount = ctx.amount(action.amount, "Soins")
        total, shown = amount.total, amount.total if amount.given else amount.detail
    if total < 0:
        raise Refused(f"Des soins négatifs ({total}) n'ont pas de sens : utilisez Dégâts.")
    top = effective_maximum(sheet, rs)
    gained = max(0, min(total, top - sheet.current))
    lost = total - gained
    new_current = sheet.current + gained
    line = f"Soins {shown} : {sheet.current} → {new_current} PA"
    if lost:
        # « les points d'action surnuméraires sont perdus »
        line += f" (maximum {top} atteint, {lost} perdus)"
    ctx.say(line + ".")
    return _regain(sheet, new_current, rs, ctx, "soins")


def gain_temporary(sheet: DouaratilSheet, action: GainTemporary, ctx: Context) -> DouaratilSheet:
    _alive(sheet, "recevoir des points temporaires")
    amount = action.amount if type(action.amount) is int else ctx.amount(action.amount, "Points temporaires").total
    if amount < 0:
        raise Refused("Des points temporaires négatifs n'ont pas de sens.")
    old = sheet.temporary
    # « Ils ne peuvent pas non plus se cumuler entre eux … vous devez décider si vous conservez ceux
    #   que vous possédez déjà ou si vous les remplacez »
    if old and not action.replace:
        ctx.say(f"Points temporaires : {old} conservés, les {amount} nouveaux ne se cumulent pas et sont perdus.")
        new = old
    else:
        if old:
            ctx.say(f"Points temporaires : {old} remplacés par {amount} (jamais cumulés).")
        else:
            ctx.say(f"Points temporaires : {amount}.")
        new = amount
    if sheet.current == 0:
        ctx.say("À 0 PA, les points temporaires ne réveillent pas et ne stabilisent pas ; ils absorbent les dégâts.")
    return evolve(sheet, temporary=new)


def lose_temporary(sheet: DouaratilSheet, action: LoseTemporary, ctx: Context) -> DouaratilSheet:
    if sheet.temporary:
        ctx.say(f"Les {sheet.temporary} points temporaires prennent fin.")
    return evolve(sheet, temporary=0)


def _unknown_condition(cid: str) -> Refused:
    return Refused(f"État inconnu : « {cid} ».")


def _kept_at_zero(sheet: DouaratilSheet) -> Refused:
    return Refused(
        f"À 0 point d'action, {name_of(sheet, start=False)} reste sans connaissance : il faut d'abord regagner "
        "des points d'action (soins, ou 1 PA au bout de 1d6 heures de stabilisation)."
    )


def set_condition(sheet: DouaratilSheet, action: SetCondition, ctx: Context) -> DouaratilSheet:
    rs: DouaratilRules = ctx.ruleset
    cid = action.condition
    if cid not in rs.conditions:
        raise _unknown_condition(cid)
    label = rs.conditions[cid].label
    if action.active:
        if cid in sheet.conditions:
            # « une créature est soumise à un état ou ne l'est pas »
            ctx.say(f"{label} : déjà en place, un état ne se cumule pas avec lui-même.")
            return sheet
        _alive(sheet, "changer d'état")
        ctx.say(f"État {label} ajouté.")
        return evolve(sheet, conditions=tuple(sorted({*sheet.conditions, cid})))
    if cid not in sheet.conditions:
        implied = effective_conditions(sheet, rs).get(cid)
        if implied:
            raise Refused(f"{label} {implied} : retirez d'abord cet état.")
        ctx.say(f"{label} : n'était pas en place.")
        return sheet
    if cid == "inconscient":
        if out_at_zero(sheet, rs):
            raise _kept_at_zero(sheet)
        return _wake(sheet, rs, ctx, "état retiré")
    ctx.say(f"État {label} retiré.")
    return evolve(sheet, conditions=tuple(c for c in sheet.conditions if c != cid))


def clear_conditions(sheet: DouaratilSheet, action: ClearConditions, ctx: Context) -> DouaratilSheet:
    rs: DouaratilRules = ctx.ruleset
    for cid in action.include:
        if cid not in rs.conditions:
            raise _unknown_condition(cid)
    kept = []
    removed = []
    at_zero = out_at_zero(sheet, rs)
    for cid in sheet.conditions:
        rule = rs.conditions.get(cid)
        spared = rule is not None and rs.condition_groups[rule.group].spared_by_clear_all
        if (spared and cid not in action.include) or (cid == "inconscient" and at_zero):
            kept.append(cid)
        else:
            removed.append(cid)
    if removed:
        ctx.say("États retirés : " + ", ".join(condition_label(c, rs) for c in removed) + ".")
    elif not at_zero or "inconscient" not in kept:
        ctx.say("Aucun état à retirer.")
    spared_kept = [c for c in kept if not (c == "inconscient" and at_zero)]
    if spared_kept:
        names = ", ".join(condition_label(c, rs) for c in spared_kept)
        ctx.say(f"Conservés (non concernés sauf s'ils sont désignés) : {names}.")
    if at_zero and "inconscient" in kept:
        ctx.say(f"{condition_label('inconscient', rs)} conservé : 0 point d'action.")
    if not removed:
        return sheet
    was_unconscious = "inconscient" in removed
    sheet = evolve(sheet, conditions=tuple(kept) if not was_unconscious else tuple(sorted({*kept, "inconscient"})))
    if was_unconscious:
        sheet = _wake(sheet, rs, ctx, "états retirés")
    return sheet


def death_save(sheet: DouaratilSheet, action: DeathSave, ctx: Context) -> DouaratilSheet:
    rs: DouaratilRules = ctx.ruleset
    _alive(sheet, "jet contre la mort")
    if sheet.current > 0:
        raise Refused("Pas de jet contre la mort au-dessus de 0 point d'action.")
    if sheet.stabilised:
        raise Refused("Une personne stabilisée n'a pas besoin de faire de jet de sauvegarde contre la mort.")
    if sheet.dies_at_zero:
        raise Refused("Ce monstre suit la règle des monstres (il meurt à 0 PA), pas les jets contre la mort.")
    return death_save_roll(sheet, rs, ctx)


def death_save_roll(sheet: DouaratilSheet, rs: DouaratilRules, ctx: Context) -> DouaratilSheet:
    """« Lancez 3d6 (non explosifs). Sur un résultat de 10 ou plus, vous avez réussi. »"""
    count, sides = rs.saves.death_save_dice
    roll = ctx.dice(count, sides, "Jet contre la mort")
    penalty = exhaustion_penalty(sheet, rs) if rs.saves.exhaustion_on_death_saves else 0
    total = roll.total + penalty
    success = total >= rs.saves.death_save_success
    needed = rs.saves.death_saves_needed
    successes = sheet.death_successes + (1 if success else 0)
    failures = sheet.death_failures + (0 if success else 1)
    detail = roll.detail + (f" {signed(penalty)} (épuisement) = {fmt_int(total)}" if penalty else "")
    ctx.say(
        f"Jet contre la mort : {detail} → {'succès' if success else 'échec'} "
        f"({successes}/{needed} succès, {failures}/{needed} échecs)."
    )
    sheet = evolve(sheet, death_successes=successes, death_failures=failures)
    if failures >= needed:
        return _die(sheet, ctx, f"{needed} échecs aux jets contre la mort")
    if successes >= needed:
        ctx.say(f"{needed} succès aux jets contre la mort.")
        return _stabilise(sheet, rs, ctx)
    return sheet


def _stabilise(sheet: DouaratilSheet, rs: DouaratilRules, ctx: Context) -> DouaratilSheet:
    count, sides = rs.saves.stabilised_wake_dice
    hours = ctx.dice(count, sides, "Délai avant de regagner 1 PA").total
    line = "Stabilisation : plus de jets contre la mort"
    if "inconscient" in sheet.conditions:
        # « Une personne stabilisée … Cependant, elle reste inconsciente. »
        line += ", toujours sans connaissance"
    gain = rs.saves.stabilised_wake_gain
    ctx.say(f"{line} ; sans soins d'ici là, {plural(gain, 'point')} d'action regagné dans {plural(hours, 'heure')}.")
    ctx.event("stabilised")
    return evolve(sheet, stabilised=True, death_successes=0, death_failures=0, wake_in=hours * rs.time_units["hour"])


def stabilise(sheet: DouaratilSheet, action: Stabilise, ctx: Context) -> DouaratilSheet:
    rs: DouaratilRules = ctx.ruleset
    _alive(sheet, "stabiliser")
    if sheet.current > 0:
        raise Refused("Seule une personne à 0 point d'action peut être stabilisée.")
    if sheet.stabilised:
        raise Refused("Stabilisation déjà faite.")
    if sheet.dies_at_zero:
        raise Refused("Ce monstre suit la règle des monstres (il meurt à 0 PA) : pas de stabilisation.")
    if action.method == "first_aid":
        # « utiliser une action pour administrer les premiers soins … test de Sagesse (Médecine) DD 16 »
        count, sides = rs.saves.check_dice
        roll = ctx.dice(count, sides, "Premiers soins")
        total = roll.total + action.modifier
        ok = total >= rs.saves.first_aid_dd
        ctx.say(
            f"Premiers soins, Sagesse (Médecine) : {roll.detail} {signed(action.modifier)} = {fmt_int(total)} "
            f"contre DD {rs.saves.first_aid_dd} → {'réussite' if ok else 'échec'}."
        )
        if not ok:
            return sheet
    elif action.method not in ("magic", "other"):
        raise Refused(f"Méthode de stabilisation inconnue : « {action.method} » (premiers soins ou magie).")
    return _stabilise(sheet, rs, ctx)


def wake_save(sheet: DouaratilSheet, action: WakeSave, ctx: Context) -> DouaratilSheet:
    rs: DouaratilRules = ctx.ruleset
    _alive(sheet, "se réveiller")
    if "inconscient" not in sheet.conditions:
        raise Refused(f"{name_of(sheet)} n'est pas sans connaissance.")
    if out_at_zero(sheet, rs):
        raise _kept_at_zero(sheet)
    return wake_attempt(sheet, rs, ctx)


def wake_attempt(sheet: DouaratilSheet, rs: DouaratilRules, ctx: Context) -> DouaratilSheet:
    # « Chaque round, la personne inconsciente peut essayer de réussir le JS DD 16 de Constitution et se
    #   réveiller. Elle pourra agir immédiatement. »
    if _check(ctx, sheet, "constitution", rs.saves.constitution_dd, "JS de Constitution pour se réveiller"):
        return _wake(sheet, rs, ctx, "JS réussi")
    return sheet


def set_exhaustion(sheet: DouaratilSheet, action: SetExhaustion, ctx: Context) -> DouaratilSheet:
    return exhaustion_to(sheet, action.level, ctx)


def add_exhaustion(sheet: DouaratilSheet, action: AddExhaustion, ctx: Context) -> DouaratilSheet:
    # « son niveau d'épuisement actuel augmente du montant indiqué dans la description de l'effet »
    return exhaustion_to(sheet, sheet.exhaustion + action.levels, ctx)


def exhaustion_to(sheet: DouaratilSheet, level: int, ctx: Context) -> DouaratilSheet:
    rs: DouaratilRules = ctx.ruleset
    top = rs.exhaustion.max_level
    if level > top:
        ctx.say(f"L'épuisement ne dépasse pas le niveau {top}.")
        level = top
    if level < 1:
        # « Tous les effets d'épuisement se terminent si le niveau … est réduit à moins de 1. »
        level = 0
    if level == sheet.exhaustion:
        ctx.say(f"Épuisement inchangé (niveau {level}).")
        return sheet
    if level == 0:
        ctx.say("L'épuisement prend fin.")
    else:
        ctx.say(
            f"Épuisement : niveau {sheet.exhaustion} → {level} "
            f"(malus {signed(-level * rs.exhaustion.roll_penalty_per_level)} à tous les jets et aux maxima)."
        )
    return _clamp_to_maxima(evolve(sheet, exhaustion=level), rs, ctx)


def action_die(sheet: DouaratilSheet, rs: DouaratilRules, ctx: Context) -> DouaratilSheet:
    """« Pour chaque dé d'action ainsi utilisé, le joueur lance un dé et ajoute à son résultat le
    modificateur de Constitution »."""
    available = sheet.level - sheet.action_dice_spent
    if available <= 0:
        raise Refused("Plus aucun dé d'action dans la réserve.")
    roll = ctx.dice(1, sheet.action_die, "Dé d'action")
    mod = ability_modifier(sheet.constitution, rs)
    penalty = exhaustion_penalty(sheet, rs)
    total = max(0, roll.total + mod + penalty)
    top = effective_maximum(sheet, rs)
    gained = max(0, min(total, top - sheet.current))
    detail = f"{roll.detail} {signed(mod)} (CON)" + (f" {signed(penalty)} (épuisement)" if penalty else "")
    line = f"Dé d'action : {detail} = {total} → {sheet.current} → {sheet.current + gained} PA"
    if gained < total:
        line += f" (maximum {top}, {total - gained} perdus)"
    ctx.say(line + f" ; {plural(available - 1, 'dé restant', 'dés restants')}.")
    sheet = evolve(sheet, action_dice_spent=sheet.action_dice_spent + 1)
    return _regain(sheet, sheet.current + gained, rs, ctx, "dé d'action")


def add_wound(sheet: DouaratilSheet, action: AddWound, ctx: Context) -> DouaratilSheet:
    rs: DouaratilRules = ctx.ruleset
    if action.wound_type not in rs.wounds:
        known = ", ".join(w.label for w in rs.wounds.values())
        raise Refused(f"Type de blessure inconnu : « {action.wound_type} » (attendu : {known}).")
    _alive(sheet, "recevoir une blessure")
    rule = rs.wounds[action.wound_type]
    if action.bleeding and rule.bleeding_dice is None:
        raise Refused(f"Une blessure de type {rule.label} ne saigne pas.")
    if len(sheet.wounds) >= 200:
        raise Refused("Une fiche ne tient pas plus de 200 blessures.")
    next_id = max((w.id for w in sheet.wounds), default=0) + 1
    wound = Wound(
        id=next_id, type=action.wound_type, severity=action.severity, bleeding=action.bleeding, note=action.note
    )
    ctx.say(
        f"Blessure {wound_label(wound, rs)} : {rule.limitation} ; test de guérison après "
        f"{plural(rule.days, 'repos long', 'repos longs')} ; test de volonté (SAG) DD {rule.will_dd}."
    )
    if action.bleeding:
        ctx.event("bleeding")
    return evolve(sheet, wounds=(*sheet.wounds, wound))


def wound_risk(sheet: DouaratilSheet, action: WoundRisk, ctx: Context) -> DouaratilSheet:
    """« risque d'ouverture de la plaie avec saignement (1d6/rd) (JS CON DD 16) » and the fracture's
    « risque d'aggravation »."""
    rs: DouaratilRules = ctx.ruleset
    _alive(sheet, "risquer sa blessure")
    wound = _find_wound(sheet, action.wound_id)
    rule = rs.wounds.get(wound.type)
    label = wound_label(wound, rs)
    if rule is not None and rule.bleeding_dice is not None and rule.reopen_dd is not None:
        if wound.bleeding:
            raise Refused(f"{label} saigne déjà.")
        if _check(ctx, sheet, "constitution", rule.reopen_dd, f"JS de Constitution, {label}"):
            return sheet
        count, sides = rule.bleeding_dice
        ctx.say(f"{label} s'ouvre : saignement de {count}d{sides} par round.")
        ctx.event("bleeding")
        return _replace_wound(sheet, evolve(wound, bleeding=True))
    if rule is not None and rule.aggravation_dd is not None:
        if _check(ctx, sheet, "constitution", rule.aggravation_dd, f"JS de Constitution, {label}"):
            return sheet
        if wound.severity != "major":
            worse = evolve(wound, severity="major")
            ctx.say(f"{label} s'aggrave : {wound_label(worse, rs)}.")
        else:
            worse = evolve(wound, rests=0)
            ctx.say(
                f"{label} s'aggrave : la guérison recommence "
                f"({plural(rule.days, 'repos long', 'repos longs')} avant le test)."
            )
        ctx.event("wound_worse")
        return _replace_wound(sheet, worse)
    raise Refused(f"Une blessure {label} ne risque ni de s'ouvrir ni de s'aggraver.")


def _replace_wound(sheet: DouaratilSheet, wound: Wound) -> DouaratilSheet:
    return evolve(sheet, wounds=tuple(wound if w.id == wound.id else w for w in sheet.wounds))


def set_wound_bleeding(sheet: DouaratilSheet, action: SetWoundBleeding, ctx: Context) -> DouaratilSheet:
    rs: DouaratilRules = ctx.ruleset
    wound = _find_wound(sheet, action.wound_id)
    rule = rs.wounds.get(wound.type)
    if action.bleeding and (rule is None or rule.bleeding_dice is None):
        raise Refused(f"Une blessure {wound_label(wound, rs)} ne saigne pas.")
    ctx.say(f"{wound_label(wound, rs)} : {'saigne' if action.bleeding else 'ne saigne plus'}.")
    if action.bleeding and not wound.bleeding:
        ctx.event("bleeding")
    return _replace_wound(sheet, evolve(wound, bleeding=action.bleeding))


def heal_wound(sheet: DouaratilSheet, action: HealWound, ctx: Context) -> DouaratilSheet:
    rs: DouaratilRules = ctx.ruleset
    _alive(sheet, "guérir")
    wound = _find_wound(sheet, action.wound_id)
    wounds = tuple(w for w in sheet.wounds if w.id != wound.id)
    scars = sheet.scars
    line = f"{wound_label(wound, rs)} guérie"
    if action.scar and len(scars) < 200:
        scars = (*scars, Scar(type=wound.type, severity=wound.severity, note=wound.note))
        line += " ; il en reste une cicatrice"
    ctx.say(line + ".")
    return evolve(sheet, wounds=wounds, scars=scars)


def remove_wound(sheet: DouaratilSheet, action: RemoveWound, ctx: Context) -> DouaratilSheet:
    rs: DouaratilRules = ctx.ruleset
    wound = _find_wound(sheet, action.wound_id)
    ctx.say(f"{wound_label(wound, rs)} retirée de la fiche.")
    return evolve(sheet, wounds=tuple(w for w in sheet.wounds if w.id != wound.id))


def ability_check(sheet: DouaratilSheet, action: AbilityCheck, ctx: Context) -> DouaratilSheet:
    """A characteristic test with the wound DD steps and the exhaustion malus, or a save (malus only)."""
    rs: DouaratilRules = ctx.ruleset
    _alive(sheet, "faire un test")
    label = ABILITY_LABELS[action.ability]
    effective = effective_conditions(sheet, rs)
    if action.save:
        fails = [
            rs.conditions[c].label
            for c in effective
            if c in rs.conditions and action.ability in rs.conditions[c].auto_fail_saves
        ]
        if fails:
            ctx.say(f"JS {_of(label)} raté automatiquement ({', '.join(fails)}).")
            return sheet
        _check(ctx, sheet, action.ability, action.dd, f"JS {_of(label)}", action.bonus)
        return sheet
    # « Une blessure mineure augmente le DD de tout test de caractéristique la difficulté d'un degré »
    steps = dd_steps(sheet, rs)
    dd = action.dd + steps * rs.difficulty.step
    # « par exemple un test moyen (DD 16) se transforme en test difficile (DD 22) »
    names = rs.difficulty.labels
    parts = [names[action.dd]] if action.dd in names else []
    if steps:
        raised = f"DD {action.dd} + {steps * rs.difficulty.step} : {plural(steps, 'palier')} des blessures"
        parts.append(raised + (f" → {names[dd]}" if dd in names else ""))
    what = f"Test {_of(label)}" + (f" ({', '.join(parts)})" if parts else "")
    moded = [c for c in effective if c in rs.conditions and rs.conditions[c].checks]
    if moded:
        modes = sorted({str(rs.conditions[c].checks) for c in moded})
        given = " et ".join("un désavantage" if m == "desavantage" else "un avantage" for m in modes)
        why = ", ".join(rs.conditions[c].label for c in moded)
        ctx.say(f"Les états donnent {given} à ce test ({why}) : au meneur de l'appliquer.")
    _check(ctx, sheet, action.ability, dd, what, action.bonus)
    return sheet


def will_test(sheet: DouaratilSheet, action: WillTest, ctx: Context) -> DouaratilSheet:
    """The wound table's « test de volonté(SAG) » column: a Wisdom test against the wound's DD."""
    rs: DouaratilRules = ctx.ruleset
    _alive(sheet, "faire un test")
    wound = _find_wound(sheet, action.wound_id)
    rule = rs.wounds[wound.type]
    dd = rule.will_dd
    what = f"Test de volonté (SAG), {wound_label(wound, rs)}"
    if rs.difficulty.will_test_steps:
        extra = dd_steps(sheet, rs) * rs.difficulty.step
        if extra:
            dd += extra
            what += f" (DD {rule.will_dd} + {extra} des blessures)"
    if not _check(ctx, sheet, "wisdom", dd, what, action.bonus):
        ctx.say("Échec : le meneur décide de ce que la douleur empêche.")
    return sheet


def _of(label: str) -> str:
    return f"d'{label}" if label[:1].lower() in "aeiouyhéèêàâîôû" else f"de {label}"


def heroic_survival(sheet: DouaratilSheet, action: HeroicSurvival, ctx: Context) -> DouaratilSheet:
    rs: DouaratilRules = ctx.ruleset
    rule = rs.heroic_death
    if not sheet.dead:
        raise Refused("La survie héroïque s'applique après la mort du personnage selon les règles.")
    if sheet.is_npc:
        raise Refused("La survie héroïque est réservée aux héros des joueurs.")
    if sheet.level <= 1:
        raise Refused("Un personnage de niveau 1 n'a pas de niveau à perdre : la mort reste la mort.")
    lost_level = sheet.level
    points = rule.even_level_points if lost_level % 2 == 0 else rule.odd_level_points
    constitution = max(0, sheet.constitution - points)
    level = lost_level - 1
    ctx.say(f"Survie héroïque : {name_of(sheet, start=False)} perd le niveau {lost_level} (niveau {level}).")
    ctx.say(f"Constitution : {sheet.constitution} → {constitution} ({plural(points, 'point')} du niveau perdu).")
    base_max = max(0, sheet.base_maximum - action.action_points_lost)
    changes: dict[str, object] = {
        "level": level,
        "constitution": constitution,
        "base_maximum": base_max,
        "current": 0,
        "temporary": 0,
        "dead": False,
        "stabilised": False,
        "death_successes": 0,
        "death_failures": 0,
        "unconscious_rounds": 0,
        "action_dice_spent": min(sheet.action_dice_spent, level),
        "heroic_survivals": min(1000, sheet.heroic_survivals + 1),
        "xp": min(sheet.xp, action.xp_minimum),
        "constitution_priority": constitution < rule.constitution_floor,
        "conditions": tuple(sorted({*sheet.conditions, "inconscient"})),
    }
    ctx.say(f"PA maximum : {sheet.base_maximum} → {base_max}.")
    for pool, lost in (("magic", action.magic_lost), ("faith", action.faith_lost), ("honour", action.honour_lost)):
        stored: Pool = getattr(sheet, pool)
        if lost:
            new_max = max(0, stored.base_maximum - lost)
            changes[pool] = Pool(current=min(stored.current, new_max), base_maximum=new_max)
            ctx.say(f"{field_label(pool)}, maximum : {stored.base_maximum} → {new_max}.")
    ctx.say(f"Points d'expérience ramenés au minimum du niveau {level} : {sheet.xp} → {changes['xp']}.")
    ctx.say("Les capacités liées au niveau perdu disparaissent (à rayer de la fiche).")
    if constitution < rule.constitution_floor:
        ctx.say(
            f"Constitution sous {rule.constitution_floor} : les prochains points de caractéristique "
            f"iront en Constitution jusqu'à ce qu'elle revienne à {rule.constitution_floor}."
        )
    ctx.say("Blessure très grave : sans connaissance à 0 point d'action.")
    ctx.event("heroic_survival")
    sheet = _clamp_to_maxima(evolve(sheet, **changes), rs, ctx)
    return _stabilise(sheet, rs, ctx)


# --------------------------------------------------------------------------------------------------
# Edits: the same bounds and consequences as actions
# --------------------------------------------------------------------------------------------------


def prepare_edit(old: DouaratilSheet, data: dict[str, Any]) -> dict[str, Any]:
    """What an edit implies, applied to the merged fields before they are validated (journaled by
    ``after_edit``): a death ends the timers; PA regained end the death saves; a lower level returns
    the dice spent beyond it; waking by hand ends the rounds of unconsciousness."""
    if data.get("dead") is True and not old.dead:
        data.update(stabilised=False, wake_in=None, death_in_rounds=None, unconscious_rounds=0, short_rest_open=False)
    elif data.get("dead") is False and old.dead:
        data.update(death_successes=0, death_failures=0)
    current = data.get("current")
    if type(current) is int and current > 0 and old.current == 0:
        data.update(death_successes=0, death_failures=0, stabilised=False, wake_in=None, death_in_rounds=None)
    conditions = data.get("conditions")
    if isinstance(conditions, (list, tuple)) and "inconscient" not in conditions and "inconscient" in old.conditions:
        data["unconscious_rounds"] = 0
    return data


def after_edit(old: DouaratilSheet, new: DouaratilSheet, rs: DouaratilRules, ctx: Context) -> DouaratilSheet:
    """The consequences of an edit, journaled as an action would: lowered maxima, a death, PA regained
    or lost, the end of the Constitution priority; then the sheet is checked as on load."""
    sheet = _clamp_to_maxima(new, rs, ctx)
    if sheet.short_rest_open and old.short_rest_open:
        sheet = evolve(sheet, short_rest_open=False)
    if sheet.action_dice_spent > sheet.level and sheet.level < old.level:
        ctx.say(f"Dés d'action dépensés ramenés au niveau : {sheet.action_dice_spent} → {sheet.level}.")
        sheet = evolve(sheet, action_dice_spent=sheet.level)
    floor = rs.heroic_death.constitution_floor
    if sheet.constitution_priority and sheet.constitution >= floor and old.constitution_priority:
        # « … jusqu'à ce qu'elle revienne à 10 »
        ctx.say(f"Constitution revenue à {floor} : les points de caractéristique vont de nouveau où l'on veut.")
        sheet = evolve(sheet, constitution_priority=False)
    if sheet.dead and not old.dead:
        ctx.say(f"{name_of(sheet)} meurt (décès noté sur la fiche).")
        ctx.event("died")
    elif old.dead and not sheet.dead:
        ctx.say(f"{name_of(sheet)} revient à la vie (décès retiré de la fiche).")
    if not sheet.dead:
        if old.current == 0 and sheet.current > 0:
            if old.death_successes or old.death_failures:
                ctx.say("Jets contre la mort remis à 0.")
            if old.stabilised:
                ctx.say("Stabilisation terminée : des points d'action regagnés.")
            if "inconscient" in sheet.conditions and not sheet.unconscious_rounds and out_at_zero(old, rs):
                sheet = _wake(sheet, rs, ctx, "points d'action regagnés")
        elif old.current > 0 and new.current == 0:
            sheet = _fall_to_zero(sheet, rs, ctx, None)  # edited to 0 (a clamp to 0 has fallen already)
        if out_at_zero(sheet, rs) and "inconscient" not in sheet.conditions:
            if "inconscient" in old.conditions:
                raise _kept_at_zero(sheet)
            sheet = _lose_consciousness(
                sheet, ctx, f"À 0 point d'action, {name_of(sheet, start=False)} est sans connaissance."
            )
    problems = sheet_problems(sheet, rs)
    if problems:
        raise Refused("Valeur refusée : " + " ; ".join(problems))
    return sheet


def edit_line(key: str, before: Any, after: Any, rs: DouaratilRules) -> str:
    """« Seuil de critique (SC) : aucun → 8. »: an edited field with the sheet's label and values."""
    return f"{field_label(key)} : {show_value(key, before, rs)} → {show_value(key, after, rs)}."


def show_value(key: str, value: Any, rs: DouaratilRules) -> str:
    """A stored value as the sheet shows it (labels, never ids)."""
    if value is None:
        return "aucun"
    if isinstance(value, bool):
        return "oui" if value else "non"
    if key in ("clock", "wake_in", "last_long_rest_end") and isinstance(value, int):
        return fmt_duration(value)
    if isinstance(value, int):
        return fmt_int(value)
    if key == "path":
        return f"« {rs.paths.get(value, value)} »"
    if isinstance(value, str):
        return f"« {value} »" if value else "(vide)"
    if isinstance(value, Pool):
        return f"{value.current} sur {value.base_maximum}"
    if key == "conditions":
        return ", ".join(condition_label(c, rs) for c in value) or "aucun"
    if key in ("wounds", "scars"):
        return ", ".join(wound_label(w, rs) for w in value) or "aucune"
    return str(value)


# A short rest stays open for spending dice one at a time only until something else happens (``finishing``
# closes it after any other action, ``after_edit`` after an edit).
_KEEP_REST_OPEN = (ShortRest, SpendActionDie)


# Events that describe a state: kept only when the sheet ends the action in that state (issue 10, item 8:
# no « stabilisé » notice when a bleed broke the stabilisation in the same step).
_STATE_EVENTS: dict[str, Callable[[DouaratilSheet], bool]] = {
    "stabilised": lambda s: s.stabilised,
    "unconscious": lambda s: "inconscient" in s.conditions and not s.dead,
    "fell": lambda s: s.current == 0 and not s.dead,
}


def finishing(handler: Handler) -> Handler:
    """``handler`` whose outcome describes the final state (``finish``)."""

    def run(sheet: DouaratilSheet, action: Any, ctx: Context) -> DouaratilSheet:
        new = handler(sheet, action, ctx)
        if new.short_rest_open and not isinstance(action, _KEEP_REST_OPEN):
            new = evolve(new, short_rest_open=False)
        if new.current and not ctx.events:  # the common case: nothing to check
            return new
        return finish(new, ctx)

    run.__name__ = run.__qualname__ = handler.__name__
    run.__doc__ = handler.__doc__
    return run


def finish(sheet: DouaratilSheet, ctx: Context) -> DouaratilSheet:
    """The end of every action: the 0-PA unconsciousness holds (a sheet saved by an older version may lack
    it), and the events name only what is still true."""
    rs: DouaratilRules = ctx.ruleset
    if sheet.current == 0 and "inconscient" not in sheet.conditions and out_at_zero(sheet, rs):
        sheet = _lose_consciousness(
            sheet, ctx, f"À 0 point d'action, {name_of(sheet, start=False)} est sans connaissance."
        )
    if ctx.events:
        ctx.events = [e for e in ctx.events if e not in _STATE_EVENTS or _STATE_EVENTS[e](sheet)]
    return sheet
