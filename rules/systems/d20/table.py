"""d20 rule table schema: what ``resources/rulesets/d20.toml`` holds, validated on load."""

from typing import Literal

from pydantic import Field, model_validator

from rules.ruleset import (
    ConditionGroupTable,
    ConditionTable,
    HealthStateTable,
    Table,
    check_condition_references,
    check_time_units,
)

Procedure = Literal["ritual", "quick", "resurrection_supreme", "souhait"]
Percent = int


class GeneralRules(Table):
    ability_base: int = 10
    """Valeur de caractéristique qui donne un modificateur de 0."""
    ability_step: int = Field(2, ge=1)
    """Points de caractéristique par point de modificateur."""
    check_die: int = Field(20, ge=2, le=1000)
    """Dé des jets de sauvegarde et des tests, en faces."""
    percent_die: int = Field(100, ge=2, le=1000)
    """Dé des chances en pourcentage (stabilisation, réveil), en faces."""
    natural_max_save_succeeds: bool
    """Un jet de sauvegarde qui donne le plus haut du dé réussit toujours."""
    natural_one_save_fails: bool
    """Un jet de sauvegarde qui donne 1 échoue toujours."""


class ThresholdRules(Table):
    disabled_at: int
    """PV auxquels le personnage est hors de combat ; en dessous, il est mourant."""
    death_at: int
    """PV auxquels le personnage meurt (et en dessous)."""
    death_constitution: int = Field(ge=0)
    """Constitution à laquelle (ou en dessous de laquelle) le personnage meurt."""
    # A house rule (docs/house-rules.md): death at minus the Constitution score, as in seed 002, instead of
    # ``death_at``. Added after sheet_app 0.1.0: a GM's older copy still loads with the shipped reading.
    death_at_minus_constitution: bool = False
    """La mort vient à moins la valeur de Constitution au lieu de death_at (true), comme dans la graine 002."""

    @model_validator(mode="after")
    def _ordered(self) -> "ThresholdRules":
        if self.death_at >= self.disabled_at:
            raise ValueError("death_at doit être inférieur à disabled_at")
        return self


class MassiveDamageRules(Table):
    threshold: int = Field(ge=1)
    """Dégâts d'une seule attaque qui imposent le jet contre les dégâts massifs."""
    save_dd: int
    """DD du jet de Vigueur contre les dégâts massifs."""
    nonlethal_counts: bool
    """Les dégâts non létaux comptent pour les dégâts massifs."""


class LocalWoundRules(Table):
    penalty: int = Field(le=0)
    """Malus des actions faites avec une partie du corps blessée (0 ou négatif)."""
    penalties_stack: bool
    """Plusieurs blessures à la même partie du corps cumulent leur malus."""
    heal_at_full: bool
    """Une blessure localisée guérit quand les PV reviennent au maximum."""
    heal_by_magic: bool
    """Les soins magiques guérissent les blessures localisées."""


class DyingRules(Table):
    loss_per_round: int = Field(ge=1)
    """PV perdus par round par un personnage mourant."""
    stabilise_chance: Percent = Field(ge=0, le=100)
    """Chances (en %) de se stabiliser seul à chaque round."""
    first_roll_after_rounds: int = Field(ge=1)
    """Rounds après la chute avant le premier jet de stabilisation."""
    first_aid_dd: int
    """DD du test de Premiers secours qui stabilise un mourant."""
    heal_spell_min: int = Field(ge=1)
    """PV qu'un soin doit rendre pour arrêter la perte de PV."""
    damage_breaks_stability: bool
    """De nouveaux dégâts font repartir un personnage stabilisé vers la mort."""
    strenuous_cost: int = Field(ge=0)
    """PV perdus par une action fatigante faite hors de combat."""


class RecoveryRules(Table):
    assisted_first_roll_hours: int = Field(ge=1)
    """Heures après la stabilisation avant le premier jet de réveil, avec assistance."""
    assisted_interval_hours: int = Field(ge=1)
    """Heures entre deux jets de réveil, avec assistance."""
    assisted_wake_chance: Percent = Field(ge=0, le=100)
    """Chances (en %) de reprendre connaissance à chaque jet, avec assistance."""
    alone_interval_hours: int = Field(ge=1)
    """Heures entre deux jets de réveil, sans assistance."""
    alone_wake_chance: Percent = Field(ge=0, le=100)
    """Chances (en %) de reprendre connaissance à chaque jet, sans assistance."""
    alone_loss: int = Field(ge=0)
    """PV perdus à chaque jet de réveil raté, sans assistance."""
    alone_first_daily_roll_hours: int = Field(ge=1)
    """Heures éveillé avant le premier jet de récupération quotidien, sans assistance."""
    alone_daily_interval_hours: int = Field(ge=1)
    """Heures entre deux jets de récupération quotidiens, sans assistance."""
    alone_daily_chance: Percent = Field(ge=0, le=100)
    """Chances (en %) de commencer à récupérer normalement, à chaque jet quotidien."""
    alone_daily_loss: int = Field(ge=0)
    """PV perdus à chaque jet quotidien raté (rechute)."""


class HealingRules(Table):
    night_hours: int = Field(ge=1)
    """Heures de sommeil d'une bonne nuit de repos."""
    night_per_level: int = Field(ge=0)
    """PV rendus par niveau par une nuit de repos."""
    full_day_hours: int = Field(ge=1)
    """Heures d'une journée complète de repos."""
    full_day_per_level: int = Field(ge=0)
    """PV rendus par niveau par une journée complète de repos."""
    ability_per_night: int = Field(ge=0)
    """Points de caractéristique affaiblie rendus par nuit de repos."""
    ability_per_full_day: int = Field(ge=0)
    """Points de caractéristique affaiblie rendus par journée complète de repos."""
    # One natural healing (a night or a full day) per this many hours (T14).
    rest_interval_hours: int = Field(ge=1)
    """Heures au moins entre deux guérisons naturelles (une nuit ou une journée)."""


class TemporaryRules(Table):
    count_for_state: bool
    """Les PV temporaires comptent dans le total qui décide des états."""
    absorb_nonlethal: bool
    """Les PV temporaires absorbent les dégâts non létaux."""


class ConstitutionRules(Table):
    changes_pv: bool
    """Un changement de Constitution change le maximum et les PV (modificateur × niveau)."""
    min_pv_per_level: int = Field(ge=0)
    """PV maximum par niveau au moins, quelle que soit la Constitution."""


class NonlethalRules(Table):
    recovery_per_hour_per_level: int = Field(ge=0)
    """Dégâts non létaux qui disparaissent par heure et par niveau."""
    healing_removes: Literal["any", "magical"]
    """Les soins qui retirent aussi les dégâts non létaux : tous (« any ») ou seulement la magie (« magical »)."""
    rest_removes: bool
    """Le repos retire aussi les dégâts non létaux."""
    wrong_weapon_attack: int = Field(le=0)
    """Malus d'attaque pour infliger des dégâts non létaux avec une arme létale, et l'inverse."""
    lethal_melee_only: bool
    """Seules les armes de corps à corps peuvent infliger des dégâts non létaux au lieu de létaux."""


class ResurrectionRules(Table):
    base_dd: int
    """DD de base du test de résurrection."""
    per_earlier_resurrection: int = Field(ge=0)
    """DD ajouté par résurrection réussie précédente."""
    contribution_success: int
    """Changement du DD par contribution réussie (négatif : plus facile)."""
    contribution_failure: int
    """Changement du DD par contribution ratée."""
    max_contributors: int = Field(ge=0, le=10)
    """Membres du groupe qui peuvent contribuer, au plus."""
    quick_failure_increase: int = Field(ge=0)
    """DD ajouté aux futurs tests par un échec de résurrection rapide."""
    revived_pv_per_level: int = Field(ge=0)
    """PV par niveau avec lesquels le personnage revient."""
    bypass_full_pv: bool
    """Résurrection suprême et Souhait rendent tous les PV."""
    restore_zero_abilities_to: int = Field(ge=1)
    """Valeur à laquelle remonte une caractéristique à 0."""
    bypass_counts: bool
    """Les résurrections sans test comptent comme réussies pour le DD suivant."""
    procedures: dict[Procedure, str]
    """Procédures de résurrection et leur description (ritual, quick, resurrection_supreme, souhait)."""

    @model_validator(mode="after")
    def _all_procedures(self) -> "ResurrectionRules":
        missing = [p for p in ("ritual", "quick", "resurrection_supreme", "souhait") if p not in self.procedures]
        if missing:
            raise ValueError("resurrection.procedures doit nommer " + ", ".join(missing))
        return self


class HealthState(HealthStateTable):
    effect: str
    """Ce que l'état de santé permet ou interdit, en mots (bulle d'aide de la fiche)."""


class ConditionGroup(ConditionGroupTable):
    pass


class ConditionRule(ConditionTable):
    settable: bool
    """L'état se coche à la main sur la fiche (false : il découle des PV)."""


STATE_IDS = ("en_forme", "chancelant", "hors_de_combat", "inconscient", "stabilise", "mourant", "mort")


class D20Rules(Table):
    general: GeneralRules
    """Règles générales : caractéristiques et dés."""
    time_units: dict[str, int]
    """Durée de chaque unité de temps, en secondes (round, hour, day, night, full_day au moins)."""
    time_labels: dict[str, str]
    """Nom de chaque unité de temps, tel que la fiche l'affiche."""
    thresholds: ThresholdRules
    """Seuils : hors de combat, mort."""
    massive_damage: MassiveDamageRules
    """Dégâts massifs."""
    local_wounds: LocalWoundRules
    """Blessures localisées."""
    dying: DyingRules
    """Mourir : perte de PV et stabilisation."""
    recovery: RecoveryRules
    """Reprendre connaissance après la stabilisation."""
    healing: HealingRules
    """Guérison naturelle."""
    temporary: TemporaryRules
    """Points de vie temporaires."""
    constitution: ConstitutionRules
    """Constitution et points de vie."""
    nonlethal: NonlethalRules
    """Dégâts non létaux."""
    resurrection: ResurrectionRules
    """Résurrection."""
    body_parts: dict[str, str]
    """Parties du corps des blessures localisées (clé : nom affiché)."""
    health_states: dict[str, HealthState]
    """États de santé montrés par le badge de la fiche."""
    condition_groups: dict[str, ConditionGroup]
    """Groupes d'états, comme la fiche les range."""
    conditions: dict[str, ConditionRule]
    """États (conditions)."""

    @model_validator(mode="after")
    def _references(self) -> "D20Rules":
        check_time_units(self.time_units, ("round", "hour", "day", "night", "full_day"))
        for unit, seconds in self.time_units.items():
            if seconds <= 0:
                raise ValueError(f"time_units.{unit} doit être strictement positif")
        for needed in STATE_IDS:
            if needed not in self.health_states:
                raise ValueError(f"l'état de santé « {needed} » manque dans health_states")
        check_condition_references(self.conditions, self.condition_groups, self.health_states)
        for needed in ("hors_de_combat", "chancelant", "inconscient", "mourant", "stabilise"):
            if needed not in self.conditions:
                raise ValueError(f"l'état « {needed} » manque dans conditions")
        return self
