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
    (``non létaux 5 → 5``)."""
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


def test_a_heal_from_exactly_zero_is_told_as_leaving_staggered() -> None:
    """The state table: « | Chancelant | exactement 0 | ». A character at exactly 0 PV is Chancelant, not Blessé:
    a heal from there says so (``_settled`` works out the state before without ``state_id``: 0 is not standing)."""
    sheet = rules.new_sheet("segments", name="Essai", constitution=10, current=0, base_maximum=20)
    outcome = rules.apply(sheet, rules.Heal(amount=3), random.Random(1))
    assert outcome.log == ("Soins 3 : PV 0 → 3.", "Essai : Chancelant → Blessé (3 PV sur 20 : la moitié ou moins).")


def test_a_dead_character_brought_back_by_an_edit_is_told_as_leaving_death() -> None:
    """« La mort est automatique : ce n'est pas une décision du meneur. » — yet the GM may correct a sheet; a
    character whose death flag an edit clears (10 PV, well above −CON) was « Mort » before, whatever its PV."""
    sheet = rules.new_sheet("segments", name="Essai", constitution=10, current=10, base_maximum=20, dead=True)
    outcome = rules.apply(sheet, rules.Edit(changes={"dead": False}), random.Random(1))
    assert outcome.log == ("Mort : oui → non.", "Essai : Mort → Blessé (10 PV sur 20 : la moitié ou moins).")


def test_a_rolled_hit_or_heal_shows_its_dice_and_a_typed_number_does_not() -> None:
    """The journal shows what was rolled: a hit of « 1d6+2 » names its dice and their faces, a heal of « 1d4 »
    too; a number typed as text (« 7 ») is given, not rolled, and reads as a plain number (``damage`` and ``heal``
    read the ``Roll`` by index)."""
    sheet = rules.new_sheet("segments", name="Essai", constitution=10, current=30, base_maximum=40)
    rolled = rules.apply(sheet, rules.Damage(amount="1d6+2"), random.Random(1))
    assert rolled.log == ("Coup (1d6 (2) + 2 = 4) : 4 dégâts → PV 30 → 26.",)
    typed = rules.apply(sheet, rules.Damage(amount="7"), random.Random(1))
    assert typed.log == ("Coup : 7 dégâts → PV 30 → 23.",)
    healed = rules.apply(sheet, rules.Heal(amount="1d4"), random.Random(1))
    assert healed.log == ("Soins 1d4 (2) = 2 : PV 30 → 32.",)
    assert rules.apply(sheet, rules.Heal(amount="2"), random.Random(1)).log == ("Soins 2 : PV 30 → 32.",)


@pytest.mark.parametrize(
    ("action", "what"),
    [
        (rules.Heal(amount=3), "regagner des points de vie"),
        (rules.GainTemporary(amount=3), "recevoir des points temporaires"),
        (rules.SetCondition(condition="effraye"), "changer d'état"),
    ],
)
def test_at_exactly_minus_constitution_nothing_is_gained_or_set(action: rules.Action, what: str) -> None:
    """« meurt quand il atteint l'opposé de sa valeur de Constitution »: at exactly −CON (a file or an edit left
    the flag unset) the character is dead; a heal, temporary points or a state set are refused (the handlers test
    it inline, then call ``_alive`` for its refusal)."""
    sheet = rules.new_sheet("segments", name="Essai", constitution=10, current=-10, base_maximum=20)
    with pytest.raises(rules.Refused, match=f"^Essai n'est plus en vie : {what} impossible.$"):
        rules.apply(sheet, action, random.Random(1))


def test_temporary_points_that_end_are_gone() -> None:
    """Temporary points that end (``LoseTemporary``) leave the sheet at 0, and the journal says how many ended."""
    sheet = rules.new_sheet("segments", name="Essai", constitution=10, current=5, base_maximum=20, temporary=5)
    outcome = rules.apply(sheet, rules.LoseTemporary(), random.Random(1))
    assert outcome.sheet.temporary == 0 and outcome.sheet is not sheet
    assert outcome.log == ("Les 5 points de vie temporaires prennent fin.",)
    none = rules.apply(outcome.sheet, rules.LoseTemporary(), random.Random(1))
    assert none.log == () and none.sheet.temporary == 0


def test_surprise_taken_off_after_a_while_ends_its_counter() -> None:
    """Surpris « démarre plus loin dans sa fenêtre, du nombre de segments de surprise accordés aux agresseurs »:
    taken off two segments in, its segments and the time it has run both go back to 0."""
    rng = random.Random(1)
    sheet = rules.new_sheet("segments", name="Essai", constitution=10, current=10, base_maximum=20)
    sheet = rules.apply(sheet, rules.SetCondition(condition="surpris"), rng).sheet
    sheet = rules.apply(sheet, rules.AdvanceTime(unit="segment", count=2), rng).sheet
    assert sheet.surprised_for == 2 and sheet.surprise_segments == 1
    over = rules.apply(sheet, rules.SetCondition(condition="surpris", active=False), rng)
    assert over.log == ("État Surpris retiré.",)
    assert over.sheet.conditions == () and over.sheet.surprised_for == 0 and over.sheet.surprise_segments == 0


def test_a_month_of_burning_at_once_is_refused_and_changes_nothing() -> None:
    """« 1d6 par tour tant qu'on brûle »: a month of fire is over 20,000 turns to play one by one; asked at once, it
    is refused in French (before any roll), and asked on a quiet sheet it is not."""
    burning = rules.new_sheet("segments", name="Essai", constitution=10, current=10, base_maximum=20, burning=True)
    with pytest.raises(rules.Refused, match=r"^Trop d'étapes à simuler d'un coup"):
        rules.apply(burning, rules.AdvanceTime(unit="day", count=30), random.Random(1))
    quiet = rules.new_sheet("segments", name="Essai", constitution=10, current=10, base_maximum=20)
    later = rules.apply(quiet, rules.AdvanceTime(unit="day", count=30), random.Random(1))
    assert later.sheet.clock == 30 * 86_400
