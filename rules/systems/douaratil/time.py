"""Douaratil time: rounds (death saves, unconsciousness, bleeding), hour timers, rests.

One engine (``pass_time``) runs every span of time the same way, whether the GM advances the clock, a
fight goes turn by turn (``StartTurn`` then ``EndRound``) or the party rests: a round in which something
happens (a death save, a countdown, a bleeding wound) is played out, the rest passes at once.
"""

from __future__ import annotations

from rules.actions import AdvanceTime, EndRound, LongRest, ShortRest, StartTurn
from rules.errors import Refused
from rules.labels import ABILITY_LABELS
from rules.model import MAX_CLOCK, Context, evolve, plural, signed
from rules.systems.douaratil.actions import SpendActionDie
from rules.systems.douaratil.handlers import (
    _alive,
    _check,
    _die,
    _regain,
    _take,
    _wake,
    action_die,
    death_save_roll,
    dying,
    exhaustion_to,
    name_of,
    out_at_zero,
    wake_attempt,
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
    wound_label,
)
from rules.systems.douaratil.table import POOLS, DouaratilRules

POINT, POINTS = "point d'action", "points d'action"
DIE_LEFT, DICE_LEFT = "dé d'action disponible", "dés d'action disponibles"
ROUND_CAP = 200_000  # rounds simulated in one span at most (bleeding kills long before)


# --------------------------------------------------------------------------------------------------
# Rounds
# --------------------------------------------------------------------------------------------------


def round_effects_active(sheet: DouaratilSheet) -> bool:
    """Whether a round of this creature's life needs playing out (else time passes at once)."""
    if sheet.dead:
        return False
    bleeding = any(w.bleeding for w in sheet.wounds)
    return dying(sheet) or bleeding or sheet.unconscious_rounds > 0 or sheet.death_in_rounds is not None


def start_of_turn(sheet: DouaratilSheet, rs: DouaratilRules, ctx: Context) -> DouaratilSheet:
    """« À chaque fois que vous commencez votre tour de jeu à 0 point d'action ou moins, vous devez faire un
    jet de sauvegarde spécial appelé jet de sauvegarde contre la mort. »"""
    if dying(sheet):
        return death_save_roll(sheet, rs, ctx)
    return sheet


def end_of_round(sheet: DouaratilSheet, rs: DouaratilRules, ctx: Context) -> DouaratilSheet:
    """The rest of the round: the monster's reprieve, the rounds of unconsciousness, bleeding."""
    if sheet.dead:
        return sheet
    if sheet.death_in_rounds is not None:
        # « il peut la laisser agir librement pendant 1d6 rounds ou de toutes les façons la créature succombe »
        left = sheet.death_in_rounds - 1
        if left <= 0:
            return _die(sheet, ctx, "le sursis du monstre est écoulé")
        sheet = evolve(sheet, death_in_rounds=left)
    if sheet.unconscious_rounds > 0:
        # « Chaque round, la personne inconsciente peut essayer de réussir le JS DD 16 de Constitution »;
        # at 0 PA no save can wake anyone (D14): the rounds only run out.
        if not out_at_zero(sheet, rs):
            sheet = wake_attempt(sheet, rs, ctx)
        if sheet.unconscious_rounds > 0:
            left = sheet.unconscious_rounds - 1
            sheet = evolve(sheet, unconscious_rounds=left)
            if left == 0:
                sheet = _wake(sheet, rs, ctx, "les rounds d'inconscience sont écoulés")
    for wound in sheet.wounds:
        rule = rs.wounds.get(wound.type)
        if wound.bleeding and rule and rule.bleeding_dice and not sheet.dead:
            count, sides = rule.bleeding_dice
            label = wound_label(wound, rs)
            loss = ctx.dice(count, sides, f"Saignement, {label}")
            ctx.say(f"Saignement ({label}) : {loss.detail}.")
            sheet = _take(sheet, loss.total, rs, ctx, attack=False)
    return sheet


def tick_timers(sheet: DouaratilSheet, seconds: int, rs: DouaratilRules, ctx: Context) -> DouaratilSheet:
    """Hour-scale timers over ``seconds`` (the stabilised creature's 1 PA after 1d6 hours)."""
    if sheet.dead or sheet.wake_in is None:
        return sheet
    left = sheet.wake_in - seconds
    if left > 0:
        return evolve(sheet, wake_in=left)
    # « Si elle n'est pas soignée, une personne stabilisée regagne 1 point d'action au bout de 1d6 heures. »
    gain = max(0, min(rs.saves.stabilised_wake_gain, effective_maximum(sheet, rs) - sheet.current))
    ctx.say(
        f"Stabilisation sans soins : {name_of(sheet, start=False)} regagne {gain} PA "
        f"({sheet.current} → {sheet.current + gain})."
    )
    sheet = evolve(sheet, wake_in=None, stabilised=False)
    return _regain(sheet, sheet.current + gain, rs, ctx, f"{gain} PA regagné")


def pass_time(sheet: DouaratilSheet, seconds: int, rs: DouaratilRules, ctx: Context) -> DouaratilSheet:
    """``seconds`` of the creature's life (the clock is the caller's): rounds played out while something
    happens each round, the rest at once."""
    round_s = rs.time_units["round"]
    remaining = seconds
    rounds = 0
    while remaining > 0 and not sheet.dead:
        if remaining >= round_s and round_effects_active(sheet):
            rounds += 1
            if rounds > ROUND_CAP:
                raise Refused("Trop de rounds à simuler d'un coup : avancez le temps par étapes.")
            ctx.say(f"— Round {rounds} —")
            sheet = start_of_turn(sheet, rs, ctx)
            sheet = end_of_round(sheet, rs, ctx)
            sheet = tick_timers(sheet, round_s, rs, ctx)
            remaining -= round_s
            continue
        step = remaining if sheet.wake_in is None else min(remaining, sheet.wake_in)
        sheet = tick_timers(sheet, step, rs, ctx)
        remaining -= step
    return sheet


def _later(sheet: DouaratilSheet, seconds: int) -> int:
    end = sheet.clock + seconds
    if end > MAX_CLOCK:
        raise Refused("L'horloge de la fiche ne va pas au-delà d'environ 31 700 ans de jeu : rien n'a changé.")
    return end


def advance_time(sheet: DouaratilSheet, action: AdvanceTime, ctx: Context) -> DouaratilSheet:
    rs: DouaratilRules = ctx.ruleset
    if action.unit not in rs.time_units:
        units = ", ".join(rs.time_labels.get(u, u) for u in rs.time_units)
        raise Refused(f"Unité de temps inconnue : « {action.unit} » (attendu : {units}).")
    total = action.count * rs.time_units[action.unit]
    end = _later(sheet, total)
    label = rs.time_labels.get(action.unit, action.unit)
    ctx.say(f"Le temps passe : {action.count} {label}{'s' if action.count > 1 else ''}.")
    sheet = pass_time(sheet, total, rs, ctx)
    return evolve(sheet, clock=end, short_rest_open=False)


def start_turn(sheet: DouaratilSheet, action: StartTurn, ctx: Context) -> DouaratilSheet:
    """The start of this creature's turn: the death save at 0 PA (the clock does not move)."""
    return start_of_turn(sheet, ctx.ruleset, ctx)


def end_round(sheet: DouaratilSheet, action: EndRound, ctx: Context) -> DouaratilSheet:
    """The rest of the round for this creature, and the clock one round on: with ``StartTurn`` before
    it, the same rules and dice as one round of ``AdvanceTime``."""
    rs: DouaratilRules = ctx.ruleset
    round_s = rs.time_units["round"]
    end = _later(sheet, round_s)
    sheet = end_of_round(sheet, rs, ctx)
    sheet = tick_timers(sheet, round_s, rs, ctx)
    return evolve(sheet, clock=end, short_rest_open=False)


# --------------------------------------------------------------------------------------------------
# Rests
# --------------------------------------------------------------------------------------------------


def _can_rest(sheet: DouaratilSheet, rs: DouaratilRules, what: str, min_points: int) -> None:
    """A rest happens only while it can (issue 13, items 1 and 2): the character is conscious enough to
    rest, and no wound bleeds (which would kill it round after round while it sleeps)."""
    _alive(sheet, "se reposer")
    if sheet.current < min_points:
        raise Refused(
            f"Il faut au moins {plural(min_points, POINT, POINTS)} au début d'un {what} "
            f"({name_of(sheet, start=False)} en a {sheet.current}) : à 0 PA, seuls des soins, ou la stabilisation puis "
            "1d6 heures, rendent des points d'action."
        )
    bleeding = [w for w in sheet.wounds if w.bleeding]
    if bleeding and rs.rests.refused_while_bleeding:
        names = ", ".join(wound_label(w, rs) for w in bleeding)
        raise Refused(f"Pas de {what} tant qu'une blessure saigne ({names}) : arrêtez d'abord le saignement.")


def short_rest(sheet: DouaratilSheet, action: ShortRest, ctx: Context) -> DouaratilSheet:
    """« Un repos court est une période de repos d'au moins 1 heure pendant laquelle un personnage ne fait
    rien de plus fatigant que de manger, boire, lire et panser ses blessures. »"""
    rs: DouaratilRules = ctx.ruleset
    if action.hours < rs.rests.short_min_hours:
        raise Refused(f"Un repos court dure au moins {plural(rs.rests.short_min_hours, 'heure')}.")
    _can_rest(sheet, rs, "repos court", rs.rests.short_min_points)
    available = sheet.level - sheet.action_dice_spent
    if action.dice > available:
        raise Refused(f"Seulement {plural(available, DIE_LEFT, DICE_LEFT)} sur {sheet.level}.")
    seconds = action.hours * rs.time_units["hour"]
    end = _later(sheet, seconds)
    ctx.say(f"Repos court de {plural(action.hours, 'heure')}.")
    sheet = evolve(pass_time(sheet, seconds, rs, ctx), clock=end)
    if sheet.dead:
        return sheet
    for _ in range(action.dice):
        sheet = action_die(sheet, rs, ctx)
    return evolve(sheet, short_rest_open=True)


def spend_action_die(sheet: DouaratilSheet, action: SpendActionDie, ctx: Context) -> DouaratilSheet:
    _alive(sheet, "dépenser un dé d'action")
    if not sheet.short_rest_open:
        raise Refused("Les dés d'action se dépensent à la fin d'un repos court.")
    sheet = action_die(sheet, ctx.ruleset, ctx)
    return evolve(sheet, short_rest_open=True)


def long_rest(sheet: DouaratilSheet, action: LongRest, ctx: Context) -> DouaratilSheet:
    rs: DouaratilRules = ctx.ruleset
    rests = rs.rests
    hour = rs.time_units["hour"]
    if action.hours < rests.long_min_hours:
        raise Refused(f"Un repos long dure au moins {plural(rests.long_min_hours, 'heure')}.")
    # « il doit avoir au moins 1 point d'action au début de cette période de repos »
    _can_rest(sheet, rs, "repos long", rests.long_min_points)
    end = _later(sheet, action.hours * hour)
    if sheet.last_long_rest_end is not None:
        since = end - sheet.last_long_rest_end
        if since < rests.long_cooldown_hours * hour:
            wait = rests.long_cooldown_hours * hour - since
            raise Refused(
                f"Un seul repos long par période de {rests.long_cooldown_hours} heures : le dernier s'est terminé "
                f"il y a {plural(since // hour, 'heure')} à la fin de celui-ci ; "
                f"encore {-(-wait // hour)} h à attendre."
            )
    ctx.say(f"Repos long de {plural(action.hours, 'heure')}.")
    sheet = evolve(pass_time(sheet, action.hours * hour, rs, ctx), clock=end, short_rest_open=False)
    if sheet.dead:
        return sheet
    if action.interrupted:
        # « tout le temps passé dans l'optique d'un repos long est perdu »
        ctx.say("Repos long interrompu par une période d'activité : le temps passé est perdu, aucun bénéfice.")
        return sheet
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
        new = max(stored.current, min(cap, stored.current + gain))
        if new != stored.current or gain:
            why = f"{rule.per_level} × niveau {level}" if rule.per_level else ""
            why += f" {signed(bonus)} ({ABILITY_LABELS[rule.ability]}{', doublé' if doubled else ''})"
            if rule.exhaustion_applies and penalty:
                why += f" {signed(penalty)} (épuisement)"
            label = rule.label[:1].upper() + rule.label[1:]
            ctx.say(f"{label} : {signed(gain)} ({why.strip()}) → {stored.current} → {new}.")
        changes[pool] = evolve(stored, current=new)
    sheet = evolve(sheet, **changes)
    # « Une fois terminé, un repos long réduit le niveau d'épuisement … à condition qu'elle ait eu à
    #   boire et à manger. »
    if sheet.exhaustion:
        if action.ate_and_drank:
            sheet = exhaustion_to(sheet, sheet.exhaustion - rs.exhaustion.long_rest_reduction, ctx)
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
    sheet = evolve(sheet, temporary=0, action_dice_spent=sheet.action_dice_spent - regained, last_long_rest_end=end)
    sheet = _regain(sheet, max(sheet.current, top), rs, ctx, "repos long")
    return wound_healing(sheet, rs, ctx)


def wound_healing(sheet: DouaratilSheet, rs: DouaratilRules, ctx: Context) -> DouaratilSheet:
    """« Une fois cette période passée, à chaque repos long, un JS DD 16 est fait pour chaque blessure »."""
    kept: list[Wound] = []
    scars = list(sheet.scars)
    for wound in sheet.wounds:
        wound = evolve(wound, rests=min(100_000, wound.rests + 1))
        rule = rs.wounds.get(wound.type)
        delay = rule.days if rule else 0
        label = wound_label(wound, rs)
        if wound.rests < delay:
            ctx.say(f"{label} : {wound.rests}/{delay} repos longs avant le test de guérison.")
            kept.append(wound)
            continue
        # The wound's own DD steps do not apply: « cela ne s'applique pas pour le test de guérison ».
        bonus = 0 if rs.healing.exhaustion_applies else -exhaustion_penalty(sheet, rs)
        if _check(ctx, sheet, "constitution", rs.healing.test_dd, f"Test de guérison, {label}", bonus):
            ctx.say(f"{label} guérie ; il en reste une cicatrice.")
            if len(scars) < 200:
                scars.append(Scar(type=wound.type, severity=wound.severity, note=wound.note))
        else:
            kept.append(wound)
    return evolve(sheet, wounds=tuple(kept), scars=tuple(scars))
