"""The Trauma gauge, the grids, labels, conditions on the sheet, the gauge going down."""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Callable, Iterable, Sequence
from itertools import islice
from operator import attrgetter, lt
from typing import Any

from rules.dice import Plan, rule_plan
from rules.errors import Refused
from rules.model import (
    Context,
    _Blank,
    construct,
    evolve,
    signed,
    with_values,
)
from rules.ruleset import per_table
from rules.systems.severite.sheet import (
    MAX_SEQUEL,
    MAX_SEQUELS,
    MAX_WOUND_ID,
    Equipment,
    SeveriteSheet,
    TurnTimer,
    Wound,
)
from rules.systems.severite.table import SeveriteRules, TenacityResult, WoundGrade

_NOTCHES = attrgetter("notches")
_ID = attrgetter("id")
_IGNORED = attrgetter("ignored")

# A wound's rank in the order the gauge is lowered in (heaviest first, the latest first among equals) as one
# number: ``notches * _RANK + id`` (ids are 1…MAX_WOUND_ID, so the notches decide first, then the id).
_RANK = MAX_WOUND_ID + 1

# What a tuple of wounds holds, by the tuple's identity: (the tuple, its notches, its highest id, the ranks of its
# wounds sorted up (a list never changed once kept), the ranks of wounds added since (hits: a few, in a tuple),
# how many of them are ignored (« Inébranlable »), whether the ids rise strictly along the tuple). Sheets and
# their wounds are immutable and each action starts from the sheet the last one gave, so the figures of 30+
# wounds are read once per tuple instead of at every action (issue 15: a pydantic attribute read is slow, and the
# gauge lowered sorted every wound by them); a handler that builds a new tuple from a known one tells its figures
# (``_remember_figures``, ``_grown``). The entry holds the tuple: its id cannot be reused while it is here.
# Rising ids (what hits make: each new wound takes the highest number + 1, at the end; a heal only takes wounds
# out) let the gauge lowered find a wound by bisection. The ranks kept sorted (issue 15, session 7): the gauge
# lowered takes the heaviest from the end, no sort and no per-wound list rebuilt at each heal or hit.
Figures = tuple[tuple[Wound, ...], int, int, list[int], tuple[int, ...], int, bool]
_WOUND_FIGURES: dict[int, Figures] = {}
# How many tuples' figures are kept (then the memo starts again). Issue 15, session 7: 64, not 256. What a kept
# entry holds (the tuple of wounds, its newest wound, the entry) outlives the sheets that held it; with 256 entries
# the bench's mix kept ~1,300 more objects alive than it freed, enough for the collector to run (every 700): ~2.8k
# instructions per action, its gen-2 passes walking the whole heap; with 64, it did not run once in 2,000 actions.
# A sheet's chain of actions needs the last tuple or two; a GM's table of 1,000 creatures misses either way.
_FIGURES_KEPT = 64


def _figures(wounds: tuple[Wound, ...]) -> Figures:
    """The figures of ``wounds``, worked out and kept if not kept yet."""
    found = _WOUND_FIGURES.get(id(wounds))
    if found is None or found[0] is not wounds:
        ids = list(map(_ID, wounds))
        notches = list(map(_NOTCHES, wounds))
        ranks = [n * _RANK + i for n, i in zip(notches, ids, strict=True)]
        ranks.sort()
        rising = all(map(lt, ids, islice(ids, 1, None)))
        found = (wounds, sum(notches), max(ids, default=0), ranks, (), sum(map(_IGNORED, wounds)), rising)
        _remember_figures(found)
    return found


def _grown(found: Figures, wound: Wound, notches: int) -> tuple[Wound, ...]:
    """``found``'s tuple of wounds with ``wound`` at the end (numbered its highest number + 1, holding
    ``notches``: a hit), its figures kept: the new wound's rank noted apart, not sorted in until a heal needs the
    order (past 16 of them, sorted in now). The ids still rise if they did."""
    wounds = found[0] + (wound,)
    wound_id = wound.id
    added = (*found[4], notches * _RANK + wound_id)
    if len(added) > 16:
        _remember_figures((wounds, found[1] + notches, wound_id, _ranks_up(found[3], added), (), found[5], found[6]))
    else:
        _remember_figures((wounds, found[1] + notches, wound_id, found[3], added, found[5], found[6]))
    return wounds


def _ranks_up(ranks: list[int], added: tuple[int, ...]) -> list[int]:
    """A new list: ``ranks`` (sorted up) with ``added`` sorted in (one sort of the list made: issue 15, session 9,
    a sorted run and a few more cost it less than an ``insort`` each)."""
    ranks = [*ranks, *added]
    ranks.sort()
    return ranks


def _remember_figures(found: Figures) -> None:
    if len(_WOUND_FIGURES) >= _FIGURES_KEPT:  # a GM's table of many creatures: keep the latest few
        _WOUND_FIGURES.clear()
    _WOUND_FIGURES[id(found[0])] = found


def trauma(sheet: SeveriteSheet) -> int:
    """Notches filled: what every wound still holds in the gauge."""
    return _figures(sheet.wounds)[1]


def gauge_notches(sheet: SeveriteSheet) -> int:
    """``trauma(sheet)`` for a reader that needs nothing else of the wounds: the figures kept if there are, else
    the notches summed alone and nothing kept (issue 15: the ``state`` hook, read for each of a GM table's
    1,000 creatures after a bulk action, found 3 of 4 sheets past the tuples kept and worked out every
    figure of their wounds; keeping more tuples alive made every action dearer, the collector walking them)."""
    wounds = sheet.wounds
    found = _WOUND_FIGURES.get(id(wounds))
    if found is not None and found[0] is wounds:
        return found[1]
    return sum(map(_NOTCHES, wounds))


# The fields a new wound is given (``new_wound``), as ``construct`` would record them.
_NEW_WOUND_FIELDS = frozenset(
    (
        "id",
        "grade",
        "notches",
        "severity",
        "body_part",
        "damage_type",
        "psychological",
        "handicap",
        "handicap_penalty",
        "crippled",
        "note",
    )
)


def new_wound(
    wound_id: int,
    grade: str,
    notches: int,
    severity: int | None,
    body_part: str | None,
    damage_type: str | None,
    psychological: bool,
    handicap: str,
    handicap_penalty: int,
    crippled: bool,
    note: str,
) -> Wound:
    """``construct(Wound, id=…, grade=…, …)`` with these eleven fields (the rest at their defaults), built
    directly: one per hit (issue 15). The fields in the model's order, as validation stores them: a copy of
    ``_NEW_WOUND`` (a dict copy, not fifteen insertions), the eleven values set in place; the fields set is one
    set shared by every new wound, as ``evolve`` shares a model's with its copies (nothing mutates it)."""
    values = _NEW_WOUND.copy()
    values["id"] = wound_id
    values["grade"] = grade
    values["notches"] = notches
    values["severity"] = severity
    values["body_part"] = body_part
    values["damage_type"] = damage_type
    values["psychological"] = psychological
    values["handicap"] = handicap
    values["handicap_penalty"] = handicap_penalty
    values["crippled"] = crippled
    values["note"] = note
    return wound_of(values)


def wound_of(values: dict[str, Any]) -> Wound:
    """A new wound holding ``values`` (every field, in the model's order; nothing validated), its fields set the
    one shared by every new wound: how ``new_wound`` and the common hit's flat path (handlers.py) make one."""
    wound: Any = _Blank()  # ``_Blank``'s plain stores, then the class (rules/model.py)
    wound.__dict__ = values
    wound.__pydantic_fields_set__ = _NEW_WOUND_SET
    wound.__pydantic_extra__ = None
    wound.__pydantic_private__ = None
    wound.__class__ = Wound
    return wound  # type: ignore[no-any-return]  # a ``Wound``, now


# Every field of ``Wound`` in its order with its default (the eleven given are overwritten), and the fields set.
_NEW_WOUND: dict[str, object] = {
    "id": 0,
    "grade": "",
    "notches": 0,
    "severity": None,
    "body_part": None,
    "damage_type": None,
    "psychological": False,
    "treatment": None,
    "diagnosis": "",
    "handicap": "",
    "handicap_penalty": 0,
    "crippled": False,
    "ignored": False,
    "survived": False,
    "note": "",
}
_NEW_WOUND_SET = set(_NEW_WOUND_FIELDS)


class Grid:
    """What the rules look up in a rule table at every action, worked out once per table: the gauge's
    tiers and their texts, the labels the journal writes, the grades of a Sévérité and the success
    levels of a margin (issue 15: read once per table, not walked at every action)."""

    __slots__ = (
        "bare",
        "beyond",
        "beyond_text",
        "capacity",
        "condition_labels",
        "defi_dice",
        "defis",
        "grade_at",
        "grade_labels",
        "healed",
        "level_at",
        "part_texts",
        "per",
        "power_at",
        "power_die",
        "psychological",
        "resistance_die",
        "row_at",
        "rows",
        "shields",
        "skipped",
        "skipping",
        "spared",
        "strikes",
        "texts",
        "tiers",
        "vital",
    )

    def __init__(self, rs: SeveriteRules) -> None:
        self.per = rs.trauma.notches_per_tier
        self.tiers: tuple[tuple[str, int | None], ...] = tuple((t.label, t.opposition) for t in rs.trauma.tiers)
        self.beyond: tuple[str, int | None] = (rs.trauma.beyond.label, rs.trauma.beyond.opposition)
        self.capacity = len(self.tiers) * self.per
        self.texts = tuple(_tier_text(n, self) for n in range(self.capacity + 1))
        # Past the gauge every count reads the same (« au-delà de la jauge : Ardu (14) »).
        self.beyond_text = _tier_text(self.capacity + 1, self)
        self.grade_labels = {gid: g.label for gid, g in rs.grades.items()}
        # « (bras gauche) » after a wound or a zone in the journal.
        self.part_texts = {pid: f" ({p.label.lower()})" for pid, p in rs.body_parts.items()}
        # « (aucune protection : bras gauche) »: the Résistance of a strike on a zone nothing covers.
        self.bare = {pid: f" (aucune protection : {p.label.lower()})" for pid, p in rs.body_parts.items()}
        # What protects a zone against a damage type, by (equipment tuple's id, zone, type): (the tuple, the
        # Modificateur de protection, the Résistance's text after the die) (``shield``).
        self.shields: dict[tuple[int, str, str], tuple[tuple[Equipment, ...], int, str]] = {}
        self.vital = {pid: p.vital for pid, p in rs.body_parts.items()}
        self.psychological = frozenset(did for did, d in rs.damage_types.items() if d.psychological)
        self.condition_labels = {cid: c.label for cid, c in rs.conditions.items()}
        # The states in which no Défi de Ténacité is made (V11), to tell at once that none is there.
        self.skipped = frozenset(rs.tenacity.skipped_when)
        # The grade of each Sévérité from 0 to the highest threshold (above it: the last entry), the
        # success level of each margin from 0 to the highest threshold: what ``wound_grade`` and
        # ``success_level`` find by walking the table.
        top = max([0, *(g.min_severity for g in rs.grades.values())])
        self.grade_at = tuple(_walk_grades(n, rs) for n in range(top + 1))
        # Each grade as a hit reads it (``GradeRow``), by id and by Sévérité from 0 as ``grade_at``.
        self.rows = {gid: GradeRow(gid, grade, self) for gid, grade in rs.grades.items()}
        self.row_at = tuple(self.rows[gid] for gid in self.grade_at)
        top = max([0, *(lv.min_margin for lv in rs.success_levels.values())])
        self.level_at = tuple(_walk_levels(n, rs) for n in range(top + 1))
        # The Puissance grade of each attack margin from 0 to the highest threshold (``power_grade``).
        top = max([0, *(pg.min_margin for pg in rs.power.grades.values())])
        self.power_at = tuple(_walk_power(n, rs) for n in range(top + 1))
        # The one-die rolls of a hit (``dice.rule_plan``: « 1d10 = 7 »), drawn by ``handlers._roll``: the Défi de
        # Ténacité's die and its skill's die, the strike's Puissance and Résistance dice.
        self.defi_dice: tuple[Plan, Plan] = (_one_die(rs.tests.attribute_die), _one_die(rs.tests.skill_die))
        self.power_die = _one_die(rs.power.base_die)
        self.resistance_die = _one_die(rs.resistance.die)
        # A Défi's journal line, its result (None: failed) and its event, by what they depend on (``handlers.defi``).
        self.defis: dict[tuple[Any, ...], tuple[str, TenacityResult | None, str]] = {}
        # A strike's three journal lines and its Sévérité, by its rolls and what it adds (``handlers.strike_lines``).
        self.strikes: dict[tuple[Any, ...], tuple[tuple[str, ...], int]] = {}
        # The states of a sheet's ``conditions`` that spare it the Défi, as the journal lists them (None: none), by
        # the sheet's conditions (``handlers._tenacity``).
        self.skipping: dict[tuple[str, ...], str | None] = {}
        # The journal's line for a character spared the Défi by a state, by the sheet's conditions then its name
        # (``spared_line``).
        self.spared: dict[tuple[str, ...], dict[str, str]] = {}
        # « Blessure n° 31 Légère (bras droit) guérie. », a wound's line when it heals (not crippled), by (number,
        # grade, zone) (``healed_line``; issue 15, session 8).
        self.healed: dict[tuple[int, str, str | None], str] = {}


def _one_die(sides: int) -> Plan:
    """``dice.rule_plan(1, sides)`` for a die of the table (2 to 100 sides: a plan that keeps its rolls)."""
    plan = rule_plan(1, sides)
    if plan is None or plan[6] is None:
        raise ValueError(f"no plan for a die of {sides} sides")
    return plan


class GradeRow:
    """A grade of Blessure as a hit reads it, worked out once per table (issue 15, session 7: the common hit reads
    one row instead of the grade's model, its labels and the table's texts one by one): the grade's values, the
    journal's lines by zone and gauge count, the new wounds of its hits, and the Défi it calls for
    by gauge count. The memos are bounded (``_LINES_KEPT`` entries each)."""

    __slots__ = (
        "added",
        "calm",
        "fatal",
        "grade",
        "heads",
        "id",
        "insignificant",
        "likely",
        "lines",
        "needed",
        "notches",
        "plain",
        "test",
        "wounds",
    )

    def __init__(self, gid: str, grade: WoundGrade, g: Grid) -> None:
        self.id = gid
        self.grade = grade
        self.notches = notches = grade.notches
        self.test = grade.test
        self.fatal = grade.fatal
        self.likely = grade.handicap == "likely"
        # « Il n'est pas systématique de prendre note de ces Blessures »: not noted on the sheet.
        unnoted = notches == 0 and not grade.recorded and not grade.fatal
        # A wound the common hit notes in one flat path: on the sheet, and not Fatale.
        self.plain = not unnoted and not grade.fatal
        label = grade.label
        # « +1 cran », « +3 crans »: what a wound of the grade adds to the gauge, as the journal says it.
        self.added = added = f"{signed(notches)} {'crans' if notches > 1 else 'cran'}"
        # « Blessure Légère (bras droit) : +1 cran de Trauma (» (then « 30 → 31, … ». »), by zone (None: no zone).
        self.heads: dict[str | None, str] = {None: f"Blessure {label} : {added} de Trauma ("}
        # « Blessure Bénigne (jambe gauche) : effet insignifiant, non notée sur la fiche. », by zone, if unnoted.
        self.insignificant: dict[str | None, str] = {}
        if unnoted:
            self.insignificant[None] = f"Blessure {label} : effet insignifiant, non notée sur la fiche."
        for pid, where in g.part_texts.items():
            self.heads[pid] = f"Blessure {label}{where} : {added} de Trauma ("
            if unnoted:
                self.insignificant[pid] = f"Blessure {label}{where} : effet insignifiant, non notée sur la fiche."
        # The whole line of a wound (``heads`` + « 30 → 31, au-delà de la jauge : Ardu (14)). »), by zone then by
        # the gauge's count before the wound (``wound_line``).
        self.lines: dict[str | None, dict[int, str]] = {part: {} for part in self.heads}
        # « Pas de Défi de Ténacité (palier 1 : aucun test). », by the gauge's count before the wound (``calm_line``).
        self.calm: dict[int, str] = {}
        # The new wounds of the common hit (``new_wound``'s, no Handicap), by (zone, damage type, number, Sévérité,
        # note): one immutable ``Wound`` for the same values (``hit_wound``).
        self.wounds: dict[tuple[str | None, str | None, int, int, str], Wound] = {}
        # ``_test_needed``'s answers by the gauge's count before the wound (after it: that count + ``notches``).
        self.needed: dict[int, tuple[int, str] | None] = {}


# How many entries each memo of a ``GradeRow`` keeps (then it starts again): a gauge's counts, zones, types.
_LINES_KEPT = 1024


def wound_line(row: GradeRow, body_part: str | None, before: int, g: Grid) -> str:
    """« Blessure Légère (bras droit) : +1 cran de Trauma (30 → 31, au-delà de la jauge : Ardu (14)). », made and
    kept in ``row.lines`` (``body_part``: None or an id of the table)."""
    lines = row.lines[body_part]
    after = before + row.notches
    line = f"{row.heads[body_part]}{before} → {after}, {grid_text(after, g)})."
    if len(lines) >= _LINES_KEPT:
        lines.clear()
    lines[before] = line
    return line


def calm_line(row: GradeRow, before: int, g: Grid) -> str:
    """« Pas de Défi de Ténacité (palier 1 : aucun test). » after a wound of ``row`` on a gauge at ``before``, made
    and kept in ``row.calm``."""
    calm = row.calm
    line = f"Pas de Défi de Ténacité ({grid_text(before + row.notches, g)})."
    if len(calm) >= _LINES_KEPT:
        calm.clear()
    calm[before] = line
    return line


# How many new wounds each ``GradeRow`` keeps (then it starts again). A kept wound outlives the sheets that held
# it: a few hundred keep the collector quiet (``_FIGURES_KEPT``).
_WOUNDS_KEPT = 256


def hit_wound(row: GradeRow, key: tuple[str | None, str | None, int, int, str], g: Grid) -> Wound:
    """The new wound of a common hit of ``row`` (``new_wound(…)`` of this grade, no Handicap, not crippled), for
    ``key``: (zone, damage type, number, Sévérité held to ``MAX_SEVERITY``, note); made and kept in ``row.wounds``.

    Issue 15, session 9: a wound model made cost ~5,400 CPU instructions, a third of the common hit. A ``Wound``
    is immutable and holds nothing of the sheet but its values: the same hit again (a wound numbered as one that
    healed, a GM's like creatures hit alike, a hit undone and done again) takes the same object, as the copies of a
    sheet share their wounds."""
    body_part, damage_type, wound_id, severity, note = key
    values = _NEW_WOUND.copy()
    values["id"] = wound_id
    values["grade"] = row.id
    values["notches"] = row.notches
    values["severity"] = severity
    values["body_part"] = body_part
    values["damage_type"] = damage_type
    values["psychological"] = damage_type in g.psychological
    values["note"] = note
    wound = wound_of(values)
    made = row.wounds
    if len(made) >= _WOUNDS_KEPT:
        made.clear()
    made[key] = wound
    return wound


def skipping_labels(conditions: tuple[str, ...], rs: SeveriteRules, g: Grid) -> str | None:
    """The labels of the states of ``conditions`` that spare the Défi, as the journal lists them (None: none),
    kept per tuple of conditions in ``g.skipping`` (issue 15: a character out of the fight takes every later hit
    this way)."""
    memo = g.skipping
    blocking = [c for c in rs.tenacity.skipped_when if c in conditions]
    labels = ", ".join(condition_label(c, rs) for c in blocking) if blocking else None
    if len(memo) >= 4096:
        memo.clear()
    memo[conditions] = labels
    return labels


def spared_line(conditions: tuple[str, ...], name: str, rs: SeveriteRules, g: Grid) -> str:
    """« Pas de Défi de Ténacité pour Maëlle, déjà dans l'état : Hors combat. »: a character of this ``name`` in
    ``conditions`` (one at least spares the Défi), made and kept in ``g.spared`` by conditions then name."""
    labels = g.skipping[conditions] if conditions in g.skipping else skipping_labels(conditions, rs, g)
    line = f"Pas de Défi de Ténacité pour {name or 'Le personnage'}, déjà dans l'état : {labels}."
    spared = g.spared
    lines = spared.get(conditions)
    if lines is None or len(lines) >= _LINES_KEPT:
        if len(spared) >= _LINES_KEPT:
            spared.clear()
        lines = spared[conditions] = {}
    lines[name] = line
    return line


# The ``Grid`` of a rule table, built on first use (a table is immutable).
grid: Callable[[SeveriteRules], Grid] = per_table(Grid)


def _tier_of(notches: int, g: Grid) -> int:
    if notches <= 0:
        return 0
    if notches > g.capacity:
        return len(g.tiers) + 1
    return -(-notches // g.per)


def _tier_rule(tier: int, g: Grid) -> tuple[str, int | None]:
    if tier <= 0:
        return "jauge vide", None
    if tier > len(g.tiers):
        return g.beyond
    return g.tiers[tier - 1]


def _tier_text(notches: int, g: Grid) -> str:
    tier = _tier_of(notches, g)
    label, opposition = _tier_rule(tier, g)
    if tier == 0:
        return "jauge vide"
    if tier > len(g.tiers):
        return f"au-delà de la jauge : {label} ({opposition})"
    if opposition is None:
        return f"palier {tier} : aucun test"
    return f"palier {tier} : {label} ({opposition})"


def tier_of(notches: int, rs: SeveriteRules) -> int:
    """0 for an empty gauge, 1…4 for the tiers, 5 past the gauge."""
    return _tier_of(notches, grid(rs))


def tier_rule(tier: int, rs: SeveriteRules) -> tuple[str, int | None]:
    """Label and Opposition of a tier (``None``: no test at that tier)."""
    return _tier_rule(tier, grid(rs))


def tier_text(notches: int, rs: SeveriteRules) -> str:
    """« palier 2 : Jouable (8) », « au-delà de la jauge : Ardu (14) »…"""
    return grid_text(notches, grid(rs))


def grid_text(notches: int, g: Grid) -> str:
    """``tier_text`` with the table's ``Grid`` at hand."""
    if notches > g.capacity:
        return g.beyond_text
    if notches >= 0:
        return g.texts[notches]
    return _tier_text(notches, g)


def power_grade(margin: int, rs: SeveriteRules) -> str:
    """The Puissance grade of an Opposition margin (« La Puissance découle directement de la différence »):
    the last grade of the table whose ``min_margin`` it reaches (the first grade when it reaches none)."""
    if margin < 0:
        return _walk_power(margin, rs)
    at = grid(rs).power_at
    return at[margin] if margin < len(at) else at[-1]


def _walk_power(margin: int, rs: SeveriteRules) -> str:
    found = next(iter(rs.power.grades))
    for gid, grade in rs.power.grades.items():
        if margin >= grade.min_margin:
            found = gid
    return found


def wound_grade(severity: int, rs: SeveriteRules) -> str:
    """The grade of a Sévérité: the last grade of the table whose ``min_severity`` it reaches (the first
    grade when it reaches none)."""
    at = grid(rs).grade_at
    if severity < 0:
        return _walk_grades(severity, rs)
    return at[severity] if severity < len(at) else at[-1]


def _walk_grades(severity: int, rs: SeveriteRules) -> str:
    found = next(iter(rs.grades))
    for gid, grade in rs.grades.items():
        if severity >= grade.min_severity:
            found = gid
    return found


def success_level(margin: int, rs: SeveriteRules) -> str | None:
    """The success level of a Défi's margin (``None``: failure)."""
    if margin < 0:
        return None
    at = grid(rs).level_at
    return at[margin] if margin < len(at) else at[-1]


def _walk_levels(margin: int, rs: SeveriteRules) -> str:
    found = next(iter(rs.success_levels))
    for sid, level in rs.success_levels.items():
        if margin >= level.min_margin:
            found = sid
    return found


def protection(sheet: SeveriteSheet, body_part: str, damage_type: str, rs: SeveriteRules) -> tuple[int, list[str]]:
    """Modificateur de protection of what covers ``body_part`` against ``damage_type``."""
    # A loop, not comprehensions (issue 15, session 7: the zone and type captured made cells of them).
    covering = []
    for e in sheet.equipment:
        if body_part in e.body_parts:
            value = e.against(damage_type)
            if value > 0:
                covering.append((value, e.name))
    if not covering:
        return 0, []
    if rs.resistance.protection_stacks:
        return sum(v for v, _ in covering), [n for _, n in covering]
    best = max(covering, key=lambda c: c[0])
    return best[0], [best[1]]


def shield(sheet: SeveriteSheet, body_part: str, damage_type: str, rs: SeveriteRules, g: Grid) -> tuple[int, str]:
    """``protection`` and the Résistance's text after the die (« + 2 (Brigandine, tranchant) », « (aucune
    protection : bras gauche) »), kept per (equipment tuple, zone, type) in the table's ``Grid`` (issue 15, session
    7: a strike walked the equipment and its protections each time; a sheet's equipment tuple is shared by every
    copy of the sheet until it is edited). ``body_part`` and ``damage_type`` are ids of the table."""
    equipment = sheet.equipment
    if not equipment:
        return 0, g.bare[body_part]
    memo = g.shields
    key = (id(equipment), body_part, damage_type)
    found = memo.get(key)
    if found is None or found[0] is not equipment:
        prot, names = protection(sheet, body_part, damage_type, rs)
        if prot:
            text = f" + {prot} ({', '.join(names)}, {rs.damage_types[damage_type].label.lower()})"
        else:
            text = g.bare[body_part]
        if len(memo) >= 4096:
            memo.clear()
        # The entry holds the tuple: its id cannot be reused while it is here.
        found = memo[key] = (equipment, prot, text)
    return found[1], found[2]


def _name(sheet: SeveriteSheet) -> str:
    return sheet.name or "Le personnage"


def _grade_label(grade: str, rs: SeveriteRules) -> str:
    rule = rs.grades.get(grade)
    return rule.label if rule else grade


def _part_label(part: str | None, rs: SeveriteRules) -> str:
    if part is None:
        return ""
    rule = rs.body_parts.get(part)
    return rule.label if rule else part


def wound_label(wound: Wound, rs: SeveriteRules) -> str:
    """« n° 2 Grave (bras gauche) »."""
    return _wound_text(wound, grid(rs))


def _wound_text(wound: Wound, g: Grid) -> str:
    """``wound_label`` with the table's ``Grid`` at hand (a journal naming several wounds looks it up once)."""
    part = wound.body_part
    grade = g.grade_labels.get(wound.grade, wound.grade)
    if not part:
        return f"n° {wound.id} {grade}"
    return f"n° {wound.id} {grade}{g.part_texts.get(part) or f' ({part})'}"


def condition_label(cid: str, rs: SeveriteRules) -> str:
    rule = rs.conditions.get(cid)
    return rule.label if rule else cid


def _find_wound(sheet: SeveriteSheet, wound_id: int) -> Wound:
    for wound in sheet.wounds:
        if wound.id == wound_id:
            return wound
    raise Refused(f"Aucune blessure n° {wound_id} sur la fiche.")


def _replace_wound(sheet: SeveriteSheet, wound: Wound) -> SeveriteSheet:
    # A loop, not a generator (issue 15, session 7: no cell of ``wound``).
    wound_id = wound.id
    wounds = []
    for w in sheet.wounds:
        wounds.append(wound if w.id == wound_id else w)
    return evolve(sheet, wounds=tuple(wounds))


def _alive(sheet: SeveriteSheet, what: str) -> None:
    if sheet.dead:
        raise Refused(f"{_name(sheet)} n'est plus en vie : {what} impossible.")


def unknown(what: str, value: str, labels: Iterable[str]) -> Refused:
    """« Zone du corps inconnue : « pied » (attendu : Tête, Torse, …). »: the choices by their labels."""
    return Refused(f"{what} : « {value} » (attendu : {', '.join(labels)}).")


def _check_part(part: str | None, rs: SeveriteRules) -> None:
    if part is not None and part not in rs.body_parts:
        raise unknown("Zone du corps inconnue", part, (p.label for p in rs.body_parts.values()))


def _check_damage_type(damage_type: str | None, rs: SeveriteRules) -> None:
    if damage_type is not None and damage_type not in rs.damage_types:
        raise unknown("Type de dégâts inconnu", damage_type, (d.label for d in rs.damage_types.values()))


def _is_psychological(damage_type: str | None, rs: SeveriteRules) -> bool:
    return damage_type is not None and damage_type in rs.damage_types and rs.damage_types[damage_type].psychological


# --------------------------------------------------------------------------------------------------
# Conditions
# --------------------------------------------------------------------------------------------------


def _put_condition(
    sheet: SeveriteSheet, cid: str, rs: SeveriteRules, wounds: tuple[Wound, ...] | None = None
) -> SeveriteSheet:
    """Set ``cid``; a turn-bound condition gets its length (the longer one wins if already there). ``wounds``:
    the sheet's new wounds, given in the same copy (a hit whose Défi fails: one copy of the sheet, not two)."""
    rule = rs.conditions[cid]
    conditions = sheet.conditions
    if conditions:  # ``tuple(sorted({*conditions, cid}))``, kept
        key = (conditions, cid)
        found = _WITH.get(key)
        conditions = _states_with(key) if found is None else found
    else:
        conditions = (cid,)
    timers = sheet.turn_timers
    if rule.duration == "turns":
        if timers:
            # The longest length of ``cid``'s timers and the others kept, in one loop (issue 15, session 7: the
            # comprehensions made a cell of ``cid``, dearer at every call).
            left = rule.turns
            others = []
            for t in timers:
                if t.condition == cid:
                    if t.turns > left:
                        left = t.turns
                else:
                    others.append(t)
            timers = (*others, _turn_timer(cid, left))
        else:  # ``_turn_timer(cid, rule.turns)``, the timer looked up first (issue 15, session 7: a call less)
            timer = _TURN_TIMERS.get((cid, rule.turns))
            timers = (timer if timer is not None else _turn_timer(cid, rule.turns),)
    # ``evolve(sheet, conditions=conditions, turn_timers=timers[, wounds=wounds])``: the fields copied and set
    # (issue 15, session 9: no keyword dict, the sheet's dict cloned rather than merged; ~2,000 CPU instructions
    # less per state put, a failed Défi's among them).
    fields = sheet.__dict__.copy()
    fields["conditions"] = conditions
    fields["turn_timers"] = timers
    if wounds is not None:
        fields["wounds"] = wounds
    return with_values(sheet, fields)


# A sheet's states with one more, by (its states, the state put) (issue 15, session 8: a set built and sorted at
# each state put; a character's states are a few tuples, again and again).
_WITH: dict[tuple[tuple[str, ...], str], tuple[str, ...]] = {}


def _states_with(key: tuple[tuple[str, ...], str]) -> tuple[str, ...]:
    """``conditions`` with ``cid`` (``key``), sorted, each once (a sheet not validated may hold one twice), made
    and kept in ``_WITH``."""
    conditions, cid = key
    found = tuple(sorted({*conditions, cid}))
    if len(_WITH) >= 1024:
        _WITH.clear()
    _WITH[key] = found
    return found


# The turn timers built, by (condition, turns): immutable, shared by every sheet that holds one (issue 15: a
# model built costs ~5k instructions; a state put with its length is the same few values again and again).
_TURN_TIMERS: dict[tuple[str, int], TurnTimer] = {}


def _turn_timer(cid: str, turns: int) -> TurnTimer:
    """``construct(TurnTimer, condition=cid, turns=turns)``, built once."""
    key = (cid, turns)
    timer = _TURN_TIMERS.get(key)
    if timer is None:
        if len(_TURN_TIMERS) >= 1024:
            _TURN_TIMERS.clear()
        timer = _TURN_TIMERS[key] = construct(TurnTimer, condition=cid, turns=turns)
    return timer


def _drop_condition(sheet: SeveriteSheet, cid: str) -> SeveriteSheet:
    """``_drop_conditions(sheet, {cid})`` for one state held once (``set_condition``; issue 15, session 7: the
    tuple cut around it, no generator); a state held twice (a sheet not validated) goes the long way."""
    key = (sheet.conditions, cid)
    conditions = _WITHOUT.get(key)
    if conditions is None:
        conditions = key[0]
        if conditions.count(cid) != 1:
            return _drop_conditions(sheet, {cid})
        at = conditions.index(cid)
        conditions = conditions[:at] + conditions[at + 1 :]
        if len(_WITHOUT) >= 1024:
            _WITHOUT.clear()
        _WITHOUT[key] = conditions  # (issue 15, session 8: kept, as ``_WITH``)
    timers = sheet.turn_timers
    if timers:  # a loop, not a comprehension (issue 15, session 7: no cell of ``cid``)
        others = []
        for t in timers:
            if t.condition != cid:
                others.append(t)
        timers = tuple(others)
    if cid == "inebranlable":
        wounds = sheet.wounds
        found = _WOUND_FIGURES.get(id(wounds))  # ``_figures(wounds)``, the kept entry read here
        if found is None or found[0] is not wounds:
            found = _figures(wounds)
        if found[5]:
            wounds = tuple(evolve(w, ignored=False) if w.ignored else w for w in wounds)
            return evolve(sheet, conditions=conditions, turn_timers=timers, wounds=wounds)
    # ``evolve(sheet, conditions=conditions, turn_timers=timers)``, no keywords (issue 15, session 9)
    values = sheet.__dict__.copy()
    values["conditions"] = conditions
    values["turn_timers"] = timers
    return with_values(sheet, values)


# A sheet's states less one held once, by (its states, the state taken off) (``_drop_condition``).
_WITHOUT: dict[tuple[tuple[str, ...], str], tuple[str, ...]] = {}


def _drop_conditions(sheet: SeveriteSheet, gone: set[str]) -> SeveriteSheet:
    # Loops, not generators (issue 15, session 7: no cell of ``gone``).
    timers = sheet.turn_timers
    if timers:
        others = []
        for t in timers:
            if t.condition not in gone:
                others.append(t)
        timers = tuple(others)
    kept = []
    for c in sheet.conditions:
        if c not in gone:
            kept.append(c)
    conditions = tuple(kept)
    # The ignored wounds counted with the wounds' figures (issue 15: not one read per wound).
    if "inebranlable" in gone and _figures(sheet.wounds)[5]:
        wounds = tuple(evolve(w, ignored=False) if w.ignored else w for w in sheet.wounds)
        return evolve(sheet, conditions=conditions, turn_timers=timers, wounds=wounds)
    return evolve(sheet, conditions=conditions, turn_timers=timers)


def _end_conflict(sheet: SeveriteSheet, rs: SeveriteRules, ctx: Context, why: str) -> SeveriteSheet:
    """« jusqu'à la fin du Conflit »: conflict- and turn-bound effects end, ignored wounds count again."""
    gone = {c for c in sheet.conditions if c in rs.conditions and rs.conditions[c].duration in ("conflict", "turns")}
    ignored = [w for w in sheet.wounds if w.ignored]
    if not gone and not ignored:
        return sheet
    if gone:
        ended = ", ".join(condition_label(c, rs) for c in sorted(gone))
        ctx.say(f"{why} : {ended} {'prennent' if len(gone) > 1 else 'prend'} fin.")
    if ignored:
        ctx.say("Les blessures ignorées comptent de nouveau : " + ", ".join(wound_label(w, rs) for w in ignored) + ".")
    sheet = _drop_conditions(sheet, gone)
    if ignored:
        sheet = evolve(sheet, wounds=tuple(evolve(w, ignored=False) if w.ignored else w for w in sheet.wounds))
    if "stabilise" in gone and "inconscient" in sheet.conditions:
        ctx.say(
            f"{_name(sheet)} : l'état stable promis jusqu'à la fin du Conflit prend fin ; toujours sans "
            "connaissance, il faut des soins importants (un traitement majeur de la Blessure Fatale)."
        )
    return sheet


# --------------------------------------------------------------------------------------------------
# The gauge going down
# --------------------------------------------------------------------------------------------------


def _heal_away(
    sheet: SeveriteSheet, healed: list[Wound], rs: SeveriteRules, ctx: Context, *, removed: bool = False
) -> SeveriteSheet:
    """Healed wounds leave the sheet (``removed``: already taken off); a crippled limb stays crippled (a
    sequel)."""
    if not healed:
        return sheet
    sequels = _say_healed(healed, sheet.sequels, rs, ctx)
    if removed:
        return evolve(sheet, sequels=sequels) if sequels is not sheet.sequels else sheet
    gone = {w.id for w in healed}
    left = []  # a loop, not a generator (issue 15, session 7: no cell of ``gone``)
    for w in sheet.wounds:
        if w.id not in gone:
            left.append(w)
    return evolve(sheet, wounds=tuple(left), sequels=sequels)


def _say_healed(healed: Sequence[Wound], sequels: tuple[str, ...], rs: SeveriteRules, ctx: Context) -> tuple[str, ...]:
    """The journal of ``healed`` (not empty), each told « guérie », and the event; ``sequels`` with those of the
    crippled limbs added (the same tuple if none is)."""
    g = grid(rs)  # once for every wound named (issue 15)
    lines = g.healed
    log = ctx.log  # ``ctx.say``, no line being secret (issue 15: a Python call less per line)
    for wound in healed:
        if not wound.crippled:  # « Blessure n° 31 Légère (bras droit) guérie. », kept (issue 15, session 8)
            key = (wound.id, wound.grade, wound.body_part)
            line = lines.get(key)
            log.append(healed_line(wound, key, g) if line is None else line)
            continue
        line = f"Blessure {_wound_text(wound, g)} guérie"
        where = _part_label(wound.body_part, rs) or "Membre"
        sequel = f"{where} : {wound.handicap or rs.fatal.crippled_handicap}"
        if len(sequels) < MAX_SEQUELS:
            sequels = (*sequels, sequel[:MAX_SEQUEL])
            line += " ; le membre reste invalide (séquelle)"
        else:
            line += f" ; le membre reste invalide (séquelle non notée : la fiche en compte déjà {MAX_SEQUELS})"
        log.append(line + ".")
    # ``ctx.event("healed")`` (issue 15, session 7: a call less per heal)
    events = ctx.events
    if not events:
        ctx.events = ["healed"]
    elif "healed" not in events:
        events.append("healed")
    return sequels


def healed_line(wound: Wound, key: tuple[int, str, str | None], g: Grid) -> str:
    """« Blessure n° 31 Légère (bras droit) guérie. »: the line of ``wound`` healing (not crippled), made and kept
    in ``g.healed`` by ``key``, its (number, grade, zone)."""
    line = f"Blessure {_wound_text(wound, g)} guérie."
    lines = g.healed
    if len(lines) >= _LINES_KEPT:
        lines.clear()
    lines[key] = line
    return line


def _lower_gauge(
    sheet: SeveriteSheet,
    count: int,
    rs: SeveriteRules,
    ctx: Context,
    *,
    prefer: int | None = None,
    only: int | None = None,
    heals: bool,
) -> tuple[SeveriteSheet, int]:
    """Remove up to ``count`` notches: from ``prefer`` first (or ``only`` that wound), then the
    heaviest wounds. ``heals``: a wound brought to 0 notches this way is healed (supernatural care);
    otherwise it stays until treated (adrenaline lowers stress, it does not close a wound).
    """
    return _lower(sheet, _figures(sheet.wounds), count, rs, ctx, prefer, only, heals)


def _lower(
    sheet: SeveriteSheet,
    found: Figures,
    count: int,
    rs: SeveriteRules,
    ctx: Context,
    prefer: int | None,
    only: int | None,
    heals: bool,
) -> tuple[SeveriteSheet, int]:
    """``_lower_gauge`` with the figures of the sheet's wounds at hand, its arguments by place (``heal``: issue
    15, one figures lookup and no keyword parsing)."""
    if not found[6]:  # ids not rising (a hand-ordered or unvalidated sheet): every wound's place looked for
        return _lower_gauge_unordered(sheet, found, count, rs, ctx, prefer, only, heals)
    wounds = sheet.wounds
    _, notches_before, _, ranks, added, ignored, _ = found
    # The ranks sorted up, a new list (the kept one is shared): the heaviest wounds at its end, the latest first
    # among equals (a wound's rank: ``notches * _RANK + id``); each number once (rising), a wound found by
    # bisection of the ids.
    ranks = [*ranks, *added]  # ``_ranks_up``, inlined
    ranks.sort()
    left = count
    # What changes, by the wound's place in ``wounds``: (its id, its notches left; ``None``: it leaves the sheet).
    changed: dict[int, tuple[int, int | None]] = {}
    first = prefer if only is None else only
    if first is not None:  # that wound first (``only``: a wound of the sheet, ``supernatural_healing`` found it)
        spot = bisect_left(wounds, first, key=_ID)
        if spot < len(wounds) and wounds[spot].id == first:
            notches = wounds[spot].notches
            if notches:
                if left > 0:
                    ranks.remove(notches * _RANK + first)
                    take = notches if notches < left else left
                    left -= take
                    changed[spot] = (first, None if heals and take == notches else notches - take)
            elif only is not None and heals:  # ``only`` held no notch: cared for, it heals
                ranks.remove(first)
                changed[spot] = (first, None)
    if only is None:
        end = len(ranks)
        # The heaviest are most often the latest wounds, at the tuple's end: the place before the last one found
        # there is tried first (ids rising: the place bisection would find), then bisection.
        tail = len(wounds)
        while left > 0 and end:
            rank = ranks[end - 1]
            notches = rank // _RANK
            if not notches:  # the wounds left hold no notch
                break
            end -= 1
            wound_id = rank - notches * _RANK
            take = notches if notches < left else left
            left -= take
            still = None if heals and take == notches else notches - take
            if tail and wounds[tail - 1].id == wound_id:
                tail -= 1
                changed[tail] = (wound_id, still)
            else:
                changed[bisect_left(wounds, wound_id, key=_ID)] = (wound_id, still)
        del ranks[end:]
    if not changed:
        return sheet, 0
    healed: list[Wound] = []  # the wounds that leave, in the sheet's order (the journal tells them so)
    kept: tuple[Wound, ...] = ()
    begin = 0
    for spot in sorted(changed):
        kept += wounds[begin:spot]
        wound_id, still = changed[spot]
        if still is None:
            healed.append(wounds[spot])
            ignored -= wounds[spot].ignored
        else:
            kept += (evolve(wounds[spot], notches=still),)
            insort(ranks, still * _RANK + wound_id)
        begin = spot + 1
    kept += wounds[begin:]
    # Rising ids (still rising: wounds only left) end with the highest.
    return _healed_sheet(sheet, kept, healed, notches_before - (count - left), ranks, ignored, rs, ctx), count - left


def _healed_sheet(
    sheet: SeveriteSheet,
    kept: tuple[Wound, ...],
    healed: Sequence[Wound],
    notches: int,
    ranks: list[int],
    ignored: int,
    rs: SeveriteRules,
    ctx: Context,
) -> SeveriteSheet:
    """The end of a heal on wounds whose ids rise (``_lower``, ``_heal_tail``): ``kept``'s figures remembered
    (``_remember_figures``, inlined: the highest id is the last wound's), then one copy of the sheet with the
    wounds ``kept``, ``healed`` told « guérie » and the sequels of crippled limbs added if any."""
    if len(_WOUND_FIGURES) >= _FIGURES_KEPT:
        _WOUND_FIGURES.clear()
    _WOUND_FIGURES[id(kept)] = (kept, notches, kept[-1].id if kept else 0, ranks, (), ignored, True)
    # ``evolve(sheet, wounds=kept)`` (and ``sequels=told``): the fields copied here, no keywords (issue 15,
    # session 9: ~1,000 CPU instructions less a heal).
    values = sheet.__dict__.copy()
    values["wounds"] = kept
    if healed:
        sequels = sheet.sequels
        told = _say_healed(healed, sequels, rs, ctx)
        if told is not sequels:
            values["sequels"] = told
    return with_values(sheet, values)


def _heal_tail(
    sheet: SeveriteSheet, found: Figures, count: int, rs: SeveriteRules, ctx: Context
) -> tuple[SeveriteSheet, int] | None:
    """The common heal's flat path (issue 15, session 8): ``_lower(sheet, found, count, rs, ctx, None, None, True)``
    when the wounds it lowers are the last ones of the tuple (the latest wounds are most often the heaviest: a
    heal after hits takes what they gave), ids rising (``found[6]``); None as soon as a wound to lower is not
    there (the caller then takes ``_lower``, which gives the same for these). The wounds left are one slice of
    the tuple (and the one lowered without being healed, the last taken), the healed ones the slice after it:
    no per-wound bookkeeping, no bisection. A test holds it to ``_lower``."""
    wounds = sheet.wounds
    _, notches_before, _, ranks, added, ignored, _ = found
    if added:  # ``_ranks_up(ranks, added)``: a new list, sorted once (issue 15, session 9: not an ``insort`` a rank)
        ranks = [*ranks, *added]
        ranks.sort()
    size = len(wounds)
    # One rank per wound, so one place for both (issue 15, session 9): ``ranks[at - 1]`` is the heaviest rank left,
    # and it must be the rank of ``wounds[at - 1]``, the last wound not taken yet.
    at = size
    left = count
    lowered = None  # the last wound taken, when it keeps notches
    while left > 0 and at:
        rank = ranks[at - 1]
        notches = rank // _RANK
        if not notches:  # the wounds left hold no notch
            break
        at -= 1
        if wounds[at].id != rank - notches * _RANK:  # not the tuple's last wound: ``_lower`` finds it
            return None
        if notches > left:
            lowered = evolve(wounds[at], notches=notches - left)
            left = 0
        else:
            left -= notches
    if at == size:  # nothing to lower
        return sheet, 0
    if added:  # the new list made above, cut in place
        del ranks[at:]
    else:
        ranks = ranks[:at]
    if lowered is None:
        kept = wounds[:at]
        healed = wounds[at:]
    else:
        kept = (*wounds[:at], lowered)
        healed = wounds[at + 1 :]
        insort(ranks, lowered.notches * _RANK + lowered.id)
    if ignored:  # none of the wounds is ignored otherwise (their count)
        for wound in healed:
            ignored -= wound.ignored
    removed = count - left
    return _healed_sheet(sheet, kept, healed, notches_before - removed, ranks, ignored, rs, ctx), removed


def _lower_gauge_unordered(
    sheet: SeveriteSheet,
    found: Figures,
    count: int,
    rs: SeveriteRules,
    ctx: Context,
    prefer: int | None,
    only: int | None,
    heals: bool,
) -> tuple[SeveriteSheet, int]:
    """``_lower_gauge`` on wounds whose ids do not rise along the tuple (a hand-ordered sheet; two wounds of one
    number in a sheet not validated): each wound's place looked for in lists of the ids and ranks."""
    wounds = sheet.wounds
    notches_before, ignored = found[1], found[5]
    ids = list(map(_ID, wounds))
    ranks = [n * _RANK + i for n, i in zip(map(_NOTCHES, wounds), ids, strict=True)]
    # The wounds' ranks, heaviest first, the latest first among equals. Sorted up then turned over: the same
    # list as ``reverse=True`` (equal ranks are equal numbers), without the keyword.
    if only is not None:  # a wound of the sheet (``supernatural_healing`` found it)
        order = [ranks[ids.index(only)]]
    else:
        order = sorted(ranks)
        order.reverse()
        if prefer is not None:
            at = next((i for i, rank in enumerate(order) if rank % _RANK == prefer), None)
            if at:
                order.insert(0, order.pop(at))
    left = count
    # What changes, by the wound's place in ``wounds``: its notches left (``None``: it leaves the sheet).
    changed: dict[int, int | None] = {}
    for rank in order:
        if left <= 0:
            break
        notches = rank // _RANK
        if notches:
            spot = ranks.index(rank)
            while spot in changed:  # two wounds of one number (a sheet not validated): the next one, in order
                spot = ranks.index(rank, spot + 1)
            take = notches if notches < left else left
            left -= take
            changed[spot] = None if heals and take == notches else notches - take
    if heals and only is not None and order[0] // _RANK == 0:  # ``only`` held no notch: cared for, it heals
        changed[ranks.index(order[0])] = None
    if not changed:
        return sheet, 0
    healed: list[Wound] = []  # the wounds that leave, in the sheet's order (the journal tells them so)
    pieces: list[Wound] = []
    kept_ids: list[int] = []
    kept_ranks: list[int] = []
    begin = 0
    for spot in sorted(changed):
        pieces += wounds[begin:spot]
        kept_ids += ids[begin:spot]
        kept_ranks += ranks[begin:spot]
        still = changed[spot]
        if still is None:
            healed.append(wounds[spot])
            ignored -= wounds[spot].ignored
        else:
            pieces.append(evolve(wounds[spot], notches=still))
            kept_ids.append(ids[spot])
            kept_ranks.append(still * _RANK + ids[spot])
        begin = spot + 1
    pieces += wounds[begin:]
    kept_ids += ids[begin:]
    kept_ranks += ranks[begin:]
    kept = tuple(pieces)
    kept_ranks.sort()
    highest = max(kept_ids, default=0)
    _remember_figures((kept, notches_before - (count - left), highest, kept_ranks, (), ignored, False))
    sheet = evolve(sheet, wounds=kept)
    return _heal_away(sheet, healed, rs, ctx, removed=True), count - left
