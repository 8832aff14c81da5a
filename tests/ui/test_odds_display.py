"""The chances beside the rolls (issue 17): shown from the rules, following the sheet and the dialogs."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox, QComboBox, QSpinBox

import rules
from ui.common.forms import ActionForm
from ui.sheet.sheet_view import SheetView

NBSP = "\u00a0"


def pct(text: str) -> str:
    """Percentages as shown: no break between the number and « % »."""
    return text.replace(" %", NBSP + "%")


def set_exhaustion(view: SheetView, level: int) -> None:
    """Choose the exhaustion level in its drop-down, as a player does."""
    combo = view.conditions.ladders[0].combo
    combo.setFocus()
    combo.setCurrentIndex(combo.findData(level))
    combo.activated.emit(combo.currentIndex())


def douaratil_dying(**fields: Any) -> Any:
    base: dict[str, Any] = {"name": "Ulfred", "base_maximum": 14, "current": 0, "constitution": 12}
    return rules.new_sheet("douaratil", **{**base, **fields})


def test_the_odds_follow_the_exhaustion_level(qtbot: Any, make_view: Any) -> None:
    """« Le malus s'applique à tout lancer de dés c'est à dire test de caractéristique, test de compétence, Jets
    de sauvegarde »: the level chosen in its drop-down changes the chances shown at once."""
    view = make_view(sheet=douaratil_dying(current=10, constitution=14))
    view.vm.apply(rules.AddWound(wound_type="plaie"))
    assert view.odds.chance_of("constitution_save") == pct("16,2 %")  # 3d6 + 2 ≥ 16: 35 of 216
    view.wounds.select(1)
    assert pct("JS de Constitution, Plaie (mineure) (ne pas rouvrir la plaie) : 16,2 %") in view.wounds.details.text()
    set_exhaustion(view, 2)
    assert view.vm.sheet.exhaustion == 2
    assert view.odds.chance_of("constitution_save") == pct("4,6 %")  # 3d6 + 2 − 2 ≥ 16: 10 of 216
    assert "3d6 + 2 (CON) − 2 (épuisement niveau 2) ≥ DD 16" in view.wounds.buttons["wound_risk"].toolTip()
    assert pct("(ne pas rouvrir la plaie) : 4,6 %") in view.wounds.details.text()
    # Undo puts the old odds back with the old sheet.
    view.vm.undo_stack.undo()
    assert view.odds.chance_of("constitution_save") == pct("16,2 %")


def test_the_death_save_and_the_story_at_zero(qtbot: Any, make_view: Any) -> None:
    """« À la différence des autres jets de sauvegarde, celui-ci n'est pas lié à une caractéristique »: the
    exhaustion malus stays off the death save (D9), so its chance and the story stay as the level changes."""
    view = make_view(sheet=douaratil_dying())
    dying = view.dying
    assert dying is not None
    assert dying.odds["death_save"].text() == pct("62,5 %")
    assert dying.odds["death_save"].toolTip() == pct("Jet contre la mort : 3d6 ≥ 10 : 62,5 %")
    assert dying.survival.text() == pct("Chance de s'en sortir : 72,5 %")
    set_exhaustion(view, 2)
    assert view.vm.sheet.exhaustion == 2
    assert dying.odds["death_save"].text() == pct("62,5 %")
    assert "épuisement" not in dying.odds["death_save"].toolTip()
    assert view.odds.chance_of("death_save") == pct("62,5 %")
    # A save that succeeds moves the story on.
    view.vm.apply(rules.DeathSave(rolls=(15,)))
    assert "déjà 1 succès" in dying.survival.toolTip()
    # Two more successes before three failures: p² (1 + 2q + 3q²) with p = 0,625: 84,8 %.
    assert dying.survival.text() == pct("Chance de s'en sortir : 84,8 %")


def test_the_will_test_form_follows_its_bonus(qtbot: Any, make_view: Any, answer: Any) -> None:
    """« fracture 20 jours Usage du membre impossible ou risque d'aggravation 28 »: 3d6 + SAG ≥ 28 cannot
    succeed without the GM's bonus; typed in the will test's form, the chance follows it."""
    view = make_view(sheet=douaratil_dying(current=10, wisdom=12))
    view.vm.apply(rules.AddWound(wound_type="fracture"))
    view.wounds.select(1)
    asked = answer("ask_action", None)
    qtbot.mouseClick(view.wounds.buttons["will_test"], Qt.MouseButton.LeftButton)
    call = asked.calls[0]
    form = ActionForm(call[1], view.vm.info, fixed=dict(call[3:])["fixed"], preview=dict(call[3:])["preview"])
    qtbot.addWidget(form)
    form.show()
    assert form.odds.text() == pct("Test de volonté (SAG), Fracture (mineure) : 0 %")
    bonus = form.editor("bonus")
    assert isinstance(bonus, QSpinBox)
    bonus.setFocus()
    bonus.selectAll()
    qtbot.keyClicks(bonus, "15")
    assert form.odds.text() == pct("Test de volonté (SAG), Fracture (mineure) : 37,5 %")  # 3d6 ≥ 12: 81 of 216
    assert "3d6 + 1 (SAG) + 15 (bonus) ≥ DD 28" in form.odds.toolTip()


def test_the_first_aid_bonus_changes_the_odds_as_it_is_typed(qtbot: Any, make_view: Any) -> None:
    view = make_view(sheet=douaratil_dying(exhaustion=3))
    dying = view.dying
    assert dying is not None and dying.modifier is not None
    assert dying.odds["stabilise"].text() == pct("4,6 %")  # 3d6 ≥ 16
    spin = dying.modifier
    spin.setFocus()
    for _ in range(3):
        qtbot.keyClick(spin, Qt.Key.Key_Up)
    assert spin.value() == 3
    assert dying.odds["stabilise"].text() == pct("25,9 %")  # 3d6 ≥ 13: 56 of 216
    assert "+ 3 (bonus du soigneur)" in dying.odds["stabilise"].toolTip()
    # Magic rolls nothing: no chance beside the button.
    assert dying.method is not None
    dying.method.setCurrentIndex(dying.method.findData("magic"))
    assert dying.odds["stabilise"].text() == ""


def test_a_dying_d20_character_and_the_rolls_made_as_rounds_pass(qtbot: Any, make_view: Any) -> None:
    view = make_view(sheet=rules.new_sheet("d20", name="Brenna", base_maximum=20, current=-1))
    dying = view.dying
    assert dying is not None
    assert pct("61,3 %") in dying.survival.text()
    assert "se stabiliser seul avant −10 PV" in dying.survival.toolTip()
    assert dying.odds["time"].text() == pct("10 %")
    assert "1d100 ≤ 10" in dying.odds["time"].toolTip()
    # Rounds pass until the first roll has come; if it failed, the story starts one PV lower.
    for _ in range(3):
        qtbot.mouseClick(dying.buttons["tick_round"], Qt.MouseButton.LeftButton)
        if view.vm.sheet.current != -1 or view.vm.sheet.recovery:
            break
    if view.vm.sheet.recovery == "" and not view.vm.sheet.dead:
        assert view.vm.sheet.current == -2
        assert pct("57 %)") in dying.survival.text()  # 1 − 0,9⁸ = 56,95 %


def test_segments_self_stabilise_bonus_and_the_hidden_story(qtbot: Any, make_view: Any) -> None:
    sheet = rules.new_sheet("segments", name="Sil", base_maximum=20, current=-1, constitution=15, fortitude_save=4)
    view = make_view(sheet=sheet)
    dying = view.dying
    assert dying is not None and dying.method is not None and dying.modifier is not None
    dying.method.setCurrentIndex(dying.method.findData("self"))
    assert dying.odds["stabilise"].text() == pct("25 %")
    dying.modifier.setValue(5)
    assert dying.odds["stabilise"].text() == pct("50 %")
    assert dying.survival.isVisible() and dying.survival.text().startswith("Chance de s'en sortir")
    # Engourdi: the player does not know their own points, so neither the story that tells them.
    numb = next(c.id for c in view.vm.info.conditions if c.label == "Engourdi")
    view.vm.apply(rules.SetCondition(condition=numb, active=True))
    assert view.vm.is_hidden("current")
    assert dying.survival.text() == "Chance de s'en sortir : ?"
    assert "−" not in dying.survival.toolTip()
    view.vm.set_gm_view(True)
    assert pct(" %") in dying.survival.text()


def test_the_tenacity_odds_follow_the_chosen_opposition(qtbot: Any, make_view: Any) -> None:
    view = make_view("severite")
    panel = view.tenacity
    assert panel is not None
    label = panel.odds["physique"].label
    tier = label.text()
    assert tier and "Défi de Ténacité" in label.toolTip()
    spin: QSpinBox = panel.opposition
    spin.setFocus()
    spin.selectAll()
    qtbot.keyClicks(spin, "14")
    assert spin.value() == 14
    assert label.text() != tier
    assert "l'Opposition choisie (14)" in label.toolTip()
    assert "réussite Phénoménale" in label.toolTip()


def test_a_dialog_shows_the_odds_of_its_action_live(qtbot: Any) -> None:
    dead = rules.new_sheet("d20", name="Brenna", base_maximum=20, current=-12, dead=True)
    form = ActionForm(
        rules.Resurrection,
        rules.describe("d20"),
        defaults={"procedure": "quick"},
        preview=lambda action: rules.action_odds(dead, action),
    )
    qtbot.addWidget(form)
    form.show()
    assert form.odds.isVisible()
    assert form.odds.text() == pct("Test de Résurrection rapide : 55 %")
    level = form.editor("caster_level")
    assert isinstance(level, QSpinBox)
    level.setFocus()
    level.selectAll()
    qtbot.keyClicks(level, "5")
    assert form.odds.text() == pct("Test de Résurrection rapide : 80 %")
    assert "1d20 + 5 (niveau de lanceur de sorts) ≥ DD 10" in form.odds.toolTip()


def test_the_other_actions_open_their_form_with_the_odds(qtbot: Any, make_view: Any, answer: Any) -> None:
    view = make_view(sheet=rules.new_sheet("d20", name="Brenna", base_maximum=20, current=-12, dead=True))
    asked = answer("ask_action", None)
    button = view.others.buttons["resurrection"]
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    preview = dict(asked.calls[0][3:])["preview"]
    assert preview(rules.Resurrection(procedure="quick", caster_level=5))[0].probability == 0.8


def test_the_chances_panel_lists_the_rolls_made_on_their_own(qtbot: Any, make_view: Any) -> None:
    view = make_view("douaratil")
    assert view.odds.chance_of("constitution_save") != ""
    view.vm.apply(rules.AddWound(wound_type="plaie"))
    assert view.odds.chance_of("wound_risk", subject=1) != ""
    assert "JS de Constitution" in view.wounds.details.text()
    assert "ne pas rouvrir" in view.wounds.buttons["wound_risk"].toolTip()


def test_the_characteristic_test_form_follows_its_fields(qtbot: Any, make_view: Any, answer: Any) -> None:
    """« Une blessure mineure augmente le DD de tout test de caractéristique la difficulté d'un degré »: the form
    opened from « Autres actions » shows the chance of the test as the ability, the DD and the save box change."""
    view = make_view(sheet=douaratil_dying(current=10, strength=14, dexterity=10))
    view.vm.apply(rules.AddWound(wound_type="contusion"))
    asked = answer("ask_action", None)
    qtbot.mouseClick(view.others.buttons["ability_check"], Qt.MouseButton.LeftButton)
    call = asked.calls[0]
    form = ActionForm(call[1], view.vm.info, preview=dict(call[3:])["preview"])
    qtbot.addWidget(form)
    form.show()
    ability = form.editor("ability")
    assert isinstance(ability, QComboBox)
    ability.setCurrentIndex(ability.findData("strength"))
    # FOR 14: 3d6 + 2 ≥ 16 + 6 (a minor wound: one step) → 3d6 ≥ 20: never.
    assert form.odds.text() == pct("Test de Force : 0 %")
    assert "1 palier des blessures" in form.odds.toolTip()
    dd = form.editor("dd")
    assert isinstance(dd, QSpinBox)
    dd.setFocus()
    dd.selectAll()
    qtbot.keyClicks(dd, "10")
    assert form.odds.text() == pct("Test de Force : 16,2 %")  # 3d6 + 2 ≥ 10 + 6 → 3d6 ≥ 14: 35 of 216
    save = form.editor("save")
    assert isinstance(save, QCheckBox)
    qtbot.mouseClick(save, Qt.MouseButton.LeftButton)
    assert save.isChecked()
    assert form.odds.text() == pct("JS de Force : 83,8 %")  # a save keeps DD 10: 3d6 ≥ 8, 181 of 216
