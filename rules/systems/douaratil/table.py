"""Douaratil's rule table: the schema of ``resources/rulesets/douaratil.toml``."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from rules.labels import AbilityId
from rules.ruleset import (
    ConditionGroupTable,
    ConditionTable,
    HealthStateTable,
    Table,
    check_condition_references,
    check_time_units,
)

SYSTEM_ID = "douaratil"
POOLS = ("magic", "faith", "honour", "sanity")


Dice = tuple[int, int]


class GeneralRules(Table):
    ability_base: int = 10
    ability_step: int = Field(2, ge=1)
    default_action_die: int = Field(8, ge=2, le=100)
    default_speed_m: int = Field(9, ge=0)


class SaveRules(Table):
    constitution_dd: int
    unconscious_dice: Dice
    death_save_dice: Dice
    death_save_success: int
    death_saves_needed: int = Field(ge=1, le=10)
    exhaustion_on_death_saves: bool
    first_aid_dd: int
    check_dice: Dice
    stabilised_wake_dice: Dice
    stabilised_wake_gain: int = Field(ge=0)
    npc_death_dice: Dice


class DifficultyRules(Table):
    reference_dd: int = 16
    step: int = Field(ge=0)
    minor_steps: int = Field(ge=0)
    major_steps: int = Field(ge=0)
    steps_stack: bool
    labels: dict[int, str]


class HealingRules(Table):
    test_dd: int
    exhaustion_applies: bool


class SeverityRule(Table):
    label: str
    steps: int = Field(ge=0)


class WoundType(Table):
    label: str
    days: int = Field(ge=0, le=10_000)
    limitation: str
    will_dd: int
    bleeding_dice: Dice | None = None
    reopen_dd: int | None = None
    halves_speed: bool = False


class ExhaustionRules(Table):
    max_level: int = Field(ge=1, le=20)
    roll_penalty_per_level: int = Field(ge=0)
    speed_m_per_level: int = Field(ge=0)
    maximum_per_level: int = Field(ge=0)
    long_rest_reduction: int = Field(ge=0)


class PoolRecovery(Table):
    label: str
    per_level: int = Field(ge=0)
    ability: AbilityId
    doubled_on_path: str | None = None
    minimum: int = 0
    exhaustion_applies: bool


class RestRules(Table):
    short_min_hours: int = Field(ge=0)
    long_min_hours: int = Field(ge=0)
    long_cooldown_hours: int = Field(ge=0)
    long_min_points: int = Field(ge=0)
    dice_regained_min: int = Field(ge=0)
    dice_regained_divisor: int = Field(ge=1)
    pools: dict[str, PoolRecovery]

    @model_validator(mode="after")
    def _all_pools(self) -> RestRules:
        missing = [p for p in POOLS if p not in self.pools]
        if missing:
            raise ValueError("rests.pools doit décrire " + ", ".join(missing))
        return self


class HeroicDeathRules(Table):
    odd_level_points: int = Field(ge=0)
    even_level_points: int = Field(ge=0)
    constitution_floor: int


class HealthState(HealthStateTable):
    pass


class ConditionGroup(ConditionGroupTable):
    spared_by_clear_all: bool = False


Mode = Literal["avantage", "desavantage"]


class ConditionRule(ConditionTable):
    on_end_adds: tuple[str, ...] = ()
    speed: Literal["zero", "half"] | None = None
    attacks: Mode | None = None
    attacked: Mode | None = None
    checks: Mode | None = None
    incapacitated: bool = False
    auto_fail_saves: tuple[str, ...] = ()
    critical_if_adjacent: bool = False
    resists_all_damage: bool = False


class DouaratilRules(Table):
    general: GeneralRules
    time_units: dict[str, int]
    time_labels: dict[str, str]
    saves: SaveRules
    difficulty: DifficultyRules
    healing: HealingRules
    severities: dict[Literal["minor", "major"], SeverityRule]
    wounds: dict[str, WoundType]
    exhaustion: ExhaustionRules
    rests: RestRules
    heroic_death: HeroicDeathRules
    paths: dict[str, str]
    health_states: dict[str, HealthState]
    condition_groups: dict[str, ConditionGroup]
    conditions: dict[str, ConditionRule]

    @model_validator(mode="after")
    def _references(self) -> DouaratilRules:
        check_condition_references(
            self.conditions,
            self.condition_groups,
            self.health_states,
            needed_states=("en_forme", "inconscient", "mourant", "stabilise", "mort"),
        )
        check_time_units(self.time_units, ("round", "hour"))
        if "inconscient" not in self.conditions:
            raise ValueError("l'état « inconscient » est nécessaire aux règles de perte de conscience")
        return self
