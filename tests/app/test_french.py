"""French, labels, dialogs (issue 10, items 18–20 and 22)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QCoreApplication, QLocale, Qt
from PySide6.QtWidgets import QApplication, QComboBox, QFileDialog, QLabel, QPushButton

import rules
from sheet_app import app, files
from sheet_app.main_window import MainWindow
from ui.common import prompts
from ui.common.forms import ActionForm, user_fields
from ui.common.texts import ACTION_FIELD_LABELS
from ui.printing import dialogs as print_dialogs
from ui.sheet.actions import dying_style

ROOT = Path(__file__).resolve().parents[2]


# --- item 18: English in the interface -----------------------------------------------------------------


@pytest.mark.parametrize("system", rules.SYSTEMS)
def test_every_field_of_every_action_form_has_a_french_label(qtbot: Any, system: str) -> None:
    info = rules.describe(system)
    for action_type in info.actions:
        if action_type is rules.Edit:
            continue
        form = ActionForm(action_type, info)
        for name in user_fields(action_type):
            title = form._title(name)
            assert action_type.model_fields[name].title or name in ACTION_FIELD_LABELS, (action_type, name)
            assert title != name.replace("_", " ").capitalize() or name in ACTION_FIELD_LABELS
        form.deleteLater()


def test_treating_a_severite_wound_asks_in_french(qtbot: Any, window: MainWindow, monkeypatch: Any) -> None:
    view = window.open_demo("severite")
    assert view is not None and view.wounds is not None
    seen: list[str] = []

    def look(form: ActionForm) -> int:
        seen.extend(label.text() for label in form.findChildren(QLabel))
        return 0

    monkeypatch.setattr(ActionForm, "exec", look)
    view.wounds.select(view.wounds.model.key_at(0))
    qtbot.mouseClick(view.wounds.buttons["treat_wound"], Qt.MouseButton.LeftButton)
    text = " ".join(seen)
    assert "Traitement" in text and "Diagnostic" in text
    for english in ("Treatment", "Diagnosis", "Wound id"):
        assert english not in text


def test_qt_dialogs_speak_french(qtbot: Any) -> None:
    qapp = QApplication.instance()
    translators = app.install_translations(qapp)
    try:
        assert translators, "qtbase_fr ships with PySide6-Essentials"
        # Our own texts are untouched by Qt's catalogues (a translator answering "" would blank them).
        assert QCoreApplication.translate("NewSheetForm", "aucun") == "aucun"
        dialog = QFileDialog(None, "Ouvrir", str(ROOT))
        dialog.setOption(prompts.FILE_DIALOG_OPTIONS)
        qtbot.addWidget(dialog)
        texts = {w.text() for w in dialog.findChildren(QLabel)} | {b.text() for b in dialog.findChildren(QPushButton)}
        assert "&Voir dans :" in texts and "Fichiers de &type :" in texts
        english = {"&Look in:", "Files of &type:", "&Open", "&Save", "Cancel", "File &name:", "&File name:"}
        assert not english & texts, english & texts
    finally:
        for translator in translators:
            qapp.removeTranslator(translator)
        QLocale.setDefault(QLocale(QLocale.Language.C))


def test_the_open_and_save_dialogs_use_qts_own_translated_dialog(monkeypatch: Any) -> None:
    options: list[Any] = []
    monkeypatch.setattr(QFileDialog, "getOpenFileNames", lambda *a: (options.append(a[5]), ([], ""))[1])
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a: (options.append(a[5]), ("", ""))[1])
    prompts.open_paths(None, ROOT)
    prompts.save_path(None, ROOT / "x.fiche.json")
    prompts.save_text_path(None, "journal.txt")
    print_dialogs.ask_pdf_path(None, ROOT / "x.pdf")  # Fichier › Exporter en PDF…
    assert options == [QFileDialog.Option.DontUseNativeDialog] * 4


@pytest.mark.parametrize("argv", [["--nimportequoi"], ["-x", "a"], ["--check-all"]])
def test_command_line_errors_are_french(capsys: Any, argv: list[str]) -> None:
    with pytest.raises(SystemExit):
        app.parse(argv)
    err = capsys.readouterr().err
    assert "arguments non reconnus" in err
    assert "unrecognized" not in err


def test_the_journal_names_a_body_part_not_its_id(window: MainWindow) -> None:
    view = window.open_demo("d20")
    assert view is not None
    view.vm.apply(rules.AddLocalWound(body_part="tete"))
    title = view.vm.journal[-1].split("\n")[0]
    assert "(tete)" not in title and "Tête" in title


# --- item 19 -------------------------------------------------------------------------------------------


def test_the_dying_frame_never_runs_through_its_title_and_nothing_moves(qtbot: Any, window: MainWindow) -> None:
    view = window.open_demo("douaratil")
    assert view is not None and view.dying is not None
    panel = view.dying
    for dying in (False, True):
        assert "subcontrol-origin: margin" in dying_style(dying)
    calm = panel.contentsRect(), panel.buttons["stabilise"].geometry()
    view.vm.replace_sheet(rules.evolve(view.vm.sheet, current=0, stabilised=False))
    assert panel.styleSheet() == dying_style(True)
    QApplication.processEvents()
    assert (panel.contentsRect(), panel.buttons["stabilise"].geometry()) == calm


@pytest.mark.parametrize("system", ["douaratil", "d20"])
def test_the_stabilise_choice_is_not_cut(qtbot: Any, window: MainWindow, system: str) -> None:
    window.resize(1024, 700)
    view = window.open_demo(system)
    assert view is not None and view.dying is not None
    QApplication.processEvents()
    combo = view.dying.findChild(QComboBox, "stabiliseMethod")
    assert combo is not None
    metrics = combo.fontMetrics()
    longest = max(metrics.horizontalAdvance(combo.itemText(i)) for i in range(combo.count()))
    assert combo.width() >= longest + 24
    assert combo.itemData(0, Qt.ItemDataRole.ToolTipRole) == combo.itemText(0)


def test_an_empty_critical_threshold_says_none(qtbot: Any, window: MainWindow) -> None:
    view = window.add_new_sheet(rules.new_sheet("douaratil", name="Brenna"))
    field = view.fields.binders["critical_threshold"].widget
    assert field.text() == "" and field.placeholderText() == "aucun"


def test_a_trauma_gauge_past_its_capacity_says_what_it_means(qtbot: Any, window: MainWindow) -> None:
    view = window.open_demo("severite")
    assert view is not None
    sheet = view.vm.sheet
    for _ in range(4):
        sheet = rules.apply(sheet, rules.InflictWound(grade="grave", tenacity_test=False), view.vm.rng).sheet
    view.vm.replace_sheet(sheet)
    d = view.vm.derived
    assert d.current > d.maximum
    health = view.health
    assert health.beyond is not None and health.beyond.isVisibleTo(view)
    assert not health.maximum_label.isVisibleTo(view)
    text = health.beyond.text()
    assert f"{d.current - d.maximum} au-delà de la jauge de {d.maximum}" in text and "Ardu" in text


def test_notices_say_the_same_for_every_character(window: MainWindow) -> None:
    view = window.add_new_sheet(rules.new_sheet("douaratil", name="Brenna", base_maximum=10, current=10))
    view.vm._notify(("died",))
    assert "est mort" not in view.messages.text()


# --- item 20: where the file dialogs start -------------------------------------------------------------


def test_the_open_dialog_starts_in_the_documents_folder_then_the_last_one_used(
    window: MainWindow, answer: Any, tmp_path: Path
) -> None:
    documents = tmp_path / "documents"
    documents.mkdir(exist_ok=True)
    fresh = MainWindow()
    ask = answer("open_paths", [], [], [])
    fresh.act_open.trigger()
    assert ask.calls[-1][1] == documents
    elsewhere = tmp_path / "campagne" / "a.fiche.json"
    elsewhere.parent.mkdir()
    files.write_document(elsewhere, files.Document("sheet", [rules.demo_sheet("douaratil")], [[]]))
    fresh.open_paths([elsewhere])
    fresh.act_open.trigger()
    assert ask.calls[-1][1] == elsewhere.parent
    again = MainWindow()  # the next run starts where the last file was
    again.act_open.trigger()
    assert ask.calls[-1][1] == elsewhere.parent.resolve()
    for win in (fresh, again):
        answer("save_changes", "discard")
        win.close()
        win.deleteLater()


def test_without_a_documents_folder_the_dialogs_start_at_home(answer: Any, qtbot: Any) -> None:
    win = MainWindow()
    qtbot.addWidget(win)
    ask = answer("open_paths", [])
    win.act_open.trigger()
    assert ask.calls[-1][1] in (Path.home(),) or ask.calls[-1][1].is_dir()
    assert ask.calls[-1][1] != Path.cwd() or Path.cwd() == Path.home()


# --- item 22: a quiet first run ------------------------------------------------------------------------


def test_the_license_is_an_spdx_string() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["license"] == "MIT"
    requires = " ".join(project["build-system"]["requires"])
    assert re.search(r"setuptools>=(7[7-9]|[89]\d)", requires)


def test_the_first_run_says_what_it_installs_in_one_line_and_keeps_the_installers_output() -> None:
    script = (ROOT / "scripts" / "run").read_text(encoding="utf-8")
    said = [line for line in script.splitlines() if line.strip().startswith("echo")]
    assert said and "Première installation" in said[0]
    assert "install.log" in script and "2>&1" in script
