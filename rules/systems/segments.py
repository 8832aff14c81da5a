"""Segments (seed 002, chapitre 7 « Encaisser »).

Points de vie (PV) that go below zero: states by thresholds (En forme, Blessé, Chancelant, Inconscient,
Mourant, dead at the negative of the Constitution); nonlethal damage counted apart; dying at 1 PV per
segment with a Vigueur DD 20 once per turn, or an ally who stabilises without a roll; states with numbers
summed into the sheet's modifiers (armour class, attack, Réflexes, all rolls, speed in squares, the
segment at which the turn starts); the fatigue ladder; the four senses; damage reduction X/type per hit,
energy and magic resistance; harm from the world (falls, drowning, fire, cold and heat, hunger, thirst,
sleeplessness) driven by ``AdvanceTime``; light and darkvision.
Every number of the seed lives in ``resources/rulesets/segments.toml``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import Field, PositiveInt, field_validator, model_validator

from rules.actions import (
    Action,
    AdvanceTime,
    ClearConditions,
    Damage,
    GainTemporary,
    Heal,
    LongRest,
    LoseTemporary,
    SetCondition,
    Stabilise,
)
from rules.errors import FIELD_LABELS, Refused
from rules.info import (
    IDENTITY_FIELDS,
    ChoiceInfo,
    ConditionGroupInfo,
    ConditionInfo,
    FieldInfo,
    HealthStateInfo,
    LadderInfo,
    LadderLevel,
    SystemInfo,
)
from rules.model import (
    MAX_POINTS,
    Context,
    Derived,
    Explained,
    SheetBase,
    Term,
    evolve,
    explained_modifier,
    explained_sum,
    fmt_int,
    plural,
    signed,
)
from rules.ruleset import (
    ConditionGroupTable,
    ConditionTable,
    HealthStateTable,
    Table,
    check_condition_references,
)
from rules.systems import System, register

SYSTEM_ID = "segments"
# Time steps simulated in one AdvanceTime at most (burning, exposure… each need their own steps; ~0.1 ms each).
STEP_CAP = 20_000
MAX_BONUS = 50

# French names of this sheet's fields, for validation messages and the Edit journal.
for _key, _label in {
    "fortitude_save": "sauvegarde de Vigueur",
    "reflex_save": "sauvegarde de Réflexes",
    "agility": "Agilité",
    "attack_bonus": "bonus d'attaque",
    "armour_class": "classe d'armure",
    "speed_squares": "vitesse (cases)",
    "initiative_segment": "segment de début de tour",
    "stabilised": "stabilisé",
    "dead": "mort",
    "fatigue": "fatigue",
    "armour": "armure",
    "shield": "bouclier",
    "natural_armour": "armure naturelle",
    "damage_reductions": "réductions de dégâts",
    "energy_resistances": "résistances à l'énergie",
    "magic_resistance": "résistance à la magie",
    "light": "éclairage",
    "darkvision_m": "vision dans le noir (m)",
    "burning": "en feu",
    "suffocating_for": "privé d'air depuis",
    "exposure": "exposition",
    "exposure_for": "exposé depuis",
    "exposure_save_dd": "difficulté de la sauvegarde d'exposition",
    "privations": "privations",
    "surprise_segments": "segments de surprise",
    "self_stabilise_turn": "tour de la dernière tentative de stabilisation",
}.items():
    FIELD_LABELS.setdefault(_key, _label)

# --------------------------------------------------------------------------------------------------
# Rule table
# --------------------------------------------------------------------------------------------------

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
    square_m: float = Field(gt=0)

    _dice = field_validator("check_dice")(_check_dice)


class HealthRules(Table):
    wounded_fraction: tuple[int, int]

    @field_validator("wounded_fraction")
    @classmethod
    def _fraction(cls, value: tuple[int, int]) -> tuple[int, int]:
        num, den = value
        if den < 1 or not 0 <= num <= den:
            raise ValueError("une fraction [numérateur, dénominateur] entre 0 et 1, par exemple [1, 2]")
        return value


class DyingRules(Table):
    loss_per_segment: int = Field(ge=0, le=1000)
    self_stabilise_dd: int
    auto_self_stabilise: bool
    damage_breaks_stabilisation: bool


class NonlethalRules(Table):
    recovery_per_hour_per_level: int = Field(ge=0)
    heal_removes_nonlethal: bool


class ReductionRules(Table):
    applies_to_energy: bool
    all_stack: bool
    shield: int = Field(ge=0)
    natural_armour_step: int = Field(ge=1)
    natural_armour_per_step: int = Field(ge=0)


class ArmourRule(Table):
    label: str
    reduction: int = Field(ge=0)


class DamageTypeRule(Table):
    label: str
    energy: bool = False


class FallRules(Table):
    metres_per_die: int = Field(ge=1)
    die: Dice
    max_dice: int = Field(ge=0, le=1000)
    agility_metres: int = Field(ge=0)
    damage_type: str
    lands_prone: bool

    _dice = field_validator("die")(_check_dice)


class SuffocationRules(Table):
    turns_per_constitution: int = Field(ge=1)
    death_after_turns: int = Field(ge=0)


class FireRules(Table):
    damage: Dice
    damage_type: str
    extinguish_dd: int

    _dice = field_validator("damage")(_check_dice)


class ExposureRule(Table):
    label: str
    damage: Dice
    damage_every_hours: int = Field(ge=1)
    damage_type: str
    fatigue_every_hours: int = Field(ge=1)

    _dice = field_validator("damage")(_check_dice)


class PrivationRule(Table):
    label: str
    hours: int = Field(ge=1)


class FatigueRules(Table):
    levels: tuple[str, ...] = Field(min_length=1, max_length=20)


class RestRules(Table):
    min_hours: int = Field(ge=0)
    fatigue_steps: int = Field(ge=0)
    needs_food_and_water: bool
    heal_per_level: int = Field(ge=0)


class SurpriseRules(Table):
    default_segments: int = Field(ge=0, le=100)
    ends_at_turn_end: bool


class LightRule(Table):
    label: str
    effect: str
    sight_rolls: int = Field(0, le=0)
    blinds: str | None = None
    darkvision_as: LightLevel | None = None


class SenseRule(Table):
    label: str
    illusions: str


class HealthState(HealthStateTable):
    note: str = ""


class ConditionGroup(ConditionGroupTable):
    note: str = ""


class ConditionRule(ConditionTable):
    """A state and its numbers (« 7.3 Les états »)."""

    armour_class: int = 0
    reflex: int = 0
    attack: int = 0
    all_rolls: int = Field(0, le=0)
    speed_squares: int = 0
    turn_start: int = 0
    speed: Literal["zero", "half"] | None = None
    movement_cost: int = Field(1, ge=1, le=10)
    sense: str | None = None
    no_immediate_actions: bool = False
    no_verbal_spells: bool = False
    cannot_aim: bool = False
    no_ranged_weapons: bool = False
    no_tracking: bool = False
    loses_window: bool = False
    gm_controls: bool = False
    cannot_approach_source: bool = False
    stand_up_segments: int | None = Field(None, ge=0)
    drop_weapon_dd: int | None = None
    hides_points: bool = False
    surprise: bool = False


HEALTH_STATE_IDS = ("en_forme", "blesse", "chancelant", "inconscient", "mourant", "stabilise", "mort")


class SegmentsRules(Table):
    general: GeneralRules
    time_units: dict[str, PositiveInt]
    time_labels: dict[str, str]
    health: HealthRules
    dying: DyingRules
    nonlethal: NonlethalRules
    reduction: ReductionRules
    armours: dict[ArmourKind, ArmourRule]
    damage_types: dict[str, DamageTypeRule]
    fall: FallRules
    suffocation: SuffocationRules
    fire: FireRules
    exposure: dict[ExposureKind, ExposureRule]
    privations: dict[Need, PrivationRule]
    fatigue: FatigueRules
    rest: RestRules
    surprise: SurpriseRules
    light: dict[LightLevel, LightRule]
    senses: dict[str, SenseRule]
    health_states: dict[str, HealthState]
    condition_groups: dict[str, ConditionGroup]
    conditions: dict[str, ConditionRule]

    @model_validator(mode="after")
    def _references(self) -> SegmentsRules:
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


# --------------------------------------------------------------------------------------------------
# Reductions and resistances as the player writes them
# --------------------------------------------------------------------------------------------------

_DASHES = {"", "-", "−", "–", "—"}
_REDUCTION = re.compile(r"^\s*(\d{1,4})\s*/\s*(.*?)\s*$")
_RESISTANCE = re.compile(r"^\s*([^\W\d_][\w' -]*?)\s*[:=]?\s*(\d{1,4})\s*$")
_TYPE_TEXT = re.compile(r"^[^\W\d_][\w' -]{0,39}$")


@functools.lru_cache(maxsize=512)
def parse_reduction(text: str) -> tuple[int, str | None]:
    """``"5/argent"`` → ``(5, "argent")``; ``"2/−"`` → ``(2, None)`` (bypassed by nothing)."""
    match = _REDUCTION.match(text)
    if not match:
        raise ValueError(f"« {text} » n'est pas une réduction de dégâts : écrivez X/type, par exemple 5/argent ou 2/−")
    amount = int(match.group(1))
    kind = match.group(2).strip().lower()
    if kind in _DASHES:
        if not match.group(2).strip():
            raise ValueError(
                f"« {text} » : précisez après la barre le type qui la contourne, ou − si rien ne la contourne"
            )
        return amount, None
    if not _TYPE_TEXT.match(kind):
        raise ValueError(f"« {text} » : le type « {kind} » doit être un mot (argent, magie, fer froid…)")
    return amount, kind


def reduction_text(amount: int, bypass: str | None) -> str:
    return f"{amount}/{bypass or '−'}"


@functools.lru_cache(maxsize=512)
def parse_resistance(text: str) -> tuple[str, int]:
    """``"feu 10"`` → ``("feu", 10)``."""
    match = _RESISTANCE.match(text)
    if not match:
        raise ValueError(
            f"« {text} » n'est pas une résistance à l'énergie : écrivez l'énergie puis la valeur, par exemple feu 10"
        )
    return match.group(1).strip().lower(), int(match.group(2))


def _split_list(value: Any) -> Any:
    """A list typed in one text field (« 5/argent, 2/− ») becomes a list."""
    if isinstance(value, str):
        return tuple(p for p in re.split(r"[,;\n]", value) if p.strip())
    return value


# --------------------------------------------------------------------------------------------------
# Sheet
# --------------------------------------------------------------------------------------------------


class SegmentsSheet(SheetBase):
    """A Segments character: points de vie (PV) that can go below zero, and all that the body suffers."""

    system: Literal["segments"] = "segments"
    # « un personnage à 12 de Constitution meurt à −12 »
    constitution: int = Field(10, ge=1, le=50)
    # Bonuses added to the d20 (the seed's chapters on characteristics are not part of seed 002).
    fortitude_save: int = Field(0, ge=-MAX_BONUS, le=MAX_BONUS)
    reflex_save: int = Field(0, ge=-MAX_BONUS, le=MAX_BONUS)
    agility: int = Field(0, ge=-MAX_BONUS, le=MAX_BONUS)
    attack_bonus: int = Field(0, ge=-MAX_BONUS, le=MAX_BONUS)
    armour_class: int = Field(10, ge=0, le=100)
    speed_squares: int = Field(6, ge=0, le=100)
    # The segment of the turn at which this character's window opens, before states.
    initiative_segment: int = Field(1, ge=1, le=100)
    # Points de vie: below 0 is Mourant; at the negative of the Constitution, dead.
    current: int = Field(10, ge=-MAX_POINTS, le=MAX_POINTS)
    base_maximum: int = Field(10, ge=1, le=MAX_POINTS)
    temporary: int = Field(0, ge=0, le=MAX_POINTS)
    nonlethal: int = Field(0, ge=0, le=MAX_POINTS)
    stabilised: bool = False
    dead: bool = False
    # The turn (clock // turn length) of the last Vigueur roll to stabilise alone: « une fois par tour ».
    self_stabilise_turn: int | None = Field(None, ge=0)
    conditions: tuple[str, ...] = Field((), max_length=100)
    surprise_segments: int = Field(0, ge=0, le=100)
    # Fatigue ladder: 0 none, 1 Fatigué, 2 Épuisé, 3 Vacillant (the table's ``fatigue.levels``).
    fatigue: int = Field(0, ge=0, le=20)
    # Protections (« 7.4 Encaisser »), edited by the player.
    armour: Literal["", "legere", "intermediaire", "lourde"] = ""
    shield: bool = False
    natural_armour: int = Field(0, ge=0, le=1000)
    damage_reductions: tuple[str, ...] = Field((), max_length=20)
    energy_resistances: tuple[str, ...] = Field((), max_length=20)
    magic_resistance: int = Field(0, ge=0, le=1000)
    # « 7.6 Lumière et vision »
    light: LightLevel = "vive"
    darkvision_m: int = Field(0, ge=0, le=10_000)
    # « 7.5 Ce que le monde inflige »: ongoing harm, driven by AdvanceTime (counters in seconds).
    burning: bool = False
    suffocating_for: int | None = Field(None, ge=0)
    exposure: Literal["", "froid", "chaleur"] = ""
    exposure_for: int = Field(0, ge=0)
    exposure_save_dd: int | None = Field(None, ge=1, le=100)
    privations: tuple[Need, ...] = ()
    hungry_for: int = Field(0, ge=0)
    thirsty_for: int = Field(0, ge=0)
    sleepless_for: int = Field(0, ge=0)

    @field_validator("conditions", "privations")
    @classmethod
    def _sorted_unique(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(sorted(set(value)))

    @field_validator("damage_reductions", mode="before")
    @classmethod
    def _reductions_text(cls, value: Any) -> Any:
        return _split_list(value)

    @field_validator("damage_reductions")
    @classmethod
    def _reductions(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(reduction_text(*parse_reduction(v)) for v in value)

    @field_validator("energy_resistances", mode="before")
    @classmethod
    def _resistances_text(cls, value: Any) -> Any:
        return _split_list(value)

    @field_validator("energy_resistances")
    @classmethod
    def _resistances(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        seen: set[str] = set()
        result = []
        for text in value:
            energy, amount = parse_resistance(text)
            if energy in seen:
                raise ValueError(f"deux résistances à l'énergie « {energy} » : gardez-en une seule")
            seen.add(energy)
            result.append(f"{energy} {amount}")
        return tuple(result)

    @model_validator(mode="after")
    def _coherent(self) -> SegmentsSheet:
        if self.current > self.base_maximum:
            raise ValueError(f"les points de vie actuels ({self.current}) dépassent le maximum ({self.base_maximum})")
        return self


PRIVATION_COUNTERS: dict[str, str] = {"food": "hungry_for", "water": "thirsty_for", "sleep": "sleepless_for"}

# --------------------------------------------------------------------------------------------------
# System-specific actions
# --------------------------------------------------------------------------------------------------


class SetFatigue(Action):
    """The fatigue ladder: 0 none, 1 Fatigué, 2 Épuisé, 3 Vacillant (lowering it is a GM's correction)."""

    kind: Literal["set_fatigue"] = "set_fatigue"
    level: int = Field(ge=0, le=20)

    def title(self) -> str:
        return f"Fatigue degré {self.level}" if self.level else "Fatigue retirée"


class AddFatigue(Action):
    """« un personnage déjà fatigué qui se fatigue encore devient épuisé »."""

    kind: Literal["add_fatigue"] = "add_fatigue"
    steps: int = Field(1, ge=1, le=20)

    def title(self) -> str:
        return "Se fatiguer" if self.steps == 1 else f"Se fatiguer ({self.steps} degrés)"


class StandUp(Action):
    """« se relever coûte 1 segment »."""

    kind: Literal["stand_up"] = "stand_up"

    def title(self) -> str:
        return "Se relever"


class SetSurprise(Action):
    """Surpris by ``segments`` surprise segments (0: the surprise is over)."""

    kind: Literal["set_surprise"] = "set_surprise"
    segments: int = Field(ge=0, le=100)

    def title(self) -> str:
        return f"Surpris ({plural(self.segments, 'segment')})" if self.segments else "Fin de la surprise"


class Fall(Action):
    """A fall of ``metres``; the Agilité roll is rolled against ``agility_dd`` or given by ``agility_success``."""

    kind: Literal["fall"] = "fall"
    metres: float = Field(ge=0, le=100_000)
    agility_dd: int | None = Field(None, ge=1, le=100)
    agility_success: bool = False
    save_halves: bool = False

    def title(self) -> str:
        return f"Chute de {_metres(self.metres)} m"


class SetSuffocating(Action):
    """Drowning or suffocation starts (``active``) or the character breathes again."""

    kind: Literal["set_suffocating"] = "set_suffocating"
    active: bool = True

    def title(self) -> str:
        return "Privé d'air" if self.active else "Respire à nouveau"


class SetBurning(Action):
    """The character catches fire (``active``), or the fire goes out by itself."""

    kind: Literal["set_burning"] = "set_burning"
    active: bool = True

    def title(self) -> str:
        return "En feu" if self.active else "Ne brûle plus"


class Extinguish(Action):
    """« éteindre les flammes est une manœuvre, ou une action gratuite en se jetant à terre puis en roulant »."""

    kind: Literal["extinguish"] = "extinguish"
    method: Literal["maneuver", "roll"] = "maneuver"

    def title(self) -> str:
        return "Éteindre les flammes" if self.method == "maneuver" else "Se rouler au sol"


class SetExposure(Action):
    """Exposure to extreme cold or heat without protection ("" ends it); ``save_dd``: a save each hour halves."""

    kind: Literal["set_exposure"] = "set_exposure"
    exposure: Literal["", "froid", "chaleur"]
    save_dd: int | None = Field(None, ge=1, le=100)

    def title(self) -> str:
        return {"": "À l'abri", "froid": "Exposé au froid", "chaleur": "Exposé à la chaleur"}[self.exposure]


class SetPrivation(Action):
    """Going without food, water or sleep (``active``), or no longer."""

    kind: Literal["set_privation"] = "set_privation"
    need: Need
    active: bool = True

    def title(self) -> str:
        what = {"food": "manger", "water": "boire", "sleep": "dormir"}[self.need]
        return f"Sans {what}" if self.active else f"Peut {what}"


# --------------------------------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------------------------------


def _metres(value: float) -> str:
    return f"{value:g}".replace(".", ",")


def _name(sheet: SegmentsSheet) -> str:
    return sheet.name or "Le personnage"


def is_dead(sheet: SegmentsSheet) -> bool:
    """« meurt quand il atteint l'opposé de sa valeur de Constitution » — whatever the flag says."""
    return sheet.dead or sheet.current <= -sheet.constitution


def is_dying(sheet: SegmentsSheet) -> bool:
    return not is_dead(sheet) and sheet.current < 0 and not sheet.stabilised


def effective_light(sheet: SegmentsSheet, rs: SegmentsRules) -> tuple[LightLevel, str]:
    """The light the character sees by, and why (darkvision turns darkness into dim light)."""
    rule = rs.light[sheet.light]
    if rule.darkvision_as is not None and sheet.darkvision_m > 0:
        seen = rs.light[rule.darkvision_as]
        return rule.darkvision_as, (
            f"{rule.label} ; vision dans le noir sur {sheet.darkvision_m} m : traitée comme "
            f"{seen.label.lower()} dans cette portée (au-delà : {rule.label.lower()})"
        )
    return sheet.light, rule.label


def effective_conditions(sheet: SegmentsSheet, rs: SegmentsRules) -> dict[str, str]:
    """Every known state the character is under, with why (« posé », or what it comes from)."""
    result: dict[str, str] = {c: "posé" for c in sheet.conditions if c in rs.conditions}
    if sheet.fatigue:
        level = min(sheet.fatigue, len(rs.fatigue.levels))
        result.setdefault(rs.fatigue.levels[level - 1], f"découle du degré de fatigue {level}")
    level_id, _ = effective_light(sheet, rs)
    blinds = rs.light[level_id].blinds
    if blinds is not None:
        result.setdefault(blinds, f"découle de l'éclairage ({rs.light[level_id].label})")
    pending = list(result)
    while pending:
        rule = rs.conditions[pending.pop()]
        for implied in rule.implies:
            if implied not in result:
                result[implied] = f"découle de l'état {rule.label}"
                pending.append(implied)
    # In the table's order, so sums read the way the seed lists the states.
    return {c: result[c] for c in rs.conditions if c in result}


def _terms(known: Iterable[str], rs: SegmentsRules, attr: str, suffix: str = "") -> list[Term]:
    terms = []
    for cid in known:
        value = getattr(rs.conditions[cid], attr)
        if value:
            terms.append(Term(int(value), rs.conditions[cid].label + suffix))
    return terms


def points_hidden_by(known: Iterable[str], rs: SegmentsRules) -> list[str]:
    """The states that hide the PV from the player (Engourdi: « le meneur garde pour lui »)."""
    return [rs.conditions[c].label for c in known if rs.conditions[c].hides_points]


def _points_hidden(sheet: SegmentsSheet, rs: SegmentsRules) -> bool:
    return bool(points_hidden_by(effective_conditions(sheet, rs), rs))


def _pv_change(sheet: SegmentsSheet, rs: SegmentsRules, old: int, new: int) -> str:
    """``PV 12 → 9``, or nothing the player could read while Engourdi."""
    if _points_hidden(sheet, rs):
        return "total de PV caché (Engourdi : le meneur le garde)"
    return f"PV {fmt_int(old)} → {fmt_int(new)}"


def health_state(sheet: SegmentsSheet, rs: SegmentsRules) -> tuple[str, str]:
    """The state table of « 7.2 Tomber, et mourir », by thresholds."""
    con = sheet.constitution
    cur = sheet.current
    if is_dead(sheet):
        if cur <= -con:
            return "mort", f"{fmt_int(cur)} PV : l'opposé de sa Constitution ({con}) est atteint"
        return "mort", f"{fmt_int(cur)} PV, mort"
    if cur < 0:
        if sheet.stabilised:
            return "stabilise", f"{fmt_int(cur)} PV, hors combat mais stabilisé : ne perd plus de points de vie"
        loss = rs.dying.loss_per_segment
        return "mourant", f"{fmt_int(cur)} PV : hors combat, perd {loss} PV par segment, mort à {fmt_int(-con)}"
    if sheet.nonlethal > cur:
        return "inconscient", f"{sheet.nonlethal} dégâts non létaux > {cur} PV"
    if cur == 0:
        return "chancelant", "exactement 0 PV"
    num, den = rs.health.wounded_fraction
    if cur * den <= sheet.base_maximum * num:
        return "blesse", f"{cur} PV sur {sheet.base_maximum} : la moitié ou moins"
    return "en_forme", f"{cur} PV sur {sheet.base_maximum} : plus de la moitié"


OUT_OF_ACTION = frozenset({"inconscient", "mourant", "stabilise", "mort"})


def _check(
    ctx: Context,
    sheet: SegmentsSheet,
    save: Literal["fortitude", "reflex", "agility"],
    dd: int,
    what: str,
    bonus: int = 0,
) -> bool:
    """A d20 roll + the sheet's bonus + the states' modifiers against ``dd``."""
    rs: SegmentsRules = ctx.ruleset
    count, sides = rs.general.check_dice
    roll = ctx.dice(count, sides, what)
    known = effective_conditions(sheet, rs)
    terms = _terms(known, rs, "all_rolls", ", tous les jets")
    if save == "fortitude":
        base, label = sheet.fortitude_save, "Vigueur"
    elif save == "reflex":
        base, label = sheet.reflex_save, "Réflexes"
        terms = _terms(known, rs, "reflex") + terms
    else:
        base, label = sheet.agility, "Agilité"
    total = roll.total + base + bonus + sum(t.value for t in terms)
    parts = f"{roll.detail} {signed(base)} ({label})"
    parts += "".join(f" {signed(t.value)} ({t.reason})" for t in terms)
    if bonus:
        parts += f" {signed(bonus)}"
    success = total >= dd
    ctx.say(f"{what} : {parts} = {total} contre difficulté {dd} → {'réussite' if success else 'échec'}.")
    return success


def _die(sheet: SegmentsSheet, ctx: Context, why: str) -> SegmentsSheet:
    # « La mort est automatique : ce n'est pas une décision du meneur. »
    ctx.say(f"{_name(sheet)} meurt ({why}).")
    ctx.event("died")
    return evolve(sheet, dead=True, stabilised=False, suffocating_for=None, burning=False)


_STATE_EVENTS = {"inconscient": "unconscious", "mourant": "dying", "chancelant": "staggered", "stabilise": "stabilised"}


def _settle(old: SegmentsSheet, new: SegmentsSheet, rs: SegmentsRules, ctx: Context) -> SegmentsSheet:
    """After PV or nonlethal changed: dying ends, death comes, and the journal says the new state."""
    if new.current >= 0 and (new.stabilised or new.self_stabilise_turn is not None):
        new = evolve(new, stabilised=False, self_stabilise_turn=None)
    if not new.dead and new.current <= -new.constitution:
        new = _die(
            new,
            ctx,
            f"{fmt_int(new.current)} PV : l'opposé de sa Constitution ({new.constitution}) est atteint",
        )
    before, _ = health_state(old, rs)
    after, why = health_state(new, rs)
    if before != after and after != "mort":
        hidden = _points_hidden(new, rs)
        # While Engourdi the player must not read their total: only falling out of action is told.
        if not hidden or after in OUT_OF_ACTION or before in OUT_OF_ACTION:
            line = f"{_name(new)} : {rs.health_states[before].label} → {rs.health_states[after].label}"
            ctx.say(line + ("." if hidden else f" ({why})."))
        if after in _STATE_EVENTS:
            ctx.event(_STATE_EVENTS[after])
        if after == "mourant":
            ctx.say(
                f"Hors combat : perd {rs.dying.loss_per_segment} PV par segment ; Vigueur difficulté "
                f"{rs.dying.self_stabilise_dd} une fois par tour, ou un allié le stabilise sans jet."
            )
    return new


# --- Damage reduction and resistances (« 7.4 Encaisser ») -----------------------------------------


@dataclass(frozen=True, slots=True)
class Reduction:
    """One reduction X/type and where it comes from (armour, shield, natural armour, the creature)."""

    amount: int
    bypass: str | None
    source: str

    @property
    def text(self) -> str:
        return reduction_text(self.amount, self.bypass)


def reductions(sheet: SegmentsSheet, rs: SegmentsRules) -> list[Reduction]:
    """Every reduction the sheet carries, armour table first (« Ces réductions se cumulent entre elles »)."""
    found: list[Reduction] = []
    if sheet.armour:
        rule = rs.armours[sheet.armour]
        if rule.reduction:
            found.append(Reduction(rule.reduction, None, rule.label.lower()))
    if sheet.shield and rs.reduction.shield:
        found.append(Reduction(rs.reduction.shield, None, "bouclier"))
    natural = sheet.natural_armour // rs.reduction.natural_armour_step * rs.reduction.natural_armour_per_step
    if natural:
        found.append(Reduction(natural, None, f"armure naturelle {sheet.natural_armour}"))
    for text in sheet.damage_reductions:
        amount, bypass = parse_reduction(text)
        found.append(Reduction(amount, bypass, "propre à la créature"))
    return found


def damage_tags(damage_type: str | None) -> frozenset[str]:
    """``"tranchant, argent"`` → the attack's types; a reduction X/type is bypassed by any of them."""
    if not damage_type:
        return frozenset()
    return frozenset(t.strip().lower() for t in re.split(r"[,;+]", damage_type) if t.strip())


def resistances(sheet: SegmentsSheet) -> dict[str, int]:
    return dict(parse_resistance(t) for t in sheet.energy_resistances)


def _energies(tags: frozenset[str], sheet: SegmentsSheet, rs: SegmentsRules) -> list[str]:
    resisted = resistances(sheet)
    return sorted(t for t in tags if (t in rs.damage_types and rs.damage_types[t].energy) or t in resisted)


def applicable_reduction(
    sheet: SegmentsSheet, rs: SegmentsRules, tags: frozenset[str]
) -> tuple[int, list[Reduction], list[Reduction]]:
    """Points a hit of these types loses, the reductions that stop it and those it bypasses."""
    if _energies(tags, sheet, rs) and not rs.reduction.applies_to_energy:
        return 0, [], []
    every = reductions(sheet, rs)
    used = [r for r in every if r.bypass is None or r.bypass not in tags]
    bypassed = [r for r in every if r not in used]
    if used and not rs.reduction.all_stack:
        used = [max(used, key=lambda r: r.amount)]
    return sum(r.amount for r in used), used, bypassed


def applicable_resistance(sheet: SegmentsSheet, rs: SegmentsRules, tags: frozenset[str]) -> tuple[int, str]:
    """« réservé à une énergie précise … et sans contournement possible »."""
    energies = _energies(tags, sheet, rs)
    if not energies:
        return 0, ""
    resisted = resistances(sheet)
    # A hit of several energies is stopped only as much as its least-resisted energy allows.
    weakest = min(energies, key=lambda e: resisted.get(e, 0))
    return resisted.get(weakest, 0), weakest


@dataclass(frozen=True, slots=True)
class Harm:
    """What hurts: a blow, a fall, flames, cold… (world harm ignores armour class, not reductions)."""

    what: str
    tags: frozenset[str] = frozenset()
    nonlethal: bool = False
    halved: bool = False
    blow: bool = False


def _hit(sheet: SegmentsSheet, raw: int, harm: Harm, rs: SegmentsRules, ctx: Context) -> SegmentsSheet:
    """One hit of ``raw`` damage: halving, reductions, resistance, temporary points, then PV."""
    name = _name(sheet)
    if is_dead(sheet):
        ctx.say(f"{name} est déjà mort : {raw} dégâts sans effet.")
        return sheet
    amount = raw
    parts = [f"{harm.what} : {raw} dégâts{' non létaux' if harm.nonlethal else ''}"]
    if harm.halved:
        amount //= 2
        parts.append("÷ 2 (sauvegarde réussie)")
    total, used, bypassed = applicable_reduction(sheet, rs, harm.tags)
    if total and amount:
        cut = min(amount, total)
        amount -= cut
        detail = " + ".join(f"{r.text} {r.source}" for r in used)
        parts.append(f"− {cut} (réduction {detail})")
    for red in bypassed:
        parts.append(f"(réduction {red.text} contournée)")
    if not used and not bypassed and not rs.reduction.applies_to_energy and reductions(sheet, rs):
        parts.append("(les réductions n'arrêtent pas les énergies)")
    resist, energy = applicable_resistance(sheet, rs, harm.tags)
    if resist and amount:
        cut = min(amount, resist)
        amount -= cut
        parts.append(f"− {cut} (résistance {energy} {resist})")
    absorbed = min(sheet.temporary, amount)
    rest = amount - absorbed
    if absorbed:
        parts.append(f"− {absorbed} (points de vie temporaires)")
    old_cur, old_nl = sheet.current, sheet.nonlethal
    if harm.nonlethal:
        # 7.1 « S'ils dépassent les points de vie actuels, le personnage tombe inconscient et l'excédent
        #   devient létal » : what this hit adds beyond the current PV is lethal (S3).
        excess = min(rest, max(0, old_nl + rest - max(old_cur, 0)))
        new_nl, new_cur = old_nl + rest - excess, old_cur - excess
    else:
        excess = 0
        new_nl, new_cur = old_nl, old_cur - rest
    line = " ".join(parts)
    if len(parts) > 1:
        line += f" = {rest}"
    new = evolve(sheet, temporary=sheet.temporary - absorbed, current=new_cur, nonlethal=new_nl)
    if harm.nonlethal:
        hidden = _points_hidden(sheet, rs)
        if hidden:
            line += " (total caché : Engourdi)"
        else:
            line += f" → non létaux {old_nl} → {new_nl}"
            if excess:
                line += f", l'excédent de {excess} devient létal : PV {fmt_int(old_cur)} → {fmt_int(new_cur)}"
    else:
        line += f" → {_pv_change(sheet, rs, old_cur, new_cur)}"
    ctx.say(line + ".")
    if (
        new_cur < old_cur
        and new.stabilised
        and new_cur < 0
        and rs.dying.damage_breaks_stabilisation
        and not is_dead(new)
    ):
        ctx.say(
            f"Les nouveaux dégâts rompent la stabilisation : il perd de nouveau {rs.dying.loss_per_segment} PV "
            "par segment."
        )
        new = evolve(new, stabilised=False)
    return _settle(sheet, new, rs, ctx)


def _weapon_drop(sheet: SegmentsSheet, rs: SegmentsRules, ctx: Context) -> bool:
    """Engourdi: « tout coup encaissé fait lâcher son arme sauf réussite d'une Vigueur difficulté 15 »."""
    known = effective_conditions(sheet, rs)
    dds = [rs.conditions[c].drop_weapon_dd for c in known if rs.conditions[c].drop_weapon_dd is not None]
    if not dds or health_state(sheet, rs)[0] in OUT_OF_ACTION:
        return False
    dd = max(d for d in dds if d is not None)
    if _check(ctx, sheet, "fortitude", dd, "Vigueur pour garder son arme (Engourdi)"):
        return False
    ctx.say(f"{_name(sheet)} ne sent plus ce qu'il tient : il lâche son arme.")
    ctx.event("weapon_dropped")
    return True


# --- Fatigue -----------------------------------------------------------------------------------------


def fatigue_label(level: int, rs: SegmentsRules) -> str:
    if level <= 0:
        return "aucune fatigue"
    return rs.conditions[rs.fatigue.levels[min(level, len(rs.fatigue.levels)) - 1]].label


def _fatigue_to(sheet: SegmentsSheet, level: int, rs: SegmentsRules, ctx: Context, why: str) -> SegmentsSheet:
    top = len(rs.fatigue.levels)
    level = max(0, level)
    if level > top:
        # The seed stops at the third degree (S14).
        ctx.say(f"La fatigue ne dépasse pas le degré {top} ({fatigue_label(top, rs)}).")
        level = top
    if level == sheet.fatigue:
        ctx.say(f"Fatigue inchangée : {fatigue_label(level, rs)}.")
        return sheet
    line = f"Fatigue ({why}) : {fatigue_label(sheet.fatigue, rs)} → {fatigue_label(level, rs)}"
    if level:
        rule = rs.conditions[rs.fatigue.levels[level - 1]]
        line += f" ({rule.effects[0].rstrip('.')})"
    ctx.say(line + ".")
    if level > sheet.fatigue:
        ctx.event("fatigue")
    return evolve(sheet, fatigue=level)


# --- Turn start, speed -------------------------------------------------------------------------------


def surprise_segments(sheet: SegmentsSheet, rs: SegmentsRules) -> int:
    return sheet.surprise_segments or rs.surprise.default_segments


def turn_start(sheet: SegmentsSheet, rs: SegmentsRules, known: Iterable[str] | None = None) -> Explained:
    """The segment at which the character's window opens: base, then Lenteur, Rapidité, Vacillant, Surpris."""
    if known is None:
        known = effective_conditions(sheet, rs)
    known = list(known)
    terms = _terms(known, rs, "turn_start")
    surprised = [rs.conditions[c].label for c in known if rs.conditions[c].surprise]
    if surprised:
        terms.append(Term(surprise_segments(sheet, rs), f"{surprised[0]} : segments de surprise"))
    raw = explained_sum("début du tour au segment", sheet.initiative_segment, terms, "segment de base")
    value = max(1, int(raw.value))
    text = raw.text
    if value != raw.value:
        text += " ; ramené au segment 1, le premier du tour"
    spt = rs.segments_per_turn
    if value > spt:
        text += f" ; au-delà du segment {spt} : aucun segment ce tour-ci"
    else:
        text += f" ; {plural(spt - value + 1, 'segment')} sur {spt} dans le tour"
    return Explained(value, text)


def speed(sheet: SegmentsSheet, rs: SegmentsRules, known: Iterable[str]) -> tuple[Explained, int]:
    """Squares a character can cover in a turn, and the cost of each square."""
    known = list(known)
    base = explained_sum("vitesse", sheet.speed_squares, _terms(known, rs, "speed_squares"), "base, en cases")
    value = max(0, int(base.value))
    text = base.text + (", ramenée à 0" if value != base.value else "")
    zero = [rs.conditions[c].label for c in known if rs.conditions[c].speed == "zero"]
    halves = [rs.conditions[c].label for c in known if rs.conditions[c].speed == "half"]
    costly = [c for c in known if rs.conditions[c].movement_cost > 1]
    cost = max((rs.conditions[c].movement_cost for c in costly), default=1)
    if zero:
        return Explained(0, f"vitesse 0 case : aucun déplacement ({', '.join(zero)})"), cost
    for label in halves:
        value //= 2
        text += f", ÷ 2 ({label} : demi-vitesse) = {value}"
    if cost > 1:
        value //= cost
        labels = ", ".join(rs.conditions[c].label for c in costly)
        text += f", ÷ {cost} ({labels} : chaque case coûte {cost} fois plus) = {value}"
    metres = _metres(value * rs.general.square_m)
    return Explained(value, f"{text} → {plural(value, 'case')} ({metres} m)"), cost


# --------------------------------------------------------------------------------------------------
# Handlers
# --------------------------------------------------------------------------------------------------


def _alive(sheet: SegmentsSheet, what: str) -> None:
    if is_dead(sheet):
        raise Refused(f"{_name(sheet)} est mort : {what} impossible.")


def damage(sheet: SegmentsSheet, action: Damage, ctx: Context) -> SegmentsSheet:
    rs: SegmentsRules = ctx.ruleset
    if action.spell_check is not None and sheet.magic_resistance > 0:
        score = sheet.magic_resistance
        # « Atteindre le score suffit. En cas d'échec, le sort échoue entièrement : pas de jet de
        #   sauvegarde, pas de demi-dégâts, rien. »
        if action.spell_check < score:
            ctx.say(
                f"Résistance à la magie {score} : le lanceur obtient {action.spell_check}, le sort échoue "
                "entièrement (pas de jet de sauvegarde, pas de demi-dégâts, rien)."
            )
            ctx.event("spell_resisted")
            return sheet
        ctx.say(f"Résistance à la magie {score} percée ({action.spell_check} atteint {score}).")
    tags = damage_tags(action.damage_type)
    dropped = False
    for number in range(1, action.hits + 1):
        amount = ctx.amount(action.amount, "Dégâts")
        if amount.total < 0:
            raise Refused(f"Des dégâts négatifs ({amount.total}) n'ont pas de sens : utilisez Soins.")
        what = f"Coup {number}/{action.hits}" if action.hits > 1 else "Coup"
        if not amount.given:
            what += f" ({amount.detail})"
        harm = Harm(what, tags, nonlethal=action.nonlethal, halved=action.save_halves, blow=True)
        sheet = _hit(sheet, amount.total, harm, rs, ctx)
        if not dropped and not is_dead(sheet):
            dropped = _weapon_drop(sheet, rs, ctx)
    return sheet


def _restore(sheet: SegmentsSheet, amount: int, rs: SegmentsRules, ctx: Context, what: str) -> SegmentsSheet:
    top = sheet.base_maximum
    gained = max(0, min(amount, top - sheet.current))
    new_cur = sheet.current + gained
    new_nl = max(0, sheet.nonlethal - amount) if rs.nonlethal.heal_removes_nonlethal else sheet.nonlethal
    line = f"{what} : {_pv_change(sheet, rs, sheet.current, new_cur)}"
    if gained < amount and not _points_hidden(sheet, rs):
        line += f" (maximum {top} atteint)"
    if new_nl != sheet.nonlethal and not _points_hidden(sheet, rs):
        line += f" ; non létaux {sheet.nonlethal} → {new_nl}"
    ctx.say(line + ".")
    return _settle(sheet, evolve(sheet, current=new_cur, nonlethal=new_nl), rs, ctx)


def heal(sheet: SegmentsSheet, action: Heal, ctx: Context) -> SegmentsSheet:
    _alive(sheet, "regagner des points de vie")
    amount = ctx.amount(action.amount, "Soins")
    if amount.total < 0:
        raise Refused(f"Des soins négatifs ({amount.total}) n'ont pas de sens : utilisez Dégâts.")
    what = f"Soins {amount.detail}" if not amount.given else f"Soins {amount.total}"
    return _restore(sheet, amount.total, ctx.ruleset, ctx, what)


def gain_temporary(sheet: SegmentsSheet, action: GainTemporary, ctx: Context) -> SegmentsSheet:
    _alive(sheet, "recevoir des points temporaires")
    amount = ctx.amount(action.amount, "Points de vie temporaires").total
    if amount < 0:
        raise Refused("Des points temporaires négatifs n'ont pas de sens.")
    old = sheet.temporary
    # House rule for every system (GLOSSARY): temporary points never stack (S11).
    if old and not action.replace:
        ctx.say(f"Points de vie temporaires : {old} conservés, les {amount} nouveaux ne se cumulent pas.")
        return sheet
    ctx.say(
        f"Points de vie temporaires : {old} remplacés par {amount}."
        if old
        else f"Points de vie temporaires : {amount}."
    )
    return evolve(sheet, temporary=amount)


def lose_temporary(sheet: SegmentsSheet, action: LoseTemporary, ctx: Context) -> SegmentsSheet:
    if sheet.temporary:
        ctx.say(f"Les {sheet.temporary} points de vie temporaires prennent fin.")
    return evolve(sheet, temporary=0)


def set_condition(sheet: SegmentsSheet, action: SetCondition, ctx: Context) -> SegmentsSheet:
    rs: SegmentsRules = ctx.ruleset
    cid = action.condition
    if cid not in rs.conditions:
        raise Refused(f"État inconnu : « {cid} ».")
    label = rs.conditions[cid].label
    if cid in rs.fatigue.levels:
        if not action.active:
            raise Refused(
                "Seul le repos dissipe la fatigue : prenez un repos, ou corrigez le degré sur l'échelle de fatigue."
            )
        _alive(sheet, "se fatiguer")
        level = rs.fatigue.levels.index(cid) + 1
        if sheet.fatigue >= level:
            ctx.say(f"{label} : déjà {fatigue_label(sheet.fatigue, rs)}.")
            return sheet
        return _fatigue_to(sheet, level, rs, ctx, label)
    if action.active:
        if cid in sheet.conditions:
            ctx.say(f"{label} : déjà en place.")
            return sheet
        _alive(sheet, "changer d'état")
        changes: dict[str, object] = {"conditions": tuple(sorted({*sheet.conditions, cid}))}
        line = f"État {label} ajouté"
        if rs.conditions[cid].surprise:
            segments = surprise_segments(sheet, rs)
            changes["surprise_segments"] = segments
            line += f" ({plural(segments, 'segment')} de surprise)"
        ctx.say(line + ".")
        return evolve(sheet, **changes)
    if cid not in sheet.conditions:
        implied = effective_conditions(sheet, rs).get(cid)
        if implied:
            raise Refused(f"{label} {implied} : changez-en d'abord la cause.")
        ctx.say(f"{label} : n'était pas en place.")
        return sheet
    ctx.say(f"État {label} retiré.")
    changes = {"conditions": tuple(c for c in sheet.conditions if c != cid)}
    if rs.conditions[cid].surprise:
        changes["surprise_segments"] = 0
    return evolve(sheet, **changes)


def clear_conditions(sheet: SegmentsSheet, action: ClearConditions, ctx: Context) -> SegmentsSheet:
    rs: SegmentsRules = ctx.ruleset
    for cid in action.include:
        if cid not in rs.conditions:
            raise Refused(f"État inconnu : « {cid} ».")
    if sheet.conditions:
        ctx.say(
            "États retirés : " + ", ".join(rs.conditions[c].label for c in sheet.conditions if c in rs.conditions) + "."
        )
    else:
        ctx.say("Aucun état posé à retirer.")
    sheet = evolve(sheet, conditions=(), surprise_segments=0)
    if sheet.fatigue:
        ctx.say(f"{fatigue_label(sheet.fatigue, rs)} reste : seul le repos dissipe la fatigue.")
    remaining = effective_conditions(sheet, rs)
    for cid, why in remaining.items():
        if cid not in rs.fatigue.levels:
            ctx.say(f"{rs.conditions[cid].label} reste ({why}).")
    return sheet


def _stabilise(sheet: SegmentsSheet, ctx: Context, how: str) -> SegmentsSheet:
    ctx.say(f"{_name(sheet)} est stabilisé ({how}) : il ne perd plus de points de vie.")
    ctx.event("stabilised")
    return evolve(sheet, stabilised=True)


def _turn_index(sheet: SegmentsSheet, rs: SegmentsRules) -> int:
    return sheet.clock // rs.time_units["turn"]


def _self_stabilise(sheet: SegmentsSheet, rs: SegmentsRules, ctx: Context, bonus: int = 0) -> SegmentsSheet:
    dd = rs.dying.self_stabilise_dd
    ok = _check(ctx, sheet, "fortitude", dd, "Vigueur pour se stabiliser seul", bonus)
    sheet = evolve(sheet, self_stabilise_turn=_turn_index(sheet, rs))
    return _stabilise(sheet, ctx, f"Vigueur difficulté {dd} réussie") if ok else sheet


STABILISE_METHODS = ("self", "ally")


def stabilise(sheet: SegmentsSheet, action: Stabilise, ctx: Context) -> SegmentsSheet:
    rs: SegmentsRules = ctx.ruleset
    _alive(sheet, "se stabiliser")
    if action.method in ("first_aid", "medicine"):
        # « aucune compétence n'intervient : la Médecine soigne ce qui vient après, elle ne stabilise pas »
        raise Refused(
            "La Médecine soigne ce qui vient après, elle ne stabilise pas : un allié stabilise un mourant "
            "par une action d'interaction, sans jet."
        )
    if action.method not in STABILISE_METHODS:
        raise Refused(f"Méthode de stabilisation inconnue : « {action.method} » (attendu : seul, ou un allié).")
    if sheet.current >= 0:
        raise Refused("Seul un personnage à moins de zéro point de vie se stabilise.")
    if sheet.stabilised:
        raise Refused("Déjà stabilisé.")
    if action.method == "ally":
        # « Un allié peut le stabiliser avec une action d'interaction, sans jet »
        return _stabilise(sheet, ctx, "un allié, par une action d'interaction, sans jet")
    # « Il peut tenter un jet de Vigueur difficulté 20, une fois par tour, pour se stabiliser seul. »
    if sheet.self_stabilise_turn == _turn_index(sheet, rs):
        raise Refused("Une seule tentative de Vigueur par tour pour se stabiliser seul : attendez le tour suivant.")
    return _self_stabilise(sheet, rs, ctx, action.modifier)


def set_fatigue(sheet: SegmentsSheet, action: SetFatigue, ctx: Context) -> SegmentsSheet:
    rs: SegmentsRules = ctx.ruleset
    if action.level > sheet.fatigue:
        _alive(sheet, "se fatiguer")
    why = "échelle"
    if action.level < sheet.fatigue:
        why = "correction du meneur : seul le repos dissipe la fatigue"
    return _fatigue_to(sheet, action.level, rs, ctx, why)


def add_fatigue(sheet: SegmentsSheet, action: AddFatigue, ctx: Context) -> SegmentsSheet:
    _alive(sheet, "se fatiguer")
    # « un personnage déjà fatigué qui se fatigue encore devient épuisé »
    return _fatigue_to(sheet, sheet.fatigue + action.steps, ctx.ruleset, ctx, "se fatigue encore")


def stand_up(sheet: SegmentsSheet, action: StandUp, ctx: Context) -> SegmentsSheet:
    rs: SegmentsRules = ctx.ruleset
    _alive(sheet, "se relever")
    lying = [c for c in sheet.conditions if c in rs.conditions and rs.conditions[c].stand_up_segments is not None]
    if not lying:
        raise Refused(f"{_name(sheet)} n'est pas à terre.")
    state, _ = health_state(sheet, rs)
    if state in OUT_OF_ACTION:
        raise Refused(f"{_name(sheet)} est {rs.health_states[state].label.lower()} : il ne peut pas se relever.")
    cost = max(rs.conditions[c].stand_up_segments or 0 for c in lying)
    ctx.say(f"{_name(sheet)} se relève : cela lui coûte {plural(cost, 'segment')} de sa fenêtre.")
    return evolve(sheet, conditions=tuple(c for c in sheet.conditions if c not in lying))


def set_surprise(sheet: SegmentsSheet, action: SetSurprise, ctx: Context) -> SegmentsSheet:
    rs: SegmentsRules = ctx.ruleset
    ids = [c for c, r in rs.conditions.items() if r.surprise]
    if not ids:
        raise Refused("La table de règles ne décrit pas d'état de surprise.")
    cid = ids[0]
    if action.segments == 0:
        ctx.say("La surprise prend fin.")
        return evolve(sheet, conditions=tuple(c for c in sheet.conditions if c != cid), surprise_segments=0)
    _alive(sheet, "être surpris")
    # « démarre plus loin dans sa fenêtre, du nombre de segments de surprise accordés aux agresseurs »
    ctx.say(f"{rs.conditions[cid].label} : démarre {plural(action.segments, 'segment')} plus loin dans sa fenêtre.")
    return evolve(sheet, conditions=tuple(sorted({*sheet.conditions, cid})), surprise_segments=action.segments)


def fall(sheet: SegmentsSheet, action: Fall, ctx: Context) -> SegmentsSheet:
    rs: SegmentsRules = ctx.ruleset
    rule = rs.fall
    _alive(sheet, "tomber")
    # « Chute : 1d6 par tranche de 3 m, jusqu'à 20d6. Un jet d'Agilité réussi retire les dégâts des trois
    #   premiers mètres »
    tranches = int(action.metres // rule.metres_per_die)
    ctx.say(
        f"Chute de {_metres(action.metres)} m : {plural(tranches, 'tranche')} de {rule.metres_per_die} m "
        "(la classe d'armure ne compte pas : il n'y a rien à esquiver)."
    )
    if action.agility_dd is not None:
        landed = _check(ctx, sheet, "agility", action.agility_dd, "Agilité pour amortir la chute")
    else:
        landed = action.agility_success
        if landed:
            ctx.say("Jet d'Agilité réussi.")
    if landed and tranches:
        removed = -(-rule.agility_metres // rule.metres_per_die)
        tranches = max(0, tranches - removed)
        ctx.say(f"Les dégâts des {rule.agility_metres} premiers mètres sont retirés.")
    if tranches > rule.max_dice:
        ctx.say(f"Au plus {rule.max_dice} tranches comptent.")
        tranches = rule.max_dice
    if tranches == 0:
        ctx.say("Aucun dégât.")
        return sheet
    count, sides = rule.die
    roll = ctx.dice(count * tranches, sides, "Chute")
    harm = Harm(f"Chute ({roll.detail})", frozenset({rule.damage_type}), halved=action.save_halves)
    sheet = _hit(sheet, roll.total, harm, rs, ctx)
    if rule.lands_prone and not is_dead(sheet):
        prone = [c for c, r in rs.conditions.items() if r.stand_up_segments is not None]
        if prone and prone[0] not in sheet.conditions:
            ctx.say(f"{_name(sheet)} se retrouve {rs.conditions[prone[0]].label.lower()}.")
            sheet = evolve(sheet, conditions=tuple(sorted({*sheet.conditions, prone[0]})))
    return sheet


def _suffocation_limits(sheet: SegmentsSheet, rs: SegmentsRules) -> tuple[int, int]:
    """Seconds without air before falling to 0 PV, and before death."""
    turn = rs.time_units["turn"]
    zero = sheet.constitution * rs.suffocation.turns_per_constitution * turn
    return zero, zero + rs.suffocation.death_after_turns * turn


def set_suffocating(sheet: SegmentsSheet, action: SetSuffocating, ctx: Context) -> SegmentsSheet:
    rs: SegmentsRules = ctx.ruleset
    if not action.active:
        if sheet.suffocating_for is None:
            ctx.say(f"{_name(sheet)} respirait déjà.")
            return sheet
        ctx.say(f"{_name(sheet)} respire à nouveau.")
        return evolve(sheet, suffocating_for=None)
    _alive(sheet, "manquer d'air")
    if sheet.suffocating_for is not None:
        ctx.say(f"{_name(sheet)} est déjà privé d'air.")
        return sheet
    turns = sheet.constitution * rs.suffocation.turns_per_constitution
    # « on tient un nombre de tours égal à sa Constitution, puis on tombe à 0 point de vie, puis on meurt
    #   au tour suivant »
    ctx.say(
        f"Privé d'air : tient {plural(turns, 'tour')} (Constitution {sheet.constitution}), puis tombe à "
        f"0 point de vie, puis meurt {plural(rs.suffocation.death_after_turns, 'tour')} plus tard."
    )
    return evolve(sheet, suffocating_for=0)


def set_burning(sheet: SegmentsSheet, action: SetBurning, ctx: Context) -> SegmentsSheet:
    rs: SegmentsRules = ctx.ruleset
    if action.active:
        _alive(sheet, "prendre feu")
        count, sides = rs.fire.damage
        ctx.say(f"{_name(sheet)} prend feu : {count}d{sides} par tour tant qu'il brûle.")
    else:
        ctx.say(f"{_name(sheet)} ne brûle plus.")
    return evolve(sheet, burning=action.active)


def extinguish(sheet: SegmentsSheet, action: Extinguish, ctx: Context) -> SegmentsSheet:
    rs: SegmentsRules = ctx.ruleset
    if not sheet.burning:
        raise Refused(f"{_name(sheet)} n'est pas en feu.")
    if action.method == "maneuver":
        ctx.say("Les flammes sont éteintes (une manœuvre).")
        return evolve(sheet, burning=False)
    state, _ = health_state(sheet, rs)
    if state in OUT_OF_ACTION:
        raise Refused(f"{_name(sheet)} est {rs.health_states[state].label.lower()} : il ne peut pas se rouler au sol.")
    # « ou une action gratuite en se jetant à terre puis en roulant, avec un jet de Réflexes »
    prone = [c for c, r in rs.conditions.items() if r.stand_up_segments is not None]
    if prone:
        sheet = evolve(sheet, conditions=tuple(sorted({*sheet.conditions, prone[0]})))
        ctx.say(f"{_name(sheet)} se jette à terre et roule.")
    if _check(ctx, sheet, "reflex", rs.fire.extinguish_dd, "Réflexes pour éteindre les flammes"):
        ctx.say("Les flammes sont éteintes.")
        return evolve(sheet, burning=False)
    ctx.say("Les flammes brûlent toujours.")
    return sheet


def set_exposure(sheet: SegmentsSheet, action: SetExposure, ctx: Context) -> SegmentsSheet:
    rs: SegmentsRules = ctx.ruleset
    if not action.exposure:
        if sheet.exposure:
            ctx.say(f"À l'abri : l'exposition au {rs.exposure[sheet.exposure].label} prend fin.")
        return evolve(sheet, exposure="", exposure_for=0, exposure_save_dd=None)
    _alive(sheet, "être exposé")
    rule = rs.exposure[action.exposure]
    count, sides = rule.damage
    line = (
        f"Exposé au {rule.label} sans protection : {count}d{sides} toutes les "
        f"{plural(rule.damage_every_hours, 'heure')}, un degré de fatigue toutes les "
        f"{plural(rule.fatigue_every_hours, 'heure')}"
    )
    if action.save_dd is not None:
        line += f" ; Vigueur difficulté {action.save_dd} à chaque fois pour diviser les dégâts par deux"
    ctx.say(line + ".")
    counter = sheet.exposure_for if sheet.exposure == action.exposure else 0
    return evolve(sheet, exposure=action.exposure, exposure_for=counter, exposure_save_dd=action.save_dd)


def set_privation(sheet: SegmentsSheet, action: SetPrivation, ctx: Context) -> SegmentsSheet:
    rs: SegmentsRules = ctx.ruleset
    rule = rs.privations[action.need]
    counter = PRIVATION_COUNTERS[action.need]
    if action.active:
        _alive(sheet, "se priver")
        if action.need in sheet.privations:
            ctx.say(f"Déjà {rule.label}.")
            return sheet
        ctx.say(f"{_name(sheet)} est {rule.label} : un degré de fatigue toutes les {plural(rule.hours, 'heure')}.")
        return evolve(sheet, privations=tuple(sorted({*sheet.privations, action.need})), **{counter: 0})
    if action.need not in sheet.privations:
        ctx.say(f"{_name(sheet)} n'était pas {rule.label}.")
        return sheet
    ctx.say(f"{_name(sheet)} n'est plus {rule.label} ; la fatigue déjà prise reste jusqu'au repos.")
    return evolve(sheet, privations=tuple(p for p in sheet.privations if p != action.need), **{counter: 0})


# --- Time ----------------------------------------------------------------------------------------------


def _surprise_ids(sheet: SegmentsSheet, rs: SegmentsRules) -> list[str]:
    return [c for c in sheet.conditions if c in rs.conditions and rs.conditions[c].surprise]


def _next_events(sheet: SegmentsSheet, rs: SegmentsRules) -> list[int]:
    """Clock instants, after now, at which a timed rule acts on this sheet."""
    now = sheet.clock
    seg, turn, hour = rs.time_units["segment"], rs.time_units["turn"], rs.time_units["hour"]
    found: list[int] = []
    dying = is_dying(sheet)
    if dying and rs.dying.loss_per_segment:
        # Losses are linear: step straight to the segment where the PV reach the negative of the CON.
        segments = -(-(sheet.current + sheet.constitution) // rs.dying.loss_per_segment)
        found.append((now // seg + max(1, segments)) * seg)
    if dying and rs.dying.auto_self_stabilise:
        start = int(turn_start(sheet, rs).value)
        if start <= rs.segments_per_turn:
            instant = now // turn * turn + (start - 1) * seg
            found.append(instant if instant > now else instant + turn)
    if sheet.suffocating_for is not None:
        for limit in _suffocation_limits(sheet, rs):
            if limit > sheet.suffocating_for:
                found.append(now + limit - sheet.suffocating_for)
    if sheet.burning or (rs.surprise.ends_at_turn_end and _surprise_ids(sheet, rs)):
        found.append((now // turn + 1) * turn)
    if sheet.exposure:
        rule = rs.exposure[sheet.exposure]
        for every in (rule.damage_every_hours, rule.fatigue_every_hours):
            period = every * hour
            found.append(now + period - sheet.exposure_for % period)
    for need in sheet.privations:
        period = rs.privations[need].hours * hour
        found.append(now + period - getattr(sheet, PRIVATION_COUNTERS[need]) % period)
    rate = rs.nonlethal.recovery_per_hour_per_level * sheet.level
    if sheet.nonlethal and rate:
        # Straight to the hour where the character wakes up, or where the last point is gone.
        target = sheet.nonlethal - sheet.current if sheet.nonlethal > sheet.current >= 0 else sheet.nonlethal
        found.append((now // hour + max(1, -(-target // rate))) * hour)
    return found


def _crossed(before: int, after: int, period: int) -> int:
    return after // period - before // period


def _elapse(sheet: SegmentsSheet, dt: int, rs: SegmentsRules, ctx: Context) -> SegmentsSheet:
    """``dt`` seconds pass; the timed rules whose instant falls in that span act, in the seed's order."""
    seg, turn, hour = rs.time_units["segment"], rs.time_units["turn"], rs.time_units["hour"]
    t0, t1 = sheet.clock, sheet.clock + dt
    start = int(turn_start(sheet, rs).value) if is_dying(sheet) else 0
    sheet = evolve(sheet, clock=t1)
    # « Il perd 1 point de vie par segment »
    if is_dying(sheet) and rs.dying.loss_per_segment:
        segments = _crossed(t0, t1, seg)
        loss = segments * rs.dying.loss_per_segment
        if loss:
            new = evolve(sheet, current=sheet.current - loss)
            ctx.say(f"Mourant, {plural(segments, 'segment')} : {_pv_change(sheet, rs, sheet.current, new.current)}.")
            sheet = _settle(sheet, new, rs, ctx)
    if sheet.suffocating_for is not None and not is_dead(sheet):
        s0, s1 = sheet.suffocating_for, sheet.suffocating_for + dt
        to_zero, to_death = _suffocation_limits(sheet, rs)
        sheet = evolve(sheet, suffocating_for=s1)
        if s0 < to_zero <= s1 and sheet.current > 0:
            ctx.say(f"Sans air depuis {plural(to_zero // turn, 'tour')} : tombe à 0 point de vie.")
            sheet = _settle(sheet, evolve(sheet, current=0), rs, ctx)
        if s0 < to_death <= s1:
            sheet = _die(sheet, ctx, "noyade ou asphyxie")
    turns = _crossed(t0, t1, turn)
    if turns and not is_dead(sheet):
        if sheet.burning:
            count, sides = rs.fire.damage
            for _ in range(turns):
                roll = ctx.dice(count, sides, "Feu")
                harm = Harm(f"Feu, un tour ({roll.detail})", frozenset({rs.fire.damage_type}))
                sheet = _hit(sheet, roll.total, harm, rs, ctx)
                if is_dead(sheet):
                    break
        surprised = _surprise_ids(sheet, rs)
        if surprised and rs.surprise.ends_at_turn_end:
            ctx.say("Fin du tour : la surprise est passée.")
            sheet = evolve(
                sheet, conditions=tuple(c for c in sheet.conditions if c not in surprised), surprise_segments=0
            )
    # « une fois par tour » at the segment where its turn starts, the dying character tries alone.
    if start and is_dying(sheet) and rs.dying.auto_self_stabilise and start <= rs.segments_per_turn:
        offset = (start - 1) * seg
        instant = (t1 - offset) // turn * turn + offset
        if t0 < instant <= t1 and sheet.self_stabilise_turn != instant // turn:
            ctx.say("Début de son tour :")
            sheet = _self_stabilise(sheet, rs, ctx)
    if sheet.exposure and not is_dead(sheet):
        rule = rs.exposure[sheet.exposure]
        e0, e1 = sheet.exposure_for, sheet.exposure_for + dt
        sheet = evolve(sheet, exposure_for=e1)
        count, sides = rule.damage
        for _ in range(_crossed(e0, e1, rule.damage_every_hours * hour)):
            halved = sheet.exposure_save_dd is not None and _check(
                ctx, sheet, "fortitude", sheet.exposure_save_dd, f"Vigueur contre le {rule.label}"
            )
            roll = ctx.dice(count, sides, rule.label[:1].upper() + rule.label[1:])
            harm = Harm(
                f"{rule.label[:1].upper() + rule.label[1:]} ({roll.detail})",
                frozenset({rule.damage_type}),
                halved=halved,
            )
            sheet = _hit(sheet, roll.total, harm, rs, ctx)
            if is_dead(sheet):
                return sheet
        for _ in range(_crossed(e0, e1, rule.fatigue_every_hours * hour)):
            sheet = _fatigue_to(sheet, sheet.fatigue + 1, rs, ctx, f"{rule.fatigue_every_hours} heures de {rule.label}")
    for need in sheet.privations:
        if is_dead(sheet):
            break
        field = PRIVATION_COUNTERS[need]
        p0 = getattr(sheet, field)
        rule_p = rs.privations[need]
        sheet = evolve(sheet, **{field: p0 + dt})
        for _ in range(_crossed(p0, p0 + dt, rule_p.hours * hour)):
            sheet = _fatigue_to(sheet, sheet.fatigue + 1, rs, ctx, f"{plural(rule_p.hours, 'heure')} {rule_p.label}")
    hours = _crossed(t0, t1, hour)
    if hours and sheet.nonlethal and not is_dead(sheet) and rs.nonlethal.recovery_per_hour_per_level:
        recovered = min(sheet.nonlethal, hours * rs.nonlethal.recovery_per_hour_per_level * sheet.level)
        new = evolve(sheet, nonlethal=sheet.nonlethal - recovered)
        if _points_hidden(sheet, rs):
            ctx.say("Dégâts non létaux : une partie s'efface avec le temps (total caché : Engourdi).")
        else:
            ctx.say(f"Dégâts non létaux qui s'effacent avec le temps : {sheet.nonlethal} → {new.nonlethal}.")
        sheet = _settle(sheet, new, rs, ctx)
    return sheet


def _estimated_steps(sheet: SegmentsSheet, seconds: int, rs: SegmentsRules) -> int:
    """Steps the open-ended timed rules need over ``seconds`` (dying and drowning end by themselves)."""
    turn, hour = rs.time_units["turn"], rs.time_units["hour"]
    steps = seconds // turn if sheet.burning else 0
    if sheet.exposure:
        steps += 2 * seconds // hour
    for need in sheet.privations:
        steps += seconds // (rs.privations[need].hours * hour)
    return steps


def _pass_time(sheet: SegmentsSheet, seconds: int, rs: SegmentsRules, ctx: Context) -> SegmentsSheet:
    if _estimated_steps(sheet, seconds, rs) > STEP_CAP:
        raise Refused(
            "Trop d'étapes à simuler d'un coup (feu, exposition, privations) : faites passer le temps par "
            "périodes plus courtes."
        )
    end = sheet.clock + seconds
    steps = 0
    while sheet.clock < end and not is_dead(sheet):
        step_end = min([end, *_next_events(sheet, rs)])
        sheet = _elapse(sheet, step_end - sheet.clock, rs, ctx)
        steps += 1
        if steps > STEP_CAP:
            raise Refused("Trop d'étapes à simuler d'un coup : faites passer le temps par périodes plus courtes.")
    return evolve(sheet, clock=end)


def advance_time(sheet: SegmentsSheet, action: AdvanceTime, ctx: Context) -> SegmentsSheet:
    rs: SegmentsRules = ctx.ruleset
    if action.unit not in rs.time_units:
        units = ", ".join(rs.time_units)
        raise Refused(f"Unité de temps inconnue : « {action.unit} » (attendu : {units}).")
    label = rs.time_labels.get(action.unit, action.unit)
    ctx.say(f"Le temps passe : {plural(action.count, label)}.")
    return _pass_time(sheet, action.count * rs.time_units[action.unit], rs, ctx)


def long_rest(sheet: SegmentsSheet, action: LongRest, ctx: Context) -> SegmentsSheet:
    rs: SegmentsRules = ctx.ruleset
    rule = rs.rest
    _alive(sheet, "se reposer")
    if is_dying(sheet):
        raise Refused("Un mourant ne se repose pas : il perd 1 point de vie par segment. Stabilisez-le d'abord.")
    if sheet.burning:
        raise Refused(f"{_name(sheet)} est en feu : éteignez d'abord les flammes.")
    if sheet.suffocating_for is not None:
        raise Refused(f"{_name(sheet)} est privé d'air : pas de repos possible.")
    if action.hours < rule.min_hours:
        raise Refused(f"Un repos qui dissipe la fatigue dure au moins {plural(rule.min_hours, 'heure')}.")
    ctx.say(f"Repos de {plural(action.hours, 'heure')}.")
    ended = {"sleep"} | ({"food", "water"} if action.ate_and_drank else set())
    counters = {PRIVATION_COUNTERS[n]: 0 for n in ended}
    sheet = evolve(sheet, privations=tuple(p for p in sheet.privations if p not in ended), **counters)
    sheet = _pass_time(sheet, action.hours * rs.time_units["hour"], rs, ctx)
    if is_dead(sheet):
        return sheet
    if action.interrupted:
        ctx.say("Repos interrompu : aucun bénéfice.")
        return sheet
    # « seul le repos la dissipe » (S15)
    if sheet.fatigue and rule.fatigue_steps:
        if rule.needs_food_and_water and not action.ate_and_drank:
            ctx.say("Sans boire ni manger, la fatigue ne se dissipe pas.")
        else:
            sheet = _fatigue_to(sheet, sheet.fatigue - rule.fatigue_steps, rs, ctx, "repos")
    gain = rule.heal_per_level * sheet.level
    if gain and sheet.current < sheet.base_maximum:
        sheet = _restore(sheet, gain, rs, ctx, f"Repos, {gain} PV ({rule.heal_per_level} par niveau)")
    return sheet


def after_edit(old: SegmentsSheet, new: SegmentsSheet, rs: SegmentsRules, ctx: Context) -> SegmentsSheet:
    top = len(rs.fatigue.levels)
    if new.fatigue > top:
        ctx.say(f"La fatigue ne dépasse pas le degré {top}.")
        new = evolve(new, fatigue=top)
    if new.current >= 0 and new.stabilised:
        new = evolve(new, stabilised=False)
    # Death is automatic: a lowered Constitution or PV below its negative kills (« 7.2 »).
    return _settle(old, new, rs, ctx)


# --------------------------------------------------------------------------------------------------
# Derived values
# --------------------------------------------------------------------------------------------------

RESTRICTIONS: dict[str, str] = {
    "no_immediate_actions": "plus aucune action immédiate",
    "no_verbal_spells": "sorts à composante verbale impossibles",
    "cannot_aim": "ne peut pas viser",
    "no_ranged_weapons": "pas d'arme à distance",
    "no_tracking": "aucune piste ne peut être suivie",
    "loses_window": "perd le reste de sa fenêtre",
    "gm_controls": "le meneur décide de ce qu'il fait à chacun de ses tours",
    "cannot_approach_source": "ne peut pas s'approcher volontairement de la source",
}

HIDDEN_WHEN_NUMB = frozenset({"current", "maximum", "temporary", "nonlethal", "state", "segments_to_death"})


def _with_all_rolls(label: str, specific: list[Term], all_rolls: list[Term]) -> Explained:
    return explained_modifier(label, specific + all_rolls, "aucun état")


def derive(sheet: SegmentsSheet, rs: SegmentsRules) -> Derived:
    values: dict[str, Explained] = {}
    known = effective_conditions(sheet, rs)
    hidden_by = points_hidden_by(known, rs)
    secret = f" ; caché au joueur ({', '.join(hidden_by)} : le meneur garde ce total pour lui)" if hidden_by else ""
    maximum = sheet.base_maximum
    values["maximum"] = Explained(maximum, f"points de vie maximum {maximum}{secret}")
    values["current"] = Explained(sheet.current, f"points de vie {fmt_int(sheet.current)} sur {maximum}{secret}")
    values["temporary"] = Explained(
        sheet.temporary, f"points de vie temporaires {sheet.temporary} (absorbés en premier, jamais cumulés){secret}"
    )
    values["nonlethal"] = Explained(
        sheet.nonlethal,
        f"dégâts non létaux {sheet.nonlethal}, comptés à part : au-delà des points de vie actuels, "
        f"inconscient et l'excédent devient létal{secret}",
    )
    state, why = health_state(sheet, rs)
    values["state"] = Explained(state, f"état : {rs.health_states[state].label} ({why}){secret}")
    con = sheet.constitution
    values["death_threshold"] = Explained(
        -con, f"meurt à {fmt_int(-con)} points de vie (l'opposé de sa Constitution {con}), automatiquement"
    )
    loss = rs.dying.loss_per_segment
    if is_dying(sheet) and loss:
        left = -(-(sheet.current + con) // loss)
        spt = rs.segments_per_turn
        values["segments_to_death"] = Explained(
            left,
            f"mort dans {plural(left, 'segment')} (environ {_metres(round(left / spt, 1))} tour(s) de {spt} segments) "
            f"sans stabilisation : {fmt_int(sheet.current)} PV, {loss} de moins par segment, mort à {fmt_int(-con)}",
        )
    else:
        values["segments_to_death"] = Explained(None, "ne perd pas de points de vie")
    tried = sheet.self_stabilise_turn is not None and sheet.self_stabilise_turn == _turn_index(sheet, rs)
    values["self_stabilise_available"] = Explained(
        is_dying(sheet) and not tried,
        (
            f"Vigueur difficulté {rs.dying.self_stabilise_dd} pour se stabiliser seul, une fois par tour"
            + (" (déjà tentée ce tour-ci)" if tried else "")
            + " ; un allié le stabilise par une action d'interaction, sans jet"
        )
        if is_dying(sheet)
        else "pas mourant : rien à stabiliser",
    )
    all_rolls = _terms(known, rs, "all_rolls")
    all_tagged = _terms(known, rs, "all_rolls", ", tous les jets")
    values["roll_penalty"] = explained_modifier("malus à tous les jets", all_rolls, "aucun état")
    values["conditions"] = Explained(
        tuple(known),
        "états : " + (", ".join(f"{rs.conditions[c].label} ({w})" for c, w in known.items()) or "aucun"),
    )
    values["condition_reasons"] = Explained(dict(known), "pourquoi chaque état est en place (posé, ou sa cause)")
    ac_terms = _terms(known, rs, "armour_class")
    values["ac_modifier"] = explained_modifier("classe d'armure", ac_terms, "aucun état")
    values["armour_class"] = explained_sum("classe d'armure", sheet.armour_class, ac_terms, "base")
    attack_terms = _terms(known, rs, "attack")
    values["attack_modifier"] = _with_all_rolls("attaque", attack_terms, all_tagged)
    values["attack_bonus"] = explained_sum("bonus d'attaque", sheet.attack_bonus, attack_terms + all_tagged, "base")
    reflex_terms = _terms(known, rs, "reflex")
    values["reflex_modifier"] = _with_all_rolls("sauvegarde de Réflexes", reflex_terms, all_tagged)
    values["reflex_save"] = explained_sum(
        "sauvegarde de Réflexes", sheet.reflex_save, reflex_terms + all_tagged, "base"
    )
    values["fortitude_save"] = explained_sum("sauvegarde de Vigueur", sheet.fortitude_save, all_tagged, "base")
    values["agility_roll"] = explained_sum("jet d'Agilité", sheet.agility, all_tagged, "base")
    move, cost = speed(sheet, rs, known)
    values["speed"] = move
    values["speed_m"] = Explained(
        int(move.value) * rs.general.square_m,
        f"{_metres(int(move.value) * rs.general.square_m)} m = {plural(int(move.value), 'case')} × "
        f"{_metres(rs.general.square_m)} m",
    )
    costly = [rs.conditions[c].label for c in known if rs.conditions[c].movement_cost > 1]
    values["movement_cost"] = Explained(
        cost, f"chaque case coûte {cost} ({', '.join(costly)})" if costly else "chaque case coûte 1"
    )
    start = turn_start(sheet, rs, known)
    values["turn_start"] = start
    spt = rs.segments_per_turn
    window = max(0, spt - int(start.value) + 1)
    values["window_segments"] = Explained(window, f"{plural(window, 'segment')} sur {spt} dans le tour")
    values["segments_per_turn"] = Explained(spt, f"{spt} segments par tour")
    level_id, light_why = effective_light(sheet, rs)
    values["light"] = Explained(level_id, f"éclairage : {light_why} ({rs.light[level_id].effect})")
    sight_terms = [Term(rs.light[level_id].sight_rolls, rs.light[level_id].label.lower()), *all_tagged]
    sight = explained_modifier("jets de Vue", sight_terms, "aucun malus")
    lost = {rs.conditions[c].sense: rs.conditions[c].label for c in known if rs.conditions[c].sense is not None}
    if "vue" in lost:
        sight = Explained(sight.value, f"jets de Vue : échec d'office ({lost['vue']})")
    values["sight_modifier"] = sight
    senses_text = "; ".join(
        f"jets de {rs.senses[s].label} : échec d'office ({label})" for s, label in lost.items() if s is not None
    )
    values["lost_senses"] = Explained(tuple(s for s in lost if s is not None), senses_text or "aucun sens perdu")
    immune = "; ".join(f"{rs.senses[s].illusions} ({label})" for s, label in lost.items() if s is not None)
    values["illusion_immunity"] = Explained(
        tuple(s for s in lost if s is not None), f"immunisé contre les {immune}" if immune else "aucune immunité"
    )
    found: list[str] = []
    pieces: list[str] = []
    for attr, text in RESTRICTIONS.items():
        labels = [rs.conditions[c].label for c in known if getattr(rs.conditions[c], attr)]
        if labels:
            found.append(attr)
            pieces.append(f"{text} ({', '.join(labels)})")
    zero = [rs.conditions[c].label for c in known if rs.conditions[c].speed == "zero"]
    if zero:
        found.insert(0, "no_movement")
        pieces.insert(0, f"aucun déplacement ({', '.join(zero)})")
    values["restrictions"] = Explained(tuple(found), "; ".join(pieces) or "aucune restriction")
    every = reductions(sheet, rs)
    unconditional = [r for r in every if r.bypass is None]
    if every:
        text = "réduction par coup : "
        if unconditional:
            total = sum(r.amount for r in unconditional)
            text += f"{total}/− = " + " + ".join(f"{r.text} ({r.source})" for r in unconditional)
        other = [f"{r.text} ({r.source}, contournée par {r.bypass})" for r in every if r.bypass is not None]
        if other:
            text += ("; " if unconditional else "") + "; ".join(other)
        if not rs.reduction.all_stack:
            text += " ; seule la plus forte s'applique"
        if not rs.reduction.applies_to_energy:
            text += " ; pas contre les énergies"
    else:
        text = "aucune réduction de dégâts"
    values["damage_reduction"] = Explained(tuple(r.text for r in every), text)
    resisted = resistances(sheet)
    values["energy_resistance"] = Explained(
        tuple(f"{e} {n}" for e, n in sorted(resisted.items())),
        "résistance à l'énergie : "
        + ", ".join(f"{e} {n}" for e, n in sorted(resisted.items()))
        + " (jamais contournée)"
        if resisted
        else "aucune résistance à l'énergie",
    )
    mr = sheet.magic_resistance
    values["magic_resistance"] = Explained(
        mr,
        f"résistance à la magie {mr} : le lanceur doit l'atteindre, sinon le sort échoue entièrement"
        if mr
        else "aucune résistance à la magie",
    )
    level = min(sheet.fatigue, len(rs.fatigue.levels))
    values["fatigue"] = Explained(
        level,
        f"fatigue : {fatigue_label(level, rs)} (degré {level} sur {len(rs.fatigue.levels)}) ; seul le repos la dissipe"
        if level
        else "aucune fatigue",
    )
    values["points_hidden"] = Explained(
        bool(hidden_by),
        f"le joueur ignore son total de points de vie ({', '.join(hidden_by)}) : le meneur le garde pour lui"
        if hidden_by
        else "le joueur connaît ses points de vie",
    )
    values["ongoing_harm"] = _ongoing(sheet, rs)
    return Derived(SYSTEM_ID, values, HIDDEN_WHEN_NUMB if hidden_by else frozenset())


def _ongoing(sheet: SegmentsSheet, rs: SegmentsRules) -> Explained:
    """What the world is doing to the character right now (fire, lack of air, exposure, privations)."""
    ids: list[str] = []
    parts: list[str] = []
    turn, hour = rs.time_units["turn"], rs.time_units["hour"]
    if sheet.burning:
        count, sides = rs.fire.damage
        ids.append("burning")
        parts.append(f"en feu : {count}d{sides} par tour")
    if sheet.suffocating_for is not None:
        to_zero, to_death = _suffocation_limits(sheet, rs)
        ids.append("suffocating")
        if sheet.suffocating_for < to_zero:
            left = -(-(to_zero - sheet.suffocating_for) // turn)
            parts.append(f"privé d'air : 0 point de vie dans {plural(left, 'tour')}")
        else:
            left = -(-(to_death - sheet.suffocating_for) // turn)
            parts.append(f"privé d'air : mort dans {plural(left, 'tour')}")
    if sheet.exposure:
        rule = rs.exposure[sheet.exposure]
        ids.append(sheet.exposure)
        count, sides = rule.damage
        parts.append(
            f"exposé au {rule.label} depuis {sheet.exposure_for // hour} h : {count}d{sides} par "
            f"{plural(rule.damage_every_hours, 'heure')}, fatigue toutes les {rule.fatigue_every_hours} h"
        )
    for need in sheet.privations:
        rule_p = rs.privations[need]
        ids.append(need)
        spent = getattr(sheet, PRIVATION_COUNTERS[need]) // hour
        parts.append(f"{rule_p.label} depuis {spent} h : fatigue toutes les {rule_p.hours} h")
    return Explained(tuple(ids), "; ".join(parts) or "rien")


def info(rs: SegmentsRules) -> SystemInfo:
    """Segments as the UI lays it out."""
    spt = rs.segments_per_turn
    armour_choices = (("", "Aucune"), *((k, f"{a.label} ({a.reduction}/−)") for k, a in rs.armours.items()))
    fields = (
        *IDENTITY_FIELDS,
        FieldInfo(
            "constitution",
            "Constitution",
            "int",
            group="characteristics",
            minimum=1,
            maximum=50,
            tooltip="Meurt à l'opposé de sa Constitution ; tient autant de tours sans air.",
        ),
        FieldInfo("fortitude_save", "Vigueur (bonus)", "int", "characteristics", -MAX_BONUS, MAX_BONUS),
        FieldInfo("reflex_save", "Réflexes (bonus)", "int", "characteristics", -MAX_BONUS, MAX_BONUS),
        FieldInfo("agility", "Agilité (bonus)", "int", "characteristics", -MAX_BONUS, MAX_BONUS),
        FieldInfo("attack_bonus", "Attaque (bonus)", "int", "characteristics", -MAX_BONUS, MAX_BONUS),
        FieldInfo("base_maximum", "PV maximum", "int", "health", 1, MAX_POINTS),
        FieldInfo("armour_class", "Classe d'armure (base)", "int", "health", 0, 100),
        FieldInfo(
            "speed_squares",
            "Vitesse (cases de 1,5 m)",
            "int",
            "health",
            0,
            100,
        ),
        FieldInfo(
            "initiative_segment",
            "Segment de début de tour",
            "int",
            "health",
            1,
            spt,
            tooltip=f"Le segment (sur {spt}) où s'ouvre sa fenêtre, avant les états.",
        ),
        FieldInfo("armour", "Armure", "choice", "health", choices=armour_choices),
        FieldInfo("shield", f"Bouclier ({rs.reduction.shield}/−)", "bool", "health"),
        FieldInfo(
            "natural_armour",
            "Armure naturelle",
            "int",
            "health",
            0,
            1000,
            tooltip=(
                f"{rs.reduction.natural_armour_per_step}/− par tranche de {rs.reduction.natural_armour_step} points."
            ),
        ),
        FieldInfo(
            "damage_reductions",
            "Réductions de dégâts",
            "text",
            "health",
            tooltip="X/type, séparées par des virgules : 5/argent, 2/− (− : rien ne la contourne).",
        ),
        FieldInfo(
            "energy_resistances",
            "Résistances à l'énergie",
            "text",
            "health",
            tooltip="Énergie puis valeur, séparées par des virgules : feu 10, froid 5.",
        ),
        FieldInfo(
            "magic_resistance",
            "Résistance à la magie",
            "int",
            "health",
            0,
            1000,
            tooltip="Le lanceur doit atteindre ce score, sinon le sort échoue entièrement (0 : aucune).",
        ),
        FieldInfo(
            "light",
            "Éclairage",
            "choice",
            "other",
            choices=tuple((k, v.label) for k, v in rs.light.items()),
        ),
        FieldInfo(
            "darkvision_m",
            "Vision dans le noir (m)",
            "int",
            "other",
            0,
            10_000,
            tooltip="Dans cette portée, l'obscurité compte comme une lumière faible (0 : aucune).",
        ),
    )
    levels = [LadderLevel(0, "Aucune", "Pas de fatigue")]
    for n, cid in enumerate(rs.fatigue.levels, start=1):
        rule = rs.conditions[cid]
        levels.append(LadderLevel(n, rule.label, " ".join(rule.effects)))
    ladder = LadderInfo("fatigue", "Fatigue", "fatigue", tuple(levels), SetFatigue)
    return SystemInfo(
        id=SYSTEM_ID,
        label="Segments",
        seed="002",
        points_label="points de vie",
        points_short="PV",
        fields=fields,
        health_states=tuple(HealthStateInfo(k, v.label, v.colour) for k, v in rs.health_states.items()),
        condition_groups=tuple(ConditionGroupInfo(k, g.label, g.note) for k, g in rs.condition_groups.items()),
        conditions=tuple(ConditionInfo(k, c.label, c.group, c.effects) for k, c in rs.conditions.items()),
        ladders=(ladder,),
        time_units=tuple(ChoiceInfo(k, rs.time_labels.get(k, k)) for k in rs.time_units),
        round_unit="turn",
        damage_types=tuple(ChoiceInfo(k, d.label) for k, d in rs.damage_types.items()),
        wound_types=(),
        rests=((LongRest, f"Repos ({rs.rest.min_hours} h)"),),
        features=frozenset(
            {
                "temporary",
                "nonlethal",
                "hits",
                "damage_types",
                "stabilise",
                "long_rest",
                "fatigue",
                "damage_reduction",
                "energy_resistance",
                "magic_resistance",
                "save_halves",
                "world_harm",
                "light",
                "senses",
                "segments",
                "hidden_points",
                "surprise",
                "stand_up",
                "negative_points",
            }
        ),
        actions=(),
        extra={
            "stabilise_methods": (
                ("self", f"Seul : Vigueur difficulté {rs.dying.self_stabilise_dd}, une fois par tour"),
                ("ally", "Un allié : action d'interaction, sans jet"),
            ),
            "segments_per_turn": spt,
            "turn_unit": "segment",
            # Labels of the ids that derived values hold (restrictions, ongoing_harm, lost_senses).
            "restriction_labels": {"no_movement": "aucun déplacement", **RESTRICTIONS},
            "ongoing_labels": {
                "burning": "en feu",
                "suffocating": "privé d'air",
                **{k: v.label for k, v in rs.exposure.items()},
                **{k: v.label for k, v in rs.privations.items()},
            },
            "square_m": rs.general.square_m,
            "text_lists": {"damage_reductions": ", ", "energy_resistances": ", "},
            "ladder_conditions": tuple(rs.fatigue.levels),
            "health_state_notes": {k: v.note for k, v in rs.health_states.items()},
            "light_levels": tuple((k, v.label, v.effect) for k, v in rs.light.items()),
            "senses": tuple((k, v.label) for k, v in rs.senses.items()),
            "exposures": tuple((k, v.label) for k, v in rs.exposure.items()),
            "privations": tuple((k, v.label) for k, v in rs.privations.items()),
            "world_harm": (
                (Fall, "Chute"),
                (SetSuffocating, "Noyade, asphyxie"),
                (SetBurning, "Feu"),
                (Extinguish, "Éteindre les flammes"),
                (SetExposure, "Froid, chaleur extrême"),
                (SetPrivation, "Faim, soif, veille"),
            ),
            "hidden_points_note": "Engourdi : le joueur ignore son total de points de vie, le meneur le garde.",
        },
    )


SYSTEM = register(
    System(
        id=SYSTEM_ID,
        label="Segments",
        seed="002",
        sheet_type=SegmentsSheet,
        ruleset_type=SegmentsRules,
        handlers={
            Damage: damage,
            Heal: heal,
            GainTemporary: gain_temporary,
            LoseTemporary: lose_temporary,
            SetCondition: set_condition,
            ClearConditions: clear_conditions,
            Stabilise: stabilise,
            LongRest: long_rest,
            AdvanceTime: advance_time,
            SetFatigue: set_fatigue,
            AddFatigue: add_fatigue,
            StandUp: stand_up,
            SetSurprise: set_surprise,
            Fall: fall,
            SetSuffocating: set_suffocating,
            SetBurning: set_burning,
            Extinguish: extinguish,
            SetExposure: set_exposure,
            SetPrivation: set_privation,
        },
        derive=derive,
        info=info,
        after_edit=after_edit,
        demo={
            "name": "Aldéric",
            "player": "Noé",
            "level": 4,
            "constitution": 14,
            "fortitude_save": 5,
            "reflex_save": 2,
            "agility": 3,
            "attack_bonus": 6,
            "armour_class": 16,
            "speed_squares": 5,
            "initiative_segment": 3,
            "current": 9,
            "base_maximum": 26,
            "nonlethal": 3,
            "armour": "lourde",
            "shield": True,
            "energy_resistances": ("froid 5",),
            "conditions": ("a_terre", "lenteur"),
            "fatigue": 1,
            "light": "faible",
            "notes": "Tombé du pont-levis ; ralenti par le sort du nécromant.",
        },
    )
)
