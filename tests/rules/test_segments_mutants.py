"""Segments: tests that kill the mutants the full mutation run left alive (scripts/mutation full segments).

Each pins what a player or GM reads or gets — the explanation of a derived value, a duration in the
journal, an action's title, a table the loader must refuse — exactly, so a changed word, bound or
branch shows.
"""

from __future__ import annotations

import copy
import random
import tomllib
from pathlib import Path
from typing import Any

import pydantic
import pytest

import rules
from rules.systems.segments import actions as seg
from tests.rules.helpers import write_table

SHEET = {"name": "Ysolde", "base_maximum": 20, "current": 20, "constitution": 12}


def sheet(**fields: Any) -> Any:
    return rules.new_sheet("segments", **{**SHEET, **fields})


def with_conditions(*conditions: str, **fields: Any) -> Any:
    out = sheet(**fields)
    for condition in conditions:
        out = rules.apply(out, rules.SetCondition(condition=condition)).sheet
    return out


def test_attack_and_reflex_explain_their_states() -> None:
    """« Fatigué | −1 à tous les jets » and « Aveuglé | Vue | −4 en attaque »."""
    calm = rules.derive(sheet())
    assert calm.explain("attack_modifier") == "attaque 0 (aucun état)"
    assert calm.explain("reflex_modifier") == "sauvegarde de Réflexes 0 (aucun état)"
    tired = rules.derive(with_conditions("fatigue"))
    assert tired.explain("attack_modifier") == "attaque −1 = −1 (Fatigué, tous les jets)"
    assert tired.explain("reflex_modifier") == "sauvegarde de Réflexes −1 = −1 (Fatigué, tous les jets)"
    blind = rules.derive(with_conditions("aveugle"))
    assert blind.explain("attack_modifier") == "attaque −4 = −4 (Aveuglé)"
    assert blind.explain("reflex_modifier") == "sauvegarde de Réflexes 0 (aucun état)"


def test_speed_explains_each_step() -> None:
    """« Vitesse | −1 case (1,5 m) », « déplacement à demi-vitesse », « déplacement au double du coût, −2 en
    attaque » and « Immobilisé | aucun déplacement, attaques conservées »."""
    assert rules.derive(sheet()).explain("speed") == "vitesse 6 = 6 (base, en cases) → 6 cases (9 m)"
    slow = rules.derive(with_conditions("lenteur"))
    assert slow.explain("speed") == "vitesse 5 = 6 (base, en cases) − 1 (Lenteur) → 5 cases (7,5 m)"
    blind = rules.derive(with_conditions("aveugle"))
    assert blind.explain("speed") == (
        "vitesse 6 = 6 (base, en cases), ÷ 2 (Aveuglé : demi-vitesse) = 3 → 3 cases (4,5 m)"
    )
    assert (blind.speed, blind.movement_cost) == (3, 1)
    tangled = rules.derive(with_conditions("enchevetre"))
    assert tangled.explain("speed") == (
        "vitesse 6 = 6 (base, en cases), ÷ 2 (Enchevêtré : chaque case coûte 2 fois plus) = 3 → 3 cases (4,5 m)"
    )
    assert (tangled.speed, tangled.movement_cost) == (3, 2)
    both = rules.derive(with_conditions("aveugle", "enchevetre"))
    assert both.explain("speed") == (
        "vitesse 6 = 6 (base, en cases), ÷ 2 (Aveuglé : demi-vitesse) = 3,"
        " ÷ 2 (Enchevêtré : chaque case coûte 2 fois plus) = 1 → 1 case (1,5 m)"
    )
    held = rules.derive(with_conditions("immobilise", "enchevetre"))
    assert held.speed == 0
    assert held.explain("speed") == "vitesse 0 case : aucun déplacement (Immobilisé)"
    assert held.movement_cost == 2
    floor = rules.derive(with_conditions("lenteur", speed_squares=0))
    assert floor.speed == 0
    assert floor.explain("speed") == "vitesse −1 = 0 (base, en cases) − 1 (Lenteur), ramenée à 0 → 0 case (0 m)"


def test_numb_hides_the_points_and_says_why() -> None:
    """« on ignore son propre total de points de vie, que le meneur garde pour lui »."""
    assert rules.derive(sheet()).explain("current") == "points de vie 20 sur 20"
    numb = rules.derive(with_conditions("engourdi"))
    assert numb.explain("current") == (
        "points de vie 20 sur 20 ; caché au joueur (Engourdi : le meneur garde ce total pour lui)"
    )


def test_unknown_state_lists_the_states_a_user_may_set() -> None:
    with pytest.raises(rules.Refused) as refused:
        rules.apply(sheet(), rules.SetCondition(condition="nope"))
    assert str(refused.value) == (
        "État inconnu : « nope » (états : Lenteur, Rapidité, À terre, Étourdi, Effrayé, Immobilisé, Enchevêtré,"
        " Agrippé, Confus, Surpris, Aveuglé, Assourdi, Engourdi, Émoussé)."
    )


@pytest.mark.parametrize(
    ("seconds", "text"),
    [(93_784, "1 j 2 h 3 min 4 s"), (86_400, "1 j"), (3_600, "1 h"), (90_000, "1 j 1 h"), (61, "1 min 1 s")],
)
def test_durations_in_the_journal(seconds: int, text: str) -> None:
    moved = rules.apply(sheet(), rules.Edit(changes={"clock": seconds}))
    assert moved.log == (f"Temps écoulé : 0 s → {text}.",)
    back = rules.apply(moved.sheet, rules.Edit(changes={"clock": 0}))
    assert back.log == (f"Temps écoulé : {text} → 0 s.",)


@pytest.mark.parametrize(
    ("action", "title"),
    [
        (seg.SetFatigue(level=2), "Fatigue degré 2"),
        (seg.SetFatigue(level=0), "Fatigue retirée"),
        (seg.AddFatigue(), "Se fatiguer"),
        (seg.AddFatigue(steps=2), "Se fatiguer (2 degrés)"),
        (seg.StandUp(), "Se relever"),
        (seg.SetSurprise(segments=1), "Surpris (1 segment)"),
        (seg.SetSurprise(segments=2), "Surpris (2 segments)"),
        (seg.SetSurprise(segments=0), "Fin de la surprise"),
        (seg.Fall(metres=4.5), "Chute de 4,5 m"),
        (seg.SetSuffocating(active=True), "Sans air"),
        (seg.SetSuffocating(active=False), "Respire à nouveau"),
        (seg.SetBurning(active=True), "En feu"),
        (seg.SetBurning(active=False), "Ne brûle plus"),
        (seg.Extinguish(method="maneuver"), "Éteindre les flammes"),
        (seg.Extinguish(method="roll"), "Se rouler au sol"),
        (seg.SetExposure(exposure=""), "À l'abri"),
        (seg.SetExposure(exposure="froid"), "Exposé au froid"),
        (seg.SetExposure(exposure="chaleur"), "Exposé à la chaleur"),
        (seg.SetPrivation(need="food", active=True), "Sans manger"),
        (seg.SetPrivation(need="water", active=False), "Peut boire"),
        (seg.SetPrivation(need="sleep", active=True), "Sans dormir"),
    ],
)
def test_action_titles(action: Any, title: str) -> None:
    """The title names the action in the undo menu and heads its journal entry."""
    assert action.title() == title


@pytest.mark.parametrize(
    ("dice", "valid"),
    [([1, 2], True), ([100, 1000], True), ([0, 6], False), ([101, 6], False), ([1, 1], False), ([1, 1001], False)],
)
def test_table_dice_are_bounded(dice: list[int], valid: bool) -> None:
    table = rules.ruleset("segments")
    data = copy.deepcopy(table.model_dump())
    data["general"]["check_dice"] = dice
    if valid:
        assert type(table).model_validate(data).general.check_dice == tuple(dice)
        return
    with pytest.raises(pydantic.ValidationError) as refused:
        type(table).model_validate(data)
    assert "des dés s'écrivent [nombre, faces], par exemple [1, 6]" in str(refused.value)


def test_a_magic_resistance_of_one_counts() -> None:
    """« Atteindre le score suffit. En cas d'échec, le sort échoue entièrement : pas de jet de sauvegarde, pas
    de demi-dégâts, rien. » Even a score of 1 stops a caster who gets 0."""
    s = sheet(magic_resistance=1)
    resisted = rules.apply(s, rules.Damage(amount=5, spell_check=0))
    assert resisted.sheet.current == 20 and "spell_resisted" in resisted.events
    pierced = rules.apply(s, rules.Damage(amount=5, spell_check=1))
    assert pierced.sheet.current == 15
    assert "Résistance à la magie 1 percée (1 atteint 1)." in pierced.log


def test_first_temporary_points_replace_nothing() -> None:
    """The journal of the first temporary points says how many, not that they replaced 0."""
    out = rules.apply(sheet(), rules.GainTemporary(amount=5))
    assert out.log == ("Points de vie temporaires : 5.",)
    again = rules.apply(out.sheet, rules.GainTemporary(amount=7, replace=True))
    assert again.log == ("Points de vie temporaires : 5 remplacés par 7.",)


# --- Issue 19, session 3: the hit's journal line, step by step, exactly --------------------------------

GUARDED = {
    "base_maximum": 30,
    "current": 30,
    "armour": "lourde",
    "shield": True,
    "natural_armour": 4,
    "damage_reductions": ("5/argent",),
    "energy_resistances": ("feu 5", "froid 2"),
}
EVERY_REDUCTION = "3/− armure lourde + 1/− bouclier + 1/− armure naturelle 4 + 5/argent propre à la créature"


@pytest.mark.parametrize(
    ("action", "line"),
    [
        (
            rules.Damage(amount=12, damage_type="tranchant"),
            f"Coup : 12 dégâts − 10 (réduction {EVERY_REDUCTION}) = 2 → PV 30 → 28.",
        ),
        (
            rules.Damage(amount=12, damage_type="argent"),
            "Coup : 12 dégâts − 5 (réduction 3/− armure lourde + 1/− bouclier + 1/− armure naturelle 4)"
            " (réduction 5/argent contournée) = 7 → PV 30 → 23.",
        ),
        (
            rules.Damage(amount=12, damage_type="feu"),
            f"Coup : 12 dégâts − 10 (réduction {EVERY_REDUCTION}) − 2 (résistance feu 5) = 0 → PV 30 → 30.",
        ),
        (
            rules.Damage(amount=12, damage_type="feu, froid"),
            f"Coup : 12 dégâts − 10 (réduction {EVERY_REDUCTION}) − 2 (résistance froid 2) = 0 → PV 30 → 30.",
        ),
        (
            rules.Damage(amount=3, damage_type="feu", save_halves=True),
            f"Coup : 3 dégâts ÷ 2 (sauvegarde réussie) − 1 (réduction {EVERY_REDUCTION}) = 0 → PV 30 → 30.",
        ),
        (rules.Damage(amount=2), f"Coup : 2 dégâts − 2 (réduction {EVERY_REDUCTION}) = 0 → PV 30 → 30."),
    ],
)
def test_a_hit_line_names_each_reduction_and_resistance(action: rules.Damage, line: str) -> None:
    """« Ces réductions se cumulent entre elles : un guerrier en armure lourde derrière son bouclier retire 4
    points à chaque coup reçu. » ; « Une réduction 5/argent ne protège pas contre une lame d'argent » ;
    « Résistance à l'énergie. Même principe, mais réservé à une énergie précise (feu, froid, foudre) et sans
    contournement possible. »"""
    assert rules.apply(sheet(**GUARDED), action).log == (line,)


def test_a_hit_reads_the_armour_the_sheet_has_now() -> None:
    """« Armure légère | 1/− » … « Armure lourde | 3/− »: the same blow, before and after a change of armour."""
    light = sheet(armour="legere")
    assert rules.apply(light, rules.Damage(amount=5)).sheet.current == 16
    heavy = rules.apply(light, rules.Edit(changes={"armour": "lourde"})).sheet
    assert rules.apply(heavy, rules.Damage(amount=5)).sheet.current == 18
    shielded = rules.apply(heavy, rules.Edit(changes={"shield": True})).sheet
    assert rules.apply(shielded, rules.Damage(amount=5)).sheet.current == 19
    bare = rules.apply(shielded, rules.Edit(changes={"armour": "", "shield": False, "natural_armour": 6})).sheet
    assert rules.apply(bare, rules.Damage(amount=5)).sheet.current == 17
    resisting = rules.apply(bare, rules.Edit(changes={"energy_resistances": ["feu 5"]})).sheet
    assert rules.apply(resisting, rules.Damage(amount=5, damage_type="feu")).sheet.current == 20
    assert rules.apply(bare, rules.Damage(amount=5, damage_type="feu")).sheet.current == 17


def test_a_dropped_weapon_is_dropped_once_per_attack() -> None:
    """« tout coup encaissé fait lâcher son arme sauf réussite d'une Vigueur difficulté 15 »: once it is
    dropped, the next blows of the same attack have nothing left to drop (no second roll)."""
    numb = sheet(fortitude_save=2, conditions=("engourdi",))
    out = rules.apply(numb, rules.Damage(amount=1, hits=3, rolls=(5,)), random.Random(1))
    assert "\n".join(out.log).count("Vigueur pour garder son arme") == 1
    assert len(out.rolls) == 1 and "weapon_dropped" in out.events
    # A blow that kills asks no roll: the dead hold nothing.
    killed = rules.apply(numb, rules.Damage(amount=32), random.Random(1))
    assert killed.sheet.dead and not killed.rolls and "weapon_dropped" not in killed.events


def test_dying_values_explain_the_clock_and_the_ways_out() -> None:
    """« Il perd 1 point de vie par segment et meurt quand il atteint l'opposé de sa valeur de Constitution » ;
    « Il peut tenter un jet de Vigueur difficulté 20, une fois par tour, pour se stabiliser seul. »"""
    dying = rules.derive(sheet(current=-3))
    assert (dying.segments_to_death, dying.self_stabilise_available) == (9, True)
    assert dying.explain("segments_to_death") == (
        "mort dans 9 segments (environ 0,9 tour(s) de 10 segments) sans stabilisation : −3 PV, 1 de moins par"
        " segment, la mort à −12"
    )
    ways_out = "pour se stabiliser sans aide, une fois par tour"
    assert dying.explain("self_stabilise_available") == (
        f"Vigueur difficulté 20 {ways_out} ; ou stabilisation par un allié, action d'interaction sans jet"
    )
    assert dying.explain("state") == "état : Mourant (−3 PV : hors combat, perte de 1 PV par segment, la mort à −12)"
    tried = rules.derive(sheet(current=-3, self_stabilise_turn=0))
    assert tried.self_stabilise_available is False
    assert tried.explain("self_stabilise_available") == (
        f"Vigueur difficulté 20 {ways_out} (déjà tentée ce tour-ci) ; ou stabilisation par un allié, action"
        " d'interaction sans jet"
    )
    held = rules.derive(sheet(current=-3, stabilised=True))
    assert (held.segments_to_death, held.self_stabilise_available) == (None, False)
    assert held.explain("segments_to_death") == "ne perd pas de points de vie"
    assert held.explain("self_stabilise_available") == "pas à l'agonie : rien à stabiliser"
    assert held.explain("state") == (
        "état : Stabilisé (−3 PV, hors combat, stabilisation acquise : ne perd plus de points de vie)"
    )


def test_numb_and_magic_resistance_explain_themselves() -> None:
    """« on ignore son propre total de points de vie, que le meneur garde pour lui » ; « Atteindre le score
    suffit. En cas d'échec, le sort échoue entièrement »."""
    calm = rules.derive(sheet(magic_resistance=12))
    assert calm.points_hidden is False and calm.hidden == frozenset()
    assert calm.explain("points_hidden") == "le joueur connaît ses points de vie"
    assert calm.magic_resistance == 12
    assert calm.explain("magic_resistance") == (
        "résistance à la magie 12 : le lanceur doit l'atteindre, sinon le sort échoue entièrement"
    )
    assert rules.derive(sheet()).explain("magic_resistance") == "aucune résistance à la magie"
    numb = rules.derive(with_conditions("engourdi"))
    assert numb.points_hidden is True
    assert numb.explain("points_hidden") == (
        "le joueur ignore son total de points de vie (Engourdi) : le meneur le garde pour lui"
    )
    assert numb.hidden == {"current", "maximum", "nonlethal", "segments_to_death", "state", "temporary"}
    assert numb.explain("state") == (
        "état : En forme (20 PV sur 20 : plus de la moitié) ; caché au joueur (Engourdi : le meneur garde ce"
        " total pour lui)"
    )


def test_states_armour_and_reductions_read_on_the_sheet() -> None:
    """« Immobilisé | aucun déplacement, attaques conservées » ; « Aveuglé | Vue | −4 en attaque, déplacement à
    demi-vitesse, et on ne peut pas viser » ; « Ces réductions se cumulent entre elles »."""
    calm = rules.derive(sheet())
    assert calm.conditions == () and calm.explain("conditions") == "états : aucun"
    assert calm.armour_class == 10 and calm.explain("armour_class") == "classe d'armure 10 = 10 (base)"
    assert calm.damage_reduction == ()
    held = rules.derive(sheet(conditions=("aveugle", "immobilise"), armour_class=15, armour="lourde", shield=True))
    assert held.conditions == ("immobilise", "aveugle")
    assert held.explain("conditions") == "états : Immobilisé (posé), Aveuglé (posé)"
    assert held.explain("armour_class") == "classe d'armure 15 = 15 (base)"
    assert held.restrictions == ("no_movement", "cannot_aim")
    assert held.explain("restrictions") == "aucun déplacement (Immobilisé); ne peut pas viser (Aveuglé)"
    assert held.damage_reduction == ("3/−", "1/−")
    dim = rules.derive(sheet(conditions=("aveugle",), light="faible"))
    assert dim.sight_modifier == -5
    assert dim.explain("sight_modifier") == "jets de Vue : échec d'office (Aveuglé)"


def test_flames_that_go_out_stop_their_count() -> None:
    """« Feu | 1d6 par tour tant qu'on brûle »: once out, the next fire counts its turns from zero."""
    burning = sheet(burning=True, clock=30, burning_for=30)
    out = rules.apply(burning, seg.SetBurning(active=False))
    assert (out.sheet.burning, out.sheet.burning_for) == (False, 0)
    assert out.log == ("Ysolde ne brûle plus.",)


# --- Session 4: the survivors of the session-3 sample (docs/testing.md, « segments, session 4 ») -------------


def test_reaching_exactly_zero_is_told_as_staggered() -> None:
    """« Chancelant | exactement 0 » ; « Blessé | la moitié ou moins »: the journal names the state a hit
    leaves, at 0 and at 1 PV."""
    assert rules.apply(sheet(), rules.Damage(amount=20)).log == (
        "Coup : 20 dégâts → PV 20 → 0.",
        "Ysolde : En forme → Chancelant (exactement 0 PV).",
    )
    assert rules.apply(sheet(), rules.Damage(amount=19)).log == (
        "Coup : 19 dégâts → PV 20 → 1.",
        "Ysolde : En forme → Blessé (1 PV sur 20 : la moitié ou moins).",
    )
    assert rules.apply(sheet(current=1), rules.Damage(amount=1)).log == (
        "Coup : 1 dégâts → PV 1 → 0.",
        "Ysolde : Blessé → Chancelant (exactement 0 PV).",
    )


def test_new_damage_breaks_a_stabilisation_and_keeps_the_nonlethal_damage() -> None:
    """« Il perd 1 point de vie par segment et meurt quand il atteint l'opposé de sa valeur de Constitution »:
    a stabilised character hit again loses a point per segment again (the table's
    ``dying.damage_breaks_stabilisation``); the nonlethal damage counted apart stays as it was."""
    steady = sheet(current=-5, stabilised=True, nonlethal=3)
    out = rules.apply(steady, rules.Damage(amount=2))
    assert (out.sheet.current, out.sheet.stabilised, out.sheet.nonlethal) == (-7, False, 3)
    assert out.log[:2] == (
        "Coup : 2 dégâts → PV −5 → −7.",
        "Les nouveaux dégâts rompent la stabilisation : la perte de 1 PV par segment reprend.",
    )
    # A nonlethal blow on a stabilised character is lethal beyond 0 PV: the nonlethal count does not move.
    knocked = rules.apply(steady, rules.Damage(amount=2, nonlethal=True)).sheet
    assert (knocked.current, knocked.stabilised, knocked.nonlethal) == (-7, False, 3)


def test_a_hit_that_reaches_minus_constitution_kills_without_breaking_anything() -> None:
    """« un personnage à 12 de Constitution meurt à −12 »: a stabilised character hit to exactly −12 dies;
    no stabilisation is « broken » on the way."""
    out = rules.apply(sheet(current=-5, stabilised=True), rules.Damage(amount=7))
    assert out.sheet.dead and out.sheet.current == -12
    assert out.log == (
        "Coup : 7 dégâts → PV −5 → −12.",
        "Ysolde meurt (−12 PV : l'opposé de sa Constitution (12) est atteint).",
    )


def test_clearing_the_states_names_those_removed() -> None:
    """« La fatigue se cumule : un personnage déjà fatigué qui se fatigue encore devient épuisé, et seul le
    repos la dissipe. »: clearing the states names each one removed, and the fatigue that stays."""
    out = rules.apply(sheet(conditions=("aveugle", "lenteur"), fatigue=1), rules.ClearConditions())
    assert out.sheet.conditions == ()
    assert out.log == ("États retirés : Aveuglé, Lenteur.", "Fatigué reste : seul le repos dissipe la fatigue.")
    assert rules.apply(sheet(), rules.ClearConditions()).log == ("Aucun état posé à retirer.",)


def test_the_dead_neither_tire_nor_change_state() -> None:
    """« un personnage à 12 de Constitution meurt à −12 »: the refusals say what cannot happen to the dead."""
    dead = sheet(current=-12)
    with pytest.raises(rules.Refused) as tired:
        rules.apply(dead, rules.SetCondition(condition="fatigue"))
    assert tired.value.reason == "Ysolde n'est plus en vie : se fatiguer impossible."
    with pytest.raises(rules.Refused) as blind:
        rules.apply(dead, rules.SetCondition(condition="aveugle"))
    assert blind.value.reason == "Ysolde n'est plus en vie : changer d'état impossible."


def test_an_edit_names_privations_and_quotes_texts_up_to_sixty_characters() -> None:
    """“Privations : sans manger, sans boire → aucune.”: the edit journal's words for an emptied list, and a
    text quoted whole up to 60 characters, cut after."""
    hungry = sheet(privations=("food", "water"))
    assert rules.apply(hungry, rules.Edit(changes={"privations": []})).log == (
        "Privations : sans manger, sans boire → aucune.",
    )
    assert rules.apply(sheet(), rules.Edit(changes={"privations": ["sleep"]})).log == (
        "Privations : aucune → sans dormir.",
    )
    sixty, longer = "a" * 60, "a" * 61
    assert rules.apply(sheet(), rules.Edit(changes={"notes": sixty})).log == (f"Notes : (vide) → « {sixty} ».",)
    assert rules.apply(sheet(), rules.Edit(changes={"notes": longer})).log == (f"Notes : (vide) → « {sixty}… ».",)


def test_a_state_brought_by_another_says_so(tmp_path: Path) -> None:
    """« Agrippé | contact imposé, ni déplacement ni arme à distance pour les deux »: under a house table where
    Agrippé brings Immobilisé along, the sheet says where Immobilisé comes from, and it cannot be taken off
    alone."""
    shipped = Path(__file__).parents[2] / "resources" / "rulesets" / "segments.toml"
    data = tomllib.loads(shipped.read_text(encoding="utf-8"))
    data["conditions"]["agrippe"]["implies"] = ["immobilise"]
    table = rules.load_rules_table("segments", write_table(tmp_path, data))
    held = rules.apply(sheet(), rules.SetCondition(condition="agrippe"), rules_table=table).sheet
    assert (
        rules.derive(held, rules_table=table)
        .explain("conditions")
        .startswith("états : Immobilisé (découle de l'état Agrippé), Agrippé (posé)")
    )
    with pytest.raises(rules.Refused) as refused:
        rules.apply(held, rules.SetCondition(condition="immobilise", active=False), rules_table=table)
    assert refused.value.reason.startswith("Immobilisé découle de l'état Agrippé : changez-en d'abord la cause.")


def test_a_tired_character_is_tired_on_the_sheet() -> None:
    """« Fatigué | −1 à tous les jets » ; « Vacillant | le troisième degré »: the degree of fatigue brings its
    state."""
    assert rules.derive(sheet(fatigue=1)).explain("conditions") == "états : Fatigué (découle du degré de fatigue 1)"
    assert rules.derive(sheet(fatigue=3)).explain("conditions") == ("états : Vacillant (découle du degré de fatigue 3)")


def test_a_character_marked_dead_stays_dead_whatever_its_points() -> None:
    """« La mort est automatique : ce n'est pas une décision du meneur. »: a sheet marked dead whose PV are
    edited stays dead; the journal says the edit and no change of state."""
    corpse = sheet(dead=True)
    out = rules.apply(corpse, rules.Edit(changes={"current": 5}))
    assert out.log == ("PV : 20 → 5.",)
    assert out.sheet.dead and rules.derive(out.sheet).state == "mort"
