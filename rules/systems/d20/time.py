"""d20 time: the dying character's rolls each round, recovery rolls, nonlethal recovery, rests."""

from __future__ import annotations

from rules.actions import (
    AdvanceTime,
    EndRound,
    LongRest,
    StartTurn,
)
from rules.errors import Refused
from rules.labels import ABILITIES, ABILITY_LABELS
from rules.model import (
    MAX_CLOCK,
    Context,
    evolve,
    of,
    plural,
)
from rules.systems.d20.actions import FullDayRest
from rules.systems.d20.derive import is_dead, maximum, pv_total, state_id
from rules.systems.d20.handlers import (
    _alive,
    _con_changed,
    _heal_pv,
    _hours,
    _lose,
    _name,
    _percent_roll,
    _settle,
    _settled_inside,
)
from rules.systems.d20.sheet import D20Sheet
from rules.systems.d20.table import D20Rules

EVENT_CAP = 200_000  # timed events processed in one action at most (dying and recovery end long before)


def _dying_roll(sheet: D20Sheet, rs: D20Rules, ctx: Context, when: str) -> D20Sheet:
    """« Lors de chacun de ses tours de jeu, un personnage mourant doit lancer 1d100 … Il a 10% de chances
    de se stabiliser, et s'il ne réussit pas, il perd 1 point de vie. »

    The roll due at ``dying_roll_at`` (the start of a round: it comes at the creature's turn in that round,
    T29); the next one falls a round later."""
    due = sheet.dying_roll_at if sheet.dying_roll_at is not None else sheet.clock
    ok, shown = _percent_roll(ctx, rs.dying.stabilise_chance, "Jet du mourant")
    if ok:
        ctx.say(f"{when} : {shown} — stabilisation sans assistance.")
        ctx.event("stabilised")
        return evolve(sheet, recovery="alone", recovery_roll_at=None, dying_roll_at=None)
    ctx.say(f"{when} : {shown} — s'enfonce.")
    sheet, _ = _lose(sheet, rs.dying.loss_per_round, rs, ctx, "Mourant")
    return evolve(sheet, dying_roll_at=due + rs.time_units["round"])


def _recovery_roll(sheet: D20Sheet, rs: D20Rules, ctx: Context) -> D20Sheet:
    rec = rs.recovery
    if pv_total(sheet, rs) >= rs.thresholds.disabled_at:
        # Temporary PV keep him above 0 for now: nothing to roll this hour (T4).
        interval = rec.alone_daily_interval_hours if sheet.recovery == "alone_awake" else rec.alone_interval_hours
        return evolve(sheet, recovery_roll_at=sheet.clock + _hours(rs, interval))
    if sheet.recovery == "assisted":
        # « Le personnage a 10 % de chances de reprendre connaissance … Si le jet est raté, on le rejoue
        #   toutes les heures. »
        ok, shown = _percent_roll(ctx, rec.assisted_wake_chance, "Reprendre connaissance (avec assistance)")
        if ok:
            ctx.say(f"Reprendre connaissance : {shown} — réveil, hors de combat.")
            return evolve(sheet, recovery="awake", recovery_roll_at=None)
        ctx.say(f"Reprendre connaissance : {shown} — pas de réveil.")
        return evolve(sheet, recovery_roll_at=sheet.clock + _hours(rs, rec.assisted_interval_hours))
    if sheet.recovery == "alone":
        # « Chaque heure, il a 10 % de chances de reprendre connaissance. Chaque fois qu'il rate ce jet, il
        #   perd 1 point de vie »
        ok, shown = _percent_roll(ctx, rec.alone_wake_chance, "Reprendre connaissance (sans assistance)")
        if ok:
            ctx.say(f"Reprendre connaissance : {shown} — réveil sans assistance, hors de combat.")
            return evolve(sheet, recovery="alone_awake", recovery_roll_at=None)
        ctx.say(f"Reprendre connaissance : {shown} — pas de réveil.")
        sheet, _ = _lose(sheet, rec.alone_loss, rs, ctx, "Sans assistance, ses blessures saignent")
        return evolve(sheet, recovery_roll_at=sheet.clock + _hours(rs, rec.alone_interval_hours))
    if sheet.recovery == "alone_awake":
        # « Chaque jour … 10 % de chances de commencer à récupérer des points de vie normalement. En cas
        #   d'échec, il rechute et perd 1 point de vie. »
        ok, shown = _percent_roll(ctx, rec.alone_daily_chance, "Commencer à récupérer (sans assistance)")
        if ok:
            ctx.say(f"Commencer à récupérer : {shown} — la guérison commence au rythme habituel, plus de perte de PV.")
            return evolve(sheet, recovery="awake", recovery_roll_at=None)
        ctx.say(f"Commencer à récupérer : {shown} — rechute.")
        sheet, _ = _lose(sheet, rec.alone_daily_loss, rs, ctx, "Rechute")
        return evolve(sheet, recovery_roll_at=sheet.clock + _hours(rs, rec.alone_daily_interval_hours))
    return evolve(sheet, recovery_roll_at=None)


def _nonlethal_recovery(sheet: D20Sheet, limit: int, rs: D20Rules, ctx: Context) -> D20Sheet:
    """« Les dégâts non-létaux disparaissent au rythme de 1 point par heure et par niveau global. »

    Every hourly tick up to ``limit`` (the next other event or the end) is applied at once."""
    per_hour = rs.nonlethal.recovery_per_hour_per_level * sheet.level
    start = sheet.nonlethal_heal_at
    hour = rs.time_units["hour"]
    if start is None or per_hour <= 0:
        return evolve(sheet, nonlethal_heal_at=None)
    possible = (limit - start) // hour + 1
    needed = -(-sheet.nonlethal // per_hour)
    ticks = max(1, min(possible, needed))
    healed = min(sheet.nonlethal, ticks * per_hour)
    left = sheet.nonlethal - healed
    last = start + (ticks - 1) * hour
    ctx.say(
        f"Dégâts non létaux : −{healed} en {plural(ticks, 'heure')} ({per_hour} par heure) : "
        f"{sheet.nonlethal} → {left}."
    )
    return evolve(sheet, clock=max(sheet.clock, last), nonlethal=left, nonlethal_heal_at=last + hour if left else None)


def _check_clock(end: int) -> None:
    if end > MAX_CLOCK:
        years = f"{MAX_CLOCK // 31_557_600:,}".replace(",", "\u202f")
        raise Refused(f"Le temps de la fiche ne peut pas dépasser {years} ans : ce temps ne passe pas.")


def _pass_time(sheet: D20Sheet, seconds: int, rs: D20Rules, ctx: Context) -> D20Sheet:
    """Let ``seconds`` pass: the dying rolls each round, the recovery rolls each hour or day, and the
    hourly recovery of nonlethal damage, in the order they fall due.

    A dying roll is due at the start of a round and made at the creature's turn in it, so a roll due at
    the very end is left to the next round (``StartTurn``, or the next advance): after a fall, « Le premier
    de ces jets a lieu le round suivant sa chute » (T29). Every other timer falls due up to the end."""
    start = sheet.clock
    end = start + seconds
    _check_clock(end)
    sheet = _settle(sheet, sheet, rs, ctx)
    round_s = rs.time_units["round"]
    events = 0
    while not sheet.dead:
        timers: list[tuple[int, int]] = []
        if sheet.dying_roll_at is not None:
            timers.append((sheet.dying_roll_at, 0))
        if sheet.recovery_roll_at is not None:
            timers.append((sheet.recovery_roll_at, 1))
        if sheet.nonlethal_heal_at is not None:
            timers.append((sheet.nonlethal_heal_at, 2))
        if not timers:
            break  # nothing timed: no list to filter (issue 15: most rounds of a fight)
        due = [t for t in timers if t[0] < end or (t[0] == end and t[1] != 0)]
        if not due:
            break
        at, kind = min(due)
        events += 1
        if events > EVENT_CAP:
            raise Refused("Trop d'événements à simuler d'un coup : avancez le temps par étapes.")
        before = sheet
        sheet = evolve(sheet, clock=max(sheet.clock, at))
        if kind == 0:
            sheet = _dying_roll(sheet, rs, ctx, f"Round {(at - start) // round_s + 1}")
        elif kind == 1:
            sheet = _recovery_roll(sheet, rs, ctx)
        else:
            others = [t for t, k in timers if k != 2]
            sheet = _nonlethal_recovery(sheet, min([end, *others]), rs, ctx)
        sheet = _settle(before, sheet, rs, ctx)
    # The sheet is settled here: the clock moved in the same settle (one copy, the last settle's figures kept).
    return _settle(sheet, sheet, rs, ctx, {"clock": max(sheet.clock, end)})


def _heal_abilities(sheet: D20Sheet, points: int, rs: D20Rules, ctx: Context) -> D20Sheet:
    """« Les caractéristiques temporairement affaiblies se régénèrent … 1 point par nuit de repos … et par
    caractéristique et de 2 points par journée complète de repos et par caractéristique. »"""
    changes: dict[str, int] = {}
    for ability in ABILITIES:
        damage_points: int = getattr(sheet, f"{ability}_damage")
        if damage_points and points:
            changes[f"{ability}_damage"] = max(0, damage_points - points)
            ctx.say(
                f"Affaiblissement {of(ABILITY_LABELS[ability])} : {damage_points} → {changes[f'{ability}_damage']}."
            )
    if not changes:
        return sheet
    return _con_changed(sheet, evolve(sheet, **changes), rs, ctx)


def _rest(
    sheet: D20Sheet,
    rs: D20Rules,
    ctx: Context,
    *,
    full_day: bool,
    hours: int,
    interrupted: bool,
    explicit: bool,
    counts_after: int | None = None,
) -> D20Sheet:
    """A night of rest (« 8 heures de sommeil ou plus »), a full day in bed, or a day ending with its night.

    The healing counts ``counts_after`` hours after the start (the end of the sleep or of the day in bed;
    the whole ``hours`` when not given) and only once a day (T14): an explicit rest too soon after the last
    healing one is refused, a day of ``AdvanceTime`` then passes without healing.
    """
    if full_day:
        label = "Journée complète de repos"
    elif explicit:
        label = "Nuit de repos"
    else:
        label = "Jour avec sa nuit de repos"
    state = state_id(sheet, rs)
    if state == "mourant":
        if explicit:
            raise Refused(
                f"{_name(sheet)} est à l'agonie : pas de repos possible. Stabilisez d'abord son état "
                f"(premiers secours DD {rs.dying.first_aid_dd}, sort de guérison)."
            )
        ctx.say(f"{label} : {_name(sheet)} est à l'agonie, ce n'est pas un repos ; le temps passe.")
        return _pass_time(sheet, _hours(rs, hours), rs, ctx)
    counts_at = sheet.clock + _hours(rs, hours if counts_after is None else counts_after)
    wait = _rest_wait(sheet, counts_at, rs)
    if wait and explicit:
        raise Refused(
            f"{label} : une seule guérison naturelle par période de {rs.healing.rest_interval_hours} h ; "
            f"ce repos pourra guérir en commençant dans {_hours_text(rs, wait)} (faites passer le temps d'ici là)."
        )
    ctx.say(f"{label} ({hours} h).")
    sheet = _pass_time(sheet, _hours(rs, hours), rs, ctx)
    if sheet.dead:
        return sheet
    if interrupted:
        # « Toute interruption conséquente durant ce repos empêche toute récupération pour cette nuit. »
        ctx.say("Repos interrompu : aucune récupération.")
        return sheet
    if wait:
        ctx.say(
            f"Pas de guérison naturelle ce jour-là : la précédente date de moins de "
            f"{rs.healing.rest_interval_hours} h (une seule par jour)."
        )
        return sheet
    if sheet.recovery in ("alone", "alone_awake"):
        # « il ne récupère pas de points de vie normalement »
        ctx.say(
            "Sans assistance ni soins : ni PV ni caractéristique ne reviennent tant que la guérison n'a pas commencé."
        )
        return sheet
    rested = evolve(sheet, last_rest_at=counts_at)
    per = rs.healing.full_day_per_level if full_day else rs.healing.night_per_level
    gain = per * sheet.level
    what = f"Guérison naturelle ({per} × niveau {sheet.level} = {gain})"
    sheet, _ = _heal_pv(rested, gain, rs, ctx, what=what, magical=False, rest=True)
    points = rs.healing.ability_per_full_day if full_day else rs.healing.ability_per_night
    sheet = _heal_abilities(sheet, points, rs, ctx)
    return _settle(rested, sheet, rs, ctx)


def _rest_wait(sheet: D20Sheet, counts_at: int, rs: D20Rules) -> int:
    """Seconds until a rest counting at ``counts_at`` could heal (0: it heals): one a day (T14)."""
    if sheet.last_rest_at is None:
        return 0
    return max(0, sheet.last_rest_at + _hours(rs, rs.healing.rest_interval_hours) - counts_at)


def _hours_text(rs: D20Rules, seconds: int) -> str:
    hour = rs.time_units["hour"]
    return plural(-(-seconds // hour), "heure")


@_settled_inside
def long_rest(sheet: D20Sheet, action: LongRest, ctx: Context) -> D20Sheet:
    """The night's rest (GLOSSARY: NightRest), through the common ``LongRest`` action."""
    rs: D20Rules = ctx.ruleset
    _alive(sheet, rs, "se reposer")
    if action.hours < rs.healing.night_hours:
        raise Refused(f"Une nuit de repos dure au moins {plural(rs.healing.night_hours, 'heure')} de sommeil.")
    return _rest(
        sheet,
        rs,
        ctx,
        full_day=False,
        hours=action.hours,
        interrupted=action.interrupted,
        explicit=True,
        counts_after=rs.healing.night_hours,
    )


@_settled_inside
def full_day_rest(sheet: D20Sheet, action: FullDayRest, ctx: Context) -> D20Sheet:
    rs: D20Rules = ctx.ruleset
    _alive(sheet, rs, "se reposer")
    hours = rs.healing.full_day_hours
    return _rest(sheet, rs, ctx, full_day=True, hours=hours, interrupted=action.interrupted, explicit=True)


def _nothing_pending(sheet: D20Sheet, rs: D20Rules) -> bool:
    """Nothing more that rest or time could change (so the remaining nights can be skipped at once)."""
    no_damage = all(getattr(sheet, f"{a}_damage") == 0 for a in ABILITIES)
    return (
        sheet.current >= maximum(sheet, rs)
        and sheet.nonlethal == 0
        and no_damage
        and sheet.dying_roll_at is None
        and sheet.recovery_roll_at is None
    )


def _plain_healing(sheet: D20Sheet, rs: D20Rules) -> bool:
    """Rests that only heal PV, the same way each time (no roll due, no nonlethal, no ability damage)."""
    no_damage = all(getattr(sheet, f"{a}_damage") == 0 for a in ABILITIES)
    return (
        no_damage
        and sheet.nonlethal == 0
        and sheet.dying_roll_at is None
        and sheet.recovery_roll_at is None
        and sheet.recovery in ("", "awake")
        and state_id(sheet, rs) != "mourant"
    )


def _rest_many(sheet: D20Sheet, rs: D20Rules, ctx: Context, *, full_day: bool, count: int, seconds: int) -> D20Sheet:
    """``count`` rests in a row that only heal PV: worked out at once (a GM may pass a season).

    Only for days at least as long as the interval between healings, the first of which may heal."""
    per = rs.healing.full_day_per_level if full_day else rs.healing.night_per_level
    label = (
        plural(count, "journée complète de repos", "journées complètes de repos")
        if full_day
        else plural(count, "jour avec sa nuit de repos", "jours avec leur nuit de repos")
    )
    before = sheet
    end = sheet.clock + count * seconds
    _check_clock(end)
    sheet = evolve(sheet, clock=end, last_rest_at=end)
    what = f"{label}, guérison naturelle ({per} × niveau {sheet.level} chacune)"
    sheet, _ = _heal_pv(sheet, count * per * sheet.level, rs, ctx, what=what, magical=False, rest=True)
    return _settle(before, sheet, rs, ctx)


@_settled_inside
def advance_time(sheet: D20Sheet, action: AdvanceTime, ctx: Context) -> D20Sheet:
    rs: D20Rules = ctx.ruleset
    if action.unit not in rs.time_units:
        units = ", ".join(rs.time_labels.get(u, u) for u in rs.time_units)
        raise Refused(f"Unité de temps inconnue : « {action.unit} » (attendu : {units}).")
    label = rs.time_labels.get(action.unit, action.unit)
    unit_s = rs.time_units[action.unit]
    ctx.say(f"Le temps passe : {action.count} × {label}.")
    if action.unit in ("night", "full_day") and not is_dead(sheet, rs):
        full_day = action.unit == "full_day"
        hours = unit_s // rs.time_units["hour"]
        end = sheet.clock + action.count * unit_s
        for done in range(action.count):
            if sheet.dead or _nothing_pending(sheet, rs):
                break
            batch = unit_s >= _hours(rs, rs.healing.rest_interval_hours) and not _rest_wait(
                sheet, sheet.clock + unit_s, rs
            )
            if batch and _plain_healing(sheet, rs):
                sheet = _rest_many(sheet, rs, ctx, full_day=full_day, count=action.count - done, seconds=unit_s)
                break
            sheet = _rest(sheet, rs, ctx, full_day=full_day, hours=hours, interrupted=False, explicit=False)
        if sheet.clock < end:
            if not sheet.dead:
                ctx.say("Plus rien à récupérer : le reste du temps passe sans changement.")
            sheet = _pass_time(sheet, end - sheet.clock, rs, ctx)
        return sheet
    return _pass_time(sheet, action.count * unit_s, rs, ctx)


@_settled_inside
def start_turn(sheet: D20Sheet, action: StartTurn, ctx: Context) -> D20Sheet:
    """« Lors de chacun de ses tours de jeu, un personnage mourant doit lancer 1d100 » — the GM table's
    « Tour suivant »: the dying roll of this round, if due (not in the round of the fall). The clock does not
    move; ``EndRound`` then passes the round (T29)."""
    rs: D20Rules = ctx.ruleset
    if sheet.dead:
        return sheet
    clock = sheet.clock
    limit = clock + rs.time_units["round"]
    if sheet.dying_roll_at is not None and sheet.dying_roll_at >= limit:
        wait = _next_roll_words(sheet.dying_roll_at - clock, rs)
        ctx.say(f"Début du tour : pas de jet du mourant ce round-ci (le prochain {wait}).")
    events = 0
    while not sheet.dead and sheet.dying_roll_at is not None and sheet.dying_roll_at < limit:
        events += 1
        if events > EVENT_CAP:
            raise Refused("Trop d'événements à simuler d'un coup : avancez le temps par étapes.")
        before = sheet
        sheet = evolve(sheet, clock=max(clock, sheet.dying_roll_at))
        sheet = _settle(before, _dying_roll(sheet, rs, ctx, "Début du tour"), rs, ctx)
    return evolve(sheet, clock=clock) if sheet.clock != clock else sheet


def _next_roll_words(wait: int, rs: D20Rules) -> str:
    rounds = -(-wait // rs.time_units["round"])
    return f"dans {plural(rounds, 'round')}"


@_settled_inside
def end_round(sheet: D20Sheet, action: EndRound, ctx: Context) -> D20Sheet:
    """The GM table's « Round suivant »: one round passes for this creature, with what its ``StartTurn`` did not
    already do (a dying roll it did not make, an hourly recovery falling in the round) (T29)."""
    rs: D20Rules = ctx.ruleset
    ctx.say("Fin du round.")
    return _pass_time(sheet, rs.time_units["round"], rs, ctx)
