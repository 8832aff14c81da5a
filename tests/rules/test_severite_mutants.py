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


# --- Session 4: the survivors of the same sample (seed 23), killed --------------------------------------


def test_the_tenacity_explanations_add_the_skill_and_the_talents() -> None:
    """« Certaines Compétences ou Talents peuvent vous rendre plus tenace »: each Défi's value and its
    explanation name the attribute, the skill's die and the Talents' bonus."""
    derived = rules.derive(YSOLDE.model_copy(update={"tenacity_bonus": 2, "tenacity_skill": True}))
    assert derived.tenacity_physique == 3
    assert derived.explain("tenacity_physique") == (
        "Défi de Ténacité (Physique) : D10 +1 (Physique) + D6 (Compétence) +2 (Talents)"
    )
    assert derived.tenacity_mental == 5
    assert (
        derived.explain("tenacity_mental")
        == "Défi de Ténacité (Mental) : D10 +3 (Mental) + D6 (Compétence) +2 (Talents)"
    )
    plain = rules.derive(YSOLDE)
    assert (plain.tenacity_physique, plain.explain("tenacity_physique")) == (
        1,
        "Défi de Ténacité (Physique) : D10 +1 (Physique)",
    )


THREE_WOUNDS = rules.new_sheet(
    "severite",
    name="Ysolde",
    wounds=[
        {"id": 1, "grade": "grave", "notches": 3, "treatment": "bandage"},
        {"id": 2, "grade": "legere", "notches": 1},
        {"id": 3, "grade": "legere", "notches": 1, "body_part": "tete"},
    ],
)


def test_the_next_rest_heals_only_the_treated_wounds() -> None:
    """« Lors de son prochain repos le personnage verra sa jauge de Trauma diminuer d'un cran pour chaque
    Blessure traitée. » « Si par négligence ou par manque de moyens un personnage ne traite pas ses Blessures,
    celles-ci ne guériront pas avec du repos »: one treated wound, two untreated, named."""
    derived = rules.derive(THREE_WOUNDS)
    assert derived.untreated_wounds == 2
    assert derived.explain("untreated_wounds") == "blessures non traitées : n° 2 Légère, n° 3 Légère (tête)"
    assert derived.rest_recovery == 1
    assert derived.explain("rest_recovery") == (
        "au prochain repos : −1 cran, 1 par blessure traitée ; 2 blessures non traitées, sans guérison"
    )


def test_a_rest_long_after_the_last_one_is_possible_at_once() -> None:
    """« Lors de son prochain repos le personnage verra sa jauge de Trauma diminuer »: a day and more after
    the last rest ended, the next may start now (0 s to wait); an hour after it, 18 h are left (24 h between
    starts, 6 h of rest: note V15)."""
    long_after = rules.apply(YSOLDE, rules.Edit(changes={"clock": 100_000, "last_rest_end": 0})).sheet
    derived = rules.derive(long_after)
    assert (derived.rest_ready_in, derived.explain("rest_ready_in")) == (0, "repos possible")
    soon = rules.apply(YSOLDE, rules.Edit(changes={"clock": 3_600, "last_rest_end": 0})).sheet
    derived = rules.derive(soon)
    assert (derived.rest_ready_in, derived.explain("rest_ready_in")) == (61_200, "repos possible dans 17 h")
    assert rules.derive(YSOLDE).explain("rest_ready_in") == "repos possible"


def test_the_explanations_of_states_handicaps_and_the_health_state() -> None:
    """« Vous resterez en piste mais incapacité momentanément par la douleur jusqu'à la fin du prochain tour. »
    « Vous permet tout simplement d'ignorer la Blessure jusqu'à la fin du Conflit. » What the sheet shows:
    a state's turns left (plural), an ignored wound's Handicap, the count of wounds (plural)."""
    tormented = rules.apply(YSOLDE, rules.SetCondition(condition="tourmente")).sheet
    assert rules.derive(tormented).explain("conditions") == "états : Tourmenté (encore 2 fins de tour)"
    hampered = rules.new_sheet(
        "severite",
        name="Ysolde",
        wounds=[
            {"id": 1, "grade": "grave", "notches": 3, "handicap": "Boite", "handicap_penalty": -1, "ignored": True},
            {"id": 2, "grade": "legere", "notches": 1, "handicap": "Tremble"},
        ],
    )
    derived = rules.derive(hampered)
    assert derived.explain("handicaps") == "Handicaps : Boite (n° 1 Grave, ignoré); Tremble (n° 2 Légère)"
    assert derived.explain("state") == "état : Blessé (4 crans de Trauma, 2 blessures)"
    assert rules.derive(YSOLDE).explain("state") == "état : Blessé (3 crans de Trauma, 1 blessure)"


def test_edits_by_hand_are_told_in_the_journal() -> None:
    """A hand edit of the sheet says what changed, in the sheet's words: states kept and added (one, two),
    sequels, notes, the clock set back to 0, the end of the last rest, a wound's Sévérité cleared, two wounds
    removed."""
    tormented = rules.apply(YSOLDE, rules.SetCondition(condition="tourmente")).sheet

    def edit(sheet: Any, **changes: Any) -> tuple[str, ...]:
        return rules.apply(sheet, rules.Edit(changes=changes)).log

    assert edit(tormented, conditions=["tourmente", "stoique"]) == ("États — ajouté : Stoïque.",)
    assert edit(YSOLDE, conditions=["tourmente", "stoique"]) == ("États — ajoutés : Stoïque ; Tourmenté.",)
    assert edit(YSOLDE, sequels=["Cicatrice", "Boiterie"]) == ("Séquelles — ajoutées : « Cicatrice » ; « Boiterie ».",)
    assert edit(YSOLDE, notes="Une note") == ("Notes modifiées.",)
    later = rules.apply(YSOLDE, rules.Edit(changes={"clock": 100_000, "last_rest_end": 0})).sheet
    assert edit(later, clock=0, last_rest_end=None) == (
        "Temps écoulé : 1 j 3 h 46 min 40 s → 0 s.",
        "Fin du dernier repos : 0 s → (aucune).",
    )
    assert edit(YSOLDE, last_rest_end=0) == ("Fin du dernier repos : (aucune) → 0 s.",)
    measured = rules.new_sheet(
        "severite", name="Ysolde", wounds=[{"id": 1, "grade": "grave", "notches": 3, "severity": 5}]
    )
    assert edit(measured, wounds=[{"id": 1, "grade": "grave", "notches": 3}]) == (
        "Blessures — modifiée : n° 1 Grave (Sévérité : 5 → (aucune)).",
    )
    assert edit(THREE_WOUNDS, wounds=[THREE_WOUNDS.wounds[0].model_dump()]) == (
        "Blessures — retirées : n° 2 Légère ; n° 3 Légère (tête).",
    )


def test_the_journal_lines_of_care_and_of_a_worsening() -> None:
    """« Une Blessure Légère commence à devenir problématique » (one notch, singular). « Il peut être
    intéressant alors de pouvoir en faire un diagnostic par une personne compétente. » « Pour qu'une Blessure
    puisse guérir, il est nécessaire que celle-ci soit traitée, par exemple à l'aide d'un bandage, d'un
    médicament, ou d'une opération » (a treatment changed names the one it replaces). « celles-ci ne
    guériront pas avec du repos et pourraient même s'aggraver » (the gauge's tier after the worsening)."""
    assert journal(YSOLDE, rules.InflictWound(grade="legere", body_part="tete", tenacity_test=False)) == (
        "Blessure Légère (tête) : +1 cran de Trauma (3 → 4, palier 2 : Jouable (8)).",
    )
    assert journal(YSOLDE, rules.DiagnoseWound(wound_id=1, diagnosis="")) == (
        "Diagnostic de la blessure n° 1 Grave : (effacé)",
    )
    on_medicine = rules.apply(YSOLDE, rules.TreatWound(wound_id=1, treatment="medicament")).sheet
    assert journal(on_medicine, rules.TreatWound(wound_id=1, treatment="bandage")) == (
        "Blessure n° 1 Grave traitée : bandage (au lieu de : médicament) ; elle guérira au repos.",
    )
    assert journal(YSOLDE, rules.WorseningRisk(wound_id=1, rolls=(1,))) == (
        "Risque d'aggravation contre Jouable (8) : 1d10 = 1 (valeur donnée) +1 (Physique) = 2 → échec.",
        "La blessure n° 1 Grave s'aggrave : Critique, +2 crans (3 → 5, palier 3 : Compliqué (10)).",
    )
    assert journal(rules.new_sheet("severite", name="Ysolde"), rules.EndConflict()) == (
        "Fin du Conflit : aucun effet en cours.",
    )


def test_a_missing_roll_is_named_in_french() -> None:
    """« Le jet de Puissance comprend systématiquement un D4 »; « cette Action accordera le retrait de cran de
    Trauma »: without dice, the message names the roll that is missing."""
    with pytest.raises(rules.NeedsRoll, match=r"^Puissance : lancez 1d4 ou donnez la valeur obtenue\.$"):
        rules.apply(YSOLDE, rules.Strike(margin=0, damage_type="tranchant", body_part="torse"))
    with pytest.raises(rules.Refused, match=r"^Puissance : 7 est impossible sur 1d4 \(de 1 à 4\).$"):
        rules.apply(YSOLDE, rules.Strike(margin=0, damage_type="tranchant", body_part="torse", rolls=(7, 1)))
    with pytest.raises(rules.NeedsRoll, match=r"^Crans retirés « 1d4 » demande un lancer de dés"):
        rules.apply(YSOLDE, rules.Heal(amount="1d4", magical=True))


def _grades(**changes: dict[str, Any]) -> dict[str, Any]:
    return {gid: g.model_copy(update=changes.get(gid, {})) for gid, g in RS.grades.items()}


def _tiers(first: dict[str, Any]) -> Any:
    tiers = RS.trauma.tiers
    return RS.trauma.model_copy(update={"tiers": (tiers[0].model_copy(update=first), *tiers[1:])})


def test_a_house_grade_that_always_tests_on_a_tier_without_test_uses_the_first_opposition() -> None:
    """« Elle monte votre jauge de Trauma de 3 crans, ce qui résulte systématiquement en un Défi de Ténacité »
    « Au premier palier aucun test ne sera nécessaire. » Under a house table where Grave adds 1 notch, a Grave
    wound on an empty gauge stays in the first tier, which names no Opposition: its Défi is made against the
    gauge's first Opposition, Jouable (8); if no tier names one, against the one beyond the gauge, Ardu (14)."""
    table = RS.model_copy(update={"grades": _grades(grave={"notches": 1})})
    fresh = rules.new_sheet("severite", name="Ysolde", physique=1)
    out = rules.apply(fresh, rules.InflictWound(grade="grave", rolls=(5,)), rules_table=table)
    assert out.log[0] == "Blessure Grave : +1 cran de Trauma (0 → 1, palier 1 : aucun test)."
    assert out.log[2] == (
        "Défi de Ténacité contre Jouable (8) : 1d10 = 5 (valeur donnée) +1 (Physique) = 6 → échec : "
        "hors combat jusqu'à la fin du Conflit."
    )
    no_test = tuple(t.model_copy(update={"opposition": None}) for t in RS.trauma.tiers)
    bare = table.model_copy(update={"trauma": RS.trauma.model_copy(update={"tiers": no_test})})
    out = rules.apply(fresh, rules.InflictWound(grade="grave", rolls=(5,)), rules_table=bare)
    assert out.log[2].startswith("Défi de Ténacité contre Ardu (14) : ")


def test_a_house_first_tier_with_an_opposition_tests_there() -> None:
    """« Ces paliers représentent le niveau d'Opposition auquel vous devrez faire face lors de votre Défi de
    Ténacité. » A house table whose first tier names an Opposition (6): one notch enters it, and a Légère
    wound that brings the gauge there tests against it."""
    table = RS.model_copy(update={"trauma": _tiers({"opposition": 6})})
    one = rules.new_sheet("severite", name="Ysolde", wounds=[{"id": 1, "grade": "legere", "notches": 1}])
    derived = rules.derive(one, rules_table=table)
    assert derived.tenacity_opposition == 6
    assert derived.explain("tenacity_opposition").startswith(
        "un Défi de Ténacité se fait maintenant contre Premier palier (6)"
    )
    fresh = rules.new_sheet("severite", name="Ysolde", physique=1)
    out = rules.apply(fresh, rules.InflictWound(grade="legere", rolls=(5,)), rules_table=table)
    assert out.log[1].startswith("Défi de Ténacité contre Premier palier (6) : 1d10 = 5 (valeur donnée)")


def test_a_house_notchless_grade_beyond_the_gauge_asks_no_test() -> None:
    """« Au fur et à mesure que celle-ci augmente, vous serez susceptible de faire un Défi de Ténacité »: under
    a house table that records Bénigne wounds and tests them on entering a tier, a Bénigne wound (no notch)
    beyond the gauge does not make it rise, so no Défi, even though each wound that adds a notch there tests."""
    table = RS.model_copy(update={"grades": _grades(benigne={"recorded": True, "test": "new_tier"})})
    beyond = rules.new_sheet("severite", name="Ysolde", wounds=[{"id": 1, "grade": "critique", "notches": 9}])
    out = rules.apply(beyond, rules.Damage(amount=0), random.Random(0), rules_table=table)
    assert out.log[:2] == (
        "Blessure Bénigne : +0 cran de Trauma (9 → 9, au-delà de la jauge : Ardu (14)).",
        "Pas de Défi de Ténacité (au-delà de la jauge : Ardu (14)).",
    )
    assert rules.action_odds(beyond, rules.InflictWound(grade="benigne"), rules_table=table) == ()


def test_a_house_table_whose_first_grade_does_not_start_at_0_is_refused(tmp_path: Path) -> None:
    """« Quand la valeur de Sévérité est supérieure ou égale à 0, une Blessure a été infligée. » The first grade
    starts at Sévérité 0: a house table whose first starts at 1 is refused, and says why."""
    data = tomllib.loads((ROOT / "resources" / "rulesets" / "severite.toml").read_text(encoding="utf-8"))
    first = next(iter(data["grades"]))
    data["grades"][first]["min_severity"] = 1
    with pytest.raises(rules.RulesetError, match="le premier niveau doit commencer à 0"):
        rules.load_rules_table("severite", write_table(tmp_path, data))


# The odds (issue 17) of the same draw: cheap single computations, outside the odds tests that mutmut's runs
# leave out.


def test_the_odds_of_a_strike_name_its_rolls_and_risks() -> None:
    """« Pour l'obtenir il faut soustraire la Puissance de l'attaque à la Résistance de la victime, toutes deux
    définies par un jet de dés chacune. » « Une Puissance Redoutable applique le Modificateur de dégâts et
    accorde un D8 d'Efficacité au jet de Puissance avec Facilité. » « Si cette Blessure est sur le point de tuer
    un joueur, il peut lui rester une maigre chance de Survie »."""

    def odds(sheet: Any, margin: int, body_part: str = "tete") -> dict[str, rules.Chance]:
        strike = rules.Strike(margin=margin, damage_type="tranchant", body_part=body_part, damage_modifier=2)
        return {c.id: c for c in rules.action_odds(sheet, strike)}

    hit = odds(YSOLDE, 3)["strike_wound"]
    assert (hit.label, hit.action) == ("Blessure infligée (Sévérité 0 ou plus)", "strike")
    assert hit.how == "Puissance Percutante 1d4 + 2 (mod. de dégâts), moins Résistance 1d4"
    fierce = odds(YSOLDE, 7)["strike_wound"]
    assert fierce.how == (
        "Puissance Redoutable 1d4 + 2 (mod. de dégâts) + 1d8 d'Efficacité avec Facilité (meilleur de 2), "
        "moins Résistance 1d4"
    )
    # Severity = d4 + 2 + best of two d8 − d4: negative only when 1d4 + 2 + d8 < d4, never.
    assert fierce.probability == 1.0
    # The best of two d8 is e with chance (e² − (e − 1)²) / 64; Fatale from Sévérité 12.
    fatal = RS.grades["fatale"].min_severity
    assert dict(fierce.outcomes)["Blessure Fatale"] == pytest.approx(
        sum(
            (e * e - (e - 1) ** 2) / 64 / 16
            for e in range(1, 9)
            for power in range(1, 5)
            for resistance in range(1, 5)
            if power + 2 + e - resistance >= fatal
        )
    )
    assert odds(YSOLDE, 20)["strike_death"].how == "Blessure Fatale et jet de Survie raté"
    assert odds(YSOLDE.model_copy(update={"is_npc": True}), 20)["strike_death"].how == "meurt d'une Blessure Fatale"
    # « Si le Défi est échoué, vous êtes hors combat »: no new Défi for who is already out of the fight (V11).
    assert "strike_out" in odds(YSOLDE, 3, "bras_droit")
    assert "strike_out" not in odds(YSOLDE.model_copy(update={"conditions": ("hors_de_combat",)}), 3, "bras_droit")


def test_the_odds_of_a_worsening_risk_and_of_the_survival_roll() -> None:
    """« le Meneur de Jeu peut demander à un joueur de faire un Défi de Ténacité lorsqu'un personnage au travers
    d'une action prend le risque d'empirer son état »: against the tier's Opposition unless the GM chose one,
    beside the worsening-risk action. « C'est le moment de faire un jet de Survie à l'aide du D20 salvateur mais
    impitoyable »: made when a Fatale wound strikes (an event)."""
    (risk,) = rules.action_odds(YSOLDE, rules.WorseningRisk(wound_id=1))
    assert (risk.how, risk.action, risk.subject) == ("1d10 + 1 (Physique) ≥ Jouable (8)", "worsening_risk", 1)
    assert risk.probability == 0.4
    (chosen,) = rules.action_odds(YSOLDE, rules.WorseningRisk(wound_id=1, opposition=4))
    assert chosen.how == "1d10 + 1 (Physique) ≥ l'Opposition choisie (4)"
    found = rules.sheet_odds(YSOLDE)
    listed = found.get("worsening_risk")
    assert listed is not None and (listed.action, listed.subject) == ("worsening_risk", 1)
    overview = found.get("fatal_survival")
    assert overview is not None and overview.trigger == "event"


def test_the_odds_of_a_tenacity_test_count_the_handicaps_under_a_house_table() -> None:
    """« Si le Défi est échoué, vous êtes hors combat »: under a house table where Handicaps weigh on the Défi
    (V12), a −1 Handicap lowers the chance (D10 + 1 − 1 ≥ 8: 30 %) and is named."""
    table = RS.model_copy(update={"tenacity": RS.tenacity.model_copy(update={"handicaps_apply": True})})
    hampered = YSOLDE.model_copy(
        update={"wounds": (YSOLDE.wounds[0].model_copy(update={"handicap": "Boite", "handicap_penalty": -1}),)}
    )
    (test,) = rules.action_odds(hampered, rules.TenacityTest(), rules_table=table)
    assert test.how == "1d10 + 1 (Physique) − 1 (Handicaps) ≥ Jouable (8)"
    assert test.probability == pytest.approx(0.3)


def test_each_action_reads_the_grid_of_its_own_table_when_tables_alternate() -> None:
    """« Elle monte votre jauge de Trauma de 3 crans » under the shipped table, 1 notch under a house table:
    actions alternating between the two (as a GM's table of creatures under different tables does) each read
    their own table's figures, never those of the table used just before (issue 15's cache of the last grid)."""
    house_table = RS.model_copy(update={"grades": _grades(grave={"notches": 1})})
    fresh = rules.new_sheet("severite", name="Ysolde")
    grave = rules.InflictWound(grade="grave", tenacity_test=False)
    for _ in range(2):
        for table, notches in ((house_table, 1), (None, 3), (house_table, 1)):
            out = rules.apply(fresh, grave, rules_table=table)
            assert out.sheet.wounds[-1].notches == notches
            assert out.log[0].startswith(f"Blessure Grave : +{notches} cran")


def test_every_margin_gives_the_puissance_of_the_table() -> None:
    """« La Puissance découle directement de la différence d'Opposition obtenue lors du Défi de l'attaque (voir
    tableau en dessous). » Each margin from 0 to 20 (past the highest threshold too) gives the Puissance whose
    threshold it last reaches in the table, under the shipped table and under a house table that moves one."""
    house_table = TABLE | {"power": TABLE["power"] | {"grades": dict(TABLE["power"]["grades"])}}
    brutale = house_table["power"]["grades"]["brutale"] = dict(TABLE["power"]["grades"]["brutale"])
    brutale["min_margin"] += 1
    moved = RS.model_copy(
        update={
            "power": RS.power.model_copy(
                update={"grades": {**RS.power.grades, "brutale": RS.power.grades["brutale"].model_copy(update=brutale)}}
            )
        }
    )
    for table, data in ((None, TABLE), (moved, house_table)):
        for margin in range(21):
            strike = rules.Strike(margin=margin, damage_type="tranchant", body_part="torse")
            out = rules.apply(YSOLDE, strike, random.Random(0), rules_table=table)
            grade = _last_reached(data["power"]["grades"], margin, "min_margin")
            assert out.log[0].startswith(f"Puissance {grade} (différence {margin}) : "), (margin, out.log[0])
