"""Segments sheet: the stored fields of a character, and reductions and resistances as the player writes them."""

from __future__ import annotations

import functools
import re
from typing import Any, Literal

from pydantic import Field, field_validator, model_validator

from rules.errors import FIELD_LABELS
from rules.model import MAX_POINTS, SheetBase
from rules.systems.segments.table import LightLevel, Need

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


def _metres(value: float) -> str:
    return f"{value:g}".replace(".", ",")
