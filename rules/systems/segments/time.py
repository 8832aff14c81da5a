"""Segments time: what the timed rules do while the clock runs, and the GM table's turns.

The clock counts seconds; a turn is ``time_units.turn`` seconds of ``time_units.segment`` segments, turn
``k`` being ``[k·turn, (k+1)·turn)``. Two kinds of timed rules:

- what completes (a segment lost while dying, a whole turn spent burning, an hour of cold, a turn of
  surprise over…) acts at the instant it completes, counted from when it began;
- what opens (the character's window, where the dying character's Vigueur try comes, « une fois par
  tour ») acts at the instant it opens.

At one instant, what completes comes first. Moving the clock from ``t0`` to ``t1`` applies what completes
in ``(t0, t1]`` and what opens in ``[t0, t1)``: what opens at ``t1`` belongs to the next stretch. So one
``AdvanceTime(unit="turn")`` from the start of a turn is exactly ``StartTurn`` (to the opening of the
window, and what it brings) then ``EndRound`` (the rest of the turn).
"""

from __future__ import annotations

from rules.actions import AdvanceTime, EndRound, LongRest, StartTurn
from rules.errors import Refused
from rules.model import Context, evolve, fmt_int, plural, with_values
from rules.systems.segments.derive import (
    _name,
    _suffocation_limits,
    _turn_index,
    is_dead,
    is_dying,
    points_hidden,
    stabilise_try_instant,
    turn_start,
    window_instant,
)
from rules.systems.segments.handlers import (
    _alive,
    _check,
    _die,
    _fatigue_to,
    _hit,
    _restore,
    _self_stabilise,
    _settle,
    _tell,
    hidden_note,
)
from rules.systems.segments.sheet import MAX_CLOCK, MAX_CLOCK_YEARS, PRIVATION_COUNTERS, SegmentsSheet
from rules.systems.segments.table import SegmentsRules

# Time steps simulated in one action at most (burning, exposure… each need their own steps; ~0.1 ms each).
STEP_CAP = 20_000


def _surprise_ids(sheet: SegmentsSheet, rs: SegmentsRules) -> list[str]:
    surprises = rs.memo.surprises
    if surprises.isdisjoint(sheet.conditions):
        return []
    return [c for c in sheet.conditions if c in surprises]


def _next_after(counter: int, period: int) -> int:
    """Seconds until ``counter`` (seconds since a rule began) next completes a ``period``."""
    return period - counter % period


def _next_events(sheet: SegmentsSheet, rs: SegmentsRules) -> list[int]:
    """Clock instants, after now, at which a timed rule acts on this sheet."""
    now = sheet.clock
    seg, turn, hour = rs.time_units["segment"], rs.time_units["turn"], rs.time_units["hour"]
    found: list[int] = []
    if is_dying(sheet) and rs.dying.loss_per_segment:
        # Losses are linear: step straight to the segment where the PV reach the negative of the CON.
        segments = -(-(sheet.current + sheet.constitution) // rs.dying.loss_per_segment)
        found.append((now // seg + segments) * seg)
    tried = stabilise_try_instant(sheet, rs)
    if tried is not None and tried > now:
        found.append(tried)
    if sheet.suffocating_for is not None:
        for limit in _suffocation_limits(sheet, rs):
            if limit > sheet.suffocating_for:
                found.append(now + limit - sheet.suffocating_for)
    if sheet.burning:
        found.append(now + _next_after(sheet.burning_for, turn))
    lasts = rs.surprise.lasts_turns * turn
    if lasts and _surprise_ids(sheet, rs):
        found.append(now + lasts - sheet.surprised_for)
    if sheet.exposure:
        rule = rs.exposure[sheet.exposure]
        for every in (rule.damage_every_hours, rule.fatigue_every_hours):
            found.append(now + _next_after(sheet.exposure_for, every * hour))
    for need in sheet.privations:
        found.append(now + _next_after(getattr(sheet, PRIVATION_COUNTERS[need]), rs.privations[need].hours * hour))
    rate = rs.nonlethal.recovery_per_hour_per_level * sheet.level
    if sheet.nonlethal and rate:
        # Straight to the hour where the character wakes up, or where the last point is gone.
        target = sheet.nonlethal - sheet.current if sheet.nonlethal > sheet.current >= 0 else sheet.nonlethal
        hours = -(-target // rate)
        found.append(now + _next_after(sheet.nonlethal_for, hour) + (hours - 1) * hour)
    return found


def _crossed(before: int, after: int, period: int) -> int:
    return after // period - before // period


def _elapse(sheet: SegmentsSheet, dt: int, rs: SegmentsRules, ctx: Context, told: set[str]) -> SegmentsSheet:
    """``dt`` seconds pass; what completes in that span acts, in the seed's order.

    Every counter moves first, so the sheet does not depend on where a death cut the span (one turn is
    the same sheet whether it passes in one step or in two).
    """
    seg, turn, hour = rs.time_units["segment"], rs.time_units["turn"], rs.time_units["hour"]
    before = sheet
    moved: dict[str, object] = {"clock": sheet.clock + dt}
    if sheet.suffocating_for is not None:
        moved["suffocating_for"] = sheet.suffocating_for + dt
    if sheet.burning:
        moved["burning_for"] = sheet.burning_for + dt
    if sheet.exposure:
        moved["exposure_for"] = sheet.exposure_for + dt
    for need in sheet.privations:
        field = PRIVATION_COUNTERS[need]
        moved[field] = getattr(sheet, field) + dt
    if sheet.nonlethal:
        moved["nonlethal_for"] = sheet.nonlethal_for + dt
    surprised = _surprise_ids(sheet, rs)
    lasts = rs.surprise.lasts_turns * turn
    surprise_over = bool(surprised) and bool(lasts) and sheet.surprised_for + dt >= lasts
    if surprised:
        # The counter ends with the surprise even if a death cuts the span before the condition goes.
        moved["surprised_for"] = 0 if surprise_over else sheet.surprised_for + dt
    sheet = evolve(sheet, **moved)
    # « Il perd 1 point de vie par segment »
    if is_dying(sheet) and rs.dying.loss_per_segment:
        segments = _crossed(before.clock, sheet.clock, seg)
        loss = segments * rs.dying.loss_per_segment
        if loss:
            new = evolve(sheet, current=sheet.current - loss)
            what = f"Mourant, {plural(segments, 'segment')}"
            line = f"{what} : PV {fmt_int(sheet.current)} → {fmt_int(new.current)}."
            _tell(ctx, points_hidden(sheet, rs), line, lambda: f"{what} : {hidden_note(sheet, rs)}.")
            sheet = _settle(sheet, new, rs, ctx)
    if before.suffocating_for is not None and not is_dead(sheet):
        s0, s1 = before.suffocating_for, before.suffocating_for + dt
        to_zero, to_death = _suffocation_limits(sheet, rs)
        if s0 < to_zero <= s1 and sheet.current > 0:
            what = f"Sans air depuis {plural(to_zero // turn, 'tour')}"
            _tell(
                ctx,
                points_hidden(sheet, rs),
                f"{what} : tombe à 0 point de vie.",
                f"{what} : à bout de souffle ({hidden_note(sheet, rs)}).",
            )
            sheet = _settle(sheet, evolve(sheet, current=0), rs, ctx)
        if s0 < to_death <= s1 and not is_dead(sheet):
            sheet = _die(sheet, rs, ctx, "noyade ou asphyxie", shows_points=False)
    if before.burning and not is_dead(sheet):
        count, sides = rs.fire.damage
        for _ in range(_crossed(before.burning_for, before.burning_for + dt, turn)):
            roll = ctx.dice(count, sides, "Feu")
            what = f"Feu, un tour entier ({roll.detail})"
            sheet = _hit(sheet, roll.total, what, frozenset({rs.fire.damage_type}), rs, ctx)
            if is_dead(sheet):
                return sheet
    if surprise_over:
        ctx.say(f"Surpris depuis {plural(rs.surprise.lasts_turns, 'tour')} : la surprise est passée.")
        conditions = tuple(c for c in sheet.conditions if c not in surprised)
        sheet = evolve(sheet, conditions=conditions, surprise_segments=0, surprised_for=0)
    if before.exposure and not is_dead(sheet):
        rule = rs.exposure[before.exposure]
        e0, e1 = before.exposure_for, before.exposure_for + dt
        count, sides = rule.damage
        name = rule.label[:1].upper() + rule.label[1:]
        for _ in range(_crossed(e0, e1, rule.damage_every_hours * hour)):
            halved = sheet.exposure_save_dd is not None and _check(
                ctx, sheet, "fortitude", sheet.exposure_save_dd, f"Vigueur contre le {rule.label}"
            )
            roll = ctx.dice(count, sides, name)
            what = f"{name} ({roll.detail})"
            sheet = _hit(sheet, roll.total, what, frozenset({rule.damage_type}), rs, ctx, halved=halved)
            if is_dead(sheet):
                return sheet
        for _ in range(_crossed(e0, e1, rule.fatigue_every_hours * hour)):
            why = f"{rule.fatigue_every_hours} heures de {rule.label}"
            sheet = _fatigue_to(sheet, sheet.fatigue + 1, rs, ctx, why, told)
    for need in before.privations:
        if is_dead(sheet):
            break
        p0 = getattr(before, PRIVATION_COUNTERS[need])
        rule_p = rs.privations[need]
        for _ in range(_crossed(p0, p0 + dt, rule_p.hours * hour)):
            why = f"{plural(rule_p.hours, 'heure')} {rule_p.label}"
            sheet = _fatigue_to(sheet, sheet.fatigue + 1, rs, ctx, why, told)
    if before.nonlethal and sheet.nonlethal and not is_dead(sheet):
        hours = _crossed(before.nonlethal_for, before.nonlethal_for + dt, hour)
        if hours and rs.nonlethal.recovery_per_hour_per_level:
            recovered = min(sheet.nonlethal, hours * rs.nonlethal.recovery_per_hour_per_level * sheet.level)
            new = evolve(sheet, nonlethal=sheet.nonlethal - recovered)
            line = f"Dégâts non létaux qui s'effacent avec le temps : {sheet.nonlethal} → {new.nonlethal}."
            player = f"Dégâts non létaux : une partie s'efface avec le temps ({hidden_note(sheet, rs)})."
            _tell(ctx, points_hidden(sheet, rs), line, player)
            sheet = _settle(sheet, new, rs, ctx)
    return sheet


def _opening(sheet: SegmentsSheet, rs: SegmentsRules, ctx: Context) -> SegmentsSheet:
    """What opens at this instant: the dying character's Vigueur try of this turn, if it comes now (S5)."""
    if stabilise_try_instant(sheet, rs) != sheet.clock:
        return sheet
    turn = _turn_index(sheet, rs)
    if window_instant(sheet, rs, turn) == sheet.clock:
        start = int(turn_start(sheet, rs).value)
        ctx.say(f"Sa fenêtre s'ouvre (segment {min(start, rs.segments_per_turn)}) :")
    else:
        ctx.say("Sa fenêtre de ce tour était passée : la tentative de ce tour vient tout de suite.")
    return _self_stabilise(sheet, rs, ctx)


def _estimated_steps(sheet: SegmentsSheet, seconds: int, rs: SegmentsRules) -> int:
    """Steps the open-ended timed rules need over ``seconds`` (dying and drowning end by themselves)."""
    turn, hour = rs.time_units["turn"], rs.time_units["hour"]
    steps = seconds // turn if sheet.burning else 0
    if sheet.exposure:
        steps += 2 * seconds // hour
    for need in sheet.privations:
        steps += seconds // (rs.privations[need].hours * hour)
    return steps


def pass_time(sheet: SegmentsSheet, seconds: int, rs: SegmentsRules, ctx: Context) -> SegmentsSheet:
    """Move the clock ``seconds`` on: what completes in ``(now, end]`` and what opens in ``[now, end)``."""
    # Read from the sheet's ``__dict__`` (issue 15: a pydantic attribute is a slow lookup).
    fields = sheet.__dict__
    clock = fields["clock"]
    if clock + seconds > MAX_CLOCK:
        raise Refused(
            f"Le temps d'une fiche ne va pas au-delà de {MAX_CLOCK_YEARS:,} ans de jeu.".replace(",", "\u202f")
        )
    # The open-ended timed rules (``_estimated_steps`` is 0 without them).
    world = fields["burning"] or fields["exposure"] or fields["privations"]
    if world and _estimated_steps(sheet, seconds, rs) > STEP_CAP:
        raise Refused(
            "Trop d'étapes à simuler d'un coup (feu, exposition, privations) : faites passer le temps par "
            "périodes plus courtes."
        )
    end = clock + seconds
    # Nothing timed runs on a quiet sheet (the usual case): only its clock moves.
    if not (
        world
        or fields["nonlethal"]
        or fields["suffocating_for"] is not None
        or (fields["current"] < 0 and is_dying(sheet))
        or not rs.memo.surprises.isdisjoint(fields["conditions"])  # ``_surprise_ids``
    ):
        if clock == end:
            return sheet
        values = fields.copy()
        values["clock"] = end
        return with_values(sheet, values)
    told: set[str] = set()
    steps = 0
    while sheet.clock < end and not is_dead(sheet):
        sheet = _opening(sheet, rs, ctx)
        if is_dead(sheet):
            break
        step_end = min([end, *_next_events(sheet, rs)])
        sheet = _elapse(sheet, step_end - sheet.clock, rs, ctx, told)
        steps += 1
        if steps > STEP_CAP:
            raise Refused("Trop d'étapes à simuler d'un coup : faites passer le temps par périodes plus courtes.")
    return sheet if sheet.clock == end else evolve(sheet, clock=end)


def advance_time(sheet: SegmentsSheet, action: AdvanceTime, ctx: Context) -> SegmentsSheet:
    rs: SegmentsRules = ctx.ruleset
    asked = action.__dict__  # read once (issue 15)
    unit = asked["unit"]
    units = rs.time_units
    if unit not in units:
        known = ", ".join(rs.time_labels.get(u, u) for u in units)
        raise Refused(f"Unité de temps inconnue : « {unit} » (au choix : {known}).")
    count = asked["count"]
    ctx.say(f"Le temps passe : {plural(count, rs.time_labels.get(unit, unit))}.")
    return pass_time(sheet, count * units[unit], rs, ctx)


def start_turn(sheet: SegmentsSheet, action: StartTurn, ctx: Context) -> SegmentsSheet:
    """The start of this character's turn in a fight (S5): the clock goes to the opening of its window in the
    current turn, and what the window brings happens (the dying character's Vigueur try)."""
    rs: SegmentsRules = ctx.ruleset
    turn = _turn_index(sheet, rs)
    opening = window_instant(sheet, rs, turn)
    start = int(turn_start(sheet, rs).value)
    spt = rs.segments_per_turn
    where = f"segment {start} sur {spt}" if start <= spt else f"au-delà du segment {spt} : aucun segment ce tour-ci"
    if opening >= sheet.clock:
        sheet = pass_time(sheet, opening - sheet.clock, rs, ctx)
        ctx.say(f"Début du tour de {_name(sheet)} ({where}).")
    else:
        ctx.say(f"Début du tour de {_name(sheet)} : sa fenêtre de ce tour s'est déjà ouverte ({where}).")
    if is_dead(sheet):
        return sheet
    return _opening(sheet, rs, ctx)


def end_round(sheet: SegmentsSheet, action: EndRound, ctx: Context) -> SegmentsSheet:
    """The rest of the current turn: the clock goes to the start of the next one."""
    rs: SegmentsRules = ctx.ruleset
    turn = rs.time_units["turn"]
    end = (sheet.clock // turn + 1) * turn
    ctx.say(f"Fin du tour : {plural((end - sheet.clock) // rs.time_units['segment'], 'segment')} passent.")
    return pass_time(sheet, end - sheet.clock, rs, ctx)


def long_rest(sheet: SegmentsSheet, action: LongRest, ctx: Context) -> SegmentsSheet:
    rs: SegmentsRules = ctx.ruleset
    rule = rs.rest
    _alive(sheet, "le repos")
    if is_dying(sheet):
        raise Refused(
            f"{rs.health_states['mourant'].label} : pas de repos, la perte de {rs.dying.loss_per_segment} PV par "
            "segment continue. Stabilisez d'abord."
        )
    if sheet.burning:
        raise Refused(f"{_name(sheet)} est en feu : éteignez d'abord les flammes.")
    if sheet.suffocating_for is not None:
        raise Refused(f"{_name(sheet)} manque d'air : pas de repos possible.")
    if action.hours < rule.min_hours:
        raise Refused(f"Un repos qui dissipe la fatigue dure au moins {plural(rule.min_hours, 'heure')}.")
    ctx.say(f"Repos de {plural(action.hours, 'heure')}.")
    ended = {"sleep"} | ({"food", "water"} if action.ate_and_drank else set())
    counters = {PRIVATION_COUNTERS[n]: 0 for n in ended}
    sheet = evolve(sheet, privations=tuple(p for p in sheet.privations if p not in ended), **counters)
    sheet = pass_time(sheet, action.hours * rs.time_units["hour"], rs, ctx)
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
