"""The chances of the rolls, shown beside them: a percentage, and the rules' own explanation on hover.

Nothing here computes a probability: the view-model asks ``rules.sheet_odds`` (every roll the rules
can ask of the sheet now, and a dying character's chance of pulling through) and ``rules.action_odds``
(the rolls an action would make with the values chosen in its dialog); these widgets only show the
``rules.Chance`` records they give.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont, QPalette
from PySide6.QtWidgets import QGridLayout, QGroupBox, QLabel, QSizePolicy, QWidget

import rules
from ui.common.steady import set_description, set_name, set_tip
from ui.sheet.viewmodel import Changes, SheetViewModel

# The widest percentage a label shows (« > 99,9 % »): labels keep this width, so a change of odds
# never moves the buttons beside them.
WIDEST = ">\u00a099,9\u00a0%"
HIDDEN_MARK = "?"
CHANCE_COLOUR = QColor("#37474f")


# A chance's percentage and explanation, by the chance (a frozen record): the window shows the same chances
# edit after edit, and each ``percent``/``text`` formats every probability again (exact, through Fraction).
_WORDS: dict[rules.Chance, tuple[str, str]] = {}
_WORDS_SIZE = 1024


def words(chance: rules.Chance) -> tuple[str, str]:
    """``(chance.percent, chance.text)``, formatted once per distinct chance."""
    found = _WORDS.get(chance)
    if found is None:
        if len(_WORDS) >= _WORDS_SIZE:
            _WORDS.clear()
        found = _WORDS[chance] = (chance.percent, chance.text)
    return found


def tooltip(chances: Sequence[rules.Chance]) -> str:
    """The explanation of one or several rolls, one paragraph each."""
    return "\n\n".join(words(c)[1] for c in chances)


def hides_story(vm: SheetViewModel) -> bool:
    """A dying story tells the points (« depuis −3 PV »): not in the player's view when they are hidden."""
    return vm.is_hidden("current") or vm.is_hidden("state")


class ChanceLabel(QLabel):
    """« 62,5 % » beside a roll's button; hovering it gives how the rules make the roll."""

    def __init__(self, name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName(name)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.setFixedWidth(self.fontMetrics().horizontalAdvance(WIDEST) + 6)
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Preferred)
        # The colour through the palette (what « color: #37474f » set): a style sheet per label gave each
        # new odds row (one per Sévérité wound) a style of its own to build and polish (issue 15).
        palette = self.palette()
        for role in (QPalette.ColorRole.WindowText, QPalette.ColorRole.Text):
            palette.setColor(role, CHANCE_COLOUR)
        self.setPalette(palette)
        self.chances: tuple[rules.Chance, ...] = ()

    def show_chances(self, chances: Sequence[rules.Chance]) -> None:
        """The first roll's percentage (several rolls: all are explained on hover); nothing when none."""
        self.chances = tuple(chances)
        text = words(self.chances[0])[0] if self.chances else ""
        tip = tooltip(self.chances)
        if text != self.text():
            self.setText(text)
        # Each setter sends an event through the application's filter even when nothing changes.
        set_tip(self, tip)
        set_name(self, self.tr("Chance : {0}").format(text) if text else "")
        set_description(self, tip)


class SurvivalLabel(QLabel):
    """A dying character's chance of pulling through, from where the character stands."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("survivalOdds")
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setWordWrap(True)
        font = QFont(self.font())
        font.setBold(True)
        self.setFont(font)
        self.chance: rules.Chance | None = None

    def show_survival(self, survival: rules.Chance | None, hidden: bool) -> None:
        self.chance = None if hidden else survival
        if survival is None:
            self.setText("")
            set_tip(self, "")
            self.setVisible(False)
            return
        if hidden:
            self.setText(self.tr("Chance de s'en sortir : {0}").format(HIDDEN_MARK))
            set_tip(self, self.tr("Valeur connue du meneur seulement (vue joueur)."))
        else:
            percent, explained = words(survival)
            text = self.tr("Chance de s'en sortir : {0}").format(percent)
            if survival.outcomes and survival.outcomes[0][1] != survival.probability:
                first, p = survival.outcomes[0]
                text += self.tr(" (d'abord {0} : {1})").format(first.split(" (")[0], rules.fmt_percent(p))
            self.setText(text)
            set_tip(self, explained)
        set_name(self, self.text())
        self.setVisible(True)


class OddsPanel(QGroupBox):
    """« Chances »: every roll the rules can ask of the sheet now, with its percentage and explanation.

    The rolls the rules make on their own (as time passes, when something happens) have no button of
    their own: this list is where they are seen before they are rolled.
    """

    def __init__(self, vm: SheetViewModel, parent: QWidget | None = None) -> None:
        super().__init__(self.tr("Chances"), parent)
        self.vm = vm
        self.setObjectName("oddsPanel")
        self.grid = QGridLayout(self)
        self.grid.setVerticalSpacing(2)
        self.grid.setColumnStretch(0, 1)
        self.survival = SurvivalLabel()
        self.grid.addWidget(self.survival, 0, 0, 1, 2)
        self.rows: list[tuple[QLabel, ChanceLabel]] = []
        self.refresh()
        vm.changed.connect(self._on_changed)

    def refresh(self) -> None:
        # The rows are made, filled, shown and hidden with the panel's layout disabled; it places them once,
        # with the column, on the layout request their changes posted (before the paint: Qt posts paints at
        # a lower priority). Each row shown asked the panel's layout, then the column's, to place everything
        # at once, in the panel's old height: a hit that brought Sévérité's Défis of six wounds laid out the
        # middle column a dozen times inside the edit (issue 15).
        self.grid.setEnabled(False)
        try:
            self._fill()
        finally:
            self.grid.setEnabled(True)

    def _fill(self) -> None:
        vm = self.vm
        found = vm.odds
        self.survival.show_survival(found.survival, hides_story(vm))
        chances = list(found.rolls)
        while len(self.rows) < len(chances):
            label = QLabel()
            label.setWordWrap(True)
            label.setTextFormat(Qt.TextFormat.PlainText)
            value = ChanceLabel(f"odds_row_{len(self.rows)}")
            at = len(self.rows) + 1
            self.grid.addWidget(label, at, 0)
            self.grid.addWidget(value, at, 1)
            self.rows.append((label, value))
        for i, (label, value) in enumerate(self.rows):
            if i < len(chances):
                item = chances[i]
                label.setText(item.label + self._when(item))
                set_tip(label, words(item)[1])
                value.show_chances([item])
                label.setVisible(True)
                value.setVisible(True)
            else:
                label.setVisible(False)
                value.setVisible(False)
                value.show_chances([])
        self.setVisible(bool(chances) or found.survival is not None)

    def chance_of(self, roll_id: str, subject: int | None = None) -> str:
        """The percentage shown for ``roll_id`` ("" when not shown): for tests and accessibility."""
        for _label, value in self.rows:
            if value.isVisibleTo(self) and value.chances and value.chances[0].id == roll_id:
                if subject is None or value.chances[0].subject == subject:
                    return value.text()
        return ""

    def _when(self, item: rules.Chance) -> str:
        if item.trigger == "time":
            return self.tr(" — quand le temps passe")
        if item.trigger == "event":
            return self.tr(" — s'il le faut")
        return ""

    def _on_changed(self, changes: Changes) -> None:
        if changes.everything or changes.fields or changes.derived:
            self.refresh()


class LiveChance:
    """Keeps a ``ChanceLabel`` up to date with the rolls an action would make as its values change.

    ``build`` returns the action from the current values (None while they are incomplete); the label
    shows ``rules.action_odds`` of it on the view-model's current sheet.
    """

    def __init__(self, vm: SheetViewModel, label: ChanceLabel, build: Callable[[], Any]) -> None:
        self.vm = vm
        self.label = label
        self.build = build

    def update(self, *_args: object) -> None:
        try:
            action = self.build()
        except Exception:  # incomplete or invalid values: no odds yet
            action = None
        self.label.show_chances(self.vm.action_odds(action) if action is not None else ())


__all__ = ["ChanceLabel", "LiveChance", "OddsPanel", "SurvivalLabel", "hides_story", "tooltip"]
