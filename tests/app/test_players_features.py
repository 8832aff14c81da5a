"""What players expect of a sheet (issue 10, items 23–25) and the player's view of the journal."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtWidgets import QApplication

import rules
from sheet_app.main_window import MainWindow
from ui.common.forms import ActionForm
from ui.common.models import KeyRole
from ui.sheet.sheet_view import SheetView

SECRET = f"{rules.SECRET_MARK}PV réels : 3 (caché au joueur)"


def condition_index(view: SheetView, condition: str) -> QModelIndex:
    model = view.conditions.model
    for group in range(model.rowCount()):
        parent = model.index(group, 0)
        for row in range(model.rowCount(parent)):
            index = model.index(row, 0, parent)
            if index.data(KeyRole) == condition:
                return index
    raise AssertionError(condition)


def fill_form(values: dict[str, Any]) -> Any:
    def run(form: ActionForm) -> int:
        for name, value in values.items():
            editor = form.editor(name)
            assert editor is not None, name
            if hasattr(editor, "setValue"):
                editor.setValue(value)
            else:
                editor.setCurrentIndex(editor.findData(value))
        form.accept()
        return form.result()

    return run


# --- item 23: states that end on their own, the clock --------------------------------------------------


def test_a_state_put_for_three_rounds_counts_down_and_ends(
    qtbot: Any, window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    view = window.open_demo("douaratil")
    assert view is not None and view.dying is not None
    panel = view.conditions
    panel.view.setCurrentIndex(condition_index(view, "aveugle"))
    monkeypatch.setattr(ActionForm, "exec", fill_form({"duration": 3, "unit": "round"}))
    assert panel.timed_button is not None
    qtbot.mouseClick(panel.timed_button, Qt.MouseButton.LeftButton)
    assert "aveugle" in view.vm.sheet.conditions
    assert "encore 3 rounds" in condition_index(view, "aveugle").data(Qt.ItemDataRole.DisplayRole)
    assert "Aveuglé : encore 3 rounds" in panel.durations.text()
    assert view.vm.journal[-1].startswith("État Aveuglé : ajouté pour 3 × round")
    tick = view.dying.buttons["tick_round"]
    qtbot.mouseClick(tick, Qt.MouseButton.LeftButton)
    assert "encore 2 rounds" in panel.durations.text()
    qtbot.mouseClick(tick, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(tick, Qt.MouseButton.LeftButton)
    assert "aveugle" not in view.vm.sheet.conditions
    assert not panel.durations.isVisibleTo(view)
    assert "Aveuglé prend fin" in view.vm.journal[-1]
    assert view.rests.clock.text() == "Horloge : jour 1, 00:00:18"


def test_until_the_end_of_the_conflict_is_offered_where_there_is_one(
    qtbot: Any, window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: dict[str, bool] = {}

    def look(form: ActionForm) -> int:
        seen[form.windowTitle()] = form.editor("until_conflict_end") is not None
        return 0

    monkeypatch.setattr(ActionForm, "exec", look)
    for system in ("douaratil", "severite"):
        view = window.open_demo(system)
        assert view is not None and view.conditions.timed_button is not None
        seen.clear()
        qtbot.mouseClick(view.conditions.timed_button, Qt.MouseButton.LeftButton)
        assert seen == {"État pour une durée": system == "severite"}


def test_the_sheets_clock_is_shown_and_dates_each_journal_entry(qtbot: Any, window: MainWindow) -> None:
    view = window.open_demo("d20")
    assert view is not None
    view.vm.apply(rules.AdvanceTime(unit="hour", count=8))
    assert view.rests.clock.text() == "Horloge : jour 1, 08:00:00"
    view.vm.apply(rules.Damage(amount=2))
    assert view.vm.journal[-1].split("\n")[0] == "Dégâts 2 · jour 1, 08:00:00"


# --- item 24: the journal can be searched, copied and exported -----------------------------------------


@pytest.fixture
def played(window: MainWindow) -> SheetView:
    view = window.open_demo("douaratil")
    assert view is not None
    view.vm.apply(rules.Damage(amount=3))
    view.vm.apply(rules.SetExhaustion(level=1))
    view.vm.apply(rules.Heal(amount=1))
    return view


def test_ctrl_f_searches_the_journal_without_accents_or_case(qtbot: Any, window: MainWindow, played: SheetView) -> None:
    qtbot.keyClick(window, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    journal = played.journal
    assert journal.search.hasFocus()
    qtbot.keyClicks(journal.search, "EPUISEMENT")
    assert journal.model.rowCount() == 1 and "Épuisement" in journal.model.entry(0)
    assert journal.found.isVisibleTo(played) and journal.found.text() == "1 entrée(s) sur 3"
    journal.search.clear()
    assert journal.model.rowCount() == 3


def test_copy_the_journal_or_one_entry(qtbot: Any, window: MainWindow, played: SheetView) -> None:
    journal = played.journal
    qtbot.mouseClick(journal.copy_button, Qt.MouseButton.LeftButton)
    text = QApplication.clipboard().text()
    assert text.index("Dégâts 3") < text.index("Soins 1"), "oldest first"
    assert text.count(" · jour 1, ") == 3
    journal.view.setFocus()
    journal.view.setCurrentIndex(journal.model.index(0, 0))
    qtbot.keyClick(journal.view, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    assert QApplication.clipboard().text().startswith("Soins 1")


def test_right_click_offers_copy(qtbot: Any, window: MainWindow, played: SheetView) -> None:
    journal = played.journal
    viewport = journal.view.viewport()
    point = journal.view.visualRect(journal.model.index(1, 0)).center()
    QApplication.sendEvent(
        viewport, QContextMenuEvent(QContextMenuEvent.Reason.Mouse, point, viewport.mapToGlobal(point))
    )
    menu = journal.context_menu
    texts = [a.text() for a in menu.actions()]
    assert texts[0] == "Copier l'entrée" and "Exporter le journal…" in texts
    menu.actions()[0].trigger()
    assert QApplication.clipboard().text().startswith("Épuisement")
    menu.close()


def test_export_writes_a_text_file(
    qtbot: Any, window: MainWindow, played: SheetView, answer: Any, tmp_path: Path
) -> None:
    target = tmp_path / "journal.txt"
    answer("save_text_path", target)
    window.act_export.trigger()
    text = target.read_text(encoding="utf-8")
    assert text.startswith("Journal de Ulfred — exporté le ")
    assert "(horloge de la fiche : jour 1, 00:00:00)" in text
    assert "Dégâts 3 · jour 1, 00:00:00" in text and text.index("Dégâts 3") < text.index("Soins 1")
    assert "Journal exporté" in played.messages.text()


# --- the player's view ---------------------------------------------------------------------------------


@pytest.fixture
def secret(window: MainWindow) -> SheetView:
    return window.add_doc(
        window.controller.new(rules.demo_sheet("segments"), ("Dégâts 6\nAldéric subit 6 dégâts.\n" + SECRET,))
    )


def test_the_players_view_leaves_out_the_gms_lines_everywhere(
    qtbot: Any, window: MainWindow, secret: SheetView, answer: Any, tmp_path: Path
) -> None:
    journal = secret.journal
    assert journal.model.rowCount() == 1
    shown = journal.model.entry(0)
    assert "Aldéric subit 6 dégâts." in shown and rules.SECRET_MARK not in shown
    assert rules.SECRET_MARK not in str(journal.model.index(0, 0).data(Qt.ItemDataRole.ToolTipRole))
    qtbot.mouseClick(journal.copy_button, Qt.MouseButton.LeftButton)
    assert rules.SECRET_MARK not in QApplication.clipboard().text()
    target = tmp_path / "j.txt"
    answer("save_text_path", target, tmp_path / "k.txt")
    journal.export()
    assert rules.SECRET_MARK not in target.read_text(encoding="utf-8")
    # The search does not find what the player may not read.
    journal.search.setText("caché")
    assert journal.model.rowCount() == 0
    journal.search.clear()
    # The GM view shows the line, marked.
    qtbot.keyClick(window, Qt.Key.Key_M, Qt.KeyboardModifier.ControlModifier)
    assert SECRET in journal.model.entry(0)
    journal.export()
    assert SECRET in (tmp_path / "k.txt").read_text(encoding="utf-8")


def test_the_sheet_itself_says_which_view_it_is(qtbot: Any, window: MainWindow, secret: SheetView) -> None:
    assert secret.view_badge.text() == "Vue joueur" and secret.styleSheet() == ""
    qtbot.keyClick(window, Qt.Key.Key_M, Qt.KeyboardModifier.ControlModifier)
    assert secret.view_badge.text() == "Vue meneur" and "#6a1b9a" in secret.styleSheet()
    qtbot.keyClick(window, Qt.Key.Key_M, Qt.KeyboardModifier.ControlModifier)
    assert secret.view_badge.text() == "Vue joueur"


def test_a_no_change_message_leaves_out_the_gms_lines(
    qtbot: Any, window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    view = window.open_demo("douaratil")
    assert view is not None
    real = rules.apply

    def saying_a_secret(sheet: Any, action: Any, rng: Any = None, rules_table: Any = None) -> Any:
        outcome = real(sheet, action, rng, rules_table)
        return outcome._replace(log=(*outcome.log, SECRET))

    monkeypatch.setattr(rules, "apply", saying_a_secret)
    view.vm.apply(rules.Heal(amount=1))  # at full points: nothing changes, the message tells the log
    assert "Rien n'a changé" in view.messages.text() and rules.SECRET_MARK not in view.messages.text()


# --- item 25: a guide in the app ----------------------------------------------------------------------


def test_f1_opens_the_french_guide(qtbot: Any, window: MainWindow) -> None:
    qtbot.keyClick(window, Qt.Key.Key_F1)
    dialog = window.help_dialog
    assert dialog is not None and dialog.isVisible()
    text = dialog.browser.toPlainText()
    for expected in ("Guide de la fiche", "Ctrl+D", "Entrée", "violet", "mourant", "Poser pour une durée"):
        assert expected in text
    dialog.close()
    window.act_help.trigger()  # Aide › Guide de la fiche: the same window, again
    assert window.help_dialog is dialog and dialog.isVisible()
    dialog.close()


def test_the_guide_lists_every_shortcut_of_the_window(window: MainWindow) -> None:
    from ui.common.help import guide_html

    html = guide_html()
    for action in window.actions():
        for sequence in action.shortcuts():
            key = sequence.toString().replace("Shift", "Maj")
            assert re.search(rf"(?<![\w+]){re.escape(key)}(?![\w+])", html), (action.objectName(), key)
