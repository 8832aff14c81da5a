"""d20 (seed 001): the rule table, sheet validation, JSON, the facade and how the system describes itself."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import rules
from tests.rules.helpers import broken_table_message

TABLE = Path(rules.__file__).parent.parent / "resources" / "rulesets" / "d20.toml"


def broken_copy(tmp_path: Path, old: str, new: str) -> Path:
    text = TABLE.read_text("utf-8")
    assert old in text
    path = tmp_path / "maison.toml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


# --- Rule table -----------------------------------------------------------------------------------


def test_shipped_table_loads() -> None:
    table = rules.ruleset("d20")
    assert isinstance(table, rules.D20Rules)
    assert "d20" in rules.SYSTEMS
    assert table.thresholds.death_at == -10
    assert table.massive_damage.threshold == 50


def test_broken_table_names_file_and_field(tmp_path: Path) -> None:
    message = broken_table_message("d20", TABLE, tmp_path, "first_aid_dd = 15", 'first_aid_dd = "quinze"')
    assert "dying" in message and "first_aid_dd" in message and "entier" in message


def test_table_typo_and_missing_key(tmp_path: Path) -> None:
    path = broken_copy(tmp_path, "stabilise_chance = 10", "stabilise_chanse = 10")
    with pytest.raises(rules.RulesetError) as err:
        rules.load_rules_table("d20", path)
    message = str(err.value)
    assert "stabilise_chanse" in message and "n'est pas un champ connu" in message
    assert "stabilise_chance" in message and "manque" in message


def test_table_out_of_range_percent(tmp_path: Path) -> None:
    path = broken_copy(tmp_path, "assisted_wake_chance = 10", "assisted_wake_chance = 110")
    with pytest.raises(rules.RulesetError, match=r"assisted_wake_chance.*inférieur ou égal à 100"):
        rules.load_rules_table("d20", path)


def test_table_dangling_condition(tmp_path: Path) -> None:
    path = broken_copy(tmp_path, 'implies = ["sans_defense"]', 'implies = ["sans_defence"]')
    with pytest.raises(rules.RulesetError, match="état inconnu « sans_defence »"):
        rules.load_rules_table("d20", path)


def test_table_syntax_error(tmp_path: Path) -> None:
    path = broken_copy(tmp_path, "[dying]", "[dying")
    with pytest.raises(rules.RulesetError, match="syntaxe TOML"):
        rules.load_rules_table("d20", path)


def test_house_rules_table_changes_the_rules(tmp_path: Path) -> None:
    """A GM's copy changes a number without code: nights heal twice the level."""
    table = rules.load_rules_table("d20", broken_copy(tmp_path, "night_per_level = 1", "night_per_level = 2"))
    s = rules.new_sheet("d20", level=3, base_maximum=30, current=10)
    assert rules.apply(s, rules.LongRest(), rules_table=table).sheet.current == 16
    assert rules.apply(s, rules.LongRest()).sheet.current == 13
    assert "+6 PV par nuit" in rules.derive(s, table).explain("natural_healing")


def test_house_rules_temporary_pv_absorbing_nonlethal(tmp_path: Path) -> None:
    """« Ne les déduisez surtout pas de son nombre de points de vie ! » — temporary PV do not take nonlethal
    damage (T5), unless a GM's table says they do: then they absorb what they can, no more."""
    s = rules.new_sheet("d20", level=3, base_maximum=30, current=20, temporary=4)
    shipped = rules.apply(s, rules.Damage(amount=7, nonlethal=True)).sheet
    assert (shipped.temporary, shipped.nonlethal) == (4, 7)
    table = rules.load_rules_table("d20", broken_copy(tmp_path, "absorb_nonlethal = false", "absorb_nonlethal = true"))
    out = rules.apply(s, rules.Damage(amount=7, nonlethal=True), rules_table=table)
    assert (out.sheet.current, out.sheet.temporary, out.sheet.nonlethal) == (20, 0, 3)
    assert "4 absorbés par les PV temporaires" in "\n".join(out.log)
    small = rules.apply(s, rules.Damage(amount=3, nonlethal=True), rules_table=table).sheet
    assert (small.temporary, small.nonlethal) == (1, 0)


# --- Sheets ---------------------------------------------------------------------------------------


def test_bad_new_sheet_fields_give_french_lines() -> None:
    with pytest.raises(rules.SheetError) as err:
        rules.new_sheet("d20", level=0, base_maximum=0, recovery="perdu", couleur="bleu")
    assert err.value.lines == [
        "« niveau » : doit être supérieur ou égal à 1",
        "« maximum » : doit être supérieur ou égal à 1",
        "« récupération » : récupération inconnue (attendu : aucune ; stabilisation avec assistance, sans "
        "connaissance ; stabilisation sans assistance, sans connaissance ; réveil sans assistance, la guérison n'a "
        "pas commencé ; réveil, guérison au rythme habituel)",
        "« couleur » : n'est pas un champ connu",
    ]
    assert err.value.reason.startswith("Fiche invalide")


def test_current_above_maximum_refused() -> None:
    with pytest.raises(rules.SheetError, match="dépassent le maximum"):
        rules.new_sheet("d20", base_maximum=10, current=50)
    # Only the maximum given: the character starts unhurt.
    assert rules.new_sheet("d20", base_maximum=25).current == 25


def test_duplicate_wound_numbers_refused() -> None:
    wound = {"id": 1, "body_part": "main_droite"}
    with pytest.raises(rules.SheetError, match="même numéro"):
        rules.new_sheet("d20", wounds=[wound, wound])


def test_json_round_trip() -> None:
    demo = rules.demo_sheet("d20")
    again = rules.sheet_from_json(rules.sheet_to_json(demo))
    assert isinstance(again, rules.D20Sheet)
    assert again == demo
    busy = rules.new_sheet(
        "d20",
        name="Éloïse « la Brûlée »",
        current=-4,
        recovery="alone",
        recovery_roll_at=7200,
        nonlethal=3,
        nonlethal_heal_at=3600,
        constitution_damage=2,
        wisdom_drain=1,
        conditions=["chancelant"],
        soul_lost=False,
        quick_failures=1,
    )
    assert rules.sheet_from_data(rules.sheet_to_data(busy)) == busy
    assert rules.sheet_from_json(rules.sheet_to_json(busy, indent=None)) == busy


def test_bad_json_gives_french_lines() -> None:
    with pytest.raises(rules.SheetError) as err:
        rules.sheet_from_json('{"system": "d20", "current": "beaucoup"}')
    assert err.value.lines == ["« points actuels » : doit être un nombre entier"]


def test_apply_never_mutates() -> None:
    s = rules.demo_sheet("d20")
    before = s.model_dump()
    for action in (
        rules.Damage(amount=12, body_part="tete"),
        rules.Damage(amount=55),
        rules.Heal(amount=4, magical=True),
        rules.LoseTemporary(),
        rules.AdvanceTime(unit="hour", count=5),
        rules.LongRest(),
        rules.SetConstitutionBonus(level=0),
        rules.AbilityDamage(ability="constitution", points=30),
        rules.Edit(changes={"fortitude": 3}),
    ):
        rules.apply(s, action, rng=random.Random(1))
        assert s.model_dump() == before


def test_edit_journal_in_french_and_con_pv_follow() -> None:
    s = rules.new_sheet("d20", level=2, constitution=12, base_maximum=20)
    out = rules.apply(s, rules.Edit(changes={"fortitude": 3, "constitution_damage": 2}))
    log = "\n".join(out.log)
    assert "Vigueur (bonus au jet) : 0 → 3." in log
    assert "Affaiblissement de Constitution : 0 → 2." in log
    assert out.sheet.current == 18  # +1 → +0 modifier, 2 levels
    assert rules.derive(out.sheet).maximum == 18


def test_demo_is_a_meaningful_character() -> None:
    demo = rules.demo_sheet("d20")
    d = rules.derive(demo)
    assert demo.name and demo.wounds and demo.temporary and demo.constitution_bonus
    assert d.state == "chancelant"
    assert d.maximum > demo.base_maximum
    assert d.attack_modifier == -4


# --- Facade and description -----------------------------------------------------------------------


def test_describe_for_the_ui() -> None:
    info = rules.describe("d20")
    assert info.points_short == "PV"
    assert [s.id for s in info.health_states] == [
        "en_forme",
        "chancelant",
        "hors_de_combat",
        "inconscient",
        "stabilise",
        "mourant",
        "mort",
    ]
    assert all(s.colour.startswith("#") for s in info.health_states)
    assert all(c.effects for c in info.conditions)
    assert {"temporary", "nonlethal", "stabilise", "local_wounds", "full_day_rest", "resurrection"} <= info.features
    assert (rules.FullDayRest, "Journée complète de repos") in info.rests
    assert [u.id for u in info.time_units] == ["round", "minute", "hour", "day", "night", "full_day"]
    assert (rules.StartTurn in info.actions, rules.EndRound in info.actions, info.round_unit) == (True, True, "round")
    assert info.ladders[0].action is rules.SetConstitutionBonus
    assert dict(info.extra["body_part_choices"])["main_droite"] == "Main droite"
    assert rules.Resurrection in info.actions and rules.Edit in info.actions
    names = {f.name for f in info.fields}
    assert {"constitution", "constitution_damage", "constitution_drain", "base_maximum", "fortitude"} <= names
    assert all(f.label and f.label[0].isupper() for f in info.fields)


def test_every_action_has_a_french_title() -> None:
    for action_type in rules.describe("d20").actions:
        assert rules.supports("d20", action_type)
    assert not rules.supports("d20", rules.ShortRest)
    samples = [
        rules.StrenuousAction(),
        rules.FullDayRest(),
        rules.AddLocalWound(body_part="pied_gauche"),
        rules.HealLocalWound(wound_id=1),
        rules.AbilityDamage(ability="wisdom", points=2),
        rules.RestoreAbility(ability="wisdom", points=2),
        rules.Resurrection(),
        rules.SetConstitutionBonus(level=4),
    ]
    for action in samples:
        assert action.title() != action.kind


def test_short_rest_does_not_exist_in_d20() -> None:
    with pytest.raises(rules.Refused, match="n'existe pas dans les règles d20"):
        rules.apply(rules.new_sheet("d20"), rules.ShortRest())


def test_unknown_time_unit_and_missing_dice_refused() -> None:
    with pytest.raises(rules.Refused, match="Unité de temps inconnue"):
        rules.apply(rules.new_sheet("d20"), rules.AdvanceTime(unit="segment"))
    s = rules.apply(rules.new_sheet("d20", current=0), rules.StrenuousAction()).sheet
    with pytest.raises(rules.NeedsRoll, match="1d100"):
        rules.apply(s, rules.AdvanceTime(unit="round", count=2))
    with pytest.raises(rules.Refused, match="impossible sur 1d100"):
        rules.apply(s, rules.AdvanceTime(unit="round", count=2, rolls=(101,)))


# --- What a file may hold (issue 16 items 14 and 16) ----------------------------------------------


def data(**fields: object) -> dict[str, object]:
    base = rules.sheet_to_data(rules.new_sheet("d20", name="Brenna", level=1, base_maximum=39))
    base.update(fields)
    return base


def test_unknown_ids_from_a_file_are_refused_against_the_table(tmp_path: Path) -> None:
    """“Unknown ids from a file are accepted: a condition `ljnteur` … load silently” (issue 16 item 14)."""
    with pytest.raises(rules.SheetError) as err:
        rules.sheet_from_json(json.dumps(data(conditions=["ljnteur", "mourant"])))
    assert err.value.lines[0].startswith("« états › n° 1 » : état inconnu « ljnteur » (états à poser : Chancelant")
    assert (
        err.value.lines[1]
        == "« états › n° 2 » : l'état Mourant découle des points de vie : on ne le pose pas à la main"
    )
    assert err.value.locations == [("conditions", 0), ("conditions", 1)]
    tail = data(wounds=[{"id": 1, "body_part": "queue"}])
    with pytest.raises(rules.SheetError) as err:
        rules.sheet_from_data(tail)
    assert err.value.lines[0].startswith("« blessures › n° 1 › partie du corps » : partie du corps inconnue « queue »")
    assert err.value.locations == [("wounds", 0, "body_part")]
    # A GM's table that knows the part reads the same file (the check takes the table it is given).
    house = rules.load_rules_table("d20", broken_copy(tmp_path, 'pieds = "Les deux pieds"', 'queue = "Queue"'))
    assert rules.sheet_from_data(tail, rules_table=house).wounds[0].body_part == "queue"
    with pytest.raises(rules.SheetError):
        rules.new_sheet("d20", conditions=["ljnteur"])


def test_pv_above_the_effective_maximum_are_refused_from_a_file_and_by_edit() -> None:
    """“d20 `current` above the effective maximum is accepted from a file and by `Edit` on a dead character with
    Constitution damage” (issue 16 item 16): the maximum a file is checked against is the one the rules give."""
    corpse = data(constitution=3, constitution_damage=3, dead=True, current=39)  # maximum 39 − 1 = 38
    with pytest.raises(rules.SheetError) as err:
        rules.sheet_from_json(json.dumps(corpse))
    assert err.value.lines == ["« points actuels » : les PV (39) dépassent le maximum (38)"]
    assert err.value.locations == [("current",)]
    at_max = rules.sheet_from_data({**corpse, "current": 38})
    with pytest.raises(rules.Refused, match=r"Les PV \(39\) ne peuvent pas dépasser le maximum \(38\)"):
        rules.apply(at_max, rules.Edit(changes={"current": 39}))
    healed_con = rules.apply(at_max, rules.Edit(changes={"constitution_damage": 1})).sheet
    assert (healed_con.current, rules.derive(healed_con).maximum) == (38, 39)  # the dead regain nothing
    lowered = rules.apply(at_max, rules.Edit(changes={"base_maximum": 30})).sheet
    assert lowered.current == rules.derive(lowered).maximum == 29


@pytest.mark.parametrize(
    ("fields", "where", "words"),
    [
        (
            {"death_cause": "chute"},
            ("death_cause",),
            "une cause de la mort est notée alors que « Mort » n'est pas coché",
        ),
        ({"soul_lost": True}, ("soul_lost",), "l'âme est notée perdue"),
        ({"quick_blocked": True}, ("quick_blocked",), "la résurrection rapide est notée interdite"),
        ({"recovery": "alone"}, ("recovery",), "une récupération (stabilisation sans assistance"),
        ({"dead": True, "current": -12, "recovery": "alone"}, ("recovery",), "a perdu la vie"),
        ({"dead": True, "nonlethal": 3, "nonlethal_heal_at": 3600}, ("nonlethal_heal_at",), "a perdu la vie"),
        ({"dying_roll_at": 6}, ("dying_roll_at",), "l'état n'est pas Mourant"),
        ({"recovery_roll_at": 3600}, ("recovery_roll_at",), "sans récupération en cours"),
        ({"nonlethal_heal_at": 3600}, ("nonlethal_heal_at",), "sans dégâts"),
        ({"temporary_noted": 5}, ("temporary_noted",), "des PV sont notés sans PV temporaires"),
        ({"current": -3, "clock": 600, "dying_roll_at": 6}, ("dying_roll_at",), "est avant l'horloge"),
        ({"last_rest_at": 60}, ("last_rest_at",), "après l'horloge"),
        ({"clock": 10**13}, ("clock",), "doit être inférieur ou égal à"),
    ],
)
def test_fields_that_contradict_each_other_are_refused(
    fields: dict[str, object], where: tuple[str, ...], words: str
) -> None:
    """“Every stored field has a bound and a cross-field check, the same on load, on edit and after every
    action” (issue 16 item 16): each contradiction is refused from a file, in French, where it sits."""
    with pytest.raises(rules.SheetError) as err:
        rules.sheet_from_data(data(**fields))
    assert where in err.value.locations, err.value.lines
    assert any(words in line for line in err.value.lines), err.value.lines


def test_every_stored_field_is_bounded() -> None:
    """“Unbounded values: `clock` … accept 10^400 and 4,300 digits” (issue 16 item 16): every number and text of a
    d20 sheet has a bound, refused in French from a file."""
    for name in rules.D20Sheet.model_fields:
        if name == "system":
            continue
        shown = rules.sheet_to_data(rules.new_sheet("d20"))[name]
        if isinstance(shown, bool):
            continue
        huge: object = "x" * 30_000 if isinstance(shown, str) else 10**20
        if isinstance(shown, list):
            huge = ["x" * 100] * 300
        if shown is None:
            huge = 10**20
        with pytest.raises(rules.SheetError) as err:
            rules.sheet_from_data(data(**{name: huge}))
        assert err.value.lines, name
        assert all("_" not in line for line in err.value.lines), (name, err.value.lines)
