"""How the UI lays d20 out (``rules.describe("d20")``)."""

from __future__ import annotations

from rules.actions import (
    LongRest,
)
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
from rules.labels import ABILITIES, ABILITY_LABELS
from rules.model import (
    MAX_POINTS,
)
from rules.systems.d20.actions import (
    AbilityDamage,
    AddLocalWound,
    FullDayRest,
    HealLocalWound,
    RestoreAbility,
    Resurrection,
    SetConstitutionBonus,
    StrenuousAction,
)
from rules.systems.d20.sheet import MAX_SCORE, SHEET_LABELS, SYSTEM_ID
from rules.systems.d20.table import D20Rules

CON_BONUS_LADDER = 12  # levels the UI's Constitution-increase selector offers (the action takes up to 50)


def info(rs: D20Rules) -> SystemInfo:
    """d20 as the UI lays it out."""
    characteristics = tuple(
        FieldInfo(a, SHEET_LABELS[a], "int", group="characteristics", minimum=0, maximum=MAX_SCORE) for a in ABILITIES
    )
    damages = tuple(
        FieldInfo(
            f"{a}_damage",
            SHEET_LABELS[f"{a}_damage"],
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
            SHEET_LABELS[f"{a}_drain"],
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
        FieldInfo("fortitude", SHEET_LABELS["fortitude"], "int", group="characteristics", minimum=-50, maximum=100),
        FieldInfo(
            "base_maximum",
            SHEET_LABELS["base_maximum"],
            "int",
            group="health",
            minimum=1,
            maximum=MAX_POINTS,
            tooltip="Le maximum avec la Constitution de la fiche ; une augmentation de Constitution s'y ajoute.",
        ),
        FieldInfo(
            "weapon_lethal",
            SHEET_LABELS["weapon_lethal"],
            "bool",
            group="other",
            tooltip="Frapper pour des dégâts non létaux avec une arme létale, ou l'inverse : −4 à l'attaque.",
        ),
        FieldInfo("weapon_melee", SHEET_LABELS["weapon_melee"], "bool", group="other"),
        FieldInfo("strike_nonlethal", SHEET_LABELS["strike_nonlethal"], "bool", group="other"),
        FieldInfo("resurrections", SHEET_LABELS["resurrections"], "int", group="other", minimum=0, maximum=1000),
        FieldInfo("quick_failures", SHEET_LABELS["quick_failures"], "int", group="other", minimum=0, maximum=1000),
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
        rests=((LongRest, f"Nuit de repos ({rs.healing.night_hours} h)"), (FullDayRest, "Journée complète de repos")),
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
            # The dying character's d100 comes at its turn (``StartTurn``), or with each round passed.
            "turn_unit": "round",
        },
    )
