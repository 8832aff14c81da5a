"""Sévérité as the UI lays it out (``rules.describe``)."""

from __future__ import annotations

from rules.actions import LongRest
from rules.info import (
    IDENTITY_FIELDS,
    ChoiceInfo,
    ConditionGroupInfo,
    ConditionInfo,
    FieldInfo,
    HealthStateInfo,
    SystemInfo,
)
from rules.systems.severite.sheet import SYSTEM_ID
from rules.systems.severite.table import SeveriteRules


def info(rs: SeveriteRules) -> SystemInfo:
    """Sévérité as the UI lays it out."""
    fields = (
        *IDENTITY_FIELDS,
        FieldInfo(
            "physique",
            "Physique",
            "int",
            group="characteristics",
            minimum=-10,
            maximum=20,
            tooltip="Modificateur ajouté au dé des Défis de Ténacité (blessures physiques).",
        ),
        FieldInfo(
            "mental",
            "Mental",
            "int",
            group="characteristics",
            minimum=-10,
            maximum=20,
            tooltip="Modificateur ajouté au dé des Défis de Ténacité contre une blessure psychologique.",
        ),
        FieldInfo(
            "tenacity_skill",
            "Compétence de Ténacité",
            "bool",
            group="health",
            tooltip=f"Une Compétence aide la Ténacité (Athlétisme, Endurance…) : +D{rs.tests.skill_die} au Défi.",
        ),
        FieldInfo(
            "tenacity_bonus",
            "Bonus de Ténacité (Talents)",
            "int",
            group="health",
            minimum=-20,
            maximum=20,
            tooltip="Modificateur de Talent ajouté aux Défis de Ténacité.",
        ),
    )
    pw = rs.power
    grades_text = []
    for gid, g in pw.grades.items():
        formula = f"D{pw.base_die}"
        if g.adds_modifiers:
            formula += " + Mod."
        if g.extra_dice:
            formula += f" + {g.extra_dice}D{pw.extra_die}"
        if g.efficacy_dice:
            formula += f" + D{pw.efficacy_die} d'Efficacité avec Facilité"
        grades_text.append((gid, g.label, g.min_margin, formula))
    per = rs.trauma.notches_per_tier
    tiers = tuple(
        {
            "index": i + 1,
            "label": t.label,
            "opposition": t.opposition,
            "first_notch": i * per + 1,
            "last_notch": (i + 1) * per,
        }
        for i, t in enumerate(rs.trauma.tiers)
    )
    return SystemInfo(
        id=SYSTEM_ID,
        label="Sévérité",
        seed="003",
        points_label="crans de Trauma",
        points_short="crans",
        fields=fields,
        health_states=tuple(HealthStateInfo(k, v.label, v.colour) for k, v in rs.health_states.items()),
        condition_groups=tuple(ConditionGroupInfo(k, g.label) for k, g in rs.condition_groups.items()),
        conditions=tuple(ConditionInfo(k, c.label, c.group, c.effects) for k, c in rs.conditions.items()),
        ladders=(),
        time_units=tuple(ChoiceInfo(k, rs.time_labels.get(k, k)) for k in rs.time_units),
        round_unit="turn",
        damage_types=tuple(ChoiceInfo(k, d.label) for k, d in rs.damage_types.items()),
        wound_types=tuple(ChoiceInfo(k, g.label) for k, g in rs.grades.items()),
        rests=((LongRest, "Repos"),),
        features=frozenset(
            {
                "trauma",
                "wounds",
                "handicaps",
                "damage_types",
                "body_parts",
                "protection",
                "strike",
                "tenacity",
                "survival",
                "wound_treatment",
                "worsening",
                "supernatural_healing",
                "end_conflict",
                "long_rest",
                "sequels",
            }
        ),
        actions=(),
        extra={
            "trauma": {
                "capacity": rs.capacity,
                "notches_per_tier": per,
                "tiers": tiers,
                "beyond": {"label": rs.trauma.beyond.label, "opposition": rs.trauma.beyond.opposition},
            },
            # The gauge as the health bar draws it: one entry per tier (notches, label, Opposition).
            "trauma_tiers": tuple(
                {
                    "notches": per,
                    "label": t.label if t.opposition is None else f"{t.label} ({t.opposition})",
                    "opposition": t.opposition,
                }
                for t in rs.trauma.tiers
            ),
            # (id, label) pairs for the action forms' choices; the fuller tables beside them.
            "wound_grades": tuple((k, g.label) for k, g in rs.grades.items()),
            "wound_grade_rules": tuple(
                (k, g.label, g.min_severity, g.notches, g.handicap) for k, g in rs.grades.items()
            ),
            "power_grades": tuple(grades_text),
            "success_level_choices": tuple((k, s.label) for k, s in rs.success_levels.items()),
            "success_levels": tuple(
                (k, s.label, s.min_margin, rs.tenacity_results[s.tenacity].label, s.healing_notches)
                for k, s in rs.success_levels.items()
            ),
            "tenacity_results": tuple((k, r.label, r.effect) for k, r in rs.tenacity_results.items()),
            "body_part_choices": tuple((k, p.label) for k, p in rs.body_parts.items()),
            "body_parts": tuple((k, p.label, p.vital) for k, p in rs.body_parts.items()),
            "treatment_choices": tuple((k, t.label) for k, t in rs.treatments.items()),
            "treatments": tuple((k, t.label, t.major) for k, t in rs.treatments.items()),
            "dice": (
                f"Défi : D{rs.tests.attribute_die} + Physique ou Mental (+ D{rs.tests.skill_die} de Compétence) ; "
                f"Résistance : D{rs.resistance.die} + protection ; Survie : D{rs.survival.die}"
            ),
        },
    )
