"""Every list of the sheet is a Qt model that keeps Qt's contract while the sheet changes
(QAbstractItemModelTester watches each one through inserts, removals, changes and resets)."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtTest import QAbstractItemModelTester

import rules
from ui.common.models import ConditionGroup, ConditionItem, ConditionModel, JournalModel, Row, RowsModel


def watch(model: Any) -> QAbstractItemModelTester:
    # QtTest mode reports through qWarning/QTest failures; pytest-qt turns Qt warnings into failures below.
    return QAbstractItemModelTester(model, QAbstractItemModelTester.FailureReportingMode.Warning)


@pytest.fixture(autouse=True)
def _qt_warnings_fail(qtlog: Any) -> Any:
    yield
    problems = [r.message for r in qtlog.records if "FAIL" in r.message or "QAbstractItemModelTester" in r.message]
    assert not problems, problems


@pytest.mark.parametrize("system", rules.SYSTEMS)
def test_every_model_of_a_sheet_under_the_tester(qtmodeltester: Any, make_view: Any, system: str) -> None:
    view = make_view(system)
    qtmodeltester.check(view.conditions.model)
    qtmodeltester.check(view.journal.model)
    testers = [watch(view.conditions.model), watch(view.journal.model)]
    if view.wounds is not None:
        qtmodeltester.check(view.wounds.model)
        testers.append(watch(view.wounds.model))
        if view.wounds.scar_model is not None:
            qtmodeltester.check(view.wounds.scar_model)
            testers.append(watch(view.wounds.scar_model))
    vm = view.vm
    for cond in vm.info.conditions[:3]:
        vm.apply(rules.SetCondition(condition=cond.id))
    vm.apply(rules.Damage(amount=2))
    vm.apply(rules.ClearConditions())
    if view.wounds is not None and view.wounds.add_types:
        action_type = view.wounds.add_types[0]
        form_values = _first_values(action_type, vm.info)
        vm.apply(action_type(**form_values))
    heal = next((t for t in vm.info.actions if t.__name__ == "HealWound"), None)
    if heal is not None and vm.sheet.wounds:
        vm.apply(heal(wound_id=vm.sheet.wounds[0].id, scar=True))  # a scar appears
    while vm.undo_stack.canUndo():
        vm.undo_stack.undo()
    while vm.undo_stack.canRedo():
        vm.undo_stack.redo()
    assert view.journal.model.rowCount() == vm.undo_stack.count()
    qtmodeltester.check(view.conditions.model)
    qtmodeltester.check(view.journal.model)
    del testers


def _first_values(action_type: Any, info: rules.SystemInfo) -> dict[str, Any]:
    fields = action_type.model_fields
    values: dict[str, Any] = {}
    if "wound_type" in fields:
        values["wound_type"] = info.wound_types[0].id
    if "grade" in fields:
        values["grade"] = next(k for k, _ in info.extra["wound_grades"] if k not in ("benigne", "fatale"))
    if "body_part" in fields and fields["body_part"].is_required():
        values["body_part"] = info.extra["body_part_choices"][0][0]
    return values


def test_rows_model_inserts_removes_and_changes_in_place(qtmodeltester: Any) -> None:
    model = RowsModel(["A", "B"])
    watcher = watch(model)
    inserted: list[tuple[int, int]] = []
    removed: list[tuple[int, int]] = []
    changed: list[int] = []
    resets: list[bool] = []
    model.rowsInserted.connect(lambda _p, a, b: inserted.append((a, b)))
    model.rowsRemoved.connect(lambda _p, a, b: removed.append((a, b)))
    model.dataChanged.connect(lambda a, _b, _r=(): changed.append(a.row()))
    model.modelReset.connect(lambda: resets.append(True))
    rows = [Row(1, ("a", "x")), Row(2, ("b", "y"))]
    model.set_rows(rows)
    assert inserted == [(0, 1)]
    model.set_rows([*rows, Row(3, ("c", "z"))])
    assert inserted[-1] == (2, 2)
    model.set_rows([Row(1, ("a", "x")), Row(3, ("c", "CHANGED"))])
    assert removed == [(1, 1)] and changed == [1]
    model.set_rows([Row(3, ("c", "z")), Row(1, ("a", "x"))])
    assert resets == [True]
    qtmodeltester.check(model)
    assert model.headerData(1, Qt.Orientation.Horizontal) == "B"
    assert model.rowCount(model.index(0, 0)) == 0
    del watcher


def test_journal_model_puts_the_newest_on_top(qtmodeltester: Any) -> None:
    model = JournalModel()
    watcher = watch(model)
    model.set_entries(["premier"])
    model.set_entries(["premier", "deuxième", "troisième"])
    assert [model.entry(i) for i in range(3)] == ["troisième", "deuxième", "premier"]
    model.set_entries(["premier"])
    assert model.rowCount() == 1 and model.entry(0) == "premier"
    qtmodeltester.check(model)
    del watcher


def test_journal_model_window_slides_without_reset(qtmodeltester: Any) -> None:
    """A long campaign shows its newest entries only; the window slides by inserts and removals."""
    model = JournalModel()
    watcher = watch(model)
    resets: list[int] = []
    model.modelReset.connect(lambda: resets.append(1))
    entries = [f"entrée {i}" for i in range(10)]
    model.set_entries(entries, limit=4)
    assert [model.entry(i) for i in range(model.rowCount())] == ["entrée 9", "entrée 8", "entrée 7", "entrée 6"]
    entries.append("entrée 10")
    model.set_entries(entries, limit=4)  # a new action: on top, the oldest shown slides out
    assert [model.entry(i) for i in range(4)] == ["entrée 10", "entrée 9", "entrée 8", "entrée 7"]
    model.set_entries(entries[:-1], limit=4)  # undo: the newest goes, an older one comes back below
    assert [model.entry(i) for i in range(4)] == ["entrée 9", "entrée 8", "entrée 7", "entrée 6"]
    assert not resets
    model.set_entries(entries, limit=None)  # « tout afficher »
    assert model.rowCount() == 11 and model.entry(10) == "entrée 0"
    qtmodeltester.check(model)
    del watcher


def test_journal_panel_shows_the_newest_and_offers_the_rest(make_view: Any) -> None:
    from ui.common.journal import SHOWN_ENTRIES

    view = make_view("douaratil")
    panel = view.journal
    assert panel.show_all.isHidden()
    for i in range(SHOWN_ENTRIES + 5):
        view.vm.apply(rules.Heal(amount=1) if i % 2 else rules.Damage(amount=1))
    assert panel.model.rowCount() == SHOWN_ENTRIES
    assert not panel.show_all.isHidden() and str(SHOWN_ENTRIES + 5) in panel.show_all.text()
    panel.show_all.click()
    assert panel.model.rowCount() == SHOWN_ENTRIES + 5
    panel.show_all.click()
    assert panel.model.rowCount() == SHOWN_ENTRIES


def test_condition_model_tree_and_ticks(qtmodeltester: Any) -> None:
    toggles: list[tuple[str, bool]] = []
    groups = [
        ConditionGroup("g1", "Groupe 1", "note", [ConditionItem("a", "A", ("effet a",)), ConditionItem("b", "B", ())]),
        ConditionGroup("vide", "Vide", ""),
        ConditionGroup("g2", "Groupe 2", "", [ConditionItem("c", "C", ("effet c",))]),
    ]
    model = ConditionModel(groups, lambda cid, on: toggles.append((cid, on)) or True)
    watcher = watch(model)
    assert model.rowCount() == 2  # the empty group is not shown
    qtmodeltester.check(model)
    g1 = model.index(0, 0)
    a = model.index(0, 0, g1)
    assert model.parent(a) == g1
    assert model.parent(g1) == QModelIndex()
    assert model.setData(a, Qt.CheckState.Checked, Qt.ItemDataRole.CheckStateRole)
    assert toggles == [("a", True)]
    # The model itself changes only when told the sheet changed.
    assert model.data(a, Qt.ItemDataRole.CheckStateRole) == Qt.CheckState.Unchecked
    model.set_state(frozenset({"a"}), {"c": "découle de A"})
    assert model.data(a, Qt.ItemDataRole.CheckStateRole) == Qt.CheckState.Checked
    c = model.index(0, 0, model.index(1, 0))
    assert model.data(c, Qt.ItemDataRole.CheckStateRole) == Qt.CheckState.Checked
    assert not model.flags(c) & Qt.ItemFlag.ItemIsEnabled
    # Exactly these flags (combined once for every row since session 7): greyed and ticked, or checkable.
    flag = Qt.ItemFlag
    assert model.flags(c) == flag.ItemIsSelectable | flag.ItemNeverHasChildren
    assert (
        model.flags(a)
        == flag.ItemIsSelectable | flag.ItemNeverHasChildren | flag.ItemIsEnabled | flag.ItemIsUserCheckable
    )
    assert model.flags(g1) == flag.ItemIsEnabled
    assert not model.setData(c, Qt.CheckState.Unchecked, Qt.ItemDataRole.CheckStateRole)
    qtmodeltester.check(model)
    del watcher
