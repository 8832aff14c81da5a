"""Content is text, never markup (issue 16, item 13): « a test puts ``<h1>x</h1><img src=…>`` in every text
field of every system and inspects every widget's text format »."""

from __future__ import annotations

import typing
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QModelIndex, QPoint, Qt
from PySide6.QtGui import QHelpEvent
from PySide6.QtWidgets import QAbstractItemView, QApplication, QLabel, QMessageBox, QTabBar, QToolTip, QWidget

import rules
from sheet_app import files
from sheet_app.main_window import MainWindow
from ui.common import prompts
from ui.sheet.sheet_view import SheetView

MARKUP = "<h1>x</h1><img src=y.png>"
# A file name cannot hold « / »: the same markup without closing tags.
FILE_MARKUP = "<h1>x<img src=y.png>"


def marked_sheet(system: str) -> Any:
    """The demo sheet with every free text field holding markup (a field the rules tie to another, such
    as d20's cause of death without « Mort », keeps its value)."""
    sheet = rules.demo_sheet(system)
    data = rules.sheet_to_data(sheet)
    marked = 0
    for name, field in type(sheet).model_fields.items():
        if field.annotation is str and name != "system":
            value: Any = MARKUP
        elif typing.get_origin(field.annotation) is tuple and typing.get_args(field.annotation)[:1] == (str,):
            value = [MARKUP]
        else:
            continue
        try:
            rules.sheet_from_data({**data, name: value})
        except rules.SheetError:
            continue
        data[name] = value
        marked += 1
    assert marked >= 2, "the test would prove nothing"
    return rules.sheet_from_data(data)


def wounded(system: str, sheet: Any) -> Any:
    """Wounds whose free texts hold markup (Sévérité: body part, diagnosis, note; Douaratil: note)."""
    rng = __import__("random").Random(1)
    if system == "severite":
        sheet = rules.apply(
            sheet,
            rules.InflictWound(
                grade="legere", body_part="bras_gauche", note=MARKUP, handicap=MARKUP, tenacity_test=False
            ),
            rng,
        ).sheet
        wound = sheet.wounds[-1].id
        sheet = rules.apply(sheet, rules.DiagnoseWound(wound_id=wound, diagnosis=MARKUP), rng).sheet
    elif system == "douaratil":
        sheet = rules.apply(sheet, rules.AddWound(wound_type="plaie", severity="minor", note=MARKUP), rng).sheet
    return sheet


def all_indexes(model: Any, parent: QModelIndex | None = None) -> list[QModelIndex]:
    parent = parent if parent is not None else QModelIndex()
    found = []
    try:
        columns = model.columnCount(parent)
    except TypeError:  # a list model of Qt's own (a QListWidget's): one column
        columns = 1
    for row in range(model.rowCount(parent)):
        for column in range(columns):
            index = model.index(row, column, parent)
            found.append(index)
            if column == 0:
                found += all_indexes(model, index)
    return found


def shown_tooltip(widget: QWidget, pos: QPoint) -> str:
    QToolTip.hideText()
    event = QHelpEvent(QHelpEvent.Type.ToolTip, pos, widget.mapToGlobal(pos))
    QApplication.sendEvent(widget, event)
    return QToolTip.text()


def check_window(win: MainWindow) -> int:
    """Every visible label holding markup is plain text; every tooltip holding markup shows it literally.
    Returns how many places held markup (so the test knows it looked at something)."""
    seen = 0
    for label in win.findChildren(QLabel):
        if label.isVisible() and "<h1>" in label.text():
            assert label.textFormat() == Qt.TextFormat.PlainText, label.objectName() or label.text()
            seen += 1
    for widget in win.findChildren(QWidget):
        if widget.isVisible() and "<h1>" in widget.toolTip():
            shown = shown_tooltip(widget, widget.rect().center())
            assert "<h1>" not in shown and "&lt;h1&gt;" in shown, widget.objectName()
            seen += 1
    for view in win.findChildren(QAbstractItemView):
        model = view.model()
        if not view.isVisible() or model is None:
            continue
        for index in all_indexes(model):
            tip = index.data(Qt.ItemDataRole.ToolTipRole)
            if tip and "<h1>" in str(tip) and view.visualRect(index).isValid():
                shown = shown_tooltip(view.viewport(), view.visualRect(index).center())
                assert "<h1>" not in shown and "&lt;h1&gt;" in shown, view.objectName()
                seen += 1
    for bar in win.findChildren(QTabBar):
        for i in range(bar.count()):
            if "<h1>" in bar.tabToolTip(i):
                shown = shown_tooltip(bar, bar.tabRect(i).center())
                assert "<h1>" not in shown and "&lt;h1&gt;" in shown
                seen += 1
    return seen


@pytest.mark.parametrize("system", rules.SYSTEMS)
@pytest.mark.parametrize("gm", [False, True])
def test_markup_in_every_text_field_is_shown_as_text(qtbot: Any, window: MainWindow, system: str, gm: bool) -> None:
    sheet = wounded(system, marked_sheet(system))
    journal = (f"Note\n{MARKUP}", MARKUP, f"Dégâts 3\n{rules.SECRET_MARK}{MARKUP}")
    view = window.add_doc(window.controller.new(sheet, journal))
    window.set_gm_view(gm)
    if view.wounds is not None and view.wounds.model.rowCount():
        view.wounds.select(view.wounds.model.key_at(view.wounds.model.rowCount() - 1))
    QApplication.processEvents()
    # At least the journal entries holding markup (the GM's line only in the GM view).
    assert check_window(window) >= (3 if gm else 2)
    shown = [view.journal.model.entry(i) for i in range(view.journal.model.rowCount())]
    assert any(rules.SECRET_MARK in e for e in shown) == gm
    if system == "severite":
        assert "<h1>" in view.wounds.details.text()  # the wound details label held it (as text)


def test_markup_in_a_file_name_and_a_sheet_name_in_message_boxes(
    qtbot: Any, window: MainWindow, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    boxes: list[tuple[Qt.TextFormat, str]] = []

    def look(box: QMessageBox) -> int:
        boxes.append((box.textFormat(), box.text()))
        return 0

    monkeypatch.setattr(QMessageBox, "exec", look)
    monkeypatch.setattr(QMessageBox, "clickedButton", lambda box: None)  # « Annuler »
    broken = tmp_path / f"{FILE_MARKUP}.fiche.json"
    broken.write_text("{ pas du json", encoding="utf-8")
    window.open_paths([broken])  # « Ouverture impossible »
    view = window.add_new_sheet(rules.new_sheet("douaratil", name=MARKUP))
    assert isinstance(view, SheetView)
    window.close_view(view)  # « Modifications non enregistrées » (answered Annuler)
    assert len(boxes) == 2
    for text_format, text in boxes:
        assert text_format == Qt.TextFormat.PlainText
        assert "<h1>" in text
    monkeypatch.setattr(prompts, "save_changes", lambda *a: "discard")


def test_markup_in_a_file_path_in_tooltips_and_lists(qtbot: Any, window: MainWindow, tmp_path: Path) -> None:
    path = tmp_path / f"{FILE_MARKUP}.fiche.json"
    files.write_document(path, files.Document("sheet", [rules.demo_sheet("douaratil")], [[]]))
    window.open_paths([path])
    window.show_welcome(asked=True)
    QApplication.processEvents()
    assert check_window(window) >= 1  # the welcome's recent list
    window.tabs.setCurrentIndex(1)
    QApplication.processEvents()
    assert check_window(window) >= 1  # the tab's tooltip


def test_the_start_walks_for_plain_labels_go_only_through_labels_made_since(
    make_window: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A start makes the window's labels plain text before ``show()``, then again at the window's Show
    and Paint events (labels made since: a page built when shown) until the filter comes (issue 15,
    session 8): each label is seen once, a later walk asks nothing of the labels seen already (~4.5 M
    instructions a walk of a sheet's window), and still makes a label made since plain text."""
    import shiboken6
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QFormLayout

    from ui.common import app_events

    window = make_window()
    window.plain_labels()
    asked: list[object] = []
    under = app_events._under
    monkeypatch.setattr(app_events, "_under", lambda widget, root: asked.append(widget) or under(widget, root))
    window.plain_labels()

    # Asked again: only the labels a form layout made in C++ for its rows (the welcome page's new-sheet
    # form), whose wrappers Python does not keep between walks. Other tests' windows aside.
    def address(widget: QWidget) -> int:
        return int(shiboken6.getCppPointer(widget)[0])

    made_by_forms = set()
    for form in window.findChildren(QFormLayout):
        for row in range(form.rowCount()):
            item = form.itemAt(row, QFormLayout.ItemRole.LabelRole)
            if item is not None and item.widget() is not None:
                made_by_forms.add(address(item.widget()))

    def mine() -> list[object]:
        return [w for w in asked if window.isAncestorOf(w) and address(w) not in made_by_forms]  # type: ignore[arg-type]

    assert mine() == []  # nothing new: no label of the window asked where it is, nor its format
    late = QLabel("<b>arrivé après</b>", window.centralWidget())
    kept_rich = QLabel("<b>riche</b>", window.centralWidget())
    kept_rich.setProperty("richText", True)
    assert late.textFormat() == kept_rich.textFormat() == Qt.TextFormat.AutoText
    window.plain_labels()
    assert set(mine()) == {late, kept_rich}
    assert late.textFormat() == Qt.TextFormat.PlainText
    assert kept_rich.textFormat() == Qt.TextFormat.AutoText
    asked.clear()
    window.plain_labels()
    assert mine() == []
    # Weak: a label deleted leaves the set (no wrapper kept alive, no stale entry).
    count = len(window._plain_seen)
    late.setParent(None)
    late.deleteLater()
    del late
    import gc

    from PySide6.QtCore import QCoreApplication, QEvent

    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    gc.collect()
    assert len(window._plain_seen) == count - 1
