"""d20 handlers: one per action, each ending with ``_settle`` (states, deaths, timers made coherent)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from rules.actions import (
    Action,
    ClearConditions,
    Damage,
    GainTemporary,
    Heal,
    LoseTemporary,
    SetCondition,
    Stabilise,
)
from rules.errors import Refused
from rules.labels import ABILITIES, ABILITY_LABELS
from rules.model import (
    MAX_POINTS,
    Context,
    Term,
    evolve,
    explained_sum,
    fmt_int,
    of,
    plural,
    signed,
    with_values,
)
from rules.systems.d20.actions import (
    AbilityDamage,
    AddLocalWound,
    HealLocalWound,
    RestoreAbility,
    Resurrection,
    SetConstitutionBonus,
    StrenuousAction,
)
from rules.systems.d20.derive import (
    SETTLED,
    Figures,
    _dd_terms,
    _part_label,
    ability_score,
    constitution_pv,
    death_cause,
    death_pv,
    effective_conditions,
    figures,
    is_dead,
    known,
    maximum,
    maximum_of,
    pv_total,
    resurrection_dd,
    state_id,
    state_words,
)
from rules.systems.d20.sheet import (
    MAX_COUNT,
    MAX_SCORE,
    MAX_WOUND_ID,
    MAX_WOUNDS,
    SHEET_LABELS,
    D20Sheet,
    LocalWound,
    _points,
)
from rules.systems.d20.table import STATE_IDS, D20Rules, Procedure

BYPASS: tuple[Procedure, ...] = ("resurrection_supreme", "souhait")
# Changes a handler leaves to ``_settle`` to make (with its own, in one copy of the sheet).
Changes = dict[str, Any]


def _name(sheet: D20Sheet) -> str:
    return sheet.__dict__["name"] or "Le personnage"


def _alive(sheet: D20Sheet, rs: D20Rules, what: str) -> None:
    # Worded without gender: the sheet does not say how to refer to the character (« Brenna meurt »).
    last = SETTLED[0]
    if last[0] is sheet and last[1] is rs:
        return  # ``is_dead`` without the call: the last settle gave ``sheet`` alive
    if known(sheet, rs) is None:  # ``is_dead``, and what it finds kept for the settle to come (issue 15)
        raise Refused(f"{_name(sheet)} a perdu la vie : {what} impossible.")


def _hours(rs: D20Rules, count: int) -> int:
    return count * rs.time_units["hour"]


def _percent_roll(ctx: Context, chance: int, what: str) -> tuple[bool, str]:
    """A d100 roll against a chance in %; success when the die shows ``chance`` or less."""
    rs: D20Rules = ctx.ruleset
    roll = ctx.dice(1, rs.general.percent_die, what)
    ok = roll.total <= chance
    return ok, f"{roll.detail} {'≤' if ok else '>'} {chance}"


def _check(ctx: Context, what: str, modifier: int, dd: int, *, save: bool = False) -> bool:
    """A d20 test: 1d20 + modifier against a DD (saves: natural 20 succeeds, natural 1 fails)."""
    rs: D20Rules = ctx.ruleset
    die = rs.general.check_die
    roll = ctx.dice(1, die, what)
    total = roll.total + modifier
    ok = total >= dd
    note = ""
    if save and roll.total == die and rs.general.natural_max_save_succeeds:
        ok, note = True, f" ({die} naturel)"
    elif save and roll.total == 1 and rs.general.natural_one_save_fails:
        ok, note = False, " (1 naturel)"
    shown = f"{roll.detail} {signed(modifier)} = {total}" if modifier else roll.detail
    ctx.say(f"{what} : {shown} contre DD {dd}{note} → {'réussite' if ok else 'échec'}.")
    return ok


# --- Transitions: after every change, dead/dying/stable/timers are made coherent and the journal told ---


def _die(sheet: D20Sheet, ctx: Context, cause: str) -> D20Sheet:
    ctx.say(f"{_name(sheet)} meurt ({cause}).")
    ctx.event("died")
    return evolve(
        sheet,
        dead=True,
        death_cause=cause,
        recovery="",
        dying_roll_at=None,
        recovery_roll_at=None,
        nonlethal_heal_at=None,
    )


# States from best to worst; a change to a worse state is news for the UI (events), a change out of
# unconsciousness is a wake-up.
STATE_RANK = {name: rank for rank, name in enumerate(STATE_IDS)}
WORSE_NEWS = {
    "chancelant": "staggered",
    "hors_de_combat": "fell",
    "inconscient": "unconscious",
    "mourant": "dying",
}
UNCONSCIOUS = ("inconscient", "stabilise", "mourant")


def _settle(before: D20Sheet, sheet: D20Sheet, rs: D20Rules, ctx: Context, pending: Changes | None = None) -> D20Sheet:
    """Make the sheet coherent after a change and say in the journal what its state became.

    ``pending``: changes of the handler not yet made to ``sheet`` (they and this settle's make one copy).
    Runs after every action, often several times (each hit, each timed roll): kept lean (issue 15): the
    figures are read once, the state worked out once, the sheet copied at most once; when ``sheet`` is the one
    the last settle gave and the changes leave its Constitution, maximum and life as they were, what that
    settle found of them is taken as it is."""
    # One read of one tuple (another thread's settle cannot mix into it): the last record's sheet, table, state,
    # maximum, figures, Constitution in play, death threshold, and whether a settle gave it (``known`` records
    # the facts of a sheet no settle gave: the same facts, but that sheet may still need the settle's changes).
    last_sheet, last_rs, last_state, top, f, played, dies_at, settled = SETTLED[0]
    found = last_sheet is sheet and last_rs is rs
    d = sheet.__dict__
    if pending:
        v = {**d, **pending}
        if found and _QUICK_FIELDS.issuperset(pending):  # ``pending.keys() <= _QUICK_FIELDS``, a third cheaper
            quick = True  # fields of the sheet's own: ``v`` has no other
        else:
            quick = False
            if len(v) != len(d):
                raise AttributeError(f"D20Sheet has no field {sorted(pending.keys() - d.keys())}")
        # The changes are made in ``v``, the copy (one dict, no ``update``).
        changes: Changes = v
    elif before is sheet and found and settled:
        return before  # what a settle gave is settled: a second one would change and say nothing
    else:
        v = d
        quick = found
        changes = {}
    current = v["current"]
    # When ``quick``, the last settle gave ``sheet`` alive with these figures, this maximum, this Constitution in
    # play and this death threshold, and the changes leave them as they were.
    if not quick:
        f = figures(rs)
        con, bonus = v["constitution"], v["constitution_bonus"]
        damage, drain = v["constitution_damage"], v["constitution_drain"]
        played = con + bonus - damage - drain
        if bonus or damage or drain:
            if not (v is not d and found and _TOP_FIELDS.isdisjoint(pending)):  # type: ignore[arg-type]
                # else the last settle gave ``sheet`` this maximum, and the changes leave it as it was
                top = maximum_of(v["base_maximum"], v["level"], con, played, f)
        else:
            top = v["base_maximum"]  # ``maximum`` without a Constitution change, without the call
        dies_at = MAX_POINTS  # not known yet: ``death_cause`` decides
    if current > top:
        # « Quelle que soit la méthode utilisée, il est impossible de dépasser son maximum » — the dead too
        # (a lower maximum by an edit or a lower Constitution).
        ctx.say(f"PV ramenés au maximum : {fmt_int(current)} → {top}.")
        changes["current"] = current = top
    temporary, noted = v["temporary"], v["temporary_noted"]
    if noted is not None and temporary == 0:
        changes["temporary_noted"] = noted = None
    if not quick and v["dead"]:
        return _made(sheet, v, changes)  # ``changes`` is ``v`` when ``v`` is a copy
    recovery, recovery_at = v["recovery"], v["recovery_roll_at"]
    zero = f.zero
    if current >= zero and (recovery or recovery_at is not None):
        # « S'il remonte à 1 point de vie ou plus … comme s'il n'avait jamais été mourant » (and at 0:
        # « il reprend conscience mais est hors de combat »): the stabilisation story is over.
        changes["recovery"] = recovery = ""
        changes["recovery_roll_at"] = recovery_at = None
    cause = death_cause(played, current, f) if current <= dies_at else ""
    if cause:
        # What ``_die`` does (it tells the journal and stops every timer), in the same copy.
        ctx.say(f"{v['name'] or 'Le personnage'} meurt ({cause}).")
        ctx.event("died")
        changes.update(DEATH)
        changes["death_cause"] = cause
        return _made(sheet, v, changes)
    if not quick:
        dies_at = death_pv(played, f)
    total = current + temporary if f.count_temporary else current
    nonlethal = v["nonlethal"]
    # ``living_state(total, nonlethal, recovery, v["conditions"], zero)`` without the call (issue 15: once per
    # action); the same tests in the same order.
    conditions = v["conditions"]
    if total < zero:
        if recovery == "":
            state1 = "mourant"
        elif recovery == "assisted" or recovery == "alone":
            state1 = "stabilise"
        elif nonlethal > 0 or "inconscient" in conditions:
            state1 = "inconscient"
        else:
            state1 = "hors_de_combat"
    elif (nonlethal > 0 and nonlethal > total) or "inconscient" in conditions:
        state1 = "inconscient"
    elif total == zero:
        state1 = "hors_de_combat"
    elif (nonlethal > 0 and nonlethal == total) or "chancelant" in conditions:
        state1 = "chancelant"
    else:
        state1 = "en_forme"
    if last_sheet is before and last_rs is rs:
        state0 = last_state  # ``before`` is the sheet the last settle gave: its state is known
    elif before is sheet and not changes:  # ``changes`` is ``v`` (every field: never empty) when ``v`` is a copy
        state0 = state1
    else:
        state0 = state_id(before, rs)
    if state1 == "mourant":
        if v["dying_roll_at"] is None or state0 != "mourant":
            changes["dying_roll_at"] = v["clock"] + f.first_dying_roll
    elif v["dying_roll_at"] is not None:
        changes["dying_roll_at"] = None
    if recovery:
        if recovery_at is None:
            if recovery == "assisted" or recovery == "alone":
                changes["recovery_roll_at"] = v["clock"] + (
                    f.assisted_first_roll if recovery == "assisted" else f.alone_interval
                )
            elif recovery == "alone_awake":
                changes["recovery_roll_at"] = v["clock"] + f.alone_first_daily_roll
        elif recovery == "awake":
            changes["recovery_roll_at"] = None
    elif recovery_at is not None:
        changes["recovery_roll_at"] = None
    if nonlethal > 0 and f.nonlethal_recovers:
        if v["nonlethal_heal_at"] is None:
            changes["nonlethal_heal_at"] = v["clock"] + f.hour
    elif v["nonlethal_heal_at"] is not None:
        changes["nonlethal_heal_at"] = None
    if temporary > 0 and noted is None:
        changes["temporary_noted"] = current
    if v is not d:  # ``_made`` without the call: the changes are in ``v``
        sheet = with_values(sheet, v)
    elif changes:
        sheet = evolve(sheet, **changes)
    if state1 != state0:
        _tell_state(sheet, rs, f, ctx, state0, state1)
    SETTLED[0] = (sheet, rs, state1, top, f, played, dies_at, True)
    return sheet


def _made(sheet: D20Sheet, values: dict[str, Any], changes: Changes) -> D20Sheet:
    """The sheet ``_settle`` gives: ``values`` (``sheet``'s own, or a copy with the handler's changes and
    ``changes`` already made in it: then ``changes`` is ``values``), in one copy, or ``sheet`` itself when nothing
    changed."""
    if values is not sheet.__dict__:
        return with_values(sheet, values)
    return evolve(sheet, **changes) if changes else sheet


# The fields the maximum reads (``maximum_of``).
_TOP_FIELDS = frozenset(
    ("base_maximum", "level", "constitution", "constitution_bonus", "constitution_damage", "constitution_drain")
)
# The fields a handler may change and still leave the maximum, the Constitution in play and life as the last
# settle found them (``_settle``'s shortcut).
_QUICK_FIELDS = frozenset(
    (
        "current",
        "temporary",
        "temporary_noted",
        "nonlethal",
        "conditions",
        "recovery",
        "recovery_roll_at",
        "wounds",
        "clock",
    )
)

# What a death stops (``_die``): what only the living have.
DEATH: dict[str, Any] = {
    "dead": True,
    "recovery": "",
    "dying_roll_at": None,
    "recovery_roll_at": None,
    "nonlethal_heal_at": None,
}


# The journal line and events of a change of state, by (state before, state after, PV, temporary PV, nonlethal
# damage, recovery): all they depend on besides the table's figures (``state_words``). A fifth of the actions
# of a fight change the state, and the same changes come back (issue 15). One table's at a time, bounded.
StateNews = tuple[str, tuple[str, ...]]
_STATE_NEWS: list[tuple[Figures | None, dict[tuple[Any, ...], StateNews]]] = [(None, {})]


def _tell_state(sheet: D20Sheet, rs: D20Rules, f: Figures, ctx: Context, state0: str, state1: str) -> None:
    """The journal line and the UI's events of a change of state (``f`` is ``figures(rs)``)."""
    d = sheet.__dict__
    key = (state0, state1, d["current"], d["temporary"], d["nonlethal"], d["recovery"])
    known, news = _STATE_NEWS[0]
    if known is not f:
        news = {}
        _STATE_NEWS[0] = (f, news)
    found = news.get(key)
    if found is None:
        if len(news) >= 4096:
            news.clear()
        found = news[key] = _state_news(sheet, rs, f, state0, state1)
    line, events = found
    ctx.say(line)
    for event in events:
        ctx.event(event)


def _state_news(sheet: D20Sheet, rs: D20Rules, f: Figures, state0: str, state1: str) -> StateNews:
    why = state_words(sheet, rs, state1)
    labels = f.state_labels
    line = f"État : {labels[state0]} → {labels[state1]} ({why}) — {f.state_effects[state1]}"
    events: list[str] = []
    news = WORSE_NEWS.get(state1)
    if news and STATE_RANK[state1] > STATE_RANK[state0]:
        events.append(news)
    if state1 == "stabilise":
        events.append("stabilised")
    if state0 in UNCONSCIOUS and state1 not in UNCONSCIOUS:
        events.append("woke")
    return line, tuple(events)


H = TypeVar("H", bound=Action)


def _settled(
    handler: Callable[[D20Sheet, H, Context], D20Sheet | Changes],
) -> Callable[[D20Sheet, H, Context], D20Sheet]:
    """Every handler ends with ``_settle`` (states, deaths, timers), whatever path it took. A handler returns
    the new sheet, or the changes to make to the one it was given."""

    def run(sheet: D20Sheet, action: H, ctx: Context) -> D20Sheet:
        result = handler(sheet, action, ctx)
        if result.__class__ is dict:  # ``isinstance`` without the call: a handler's changes are a plain dict
            return _settle(sheet, sheet, ctx.ruleset, ctx, result)
        return _settle(sheet, result, ctx.ruleset, ctx)  # type: ignore[arg-type]  # not a dict: a sheet

    run.__name__ = handler.__name__
    run.__doc__ = handler.__doc__
    return run


# The handlers of the hot path that end with ``_settle`` themselves, without ``_settled``'s call around them
# (issue 15): every handler the system registers is one of these, ``_settled`` or ``_settled_inside`` (a test).
SETTLES_ITSELF: set[str] = set()

F = TypeVar("F", bound=Callable[..., D20Sheet])


def _settles_itself(handler: F) -> F:
    """Marks a handler whose every return is ``_settle(...)``'s (what ``_settled`` would have made of it)."""
    SETTLES_ITSELF.add(handler.__name__)
    return handler


def _settled_inside(
    handler: Callable[[D20Sheet, H, Context], D20Sheet],
) -> Callable[[D20Sheet, H, Context], D20Sheet]:
    """For handlers that settle step by step themselves (each hit, each timed roll): a last check only."""

    def run(sheet: D20Sheet, action: H, ctx: Context) -> D20Sheet:
        result = handler(sheet, action, ctx)
        return _settle(result, result, ctx.ruleset, ctx)

    run.__name__ = handler.__name__
    run.__doc__ = handler.__doc__
    return run


class _PVTexts(dict[int, str]):
    """``fmt_int`` of the PV a fight sees, written once: a number's text costs more than a dict lookup (issue
    15); a number outside the table is written each time, by ``fmt_int`` (one lookup, no ``in`` test)."""

    def __missing__(self, value: int) -> str:
        return fmt_int(value)


class _NumberTexts(dict[int, str]):
    """``str`` of the amounts a fight sees (what ``f"{amount}"`` writes), written once (issue 15)."""

    def __missing__(self, value: int) -> str:
        return str(value)


_PV_TEXT = _PVTexts({value: fmt_int(value) for value in range(-1000, 1001)})
_NUMBER_TEXT = _NumberTexts({value: str(value) for value in range(0, 1001)})


def _lose(sheet: D20Sheet, amount: int, rs: D20Rules, ctx: Context, what: str) -> tuple[D20Sheet, int]:
    """``amount`` PV lost, temporary PV first; returns the sheet and what the real PV lost."""
    changes: Changes = {}
    real = _lost(sheet, amount, ctx, what, changes)
    return evolve(sheet, **changes), real


def _lost(sheet: D20Sheet, amount: int, ctx: Context, what: str, changes: Changes) -> int:
    """``_lose``'s changes, made in ``changes`` (not yet to the sheet); returns what the real PV lost."""
    d = sheet.__dict__  # the fields as a dict: cheaper to read than a pydantic model's attributes (issue 15)
    temporary, current = d["temporary"], d["current"]
    absorbed = temporary if temporary < amount else amount  # ``min`` and ``_points`` written out (issue 15)
    real = amount - absorbed
    new_current = current - real
    if new_current < -MAX_POINTS:
        new_current = -MAX_POINTS
    elif new_current > MAX_POINTS:
        new_current = MAX_POINTS
    t = _PV_TEXT
    # One f-string, no concatenation, the numbers' texts from the tables (issue 15).
    ctx.say(
        f"{what} : {d['name'] or 'Le personnage'} perd {_NUMBER_TEXT[amount]} PV"
        f"{f' ({absorbed} absorbés par les PV temporaires)' if absorbed else ''}"
        f" : {t[current]} → {t[new_current]} PV."
    )
    changes["temporary"] = temporary - absorbed
    changes["current"] = new_current
    return real


def _con_changed(old: D20Sheet, new: D20Sheet, rs: D20Rules, ctx: Context) -> D20Sheet:
    """« une augmentation, même temporaire, de la valeur de Constitution … augmentation ponctuelle de son
    nombre de points de vie … il ne s'agit pas de points de vie temporaires » : real PV, both ways."""
    if constitution_pv(new, rs) == constitution_pv(old, rs):
        return new
    # The PV move as far as the maximum does (never below 1 PV per level, T13), the sheet's own PV maximum
    # aside (an edit of it moves no PV).
    before_max = maximum(old, rs)
    after_max = maximum(new, rs)
    delta = maximum(evolve(new, base_maximum=old.base_maximum), rs) - before_max
    # The dead regain nothing, but a lower Constitution still lowers their PV with the maximum.
    if delta == 0 or (new.dead and delta > 0):
        return new
    con0, con1 = ability_score(old, "constitution"), ability_score(new, "constitution")
    current = _points(new.current + delta)
    ctx.say(
        f"Constitution en jeu {con0} → {con1} : {signed(delta)} PV (de vrais PV, pas des PV temporaires) ; "
        f"maximum {before_max} → {after_max}, PV {fmt_int(new.current)} → {fmt_int(current)}."
    )
    changes: dict[str, Any] = {"current": current}
    if new.temporary_noted is not None:
        changes["temporary_noted"] = _points(new.temporary_noted + delta)
    return evolve(new, **changes)


def _heal_pv(
    sheet: D20Sheet,
    amount: int,
    rs: D20Rules,
    ctx: Context,
    *,
    what: str,
    magical: bool,
    rest: bool = False,
) -> tuple[D20Sheet, int]:
    """PV regained: never above the maximum, never more than was lost (001 § Limites de la guérison)."""
    changes, gained = _healed(sheet, amount, rs, ctx, what=what, magical=magical, rest=rest)
    return evolve(sheet, **changes), gained


def _healed(
    sheet: D20Sheet,
    amount: int,
    rs: D20Rules,
    ctx: Context,
    *,
    what: str,
    magical: bool,
    rest: bool = False,
) -> tuple[Changes, int]:
    """``_heal_pv``'s changes, not yet made."""
    d = sheet.__dict__  # the fields as a dict: cheaper to read than a pydantic model's attributes (issue 15)
    last = SETTLED[0]
    if last[0] is sheet and last[1] is rs:
        f, top = last[4], last[3]  # the last settle gave ``sheet``: its figures and maximum are known
    else:
        f, top = figures(rs), maximum(sheet, rs)
    current = d["current"]
    gained = top - current  # ``max(0, min(amount, top - current))`` written out (issue 15)
    if amount < gained:
        gained = amount
    if gained < 0:
        gained = 0
    new_current = current + gained
    t = _PV_TEXT
    if amount > gained:
        ctx.say(
            f"{what} : {t[current]} → {t[new_current]} PV (maximum {top} ; jamais plus que les PV perdus : "
            f"{amount - gained} sans effet)."
        )
    else:
        ctx.say(f"{what} : {t[current]} → {t[new_current]} PV.")  # one f-string, no concatenation (issue 15)
    changes: dict[str, Any] = {"current": new_current}
    noted = d["temporary_noted"]
    if d["temporary"] and noted is not None and new_current > noted:
        # The healing is real: the value the PV fall back to when the temporary PV go includes it (T4).
        changes["temporary_noted"] = new_current
    removes = f.rest_removes if rest else (magical or f.healing_removes_any)
    nonlethal = d["nonlethal"]
    if removes and nonlethal and amount > 0:
        # « Les sorts permettant de récupérer des points de vie font également disparaître un nombre égal
        #   de points de dégâts non-létaux »
        removed = min(nonlethal, amount)
        changes["nonlethal"] = nonlethal - removed
        ctx.say(f"Les soins effacent aussi {removed} dégâts non létaux : {nonlethal} → {changes['nonlethal']}.")
    if current < f.zero and new_current < f.zero and not rest:
        recovery = d["recovery"]
        if recovery == "":
            if magical and gained >= f.heal_spell_min:
                # « Si un sort de guérison lui rend ne serait-ce qu'un point de vie, il cesse de perdre des
                #   points de vie et son état se stabilise. »
                ctx.say("Le sort de guérison stabilise son état : plus de perte de PV (récupération avec assistance).")
                changes["recovery"] = "assisted"
                changes["recovery_roll_at"] = None
                ctx.event("stabilised")
            elif magical:
                ctx.say(
                    f"Un sort qui ne rend aucun PV ne stabilise pas (au moins "
                    f"{plural(f.heal_spell_min, 'PV')} nécessaire) : l'état reste Mourant."
                )
            else:
                ctx.say("Des soins non magiques ne stabilisent pas : l'état reste Mourant.")
        elif recovery in ("alone", "alone_awake"):
            # Someone now tends the character (the healer's intervention of « Récupération avec assistance »).
            changes["recovery"] = "assisted" if recovery == "alone" else "awake"
            changes["recovery_roll_at"] = None
            ctx.say("Des soins arrivent : la récupération se fait désormais avec assistance.")
    wounds = d["wounds"]
    if wounds:
        full = f.wounds_heal_at_full and new_current >= top and current < top
        by_magic = f.wounds_heal_by_magic and magical and gained > 0
        if full or by_magic:
            parts = ", ".join(_part_label(w.body_part, rs) for w in wounds)
            ctx.say(f"Blessures localisées guéries ({'PV au maximum' if full else 'soins magiques'}) : {parts}.")
            changes["wounds"] = ()
    return changes, gained


def _check_part(part: str, rs: D20Rules) -> None:
    if part not in rs.body_parts:
        known = ", ".join(rs.body_parts.values())
        raise Refused(f"Partie du corps inconnue : « {part} » (attendu : {known}).")


def _add_wound(sheet: D20Sheet, part: str, note: str, rs: D20Rules, ctx: Context) -> D20Sheet:
    if len(sheet.wounds) >= MAX_WOUNDS:
        ctx.say(f"La fiche compte déjà {MAX_WOUNDS} blessures localisées : celle-ci n'est pas ajoutée.")
        return sheet
    used = {w.id for w in sheet.wounds}
    next_id = max(used, default=0) + 1
    if next_id > MAX_WOUND_ID:
        next_id = min(set(range(1, MAX_WOUNDS + 2)) - used)
    wound = LocalWound(id=next_id, body_part=part, note=note)
    label = _part_label(part, rs)
    same = any(w.body_part == part for w in sheet.wounds)
    line = f"Blessure localisée n° {next_id} : {label} — malus de {signed(rs.local_wounds.penalty)} à toute action"
    line += " qui se sert de cette partie du corps"
    if same and not rs.local_wounds.penalties_stack:
        line += " (déjà blessée : le malus ne se cumule pas)"
    ctx.say(line + ".")
    return evolve(sheet, wounds=(*sheet.wounds, wound))


# --- Handlers ---------------------------------------------------------------------------------------

_ONE_HIT = (1,)


@_settles_itself
def damage(sheet: D20Sheet, action: Damage, ctx: Context) -> D20Sheet:
    rs: D20Rules = ctx.ruleset
    a = action.__dict__  # the fields as a dict: cheaper to read than a pydantic model's attributes (issue 15)
    part, hits, nonlethal = a["body_part"], a["hits"], a["nonlethal"]
    if part is not None:
        _check_part(part, rs)
    before = sheet
    last = SETTLED[0]
    if not (last[0] is sheet and last[1] is rs):
        # A sheet no settle gave (the first hit of a fight, a creature of the GM table): what is known of it is
        # worked out once, and kept for ``_settle`` (issue 15).
        found = known(sheet, rs)
        if found is None:
            ctx.say(f"{_name(sheet)} a déjà perdu la vie : dégâts sans effet.")
            return _settle(sheet, sheet, rs, ctx)
        last = found
    f = last[4]  # ``sheet`` lives; the table's figures
    dealt, dead = 0, False
    # Each hit falls on the sheet the last one left; the changes of a hit alone are left to ``_settle`` (then
    # ``sheet`` is still the one given: every other path makes the changes as it goes).
    many = hits > 1 or part is not None
    changes: Changes = {}
    for _ in _ONE_HIT if hits == 1 else range(hits):  # a tuple's loop costs less than a ``range``'s (issue 15)
        if changes:
            sheet, changes = evolve(sheet, **changes), {}
        roll = ctx.amount(a["amount"], "Dégâts")
        if not roll.given:
            ctx.say(f"Dégâts : {roll.detail}.")
        amount = roll.total
        if amount < 0:
            raise Refused(f"Des dégâts négatifs ({amount}) n'ont pas de sens : utilisez Soins.")
        if a["save_halves"]:
            ctx.say(f"Jet de sauvegarde réussi : dégâts réduits de moitié, {amount} → {amount // 2}.")
            amount //= 2
        if nonlethal:
            changes, real = _take_nonlethal(sheet, amount, f, ctx)
        else:  # ``_take_lethal`` without the call (issue 15)
            real = _lost(sheet, amount, ctx, "Dégâts", changes)
            if real > 0 and f.damage_breaks_stability and sheet.__dict__["recovery"]:
                _stability_broken(changes, ctx)
        dealt += real
        massive = a["single_attack"] and amount >= f.massive_threshold
        if massive and (not nonlethal or f.massive_nonlethal):
            sheet, changes = evolve(sheet, **changes), {}
            if not is_dead(sheet, rs):
                sheet = _massive_damage(sheet, amount, rs, ctx)
        if many:  # else ``_settle`` alone needs to know
            if changes:
                sheet, changes = evolve(sheet, **changes), {}
            dead = is_dead(sheet, rs)
            if dead:
                break  # the hits left fall on a corpse; ``_settle`` records the death
    if part is not None and dealt > 0 and not dead:
        return _settle(before, _add_wound(sheet, part, "", rs, ctx), rs, ctx)
    return _settle(before, sheet, rs, ctx, changes)  # changes left (a hit alone): ``sheet`` is still ``before``


def _stability_broken(changes: Changes, ctx: Context) -> None:
    """New lethal damage ends a stabilisation (``dying.damage_breaks_stability``)."""
    ctx.say("Les nouveaux dégâts rouvrent ses blessures : fin de la stabilisation.")
    changes["recovery"] = ""
    changes["recovery_roll_at"] = None


def _take_nonlethal(sheet: D20Sheet, amount: int, f: Figures, ctx: Context) -> tuple[Changes, int]:
    """« faites-en le total à part. Ne les déduisez surtout pas de son nombre de points de vie ! »"""
    d = sheet.__dict__
    temporary, nonlethal = d["temporary"], d["nonlethal"]
    absorbed = min(temporary, amount) if f.absorb_nonlethal else 0
    rest = amount - absorbed
    total = min(MAX_POINTS, nonlethal + rest)
    line = f"{d['name'] or 'Le personnage'} subit {amount} dégâts non létaux (comptés à part, jamais ôtés des PV)"
    if absorbed:
        line += f", {absorbed} absorbés par les PV temporaires"
    ctx.say(f"{line} : total {nonlethal} → {total}.")
    return {"nonlethal": total, "temporary": temporary - absorbed}, rest


def _massive_damage(sheet: D20Sheet, amount: int, rs: D20Rules, ctx: Context) -> D20Sheet:
    """« au moins 50 points de dégâts, il doit réussir un jet de Vigueur (DD 15). S'il le rate, il meurt sur
    le coup, et ce quel que soit son nombre de points de vie. »"""
    md = rs.massive_damage
    ctx.event("massive_damage")
    ctx.say(f"Dégâts excessifs ({amount} en une attaque, {md.threshold} ou plus) : jet de Vigueur DD {md.save_dd}.")
    if _check(ctx, "Jet de Vigueur (dégâts excessifs)", sheet.fortitude, md.save_dd, save=True):
        return sheet
    return _die(sheet, ctx, "jet de Vigueur raté après des dégâts excessifs")


@_settles_itself
def heal(sheet: D20Sheet, action: Heal, ctx: Context) -> D20Sheet:
    rs: D20Rules = ctx.ruleset
    last = SETTLED[0]
    if not (last[0] is sheet and last[1] is rs):  # else the last settle gave ``sheet`` alive: no call (issue 15)
        _alive(sheet, rs, "regagner des points de vie (seule une résurrection ramène à la vie)")
    a = action.__dict__  # the fields as a dict: cheaper to read than a pydantic model's attributes (issue 15)
    roll = ctx.amount(a["amount"], "Soins")
    if roll.total < 0:
        raise Refused(f"Des soins négatifs ({roll.total}) n'ont pas de sens : utilisez Dégâts.")
    shown = roll.detail if not roll.given else _NUMBER_TEXT[roll.total]
    magical = a["magical"]
    what = f"{'Soins magiques' if magical else 'Soins'} {shown}"
    return _settle(sheet, sheet, rs, ctx, _healed(sheet, roll.total, rs, ctx, what=what, magical=magical)[0])


@_settles_itself
def gain_temporary(sheet: D20Sheet, action: GainTemporary, ctx: Context) -> D20Sheet:
    rs: D20Rules = ctx.ruleset
    last = SETTLED[0]
    if not (last[0] is sheet and last[1] is rs):  # else the last settle gave ``sheet`` alive: no call (issue 15)
        _alive(sheet, rs, "recevoir des points de vie temporaires")
    a, d = action.__dict__, sheet.__dict__  # dicts: cheaper to read than a pydantic model's attributes (issue 15)
    amount = ctx.amount(a["amount"], "PV temporaires").total
    if amount < 0:
        raise Refused("Des points de vie temporaires négatifs n'ont pas de sens.")
    if amount > MAX_POINTS:
        amount = MAX_POINTS
    old = d["temporary"]
    if old and not a["replace"]:
        ctx.say(f"PV temporaires : {old} conservés ; les {amount} nouveaux ne se cumulent pas.")
        return _settle(sheet, sheet, rs, ctx)
    # « notez le nombre de points de vie actuels du personnage, avant de prendre en compte l'effet magique »
    noted = d["temporary_noted"] if old and d["temporary_noted"] is not None else d["current"]
    if old:
        ctx.say(f"PV temporaires : {old} remplacés par {amount} ; PV notés : {_PV_TEXT[noted]}.")
    else:
        ctx.say(f"PV temporaires : {_NUMBER_TEXT[amount]} ; PV notés avant l'effet : {_PV_TEXT[noted]}.")
    return _settle(sheet, sheet, rs, ctx, {"temporary": amount, "temporary_noted": noted if amount else None})


@_settles_itself
def lose_temporary(sheet: D20Sheet, action: LoseTemporary, ctx: Context) -> D20Sheet:
    rs: D20Rules = ctx.ruleset
    d = sheet.__dict__  # the fields as a dict: cheaper to read than a pydantic model's attributes (issue 15)
    temporary, current, noted = d["temporary"], d["current"], d["temporary_noted"]
    if not temporary:
        ctx.say("Aucun point de vie temporaire.")
        return _settle(sheet, sheet, rs, ctx, {"temporary_noted": None})
    if noted is None:
        noted = current
    last = SETTLED[0]
    f = last[4] if last[1] is rs else figures(rs)  # the last settle's table: its figures are known
    before_total = current + temporary if f.count_temporary else current  # ``pv_total``
    # « le total de points de vie de l'aventurier retombe à la valeur notée, à moins qu'il se trouve déjà
    #   en dessous (auquel cas il reste stable) »
    new_current = current if current < noted else noted
    t = _PV_TEXT
    if current >= noted:
        how = f"retombe à la valeur notée ({t[noted]})"
    else:
        how = f"déjà sous la valeur notée {t[noted]} : reste à {t[new_current]}"
    ctx.say(
        f"Les {temporary} PV temporaires disparaissent (jamais récupérables) : total {t[before_total]} → "
        f"{t[new_current]} PV, {how}."
    )
    return _settle(sheet, sheet, rs, ctx, {"temporary": 0, "temporary_noted": None, "current": new_current})


@_settles_itself
def set_condition(sheet: D20Sheet, action: SetCondition, ctx: Context) -> D20Sheet:
    rs: D20Rules = ctx.ruleset
    last = SETTLED[0]
    f = last[4] if last[1] is rs else figures(rs)  # the last settle's table: its figures are known
    a = action.__dict__  # the fields as a dict: cheaper to read than a pydantic model's attributes (issue 15)
    cid = a["condition"]
    label = f.condition_labels.get(cid)
    if label is None:
        known = ", ".join(r.label for r in rs.conditions.values() if r.settable)
        raise Refused(f"État inconnu : « {cid} » (états à poser : {known}).")
    conditions = sheet.__dict__["conditions"]
    if a["active"]:
        if cid not in f.settable:
            raise Refused(f"L'état {label} découle des points de vie : on ne le pose pas à la main.")
        if cid in conditions:
            ctx.say(f"{label} : déjà en place.")
            return _settle(sheet, sheet, rs, ctx)
        _alive(sheet, rs, "changer d'état")
        ctx.say(f"État {label} ajouté.")
        # ``tuple(sorted({*conditions, cid}))``, without a set and a sort for a sheet with no state (issue 15)
        return _settle(
            sheet, sheet, rs, ctx, {"conditions": tuple(sorted({*conditions, cid})) if conditions else (cid,)}
        )
    if cid not in conditions:
        why = effective_conditions(sheet, rs).get(cid)
        if why:
            raise Refused(f"L'état {label} {why} : on ne le retire pas à la main.")
        ctx.say(f"{label} : n'était pas en place.")
        return _settle(sheet, sheet, rs, ctx)
    ctx.say(f"État {label} retiré.")
    # ``cid`` is in ``conditions``: when it is the only one, none is left (no generator, issue 15)
    left = tuple(c for c in conditions if c != cid) if len(conditions) > 1 else ()
    return _settle(sheet, sheet, rs, ctx, {"conditions": left})


@_settled
def clear_conditions(sheet: D20Sheet, action: ClearConditions, ctx: Context) -> D20Sheet:
    rs: D20Rules = ctx.ruleset
    if not sheet.conditions:
        ctx.say("Aucun état posé à retirer (ceux qui découlent des PV restent).")
        return sheet
    names = ", ".join(rs.conditions[c].label if c in rs.conditions else c for c in sheet.conditions)
    ctx.say(f"États retirés : {names}.")
    return evolve(sheet, conditions=())


@_settled
def stabilise(sheet: D20Sheet, action: Stabilise, ctx: Context) -> D20Sheet:
    rs: D20Rules = ctx.ruleset
    _alive(sheet, rs, "stabiliser")
    if pv_total(sheet, rs) >= rs.thresholds.disabled_at:
        raise Refused(f"{_name(sheet)} n'est pas à l'agonie (PV à 0 ou plus) : rien à stabiliser.")
    if sheet.recovery in ("assisted", "awake"):
        raise Refused(f"L'état de {_name(sheet)} est déjà stabilisé, avec assistance.")
    if action.method == "first_aid":
        # « Un test de Premiers secours de DD 15 réussi permet de stabiliser l'état d'un personnage mourant »
        if not _check(ctx, "Premiers secours", action.modifier, rs.dying.first_aid_dd):
            return sheet
    elif action.method != "magic":
        raise Refused(f"Méthode de stabilisation inconnue : « {action.method} » (premiers secours ou magie).")
    if sheet.recovery == "":
        ctx.say(
            f"Stabilisation avec assistance : plus de perte de PV ; 1d100 dans "
            f"{plural(rs.recovery.assisted_first_roll_hours, 'heure')} pour reprendre connaissance "
            f"({rs.recovery.assisted_wake_chance} %)."
        )
        ctx.event("stabilised")
        return evolve(sheet, recovery="assisted", recovery_roll_at=None, dying_roll_at=None)
    ctx.say(f"Un soigneur veille désormais sur {_name(sheet)} : récupération avec assistance.")
    return evolve(sheet, recovery="assisted" if sheet.recovery == "alone" else "awake", recovery_roll_at=None)


@_settled
def strenuous_action(sheet: D20Sheet, action: StrenuousAction, ctx: Context) -> D20Sheet:
    """« n'importe quelle action simple (ainsi que d'autres actions fatigantes) lui fait perdre 1 point de vie
    dès qu'il l'a accomplie. À moins que l'action ait eu pour conséquence de soigner le personnage, celui-ci
    se retrouve à –1 point de vie et passe au stade de mourant. »"""
    rs: D20Rules = ctx.ruleset
    _alive(sheet, rs, "agir")
    state = state_id(sheet, rs)
    if state in ("en_forme", "chancelant"):
        raise Refused(f"{_name(sheet)} n'est pas hors de combat : une action simple ne lui coûte pas de PV.")
    if state != "hors_de_combat":
        raise Refused(f"{_name(sheet)} : état {rs.health_states[state].label}, plus aucune action possible.")
    healed = 0
    roll = ctx.amount(action.healing, "Soins de l'action")
    if roll.total < 0:
        raise Refused("Des soins négatifs n'ont pas de sens.")
    if roll.total:
        what = f"{'Soins magiques' if action.magical else 'Soins'} de l'action {roll.total}"
        sheet, healed = _heal_pv(sheet, roll.total, rs, ctx, what=what, magical=action.magical)
    cost = rs.dying.strenuous_cost
    sheet, _ = _lose(sheet, cost, rs, ctx, "Action simple hors de combat")
    if healed == 0 and pv_total(sheet, rs) < rs.thresholds.disabled_at and sheet.recovery:
        sheet = evolve(sheet, recovery="", recovery_roll_at=None)
    return sheet


@_settled
def add_local_wound(sheet: D20Sheet, action: AddLocalWound, ctx: Context) -> D20Sheet:
    rs: D20Rules = ctx.ruleset
    _check_part(action.body_part, rs)
    _alive(sheet, rs, "recevoir une blessure")
    return _add_wound(sheet, action.body_part, action.note, rs, ctx)


@_settled
def heal_local_wound(sheet: D20Sheet, action: HealLocalWound, ctx: Context) -> D20Sheet:
    rs: D20Rules = ctx.ruleset
    for wound in sheet.wounds:
        if wound.id == action.wound_id:
            ctx.say(f"Blessure localisée n° {wound.id} ({_part_label(wound.body_part, rs)}) guérie.")
            return evolve(sheet, wounds=tuple(w for w in sheet.wounds if w.id != wound.id))
    raise Refused(f"Aucune blessure localisée n° {action.wound_id} sur la fiche.")


@_settled
def set_constitution_bonus(sheet: D20Sheet, action: SetConstitutionBonus, ctx: Context) -> D20Sheet:
    rs: D20Rules = ctx.ruleset
    _alive(sheet, rs, "changer la Constitution")
    if action.level == sheet.constitution_bonus:
        ctx.say(f"Augmentation de Constitution inchangée (+{action.level}).")
        return sheet
    if action.level:
        ctx.say(f"Augmentation de Constitution : +{sheet.constitution_bonus} → +{action.level}.")
    else:
        ctx.say(f"L'augmentation de Constitution (+{sheet.constitution_bonus}) prend fin.")
    return _con_changed(sheet, evolve(sheet, constitution_bonus=action.level), rs, ctx)


@_settled
def ability_damage(sheet: D20Sheet, action: AbilityDamage, ctx: Context) -> D20Sheet:
    rs: D20Rules = ctx.ruleset
    _alive(sheet, rs, "perdre des points de caractéristique")
    field = f"{action.ability}_{'drain' if action.drain else 'damage'}"
    old_value: int = getattr(sheet, field)
    new_value = min(MAX_SCORE, old_value + action.points)
    label = ABILITY_LABELS[action.ability]
    before = ability_score(sheet, action.ability)
    new = evolve(sheet, **{field: new_value})
    what = "Diminution permanente" if action.drain else "Affaiblissement temporaire"
    ctx.say(f"{what} {of(label)} {action.points} : {label} en jeu {before} → {ability_score(new, action.ability)}.")
    return _con_changed(sheet, new, rs, ctx)


@_settled
def restore_ability(sheet: D20Sheet, action: RestoreAbility, ctx: Context) -> D20Sheet:
    rs: D20Rules = ctx.ruleset
    _alive(sheet, rs, "restaurer une caractéristique")
    field = f"{action.ability}_{'drain' if action.drain else 'damage'}"
    old_value: int = getattr(sheet, field)
    if old_value == 0:
        raise Refused(f"Aucun point à restaurer ({SHEET_LABELS[field]} à 0).")
    new_value = max(0, old_value - action.points)
    label = ABILITY_LABELS[action.ability]
    new = evolve(sheet, **{field: new_value})
    ctx.say(
        f"{label} restaurée de {old_value - new_value} : en jeu {ability_score(sheet, action.ability)} → "
        f"{ability_score(new, action.ability)}."
    )
    return _con_changed(sheet, new, rs, ctx)


# --- Resurrection ---------------------------------------------------------------------------------


def _revive(sheet: D20Sheet, rs: D20Rules, ctx: Context, *, full: bool, counts: bool) -> D20Sheet:
    rr = rs.resurrection
    changes: dict[str, Any] = {}
    for ability in ABILITIES:
        # An ability at 0 would leave the body dead again: it comes back at 1 (T15).
        score = ability_score(sheet, ability)
        if score < rr.restore_zero_abilities_to:
            need = rr.restore_zero_abilities_to - score
            dmg: int = getattr(sheet, f"{ability}_damage")
            drain: int = getattr(sheet, f"{ability}_drain")
            from_damage = min(dmg, need)
            from_drain = min(drain, need - from_damage)
            changes[f"{ability}_damage"] = dmg - from_damage
            changes[f"{ability}_drain"] = drain - from_drain
            if from_damage + from_drain:
                ctx.say(f"{ABILITY_LABELS[ability]} ramenée à {score + from_damage + from_drain}.")
    revived = evolve(sheet, **changes)
    top = maximum(revived, rs)
    current = top if full else max(1, min(top, rr.revived_pv_per_level * sheet.level))
    ctx.say(f"{_name(sheet)} revient à la vie avec {current} PV sur {top}.")
    ctx.event("revived")
    return evolve(
        revived,
        dead=False,
        death_cause="",
        current=current,
        temporary=0,
        temporary_noted=None,
        nonlethal=0,
        recovery="",
        dying_roll_at=None,
        recovery_roll_at=None,
        nonlethal_heal_at=None,
        resurrections=min(MAX_COUNT, sheet.resurrections + (1 if counts else 0)),
        soul_lost=False,
        quick_blocked=False,
    )


@_settled
def resurrection(sheet: D20Sheet, action: Resurrection, ctx: Context) -> D20Sheet:
    rs: D20Rules = ctx.ruleset
    rr = rs.resurrection
    name = _name(sheet)
    if not is_dead(sheet, rs):
        raise Refused(f"{name} est en vie : pas de résurrection.")
    label = rr.procedures[action.procedure]
    contributed = len(action.contributions) + action.contribution_successes + action.contribution_failures
    if action.procedure in BYPASS:
        if contributed:
            raise Refused(f"{label} : aucun test, donc aucune contribution.")
        if not action.consents:
            raise Refused("L'âme refuse de revenir : rien ne change.")
        # « Seules les incantations magiques les plus puissantes peuvent contourner ce défi … Ces sorts peuvent
        #   également redonner vie à un personnage qui a été perdu à cause d'un échec du rituel »
        ctx.say(f"{label} : le test de résurrection est contourné.")
        return _revive(sheet, rs, ctx, full=rr.bypass_full_pv, counts=rr.bypass_counts)
    if sheet.soul_lost:
        raise Refused(
            f"L'âme de {name} est perdue après un rituel raté : seuls Résurrection suprême ou Souhait peuvent "
            "encore ramener ce personnage."
        )
    if not action.consents:
        raise Refused("L'âme refuse de revenir : rien ne change.")
    dd = resurrection_dd(sheet, rs)
    if action.procedure == "quick":
        if contributed:
            raise Refused("Sort d'une action simple : aucun test de contribution n'est autorisé.")
        if sheet.quick_blocked:
            raise Refused(
                "Une résurrection rapide a déjà échoué : aucune autre tentative avant qu'un sort de résurrection "
                "de plus d'une action soit tenté."
            )
        ctx.say(f"Résurrection rapide : test de niveau de lanceur de sorts, {dd.text}.")
        if _check(ctx, "Test de Résurrection rapide", action.caster_level, int(dd.value)):
            return _revive(sheet, rs, ctx, full=False, counts=True)
        # « En cas d'échec, l'âme du personnage n'est pas perdue, mais la résurrection échoue et augmente le
        #   DD des futurs tests de Résurrection de 1. Aucune autre tentative … »
        ctx.say(
            f"Échec : l'âme n'est pas perdue, mais les futurs DD de résurrection augmentent de "
            f"{rr.quick_failure_increase} ; plus de résurrection rapide avant un rituel."
        )
        ctx.event("resurrection_failed")
        return evolve(sheet, quick_failures=min(MAX_COUNT, sheet.quick_failures + 1), quick_blocked=True)
    if contributed > rr.max_contributors:
        raise Refused(f"Au plus {rr.max_contributors} membres du groupe peuvent contribuer au rituel ({contributed}).")
    successes, failures = action.contribution_successes, action.contribution_failures
    for n, contribution in enumerate(action.contributions, start=1):
        what = f"Contribution {n}" + (f" ({contribution.label})" if contribution.label else "")
        if _check(ctx, what, contribution.modifier, contribution.dd):
            successes += 1
        else:
            failures += 1
    terms = [
        *_dd_terms(sheet, rs),
        Term(rr.contribution_success * successes, plural(successes, "contribution réussie", "contributions réussies")),
        Term(rr.contribution_failure * failures, plural(failures, "contribution ratée", "contributions ratées")),
    ]
    final = explained_sum("DD du test final", rr.base_dd, terms, "base")
    ctx.say(f"{final.text}.")
    # « le MD lance un seul et dernier test de Résurrection sans modificateurs »
    if _check(ctx, "Test de Résurrection final (sans modificateur)", 0, int(final.value)):
        return _revive(sheet, rs, ctx, full=False, counts=True)
    ctx.say("Échec : l'âme ne revient pas, le personnage est perdu.")
    ctx.event("soul_lost")
    return evolve(sheet, soul_lost=True, quick_blocked=False)


def after_edit(old: D20Sheet, new: D20Sheet, rs: D20Rules, ctx: Context) -> D20Sheet:
    """After a validated ``Edit``: the Constitution's PV, the maximum, and the states follow.

    PV typed above the maximum are refused; a lower maximum (PV maximum, level, Constitution) brings the
    PV down with it and the journal says so, as an action would (docs/rules-notes.md T13).
    """
    if new.clock != old.clock:
        raise Refused(
            "L'horloge de la fiche ne se modifie pas à la main : faites passer le temps (« Le temps passe »)."
        )
    typed = new.current != old.current
    new = _con_changed(old, new, rs, ctx)
    top = maximum(new, rs)
    if typed and new.current > top:
        raise Refused(f"Les PV ({fmt_int(new.current)}) ne peuvent pas dépasser le maximum ({top}).")
    if new.dead and not old.dead:
        # A death written by hand: what only the living have stops, as in ``_die``.
        new = evolve(new, recovery="", dying_roll_at=None, recovery_roll_at=None, nonlethal_heal_at=None)
    elif old.dead and not new.dead:
        # Brought back by hand (a GM's correction): the story of the death goes with it.
        new = evolve(new, death_cause="", soul_lost=False, quick_blocked=False)
    return _settle(old, new, rs, ctx)
