"""Sévérité: what the gauge's figures kept per tuple of wounds (issue 15, session 5) must not change.

``_lower_gauge`` orders the wounds by one number per wound (``notches × (MAX_WOUND_ID + 1) + id``) kept with the
tuple, and the next wound's number comes from the highest number kept with it. Each test here failed on a
mutant of that bookkeeping that the other Sévérité tests let live.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import rules
from rules import table as rtable
from rules.systems.severite import InflictWound, SupernaturalHealing, TenacityTest


def sheet_with(*wounds: tuple[int, str, int]) -> Any:
    return rules.new_sheet(
        "severite", name="Ysolde", wounds=[{"id": i, "grade": grade, "notches": n} for i, grade, n in wounds]
    )


def heal(sheet: Any, notches: int) -> rules.Outcome:
    return rules.apply(sheet, rules.Heal(amount=notches, magical=True), random.Random(0))


def new_wound_id(sheet: Any) -> int:
    after = rules.apply(sheet, InflictWound(grade="legere", tenacity_test=False), random.Random(0)).sheet
    return int(after.wounds[-1].id)


def test_a_wound_numbered_one_million_holds_only_its_own_notches() -> None:
    """« En fonction de son niveau de réussite, cette Action accordera le retrait de cran de Trauma. » Two
    one-notch wounds, one of them numbered 1,000,000 (the highest number a wound may have): two notches
    removed heal both (the rank of a wound must not let its number spill into its notches)."""
    out = heal(sheet_with((1_000_000, "legere", 1), (3, "legere", 1)), 2)
    assert out.sheet.wounds == ()
    assert out.log[-1] == "Soins surnaturels : 2 crans de Trauma retirés (2 → 0)."


def test_after_every_wound_healed_the_next_one_is_number_one() -> None:
    """« En fonction de son niveau de réussite, cette Action accordera le retrait de cran de Trauma. » The last
    wound healed away, the sheet holds none: the next wound is n° 1 again."""
    healed = heal(sheet_with((4, "legere", 1)), 1).sheet
    assert healed.wounds == ()
    assert new_wound_id(healed) == 1


def test_the_next_wound_number_follows_the_highest_left_whatever_the_order() -> None:
    """« En fonction de son niveau de réussite, cette Action accordera le retrait de cran de Trauma. » The
    heaviest wound (n° 9) heals; of the wounds left, listed n° 6 then n° 2, the highest is 6: the next wound
    is n° 7 (not the number after the last one listed)."""
    healed = heal(sheet_with((9, "grave", 3), (6, "legere", 1), (2, "legere", 1)), 3).sheet
    assert [w.id for w in healed.wounds] == [6, 2]
    assert new_wound_id(healed) == 7
    # A wound only lowered keeps the highest number as it was.
    lowered = heal(sheet_with((9, "legere", 1), (2, "grave", 3)), 1).sheet
    assert [(w.id, w.notches) for w in lowered.wounds] == [(9, 1), (2, 2)]
    assert new_wound_id(lowered) == 10


def test_a_new_wound_heals_before_an_older_one_of_the_same_weight() -> None:
    """« En fonction de son niveau de réussite, cette Action accordera le retrait de cran de Trauma. » The
    heaviest wounds first, the latest first among equals (rules-notes V14): a new Légère wound (n° 2) beside an
    older Légère one (n° 1) is the one one notch heals."""
    hurt = rules.apply(sheet_with((1, "legere", 1)), InflictWound(grade="legere", tenacity_test=False)).sheet
    out = heal(hurt, 1)
    assert [w.id for w in out.sheet.wounds] == [1]
    assert out.log[0] == "Blessure n° 2 Légère guérie."


def test_two_wounds_of_one_number_both_heal() -> None:
    """« En fonction de son niveau de réussite, cette Action accordera le retrait de cran de Trauma. » A sheet
    that skipped validation may hold two wounds of one number: two notches heal both, each told once."""
    one = sheet_with((1, "legere", 1)).wounds[0]
    sheet = sheet_with((5, "legere", 0)).model_copy(update={"wounds": (one, one.model_copy())})
    out = heal(sheet, 2)
    assert out.sheet.wounds == ()
    assert [line for line in out.log if "guérie" in line] == [
        "Blessure n° 1 Légère guérie.",
        "Blessure n° 1 Légère guérie.",
    ]


def test_heal_after_heal_follows_the_wounds_left() -> None:
    """« En fonction de son niveau de réussite, cette Action accordera le retrait de cran de Trauma. » Care after
    care on the sheet each one left: one notch off the Grave n° 2 (3 → 2), then two notches heal it, then one
    notch heals the latest of the two Légères (n° 3): n° 1 is left."""
    sheet = sheet_with((1, "legere", 1), (2, "grave", 3), (3, "legere", 1))
    first = heal(sheet, 1).sheet
    assert [(w.id, w.notches) for w in first.wounds] == [(1, 1), (2, 2), (3, 1)]
    second = heal(first, 2).sheet
    assert [w.id for w in second.wounds] == [1, 3]
    assert [w.id for w in heal(second, 1).sheet.wounds] == [1]


# Session 5, round 2: the ignored wounds counted with the figures; a failed Défi copies the sheet once.


def test_inebranlable_off_leaves_the_wounds_alone_when_none_is_ignored() -> None:
    """« Vous permet tout simplement d’ignorer la Blessure jusqu’à la fin du Conflit. » Inébranlable taken off a
    sheet whose wounds are all counted: the wounds stay as they were, the very same tuple (the count of ignored
    wounds kept with the figures says there is nothing to do; one ignored wound healed away counts no more)."""
    sheet = sheet_with((1, "legere", 1), (2, "grave", 3)).model_copy(update={"conditions": ("inebranlable",)})
    off = rules.apply(sheet, rules.SetCondition(condition="inebranlable", active=False)).sheet
    assert off.conditions == ()
    assert off.wounds is sheet.wounds
    # The ignored wound (n° 2, the heaviest) heals away: the one left was never ignored.
    ignored = sheet.model_copy(
        update={"wounds": (sheet.wounds[0], sheet.wounds[1].model_copy(update={"ignored": True}))}
    )
    healed = heal(ignored, 3).sheet
    assert [w.id for w in healed.wounds] == [1]
    off = rules.apply(healed, rules.SetCondition(condition="inebranlable", active=False)).sheet
    assert off.wounds is healed.wounds
    # Still ignored, it counts again when Inébranlable goes.
    lowered = heal(ignored, 1).sheet
    assert [(w.id, w.notches, w.ignored) for w in lowered.wounds] == [(1, 1, False), (2, 2, True)]
    off = rules.apply(lowered, rules.SetCondition(condition="inebranlable", active=False)).sheet
    assert [w.ignored for w in off.wounds] == [False, False]


def test_a_new_wounds_handicap_weighs_on_the_defi_it_calls_for_under_a_house_table() -> None:
    """« Si le Défi est échoué, vous êtes hors combat »: under a house table where Handicaps weigh on the Défi
    (V12), a Grave wound with a −2 Handicap calls for a Défi that already counts that Handicap (the wound is on
    the sheet when the Défi is rolled, even though the sheet is copied once, with the wound and the condition)."""
    rs = rules.ruleset("severite")
    table = rs.model_copy(update={"tenacity": rs.tenacity.model_copy(update={"handicaps_apply": True})})
    sheet = rules.new_sheet("severite", name="Ysolde", physique=2)
    grave = InflictWound(grade="grave", handicap="Boite", handicap_penalty=-2, rolls=(5,))
    out = rules.apply(sheet, grave, random.Random(0), rules_table=table)
    assert out.log[2] == (
        "Défi de Ténacité contre Jouable (8) : 1d10 = 5 (valeur donnée) +2 (Physique) −2 (Handicaps) = 5 → échec : "
        "hors combat jusqu'à la fin du Conflit."
    )
    assert [(w.id, w.grade, w.handicap_penalty) for w in out.sheet.wounds] == [(1, "grave", -2)]
    assert out.sheet.conditions == ("hors_de_combat",)


def test_the_state_read_alone_counts_every_notch_of_wounds_never_seen() -> None:
    """« Elle représente l’état de stress du personnage, et à mesure qu’elle se remplit celui-ci sera susceptible
    d’être mis hors combat. » The state the GM table reads alone (``rules.table.health_state``, no other derived
    value) of a sheet whose wounds no action has seen yet: 3 + 3 + 3 notches are past the gauge's 8, 3 alone
    are not, no wound at all is « en forme »."""
    past = sheet_with((1, "grave", 3), (2, "grave", 3), (3, "grave", 3))
    assert rtable.health_state(past.model_copy(update={"wounds": (*past.wounds,)})) == "au_dela"
    one = sheet_with((1, "grave", 3))
    assert rtable.health_state(one.model_copy(update={"wounds": (*one.wounds,)})) == "blesse"
    assert rtable.health_state(sheet_with()) == "en_forme"


def test_a_hit_on_a_character_out_of_the_fight_names_only_its_own_state() -> None:
    """« Si le Défi est échoué, vous êtes hors combat, ce qui veut dire que vous serez incapable d'agir jusqu'à la
    fin du Conflit. » Hors de combat, not unconscious: a Grave wound calls for no Défi, and the journal names that
    state alone (the labels kept per tuple of conditions, issue 15), for this sheet and another one."""
    sheet = rules.new_sheet("severite", name="Ysolde", conditions=["hors_de_combat"])
    line = "Pas de Défi de Ténacité pour Ysolde, déjà dans l'état : Hors combat."
    for _ in range(2):
        out = rules.apply(sheet, InflictWound(grade="grave"), random.Random(0))
        assert out.log[-1] == line
        assert out.sheet.wounds[-1].grade == "grave"
    both = sheet.model_copy(update={"conditions": ("hors_de_combat", "inconscient"), "name": ""})
    out = rules.apply(both, InflictWound(grade="grave"), random.Random(0))
    assert out.log[-1] == "Pas de Défi de Ténacité pour Le personnage, déjà dans l'état : Hors combat, Inconscient."


def test_a_strike_keeps_every_field_given_on_its_wound() -> None:
    """« Quand la valeur de Sévérité  est supérieure ou égale à 0, une Blessure a été infligée. » The wound a strike
    leaves carries its note, zone, type, handicap and Sévérité, the other fields at their defaults."""
    sheet = rules.new_sheet("severite", name="Ysolde")
    action = rules.Strike(
        margin=10, damage_type="tranchant", body_part="bras_gauche", handicap="Boite", handicap_penalty=-1, note="n"
    )
    out = rules.apply(sheet, action, random.Random(3))
    wound = out.sheet.wounds[-1]
    expected = rules.new_sheet("severite", wounds=[wound.model_dump(exclude_defaults=True)]).wounds[0]
    assert wound == expected
    assert (wound.note, wound.body_part, wound.damage_type, wound.handicap) == (
        "n",
        "bras_gauche",
        "tranchant",
        "Boite",
    )
    assert wound.model_fields_set == {
        "id", "grade", "notches", "severity", "body_part", "damage_type", "psychological", "handicap",
        "handicap_penalty", "crippled", "note",
    }  # fmt: skip


# Session 6: rising wound numbers (a hit's, a heal's) find the wound by bisection, the highest number at the end.


def test_with_rising_numbers_the_next_wound_follows_the_highest_left_not_the_first() -> None:
    """« En fonction de son niveau de réussite, cette Action accordera le retrait de cran de Trauma. » Wounds n° 1,
    2, 3 in rising order, n° 3 the heaviest: one heal of its 3 notches takes it away; the next wound is n° 3 (the
    highest number left, 2, plus one), not n° 2 (the first number left plus one)."""
    sheet = sheet_with((1, "legere", 1), (2, "legere", 1), (3, "grave", 3))
    healed = heal(sheet, 3).sheet
    assert [w.id for w in healed.wounds] == [1, 2]
    assert new_wound_id(healed) == 3


# Session 7: the figures keep the ranks sorted up, and the ranks a hit adds apart until a heal sorts them in.


def test_a_heal_after_a_lighter_hit_still_lowers_the_heaviest_wound() -> None:
    """« En fonction de son niveau de réussite, cette Action accordera le retrait de cran de Trauma. » A Grave
    wound (n° 1, 3 notches), then a Légère one lands (n° 2, lighter, numbered higher): one notch of care comes
    off the Grave (the heaviest first), not off the latest wound; a second hit and care keep to that order."""
    hurt = rules.apply(sheet_with((1, "grave", 3)), InflictWound(grade="legere", tenacity_test=False)).sheet
    out = heal(hurt, 1)
    assert [(w.id, w.notches) for w in out.sheet.wounds] == [(1, 2), (2, 1)]
    assert out.log == ("Soins surnaturels : 1 cran de Trauma retirés (4 → 3).",)
    again = rules.apply(out.sheet, InflictWound(grade="legere", tenacity_test=False)).sheet
    assert [(w.id, w.notches) for w in heal(again, 2).sheet.wounds] == [(2, 1), (3, 1)]


def test_care_leaves_a_wound_that_holds_no_notch() -> None:
    """« Pour qu’une Blessure puisse guérir, il est nécessaire que celle-ci soit traitée ». A wound brought to 0
    notches by adrenaline stays on the sheet until treated: supernatural care of more notches than the gauge
    holds heals the wound that held one and leaves that one alone (nothing to take from it)."""
    out = heal(sheet_with((1, "legere", 0), (2, "legere", 1)), 3)
    assert [(w.id, w.notches) for w in out.sheet.wounds] == [(1, 0)]
    assert out.log == (
        "Blessure n° 2 Légère guérie.",
        "Soins surnaturels : 1 cran de Trauma retirés (1 → 0).",
    )


def test_care_of_a_targeted_wound_then_plain_care_takes_the_heaviest_left() -> None:
    """« Ainsi une Blessure ciblée pourra guérir d’autant plus rapidement. » Care aimed at the Grave n° 2 (an
    Efficace success: 3 notches) heals it; plain care of one notch after it heals the latest Légère (n° 3), the
    heaviest left (the Grave gone from the gauge's order, not taken a second time)."""
    sheet = sheet_with((1, "legere", 1), (2, "grave", 3), (3, "legere", 1))
    aimed = rules.apply(sheet, SupernaturalHealing(success_level="efficace", wound_id=2), random.Random(0))
    assert [w.id for w in aimed.sheet.wounds] == [1, 3]
    out = heal(aimed.sheet, 1)
    assert [(w.id, w.notches) for w in out.sheet.wounds] == [(1, 1)]
    assert out.log[0] == "Blessure n° 3 Légère guérie."


def test_a_state_taken_off_by_hand_takes_its_own_length_with_it() -> None:
    """« Vous resterez en piste mais incapacité momentanément par la douleur jusqu’à la fin du prochain tour. »
    Tourmenté and Stoïque both put for their turns: Tourmenté taken off by hand ends its own count of turns, and
    Stoïque keeps its own (then it goes too, and no count is left)."""
    sheet = sheet_with((1, "legere", 1))
    for cid in ("tourmente", "stoique"):
        sheet = rules.apply(sheet, rules.SetCondition(condition=cid)).sheet
    assert sorted(t.condition for t in sheet.turn_timers) == ["stoique", "tourmente"]
    off = rules.apply(sheet, rules.SetCondition(condition="tourmente", active=False))
    assert off.log == ("État Tourmenté retiré.",)
    assert off.sheet.conditions == ("stoique",)
    assert [t.condition for t in off.sheet.turn_timers] == ["stoique"]
    gone = rules.apply(off.sheet, rules.SetCondition(condition="stoique", active=False)).sheet
    assert (gone.conditions, gone.turn_timers) == ((), ())


def test_a_dead_character_is_neither_healed_nor_given_a_state() -> None:
    """« Quand elle est infligée sur une zone vitale elle peut tuer sur le coup, purement et simplement. » The
    character dead, supernatural care and a state put by hand are refused, in French, and change nothing; a state
    taken off is still told (nothing there to take off)."""
    dead = sheet_with((1, "legere", 1)).model_copy(update={"dead": True})
    for action, what in (
        (rules.Heal(amount=1, magical=True), "soigner"),
        (rules.SetCondition(condition="tourmente"), "changer d'état"),
    ):
        with pytest.raises(rules.Refused) as refused:
            rules.apply(dead, action, random.Random(0))
        assert str(refused.value) == f"Ysolde n'est plus en vie : {what} impossible."
    off = rules.apply(dead, rules.SetCondition(condition="tourmente", active=False))
    assert off.log == ("Tourmenté : n'était pas en place.",)


def test_a_state_put_under_a_house_table_lasts_that_tables_turns() -> None:
    """« Vous resterez en piste mais incapacité momentanément par la douleur jusqu’à la fin du prochain tour. »
    Tourmenté lasts 2 ends of turn under the shipped table, 1 under a house table that says so, 3 under another:
    each sheet gets its own table's length, whichever was put before (the timers built are shared)."""
    rs = rules.ruleset("severite")
    lengths = []
    for turns in (None, 1, 3, None):
        table = None
        if turns is not None:
            tourmente = rs.conditions["tourmente"].model_copy(update={"turns": turns})
            table = rs.model_copy(update={"conditions": {**rs.conditions, "tourmente": tourmente}})
        out = rules.apply(sheet_with(), rules.SetCondition(condition="tourmente"), rules_table=table)
        lengths.append([(t.condition, t.turns) for t in out.sheet.turn_timers])
    assert lengths == [[("tourmente", 2)], [("tourmente", 1)], [("tourmente", 3)], [("tourmente", 2)]]


def test_a_common_hit_then_care_heals_the_new_wound_first() -> None:
    """« En fonction de son niveau de réussite, cette Action accordera le retrait de cran de Trauma. » A common hit
    (Sévérité 3: a Légère wound on the right arm, the hit's flat path) beside an older Légère: one notch of care
    heals the new one (n° 2, the latest among equals), its notch counted in the gauge's order."""
    hit = rules.apply(sheet_with((1, "legere", 1)), rules.Damage(amount=3, body_part="bras_droit"), random.Random(0))
    assert [(w.id, w.grade, w.notches) for w in hit.sheet.wounds] == [(1, "legere", 1), (2, "legere", 1)]
    out = heal(hit.sheet, 1)
    assert [w.id for w in out.sheet.wounds] == [1]
    assert out.log[0] == "Blessure n° 2 Légère (bras droit) guérie."


# Session 7: a hit grows the wound figures' lists in place; a second hit on the same sheet must not.


def test_two_hits_on_one_sheet_each_heal_their_own_wound() -> None:
    """« En fonction de son niveau de réussite, cette Action accordera le retrait de cran de Trauma. » One sheet hit
    twice from the same state (two branches: a Légère, then instead a Grave): healing three notches of the second
    takes its Grave wound away, as it would on a sheet never hit before (the first hit's wound is not on it)."""
    sheet = sheet_with((1, "legere", 1))
    first = rules.apply(sheet, rules.Damage(amount=3, body_part="bras_droit"), random.Random(0)).sheet
    second = rules.apply(sheet, rules.Damage(amount=6, body_part="torse"), random.Random(0)).sheet
    assert [w.grade for w in first.wounds] == ["legere", "legere"]
    out = heal(second, 3)
    assert out.log[0] == "Blessure n° 2 Grave (torse) guérie."
    assert [(w.id, w.grade) for w in out.sheet.wounds] == [(1, "legere")]
    again = heal(first, 1)
    assert [(w.id, w.body_part) for w in again.sheet.wounds] == [(1, None)]


# Session 7, last round: the Défi that ignores the wound keeps the new tuple's figures (one more wound ignored).


def test_a_wound_ignored_by_its_defi_counts_again_when_inebranlable_goes() -> None:
    """« Vous permet tout simplement d’ignorer la Blessure jusqu’à la fin du Conflit. » A Grave wound whose Défi
    gives Inébranlable is ignored; Inébranlable taken off by hand, it counts again (the count of ignored wounds
    kept with the new tuple's figures must hold it)."""
    sheet = rules.new_sheet("severite", name="Ysolde", physique=2)
    out = rules.apply(sheet, InflictWound(grade="grave", rolls=(10,)), random.Random(0))
    assert out.log[2].endswith("Ténacité Inébranlable. Ignore la Blessure jusqu'à la fin du Conflit.")
    assert [(w.id, w.ignored) for w in out.sheet.wounds] == [(1, True)]
    off = rules.apply(out.sheet, rules.SetCondition(condition="inebranlable", active=False)).sheet
    assert off.conditions == ()
    assert [(w.id, w.ignored) for w in off.wounds] == [(1, False)]


def test_a_state_put_again_keeps_the_longer_time_it_had_left() -> None:
    """« Vous resterez en piste mais incapacité momentanément par la douleur jusqu’à la fin du prochain tour. »
    A Défi giving Tourmenté to a character already Tourmenté for 5 more turns (the state lasts 2): the longer time
    is kept, the other state's timer (Stoïque) left as it was, before it."""
    timers = [{"condition": "stoique", "turns": 1}, {"condition": "tourmente", "turns": 5}]
    sheet = rules.new_sheet(
        "severite", name="Ysolde", physique=2, conditions=["stoique", "tourmente"], turn_timers=timers
    )
    out = rules.apply(sheet, InflictWound(grade="grave", rolls=(6,)), random.Random(0))
    assert out.log[2].endswith("Ténacité Tourmentée. Reste en piste mais sans Action jusqu'à la fin du prochain tour.")
    assert out.sheet.conditions == ("stoique", "tourmente")
    assert [(t.condition, t.turns) for t in out.sheet.turn_timers] == [("stoique", 1), ("tourmente", 5)]


# Session 7, last round: the public lines appended without ``ctx.say`` (``_add_wound``, ``_defi``, ``_survival``).


def test_a_wound_its_defi_and_the_gauge_lowered_each_say_their_line() -> None:
    """« l’adrénaline engendrée vous fera baisser votre jauge de Trauma d’un cran » A Grave wound whose Défi gives
    Frénétique: the wound's line, the Défi's, then the gauge lowered by one notch; a Légère on a new sheet says
    that no Défi is asked."""
    sheet = rules.new_sheet("severite", name="Ysolde", physique=4)
    out = rules.apply(sheet, InflictWound(grade="grave", rolls=(10,)), random.Random(0))
    assert out.log[0] == "Blessure Grave : +3 crans de Trauma (0 → 3, palier 2 : Jouable (8))."
    assert "Ténacité Frénétique" in out.log[2]
    assert out.log[3:] == ("Jauge de Trauma : 3 → 2 (1 cran en moins).",)
    light = rules.apply(rules.new_sheet("severite", name="Ysolde"), InflictWound(grade="legere"), random.Random(0))
    assert light.log == (
        "Blessure Légère : +1 cran de Trauma (0 → 1, palier 1 : aucun test).",
        "Pas de Défi de Ténacité (palier 1 : aucun test).",
    )


def test_a_failed_survival_roll_is_told_before_the_death() -> None:
    """« C’est le moment de faire un jet de Survie à l’aide du D20 salvateur mais impitoyable qui sera votre dernier
    recours. » A Fatale wound on the head, the Jet de Survie failed: its line, then the death."""
    sheet = rules.new_sheet("severite", name="Ysolde")
    out = rules.apply(sheet, InflictWound(grade="fatale", severity=12, body_part="tete", rolls=(1,)), random.Random(0))
    assert out.log[1:] == (
        "Jet de Survie : 1d20 = 1 (valeur donnée) contre 12 (Sévérité 12) → échec.",
        "Ysolde meurt (Blessure Fatale, jet de Survie raté).",
    )
    assert out.sheet.dead


# Session 8: the common heal's flat path (``gauge._heal_tail``) takes the last wounds of the tuple.


def test_a_wound_lowered_but_not_healed_is_still_the_heaviest_at_the_next_care() -> None:
    """« En fonction de son niveau de réussite, cette Action accordera le retrait de cran de Trauma. » A Légère
    (n° 1) and a Grave (n° 2, 3 notches): care of 2 notches leaves the Grave at 1 notch; the next notch of care
    heals it (as heavy as the Légère, numbered higher: the latest first), the Légère stays."""
    lowered = heal(sheet_with((1, "legere", 1), (2, "grave", 3)), 2)
    assert [(w.id, w.notches) for w in lowered.sheet.wounds] == [(1, 1), (2, 1)]
    out = heal(lowered.sheet, 1)
    assert [(w.id, w.notches) for w in out.sheet.wounds] == [(1, 1)]
    assert out.log == ("Blessure n° 2 Grave guérie.", "Soins surnaturels : 1 cran de Trauma retirés (2 → 1).")


def test_the_common_heal_gives_what_the_whole_search_gives() -> None:
    """The flat path of the common heal (``_heal_tail``: the wounds lowered are the tuple's last ones) is held to
    ``_lower``, the search of every wound it stands in for: same sheet, same journal, same figures kept, on
    random sheets of rising numbers (or None when the wounds to lower are not the last ones)."""
    from rules.model import Context
    from rules.systems.severite import gauge

    rs = rules.ruleset("severite")
    r = random.Random(8)
    tried = 0
    for _ in range(400):
        count = r.randint(0, 12)
        wounds = [(i + 1, r.choice(["legere", "grave"]), r.choice([0, 1, 1, 2, 3, 5])) for i in range(r.randint(0, 8))]
        sheet = sheet_with(*wounds)
        found = gauge._figures(sheet.wounds)
        flat_ctx, full_ctx = Context(random.Random(0), rs), Context(random.Random(0), rs)
        flat = gauge._heal_tail(sheet, found, count, rs, flat_ctx)
        if flat is None:
            continue
        tried += 1
        full = gauge._lower(sheet, found, count, rs, full_ctx, None, None, True)
        assert flat[1] == full[1]
        assert flat[0].model_dump() == full[0].model_dump()
        assert (flat_ctx.log, flat_ctx.events) == (full_ctx.log, full_ctx.events)
        assert gauge._figures(flat[0].wounds)[1:] == gauge._figures(full[0].wounds)[1:]
    assert tried > 100


def test_each_care_tells_what_it_took_from_the_gauge() -> None:
    """« En fonction de son niveau de réussite, cette Action accordera le retrait de cran de Trauma. » Two cares of
    a gauge at 4, of 2 notches then of none: each line tells its own count (the lines are kept by gauge and count)."""
    sheet = sheet_with((1, "legere", 1), (2, "grave", 3))
    assert heal(sheet, 2).log[-1] == "Soins surnaturels : 2 crans de Trauma retirés (4 → 2)."
    assert heal(sheet, 0).log == ("Soins surnaturels : 0 cran de Trauma retirés (4 → 4).",)
    assert heal(sheet, 1).log[-1] == "Soins surnaturels : 1 cran de Trauma retirés (4 → 3)."


# Session 8: the hit's one-die rolls drawn without ``Context.dice``'s general path (``handlers._roll``).


@pytest.mark.parametrize("sides", [2, 4, 6, 10, 12, 20, 100])
def test_the_hits_own_draw_is_ctx_dice(sides: int) -> None:
    """The Défi's and the strike's dice (``_roll``, a copy of ``Context.dice``'s one-die draw) draw what ``ctx.dice``
    draws from the same generator: the same ``Roll`` for each of 1,500 draws, the generator left in the same state,
    the same rolls noted; values given with the action, and a generator that is not a plain ``random.Random``,
    go through ``ctx.dice`` itself."""
    from rules.dice import rule_plan
    from rules.model import Context
    from rules.systems.severite.handlers import _roll

    plan = rule_plan(1, sides)
    assert plan is not None

    class Scripted(random.Random):
        pass

    for make in (random.Random, Scripted):
        mine, theirs = make(sides), make(sides)
        ours, ref = Context(mine, None), Context(theirs, None)
        for _ in range(1500):
            assert _roll(ours, plan, "Défi") == ref.dice(1, sides, "Défi")
        assert mine.getstate() == theirs.getstate()
        assert ours.rolls == ref.rolls
        assert {r.total for r in ours.rolls} == set(range(1, sides + 1))
    given, asked = Context(random.Random(0), None, [sides]), Context(random.Random(0), None, [sides])
    assert _roll(given, plan, "Défi") == asked.dice(1, sides, "Défi")
    assert given.given == asked.given == [] and given.rolls == asked.rolls
    with pytest.raises(rules.Refused, match="Défi : 0 est impossible"):
        _roll(Context(random.Random(0), None, [0]), plan, "Défi")


# Session 8: the Défi's line, result and event kept by what they depend on; the sheet copied once.


def test_frenetique_lowers_the_new_wound_not_an_older_heavier_one() -> None:
    """« Une Ténacité Frénétique anime le personnage si la réussite est Impressionnante, l’adrénaline engendrée vous
    fera baisser votre jauge de Trauma d’un cran. » The notch comes off the wound that called for the Défi (n° 2,
    Grave), not the older Critique that weighs more; the Défi's event names its result."""
    sheet = rules.new_sheet(
        "severite", name="Ysolde", physique=4, tenacity_bonus=4, wounds=[{"id": 1, "grade": "critique", "notches": 4}]
    )
    out = rules.apply(sheet, InflictWound(grade="grave", rolls=(10,)), random.Random(0))
    assert "réussite Impressionnante (différence 6) : Ténacité Frénétique." in out.log[2]
    assert out.log[3] == "Jauge de Trauma : 7 → 6 (1 cran en moins)."
    assert [(w.id, w.notches) for w in out.sheet.wounds] == [(1, 4), (2, 2)]
    assert out.events == ("wound", "tenacity_frenetique")


def test_a_failed_defi_is_told_as_its_event_each_time() -> None:
    """« Si le Défi est échoué, vous êtes hors combat, ce qui veut dire que vous serez incapable d’agir jusqu’à la fin
    du Conflit. » The same failed Défi twice (its line kept the second time): each outcome has its line, the
    ``out_of_combat`` event and the state."""
    sheet = rules.new_sheet("severite", name="Ysolde", physique=0)
    for _ in range(2):
        out = rules.apply(sheet, InflictWound(grade="grave", rolls=(1,)), random.Random(0))
        assert out.log[2] == (
            "Défi de Ténacité contre Jouable (8) : 1d10 = 1 (valeur donnée) +0 (Physique) = 1 → échec : hors combat "
            "jusqu'à la fin du Conflit."
        )
        assert out.events == ("wound", "out_of_combat")
        assert out.sheet.conditions == ("hors_de_combat",)


def test_care_after_many_hits_in_a_row_takes_the_heaviest_wound() -> None:
    """« En fonction de son niveau de réussite, cette Action accordera le retrait de cran de Trauma. » Seventeen
    wounds land one after the other, Grave and Légère in turn, then a Légère (at the 17th hit the ranks noted apart
    are sorted in with the others, issue 15): three notches of care heal the latest Grave (n° 15), not the latest
    wounds (n° 16 and 17, Légère), which stay."""
    sheet = sheet_with()
    for grade in (*("grave", "legere") * 8, "legere"):
        sheet = rules.apply(sheet, InflictWound(grade=grade, tenacity_test=False)).sheet
    assert [w.id for w in sheet.wounds] == list(range(1, 18))
    out = heal(sheet, 3)
    assert [w.id for w in out.sheet.wounds] == [*range(1, 15), 16, 17]
    assert out.log[0].startswith("Blessure n° 15 ") and len(out.log) == 2


# Session 9: a strike's three lines kept by its rolls and what it adds; the common hit's new wound kept by its values.

BRIGANDINE = {
    "name": "Brigandine",
    "body_parts": ["torse"],
    "protections": [{"damage_type": "tranchant", "modifier": 2}],
}


def strike_outcomes(fresh: bool) -> list[Any]:
    """Strikes of every margin band, with and without the Modificateur de dégâts and the zone vitale, on a covered
    zone, a bare vital zone and a bare limb, each from the same dice (``fresh``: the kept lines and wounds dropped
    before each)."""
    from rules.systems.severite import gauge

    rs = rules.ruleset("severite")
    g = gauge.grid(rs)
    found = []
    for seed in range(4):
        for margin in (0, 1, 3, 5, 7, 10, 14):
            for modifier in (0, 2):
                for part, vital in (("torse", False), ("torse", True), ("abdomen", True), ("bras_gauche", False)):
                    for equipment in ([], [BRIGANDINE]):
                        if fresh:
                            g.strikes.clear()
                            for row in g.rows.values():
                                row.wounds.clear()
                        sheet = rules.new_sheet("severite", name="Ysolde", equipment=equipment)
                        action = rules.Strike(
                            margin=margin,
                            damage_type="tranchant",
                            body_part=part,
                            damage_modifier=modifier,
                            vital_zone=vital,
                            note="n" if seed % 2 else "",
                        )
                        out = rules.apply(sheet, action, random.Random(seed))
                        found.append((out.log, out.rolls, out.events, out.sheet.model_dump_json()))
    return found


def test_a_strikes_lines_kept_are_the_lines_it_makes() -> None:
    """« Le jet de Puissance comprend systématiquement un D4 auquel peut s’ajouter le Modificateur de dégâts et/ou
    d’Efficacité. » « Elle se définit sous la forme d’un jet de un D4 auquel s’ajoute un Modificateur de
    protection. » The same dice on strikes that differ only in their margin, Modificateur de dégâts, zone vitale,
    zone or protection: with the lines and wounds kept from the strikes before, each strike tells and leaves what it
    does with nothing kept."""
    kept = strike_outcomes(fresh=False)
    assert kept == strike_outcomes(fresh=True)
    logs = {out[0] for out in kept}
    assert len(logs) > 200  # the strikes differ in their lines
    assert any("+2 (mod. de dégâts)" in line for log in logs for line in log)
    assert any("+ 2 (Brigandine, tranchant)" in line for log in logs for line in log)


def test_a_molle_strike_says_what_it_leaves_out_whatever_was_kept() -> None:
    """« Une Puissance Molle n’apporte aucun ajout en dehors du D4. » « Une frappe portée sur une zone vitale peut se
    voir octroyer un Modificateur de plus. » The same D4s for a Percutante strike with both modifiers, then a Molle
    one: the Molle strike adds nothing and says so."""
    action = {"damage_type": "tranchant", "body_part": "torse", "damage_modifier": 1, "vital_zone": True}
    sheet = rules.new_sheet("severite", name="Ysolde")
    hard = rules.apply(sheet, rules.Strike(margin=1, **action), random.Random(2)).log[0]
    soft = rules.apply(sheet, rules.Strike(margin=0, **action), random.Random(2)).log[0]
    assert (
        hard.startswith("Puissance Percutante (différence 1) : 1d4 = ")
        and "+1 (mod. de dégâts) +1 (zone vitale)" in hard
    )
    assert soft.startswith("Puissance Molle (différence 0) : 1d4 = ")
    assert soft.endswith(" (aucun ajout en dehors du dé : ni Modificateur de dégâts, ni de zone vitale) = " + soft[-2:])


def test_each_common_hit_leaves_a_wound_of_its_own_values() -> None:
    """« Quand la valeur de Sévérité  est supérieure ou égale à 0, une Blessure a été infligée. » Hits of one wound
    number that differ in their Sévérité, zone, damage type or note (the wound is kept by these values): each
    leaves a wound holding its own, as validation would make it, its fields set those given."""
    given = {"id", "grade", "notches", "severity", "body_part", "damage_type", "psychological", "handicap",
             "handicap_penalty", "crippled", "note"}  # fmt: skip
    for start in (rules.new_sheet("severite", name="Ysolde"), sheet_with((1, "legere", 1))):
        for severity in (2, 3, 4, 6, 99):
            for part in (None, "bras_droit", "torse"):
                for kind in (None, "tranchant", "psychique"):
                    action = rules.Damage(amount=severity, body_part=part, damage_type=kind)
                    wound = rules.apply(start, action, random.Random(0)).sheet.wounds[-1]
                    expected = rules.new_sheet("severite", wounds=[wound.model_dump(exclude_defaults=True)]).wounds[0]
                    assert wound == expected
                    assert wound.model_fields_set == given
                    assert (wound.__pydantic_extra__, wound.__pydantic_private__) == (None, None)
                    assert (expected.__pydantic_extra__, expected.__pydantic_private__) == (None, None)
                    assert (wound.id, wound.severity, wound.body_part, wound.damage_type) == (
                        len(start.wounds) + 1,
                        min(severity, 1000),
                        part,
                        kind,
                    )
                    assert wound.psychological == (kind == "psychique")
        for note in ("", "n", ""):
            action = rules.Strike(
                margin=3, damage_type="tranchant", body_part="bras_droit", damage_modifier=4, note=note
            )
            assert rules.apply(start, action, random.Random(0)).sheet.wounds[-1].note == note


def test_the_wounds_kept_for_the_common_hit_stay_few() -> None:
    """The new wounds kept per grade (one object for the same values) start again past ``_WOUNDS_KEPT``: 600 hits
    of different numbers keep no more, and each hit still leaves its own number."""
    from rules.systems.severite import gauge

    row = gauge.grid(rules.ruleset("severite")).rows["legere"]
    for n in range(600):
        sheet = sheet_with((n + 1, "benigne", 0))
        assert rules.apply(sheet, rules.Damage(amount=2), random.Random(0)).sheet.wounds[-1].id == n + 2
        assert len(row.wounds) <= gauge._WOUNDS_KEPT


def test_a_zone_vitale_worth_nothing_under_a_house_table_is_not_told() -> None:
    """« Une frappe portée sur une zone vitale peut se voir octroyer un Modificateur de plus. » A house table whose
    Modificateur de zone vitale is 0: a strike on the torse asked with it adds nothing and says nothing of it, the
    same dice as the shipped table's strike that adds its +1."""
    rs = rules.ruleset("severite")
    house = rs.model_copy(update={"power": rs.power.model_copy(update={"vital_zone_modifier": 0})})
    sheet = rules.new_sheet("severite", name="Ysolde")
    action = rules.Strike(margin=1, damage_type="tranchant", body_part="torse", vital_zone=True)
    shipped = rules.apply(sheet, action, random.Random(5))
    house_out = rules.apply(sheet, action, random.Random(5), rules_table=house)
    die = shipped.rolls[0]
    assert house_out.rolls[0] == die
    assert shipped.log[0] == f"Puissance Percutante (différence 1) : {die.detail} +1 (zone vitale) = {die.total + 1}."
    assert house_out.log[0] == f"Puissance Percutante (différence 1) : {die.detail} = {die.total}."


def test_a_common_hits_sheet_is_what_with_values_makes() -> None:
    """``_inflict`` makes the hit's sheet as ``with_values`` makes it: the same object as ``with_values`` would
    give (fields in order, fields set shared, no extra, no private, frozen), for a hit noted calmly, one on a
    character spared the Défi, and one on a sheet whose fields set is its own."""
    import pydantic

    from rules.model import with_values

    calm = rules.new_sheet("severite", name="Ysolde")
    spared = calm.model_copy(update={"conditions": ("hors_de_combat",)})
    for sheet in (calm, spared, sheet_with((1, "legere", 1), (2, "legere", 1), (3, "legere", 1))):
        out = rules.apply(sheet, rules.Damage(amount=3, body_part="bras_droit"), random.Random(0))
        new = out.sheet
        assert not any(line.startswith("Défi") for line in out.log)  # the common hit's own copy
        made = with_values(sheet, {**sheet.__dict__, "wounds": new.wounds})
        assert type(new) is type(made)
        assert list(new.__dict__.items()) == list(made.__dict__.items())
        assert new.__pydantic_fields_set__ is sheet.__pydantic_fields_set__ is made.__pydantic_fields_set__
        assert new.__pydantic_extra__ is None and new.__pydantic_private__ is None
        assert new == made and new.model_dump_json() == made.model_dump_json() and repr(new) == repr(made)
        with pytest.raises(pydantic.ValidationError, match="frozen"):
            new.name = "x"


def test_a_defi_asked_alone_is_told_as_its_event() -> None:
    """« Même en dehors d’un combat, le Meneur de Jeu peut demander à un joueur de faire un Défi de Ténacité lorsqu’un
    personnage au travers d’une action prend le risque d’empirer son état. » A Défi asked alone (no wound before
    it, so no event yet): its outcome carries its event, failed or not."""
    sheet = rules.new_sheet("severite", name="Ysolde", physique=0)
    failed = rules.apply(sheet, TenacityTest(opposition=8, rolls=(1,)), random.Random(0))
    assert failed.events == ("out_of_combat",)
    passed = rules.apply(sheet, TenacityTest(opposition=8, rolls=(9,)), random.Random(0))
    assert passed.events == ("tenacity_tourmentee",)


def test_a_common_hit_on_a_character_out_of_the_fight_rolls_no_defi_the_first_time() -> None:
    """« Si le Défi est échoué, vous êtes hors combat, ce qui veut dire que vous serez incapable d’agir jusqu’à la fin
    du Conflit. » A hit past the gauge on a character already out of the fight, under a table never used before
    (nothing kept yet): no Défi, the line that says why; the same again once the line is kept."""
    rs = rules.ruleset("severite")
    sheet = sheet_with(*((i, "legere", 1) for i in range(1, 21))).model_copy(update={"conditions": ("hors_de_combat",)})
    line = "Pas de Défi de Ténacité pour Ysolde, déjà dans l'état : Hors combat."
    house = rs.model_copy()
    for _ in range(2):
        out = rules.apply(sheet, rules.Damage(amount=3, body_part="bras_droit"), random.Random(0), rules_table=house)
        assert out.log[-1] == line and out.rolls == ()
        assert out.sheet.conditions == ("hors_de_combat",)


def test_a_hit_rolled_below_zero_leaves_no_wound() -> None:
    """« Si le résultat est négatif, cela signifie que l’attaque n’a pas causé suffisamment de dommages pour créer une
    Blessure. » A Sévérité typed as dice that rolls below 0 is kept below 0 (not raised to 0, a Bénigne wound)."""
    sheet = rules.new_sheet("severite", name="Ysolde")
    out = rules.apply(sheet, rules.Damage(amount="1d4-5"), random.Random(0))
    total = out.rolls[0].total
    assert total < 0
    assert out.log[-1] == f"Sévérité −{-total} : pas assez de dommages pour créer une Blessure."
    assert out.sheet.wounds == () and out.events == ("no_wound",)
