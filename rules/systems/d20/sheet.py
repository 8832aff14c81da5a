"""d20 sheet: the stored fields of a character (seed 001) and their French labels."""

from typing import Annotated, Any, Literal

from pydantic import Field, field_validator, model_validator

from rules.errors import FIELD_LABELS
from rules.labels import ABILITIES, ABILITY_LABELS
from rules.model import (
    MAX_CLOCK,
    MAX_POINTS,
    Frozen,
    SheetBase,
    of,
)

SYSTEM_ID = "d20"
Recovery = Literal["", "assisted", "alone", "alone_awake", "awake"]
# How each recovery reads on the sheet, worded without gender (« Brenna », « Aldric » alike).
RECOVERY_LABELS = {
    "": "",
    "assisted": "stabilisation avec assistance, sans connaissance",
    "alone": "stabilisation sans assistance, sans connaissance",
    "alone_awake": "réveil sans assistance, la guérison n'a pas commencé",
    "awake": "réveil, guérison au rythme habituel",
}
MAX_SCORE = 99
MAX_WOUNDS = 200
MAX_WOUND_ID = 100_000
MAX_COUNT = 1000  # resurrections and failed quick attempts a sheet records


# Every stored field as the sheet names it, for the journal of ``Edit``, the form and the checks of
# ``check.py`` (the facade's ``FIELD_LABELS`` is shared by every system; these are d20's own words).
SHEET_LABELS: dict[str, str] = {
    "system": "Système",
    "name": "Nom",
    "player": "Joueur",
    "level": "Niveau",
    "notes": "Notes",
    "is_npc": "PNJ",
    "clock": "Horloge de la fiche",
    **{a: ABILITY_LABELS[a] for a in ABILITIES},
    **{f"{a}_damage": f"Affaiblissement {of(ABILITY_LABELS[a])}" for a in ABILITIES},
    **{f"{a}_drain": f"Diminution permanente {of(ABILITY_LABELS[a])}" for a in ABILITIES},
    "constitution_bonus": "Augmentation de Constitution",
    "fortitude": "Vigueur (bonus au jet)",
    "base_maximum": "PV maximum",
    "current": "PV",
    "temporary": "PV temporaires",
    "temporary_noted": "PV notés avant les PV temporaires",
    "nonlethal": "Dégâts non létaux",
    "recovery": "Récupération",
    "dying_roll_at": "Prochain jet du mourant",
    "recovery_roll_at": "Prochain jet de récupération",
    "nonlethal_heal_at": "Prochaine récupération des dégâts non létaux",
    "last_rest_at": "Dernière guérison naturelle",
    "dead": "Mort",
    "death_cause": "Cause de la mort",
    "conditions": "États",
    "wounds": "Blessures localisées",
    "weapon_lethal": "Arme en main conçue pour des dégâts létaux",
    "weapon_melee": "Arme de corps à corps",
    "strike_nonlethal": "Frapper pour des dégâts non létaux",
    "resurrections": "Résurrections réussies",
    "quick_failures": "Résurrections rapides ratées",
    "quick_blocked": "Résurrection rapide interdite",
    "soul_lost": "Âme perdue",
}


def _lower_first(label: str) -> str:
    """« Vigueur (bonus au jet) » → « vigueur (bonus au jet) », « PV notés… » kept as is."""
    return label if label[1:2].isupper() else label[:1].lower() + label[1:]


# The same labels for validation messages (« … » : doit être…), shared with the other systems' fields.
for _key, _label in {
    **{k: _lower_first(v) for k, v in SHEET_LABELS.items() if k not in FIELD_LABELS},
    "body_part": "partie du corps",
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
    dying_roll_at: int | None = Field(None, ge=0, le=MAX_CLOCK)
    recovery_roll_at: int | None = Field(None, ge=0, le=MAX_CLOCK)
    nonlethal_heal_at: int | None = Field(None, ge=0, le=MAX_CLOCK)
    # When the last night or full day of rest gave its healing (one a day, docs/rules-notes.md T14).
    last_rest_at: int | None = Field(None, ge=0, le=MAX_CLOCK)
    dead: bool = False
    death_cause: str = Field("", max_length=200)
    conditions: tuple[Annotated[str, Field(max_length=60)], ...] = Field((), max_length=50)
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

    @field_validator("recovery", mode="before")
    @classmethod
    def _known_recovery(cls, value: Any) -> Any:
        if isinstance(value, str) and value not in RECOVERY_LABELS:
            known = " ; ".join(label for label in RECOVERY_LABELS.values() if label)
            raise ValueError(f"récupération inconnue (attendu : aucune ; {known})")
        return value

    @model_validator(mode="after")
    def _coherent(self) -> "D20Sheet":
        # What needs the rule table (the exact maximum, the ids of states and body parts…) is checked by
        # ``check.check_sheet`` when a sheet is read, after an edit and (in the tests) after every action.
        ids = [w.id for w in self.wounds]
        if len(ids) != len(set(ids)):
            raise ValueError("deux blessures localisées portent le même numéro")
        return self


def _points(value: int) -> int:
    """A PV value kept within what a sheet can store (handlers never re-validate, so they clamp)."""
    return max(-MAX_POINTS, min(MAX_POINTS, value))
