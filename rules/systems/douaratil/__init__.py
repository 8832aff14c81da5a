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
    Action,
    AdvanceTime,
    ClearConditions,
    Damage,
    EndRound,
    GainTemporary,
    Heal,
    LongRest,
    LoseTemporary,
    SetCondition,
    ShortRest,
    Stabilise,
    StartTurn,
)
from rules.systems import System, register
from rules.systems.douaratil.actions import (
    AbilityCheck,
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
    WillTest,
    WoundRisk,
)
from rules.systems.douaratil.derive import derive, health_state
from rules.systems.douaratil.describe import info
from rules.systems.douaratil.handlers import (
    Handler,
    ability_check,
    add_exhaustion,
    add_wound,
    after_edit,
    clear_conditions,
    damage,
    death_save,
    edit_line,
    finishing,
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
    will_test,
    wound_risk,
)
from rules.systems.douaratil.sheet import FIELD_LABELS, DouaratilSheet
from rules.systems.douaratil.table import SYSTEM_ID, DouaratilRules
from rules.systems.douaratil.time import (
    advance_time,
    end_round,
    long_rest,
    short_rest,
    spend_action_die,
    start_turn,
)

HANDLERS: dict[type[Action], Handler] = {
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
    StartTurn: start_turn,
    EndRound: end_round,
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
    AbilityCheck: ability_check,
    WillTest: will_test,
}

SYSTEM = register(
    System(
        id=SYSTEM_ID,
        label="Douaratil",
        seed="000",
        sheet_type=DouaratilSheet,
        ruleset_type=DouaratilRules,
        handlers={action: finishing(handler) for action, handler in HANDLERS.items()},
        derive=derive,
        state=health_state,
        info=info,
        prepare_edit=prepare_edit,
        after_edit=after_edit,
        field_labels=FIELD_LABELS,
        edit_line=edit_line,
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
    "AbilityCheck",
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
    "WillTest",
    "WoundRisk",
]
