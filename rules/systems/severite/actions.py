"""Sévérité's own actions (the common ones live in ``rules.actions``)."""

from typing import Literal

from pydantic import Field

from rules.actions import Action
from rules.systems.severite.sheet import Id


class Strike(Action):
    """An attack that hit: Puissance (from the Opposition margin) against Résistance → Sévérité.

    ``margin``: the attack's « différence d'Opposition ». ``damage_modifier``: the weapon's
    Modificateur de dégâts (or the Modificateur de maîtrise of a spell). ``vital_zone``: the GM grants
    the strike on a vital zone its « Modificateur de plus » (``power.vital_zone_modifier`` of the table);
    off by default, since the seed says it « peut » be granted (issue 14).
    Dice, in order: Puissance D4, the grade's D8s, Résistance D4, then the survival D20 or the
    Ténacité dice if the wound calls for them.
    """

    kind: Literal["strike"] = "strike"
    margin: int = Field(ge=0, le=1000, title="Différence d'Opposition de l'attaque")
    damage_type: Id = Field(title="Type de dégâts")
    body_part: Id = Field(title="Zone touchée")
    damage_modifier: int = Field(0, ge=-50, le=50, title="Modificateur de dégâts (arme, maîtrise)")
    vital_zone: bool = Field(False, title="Zone vitale : accorder un Modificateur de plus")
    handicap: str = Field("", max_length=300, title="Handicap")
    handicap_penalty: int = Field(0, ge=-50, le=0, title="Malus du Handicap")
    note: str = Field("", max_length=500, title="Note")

    def title(self) -> str:
        return f"Attaque réussie (différence {self.margin})"


class InflictWound(Action):
    """A wound of a known grade (a fall, a trap, a Sévérité worked out at the table)."""

    kind: Literal["inflict_wound"] = "inflict_wound"
    grade: Id = Field(title="Degré de la Blessure")
    severity: int | None = Field(None, ge=0, le=1000, title="Sévérité (facultative)")
    body_part: Id | None = Field(None, title="Zone touchée")
    damage_type: Id | None = Field(None, title="Type de dégâts")
    psychological: bool = Field(False, title="Blessure psychologique")
    handicap: str = Field("", max_length=300, title="Handicap")
    handicap_penalty: int = Field(0, ge=-50, le=0, title="Malus du Handicap")
    note: str = Field("", max_length=500, title="Note")
    # The Défi de Ténacité the wound calls for is rolled at once (False: the GM skips it).
    tenacity_test: bool = Field(True, title="Faire le Défi de Ténacité")

    def title(self) -> str:
        return f"Blessure {self.grade}"


class TenacityTest(Action):
    """A Défi de Ténacité the GM calls (``opposition`` None: the gauge's tier sets it)."""

    kind: Literal["tenacity_test"] = "tenacity_test"
    psychological: bool = Field(False, title="Blessure psychologique (Mental)")
    opposition: int | None = Field(None, ge=0, le=100, title="Opposition (— : celle du palier)")

    def title(self) -> str:
        return "Défi de Ténacité"


class TreatWound(Action):
    """A wound is treated (bandage, médicament, opération…); a diagnosis may be recorded."""

    kind: Literal["treat_wound"] = "treat_wound"
    wound_id: int = Field(title="Numéro de la blessure")
    treatment: Id = Field(title="Traitement")
    diagnosis: str = Field("", max_length=500, title="Diagnostic")

    def title(self) -> str:
        return "Traiter une blessure"


class DiagnoseWound(Action):
    """« en faire un diagnostic par une personne compétente »: the diagnosis is recorded."""

    kind: Literal["diagnose_wound"] = "diagnose_wound"
    wound_id: int = Field(title="Numéro de la blessure")
    diagnosis: str = Field(max_length=500, title="Diagnostic")

    def title(self) -> str:
        return "Diagnostic"


class SetHandicap(Action):
    """The GM attaches (or, with an empty text, removes) a wound's Handicap."""

    kind: Literal["set_handicap"] = "set_handicap"
    wound_id: int = Field(title="Numéro de la blessure")
    handicap: str = Field("", max_length=300, title="Handicap (vide : le retirer)")
    penalty: int = Field(0, ge=-50, le=0, title="Malus du Handicap")

    def title(self) -> str:
        return "Handicap" if self.handicap else "Retirer le Handicap"


class WorseningRisk(Action):
    """An untreated wound put at risk (running with a gash…): Défi de Ténacité, failure worsens it."""

    kind: Literal["worsening_risk"] = "worsening_risk"
    wound_id: int = Field(title="Numéro de la blessure")
    opposition: int | None = Field(None, ge=0, le=100, title="Opposition (— : celle du palier)")

    def title(self) -> str:
        return "Risque d'aggravation"


class SupernaturalHealing(Action):
    """Supernatural healing: notches removed according to the healer's success level."""

    kind: Literal["supernatural_healing"] = "supernatural_healing"
    success_level: Id = Field(title="Niveau de réussite du soin")
    # « une Blessure ciblée pourra guérir d'autant plus rapidement »; None: the gauge as a whole.
    wound_id: int | None = Field(None, title="Blessure ciblée (— : la jauge entière)")

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
    wound_id: int = Field(title="Numéro de la blessure")

    def title(self) -> str:
        return "Effacer une blessure"
