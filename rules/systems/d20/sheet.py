"""d20 sheet: the stored fields of a character (seed 001) and their French labels."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, field_validator, model_validator

from rules.errors import FIELD_LABELS
from rules.labels import ABILITIES, ABILITY_LABELS
from rules.model import (
    MAX_POINTS,
    Frozen,
    SheetBase,
    of,
)

SYSTEM_ID = "d20"
Recovery = Literal["", "assisted", "alone", "alone_awake", "awake"]
RECOVERY_LABELS = {
    "": "",
    "assisted": "stabilisé avec assistance, inconscient",
    "alone": "stabilisé seul, inconscient",
    "alone_awake": "éveillé mais seul, ne récupère pas encore",
    "awake": "éveillé, récupère normalement",
}
MAX_SCORE = 99
MAX_WOUNDS = 200
MAX_WOUND_ID = 100_000
MAX_COUNT = 1000  # resurrections and failed quick attempts a sheet records


# French labels of this system's stored fields, for the journal of ``Edit`` and validation messages.
for _key, _label in {
    "constitution_bonus": "augmentation de Constitution",
    "fortitude": "Vigueur",
    "temporary_noted": "PV notés avant les points temporaires",
    "recovery": "récupération",
    "dead": "mort",
    "death_cause": "cause de la mort",
    "weapon_lethal": "arme létale",
    "weapon_melee": "arme de corps à corps",
    "strike_nonlethal": "frappe pour des dégâts non létaux",
    "resurrections": "résurrections réussies",
    "quick_failures": "résurrections rapides ratées",
    "quick_blocked": "résurrection rapide interdite",
    "soul_lost": "âme perdue",
    "body_part": "partie du corps",
    **{f"{a}_damage": f"affaiblissement {of(ABILITY_LABELS[a])}" for a in ABILITIES},
    **{f"{a}_drain": f"diminution permanente {of(ABILITY_LABELS[a])}" for a in ABILITIES},
}.items():
    FIELD_LABELS.setdefault(_key, _label)


class LocalWound(Frozen):
    """A localised wound (« ses mains dans les flammes », « une chausse-trappe », « à l'œil par une flèche »)."""

    id: int = Field(ge=1, le=MAX_WOUND_ID)
    body_part: str = Field(min_length=1, max_length=60)
    note: str = Field("", max_length=500)


class D20Sheet(SheetBase):
    """A d20 character: points de vie (PV), nonlethal damage, characteristics and what befalls the body.

    ``current`` is the real PV (it may be negative); ``temporary`` the temporary PV, lost first;
    ``temporary_noted`` the PV noted when they were granted. ``recovery`` records how a character below
    0 PV was stabilised ("" = not stabilised: dying). The ``*_at`` fields are the clock (seconds) of the
    next timed roll. The maximum is derived: ``base_maximum`` plus what a Constitution change adds.
    """

    system: Literal["d20"] = "d20"
    strength: int = Field(10, ge=0, le=MAX_SCORE)
    dexterity: int = Field(10, ge=0, le=MAX_SCORE)
    constitution: int = Field(10, ge=0, le=MAX_SCORE)
    intelligence: int = Field(10, ge=0, le=MAX_SCORE)
    wisdom: int = Field(10, ge=0, le=MAX_SCORE)
    charisma: int = Field(10, ge=0, le=MAX_SCORE)
    # « affaiblissement temporaire » (heals with rest) and « diminution permanente » (does not).
    strength_damage: int = Field(0, ge=0, le=MAX_SCORE)
    dexterity_damage: int = Field(0, ge=0, le=MAX_SCORE)
    constitution_damage: int = Field(0, ge=0, le=MAX_SCORE)
    intelligence_damage: int = Field(0, ge=0, le=MAX_SCORE)
    wisdom_damage: int = Field(0, ge=0, le=MAX_SCORE)
    charisma_damage: int = Field(0, ge=0, le=MAX_SCORE)
    strength_drain: int = Field(0, ge=0, le=MAX_SCORE)
    dexterity_drain: int = Field(0, ge=0, le=MAX_SCORE)
    constitution_drain: int = Field(0, ge=0, le=MAX_SCORE)
    intelligence_drain: int = Field(0, ge=0, le=MAX_SCORE)
    wisdom_drain: int = Field(0, ge=0, le=MAX_SCORE)
    charisma_drain: int = Field(0, ge=0, le=MAX_SCORE)
    # « une augmentation, même temporaire, de la valeur de Constitution »
    constitution_bonus: int = Field(0, ge=0, le=50)
    fortitude: int = Field(0, ge=-50, le=100)
    base_maximum: int = Field(10, ge=1, le=MAX_POINTS)
    current: int = Field(10, ge=-MAX_POINTS, le=MAX_POINTS)
    temporary: int = Field(0, ge=0, le=MAX_POINTS)
    temporary_noted: int | None = Field(None, ge=-MAX_POINTS, le=MAX_POINTS)
    nonlethal: int = Field(0, ge=0, le=MAX_POINTS)
    recovery: Recovery = ""
    dying_roll_at: int | None = Field(None, ge=0)
    recovery_roll_at: int | None = Field(None, ge=0)
    nonlethal_heal_at: int | None = Field(None, ge=0)
    dead: bool = False
    death_cause: str = Field("", max_length=200)
    conditions: tuple[str, ...] = Field((), max_length=50)
    wounds: tuple[LocalWound, ...] = Field((), max_length=MAX_WOUNDS)
    # The weapon in hand and how it is used (« malus de –4 » when they do not match).
    weapon_lethal: bool = True
    weapon_melee: bool = True
    strike_nonlethal: bool = False
    # The resurrection test: earlier successful resurrections, failed quick attempts, and their effects.
    resurrections: int = Field(0, ge=0, le=MAX_COUNT)
    quick_failures: int = Field(0, ge=0, le=MAX_COUNT)
    quick_blocked: bool = False
    soul_lost: bool = False

    @model_validator(mode="before")
    @classmethod
    def _full_by_default(cls, data: Any) -> Any:
        # A new character given only its maximum starts unhurt.
        if isinstance(data, dict) and "current" not in data and "base_maximum" in data:
            return {**data, "current": data["base_maximum"]}
        return data

    @field_validator("conditions")
    @classmethod
    def _sorted_unique(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(sorted(set(value)))

    @model_validator(mode="after")
    def _coherent(self) -> D20Sheet:
        # The exact maximum depends on the rule table (a GM's copy may differ), so this bound holds for any
        # table (a modifier step of at least 1): the CON increase adds at most ``level × bonus`` PV.
        # Actions and edits keep ``current`` below the exact maximum.
        bound = self.base_maximum + self.level * self.constitution_bonus
        if self.current > bound:
            extra = " + l'augmentation de Constitution" if self.constitution_bonus else ""
            raise ValueError(
                f"les points de vie actuels ({self.current}) dépassent le maximum ({self.base_maximum}{extra}) ; "
                "pour réduire l'augmentation de Constitution, utilisez l'action « Augmentation de Constitution »"
            )
        ids = [w.id for w in self.wounds]
        if len(ids) != len(set(ids)):
            raise ValueError("deux blessures localisées portent le même numéro")
        return self


def _points(value: int) -> int:
    """A PV value kept within what a sheet can store (handlers never re-validate, so they clamp)."""
    return max(-MAX_POINTS, min(MAX_POINTS, value))
