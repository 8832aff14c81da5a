"""Actions only Douaratil has.

Every field a user fills carries its French ``title`` (the action form shows it, and a refusal of the
field names it).
"""

from typing import Annotated, Literal

from pydantic import Field, field_validator

from rules.actions import Action
from rules.labels import ABILITIES, ABILITY_LABELS
from rules.model import MAX_POINTS, signed
from rules.systems.douaratil.table import SEVERITIES

MAX_WOUND_ID = 100_000

WoundId = Annotated[int, Field(ge=1, le=MAX_WOUND_ID, title="Numéro de la blessure")]


def check_severity(value: str) -> str:
    if value not in SEVERITIES:
        raise ValueError("gravité inconnue : mineure ou majeure")
    return value


def check_ability(value: str) -> str:
    if value not in ABILITIES:
        known = ", ".join(ABILITY_LABELS[a] for a in ABILITIES[:-1]) + f" ou {ABILITY_LABELS[ABILITIES[-1]]}"
        raise ValueError(f"caractéristique inconnue : {known}")
    return value


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
    level: int = Field(ge=0, le=20, title="Niveau d'épuisement")

    def title(self) -> str:
        return f"Épuisement niveau {self.level}"


class AddExhaustion(Action):
    """An effect that adds (or, negative, removes) exhaustion levels."""

    kind: Literal["add_exhaustion"] = "add_exhaustion"
    levels: int = Field(ge=-20, le=20, title="Niveaux d'épuisement en plus (ou en moins)")

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
    wound_type: str = Field(max_length=40, title="Type de blessure")
    severity: str = Field("minor", max_length=20, title="Gravité")
    bleeding: bool = Field(False, title="Saigne")
    note: str = Field("", max_length=500, title="Note")

    _severity = field_validator("severity")(check_severity)

    def title(self) -> str:
        return f"Blessure {self.wound_type}"


class WoundRisk(Action):
    """A risky movement with a wound: the table's Constitution save, failure → the wound opens and bleeds
    (plaie, hémorragie: « risque d'ouverture ») or worsens (fracture: « risque d'aggravation »)."""

    kind: Literal["wound_risk"] = "wound_risk"
    wound_id: WoundId

    def title(self) -> str:
        return "Risque pour la blessure"


class SetWoundBleeding(Action):
    """Open (a failed save) or close (bandaged) a wound's bleeding."""

    kind: Literal["set_wound_bleeding"] = "set_wound_bleeding"
    wound_id: WoundId
    bleeding: bool = Field(title="Saigne")

    def title(self) -> str:
        return "Saignement ouvert" if self.bleeding else "Saignement arrêté"


class HealWound(Action):
    """Magic or special herbs heal a wound at once (``scar``: it leaves its mark)."""

    kind: Literal["heal_wound"] = "heal_wound"
    wound_id: WoundId
    scar: bool = Field(True, title="Laisse une cicatrice")

    def title(self) -> str:
        return "Guérir une blessure"


class RemoveWound(Action):
    """Remove a wound entered by mistake (no scar)."""

    kind: Literal["remove_wound"] = "remove_wound"
    wound_id: WoundId

    def title(self) -> str:
        return "Retirer une blessure"


class WillTest(Action):
    """The wound table's « test de volonté (SAG) »: a Wisdom test against the wound's DD.

    The seed gives the DD of each wound type and nothing more: the GM calls it (to act through the pain,
    for instance) and decides what a failure does; the exhaustion malus applies (« tout lancer de dés »).
    """

    kind: Literal["will_test"] = "will_test"
    wound_id: WoundId
    bonus: int = Field(0, ge=-100, le=100, title="Bonus ou malus du meneur")

    def title(self) -> str:
        return "Test de volonté (SAG)"


class AbilityCheck(Action):
    """A characteristic test (or a save) on 3d6 + modifier: the wound DD steps raise a test's DD (« Une
    blessure mineure augmente le DD de tout test de caractéristique … d'un degré »), and the exhaustion
    malus applies to both (« test de caractéristique … Jets de sauvegarde »)."""

    kind: Literal["ability_check"] = "ability_check"
    ability: str = Field(max_length=20, title="Caractéristique")
    dd: int = Field(16, ge=0, le=100, title="Difficulté (DD avant blessures)")
    bonus: int = Field(0, ge=-100, le=100, title="Bonus (compétence, aide…)")
    save: bool = Field(False, title="Jet de sauvegarde (les blessures n'en changent pas le DD)")

    _ability = field_validator("ability")(check_ability)

    def title(self) -> str:
        return "Jet de sauvegarde" if self.save else "Test de caractéristique"


class HeroicSurvival(Action):
    """A hero's « death » that the story turns into a grave wound: the seed's listed consequences.

    The seed gives no progression table: the PA/PM/PF/PH of the lost level and the minimum XP of
    the new level are given by the player from their class table. Every field is required: a default
    would silently wipe what the player did not type (5,000 XP → 0).
    """

    kind: Literal["heroic_survival"] = "heroic_survival"
    action_points_lost: int = Field(ge=0, le=MAX_POINTS, title="PA maximum perdus avec le niveau")
    magic_lost: int = Field(ge=0, le=MAX_POINTS, title="PM maximum perdus")
    faith_lost: int = Field(ge=0, le=MAX_POINTS, title="PF maximum perdus")
    honour_lost: int = Field(ge=0, le=MAX_POINTS, title="PH maximum perdus")
    xp_minimum: int = Field(ge=0, le=100_000_000, title="Expérience minimum du nouveau niveau")

    def title(self) -> str:
        return "Survie héroïque"
