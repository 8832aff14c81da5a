"""d20: everything a user reads is French, in the sheet's own words, and never gendered (issue 13 item 18).

Every stored field goes through ``Edit``, every refusal path of the d20 rules is walked, and the journal
lines, refusals and derived explanations are searched for code identifiers, English words and sentences
that give the character a gender (« Brenna est mort »: the sheet does not say how to refer to Brenna).
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

import rules

TABLE = rules.ruleset("d20")
FIELDS = set(rules.D20Sheet.model_fields)
# Field names that are also French words (« notes », « Constitution », « intelligence »).
FRENCH_FIELDS = {"notes", "constitution", "intelligence"}
# Ids of the rule table and of the sheet's values that are not French words as they are spelt.
TABLE_IDS = {i for i in (*TABLE.conditions, *TABLE.body_parts, *TABLE.health_states, *TABLE.time_units) if "_" in i}
VALUE_IDS = {"alone", "assisted", "awake", "alone_awake", "ritual", "quick", "first_aid", "tete", "oeil"}
ENGLISH = {
    "none", "true", "false", "the", "and", "or", "of", "to", "is", "must", "value", "values", "input", "should",
    "be", "field", "error", "unknown", "invalid", "expected", "not", "with", "for", "cannot", "roll", "sided",
    "die", "dice", "current", "temporary", "nonlethal", "recovery", "dead", "wounds", "conditions", "level",
    "name", "player", "clock", "strength", "dexterity", "wisdom", "charisma", "fortitude", "hits", "amount",
    "unit", "count", "item", "items", "list", "model", "object", "string",
}  # fmt: skip
# « il », « elle » about the character, or an adjective that agrees with a name (a state's label, capitalised, is
# a name: « l'état reste Mourant » is fine).
GENDERED = re.compile(
    r"\b([Ii]l|[Ee]lle)\b|\b(est|reste|devient|redevient)\s+(morte?|mourante?|stabilisée?|inconsciente?|seule?|"
    r"éveillée?|soignée?|blessée?)\b"
)


def problems(text: str) -> list[str]:
    """Identifiers, English words and gendered phrasings found in ``text`` (a line a user reads)."""
    found = []
    for word in re.findall(r"[\w']+", text):
        bare = word.split("'")[-1]
        if (
            "_" in bare
            or (bare in FIELDS and bare not in FRENCH_FIELDS)
            or bare in TABLE_IDS
            or bare in VALUE_IDS
            or bare.lower() in ENGLISH
        ):
            found.append(word)
    found += [m.group(0) for m in GENDERED.finditer(text)]
    return found


def assert_french(texts: list[str] | tuple[str, ...], where: object) -> None:
    for text in texts:
        assert not problems(text), (where, text, problems(text))


def healthy() -> rules.D20Sheet:
    return rules.new_sheet(
        "d20", name="Brenna", level=3, base_maximum=30, current=20, temporary=3, temporary_noted=20, nonlethal=2
    )


def dying() -> rules.D20Sheet:
    s = rules.new_sheet("d20", name="Brenna", level=3, base_maximum=30, current=0)
    return rules.apply(s, rules.Damage(amount=3)).sheet


def dead() -> rules.D20Sheet:
    return rules.apply(healthy(), rules.Damage(amount=40)).sheet


# A new value for every stored field (some refused on some sheets: the refusal must be French too).
EDITS: dict[str, Any] = {
    "system": "segments",
    "name": "Brenna la Rouge",
    "player": "Sacha",
    "level": 4,
    "notes": "Garde du pont",
    "is_npc": True,
    "clock": 3600,
    **{a: 12 for a in ("strength", "dexterity", "constitution", "intelligence", "wisdom", "charisma")},
    **{f"{a}_damage": 1 for a in ("strength", "dexterity", "constitution", "intelligence", "wisdom", "charisma")},
    **{f"{a}_drain": 1 for a in ("strength", "dexterity", "constitution", "intelligence", "wisdom", "charisma")},
    "constitution_bonus": 2,
    "fortitude": 3,
    "base_maximum": 25,
    "current": 5,
    "temporary": 4,
    "temporary_noted": 18,
    "nonlethal": 6,
    "recovery": "alone",
    "dying_roll_at": 6,
    "recovery_roll_at": 3600,
    "nonlethal_heal_at": 7200,
    "last_rest_at": 0,
    "dead": True,
    "death_cause": "chute",
    "conditions": ("chancelant", "sans_defense"),
    "wounds": ({"id": 1, "body_part": "oeil_gauche", "note": "flèche"},),
    "weapon_lethal": False,
    "weapon_melee": False,
    "strike_nonlethal": True,
    "resurrections": 2,
    "quick_failures": 1,
    "quick_blocked": True,
    "soul_lost": True,
    # States put for a while (rules/timers.py, issue 10 item 23).
    "condition_timers": ({"condition": "sans_defense", "ends_at": 60, "unit": "round", "label": "10 rounds"},),
}


def test_every_field_is_walked() -> None:
    assert set(EDITS) == FIELDS


@pytest.mark.parametrize("start", [healthy, dying, dead], ids=["valide", "mourant", "mort"])
def test_every_field_edited_speaks_french(start: Any) -> None:
    """“The journal of … edits shows field names … a d20 recovery edit logs “alone”. Every text a user can see is
    French and uses the labels the sheet shows” (issue 13 item 18)."""
    sheet = start()
    applied = 0
    for field, value in EDITS.items():
        try:
            out = rules.apply(sheet, rules.Edit(changes={field: value}), rng=random.Random(1))
        except rules.SheetError as exc:
            assert_french(exc.lines, field)
            continue
        except rules.Refused as exc:
            assert_french([exc.reason], field)
            continue
        applied += 1
        assert out.log or out.sheet == sheet, field
        assert_french(out.log, field)
        d = rules.derive(out.sheet)
        assert_french([d.explain(name) for name in d], field)
    assert applied >= len(EDITS) * 2 // 3, applied


def test_edit_lines_use_the_sheet_labels_and_values() -> None:
    """“alone” and “Base_maximum” never reach the journal: the sheet's labels and values do."""
    s = dying()
    log = "\n".join(rules.apply(s, rules.Edit(changes={"recovery": "alone"})).log)
    assert "Récupération : aucune → stabilisation sans assistance, sans connaissance." in log
    log = "\n".join(rules.apply(healthy(), rules.Edit(changes={"base_maximum": 25, "wounds": EDITS["wounds"]})).log)
    assert "PV maximum : 30 → 25." in log
    assert "Blessures localisées : aucune → n° 1 Œil gauche (« flèche »)." in log
    log = "\n".join(rules.apply(healthy(), rules.Edit(changes={"conditions": ("chancelant",)})).log)
    assert "États : aucun → Chancelant." in log


def refusals() -> list[tuple[rules.D20Sheet, rules.Action]]:
    """Every way the d20 rules refuse an action (each ``raise Refused`` of rules/systems/d20)."""
    live, low, gone = healthy(), dying(), dead()
    zero = rules.new_sheet("d20", name="Brenna", base_maximum=10, current=0)
    stable = rules.apply(low, rules.Stabilise(method="magic")).sheet
    lost = rules.apply(gone, rules.Resurrection(rolls=(1,))).sheet
    blocked = rules.apply(gone, rules.Resurrection(procedure="quick", rolls=(1,))).sheet
    rested = rules.apply(live, rules.LongRest()).sheet
    cases: list[tuple[rules.D20Sheet, rules.Action]] = [
        (gone, action)
        for action in (
            rules.Heal(amount=3),
            rules.GainTemporary(amount=3),
            rules.SetCondition(condition="chancelant"),
            rules.Stabilise(),
            rules.StrenuousAction(),
            rules.AddLocalWound(body_part="tete"),
            rules.SetConstitutionBonus(level=2),
            rules.AbilityDamage(ability="wisdom", points=1),
            rules.RestoreAbility(ability="wisdom", points=1),
            rules.LongRest(),
            rules.FullDayRest(),
        )
    ]
    cases += [
        (live, rules.Damage(amount=-3)),
        (live, rules.Heal(amount=-3)),
        (live, rules.GainTemporary(amount=-3, replace=True)),
        (zero, rules.StrenuousAction(healing=-1)),
        (live, rules.Damage(amount=3, body_part="queue")),
        (live, rules.AddLocalWound(body_part="queue")),
        (live, rules.SetCondition(condition="ivre")),
        (live, rules.SetCondition(condition="mourant")),
        (live, rules.SetCondition(condition="stabilise")),
        (live, rules.SetCondition(condition="hors_de_combat")),
        (zero, rules.SetCondition(condition="hors_de_combat", active=False)),
        (live, rules.Stabilise()),
        (stable, rules.Stabilise(method="magic")),
        (low, rules.Stabilise(method="prière")),
        (live, rules.StrenuousAction()),
        (low, rules.StrenuousAction()),
        (live, rules.HealLocalWound(wound_id=9)),
        (live, rules.RestoreAbility(ability="wisdom", points=1)),
        (live, rules.Resurrection(procedure="souhait")),
        (gone, rules.Resurrection(procedure="souhait", contribution_successes=1)),
        (gone, rules.Resurrection(procedure="souhait", consents=False)),
        (gone, rules.Resurrection(consents=False)),
        (lost, rules.Resurrection()),
        (gone, rules.Resurrection(procedure="quick", contribution_failures=1)),
        (blocked, rules.Resurrection(procedure="quick")),
        (gone, rules.Resurrection(contribution_successes=2, contribution_failures=2)),
        (live, rules.LongRest(hours=6)),
        (low, rules.LongRest()),
        (low, rules.FullDayRest()),
        (rested, rules.LongRest()),
        (live, rules.AdvanceTime(unit="semaine")),
        (live, rules.ShortRest()),
        (low, rules.AdvanceTime(unit="round", count=2)),
        (low, rules.AdvanceTime(unit="round", count=2, rolls=(101,))),
        (live, rules.Damage(amount="1d0")),
        (live, rules.Edit(changes={"clock": 60})),
        (live, rules.Edit(changes={"current": 31})),
        (live, rules.Edit(changes={"soul_lost": True})),
        (live, rules.Edit(changes={"conditions": ("mourant",)})),
        (live, rules.Edit(changes={"wounds": ({"id": 1, "body_part": "queue"},)})),
        (live, rules.Edit(changes={"recovery": "perdu"})),
        (live, rules.Edit(changes={"couleur": "bleu"})),
    ]
    far = rules.new_sheet("d20", name="Brenna", clock=10**12 - 10)
    cases.append((far, rules.AdvanceTime(unit="full_day", count=1000)))
    return cases


def test_every_refusal_is_french_and_changes_nothing() -> None:
    """“errors say “action_die”, “path”, “… 'magie' or 'armes'”; "1d0" → “(Cannot roll a 0-sided die.)”
    … Every text a user can see is French” (issue 13 item 18), for each refusal of the d20 rules."""
    for sheet, action in refusals():
        before = sheet.model_dump()
        with pytest.raises(rules.Refused) as err:
            rules.apply(sheet, action)
        lines = getattr(err.value, "lines", None) or [err.value.reason]
        assert_french([err.value.reason, *lines], action)
        assert sheet.model_dump() == before


def test_journal_of_a_whole_story_is_french() -> None:
    """A story through every d20 action: each journal line and each derived explanation is French and never
    gives Brenna a gender (“Brenna meurt”, never “Brenna est mort”)."""
    rng = random.Random(7)
    s = healthy()
    story = [
        rules.Damage(amount=4, body_part="main_droite"),
        rules.Damage(amount=6, nonlethal=True),
        rules.GainTemporary(amount=5, replace=True),
        rules.SetCondition(condition="chancelant"),
        rules.ClearConditions(),
        rules.AbilityDamage(ability="constitution", points=2),
        rules.SetConstitutionBonus(level=4),
        rules.RestoreAbility(ability="constitution", points=2),
        rules.Damage(amount=24),
        rules.AdvanceTime(unit="hour", count=3),
        rules.Damage(amount=6),
        rules.StrenuousAction(),
        rules.Heal(amount=0, magical=True),
        rules.AdvanceTime(unit="round", count=3, rolls=(50, 5)),
        rules.AdvanceTime(unit="hour", count=3, rolls=(50, 50, 3)),
        rules.AdvanceTime(unit="day", count=2, rolls=(50, 4)),
        rules.LongRest(),
        rules.AdvanceTime(unit="night", count=2),
        rules.LoseTemporary(),
        rules.HealLocalWound(wound_id=1),
        rules.Damage(amount=80),
        rules.Resurrection(procedure="quick", caster_level=3, rolls=(2,)),
        rules.Resurrection(contribution_successes=3, rolls=(15,)),
        rules.Edit(changes={"base_maximum": 12}),
        rules.Damage(amount=5),
        rules.Stabilise(modifier=5, rolls=(12,)),
        rules.FullDayRest(),
    ]
    applied = 0
    for action in story:
        try:
            out = rules.apply(s, action, rng=rng)
        except rules.Refused as exc:
            assert_french([exc.reason], action)
            continue
        applied += 1
        assert_french(out.log, action)
        s = out.sheet
        d = rules.derive(s)
        assert_french([d.explain(name) for name in d], action)
    assert applied == len(story)


def test_the_checker_finds_what_it_looks_for() -> None:
    """The checks above can fail: each kind of problem is found."""
    assert problems("Récupération : « alone »") == ["alone"]
    assert problems("Base_maximum : 30 → 20") == ["Base_maximum"]
    assert problems("(Cannot roll a 0-sided die.)") == ["Cannot", "roll", "sided", "die"]
    assert problems("Brenna est mort.") == ["est mort"]
    assert problems("il ne perd plus de PV") == ["il"]
    assert problems("Brenna meurt (−10 PV).") == []
