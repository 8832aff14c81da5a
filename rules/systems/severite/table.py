"""Sévérité's rule table (``resources/rulesets/severite.toml``), validated by pydantic."""

from typing import Annotated, Literal

from pydantic import Field, model_validator

from rules.ruleset import (
    ConditionGroupTable,
    ConditionTable,
    HealthStateTable,
    Table,
    check_condition_references,
    check_time_units,
)

Die = Annotated[int, Field(ge=2, le=100)]
# At most this many conditions in a table, so a sheet can hold them all at once (``SeveriteSheet``).
MAX_CONDITIONS = 40
TestPolicy = Literal["never", "new_tier", "always"]
HandicapLikelihood = Literal["never", "possible", "likely"]
Duration = Literal["conflict", "turns", "manual"]


class TestDice(Table):
    attribute_die: Die
    """Dé d'Attribut des tests (Défi de Ténacité, Survie…), en faces."""
    skill_die: Die
    """Dé de Compétence des tests, en faces."""


class PowerGrade(Table):
    label: str
    """Nom du degré de Puissance, tel que le journal l'écrit."""
    min_margin: int = Field(ge=0, le=1000)
    """Marge de réussite à partir de laquelle la frappe atteint ce degré (le premier degré commence à 0)."""
    adds_modifiers: bool
    """Ce degré ajoute les Modificateurs de dégâts à la Puissance."""
    extra_dice: int = Field(ge=0, le=10)
    """Dés en plus (dé de extra_die) au jet de Puissance de ce degré."""
    efficacy_dice: int = Field(ge=0, le=10)
    """Dés d'Efficacité (dé de efficacy_die, lancés avec Facilité) au jet de Puissance de ce degré."""


def _increasing(items: dict[str, int], what: str) -> None:
    values = list(items.values())
    if not values:
        raise ValueError(f"{what} : la table est vide")
    if values[0] != 0:
        raise ValueError(f"{what} : le premier niveau doit commencer à 0")
    for (a, va), (b, vb) in zip(list(items.items()), list(items.items())[1:], strict=False):
        if vb <= va:
            raise ValueError(f"{what} : « {b} » ({vb}) doit commencer après « {a} » ({va})")


class PowerRules(Table):
    base_die: Die
    """Dé que tout jet de Puissance comprend, en faces."""
    extra_die: Die
    """Dé ajouté par les degrés de Puissance élevés, en faces."""
    efficacy_die: Die
    """Dé d'Efficacité, en faces."""
    facility_rolls: int = Field(ge=1, le=10)
    """Lancers d'un dé avec Facilité : le meilleur est gardé."""
    vital_zone_modifier: int = Field(ge=0, le=50)
    """Modificateur ajouté à une frappe sur une zone vitale, quand le meneur l'accorde."""
    grades: dict[str, PowerGrade]
    """Degrés de Puissance, du plus faible au plus fort."""

    @model_validator(mode="after")
    def _ordered(self) -> "PowerRules":
        _increasing({k: g.min_margin for k, g in self.grades.items()}, "power.grades")
        return self


class ResistanceRules(Table):
    die: Die
    """Dé du jet de Résistance, en faces (s'y ajoute le Modificateur de protection)."""
    protection_stacks: bool
    """Les protections sur une même zone s'additionnent (false : seul le meilleur Modificateur compte)."""


class WoundGrade(Table):
    label: str
    """Nom du degré de Blessure, tel que la fiche l'affiche."""
    min_severity: int = Field(ge=0, le=1000)
    """Sévérité à partir de laquelle la Blessure atteint ce degré (le premier degré commence à 0)."""
    notches: int = Field(ge=0, le=100)
    """Crans dont ce degré de Blessure fait monter la jauge de Trauma."""
    test: TestPolicy
    """Quand ce degré demande un Défi de Ténacité : jamais (« never »), en passant un palier (« new_tier »), toujours («
    always »).
    """
    handicap: HandicapLikelihood
    """Chances d'un Handicap : aucune (« never »), possible (« possible »), probable (« likely »)."""
    recorded: bool = True
    """La Blessure est notée sur la fiche (false : au journal seulement)."""
    fatal: bool = False
    """Ce degré est une Blessure Fatale : jet de Survie."""


class FatalRules(Table):
    crippled_handicap: str = Field(max_length=300)
    """Séquelle d'un membre touché par une Blessure Fatale."""


class SurvivalRules(Table):
    die: Die
    """Dé du jet de Survie, en faces."""
    needed_cap: int = Field(ge=1, le=100)
    """Résultat au-delà duquel le jet de Survie demande toujours ce nombre (le plus haut du dé)."""
    wake_on_major_treatment: bool
    """Un traitement majeur de la Blessure Fatale fait reprendre conscience au survivant."""


class Tier(Table):
    label: str
    """Nom du palier de la jauge de Trauma."""
    # No opposition: this tier asks no Défi de Ténacité.
    opposition: int | None = Field(None, ge=0, le=100)
    """Opposition du Défi de Ténacité à ce palier (absente : pas de Défi)."""


class BeyondTier(Table):
    label: str
    """Nom de l'état au-delà des paliers de la jauge."""
    opposition: int = Field(ge=0, le=100)
    """Opposition du Défi de Ténacité au-delà des paliers."""
    every_wound_tests: bool
    """Au-delà des paliers, chaque Blessure qui ajoute un cran demande un Défi."""


class TraumaRules(Table):
    notches_per_tier: int = Field(ge=1, le=20)
    """Crans par palier de la jauge de Trauma."""
    tiers: tuple[Tier, ...] = Field(min_length=1, max_length=20)
    """Paliers de la jauge de Trauma, dans l'ordre."""
    beyond: BeyondTier
    """Au-delà des paliers de la jauge."""


class TenacityRules(Table):
    failure_condition: str
    """État posé quand le Défi de Ténacité est échoué (une clé de conditions)."""
    skipped_when: tuple[str, ...]
    """États qui dispensent d'un nouveau Défi (des clés de conditions)."""
    handicaps_apply: bool
    """Les malus de Handicap s'appliquent d'office au Défi de Ténacité."""


class SuccessLevel(Table):
    label: str
    """Nom du niveau de réussite."""
    min_margin: int = Field(ge=0, le=1000)
    """Marge à partir de laquelle ce niveau de réussite est atteint (le premier commence à 0)."""
    tenacity: str
    """Résultat du Défi de Ténacité à ce niveau (une clé de tenacity_results)."""
    healing_notches: int = Field(ge=0, le=100)
    """Crans de Trauma qu'un soin surnaturel retire à ce niveau."""


class TenacityResult(Table):
    label: str
    """Nom du résultat de Ténacité."""
    condition: str | None = None
    """État que ce résultat pose (une clé de conditions)."""
    notches: int = Field(0, ge=0, le=100)
    """Crans de Trauma que ce résultat retire."""
    ignores_wound: bool = False
    """Ce résultat fait ignorer la Blessure jusqu'à la fin du Conflit."""
    effect: str
    """Effet du résultat, en phrase, tel que le journal l'écrit."""


class Treatment(Table):
    label: str
    """Nom du traitement."""
    major: bool = False
    """Un traitement majeur (soin important)."""


class RestRules(Table):
    min_hours: int = Field(ge=0, le=24 * 7)
    """Heures que dure au moins un repos."""
    cooldown_hours: int = Field(ge=0, le=24 * 30)
    """Heures entre deux repos qui font baisser la jauge."""
    notches_per_treated_wound: int = Field(ge=0, le=100)
    """Crans de Trauma retirés par Blessure traitée au repos."""
    ends_conflict: bool
    """Se reposer met fin au Conflit et à ses effets."""


class WorseningRules(Table):
    max_grade: str
    """Degré au-delà duquel une Blessure ne s'aggrave plus (une clé de grades)."""


class BodyPart(Table):
    # Bounded: a crippled limb's sequel names it (« Bras gauche : Membre invalide ou sectionné »).
    label: str = Field(min_length=1, max_length=80)
    """Nom de la zone du corps."""
    vital: bool = False
    """Une zone vitale."""


class DamageType(Table):
    label: str
    """Nom du type de dégâts."""
    psychological: bool = False
    """Des dégâts psychologiques."""


class HealthState(HealthStateTable):
    pass


class ConditionGroup(ConditionGroupTable):
    pass


class ConditionRule(ConditionTable):
    duration: Duration
    """Durée de l'état : jusqu'à la fin du Conflit (« conflict »), un nombre de fins de tour (« turns »), jusqu'à ce
    qu'on le retire (« manual »)."""
    turns: int = Field(0, ge=0, le=100)
    """Fins de tour que dure l'état (durée « turns »)."""
    no_action: bool = False
    """L'état prive d'Action."""


NEEDED_STATES = ("mort", "inconscient", "stabilise", "hors_de_combat", "sonne", "au_dela", "blesse", "en_forme")
# Conditions the code itself sets (survival roll) besides those the table names.
NEEDED_CONDITIONS = ("inconscient", "stabilise")


class SeveriteRules(Table):
    time_units: dict[str, Annotated[int, Field(gt=0)]]
    """Durée de chaque unité de temps, en secondes (turn et hour au moins)."""
    time_labels: dict[str, str]
    """Nom de chaque unité de temps, tel que la fiche l'affiche."""
    tests: TestDice
    """Dés des tests."""
    power: PowerRules
    """Jet de Puissance : dés et degrés."""
    resistance: ResistanceRules
    """Jet de Résistance."""
    grades: dict[str, WoundGrade]
    """Degrés de Blessure selon la Sévérité, du plus léger au plus lourd."""
    fatal: FatalRules
    """Blessure Fatale."""
    survival: SurvivalRules
    """Jet de Survie."""
    trauma: TraumaRules
    """Jauge de Trauma : crans et paliers."""
    tenacity: TenacityRules
    """Défi de Ténacité."""
    success_levels: dict[str, SuccessLevel]
    """Niveaux de réussite, du plus faible au plus fort."""
    tenacity_results: dict[str, TenacityResult]
    """Résultats du Défi de Ténacité."""
    treatments: dict[str, Treatment]
    """Traitements des Blessures."""
    rest: RestRules
    """Repos : durée et crans retirés."""
    worsening: WorseningRules
    """Aggravation des Blessures."""
    body_parts: dict[str, BodyPart]
    """Zones du corps."""
    damage_types: dict[str, DamageType]
    """Types de dégâts."""
    health_states: dict[str, HealthState]
    """États de santé montrés par le badge de la fiche."""
    condition_groups: dict[str, ConditionGroup]
    """Groupes d'états, comme la fiche les range."""
    conditions: dict[str, ConditionRule] = Field(max_length=MAX_CONDITIONS)
    """États (conditions) et leur durée."""

    @model_validator(mode="after")
    def _references(self) -> "SeveriteRules":
        _increasing({k: g.min_severity for k, g in self.grades.items()}, "grades")
        _increasing({k: s.min_margin for k, s in self.success_levels.items()}, "success_levels")
        check_time_units(self.time_units, ("turn", "hour"))
        for sid, level in self.success_levels.items():
            if level.tenacity not in self.tenacity_results:
                raise ValueError(f"success_levels.{sid} cite une Ténacité inconnue « {level.tenacity} »")
        for rid, result in self.tenacity_results.items():
            if result.condition is not None and result.condition not in self.conditions:
                raise ValueError(f"tenacity_results.{rid} cite un état inconnu « {result.condition} »")
        for cid in (self.tenacity.failure_condition, *self.tenacity.skipped_when, *NEEDED_CONDITIONS):
            if cid not in self.conditions:
                raise ValueError(f"l'état « {cid} » manque dans conditions")
        check_condition_references(self.conditions, self.condition_groups, self.health_states)
        for cid, cond in self.conditions.items():
            if cond.duration == "turns" and cond.turns < 1:
                raise ValueError(f"l'état « {cid} » dure des tours : indiquez turns (au moins 1)")
        for needed in NEEDED_STATES:
            if needed not in self.health_states:
                raise ValueError(f"l'état de santé « {needed} » manque dans health_states")
        if self.worsening.max_grade not in self.grades:
            raise ValueError(f"worsening.max_grade cite un degré inconnu « {self.worsening.max_grade} »")
        if not self.body_parts:
            raise ValueError("body_parts : au moins une zone du corps")
        if not self.damage_types:
            raise ValueError("damage_types : au moins un type de dégâts")
        return self

    @property
    def capacity(self) -> int:
        """Notches the gauge holds (« 4 paliers comprenant deux crans »)."""
        return len(self.trauma.tiers) * self.trauma.notches_per_tier
