"""Segments' hot handlers (issue 15, session 5): they read a sheet's fields from its ``__dict__`` and the table's
figures from its memo. What each rule they read must still do, at its edges (tests written against the hand
mutants of these functions that no other test killed)."""

from __future__ import annotations

import os
import random
import sys

import pytest
from pydantic import BaseModel

import rules
from rules.systems.segments.table import SegmentsRules


def test_a_character_at_exactly_minus_constitution_takes_no_more_damage() -> None:
    """« meurt quand il atteint l'opposé de sa valeur de Constitution »: a sheet at exactly −CON (a file or an
    edit left the flag unset) is dead; a hit changes nothing."""
    sheet = rules.new_sheet("segments", name="Essai", constitution=10, current=-10, base_maximum=20)
    assert not sheet.dead
    outcome = rules.apply(sheet, rules.Damage(amount=3), random.Random(1))
    assert outcome.log == ("Essai n'est plus en vie : 3 dégâts sans effet.",)
    assert outcome.sheet is sheet
    # One point above −CON: the hit lands, and kills.
    alive = rules.new_sheet("segments", name="Essai", constitution=10, current=-9, base_maximum=20, stabilised=True)
    hit = rules.apply(alive, rules.Damage(amount=3), random.Random(1))
    assert hit.sheet.current == -12 and hit.sheet.dead


def test_hot_handlers_read_no_pydantic_field_by_attribute(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 15: an attribute of a pydantic model took CPython's slow path (~250 machine instructions while
    ``BaseModel`` defined ``__getattr__``, which ``rules.model`` now takes away; one ``__dict__`` read per handler
    stays cheaper than several attribute reads); segments' hits, heals and states read a sheet's and an action's
    fields from their ``__dict__``, the table's figures from its memo. What segments' code reads by attribute on
    the bench's actions stays within these names (a new ``sheet.current`` in a hot path fails here)."""
    start = rules.new_sheet(
        "segments",
        name="Aldéric",
        constitution=14,
        base_maximum=60,
        current=45,
        armour="intermediaire",
        shield=True,
        energy_resistances=("froid 5",),
        conditions=("lenteur",),
        fatigue=1,
    )
    hot = [
        rules.Damage(amount=6, damage_type="tranchant"),
        rules.Heal(amount=3),
        rules.Damage(amount="1d6+2"),
        rules.SetCondition(condition="effraye"),
        rules.Damage(amount=5, nonlethal=True),
        rules.SetCondition(condition="effraye", active=False),
        rules.Damage(amount="2d6", damage_type="feu"),
        rules.Heal(amount="1d4"),
    ]
    # Each at most once per action: the sheet's and the action's ``__dict__``, the table's memo, the set states
    # (a hit: may a weapon drop?), a heal's amount.
    allowed = {"__dict__", "memo", "conditions", "amount"}
    sheet = start
    rng = random.Random(1)
    read: set[tuple[str, str]] = set()
    original = BaseModel.__getattribute__

    def spy(self: BaseModel, name: str) -> object:
        caller = sys._getframe(1).f_code.co_filename
        if f"systems{os.sep}segments{os.sep}" in caller:
            read.add((type(self).__name__, name))
        return original(self, name)

    for action in hot:  # tables loaded, memo filled
        sheet = rules.apply(sheet, action, rng).sheet
    monkeypatch.setattr(BaseModel, "__getattribute__", spy)
    sheet = start
    for action in hot * 3:
        sheet = rules.apply(sheet, action, rng).sheet
    monkeypatch.undo()
    assert {name for _, name in read} <= allowed, sorted(read)


def _table(**changes: object) -> SegmentsRules:
    """The shipped segments table with ``changes`` (``"section.key"`` or ``"conditions.id.key"``: value)."""
    data = rules.system("segments").ruleset().model_dump()
    for path, value in changes.items():
        *parents, key = path.split(".")
        place = data
        for part in parents:
            place = place[part]
        place[key] = value
    return SegmentsRules.model_validate(data)


def test_a_heal_removes_nonlethal_damage_unless_the_table_says_not() -> None:
    """S4 (docs/rules-notes.md), of « Les dégâts non létaux sont comptés à part »: a heal takes off as many
    nonlethal points as it gives PV back (``nonlethal.heal_removes_nonlethal``), or none under a table that
    turns it off."""
    sheet = rules.new_sheet("segments", name="Essai", constitution=10, current=10, base_maximum=20, nonlethal=5)
    healed = rules.apply(sheet, rules.Heal(amount=3), random.Random(1))
    assert healed.sheet.nonlethal == 2 and healed.sheet.current == 13
    assert healed.log[0] == "Soins 3 : PV 10 → 13 ; non létaux 5 → 2."
    table = _table(**{"nonlethal.heal_removes_nonlethal": False})
    kept = rules.apply(sheet, rules.Heal(amount=3), random.Random(1), rules_table=table)
    assert kept.sheet.nonlethal == 5 and kept.sheet.current == 13
    assert kept.log[0] == "Soins 3 : PV 10 → 13."


def test_a_spell_check_against_no_magic_resistance_says_nothing() -> None:
    """« Résistance à la magie. C'est un score que porte la créature. »: a creature without one (0) has none to
    pierce; the hit is told as any other."""
    sheet = rules.new_sheet("segments", name="Essai", constitution=10, current=10, base_maximum=20)
    outcome = rules.apply(sheet, rules.Damage(amount=3, spell_check=5), random.Random(1))
    assert outcome.log == ("Coup : 3 dégâts → PV 10 → 7.",)


def test_a_fatigue_degree_that_hides_the_points_hides_them() -> None:
    """Engourdi: « on ignore son propre total de points de vie, que le meneur garde pour lui ». Under a table
    where a fatigue degree hides the PV too (it comes from the ladder, not from a state set on the sheet), a
    hit on a character at that degree is told to the GM only."""
    table = _table(**{"conditions.epuise.hides_points": True})
    sheet = rules.new_sheet("segments", name="Essai", constitution=10, current=10, base_maximum=20, fatigue=2)
    outcome = rules.apply(sheet, rules.Damage(amount=3), random.Random(1), rules_table=table)
    assert outcome.log[0] == rules.SECRET_MARK + "Coup : 3 dégâts → PV 10 → 7."
    assert outcome.log[1].startswith("Coup : 3 dégâts encaissés (total de PV caché (Épuisé")
    # At fatigue 1 (Fatigué, which hides nothing), the hit is told to all.
    tired = rules.new_sheet("segments", name="Essai", constitution=10, current=10, base_maximum=20, fatigue=1)
    told = rules.apply(tired, rules.Damage(amount=3), random.Random(1), rules_table=table)
    assert told.log == ("Coup : 3 dégâts → PV 10 → 7.",)


def test_healed_to_exactly_zero_ends_the_stabilisation() -> None:
    """« Un personnage à moins de zéro point de vie est hors combat » : stabilised is a state below zero only; a
    heal that brings a stabilised character to exactly 0 PV ends it (Chancelant, no longer stabilised)."""
    sheet = rules.new_sheet(
        "segments", name="Essai", constitution=10, current=-3, base_maximum=20, stabilised=True, clock=60
    )
    outcome = rules.apply(sheet, rules.Heal(amount=3), random.Random(1))
    assert outcome.sheet.current == 0 and outcome.sheet.stabilised is False
    assert rules.derive(outcome.sheet).state == "chancelant"


def test_only_the_surprise_state_brings_segments_of_surprise() -> None:
    """Surpris: « démarre plus loin dans sa fenêtre, du nombre de segments de surprise accordés aux agresseurs »;
    another state set brings none."""
    sheet = rules.new_sheet("segments", name="Essai", constitution=10, current=10, base_maximum=20)
    scared = rules.apply(sheet, rules.SetCondition(condition="effraye"), random.Random(1))
    assert scared.log == ("État Effrayé ajouté.",) and scared.sheet.surprise_segments == 0
    surprised = rules.apply(sheet, rules.SetCondition(condition="surpris"), random.Random(1))
    assert surprised.log == ("État Surpris ajouté (1 segment de surprise).",)
    assert surprised.sheet.surprise_segments == 1


def test_setting_the_fatigue_degree_already_reached_says_so() -> None:
    """« un personnage déjà fatigué qui se fatigue encore devient épuisé » is ``AddFatigue``; setting the degree the
    character is already at (Fatigué on a Fatigué character) changes nothing and says so."""
    sheet = rules.new_sheet("segments", name="Essai", constitution=10, current=5, base_maximum=20, fatigue=1)
    outcome = rules.apply(sheet, rules.SetCondition(condition="fatigue"), random.Random(1))
    assert outcome.log == ("Fatigué : déjà Fatigué.",) and outcome.sheet is sheet


def test_taking_surprise_off_ends_its_counters_and_only_then() -> None:
    """Surpris « démarre plus loin dans sa fenêtre, du nombre de segments de surprise accordés aux agresseurs »:
    its segments and its counter go with it when it is taken off, not when another state is."""
    sheet = rules.new_sheet("segments", name="Essai", constitution=10, current=10, base_maximum=20)
    rng = random.Random(1)
    sheet = rules.apply(sheet, rules.SetCondition(condition="surpris"), rng).sheet
    sheet = rules.apply(sheet, rules.SetCondition(condition="effraye"), rng).sheet
    calm = rules.apply(sheet, rules.SetCondition(condition="effraye", active=False), rng).sheet
    assert calm.conditions == ("surpris",) and calm.surprise_segments == 1
    over = rules.apply(calm, rules.SetCondition(condition="surpris", active=False), rng).sheet
    assert over.conditions == () and over.surprise_segments == 0 and over.surprised_for == 0
