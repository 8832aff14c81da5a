"""Labels shared by every system (French, as sheets print them)."""

from __future__ import annotations

from typing import Literal

AbilityId = Literal["strength", "dexterity", "constitution", "intelligence", "wisdom", "charisma"]
ABILITIES: tuple[AbilityId, ...] = ("strength", "dexterity", "constitution", "intelligence", "wisdom", "charisma")
ABILITY_LABELS: dict[str, str] = {
    "strength": "Force",
    "dexterity": "Dextérité",
    "constitution": "Constitution",
    "intelligence": "Intelligence",
    "wisdom": "Sagesse",
    "charisma": "Charisme",
}
