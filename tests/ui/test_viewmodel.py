"""The view-model: actions through the facade, undo that swaps whole sheets, what-changed records,
refusals that change nothing, the journal with its dice, the player / GM view."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rules
from ui.sheet.viewmodel import MAX_ENTRY, Changes, SheetViewModel


def vm_of(system: str = "douaratil", seed: int = 1) -> SheetViewModel:
    return SheetViewModel(rules.demo_sheet(system), rng=random.Random(seed))


def test_apply_pushes_an_undo_step_named_after_the_action(qtbot: Any) -> None:
    vm = vm_of()
    seen: list[Changes] = []
    vm.changed.connect(seen.append)
    outcome = vm.apply(rules.Damage(amount=7))
    assert outcome is not None and outcome.sheet is vm.sheet
    assert vm.undo_stack.undoText() == "Dégâts 7"
    assert seen[-1].fields == frozenset({"current"})
    assert "current" in seen[-1].derived and "maximum" not in seen[-1].derived
    assert seen[-1].journal


def test_undo_puts_the_previous_sheet_back_and_redo_the_next(qtbot: Any) -> None:
    vm = vm_of()
    first = vm.sheet
    vm.apply(rules.Damage(amount=3))
    second = vm.sheet
    vm.apply(rules.SetExhaustion(level=2))
    vm.undo_stack.undo()
    assert vm.sheet is second
    vm.undo_stack.undo()
    assert vm.sheet is first and vm.journal == ()
    vm.undo_stack.redo()
    assert vm.sheet is second and len(vm.journal) == 1


def test_refusal_changes_nothing_and_says_why_in_french(qtbot: Any) -> None:
    vm = vm_of()
    before = vm.sheet
    with qtbot.waitSignal(vm.refused) as signal:
        assert vm.apply(rules.DeathSave()) is None
    assert "Pas de jet contre la mort au-dessus de 0 point d'action." in signal.args[0]
    assert vm.sheet is before and vm.undo_stack.count() == 0 and vm.journal == ()


def test_invalid_edit_gives_the_facade_lines(qtbot: Any) -> None:
    vm = vm_of()
    with qtbot.waitSignal(vm.refused) as signal:
        assert not vm.edit({"level": -3})
    assert "« niveau » : doit être supérieur ou égal à 1" in signal.args[0]
    assert vm.sheet.level == 3


def test_an_edit_that_changes_nothing_is_no_step(qtbot: Any) -> None:
    vm = vm_of()
    assert vm.edit({"level": 3})
    assert vm.undo_stack.count() == 0


def test_journal_entries_show_the_dice(qtbot: Any) -> None:
    vm = vm_of(seed=4)
    vm.apply(rules.Damage(amount="1d4+1"))
    entry = vm.journal[-1]
    assert entry.splitlines()[0] == "Dégâts 1d4+1 · jour 1, 00:00:00"  # dated with the sheet's clock
    assert "1d4" in entry and "+ 1 =" in entry


def test_rolls_the_rules_do_not_spell_out_are_listed(qtbot: Any) -> None:
    vm = vm_of()
    vm.apply(rules.Damage(amount=14, rolls=(18,)))
    entry = vm.journal[-1]
    assert "= 18" in entry  # the CON save at 0 PA, rolled with the given value


def test_very_long_entries_are_shortened_to_fit_a_file(qtbot: Any) -> None:
    vm = vm_of()
    vm.apply(rules.Damage(amount=14, rolls=(18,)))
    vm.apply(rules.AdvanceTime(unit="round", count=600))
    assert all(len(e) <= MAX_ENTRY + 200 for e in vm.journal)


def test_events_are_announced(qtbot: Any) -> None:
    vm = vm_of()
    with qtbot.waitSignal(vm.notified) as signal:
        vm.apply(rules.Damage(amount=20, rolls=(3,)))
    assert "Ulfred" in signal.args[0]


def test_errors_inside_a_rule_do_not_escape(qtbot: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    vm = vm_of()

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise ZeroDivisionError

    monkeypatch.setattr(rules, "apply", broken)
    with qtbot.waitSignal(vm.refused) as signal:
        assert vm.apply(rules.Damage(amount=1)) is None
    assert "rien n'a changé" in signal.args[0]


def test_player_view_masks_what_the_rules_hide(qtbot: Any) -> None:
    """Engourdi: « on ignore son propre total de points de vie, que le meneur garde pour lui » (002)."""
    vm = vm_of("segments")
    vm.apply(rules.SetCondition(condition="engourdi"))
    assert "current" in vm.derived.hidden
    assert vm.shown("current") == "?"
    assert "meneur" in vm.explain("current")
    assert vm.state_label()[0] == "?"
    with qtbot.waitSignal(vm.changed) as signal:
        vm.set_gm_view(True)
    assert signal.args[0].everything
    assert vm.shown("current") == str(vm.derived.current)


def test_titles_use_the_systems_labels(qtbot: Any) -> None:
    vm = vm_of()
    assert vm.title_of(rules.SetCondition(condition="a_terre")) == "État À terre : ajouté"
    assert vm.title_of(rules.AdvanceTime(unit="hour", count=2)) == "Le temps passe : 2 × heure"
    assert vm.title_of(rules.AddWound(wound_type="plaie")) == "Blessure Plaie"


ACTIONS = st.sampled_from(
    [
        rules.Damage(amount=3),
        rules.Damage(amount=9),
        rules.Heal(amount=4),
        rules.GainTemporary(amount=5, replace=True),
        rules.SetExhaustion(level=2),
        rules.SetExhaustion(level=0),
        rules.SetCondition(condition="a_terre"),
        rules.ClearConditions(),
        rules.DeathSave(),
        rules.AdvanceTime(unit="round", count=1),
        rules.LongRest(hours=8),
    ]
)


@settings(max_examples=40)
@given(st.lists(ACTIONS, max_size=12), st.integers(0, 1000))
def test_undoing_everything_gives_back_the_first_sheet(qapp: Any, actions: list[Any], seed: int) -> None:
    """Whatever was done, refused or changed nothing, undoing every step gives back the sheet it started from."""
    vm = vm_of(seed=seed)
    first = vm.sheet
    states = [first]
    for action in actions:
        steps = vm.undo_stack.count()
        if vm.apply(action) is not None and vm.undo_stack.count() > steps:
            states.append(vm.sheet)
    assert vm.undo_stack.count() == len(states) - 1 == len(vm.journal)
    for expected in reversed(states[:-1]):
        vm.undo_stack.undo()
        assert vm.sheet is expected
    assert vm.sheet.model_dump() == first.model_dump()
    assert vm.journal == ()


@pytest.mark.parametrize("system", ["douaratil", "d20", "segments", "severite"])
def test_an_edit_is_titled_with_the_fields_french_labels(system: str) -> None:
    """Issue 13 item 18: “Every text a user can see is French” — an ``Edit`` of stored fields (undo menu,
    journal) names them by their labels, never by their code names."""
    sheet = rules.demo_sheet(system)
    keys = [k for k in ("name", "current", "death_successes", "base_maximum", "clock") if k in type(sheet).model_fields]
    vm = SheetViewModel(sheet)
    title = vm.title_of(rules.Edit(changes={k: getattr(sheet, k) for k in keys}))
    assert title.startswith("Modifier ")
    for key in keys:
        assert key not in title, title
