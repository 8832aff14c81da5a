"""d20 (seed 001, « Les blessures et la mort »).

Points de vie (PV) with their states (hors de combat at exactly 0, mourant from −1 to −9, mort at −10
or when the Constitution falls to 0); massive damage; localised wounds; the dying character's d100
each round; recovery with and without help; natural healing by nights and full days of rest; temporary
PV with the noted value; the Constitution increase that raises real PV; nonlethal damage counted apart;
the resurrection test. Every number of the seed lives in ``resources/rulesets/d20.toml``.

The PV total that decides the states is ``current + temporary`` (« le total de points de vie », see
docs/rules-notes.md T4); ``current`` alone is what damage past the temporary PV and healing move.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, TypeVar

from pydantic import Field, field_validator, model_validator

from rules.actions import (
    Action,
    AdvanceTime,
    Amount,
    ClearConditions,
    Damage,
    GainTemporary,
    Heal,
    LongRest,
    LoseTemporary,
    SetCondition,
    Stabilise,
    check_amount,
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
from rules.labels import ABILITIES, ABILITY_LABELS, AbilityId
from rules.model import (
    MAX_POINTS,
    Context,
    Derived,
    Explained,
    Frozen,
    SheetBase,
    Term,
    evolve,
    explained_modifier,
    explained_sum,
    fmt_int,
    of,
    plural,
    signed,
)
from rules.ruleset import (
    ConditionGroupTable,
    ConditionTable,
    HealthStateTable,
    Table,
    check_condition_references,
    check_time_units,
)
from rules.systems import System, register

SYSTEM_ID = "d20"
Recovery = Literal["", "assisted", "alone", "alone_awake", "awake"]
RECOVERY_LABELS = {
    "": "",
    "assisted": "stabilisé avec assistance, inconscient",
    "alone": "stabilisé seul, inconscient",
    "alone_awake": "éveillé mais seul, ne récupère pas encore",
    "awake": "éveillé, récupère normalement",
}
Procedure = Literal["ritual", "quick", "resurrection_supreme", "souhait"]
BYPASS: tuple[Procedure, ...] = ("resurrection_supreme", "souhait")
EVENT_CAP = 200_000  # timed events processed in one action at most (dying and recovery end long before)
MAX_SCORE = 99
MAX_WOUNDS = 200
MAX_WOUND_ID = 100_000
MAX_COUNT = 1000  # resurrections and failed quick attempts a sheet records
CON_BONUS_LADDER = 12  # levels the UI's Constitution-increase selector offers (the action takes up to 50)

# French labels of this system's stored fields, for the journal of ``Edit`` and validation messages.
for _key, _label in {
    "constitution_bonus": "augmentation de Constitution",
    "fortitude": "Vigueur",
    "temporary_noted": "PV notés avant les points temporaires",
    "recovery": "récupération",
    "dead": "mort",
    "death_cause": "cause de la mort",
    "weapon_lethal": "arme létale",
    "weapon_melee": "arme de corps à corps",
    "strike_nonlethal": "frappe pour des dégâts non létaux",
    "resurrections": "résurrections réussies",
    "quick_failures": "résurrections rapides ratées",
    "quick_blocked": "résurrection rapide interdite",
    "soul_lost": "âme perdue",
    "body_part": "partie du corps",
    **{f"{a}_damage": f"affaiblissement {of(ABILITY_LABELS[a])}" for a in ABILITIES},
    **{f"{a}_drain": f"diminution permanente {of(ABILITY_LABELS[a])}" for a in ABILITIES},
}.items():
    FIELD_LABELS.setdefault(_key, _label)

# --------------------------------------------------------------------------------------------------
# Rule table
# --------------------------------------------------------------------------------------------------

Percent = int


class GeneralRules(Table):
    ability_base: int = 10
    ability_step: int = Field(2, ge=1)
    check_die: int = Field(20, ge=2, le=1000)
    percent_die: int = Field(100, ge=2, le=1000)
    natural_max_save_succeeds: bool
    natural_one_save_fails: bool


class ThresholdRules(Table):
    disabled_at: int
    death_at: int
    death_constitution: int = Field(ge=0)

    @model_validator(mode="after")
    def _ordered(self) -> ThresholdRules:
        if self.death_at >= self.disabled_at:
            raise ValueError("death_at doit être inférieur à disabled_at")
        return self


class MassiveDamageRules(Table):
    threshold: int = Field(ge=1)
    save_dd: int
    nonlethal_counts: bool


class LocalWoundRules(Table):
    penalty: int = Field(le=0)
    penalties_stack: bool
    heal_at_full: bool
    heal_by_magic: bool


class DyingRules(Table):
    loss_per_round: int = Field(ge=1)
    stabilise_chance: Percent = Field(ge=0, le=100)
    first_roll_after_rounds: int = Field(ge=1)
    first_aid_dd: int
    heal_spell_min: int = Field(ge=1)
    damage_breaks_stability: bool
    strenuous_cost: int = Field(ge=0)


class RecoveryRules(Table):
    assisted_first_roll_hours: int = Field(ge=1)
    assisted_interval_hours: int = Field(ge=1)
    assisted_wake_chance: Percent = Field(ge=0, le=100)
    alone_interval_hours: int = Field(ge=1)
    alone_wake_chance: Percent = Field(ge=0, le=100)
    alone_loss: int = Field(ge=0)
    alone_first_daily_roll_hours: int = Field(ge=1)
    alone_daily_interval_hours: int = Field(ge=1)
    alone_daily_chance: Percent = Field(ge=0, le=100)
    alone_daily_loss: int = Field(ge=0)


class HealingRules(Table):
    night_hours: int = Field(ge=1)
    night_per_level: int = Field(ge=0)
    full_day_hours: int = Field(ge=1)
    full_day_per_level: int = Field(ge=0)
    ability_per_night: int = Field(ge=0)
    ability_per_full_day: int = Field(ge=0)


class TemporaryRules(Table):
    count_for_state: bool
    absorb_nonlethal: bool


class ConstitutionRules(Table):
    changes_pv: bool
    min_pv_per_level: int = Field(ge=0)


class NonlethalRules(Table):
    recovery_per_hour_per_level: int = Field(ge=0)
    healing_removes: Literal["any", "magical"]
    rest_removes: bool
    wrong_weapon_attack: int = Field(le=0)
    lethal_melee_only: bool


class ResurrectionRules(Table):
    base_dd: int
    per_earlier_resurrection: int = Field(ge=0)
    contribution_success: int
    contribution_failure: int
    max_contributors: int = Field(ge=0, le=10)
    quick_failure_increase: int = Field(ge=0)
    revived_pv_per_level: int = Field(ge=0)
    bypass_full_pv: bool
    restore_zero_abilities_to: int = Field(ge=1)
    bypass_counts: bool
    procedures: dict[Procedure, str]

    @model_validator(mode="after")
    def _all_procedures(self) -> ResurrectionRules:
        missing = [p for p in ("ritual", "quick", "resurrection_supreme", "souhait") if p not in self.procedures]
        if missing:
            raise ValueError("resurrection.procedures doit nommer " + ", ".join(missing))
        return self


class HealthState(HealthStateTable):
    effect: str


class ConditionGroup(ConditionGroupTable):
    pass


class ConditionRule(ConditionTable):
    settable: bool


STATE_IDS = ("en_forme", "chancelant", "hors_de_combat", "inconscient", "stabilise", "mourant", "mort")


class D20Rules(Table):
    general: GeneralRules
    time_units: dict[str, int]
    time_labels: dict[str, str]
    thresholds: ThresholdRules
    massive_damage: MassiveDamageRules
    local_wounds: LocalWoundRules
    dying: DyingRules
    recovery: RecoveryRules
    healing: HealingRules
    temporary: TemporaryRules
    constitution: ConstitutionRules
    nonlethal: NonlethalRules
    resurrection: ResurrectionRules
    body_parts: dict[str, str]
    health_states: dict[str, HealthState]
    condition_groups: dict[str, ConditionGroup]
    conditions: dict[str, ConditionRule]

    @model_validator(mode="after")
    def _references(self) -> D20Rules:
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


# --------------------------------------------------------------------------------------------------
# Sheet
# --------------------------------------------------------------------------------------------------


class LocalWound(Frozen):
    """A localised wound (« ses mains dans les flammes », « une chausse-trappe », « à l'œil par une flèche »)."""

    id: int = Field(ge=1, le=MAX_WOUND_ID)
    body_part: str = Field(min_length=1, max_length=60)
    note: str = Field("", max_length=500)


class D20Sheet(SheetBase):
    """A d20 character: points de vie (PV), nonlethal damage, characteristics and what befalls the body.

    ``current`` is the real PV (it may be negative); ``temporary`` the temporary PV, lost first;
    ``temporary_noted`` the PV noted when they were granted. ``recovery`` records how a character below
    0 PV was stabilised ("" = not stabilised: dying). The ``*_at`` fields are the clock (seconds) of the
    next timed roll. The maximum is derived: ``base_maximum`` plus what a Constitution change adds.
    """

    system: Literal["d20"] = "d20"
    strength: int = Field(10, ge=0, le=MAX_SCORE)
    dexterity: int = Field(10, ge=0, le=MAX_SCORE)
    constitution: int = Field(10, ge=0, le=MAX_SCORE)
    intelligence: int = Field(10, ge=0, le=MAX_SCORE)
    wisdom: int = Field(10, ge=0, le=MAX_SCORE)
    charisma: int = Field(10, ge=0, le=MAX_SCORE)
    # « affaiblissement temporaire » (heals with rest) and « diminution permanente » (does not).
    strength_damage: int = Field(0, ge=0, le=MAX_SCORE)
    dexterity_damage: int = Field(0, ge=0, le=MAX_SCORE)
    constitution_damage: int = Field(0, ge=0, le=MAX_SCORE)
    intelligence_damage: int = Field(0, ge=0, le=MAX_SCORE)
    wisdom_damage: int = Field(0, ge=0, le=MAX_SCORE)
    charisma_damage: int = Field(0, ge=0, le=MAX_SCORE)
    strength_drain: int = Field(0, ge=0, le=MAX_SCORE)
    dexterity_drain: int = Field(0, ge=0, le=MAX_SCORE)
    constitution_drain: int = Field(0, ge=0, le=MAX_SCORE)
    intelligence_drain: int = Field(0, ge=0, le=MAX_SCORE)
    wisdom_drain: int = Field(0, ge=0, le=MAX_SCORE)
    charisma_drain: int = Field(0, ge=0, le=MAX_SCORE)
    # « une augmentation, même temporaire, de la valeur de Constitution »
    constitution_bonus: int = Field(0, ge=0, le=50)
    fortitude: int = Field(0, ge=-50, le=100)
    base_maximum: int = Field(10, ge=1, le=MAX_POINTS)
    current: int = Field(10, ge=-MAX_POINTS, le=MAX_POINTS)
    temporary: int = Field(0, ge=0, le=MAX_POINTS)
    temporary_noted: int | None = Field(None, ge=-MAX_POINTS, le=MAX_POINTS)
    nonlethal: int = Field(0, ge=0, le=MAX_POINTS)
    recovery: Recovery = ""
    dying_roll_at: int | None = Field(None, ge=0)
    recovery_roll_at: int | None = Field(None, ge=0)
    nonlethal_heal_at: int | None = Field(None, ge=0)
    dead: bool = False
    death_cause: str = Field("", max_length=200)
    conditions: tuple[str, ...] = Field((), max_length=50)
    wounds: tuple[LocalWound, ...] = Field((), max_length=MAX_WOUNDS)
    # The weapon in hand and how it is used (« malus de –4 » when they do not match).
    weapon_lethal: bool = True
    weapon_melee: bool = True
    strike_nonlethal: bool = False
    # The resurrection test: earlier successful resurrections, failed quick attempts, and their effects.
    resurrections: int = Field(0, ge=0, le=MAX_COUNT)
    quick_failures: int = Field(0, ge=0, le=MAX_COUNT)
    quick_blocked: bool = False
    soul_lost: bool = False

    @model_validator(mode="before")
    @classmethod
    def _full_by_default(cls, data: Any) -> Any:
        # A new character given only its maximum starts unhurt.
        if isinstance(data, dict) and "current" not in data and "base_maximum" in data:
            return {**data, "current": data["base_maximum"]}
        return data

    @field_validator("conditions")
    @classmethod
    def _sorted_unique(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(sorted(set(value)))

    @model_validator(mode="after")
    def _coherent(self) -> D20Sheet:
        # The exact maximum depends on the rule table (a GM's copy may differ), so this bound holds for any
        # table (a modifier step of at least 1): the CON increase adds at most ``level × bonus`` PV.
        # Actions and edits keep ``current`` below the exact maximum.
        bound = self.base_maximum + self.level * self.constitution_bonus
        if self.current > bound:
            extra = " + l'augmentation de Constitution" if self.constitution_bonus else ""
            raise ValueError(
                f"les points de vie actuels ({self.current}) dépassent le maximum ({self.base_maximum}{extra}) ; "
                "pour réduire l'augmentation de Constitution, utilisez l'action « Augmentation de Constitution »"
            )
        ids = [w.id for w in self.wounds]
        if len(ids) != len(set(ids)):
            raise ValueError("deux blessures localisées portent le même numéro")
        return self


# --------------------------------------------------------------------------------------------------
# System-specific actions
# --------------------------------------------------------------------------------------------------


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
        return f"Blessure localisée ({self.body_part})"


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


# --------------------------------------------------------------------------------------------------
# Helpers: characteristics, maximum, total, state
# --------------------------------------------------------------------------------------------------


def ability_modifier(score: int, rs: D20Rules) -> int:
    return (score - rs.general.ability_base) // rs.general.ability_step


def constitution_score(sheet: D20Sheet) -> int:
    """The Constitution in play (the one every PV rule reads; kept apart for speed)."""
    return max(0, sheet.constitution + sheet.constitution_bonus - sheet.constitution_damage - sheet.constitution_drain)


def ability_score(sheet: D20Sheet, ability: str) -> int:
    """The score in play: base (+ the Constitution increase) − ability damage − drain, never below 0."""
    if ability == "constitution":
        return constitution_score(sheet)
    score: int = getattr(sheet, ability)
    return max(0, score - int(getattr(sheet, f"{ability}_damage")) - int(getattr(sheet, f"{ability}_drain")))


def _con_modified(sheet: D20Sheet) -> bool:
    return bool(sheet.constitution_bonus or sheet.constitution_damage or sheet.constitution_drain)


def constitution_pv(sheet: D20Sheet, rs: D20Rules) -> int:
    """PV added (or removed) by the Constitution in play differing from the sheet's score (001 § PV et CON)."""
    if not _con_modified(sheet) or not rs.constitution.changes_pv:
        return 0
    played = ability_modifier(constitution_score(sheet), rs)
    return sheet.level * (played - ability_modifier(sheet.constitution, rs))


def maximum(sheet: D20Sheet, rs: D20Rules) -> int:
    if not _con_modified(sheet):
        return sheet.base_maximum  # the floor (1 PV per level at most the base) cannot matter then
    floor = min(sheet.base_maximum, sheet.level * rs.constitution.min_pv_per_level)
    return min(MAX_POINTS, max(floor, sheet.base_maximum + constitution_pv(sheet, rs)))


def _points(value: int) -> int:
    """A PV value kept within what a sheet can store (handlers never re-validate, so they clamp)."""
    return max(-MAX_POINTS, min(MAX_POINTS, value))


def pv_total(sheet: D20Sheet, rs: D20Rules) -> int:
    """« le total de points de vie » that the states follow (temporary PV included, T4)."""
    return sheet.current + (sheet.temporary if rs.temporary.count_for_state else 0)


def death_reason(sheet: D20Sheet, rs: D20Rules) -> str:
    """Why the character is dead, or "" when alive."""
    if sheet.dead:
        return sheet.death_cause or "mort"
    con = constitution_score(sheet) if _con_modified(sheet) else sheet.constitution
    if con <= rs.thresholds.death_constitution:
        return f"Constitution à {con}"
    if sheet.current <= rs.thresholds.death_at:
        return f"{fmt_int(sheet.current)} PV"
    return ""


def state_id(sheet: D20Sheet, rs: D20Rules, dead: str | None = None) -> str:
    """The state from the table « 0 hors de combat, –1 à –9 mourant, –10 mort » (and the nonlethal rule).

    ``dead``: the death reason when the caller already knows it ("" = alive)."""
    if dead is None:
        dead = death_reason(sheet, rs)
    if dead:
        return "mort"
    total = sheet.current + (sheet.temporary if rs.temporary.count_for_state else 0)
    nl = sheet.nonlethal
    zero = rs.thresholds.disabled_at
    if total < zero:
        if sheet.recovery == "":
            return "mourant"
        if sheet.recovery in ("assisted", "alone"):
            return "stabilise"
        if nl > 0 or "inconscient" in sheet.conditions:
            return "inconscient"
        return "hors_de_combat"
    if (nl > 0 and nl > total) or "inconscient" in sheet.conditions:
        return "inconscient"
    if total == zero:
        return "hors_de_combat"
    if (nl > 0 and nl == total) or "chancelant" in sheet.conditions:
        return "chancelant"
    return "en_forme"


def health_state(sheet: D20Sheet, rs: D20Rules, dead: str | None = None) -> tuple[str, str]:
    """The state id and why, in French."""
    if dead is None:
        dead = death_reason(sheet, rs)
    state = state_id(sheet, rs, dead)
    if state == "mort":
        return state, dead
    total = pv_total(sheet, rs)
    nl = sheet.nonlethal
    pv = f"{fmt_int(total)} PV"
    if state in ("inconscient", "chancelant"):
        if nl > 0 and nl >= total:
            return state, f"dégâts non létaux {nl} {'=' if nl == total else '>'} {pv}"
        return state, "état posé"
    if state == "mourant":
        return state, f"{pv}, pas stabilisé"
    if total < rs.thresholds.disabled_at:
        return state, f"{pv}, {RECOVERY_LABELS[sheet.recovery]}"
    return state, pv


def is_dead(sheet: D20Sheet, rs: D20Rules) -> bool:
    return bool(death_reason(sheet, rs))


def _name(sheet: D20Sheet) -> str:
    return sheet.name or "Le personnage"


def _alive(sheet: D20Sheet, rs: D20Rules, what: str) -> None:
    if is_dead(sheet, rs):
        raise Refused(f"{_name(sheet)} est mort : {what} impossible.")


def _hours(rs: D20Rules, count: int) -> int:
    return count * rs.time_units["hour"]


def _percent_roll(ctx: Context, chance: int, what: str) -> tuple[bool, str]:
    """A d100 roll against a chance in %; success when the die shows ``chance`` or less."""
    rs: D20Rules = ctx.ruleset
    roll = ctx.dice(1, rs.general.percent_die, what)
    ok = roll.total <= chance
    return ok, f"{roll.detail} {'≤' if ok else '>'} {chance}"


def _check(ctx: Context, what: str, modifier: int, dd: int, *, save: bool = False) -> bool:
    """A d20 test: 1d20 + modifier against a DD (saves: natural 20 succeeds, natural 1 fails)."""
    rs: D20Rules = ctx.ruleset
    die = rs.general.check_die
    roll = ctx.dice(1, die, what)
    total = roll.total + modifier
    ok = total >= dd
    note = ""
    if save and roll.total == die and rs.general.natural_max_save_succeeds:
        ok, note = True, f" ({die} naturel)"
    elif save and roll.total == 1 and rs.general.natural_one_save_fails:
        ok, note = False, " (1 naturel)"
    shown = f"{roll.detail} {signed(modifier)} = {total}" if modifier else roll.detail
    ctx.say(f"{what} : {shown} contre DD {dd}{note} → {'réussite' if ok else 'échec'}.")
    return ok


# --------------------------------------------------------------------------------------------------
# Transitions: after every change, dead/dying/stable/timers are made coherent and the journal told
# --------------------------------------------------------------------------------------------------


def _die(sheet: D20Sheet, ctx: Context, cause: str) -> D20Sheet:
    ctx.say(f"{_name(sheet)} meurt ({cause}).")
    ctx.event("died")
    return evolve(
        sheet,
        dead=True,
        death_cause=cause,
        recovery="",
        dying_roll_at=None,
        recovery_roll_at=None,
        nonlethal_heal_at=None,
    )


# States from best to worst; a change to a worse state is news for the UI (events), a change out of
# unconsciousness is a wake-up.
STATE_RANK = {name: rank for rank, name in enumerate(STATE_IDS)}
WORSE_NEWS = {
    "chancelant": "staggered",
    "hors_de_combat": "fell",
    "inconscient": "unconscious",
    "mourant": "dying",
}
UNCONSCIOUS = ("inconscient", "stabilise", "mourant")


def _settle(before: D20Sheet, sheet: D20Sheet, rs: D20Rules, ctx: Context) -> D20Sheet:
    """Make the sheet coherent after a change and say in the journal what its state became."""
    unchanged = before is sheet
    changes: dict[str, Any] = {}
    if sheet.dead:
        return sheet
    top = maximum(sheet, rs)
    if sheet.current > top:
        ctx.say(f"PV ramenés au maximum : {fmt_int(sheet.current)} → {top}.")
        changes["current"] = top
    if sheet.current >= rs.thresholds.disabled_at and (sheet.recovery or sheet.recovery_roll_at is not None):
        # « S'il remonte à 1 point de vie ou plus … comme s'il n'avait jamais été mourant » (and at 0:
        # « il reprend conscience mais est hors de combat »): the stabilisation story is over.
        changes["recovery"] = ""
        changes["recovery_roll_at"] = None
    if changes:
        sheet = evolve(sheet, **changes)
        changes = {}
    cause = death_reason(sheet, rs)
    if cause:
        return _die(sheet, ctx, cause)  # it tells the journal and stops every timer
    state1 = state_id(sheet, rs, "")
    state0 = state1 if unchanged else state_id(before, rs)
    if state1 == "mourant":
        if sheet.dying_roll_at is None or state0 != "mourant":
            changes["dying_roll_at"] = sheet.clock + rs.dying.first_roll_after_rounds * rs.time_units["round"]
    elif sheet.dying_roll_at is not None:
        changes["dying_roll_at"] = None
    if sheet.recovery in ("assisted", "alone") and sheet.recovery_roll_at is None:
        hours = (
            rs.recovery.assisted_first_roll_hours if sheet.recovery == "assisted" else rs.recovery.alone_interval_hours
        )
        changes["recovery_roll_at"] = sheet.clock + _hours(rs, hours)
    elif sheet.recovery == "alone_awake" and sheet.recovery_roll_at is None:
        changes["recovery_roll_at"] = sheet.clock + _hours(rs, rs.recovery.alone_first_daily_roll_hours)
    elif sheet.recovery in ("", "awake") and sheet.recovery_roll_at is not None:
        changes["recovery_roll_at"] = None
    if sheet.nonlethal > 0 and rs.nonlethal.recovery_per_hour_per_level > 0:
        if sheet.nonlethal_heal_at is None:
            changes["nonlethal_heal_at"] = sheet.clock + _hours(rs, 1)
    elif sheet.nonlethal_heal_at is not None:
        changes["nonlethal_heal_at"] = None
    if sheet.temporary > 0 and sheet.temporary_noted is None:
        changes["temporary_noted"] = sheet.current
    elif sheet.temporary == 0 and sheet.temporary_noted is not None:
        changes["temporary_noted"] = None
    if changes:
        sheet = evolve(sheet, **changes)
    if state1 != state0:
        why = health_state(sheet, rs, "")[1]
        label0 = rs.health_states[state0].label
        label1 = rs.health_states[state1].label
        ctx.say(f"État : {label0} → {label1} ({why}) — {rs.health_states[state1].effect}")
        news = WORSE_NEWS.get(state1)
        if news and STATE_RANK[state1] > STATE_RANK[state0]:
            ctx.event(news)
        if state1 == "stabilise":
            ctx.event("stabilised")
        if state0 in UNCONSCIOUS and state1 not in UNCONSCIOUS:
            ctx.event("woke")
    return sheet


H = TypeVar("H", bound=Action)


def _settled(handler: Callable[[D20Sheet, H, Context], D20Sheet]) -> Callable[[D20Sheet, H, Context], D20Sheet]:
    """Every handler ends with ``_settle`` (states, deaths, timers), whatever path it took."""

    def run(sheet: D20Sheet, action: H, ctx: Context) -> D20Sheet:
        return _settle(sheet, handler(sheet, action, ctx), ctx.ruleset, ctx)

    run.__name__ = handler.__name__
    run.__doc__ = handler.__doc__
    return run


def _settled_inside(
    handler: Callable[[D20Sheet, H, Context], D20Sheet],
) -> Callable[[D20Sheet, H, Context], D20Sheet]:
    """For handlers that settle step by step themselves (each hit, each timed roll): a last check only."""

    def run(sheet: D20Sheet, action: H, ctx: Context) -> D20Sheet:
        result = handler(sheet, action, ctx)
        return _settle(result, result, ctx.ruleset, ctx)

    run.__name__ = handler.__name__
    run.__doc__ = handler.__doc__
    return run


def _lose(sheet: D20Sheet, amount: int, rs: D20Rules, ctx: Context, what: str) -> tuple[D20Sheet, int]:
    """``amount`` PV lost, temporary PV first; returns the sheet and what the real PV lost."""
    absorbed = min(sheet.temporary, amount)
    real = amount - absorbed
    new_current = _points(sheet.current - real)
    line = f"{what} : {_name(sheet)} perd {plural(amount, 'PV', 'PV')}"
    if absorbed:
        line += f" ({absorbed} absorbés par les PV temporaires)"
    line += f" : {fmt_int(sheet.current)} → {fmt_int(new_current)} PV."
    ctx.say(line)
    return evolve(sheet, temporary=sheet.temporary - absorbed, current=new_current), real


def _con_changed(old: D20Sheet, new: D20Sheet, rs: D20Rules, ctx: Context) -> D20Sheet:
    """« une augmentation, même temporaire, de la valeur de Constitution … augmentation ponctuelle de son
    nombre de points de vie … il ne s'agit pas de points de vie temporaires » : real PV, both ways."""
    delta = constitution_pv(new, rs) - constitution_pv(old, rs)
    # The dead regain nothing, but a lower Constitution still lowers their PV with the maximum.
    if delta == 0 or (new.dead and delta > 0):
        return new
    before_max = maximum(old, rs)
    after_max = maximum(new, rs)
    con0, con1 = ability_score(old, "constitution"), ability_score(new, "constitution")
    current = _points(new.current + delta)
    ctx.say(
        f"Constitution en jeu {con0} → {con1} : {signed(delta)} PV (de vrais PV, pas des PV temporaires) ; "
        f"maximum {before_max} → {after_max}, PV {fmt_int(new.current)} → {fmt_int(current)}."
    )
    changes: dict[str, Any] = {"current": current}
    if new.temporary_noted is not None:
        changes["temporary_noted"] = _points(new.temporary_noted + delta)
    return evolve(new, **changes)


def _heal_pv(
    sheet: D20Sheet,
    amount: int,
    rs: D20Rules,
    ctx: Context,
    *,
    what: str,
    magical: bool,
    rest: bool = False,
) -> tuple[D20Sheet, int]:
    """PV regained: never above the maximum, never more than was lost (001 § Limites de la guérison)."""
    top = maximum(sheet, rs)
    gained = max(0, min(amount, top - sheet.current))
    new_current = sheet.current + gained
    line = f"{what} : {fmt_int(sheet.current)} → {fmt_int(new_current)} PV"
    if amount > gained:
        line += f" (maximum {top} ; jamais plus que les PV perdus : {amount - gained} sans effet)"
    ctx.say(line + ".")
    changes: dict[str, Any] = {"current": new_current}
    if sheet.temporary and sheet.temporary_noted is not None and new_current > sheet.temporary_noted:
        # The healing is real: the value the PV fall back to when the temporary PV go includes it (T4).
        changes["temporary_noted"] = new_current
    removes = rs.nonlethal.rest_removes if rest else (magical or rs.nonlethal.healing_removes == "any")
    if removes and sheet.nonlethal:
        # « Les sorts permettant de récupérer des points de vie font également disparaître un nombre égal
        #   de points de dégâts non-létaux »
        removed = min(sheet.nonlethal, amount)
        changes["nonlethal"] = sheet.nonlethal - removed
        ctx.say(f"Les soins effacent aussi {removed} dégâts non létaux : {sheet.nonlethal} → {changes['nonlethal']}.")
    if sheet.current < rs.thresholds.disabled_at and new_current < rs.thresholds.disabled_at and not rest:
        if sheet.recovery == "":
            if magical and gained >= rs.dying.heal_spell_min:
                # « Si un sort de guérison lui rend ne serait-ce qu'un point de vie, il cesse de perdre des
                #   points de vie et son état se stabilise. »
                ctx.say("Le sort de guérison le stabilise : il ne perd plus de PV (récupération avec assistance).")
                changes["recovery"] = "assisted"
                changes["recovery_roll_at"] = None
                ctx.event("stabilised")
            else:
                ctx.say("Des soins non magiques ne stabilisent pas : toujours mourant.")
        elif sheet.recovery in ("alone", "alone_awake"):
            # Someone now tends him (the healer's intervention of « Récupération avec assistance »).
            changes["recovery"] = "assisted" if sheet.recovery == "alone" else "awake"
            changes["recovery_roll_at"] = None
            ctx.say("Soigné, il n'est plus seul : récupération avec assistance.")
    new = evolve(sheet, **changes)
    if new.wounds:
        full = rs.local_wounds.heal_at_full and new_current >= top and sheet.current < top
        by_magic = rs.local_wounds.heal_by_magic and magical and gained > 0
        if full or by_magic:
            parts = ", ".join(_part_label(w.body_part, rs) for w in new.wounds)
            ctx.say(f"Blessures localisées guéries ({'PV au maximum' if full else 'soins magiques'}) : {parts}.")
            new = evolve(new, wounds=())
    return new, gained


def _part_label(part: str, rs: D20Rules) -> str:
    return rs.body_parts.get(part, part)


def _check_part(part: str, rs: D20Rules) -> None:
    if part not in rs.body_parts:
        known = ", ".join(rs.body_parts)
        raise Refused(f"Partie du corps inconnue : « {part} » (attendu : {known}).")


def _add_wound(sheet: D20Sheet, part: str, note: str, rs: D20Rules, ctx: Context) -> D20Sheet:
    if len(sheet.wounds) >= MAX_WOUNDS:
        ctx.say(f"La fiche compte déjà {MAX_WOUNDS} blessures localisées : celle-ci n'est pas ajoutée.")
        return sheet
    used = {w.id for w in sheet.wounds}
    next_id = max(used, default=0) + 1
    if next_id > MAX_WOUND_ID:
        next_id = min(set(range(1, MAX_WOUNDS + 2)) - used)
    wound = LocalWound(id=next_id, body_part=part, note=note)
    label = _part_label(part, rs)
    same = any(w.body_part == part for w in sheet.wounds)
    line = f"Blessure localisée n° {next_id} : {label} — malus de {signed(rs.local_wounds.penalty)} à toute action"
    line += " qui se sert de cette partie du corps"
    if same and not rs.local_wounds.penalties_stack:
        line += " (déjà blessée : le malus ne se cumule pas)"
    ctx.say(line + ".")
    return evolve(sheet, wounds=(*sheet.wounds, wound))


# --------------------------------------------------------------------------------------------------
# Handlers
# --------------------------------------------------------------------------------------------------


@_settled
def damage(sheet: D20Sheet, action: Damage, ctx: Context) -> D20Sheet:
    rs: D20Rules = ctx.ruleset
    if action.body_part is not None:
        _check_part(action.body_part, rs)
    if is_dead(sheet, rs):
        ctx.say(f"{_name(sheet)} est déjà mort : dégâts sans effet.")
        return sheet
    dealt = 0
    for _ in range(action.hits):
        roll = ctx.amount(action.amount, "Dégâts")
        if not roll.given:
            ctx.say(f"Dégâts : {roll.detail}.")
        amount = roll.total
        if amount < 0:
            raise Refused(f"Des dégâts négatifs ({amount}) n'ont pas de sens : utilisez Soins.")
        if action.save_halves:
            ctx.say(f"Jet de sauvegarde réussi : dégâts réduits de moitié, {amount} → {amount // 2}.")
            amount //= 2
        if action.nonlethal:
            sheet, real = _take_nonlethal(sheet, amount, rs, ctx)
        else:
            sheet, real = _take_lethal(sheet, amount, rs, ctx)
        dealt += real
        massive = action.single_attack and amount >= rs.massive_damage.threshold
        if massive and (not action.nonlethal or rs.massive_damage.nonlethal_counts) and not is_dead(sheet, rs):
            sheet = _massive_damage(sheet, amount, rs, ctx)
        if is_dead(sheet, rs):
            break  # the hits left fall on a corpse; ``_settle`` records the death
    if action.body_part is not None and dealt > 0 and not is_dead(sheet, rs):
        sheet = _add_wound(sheet, action.body_part, "", rs, ctx)
    return sheet


def _take_lethal(sheet: D20Sheet, amount: int, rs: D20Rules, ctx: Context) -> tuple[D20Sheet, int]:
    sheet, real = _lose(sheet, amount, rs, ctx, "Dégâts")
    if real > 0 and sheet.recovery and rs.dying.damage_breaks_stability:
        ctx.say("Les nouveaux dégâts rouvrent ses blessures : il n'est plus stabilisé.")
        sheet = evolve(sheet, recovery="", recovery_roll_at=None)
    return sheet, real


def _take_nonlethal(sheet: D20Sheet, amount: int, rs: D20Rules, ctx: Context) -> tuple[D20Sheet, int]:
    """« faites-en le total à part. Ne les déduisez surtout pas de son nombre de points de vie ! »"""
    absorbed = min(sheet.temporary, amount) if rs.temporary.absorb_nonlethal else 0
    rest = amount - absorbed
    total = min(MAX_POINTS, sheet.nonlethal + rest)
    line = f"{_name(sheet)} subit {amount} dégâts non létaux (comptés à part, jamais ôtés des PV)"
    if absorbed:
        line += f", {absorbed} absorbés par les PV temporaires"
    ctx.say(f"{line} : total {sheet.nonlethal} → {total}.")
    return evolve(sheet, nonlethal=total, temporary=sheet.temporary - absorbed), rest


def _massive_damage(sheet: D20Sheet, amount: int, rs: D20Rules, ctx: Context) -> D20Sheet:
    """« au moins 50 points de dégâts, il doit réussir un jet de Vigueur (DD 15). S'il le rate, il meurt sur
    le coup, et ce quel que soit son nombre de points de vie. »"""
    md = rs.massive_damage
    ctx.event("massive_damage")
    ctx.say(f"Dégâts excessifs ({amount} en une attaque, {md.threshold} ou plus) : jet de Vigueur DD {md.save_dd}.")
    if _check(ctx, "Jet de Vigueur (dégâts excessifs)", sheet.fortitude, md.save_dd, save=True):
        return sheet
    return _die(sheet, ctx, "jet de Vigueur raté après des dégâts excessifs")


@_settled
def heal(sheet: D20Sheet, action: Heal, ctx: Context) -> D20Sheet:
    rs: D20Rules = ctx.ruleset
    _alive(sheet, rs, "regagner des points de vie (seule une résurrection le ramène)")
    roll = ctx.amount(action.amount, "Soins")
    if roll.total < 0:
        raise Refused(f"Des soins négatifs ({roll.total}) n'ont pas de sens : utilisez Dégâts.")
    shown = roll.detail if not roll.given else str(roll.total)
    what = f"{'Soins magiques' if action.magical else 'Soins'} {shown}"
    sheet, _ = _heal_pv(sheet, roll.total, rs, ctx, what=what, magical=action.magical)
    return sheet


@_settled
def gain_temporary(sheet: D20Sheet, action: GainTemporary, ctx: Context) -> D20Sheet:
    rs: D20Rules = ctx.ruleset
    _alive(sheet, rs, "recevoir des points de vie temporaires")
    amount = ctx.amount(action.amount, "PV temporaires").total
    if amount < 0:
        raise Refused("Des points de vie temporaires négatifs n'ont pas de sens.")
    amount = min(MAX_POINTS, amount)
    old = sheet.temporary
    if old and not action.replace:
        ctx.say(f"PV temporaires : {old} conservés ; les {amount} nouveaux ne se cumulent pas.")
        return sheet
    # « notez le nombre de points de vie actuels du personnage, avant de prendre en compte l'effet magique »
    noted = sheet.temporary_noted if old and sheet.temporary_noted is not None else sheet.current
    if old:
        ctx.say(f"PV temporaires : {old} remplacés par {amount} ; PV notés : {fmt_int(noted)}.")
    else:
        ctx.say(f"PV temporaires : {amount} ; PV notés avant l'effet : {fmt_int(noted)}.")
    return evolve(sheet, temporary=amount, temporary_noted=noted if amount else None)


@_settled
def lose_temporary(sheet: D20Sheet, action: LoseTemporary, ctx: Context) -> D20Sheet:
    rs: D20Rules = ctx.ruleset
    if not sheet.temporary:
        ctx.say("Aucun point de vie temporaire.")
        return evolve(sheet, temporary_noted=None)
    noted = sheet.temporary_noted if sheet.temporary_noted is not None else sheet.current
    before_total = pv_total(sheet, rs)
    # « le total de points de vie de l'aventurier retombe à la valeur notée, à moins qu'il se trouve déjà
    #   en dessous (auquel cas il reste stable) »
    new_current = min(sheet.current, noted)
    if sheet.current >= noted:
        how = f"retombe à la valeur notée ({fmt_int(noted)})"
    else:
        how = f"déjà sous la valeur notée {fmt_int(noted)} : reste à {fmt_int(new_current)}"
    ctx.say(
        f"Les {sheet.temporary} PV temporaires disparaissent (jamais récupérables) : total {fmt_int(before_total)} → "
        f"{fmt_int(new_current)} PV, {how}."
    )
    return evolve(sheet, temporary=0, temporary_noted=None, current=new_current)


def effective_conditions(sheet: D20Sheet, rs: D20Rules) -> dict[str, str]:
    """Every condition in play with why: « posé », from the PV (« découle de … »), or implied by another."""
    result: dict[str, str] = {}
    for cid in sheet.conditions:
        result[cid] = "posé"
    if not is_dead(sheet, rs):
        total = pv_total(sheet, rs)
        zero = rs.thresholds.disabled_at
        from_pv = ""
        if total < zero:
            from_pv = {"": "mourant", "assisted": "stabilise", "alone": "stabilise"}.get(
                sheet.recovery, "hors_de_combat"
            )
        elif total == zero:
            from_pv = "hors_de_combat"
        if from_pv and from_pv not in result:
            result[from_pv] = f"découle des points de vie ({fmt_int(total)} PV)"
        nl = sheet.nonlethal
        if nl > 0 and nl >= total:
            from_nl = "chancelant" if nl == total else "inconscient"
            if from_nl not in result:
                sign = "=" if nl == total else ">"
                result[from_nl] = f"découle des dégâts non létaux ({nl} {sign} {fmt_int(total)} PV)"
    pending = list(result)
    while pending:
        cid = pending.pop()
        rule = rs.conditions.get(cid)
        if rule is None:
            continue
        for implied in rule.implies:
            if implied not in result:
                result[implied] = f"découle {of(rule.label)}"
                pending.append(implied)
    return result


@_settled
def set_condition(sheet: D20Sheet, action: SetCondition, ctx: Context) -> D20Sheet:
    rs: D20Rules = ctx.ruleset
    cid = action.condition
    rule = rs.conditions.get(cid)
    if rule is None:
        raise Refused(f"État inconnu : « {cid} ».")
    if action.active:
        if not rule.settable:
            raise Refused(f"{rule.label} découle des points de vie : il ne se pose pas à la main.")
        if cid in sheet.conditions:
            ctx.say(f"{rule.label} : déjà en place.")
            return sheet
        _alive(sheet, rs, "changer d'état")
        ctx.say(f"État {rule.label} ajouté.")
        return evolve(sheet, conditions=tuple(sorted({*sheet.conditions, cid})))
    if cid not in sheet.conditions:
        why = effective_conditions(sheet, rs).get(cid)
        if why:
            raise Refused(f"{rule.label} {why} : il ne se retire pas à la main.")
        ctx.say(f"{rule.label} : n'était pas en place.")
        return sheet
    ctx.say(f"État {rule.label} retiré.")
    return evolve(sheet, conditions=tuple(c for c in sheet.conditions if c != cid))


@_settled
def clear_conditions(sheet: D20Sheet, action: ClearConditions, ctx: Context) -> D20Sheet:
    rs: D20Rules = ctx.ruleset
    if not sheet.conditions:
        ctx.say("Aucun état posé à retirer (ceux qui découlent des PV restent).")
        return sheet
    names = ", ".join(rs.conditions[c].label if c in rs.conditions else c for c in sheet.conditions)
    ctx.say(f"États retirés : {names}.")
    return evolve(sheet, conditions=())


@_settled
def stabilise(sheet: D20Sheet, action: Stabilise, ctx: Context) -> D20Sheet:
    rs: D20Rules = ctx.ruleset
    _alive(sheet, rs, "stabiliser")
    if pv_total(sheet, rs) >= rs.thresholds.disabled_at:
        raise Refused(f"{_name(sheet)} n'est pas mourant (PV à 0 ou plus) : rien à stabiliser.")
    if sheet.recovery in ("assisted", "awake"):
        raise Refused(f"{_name(sheet)} est déjà stabilisé, avec assistance.")
    if action.method == "first_aid":
        # « Un test de Premiers secours de DD 15 réussi permet de stabiliser l'état d'un personnage mourant »
        if not _check(ctx, "Premiers secours", action.modifier, rs.dying.first_aid_dd):
            return sheet
    elif action.method != "magic":
        raise Refused(f"Méthode de stabilisation inconnue : « {action.method} » (premiers secours ou magie).")
    if sheet.recovery == "":
        ctx.say(
            f"Stabilisé avec assistance : ne perd plus de PV ; 1d100 dans "
            f"{plural(rs.recovery.assisted_first_roll_hours, 'heure')} pour reprendre connaissance "
            f"({rs.recovery.assisted_wake_chance} %)."
        )
        ctx.event("stabilised")
        return evolve(sheet, recovery="assisted", recovery_roll_at=None, dying_roll_at=None)
    ctx.say("Un soigneur veille désormais sur lui : récupération avec assistance.")
    return evolve(sheet, recovery="assisted" if sheet.recovery == "alone" else "awake", recovery_roll_at=None)


@_settled
def strenuous_action(sheet: D20Sheet, action: StrenuousAction, ctx: Context) -> D20Sheet:
    """« n'importe quelle action simple (ainsi que d'autres actions fatigantes) lui fait perdre 1 point de vie
    dès qu'il l'a accomplie. À moins que l'action ait eu pour conséquence de soigner le personnage, celui-ci
    se retrouve à –1 point de vie et passe au stade de mourant. »"""
    rs: D20Rules = ctx.ruleset
    _alive(sheet, rs, "agir")
    state = state_id(sheet, rs)
    if state in ("en_forme", "chancelant"):
        raise Refused(f"{_name(sheet)} n'est pas hors de combat : une action simple ne lui coûte pas de PV.")
    if state != "hors_de_combat":
        raise Refused(f"{_name(sheet)} est {rs.health_states[state].label.lower()} : il ne peut plus rien faire.")
    healed = 0
    roll = ctx.amount(action.healing, "Soins de l'action")
    if roll.total < 0:
        raise Refused("Des soins négatifs n'ont pas de sens.")
    if roll.total:
        what = f"{'Soins magiques' if action.magical else 'Soins'} de l'action {roll.total}"
        sheet, healed = _heal_pv(sheet, roll.total, rs, ctx, what=what, magical=action.magical)
    cost = rs.dying.strenuous_cost
    sheet, _ = _lose(sheet, cost, rs, ctx, "Action simple hors de combat")
    if healed == 0 and pv_total(sheet, rs) < rs.thresholds.disabled_at and sheet.recovery:
        sheet = evolve(sheet, recovery="", recovery_roll_at=None)
    return sheet


@_settled
def add_local_wound(sheet: D20Sheet, action: AddLocalWound, ctx: Context) -> D20Sheet:
    rs: D20Rules = ctx.ruleset
    _check_part(action.body_part, rs)
    _alive(sheet, rs, "recevoir une blessure")
    return _add_wound(sheet, action.body_part, action.note, rs, ctx)


@_settled
def heal_local_wound(sheet: D20Sheet, action: HealLocalWound, ctx: Context) -> D20Sheet:
    rs: D20Rules = ctx.ruleset
    for wound in sheet.wounds:
        if wound.id == action.wound_id:
            ctx.say(f"Blessure localisée n° {wound.id} ({_part_label(wound.body_part, rs)}) guérie.")
            return evolve(sheet, wounds=tuple(w for w in sheet.wounds if w.id != wound.id))
    raise Refused(f"Aucune blessure localisée n° {action.wound_id} sur la fiche.")


@_settled
def set_constitution_bonus(sheet: D20Sheet, action: SetConstitutionBonus, ctx: Context) -> D20Sheet:
    rs: D20Rules = ctx.ruleset
    _alive(sheet, rs, "changer la Constitution")
    if action.level == sheet.constitution_bonus:
        ctx.say(f"Augmentation de Constitution inchangée (+{action.level}).")
        return sheet
    if action.level:
        ctx.say(f"Augmentation de Constitution : +{sheet.constitution_bonus} → +{action.level}.")
    else:
        ctx.say(f"L'augmentation de Constitution (+{sheet.constitution_bonus}) prend fin.")
    return _con_changed(sheet, evolve(sheet, constitution_bonus=action.level), rs, ctx)


@_settled
def ability_damage(sheet: D20Sheet, action: AbilityDamage, ctx: Context) -> D20Sheet:
    rs: D20Rules = ctx.ruleset
    _alive(sheet, rs, "perdre des points de caractéristique")
    field = f"{action.ability}_{'drain' if action.drain else 'damage'}"
    old_value: int = getattr(sheet, field)
    new_value = min(MAX_SCORE, old_value + action.points)
    label = ABILITY_LABELS[action.ability]
    before = ability_score(sheet, action.ability)
    new = evolve(sheet, **{field: new_value})
    what = "Diminution permanente" if action.drain else "Affaiblissement temporaire"
    ctx.say(f"{what} {of(label)} {action.points} : {label} en jeu {before} → {ability_score(new, action.ability)}.")
    return _con_changed(sheet, new, rs, ctx)


@_settled
def restore_ability(sheet: D20Sheet, action: RestoreAbility, ctx: Context) -> D20Sheet:
    rs: D20Rules = ctx.ruleset
    _alive(sheet, rs, "restaurer une caractéristique")
    field = f"{action.ability}_{'drain' if action.drain else 'damage'}"
    old_value: int = getattr(sheet, field)
    if old_value == 0:
        raise Refused(f"Aucun point à restaurer ({FIELD_LABELS.get(field, field)} à 0).")
    new_value = max(0, old_value - action.points)
    label = ABILITY_LABELS[action.ability]
    new = evolve(sheet, **{field: new_value})
    ctx.say(
        f"{label} restaurée de {old_value - new_value} : en jeu {ability_score(sheet, action.ability)} → "
        f"{ability_score(new, action.ability)}."
    )
    return _con_changed(sheet, new, rs, ctx)


# --- Time -----------------------------------------------------------------------------------------


def _dying_roll(sheet: D20Sheet, rs: D20Rules, ctx: Context, number: int) -> D20Sheet:
    """« Lors de chacun de ses tours de jeu, un personnage mourant doit lancer 1d100 … Il a 10% de chances
    de se stabiliser, et s'il ne réussit pas, il perd 1 point de vie. »"""
    ok, shown = _percent_roll(ctx, rs.dying.stabilise_chance, "Jet du mourant")
    if ok:
        ctx.say(f"Round {number} : {shown} — se stabilise seul, sans assistance.")
        ctx.event("stabilised")
        return evolve(sheet, recovery="alone", recovery_roll_at=None, dying_roll_at=None)
    ctx.say(f"Round {number} : {shown} — s'enfonce.")
    sheet, _ = _lose(sheet, rs.dying.loss_per_round, rs, ctx, "Mourant")
    return evolve(sheet, dying_roll_at=sheet.clock + rs.time_units["round"])


def _recovery_roll(sheet: D20Sheet, rs: D20Rules, ctx: Context) -> D20Sheet:
    rec = rs.recovery
    if pv_total(sheet, rs) >= rs.thresholds.disabled_at:
        # Temporary PV keep him above 0 for now: nothing to roll this hour (T4).
        interval = rec.alone_daily_interval_hours if sheet.recovery == "alone_awake" else rec.alone_interval_hours
        return evolve(sheet, recovery_roll_at=sheet.clock + _hours(rs, interval))
    if sheet.recovery == "assisted":
        # « Le personnage a 10 % de chances de reprendre connaissance … Si le jet est raté, on le rejoue
        #   toutes les heures. »
        ok, shown = _percent_roll(ctx, rec.assisted_wake_chance, "Reprendre connaissance (avec assistance)")
        if ok:
            ctx.say(f"Reprendre connaissance : {shown} — se réveille, hors de combat.")
            return evolve(sheet, recovery="awake", recovery_roll_at=None)
        ctx.say(f"Reprendre connaissance : {shown} — reste inconscient.")
        return evolve(sheet, recovery_roll_at=sheet.clock + _hours(rs, rec.assisted_interval_hours))
    if sheet.recovery == "alone":
        # « Chaque heure, il a 10 % de chances de reprendre connaissance. Chaque fois qu'il rate ce jet, il
        #   perd 1 point de vie »
        ok, shown = _percent_roll(ctx, rec.alone_wake_chance, "Reprendre connaissance (seul)")
        if ok:
            ctx.say(f"Reprendre connaissance : {shown} — se réveille, seul et hors de combat.")
            return evolve(sheet, recovery="alone_awake", recovery_roll_at=None)
        ctx.say(f"Reprendre connaissance : {shown} — reste inconscient.")
        sheet, _ = _lose(sheet, rec.alone_loss, rs, ctx, "Seul, ses blessures saignent")
        return evolve(sheet, recovery_roll_at=sheet.clock + _hours(rs, rec.alone_interval_hours))
    if sheet.recovery == "alone_awake":
        # « Chaque jour … 10 % de chances de commencer à récupérer des points de vie normalement. En cas
        #   d'échec, il rechute et perd 1 point de vie. »
        ok, shown = _percent_roll(ctx, rec.alone_daily_chance, "Commencer à récupérer (seul)")
        if ok:
            ctx.say(f"Commencer à récupérer : {shown} — récupère désormais normalement, ne perd plus de PV.")
            return evolve(sheet, recovery="awake", recovery_roll_at=None)
        ctx.say(f"Commencer à récupérer : {shown} — rechute.")
        sheet, _ = _lose(sheet, rec.alone_daily_loss, rs, ctx, "Rechute")
        return evolve(sheet, recovery_roll_at=sheet.clock + _hours(rs, rec.alone_daily_interval_hours))
    return evolve(sheet, recovery_roll_at=None)


def _nonlethal_recovery(sheet: D20Sheet, limit: int, rs: D20Rules, ctx: Context) -> D20Sheet:
    """« Les dégâts non-létaux disparaissent au rythme de 1 point par heure et par niveau global. »

    Every hourly tick up to ``limit`` (the next other event or the end) is applied at once."""
    per_hour = rs.nonlethal.recovery_per_hour_per_level * sheet.level
    start = sheet.nonlethal_heal_at
    hour = rs.time_units["hour"]
    if start is None or per_hour <= 0:
        return evolve(sheet, nonlethal_heal_at=None)
    possible = (limit - start) // hour + 1
    needed = -(-sheet.nonlethal // per_hour)
    ticks = max(1, min(possible, needed))
    healed = min(sheet.nonlethal, ticks * per_hour)
    left = sheet.nonlethal - healed
    last = start + (ticks - 1) * hour
    ctx.say(
        f"Dégâts non létaux : −{healed} en {plural(ticks, 'heure')} ({per_hour} par heure) : "
        f"{sheet.nonlethal} → {left}."
    )
    return evolve(sheet, clock=max(sheet.clock, last), nonlethal=left, nonlethal_heal_at=last + hour if left else None)


def _pass_time(sheet: D20Sheet, seconds: int, rs: D20Rules, ctx: Context) -> D20Sheet:
    """Let ``seconds`` pass: the dying rolls each round, the recovery rolls each hour or day, and the
    hourly recovery of nonlethal damage, in the order they fall due."""
    start = sheet.clock
    end = start + seconds
    sheet = _settle(sheet, sheet, rs, ctx)
    round_s = rs.time_units["round"]
    events = 0
    while not sheet.dead:
        timers: list[tuple[int, int]] = []
        if sheet.dying_roll_at is not None:
            timers.append((sheet.dying_roll_at, 0))
        if sheet.recovery_roll_at is not None:
            timers.append((sheet.recovery_roll_at, 1))
        if sheet.nonlethal_heal_at is not None:
            timers.append((sheet.nonlethal_heal_at, 2))
        due = [t for t in timers if t[0] <= end]
        if not due:
            break
        at, kind = min(due)
        events += 1
        if events > EVENT_CAP:
            raise Refused("Trop d'événements à simuler d'un coup : avancez le temps par étapes.")
        before = sheet
        sheet = evolve(sheet, clock=max(sheet.clock, at))
        if kind == 0:
            sheet = _dying_roll(sheet, rs, ctx, (sheet.clock - start) // round_s)
        elif kind == 1:
            sheet = _recovery_roll(sheet, rs, ctx)
        else:
            others = [t for t, k in timers if k != 2]
            sheet = _nonlethal_recovery(sheet, min([end, *others]), rs, ctx)
        sheet = _settle(before, sheet, rs, ctx)
    return evolve(sheet, clock=max(sheet.clock, end))


def _heal_abilities(sheet: D20Sheet, points: int, rs: D20Rules, ctx: Context) -> D20Sheet:
    """« Les caractéristiques temporairement affaiblies se régénèrent … 1 point par nuit de repos … et par
    caractéristique et de 2 points par journée complète de repos et par caractéristique. »"""
    changes: dict[str, int] = {}
    for ability in ABILITIES:
        damage_points: int = getattr(sheet, f"{ability}_damage")
        if damage_points and points:
            changes[f"{ability}_damage"] = max(0, damage_points - points)
            ctx.say(
                f"Affaiblissement {of(ABILITY_LABELS[ability])} : {damage_points} → {changes[f'{ability}_damage']}."
            )
    if not changes:
        return sheet
    return _con_changed(sheet, evolve(sheet, **changes), rs, ctx)


def _rest(
    sheet: D20Sheet, rs: D20Rules, ctx: Context, *, full_day: bool, hours: int, interrupted: bool, explicit: bool
) -> D20Sheet:
    """A night of rest (« 8 heures de sommeil ou plus ») or a full day in bed."""
    label = "Journée complète de repos" if full_day else "Nuit de repos"
    state = state_id(sheet, rs)
    if state == "mourant":
        if explicit:
            raise Refused(
                f"{_name(sheet)} est mourant : il ne se repose pas. Stabilisez-le d'abord "
                f"(premiers secours DD {rs.dying.first_aid_dd}, sort de guérison)."
            )
        ctx.say(f"{label} : {_name(sheet)} est mourant, ce n'est pas un repos ; le temps passe.")
        return _pass_time(sheet, _hours(rs, hours), rs, ctx)
    ctx.say(f"{label} ({hours} h).")
    sheet = _pass_time(sheet, _hours(rs, hours), rs, ctx)
    if sheet.dead:
        return sheet
    if interrupted:
        # « Toute interruption conséquente durant ce repos empêche toute récupération pour cette nuit. »
        ctx.say("Repos interrompu : aucune récupération.")
        return sheet
    if sheet.recovery in ("alone", "alone_awake"):
        # « il ne récupère pas de points de vie normalement »
        ctx.say("Seul et sans soins, il ne récupère ni PV ni caractéristique tant qu'il n'a pas commencé à guérir.")
        return sheet
    rested = sheet
    per = rs.healing.full_day_per_level if full_day else rs.healing.night_per_level
    gain = per * sheet.level
    what = f"Guérison naturelle ({per} × niveau {sheet.level} = {gain})"
    sheet, _ = _heal_pv(sheet, gain, rs, ctx, what=what, magical=False, rest=True)
    points = rs.healing.ability_per_full_day if full_day else rs.healing.ability_per_night
    sheet = _heal_abilities(sheet, points, rs, ctx)
    return _settle(rested, sheet, rs, ctx)


@_settled_inside
def long_rest(sheet: D20Sheet, action: LongRest, ctx: Context) -> D20Sheet:
    """The night's rest (GLOSSARY: NightRest), through the common ``LongRest`` action."""
    rs: D20Rules = ctx.ruleset
    _alive(sheet, rs, "se reposer")
    if action.hours < rs.healing.night_hours:
        raise Refused(f"Une nuit de repos dure au moins {plural(rs.healing.night_hours, 'heure')} de sommeil.")
    return _rest(sheet, rs, ctx, full_day=False, hours=action.hours, interrupted=action.interrupted, explicit=True)


@_settled_inside
def full_day_rest(sheet: D20Sheet, action: FullDayRest, ctx: Context) -> D20Sheet:
    rs: D20Rules = ctx.ruleset
    _alive(sheet, rs, "se reposer")
    hours = rs.healing.full_day_hours
    return _rest(sheet, rs, ctx, full_day=True, hours=hours, interrupted=action.interrupted, explicit=True)


def _nothing_pending(sheet: D20Sheet, rs: D20Rules) -> bool:
    """Nothing more that rest or time could change (so the remaining nights can be skipped at once)."""
    no_damage = all(getattr(sheet, f"{a}_damage") == 0 for a in ABILITIES)
    return (
        sheet.current >= maximum(sheet, rs)
        and sheet.nonlethal == 0
        and no_damage
        and sheet.dying_roll_at is None
        and sheet.recovery_roll_at is None
    )


def _plain_healing(sheet: D20Sheet, rs: D20Rules) -> bool:
    """Rests that only heal PV, the same way each time (no roll due, no nonlethal, no ability damage)."""
    no_damage = all(getattr(sheet, f"{a}_damage") == 0 for a in ABILITIES)
    return (
        no_damage
        and sheet.nonlethal == 0
        and sheet.dying_roll_at is None
        and sheet.recovery_roll_at is None
        and sheet.recovery in ("", "awake")
        and state_id(sheet, rs) != "mourant"
    )


def _rest_many(sheet: D20Sheet, rs: D20Rules, ctx: Context, *, full_day: bool, count: int, seconds: int) -> D20Sheet:
    """``count`` rests in a row that only heal PV: worked out at once (a GM may pass a season)."""
    per = rs.healing.full_day_per_level if full_day else rs.healing.night_per_level
    label = "journées complètes de repos" if full_day else "nuits de repos"
    before = sheet
    sheet = evolve(sheet, clock=sheet.clock + count * seconds)
    what = f"{count} {label}, guérison naturelle ({per} × niveau {sheet.level} chacune)"
    sheet, _ = _heal_pv(sheet, count * per * sheet.level, rs, ctx, what=what, magical=False, rest=True)
    return _settle(before, sheet, rs, ctx)


@_settled_inside
def advance_time(sheet: D20Sheet, action: AdvanceTime, ctx: Context) -> D20Sheet:
    rs: D20Rules = ctx.ruleset
    if action.unit not in rs.time_units:
        units = ", ".join(rs.time_units)
        raise Refused(f"Unité de temps inconnue : « {action.unit} » (attendu : {units}).")
    label = rs.time_labels.get(action.unit, action.unit)
    unit_s = rs.time_units[action.unit]
    ctx.say(f"Le temps passe : {action.count} × {label}.")
    if action.unit in ("night", "full_day") and not is_dead(sheet, rs):
        full_day = action.unit == "full_day"
        hours = unit_s // rs.time_units["hour"]
        end = sheet.clock + action.count * unit_s
        for done in range(action.count):
            if sheet.dead or _nothing_pending(sheet, rs):
                break
            if _plain_healing(sheet, rs):
                sheet = _rest_many(sheet, rs, ctx, full_day=full_day, count=action.count - done, seconds=unit_s)
                break
            sheet = _rest(sheet, rs, ctx, full_day=full_day, hours=hours, interrupted=False, explicit=False)
        if sheet.clock < end:
            if not sheet.dead:
                ctx.say("Plus rien à récupérer : le reste du temps passe sans changement.")
            sheet = _pass_time(sheet, end - sheet.clock, rs, ctx)
        return sheet
    return _pass_time(sheet, action.count * unit_s, rs, ctx)


# --- Resurrection ---------------------------------------------------------------------------------


def _dd_terms(sheet: D20Sheet, rs: D20Rules) -> list[Term]:
    rr = rs.resurrection
    return [
        Term(
            rr.per_earlier_resurrection * sheet.resurrections,
            plural(sheet.resurrections, "résurrection réussie", "résurrections réussies"),
        ),
        Term(
            rr.quick_failure_increase * sheet.quick_failures,
            plural(sheet.quick_failures, "résurrection rapide ratée", "résurrections rapides ratées"),
        ),
    ]


def resurrection_dd(sheet: D20Sheet, rs: D20Rules) -> Explained:
    """« Le DD de base … est de 10, augmentant de 1 pour chaque résurrection réussie précédente »."""
    return explained_sum("DD de résurrection", rs.resurrection.base_dd, _dd_terms(sheet, rs), "base")


def _revive(sheet: D20Sheet, rs: D20Rules, ctx: Context, *, full: bool, counts: bool) -> D20Sheet:
    rr = rs.resurrection
    changes: dict[str, Any] = {}
    for ability in ABILITIES:
        # An ability at 0 would leave the body dead again: it comes back at 1 (T15).
        score = ability_score(sheet, ability)
        if score < rr.restore_zero_abilities_to:
            need = rr.restore_zero_abilities_to - score
            dmg: int = getattr(sheet, f"{ability}_damage")
            drain: int = getattr(sheet, f"{ability}_drain")
            from_damage = min(dmg, need)
            from_drain = min(drain, need - from_damage)
            changes[f"{ability}_damage"] = dmg - from_damage
            changes[f"{ability}_drain"] = drain - from_drain
            if from_damage + from_drain:
                ctx.say(f"{ABILITY_LABELS[ability]} ramenée à {score + from_damage + from_drain}.")
    revived = evolve(sheet, **changes)
    top = maximum(revived, rs)
    current = top if full else max(1, min(top, rr.revived_pv_per_level * sheet.level))
    ctx.say(f"{_name(sheet)} revient à la vie avec {current} PV sur {top}.")
    ctx.event("revived")
    return evolve(
        revived,
        dead=False,
        death_cause="",
        current=current,
        temporary=0,
        temporary_noted=None,
        nonlethal=0,
        recovery="",
        dying_roll_at=None,
        recovery_roll_at=None,
        nonlethal_heal_at=None,
        resurrections=min(MAX_COUNT, sheet.resurrections + (1 if counts else 0)),
        soul_lost=False,
        quick_blocked=False,
    )


@_settled
def resurrection(sheet: D20Sheet, action: Resurrection, ctx: Context) -> D20Sheet:
    rs: D20Rules = ctx.ruleset
    rr = rs.resurrection
    name = _name(sheet)
    if not is_dead(sheet, rs):
        raise Refused(f"{name} n'est pas mort : pas de résurrection.")
    label = rr.procedures[action.procedure]
    contributed = len(action.contributions) + action.contribution_successes + action.contribution_failures
    if action.procedure in BYPASS:
        if contributed:
            raise Refused(f"{label} : aucun test, donc aucune contribution.")
        if not action.consents:
            raise Refused("L'âme refuse de revenir : rien ne change.")
        # « Seules les incantations magiques les plus puissantes peuvent contourner ce défi … Ces sorts peuvent
        #   également redonner vie à un personnage qui a été perdu à cause d'un échec du rituel »
        ctx.say(f"{label} : le test de résurrection est contourné.")
        return _revive(sheet, rs, ctx, full=rr.bypass_full_pv, counts=rr.bypass_counts)
    if sheet.soul_lost:
        raise Refused(
            f"L'âme de {name} est perdue après un rituel raté : seuls Résurrection suprême ou Souhait peuvent "
            "encore le ramener."
        )
    if not action.consents:
        raise Refused("L'âme refuse de revenir : rien ne change.")
    dd = resurrection_dd(sheet, rs)
    if action.procedure == "quick":
        if contributed:
            raise Refused("Sort d'une action simple : aucun test de contribution n'est autorisé.")
        if sheet.quick_blocked:
            raise Refused(
                "Une résurrection rapide a déjà échoué : aucune autre tentative avant qu'un sort de résurrection "
                "de plus d'une action soit tenté."
            )
        ctx.say(f"Résurrection rapide : test de niveau de lanceur de sorts, {dd.text}.")
        if _check(ctx, "Test de Résurrection rapide", action.caster_level, int(dd.value)):
            return _revive(sheet, rs, ctx, full=False, counts=True)
        # « En cas d'échec, l'âme du personnage n'est pas perdue, mais la résurrection échoue et augmente le
        #   DD des futurs tests de Résurrection de 1. Aucune autre tentative … »
        ctx.say(
            f"Échec : l'âme n'est pas perdue, mais les futurs DD de résurrection augmentent de "
            f"{rr.quick_failure_increase} ; plus de résurrection rapide avant un rituel."
        )
        ctx.event("resurrection_failed")
        return evolve(sheet, quick_failures=min(MAX_COUNT, sheet.quick_failures + 1), quick_blocked=True)
    if contributed > rr.max_contributors:
        raise Refused(f"Au plus {rr.max_contributors} membres du groupe peuvent contribuer au rituel ({contributed}).")
    successes, failures = action.contribution_successes, action.contribution_failures
    for n, contribution in enumerate(action.contributions, start=1):
        what = f"Contribution {n}" + (f" ({contribution.label})" if contribution.label else "")
        if _check(ctx, what, contribution.modifier, contribution.dd):
            successes += 1
        else:
            failures += 1
    terms = [
        *_dd_terms(sheet, rs),
        Term(rr.contribution_success * successes, plural(successes, "contribution réussie", "contributions réussies")),
        Term(rr.contribution_failure * failures, plural(failures, "contribution ratée", "contributions ratées")),
    ]
    final = explained_sum("DD du test final", rr.base_dd, terms, "base")
    ctx.say(f"{final.text}.")
    # « le MD lance un seul et dernier test de Résurrection sans modificateurs »
    if _check(ctx, "Test de Résurrection final (sans modificateur)", 0, int(final.value)):
        return _revive(sheet, rs, ctx, full=False, counts=True)
    ctx.say("Échec : l'âme ne revient pas, le personnage est perdu.")
    ctx.event("soul_lost")
    return evolve(sheet, soul_lost=True, quick_blocked=False)


def after_edit(old: D20Sheet, new: D20Sheet, rs: D20Rules, ctx: Context) -> D20Sheet:
    """After a validated ``Edit``: the Constitution's PV, the maximum, and the states follow."""
    new = _con_changed(old, new, rs, ctx)
    return _settle(old, new, rs, ctx)


# --------------------------------------------------------------------------------------------------
# Derived values
# --------------------------------------------------------------------------------------------------


def _actions_allowed(state: str) -> tuple[str, str]:
    return {
        "en_forme": ("normal", "agit normalement"),
        "chancelant": ("simple", "une action simple par round"),
        "hors_de_combat": (
            "simple_or_move",
            "une action simple ou une action de mouvement par round (pas les deux) ; "
            "une action simple ou fatigante coûte 1 PV",
        ),
        "inconscient": ("none", "aucune action (inconscient, sans défense)"),
        "stabilise": ("none", "aucune action (inconscient)"),
        "mourant": ("none", "aucune action (inconscient, mourant)"),
        "mort": ("none", "aucune action (mort)"),
    }[state]


def _next_roll(sheet: D20Sheet, rs: D20Rules) -> Explained:
    if sheet.dead:
        return Explained(None, "aucun jet à venir")
    if sheet.dying_roll_at is not None:
        wait = max(0, sheet.dying_roll_at - sheet.clock)
        rounds = -(-wait // rs.time_units["round"])
        when = "à ce round" if rounds == 0 else f"dans {plural(rounds, 'round')}"
        return Explained(
            wait, f"jet du mourant {when} : 1d100, {rs.dying.stabilise_chance} % de se stabiliser, sinon −1 PV"
        )
    if sheet.recovery_roll_at is not None:
        wait = max(0, sheet.recovery_roll_at - sheet.clock)
        hours = -(-wait // rs.time_units["hour"])
        rec = rs.recovery
        text = {
            "assisted": f"1d100 pour reprendre connaissance ({rec.assisted_wake_chance} %)",
            "alone": f"1d100 pour reprendre connaissance ({rec.alone_wake_chance} %), sinon −{rec.alone_loss} PV",
            "alone_awake": (
                f"1d100 pour commencer à récupérer ({rec.alone_daily_chance} %), sinon −{rec.alone_daily_loss} PV"
            ),
        }.get(sheet.recovery, "jet de récupération")
        return Explained(wait, f"{text} dans {plural(hours, 'heure')}")
    return Explained(None, "aucun jet à venir")


def derive(sheet: D20Sheet, rs: D20Rules) -> Derived:
    values: dict[str, Explained] = {}
    top = maximum(sheet, rs)
    con_played = ability_score(sheet, "constitution")
    con_pv = constitution_pv(sheet, rs)
    max_value = explained_sum(
        "maximum",
        sheet.base_maximum,
        [Term(con_pv, f"Constitution en jeu {con_played} au lieu de {sheet.constitution}, × niveau {sheet.level}")],
        "PV maximum de base",
    )
    if int(max_value.value) != top:
        max_value = Explained(
            top, f"{max_value.text}, relevé à {top} (au moins {rs.constitution.min_pv_per_level} PV par niveau)"
        )
    values["maximum"] = max_value
    values["current"] = Explained(sheet.current, f"points de vie {fmt_int(sheet.current)} sur {top}")
    noted = sheet.temporary_noted if sheet.temporary_noted is not None else sheet.current
    if sheet.temporary:
        temp_text = (
            f"PV temporaires {sheet.temporary} : perdus en premier, jamais récupérés, même par magie ; à leur "
            f"disparition, le total retombe aux {fmt_int(noted)} PV notés (s'il n'est pas déjà plus bas)"
        )
    else:
        temp_text = "aucun PV temporaire"
    values["temporary"] = Explained(sheet.temporary, temp_text)
    values["temporary_noted"] = Explained(
        sheet.temporary_noted, f"PV notés avant les PV temporaires : {fmt_int(noted)}" if sheet.temporary else ""
    )
    total = pv_total(sheet, rs)
    values["total"] = explained_sum(
        "total de points de vie", sheet.current, [Term(sheet.temporary, "PV temporaires")], "PV"
    )
    state, why = health_state(sheet, rs)
    info_state = rs.health_states[state]
    values["state"] = Explained(state, f"état : {info_state.label} ({why}) — {info_state.effect}")
    values["roll_penalty"] = explained_modifier(
        "malus à tous les jets",
        [],
        "aucun malus général ; une blessure localisée donne son malus aux seules actions de la partie blessée",
    )
    effective = effective_conditions(sheet, rs)
    known = {c: r for c, r in sorted(effective.items()) if c in rs.conditions}
    values["conditions"] = Explained(
        tuple(known),
        "états : " + (", ".join(f"{rs.conditions[c].label} ({r})" for c, r in known.items()) or "aucun"),
    )
    values["condition_reasons"] = Explained(known, "pourquoi chaque état est en place (posé, ou découle d'autre chose)")
    per_hour = rs.nonlethal.recovery_per_hour_per_level * sheet.level
    if sheet.nonlethal:
        nl_text = (
            f"dégâts non létaux {sheet.nonlethal}, comptés à part (jamais ôtés des PV) ; chancelant s'ils égalent "
            f"le total de PV ({fmt_int(total)}), inconscient au-delà ; −{per_hour} par heure"
        )
    else:
        nl_text = "aucun dégât non létal"
    values["nonlethal"] = Explained(sheet.nonlethal, nl_text)
    values["nonlethal_recovery"] = Explained(
        per_hour,
        f"dégâts non létaux récupérés : {per_hour} par heure "
        f"({rs.nonlethal.recovery_per_hour_per_level} × niveau {sheet.level})",
    )
    values["death_threshold"] = Explained(
        rs.thresholds.death_at,
        f"mort à {fmt_int(rs.thresholds.death_at)} PV ou moins (mourant de "
        f"{fmt_int(rs.thresholds.disabled_at - 1)} à {fmt_int(rs.thresholds.death_at + 1)}, hors de combat à "
        f"{fmt_int(rs.thresholds.disabled_at)})",
    )
    stable = sheet.recovery != "" and sheet.current < rs.thresholds.disabled_at and not is_dead(sheet, rs)
    values["stabilised"] = Explained(
        stable, f"récupération : {RECOVERY_LABELS[sheet.recovery]}" if stable else "pas de récupération en cours"
    )
    values["next_roll"] = _next_roll(sheet, rs)
    allowed, allowed_text = _actions_allowed(state)
    values["actions"] = Explained(allowed, f"actions : {allowed_text}")
    turn = values["next_roll"].text if state == "mourant" else allowed_text
    values["turn_start"] = Explained(turn, f"à son tour : {turn}")
    # « Infliger des dégâts non-létaux à l'aide d'une arme conçue pour infliger des dégâts létaux … malus de –4 »
    attack_terms: list[Term] = []
    nl_rules = rs.nonlethal
    strike_possible = True
    if sheet.weapon_lethal and sheet.strike_nonlethal:
        if nl_rules.lethal_melee_only and not sheet.weapon_melee:
            strike_possible = False
        else:
            attack_terms.append(Term(nl_rules.wrong_weapon_attack, "dégâts non létaux avec une arme létale"))
    elif not sheet.weapon_lethal and not sheet.strike_nonlethal:
        attack_terms.append(Term(nl_rules.wrong_weapon_attack, "dégâts létaux avec une arme non létale"))
    attack = explained_modifier("modificateur d'attaque", attack_terms, "l'arme sert comme prévu")
    if not strike_possible:
        attack = Explained(0, "une arme à distance létale ne peut pas infliger de dégâts non létaux")
    values["attack_modifier"] = attack
    values["nonlethal_strike_possible"] = Explained(strike_possible, attack.text)
    penalties: dict[str, int] = {}
    for wound in sheet.wounds:
        if wound.body_part in penalties and not rs.local_wounds.penalties_stack:
            continue
        penalties[wound.body_part] = penalties.get(wound.body_part, 0) + rs.local_wounds.penalty
    values["body_part_penalties"] = Explained(
        penalties,
        "malus par partie du corps blessée : "
        + (", ".join(f"{_part_label(p, rs)} {signed(v)}" for p, v in penalties.items()) or "aucun"),
    )
    md = rs.massive_damage
    values["massive_damage"] = Explained(
        md.threshold,
        f"dégâts excessifs : une seule attaque de {md.threshold} dégâts ou plus → jet de Vigueur DD {md.save_dd} "
        f"({signed(sheet.fortitude)}) ou la mort",
    )
    if sheet.recovery in ("alone", "alone_awake") and sheet.current < rs.thresholds.disabled_at:
        healing = Explained(0, "seul et sans soins : ne récupère pas de PV au repos")
    else:
        night = rs.healing.night_per_level * sheet.level
        day = rs.healing.full_day_per_level * sheet.level
        healing = Explained(night, f"guérison naturelle : +{night} PV par nuit de repos, +{day} PV par journée au lit")
    values["natural_healing"] = healing
    for ability in ABILITIES:
        score = ability_score(sheet, ability)
        base: int = getattr(sheet, ability)
        terms = [
            Term(sheet.constitution_bonus if ability == "constitution" else 0, "augmentation"),
            Term(-min(base, int(getattr(sheet, f"{ability}_damage"))), "affaiblissement temporaire"),
            Term(-int(getattr(sheet, f"{ability}_drain")), "diminution permanente"),
        ]
        label = ABILITY_LABELS[ability]
        score_text = explained_sum(label, base, terms).text
        values[f"{ability}_score"] = Explained(score, score_text if score > 0 else f"{label} 0")
        mod = ability_modifier(score, rs)
        values[f"{ability}_modifier"] = Explained(
            mod,
            f"modificateur {of(label)} {signed(mod)} = ({score} − {rs.general.ability_base}) ÷ "
            f"{rs.general.ability_step}, arrondi vers le bas",
        )
    values["constitution_pv"] = Explained(
        con_pv,
        f"PV dus à la Constitution en jeu : {signed(con_pv)} (vrais PV, pas temporaires)"
        if con_pv
        else "la Constitution en jeu ne change pas les PV",
    )
    values["resurrection_dd"] = resurrection_dd(sheet, rs)
    values["resurrections"] = Explained(
        sheet.resurrections, plural(sheet.resurrections, "résurrection réussie", "résurrections réussies")
    )
    if sheet.soul_lost:
        quick = Explained(False, "âme perdue : seuls Résurrection suprême ou Souhait")
    elif sheet.quick_blocked:
        quick = Explained(False, "résurrection rapide interdite jusqu'à un rituel de plus d'une action")
    else:
        quick = Explained(True, "résurrection rapide possible")
    values["quick_resurrection"] = quick
    values["soul_lost"] = Explained(sheet.soul_lost, "âme perdue" if sheet.soul_lost else "")
    return Derived(SYSTEM_ID, values)


# --------------------------------------------------------------------------------------------------
# How the UI lays the system out
# --------------------------------------------------------------------------------------------------


def info(rs: D20Rules) -> SystemInfo:
    """d20 as the UI lays it out."""
    characteristics = tuple(
        FieldInfo(a, ABILITY_LABELS[a], "int", group="characteristics", minimum=0, maximum=MAX_SCORE) for a in ABILITIES
    )
    damages = tuple(
        FieldInfo(
            f"{a}_damage",
            f"Affaiblissement {of(ABILITY_LABELS[a])}",
            "int",
            group="characteristics",
            minimum=0,
            maximum=MAX_SCORE,
            tooltip="Affaiblissement temporaire : se régénère de 1 point par nuit de repos, 2 par journée complète.",
        )
        for a in ABILITIES
    )
    drains = tuple(
        FieldInfo(
            f"{a}_drain",
            f"Diminution permanente {of(ABILITY_LABELS[a])}",
            "int",
            group="characteristics",
            minimum=0,
            maximum=MAX_SCORE,
            tooltip="Diminution permanente : ne se régénère pas au repos.",
        )
        for a in ABILITIES
    )
    fields = (
        *IDENTITY_FIELDS,
        *characteristics,
        *damages,
        *drains,
        FieldInfo("fortitude", "Vigueur (bonus au jet)", "int", group="characteristics", minimum=-50, maximum=100),
        FieldInfo(
            "base_maximum",
            "PV maximum",
            "int",
            group="health",
            minimum=1,
            maximum=MAX_POINTS,
            tooltip="Le maximum avec la Constitution de la fiche ; une augmentation de Constitution s'y ajoute.",
        ),
        FieldInfo(
            "weapon_lethal",
            "Arme en main conçue pour des dégâts létaux",
            "bool",
            group="other",
            tooltip="Frapper pour des dégâts non létaux avec une arme létale, ou l'inverse : −4 à l'attaque.",
        ),
        FieldInfo("weapon_melee", "Arme de corps à corps", "bool", group="other"),
        FieldInfo("strike_nonlethal", "Frapper pour des dégâts non létaux", "bool", group="other"),
        FieldInfo("resurrections", "Résurrections réussies", "int", group="other", minimum=0, maximum=1000),
        FieldInfo("quick_failures", "Résurrections rapides ratées", "int", group="other", minimum=0, maximum=1000),
    )
    bonus_levels = [LadderLevel(0, "Aucune", "La Constitution de la fiche")]
    for n in range(1, CON_BONUS_LADDER + 1):
        bonus_levels.append(
            LadderLevel(
                n,
                f"+{n}",
                f"Constitution +{n} en jeu : chaque point de modificateur gagné ajoute 1 PV par niveau, de vrais PV "
                "(pas des PV temporaires : ils se récupèrent et ne disparaissent pas en premier)",
            )
        )
    bonus_ladder = LadderInfo(
        "constitution_bonus",
        "Augmentation de Constitution",
        "constitution_bonus",
        tuple(bonus_levels),
        SetConstitutionBonus,
    )
    groups = tuple(ConditionGroupInfo(gid, g.label) for gid, g in rs.condition_groups.items())
    conditions = tuple(ConditionInfo(k, c.label, c.group, c.effects) for k, c in rs.conditions.items())
    parts = tuple(ChoiceInfo(k, v) for k, v in rs.body_parts.items())
    return SystemInfo(
        id=SYSTEM_ID,
        label="d20",
        seed="001",
        points_label="points de vie",
        points_short="PV",
        fields=fields,
        health_states=tuple(HealthStateInfo(k, v.label, v.colour) for k, v in rs.health_states.items()),
        condition_groups=groups,
        conditions=conditions,
        ladders=(bonus_ladder,),
        time_units=tuple(ChoiceInfo(k, rs.time_labels.get(k, k)) for k in rs.time_units),
        damage_types=(),
        wound_types=parts,
        rests=((LongRest, "Nuit de repos (8 h)"), (FullDayRest, "Journée complète de repos")),
        features=frozenset(
            {
                "temporary",
                "temporary_noted",
                "nonlethal",
                "hits",
                "single_attack",
                "save_halves",
                "stabilise",
                "long_rest",
                "full_day_rest",
                "local_wounds",
                "body_parts",
                "negative_points",
                "dying_rolls",
                "recovery_rolls",
                "strenuous_action",
                "ability_damage",
                "constitution_bonus",
                "massive_damage",
                "attack_modifier",
                "resurrection",
            }
        ),
        actions=(),
        extra={
            "body_part_choices": tuple((k, v) for k, v in rs.body_parts.items()),
            "ability_choices": tuple((a, ABILITY_LABELS[a]) for a in ABILITIES),
            "procedure_choices": tuple(rs.resurrection.procedures.items()),
            "stabilise_methods": (
                ("first_aid", f"Premiers secours (DD {rs.dying.first_aid_dd})"),
                ("magic", "Magie ou autre effet qui stabilise"),
            ),
            "health_state_effects": {k: v.effect for k, v in rs.health_states.items()},
            "local_wound_actions": (AddLocalWound, HealLocalWound),
            "ability_actions": (AbilityDamage, RestoreAbility),
            "strenuous_action": StrenuousAction,
            "resurrection_action": Resurrection,
            # The dying character's d100 comes with each round: ``AdvanceTime(unit="round")``.
            "turn_unit": "round",
        },
    )


SYSTEM = register(
    System(
        id=SYSTEM_ID,
        label="d20",
        seed="001",
        sheet_type=D20Sheet,
        ruleset_type=D20Rules,
        handlers={
            Damage: damage,
            Heal: heal,
            GainTemporary: gain_temporary,
            LoseTemporary: lose_temporary,
            SetCondition: set_condition,
            ClearConditions: clear_conditions,
            Stabilise: stabilise,
            LongRest: long_rest,
            FullDayRest: full_day_rest,
            AdvanceTime: advance_time,
            StrenuousAction: strenuous_action,
            SetConstitutionBonus: set_constitution_bonus,
            AddLocalWound: add_local_wound,
            HealLocalWound: heal_local_wound,
            AbilityDamage: ability_damage,
            RestoreAbility: restore_ability,
            Resurrection: resurrection,
        },
        derive=derive,
        info=info,
        after_edit=after_edit,
        # A demo caught mid-fight: burnt hand, temporary PV up, staggered by nonlethal blows, CON raised.
        demo={
            "name": "Aldric de Valombre",
            "player": "Sacha",
            "level": 5,
            "strength": 16,
            "dexterity": 12,
            "constitution": 14,
            "intelligence": 10,
            "wisdom": 13,
            "charisma": 8,
            "constitution_bonus": 4,
            "fortitude": 6,
            "base_maximum": 42,
            "current": 9,
            "temporary": 5,
            "temporary_noted": 9,
            "nonlethal": 14,
            "wounds": [{"id": 1, "body_part": "main_droite", "note": "plongée dans les flammes"}],
            "strike_nonlethal": True,
            "resurrections": 1,
        },
    )
)
