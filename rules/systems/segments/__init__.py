"""Segments (seed 002, chapitre 7 « Encaisser »).

Points de vie (PV) that go below zero: states by thresholds (En forme, Blessé, Chancelant, Inconscient,
Mourant, dead at the negative of the Constitution); nonlethal damage counted apart; dying at 1 PV per
segment with a Vigueur DD 20 once per turn, or an ally who stabilises without a roll; states with numbers
summed into the sheet's modifiers (armour class, attack, Réflexes, all rolls, speed in squares, the
segment at which the turn starts); the fatigue ladder; the four senses; damage reduction X/type per hit,
energy and magic resistance; harm from the world (falls, drowning, fire, cold and heat, hunger, thirst,
sleeplessness) driven by ``AdvanceTime``; light and darkvision.
Every number of the seed lives in ``resources/rulesets/segments.toml``.

The package's modules are its sections: ``table`` (the rule table's schema), ``sheet``, ``actions``,
``derive`` (derived values and the computations handlers share), ``handlers``, ``time`` (what runs while
the clock moves) and ``describe`` (the system as the UI lays it out).
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
from rules.systems.segments.actions import (
    AddFatigue,
    Extinguish,
    Fall,
    SetBurning,
    SetExposure,
    SetFatigue,
    SetPrivation,
    SetSuffocating,
    SetSurprise,
    StandUp,
)
from rules.systems.segments.derive import derive as derive_values
from rules.systems.segments.derive import health_state
from rules.systems.segments.describe import info
from rules.systems.segments.handlers import (
    add_fatigue,
    after_edit,
    clear_conditions,
    damage,
    extinguish,
    fall,
    gain_temporary,
    heal,
    lose_temporary,
    prepare_edit,
    set_burning,
    set_condition,
    set_exposure,
    set_fatigue,
    set_privation,
    set_suffocating,
    set_surprise,
    stabilise,
    stand_up,
)
from rules.systems.segments.sheet import SegmentsSheet
from rules.systems.segments.table import SYSTEM_ID, SegmentsRules
from rules.systems.segments.time import advance_time, end_round, long_rest, start_turn

__all__ = [
    "SYSTEM",
    "AddFatigue",
    "Extinguish",
    "Fall",
    "SegmentsRules",
    "SegmentsSheet",
    "SetBurning",
    "SetExposure",
    "SetFatigue",
    "SetPrivation",
    "SetSuffocating",
    "SetSurprise",
    "StandUp",
]

SYSTEM = register(
    System(
        id=SYSTEM_ID,
        label="Segments",
        seed="002",
        sheet_type=SegmentsSheet,
        ruleset_type=SegmentsRules,
        handlers={
            Damage: damage,
            Heal: heal,
            GainTemporary: gain_temporary,
            LoseTemporary: lose_temporary,
            SetCondition: set_condition,
            ClearConditions: clear_conditions,
            Stabilise: stabilise,
            LongRest: long_rest,
            AdvanceTime: advance_time,
            StartTurn: start_turn,
            EndRound: end_round,
            SetFatigue: set_fatigue,
            AddFatigue: add_fatigue,
            StandUp: stand_up,
            SetSurprise: set_surprise,
            Fall: fall,
            SetSuffocating: set_suffocating,
            SetBurning: set_burning,
            Extinguish: extinguish,
            SetExposure: set_exposure,
            SetPrivation: set_privation,
        },
        derive=derive_values,
        state=health_state,
        info=info,
        prepare_edit=prepare_edit,
        after_edit=after_edit,
        demo={
            "name": "Aldéric",
            "player": "Noé",
            "level": 4,
            "constitution": 14,
            "fortitude_save": 5,
            "reflex_save": 2,
            "agility": 3,
            "attack_bonus": 6,
            "armour_class": 16,
            "speed_squares": 5,
            "initiative_segment": 3,
            "current": 9,
            "base_maximum": 26,
            "nonlethal": 3,
            "armour": "lourde",
            "shield": True,
            "energy_resistances": ("froid 5",),
            "conditions": ("a_terre", "lenteur"),
            "fatigue": 1,
            "light": "faible",
            "notes": "Tombé du pont-levis ; ralenti par le sort du nécromant.",
        },
    )
)
