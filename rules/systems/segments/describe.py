"""Segments as the UI lays it out (``rules.describe``)."""

from __future__ import annotations

from rules.actions import LongRest
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
from rules.model import MAX_POINTS
from rules.systems.segments.actions import (
    Extinguish,
    Fall,
    SetBurning,
    SetExposure,
    SetFatigue,
    SetPrivation,
    SetSuffocating,
)
from rules.systems.segments.derive import RESTRICTIONS
from rules.systems.segments.sheet import MAX_BONUS
from rules.systems.segments.table import SYSTEM_ID, SegmentsRules


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
                ("self", f"Sans aide : Vigueur difficulté {rs.dying.self_stabilise_dd}, une fois par tour"),
                ("ally", "Un allié : action d'interaction, sans jet"),
            ),
            "segments_per_turn": spt,
            "turn_unit": "segment",
            # Labels of the ids that derived values hold (restrictions, ongoing_harm, lost_senses).
            "restriction_labels": {"no_movement": "aucun déplacement", **RESTRICTIONS},
            "ongoing_labels": {
                "burning": "en feu",
                "suffocating": "sans air",
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
