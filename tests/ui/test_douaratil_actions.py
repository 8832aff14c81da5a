"""Douaratil's own tests on the sheet (issue 13, item 13): the characteristic test in « Autres actions », the
wound's will test and its risk in the wound panel, each through the generic form built from the action."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox, QComboBox, QSpinBox

import rules
from ui.common.forms import ActionForm


def journal_top(view: Any) -> str:
    model = view.journal.model
    return str(model.data(model.index(0, 0), Qt.ItemDataRole.DisplayRole))


def test_the_characteristic_test_is_offered_and_rolled(qtbot: Any, make_view: Any, answer: Any) -> None:
    """« Une blessure mineure augmente le DD de tout test de caractéristique la difficulté d'un degré »"""
    view = make_view("douaratil")
    view.vm.apply(rules.AddWound(wound_type="contusion"))
    button = view.others.buttons["ability_check"]
    assert button.text() == "Test de caractéristique…"
    ask = answer("ask_action", rules.AbilityCheck(ability="wisdom", dd=16, rolls=(17,)))
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert ask.calls and ask.calls[0][1] is rules.AbilityCheck
    top = journal_top(view)
    assert top.startswith("Test de caractéristique")
    assert "Test de Sagesse (moyen, DD 16 + 6 : 1 palier des blessures → difficile) : 3d6 = 17 (valeur donnée)" in top
    assert "contre DD 22 → échec." in top


def test_the_form_of_the_test_speaks_french(qtbot: Any, make_view: Any) -> None:
    view = make_view("douaratil")
    form = ActionForm(rules.AbilityCheck, view.vm.info, parent=view)
    qtbot.addWidget(form)
    ability = form.editor("ability")
    assert isinstance(ability, QComboBox)
    assert [ability.itemText(i) for i in range(ability.count())] == [
        "Force",
        "Dextérité",
        "Constitution",
        "Intelligence",
        "Sagesse",
        "Charisme",
    ]
    dd, save = form.editor("dd"), form.editor("save")
    assert isinstance(dd, QSpinBox) and dd.value() == 16 and dd.accessibleName() == "Difficulté (DD avant blessures)"
    assert isinstance(save, QCheckBox) and save.text().startswith("Jet de sauvegarde")
    ability.setCurrentIndex(ability.findData("dexterity"))
    dd.setValue(22)
    form.accept()
    assert form.result_action == rules.AbilityCheck(ability="dexterity", dd=22)


def test_the_wound_panel_offers_the_will_test_and_the_risk(qtbot: Any, make_view: Any, answer: Any) -> None:
    """« fracture 20 jours Usage du membre impossible ou risque d'aggravation 28 »"""
    view = make_view("douaratil")
    view.vm.apply(rules.AddWound(wound_type="fracture"))
    panel = view.wounds
    assert panel is not None
    panel.select(1)
    will = panel.buttons["will_test"]
    assert will.text() == "Test de volonté (SAG)…" and will.isEnabled()
    answer("ask_action", rules.WillTest(wound_id=1, rolls=(18,)))
    qtbot.mouseClick(will, Qt.MouseButton.LeftButton)
    assert "Test de volonté (SAG), Fracture (mineure)" in journal_top(view)
    assert "contre DD 28 → échec." in journal_top(view)
    risk = panel.buttons["wound_risk"]
    view.vm.apply(rules.WoundRisk(wound_id=1, rolls=(3,)))
    assert view.vm.sheet.wounds[0].severity == "major"
    assert risk.isEnabled()
