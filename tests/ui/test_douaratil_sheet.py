"""Driving a Douaratil sheet as a player does (seed 000): the quick entry, exhaustion, undo, rests,
fields, temporary points, conditions, wounds, death saves."""

from __future__ import annotations

import random
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

import rules
from ui.common.models import KeyRole
from ui.sheet.actions import ShortRestDialog
from ui.sheet.sheet_view import SheetView


def enter(qtbot: Any, view: SheetView, text: str, mode: str = "damage") -> None:
    """Type ``text`` in the quick entry and press Entrée (after choosing ``mode`` like the menu does)."""
    view.focus_quick_entry(mode)
    field = view.health.quick.amount
    qtbot.keyClicks(field, text)
    qtbot.keyClick(field, Qt.Key.Key_Return)


def journal_top(view: SheetView) -> str:
    model = view.journal.model
    return str(model.data(model.index(0, 0), Qt.ItemDataRole.DisplayRole))


def test_damage_typed_and_entered_updates_bar_label_and_journal(qtbot: Any, make_view: Any) -> None:
    """« Quand une créature subit des dégâts, ceux-ci sont ôtés de son total actuel de points d'action. »
    (000): 14 − 7 = 7."""
    view = make_view("douaratil")
    assert view.health.current_label.text() == "14"
    enter(qtbot, view, "7")
    assert view.vm.sheet.current == 7
    assert view.health.current_label.text() == "7"
    assert view.health.bar.state().current == 7 and view.health.bar.state().maximum == 14
    assert "7 / 14 PA" in view.health.bar.state().text
    assert "subit 7 dégâts : 14 → 7 PA" in journal_top(view)
    assert journal_top(view).startswith("Dégâts 7")
    assert view.health.quick.amount.text() == ""


def test_dice_expression_is_rolled_and_shown(qtbot: Any, make_view: Any) -> None:
    view = make_view("douaratil")
    enter(qtbot, view, "2d6+3")
    roll = view.health.quick.roll_label.text()
    assert roll.startswith("Lancer : 2d6")
    lost = 14 - view.vm.sheet.current
    assert 5 <= lost <= 15
    assert f"= {lost}" in roll
    assert "2d6" in journal_top(view)


def test_exhaustion_six_drops_the_maximum_and_the_tooltip_explains(qtbot: Any, make_view: Any) -> None:
    """« le malus impacte aussi le maximum de chaque catégorie » (000 § Fatigue et épuisement)."""
    view = make_view("douaratil")
    combo = view.conditions.ladders[0].combo
    combo.setFocus()
    combo.setCurrentIndex(combo.findData(6))
    combo.activated.emit(combo.currentIndex())
    assert view.vm.sheet.exhaustion == 6
    assert view.health.maximum_label.text() == "8"
    assert view.health.maximum_label.toolTip() == "maximum 8 = 14 − 6 (épuisement niveau 6)"
    assert view.health.current_label.text() == "8"
    assert "−6 à tous les jets" in view.conditions.ladders[0].effect.text()


def test_exhaustion_by_keyboard(qtbot: Any, make_view: Any) -> None:
    view = make_view("douaratil")
    combo = view.conditions.ladders[0].combo
    combo.setFocus()
    QTest.keyClick(combo, Qt.Key.Key_Down)
    assert view.vm.sheet.exhaustion == 1


def test_undo_restores_the_exact_previous_sheet(qtbot: Any, make_view: Any) -> None:
    view = make_view("douaratil")
    before = view.vm.sheet
    enter(qtbot, view, "7")
    view.vm.apply(rules.SetExhaustion(level=3))
    middle = view.vm.sheet
    assert view.vm.undo_stack.undoText() == "Épuisement niveau 3"
    view.vm.undo_stack.undo()
    assert view.vm.sheet.model_dump() != middle.model_dump()
    view.vm.undo_stack.undo()
    assert view.vm.sheet == before
    assert view.vm.sheet.model_dump() == before.model_dump()
    assert view.health.current_label.text() == "14"
    assert view.journal.model.rowCount() == 0
    view.vm.undo_stack.redo()
    assert view.vm.sheet.current == 7
    assert view.journal.model.rowCount() == 1


def test_refused_long_rest_shows_the_message_and_changes_nothing(qtbot: Any, make_view: Any, answer: Any) -> None:
    """« il doit avoir au moins 1 point d'action au début de cette période de repos » (000 § Repos long)."""
    view = make_view("douaratil")
    view.vm.apply(rules.Damage(amount=14, rolls=(18,)))
    assert view.vm.sheet.current == 0
    before, steps = view.vm.sheet, view.vm.undo_stack.count()
    ask = answer("ask_action", rules.LongRest(hours=8))
    qtbot.mouseClick(view.rests.buttons["long_rest"], Qt.MouseButton.LeftButton)
    assert ask.calls and ask.calls[0][1] is rules.LongRest
    assert view.vm.sheet is before
    assert view.vm.undo_stack.count() == steps
    assert view.messages.kind() == "error"
    assert "Il faut au moins 1 point d'action au début d'un repos long" in view.messages.text()


def test_long_rest_cancelled_in_its_form_changes_nothing(qtbot: Any, make_view: Any, answer: Any) -> None:
    view = make_view("douaratil")
    answer("ask_action", None)
    qtbot.mouseClick(view.rests.buttons["long_rest"], Qt.MouseButton.LeftButton)
    assert view.vm.undo_stack.count() == 0


@pytest.mark.parametrize(
    ("typed", "reason"),
    [
        ("abc", "« abc » n'est pas un nombre entier ; la valeur 3 est gardée"),
        ("-3", "doit être supérieur ou égal à 1"),
        ("−3", "doit être supérieur ou égal à 1"),
        ("0", "doit être supérieur ou égal à 1"),
        ("2.5", "« 2.5 » n'est pas un nombre entier ; la valeur 3 est gardée"),
    ],
)
def test_invalid_level_is_refused_in_french_and_the_old_value_kept(
    qtbot: Any, make_view: Any, typed: str, reason: str
) -> None:
    view = make_view("douaratil")
    field = view.fields.binders["level"].widget
    field.setFocus()
    field.selectAll()
    if typed.isascii():
        qtbot.keyClicks(field, typed)
    else:  # QTest types ASCII only: the typographic minus is inserted as a paste would
        field.insert(typed)
    qtbot.keyClick(field, Qt.Key.Key_Return)
    assert view.vm.sheet.level == 3
    assert field.text() == "3"
    assert view.messages.kind() == "error"
    message = view.messages.text()
    assert "niveau" in message.lower()
    assert reason in message
    assert view.vm.undo_stack.count() == 0


def test_valid_field_edit_goes_through_undo(qtbot: Any, make_view: Any) -> None:
    view = make_view("douaratil")
    field = view.fields.binders["name"].widget
    field.setFocus()
    field.selectAll()
    qtbot.keyClicks(field, "Ulfred le Rouge")
    qtbot.keyClick(field, Qt.Key.Key_Return)
    assert view.vm.sheet.name == "Ulfred le Rouge"
    assert view.vm.undo_stack.undoText() == "Modifier Nom"
    assert "Nom : « Ulfred » → « Ulfred le Rouge »." in journal_top(view)
    view.vm.undo_stack.undo()
    assert field.text() == "Ulfred"


def test_maximum_edit_and_optional_threshold(qtbot: Any, make_view: Any) -> None:
    view = make_view("douaratil")
    threshold = view.fields.binders["critical_threshold"].widget
    threshold.setFocus()
    qtbot.keyClicks(threshold, "9")
    qtbot.keyClick(threshold, Qt.Key.Key_Return)
    assert view.vm.sheet.critical_threshold == 9
    threshold.selectAll()
    qtbot.keyClick(threshold, Qt.Key.Key_Delete)
    qtbot.keyClick(threshold, Qt.Key.Key_Return)
    assert view.vm.sheet.critical_threshold is None


def test_temporary_points_ask_keep_or_replace(qtbot: Any, make_view: Any, answer: Any) -> None:
    """« vous devez décider si vous conservez ceux que vous possédez déjà ou si vous les remplacez »."""
    view = make_view("douaratil")
    enter(qtbot, view, "5", "temporary")
    assert view.vm.sheet.temporary == 5
    assert view.health.extra_labels["temporary"].text() == "+5 temporaires"
    ask = answer("keep_or_replace", True, False, None)
    enter(qtbot, view, "8", "temporary")
    assert ask.calls[0][1:3] == (5, 8)
    assert view.vm.sheet.temporary == 8
    enter(qtbot, view, "3", "temporary")
    assert view.vm.sheet.temporary == 8
    # Keeping the points changes nothing: no journal entry, no undo step (issue 10 item 10); the
    # message bar says what the rules said.
    assert "conservés" in view.messages.text() and "Rien n'a changé" in view.messages.text()
    steps = view.vm.undo_stack.count()
    enter(qtbot, view, "12", "temporary")
    assert view.vm.sheet.temporary == 8
    assert view.vm.undo_stack.count() == steps
    assert view.health.quick.amount.text() == "12"


def test_temporary_dice_are_rolled_before_the_question(qtbot: Any, make_view: Any, answer: Any) -> None:
    view = make_view("douaratil")
    view.vm.apply(rules.GainTemporary(amount=4))
    ask = answer("keep_or_replace", True)
    enter(qtbot, view, "1d6+10", "temporary")
    new = ask.calls[0][2]
    assert 11 <= new <= 16
    assert view.vm.sheet.temporary == new
    assert "1d6" in journal_top(view)


def test_conditions_tick_and_implied_state_shown_greyed(qtbot: Any, make_view: Any) -> None:
    """Paralysé: « La créature est neutralisée » — Neutralisé is ticked, greyed, with the reason."""
    view = make_view("douaratil")
    model = view.conditions.model
    ids = model.condition_ids()
    assert "paralyse" in ids and "neutralise" in ids
    index = _condition_index(model, "paralyse")
    assert model.setData(index, Qt.CheckState.Checked, Qt.ItemDataRole.CheckStateRole)
    assert "paralyse" in view.vm.sheet.conditions
    implied = _condition_index(model, "neutralise")
    assert model.data(implied, Qt.ItemDataRole.CheckStateRole) == Qt.CheckState.Checked
    assert not model.flags(implied) & Qt.ItemFlag.ItemIsEnabled
    assert "découle" in model.data(implied, Qt.ItemDataRole.ToolTipRole)
    assert "Paralysé" in view.conditions.summary.text()
    assert not model.setData(implied, Qt.CheckState.Unchecked, Qt.ItemDataRole.CheckStateRole)
    view.vm.undo_stack.undo()
    assert model.data(index, Qt.ItemDataRole.CheckStateRole) == Qt.CheckState.Unchecked


def test_condition_ticked_with_the_keyboard(qtbot: Any, make_view: Any) -> None:
    view = make_view("douaratil")
    tree = view.conditions.view
    tree.setFocus()
    index = _condition_index(view.conditions.model, "a_terre")
    tree.setCurrentIndex(index)
    qtbot.keyClick(tree, Qt.Key.Key_Space)
    assert "a_terre" in view.vm.sheet.conditions


def test_condition_tooltip_gives_its_effects(make_view: Any) -> None:
    view = make_view("douaratil")
    info = next(c for c in view.vm.info.conditions if c.id == "empoisonne")
    tip = view.conditions.model.data(_condition_index(view.conditions.model, "empoisonne"), Qt.ItemDataRole.ToolTipRole)
    assert all(effect in tip for effect in info.effects)


def test_wounds_add_bleed_heal_with_scar(qtbot: Any, make_view: Any, answer: Any) -> None:
    view = make_view("douaratil")
    panel = view.wounds
    assert panel is not None
    answer("ask_action", rules.AddWound(wound_type="plaie", severity="major"))
    qtbot.mouseClick(panel.buttons["add"], Qt.MouseButton.LeftButton)
    assert panel.model.rowCount() == 1
    cells = [panel.model.data(panel.model.index(0, c)) for c in range(6)]
    assert cells[0] == "Plaie" and cells[1] == "majeure"
    assert "avant le test de guérison" in cells[4]
    qtbot.mouseClick(panel.buttons["set_wound_bleeding"], Qt.MouseButton.LeftButton)
    assert view.vm.sheet.wounds[0].bleeding
    assert "saigne" in panel.model.data(panel.model.index(0, 3))
    assert panel.buttons["set_wound_bleeding"].text() == "Arrêter le saig&nement"
    answer("ask_action", rules.HealWound(wound_id=1, scar=True))
    qtbot.mouseClick(panel.buttons["heal_wound"], Qt.MouseButton.LeftButton)
    assert panel.model.rowCount() == 0
    assert panel.scars_label is not None and "Plaie" in panel.scars_label.text()


def test_wound_buttons_disabled_without_a_selection(make_view: Any) -> None:
    view = make_view("douaratil")
    assert view.wounds is not None
    assert not view.wounds.buttons["remove_wound"].isEnabled()


def test_death_save_tracker_follows_the_rolls(qtbot: Any, make_view: Any) -> None:
    """« Sur un résultat de 10 ou plus, vous avez réussi … Trois succès … trois échecs » (000)."""
    view = make_view("douaratil")
    # Rolls are totals, one per die roll the rules make: the CON save at 0 PA succeeds (18).
    view.vm.apply(rules.Damage(amount=14, rolls=(18,)))
    assert view.vm.derived.state == "mourant"
    dying = view.dying
    assert dying is not None and dying.successes is not None and dying.failures is not None
    assert "border" in dying.styleSheet()
    view.vm.apply(rules.DeathSave(rolls=(9,)))
    view.vm.apply(rules.DeathSave(rolls=(15,)))
    assert dying.successes.text() == "●○○"
    assert dying.failures.text() == "●○○"
    qtbot.mouseClick(dying.buttons["death_save"], Qt.MouseButton.LeftButton)
    assert view.vm.sheet.death_successes + view.vm.sheet.death_failures == 3
    assert "Jet contre la mort" in journal_top(view)


def test_stabilise_by_first_aid_with_the_helpers_bonus(qtbot: Any, make_view: Any) -> None:
    view = make_view("douaratil", seed=1)
    view.vm.apply(rules.Damage(amount=14, rolls=(18,)))
    dying = view.dying
    assert dying is not None and dying.modifier is not None
    dying.modifier.setValue(18)
    qtbot.mouseClick(dying.buttons["stabilise"], Qt.MouseButton.LeftButton)
    assert view.vm.sheet.stabilised
    assert view.vm.derived.state == "stabilise"
    assert "+18" in journal_top(view)


def test_short_rest_dialog_spends_action_dice_one_at_a_time(qtbot: Any, make_view: Any) -> None:
    view = make_view("douaratil")
    view.vm.apply(rules.Damage(amount=10))
    dialog = ShortRestDialog(view.vm, view)
    qtbot.addWidget(dialog)
    dialog.show()
    assert not dialog.spend.isEnabled()
    qtbot.mouseClick(dialog.start, Qt.MouseButton.LeftButton)
    assert view.vm.sheet.short_rest_open
    assert dialog.spend.isEnabled() and "(3 restants)" in dialog.spend.text()
    qtbot.mouseClick(dialog.spend, Qt.MouseButton.LeftButton)
    assert view.vm.sheet.action_dice_spent == 1
    assert view.vm.sheet.current > 4
    assert "(2 restants)" in dialog.spend.text()
    assert "Dé d'action" in dialog.results.toPlainText()
    assert dialog.points.text() == f"PA : {view.vm.sheet.current} / 14"
    assert view.rests.spend is not None and view.rests.spend.isVisibleTo(view)
    view.vm.apply(rules.AdvanceTime(unit="minute", count=1))
    assert not view.vm.sheet.short_rest_open
    assert not dialog.spend.isEnabled()
    dialog.reject()


def test_rest_button_opens_the_short_rest_dialog(qtbot: Any, make_view: Any) -> None:
    view = make_view("douaratil")
    qtbot.mouseClick(view.rests.buttons["short_rest"], Qt.MouseButton.LeftButton)
    dialogs = view.findChildren(ShortRestDialog)
    assert dialogs and dialogs[-1].isVisible()
    dialogs[-1].reject()


def test_pools_are_edited_and_show_their_effective_maximum(qtbot: Any, make_view: Any) -> None:
    view = make_view("douaratil")
    assert view.pools is not None
    current, base, effective = view.pools._rows["honour"]
    assert (current.text(), base.text(), effective.text()) == ("4", "6", "6")
    view.vm.apply(rules.SetExhaustion(level=2))
    assert effective.text() == "4"
    assert "épuisement niveau 2" in effective.toolTip()
    current.setFocus()
    current.selectAll()
    qtbot.keyClicks(current, "2")
    qtbot.keyClick(current, Qt.Key.Key_Return)
    assert view.vm.sheet.honour.current == 2


def test_critical_event_is_announced(qtbot: Any, make_view: Any) -> None:
    view = make_view("douaratil")
    quick = view.health.quick
    assert quick.critical is not None
    quick.critical.setChecked(True)
    enter(qtbot, view, "3")
    assert view.messages.kind() == "warning"
    assert "Coup critique" in view.messages.text()
    assert not quick.critical.isChecked()


def test_every_derived_value_shown_explains_itself(make_view: Any) -> None:
    view = make_view("douaratil")
    assert view.derived.rows
    for name, (_label, value) in view.derived.rows.items():
        assert value.toolTip() == view.vm.derived.explain(name)
    assert view.fields._modifiers["constitution"].toolTip().startswith("modificateur de Constitution +2")


def _condition_index(model: Any, condition_id: str) -> Any:
    for g in range(model.rowCount()):
        parent = model.index(g, 0)
        for r in range(model.rowCount(parent)):
            index = model.index(r, 0, parent)
            if model.data(index, KeyRole) == condition_id:
                return index
    raise AssertionError(condition_id)


def test_views_built_with_the_same_seed_roll_the_same(make_view: Any) -> None:
    a = make_view("douaratil", seed=3)
    b = make_view("douaratil", seed=3)
    a.vm.apply(rules.Damage(amount="3d6"))
    b.vm.apply(rules.Damage(amount="3d6"))
    assert a.vm.sheet == b.vm.sheet
    assert isinstance(a.vm.rng, random.Random)


def test_the_dying_panel_gets_its_style_sheet_once_in_its_column(qtbot: Any, monkeypatch: Any) -> None:
    """Issue 15: Qt re-polishes a widget with a style sheet of its own, and all its children, each time it
    changes parent. The panel's frame is set once the panel is in its column (``DyingPanel.added_to_column``), never
    while it has no parent; a later change of state still changes it."""
    from ui.sheet.actions import DyingPanel, dying_style

    parents: list[object] = []
    original = DyingPanel.setStyleSheet

    def spied(self: DyingPanel, sheet: str) -> None:
        parents.append(self.parentWidget())
        original(self, sheet)

    monkeypatch.setattr(DyingPanel, "setStyleSheet", spied)
    view = SheetView(rules.demo_sheet("douaratil"), rng=random.Random(7))
    qtbot.addWidget(view)
    dying = view.dying
    assert dying is not None and dying.styleSheet() == dying_style(False)
    assert len(parents) == 1 and parents[0] is not None
    view.vm.apply(rules.Damage(amount=14, rolls=(18,)))
    assert dying.styleSheet() == dying_style(True) and len(parents) == 2
