"""Sévérité's handlers: Puissance against Résistance, wounds, Ténacité, survival, care."""

from __future__ import annotations

from random import Random as _Random
from typing import Any

from rules.actions import ClearConditions, Damage, Heal, SetCondition
from rules.dice import Plan, Roll, roll_of
from rules.errors import Refused
from rules.model import (
    Context,
    evolve,
    fmt_int,
    plural,
    signed,
    with_values,
)
from rules.systems.severite.actions import (
    DiagnoseWound,
    EndConflict,
    EraseWound,
    InflictWound,
    SetHandicap,
    Strike,
    SupernaturalHealing,
    TenacityTest,
    TreatWound,
    WorseningRisk,
)
from rules.systems.severite.derive import handicap_penalty
from rules.systems.severite.gauge import (
    _FIGURES_KEPT,
    _LINES_KEPT,
    _RANK,
    _WOUND_FIGURES,
    GradeRow,
    Grid,
    _alive,
    _check_damage_type,
    _check_part,
    _drop_condition,
    _drop_conditions,
    _end_conflict,
    _figures,
    _find_wound,
    _grade_label,
    _grown,
    _heal_tail,
    _is_psychological,
    _lower,
    _lower_gauge,
    _name,
    _put_condition,
    _ranks_up,
    _remember_figures,
    _replace_wound,
    calm_line,
    condition_label,
    grid,
    grid_text,
    hit_wound,
    new_wound,
    power_grade,
    shield,
    skipping_labels,
    spared_line,
    tier_of,
    tier_rule,
    tier_text,
    trauma,
    unknown,
    wound_grade,
    wound_label,
    wound_line,
)
from rules.systems.severite.sheet import MAX_NOTCHES, MAX_SEVERITY, MAX_WOUND_ID, MAX_WOUNDS, SeveriteSheet, Wound
from rules.systems.severite.table import PowerGrade, PowerRules, SeveriteRules, TenacityResult, WoundGrade

# What ``damage`` walks for one hit (``range(1)`` without the object made).
_ONE_HIT = (None,)

# ``_add_wound``'s memo of ``_test_needed`` and ``_tenacity``'s of the states sparing the Défi: a key not asked yet.
_NOT_ASKED: Any = object()


def _roll(ctx: Context, plan: Plan, what: str) -> Roll:
    """``ctx.dice(1, sides, what)`` of a die whose ``plan`` is at hand (``dice.rule_plan(1, sides)``, kept in the
    table's ``Grid``): the same draw from the same generator, the same ``Roll``, noted in ``ctx.rolls``.

    Issue 15, session 8: the Défi's and the strike's rolls, ~1,300 CPU instructions less each than through
    ``Context.dice``'s general path (its checks, the plan looked up). The draw is ``Context.dice``'s one-die draw
    (``dice.roll_plan``'s, ``random.Random._randbelow``'s loop), copied: ``test_the_hits_own_draw_is_ctx_dice``
    holds it to ``ctx.dice`` for every face. Values given with the action, any other generator: ``ctx.dice``.
    """
    rng = ctx.rng
    if ctx.given or rng.__class__ is not _Random:
        return ctx.dice(1, plan[2], what)
    sides, bits, made = plan[2], plan[3], plan[6]
    getrandbits = rng.getrandbits
    face = getrandbits(bits)
    while face >= sides:
        face = getrandbits(bits)
    roll = made[face]  # type: ignore[index]  # a table's die keeps its rolls (``gauge._one_die``)
    if roll is None:
        roll = made[face] = roll_of(plan, [face + 1])  # type: ignore[index]
    rolls = ctx.rolls
    if rolls:
        rolls.append(roll)
    else:
        ctx.rolls = [roll]
    return roll


# What a Défi de Ténacité rolled and adds up (``_tenacity_roll``): the die's roll, the skill die's (None: no skill),
# Physique or Mental, whether the Défi is psychological, the talents' bonus, the Handicaps' penalty.
Rolled = tuple[Roll, Roll | None, int, bool, int, int]


def _tenacity_roll(
    sheet: SeveriteSheet,
    rs: SeveriteRules,
    ctx: Context,
    g: Grid,
    psychological: bool,
    wounds: tuple[Wound, ...] | None,
) -> Rolled:
    """Défi de Ténacité: D10 + Physique (Mental) [+ D6 of a skill] [+ talent bonus] [+ Handicaps], rolled
    (``_tenacity_total`` adds it up). ``wounds``: the sheet's wounds when they are not on ``sheet`` yet."""
    attribute_die, skill_die = g.defi_dice
    roll = _roll(ctx, attribute_die, "Défi de Ténacité")
    skill = _roll(ctx, skill_die, "Compétence (Athlétisme, Endurance…)") if sheet.tenacity_skill else None
    penalty = handicap_penalty(sheet, wounds) if rs.tenacity.handicaps_apply else 0
    attr = sheet.mental if psychological else sheet.physique
    return roll, skill, attr, psychological, sheet.tenacity_bonus, penalty


def _tenacity_total(
    roll: Roll, skill: Roll | None, attr: int, psychological: bool, bonus: int, penalty: int
) -> tuple[int, str]:
    """What a Défi rolled (``_tenacity_roll``) adds up to, and how the journal writes it: « 1d10 = 9 +3 (Physique)
    + 1d6 = 3 (Compétence) »."""
    total = roll.total + attr
    parts = f"{roll.detail} {signed(attr)} ({'Mental' if psychological else 'Physique'})"
    if skill is not None:
        total += skill.total
        parts += f" + {skill.detail} (Compétence)"
    if bonus:
        total += bonus
        parts += f" {signed(bonus)} (Talents)"
    if penalty:
        total += penalty
        parts += f" {signed(penalty)} (Handicaps)"
    return total, parts


def defi_outcome(key: tuple[Any, ...], rs: SeveriteRules, g: Grid) -> tuple[str, TenacityResult | None, str]:
    """A Défi's journal line, its result (None: failed) and its event, for ``key``: what it rolled
    (``_tenacity_roll``), then the Opposition and its label. Made and kept in ``g.defis`` (issue 15, session 8: its
    line cost ~9,000 CPU instructions of text per Défi; a character's Défis are the same few lines again)."""
    *rolled, opposition, against = key
    total, parts = _tenacity_total(*rolled)
    margin = total - opposition
    head = f"Défi de Ténacité contre {against} ({opposition}) : {parts} = {fmt_int(total)}"
    found: tuple[str, TenacityResult | None, str]
    if margin < 0:
        # « Si le Défi est échoué, vous êtes hors combat … incapable d'agir jusqu'à la fin du Conflit. »
        label = condition_label(rs.tenacity.failure_condition, rs).lower()
        found = (f"{head} → échec : {label} jusqu'à la fin du Conflit.", None, "out_of_combat")
    else:
        at = g.level_at  # ``success_level(margin, rs)``, the margin being 0 or more
        level = rs.success_levels[at[margin] if margin < len(at) else at[-1]]
        result = rs.tenacity_results[level.tenacity]
        line = f"{head} → réussite {level.label} (différence {margin}) : Ténacité {result.label}. {result.effect}"
        found = (line, result, f"tenacity_{level.tenacity}")
    memo = g.defis
    if len(memo) >= _LINES_KEPT:
        memo.clear()
    memo[key] = found
    return found


def _tenacity(
    sheet: SeveriteSheet,
    rs: SeveriteRules,
    ctx: Context,
    *,
    opposition: int,
    against: str,
    psychological: bool,
    wounds: tuple[Wound, ...] | None = None,
) -> SeveriteSheet:
    """A Défi de Ténacité and its result (003 § Ténacité). ``wounds``: the sheet's wounds ending with the new one
    that calls for the Défi, not on ``sheet`` yet (``_add_wound``): a failed Défi copies the sheet once, with
    them and its condition (issue 15)."""
    if sheet.dead:
        return sheet if wounds is None else evolve(sheet, wounds=wounds)
    g = grid(rs)  # once per Défi (issue 15)
    conditions = sheet.conditions
    if conditions and not g.skipped.isdisjoint(conditions):
        labels = g.skipping.get(conditions, _NOT_ASKED)
        if labels is _NOT_ASKED:
            labels = skipping_labels(conditions, rs, g)
        if labels is not None:
            ctx.log.append(f"Pas de Défi de Ténacité pour {_name(sheet)}, déjà dans l'état : {labels}.")
            return sheet if wounds is None else evolve(sheet, wounds=wounds)
    return _defi(sheet, rs, ctx, g, opposition, against, psychological, wounds)


def _defi(
    sheet: SeveriteSheet,
    rs: SeveriteRules,
    ctx: Context,
    g: Grid,
    opposition: int,
    against: str,
    psychological: bool,
    wounds: tuple[Wound, ...] | None,
) -> SeveriteSheet:
    """``_tenacity`` once it is known that the Défi is rolled: the roll and its result. ``wounds``: None (a Défi
    asked alone), or the sheet's wounds ending with the new wound that calls for the Défi, not on ``sheet`` yet:
    the sheet is copied once, with them and what the result changes (issue 15, session 8)."""
    key = (*_tenacity_roll(sheet, rs, ctx, g, psychological, wounds), opposition, against)
    line, result, event = g.defis.get(key) or defi_outcome(key, rs, g)
    ctx.log.append(line)  # ``ctx.say``, the line not secret
    events = ctx.events  # ``ctx.event(event)`` (issue 15, session 9: a call less per Défi)
    if not events:
        ctx.events = [event]
    elif event not in events:
        events.append(event)
    if result is None:
        return _put_condition(sheet, rs.tenacity.failure_condition, rs, wounds)
    wound_id = None
    if wounds is not None:
        wound_id = wounds[-1].id
        if result.ignores_wound:
            wounds = _ignoring_last(wounds)
    if result.condition is not None:
        sheet = _put_condition(sheet, result.condition, rs, wounds)
    elif wounds is not None:
        sheet = evolve(sheet, wounds=wounds)
    if result.notches:
        before = trauma(sheet)
        sheet, removed = _lower_gauge(sheet, result.notches, rs, ctx, prefer=wound_id, heals=False)
        if removed:
            ctx.log.append(f"Jauge de Trauma : {before} → {before - removed} ({plural(removed, 'cran')} en moins).")
    return sheet


def _ignoring_last(wounds: tuple[Wound, ...]) -> tuple[Wound, ...]:
    """``wounds`` with the last (a hit's new wound, its number unique) ignored: « Vous permet tout simplement
    d'ignorer la Blessure jusqu'à la fin du Conflit. » The new tuple's figures are the old one's, one more wound
    ignored (issue 15, session 7: the next action, often the gauge lowered just below, worked them all out
    again); kept for rising ids, as ``_figures`` would find them."""
    wound = wounds[-1]
    ignoring = (*wounds[:-1], evolve(wound, ignored=True))
    found = _WOUND_FIGURES.get(id(wounds))
    if found is not None and found[0] is wounds and found[6]:
        ignored = found[5] + (not wound.ignored)
        _remember_figures((ignoring, found[1], found[2], found[3], found[4], ignored, True))
    return ignoring


def _test_needed(before: int, after: int, grade: WoundGrade, rs: SeveriteRules) -> tuple[int, str] | None:
    """Whether a new wound calls for a Défi de Ténacité, and against what.

    « Au fur et à mesure que celle-ci augmente, vous serez susceptible de faire un Défi » — a wound
    tests when the gauge enters a tier that asks one (``new_tier``), or always (Grave: « résulte
    systématiquement en un Défi de Ténacité »).
    """
    if grade.test == "never" or (after <= before and grade.test != "always"):
        return None
    tier = tier_of(after, rs)
    label, opposition = tier_rule(tier, rs)
    if grade.test == "always":
        if opposition is None:
            # A tier without test (a house table): the first Opposition of the gauge.
            first = next((t for t in rs.trauma.tiers if t.opposition is not None), None)
            if first is None or first.opposition is None:
                return rs.trauma.beyond.opposition, rs.trauma.beyond.label
            return first.opposition, first.label
        return opposition, label
    if opposition is None:
        return None
    if tier > tier_of(before, rs):
        return opposition, label
    if tier > len(rs.trauma.tiers) and rs.trauma.beyond.every_wound_tests:
        return opposition, label
    return None


def _die(sheet: SeveriteSheet, ctx: Context, why: str) -> SeveriteSheet:
    ctx.say(f"{_name(sheet)} meurt ({why}).")
    ctx.event("died")
    return evolve(sheet, dead=True, turn_timers=(), conditions=())


def _add_wound(
    sheet: SeveriteSheet,
    rs: SeveriteRules,
    ctx: Context,
    *,
    grade_id: str,
    severity: int | None,
    body_part: str | None,
    damage_type: str | None,
    psychological: bool,
    handicap: str,
    handicap_penalty: int,
    note: str,
    test: bool = True,
    g: Grid | None = None,
) -> SeveriteSheet:
    """A Blessure of ``grade_id`` lands: the gauge, the Fatale rules, the Défi de Ténacité. ``g``: the table's
    ``Grid`` if the caller has it (issue 15: looked up once per hit). A hit's common wound takes ``_inflict``'s
    flat path instead: the same steps."""
    if g is None:
        g = grid(rs)
    say = ctx.log.append  # ``ctx.say``, no line being secret (issue 15, session 7: a Python call less per line)
    row = g.rows[grade_id]
    grade = row.grade
    where = (g.part_texts.get(body_part) or f" ({body_part})") if body_part else ""
    if handicap and grade.handicap == "never":
        say(f"Une Blessure {grade.label} ne laisse pas de Handicap : « {handicap} » n'est pas retenu.")
        handicap, handicap_penalty = "", 0
    notches = grade.notches
    if notches == 0 and not grade.recorded and not grade.fatal:
        # « Il n'est pas systématique de prendre note de ces Blessures, car elles ne provoquent aucune séquelle. »
        say(f"Blessure {grade.label}{where} : effet insignifiant, non notée sur la fiche.")
        ctx.event("wound")
        return sheet
    vital = body_part is None or g.vital.get(body_part, False)
    crippled = grade.fatal and not vital
    if crippled and not handicap:
        handicap = rs.fatal.crippled_handicap
    wounds = sheet.wounds
    if len(wounds) >= MAX_WOUNDS:
        raise Refused(f"La fiche compte déjà {MAX_WOUNDS} blessures : effacez celles qui n'ont plus lieu d'être.")
    found = _WOUND_FIGURES.get(id(wounds))
    if found is None or found[0] is not wounds:
        found = _figures(wounds)
    before = found[1]
    wound_id = found[2] + 1
    if wound_id > MAX_WOUND_ID:
        raise Refused("Numéros de blessure épuisés : renumérotez les blessures de la fiche.")
    # Built without re-validation, like ``evolve``: the values are checked here and by the actions.
    wound = new_wound(
        wound_id,
        grade_id,
        notches,
        None if severity is None else min(severity, MAX_SEVERITY),
        body_part,
        damage_type,
        psychological,
        handicap,
        handicap_penalty if handicap else 0,
        crippled,
        note,
    )
    after = before + notches
    wounds = _grown(found, wound, notches)
    # ``sheet`` without the wound until the Défi de Ténacité, given ``wounds`` (a failed Défi: one copy).
    ctx.event("wound")
    after_text = grid_text(after, g)
    say(f"Blessure {grade.label}{where} : {row.added} de Trauma ({before} → {after}, {after_text}).")
    if handicap:
        penalty = f" ({signed(wound.handicap_penalty)})" if wound.handicap_penalty else ""
        say(f"Handicap : {handicap}{penalty}.")
    elif grade.handicap == "likely" and not (grade.fatal and vital):
        say("Le Meneur de Jeu peut imposer un Handicap à cette Blessure.")
    if grade.fatal:
        if vital:
            sheet = evolve(sheet, wounds=wounds)
            # « Quand elle est infligée sur une zone vitale elle peut tuer sur le coup »
            if sheet.is_npc:
                return _die(sheet, ctx, f"Blessure {grade.label} sur une zone vitale")
            return _survival(sheet, wound, rs, ctx)
        say("Le membre touché est rendu complètement invalide, ou sectionné.")
        ctx.event("crippled")
    if not test:
        return evolve(sheet, wounds=wounds)
    needed = _needed(row, before, rs)
    if needed is None:
        if grade.test != "never":
            say(f"Pas de Défi de Ténacité ({after_text}).")
        return evolve(sheet, wounds=wounds)
    opposition, against = needed
    return _tenacity(sheet, rs, ctx, opposition=opposition, against=against, psychological=psychological, wounds=wounds)


def _needed(row: GradeRow, before: int, rs: SeveriteRules) -> tuple[int, str] | None:
    """``_test_needed`` for a wound of ``row`` on a gauge at ``before``, kept in the row (bounded)."""
    memo = row.needed
    if before in memo:
        return memo[before]
    needed = _test_needed(before, before + row.notches, row.grade, rs)
    if len(memo) >= 4096:
        memo.clear()
    memo[before] = needed
    return needed


def _survival(sheet: SeveriteSheet, wound: Wound, rs: SeveriteRules, ctx: Context) -> SeveriteSheet:
    """« un jet de Survie à l'aide du D20 … égaliser ou dépasser ce montant … supérieure à 19 … un 20 »."""
    if wound.severity is None:
        raise Refused("Le jet de Survie demande la Sévérité de la Blessure Fatale : indiquez-la.")
    needed = min(wound.severity, rs.survival.needed_cap)
    roll = ctx.dice(1, rs.survival.die, "Jet de Survie")
    if roll.total < needed:
        ctx.log.append(f"Jet de Survie : {roll.detail} contre {needed} (Sévérité {wound.severity}) → échec.")
        return _die(sheet, ctx, f"Blessure {_grade_label(wound.grade, rs)}, jet de Survie raté")
    ctx.log.append(
        f"Jet de Survie : {roll.detail} contre {needed} (Sévérité {wound.severity}) → réussite : "
        "perd connaissance, mais son état reste stable jusqu'à la fin du Conflit."
    )
    ctx.event("survived")
    sheet = _replace_wound(sheet, evolve(wound, survived=True))
    sheet = _put_condition(sheet, "inconscient", rs)
    return _put_condition(sheet, "stabilise", rs)


def _inflict(
    sheet: SeveriteSheet,
    severity: int,
    rs: SeveriteRules,
    ctx: Context,
    g: Grid,
    body_part: str | None,
    damage_type: str | None,
    handicap: str,
    handicap_penalty: int,
    note: str,
) -> SeveriteSheet:
    """A Sévérité lands on the living character (``strike``, ``damage``: ``body_part`` and ``damage_type`` are
    None or ids of the table ``rs``, whose ``Grid`` is ``g``).

    Issue 15, session 7: the common hit — a wound noted on the sheet, not Fatale, no Handicap given — in one flat
    path, the steps of ``_add_wound`` (which takes every other wound) with what they read of the table worked out
    once in the grade's row (``GradeRow``): the journal's head of the line by zone, the wound's fields, the Défi
    asked by gauge count."""
    if severity < 0:
        # « Si le résultat est négatif, cela signifie que l'attaque n'a pas causé suffisamment de
        #   dommages pour créer une Blessure. »
        ctx.say(f"Sévérité {fmt_int(severity)} : pas assez de dommages pour créer une Blessure.")
        ctx.event("no_wound")
        return sheet
    at = g.row_at  # ``wound_grade(severity, rs)``'s row, the Sévérité being 0 or more
    row = at[severity] if severity < len(at) else at[-1]
    log = ctx.log  # ``ctx.say(line)`` is ``ctx.log.append(line)`` for a line the player reads
    if handicap or not row.plain:
        if not handicap and body_part in row.insignificant:
            # « Il n'est pas systématique de prendre note de ces Blessures, car elles ne provoquent aucune
            #   séquelle. »
            log.append(row.insignificant[body_part])
            ctx.event("wound")
            return sheet
        return _add_wound(
            sheet,
            rs,
            ctx,
            grade_id=row.id,
            severity=severity,
            body_part=body_part,
            damage_type=damage_type,
            psychological=damage_type in g.psychological,
            handicap=handicap,
            handicap_penalty=handicap_penalty,
            note=note,
            g=g,
        )
    wounds = sheet.wounds
    size = len(wounds)
    if size >= MAX_WOUNDS:
        raise Refused(f"La fiche compte déjà {MAX_WOUNDS} blessures : effacez celles qui n'ont plus lieu d'être.")
    found = _WOUND_FIGURES.get(id(wounds))
    if found is None or found[0] is not wounds:
        found = _figures(wounds)
    _, before, wound_id, order, added, ignored, rising = found
    wound_id += 1
    if wound_id > MAX_WOUND_ID:
        raise Refused("Numéros de blessure épuisés : renumérotez les blessures de la fiche.")
    # ``new_wound(…)`` of this grade, zone and type, no Handicap: made once for these values (``hit_wound``).
    key = (body_part, damage_type, wound_id, severity if severity < MAX_SEVERITY else MAX_SEVERITY, note)
    wound = row.wounds.get(key)
    if wound is None:
        wound = hit_wound(row, key, g)
    # ``_grown(found, wound, notches)``: the new wound's rank noted apart from the ranks kept sorted (gauge.py's
    # figures, lane « severite-common »), sorted in past 16 of them.
    notches = row.notches
    added = added + (notches * _RANK + wound_id,)  # noqa: RUF005 (one tuple made, as ``wounds`` below)
    if len(added) > 16:
        order = _ranks_up(order, added)
        added = ()
    wounds = wounds + (wound,)  # noqa: RUF005 (one tuple made: ``(*wounds, wound)`` makes a list first)
    if len(_WOUND_FIGURES) >= _FIGURES_KEPT:  # ``_remember_figures``
        _WOUND_FIGURES.clear()
    _WOUND_FIGURES[id(wounds)] = (wounds, before + notches, wound_id, order, added, ignored, rising)
    # ``ctx.event("wound")``
    events = ctx.events
    if not events:
        ctx.events = ["wound"]
    elif "wound" not in events:
        events.append("wound")
    # « Blessure Légère (bras droit) : +1 cran de Trauma (30 → 31, au-delà de la jauge : Ardu (14)). »
    log.append(row.lines[body_part].get(before) or wound_line(row, body_part, before, g))
    if row.likely:
        log.append("Le Meneur de Jeu peut imposer un Handicap à cette Blessure.")
    needed = row.needed.get(before, _NOT_ASKED)
    if needed is _NOT_ASKED:
        needed = _needed(row, before, rs)
    if needed is None:
        if row.test != "never":
            log.append(row.calm.get(before) or calm_line(row, before, g))
    else:
        # ``_tenacity``'s steps for a living character: a state that spares the Défi, else the Défi.
        conditions = sheet.conditions
        # ``g.spared`` holds lines only for states that spare the Défi: found there, no set looked through.
        spared = g.spared.get(conditions) if conditions else None
        if spared is None and (not conditions or g.skipped.isdisjoint(conditions)):
            opposition, against = needed
            return _defi(sheet, rs, ctx, g, opposition, against, damage_type in g.psychological, wounds)
        name = sheet.name
        log.append((spared.get(name) if spared else None) or spared_line(conditions, name, rs, g))
    # The new sheet: ``evolve(sheet, wounds=wounds)`` without its checks (``wounds`` is a field).
    fields = sheet.__dict__.copy()
    fields["wounds"] = wounds
    return with_values(sheet, fields)


# --------------------------------------------------------------------------------------------------
# Handlers
# --------------------------------------------------------------------------------------------------


def strike(sheet: SeveriteSheet, action: Strike, ctx: Context) -> SeveriteSheet:
    """003 § Puissance contre Résistance."""
    rs: SeveriteRules = ctx.ruleset
    # The action's fields read from its ``__dict__`` (issue 15).
    asked = action.__dict__
    damage_type = asked["damage_type"]
    body_part = asked["body_part"]
    if damage_type not in rs.damage_types:
        _check_damage_type(damage_type, rs)
    if body_part not in rs.body_parts:
        _check_part(body_part, rs)
    part = rs.body_parts[body_part]
    vital_zone = asked["vital_zone"]
    if vital_zone and not part.vital:
        vital_parts = ", ".join(p.label.lower() for p in rs.body_parts.values() if p.vital) or "aucune"
        raise Refused(
            f"{part.label} n'est pas une zone vitale (zones vitales : {vital_parts}) : "
            "le Modificateur de zone vitale ne s'accorde pas."
        )
    if sheet.dead:
        ctx.say(f"{_name(sheet)} n'est plus en vie : l'attaque est sans effet.")
        return sheet
    g = grid(rs)  # once per strike (issue 15)
    pw = rs.power
    margin = asked["margin"]
    at = g.power_at  # ``power_grade(margin, rs)``
    grade = pw.grades[at[margin] if 0 <= margin < len(at) else power_grade(margin, rs)]
    # The rolls in the journal's order: « Le jet de Puissance comprend systématiquement un D4 », the grade's dice,
    # then the Résistance's « jet de un D4 auquel s'ajoute un Modificateur de protection ».
    base = _roll(ctx, g.power_die, "Puissance")
    extra = ctx.dice(grade.extra_dice, pw.extra_die, "Puissance") if grade.extra_dice else None
    efficacy: tuple[tuple[Roll, ...], ...] = ()
    for _ in range(grade.efficacy_dice) if grade.efficacy_dice else ():  # no ``range`` made for none (issue 15)
        # « un D8 d'Efficacité au jet de Puissance avec Facilité »: rolled again, the best is kept.
        tries = []  # a loop, not a comprehension (issue 15, session 7: no cells of ``ctx`` and ``pw``)
        for _ in range(pw.facility_rolls):
            tries.append(ctx.dice(1, pw.efficacy_die, "Efficacité (Facilité)"))
        efficacy += (tuple(tries),)
    die = _roll(ctx, g.resistance_die, "Résistance")
    prot, shielded = shield(sheet, body_part, damage_type, rs, g)
    key = (margin, base, extra, efficacy, asked["damage_modifier"], vital_zone, die, prot, shielded)
    found = g.strikes.get(key)
    if found is None:
        found = strike_lines(key, grade, pw, g)
    lines, severity = found
    ctx.log += lines  # ``ctx.say(line)`` for each
    return _inflict(
        sheet,
        severity,
        rs,
        ctx,
        g,
        body_part,
        damage_type,
        asked["handicap"],
        asked["handicap_penalty"],
        asked["note"],
    )


def strike_lines(key: tuple[Any, ...], grade: PowerGrade, pw: PowerRules, g: Grid) -> tuple[tuple[str, ...], int]:
    """A strike's three journal lines (Puissance, Résistance, Sévérité) and its Sévérité, for ``key``: (the margin,
    the Puissance's D4, its extra dice (None: none), its dice of Efficacité (each die's tries), the Modificateur de
    dégâts, the zone vitale asked, the Résistance's D4, the Modificateur de protection, the Résistance's text after
    the die), ``grade`` being the margin's. Made and kept in ``g.strikes`` (issue 15, session 9: the three lines
    cost ~9,000 CPU instructions of text per strike; a few rolls give the same lines again)."""
    margin, base, extra, efficacy, damage_modifier, vital_zone, die, prot, shielded = key
    power = base.total
    shown = base.detail
    if grade.adds_modifiers:
        if damage_modifier:
            power += damage_modifier
            shown += f" {signed(damage_modifier)} (mod. de dégâts)"
        # « Une frappe portée sur une zone vitale peut se voir octroyer un Modificateur de plus. »: the
        # GM's choice for each strike (issue 14), worth the table's value.
        if vital_zone and pw.vital_zone_modifier:
            power += pw.vital_zone_modifier
            shown += f" {signed(pw.vital_zone_modifier)} (zone vitale)"
    elif damage_modifier or vital_zone:
        # « Une Puissance Molle n'apporte aucun ajout en dehors du D4. »
        shown += " (aucun ajout en dehors du dé : ni Modificateur de dégâts, ni de zone vitale)"
    if extra is not None:
        power += extra.total
        shown += f" + {extra.detail}"
    for tries in efficacy:
        best = max(t.total for t in tries)
        power += best
        faces = ", ".join(str(t.total) for t in tries)
        shown += f" + {best} (D{pw.efficacy_die} d'Efficacité avec Facilité : {faces}, le meilleur)"
    power_text = fmt_int(power)
    resistance = die.total + prot
    resistance_text = fmt_int(resistance)
    severity = power - resistance
    found = (
        (
            f"Puissance {grade.label} (différence {margin}) : {shown} = {power_text}.",
            f"Résistance : {die.detail}{shielded} = {resistance_text}.",
            f"Sévérité = {power_text} − {resistance_text} = {fmt_int(severity)}.",
        ),
        severity,
    )
    memo = g.strikes
    if len(memo) >= _LINES_KEPT:
        memo.clear()
    memo[key] = found
    return found


def damage(sheet: SeveriteSheet, action: Damage, ctx: Context) -> SeveriteSheet:
    """The common « Dégâts »: here ``amount`` is a Sévérité already worked out at the table."""
    rs: SeveriteRules = ctx.ruleset
    asked = action.__dict__  # the action's fields (issue 15)
    if asked["nonlethal"]:
        raise Refused("Sévérité ne compte pas de dégâts non létaux : chaque coup donne une Sévérité.")
    damage_type = asked["damage_type"]
    if damage_type is not None and damage_type not in rs.damage_types:
        _check_damage_type(damage_type, rs)
    body_part = asked["body_part"]
    if body_part is not None and body_part not in rs.body_parts:
        _check_part(body_part, rs)
    g = grid(rs)  # once per action (issue 15)
    given = asked["amount"]
    hits = asked["hits"]
    for _ in _ONE_HIT if hits == 1 else range(hits):  # no ``range`` made for one hit (issue 15, session 7)
        if sheet.dead:
            ctx.say(f"{_name(sheet)} n'est plus en vie : coup sans effet.")
            break
        if given.__class__ is int:  # a number given as such: what ``ctx.amount`` gives for it, nothing said
            severity = given
        else:
            amount = ctx.amount(given, "Sévérité", None)  # ``minimum=None``, by place (issue 15: no keyword parsed)
            if not amount.given:  # ``ctx.say``, the line not secret (issue 15, session 7: a call less)
                ctx.log.append(f"Sévérité : {amount.detail}.")
            severity = amount.total
        sheet = _inflict(sheet, severity, rs, ctx, g, body_part, damage_type, "", 0, "")
    return sheet


def inflict_wound(sheet: SeveriteSheet, action: InflictWound, ctx: Context) -> SeveriteSheet:
    rs: SeveriteRules = ctx.ruleset
    if action.grade not in rs.grades:
        raise unknown("Degré de Blessure inconnu", action.grade, (g.label for g in rs.grades.values()))
    _check_part(action.body_part, rs)
    _check_damage_type(action.damage_type, rs)
    _alive(sheet, "recevoir une blessure")
    grade = rs.grades[action.grade]
    if action.severity is not None and wound_grade(action.severity, rs) != action.grade:
        other = _grade_label(wound_grade(action.severity, rs), rs)
        raise Refused(f"Une Sévérité de {action.severity} donne une Blessure {other}, pas {grade.label}.")
    if action.handicap and grade.handicap == "never":
        raise Refused(f"Une Blessure {grade.label} ne laisse pas de Handicap.")
    return _add_wound(
        sheet,
        rs,
        ctx,
        grade_id=action.grade,
        severity=action.severity,
        body_part=action.body_part,
        damage_type=action.damage_type,
        psychological=action.psychological or _is_psychological(action.damage_type, rs),
        handicap=action.handicap,
        handicap_penalty=action.handicap_penalty,
        note=action.note,
        test=action.tenacity_test,
    )


def tenacity_test(sheet: SeveriteSheet, action: TenacityTest, ctx: Context) -> SeveriteSheet:
    rs: SeveriteRules = ctx.ruleset
    _alive(sheet, "Défi de Ténacité")
    if action.opposition is not None:
        return _tenacity(
            sheet,
            rs,
            ctx,
            opposition=action.opposition,
            against="l'Opposition choisie",
            psychological=action.psychological,
        )
    notches = trauma(sheet)
    label, opposition = tier_rule(tier_of(notches, rs), rs)
    if opposition is None:
        raise Refused(f"Aucun Défi de Ténacité n'est nécessaire ({tier_text(notches, rs)}).")
    return _tenacity(sheet, rs, ctx, opposition=opposition, against=label, psychological=action.psychological)


def treat_wound(sheet: SeveriteSheet, action: TreatWound, ctx: Context) -> SeveriteSheet:
    """« Pour qu'une Blessure puisse guérir, il est nécessaire que celle-ci soit traitée »."""
    rs: SeveriteRules = ctx.ruleset
    _alive(sheet, "soigner")
    if action.treatment not in rs.treatments:
        raise unknown("Traitement inconnu", action.treatment, (t.label for t in rs.treatments.values()))
    wound = _find_wound(sheet, action.wound_id)
    treatment = rs.treatments[action.treatment]
    line = f"Blessure {wound_label(wound, rs)} traitée : {treatment.label.lower()}"
    if wound.treatment is not None and wound.treatment != action.treatment:
        previous = rs.treatments.get(wound.treatment)
        line += f" (au lieu de : {(previous.label if previous else wound.treatment).lower()})"
    ctx.say(line + " ; elle guérira au repos.")
    changes: dict[str, object] = {"treatment": action.treatment}
    if action.diagnosis:
        changes["diagnosis"] = action.diagnosis
        ctx.say(f"Diagnostic : {action.diagnosis}")
    sheet = _replace_wound(sheet, evolve(wound, **changes))
    if wound.survived and treatment.major and rs.survival.wake_on_major_treatment and "inconscient" in sheet.conditions:
        # « Il aura bien évidemment besoin de soin important afin de récupérer. »
        ctx.say(f"Soin important reçu : {_name(sheet)} reprend conscience.")
        sheet = _drop_conditions(sheet, {"inconscient", "stabilise"})
    return sheet


def diagnose_wound(sheet: SeveriteSheet, action: DiagnoseWound, ctx: Context) -> SeveriteSheet:
    rs: SeveriteRules = ctx.ruleset
    wound = _find_wound(sheet, action.wound_id)
    ctx.say(f"Diagnostic de la blessure {wound_label(wound, rs)} : {action.diagnosis or '(effacé)'}")
    return _replace_wound(sheet, evolve(wound, diagnosis=action.diagnosis))


def set_handicap(sheet: SeveriteSheet, action: SetHandicap, ctx: Context) -> SeveriteSheet:
    rs: SeveriteRules = ctx.ruleset
    wound = _find_wound(sheet, action.wound_id)
    grade = rs.grades.get(wound.grade)
    if action.handicap and grade is not None and grade.handicap == "never":
        raise Refused(f"Une Blessure {grade.label} ne laisse pas de Handicap.")
    if not action.handicap:
        ctx.say(f"Handicap retiré de la blessure {wound_label(wound, rs)}.")
        return _replace_wound(sheet, evolve(wound, handicap="", handicap_penalty=0))
    penalty = f" ({signed(action.penalty)})" if action.penalty else ""
    ctx.say(f"Handicap sur la blessure {wound_label(wound, rs)} : {action.handicap}{penalty}.")
    return _replace_wound(sheet, evolve(wound, handicap=action.handicap, handicap_penalty=action.penalty))


def worsening_risk(sheet: SeveriteSheet, action: WorseningRisk, ctx: Context) -> SeveriteSheet:
    """« le Meneur de Jeu peut demander … un Défi de Ténacité lorsqu'un personnage … prend le risque
    d'empirer son état »; untreated wounds « pourraient même s'aggraver »."""
    rs: SeveriteRules = ctx.ruleset
    _alive(sheet, "risquer d'aggraver une blessure")
    wound = _find_wound(sheet, action.wound_id)
    if wound.treatment is not None:
        raise Refused(f"La blessure {wound_label(wound, rs)} est traitée : elle ne s'aggrave pas.")
    if action.opposition is not None:
        opposition, against = action.opposition, "l'Opposition choisie"
    else:
        notches = trauma(sheet)
        against, found = tier_rule(tier_of(notches, rs), rs)
        if found is None:
            raise Refused(f"Aucun Défi de Ténacité n'est nécessaire ({tier_text(notches, rs)}).")
        opposition = found
    total, parts = _tenacity_total(*_tenacity_roll(sheet, rs, ctx, grid(rs), wound.psychological, None))
    if total >= opposition:
        ctx.say(f"Risque d'aggravation contre {against} ({opposition}) : {parts} = {fmt_int(total)} → réussite.")
        return sheet
    ctx.say(f"Risque d'aggravation contre {against} ({opposition}) : {parts} = {fmt_int(total)} → échec.")
    order = list(rs.grades)
    here = order.index(wound.grade) if wound.grade in order else len(order)
    top = order.index(rs.worsening.max_grade)
    if here >= top:
        ctx.say(f"La blessure {wound_label(wound, rs)} ne peut s'aggraver davantage.")
        return sheet
    new_grade = order[here + 1]
    added = max(0, rs.grades[new_grade].notches - rs.grades[wound.grade].notches)
    before = trauma(sheet)
    added = min(added, MAX_NOTCHES - wound.notches)
    worse = evolve(wound, grade=new_grade, notches=wound.notches + added)
    ctx.say(
        f"La blessure {wound_label(wound, rs)} s'aggrave : {_grade_label(new_grade, rs)}, "
        f"{signed(added)} crans ({before} → {before + added}, {tier_text(before + added, rs)})."
    )
    ctx.event("worsened")
    return _replace_wound(sheet, worse)


def supernatural_healing(sheet: SeveriteSheet, action: SupernaturalHealing, ctx: Context) -> SeveriteSheet:
    """« En fonction de son niveau de réussite, cette Action accordera le retrait de cran de Trauma. »"""
    rs: SeveriteRules = ctx.ruleset
    _alive(sheet, "soigner")
    if action.success_level not in rs.success_levels:
        raise unknown("Niveau de réussite inconnu", action.success_level, (s.label for s in rs.success_levels.values()))
    level = rs.success_levels[action.success_level]
    if action.wound_id is not None:
        _find_wound(sheet, action.wound_id)
    before = trauma(sheet)
    ctx.say(f"Soins surnaturels, réussite {level.label} : jusqu'à {plural(level.healing_notches, 'cran')} retirés.")
    sheet, removed = _lower_gauge(sheet, level.healing_notches, rs, ctx, only=action.wound_id, heals=True)
    ctx.say(f"Jauge de Trauma : {before} → {before - removed}.")
    return sheet


def heal(sheet: SeveriteSheet, action: Heal, ctx: Context) -> SeveriteSheet:
    """The common « Soins »: only supernatural care lowers the gauge directly, ``amount`` notches."""
    rs: SeveriteRules = ctx.ruleset
    if not action.magical:
        raise Refused(
            "Dans Sévérité, la jauge de Trauma ne baisse qu'au repos (blessures traitées) ou par des soins "
            "surnaturels : traitez la blessure, ou cochez « magique »."
        )
    if sheet.dead:
        _alive(sheet, "soigner")
    # ``ctx.amount(action.amount, …).total``: a number given as such is its own total (issue 15, session 7: a
    # Python call less; ``Context.amount`` for typed text and dice).
    total = action.amount
    if total.__class__ is not int:
        total = ctx.amount(total, "Crans retirés").total
    if total < 0:
        raise Refused(f"Retirer {total} crans n'a pas de sens.")
    wounds = sheet.wounds
    found = _WOUND_FIGURES.get(id(wounds))  # ``_figures(wounds)``, the kept entry read here (issue 15, session 9)
    if found is None or found[0] is not wounds:
        found = _figures(wounds)
    before = found[1]  # ``trauma(sheet)``
    lowered = _heal_tail(sheet, found, total, rs, ctx) if found[6] else None  # the common heal's flat path
    sheet, removed = _lower(sheet, found, total, rs, ctx, None, None, True) if lowered is None else lowered
    line = _HEAL_LINES.get((before, removed))
    ctx.log.append(_heal_line(before, removed) if line is None else line)  # ``ctx.say``
    return sheet


# « Soins surnaturels : 2 crans de Trauma retirés (31 → 29). » by (the gauge before, the notches removed) (issue 15,
# session 8: made once, not formatted at each heal).
_HEAL_LINES: dict[tuple[int, int], str] = {}


def _heal_line(before: int, removed: int) -> str:
    """``heal``'s line, made and kept in ``_HEAL_LINES``."""
    # ``plural(removed, 'cran')``, ``removed`` being 0 or more
    line = (
        f"Soins surnaturels : {removed} {'crans' if removed > 1 else 'cran'} de Trauma retirés"
        f" ({before} → {before - removed})."
    )
    if len(_HEAL_LINES) >= 4096:
        _HEAL_LINES.clear()
    _HEAL_LINES[before, removed] = line
    return line


def end_conflict(sheet: SeveriteSheet, action: EndConflict, ctx: Context) -> SeveriteSheet:
    rs: SeveriteRules = ctx.ruleset
    new = _end_conflict(sheet, rs, ctx, "Fin du Conflit")
    if new is sheet:
        ctx.say("Fin du Conflit : aucun effet en cours.")
    return new


def erase_wound(sheet: SeveriteSheet, action: EraseWound, ctx: Context) -> SeveriteSheet:
    rs: SeveriteRules = ctx.ruleset
    wound = _find_wound(sheet, action.wound_id)
    ctx.say(f"Blessure {wound_label(wound, rs)} effacée de la fiche.")
    return evolve(sheet, wounds=tuple(w for w in sheet.wounds if w.id != wound.id))


def set_condition(sheet: SeveriteSheet, action: SetCondition, ctx: Context) -> SeveriteSheet:
    rs: SeveriteRules = ctx.ruleset
    cid = action.condition
    rule = rs.conditions.get(cid)
    if rule is None:
        raise Refused(f"État inconnu : « {cid} ».")
    label = rule.label
    # ``ctx.say``: ``ctx.log.append``, no line being secret (issue 15, session 7: a Python call less per action).
    if action.active:
        if sheet.dead:
            _alive(sheet, "changer d'état")
        if cid in sheet.conditions:
            ctx.log.append(f"{label} : déjà en place.")
            return sheet
        line = _ADDED.get(label)  # « État Tourmenté ajouté. », kept (issue 15, session 9)
        ctx.log.append(_state_line(_ADDED, label, "ajouté") if line is None else line)
        return _put_condition(sheet, cid, rs)
    if cid not in sheet.conditions:
        ctx.log.append(f"{label} : n'était pas en place.")
        return sheet
    line = _REMOVED.get(label)
    ctx.log.append(_state_line(_REMOVED, label, "retiré") if line is None else line)
    return _drop_condition(sheet, cid)


# ``set_condition``'s lines « État Tourmenté ajouté. » and « État Tourmenté retiré. » by the state's label.
_ADDED: dict[str, str] = {}
_REMOVED: dict[str, str] = {}


def _state_line(lines: dict[str, str], label: str, done: str) -> str:
    """« État {label} {done}. », made and kept in ``lines``."""
    line = f"État {label} {done}."
    if len(lines) >= 1024:
        lines.clear()
    lines[label] = line
    return line


def clear_conditions(sheet: SeveriteSheet, action: ClearConditions, ctx: Context) -> SeveriteSheet:
    rs: SeveriteRules = ctx.ruleset
    if not sheet.conditions:
        ctx.say("Aucun état à retirer.")
        return sheet
    ctx.say("États retirés : " + ", ".join(condition_label(c, rs) for c in sheet.conditions) + ".")
    return _drop_conditions(sheet, set(sheet.conditions))
