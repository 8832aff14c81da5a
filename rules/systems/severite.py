"""Sévérité (seed 003, « Sévérité »).

No hit points: an attack that hits rolls its Puissance (from the attack's Opposition margin) against
the victim's Résistance (D4 + the protection covering the zone hit); the difference, the Sévérité,
gives a Blessure (Bénigne … Fatale) that fills the Trauma gauge (4 tiers of 2 notches). Filling the
gauge calls for Défis de Ténacité (Physique, or Mental for a psychological wound) whose success
level decides whether the character keeps fighting. Wounds heal only once treated, one notch per
treated wound at each rest; supernatural powers remove notches by their success level.

Every number of the seed, and every default we chose where it is silent, lives in
``resources/rulesets/severite.toml`` (choices listed in ``docs/rules-notes.md``, ids V1, V2…).

The facade's ``current``/``maximum`` are the Trauma gauge: notches filled / gauge capacity. Each
wound carries the notches it put in the gauge (``Wound.notches``), so the gauge is their sum: it can
never go below 0, and rest lowers only the notches of treated wounds.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, field_validator, model_validator

from rules.actions import (
    Action,
    AdvanceTime,
    ClearConditions,
    Damage,
    Heal,
    LongRest,
    SetCondition,
)
from rules.errors import FIELD_LABELS, Refused
from rules.info import (
    IDENTITY_FIELDS,
    ChoiceInfo,
    ConditionGroupInfo,
    ConditionInfo,
    FieldInfo,
    HealthStateInfo,
    SystemInfo,
)
from rules.model import (
    Context,
    Derived,
    Explained,
    Frozen,
    SheetBase,
    Term,
    evolve,
    explained_modifier,
    fmt_int,
    plural,
    signed,
)
from rules.ruleset import (
    ConditionGroupTable,
    ConditionTable,
    HealthStateTable,
    Table,
    check_condition_references,
    check_time_units,
)
from rules.systems import System, register

SYSTEM_ID = "severite"
MAX_NOTCHES = 1000
MAX_WOUNDS = 200
MAX_WOUND_ID = 1_000_000
# A Sévérité this high is Fatale many times over; the stored value is capped here.
MAX_SEVERITY = 1000

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
}.items():
    FIELD_LABELS.setdefault(_key, _label)

# --------------------------------------------------------------------------------------------------
# Rule table
# --------------------------------------------------------------------------------------------------

Die = Annotated[int, Field(ge=2, le=100)]
TestPolicy = Literal["never", "new_tier", "always"]
HandicapLikelihood = Literal["never", "possible", "likely"]
Duration = Literal["conflict", "turns", "manual"]


class TestDice(Table):
    attribute_die: Die
    skill_die: Die


class PowerGrade(Table):
    label: str
    min_margin: int = Field(ge=0, le=1000)
    adds_modifiers: bool
    extra_dice: int = Field(ge=0, le=10)
    efficacy_dice: int = Field(ge=0, le=10)


def _increasing(items: dict[str, int], what: str) -> None:
    values = list(items.values())
    if not values:
        raise ValueError(f"{what} : la table est vide")
    if values[0] != 0:
        raise ValueError(f"{what} : le premier niveau doit commencer à 0")
    for (a, va), (b, vb) in zip(list(items.items()), list(items.items())[1:], strict=False):
        if vb <= va:
            raise ValueError(f"{what} : « {b} » ({vb}) doit commencer après « {a} » ({va})")


class PowerRules(Table):
    base_die: Die
    extra_die: Die
    efficacy_die: Die
    facility_rolls: int = Field(ge=1, le=10)
    vital_zone_modifier: int = Field(ge=0, le=50)
    grades: dict[str, PowerGrade]

    @model_validator(mode="after")
    def _ordered(self) -> PowerRules:
        _increasing({k: g.min_margin for k, g in self.grades.items()}, "power.grades")
        return self


class ResistanceRules(Table):
    die: Die
    protection_stacks: bool


class WoundGrade(Table):
    label: str
    min_severity: int = Field(ge=0, le=1000)
    notches: int = Field(ge=0, le=100)
    test: TestPolicy
    handicap: HandicapLikelihood
    recorded: bool = True
    fatal: bool = False


class FatalRules(Table):
    crippled_handicap: str = Field(max_length=300)


class SurvivalRules(Table):
    die: Die
    needed_cap: int = Field(ge=1, le=100)
    wake_on_major_treatment: bool


class Tier(Table):
    label: str
    # No opposition: this tier asks no Défi de Ténacité.
    opposition: int | None = Field(None, ge=0, le=100)


class BeyondTier(Table):
    label: str
    opposition: int = Field(ge=0, le=100)
    every_wound_tests: bool


class TraumaRules(Table):
    notches_per_tier: int = Field(ge=1, le=20)
    tiers: tuple[Tier, ...] = Field(min_length=1, max_length=20)
    beyond: BeyondTier


class TenacityRules(Table):
    failure_condition: str
    skipped_when: tuple[str, ...]
    handicaps_apply: bool


class SuccessLevel(Table):
    label: str
    min_margin: int = Field(ge=0, le=1000)
    tenacity: str
    healing_notches: int = Field(ge=0, le=100)


class TenacityResult(Table):
    label: str
    condition: str | None = None
    notches: int = Field(0, ge=0, le=100)
    ignores_wound: bool = False
    effect: str


class Treatment(Table):
    label: str
    major: bool = False


class RestRules(Table):
    min_hours: int = Field(ge=0, le=24 * 7)
    cooldown_hours: int = Field(ge=0, le=24 * 30)
    notches_per_treated_wound: int = Field(ge=0, le=100)
    ends_conflict: bool


class WorseningRules(Table):
    max_grade: str


class BodyPart(Table):
    label: str
    vital: bool = False


class DamageType(Table):
    label: str
    psychological: bool = False


class HealthState(HealthStateTable):
    pass


class ConditionGroup(ConditionGroupTable):
    pass


class ConditionRule(ConditionTable):
    duration: Duration
    turns: int = Field(0, ge=0, le=100)
    no_action: bool = False


NEEDED_STATES = ("mort", "inconscient", "stabilise", "hors_de_combat", "sonne", "au_dela", "blesse", "en_forme")
# Conditions the code itself sets (survival roll) besides those the table names.
NEEDED_CONDITIONS = ("inconscient", "stabilise")


class SeveriteRules(Table):
    time_units: dict[str, Annotated[int, Field(gt=0)]]
    time_labels: dict[str, str]
    tests: TestDice
    power: PowerRules
    resistance: ResistanceRules
    grades: dict[str, WoundGrade]
    fatal: FatalRules
    survival: SurvivalRules
    trauma: TraumaRules
    tenacity: TenacityRules
    success_levels: dict[str, SuccessLevel]
    tenacity_results: dict[str, TenacityResult]
    treatments: dict[str, Treatment]
    rest: RestRules
    worsening: WorseningRules
    body_parts: dict[str, BodyPart]
    damage_types: dict[str, DamageType]
    health_states: dict[str, HealthState]
    condition_groups: dict[str, ConditionGroup]
    conditions: dict[str, ConditionRule]

    @model_validator(mode="after")
    def _references(self) -> SeveriteRules:
        _increasing({k: g.min_severity for k, g in self.grades.items()}, "grades")
        _increasing({k: s.min_margin for k, s in self.success_levels.items()}, "success_levels")
        check_time_units(self.time_units, ("turn", "hour"))
        for sid, level in self.success_levels.items():
            if level.tenacity not in self.tenacity_results:
                raise ValueError(f"success_levels.{sid} cite une Ténacité inconnue « {level.tenacity} »")
        for rid, result in self.tenacity_results.items():
            if result.condition is not None and result.condition not in self.conditions:
                raise ValueError(f"tenacity_results.{rid} cite un état inconnu « {result.condition} »")
        for cid in (self.tenacity.failure_condition, *self.tenacity.skipped_when, *NEEDED_CONDITIONS):
            if cid not in self.conditions:
                raise ValueError(f"l'état « {cid} » manque dans conditions")
        check_condition_references(self.conditions, self.condition_groups, self.health_states)
        for cid, cond in self.conditions.items():
            if cond.duration == "turns" and cond.turns < 1:
                raise ValueError(f"l'état « {cid} » dure des tours : indiquez turns (au moins 1)")
        for needed in NEEDED_STATES:
            if needed not in self.health_states:
                raise ValueError(f"l'état de santé « {needed} » manque dans health_states")
        if self.worsening.max_grade not in self.grades:
            raise ValueError(f"worsening.max_grade cite un degré inconnu « {self.worsening.max_grade} »")
        if not self.body_parts:
            raise ValueError("body_parts : au moins une zone du corps")
        if not self.damage_types:
            raise ValueError("damage_types : au moins un type de dégâts")
        return self

    @property
    def capacity(self) -> int:
        """Notches the gauge holds (« 4 paliers comprenant deux crans »)."""
        return len(self.trauma.tiers) * self.trauma.notches_per_tier


# --------------------------------------------------------------------------------------------------
# Sheet
# --------------------------------------------------------------------------------------------------

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
    sequels: tuple[Annotated[str, Field(max_length=400)], ...] = Field((), max_length=100)
    conditions: tuple[Id, ...] = Field((), max_length=40)
    turn_timers: tuple[TurnTimer, ...] = Field((), max_length=40)
    dead: bool = False
    last_rest_end: int | None = Field(None, ge=0)

    @field_validator("conditions")
    @classmethod
    def _sorted_unique(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(sorted(set(value)))

    @model_validator(mode="after")
    def _coherent(self) -> SeveriteSheet:
        ids = [w.id for w in self.wounds]
        if len(ids) != len(set(ids)):
            raise ValueError("deux blessures portent le même numéro")
        timed = [t.condition for t in self.turn_timers]
        if len(timed) != len(set(timed)):
            raise ValueError("un état a deux durées en tours")
        for cid in timed:
            if cid not in self.conditions:
                raise ValueError(f"une durée en tours cite l'état « {cid} », qui n'est pas en place")
        return self


# --------------------------------------------------------------------------------------------------
# System-specific actions
# --------------------------------------------------------------------------------------------------


class Strike(Action):
    """An attack that hit: Puissance (from the Opposition margin) against Résistance → Sévérité.

    ``margin``: the attack's « différence d'Opposition ». ``damage_modifier``: the weapon's
    Modificateur de dégâts (or the Modificateur de maîtrise of a spell). ``vital_modifier``: the
    extra modifier of a strike on a vital zone (``None``: the table's default).
    Dice, in order: Puissance D4, the grade's D8s, Résistance D4, then the survival D20 or the
    Ténacité dice if the wound calls for them.
    """

    kind: Literal["strike"] = "strike"
    margin: int = Field(ge=0, le=1000)
    damage_type: Id
    body_part: Id
    damage_modifier: int = Field(0, ge=-50, le=50)
    vital_modifier: int | None = Field(None, ge=0, le=50)
    handicap: str = Field("", max_length=300)
    handicap_penalty: int = Field(0, ge=-50, le=0)
    note: str = Field("", max_length=500)

    def title(self) -> str:
        return f"Attaque réussie (différence {self.margin})"


class InflictWound(Action):
    """A wound of a known grade (a fall, a trap, a Sévérité worked out at the table)."""

    kind: Literal["inflict_wound"] = "inflict_wound"
    grade: Id
    severity: int | None = Field(None, ge=0, le=1000)
    body_part: Id | None = None
    damage_type: Id | None = None
    psychological: bool = False
    handicap: str = Field("", max_length=300)
    handicap_penalty: int = Field(0, ge=-50, le=0)
    note: str = Field("", max_length=500)
    # The Défi de Ténacité the wound calls for is rolled at once (False: the GM skips it).
    tenacity_test: bool = True

    def title(self) -> str:
        return f"Blessure {self.grade}"


class TenacityTest(Action):
    """A Défi de Ténacité the GM calls (``opposition`` None: the gauge's tier sets it)."""

    kind: Literal["tenacity_test"] = "tenacity_test"
    psychological: bool = False
    opposition: int | None = Field(None, ge=0, le=100)

    def title(self) -> str:
        return "Défi de Ténacité"


class TreatWound(Action):
    """A wound is treated (bandage, médicament, opération…); a diagnosis may be recorded."""

    kind: Literal["treat_wound"] = "treat_wound"
    wound_id: int
    treatment: Id
    diagnosis: str = Field("", max_length=500)

    def title(self) -> str:
        return "Traiter une blessure"


class DiagnoseWound(Action):
    """« en faire un diagnostic par une personne compétente »: the diagnosis is recorded."""

    kind: Literal["diagnose_wound"] = "diagnose_wound"
    wound_id: int
    diagnosis: str = Field(max_length=500)

    def title(self) -> str:
        return "Diagnostic"


class SetHandicap(Action):
    """The GM attaches (or, with an empty text, removes) a wound's Handicap."""

    kind: Literal["set_handicap"] = "set_handicap"
    wound_id: int
    handicap: str = Field("", max_length=300)
    penalty: int = Field(0, ge=-50, le=0)

    def title(self) -> str:
        return "Handicap" if self.handicap else "Retirer le Handicap"


class WorseningRisk(Action):
    """An untreated wound put at risk (running with a gash…): Défi de Ténacité, failure worsens it."""

    kind: Literal["worsening_risk"] = "worsening_risk"
    wound_id: int
    opposition: int | None = Field(None, ge=0, le=100)

    def title(self) -> str:
        return "Risque d'aggravation"


class SupernaturalHealing(Action):
    """Supernatural healing: notches removed according to the healer's success level."""

    kind: Literal["supernatural_healing"] = "supernatural_healing"
    success_level: Id
    # « une Blessure ciblée pourra guérir d'autant plus rapidement »; None: the gauge as a whole.
    wound_id: int | None = None

    def title(self) -> str:
        return "Soins surnaturels"


class EndConflict(Action):
    """The Conflict ends: what lasts « jusqu'à la fin du Conflit » ends with it."""

    kind: Literal["end_conflict"] = "end_conflict"

    def title(self) -> str:
        return "Fin du Conflit"


class EraseWound(Action):
    """Remove a wound entered by mistake (it does not heal: no sequel)."""

    kind: Literal["erase_wound"] = "erase_wound"
    wound_id: int

    def title(self) -> str:
        return "Effacer une blessure"


# --------------------------------------------------------------------------------------------------
# Helpers: the gauge, the grids
# --------------------------------------------------------------------------------------------------


def trauma(sheet: SeveriteSheet) -> int:
    """Notches filled: what every wound still holds in the gauge."""
    return sum(w.notches for w in sheet.wounds)


def tier_of(notches: int, rs: SeveriteRules) -> int:
    """0 for an empty gauge, 1…4 for the tiers, 5 past the gauge."""
    if notches <= 0:
        return 0
    if notches > rs.capacity:
        return len(rs.trauma.tiers) + 1
    return -(-notches // rs.trauma.notches_per_tier)


def tier_rule(tier: int, rs: SeveriteRules) -> tuple[str, int | None]:
    """Label and Opposition of a tier (``None``: no test at that tier)."""
    if tier <= 0:
        return "jauge vide", None
    if tier > len(rs.trauma.tiers):
        return rs.trauma.beyond.label, rs.trauma.beyond.opposition
    t = rs.trauma.tiers[tier - 1]
    return t.label, t.opposition


def tier_text(notches: int, rs: SeveriteRules) -> str:
    tier = tier_of(notches, rs)
    label, opposition = tier_rule(tier, rs)
    if tier == 0:
        return "jauge vide"
    if tier > len(rs.trauma.tiers):
        return f"au-delà de la jauge : {label} ({opposition})"
    if opposition is None:
        return f"palier {tier} : aucun test"
    return f"palier {tier} : {label} ({opposition})"


def power_grade(margin: int, rs: SeveriteRules) -> str:
    """The Puissance grade of an Opposition margin (« La Puissance découle directement de la différence »)."""
    found = next(iter(rs.power.grades))
    for gid, grade in rs.power.grades.items():
        if margin >= grade.min_margin:
            found = gid
    return found


def wound_grade(severity: int, rs: SeveriteRules) -> str:
    found = next(iter(rs.grades))
    for gid, grade in rs.grades.items():
        if severity >= grade.min_severity:
            found = gid
    return found


def success_level(margin: int, rs: SeveriteRules) -> str | None:
    """The success level of a Défi's margin (``None``: failure)."""
    if margin < 0:
        return None
    found = next(iter(rs.success_levels))
    for sid, level in rs.success_levels.items():
        if margin >= level.min_margin:
            found = sid
    return found


def protection(sheet: SeveriteSheet, body_part: str, damage_type: str, rs: SeveriteRules) -> tuple[int, list[str]]:
    """Modificateur de protection of what covers ``body_part`` against ``damage_type``."""
    covering = [(e.against(damage_type), e.name) for e in sheet.equipment if body_part in e.body_parts]
    covering = [(v, n) for v, n in covering if v > 0]
    if not covering:
        return 0, []
    if rs.resistance.protection_stacks:
        return sum(v for v, _ in covering), [n for _, n in covering]
    best = max(covering, key=lambda c: c[0])
    return best[0], [best[1]]


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
    text = f"n° {wound.id} {_grade_label(wound.grade, rs)}"
    if wound.body_part:
        text += f" ({_part_label(wound.body_part, rs).lower()})"
    return text


def condition_label(cid: str, rs: SeveriteRules) -> str:
    rule = rs.conditions.get(cid)
    return rule.label if rule else cid


def _find_wound(sheet: SeveriteSheet, wound_id: int) -> Wound:
    for wound in sheet.wounds:
        if wound.id == wound_id:
            return wound
    raise Refused(f"Aucune blessure n° {wound_id} sur la fiche.")


def _replace_wound(sheet: SeveriteSheet, wound: Wound) -> SeveriteSheet:
    return evolve(sheet, wounds=tuple(wound if w.id == wound.id else w for w in sheet.wounds))


def _alive(sheet: SeveriteSheet, what: str) -> None:
    if sheet.dead:
        raise Refused(f"{_name(sheet)} : mort, {what} impossible.")


def _check_part(part: str | None, rs: SeveriteRules) -> None:
    if part is not None and part not in rs.body_parts:
        known = ", ".join(rs.body_parts)
        raise Refused(f"Zone du corps inconnue : « {part} » (attendu : {known}).")


def _check_damage_type(damage_type: str | None, rs: SeveriteRules) -> None:
    if damage_type is not None and damage_type not in rs.damage_types:
        known = ", ".join(rs.damage_types)
        raise Refused(f"Type de dégâts inconnu : « {damage_type} » (attendu : {known}).")


def _is_psychological(damage_type: str | None, rs: SeveriteRules) -> bool:
    return damage_type is not None and damage_type in rs.damage_types and rs.damage_types[damage_type].psychological


# --------------------------------------------------------------------------------------------------
# Conditions
# --------------------------------------------------------------------------------------------------


def _put_condition(sheet: SeveriteSheet, cid: str, rs: SeveriteRules) -> SeveriteSheet:
    """Set ``cid``; a turn-bound condition gets its length (the longer one wins if already there)."""
    rule = rs.conditions[cid]
    conditions = tuple(sorted({*sheet.conditions, cid}))
    timers = sheet.turn_timers
    if rule.duration == "turns":
        left = max([rule.turns] + [t.turns for t in timers if t.condition == cid])
        timers = (*(t for t in timers if t.condition != cid), TurnTimer.model_construct(condition=cid, turns=left))
    return evolve(sheet, conditions=conditions, turn_timers=timers)


def _drop_conditions(sheet: SeveriteSheet, gone: set[str]) -> SeveriteSheet:
    changes: dict[str, object] = {
        "conditions": tuple(c for c in sheet.conditions if c not in gone),
        "turn_timers": tuple(t for t in sheet.turn_timers if t.condition not in gone),
    }
    if "inebranlable" in gone and any(w.ignored for w in sheet.wounds):
        changes["wounds"] = tuple(evolve(w, ignored=False) if w.ignored else w for w in sheet.wounds)
    return evolve(sheet, **changes)


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


def _pass_turns(sheet: SeveriteSheet, turns: int, rs: SeveriteRules, ctx: Context) -> SeveriteSheet:
    """``turns`` ends of turn go by: turn-bound conditions count down and end."""
    if turns <= 0 or not sheet.turn_timers:
        return sheet
    kept: list[TurnTimer] = []
    ended: list[str] = []
    for timer in sheet.turn_timers:
        if timer.turns > turns:
            kept.append(evolve(timer, turns=timer.turns - turns))
        else:
            ended.append(timer.condition)
    if ended:
        ctx.say("Prend fin : " + ", ".join(condition_label(c, rs) for c in ended) + ".")
    return evolve(
        sheet,
        conditions=tuple(c for c in sheet.conditions if c not in ended),
        turn_timers=tuple(kept),
    )


# --------------------------------------------------------------------------------------------------
# The gauge going down
# --------------------------------------------------------------------------------------------------


def _heal_away(sheet: SeveriteSheet, healed: list[Wound], rs: SeveriteRules, ctx: Context) -> SeveriteSheet:
    """Healed wounds leave the sheet; a crippled limb stays crippled (a sequel)."""
    if not healed:
        return sheet
    gone = {w.id for w in healed}
    sequels = list(sheet.sequels)
    for wound in healed:
        line = f"Blessure {wound_label(wound, rs)} guérie"
        if wound.crippled:
            where = _part_label(wound.body_part, rs) or "Membre"
            sequels.append(f"{where} : {wound.handicap or rs.fatal.crippled_handicap}")
            line += " ; le membre reste invalide (séquelle)"
        ctx.say(line + ".")
    ctx.event("healed")
    return evolve(sheet, wounds=tuple(w for w in sheet.wounds if w.id not in gone), sequels=tuple(sequels))


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
    if only is not None:
        order = [_find_wound(sheet, only)]
    else:
        order = sorted(sheet.wounds, key=lambda w: (w.id != prefer, -w.notches, -w.id))
    left = count
    lowered: dict[int, int] = {}
    for wound in order:
        if left <= 0:
            break
        take = min(wound.notches, left)
        if take:
            lowered[wound.id] = wound.notches - take
            left -= take
    removed = count - left
    healed: list[Wound] = []
    wounds: list[Wound] = []
    for wound in sheet.wounds:
        if wound.id in lowered:
            wound = evolve(wound, notches=lowered[wound.id])
        if heals and wound.notches == 0 and (wound.id in lowered or wound.id == only):
            healed.append(wound)
        else:
            wounds.append(wound)
    sheet = evolve(sheet, wounds=tuple(wounds))
    return _heal_away(sheet, healed, rs, ctx), removed


# --------------------------------------------------------------------------------------------------
# Ténacité, survival, wounds
# --------------------------------------------------------------------------------------------------


def _tenacity_roll(sheet: SeveriteSheet, rs: SeveriteRules, ctx: Context, psychological: bool) -> tuple[int, str]:
    """Défi de Ténacité: D10 + Physique (Mental) [+ D6 of a skill] [+ talent bonus]."""
    attr_label = "Mental" if psychological else "Physique"
    attr = sheet.mental if psychological else sheet.physique
    roll = ctx.dice(1, rs.tests.attribute_die, "Défi de Ténacité")
    total = roll.total + attr
    parts = f"{roll.detail} {signed(attr)} ({attr_label})"
    if sheet.tenacity_skill:
        skill = ctx.dice(1, rs.tests.skill_die, "Compétence (Athlétisme, Endurance…)")
        total += skill.total
        parts += f" + {skill.detail} (Compétence)"
    if sheet.tenacity_bonus:
        total += sheet.tenacity_bonus
        parts += f" {signed(sheet.tenacity_bonus)} (Talents)"
    if rs.tenacity.handicaps_apply:
        penalty = handicap_penalty(sheet)
        if penalty:
            total += penalty
            parts += f" {signed(penalty)} (Handicaps)"
    return total, parts


def _tenacity(
    sheet: SeveriteSheet,
    rs: SeveriteRules,
    ctx: Context,
    *,
    opposition: int,
    against: str,
    psychological: bool,
    wound_id: int | None,
) -> SeveriteSheet:
    """A Défi de Ténacité and its result (003 § Ténacité)."""
    blocking = [c for c in rs.tenacity.skipped_when if c in sheet.conditions]
    if sheet.dead:
        return sheet
    if blocking:
        labels = ", ".join(condition_label(c, rs).lower() for c in blocking)
        ctx.say(f"Pas de Défi de Ténacité : {_name(sheet)} est déjà {labels}.")
        return sheet
    total, parts = _tenacity_roll(sheet, rs, ctx, psychological)
    margin = total - opposition
    head = f"Défi de Ténacité contre {against} ({opposition}) : {parts} = {fmt_int(total)}"
    level_id = success_level(margin, rs)
    if level_id is None:
        # « Si le Défi est échoué, vous êtes hors combat … incapable d'agir jusqu'à la fin du Conflit. »
        cid = rs.tenacity.failure_condition
        ctx.say(f"{head} → échec : {condition_label(cid, rs).lower()} jusqu'à la fin du Conflit.")
        ctx.event("out_of_combat")
        return _put_condition(sheet, cid, rs)
    level = rs.success_levels[level_id]
    result = rs.tenacity_results[level.tenacity]
    ctx.say(f"{head} → réussite {level.label} (différence {margin}) : Ténacité {result.label}. {result.effect}")
    ctx.event(f"tenacity_{level.tenacity}")
    if result.condition is not None:
        sheet = _put_condition(sheet, result.condition, rs)
    if result.ignores_wound and wound_id is not None:
        sheet = _replace_wound(sheet, evolve(_find_wound(sheet, wound_id), ignored=True))
    if result.notches:
        before = trauma(sheet)
        sheet, removed = _lower_gauge(sheet, result.notches, rs, ctx, prefer=wound_id, heals=False)
        if removed:
            ctx.say(f"Jauge de Trauma : {before} → {before - removed} ({plural(removed, 'cran')} en moins).")
    return sheet


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
) -> SeveriteSheet:
    """A Blessure of ``grade_id`` lands: the gauge, the Fatale rules, the Défi de Ténacité."""
    grade = rs.grades[grade_id]
    where = f" ({_part_label(body_part, rs).lower()})" if body_part else ""
    if handicap and grade.handicap == "never":
        ctx.say(f"Une Blessure {grade.label} ne laisse pas de Handicap : « {handicap} » n'est pas retenu.")
        handicap, handicap_penalty = "", 0
    if grade.notches == 0 and not grade.recorded and not grade.fatal:
        # « Il n'est pas systématique de prendre note de ces Blessures, car elles ne provoquent aucune séquelle. »
        ctx.say(f"Blessure {grade.label}{where} : effet insignifiant, non notée sur la fiche.")
        ctx.event("wound")
        return sheet
    vital = body_part is None or (body_part in rs.body_parts and rs.body_parts[body_part].vital)
    crippled = grade.fatal and not vital
    if crippled and not handicap:
        handicap = rs.fatal.crippled_handicap
    if len(sheet.wounds) >= MAX_WOUNDS:
        raise Refused(f"La fiche compte déjà {MAX_WOUNDS} blessures : effacez celles qui n'ont plus lieu d'être.")
    wound_id = max((w.id for w in sheet.wounds), default=0) + 1
    if wound_id > MAX_WOUND_ID:
        raise Refused("Numéros de blessure épuisés : renumérotez les blessures de la fiche.")
    before = trauma(sheet)
    # Built without re-validation, like ``evolve``: the values are checked here and by the actions.
    wound = Wound.model_construct(
        id=wound_id,
        grade=grade_id,
        notches=grade.notches,
        severity=None if severity is None else min(severity, MAX_SEVERITY),
        body_part=body_part,
        damage_type=damage_type,
        psychological=psychological,
        handicap=handicap,
        handicap_penalty=handicap_penalty if handicap else 0,
        crippled=crippled,
        note=note,
    )
    after = before + wound.notches
    sheet = evolve(sheet, wounds=(*sheet.wounds, wound))
    ctx.event("wound")
    ctx.say(
        f"Blessure {grade.label}{where} : {signed(wound.notches)} {'crans' if wound.notches > 1 else 'cran'} "
        f"de Trauma ({before} → {after}, {tier_text(after, rs)})."
    )
    if handicap:
        penalty = f" ({signed(wound.handicap_penalty)})" if wound.handicap_penalty else ""
        ctx.say(f"Handicap : {handicap}{penalty}.")
    elif grade.handicap == "likely" and not (grade.fatal and vital):
        ctx.say("Le Meneur de Jeu peut imposer un Handicap à cette Blessure.")
    if grade.fatal:
        if vital:
            # « Quand elle est infligée sur une zone vitale elle peut tuer sur le coup »
            if sheet.is_npc:
                return _die(sheet, ctx, f"Blessure {grade.label} sur une zone vitale")
            return _survival(sheet, wound, rs, ctx)
        ctx.say("Le membre touché est rendu complètement invalide, ou sectionné.")
        ctx.event("crippled")
    if not test:
        return sheet
    needed = _test_needed(before, after, grade, rs)
    if needed is None:
        if grade.test != "never":
            ctx.say(f"Pas de Défi de Ténacité ({tier_text(after, rs)}).")
        return sheet
    opposition, against = needed
    return _tenacity(
        sheet, rs, ctx, opposition=opposition, against=against, psychological=psychological, wound_id=wound.id
    )


def _survival(sheet: SeveriteSheet, wound: Wound, rs: SeveriteRules, ctx: Context) -> SeveriteSheet:
    """« un jet de Survie à l'aide du D20 … égaliser ou dépasser ce montant … supérieure à 19 … un 20 »."""
    if wound.severity is None:
        raise Refused("Le jet de Survie demande la Sévérité de la Blessure Fatale : indiquez-la.")
    needed = min(wound.severity, rs.survival.needed_cap)
    roll = ctx.dice(1, rs.survival.die, "Jet de Survie")
    if roll.total < needed:
        ctx.say(f"Jet de Survie : {roll.detail} contre {needed} (Sévérité {wound.severity}) → échec.")
        return _die(sheet, ctx, f"Blessure {_grade_label(wound.grade, rs)}, jet de Survie raté")
    ctx.say(
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
    *,
    body_part: str | None,
    damage_type: str | None,
    handicap: str = "",
    handicap_penalty: int = 0,
    note: str = "",
) -> SeveriteSheet:
    """A Sévérité lands on the character."""
    if severity < 0:
        # « Si le résultat est négatif, cela signifie que l'attaque n'a pas causé suffisamment de
        #   dommages pour créer une Blessure. »
        ctx.say(f"Sévérité {fmt_int(severity)} : pas assez de dommages pour créer une Blessure.")
        ctx.event("no_wound")
        return sheet
    grade_id = wound_grade(severity, rs)
    return _add_wound(
        sheet,
        rs,
        ctx,
        grade_id=grade_id,
        severity=severity,
        body_part=body_part,
        damage_type=damage_type,
        psychological=_is_psychological(damage_type, rs),
        handicap=handicap,
        handicap_penalty=handicap_penalty,
        note=note,
    )


# --------------------------------------------------------------------------------------------------
# Handlers
# --------------------------------------------------------------------------------------------------


def strike(sheet: SeveriteSheet, action: Strike, ctx: Context) -> SeveriteSheet:
    """003 § Puissance contre Résistance."""
    rs: SeveriteRules = ctx.ruleset
    _check_damage_type(action.damage_type, rs)
    _check_part(action.body_part, rs)
    if sheet.dead:
        ctx.say(f"{_name(sheet)} : déjà mort, l'attaque est sans effet.")
        return sheet
    pw = rs.power
    grade_id = power_grade(action.margin, rs)
    grade = pw.grades[grade_id]
    part = rs.body_parts[action.body_part]
    # « Le jet de Puissance comprend systématiquement un D4 »
    base = ctx.dice(1, pw.base_die, "Puissance")
    power = base.total
    parts = [base.detail]
    if grade.adds_modifiers:
        if action.damage_modifier:
            power += action.damage_modifier
            parts.append(f"{signed(action.damage_modifier)} (mod. de dégâts)")
        if part.vital:
            # « Une frappe portée sur une zone vitale peut se voir octroyer un Modificateur de plus. »
            vital = pw.vital_zone_modifier if action.vital_modifier is None else action.vital_modifier
            if vital:
                power += vital
                parts.append(f"{signed(vital)} (zone vitale)")
    if grade.extra_dice:
        extra = ctx.dice(grade.extra_dice, pw.extra_die, "Puissance")
        power += extra.total
        parts.append(f"+ {extra.detail}")
    for _ in range(grade.efficacy_dice):
        # « un D8 d'Efficacité au jet de Puissance avec Facilité »: rolled again, the best is kept.
        tries = [ctx.dice(1, pw.efficacy_die, "Efficacité (Facilité)") for _ in range(pw.facility_rolls)]
        best = max(t.total for t in tries)
        power += best
        shown = ", ".join(str(t.total) for t in tries)
        parts.append(f"+ {best} (D{pw.efficacy_die} d'Efficacité avec Facilité : {shown}, le meilleur)")
    ctx.say(f"Puissance {grade.label} (différence {action.margin}) : {' '.join(parts)} = {fmt_int(power)}.")
    # « un jet de un D4 auquel s'ajoute un Modificateur de protection »
    die = ctx.dice(1, rs.resistance.die, "Résistance")
    prot, names = protection(sheet, action.body_part, action.damage_type, rs)
    resistance = die.total + prot
    dtype = rs.damage_types[action.damage_type].label
    shield = (
        f" + {prot} ({', '.join(names)}, {dtype.lower()})" if prot else f" (aucune protection : {part.label.lower()})"
    )
    ctx.say(f"Résistance : {die.detail}{shield} = {fmt_int(resistance)}.")
    severity = power - resistance
    ctx.say(f"Sévérité = {fmt_int(power)} − {fmt_int(resistance)} = {fmt_int(severity)}.")
    return _inflict(
        sheet,
        severity,
        rs,
        ctx,
        body_part=action.body_part,
        damage_type=action.damage_type,
        handicap=action.handicap,
        handicap_penalty=action.handicap_penalty,
        note=action.note,
    )


def damage(sheet: SeveriteSheet, action: Damage, ctx: Context) -> SeveriteSheet:
    """The common « Dégâts »: here ``amount`` is a Sévérité already worked out at the table."""
    rs: SeveriteRules = ctx.ruleset
    if action.nonlethal:
        raise Refused("Sévérité ne compte pas de dégâts non létaux : chaque coup donne une Sévérité.")
    _check_damage_type(action.damage_type, rs)
    _check_part(action.body_part, rs)
    for _ in range(action.hits):
        if sheet.dead:
            ctx.say(f"{_name(sheet)} : déjà mort, coup sans effet.")
            break
        amount = ctx.amount(action.amount, "Sévérité", minimum=None)
        if not amount.given:
            ctx.say(f"Sévérité : {amount.detail}.")
        sheet = _inflict(sheet, amount.total, rs, ctx, body_part=action.body_part, damage_type=action.damage_type)
    return sheet


def inflict_wound(sheet: SeveriteSheet, action: InflictWound, ctx: Context) -> SeveriteSheet:
    rs: SeveriteRules = ctx.ruleset
    if action.grade not in rs.grades:
        known = ", ".join(rs.grades)
        raise Refused(f"Degré de Blessure inconnu : « {action.grade} » (attendu : {known}).")
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
            wound_id=None,
        )
    notches = trauma(sheet)
    label, opposition = tier_rule(tier_of(notches, rs), rs)
    if opposition is None:
        raise Refused(f"Aucun Défi de Ténacité n'est nécessaire ({tier_text(notches, rs)}).")
    return _tenacity(
        sheet, rs, ctx, opposition=opposition, against=label, psychological=action.psychological, wound_id=None
    )


def treat_wound(sheet: SeveriteSheet, action: TreatWound, ctx: Context) -> SeveriteSheet:
    """« Pour qu'une Blessure puisse guérir, il est nécessaire que celle-ci soit traitée »."""
    rs: SeveriteRules = ctx.ruleset
    _alive(sheet, "soigner")
    if action.treatment not in rs.treatments:
        known = ", ".join(rs.treatments)
        raise Refused(f"Traitement inconnu : « {action.treatment} » (attendu : {known}).")
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
    total, parts = _tenacity_roll(sheet, rs, ctx, wound.psychological)
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
        known = ", ".join(rs.success_levels)
        raise Refused(f"Niveau de réussite inconnu : « {action.success_level} » (attendu : {known}).")
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
    _alive(sheet, "soigner")
    amount = ctx.amount(action.amount, "Crans retirés")
    if amount.total < 0:
        raise Refused(f"Retirer {amount.total} crans n'a pas de sens.")
    before = trauma(sheet)
    sheet, removed = _lower_gauge(sheet, amount.total, rs, ctx, heals=True)
    ctx.say(f"Soins surnaturels : {plural(removed, 'cran')} de Trauma retirés ({before} → {before - removed}).")
    return sheet


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
    if cid not in rs.conditions:
        raise Refused(f"État inconnu : « {cid} ».")
    label = rs.conditions[cid].label
    if action.active:
        _alive(sheet, "changer d'état")
        if cid in sheet.conditions:
            ctx.say(f"{label} : déjà en place.")
            return sheet
        ctx.say(f"État {label} ajouté.")
        return _put_condition(sheet, cid, rs)
    if cid not in sheet.conditions:
        ctx.say(f"{label} : n'était pas en place.")
        return sheet
    ctx.say(f"État {label} retiré.")
    return _drop_conditions(sheet, {cid})


def clear_conditions(sheet: SeveriteSheet, action: ClearConditions, ctx: Context) -> SeveriteSheet:
    rs: SeveriteRules = ctx.ruleset
    if not sheet.conditions:
        ctx.say("Aucun état à retirer.")
        return sheet
    ctx.say("États retirés : " + ", ".join(condition_label(c, rs) for c in sheet.conditions) + ".")
    return _drop_conditions(sheet, set(sheet.conditions))


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
    sheet = _pass_turns(sheet, action.hours * hour // rs.time_units["turn"], rs, ctx)
    sheet = evolve(sheet, clock=end)
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
    if action.unit not in rs.time_units:
        units = ", ".join(rs.time_units)
        raise Refused(f"Unité de temps inconnue : « {action.unit} » (attendu : {units}).")
    seconds = action.count * rs.time_units[action.unit]
    label = rs.time_labels.get(action.unit, action.unit)
    ctx.say(f"Le temps passe : {action.count} {label}{'s' if action.count > 1 else ''}.")
    sheet = _pass_turns(sheet, seconds // rs.time_units["turn"], rs, ctx)
    return evolve(sheet, clock=sheet.clock + seconds)


def after_edit(old: SeveriteSheet, new: SeveriteSheet, rs: SeveriteRules, ctx: Context) -> SeveriteSheet:
    """An edited sheet must name only what the rule table knows."""
    problems: list[str] = []
    for wound in new.wounds:
        if wound.grade not in rs.grades:
            problems.append(f"blessure n° {wound.id} : degré inconnu « {wound.grade} »")
        if wound.body_part is not None and wound.body_part not in rs.body_parts:
            problems.append(f"blessure n° {wound.id} : zone inconnue « {wound.body_part} »")
        if wound.damage_type is not None and wound.damage_type not in rs.damage_types:
            problems.append(f"blessure n° {wound.id} : type de dégâts inconnu « {wound.damage_type} »")
        if wound.treatment is not None and wound.treatment not in rs.treatments:
            problems.append(f"blessure n° {wound.id} : traitement inconnu « {wound.treatment} »")
    for item in new.equipment:
        for part in item.body_parts:
            if part not in rs.body_parts:
                problems.append(f"{item.name} : zone inconnue « {part} »")
        for prot in item.protections:
            if prot.damage_type not in rs.damage_types:
                problems.append(f"{item.name} : type de dégâts inconnu « {prot.damage_type} »")
    for cid in new.conditions:
        if cid not in rs.conditions:
            problems.append(f"état inconnu « {cid} »")
    if problems:
        raise Refused("Valeur refusée : " + " ; ".join(problems) + ".")
    return new


# --------------------------------------------------------------------------------------------------
# Derived values
# --------------------------------------------------------------------------------------------------


def handicap_penalty(sheet: SeveriteSheet) -> int:
    """Penalties of the Handicaps in force (an ignored wound's Handicap is ignored too)."""
    return sum(w.handicap_penalty for w in sheet.wounds if w.handicap and not w.ignored)


def health_state(sheet: SeveriteSheet, rs: SeveriteRules) -> tuple[str, str]:
    conds = set(sheet.conditions)
    if sheet.dead:
        return "mort", "mort"
    if "stabilise" in conds:
        return "stabilise", "jet de Survie réussi : inconscient, stable jusqu'à la fin du Conflit"
    if "inconscient" in conds:
        return "inconscient", "inconscient, a besoin de soins importants"
    if rs.tenacity.failure_condition in conds:
        return "hors_de_combat", "Défi de Ténacité échoué : incapable d'agir jusqu'à la fin du Conflit"
    idle = [rs.conditions[c].label for c in sorted(conds) if c in rs.conditions and rs.conditions[c].no_action]
    if idle:
        return "sonne", "pas d'Action pour l'instant (" + ", ".join(idle) + ")"
    notches = trauma(sheet)
    if notches > rs.capacity:
        return "au_dela", f"{notches} crans, au-delà des {rs.capacity} de la jauge"
    if notches or sheet.wounds:
        return "blesse", f"{plural(notches, 'cran')} de Trauma, {plural(len(sheet.wounds), 'blessure')}"
    return "en_forme", "aucune blessure"


def derive(sheet: SeveriteSheet, rs: SeveriteRules) -> Derived:
    values: dict[str, Explained] = {}
    notches = trauma(sheet)
    capacity = rs.capacity
    held = [w for w in sheet.wounds if w.notches]
    text = f"jauge de Trauma : {plural(notches, 'cran')} sur {capacity} ({tier_text(notches, rs)})"
    if held:
        text += " = " + " + ".join(f"{w.notches} ({wound_label(w, rs)})" for w in held)
    values["current"] = Explained(notches, text)
    values["maximum"] = Explained(
        capacity,
        f"capacité de la jauge {capacity} crans = {len(rs.trauma.tiers)} paliers × {rs.trauma.notches_per_tier} "
        f"crans ; au-delà : {rs.trauma.beyond.label} ({rs.trauma.beyond.opposition})",
    )
    values["temporary"] = Explained(0, "pas de points temporaires dans Sévérité")
    state, why = health_state(sheet, rs)
    values["state"] = Explained(state, f"état : {rs.health_states[state].label} ({why})")
    values["roll_penalty"] = explained_modifier(
        "malus des Handicaps",
        [
            Term(w.handicap_penalty, f"{w.handicap}, blessure {wound_label(w, rs)}")
            for w in sheet.wounds
            if w.handicap and not w.ignored
        ],
        "aucun Handicap",
    )
    known = {c: "posé" for c in sheet.conditions if c in rs.conditions}
    timers = {t.condition: t.turns for t in sheet.turn_timers}

    def _shown(cid: str) -> str:
        rule = rs.conditions[cid]
        if cid in timers:
            return f"{rule.label} (encore {plural(timers[cid], 'fin de tour', 'fins de tour')})"
        if rule.duration == "conflict":
            return f"{rule.label} (jusqu'à la fin du Conflit)"
        return rule.label

    values["conditions"] = Explained(
        tuple(sorted(known)), "états : " + (", ".join(_shown(c) for c in sorted(known)) or "aucun")
    )
    values["condition_reasons"] = Explained(
        dict(sorted(known.items())), "chaque état est posé par les règles ou à la main"
    )
    tier = tier_of(notches, rs)
    tier_label, opposition = tier_rule(tier, rs)
    values["trauma_tier"] = Explained(tier, tier_text(notches, rs))
    if opposition is None:
        values["tenacity_opposition"] = Explained(None, f"aucun Défi de Ténacité ({tier_text(notches, rs)})")
    else:
        values["tenacity_opposition"] = Explained(
            opposition, f"un Défi de Ténacité se fait maintenant contre {tier_label} ({opposition})"
        )
    for attr, label in (("physique", "Physique"), ("mental", "Mental")):
        value = getattr(sheet, attr) + sheet.tenacity_bonus
        skill = f" + D{rs.tests.skill_die} (Compétence)" if sheet.tenacity_skill else ""
        bonus = f" {signed(sheet.tenacity_bonus)} (Talents)" if sheet.tenacity_bonus else ""
        die = f"D{rs.tests.attribute_die}"
        values[f"tenacity_{attr}"] = Explained(
            value, f"Défi de Ténacité ({label}) : {die} {signed(getattr(sheet, attr))} ({label}){skill}{bonus}"
        )
    idle = [rs.conditions[c].label for c in sheet.conditions if c in rs.conditions and rs.conditions[c].no_action]
    values["can_act"] = Explained(
        not sheet.dead and not idle,
        "mort" if sheet.dead else ("ne peut pas agir (" + ", ".join(idle) + ")" if idle else "peut agir"),
    )
    treated = [w for w in sheet.wounds if w.treatment is not None]
    untreated = [w for w in sheet.wounds if w.treatment is None]
    per = rs.rest.notches_per_treated_wound
    recovery = sum(min(per, w.notches) for w in treated)
    values["rest_recovery"] = Explained(
        recovery,
        f"au prochain repos : −{plural(recovery, 'cran')}, {per} par blessure traitée"
        + (
            f" ; {plural(len(untreated), 'blessure non traitée', 'blessures non traitées')}, sans guérison"
            if untreated
            else ""
        ),
    )
    values["untreated_wounds"] = Explained(
        len(untreated),
        "blessures non traitées : " + (", ".join(wound_label(w, rs) for w in untreated) or "aucune"),
    )
    values["handicaps"] = Explained(
        tuple((w.id, w.handicap, w.handicap_penalty, w.ignored) for w in sheet.wounds if w.handicap),
        "Handicaps : "
        + (
            "; ".join(
                f"{w.handicap} ({wound_label(w, rs)}{', ignoré' if w.ignored else ''})"
                for w in sheet.wounds
                if w.handicap
            )
            or "aucun"
        ),
    )
    hour = rs.time_units["hour"]
    if sheet.last_rest_end is None or not rs.rest.cooldown_hours:
        values["rest_ready_in"] = Explained(0, "repos possible")
    else:
        wait = max(0, sheet.last_rest_end + (rs.rest.cooldown_hours - rs.rest.min_hours) * hour - sheet.clock)
        values["rest_ready_in"] = Explained(
            wait, "repos possible" if wait == 0 else f"repos possible dans {-(-wait // hour)} h"
        )
    return Derived(SYSTEM_ID, values)


def info(rs: SeveriteRules) -> SystemInfo:
    """Sévérité as the UI lays it out."""
    fields = (
        *IDENTITY_FIELDS,
        FieldInfo(
            "physique",
            "Physique",
            "int",
            group="characteristics",
            minimum=-10,
            maximum=20,
            tooltip="Modificateur ajouté au dé des Défis de Ténacité (blessures physiques).",
        ),
        FieldInfo(
            "mental",
            "Mental",
            "int",
            group="characteristics",
            minimum=-10,
            maximum=20,
            tooltip="Modificateur ajouté au dé des Défis de Ténacité contre une blessure psychologique.",
        ),
        FieldInfo(
            "tenacity_skill",
            "Compétence de Ténacité",
            "bool",
            group="health",
            tooltip=f"Une Compétence aide la Ténacité (Athlétisme, Endurance…) : +D{rs.tests.skill_die} au Défi.",
        ),
        FieldInfo(
            "tenacity_bonus",
            "Bonus de Ténacité (Talents)",
            "int",
            group="health",
            minimum=-20,
            maximum=20,
            tooltip="Modificateur de Talent ajouté aux Défis de Ténacité.",
        ),
    )
    pw = rs.power
    grades_text = []
    for gid, g in pw.grades.items():
        formula = f"D{pw.base_die}"
        if g.adds_modifiers:
            formula += " + Mod."
        if g.extra_dice:
            formula += f" + {g.extra_dice}D{pw.extra_die}"
        if g.efficacy_dice:
            formula += f" + D{pw.efficacy_die} d'Efficacité avec Facilité"
        grades_text.append((gid, g.label, g.min_margin, formula))
    per = rs.trauma.notches_per_tier
    tiers = tuple(
        {
            "index": i + 1,
            "label": t.label,
            "opposition": t.opposition,
            "first_notch": i * per + 1,
            "last_notch": (i + 1) * per,
        }
        for i, t in enumerate(rs.trauma.tiers)
    )
    return SystemInfo(
        id=SYSTEM_ID,
        label="Sévérité",
        seed="003",
        points_label="crans de Trauma",
        points_short="crans",
        fields=fields,
        health_states=tuple(HealthStateInfo(k, v.label, v.colour) for k, v in rs.health_states.items()),
        condition_groups=tuple(ConditionGroupInfo(k, g.label) for k, g in rs.condition_groups.items()),
        conditions=tuple(ConditionInfo(k, c.label, c.group, c.effects) for k, c in rs.conditions.items()),
        ladders=(),
        time_units=tuple(ChoiceInfo(k, rs.time_labels.get(k, k)) for k in rs.time_units),
        round_unit="turn",
        damage_types=tuple(ChoiceInfo(k, d.label) for k, d in rs.damage_types.items()),
        wound_types=tuple(ChoiceInfo(k, g.label) for k, g in rs.grades.items()),
        rests=((LongRest, "Repos"),),
        features=frozenset(
            {
                "trauma",
                "wounds",
                "handicaps",
                "damage_types",
                "body_parts",
                "protection",
                "strike",
                "tenacity",
                "survival",
                "wound_treatment",
                "worsening",
                "supernatural_healing",
                "end_conflict",
                "long_rest",
                "sequels",
            }
        ),
        actions=(),
        extra={
            "trauma": {
                "capacity": rs.capacity,
                "notches_per_tier": per,
                "tiers": tiers,
                "beyond": {"label": rs.trauma.beyond.label, "opposition": rs.trauma.beyond.opposition},
            },
            # The gauge as the health bar draws it: one entry per tier (notches, label, Opposition).
            "trauma_tiers": tuple(
                {
                    "notches": per,
                    "label": t.label if t.opposition is None else f"{t.label} ({t.opposition})",
                    "opposition": t.opposition,
                }
                for t in rs.trauma.tiers
            ),
            # (id, label) pairs for the action forms' choices; the fuller tables beside them.
            "wound_grades": tuple((k, g.label) for k, g in rs.grades.items()),
            "wound_grade_rules": tuple(
                (k, g.label, g.min_severity, g.notches, g.handicap) for k, g in rs.grades.items()
            ),
            "power_grades": tuple(grades_text),
            "success_level_choices": tuple((k, s.label) for k, s in rs.success_levels.items()),
            "success_levels": tuple(
                (k, s.label, s.min_margin, rs.tenacity_results[s.tenacity].label, s.healing_notches)
                for k, s in rs.success_levels.items()
            ),
            "tenacity_results": tuple((k, r.label, r.effect) for k, r in rs.tenacity_results.items()),
            "body_part_choices": tuple((k, p.label) for k, p in rs.body_parts.items()),
            "body_parts": tuple((k, p.label, p.vital) for k, p in rs.body_parts.items()),
            "treatment_choices": tuple((k, t.label) for k, t in rs.treatments.items()),
            "treatments": tuple((k, t.label, t.major) for k, t in rs.treatments.items()),
            "dice": (
                f"Défi : D{rs.tests.attribute_die} + Physique ou Mental (+ D{rs.tests.skill_die} de Compétence) ; "
                f"Résistance : D{rs.resistance.die} + protection ; Survie : D{rs.survival.die}"
            ),
        },
    )


SYSTEM = register(
    System(
        id=SYSTEM_ID,
        label="Sévérité",
        seed="003",
        sheet_type=SeveriteSheet,
        ruleset_type=SeveriteRules,
        handlers={
            Strike: strike,
            Damage: damage,
            InflictWound: inflict_wound,
            TenacityTest: tenacity_test,
            TreatWound: treat_wound,
            DiagnoseWound: diagnose_wound,
            SetHandicap: set_handicap,
            WorseningRisk: worsening_risk,
            SupernaturalHealing: supernatural_healing,
            Heal: heal,
            EndConflict: end_conflict,
            EraseWound: erase_wound,
            SetCondition: set_condition,
            ClearConditions: clear_conditions,
            LongRest: rest,
            AdvanceTime: advance_time,
        },
        derive=derive,
        info=info,
        after_edit=after_edit,
        demo={
            "name": "Maëlle Corbier",
            "player": "Jonas",
            "level": 2,
            "physique": 2,
            "mental": 1,
            "tenacity_skill": True,
            "tenacity_bonus": 1,
            "equipment": (
                {
                    "name": "Brigandine",
                    "body_parts": ("torse", "abdomen"),
                    "protections": (
                        {"damage_type": "tranchant", "modifier": 3},
                        {"damage_type": "percant", "modifier": 2},
                        {"damage_type": "ecrasant", "modifier": 1},
                    ),
                },
                {
                    "name": "Casque à nasal",
                    "body_parts": ("tete",),
                    "protections": (
                        {"damage_type": "tranchant", "modifier": 2},
                        {"damage_type": "percant", "modifier": 1},
                        {"damage_type": "ecrasant", "modifier": 2},
                    ),
                },
            ),
            "wounds": (
                {
                    "id": 1,
                    "grade": "grave",
                    "severity": 6,
                    "notches": 3,
                    "body_part": "bras_gauche",
                    "damage_type": "tranchant",
                    "treatment": "bandage",
                    "diagnosis": "Entaille profonde de l'avant-bras, le tendon a tenu.",
                    "handicap": "Peine à tenir son bouclier",
                    "handicap_penalty": -1,
                    "note": "Sabre d'un coupe-jarret, ruelle des Tanneurs.",
                },
                {
                    "id": 2,
                    "grade": "legere",
                    "severity": 3,
                    "notches": 1,
                    "body_part": "jambe_droite",
                    "damage_type": "ecrasant",
                    "note": "Coup de gourdin.",
                },
            ),
            "conditions": ("tourmente",),
            "turn_timers": ({"condition": "tourmente", "turns": 2},),
            "notes": "Escorte du convoi de sel ; l'embuscade n'est pas finie.",
        },
    )
)
