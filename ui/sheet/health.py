"""Health: the state badge, the numbers and the bar, the quick entry (damage, healing, temporary
points) and the list of derived values. Every number's tooltip is the rules' own explanation.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QFocusEvent, QFont
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSizePolicy,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

import rules
from ui.common import guard, prompts
from ui.common.amount import AmountField
from ui.common.badge import StateBadge
from ui.common.flow import FlowLayout
from ui.common.health_bar import BarState, HealthBar, Tier
from ui.common.steady import SteadyText, set_description, set_name, set_tip, steady_width
from ui.common.texts import DERIVED_LABELS, DERIVED_SHOWN_ELSEWHERE, fmt_number, fmt_value, tr_const
from ui.common.undo_keys import pass_undo_when_unmodified
from ui.sheet.viewmodel import Changes, SheetViewModel

# The colour of each mode of the quick entry (its tag in the field and its frame).
MODE_COLOURS = {"damage": "#b71c1c", "heal": "#2e7d32", "temporary": "#1565c0"}
BAR_NAMES = ("current", "maximum", "temporary", "total", "nonlethal", "death_threshold", "state")


def bar_state(vm: SheetViewModel) -> BarState:
    """What the bar draws, read from the derived values (nothing computed here)."""
    d = vm.derived
    hidden = vm.is_hidden("current") or vm.is_hidden("maximum")
    current, maximum = d.current, d.maximum
    temporary = int(vm.value("temporary", 0) or 0)
    nonlethal = int(vm.value("nonlethal", 0) or 0)
    threshold = vm.value("death_threshold")
    floor = int(threshold) if isinstance(threshold, int) and threshold < 0 else 0
    _, colour = vm.state_label()
    short = vm.info.points_short
    if vm.has("trauma"):
        tiers = tuple(_tiers(vm.info.extra.get("trauma_tiers", ())))
        # The numbers are written above the gauge; inside, they would cover its notches.
        return BarState(current, maximum, 0, 0, 0, colour, hidden, "", gauge=True, tiers=tiers)
    if hidden:
        return BarState(0, 0, 0, 0, 0, colour, True, f"{vm.shown('current')} / {vm.shown('maximum')} {short}")
    text = f"{fmt_number(current)} / {fmt_number(maximum)} {short}"
    return BarState(current, maximum, temporary, nonlethal, floor, colour, False, text)


def _tiers(raw: Sequence[Any]) -> list[Tier]:
    """Tiers of the Trauma gauge from ``extra["trauma_tiers"]``: (notches, label[, colour]) or mappings."""
    palette = ("#7cb342", "#fdd835", "#fb8c00", "#e53935", "#8e24aa", "#4e342e")
    tiers: list[Tier] = []
    for i, item in enumerate(raw):
        if isinstance(item, dict):
            notches, label, colour = item.get("notches", 2), item.get("label", ""), item.get("colour", "")
        else:
            notches, label = item[0], item[1]
            colour = item[2] if len(item) > 2 else ""
        tiers.append(Tier(int(notches), str(label), str(colour or palette[min(i, len(palette) - 1)])))
    return tiers


class FlowRow(FlowLayout):
    """Option controls side by side, wrapping to the next line in a narrow column."""

    def __init__(self) -> None:
        super().__init__(spacing=8)

    def finish(self) -> None:
        """Nothing left to do (kept for the callers that close a row of options)."""


class HealthPanel(QGroupBox):
    """State badge, current / maximum with their explanations, the bar, and the quick entry."""

    def __init__(self, vm: SheetViewModel, parent: QWidget | None = None) -> None:
        super().__init__(vm.info.points_label[:1].upper() + vm.info.points_label[1:], parent)
        self.vm = vm
        layout = QVBoxLayout(self)
        top = QHBoxLayout()
        self.badge = StateBadge()
        top.addWidget(self.badge)
        big = QFont(self.font())
        big.setPointSizeF(big.pointSizeF() + 5)
        big.setBold(True)
        self.current_label = QLabel()
        self.current_label.setObjectName("currentLabel")
        self.current_label.setFont(big)
        self.current_label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.maximum_label = QLabel()
        self.maximum_label.setObjectName("maximumLabel")
        self.maximum_label.setFont(big)
        slash = QLabel("/")
        slash.setFont(big)
        self.slash = slash
        unit = QLabel(vm.info.points_short)
        unit.setFont(big)
        top.addSpacing(8)
        top.addWidget(self.current_label)
        top.addWidget(slash)
        top.addWidget(self.maximum_label)
        top.addWidget(unit)
        top.addStretch(1)
        layout.addLayout(top)
        extras = FlowLayout(spacing=14)
        self.extra_labels: dict[str, QLabel] = {}
        for name in ("temporary", "total", "nonlethal", "death_threshold"):
            if name in vm.derived:
                label = QLabel()
                label.setObjectName(f"{name}Label")
                self.extra_labels[name] = label
                extras.addWidget(label)
        # Sévérité: a gauge filled past its capacity says what beyond it means (issue 10 item 19).
        self.beyond: QLabel | None = None
        if vm.has("trauma"):
            self.beyond = QLabel()
            self.beyond.setObjectName("beyondLabel")
            self.beyond.setWordWrap(True)
            extras.addWidget(self.beyond)
        if self.extra_labels or self.beyond is not None:
            layout.addLayout(extras)
        self.bar = HealthBar()
        layout.addWidget(self.bar)
        self.quick = QuickEntry(vm)
        layout.addWidget(self.quick)
        self.refresh()
        vm.changed.connect(self._on_changed)

    def refresh(self) -> None:
        vm = self.vm
        label, colour = vm.state_label()
        self.badge.show_state(label, colour, vm.explain("state"))
        # Numbers keep the width of their longest so far: « 9 » after « 14 » moves nothing (issue 15).
        steady_width(self.current_label, vm.shown("current"))
        set_tip(self.current_label, vm.explain("current"))
        set_name(self.current_label, self.tr("Points actuels : {0}").format(vm.shown("current")))
        steady_width(self.maximum_label, vm.shown("maximum"))
        set_tip(self.maximum_label, vm.explain("maximum"))
        set_name(self.maximum_label, self.tr("Maximum effectif : {0}").format(vm.shown("maximum")))
        texts = {
            "temporary": self.tr("+{0} temporaires"),
            # d20 counts some thresholds on the total (PV + temporary PV): labelled as such (item 7).
            "total": self.tr("total {0} avec les temporaires"),
            "nonlethal": self.tr("non létaux : {0}"),
            "death_threshold": self.tr("mort à {0}"),
        }
        for name, label_widget in self.extra_labels.items():
            value = vm.value(name)
            shown = vm.shown(name)
            visible = vm.is_hidden(name) or bool(value) or name == "death_threshold"
            if name == "total":
                visible = vm.is_hidden(name) or bool(vm.value("temporary", 0))
            label_widget.setVisible(visible)
            steady_width(label_widget, texts[name].format(shown))
            set_tip(label_widget, vm.explain(name))
        if self.beyond is not None:
            self._show_beyond()
        state = bar_state(vm)
        self.bar.set_state(state)
        set_tip(self.bar, "\n".join(vm.explain(n) for n in ("current", "maximum", "temporary") if n in vm.derived))

    def _show_beyond(self) -> None:
        """« 15 / 8 crans » read like an error: past the gauge, « 15 crans » and what the excess means."""
        assert self.beyond is not None
        vm = self.vm
        over = not vm.is_hidden("current") and vm.derived.current > vm.derived.maximum
        self.slash.setVisible(not over)
        self.maximum_label.setVisible(not over)
        self.beyond.setVisible(over)
        if not over:
            self.beyond.clear()
            return
        trauma = vm.info.extra.get("trauma") or {}
        beyond = trauma.get("beyond") if isinstance(trauma, dict) else None
        excess = vm.derived.current - vm.derived.maximum
        text = self.tr("{0} au-delà de la jauge de {1}").format(excess, fmt_number(vm.derived.maximum))
        if isinstance(beyond, dict) and beyond.get("label"):
            opposition = beyond.get("opposition")
            tier = f"{beyond['label']} ({opposition})" if opposition is not None else str(beyond["label"])
            text += self.tr(" : palier {0}").format(tier)
        self.beyond.setText(text)
        set_tip(self.beyond, vm.explain("maximum"))

    def _on_changed(self, changes: Changes) -> None:
        if changes.touches(derived=BAR_NAMES):
            self.refresh()


class QuickEntry(QWidget):
    """One field and three buttons: Dégâts / Soins / Temporaires. Entrée applies the current choice."""

    def __init__(self, vm: SheetViewModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.vm = vm
        self.mode = "damage"
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        row = QHBoxLayout()
        self.amount = AmountField()
        self.amount.setObjectName("quickAmount")
        self.amount.setAccessibleName(self.tr("Montant : un nombre ou des dés"))
        self.amount.setMinimumWidth(180)
        # One tag per mode, each styled once, shown in turn (issue 15: a heal switched the mode back to
        # « Dégâts », and a new style sheet on one tag was a style, a palette and a font built again each time).
        self._tags: dict[str, QLabel] = {}
        self.amount.setProperty("mode", self.mode)
        self.amount.installEventFilter(self)
        self._roll_entry: str | None = None
        self._roll_text = ""
        # Entrée: the current choice; Maj+Entrée: healing (as on the GM table).
        guard.connect(self.amount.submitted, lambda kind: self.submit("heal" if kind == "heal" else self.mode))
        pass_undo_when_unmodified(self.amount)
        # The field on its own line, as wide as the panel; the buttons under it, side by side.
        layout.addWidget(self.amount)
        # The field's frame takes the mode's colour from one style sheet, set once (by its « mode » property),
        # once the field has its parent: Qt re-polishes a widget with a style sheet of its own each time it
        # changes parent (see ``DyingPanel.added_to_column``).
        self.amount.setStyleSheet(
            " ".join(
                f'QLineEdit#quickAmount[mode="{mode}"] {{ border: 2px solid {colour}; border-radius: 3px; }}'
                for mode, colour in MODE_COLOURS.items()
            )
        )
        self.buttons: dict[str, QPushButton] = {}
        specs = [("damage", self.tr("&Dégâts"), rules.Damage), ("heal", self.tr("&Soins"), rules.Heal)]
        if vm.has("temporary") and vm.supports(rules.GainTemporary):
            specs.append(("temporary", self.tr("&Temporaires"), rules.GainTemporary))
        for mode, text, action_type in specs:
            if not vm.supports(action_type):
                continue
            button = QPushButton(text)
            button.setObjectName(f"quick_{mode}")
            button.setAutoDefault(False)
            guard.connect(button.clicked, lambda _=False, m=mode: self.submit(m))
            row.addWidget(button, 1)
            self.buttons[mode] = button
        layout.addLayout(row)
        self.options = FlowRow()
        self.nonlethal: QCheckBox | None = None
        self.damage_type: QComboBox | None = None
        self.hits: QSpinBox | None = None
        self.critical: QCheckBox | None = None
        self.adjacent: QCheckBox | None = None
        self.magical: QCheckBox | None = None
        self.several_attacks: QCheckBox | None = None
        self.body_part: QLineEdit | None = None
        self.body_part_choice: QComboBox | None = None
        self._build_options()
        self.options.finish()
        layout.addLayout(self.options)
        # One line, always there (a long roll elided, whole in its tooltip): a line that came and went with
        # each roll moved every panel under it (issue 15).
        self.roll_label = SteadyText(1, "rollLabel")
        self.roll_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.roll_label.setAccessibleName(self.tr("Dernier lancer"))
        layout.addWidget(self.roll_label)
        self._show_mode()
        vm.rolled.connect(self._on_rolled)
        vm.changed.connect(self._on_changed)

    def _build_options(self) -> None:
        vm = self.vm
        opts = self.options
        if vm.has("nonlethal"):
            self.nonlethal = QCheckBox(self.tr("&Non létaux"))
            self.nonlethal.setObjectName("quick_nonlethal")
            opts.addWidget(self.nonlethal)
        if vm.info.damage_types:
            self.damage_type = QComboBox()
            self.damage_type.setObjectName("quick_damage_type")
            self.damage_type.setAccessibleName(self.tr("Type de dégâts"))
            self.damage_type.addItem(self.tr("Type : aucun"), None)
            for choice in vm.info.damage_types:
                self.damage_type.addItem(choice.label, choice.id)
            opts.addWidget(self.damage_type)
        if vm.has("hits"):
            self.hits = QSpinBox()
            self.hits.setObjectName("quick_hits")
            self.hits.setRange(1, 100)
            self.hits.setPrefix(self.tr("coups : "))
            self.hits.setAccessibleName(self.tr("Nombre de coups"))
            self.hits.setToolTip(self.tr("Plusieurs coups du même montant : la réduction s'applique à chacun."))
            opts.addWidget(self.hits)
        if vm.has("critical"):
            self.critical = QCheckBox(self.tr("Criti&que"))
            self.critical.setObjectName("quick_critical")
            self.critical.setToolTip(self.tr("L'attaque est un coup critique (trois 6)."))
            opts.addWidget(self.critical)
            self.adjacent = QCheckBox(self.tr("À 1,50 m"))
            self.adjacent.setObjectName("quick_adjacent")
            self.adjacent.setToolTip(self.tr("L'attaquant est à 1,50 m ou moins."))
            opts.addWidget(self.adjacent)
        if vm.has("massive_damage"):
            self.several_attacks = QCheckBox(self.tr("Plusieurs attaques"))
            self.several_attacks.setObjectName("quick_several_attacks")
            self.several_attacks.setToolTip(self.tr("Le montant cumule plusieurs attaques (pas de dégâts excessifs)."))
            opts.addWidget(self.several_attacks)
        parts = vm.info.extra.get("body_part_choices")
        if parts:
            self.body_part_choice = QComboBox()
            self.body_part_choice.setObjectName("quick_body_part")
            self.body_part_choice.setAccessibleName(self.tr("Zone touchée"))
            self.body_part_choice.addItem(self.tr("Zone : aucune"), None)
            for value, label in parts:
                self.body_part_choice.addItem(label, value)
            opts.addWidget(self.body_part_choice)
        elif vm.has("localised_wounds") or vm.has("body_part"):
            self.body_part = QLineEdit()
            self.body_part.setObjectName("quick_body_part")
            self.body_part.setPlaceholderText(self.tr("partie du corps"))
            self.body_part.setAccessibleName(self.tr("Partie du corps touchée (blessure localisée)"))
            self.body_part.setMaximumWidth(130)
            opts.addWidget(self.body_part)
        if vm.info.features & {"magical_healing", "supernatural_healing", "dying_rolls", "recovery_rolls"}:
            self.magical = QCheckBox(self.tr("Soins &magiques"))
            self.magical.setObjectName("quick_magical")
            opts.addWidget(self.magical)

    def set_mode(self, mode: str) -> None:
        if mode in self.buttons and mode != self.mode:
            self.mode = mode
            self._show_mode()

    def mode_name(self, mode: str | None = None) -> str:
        names = {"damage": self.tr("Dégâts"), "heal": self.tr("Soins"), "temporary": self.tr("Temporaires")}
        return names.get(mode or self.mode, "")

    @property
    def mode_tag(self) -> QLabel:
        """The tag of the current mode, written in the field."""
        return self._tag(self.mode)

    def _tag(self, mode: str) -> QLabel:
        tag = self._tags.get(mode)
        if tag is None:
            colour = MODE_COLOURS.get(mode, MODE_COLOURS["damage"])
            tag = QLabel(self.mode_name(mode), self.amount)
            tag.setObjectName("quickMode")
            tag.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
            tag.setStyleSheet(
                f"background: {colour}; color: white; border-radius: 3px; padding: 0px 4px; font-weight: bold;"
            )
            tag.hide()
            self._tags[mode] = tag
        return tag

    def _show_mode(self) -> None:
        """The mode is written in the field itself (a coloured tag on its left), and in its tooltip."""
        name = self.mode_name()
        shown = self._tag(self.mode)
        for tag in self._tags.values():
            if tag is not shown:
                tag.hide()
        shown.adjustSize()
        self._place_tag()
        shown.show()
        self.amount.setPlaceholderText(self.tr("7 ou 2d6+3"))
        self.amount.setToolTip(self.tr("Un nombre ou des dés (2d6+3) ; Entrée applique : {0}").format(name))
        self.amount.setAccessibleDescription(self.tr("Entrée applique : {0}").format(name))
        if self.amount.property("mode") != self.mode:
            self.amount.setProperty("mode", self.mode)
            style = self.amount.style()
            style.unpolish(self.amount)
            style.polish(self.amount)
            self.amount.update()
        for mode, button in self.buttons.items():
            if button.font().bold() != (mode == self.mode):
                font = button.font()
                font.setBold(mode == self.mode)
                button.setFont(font)

    def _place_tag(self) -> None:
        tag = self.mode_tag
        height = min(tag.sizeHint().height(), max(self.amount.height() - 6, 10))
        tag.setGeometry(4, (self.amount.height() - height) // 2, tag.sizeHint().width(), height)
        self.amount.setTextMargins(tag.sizeHint().width() + 4, 0, 0, 0)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.amount:
            if event.type() == QEvent.Type.Resize:
                self._place_tag()
            elif event.type() == QEvent.Type.FocusOut and isinstance(event, QFocusEvent):
                # Issue 10 item 5: Ctrl+H's mode lasts while the field is in use; coming back to it
                # (a click) starts again from « Dégâts ». A button click sets its own mode itself.
                if event.reason() != Qt.FocusReason.PopupFocusReason:
                    self.set_mode("damage")
        return super().eventFilter(watched, event)

    def _on_rolled(self, detail: str) -> None:
        self.roll_label.setText(self.tr("Lancer : {0}").format(detail))
        journal = self.vm.journal
        self._roll_entry = journal[-1] if journal else None

    def _on_changed(self, changes: Changes) -> None:
        """The roll shown belongs to the last journal entry: undone, it goes; redone, it comes back."""
        if not (changes.journal or changes.everything) or self._roll_entry is None:
            return
        journal = self.vm.journal
        last = journal[-1] if journal else None
        if last is self._roll_entry:
            if not self.roll_label.text() and self._roll_text:
                self.roll_label.setText(self._roll_text)
        elif self.roll_label.text():
            self._roll_text = self.roll_label.text()
            self.roll_label.clear()

    def submit(self, mode: str) -> None:
        """Apply what the field holds as ``mode`` ("damage", "heal", "temporary"); the mode then goes
        back to « Dégâts » and the one-shot options (non létaux, critique, zone…) are unticked."""
        self.set_mode(mode)
        text = self.amount.text().strip().replace("−", "-")
        if not text:
            self.vm.refused.emit(self.tr("Entrez un montant : un nombre (7) ou des dés (2d6+3)."))
            return
        try:
            done = self._apply(mode, text)
        except rules.Refused as exc:  # the amount or an option refused by the rules, in French
            self.vm.refuse(exc)
            done = False
        if done:
            self.amount.clear()
            self.amount.setModified(False)
            self._reset_options(mode)
            self.set_mode("damage")
        self.amount.setFocus()

    def _reset_options(self, mode: str) -> None:
        """Issue 10 item 6: options describe one hit (or one healing) and do not carry over to the next."""
        if mode == "damage":
            for box in (self.nonlethal, self.critical, self.adjacent, self.several_attacks):
                if box is not None:
                    box.setChecked(False)
            for combo in (self.damage_type, self.body_part_choice):
                if combo is not None:
                    combo.setCurrentIndex(0)
            if self.hits is not None:
                self.hits.setValue(1)
            if self.body_part is not None:
                self.body_part.clear()
        elif mode == "heal" and self.magical is not None:
            self.magical.setChecked(False)

    def _apply(self, mode: str, amount: str) -> bool:
        vm = self.vm
        self._roll_entry = None
        self.roll_label.clear()
        if mode == "damage":
            options: dict[str, Any] = {}
            if self.nonlethal is not None:
                options["nonlethal"] = self.nonlethal.isChecked()
            if self.damage_type is not None:
                options["damage_type"] = self.damage_type.currentData()
            if self.hits is not None:
                options["hits"] = self.hits.value()
            if self.critical is not None and self.adjacent is not None:
                options["critical"] = self.critical.isChecked()
                options["adjacent"] = self.adjacent.isChecked()
            if self.several_attacks is not None:
                options["single_attack"] = not self.several_attacks.isChecked()
            if self.body_part is not None and self.body_part.text().strip():
                options["body_part"] = self.body_part.text().strip()
            if self.body_part_choice is not None and self.body_part_choice.currentData() is not None:
                options["body_part"] = self.body_part_choice.currentData()
            return vm.apply(rules.build_action(rules.Damage, amount=amount, **options)) is not None
        if mode == "heal":
            magical = self.magical.isChecked() if self.magical is not None else False
            return vm.apply(rules.build_action(rules.Heal, amount=amount, magical=magical)) is not None
        return self._temporary(amount)

    def _temporary(self, text: str) -> bool:
        """Temporary points never stack: when some exist, ask keep or replace (with the new amount known)."""
        vm = self.vm
        checked = rules.build_action(rules.GainTemporary, amount=text)
        amount = checked.amount  # type: ignore[attr-defined]
        current = int(vm.value("temporary", 0) or 0)
        preface: list[str] = []
        if isinstance(amount, str):
            roll = rules.roll_expression(amount, vm.rng)
            preface.append(self.tr("Points temporaires : {0}.").format(roll.detail))
            vm.rolled.emit(roll.detail)
            amount = roll.total
        if amount < 0:
            vm.refused.emit(self.tr("Des points temporaires négatifs n'ont pas de sens."))
            return False
        replace = False
        if current > 0:
            answer = prompts.keep_or_replace(self, current, amount)
            if answer is None:
                return False
            replace = answer
        action = rules.build_action(rules.GainTemporary, amount=amount, replace=replace)
        return vm.apply(action, preface=preface) is not None


class DerivedPanel(QGroupBox):
    """Every other derived value of the system, each with its explanation as tooltip."""

    def __init__(self, vm: SheetViewModel, exclude: set[str] | None = None, parent: QWidget | None = None) -> None:
        super().__init__(self.tr("Valeurs calculées"), parent)
        self.vm = vm
        self.exclude = frozenset(exclude or ())
        self.grid = QGridLayout(self)
        self.grid.setVerticalSpacing(2)
        self.grid.setColumnStretch(1, 1)
        self.rows: dict[str, tuple[QLabel, QLabel]] = {}
        self.refresh()
        vm.changed.connect(self._on_changed)

    def names(self) -> list[str]:
        vm = self.vm
        shown = []
        for name, explained in vm.derived.items():
            if (
                name in DERIVED_SHOWN_ELSEWHERE
                or name in self.exclude
                or (name.endswith("_modifier") and name[:-9] in _field_names(vm))
            ):
                continue
            if name.endswith("_maximum") and name[:-8] in dict(vm.info.extra.get("pools", ())):
                continue
            if not explained.text or isinstance(explained.value, dict) or name.endswith("_rows"):
                continue
            if isinstance(explained.value, tuple) and any(isinstance(v, dict) for v in explained.value):
                continue
            shown.append(name)
        return shown

    def _labelled(self, name: str) -> bool:
        return name in DERIVED_LABELS and (isinstance(self.vm.derived[name].value, int) or self.vm.is_hidden(name))

    def refresh(self) -> None:
        layout_key = [(n, self._labelled(n)) for n in self.names()]
        if [(n, bool(lbl.text())) for n, (lbl, _) in self.rows.items()] != layout_key or not self.rows:
            # The rows change (a value appears, another goes): the widgets of the values still shown are
            # laid out again, not made anew, and shown at once; a new widget left to the layout would be
            # shown by a queued call, one row per event pass, each a layout of the whole column.
            for label, value in self.rows.values():
                self.grid.removeWidget(label)
                self.grid.removeWidget(value)
            kept, self.rows = self.rows, {}
            for i, (name, labelled) in enumerate(layout_key):
                pair = kept.pop(name, None)
                if pair is None:
                    label, value = QLabel(), QLabel()
                    label.setObjectName(f"derivedLabel_{name}")
                    value.setObjectName(f"derived_{name}")
                    value.setWordWrap(True)
                    value.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
                else:
                    label, value = pair
                if labelled:
                    label.setText(tr_const(DERIVED_LABELS[name]) + " :")
                    self.grid.addWidget(label, i, 0, Qt.AlignmentFlag.AlignTop)
                    self.grid.addWidget(value, i, 1)
                    label.setVisible(True)
                else:
                    # A system's own value: its explanation already says what it is, in French.
                    label.setText("")
                    label.hide()
                    self.grid.addWidget(value, i, 0, 1, 2)
                value.setVisible(True)
                self.rows[name] = (label, value)
            for label, value in kept.values():
                for widget in (label, value):
                    widget.hide()
                    widget.deleteLater()
        for name, (label, value) in self.rows.items():
            tip = self.vm.explain(name)
            if label.text():
                value.setText(self.vm.shown(name))
                set_name(value, label.text().rstrip(" :"))
            else:
                value.setText(tip if not self.vm.is_hidden(name) else self.vm.shown(name))
                set_name(value, tip)
            set_tip(label, tip)
            set_tip(value, tip)
            set_description(value, tip)

    def _on_changed(self, changes: Changes) -> None:
        if changes.everything or changes.derived - DERIVED_SHOWN_ELSEWHERE:
            self.refresh()


def _field_names(vm: SheetViewModel) -> set[str]:
    return {f.name for f in vm.info.fields}


__all__ = ["DerivedPanel", "HealthPanel", "QuickEntry", "StateBadge", "bar_state", "fmt_value"]
