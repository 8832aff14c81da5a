"""Segments (seed 002, chapitre 7): one test per rule, each quoting the passage it checks."""

from __future__ import annotations

import random
import tomllib
from pathlib import Path

import pytest

import rules
from tests.rules.helpers import write_table

SEGMENT = 1
TURN = 10
HOUR = 3600


def sheet(**fields: object) -> rules.SegmentsSheet:
    base: dict[str, object] = {"name": "Brune", "base_maximum": 20, "current": 20, "constitution": 12}
    base.update(fields)
    return rules.new_sheet("segments", **base)


def run(s: object, action: rules.Action, seed: int | None = None) -> rules.Outcome:
    return rules.apply(s, action, rng=random.Random(seed) if seed is not None else None)


def text(outcome: rules.Outcome) -> str:
    return "\n".join(outcome.log)


def state(s: rules.SegmentsSheet) -> str:
    return rules.derive(s).state


# --- 7.2 Tomber, et mourir: the state table ---------------------------------------------------------


@pytest.mark.parametrize(
    ("current", "nonlethal", "expected"),
    [
        (20, 0, "en_forme"),
        (11, 0, "en_forme"),
        (10, 0, "blesse"),
        (1, 0, "blesse"),
        (0, 0, "chancelant"),
        (5, 6, "inconscient"),
        (0, 1, "inconscient"),
        (5, 5, "blesse"),
        (-1, 0, "mourant"),
        (-11, 0, "mourant"),
        (-12, 0, "mort"),
    ],
)
def test_states_by_points(current: int, nonlethal: int, expected: str) -> None:
    """« | En forme | plus de la moitié de ses points de vie | / | Blessé | la moitié ou moins | /
    | Chancelant | exactement 0 | / | Inconscient | dégâts non létaux supérieurs aux points de vie | /
    | Mourant | points de vie négatifs | »"""
    s = sheet(current=current, nonlethal=nonlethal)
    d = rules.derive(s)
    assert d.state == expected
    assert expected in {h.id for h in rules.describe("segments").health_states}


def test_half_of_an_odd_maximum() -> None:
    """« | Blessé | la moitié ou moins | » : 10 of 21 is less than half, 11 of 21 is more."""
    assert state(sheet(base_maximum=21, current=11)) == "en_forme"
    assert state(sheet(base_maximum=21, current=10)) == "blesse"


@pytest.mark.parametrize(("con", "alive_at", "dead_at"), [(12, -11, -12), (18, -17, -18)])
def test_death_at_the_negative_of_constitution(con: int, alive_at: int, dead_at: int) -> None:
    """« un personnage à 12 de Constitution meurt à −12, un colosse à 18 tient jusqu'à −18. »"""
    s = sheet(constitution=con, current=0)
    alive = run(s, rules.Damage(amount=-alive_at)).sheet
    assert not alive.dead and state(alive) == "mourant"
    out = run(s, rules.Damage(amount=-dead_at))
    assert out.sheet.dead and state(out.sheet) == "mort"
    assert "died" in out.events
    assert rules.derive(s).death_threshold == dead_at
    assert f"−{con}" in rules.derive(s).explain("death_threshold")


def test_death_is_automatic_even_when_constitution_drops() -> None:
    """« La mort est automatique : ce n'est pas une décision du meneur. »"""
    dying = sheet(constitution=14, current=-12)
    assert state(dying) == "mourant"
    out = run(dying, rules.Edit(changes={"constitution": 12}))
    assert out.sheet.dead
    assert "meurt" in text(out)
    # A GM who unticks « mort » without changing the PV does not bring the character back.
    again = run(out.sheet, rules.Edit(changes={"dead": False}))
    assert again.sheet.dead


def test_below_zero_is_out_of_action() -> None:
    """« Un personnage à moins de zéro point de vie est hors combat. »"""
    s = sheet(current=-2, conditions=("a_terre",))
    with pytest.raises(rules.Refused, match="relever"):
        run(s, rules.StandUp())
    out = run(sheet(current=3), rules.Damage(amount=4))
    assert "Hors combat" in text(out)
    assert "dying" in out.events


# --- 7.1 Nonlethal damage ------------------------------------------------------------------------------


def test_nonlethal_is_counted_apart() -> None:
    """« Les dégâts non létaux sont comptés à part. »"""
    out = run(sheet(), rules.Damage(amount=8, nonlethal=True))
    assert out.sheet.current == 20
    assert out.sheet.nonlethal == 8
    assert rules.derive(out.sheet).nonlethal == 8


def test_nonlethal_beyond_points_knocks_out_and_the_excess_is_lethal() -> None:
    """« S'ils dépassent les points de vie actuels, le personnage tombe inconscient et l'excédent devient
    létal. »"""
    s = sheet(current=10, nonlethal=4)
    out = run(s, rules.Damage(amount=9, nonlethal=True))
    # 4 + 9 = 13 against 10 PV: 3 beyond the PV become lethal.
    assert out.sheet.current == 7
    assert out.sheet.nonlethal == 10
    assert state(out.sheet) == "inconscient"
    assert "unconscious" in out.events
    assert "l'excédent de 3 devient létal" in text(out)


def test_nonlethal_on_a_character_at_zero_is_all_lethal() -> None:
    """« S'ils dépassent les points de vie actuels … l'excédent devient létal » : at 0 PV, all of it."""
    out = run(sheet(current=0), rules.Damage(amount=3, nonlethal=True))
    assert out.sheet.current == -3
    assert state(out.sheet) == "mourant"


def test_nonlethal_fades_with_time() -> None:
    """« Les dégâts non létaux sont comptés à part » : they go away on their own (S4, 1 per level per hour)."""
    s = sheet(current=6, nonlethal=9, level=2)
    assert state(s) == "inconscient"
    out = run(s, rules.AdvanceTime(unit="hour", count=2))
    assert out.sheet.nonlethal == 5
    assert state(out.sheet) == "blesse"


# --- Dying and stabilising ----------------------------------------------------------------------------


def test_dying_loses_one_point_per_segment() -> None:
    """« Il perd 1 point de vie par segment »"""
    s = sheet(current=-1, initiative_segment=10)
    out = run(s, rules.AdvanceTime(unit="segment", count=3))
    assert out.sheet.current == -4
    assert out.sheet.clock == 3 * SEGMENT


def test_window_is_one_or_two_turns() -> None:
    """« à un point de vie par segment, elle se compte en un ou deux tours » (CON 10 to 18, S1): fallen to −1,
    CON 10 dies 9 segments later (within the first turn), CON 18 17 segments later (within the second)."""
    seg_per_turn = rules.describe("segments").extra["segments_per_turn"]
    assert seg_per_turn == 10
    left = {con: rules.derive(sheet(constitution=con, current=-1)).segments_to_death for con in (10, 18)}
    assert left == {10: 9, 18: 17}
    assert {con: -(-n // seg_per_turn) for con, n in left.items()} == {10: 1, 18: 2}


def test_self_stabilise_vigueur_dd_20() -> None:
    """« Il peut tenter un jet de Vigueur difficulté 20, une fois par tour, pour se stabiliser seul. »"""
    s = sheet(current=-3, fortitude_save=2)
    failed = run(s, rules.Stabilise(method="self", rolls=(17,)))
    assert not failed.sheet.stabilised
    assert "19 contre difficulté 20" in text(failed)
    ok = run(s, rules.Stabilise(method="self", rolls=(18,)))
    assert ok.sheet.stabilised
    assert state(ok.sheet) == "stabilise"
    # Stabilised: no more loss.
    later = run(ok.sheet, rules.AdvanceTime(unit="turn", count=3))
    assert later.sheet.current == -3


def test_self_stabilise_once_per_turn() -> None:
    """« Il peut tenter un jet de Vigueur difficulté 20, une fois par tour »"""
    s = sheet(current=-3, constitution=18)
    failed = run(s, rules.Stabilise(method="self", rolls=(2,))).sheet
    with pytest.raises(rules.Refused, match="Une seule tentative"):
        run(failed, rules.Stabilise(method="self", rolls=(20,)))
    assert rules.derive(failed).self_stabilise_available is False
    # The next turn, another try.
    next_turn = rules.evolve(failed, clock=failed.clock + TURN)
    assert run(next_turn, rules.Stabilise(method="self", rolls=(20,))).sheet.stabilised


def test_time_rolls_the_vigueur_at_the_turn_start() -> None:
    """« une fois par tour » : passing time, the dying character tries at the segment where its turn starts."""
    s = sheet(current=-1, constitution=18, initiative_segment=4)
    # Its window opens at segment 4 of each turn (clock 3 and 13): two failed tries, one per turn.
    out = run(s, rules.AdvanceTime(unit="turn", count=2, rolls=(5, 6)))
    attempts = [line for line in out.log if line.startswith("Vigueur pour se stabiliser")]
    assert len(attempts) == 2
    assert [r.total for r in out.rolls] == [5, 6]
    # Both failed: it keeps losing 1 PV per segment and dies at −18, 17 segments after the fall (clock 17).
    assert (out.sheet.current, out.sheet.dead, out.sheet.self_stabilise_turn) == (-18, True, 1)
    ok = run(s, rules.AdvanceTime(unit="segment", count=5, rolls=(20,)))
    assert ok.sheet.stabilised
    assert ok.sheet.current == -4  # lost 3 PV before segment 4, none after


def test_ally_stabilises_without_roll() -> None:
    """« Un allié peut le stabiliser avec une action d'interaction, sans jet »"""
    out = run(sheet(current=-5), rules.Stabilise(method="ally"))
    assert out.sheet.stabilised
    assert out.rolls == ()
    assert "stabilised" in out.events


def test_medicine_does_not_stabilise() -> None:
    """« aucune compétence n'intervient : la Médecine soigne ce qui vient après, elle ne stabilise pas. »"""
    with pytest.raises(rules.Refused, match="Médecine"):
        run(sheet(current=-5), rules.Stabilise(method="first_aid", modifier=10))


def test_new_damage_reopens_a_stabilised_window() -> None:
    """« Le seul secours fiable est un allié » — and a new wound undoes it (S6)."""
    s = sheet(current=-5, stabilised=True)
    out = run(s, rules.Damage(amount=2))
    assert not out.sheet.stabilised
    assert state(out.sheet) == "mourant"


def test_healing_above_zero_ends_dying() -> None:
    """« Il perd 1 point de vie par segment » only below zero: healed to 0 or more, he no longer loses any."""
    out = run(sheet(current=-4, stabilised=True), rules.Heal(amount=6))
    assert out.sheet.current == 2 and not out.sheet.stabilised
    assert state(out.sheet) == "blesse"
    with pytest.raises(rules.Refused, match="n'est plus en vie"):
        run(sheet(current=-12, dead=True), rules.Heal(amount=5))


# --- 7.3 States with numbers --------------------------------------------------------------------------


def test_lenteur_and_rapidite() -> None:
    """« | Classe d'armure | −1 | +1 | / | Sauvegarde de Réflexes | −1 | +1 | / | Jets d'attaque | −1 | +1 | /
    | Vitesse | −1 case (1,5 m) | +1 case (1,5 m) | / | Début du tour | 1 segment plus tard | 1 segment plus tôt | »"""
    base = sheet(armour_class=14, reflex_save=3, attack_bonus=5, speed_squares=6, initiative_segment=4)
    slow = rules.derive(rules.evolve(base, conditions=("lenteur",)))
    fast = rules.derive(rules.evolve(base, conditions=("rapidite",)))
    assert (slow.armour_class, slow.reflex_save, slow.attack_bonus, slow.speed, slow.turn_start) == (13, 2, 4, 5, 5)
    assert (fast.armour_class, fast.reflex_save, fast.attack_bonus, fast.speed, fast.turn_start) == (15, 4, 6, 7, 3)
    assert (slow.ac_modifier, slow.attack_modifier, slow.reflex_modifier) == (-1, -1, -1)
    assert slow.speed_m == 7.5
    assert "Lenteur" in slow.explain("armour_class") and "14" in slow.explain("armour_class")
    assert "Rapidité" in fast.explain("turn_start")
    # « commencer un segment plus tard, c'est un segment de moins pour le tour entier »
    assert slow.window_segments == rules.derive(base).window_segments - 1


def test_rapidite_state_is_not_the_characteristic() -> None:
    """« L'état « Rapidité » ne se confond pas avec la caractéristique du même nom »"""
    info = rules.describe("segments")
    rapidite = next(c for c in info.conditions if c.id == "rapidite")
    assert any("caractéristique" in e for e in rapidite.effects)
    assert "Rapidité" not in {f.label for f in info.fields}


def test_turn_start_cannot_go_before_the_first_segment() -> None:
    """« 1 segment plus tôt » : from segment 1, there is no earlier segment (the window stays whole)."""
    d = rules.derive(sheet(initiative_segment=1, conditions=("rapidite",)))
    assert d.turn_start == 1
    assert "segment 1" in d.explain("turn_start")


def test_a_terre() -> None:
    """« | À terre | −4 en attaque et −4 à la classe d'armure ; se relever coûte 1 segment | »"""
    s = sheet(armour_class=15, attack_bonus=3, conditions=("a_terre",))
    d = rules.derive(s)
    assert (d.armour_class, d.attack_bonus) == (11, -1)
    up = run(s, rules.StandUp())
    assert "a_terre" not in up.sheet.conditions
    assert "1 segment" in text(up)


def test_etourdi() -> None:
    """« | Étourdi | perd le reste de sa fenêtre, −2 à la classe d'armure | »"""
    d = rules.derive(sheet(armour_class=15, conditions=("etourdi",)))
    assert d.armour_class == 13
    assert "loses_window" in d.restrictions
    assert "perd le reste de sa fenêtre" in d.explain("restrictions")


def test_effraye_affects_all_rolls() -> None:
    """« | Effrayé | −2 à tous les jets, ne peut pas s'approcher volontairement de la source | »"""
    s = sheet(attack_bonus=5, reflex_save=4, fortitude_save=3, conditions=("effraye",))
    d = rules.derive(s)
    assert d.roll_penalty == -2
    assert (d.attack_bonus, d.reflex_save, d.fortitude_save) == (3, 2, 1)
    assert d.armour_class == s.armour_class  # not a roll
    assert "cannot_approach_source" in d.restrictions
    # The rules' own rolls get it too: 18 + 0 − 2 = 16 against 20.
    out = run(rules.evolve(s, current=-2, fortitude_save=0), rules.Stabilise(method="self", rolls=(18,)))
    assert "16 contre difficulté 20" in text(out)


def test_immobilise_enchevetre_agrippe() -> None:
    """« | Immobilisé | aucun déplacement, attaques conservées | / | Enchevêtré | déplacement au double du coût,
    −2 en attaque | / | Agrippé | contact imposé, ni déplacement ni arme à distance pour les deux | »"""
    base = sheet(speed_squares=6, attack_bonus=4)
    held = rules.derive(rules.evolve(base, conditions=("immobilise",)))
    assert held.speed == 0 and held.attack_bonus == 4
    tangled = rules.derive(rules.evolve(base, conditions=("enchevetre",)))
    assert tangled.speed == 3 and tangled.movement_cost == 2 and tangled.attack_bonus == 2
    grabbed = rules.derive(rules.evolve(base, conditions=("agrippe",)))
    assert grabbed.speed == 0
    assert {"no_movement", "no_ranged_weapons"} <= set(grabbed.restrictions)


def test_confus() -> None:
    """« | Confus | n'agit plus volontairement : le meneur décide de ce que fait le personnage à chacun de ses
    tours | »"""
    d = rules.derive(sheet(conditions=("confus",)))
    assert "gm_controls" in d.restrictions
    assert "meneur" in d.explain("restrictions")


def test_surpris() -> None:
    """« | Surpris | démarre plus loin dans sa fenêtre, du nombre de segments de surprise accordés aux agresseurs
    (chapitre 6.13) | »"""
    s = sheet(initiative_segment=2)
    out = run(s, rules.SetSurprise(segments=3))
    d = rules.derive(out.sheet)
    assert d.turn_start == 5
    assert "surprise" in d.explain("turn_start")
    # The surprise lasts for the turn (S16).
    later = run(out.sheet, rules.AdvanceTime(unit="turn"))
    assert "surpris" not in later.sheet.conditions
    assert rules.derive(later.sheet).turn_start == 2
    default = run(s, rules.SetCondition(condition="surpris")).sheet
    assert rules.derive(default).turn_start == 3


# --- Fatigue -------------------------------------------------------------------------------------------


def test_fatigue_ladder_is_cumulative() -> None:
    """« La fatigue se cumule : un personnage déjà fatigué qui se fatigue encore devient épuisé » ;
    « | Fatigué | −1 à tous les jets | » ; « | Épuisé | le second degré de la fatigue : −2 à tous les jets | » ;
    « | Vacillant | le troisième degré : −3 à tous les jets, et le tour commence un segment plus tard | »"""
    s = sheet(initiative_segment=2)
    seen = []
    for _ in range(3):
        s = run(s, rules.AddFatigue()).sheet
        d = rules.derive(s)
        seen.append((d.roll_penalty, d.turn_start, d.conditions))
    assert seen == [(-1, 2, ("fatigue",)), (-2, 2, ("epuise",)), (-3, 3, ("vacillant",))]
    # Beyond the third degree it stays (S14).
    out = run(s, rules.AddFatigue())
    assert out.sheet.fatigue == 3 and "ne dépasse pas" in text(out)
    ladder = rules.describe("segments").ladders[0]
    assert ladder.action is rules.SetFatigue and [lv.label for lv in ladder.levels][1:] == [
        "Fatigué",
        "Épuisé",
        "Vacillant",
    ]


def test_only_rest_removes_fatigue() -> None:
    """« et seul le repos la dissipe »"""
    s = sheet(fatigue=2)
    with pytest.raises(rules.Refused, match="repos"):
        run(s, rules.SetCondition(condition="epuise", active=False))
    assert run(s, rules.ClearConditions()).sheet.fatigue == 2
    assert run(s, rules.AdvanceTime(unit="day", count=2)).sheet.fatigue == 2
    rested = run(s, rules.LongRest())
    assert rested.sheet.fatigue == 1
    hungry = run(s, rules.LongRest(ate_and_drank=False))
    assert hungry.sheet.fatigue == 2


def test_setting_a_fatigue_state_sets_the_ladder() -> None:
    """« un personnage déjà fatigué qui se fatigue encore devient épuisé » : ticking Épuisé is degree 2."""
    out = run(sheet(), rules.SetCondition(condition="epuise"))
    assert out.sheet.fatigue == 2 and out.sheet.conditions == ()
    assert rules.derive(out.sheet).condition_reasons == {"epuise": "découle du degré de fatigue 2"}


# --- Senses --------------------------------------------------------------------------------------------


def test_aveugle() -> None:
    """« | Aveuglé | Vue | −4 en attaque, déplacement à demi-vitesse, et on ne peut pas viser | »"""
    d = rules.derive(sheet(attack_bonus=5, speed_squares=7, conditions=("aveugle",)))
    assert d.attack_bonus == 1 and d.speed == 3
    assert "cannot_aim" in d.restrictions
    assert d.lost_senses == ("vue",)


def test_assourdi() -> None:
    """« | Assourdi | Ouïe | plus aucune action immédiate : on ne réagit pas à ce qu'on n'a pas entendu venir.
    Les sorts à composante verbale sont impossibles | »"""
    d = rules.derive(sheet(conditions=("assourdi",)))
    assert {"no_immediate_actions", "no_verbal_spells"} <= set(d.restrictions)
    assert d.lost_senses == ("ouie",)


def test_engourdi_hides_points_from_the_player() -> None:
    """« | Engourdi | Toucher | … et on ignore son propre total de points de vie, que le meneur garde pour lui | »"""
    s = sheet(current=14, conditions=("engourdi",))
    d = rules.derive(s)
    assert {"current", "maximum", "temporary", "nonlethal", "state"} <= d.hidden
    assert d.current == 14  # the GM still has it
    assert "meneur" in d.explain("current") and d.points_hidden
    out = run(s, rules.Damage(amount=3, rolls=(19,)))
    player = "\n".join(line for line in out.log if not line.startswith(rules.SECRET_MARK))
    gm = "\n".join(line for line in out.log if line.startswith(rules.SECRET_MARK))
    assert "14" not in player and "11" not in player and "caché" in player
    assert "PV 14 → 11" in gm
    assert out.sheet.current == 11
    assert rules.derive(sheet()).hidden == frozenset()


def test_engourdi_drops_the_weapon_unless_vigueur_15() -> None:
    """« tout coup encaissé fait lâcher son arme sauf réussite d'une Vigueur difficulté 15 »"""
    s = sheet(fortitude_save=2, conditions=("engourdi",))
    kept = run(s, rules.Damage(amount=1, rolls=(13,)))
    assert "weapon_dropped" not in kept.events and "15 contre difficulté 15" in text(kept)
    dropped = run(s, rules.Damage(amount=1, rolls=(12,)))
    assert "weapon_dropped" in dropped.events
    # Every blow taken asks for the roll, even one the armour stops entirely.
    armoured = run(rules.evolve(s, armour="lourde"), rules.Damage(amount=2, hits=2, rolls=(20, 20)))
    assert text(armoured).count("Vigueur pour garder son arme") == 2


def test_emousse() -> None:
    """« | Émoussé | Goût-Odorat | poisons, gaz, fumée et pourriture ne sont jamais détectés : on les subit sans
    jet préalable, et aucune piste ne peut être suivie | »"""
    d = rules.derive(sheet(conditions=("emousse",)))
    assert d.lost_senses == ("gout_odorat",)
    assert "no_tracking" in d.restrictions


def test_rolls_on_a_lost_sense_fail_and_illusions_through_it_do_not_work() -> None:
    """« Dans tous les cas, les jets qui reposent sur le sens perdu échouent d'office. » ;
    « Une privation sensorielle immunise contre les illusions qui passent par ce canal »"""
    d = rules.derive(sheet(conditions=("aveugle", "assourdi")))
    assert "échec d'office" in d.explain("lost_senses")
    assert "échec d'office" in d.explain("sight_modifier")
    assert set(d.illusion_immunity) == {"vue", "ouie"}
    assert "illusions visuelles" in d.explain("illusion_immunity")


# --- 7.4 Reduction and resistances --------------------------------------------------------------------


def test_reduction_per_hit_bypassed_only_by_its_type() -> None:
    """« Elle s'écrit X/type : on retire X points à chaque coup encaissé, sauf si l'attaque est du type indiqué.
    Une réduction 5/argent ne protège pas contre une lame d'argent ; une réduction 2/− ne se contourne par rien
    du tout. »"""
    were = sheet(damage_reductions=("5/argent",))
    assert run(were, rules.Damage(amount=8, damage_type="tranchant")).sheet.current == 17
    assert run(were, rules.Damage(amount=8, damage_type="tranchant, argent")).sheet.current == 12
    stone = sheet(damage_reductions=("2/-",))
    assert stone.damage_reductions == ("2/−",)
    for kind in (None, "argent", "magie", "tranchant"):
        assert run(stone, rules.Damage(amount=8, damage_type=kind)).sheet.current == 14


def test_reduction_never_on_the_turn_total() -> None:
    """« La réduction s'applique coup par coup, jamais au total du tour : cent petites blessures ne franchissent
    pas une peau que rien n'entame. »"""
    skin = sheet(damage_reductions=("5/−",))
    out = run(skin, rules.Damage(amount=4, hits=100))
    assert out.sheet.current == 20


@pytest.mark.parametrize(
    ("fields", "per_hit"),
    [
        ({"armour": "legere"}, 1),
        ({"armour": "intermediaire"}, 2),
        ({"armour": "lourde"}, 3),
        ({"shield": True}, 1),
        ({"natural_armour": 2}, 0),
        ({"natural_armour": 3}, 1),
        ({"natural_armour": 7}, 2),
        ({"armour": "lourde", "shield": True}, 4),
        ({"armour": "intermediaire", "natural_armour": 6, "damage_reductions": ("1/magie",)}, 5),
    ],
)
def test_armour_table_and_stacking(fields: dict[str, object], per_hit: int) -> None:
    """« | Armure légère | 1/− | … | Armure intermédiaire | 2/− | … | Armure lourde | 3/− | … | Bouclier | 1/− | …
    | Armure naturelle | 1/− par tranche de 3 points d'armure naturelle | » ; « Ces réductions se cumulent entre
    elles : un guerrier en armure lourde derrière son bouclier retire 4 points à chaque coup reçu. »"""
    out = run(sheet(**fields), rules.Damage(amount=10))
    assert out.sheet.current == 20 - (10 - per_hit)


def test_heavy_armour_against_four_hits_removes_twelve() -> None:
    """« Une armure lourde ne retire donc pas 3 points à un adversaire rapide, elle lui en retire douze. »"""
    s = sheet(base_maximum=40, current=40, armour="lourde")
    out = run(s, rules.Damage(amount=5, hits=4))
    assert out.sheet.current == 40 - 4 * 5 + 12
    assert text(out).count("− 3 (réduction 3/− armure lourde)") == 4


def test_energy_resistance_never_bypassed() -> None:
    """« Résistance à l'énergie. Même principe, mais réservé à une énergie précise (feu, froid, foudre) et sans
    contournement possible. »"""
    s = sheet(energy_resistances=("feu 10",), damage_reductions=("2/feu",))
    assert run(s, rules.Damage(amount=14, damage_type="feu")).sheet.current == 16
    assert run(s, rules.Damage(amount=14, damage_type="feu, argent, magie")).sheet.current == 16
    # Cold is not fire: its resistance does nothing, and the 2/feu reduction stops it (S8).
    assert run(s, rules.Damage(amount=14, damage_type="froid")).sheet.current == 8
    # Per hit, too.
    assert run(s, rules.Damage(amount=12, hits=3, damage_type="feu")).sheet.current == 14


def test_magic_resistance() -> None:
    """« Pour qu'un sort l'atteigne, le lanceur doit percer cette résistance. Atteindre le score suffit. En cas
    d'échec, le sort échoue entièrement : pas de jet de sauvegarde, pas de demi-dégâts, rien. »"""
    s = sheet(magic_resistance=18)
    failed = run(s, rules.Damage(amount=12, spell_check=17, save_halves=True))
    assert failed.sheet == s
    assert "spell_resisted" in failed.events and "échoue entièrement" in text(failed)
    reached = run(s, rules.Damage(amount=12, spell_check=18, save_halves=True))
    assert reached.sheet.current == 14


def test_save_halves() -> None:
    """« un jet de sauvegarde les réduit de moitié lorsqu'il est prévu. »"""
    assert run(sheet(), rules.Damage(amount=9, save_halves=True)).sheet.current == 16


def test_bad_reductions_and_resistances_are_french_errors() -> None:
    """« Elle s'écrit X/type » : anything else is refused with a clear message, and nothing changes."""
    with pytest.raises(rules.SheetError) as err:
        sheet(damage_reductions=("5argent",))
    assert any("Réductions de dégâts" in line and "X/type" in line for line in err.value.lines)
    s = sheet()
    with pytest.raises(rules.SheetError, match="énergie"):
        run(s, rules.Edit(changes={"energy_resistances": "10 feu"}))
    out = run(s, rules.Edit(changes={"damage_reductions": "5/Argent ; 2/—", "energy_resistances": "feu : 10"}))
    assert out.sheet.damage_reductions == ("5/argent", "2/−")
    assert out.sheet.energy_resistances == ("feu 10",)


# --- 7.5 Harm from the world ----------------------------------------------------------------------------


def test_fall() -> None:
    """« | Chute | 1d6 par tranche de 3 m, jusqu'à 20d6. Un jet d'Agilité réussi retire les dégâts des trois
    premiers mètres | »"""
    s = sheet(base_maximum=200, current=200, constitution=30)
    out = run(s, rules.Fall(metres=10), seed=1)
    assert out.rolls[0].expression == "3d6"
    assert out.sheet.current == 200 - out.rolls[0].total
    assert "a_terre" in out.sheet.conditions  # S12
    assert run(s, rules.Fall(metres=10, agility_success=True), seed=1).rolls[0].expression == "2d6"
    assert run(s, rules.Fall(metres=300), seed=1).rolls[0].expression == "20d6"
    rolled = run(rules.evolve(s, agility=2), rules.Fall(metres=9, agility_dd=12, rolls=(10, 7)))
    assert "= 12 contre difficulté 12 → réussite" in text(rolled)
    assert rolled.rolls[1].expression == "2d6"
    missed = run(rules.evolve(s, agility=1), rules.Fall(metres=9, agility_dd=12, rolls=(10, 7)))
    assert missed.rolls[1].expression == "3d6"
    assert run(s, rules.Fall(metres=2.5)).sheet.current == 200


def test_world_harm_ignores_armour_class_not_reductions() -> None:
    """« Ces dégâts ignorent la classe d'armure : il n'y a rien à esquiver. Ils sont en revanche soumis aux
    réductions et aux résistances quand elles s'appliquent »"""
    plain = run(sheet(), rules.Fall(metres=6, rolls=(8,))).sheet
    dodgy = run(sheet(armour_class=30, conditions=("rapidite",)), rules.Fall(metres=6, rolls=(8,))).sheet
    armoured = run(sheet(armour="lourde"), rules.Fall(metres=6, rolls=(8,))).sheet
    assert plain.current == dodgy.current == 12
    assert armoured.current == 15


def test_drowning() -> None:
    """« | Noyade, asphyxie | on tient un nombre de tours égal à sa Constitution, puis on tombe à 0 point de vie,
    puis on meurt au tour suivant | »"""
    s = run(sheet(constitution=12), rules.SetSuffocating()).sheet
    held = run(s, rules.AdvanceTime(unit="turn", count=11)).sheet
    assert held.current == 20
    at_zero = run(held, rules.AdvanceTime(unit="turn")).sheet
    assert at_zero.current == 0 and not at_zero.dead
    dead = run(at_zero, rules.AdvanceTime(unit="turn"))
    assert dead.sheet.dead and "died" in dead.events
    # Breathing again in time saves him.
    saved = run(run(at_zero, rules.SetSuffocating(active=False)).sheet, rules.AdvanceTime(unit="turn", count=5))
    assert not saved.sheet.dead


def test_fire() -> None:
    """« | Feu | 1d6 par tour tant qu'on brûle ; éteindre les flammes est une manœuvre, ou une action gratuite
    en se jetant à terre puis en roulant, avec un jet de Réflexes | »"""
    s = run(sheet(), rules.SetBurning()).sheet
    out = run(s, rules.AdvanceTime(unit="turn", count=3, rolls=(2, 3, 4)))
    assert out.sheet.current == 11
    assert run(s, rules.AdvanceTime(unit="segment", count=9)).sheet.current == 20
    out_m = run(s, rules.Extinguish(method="maneuver"))
    assert not out_m.sheet.burning
    rolled = run(s, rules.Extinguish(method="roll", rolls=(15,)))
    assert not rolled.sheet.burning and "a_terre" in rolled.sheet.conditions
    missed = run(s, rules.Extinguish(method="roll", rolls=(3,)))
    assert missed.sheet.burning and "a_terre" in missed.sheet.conditions
    # Fire resistance applies to the flames.
    resistant = run(sheet(energy_resistances=("feu 5",)), rules.SetBurning()).sheet
    assert run(resistant, rules.AdvanceTime(unit="turn", count=2, rolls=(6, 4))).sheet.current == 19


def test_cold_and_heat() -> None:
    """« | Froid, chaleur extrême | 1d6 par heure d'exposition sans protection, et un degré de fatigue par tranche
    de quatre heures | »"""
    s = run(sheet(base_maximum=60, current=60, constitution=20), rules.SetExposure(exposure="froid")).sheet
    out = run(s, rules.AdvanceTime(unit="hour", count=8, rolls=(1, 2, 3, 4, 5, 6, 1, 2)))
    assert out.sheet.current == 60 - 24
    assert out.sheet.fatigue == 2
    # The cold resistance applies, and a save (when the GM provides one) halves.
    cold_proof = run(rules.evolve(s, energy_resistances=("froid 3",)), rules.AdvanceTime(unit="hour", rolls=(5,)))
    assert cold_proof.sheet.current == 58
    saved = run(
        run(sheet(), rules.SetExposure(exposure="chaleur", save_dd=10)).sheet,
        rules.AdvanceTime(unit="hour", rolls=(15, 5)),
    )
    assert saved.sheet.current == 18
    sheltered = run(s, rules.SetExposure(exposure="")).sheet
    assert run(sheltered, rules.AdvanceTime(unit="hour", count=8)).sheet.current == 60


@pytest.mark.parametrize(("need", "hours"), [("food", 24), ("water", 12), ("sleep", 24)])
def test_hunger_thirst_sleep(need: str, hours: int) -> None:
    """« | Faim, soif, veille | un degré de fatigue par jour sans manger, par demi-journée sans boire, par nuit
    sans dormir | »"""
    s = run(sheet(), rules.SetPrivation(need=need)).sheet  # type: ignore[arg-type]
    assert run(s, rules.AdvanceTime(unit="hour", count=hours - 1)).sheet.fatigue == 0
    assert run(s, rules.AdvanceTime(unit="hour", count=hours)).sheet.fatigue == 1
    assert run(s, rules.AdvanceTime(unit="hour", count=2 * hours)).sheet.fatigue == 2


# --- 7.6 Light ---------------------------------------------------------------------------------------------


def test_light_levels() -> None:
    """« | Lumière vive | aucun malus | / | Lumière faible | −5 aux jets de Vue uniquement | / | Obscurité |
    équivaut à l'état Aveuglé : la Vue ne rapporte plus rien | »"""
    bright = rules.derive(sheet(attack_bonus=4))
    dim = rules.derive(sheet(attack_bonus=4, light="faible"))
    dark = rules.derive(sheet(attack_bonus=4, light="obscurite"))
    assert bright.sight_modifier == 0
    assert dim.sight_modifier == -5 and dim.attack_bonus == 4 and dim.roll_penalty == 0
    assert "aveugle" in dark.conditions and dark.attack_bonus == 0
    assert dark.condition_reasons["aveugle"].startswith("découle de l'éclairage")
    with pytest.raises(rules.Refused, match="cause"):
        run(sheet(light="obscurite"), rules.SetCondition(condition="aveugle", active=False))


def test_darkvision() -> None:
    """« Certaines races voient dans le noir sur une distance donnée : dans cette portée, l'obscurité les traite
    comme une lumière faible. »"""
    d = rules.derive(sheet(light="obscurite", darkvision_m=18))
    assert "aveugle" not in d.conditions
    assert d.light == "faible" and d.sight_modifier == -5
    assert "18 m" in d.explain("light")


# --- Time ---------------------------------------------------------------------------------------------------


def test_time_units_and_segments_per_turn() -> None:
    """« La monnaie tactique des états, c'est le segment. » — segments, turns, hours and days pass on the clock;
    the number of segments per turn is data (S1)."""
    s = sheet()
    units = {u.id for u in rules.describe("segments").time_units}
    assert {"segment", "turn", "hour", "day"} <= units
    for unit, seconds in (("segment", SEGMENT), ("turn", TURN), ("hour", HOUR), ("day", 24 * HOUR)):
        assert run(s, rules.AdvanceTime(unit=unit, count=2)).sheet.clock == 2 * seconds
    with pytest.raises(rules.Refused, match="Unité"):
        run(s, rules.AdvanceTime(unit="round"))
    house = Path(__file__).parents[2] / "resources" / "rulesets" / "segments.toml"
    table = rules.ruleset("segments")
    assert table.segments_per_turn == 10
    assert "turn = 10" in house.read_text(encoding="utf-8")


def test_house_rule_table_changes_the_turn(tmp_path: Path) -> None:
    """The segments per turn come from the table: a GM's copy with 12-segment turns changes dying times."""
    shipped = Path(__file__).parents[2] / "resources" / "rulesets" / "segments.toml"
    data = tomllib.loads(shipped.read_text(encoding="utf-8"))
    data["time_units"]["turn"] = 12
    table = rules.load_rules_table("segments", write_table(tmp_path, data))
    assert table.segments_per_turn == 12
    s = sheet(constitution=18, current=-1, initiative_segment=12)
    out = rules.apply(s, rules.AdvanceTime(unit="turn", rolls=(1,)), rules_table=table)
    assert (out.sheet.current, out.sheet.clock) == (-13, 12)
    assert text(out).count("Vigueur pour se stabiliser sans aide") == 1
    assert "Sa fenêtre s'ouvre (segment 12)" in text(out)
    # With the shipped 10-segment turn, a window at segment 12 lies past the last segment: the turn's try
    # still comes, at the last segment (S5), after 9 segments lost.
    shipped_out = run(s, rules.AdvanceTime(unit="turn", rolls=(1,)))
    assert (shipped_out.sheet.current, shipped_out.sheet.clock) == (-11, 10)
    assert text(shipped_out).count("Vigueur pour se stabiliser sans aide") == 1
    assert "Sa fenêtre s'ouvre (segment 10)" in text(shipped_out)


# --- Other actions ------------------------------------------------------------------------------------------


def test_temporary_points_absorb_first_and_never_stack() -> None:
    """House convention (GLOSSARY “a non-stacking buffer absorbed first”), seed 002 being silent (S11)."""
    s = run(sheet(), rules.GainTemporary(amount=5)).sheet
    assert run(s, rules.GainTemporary(amount=8)).sheet.temporary == 5
    assert run(s, rules.GainTemporary(amount=8, replace=True)).sheet.temporary == 8
    hit = run(s, rules.Damage(amount=7)).sheet
    assert (hit.temporary, hit.current) == (0, 18)


def test_rest_heals_a_little_and_refuses_the_dying() -> None:
    """« seul le repos la dissipe » — a rest needs a character who is not bleeding out (S15)."""
    with pytest.raises(rules.Refused, match="Mourant : pas de repos"):
        run(sheet(current=-3), rules.LongRest())
    with pytest.raises(rules.Refused, match="8 heures"):
        run(sheet(), rules.LongRest(hours=4))
    out = run(sheet(current=5, level=3), rules.LongRest())
    assert out.sheet.current == 8 and out.sheet.clock == 8 * HOUR
    assert not rules.supports("segments", rules.ShortRest)


def test_clear_conditions_keeps_what_has_a_cause() -> None:
    """« seul le repos la dissipe » ; « Obscurité » … « équivaut à l'état Aveuglé »"""
    s = sheet(conditions=("lenteur", "a_terre"), fatigue=1, light="obscurite")
    out = run(s, rules.ClearConditions())
    assert out.sheet.conditions == ()
    assert set(rules.derive(out.sheet).conditions) == {"fatigue", "aveugle"}


def test_describe_follows_the_conventions() -> None:
    info = rules.describe("segments")
    assert info.points_short == "PV" and info.seed == "002"
    assert {"nonlethal", "hits", "damage_types", "stabilise", "fatigue", "world_harm"} <= info.features
    assert {c.id for c in info.conditions} == set(rules.ruleset("segments").conditions)
    assert rules.SetFatigue in info.actions and rules.Fall in info.actions
    assert info.rests[0][0] is rules.LongRest
    d = rules.derive(rules.demo_sheet("segments"))
    for key in ("current", "maximum", "temporary", "state", "roll_penalty", "conditions", "condition_reasons"):
        assert key in d and d.explain(key)
    for key in ("nonlethal", "death_threshold", "speed", "attack_modifier", "ac_modifier", "reflex_modifier"):
        assert key in d and d.explain(key)
    assert "turn_start" in d
    assert d.state in {h.id for h in info.health_states}
