"""The sheets the rules made are checked in idle time, as the next save will check them (issue 15: a
first save of 1,000 NPCs right after a blow to all of them checked 1,000 sheets while the user waited).

What must hold: the checks start only once the user leaves the document alone, run in bounded slices,
and leave the save's guarantee as it was (a bad sheet is still refused on saving, with the same message,
the old file intact), whether they ran or not.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest

import rules
from sheet_app import controller, files
from sheet_app.controller import OpenTable, table_document
from sheet_app.main_window import MainWindow
from tests.ui.table_helpers import wolf
from ui.table.viewmodel import BulkRequest


@pytest.fixture
def window(make_window: Any) -> MainWindow:
    win = make_window()
    win.set_gm_view(True)
    return win


def _unchecked(sheets: list[Any]) -> list[Any]:
    return [s for s in sheets if not files.is_checked(s)]


def test_a_blow_to_a_whole_table_is_checked_in_idle_time_in_slices_and_the_save_checks_nothing(
    qtbot: Any, window: MainWindow, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    view = window.new_table()
    vm = view.vm
    ids = vm.add_creatures(wolf(), 100, maximum="2d8+4")
    qtbot.waitUntil(lambda: not window.controller.idle_checks.pending(), timeout=10_000)
    vm.bulk(ids, BulkRequest("damage", "1d6", once=False))
    sheets = [c.sheet for c in vm.state.creatures]
    assert len(_unchecked(sheets)) == 100, "the rules' sheets are not known good"
    assert window.controller.idle_checks.pending()
    left: list[int] = [100]
    idle = window.controller.idle_checks
    idle.timer.timeout.connect(lambda: left.append(len(_unchecked(sheets))))  # after each slice
    monkeypatch.setattr(controller, "IDLE_CHECK_SLICE_S", 0.0)  # one step per slice
    qtbot.waitUntil(lambda: not idle.pending(), timeout=10_000)
    slices = [a - b for a, b in itertools.pairwise(left)]
    assert _unchecked(sheets) == []
    assert max(slices) <= files.CHECK_AHEAD_BATCH and len(slices) >= 100 // files.CHECK_AHEAD_BATCH, slices
    # The save finds them checked: no sheet validated again.
    checked: list[str] = []
    real_check = rules.check_sheet
    monkeypatch.setattr(
        rules, "check_sheet", lambda sheet, table=None: checked.append(sheet.name) or real_check(sheet, table)
    )
    doc = window.current_doc()
    assert isinstance(doc, OpenTable)
    files.write_document(tmp_path / "t.table.json", doc.document())
    assert checked == []


def test_no_check_runs_while_the_user_keeps_changing_the_document(qtbot: Any, window: MainWindow) -> None:
    view = window.new_table()
    ids = view.vm.add_creatures(wolf(), 3)
    calls: list[int] = []
    timer = window.controller.idle_checks.timer
    timer.timeout.connect(lambda: calls.append(1))
    for _ in range(3):
        view.vm.bulk(ids, BulkRequest("damage", "1"))
        assert timer.isActive() and timer.remainingTime() > controller.IDLE_CHECK_DELAY_MS // 2
    assert calls == []
    qtbot.waitUntil(lambda: not window.controller.idle_checks.pending(), timeout=10_000)


@pytest.mark.parametrize("idle_first", [False, True])
def test_a_slip_of_the_rules_is_refused_on_saving_with_or_without_the_idle_checks(
    qtbot: Any, window: MainWindow, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, idle_first: bool
) -> None:
    """The idle checks change nothing of the guarantee: a sheet a handler got wrong is refused on saving,
    with the same message, whether the idle checks found it first or not."""
    view = window.new_table()
    vm = view.vm
    vm.add_creatures(rules.demo_sheet("douaratil"))
    path = tmp_path / "t.table.json"
    files.write_document(path, table_document(vm.state))
    old = path.read_bytes()
    handlers = rules.system("douaratil").handlers
    real = handlers[rules.Damage]
    monkeypatch.setitem(handlers, rules.Damage, lambda s, a, c: rules.evolve(real(s, a, c), level=0))  # type: ignore[index]
    vm.bulk([c.id for c in vm.creatures], BulkRequest("damage", "2"))
    if idle_first:
        qtbot.waitUntil(lambda: not window.controller.idle_checks.pending(), timeout=10_000)
    else:
        window.controller.idle_checks.timer.stop()
    assert _unchecked([c.sheet for c in vm.creatures]) != []
    with pytest.raises(files.FileProblem) as caught:
        files.write_document(path, table_document(vm.state))
    assert caught.value.message == (
        f"{path} : 2 problèmes :\n"
        "  fiche n° 1 « Ulfred » ne se rouvrirait pas : « niveau » : doit être supérieur ou égal à 1\n"
        "  rien n'a été écrit (l'ancien fichier est intact) ; corrigez la valeur et réessayez."
    )
    assert path.read_bytes() == old


def test_a_change_after_the_window_is_gone_is_not_a_bug(qtbot: Any, make_window: Any) -> None:
    """As the app quits, a document's undo stack is cleared after the window's children (the idle checks' timer
    among them) were deleted: the change it signals schedules nothing and reports no bug (it did: "Internal C++
    object (QTimer) already deleted", then "the bug report itself failed")."""
    import shiboken6

    from ui.common import guard

    window = make_window()
    view = window.new_table()
    vm = view.vm
    ids = vm.add_creatures(wolf(), 2)
    reported: list[str] = []
    real_report = guard.report
    guard.report = lambda where: reported.append(where) or real_report(where)  # type: ignore[assignment]
    try:
        shiboken6.delete(window.controller.idle_checks)
        vm.bulk(ids, BulkRequest("damage", "1"))
        vm.undo_stack.undo()
    finally:
        guard.report = real_report  # type: ignore[assignment]
    assert reported == []
