"""Segments derived values, and the pure computations handlers share (states, reductions, turn start, speed)."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from typing import Any, NamedTuple

from rules.model import Derived, Explained, Term, explained_modifier, explained_sum, fmt_int, plural
from rules.systems.segments.sheet import (
    PRIVATION_COUNTERS,
    SegmentsSheet,
    _metres,
    parse_reduction,
    parse_resistance,
    reduction_text,
)
from rules.systems.segments.table import SYSTEM_ID, LightLevel, Memo, SegmentsRules


class _Texts(dict[int, str]):
    """``fmt_int`` of the numbers the journal writes, kept: ``TEXT[-3]`` is « −3 ».

    Issue 15: a number in an f-string is converted each time (~400 machine instructions); a kept text is a
    lookup. Keyed by whole numbers only (``True`` would read as « 1 »); at most ``LIMIT`` kept.
    """

    LIMIT = 4096

    def __missing__(self, value: int) -> str:
        text = fmt_int(value)
        if len(self) < self.LIMIT:
            self[value] = text
        return text


TEXT = _Texts()


def _name(sheet: SegmentsSheet) -> str:
    return sheet.name or "Le personnage"


def is_dead(sheet: SegmentsSheet) -> bool:
    """« meurt quand il atteint l'opposé de sa valeur de Constitution » — whatever the flag says."""
    return sheet.dead or sheet.current <= -sheet.constitution


def is_dying(sheet: SegmentsSheet) -> bool:
    return not is_dead(sheet) and sheet.current < 0 and not sheet.stabilised


def effective_light(sheet: SegmentsSheet, rs: SegmentsRules) -> tuple[LightLevel, str]:
    """The light the character sees by, and why (darkvision turns darkness into dim light)."""
    rule = rs.light[sheet.light]
    if rule.darkvision_as is not None and sheet.darkvision_m > 0:
        seen = rs.light[rule.darkvision_as]
        return rule.darkvision_as, (
            f"{rule.label} ; vision dans le noir sur {sheet.darkvision_m} m : traitée comme "
            f"{seen.label.lower()} dans cette portée (au-delà : {rule.label.lower()})"
        )
    return sheet.light, rule.label


def effective_conditions(sheet: SegmentsSheet, rs: SegmentsRules) -> dict[str, str]:
    """Every known state the character is under, with why (« posé », or what it comes from).

    The dict is shared (kept by the table's memo): read it, never change it.
    """
    key = ("known", sheet.conditions, sheet.fatigue, sheet.light, sheet.darkvision_m > 0)
    known: dict[str, str] | None = rs.memo.get(key)
    if known is None:
        known = rs.memo.put(key, _effective_conditions(sheet, rs))
    return known


def _effective_conditions(sheet: SegmentsSheet, rs: SegmentsRules) -> dict[str, str]:
    result: dict[str, str] = {c: "posé" for c in sheet.conditions if c in rs.conditions}
    if sheet.fatigue:
        level = min(sheet.fatigue, len(rs.fatigue.levels))
        result.setdefault(rs.fatigue.levels[level - 1], f"découle du degré de fatigue {level}")
    level_id, _ = effective_light(sheet, rs)
    blinds = rs.light[level_id].blinds
    if blinds is not None:
        result.setdefault(blinds, f"découle de l'éclairage ({rs.light[level_id].label})")
    pending = list(result)
    while pending:
        rule = rs.conditions[pending.pop()]
        for implied in rule.implies:
            if implied not in result:
                result[implied] = f"découle de l'état {rule.label}"
                pending.append(implied)
    # In the table's order, so sums read the way the seed lists the states.
    return {c: result[c] for c in rs.conditions if c in result}


def _terms(known: Iterable[str], rs: SegmentsRules, attr: str, suffix: str = "") -> list[Term]:
    terms = []
    for cid in known:
        value = getattr(rs.conditions[cid], attr)
        if value:
            terms.append(Term(int(value), rs.conditions[cid].label + suffix))
    return terms


def points_hidden_by(known: Iterable[str], rs: SegmentsRules) -> list[str]:
    """The states that hide the PV from the player (Engourdi: « le meneur garde pour lui »)."""
    return [rs.conditions[c].label for c in known if rs.conditions[c].hides_points]


def points_hidden(sheet: SegmentsSheet, rs: SegmentsRules) -> bool:
    """Whether the player must not read this character's PV (Engourdi: « on ignore son propre total »)."""
    return hidden_under(sheet.__dict__["conditions"], sheet, rs, rs.memo)


def hidden_under(conditions: tuple[str, ...], sheet: SegmentsSheet, rs: SegmentsRules, memo: Memo) -> bool:
    """``points_hidden`` for a handler that has read the sheet's set states (``conditions``) and the memo."""
    if memo.hides_only_when_set:
        return not memo.hide_roots.isdisjoint(conditions)
    return not memo.hides.isdisjoint(effective_conditions(sheet, rs))


def health_state_id(sheet: SegmentsSheet, rs: SegmentsRules) -> str:
    """The id of ``health_state``, without its explanation (the rules ask for it after every change)."""
    return state_id(sheet.__dict__, rs.memo)


def state_id(fields: dict[str, Any], memo: Memo) -> str:
    """``health_state_id`` from a sheet's fields (``sheet.__dict__``, read by key: issue 15, an attribute of a
    pydantic model takes CPython's slow path) and its table's memo."""
    cur = fields["current"]
    if cur > 0 and fields["nonlethal"] <= cur and not fields["dead"]:
        # Standing (the Constitution is at least 1, so −CON is not reached): the case of most actions.
        return "blesse" if cur * memo.wounded_den <= fields["base_maximum"] * memo.wounded_num else "en_forme"
    if fields["dead"] or cur <= -fields["constitution"]:
        return "mort"
    if cur < 0:
        return "stabilise" if fields["stabilised"] else "mourant"
    if fields["nonlethal"] > cur:
        return "inconscient"
    return "chancelant"


def health_state(sheet: SegmentsSheet, rs: SegmentsRules) -> tuple[str, str]:
    """The state table of « 7.2 Tomber, et mourir », by thresholds."""
    con = sheet.constitution
    cur = sheet.current
    if is_dead(sheet):
        if cur <= -con:
            return "mort", f"{fmt_int(cur)} PV : l'opposé de sa Constitution ({con}) est atteint"
        return "mort", f"{fmt_int(cur)} PV, sans vie"
    if cur < 0:
        if sheet.stabilised:
            return "stabilise", f"{fmt_int(cur)} PV, hors combat, stabilisation acquise : ne perd plus de points de vie"
        loss = rs.dying.loss_per_segment
        return "mourant", f"{fmt_int(cur)} PV : hors combat, perte de {loss} PV par segment, la mort à {fmt_int(-con)}"
    if sheet.nonlethal > cur:
        return "inconscient", f"{sheet.nonlethal} dégâts non létaux > {cur} PV"
    if cur == 0:
        return "chancelant", "exactement 0 PV"
    num, den = rs.health.wounded_fraction
    if cur * den <= sheet.base_maximum * num:
        return "blesse", f"{cur} PV sur {sheet.base_maximum} : la moitié ou moins"
    return "en_forme", f"{cur} PV sur {sheet.base_maximum} : plus de la moitié"


OUT_OF_ACTION = frozenset({"inconscient", "mourant", "stabilise", "mort"})


# --- Damage reduction and resistances (« 7.4 Encaisser ») -----------------------------------------


class Reduction(NamedTuple):
    """One reduction X/type and where it comes from (armour, shield, natural armour, the creature)."""

    amount: int
    bypass: str | None
    source: str

    @property
    def text(self) -> str:
        return reduction_text(self.amount, self.bypass)


def reductions(sheet: SegmentsSheet, rs: SegmentsRules) -> list[Reduction]:
    """Every reduction the sheet carries, armour table first (« Ces réductions se cumulent entre elles »).

    The list is shared (kept by the table's memo): read it, never change it.
    """
    key = ("reductions", sheet.armour, sheet.shield, sheet.natural_armour, sheet.damage_reductions)
    found: list[Reduction] | None = rs.memo.get(key)
    if found is None:
        found = rs.memo.put(key, _reductions(sheet, rs))
    return found


def _reductions(sheet: SegmentsSheet, rs: SegmentsRules) -> list[Reduction]:
    found: list[Reduction] = []
    if sheet.armour:
        rule = rs.armours[sheet.armour]
        if rule.reduction:
            found.append(Reduction(rule.reduction, None, rule.label.lower()))
    if sheet.shield and rs.reduction.shield:
        found.append(Reduction(rs.reduction.shield, None, "bouclier"))
    natural = sheet.natural_armour // rs.reduction.natural_armour_step * rs.reduction.natural_armour_per_step
    if natural:
        found.append(Reduction(natural, None, f"armure naturelle {sheet.natural_armour}"))
    for text in sheet.damage_reductions:
        amount, bypass = parse_reduction(text)
        found.append(Reduction(amount, bypass, "propre à la créature"))
    return found


@functools.lru_cache(maxsize=256)
def reduction_detail(used: tuple[Reduction, ...]) -> str:
    """« 3/− armure lourde + 1/− bouclier »: the reductions that stopped a hit, as the journal writes them."""
    return " + ".join(f"{r.text} {r.source}" for r in used)


@functools.lru_cache(maxsize=256)
def damage_tags(damage_type: str | None) -> frozenset[str]:
    """``"tranchant, argent"`` → the attack's types; a reduction X/type is bypassed by any of them."""
    if not damage_type:
        return frozenset()
    return frozenset(t.strip().lower() for t in re.split(r"[,;+]", damage_type) if t.strip())


def resistances(sheet: SegmentsSheet) -> dict[str, int]:
    return dict(parse_resistance(t) for t in sheet.energy_resistances)


def _energies(tags: frozenset[str], sheet: SegmentsSheet, rs: SegmentsRules) -> list[str]:
    """The energies among a hit's types (a resistance on the sheet always names one, S10)."""
    found = tags & rs.memo.energies
    return sorted(found) if found else []


def applicable_reduction(
    sheet: SegmentsSheet, rs: SegmentsRules, tags: frozenset[str]
) -> tuple[int, tuple[Reduction, ...], tuple[Reduction, ...]]:
    """Points a hit of these types loses, the reductions that stop it and those it bypasses (shared: read only)."""
    key = ("applicable", sheet.armour, sheet.shield, sheet.natural_armour, sheet.damage_reductions, tags)
    found: tuple[int, tuple[Reduction, ...], tuple[Reduction, ...]] | None = rs.memo.get(key)
    if found is None:
        found = rs.memo.put(key, _applicable_reduction(sheet, rs, tags))
    return found


def _applicable_reduction(
    sheet: SegmentsSheet, rs: SegmentsRules, tags: frozenset[str]
) -> tuple[int, tuple[Reduction, ...], tuple[Reduction, ...]]:
    if _energies(tags, sheet, rs) and not rs.reduction.applies_to_energy:
        return 0, (), ()
    every = reductions(sheet, rs)
    used = tuple(r for r in every if r.bypass is None or r.bypass not in tags)
    bypassed = tuple(r for r in every if r not in used)
    if used and not rs.reduction.all_stack:
        used = (max(used, key=lambda r: r.amount),)
    return sum(r.amount for r in used), used, bypassed


class HitPlan(NamedTuple):
    """What stops a hit of given types on a sheet, before its amount is known (``hit_plan``)."""

    reduction: int
    """Points the reductions take off each hit."""
    reduction_text: str
    """The reductions that stop it, as the journal writes them (« 2/− armure intermédiaire + 1/− bouclier »)."""
    notes: str
    """What the journal adds whatever the amount: the reductions bypassed, or that they stop no energy."""
    resistance: int
    """Points an energy resistance takes off."""
    energy: str
    """The energy resisted."""


def hit_plan(sheet: SegmentsSheet, rs: SegmentsRules, tags: frozenset[str]) -> HitPlan:
    """Reductions and resistance against a hit of these types, read once per hit (shared: read only)."""
    return plan_of(sheet.__dict__, sheet, rs, rs.memo, tags)


def plan_of(
    fields: dict[str, Any], sheet: SegmentsSheet, rs: SegmentsRules, memo: Memo, tags: frozenset[str]
) -> HitPlan:
    """``hit_plan`` for a handler that has read the sheet's fields (``sheet.__dict__``) and the memo."""
    key = (
        fields["armour"],
        fields["shield"],
        fields["natural_armour"],
        fields["damage_reductions"],
        fields["energy_resistances"],
        tags,
    )
    found: HitPlan | None = memo.plans.get(key)
    if found is None:
        found = memo.keep(memo.plans, key, _hit_plan(sheet, rs, tags))
    return found


def _hit_plan(sheet: SegmentsSheet, rs: SegmentsRules, tags: frozenset[str]) -> HitPlan:
    total, used, bypassed = applicable_reduction(sheet, rs, tags)
    notes = "".join(f" (réduction {red.text} contournée)" for red in bypassed)
    if not used and not bypassed and not rs.reduction.applies_to_energy and reductions(sheet, rs):
        notes += " (les réductions n'arrêtent pas les énergies)"
    resist, energy = applicable_resistance(sheet, rs, tags)
    return HitPlan(total, reduction_detail(used), notes, resist, energy)


def applicable_resistance(sheet: SegmentsSheet, rs: SegmentsRules, tags: frozenset[str]) -> tuple[int, str]:
    """« réservé à une énergie précise … et sans contournement possible »."""
    if not sheet.energy_resistances:
        return 0, ""
    energies = _energies(tags, sheet, rs)
    if not energies:
        return 0, ""
    resisted = resistances(sheet)
    # A hit of several energies is stopped only as much as its least-resisted energy allows.
    weakest = min(energies, key=lambda e: resisted.get(e, 0))
    return resisted.get(weakest, 0), weakest


# --- Fatigue -----------------------------------------------------------------------------------------


def fatigue_label(level: int, rs: SegmentsRules) -> str:
    if level <= 0:
        return "aucune fatigue"
    return rs.conditions[rs.fatigue.levels[min(level, len(rs.fatigue.levels)) - 1]].label


# --- Turn start, speed -------------------------------------------------------------------------------


def surprise_segments(sheet: SegmentsSheet, rs: SegmentsRules) -> int:
    return sheet.surprise_segments or rs.surprise.default_segments


def turn_start(sheet: SegmentsSheet, rs: SegmentsRules, known: Iterable[str] | None = None) -> Explained:
    """The segment at which the character's window opens: base, then Lenteur, Rapidité, Vacillant, Surpris."""
    if known is None:
        known = effective_conditions(sheet, rs)
    known = list(known)
    terms = _terms(known, rs, "turn_start")
    surprised = [rs.conditions[c].label for c in known if rs.conditions[c].surprise]
    if surprised:
        terms.append(Term(surprise_segments(sheet, rs), f"{surprised[0]} : segments de surprise"))
    raw = explained_sum("début du tour au segment", sheet.initiative_segment, terms, "segment de base")
    value = max(1, int(raw.value))
    text = raw.text
    if value != raw.value:
        text += " ; ramené au segment 1, le premier du tour"
    spt = rs.segments_per_turn
    if value > spt:
        text += f" ; au-delà du segment {spt} : aucun segment ce tour-ci"
    else:
        text += f" ; {plural(spt - value + 1, 'segment')} sur {spt} dans le tour"
    return Explained(value, text)


def speed(sheet: SegmentsSheet, rs: SegmentsRules, known: Iterable[str]) -> tuple[Explained, int]:
    """Squares a character can cover in a turn, and the cost of each square."""
    known = list(known)
    base = explained_sum("vitesse", sheet.speed_squares, _terms(known, rs, "speed_squares"), "base, en cases")
    value = max(0, int(base.value))
    text = base.text + (", ramenée à 0" if value != base.value else "")
    zero = [rs.conditions[c].label for c in known if rs.conditions[c].speed == "zero"]
    halves = [rs.conditions[c].label for c in known if rs.conditions[c].speed == "half"]
    costly = [c for c in known if rs.conditions[c].movement_cost > 1]
    cost = max((rs.conditions[c].movement_cost for c in costly), default=1)
    if zero:
        return Explained(0, f"vitesse 0 case : aucun déplacement ({', '.join(zero)})"), cost
    for label in halves:
        value //= 2
        text += f", ÷ 2 ({label} : demi-vitesse) = {value}"
    if cost > 1:
        value //= cost
        labels = ", ".join(rs.conditions[c].label for c in costly)
        text += f", ÷ {cost} ({labels} : chaque case coûte {cost} fois plus) = {value}"
    metres = _metres(value * rs.general.square_m)
    return Explained(value, f"{text} → {plural(value, 'case')} ({metres} m)"), cost


def _turn_index(sheet: SegmentsSheet, rs: SegmentsRules) -> int:
    return sheet.clock // rs.time_units["turn"]


def window_instant(sheet: SegmentsSheet, rs: SegmentsRules, turn_index: int) -> int:
    """The clock instant at which the character's window opens in turn ``turn_index``.

    A window pushed past the last segment (Lenteur, Vacillant, Surpris) has no segment that turn: for the
    once-a-turn rules it stands at the last segment (S5).
    """
    start = min(int(turn_start(sheet, rs).value), rs.segments_per_turn)
    return turn_index * rs.time_units["turn"] + (start - 1) * rs.time_units["segment"]


def stabilise_try_instant(sheet: SegmentsSheet, rs: SegmentsRules) -> int | None:
    """When the dying character's next automatic Vigueur try comes (« une fois par tour », S5), or ``None``.

    At the opening of its window in each turn it is dying; a character who starts dying after its window
    opened this turn (in the very segment, or later) has not had this turn's try yet: it comes at once.
    """
    if not (rs.dying.auto_self_stabilise and is_dying(sheet)):
        return None
    turn = _turn_index(sheet, rs)
    if sheet.self_stabilise_turn is not None and sheet.self_stabilise_turn >= turn:
        return window_instant(sheet, rs, turn + 1)
    return max(window_instant(sheet, rs, turn), sheet.clock)


def _suffocation_limits(sheet: SegmentsSheet, rs: SegmentsRules) -> tuple[int, int]:
    """Seconds without air before falling to 0 PV, and before death."""
    turn = rs.time_units["turn"]
    zero = sheet.constitution * rs.suffocation.turns_per_constitution * turn
    return zero, zero + rs.suffocation.death_after_turns * turn


# --------------------------------------------------------------------------------------------------
# Derived values
# --------------------------------------------------------------------------------------------------

RESTRICTIONS: dict[str, str] = {
    "no_immediate_actions": "plus aucune action immédiate",
    "no_verbal_spells": "sorts à composante verbale impossibles",
    "cannot_aim": "ne peut pas viser",
    "no_ranged_weapons": "pas d'arme à distance",
    "no_tracking": "aucune piste ne peut être suivie",
    "loses_window": "perd le reste de sa fenêtre",
    "gm_controls": "le meneur décide de ce qu'il fait à chacun de ses tours",
    "cannot_approach_source": "ne peut pas s'approcher volontairement de la source",
}

HIDDEN_WHEN_NUMB = frozenset({"current", "maximum", "temporary", "nonlethal", "state", "segments_to_death"})


def _with_all_rolls(label: str, specific: list[Term], all_rolls: list[Term]) -> Explained:
    return explained_modifier(label, specific + all_rolls, "aucun état")


def derive(sheet: SegmentsSheet, rs: SegmentsRules) -> Derived:
    values: dict[str, Explained] = {}
    known = effective_conditions(sheet, rs)
    hidden_by = points_hidden_by(known, rs)
    secret = f" ; caché au joueur ({', '.join(hidden_by)} : le meneur garde ce total pour lui)" if hidden_by else ""
    maximum = sheet.base_maximum
    values["maximum"] = Explained(maximum, f"points de vie maximum {maximum}{secret}")
    values["current"] = Explained(sheet.current, f"points de vie {fmt_int(sheet.current)} sur {maximum}{secret}")
    values["temporary"] = Explained(
        sheet.temporary, f"points de vie temporaires {sheet.temporary} (absorbés en premier, jamais cumulés){secret}"
    )
    values["nonlethal"] = Explained(
        sheet.nonlethal,
        f"dégâts non létaux {sheet.nonlethal}, comptés à part : au-delà des points de vie actuels, "
        f"inconscient et l'excédent devient létal{secret}",
    )
    state, why = health_state(sheet, rs)
    values["state"] = Explained(state, f"état : {rs.health_states[state].label} ({why}){secret}")
    con = sheet.constitution
    values["death_threshold"] = Explained(
        -con, f"meurt à {fmt_int(-con)} points de vie (l'opposé de sa Constitution {con}), automatiquement"
    )
    loss = rs.dying.loss_per_segment
    if is_dying(sheet) and loss:
        left = -(-(sheet.current + con) // loss)
        spt = rs.segments_per_turn
        values["segments_to_death"] = Explained(
            left,
            f"mort dans {plural(left, 'segment')} (environ {_metres(round(left / spt, 1))} tour(s) de {spt} segments) "
            f"sans stabilisation : {fmt_int(sheet.current)} PV, {loss} de moins par segment, la mort à {fmt_int(-con)}",
        )
    else:
        values["segments_to_death"] = Explained(None, "ne perd pas de points de vie")
    tried = sheet.self_stabilise_turn is not None and sheet.self_stabilise_turn == _turn_index(sheet, rs)
    values["self_stabilise_available"] = Explained(
        is_dying(sheet) and not tried,
        (
            f"Vigueur difficulté {rs.dying.self_stabilise_dd} pour se stabiliser sans aide, une fois par tour"
            + (" (déjà tentée ce tour-ci)" if tried else "")
            + " ; ou stabilisation par un allié, action d'interaction sans jet"
        )
        if is_dying(sheet)
        else "pas à l'agonie : rien à stabiliser",
    )
    all_rolls = _terms(known, rs, "all_rolls")
    all_tagged = _terms(known, rs, "all_rolls", ", tous les jets")
    values["roll_penalty"] = explained_modifier("malus à tous les jets", all_rolls, "aucun état")
    values["conditions"] = Explained(
        tuple(known),
        "états : " + (", ".join(f"{rs.conditions[c].label} ({w})" for c, w in known.items()) or "aucun"),
    )
    values["condition_reasons"] = Explained(dict(known), "pourquoi chaque état est en place (posé, ou sa cause)")
    ac_terms = _terms(known, rs, "armour_class")
    values["ac_modifier"] = explained_modifier("classe d'armure", ac_terms, "aucun état")
    values["armour_class"] = explained_sum("classe d'armure", sheet.armour_class, ac_terms, "base")
    attack_terms = _terms(known, rs, "attack")
    values["attack_modifier"] = _with_all_rolls("attaque", attack_terms, all_tagged)
    values["attack_bonus"] = explained_sum("bonus d'attaque", sheet.attack_bonus, attack_terms + all_tagged, "base")
    reflex_terms = _terms(known, rs, "reflex")
    values["reflex_modifier"] = _with_all_rolls("sauvegarde de Réflexes", reflex_terms, all_tagged)
    values["reflex_save"] = explained_sum(
        "sauvegarde de Réflexes", sheet.reflex_save, reflex_terms + all_tagged, "base"
    )
    values["fortitude_save"] = explained_sum("sauvegarde de Vigueur", sheet.fortitude_save, all_tagged, "base")
    values["agility_roll"] = explained_sum("jet d'Agilité", sheet.agility, all_tagged, "base")
    move, cost = speed(sheet, rs, known)
    values["speed"] = move
    values["speed_m"] = Explained(
        int(move.value) * rs.general.square_m,
        f"{_metres(int(move.value) * rs.general.square_m)} m = {plural(int(move.value), 'case')} × "
        f"{_metres(rs.general.square_m)} m",
    )
    costly = [rs.conditions[c].label for c in known if rs.conditions[c].movement_cost > 1]
    values["movement_cost"] = Explained(
        cost, f"chaque case coûte {cost} ({', '.join(costly)})" if costly else "chaque case coûte 1"
    )
    start = turn_start(sheet, rs, known)
    values["turn_start"] = start
    spt = rs.segments_per_turn
    window = max(0, spt - int(start.value) + 1)
    values["window_segments"] = Explained(window, f"{plural(window, 'segment')} sur {spt} dans le tour")
    values["segments_per_turn"] = Explained(spt, f"{spt} segments par tour")
    level_id, light_why = effective_light(sheet, rs)
    values["light"] = Explained(level_id, f"éclairage : {light_why} ({rs.light[level_id].effect})")
    sight_terms = [Term(rs.light[level_id].sight_rolls, rs.light[level_id].label.lower()), *all_tagged]
    sight = explained_modifier("jets de Vue", sight_terms, "aucun malus")
    lost = {rs.conditions[c].sense: rs.conditions[c].label for c in known if rs.conditions[c].sense is not None}
    if "vue" in lost:
        sight = Explained(sight.value, f"jets de Vue : échec d'office ({lost['vue']})")
    values["sight_modifier"] = sight
    senses_text = "; ".join(
        f"jets de {rs.senses[s].label} : échec d'office ({label})" for s, label in lost.items() if s is not None
    )
    values["lost_senses"] = Explained(tuple(s for s in lost if s is not None), senses_text or "aucun sens perdu")
    immune = "; ".join(f"{rs.senses[s].illusions} ({label})" for s, label in lost.items() if s is not None)
    values["illusion_immunity"] = Explained(
        tuple(s for s in lost if s is not None), f"immunisé contre les {immune}" if immune else "aucune immunité"
    )
    found: list[str] = []
    pieces: list[str] = []
    for attr, text in RESTRICTIONS.items():
        labels = [rs.conditions[c].label for c in known if getattr(rs.conditions[c], attr)]
        if labels:
            found.append(attr)
            pieces.append(f"{text} ({', '.join(labels)})")
    zero = [rs.conditions[c].label for c in known if rs.conditions[c].speed == "zero"]
    if zero:
        found.insert(0, "no_movement")
        pieces.insert(0, f"aucun déplacement ({', '.join(zero)})")
    values["restrictions"] = Explained(tuple(found), "; ".join(pieces) or "aucune restriction")
    every = reductions(sheet, rs)
    unconditional = [r for r in every if r.bypass is None]
    if every:
        text = "réduction par coup : "
        if unconditional:
            total = sum(r.amount for r in unconditional)
            text += f"{total}/− = " + " + ".join(f"{r.text} ({r.source})" for r in unconditional)
        other = [f"{r.text} ({r.source}, contournée par {r.bypass})" for r in every if r.bypass is not None]
        if other:
            text += ("; " if unconditional else "") + "; ".join(other)
        if not rs.reduction.all_stack:
            text += " ; seule la plus forte s'applique"
        if not rs.reduction.applies_to_energy:
            text += " ; pas contre les énergies"
    else:
        text = "aucune réduction de dégâts"
    values["damage_reduction"] = Explained(tuple(r.text for r in every), text)
    resisted = resistances(sheet)
    values["energy_resistance"] = Explained(
        tuple(f"{e} {n}" for e, n in sorted(resisted.items())),
        "résistance à l'énergie : "
        + ", ".join(f"{e} {n}" for e, n in sorted(resisted.items()))
        + " (jamais contournée)"
        if resisted
        else "aucune résistance à l'énergie",
    )
    mr = sheet.magic_resistance
    values["magic_resistance"] = Explained(
        mr,
        f"résistance à la magie {mr} : le lanceur doit l'atteindre, sinon le sort échoue entièrement"
        if mr
        else "aucune résistance à la magie",
    )
    level = min(sheet.fatigue, len(rs.fatigue.levels))
    values["fatigue"] = Explained(
        level,
        f"fatigue : {fatigue_label(level, rs)} (degré {level} sur {len(rs.fatigue.levels)}) ; seul le repos la dissipe"
        if level
        else "aucune fatigue",
    )
    values["points_hidden"] = Explained(
        bool(hidden_by),
        f"le joueur ignore son total de points de vie ({', '.join(hidden_by)}) : le meneur le garde pour lui"
        if hidden_by
        else "le joueur connaît ses points de vie",
    )
    values["ongoing_harm"] = _ongoing(sheet, rs)
    return Derived(SYSTEM_ID, values, HIDDEN_WHEN_NUMB if hidden_by else frozenset())


def _ongoing(sheet: SegmentsSheet, rs: SegmentsRules) -> Explained:
    """What the world is doing to the character right now (fire, lack of air, exposure, privations)."""
    ids: list[str] = []
    parts: list[str] = []
    turn, hour = rs.time_units["turn"], rs.time_units["hour"]
    if sheet.burning:
        count, sides = rs.fire.damage
        ids.append("burning")
        left = (turn - sheet.burning_for % turn) // rs.time_units["segment"]
        parts.append(
            f"en feu : {count}d{sides} par tour entier passé à brûler, le prochain dans {plural(left, 'segment')}"
        )
    if sheet.suffocating_for is not None:
        to_zero, to_death = _suffocation_limits(sheet, rs)
        ids.append("suffocating")
        if sheet.suffocating_for < to_zero:
            left = -(-(to_zero - sheet.suffocating_for) // turn)
            parts.append(f"sans air : 0 point de vie dans {plural(left, 'tour')}")
        else:
            left = -(-(to_death - sheet.suffocating_for) // turn)
            parts.append(f"sans air : la mort dans {plural(left, 'tour')}")
    if sheet.exposure:
        rule = rs.exposure[sheet.exposure]
        ids.append(sheet.exposure)
        count, sides = rule.damage
        parts.append(
            f"exposition au {rule.label} depuis {sheet.exposure_for // hour} h : {count}d{sides} par "
            f"{plural(rule.damage_every_hours, 'heure')}, fatigue toutes les {rule.fatigue_every_hours} h"
        )
    for need in sheet.privations:
        rule_p = rs.privations[need]
        ids.append(need)
        spent = getattr(sheet, PRIVATION_COUNTERS[need]) // hour
        parts.append(f"{rule_p.label} depuis {spent} h : fatigue toutes les {rule_p.hours} h")
    return Explained(tuple(ids), "; ".join(parts) or "rien")
