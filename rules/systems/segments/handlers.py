"""Segments action handlers: what each action does to a sheet, journaled in French.

While a state hides the PV from the player (Engourdi: « on ignore son propre total de points de vie, que
le meneur garde pour lui »), every line that shows a PV figure is said for the GM only
(``Context.say(…, secret=True)``) and the player reads a line without it. Lines speak of the character
without gender (« n'est plus en vie », « stabilisation réussie »).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from rules.actions import (
    ClearConditions,
    Damage,
    GainTemporary,
    Heal,
    LoseTemporary,
    SetCondition,
    Stabilise,
)
from rules.errors import Refused
from rules.model import MAX_POINTS, Context, evolve, fmt_int, plural, signed, with_values
from rules.systems.segments.actions import (
    AddFatigue,
    Extinguish,
    Fall,
    SetBurning,
    SetExposure,
    SetFatigue,
    SetPrivation,
    SetSuffocating,
    SetSurprise,
    StandUp,
)
from rules.systems.segments.derive import (
    OUT_OF_ACTION,
    TEXT,
    _name,
    _terms,
    _turn_index,
    effective_conditions,
    fatigue_label,
    health_state,
    health_state_id,
    hidden_under,
    is_dead,
    plan_of,
    points_hidden,
    state_id,
    surprise_segments,
)
from rules.systems.segments.sheet import (
    DURATION_FIELDS,
    LABELS,
    POINT_FIELDS,
    PRIVATION_COUNTERS,
    SegmentsSheet,
    _choices,
    _metres,
)
from rules.systems.segments.table import Memo, SegmentsRules

# --------------------------------------------------------------------------------------------------
# What the player may read
# --------------------------------------------------------------------------------------------------


def hidden_note(sheet: SegmentsSheet, rs: SegmentsRules) -> str:
    """« total de PV caché (Engourdi) »: what the player reads instead of a PV figure."""
    from rules.systems.segments.derive import points_hidden_by

    return f"total de PV caché ({', '.join(points_hidden_by(effective_conditions(sheet, rs), rs))})"


def _tell(ctx: Context, hidden: bool, line: str, player: str | Callable[[], str] | None) -> None:
    """``line`` for everyone; while the PV are hidden, ``line`` for the GM only and ``player`` (no PV figure,
    a function when it costs something to write)."""
    if hidden:
        ctx.say(line, secret=True)
        if player:
            ctx.say(player if isinstance(player, str) else player())
    else:
        ctx.say(line)


# --------------------------------------------------------------------------------------------------
# Rolls, death, the state after a change
# --------------------------------------------------------------------------------------------------


def _check(
    ctx: Context,
    sheet: SegmentsSheet,
    save: Literal["fortitude", "reflex", "agility"],
    dd: int,
    what: str,
    bonus: int = 0,
) -> bool:
    """A d20 roll + the sheet's bonus + the states' modifiers against ``dd``."""
    rs: SegmentsRules = ctx.ruleset
    count, sides = rs.general.check_dice
    roll = ctx.dice(count, sides, what)
    known = effective_conditions(sheet, rs)
    terms = _terms(known, rs, "all_rolls", ", tous les jets")
    if save == "fortitude":
        base, label = sheet.fortitude_save, "Vigueur"
    elif save == "reflex":
        base, label = sheet.reflex_save, "Réflexes"
        terms = _terms(known, rs, "reflex") + terms
    else:
        base, label = sheet.agility, "Agilité"
    total = roll.total + base + bonus + sum(t.value for t in terms)
    parts = f"{roll.detail} {signed(base)} ({label})"
    parts += "".join(f" {signed(t.value)} ({t.reason})" for t in terms)
    if bonus:
        parts += f" {signed(bonus)}"
    success = total >= dd
    ctx.say(f"{what} : {parts} = {total} contre difficulté {dd} → {'réussite' if success else 'échec'}.")
    return success


def _die(sheet: SegmentsSheet, rs: SegmentsRules, ctx: Context, why: str, shows_points: bool) -> SegmentsSheet:
    # « La mort est automatique : ce n'est pas une décision du meneur. »
    line = f"{_name(sheet)} meurt ({why})."
    _tell(ctx, shows_points and points_hidden(sheet, rs), line, f"{_name(sheet)} meurt.")
    ctx.event("died")
    return evolve(sheet, dead=True, stabilised=False, suffocating_for=None, burning=False, burning_for=0)


_STATE_EVENTS = {"inconscient": "unconscious", "mourant": "dying", "chancelant": "staggered", "stabilise": "stabilised"}


def _settle(old: SegmentsSheet, new: SegmentsSheet, rs: SegmentsRules, ctx: Context) -> SegmentsSheet:
    """After PV or nonlethal changed: dying ends, death comes, and the journal says the new state."""
    return _settled(old.__dict__, new, new.__dict__, rs, rs.memo, ctx)


def _settled(
    old_fields: dict[str, Any], new: SegmentsSheet, fields: dict[str, Any], rs: SegmentsRules, memo: Memo, ctx: Context
) -> SegmentsSheet:
    """``_settle`` for a handler that has the old sheet's fields, the new sheet's (its ``__dict__``) and the memo
    (issue 15: a pydantic attribute is a slow lookup; the states of a character standing before and after, the
    case of most actions, are worked out here, as ``state_id`` does, without calling it)."""
    cur = fields["current"]
    if cur >= 0 and (fields["stabilised"] or fields["self_stabilise_turn"] is not None):
        new = evolve(new, stabilised=False, self_stabilise_turn=None)
        fields = new.__dict__
    nonlethal = fields["nonlethal"]
    if nonlethal == 0 and fields["nonlethal_for"]:
        new = evolve(new, nonlethal_for=0)
        fields = new.__dict__
    # Dead, or dying now: the state is « mort », of which the journal says nothing more.
    if fields["dead"]:
        return new
    if cur <= -fields["constitution"]:
        why = f"{fmt_int(cur)} PV : l'opposé de sa Constitution ({fields['constitution']}) est atteint"
        return _die(new, rs, ctx, why, shows_points=True)
    # ``state_id`` of a living character.
    if cur > 0 and nonlethal <= cur:
        after = "blesse" if cur * memo.wounded_den <= fields["base_maximum"] * memo.wounded_num else "en_forme"
    elif cur < 0:
        after = "stabilise" if fields["stabilised"] else "mourant"
    elif nonlethal > cur:
        after = "inconscient"
    else:
        after = "chancelant"
    old_cur = old_fields["current"]
    if old_cur > 0 and old_fields["nonlethal"] <= old_cur and not old_fields["dead"]:
        before = "blesse" if old_cur * memo.wounded_den <= old_fields["base_maximum"] * memo.wounded_num else "en_forme"
    else:
        before = state_id(old_fields, memo)
    if before == after:
        return new
    why = health_state(new, rs)[1]
    line = f"{_name(new)} : {rs.health_states[before].label} → {rs.health_states[after].label}"
    # While Engourdi the player must not read their total: only falling out of action, or coming back, is told.
    told = after in OUT_OF_ACTION or before in OUT_OF_ACTION
    _tell(ctx, points_hidden(new, rs), f"{line} ({why}).", f"{line}." if told else None)
    if after in _STATE_EVENTS:
        ctx.event(_STATE_EVENTS[after])
    if after == "mourant":
        ctx.say(
            f"Hors combat : perte de {rs.dying.loss_per_segment} PV par segment ; Vigueur difficulté "
            f"{rs.dying.self_stabilise_dd} une fois par tour, ou stabilisation par un allié, sans jet."
        )
    return new


# --------------------------------------------------------------------------------------------------
# A hit (« 7.4 Encaisser »)
# --------------------------------------------------------------------------------------------------


def _hit(
    sheet: SegmentsSheet,
    raw: int,
    what: str,
    tags: frozenset[str],
    rs: SegmentsRules,
    ctx: Context,
    nonlethal: bool = False,
    halved: bool = False,
    memo: Memo | None = None,
) -> SegmentsSheet:
    """One hit of ``raw`` damage of types ``tags`` (a blow, a fall, flames, cold…; world harm ignores armour
    class, not reductions): halving, reductions, resistance, temporary points, then PV. ``memo``: the table's,
    when the caller has it."""
    # Issue 15: the sheet's fields are read from its ``__dict__``, and the new sheet built from a copy of it; the
    # plan's figures unpacked at once (a NamedTuple's attribute is a slow lookup), no call where a test does.
    fields = sheet.__dict__
    old_cur, con = fields["current"], fields["constitution"]
    if fields["dead"] or old_cur <= -con:
        ctx.say(f"{_name(sheet)} n'est plus en vie : {raw} dégâts sans effet.")
        return sheet
    if memo is None:
        memo = rs.memo
    # ``plan_of``: its memo read here, by the same key.
    plan = memo.plans.get(
        (
            fields["armour"],
            fields["shield"],
            fields["natural_armour"],
            fields["damage_reductions"],
            fields["energy_resistances"],
            tags,
        )
    )
    reduction, reduction_text, notes, resistance, energy = plan or plan_of(fields, sheet, rs, memo, tags)
    amount = raw
    # The line's steps, each after a space; when there is any, the line ends with « = » what is left.
    steps = ""
    if halved:
        amount //= 2
        steps = " ÷ 2 (sauvegarde réussie)"
    if reduction and amount:
        cut = reduction if reduction < amount else amount
        amount -= cut
        steps += f" − {TEXT[cut]} (réduction {reduction_text})"
    if notes:
        steps += notes
    if resistance and amount:
        cut = resistance if resistance < amount else amount
        amount -= cut
        steps += f" − {cut} (résistance {energy} {resistance})"
    temporary = fields["temporary"]
    absorbed = temporary if temporary < amount else amount
    rest = amount - absorbed
    if absorbed:
        steps += f" − {absorbed} (points de vie temporaires)"
    old_nl = fields["nonlethal"]
    if nonlethal:
        kind = " non létaux"
        # 7.1 « S'ils dépassent les points de vie actuels, le personnage tombe inconscient et l'excédent
        #   devient létal » : what this hit adds beyond the current PV is lethal (S3).
        excess = min(rest, max(0, old_nl + rest - max(old_cur, 0)))
        new_nl, new_cur = old_nl + rest - excess, old_cur - excess
    else:
        kind = ""
        excess = 0
        new_nl, new_cur = old_nl, old_cur - rest
    # Numbers written through ``TEXT`` (kept texts: issue 15).
    line = f"{what} : {TEXT[raw]} dégâts{kind}{steps} = {TEXT[rest]}" if steps else f"{what} : {TEXT[raw]} dégâts{kind}"
    floor = ""
    if new_cur < -MAX_POINTS:
        # A sheet holds PV down to −MAX_POINTS (the character died long before).
        new_cur, floor = -MAX_POINTS, f" (compté {fmt_int(-MAX_POINTS)}, le plus bas qu'une fiche garde)"
    if nonlethal:
        line += f" → non létaux {old_nl} → {new_nl}"
        if excess:
            line += f", l'excédent de {excess} devient létal : PV {fmt_int(old_cur)} → {fmt_int(new_cur)}{floor}"
        line += "."
    else:
        line += f" → PV {TEXT[old_cur]} → {TEXT[new_cur]}{floor}."
    conditions = fields["conditions"]
    if not hidden_under(conditions, sheet, rs, memo):
        ctx.say(line)
    else:
        _tell(ctx, True, line, f"{what} : {raw} dégâts{kind} encaissés ({hidden_note(sheet, rs)}).")
    values = fields.copy()
    values["temporary"] = temporary - absorbed
    values["current"] = new_cur
    values["nonlethal"] = new_nl
    # (The sheet is alive: see above.)
    if fields["stabilised"] and new_cur < old_cur and new_cur < 0 and memo.breaks_stabilisation and new_cur > -con:
        ctx.say(
            f"Les nouveaux dégâts rompent la stabilisation : la perte de {rs.dying.loss_per_segment} PV par "
            "segment reprend."
        )
        values["stabilised"] = False
    return _settled(fields, with_values(sheet, values), values, rs, memo, ctx)


def _weapon_drop(sheet: SegmentsSheet, rs: SegmentsRules, ctx: Context) -> bool:
    """Engourdi: « tout coup encaissé fait lâcher son arme sauf réussite d'une Vigueur difficulté 15 ». Only
    called when a state of the table makes a weapon drop and the sheet may be under it (``damage``)."""
    drops = rs.memo.drops
    known = effective_conditions(sheet, rs)
    if drops.isdisjoint(known):
        return False
    dds = [rs.conditions[c].drop_weapon_dd for c in known if c in drops]
    if not dds or health_state_id(sheet, rs) in OUT_OF_ACTION:
        return False
    dd = max(d for d in dds if d is not None)
    if _check(ctx, sheet, "fortitude", dd, "Vigueur pour garder son arme (Engourdi)"):
        return False
    ctx.say(f"{_name(sheet)} lâche son arme : la main ne sent plus ce qu'elle tient.")
    ctx.event("weapon_dropped")
    return True


# --------------------------------------------------------------------------------------------------
# Fatigue
# --------------------------------------------------------------------------------------------------


def _fatigue_to(
    sheet: SegmentsSheet,
    level: int,
    rs: SegmentsRules,
    ctx: Context,
    why: str,
    told: set[str] | None = None,
) -> SegmentsSheet:
    """Fatigue to ``level``; ``told`` keeps a passage of time from repeating that the ladder is at its top."""
    top = len(rs.fatigue.levels)
    level = max(0, level)
    if level > top:
        # The seed stops at the third degree (S14).
        line = f"La fatigue ne dépasse pas le degré {top} ({fatigue_label(top, rs)}) : elle en reste là."
        if told is None or line not in told:
            ctx.say(line)
            if told is not None:
                told.add(line)
        level = top
    if level == sheet.fatigue:
        if told is None:
            ctx.say(f"Fatigue inchangée : {fatigue_label(level, rs)}.")
        return sheet
    line = f"Fatigue ({why}) : {fatigue_label(sheet.fatigue, rs)} → {fatigue_label(level, rs)}"
    if level:
        effects = rs.conditions[rs.fatigue.levels[level - 1]].effects
        if effects:
            line += f" ({effects[0].rstrip('.')})"
    ctx.say(line + ".")
    if level > sheet.fatigue:
        ctx.event("fatigue")
    return evolve(sheet, fatigue=level)


# --------------------------------------------------------------------------------------------------
# Handlers
# --------------------------------------------------------------------------------------------------


def _alive(sheet: SegmentsSheet, what: str) -> None:
    fields = sheet.__dict__
    if fields["dead"] or fields["current"] <= -fields["constitution"]:  # ``is_dead``
        raise Refused(f"{_name(sheet)} n'est plus en vie : {what} impossible.")


def damage(sheet: SegmentsSheet, action: Damage, ctx: Context) -> SegmentsSheet:
    rs: SegmentsRules = ctx.ruleset
    memo = rs.memo
    # The action's fields are read from its ``__dict__`` (issue 15: a pydantic attribute is a slow lookup).
    asked = action.__dict__
    typed = asked["damage_type"]
    tags, unknown = memo.typed.get(typed) or memo.damage_type(typed)
    if unknown:
        # An unknown or misspelt type would silently be a plain blow (« fue » meets the armour): refused.
        names = ", ".join(f"« {t} »" for t in unknown)
        raise Refused(f"Type de dégâts inconnu : {names} (types connus : {', '.join(rs.damage_types)}).")
    spell_check = asked["spell_check"]
    if spell_check is not None and sheet.magic_resistance > 0:
        score = sheet.magic_resistance
        # « Atteindre le score suffit. En cas d'échec, le sort échoue entièrement : pas de jet de
        #   sauvegarde, pas de demi-dégâts, rien. »
        if spell_check < score:
            ctx.say(
                f"Résistance à la magie {score} : le lanceur obtient {spell_check}, le sort échoue "
                "entièrement (pas de jet de sauvegarde, pas de demi-dégâts, rien)."
            )
            ctx.event("spell_resisted")
            return sheet
        ctx.say(f"Résistance à la magie {score} percée ({spell_check} atteint {score}).")
    # Hits change points, never states: whether a state may make the weapon drop is known once (no such state
    # set: nothing to drop, as if already dropped).
    dropped = not memo.drops or (memo.drops_only_when_set and memo.drop_roots.isdisjoint(sheet.conditions))
    hits = asked["hits"]
    given = asked["amount"]
    nonlethal, halves = asked["nonlethal"], asked["save_halves"]
    for number in _ONE_HIT if hits == 1 else range(1, hits + 1):
        what = "Coup" if hits == 1 else f"Coup {number}/{hits}"
        if type(given) is int:  # a number given as such: what ``ctx.amount`` would say of it
            total = given
        else:
            # A ``Roll``: (expression, total, detail, given), read by index (a NamedTuple's name is a slow lookup).
            amount = ctx.amount(given, "Dégâts")
            total = amount[1]
            if not amount[3]:
                what += f" ({amount[2]})"
        if total < 0:
            raise Refused(f"Des dégâts négatifs ({total}) n'ont pas de sens : utilisez Soins.")
        sheet = _hit(sheet, total, what, tags, rs, ctx, nonlethal, halves, memo)
        if not dropped and not (sheet.dead or sheet.current <= -sheet.constitution):
            dropped = _weapon_drop(sheet, rs, ctx)
    return sheet


# The hits of one blow (issue 15: a tuple is iterated at less cost than a ``range``).
_ONE_HIT = (1,)


def _restore(sheet: SegmentsSheet, amount: int, rs: SegmentsRules, ctx: Context, what: str) -> SegmentsSheet:
    return _restored(sheet, sheet.__dict__, amount, rs, rs.memo, ctx, what)


def _restored(
    sheet: SegmentsSheet, fields: dict[str, Any], amount: int, rs: SegmentsRules, memo: Memo, ctx: Context, what: str
) -> SegmentsSheet:
    """``_restore`` for a handler that has read the sheet's fields (its ``__dict__``) and the memo. ``amount`` is
    never negative. The new sheet is built from a copy of the fields (issue 15, as ``_hit``)."""
    top, cur, nonlethal = fields["base_maximum"], fields["current"], fields["nonlethal"]
    # ``max(0, min(amount, top - cur))``, without the calls (issue 15).
    gained = top - cur
    if gained > amount:
        gained = amount
    elif gained < 0:
        gained = 0
    new_cur = cur + gained
    line = f"{what} : PV {TEXT[cur]} → {TEXT[new_cur]}"
    if gained < amount:
        line += f" (maximum {top} atteint)"
    # ``max(0, nonlethal - amount)``: a heal takes nonlethal damage off too (unless the table says not).
    new_nl = nonlethal
    if nonlethal and amount and memo.heal_removes_nonlethal:
        new_nl = nonlethal - amount if nonlethal > amount else 0
        line += f" ; non létaux {nonlethal} → {new_nl}"
    conditions = fields["conditions"]
    if not hidden_under(conditions, sheet, rs, memo):
        ctx.say(line + ".")
    else:
        _tell(ctx, True, line + ".", f"{what} : {hidden_note(sheet, rs)}.")
    values = fields.copy()
    values["current"] = new_cur
    values["nonlethal"] = new_nl
    return _settled(fields, with_values(sheet, values), values, rs, memo, ctx)


def heal(sheet: SegmentsSheet, action: Heal, ctx: Context) -> SegmentsSheet:
    fields = sheet.__dict__
    if fields["dead"] or fields["current"] <= -fields["constitution"]:  # ``_alive``, without its call
        _alive(sheet, "regagner des points de vie")
    given = action.__dict__["amount"]
    if type(given) is int:  # a number given as such: what ``ctx.amount`` would say of it
        total, what = given, f"Soins {TEXT[given]}"
    else:
        # A ``Roll``: (expression, total, detail, given), read by index (a NamedTuple's name is a slow lookup).
        amount = ctx.amount(given, "Soins")
        total = amount[1]
        what = f"Soins {amount[2]}" if not amount[3] else f"Soins {total}"
    if total < 0:
        raise Refused(f"Des soins négatifs ({total}) n'ont pas de sens : utilisez Dégâts.")
    rs: SegmentsRules = ctx.ruleset
    return _restored(sheet, fields, total, rs, rs.memo, ctx, what)


def gain_temporary(sheet: SegmentsSheet, action: GainTemporary, ctx: Context) -> SegmentsSheet:
    rs: SegmentsRules = ctx.ruleset
    # Read from the sheet's and the action's ``__dict__``, the new sheet built from a copy (issue 15, as ``_hit``).
    fields = sheet.__dict__
    if fields["dead"] or fields["current"] <= -fields["constitution"]:  # ``_alive``, without its call
        _alive(sheet, "recevoir des points temporaires")
    asked = action.__dict__
    amount = ctx.amount(asked["amount"], "Points de vie temporaires")[1]  # a ``Roll``'s total
    if amount < 0:
        raise Refused("Des points temporaires négatifs n'ont pas de sens.")
    old = fields["temporary"]
    memo = rs.memo
    conditions = fields["conditions"]
    shown = not hidden_under(conditions, sheet, rs, memo)
    # House rule for every system (GLOSSARY): temporary points never stack (S11).
    if old and not asked["replace"]:
        line = f"Points de vie temporaires : {old} conservés, les {amount} nouveaux ne se cumulent pas."
        if shown:
            ctx.say(line)
        else:
            _tell(ctx, True, line, f"Points de vie temporaires : les anciens restent ({hidden_note(sheet, rs)}).")
        return sheet
    line = (
        f"Points de vie temporaires : {old} remplacés par {amount}."
        if old
        else f"Points de vie temporaires : {amount}."
    )
    if shown:
        ctx.say(line)
    else:
        _tell(ctx, True, line, f"Points de vie temporaires reçus ({hidden_note(sheet, rs)}).")
    values = fields.copy()
    values["temporary"] = amount
    return with_values(sheet, values)


def lose_temporary(sheet: SegmentsSheet, action: LoseTemporary, ctx: Context) -> SegmentsSheet:
    fields = sheet.__dict__
    temporary = fields["temporary"]
    if temporary:
        rs: SegmentsRules = ctx.ruleset
        line = f"Les {temporary} points de vie temporaires prennent fin."
        _tell(ctx, points_hidden(sheet, rs), line, "Les points de vie temporaires prennent fin.")
    # A new sheet even when there were none (as ``evolve`` gives), built from a copy of the fields (issue 15).
    values = fields.copy()
    values["temporary"] = 0
    return with_values(sheet, values)


def _known_states(rs: SegmentsRules) -> str:
    return ", ".join(r.label for c, r in rs.conditions.items() if c not in rs.fatigue.levels)


def _surprise_changes(memo: Memo, conditions: tuple[str, ...]) -> dict[str, Any]:
    """Surpris just ended (its counters go back to 0) when no surprise state remains in ``conditions``."""
    if not memo.surprises.isdisjoint(conditions):
        return {}
    return {"surprise_segments": 0, "surprised_for": 0}


def set_condition(sheet: SegmentsSheet, action: SetCondition, ctx: Context) -> SegmentsSheet:
    rs: SegmentsRules = ctx.ruleset
    memo = rs.memo
    # The action's and the sheet's fields are read from their ``__dict__`` (issue 15: a pydantic attribute is a
    # slow lookup), the table's from its memo.
    asked = action.__dict__
    cid = asked["condition"]
    label = memo.labels.get(cid)
    if label is None:
        raise Refused(f"État inconnu : « {cid} » (états : {_known_states(rs)}).")
    fields = sheet.__dict__
    if cid in memo.fatigue_levels:
        if not asked["active"]:
            raise Refused(
                "Seul le repos dissipe la fatigue : prenez un repos, ou corrigez le degré sur l'échelle de fatigue."
            )
        _alive(sheet, "se fatiguer")
        level = memo.fatigue_levels.index(cid) + 1
        if fields["fatigue"] >= level:
            ctx.say(f"{label} : déjà {fatigue_label(fields['fatigue'], rs)}.")
            return sheet
        return _fatigue_to(sheet, level, rs, ctx, label)
    conditions = fields["conditions"]
    if asked["active"]:
        if cid in conditions:
            ctx.say(f"{label} : déjà en place.")
            return sheet
        if fields["dead"] or fields["current"] <= -fields["constitution"]:  # ``_alive``, without its call
            _alive(sheet, "changer d'état")
        values = fields.copy()
        values["conditions"] = tuple(sorted({*conditions, cid}))
        if cid in memo.surprises:
            segments = surprise_segments(sheet, rs)
            values["surprise_segments"] = segments
            ctx.say(f"État {label} ajouté ({plural(segments, 'segment')} de surprise).")
        else:
            ctx.say(f"État {label} ajouté.")
        return with_values(sheet, values)
    if cid not in conditions:
        implied = effective_conditions(sheet, rs).get(cid)
        if implied:
            raise Refused(f"{label} {implied} : changez-en d'abord la cause.")
        ctx.say(f"{label} : n'était pas en place.")
        return sheet
    ctx.say(f"État {label} retiré.")
    # Every ``cid`` taken out (a sheet holds each state once: the slices of the first one, then a check).
    at = conditions.index(cid)
    remaining = conditions[:at] + conditions[at + 1 :]
    if cid in remaining:
        remaining = tuple([c for c in conditions if c != cid])
    values = fields.copy()
    values["conditions"] = remaining
    if memo.surprises.isdisjoint(remaining):  # ``_surprise_changes``, without its call
        values["surprise_segments"] = 0
        values["surprised_for"] = 0
    return with_values(sheet, values)


def clear_conditions(sheet: SegmentsSheet, action: ClearConditions, ctx: Context) -> SegmentsSheet:
    rs: SegmentsRules = ctx.ruleset
    for cid in action.include:
        if cid not in rs.conditions:
            raise Refused(f"État inconnu : « {cid} » (états : {_known_states(rs)}).")
    if sheet.conditions:
        ctx.say(
            "États retirés : " + ", ".join(rs.conditions[c].label for c in sheet.conditions if c in rs.conditions) + "."
        )
    else:
        ctx.say("Aucun état posé à retirer.")
    sheet = evolve(sheet, conditions=(), surprise_segments=0, surprised_for=0)
    if sheet.fatigue:
        ctx.say(f"{fatigue_label(sheet.fatigue, rs)} reste : seul le repos dissipe la fatigue.")
    remaining = effective_conditions(sheet, rs)
    for cid, why in remaining.items():
        if cid not in rs.fatigue.levels:
            ctx.say(f"{rs.conditions[cid].label} reste ({why}).")
    return sheet


def _stabilise(sheet: SegmentsSheet, ctx: Context, how: str) -> SegmentsSheet:
    ctx.say(f"{_name(sheet)} : stabilisation ({how}) ; ne perd plus de points de vie.")
    ctx.event("stabilised")
    return evolve(sheet, stabilised=True)


def _self_stabilise(sheet: SegmentsSheet, rs: SegmentsRules, ctx: Context, bonus: int = 0) -> SegmentsSheet:
    dd = rs.dying.self_stabilise_dd
    ok = _check(ctx, sheet, "fortitude", dd, "Vigueur pour se stabiliser sans aide", bonus)
    sheet = evolve(sheet, self_stabilise_turn=_turn_index(sheet, rs))
    return _stabilise(sheet, ctx, f"Vigueur difficulté {dd} réussie") if ok else sheet


STABILISE_METHODS = ("self", "ally")


def stabilise(sheet: SegmentsSheet, action: Stabilise, ctx: Context) -> SegmentsSheet:
    rs: SegmentsRules = ctx.ruleset
    _alive(sheet, "la stabilisation")
    if action.method in ("first_aid", "medicine"):
        # « aucune compétence n'intervient : la Médecine soigne ce qui vient après, elle ne stabilise pas »
        raise Refused(
            "La Médecine soigne ce qui vient après, elle ne stabilise pas : un allié stabilise par une action "
            "d'interaction, sans jet."
        )
    if action.method not in STABILISE_METHODS:
        raise Refused(f"Méthode de stabilisation inconnue : « {action.method} » (au choix : sans aide, ou un allié).")
    if sheet.current >= 0:
        raise Refused("Seul un personnage à moins de zéro point de vie se stabilise.")
    if sheet.stabilised:
        raise Refused("La stabilisation est déjà acquise.")
    if action.method == "ally":
        # « Un allié peut le stabiliser avec une action d'interaction, sans jet »
        return _stabilise(sheet, ctx, "un allié, par une action d'interaction, sans jet")
    # « Il peut tenter un jet de Vigueur difficulté 20, une fois par tour, pour se stabiliser seul. »
    if sheet.self_stabilise_turn == _turn_index(sheet, rs):
        raise Refused(
            "Une seule tentative de Vigueur par tour pour se stabiliser sans aide : attendez le tour suivant."
        )
    return _self_stabilise(sheet, rs, ctx, action.modifier)


def set_fatigue(sheet: SegmentsSheet, action: SetFatigue, ctx: Context) -> SegmentsSheet:
    rs: SegmentsRules = ctx.ruleset
    if action.level > sheet.fatigue:
        _alive(sheet, "se fatiguer")
    why = "échelle"
    if action.level < sheet.fatigue:
        why = "correction du meneur : seul le repos dissipe la fatigue"
    return _fatigue_to(sheet, action.level, rs, ctx, why)


def add_fatigue(sheet: SegmentsSheet, action: AddFatigue, ctx: Context) -> SegmentsSheet:
    _alive(sheet, "se fatiguer")
    # « un personnage déjà fatigué qui se fatigue encore devient épuisé »
    return _fatigue_to(sheet, sheet.fatigue + action.steps, ctx.ruleset, ctx, "se fatigue encore")


def stand_up(sheet: SegmentsSheet, action: StandUp, ctx: Context) -> SegmentsSheet:
    rs: SegmentsRules = ctx.ruleset
    _alive(sheet, "se relever")
    lying = [c for c in sheet.conditions if c in rs.conditions and rs.conditions[c].stand_up_segments is not None]
    if not lying:
        raise Refused(f"{_name(sheet)} n'est pas à terre.")
    state, _ = health_state(sheet, rs)
    if state in OUT_OF_ACTION:
        raise Refused(f"{_name(sheet)} : {rs.health_states[state].label}, se relever est impossible.")
    # Several lying states at once: standing up costs the dearest of them.
    cost = max(rs.conditions[c].stand_up_segments or 0 for c in lying)
    ctx.say(f"{_name(sheet)} se relève : cela coûte {plural(cost, 'segment')} de sa fenêtre.")
    return evolve(sheet, conditions=tuple(c for c in sheet.conditions if c not in lying))


def set_surprise(sheet: SegmentsSheet, action: SetSurprise, ctx: Context) -> SegmentsSheet:
    rs: SegmentsRules = ctx.ruleset
    ids = [c for c, r in rs.conditions.items() if r.surprise]
    if not ids:
        raise Refused("La table de règles ne décrit pas d'état de surprise.")
    cid = ids[0]
    if action.segments == 0:
        ctx.say("La surprise prend fin.")
        remaining = tuple(c for c in sheet.conditions if c != cid)
        return evolve(sheet, conditions=remaining, **_surprise_changes(rs.memo, remaining))
    _alive(sheet, "la surprise")
    # « démarre plus loin dans sa fenêtre, du nombre de segments de surprise accordés aux agresseurs »
    ctx.say(f"{rs.conditions[cid].label} : démarre {plural(action.segments, 'segment')} plus loin dans sa fenêtre.")
    return evolve(
        sheet,
        conditions=tuple(sorted({*sheet.conditions, cid})),
        surprise_segments=action.segments,
        surprised_for=0,
    )


def fall(sheet: SegmentsSheet, action: Fall, ctx: Context) -> SegmentsSheet:
    rs: SegmentsRules = ctx.ruleset
    rule = rs.fall
    _alive(sheet, "tomber")
    # « Chute : 1d6 par tranche de 3 m, jusqu'à 20d6. Un jet d'Agilité réussi retire les dégâts des trois
    #   premiers mètres »
    tranches = int(action.metres // rule.metres_per_die)
    ctx.say(
        f"Chute de {_metres(action.metres)} m : {plural(tranches, 'tranche')} de {rule.metres_per_die} m "
        "(la classe d'armure ne compte pas : il n'y a rien à esquiver)."
    )
    if action.agility_dd is not None:
        landed = _check(ctx, sheet, "agility", action.agility_dd, "Agilité pour amortir la chute")
    else:
        landed = action.agility_success
        if landed:
            ctx.say("Jet d'Agilité réussi.")
    removed = -(-rule.agility_metres // rule.metres_per_die) if landed else 0

    def cap(count: int) -> int:
        if count > rule.max_dice:
            ctx.say(f"Au plus {rule.max_dice} tranches comptent.")
            return rule.max_dice
        return count

    def soften(count: int) -> int:
        if removed and count:
            ctx.say(f"Les dégâts des {rule.agility_metres} premiers mètres sont retirés.")
            return max(0, count - removed)
        return count

    # S12: the cap first, then the roll takes off the first slice (100 m: 19d6), unless the table says otherwise.
    tranches = cap(soften(tranches)) if rule.agility_before_cap else soften(cap(tranches))
    if tranches == 0:
        ctx.say("Aucun dégât.")
        return sheet
    count, sides = rule.die
    roll = ctx.dice(count * tranches, sides, "Chute")
    what = f"Chute ({roll.detail})"
    sheet = _hit(sheet, roll.total, what, frozenset({rule.damage_type}), rs, ctx, halved=action.save_halves)
    if rule.lands_prone and not is_dead(sheet):
        prone = [c for c, r in rs.conditions.items() if r.stand_up_segments is not None]
        if prone and prone[0] not in sheet.conditions:
            ctx.say(f"{_name(sheet)} se retrouve {rs.conditions[prone[0]].label.lower()}.")
            sheet = evolve(sheet, conditions=tuple(sorted({*sheet.conditions, prone[0]})))
    return sheet


def set_suffocating(sheet: SegmentsSheet, action: SetSuffocating, ctx: Context) -> SegmentsSheet:
    rs: SegmentsRules = ctx.ruleset
    if not action.active:
        if sheet.suffocating_for is None:
            ctx.say(f"{_name(sheet)} respirait déjà.")
            return sheet
        ctx.say(f"{_name(sheet)} respire à nouveau.")
        return evolve(sheet, suffocating_for=None)
    _alive(sheet, "manquer d'air")
    if sheet.suffocating_for is not None:
        ctx.say(f"{_name(sheet)} manque déjà d'air.")
        return sheet
    turns = sheet.constitution * rs.suffocation.turns_per_constitution
    # « on tient un nombre de tours égal à sa Constitution, puis on tombe à 0 point de vie, puis on meurt
    #   au tour suivant »
    ctx.say(
        f"Sans air : tient {plural(turns, 'tour')} (Constitution {sheet.constitution}), puis tombe à "
        f"0 point de vie, puis meurt {plural(rs.suffocation.death_after_turns, 'tour')} plus tard."
    )
    return evolve(sheet, suffocating_for=0)


def set_burning(sheet: SegmentsSheet, action: SetBurning, ctx: Context) -> SegmentsSheet:
    rs: SegmentsRules = ctx.ruleset
    if not action.active:
        ctx.say(f"{_name(sheet)} ne brûle plus." if sheet.burning else f"{_name(sheet)} ne brûlait pas.")
        return evolve(sheet, burning=False, burning_for=0)
    _alive(sheet, "prendre feu")
    if sheet.burning:
        ctx.say(f"{_name(sheet)} brûle déjà.")
        return sheet
    count, sides = rs.fire.damage
    # « 1d6 par tour tant qu'on brûle » : counted from now, at the end of each whole turn spent burning (S13).
    ctx.say(f"{_name(sheet)} prend feu : {count}d{sides} à la fin de chaque tour entier passé à brûler.")
    return evolve(sheet, burning=True)


def extinguish(sheet: SegmentsSheet, action: Extinguish, ctx: Context) -> SegmentsSheet:
    rs: SegmentsRules = ctx.ruleset
    if not sheet.burning:
        raise Refused(f"{_name(sheet)} n'est pas en feu.")
    if action.method == "maneuver":
        ctx.say("Les flammes sont éteintes (une manœuvre).")
        return evolve(sheet, burning=False, burning_for=0)
    state, _ = health_state(sheet, rs)
    if state in OUT_OF_ACTION:
        raise Refused(f"{_name(sheet)} : {rs.health_states[state].label}, se rouler au sol est impossible.")
    # « ou une action gratuite en se jetant à terre puis en roulant, avec un jet de Réflexes »
    prone = [c for c, r in rs.conditions.items() if r.stand_up_segments is not None]
    if prone:
        sheet = evolve(sheet, conditions=tuple(sorted({*sheet.conditions, prone[0]})))
        ctx.say(f"{_name(sheet)} se jette à terre et roule.")
    if _check(ctx, sheet, "reflex", rs.fire.extinguish_dd, "Réflexes pour éteindre les flammes"):
        ctx.say("Les flammes sont éteintes.")
        return evolve(sheet, burning=False, burning_for=0)
    ctx.say("Les flammes brûlent toujours.")
    return sheet


def set_exposure(sheet: SegmentsSheet, action: SetExposure, ctx: Context) -> SegmentsSheet:
    rs: SegmentsRules = ctx.ruleset
    if not action.exposure:
        if sheet.exposure:
            ctx.say(f"À l'abri : l'exposition au {rs.exposure[sheet.exposure].label} prend fin.")
        return evolve(sheet, exposure="", exposure_for=0, exposure_save_dd=None)
    _alive(sheet, "l'exposition")
    rule = rs.exposure[action.exposure]
    count, sides = rule.damage
    line = (
        f"Exposition au {rule.label} sans protection : {count}d{sides} toutes les "
        f"{plural(rule.damage_every_hours, 'heure')}, un degré de fatigue toutes les "
        f"{plural(rule.fatigue_every_hours, 'heure')}"
    )
    if action.save_dd is not None:
        line += f" ; Vigueur difficulté {action.save_dd} à chaque fois pour diviser les dégâts par deux"
    ctx.say(line + ".")
    counter = sheet.exposure_for if sheet.exposure == action.exposure else 0
    return evolve(sheet, exposure=action.exposure, exposure_for=counter, exposure_save_dd=action.save_dd)


def set_privation(sheet: SegmentsSheet, action: SetPrivation, ctx: Context) -> SegmentsSheet:
    rs: SegmentsRules = ctx.ruleset
    rule = rs.privations[action.need]
    counter = PRIVATION_COUNTERS[action.need]
    if action.active:
        _alive(sheet, "la privation")
        if action.need in sheet.privations:
            ctx.say(f"Déjà {rule.label}.")
            return sheet
        ctx.say(f"{_name(sheet)} : {rule.label}, un degré de fatigue toutes les {plural(rule.hours, 'heure')}.")
        return evolve(sheet, privations=tuple(sorted({*sheet.privations, action.need})), **{counter: 0})
    if action.need not in sheet.privations:
        ctx.say(f"{_name(sheet)} n'était pas {rule.label}.")
        return sheet
    ctx.say(f"{_name(sheet)} n'est plus {rule.label} ; la fatigue déjà prise reste jusqu'au repos.")
    return evolve(sheet, privations=tuple(p for p in sheet.privations if p != action.need), **{counter: 0})


# --------------------------------------------------------------------------------------------------
# Edit
# --------------------------------------------------------------------------------------------------


def prepare_edit(sheet: SegmentsSheet, data: dict[str, Any]) -> dict[str, Any]:
    """What an edit entails before it is checked: healed to 0 or more ends the stabilisation, an exposure
    that ends stops its counter… Only the fields the edit leaves alone are adjusted: what the user asked
    for is checked as asked."""
    from rules.systems.segments.sheet import rules_table

    def alone(key: str) -> bool:
        return key not in data or data[key] == getattr(sheet, key)

    def reset(key: str, value: object) -> None:
        if alone(key):
            data[key] = value

    current = data.get("current")
    if isinstance(current, int) and not isinstance(current, bool) and current >= 0:
        reset("stabilised", False)
        reset("self_stabilise_turn", None)
    if data.get("dead") is True:
        reset("stabilised", False)
    if data.get("burning") is False:
        reset("burning_for", 0)
    if data.get("exposure") == "":
        reset("exposure_for", 0)
        reset("exposure_save_dd", None)
    privations = data.get("privations")
    if isinstance(privations, (list, tuple)):
        for need, counter in PRIVATION_COUNTERS.items():
            if need not in privations:
                reset(counter, 0)
    if data.get("nonlethal") == 0:
        reset("nonlethal_for", 0)
    conditions = data.get("conditions")
    if isinstance(conditions, (list, tuple)) and all(isinstance(c, str) for c in conditions):
        for key, value in _surprise_changes(rules_table().memo, tuple(conditions)).items():
            reset(key, value)
    return data


def duration_text(seconds: int) -> str:
    """``93_784`` → « 1 j 2 h 3 min 4 s »."""
    parts = []
    for size, unit in ((86_400, "j"), (3_600, "h"), (60, "min"), (1, "s")):
        count, seconds = divmod(seconds, size)
        if count:
            parts.append(f"{count} {unit}")
    return " ".join(parts) or "0 s"


def shown_value(name: str, value: Any, rs: SegmentsRules) -> str:
    """A stored value as the sheet shows it: labels for ids, « oui »/« non », durations, quoted texts."""
    if isinstance(value, bool):
        return "oui" if value else "non"
    if value is None:
        return "non" if name == "suffocating_for" else "aucune"
    if name in DURATION_FIELDS:
        return duration_text(int(value))
    if name == "self_stabilise_turn":
        return f"tour n° {int(value) + 1}"
    if name in ("armour", "light", "exposure", "privations"):
        choices = _choices(name, rs)
        if name == "privations":
            return ", ".join(choices.get(v, v) for v in value) or "aucune"
        return choices.get(value, str(value))
    if name == "conditions":
        return ", ".join(rs.conditions[c].label if c in rs.conditions else c for c in value) or "aucun"
    if isinstance(value, tuple):
        return ", ".join(value) or "aucune"
    if isinstance(value, int):
        return fmt_int(value)
    text = str(value)
    if not text:
        return "(vide)"
    return f"« {text[:60]}… »" if len(text) > 60 else f"« {text} »"


def after_edit(old: SegmentsSheet, new: SegmentsSheet, rs: SegmentsRules, ctx: Context) -> SegmentsSheet:
    """The journal of an edit in the sheet's own words (labels, not field names), then what follows from it."""
    # The facade's generic lines (field names, raw values) are replaced by these.
    ctx.log.clear()
    hidden = points_hidden(old, rs) or points_hidden(new, rs)
    points_changed = False
    for name in type(new).model_fields:
        before, after = getattr(old, name), getattr(new, name)
        if before != after:
            line = f"{LABELS[name]} : {shown_value(name, before, rs)} → {shown_value(name, after, rs)}."
            secret = hidden and name in POINT_FIELDS
            points_changed = points_changed or secret
            ctx.say(line, secret=secret)
    if points_changed:
        ctx.say(f"Points de vie modifiés ({hidden_note(new, rs)}).")
    # Death is automatic: a lowered Constitution or PV below its negative kills (« 7.2 »).
    return _settle(old, new, rs, ctx)
