"""What players expect of a sheet (issue 10, items 23–25) and the player's view of the journal."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtWidgets import QApplication, QLabel

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
    """The window's keys and those of a GM table's tab, written as French keyboards name them."""
    from ui.common.help import guide_html

    html = guide_html()
    table = window.new_table()
    french = {"Shift": "Maj", "Del": "Suppr", "Return": "Entrée", "Space": "Espace"}
    actions = [*window.actions(), *table.actions()]
    assert len([a for a in actions if not a.shortcut().isEmpty()]) >= 30
    for action in actions:
        for sequence in action.shortcuts():
            key = re.sub(r"\w+", lambda m: french.get(m.group(0), m.group(0)), sequence.toString())
            assert re.search(rf"(?<![\w+]){re.escape(key)}(?![\w+])", html), (action.objectName(), key)


# --- the GM's journal lines from the rules themselves (rules.SECRET_MARK) --------------------------------


def numbed(name: str = "Ysolde") -> Any:
    """A segments character Engourdi: « on ignore son propre total de points de vie, que le meneur garde
    pour lui » — the rules tell the PV figures to the GM only."""
    return rules.evolve(rules.demo_sheet("segments"), name=name, conditions=("engourdi",))


def gm_lines(entries: Any) -> list[str]:
    return [line for entry in entries for line in str(entry).split("\n") if line.startswith(rules.SECRET_MARK)]


def test_a_hit_on_a_numbed_character_tells_the_pv_to_the_gm_only(qtbot: Any, window: MainWindow) -> None:
    view = window.add_doc(window.controller.new(numbed()))
    assert isinstance(view, SheetView) and not window.act_gm.isChecked()
    qtbot.keyClick(window, Qt.Key.Key_D, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(view.health.quick.amount, "3")
    qtbot.keyClick(view.health.quick.amount, Qt.Key.Key_Return)
    assert gm_lines(view.vm.journal), "the rules said a line for the GM"
    shown = [view.journal.model.entry(row) for row in range(view.journal.model.rowCount())]
    assert shown and not gm_lines(shown) and "caché" in shown[-1]
    assert rules.SECRET_MARK not in view.messages.text()
    qtbot.keyClick(window, Qt.Key.Key_M, Qt.KeyboardModifier.ControlModifier)  # the GM's view
    shown = [view.journal.model.entry(row) for row in range(view.journal.model.rowCount())]
    assert gm_lines(shown) == gm_lines(view.vm.journal)


def test_the_gm_table_shows_the_gms_lines_to_the_gm_only(qtbot: Any, window: MainWindow) -> None:
    table = window.new_table()
    window.act_gm.trigger()  # the GM runs the table
    (cid,) = table.vm.add_creatures(numbed())
    table.select_ids([cid])
    table.amount.setFocus()
    qtbot.keyClicks(table.amount, "3")
    qtbot.keyClick(table.amount, Qt.Key.Key_Return)
    creature = table.vm.creature(cid)
    assert creature is not None and gm_lines(creature.journal)
    # The GM's view: the creature's journal shows the lines, marked.
    table.journal_scope.setCurrentIndex(table.journal_scope.findData("creature"))
    model = table.journal_model
    assert gm_lines(model.entry(row) for row in range(model.rowCount()))
    # Its sheet opened from the table follows the window's view.
    sheet_tab = window.open_creature(window.docs[table], cid)  # type: ignore[arg-type]
    assert sheet_tab is not None
    assert gm_lines(sheet_tab.journal.model.entry(r) for r in range(sheet_tab.journal.model.rowCount()))
    qtbot.keyClick(window, Qt.Key.Key_M, Qt.KeyboardModifier.ControlModifier)  # the players' view
    assert not gm_lines(sheet_tab.journal.model.entry(r) for r in range(sheet_tab.journal.model.rowCount()))
    window.tabs.setCurrentWidget(table)
    assert table.journal_box.isHidden()  # the table shows the players no journal at all
    players = table.show_player_window()
    texts = [w.text() for w in players.findChildren(QLabel)]
    texts += [
        str(players.model.index(r, c).data() or "")
        for r in range(players.model.rowCount())
        for c in range(players.model.columnCount())
    ]
    assert texts and not [t for t in texts if rules.SECRET_MARK in t or ("PV" in t and any(ch.isdigit() for ch in t))]
    players.close()
