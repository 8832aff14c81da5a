"""Douaratil time: rounds (death saves, unconsciousness, bleeding), hour timers, rests."""

from __future__ import annotations

from rules.actions import (
    AdvanceTime,
    LongRest,
    ShortRest,
)
from rules.errors import Refused
from rules.labels import ABILITY_LABELS
from rules.model import (
    Context,
    evolve,
    plural,
    signed,
)
from rules.systems.douaratil.actions import SpendActionDie
from rules.systems.douaratil.handlers import (
    _action_die,
    _alive,
    _check,
    _death_save,
    _die,
    _exhaustion_to,
    _take,
    _wake,
    _wake_attempt,
    _wound_label,
)
from rules.systems.douaratil.sheet import (
    DouaratilSheet,
    Pool,
    Scar,
    Wound,
    ability_modifier,
    effective_maximum,
    exhaustion_penalty,
    maximum_reduction,
)
from rules.systems.douaratil.table import POOLS, DouaratilRules

ROUND_CAP = 200_000  # rounds simulated in one AdvanceTime at most (bleeding kills long before)


def short_rest(sheet: DouaratilSheet, action: ShortRest, ctx: Context) -> DouaratilSheet:
    rs: DouaratilRules = ctx.ruleset
    _alive(sheet, "se reposer")
    if action.hours < rs.rests.short_min_hours:
        raise Refused(f"Un repos court dure au moins {plural(rs.rests.short_min_hours, 'heure')}.")
    if action.dice > sheet.level - sheet.action_dice_spent:
        raise Refused(
            f"Seulement {sheet.level - sheet.action_dice_spent} dé(s) d'action disponible(s) sur {sheet.level}."
        )
    ctx.say(f"Repos court de {plural(action.hours, 'heure')}.")
    sheet = evolve(sheet, clock=sheet.clock + action.hours * rs.time_units["hour"])
    sheet = _tick_timers(sheet, action.hours * rs.time_units["hour"], rs, ctx)
    for _ in range(action.dice):
        sheet = _action_die(sheet, rs, ctx)
    return evolve(sheet, short_rest_open=True)


def spend_action_die(sheet: DouaratilSheet, action: SpendActionDie, ctx: Context) -> DouaratilSheet:
    _alive(sheet, "dépenser un dé d'action")
    if not sheet.short_rest_open:
        raise Refused("Les dés d'action se dépensent à la fin d'un repos court.")
    sheet = _action_die(sheet, ctx.ruleset, ctx)
    return evolve(sheet, short_rest_open=True)


def long_rest(sheet: DouaratilSheet, action: LongRest, ctx: Context) -> DouaratilSheet:
    rs: DouaratilRules = ctx.ruleset
    rests = rs.rests
    hour = rs.time_units["hour"]
    _alive(sheet, "se reposer")
    if action.hours < rests.long_min_hours:
        raise Refused(f"Un repos long dure au moins {plural(rests.long_min_hours, 'heure')}.")
    # « il doit avoir au moins 1 point d'action au début de cette période de repos »
    if sheet.current < rests.long_min_points:
        raise Refused(
            f"Il faut au moins {rests.long_min_points} point d'action au début d'un repos long "
            f"({sheet.name or 'le personnage'} en a {sheet.current})."
        )
    end = sheet.clock + action.hours * hour
    if sheet.last_long_rest_end is not None:
        since = end - sheet.last_long_rest_end
        if since < rests.long_cooldown_hours * hour:
            wait = rests.long_cooldown_hours * hour - since
            raise Refused(
                "Un seul repos long par période de 24 heures : le dernier s'est terminé il y a "
                f"{plural(since // hour, 'heure')} à la fin de celui-ci ; encore {-(-wait // hour)} h à attendre."
            )
    sheet = evolve(sheet, clock=end, short_rest_open=False)
    sheet = _tick_timers(sheet, action.hours * hour, rs, ctx)
    if action.interrupted:
        # « tout le temps passé dans l'optique d'un repos long est perdu »
        ctx.say(
            f"Repos long interrompu par une période d'activité : {plural(action.hours, 'heure')} perdues, "
            "aucun bénéfice."
        )
        return sheet
    ctx.say(f"Repos long de {plural(action.hours, 'heure')}.")
    level = sheet.level
    penalty = exhaustion_penalty(sheet, rs)
    changes: dict[str, object] = {}
    # Pools recover with the exhaustion the character had while resting (before it drops).
    for pool in POOLS:
        rule = rests.pools[pool]
        stored: Pool = getattr(sheet, pool)
        bonus = ability_modifier(getattr(sheet, rule.ability), rs)
        doubled = rule.doubled_on_path is not None and sheet.path == rule.doubled_on_path
        if doubled:
            bonus *= 2
        gain = rule.per_level * level + bonus
        if rule.exhaustion_applies:
            gain += penalty
        gain = max(rule.minimum, gain)
        if stored.base_maximum == 0:
            continue
        cap = max(0, stored.base_maximum - (maximum_reduction(sheet, rs) if pool != "sanity" else 0))
        new = min(cap, stored.current + gain)
        if new != stored.current or gain:
            why = f"{rule.per_level} × niveau {level}" if rule.per_level else ""
            why += f" {signed(bonus)} ({ABILITY_LABELS[rule.ability]}{', doublé' if doubled else ''})"
            if rule.exhaustion_applies and penalty:
                why += f" {signed(penalty)} (épuisement)"
            ctx.say(f"{rule.label} : +{gain} ({why.strip()}) → {stored.current} → {new}.")
        changes[pool] = evolve(stored, current=new)
    sheet = evolve(sheet, **changes)
    # « Une fois terminé, un repos long réduit le niveau d'épuisement … à condition qu'elle ait eu à
    #   boire et à manger. »
    if sheet.exhaustion:
        if action.ate_and_drank:
            sheet = _exhaustion_to(sheet, sheet.exhaustion - rs.exhaustion.long_rest_reduction, ctx)
        else:
            ctx.say("Sans boire ni manger, l'épuisement ne diminue pas.")
    top = effective_maximum(sheet, rs)
    if sheet.current != top:
        ctx.say(f"Tous les points d'action : {sheet.current} → {top}.")
    # « Il regagne aussi une partie des dés d'action … au moins un … au maximum la moitié de son total »
    regained = min(sheet.action_dice_spent, max(rests.dice_regained_min, level // rests.dice_regained_divisor))
    if regained:
        ctx.say(f"Dés d'action regagnés : {regained} ({sheet.action_dice_spent - regained} encore dépensés).")
    if sheet.temporary:
        ctx.say(f"Les {sheet.temporary} points temporaires prennent fin avec le repos long.")
    sheet = evolve(
        sheet,
        current=top,
        temporary=0,
        action_dice_spent=sheet.action_dice_spent - regained,
        last_long_rest_end=end,
    )
    return _wound_healing(sheet, rs, ctx)


def _wound_healing(sheet: DouaratilSheet, rs: DouaratilRules, ctx: Context) -> DouaratilSheet:
    """« Une fois cette période passée, à chaque repos long, un JS DD 16 est fait pour chaque blessure »."""
    kept: list[Wound] = []
    scars = list(sheet.scars)
    for wound in sheet.wounds:
        wound = evolve(wound, rests=wound.rests + 1)
        rule = rs.wounds.get(wound.type)
        delay = rule.days if rule else 0
        label = _wound_label(wound, rs)
        if wound.rests < delay:
            ctx.say(f"{label} : {wound.rests}/{delay} repos longs avant le test de guérison.")
            kept.append(wound)
            continue
        # The wound's own DD steps do not apply: « cela ne s'applique pas pour le test de guérison ».
        bonus = 0 if rs.healing.exhaustion_applies else -exhaustion_penalty(sheet, rs)
        if _check(ctx, sheet, "constitution", rs.healing.test_dd, f"Test de guérison, {label}", bonus):
            ctx.say(f"{label} guérie ; il en reste une cicatrice.")
            scars.append(Scar(type=wound.type, severity=wound.severity, note=wound.note))
        else:
            kept.append(wound)
    return evolve(sheet, wounds=tuple(kept), scars=tuple(scars))


def _round_effects_active(sheet: DouaratilSheet) -> bool:
    if sheet.dead:
        return False
    dying = sheet.current == 0 and not sheet.stabilised and not sheet.dies_at_zero
    bleeding = any(w.bleeding for w in sheet.wounds)
    return dying or bleeding or sheet.unconscious_rounds > 0 or sheet.death_in_rounds is not None


def _one_round(sheet: DouaratilSheet, rs: DouaratilRules, ctx: Context, number: int) -> DouaratilSheet:
    ctx.say(f"— Round {number} —")
    # Turn start: « À chaque fois que vous commencez votre tour de jeu à 0 point d'action ou moins »
    if sheet.current == 0 and not sheet.stabilised and not sheet.dies_at_zero:
        sheet = _death_save(sheet, rs, ctx)
        if sheet.dead:
            return sheet
    if sheet.death_in_rounds is not None:
        left = sheet.death_in_rounds - 1
        if left <= 0:
            return _die(sheet, ctx, "le sursis du monstre est écoulé")
        sheet = evolve(sheet, death_in_rounds=left)
    if sheet.unconscious_rounds > 0 and "inconscient" in sheet.conditions:
        sheet = _wake_attempt(sheet, rs, ctx)
        if "inconscient" in sheet.conditions:
            left = sheet.unconscious_rounds - 1
            sheet = evolve(sheet, unconscious_rounds=left)
            if left == 0:
                sheet = _wake(sheet, rs, ctx, "les rounds d'inconscience sont écoulés")
    elif sheet.unconscious_rounds > 0:
        sheet = evolve(sheet, unconscious_rounds=0)
    for wound in sheet.wounds:
        rule = rs.wounds.get(wound.type)
        if wound.bleeding and rule and rule.bleeding_dice and not sheet.dead:
            count, sides = rule.bleeding_dice
            loss = ctx.dice(count, sides, f"Saignement, {_wound_label(wound, rs)}")
            ctx.say(f"Saignement ({_wound_label(wound, rs)}) : {loss.detail}.")
            sheet = _take(sheet, loss.total, rs, ctx, attack=False)
    return sheet


def _tick_timers(sheet: DouaratilSheet, seconds: int, rs: DouaratilRules, ctx: Context) -> DouaratilSheet:
    """Hour-scale timers over ``seconds`` (the stabilised creature's 1 PA after 1d6 hours)."""
    if sheet.dead or sheet.wake_in is None:
        return sheet
    left = sheet.wake_in - seconds
    if left > 0:
        return evolve(sheet, wake_in=left)
    gain = min(rs.saves.stabilised_wake_gain, effective_maximum(sheet, rs) - sheet.current)
    ctx.say(f"Stabilisé et non soigné : regagne {gain} PA ({sheet.current} → {sheet.current + gain}).")
    sheet = evolve(sheet, current=sheet.current + gain, wake_in=None, stabilised=False)
    if sheet.current > 0:
        sheet = evolve(sheet, death_successes=0, death_failures=0)
        sheet = _wake(sheet, rs, ctx, "1 PA regagné")
    return sheet


def advance_time(sheet: DouaratilSheet, action: AdvanceTime, ctx: Context) -> DouaratilSheet:
    rs: DouaratilRules = ctx.ruleset
    if action.unit not in rs.time_units:
        units = ", ".join(rs.time_units)
        raise Refused(f"Unité de temps inconnue : « {action.unit} » (attendu : {units}).")
    total = action.count * rs.time_units[action.unit]
    round_s = rs.time_units["round"]
    label = rs.time_labels.get(action.unit, action.unit)
    ctx.say(f"Le temps passe : {action.count} {label}{'s' if action.count > 1 else ''}.")
    remaining = total
    rounds = 0
    while remaining > 0:
        if sheet.dead:
            break
        if _round_effects_active(sheet) and remaining >= round_s:
            rounds += 1
            if rounds > ROUND_CAP:
                raise Refused("Trop de rounds à simuler d'un coup : avancez le temps par étapes.")
            sheet = _one_round(sheet, rs, ctx, rounds)
            sheet = _tick_timers(sheet, round_s, rs, ctx)
            remaining -= round_s
            continue
        step = remaining if sheet.wake_in is None else min(remaining, sheet.wake_in)
        sheet = _tick_timers(sheet, step, rs, ctx)
        remaining -= step
    return evolve(sheet, clock=sheet.clock + total, short_rest_open=False)
