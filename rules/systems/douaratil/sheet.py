"""The Douaratil sheet (stored fields) and what follows from it without any roll."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator, model_validator

from rules.model import (
    MAX_POINTS,
    Frozen,
    SheetBase,
    of,
)
from rules.systems.douaratil.table import DouaratilRules


class Pool(Frozen):
    """A resource with a stored maximum (PM, PF, PH, SAM)."""

    current: int = Field(0, ge=0, le=MAX_POINTS)
    base_maximum: int = Field(0, ge=0, le=MAX_POINTS)

    @model_validator(mode="after")
    def _within(self) -> Pool:
        if self.current > self.base_maximum:
            raise ValueError(f"{self.current} dépasse le maximum {self.base_maximum}")
        return self


class Wound(Frozen):
    """A critical wound (blessure mineure ou majeure) from the critical-hit table."""

    id: int = Field(ge=1)
    type: str = Field(max_length=40)
    severity: Literal["minor", "major"] = "minor"
    # Long rests taken since the wound; healing tests start once it reaches the type's delay.
    rests: int = Field(0, ge=0)
    bleeding: bool = False
    note: str = Field("", max_length=500)


class Scar(Frozen):
    """The mark a healed wound leaves (« le souvenir de sa marque »)."""

    type: str = Field(max_length=40)
    severity: Literal["minor", "major"] = "minor"
    note: str = Field("", max_length=500)


class DouaratilSheet(SheetBase):
    """A Douaratil character: points d'action (PA) and everything that happens to the body."""

    system: Literal["douaratil"] = "douaratil"
    xp: int = Field(0, ge=0, le=100_000_000)
    path: Literal["", "magie", "armes"] = ""
    strength: int = Field(10, ge=0, le=50)
    dexterity: int = Field(10, ge=0, le=50)
    constitution: int = Field(10, ge=0, le=50)
    intelligence: int = Field(10, ge=0, le=50)
    wisdom: int = Field(10, ge=0, le=50)
    charisma: int = Field(10, ge=0, le=50)
    # Points d'action: ``current`` is clamped to the effective maximum by every action.
    current: int = Field(10, ge=0, le=MAX_POINTS)
    base_maximum: int = Field(10, ge=0, le=MAX_POINTS)
    temporary: int = Field(0, ge=0, le=MAX_POINTS)
    magic: Pool = Pool()
    faith: Pool = Pool()
    honour: Pool = Pool()
    sanity: Pool = Pool()
    action_die: int = Field(8, ge=2, le=100)
    action_dice_spent: int = Field(0, ge=0)
    speed_m: int = Field(9, ge=0, le=1000)
    exhaustion: int = Field(0, ge=0, le=20)
    conditions: tuple[str, ...] = ()
    unconscious_rounds: int = Field(0, ge=0, le=1000)
    death_successes: int = Field(0, ge=0, le=10)
    death_failures: int = Field(0, ge=0, le=10)
    stabilised: bool = False
    # Seconds left before a stabilised creature regains 1 PA on its own.
    wake_in: int | None = Field(None, ge=0)
    dead: bool = False
    # « La plupart des Narrateurs font mourir les adversaires dès qu'ils atteignent 0 point d'action »
    dies_at_zero: bool = False
    # … « ou il peut la laisser agir librement pendant 1d6 rounds »
    dies_after_rounds: bool = False
    death_in_rounds: int | None = Field(None, ge=0, le=1000)
    critical_threshold: int | None = Field(None, ge=0, le=MAX_POINTS)
    wounds: tuple[Wound, ...] = Field((), max_length=200)
    scars: tuple[Scar, ...] = Field((), max_length=200)
    last_long_rest_end: int | None = Field(None, ge=0)
    short_rest_open: bool = False
    constitution_priority: bool = False
    heroic_survivals: int = Field(0, ge=0, le=1000)

    @field_validator("conditions")
    @classmethod
    def _sorted_unique(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(sorted(set(value)))

    @model_validator(mode="after")
    def _coherent(self) -> DouaratilSheet:
        if self.current > self.base_maximum:
            raise ValueError(f"les points d'action actuels ({self.current}) dépassent le maximum ({self.base_maximum})")
        if self.action_dice_spent > self.level:
            raise ValueError(f"{self.action_dice_spent} dés d'action dépensés pour une réserve de {self.level}")
        ids = [w.id for w in self.wounds]
        if len(ids) != len(set(ids)):
            raise ValueError("deux blessures portent le même numéro")
        return self


def ability_modifier(score: int, rs: DouaratilRules) -> int:
    return (score - rs.general.ability_base) // rs.general.ability_step


def exhaustion_penalty(sheet: DouaratilSheet, rs: DouaratilRules) -> int:
    """The (negative) modifier exhaustion gives to every roll."""
    return -sheet.exhaustion * rs.exhaustion.roll_penalty_per_level


def maximum_reduction(sheet: DouaratilSheet, rs: DouaratilRules) -> int:
    return sheet.exhaustion * rs.exhaustion.maximum_per_level


def effective_maximum(sheet: DouaratilSheet, rs: DouaratilRules) -> int:
    """« le malus impacte aussi le maximum de chaque catégorie » (000 § Fatigue et épuisement)."""
    return max(0, sheet.base_maximum - maximum_reduction(sheet, rs))


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
