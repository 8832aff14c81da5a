"""Douaratil (seed 000, « Gérer la santé du personnage »).

Points d'action (PA) between 0 and the effective maximum; temporary PA that never stack; falling
unconscious at 0 PA; death saves on 3d6; critical wounds healed over long rests; six exhaustion
levels that lower every maximum; short and long rests; PM/PF/PH/SAM recovery; the special states.
Every number of the seed lives in ``resources/rulesets/douaratil.toml``.

Modules: ``table`` (the rule table schema), ``sheet`` (stored fields and what follows from them),
``actions`` (Douaratil's own actions), ``handlers`` (damage, healing, states, dying, wounds, edits),
``time`` (rounds, hour timers, rests), ``derive`` (derived values), ``describe`` (the UI's description).
"""

from __future__ import annotations

from rules.actions import (
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
from rules.systems import System, register
from rules.systems.douaratil.actions import (
    AddExhaustion,
    AddWound,
    DeathSave,
    HealWound,
    HeroicSurvival,
    RemoveWound,
    SetExhaustion,
    SetWoundBleeding,
    SpendActionDie,
    WakeSave,
    WoundRisk,
)
from rules.systems.douaratil.derive import derive, health_state
from rules.systems.douaratil.describe import info
from rules.systems.douaratil.handlers import (
    add_exhaustion,
    add_wound,
    after_action,
    after_edit,
    clear_conditions,
    damage,
    death_save,
    gain_temporary,
    heal,
    heal_wound,
    heroic_survival,
    lose_temporary,
    prepare_edit,
    remove_wound,
    set_condition,
    set_exhaustion,
    set_wound_bleeding,
    stabilise,
    wake_save,
    wound_risk,
)
from rules.systems.douaratil.sheet import DouaratilSheet
from rules.systems.douaratil.table import SYSTEM_ID, DouaratilRules
from rules.systems.douaratil.time import advance_time, long_rest, short_rest, spend_action_die

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
        state=health_state,
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


__all__ = [
    "SYSTEM",
    "AddExhaustion",
    "AddWound",
    "DeathSave",
    "DouaratilRules",
    "DouaratilSheet",
    "HealWound",
    "HeroicSurvival",
    "RemoveWound",
    "SetExhaustion",
    "SetWoundBleeding",
    "SpendActionDie",
    "WakeSave",
    "WoundRisk",
]
