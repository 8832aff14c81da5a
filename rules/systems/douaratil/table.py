"""Douaratil's rule table: the schema of ``resources/rulesets/douaratil.toml``.

The schema encodes what the rules rely on (positive durations, dice with at least one face, both wound
severities, the states the dying rules name…), so a GM's house-rule copy is refused in French when it
would break them, never accepted to crash later.
"""

from typing import Annotated, Literal

from pydantic import Field, model_validator

from rules.labels import AbilityId
from rules.ruleset import (
    ConditionGroupTable,
    ConditionTable,
    HealthStateTable,
    Table,
    check_condition_references,
    check_time_units,
)

SYSTEM_ID = "douaratil"
POOLS = ("magic", "faith", "honour", "sanity")
SEVERITIES = ("minor", "major")

# ``[count, sides]``: at least one die of at least one face (a 0-sided die cannot be rolled).
Dice = tuple[Annotated[int, Field(ge=1, le=100)], Annotated[int, Field(ge=1, le=1000)]]
DD = Annotated[int, Field(ge=-100, le=1000)]


class GeneralRules(Table):
    ability_base: int = Field(10, ge=-100, le=100)
    """Valeur de caractéristique qui donne un modificateur de 0."""
    ability_step: int = Field(2, ge=1, le=100)
    """Points de caractéristique par point de modificateur."""
    default_action_die: int = Field(8, ge=2, le=100)
    """Faces du dé d'action d'une nouvelle fiche."""
    default_speed_m: int = Field(9, ge=0, le=1000)
    """Déplacement d'une nouvelle fiche, en mètres."""


class SaveRules(Table):
    constitution_dd: DD
    """DD du JS de Constitution à 0 PA et contre les dégâts massifs."""
    unconscious_dice: Dice
    """Durée de l'inconscience après un JS de Constitution à 0 PA, en rounds : [nombre de dés, faces]."""
    # D14: at 0 PA a creature following the players' rules is unconscious until it regains PA.
    unconscious_at_zero: bool = True
    """À 0 PA, une créature qui suit les règles des personnages est inconsciente tant qu'elle n'a pas regagné de PA."""
    death_save_dice: Dice
    """Dés du jet contre la mort : [nombre de dés, faces]."""
    death_save_success: DD
    """Seuil de réussite du jet contre la mort : ce total ou plus réussit."""
    death_saves_needed: int = Field(ge=1, le=10)
    """Nombre de succès (stabilisé) ou d'échecs (mort) qui mettent fin aux jets contre la mort."""
    exhaustion_on_death_saves: bool
    """Le malus d'épuisement s'applique au jet contre la mort."""
    first_aid_dd: DD
    """DD du test de Sagesse (Médecine) qui stabilise un mourant."""
    check_dice: Dice
    """Dés des tests et JS de caractéristique : [nombre de dés, faces], plus le modificateur."""
    stabilised_wake_dice: Dice
    """Délai avant qu'un personnage stabilisé regagne des PA, en heures : [nombre de dés, faces]."""
    stabilised_wake_gain: int = Field(ge=1, le=1000)
    """PA regagnés par un personnage stabilisé au bout de ce délai."""
    npc_death_dice: Dice
    """Rounds qu'un monstre peut encore agir avant de succomber : [nombre de dés, faces]."""


class DifficultyRules(Table):
    reference_dd: DD = 16
    """DD d'un test moyen, que les blessures font monter par paliers."""
    step: int = Field(ge=0, le=100)
    """Hausse du DD par palier de difficulté."""
    # Read by sheet_app 0.1.0, ignored since: a severity's steps are ``severities.<id>.steps``.
    minor_steps: int | None = Field(None, ge=0, le=10)
    """Ancienne clé (sheet_app 0.1.0), ignorée : voir severities.minor.steps."""
    major_steps: int | None = Field(None, ge=0, le=10)
    """Ancienne clé (sheet_app 0.1.0), ignorée : voir severities.major.steps."""
    steps_stack: bool
    """Les paliers de plusieurs blessures se cumulent ; false : seule la plus lourde compte."""
    # Whether the wound DD steps also raise the wound's own « test de volonté (SAG) ».
    will_test_steps: bool = False
    """Les paliers des blessures s'ajoutent aussi au DD du test de volonté (SAG) d'une blessure."""
    labels: dict[int, str]
    """Nom de chaque DD (« moyen », « difficile »…), par valeur."""


class HealingRules(Table):
    test_dd: DD
    """DD du test de guérison (Constitution) d'une blessure."""
    exhaustion_applies: bool
    """Le malus d'épuisement s'applique au test de guérison."""


class TemporaryRules(Table):
    # D15: damage the temporary PA absorb counts for massive damage, criticals and stabilisation.
    absorbed_damage_counts: bool = False
    """Les dégâts absorbés par les PA temporaires comptent (dégâts massifs, coups critiques, stabilisation)."""


class SeverityRule(Table):
    label: str
    """Nom de la gravité, tel que la fiche l'affiche."""
    steps: int = Field(ge=0, le=10)
    """Paliers de difficulté que cette gravité ajoute aux tests."""


class WoundType(Table):
    label: str
    """Nom du type de blessure, tel que la fiche l'affiche."""
    days: int = Field(ge=0, le=10_000)
    """Durée avant les tests de guérison, en repos longs."""
    limitation: str
    """Limitation principale de la blessure, telle que la fiche la montre."""
    will_dd: DD
    """DD du test de volonté (SAG) pour passer outre la limitation."""
    bleeding_dice: Dice | None = None
    """Dégâts par round du saignement quand la blessure s'ouvre : [nombre de dés, faces] (rien : pas de saignement)."""
    reopen_dd: DD | None = None
    """DD du JS de Constitution contre l'ouverture de la blessure après un mouvement brusque."""
    # « risque d'aggravation » (fracture): a failed Constitution save worsens the wound.
    aggravation_dd: DD | None = None
    """DD du JS de Constitution contre l'aggravation de la blessure (fracture)."""
    halves_speed: bool = False
    """La blessure divise le déplacement par deux."""

    @model_validator(mode="after")
    def _risk_needs_its_dd(self) -> "WoundType":
        if self.bleeding_dice is not None and self.reopen_dd is None:
            raise ValueError("une blessure qui saigne (bleeding_dice) demande le DD de son ouverture (reopen_dd)")
        return self


class ExhaustionRules(Table):
    max_level: int = Field(ge=1, le=20)
    """Niveau d'épuisement le plus haut."""
    roll_penalty_per_level: int = Field(ge=0, le=100)
    """Malus aux jets par niveau d'épuisement."""
    speed_m_per_level: int = Field(ge=0, le=1000)
    """Mètres de déplacement perdus par niveau d'épuisement."""
    maximum_per_level: int = Field(ge=0, le=100_000)
    """Baisse du maximum de chaque réserve (PA, PM…) par niveau d'épuisement."""
    # The PA maximum exhaustion never goes below (item 5 of issue 13; D12).
    minimum_maximum: int = Field(1, ge=0, le=100_000)
    """Maximum de PA sous lequel l'épuisement ne descend jamais."""
    long_rest_reduction: int = Field(ge=0, le=20)
    """Niveaux d'épuisement retirés par un repos long."""


class PoolRecovery(Table):
    label: str
    """Nom de la réserve, tel que la fiche l'affiche."""
    per_level: int = Field(ge=0, le=1000)
    """Points regagnés au repos long par niveau du personnage."""
    ability: AbilityId
    """Caractéristique dont le modificateur s'ajoute aux points regagnés."""
    doubled_on_path: str | None = None
    """Voie (une clé de paths) sur laquelle ce bonus est doublé."""
    minimum: int = Field(0, ge=0, le=1000)
    """Points regagnés au moins."""
    exhaustion_applies: bool
    """Le malus d'épuisement réduit les points regagnés."""


class RestRules(Table):
    short_min_hours: int = Field(ge=0, le=24)
    """Durée d'un repos court, en heures."""
    # PA needed to begin a short rest (the resting character « ne fait rien de plus fatigant que … »).
    short_min_points: int = Field(1, ge=0, le=1000)
    """PA qu'il faut avoir pour commencer un repos court."""
    long_min_hours: int = Field(ge=0, le=24 * 7)
    """Durée d'un repos long, en heures."""
    long_cooldown_hours: int = Field(ge=0, le=24 * 365)
    """Heures entre deux repos longs."""
    long_min_points: int = Field(ge=0, le=1000)
    """PA qu'il faut avoir pour commencer un repos long."""
    # A rest is refused while a wound bleeds (false: the rest runs its rounds, bleeding included).
    refused_while_bleeding: bool = True
    """Pas de repos tant qu'une blessure saigne ; false : le repos se déroule, saignement compris."""
    dice_regained_min: int = Field(ge=0, le=100)
    """Dés d'action regagnés au moins par un repos long."""
    dice_regained_divisor: int = Field(ge=1, le=100)
    """Un repos long rend au plus le total des dés d'action divisé par ce nombre."""
    pools: dict[str, PoolRecovery]
    """Récupération au repos long de chaque réserve (magie, foi, honneur, santé mentale)."""

    @model_validator(mode="after")
    def _all_pools(self) -> "RestRules":
        missing = [p for p in POOLS if p not in self.pools]
        if missing:
            raise ValueError("rests.pools doit décrire " + ", ".join(missing))
        return self


class HeroicDeathRules(Table):
    odd_level_points: int = Field(ge=0, le=50)
    """Points de Constitution perdus par une survie héroïque à un niveau impair."""
    even_level_points: int = Field(ge=0, le=50)
    """Points de Constitution perdus par une survie héroïque à un niveau pair."""
    constitution_floor: int = Field(ge=0, le=50)
    """Sous cette Constitution, les prochains investissements vont d'abord à la Constitution."""


class HealthState(HealthStateTable):
    pass


class ConditionGroup(ConditionGroupTable):
    spared_by_clear_all: bool = False
    """Les états de ce groupe ne sont pas levés par un effet qui annule tous les états."""


Mode = Literal["avantage", "desavantage"]


class ConditionRule(ConditionTable):
    on_end_adds: tuple[str, ...] = ()
    """États posés quand celui-ci prend fin (des clés de conditions)."""
    speed: Literal["zero", "half"] | None = None
    """Effet sur le déplacement : "zero" (nul) ou "half" (divisé par deux)."""
    attacks: Mode | None = None
    """Ses attaques ont "avantage" ou "desavantage"."""
    attacked: Mode | None = None
    """Les attaques qui le visent ont "avantage" ou "desavantage"."""
    checks: Mode | None = None
    """Ses tests de caractéristique ont "avantage" ou "desavantage"."""
    incapacitated: bool = False
    """La créature est neutralisée : ni action ni réaction."""
    auto_fail_saves: tuple[AbilityId, ...] = ()
    """Caractéristiques dont les JS échouent automatiquement."""
    critical_if_adjacent: bool = False
    """Une attaque qui le touche à 1,50 m ou moins est un coup critique."""
    resists_all_damage: bool = False
    """La créature résiste à tous les dégâts (dégâts divisés par deux)."""


class DouaratilRules(Table):
    general: GeneralRules
    """Règles générales : caractéristiques, dé d'action, déplacement."""
    time_units: dict[str, Annotated[int, Field(ge=1, le=10**9)]]
    """Durée de chaque unité de temps, en secondes."""
    time_labels: dict[str, str]
    """Nom de chaque unité de temps, tel que la fiche l'affiche."""
    saves: SaveRules
    """Jets de sauvegarde : perte de conscience, jets contre la mort, premiers soins."""
    difficulty: DifficultyRules
    """Paliers de difficulté que les blessures ajoutent aux tests."""
    healing: HealingRules
    """Guérison des blessures critiques."""
    # Keys added after sheet_app 0.1.0 have defaults (the shipped readings): a GM's older copy still loads.
    temporary: TemporaryRules = TemporaryRules()
    """Points d'action temporaires."""
    severities: dict[str, SeverityRule]
    """Gravités des blessures (mineure, majeure)."""
    wounds: dict[str, WoundType]
    """Types de blessure critique."""
    exhaustion: ExhaustionRules
    """Niveaux d'épuisement et leurs malus."""
    rests: RestRules
    """Repos courts et longs."""
    heroic_death: HeroicDeathRules
    """Survie héroïque : le prix en Constitution."""
    paths: dict[str, str]
    """Voies du personnage (la clé "" : aucune voie)."""
    health_states: dict[str, HealthState]
    """États de santé montrés par le badge."""
    condition_groups: dict[str, ConditionGroup]
    """Groupes d'états."""
    conditions: dict[str, ConditionRule]
    """États (conditions) et leurs effets."""

    @model_validator(mode="after")
    def _references(self) -> "DouaratilRules":
        check_condition_references(
            self.conditions,
            self.condition_groups,
            self.health_states,
            needed_states=("en_forme", "inconscient", "mourant", "stabilise", "mort"),
        )
        check_time_units(self.time_units, ("round", "hour"))
        if "inconscient" not in self.conditions:
            raise ValueError("l'état « inconscient » est nécessaire aux règles de perte de conscience")
        if sorted(self.severities) != sorted(SEVERITIES):
            raise ValueError("severities doit décrire exactement " + " et ".join(SEVERITIES))
        if "" not in self.paths:
            raise ValueError('paths doit nommer l\'absence de voie (clé "")')
        for pool, rule in self.rests.pools.items():
            if rule.doubled_on_path is not None and rule.doubled_on_path not in self.paths:
                raise ValueError(f"rests.pools.{pool} cite une voie inconnue « {rule.doubled_on_path} »")
        return self
