"""Sévérité's own actions (the common ones live in ``rules.actions``)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from rules.actions import Action
from rules.systems.severite.sheet import Id


class Strike(Action):
    """An attack that hit: Puissance (from the Opposition margin) against Résistance → Sévérité.

    ``margin``: the attack's « différence d'Opposition ». ``damage_modifier``: the weapon's
    Modificateur de dégâts (or the Modificateur de maîtrise of a spell). ``vital_modifier``: the
    extra modifier of a strike on a vital zone (``None``: the table's default).
    Dice, in order: Puissance D4, the grade's D8s, Résistance D4, then the survival D20 or the
    Ténacité dice if the wound calls for them.
    """

    kind: Literal["strike"] = "strike"
    margin: int = Field(ge=0, le=1000)
    damage_type: Id
    body_part: Id
    damage_modifier: int = Field(0, ge=-50, le=50)
    vital_modifier: int | None = Field(None, ge=0, le=50)
    handicap: str = Field("", max_length=300)
    handicap_penalty: int = Field(0, ge=-50, le=0)
    note: str = Field("", max_length=500)

    def title(self) -> str:
        return f"Attaque réussie (différence {self.margin})"


class InflictWound(Action):
    """A wound of a known grade (a fall, a trap, a Sévérité worked out at the table)."""

    kind: Literal["inflict_wound"] = "inflict_wound"
    grade: Id
    severity: int | None = Field(None, ge=0, le=1000)
    body_part: Id | None = None
    damage_type: Id | None = None
    psychological: bool = False
    handicap: str = Field("", max_length=300)
    handicap_penalty: int = Field(0, ge=-50, le=0)
    note: str = Field("", max_length=500)
    # The Défi de Ténacité the wound calls for is rolled at once (False: the GM skips it).
    tenacity_test: bool = True

    def title(self) -> str:
        return f"Blessure {self.grade}"


class TenacityTest(Action):
    """A Défi de Ténacité the GM calls (``opposition`` None: the gauge's tier sets it)."""

    kind: Literal["tenacity_test"] = "tenacity_test"
    psychological: bool = False
    opposition: int | None = Field(None, ge=0, le=100)

    def title(self) -> str:
        return "Défi de Ténacité"


class TreatWound(Action):
    """A wound is treated (bandage, médicament, opération…); a diagnosis may be recorded."""

    kind: Literal["treat_wound"] = "treat_wound"
    wound_id: int
    treatment: Id
    diagnosis: str = Field("", max_length=500)

    def title(self) -> str:
        return "Traiter une blessure"


class DiagnoseWound(Action):
    """« en faire un diagnostic par une personne compétente »: the diagnosis is recorded."""

    kind: Literal["diagnose_wound"] = "diagnose_wound"
    wound_id: int
    diagnosis: str = Field(max_length=500)

    def title(self) -> str:
        return "Diagnostic"


class SetHandicap(Action):
    """The GM attaches (or, with an empty text, removes) a wound's Handicap."""

    kind: Literal["set_handicap"] = "set_handicap"
    wound_id: int
    handicap: str = Field("", max_length=300)
    penalty: int = Field(0, ge=-50, le=0)

    def title(self) -> str:
        return "Handicap" if self.handicap else "Retirer le Handicap"


class WorseningRisk(Action):
    """An untreated wound put at risk (running with a gash…): Défi de Ténacité, failure worsens it."""

    kind: Literal["worsening_risk"] = "worsening_risk"
    wound_id: int
    opposition: int | None = Field(None, ge=0, le=100)

    def title(self) -> str:
        return "Risque d'aggravation"


class SupernaturalHealing(Action):
    """Supernatural healing: notches removed according to the healer's success level."""

    kind: Literal["supernatural_healing"] = "supernatural_healing"
    success_level: Id
    # « une Blessure ciblée pourra guérir d'autant plus rapidement »; None: the gauge as a whole.
    wound_id: int | None = None

    def title(self) -> str:
        return "Soins surnaturels"


class EndConflict(Action):
    """The Conflict ends: what lasts « jusqu'à la fin du Conflit » ends with it."""

    kind: Literal["end_conflict"] = "end_conflict"

    def title(self) -> str:
        return "Fin du Conflit"


class EraseWound(Action):
    """Remove a wound entered by mistake (it does not heal: no sequel)."""

    kind: Literal["erase_wound"] = "erase_wound"
    wound_id: int

    def title(self) -> str:
        return "Effacer une blessure"
