"""States that last a while and end on their own as time passes, for every system (issue 10, item 23).

One mechanism, called by the facade (``rules.apply``) around each system's own handlers, so no system
module changes:

- ``SetCondition(condition=…, duration=3, unit="round")`` puts the state through the system's own
  handler, then notes when it ends (``SheetBase.condition_timers``: the sheet's clock, in seconds, at
  which it ends). ``until_conflict_end=True`` instead: « jusqu'à la fin du Conflit » (systems that have
  a Conflict to end, i.e. an ``EndConflict`` action).
- After any action that moves the clock, every state whose time is up ends through the system's own
  ``SetCondition(active=False)`` handler, and the journal says so with the time. ``AdvanceTime`` is cut
  at each end, so the rest of the time passes without the state (a « +8 heures » after « Étourdi pour
  3 rounds » does not keep it 8 hours).
- A state taken off by hand or by the rules loses its timer; ``EndConflict`` ends the « fin du
  Conflit » ones.

``countdowns`` lists what is counting down on a sheet, these timers and the systems' own (Sévérité's
turns and Conflict-long states, Douaratil's waking), in one French wording, for the sheet to show.
``format_clock`` writes the sheet's clock (journal entries, the sheet's header).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rules.actions import Action, AdvanceTime, SetCondition
from rules.errors import Refused
from rules.model import ConditionTimer, Context, evolve
from rules.record import Record, _set

Handler = Callable[[Any, Any, Context], Any]

DAY = 86_400


def format_clock(seconds: int) -> str:
    """The sheet's clock as a French date: ``jour 1, 00:00:06`` (the clock starts at day 1, 00:00:00)."""
    seconds = max(int(seconds), 0)
    day, rest = divmod(seconds, DAY)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    return f"jour {day + 1}, {hours:02d}:{minutes:02d}:{secs:02d}"


def unit_seconds(table: Any, unit: str) -> int | None:
    units = getattr(table, "time_units", None)
    if isinstance(units, Mapping) and unit in units:
        return int(units[unit])
    return None


def unit_label(table: Any, unit: str) -> str:
    labels = getattr(table, "time_labels", None)
    if isinstance(labels, Mapping) and unit in labels:
        return str(labels[unit])
    return {
        "round": "round",
        "segment": "segment",
        "turn": "tour",
        "minute": "minute",
        "hour": "heure",
        "day": "jour",
    }.get(unit, unit)


def amount_of(count: int, label: str) -> str:
    """``3 rounds``, ``1 heure``, ``2 × nuit de repos`` (a label of several words is not put in the plural)."""
    if " " in label:
        return f"{count} × {label}"
    if count > 1 and not label.endswith(("s", "x")):
        label += "s"
    return f"{count} {label}"


def _condition_label(table: Any, condition: str) -> str:
    rules_ = getattr(table, "conditions", None)
    if isinstance(rules_, Mapping) and condition in rules_:
        return str(getattr(rules_[condition], "label", condition))
    return condition


def _posed(sheet: Any) -> tuple[str, ...]:
    return tuple(getattr(sheet, "conditions", ()) or ())


def has_conflict(handlers: Mapping[type[Action], Handler]) -> bool:
    return any(getattr(t.model_fields.get("kind"), "default", None) == "end_conflict" for t in handlers)


def check(action: SetCondition, table: Any, handlers: Mapping[type[Action], Handler]) -> None:
    """Refuse, in French, a duration the system cannot count (before anything is applied)."""
    a = action.__dict__  # read once (issue 15: every state put or taken off comes here)
    if a["duration"] is None and a["unit"] is None and not a["until_conflict_end"]:
        return  # no duration asked: nothing to check (what the branches below conclude)
    if not action.active:
        if action.duration is not None or action.until_conflict_end:
            raise Refused("Une durée ne se donne qu'en posant un état, pas en le retirant.")
        return
    if action.until_conflict_end:
        if action.duration is not None:
            raise Refused("Donnez une durée ou « jusqu'à la fin du Conflit », pas les deux.")
        if not has_conflict(handlers):
            raise Refused("Ces règles n'ont pas de fin de Conflit : donnez une durée (rounds, minutes, heures…).")
        return
    if action.duration is None:
        if action.unit is not None:
            raise Refused("Une unité de temps sans durée : donnez aussi le nombre (3 rounds, 1 heure…).")
        return
    if action.unit is None:
        raise Refused("Une durée sans unité : précisez rounds, minutes, heures…")
    if unit_seconds(table, action.unit) is None:
        known = ", ".join(getattr(table, "time_units", {}) or {})
        raise Refused(f"Unité de temps inconnue : « {action.unit} » (unités : {known}).")


def after_set_condition(sheet: Any, action: SetCondition, ctx: Context) -> Any:
    """Note the timer of a state just put for a while (or drop the one of a state taken off)."""
    a = action.__dict__
    if a["duration"] is None and not a["until_conflict_end"]:
        if a["active"] or not getattr(sheet, "condition_timers", ()):
            return sheet  # no duration, no timer to drop (issue 15: the common case, without the rest)
    timers = tuple(getattr(sheet, "condition_timers", ()) or ())
    cid = action.condition
    if not action.active:
        if any(t.condition == cid for t in timers):
            return evolve(sheet, condition_timers=tuple(t for t in timers if t.condition != cid))
        return sheet
    if cid not in _posed(sheet) or (action.duration is None and not action.until_conflict_end):
        return sheet
    label = _condition_label(ctx.ruleset, cid)
    if action.until_conflict_end:
        timer = ConditionTimer(condition=cid, ends_at=None, unit="", label="jusqu'à la fin du Conflit")
        ctx.say(f"{label} : jusqu'à la fin du Conflit.")
    else:
        assert action.duration is not None and action.unit is not None
        seconds = unit_seconds(ctx.ruleset, action.unit) or 0
        ends_at = sheet.clock + action.duration * seconds
        old = next((t for t in timers if t.condition == cid and t.ends_at is not None), None)
        if old is not None and old.ends_at is not None and old.ends_at > ends_at:
            ctx.say(f"{label} : la durée en cours, plus longue, est gardée (fin à {format_clock(old.ends_at)}).")
            return sheet
        amount = amount_of(action.duration, unit_label(ctx.ruleset, action.unit))
        timer = ConditionTimer(condition=cid, ends_at=ends_at, unit=action.unit, label=amount)
        ctx.say(f"{label} : pour {amount} (fin à {format_clock(ends_at)}).")
    return evolve(sheet, condition_timers=(*(t for t in timers if t.condition != cid), timer))


def expire(
    sheet: Any,
    ctx: Context,
    handlers: Mapping[type[Action], Handler],
    *,
    conflict_over: bool = False,
) -> Any:
    """End, through the system's own handler, every state whose time is up (and, ``conflict_over``, those
    « jusqu'à la fin du Conflit »); forget the timers of states no longer there."""
    timers = tuple(getattr(sheet, "condition_timers", ()) or ())
    if not timers:
        return sheet
    posed = set(_posed(sheet))
    due = [t for t in timers if t.ends_at is not None and t.ends_at <= sheet.clock and t.condition in posed]
    if conflict_over:
        due += [t for t in timers if t.ends_at is None and t.condition in posed]
    kept = tuple(t for t in timers if t.condition in posed and t not in due)
    if kept != timers:
        sheet = evolve(sheet, condition_timers=kept)
    handler = handlers.get(SetCondition)
    for timer in sorted(due, key=lambda t: (t.ends_at is None, t.ends_at or 0, t.condition)):
        label = _condition_label(ctx.ruleset, timer.condition)
        when = "fin du Conflit" if timer.ends_at is None else format_clock(timer.ends_at)
        ctx.say(f"{label} prend fin : {timer.label} écoulé(s) ({when}).")
        if handler is None:
            continue
        try:
            sheet = handler(sheet, SetCondition(condition=timer.condition, active=False), ctx)
        except Refused as exc:
            ctx.say(f"{label} reste en place : {exc.reason}")
    return sheet


def advance(
    sheet: Any,
    action: AdvanceTime,
    ctx: Context,
    handler: Handler,
    handlers: Mapping[type[Action], Handler],
    table: Any,
) -> Any:
    """The system's ``AdvanceTime`` handler, cut at each timer's end (rounded up to the action's unit),
    the states whose time is up ended between the parts: the rest of the time passes without them."""
    seconds = unit_seconds(table, action.unit)
    remaining = action.count
    while remaining > 0:
        ends = [
            t.ends_at
            for t in getattr(sheet, "condition_timers", ()) or ()
            if t.ends_at is not None and t.ends_at > sheet.clock
        ]
        step = remaining
        if ends and seconds:
            step = max(1, min(remaining, -(-(min(ends) - sheet.clock) // seconds)))
        before = sheet.clock
        part = action if step == action.count else action.model_copy(update={"count": step})
        sheet = expire(handler(sheet, part, ctx), ctx, handlers)
        remaining -= step
        if sheet.clock == before:  # time no longer passes (death): nothing left to cut
            break
    if remaining > 0:
        sheet = handler(sheet, action.model_copy(update={"count": remaining}), ctx)
    return sheet


def shown(timers: Any, table: Any) -> str:
    """The timers as the journal of an edit names them: « Étourdi (fin à jour 1, 00:01:00) »."""
    parts = []
    for timer in timers or ():
        label = _condition_label(table, timer.condition)
        end = "fin du Conflit" if timer.ends_at is None else f"fin à {format_clock(timer.ends_at)}"
        parts.append(f"{label} ({end})")
    return ", ".join(parts) or "aucune"


def edit_line(before: Any, after: Any, table: Any) -> str:
    return f"Durées des états : {shown(before, table)} → {shown(after, table)}."


def problems(sheet: Any, table: Any) -> list[tuple[tuple[str | int, ...], str]]:
    """What a stored sheet's timers may not hold: a state the table does not know, two timers for one
    state, an end before the sheet's clock (it would have ended), an unknown unit."""
    found: list[tuple[tuple[str | int, ...], str]] = []
    known = getattr(table, "conditions", None)
    seen: set[str] = set()
    for i, timer in enumerate(getattr(sheet, "condition_timers", ()) or ()):
        where: tuple[str | int, ...] = ("condition_timers", i)
        if isinstance(known, Mapping) and timer.condition not in known:
            found.append(((*where, "condition"), f"état inconnu « {timer.condition} »"))
        if timer.condition in seen:
            found.append(((*where, "condition"), f"l'état « {timer.condition} » a deux durées"))
        seen.add(timer.condition)
        if timer.ends_at is not None and timer.ends_at < sheet.clock:
            found.append(((*where, "ends_at"), "la fin de cette durée est passée (avant l'horloge de la fiche)"))
        if timer.unit and unit_seconds(table, timer.unit) is None:
            found.append(((*where, "unit"), f"unité de temps inconnue « {timer.unit} »"))
    return found


class Countdown(Record):
    """Something counting down on a sheet: a state's end, or a system's own wait."""

    __slots__ = ("condition", "label", "text", "left")  # noqa: RUF023  (the fields, in order)
    condition: str | None
    label: str
    text: str
    # Seconds of the sheet's clock left (None: counted otherwise, e.g. « jusqu'à la fin du Conflit »).
    left: int | None

    def __init__(self, condition: str | None, label: str, text: str, left: int | None = None) -> None:
        _set(self, "condition", condition)
        _set(self, "label", label)
        _set(self, "text", text)
        _set(self, "left", left)


def countdowns(sheet: Any, table: Any) -> tuple[Countdown, ...]:
    """Everything counting down on ``sheet``, in one wording: the timed states (this module's), and the
    systems' own waits read from their sheets (Sévérité's turns and Conflict-long states, Douaratil's
    waking)."""
    found: list[Countdown] = []
    posed = _posed(sheet)
    timed = set()
    for timer in getattr(sheet, "condition_timers", ()) or ():
        if timer.condition not in posed:
            continue
        label = _condition_label(table, timer.condition)
        timed.add(timer.condition)
        if timer.ends_at is None:
            found.append(Countdown(timer.condition, label, "jusqu'à la fin du Conflit"))
            continue
        left = max(timer.ends_at - sheet.clock, 0)
        seconds = unit_seconds(table, timer.unit) or 1
        count = -(-left // seconds)
        text = f"encore {amount_of(count, unit_label(table, timer.unit))} (fin à {format_clock(timer.ends_at)})"
        found.append(Countdown(timer.condition, label, text, left))
    # Sévérité: « N fins de tour », and the states that last until the end of the Conflict.
    turn_seconds = unit_seconds(table, "turn") or 0
    for timer in getattr(sheet, "turn_timers", ()) or ():
        cid = getattr(timer, "condition", "")
        turns = int(getattr(timer, "turns", 0) or 0)
        if cid in posed and cid not in timed:
            left = turns * turn_seconds if turn_seconds else None
            word = "fin de tour" if turns == 1 else "fins de tour"
            found.append(Countdown(cid, _condition_label(table, cid), f"encore {turns} {word}", left))
            timed.add(cid)
    rules_ = getattr(table, "conditions", None)
    if isinstance(rules_, Mapping):
        for cid in posed:
            if cid not in timed and getattr(rules_.get(cid), "duration", None) == "conflict":
                found.append(Countdown(cid, _condition_label(table, cid), "jusqu'à la fin du Conflit"))
    # Douaratil: a stabilised character regains a point after a while.
    wake_in = getattr(sheet, "wake_in", None)
    if isinstance(wake_in, int) and not getattr(sheet, "dead", False):
        hour = unit_seconds(table, "hour") or 3600
        hours = -(-wake_in // hour)
        found.append(Countdown(None, "Réveil", f"regagne des points dans {amount_of(hours, 'heure')}", wake_in))
    return tuple(found)
