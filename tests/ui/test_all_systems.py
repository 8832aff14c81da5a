"""Every landed system's sheet works as a player uses it, built from its description alone
(systems that have not landed are simply not offered)."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractButton, QCheckBox, QComboBox, QLineEdit

import rules
from ui.common.forms import ActionForm, user_fields
from ui.common.labels import kind_of
from ui.sheet.sheet_view import SheetView

SYSTEMS = list(rules.SYSTEMS)


def enter(qtbot: Any, view: SheetView, text: str, mode: str = "damage") -> None:
    view.focus_quick_entry(mode)
    qtbot.keyClicks(view.health.quick.amount, text)
    qtbot.keyClick(view.health.quick.amount, Qt.Key.Key_Return)


@pytest.mark.parametrize("system", SYSTEMS)
def test_damage_seven_and_enter(qtbot: Any, make_view: Any, system: str) -> None:
    view = make_view(system)
    before = view.vm.sheet
    derived_before = {n: view.vm.derived[n] for n in ("current", "state")}
    enter(qtbot, view, "7")
    entry = view.journal.model.entry(0)
    assert entry.startswith("Dégâts 7"), entry
    assert view.vm.sheet != before
    after = {n: view.vm.derived[n] for n in ("current", "state")}
    assert after != derived_before
    assert view.health.current_label.text() == view.vm.shown("current")
    assert view.health.current_label.toolTip() == view.vm.explain("current")
    view.vm.undo_stack.undo()
    assert view.vm.sheet == before


@pytest.mark.parametrize("system", SYSTEMS)
@pytest.mark.parametrize("typed", ["abc", "-3"])
def test_invalid_level_refused(qtbot: Any, make_view: Any, system: str, typed: str) -> None:
    view = make_view(system)
    field = view.fields.binders["level"].widget
    old = view.vm.sheet.level
    field.setFocus()
    field.selectAll()
    qtbot.keyClicks(field, typed)
    qtbot.keyClick(field, Qt.Key.Key_Return)
    assert view.vm.sheet.level == old and field.text() == str(old)
    assert view.messages.kind() == "error" and "niveau" in view.messages.text().lower()


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_field_shows_the_stored_value(make_view: Any, system: str) -> None:
    view = make_view(system)
    for name, binder in view.fields.binders.items():
        value = getattr(view.vm.sheet, name)
        widget = binder.widget
        if isinstance(widget, QCheckBox):
            assert widget.isChecked() == bool(value), name
        elif isinstance(widget, QComboBox):
            assert widget.currentData() == value, name
        elif isinstance(widget, QLineEdit) and isinstance(value, int):
            assert widget.text() == str(value).replace("-", "−"), name


@pytest.mark.parametrize("system", SYSTEMS)
def test_ticking_each_state_goes_through_the_rules(make_view: Any, system: str) -> None:
    view = make_view(system)
    model = view.conditions.model
    ticked = 0
    for g in range(model.rowCount()):
        parent = model.index(g, 0)
        for r in range(model.rowCount(parent)):
            index = model.index(r, 0, parent)
            if model.flags(index) & Qt.ItemFlag.ItemIsUserCheckable:
                state = model.data(index, Qt.ItemDataRole.CheckStateRole)
                target = Qt.CheckState.Unchecked if state == Qt.CheckState.Checked else Qt.CheckState.Checked
                if model.setData(index, target, Qt.ItemDataRole.CheckStateRole):
                    ticked += 1
                    assert model.data(index, Qt.ItemDataRole.CheckStateRole) == target
                else:
                    assert view.messages.kind() == "error" and view.messages.text()
    assert ticked > 0


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_button_has_a_french_label_and_takes_the_keyboard(make_view: Any, system: str) -> None:
    view = make_view(system)
    names = {t.__name__ for t in view.vm.info.actions}
    for button in view.findChildren(QAbstractButton):
        text = button.text().replace("&", "")
        if not text or text in ("✕",):
            continue
        assert text not in names, f"class name shown: {text}"
        assert "``" not in text
        assert button.focusPolicy() & Qt.FocusPolicy.TabFocus, text


@pytest.mark.parametrize("system", SYSTEMS)
def test_other_actions_open_their_form_and_cancel_changes_nothing(
    qtbot: Any, make_view: Any, answer: Any, system: str
) -> None:
    view = make_view(system)
    before = view.vm.sheet
    for kind, button in view.others.buttons.items():
        action_type = next(t for t in view.vm.info.actions if kind_of(t) == kind)
        if not user_fields(action_type):
            continue
        ask = answer("ask_action", None)
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
        assert ask.calls and ask.calls[0][1] is action_type
    assert view.vm.sheet is before


@pytest.mark.parametrize("system", SYSTEMS)
def test_forms_of_every_action_speak_french(qtbot: Any, system: str) -> None:
    info = rules.describe(system)
    for action_type in info.actions:
        form = ActionForm(action_type, info)
        qtbot.addWidget(form)
        for name in user_fields(action_type):
            editor = form.editor(name)
            if editor is None:
                continue  # nested data keeps its default
            label = editor.accessibleName()
            assert label and "_" not in label, (action_type.__name__, name, label)


REST_TITLES = {"long_rest": "Repos long", "full_day_rest": "Journée complète de repos"}


@pytest.mark.parametrize("system", SYSTEMS)
def test_rest_buttons_rest_the_demo_sheet(qtbot: Any, make_view: Any, answer: Any, system: str) -> None:
    view = make_view(system)
    for kind, button in view.rests.buttons.items():
        action_type = next(t for t, _ in view.vm.info.rests if kind_of(t) == kind)
        if kind == "short_rest" and view.vm.has("action_dice"):
            continue  # the dialog is tested with Douaratil
        steps, before = view.vm.undo_stack.count(), view.vm.sheet
        if user_fields(action_type):
            answer("ask_action", action_type())
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
        assert view.vm.undo_stack.count() == steps + 1, (kind, view.messages.text())
        assert view.vm.sheet != before
        # The title line, then the sheet's clock after « · » (issue 10 item 24).
        assert view.journal.model.entry(0).split("\n")[0].split(" · ")[0] == REST_TITLES[kind]


@pytest.mark.parametrize("system", SYSTEMS)
def test_time_passes(qtbot: Any, make_view: Any, system: str) -> None:
    view = make_view(system)
    assert view.rests.count is not None and view.rests.unit is not None
    clock = view.vm.sheet.clock
    view.rests.count.setValue(2)
    view.rests.advance()
    assert view.vm.sheet.clock > clock
    assert view.journal.model.entry(0).startswith("Le temps passe : 2 ×")


WOUND_SYSTEMS = [s for s in SYSTEMS if rules.describe(s).features & {"wounds", "local_wounds"}]


def test_systems_without_wounds_show_no_wound_list(make_view: Any) -> None:
    for system in SYSTEMS:
        if system not in WOUND_SYSTEMS:
            assert make_view(system).wounds is None


@pytest.mark.parametrize("system", WOUND_SYSTEMS)
def test_wounds_can_be_added(make_view: Any, answer: Any, system: str) -> None:
    view = make_view(system)
    assert view.wounds is not None and view.wounds.add_types
    rows = view.wounds.model.rowCount()
    action_type = view.wounds.add_types[0]
    info = view.vm.info
    values: dict[str, Any] = {}
    fields = action_type.model_fields
    if "wound_type" in fields:
        values["wound_type"] = info.wound_types[0].id
    if "grade" in fields:
        values["grade"] = info.extra["wound_grades"][1][0]
    if "body_part" in fields and fields["body_part"].is_required():
        values["body_part"] = info.extra["body_part_choices"][0][0]
    answer("ask_action", action_type(**values))
    view.wounds.add(action_type)
    assert view.wounds.model.rowCount() == rows + 1
    assert view.wounds.model.data(view.wounds.model.index(rows, 0))


def test_d20_bar_shows_the_negative_range_down_to_death(qtbot: Any, make_view: Any) -> None:
    """« De –1 à –9 points de vie, il est mourant. À partir de –10 points de vie, il est mort. » (001)."""
    view = make_view("d20", sheet=rules.new_sheet("d20", name="Test", base_maximum=12))
    bar = view.health.bar.state()
    assert bar.floor == view.vm.derived["death_threshold"].value < 0
    view.vm.apply(rules.Damage(amount=15))
    assert view.vm.derived.current == -3
    assert view.health.bar.state().current == -3
    assert view.vm.derived.state == "mourant"
    assert view.health.badge.text() == view.vm.info.state("mourant").label
    assert view.dying is not None and "border" in view.dying.styleSheet()


def test_d20_nonlethal_is_drawn_over_the_bar(qtbot: Any, make_view: Any) -> None:
    """« Si votre personnage subit des dégâts non-létaux, faites-en le total à part. » (001)."""
    view = make_view("d20", sheet=rules.new_sheet("d20", name="Test", base_maximum=12))
    quick = view.health.quick
    assert quick.nonlethal is not None
    quick.nonlethal.setChecked(True)
    enter(qtbot, view, "5")
    assert view.vm.derived["nonlethal"].value == 5
    assert view.health.bar.state().nonlethal == 5
    assert view.health.extra_labels["nonlethal"].text() == "non létaux : 5"


def test_segments_player_view_hides_the_points_of_a_numb_character(qtbot: Any, make_view: Any) -> None:
    """Engourdi: « on ignore son propre total de points de vie, que le meneur garde pour lui » (002)."""
    view = make_view("segments")
    view.vm.apply(rules.SetCondition(condition="engourdi"))
    assert view.health.current_label.text() == "?"
    assert view.health.bar.state().hidden
    assert "?" in view.health.bar.state().text
    view.vm.set_gm_view(True)
    assert view.health.current_label.text() == str(view.vm.derived.current)
    assert not view.health.bar.state().hidden


def test_segments_fatigue_ladder(qtbot: Any, make_view: Any) -> None:
    """« Fatigué | −1 à tous les jets » … « Vacillant | le troisième degré » (002)."""
    view = make_view("segments", sheet=rules.new_sheet("segments", name="Test"))
    selector = view.conditions.ladders[0]
    combo = selector.combo
    combo.setCurrentIndex(combo.findData(3))
    combo.activated.emit(combo.currentIndex())
    assert getattr(view.vm.sheet, selector.ladder.field) == 3
    assert view.vm.derived.roll_penalty == -3


def test_severite_trauma_gauge_and_tenacity(qtbot: Any, make_view: Any) -> None:
    """« La jauge est composée de 4 paliers comprenant deux crans de Trauma. » (003)."""
    view = make_view("severite", sheet=rules.new_sheet("severite", name="Test"))
    bar = view.health.bar.state()
    assert bar.gauge and len(bar.tiers) == 4 and sum(t.notches for t in bar.tiers) == bar.maximum == 8
    assert "Jouable (8)" in [t.label for t in bar.tiers]
    assert view.tenacity is not None
    view.vm.apply(rules.InflictWound(grade="grave", tenacity_test=False))
    assert view.health.bar.state().current == 3
    steps = view.vm.undo_stack.count()
    qtbot.mouseClick(view.tenacity.buttons["physique"], Qt.MouseButton.LeftButton)
    assert view.vm.undo_stack.count() == steps + 1
    assert "Ténacité" in view.journal.model.entry(0)


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_sheet_reads_at_1280_by_800(qtbot: Any, make_view: Any, system: str) -> None:
    view = make_view(system)
    view.resize(1280, 740)
    qtbot.wait(20)
    assert sum(view.splitter.sizes()) <= 1280
    for column in range(2):
        widget = view.splitter.widget(column)
        assert widget.width() >= widget.minimumWidth() > 0
    # The quick entry, the first thing a player uses, is never squeezed.
    quick = view.health.quick
    assert quick.amount.height() >= quick.amount.minimumSizeHint().height()
    for button in quick.buttons.values():
        assert button.width() >= button.minimumSizeHint().width()


@pytest.mark.parametrize("system", SYSTEMS)
def test_derived_rows_follow_the_values_and_keep_their_widgets(qtbot: Any, make_view: Any, system: str) -> None:
    """When derived values come and go, the rows that stay keep their widgets (laid out again, shown at
    once: a new widget per row was shown one event pass at a time, a layout of the column each)."""
    from PySide6.QtWidgets import QLabel

    from ui.sheet.health import DerivedPanel

    view = make_view(system)
    view.show()
    panel = view.findChild(DerivedPanel)
    assert panel is not None
    for text in ("1", "5", "20", "200"):
        before = dict(panel.rows)
        enter(qtbot, view, text)
        assert list(panel.rows) == panel.names()
        for name, (label, value) in panel.rows.items():
            assert value.isVisibleTo(panel) and value.objectName() == f"derived_{name}"
            assert label.isVisibleTo(panel) == bool(label.text())
            if name in before:
                assert (label, value) == before[name]
            assert len([w for w in panel.findChildren(QLabel, f"derived_{name}") if w.isVisibleTo(panel)]) == 1
    view.vm.undo_stack.undo()
    assert list(panel.rows) == panel.names()


@pytest.mark.parametrize("system", ["douaratil", "d20"])  # where 2 points heal what 3 points of damage did
def test_shift_enter_in_the_quick_entry_heals(qtbot: Any, make_view: Any, system: str) -> None:
    """The quick entry is one piece for the sheet and the GM table (ui/common/amount.py): Entrée deals the
    current choice, Maj+Entrée heals, on both."""
    view = make_view(system)
    field = view.health.quick.amount
    field.setFocus()
    qtbot.keyClicks(field, "3")
    qtbot.keyClick(field, Qt.Key.Key_Return)
    hurt = view.vm.sheet
    assert view.vm.journal[-1].startswith(view.vm.title_of(rules.Damage(amount=3)).split(" (")[0])
    qtbot.keyClicks(field, "2")
    qtbot.keyClick(field, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    assert view.vm.sheet != hurt
    assert view.vm.journal[-1].startswith(view.vm.title_of(rules.Heal(amount=2)).split(" (")[0])
