"""The GM table shows each dying creature's chance of pulling through (issue 17), never to the players."""

from __future__ import annotations

import random
import re
from typing import Any

from PySide6.QtCore import Qt

import rules
from tests.ui.table_helpers import make_table, named_npc, wolf
from ui.table.model import STATE, TableModel
from ui.table.viewmodel import BulkRequest, TableViewModel

NBSP = "\u00a0"


def dying_table() -> TableViewModel:
    vm = TableViewModel(rng=random.Random(3))
    vm.add_creatures(rules.new_sheet("d20", name="Brenna", base_maximum=20, current=-1))
    vm.add_creatures(named_npc("Brann", current=0))
    vm.add_creatures(wolf())
    return vm


def _row(model: TableModel, name: str) -> int:
    return next(r for r in range(model.rowCount()) if model.creature(r) is not None and model.creature(r).name == name)  # type: ignore[union-attr]


def test_the_state_column_gives_the_chance_of_each_dying_creature() -> None:
    vm = dying_table()
    model = TableModel(vm)
    brenna = model.index(_row(model, "Brenna"), STATE)
    story = rules.survival_odds(vm.creatures[0].sheet)
    assert story is not None
    assert brenna.data() == f"Mourant · {story.percent}"
    assert story.text in brenna.data(Qt.ItemDataRole.ToolTipRole)
    brann = model.index(_row(model, "Brann"), STATE)
    assert brann.data().endswith(f"· 72,5{NBSP}%")
    assert "3 succès avant 3 échecs" in brann.data(Qt.ItemDataRole.ToolTipRole)
    assert "Jet contre la mort : 3d6 ≥ 10" in brann.data(Qt.ItemDataRole.ToolTipRole)
    assert "1d100 ≤ 10" in brenna.data(Qt.ItemDataRole.ToolTipRole)
    wolf_state = model.index(_row(model, "Loup"), STATE)
    assert "%" not in wolf_state.data()


def test_the_chance_follows_the_creature_and_stays_hidden_from_the_players() -> None:
    vm = dying_table()
    model = TableModel(vm)
    players = TableModel(vm, player=True)
    brann_id = next(c.id for c in vm.creatures if c.name == "Brann")
    before = model.index(_row(model, "Brann"), STATE).data()
    vm.apply_to(brann_id, rules.DeathSave(rolls=(4,)))  # a failure
    after = model.index(_row(model, "Brann"), STATE).data()
    assert after != before and after.endswith(f"· 51,9{NBSP}%")  # p³(1 + 3q): 3 successes before 2 failures
    for row in range(players.rowCount()):
        for role in (0, 3, 11):  # display, tooltip, accessible text
            value = players.index(row, STATE).data(role)
            assert value is None or not re.search(r"\d|%", str(value))
    # Healed up, no story any more.
    vm.bulk([brann_id], BulkRequest("heal", "5"))
    assert "%" not in model.index(_row(model, "Brann"), STATE).data()


def test_the_table_window_shows_the_chance(qtbot: Any) -> None:
    view = make_table(qtbot, dying_table())
    model = view.model if isinstance(getattr(view, "model", None), TableModel) else None
    texts = []
    for table_model in [m for m in (model, *view.findChildren(TableModel)) if m is not None]:
        texts += [str(table_model.index(r, STATE).data()) for r in range(table_model.rowCount())]
    assert any(f"72,5{NBSP}%" in t for t in texts)
