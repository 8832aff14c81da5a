"""House rules from the window (issue 18), driven the way a GM does: the « Règles maison » menu, its
file questions answered, the death-save button clicked, Ctrl+Z, Ctrl+S and the file reopened.

« pytest-qt: load a house table that changes the Douaratil death-save threshold, roll → the new
threshold is used and explained; undo returns to the base rules. » (issue 18, Proof)
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMenu

import rules
from rules import house
from sheet_app import files, house_menu
from sheet_app.main_window import MainWindow
from sheet_app.settings import Settings
from tests.rules.house_helpers import set_key
from tests.ui.table_helpers import named_npc
from ui.sheet.sheet_view import SheetView
from ui.table.table_view import TableView

TITLE = "Campagne de Brume"


def house_file(tmp_path: Path, system_id: str, path: tuple[Any, ...], value: Any, name: str = "brume.toml") -> Path:
    """The exported base rules of ``system_id`` with one key changed, as a GM edits them."""
    text, _line = set_key(house.export_base(system_id), path, value)
    text = text.replace(f'title = "Règles maison {rules.system(system_id).label}"', f'title = "{TITLE}"')
    target = tmp_path / name
    target.write_text(text, encoding="utf-8")
    return target


def _is_house_menu(action: Any) -> bool:
    return action.menu() is not None and action.menu().objectName() == "houseRulesMenu"


def house_actions(window: MainWindow) -> dict[str, Any]:
    """The « Règles maison » submenu's entries by object name, found in the « Fiche » menu."""
    sheet_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "Fi&che")
    assert isinstance(sheet_menu, QMenu)
    submenu = next(
        a.menu() for a in sheet_menu.actions() if a.menu() is not None and a.menu().objectName() == "houseRulesMenu"
    )
    assert isinstance(submenu, QMenu)
    submenu.aboutToShow.emit()
    return {a.objectName(): a for a in submenu.actions()}


def current_sheet(window: MainWindow) -> SheetView:
    """The sheet of the current tab (other rules may lay a sheet out anew: a new view, same view-model)."""
    view = window.current_view()
    assert isinstance(view, SheetView)
    assert view.built_info == view.vm.info
    return view


def dying(view: SheetView) -> None:
    """Ulfred falls to 0 PA and his CON save succeeds: he is dying and rolls death saves."""
    view.vm.apply(rules.Damage(amount=view.vm.sheet.current, rolls=(18,)))
    assert view.vm.derived.state == "mourant"


def click_death_save(qtbot: Any, window: MainWindow, view: SheetView) -> str:
    """Clicks « Jet contre la mort » with dice that roll 3d6 = 10 (5, 1, 4); the journal entry."""
    window.rng.seed(6)
    assert view.dying is not None
    qtbot.mouseClick(view.dying.buttons["death_save"], Qt.MouseButton.LeftButton)
    return view.vm.journal[-1]


def test_death_save_threshold_from_a_house_table_is_used_explained_and_undone(
    qtbot: Any, window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """« Sur un résultat de 10 ou plus, vous avez réussi » (000): the GM's table says 12."""
    view = window.open_demo("douaratil")
    assert isinstance(view, SheetView)
    # Exporter les règles de base…: the shipped table as a commented TOML file.
    exported = tmp_path / "regles.toml"
    monkeypatch.setattr(house_menu, "ask_export_path", lambda *a: exported)
    house_actions(window)["actHouseExport"].trigger()
    assert exported.read_text(encoding="utf-8") == house.export_base("douaratil")
    assert not house_actions(window)["actHouseBase"].isEnabled()
    # The GM edits it: death saves succeed on 12 or more. Charger des règles maison…
    brume = house_file(tmp_path, "douaratil", ("saves", "death_save_success"), 12)
    asked: list[Path] = []
    monkeypatch.setattr(house_menu, "ask_house_path", lambda _parent, folder: asked.append(folder) or brume)
    house_actions(window)["actHouseLoad"].trigger()
    assert asked == [tmp_path.resolve()]  # the export's folder, remembered
    view = current_sheet(window)
    assert view.vm.house is not None and view.vm.house.title == TITLE
    banner = view.house_banner
    assert banner.isVisible() and banner.text() == f"Règles maison : {TITLE}"
    assert "saves.death_save_success" in banner.toolTip() and "12 au lieu de 10" in banner.toolTip()
    title, first = view.vm.journal[-1].split("\n")[:2]
    assert title.split(" · ")[0] == f"Règles maison : {TITLE}"  # then the sheet's clock
    assert first == "Différences avec les règles de base :"
    assert window.act_undo.text() == f"&Annuler : Règles maison : {TITLE}"
    assert window.isWindowModified()
    dying(view)
    assert "12 ou plus" in view.vm.explain("death_saves") and "règles maison" in view.vm.explain("death_saves")
    entry = click_death_save(qtbot, window, view)
    assert "= 10" in entry and "→ échec" in entry, entry
    assert "Règles maison en jeu : saves.death_save_success = 12 au lieu de 10." in entry
    assert view.vm.sheet.death_failures == 1
    # Ctrl+Z three times: the roll, the fall, then the rules: back to the base rules.
    for _ in range(3):
        qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    view = current_sheet(window)
    banner = view.house_banner
    assert view.vm.house is None and not banner.isVisible()
    assert not house_actions(window)["actHouseBase"].isEnabled()
    dying(view)
    assert "10 ou plus" in view.vm.explain("death_saves") and "maison" not in view.vm.explain("death_saves")
    entry = click_death_save(qtbot, window, view)
    assert "= 10" in entry and "→ succès" in entry and "Règles maison" not in entry, entry


def test_a_broken_house_table_is_refused_with_its_line_and_nothing_changes(
    window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, answer: Any
) -> None:
    view = window.open_demo("douaratil")
    assert isinstance(view, SheetView)
    broken = house_file(tmp_path, "douaratil", ("saves", "death_save_success"), "dix")
    line = broken.read_text(encoding="utf-8").split("\n").index('death_save_success = "dix"') + 1
    monkeypatch.setattr(house_menu, "ask_house_path", lambda *a: broken)
    shown = answer("show_error", None)
    sheet, journal = view.vm.sheet, view.vm.journal
    house_actions(window)["actHouseLoad"].trigger()
    ((_parent, title, text),) = shown.calls
    assert title == "Règles maison refusées"
    assert text.startswith(f"Règles maison refusées : {broken}\n")
    assert f"ligne {line}, saves.death_save_success : attendu un entier" in text and 'trouvé "dix"' in text
    assert text.endswith("Rien n'a changé.")
    assert view.vm.house is None and view.vm.sheet is sheet and view.vm.journal == journal
    assert not view.vm.undo_stack.canUndo() and not view.house_banner.isVisible()


def test_rules_the_sheet_does_not_fit_are_refused_in_its_message_bar(
    window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A sheet three death failures from the end cannot play by rules that end it at two."""
    view = window.open_demo("douaratil")
    assert isinstance(view, SheetView)
    dying(view)
    view.vm.apply(rules.DeathSave(rolls=(3,)))
    view.vm.apply(rules.DeathSave(rolls=(3,)))
    assert view.vm.sheet.death_failures == 2
    fewer = house_file(tmp_path, "douaratil", ("saves", "death_saves_needed"), 2)
    monkeypatch.setattr(house_menu, "ask_house_path", lambda *a: fewer)
    steps = view.vm.undo_stack.count()
    house_actions(window)["actHouseLoad"].trigger()
    assert view.vm.house is None and view.vm.undo_stack.count() == steps
    message = view.messages.text()
    assert message.startswith("Règles refusées : « Ulfred » ne les respecte pas (rien n'a changé) :"), message


def test_a_sheet_saved_with_house_rules_reopens_with_them(
    qtbot: Any, window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, answer: Any
) -> None:
    view = window.open_demo("d20")
    assert isinstance(view, SheetView)
    brume = house_file(tmp_path, "d20", ("thresholds", "death_at_minus_constitution"), True)
    monkeypatch.setattr(house_menu, "ask_house_path", lambda *a: brume)
    house_actions(window)["actHouseLoad"].trigger()
    view = current_sheet(window)
    chosen = view.vm.house
    assert chosen is not None
    target = tmp_path / "brume.fiche.json"
    answer("save_path", target)
    qtbot.keyClick(window, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    data = json.loads(target.read_text(encoding="utf-8"))
    assert data["house"]["d20"]["title"] == TITLE
    assert data["house"]["d20"]["table"]["thresholds"]["death_at_minus_constitution"] is True
    assert window.close_view(view)
    # The file travels alone: the house-rule file is gone, the sheet still plays by it.
    brume.unlink()
    (again,) = window.open_paths([target])
    assert isinstance(again, SheetView)
    assert again.vm.house == chosen and again.house_banner.text() == f"Règles maison : {TITLE}"
    assert again.vm.derived == rules.derive(again.vm.sheet, chosen.table)
    # « Revenir aux règles de base »: undoable, in the journal; saved without the house rules.
    house_actions(window)["actHouseBase"].trigger()
    again = current_sheet(window)
    assert again.vm.house is None and again.vm.journal[-1].startswith("Retour aux règles de base")
    assert window.save()
    assert "house" not in json.loads(target.read_text(encoding="utf-8"))
    assert files.read_document(target)[0].house == []
    # « Exporter les règles maison en vigueur… »: back under them (Ctrl+Z), written out again to edit.
    window.act_undo.trigger()
    assert current_sheet(window).vm.house == chosen
    again_file = tmp_path / "encore.toml"
    monkeypatch.setattr(house_menu, "ask_export_path", lambda _parent, suggested: again_file)
    house_actions(window)["actHouseExportCurrent"].trigger()
    assert house.load_house_rules("d20", again_file) == chosen


def test_a_gm_table_plays_by_house_rules_for_one_system(
    qtbot: Any, window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, answer: Any
) -> None:
    table = window.new_table()
    vm = table.vm
    ids = vm.add_creatures(named_npc(current=1), 2, name="Garde")
    other = vm.add_creatures(rules.demo_sheet("severite"))
    brume = house_file(tmp_path, "douaratil", ("saves", "death_save_success"), 12)
    monkeypatch.setattr(house_menu, "ask_house_path", lambda *a: brume)
    systems: list[list[str]] = []
    monkeypatch.setattr(house_menu, "ask_system", lambda _parent, found: systems.append(found) or "douaratil")
    # In the « Table » menu too (the same submenu).
    window._fill_table_menu()
    entry = next(
        a for a in window.table_menu.actions() if a.menu() is not None and a.menu().objectName() == "houseRulesMenu"
    )
    submenu = entry.menu()
    assert isinstance(submenu, QMenu)
    submenu.aboutToShow.emit()
    next(a for a in submenu.actions() if a.objectName() == "actHouseLoad").trigger()
    assert systems == [["douaratil", "severite"]]
    assert vm.house_of("douaratil") is not None and vm.house_of("severite") is None
    assert table.house_banner.isVisible() and table.house_banner.text() == f"Règles maison : {TITLE}"
    assert vm.state.journal[-1].startswith(f"Règles maison : {TITLE} (Douaratil)")
    assert all(vm.creature(i).journal[-1].startswith(f"Règles maison : {TITLE}") for i in ids)
    assert not any("Règles maison" in e for e in vm.creature(other[0]).journal)
    # The guards fall and roll their death saves by the table's rules.
    vm.apply_to(ids[0], rules.Damage(amount=1, rolls=(18,)))
    outcome = vm.apply_to(ids[0], rules.DeathSave(rolls=(11,)))
    assert outcome is not None and "→ échec" in outcome.log[0]
    # A creature opened in its sheet shows the same rules.
    opened = window.open_creature(window.docs[table], ids[0])
    assert opened is not None and opened.vm.house == vm.house_of("douaratil")
    assert opened.house_banner.text() == f"Règles maison : {TITLE}"
    # Saved and reopened: the table keeps its rules.
    window.tabs.setCurrentWidget(table)
    target = tmp_path / "garde.table.json"
    answer("save_path", target)
    assert window.save()
    doc, _ = files.read_document(target)
    assert [h.system for h in doc.house] == ["douaratil"] and doc.house[0].title == TITLE
    # A guard saved as a sheet of its own keeps the rules it plays by.
    alone = tmp_path / "garde.fiche.json"
    answer("save_path", alone)
    table.select_ids([ids[1]])
    assert table.export_current()
    sheet_doc, _ = files.read_document(alone)
    assert sheet_doc.house == [vm.house_of("douaratil")]
    # Ctrl+Z back past the rules change: base rules for every guard, the sheet tab follows.
    while vm.house_of("douaratil") is not None:
        assert vm.undo_stack.canUndo()
        vm.undo_stack.undo()
    shown = window._sheet_view_of(opened.vm)
    assert shown is not None and shown.vm.house is None and not shown.house_banner.isVisible()
    assert not table.house_banner.isVisible()
    QApplication.processEvents()


def test_the_house_rules_folder_is_remembered_between_runs(tmp_path: Path) -> None:
    settings = Settings(tmp_path / "config.ini")
    assert settings.house_rules_folder() is None
    settings.set_house_rules_folder(tmp_path)
    settings.sync()
    assert Settings(tmp_path / "config.ini").house_rules_folder() == tmp_path.resolve()


def test_markup_in_a_house_title_is_shown_as_text(
    window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    view = window.open_demo("douaratil")
    assert isinstance(view, SheetView)
    brume = house_file(tmp_path, "douaratil", ("saves", "death_save_success"), 12)
    brume.write_text(brume.read_text(encoding="utf-8").replace(TITLE, "<h1>x</h1><img src=a.png>"), encoding="utf-8")
    monkeypatch.setattr(house_menu, "ask_house_path", lambda *a: brume)
    house_actions(window)["actHouseLoad"].trigger()
    banner = current_sheet(window).house_banner
    assert banner.textFormat() == Qt.TextFormat.PlainText
    assert banner.text() == "Règles maison : <h1>x</h1><img src=a.png>"
    assert "<h1>" not in banner.toolTip() and "&lt;h1&gt;x&lt;/h1&gt;" in banner.toolTip()


def test_every_house_rules_entry_without_a_document_is_disabled(window: MainWindow) -> None:
    actions = house_actions(window)
    assert set(actions) == {"actHouseExport", "actHouseExportCurrent", "actHouseLoad", "actHouseBase"}
    assert not any(a.isEnabled() for a in actions.values())
    assert isinstance(window.current_view(), (SheetView, TableView, type(None)))


def test_a_document_prints_by_its_house_rules() -> None:
    """A sheet and a GM table print the numbers of the rules they play by, not the shipped ones."""
    from ui.printing import blocks, layout

    table = rules.ruleset("douaratil")
    five = table.model_copy(update={"saves": table.saves.model_copy(update={"death_saves_needed": 5})})
    brume = house.HouseRules("douaratil", TITLE, five)
    sheet = rules.evolve(rules.demo_sheet("douaratil"), current=0, death_failures=1)

    def saves(printout: blocks.Printout) -> list[int]:
        found = [b for b in printout.blocks if isinstance(b, blocks.Tally) and b.label == "Jets contre la mort"]
        found += [
            t
            for k in printout.blocks
            if isinstance(k, blocks.Keep)
            for t in k.blocks
            if isinstance(t, blocks.Tally) and t.label == "Jets contre la mort"
        ]
        return [g.count for g in found[0].groups]

    plain = files.Document("sheet", [sheet], [[]])
    assert saves(layout.document_printouts(plain)[0]) == [3, 3]
    with_house = files.Document("sheet", [sheet], [[]], house=[brume])
    assert saves(layout.document_printouts(with_house)[0]) == [5, 5]
    # A GM table: a d20 guard at −12 PV is dead by the book, dying when death comes at −CON (18).
    d20 = rules.ruleset("d20")
    minus_con = d20.model_copy(
        update={"thresholds": d20.thresholds.model_copy(update={"death_at_minus_constitution": True})}
    )
    guard = rules.evolve(rules.demo_sheet("d20"), current=-12)
    for house_rules, state in (([], "Mort"), ([house.HouseRules("d20", TITLE, minus_con)], "Mourant")):
        printed = layout.document_printouts(files.Document("table", [guard], [[]], house=house_rules))[0]
        rows = next(b for b in printed.blocks if isinstance(b, blocks.Table)).rows
        assert blocks.Styled(text=state, style="bold") in rows[0], rows[0]


def test_rules_that_lay_the_sheet_out_otherwise_give_the_tab_a_new_view(
    qtbot: Any, window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Eight levels of exhaustion instead of six: the exhaustion selector offers 0 to 8 at once, and
    Ctrl+Z lays the sheet out by the base rules again; the tab, its history and its file stay the same."""
    from PySide6.QtWidgets import QComboBox

    view = window.open_demo("douaratil")
    assert isinstance(view, SheetView)
    vm = view.vm
    levels = view.findChild(QComboBox, "ladder_exhaustion")
    assert levels is not None and levels.count() == 7
    eight = house_file(tmp_path, "douaratil", ("exhaustion", "max_level"), 8)
    monkeypatch.setattr(house_menu, "ask_house_path", lambda *a: eight)
    index = window.tabs.currentIndex()
    house_actions(window)["actHouseLoad"].trigger()
    new = current_sheet(window)
    assert new is not view and new.vm is vm and window.tabs.currentIndex() == index and window.tabs.count() == 1
    levels = new.findChild(QComboBox, "ladder_exhaustion")
    assert levels is not None and levels.count() == 9
    # The new selector works: level 8 chosen with the keyboard.
    levels.setFocus()
    levels.setCurrentIndex(7)
    qtbot.keyClick(levels, Qt.Key.Key_Down)
    qtbot.keyClick(levels, Qt.Key.Key_Return)
    QApplication.processEvents()
    if vm.sheet.exhaustion != 8:  # a closed combo box applies on « activated »: as a user's choice
        levels.activated.emit(8)
    assert vm.sheet.exhaustion == 8
    # Édition › Annuler twice: the level, then the rules.
    assert vm.undo_stack.count() == 2
    window.act_undo.trigger()
    window.act_undo.trigger()
    back = current_sheet(window)
    assert back.vm is vm and vm.house is None
    combo = back.findChild(QComboBox, "ladder_exhaustion")
    assert combo is not None and combo.count() == 7


def test_a_creature_added_to_a_table_is_checked_against_its_house_rules() -> None:
    """Two death failures are the end under a house table that needs two: such a creature is refused."""
    import random

    from ui.table.viewmodel import TableViewModel

    vm = TableViewModel(rng=random.Random(1))
    table = rules.ruleset("douaratil")
    two = table.model_copy(update={"saves": table.saves.model_copy(update={"death_saves_needed": 2})})
    assert vm.set_house_rules("douaratil", house.HouseRules("douaratil", TITLE, two))
    refused: list[str] = []
    vm.refused.connect(refused.append)
    dying_at_two = rules.evolve(named_npc(current=0), death_failures=2)
    assert vm.add_creatures(dying_at_two) == []
    assert refused and "2 échecs signifient la mort" in refused[0], refused
    assert vm.add_creatures(named_npc()) != []


def test_a_table_row_is_recomputed_at_once_by_new_rules(qtbot: Any, window: MainWindow) -> None:
    """A d20 guard at −12 PV (Constitution 18): dead by the book, dying when death comes at −CON; the
    row's state badge follows the rules in force, and Ctrl+Z puts the book back."""
    table = window.new_table()
    vm = table.vm
    (guard,) = vm.add_creatures(rules.evolve(rules.demo_sheet("d20"), current=-12, name="Garde"))
    model = table.grid.model()
    row = vm.state.row_of(guard)

    def shown_state() -> str:
        texts = [str(model.index(row, c).data()) for c in range(model.columnCount())]
        states = [t for t in texts if t in ("Mort", "Mourant")]
        assert len(states) == 1, texts
        return states[0]

    assert vm.summary(vm.creature(guard)).state == "mort" and shown_state() == "Mort"
    d20 = rules.ruleset("d20")
    minus_con = d20.model_copy(
        update={"thresholds": d20.thresholds.model_copy(update={"death_at_minus_constitution": True})}
    )
    assert vm.set_house_rules("d20", house.HouseRules("d20", TITLE, minus_con))
    assert vm.summary(vm.creature(guard)).state == "mourant" and shown_state() == "Mourant"
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert vm.house_of("d20") is None and shown_state() == "Mort"


def test_the_chances_shown_follow_the_house_rules() -> None:
    """« Sur un résultat de 10 ou plus, vous avez réussi » (000): 62,5 % on 3d6; 12 or more: 37,5 %."""
    from ui.sheet.viewmodel import SheetViewModel

    vm = SheetViewModel(rules.demo_sheet("douaratil"))
    vm.apply(rules.Damage(amount=vm.sheet.current, rolls=(18,)))

    def death_save() -> str:
        return next(c.text for c in vm.odds.rolls if c.text.startswith("Jet contre la mort"))

    assert "≥ 10" in death_save() and "62,5\u00a0%" in death_save(), death_save()
    table = rules.ruleset("douaratil")
    twelve = table.model_copy(update={"saves": table.saves.model_copy(update={"death_save_success": 12})})
    assert vm.set_house_rules(house.HouseRules("douaratil", TITLE, twelve))
    assert "≥ 12" in death_save() and "37,5\u00a0%" in death_save(), death_save()
    vm.undo_stack.undo()
    assert "≥ 10" in death_save()
