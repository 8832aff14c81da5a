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


# Round 3 (session 3, sample of 100, seed 1201): the survivors of d20's new code.


def test_a_recovery_noted_at_zero_pv_is_a_problem_at_minus_one_it_is_not() -> None:
    """The sheet check's bound: a stabilisation's recovery belongs below 0 PV, and 0 PV is already too many."""
    at_zero = sheet(current=0).model_copy(update={"recovery": "assisted"})
    assert any(
        "une récupération (stabilisation avec assistance" in p and "à 0 ou plus" in p
        for p in rules.sheet_problems(at_zero)
    ), rules.sheet_problems(at_zero)
    below = sheet(current=-1).model_copy(update={"recovery": "assisted"})
    assert not any("récupération" in p for p in rules.sheet_problems(below))


def test_the_nonlethal_recovery_per_hour_is_explained() -> None:
    """« Les dégâts non-létaux disparaissent au rythme de 1 point par heure et par niveau global »."""
    derived = rules.derive(sheet(nonlethal=5))
    assert derived.explain("nonlethal_recovery") == "dégâts non létaux récupérés : 3 par heure (1 × niveau 3)"


def test_a_stabilised_character_first_tries_to_wake_after_the_tables_hours() -> None:
    """Recovery with help: the first roll to regain consciousness comes the table's hours after the stabilisation
    (one hour, 3,600 s, in the shipped table)."""
    fallen = rules.apply(sheet(current=2), rules.Damage(amount=5)).sheet
    healed = rules.apply(fallen, rules.Heal(amount=1, magical=True)).sheet
    assert healed.recovery == "assisted"
    assert healed.recovery_roll_at == healed.clock + 3600
    # A house table that waits 2 hours (a table not seen before: its figures are read anew, not cached).
    shipped = rules.system("d20").ruleset()
    table = shipped.model_copy(
        update={"recovery": shipped.recovery.model_copy(update={"assisted_first_roll_hours": 2})}
    )
    fallen = rules.apply(sheet(current=2), rules.Damage(amount=5), rules_table=table).sheet
    healed = rules.apply(fallen, rules.Heal(amount=1, magical=True), rules_table=table).sheet
    assert healed.recovery == "assisted"
    assert healed.recovery_roll_at == healed.clock + 7200


def test_an_unknown_condition_does_not_hide_what_a_known_one_implies() -> None:
    """A sheet from a file may hold a condition the table no longer knows (the check names it): the known
    ones still bring what they imply (Inconscient → Sans défense), whatever the order."""
    odd = sheet().model_copy(update={"conditions": ("inconscient", "inconnu")})
    assert rules.derive(odd).conditions == ("inconscient", "sans_defense")


def test_a_character_brought_back_by_hand_leaves_death_in_the_journal() -> None:
    """A GM unticks “Mort” on a sheet no action gave (read from a file): the journal tells Mort → Mourant,
    and the death's cause is cleared to an empty text (not missing)."""
    dead = sheet(dead=True, death_cause="−10 PV", current=-10).model_copy()
    back = rules.apply(dead, rules.Edit(changes={"dead": False, "current": -3}))
    assert back.sheet.death_cause == ""
    assert any(line.startswith("État : Mort → Mourant") for line in back.log), back.log


def test_only_the_dying_read_without_stabilisation() -> None:
    """The state's words: “sans stabilisation” for Mourant only; at 0 PV Hors de combat reads its PV."""
    derived = rules.derive(sheet(current=0).model_copy())
    assert derived.state == "hors_de_combat"
    assert "sans stabilisation" not in derived.explain("state")
    assert "sans stabilisation" in rules.derive(sheet(current=-3).model_copy()).explain("state")


def test_a_local_wound_keeps_its_note() -> None:
    wounded = rules.apply(sheet(), rules.AddLocalWound(body_part="bras_gauche", note="morsure du loup")).sheet
    assert [w.note for w in wounded.wounds] == ["morsure du loup"]


def test_a_house_rest_that_removes_nonlethal_damage() -> None:
    """A house table where rest removes nonlethal damage (and no hourly recovery): the night's healing takes
    as many nonlethal points as PV it gives; a healing that is not a rest does not."""
    shipped = rules.system("d20").ruleset()
    table = shipped.model_copy(
        update={
            "nonlethal": shipped.nonlethal.model_copy(update={"rest_removes": True, "recovery_per_hour_per_level": 0})
        }
    )
    tired = sheet(current=20, nonlethal=8)
    rested = rules.apply(tired, rules.LongRest(), random.Random(1), rules_table=table).sheet
    assert rested.current == 23 and rested.nonlethal == 5
    healed = rules.apply(tired, rules.Heal(amount=3), rules_table=table).sheet
    assert healed.current == 23 and healed.nonlethal == 8


def test_a_constitution_damaged_lowers_the_maximum_by_its_modifier_per_level() -> None:
    """Constitution 14 damaged by 4 (10 in play): +2 → +0, so 2 PV per level fewer: 30 → 24."""
    hurt = sheet(constitution=14, constitution_damage=4, current=20).model_copy()
    assert rules.derive(hurt).maximum == 24


def test_magical_healing_removes_as_much_nonlethal_damage() -> None:
    """« Les sorts permettant de récupérer des points de vie font également disparaître un nombre égal de
    points de dégâts non-létaux »."""
    tired = sheet(current=20, nonlethal=8).model_copy()
    healed = rules.apply(tired, rules.Heal(amount=5, magical=True))
    assert healed.sheet.current == 25 and healed.sheet.nonlethal == 3
    assert "Les soins effacent aussi 5 dégâts non létaux : 8 → 3." in healed.log
    more = rules.apply(tired, rules.Heal(amount=20, magical=True)).sheet
    assert more.current == 30 and more.nonlethal == 0
