"""Issue 15 (start-up): Qt re-polishes a widget that has a style sheet of its own, with all its children,
each time it changes parent (``QWidgetPrivate::inheritStyle`` → ``QStyleSheetStyle::repolish``). A sheet's
widgets get their own style sheets once they have the parent they keep (the dying panel's frame, the quick
entry's field, the message bar's scroll area, the house-rules banner), so building a sheet re-polishes none
of them (the dying panel's was ~6 M instructions of a Douaratil start)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from PySide6.QtWidgets import QWidget

import rules
from ui.sheet.actions import Pips
from ui.sheet.sheet_view import SheetView


@pytest.mark.parametrize("system", ["douaratil", "d20", "segments", "severite"])
def test_a_sheet_sets_no_style_sheet_on_a_widget_that_then_moves(qtbot: Any, monkeypatch: Any, system: str) -> None:
    styled: list[tuple[QWidget, QWidget | None]] = []
    original = QWidget.setStyleSheet

    def spied(self: QWidget, sheet: str) -> None:
        if sheet:
            styled.append((self, self.parentWidget()))
        original(self, sheet)

    monkeypatch.setattr(QWidget, "setStyleSheet", spied)
    view = SheetView(rules.demo_sheet(system), rng=random.Random(7))
    qtbot.addWidget(view)
    assert styled  # the sheet has widgets with their own style sheets (the quick entry's field at least)
    names = {w.objectName() for w, _ in styled}
    assert "quickAmount" in names and "messageScroll" in names and "houseRulesBanner" in names
    # A death-save tracker's pips (two labels with no child) are the one exception left: made before the row
    # they go in has a widget.
    moved = [w for w, parent in styled if w.parentWidget() is not parent and not isinstance(w, Pips)]
    assert moved == []
