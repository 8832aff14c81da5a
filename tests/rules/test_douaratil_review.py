"""Douaratil (seed 000): what a line-by-line reading of the seed found (issue 13, items 1–13; issue 10,
item 8). Each test quotes the passage it checks; the readings are notes D9, D12, D14, D15, D18 and D26–D28
of docs/rules-notes.md, their numbers in resources/rulesets/douaratil.toml."""

from __future__ import annotations

import random
from typing import Any

import pytest

import rules

HOUR = 3600


def sheet(**fields: Any) -> rules.DouaratilSheet:
    base: dict[str, Any] = {"name": "Brenna", "base_maximum": 20, "constitution": 10}
    base.update(fields)
    return rules.new_sheet("douaratil", **base)


def run(s: Any, action: rules.Action, seed: int | None = None, table: Any = None) -> rules.Outcome:
    return rules.apply(s, action, rng=random.Random(seed) if seed is not None else None, rules_table=table)


def text(outcome: rules.Outcome) -> str:
    return "\n".join(outcome.log)


def house(section: str, **changes: Any) -> rules.DouaratilRules:
    """The shipped table with ``changes`` in ``section`` (a GM's house rules, built from the parsed data)."""
    table = rules.ruleset("douaratil")
    data = table.model_dump()
    data[section].update(changes)
    return rules.DouaratilRules.model_validate(data)


def refusal(s: Any, action: rules.Action, table: Any = None) -> str:
    with pytest.raises(rules.Refused) as err:
        run(s, action, table=table)
    return err.value.reason


# --- 1. No rest while dying --------------------------------------------------------------------------


def test_a_dying_character_cannot_take_a_short_rest() -> None:
    """« Un repos court est une période de repos d'au moins 1 heure pendant laquelle un personnage ne fait rien
    de plus fatigant que de manger, boire, lire et panser ses blessures. » and « Ce compteur est remis à 0 dès
    que vous regagnez des points d'action pour être au dessus de zéro »: at 0 PA the character is unconscious
    and dying, it cannot rest (D27); nothing of the rest happens."""
    dying = rules.new_sheet(
        "douaratil",
        level=3,
        base_maximum=30,
        current=0,
        constitution=14,
        death_failures=2,
        conditions=("inconscient",),
        unconscious_rounds=4,
    )
    assert refusal(dying, rules.ShortRest(dice=1, rolls=(5,))) == (
        "Il faut au moins 1 point d'action au début d'un repos court (la créature en a 0) : à 0 PA, seuls des "
        "soins, ou la stabilisation puis 1d6 heures, rendent des points d'action."
    )
    stabilised = run(sheet(current=0), rules.Stabilise(method="magic", rolls=(3,))).sheet
    assert refusal(stabilised, rules.ShortRest()).startswith("Il faut au moins 1 point d'action")


def test_a_gm_letting_the_dying_rest_runs_the_death_saves_of_the_hour() -> None:
    """« À chaque fois que vous commencez votre tour de jeu à 0 point d'action ou moins, vous devez faire un jet
    de sauvegarde spécial »: a house table that lets a short rest begin at 0 PA plays its rounds out."""
    table = house("rests", short_min_points=0)
    out = run(sheet(current=0, death_failures=1), rules.ShortRest(dice=1, rolls=(4, 5)), table=table)
    assert out.sheet.dead and out.sheet.action_dice_spent == 0
    assert out.sheet.clock == HOUR
    assert text(out).count("Jet contre la mort") == 2


# --- 2. Rests and what happens round by round -------------------------------------------------------------


@pytest.mark.parametrize("rest", [rules.ShortRest(), rules.LongRest()], ids=["court", "long"])
def test_no_rest_while_a_wound_bleeds(rest: rules.Action) -> None:
    """« hémorragie 10 jours Mouvements réduits au minimum ou risque d'ouverture de la plaie avec hémorragie
    (2d6/rd) »: eight hours of 2d6 a round would kill; the rest is refused until the bleeding stops (D28)."""
    s = run(sheet(current=15), rules.AddWound(wound_type="hemorragie", severity="major", bleeding=True)).sheet
    what = "repos court" if isinstance(rest, rules.ShortRest) else "repos long"
    assert refusal(s, rest) == (
        f"Pas de {what} tant qu'une blessure saigne (Hémorragie (majeure)) : arrêtez d'abord le saignement."
    )
    closed = run(s, rules.SetWoundBleeding(wound_id=1, bleeding=False)).sheet
    assert run(closed, rest, seed=1).sheet.clock > s.clock


def test_a_minute_bleeds_ten_rounds() -> None:
    """« (2d6/rd) »: a round is 6 seconds (D3), a minute ten rounds of bleeding."""
    s = run(sheet(current=200, base_maximum=200), rules.AddWound(wound_type="hemorragie", bleeding=True)).sheet
    out = run(s, rules.AdvanceTime(unit="minute", rolls=(2,) * 10))
    assert out.sheet.current == 200 - 20
    assert text(out).count("Saignement (Hémorragie (mineure))") == 10


def test_a_gm_letting_the_wounded_rest_bleeds_through_the_night() -> None:
    """« (1d6/rd) »: with ``rests.refused_while_bleeding = false`` the rest runs its rounds, bleeding included."""
    table = house("rests", refused_while_bleeding=False)
    s = run(sheet(current=20), rules.AddWound(wound_type="plaie", bleeding=True)).sheet
    out = run(s, rules.LongRest(), seed=4, table=table)
    assert out.sheet.dead
    assert "Saignement (Plaie (mineure))" in text(out)
    assert "Tous les points d'action" not in text(out)


def test_unconsciousness_runs_out_during_a_rest() -> None:
    """« s'effondrer pour 1d6 rounds. Chaque round, la personne inconsciente peut essayer de réussir le JS DD 16
    de Constitution et se réveiller »: a long rest plays those rounds out, then wakes à terre."""
    out = run(sheet(current=20), rules.Damage(amount=11, rolls=(4, 4)))  # massive: 11 > CON 10, save 4
    assert out.sheet.unconscious_rounds == 4
    rested = run(out.sheet, rules.LongRest(rolls=(3, 3, 3, 3)))
    assert rested.sheet.unconscious_rounds == 0
    assert rested.sheet.conditions == ("a_terre",)
    assert rested.sheet.current == 20
    assert text(rested).count("JS de Constitution pour se réveiller") == 4


# --- 3. Stabilised at 0 PA: unconscious ------------------------------------------------------------------


def test_stabilised_at_zero_is_unconscious_and_cannot_act() -> None:
    """« Une personne stabilisée n'a pas besoin de faire de jet de sauvegarde contre la mort, même si elle est
    à 0 point d'action. Cependant, elle reste inconsciente. » and « Vous pouvez utiliser une action pour
    administrer les premiers soins à une personne inconsciente »"""
    down = run(sheet(current=4), rules.Damage(amount=4, rolls=(17,)))  # the CON save succeeds
    assert "inconscient" in down.sheet.conditions and "unconscious" in down.events
    stabilised = run(down.sheet, rules.Stabilise(method="first_aid", rolls=(16, 2)))
    assert stabilised.sheet.stabilised and "inconscient" in stabilised.sheet.conditions
    assert "toujours sans connaissance" in text(stabilised)
    d = rules.derive(stabilised.sheet)
    assert d.state == "stabilise" and d.incapacitated
    assert d.explain("incapacitated") == "ni action ni réaction (Neutralisé)"


def test_temporary_points_do_not_wake_at_zero() -> None:
    """« Si vous êtes à 0 point d'action, recevoir des points d'action temporaires ne vous permet pas de
    reprendre conscience ou d'être stabilisé. »"""
    down = run(sheet(current=4), rules.Damage(amount=4, rolls=(17,))).sheet
    shielded = run(down, rules.GainTemporary(amount=8)).sheet
    assert shielded.conditions == ("inconscient",) and not shielded.stabilised
    assert refusal(shielded, rules.WakeSave(rolls=(18,))) == (
        "À 0 point d'action, Brenna reste sans connaissance : il faut d'abord regagner des points d'action "
        "(soins, ou 1 PA au bout de 1d6 heures de stabilisation)."
    )
    assert refusal(shielded, rules.SetCondition(condition="inconscient", active=False)).startswith(
        "À 0 point d'action, Brenna reste sans connaissance"
    )
    cleared = run(shielded, rules.ClearConditions())
    assert cleared.sheet.conditions == ("inconscient",)
    assert "Inconscient conservé : 0 point d'action." in text(cleared)


def test_regaining_points_wakes_and_resets_the_counter() -> None:
    """« Ce compteur est remis à 0 dès que vous regagnez des points d'action pour être au dessus de zéro ou que
    vous êtes stabilisé. » and « Si la créature reprend conscience, elle est à terre. »"""
    s = run(sheet(current=4), rules.Damage(amount=4, rolls=(17,))).sheet
    s = run(s, rules.DeathSave(rolls=(4,))).sheet
    out = run(s, rules.Heal(amount=2))
    assert (out.sheet.death_successes, out.sheet.death_failures) == (0, 0)
    assert out.sheet.conditions == ("a_terre",)
    assert text(out) == (
        "Soins 2 : 0 → 2 PA.\nJets contre la mort remis à 0.\nBrenna reprend conscience (soins) : À terre."
    )


def test_stabilised_creature_wakes_with_its_point_after_1d6_hours() -> None:
    """« Si elle n'est pas soignée, une personne stabilisée regagne 1 point d'action au bout de 1d6 heures. »"""
    s = run(sheet(current=0), rules.Stabilise(method="magic", rolls=(2,))).sheet
    assert s.conditions == ("inconscient",)
    out = run(s, rules.AdvanceTime(unit="hour", count=2))
    assert out.sheet.current == 1 and out.sheet.conditions == ("a_terre",) and not out.sheet.stabilised


def test_the_old_reading_keeps_a_conscious_dying_creature_and_says_so() -> None:
    """« vous êtes inconscient (voir la section États spéciaux) pour 1d6 rounds à moins de réussir un JS DD 16
    de Constitution »: a GM who keeps the dying conscious after a successful save (``saves.unconscious_at_zero
    = false``) gets a journal that never calls the creature unconscious."""
    table = house("saves", unconscious_at_zero=False)
    down = run(sheet(current=4), rules.Damage(amount=4, rolls=(17,)), table=table)
    assert down.sheet.conditions == () and "unconscious" not in down.events
    stabilised = run(down.sheet, rules.Stabilise(method="magic", rolls=(2,)), table=table)
    assert "sans connaissance" not in text(stabilised)
    assert not rules.derive(stabilised.sheet, table).incapacitated


# --- 4. Damage the temporary points absorb is not truly taken ---------------------------------------------


def test_damage_wholly_absorbed_is_neither_massive_nor_critical() -> None:
    """« Ces points d'action temporaires ne sont pas réellement des points d'action, mais plutôt une protection
    contre les dégâts, une réserve de points d'action qui évite à un personnage de subir véritablement des
    dégâts. »"""
    shielded = rules.new_sheet("douaratil", base_maximum=30, current=30, constitution=10, temporary=20)
    out = rules.apply(shielded, rules.Damage(amount=15, rolls=(3, 4)))
    assert out.sheet.conditions == () and out.sheet.current == 30 and out.sheet.temporary == 5
    assert out.events == ()
    assert "Valeurs de dés non utilisées : 3, 4." in out.log
    at_zero = run(sheet(current=4), rules.Damage(amount=4, rolls=(17,))).sheet
    at_zero = run(at_zero, rules.GainTemporary(amount=10)).sheet
    assert "critical" not in run(at_zero, rules.Damage(amount=5)).events
    threshold = sheet(critical_threshold=8, temporary=20)
    assert "critical" not in run(threshold, rules.Damage(amount=9)).events


def test_what_passes_the_temporary_points_counts() -> None:
    """« vous perdez d'abord vos points d'action temporaires et, une fois ceux-ci épuisés, tout dégât restant
    s'applique normalement à vos points d'action »: the rest of the hit is what counts as massive."""
    s = sheet(base_maximum=40, temporary=5)
    assert "massive_damage" in run(s, rules.Damage(amount=16, rolls=(18,))).events  # 11 > CON 10
    assert "massive_damage" not in run(s, rules.Damage(amount=15)).events  # 10 is not more than 10
    table = house("temporary", absorbed_damage_counts=True)
    assert "massive_damage" in run(s, rules.Damage(amount=15, rolls=(18,)), table=table).events


# --- 5. Exhaustion never drops a creature to 0 PA ---------------------------------------------------------


def test_exhaustion_leaves_at_least_one_point() -> None:
    """« A noter que le malus impacte aussi le maximum de chaque catégorie. »: a maximum of 6 at exhaustion 6 is
    1, not 0 (D12): the creature is not dying and can still take a long rest."""
    s = sheet(base_maximum=6, current=6)
    out = run(s, rules.SetExhaustion(level=6))
    d = rules.derive(out.sheet)
    assert (out.sheet.current, d.maximum, d.state) == (1, 1, "en_forme")
    assert d.explain("maximum") == "maximum 1 = 6 − 5 (épuisement niveau 6, jamais sous 1)"
    assert "fell" not in out.events
    rested = run(out.sheet, rules.LongRest())
    assert rested.sheet.exhaustion == 5 and rested.sheet.current == 1


# --- 6. One hit, one Constitution save ------------------------------------------------------------------


def test_a_massive_hit_to_zero_asks_one_save() -> None:
    """« Si les dégâts que vous subissez vous font tomber à 0 point d'action, vous êtes inconscient » and
    « Si ce montant est dépassé, il faut réussir un JS DD 16 de Constitution ou s'effondrer pour 1d6 rounds »:
    one hit, one save, one roll of 1d6 rounds."""
    out = run(sheet(current=12), rules.Damage(amount=12, rolls=(5, 3)))
    assert text(out).count("JS de Constitution") == 1
    assert "JS de Constitution (chute à 0 PA et dégâts massifs)" in text(out)
    assert out.sheet.unconscious_rounds == 3
    assert not any(line.startswith("Valeurs de dés non utilisées") for line in out.log)


# --- 7. Every amount held to the bounds --------------------------------------------------------------------


@pytest.mark.parametrize("action_type", [rules.Damage, rules.Heal, rules.GainTemporary])
@pytest.mark.parametrize("typed", ["100001", 100_001, "-100001", " 999999 "])
def test_typed_amounts_beyond_the_bound_are_refused(action_type: type[rules.Action], typed: Any) -> None:
    with pytest.raises(rules.SheetError) as err:
        rules.build_action(action_type, amount=typed)
    assert err.value.lines == ["« montant » : doit être entre −100\u202f000 et 100\u202f000"]


@pytest.mark.parametrize("expression", ["1d1000000", "1d6*100000", "100000+1d6"])
def test_rolled_amounts_are_held_to_the_bound(expression: str) -> None:
    big = sheet(base_maximum=100_000, current=1)
    for action in (rules.Heal(amount=expression), rules.GainTemporary(amount=expression)):
        out = rules.apply(big, action, rng=random.Random(5))
        assert out.sheet.current <= 100_000 and out.sheet.temporary <= 100_000
        assert rules.sheet_from_json(rules.sheet_to_json(out.sheet)) == out.sheet
    hit = rules.apply(sheet(temporary=100_000), rules.Damage(amount="1d6*100000"), rng=random.Random(5))
    assert hit.sheet.temporary == 0 and "compté 100000" in hit.rolls[0].detail


# --- 8. Required fields are required -----------------------------------------------------------------------


def test_heroic_survival_asks_every_loss() -> None:
    """« Les points d'expériences sont diminués pour ne correspondre qu'au stricte minimum pour obtenir le niveau
    actuel. »: the minimum is the player's to give; an empty form must not wipe 5,000 XP."""
    with pytest.raises(rules.SheetError) as err:
        rules.build_action(rules.HeroicSurvival)
    assert err.value.lines == [
        "« PA maximum perdus avec le niveau » : est obligatoire et manque",
        "« PM maximum perdus » : est obligatoire et manque",
        "« PF maximum perdus » : est obligatoire et manque",
        "« PH maximum perdus » : est obligatoire et manque",
        "« Expérience minimum du nouveau niveau » : est obligatoire et manque",
    ]


# --- 9. Edits obey the bounds and the consequences of actions -----------------------------------------------


def test_editing_exhaustion_obeys_the_ceiling_and_lowers_the_points() -> None:
    """« Celui-ci se divise en six niveaux. » and « A noter que le malus impacte aussi le maximum de chaque
    catégorie. »"""
    s = sheet(base_maximum=14, current=14)
    assert refusal(s, rules.Edit(changes={"exhaustion": 20})) == "Valeur refusée : « épuisement » : au plus le niveau 6"
    out = run(s, rules.Edit(changes={"exhaustion": 6}))
    assert out.sheet.current == 8
    assert out.log == ("Épuisement : 0 → 6.", "Points d'action ramenés au nouveau maximum : 14 → 8.")
    low = run(sheet(base_maximum=3, current=3), rules.Edit(changes={"exhaustion": 6}))
    assert low.sheet.current == 1 and "fell" not in low.events


def test_editing_points_to_zero_has_the_consequences_of_falling() -> None:
    """« La plupart des Narrateurs font mourir les adversaires dès qu'ils atteignent 0 point d'action »"""
    fallen = run(sheet(), rules.Edit(changes={"current": 0}))
    assert fallen.sheet.conditions == ("inconscient",) and "fell" in fallen.events
    orc = sheet(name="Orque", is_npc=True, dies_at_zero=True)
    assert run(orc, rules.Edit(changes={"current": 0})).sheet.dead


# --- 10. The Constitution priority ends at 10 ---------------------------------------------------------------


def test_constitution_priority_ends_when_constitution_is_back_to_ten() -> None:
    """« les prochains investissements en points de caractéristique devront se faire dans la caractéristique
    constitution jusqu'à ce qu'elle revienne à 10. »"""
    hero = sheet(level=4, constitution=11, current=0, dead=True)
    lost = {"action_points_lost": 0, "magic_lost": 0, "faith_lost": 0, "honour_lost": 0, "xp_minimum": 0}
    saved = run(hero, rules.HeroicSurvival(**lost, rolls=(3,))).sheet
    assert saved.constitution == 9 and saved.constitution_priority
    out = run(saved, rules.Edit(changes={"constitution": 10}))
    assert not out.sheet.constitution_priority
    assert out.log == (
        "Constitution : 9 → 10.",
        "Constitution revenue à 10 : les points de caractéristique vont de nouveau où l'on veut.",
    )
    assert rules.derive(out.sheet).explain("constitution_priority") == ""


# --- 11. A new sheet starts with all its points --------------------------------------------------------------


def test_a_new_sheet_starts_with_its_maximum() -> None:
    """« Les points d'actions actuels évoluent fréquemment au fil du jeu » between 0 and « son maximum de points
    d'action »: a sheet given only its maximum has them all (the maximum exhaustion leaves)."""
    assert rules.new_sheet("douaratil", base_maximum=8).current == 8
    assert rules.new_sheet("douaratil", base_maximum=14, exhaustion=6).current == 8
    assert rules.new_sheet("douaratil", magic={"base_maximum": 6}).magic.current == 6


# --- 12. A monster dead at 0 makes no save ------------------------------------------------------------------


def test_a_monster_that_dies_at_zero_makes_no_massive_damage_save() -> None:
    """« La plupart des Narrateurs font mourir les adversaires dès qu'ils atteignent 0 point d'action plutôt que
    de les considérer comme inconscients »"""
    orc = rules.new_sheet("douaratil", name="Orque", is_npc=True, dies_at_zero=True, base_maximum=9, constitution=8)
    out = rules.apply(orc, rules.Damage(amount=12))  # no dice given and none needed
    assert out.sheet.dead and "JS de Constitution" not in text(out)
    reprieve = rules.evolve(orc, dies_after_rounds=True)
    out = rules.apply(reprieve, rules.Damage(amount=12, rolls=(2,)))
    assert out.sheet.death_in_rounds == 2 and "JS de Constitution" not in text(out)
    alive = rules.apply(orc, rules.Damage(amount=9 - 1 + 0, rolls=(18,)))  # 8 is not more than CON 8
    assert "massive_damage" not in alive.events


# --- 13. Characteristic tests, the will test, the fracture's risk ------------------------------------------


def test_characteristic_test_with_wound_steps_and_exhaustion() -> None:
    """« Une blessure mineure augmente le DD de tout test de caractéristique la difficulté d'un degré: par
    exemple un test moyen (DD 16) se transforme en test difficile (DD 22). » and « Le malus s'applique à tout
    lancer de dés c'est à dire test de caractéristique, test de compétence, Jets de sauvegarde »"""
    s = run(sheet(strength=14, exhaustion=2), rules.AddWound(wound_type="contusion")).sheet
    out = run(s, rules.AbilityCheck(ability="strength", dd=16, rolls=(18,)))
    assert out.log == (
        "Test de Force (moyen, DD 16 + 6 : 1 palier des blessures → difficile) : 3d6 = 18 (valeur donnée) +2 (FOR) "
        "−2 (épuisement) = 18 contre DD 22 → échec.",
    )
    assert out.sheet == s
    major = run(s, rules.AddWound(wound_type="fracture", severity="major")).sheet
    assert "contre DD 28" in text(run(major, rules.AbilityCheck(ability="strength", rolls=(18,))))


def test_saves_get_the_malus_not_the_wound_steps() -> None:
    """« Le malus s'applique à tout lancer de dés c'est à dire test de caractéristique, test de compétence, Jets
    de sauvegarde » and Inconscient: « La créature rate automatiquement tous ses jets de sauvegarde de Force et
    de Dextérité. »"""
    s = run(sheet(dexterity=12, exhaustion=1), rules.AddWound(wound_type="plaie", severity="major")).sheet
    out = run(s, rules.AbilityCheck(ability="dexterity", save=True, dd=16, rolls=(16,)))
    assert out.log == (
        "JS de Dextérité : 3d6 = 16 (valeur donnée) +1 (DEX) −1 (épuisement) = 16 contre DD 16 → réussite.",
    )
    out = run(s, rules.SetCondition(condition="inconscient")).sheet
    assert run(out, rules.AbilityCheck(ability="dexterity", save=True)).log == (
        "JS de Dextérité raté automatiquement (Inconscient).",
    )


def test_the_wound_tables_will_test() -> None:
    """« Type de blessure Durée avant les tests limitations principales test de volonté(SAG) » … « fracture 20
    jours Usage du membre impossible ou risque d'aggravation 28 »"""
    s = run(sheet(wisdom=12), rules.AddWound(wound_type="fracture")).sheet
    s = run(s, rules.AddWound(wound_type="plaie", severity="major")).sheet
    failed = run(s, rules.WillTest(wound_id=1, rolls=(18,)))
    assert failed.log == (
        "Test de volonté (SAG), Fracture (mineure) : 3d6 = 18 (valeur donnée) +1 (SAG) = 19 contre DD 28 → échec.",
        "Échec : le meneur décide de ce que la douleur empêche.",
    )
    assert "→ réussite" in text(run(s, rules.WillTest(wound_id=2, bonus=1, rolls=(14,))))  # 14 + 1 + 1 = DD 16
    table = house("difficulty", will_test_steps=True)
    assert "contre DD 28" in text(run(s, rules.WillTest(wound_id=2, rolls=(14,)), table=table))  # 16 + 12


def test_the_fractures_risk_of_worsening() -> None:
    """« fracture 20 jours Usage du membre impossible ou risque d'aggravation 28 »: a failed Constitution save
    (DD 16, D26) turns a minor fracture major, and sends a major one back to the start of its healing."""
    s = run(sheet(), rules.AddWound(wound_type="fracture")).sheet
    kept = run(s, rules.WoundRisk(wound_id=1, rolls=(16,)))
    assert kept.sheet == s
    worse = run(s, rules.WoundRisk(wound_id=1, rolls=(15,)))
    assert worse.sheet.wounds[0].severity == "major" and "wound_worse" in worse.events
    assert "Fracture (mineure) s'aggrave : Fracture (majeure)." in worse.log
    healing = rules.evolve(worse.sheet, wounds=(rules.evolve(worse.sheet.wounds[0], rests=7),))
    again = run(healing, rules.WoundRisk(wound_id=1, rolls=(3,)))
    assert again.sheet.wounds[0].rests == 0
    assert "la guérison recommence (20 repos longs avant le test)" in text(again)
    bruise = run(sheet(), rules.AddWound(wound_type="contusion")).sheet
    assert refusal(bruise, rules.WoundRisk(wound_id=1)) == (
        "Une blessure Contusion (mineure) ne risque ni de s'ouvrir ni de s'aggraver."
    )


def test_the_new_actions_are_offered_like_the_others() -> None:
    info = rules.describe("douaratil")
    assert {rules.AbilityCheck, rules.WillTest} <= set(info.actions)
    assert dict(info.extra["action_labels"])[rules.AbilityCheck] == "Test de caractéristique…"
    assert dict(info.extra["ability_choices"])["wisdom"] == "Sagesse"
    assert all(f.title for n, f in rules.AbilityCheck.model_fields.items() if n not in ("kind", "rolls"))
    assert rules.WillTest.model_fields["wound_id"].is_required()


# --- Issue 10, item 8: what is said is the final state -------------------------------------------------------


def test_no_stabilised_notice_when_a_bleed_breaks_it_in_the_same_round() -> None:
    """« Si la créature subit de nouveaux dégâts, elle n'est plus considérée comme stabilisée et doit recommencer
    à faire des jets de sauvegarde contre la mort. »"""
    s = run(sheet(current=0, death_successes=2), rules.AddWound(wound_type="plaie", bleeding=True)).sheet
    out = run(s, rules.AdvanceTime(unit="round", rolls=(12, 2, 3)))  # 3rd success, 2 hours, bleed 3
    assert not out.sheet.stabilised and rules.derive(out.sheet).state == "mourant"
    assert "stabilised" not in out.events
    assert "Les nouveaux dégâts rompent la stabilisation : les jets contre la mort reprennent." in out.log


def test_the_journal_never_calls_unconscious_a_sheet_that_is_not() -> None:
    for table in (rules.ruleset("douaratil"), house("saves", unconscious_at_zero=False)):
        for rolls in ((17,), (4, 2)):
            s = run(sheet(current=4), rules.Damage(amount=4, rolls=rolls), table=table).sheet
            out = run(s, rules.Stabilise(method="magic", rolls=(1,)), table=table)
            said = "sans connaissance" in text(out)
            assert said == ("inconscient" in out.sheet.conditions)


# --- What a mutation pass over the Douaratil code found untested (issue 19) ---------------------------------


def test_marking_a_stabilised_creature_dead_ends_its_timers() -> None:
    """« après trois échecs, vous mourez »: a GM who notes the death by hand gets the same sheet as the dice."""
    s = run(sheet(current=0), rules.Stabilise(method="magic", rolls=(3,))).sheet
    out = run(s, rules.Edit(changes={"dead": True}))
    assert out.sheet.dead and not out.sheet.stabilised and out.sheet.wake_in is None
    assert out.log == ("Décès : non → oui.", "Brenna meurt (décès noté sur la fiche).")
    assert "died" in out.events


def test_bringing_back_a_creature_dead_of_its_saves_clears_them() -> None:
    dead = run(sheet(current=0, death_failures=2), rules.DeathSave(rolls=(3,))).sheet
    assert dead.dead and dead.death_failures == 3
    out = run(dead, rules.Edit(changes={"dead": False}))
    assert not out.sheet.dead and out.sheet.death_failures == 0
    assert out.log == (
        "Décès : oui → non.",
        "Brenna revient à la vie (décès retiré de la fiche).",
        "À 0 point d'action, Brenna est sans connaissance.",
    )


def test_editing_points_back_ends_the_stabilisation_and_the_saves() -> None:
    """« Ce compteur est remis à 0 dès que vous regagnez des points d'action pour être au dessus de zéro »"""
    stabilised = run(sheet(current=0), rules.Stabilise(method="magic", rolls=(3,))).sheet
    out = run(stabilised, rules.Edit(changes={"current": 5}))
    assert not out.sheet.stabilised and out.sheet.conditions == ("a_terre",)
    dying = sheet(current=0, death_failures=2, conditions=("inconscient",))
    out = run(dying, rules.Edit(changes={"current": 5}))
    assert out.log == (
        "Points d'action : 0 → 5.",
        "Jets contre la mort remis à 0.",
        "Brenna reprend conscience (points d'action regagnés) : À terre.",
    )


def test_a_sheet_from_an_older_version_at_zero_loses_consciousness_at_its_next_action() -> None:
    """« Une personne stabilisée … Cependant, elle reste inconsciente. »: a sheet saved before D14 was revised
    may be at 0 PA and conscious; the next action says and fixes it."""
    old = rules.new_sheet("douaratil", base_maximum=20, current=0, conditions=("aveugle",))
    out = rules.apply(old, rules.ClearConditions())
    assert out.log == ("États retirés : Aveuglé.", "À 0 point d'action, la créature est sans connaissance.")
    assert out.sheet.conditions == ("inconscient",)


def test_clearing_states_at_zero_keeps_the_unconsciousness_and_the_other_states() -> None:
    """« si un effet ou une capacité annule tous les états qui affectent le personnage, les états suivants ne sont
    pas concernés, à moins qu'ils soient spécifiquement désignés »"""
    s = sheet(current=0, conditions=("inconscient", "repousse", "aveugle"))
    out = run(s, rules.ClearConditions())
    assert out.sheet.conditions == ("inconscient", "repousse")
    assert out.log == (
        "États retirés : Aveuglé.",
        "Conservés (non concernés sauf s'ils sont désignés) : Repoussé.",
        "Inconscient conservé : 0 point d'action.",
    )


def test_a_fall_to_zero_is_told_once() -> None:
    """« Si les dégâts que vous subissez vous font tomber à 0 point d'action, vous êtes inconscient »"""
    out = run(sheet(current=4), rules.Damage(amount=4, rolls=(16,)))
    assert out.log == (
        "Brenna subit 4 dégâts : 4 → 0 PA.",
        "À 0 point d'action, Brenna perd conscience : jet contre la mort au début de chaque tour.",
        "JS de Constitution (chute à 0 PA) : 3d6 = 16 (valeur donnée) +0 (CON) = 16 contre DD 16 → réussite.",
        "JS réussi : des soins suffiront à reprendre conscience.",
    )


def test_a_hit_of_nothing_is_taken_and_told() -> None:
    """« Quand une créature subit des dégâts, ceux-ci sont ôtés de son total actuel de points d'action. »"""
    assert run(sheet(), rules.Damage(amount=0)).log == ("Brenna subit 0 dégâts : 20 → 20 PA.",)
    stone = sheet(conditions=("petrifie",))
    assert run(stone, rules.Damage(amount=0)).log == ("Brenna subit 0 dégâts : 20 → 20 PA.",)


def test_wound_ids_never_repeat() -> None:
    s = sheet()
    for kind in ("plaie", "contusion", "fracture"):
        s = run(s, rules.AddWound(wound_type=kind)).sheet
    s = run(s, rules.RemoveWound(wound_id=2)).sheet
    s = run(s, rules.AddWound(wound_type="plaie")).sheet
    assert [w.id for w in s.wounds] == [1, 3, 4]


def test_opening_and_closing_a_wound() -> None:
    """« risque d'ouverture de la plaie avec saignement (1d6/rd) »: opening a plaie is news; closing any wound
    is allowed, even one that cannot bleed."""
    s = run(sheet(), rules.AddWound(wound_type="plaie")).sheet
    assert "bleeding" in run(s, rules.SetWoundBleeding(wound_id=1, bleeding=True)).events
    bruise = run(sheet(), rules.AddWound(wound_type="contusion")).sheet
    out = run(bruise, rules.SetWoundBleeding(wound_id=1, bleeding=False))
    assert out.log == ("Contusion (mineure) : ne saigne plus.",) and out.events == ()


def test_a_bleeding_round_rolls_only_the_bleeding() -> None:
    """« (1d6/rd) »: a conscious creature that bleeds makes no save to wake."""
    s = run(sheet(), rules.AddWound(wound_type="plaie", bleeding=True)).sheet
    out = run(s, rules.AdvanceTime(unit="round", rolls=(3,)))
    assert out.log == (
        "Le temps passe : 1 round.",
        "— Round 1 —",
        "Saignement (Plaie (mineure)) : 1d6 = 3 (valeur donnée).",
        "Brenna subit 3 dégâts : 20 → 17 PA.",
    )


def test_quiet_hours_pass_at_once() -> None:
    assert run(sheet(), rules.AdvanceTime(unit="hour")).log == ("Le temps passe : 1 heure.",)


@pytest.mark.parametrize("heal", ["rest", "magic"])
def test_a_full_list_of_scars_stays_full(heal: str) -> None:
    """« Si le test est réussi, un blessure grave est enlevée, laissant seulement le souvenir de sa marque. »:
    a sheet holds 200 scars; the 201st healing heals without one more."""
    scars = tuple({"type": "contusion"} for _ in range(200))
    s = run(sheet(scars=scars), rules.AddWound(wound_type="contusion")).sheet
    if heal == "rest":
        out = run(s, rules.LongRest(rolls=(18,)))
    else:
        out = run(s, rules.HealWound(wound_id=1))
    assert out.sheet.wounds == () and len(out.sheet.scars) == 200
    assert rules.sheet_problems(out.sheet) == []


def test_only_what_slows_halves_the_movement() -> None:
    """Étourdi: « incapable de se déplacer correctement (demi déplacement) »; Aveuglé and a contusion do not."""
    s = run(sheet(speed_m=9), rules.AddWound(wound_type="contusion")).sheet
    s = run(s, rules.SetCondition(condition="aveugle")).sheet
    assert rules.derive(s).speed == 9
    dazed = run(s, rules.SetCondition(condition="etourdi")).sheet
    assert rules.derive(dazed).speed == 4


def test_wound_rows_say_when_the_healing_tests_begin_and_what_bleeds() -> None:
    """« Une fois cette période passée, à chaque repos long, un JS DD 16 est fait pour chaque blessure grave. »"""
    s = run(sheet(), rules.AddWound(wound_type="contusion", severity="major")).sheet
    s = run(s, rules.AddWound(wound_type="plaie")).sheet
    rows = rules.derive(s).wound_rows
    assert rows[0]["healing"] == "encore 1 repos long avant le test de guérison"
    assert rows[1]["bleeding"] == "" and rows[1]["can_bleed"]
    rested = run(s, rules.LongRest(rolls=(3,))).sheet  # the contusion's test fails
    assert rules.derive(rested).wound_rows[0]["healing"] == "test de guérison (CON DD 16) à chaque repos long"


def test_when_the_next_long_rest_is_possible_is_shown() -> None:
    """« Un personnage ne peut profiter qu'une fois par période de 24 heures des bénéfices conférés par un repos
    long »"""
    s = sheet()
    assert rules.derive(s).explain("long_rest_ready_in") == "repos long possible"
    rested = run(s, rules.LongRest()).sheet
    assert rules.derive(rested).explain("long_rest_ready_in") == "repos long possible dans 16 h"


def test_a_sheet_loaded_without_bleeding_flags_does_not_bleed() -> None:
    data = rules.sheet_to_data(sheet())
    data["wounds"] = [{"id": 1, "type": "plaie"}]
    assert not rules.sheet_from_data(data).wounds[0].bleeding


def test_the_largest_maximum_starts_full() -> None:
    assert rules.new_sheet("douaratil", base_maximum=100_000).current == 100_000


def test_a_wake_save_in_a_round_ends_the_rounds_of_unconsciousness() -> None:
    """« Chaque round, la personne inconsciente peut essayer de réussir le JS DD 16 de Constitution et se
    réveiller. Elle pourra agir immédiatement. »"""
    s = run(sheet(current=20), rules.Damage(amount=11, rolls=(4, 3))).sheet  # knocked out 3 rounds
    out = run(s, rules.AdvanceTime(unit="round", rolls=(16,)))
    assert out.sheet.unconscious_rounds == 0 and out.sheet.conditions == ("a_terre",)
    assert rules.sheet_problems(out.sheet) == []


def test_a_sheet_without_points_starts_empty() -> None:
    assert rules.new_sheet("douaratil", base_maximum=0).current == 0


def test_an_edit_of_an_older_sheet_at_zero_says_it_is_unconscious() -> None:
    old = rules.new_sheet("douaratil", base_maximum=20, current=0)
    out = rules.apply(old, rules.Edit(changes={"player": "Camille"}))
    assert out.log == ("Joueur : (vide) → « Camille ».", "À 0 point d'action, la créature est sans connaissance.")


def test_lowering_a_pools_maximum_by_hand_lowers_its_points() -> None:
    """« le malus impacte aussi le maximum de chaque catégorie »: a lower maximum, by exhaustion or by hand,
    holds the points under it."""
    s = sheet(magic={"current": 5, "base_maximum": 5})
    out = run(s, rules.Edit(changes={"magic": {"current": 5, "base_maximum": 3}}))
    assert out.sheet.magic.current == 3
    assert out.log == (
        "Points de magie (PM) : 5 sur 5 → 5 sur 3.",
        "Points de magie (PM) ramenés au nouveau maximum : 5 → 3.",
    )


def test_a_monster_above_zero_still_saves_against_a_massive_hit() -> None:
    """« Si ce montant est dépassé, il faut réussir un JS DD 16 de Constitution ou s'effondrer pour 1d6 rounds »"""
    orc = rules.new_sheet("douaratil", name="Orque", dies_at_zero=True, base_maximum=20, constitution=8)
    out = rules.apply(orc, rules.Damage(amount=10, rolls=(18,)))
    assert "massive_damage" in out.events and "JS de Constitution (dégâts massifs)" in text(out)


def test_a_stabilisation_followed_by_the_point_regained_is_not_announced() -> None:
    """« Si elle n'est pas soignée, une personne stabilisée regagne 1 point d'action au bout de 1d6 heures. »:
    two hours later the creature is awake, and that is what is said."""
    s = sheet(current=0, death_successes=2, conditions=("inconscient",))
    out = run(s, rules.AdvanceTime(unit="hour", count=2, rolls=(12, 1)))
    assert out.sheet.current == 1 and not out.sheet.stabilised
    assert "stabilised" not in out.events


def test_an_edit_ends_an_open_short_rest() -> None:
    """« A la fin d'une période de repos court, un personnage peut décider de puiser dans sa réserve »: only then."""
    s = run(sheet(level=2, current=5), rules.ShortRest()).sheet
    assert not run(s, rules.Edit(changes={"name": "Brenna la Rousse"})).sheet.short_rest_open


def test_the_states_disadvantage_on_a_test_is_named() -> None:
    """Empoisonné: disadvantage on ability tests (D6); the seed never says how it works on 3d6 (D30)."""
    s = sheet(conditions=("empoisonne",))
    out = run(s, rules.AbilityCheck(ability="wisdom", rolls=(10,)))
    assert out.log[0] == "Les états donnent un désavantage à ce test (Empoisonné) : au meneur de l'appliquer."


def test_a_closed_wound_does_not_bleed_in_the_rounds() -> None:
    """« risque d'ouverture de la plaie avec saignement (1d6/rd) »: only an opened plaie bleeds."""
    s = run(sheet(current=0, conditions=("inconscient",)), rules.AddWound(wound_type="plaie")).sheet
    out = run(s, rules.AdvanceTime(unit="round", rolls=(12,)))
    assert out.sheet.current == 0 and "Saignement" not in text(out)


def test_the_end_of_exhaustion_is_said() -> None:
    """« Tous les effets d'épuisement se terminent si le niveau d'épuisement de la créature est réduit à moins
    de 1. »"""
    assert run(sheet(exhaustion=3), rules.SetExhaustion(level=0)).log == ("L'épuisement prend fin.",)


def test_the_journal_of_an_edit_says_when_no_state_is_left() -> None:
    out = run(sheet(conditions=("aveugle",)), rules.Edit(changes={"conditions": ()}))
    assert out.log == ("États : Aveuglé → aucun.",)


def test_a_new_sheet_given_its_points_still_gets_the_tables_die() -> None:
    table = rules.ruleset("douaratil").model_dump()
    table["general"].update(default_action_die=12)
    house = rules.DouaratilRules.model_validate(table)
    s = rules.sheet_from_data({"system": "douaratil", "base_maximum": 7, "current": 3}, house)
    assert (s.action_die, s.current) == (12, 3)
