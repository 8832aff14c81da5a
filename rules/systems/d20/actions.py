"""d20 actions of its own (beyond the common ones of ``rules.actions``)."""

from typing import Literal

from pydantic import Field, field_validator

from rules.actions import (
    Action,
    Amount,
    check_amount,
)
from rules.labels import ABILITY_LABELS, AbilityId
from rules.model import (
    Frozen,
    of,
)
from rules.systems.d20.sheet import MAX_SCORE
from rules.systems.d20.table import Procedure


class SetConstitutionBonus(Action):
    """« une augmentation, même temporaire, de la valeur de Constitution »: set it (0 when it ends).

    The PV follow at once (both ways), which a plain ``Edit`` of the field cannot do when it lowers them.
    """

    kind: Literal["set_constitution_bonus"] = "set_constitution_bonus"
    level: int = Field(ge=0, le=50, title="Augmentation de Constitution")

    def title(self) -> str:
        return f"Augmentation de Constitution +{self.level}" if self.level else "Fin de l'augmentation de Constitution"


class FullDayRest(Action):
    """Journée complète de repos: « reste au lit ou se repose pendant toute une journée »."""

    kind: Literal["full_day_rest"] = "full_day_rest"
    interrupted: bool = False

    def title(self) -> str:
        return "Journée complète de repos"


class StrenuousAction(Action):
    """Hors de combat: a simple (or other tiring) action costs 1 PV once done, unless it healed him.

    ``healing``: what the action itself healed (a potion drunk, a spell cast on himself).
    """

    kind: Literal["strenuous_action"] = "strenuous_action"
    healing: Amount = Field(0, title="Soins apportés par l'action (0 si aucun)")
    magical: bool = Field(True, title="Soins magiques (sort, potion)")

    _amount = field_validator("healing", mode="before")(check_amount)

    def title(self) -> str:
        return "Action simple hors de combat"


class AddLocalWound(Action):
    """A localised wound without damage to record (the damage itself goes through ``Damage.body_part``)."""

    kind: Literal["add_local_wound"] = "add_local_wound"
    body_part: str = Field(max_length=60, title="Partie du corps blessée")
    note: str = Field("", max_length=500, title="Note")

    def title(self) -> str:
        # The body part's label from the shipped table (a title has no table at hand); the id if unknown.
        from rules.systems import REGISTRY

        parts: dict[str, str] = REGISTRY["d20"].ruleset().body_parts if "d20" in REGISTRY else {}
        return f"Blessure localisée ({parts.get(self.body_part, self.body_part)})"


class HealLocalWound(Action):
    """A localised wound is healed (or was entered by mistake)."""

    kind: Literal["heal_local_wound"] = "heal_local_wound"
    wound_id: int = Field(ge=1, title="Numéro de la blessure")

    def title(self) -> str:
        return "Guérir une blessure localisée"


class AbilityDamage(Action):
    """« affaiblissement temporaire » (``drain`` False) or « diminution permanente » (``drain`` True)."""

    kind: Literal["ability_damage"] = "ability_damage"
    ability: AbilityId = Field(title="Caractéristique")
    points: int = Field(ge=1, le=MAX_SCORE, title="Points")
    drain: bool = Field(False, title="Diminution permanente")

    def title(self) -> str:
        what = "Diminution" if self.drain else "Affaiblissement"
        return f"{what} {of(ABILITY_LABELS[self.ability])} {self.points}"


class RestoreAbility(Action):
    """Magic (or a GM's correction) gives back points of ability damage or drain."""

    kind: Literal["restore_ability"] = "restore_ability"
    ability: AbilityId = Field(title="Caractéristique")
    points: int = Field(ge=1, le=MAX_SCORE, title="Points")
    drain: bool = Field(False, title="Diminution permanente")

    def title(self) -> str:
        return f"Restauration {of(ABILITY_LABELS[self.ability])} {self.points}"


class ResurrectionContribution(Frozen):
    """A party member's skill test for the ritual, rolled here: d20 + ``modifier`` against ``dd``."""

    label: str = Field("", max_length=120)
    modifier: int = Field(0, ge=-100, le=100)
    dd: int = Field(15, ge=0, le=100)


class Resurrection(Action):
    """Bring a dead character back: ritual (contributions, final roll), quick spell, or a bypass spell.

    Contributions are either rolled here (``contributions``) or were rolled at the table and only their
    results are given (``contribution_successes`` / ``contribution_failures``).
    """

    kind: Literal["resurrection"] = "resurrection"
    procedure: Procedure = Field("ritual", title="Procédé")
    contributions: tuple[ResurrectionContribution, ...] = Field((), max_length=10)
    contribution_successes: int = Field(0, ge=0, le=10, title="Contributions réussies (déjà lancées)")
    contribution_failures: int = Field(0, ge=0, le=10, title="Contributions ratées (déjà lancées)")
    caster_level: int = Field(0, ge=0, le=100, title="Niveau de lanceur de sorts (résurrection rapide)")
    consents: bool = Field(True, title="L'âme consent à revenir")

    def title(self) -> str:
        return "Résurrection"
