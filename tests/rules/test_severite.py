"""Sévérité (seed 003): one test per rule, each quoting the passage of the seed it checks.

Dice are given explicitly (``action.rolls``, used in order) so that every rule is checked without chance.
Default character here: Physique +2, Mental 0, no Compétence, no Talent bonus, so a Défi de Ténacité is
D10 + 2 and, against Jouable (8), the margin is the D10 − 6.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rules

RS = rules.ruleset("severite")
ARMOURED = {
    "name": "Plates",
    "body_parts": ["bras_droit", "torse"],
    "protections": [{"damage_type": "tranchant", "modifier": 50}],
}


def sheet(**fields: Any) -> Any:
    base: dict[str, Any] = {"name": "Ysolde", "physique": 2}
    base.update(fields)
    return rules.new_sheet("severite", **base)


def with_notches(notches: int, **fields: Any) -> Any:
    """A sheet whose gauge holds ``notches`` (one untreated wound)."""
    return sheet(wounds=[{"id": 1, "grade": "critique", "notches": notches}], **fields)


def run(s: Any, action: Any, rules_table: Any = None) -> rules.Outcome:
    return rules.apply(s, action, rules_table=rules_table)


def line(outcome: rules.Outcome, start: str) -> str:
    found = [entry for entry in outcome.log if entry.startswith(start)]
    assert found, f"no journal line starting with {start!r} in {outcome.log}"
    return found[0]


def last_number(text: str) -> int:
    match = re.search(r"= (−?\d+)\.$", text)
    assert match, text
    return int(match.group(1).replace("−", "-"))


def power_of(outcome: rules.Outcome) -> int:
    return last_number(line(outcome, "Puissance"))


def house(**sections: dict[str, Any]) -> Any:
    """The shipped table with a few sections changed (a GM's house rules)."""
    updates = {name: getattr(RS, name).model_copy(update=values) for name, values in sections.items()}
    return RS.model_copy(update=updates)


# --------------------------------------------------------------------------------------------------
# Puissance contre Résistance
# --------------------------------------------------------------------------------------------------


def test_strike_names_its_damage_type() -> None:
    """« Tout d’abord définissez la nature des dommages, c’est-à-dire le Type de Dégâts : par exemple un
    coup de poing serait défini comme une attaque dont le type est Écrasant. »"""
    s = sheet()
    with pytest.raises(rules.Refused, match="Type de dégâts inconnu"):
        run(s, rules.Strike(margin=1, damage_type="contondant", body_part="bras_droit", rolls=(4, 1)))
    out = run(s, rules.Strike(margin=1, damage_type="ecrasant", body_part="bras_droit", rolls=(4, 1)))
    (wound,) = out.sheet.wounds
    assert wound.damage_type == "ecrasant"
    assert wound.severity == 3


@pytest.mark.parametrize(
    ("margin", "grade"),
    [
        (0, "Molle"),
        (1, "Percutante"),
        (4, "Percutante"),
        (5, "Brutale"),
        (6, "Brutale"),
        (7, "Redoutable"),
        (9, "Redoutable"),
        (10, "Dévastatrice"),
        (40, "Dévastatrice"),
    ],
)
def test_power_grade_follows_the_opposition_margin(margin: int, grade: str) -> None:
    """« La Puissance découle directement de la différence d’Opposition obtenue lors du Défi de l’attaque »"""
    s = sheet(equipment=[ARMOURED])
    out = rules.apply(
        s,
        rules.Strike(margin=margin, damage_type="tranchant", body_part="bras_droit"),
        rng=random.Random(margin),
    )
    assert line(out, "Puissance").startswith(f"Puissance {grade} (différence {margin})")
    assert out.rolls[0].expression == "1d4"


def test_molle_power_is_the_d4_alone() -> None:
    """« Une Puissance Molle n’apporte aucun ajout en dehors du D4. »"""
    s = sheet(equipment=[ARMOURED])
    out = run(s, rules.Strike(margin=0, damage_type="tranchant", body_part="torse", damage_modifier=4, rolls=(3, 1)))
    # Neither the damage modifier nor the vital-zone modifier (torse is vital).
    assert power_of(out) == 3


def test_percutante_power_adds_the_damage_modifier() -> None:
    """« Une Puissance Percutante permet d’ajouter les Modificateurs de dégâts. »"""
    s = sheet(equipment=[ARMOURED])
    out = run(
        s, rules.Strike(margin=3, damage_type="tranchant", body_part="bras_droit", damage_modifier=4, rolls=(3, 1))
    )
    assert power_of(out) == 3 + 4
    assert [r.expression for r in out.rolls] == ["1d4", "1d4"]


def test_brutale_power_adds_a_d8() -> None:
    """« Une Puissance Brutale procure un D8 pour le jet de Sévérité en plus du Modificateur de dégâts »"""
    s = sheet(equipment=[ARMOURED])
    out = run(
        s, rules.Strike(margin=5, damage_type="tranchant", body_part="bras_droit", damage_modifier=2, rolls=(3, 8, 1))
    )
    assert power_of(out) == 3 + 2 + 8
    assert [r.expression for r in out.rolls] == ["1d4", "1d8", "1d4"]


def test_redoutable_power_rolls_efficacy_with_facilite() -> None:
    """« Une Puissance Redoutable applique le Modificateur de dégâts et accorde un D8 d’Efficacité au jet de
    Puissance avec Facilité. »"""
    s = sheet(equipment=[ARMOURED])
    strike = rules.Strike(margin=8, damage_type="tranchant", body_part="bras_droit", damage_modifier=2)
    # Facilité: the D8 is rolled twice and the best kept, whichever comes first.
    assert power_of(run(s, strike.model_copy(update={"rolls": (3, 2, 7, 1)}))) == 3 + 2 + 7
    assert power_of(run(s, strike.model_copy(update={"rolls": (3, 7, 2, 1)}))) == 3 + 2 + 7
    # A house table without Facilité keeps the single die.
    plain = house(power={"facility_rolls": 1})
    assert power_of(run(s, strike.model_copy(update={"rolls": (3, 2, 1)}), plain)) == 3 + 2 + 2


def test_devastatrice_power_adds_two_d8() -> None:
    """« Une Puissance Dévastatrice permet d’obtenir deux D8 sur le jet de Puissance en plus du Modificateur de
    dégâts. »"""
    s = sheet(equipment=[ARMOURED])
    out = run(
        s, rules.Strike(margin=12, damage_type="tranchant", body_part="bras_droit", damage_modifier=2, rolls=(3, 16, 1))
    )
    assert power_of(out) == 3 + 2 + 16
    assert out.rolls[1].expression == "2d8"


def test_vital_zone_modifier_is_the_gms_choice_for_each_strike() -> None:
    """« Une frappe portée sur une zone vitale peut se voir octroyer un Modificateur de plus. » — « peut » : the
    GM grants it strike by strike (off by default), and only on a vital zone."""
    s = sheet(equipment=[ARMOURED])
    plain = run(s, rules.Strike(margin=2, damage_type="tranchant", body_part="torse", rolls=(3, 1)))
    assert power_of(plain) == 3
    assert "zone vitale" not in line(plain, "Puissance")
    granted = run(s, rules.Strike(margin=2, damage_type="tranchant", body_part="torse", vital_zone=True, rolls=(3, 1)))
    assert power_of(granted) == 3 + RS.power.vital_zone_modifier == 4
    assert "+1 (zone vitale)" in line(granted, "Puissance")
    # The table says how much (a house rule may make it +2).
    plus_two = house(power={"vital_zone_modifier": 2})
    strike = rules.Strike(margin=2, damage_type="tranchant", body_part="tete", vital_zone=True, rolls=(3, 1))
    assert power_of(run(s, strike, plus_two)) == 5
    # A limb is no vital zone: the modifier cannot be granted there, and nothing changes.
    with pytest.raises(rules.Refused, match=r"Bras droit n'est pas une zone vitale .*tête, torse, abdomen"):
        run(s, rules.Strike(margin=2, damage_type="tranchant", body_part="bras_droit", vital_zone=True, rolls=(3, 1)))


def test_vital_zone_choice_is_a_field_of_the_strike_off_by_default() -> None:
    """« peut se voir octroyer un Modificateur de plus » — the strike's form shows the choice, unticked."""
    field = rules.Strike.model_fields["vital_zone"]
    assert field.annotation is bool and field.default is False
    assert field.title == "Zone vitale : accorder un Modificateur de plus"
    # Every field a form shows is titled in French.
    for action in (
        rules.Strike,
        rules.InflictWound,
        rules.TenacityTest,
        rules.TreatWound,
        rules.DiagnoseWound,
        rules.SetHandicap,
        rules.WorseningRisk,
        rules.SupernaturalHealing,
        rules.EraseWound,
    ):
        for name, info in action.model_fields.items():
            if name not in ("kind", "rolls"):
                assert info.title, (action.__name__, name)


def test_molle_power_says_it_adds_nothing_to_the_die() -> None:
    """« Une Puissance Molle n’apporte aucun ajout en dehors du D4. »"""
    s = sheet(equipment=[ARMOURED])
    out = run(
        s,
        rules.Strike(
            margin=0, damage_type="tranchant", body_part="torse", damage_modifier=3, vital_zone=True, rolls=(2, 1)
        ),
    )
    assert power_of(out) == 2
    assert "aucun ajout en dehors du dé" in line(out, "Puissance")


def test_resistance_is_d4_plus_the_protection_of_the_zone_hit() -> None:
    """« Elle se définit sous la forme d’un jet de un D4 auquel s’ajoute un Modificateur de protection. »
    « Si un Équipement protège la zone touchée par l’attaque, appliquez le Modificateur de protection au jet de
    Résistance. Notez bien que la Protection d’une armure est différente en fonction du Type de Dégâts de
    l’attaque qu’elle reçoit. »"""
    brigandine = {
        "name": "Brigandine",
        "body_parts": ["torse"],
        "protections": [{"damage_type": "tranchant", "modifier": 3}, {"damage_type": "ecrasant", "modifier": 1}],
    }
    s = sheet(equipment=[brigandine])

    def resistance(damage_type: str, part: str) -> int:
        out = run(s, rules.Strike(margin=0, damage_type=damage_type, body_part=part, rolls=(1, 2)))
        return last_number(line(out, "Résistance"))

    assert resistance("tranchant", "torse") == 2 + 3
    assert resistance("ecrasant", "torse") == 2 + 1
    assert resistance("percant", "torse") == 2  # no value against piercing: it does not protect
    assert resistance("tranchant", "bras_droit") == 2  # the arm is not covered


def test_several_pieces_on_one_zone_do_not_stack_unless_the_table_says_so() -> None:
    """« Si un Équipement protège la zone touchée par l’attaque, appliquez le Modificateur de protection »"""
    mail = {"name": "Maille", "body_parts": ["torse"], "protections": [{"damage_type": "tranchant", "modifier": 3}]}
    jack = {"name": "Gambison", "body_parts": ["torse"], "protections": [{"damage_type": "tranchant", "modifier": 1}]}
    s = sheet(equipment=[mail, jack])
    strike = rules.Strike(margin=0, damage_type="tranchant", body_part="torse", rolls=(1, 2))
    assert last_number(line(run(s, strike), "Résistance")) == 2 + 3
    stacking = house(resistance={"protection_stacks": True})
    assert last_number(line(run(s, strike, stacking), "Résistance")) == 2 + 3 + 1


def test_a_piece_worth_nothing_against_the_damage_type_is_not_named_even_when_pieces_stack() -> None:
    """« Notez bien que la Protection d’une armure est différente en fonction du Type de Dégâts de l’attaque qu’elle
    reçoit. » A leather jack worth 0 against slashing does not protect against it: with stacking pieces (a house
    table), the Résistance names the mail alone."""
    leather = {
        "name": "Cuir",
        "body_parts": ["torse"],
        "protections": [{"damage_type": "tranchant", "modifier": 0}, {"damage_type": "ecrasant", "modifier": 2}],
    }
    mail = {"name": "Maille", "body_parts": ["torse"], "protections": [{"damage_type": "tranchant", "modifier": 3}]}
    strike = rules.Strike(margin=0, damage_type="tranchant", body_part="torse", rolls=(1, 2))
    stacking = house(resistance={"protection_stacks": True})
    text = line(run(sheet(equipment=[leather, mail]), strike, stacking), "Résistance")
    assert last_number(text) == 2 + 3
    assert "Maille" in text and "Cuir" not in text


def test_severity_is_power_minus_resistance() -> None:
    """« Une fois que vous aurez déterminé la valeur de Puissance et la valeur de Résistance, il suffit de les
    soustraire afin d’obtenir la Sévérité. »"""
    s = sheet()
    out = run(
        s, rules.Strike(margin=5, damage_type="percant", body_part="jambe_gauche", damage_modifier=1, rolls=(2, 4, 3))
    )
    assert line(out, "Sévérité =") == "Sévérité = 7 − 3 = 4."
    (wound,) = out.sheet.wounds
    assert (wound.severity, wound.grade) == (4, "legere")


def test_severity_reads_soustraire_as_power_minus_resistance() -> None:
    """« Pour l’obtenir il faut soustraire la Puissance de l’attaque à la Résistance de la victime » read with
    « Si le résultat est négatif, cela signifie que l’attaque n’a pas causé suffisamment de dommages » : a stronger
    blow gives a greater Sévérité (Puissance − Résistance), never the reverse (issue 14, note V0)."""
    s = sheet()
    weak = run(s, rules.Strike(margin=1, damage_type="percant", body_part="jambe_gauche", rolls=(1, 4)))
    strong = run(s, rules.Strike(margin=1, damage_type="percant", body_part="jambe_gauche", rolls=(4, 1)))
    assert line(weak, "Sévérité =") == "Sévérité = 1 − 4 = −3."
    assert weak.sheet == s and "no_wound" in weak.events
    assert line(strong, "Sévérité =") == "Sévérité = 4 − 1 = 3."
    assert strong.sheet.wounds[0].severity == 3


def test_negative_severity_makes_no_wound() -> None:
    """« Si le résultat est négatif, cela signifie que l’attaque n’a pas causé suffisamment de dommages pour
    créer une Blessure. »"""
    s = sheet(equipment=[ARMOURED])
    out = run(
        s, rules.Strike(margin=10, damage_type="tranchant", body_part="torse", damage_modifier=5, rolls=(4, 16, 4))
    )
    assert out.sheet == s
    assert "no_wound" in out.events
    assert run(s, rules.Damage(amount="-1")).sheet == s


# --------------------------------------------------------------------------------------------------
# Blessure et Trauma
# --------------------------------------------------------------------------------------------------


def test_a_severity_of_zero_is_a_wound() -> None:
    """« Quand la valeur de Sévérité  est supérieure ou égale à 0, une Blessure a été infligée. »"""
    out = run(sheet(), rules.Damage(amount=0))
    assert "wound" in out.events
    assert "Blessure Bénigne" in " ".join(out.log)


def test_benign_wounds_may_go_unrecorded() -> None:
    """« Une Blessure Bénigne a un effet insignifiant sur celui qui la subit. » « Il n’est pas systématique de
    prendre note de ces Blessures, car elles ne provoquent aucune séquelle. »"""
    s = sheet()
    out = run(s, rules.Damage(amount=1))
    assert out.sheet == s
    kept = run(
        s, rules.Damage(amount=1), rules_table=RS.model_copy(update={"grades": _grades(benigne={"recorded": True})})
    )
    (wound,) = kept.sheet.wounds
    assert (wound.grade, wound.notches) == ("benigne", 0)
    assert rules.derive(kept.sheet).current == 0


def _grades(**changes: dict[str, Any]) -> dict[str, Any]:
    return {k: (g.model_copy(update=changes[k]) if k in changes else g) for k, g in RS.grades.items()}


def test_legere_wound_fills_the_gauge() -> None:
    """« Elles sont moins susceptibles de créer un Handicap, mais font monter la jauge de Trauma. »"""
    out = run(sheet(), rules.Damage(amount=3))
    (wound,) = out.sheet.wounds
    assert wound.grade == "legere"
    assert rules.derive(out.sheet).current == RS.grades["legere"].notches == 1
    # The first tier asks no test: no die was rolled.
    assert out.rolls == ()


def test_grave_wound_adds_three_notches_and_always_tests() -> None:
    """« Elle monte votre jauge de Trauma de 3 crans, ce qui résulte systématiquement en un Défi de Ténacité »"""
    out = run(sheet(), rules.Damage(amount=6, rolls=(9,)))
    assert rules.derive(out.sheet).current == 3
    assert [r.expression for r in out.rolls] == ["1d10"]
    assert line(out, "Défi de Ténacité").startswith("Défi de Ténacité contre Jouable (8)")
    # Already at 4 notches, a Grave brings the gauge to 7: the fourth tier, Difficile (12).
    out = run(with_notches(4), rules.Damage(amount=5, rolls=(10,)))
    assert rules.derive(out.sheet).current == 7
    assert line(out, "Défi de Ténacité").startswith("Défi de Ténacité contre Difficile (12)")


def test_critique_wound_adds_five_notches() -> None:
    """« Elle va dangereusement monter votre jauge de Trauma de cinq crans. »"""
    out = run(sheet(), rules.Damage(amount=9, body_part="jambe_droite", rolls=(10,)))
    (wound,) = out.sheet.wounds
    assert wound.grade == "critique"
    assert rules.derive(out.sheet).current == 5
    assert line(out, "Défi de Ténacité").startswith("Défi de Ténacité contre Compliqué (10)")


def test_fatale_on_a_vital_zone_kills_an_npc() -> None:
    """« Quand elle est infligée sur une zone vitale elle peut tuer sur le coup, purement et simplement. »"""
    out = run(sheet(is_npc=True), rules.Damage(amount=13, body_part="tete"))
    assert out.sheet.dead
    assert rules.derive(out.sheet).state == "mort"
    assert "died" in out.events
    with pytest.raises(rules.Refused):
        run(out.sheet, rules.TreatWound(wound_id=1, treatment="bandage"))


def test_fatale_on_a_limb_cripples_it() -> None:
    """« Dans le meilleur des cas, elle se contente de rendre le membre touché complètement invalide, ou
    sectionné. »"""
    out = run(sheet(is_npc=True), rules.Damage(amount=14, body_part="bras_gauche", rolls=(10,)))
    assert not out.sheet.dead
    (wound,) = out.sheet.wounds
    assert wound.crippled
    assert wound.handicap == RS.fatal.crippled_handicap
    assert "crippled" in out.events


def test_fatale_weighs_more_than_a_critique_on_the_gauge() -> None:
    """« Une Blessure Critique vous afflige profondément. Elle va dangereusement monter votre jauge de Trauma de
    cinq crans. » … « Une Blessure Fatale est un terrible scénario pour celui qui la reçoit. » — the seed gives no
    notches for a Fatale wound; our reading (V9) is 7, more than a Critique: on an empty gauge it reaches the last
    tier, and the Défi de Ténacité is Difficile (12), where a Critique's is Compliqué (10)."""
    out = run(sheet(), rules.InflictWound(grade="fatale", body_part="bras_gauche", rolls=(10,)))
    assert rules.derive(out.sheet).current == 7
    assert line(out, "Blessure Fatale").startswith(
        "Blessure Fatale (bras gauche) : +7 crans de Trauma (0 → 7, palier 4"
    )
    assert line(out, "Défi de Ténacité").startswith("Défi de Ténacité contre Difficile (12)")
    critique = run(sheet(), rules.InflictWound(grade="critique", body_part="bras_gauche", rolls=(10,)))
    assert rules.derive(critique.sheet).current == 5
    assert line(critique, "Défi de Ténacité").startswith("Défi de Ténacité contre Compliqué (10)")


def test_survival_roll_must_equal_or_beat_the_severity() -> None:
    """« Prenez le résultat du jet de Sévérité de la Blessure qui vous a été infligé et vous aurez ainsi la
    valeur qu’il vous faudra surmonter. Vous aurez droit à un seul et unique jet de dé pour égaliser ou dépasser
    ce montant. »"""
    s = sheet()
    saved = run(s, rules.Damage(amount=14, body_part="torse", rolls=(14,)))
    assert not saved.sheet.dead
    assert saved.rolls[-1].expression == "1d20"
    assert "survived" in saved.events
    lost = run(s, rules.Damage(amount=14, body_part="torse", rolls=(13,)))
    assert lost.sheet.dead


@pytest.mark.parametrize(
    ("severity", "roll", "alive"), [(19, 19, True), (20, 19, False), (25, 19, False), (25, 20, True)]
)
def test_a_severity_over_19_needs_a_20(severity: int, roll: int, alive: bool) -> None:
    """« Si cette valeur est supérieure à 19, il vous faudra impérativement obtenir un 20 pour vous en sortir. »"""
    out = run(sheet(), rules.Damage(amount=severity, body_part="tete", rolls=(roll,)))
    assert out.sheet.dead is not alive


def test_survivor_is_unconscious_and_stable_until_the_end_of_the_conflict() -> None:
    """« Dans tous les cas si par miracle le test de Survie est réussi, le personnage tombera inconscient mais son
    état restera stable jusqu’à la fin du Conflit. Il aura bien évidemment besoin de soin important afin de
    récupérer. »"""
    out = run(sheet(), rules.Damage(amount=12, body_part="abdomen", rolls=(18,)))
    s = out.sheet
    assert {"inconscient", "stabilise"} <= set(s.conditions)
    derived = rules.derive(s)
    assert derived.state == "stabilise"
    assert derived.can_act is False
    # No Défi de Ténacité for an unconscious survivor: only the D20 was rolled.
    assert [r.expression for r in out.rolls] == ["1d20"]
    s = run(s, rules.EndConflict()).sheet
    assert s.conditions == ("inconscient",)
    assert rules.derive(s).state == "inconscient"
    s = run(s, rules.TreatWound(wound_id=1, treatment="bandage")).sheet
    assert "inconscient" in s.conditions  # a bandage is not « soin important »
    s = run(s, rules.TreatWound(wound_id=1, treatment="operation")).sheet
    assert s.conditions == ()


def test_an_npc_gets_no_survival_roll_and_a_pc_needs_the_severity() -> None:
    """« Si cette Blessure est sur le point de tuer un joueur, il peut lui rester une maigre chance de Survie »"""
    with pytest.raises(rules.Refused, match="Sévérité"):
        run(sheet(), rules.InflictWound(grade="fatale", body_part="torse"))
    out = run(sheet(), rules.InflictWound(grade="fatale", severity=15, body_part="torse", rolls=(15,)))
    assert not out.sheet.dead
    assert run(sheet(is_npc=True), rules.InflictWound(grade="fatale", body_part="torse")).sheet.dead


# --------------------------------------------------------------------------------------------------
# Ténacité
# --------------------------------------------------------------------------------------------------


def test_gauge_has_four_tiers_of_two_notches() -> None:
    """« La jauge est composée de 4 paliers comprenant deux crans de Trauma. »"""
    derived = rules.derive(sheet())
    assert derived.maximum == 8
    assert "4 paliers × 2 crans" in derived.explain("maximum")
    tiers = rules.describe("severite").extra["trauma_tiers"]
    assert [t["notches"] for t in tiers] == [2, 2, 2, 2]
    assert [t["opposition"] for t in tiers] == [None, 8, 10, 12]


@pytest.mark.parametrize(
    ("notches", "opposition"),
    [(0, None), (1, None), (2, None), (3, 8), (4, 8), (5, 10), (6, 10), (7, 12), (8, 12), (9, 14), (30, 14)],
)
def test_each_tier_sets_the_tenacity_opposition(notches: int, opposition: int | None) -> None:
    """« Au premier palier aucun test ne sera nécessaire. Ensuite se succèdent des Oppositions de difficultés
    croissantes: Jouable (8), Compliqué (10) et Difficile (12). Au-delà de ces paliers, tout Défi de Ténacité
    devra être accompli à un niveau Ardu (14). »"""
    s = with_notches(notches) if notches else sheet()
    assert rules.derive(s).tenacity_opposition == opposition
    if opposition is None:
        with pytest.raises(rules.Refused, match="Aucun Défi"):
            run(s, rules.TenacityTest(rolls=(5,)))
    else:
        out = run(s, rules.TenacityTest(rolls=(5,)))
        assert f"({opposition}) : 1d10 = 5" in line(out, "Défi de Ténacité")


def test_legere_tests_only_when_the_gauge_enters_a_tier_that_asks_one() -> None:
    """« Au fur et à mesure que celle-ci augmente, vous serez susceptible de faire un Défi de Ténacité afin de
    savoir si vous êtes en mesure de continuer à combattre. »"""
    entering = run(with_notches(2), rules.Damage(amount=2, rolls=(9,)))  # 2 → 3: Jouable
    assert [r.expression for r in entering.rolls] == ["1d10"]
    same_tier = run(with_notches(3), rules.Damage(amount=2))  # 3 → 4: still Jouable
    assert same_tier.rolls == ()
    assert rules.derive(same_tier.sheet).current == 4
    beyond = run(with_notches(9), rules.Damage(amount=2, rolls=(10,)))  # past the gauge: every wound
    assert line(beyond, "Défi de Ténacité").startswith("Défi de Ténacité contre Ardu (14)")


def test_tenacity_uses_physique_or_mental_for_a_psychological_wound() -> None:
    """« Vous devrez pour cela utiliser votre Physique (ou votre Mental dans le cas où la Blessure serait
    psychologique) face à l’Opposition passive indiquée. »"""
    s = sheet(physique=5, mental=-2)
    body = run(s, rules.InflictWound(grade="grave", damage_type="tranchant", rolls=(3,)))
    assert "+5 (Physique) = 8" in line(body, "Défi de Ténacité")
    assert "hors_de_combat" not in body.sheet.conditions
    mind = run(s, rules.InflictWound(grade="grave", damage_type="psychique", rolls=(3,)))
    assert "−2 (Mental) = 1" in line(mind, "Défi de Ténacité")
    assert "hors_de_combat" in mind.sheet.conditions
    assert mind.sheet.wounds[0].psychological


def test_skills_and_talents_make_a_character_tougher() -> None:
    """« Certaines Compétences ou Talents peuvent vous rendre plus tenace, comme l’Athlétisme, l’Endurance ou
    d’autres encore tant que cela se justifie. »"""
    s = sheet(tenacity_skill=True, tenacity_bonus=1)
    out = run(s, rules.InflictWound(grade="grave", rolls=(3, 4)))
    assert [r.expression for r in out.rolls] == ["1d10", "1d6"]
    # 3 + 2 (Physique) + 4 (Compétence) + 1 (Talent) = 10 against 8: margin 2, Correcte.
    assert line(out, "Défi de Ténacité").endswith(
        "= 10 → réussite Correcte (différence 2) : Ténacité Stoïque. "
        "L'Action du tour courant est interrompue ; agit au prochain tour."
    )


def test_failed_tenacity_puts_out_of_the_fight_until_the_end_of_the_conflict() -> None:
    """« Si le Défi est échoué, vous êtes hors combat, ce qui veut dire que vous serez incapable d’agir jusqu’à
    la fin du Conflit. »"""
    s = run(sheet(), rules.InflictWound(grade="grave", rolls=(5,))).sheet  # 5 + 2 = 7 < 8
    assert "hors_de_combat" in s.conditions
    derived = rules.derive(s)
    assert derived.state == "hors_de_combat"
    assert derived.can_act is False
    s = run(s, rules.AdvanceTime(unit="minute", count=10)).sheet
    assert "hors_de_combat" in s.conditions
    s = run(s, rules.EndConflict()).sheet
    assert s.conditions == ()
    assert rules.derive(s).can_act is True


def test_no_new_tenacity_test_while_already_out() -> None:
    """« Si le Défi est échoué, vous êtes hors combat »"""
    s = run(sheet(), rules.InflictWound(grade="grave", rolls=(1,))).sheet
    out = run(s, rules.InflictWound(grade="grave"))
    assert out.rolls == ()
    assert rules.derive(out.sheet).current == 6


def test_faible_success_is_tourmentee_until_the_end_of_the_next_turn() -> None:
    """« Une Ténacité Tourmentée sera effective dans le cas où votre niveau de réussite est Faible. Vous
    resterez en piste mais incapacité momentanément par la douleur jusqu’à la fin du prochain tour. »"""
    s = run(sheet(), rules.InflictWound(grade="grave", rolls=(6,))).sheet  # margin 0
    assert s.conditions == ("tourmente",)
    assert rules.derive(s).can_act is False
    s = run(s, rules.AdvanceTime(unit="turn")).sheet  # end of the current turn
    assert s.conditions == ("tourmente",)
    s = run(s, rules.AdvanceTime(unit="turn")).sheet  # end of the next turn
    assert s.conditions == ()
    assert rules.derive(s).can_act is True


def test_correcte_success_is_stoique_the_current_action_is_lost() -> None:
    """« Une Ténacité Stoïque agira dans le cas d’une réussite Correcte. Vous aurez la possibilité d’agir lors du
    prochain tour, cependant votre Action pour le tour courant est interrompue. »"""
    s = run(sheet(), rules.InflictWound(grade="grave", rolls=(8,))).sheet  # margin 2
    assert s.conditions == ("stoique",)
    assert rules.derive(s).state == "sonne"
    s = run(s, rules.AdvanceTime(unit="turn")).sheet
    assert s.conditions == ()


def test_efficace_success_is_inebranlable_the_wound_is_ignored() -> None:
    """« Une Ténacité Inébranlable aura lieu alors que vous obtiendrez un niveau de réussite Efficace. Vous
    permet tout simplement d’ignorer la Blessure jusqu’à la fin du Conflit. »"""
    action = rules.InflictWound(grade="grave", handicap="Poignet brisé", handicap_penalty=-2, rolls=(10,))  # margin 4
    s = run(sheet(), action).sheet
    assert s.conditions == ("inebranlable",)
    assert s.wounds[0].ignored
    derived = rules.derive(s)
    assert derived.roll_penalty == 0
    assert derived.can_act is True
    assert derived.current == 3  # the notches stay in the gauge
    s = run(s, rules.EndConflict()).sheet
    assert not s.wounds[0].ignored
    assert rules.derive(s).roll_penalty == -2


def test_an_ignored_wound_counts_again_at_the_end_of_the_conflict_whatever_marks_it() -> None:
    """« Vous permet tout simplement d’ignorer la Blessure jusqu’à la fin du Conflit. » — a GM's table where the
    Inébranlable result leaves no state on the sheet: the wound is ignored all the same, until the Conflict ends."""
    results = dict(RS.tenacity_results)
    results["inebranlable"] = RS.tenacity_results["inebranlable"].model_copy(update={"condition": None})
    table = RS.model_copy(update={"tenacity_results": results})
    action = rules.InflictWound(grade="grave", handicap="Poignet brisé", handicap_penalty=-2, rolls=(10,))  # margin 4
    s = run(sheet(), action, table).sheet
    assert s.conditions == () and s.wounds[0].ignored
    assert rules.derive(s, table).roll_penalty == 0
    out = run(s, rules.EndConflict(), table)
    assert not out.sheet.wounds[0].ignored
    assert rules.derive(out.sheet, table).roll_penalty == -2
    assert out.log == ("Les blessures ignorées comptent de nouveau : n° 1 Grave.",)


def test_an_ignored_wounds_handicap_does_not_hamper_the_tenacity_test() -> None:
    """« Vous permet tout simplement d’ignorer la Blessure jusqu’à la fin du Conflit. » — with a table where
    Handicaps weigh on the Défi de Ténacité (V12), only those of the wounds not ignored count."""
    table = house(tenacity={"handicaps_apply": True})
    s = sheet(
        conditions=["inebranlable"],
        wounds=[
            {
                "id": 1,
                "grade": "grave",
                "notches": 3,
                "handicap": "Poignet brisé",
                "handicap_penalty": -2,
                "ignored": True,
            },
            {"id": 2, "grade": "legere", "notches": 1, "handicap": "Genou raide", "handicap_penalty": -1},
            {"id": 3, "grade": "legere", "notches": 1},
        ],
    )
    out = run(s, rules.TenacityTest(opposition=8, rolls=(7,)), table)
    assert line(out, "Défi de Ténacité").startswith(
        "Défi de Ténacité contre l'Opposition choisie (8) : 1d10 = 7 (valeur donnée) +2 (Physique) −1 (Handicaps) = 8"
    )


def test_impressionnante_success_is_frenetique_one_notch_less() -> None:
    """« Une Ténacité Frénétique anime le personnage si la réussite est Impressionnante, l’adrénaline engendrée
    vous fera baisser votre jauge de Trauma d’un cran. »"""
    out = run(sheet(physique=6), rules.InflictWound(grade="grave", rolls=(8,)))  # 14 vs 8: margin 6
    assert "Ténacité Frénétique" in line(out, "Défi de Ténacité")
    assert rules.derive(out.sheet).current == 3 - 1
    assert out.sheet.conditions == ()


def test_phenomenale_success_is_surnaturelle_two_notches_less() -> None:
    """« Une Ténacité Surnaturelle se présentera lors d’une réussite Phénoménale, le personnage verra sa jauge  de
    Trauma diminuer de 2 crans! »"""
    s = sheet(
        physique=6, wounds=[{"id": 1, "grade": "legere", "notches": 1}, {"id": 2, "grade": "legere", "notches": 1}]
    )
    out = run(s, rules.InflictWound(grade="grave", rolls=(10,)))  # 5 notches: Compliqué (10); 16 − 10 = 6
    assert "réussite Impressionnante" in line(out, "Défi de Ténacité")
    out = run(sheet(physique=6), rules.InflictWound(grade="grave", rolls=(10,)))  # 16 vs 8: margin 8
    assert "Ténacité Surnaturelle" in line(out, "Défi de Ténacité")
    assert rules.derive(out.sheet).current == 3 - 2
    # The notches come off the wound that called for the test; it stays until treated (V18).
    (wound,) = out.sheet.wounds
    assert wound.notches == 1


def test_success_level_grid_is_data() -> None:
    """« Le niveau de réussite de votre test de Ténacité va influer sur votre capacité à gérer votre Blessure et
    votre capacité d’Action sur le tour. »"""
    levels = {k: v.model_copy(update={"min_margin": 3 * i}) for i, (k, v) in enumerate(RS.success_levels.items())}
    table = RS.model_copy(update={"success_levels": levels})
    out = run(sheet(), rules.InflictWound(grade="grave", rolls=(8,)), rules_table=table)  # margin 2: still Faible
    assert out.sheet.conditions == ("tourmente",)


def test_gm_called_tenacity_test_with_an_opposition() -> None:
    """« le Meneur de Jeu peut demander à un joueur de faire un Défi de Ténacité »"""
    out = run(sheet(), rules.TenacityTest(opposition=14, rolls=(10,)))
    assert "hors_de_combat" in out.sheet.conditions


# --------------------------------------------------------------------------------------------------
# Handicaps
# --------------------------------------------------------------------------------------------------


def test_gm_may_attach_a_handicap_to_a_serious_wound() -> None:
    """« Le Meneur de Jeu pourra fréquemment vous imposer un Handicap. Imaginez par exemple une fracture au pouce
    qui vous empêcherait de tenir votre arme correctement »"""
    s = run(sheet(), rules.InflictWound(grade="grave", rolls=(9,))).sheet
    s = run(s, rules.SetHandicap(wound_id=1, handicap="Pouce fracturé", penalty=-2)).sheet
    assert (s.wounds[0].handicap, s.wounds[0].handicap_penalty) == ("Pouce fracturé", -2)
    derived = rules.derive(s)
    assert derived.roll_penalty == -2
    assert "Pouce fracturé" in derived.explain("roll_penalty")
    assert derived.handicaps == ((1, "Pouce fracturé", -2, False),)
    s = run(s, rules.SetHandicap(wound_id=1)).sheet
    assert rules.derive(s).roll_penalty == 0
    strike = rules.Strike(
        margin=5, damage_type="tranchant", body_part="bras_gauche", handicap="Bras en écharpe", rolls=(4, 8, 1, 9)
    )
    assert run(sheet(), strike).sheet.wounds[0].handicap == "Bras en écharpe"


def test_a_benign_wound_leaves_no_handicap() -> None:
    """« Il n’est pas systématique de prendre note de ces Blessures, car elles ne provoquent aucune séquelle. »"""
    s = sheet(wounds=[{"id": 1, "grade": "benigne", "notches": 0}])
    with pytest.raises(rules.Refused, match="Handicap"):
        run(s, rules.SetHandicap(wound_id=1, handicap="Hématome"))
    with pytest.raises(rules.Refused, match="Handicap"):
        run(sheet(), rules.InflictWound(grade="benigne", handicap="Hématome"))


# --------------------------------------------------------------------------------------------------
# Guérison des Blessures
# --------------------------------------------------------------------------------------------------


def test_treated_wounds_lower_the_gauge_one_notch_each_at_rest() -> None:
    """« Pour qu’une Blessure puisse guérir, il est nécessaire que celle-ci soit traitée, par exemple à l’aide
    d’un bandage, d’un médicament, ou d’une opération en fonction des sévices. » « Lors de son prochain repos le
    personnage verra sa jauge de Trauma diminuer d’un cran pour chaque Blessure traitée. »"""
    s = sheet(
        wounds=[
            {"id": 1, "grade": "grave", "notches": 3},
            {"id": 2, "grade": "legere", "notches": 1},
            {"id": 3, "grade": "critique", "notches": 5},
        ]
    )
    s = run(s, rules.TreatWound(wound_id=1, treatment="medicament")).sheet
    s = run(s, rules.TreatWound(wound_id=2, treatment="bandage")).sheet
    assert rules.derive(s).rest_recovery == 2
    out = run(s, rules.LongRest(hours=8))
    after = out.sheet
    assert rules.derive(after).current == 9 - 2
    assert {w.id: w.notches for w in after.wounds} == {1: 2, 3: 5}  # the Légère healed and left the sheet
    assert "healed" in out.events
    with pytest.raises(rules.Refused, match="Traitement inconnu"):
        run(s, rules.TreatWound(wound_id=3, treatment="prière"))


def test_untreated_wounds_do_not_heal_with_rest() -> None:
    """« Si par négligence ou par manque de moyens un personnage ne traite pas ses Blessures, celles-ci ne
    guériront pas avec du repos et pourraient même s’aggraver. »"""
    s = sheet(wounds=[{"id": 1, "grade": "grave", "notches": 3}, {"id": 2, "grade": "legere", "notches": 0}])
    for day in range(3):
        s = run(s, rules.AdvanceTime(unit="day")).sheet
        s = run(s, rules.LongRest(hours=8)).sheet
        assert [(w.id, w.notches) for w in s.wounds] == [(1, 3), (2, 0)], day


def test_a_diagnosis_may_be_recorded() -> None:
    """« Il peut être intéressant alors de pouvoir en faire un diagnostic par une personne compétente. »"""
    s = sheet(wounds=[{"id": 1, "grade": "grave", "notches": 3}])
    s = run(s, rules.DiagnoseWound(wound_id=1, diagnosis="Côte fêlée")).sheet
    assert s.wounds[0].diagnosis == "Côte fêlée"
    assert s.wounds[0].treatment is None
    s = run(s, rules.TreatWound(wound_id=1, treatment="bandage", diagnosis="Côte cassée, poumon intact")).sheet
    assert (s.wounds[0].treatment, s.wounds[0].diagnosis) == ("bandage", "Côte cassée, poumon intact")
    with pytest.raises(rules.Refused, match="n° 9"):
        run(s, rules.DiagnoseWound(wound_id=9, diagnosis="?"))


def test_risking_an_untreated_wound_may_worsen_it() -> None:
    """« Même en dehors d’un combat, le Meneur de Jeu peut demander à un joueur de faire un Défi de Ténacité
    lorsqu’un personnage au travers d’une action prend le risque d’empirer son état. »"""
    s = sheet(wounds=[{"id": 1, "grade": "grave", "notches": 3}, {"id": 2, "grade": "legere", "notches": 1}])
    kept = run(s, rules.WorseningRisk(wound_id=2, rolls=(6,)))  # 8 against Jouable (8)
    assert kept.sheet == s
    worse = run(s, rules.WorseningRisk(wound_id=2, rolls=(5,)))
    assert worse.sheet.wounds[1].grade == "grave"
    assert rules.derive(worse.sheet).current == 4 + 2
    treated = run(s, rules.TreatWound(wound_id=2, treatment="bandage")).sheet
    with pytest.raises(rules.Refused, match="traitée"):
        run(treated, rules.WorseningRisk(wound_id=2, rolls=(1,)))
    light = sheet(wounds=[{"id": 1, "grade": "legere", "notches": 1}])
    with pytest.raises(rules.Refused, match="Aucun Défi"):
        run(light, rules.WorseningRisk(wound_id=1, rolls=(1,)))
    assert run(light, rules.WorseningRisk(wound_id=1, opposition=10, rolls=(1,))).sheet.wounds[0].grade == "grave"
    top = sheet(wounds=[{"id": 1, "grade": "critique", "notches": 5}])
    assert run(top, rules.WorseningRisk(wound_id=1, rolls=(1,))).sheet == top  # Critique at most


def test_supernatural_healing_removes_notches_by_success_level() -> None:
    """« Des pouvoirs surnaturels peuvent aussi être un moyen très efficace de faire diminuer la jauge de Trauma. »
    « En fonction de son niveau de réussite, cette Action accordera le retrait de cran de Trauma. »"""
    s = sheet(wounds=[{"id": 1, "grade": "grave", "notches": 3}, {"id": 2, "grade": "critique", "notches": 5}])
    out = run(s, rules.SupernaturalHealing(success_level="correcte"))
    assert rules.derive(out.sheet).current == 8 - RS.success_levels["correcte"].healing_notches
    assert {w.id: w.notches for w in out.sheet.wounds} == {1: 3, 2: 3}  # the heaviest first
    out = run(s, rules.SupernaturalHealing(success_level="phenomenale"))
    assert rules.derive(out.sheet).current == 8 - 5
    with pytest.raises(rules.Refused, match="Niveau de réussite inconnu"):
        run(s, rules.SupernaturalHealing(success_level="divine"))


def test_supernatural_healing_aimed_at_a_wound() -> None:
    """« Ainsi une Blessure ciblée pourra guérir d’autant plus rapidement. »"""
    s = sheet(wounds=[{"id": 1, "grade": "grave", "notches": 3}, {"id": 2, "grade": "critique", "notches": 5}])
    out = run(s, rules.SupernaturalHealing(success_level="impressionnante", wound_id=1))
    assert [(w.id, w.notches) for w in out.sheet.wounds] == [(2, 5)]  # healed; the extra notch is lost
    assert "healed" in out.events


def test_heal_is_supernatural_only() -> None:
    """« Des pouvoirs surnaturels peuvent aussi être un moyen très efficace de faire diminuer la jauge de Trauma. »"""
    s = sheet(wounds=[{"id": 1, "grade": "grave", "notches": 3}])
    with pytest.raises(rules.Refused, match="repos"):
        run(s, rules.Heal(amount=2))
    assert rules.derive(run(s, rules.Heal(amount=2, magical=True)).sheet).current == 1
    assert run(s, rules.Heal(amount=5, magical=True)).sheet.wounds == ()


def test_a_healed_crippled_limb_stays_crippled() -> None:
    """« Dans le meilleur des cas, elle se contente de rendre le membre touché complètement invalide, ou
    sectionné. »"""
    s = sheet(wounds=[{"id": 1, "grade": "fatale", "notches": 1, "body_part": "bras_gauche", "crippled": True}])
    s = run(s, rules.TreatWound(wound_id=1, treatment="operation")).sheet
    s = run(s, rules.LongRest(hours=8)).sheet
    assert s.wounds == ()
    assert s.sequels == ("Bras gauche : Membre invalide ou sectionné",)


# --------------------------------------------------------------------------------------------------
# End of the Conflict, time, rest
# --------------------------------------------------------------------------------------------------


def test_end_of_conflict_clears_what_lasts_until_then() -> None:
    """« vous serez incapable d’agir jusqu’à la fin du Conflit » « ignorer la Blessure jusqu’à la fin du
    Conflit » « son état restera stable jusqu’à la fin du Conflit »"""
    s = sheet(
        wounds=[{"id": 1, "grade": "grave", "notches": 3, "ignored": True}],
        conditions=["hors_de_combat", "inebranlable", "stoique", "tourmente", "stabilise", "inconscient"],
        turn_timers=[{"condition": "tourmente", "turns": 2}, {"condition": "stoique", "turns": 1}],
    )
    out = run(s, rules.EndConflict())
    assert out.sheet.conditions == ("inconscient",)
    assert out.sheet.turn_timers == ()
    assert not out.sheet.wounds[0].ignored
    assert run(out.sheet, rules.EndConflict()).sheet == out.sheet


def test_rest_ends_the_conflict_and_takes_time() -> None:
    """« Lors de son prochain repos le personnage verra sa jauge de Trauma diminuer d’un cran pour chaque
    Blessure traitée. »"""
    s = sheet(conditions=["hors_de_combat"])
    out = run(s, rules.LongRest(hours=8))
    assert out.sheet.conditions == ()
    assert out.sheet.clock == 8 * 3600
    with pytest.raises(rules.Refused, match="au moins 6 heures"):
        run(s, rules.LongRest(hours=2))
    with pytest.raises(rules.Refused, match="24 heures"):
        run(out.sheet, rules.LongRest(hours=8))
    later = run(out.sheet, rules.AdvanceTime(unit="hour", count=16)).sheet
    assert run(later, rules.LongRest(hours=8)).sheet.last_rest_end == 32 * 3600
    treated = sheet(wounds=[{"id": 1, "grade": "grave", "notches": 3, "treatment": "bandage"}])
    interrupted = run(treated, rules.LongRest(hours=8, interrupted=True)).sheet
    assert interrupted.wounds == treated.wounds


def test_time_units_and_turns() -> None:
    """« jusqu’à la fin du prochain tour »"""
    s = sheet(conditions=["tourmente"], turn_timers=[{"condition": "tourmente", "turns": 2}])
    assert run(s, rules.AdvanceTime(unit="minute")).sheet.conditions == ()
    assert run(s, rules.AdvanceTime(unit="minute")).sheet.clock == 60
    with pytest.raises(rules.Refused, match="Unité de temps inconnue"):
        run(s, rules.AdvanceTime(unit="round"))


def test_a_turn_at_the_gm_table_counts_down_like_the_clock() -> None:
    """« Vous resterez en piste mais incapacité momentanément par la douleur jusqu’à la fin du prochain tour. Vous
    ne pourrez donc plus proposer d’Action durant ce temps. » — at the GM table, « Tour suivant » says that the
    character cannot act, « Round suivant » ends the turn: Tourmenté ends at the end of the next turn."""
    s = run(sheet(), rules.InflictWound(grade="grave", rolls=(6,))).sheet  # margin 0: Tourmentée
    assert rules.describe("severite").round_unit == "turn"
    start = run(s, rules.StartTurn())
    assert start.sheet == s
    assert start.log == ("Début du tour de Ysolde : pas d'Action ce tour-ci (Tourmenté, encore 2 fins de tour).",)
    s = run(start.sheet, rules.EndRound()).sheet  # end of the current turn
    assert s.conditions == ("tourmente",) and s.clock == RS.time_units["turn"]
    s = run(run(s, rules.StartTurn()).sheet, rules.EndRound()).sheet  # end of the next turn
    assert s.conditions == ()
    ready = run(s, rules.StartTurn())
    assert ready.log == ("Début du tour de Ysolde : peut agir.",)


def test_start_turn_says_who_cannot_act_until_the_end_of_the_conflict() -> None:
    """« Si le Défi est échoué, vous êtes hors combat, ce qui veut dire que vous serez incapable d’agir jusqu’à la fin
    du Conflit. »"""
    out = run(sheet(conditions=["hors_de_combat"]), rules.StartTurn())
    assert out.log == ("Début du tour de Ysolde : pas d'Action ce tour-ci (Hors combat, jusqu'à la fin du Conflit).",)
    ended = run(out.sheet, rules.EndRound()).sheet
    assert ended.conditions == ("hors_de_combat",)
    dead = sheet(dead=True)
    assert run(dead, rules.StartTurn()).log == ("Début du tour : Ysolde n'est plus en vie.",)


@given(
    st.lists(st.sampled_from(list(RS.conditions)), max_size=4, unique=True),
    st.integers(1, 3),
    st.booleans(),
    st.integers(0, 10**6),
)
def test_start_turn_then_end_round_is_one_turn_of_time(
    conditions: list[str], turns: int, dead: bool, clock: int
) -> None:
    """« jusqu’à la fin du prochain tour » — the GM table's turn and round are one ``AdvanceTime`` of a turn."""
    timers = [{"condition": c, "turns": turns} for c in conditions if RS.conditions[c].duration == "turns"]
    s = sheet(conditions=conditions, turn_timers=timers, dead=dead, clock=clock)
    stepped = run(run(s, rules.StartTurn()).sheet, rules.EndRound()).sheet
    assert stepped == run(s, rules.AdvanceTime(unit="turn")).sheet


# --------------------------------------------------------------------------------------------------
# The facade: derived values, description, conditions, edits, dice
# --------------------------------------------------------------------------------------------------


def test_gauge_is_the_facade_current_and_maximum() -> None:
    """« Chaque Blessure que vous allez subir va remplir une jauge de Trauma, qui est représentée dans votre
    fiche personnage. »"""
    s = sheet(wounds=[{"id": 1, "grade": "grave", "notches": 3}, {"id": 2, "grade": "critique", "notches": 5}])
    derived = rules.derive(s)
    assert (derived.current, derived.maximum, derived.temporary) == (8, 8, 0)
    assert derived.explain("temporary") == "pas de points temporaires dans Sévérité"
    assert "= 3 (n° 1 Grave) + 5 (n° 2 Critique)" in derived.explain("current")
    assert derived.state == "blesse"
    assert derived.trauma_tier == 4
    over = sheet(wounds=[{"id": 1, "grade": "critique", "notches": 11}])
    assert rules.derive(over).state == "au_dela"
    assert rules.derive(sheet()).state == "en_forme"
    for name in ("current", "maximum", "temporary", "state", "roll_penalty", "conditions", "condition_reasons"):
        assert rules.derive(s).explain(name)


def test_describe_offers_the_gauge_and_the_actions() -> None:
    """« La jauge est composée de 4 paliers comprenant deux crans de Trauma. Ces paliers représentent le niveau
    d’Opposition auquel vous devrez faire face lors de votre Défi de Ténacité. »"""
    info = rules.describe("severite")
    assert {"trauma", "wounds", "handicaps", "tenacity", "damage_types", "long_rest"} <= info.features
    assert info.extra["trauma"]["beyond"] == {"label": "Ardu", "opposition": 14}
    assert info.extra["trauma"]["capacity"] == 8
    assert [c.id for c in info.damage_types][:3] == ["ecrasant", "tranchant", "percant"]
    assert [c.label for c in info.wound_types] == ["Bénigne", "Légère", "Grave", "Critique", "Fatale"]
    assert info.rests == ((rules.LongRest, "Repos"),)
    states = {s.id for s in info.health_states}
    assert {"en_forme", "blesse", "hors_de_combat", "mort"} <= states
    assert rules.supports("severite", rules.Strike)
    assert not rules.supports("severite", rules.GainTemporary)
    assert not rules.supports("severite", rules.ShortRest)
    assert "severite" in rules.SYSTEMS
    for action in info.actions:
        assert action.model_fields["kind"].default


def test_conditions_set_and_cleared_by_hand() -> None:
    """« Un niveau de Ténacité trop faible peut vous priver de votre Action pour le tour durant un Conflit. »"""
    s = sheet()
    s = run(s, rules.SetCondition(condition="tourmente")).sheet
    assert s.turn_timers[0].turns == RS.conditions["tourmente"].turns
    assert rules.derive(s).condition_reasons == {"tourmente": "posé"}
    s = run(s, rules.SetCondition(condition="hors_de_combat")).sheet
    assert run(s, rules.SetCondition(condition="tourmente", active=False)).sheet.conditions == ("hors_de_combat",)
    cleared = run(s, rules.ClearConditions()).sheet
    assert (cleared.conditions, cleared.turn_timers) == ((), ())
    with pytest.raises(rules.Refused, match="État inconnu"):
        run(s, rules.SetCondition(condition="a_terre"))


def test_damage_action_takes_a_severity_per_hit() -> None:
    """« Quand la valeur de Sévérité  est supérieure ou égale à 0, une Blessure a été infligée. »"""
    out = run(sheet(), rules.Damage(amount=3, hits=2, body_part="jambe_droite", damage_type="ecrasant"))
    assert [(w.grade, w.body_part) for w in out.sheet.wounds] == [("legere", "jambe_droite")] * 2
    rolled = rules.apply(sheet(), rules.Damage(amount="1d4+1"), random.Random(3))
    assert rolled.rolls[0].expression == "1d4+1"
    with pytest.raises(rules.Refused, match="non létaux"):
        run(sheet(), rules.Damage(amount=3, nonlethal=True))
    with pytest.raises(rules.Refused, match="Zone du corps inconnue"):
        run(sheet(), rules.Damage(amount=3, body_part="queue"))


def test_inflict_wound_checks_its_grade_against_the_severity() -> None:
    """« En fonction de l’ampleur de la Sévérité, différentes pénalités pourront s’appliquer à la victime et
    remplir la jauge de Trauma. »"""
    with pytest.raises(rules.Refused, match="Grave, pas Critique"):
        run(sheet(), rules.InflictWound(grade="critique", severity=6))
    with pytest.raises(rules.Refused, match="Degré de Blessure inconnu"):
        run(sheet(), rules.InflictWound(grade="mortelle"))
    skipped = run(sheet(), rules.InflictWound(grade="grave", tenacity_test=False))
    assert skipped.rolls == ()


def test_explicit_dice_are_checked_and_needed() -> None:
    """« toutes deux définies par un jet de dés chacune »"""
    strike = rules.Strike(margin=1, damage_type="tranchant", body_part="bras_droit")
    with pytest.raises(rules.Refused, match="impossible sur 1d4"):
        run(sheet(), strike.model_copy(update={"rolls": (5, 1)}))
    with pytest.raises(rules.NeedsRoll):
        run(sheet(), strike)
    out = run(sheet(), strike.model_copy(update={"rolls": (1, 4, 6)}))
    assert out.log[-1] == "Valeurs de dés non utilisées : 6."


def test_edits_are_checked_against_the_table() -> None:
    """« Si un Équipement protège la zone touchée par l’attaque, appliquez le Modificateur de protection »"""
    s = sheet()
    out = run(s, rules.Edit(changes={"physique": 4, "mental": 1}))
    assert (out.sheet.physique, out.sheet.mental) == (4, 1)
    bad = {"name": "Cape", "body_parts": ["aile"], "protections": []}
    with pytest.raises(rules.Refused, match="zone du corps inconnue « aile »"):
        run(s, rules.Edit(changes={"equipment": [bad]}))
    with pytest.raises(rules.Refused, match="état inconnu"):
        run(s, rules.Edit(changes={"conditions": ["a_terre"]}))
    with pytest.raises(rules.SheetError) as err:
        run(s, rules.Edit(changes={"physique": 99}))
    assert "« Physique » : doit être inférieur ou égal à 20" in err.value.lines


def test_dead_characters_cannot_be_treated_or_rest() -> None:
    """« Quand elle est infligée sur une zone vitale elle peut tuer sur le coup, purement et simplement. »"""
    s = sheet(dead=True, wounds=[{"id": 1, "grade": "fatale", "notches": 7}])
    for action in (
        rules.TreatWound(wound_id=1, treatment="bandage"),
        rules.LongRest(hours=8),
        rules.SupernaturalHealing(success_level="faible"),
        rules.TenacityTest(opposition=8),
    ):
        with pytest.raises(rules.Refused, match="n'est plus en vie"):
            run(s, action)
    assert run(s, rules.Strike(margin=3, damage_type="tranchant", body_part="tete")).sheet == s
    assert rules.derive(s).state == "mort"


def test_demo_sheet_is_a_wounded_character_mid_fight() -> None:
    """« Chaque Blessure que vous allez subir va remplir une jauge de Trauma »"""
    demo = rules.demo_sheet("severite")
    derived = rules.derive(demo)
    assert derived.current == 4
    assert derived.state == "sonne"
    assert derived.roll_penalty == -1
    assert rules.sheet_from_json(rules.sheet_to_json(demo)) == demo
