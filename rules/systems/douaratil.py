"""Douaratil (seed 000, « Gérer la santé du personnage »).

Points d'action (PA) between 0 and the effective maximum; temporary PA that never stack; falling
unconscious at 0 PA; death saves on 3d6; critical wounds healed over long rests; six exhaustion
levels that lower every maximum; short and long rests; PM/PF/PH/SAM recovery; the special states.
Every number of the seed lives in ``resources/rulesets/douaratil.toml``.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, field_validator, model_validator

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
    ShortRest,
    Stabilise,
)
from rules.errors import Refused
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

SYSTEM_ID = "douaratil"
POOLS = ("magic", "faith", "honour", "sanity")
ROUND_CAP = 200_000  # rounds simulated in one AdvanceTime at most (bleeding kills long before)

# --------------------------------------------------------------------------------------------------
# Rule table
# --------------------------------------------------------------------------------------------------

Dice = tuple[int, int]


class GeneralRules(Table):
    ability_base: int = 10
    ability_step: int = Field(2, ge=1)
    default_action_die: int = Field(8, ge=2, le=100)
    default_speed_m: int = Field(9, ge=0)


class SaveRules(Table):
    constitution_dd: int
    unconscious_dice: Dice
    death_save_dice: Dice
    death_save_success: int
    death_saves_needed: int = Field(ge=1, le=10)
    exhaustion_on_death_saves: bool
    first_aid_dd: int
    check_dice: Dice
    stabilised_wake_dice: Dice
    stabilised_wake_gain: int = Field(ge=0)
    npc_death_dice: Dice


class DifficultyRules(Table):
    reference_dd: int = 16
    step: int = Field(ge=0)
    minor_steps: int = Field(ge=0)
    major_steps: int = Field(ge=0)
    steps_stack: bool
    labels: dict[int, str]


class HealingRules(Table):
    test_dd: int
    exhaustion_applies: bool


class SeverityRule(Table):
    label: str
    steps: int = Field(ge=0)


class WoundType(Table):
    label: str
    days: int = Field(ge=0, le=10_000)
    limitation: str
    will_dd: int
    bleeding_dice: Dice | None = None
    reopen_dd: int | None = None
    halves_speed: bool = False


class ExhaustionRules(Table):
    max_level: int = Field(ge=1, le=20)
    roll_penalty_per_level: int = Field(ge=0)
    speed_m_per_level: int = Field(ge=0)
    maximum_per_level: int = Field(ge=0)
    long_rest_reduction: int = Field(ge=0)


class PoolRecovery(Table):
    label: str
    per_level: int = Field(ge=0)
    ability: AbilityId
    doubled_on_path: str | None = None
    minimum: int = 0
    exhaustion_applies: bool


class RestRules(Table):
    short_min_hours: int = Field(ge=0)
    long_min_hours: int = Field(ge=0)
    long_cooldown_hours: int = Field(ge=0)
    long_min_points: int = Field(ge=0)
    dice_regained_min: int = Field(ge=0)
    dice_regained_divisor: int = Field(ge=1)
    pools: dict[str, PoolRecovery]

    @model_validator(mode="after")
    def _all_pools(self) -> RestRules:
        missing = [p for p in POOLS if p not in self.pools]
        if missing:
            raise ValueError("rests.pools doit décrire " + ", ".join(missing))
        return self


class HeroicDeathRules(Table):
    odd_level_points: int = Field(ge=0)
    even_level_points: int = Field(ge=0)
    constitution_floor: int


class HealthState(HealthStateTable):
    pass


class ConditionGroup(ConditionGroupTable):
    spared_by_clear_all: bool = False


Mode = Literal["avantage", "desavantage"]


class ConditionRule(ConditionTable):
    on_end_adds: tuple[str, ...] = ()
    speed: Literal["zero", "half"] | None = None
    attacks: Mode | None = None
    attacked: Mode | None = None
    checks: Mode | None = None
    incapacitated: bool = False
    auto_fail_saves: tuple[str, ...] = ()
    critical_if_adjacent: bool = False
    resists_all_damage: bool = False


class DouaratilRules(Table):
    general: GeneralRules
    time_units: dict[str, int]
    time_labels: dict[str, str]
    saves: SaveRules
    difficulty: DifficultyRules
    healing: HealingRules
    severities: dict[Literal["minor", "major"], SeverityRule]
    wounds: dict[str, WoundType]
    exhaustion: ExhaustionRules
    rests: RestRules
    heroic_death: HeroicDeathRules
    paths: dict[str, str]
    health_states: dict[str, HealthState]
    condition_groups: dict[str, ConditionGroup]
    conditions: dict[str, ConditionRule]

    @model_validator(mode="after")
    def _references(self) -> DouaratilRules:
        check_condition_references(
            self.conditions,
            self.condition_groups,
            self.health_states,
            needed_states=("en_forme", "inconscient", "mourant", "stabilise", "mort"),
        )
        check_time_units(self.time_units, ("round", "hour"))
        if "inconscient" not in self.conditions:
            raise ValueError("l'état « inconscient » est nécessaire aux règles de perte de conscience")
        return self


# --------------------------------------------------------------------------------------------------
# Sheet
# --------------------------------------------------------------------------------------------------


class Pool(Frozen):
    """A resource with a stored maximum (PM, PF, PH, SAM)."""

    current: int = Field(0, ge=0, le=MAX_POINTS)
    base_maximum: int = Field(0, ge=0, le=MAX_POINTS)

    @model_validator(mode="after")
    def _within(self) -> Pool:
        if self.current > self.base_maximum:
            raise ValueError(f"{self.current} dépasse le maximum {self.base_maximum}")
        return self


class Wound(Frozen):
    """A critical wound (blessure mineure ou majeure) from the critical-hit table."""

    id: int = Field(ge=1)
    type: str = Field(max_length=40)
    severity: Literal["minor", "major"] = "minor"
    # Long rests taken since the wound; healing tests start once it reaches the type's delay.
    rests: int = Field(0, ge=0)
    bleeding: bool = False
    note: str = Field("", max_length=500)


class Scar(Frozen):
    """The mark a healed wound leaves (« le souvenir de sa marque »)."""

    type: str = Field(max_length=40)
    severity: Literal["minor", "major"] = "minor"
    note: str = Field("", max_length=500)


class DouaratilSheet(SheetBase):
    """A Douaratil character: points d'action (PA) and everything that happens to the body."""

    system: Literal["douaratil"] = "douaratil"
    xp: int = Field(0, ge=0, le=100_000_000)
    path: Literal["", "magie", "armes"] = ""
    strength: int = Field(10, ge=0, le=50)
    dexterity: int = Field(10, ge=0, le=50)
    constitution: int = Field(10, ge=0, le=50)
    intelligence: int = Field(10, ge=0, le=50)
    wisdom: int = Field(10, ge=0, le=50)
    charisma: int = Field(10, ge=0, le=50)
    # Points d'action: ``current`` is clamped to the effective maximum by every action.
    current: int = Field(10, ge=0, le=MAX_POINTS)
    base_maximum: int = Field(10, ge=0, le=MAX_POINTS)
    temporary: int = Field(0, ge=0, le=MAX_POINTS)
    magic: Pool = Pool()
    faith: Pool = Pool()
    honour: Pool = Pool()
    sanity: Pool = Pool()
    action_die: int = Field(8, ge=2, le=100)
    action_dice_spent: int = Field(0, ge=0)
    speed_m: int = Field(9, ge=0, le=1000)
    exhaustion: int = Field(0, ge=0, le=20)
    conditions: tuple[str, ...] = ()
    unconscious_rounds: int = Field(0, ge=0, le=1000)
    death_successes: int = Field(0, ge=0, le=10)
    death_failures: int = Field(0, ge=0, le=10)
    stabilised: bool = False
    # Seconds left before a stabilised creature regains 1 PA on its own.
    wake_in: int | None = Field(None, ge=0)
    dead: bool = False
    # « La plupart des Narrateurs font mourir les adversaires dès qu'ils atteignent 0 point d'action »
    dies_at_zero: bool = False
    # … « ou il peut la laisser agir librement pendant 1d6 rounds »
    dies_after_rounds: bool = False
    death_in_rounds: int | None = Field(None, ge=0, le=1000)
    critical_threshold: int | None = Field(None, ge=0, le=MAX_POINTS)
    wounds: tuple[Wound, ...] = Field((), max_length=200)
    scars: tuple[Scar, ...] = Field((), max_length=200)
    last_long_rest_end: int | None = Field(None, ge=0)
    short_rest_open: bool = False
    constitution_priority: bool = False
    heroic_survivals: int = Field(0, ge=0, le=1000)

    @field_validator("conditions")
    @classmethod
    def _sorted_unique(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(sorted(set(value)))

    @model_validator(mode="after")
    def _coherent(self) -> DouaratilSheet:
        if self.current > self.base_maximum:
            raise ValueError(f"les points d'action actuels ({self.current}) dépassent le maximum ({self.base_maximum})")
        if self.action_dice_spent > self.level:
            raise ValueError(f"{self.action_dice_spent} dés d'action dépensés pour une réserve de {self.level}")
        ids = [w.id for w in self.wounds]
        if len(ids) != len(set(ids)):
            raise ValueError("deux blessures portent le même numéro")
        return self


# --------------------------------------------------------------------------------------------------
# System-specific actions
# --------------------------------------------------------------------------------------------------


class DeathSave(Action):
    """Jet de sauvegarde contre la mort: 3d6, 10 or more succeeds."""

    kind: Literal["death_save"] = "death_save"

    def title(self) -> str:
        return "Jet contre la mort"


class WakeSave(Action):
    """The unconscious creature's CON save DD 16 of the round, to wake up."""

    kind: Literal["wake_save"] = "wake_save"

    def title(self) -> str:
        return "JS de Constitution pour se réveiller"


class SetExhaustion(Action):
    """Set the exhaustion level (0 = none)."""

    kind: Literal["set_exhaustion"] = "set_exhaustion"
    level: int = Field(ge=0, le=20)

    def title(self) -> str:
        return f"Épuisement niveau {self.level}"


class AddExhaustion(Action):
    """An effect that adds (or, negative, removes) exhaustion levels."""

    kind: Literal["add_exhaustion"] = "add_exhaustion"
    levels: int = Field(ge=-20, le=20)

    def title(self) -> str:
        return f"Épuisement {signed(self.levels)}"


class SpendActionDie(Action):
    """During a short rest: spend one action die (die + CON modifier regained)."""

    kind: Literal["spend_action_die"] = "spend_action_die"

    def title(self) -> str:
        return "Dé d'action"


class AddWound(Action):
    """A critical wound from the critical-hit table."""

    kind: Literal["add_wound"] = "add_wound"
    wound_type: str = Field(max_length=40)
    severity: Literal["minor", "major"] = "minor"
    bleeding: bool = False
    note: str = Field("", max_length=500)

    def title(self) -> str:
        return f"Blessure {self.wound_type}"


class WoundRisk(Action):
    """A sudden movement with a wound that may reopen: CON save, failure → it bleeds."""

    kind: Literal["wound_risk"] = "wound_risk"
    wound_id: int

    def title(self) -> str:
        return "Risque d'ouverture"


class SetWoundBleeding(Action):
    """Open (a failed save) or close (bandaged) a wound's bleeding."""

    kind: Literal["set_wound_bleeding"] = "set_wound_bleeding"
    wound_id: int
    bleeding: bool

    def title(self) -> str:
        return "Saignement ouvert" if self.bleeding else "Saignement arrêté"


class HealWound(Action):
    """Magic or special herbs heal a wound at once (``scar``: it leaves its mark)."""

    kind: Literal["heal_wound"] = "heal_wound"
    wound_id: int
    scar: bool = True

    def title(self) -> str:
        return "Guérir une blessure"


class RemoveWound(Action):
    """Remove a wound entered by mistake (no scar)."""

    kind: Literal["remove_wound"] = "remove_wound"
    wound_id: int

    def title(self) -> str:
        return "Retirer une blessure"


class HeroicSurvival(Action):
    """A hero's « death » that the story turns into a grave wound: the seed's listed consequences.

    The seed gives no progression table: the PA/PM/PF/PH of the lost level and the minimum XP of
    the new level are given by the player from their class table.
    """

    kind: Literal["heroic_survival"] = "heroic_survival"
    action_points_lost: int = Field(0, ge=0, le=MAX_POINTS)
    magic_lost: int = Field(0, ge=0, le=MAX_POINTS)
    faith_lost: int = Field(0, ge=0, le=MAX_POINTS)
    honour_lost: int = Field(0, ge=0, le=MAX_POINTS)
    xp_minimum: int = Field(0, ge=0, le=100_000_000)

    def title(self) -> str:
        return "Survie héroïque"


# --------------------------------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------------------------------


def ability_modifier(score: int, rs: DouaratilRules) -> int:
    return (score - rs.general.ability_base) // rs.general.ability_step


def exhaustion_penalty(sheet: DouaratilSheet, rs: DouaratilRules) -> int:
    """The (negative) modifier exhaustion gives to every roll."""
    return -sheet.exhaustion * rs.exhaustion.roll_penalty_per_level


def maximum_reduction(sheet: DouaratilSheet, rs: DouaratilRules) -> int:
    return sheet.exhaustion * rs.exhaustion.maximum_per_level


def effective_maximum(sheet: DouaratilSheet, rs: DouaratilRules) -> int:
    """« le malus impacte aussi le maximum de chaque catégorie » (000 § Fatigue et épuisement)."""
    return max(0, sheet.base_maximum - maximum_reduction(sheet, rs))


def pool_maximum(sheet: DouaratilSheet, pool: str, rs: DouaratilRules) -> int:
    stored: Pool = getattr(sheet, pool)
    if pool == "sanity":
        return stored.base_maximum
    return max(0, stored.base_maximum - maximum_reduction(sheet, rs))


def condition_label(cid: str, rs: DouaratilRules) -> str:
    rule = rs.conditions.get(cid)
    return rule.label if rule else cid


def effective_conditions(sheet: DouaratilSheet, rs: DouaratilRules) -> dict[str, str]:
    """Every state the creature is under, with why (« posé », or the state that implies it)."""
    if not sheet.conditions:
        return {}
    result: dict[str, str] = {}
    for cid in sheet.conditions:
        result[cid] = "posé"
    pending = list(sheet.conditions)
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


def _check(ctx: Context, sheet: DouaratilSheet, ability: str, dd: int, what: str, bonus: int = 0) -> bool:
    """A Douaratil characteristic test or save: 3d6 + modifier + exhaustion penalty against ``dd``."""
    rs: DouaratilRules = ctx.ruleset
    count, sides = rs.saves.check_dice
    roll = ctx.dice(count, sides, what)
    mod = ability_modifier(getattr(sheet, ability), rs)
    penalty = exhaustion_penalty(sheet, rs)
    total = roll.total + mod + penalty + bonus
    parts = f"{roll.detail} {signed(mod)} ({ABILITY_LABELS[ability][:3].upper()})"
    if penalty:
        parts += f" {signed(penalty)} (épuisement)"
    if bonus:
        parts += f" {signed(bonus)}"
    success = total >= dd
    ctx.say(f"{what} : {parts} = {total} contre DD {dd} → {'réussite' if success else 'échec'}.")
    return success


def _wake(sheet: DouaratilSheet, rs: DouaratilRules, ctx: Context, why: str) -> DouaratilSheet:
    """Leaving Inconscient: « Si la créature reprend conscience, elle est à terre. »"""
    if "inconscient" not in sheet.conditions:
        return evolve(sheet, unconscious_rounds=0)
    conditions = set(sheet.conditions) - {"inconscient"}
    added = [c for c in rs.conditions["inconscient"].on_end_adds if c not in conditions]
    conditions.update(added)
    line = f"{sheet.name or 'La créature'} reprend conscience ({why})"
    if added:
        line += " et se retrouve " + ", ".join(condition_label(c, rs).lower() for c in added)
    ctx.say(line + ".")
    return evolve(sheet, conditions=tuple(sorted(conditions)), unconscious_rounds=0)


def _knock_out(sheet: DouaratilSheet, rs: DouaratilRules, ctx: Context, why: str) -> DouaratilSheet:
    count, sides = rs.saves.unconscious_dice
    rounds = ctx.dice(count, sides, "Durée de l'inconscience").total
    ctx.say(f"Inconscient pour {plural(rounds, 'round')} ({why}) : {count}d{sides} = {rounds}.")
    ctx.event("unconscious")
    conditions = tuple(sorted({*sheet.conditions, "inconscient"}))
    return evolve(sheet, conditions=conditions, unconscious_rounds=max(sheet.unconscious_rounds, rounds))


def _die(sheet: DouaratilSheet, ctx: Context, why: str) -> DouaratilSheet:
    ctx.say(f"{sheet.name or 'La créature'} meurt ({why}).")
    ctx.event("died")
    return evolve(
        sheet,
        dead=True,
        stabilised=False,
        wake_in=None,
        death_in_rounds=None,
        unconscious_rounds=0,
        short_rest_open=False,
    )


def _reach_zero(sheet: DouaratilSheet, rs: DouaratilRules, ctx: Context) -> DouaratilSheet:
    """The creature has just fallen to 0 PA."""
    ctx.event("fell")
    if sheet.dies_at_zero:
        if sheet.dies_after_rounds:
            count, sides = rs.saves.npc_death_dice
            rounds = ctx.dice(count, sides, "Sursis du monstre").total
            ctx.say(f"À 0 PA, le monstre agit encore librement {plural(rounds, 'round')} puis succombe.")
            return evolve(sheet, death_in_rounds=rounds)
        return _die(sheet, ctx, "monstre à 0 point d'action")
    ctx.say("À 0 point d'action : jets de sauvegarde contre la mort au début de chaque tour.")
    # « vous êtes inconscient … pour 1d6 rounds à moins de réussir un JS DD 16 de Constitution »
    if not _check(ctx, sheet, "constitution", rs.saves.constitution_dd, "JS de Constitution (chute à 0 PA)"):
        sheet = _knock_out(sheet, rs, ctx, "chute à 0 PA")
    return sheet


def _take(
    sheet: DouaratilSheet,
    amount: int,
    rs: DouaratilRules,
    ctx: Context,
    *,
    attack: bool,
    adjacent: bool = False,
    critical: bool = False,
) -> DouaratilSheet:
    """One hit (or one round of bleeding) of ``amount`` damage."""
    name = sheet.name or "La créature"
    if sheet.dead:
        ctx.say(f"{name} est déjà mort : {amount} dégâts sans effet.")
        return sheet
    effective = effective_conditions(sheet, rs)  # {} without conditions: the common case stays cheap
    if effective and amount > 0 and any(rs.conditions[c].resists_all_damage for c in effective if c in rs.conditions):
        halved = amount // 2
        ctx.say(f"Résistant à tous les dégâts (pétrifié) : {amount} → {halved}.")
        amount = halved
    was_at_zero = sheet.current == 0
    if attack:
        reasons = []
        if critical:
            reasons.append("trois 6 à l'attaque")
        if was_at_zero and amount > 0:
            reasons.append("dégâts reçus sans point d'action")
        if sheet.critical_threshold is not None and amount > sheet.critical_threshold:
            reasons.append(f"seuil de critique {sheet.critical_threshold} dépassé")
        if (
            adjacent
            and effective
            and any(rs.conditions[c].critical_if_adjacent for c in effective if c in rs.conditions)
        ):
            reasons.append("cible sans défense touchée à 1,50 m ou moins")
        if reasons:
            ctx.say("Coup critique (" + ", ".join(reasons) + ") : tirez sur la table des coups critiques.")
            ctx.event("critical")
    absorbed = min(sheet.temporary, amount)
    rest = amount - absorbed
    new_current = max(0, sheet.current - rest)
    line = f"{name} subit {amount} dégâts"
    if absorbed:
        line += f" ({absorbed} absorbés par les points temporaires)"
    line += f" : {sheet.current} → {new_current} PA."
    ctx.say(line)
    sheet = evolve(sheet, temporary=sheet.temporary - absorbed, current=new_current)
    if rest > 0 and sheet.stabilised:
        # « Si la créature subit de nouveaux dégâts, elle n'est plus considérée comme stabilisée »
        ctx.say("Les nouveaux dégâts rompent la stabilisation : les jets contre la mort reprennent.")
        sheet = evolve(sheet, stabilised=False, wake_in=None)
    if attack and amount > sheet.constitution and not sheet.dead:
        # « Si ce montant est dépassé, il faut réussir un JS DD 16 de Constitution ou s'effondrer »
        ctx.event("massive_damage")
        ctx.say(f"Dégâts massifs ({amount} > Constitution {sheet.constitution}).")
        if not _check(ctx, sheet, "constitution", rs.saves.constitution_dd, "JS de Constitution (dégâts massifs)"):
            sheet = _knock_out(sheet, rs, ctx, "dégâts massifs")
    if new_current == 0 and not was_at_zero:
        sheet = _reach_zero(sheet, rs, ctx)
    return sheet


def _find_wound(sheet: DouaratilSheet, wound_id: int) -> Wound:
    for wound in sheet.wounds:
        if wound.id == wound_id:
            return wound
    raise Refused(f"Aucune blessure n° {wound_id} sur la fiche.")


def _wound_label(wound: Wound | Scar, rs: DouaratilRules) -> str:
    kind = rs.wounds[wound.type].label if wound.type in rs.wounds else wound.type
    return f"{kind} ({rs.severities[wound.severity].label})"


def _alive(sheet: DouaratilSheet, what: str) -> None:
    if sheet.dead:
        raise Refused(f"{sheet.name or 'La créature'} est mort : {what} impossible.")


def _clamp_to_maxima(sheet: DouaratilSheet, rs: DouaratilRules, ctx: Context) -> DouaratilSheet:
    """After a maximum dropped: no pool above its effective maximum."""
    changes: dict[str, object] = {}
    top = effective_maximum(sheet, rs)
    if sheet.current > top:
        ctx.say(f"Points d'action ramenés au nouveau maximum : {sheet.current} → {top}.")
        changes["current"] = top
    for pool in POOLS:
        stored: Pool = getattr(sheet, pool)
        cap = pool_maximum(sheet, pool, rs)
        if stored.current > cap:
            ctx.say(f"{rs.rests.pools[pool].label} ramenés au nouveau maximum : {stored.current} → {cap}.")
            changes[pool] = evolve(stored, current=cap)
    return evolve(sheet, **changes) if changes else sheet


# --------------------------------------------------------------------------------------------------
# Handlers
# --------------------------------------------------------------------------------------------------


def damage(sheet: DouaratilSheet, action: Damage, ctx: Context) -> DouaratilSheet:
    rs: DouaratilRules = ctx.ruleset
    if action.nonlethal:
        raise Refused("Douaratil ne compte pas de dégâts non létaux à part.")
    for _ in range(action.hits):
        amount = ctx.amount(action.amount, "Dégâts")
        if not amount.given:
            ctx.say(f"Dégâts : {amount.detail}.")
        if amount.total < 0:
            raise Refused(f"Des dégâts négatifs ({amount.total}) n'ont pas de sens : utilisez Soins.")
        sheet = _take(sheet, amount.total, rs, ctx, attack=True, adjacent=action.adjacent, critical=action.critical)
    return sheet


def heal(sheet: DouaratilSheet, action: Heal, ctx: Context) -> DouaratilSheet:
    rs: DouaratilRules = ctx.ruleset
    # « Une créature morte ne peut pas regagner de point d'action. »
    _alive(sheet, "regagner des points d'action")
    amount = ctx.amount(action.amount, "Soins")
    if amount.total < 0:
        raise Refused(f"Des soins négatifs ({amount.total}) n'ont pas de sens : utilisez Dégâts.")
    top = effective_maximum(sheet, rs)
    gained = max(0, min(amount.total, top - sheet.current))
    lost = amount.total - gained
    new_current = sheet.current + gained
    line = f"Soins {amount.detail if not amount.given else amount.total} : {sheet.current} → {new_current} PA"
    if lost:
        # « les points d'action surnuméraires sont perdus »
        line += f" (maximum {top} atteint, {lost} perdus)"
    ctx.say(line + ".")
    was_at_zero = sheet.current == 0
    sheet = evolve(sheet, current=new_current)
    if was_at_zero and new_current > 0:
        # « Ce compteur est remis à 0 dès que vous regagnez des points d'action pour être au dessus de zéro »
        sheet = evolve(sheet, death_successes=0, death_failures=0, stabilised=False, wake_in=None, death_in_rounds=None)
        sheet = _wake(sheet, rs, ctx, "soigné")
    return sheet


def gain_temporary(sheet: DouaratilSheet, action: GainTemporary, ctx: Context) -> DouaratilSheet:
    _alive(sheet, "recevoir des points temporaires")
    amount = ctx.amount(action.amount, "Points temporaires").total
    if amount < 0:
        raise Refused("Des points temporaires négatifs n'ont pas de sens.")
    old = sheet.temporary
    # « Ils ne peuvent pas non plus se cumuler entre eux … vous devez décider si vous conservez ceux
    #   que vous possédez déjà ou si vous les remplacez »
    if old and not action.replace:
        ctx.say(f"Points temporaires : {old} conservés, les {amount} nouveaux ne se cumulent pas et sont perdus.")
        new = old
    else:
        if old:
            ctx.say(f"Points temporaires : {old} remplacés par {amount} (jamais cumulés).")
        else:
            ctx.say(f"Points temporaires : {amount}.")
        new = amount
    if sheet.current == 0:
        ctx.say("À 0 PA, les points temporaires ne réveillent pas et ne stabilisent pas ; ils absorbent les dégâts.")
    return evolve(sheet, temporary=new)


def lose_temporary(sheet: DouaratilSheet, action: LoseTemporary, ctx: Context) -> DouaratilSheet:
    if sheet.temporary:
        ctx.say(f"Les {sheet.temporary} points temporaires prennent fin.")
    return evolve(sheet, temporary=0)


def set_condition(sheet: DouaratilSheet, action: SetCondition, ctx: Context) -> DouaratilSheet:
    rs: DouaratilRules = ctx.ruleset
    cid = action.condition
    if cid not in rs.conditions:
        raise Refused(f"État inconnu : « {cid} ».")
    label = rs.conditions[cid].label
    if action.active:
        if cid in sheet.conditions:
            # « une créature est soumise à un état ou ne l'est pas »
            ctx.say(f"{label} : déjà en place, un état ne se cumule pas avec lui-même.")
            return sheet
        _alive(sheet, "changer d'état")
        ctx.say(f"État {label} ajouté.")
        return evolve(sheet, conditions=tuple(sorted({*sheet.conditions, cid})))
    if cid not in sheet.conditions:
        implied = effective_conditions(sheet, rs).get(cid)
        if implied:
            raise Refused(f"{label} {implied} : retirez d'abord cet état.")
        ctx.say(f"{label} : n'était pas en place.")
        return sheet
    if cid == "inconscient":
        return _wake(sheet, rs, ctx, "état retiré")
    ctx.say(f"État {label} retiré.")
    return evolve(sheet, conditions=tuple(c for c in sheet.conditions if c != cid))


def clear_conditions(sheet: DouaratilSheet, action: ClearConditions, ctx: Context) -> DouaratilSheet:
    rs: DouaratilRules = ctx.ruleset
    for cid in action.include:
        if cid not in rs.conditions:
            raise Refused(f"État inconnu : « {cid} ».")
    kept = []
    removed = []
    for cid in sheet.conditions:
        rule = rs.conditions.get(cid)
        spared = rule is not None and rs.condition_groups[rule.group].spared_by_clear_all
        if spared and cid not in action.include:
            kept.append(cid)
        else:
            removed.append(cid)
    if not removed:
        ctx.say("Aucun état à retirer.")
        return sheet
    ctx.say("États retirés : " + ", ".join(condition_label(c, rs) for c in removed) + ".")
    if kept:
        names = ", ".join(condition_label(c, rs) for c in kept)
        ctx.say(f"Conservés (non concernés sauf s'ils sont désignés) : {names}.")
    was_unconscious = "inconscient" in removed
    sheet = evolve(sheet, conditions=tuple(kept) if not was_unconscious else (*kept, "inconscient"))
    if was_unconscious:
        sheet = _wake(sheet, rs, ctx, "états retirés")
    return sheet


def death_save(sheet: DouaratilSheet, action: DeathSave, ctx: Context) -> DouaratilSheet:
    rs: DouaratilRules = ctx.ruleset
    _alive(sheet, "jet contre la mort")
    if sheet.current > 0:
        raise Refused("Pas de jet contre la mort au-dessus de 0 point d'action.")
    if sheet.stabilised:
        raise Refused("Une personne stabilisée n'a pas besoin de faire de jet de sauvegarde contre la mort.")
    if sheet.dies_at_zero:
        raise Refused("Ce monstre suit la règle des monstres (il meurt à 0 PA), pas les jets contre la mort.")
    return _death_save(sheet, rs, ctx)


def _death_save(sheet: DouaratilSheet, rs: DouaratilRules, ctx: Context) -> DouaratilSheet:
    count, sides = rs.saves.death_save_dice
    roll = ctx.dice(count, sides, "Jet contre la mort")
    penalty = exhaustion_penalty(sheet, rs) if rs.saves.exhaustion_on_death_saves else 0
    total = roll.total + penalty
    success = total >= rs.saves.death_save_success
    needed = rs.saves.death_saves_needed
    successes = sheet.death_successes + (1 if success else 0)
    failures = sheet.death_failures + (0 if success else 1)
    detail = roll.detail + (f" {signed(penalty)} (épuisement) = {total}" if penalty else "")
    ctx.say(
        f"Jet contre la mort : {detail} → {'succès' if success else 'échec'} "
        f"({successes}/{needed} succès, {failures}/{needed} échecs)."
    )
    sheet = evolve(sheet, death_successes=successes, death_failures=failures)
    if failures >= needed:
        return _die(sheet, ctx, f"{needed} échecs aux jets contre la mort")
    if successes >= needed:
        ctx.say(f"{needed} succès : stabilisé.")
        return _stabilise(sheet, rs, ctx)
    return sheet


def _stabilise(sheet: DouaratilSheet, rs: DouaratilRules, ctx: Context) -> DouaratilSheet:
    count, sides = rs.saves.stabilised_wake_dice
    hours = ctx.dice(count, sides, "Délai avant de regagner 1 PA").total
    ctx.say(
        f"Stabilisé : plus de jets contre la mort ; reste inconscient ; regagnera "
        f"{rs.saves.stabilised_wake_gain} PA dans {plural(hours, 'heure')} s'il n'est pas soigné."
    )
    ctx.event("stabilised")
    sheet = evolve(
        sheet,
        stabilised=True,
        death_successes=0,
        death_failures=0,
        wake_in=hours * rs.time_units["hour"],
    )
    return sheet


def stabilise(sheet: DouaratilSheet, action: Stabilise, ctx: Context) -> DouaratilSheet:
    rs: DouaratilRules = ctx.ruleset
    _alive(sheet, "stabiliser")
    if sheet.current > 0:
        raise Refused("Seule une personne à 0 point d'action peut être stabilisée.")
    if sheet.stabilised:
        raise Refused("Déjà stabilisé.")
    if action.method == "first_aid":
        # « utiliser une action pour administrer les premiers soins … test de Sagesse (Médecine) DD 16 »
        count, sides = rs.saves.check_dice
        roll = ctx.dice(count, sides, "Premiers soins")
        total = roll.total + action.modifier
        ok = total >= rs.saves.first_aid_dd
        ctx.say(
            f"Premiers soins, Sagesse (Médecine) : {roll.detail} {signed(action.modifier)} = {total} "
            f"contre DD {rs.saves.first_aid_dd} → {'réussite' if ok else 'échec'}."
        )
        if not ok:
            return sheet
    elif action.method not in ("magic", "other"):
        raise Refused(f"Méthode de stabilisation inconnue : « {action.method} ».")
    return _stabilise(sheet, rs, ctx)


def wake_save(sheet: DouaratilSheet, action: WakeSave, ctx: Context) -> DouaratilSheet:
    rs: DouaratilRules = ctx.ruleset
    _alive(sheet, "se réveiller")
    if "inconscient" not in sheet.conditions:
        raise Refused("La créature n'est pas inconsciente.")
    return _wake_attempt(sheet, rs, ctx)


def _wake_attempt(sheet: DouaratilSheet, rs: DouaratilRules, ctx: Context) -> DouaratilSheet:
    # « Chaque round, la personne inconsciente peut essayer de réussir le JS DD 16 de Constitution et se
    #   réveiller. Elle pourra agir immédiatement. »
    if _check(ctx, sheet, "constitution", rs.saves.constitution_dd, "JS de Constitution pour se réveiller"):
        return _wake(sheet, rs, ctx, "JS réussi")
    return sheet


def set_exhaustion(sheet: DouaratilSheet, action: SetExhaustion, ctx: Context) -> DouaratilSheet:
    return _exhaustion_to(sheet, action.level, ctx)


def add_exhaustion(sheet: DouaratilSheet, action: AddExhaustion, ctx: Context) -> DouaratilSheet:
    # « son niveau d'épuisement actuel augmente du montant indiqué dans la description de l'effet »
    return _exhaustion_to(sheet, sheet.exhaustion + action.levels, ctx)


def _exhaustion_to(sheet: DouaratilSheet, level: int, ctx: Context) -> DouaratilSheet:
    rs: DouaratilRules = ctx.ruleset
    top = rs.exhaustion.max_level
    if level > top:
        ctx.say(f"L'épuisement ne dépasse pas le niveau {top}.")
        level = top
    if level < 1:
        # « Tous les effets d'épuisement se terminent si le niveau … est réduit à moins de 1. »
        level = 0
    if level == sheet.exhaustion:
        ctx.say(f"Épuisement inchangé (niveau {level}).")
        return sheet
    if level == 0:
        ctx.say("L'épuisement prend fin.")
    else:
        ctx.say(
            f"Épuisement : niveau {sheet.exhaustion} → {level} "
            f"(malus {signed(-level * rs.exhaustion.roll_penalty_per_level)} à tous les jets et aux maxima)."
        )
    sheet = evolve(sheet, exhaustion=level)
    return _clamp_to_maxima(sheet, rs, ctx)


def _action_die(sheet: DouaratilSheet, rs: DouaratilRules, ctx: Context) -> DouaratilSheet:
    available = sheet.level - sheet.action_dice_spent
    if available <= 0:
        raise Refused("Plus aucun dé d'action dans la réserve.")
    roll = ctx.dice(1, sheet.action_die, "Dé d'action")
    mod = ability_modifier(sheet.constitution, rs)
    penalty = exhaustion_penalty(sheet, rs)
    total = max(0, roll.total + mod + penalty)
    top = effective_maximum(sheet, rs)
    gained = min(total, top - sheet.current)
    detail = f"{roll.detail} {signed(mod)} (CON)" + (f" {signed(penalty)} (épuisement)" if penalty else "")
    line = f"Dé d'action : {detail} = {total} → {sheet.current} → {sheet.current + gained} PA"
    if gained < total:
        line += f" (maximum {top}, {total - gained} perdus)"
    ctx.say(line + f" ; {available - 1} dé(s) restant(s).")
    return evolve(sheet, current=sheet.current + gained, action_dice_spent=sheet.action_dice_spent + 1)


def short_rest(sheet: DouaratilSheet, action: ShortRest, ctx: Context) -> DouaratilSheet:
    rs: DouaratilRules = ctx.ruleset
    _alive(sheet, "se reposer")
    if action.hours < rs.rests.short_min_hours:
        raise Refused(f"Un repos court dure au moins {plural(rs.rests.short_min_hours, 'heure')}.")
    if action.dice > sheet.level - sheet.action_dice_spent:
        raise Refused(
            f"Seulement {sheet.level - sheet.action_dice_spent} dé(s) d'action disponible(s) sur {sheet.level}."
        )
    ctx.say(f"Repos court de {plural(action.hours, 'heure')}.")
    sheet = evolve(sheet, clock=sheet.clock + action.hours * rs.time_units["hour"])
    sheet = _tick_timers(sheet, action.hours * rs.time_units["hour"], rs, ctx)
    for _ in range(action.dice):
        sheet = _action_die(sheet, rs, ctx)
    return evolve(sheet, short_rest_open=True)


def spend_action_die(sheet: DouaratilSheet, action: SpendActionDie, ctx: Context) -> DouaratilSheet:
    _alive(sheet, "dépenser un dé d'action")
    if not sheet.short_rest_open:
        raise Refused("Les dés d'action se dépensent à la fin d'un repos court.")
    sheet = _action_die(sheet, ctx.ruleset, ctx)
    return evolve(sheet, short_rest_open=True)


def long_rest(sheet: DouaratilSheet, action: LongRest, ctx: Context) -> DouaratilSheet:
    rs: DouaratilRules = ctx.ruleset
    rests = rs.rests
    hour = rs.time_units["hour"]
    _alive(sheet, "se reposer")
    if action.hours < rests.long_min_hours:
        raise Refused(f"Un repos long dure au moins {plural(rests.long_min_hours, 'heure')}.")
    # « il doit avoir au moins 1 point d'action au début de cette période de repos »
    if sheet.current < rests.long_min_points:
        raise Refused(
            f"Il faut au moins {rests.long_min_points} point d'action au début d'un repos long "
            f"({sheet.name or 'le personnage'} en a {sheet.current})."
        )
    end = sheet.clock + action.hours * hour
    if sheet.last_long_rest_end is not None:
        since = end - sheet.last_long_rest_end
        if since < rests.long_cooldown_hours * hour:
            wait = rests.long_cooldown_hours * hour - since
            raise Refused(
                "Un seul repos long par période de 24 heures : le dernier s'est terminé il y a "
                f"{plural(since // hour, 'heure')} à la fin de celui-ci ; encore {-(-wait // hour)} h à attendre."
            )
    sheet = evolve(sheet, clock=end, short_rest_open=False)
    sheet = _tick_timers(sheet, action.hours * hour, rs, ctx)
    if action.interrupted:
        # « tout le temps passé dans l'optique d'un repos long est perdu »
        ctx.say(
            f"Repos long interrompu par une période d'activité : {plural(action.hours, 'heure')} perdues, "
            "aucun bénéfice."
        )
        return sheet
    ctx.say(f"Repos long de {plural(action.hours, 'heure')}.")
    level = sheet.level
    penalty = exhaustion_penalty(sheet, rs)
    changes: dict[str, object] = {}
    # Pools recover with the exhaustion the character had while resting (before it drops).
    for pool in POOLS:
        rule = rests.pools[pool]
        stored: Pool = getattr(sheet, pool)
        bonus = ability_modifier(getattr(sheet, rule.ability), rs)
        doubled = rule.doubled_on_path is not None and sheet.path == rule.doubled_on_path
        if doubled:
            bonus *= 2
        gain = rule.per_level * level + bonus
        if rule.exhaustion_applies:
            gain += penalty
        gain = max(rule.minimum, gain)
        if stored.base_maximum == 0:
            continue
        cap = max(0, stored.base_maximum - (maximum_reduction(sheet, rs) if pool != "sanity" else 0))
        new = min(cap, stored.current + gain)
        if new != stored.current or gain:
            why = f"{rule.per_level} × niveau {level}" if rule.per_level else ""
            why += f" {signed(bonus)} ({ABILITY_LABELS[rule.ability]}{', doublé' if doubled else ''})"
            if rule.exhaustion_applies and penalty:
                why += f" {signed(penalty)} (épuisement)"
            ctx.say(f"{rule.label} : +{gain} ({why.strip()}) → {stored.current} → {new}.")
        changes[pool] = evolve(stored, current=new)
    sheet = evolve(sheet, **changes)
    # « Une fois terminé, un repos long réduit le niveau d'épuisement … à condition qu'elle ait eu à
    #   boire et à manger. »
    if sheet.exhaustion:
        if action.ate_and_drank:
            sheet = _exhaustion_to(sheet, sheet.exhaustion - rs.exhaustion.long_rest_reduction, ctx)
        else:
            ctx.say("Sans boire ni manger, l'épuisement ne diminue pas.")
    top = effective_maximum(sheet, rs)
    if sheet.current != top:
        ctx.say(f"Tous les points d'action : {sheet.current} → {top}.")
    # « Il regagne aussi une partie des dés d'action … au moins un … au maximum la moitié de son total »
    regained = min(sheet.action_dice_spent, max(rests.dice_regained_min, level // rests.dice_regained_divisor))
    if regained:
        ctx.say(f"Dés d'action regagnés : {regained} ({sheet.action_dice_spent - regained} encore dépensés).")
    if sheet.temporary:
        ctx.say(f"Les {sheet.temporary} points temporaires prennent fin avec le repos long.")
    sheet = evolve(
        sheet,
        current=top,
        temporary=0,
        action_dice_spent=sheet.action_dice_spent - regained,
        last_long_rest_end=end,
    )
    return _wound_healing(sheet, rs, ctx)


def _wound_healing(sheet: DouaratilSheet, rs: DouaratilRules, ctx: Context) -> DouaratilSheet:
    """« Une fois cette période passée, à chaque repos long, un JS DD 16 est fait pour chaque blessure »."""
    kept: list[Wound] = []
    scars = list(sheet.scars)
    for wound in sheet.wounds:
        wound = evolve(wound, rests=wound.rests + 1)
        rule = rs.wounds.get(wound.type)
        delay = rule.days if rule else 0
        label = _wound_label(wound, rs)
        if wound.rests < delay:
            ctx.say(f"{label} : {wound.rests}/{delay} repos longs avant le test de guérison.")
            kept.append(wound)
            continue
        # The wound's own DD steps do not apply: « cela ne s'applique pas pour le test de guérison ».
        bonus = 0 if rs.healing.exhaustion_applies else -exhaustion_penalty(sheet, rs)
        if _check(ctx, sheet, "constitution", rs.healing.test_dd, f"Test de guérison, {label}", bonus):
            ctx.say(f"{label} guérie ; il en reste une cicatrice.")
            scars.append(Scar(type=wound.type, severity=wound.severity, note=wound.note))
        else:
            kept.append(wound)
    return evolve(sheet, wounds=tuple(kept), scars=tuple(scars))


def _round_effects_active(sheet: DouaratilSheet) -> bool:
    if sheet.dead:
        return False
    dying = sheet.current == 0 and not sheet.stabilised and not sheet.dies_at_zero
    bleeding = any(w.bleeding for w in sheet.wounds)
    return dying or bleeding or sheet.unconscious_rounds > 0 or sheet.death_in_rounds is not None


def _one_round(sheet: DouaratilSheet, rs: DouaratilRules, ctx: Context, number: int) -> DouaratilSheet:
    ctx.say(f"— Round {number} —")
    # Turn start: « À chaque fois que vous commencez votre tour de jeu à 0 point d'action ou moins »
    if sheet.current == 0 and not sheet.stabilised and not sheet.dies_at_zero:
        sheet = _death_save(sheet, rs, ctx)
        if sheet.dead:
            return sheet
    if sheet.death_in_rounds is not None:
        left = sheet.death_in_rounds - 1
        if left <= 0:
            return _die(sheet, ctx, "le sursis du monstre est écoulé")
        sheet = evolve(sheet, death_in_rounds=left)
    if sheet.unconscious_rounds > 0 and "inconscient" in sheet.conditions:
        sheet = _wake_attempt(sheet, rs, ctx)
        if "inconscient" in sheet.conditions:
            left = sheet.unconscious_rounds - 1
            sheet = evolve(sheet, unconscious_rounds=left)
            if left == 0:
                sheet = _wake(sheet, rs, ctx, "les rounds d'inconscience sont écoulés")
    elif sheet.unconscious_rounds > 0:
        sheet = evolve(sheet, unconscious_rounds=0)
    for wound in sheet.wounds:
        rule = rs.wounds.get(wound.type)
        if wound.bleeding and rule and rule.bleeding_dice and not sheet.dead:
            count, sides = rule.bleeding_dice
            loss = ctx.dice(count, sides, f"Saignement, {_wound_label(wound, rs)}")
            ctx.say(f"Saignement ({_wound_label(wound, rs)}) : {loss.detail}.")
            sheet = _take(sheet, loss.total, rs, ctx, attack=False)
    return sheet


def _tick_timers(sheet: DouaratilSheet, seconds: int, rs: DouaratilRules, ctx: Context) -> DouaratilSheet:
    """Hour-scale timers over ``seconds`` (the stabilised creature's 1 PA after 1d6 hours)."""
    if sheet.dead or sheet.wake_in is None:
        return sheet
    left = sheet.wake_in - seconds
    if left > 0:
        return evolve(sheet, wake_in=left)
    gain = min(rs.saves.stabilised_wake_gain, effective_maximum(sheet, rs) - sheet.current)
    ctx.say(f"Stabilisé et non soigné : regagne {gain} PA ({sheet.current} → {sheet.current + gain}).")
    sheet = evolve(sheet, current=sheet.current + gain, wake_in=None, stabilised=False)
    if sheet.current > 0:
        sheet = evolve(sheet, death_successes=0, death_failures=0)
        sheet = _wake(sheet, rs, ctx, "1 PA regagné")
    return sheet


def advance_time(sheet: DouaratilSheet, action: AdvanceTime, ctx: Context) -> DouaratilSheet:
    rs: DouaratilRules = ctx.ruleset
    if action.unit not in rs.time_units:
        units = ", ".join(rs.time_units)
        raise Refused(f"Unité de temps inconnue : « {action.unit} » (attendu : {units}).")
    total = action.count * rs.time_units[action.unit]
    round_s = rs.time_units["round"]
    label = rs.time_labels.get(action.unit, action.unit)
    ctx.say(f"Le temps passe : {action.count} {label}{'s' if action.count > 1 else ''}.")
    remaining = total
    rounds = 0
    while remaining > 0:
        if sheet.dead:
            break
        if _round_effects_active(sheet) and remaining >= round_s:
            rounds += 1
            if rounds > ROUND_CAP:
                raise Refused("Trop de rounds à simuler d'un coup : avancez le temps par étapes.")
            sheet = _one_round(sheet, rs, ctx, rounds)
            sheet = _tick_timers(sheet, round_s, rs, ctx)
            remaining -= round_s
            continue
        step = remaining if sheet.wake_in is None else min(remaining, sheet.wake_in)
        sheet = _tick_timers(sheet, step, rs, ctx)
        remaining -= step
    return evolve(sheet, clock=sheet.clock + total, short_rest_open=False)


def add_wound(sheet: DouaratilSheet, action: AddWound, ctx: Context) -> DouaratilSheet:
    rs: DouaratilRules = ctx.ruleset
    if action.wound_type not in rs.wounds:
        known = ", ".join(rs.wounds)
        raise Refused(f"Type de blessure inconnu : « {action.wound_type} » (attendu : {known}).")
    _alive(sheet, "recevoir une blessure")
    rule = rs.wounds[action.wound_type]
    if action.bleeding and rule.bleeding_dice is None:
        raise Refused(f"Une blessure de type {rule.label} ne saigne pas.")
    next_id = max((w.id for w in sheet.wounds), default=0) + 1
    wound = Wound(
        id=next_id, type=action.wound_type, severity=action.severity, bleeding=action.bleeding, note=action.note
    )
    ctx.say(
        f"Blessure {_wound_label(wound, rs)} : {rule.limitation} ; test de guérison après "
        f"{plural(rule.days, 'repos long', 'repos longs')} ; test de volonté (SAG) DD {rule.will_dd}."
    )
    return evolve(sheet, wounds=(*sheet.wounds, wound))


def wound_risk(sheet: DouaratilSheet, action: WoundRisk, ctx: Context) -> DouaratilSheet:
    rs: DouaratilRules = ctx.ruleset
    _alive(sheet, "risquer sa blessure")
    wound = _find_wound(sheet, action.wound_id)
    rule = rs.wounds.get(wound.type)
    if rule is None or rule.bleeding_dice is None or rule.reopen_dd is None:
        raise Refused(f"Une blessure {_wound_label(wound, rs)} ne risque pas de s'ouvrir.")
    if wound.bleeding:
        raise Refused("Cette blessure saigne déjà.")
    label = _wound_label(wound, rs)
    if _check(ctx, sheet, "constitution", rule.reopen_dd, f"JS de Constitution, {label}"):
        return sheet
    count, sides = rule.bleeding_dice
    ctx.say(f"{label} s'ouvre : saignement de {count}d{sides} par round.")
    ctx.event("bleeding")
    return _replace_wound(sheet, evolve(wound, bleeding=True))


def _replace_wound(sheet: DouaratilSheet, wound: Wound) -> DouaratilSheet:
    return evolve(sheet, wounds=tuple(wound if w.id == wound.id else w for w in sheet.wounds))


def set_wound_bleeding(sheet: DouaratilSheet, action: SetWoundBleeding, ctx: Context) -> DouaratilSheet:
    rs: DouaratilRules = ctx.ruleset
    wound = _find_wound(sheet, action.wound_id)
    rule = rs.wounds.get(wound.type)
    if action.bleeding and (rule is None or rule.bleeding_dice is None):
        raise Refused(f"Une blessure {_wound_label(wound, rs)} ne saigne pas.")
    ctx.say(f"{_wound_label(wound, rs)} : {'saigne' if action.bleeding else 'ne saigne plus'}.")
    return _replace_wound(sheet, evolve(wound, bleeding=action.bleeding))


def heal_wound(sheet: DouaratilSheet, action: HealWound, ctx: Context) -> DouaratilSheet:
    rs: DouaratilRules = ctx.ruleset
    _alive(sheet, "guérir")
    wound = _find_wound(sheet, action.wound_id)
    wounds = tuple(w for w in sheet.wounds if w.id != wound.id)
    scars = sheet.scars
    line = f"{_wound_label(wound, rs)} guérie"
    if action.scar:
        scars = (*scars, Scar(type=wound.type, severity=wound.severity, note=wound.note))
        line += " ; il en reste une cicatrice"
    ctx.say(line + ".")
    return evolve(sheet, wounds=wounds, scars=scars)


def remove_wound(sheet: DouaratilSheet, action: RemoveWound, ctx: Context) -> DouaratilSheet:
    rs: DouaratilRules = ctx.ruleset
    wound = _find_wound(sheet, action.wound_id)
    ctx.say(f"{_wound_label(wound, rs)} retirée de la fiche.")
    return evolve(sheet, wounds=tuple(w for w in sheet.wounds if w.id != wound.id))


def heroic_survival(sheet: DouaratilSheet, action: HeroicSurvival, ctx: Context) -> DouaratilSheet:
    rs: DouaratilRules = ctx.ruleset
    rule = rs.heroic_death
    if not sheet.dead:
        raise Refused("La survie héroïque s'applique à un personnage que les règles disent mort.")
    if sheet.is_npc:
        raise Refused("La survie héroïque est réservée aux héros des joueurs.")
    if sheet.level <= 1:
        raise Refused("Un personnage de niveau 1 n'a pas de niveau à perdre : la mort reste la mort.")
    lost_level = sheet.level
    points = rule.even_level_points if lost_level % 2 == 0 else rule.odd_level_points
    constitution = max(0, sheet.constitution - points)
    level = lost_level - 1
    ctx.say(f"Survie héroïque : {sheet.name or 'le héros'} perd le niveau {lost_level} (niveau {level}).")
    ctx.say(f"Constitution : {sheet.constitution} → {constitution} ({points} point(s) du niveau perdu).")
    base_max = max(0, sheet.base_maximum - action.action_points_lost)
    changes: dict[str, object] = {
        "level": level,
        "constitution": constitution,
        "base_maximum": base_max,
        "current": 0,
        "temporary": 0,
        "dead": False,
        "stabilised": False,
        "death_successes": 0,
        "death_failures": 0,
        "action_dice_spent": min(sheet.action_dice_spent, level),
        "heroic_survivals": sheet.heroic_survivals + 1,
        "xp": min(sheet.xp, action.xp_minimum),
        "constitution_priority": constitution < rule.constitution_floor,
        "conditions": tuple(sorted({*sheet.conditions, "inconscient"})),
    }
    ctx.say(f"Points d'action maximum : {sheet.base_maximum} → {base_max}.")
    for pool, lost in (("magic", action.magic_lost), ("faith", action.faith_lost), ("honour", action.honour_lost)):
        stored: Pool = getattr(sheet, pool)
        if lost:
            new_max = max(0, stored.base_maximum - lost)
            changes[pool] = Pool(current=min(stored.current, new_max), base_maximum=new_max)
            ctx.say(f"{rs.rests.pools[pool].label} maximum : {stored.base_maximum} → {new_max}.")
    ctx.say(f"Points d'expérience ramenés au minimum du niveau {level} : {sheet.xp} → {changes['xp']}.")
    ctx.say("Les capacités liées au niveau perdu disparaissent (à rayer de la fiche).")
    if constitution < rule.constitution_floor:
        ctx.say(
            f"Constitution sous {rule.constitution_floor} : les prochains points de caractéristique "
            "iront en Constitution jusqu'à ce qu'elle revienne à 10."
        )
    ctx.say("Gravement blessé, inconscient à 0 point d'action.")
    ctx.event("heroic_survival")
    return _stabilise(evolve(sheet, **changes), rs, ctx)


def prepare_edit(old: DouaratilSheet, data: dict[str, Any]) -> dict[str, Any]:
    """A lowered maximum lowers the current points with it (instead of refusing the edit)."""
    top = data.get("base_maximum")
    if isinstance(top, int) and isinstance(data.get("current"), int) and data["current"] > top >= 0:
        data["current"] = top
    for pool in POOLS:
        value = data.get(pool)
        if isinstance(value, dict):
            cap, cur = value.get("base_maximum"), value.get("current")
            if isinstance(cap, int) and isinstance(cur, int) and cur > cap >= 0:
                data[pool] = {**value, "current": cap}
    spent, level = data.get("action_dice_spent"), data.get("level")
    if isinstance(spent, int) and isinstance(level, int) and spent > level >= 0:
        data["action_dice_spent"] = level
    return data


def after_edit(old: DouaratilSheet, new: DouaratilSheet, rs: DouaratilRules, ctx: Context) -> DouaratilSheet:
    if new.action_dice_spent > new.level:
        new = evolve(new, action_dice_spent=new.level)
    return _clamp_to_maxima(new, rs, ctx)


def after_action(sheet: DouaratilSheet, action: Action) -> DouaratilSheet:
    """A short rest stays open for spending dice one at a time only until something else happens."""
    if sheet.short_rest_open and not isinstance(action, (ShortRest, SpendActionDie)):
        return evolve(sheet, short_rest_open=False)
    return sheet


# --------------------------------------------------------------------------------------------------
# Derived values
# --------------------------------------------------------------------------------------------------


def health_state(sheet: DouaratilSheet, rs: DouaratilRules) -> tuple[str, str]:
    if sheet.dead:
        return "mort", "mort"
    if sheet.current == 0:
        if sheet.stabilised:
            return "stabilise", "0 PA, stabilisé : plus de jets contre la mort"
        if sheet.dies_at_zero:
            return "mourant", f"monstre à 0 PA, succombe dans {sheet.death_in_rounds or 0} round(s)"
        return "mourant", "0 PA : jet contre la mort au début de chaque tour"
    if "inconscient" in sheet.conditions:
        rounds = f" ({sheet.unconscious_rounds} round(s) au plus)" if sheet.unconscious_rounds else ""
        return "inconscient", f"inconscient{rounds}"
    return "en_forme", f"{sheet.current} PA sur {effective_maximum(sheet, rs)}"


def _mode_explained(label: str, effective: dict[str, str], rs: DouaratilRules, attr: str) -> Explained:
    adv = [rs.conditions[c].label for c in effective if getattr(rs.conditions[c], attr) == "avantage"]
    dis = [rs.conditions[c].label for c in effective if getattr(rs.conditions[c], attr) == "desavantage"]
    if adv and dis:
        return Explained(
            "normal", f"{label} : avantage ({', '.join(adv)}) et désavantage ({', '.join(dis)}) s'annulent"
        )
    if adv:
        return Explained("avantage", f"{label} : avantage ({', '.join(adv)})")
    if dis:
        return Explained("desavantage", f"{label} : désavantage ({', '.join(dis)})")
    return Explained("normal", f"{label} : normal")


def derive(sheet: DouaratilSheet, rs: DouaratilRules) -> Derived:
    values: dict[str, Explained] = {}
    exh = sheet.exhaustion
    reduction = maximum_reduction(sheet, rs)
    exh_reason = f"épuisement niveau {exh}"
    maximum = effective_maximum(sheet, rs)
    values["maximum"] = explained_sum(
        "maximum", sheet.base_maximum, [Term(-min(reduction, sheet.base_maximum), exh_reason)]
    )
    values["current"] = Explained(sheet.current, f"points d'action {sheet.current} sur {maximum}")
    values["temporary"] = Explained(
        sheet.temporary,
        f"points d'action temporaires {sheet.temporary} (absorbés en premier, jamais cumulés, perdus au repos long)",
    )
    state, why = health_state(sheet, rs)
    values["state"] = Explained(state, f"état : {rs.health_states[state].label} ({why})")
    penalty = exhaustion_penalty(sheet, rs)
    values["roll_penalty"] = explained_modifier(
        "malus à tous les jets", [Term(penalty, exh_reason)], "aucun épuisement"
    )
    effective = effective_conditions(sheet, rs)
    known = {c: r for c, r in effective.items() if c in rs.conditions}
    values["conditions"] = Explained(
        tuple(sorted(known)),
        "états : " + (", ".join(f"{rs.conditions[c].label} ({why})" for c, why in sorted(known.items())) or "aucun"),
    )
    values["condition_reasons"] = Explained(
        dict(sorted(known.items())), "pourquoi chaque état est en place (posé, ou découle d'un autre)"
    )
    # Movement: base − exhaustion; Empoigné/Entravé/… → 0; Étourdi → half; Écrasement → half.
    speed_terms = [Term(-min(exh * rs.exhaustion.speed_m_per_level, sheet.speed_m), exh_reason)]
    speed = explained_sum("déplacement", sheet.speed_m, speed_terms, "base, en mètres")
    zero = [rs.conditions[c].label for c in known if rs.conditions[c].speed == "zero"]
    halves = [rs.conditions[c].label for c in known if rs.conditions[c].speed == "half"]
    halves += [_wound_label(w, rs) for w in sheet.wounds if w.type in rs.wounds and rs.wounds[w.type].halves_speed]
    if zero:
        speed = Explained(0, f"déplacement 0 ({', '.join(zero)})")
    elif halves:
        value = int(speed.value) // 2
        speed = Explained(value, f"{speed.text}, divisé par deux ({', '.join(halves)}) = {value}")
    values["speed"] = speed
    values["attacks"] = _mode_explained("ses attaques", known, rs, "attacks")
    values["attacked"] = _mode_explained("les attaques contre lui", known, rs, "attacked")
    values["checks"] = _mode_explained("ses tests de caractéristique", known, rs, "checks")
    incap = [rs.conditions[c].label for c in known if rs.conditions[c].incapacitated]
    values["incapacitated"] = Explained(
        bool(incap), "ni action ni réaction (" + ", ".join(incap) + ")" if incap else "peut agir"
    )
    fails = sorted({s for c in known for s in rs.conditions[c].auto_fail_saves})
    fails_by = [rs.conditions[c].label for c in known if rs.conditions[c].auto_fail_saves]
    values["auto_fail_saves"] = Explained(
        tuple(fails),
        "rate automatiquement ses JS de "
        + ", ".join(ABILITY_LABELS.get(s, s) for s in fails)
        + f" ({', '.join(fails_by)})"
        if fails
        else "aucun échec automatique",
    )
    # Wounds: the DD of every characteristic test goes up one step (minor) or two (major).
    step_terms = []
    for wound in sheet.wounds:
        steps = rs.severities[wound.severity].steps
        step_terms.append(Term(steps, f"blessure {_wound_label(wound, rs)}"))
    if rs.difficulty.steps_stack or not step_terms:
        steps_value = explained_modifier("paliers de difficulté", step_terms, "aucune blessure")
    else:
        worst = max(step_terms, key=lambda t: t.value)
        steps_value = Explained(
            worst.value,
            f"paliers de difficulté +{worst.value} ({worst.reason} ; la plus lourde compte, hors test de guérison)",
        )
    values["dd_steps"] = steps_value
    shift = int(steps_value.value) * rs.difficulty.step
    ref = rs.difficulty.reference_dd
    if shift:
        values["test_dd"] = Explained(
            ref + shift, f"un test moyen (DD {ref}) devient DD {ref + shift} ({steps_value.text})"
        )
    else:
        values["test_dd"] = Explained(ref, f"un test moyen reste DD {ref}")
    available = sheet.level - sheet.action_dice_spent
    # One row per wound, as the wound list shows it (the UI computes nothing).
    rows = []
    bleeding_parts = []
    for wound in sheet.wounds:
        rule = rs.wounds.get(wound.type)
        delay = rule.days if rule else 0
        left = max(0, delay - wound.rests)
        bleed = ""
        if wound.bleeding and rule and rule.bleeding_dice:
            bleed = f"{rule.bleeding_dice[0]}d{rule.bleeding_dice[1]} par round"
            bleeding_parts.append(f"{bleed} ({_wound_label(wound, rs)})")
        rows.append(
            {
                "id": wound.id,
                "type": wound.type,
                "label": rule.label if rule else wound.type,
                "severity": rs.severities[wound.severity].label,
                "steps": rs.severities[wound.severity].steps,
                "limitation": rule.limitation if rule else "",
                "will_dd": rule.will_dd if rule else None,
                "rests_left": left,
                "healing": (
                    f"test de guérison (CON DD {rs.healing.test_dd}) à chaque repos long"
                    if left == 0
                    else f"encore {plural(left, 'repos long', 'repos longs')} avant le test de guérison"
                ),
                "bleeding": bleed,
                "can_bleed": bool(rule and rule.bleeding_dice),
                "note": wound.note,
            }
        )
    values["wound_rows"] = Explained(tuple(rows), f"{plural(len(rows), 'blessure')}")
    values["bleeding"] = Explained(
        tuple(bleeding_parts),
        "saignement : " + "; ".join(bleeding_parts) if bleeding_parts else "aucun saignement",
    )
    values["scar_rows"] = Explained(
        tuple({"type": sc.type, "label": _wound_label(sc, rs), "note": sc.note} for sc in sheet.scars),
        f"{plural(len(sheet.scars), 'cicatrice')}",
    )
    values["action_dice"] = Explained(
        available, f"dés d'action {available} sur {sheet.level} (d{sheet.action_die} + mod. CON chacun)"
    )
    for ability in ABILITIES:
        mod = ability_modifier(getattr(sheet, ability), rs)
        values[f"{ability}_modifier"] = Explained(
            mod,
            f"modificateur {of(ABILITY_LABELS[ability])} {signed(mod)} = ({getattr(sheet, ability)} − "
            f"{rs.general.ability_base}) ÷ {rs.general.ability_step}, arrondi vers le bas",
        )
    for pool in POOLS:
        stored: Pool = getattr(sheet, pool)
        label = rs.rests.pools[pool].label
        if pool == "sanity":
            values[f"{pool}_maximum"] = Explained(stored.base_maximum, f"{label} maximum {stored.base_maximum}")
        else:
            values[f"{pool}_maximum"] = explained_sum(
                f"{label} maximum", stored.base_maximum, [Term(-min(reduction, stored.base_maximum), exh_reason)]
            )
    needed = rs.saves.death_saves_needed
    values["death_saves"] = Explained(
        (sheet.death_successes, sheet.death_failures),
        f"jets contre la mort : {sheet.death_successes}/{needed} succès, {sheet.death_failures}/{needed} échecs "
        f"(3d6, {rs.saves.death_save_success} ou plus)",
    )
    critical_reasons = []
    if sheet.current == 0 and not sheet.dead:
        critical_reasons.append("tout dégât reçu à 0 PA")
    if sheet.critical_threshold is not None:
        critical_reasons.append(f"un coup de plus de {sheet.critical_threshold} dégâts")
    adj = [rs.conditions[c].label for c in known if rs.conditions[c].critical_if_adjacent]
    if adj:
        critical_reasons.append(f"toute attaque à 1,50 m ou moins ({', '.join(adj)})")
    values["critical_on"] = Explained(
        tuple(critical_reasons),
        "coup critique sur : " + ("; ".join(critical_reasons) if critical_reasons else "trois 6 à l'attaque seulement"),
    )
    values["massive_damage"] = Explained(
        sheet.constitution,
        f"dégâts massifs : un coup de plus de {sheet.constitution} (Constitution) → JS DD {rs.saves.constitution_dd}",
    )
    if sheet.last_long_rest_end is None:
        values["long_rest_ready_in"] = Explained(0, "repos long possible")
    else:
        hour = rs.time_units["hour"]
        cooldown = rs.rests.long_cooldown_hours * hour
        # The next rest, of the minimum length, must end 24 h after the last one ended.
        wait = max(0, sheet.last_long_rest_end + cooldown - rs.rests.long_min_hours * hour - sheet.clock)
        values["long_rest_ready_in"] = Explained(
            wait, "repos long possible" if wait == 0 else f"repos long possible dans {fmt_int(-(-wait // hour))} h"
        )
    if sheet.wake_in is not None:
        hours_left = -(-sheet.wake_in // rs.time_units["hour"])
        values["wake_in"] = Explained(sheet.wake_in, f"regagne 1 PA dans {hours_left} h")
    values["constitution_priority"] = Explained(
        sheet.constitution_priority,
        "prochains points de caractéristique en Constitution (jusqu'à 10)" if sheet.constitution_priority else "",
    )
    return Derived(SYSTEM_ID, values)


def info(rs: DouaratilRules) -> SystemInfo:
    """Douaratil as the UI lays it out."""
    hours = "Après 1d6 heures, une créature stabilisée non soignée regagne 1 PA."
    fields = (
        *IDENTITY_FIELDS,
        FieldInfo("xp", "Expérience", "int", minimum=0, maximum=100_000_000),
        FieldInfo(
            "path",
            "Voie",
            "choice",
            choices=tuple((k, v) for k, v in rs.paths.items()),
            tooltip="La voie de la magie double le bonus de PM/PF au repos long ; celle des armes, celui des PH.",
        ),
        *(FieldInfo(a, ABILITY_LABELS[a], "int", group="characteristics", minimum=0, maximum=50) for a in ABILITIES),
        FieldInfo("base_maximum", "PA maximum", "int", group="health", minimum=0, maximum=MAX_POINTS),
        FieldInfo("action_die", "Dé d'action (faces)", "int", group="health", minimum=2, maximum=100),
        FieldInfo("speed_m", "Déplacement (m)", "int", group="health", minimum=0, maximum=1000),
        FieldInfo(
            "critical_threshold",
            "Seuil de critique (SC)",
            "int",
            group="health",
            minimum=0,
            maximum=MAX_POINTS,
            tooltip="Un coup qui dépasse ce seuil est un coup critique (vide : aucun seuil).",
        ),
        FieldInfo(
            "dies_at_zero",
            "Meurt à 0 PA (monstre)",
            "bool",
            group="health",
            tooltip="La plupart des Narrateurs font mourir les adversaires dès qu'ils atteignent 0 PA.",
        ),
        FieldInfo(
            "dies_after_rounds",
            "Agit encore 1d6 rounds",
            "bool",
            group="health",
            tooltip="Le monstre à 0 PA agit librement 1d6 rounds, puis succombe.",
        ),
    )
    levels = [LadderLevel(0, "Aucun", "Pas d'épuisement")]
    ex = rs.exhaustion
    for n in range(1, ex.max_level + 1):
        levels.append(
            LadderLevel(
                n,
                f"Niveau {n}",
                f"Malus de −{n * ex.roll_penalty_per_level} à tous les jets, "
                f"déplacement −{n * ex.speed_m_per_level} m, maxima de PA, PM, PF et PH −{n * ex.maximum_per_level}",
            )
        )
    ladder = LadderInfo("exhaustion", "Épuisement", "exhaustion", tuple(levels), SetExhaustion)
    groups = tuple(
        ConditionGroupInfo(
            gid,
            g.label,
            "Non concernés par « retirer tous les états » sauf s'ils sont désignés." if g.spared_by_clear_all else "",
        )
        for gid, g in rs.condition_groups.items()
    )
    return SystemInfo(
        id=SYSTEM_ID,
        label="Douaratil",
        seed="000",
        points_label="points d'action",
        points_short="PA",
        fields=fields,
        health_states=tuple(HealthStateInfo(k, v.label, v.colour) for k, v in rs.health_states.items()),
        condition_groups=groups,
        conditions=tuple(ConditionInfo(k, c.label, c.group, c.effects) for k, c in rs.conditions.items()),
        ladders=(ladder,),
        time_units=tuple(ChoiceInfo(k, rs.time_labels.get(k, k)) for k in rs.time_units),
        damage_types=(),
        wound_types=tuple(ChoiceInfo(k, w.label) for k, w in rs.wounds.items()),
        rests=((ShortRest, "Repos court"), (LongRest, "Repos long")),
        features=frozenset(
            {
                "temporary",
                "death_saves",
                "stabilise",
                "wounds",
                "scars",
                "short_rest",
                "long_rest",
                "action_dice",
                "exhaustion",
                "pools",
                "critical",
                "heroic_survival",
                "wake_save",
            }
        ),
        actions=(),
        extra={
            "pools": tuple((p, rs.rests.pools[p].label) for p in POOLS),
            "wound_severities": tuple((k, v.label) for k, v in rs.severities.items()),
            "stabilise_methods": (("first_aid", "Premiers soins (Sagesse (Médecine) DD 16)"), ("magic", "Magie")),
            "stabilised_note": hours,
        },
    )


SYSTEM = register(
    System(
        id=SYSTEM_ID,
        label="Douaratil",
        seed="000",
        sheet_type=DouaratilSheet,
        ruleset_type=DouaratilRules,
        handlers={
            Damage: damage,
            Heal: heal,
            GainTemporary: gain_temporary,
            LoseTemporary: lose_temporary,
            SetCondition: set_condition,
            ClearConditions: clear_conditions,
            Stabilise: stabilise,
            ShortRest: short_rest,
            LongRest: long_rest,
            AdvanceTime: advance_time,
            DeathSave: death_save,
            WakeSave: wake_save,
            SetExhaustion: set_exhaustion,
            AddExhaustion: add_exhaustion,
            SpendActionDie: spend_action_die,
            AddWound: add_wound,
            WoundRisk: wound_risk,
            SetWoundBleeding: set_wound_bleeding,
            HealWound: heal_wound,
            RemoveWound: remove_wound,
            HeroicSurvival: heroic_survival,
        },
        derive=derive,
        info=info,
        prepare_edit=prepare_edit,
        after_edit=after_edit,
        after_action=after_action,
        demo={
            "name": "Ulfred",
            "player": "Camille",
            "level": 3,
            "constitution": 14,
            "wisdom": 12,
            "charisma": 11,
            "intelligence": 13,
            "path": "armes",
            "current": 14,
            "base_maximum": 14,
            "honour": {"current": 4, "base_maximum": 6},
            "sanity": {"current": 10, "base_maximum": 10},
        },
    )
)
