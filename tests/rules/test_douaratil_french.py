"""Douaratil: every text a user can read is French, with the sheet's labels (issue 13, item 18).

Every stored field goes through ``Edit`` (and through refused values), every refusal of the rules is
provoked: no code identifier, no English word, no gendered adjective about the character reaches the
journal or a message.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

import rules

TABLE = rules.ruleset("douaratil")
INFO = rules.describe("douaratil")
SHEET_FIELDS = [n for n in rules.DouaratilSheet.model_fields if n != "system"]

# Words of the French labels the sheet shows: an identifier that is also one of them may appear.
_LABELS = [
    *(f.label for f in INFO.fields),
    *(c.label for c in INFO.conditions),
    *(w.label for w in INFO.wound_types),
    *(u.label for u in INFO.time_units),
    *TABLE.paths.values(),
    *(s.label for s in TABLE.severities.values()),
    *rules.system("douaratil").field_labels.values(),
    *(label for _, label in INFO.extra["ability_choices"]),
    *(str(f.title) for t in INFO.actions for f in t.model_fields.values() if f.title),
]
FRENCH = {w.lower() for label in _LABELS for w in re.findall(r"[^\W\d_]+", label)}
WORD = re.compile(r"[^\W\d][\w]*")
IDS = {
    *SHEET_FIELDS,
    *(n for model in (rules.DouaratilSheet,) for n in model.model_fields),
    "base_maximum",
    "current",
    "type",
    "severity",
    "rests",
    "bleeding",
    "note",
    *TABLE.conditions,
    *TABLE.wounds,
    *TABLE.severities,
    *TABLE.time_units,
    *(p for p in TABLE.paths if p),
    *(a for a, _ in INFO.extra["ability_choices"]),
    *(n for t in INFO.actions for n in t.model_fields),
    "first_aid",
}
ENGLISH = {
    "none", "true", "false", "or", "and", "the", "must", "should", "be", "is", "not", "value", "input",
    "field", "error", "invalid", "valid", "integer", "string", "expected", "required", "missing", "greater",
    "less", "than", "equal", "cannot", "unable", "parse", "at", "least", "most", "characters", "dict",
    "object", "tuple", "list", "of", "to", "with", "from", "unknown", "dead", "alive", "unconscious",
}  # fmt: skip
GENDERED = re.compile(
    r"\b(est|reste|devient|demeure|sont|semble)\s+(déjà\s+)?(mort|morte|inconscient|inconsciente|stabilisé|"
    r"stabilisée|soigné|soignée|blessé|blessée|épuisé|épuisée|réveillé|réveillée|assommé|assommée)\b",
    re.IGNORECASE,
)


def assert_french(text: str, allowed: tuple[str, ...] = ()) -> None:
    """No identifier (unless it is a French label word), no English word, no gendered adjective."""
    allow = {a.lower() for a in allowed}
    for token in WORD.findall(text):
        word = token.lower()
        if word in allow:
            continue
        assert not ("_" in token and token.lower() == token), f"identifier {token!r} in {text!r}"
        if word in IDS and word not in FRENCH:
            raise AssertionError(f"identifier {token!r} in {text!r}")
        assert word not in ENGLISH, f"English {token!r} in {text!r}"
    assert not GENDERED.search(text), f"gendered wording in {text!r}"


def sheet(**fields: Any) -> Any:
    base: dict[str, Any] = {"name": "Brenna", "level": 3, "base_maximum": 20, "constitution": 10}
    base.update(fields)
    return rules.new_sheet("douaratil", **base)


def dying(**fields: Any) -> Any:
    return sheet(current=0, conditions=("inconscient",), **fields)


def stabilised() -> Any:
    return rules.apply(dying(), rules.Stabilise(method="magic", rolls=(2,))).sheet


# Each stored field with a sheet where a new value is valid, and that value.
EDITS: dict[str, tuple[Any, dict[str, Any]]] = {
    "name": (sheet(), {"name": "Brenna la Rousse"}),
    "player": (sheet(), {"player": "Camille"}),
    "level": (sheet(), {"level": 4}),
    "notes": (sheet(), {"notes": "Cicatrice au bras"}),
    "is_npc": (sheet(), {"is_npc": True}),
    "clock": (sheet(), {"clock": 93_784}),
    "xp": (sheet(), {"xp": 500}),
    "path": (sheet(), {"path": "magie"}),
    **{a: (sheet(), {a: 13}) for a in ("strength", "dexterity", "constitution", "intelligence", "wisdom", "charisma")},
    "current": (sheet(), {"current": 5}),
    "base_maximum": (sheet(), {"base_maximum": 12}),
    "temporary": (sheet(), {"temporary": 4}),
    **{p: (sheet(), {p: {"current": 2, "base_maximum": 5}}) for p in ("magic", "faith", "honour", "sanity")},
    "action_die": (sheet(), {"action_die": 6}),
    "action_dice_spent": (sheet(), {"action_dice_spent": 1}),
    "speed_m": (sheet(), {"speed_m": 12}),
    "exhaustion": (sheet(), {"exhaustion": 2}),
    "conditions": (sheet(), {"conditions": ("a_terre", "etourdi")}),
    "unconscious_rounds": (sheet(conditions=("inconscient",)), {"unconscious_rounds": 3}),
    "death_successes": (dying(), {"death_successes": 1}),
    "death_failures": (dying(), {"death_failures": 2}),
    "stabilised": (dying(), {"stabilised": True}),
    "wake_in": (stabilised(), {"wake_in": 1800}),
    "dead": (sheet(), {"dead": True}),
    "dies_at_zero": (sheet(), {"dies_at_zero": True}),
    "dies_after_rounds": (sheet(), {"dies_after_rounds": True}),
    "death_in_rounds": (
        sheet(current=0, dies_at_zero=True, dies_after_rounds=True, death_in_rounds=2),
        {"death_in_rounds": 4},
    ),
    "critical_threshold": (sheet(), {"critical_threshold": 8}),
    "wounds": (sheet(), {"wounds": ({"id": 1, "type": "hemorragie", "severity": "major", "bleeding": True},)}),
    "scars": (sheet(), {"scars": ({"type": "ecrasement", "severity": "minor"},)}),
    "last_long_rest_end": (sheet(clock=86_400), {"last_long_rest_end": 3600}),
    "short_rest_open": (sheet(), {"short_rest_open": True}),
    "constitution_priority": (sheet(constitution=8), {"constitution_priority": True}),
    "heroic_survivals": (sheet(), {"heroic_survivals": 1}),
    # States put for a while (rules/timers.py, issue 10 item 23).
    "condition_timers": (
        sheet(conditions=("aveugle",)),
        {"condition_timers": ({"condition": "aveugle", "ends_at": 60, "unit": "round", "label": "10 rounds"},)},
    ),
}


def test_every_stored_field_has_an_edit_here() -> None:
    assert sorted(EDITS) == sorted(SHEET_FIELDS)


@pytest.mark.parametrize("field", SHEET_FIELDS)
def test_every_field_edited_is_journaled_in_french_with_its_label(field: str) -> None:
    start, changes = EDITS[field]
    out = rules.apply(start, rules.Edit(changes=changes), rng=random.Random(1))
    assert out.log, field
    label = rules.system("douaratil").field_labels[field]
    assert out.log[0].startswith(label[:1].upper() + label[1:] + " : "), out.log
    for line in out.log:
        assert_french(line, allowed=("Brenna", "Rousse", "Camille"))


def test_the_journal_of_an_edit_shows_values_as_the_sheet_does() -> None:
    """The lines the issue found with field names in them, now with the sheet's labels."""
    lines = []
    for field in ("critical_threshold", "path", "action_die", "dies_at_zero", "is_npc", "action_dice_spent", "clock"):
        start, changes = EDITS[field]
        lines += rules.apply(start, rules.Edit(changes=changes)).log
    assert lines == [
        "Seuil de critique (SC) : aucun → 8.",
        "Voie : « aucune voie » → « voie de la magie ».",
        "Dé d'action (faces) : 8 → 6.",
        "Meurt à 0 PA (monstre) : non → oui.",
        "PNJ : non → oui.",
        "Dés d'action dépensés : 0 → 1.",
        "Horloge de la fiche : 0 s → 1 j 2 h 3 min 4 s.",
    ]


# Each stored field with values an edit must refuse.
BAD_VALUES: dict[str, tuple[Any, ...]] = {
    "level": ("abc", 0, 101, 2.5, None),
    "path": ("voleur", 3),
    "xp": (-1, 10**9),
    "current": (-1, "beaucoup", 10**6),
    "base_maximum": (-5, 10**6),
    "temporary": (-1,),
    "magic": ("abc", {"current": -1, "base_maximum": 3}, {"current": 1, "base_maximum": "x"}),
    "action_die": (1, 101),
    "action_dice_spent": (-1, 99),
    "speed_m": (-1, 5000),
    "exhaustion": (7, 20, -1),
    "conditions": (("volant",), "inconscient"),
    "unconscious_rounds": (3, -1),
    "death_successes": (1, 3),
    "death_failures": (1, 4),
    "stabilised": (True,),
    "wake_in": (600, 0),
    "death_in_rounds": (2, 0),
    "critical_threshold": (-3, "seuil"),
    "wounds": (
        ({"id": 1, "type": "brulure"},),
        ({"id": 1, "type": "plaie", "severity": "grave"},),
        ({"id": 1, "type": "plaie"}, {"id": 1, "type": "plaie"}),
        ({"id": 0, "type": "plaie"},),
        "plaie",
    ),
    "scars": (({"type": "brulure"},),),
    "clock": (-1, 10**15),
    "last_long_rest_end": (3600,),
    "constitution_priority": (True,),
    "name": ("x" * 201,),
    "dead": ("peut-être",),
}
USER_WORDS = ("abc", "beaucoup", "voleur", "volant", "seuil", "brulure", "grave", "plaie", "peut", "être", "x", "xxxxx")


@pytest.mark.parametrize("field", sorted(BAD_VALUES))
def test_refused_values_are_said_in_french(field: str) -> None:
    for bad in BAD_VALUES[field]:
        with pytest.raises(rules.Refused) as err:
            rules.apply(sheet(clock=0), rules.Edit(changes={field: bad}))
        message = err.value.reason
        assert message.startswith("Valeur refusée : «"), message
        assert_french(message, allowed=(*USER_WORDS, "x" * 201))


def _refusals() -> list[tuple[str, Any, rules.Action, Any]]:
    """Every refusal of the Douaratil rules, provoked (name, sheet, action, table)."""
    alive, dead = sheet(), sheet(current=0, dead=True)
    orc = sheet(name="Orque", dies_at_zero=True, current=0, death_in_rounds=None, is_npc=True)
    bleeding = rules.apply(sheet(), rules.AddWound(wound_type="plaie", bleeding=True)).sheet
    bruised = rules.apply(sheet(), rules.AddWound(wound_type="contusion")).sheet
    full = rules.evolve(sheet(), wounds=tuple(rules.evolve(bruised.wounds[0], id=i) for i in range(1, 201)))
    return [
        ("no wound", alive, rules.HealWound(wound_id=3), None),
        ("dead heal", dead, rules.Heal(amount=2), None),
        ("nonlethal", alive, rules.Damage(amount=2, nonlethal=True), None),
        ("negative damage", alive, rules.Damage(amount=-2), None),
        ("negative heal", alive, rules.Heal(amount=-2), None),
        ("negative temporary", alive, rules.GainTemporary(amount=-2), None),
        ("unknown condition", alive, rules.SetCondition(condition="volant"), None),
        ("implied", rules.apply(alive, rules.SetCondition(condition="paralyse")).sheet,
         rules.SetCondition(condition="neutralise", active=False), None),
        ("kept at zero", dying(), rules.SetCondition(condition="inconscient", active=False), None),
        ("unknown in clear", alive, rules.ClearConditions(include=("volant",)), None),
        ("death save above zero", alive, rules.DeathSave(rolls=(10,)), None),
        ("death save stabilised", stabilised(), rules.DeathSave(rolls=(10,)), None),
        ("death save monster", orc, rules.DeathSave(rolls=(10,)), None),
        ("stabilise above zero", alive, rules.Stabilise(), None),
        ("stabilise twice", stabilised(), rules.Stabilise(), None),
        ("stabilise monster", orc, rules.Stabilise(), None),
        ("stabilise method", dying(), rules.Stabilise(method="priere"), None),
        ("wake not unconscious", alive, rules.WakeSave(rolls=(10,)), None),
        ("wake at zero", dying(), rules.WakeSave(rolls=(10,)), None),
        ("no die left", rules.evolve(sheet(level=1, current=5, action_dice_spent=1), short_rest_open=True),
         rules.SpendActionDie(rolls=(3,)), None),
        ("die outside a rest", alive, rules.SpendActionDie(rolls=(3,)), None),
        ("unknown wound type", alive, rules.AddWound(wound_type="brulure"), None),
        ("wound cannot bleed", alive, rules.AddWound(wound_type="fracture", bleeding=True), None),
        ("too many wounds", full, rules.AddWound(wound_type="plaie"), None),
        ("bleeds already", bleeding, rules.WoundRisk(wound_id=1), None),
        ("no risk", bruised, rules.WoundRisk(wound_id=1), None),
        ("set bleeding", bruised, rules.SetWoundBleeding(wound_id=1, bleeding=True), None),
        ("heroic alive", alive, rules.HeroicSurvival(
            action_points_lost=0, magic_lost=0, faith_lost=0, honour_lost=0, xp_minimum=0), None),
        ("heroic npc", rules.evolve(dead, is_npc=True), rules.HeroicSurvival(
            action_points_lost=0, magic_lost=0, faith_lost=0, honour_lost=0, xp_minimum=0), None),
        ("heroic level 1", rules.evolve(dead, level=1), rules.HeroicSurvival(
            action_points_lost=0, magic_lost=0, faith_lost=0, honour_lost=0, xp_minimum=0), None),
        ("edit at zero", dying(), rules.Edit(changes={"conditions": ()}), None),
        ("unknown unit", alive, rules.AdvanceTime(unit="siecle"), None),
        ("clock end", sheet(clock=10**12 - 1), rules.AdvanceTime(unit="day"), None),
        ("short rest length", alive, rules.ShortRest(hours=0), None),
        ("short rest at zero", dying(), rules.ShortRest(), None),
        ("rest while bleeding", bleeding, rules.LongRest(), None),
        ("too many dice", alive, rules.ShortRest(dice=9), None),
        ("long rest length", alive, rules.LongRest(hours=6), None),
        ("long rest twice", rules.evolve(sheet(clock=3600 * 10), last_long_rest_end=3600 * 8), rules.LongRest(), None),
        ("unknown field", alive, rules.Edit(changes={"vitesse": 3}), None),
        ("system", alive, rules.Edit(changes={"system": "d20"}), None),
        ("damage dice", alive, rules.Damage(amount="1d0"), None),
        ("dead test", dead, rules.AbilityCheck(ability="wisdom"), None),
        ("dead will test", dead, rules.WillTest(wound_id=1), None),
    ]  # fmt: skip


@pytest.mark.parametrize("case", _refusals(), ids=lambda c: c[0])
def test_every_refusal_is_said_in_french(case: tuple[str, Any, rules.Action, Any]) -> None:
    _name, start, action, table = case
    with pytest.raises(rules.Refused) as err:
        rules.apply(start, action, rng=random.Random(1), rules_table=table)
    typed = ("volant", "priere", "brulure", "siecle", "vitesse", "Brenna", "Orque", "d20")
    assert_french(err.value.reason, allowed=typed)


@pytest.mark.parametrize(
    ("action_type", "fields"),
    [
        (rules.AbilityCheck, {"ability": "luck"}),
        (rules.AbilityCheck, {"ability": "wisdom", "dd": "moyen"}),
        (rules.AddWound, {"wound_type": "plaie", "severity": "grave"}),
        (rules.AddWound, {}),
        (rules.WillTest, {"wound_id": 0}),
        (rules.WoundRisk, {}),
        (rules.SetExhaustion, {"level": 30}),
        (rules.AddExhaustion, {"levels": "deux"}),
        (rules.HeroicSurvival, {"xp_minimum": -1}),
        (rules.SetWoundBleeding, {"wound_id": 1}),
    ],
)
def test_refused_action_fields_are_said_in_french(action_type: type[rules.Action], fields: dict[str, Any]) -> None:
    with pytest.raises(rules.SheetError) as err:
        rules.build_action(action_type, **fields)
    assert_french(err.value.reason, allowed=("luck", "moyen", "grave", "deux"))


def test_a_played_story_is_told_in_french() -> None:
    """Every journal line of a long random story (rests, wounds, dying, healing, tests…)."""
    rng = random.Random(7)
    s = rules.demo_sheet("douaratil")
    actions = [
        rules.Damage(amount="2d6+3"), rules.AddWound(wound_type="plaie", severity="major"), rules.WoundRisk(wound_id=1),
        rules.AdvanceTime(unit="round", count=3), rules.SetWoundBleeding(wound_id=1, bleeding=False),
        rules.Damage(amount=30), rules.AdvanceTime(unit="round", count=4), rules.Stabilise(method="first_aid"),
        rules.AdvanceTime(unit="hour", count=7), rules.Heal(amount=5), rules.ShortRest(dice=1), rules.SpendActionDie(),
        rules.AbilityCheck(ability="strength"), rules.WillTest(wound_id=1), rules.SetExhaustion(level=3),
        rules.LongRest(), rules.GainTemporary(amount=6), rules.ClearConditions(), rules.AdvanceTime(unit="day"),
        rules.LongRest(ate_and_drank=False), rules.HealWound(wound_id=1), rules.StartTurn(), rules.EndRound(),
    ]  # fmt: skip
    told = []
    for action in actions:
        try:
            out = rules.apply(s, action, rng=rng)
        except rules.Refused as exc:
            told.append(exc.reason)
            continue
        s = out.sheet
        told += out.log
    assert len(told) > 40
    for line in told:
        assert_french(line, allowed=("Ulfred",))


@pytest.mark.parametrize(
    "bad",
    [
        "Critical_threshold : None → 8.",
        "Path : « » → « magie ».",
        "Is_npc : non → oui.",
        "« action_die » : doit être supérieur ou égal à 2",
        "« voie » : doit être l'une des valeurs : '', 'magie' or 'armes'",
        "Brenna est mort (3 échecs).",
        "Brenna reste inconsciente.",
        "Hémorragie (major)",
    ],
)
def test_the_checker_catches_what_the_issue_found(bad: str) -> None:
    with pytest.raises(AssertionError):
        assert_french(bad)
