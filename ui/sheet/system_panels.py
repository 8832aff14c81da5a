"""Panels for what one system truly has alone (the rest of a sheet is built from its description).

Sévérité: the Défi de Ténacité (Physique, or Mental for a psychological wound) against the
Opposition of the gauge's tier, the blow that hit (Puissance against Résistance), the end of the
Conflict.
"""

from __future__ import annotations

from PySide6.QtWidgets import QGridLayout, QGroupBox, QHBoxLayout, QLabel, QPushButton, QSpinBox, QWidget

import rules
from ui.common import guard
from ui.common.labels import button_label
from ui.sheet.actions import run_action
from ui.sheet.odds import ChanceLabel, LiveChance
from ui.sheet.viewmodel import Changes, SheetViewModel

TENACITY_NAMES = ("trauma_tier", "tenacity_opposition", "tenacity_physique", "tenacity_mental")


class TenacityPanel(QGroupBox):
    """Ténacité: what the next Défi is rolled against, and the buttons that roll it."""

    def __init__(self, vm: SheetViewModel, parent: QWidget | None = None) -> None:
        super().__init__(self.tr("Ténacité"), parent)
        self.vm = vm
        grid = QGridLayout(self)
        self.status = QLabel()
        self.status.setObjectName("tenacityStatus")
        self.status.setWordWrap(True)
        grid.addWidget(self.status, 0, 0, 1, 2)
        self.buttons: dict[str, QPushButton] = {}
        test = self.vm.action_named("TenacityTest")
        self.opposition = QSpinBox()
        self.opposition.setObjectName("tenacityOpposition")
        self.opposition.setRange(-1, 100)
        self.opposition.setSpecialValueText(self.tr("Opposition du palier"))
        self.opposition.setValue(-1)
        self.opposition.setAccessibleName(self.tr("Opposition imposée par le meneur"))
        self.opposition.setToolTip(self.tr("Laissez « Opposition du palier » pour celle de la jauge de Trauma."))
        # Beside each Défi its chance, which follows the Opposition chosen below.
        self.odds: dict[str, LiveChance] = {}
        if test is not None and vm.supports(test):
            for col, (psychological, text) in enumerate(
                ((False, self.tr("Défi (&Physique)")), (True, self.tr("Défi (Me&ntal)")))
            ):
                name = "mental" if psychological else "physique"
                button = QPushButton(text)
                button.setObjectName(f"tenacity_{name}")
                button.setAutoDefault(False)
                guard.connect(button.clicked, lambda _=False, p=psychological, t=test: self._test(t, p))
                cell = QHBoxLayout()
                cell.addWidget(button, 1)
                label = ChanceLabel(f"odds_tenacity_{name}")
                cell.addWidget(label)
                grid.addLayout(cell, 1, col)
                self.buttons[name] = button
                live = LiveChance(vm, label, lambda p=psychological, t=test: self._action(t, p))
                guard.connect(self.opposition.valueChanged, live.update)
                self.odds[name] = live
            label = QLabel(self.tr("Contre :"))
            label.setBuddy(self.opposition)
            grid.addWidget(label, 2, 0)
            grid.addWidget(self.opposition, 2, 1)
        row = 3
        for name in ("Strike", "EndConflict"):
            action_type = self.vm.action_named(name)
            if action_type is None or not vm.supports(action_type):
                continue
            button = QPushButton(button_label(action_type, vm.info))
            button.setObjectName(f"severite_{name}")
            button.setAutoDefault(False)
            guard.connect(button.clicked, lambda _=False, t=action_type: run_action(vm, self, t))
            grid.addWidget(button, row, 0, 1, 2)
            row += 1
        self.refresh()
        vm.changed.connect(self._on_changed)

    def covered(self) -> set[type[rules.Action]]:
        return {t for t in (self.vm.action_named(n) for n in ("TenacityTest", "Strike", "EndConflict")) if t}

    def _action(self, action_type: type[rules.Action], psychological: bool) -> rules.Action:
        opposition = self.opposition.value()
        return action_type(psychological=psychological, opposition=None if opposition < 0 else opposition)  # type: ignore[call-arg]

    def _test(self, action_type: type[rules.Action], psychological: bool) -> None:
        self.vm.apply(self._action(action_type, psychological))

    def refresh(self) -> None:
        vm = self.vm
        lines = [vm.explain(n) for n in TENACITY_NAMES if n in vm.derived and vm.explain(n)]
        self.status.setText("\n".join(lines))
        self.status.setToolTip("\n".join(lines))
        for live in self.odds.values():
            live.update()

    def _on_changed(self, changes: Changes) -> None:
        if changes.touches(derived=TENACITY_NAMES):
            self.refresh()
        elif changes.fields or changes.derived:
            for live in self.odds.values():
                live.update()
