"""Segments sheet: the stored fields of a character, reductions and resistances as the player writes
them, and the checks every stored sheet passes (on load, on ``Edit`` and after every action)."""

import functools
import re
from collections.abc import Callable, Mapping
from typing import Annotated, Any, Literal

from pydantic import Field, ValidationInfo, field_validator, model_validator

from rules.errors import FIELD_LABELS
from rules.model import MAX_POINTS, SheetBase, fmt_int, plural
from rules.ruleset import per_table
from rules.systems import _TABLES, REGISTRY
from rules.systems.segments.table import SYSTEM_ID, LightLevel, Need, SegmentsRules

MAX_BONUS = 50
# In-game time a sheet can hold (seconds): a thousand years of 365 days. Every time counter is bounded by it.
MAX_CLOCK = 1_000 * 365 * 86_400
MAX_CLOCK_YEARS = 1_000

# The sheet's own labels, as the sheet shows them: the Edit journal and the refusals speak with these.
LABELS: dict[str, str] = {
    "name": "Nom",
    "player": "Joueur",
    "level": "Niveau",
    "notes": "Notes",
    "is_npc": "PNJ",
    "clock": "Temps écoulé",
    "constitution": "Constitution",
    "fortitude_save": "Vigueur (bonus)",
    "reflex_save": "Réflexes (bonus)",
    "agility": "Agilité (bonus)",
    "attack_bonus": "Attaque (bonus)",
    "armour_class": "Classe d'armure (base)",
    "speed_squares": "Vitesse (cases de 1,5 m)",
    "initiative_segment": "Segment de début de tour",
    "current": "PV",
    "base_maximum": "PV maximum",
    "temporary": "PV temporaires",
    "nonlethal": "Dégâts non létaux",
    "stabilised": "Stabilisé",
    "dead": "Mort",
    "self_stabilise_turn": "Tour de la dernière tentative de stabilisation",
    "conditions": "États",
    "surprise_segments": "Segments de surprise",
    "surprised_for": "Surpris depuis",
    "fatigue": "Fatigue",
    "armour": "Armure",
    "shield": "Bouclier",
    "natural_armour": "Armure naturelle",
    "damage_reductions": "Réductions de dégâts",
    "energy_resistances": "Résistances à l'énergie",
    "magic_resistance": "Résistance à la magie",
    "light": "Éclairage",
    "darkvision_m": "Vision dans le noir (m)",
    "burning": "En feu",
    "burning_for": "En feu depuis",
    "suffocating_for": "Sans air depuis",
    "exposure": "Exposition",
    "exposure_for": "Exposition depuis",
    "exposure_save_dd": "Difficulté de la sauvegarde d'exposition",
    "privations": "Privations",
    "hungry_for": "Sans manger depuis",
    "thirsty_for": "Sans boire depuis",
    "sleepless_for": "Sans dormir depuis",
    "nonlethal_for": "Dégâts non létaux depuis",
}

# French names of this sheet's fields in validation messages (« « Vigueur (bonus) » : doit être … »).
for _key, _label in LABELS.items():
    FIELD_LABELS.setdefault(_key, _label)

# Fields that count seconds (shown as durations in the journal).
DURATION_FIELDS = frozenset(
    {
        "clock",
        "surprised_for",
        "burning_for",
        "suffocating_for",
        "exposure_for",
        "hungry_for",
        "thirsty_for",
        "sleepless_for",
        "nonlethal_for",
    }
)
# Fields whose figures an Engourdi character must not read (« on ignore son propre total »).
POINT_FIELDS = frozenset({"current", "base_maximum", "temporary", "nonlethal"})

PRIVATION_COUNTERS: dict[str, str] = {"food": "hungry_for", "water": "thirsty_for", "sleep": "sleepless_for"}

# --------------------------------------------------------------------------------------------------
# Reductions and resistances as the player writes them
# --------------------------------------------------------------------------------------------------

_DASHES = {"", "-", "−", "–", "—"}
_REDUCTION = re.compile(r"^\s*(\d{1,4})\s*/\s*(.*?)\s*$")
_RESISTANCE = re.compile(r"^\s*([^\W\d_]+(?:[ '][^\W\d_]+)*)\s*[:=]?\s*([-+−–]?)\s*(\d{1,4})\s*$")
_TYPE_TEXT = re.compile(r"^[^\W\d_][\w' -]{0,39}$")
MAX_ITEM = 60


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
        raise ValueError(f"« {text} » : le type « {kind} » doit être un mot (argent, magie…)")
    return amount, kind


def reduction_text(amount: int, bypass: str | None) -> str:
    return f"{amount}/{bypass or '−'}"


@functools.lru_cache(maxsize=512)
def parse_resistance(text: str) -> tuple[str, int]:
    """``"feu 10"`` → ``("feu", 10)``; a negative value (« feu -5 ») is refused."""
    match = _RESISTANCE.match(text)
    if not match:
        raise ValueError(
            f"« {text} » n'est pas une résistance à l'énergie : écrivez l'énergie puis la valeur, par exemple feu 10"
        )
    if match.group(2) in ("-", "−", "–"):
        raise ValueError(f"« {text} » : une résistance à l'énergie ne peut pas être négative (0 ou plus)")
    return match.group(1).strip().lower(), int(match.group(3))


def _split_list(value: Any) -> Any:
    """A list typed in one text field (« 5/argent, 2/− ») becomes a list."""
    if isinstance(value, str):
        return tuple(p for p in re.split(r"[,;\n]", value) if p.strip())
    return value


# --------------------------------------------------------------------------------------------------
# Sheet
# --------------------------------------------------------------------------------------------------

Item = Annotated[str, Field(max_length=MAX_ITEM)]
Counter = Annotated[int, Field(ge=0, le=MAX_CLOCK)]


class SegmentsSheet(SheetBase):
    """A Segments character: points de vie (PV) that can go below zero, and all that the body suffers."""

    system: Literal["segments"] = "segments"
    clock: int = Field(0, ge=0, le=MAX_CLOCK)
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
    self_stabilise_turn: int | None = Field(None, ge=0, le=MAX_CLOCK)
    conditions: tuple[Item, ...] = Field((), max_length=100)
    # Surpris: the segments its window starts later, and the seconds since it was set (it lasts a turn, S16).
    surprise_segments: int = Field(0, ge=0, le=100)
    surprised_for: Counter = 0
    # Fatigue ladder: 0 none, 1 Fatigué, 2 Épuisé, 3 Vacillant (the table's ``fatigue.levels``).
    fatigue: int = Field(0, ge=0, le=20)
    # Protections (« 7.4 Encaisser »), edited by the player.
    armour: Literal["", "legere", "intermediaire", "lourde"] = ""
    shield: bool = False
    natural_armour: int = Field(0, ge=0, le=1000)
    damage_reductions: tuple[Item, ...] = Field((), max_length=20)
    energy_resistances: tuple[Item, ...] = Field((), max_length=20)
    magic_resistance: int = Field(0, ge=0, le=1000)
    # « 7.6 Lumière et vision »
    light: LightLevel = "vive"
    darkvision_m: int = Field(0, ge=0, le=10_000)
    # « 7.5 Ce que le monde inflige »: ongoing harm, driven by time (counters in seconds since it began).
    burning: bool = False
    burning_for: Counter = 0
    suffocating_for: int | None = Field(None, ge=0, le=MAX_CLOCK)
    exposure: Literal["", "froid", "chaleur"] = ""
    exposure_for: Counter = 0
    exposure_save_dd: int | None = Field(None, ge=1, le=100)
    privations: tuple[Need, ...] = ()
    hungry_for: Counter = 0
    thirsty_for: Counter = 0
    sleepless_for: Counter = 0
    # Seconds since the nonlethal damage began (it fades by the hour from then, S4).
    nonlethal_for: Counter = 0

    @field_validator("armour", "light", "exposure", mode="before")
    @classmethod
    def _known_choice(cls, value: Any, info: ValidationInfo) -> Any:
        checks = _checks(rules_table(info))
        choices = checks.choices[info.field_name or ""]
        if isinstance(value, str) and value in choices:
            return value
        shown = f"« {value} »" if isinstance(value, str) else "cette valeur"
        return _refuse(f"{shown} n'est pas au choix ({checks.shown[info.field_name or '']})")

    @field_validator("privations", mode="before")
    @classmethod
    def _known_privations(cls, value: Any, info: ValidationInfo) -> Any:
        if isinstance(value, (list, tuple)):
            checks = _checks(rules_table(info))
            choices = checks.choices["privations"]
            for item in value:
                if not (isinstance(item, str) and item in choices):
                    shown = f"« {item} »" if isinstance(item, str) else "cette valeur"
                    _refuse(f"{shown} n'est pas une privation connue ({checks.shown['privations']})")
        return value

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
    def _coherent(self, info: ValidationInfo) -> "SegmentsSheet":
        problems = sheet_problems(self, rules_table(info))
        if problems:
            raise ValueError(" ; ".join(problems))
        return self


def _refuse(text: str) -> Any:
    raise ValueError(text)


def rules_table(info: ValidationInfo | None = None) -> SegmentsRules:
    """The rule table a sheet is checked against: ``context={"rules_table": …}`` when validating, else the
    shipped one."""
    context = info.context if info is not None else None
    # ``None`` first: an ABC's ``isinstance`` is slow, and nearly every sheet is read without a context.
    if context is not None and isinstance(context, Mapping):
        table = context.get("rules_table")
        if isinstance(table, SegmentsRules):
            return table
    table = _TABLES.get(SYSTEM_ID)  # ``ruleset()`` without the registry's lookup, once the table is loaded
    if table is None:
        table = REGISTRY[SYSTEM_ID].ruleset()
    assert isinstance(table, SegmentsRules)
    return table


def _choices(field: str, rs: SegmentsRules) -> dict[str, str]:
    """The ids a choice field accepts, with their French labels (the table's own dict: do not change it)."""
    return _checks(rs).choices[field]


def _choices_of(field: str, rs: SegmentsRules) -> dict[str, str]:
    if field == "armour":
        return {"": "aucune", **{k: v.label for k, v in rs.armours.items()}}
    if field == "light":
        return {k: v.label for k, v in rs.light.items()}
    if field == "exposure":
        return {"": "aucune", **{k: v.label for k, v in rs.exposure.items()}}
    return {k: v.label for k, v in rs.privations.items()}


def energies(rs: SegmentsRules) -> list[str]:
    return [k for k, v in rs.damage_types.items() if v.energy]


class _Checks:
    """What the sheet's checks read of a rule table, computed once per table (issue 15: rebuilt for every
    sheet, it was most of validating one)."""

    def __init__(self, rs: SegmentsRules) -> None:
        self.choices = {f: _choices_of(f, rs) for f in ("armour", "light", "exposure", "privations")}
        # The choices as the refusals list them.
        self.shown = {f: ", ".join(c.values()) for f, c in self.choices.items()}
        self.levels = frozenset(rs.fatigue.levels)
        settable = [c for c in rs.conditions if c not in self.levels]
        self.settable_text = ", ".join(rs.conditions[c].label for c in settable)
        self.energies = frozenset(energies(rs))
        self.energies_text = ", ".join(energies(rs))
        self.types_text = ", ".join(rs.damage_types)
        self.surprises = frozenset(c for c, r in rs.conditions.items() if r.surprise)


_checks: Callable[[SegmentsRules], _Checks] = per_table(_Checks)


def sheet_problems(sheet: SegmentsSheet, rs: SegmentsRules) -> list[str]:
    """Every way ``sheet`` disagrees with the rule table ``rs`` or with itself, in French; empty when none.

    The one check of a stored sheet, whatever its source: read from a file, edited, or left by an action.
    Ids (states, damage types, energies) are checked against ``rs``, so a GM's table can be passed.
    """
    problems: list[str] = []
    checks = _checks(rs)
    conditions = rs.conditions
    for cid in sheet.conditions:
        if cid in checks.levels:
            problems.append(
                f"« états » : {conditions[cid].label} se règle sur l'échelle de fatigue, pas comme un état posé"
            )
        elif cid not in conditions:
            problems.append(f"« états » : « {cid} » n'est pas un état connu (états : {checks.settable_text})")
    for text in sheet.damage_reductions:
        _, bypass = parse_reduction(text)
        if bypass is not None and bypass not in rs.damage_types:
            problems.append(
                f"« réductions de dégâts » : « {text} » : « {bypass} » n'est pas un type de dégâts connu "
                f"(types : {checks.types_text})"
            )
    for text in sheet.energy_resistances:
        energy, _ = parse_resistance(text)
        if energy not in checks.energies:
            problems.append(
                f"« résistances à l'énergie » : « {energy} » n'est pas une énergie connue "
                f"(énergies : {checks.energies_text})"
            )
    top = len(rs.fatigue.levels)
    if sheet.fatigue > top:
        last = rs.conditions[rs.fatigue.levels[-1]].label
        problems.append(f"« fatigue » : au plus {top} ({last}), le dernier degré")
    if sheet.current > sheet.base_maximum:
        if _hidden(sheet, rs):
            problems.append("les points de vie actuels dépassent le maximum")
        else:
            problems.append(
                f"les points de vie actuels ({fmt_int(sheet.current)}) dépassent le maximum ({sheet.base_maximum})"
            )
    if sheet.stabilised and (sheet.current >= 0 or sheet.dead):
        problems.append("« stabilisé » : seul un personnage vivant sous 0 point de vie est stabilisé")
    turn = rs.time_units["turn"]
    if sheet.self_stabilise_turn is not None and sheet.self_stabilise_turn > sheet.clock // turn:
        problems.append("« tour de la dernière tentative de stabilisation » : ce tour n'est pas encore venu")
    surprised = not checks.surprises.isdisjoint(sheet.conditions)
    counters = (
        ("burning_for", sheet.burning, "« en feu depuis » : ne compte que pendant que le feu brûle"),
        ("exposure_for", bool(sheet.exposure), "« exposition depuis » : ne compte que pendant une exposition"),
        ("hungry_for", "food" in sheet.privations, "« sans manger depuis » : ne compte que sans manger"),
        ("thirsty_for", "water" in sheet.privations, "« sans boire depuis » : ne compte que sans boire"),
        ("sleepless_for", "sleep" in sheet.privations, "« sans dormir depuis » : ne compte que sans dormir"),
        ("surprised_for", surprised, "« surpris depuis » : ne compte que pendant la surprise"),
        ("nonlethal_for", sheet.nonlethal > 0, "« dégâts non létaux depuis » : ne compte qu'avec ces dégâts"),
    )
    for name, active, text in counters:
        value = getattr(sheet, name)
        if value and not active:
            problems.append(text)
        elif value > sheet.clock:
            problems.append(f"« {LABELS[name].lower()} » : plus long que le temps écoulé de la fiche")
    if sheet.suffocating_for is not None and sheet.suffocating_for > sheet.clock:
        problems.append("« sans air depuis » : plus long que le temps écoulé de la fiche")
    if sheet.exposure_save_dd is not None and not sheet.exposure:
        problems.append("« difficulté de la sauvegarde d'exposition » : sans exposition, pas de sauvegarde")
    lasts = rs.surprise.lasts_turns * turn
    if lasts and sheet.surprised_for >= lasts:
        problems.append(f"« surpris depuis » : la surprise dure {plural(rs.surprise.lasts_turns, 'tour')}")
    return problems


def _hidden(sheet: SegmentsSheet, rs: SegmentsRules) -> bool:
    """Whether a state the character is under hides the PV from the player (Engourdi)."""
    from rules.systems.segments.derive import points_hidden

    return points_hidden(sheet, rs)


def _metres(value: float) -> str:
    return f"{value:g}".replace(".", ",")
