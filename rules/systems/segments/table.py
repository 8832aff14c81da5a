"""Segments rule table: the pydantic schema of ``resources/rulesets/segments.toml``."""

import functools
import re
from typing import Any, Literal

from pydantic import Field, PositiveInt, field_validator, model_validator

from rules.ruleset import ConditionGroupTable, ConditionTable, HealthStateTable, Table, check_condition_references

SYSTEM_ID = "segments"


Dice = tuple[int, int]
ArmourKind = Literal["legere", "intermediaire", "lourde"]
LightLevel = Literal["vive", "faible", "obscurite"]
ExposureKind = Literal["froid", "chaleur"]
Need = Literal["food", "water", "sleep"]


def _check_dice(value: Dice) -> Dice:
    count, sides = value
    if not (1 <= count <= 100 and 2 <= sides <= 1000):
        raise ValueError("des dés s'écrivent [nombre, faces], par exemple [1, 6]")
    return value


class GeneralRules(Table):
    check_dice: Dice
    """Dés des jets de la fiche (Vigueur, Réflexes, Agilité…) : [nombre, faces], auxquels s'ajoute le bonus de la fiche.
    """
    square_m: float = Field(gt=0)
    """Longueur d'une case, en mètres : les vitesses se comptent en cases."""

    _dice = field_validator("check_dice")(_check_dice)


class HealthRules(Table):
    wounded_fraction: tuple[int, int]
    """Seuil de l'état Blessé : [numérateur, dénominateur] du maximum de points de vie ; à cette fraction ou moins, le
    personnage est blessé.
    """

    @field_validator("wounded_fraction")
    @classmethod
    def _fraction(cls, value: tuple[int, int]) -> tuple[int, int]:
        num, den = value
        if den < 1 or not 0 <= num <= den:
            raise ValueError("une fraction [numérateur, dénominateur] entre 0 et 1, par exemple [1, 2]")
        return value


class DyingRules(Table):
    loss_per_segment: int = Field(ge=0, le=1000)
    """Points de vie perdus par segment par un personnage mourant non stabilisé."""
    self_stabilise_dd: int
    """Difficulté du jet de Vigueur pour se stabiliser seul, une fois par tour."""
    auto_self_stabilise: bool
    """Le jet pour se stabiliser seul est tenté de lui-même quand le temps passe (false : seulement quand on le
    demande)."""
    damage_breaks_stabilisation: bool
    """De nouveaux dégâts létaux font repartir un personnage stabilisé vers la mort."""


class NonlethalRules(Table):
    recovery_per_hour_per_level: int = Field(ge=0)
    """Dégâts non létaux qui s'en vont par heure et par niveau."""
    heal_removes_nonlethal: bool
    """Un soin retire aussi autant de dégâts non létaux qu'il rend de points de vie."""


class ReductionRules(Table):
    applies_to_energy: bool
    """Les armures et réductions X/type arrêtent aussi les dégâts d'énergie (false : seule la résistance à l'énergie les
    arrête).
    """
    all_stack: bool
    """Les réductions se cumulent : armure, bouclier, armure naturelle et réductions propres s'additionnent (false :
    seule la plus forte compte)."""
    shield: int = Field(ge=0)
    """Réduction de dégâts donnée par un bouclier."""
    natural_armour_step: int = Field(ge=1)
    """Tranche de points d'armure naturelle qui donne une réduction."""
    natural_armour_per_step: int = Field(ge=0)
    """Réduction de dégâts donnée par chaque tranche d'armure naturelle."""


class ArmourRule(Table):
    label: str
    """Nom de l'armure, tel que la fiche l'affiche."""
    reduction: int = Field(ge=0)
    """Réduction de dégâts de l'armure (X/−)."""


class DamageTypeRule(Table):
    label: str
    """Nom du type de dégâts, tel que la fiche l'affiche."""
    energy: bool = False
    """Une énergie (feu, froid…), qu'arrête la résistance à l'énergie."""


_TYPE_ID = r"^[^\W\d_][^\W\d]*(?: [^\W\d_][^\W\d]*)*$"


class FallRules(Table):
    metres_per_die: int = Field(ge=1)
    """Hauteur de chute, en mètres, par dé de dégâts."""
    die: Dice
    """Dé de dégâts de chute par tranche : [nombre, faces]."""
    max_dice: int = Field(ge=0, le=1000)
    """Nombre de dés de chute au plus."""
    agility_metres: int = Field(ge=0)
    """Mètres de chute dont un jet d'Agilité réussi retire les dégâts."""
    damage_type: str
    """Type des dégâts de chute (une clé de damage_types)."""
    lands_prone: bool
    """Après une chute, le personnage se retrouve à terre."""
    # S12: false, the cap first and then the successful Agilité roll takes off the first slice (100 m: 19d6);
    # true, the roll takes off the first slice before the cap (from 63 m it changes nothing).
    agility_before_cap: bool
    """Le jet d'Agilité réussi retire sa tranche avant le plafond de dés (false : après)."""

    _dice = field_validator("die")(_check_dice)


class SuffocationRules(Table):
    turns_per_constitution: int = Field(ge=1)
    """Tours tenus sans respirer par point de Constitution."""
    death_after_turns: int = Field(ge=0)
    """Tours après la chute à 0 point de vie avant la mort par suffocation."""


class FireRules(Table):
    damage: Dice
    """Dégâts par tour passé à brûler : [nombre, faces]."""
    damage_type: str
    """Type des dégâts du feu (une clé de damage_types)."""
    extinguish_dd: int
    """Difficulté du jet de Réflexes pour s'éteindre en se roulant à terre."""

    _dice = field_validator("damage")(_check_dice)


class ExposureRule(Table):
    label: str
    """Nom de l'exposition, tel que le journal l'écrit."""
    damage: Dice
    """Dégâts de l'exposition sans protection : [nombre, faces]."""
    damage_every_hours: int = Field(ge=1)
    """Heures d'exposition entre deux jets de dégâts."""
    damage_type: str
    """Type des dégâts de l'exposition (une clé de damage_types)."""
    fatigue_every_hours: int = Field(ge=1)
    """Heures d'exposition qui donnent un degré de fatigue."""

    _dice = field_validator("damage")(_check_dice)


class PrivationRule(Table):
    label: str
    """Nom de la privation, tel que le journal l'écrit."""
    hours: int = Field(ge=1)
    """Heures de privation qui donnent un degré de fatigue."""


class FatigueRules(Table):
    levels: tuple[str, ...] = Field(min_length=1, max_length=20)
    """Degrés de fatigue dans l'ordre (des clés de conditions) : un personnage fatigué qui se fatigue encore passe au
    suivant.
    """


class RestRules(Table):
    min_hours: int = Field(ge=0)
    """Heures de repos qui font une nuit de repos."""
    fatigue_steps: int = Field(ge=0)
    """Degrés de fatigue qu'une nuit de repos retire."""
    needs_food_and_water: bool
    """Le repos ne retire la fatigue que si le personnage a mangé et bu."""
    heal_per_level: int = Field(ge=0)
    """Points de vie rendus par niveau par une nuit de repos (0 : aucun)."""


class SurpriseRules(Table):
    default_segments: int = Field(ge=0, le=100)
    """Segments de surprise accordés aux agresseurs quand le meneur n'en donne pas."""
    # How many turns Surpris lasts from when it is set (S16); 0: until the GM takes it off.
    lasts_turns: int = Field(ge=0, le=100)
    """Tours que dure l'état Surpris à compter du moment où il est posé (0 : jusqu'à ce que le meneur le retire)."""


class LightRule(Table):
    label: str
    """Nom du niveau d'éclairage."""
    effect: str
    """Effet du niveau d'éclairage, en mots, tel que la fiche l'affiche."""
    sight_rolls: int = Field(0, le=0)
    """Modificateur des jets de Vue sous cet éclairage (0 ou négatif)."""
    blinds: str | None = None
    """État que cet éclairage impose (une clé de conditions), par exemple « aveugle »."""
    darkvision_as: LightLevel | None = None
    """Niveau d'éclairage que la vision dans le noir voit à la place de celui-ci."""


class SenseRule(Table):
    label: str
    """Nom du sens."""
    illusions: str
    """Illusions contre lesquelles la privation de ce sens immunise."""


class HealthState(HealthStateTable):
    note: str = ""
    """Quand cet état s'applique, en mots (bulle d'aide de la fiche)."""


class ConditionGroup(ConditionGroupTable):
    note: str = ""
    """Remarque sur le groupe d'états (bulle d'aide de la fiche)."""


class ConditionRule(ConditionTable):
    """A state and its numbers (« 7.3 Les états »)."""

    armour_class: int = 0
    """Modificateur de classe d'armure que donne l'état."""
    reflex: int = 0
    """Modificateur de sauvegarde de Réflexes que donne l'état."""
    attack: int = 0
    """Modificateur des jets d'attaque que donne l'état."""
    all_rolls: int = Field(0, le=0)
    """Modificateur de tous les jets que donne l'état (0 ou négatif)."""
    speed_squares: int = 0
    """Cases de vitesse ajoutées (ou retirées) par l'état."""
    turn_start: int = 0
    """Segments dont l'état retarde (positif) ou avance (négatif) le début du tour."""
    speed: Literal["zero", "half"] | None = None
    """La vitesse tombe à zéro (« zero ») ou est divisée par deux (« half »)."""
    movement_cost: int = Field(1, ge=1, le=10)
    """Cases de déplacement que coûte chaque case parcourue."""
    sense: str | None = None
    """Sens que l'état retire (une clé de senses)."""
    no_immediate_actions: bool = False
    """L'état interdit les actions immédiates."""
    no_verbal_spells: bool = False
    """L'état interdit les sorts à composante verbale."""
    cannot_aim: bool = False
    """L'état empêche de viser."""
    no_ranged_weapons: bool = False
    """L'état interdit les armes à distance."""
    no_tracking: bool = False
    """L'état empêche de suivre une piste."""
    loses_window: bool = False
    """L'état fait perdre le reste de sa fenêtre."""
    gm_controls: bool = False
    """Le meneur décide de ce que fait le personnage à chacun de ses tours."""
    cannot_approach_source: bool = False
    """Le personnage ne peut pas s'approcher volontairement de la source de l'état."""
    stand_up_segments: int | None = Field(None, ge=0)
    """Segments que coûte de se relever (pour un état qui met à terre)."""
    drop_weapon_dd: int | None = None
    """Difficulté du jet pour ne pas lâcher son arme quand l'état est posé."""
    hides_points: bool = False
    """L'état cache ses propres points de vie au personnage (seul le meneur les voit)."""
    surprise: bool = False
    """L'état est la surprise : il repousse la fenêtre du personnage."""


HEALTH_STATE_IDS = ("en_forme", "blesse", "chancelant", "inconscient", "mourant", "stabilise", "mort")


class SegmentsRules(Table):
    general: GeneralRules
    """Règles générales : dés des jets et taille des cases."""
    time_units: dict[str, PositiveInt]
    """Durée de chaque unité de temps, en secondes (segment, tour, heure, jour au moins ; le tour est un multiple du
    segment).
    """
    time_labels: dict[str, str]
    """Nom de chaque unité de temps, tel que la fiche l'affiche."""
    health: HealthRules
    """États de santé selon les points de vie."""
    dying: DyingRules
    """Mourir : perte de points de vie et stabilisation."""
    nonlethal: NonlethalRules
    """Dégâts non létaux : récupération et soins."""
    reduction: ReductionRules
    """Réduction de dégâts : cumul, bouclier, armure naturelle."""
    armours: dict[ArmourKind, ArmourRule]
    """Armures et leur réduction de dégâts (legere, intermediaire, lourde)."""
    damage_types: dict[str, DamageTypeRule]
    """Types de dégâts connus, en minuscules ; une attaque d'un autre type est refusée."""
    fall: FallRules
    """Chutes : dés par tranche de hauteur, plafond, jet d'Agilité."""
    suffocation: SuffocationRules
    """Suffocation : tours tenus et mort."""
    fire: FireRules
    """Feu : dégâts par tour et jet pour s'éteindre."""
    exposure: dict[ExposureKind, ExposureRule]
    """Froid et chaleur extrêmes : dégâts et fatigue par heure d'exposition."""
    privations: dict[Need, PrivationRule]
    """Faim, soif, veille : heures avant chaque degré de fatigue."""
    fatigue: FatigueRules
    """Échelle de fatigue."""
    rest: RestRules
    """Nuit de repos : durée, fatigue retirée, points de vie rendus."""
    surprise: SurpriseRules
    """Surprise : segments accordés et durée de l'état."""
    light: dict[LightLevel, LightRule]
    """Niveaux d'éclairage (vive, faible, obscurite) et leurs effets."""
    senses: dict[str, SenseRule]
    """Les sens qu'un état peut retirer."""
    health_states: dict[str, HealthState]
    """États de santé montrés par le badge de la fiche."""
    condition_groups: dict[str, ConditionGroup]
    """Groupes d'états, comme la fiche les range."""
    conditions: dict[str, ConditionRule]
    """États (conditions) et leurs effets chiffrés."""

    @model_validator(mode="after")
    def _references(self) -> "SegmentsRules":
        for unit in ("segment", "turn", "hour", "day"):
            if self.time_units.get(unit, 0) < 1:
                raise ValueError(f"time_units.{unit} doit exister et valoir au moins 1 seconde")
        if self.time_units["turn"] % self.time_units["segment"]:
            raise ValueError("time_units.turn doit être un multiple de time_units.segment")
        for needed in ("legere", "intermediaire", "lourde"):
            if needed not in self.armours:
                raise ValueError(f"armours.{needed} manque")
        for level in ("vive", "faible", "obscurite"):
            if level not in self.light:
                raise ValueError(f"light.{level} manque")
        for kind in ("froid", "chaleur"):
            if kind not in self.exposure:
                raise ValueError(f"exposure.{kind} manque")
        for need in ("food", "water", "sleep"):
            if need not in self.privations:
                raise ValueError(f"privations.{need} manque")
        for state in HEALTH_STATE_IDS:
            if state not in self.health_states:
                raise ValueError(f"l'état de santé « {state} » manque dans health_states")
        for tid in self.damage_types:
            if tid != tid.strip().lower() or not re.match(_TYPE_ID, tid):
                raise ValueError(f"damage_types : « {tid} » doit s'écrire en minuscules, en mots séparés d'une espace")
        for where, dtype in (
            ("fall.damage_type", self.fall.damage_type),
            ("fire.damage_type", self.fire.damage_type),
            *((f"exposure.{k}.damage_type", e.damage_type) for k, e in self.exposure.items()),
        ):
            if dtype not in self.damage_types:
                raise ValueError(f"{where} cite un type de dégâts inconnu « {dtype} »")
        check_condition_references(self.conditions, self.condition_groups, self.health_states)
        for cid, cond in self.conditions.items():
            if cond.sense is not None and cond.sense not in self.senses:
                raise ValueError(f"l'état « {cid} » cite un sens inconnu « {cond.sense} »")
        for cid in self.fatigue.levels:
            if cid not in self.conditions:
                raise ValueError(f"fatigue.levels cite un état inconnu « {cid} »")
        for lid, rule in self.light.items():
            if rule.blinds is not None and rule.blinds not in self.conditions:
                raise ValueError(f"light.{lid}.blinds cite un état inconnu « {rule.blinds} »")
        return self

    @property
    def segments_per_turn(self) -> int:
        return self.time_units["turn"] // self.time_units["segment"]

    @functools.cached_property
    def memo(self) -> "Memo":
        """What the rules compute again and again from this table and a few fields of a sheet (per table)."""
        return Memo(self)


class Memo:
    """Results of pure functions of this table and a few sheet fields, kept so that ``apply`` does not redo
    them for every action (the effective states of a sheet, its reductions against a hit's types…)."""

    LIMIT = 4096

    def __init__(self, rs: SegmentsRules) -> None:
        self.hides = frozenset(c for c, r in rs.conditions.items() if r.hides_points)
        self.drops = frozenset(c for c, r in rs.conditions.items() if r.drop_weapon_dd is not None)
        # The states that bring a hiding (or weapon-dropping) state along, themselves or through ``implies``;
        # when only set states can (not a fatigue degree, not the light), a glance at the set ones answers.
        self.hide_roots = self._roots(rs, self.hides)
        self.drop_roots = self._roots(rs, self.drops)
        derived = {*rs.fatigue.levels, *(r.blinds for r in rs.light.values() if r.blinds is not None)}
        self.hides_only_when_set = derived.isdisjoint(self.hide_roots)
        self.drops_only_when_set = derived.isdisjoint(self.drop_roots)
        self.energies = frozenset(k for k, v in rs.damage_types.items() if v.energy)
        self.types = frozenset(rs.damage_types)
        self.surprises = frozenset(c for c, r in rs.conditions.items() if r.surprise)
        # The table's figures an action reads every time, kept as plain attributes (issue 15: an attribute of a
        # pydantic model takes CPython's slow path, ~250 machine instructions; a plain object's does not).
        self.wounded_num, self.wounded_den = rs.health.wounded_fraction
        self.breaks_stabilisation = rs.dying.damage_breaks_stabilisation
        self.heal_removes_nonlethal = rs.nonlethal.heal_removes_nonlethal
        self.conditions = rs.conditions
        self.fatigue_levels = rs.fatigue.levels
        self.labels = {c: r.label for c, r in rs.conditions.items()}
        self._values: dict[tuple[Any, ...], Any] = {}
        # A hit's plan by (armour, shield, natural armour, reductions, resistances, the hit's types): ``hit_plan``.
        self.plans: dict[tuple[Any, ...], Any] = {}
        # A damage type as typed: its tags and the unknown ones (``damage_type``), read by ``damage`` directly.
        self.typed: dict[str | None, tuple[frozenset[str], list[str]]] = {}

    def damage_type(self, text: str | None) -> tuple[frozenset[str], list[str]]:
        """A hit's types as typed (``"tranchant, argent"``), and those the table does not know, sorted."""
        found: tuple[frozenset[str], list[str]] | None = self.typed.get(text)
        if found is None:
            from rules.systems.segments.derive import damage_tags

            tags = damage_tags(text)
            if len(self.typed) >= self.LIMIT:
                self.typed.clear()
            found = self.typed[text] = (tags, sorted(tags - self.types))
        return found

    @staticmethod
    def _roots(rs: SegmentsRules, targets: frozenset[str]) -> frozenset[str]:
        roots = set()
        for cid in rs.conditions:
            seen, pending = {cid}, [cid]
            while pending:
                for implied in rs.conditions[pending.pop()].implies:
                    if implied not in seen:
                        seen.add(implied)
                        pending.append(implied)
            if not targets.isdisjoint(seen):
                roots.add(cid)
        return frozenset(roots)

    def get(self, key: tuple[Any, ...]) -> Any:
        return self._values.get(key)

    def put(self, key: tuple[Any, ...], value: Any) -> Any:
        return self.keep(self._values, key, value)

    def keep(self, store: dict[Any, Any], key: Any, value: Any) -> Any:
        """``value`` kept in ``store`` (one of this memo's dicts) under ``key``; a full store starts again."""
        if len(store) >= self.LIMIT:
            store.clear()
        store[key] = value
        return value
