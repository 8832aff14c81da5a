"""Douaratil's rule table: the schema of ``resources/rulesets/douaratil.toml``.

The schema encodes what the rules rely on (positive durations, dice with at least one face, both wound
severities, the states the dying rules name…), so a GM's house-rule copy is refused in French when it
would break them, never accepted to crash later.
"""

from __future__ import annotations

from typing import Annotated, Literal

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
SEVERITIES = ("minor", "major")

# ``[count, sides]``: at least one die of at least one face (a 0-sided die cannot be rolled).
Dice = tuple[Annotated[int, Field(ge=1, le=100)], Annotated[int, Field(ge=1, le=1000)]]
DD = Annotated[int, Field(ge=-100, le=1000)]


class GeneralRules(Table):
    ability_base: int = Field(10, ge=-100, le=100)
    ability_step: int = Field(2, ge=1, le=100)
    default_action_die: int = Field(8, ge=2, le=100)
    default_speed_m: int = Field(9, ge=0, le=1000)


class SaveRules(Table):
    constitution_dd: DD
    unconscious_dice: Dice
    # D14: at 0 PA a creature following the players' rules is unconscious until it regains PA.
    unconscious_at_zero: bool = True
    death_save_dice: Dice
    death_save_success: DD
    death_saves_needed: int = Field(ge=1, le=10)
    exhaustion_on_death_saves: bool
    first_aid_dd: DD
    check_dice: Dice
    stabilised_wake_dice: Dice
    stabilised_wake_gain: int = Field(ge=1, le=1000)
    npc_death_dice: Dice


class DifficultyRules(Table):
    reference_dd: DD = 16
    step: int = Field(ge=0, le=100)
    # Read by sheet_app 0.1.0, ignored since: a severity's steps are ``severities.<id>.steps``.
    minor_steps: int | None = Field(None, ge=0, le=10)
    major_steps: int | None = Field(None, ge=0, le=10)
    steps_stack: bool
    # Whether the wound DD steps also raise the wound's own « test de volonté (SAG) ».
    will_test_steps: bool = False
    labels: dict[int, str]


class HealingRules(Table):
    test_dd: DD
    exhaustion_applies: bool


class TemporaryRules(Table):
    # D15: damage the temporary PA absorb counts for massive damage, criticals and stabilisation.
    absorbed_damage_counts: bool = False


class SeverityRule(Table):
    label: str
    steps: int = Field(ge=0, le=10)


class WoundType(Table):
    label: str
    days: int = Field(ge=0, le=10_000)
    limitation: str
    will_dd: DD
    bleeding_dice: Dice | None = None
    reopen_dd: DD | None = None
    # « risque d'aggravation » (fracture): a failed Constitution save worsens the wound.
    aggravation_dd: DD | None = None
    halves_speed: bool = False

    @model_validator(mode="after")
    def _risk_needs_its_dd(self) -> WoundType:
        if self.bleeding_dice is not None and self.reopen_dd is None:
            raise ValueError("une blessure qui saigne (bleeding_dice) demande le DD de son ouverture (reopen_dd)")
        return self


class ExhaustionRules(Table):
    max_level: int = Field(ge=1, le=20)
    roll_penalty_per_level: int = Field(ge=0, le=100)
    speed_m_per_level: int = Field(ge=0, le=1000)
    maximum_per_level: int = Field(ge=0, le=100_000)
    # The PA maximum exhaustion never goes below (item 5 of issue 13; D12).
    minimum_maximum: int = Field(1, ge=0, le=100_000)
    long_rest_reduction: int = Field(ge=0, le=20)


class PoolRecovery(Table):
    label: str
    per_level: int = Field(ge=0, le=1000)
    ability: AbilityId
    doubled_on_path: str | None = None
    minimum: int = Field(0, ge=0, le=1000)
    exhaustion_applies: bool


class RestRules(Table):
    short_min_hours: int = Field(ge=0, le=24)
    # PA needed to begin a short rest (the resting character « ne fait rien de plus fatigant que … »).
    short_min_points: int = Field(1, ge=0, le=1000)
    long_min_hours: int = Field(ge=0, le=24 * 7)
    long_cooldown_hours: int = Field(ge=0, le=24 * 365)
    long_min_points: int = Field(ge=0, le=1000)
    # A rest is refused while a wound bleeds (false: the rest runs its rounds, bleeding included).
    refused_while_bleeding: bool = True
    dice_regained_min: int = Field(ge=0, le=100)
    dice_regained_divisor: int = Field(ge=1, le=100)
    pools: dict[str, PoolRecovery]

    @model_validator(mode="after")
    def _all_pools(self) -> RestRules:
        missing = [p for p in POOLS if p not in self.pools]
        if missing:
            raise ValueError("rests.pools doit décrire " + ", ".join(missing))
        return self


class HeroicDeathRules(Table):
    odd_level_points: int = Field(ge=0, le=50)
    even_level_points: int = Field(ge=0, le=50)
    constitution_floor: int = Field(ge=0, le=50)


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
    auto_fail_saves: tuple[AbilityId, ...] = ()
    critical_if_adjacent: bool = False
    resists_all_damage: bool = False


class DouaratilRules(Table):
    general: GeneralRules
    time_units: dict[str, Annotated[int, Field(ge=1, le=10**9)]]
    time_labels: dict[str, str]
    saves: SaveRules
    difficulty: DifficultyRules
    healing: HealingRules
    # Keys added after sheet_app 0.1.0 have defaults (the shipped readings): a GM's older copy still loads.
    temporary: TemporaryRules = TemporaryRules()
    severities: dict[str, SeverityRule]
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
        if sorted(self.severities) != sorted(SEVERITIES):
            raise ValueError("severities doit décrire exactement " + " et ".join(SEVERITIES))
        if "" not in self.paths:
            raise ValueError('paths doit nommer l\'absence de voie (clé "")')
        for pool, rule in self.rests.pools.items():
            if rule.doubled_on_path is not None and rule.doubled_on_path not in self.paths:
                raise ValueError(f"rests.pools.{pool} cite une voie inconnue « {rule.doubled_on_path} »")
        return self
