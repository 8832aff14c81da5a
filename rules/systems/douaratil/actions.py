"""Actions only Douaratil has."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from rules.actions import (
    Action,
)
from rules.model import (
    MAX_POINTS,
    signed,
)


class DeathSave(Action):
    """Jet de sauvegarde contre la mort: 3d6, 10 or more succeeds."""

    kind: Literal["death_save"] = "death_save"

    def title(self) -> str:
        return "Jet contre la mort"


class WakeSave(Action):
    """The unconscious creature's CON save DD 16 of the round, to wake up."""

    kind: Literal["wake_save"] = "wake_save"

    def title(self) -> str:
        return "JS de Constitution pour se réveiller"


class SetExhaustion(Action):
    """Set the exhaustion level (0 = none)."""

    kind: Literal["set_exhaustion"] = "set_exhaustion"
    level: int = Field(ge=0, le=20)

    def title(self) -> str:
        return f"Épuisement niveau {self.level}"


class AddExhaustion(Action):
    """An effect that adds (or, negative, removes) exhaustion levels."""

    kind: Literal["add_exhaustion"] = "add_exhaustion"
    levels: int = Field(ge=-20, le=20)

    def title(self) -> str:
        return f"Épuisement {signed(self.levels)}"


class SpendActionDie(Action):
    """During a short rest: spend one action die (die + CON modifier regained)."""

    kind: Literal["spend_action_die"] = "spend_action_die"

    def title(self) -> str:
        return "Dé d'action"


class AddWound(Action):
    """A critical wound from the critical-hit table."""

    kind: Literal["add_wound"] = "add_wound"
    wound_type: str = Field(max_length=40)
    severity: Literal["minor", "major"] = "minor"
    bleeding: bool = False
    note: str = Field("", max_length=500)

    def title(self) -> str:
        return f"Blessure {self.wound_type}"


class WoundRisk(Action):
    """A sudden movement with a wound that may reopen: CON save, failure → it bleeds."""

    kind: Literal["wound_risk"] = "wound_risk"
    wound_id: int

    def title(self) -> str:
        return "Risque d'ouverture"


class SetWoundBleeding(Action):
    """Open (a failed save) or close (bandaged) a wound's bleeding."""

    kind: Literal["set_wound_bleeding"] = "set_wound_bleeding"
    wound_id: int
    bleeding: bool

    def title(self) -> str:
        return "Saignement ouvert" if self.bleeding else "Saignement arrêté"


class HealWound(Action):
    """Magic or special herbs heal a wound at once (``scar``: it leaves its mark)."""

    kind: Literal["heal_wound"] = "heal_wound"
    wound_id: int
    scar: bool = True

    def title(self) -> str:
        return "Guérir une blessure"


class RemoveWound(Action):
    """Remove a wound entered by mistake (no scar)."""

    kind: Literal["remove_wound"] = "remove_wound"
    wound_id: int

    def title(self) -> str:
        return "Retirer une blessure"


class HeroicSurvival(Action):
    """A hero's « death » that the story turns into a grave wound: the seed's listed consequences.

    The seed gives no progression table: the PA/PM/PF/PH of the lost level and the minimum XP of
    the new level are given by the player from their class table.
    """

    kind: Literal["heroic_survival"] = "heroic_survival"
    action_points_lost: int = Field(0, ge=0, le=MAX_POINTS)
    magic_lost: int = Field(0, ge=0, le=MAX_POINTS)
    faith_lost: int = Field(0, ge=0, le=MAX_POINTS)
    honour_lost: int = Field(0, ge=0, le=MAX_POINTS)
    xp_minimum: int = Field(0, ge=0, le=100_000_000)

    def title(self) -> str:
        return "Survie héroïque"
