"""Conditions: one checkbox per state of the system, grouped as the seed groups them; ladders
(exhaustion 1–6, fatigue…) as a level selector that shows the penalty of the level.
"""

from __future__ import annotations

from PySide6.QtCore import QSignalBlocker, Qt
from PySide6.QtWidgets import (
    QComboBox,
    QGridLayout,
    QGroupBox,
    QLabel,
    QPushButton,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

import rules
from ui.common import guard, prompts
from ui.common.flow import FlowLayout
from ui.common.models import ConditionGroup, ConditionItem, ConditionModel, KeyRole
from ui.common.steady import SteadyText
from ui.sheet.viewmodel import Changes, SheetViewModel

SUMMARY_LINES = 2


def condition_model(vm: SheetViewModel) -> ConditionModel:
    """The system's states, grouped as ``info.condition_groups`` orders them."""
    groups = [ConditionGroup(g.id, g.label, g.note) for g in vm.info.condition_groups]
    by_id = {g.id: g for g in groups}
    # States a ladder sets (segments' fatigue degrees) are shown by the ladder, not ticked here.
    by_ladder = set(vm.info.extra.get("ladder_conditions", ()) or ())
    for cond in vm.info.conditions:
        if cond.id in by_ladder:
            continue
        group = by_id.get(cond.group)
        if group is None:
            group = ConditionGroup(cond.group, cond.group, "")
            by_id[cond.group] = group
            groups.append(group)
        group.items.append(ConditionItem(cond.id, cond.label, tuple(cond.effects)))

    @guard.guarded  # a tick in the tree is a user action (the view calls ``setData``)
    def toggle(condition_id: str, active: bool) -> bool:
        return vm.apply(rules.SetCondition(condition=condition_id, active=active)) is not None

    return ConditionModel(groups, lambda cid, active: bool(toggle(cid, active)))


class LadderSelector(QWidget):
    """A level selector for one ladder; choosing a level applies ``ladder.action(level=n)``."""

    def __init__(self, vm: SheetViewModel, ladder: rules.LadderInfo, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.vm = vm
        self.ladder = ladder
        layout = QGridLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        label = QLabel(ladder.label + " :")
        label.setWordWrap(True)  # « Augmentation de Constitution : » may take two lines in a narrow column
        self.combo = QComboBox()
        self.combo.setObjectName(f"ladder_{ladder.id}")
        self.combo.setAccessibleName(ladder.label)
        for level in ladder.levels:
            self.combo.addItem(level.label, level.level)
            self.combo.setItemData(self.combo.count() - 1, level.effect, Qt.ItemDataRole.ToolTipRole)
        label.setBuddy(self.combo)
        self.effect = QLabel()
        self.effect.setObjectName(f"ladderEffect_{ladder.id}")
        self.effect.setWordWrap(True)
        layout.addWidget(label, 0, 0)
        layout.addWidget(self.combo, 0, 1)
        layout.addWidget(self.effect, 1, 0, 1, 2)
        layout.setColumnStretch(1, 1)
        guard.connect(self.combo.activated, self._chosen)
        self.refresh()

    def level(self) -> int:
        return int(getattr(self.vm.sheet, self.ladder.field, 0) or 0)

    def refresh(self) -> None:
        level = self.level()
        blocker = QSignalBlocker(self.combo)
        self.combo.setCurrentIndex(max(self.combo.findData(level), 0))
        blocker.unblock()
        effect = next((lv.effect for lv in self.ladder.levels if lv.level == level), "")
        self.effect.setText(effect)
        self.combo.setToolTip(effect)
        self.effect.setVisible(level != 0 and bool(effect))

    def _chosen(self, index: int) -> None:
        level = int(self.combo.itemData(index))
        if level != self.level():
            self.vm.apply(self.ladder.action(level=level))  # type: ignore[call-arg]
        self.refresh()


class ConditionsPanel(QGroupBox):
    """Ladders, then the states tree (tick with the mouse or the space bar), and « Retirer tous »."""

    def __init__(self, vm: SheetViewModel, parent: QWidget | None = None) -> None:
        super().__init__(self.tr("États"), parent)
        self.vm = vm
        layout = QVBoxLayout(self)
        self.ladders = [LadderSelector(vm, ladder) for ladder in vm.info.ladders]
        for selector in self.ladders:
            layout.addWidget(selector)
        self.model = condition_model(vm)
        self.view = QTreeView()
        self.view.setObjectName("conditionsView")
        self.view.setAccessibleName(self.tr("États du personnage"))
        self.view.setHeaderHidden(True)
        self.view.setRootIsDecorated(False)
        self.view.setItemsExpandable(False)
        self.view.setUniformRowHeights(True)
        self.view.setModel(self.model)
        self.view.expandAll()
        # At least six states in sight, whatever the ladders' texts above take.
        self.view.setMinimumHeight(6 * self.view.fontMetrics().lineSpacing() + 12)
        layout.addWidget(self.view, 1)
        # Two lines whatever the states (the whole text in its tooltip when longer): a summary that grew
        # and shrank with each tick moved the whole sheet (issue 15).
        self.summary = SteadyText(SUMMARY_LINES, "conditionsSummary")
        layout.addWidget(self.summary)
        # What counts down (states put for a while, the system's own waits), one line each.
        self.durations = QLabel()
        self.durations.setObjectName("conditionDurations")
        self.durations.setWordWrap(True)
        layout.addWidget(self.durations)
        buttons = FlowLayout()
        self.timed_button: QPushButton | None = None
        if vm.supports(rules.SetCondition) and vm.info.time_units:
            self.timed_button = QPushButton(self.tr("P&oser pour une durée…"))
            self.timed_button.setObjectName("timedCondition")
            self.timed_button.setToolTip(
                self.tr("Un état qui prend fin de lui-même : 3 rounds, 1 heure… (il se décompte quand le temps passe).")
            )
            self.timed_button.setAutoDefault(False)
            guard.connect(self.timed_button.clicked, self.put_for_a_while)
            buttons.addWidget(self.timed_button)
        if vm.supports(rules.ClearConditions):
            clear = QPushButton(self.tr("&Retirer tous les états"))
            clear.setObjectName("clearConditions")
            clear.setAutoDefault(False)
            guard.connect(clear.clicked, lambda: vm.apply(rules.ClearConditions()))
            buttons.addWidget(clear)
        layout.addLayout(buttons)
        self.refresh()
        vm.changed.connect(self._on_changed)

    def refresh(self) -> None:
        vm = self.vm
        posed = frozenset(getattr(vm.sheet, "conditions", ()) or ())
        reasons = vm.value("condition_reasons", {}) or {}
        effective = set(vm.value("conditions", ()) or ())
        implied = {c: str(reasons.get(c, "")) or self.tr("découle d'un autre état") for c in effective - posed}
        self.model.set_state(posed, implied)
        countdowns = vm.countdowns()
        self.model.set_countdowns({c.condition: c.text for c in countdowns if c.condition})
        self.durations.setText("\n".join(f"• {c.label} : {c.text}" for c in countdowns))
        self.durations.setVisible(bool(countdowns))
        self.summary.setText(vm.explain("conditions") if "conditions" in vm.derived else "")
        for selector in self.ladders:
            selector.refresh()

    def selected_condition(self) -> str | None:
        index = self.view.currentIndex()
        value = index.data(KeyRole) if index.isValid() else None
        return str(value) if value else None

    def put_for_a_while(self) -> None:
        """« Poser pour une durée… »: a state that ends on its own (3 rounds, 1 heure, fin du Conflit)."""
        vm = self.vm
        fixed: dict[str, object] = {"active": True}
        if rules.EndConflict not in vm.info.actions:
            fixed["until_conflict_end"] = False
        defaults: dict[str, object] = {"duration": 1, "unit": vm.info.round_unit}
        chosen = self.selected_condition()
        if chosen:
            defaults["condition"] = chosen
        action = prompts.ask_action(
            self, rules.SetCondition, vm.info, title=self.tr("État pour une durée"), fixed=fixed, defaults=defaults
        )
        if action is not None:
            vm.apply(action)

    def _on_changed(self, changes: Changes) -> None:
        ladder_fields = {s.ladder.field for s in self.ladders}
        timed = {"condition_timers", "clock", "turn_timers", "wake_in", "dead"}
        if changes.touches({"conditions", *ladder_fields, *timed}, {"conditions", "condition_reasons"}):
            self.refresh()
