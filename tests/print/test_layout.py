"""What goes on paper, checked on the printed blocks themselves: every number comes from the rules.

A house rule table (a copy of the shipped one with another number) must change the printed sheet: that
is how these tests know no number of a rule is written in the printing code.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from typing import Any

import pytest

import rules
from sheet_app import files
from ui.printing import blocks, layout


def walk(items: Any) -> Iterator[Any]:
    for block in items:
        if isinstance(block, blocks.Keep):
            yield from walk(block.blocks)
        else:
            yield block


def of_type(printout: blocks.Printout, kind: type) -> list[Any]:
    return [b for b in walk(printout.blocks) if isinstance(b, kind)]


def tally(printout: blocks.Printout, label: str) -> blocks.Tally:
    (found,) = [t for t in of_type(printout, blocks.Tally) if t.label == label]
    return found


def test_death_save_boxes_follow_the_rule_table() -> None:
    """Douaratil: « après trois succès, vous êtes stabilisé » … « après trois échecs, vous mourez »: three
    boxes each, from the table; a house table with five gives five."""
    saves = tally(layout.blank_printout("douaratil"), "Jets contre la mort")
    assert [(g.count, g.filled, g.caption) for g in saves.groups] == [(3, 0, "succès"), (3, 0, "échecs")]
    table = rules.ruleset("douaratil")
    house = table.model_copy(update={"saves": table.saves.model_copy(update={"death_saves_needed": 5})})
    saves = tally(layout.blank_printout("douaratil", house), "Jets contre la mort")
    assert [g.count for g in saves.groups] == [5, 5]


def test_a_filled_sheet_ticks_its_death_saves() -> None:
    sheet = rules.evolve(rules.demo_sheet("douaratil"), current=0, death_successes=2, death_failures=1)
    saves = tally(layout.sheet_printout(sheet), "Jets contre la mort")
    assert [(g.count, g.filled) for g in saves.groups] == [(3, 2), (3, 1)]
    assert [g.caption for g in saves.groups] == ["succès 2 sur 3", "échecs 1 sur 3"]


def test_the_trauma_gauge_is_four_tiers_of_two_notches_from_the_table() -> None:
    """Sévérité: « La jauge est composée de 4 paliers comprenant deux crans de Trauma. »"""
    gauge = tally(layout.blank_printout("severite"), "Crans de Trauma")
    assert [g.count for g in gauge.groups] == [2, 2, 2, 2]
    assert [g.caption for g in gauge.groups] == ["Premier palier", "Jouable (8)", "Compliqué (10)", "Difficile (12)"]
    table = rules.ruleset("severite")
    house = table.model_copy(update={"trauma": table.trauma.model_copy(update={"notches_per_tier": 3})})
    gauge = tally(layout.blank_printout("severite", house), "Crans de Trauma")
    assert [g.count for g in gauge.groups] == [3, 3, 3, 3]


def test_a_filled_gauge_shows_the_notches_held_tier_by_tier() -> None:
    sheet = rules.demo_sheet("severite")
    derived = rules.derive(sheet)
    gauge = tally(layout.sheet_printout(sheet), "Crans de Trauma")
    assert sum(g.filled for g in gauge.groups) == derived.current == 4
    assert [g.filled for g in gauge.groups] == [2, 2, 0, 0]


@pytest.mark.parametrize("system_id", rules.SYSTEMS)
def test_every_condition_has_its_box_in_its_group(system_id: str) -> None:
    info = rules.describe(system_id)
    grids = of_type(layout.blank_printout(system_id), blocks.CheckGrid)
    by_title = {g.title: [i.label for i in g.items] for g in grids}
    for group in info.condition_groups:
        expected = [c.label for c in info.conditions if c.group == group.id]
        assert by_title.get(group.label, []) == expected
        assert not any(i.checked for g in grids for i in g.items)


def test_a_filled_sheet_ticks_its_conditions_posed_and_implied() -> None:
    sheet = rules.demo_sheet("segments")  # Lenteur and À terre posed; Fatigué from the fatigue ladder
    derived = rules.derive(sheet)
    info = rules.describe("segments")
    labels = {c.id: c.label for c in info.conditions}
    ticked = [i for g in of_type(layout.sheet_printout(sheet), blocks.CheckGrid) for i in g.items if i.checked]
    assert sorted(i.label for i in ticked) == sorted(labels[c] for c in derived.conditions)
    fatigue = next(i for i in ticked if i.label == labels["fatigue"])
    assert fatigue.detail == derived.condition_reasons["fatigue"]


@pytest.mark.parametrize("system_id", rules.SYSTEMS)
def test_each_ladder_prints_its_levels_with_their_effects(system_id: str) -> None:
    info = rules.describe(system_id)
    printout = layout.blank_printout(system_id)
    tables = [t for t in of_type(printout, blocks.Table) if len(t.columns) == 3]
    paragraphs = " ".join(p.text for p in of_type(printout, blocks.Paragraph))
    for ladder in info.ladders:
        if len(ladder.levels) <= layout.LONG_LADDER:
            (table,) = [t for t in tables if [r[2] for r in t.rows] == [lv.effect for lv in ladder.levels]]
            assert [r[1] for r in table.rows] == [lv.label for lv in ladder.levels]
            assert all(r[0] == blocks.Check(False) for r in table.rows)
        else:
            assert ladder.levels[0].effect in paragraphs and ladder.levels[1].effect in paragraphs


def test_exhaustion_effects_follow_a_house_table() -> None:
    table = rules.ruleset("douaratil")
    house = table.model_copy(update={"exhaustion": table.exhaustion.model_copy(update={"max_level": 4})})
    info = rules.describe("douaratil", house)
    (ladder,) = info.ladders
    tables = [t for t in of_type(layout.blank_printout("douaratil", house), blocks.Table) if len(t.columns) == 3]
    assert any([r[2] for r in t.rows] == [lv.effect for lv in ladder.levels] for t in tables)
    assert len(ladder.levels) == 5


def test_the_wound_healing_table_comes_from_the_rule_table() -> None:
    table = rules.ruleset("douaratil")
    wounds = dict(table.wounds)
    wounds["plaie"] = wounds["plaie"].model_copy(update={"days": 9})
    house = table.model_copy(update={"wounds": wounds})
    text = " ".join(
        str(c.text if isinstance(c, blocks.Styled) else c)
        for t in of_type(layout.blank_printout("douaratil", house), blocks.Table)
        for r in t.rows
        for c in r
    )
    assert "9 repos longs" in text and "5 repos longs" not in text


def test_printing_never_changes_the_sheet_or_the_document() -> None:
    rng = random.Random(3)
    sheet = rules.apply(rules.demo_sheet("d20"), rules.Damage(amount=30), rng=rng).sheet
    journal = ["Dégâts 30."]
    document = files.Document("sheet", [sheet], [journal])
    before = (copy.deepcopy(sheet.model_dump()), list(journal))
    layout.document_printouts(document, gm_view=True, with_journal=True)
    layout.table_printout(files.Document("table", [sheet, sheet], [journal], "Deux fois"))
    assert document.sheets[0] is sheet and sheet.model_dump() == before[0] and journal == before[1]


def test_an_unknown_system_is_refused_in_french() -> None:
    with pytest.raises(rules.Refused, match="Système inconnu"):
        layout.blank_printout("gurps")
