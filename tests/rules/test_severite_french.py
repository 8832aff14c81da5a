"""Sévérité speaks French with the sheet's labels (issues 13 item 18, 14 item 5).

Every field of the sheet goes through ``Edit`` (good values and bad ones), every refusal of every
Sévérité action is provoked; no field id, no id of the rule table and no English word reaches the journal
or a message.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable
from typing import Any

import pytest

import rules
from rules.errors import FIELD_LABELS

RS = rules.ruleset("severite")

# English words pydantic, Python or a careless f-string would leak (none is a French word we use).
ENGLISH = frozenset(
    "the and or is not none true false value values error field input should must valid invalid string integer "
    "number list missing required expected greater less than equal cannot unable parse item items object dict "
    "tuple least most character characters turn turns hour hours day days wound wounds notches severity "
    "condition conditions timer timers sequel sequels dead clock equipment physique_ body part parts damage "
    "failed unknown extra forbidden permitted allowed instance".split()
)


def _table_ids() -> set[str]:
    ids: set[str] = set()
    for table in (
        RS.grades,
        RS.body_parts,
        RS.damage_types,
        RS.treatments,
        RS.success_levels,
        RS.tenacity_results,
        RS.conditions,
        RS.health_states,
        RS.time_units,
        RS.condition_groups,
        RS.power.grades,
    ):
        ids.update(table)
    return ids


def _model_fields() -> set[str]:
    names: set[str] = set()
    for model in (rules.SeveriteSheet, *(a for a in rules.describe("severite").actions)):
        names.update(model.model_fields)
    sheet = rules.demo_sheet("severite")
    names.update(type(sheet.wounds[0]).model_fields)
    names.update(type(sheet.equipment[0]).model_fields)
    names.update(type(sheet.equipment[0].protections[0]).model_fields)
    names.update(type(sheet.turn_timers[0]).model_fields)
    return names


def _label_words() -> set[str]:
    """Words of the French labels: an id spelt like its label (« torse », « physique ») is no leak."""
    info = rules.describe("severite")
    labels: list[str] = [f.label for f in info.fields]
    for table in (RS.grades, RS.body_parts, RS.damage_types, RS.treatments, RS.success_levels, RS.conditions):
        labels += [entry.label for entry in table.values()]
    labels += list(RS.time_labels.values())
    labels += [s.label for s in RS.health_states.values()] + [g.label for g in RS.power.grades.values()]
    labels += [r.label for r in RS.tenacity_results.values()]
    labels += [str(f.title) for a in info.actions for f in a.model_fields.values() if f.title]
    labels += list(FIELD_LABELS.values())
    labels += ["notes", "note", "diagnostic", "handicap", "mental"]
    return {w.lower() for text in labels for w in re.findall(r"[\wÀ-ÿ]+", text)}


IDENTIFIERS = (_table_ids() | _model_fields()) - _label_words()


def assert_french(texts: Iterable[str], given: Iterable[str] = ()) -> None:
    """No identifier and no English word in ``texts``; ``given`` are the user's own words, echoed back."""
    allowed = {w.lower() for g in given for w in re.findall(r"[\wÀ-ÿ]+", str(g))}
    for text in texts:
        assert text, "an empty line or message"
        for word in re.findall(r"[\wÀ-ÿ]+", text):
            lower = word.lower()
            if lower in allowed or lower.isdigit():
                continue
            assert "_" not in word, f"identifier {word!r} in {text!r}"
            assert lower not in IDENTIFIERS, f"identifier {word!r} in {text!r}"
            assert lower not in ENGLISH, f"English word {word!r} in {text!r}"


def _messages(exc: rules.Refused) -> list[str]:
    return [exc.reason, *getattr(exc, "lines", [])]


# --------------------------------------------------------------------------------------------------
# Every field of the sheet through Edit
# --------------------------------------------------------------------------------------------------

WOUND = {
    "id": 1,
    "grade": "grave",
    "notches": 3,
    "severity": 6,
    "body_part": "bras_gauche",
    "damage_type": "tranchant",
    "treatment": "bandage",
    "diagnosis": "Entaille",
    "handicap": "Boite",
    "handicap_penalty": -1,
    "note": "Sabre",
}
ARMOUR = {
    "name": "Brigandine",
    "body_parts": ["torse", "abdomen"],
    "protections": [{"damage_type": "tranchant", "modifier": 3}],
}

# field → (good values, bad values)
GOOD_AND_BAD: dict[str, tuple[list[Any], list[Any]]] = {
    "name": (["Ysolde", ""], [5, "x" * 201, None]),
    "player": (["Jonas"], [["a"], "x" * 201]),
    "level": ([3, 100], [0, 101, "trois", 1.5, 10**400]),
    "notes": (["Escorte du convoi", ""], ["x" * 20_001, 3]),
    "is_npc": ([True, False], ["peut-être", 3]),
    "clock": ([3_600, 93_784, 0], [-1, "midi", 10**400]),
    "physique": ([3, -10, 20], [21, -11, "fort", None]),
    "mental": ([1], [99, "x"]),
    "tenacity_skill": ([True], ["oui et non"]),
    "tenacity_bonus": ([2, -3], [21, "beaucoup"]),
    "equipment": (
        [[ARMOUR], [], [{**ARMOUR, "protections": [{"damage_type": "percant", "modifier": 2}]}]],
        [
            [{"name": "", "body_parts": []}],
            [{"name": "Casque", "body_parts": ["tete"], "protections": [{"damage_type": "tranchant", "modifier": 99}]}],
            [{"name": "Casque"}],
            [{"name": "Casque", "body_parts": ["tete"], "couleur": "rouge"}],
            "armure",
        ],
    ),
    "wounds": (
        [
            [WOUND],
            [],
            [{**WOUND, "notches": 2, "treatment": "operation", "handicap": "", "handicap_penalty": 0}],
            [WOUND, {"id": 2, "grade": "legere", "notches": 1}],
            [{**WOUND, "crippled": True, "ignored": True, "survived": True, "psychological": True}],
        ],
        [
            [WOUND, WOUND],
            [{**WOUND, "notches": -1}],
            [{**WOUND, "id": 0}],
            [{**WOUND, "severity": 5000}],
            [{**WOUND, "handicap_penalty": 3}],
            [{"grade": "grave"}],
            [{**WOUND, "diagnosis": "x" * 501}],
            [{**WOUND, "balafre": True}],
            [{**WOUND, "id": "premier"}],
        ],
    ),
    "sequels": ([["Bras gauche : Membre invalide ou sectionné"], []], [["x" * 401], "bras", [3]]),
    "conditions": ([["tourmente"], ["hors_de_combat", "inebranlable"], []], ["tourmente", [5]]),
    "turn_timers": (
        [[{"condition": "tourmente", "turns": 1}], []],
        [[{"condition": "tourmente", "turns": 0}], [{"condition": "tourmente"}], [{"turns": 2}]],
    ),
    # States put for a while (rules/timers.py, issue 10 item 23).
    "condition_timers": ([[]], [[{"condition": "givre", "ends_at": 9000}], [{"ends_at": "demain"}]]),
    "dead": ([True, False], ["à moitié"]),
    "last_rest_end": ([None, 0], [-5, "hier"]),
}


def test_every_field_of_the_sheet_is_walked() -> None:
    """The table above covers every stored field but the system, which never changes."""
    assert set(GOOD_AND_BAD) == set(rules.SeveriteSheet.model_fields) - {"system"}


def _start() -> Any:
    s = rules.demo_sheet("severite")
    return rules.apply(s, rules.Edit(changes={"clock": 7_200, "last_rest_end": 0})).sheet


@pytest.mark.parametrize("field", sorted(GOOD_AND_BAD))
def test_edit_journal_and_refusals_speak_the_sheets_language(field: str) -> None:
    start = _start()
    good, bad = GOOD_AND_BAD[field]
    given: list[str] = ["Maëlle", "Corbier", "Jonas", "Ysolde", "Escorte", "convoi", "Brigandine", "Casque", "nasal"]
    given += ["Entaille", "Sabre", "Boite", "Peine", "tenir", "son", "bouclier", "Coup", "gourdin"]
    journal: list[str] = []
    for value in good:
        changes = {field: value}
        if field == "conditions":
            changes["turn_timers"] = [{"condition": "tourmente", "turns": 2}] if "tourmente" in value else []
        if field == "turn_timers":
            changes["conditions"] = ["tourmente"] if value else []
        out = rules.apply(start, rules.Edit(changes=changes))
        assert rules.sheet_from_json(rules.sheet_to_json(out.sheet)) == out.sheet
        journal += out.log
        start_json = rules.sheet_to_json(start)
        assert rules.sheet_to_json(out.sheet) != start_json or not out.log
    assert_french(journal, given)
    for value in bad:
        with pytest.raises(rules.Refused) as err:
            rules.apply(start, rules.Edit(changes={field: value}))
        # The value the user typed may come back quoted; nothing else may be English or an id.
        echoed = [str(value)] if isinstance(value, str) else []
        assert_french(_messages(err.value), given + echoed + ["rouge", "couleur", "balafre", "premier"])


def test_edit_journal_names_each_change_with_labels() -> None:
    """The lines a GM reads after editing the sheet by hand, word for word."""
    s = _start()
    out = rules.apply(
        s,
        rules.Edit(
            changes={
                "physique": 3,
                "tenacity_skill": False,
                "clock": 93_784,
                "conditions": [],
                "turn_timers": [],
                "wounds": [{**WOUND, "id": 1, "notches": 2, "treatment": "operation"}, {"id": 3, "grade": "legere"}],
            }
        ),
    )
    assert out.log == (
        "Physique : +2 → +3.",
        "Compétence de Ténacité : oui → non.",
        "Temps écoulé : 2 h → 1 j 2 h 3 min 4 s.",
        "États — retiré : Tourmenté.",
        "Durées en tours — Tourmenté : 2 fins de tour → (aucune).",
        "Blessures — ajoutée : n° 3 Légère, 0 cran ; retirée : n° 2 Légère (jambe droite) ; modifiée : "
        "n° 1 Grave (bras gauche) (crans : 3 → 2, traitement : Bandage → Opération, diagnostic : "
        "« Entaille profonde de l'avant-bras, le tendon a tenu. » → « Entaille », Handicap : « Peine à tenir son "
        "bouclier » → « Boite », note : « Sabre d'un coupe-jarret, ruelle des Tanneurs. » → « Sabre »).",
    )


def test_removing_a_timed_condition_by_hand_removes_its_count() -> None:
    """A condition taken off by an edit takes its count of turns with it (no refusal naming an id)."""
    s = _start()
    out = rules.apply(s, rules.Edit(changes={"conditions": []}))
    assert out.sheet.conditions == () and out.sheet.turn_timers == ()


def test_a_timed_condition_added_by_hand_gets_its_length() -> None:
    """« jusqu'à la fin du prochain tour » — Tourmenté ticked by hand lasts its two ends of turn."""
    s = rules.new_sheet("severite")
    out = rules.apply(s, rules.Edit(changes={"conditions": ["tourmente"]}))
    assert [(t.condition, t.turns) for t in out.sheet.turn_timers] == [("tourmente", 2)]


# --------------------------------------------------------------------------------------------------
# Every refusal of every Sévérité action
# --------------------------------------------------------------------------------------------------


def _refusals() -> list[tuple[Any, rules.Action]]:
    alive = rules.new_sheet("severite", name="Ysolde", wounds=[{"id": 1, "grade": "grave", "notches": 3}])
    treated = rules.new_sheet(
        "severite", wounds=[{"id": 1, "grade": "grave", "notches": 3, "treatment": "bandage"}], last_rest_end=0
    )
    dead = rules.new_sheet("severite", name="Ysolde", dead=True, wounds=[{"id": 1, "grade": "fatale", "notches": 7}])
    light = rules.new_sheet("severite", wounds=[{"id": 1, "grade": "legere", "notches": 1}])
    full = rules.new_sheet("severite", wounds=[{"id": i + 1, "grade": "legere", "notches": 1} for i in range(200)])
    return [
        (alive, rules.Strike(margin=2, damage_type="feu", body_part="torse", rolls=(1, 1))),
        (alive, rules.Strike(margin=2, damage_type="tranchant", body_part="pied", rolls=(1, 1))),
        (alive, rules.Strike(margin=2, damage_type="tranchant", body_part="bras_droit", vital_zone=True)),
        (alive, rules.Damage(amount=3, nonlethal=True)),
        (alive, rules.Damage(amount=3, damage_type="feu")),
        (alive, rules.Damage(amount=3, body_part="pied")),
        (alive, rules.Damage(amount="2d6+")),
        (alive, rules.Damage(amount="1d6/0")),
        (alive, rules.Damage(amount="1d0")),
        (alive, rules.Damage(amount="10000d6")),
        (alive, rules.Damage(amount="2d6")),  # no dice generator: NeedsRoll
        (alive, rules.InflictWound(grade="mortelle")),
        (alive, rules.InflictWound(grade="grave", severity=2)),
        (alive, rules.InflictWound(grade="benigne", handicap="Boite")),
        (alive, rules.InflictWound(grade="grave", body_part="pied")),
        (alive, rules.InflictWound(grade="grave", damage_type="feu")),
        (dead, rules.InflictWound(grade="grave")),
        (full, rules.InflictWound(grade="legere")),
        (rules.new_sheet("severite"), rules.InflictWound(grade="fatale", tenacity_test=False)),
        (rules.new_sheet("severite"), rules.TenacityTest()),
        (dead, rules.TenacityTest(opposition=8)),
        (alive, rules.TreatWound(wound_id=1, treatment="priere")),
        (alive, rules.TreatWound(wound_id=9, treatment="bandage")),
        (dead, rules.TreatWound(wound_id=1, treatment="bandage")),
        (alive, rules.DiagnoseWound(wound_id=9, diagnosis="Fracture")),
        (alive, rules.SetHandicap(wound_id=9, handicap="Boite")),
        (
            rules.new_sheet("severite", wounds=[{"id": 1, "grade": "benigne"}]),
            rules.SetHandicap(wound_id=1, handicap="Boite"),
        ),
        (treated, rules.WorseningRisk(wound_id=1)),
        (alive, rules.WorseningRisk(wound_id=9)),
        (dead, rules.WorseningRisk(wound_id=1)),
        (light, rules.WorseningRisk(wound_id=1)),
        (alive, rules.SupernaturalHealing(success_level="divine")),
        (alive, rules.SupernaturalHealing(success_level="faible", wound_id=9)),
        (dead, rules.SupernaturalHealing(success_level="faible")),
        (alive, rules.Heal(amount=2)),
        (alive, rules.Heal(amount=-2, magical=True)),
        (dead, rules.Heal(amount=2, magical=True)),
        (alive, rules.EraseWound(wound_id=9)),
        (alive, rules.SetCondition(condition="aveugle")),
        (dead, rules.SetCondition(condition="tourmente")),
        (alive, rules.LongRest(hours=2)),
        (treated, rules.LongRest(hours=8)),
        (dead, rules.LongRest(hours=8)),
        (alive, rules.AdvanceTime(unit="semaine")),
        (alive, rules.Edit(changes={"system": "d20"})),
        (alive, rules.Edit(changes={"trauma": 3})),
        (alive, rules.ShortRest()),
        (alive, rules.GainTemporary(amount=3)),
    ]


def test_every_refusal_of_the_rules_speaks_french() -> None:
    """Each action above is refused, with a reason that names things by their labels."""
    given = ["Ysolde", "feu", "pied", "mortelle", "priere", "divine", "aveugle", "semaine", "Boite", "trauma"]
    given += ["2d6", "1d6", "1d0", "10000d6", "Fracture"]
    for sheet, action in _refusals():
        with pytest.raises(rules.Refused) as err:
            rules.apply(sheet, action)
        assert_french(_messages(err.value), given)


@pytest.mark.parametrize(
    ("action_type", "fields"),
    [
        (rules.Strike, {"margin": -1, "damage_type": "tranchant", "body_part": "torse"}),
        (rules.Strike, {"margin": 2, "damage_type": "", "body_part": "torse", "vital_zone": "oui et non"}),
        (rules.Strike, {"margin": "beaucoup", "damage_type": "tranchant", "body_part": "torse"}),
        (rules.InflictWound, {"grade": "grave", "severity": 5000, "handicap_penalty": 2}),
        (rules.TenacityTest, {"opposition": 101}),
        (rules.TreatWound, {"wound_id": "un", "treatment": "bandage", "diagnosis": "x" * 501}),
        (rules.SetHandicap, {"wound_id": 1, "penalty": 3}),
        (rules.SupernaturalHealing, {"success_level": ""}),
        (rules.Damage, {"amount": "1.5"}),
        (rules.Damage, {"amount": 3, "hits": 0, "damage_type": "x" * 61}),
        (rules.Heal, {"amount": None}),
        (rules.GainTemporary, {"amount": "9" * 41}),
        (rules.SetCondition, {"condition": "tourmente", "active": "peut-être"}),
        (rules.AdvanceTime, {"unit": "turn", "count": 0}),
        (rules.Edit, {"changes": "tout"}),
    ],
)
def test_bad_action_fields_are_refused_in_french(action_type: type[rules.Action], fields: dict[str, Any]) -> None:
    """What a user types into an action's form comes back as French lines with the form's labels."""
    with pytest.raises(rules.Refused) as err:
        rules.build_action(action_type, **fields)
    assert_french(_messages(err.value), ["beaucoup", "oui", "et", "non", "un", "peut-être", "tout", "turn"])


def test_no_english_in_the_journal_of_a_long_fight() -> None:
    """Whatever happens in a fight, the journal speaks French."""
    rng = random.Random(5)
    s = rules.demo_sheet("severite")
    lines: list[str] = []
    for i in range(300):
        part = list(RS.body_parts)[i % len(RS.body_parts)]
        dtype = list(RS.damage_types)[i % len(RS.damage_types)]
        actions: list[rules.Action] = [
            rules.Strike(margin=i % 13, damage_type=dtype, body_part=part, damage_modifier=i % 4),
            rules.TreatWound(wound_id=1 + i % 4, treatment=list(RS.treatments)[i % 3]),
            rules.EndConflict(),
            rules.LongRest(hours=8),
            rules.AdvanceTime(unit="day"),
            rules.WorseningRisk(wound_id=1 + i % 4),
            rules.SupernaturalHealing(success_level=list(RS.success_levels)[i % 5]),
        ]
        try:
            out = rules.apply(s, actions[i % len(actions)], rng=rng)
        except rules.Refused as exc:
            lines.append(exc.reason)
            continue
        s, lines = out.sheet, lines + list(out.log) + [r.detail for r in out.rolls]
        if s.dead:
            s = rules.demo_sheet("severite")
    assert_french(lines, ["Maëlle", "Corbier", "Brigandine", "Casque", "nasal", "Sabre", "Peine", "tenir", "son"])
