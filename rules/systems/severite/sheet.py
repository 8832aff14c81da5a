"""The Sévérité sheet: wounds, the Trauma gauge they fill, Ténacité, protections."""

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import Field, ValidationError, ValidationInfo, field_validator, model_validator
from pydantic_core import InitErrorDetails

from rules.errors import FIELD_LABELS
from rules.model import MAX_CLOCK, Frozen, SheetBase
from rules.ruleset import shipped_ruleset
from rules.systems.severite.table import MAX_CONDITIONS, SeveriteRules

SYSTEM_ID = "severite"
MAX_NOTCHES = 1000
MAX_WOUNDS = 200
MAX_WOUND_ID = 1_000_000
# A Sévérité this high is Fatale many times over; the stored value is capped here.
MAX_SEVERITY = 1000
MAX_SEQUELS = 100
MAX_SEQUEL = 400

# French names of our sheet fields, for validation messages (« Physique » : doit être…).
for _key, _label in {
    "physique": "Physique",
    "mental": "Mental",
    "tenacity_skill": "Compétence de Ténacité",
    "tenacity_bonus": "bonus de Ténacité",
    "equipment": "équipement",
    "sequels": "séquelles",
    "turn_timers": "durées en tours",
    "handicap_penalty": "malus du Handicap",
    "notches": "crans",
    "treatment": "traitement",
    "diagnosis": "diagnostic",
    "body_parts": "zones",
    "protections": "protections",
    "turns": "tours",
    "grade": "degré",
    "severity": "Sévérité",
    "body_part": "partie du corps",
    "psychological": "blessure psychologique",
    "handicap": "Handicap",
    "crippled": "membre invalide",
    "ignored": "ignorée jusqu'à la fin du Conflit",
    "survived": "jet de Survie réussi",
    "last_rest_end": "fin du dernier repos",
    "dead": "mort",
    # Sévérité's own actions.
    "margin": "différence d'Opposition",
    "damage_modifier": "Modificateur de dégâts",
    "vital_zone": "zone vitale",
    "tenacity_test": "Défi de Ténacité",
    "opposition": "Opposition",
    "wound_id": "numéro de la blessure",
    "success_level": "niveau de réussite",
    "penalty": "malus",
}.items():
    FIELD_LABELS.setdefault(_key, _label)


Id = Annotated[str, Field(min_length=1, max_length=40)]


class DamageProtection(Frozen):
    """The Modificateur de protection of a piece of equipment against one damage type."""

    damage_type: Id
    modifier: int = Field(ge=0, le=50)


class Equipment(Frozen):
    """Armour and the like: the zones it covers, its protection per damage type.

    « Notez bien que la Protection d'une armure est différente en fonction du Type de Dégâts ».
    """

    name: str = Field(min_length=1, max_length=80)
    body_parts: tuple[Id, ...] = Field(max_length=30)
    protections: tuple[DamageProtection, ...] = Field((), max_length=30)

    def against(self, damage_type: str) -> int:
        return next((p.modifier for p in self.protections if p.damage_type == damage_type), 0)


class Wound(Frozen):
    """A Blessure and what it still weighs on the Trauma gauge.

    ``notches``: notches of Trauma this wound still holds in the gauge (lowered by rest once treated,
    by supernatural healing, and by a Frénétique/Surnaturelle Ténacité).
    """

    id: int = Field(ge=1, le=1_000_000)
    grade: Id
    notches: int = Field(0, ge=0, le=MAX_NOTCHES)
    severity: int | None = Field(None, ge=0, le=MAX_SEVERITY)
    body_part: Id | None = None
    damage_type: Id | None = None
    psychological: bool = False
    treatment: Id | None = None
    diagnosis: str = Field("", max_length=500)
    handicap: str = Field("", max_length=300)
    handicap_penalty: int = Field(0, ge=-50, le=0)
    # Fatale on a limb: « rendre le membre touché complètement invalide, ou sectionné ».
    crippled: bool = False
    # Inébranlable: « ignorer la Blessure jusqu'à la fin du Conflit ».
    ignored: bool = False
    # The survival roll was made (and won) on this wound.
    survived: bool = False
    note: str = Field("", max_length=500)


class TurnTimer(Frozen):
    """A condition that ends after ``turns`` more ends of turn."""

    condition: Id
    turns: int = Field(ge=1, le=1000)


class SeveriteSheet(SheetBase):
    """A Sévérité character: wounds, the Trauma gauge they fill, Ténacité, protections."""

    system: Literal["severite"] = "severite"
    # Modificateurs d'Attribut added to the die of a Défi.
    physique: int = Field(0, ge=-10, le=20)
    mental: int = Field(0, ge=-10, le=20)
    # « Certaines Compétences ou Talents peuvent vous rendre plus tenace, comme l'Athlétisme, l'Endurance »
    tenacity_skill: bool = False
    tenacity_bonus: int = Field(0, ge=-20, le=20)
    equipment: tuple[Equipment, ...] = Field((), max_length=50)
    wounds: tuple[Wound, ...] = Field((), max_length=MAX_WOUNDS)
    # What healed crippling wounds leave for good (a severed limb…).
    sequels: tuple[Annotated[str, Field(max_length=MAX_SEQUEL)], ...] = Field((), max_length=MAX_SEQUELS)
    conditions: tuple[Id, ...] = Field((), max_length=MAX_CONDITIONS)
    turn_timers: tuple[TurnTimer, ...] = Field((), max_length=MAX_CONDITIONS)
    dead: bool = False
    last_rest_end: int | None = Field(None, ge=0, le=MAX_CLOCK)

    @field_validator("conditions")
    @classmethod
    def _sorted_unique(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(sorted(set(value)))

    @model_validator(mode="after")
    def _coherent(self, info: ValidationInfo) -> "SeveriteSheet":
        """The checks of ``sheet_problems``, against the rule table the caller gives in the validation
        context (``{"rules_table": table}``: a GM's house rules) or else the shipped one."""
        context = info.context
        table = context.get("rules_table") if isinstance(context, dict) else None
        if not isinstance(table, SeveriteRules):
            table = shipped_ruleset(SeveriteRules, SYSTEM_ID)
        problems = sheet_problems(self, table)
        if problems:
            raise ValidationError.from_exception_data(
                type(self).__name__,
                [
                    InitErrorDetails(type="value_error", loc=loc, input=None, ctx={"error": ValueError(text)})
                    for loc, text in problems
                ],
            )
        return self


Problem = tuple[tuple[str | int, ...], str]


def _known(table: Mapping[str, Any], value: str, unknown: str) -> str | None:
    """``None`` when ``value`` is an id of ``table``; else the French problem, with the labels expected."""
    if value in table:
        return None
    expected = ", ".join(str(entry.label) for entry in table.values())
    return f"{unknown} « {value} » (attendu : {expected})"


def sheet_problems(sheet: SeveriteSheet, rs: SeveriteRules) -> list[Problem]:
    """Everything wrong with ``sheet`` under the rule table ``rs``: ids the table does not know (issue 16:
    « a grade grav= loads silently ») and the fields that contradict each other. One function for every
    path — a file read, a new sheet, an ``Edit`` — so a house table can be passed where the sheet is read.
    Each problem: where it is (keys and indices) and a French sentence naming things by their labels.
    """
    problems: list[Problem] = []
    seen: set[int] = set()
    for i, wound in enumerate(sheet.wounds):
        where: tuple[str | int, ...] = ("wounds", i)
        if wound.id in seen:
            problems.append(((*where, "id"), f"deux blessures portent le numéro {wound.id}"))
        seen.add(wound.id)
        for key, table, what in (
            ("grade", rs.grades, "degré de Blessure inconnu"),
            ("body_part", rs.body_parts, "zone du corps inconnue"),
            ("damage_type", rs.damage_types, "type de dégâts inconnu"),
            ("treatment", rs.treatments, "traitement inconnu"),
        ):
            value = getattr(wound, key)
            problem = None if value is None else _known(table, value, what)
            if problem:
                problems.append(((*where, key), problem))
        if wound.handicap_penalty and not wound.handicap:
            problems.append(((*where, "handicap"), "un malus de Handicap demande le texte du Handicap"))
    for i, item in enumerate(sheet.equipment):
        for j, part in enumerate(item.body_parts):
            problem = _known(rs.body_parts, part, "zone du corps inconnue")
            if problem:
                problems.append((("equipment", i, "body_parts", j), problem))
        for j, prot in enumerate(item.protections):
            problem = _known(rs.damage_types, prot.damage_type, "type de dégâts inconnu")
            if problem:
                problems.append((("equipment", i, "protections", j, "damage_type"), problem))
    for i, cid in enumerate(sheet.conditions):
        problem = _known(rs.conditions, cid, "état inconnu")
        if problem:
            problems.append((("conditions", i), problem))
    timed: set[str] = set()
    for i, timer in enumerate(sheet.turn_timers):
        timer_loc: tuple[str | int, ...] = ("turn_timers", i, "condition")
        rule = rs.conditions.get(timer.condition)
        label = f"« {timer.condition} »" if rule is None else rule.label
        if timer.condition in timed:
            problems.append((timer_loc, f"l'état {label} a deux durées en tours"))
        timed.add(timer.condition)
        if timer.condition not in sheet.conditions:
            problems.append((timer_loc, f"une durée en tours cite l'état {label}, qui n'est pas en place"))
        elif rule is not None and rule.duration != "turns":
            problems.append((timer_loc, f"l'état {label} ne se compte pas en tours"))
    if sheet.last_rest_end is not None and sheet.last_rest_end > sheet.clock:
        problems.append((("last_rest_end",), "le dernier repos ne peut pas finir après le temps écoulé de la fiche"))
    return problems
