"""Buttons that roll and say what happened: dying (death saves, stabilising, waking), rests, time,
and every other action a system offers (a form built from the action's model).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

import rules
from ui.common import guard, prompts
from ui.common.flow import FlowLayout
from ui.common.forms import user_fields
from ui.common.labels import ACTION_LABELS, LONGEST_LABEL, adds_wound, button_label, kind_of
from ui.common.texts import tr_const
from ui.sheet.odds import ChanceLabel, LiveChance, SurvivalLabel, hides_story
from ui.sheet.quiet import QuietText
from ui.sheet.viewmodel import Changes, SheetViewModel

# Derived values that tell a dying or unconscious character's situation (shown under the buttons).
STATUS_NAMES = (
    "wake_in",
    "death_in_rounds",
    "stabilised",
    "next_roll",
    "segments_to_death",
    "self_stabilise_available",
)

# Actions with their own controls elsewhere on the sheet (not repeated under « Autres actions »).
COVERED_KINDS = frozenset(
    {
        "edit",
        "damage",
        "heal",
        "gain_temporary",
        "lose_temporary",
        "set_condition",
        "clear_conditions",
        "advance_time",
        "short_rest",
        "long_rest",
        "spend_action_die",
        "death_save",
        "wake_save",
        "stabilise",
    }
)


def run_action(
    vm: SheetViewModel, parent: QWidget, action_type: type[rules.Action], defaults: dict[str, Any] | None = None
) -> Any:
    """Apply an action: at once when it has nothing to ask, else through a form."""
    if user_fields(action_type):
        action = prompts.ask_action(parent, action_type, vm.info, defaults=defaults, preview=vm.action_odds)
        if action is None:
            return None
    else:
        action = action_type()
    return vm.apply(action)


def _button(text: str, name: str, tip: str = "") -> QPushButton:
    shown = text if len(text) <= LONGEST_LABEL else text[: LONGEST_LABEL - 1].rstrip() + "…"
    button = QPushButton(shown)
    button.setObjectName(name)
    button.setAutoDefault(False)
    button.setAccessibleName(text.replace("&", ""))
    if tip or shown != text:
        button.setToolTip(tip or text.replace("&", ""))
    return button


class Pips(QLabel):
    """``●●○`` for a count out of a total, with an accessible text."""

    def __init__(self, what: str, colour: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.what = what
        self.setStyleSheet(f"color: {colour}; font-size: 16pt;")

    def show_count(self, count: int, total: int) -> None:
        self.setText("●" * min(count, total) + "○" * max(total - count, 0))
        self.setAccessibleName(f"{self.what} : {count} sur {total}")


def dying_style(dying: bool) -> str:
    """The panel's frame: red while dying. The title sits in the margin above the frame (the frame never
    runs through it, issue 10 item 19), and both states have the same geometry (nothing moves)."""
    colour, title = ("#b71c1c", "color: #b71c1c;") if dying else ("#c4c4c4", "")
    return (
        f"#dyingPanel {{ border: 2px solid {colour}; border-radius: 4px; margin-top: 1.2em; padding-top: 0.3em; }}"
        "#dyingPanel::title { subcontrol-origin: margin; subcontrol-position: top left; left: 6px; "
        f"padding: 0 3px; {title} }}"
    )


class DyingPanel(QGroupBox):
    """Death saves (three successes, three failures), stabilising, waking: buttons that roll."""

    def __init__(self, vm: SheetViewModel, parent: QWidget | None = None) -> None:
        super().__init__(self.tr("Inconscience et mort"), parent)
        self.vm = vm
        self.setObjectName("dyingPanel")
        layout = QVBoxLayout(self)
        self.successes: Pips | None = None
        self.failures: Pips | None = None
        table = rules.ruleset(vm.sheet.system)
        self.needed = int(getattr(getattr(table, "saves", None), "death_saves_needed", 3) or 3)
        if "death_saves" in vm.derived:
            tracker = QHBoxLayout()
            tracker.addWidget(QLabel(self.tr("Succès")))
            self.successes = Pips(self.tr("Succès contre la mort"), "#2e7d32")
            tracker.addWidget(self.successes)
            tracker.addSpacing(16)
            tracker.addWidget(QLabel(self.tr("Échecs")))
            self.failures = Pips(self.tr("Échecs contre la mort"), "#b71c1c")
            tracker.addWidget(self.failures)
            tracker.addStretch(1)
            layout.addLayout(tracker)
        # The chance of pulling through, and beside each roll its own chance (the rules compute them).
        # The survival line is at the bottom with its line kept when empty: a character falling to 0
        # never moves the buttons under the pointer (issue 10 items 13 and 19).
        self.survival = SurvivalLabel()
        self.survival.setObjectName("dyingSurvival")
        keep = self.survival.sizePolicy()
        keep.setRetainSizeWhenHidden(True)
        self.survival.setSizePolicy(keep)
        self.odds: dict[str, ChanceLabel] = {}
        row = FlowLayout()  # wraps in a narrow column (issue 10 item 12)
        self.buttons: dict[str, QPushButton] = {}
        for action_type in (self.vm.action_named("DeathSave"), self.vm.action_named("WakeSave")):
            if action_type is not None and vm.supports(action_type):
                kind = kind_of(action_type)
                button = _button(button_label(action_type), f"dying_{kind}")
                guard.connect(button.clicked, lambda _=False, t=action_type: vm.apply(t()))
                row.addWidget(button)
                self.buttons[kind] = button
                self.odds[kind] = ChanceLabel(f"odds_{kind}")
                row.addWidget(self.odds[kind])
        layout.addLayout(row)
        self.method: QComboBox | None = None
        self.modifier: QSpinBox | None = None
        if vm.supports(rules.Stabilise):
            # The method on a line of its own, as wide as the column: its labels are long
            # (« Premiers soins (Sagesse (Médecine) DD 10) ») and were cut (issue 10 item 19).
            stab = QHBoxLayout()
            methods = vm.info.extra.get("stabilise_methods", ())
            if methods:
                self.method = QComboBox()
                self.method.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
                self.method.setMinimumContentsLength(14)
                self.method.setObjectName("stabiliseMethod")
                self.method.setAccessibleName(self.tr("Méthode de stabilisation"))
                for value, label in methods:
                    self.method.addItem(label, value)
                self.method.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
                self.method.setMinimumContentsLength(10)
                for i in range(self.method.count()):
                    self.method.setItemData(i, self.method.itemText(i), Qt.ItemDataRole.ToolTipRole)
                layout.addWidget(self.method)
                self.modifier = QSpinBox()
                self.modifier.setObjectName("stabiliseModifier")
                self.modifier.setRange(-20, 20)
                self.modifier.setPrefix(self.tr("bonus "))
                self.modifier.setAccessibleName(self.tr("Bonus de celui qui soigne"))
                stab.addWidget(self.modifier)
            button = _button(tr_const(ACTION_LABELS["stabilise"]), "dying_stabilise")
            guard.connect(button.clicked, self.stabilise)
            stab.addWidget(button)
            self.buttons["stabilise"] = button
            self.odds["stabilise"] = ChanceLabel("odds_stabilise")
            stab.addWidget(self.odds["stabilise"])
            # The chosen method and the helper's bonus change the odds as they change.
            self._stabilise_odds = LiveChance(vm, self.odds["stabilise"], self._stabilise_action)
            if self.method is not None:
                guard.connect(self.method.currentIndexChanged, self._stabilise_odds.update)
            if self.modifier is not None:
                guard.connect(self.modifier.valueChanged, self._stabilise_odds.update)
            layout.addLayout(stab)
        ticks = FlowLayout()
        if vm.supports(rules.AdvanceTime) and vm.info.time_units:
            units = [u.id for u in vm.info.time_units]
            tick = str(vm.info.extra.get("turn_unit") or ("segment" if "segment" in units else units[0]))
            wanted = [tick]
            if vm.info.features & {"recovery_rolls"} and "hour" in units:
                wanted.append("hour")
            for unit_id in wanted:
                label = next(u.label for u in vm.info.time_units if u.id == unit_id)
                button = _button(self.tr("+1 {0}").format(label), f"dying_tick_{unit_id}")
                button.setToolTip(
                    self.tr("Le temps passe d'un(e) {0} : les jets et pertes de ce moment sont faits.").format(label)
                )
                guard.connect(button.clicked, lambda _=False, u=unit_id: vm.apply(rules.AdvanceTime(unit=u, count=1)))
                ticks.addWidget(button)
                self.buttons[f"tick_{unit_id}"] = button
        strenuous = vm.info.extra.get("strenuous_action")
        if isinstance(strenuous, type) and vm.supports(strenuous):
            button = _button(button_label(strenuous, vm.info), "dying_strenuous")
            guard.connect(button.clicked, lambda _=False, t=strenuous: run_action(vm, self, t))
            ticks.addWidget(button)
            self.buttons["strenuous"] = button
        # What the rules roll on their own when time passes (the dying roll, a wake-up save…).
        self.odds["time"] = ChanceLabel("odds_time")
        ticks.addWidget(self.odds["time"])
        layout.addLayout(ticks)
        self.status = QLabel()
        self.status.setObjectName("dyingStatus")
        self.status.setWordWrap(True)
        # Its text changes with most edits, its lines seldom: a layout of the column only for a new size.
        self.status_box = QuietText(self.status)
        layout.addWidget(self.status_box)
        layout.addWidget(self.survival)
        self.refresh()
        self.refresh_odds()
        vm.changed.connect(self._on_changed)
        vm.changed.connect(self._on_odds_changed)

    def covered(self) -> set[type[rules.Action]]:
        """Action types this panel has buttons for."""
        types = {self.vm.action_named(n) for n in ("DeathSave", "WakeSave")} | {rules.Stabilise}
        strenuous = self.vm.info.extra.get("strenuous_action")
        if isinstance(strenuous, type):
            types.add(strenuous)
        return {t for t in types if t is not None}

    def _stabilise_action(self) -> rules.Stabilise:
        method = self.method.currentData() if self.method is not None else "first_aid"
        modifier = self.modifier.value() if self.modifier is not None else 0
        return rules.Stabilise(method=method, modifier=modifier)

    def stabilise(self) -> None:
        self.vm.apply(self._stabilise_action())

    def refresh_odds(self) -> None:
        """The chances beside the buttons, from the rules (``vm.odds``): none computed here."""
        vm = self.vm
        found = vm.odds
        self.survival.show_survival(found.survival, hides_story(vm))
        for kind in ("death_save", "wake_save"):
            if kind in self.odds:
                self.odds[kind].show_chances(found.for_action(kind))
        if "stabilise" in self.odds:
            self._stabilise_odds.update()
        self.odds["time"].show_chances(found.by_trigger("time"))

    def _on_odds_changed(self, changes: Changes) -> None:
        if changes.everything or changes.fields or changes.derived:
            self.refresh_odds()

    def refresh(self) -> None:
        vm = self.vm
        if self.successes is not None and self.failures is not None:
            value = vm.value("death_saves", (0, 0))
            successes, failures = value if isinstance(value, tuple) and len(value) == 2 else (0, 0)
            self.successes.show_count(int(successes), self.needed)
            self.failures.show_count(int(failures), self.needed)
            self.successes.setToolTip(vm.explain("death_saves"))
            self.failures.setToolTip(vm.explain("death_saves"))
        lines = [vm.explain("state")]
        for name in STATUS_NAMES:
            if name in vm.derived:
                lines.append(vm.explain(name))
        self.status_box.setText("\n".join(line for line in lines if line))
        if self.parentWidget() is not None:  # else when placed (``added_to_column``)
            self._show_frame()

    def added_to_column(self) -> None:
        """The frame's style sheet, once the panel has its parent: ``Column`` calls this right after adding
        the panel, before measuring it. Qt re-polishes a widget that has a style sheet of its own, with every
        child, each time it changes parent (``QWidgetPrivate::inheritStyle``): set while the panel had no
        parent yet, the move into its column re-polished its ~27 children (~6 M instructions of a Douaratil
        start, issue 15). Set once it is in place, the same style sheet makes the same frame."""
        self._show_frame()

    def _show_frame(self) -> None:
        vm = self.vm
        state = vm.derived.state
        dying = state == "mourant" or (not vm.is_hidden("current") and vm.derived.current < 0 and state != "mort")
        style = dying_style(dying)
        if style != self.styleSheet():  # re-polishing every child is costly: only on a real change
            self.setStyleSheet(style)

    def _on_changed(self, changes: Changes) -> None:
        if changes.touches(derived=("death_saves", "state", "current", "conditions", *STATUS_NAMES)):
            self.refresh()


class RestsPanel(QGroupBox):
    """The system's rests and the passing of time; each button says why when the rules refuse."""

    def __init__(self, vm: SheetViewModel, parent: QWidget | None = None) -> None:
        super().__init__(self.tr("Repos et temps"), parent)
        self.vm = vm
        layout = QVBoxLayout(self)
        # The sheet's clock (issue 10 item 23): the journal dates its entries with it.
        self.clock = QLabel()
        self.clock.setObjectName("sheetClock")
        self.clock.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.clock.setToolTip(
            self.tr("Le temps de jeu écoulé pour ce personnage ; il avance avec le temps et les repos.")
        )
        layout.addWidget(self.clock)
        row = FlowLayout()
        self.buttons: dict[str, QPushButton] = {}
        for action_type, label in vm.info.rests:
            kind = kind_of(action_type)
            text = label + ("…" if user_fields(action_type) else "")
            button = _button(text, f"rest_{kind}")
            guard.connect(button.clicked, lambda _=False, t=action_type: self.rest(t))
            row.addWidget(button)
            self.buttons[kind] = button
        spend = self.vm.action_named("SpendActionDie")
        self.spend: QPushButton | None = None
        if spend is not None and vm.supports(spend):
            self.spend = _button(tr_const(ACTION_LABELS["spend_action_die"]), "rest_spend_action_die")
            guard.connect(self.spend.clicked, lambda: vm.apply(spend()))
            row.addWidget(self.spend)
        layout.addLayout(row)
        self.readiness = QLabel()
        self.readiness.setObjectName("restReadiness")
        self.readiness.setWordWrap(True)
        layout.addWidget(self.readiness)
        self.count: QSpinBox | None = None
        self.unit: QComboBox | None = None
        if vm.supports(rules.AdvanceTime) and vm.info.time_units:
            time = FlowLayout()
            time_label = QLabel(self.tr("Le temps passe :"))
            self.count = QSpinBox()
            self.count.setObjectName("timeCount")
            self.count.setRange(1, 10_000)
            self.count.setAccessibleName(self.tr("Durée"))
            time_label.setBuddy(self.count)
            self.unit = QComboBox()
            self.unit.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            self.unit.setMinimumContentsLength(9)
            self.unit.setObjectName("timeUnit")
            self.unit.setAccessibleName(self.tr("Unité de temps"))
            for unit in vm.info.time_units:
                self.unit.addItem(unit.label, unit.id)
            go = _button(self.tr("A&vancer"), "timeAdvance")
            guard.connect(go.clicked, self.advance)
            time.addWidget(time_label)
            time.addWidget(self.count)
            time.addWidget(self.unit)
            time.addWidget(go)
            layout.addLayout(time)
        self.lose_temporary: QPushButton | None = None
        if vm.has("temporary") and vm.supports(rules.LoseTemporary):
            self.lose_temporary = _button(tr_const(ACTION_LABELS["lose_temporary"]), "loseTemporary")
            self.lose_temporary.setToolTip(self.tr("La durée des points temporaires est écoulée."))
            guard.connect(self.lose_temporary.clicked, lambda: vm.apply(rules.LoseTemporary()))
            layout.addWidget(self.lose_temporary, 0, Qt.AlignmentFlag.AlignLeft)
        self.refresh()
        vm.changed.connect(self._on_changed)

    def advance(self) -> None:
        if self.count is None or self.unit is None:
            return
        self.vm.apply(rules.AdvanceTime(unit=self.unit.currentData(), count=self.count.value()))

    def rest(self, action_type: type[rules.Action]) -> None:
        if action_type is rules.ShortRest and self.vm.has("action_dice"):
            dialog = ShortRestDialog(self.vm, self)
            dialog.open()
            return
        run_action(self.vm, self, action_type)

    def refresh(self) -> None:
        vm = self.vm
        self.clock.setText(self.tr("Horloge : {0}").format(vm.clock_text()))
        lines = [vm.explain(n) for n in ("long_rest_ready_in", "action_dice") if n in vm.derived]
        self.readiness.setText("\n".join(lines))
        self.readiness.setVisible(bool(lines))
        if self.spend is not None:
            self.spend.setVisible(bool(getattr(vm.sheet, "short_rest_open", False)))
        if self.lose_temporary is not None:
            self.lose_temporary.setVisible(bool(vm.value("temporary", 0)))

    def _on_changed(self, changes: Changes) -> None:
        if changes.touches(
            {"short_rest_open", "temporary", "clock"}, {"long_rest_ready_in", "action_dice", "temporary"}
        ):
            self.refresh()


class ShortRestDialog(QDialog):
    """Douaratil's short rest: rest, then spend action dice one at a time, seeing each result.

    The rest stays open for dice until another action (the rules close it); this dialog is only a
    convenient place to roll them.
    """

    def __init__(self, vm: SheetViewModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.vm = vm
        self.setWindowTitle(self.tr("Repos court"))
        self.setObjectName("shortRestDialog")
        layout = QVBoxLayout(self)
        form = QGridLayout()
        label = QLabel(self.tr("Durée (heures) :"))
        self.hours = QSpinBox()
        self.hours.setObjectName("shortRestHours")
        self.hours.setRange(0, 24)
        self.hours.setValue(int(rules.ShortRest.model_fields["hours"].default))
        label.setBuddy(self.hours)
        form.addWidget(label, 0, 0)
        form.addWidget(self.hours, 0, 1)
        self.start = _button(self.tr("&Commencer le repos"), "shortRestStart")
        guard.connect(self.start.clicked, self.begin)
        form.addWidget(self.start, 0, 2)
        layout.addLayout(form)
        self.points = QLabel()
        self.points.setObjectName("shortRestPoints")
        layout.addWidget(self.points)
        self.spend = _button(tr_const(ACTION_LABELS["spend_action_die"]), "shortRestSpend")
        guard.connect(self.spend.clicked, self.spend_die)
        layout.addWidget(self.spend)
        self.results = QPlainTextEdit()
        self.results.setObjectName("shortRestResults")
        self.results.setReadOnly(True)
        self.results.setAccessibleName(self.tr("Résultats du repos"))
        self.results.setMinimumSize(420, 140)
        layout.addWidget(self.results)
        from PySide6.QtWidgets import QDialogButtonBox  # with the first dialog (issue 15: not at start-up)

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.button(QDialogButtonBox.StandardButton.Close).setText(self.tr("&Terminer"))
        guard.connect(buttons.rejected, self.reject)
        layout.addWidget(buttons)
        self.refresh()
        vm.changed.connect(self._on_changed)
        vm.refused.connect(self._on_refused)
        guard.connect(self.finished, self._unbind)

    def begin(self) -> None:
        outcome = self.vm.apply(rules.ShortRest(hours=self.hours.value()))
        if outcome is not None:
            self._show(outcome.log)

    def spend_die(self) -> None:
        outcome = self.vm.apply(rules.SpendActionDie())
        if outcome is not None:
            self._show(outcome.log)

    def _show(self, lines: Any) -> None:
        for line in self.vm.visible_lines(lines):  # the GM's lines only in the GM view
            self.results.appendPlainText(line)

    def refresh(self) -> None:
        vm = self.vm
        is_open = bool(getattr(vm.sheet, "short_rest_open", False))
        dice = vm.value("action_dice", 0) or 0
        self.start.setEnabled(not is_open)
        self.hours.setEnabled(not is_open)
        self.spend.setEnabled(is_open and dice > 0)
        self.spend.setText(
            tr_const(ACTION_LABELS["spend_action_die"]).replace("&", "") + self.tr(" ({0} restants)").format(dice)
        )
        self.points.setText(
            self.tr("{0} : {1} / {2}").format(vm.info.points_short, vm.shown("current"), vm.shown("maximum"))
        )
        self.points.setToolTip(vm.explain("current"))

    def _on_changed(self, changes: Changes) -> None:
        self.refresh()

    def _on_refused(self, reason: str) -> None:
        if self.isVisible():
            self.results.appendPlainText(self.tr("Refusé : {0}").format(reason))

    def _unbind(self) -> None:
        self.vm.changed.disconnect(self._on_changed)
        self.vm.refused.disconnect(self._on_refused)


class OtherActionsPanel(QGroupBox):
    """Every action of the system without its own control: one button each, a form when it asks values."""

    def __init__(self, vm: SheetViewModel, covered: set[type[rules.Action]], parent: QWidget | None = None) -> None:
        super().__init__(self.tr("Autres actions"), parent)
        self.vm = vm
        layout = FlowLayout(self)
        self.buttons: dict[str, QPushButton] = {}
        ladder_actions = {ladder.action for ladder in vm.info.ladders}
        rest_actions = {t for t, _ in vm.info.rests}
        skipped = covered | ladder_actions | rest_actions
        types = [
            t
            for t in vm.info.actions
            if t not in skipped
            and kind_of(t) not in COVERED_KINDS
            and not ("wound_id" in t.model_fields and t.model_fields["wound_id"].is_required())
            and not adds_wound(t, vm.info)
        ]
        for action_type in types:
            kind = kind_of(action_type)
            button = _button(button_label(action_type, vm.info), f"action_{kind}")
            guard.connect(button.clicked, lambda _=False, t=action_type: run_action(vm, self, t))
            layout.addWidget(button)
            self.buttons[kind] = button
        if not types:
            # Never ``setVisible(True)`` here: a panel without a parent yet would open as a window of
            # its own for a moment and take the activation from the main window (its shortcuts die).
            self.hide()
