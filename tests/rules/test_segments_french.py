"""Segments speaks French to its users: every field through ``Edit``, every refusal, every action's journal.

No field name, no table id (« a_terre », « food », « legere »…) and no English word reaches a journal line or
a message; the journal names the sheet's fields with the sheet's own labels.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

import rules

TABLE = rules.ruleset("segments")
FIELDS = [f for f in rules.SegmentsSheet.model_fields if f != "system"]
# English field names that are not French words too (« fatigue », « conditions », « notes » are).
ENGLISH_FIELDS = {
    "name",
    "player",
    "level",
    "clock",
    "current",
    "temporary",
    "nonlethal",
    "stabilised",
    "dead",
    "armour",
    "shield",
    "light",
    "burning",
    "exposure",
    "agility",
    "system",
}
ENGLISH_WORDS = {
    "or",
    "and",
    "the",
    "of",
    "is",
    "not",
    "should",
    "must",
    "be",
    "input",
    "value",
    "error",
    "invalid",
    "none",
    "true",
    "false",
    "field",
    "valid",
    "cannot",
    "unable",
    "expected",
    "object",
    "string",
    "integer",
    "missing",
    "extra",
    "greater",
    "less",
    "than",
    "equal",
    "parse",
    "roll",
    "damage",
    "heal",
}


def _table_ids() -> set[str]:
    """Ids of the table that a user would not read as French: they differ from their label."""
    pairs: list[tuple[str, str]] = [
        *((k, v.label) for k, v in TABLE.conditions.items()),
        *((k, v.label) for k, v in TABLE.armours.items()),
        *((k, v.label) for k, v in TABLE.light.items()),
        *((k, v.label) for k, v in TABLE.exposure.items()),
        *((k, v.label) for k, v in TABLE.privations.items()),
        *((k, v.label) for k, v in TABLE.health_states.items()),
        *((k, v.label) for k, v in TABLE.senses.items()),
    ]
    # « fatigue » (id of Fatigué) and « stabilise » (of Stabilisé) are also French words.
    return {k for k, label in pairs if k not in label.lower().split() and k not in ("fatigue", "stabilise")}


IDS = _table_ids()


def leaks(text: str) -> list[str]:
    """The identifiers and English words in ``text`` (empty: all French)."""
    found = []
    for word in re.findall(r"[A-Za-zÀ-ÿ_]+", text):
        low = word.lower()
        if "_" in word or word in ENGLISH_FIELDS or word in IDS or low in ENGLISH_WORDS:
            found.append(word)
    return found


def test_the_detector_finds_what_it_looks_for() -> None:
    assert leaks("Base_maximum : 3 → 4.") == ["Base_maximum"]
    assert leaks("États : a_terre, food → legere.") == ["a_terre", "food", "legere"]
    assert leaks("doit être 'a' or 'b'") == ["or"]
    assert leaks("Armure : aucune → Armure légère. Fatigue : Fatigué.") == []


BASE = rules.new_sheet(
    "segments",
    name="Brune",
    clock=3600,
    current=20,
    base_maximum=20,
    constitution=12,
    nonlethal=2,
    burning=True,
    exposure="froid",
    privations=("food", "sleep", "water"),
    conditions=("surpris",),
    surprise_segments=1,
)
CHANGES: dict[str, dict[str, Any]] = {
    "name": {"name": "Ysolde"},
    "player": {"player": "Noé"},
    "level": {"level": 3},
    "notes": {"notes": "Une note"},
    "is_npc": {"is_npc": True},
    "clock": {"clock": 7200},
    "constitution": {"constitution": 14},
    "fortitude_save": {"fortitude_save": 3},
    "reflex_save": {"reflex_save": 2},
    "agility": {"agility": 1},
    "attack_bonus": {"attack_bonus": 4},
    "armour_class": {"armour_class": 12},
    "speed_squares": {"speed_squares": 5},
    "initiative_segment": {"initiative_segment": 4},
    "current": {"current": 9},
    "base_maximum": {"base_maximum": 25},
    "temporary": {"temporary": 4},
    "nonlethal": {"nonlethal": 3},
    "stabilised": {"current": -3, "stabilised": True},
    "dead": {"dead": True},
    "self_stabilise_turn": {"current": -3, "self_stabilise_turn": 0},
    "conditions": {"conditions": ["a_terre", "lenteur", "surpris"]},
    "surprise_segments": {"surprise_segments": 2},
    "surprised_for": {"surprised_for": 5},
    "fatigue": {"fatigue": 2},
    "armour": {"armour": "legere"},
    "shield": {"shield": True},
    "natural_armour": {"natural_armour": 6},
    "damage_reductions": {"damage_reductions": "5/argent, 2/−"},
    "energy_resistances": {"energy_resistances": "feu 5"},
    "magic_resistance": {"magic_resistance": 12},
    "light": {"light": "obscurite"},
    "darkvision_m": {"darkvision_m": 18},
    "burning": {"burning": False},
    "burning_for": {"burning_for": 7},
    "suffocating_for": {"suffocating_for": 5},
    "exposure": {"exposure": "chaleur"},
    "exposure_for": {"exposure_for": 60},
    "exposure_save_dd": {"exposure_save_dd": 12},
    "privations": {"privations": ["water"]},
    "hungry_for": {"hungry_for": 100},
    "thirsty_for": {"thirsty_for": 100},
    "sleepless_for": {"sleepless_for": 100},
    "nonlethal_for": {"nonlethal_for": 100},
    # States put for a while (rules/timers.py, issue 10 item 23).
    "condition_timers": {
        "conditions": ("surpris", "etourdi"),
        "condition_timers": ({"condition": "etourdi", "ends_at": 3660, "unit": "minute", "label": "1 minute"},),
    },
}


def test_every_field_has_an_edit_case() -> None:
    assert set(CHANGES) == set(FIELDS)


@pytest.mark.parametrize("field", FIELDS)
def test_every_field_edits_in_the_sheets_words(field: str) -> None:
    out = rules.apply(BASE, rules.Edit(changes=CHANGES[field]), rng=random.Random(1))
    assert getattr(out.sheet, field) != getattr(BASE, field)
    journal = "\n".join(out.log)
    assert journal
    assert leaks(journal) == [], journal
    # Each line names a field by its label, capitalised, never the identifier.
    assert not any(line.split(" : ")[0] == field for line in out.log)


BAD_VALUES: list[Any] = [{"x": 1}, 10**400, -(10**400), "x" * 200, [1, 2], 2.5]


@pytest.mark.parametrize("field", FIELDS)
def test_every_bad_value_is_refused_in_french(field: str) -> None:
    refused = 0
    for value in BAD_VALUES:
        try:
            rules.apply(BASE, rules.Edit(changes={field: value}))
        except rules.Refused as exc:
            refused += 1
            assert leaks(exc.reason) == [], (field, value, exc.reason)
    assert refused >= 4


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("conditions", ["ljnteur"]),
        ("conditions", ["epuise"]),
        ("armour", "plaques"),
        ("light", "crépuscule"),
        ("exposure", "pluie"),
        ("privations", ["air"]),
        ("damage_reductions", "5/bois"),
        ("damage_reductions", "cinq"),
        ("energy_resistances", "poison 5"),
        ("energy_resistances", "feu -5"),
        ("fatigue", 4),
        ("stabilised", True),
        ("self_stabilise_turn", 400),
        ("burning_for", 99_999),
        ("hungry_for", 10),
        ("exposure_save_dd", 0),
        ("current", 30),
    ],
)
def test_values_the_rules_refuse_are_refused_in_french(field: str, value: Any) -> None:
    s = rules.evolve(BASE, burning=False, privations=())
    with pytest.raises(rules.Refused) as err:
        rules.apply(s, rules.Edit(changes={field: value}))
    assert leaks(err.value.reason) == [], err.value.reason


DYING = rules.new_sheet("segments", name="Brune", current=-3, constitution=12)
DEAD = rules.new_sheet("segments", name="Brune", current=-12, constitution=12, dead=True)
FINE = rules.new_sheet("segments", name="Brune", current=20, base_maximum=20)
REFUSALS: list[tuple[Any, rules.Action]] = [
    (FINE, rules.Damage(amount=3, damage_type="fue")),
    (FINE, rules.Damage(amount=-3)),
    (FINE, rules.Damage(amount="1d6")),
    (DEAD, rules.Heal(amount=3)),
    (FINE, rules.Heal(amount=-3)),
    (DEAD, rules.GainTemporary(amount=3)),
    (FINE, rules.GainTemporary(amount=-3)),
    (FINE, rules.SetCondition(condition="ljnteur")),
    (FINE, rules.SetCondition(condition="epuise", active=False)),
    (DEAD, rules.SetCondition(condition="lenteur")),
    (rules.evolve(FINE, light="obscurite"), rules.SetCondition(condition="aveugle", active=False)),
    (FINE, rules.ClearConditions(include=("ljnteur",))),
    (DEAD, rules.Stabilise(method="ally")),
    (DYING, rules.Stabilise(method="first_aid")),
    (DYING, rules.Stabilise(method="prière")),
    (FINE, rules.Stabilise(method="ally")),
    (rules.evolve(DYING, stabilised=True), rules.Stabilise(method="ally")),
    (rules.evolve(DYING, self_stabilise_turn=0), rules.Stabilise(method="self", rolls=(3,))),
    (DEAD, rules.SetFatigue(level=2)),
    (DEAD, rules.AddFatigue()),
    (DEAD, rules.StandUp()),
    (FINE, rules.StandUp()),
    (rules.evolve(DYING, conditions=("a_terre",)), rules.StandUp()),
    (DEAD, rules.SetSurprise(segments=2)),
    (DEAD, rules.Fall(metres=9)),
    (FINE, rules.Fall(metres=9, rolls=(99,))),
    (DEAD, rules.SetSuffocating()),
    (DEAD, rules.SetBurning()),
    (FINE, rules.Extinguish()),
    (rules.evolve(DYING, burning=True), rules.Extinguish(method="roll")),
    (DEAD, rules.SetExposure(exposure="froid")),
    (DEAD, rules.SetPrivation(need="food")),
    (FINE, rules.AdvanceTime(unit="round")),
    (rules.evolve(FINE, burning=True), rules.AdvanceTime(unit="day", count=100_000)),
    (rules.evolve(FINE, clock=31_536_000_000 - 5), rules.AdvanceTime(unit="turn")),
    (DEAD, rules.LongRest()),
    (DYING, rules.LongRest()),
    (rules.evolve(FINE, burning=True), rules.LongRest()),
    (rules.evolve(FINE, suffocating_for=0), rules.LongRest()),
    (FINE, rules.LongRest(hours=2)),
    (FINE, rules.Edit(changes={"system": "d20"})),
    (FINE, rules.ShortRest()),
]


@pytest.mark.parametrize(("start", "action"), REFUSALS)
def test_every_refusal_is_french(start: Any, action: rules.Action) -> None:
    with pytest.raises(rules.Refused) as err:
        rules.apply(start, action)
    assert err.value.reason
    assert leaks(err.value.reason) == [], err.value.reason


ENGOURDI = rules.new_sheet("segments", name="Brune", current=14, base_maximum=20, conditions=("engourdi",))
JOURNEYS: list[tuple[Any, list[rules.Action]]] = [
    (
        FINE,
        [
            rules.Damage(amount="2d6", hits=3, damage_type="tranchant, argent"),
            rules.Damage(amount=8, nonlethal=True),
            rules.GainTemporary(amount=5),
            rules.Damage(amount=9, damage_type="feu"),
            rules.SetCondition(condition="surpris"),
            rules.StartTurn(),
            rules.EndRound(),
            rules.Fall(metres=12, agility_dd=12),
            rules.StandUp(),
            rules.SetBurning(),
            rules.AdvanceTime(unit="turn", count=2),
            rules.Extinguish(method="roll"),
            rules.SetExposure(exposure="froid", save_dd=12),
            rules.SetPrivation(need="water"),
            rules.AdvanceTime(unit="hour", count=30),
            rules.LongRest(),
            rules.SetSuffocating(),
            rules.AdvanceTime(unit="turn", count=25),
        ],
    ),
    (
        DYING,
        [
            rules.StartTurn(),
            rules.EndRound(),
            rules.Stabilise(method="ally"),
            rules.Damage(amount=2),
            rules.AdvanceTime(unit="segment", count=3),
            rules.Heal(amount=30),
            rules.ClearConditions(),
            rules.SetFatigue(level=3),
            rules.AddFatigue(),
            rules.SetFatigue(level=1),
        ],
    ),
    (
        ENGOURDI,
        [
            rules.Damage(amount=5),
            rules.Damage(amount=3, nonlethal=True),
            rules.Heal(amount=2),
            rules.Edit(changes={"current": 2, "armour": "lourde", "conditions": ["engourdi", "a_terre"]}),
            rules.Damage(amount=12),
            rules.AdvanceTime(unit="turn", count=2),
            rules.StartTurn(),
            rules.EndRound(),
        ],
    ),
]


@pytest.mark.parametrize(("start", "actions"), JOURNEYS)
def test_every_journal_line_is_french(start: Any, actions: list[rules.Action]) -> None:
    rng = random.Random(3)
    sheet, lines = start, []
    for action in actions:
        try:
            out = rules.apply(sheet, action, rng=rng)
        except rules.Refused as exc:
            lines.append(exc.reason)
            continue
        sheet = out.sheet
        lines.extend(out.log)
    assert len(lines) > len(actions)
    for line in lines:
        assert leaks(line) == [], line


@pytest.mark.parametrize(
    "action",
    [
        rules.Damage(amount=2),
        rules.Stabilise(method="ally"),
        rules.SetSuffocating(),
        rules.StandUp(),
        rules.Extinguish(method="roll"),
        rules.SetPrivation(need="food"),
    ],
)
def test_the_journal_speaks_of_the_character_without_gender(action: rules.Action) -> None:
    """Sheets are of every gender: no « il », « elle », « mort », « stabilisé », « privé » about the character."""
    starts = [DYING, rules.evolve(FINE, conditions=("a_terre",), burning=True), DEAD]
    gendered = re.compile(r"\b(il|elle|ils|elles|lui|mort|morte|stabilisée?|privée?|exposée?|seule?)\b")
    for start in starts:
        try:
            out = rules.apply(start, action, rng=random.Random(2))
        except rules.Refused as exc:
            assert not gendered.search(exc.reason), exc.reason
            continue
        for line in out.log:
            assert not gendered.search(line), line
