"""Under house rules, every derived number's explanation and every journal names the house values it
uses (issue 18: « every derived number's explanation names a house value when one is used »)."""

from __future__ import annotations

import random

import pytest

import rules
from rules import house
from tests.rules.house_helpers import set_key


def brume(system_id: str, *changes: tuple[tuple[str, ...], object]) -> house.HouseRules:
    text = house.export_base(system_id)
    for path, value in changes:
        text, _ = set_key(text, path, value)
    text = text.replace(f'title = "Règles maison {rules.system(system_id).label}"', 'title = "Campagne de Brume"')
    return house.parse_house_rules(system_id, text, "brume.toml")


def dying_douaratil(table: object) -> object:
    sheet = rules.demo_sheet("douaratil")
    return rules.apply(sheet, rules.Damage(amount=sheet.current), random.Random(3), rules_table=table).sheet


def test_the_house_rules_have_a_title_and_say_what_differs() -> None:
    rules_ = brume("douaratil", (("saves", "death_save_success"), 12))
    assert rules_.title == "Campagne de Brume"
    assert len(rules_.differences) == 1
    (line,) = rules_.difference_lines()
    assert line.endswith("(saves.death_save_success) : 12 au lieu de 10"), line


def test_a_derived_number_names_the_house_value_it_uses() -> None:
    rules_ = brume("douaratil", (("saves", "death_save_success"), 12))
    sheet = dying_douaratil(rules_.table)
    derived = rules.derive(sheet, rules_.table)
    assert "12 ou plus" in derived.explain("death_saves")
    assert derived.explain("death_saves").endswith("règles maison : saves.death_save_success = 12 au lieu de 10")
    # A number this value has nothing to do with says nothing of it.
    assert "règles maison" not in derived.explain("maximum")
    # The base rules explain without any note; the values themselves are the same objects' values.
    plain = rules.derive(sheet)
    assert "règles maison" not in plain.explain("death_saves")
    assert derived.maximum == plain.maximum


def test_a_value_that_changes_nothing_here_is_not_named() -> None:
    rules_ = brume("douaratil", (("exhaustion", "maximum_per_level"), 3))
    sheet = rules.demo_sheet("douaratil")
    fresh = rules.evolve(sheet, exhaustion=0)
    assert "règles maison" not in rules.derive(fresh, rules_.table).explain("maximum")
    tired = rules.evolve(sheet, exhaustion=2)
    assert "exhaustion.maximum_per_level = 3 au lieu de 1" in rules.derive(tired, rules_.table).explain("maximum")


@pytest.mark.parametrize("roll", [10, 11])
def test_a_death_save_under_house_rules_uses_and_names_the_new_threshold(roll: int) -> None:
    rules_ = brume("douaratil", (("saves", "death_save_success"), 12))
    sheet = dying_douaratil(rules_.table)
    house_outcome = rules.apply(sheet, rules.DeathSave(rolls=[roll]), rules_table=rules_.table)
    base_outcome = rules.apply(sheet, rules.DeathSave(rolls=[roll]))
    assert house_outcome.sheet.death_failures == 1 and base_outcome.sheet.death_successes == 1
    assert house_outcome.log[-1] == "Règles maison en jeu : saves.death_save_success = 12 au lieu de 10."
    assert not any("Règles maison" in line for line in base_outcome.log)


def test_an_outcome_the_house_value_does_not_change_adds_no_line() -> None:
    rules_ = brume("douaratil", (("saves", "death_save_success"), 12))
    sheet = dying_douaratil(rules_.table)
    outcome = rules.apply(sheet, rules.DeathSave(rolls=[15]), rules_table=rules_.table)
    assert not any(line.startswith("Règles maison en jeu") for line in outcome.log)


def test_the_dice_are_the_same_with_and_without_the_notes() -> None:
    """The replays that find the house values use copies of the generator: the dice drawn by the action
    and those drawn after it are the ones the action alone would have drawn."""
    rules_ = brume("douaratil", (("saves", "death_save_success"), 12))
    sheet = dying_douaratil(rules_.table)
    noted, plain_rng = random.Random(7), random.Random(7)
    outcome = rules.apply(sheet, rules.DeathSave(), noted, rules_table=rules_.table)
    alone = rules._apply(sheet, rules.DeathSave(), plain_rng, rules_.table)
    assert outcome.sheet == alone.sheet and outcome.log[: len(alone.log)] == alone.log
    assert noted.random() == plain_rng.random()


def test_a_refusal_due_to_a_house_value_says_so() -> None:
    rules_ = brume("douaratil", (("rests", "long_min_hours"), 10))
    sheet = rules.demo_sheet("douaratil")
    with pytest.raises(rules.Refused) as caught:
        rules.apply(sheet, rules.LongRest(hours=8), random.Random(1), rules_table=rules_.table)
    assert caught.value.reason == (
        "Un repos long dure au moins 10 heures. (Règles maison : rests.long_min_hours = 10 au lieu de 8.)"
    )
    # With the base rules the same rest is taken.
    assert rules.apply(sheet, rules.LongRest(hours=8), random.Random(1)).sheet != sheet


def test_a_state_due_to_a_house_value_names_it() -> None:
    rules_ = brume("d20", (("thresholds", "disabled_at"), 5))
    sheet = rules.new_sheet("d20", base_maximum=20, current=20)
    hit = rules.apply(sheet, rules.Damage(amount=16), random.Random(1), rules_table=rules_.table)
    derived = rules.derive(hit.sheet, rules_.table)
    assert derived.state != rules.derive(hit.sheet).state
    assert "thresholds.disabled_at = 5 au lieu de 0" in derived.explain("state")


def test_house_rules_equal_to_the_base_rules_add_nothing() -> None:
    same = house.parse_house_rules("segments", house.export_base("segments"), "copie.toml")
    assert same.table is not rules.ruleset("segments") and same.differences == ()
    sheet = rules.demo_sheet("segments")
    derived = rules.derive(sheet, same.table)
    assert type(derived) is rules.Derived
    outcome = rules.apply(sheet, rules.Damage(amount=3), random.Random(2), rules_table=same.table)
    assert outcome == rules.apply(sheet, rules.Damage(amount=3), random.Random(2))


def test_d20_death_at_minus_constitution_is_a_house_switch() -> None:
    """The seed says « À partir de –10 points de vie, il est mort. »; a GM who plays death as seed 002 does
    (« meurt quand il atteint l'opposé de sa valeur de Constitution ») switches
    ``thresholds.death_at_minus_constitution`` on: a CON 14 character dies at −14, not −10."""
    assert rules.ruleset("d20").thresholds.death_at_minus_constitution is False
    rules_ = brume("d20", (("thresholds", "death_at_minus_constitution"), True))
    sheet = rules.new_sheet("d20", base_maximum=20, current=20, constitution=14)
    hit = rules.apply(sheet, rules.Damage(amount=32), random.Random(1), rules_table=rules_.table).sheet
    assert hit.current == -12
    assert rules.derive(hit).state == "mort"
    derived = rules.derive(hit, rules_.table)
    assert derived.state == "mourant"
    assert derived.death_threshold == -14
    assert derived.explain("death_threshold").startswith("mort à −14 PV ou moins (moins la Constitution)")
    assert "thresholds.death_at_minus_constitution = true au lieu de false" in derived.explain("state")
    at_14 = rules.apply(hit, rules.Damage(amount=2), random.Random(1), rules_table=rules_.table).sheet
    assert rules.derive(at_14, rules_.table).state == "mort"
    # A lower Constitution brings death nearer, never above the dying range's first point.
    weak = rules.new_sheet("d20", base_maximum=20, current=-1, constitution=1)
    assert rules.derive(weak, rules_.table).death_threshold == -1


def test_replays_leave_a_scripted_generator_where_the_real_roll_left_it() -> None:
    """The journal's “Règles maison en jeu” replays the action on copies of the dice: a generator whose
    constructor takes arguments is copied too, and only the real roll moves it."""
    import random as _random

    class Scripted(_random.Random):
        def __init__(self, script: list[int]) -> None:
            super().__init__(0)
            self.script = script
            self.used = 0

        def randint(self, a: int, b: int) -> int:
            value = self.script[self.used]
            self.used += 1
            return value

        def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:  # type: ignore[override]
            # The script holds faces (1 to 6): randrange(6) draws 0 to 5, randrange(1, 7) 1 to 6.
            return self.randint(1, 6) - 1 + (0 if stop is None else start)

    table = rules.ruleset("douaratil")
    twelve = table.model_copy(update={"saves": table.saves.model_copy(update={"death_save_success": 12})})
    sheet = rules.demo_sheet("douaratil")
    dying = rules.apply(sheet, rules.Damage(amount=sheet.current, rolls=(18,))).sheet
    dice = Scripted([5, 1, 5, 6, 6, 6])
    outcome = rules.apply(dying, rules.DeathSave(), rng=dice, rules_table=twelve)
    assert dice.used == 3
    assert "= 11" in outcome.log[0] and "échec" in outcome.log[0], outcome.log
    assert outcome.log[-1] == "Règles maison en jeu : saves.death_save_success = 12 au lieu de 10."
