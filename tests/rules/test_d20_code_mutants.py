"""d20: tests that kill code mutants of ``rules/systems/d20/`` a mutation sample left alive (issue 19).

Each pins one behaviour a player or GM sees (a derived value's explanation, a rule under a house table
after an action under the shipped one) that no other test read exactly. ``scripts/mutation sample d20``.
"""

from __future__ import annotations

import random

import rules


def sheet(**fields: object) -> rules.D20Sheet:
    base: dict[str, object] = {"name": "Aldric", "level": 3, "base_maximum": 30, "current": 30}
    base.update(fields)
    return rules.new_sheet("d20", **base)


def house(**thresholds: object) -> rules.D20Rules:
    shipped = rules.system("d20").ruleset()
    return shipped.model_copy(update={"thresholds": shipped.thresholds.model_copy(update=thresholds)})


def test_the_first_dying_roll_is_announced_for_the_next_round() -> None:
    """« Le premier de ces jets a lieu le round suivant sa chute à –1 point de vie ou moins » — the sheet
    says when, in whole rounds, and what the roll is."""
    fallen = rules.apply(sheet(current=2), rules.Damage(amount=5)).sheet
    derived = rules.derive(fallen)
    assert derived.state == "mourant"
    assert derived.next_roll == 6
    assert derived.explain("next_roll") == "jet du mourant dans 1 round : 1d100, 10 % de se stabiliser, sinon −1 PV"
    assert derived.explain("turn_start") == f"à son tour : {derived.explain('next_roll')}"
    # A round later the roll is due at this round's turn (T29): no die yet, and the sheet says « à ce round ».
    later = rules.apply(fallen, rules.AdvanceTime(unit="round"), random.Random(3))
    assert later.rolls == () and later.sheet.current == -3
    assert rules.derive(later.sheet).next_roll == 0
    assert rules.derive(later.sheet).explain("next_roll") == (
        "jet du mourant à ce round : 1d100, 10 % de se stabiliser, sinon −1 PV"
    )


def test_resurrection_dd_explains_its_base_and_each_term() -> None:
    """« Le DD de base pour le test de résurrection final est de 10, augmentant de 1 pour chaque résurrection
    réussie précédente » — and a failed quick resurrection adds its 1 too, each term named."""
    dead = sheet(dead=True, death_cause="−10 PV", current=-10, resurrections=2, quick_failures=2)
    derived = rules.derive(dead)
    assert derived.resurrection_dd == 14
    assert derived.explain("resurrection_dd") == (
        "DD de résurrection 14 = 10 (base) + 2 (2 résurrections réussies) + 2 (2 résurrections rapides ratées)"
    )
    once = rules.derive(sheet(dead=True, death_cause="−10 PV", current=-10, resurrections=1, quick_failures=1))
    assert once.explain("resurrection_dd") == (
        "DD de résurrection 12 = 10 (base) + 1 (1 résurrection réussie) + 1 (1 résurrection rapide ratée)"
    )


def test_a_ranged_lethal_weapon_cannot_strike_to_subdue() -> None:
    """« Il est possible d'utiliser une arme de corps à corps infligeant des dégâts létaux pour infliger des
    dégâts non-létaux, mais le jet d'attaque subit alors un malus de –4 » — a melee weapon only (T11)."""
    ranged = rules.derive(sheet(weapon_lethal=True, weapon_melee=False, strike_nonlethal=True))
    assert ranged.nonlethal_strike_possible is False
    assert ranged.attack_modifier == 0
    assert ranged.explain("attack_modifier") == "une arme à distance létale ne peut pas infliger de dégâts non létaux"
    melee = rules.derive(sheet(weapon_lethal=True, weapon_melee=True, strike_nonlethal=True))
    assert melee.nonlethal_strike_possible is True
    assert melee.attack_modifier == -4


def test_a_stabilised_character_shows_how_it_recovers() -> None:
    """« Récupération avec assistance. Jetez 1d100 une heure après que l'état d'un personnage mourant a été
    stabilisé. » — the sheet says that the character is stabilised, and how."""
    stable = rules.derive(sheet(current=-3, recovery="assisted"))
    assert stable.stabilised is True
    assert stable.explain("stabilised") == "récupération : stabilisation avec assistance, sans connaissance"
    dying = rules.derive(sheet(current=-3))
    assert dying.stabilised is False
    assert dying.explain("stabilised") == "pas de récupération en cours"
    assert rules.derive(sheet()).stabilised is False


def test_a_house_table_rules_the_next_action_after_the_shipped_one() -> None:
    """« À partir de –10 points de vie, il est mort. » — under the shipped table; a house table that kills at
    minus the Constitution (docs/house-rules.md) rules the very next action on the same sheet, and the
    shipped one the action after (nothing of one table is kept for the other)."""
    weak = sheet(constitution=4, current=5)
    dying = rules.apply(weak, rules.Damage(amount=8)).sheet
    assert dying.current == -3 and not dying.dead
    table = house(death_at_minus_constitution=True)
    under_house = rules.apply(dying, rules.Damage(amount=1), rules_table=table)
    assert under_house.sheet.dead and under_house.sheet.current == -4
    shipped = rules.apply(dying, rules.Damage(amount=1))
    assert not shipped.sheet.dead and rules.derive(shipped.sheet).state == "mourant"
    again = rules.apply(shipped.sheet, rules.Damage(amount=1), rules_table=table)
    assert again.sheet.dead
    assert rules.derive(dying, rules_table=table).state == "mourant"
    assert rules.derive(under_house.sheet, rules_table=table).state == "mort"


def test_a_house_table_state_threshold_is_read_for_each_table() -> None:
    """« À 0 point de vie, l'aventurier est mis hors de combat. » — at 0 under the shipped table; a house
    table that puts « hors de combat » at 2 PV changes the state of the same sheet, each table read for itself."""
    at_two = sheet(current=5)
    hit = rules.apply(at_two, rules.Damage(amount=3)).sheet
    assert rules.derive(hit).state == "en_forme"
    table = house(disabled_at=2, death_at=-8)
    assert rules.derive(hit, rules_table=table).state == "hors_de_combat"
    under_house = rules.apply(at_two, rules.Damage(amount=3), rules_table=table)
    assert rules.derive(under_house.sheet, rules_table=table).state == "hors_de_combat"
    assert "Hors de combat" in "\n".join(under_house.log)
    after = rules.apply(under_house.sheet, rules.Damage(amount=1))
    assert rules.derive(after.sheet).state == "en_forme"
