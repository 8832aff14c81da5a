"""The Sévérité sheet: wounds, the Trauma gauge they fill, Ténacité, protections."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, field_validator, model_validator

from rules.errors import FIELD_LABELS
from rules.model import Frozen, SheetBase

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
