"""Fichier › Imprimer… (Ctrl+P), Exporter en PDF…, Imprimer une fiche vierge…, as a user reaches them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtPrintSupport import QPrintPreviewWidget
from PySide6.QtWidgets import QWidget

import rules
from sheet_app import files
from sheet_app.main_window import MainWindow
from tests.print.conftest import Recorder, read_pdf
from tests.print.test_pdf import gm_table
from ui.printing import blocks, dialogs


def file_menu_texts(window: MainWindow) -> list[str]:
    menu = window.menuBar().actions()[0].menu()
    return [a.text() for a in menu.actions()]


@pytest.fixture
def preview(monkeypatch: pytest.MonkeyPatch) -> Recorder:
    recorder = Recorder(True, True, True)
    monkeypatch.setattr(dialogs, "preview", recorder)
    return recorder


def test_the_file_menu_has_the_print_entries(window: MainWindow) -> None:
    texts = file_menu_texts(window)
    for text in ("&Imprimer…", "E&xporter en PDF…", "Imprimer une fiche &vierge…", "For&mat du papier"):
        assert text in texts
    assert texts.index("&Imprimer…") > texts.index("Enregistrer &sous…")
    assert window.printing.act_print.shortcut().toString() == "Ctrl+P"
    # Nothing open: nothing to print, but a blank sheet can always be printed.
    assert not window.printing.act_print.isEnabled() and not window.printing.act_pdf.isEnabled()
    assert window.printing.act_blank.isEnabled()


def test_ctrl_p_previews_the_current_sheet_as_it_stands(qtbot: Any, window: MainWindow, preview: Recorder) -> None:
    view = window.open_demo("d20")
    assert view is not None and window.printing.act_print.isEnabled()
    view.vm.apply(rules.Damage(amount=3))
    qtbot.keyClick(window, Qt.Key.Key_P, Qt.KeyboardModifier.ControlModifier)
    (call,) = preview.calls
    parent, printouts, page = call
    assert parent is window and page == "a4"
    (printout,) = printouts
    title = next(b for b in printout.blocks if isinstance(b, blocks.Title))
    assert printout.name == title.text == view.vm.sheet.name
    points = f"{rules.derive(view.vm.sheet).current} / {rules.derive(view.vm.sheet).maximum}"
    fields = [
        f.value.text
        for b in printout.blocks
        for inner in (b.blocks if isinstance(b, blocks.Keep) else (b,))
        if isinstance(inner, blocks.FieldGrid)
        for f in inner.fields
        if isinstance(f.value, blocks.Styled)
    ]
    assert points in fields


def test_print_from_the_menu_entry_too(window: MainWindow, preview: Recorder) -> None:
    window.open_demo("segments")
    window.printing.act_print.trigger()
    assert len(preview.calls) == 1


def test_export_pdf_writes_the_file_and_changes_nothing(
    qtbot: Any, window: MainWindow, answer: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    view = window.open_demo("severite")
    assert view is not None
    view.vm.apply(rules.SetCondition(condition="stoique"))
    stack, sheet, journal = view.vm.undo_stack, view.vm.sheet, view.vm.journal
    index, modified = stack.index(), window.isWindowModified()
    target = tmp_path / "maelle"
    asked = Recorder(target)
    monkeypatch.setattr(dialogs, "ask_pdf_path", asked)
    window.printing.act_pdf.trigger()
    suggested = asked.calls[0][1]
    assert suggested.name == "maëlle_corbier.pdf"
    doc = read_pdf(target)
    assert len(doc.pages) == 1 and sheet.name in doc.flat()
    assert view.vm.sheet is sheet and view.vm.journal == journal
    assert stack.index() == index and window.isWindowModified() == modified
    assert str(target) in window.statusBar().currentMessage()


def test_paper_format_letter_applies_to_the_export(
    window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    window.open_demo("douaratil")
    menu = window.printing.paper_menu
    letter = next(a for a in menu.actions() if a.text() == "Letter (US)")
    letter.trigger()
    assert window.printing.page == "letter" and not window.printing.paper_actions["a4"].isChecked()
    monkeypatch.setattr(dialogs, "ask_pdf_path", Recorder(tmp_path / "u.pdf"))
    window.printing.act_pdf.trigger()
    assert "(letter)" in read_pdf(tmp_path / "u.pdf").size_label


def test_an_export_that_cannot_be_written_is_told_in_french(
    window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, answer: Any
) -> None:
    window.open_demo("douaratil")
    monkeypatch.setattr(dialogs, "ask_pdf_path", Recorder(tmp_path / "absent" / "u.pdf"))
    error = answer("show_error", None)
    window.printing.act_pdf.trigger()
    (call,) = error.calls
    assert call[1] == "Export en PDF impossible" and "n'existe pas" in call[2]


def test_a_cancelled_export_writes_nothing(window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    window.open_demo("douaratil")
    monkeypatch.setattr(dialogs, "ask_pdf_path", Recorder(None))
    assert window.printing.export_pdf() is None
    assert list(tmp_path.glob("*.pdf")) == []


def test_a_blank_sheet_of_the_chosen_system(
    window: MainWindow, preview: Recorder, monkeypatch: pytest.MonkeyPatch
) -> None:
    window.open_demo("d20")
    ask = Recorder("severite", None)
    monkeypatch.setattr(dialogs, "ask_blank_system", ask)
    window.printing.act_blank.trigger()
    assert ask.calls[0][1] == "d20"  # the current sheet's system is offered first
    (printout,) = preview.calls[0][1]
    assert printout.name == "Fiche vierge Sévérité"
    window.printing.act_blank.trigger()  # cancelled: no preview
    assert len(preview.calls) == 1


def test_the_gm_view_prints_what_the_player_view_hides(window: MainWindow, preview: Recorder) -> None:
    view = window.open_demo("segments")
    assert view is not None
    view.vm.apply(rules.SetCondition(condition="engourdi"))
    window.printing.act_print.trigger()
    window.set_gm_view(True)
    window.printing.act_print.trigger()
    player, gm = (call[1][0] for call in preview.calls)

    def texts(printout: blocks.Printout) -> str:
        return repr(printout.blocks)

    assert "caché (meneur)" in texts(player) and "caché (meneur)" not in texts(gm)


class TableTab(QWidget):
    """Stands for the GM table's tab: it gives its document to print."""

    def __init__(self, document: files.Document) -> None:
        super().__init__()
        self.document = document

    def printable_document(self) -> files.Document:
        return self.document


def test_a_tab_that_gives_a_document_prints_it_as_a_gm_table(window: MainWindow, preview: Recorder) -> None:
    document = gm_table(12)
    tab = TableTab(document)
    window.tabs.addTab(tab, "Table")
    window.tabs.setCurrentWidget(tab)
    assert window.printing.act_print.isEnabled()
    window.printing.act_print.trigger()
    (printout,) = preview.calls[0][1]
    assert printout.name == "Embuscade au gué"
    window.tabs.removeTab(window.tabs.indexOf(tab))
    tab.deleteLater()


def test_the_real_print_preview_paints_the_pages(qtbot: Any, window: MainWindow) -> None:
    window.open_demo("douaratil")
    dialog = dialogs.make_preview(window, window.printing.printouts(), "a4")
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitUntil(lambda: dialog.property("pages_painted") == 1)
    preview = dialog.findChild(QPrintPreviewWidget)
    assert preview is not None and preview.pageCount() == 1
    dialog.close()
