"""d20 rule table schema: what ``resources/rulesets/d20.toml`` holds, validated on load."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from rules.ruleset import (
    ConditionGroupTable,
    ConditionTable,
    HealthStateTable,
    Table,
    check_condition_references,
    check_time_units,
)

Procedure = Literal["ritual", "quick", "resurrection_supreme", "souhait"]
Percent = int


class GeneralRules(Table):
    ability_base: int = 10
    ability_step: int = Field(2, ge=1)
    check_die: int = Field(20, ge=2, le=1000)
    percent_die: int = Field(100, ge=2, le=1000)
    natural_max_save_succeeds: bool
    natural_one_save_fails: bool


class ThresholdRules(Table):
    disabled_at: int
    death_at: int
    death_constitution: int = Field(ge=0)

    @model_validator(mode="after")
    def _ordered(self) -> ThresholdRules:
        if self.death_at >= self.disabled_at:
            raise ValueError("death_at doit être inférieur à disabled_at")
        return self


class MassiveDamageRules(Table):
    threshold: int = Field(ge=1)
    save_dd: int
    nonlethal_counts: bool


class LocalWoundRules(Table):
    penalty: int = Field(le=0)
    penalties_stack: bool
    heal_at_full: bool
    heal_by_magic: bool


class DyingRules(Table):
    loss_per_round: int = Field(ge=1)
    stabilise_chance: Percent = Field(ge=0, le=100)
    first_roll_after_rounds: int = Field(ge=1)
    first_aid_dd: int
    heal_spell_min: int = Field(ge=1)
    damage_breaks_stability: bool
    strenuous_cost: int = Field(ge=0)


class RecoveryRules(Table):
    assisted_first_roll_hours: int = Field(ge=1)
    assisted_interval_hours: int = Field(ge=1)
    assisted_wake_chance: Percent = Field(ge=0, le=100)
    alone_interval_hours: int = Field(ge=1)
    alone_wake_chance: Percent = Field(ge=0, le=100)
    alone_loss: int = Field(ge=0)
    alone_first_daily_roll_hours: int = Field(ge=1)
    alone_daily_interval_hours: int = Field(ge=1)
    alone_daily_chance: Percent = Field(ge=0, le=100)
    alone_daily_loss: int = Field(ge=0)


class HealingRules(Table):
    night_hours: int = Field(ge=1)
    night_per_level: int = Field(ge=0)
    full_day_hours: int = Field(ge=1)
    full_day_per_level: int = Field(ge=0)
    ability_per_night: int = Field(ge=0)
    ability_per_full_day: int = Field(ge=0)
    # One natural healing (a night or a full day) per this many hours (T14).
    rest_interval_hours: int = Field(ge=1)


class TemporaryRules(Table):
    count_for_state: bool
    absorb_nonlethal: bool


class ConstitutionRules(Table):
    changes_pv: bool
    min_pv_per_level: int = Field(ge=0)


class NonlethalRules(Table):
    recovery_per_hour_per_level: int = Field(ge=0)
    healing_removes: Literal["any", "magical"]
    rest_removes: bool
    wrong_weapon_attack: int = Field(le=0)
    lethal_melee_only: bool


class ResurrectionRules(Table):
    base_dd: int
    per_earlier_resurrection: int = Field(ge=0)
    contribution_success: int
    contribution_failure: int
    max_contributors: int = Field(ge=0, le=10)
    quick_failure_increase: int = Field(ge=0)
    revived_pv_per_level: int = Field(ge=0)
    bypass_full_pv: bool
    restore_zero_abilities_to: int = Field(ge=1)
    bypass_counts: bool
    procedures: dict[Procedure, str]

    @model_validator(mode="after")
    def _all_procedures(self) -> ResurrectionRules:
        missing = [p for p in ("ritual", "quick", "resurrection_supreme", "souhait") if p not in self.procedures]
        if missing:
            raise ValueError("resurrection.procedures doit nommer " + ", ".join(missing))
        return self


class HealthState(HealthStateTable):
    effect: str


class ConditionGroup(ConditionGroupTable):
    pass


class ConditionRule(ConditionTable):
    settable: bool


STATE_IDS = ("en_forme", "chancelant", "hors_de_combat", "inconscient", "stabilise", "mourant", "mort")


class D20Rules(Table):
    general: GeneralRules
    time_units: dict[str, int]
    time_labels: dict[str, str]
    thresholds: ThresholdRules
    massive_damage: MassiveDamageRules
    local_wounds: LocalWoundRules
    dying: DyingRules
    recovery: RecoveryRules
    healing: HealingRules
    temporary: TemporaryRules
    constitution: ConstitutionRules
    nonlethal: NonlethalRules
    resurrection: ResurrectionRules
    body_parts: dict[str, str]
    health_states: dict[str, HealthState]
    condition_groups: dict[str, ConditionGroup]
    conditions: dict[str, ConditionRule]

    @model_validator(mode="after")
    def _references(self) -> D20Rules:
        check_time_units(self.time_units, ("round", "hour", "day", "night", "full_day"))
        for unit, seconds in self.time_units.items():
            if seconds <= 0:
                raise ValueError(f"time_units.{unit} doit être strictement positif")
        for needed in STATE_IDS:
            if needed not in self.health_states:
                raise ValueError(f"l'état de santé « {needed} » manque dans health_states")
        check_condition_references(self.conditions, self.condition_groups, self.health_states)
        for needed in ("hors_de_combat", "chancelant", "inconscient", "mourant", "stabilise"):
            if needed not in self.conditions:
                raise ValueError(f"l'état « {needed} » manque dans conditions")
        return self
