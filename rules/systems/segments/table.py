"""Segments rule table: the pydantic schema of ``resources/rulesets/segments.toml``."""

from __future__ import annotations

import functools
import re
from typing import Any, Literal

from pydantic import Field, PositiveInt, field_validator, model_validator

from rules.ruleset import ConditionGroupTable, ConditionTable, HealthStateTable, Table, check_condition_references

SYSTEM_ID = "segments"


Dice = tuple[int, int]
ArmourKind = Literal["legere", "intermediaire", "lourde"]
LightLevel = Literal["vive", "faible", "obscurite"]
ExposureKind = Literal["froid", "chaleur"]
Need = Literal["food", "water", "sleep"]


def _check_dice(value: Dice) -> Dice:
    count, sides = value
    if not (1 <= count <= 100 and 2 <= sides <= 1000):
        raise ValueError("des dés s'écrivent [nombre, faces], par exemple [1, 6]")
    return value


class GeneralRules(Table):
    check_dice: Dice
    square_m: float = Field(gt=0)

    _dice = field_validator("check_dice")(_check_dice)


class HealthRules(Table):
    wounded_fraction: tuple[int, int]

    @field_validator("wounded_fraction")
    @classmethod
    def _fraction(cls, value: tuple[int, int]) -> tuple[int, int]:
        num, den = value
        if den < 1 or not 0 <= num <= den:
            raise ValueError("une fraction [numérateur, dénominateur] entre 0 et 1, par exemple [1, 2]")
        return value


class DyingRules(Table):
    loss_per_segment: int = Field(ge=0, le=1000)
    self_stabilise_dd: int
    auto_self_stabilise: bool
    damage_breaks_stabilisation: bool


class NonlethalRules(Table):
    recovery_per_hour_per_level: int = Field(ge=0)
    heal_removes_nonlethal: bool


class ReductionRules(Table):
    applies_to_energy: bool
    all_stack: bool
    shield: int = Field(ge=0)
    natural_armour_step: int = Field(ge=1)
    natural_armour_per_step: int = Field(ge=0)


class ArmourRule(Table):
    label: str
    reduction: int = Field(ge=0)


class DamageTypeRule(Table):
    label: str
    energy: bool = False


_TYPE_ID = r"^[^\W\d_][^\W\d]*(?: [^\W\d_][^\W\d]*)*$"


class FallRules(Table):
    metres_per_die: int = Field(ge=1)
    die: Dice
    max_dice: int = Field(ge=0, le=1000)
    agility_metres: int = Field(ge=0)
    damage_type: str
    lands_prone: bool
    # S12: false, the cap first and then the successful Agilité roll takes off the first slice (100 m: 19d6);
    # true, the roll takes off the first slice before the cap (from 63 m it changes nothing).
    agility_before_cap: bool

    _dice = field_validator("die")(_check_dice)


class SuffocationRules(Table):
    turns_per_constitution: int = Field(ge=1)
    death_after_turns: int = Field(ge=0)


class FireRules(Table):
    damage: Dice
    damage_type: str
    extinguish_dd: int

    _dice = field_validator("damage")(_check_dice)


class ExposureRule(Table):
    label: str
    damage: Dice
    damage_every_hours: int = Field(ge=1)
    damage_type: str
    fatigue_every_hours: int = Field(ge=1)

    _dice = field_validator("damage")(_check_dice)


class PrivationRule(Table):
    label: str
    hours: int = Field(ge=1)


class FatigueRules(Table):
    levels: tuple[str, ...] = Field(min_length=1, max_length=20)


class RestRules(Table):
    min_hours: int = Field(ge=0)
    fatigue_steps: int = Field(ge=0)
    needs_food_and_water: bool
    heal_per_level: int = Field(ge=0)


class SurpriseRules(Table):
    default_segments: int = Field(ge=0, le=100)
    # How many turns Surpris lasts from when it is set (S16); 0: until the GM takes it off.
    lasts_turns: int = Field(ge=0, le=100)


class LightRule(Table):
    label: str
    effect: str
    sight_rolls: int = Field(0, le=0)
    blinds: str | None = None
    darkvision_as: LightLevel | None = None


class SenseRule(Table):
    label: str
    illusions: str


class HealthState(HealthStateTable):
    note: str = ""


class ConditionGroup(ConditionGroupTable):
    note: str = ""


class ConditionRule(ConditionTable):
    """A state and its numbers (« 7.3 Les états »)."""

    armour_class: int = 0
    reflex: int = 0
    attack: int = 0
    all_rolls: int = Field(0, le=0)
    speed_squares: int = 0
    turn_start: int = 0
    speed: Literal["zero", "half"] | None = None
    movement_cost: int = Field(1, ge=1, le=10)
    sense: str | None = None
    no_immediate_actions: bool = False
    no_verbal_spells: bool = False
    cannot_aim: bool = False
    no_ranged_weapons: bool = False
    no_tracking: bool = False
    loses_window: bool = False
    gm_controls: bool = False
    cannot_approach_source: bool = False
    stand_up_segments: int | None = Field(None, ge=0)
    drop_weapon_dd: int | None = None
    hides_points: bool = False
    surprise: bool = False


HEALTH_STATE_IDS = ("en_forme", "blesse", "chancelant", "inconscient", "mourant", "stabilise", "mort")


class SegmentsRules(Table):
    general: GeneralRules
    time_units: dict[str, PositiveInt]
    time_labels: dict[str, str]
    health: HealthRules
    dying: DyingRules
    nonlethal: NonlethalRules
    reduction: ReductionRules
    armours: dict[ArmourKind, ArmourRule]
    damage_types: dict[str, DamageTypeRule]
    fall: FallRules
    suffocation: SuffocationRules
    fire: FireRules
    exposure: dict[ExposureKind, ExposureRule]
    privations: dict[Need, PrivationRule]
    fatigue: FatigueRules
    rest: RestRules
    surprise: SurpriseRules
    light: dict[LightLevel, LightRule]
    senses: dict[str, SenseRule]
    health_states: dict[str, HealthState]
    condition_groups: dict[str, ConditionGroup]
    conditions: dict[str, ConditionRule]

    @model_validator(mode="after")
    def _references(self) -> SegmentsRules:
        for unit in ("segment", "turn", "hour", "day"):
            if self.time_units.get(unit, 0) < 1:
                raise ValueError(f"time_units.{unit} doit exister et valoir au moins 1 seconde")
        if self.time_units["turn"] % self.time_units["segment"]:
            raise ValueError("time_units.turn doit être un multiple de time_units.segment")
        for needed in ("legere", "intermediaire", "lourde"):
            if needed not in self.armours:
                raise ValueError(f"armours.{needed} manque")
        for level in ("vive", "faible", "obscurite"):
            if level not in self.light:
                raise ValueError(f"light.{level} manque")
        for kind in ("froid", "chaleur"):
            if kind not in self.exposure:
                raise ValueError(f"exposure.{kind} manque")
        for need in ("food", "water", "sleep"):
            if need not in self.privations:
                raise ValueError(f"privations.{need} manque")
        for state in HEALTH_STATE_IDS:
            if state not in self.health_states:
                raise ValueError(f"l'état de santé « {state} » manque dans health_states")
        for tid in self.damage_types:
            if tid != tid.strip().lower() or not re.match(_TYPE_ID, tid):
                raise ValueError(f"damage_types : « {tid} » doit s'écrire en minuscules, en mots séparés d'une espace")
        for where, dtype in (
            ("fall.damage_type", self.fall.damage_type),
            ("fire.damage_type", self.fire.damage_type),
            *((f"exposure.{k}.damage_type", e.damage_type) for k, e in self.exposure.items()),
        ):
            if dtype not in self.damage_types:
                raise ValueError(f"{where} cite un type de dégâts inconnu « {dtype} »")
        check_condition_references(self.conditions, self.condition_groups, self.health_states)
        for cid, cond in self.conditions.items():
            if cond.sense is not None and cond.sense not in self.senses:
                raise ValueError(f"l'état « {cid} » cite un sens inconnu « {cond.sense} »")
        for cid in self.fatigue.levels:
            if cid not in self.conditions:
                raise ValueError(f"fatigue.levels cite un état inconnu « {cid} »")
        for lid, rule in self.light.items():
            if rule.blinds is not None and rule.blinds not in self.conditions:
                raise ValueError(f"light.{lid}.blinds cite un état inconnu « {rule.blinds} »")
        return self

    @property
    def segments_per_turn(self) -> int:
        return self.time_units["turn"] // self.time_units["segment"]

    @functools.cached_property
    def memo(self) -> Memo:
        """What the rules compute again and again from this table and a few fields of a sheet (per table)."""
        return Memo(self)


class Memo:
    """Results of pure functions of this table and a few sheet fields, kept so that ``apply`` does not redo
    them for every action (the effective states of a sheet, its reductions against a hit's types…)."""

    LIMIT = 4096

    def __init__(self, rs: SegmentsRules) -> None:
        self.hides = frozenset(c for c, r in rs.conditions.items() if r.hides_points)
        self.drops = frozenset(c for c, r in rs.conditions.items() if r.drop_weapon_dd is not None)
        # The states that bring a hiding (or weapon-dropping) state along, themselves or through ``implies``;
        # when only set states can (not a fatigue degree, not the light), a glance at the set ones answers.
        self.hide_roots = self._roots(rs, self.hides)
        self.drop_roots = self._roots(rs, self.drops)
        derived = {*rs.fatigue.levels, *(r.blinds for r in rs.light.values() if r.blinds is not None)}
        self.hides_only_when_set = derived.isdisjoint(self.hide_roots)
        self.drops_only_when_set = derived.isdisjoint(self.drop_roots)
        self.energies = frozenset(k for k, v in rs.damage_types.items() if v.energy)
        self.types = frozenset(rs.damage_types)
        self.surprises = frozenset(c for c, r in rs.conditions.items() if r.surprise)
        self._values: dict[tuple[Any, ...], Any] = {}

    @staticmethod
    def _roots(rs: SegmentsRules, targets: frozenset[str]) -> frozenset[str]:
        roots = set()
        for cid in rs.conditions:
            seen, pending = {cid}, [cid]
            while pending:
                for implied in rs.conditions[pending.pop()].implies:
                    if implied not in seen:
                        seen.add(implied)
                        pending.append(implied)
            if not targets.isdisjoint(seen):
                roots.add(cid)
        return frozenset(roots)

    def get(self, key: tuple[Any, ...]) -> Any:
        return self._values.get(key)

    def put(self, key: tuple[Any, ...], value: Any) -> Any:
        if len(self._values) >= self.LIMIT:
            self._values.clear()
        self._values[key] = value
        return value
