"""Issue 19 after issue 15's speed work: tests that kill the surviving mutants of the functions changed since
2330f5e (the shared apply path, ``sheet_from_data``, Segments' ``damage``, Sévérité's ``_lower_gauge``); each
names the mutant it was written for. The measure: docs/testing.md, « Session 4: the code changed after the
scores »."""

from __future__ import annotations

import random

import pytest

import rules
from rules import dice


def test_an_amount_read_without_a_generator_is_read_as_with_one() -> None:
    """``parse_amount`` without a generator (its path before the fast one): a number given as such, typed or
    not, is its own roll, text and detail the same (``x_parse_amount__mutmut_24``, ``_29``, ``_38``)."""
    assert dice.parse_amount(7, None, "Dégâts") == dice.Roll("7", 7, "7", given=True)
    assert dice.parse_amount(" 12 ", None, "Dégâts") == dice.Roll("12", 12, "12", given=True)
    assert dice.parse_amount(" 12 ", None, "Dégâts") == dice.parse_amount(" 12 ", random.Random(0), "Dégâts")


@pytest.mark.parametrize("data", [{}, {"name": "Ysolde"}, []])
def test_data_naming_no_system_is_refused_in_french(data: object) -> None:
    """Data that names no system is a ``SheetError`` in French, not a crash (``x_sheet_from_data__mutmut_2``)."""
    with pytest.raises(rules.SheetError, match=r"^Fiche invalide : "):
        rules.sheet_from_data(data)
    with pytest.raises(rules.SheetError, match=r"^Fiche invalide : "):
        rules.sheet_from_data(data, strict=True)


def test_strict_data_refuses_a_number_written_as_text() -> None:
    """As read from a file (``strict``), « 3 » written as text is no integer for a known system's sheet;
    the same data read loosely is accepted (``x_sheet_from_data__mutmut_21``, ``_26``)."""
    data = rules.sheet_to_data(rules.new_sheet("douaratil", name="Ysolde"))
    data["level"] = "3"
    assert rules.sheet_from_data(data).level == 3  # type: ignore[union-attr]
    with pytest.raises(rules.SheetError) as err:
        rules.sheet_from_data(data, strict=True)
    assert err.value.locations == [("level",)]


def test_a_sheet_error_counts_every_error_not_only_those_written() -> None:
    """Ten wrong fields: the message writes the first few, its count says ten (``x__invalid_sheet__mutmut_51``)."""
    data = rules.sheet_to_data(rules.new_sheet("douaratil", name="Ysolde"))
    fields = ["strength", "dexterity", "constitution", "intelligence", "wisdom", "charisma", "current", "xp"]
    fields += ["base_maximum", "temporary"]
    for field in fields:
        data[field] = "beaucoup"
    with pytest.raises(rules.SheetError) as err:
        rules.sheet_from_data(data)
    assert err.value.count == len(fields)
    assert len(err.value.lines) < len(fields)


def test_an_action_type_not_routed_yet_is_routed_on_first_use(monkeypatch: pytest.MonkeyPatch) -> None:
    """``_apply`` works out each action type's route once (``_ROUTES``); a type met for the first time gets
    its route then: a state put for two rounds notes its timer, and the round after counts it down
    (``x__route__mutmut_4``, ``_5``, ``x__apply__mutmut_34``: ``_ROUTES`` is filled once per process, before
    mutmut's forks, so these need it empty)."""
    monkeypatch.setattr(rules, "_ROUTES", {})
    sheet = rules.new_sheet("douaratil", name="Ysolde")
    put = rules.apply(sheet, rules.SetCondition(condition="aveugle", duration=2, unit="round"), random.Random(1))
    assert [t.condition for t in put.sheet.condition_timers] == ["aveugle"]
    monkeypatch.setattr(rules, "_ROUTES", {})
    later = rules.apply(put.sheet, rules.AdvanceTime(count=2, unit="round"), random.Random(1))
    assert "aveugle" not in later.sheet.conditions and not later.sheet.condition_timers


def test_a_segments_hit_of_typed_dice_writes_its_roll_and_a_typed_number_does_not() -> None:
    """Segments: a hit of « 1d6 » typed names its roll in the journal; « 4 » typed reads as the number 4
    (``segments.handlers.x_damage__mutmut_58``)."""
    sheet = rules.new_sheet("segments", name="Ysolde")
    rolled = rules.apply(sheet, rules.Damage(amount="1d6"), random.Random(3))
    assert rolled.log[0].startswith("Coup (1d6 (")
    typed = rules.apply(sheet, rules.Damage(amount="4"), random.Random(3))
    assert typed.log == rules.apply(sheet, rules.Damage(amount=4), random.Random(3)).log
    assert typed.log[0] == "Coup : 4 dégâts → PV 10 → 6."


def test_supernatural_care_of_a_wound_at_no_notch_heals_it() -> None:
    """Sévérité: supernatural care aimed at a wound whose notches are all gone heals it: it leaves the sheet
    (``severite.gauge.x__lower_gauge__mutmut_60``)."""
    sheet = rules.new_sheet("severite", name="Ysolde", wounds=[{"id": 1, "grade": "critique", "notches": 0}])
    out = rules.apply(sheet, rules.SupernaturalHealing(success_level="correcte", wound_id=1))
    assert out.sheet.wounds == ()  # type: ignore[union-attr]
    assert "Blessure n° 1 Critique guérie." in out.log


def test_the_adrenaline_of_a_new_wound_lowers_that_wound_first() -> None:
    """Sévérité: « l’adrénaline engendrée vous fera baisser votre jauge de Trauma d’un cran »: the notch
    comes off the wound just taken (n° 2, Grave), not the heavier one already there (n° 1, Critique)
    (``severite.gauge.x__lower_gauge__mutmut_26``)."""
    sheet = rules.new_sheet(
        "severite", name="Ysolde", physique=8, wounds=[{"id": 1, "grade": "critique", "notches": 5}]
    )
    out = rules.apply(sheet, rules.InflictWound(grade="grave", rolls=(10,)))  # 18 vs Difficile (12): margin 6
    assert "Ténacité Frénétique" in out.log[-2]
    assert [(w.id, w.notches) for w in out.sheet.wounds] == [(1, 5), (2, 2)]  # type: ignore[union-attr]
    assert out.log[-1] == "Jauge de Trauma : 8 → 7 (1 cran en moins)."
