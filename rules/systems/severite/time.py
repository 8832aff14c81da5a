"""Time in Sévérité: turns going by, rests, the clock."""

from __future__ import annotations

from rules.actions import AdvanceTime, EndRound, LongRest, StartTurn
from rules.errors import Refused
from rules.model import Context, evolve, plural, with_values
from rules.systems.severite.gauge import (
    _alive,
    _end_conflict,
    _heal_away,
    _name,
    _turn_timer,
    condition_label,
    trauma,
    unknown,
    wound_label,
)
from rules.systems.severite.sheet import SeveriteSheet, TurnTimer, Wound
from rules.systems.severite.table import SeveriteRules


def _pass_turns(sheet: SeveriteSheet, turns: int, rs: SeveriteRules, ctx: Context, clock: int) -> SeveriteSheet:
    """``turns`` ends of turn go by: turn-bound conditions count down and end; the clock reads ``clock`` (issue 15,
    session 8: one copy of the sheet for both)."""
    if turns <= 0 or not sheet.turn_timers:
        return evolve(sheet, clock=clock)
    kept: list[TurnTimer] = []
    ended: list[str] = []
    for timer in sheet.turn_timers:
        if timer.turns > turns:
            # ``evolve(timer, turns=…)``: the timers are built once and shared (issue 15, session 8)
            kept.append(_turn_timer(timer.condition, timer.turns - turns))
        else:
            ended.append(timer.condition)
    if ended:
        ctx.say("Prend fin : " + ", ".join(condition_label(c, rs) for c in ended) + ".")
    return evolve(
        sheet,
        conditions=tuple(c for c in sheet.conditions if c not in ended),
        turn_timers=tuple(kept),
        clock=clock,
    )


def rest(sheet: SeveriteSheet, action: LongRest, ctx: Context) -> SeveriteSheet:
    """« Lors de son prochain repos le personnage verra sa jauge de Trauma diminuer d'un cran pour
    chaque Blessure traitée. » Untreated wounds « ne guériront pas avec du repos »."""
    rs: SeveriteRules = ctx.ruleset
    rules = rs.rest
    hour = rs.time_units["hour"]
    _alive(sheet, "se reposer")
    if action.hours < rules.min_hours:
        raise Refused(f"Un repos dure au moins {plural(rules.min_hours, 'heure')}.")
    end = sheet.clock + action.hours * hour
    if sheet.last_rest_end is not None and rules.cooldown_hours:
        since = end - sheet.last_rest_end
        if since < rules.cooldown_hours * hour:
            wait = rules.cooldown_hours * hour - since
            raise Refused(
                f"Un seul repos par période de {rules.cooldown_hours} heures : encore {-(-wait // hour)} h à attendre."
            )
    if rules.ends_conflict:
        sheet = _end_conflict(sheet, rs, ctx, "Le repos met fin au Conflit")
    sheet = _pass_turns(sheet, action.hours * hour // rs.time_units["turn"], rs, ctx, end)
    if action.interrupted:
        ctx.say(f"Repos interrompu : {plural(action.hours, 'heure')} sans bénéfice.")
        return sheet
    ctx.say(f"Repos de {plural(action.hours, 'heure')}.")
    before = trauma(sheet)
    per = rules.notches_per_treated_wound
    wounds: list[Wound] = []
    healed: list[Wound] = []
    lowered: list[str] = []
    untreated: list[str] = []
    for wound in sheet.wounds:
        if wound.treatment is None:
            untreated.append(wound_label(wound, rs))
            wounds.append(wound)
            continue
        drop = min(per, wound.notches)
        left = wound.notches - drop
        if drop:
            lowered.append(f"{wound_label(wound, rs)} {wound.notches} → {left}")
        if left == 0:
            healed.append(evolve(wound, notches=0))
        else:
            wounds.append(evolve(wound, notches=left))
    sheet = evolve(sheet, wounds=tuple(wounds), last_rest_end=end)
    after = trauma(sheet)
    if lowered:
        ctx.say(f"Blessures traitées : jauge de Trauma {before} → {after} (" + " ; ".join(lowered) + ").")
    elif not healed:
        ctx.say("Aucune blessure traitée : la jauge de Trauma ne baisse pas.")
    if untreated:
        ctx.say("Non traitées, elles ne guérissent pas avec le repos : " + ", ".join(untreated) + ".")
    return _heal_away(sheet, healed, rs, ctx)


def advance_time(sheet: SeveriteSheet, action: AdvanceTime, ctx: Context) -> SeveriteSheet:
    rs: SeveriteRules = ctx.ruleset
    unit, count = action.unit, action.count
    units = rs.time_units
    if unit not in units:
        raise unknown("Unité de temps inconnue", unit, (rs.time_labels.get(k, k) for k in units))
    seconds = count * units[unit]
    label = rs.time_labels.get(unit, unit)
    # ``ctx.say``, the line not secret (issue 15, session 7: a Python call less); kept (session 8).
    line = _PASSING.get((count, label))
    ctx.log.append(_passing(count, label) if line is None else line)
    if sheet.turn_timers:  # ``_pass_turns`` has nothing to count down without them
        return _pass_turns(sheet, seconds // units["turn"], rs, ctx, sheet.clock + seconds)
    # ``evolve(sheet, clock=sheet.clock + seconds)``, no keywords (issue 15, session 9: ~1,000 CPU instructions less)
    values = sheet.__dict__.copy()
    values["clock"] += seconds
    return with_values(sheet, values)


# « Le temps passe : 1 tour. » by (count, unit's label) (issue 15, session 8: made once, not formatted each time).
_PASSING: dict[tuple[int, str], str] = {}


def _passing(count: int, label: str) -> str:
    """``advance_time``'s line, made and kept in ``_PASSING``."""
    line = f"Le temps passe : {count} {label}{'s' if count > 1 else ''}."
    if len(_PASSING) >= 1024:
        _PASSING.clear()
    _PASSING[count, label] = line
    return line


def start_turn(sheet: SeveriteSheet, action: StartTurn, ctx: Context) -> SeveriteSheet:
    """The start of this character's turn in a Conflict (the GM table's « Tour suivant »).

    No rule of the seed acts at the start of a turn: what lasts « jusqu'à la fin du prochain tour » counts
    ends of turn (``end_round``). The journal tells the table whether the character may act this turn and
    why not (note V23); the sheet does not change.
    """
    rs: SeveriteRules = ctx.ruleset
    name = _name(sheet)
    if sheet.dead:
        ctx.say(f"Début du tour : {name} n'est plus en vie.")
        return sheet
    timers = {t.condition: t.turns for t in sheet.turn_timers}
    idle = []
    for cid in sheet.conditions:
        rule = rs.conditions.get(cid)
        if rule is None or not rule.no_action:
            continue
        if cid in timers:
            idle.append(f"{rule.label}, encore {plural(timers[cid], 'fin de tour', 'fins de tour')}")
        elif rule.duration == "conflict":
            idle.append(f"{rule.label}, jusqu'à la fin du Conflit")
        else:
            idle.append(rule.label)
    if idle:
        ctx.say(f"Début du tour de {name} : pas d'Action ce tour-ci (" + " ; ".join(idle) + ").")
    else:
        ctx.say(f"Début du tour de {name} : peut agir.")
    return sheet


def end_round(sheet: SeveriteSheet, action: EndRound, ctx: Context) -> SeveriteSheet:
    """The end of one turn for this character (the GM table's « Round suivant »; Sévérité's round unit is
    the turn): turn-bound conditions count one end of turn and may end, the clock moves one turn. With
    ``start_turn`` before it, the same as ``AdvanceTime(unit="turn")`` (note V23)."""
    rs: SeveriteRules = ctx.ruleset
    seconds = rs.time_units["turn"]
    ctx.say(f"Fin du tour ({rs.time_labels.get('turn', 'tour')} de {seconds} s).")
    return _pass_turns(sheet, 1, rs, ctx, sheet.clock + seconds)
