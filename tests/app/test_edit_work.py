"""Issue 15, « edit → repainted in one frame », session 4: the work an edit does in the real main window.

Speed is measured by ``python -m bench --only edits`` (and ``python -m bench.edits --cases …`` for an A/B),
never here. These tests pin what made an edit cheaper, so that it cannot silently come back: one
application event filter (not three), the sheet painted in one pass with nothing under its panels
painted again, the journal's rows drawn once, the flow layout measured once per invalidation, the odds
computed once per distinct input.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QAbstractEventDispatcher, QEvent, QEventLoop, QObject
from PySide6.QtWidgets import QApplication, QPushButton, QSplitter, QStackedWidget, QTabWidget, QWidget

import rules
from sheet_app.main_window import MainWindow
from tests.app.test_edit_layout import a_condition, open_sheet, settle, tick, typed
from ui.common import app_events, plain_text, shortcuts, wheel
from ui.common.flow import FlowLayout
from ui.common.journal import JournalDelegate
from ui.sheet import odds as sheet_odds
from ui.sheet.journal import JournalPanel
from ui.sheet.sheet_view import SheetView


class Passes(QObject):
    """The paints and the events of each pass of the event loop while installed."""

    def __init__(self) -> None:
        super().__init__()
        self.events = 0
        self.painted: list[QObject] = []

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        self.events += 1
        if event.type() == QEvent.Type.Paint:
            self.painted.append(watched)
        return False


@contextmanager
def passes() -> Iterator[list[Passes]]:
    """Each pass of the event loop (until quiet) gets its own ``Passes``; the first one also sees what
    the edit itself sent (``with passes() as found: edit()``)."""
    app = QApplication.instance()
    assert app is not None
    found = [Passes()]
    app.installEventFilter(found[0])
    try:
        yield found
        dispatcher = QAbstractEventDispatcher.instance()
        for _ in range(60):
            if not dispatcher.processEvents(QEventLoop.ProcessEventsFlag.AllEvents):
                break
            app.removeEventFilter(found[-1])
            found.append(Passes())
            app.installEventFilter(found[-1])
    finally:
        app.removeEventFilter(found[-1])


def painting_passes(found: list[Passes]) -> int:
    return sum(1 for p in found if p.painted)


# --- one application event filter ---------------------------------------------------------------------


def test_the_application_rules_share_one_event_filter_called_once_per_event(
    window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Plain text, the wheel guard and the window's shortcuts were three application filters: each event
    of the application (~100 per edit) called Python three times. They are handlers of one filter."""
    hub = app_events.hub()
    app = QApplication.instance()
    assert app is not None
    ours = [
        c
        for c in app.children()
        if type(c).__module__.startswith(("ui.", "sheet_app.")) and "eventFilter" in vars(type(c))
    ]
    assert ours == [hub]
    assert not isinstance(plain_text.install(), QObject) and not isinstance(wheel.install(), QObject)
    assert "eventFilter" not in vars(shortcuts.WindowShortcutsWin)
    view = open_sheet(window, tmp_path, "douaratil")
    calls: list[int] = []
    original = app_events.AppEvents.eventFilter

    def counting(self: app_events.AppEvents, watched: QObject, event: QEvent) -> bool:
        calls.append(1)
        return original(self, watched, event)

    monkeypatch.setattr(app_events.AppEvents, "eventFilter", counting)
    with passes() as found:
        typed(view, "damage", "2")
    events = sum(p.events for p in found)
    assert events > 20  # the edit did happen
    assert len(calls) <= events  # once per event at most (it was three times)


# --- painting -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("system", rules.SYSTEMS)
def test_an_edit_never_paints_what_lies_under_the_sheets_panels(
    window: MainWindow, tmp_path: Path, system: str
) -> None:
    """The columns and the journal are opaque: a change inside them repaints them, not the splitter, the
    sheet, the tabs and the window under them (each a paint of the whole region, for nothing)."""
    view = open_sheet(window, tmp_path, system)
    index = a_condition(view)
    for _ in range(2):  # caches, first messages
        typed(view, "damage", "1")
        tick(view, index)
        settle()
    under = (QSplitter, SheetView, QStackedWidget, QTabWidget, MainWindow, JournalPanel)
    for edit in (lambda: typed(view, "damage", "1"), lambda: typed(view, "heal", "1"), lambda: tick(view, index)):
        with passes() as found:
            edit()
        painted = [w for p in found for w in p.painted]
        assert painted  # something was painted
        names = [f"{type(w).__name__}:{w.objectName()}" for w in painted]
        assert not [w for w in painted if isinstance(w, under)], names


@pytest.mark.parametrize("system", ["douaratil", "d20"])
def test_an_edit_is_painted_in_one_pass(window: MainWindow, tmp_path: Path, system: str) -> None:
    """The journal's new rows are laid out with the edit (not on the view's zero timer) and the roll line
    is measured when set (a selectable label asked for a second paint from inside its first); d20's
    wound details (a selectable, word-wrapped label) keep their height per text and width (the column
    fitting its panels after the edit had them painted again in a later pass): the window is painted
    once per edit, not two or three times."""
    view = open_sheet(window, tmp_path, system)
    index = a_condition(view)
    for _ in range(2):  # the bench's cycle (python -m bench.edits): the same state before each edit
        typed(view, "damage", "1d4")
        typed(view, "heal", "4")
        tick(view, index)
        tick(view, index)
        settle()
    for name, edit in (
        ("damage", lambda: typed(view, "damage", "1d4")),
        ("heal", lambda: typed(view, "heal", "4")),
        ("condition", lambda: tick(view, index)),
    ):
        with passes() as found:
            edit()
        assert painting_passes(found) == 1, (
            name,
            str([[f"{type(w).__name__}:{w.objectName()}" for w in p.painted] for p in found]),
        )


def test_the_journal_draws_a_row_once_and_paints_it_again_from_its_picture(window: MainWindow, tmp_path: Path) -> None:
    entries = tuple(f"Dégâts\nUlfred subit {i % 7 + 1} dégâts.\nDés : 1d8 = {i % 8 + 1}" for i in range(40))
    view = open_sheet(window, tmp_path, "douaratil", entries)
    delegate = view.journal.view.itemDelegate()
    assert isinstance(delegate, JournalDelegate)
    drawn: list[int] = []
    draw = delegate._paint

    def counting(painter: Any, option: Any, index: Any) -> None:
        drawn.append(index.row())
        draw(painter, option, index)

    delegate._paint = counting  # type: ignore[method-assign]
    for _ in range(3):  # every row seen at both parities (a new entry turns the alternate colours over)
        typed(view, "damage", "1")
        settle()
    drawn.clear()
    view.journal.view.viewport().repaint()
    assert drawn == []  # every row on screen comes from its picture
    rows = view.journal.model.rowCount()
    typed(view, "damage", "1")
    settle()
    added = view.journal.model.rowCount() - rows
    assert added >= 1
    # Only the new entries were drawn, and the entry they pushed to the other colour (it was only seen at
    # the top so far: every other row has its picture at both parities).
    assert set(drawn) <= set(range(added + 1)), drawn


def test_the_journal_row_pictures_are_the_rows_pixels(window: MainWindow, tmp_path: Path) -> None:
    """A row painted from its picture is the row drawn directly: alternate colours, a selected row."""
    entries = tuple(f"Soins\nUlfred récupère {i % 5 + 1} PA.\nDés : 1d4 = {i % 4 + 1}" for i in range(12))
    view = open_sheet(window, tmp_path, "douaratil", entries)
    tree = view.journal.view
    tree.setCurrentIndex(tree.model().index(1, 0))
    settle()
    delegate = tree.itemDelegate()
    assert isinstance(delegate, JournalDelegate)
    tree.viewport().repaint()
    with_pictures = tree.viewport().grab().toImage()
    delegate._keep_pictures = False
    tree.viewport().repaint()
    direct = tree.viewport().grab().toImage()
    delegate._keep_pictures = True
    assert with_pictures == direct


# --- the flow layout ----------------------------------------------------------------------------------


def test_the_flow_layout_measures_once_per_invalidation_and_places_as_before(qtbot: Any) -> None:
    holder = QWidget()
    qtbot.addWidget(holder)
    flow = FlowLayout(holder)
    buttons = [QPushButton(f"Bouton numéro {i}") for i in range(6)]
    for button in buttons:
        flow.addWidget(button)
    holder.resize(300, 200)
    holder.show()
    settle()
    walks: list[bool] = []
    arrange = flow._arrange

    def counting(rect: Any, move: bool) -> int:
        walks.append(move)
        return arrange(rect, move)

    flow._arrange = counting  # type: ignore[method-assign]
    heights = {flow.heightForWidth(w) for _ in range(10) for w in (200, 300)}
    assert len(walks) == 2 and len(heights) == 2  # one walk per width
    flow.invalidate()
    flow.heightForWidth(200)
    assert len(walks) == 3  # measured again once invalidated
    # A hidden button, a longer text: Qt invalidates the layout, the buttons move as they must.
    buttons[1].hide()
    buttons[2].setText("Un texte bien plus long sur ce bouton")
    settle()
    # The same buttons in a fresh layout (nothing kept) give the same height and places.
    twin_holder = QWidget()
    qtbot.addWidget(twin_holder)
    twin = FlowLayout(twin_holder)
    for button in buttons:
        copy = QPushButton(button.text())
        twin.addWidget(copy)
        copy.setVisible(button.isVisibleTo(holder))
    twin_holder.resize(holder.size())
    twin_holder.show()
    settle()
    assert flow.heightForWidth(holder.width()) == twin.heightForWidth(holder.width())
    copies = [twin.itemAt(i).widget() for i in range(twin.count())]
    assert [b.geometry() for b in buttons if b.isVisible()] == [c.geometry() for c in copies if c.isVisible()]


# --- the odds -------------------------------------------------------------------------------------------


def test_severite_odds_are_computed_once_per_distinct_input(monkeypatch: pytest.MonkeyPatch) -> None:
    """The Défi de Ténacité (once per untreated wound on the sheet, and beside its buttons) was computed
    with exact fractions on every edit; the same numbers now come from the first computation."""
    from rules.systems.severite import odds as severite_odds

    computed: list[tuple[Any, ...]] = []
    real = severite_odds._tenacity

    def counting(*args: Any) -> Any:
        computed.append(args[2:])
        return real(*args)

    monkeypatch.setattr(severite_odds, "_tenacity", counting)
    monkeypatch.setattr(severite_odds, "_TENACITY", {})
    sheet = rules.demo_sheet("severite")
    first = rules.sheet_odds(sheet)
    assert computed  # the demo's sheet has Défis to show
    distinct = len(computed)
    assert rules.sheet_odds(sheet) == first and len(computed) == distinct  # nothing computed again
    # A change that feeds the roll computes it again (never a stale chance) …
    stronger = rules.sheet_from_data({**rules.sheet_to_data(sheet), "physique": sheet.physique + 1})
    changed = rules.sheet_odds(stronger)
    assert len(computed) > distinct and changed != first
    # … and the kept chances are the ones computed afresh.
    monkeypatch.setattr(severite_odds, "_TENACITY", {})
    assert rules.sheet_odds(sheet) == first


def test_a_chance_is_formatted_once(monkeypatch: pytest.MonkeyPatch, qtbot: Any) -> None:
    """A chance's percentage and explanation are formatted from its exact value once, not on every edit."""
    chance = rules.odds.chance("x", "Jet", 0.375, "3d6 ≥ 10", outcomes=[("réussite", 0.375), ("échec", 0.625)])
    percent, text = chance.percent, chance.text
    formatted: list[float] = []
    real = rules.odds.fmt_percent

    def counting(p: Any) -> str:
        formatted.append(p)
        return real(p)

    monkeypatch.setattr(rules.odds, "fmt_percent", counting)
    monkeypatch.setattr(sheet_odds, "_WORDS", {})
    label = sheet_odds.ChanceLabel("odds_x")
    qtbot.addWidget(label)
    label.show_chances([chance])
    once = len(formatted)
    assert once > 0
    for _ in range(3):
        label.show_chances([chance])
    assert len(formatted) == once
    assert label.text() == percent and label.toolTip() == text


# --- the wounds' model ------------------------------------------------------------------------------------


def test_the_rows_model_answers_every_role_as_before(qtbot: Any) -> None:
    """The roles it never fills are answered first (a table fitting its columns asks each cell for a
    dozen): every role still gets the answer of the row."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QBrush, QFont

    from ui.common.models import KeyRole, Row, RowsModel

    model = RowsModel(["Blessure", "Gravité"])
    model.set_rows(
        [
            Row("a", ("Entaille", "légère"), ("bras gauche",), colour="#c62828", bold=True),
            Row("b", ("Brûlure",), ()),
        ]
    )
    for role in [*Qt.ItemDataRole, KeyRole]:
        for row in range(2):
            for column in range(2):
                got = model.data(model.index(row, column), role)
                if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
                    assert got == (("Entaille", "légère"), ("Brûlure", ""))[row][column]
                elif role == Qt.ItemDataRole.ToolTipRole:
                    assert got == ("bras gauche" if row == 0 else None)
                elif role == Qt.ItemDataRole.ForegroundRole and row == 0:
                    assert isinstance(got, QBrush) and got.color().name() == "#c62828"
                elif role == Qt.ItemDataRole.FontRole and row == 0:
                    assert isinstance(got, QFont) and got.bold()
                elif role == KeyRole:
                    assert got == ("a", "b")[row]
                else:
                    assert got is None, (role, row, column)
    assert model.data(model.index(5, 0), Qt.ItemDataRole.DisplayRole) is None


def test_the_wound_details_measure_as_a_label_and_once_per_text_and_width(
    qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """d20's wound details keep their height per (text, width): the same heights as a plain selectable
    label, a new text or font measured again."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QLabel

    from ui.sheet.wounds import MeasuredLabel

    def made(kind: type[QLabel]) -> QLabel:
        label = kind()
        qtbot.addWidget(label)
        label.setWordWrap(True)
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        return label

    ours, plain = made(MeasuredLabel), made(QLabel)
    texts = ["Entaille (bras gauche)", "Plaie profonde au flanc droit, saigne : 1 PV par round\nDéfi : 45 %", ""]
    for text in texts:
        ours.setText(text)
        plain.setText(text)
        for width in (40, 120, 300, 120):
            assert ours.heightForWidth(width) == plain.heightForWidth(width), (text, width)
    font = ours.font()
    font.setPointSize(font.pointSize() * 2)
    ours.setFont(font)
    plain.setFont(font)
    assert ours.heightForWidth(120) == plain.heightForWidth(120)
    measured: list[int] = []
    original = QLabel.heightForWidth

    def counting(self: QLabel, width: int) -> int:
        measured.append(width)
        return original(self, width)

    ours.setText("Une autre blessure, assez longue pour tenir sur plusieurs lignes")
    monkeypatch.setattr(QLabel, "heightForWidth", counting)
    for _ in range(3):
        ours.heightForWidth(90)
    assert measured == [90]


# --- status texts that keep their size ------------------------------------------------------------------


def test_a_d20_damage_does_not_lay_out_the_dying_panel(window: MainWindow, tmp_path: Path) -> None:
    """The dying status changes its words on every hit, seldom its lines: a new text of the same size no
    longer asks the dying panel to lay out again (and the column and its viewport after it). (The derived
    values still do: boxing each of them made the segments' condition toggles, which add and remove rows,
    lay out slower than the layouts it saved.)"""
    from tests.app.test_edit_layout import watching

    view = open_sheet(window, tmp_path, "d20")
    index = a_condition(view)
    for _ in range(2):  # the bench's cycle
        typed(view, "damage", "1d4")
        typed(view, "heal", "4")
        tick(view, index)
        tick(view, index)
        settle()
    assert view.dying is not None
    status = view.dying.status.text()
    with watching() as watch:
        typed(view, "damage", "1d4")
        settle()
    assert view.dying.status.text() != status  # the words changed…
    assert view.dying not in watch.layouts  # …and the panel was not laid out again


def test_a_quiet_text_asks_for_a_layout_only_for_another_size(qtbot: Any) -> None:
    from PySide6.QtWidgets import QLabel, QVBoxLayout

    from tests.app.test_edit_layout import watching
    from ui.sheet.quiet import QuietText

    panel = QWidget()
    qtbot.addWidget(panel)
    layout = QVBoxLayout(panel)
    label = QLabel("Stable : 12 PV.")
    label.setWordWrap(True)
    box = QuietText(label)
    plain = QLabel("Stable : 12 PV.")
    plain.setWordWrap(True)
    layout.addWidget(box)
    layout.addWidget(plain)
    panel.resize(220, 200)
    panel.show()
    settle()
    assert box.geometry().height() == plain.geometry().height() and label.geometry() == box.rect()
    with watching() as watch:
        box.setText("Stable : 13 PV.")  # same size (digits are as wide as each other)
        settle()
    assert panel not in watch.layouts and label.text() == "Stable : 13 PV."
    longer = "Mourant : perd 1 PV par round jusqu'à être stabilisé ou mort (à −10 PV)."
    with watching() as watch:
        box.setText(longer)
        plain.setText(longer)
        settle()
    assert panel in watch.layouts  # more lines: the panel makes room, as for a plain label
    assert box.geometry() == plain.geometry().translated(0, box.y() - plain.y())
    assert label.geometry() == box.rect()


def test_chance_labels_are_coloured_without_a_style_sheet(qtbot: Any) -> None:
    """Each Sévérité wound adds an odds row: a style sheet per ``ChanceLabel`` had each new one build and
    polish a style of its own. The same colour comes from the palette."""
    from PySide6.QtGui import QColor, QPalette

    label = sheet_odds.ChanceLabel("odds_test")
    qtbot.addWidget(label)
    assert label.styleSheet() == ""
    for group in (QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive, QPalette.ColorGroup.Disabled):
        assert label.palette().color(group, QPalette.ColorRole.WindowText) == QColor("#37474f")


def test_a_wound_row_is_built_once_per_wound(
    window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Sévérité's wound table after a hit: the new wound's row is built, the others are kept (a fight's
    sheet holds dozens of wounds); the rows are the ones built anew."""
    from ui.sheet.wounds import WoundRows

    view = open_sheet(window, tmp_path, "severite")
    assert view.wounds is not None
    built: list[int] = []
    original = WoundRows.wound

    def counting(self: WoundRows, index: int, wound: Any) -> Any:
        built.append(index)
        return original(self, index, wound)

    monkeypatch.setattr(WoundRows, "wound", counting)
    added = 0
    for _ in range(4):
        old = view.vm.sheet.wounds
        built.clear()
        typed(view, "damage", "3")
        settle()
        new = view.vm.sheet.wounds
        added += len(new) > len(old)
        # Only the rows of the wounds this hit added or changed were built.
        assert built == [i for i, w in enumerate(new) if i >= len(old) or old[i] != w]
        fresh = WoundRows(view.vm)
        assert view.wounds.model.rows() == [original(fresh, i, w) for i, w in enumerate(fresh.stored())]
    assert added  # hits did add wounds


# --- Sévérité's wound table (session 5) -------------------------------------------------------------------


def test_the_wound_table_measures_its_columns_as_qt_does(qtbot: Any) -> None:
    """The table keeps each distinct cell's width: a column's hint is still Qt's own, whatever the rows
    (bold, empty, long, added, changed, removed), the font, or hidden rows (Qt's own is used then)."""
    from PySide6.QtWidgets import QTableView

    from ui.common.models import Row, RowsModel
    from ui.sheet.wounds import WoundsTable

    model = RowsModel(["Blessure", "Gravité", "Effet"])
    table = WoundsTable()
    qtbot.addWidget(table)
    table.setModel(model)
    table.setWordWrap(False)
    table.resize(400, 200)
    table.show()

    def same() -> None:
        for column in range(model.columnCount()):
            assert table.sizeHintForColumn(column) == QTableView.sizeHintForColumn(table, column), column

    same()  # no rows
    rows = [
        Row(1, ("Entaille (bras gauche)", "Sévérité 3", "")),
        Row(2, ("Brûlure", "", "membre invalide ; ignorée jusqu'à la fin du Conflit"), colour="#b71c1c", bold=True),
        Row(3, ("", "Sévérité 12", "")),
    ]
    model.set_rows(rows)
    same()
    model.set_rows([*rows, Row(4, ("Plaie profonde au flanc droit, très longue", "Sévérité 5", "saigne"))])
    same()
    model.set_rows([rows[1], Row(3, ("Brûlure", "Sévérité 1", ""), bold=True)])  # a wound gone, one changed
    same()
    font = table.font()
    font.setPointSize(font.pointSize() + 4)
    table.setFont(font)
    same()
    table.setShowGrid(False)
    same()
    table.setRowHidden(0, True)
    same()


def test_a_severite_hit_measures_only_the_new_cells_and_paints_the_table_once(
    window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fight's sheet holds dozens of wounds: a hit that adds one measures the new wound's cells only
    (each column was measured over every row, twice per hit), resizes no column whose contents kept their
    width (the stretched column was widened to its contents and narrowed back on every hit), and the window
    is painted in one pass (the table was laid out by its zero timer, and painted again after it; a table
    of more than seven rows keeps its height, so nothing else moves)."""
    from PySide6.QtWidgets import QScrollBar, QStyledItemDelegate

    from ui.sheet.sheet_view import Column

    view = open_sheet(window, tmp_path, "severite")
    assert view.wounds is not None
    table = view.wounds.view
    for _ in range(40):  # a fight, past the seven rows the table shows (it grows no more, it scrolls)
        typed(view, "damage", "3")
        settle()
        if view.wounds.model.rowCount() > 8:
            break
    assert view.wounds.model.rowCount() > 8
    measured: list[int] = []
    original = QStyledItemDelegate.sizeHint

    def counting(self: QStyledItemDelegate, option: Any, index: Any) -> Any:
        measured.append(index.row())
        return original(self, option, index)

    monkeypatch.setattr(QStyledItemDelegate, "sizeHint", counting)
    resized: list[tuple[int, int, int]] = []
    table.horizontalHeader().sectionResized.connect(lambda i, old, new: resized.append((i, old, new)))
    hits = 0
    for _ in range(8):
        rows = view.wounds.model.rowCount()
        measured.clear()
        resized.clear()
        with passes() as found:
            typed(view, "damage", "3")
        if view.wounds.model.rowCount() == rows:
            continue  # this hit added no wound
        hits += 1
        new = view.wounds.model.rowCount() - 1
        assert set(measured) <= {new}, measured  # only the new wound's cells, never the others
        assert len({i for i, _, _ in resized}) == len(resized), resized  # no column resized twice
        # Painted once each, in one pass; only a column's scroll bar may follow (the column grew when a
        # derived value took a second line).
        painted = [p.painted for p in found if p.painted]
        later = [w for p in painted[1:] for w in p]
        assert not [w for w in later if not isinstance(w.parent(), Column) and not isinstance(w, QScrollBar)]
        assert len(painted[0]) == len(set(painted[0]))
    assert hits  # hits did add wounds


def test_a_column_whose_panel_grows_places_its_panels_once(qtbot: Any) -> None:
    """A panel that grows (a derived value on two lines) had the column's layout squeeze the panels into
    the column's old height (the panel above shrank), then place them all again in the next pass: now the
    column grows first, and its panels are placed once, where they end up."""
    from PySide6.QtWidgets import QLabel, QVBoxLayout

    from tests.app.test_edit_layout import watching
    from ui.sheet.sheet_view import Column

    holder = QWidget()
    qtbot.addWidget(holder)
    top = QLabel("Un panneau au-dessus\n" * 4)
    grows = QLabel("Court.")
    grows.setWordWrap(True)
    column = Column([top, grows], widest=300, stretch=False)
    QVBoxLayout(holder).addWidget(column)
    holder.resize(260, 60)  # shorter than the panels: the column scrolls already, the panels keep their height
    holder.show()
    settle()
    top_size = top.size()
    resized: list[QObject] = []

    class Sizes(QObject):
        def eventFilter(self, watched: QObject, event: QEvent) -> bool:
            if event.type() in (QEvent.Type.Resize, QEvent.Type.Move):
                resized.append(watched)
            return False

    sizes = Sizes()
    QApplication.instance().installEventFilter(sizes)  # type: ignore[union-attr]
    try:
        with watching():
            grows.setText(
                "Un texte bien plus long, qui prend maintenant plusieurs lignes dans la colonne étroite. " * 2
            )
            settle()
    finally:
        QApplication.instance().removeEventFilter(sizes)  # type: ignore[union-attr]
    assert grows.height() >= grows.heightForWidth(grows.width())  # it got its height
    assert top not in resized and top.size() == top_size  # the panel above was never squeezed
    assert resized.count(grows) <= 2  # resized (and moved) once: not squeezed, then placed again


# --- the quick entry's mode (session 5) ---------------------------------------------------------------------


def test_a_heal_switches_the_mode_without_a_new_style_sheet(
    window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A heal goes back to « Dégâts »: each mode's tag is styled once and shown in turn, and the field's
    frame takes the mode's colour from one style sheet (its « mode » property); a new style sheet on each
    switch was a style, a palette and a font built again for the tag and the field."""
    from PySide6.QtWidgets import QLabel

    view = open_sheet(window, tmp_path, "d20")
    quick = view.health.quick
    for _ in range(2):  # every mode's tag made
        typed(view, "damage", "1")
        typed(view, "heal", "1")
        settle()
    sheets: list[QWidget] = []
    real = QWidget.setStyleSheet

    def counting(self: QWidget, sheet: str) -> None:
        sheets.append(self)
        real(self, sheet)

    monkeypatch.setattr(QWidget, "setStyleSheet", counting)
    monkeypatch.setattr(QLabel, "setStyleSheet", counting)
    for mode, text in (("heal", "Soins"), ("damage", "Dégâts")):
        quick.set_mode(mode)
        settle()
        assert quick.mode_tag.text() == text and quick.mode_tag.isVisible()
        assert [t for t in quick.amount.findChildren(QLabel, "quickMode") if t.isVisible()] == [quick.mode_tag]
    typed(view, "heal", "1")
    settle()
    assert quick.mode == "damage" and quick.mode_tag.text() == "Dégâts"
    assert sheets == []


def test_the_quick_entry_looks_as_its_style_sheets_said(window: MainWindow, tmp_path: Path) -> None:
    """The field and its tag in each mode are the pixels of the style sheets set on each switch before."""
    from ui.sheet.health import MODE_COLOURS

    view = open_sheet(window, tmp_path, "d20")
    quick = view.health.quick
    amount = quick.amount
    for mode in ("heal", "damage", "heal"):
        quick.set_mode(mode)
        settle()
        ours = amount.grab().toImage()
        colour = MODE_COLOURS[mode]
        kept = amount.styleSheet(), quick.mode_tag.styleSheet()
        amount.setStyleSheet(f"QLineEdit#quickAmount {{ border: 2px solid {colour}; border-radius: 3px; }}")
        quick.mode_tag.setStyleSheet(
            f"background: {colour}; color: white; border-radius: 3px; padding: 0px 4px; font-weight: bold;"
        )
        settle()
        assert amount.grab().toImage() == ours, mode
        amount.setStyleSheet(kept[0])
        quick.mode_tag.setStyleSheet(kept[1])
        settle()


def test_odds_rows_that_come_together_are_placed_once(window: MainWindow, tmp_path: Path) -> None:
    """A Sévérité hit can bring the Défis de Ténacité of several wounds to the odds panel at once: each row
    shown had the panel's layout, then the column's, place everything again inside the edit, in the
    panel's old height (the rows squeezed, then placed again; a dozen layouts of the middle column). The
    rows are shown with the panel's layout disabled, and placed once, with the column."""
    from ui.sheet.odds import OddsPanel

    view = open_sheet(window, tmp_path, "d20")
    odds = view.odds
    assert isinstance(odds, OddsPanel)
    found = view.vm.odds
    assert found.rolls  # the demo has a roll to show
    first = found.rolls[0]
    many = tuple(first.replace(subject=i, label=f"{first.label} {i}") for i in range(7))
    resized: list[QObject] = []

    class Sizes(QObject):
        def eventFilter(self, watched: QObject, event: QEvent) -> bool:
            if event.type() == QEvent.Type.Resize:
                resized.append(watched)
            return False

    sizes = Sizes()
    QApplication.instance().installEventFilter(sizes)  # type: ignore[union-attr]
    try:
        view.vm._odds = found.replace(rolls=many)
        odds.refresh()
        settle()
    finally:
        QApplication.instance().removeEventFilter(sizes)  # type: ignore[union-attr]
    rows = [w for pair in odds.rows for w in pair]
    assert len(odds.rows) == 7 and all(w.isVisibleTo(odds) and w.height() > 1 for w in rows)
    assert resized.count(odds) == 1  # the panel grew once (it was six times, once per row)
    # A new row: its first size, its place in the panel, its place once the panel grew (not once per row).
    assert all(resized.count(w) <= 3 for w in rows), [(w.objectName(), resized.count(w)) for w in rows]


def test_fills_are_painted_by_the_gui_thread() -> None:
    """Qt's thread pool for large fills is off (its hand-off cost more than the fills): set before any
    window of the app is made, since Qt reads it once."""
    import os

    import ui.common  # noqa: F401 (the package sets it when imported)

    assert os.environ.get("QT_NO_GUI_THREADPOOL")


def test_a_severite_hit_that_makes_the_wound_table_taller_is_painted_once(window: MainWindow, tmp_path: Path) -> None:
    """The table grows with its first seven wounds: its panel is laid out with the edit, so the column's
    request comes before the window's paint (it came after: the window was painted twice, the first
    time with the taller table over the panel's old height)."""
    view = open_sheet(window, tmp_path, "severite")
    assert view.wounds is not None
    table = view.wounds.view
    grew = 0
    for _ in range(30):
        height = table.height()
        with passes() as found:
            typed(view, "damage", "3")
        if table.height() == height:
            continue
        grew += 1
        painted = [p.painted for p in found if p.painted]
        later = [w for p in painted[1:] for w in p]
        # Nothing of the wounds' panel nor of its column is painted again later (the column's scroll bar may
        # follow: its range follows the column's new height).
        panel = view.wounds
        middle = panel.parentWidget()
        assert middle is not None
        again = [w for w in later if w is middle or w is panel or panel.isAncestorOf(w)]
        assert not again, [f"{type(w).__name__}:{w.objectName()}" for w in again]
        if table.height() >= 7 * table.verticalHeader().defaultSectionSize():
            break
    assert grew
