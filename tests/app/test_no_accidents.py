"""Numbers changed only when the user means it (issue 10, items 4–10), in the real main window."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QAbstractScrollArea, QApplication, QComboBox, QSpinBox, QWidget

import rules
from sheet_app.main_window import MainWindow
from ui.sheet.sheet_view import SheetView


def wheel(widget: QWidget, notches: int = -1) -> None:
    """One notch of the mouse wheel over the middle of ``widget``, delivered as Qt delivers the wheel of a
    real mouse: the widget under the pointer takes focus if its focus policy takes the wheel, then the
    event goes to it and, while ignored, to each parent in turn (the scroll area scrolls).

    (``QApplication.sendEvent`` alone makes an event Qt does not propagate; a real mouse's does.)
    """
    focus: QWidget | None = widget
    while focus is not None:
        if focus.focusPolicy() & Qt.FocusPolicy.WheelFocus == Qt.FocusPolicy.WheelFocus:
            focus.setFocus(Qt.FocusReason.MouseFocusReason)
            break
        if focus.isWindow():
            break
        focus = focus.parentWidget()
    target: QWidget | None = widget
    pos = QPointF(widget.rect().center())
    while target is not None:
        event = QWheelEvent(
            pos,
            QPointF(target.mapToGlobal(pos)),
            QPoint(0, 0),
            QPoint(0, 120 * notches),
            Qt.MouseButton.NoButton,
            Qt.KeyboardModifier.NoModifier,
            Qt.ScrollPhase.NoScrollPhase,
            False,
        )
        QApplication.sendEvent(target, event)
        if event.isAccepted() or target.isWindow():
            return
        pos = QPointF(target.mapToParent(pos))
        target = target.parentWidget()


def scroll_area_of(widget: QWidget) -> QAbstractScrollArea | None:
    parent = widget.parentWidget()
    while parent is not None and not isinstance(parent, QAbstractScrollArea):
        parent = parent.parentWidget()
    return parent


def small_window(make_window: Any, system: str) -> tuple[MainWindow, SheetView]:
    win: MainWindow = make_window()
    win.resize(1024, 700)
    view = win.open_demo(system)
    assert view is not None
    QApplication.processEvents()
    return win, view


def enter(qtbot: Any, view: SheetView, text: str) -> None:
    field = view.health.quick.amount
    qtbot.mouseClick(field, Qt.MouseButton.LeftButton)
    field.selectAll()
    qtbot.keyClicks(field, text)
    qtbot.keyClick(field, Qt.Key.Key_Return)


# --- item 4: the wheel ---------------------------------------------------------------------------------


def test_the_wheel_over_an_unfocused_drop_down_changes_nothing(qtbot: Any, make_window: Any) -> None:
    _win, view = small_window(make_window, "douaratil")
    combo = view.findChild(QComboBox, "ladder_exhaustion")
    assert combo is not None and not combo.hasFocus()
    before = view.vm.sheet
    for _ in range(3):
        wheel(combo)
    assert view.vm.sheet is before and view.vm.journal == ()
    assert combo.focusPolicy() == Qt.FocusPolicy.StrongFocus


def test_the_wheel_over_the_time_boxes_scrolls_the_column_instead(qtbot: Any, make_window: Any) -> None:
    _win, view = small_window(make_window, "douaratil")
    count = view.findChild(QSpinBox, "timeCount")
    unit = view.findChild(QComboBox, "timeUnit")
    assert count is not None and unit is not None
    area = scroll_area_of(count)
    assert area is not None
    bar = area.verticalScrollBar()
    assert bar.maximum() > 0, "at 1024×700 the middle column scrolls"
    bar.setValue(bar.maximum() // 2)
    QApplication.processEvents()
    start = bar.value()
    wheel(count)
    wheel(unit)
    assert (count.value(), unit.currentIndex()) == (1, 0)
    assert bar.value() > start


def test_a_focused_box_still_takes_the_wheel(qtbot: Any, make_window: Any) -> None:
    _win, view = small_window(make_window, "douaratil")
    count = view.findChild(QSpinBox, "timeCount")
    assert count is not None
    count.setFocus()
    wheel(count, notches=1)
    assert count.value() == 2


def test_the_wheel_over_the_gm_tables_drop_downs_changes_nothing(qtbot: Any, make_window: Any) -> None:
    """The same on the GM table: its state filter and its journal's scope keep their choice."""
    win: MainWindow = make_window()
    win.resize(1024, 700)
    table = win.new_table()
    win.act_gm.trigger()
    table.vm.add_creatures(rules.demo_sheet("d20"), 3)
    QApplication.processEvents()
    for combo in (table.filter_state, table.journal_scope):
        assert not combo.hasFocus() and combo.focusPolicy() == Qt.FocusPolicy.StrongFocus
        before = combo.currentIndex()
        wheel(combo)
        wheel(combo, notches=1)
        assert combo.currentIndex() == before
    assert table.model.rowCount() == 3


# --- item 5: the quick entry's mode --------------------------------------------------------------------


def test_after_ctrl_h_a_click_back_into_the_field_damages(qtbot: Any, make_window: Any) -> None:
    win, view = small_window(make_window, "douaratil")
    quick = view.health.quick
    view.vm.apply(rules.Damage(amount=5))
    qtbot.keyClick(win, Qt.Key.Key_H, Qt.KeyboardModifier.ControlModifier)
    assert quick.mode_tag.text() == "Soins" and quick.amount.hasFocus()
    qtbot.mouseClick(view.journal.view.viewport(), Qt.MouseButton.LeftButton)  # elsewhere
    assert quick.mode_tag.text() == "Dégâts"
    enter(qtbot, view, "7")
    assert view.vm.sheet.current == 14 - 5 - 7


def test_ctrl_h_then_enter_heals_once_then_enter_damages(qtbot: Any, make_window: Any) -> None:
    win, view = small_window(make_window, "douaratil")
    quick = view.health.quick
    view.vm.apply(rules.Damage(amount=5))
    qtbot.keyClick(win, Qt.Key.Key_H, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(quick.amount, "2")
    qtbot.keyClick(quick.amount, Qt.Key.Key_Return)
    assert view.vm.sheet.current == 14 - 5 + 2
    assert quick.mode_tag.text() == "Dégâts" and quick.amount.hasFocus()
    qtbot.keyClicks(quick.amount, "1")
    qtbot.keyClick(quick.amount, Qt.Key.Key_Return)
    assert view.vm.sheet.current == 14 - 5 + 2 - 1


def test_the_mode_is_written_in_the_field_itself(qtbot: Any, make_window: Any) -> None:
    win, view = small_window(make_window, "douaratil")
    quick = view.health.quick
    qtbot.keyClick(win, Qt.Key.Key_T, Qt.KeyboardModifier.ControlModifier)
    tag = quick.mode_tag
    assert tag.parentWidget() is quick.amount and tag.isVisible() and tag.text() == "Temporaires"
    assert quick.amount.textMargins().left() >= tag.width()
    assert quick.amount.geometry().contains(tag.geometry().translated(quick.amount.pos()))


# --- item 6: one-shot options --------------------------------------------------------------------------


def test_d20_nonlethal_is_unticked_after_the_hit(qtbot: Any, make_window: Any) -> None:
    _win, view = small_window(make_window, "d20")
    quick = view.health.quick
    assert quick.nonlethal is not None
    nonlethal_before = view.vm.sheet.nonlethal
    total_before = view.vm.derived.total  # PV + temporary PV (the demo has 5 temporary)
    qtbot.mouseClick(quick.nonlethal, Qt.MouseButton.LeftButton)
    assert quick.nonlethal.isChecked()
    enter(qtbot, view, "5")
    assert view.vm.sheet.nonlethal == nonlethal_before + 5 and view.vm.derived.total == total_before
    assert not quick.nonlethal.isChecked()
    enter(qtbot, view, "5")
    assert view.vm.sheet.nonlethal == nonlethal_before + 5 and view.vm.derived.total == total_before - 5


def test_every_damage_option_goes_back_to_its_default(qtbot: Any, make_window: Any) -> None:
    _win, view = small_window(make_window, "segments")
    quick = view.health.quick
    assert quick.damage_type is not None and quick.hits is not None
    quick.damage_type.setCurrentIndex(1)
    quick.hits.setValue(2)
    enter(qtbot, view, "1")
    assert quick.damage_type.currentIndex() == 0 and quick.hits.value() == 1


# --- item 7: one number, one meaning -------------------------------------------------------------------


def test_d20_health_numbers_are_the_derived_ones_each_labelled(qtbot: Any, make_window: Any) -> None:
    _win, view = small_window(make_window, "d20")
    view.vm.apply(rules.GainTemporary(amount=5))
    d = view.vm.derived
    health = view.health
    assert health.current_label.text() == str(d.current)
    assert health.maximum_label.text() == str(d.maximum)
    assert health.extra_labels["temporary"].text() == "+5 temporaires"
    total = health.extra_labels["total"]
    assert total.isVisible() and total.text() == f"total {d.total} avec les temporaires"
    assert health.bar.state().text.startswith(f"{d.current} / {d.maximum}")


# --- item 8: notices tell the final state --------------------------------------------------------------


def test_a_stabilisation_broken_in_the_same_step_is_not_announced(
    qtbot: Any, make_window: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    _win, view = small_window(make_window, "douaratil")
    dying = rules.evolve(view.vm.sheet, current=0, stabilised=False)
    view.vm.replace_sheet(dying)
    real_apply = rules.apply

    def bleeding_apply(sheet: Any, action: Any, rng: Any = None, rules_table: Any = None) -> Any:
        outcome = real_apply(sheet, action, rng, rules_table)
        # The rules said « stabilised », then a bleed in the same step made the character dying again.
        return outcome._replace(sheet=dying, events=("stabilised",))

    monkeypatch.setattr(rules, "apply", bleeding_apply)
    assert rules.derive(dying).state == "mourant"
    qtbot.mouseClick(view.dying.buttons["stabilise"], Qt.MouseButton.LeftButton)
    assert "stabilis" not in view.messages.text()


def test_notices_word_the_character_neutrally(qtbot: Any, make_window: Any) -> None:
    from ui.common.texts import EVENT_NOTICES

    for template in EVENT_NOTICES.values():
        for word in (" est mort", " est stabilisé", "blessé."):
            assert word not in template


# --- item 9: the roll under the field ------------------------------------------------------------------


def test_undo_takes_the_roll_away_and_redo_brings_it_back(qtbot: Any, make_window: Any) -> None:
    win, view = small_window(make_window, "douaratil")
    quick = view.health.quick
    enter(qtbot, view, "1d1000000")
    shown = quick.roll_label.text()
    assert shown.startswith("Lancer : 1d1000000")
    qtbot.keyClick(win, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert quick.roll_label.text() == ""
    qtbot.keyClick(win, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert quick.roll_label.text() == shown


# --- item 10: nothing changed, nothing added -----------------------------------------------------------


def test_damage_zero_adds_no_journal_entry_and_no_undo_step(qtbot: Any, make_window: Any) -> None:
    win, view = small_window(make_window, "douaratil")
    enter(qtbot, view, "0")
    assert view.vm.journal == () and view.vm.undo_stack.count() == 0
    assert not win.act_undo.isEnabled()
    assert "Rien n'a changé" in view.messages.text()
    assert view.health.quick.amount.text() == ""


def test_healing_at_full_points_adds_nothing_either(qtbot: Any, make_window: Any) -> None:
    win, view = small_window(make_window, "douaratil")
    qtbot.keyClick(win, Qt.Key.Key_H, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(view.health.quick.amount, "3")
    qtbot.keyClick(view.health.quick.amount, Qt.Key.Key_Return)
    assert view.vm.journal == () and view.vm.undo_stack.count() == 0


# --- the quick entry speaks the rules' French ---------------------------------------------------------


@pytest.mark.parametrize(
    ("mode", "typed", "said"),
    [
        ("damage", "1.5", "« montant » : doit être un nombre entier, sans décimales"),
        ("heal", "-3", "utilisez Dégâts"),
        ("temporary", "1d6/0", "division par zéro"),
        ("damage", "999999", "doit être entre"),
    ],
)
def test_a_refused_amount_says_why_in_french_and_changes_nothing(
    qtbot: Any, make_window: Any, mode: str, typed: str, said: str
) -> None:
    win, view = small_window(make_window, "douaratil")
    before = view.vm.sheet
    key = {"damage": Qt.Key.Key_D, "heal": Qt.Key.Key_H, "temporary": Qt.Key.Key_T}[mode]
    qtbot.keyClick(win, key, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(view.health.quick.amount, typed)
    qtbot.keyClick(view.health.quick.amount, Qt.Key.Key_Return)
    assert view.vm.sheet is before
    assert view.messages.kind() == "error" and said in view.messages.text()
    assert view.health.quick.amount.text() == typed
