"""Shared by the GM table tests: creatures to put at a table, and a table view fixture."""

from __future__ import annotations

import random
from typing import Any

import rules
from ui.table.table_view import TableView
from ui.table.viewmodel import TableViewModel


def wolf(name: str = "Loup") -> Any:
    """A Douaratil monster that dies at 0 PA (« meurt à 0 »)."""
    return rules.new_sheet("douaratil", name=name, is_npc=True, dies_at_zero=True, base_maximum=9, current=9)


def named_npc(name: str = "Brann", current: int = 12) -> Any:
    """A named Douaratil NPC: at 0 PA it is dying and rolls death saves."""
    return rules.new_sheet("douaratil", name=name, is_npc=True, base_maximum=12, current=current)


def mixed_vm(seed: int = 5) -> TableViewModel:
    """Six wolves, a named NPC, one demo creature of each system."""
    vm = TableViewModel(rng=random.Random(seed))
    vm.add_creatures(wolf(), 6)
    vm.add_creatures(named_npc())
    for system_id in rules.SYSTEMS:
        vm.add_creatures(rules.demo_sheet(system_id))
    return vm


def make_table(qtbot: Any, vm: TableViewModel | None = None, seed: int = 5) -> TableView:
    view = TableView(vm, rng=random.Random(seed)) if vm is not None else TableView(rng=random.Random(seed))
    qtbot.addWidget(view)
    view.resize(1400, 700)
    view.show()
    qtbot.waitExposed(view)
    # Shortcuts only reach an active window.
    view.activateWindow()
    qtbot.waitUntil(view.isActiveWindow)
    return view
