"""Douaratil (seed 000): one test per rule, each quoting the passage it checks."""

from __future__ import annotations

import random

import pytest

import rules

HOUR = 3600


def sheet(**fields: object) -> rules.DouaratilSheet:
    base = {"name": "Ulfred", "base_maximum": 20, "current": 20, "constitution": 10}
    base.update(fields)
    return rules.new_sheet("douaratil", **base)


def run(s: object, action: rules.Action, seed: int | None = None) -> rules.Outcome:
    return rules.apply(s, action, rng=random.Random(seed) if seed is not None else None)


def text(outcome: rules.Outcome) -> str:
    return "\n".join(outcome.log)


# --- Points d'action and healing ------------------------------------------------------------------


def test_damage_removes_points() -> None:
    """« Quand une créature subit des dégâts, ceux-ci sont ôtés de son total actuel de points d'action. »"""
    out = run(sheet(), rules.Damage(amount=7))
    assert out.sheet.current == 13
    assert "20 → 13 PA" in text(out)


def test_points_never_below_zero() -> None:
    """« Les points d'action actuels d'une créature … se situent entre 0 et son maximum »."""
    out = run(sheet(current=5), rules.Damage(amount=30, rolls=(18, 18)))
    assert out.sheet.current == 0


def test_dall_dawnser_healing_example() -> None:
    """« un Bhegelm permet à un Dall Dawnser de regagner 8 points d'action … Le Dall Dawnser a actuellement
    14 points d'action et possède un maximum de 20 … Il ne regagne donc que 6 points d'action, ce qui porte
    son total à 20, son maximum. 2 des 8 points offerts par les soins du bheghem sont donc perdus. »"""
    dall = sheet(name="Dall Dawnser", current=14, base_maximum=20)
    out = run(dall, rules.Heal(amount=8))
    assert out.sheet.current == 20
    assert "2 perdus" in text(out)


def test_dead_regain_nothing() -> None:
    """« Une créature morte ne peut pas regagner de point d'action. »"""
    dead = sheet(current=0, dead=True)
    with pytest.raises(rules.Refused) as err:
        run(dead, rules.Heal(amount=5))
    assert err.value.reason == "Ulfred a succombé : regagner des points d'action impossible."
    with pytest.raises(rules.Refused) as err:
        run(dead, rules.LongRest())
    assert err.value.reason == "Ulfred a succombé : se reposer impossible."


def test_heal_dice_expression_uses_rng_and_shows_dice() -> None:
    """A healing amount may be a dice expression: rolled by the generator, the dice shown in the journal."""
    out = run(sheet(current=2), rules.Heal(amount="2d4+1"), seed=3)
    assert [(r.expression, r.total) for r in out.rolls] == [("2d4+1", 5)]
    assert out.sheet.current == 7
    assert out.log == ("Soins 2d4 (2, 2) + 1 = 5 : 2 → 7 PA.",)


def test_dice_without_rng_or_value_is_refused_cleanly() -> None:
    s = sheet(current=2)
    with pytest.raises(rules.NeedsRoll):
        rules.apply(s, rules.Heal(amount="2d4"))


# --- Temporary points -----------------------------------------------------------------------------


def test_temporary_absorbed_first_example() -> None:
    """« si vous avez 5 points d'action temporaires et que vous subissez 7 dégâts, vous perdez l'ensemble de
    vos points d'action temporaires et subissez 2 dégâts. »"""
    s = run(sheet(), rules.GainTemporary(amount=5)).sheet
    out = run(s, rules.Damage(amount=7))
    assert out.sheet.temporary == 0
    assert out.sheet.current == 18


def test_temporary_never_stack_example_keep_or_replace() -> None:
    """« si un sort vous accorde 12 points d'action temporaires et que vous en possédez déjà 10, vous devez
    décider si vous gardez les 10 … ou si vous les échangez contre les 12 …, mais vous ne pouvez en aucun cas
    les cumuler pour obtenir 22 »"""
    s = run(sheet(), rules.GainTemporary(amount=10)).sheet
    kept = run(s, rules.GainTemporary(amount=12, replace=False)).sheet
    replaced = run(s, rules.GainTemporary(amount=12, replace=True)).sheet
    assert kept.temporary == 10
    assert replaced.temporary == 12


def test_temporary_may_exceed_maximum() -> None:
    """« vous pouvez posséder votre total de points d'action maximum et recevoir quand même des points
    d'action temporaires. »"""
    out = run(sheet(), rules.GainTemporary(amount=6))
    d = rules.derive(out.sheet)
    assert d.current == d.maximum == 20
    assert d.temporary == 6


def test_temporary_not_restored_by_healing() -> None:
    """« Les points d'action temporaires ne sont pas restaurés par les soins. »"""
    s = run(sheet(), rules.GainTemporary(amount=5)).sheet
    s = run(s, rules.Damage(amount=3)).sheet
    assert s.temporary == 2
    healed = run(s, rules.Heal(amount=10)).sheet
    assert healed.temporary == 2


def test_temporary_end_with_long_rest() -> None:
    """« Vos points d'action temporaires subsistent jusqu'à ce qu'ils servent à encaisser des dégâts ou
    jusqu'au terme d'un repos long. »"""
    s = run(sheet(), rules.GainTemporary(amount=5)).sheet
    rested = run(s, rules.LongRest(), seed=1).sheet
    assert rested.temporary == 0


def test_temporary_at_zero_neither_wake_nor_stabilise_but_absorb() -> None:
    """« Si vous êtes à 0 point d'action, recevoir des points d'action temporaires ne vous permet pas de
    reprendre conscience ou d'être stabilisé. En revanche, ces points … peuvent toujours absorber les dégâts »"""
    down = run(sheet(current=3), rules.Damage(amount=3, rolls=(5, 4))).sheet  # CON save 5 fails, 4 rounds
    assert down.current == 0 and "inconscient" in down.conditions
    with_temp = run(down, rules.GainTemporary(amount=6)).sheet
    d = rules.derive(with_temp)
    assert d.state == "mourant"
    assert "inconscient" in with_temp.conditions
    assert not with_temp.stabilised
    hit = run(with_temp, rules.Damage(amount=4)).sheet
    assert hit.temporary == 2 and hit.current == 0


# --- Unconsciousness, massive damage -------------------------------------------------------------


def test_fall_to_zero_con_save_fails_unconscious_1d6_rounds() -> None:
    """« Si les dégâts que vous subissez vous font tomber à 0 point d'action, vous êtes inconscient … pour
    1d6 rounds à moins de réussir un JS DD 16 de Constitution. »"""
    out = run(sheet(current=4), rules.Damage(amount=4, rolls=(9, 3)))
    assert "inconscient" in out.sheet.conditions
    assert out.sheet.unconscious_rounds == 3
    assert "unconscious" in out.events


def test_fall_to_zero_con_save_decides_whether_healing_wakes_at_once() -> None:
    """« vous êtes inconscient (voir la section États spéciaux) pour 1d6 rounds à moins de réussir un JS DD 16
    de Constitution » and « Une personne stabilisée … Cependant, elle reste inconsciente »: at 0 PA the creature
    is unconscious either way (D14); the save decides whether it stays out 1d6 rounds even once healed."""
    saved = run(sheet(current=4), rules.Damage(amount=4, rolls=(16,)))  # 16 + 0 against DD 16
    assert saved.sheet.conditions == ("inconscient",) and saved.sheet.unconscious_rounds == 0
    assert rules.derive(saved.sheet).state == "mourant" and rules.derive(saved.sheet).incapacitated
    woke = run(saved.sheet, rules.Heal(amount=3)).sheet
    assert woke.conditions == ("a_terre",) and woke.current == 3
    knocked = run(sheet(current=4), rules.Damage(amount=4, rolls=(15, 3))).sheet  # 15 < 16: out 3 rounds
    assert knocked.conditions == ("inconscient",) and knocked.unconscious_rounds == 3
    healed = run(knocked, rules.Heal(amount=3))
    assert healed.sheet.conditions == ("inconscient",) and healed.sheet.unconscious_rounds == 3
    assert "Ulfred reste sans connaissance encore 3 rounds au plus" in text(healed)


def test_unconscious_new_save_each_round_wakes_prone() -> None:
    """« Chaque round, la personne inconsciente peut essayer de réussir le JS DD 16 de Constitution et se
    réveiller. » and « Si la créature reprend conscience, elle est à terre. »"""
    s = sheet(current=30, base_maximum=30, constitution=10)
    s = run(s, rules.Damage(amount=12, rolls=(6, 5))).sheet  # massive: 12 > CON 10, save 6 fails, 5 rounds
    assert "inconscient" in s.conditions and s.unconscious_rounds == 5
    out = run(s, rules.AdvanceTime(unit="round", count=1, rolls=(8,)))  # save 8 fails
    assert out.sheet.unconscious_rounds == 4
    out = run(out.sheet, rules.WakeSave(rolls=(17,)))
    assert "inconscient" not in out.sheet.conditions
    assert "a_terre" in out.sheet.conditions


def test_unconscious_rounds_run_out() -> None:
    """« inconscient … pour 1d6 rounds »: after the rounds it wakes even without a successful save."""
    s = sheet(current=30, base_maximum=30)
    s = run(s, rules.Damage(amount=12, rolls=(6, 2))).sheet
    out = run(s, rules.AdvanceTime(unit="round", count=2, rolls=(3, 3)))
    assert "inconscient" not in out.sheet.conditions


def test_massive_damage_needs_more_than_constitution() -> None:
    """« Cette quantité de dégât … correspond à sa caractéristique de constitution. Si ce montant est dépassé,
    il faut réussir un JS DD 16 de Constitution ou s'effondrer pour 1d6 rounds. »"""
    s = sheet(current=30, base_maximum=30, constitution=12)
    equal = run(s, rules.Damage(amount=12))
    assert "massive_damage" not in equal.events
    over = run(s, rules.Damage(amount=13, rolls=(4, 2)))
    assert "massive_damage" in over.events
    assert "inconscient" in over.sheet.conditions
    saved = run(s, rules.Damage(amount=13, rolls=(18,)))
    assert "inconscient" not in saved.sheet.conditions


# --- Critical hits --------------------------------------------------------------------------------


def test_critical_triggers() -> None:
    """« Le coup critique intervient quand des dommages sont causés alors que le personnage n'avait plus de
    points d'action (PA), si le seuil de critique (SC) est dépassé ou si trois 6 sont obtenus dans le test
    d'attaque. »"""
    at_zero = sheet(current=0)
    assert "critical" in run(at_zero, rules.Damage(amount=1)).events
    threshold = sheet(critical_threshold=8)
    assert "critical" not in run(threshold, rules.Damage(amount=8)).events
    assert "critical" in run(threshold, rules.Damage(amount=9)).events
    assert "critical" in run(sheet(), rules.Damage(amount=2, critical=True)).events
    assert "critical" not in run(sheet(), rules.Damage(amount=2)).events


def test_hit_on_unconscious_within_1_5m_is_critical() -> None:
    """Inconscient: « Toute attaque qui touche la créature est obligatoirement un coup critique si l'assaillant
    se trouve dans un rayon de 1,50 mètre autour d'elle. »"""
    s = run(sheet(), rules.SetCondition(condition="inconscient")).sheet
    assert "critical" in run(s, rules.Damage(amount=2, adjacent=True)).events
    assert "critical" not in run(s, rules.Damage(amount=2, adjacent=False)).events


# --- Wounds -----------------------------------------------------------------------------------------


def test_wound_table() -> None:
    """« Contusion 1 jour » … « écrasement 3 jours » … « plaie 5 jours » … « déchirement 7 jours » …
    « hémorragie 10 jours » … « fracture 20 jours » (with Wisdom test DDs 8, 12, 16, 22, 22, 28)."""
    table = rules.ruleset("douaratil").wounds
    assert {k: (w.days, w.will_dd) for k, w in table.items()} == {
        "contusion": (1, 8),
        "ecrasement": (3, 12),
        "plaie": (5, 16),
        "dechirement": (7, 22),
        "hemorragie": (10, 22),
        "fracture": (20, 28),
    }
    assert table["ecrasement"].limitation == "Mouvement divisé par deux"


def test_minor_and_major_wounds_raise_dd_steps() -> None:
    """« Une blessure mineure augmente le DD de tout test de caractéristique la difficulté d'un degré: par
    exemple un test moyen (DD 16) se transforme en test difficile (DD 22). Dans le cadre d'une blessure
    majeure, la difficulté est augmenté de deux paliers: … (DD 28). »"""
    minor = run(sheet(), rules.AddWound(wound_type="contusion", severity="minor")).sheet
    major = run(sheet(), rules.AddWound(wound_type="fracture", severity="major")).sheet
    assert rules.derive(minor).test_dd == 22
    assert rules.derive(major).test_dd == 28
    assert "DD 28" in rules.derive(major).explain("test_dd")
    assert rules.derive(sheet()).test_dd == 16


def test_healing_test_ignores_the_wound_steps() -> None:
    """« Attention, cela ne s'applique pas pour le test de guérison. »: a major wound's healing test stays DD 16."""
    s = run(sheet(), rules.AddWound(wound_type="contusion", severity="major")).sheet
    out = run(s, rules.LongRest(rolls=(16,)))  # 16 + 0 (CON 10) against DD 16
    assert out.sheet.wounds == ()
    assert "contre DD 16" in text(out)


def test_wound_heals_after_its_delay_in_long_rests_and_leaves_a_scar() -> None:
    """« Une personne blessée doit passer un nombre de repos long variable suivant le type de blessure grave
    encaissée avant de pouvoir être guéri. Une fois cette période passée, à chaque repos long, un JS DD 16 est
    fait pour chaque blessure grave. Si le test est réussi, un blessure grave est enlevée, laissant seulement
    le souvenir de sa marque. »"""
    s = run(sheet(), rules.AddWound(wound_type="ecrasement", severity="minor")).sheet
    for _ in range(2):  # rests 1 and 2 of 3: no test yet
        s = run(s, rules.LongRest()).sheet
        assert len(s.wounds) == 1
        s = run(s, rules.AdvanceTime(unit="hour", count=16)).sheet
    failed = run(s, rules.LongRest(rolls=(10,))).sheet  # third rest: test, 10 < 16
    assert len(failed.wounds) == 1 and failed.scars == ()
    failed = run(failed, rules.AdvanceTime(unit="hour", count=16)).sheet
    healed = run(failed, rules.LongRest(rolls=(17,))).sheet
    assert healed.wounds == ()
    assert [sc.type for sc in healed.scars] == ["ecrasement"]
    assert healed.clock == 4 * 8 * HOUR + 3 * 16 * HOUR  # the delay counts long rests, not calendar days


def test_bleeding_wound_loses_per_round() -> None:
    """« plaie … risque d'ouverture de la plaie avec saignement (1d6/rd) (JS CON DD 16) » and « hémorragie …
    (2d6/rd) »"""
    s = sheet(current=40, base_maximum=40)
    s = run(s, rules.AddWound(wound_type="hemorragie", severity="major")).sheet
    wid = s.wounds[0].id
    opened = run(s, rules.WoundRisk(wound_id=wid, rolls=(9,)))
    assert opened.sheet.wounds[0].bleeding
    out = run(opened.sheet, rules.AdvanceTime(unit="round", count=2, rolls=(7, 5)))
    assert out.sheet.current == 40 - 12
    assert "2d6 = 7 (valeur donnée)" in text(out)
    closed = run(out.sheet, rules.SetWoundBleeding(wound_id=wid, bleeding=False)).sheet
    assert run(closed, rules.AdvanceTime(unit="round", count=5)).sheet.current == 28


def test_wound_risk_save_keeps_it_closed() -> None:
    """« (JS CON DD 16) »: a successful save keeps the wound closed."""
    s = run(sheet(), rules.AddWound(wound_type="plaie")).sheet
    assert not run(s, rules.WoundRisk(wound_id=s.wounds[0].id, rolls=(16,))).sheet.wounds[0].bleeding


def test_non_bleeding_wound_cannot_bleed() -> None:
    s = run(sheet(), rules.AddWound(wound_type="fracture")).sheet
    with pytest.raises(rules.Refused):
        run(s, rules.SetWoundBleeding(wound_id=s.wounds[0].id, bleeding=True))


def test_magic_heals_a_wound_faster() -> None:
    """« Les blessures peuvent être guéries plus rapidement par des soins magiques ou l'usage de plantes »."""
    s = run(sheet(), rules.AddWound(wound_type="fracture", severity="major")).sheet
    out = run(s, rules.HealWound(wound_id=s.wounds[0].id)).sheet
    assert out.wounds == () and len(out.scars) == 1
    with pytest.raises(rules.Refused, match="n° 9"):
        run(s, rules.HealWound(wound_id=9))


def test_unknown_wound_type_refused() -> None:
    with pytest.raises(rules.Refused, match="inconnu"):
        run(sheet(), rules.AddWound(wound_type="brulure"))


# --- Death saves and stabilisation ----------------------------------------------------------------


def test_death_saves_three_successes_stabilise_not_consecutive() -> None:
    """« Lancez 3d6 (non explosifs). Sur un résultat de 10 ou plus, vous avez réussi. … après trois succès,
    vous êtes stabilisé … Ces succès ou ces échecs n'ont pas besoin d'être consécutifs »"""
    s = sheet(current=0)
    for roll in (10, 4, 12):
        s = run(s, rules.DeathSave(rolls=(roll,))).sheet
    assert (s.death_successes, s.death_failures) == (2, 1)
    out = run(s, rules.DeathSave(rolls=(15, 3)))  # 3rd success; 3 = hours before 1 PA
    assert out.sheet.stabilised
    assert (out.sheet.death_successes, out.sheet.death_failures) == (0, 0)
    assert rules.derive(out.sheet).state == "stabilise"


def test_death_saves_three_failures_kill() -> None:
    """« après trois échecs, vous mourez »"""
    s = sheet(current=0)
    for roll in (9, 18, 3):
        s = run(s, rules.DeathSave(rolls=(roll,))).sheet
    assert not s.dead
    out = run(s, rules.DeathSave(rolls=(5,)))
    assert out.sheet.dead and "died" in out.events
    assert rules.derive(out.sheet).state == "mort"


def test_death_save_impossible_roll_refused() -> None:
    with pytest.raises(rules.Refused, match="impossible"):
        run(sheet(current=0), rules.DeathSave(rolls=(19,)))


def test_death_save_counters_reset_on_regaining_points() -> None:
    """« Ce compteur est remis à 0 dès que vous regagnez des points d'action pour être au dessus de zéro »"""
    s = sheet(current=0)
    s = run(s, rules.DeathSave(rolls=(3,))).sheet
    s = run(s, rules.DeathSave(rolls=(12,))).sheet
    healed = run(s, rules.Heal(amount=1)).sheet
    assert (healed.death_successes, healed.death_failures) == (0, 0)
    with pytest.raises(rules.Refused):
        run(healed, rules.DeathSave(rolls=(10,)))


def test_advance_rounds_rolls_death_saves() -> None:
    """« À chaque fois que vous commencez votre tour de jeu à 0 point d'action ou moins, vous devez faire un
    jet de sauvegarde spécial appelé jet de sauvegarde contre la mort. »"""
    s = sheet(current=0)
    out = run(s, rules.AdvanceTime(unit="round", count=3, rolls=(4, 5, 6)))
    assert out.sheet.dead
    assert text(out).count("Jet contre la mort") == 3


def test_first_aid_dd16_stabilises() -> None:
    """« Vous pouvez utiliser une action pour administrer les premiers soins à une personne inconsciente et
    tenter de la stabiliser, mais vous devez pour cela réussir un test de Sagesse (Médecine) DD 16. »"""
    s = sheet(current=0)
    failed = run(s, rules.Stabilise(method="first_aid", modifier=2, rolls=(13,)))
    assert not failed.sheet.stabilised
    ok = run(s, rules.Stabilise(method="first_aid", modifier=2, rolls=(14, 2)))
    assert ok.sheet.stabilised


def test_stabilised_makes_no_saves_stays_unconscious_and_loses_it_when_hit() -> None:
    """« Une personne stabilisée n'a pas besoin de faire de jet de sauvegarde contre la mort, même si elle est
    à 0 point d'action. Cependant, elle reste inconsciente. Si la créature subit de nouveaux dégâts, elle n'est
    plus considérée comme stabilisée »"""
    s = run(sheet(current=3), rules.Damage(amount=3, rolls=(4, 6))).sheet  # unconscious 6 rounds
    s = run(s, rules.Stabilise(method="magic", rolls=(2,))).sheet
    assert s.stabilised and "inconscient" in s.conditions
    with pytest.raises(rules.Refused):
        run(s, rules.DeathSave(rolls=(12,)))
    hit = run(s, rules.Damage(amount=1)).sheet
    assert not hit.stabilised
    assert rules.derive(hit).state == "mourant"


def test_stabilised_regains_one_point_after_1d6_hours() -> None:
    """« Si elle n'est pas soignée, une personne stabilisée regagne 1 point d'action au bout de 1d6 heures. »"""
    s = run(sheet(current=0), rules.Stabilise(method="magic", rolls=(3,))).sheet
    assert s.wake_in == 3 * HOUR
    still = run(s, rules.AdvanceTime(unit="hour", count=2)).sheet
    assert still.current == 0
    woke = run(still, rules.AdvanceTime(unit="hour", count=1)).sheet
    assert woke.current == 1 and not woke.stabilised


# --- Monsters and heroic death -----------------------------------------------------------------


def test_monsters_die_at_zero() -> None:
    """« La plupart des Narrateurs font mourir les adversaires dès qu'ils atteignent 0 point d'action »"""
    orc = rules.new_sheet("douaratil", name="Orque", is_npc=True, dies_at_zero=True, base_maximum=9, current=9)
    out = run(orc, rules.Damage(amount=9))
    assert out.sheet.dead
    with pytest.raises(rules.Refused):
        run(orc.model_copy(update={"current": 0}), rules.DeathSave(rolls=(10,)))


def test_monster_may_act_1d6_rounds_then_die() -> None:
    """« il peut la laisser agir librement pendant 1d6 rounds ou de toutes les façons la créature succombe »"""
    orc = rules.new_sheet(
        "douaratil", is_npc=True, dies_at_zero=True, dies_after_rounds=True, base_maximum=9, current=9
    )
    s = run(orc, rules.Damage(amount=9, rolls=(2,))).sheet
    assert not s.dead and s.death_in_rounds == 2
    assert not run(s, rules.AdvanceTime(unit="round", count=1)).sheet.dead
    assert run(s, rules.AdvanceTime(unit="round", count=2)).sheet.dead


def test_important_npcs_follow_pc_rules() -> None:
    """« Le MJ peut les considérer inconscients et suivre les mêmes règles que pour les personnages des
    joueurs. »"""
    boss = rules.new_sheet("douaratil", is_npc=True, base_maximum=9, current=9)
    out = run(boss, rules.Damage(amount=9, rolls=(17,)))
    assert not out.sheet.dead and rules.derive(out.sheet).state == "mourant"


def test_heroic_survival_consequences() -> None:
    """« Il perd immédiatement un niveau. Il perd les points de caractéristiques dû au niveau (1 pour un
    niveau impair et 2 pour in niveau pair) et il les soustrait de sa caractéristique Constitution (CON). Il
    perd … les Points d'Action (PA), Points de Magie (PM) … Les points d'expériences sont diminués … Si suite à
    ses conséquences la Constitution est en dessous de 10 … les prochains investissements … constitution »"""
    hero = sheet(
        level=4,
        constitution=11,
        xp=5000,
        base_maximum=30,
        current=0,
        dead=True,
        magic={"current": 8, "base_maximum": 12},
    )
    lost = {"action_points_lost": 6, "magic_lost": 3, "faith_lost": 0, "honour_lost": 0, "xp_minimum": 3000}
    out = run(hero, rules.HeroicSurvival(**lost, rolls=(2,)))
    s = out.sheet
    assert s.level == 3 and s.constitution == 9  # level 4 is even: 2 points
    assert s.base_maximum == 24 and s.magic.base_maximum == 9 and s.magic.current == 8
    assert s.xp == 3000 and s.constitution_priority and not s.dead
    assert s.stabilised and s.wake_in == 2 * HOUR and "inconscient" in s.conditions
    nothing = {**lost, "action_points_lost": 0, "magic_lost": 0, "xp_minimum": 0}
    odd = run(sheet(level=3, constitution=14, dead=True, current=0), rules.HeroicSurvival(**nothing, rolls=(4,)))
    assert odd.sheet.constitution == 13 and not odd.sheet.constitution_priority
    with pytest.raises(rules.Refused, match="Un personnage de niveau 1 n'a pas de niveau à perdre"):
        run(sheet(level=1, dead=True, current=0), rules.HeroicSurvival(**nothing))


# --- States ---------------------------------------------------------------------------------------


SPECIAL = {
    "a_terre", "assourdi", "aveugle", "charme", "empoigne", "empoisonne", "entrave", "etourdi",
    "inconscient", "invisible", "neutralise", "paralyse", "petrifie", "terrorise",
}  # fmt: skip


def test_all_states_of_the_seed_with_effects() -> None:
    """« Les états spéciaux »: À terre, Assourdi, Aveuglé, Charmé, Empoigné, Empoisonné, Entravé, Étourdi,
    Inconscient, Invisible, Neutralisé, Paralysé, Pétrifié, Terrorisé; and « Autres états temporaires »:
    Repoussé, Surpris."""
    info = rules.describe("douaratil")
    groups = {c.id: c.group for c in info.conditions}
    assert {c for c, g in groups.items() if g == "special"} == SPECIAL
    assert {c for c, g in groups.items() if g == "other"} == {"repousse", "surpris"}
    assert all(c.effects for c in info.conditions)


@pytest.mark.parametrize("cause", ["inconscient", "paralyse", "petrifie"])
def test_implied_neutralise(cause: str) -> None:
    """« Une créature inconsciente est neutralisée (voir l'état) » ; paralysée, pétrifiée : idem."""
    s = run(sheet(), rules.SetCondition(condition=cause)).sheet
    d = rules.derive(s)
    assert "neutralise" in d.conditions
    assert d.condition_reasons["neutralise"].startswith("découle")
    assert d.incapacitated
    with pytest.raises(rules.Refused, match="découle"):
        run(s, rules.SetCondition(condition="neutralise", active=False))


def test_waking_leaves_prone() -> None:
    """« Si la créature reprend conscience, elle est à terre. »"""
    s = run(sheet(), rules.SetCondition(condition="inconscient")).sheet
    woke = run(s, rules.SetCondition(condition="inconscient", active=False)).sheet
    assert woke.conditions == ("a_terre",)


def test_state_does_not_stack() -> None:
    """« l'intensité de ceux-ci ne se cumule pas : une créature est soumise à un état ou ne l'est pas. »"""
    s = run(sheet(), rules.SetCondition(condition="aveugle")).sheet
    again = run(s, rules.SetCondition(condition="aveugle"))
    assert again.sheet.conditions == ("aveugle",)
    assert "ne se cumule pas" in text(again)


def test_clear_all_spares_other_states_unless_named() -> None:
    """« si un effet ou une capacité annule tous les états qui affectent le personnage, les états suivants ne
    sont pas concernés, à moins qu'ils soient spécifiquement désignés. »"""
    s = sheet()
    for c in ("aveugle", "repousse", "surpris", "charme"):
        s = run(s, rules.SetCondition(condition=c)).sheet
    cleared = run(s, rules.ClearConditions()).sheet
    assert cleared.conditions == ("repousse", "surpris")
    named = run(s, rules.ClearConditions(include=("surpris",))).sheet
    assert named.conditions == ("repousse",)


def test_condition_effects_in_derived_values() -> None:
    """Entravé: « La vitesse de la créature entravée tombe à 0 … Les attaques qui visent la créature
    bénéficient d'un avantage, tandis que les attaques de la créature subissent un désavantage. »"""
    s = run(sheet(), rules.SetCondition(condition="entrave")).sheet
    d = rules.derive(s)
    assert d.speed == 0 and d.attacks == "desavantage" and d.attacked == "avantage"
    assert "Entravé" in d.explain("speed")


def test_unknown_condition_refused() -> None:
    with pytest.raises(rules.Refused, match="inconnu"):
        run(sheet(), rules.SetCondition(condition="volant"))


def test_petrified_resists_all_damage() -> None:
    """Pétrifié: « La créature est résistante à tous les types de dégâts. »"""
    s = run(sheet(), rules.SetCondition(condition="petrifie")).sheet
    assert run(s, rules.Damage(amount=9)).sheet.current == 20 - 4


# --- Exhaustion -------------------------------------------------------------------------------------


def test_ulfred_exhaustion_example() -> None:
    """« Ulfred est niveau 1 et est épuisé au niveau 6, il a normalement 14 points d'action. Tant qu'il est
    épuisé, son maximum sera 8 points d'action (malus de -6). »"""
    ulfred = sheet(level=1, base_maximum=14, current=14)
    out = run(ulfred, rules.SetExhaustion(level=6))
    d = rules.derive(out.sheet)
    assert d.maximum == 8 and d.current == 8
    assert d.explain("maximum") == "maximum 8 = 14 − 6 (épuisement niveau 6)"


def test_exhaustion_table_penalty_and_movement() -> None:
    """« 1 Malus de -1, réduction de déplacement de 1m … 6 Malus de -6, réduction de déplacement de 6m »"""
    for level in range(0, 7):
        s = run(sheet(speed_m=9, magic={"current": 5, "base_maximum": 10}), rules.SetExhaustion(level=level))
        d = rules.derive(s.sheet)
        assert d.roll_penalty == -level
        assert d.speed == 9 - level
        assert d.magic_maximum == 10 - level
        assert d.maximum == 20 - level


def test_exhaustion_adds_up_and_ends_below_one() -> None:
    """« Si une personne déjà épuisée souffre d'un nouvel effet générant de l'épuisement, son niveau
    d'épuisement actuel augmente du montant indiqué » and « Tous les effets d'épuisement se terminent si le
    niveau d'épuisement de la créature est réduit à moins de 1. »"""
    s = run(sheet(), rules.AddExhaustion(levels=2)).sheet
    s = run(s, rules.AddExhaustion(levels=3)).sheet
    assert s.exhaustion == 5
    s = run(s, rules.AddExhaustion(levels=-9)).sheet
    assert s.exhaustion == 0 and rules.derive(s).roll_penalty == 0
    assert run(s, rules.AddExhaustion(levels=10)).sheet.exhaustion == 6


def test_exhaustion_applies_to_recovery_rolls() -> None:
    """« Le malus s'applique à tout lancer de dés … mais aussi la récupération … des points d'action … et des
    lancers des dés de vie dans le cadre des repos courts »"""
    s = sheet(level=2, current=5, exhaustion=2, constitution=14)  # CON +2
    s = run(s, rules.ShortRest(hours=1)).sheet
    out = run(s, rules.SpendActionDie(rolls=(6,)))
    assert out.sheet.current == 5 + 6 + 2 - 2


# --- Rests --------------------------------------------------------------------------------------------


def test_short_rest_dice_one_at_a_time() -> None:
    """« A la fin d'une période de repos court, un personnage peut décider de puiser dans sa réserve de dés
    d'action. Cette dernière est égale à son niveau. … Pour chaque dé d'action ainsi utilisé, le joueur lance un
    dé et ajoute à son résultat le modificateur de Constitution … Le joueur peut décider de lancer ses dés
    d'action les uns après les autres »"""
    s = sheet(level=2, current=3, constitution=12)  # CON +1
    s = run(s, rules.ShortRest(hours=1)).sheet
    assert s.short_rest_open
    s = run(s, rules.SpendActionDie(rolls=(5,))).sheet
    assert s.current == 9 and s.action_dice_spent == 1
    s = run(s, rules.SpendActionDie(rolls=(8,))).sheet
    assert s.current == 18 and s.action_dice_spent == 2
    with pytest.raises(rules.Refused, match="Plus aucun dé"):
        run(s, rules.SpendActionDie(rolls=(1,)))


def test_short_rest_dice_need_a_short_rest_and_an_hour() -> None:
    """« Un repos court est une période de repos d'au moins 1 heure »"""
    with pytest.raises(rules.Refused):
        run(sheet(current=3), rules.SpendActionDie(rolls=(5,)))
    with pytest.raises(rules.Refused, match="au moins 1 heure"):
        run(sheet(current=3), rules.ShortRest(hours=0))
    s = run(sheet(current=3, level=3), rules.ShortRest(hours=1)).sheet
    s = run(s, rules.Damage(amount=1)).sheet  # something else happened: the rest is over
    with pytest.raises(rules.Refused):
        run(s, rules.SpendActionDie(rolls=(5,)))


def test_short_rest_dice_capped_at_maximum() -> None:
    """« Le nombre de points d'action d'une créature ne peut pas dépasser son maximum »"""
    s = run(sheet(current=18), rules.ShortRest(dice=1, rolls=(8,))).sheet
    assert s.current == 20


def test_long_rest_needs_a_point_and_eight_hours() -> None:
    """« Un repos long est une période de repos d'au moins 8 heures » ; « il doit avoir au moins 1 point
    d'action au début de cette période de repos. »"""
    with pytest.raises(rules.Refused, match="au moins 1 point"):
        run(sheet(current=0), rules.LongRest())
    with pytest.raises(rules.Refused, match="8 heures"):
        run(sheet(current=5), rules.LongRest(hours=6))


def test_long_rest_once_per_24_hours() -> None:
    """« Un personnage ne peut profiter qu'une fois par période de 24 heures des bénéfices conférés par un
    repos long »"""
    s = run(sheet(current=5), rules.LongRest()).sheet
    s = run(s, rules.Damage(amount=3)).sheet
    with pytest.raises(rules.Refused, match="24 heures"):
        run(s, rules.LongRest())
    later = run(s, rules.AdvanceTime(unit="hour", count=16)).sheet
    assert run(later, rules.LongRest()).sheet.current == 20


def test_refused_action_changes_nothing() -> None:
    s = sheet(current=0)
    before = s.model_dump()
    with pytest.raises(rules.Refused):
        run(s, rules.LongRest())
    assert s.model_dump() == before


def test_interrupted_long_rest_gives_nothing() -> None:
    """« Si ce repos est interrompu par une période d'activité soutenue … tout le temps passé dans l'optique
    d'un repos long est perdu. »"""
    s = sheet(current=5)
    out = run(s, rules.LongRest(interrupted=True))
    assert out.sheet.current == 5
    assert out.sheet.clock == 8 * HOUR
    assert "aucun bénéfice" in text(out)


def test_long_rest_regains_all_points_and_half_the_dice() -> None:
    """« À la fin d'un repos long, un personnage regagne tous ses points d'action … toujours au moins un dé
    d'action dépensé et au maximum la moitié de son total de dés d'action. Par exemple, si un personnage
    possède 8 dés d'action, il peut en regagner 4 au maximum … Un personnage de niveau 1 regagne son dé
    d'action s'il l'a dépensé. »"""
    eight = run(sheet(level=8, current=3, action_dice_spent=8), rules.LongRest()).sheet
    assert eight.current == 20 and eight.action_dice_spent == 4
    one = run(sheet(level=1, current=3, action_dice_spent=1), rules.LongRest()).sheet
    assert one.action_dice_spent == 0
    three = run(sheet(level=3, current=3, action_dice_spent=3), rules.LongRest()).sheet
    assert three.action_dice_spent == 2  # half of 3 is 1, « toujours au moins un »


def test_long_rest_magic_faith_honour_sanity() -> None:
    """« Après un repos long, le personnage récupère 1 point par niveau + son bonus de caractéristique
    correspondant. Un personnage de la voie de la magie double son bonus de caractéristique. … points
    d'honneur … 1 point par niveau + son bonus de charisme. Un personnage de la voie des armes double son bonus
    … un point de santé mentale (SAM) par point de bonus de Sagesse (minimum 1) »"""
    pools = {
        "magic": {"current": 0, "base_maximum": 30},
        "faith": {"current": 0, "base_maximum": 30},
        "honour": {"current": 0, "base_maximum": 30},
        "sanity": {"current": 0, "base_maximum": 30},
    }
    base = dict(level=3, current=5, intelligence=14, wisdom=12, charisma=16, **pools)
    plain = run(sheet(**base), rules.LongRest()).sheet
    assert plain.magic.current == 3 + 2  # INT +2
    assert plain.faith.current == 3 + 1  # SAG +1
    assert plain.honour.current == 3 + 3  # CHA +3
    assert plain.sanity.current == 1  # SAG +1
    mage = run(sheet(path="magie", **base), rules.LongRest()).sheet
    assert mage.magic.current == 3 + 4 and mage.faith.current == 3 + 2 and mage.honour.current == 6
    warrior = run(sheet(path="armes", **base), rules.LongRest()).sheet
    assert warrior.honour.current == 3 + 6 and warrior.magic.current == 5
    dull = run(sheet(**{**base, "wisdom": 8}), rules.LongRest()).sheet
    assert dull.sanity.current == 1  # « (minimum 1) »


def test_long_rest_reduces_exhaustion_if_fed() -> None:
    """« Une fois terminé, un repos long réduit le niveau d'épuisement d'une créature de 1, à condition qu'elle
    ait eu à boire et à manger. »"""
    s = sheet(current=5, exhaustion=3)
    fed = run(s, rules.LongRest(ate_and_drank=True)).sheet
    hungry = run(s, rules.LongRest(ate_and_drank=False)).sheet
    assert fed.exhaustion == 2 and fed.current == 18
    assert hungry.exhaustion == 3 and hungry.current == 17


# --- Facade guarantees ---------------------------------------------------------------------------


def test_systems_and_unknown_system() -> None:
    assert rules.SYSTEMS[0] == "douaratil"
    with pytest.raises(rules.Refused, match="inconnu"):
        rules.new_sheet("gurps")


def test_new_sheet_bad_fields_french_lines() -> None:
    with pytest.raises(rules.SheetError) as err:
        rules.new_sheet("douaratil", level=-3, current=50, base_maximum=10)
    assert "« niveau » : doit être supérieur ou égal à 1" in err.value.lines
    with pytest.raises(rules.SheetError) as err2:
        rules.new_sheet("douaratil", current=50, base_maximum=10)
    assert err2.value.reason == "Fiche invalide : « points d'action » : 50 dépassent le maximum 10"


def test_edit_validates_and_clamps() -> None:
    s = sheet(current=20)
    out = run(s, rules.Edit(changes={"base_maximum": 12}))
    assert out.sheet.base_maximum == 12 and out.sheet.current == 12
    with pytest.raises(rules.SheetError) as err:
        run(s, rules.Edit(changes={"level": "abc"}))
    assert err.value.reason == "Valeur refusée : « niveau » : doit être un nombre entier"
    with pytest.raises(rules.Refused):
        run(s, rules.Edit(changes={"system": "d20"}))


def test_json_round_trip_exact() -> None:
    s = run(sheet(), rules.AddWound(wound_type="plaie", bleeding=True)).sheet
    s = run(s, rules.SetCondition(condition="aveugle")).sheet
    assert rules.sheet_from_json(rules.sheet_to_json(s)) == s


def test_explicit_rolls_beat_the_generator_and_leftovers_are_said() -> None:
    out = rules.apply(sheet(current=0), rules.DeathSave(rolls=(12, 4)), rng=random.Random(0))
    assert out.rolls[0].given and out.rolls[0].total == 12
    assert "non utilisées : 4" in text(out)


def test_action_titles_are_french() -> None:
    assert rules.Damage(amount=7).title() == "Dégâts 7"
    assert rules.LongRest().title() == "Repos long"


def test_wound_rows_show_delay_and_bleeding() -> None:
    """« saignement (1d6/rd) » … « hémorragie (2d6/rd) » shown per round, with the delay before healing tests."""
    s = run(sheet(), rules.AddWound(wound_type="hemorragie", severity="major", bleeding=True)).sheet
    s = run(s, rules.AddWound(wound_type="contusion")).sheet
    d = rules.derive(s)
    rows = {r["type"]: r for r in d.wound_rows}
    assert rows["hemorragie"]["rests_left"] == 10 and rows["hemorragie"]["bleeding"] == "2d6 par round"
    assert rows["contusion"]["rests_left"] == 1 and rows["contusion"]["bleeding"] == ""
    assert "2d6 par round" in d.explain("bleeding")


# --- What mutation testing found untested (issue 19) -------------------------------------------------------


def test_the_healing_test_gets_the_exhaustion_malus() -> None:
    """« le test de guérison qui est un test de Constitution (et pas un jet de sauvegarde) » and « Le malus
    s'applique à tout lancer de dés c'est à dire test de caractéristique »: 17 − 2 misses DD 16."""
    s = run(sheet(current=10, exhaustion=2), rules.AddWound(wound_type="contusion")).sheet
    out = run(s, rules.LongRest(ate_and_drank=False, rolls=(17,)))
    assert len(out.sheet.wounds) == 1 and out.sheet.scars == ()
    assert (
        "Test de guérison, Contusion (mineure) : 3d6 = 17 (valeur donnée) +0 (CON) −2 (épuisement) = 15 contre DD 16"
        " → échec." in out.log
    )


def test_the_death_save_has_no_exhaustion_malus() -> None:
    """« À la différence des autres jets de sauvegarde, celui-ci n'est pas lié à une caractéristique. Vous êtes
    entre les mains du destin »: 10 on 3d6 succeeds even at exhaustion 3 (D9)."""
    dying = sheet(current=0, exhaustion=3, conditions=("inconscient",))
    assert run(dying, rules.DeathSave(rolls=(10,))).sheet.death_successes == 1
    table = rules.ruleset("douaratil").model_dump()
    table["saves"]["exhaustion_on_death_saves"] = True
    house = rules.DouaratilRules.model_validate(table)
    out = rules.apply(dying, rules.DeathSave(rolls=(10,)), rules_table=house)
    assert out.sheet.death_failures == 1
    assert out.log[0] == (
        "Jet contre la mort : 3d6 = 10 (valeur donnée) −3 (épuisement) = 7 → échec (0/3 succès, 1/3 échecs)."
    )


def test_one_action_die_is_one_die() -> None:
    """« Pour chaque dé d'action ainsi utilisé, le joueur lance un dé et ajoute à son résultat le modificateur
    de Constitution de son personnage. »"""
    s = run(sheet(level=2, current=3, constitution=12), rules.ShortRest()).sheet
    out = run(s, rules.SpendActionDie(rolls=(1,)))
    assert out.log == ("Dé d'action : 1d8 = 1 (valeur donnée) +1 (CON) = 2 → 3 → 5 PA ; 1 dé restant.",)
    assert (out.sheet.current, out.sheet.action_dice_spent) == (5, 1)


def test_temporary_points_may_be_replaced_by_none() -> None:
    """« vous devez décider si vous conservez ceux que vous possédez déjà ou si vous les remplacez par ceux que
    vous venez de gagner »: a grant of 0 that replaces ends them; a negative one makes no sense."""
    s = sheet(temporary=5)
    out = run(s, rules.GainTemporary(amount=0, replace=True))
    assert out.sheet.temporary == 0
    assert out.log == ("Points temporaires : 5 remplacés par 0 (jamais cumulés).",)
    with pytest.raises(rules.Refused, match="négatifs"):
        run(s, rules.GainTemporary(amount=-1, replace=True))


def test_two_wounds_do_not_add_their_steps() -> None:
    """« Une blessure mineure augmente le DD de tout test de caractéristique la difficulté d'un degré »: with a
    minor and a major wound, the major one sets the DD (D4), 28 and not 34."""
    s = run(sheet(), rules.AddWound(wound_type="contusion")).sheet
    s = run(s, rules.AddWound(wound_type="fracture", severity="major")).sheet
    d = rules.derive(s)
    assert (d.dd_steps, d.test_dd) == (2, 28)
    assert d.explain("dd_steps").startswith("paliers de difficulté +2 (blessure Fracture (majeure) ;")


def test_what_makes_a_hit_critical_is_shown() -> None:
    """« Le coup critique intervient quand des dommages sont causés alors que le personnage n'avait plus de
    points d'action (PA), si le seuil de critique (SC) est dépassé »"""
    assert rules.derive(sheet()).critical_on == ()
    assert rules.derive(sheet(critical_threshold=8)).critical_on == ("un coup de plus de 8 dégâts",)
    assert rules.derive(sheet(current=0)).critical_on == ("tout dégât reçu à 0 PA",)
    assert rules.derive(sheet(current=0, dead=True)).critical_on == ()


def test_the_time_before_the_stabilised_point_is_shown() -> None:
    """« Si elle n'est pas soignée, une personne stabilisée regagne 1 point d'action au bout de 1d6 heures. »"""
    s = run(sheet(current=0), rules.Stabilise(method="magic", rolls=(3,))).sheet
    assert rules.derive(s).explain("wake_in") == "regagne 1 PA dans 3 h"
    assert "wake_in" not in rules.derive(sheet())


# --- Every number of the table changes play (issue 19's table mutations) -----------------------------------


def test_the_dice_of_the_rules_are_the_seeds() -> None:
    """« inconscient (voir la section États spéciaux) pour 1d6 rounds », « regagne 1 point d'action au bout de
    1d6 heures », « il peut la laisser agir librement pendant 1d6 rounds »: a 7 is refused on each."""
    cases = [
        (sheet(current=30, base_maximum=30), rules.Damage(amount=11, rolls=(3, 7)), "Durée de l'inconscience"),
        (sheet(current=0), rules.Stabilise(method="magic", rolls=(7,)), "Délai avant de regagner 1 PA"),
        (sheet(dies_at_zero=True, dies_after_rounds=True), rules.Damage(amount=20, rolls=(7,)), "Sursis du monstre"),
    ]
    for start, action, what in cases:
        with pytest.raises(rules.Refused) as err:
            run(start, action)
        assert err.value.reason == f"{what} : 7 est impossible sur 1d6 (de 1 à 6)."


def test_time_units_are_the_clock_of_the_sheet() -> None:
    """« Un repos court est une période de repos d'au moins 1 heure »; a minute and a day as everyone counts them."""
    for unit, seconds in (("round", 6), ("minute", 60), ("hour", 3600), ("day", 86_400)):
        assert run(sheet(), rules.AdvanceTime(unit=unit, count=2)).sheet.clock == 2 * seconds


def test_a_new_sheet_gets_the_tables_action_die_and_speed() -> None:
    """« Le joueur peut décider de lancer ses dés d'action les uns après les autres »: a d8 unless the sheet says
    otherwise (D2), and 9 m of movement."""
    s = rules.new_sheet("douaratil")
    assert (s.action_die, s.speed_m) == (8, 9)
    table = rules.ruleset("douaratil").model_dump()
    table["general"].update(default_action_die=10, default_speed_m=12)
    house = rules.DouaratilRules.model_validate(table)
    played = rules.sheet_from_data({"system": "douaratil", "base_maximum": 7}, house)
    assert (played.action_die, played.speed_m, played.current) == (10, 12, 7)


def test_crushing_halves_movement() -> None:
    """« écrasement 3 jours Mouvement divisé par deux 12 »"""
    s = run(sheet(speed_m=9), rules.AddWound(wound_type="ecrasement")).sheet
    d = rules.derive(s)
    assert d.speed == 4
    assert d.explain("speed") == "déplacement 9 = 9 (base, en mètres), divisé par deux (Écrasement (mineure)) = 4"


def test_a_haemorrhage_reopens_on_a_failed_constitution_save_dd_16() -> None:
    """« hémorragie 10 jours Mouvements réduits au minimum ou risque d'ouverture de la plaie avec hémorragie
    (2d6/rd) (JS CON DD 16) »"""
    s = run(sheet(), rules.AddWound(wound_type="hemorragie")).sheet
    assert not run(s, rules.WoundRisk(wound_id=1, rolls=(16,))).sheet.wounds[0].bleeding
    opened = run(s, rules.WoundRisk(wound_id=1, rolls=(15,)))
    assert opened.sheet.wounds[0].bleeding and "bleeding" in opened.events


def test_pools_recover_with_the_exhaustion_malus_but_sanity() -> None:
    """« Le malus s'applique à tout lancer de dés … mais aussi la récupération des points de Magie, des points
    de Foi, des points d'action, des points d'honneur » and « Le personnage regagne aussi un point de santé
    mentale (SAM) par point de bonus de Sagesse (minimum 1) »: SAM is not in the list."""
    pools = {p: {"current": 0, "base_maximum": 30} for p in ("magic", "faith", "honour", "sanity")}
    s = sheet(level=3, current=5, exhaustion=2, intelligence=14, wisdom=16, charisma=16, **pools)
    rested = run(s, rules.LongRest(ate_and_drank=False))
    out = rested.sheet
    assert (out.magic.current, out.faith.current, out.honour.current) == (3 + 2 - 2, 3 + 3 - 2, 3 + 3 - 2)
    assert out.sanity.current == 3
    assert "Points de magie (PM) : +3 (1 × niveau 3 +2 (Intelligence) −2 (épuisement)) → 0 → 3." in rested.log
    assert "Santé mentale (SAM) : +3 (+3 (Sagesse)) → 0 → 3." in rested.log


def test_a_paralysed_creature_is_critically_hit_from_close_by() -> None:
    """Paralysé: « Toute attaque qui touche la créature est obligatoirement un coup critique si l'assaillant se
    trouve dans un rayon de 1,50 mètre autour d'elle. »"""
    s = run(sheet(), rules.SetCondition(condition="paralyse")).sheet
    assert "critical" in run(s, rules.Damage(amount=2, adjacent=True)).events
    assert "critical" not in run(s, rules.Damage(amount=2)).events


def test_a_surprised_creature_cannot_act() -> None:
    """« Une créature surprise ne peut entreprendre ni action ni réaction. »"""
    d = rules.derive(run(sheet(), rules.SetCondition(condition="surpris")).sheet)
    assert d.incapacitated and d.explain("incapacitated") == "ni action ni réaction (Surpris)"
    assert d.speed == 0
