"""d20 derived values: characteristics in play, maximum, PV total, death, state, conditions, DD."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules import record
from rules.labels import ABILITIES, ABILITY_LABELS
from rules.model import (
    MAX_POINTS,
    Derived,
    Explained,
    Term,
    explained_modifier,
    explained_sum,
    fmt_int,
    of,
    plural,
    signed,
)
from rules.record import _set
from rules.ruleset import per_table
from rules.systems.d20.sheet import RECOVERY_LABELS, SYSTEM_ID, D20Sheet
from rules.systems.d20.table import D20Rules

# The last sheet ``handlers._settle`` gave, its table, its state, its maximum, the table's figures, its
# Constitution in play (before its floor at 0), the PV at which it dies, and True (issue 15): the next action
# starts from it, so whether it lives, its state, its maximum and its death threshold are known without working
# them out again. Sheets are immutable, so the identity of the object is enough; only a living sheet is recorded.
# A sheet no settle gave (a new sheet, one read from a file, the GM table's creatures) is recorded the same way
# by ``known`` the first time a handler asks whether it lives, with False last: the same facts, worked out once,
# but not settled (``_settle`` still makes it coherent). One tuple, replaced at once: another thread's settle
# cannot mix into a read.
Record = tuple[Any, Any, str, int, Any, int, int, bool]
SETTLED: list[Record] = [(None, None, "", 0, None, 0, 0, False)]


class Figures(record.Record):
    """The numbers of a rule table that every action reads, read once per table (issue 15): a pydantic
    model's attribute costs several times a plain one's, and ``_settle`` reads a dozen after every action."""

    __slots__ = (  # noqa: RUF023  (the fields, in order)
        "table",
        "zero",
        "death_at",
        "death_constitution",
        "minus_constitution",
        "count_temporary",
        "absorb_nonlethal",
        "changes_pv",
        "ability_base",
        "ability_step",
        "min_pv_per_level",
        "hour",
        "first_dying_roll",
        "assisted_first_roll",
        "alone_interval",
        "alone_first_daily_roll",
        "nonlethal_recovers",
        "massive_threshold",
        "massive_nonlethal",
        "damage_breaks_stability",
        "heal_spell_min",
        "healing_removes_any",
        "rest_removes",
        "wounds_heal_at_full",
        "wounds_heal_by_magic",
        "state_labels",
        "state_effects",
        "condition_labels",
        "settable",
    )
    table: D20Rules
    zero: int  # thresholds.disabled_at: « À 0 point de vie, l'aventurier est mis hors de combat »
    death_at: int
    death_constitution: int
    minus_constitution: bool  # thresholds.death_at_minus_constitution
    count_temporary: bool  # temporary.count_for_state
    absorb_nonlethal: bool
    changes_pv: bool  # constitution.changes_pv
    ability_base: int
    ability_step: int
    min_pv_per_level: int
    hour: int  # seconds
    first_dying_roll: int  # seconds after the fall: dying.first_roll_after_rounds rounds
    assisted_first_roll: int  # seconds: recovery.assisted_first_roll_hours
    alone_interval: int  # seconds: recovery.alone_interval_hours
    alone_first_daily_roll: int  # seconds: recovery.alone_first_daily_roll_hours
    nonlethal_recovers: bool  # nonlethal.recovery_per_hour_per_level > 0
    massive_threshold: int
    massive_nonlethal: bool  # massive_damage.nonlethal_counts
    damage_breaks_stability: bool
    heal_spell_min: int
    healing_removes_any: bool  # nonlethal.healing_removes == "any"
    rest_removes: bool
    wounds_heal_at_full: bool
    wounds_heal_by_magic: bool
    state_labels: dict[str, str]
    state_effects: dict[str, str]
    condition_labels: dict[str, str]
    settable: frozenset[str]  # the conditions a user may put on by hand

    def __init__(
        self,
        table: D20Rules,
        zero: int,
        death_at: int,
        death_constitution: int,
        minus_constitution: bool,
        count_temporary: bool,
        absorb_nonlethal: bool,
        changes_pv: bool,
        ability_base: int,
        ability_step: int,
        min_pv_per_level: int,
        hour: int,
        first_dying_roll: int,
        assisted_first_roll: int,
        alone_interval: int,
        alone_first_daily_roll: int,
        nonlethal_recovers: bool,
        massive_threshold: int,
        massive_nonlethal: bool,
        damage_breaks_stability: bool,
        heal_spell_min: int,
        healing_removes_any: bool,
        rest_removes: bool,
        wounds_heal_at_full: bool,
        wounds_heal_by_magic: bool,
        state_labels: dict[str, str],
        state_effects: dict[str, str],
        condition_labels: dict[str, str],
        settable: frozenset[str],
    ) -> None:
        _set(self, "table", table)
        _set(self, "zero", zero)
        _set(self, "death_at", death_at)
        _set(self, "death_constitution", death_constitution)
        _set(self, "minus_constitution", minus_constitution)
        _set(self, "count_temporary", count_temporary)
        _set(self, "absorb_nonlethal", absorb_nonlethal)
        _set(self, "changes_pv", changes_pv)
        _set(self, "ability_base", ability_base)
        _set(self, "ability_step", ability_step)
        _set(self, "min_pv_per_level", min_pv_per_level)
        _set(self, "hour", hour)
        _set(self, "first_dying_roll", first_dying_roll)
        _set(self, "assisted_first_roll", assisted_first_roll)
        _set(self, "alone_interval", alone_interval)
        _set(self, "alone_first_daily_roll", alone_first_daily_roll)
        _set(self, "nonlethal_recovers", nonlethal_recovers)
        _set(self, "massive_threshold", massive_threshold)
        _set(self, "massive_nonlethal", massive_nonlethal)
        _set(self, "damage_breaks_stability", damage_breaks_stability)
        _set(self, "heal_spell_min", heal_spell_min)
        _set(self, "healing_removes_any", healing_removes_any)
        _set(self, "rest_removes", rest_removes)
        _set(self, "wounds_heal_at_full", wounds_heal_at_full)
        _set(self, "wounds_heal_by_magic", wounds_heal_by_magic)
        _set(self, "state_labels", state_labels)
        _set(self, "state_effects", state_effects)
        _set(self, "condition_labels", condition_labels)
        _set(self, "settable", settable)


def _read(rs: D20Rules) -> Figures:
    thresholds, recovery, time = rs.thresholds, rs.recovery, rs.time_units
    hour = time["hour"]
    figures = Figures(
        table=rs,
        zero=thresholds.disabled_at,
        death_at=thresholds.death_at,
        death_constitution=thresholds.death_constitution,
        minus_constitution=thresholds.death_at_minus_constitution,
        count_temporary=rs.temporary.count_for_state,
        absorb_nonlethal=rs.temporary.absorb_nonlethal,
        changes_pv=rs.constitution.changes_pv,
        ability_base=rs.general.ability_base,
        ability_step=rs.general.ability_step,
        min_pv_per_level=rs.constitution.min_pv_per_level,
        hour=hour,
        first_dying_roll=rs.dying.first_roll_after_rounds * time["round"],
        assisted_first_roll=recovery.assisted_first_roll_hours * hour,
        alone_interval=recovery.alone_interval_hours * hour,
        alone_first_daily_roll=recovery.alone_first_daily_roll_hours * hour,
        nonlethal_recovers=rs.nonlethal.recovery_per_hour_per_level > 0,
        massive_threshold=rs.massive_damage.threshold,
        massive_nonlethal=rs.massive_damage.nonlethal_counts,
        damage_breaks_stability=rs.dying.damage_breaks_stability,
        heal_spell_min=rs.dying.heal_spell_min,
        healing_removes_any=rs.nonlethal.healing_removes == "any",
        rest_removes=rs.nonlethal.rest_removes,
        wounds_heal_at_full=rs.local_wounds.heal_at_full,
        wounds_heal_by_magic=rs.local_wounds.heal_by_magic,
        state_labels={state: info.label for state, info in rs.health_states.items()},
        state_effects={state: info.effect for state, info in rs.health_states.items()},
        condition_labels={cid: rule.label for cid, rule in rs.conditions.items()},
        settable=frozenset(cid for cid, rule in rs.conditions.items() if rule.settable),
    )
    return figures


# The figures of a rule table, read once (by identity: a table is never changed once loaded).
figures: Callable[[D20Rules], Figures] = per_table(_read)


def ability_modifier(score: int, rs: D20Rules) -> int:
    return (score - rs.general.ability_base) // rs.general.ability_step


def constitution_score(sheet: D20Sheet) -> int:
    """The Constitution in play (the one every PV rule reads; kept apart for speed)."""
    return max(0, sheet.constitution + sheet.constitution_bonus - sheet.constitution_damage - sheet.constitution_drain)


def ability_score(sheet: D20Sheet, ability: str) -> int:
    """The score in play: base (+ the Constitution increase) − ability damage − drain, never below 0."""
    if ability == "constitution":
        return constitution_score(sheet)
    score: int = getattr(sheet, ability)
    return max(0, score - int(getattr(sheet, f"{ability}_damage")) - int(getattr(sheet, f"{ability}_drain")))


def _con_modified(sheet: D20Sheet) -> bool:
    return bool(sheet.constitution_bonus or sheet.constitution_damage or sheet.constitution_drain)


def constitution_pv(sheet: D20Sheet, rs: D20Rules) -> int:
    """PV added (or removed) by the Constitution in play differing from the sheet's score (001 § PV et CON)."""
    if not _con_modified(sheet) or not rs.constitution.changes_pv:
        return 0
    played = ability_modifier(constitution_score(sheet), rs)
    return sheet.level * (played - ability_modifier(sheet.constitution, rs))


def maximum(sheet: D20Sheet, rs: D20Rules) -> int:
    """The effective maximum: the PV maximum plus what the Constitution in play adds (T13).

    Runs after every action (``_settle``): worked out inline, same result as ``base_maximum +
    constitution_pv`` raised to the floor of ``min_pv_per_level`` per level."""
    d = sheet.__dict__  # one read: a pydantic model's attribute costs several dict reads (issue 15)
    bonus, damage, drain = d["constitution_bonus"], d["constitution_damage"], d["constitution_drain"]
    base: int = d["base_maximum"]
    if not (bonus or damage or drain):
        return base  # the floor (1 PV per level at most the base) cannot matter then
    last = SETTLED[0]
    if last[0] is sheet and last[1] is rs:
        return last[3]
    con = d["constitution"]
    return maximum_of(base, d["level"], con, con + bonus - damage - drain, figures(rs))


def maximum_of(base: int, level: int, con: int, played: int, f: Figures) -> int:
    """``maximum`` from what it reads: the PV maximum ``base``, the ``level``, the sheet's Constitution
    ``con`` and the one in play ``played`` (before its floor at 0)."""
    if not f.changes_pv:
        return base
    start, step = f.ability_base, f.ability_step
    # ``min``/``max`` written out: the builtins cost several times a comparison (issue 15).
    con_pv = level * (((played if played > 0 else 0) - start) // step - (con - start) // step)
    total = base + con_pv
    if con_pv >= 0:
        return total if total < MAX_POINTS else MAX_POINTS
    floor = level * f.min_pv_per_level
    if base < floor:
        floor = base
    return total if total > floor else floor


def pv_total(sheet: D20Sheet, rs: D20Rules) -> int:
    """« le total de points de vie » that the states follow (temporary PV included, T4)."""
    d = sheet.__dict__
    current: int = d["current"]
    return current + d["temporary"] if figures(rs).count_temporary else current


def pv_words(sheet: D20Sheet, rs: D20Rules) -> str:
    """The PV total as every text of the sheet says it: the real PV, and the temporary PV apart.

    « 13 PV » without temporary PV; « 13 PV + 5 PV temporaires = 18 au total » with them (issue 10: the
    header's real PV and the state's total must never look like two readings of one number)."""
    d = sheet.__dict__  # one read: a pydantic model's attribute costs several dict reads (issue 15)
    current, temporary = d["current"], d["temporary"]
    if temporary and figures(rs).count_temporary:
        return f"{fmt_int(current)} PV + {temporary} PV temporaires = {fmt_int(current + temporary)} au total"
    return f"{fmt_int(current)} PV"


def death_reason(sheet: D20Sheet, rs: D20Rules) -> str:
    """Why the character is dead, or "" when alive."""
    d = sheet.__dict__
    if d["dead"]:
        return d["death_cause"] or "mort"
    con = d["constitution"] + d["constitution_bonus"] - d["constitution_damage"] - d["constitution_drain"]
    return death_cause(con, d["current"], figures(rs))


def death_cause(played: int, current: int, f: Figures) -> str:
    """Why a living character dies with the Constitution in play ``played`` (before its floor at 0) and
    ``current`` PV, or "" when these leave him alive."""
    if played <= f.death_constitution:
        return f"Constitution à {max(0, played)}"
    if current <= death_pv(played, f):
        return f"{fmt_int(current)} PV"
    return ""


def death_pv(played: int, f: Figures) -> int:
    """The PV at which a character whose Constitution in play is ``played`` (before its floor at 0) dies:
    ``death_at``, or minus that Constitution under the house rule."""
    return _minus_constitution(played, f) if f.minus_constitution else f.death_at


def death_at(sheet: D20Sheet, rs: D20Rules) -> int:
    """The PV at which the character dies: « À partir de –10 points de vie, il est mort » (``death_at``), or
    minus the Constitution score when the table says so (a house rule), never above the disabled state's
    next point down."""
    f = figures(rs)
    if not f.minus_constitution:
        return f.death_at
    con = sheet.constitution + sheet.constitution_bonus - sheet.constitution_damage - sheet.constitution_drain
    return _minus_constitution(con, f)


def _minus_constitution(played: int, f: Figures) -> int:
    """The house rule's death threshold: minus the Constitution in play ``played``, below « hors de combat »."""
    return min(-max(0, played), f.zero - 1)


def state_id(sheet: D20Sheet, rs: D20Rules, dead: str | None = None) -> str:
    """The state from the table « 0 hors de combat, –1 à –9 mourant, –10 mort » (and the nonlethal rule).

    ``dead``: the death reason when the caller already knows it ("" = alive)."""
    if dead is None:
        last = SETTLED[0]
        if last[0] is sheet and last[1] is rs:
            return last[2]
        dead = death_reason(sheet, rs)
    if dead:
        return "mort"
    d, f = sheet.__dict__, figures(rs)
    total = d["current"] + d["temporary"] if f.count_temporary else d["current"]
    return living_state(total, d["nonlethal"], d["recovery"], d["conditions"], f.zero)


def living_state(total: int, nl: int, recovery: str, conditions: tuple[str, ...], zero: int) -> str:
    """The state of a living character from its PV ``total``, nonlethal damage ``nl``, ``recovery`` and
    conditions, ``zero`` being the PV of « hors de combat »."""
    if total < zero:
        if recovery == "":
            return "mourant"
        if recovery in ("assisted", "alone"):
            return "stabilise"
        if nl > 0 or "inconscient" in conditions:
            return "inconscient"
        return "hors_de_combat"
    if (nl > 0 and nl > total) or "inconscient" in conditions:
        return "inconscient"
    if total == zero:
        return "hors_de_combat"
    if (nl > 0 and nl == total) or "chancelant" in conditions:
        return "chancelant"
    return "en_forme"


def health_state(sheet: D20Sheet, rs: D20Rules, dead: str | None = None) -> tuple[str, str]:
    """The state id and why, in French.

    The GM table asks it of every creature after a bulk action (« qui est tombé »): when ``sheet`` is the one
    the last settle gave (``SETTLED``), it lives and its state is the recorded one, nothing to work out."""
    if dead is None:
        last = SETTLED[0]
        if last[0] is sheet and last[1] is rs:
            state = last[2]
            return state, _state_words(sheet.__dict__, last[4], state)
        dead = death_reason(sheet, rs)
    state = state_id(sheet, rs, dead)
    if state == "mort":
        return state, dead
    return state, state_words(sheet, rs, state)


def state_words(sheet: D20Sheet, rs: D20Rules, state: str) -> str:
    """Why a living character is in ``state`` (its ``state_id``), in French."""
    return _state_words(sheet.__dict__, figures(rs), state)


def _state_words(d: dict[str, Any], f: Figures, state: str) -> str:
    """``state_words`` from the sheet's fields ``d`` and the table's figures ``f``: ``pv_total`` and
    ``pv_words`` worked out inline (the GM table asks a thousand states after a bulk action, issue 15)."""
    current, temporary = d["current"], d["temporary"]
    if temporary and f.count_temporary:
        total = current + temporary
        pv = f"{fmt_int(current)} PV + {temporary} PV temporaires = {fmt_int(total)} au total"
    else:
        total = current  # no temporary PV, or they do not count for the state
        pv = f"{fmt_int(current)} PV"
    if state in ("inconscient", "chancelant"):
        nl = d["nonlethal"]
        if nl > 0 and nl >= total:
            return _nonlethal_words(nl, total, pv)
        return "état posé"
    if state == "mourant":
        return f"{pv}, sans stabilisation"
    if total < f.zero:
        return f"{pv}, {RECOVERY_LABELS[d['recovery']]}"
    return pv


def _nonlethal_words(nl: int, total: int, pv: str) -> str:
    """« dégâts non létaux 12 > 10 PV », or with temporary PV « … > 10 PV au total, soit 5 PV + 5 PV temporaires »."""
    sign = "=" if nl == total else ">"
    if pv.endswith("au total"):
        return f"dégâts non létaux {nl} {sign} {fmt_int(total)} PV au total, soit {pv.split(' = ')[0]}"
    return f"dégâts non létaux {nl} {sign} {pv}"


def is_dead(sheet: D20Sheet, rs: D20Rules) -> bool:
    last = SETTLED[0]
    if last[0] is sheet and last[1] is rs:
        return False  # ``_settle`` gave it alive, or ``known`` found it alive
    return bool(death_reason(sheet, rs))


def known(sheet: D20Sheet, rs: D20Rules) -> Record | None:
    """What is known of ``sheet`` under ``rs`` (``SETTLED``'s record), or None when it is dead.

    The last settle's record when it gave ``sheet``; else worked out once from the sheet — its figures,
    maximum, Constitution in play, death, death threshold and state, what ``death_reason``, ``maximum``,
    ``death_pv`` and ``state_id`` find — and kept as the record (not settled): a sheet no action settled yet
    (the first hit of a fight, each creature of the GM table) is then read once instead of four times."""
    last = SETTLED[0]
    if last[0] is sheet and last[1] is rs:
        return last
    d = sheet.__dict__
    if d["dead"]:
        return None
    f = figures(rs)
    con, bonus, damage, drain = (
        d["constitution"],
        d["constitution_bonus"],
        d["constitution_damage"],
        d["constitution_drain"],
    )
    played = con + bonus - damage - drain
    current = d["current"]
    if death_cause(played, current, f):
        return None
    if bonus or damage or drain:
        top = maximum_of(d["base_maximum"], d["level"], con, played, f)
    else:
        top = d["base_maximum"]
    total = current + d["temporary"] if f.count_temporary else current
    state = living_state(total, d["nonlethal"], d["recovery"], d["conditions"], f.zero)
    record = SETTLED[0] = (sheet, rs, state, top, f, played, death_pv(played, f), False)
    return record


def _part_label(part: str, rs: D20Rules) -> str:
    return rs.body_parts.get(part, part)


def effective_conditions(sheet: D20Sheet, rs: D20Rules) -> dict[str, str]:
    """Every condition in play with why: « posé », from the PV (« découle de … »), or implied by another."""
    result: dict[str, str] = {}
    for cid in sheet.conditions:
        result[cid] = "posé"
    if not is_dead(sheet, rs):
        total = pv_total(sheet, rs)
        zero = rs.thresholds.disabled_at
        from_pv = ""
        if total < zero:
            from_pv = {"": "mourant", "assisted": "stabilise", "alone": "stabilise"}.get(
                sheet.recovery, "hors_de_combat"
            )
        elif total == zero:
            from_pv = "hors_de_combat"
        if from_pv and from_pv not in result:
            result[from_pv] = f"découle des points de vie ({pv_words(sheet, rs)})"
        nl = sheet.nonlethal
        if nl > 0 and nl >= total:
            from_nl = "chancelant" if nl == total else "inconscient"
            if from_nl not in result:
                words = _nonlethal_words(nl, total, pv_words(sheet, rs)).removeprefix("dégâts non létaux ")
                result[from_nl] = f"découle des dégâts non létaux ({words})"
    pending = list(result)
    while pending:
        cid = pending.pop()
        rule = rs.conditions.get(cid)
        if rule is None:
            continue
        for implied in rule.implies:
            if implied not in result:
                result[implied] = f"découle {of(rule.label)}"
                pending.append(implied)
    return result


def _dd_terms(sheet: D20Sheet, rs: D20Rules) -> list[Term]:
    rr = rs.resurrection
    return [
        Term(
            rr.per_earlier_resurrection * sheet.resurrections,
            plural(sheet.resurrections, "résurrection réussie", "résurrections réussies"),
        ),
        Term(
            rr.quick_failure_increase * sheet.quick_failures,
            plural(sheet.quick_failures, "résurrection rapide ratée", "résurrections rapides ratées"),
        ),
    ]


def resurrection_dd(sheet: D20Sheet, rs: D20Rules) -> Explained:
    """« Le DD de base … est de 10, augmentant de 1 pour chaque résurrection réussie précédente »."""
    return explained_sum("DD de résurrection", rs.resurrection.base_dd, _dd_terms(sheet, rs), "base")


def _actions_allowed(state: str) -> tuple[str, str]:
    return {
        "en_forme": ("normal", "agit normalement"),
        "chancelant": ("simple", "une action simple par round"),
        "hors_de_combat": (
            "simple_or_move",
            "une action simple ou une action de mouvement par round (pas les deux) ; "
            "une action simple ou fatigante coûte 1 PV",
        ),
        "inconscient": ("none", "aucune action (sans connaissance, sans défense)"),
        "stabilise": ("none", "aucune action (sans connaissance)"),
        "mourant": ("none", "aucune action (sans connaissance, à l'agonie)"),
        "mort": ("none", "aucune action (la mort)"),
    }[state]


def _next_roll(sheet: D20Sheet, rs: D20Rules) -> Explained:
    if sheet.dead:
        return Explained(None, "aucun jet à venir")
    if sheet.dying_roll_at is not None:
        wait = max(0, sheet.dying_roll_at - sheet.clock)
        rounds = -(-wait // rs.time_units["round"])
        when = "à ce round" if rounds == 0 else f"dans {plural(rounds, 'round')}"
        return Explained(
            wait, f"jet du mourant {when} : 1d100, {rs.dying.stabilise_chance} % de se stabiliser, sinon −1 PV"
        )
    if sheet.recovery_roll_at is not None:
        wait = max(0, sheet.recovery_roll_at - sheet.clock)
        hours = -(-wait // rs.time_units["hour"])
        rec = rs.recovery
        text = {
            "assisted": f"1d100 pour reprendre connaissance ({rec.assisted_wake_chance} %)",
            "alone": f"1d100 pour reprendre connaissance ({rec.alone_wake_chance} %), sinon −{rec.alone_loss} PV",
            "alone_awake": (
                f"1d100 pour commencer à récupérer ({rec.alone_daily_chance} %), sinon −{rec.alone_daily_loss} PV"
            ),
        }.get(sheet.recovery, "jet de récupération")
        return Explained(wait, f"{text} dans {plural(hours, 'heure')}")
    return Explained(None, "aucun jet à venir")


def derive(sheet: D20Sheet, rs: D20Rules) -> Derived:
    values: dict[str, Explained] = {}
    top = maximum(sheet, rs)
    con_played = ability_score(sheet, "constitution")
    con_pv = constitution_pv(sheet, rs)
    max_value = explained_sum(
        "maximum",
        sheet.base_maximum,
        [Term(con_pv, f"Constitution en jeu {con_played} au lieu de {sheet.constitution}, × niveau {sheet.level}")],
        "PV maximum de base",
    )
    if int(max_value.value) != top:
        max_value = Explained(
            top, f"{max_value.text}, relevé à {top} (au moins {rs.constitution.min_pv_per_level} PV par niveau)"
        )
    values["maximum"] = max_value
    if sheet.temporary:
        current_text = (
            f"PV {fmt_int(sheet.current)} sur {top} : les vrais points de vie, sans les {sheet.temporary} PV "
            f"temporaires (total {fmt_int(sheet.current + sheet.temporary)})"
        )
    else:
        current_text = f"PV {fmt_int(sheet.current)} sur {top}"
    values["current"] = Explained(sheet.current, current_text)
    noted = sheet.temporary_noted if sheet.temporary_noted is not None else sheet.current
    if sheet.temporary:
        temp_text = (
            f"PV temporaires {sheet.temporary} : perdus en premier, jamais récupérés, même par magie ; à leur "
            f"disparition, le total retombe aux {fmt_int(noted)} PV notés (sauf total déjà plus bas)"
        )
    else:
        temp_text = "aucun PV temporaire"
    values["temporary"] = Explained(sheet.temporary, temp_text)
    values["temporary_noted"] = Explained(
        sheet.temporary_noted, f"PV notés avant les PV temporaires : {fmt_int(noted)}" if sheet.temporary else ""
    )
    values["total"] = explained_sum(
        "total de points de vie (celui des états)", sheet.current, [Term(sheet.temporary, "PV temporaires")], "PV"
    )
    state, why = health_state(sheet, rs)
    info_state = rs.health_states[state]
    values["state"] = Explained(state, f"état : {info_state.label} ({why}) — {info_state.effect}")
    values["roll_penalty"] = explained_modifier(
        "malus à tous les jets",
        [],
        "aucun malus général ; une blessure localisée donne son malus aux seules actions de la partie blessée",
    )
    effective = effective_conditions(sheet, rs)
    known = {c: r for c, r in sorted(effective.items()) if c in rs.conditions}
    values["conditions"] = Explained(
        tuple(known),
        "états : " + (", ".join(f"{rs.conditions[c].label} ({r})" for c, r in known.items()) or "aucun"),
    )
    values["condition_reasons"] = Explained(known, "pourquoi chaque état est en place (posé, ou découle d'autre chose)")
    per_hour = rs.nonlethal.recovery_per_hour_per_level * sheet.level
    if sheet.nonlethal:
        nl_text = (
            f"dégâts non létaux {sheet.nonlethal}, comptés à part (jamais ôtés des PV) ; état Chancelant s'ils égalent "
            f"le total de PV ({pv_words(sheet, rs)}), Inconscient au-delà ; −{per_hour} par heure"
        )
    else:
        nl_text = "aucun dégât non létal"
    values["nonlethal"] = Explained(sheet.nonlethal, nl_text)
    values["nonlethal_recovery"] = Explained(
        per_hour,
        f"dégâts non létaux récupérés : {per_hour} par heure "
        f"({rs.nonlethal.recovery_per_hour_per_level} × niveau {sheet.level})",
    )
    dies_at = death_at(sheet, rs)
    values["death_threshold"] = Explained(
        dies_at,
        f"mort à {fmt_int(dies_at)} PV ou moins"
        + (" (moins la Constitution)" if rs.thresholds.death_at_minus_constitution else "")
        + f" (mourant de {fmt_int(rs.thresholds.disabled_at - 1)} à {fmt_int(dies_at + 1)}, hors de combat à "
        f"{fmt_int(rs.thresholds.disabled_at)})",
    )
    stable = sheet.recovery != "" and sheet.current < rs.thresholds.disabled_at and not is_dead(sheet, rs)
    values["stabilised"] = Explained(
        stable, f"récupération : {RECOVERY_LABELS[sheet.recovery]}" if stable else "pas de récupération en cours"
    )
    values["next_roll"] = _next_roll(sheet, rs)
    allowed, allowed_text = _actions_allowed(state)
    values["actions"] = Explained(allowed, f"actions : {allowed_text}")
    turn = values["next_roll"].text if state == "mourant" else allowed_text
    values["turn_start"] = Explained(turn, f"à son tour : {turn}")
    # « Infliger des dégâts non-létaux à l'aide d'une arme conçue pour infliger des dégâts létaux … malus de –4 »
    attack_terms: list[Term] = []
    nl_rules = rs.nonlethal
    strike_possible = True
    if sheet.weapon_lethal and sheet.strike_nonlethal:
        if nl_rules.lethal_melee_only and not sheet.weapon_melee:
            strike_possible = False
        else:
            attack_terms.append(Term(nl_rules.wrong_weapon_attack, "dégâts non létaux avec une arme létale"))
    elif not sheet.weapon_lethal and not sheet.strike_nonlethal:
        attack_terms.append(Term(nl_rules.wrong_weapon_attack, "dégâts létaux avec une arme non létale"))
    attack = explained_modifier("modificateur d'attaque", attack_terms, "l'arme sert comme prévu")
    if not strike_possible:
        attack = Explained(0, "une arme à distance létale ne peut pas infliger de dégâts non létaux")
    values["attack_modifier"] = attack
    values["nonlethal_strike_possible"] = Explained(strike_possible, attack.text)
    penalties: dict[str, int] = {}
    for wound in sheet.wounds:
        if wound.body_part in penalties and not rs.local_wounds.penalties_stack:
            continue
        penalties[wound.body_part] = penalties.get(wound.body_part, 0) + rs.local_wounds.penalty
    values["body_part_penalties"] = Explained(
        penalties,
        "malus par partie du corps blessée : "
        + (", ".join(f"{_part_label(p, rs)} {signed(v)}" for p, v in penalties.items()) or "aucun"),
    )
    md = rs.massive_damage
    values["massive_damage"] = Explained(
        md.threshold,
        f"dégâts excessifs : une seule attaque de {md.threshold} dégâts ou plus → jet de Vigueur DD {md.save_dd} "
        f"({signed(sheet.fortitude)}) ou la mort",
    )
    if sheet.recovery in ("alone", "alone_awake") and sheet.current < rs.thresholds.disabled_at:
        healing = Explained(0, "sans assistance ni soins : pas de guérison au repos")
    else:
        night = rs.healing.night_per_level * sheet.level
        day = rs.healing.full_day_per_level * sheet.level
        healing = Explained(
            night,
            f"guérison naturelle : +{night} PV par nuit de repos, +{day} PV par journée complète au lit ; "
            f"une seule par période de {plural(rs.healing.rest_interval_hours, 'heure')}",
        )
    values["natural_healing"] = healing
    for ability in ABILITIES:
        score = ability_score(sheet, ability)
        base: int = getattr(sheet, ability)
        terms = [
            Term(sheet.constitution_bonus if ability == "constitution" else 0, "augmentation"),
            Term(-min(base, int(getattr(sheet, f"{ability}_damage"))), "affaiblissement temporaire"),
            Term(-int(getattr(sheet, f"{ability}_drain")), "diminution permanente"),
        ]
        label = ABILITY_LABELS[ability]
        score_text = explained_sum(label, base, terms).text
        values[f"{ability}_score"] = Explained(score, score_text if score > 0 else f"{label} 0")
        mod = ability_modifier(score, rs)
        values[f"{ability}_modifier"] = Explained(
            mod,
            f"modificateur {of(label)} {signed(mod)} = ({score} − {rs.general.ability_base}) ÷ "
            f"{rs.general.ability_step}, arrondi vers le bas",
        )
    values["constitution_pv"] = Explained(
        con_pv,
        f"PV dus à la Constitution en jeu : {signed(con_pv)} (vrais PV, pas temporaires)"
        if con_pv
        else "la Constitution en jeu ne change pas les PV",
    )
    values["resurrection_dd"] = resurrection_dd(sheet, rs)
    values["resurrections"] = Explained(
        sheet.resurrections, plural(sheet.resurrections, "résurrection réussie", "résurrections réussies")
    )
    if sheet.soul_lost:
        quick = Explained(False, "âme perdue : seuls Résurrection suprême ou Souhait")
    elif sheet.quick_blocked:
        quick = Explained(False, "résurrection rapide interdite jusqu'à un rituel de plus d'une action")
    else:
        quick = Explained(True, "résurrection rapide possible")
    values["quick_resurrection"] = quick
    values["soul_lost"] = Explained(sheet.soul_lost, "âme perdue" if sheet.soul_lost else "")
    return Derived(SYSTEM_ID, values)
