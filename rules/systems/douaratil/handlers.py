"""Douaratil handlers: damage, healing, temporary PA, states, dying, exhaustion, wounds, edits."""

from __future__ import annotations

from typing import Any

from rules.actions import (
    Action,
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
from rules.model import (
    Context,
    evolve,
    plural,
    signed,
)
from rules.systems.douaratil.actions import (
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
    WoundRisk,
)
from rules.systems.douaratil.sheet import (
    DouaratilSheet,
    Pool,
    Scar,
    Wound,
    ability_modifier,
    condition_label,
    effective_conditions,
    effective_maximum,
    exhaustion_penalty,
    pool_maximum,
)
from rules.systems.douaratil.table import POOLS, DouaratilRules


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
    ctx.say(f"{what} : {parts} = {total} contre DD {dd} → {'réussite' if success else 'échec'}.")
    return success


def _wake(sheet: DouaratilSheet, rs: DouaratilRules, ctx: Context, why: str) -> DouaratilSheet:
    """Leaving Inconscient: « Si la créature reprend conscience, elle est à terre. »"""
    if "inconscient" not in sheet.conditions:
        return evolve(sheet, unconscious_rounds=0)
    conditions = set(sheet.conditions) - {"inconscient"}
    added = [c for c in rs.conditions["inconscient"].on_end_adds if c not in conditions]
    conditions.update(added)
    line = f"{sheet.name or 'La créature'} reprend conscience ({why})"
    if added:
        line += " et se retrouve " + ", ".join(condition_label(c, rs).lower() for c in added)
    ctx.say(line + ".")
    return evolve(sheet, conditions=tuple(sorted(conditions)), unconscious_rounds=0)


def _knock_out(sheet: DouaratilSheet, rs: DouaratilRules, ctx: Context, why: str) -> DouaratilSheet:
    count, sides = rs.saves.unconscious_dice
    rounds = ctx.dice(count, sides, "Durée de l'inconscience").total
    ctx.say(f"Inconscient pour {plural(rounds, 'round')} ({why}) : {count}d{sides} = {rounds}.")
    ctx.event("unconscious")
    conditions = tuple(sorted({*sheet.conditions, "inconscient"}))
    return evolve(sheet, conditions=conditions, unconscious_rounds=max(sheet.unconscious_rounds, rounds))


def _die(sheet: DouaratilSheet, ctx: Context, why: str) -> DouaratilSheet:
    ctx.say(f"{sheet.name or 'La créature'} meurt ({why}).")
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


def _reach_zero(sheet: DouaratilSheet, rs: DouaratilRules, ctx: Context) -> DouaratilSheet:
    """The creature has just fallen to 0 PA."""
    ctx.event("fell")
    if sheet.dies_at_zero:
        if sheet.dies_after_rounds:
            count, sides = rs.saves.npc_death_dice
            rounds = ctx.dice(count, sides, "Sursis du monstre").total
            ctx.say(f"À 0 PA, le monstre agit encore librement {plural(rounds, 'round')} puis succombe.")
            return evolve(sheet, death_in_rounds=rounds)
        return _die(sheet, ctx, "monstre à 0 point d'action")
    ctx.say("À 0 point d'action : jets de sauvegarde contre la mort au début de chaque tour.")
    # « vous êtes inconscient … pour 1d6 rounds à moins de réussir un JS DD 16 de Constitution »
    if not _check(ctx, sheet, "constitution", rs.saves.constitution_dd, "JS de Constitution (chute à 0 PA)"):
        sheet = _knock_out(sheet, rs, ctx, "chute à 0 PA")
    return sheet


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
        ctx.say(f"{name} est déjà mort : {amount} dégâts sans effet.")
        return sheet
    effective = effective_conditions(sheet, rs)  # {} without conditions: the common case stays cheap
    if effective and amount > 0 and any(rs.conditions[c].resists_all_damage for c in effective if c in rs.conditions):
        halved = amount // 2
        ctx.say(f"Résistant à tous les dégâts (pétrifié) : {amount} → {halved}.")
        amount = halved
    was_at_zero = sheet.current == 0
    if attack:
        reasons = []
        if critical:
            reasons.append("trois 6 à l'attaque")
        if was_at_zero and amount > 0:
            reasons.append("dégâts reçus sans point d'action")
        if sheet.critical_threshold is not None and amount > sheet.critical_threshold:
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
    absorbed = min(sheet.temporary, amount)
    rest = amount - absorbed
    new_current = max(0, sheet.current - rest)
    line = f"{name} subit {amount} dégâts"
    if absorbed:
        line += f" ({absorbed} absorbés par les points temporaires)"
    line += f" : {sheet.current} → {new_current} PA."
    ctx.say(line)
    sheet = evolve(sheet, temporary=sheet.temporary - absorbed, current=new_current)
    if rest > 0 and sheet.stabilised:
        # « Si la créature subit de nouveaux dégâts, elle n'est plus considérée comme stabilisée »
        ctx.say("Les nouveaux dégâts rompent la stabilisation : les jets contre la mort reprennent.")
        sheet = evolve(sheet, stabilised=False, wake_in=None)
    if attack and amount > sheet.constitution and not sheet.dead:
        # « Si ce montant est dépassé, il faut réussir un JS DD 16 de Constitution ou s'effondrer »
        ctx.event("massive_damage")
        ctx.say(f"Dégâts massifs ({amount} > Constitution {sheet.constitution}).")
        if not _check(ctx, sheet, "constitution", rs.saves.constitution_dd, "JS de Constitution (dégâts massifs)"):
            sheet = _knock_out(sheet, rs, ctx, "dégâts massifs")
    if new_current == 0 and not was_at_zero:
        sheet = _reach_zero(sheet, rs, ctx)
    return sheet


def _find_wound(sheet: DouaratilSheet, wound_id: int) -> Wound:
    for wound in sheet.wounds:
        if wound.id == wound_id:
            return wound
    raise Refused(f"Aucune blessure n° {wound_id} sur la fiche.")


def _wound_label(wound: Wound | Scar, rs: DouaratilRules) -> str:
    kind = rs.wounds[wound.type].label if wound.type in rs.wounds else wound.type
    return f"{kind} ({rs.severities[wound.severity].label})"


def _alive(sheet: DouaratilSheet, what: str) -> None:
    if sheet.dead:
        raise Refused(f"{sheet.name or 'La créature'} est mort : {what} impossible.")


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
            ctx.say(f"{rs.rests.pools[pool].label} ramenés au nouveau maximum : {stored.current} → {cap}.")
            changes[pool] = evolve(stored, current=cap)
    return evolve(sheet, **changes) if changes else sheet


def damage(sheet: DouaratilSheet, action: Damage, ctx: Context) -> DouaratilSheet:
    rs: DouaratilRules = ctx.ruleset
    if action.nonlethal:
        raise Refused("Douaratil ne compte pas de dégâts non létaux à part.")
    for _ in range(action.hits):
        amount = ctx.amount(action.amount, "Dégâts")
        if not amount.given:
            ctx.say(f"Dégâts : {amount.detail}.")
        if amount.total < 0:
            raise Refused(f"Des dégâts négatifs ({amount.total}) n'ont pas de sens : utilisez Soins.")
        sheet = _take(sheet, amount.total, rs, ctx, attack=True, adjacent=action.adjacent, critical=action.critical)
    return sheet


def heal(sheet: DouaratilSheet, action: Heal, ctx: Context) -> DouaratilSheet:
    rs: DouaratilRules = ctx.ruleset
    # « Une créature morte ne peut pas regagner de point d'action. »
    _alive(sheet, "regagner des points d'action")
    amount = ctx.amount(action.amount, "Soins")
    if amount.total < 0:
        raise Refused(f"Des soins négatifs ({amount.total}) n'ont pas de sens : utilisez Dégâts.")
    top = effective_maximum(sheet, rs)
    gained = max(0, min(amount.total, top - sheet.current))
    lost = amount.total - gained
    new_current = sheet.current + gained
    line = f"Soins {amount.detail if not amount.given else amount.total} : {sheet.current} → {new_current} PA"
    if lost:
        # « les points d'action surnuméraires sont perdus »
        line += f" (maximum {top} atteint, {lost} perdus)"
    ctx.say(line + ".")
    was_at_zero = sheet.current == 0
    sheet = evolve(sheet, current=new_current)
    if was_at_zero and new_current > 0:
        # « Ce compteur est remis à 0 dès que vous regagnez des points d'action pour être au dessus de zéro »
        sheet = evolve(sheet, death_successes=0, death_failures=0, stabilised=False, wake_in=None, death_in_rounds=None)
        sheet = _wake(sheet, rs, ctx, "soigné")
    return sheet


def gain_temporary(sheet: DouaratilSheet, action: GainTemporary, ctx: Context) -> DouaratilSheet:
    _alive(sheet, "recevoir des points temporaires")
    amount = ctx.amount(action.amount, "Points temporaires").total
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


def set_condition(sheet: DouaratilSheet, action: SetCondition, ctx: Context) -> DouaratilSheet:
    rs: DouaratilRules = ctx.ruleset
    cid = action.condition
    if cid not in rs.conditions:
        raise Refused(f"État inconnu : « {cid} ».")
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
        return _wake(sheet, rs, ctx, "état retiré")
    ctx.say(f"État {label} retiré.")
    return evolve(sheet, conditions=tuple(c for c in sheet.conditions if c != cid))


def clear_conditions(sheet: DouaratilSheet, action: ClearConditions, ctx: Context) -> DouaratilSheet:
    rs: DouaratilRules = ctx.ruleset
    for cid in action.include:
        if cid not in rs.conditions:
            raise Refused(f"État inconnu : « {cid} ».")
    kept = []
    removed = []
    for cid in sheet.conditions:
        rule = rs.conditions.get(cid)
        spared = rule is not None and rs.condition_groups[rule.group].spared_by_clear_all
        if spared and cid not in action.include:
            kept.append(cid)
        else:
            removed.append(cid)
    if not removed:
        ctx.say("Aucun état à retirer.")
        return sheet
    ctx.say("États retirés : " + ", ".join(condition_label(c, rs) for c in removed) + ".")
    if kept:
        names = ", ".join(condition_label(c, rs) for c in kept)
        ctx.say(f"Conservés (non concernés sauf s'ils sont désignés) : {names}.")
    was_unconscious = "inconscient" in removed
    sheet = evolve(sheet, conditions=tuple(kept) if not was_unconscious else (*kept, "inconscient"))
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
    return _death_save(sheet, rs, ctx)


def _death_save(sheet: DouaratilSheet, rs: DouaratilRules, ctx: Context) -> DouaratilSheet:
    count, sides = rs.saves.death_save_dice
    roll = ctx.dice(count, sides, "Jet contre la mort")
    penalty = exhaustion_penalty(sheet, rs) if rs.saves.exhaustion_on_death_saves else 0
    total = roll.total + penalty
    success = total >= rs.saves.death_save_success
    needed = rs.saves.death_saves_needed
    successes = sheet.death_successes + (1 if success else 0)
    failures = sheet.death_failures + (0 if success else 1)
    detail = roll.detail + (f" {signed(penalty)} (épuisement) = {total}" if penalty else "")
    ctx.say(
        f"Jet contre la mort : {detail} → {'succès' if success else 'échec'} "
        f"({successes}/{needed} succès, {failures}/{needed} échecs)."
    )
    sheet = evolve(sheet, death_successes=successes, death_failures=failures)
    if failures >= needed:
        return _die(sheet, ctx, f"{needed} échecs aux jets contre la mort")
    if successes >= needed:
        ctx.say(f"{needed} succès : stabilisé.")
        return _stabilise(sheet, rs, ctx)
    return sheet


def _stabilise(sheet: DouaratilSheet, rs: DouaratilRules, ctx: Context) -> DouaratilSheet:
    count, sides = rs.saves.stabilised_wake_dice
    hours = ctx.dice(count, sides, "Délai avant de regagner 1 PA").total
    ctx.say(
        f"Stabilisé : plus de jets contre la mort ; reste inconscient ; regagnera "
        f"{rs.saves.stabilised_wake_gain} PA dans {plural(hours, 'heure')} s'il n'est pas soigné."
    )
    ctx.event("stabilised")
    sheet = evolve(
        sheet,
        stabilised=True,
        death_successes=0,
        death_failures=0,
        wake_in=hours * rs.time_units["hour"],
    )
    return sheet


def stabilise(sheet: DouaratilSheet, action: Stabilise, ctx: Context) -> DouaratilSheet:
    rs: DouaratilRules = ctx.ruleset
    _alive(sheet, "stabiliser")
    if sheet.current > 0:
        raise Refused("Seule une personne à 0 point d'action peut être stabilisée.")
    if sheet.stabilised:
        raise Refused("Déjà stabilisé.")
    if action.method == "first_aid":
        # « utiliser une action pour administrer les premiers soins … test de Sagesse (Médecine) DD 16 »
        count, sides = rs.saves.check_dice
        roll = ctx.dice(count, sides, "Premiers soins")
        total = roll.total + action.modifier
        ok = total >= rs.saves.first_aid_dd
        ctx.say(
            f"Premiers soins, Sagesse (Médecine) : {roll.detail} {signed(action.modifier)} = {total} "
            f"contre DD {rs.saves.first_aid_dd} → {'réussite' if ok else 'échec'}."
        )
        if not ok:
            return sheet
    elif action.method not in ("magic", "other"):
        raise Refused(f"Méthode de stabilisation inconnue : « {action.method} ».")
    return _stabilise(sheet, rs, ctx)


def wake_save(sheet: DouaratilSheet, action: WakeSave, ctx: Context) -> DouaratilSheet:
    rs: DouaratilRules = ctx.ruleset
    _alive(sheet, "se réveiller")
    if "inconscient" not in sheet.conditions:
        raise Refused("La créature n'est pas inconsciente.")
    return _wake_attempt(sheet, rs, ctx)


def _wake_attempt(sheet: DouaratilSheet, rs: DouaratilRules, ctx: Context) -> DouaratilSheet:
    # « Chaque round, la personne inconsciente peut essayer de réussir le JS DD 16 de Constitution et se
    #   réveiller. Elle pourra agir immédiatement. »
    if _check(ctx, sheet, "constitution", rs.saves.constitution_dd, "JS de Constitution pour se réveiller"):
        return _wake(sheet, rs, ctx, "JS réussi")
    return sheet


def set_exhaustion(sheet: DouaratilSheet, action: SetExhaustion, ctx: Context) -> DouaratilSheet:
    return _exhaustion_to(sheet, action.level, ctx)


def add_exhaustion(sheet: DouaratilSheet, action: AddExhaustion, ctx: Context) -> DouaratilSheet:
    # « son niveau d'épuisement actuel augmente du montant indiqué dans la description de l'effet »
    return _exhaustion_to(sheet, sheet.exhaustion + action.levels, ctx)


def _exhaustion_to(sheet: DouaratilSheet, level: int, ctx: Context) -> DouaratilSheet:
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
    sheet = evolve(sheet, exhaustion=level)
    return _clamp_to_maxima(sheet, rs, ctx)


def _action_die(sheet: DouaratilSheet, rs: DouaratilRules, ctx: Context) -> DouaratilSheet:
    available = sheet.level - sheet.action_dice_spent
    if available <= 0:
        raise Refused("Plus aucun dé d'action dans la réserve.")
    roll = ctx.dice(1, sheet.action_die, "Dé d'action")
    mod = ability_modifier(sheet.constitution, rs)
    penalty = exhaustion_penalty(sheet, rs)
    total = max(0, roll.total + mod + penalty)
    top = effective_maximum(sheet, rs)
    gained = min(total, top - sheet.current)
    detail = f"{roll.detail} {signed(mod)} (CON)" + (f" {signed(penalty)} (épuisement)" if penalty else "")
    line = f"Dé d'action : {detail} = {total} → {sheet.current} → {sheet.current + gained} PA"
    if gained < total:
        line += f" (maximum {top}, {total - gained} perdus)"
    ctx.say(line + f" ; {available - 1} dé(s) restant(s).")
    return evolve(sheet, current=sheet.current + gained, action_dice_spent=sheet.action_dice_spent + 1)


def add_wound(sheet: DouaratilSheet, action: AddWound, ctx: Context) -> DouaratilSheet:
    rs: DouaratilRules = ctx.ruleset
    if action.wound_type not in rs.wounds:
        known = ", ".join(rs.wounds)
        raise Refused(f"Type de blessure inconnu : « {action.wound_type} » (attendu : {known}).")
    _alive(sheet, "recevoir une blessure")
    rule = rs.wounds[action.wound_type]
    if action.bleeding and rule.bleeding_dice is None:
        raise Refused(f"Une blessure de type {rule.label} ne saigne pas.")
    next_id = max((w.id for w in sheet.wounds), default=0) + 1
    wound = Wound(
        id=next_id, type=action.wound_type, severity=action.severity, bleeding=action.bleeding, note=action.note
    )
    ctx.say(
        f"Blessure {_wound_label(wound, rs)} : {rule.limitation} ; test de guérison après "
        f"{plural(rule.days, 'repos long', 'repos longs')} ; test de volonté (SAG) DD {rule.will_dd}."
    )
    return evolve(sheet, wounds=(*sheet.wounds, wound))


def wound_risk(sheet: DouaratilSheet, action: WoundRisk, ctx: Context) -> DouaratilSheet:
    rs: DouaratilRules = ctx.ruleset
    _alive(sheet, "risquer sa blessure")
    wound = _find_wound(sheet, action.wound_id)
    rule = rs.wounds.get(wound.type)
    if rule is None or rule.bleeding_dice is None or rule.reopen_dd is None:
        raise Refused(f"Une blessure {_wound_label(wound, rs)} ne risque pas de s'ouvrir.")
    if wound.bleeding:
        raise Refused("Cette blessure saigne déjà.")
    label = _wound_label(wound, rs)
    if _check(ctx, sheet, "constitution", rule.reopen_dd, f"JS de Constitution, {label}"):
        return sheet
    count, sides = rule.bleeding_dice
    ctx.say(f"{label} s'ouvre : saignement de {count}d{sides} par round.")
    ctx.event("bleeding")
    return _replace_wound(sheet, evolve(wound, bleeding=True))


def _replace_wound(sheet: DouaratilSheet, wound: Wound) -> DouaratilSheet:
    return evolve(sheet, wounds=tuple(wound if w.id == wound.id else w for w in sheet.wounds))


def set_wound_bleeding(sheet: DouaratilSheet, action: SetWoundBleeding, ctx: Context) -> DouaratilSheet:
    rs: DouaratilRules = ctx.ruleset
    wound = _find_wound(sheet, action.wound_id)
    rule = rs.wounds.get(wound.type)
    if action.bleeding and (rule is None or rule.bleeding_dice is None):
        raise Refused(f"Une blessure {_wound_label(wound, rs)} ne saigne pas.")
    ctx.say(f"{_wound_label(wound, rs)} : {'saigne' if action.bleeding else 'ne saigne plus'}.")
    return _replace_wound(sheet, evolve(wound, bleeding=action.bleeding))


def heal_wound(sheet: DouaratilSheet, action: HealWound, ctx: Context) -> DouaratilSheet:
    rs: DouaratilRules = ctx.ruleset
    _alive(sheet, "guérir")
    wound = _find_wound(sheet, action.wound_id)
    wounds = tuple(w for w in sheet.wounds if w.id != wound.id)
    scars = sheet.scars
    line = f"{_wound_label(wound, rs)} guérie"
    if action.scar:
        scars = (*scars, Scar(type=wound.type, severity=wound.severity, note=wound.note))
        line += " ; il en reste une cicatrice"
    ctx.say(line + ".")
    return evolve(sheet, wounds=wounds, scars=scars)


def remove_wound(sheet: DouaratilSheet, action: RemoveWound, ctx: Context) -> DouaratilSheet:
    rs: DouaratilRules = ctx.ruleset
    wound = _find_wound(sheet, action.wound_id)
    ctx.say(f"{_wound_label(wound, rs)} retirée de la fiche.")
    return evolve(sheet, wounds=tuple(w for w in sheet.wounds if w.id != wound.id))


def heroic_survival(sheet: DouaratilSheet, action: HeroicSurvival, ctx: Context) -> DouaratilSheet:
    rs: DouaratilRules = ctx.ruleset
    rule = rs.heroic_death
    if not sheet.dead:
        raise Refused("La survie héroïque s'applique à un personnage que les règles disent mort.")
    if sheet.is_npc:
        raise Refused("La survie héroïque est réservée aux héros des joueurs.")
    if sheet.level <= 1:
        raise Refused("Un personnage de niveau 1 n'a pas de niveau à perdre : la mort reste la mort.")
    lost_level = sheet.level
    points = rule.even_level_points if lost_level % 2 == 0 else rule.odd_level_points
    constitution = max(0, sheet.constitution - points)
    level = lost_level - 1
    ctx.say(f"Survie héroïque : {sheet.name or 'le héros'} perd le niveau {lost_level} (niveau {level}).")
    ctx.say(f"Constitution : {sheet.constitution} → {constitution} ({points} point(s) du niveau perdu).")
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
        "action_dice_spent": min(sheet.action_dice_spent, level),
        "heroic_survivals": sheet.heroic_survivals + 1,
        "xp": min(sheet.xp, action.xp_minimum),
        "constitution_priority": constitution < rule.constitution_floor,
        "conditions": tuple(sorted({*sheet.conditions, "inconscient"})),
    }
    ctx.say(f"Points d'action maximum : {sheet.base_maximum} → {base_max}.")
    for pool, lost in (("magic", action.magic_lost), ("faith", action.faith_lost), ("honour", action.honour_lost)):
        stored: Pool = getattr(sheet, pool)
        if lost:
            new_max = max(0, stored.base_maximum - lost)
            changes[pool] = Pool(current=min(stored.current, new_max), base_maximum=new_max)
            ctx.say(f"{rs.rests.pools[pool].label} maximum : {stored.base_maximum} → {new_max}.")
    ctx.say(f"Points d'expérience ramenés au minimum du niveau {level} : {sheet.xp} → {changes['xp']}.")
    ctx.say("Les capacités liées au niveau perdu disparaissent (à rayer de la fiche).")
    if constitution < rule.constitution_floor:
        ctx.say(
            f"Constitution sous {rule.constitution_floor} : les prochains points de caractéristique "
            "iront en Constitution jusqu'à ce qu'elle revienne à 10."
        )
    ctx.say("Gravement blessé, inconscient à 0 point d'action.")
    ctx.event("heroic_survival")
    return _stabilise(evolve(sheet, **changes), rs, ctx)


def prepare_edit(old: DouaratilSheet, data: dict[str, Any]) -> dict[str, Any]:
    """A lowered maximum lowers the current points with it (instead of refusing the edit)."""
    top = data.get("base_maximum")
    if isinstance(top, int) and isinstance(data.get("current"), int) and data["current"] > top >= 0:
        data["current"] = top
    for pool in POOLS:
        value = data.get(pool)
        if isinstance(value, dict):
            cap, cur = value.get("base_maximum"), value.get("current")
            if isinstance(cap, int) and isinstance(cur, int) and cur > cap >= 0:
                data[pool] = {**value, "current": cap}
    spent, level = data.get("action_dice_spent"), data.get("level")
    if isinstance(spent, int) and isinstance(level, int) and spent > level >= 0:
        data["action_dice_spent"] = level
    return data


def after_edit(old: DouaratilSheet, new: DouaratilSheet, rs: DouaratilRules, ctx: Context) -> DouaratilSheet:
    if new.action_dice_spent > new.level:
        new = evolve(new, action_dice_spent=new.level)
    return _clamp_to_maxima(new, rs, ctx)


def after_action(sheet: DouaratilSheet, action: Action) -> DouaratilSheet:
    """A short rest stays open for spending dice one at a time only until something else happens."""
    if sheet.short_rest_open and not isinstance(action, (ShortRest, SpendActionDie)):
        return evolve(sheet, short_rest_open=False)
    return sheet
