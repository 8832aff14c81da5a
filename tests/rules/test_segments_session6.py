"""Segments' hot handlers after issue 15's session 6: what their shortcuts must keep (tests written against the
hand mutants of the changed functions that no other test killed), and the structure that makes them cheap."""

from __future__ import annotations

import random

import pytest

import rules
from rules.systems.segments import handlers
from rules.systems.segments.derive import TEXT


def test_a_hit_finds_its_plan_in_the_memo_by_the_key_plan_of_keeps_it_under(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 15: ``_hit`` reads the memo of ``plan_of`` itself, by the same key (armour, shield, natural armour,
    reductions, resistances, the hit's types); a key written differently would work it out again on every hit."""
    sheet = rules.new_sheet(
        "segments",
        name="Essai",
        constitution=10,
        current=30,
        base_maximum=40,
        armour="intermediaire",
        shield=True,
        natural_armour=4,
        damage_reductions=("2/argent",),
        energy_resistances=("froid 5",),
    )
    hit = rules.Damage(amount=6, damage_type="tranchant")
    first = rules.apply(sheet, hit, random.Random(1))
    calls: list[object] = []
    original = handlers.plan_of

    def counted(*args: object) -> object:
        calls.append(args)
        return original(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(handlers, "plan_of", counted)
    again = rules.apply(first.sheet, hit, random.Random(1))
    assert calls == []
    assert again.log == first.log[:1] or again.log[0].startswith("Coup : 6 dégâts − ")


def test_a_heal_of_nothing_says_nothing_of_nonlethal_damage() -> None:
    """S4 (docs/rules-notes.md), of « Les dégâts non létaux sont comptés à part »: a heal takes off as many
    nonlethal points as it gives; a heal of 0 takes none off, and the journal does not claim a change
    (« non létaux 5 → 5 »)."""
    sheet = rules.new_sheet("segments", name="Essai", constitution=10, current=10, base_maximum=20, nonlethal=5)
    outcome = rules.apply(sheet, rules.Heal(amount=0), random.Random(1))
    assert outcome.log == ("Soins 0 : PV 10 → 10.",)
    assert outcome.sheet.nonlethal == 5 and outcome.sheet.current == 10


def test_kept_number_texts_are_the_journal_s_own() -> None:
    """``TEXT`` writes a number as ``fmt_int`` does (the typographic minus of a French sheet), whatever was
    asked before; a hit below zero reads « PV 2 → −4 »."""
    assert TEXT[-3] == "−3" and TEXT[0] == "0" and TEXT[12] == "12"
    assert TEXT[-3] == "−3"
    sheet = rules.new_sheet("segments", name="Essai", constitution=10, current=2, base_maximum=20)
    outcome = rules.apply(sheet, rules.Damage(amount=6), random.Random(1))
    assert outcome.log[0] == "Coup : 6 dégâts → PV 2 → −4."
