"""Sévérité (seed 003, « Sévérité »).

No hit points: an attack that hits rolls its Puissance (from the attack's Opposition margin) against
the victim's Résistance (D4 + the protection covering the zone hit); the difference, the Sévérité,
gives a Blessure (Bénigne … Fatale) that fills the Trauma gauge (4 tiers of 2 notches). Filling the
gauge calls for Défis de Ténacité (Physique, or Mental for a psychological wound) whose success
level decides whether the character keeps fighting. Wounds heal only once treated, one notch per
treated wound at each rest; supernatural powers remove notches by their success level.

Every number of the seed, and every default we chose where it is silent, lives in
``resources/rulesets/severite.toml`` (choices listed in ``docs/rules-notes.md``, ids V1, V2…).

The facade's ``current``/``maximum`` are the Trauma gauge: notches filled / gauge capacity. Each
wound carries the notches it put in the gauge (``Wound.notches``), so the gauge is their sum: it can
never go below 0, and rest lowers only the notches of treated wounds.

The modules are the system's sections: ``table`` (the rule table's schema), ``sheet``, ``actions``
(Sévérité's own), ``gauge`` (the Trauma gauge, grids and labels, conditions on the sheet), ``handlers``
(strikes, wounds, Ténacité, care), ``time`` (turns, rests), ``edit`` (hand edits), ``derive`` and
``describe`` (for the UI).
"""

from __future__ import annotations

from rules.actions import AdvanceTime, ClearConditions, Damage, EndRound, Heal, LongRest, SetCondition, StartTurn
from rules.systems import System, register
from rules.systems.severite.actions import (
    DiagnoseWound,
    EndConflict,
    EraseWound,
    InflictWound,
    SetHandicap,
    Strike,
    SupernaturalHealing,
    TenacityTest,
    TreatWound,
    WorseningRisk,
)
from rules.systems.severite.derive import derive, health_state
from rules.systems.severite.describe import info
from rules.systems.severite.edit import after_edit, edit_line, prepare_edit
from rules.systems.severite.handlers import (
    clear_conditions,
    damage,
    diagnose_wound,
    end_conflict,
    erase_wound,
    heal,
    inflict_wound,
    set_condition,
    set_handicap,
    strike,
    supernatural_healing,
    tenacity_test,
    treat_wound,
    worsening_risk,
)
from rules.systems.severite.sheet import SYSTEM_ID, SeveriteSheet
from rules.systems.severite.table import SeveriteRules
from rules.systems.severite.time import advance_time, end_round, rest, start_turn

__all__ = [
    "SYSTEM",
    "DiagnoseWound",
    "EndConflict",
    "EraseWound",
    "InflictWound",
    "SetHandicap",
    "SeveriteRules",
    "SeveriteSheet",
    "Strike",
    "SupernaturalHealing",
    "TenacityTest",
    "TreatWound",
    "WorseningRisk",
]

SYSTEM = register(
    System(
        id=SYSTEM_ID,
        label="Sévérité",
        seed="003",
        sheet_type=SeveriteSheet,
        ruleset_type=SeveriteRules,
        handlers={
            Strike: strike,
            Damage: damage,
            InflictWound: inflict_wound,
            TenacityTest: tenacity_test,
            TreatWound: treat_wound,
            DiagnoseWound: diagnose_wound,
            SetHandicap: set_handicap,
            WorseningRisk: worsening_risk,
            SupernaturalHealing: supernatural_healing,
            Heal: heal,
            EndConflict: end_conflict,
            EraseWound: erase_wound,
            SetCondition: set_condition,
            ClearConditions: clear_conditions,
            LongRest: rest,
            AdvanceTime: advance_time,
            StartTurn: start_turn,
            EndRound: end_round,
        },
        derive=derive,
        state=health_state,
        info=info,
        prepare_edit=prepare_edit,
        after_edit=after_edit,
        edit_line=edit_line,
        demo={
            "name": "Maëlle Corbier",
            "player": "Jonas",
            "level": 2,
            "physique": 2,
            "mental": 1,
            "tenacity_skill": True,
            "tenacity_bonus": 1,
            "equipment": (
                {
                    "name": "Brigandine",
                    "body_parts": ("torse", "abdomen"),
                    "protections": (
                        {"damage_type": "tranchant", "modifier": 3},
                        {"damage_type": "percant", "modifier": 2},
                        {"damage_type": "ecrasant", "modifier": 1},
                    ),
                },
                {
                    "name": "Casque à nasal",
                    "body_parts": ("tete",),
                    "protections": (
                        {"damage_type": "tranchant", "modifier": 2},
                        {"damage_type": "percant", "modifier": 1},
                        {"damage_type": "ecrasant", "modifier": 2},
                    ),
                },
            ),
            "wounds": (
                {
                    "id": 1,
                    "grade": "grave",
                    "severity": 6,
                    "notches": 3,
                    "body_part": "bras_gauche",
                    "damage_type": "tranchant",
                    "treatment": "bandage",
                    "diagnosis": "Entaille profonde de l'avant-bras, le tendon a tenu.",
                    "handicap": "Peine à tenir son bouclier",
                    "handicap_penalty": -1,
                    "note": "Sabre d'un coupe-jarret, ruelle des Tanneurs.",
                },
                {
                    "id": 2,
                    "grade": "legere",
                    "severity": 3,
                    "notches": 1,
                    "body_part": "jambe_droite",
                    "damage_type": "ecrasant",
                    "note": "Coup de gourdin.",
                },
            ),
            "conditions": ("tourmente",),
            "turn_timers": ({"condition": "tourmente", "turns": 2},),
            "notes": "Escorte du convoi de sel ; l'embuscade n'est pas finie.",
        },
    )
)
