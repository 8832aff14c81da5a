"""Douaratil: tests that kill the mutants a mutation sample left alive (scripts/mutation sample douaratil)."""

from __future__ import annotations

import random

import pytest

import rules

HOUR = 3600


def sheet(**fields: object) -> rules.DouaratilSheet:
    base: dict[str, object] = {"name": "Ulfred", "base_maximum": 20, "current": 20, "constitution": 10}
    base.update(fields)
    return rules.new_sheet("douaratil", **base)


def test_long_rest_fills_pools_up_to_the_maximum_exhaustion_lowers() -> None:
    """« Le malus s'applique à tout lancer de dés … mais aussi la récupération des points de Magie, des points de
    Foi, des points d'action, des points d'honneur … A noter que le malus impacte aussi le maximum de chaque
    catégorie. » Exhausted at level 3 while resting, 12 PM recovered stop at 10 − 3 = 7; the Santé mentale,
    which the passage does not name, keeps its whole maximum."""
    s = sheet(
        current=17,
        level=10,
        exhaustion=3,
        intelligence=20,
        wisdom=20,
        magic={"base_maximum": 10, "current": 0},
        sanity={"base_maximum": 4, "current": 0},
    )
    out = rules.apply(s, rules.LongRest(), rng=random.Random(1))
    assert out.sheet.magic.current == 7
    assert out.sheet.sanity.current == 4
    assert "Points de magie (PM) : +12 (1 × niveau 10 +5 (Intelligence) −3 (épuisement)) → 0 → 7." in out.log


def test_a_healed_wound_leaves_a_scar_with_its_note() -> None:
    """« Si le test est réussi, un blessure grave est enlevée, laissant seulement le souvenir de sa marque. »
    The scar keeps what the player wrote about the wound."""
    s = rules.apply(sheet(), rules.AddWound(wound_type="ecrasement", severity="minor", note="éboulement")).sheet
    for _ in range(2):
        s = rules.apply(s, rules.LongRest()).sheet
        s = rules.apply(s, rules.AdvanceTime(unit="hour", count=16)).sheet
    healed = rules.apply(s, rules.LongRest(rolls=(17,))).sheet
    assert healed.wounds == ()
    assert [(sc.type, sc.note) for sc in healed.scars] == [("ecrasement", "éboulement")]
    assert rules.derive(healed).scar_rows == (
        {"type": "ecrasement", "label": "Écrasement (mineure)", "note": "éboulement"},
    )


def test_monster_reprieve_counts_down_round_by_round_at_the_table() -> None:
    """« il peut la laisser agir librement pendant 1d6 rounds ou de toutes les façons la créature succombe » —
    at the GM table, each « Round suivant » (``EndRound``) takes one round off the reprieve."""
    orc = rules.new_sheet(
        "douaratil", is_npc=True, dies_at_zero=True, dies_after_rounds=True, base_maximum=9, current=9
    )
    s = rules.apply(orc, rules.Damage(amount=9, rolls=(2,))).sheet
    assert s.death_in_rounds == 2
    one = rules.apply(s, rules.EndRound()).sheet
    assert not one.dead and one.death_in_rounds == 1
    assert rules.derive(one).explain("state") == "état : Mourant (monstre à 0 PA, succombe dans 1 round)"
    assert rules.apply(one, rules.EndRound()).sheet.dead


def test_heroic_survival_at_exactly_ten_constitution_sets_no_priority() -> None:
    """« Si suite à ses conséquences la Constitution est en dessous de 10 » — brought down to exactly 10,
    it is not below: the next characteristic points go where the player wants, and the journal says nothing
    of Constitution first."""
    hero = sheet(level=4, constitution=12, current=0, dead=True)
    lost = {"action_points_lost": 0, "magic_lost": 0, "faith_lost": 0, "honour_lost": 0, "xp_minimum": 0}
    out = rules.apply(hero, rules.HeroicSurvival(**lost, rolls=(3,)))
    assert out.sheet.constitution == 10  # level 4 is even: 2 points
    assert not out.sheet.constitution_priority
    assert not any("Constitution sous" in line for line in out.log), out.log
    below = rules.apply(rules.evolve(hero, constitution=11), rules.HeroicSurvival(**lost, rolls=(3,)))
    assert below.sheet.constitution == 9 and below.sheet.constitution_priority
    assert (
        "Constitution sous 10 : les prochains points de caractéristique iront en Constitution jusqu'à ce "
        "qu'elle revienne à 10." in below.log
    )


def test_healed_above_zero_a_stabilised_creature_is_no_longer_stabilised() -> None:
    """« Ce compteur est remis à 0 dès que vous regagnez des points d'action pour être au dessus de zéro ou
    que vous êtes stabilisé. » Healed from 0 to 3 PA, the stabilisation and its wait of 1d6 hours end: the
    sheet says neither (a later fall to 0 starts the death saves afresh)."""
    down = rules.apply(sheet(), rules.Damage(amount=20), rng=random.Random(1)).sheet
    stable = rules.apply(down, rules.Stabilise(method="magic", rolls=(2,))).sheet
    assert stable.stabilised and stable.wake_in == 2 * HOUR and rules.derive(stable).state == "stabilise"
    healed = rules.apply(stable, rules.Heal(amount=3)).sheet
    assert healed.current == 3
    assert (healed.stabilised, healed.wake_in, healed.death_in_rounds) == (False, None, None)
    assert rules.derive(healed).state == "inconscient"


def test_a_second_long_rest_too_soon_says_how_long_to_wait() -> None:
    """« Un personnage ne peut profiter qu'une fois par période de 24 heures des bénéfices conférés par un
    repos long » — the refusal counts the hours: right after an 8-hour rest, another would end 8 hours after
    it, 16 hours too soon; an hour and a half later, 9 whole hours after it, 15 hours (rounded up) too soon."""
    rested = rules.apply(sheet(current=5), rules.LongRest()).sheet
    later = rules.apply(rested, rules.AdvanceTime(unit="minute", count=90)).sheet
    for s, since, wait in ((rested, 8, 16), (later, 9, 15)):
        with pytest.raises(rules.Refused) as refused:
            rules.apply(s, rules.LongRest())
        assert str(refused.value) == (
            f"Un seul repos long par période de 24 heures : le dernier s'est terminé il y a {since} heures à la "
            f"fin de celui-ci ; encore {wait} h à attendre."
        )


def test_healing_of_zero_points_is_applied_and_negative_refused() -> None:
    """« Quand une créature reçoit des soins de quelque sorte qu'ils soient, les points d'action qu'elle regagne
    viennent s'ajouter à ses points d'action actuels. » Soins 0 add nothing and are no error; below 0 they are
    damage and refused."""
    assert rules.apply(sheet(current=5), rules.Heal(amount=0)).log == ("Soins 0 : 5 → 5 PA.",)
    with pytest.raises(rules.Refused, match=r"Des soins négatifs \(-1\)"):
        rules.apply(sheet(current=5), rules.Heal(amount=-1))


def test_heroic_survival_can_take_a_pool_down_to_zero() -> None:
    """« Il perd … les Points d'Action (PA), Points de Magie (PM) » — all 3 PM of the maximum lost leave a
    maximum of 0, not 1."""
    hero = sheet(level=4, constitution=14, current=0, dead=True, magic={"current": 3, "base_maximum": 3})
    lost = {"action_points_lost": 0, "magic_lost": 3, "faith_lost": 0, "honour_lost": 0, "xp_minimum": 0}
    out = rules.apply(hero, rules.HeroicSurvival(**lost, rolls=(3,)))
    assert (out.sheet.magic.current, out.sheet.magic.base_maximum) == (0, 0)
    assert "Points de magie (PM), maximum : 3 → 0." in out.log


def test_a_long_rest_under_heavy_exhaustion_recovers_nothing_of_a_small_pool() -> None:
    """« A noter que le malus impacte aussi le maximum de chaque catégorie. » Exhaustion 5 takes 5 off a
    maximum of 3 PM: the rest brings the pool to 0, not to 1."""
    s = sheet(current=15, level=10, exhaustion=5, intelligence=20, magic={"base_maximum": 3, "current": 0})
    out = rules.apply(s, rules.LongRest(), rng=random.Random(1))
    assert out.sheet.magic.current == 0
    assert "Points de magie (PM) : +10 (1 × niveau 10 +5 (Intelligence) −5 (épuisement)) → 0 → 0." in out.log


def test_a_stabilised_creature_one_second_from_its_point_still_sleeps() -> None:
    """« Si elle n'est pas soignée, une personne stabilisée regagne 1 point d'action au bout de 1d6 heures. »
    With 61 seconds left, a minute passes: 1 second is still to wait, no point yet."""
    down = rules.apply(sheet(), rules.Damage(amount=20), rng=random.Random(1)).sheet
    stable = rules.evolve(rules.apply(down, rules.Stabilise(method="magic", rolls=(2,))).sheet, wake_in=61)
    out = rules.apply(stable, rules.AdvanceTime(unit="minute", count=1))
    assert (out.sheet.wake_in, out.sheet.current) == (1, 0)
    assert rules.derive(stable).explain("state") == (
        "état : Stabilisé (0 PA, stabilisation : plus de jets contre la mort, sans connaissance)"
    )


def test_failed_first_aid_says_failure_and_clearing_states_at_zero_keeps_unconsciousness() -> None:
    """« Vous pouvez utiliser une action pour administrer les premiers soins à une personne inconsciente et
    tenter de la stabiliser, mais vous devez pour cela réussir un test de Sagesse (Médecine) DD 16. » A 3 is
    a failure, said so; clearing the states of that creature at 0 PA keeps it unconscious, and says only that."""
    down = rules.apply(sheet(), rules.Damage(amount=20), rng=random.Random(1)).sheet
    failed = rules.apply(down, rules.Stabilise(method="first_aid", rolls=(3,)))
    assert failed.log[0] == "Premiers soins, Sagesse (Médecine) : 3d6 = 3 (valeur donnée) +0 = 3 contre DD 16 → échec."
    assert not failed.sheet.stabilised
    ok = rules.apply(down, rules.Stabilise(method="first_aid", rolls=(16, 2)))
    assert ok.log[0] == "Premiers soins, Sagesse (Médecine) : 3d6 = 16 (valeur donnée) +0 = 16 contre DD 16 → réussite."
    cleared = rules.apply(down, rules.ClearConditions())
    assert cleared.log == ("Inconscient conservé : 0 point d'action.",)
    assert cleared.sheet.conditions == ("inconscient",)


def test_without_any_state_every_roll_mode_is_normal() -> None:
    """« La créature subit un désavantage lors de ses attaques. » — and without any state, neither advantage
    nor disadvantage: each mode's value is « normal »."""
    d = rules.derive(sheet())
    assert (d.attacks, d.attacked, d.checks) == ("normal", "normal", "normal")


def test_the_constitution_priority_is_explained_while_it_lasts() -> None:
    """« les prochains investissements en points de caractéristique devront se faire dans la caractéristique
    constitution jusqu'à ce qu'elle revienne à 10. »"""
    d = rules.derive(sheet(constitution=8, constitution_priority=True))
    assert d.explain("constitution_priority") == "prochains points de caractéristique en Constitution (jusqu'à 10)"
    assert rules.derive(sheet()).explain("constitution_priority") == ""


def test_points_given_by_an_edit_do_not_cut_rounds_of_unconsciousness_short() -> None:
    """« Si les dégâts que vous subissez vous font tomber à 0 point d’action, vous êtes inconscient (voir la
    section États spéciaux) pour 1d6 rounds à moins de réussir un JS DD 16 de Constitution. » Knocked out
    for 3 rounds at 0 PA, then given 5 PA by an edit: still unconscious for those rounds."""
    down = rules.apply(sheet(), rules.Damage(amount=20), rng=random.Random(1)).sheet
    assert (down.current, down.unconscious_rounds, down.conditions) == (0, 3, ("inconscient",))
    out = rules.apply(down, rules.Edit(changes={"current": 5}))
    assert (out.sheet.conditions, out.sheet.unconscious_rounds) == (("inconscient",), 3)
    assert out.log == ("Points d'action : 0 → 5.",)
