"""Douaratil as the UI lays it out (``rules.describe``)."""

from __future__ import annotations

from rules.actions import (
    LongRest,
    ShortRest,
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
from rules.model import MAX_POINTS, plural
from rules.systems.douaratil.actions import AbilityCheck, SetExhaustion, WillTest, WoundRisk
from rules.systems.douaratil.sheet import field_label
from rules.systems.douaratil.table import POOLS, SYSTEM_ID, DouaratilRules


def info(rs: DouaratilRules) -> SystemInfo:
    """Douaratil as the UI lays it out."""
    wake = rs.saves.stabilised_wake_dice
    hours = (
        f"Après {wake[0]}d{wake[1]} heures sans soins, une créature stabilisée regagne "
        f"{plural(rs.saves.stabilised_wake_gain, 'point')} d'action."
    )
    fields = (
        *IDENTITY_FIELDS,
        FieldInfo("xp", field_label("xp"), "int", minimum=0, maximum=100_000_000),
        FieldInfo(
            "path",
            field_label("path"),
            "choice",
            choices=tuple((k, v) for k, v in rs.paths.items()),
            tooltip="La voie de la magie double le bonus de PM/PF au repos long ; celle des armes, celui des PH.",
        ),
        *(FieldInfo(a, ABILITY_LABELS[a], "int", group="characteristics", minimum=0, maximum=50) for a in ABILITIES),
        FieldInfo("base_maximum", field_label("base_maximum"), "int", group="health", minimum=0, maximum=MAX_POINTS),
        FieldInfo("action_die", field_label("action_die"), "int", group="health", minimum=2, maximum=100),
        FieldInfo("speed_m", field_label("speed_m"), "int", group="health", minimum=0, maximum=1000),
        FieldInfo(
            "critical_threshold",
            field_label("critical_threshold"),
            "int",
            group="health",
            minimum=0,
            maximum=MAX_POINTS,
            tooltip="Un coup qui dépasse ce seuil est un coup critique (vide : aucun seuil).",
        ),
        FieldInfo(
            "dies_at_zero",
            field_label("dies_at_zero"),
            "bool",
            group="health",
            tooltip="La plupart des Narrateurs font mourir les adversaires dès qu'ils atteignent 0 PA.",
        ),
        FieldInfo(
            "dies_after_rounds",
            field_label("dies_after_rounds"),
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
                "ability_check",
            }
        ),
        actions=(),
        extra={
            "pools": tuple((p, rs.rests.pools[p].label) for p in POOLS),
            "wound_severities": tuple((k, v.label) for k, v in rs.severities.items()),
            "stabilise_methods": (
                ("first_aid", f"Premiers soins (Sagesse (Médecine) DD {rs.saves.first_aid_dd})"),
                ("magic", "Magie"),
            ),
            "ability_choices": tuple((a, ABILITY_LABELS[a]) for a in ABILITIES),
            # Labels of the buttons of Douaratil's own actions (the generic panels read these pairs).
            "action_labels": (
                (AbilityCheck, "Test de caractéristique…"),
                (WillTest, "Test de volonté (SAG)…"),
                (WoundRisk, "Risque (ouverture ou aggravation)"),
            ),
            "stabilised_note": hours,
        },
    )
