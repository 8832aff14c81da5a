"""The Douaratil sheet (stored fields) and what follows from it without any roll."""

from typing import Annotated, Any, Literal

from pydantic import Field, ValidationInfo, field_validator, model_validator

from rules.labels import ABILITY_LABELS
from rules.model import (
    MAX_CLOCK,
    MAX_POINTS,
    Frozen,
    SheetBase,
    fmt_int,
    of,
)
from rules.ruleset import shipped_ruleset
from rules.systems.douaratil.table import POOLS, SYSTEM_ID, DouaratilRules

MAX_XP = 100_000_000
MAX_SCORE = 50

# The French name of every stored field, as the sheet shows it (lower case, as in the middle of a sentence:
# ``label()`` gives it capitalised): the journal of an Edit and every message about a field use these (a
# dotted key names a field inside another: ``magic.current``).
FIELD_LABELS: dict[str, str] = {
    "system": "système",
    "name": "nom",
    "player": "joueur",
    "level": "niveau",
    "notes": "notes",
    "is_npc": "PNJ",
    "clock": "horloge de la fiche",
    "xp": "expérience",
    "path": "voie",
    **ABILITY_LABELS,
    "current": "points d'action",
    "base_maximum": "PA maximum",
    "temporary": "PA temporaires",
    "magic": "points de magie (PM)",
    "faith": "points de foi (PF)",
    "honour": "points d'honneur (PH)",
    "sanity": "santé mentale (SAM)",
    **{f"{p}.current": "actuels" for p in POOLS},
    **{f"{p}.base_maximum": "maximum" for p in POOLS},
    "action_die": "dé d'action (faces)",
    "action_dice_spent": "dés d'action dépensés",
    "speed_m": "déplacement (m)",
    "exhaustion": "épuisement",
    "conditions": "états",
    "condition_timers": "durées des états",  # SheetBase's (rules/timers.py)
    "unconscious_rounds": "rounds d'inconscience restants",
    "death_successes": "succès aux jets contre la mort",
    "death_failures": "échecs aux jets contre la mort",
    "stabilised": "stabilisation",
    "wake_in": "délai avant de regagner 1 PA",
    "dead": "décès",
    "dies_at_zero": "meurt à 0 PA (monstre)",
    "dies_after_rounds": "agit encore 1d6 rounds",
    "death_in_rounds": "rounds avant de succomber",
    "critical_threshold": "seuil de critique (SC)",
    "wounds": "blessures",
    "scars": "cicatrices",
    "last_long_rest_end": "fin du dernier repos long",
    "short_rest_open": "repos court en cours",
    "constitution_priority": "points de caractéristique d'abord en Constitution",
    "heroic_survivals": "survies héroïques",
    **{f"{w}.{k}": v for w in ("wounds", "scars") for k, v in (
        ("id", "numéro"),
        ("type", "type"),
        ("severity", "gravité"),
        ("rests", "repos longs passés"),
        ("bleeding", "saigne"),
        ("note", "note"),
    )},
}  # fmt: skip


def field_label(key: str) -> str:
    """The field's French label as a sheet's heading shows it (capitalised)."""
    text = FIELD_LABELS.get(key, key)
    return text[:1].upper() + text[1:]


def table_of(info: ValidationInfo | None) -> DouaratilRules:
    """The rule table a sheet is checked against: the one the caller passes, else the shipped one."""
    context = info.context if info is not None else None
    if isinstance(context, dict):
        table = context.get("rules_table")
        if isinstance(table, DouaratilRules):
            return table
    return shipped_ruleset(DouaratilRules, SYSTEM_ID)


def _editing(info: ValidationInfo) -> bool:
    """An ``Edit`` validates the merged fields before its consequences (maxima lowered…) are applied."""
    return isinstance(info.context, dict) and bool(info.context.get("edit"))


class Pool(Frozen):
    """A resource with a stored maximum (PM, PF, PH, SAM)."""

    current: int = Field(0, ge=0, le=MAX_POINTS)
    base_maximum: int = Field(0, ge=0, le=MAX_POINTS)

    @model_validator(mode="before")
    @classmethod
    def _starts_full(cls, data: Any) -> Any:
        """A pool given only its maximum starts full."""
        if isinstance(data, dict) and "current" not in data and "base_maximum" in data:
            return {**data, "current": data["base_maximum"]}
        return data

    @model_validator(mode="after")
    def _within(self, info: ValidationInfo) -> "Pool":
        if self.current > self.base_maximum and not _editing(info):
            raise ValueError(f"{self.current} dépasse le maximum {self.base_maximum}")
        return self


class Wound(Frozen):
    """A critical wound (blessure mineure ou majeure) from the critical-hit table."""

    id: int = Field(ge=1, le=100_000)
    type: str = Field(max_length=40)
    severity: str = Field("minor", max_length=20)
    # Long rests taken since the wound; healing tests start once it reaches the type's delay.
    rests: int = Field(0, ge=0, le=100_000)
    bleeding: bool = False
    note: str = Field("", max_length=500)


class Scar(Frozen):
    """The mark a healed wound leaves (« le souvenir de sa marque »)."""

    type: str = Field(max_length=40)
    severity: str = Field("minor", max_length=20)
    note: str = Field("", max_length=500)


class DouaratilSheet(SheetBase):
    """A Douaratil character: points d'action (PA) and everything that happens to the body.

    Validated against a rule table (``sheet_problems``): the one given as ``context={"rules_table": …}``,
    else the shipped one.
    """

    system: Literal["douaratil"] = "douaratil"
    clock: int = Field(0, ge=0, le=MAX_CLOCK)
    xp: int = Field(0, ge=0, le=MAX_XP)
    path: str = Field("", max_length=40)
    strength: int = Field(10, ge=0, le=MAX_SCORE)
    dexterity: int = Field(10, ge=0, le=MAX_SCORE)
    constitution: int = Field(10, ge=0, le=MAX_SCORE)
    intelligence: int = Field(10, ge=0, le=MAX_SCORE)
    wisdom: int = Field(10, ge=0, le=MAX_SCORE)
    charisma: int = Field(10, ge=0, le=MAX_SCORE)
    # Points d'action: ``current`` is clamped to the effective maximum by every action; a new sheet
    # given only its maximum starts with all its points.
    current: int = Field(10, ge=0, le=MAX_POINTS)
    base_maximum: int = Field(10, ge=0, le=MAX_POINTS)
    temporary: int = Field(0, ge=0, le=MAX_POINTS)
    magic: Pool = Pool()
    faith: Pool = Pool()
    honour: Pool = Pool()
    sanity: Pool = Pool()
    action_die: int = Field(8, ge=2, le=100)
    action_dice_spent: int = Field(0, ge=0, le=100)
    speed_m: int = Field(9, ge=0, le=1000)
    exhaustion: int = Field(0, ge=0, le=20)
    conditions: tuple[Annotated[str, Field(max_length=60)], ...] = Field((), max_length=100)
    unconscious_rounds: int = Field(0, ge=0, le=1000)
    death_successes: int = Field(0, ge=0, le=10)
    death_failures: int = Field(0, ge=0, le=10)
    stabilised: bool = False
    # Seconds left before a stabilised creature regains 1 PA on its own.
    wake_in: int | None = Field(None, ge=1, le=MAX_CLOCK)
    dead: bool = False
    # « La plupart des Narrateurs font mourir les adversaires dès qu'ils atteignent 0 point d'action »
    dies_at_zero: bool = False
    # … « ou il peut la laisser agir librement pendant 1d6 rounds »
    dies_after_rounds: bool = False
    death_in_rounds: int | None = Field(None, ge=1, le=1000)
    critical_threshold: int | None = Field(None, ge=0, le=MAX_POINTS)
    wounds: tuple[Wound, ...] = Field((), max_length=200)
    scars: tuple[Scar, ...] = Field((), max_length=200)
    last_long_rest_end: int | None = Field(None, ge=0, le=MAX_CLOCK)
    short_rest_open: bool = False
    constitution_priority: bool = False
    heroic_survivals: int = Field(0, ge=0, le=1000)

    @model_validator(mode="before")
    @classmethod
    def _new_sheet_defaults(cls, data: Any, info: ValidationInfo) -> Any:
        """What a new sheet not given them starts with: the table's action die and speed, and all its
        points (« les points d'action actuels … se situent entre 0 et son maximum »; the maximum exhaustion
        leaves)."""
        if not isinstance(data, dict) or ("current" in data and "action_die" in data and "speed_m" in data):
            return data
        table = table_of(info)
        data = {
            "action_die": table.general.default_action_die,
            "speed_m": table.general.default_speed_m,
            **data,
        }
        if "current" not in data:
            top, level = data.get("base_maximum", 10), data.get("exhaustion", 0)
            if type(top) is int and type(level) is int and 0 <= top <= MAX_POINTS and 0 <= level:
                data["current"] = points_maximum(top, level, table)
        return data

    @field_validator("conditions")
    @classmethod
    def _sorted_unique(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(sorted(set(value)))

    @model_validator(mode="after")
    def _coherent(self, info: ValidationInfo) -> "DouaratilSheet":
        problems = sheet_problems(self, table_of(info), editing=_editing(info))
        if problems:
            raise ValueError(" ; ".join(problems))
        return self


def sheet_problems(sheet: DouaratilSheet, rs: DouaratilRules, *, editing: bool = False) -> list[str]:
    """Everything that makes ``sheet`` impossible under the rule table ``rs``, one French line each.

    The same check on load, on ``Edit`` and (by the tests) after every action. ``editing``: the merged
    fields of an ``Edit`` before its consequences (points above a lowered maximum are clamped after).
    """
    problems: list[str] = []

    def say(key: str, text: str) -> None:
        problems.append(f"« {FIELD_LABELS[key]} » : {text}")

    unknown = [c for c in sheet.conditions if c not in rs.conditions]
    if unknown:
        say("conditions", "état inconnu " + ", ".join(f"« {c} »" for c in unknown))
    rows_of: tuple[tuple[str, tuple[Wound | Scar, ...]], ...] = (("wounds", sheet.wounds), ("scars", sheet.scars))
    for key, rows in rows_of:
        for n, row in enumerate(rows, 1):
            where = f"« {FIELD_LABELS[key]} › n° {n} »"
            if row.type not in rs.wounds:
                problems.append(f"{where} : type de blessure inconnu « {row.type} »")
            if row.severity not in rs.severities:
                labels = " ou ".join(s.label for s in rs.severities.values())
                problems.append(f"{where} : gravité inconnue « {row.severity} » ({labels})")
    ids = [w.id for w in sheet.wounds]
    if len(ids) != len(set(ids)):
        say("wounds", "deux blessures portent le même numéro")
    if sheet.path not in rs.paths:
        known = ", ".join(rs.paths.values())
        say("path", f"voie inconnue « {sheet.path} » (attendu : {known})")
    top_level = rs.exhaustion.max_level
    if sheet.exhaustion > top_level:
        say("exhaustion", f"au plus le niveau {top_level}")
    needed = rs.saves.death_saves_needed
    if sheet.death_failures > needed:
        say("death_failures", f"{sheet.death_failures} sur {needed} au plus")
    elif sheet.death_failures == needed and not sheet.dead:
        say("death_failures", f"{needed} échecs signifient la mort")
    if sheet.death_successes >= needed:
        say("death_successes", f"{needed} succès stabilisent : au plus {needed - 1} en attente")
    if (sheet.death_successes or sheet.death_failures) and sheet.current > 0 and not editing:
        say("death_successes", "les jets contre la mort ne se comptent qu'à 0 point d'action")
    if sheet.stabilised and (sheet.current > 0 or sheet.dead) and not editing:
        say("stabilised", "seulement pour une créature vivante à 0 point d'action")
    if sheet.wake_in is not None and not sheet.stabilised:
        say("wake_in", "seulement pour une créature stabilisée")
    if sheet.death_in_rounds is not None and not (sheet.dies_at_zero and sheet.current == 0 and not sheet.dead):
        say("death_in_rounds", "seulement pour un monstre vivant à 0 point d'action qui meurt à 0 PA")
    if sheet.unconscious_rounds and ("inconscient" not in sheet.conditions or sheet.dead):
        say("unconscious_rounds", "seulement pour une créature vivante dans l'état Inconscient")
    if sheet.last_long_rest_end is not None and sheet.last_long_rest_end > sheet.clock:
        say("last_long_rest_end", "après l'horloge de la fiche")
    if editing:
        return problems
    if sheet.constitution_priority and sheet.constitution >= rs.heroic_death.constitution_floor:
        say("constitution_priority", f"prend fin quand la Constitution revient à {rs.heroic_death.constitution_floor}")
    if sheet.action_dice_spent > sheet.level:
        say("action_dice_spent", f"{sheet.action_dice_spent} pour une réserve de {sheet.level} (le niveau)")
    top = effective_maximum(sheet, rs)
    if sheet.current > top:
        why = f" (épuisement niveau {sheet.exhaustion})" if top < sheet.base_maximum else ""
        say("current", f"{fmt_int(sheet.current)} dépassent le maximum {fmt_int(top)}{why}")
    for pool in POOLS:
        stored: Pool = getattr(sheet, pool)
        cap = pool_maximum(sheet, pool, rs)
        if stored.current > cap:
            problems.append(
                f"« {FIELD_LABELS[pool]} › actuels » : {stored.current} dépassent le maximum {cap}"
                f" (épuisement niveau {sheet.exhaustion})"
            )
    return problems


def ability_modifier(score: int, rs: DouaratilRules) -> int:
    return (score - rs.general.ability_base) // rs.general.ability_step


def exhaustion_penalty(sheet: DouaratilSheet, rs: DouaratilRules) -> int:
    """The (negative) modifier exhaustion gives to every roll."""
    return -sheet.exhaustion * rs.exhaustion.roll_penalty_per_level


def maximum_reduction(sheet: DouaratilSheet, rs: DouaratilRules) -> int:
    return sheet.exhaustion * rs.exhaustion.maximum_per_level


def points_maximum(base_maximum: int, exhaustion: int, rs: DouaratilRules) -> int:
    """« le malus impacte aussi le maximum de chaque catégorie » (000 § Fatigue et épuisement), never below
    ``exhaustion.minimum_maximum`` (D12: exhaustion alone never drops a creature to 0 PA)."""
    floor = min(base_maximum, rs.exhaustion.minimum_maximum)
    return max(floor, base_maximum - exhaustion * rs.exhaustion.maximum_per_level)


def effective_maximum(sheet: DouaratilSheet, rs: DouaratilRules) -> int:
    """The PA maximum with exhaustion (``points_maximum``)."""
    return points_maximum(sheet.base_maximum, sheet.exhaustion, rs)


def pool_maximum(sheet: DouaratilSheet, pool: str, rs: DouaratilRules) -> int:
    stored: Pool = getattr(sheet, pool)
    if pool == "sanity":
        return stored.base_maximum
    return max(0, stored.base_maximum - maximum_reduction(sheet, rs))


def condition_label(cid: str, rs: DouaratilRules) -> str:
    rule = rs.conditions.get(cid)
    return rule.label if rule else cid


def effective_conditions(sheet: DouaratilSheet, rs: DouaratilRules) -> dict[str, str]:
    """Every state the creature is under, with why (« posé », or the state that implies it)."""
    if not sheet.conditions:
        return {}
    result: dict[str, str] = {}
    for cid in sheet.conditions:
        result[cid] = "posé"
    pending = list(sheet.conditions)
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


def wound_label(wound: Wound | Scar, rs: DouaratilRules) -> str:
    """« Plaie (majeure) »: the wound's type and severity as the sheet shows them."""
    kind = rs.wounds[wound.type].label if wound.type in rs.wounds else wound.type
    severity = rs.severities[wound.severity].label if wound.severity in rs.severities else wound.severity
    return f"{kind} ({severity})"


def dd_steps(sheet: DouaratilSheet, rs: DouaratilRules) -> int:
    """Difficulty steps the wounds add to every characteristic test (D4: the heaviest, unless they stack)."""
    steps = [rs.severities[w.severity].steps for w in sheet.wounds if w.severity in rs.severities]
    if not steps:
        return 0
    return sum(steps) if rs.difficulty.steps_stack else max(steps)


def fmt_duration(seconds: int) -> str:
    """« 2 j 3 h 15 min » (« 0 s » for none): the sheet's clock and timers as a player reads them."""
    days, rest = divmod(seconds, 86_400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    parts = [f"{n} {unit}" for n, unit in ((days, "j"), (hours, "h"), (minutes, "min"), (secs, "s")) if n]
    return " ".join(parts) or "0 s"
