"""d20 (seed 001, « Les blessures et la mort »).

Points de vie (PV) with their states (hors de combat at exactly 0, mourant from −1 to −9, mort at −10
or when the Constitution falls to 0); massive damage; localised wounds; the dying character's d100
each round; recovery with and without help; natural healing by nights and full days of rest; temporary
PV with the noted value; the Constitution increase that raises real PV; nonlethal damage counted apart;
the resurrection test. Every number of the seed lives in ``resources/rulesets/d20.toml``.

The package's modules are its sections: ``table`` (rule table schema), ``sheet`` (stored fields),
``actions`` (its own actions), ``derive`` (derived values and state), ``handlers`` (one per action),
``time`` (rounds, hours, rests), ``describe`` (how the UI lays it out). This module registers it.

The PV total that decides the states is ``current + temporary`` (« le total de points de vie », see
docs/rules-notes.md T4); ``current`` alone is what damage past the temporary PV and healing move.
"""

from __future__ import annotations

from rules.actions import (
    AdvanceTime,
    ClearConditions,
    Damage,
    EndRound,
    GainTemporary,
    Heal,
    LongRest,
    LoseTemporary,
    SetCondition,
    Stabilise,
    StartTurn,
)
from rules.systems import System, register
from rules.systems.d20.actions import (
    AbilityDamage,
    AddLocalWound,
    FullDayRest,
    HealLocalWound,
    RestoreAbility,
    Resurrection,
    ResurrectionContribution,
    SetConstitutionBonus,
    StrenuousAction,
)
from rules.systems.d20.check import check_sheet, edit_line
from rules.systems.d20.derive import derive, health_state
from rules.systems.d20.describe import info
from rules.systems.d20.handlers import (
    ability_damage,
    add_local_wound,
    after_edit,
    clear_conditions,
    damage,
    gain_temporary,
    heal,
    heal_local_wound,
    lose_temporary,
    restore_ability,
    resurrection,
    set_condition,
    set_constitution_bonus,
    stabilise,
    strenuous_action,
)
from rules.systems.d20.sheet import SYSTEM_ID, D20Sheet, LocalWound
from rules.systems.d20.table import D20Rules
from rules.systems.d20.time import advance_time, end_round, full_day_rest, long_rest, start_turn

__all__ = [
    "SYSTEM",
    "AbilityDamage",
    "AddLocalWound",
    "D20Rules",
    "D20Sheet",
    "FullDayRest",
    "HealLocalWound",
    "LocalWound",
    "RestoreAbility",
    "Resurrection",
    "ResurrectionContribution",
    "SetConstitutionBonus",
    "StrenuousAction",
]

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
            StartTurn: start_turn,
            EndRound: end_round,
            StrenuousAction: strenuous_action,
            SetConstitutionBonus: set_constitution_bonus,
            AddLocalWound: add_local_wound,
            HealLocalWound: heal_local_wound,
            AbilityDamage: ability_damage,
            RestoreAbility: restore_ability,
            Resurrection: resurrection,
        },
        derive=derive,
        state=health_state,
        info=info,
        after_edit=after_edit,
        check=check_sheet,
        edit_line=edit_line,
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
