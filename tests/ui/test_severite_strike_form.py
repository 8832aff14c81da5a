"""Sévérité: the strike's form shows the vital-zone choice (issue 14), reached by the panel's button."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox, QComboBox, QLineEdit, QSpinBox

import rules
from ui.common.forms import ActionForm


def test_strike_form_offers_the_vital_zone_modifier_unticked(
    qtbot: Any, make_view: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    view = make_view("severite", sheet=rules.new_sheet("severite", name="Ysolde"))
    seen: dict[str, Any] = {}

    def fill(form: ActionForm) -> Any:
        box = form.editor("vital_zone")
        assert isinstance(box, QCheckBox)
        seen["text"], seen["checked"] = box.text(), box.isChecked()
        form.show()
        qtbot.waitExposed(form)
        margin, part, rolls = form.editor("margin"), form.editor("body_part"), form.editor("rolls")
        assert isinstance(margin, QSpinBox) and isinstance(part, QComboBox) and isinstance(rolls, QLineEdit)
        margin.setValue(2)
        part.setCurrentIndex(part.findData("torse"))
        rolls.setText("3, 1")
        qtbot.mouseClick(box, Qt.MouseButton.LeftButton)
        form.accept()
        assert form.result_action is not None
        return ActionForm.DialogCode.Accepted

    monkeypatch.setattr(ActionForm, "exec", fill)
    button = view.tenacity.findChild(type(view.tenacity.buttons["physique"]), "severite_Strike")
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert seen == {"text": "Zone vitale : accorder un Modificateur de plus", "checked": False}
    entry = view.vm.journal[-1]
    puissance = next(line for line in entry.splitlines() if line.startswith("Puissance"))
    assert "+1 (zone vitale)" in puissance and puissance.endswith("= 4.")
