"""Segments time: what the timed rules do while the clock runs (dying, air, fire, exposure, privations, rest)."""

from __future__ import annotations

from rules.actions import AdvanceTime, LongRest
from rules.errors import Refused
from rules.model import Context, evolve, plural
from rules.systems.segments.derive import (
    _name,
    _points_hidden,
    _pv_change,
    _suffocation_limits,
    is_dead,
    is_dying,
    turn_start,
)
from rules.systems.segments.handlers import (
    Harm,
    _alive,
    _check,
    _die,
    _fatigue_to,
    _hit,
    _restore,
    _self_stabilise,
    _settle,
)
from rules.systems.segments.sheet import PRIVATION_COUNTERS, SegmentsSheet
from rules.systems.segments.table import SegmentsRules

# Time steps simulated in one AdvanceTime at most (burning, exposure… each need their own steps; ~0.1 ms each).
STEP_CAP = 20_000


# --- Time ----------------------------------------------------------------------------------------------


def _surprise_ids(sheet: SegmentsSheet, rs: SegmentsRules) -> list[str]:
    return [c for c in sheet.conditions if c in rs.conditions and rs.conditions[c].surprise]


def _next_events(sheet: SegmentsSheet, rs: SegmentsRules) -> list[int]:
    """Clock instants, after now, at which a timed rule acts on this sheet."""
    now = sheet.clock
    seg, turn, hour = rs.time_units["segment"], rs.time_units["turn"], rs.time_units["hour"]
    found: list[int] = []
    dying = is_dying(sheet)
    if dying and rs.dying.loss_per_segment:
        # Losses are linear: step straight to the segment where the PV reach the negative of the CON.
        segments = -(-(sheet.current + sheet.constitution) // rs.dying.loss_per_segment)
        found.append((now // seg + max(1, segments)) * seg)
    if dying and rs.dying.auto_self_stabilise:
        start = int(turn_start(sheet, rs).value)
        if start <= rs.segments_per_turn:
            instant = now // turn * turn + (start - 1) * seg
            found.append(instant if instant > now else instant + turn)
    if sheet.suffocating_for is not None:
        for limit in _suffocation_limits(sheet, rs):
            if limit > sheet.suffocating_for:
                found.append(now + limit - sheet.suffocating_for)
    if sheet.burning or (rs.surprise.ends_at_turn_end and _surprise_ids(sheet, rs)):
        found.append((now // turn + 1) * turn)
    if sheet.exposure:
        rule = rs.exposure[sheet.exposure]
        for every in (rule.damage_every_hours, rule.fatigue_every_hours):
            period = every * hour
            found.append(now + period - sheet.exposure_for % period)
    for need in sheet.privations:
        period = rs.privations[need].hours * hour
        found.append(now + period - getattr(sheet, PRIVATION_COUNTERS[need]) % period)
    rate = rs.nonlethal.recovery_per_hour_per_level * sheet.level
    if sheet.nonlethal and rate:
        # Straight to the hour where the character wakes up, or where the last point is gone.
        target = sheet.nonlethal - sheet.current if sheet.nonlethal > sheet.current >= 0 else sheet.nonlethal
        found.append((now // hour + max(1, -(-target // rate))) * hour)
    return found


def _crossed(before: int, after: int, period: int) -> int:
    return after // period - before // period


def _elapse(sheet: SegmentsSheet, dt: int, rs: SegmentsRules, ctx: Context) -> SegmentsSheet:
    """``dt`` seconds pass; the timed rules whose instant falls in that span act, in the seed's order."""
    seg, turn, hour = rs.time_units["segment"], rs.time_units["turn"], rs.time_units["hour"]
    t0, t1 = sheet.clock, sheet.clock + dt
    start = int(turn_start(sheet, rs).value) if is_dying(sheet) else 0
    sheet = evolve(sheet, clock=t1)
    # « Il perd 1 point de vie par segment »
    if is_dying(sheet) and rs.dying.loss_per_segment:
        segments = _crossed(t0, t1, seg)
        loss = segments * rs.dying.loss_per_segment
        if loss:
            new = evolve(sheet, current=sheet.current - loss)
            ctx.say(f"Mourant, {plural(segments, 'segment')} : {_pv_change(sheet, rs, sheet.current, new.current)}.")
            sheet = _settle(sheet, new, rs, ctx)
    if sheet.suffocating_for is not None and not is_dead(sheet):
        s0, s1 = sheet.suffocating_for, sheet.suffocating_for + dt
        to_zero, to_death = _suffocation_limits(sheet, rs)
        sheet = evolve(sheet, suffocating_for=s1)
        if s0 < to_zero <= s1 and sheet.current > 0:
            ctx.say(f"Sans air depuis {plural(to_zero // turn, 'tour')} : tombe à 0 point de vie.")
            sheet = _settle(sheet, evolve(sheet, current=0), rs, ctx)
        if s0 < to_death <= s1:
            sheet = _die(sheet, ctx, "noyade ou asphyxie")
    turns = _crossed(t0, t1, turn)
    if turns and not is_dead(sheet):
        if sheet.burning:
            count, sides = rs.fire.damage
            for _ in range(turns):
                roll = ctx.dice(count, sides, "Feu")
                harm = Harm(f"Feu, un tour ({roll.detail})", frozenset({rs.fire.damage_type}))
                sheet = _hit(sheet, roll.total, harm, rs, ctx)
                if is_dead(sheet):
                    break
        surprised = _surprise_ids(sheet, rs)
        if surprised and rs.surprise.ends_at_turn_end:
            ctx.say("Fin du tour : la surprise est passée.")
            sheet = evolve(
                sheet, conditions=tuple(c for c in sheet.conditions if c not in surprised), surprise_segments=0
            )
    # « une fois par tour » at the segment where its turn starts, the dying character tries alone.
    if start and is_dying(sheet) and rs.dying.auto_self_stabilise and start <= rs.segments_per_turn:
        offset = (start - 1) * seg
        instant = (t1 - offset) // turn * turn + offset
        if t0 < instant <= t1 and sheet.self_stabilise_turn != instant // turn:
            ctx.say("Début de son tour :")
            sheet = _self_stabilise(sheet, rs, ctx)
    if sheet.exposure and not is_dead(sheet):
        rule = rs.exposure[sheet.exposure]
        e0, e1 = sheet.exposure_for, sheet.exposure_for + dt
        sheet = evolve(sheet, exposure_for=e1)
        count, sides = rule.damage
        for _ in range(_crossed(e0, e1, rule.damage_every_hours * hour)):
            halved = sheet.exposure_save_dd is not None and _check(
                ctx, sheet, "fortitude", sheet.exposure_save_dd, f"Vigueur contre le {rule.label}"
            )
            roll = ctx.dice(count, sides, rule.label[:1].upper() + rule.label[1:])
            harm = Harm(
                f"{rule.label[:1].upper() + rule.label[1:]} ({roll.detail})",
                frozenset({rule.damage_type}),
                halved=halved,
            )
            sheet = _hit(sheet, roll.total, harm, rs, ctx)
            if is_dead(sheet):
                return sheet
        for _ in range(_crossed(e0, e1, rule.fatigue_every_hours * hour)):
            sheet = _fatigue_to(sheet, sheet.fatigue + 1, rs, ctx, f"{rule.fatigue_every_hours} heures de {rule.label}")
    for need in sheet.privations:
        if is_dead(sheet):
            break
        field = PRIVATION_COUNTERS[need]
        p0 = getattr(sheet, field)
        rule_p = rs.privations[need]
        sheet = evolve(sheet, **{field: p0 + dt})
        for _ in range(_crossed(p0, p0 + dt, rule_p.hours * hour)):
            sheet = _fatigue_to(sheet, sheet.fatigue + 1, rs, ctx, f"{plural(rule_p.hours, 'heure')} {rule_p.label}")
    hours = _crossed(t0, t1, hour)
    if hours and sheet.nonlethal and not is_dead(sheet) and rs.nonlethal.recovery_per_hour_per_level:
        recovered = min(sheet.nonlethal, hours * rs.nonlethal.recovery_per_hour_per_level * sheet.level)
        new = evolve(sheet, nonlethal=sheet.nonlethal - recovered)
        if _points_hidden(sheet, rs):
            ctx.say("Dégâts non létaux : une partie s'efface avec le temps (total caché : Engourdi).")
        else:
            ctx.say(f"Dégâts non létaux qui s'effacent avec le temps : {sheet.nonlethal} → {new.nonlethal}.")
        sheet = _settle(sheet, new, rs, ctx)
    return sheet


def _estimated_steps(sheet: SegmentsSheet, seconds: int, rs: SegmentsRules) -> int:
    """Steps the open-ended timed rules need over ``seconds`` (dying and drowning end by themselves)."""
    turn, hour = rs.time_units["turn"], rs.time_units["hour"]
    steps = seconds // turn if sheet.burning else 0
    if sheet.exposure:
        steps += 2 * seconds // hour
    for need in sheet.privations:
        steps += seconds // (rs.privations[need].hours * hour)
    return steps


def _pass_time(sheet: SegmentsSheet, seconds: int, rs: SegmentsRules, ctx: Context) -> SegmentsSheet:
    if _estimated_steps(sheet, seconds, rs) > STEP_CAP:
        raise Refused(
            "Trop d'étapes à simuler d'un coup (feu, exposition, privations) : faites passer le temps par "
            "périodes plus courtes."
        )
    end = sheet.clock + seconds
    steps = 0
    while sheet.clock < end and not is_dead(sheet):
        step_end = min([end, *_next_events(sheet, rs)])
        sheet = _elapse(sheet, step_end - sheet.clock, rs, ctx)
        steps += 1
        if steps > STEP_CAP:
            raise Refused("Trop d'étapes à simuler d'un coup : faites passer le temps par périodes plus courtes.")
    return evolve(sheet, clock=end)


def advance_time(sheet: SegmentsSheet, action: AdvanceTime, ctx: Context) -> SegmentsSheet:
    rs: SegmentsRules = ctx.ruleset
    if action.unit not in rs.time_units:
        units = ", ".join(rs.time_units)
        raise Refused(f"Unité de temps inconnue : « {action.unit} » (attendu : {units}).")
    label = rs.time_labels.get(action.unit, action.unit)
    ctx.say(f"Le temps passe : {plural(action.count, label)}.")
    return _pass_time(sheet, action.count * rs.time_units[action.unit], rs, ctx)


def long_rest(sheet: SegmentsSheet, action: LongRest, ctx: Context) -> SegmentsSheet:
    rs: SegmentsRules = ctx.ruleset
    rule = rs.rest
    _alive(sheet, "se reposer")
    if is_dying(sheet):
        raise Refused("Un mourant ne se repose pas : il perd 1 point de vie par segment. Stabilisez-le d'abord.")
    if sheet.burning:
        raise Refused(f"{_name(sheet)} est en feu : éteignez d'abord les flammes.")
    if sheet.suffocating_for is not None:
        raise Refused(f"{_name(sheet)} est privé d'air : pas de repos possible.")
    if action.hours < rule.min_hours:
        raise Refused(f"Un repos qui dissipe la fatigue dure au moins {plural(rule.min_hours, 'heure')}.")
    ctx.say(f"Repos de {plural(action.hours, 'heure')}.")
    ended = {"sleep"} | ({"food", "water"} if action.ate_and_drank else set())
    counters = {PRIVATION_COUNTERS[n]: 0 for n in ended}
    sheet = evolve(sheet, privations=tuple(p for p in sheet.privations if p not in ended), **counters)
    sheet = _pass_time(sheet, action.hours * rs.time_units["hour"], rs, ctx)
    if is_dead(sheet):
        return sheet
    if action.interrupted:
        ctx.say("Repos interrompu : aucun bénéfice.")
        return sheet
    # « seul le repos la dissipe » (S15)
    if sheet.fatigue and rule.fatigue_steps:
        if rule.needs_food_and_water and not action.ate_and_drank:
            ctx.say("Sans boire ni manger, la fatigue ne se dissipe pas.")
        else:
            sheet = _fatigue_to(sheet, sheet.fatigue - rule.fatigue_steps, rs, ctx, "repos")
    gain = rule.heal_per_level * sheet.level
    if gain and sheet.current < sheet.base_maximum:
        sheet = _restore(sheet, gain, rs, ctx, f"Repos, {gain} PV ({rule.heal_per_level} par niveau)")
    return sheet
