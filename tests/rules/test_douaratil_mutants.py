"""Douaratil: tests that kill the mutants a mutation sample left alive (scripts/mutation sample douaratil)."""

from __future__ import annotations

import random

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
