"""Sévérité: tests that kill the mutants a mutation sample left alive (scripts/mutation sample severite)."""

from __future__ import annotations

import random
import tomllib
from pathlib import Path
from typing import Any

import pytest

import rules
from tests.rules.helpers import write_table

ROOT = Path(__file__).resolve().parents[2]

RS = rules.ruleset("severite")


def with_notches(notches: int) -> Any:
    return rules.new_sheet("severite", name="Ysolde", wounds=[{"id": 1, "grade": "critique", "notches": notches}])


def test_a_full_gauge_is_the_last_tier_not_beyond() -> None:
    """« La jauge est composée de 4 paliers comprenant deux crans de Trauma. » « Au-delà de ces paliers, tout
    Défi de Ténacité devra être accompli à un niveau Ardu (14). » Eight notches fill the fourth tier; the
    ninth is beyond."""
    full = rules.derive(with_notches(8))
    assert full.trauma_tier == 4
    assert full.explain("trauma_tier") == "palier 4 : Difficile (12)"
    beyond = rules.derive(with_notches(9))
    assert beyond.trauma_tier == 5
    assert beyond.explain("trauma_tier") == "au-delà de la jauge : Ardu (14)"


def test_grades_must_strictly_increase(tmp_path: Path) -> None:
    """A house table whose two grades start at the same Sévérité is refused, naming both."""
    data = tomllib.loads((ROOT / "resources" / "rulesets" / "severite.toml").read_text(encoding="utf-8"))
    first, second = list(data["grades"])[1:3]
    data["grades"][second]["min_severity"] = data["grades"][first]["min_severity"]
    with pytest.raises(rules.RulesetError, match=f"« {second} » .* doit commencer après « {first} »"):
        rules.load_rules_table("severite", write_table(tmp_path, data))


# --- Survivors of the sample after issue 15's speed work (scripts/mutation sample severite --seed 23) -----

YSOLDE = rules.new_sheet(
    "severite", name="Ysolde", physique=1, mental=3, wounds=[{"id": 1, "grade": "grave", "notches": 3}]
)


def journal(sheet: Any, action: rules.Action) -> tuple[str, ...]:
    return rules.apply(sheet, action, random.Random(0)).log


def test_a_psychological_hit_tests_mental_and_a_physical_one_physique() -> None:
    """« Vous devrez pour cela utiliser votre Physique (ou votre Mental dans le cas où la Blessure serait
    psychologique) face à l'Opposition passive indiquée. » A hit (``Damage``, ``Strike``) of a psychological
    damage type makes a psychological wound, tested on Mental (+3); any other type, on Physique (+1)."""
    crossing = YSOLDE.model_copy(update={"wounds": (YSOLDE.wounds[0].model_copy(update={"notches": 2}),)})
    mind = rules.apply(crossing, rules.Damage(amount=4, damage_type="psychique", body_part="tete", rolls=(5,)))
    assert mind.sheet.wounds[-1].psychological is True
    assert mind.log[1] == (
        "Défi de Ténacité contre Jouable (8) : 1d10 = 5 (valeur donnée) +3 (Mental) = 8 → réussite Faible "
        "(différence 0) : Ténacité Tourmentée. Reste en piste mais sans Action jusqu'à la fin du prochain tour."
    )
    body = rules.apply(crossing, rules.Damage(amount=4, damage_type="tranchant", body_part="tete", rolls=(5,)))
    assert body.sheet.wounds[-1].psychological is False
    assert body.log[1] == (
        "Défi de Ténacité contre Jouable (8) : 1d10 = 5 (valeur donnée) +1 (Physique) = 6 → échec : "
        "hors combat jusqu'à la fin du Conflit."
    )
    strike = rules.Strike(margin=0, damage_type="psychique", body_part="bras_droit", rolls=(4, 1, 5))
    struck = rules.apply(crossing, strike)
    assert struck.sheet.wounds[-1].psychological is True
    assert "+3 (Mental) = 8" in struck.log[-1]


def test_a_tenacity_test_called_by_the_gm_uses_mental_when_asked() -> None:
    """« utiliser votre Physique (ou votre Mental dans le cas où la Blessure serait psychologique) »: the GM's
    Défi (no wound) on Mental when asked, on Physique otherwise, against the gauge's tier (Jouable, 8)."""
    assert journal(YSOLDE, rules.TenacityTest(psychological=True, rolls=(5,))) == (
        "Défi de Ténacité contre Jouable (8) : 1d10 = 5 (valeur donnée) +3 (Mental) = 8 → réussite Faible "
        "(différence 0) : Ténacité Tourmentée. Reste en piste mais sans Action jusqu'à la fin du prochain tour.",
    )
    assert journal(YSOLDE, rules.TenacityTest(rolls=(5,))) == (
        "Défi de Ténacité contre Jouable (8) : 1d10 = 5 (valeur donnée) +1 (Physique) = 6 → échec : "
        "hors combat jusqu'à la fin du Conflit.",
    )


def test_conditions_put_and_taken_off_say_so() -> None:
    """« Vous permet tout simplement d'ignorer la Blessure jusqu'à la fin du Conflit. » The GM puts
    Inébranlable on and off by hand; the journal says what changed, or that nothing did."""
    on = rules.apply(YSOLDE, rules.SetCondition(condition="inebranlable"))
    assert on.log == ("État Inébranlable ajouté.",)
    assert on.sheet.conditions == ("inebranlable",)
    assert journal(on.sheet, rules.SetCondition(condition="inebranlable")) == ("Inébranlable : déjà en place.",)
    off = rules.apply(on.sheet, rules.SetCondition(condition="inebranlable", active=False))
    assert off.log == ("État Inébranlable retiré.",)
    assert off.sheet.conditions == ()
    assert journal(YSOLDE, rules.SetCondition(condition="inebranlable", active=False)) == (
        "Inébranlable : n'était pas en place.",
    )


def test_a_handicap_set_and_removed_says_so() -> None:
    """« Le Meneur de Jeu pourra fréquemment vous imposer un Handicap. » Set with its penalty, without, and
    removed: each told in the journal, the wound changed accordingly."""
    set_ = rules.apply(YSOLDE, rules.SetHandicap(wound_id=1, handicap="Boite", penalty=-1))
    assert set_.log == ("Handicap sur la blessure n° 1 Grave : Boite (−1).",)
    assert (set_.sheet.wounds[0].handicap, set_.sheet.wounds[0].handicap_penalty) == ("Boite", -1)
    assert journal(YSOLDE, rules.SetHandicap(wound_id=1, handicap="Boite")) == (
        "Handicap sur la blessure n° 1 Grave : Boite.",
    )
    removed = rules.apply(set_.sheet, rules.SetHandicap(wound_id=1, handicap=""))
    assert removed.log == ("Handicap retiré de la blessure n° 1 Grave.",)
    assert (removed.sheet.wounds[0].handicap, removed.sheet.wounds[0].handicap_penalty) == ("", 0)


def test_a_fatal_wound_on_a_vital_zone_kills_an_npc_outright() -> None:
    """« Quand elle est infligée sur une zone vitale elle peut tuer sur le coup, purement et simplement. » An
    NPC has no survival roll: the journal names the cause, and the dead can no longer act."""
    npc = YSOLDE.model_copy(update={"is_npc": True})
    out = rules.apply(npc, rules.InflictWound(grade="fatale", severity=12, body_part="tete"))
    assert out.log == (
        "Blessure Fatale (tête) : +7 crans de Trauma (3 → 10, au-delà de la jauge : Ardu (14)).",
        "Ysolde meurt (Blessure Fatale sur une zone vitale).",
    )
    assert out.events == ("wound", "died")
    derived = rules.derive(out.sheet)
    assert derived.can_act is False
    assert derived.explain("can_act") == "mort"


def test_a_wound_from_a_hit_is_the_wound_validation_would_build() -> None:
    """« Quand la valeur de Sévérité est supérieure ou égale à 0, une Blessure a été infligée. » The wound a hit
    adds (built without validation, issue 15) has every field a validated wound of the same data has, in
    the same order, and the same fields given."""
    out = rules.apply(YSOLDE, rules.Damage(amount=3, damage_type="tranchant", body_part="bras_gauche"))
    added = out.sheet.wounds[-1]
    data = {
        "id": 2,
        "grade": "legere",
        "notches": 1,
        "severity": 3,
        "body_part": "bras_gauche",
        "damage_type": "tranchant",
        "psychological": False,
        "handicap": "",
        "handicap_penalty": 0,
        "crippled": False,
        "note": "",
    }
    valid = type(added).model_validate(data)
    assert list(added.__dict__.items()) == list(valid.__dict__.items())
    assert added.model_fields_set == valid.model_fields_set == set(data)
    assert out.sheet.model_dump_json() == rules.sheet_from_json(out.sheet.model_dump_json()).model_dump_json()


TABLE = tomllib.loads((ROOT / "resources" / "rulesets" / "severite.toml").read_text(encoding="utf-8"))


def _last_reached(entries: dict[str, Any], value: int, key: str) -> str:
    """The last entry of the table whose ``key`` threshold ``value`` reaches (the table's order)."""
    return [e["label"] for e in entries.values() if value >= e[key]][-1]


def test_every_severity_gives_the_grade_of_the_table() -> None:
    """« En fonction de l'ampleur de la Sévérité, différentes pénalités pourront s'appliquer à la victime et
    remplir la jauge de Trauma. » Each Sévérité from 0 to 30 (past the highest threshold too) gives the grade
    whose threshold it last reaches in the table."""
    for severity in range(31):
        out = rules.apply(YSOLDE, rules.Damage(amount=severity, body_part="bras_gauche"), random.Random(0))
        grade = _last_reached(TABLE["grades"], severity, "min_severity")
        assert out.log[0].startswith(f"Blessure {grade} (bras gauche) : "), (severity, out.log[0])


def test_every_margin_gives_the_success_level_of_the_table() -> None:
    """« Le niveau de réussite de votre test de Ténacité va influer sur votre capacité à gérer votre Blessure
    et votre capacité d'Action sur le tour. » Each margin from 0 to 20 (past the highest threshold too) gives
    the level whose threshold it last reaches; below 0 the Défi fails."""
    for margin in range(-1, 21):
        physique = 10 if margin > 10 else 0
        die = margin - physique if margin > 0 else 1
        opposition = die + physique - margin
        out = rules.apply(
            YSOLDE.model_copy(update={"physique": physique}),
            rules.TenacityTest(opposition=opposition, rolls=(die,)),
            random.Random(0),
        )
        if margin < 0:
            assert "→ échec" in out.log[0]
            continue
        level = _last_reached(TABLE["success_levels"], margin, "min_margin")
        assert f"→ réussite {level} (différence {margin})" in out.log[0], (margin, out.log[0])


def test_supernatural_care_heals_the_heaviest_wounds_first_and_tells_them_in_the_sheets_order() -> None:
    """« Des pouvoirs surnaturels peuvent aussi être un moyen très efficace de faire diminuer la jauge de
    Trauma. » Six notches go from the heaviest wounds (the latest first among equals): n° 2 (3 notches),
    n° 4 (2), n° 3 (1); the journal tells the healed wounds in the sheet's order, and the next wound takes
    the number after the highest left."""
    sheet = rules.new_sheet(
        "severite",
        name="Ysolde",
        wounds=[
            {"id": 1, "grade": "legere", "notches": 1, "body_part": "torse"},
            {"id": 2, "grade": "grave", "notches": 3},
            {"id": 3, "grade": "legere", "notches": 1},
            {"id": 4, "grade": "legere", "notches": 2},
        ],
    )
    out = rules.apply(sheet, rules.Heal(amount=6, magical=True))
    assert out.log == (
        "Blessure n° 2 Grave guérie.",
        "Blessure n° 3 Légère guérie.",
        "Blessure n° 4 Légère guérie.",
        "Soins surnaturels : 6 crans de Trauma retirés (7 → 1).",
    )
    assert [(w.id, w.notches) for w in out.sheet.wounds] == [(1, 1)]
    after = rules.apply(out.sheet, rules.InflictWound(grade="legere", tenacity_test=False))
    assert [w.id for w in after.sheet.wounds] == [1, 2]
    assert rules.derive(after.sheet).current == 2


ARMOURED = rules.new_sheet(
    "severite",
    name="Ysolde",
    physique=1,
    wounds=[{"id": 1, "grade": "grave", "notches": 3, "ignored": True}],
    conditions=["inebranlable", "tourmente"],
    turn_timers=[{"condition": "tourmente", "turns": 2}],
    equipment=[
        {"name": "Brigandine", "body_parts": ["torse"], "protections": [{"damage_type": "tranchant", "modifier": 2}]}
    ],
)


def test_taking_inebranlable_off_makes_the_ignored_wound_count_again() -> None:
    """« Vous permet tout simplement d'ignorer la Blessure jusqu'à la fin du Conflit. » Without the state, the
    wound it ignored counts again; all the states cleared at once are named."""
    off = rules.apply(ARMOURED, rules.SetCondition(condition="inebranlable", active=False))
    assert off.sheet.wounds[0].ignored is False
    cleared = rules.apply(ARMOURED, rules.ClearConditions())
    assert cleared.log == ("États retirés : Inébranlable, Tourmenté.",)
    assert cleared.sheet.wounds[0].ignored is False


def test_a_treatment_records_its_diagnosis() -> None:
    """« Il peut être intéressant alors de pouvoir en faire un diagnostic par une personne compétente. »"""
    out = rules.apply(ARMOURED, rules.TreatWound(wound_id=1, treatment="bandage", diagnosis="Os fêlé."))
    assert out.log == ("Blessure n° 1 Grave traitée : bandage ; elle guérira au repos.", "Diagnostic : Os fêlé.")
    assert (out.sheet.wounds[0].treatment, out.sheet.wounds[0].diagnosis) == ("bandage", "Os fêlé.")


def test_the_resistance_line_names_the_armour_that_protects_the_zone() -> None:
    """« Si un Équipement protège la zone touchée par l'attaque, appliquez le Modificateur de protection au jet
    de Résistance. »"""
    out = rules.apply(ARMOURED, rules.Strike(margin=0, damage_type="tranchant", body_part="torse", rolls=(3, 2)))
    assert out.log[1] == "Résistance : 1d4 = 2 (valeur donnée) + 2 (Brigandine, tranchant) = 4."


def test_a_wound_of_an_unknown_damage_type_is_refused() -> None:
    """« Tout d'abord définissez la nature des dommages, c'est-à-dire le Type de Dégâts »: one of the table's."""
    with pytest.raises(rules.Refused, match="Type de dégâts inconnu : « feu »"):
        rules.apply(ARMOURED, rules.InflictWound(grade="legere", damage_type="feu"))


def test_the_gauge_tiers_read_the_same_under_a_table_read_afresh() -> None:
    """« La jauge est composée de 4 paliers comprenant deux crans de Trauma. » « Au premier palier aucun test ne
    sera nécessaire. » The tier of each count of notches, under the shipped table and under an equal copy
    of it (its lookups built again)."""
    expected = ["jauge vide", "palier 1 : aucun test", "palier 1 : aucun test"]
    expected += ["palier 2 : Jouable (8)"] * 2 + ["palier 3 : Compliqué (10)"] * 2 + ["palier 4 : Difficile (12)"] * 2
    expected += ["au-delà de la jauge : Ardu (14)"] * 2
    for table in (None, RS.model_copy(deep=True)):
        for notches, text in enumerate(expected):
            derived = rules.derive(with_notches(notches), rules_table=table)
            assert derived.explain("trauma_tier") == text, (notches, table is None)
            assert derived.trauma_tier == min(-(-notches // 2), 5)
