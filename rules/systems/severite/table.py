"""Sévérité's rule table (``resources/rulesets/severite.toml``), validated by pydantic."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from rules.ruleset import (
    ConditionGroupTable,
    ConditionTable,
    HealthStateTable,
    Table,
    check_condition_references,
    check_time_units,
)

Die = Annotated[int, Field(ge=2, le=100)]
# At most this many conditions in a table, so a sheet can hold them all at once (``SeveriteSheet``).
MAX_CONDITIONS = 40
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
    # Bounded: a crippled limb's sequel names it (« Bras gauche : Membre invalide ou sectionné »).
    label: str = Field(min_length=1, max_length=80)
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
    conditions: dict[str, ConditionRule] = Field(max_length=MAX_CONDITIONS)

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
