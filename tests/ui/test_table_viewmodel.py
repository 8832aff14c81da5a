"""The GM table's view-model: creatures added, numbered, duplicated and removed; bulk actions through
each creature's own rules, one undo step each; turns and rounds; the journals."""

from __future__ import annotations

import random
import re
from dataclasses import replace
from typing import Any

import pytest

import rules
from rules import table as rtable
from tests.ui.table_helpers import mixed_vm, named_npc, wolf
from ui.table.viewmodel import BulkRequest, Report, Result, TableViewModel, base_name, report_text


def vm_with(*sheets: Any, seed: int = 3) -> TableViewModel:
    vm = TableViewModel(rng=random.Random(seed))
    for sheet in sheets:
        vm.add_creatures(sheet)
    return vm


def names(vm: TableViewModel) -> list[str]:
    return [c.name for c in vm.creatures]


def test_adding_six_numbers_them_and_rolls_each_maximum_into_its_journal() -> None:
    vm = TableViewModel(rng=random.Random(8))
    ids = vm.add_creatures(wolf(), 6, maximum="2d8+4")
    assert names(vm) == [f"Loup {i}" for i in range(1, 7)]
    assert len(set(ids)) == 6
    for creature in vm.creatures:
        rolled = re.search(r"Maximum tiré aux dés : 2d8 \((\d+), (\d+)\) \+ 4 = (\d+)\.", creature.journal[-1])
        assert rolled, creature.journal
        total = int(rolled.group(3))
        assert total == int(rolled.group(1)) + int(rolled.group(2)) + 4
        assert creature.sheet.base_maximum == total and creature.sheet.current == total
    # One undo step for the six.
    assert vm.undo_stack.count() == 1
    vm.undo_stack.undo()
    assert vm.creatures == ()


def test_numbering_goes_on_after_the_creatures_already_there() -> None:
    vm = TableViewModel(rng=random.Random(1))
    vm.add_creatures(wolf(), 3)
    vm.add_creatures(wolf("Loup 2"), 2)  # a row used as template: its series goes on
    assert names(vm) == ["Loup 1", "Loup 2", "Loup 3", "Loup 4", "Loup 5"]
    assert base_name("Loup 12") == "Loup" and base_name("Brann") == "Brann"


def test_a_bad_rolled_maximum_adds_nothing_and_says_why(qtbot: Any) -> None:
    vm = TableViewModel(rng=random.Random(1))
    with qtbot.waitSignal(vm.refused) as refused:
        assert vm.add_creatures(wolf(), 3, maximum="2d") == []
    assert "2d" in refused.args[0]
    assert vm.creatures == () and vm.undo_stack.count() == 0


def test_duplicate_numbers_the_copy_and_undo_takes_it_back() -> None:
    vm = vm_with(named_npc("Brann"), wolf("Loup 1"))
    brann, wolf1 = (c.id for c in vm.creatures)
    vm.set_initiative(wolf1, 14)
    copies = vm.duplicate([brann, wolf1])
    assert names(vm) == ["Brann", "Loup 1", "Brann 2", "Loup 2"]
    copy = vm.creature(copies[1])
    assert copy is not None and copy.initiative == 14 and copy.sheet.base_maximum == 9
    vm.undo_stack.undo()
    assert names(vm) == ["Brann", "Loup 1"]


def test_remove_is_undoable_with_everything_the_creatures_had() -> None:
    vm = mixed_vm()
    before = vm.state
    ids = [c.id for c in vm.creatures[2:5]]
    assert vm.remove(ids) == 3
    assert len(vm.creatures) == len(before.creatures) - 3
    vm.undo_stack.undo()
    assert vm.state.creatures == before.creatures


def test_rename_goes_through_the_rules_and_the_journal() -> None:
    vm = vm_with(wolf())
    cid = vm.creatures[0].id
    assert vm.rename(cid, "Croc-Blanc")
    creature = vm.creature(cid)
    assert creature is not None and creature.sheet.name == "Croc-Blanc"
    assert "Nom : « Loup » → « Croc-Blanc »." in creature.journal[-1]
    vm.undo_stack.undo()
    assert vm.creatures[0].name == "Loup"


def test_note_and_initiative_are_table_data_and_undoable(qtbot: Any) -> None:
    vm = vm_with(wolf())
    cid = vm.creatures[0].id
    sheet = vm.creatures[0].sheet
    assert vm.set_note(cid, "garde la porte")
    assert vm.set_initiative(cid, 17)
    assert vm.creatures[0].sheet is sheet
    assert (vm.creatures[0].note, vm.creatures[0].initiative) == ("garde la porte", 17)
    with qtbot.waitSignal(vm.refused):
        assert not vm.set_initiative(cid, 10**6)
    vm.undo_stack.undo()
    vm.undo_stack.undo()
    assert (vm.creatures[0].note, vm.creatures[0].initiative) == ("", None)


def test_rolled_initiative_is_journaled_with_its_dice() -> None:
    vm = vm_with(wolf(), wolf())
    ids = [c.id for c in vm.creatures]
    assert vm.roll_initiative(ids, "1d20+2")
    for creature in vm.creatures:
        assert creature.initiative is not None and 3 <= creature.initiative <= 22
        assert re.search(r"Initiative : 1d20 \(\d+\) \+ 2 = \d+\.", creature.journal[-1])
    assert "Lancer l'initiative (1d20+2)" in vm.state.journal[-1]


def test_turn_order_is_highest_initiative_first_ties_in_table_order() -> None:
    vm = vm_with(wolf("A"), wolf("B"), wolf("C"), wolf("D"))
    a, b, c, d = (x.id for x in vm.creatures)
    vm.set_initiative(a, 5)
    vm.set_initiative(b, 12)
    vm.set_initiative(d, 12)
    assert vm.turn_order() == [b, d, a, c]


# --- bulk actions ------------------------------------------------------------------------------------


def test_one_roll_for_all_with_half_on_two_rows_and_one_undo_step() -> None:
    vm = TableViewModel(rng=random.Random(21))
    ids = vm.add_creatures(wolf(), 6, maximum="2d8+4")
    before = vm.state
    chosen = ids[:4]
    report = vm.bulk(chosen, BulkRequest("damage", "2d6", once=True, factors={ids[0]: "half", ids[1]: "half"}))
    assert report is not None
    rolled = re.search(r"2d6 \((\d), (\d)\) = (\d+)", vm.state.journal[-1])
    assert rolled
    total = int(rolled.group(3))
    for cid, old in zip(ids, before.creatures, strict=True):
        new = vm.creature(cid)
        assert new is not None
        expected = old.sheet.current
        if cid in chosen:
            expected = max(0, old.sheet.current - (total // 2 if cid in ids[:2] else total))
        assert new.sheet.current == expected, (new.name, old.sheet.current, total)
        state = rules.derive(new.sheet).state
        assert state == ("mort" if expected == 0 else "en_forme")
    assert vm.undo_stack.count() == 2
    vm.undo_stack.undo()
    assert vm.state.creatures == before.creatures


def test_rolled_per_creature_gives_each_its_own_dice() -> None:
    vm = TableViewModel(rng=random.Random(4))
    ids = vm.add_creatures(named_npc(current=12), 3, name="Garde")
    vm.bulk(ids, BulkRequest("damage", "1d6", once=False))
    for creature in vm.creatures:
        found = re.search(r"Lancé pour .* : 1d6 \(\d\) = (\d)\.", creature.journal[-1])
        assert found, creature.journal[-1]
        assert creature.sheet.current == 12 - int(found.group(1))


def test_each_creature_s_own_rules_apply_in_a_mixed_bulk() -> None:
    vm = mixed_vm(seed=9)
    ids = [c.id for c in vm.creatures]
    report = vm.bulk(ids, BulkRequest("nonlethal", "3"))
    assert report is not None
    # Douaratil and Sévérité know no nonlethal damage: refused for them, in French, nothing changed.
    refused = {r.name for r in report.refused}
    assert "Maëlle Corbier" in refused and "Loup 1" in refused
    d20 = next(c for c in vm.creatures if c.sheet.system == "d20")
    assert rules.derive(d20.sheet).nonlethal == 17
    assert "Refusé pour" in report_text(report)


def test_the_bar_says_each_refusal_reason_once_with_its_creatures() -> None:
    """The message bar's report groups refusals by reason: a reason shared by many creatures is said
    once, after their names (the first 12 and how many others), instead of once per creature."""
    vm = vm_with(*(wolf(f"Loup {n}") for n in range(1, 21)))
    vm.add_creatures(rules.new_sheet("d20", name="Garde", is_npc=True), 1)
    ids = [c.id for c in vm.creatures]
    report = vm.bulk(ids, BulkRequest("nonlethal", "3"))
    assert report is not None and len(report.refused) == 20
    reasons = {r.reason for r in report.refused}
    assert len(reasons) == 1
    (reason,) = reasons
    text = report_text(report)
    assert text.count(reason) == 1
    names = ", ".join(f"Loup {n}" for n in range(1, 13))
    assert f"Refusé pour {names} et 8 autres : {reason}" in text.splitlines()
    # Every reason still said, each with its creatures, when they differ.
    two = _with_refusal(report, extra=("Garde", "une autre raison."))
    lines = report_text(two).splitlines()
    assert "Refusé pour Garde : une autre raison." in lines
    assert sum(line.startswith("Refusé pour ") for line in lines) == 2


def _with_refusal(report: Report, extra: tuple[str, str]) -> Report:
    """The report with one more creature refused, for another reason."""
    results = (*report.results, Result(999, extra[0], False, reason=extra[1]))
    return replace(report, results=results, _sorted=None)


def test_none_factor_leaves_the_creature_untouched_and_lists_it() -> None:
    vm = vm_with(wolf(), wolf())
    a, b = (c.id for c in vm.creatures)
    report = vm.bulk([a, b], BulkRequest("damage", "4", factors={b: "none"}))
    assert report is not None
    assert [r.name for r in report.skipped] == ["Loup"]
    assert vm.creature(b).sheet.current == 9  # type: ignore[union-attr]
    assert vm.creature(a).sheet.current == 5  # type: ignore[union-attr]


def test_double_and_heal_and_temporary_in_bulk() -> None:
    vm = vm_with(named_npc(current=4), named_npc(current=4))
    a, b = (c.id for c in vm.creatures)
    vm.bulk([a, b], BulkRequest("heal", "3", factors={b: "double"}))
    assert [c.sheet.current for c in vm.creatures] == [7, 10]
    vm.bulk([a, b], BulkRequest("temporary", "5"))
    assert [c.sheet.temporary for c in vm.creatures] == [5, 5]
    vm.bulk([a, b], BulkRequest("temporary", "8", replace_temporary=True))
    assert [c.sheet.temporary for c in vm.creatures] == [8, 8]


def test_a_condition_on_the_selection_skips_systems_without_it() -> None:
    vm = mixed_vm()
    ids = [c.id for c in vm.creatures]
    report = vm.bulk(ids, BulkRequest("condition_on", condition="a_terre"))
    assert report is not None
    for creature in vm.creatures:
        known = {c.id for c in rules.describe(creature.sheet.system).conditions}
        has = "a_terre" in rules.derive(creature.sheet).conditions
        assert has == ("a_terre" in known), creature.name
    assert vm.undo_stack.count() == 1 + 1 + len(rules.SYSTEMS) + 1


def test_the_report_says_who_fell_who_is_dying_who_died(qtbot: Any) -> None:
    vm = vm_with(wolf("Loup"), named_npc("Brann", current=5), seed=2)
    ids = [c.id for c in vm.creatures]
    with qtbot.waitSignal(vm.reported) as reported:
        report = vm.bulk(ids, BulkRequest("damage", "20"))
    assert report is not None
    assert report.names("died") == ["Loup"]
    assert report.names("dying") == ["Brann"]
    text, grave = reported.args
    assert grave and "Morts : Loup." in text and "Mourants : Brann." in text
    assert "Morts : Loup." in vm.state.journal[-1]


def test_bad_amounts_are_refused_in_french_and_change_nothing(qtbot: Any) -> None:
    vm = vm_with(wolf())
    ids = [vm.creatures[0].id]
    for amount, words in (("", "montant"), ("1.5", "sans décimales"), ("2d", "2d"), ("1d0", "0 face")):
        with qtbot.waitSignal(vm.refused) as refused:
            assert vm.bulk(ids, BulkRequest("damage", amount)) is None
        assert words in refused.args[0], refused.args[0]
    assert vm.undo_stack.count() == 1


def test_negative_shared_roll_is_left_to_each_creature_s_rules() -> None:
    vm = vm_with(wolf(), rules.demo_sheet("severite"))
    before = [c.sheet for c in vm.creatures]
    vm.bulk([c.id for c in vm.creatures], BulkRequest("damage", "1d4-6"))
    assert vm.creatures[0].sheet.current == before[0].current
    assert vm.creatures[1].sheet.wounds == before[1].wounds
    assert "pas assez de dommages" in vm.creatures[1].journal[-1]


# --- time, rests -------------------------------------------------------------------------------------


def test_time_passes_for_everyone_in_one_step() -> None:
    vm = mixed_vm()
    clocks = [c.sheet.clock for c in vm.creatures]
    steps = vm.undo_stack.count()
    vm.advance_time("hour")
    assert [c.sheet.clock for c in vm.creatures] == [c + 3600 for c in clocks]
    assert vm.undo_stack.count() == steps + 1


def test_a_rest_for_the_selection_only_where_the_rules_know_it() -> None:
    vm = mixed_vm()
    wolves = [c.id for c in vm.creatures if c.name.startswith("Loup")]
    others = [c.id for c in vm.creatures if c.sheet.system == "d20"]
    vm.bulk(wolves[:1], BulkRequest("damage", "3"))
    report = vm.rest([*wolves[:1], *others], rules.ShortRest, "Repos court")
    assert report is not None
    assert [r.name for r in report.skipped] == ["Aldric de Valombre"]  # d20 has no short rest
    assert "Repos court" in vm.creature(wolves[0]).journal[-1]  # type: ignore[union-attr]


def test_end_of_conflict_where_the_system_has_it() -> None:
    vm = mixed_vm()
    assert vm.has_end_conflict()
    report = vm.end_conflict()
    assert report is not None
    assert [r.name for r in report.applied] == ["Maëlle Corbier"]
    assert not vm_with(wolf()).has_end_conflict()


# --- turns and rounds -------------------------------------------------------------------------------


def test_turns_follow_the_order_and_each_starts_once_a_round() -> None:
    vm = vm_with(wolf("A"), wolf("B"), wolf("C"))
    a, b, c = (x.id for x in vm.creatures)
    vm.set_initiative(b, 15)
    vm.next_turn()
    assert (vm.state.round, vm.state.turn) == (1, b)
    vm.next_turn()
    assert vm.state.turn == a and vm.state.started == {a, b}
    vm.next_turn()
    assert vm.state.turn == c
    vm.next_turn()  # the round ends for everyone, round 2 starts at B
    assert (vm.state.round, vm.state.turn, vm.state.started) == (2, b, {b})
    assert vm.turn_text() == "Round 2 — tour de B"
    steps = vm.undo_stack.count()
    vm.undo_stack.undo()
    assert (vm.state.round, vm.state.turn) == (1, c)
    assert vm.undo_stack.count() == steps


def test_dead_creatures_have_no_turn() -> None:
    vm = vm_with(wolf("A"), wolf("B"))
    a, b = (x.id for x in vm.creatures)
    vm.bulk([a], BulkRequest("damage", "30"))
    assert vm.summary(vm.creature(a)).category == "dead"  # type: ignore[arg-type]
    vm.next_turn()
    assert vm.state.turn == b
    vm.next_turn()
    assert (vm.state.round, vm.state.turn) == (2, b)


def test_round_end_runs_each_creature_s_round_once() -> None:
    """Each creature gets one turn start and one round end per round, even when the GM skips to the
    next round (Round suivant) without going through every turn."""
    vm = vm_with(named_npc("Brann", current=0), wolf("Loup"), seed=12)
    brann = vm.creatures[0].id
    vm.next_turn()  # round 1: Brann's turn (he is first in table order)
    vm.next_round()  # round 1 ends: the wolf gets its turn start first, then everyone's round end
    journal = vm.creature(brann).journal  # type: ignore[union-attr]
    saves = sum(entry.count("Jet contre la mort") for entry in journal)
    # Brann's turn starts twice (round 1, then round 2 which begins with him): one death save each.
    assert saves == 2, journal
    assert sum(entry.startswith("Fin du round") for entry in journal) == 1, journal
    assert (vm.state.round, vm.state.turn) == (2, brann)


def test_a_dying_named_npc_rolls_its_death_save_when_its_turn_comes() -> None:
    """« À chaque fois que vous commencez votre tour de jeu à 0 point d'action ou moins, vous devez faire
    un jet de sauvegarde spécial appelé jet de sauvegarde contre la mort. »"""
    vm = vm_with(wolf("Loup"), named_npc("Brann", current=0), seed=6)
    loup, brann = (x.id for x in vm.creatures)
    vm.set_initiative(loup, 15)
    vm.set_initiative(brann, 10)
    vm.next_turn()  # the wolf's turn
    vm.next_turn()  # Brann's turn starts
    assert vm.state.turn == brann
    entry = vm.creature(brann).journal[-1]  # type: ignore[union-attr]
    if rtable.has_turns("douaratil"):
        # The start-of-turn rules run now, and the roll shows.
        assert "contre la mort" in entry and re.search(r"3d6 \(\d, \d, \d\) = \d+", entry)
    else:
        # Until Douaratil splits its round, the round passes whole at its end.
        vm.next_turn()
        entry = vm.creature(brann).journal[-1]  # type: ignore[union-attr]
        assert "contre la mort" in entry and re.search(r"3d6 \(\d, \d, \d\) = \d+", entry)


def test_end_fight_sets_the_clock_back_and_is_undoable() -> None:
    vm = vm_with(wolf())
    vm.next_turn()
    vm.end_fight()
    assert (vm.state.round, vm.state.turn) == (0, None)
    assert vm.turn_text() == "Pas de combat en cours"
    vm.undo_stack.undo()
    assert vm.state.round == 1


@pytest.mark.parametrize("system_id", rules.SYSTEMS)
def test_a_round_of_every_system(system_id: str) -> None:
    vm = vm_with(rules.demo_sheet(system_id), rules.demo_sheet(system_id))
    vm.next_turn()
    vm.next_turn()
    vm.next_turn()
    assert vm.state.round == 2
    creature = vm.creatures[1]
    unit = rules.describe(system_id).round_unit
    assert creature.sheet.clock > 0 or unit not in {u.id for u in rules.describe(system_id).time_units}


def test_a_dying_segments_creature_tries_vigueur_when_its_window_opens() -> None:
    """Segments: the start of a creature's turn is where its dying roll is made (the table's
    « Tour suivant » runs the system's StartTurn); without it, the round passes whole at its end."""
    dying = rules.new_sheet("segments", name="Gob", is_npc=True, constitution=10, base_maximum=12, current=-2)
    vm = vm_with(dying, seed=3)
    gob = vm.creatures[0].id
    vm.next_turn()
    entry = vm.creature(gob).journal[-1]  # type: ignore[union-attr]
    if rtable.has_turns("segments"):
        assert entry.startswith("Début du tour") and "Vigueur" in entry
        assert re.search(r"1d20 = \d+", entry)
        vm.next_turn()  # the round ends for it: EndRound, not a second try at the window
        assert vm.creature(gob).journal[-1].count("Sa fenêtre s'ouvre") <= 1  # type: ignore[union-attr]
    else:
        vm.next_round()
        assert "Vigueur" in vm.creature(gob).journal[-1]  # type: ignore[union-attr]


def test_the_table_s_journal_entries_are_dated_like_the_sheet_s() -> None:
    """The sheet dates each entry with its clock after the action (“Dégâts 3 · jour 1, 01:00:00”):
    a creature's entries written by the table read the same, and the table's own entries carry the
    table's time, the latest clock of its creatures."""
    from ui.common.titles import CLOCK_SEPARATOR
    from ui.sheet.viewmodel import SheetViewModel

    vm = TableViewModel(rng=random.Random(2))
    vm.add_creatures(named_npc())
    cid = vm.creatures[0].id
    arrival = vm.creature(cid).journal[-1].split("\n")[0]  # type: ignore[union-attr]
    assert arrival.endswith(CLOCK_SEPARATOR + rules.format_clock(0))
    vm.advance_time("hour")
    sheet_vm = SheetViewModel(vm.creature(cid).sheet, rng=random.Random(2))  # type: ignore[union-attr]
    sheet_vm.apply(rules.Damage(amount=3))
    vm.apply_to(cid, rules.Damage(amount=3))
    ours = vm.creature(cid).journal[-1]  # type: ignore[union-attr]
    theirs = sheet_vm.journal[-1]
    assert ours == theirs
    assert ours.split("\n")[0].endswith(CLOCK_SEPARATOR + rules.format_clock(3600))
    assert vm.state.journal[-1].split("\n")[0] == ours.split("\n")[0]
    vm.bulk([cid], BulkRequest("heal", "1"))
    assert vm.state.journal[-1].split("\n")[0].endswith(CLOCK_SEPARATOR + "jour 1, 01:00:00")
    assert vm.creature(cid).journal[-1].split("\n")[0].endswith(" · jour 1, 01:00:00")  # type: ignore[union-attr]


def test_one_other_name_is_said_in_the_singular() -> None:
    """« et 1 autre », not « et 1 autres »: a list of names one over the limit."""
    from ui.table.viewmodel import _listed

    assert _listed(["A", "B", "C"], 2) == "A, B et 1 autre"
    assert _listed(["A", "B", "C", "D"], 2) == "A, B et 2 autres"
    assert _listed(["A", "B"], 2) == "A, B"
