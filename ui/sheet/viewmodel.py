"""The view-model of one open sheet: the current sheet, its undo stack, its journal, what changed.

Every change goes through the ``rules`` facade (``rules.apply``) and a ``QUndoStack``: an undo command
swaps whole states (the sheet is immutable, so undo is « put the previous sheet back »), and touches
only this model, never a widget (orange-canvas-core ``document/commands.py``). After each swap the
view-model tells the views *what* changed (``Changes``: the stored fields and the derived values that
differ), so each panel refreshes only its own part (Anki's ``OpChanges``).
"""

from __future__ import annotations

import logging
import random
import weakref
from collections.abc import Iterable, Mapping
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

import rules
from ui.common import house_rules
from ui.common.texts import EVENT_NOTICES, GRAVE_EVENTS, fmt_value, tr_const
from ui.common.titles import MAX_ENTRY as MAX_ENTRY  # the bound of a journal entry, kept here for readers
from ui.common.titles import action_title, journal_entry

log = logging.getLogger(__name__)

HIDDEN_MARK = "?"

# How a record's ``__init__`` sets a field (``rules.Record`` refuses ``setattr``).
_set = object.__setattr__


class Changes(rules.Record):
    """What one state swap changed: stored field names, derived value names, the journal."""

    __slots__ = ("fields", "derived", "journal", "everything")  # noqa: RUF023  (the fields, in order)
    fields: frozenset[str]
    derived: frozenset[str]
    journal: bool
    # The whole view must refresh (first display, player/GM view toggled).
    everything: bool

    def __init__(
        self,
        fields: frozenset[str] = frozenset(),
        derived: frozenset[str] = frozenset(),
        journal: bool = False,
        everything: bool = False,
    ) -> None:
        _set(self, "fields", fields)
        _set(self, "derived", derived)
        _set(self, "journal", journal)
        _set(self, "everything", everything)

    def touches(self, fields: Iterable[str] = (), derived: Iterable[str] = ()) -> bool:
        if self.everything:
            return True
        return not self.fields.isdisjoint(fields) or not self.derived.isdisjoint(derived)

    def touches_prefix(self, prefix: str) -> bool:
        return self.everything or any(n.startswith(prefix) for n in self.derived | self.fields)


class State(rules.Record):
    """What an undo step puts back: the sheet, the journal that goes with it, and the house rules it
    plays by (a ``rules.HouseRules``; ``None``: the base rules) so that changing rules is undoable."""

    __slots__ = ("sheet", "journal", "house")  # noqa: RUF023  (the fields, in order)
    sheet: Any
    journal: tuple[str, ...]
    house: Any

    def __init__(self, sheet: Any, journal: tuple[str, ...] = (), house: Any = None) -> None:
        _set(self, "sheet", sheet)
        _set(self, "journal", journal)
        _set(self, "house", house)


class SwapState(QUndoCommand):
    """Undo command: swap the view-model's state (model only; views follow its signals)."""

    def __init__(self, model: SheetViewModel, before: State, after: State, text: str) -> None:
        super().__init__(text)
        # A weak reference: the view-model owns the stack that owns this command, and a strong one
        # would make a cycle through Qt wrappers that Python's collector frees in a crashing order.
        self._model = weakref.ref(model)
        self._before = before
        self._after = after

    def redo(self) -> None:
        model = self._model()
        if model is not None:
            model._install(self._after)

    def undo(self) -> None:
        model = self._model()
        if model is not None:
            model._install(self._before)


class SheetViewModel(QObject):
    """One open sheet. Widgets read ``sheet`` / ``derived`` and send actions to ``apply`` / ``edit``."""

    changed = Signal(object)  # Changes
    refused = Signal(str)  # a French message: the action was refused, nothing changed
    notified = Signal(str, bool)  # a French notice from the outcome's events; True when grave
    rolled = Signal(str)  # the dice of the last action, for the quick entry
    applied = Signal(object)  # the rules.Action just applied (the window autosaves after rests and time)
    gmViewChanged = Signal(bool)
    rulesChanged = Signal(object)  # the rules.HouseRules now in force (None: the base rules)

    def __init__(
        self,
        sheet: Any,
        *,
        rng: random.Random | None = None,
        journal: Iterable[str] = (),
        house: Any = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._rng = rng if rng is not None else random.Random()
        self._state = State(sheet, tuple(journal), house)
        table = house.table if house is not None else None
        self._derived = rules.derive(sheet, table)
        self._odds: rules.Odds | None = None
        self._info = rules.describe(sheet.system, table)
        self._gm_view = False
        self._countdowns: tuple[Any, tuple[rules.Countdown, ...]] | None = None
        self.undo_stack = QUndoStack(self)

    # --- reading -------------------------------------------------------------------------------------

    @property
    def sheet(self) -> Any:
        return self._state.sheet

    @property
    def derived(self) -> rules.Derived:
        return self._derived

    @property
    def info(self) -> rules.SystemInfo:
        return self._info

    @property
    def odds(self) -> rules.Odds:
        """Every roll the rules can ask of the sheet now, with its chance (computed once per sheet)."""
        if self._odds is None:
            try:
                self._odds = rules.sheet_odds(self.sheet, self.rules_table)
            except Exception:  # a rule table too big to compute exactly must not take the sheet down
                log.exception("rules.sheet_odds failed")
                self._odds = rules.Odds()
        return self._odds

    def action_odds(self, action: rules.Action) -> tuple[rules.Chance, ...]:
        """The chances of the rolls ``action`` would make on the current sheet (a dialog's live odds)."""
        try:
            return rules.action_odds(self.sheet, action, self.rules_table)
        except Exception:
            log.exception("rules.action_odds failed for %r", action)
            return ()

    @property
    def journal(self) -> tuple[str, ...]:
        """Journal entries, oldest first (each: a title line, then what happened, then the dice)."""
        return self._state.journal

    @property
    def rng(self) -> random.Random:
        return self._rng

    @property
    def house(self) -> Any:
        """The house rules the sheet plays by (a ``rules.HouseRules``), ``None`` for the base rules."""
        return self._state.house

    @property
    def rules_table(self) -> Any:
        """The rule table in force: the house rules' table, ``None`` for the shipped one."""
        house = self._state.house
        return house.table if house is not None else None

    @property
    def gm_view(self) -> bool:
        return self._gm_view

    def countdowns(self) -> tuple[rules.Countdown, ...]:
        """What counts down on the sheet (states put for a while, the system's own waits)."""
        if self._countdowns is None or self._countdowns[0] is not self.sheet:
            self._countdowns = (self.sheet, rules.countdowns(self.sheet))
        return self._countdowns[1]

    def clock_text(self) -> str:
        """The sheet's clock, as the journal dates its entries (« jour 1, 08:00:00 »)."""
        return rules.format_clock(int(getattr(self.sheet, "clock", 0) or 0))

    def has(self, feature: str) -> bool:
        return feature in self._info.features

    def supports(self, action_type: type[rules.Action]) -> bool:
        return action_type in self._info.actions

    def action_named(self, name: str) -> type[rules.Action] | None:
        """This sheet's system's action type called ``name`` (« DeathSave »), or None if its rules have
        none: asking ``rules`` for another system's name would load that system's rules."""
        return next((t for t in self._info.actions if t.__name__ == name), None)

    def passes_time(self, action: rules.Action) -> bool:
        """Whether ``action`` is a rest (common or the system's own, e.g. a full day of rest) or lets time
        pass: the moments after which the window autosaves at once (issue 7)."""
        rests = tuple(action_type for action_type, _label in self._info.rests)
        return isinstance(action, (rules.ShortRest, rules.LongRest, rules.AdvanceTime, *rests))

    def is_hidden(self, name: str) -> bool:
        """Whether ``name`` is masked: the rules hide it from the player and this is the player view."""
        return not self._gm_view and name in self._derived.hidden

    def value(self, name: str, default: Any = None) -> Any:
        """A derived value (``default`` if the system has no such value)."""
        explained = self._derived.get(name)
        return default if explained is None else explained.value

    def shown(self, name: str) -> str:
        """A derived value as the current view shows it ("?" when hidden from the player)."""
        if self.is_hidden(name):
            return HIDDEN_MARK
        explained = self._derived.get(name)
        return "" if explained is None else fmt_value(explained.value)

    def explain(self, name: str) -> str:
        """The tooltip of a derived number: how it was computed (or why it is hidden)."""
        if self.is_hidden(name):
            return self.tr("Valeur connue du meneur seulement (vue joueur).")
        explained = self._derived.get(name)
        return "" if explained is None else explained.text

    def state_label(self) -> tuple[str, str]:
        """French label and badge colour of the current health state."""
        if self.is_hidden("state"):
            return HIDDEN_MARK, "#616161"
        info = self._info.state(self._derived.state)
        return info.label, info.colour

    def field_label(self, name: str) -> str:
        for info in self._info.fields:
            if info.name == name:
                return info.label
        pools = dict(self._info.extra.get("pools", ()))
        if name in pools:
            label = str(pools[name])
            return label[:1].upper() + label[1:]
        label = rules.field_label(self.sheet.system, name, self.rules_table)
        return label[:1].upper() + label[1:]

    def title_of(self, action: rules.Action) -> str:
        """The action's French title with the system's labels in place of ids (journal, Édition menu)."""
        return action_title(self._info, action)

    # --- view mode -----------------------------------------------------------------------------------

    def set_gm_view(self, on: bool) -> None:
        if on == self._gm_view:
            return
        self._gm_view = on
        self.gmViewChanged.emit(on)
        self.changed.emit(Changes(everything=True))

    # --- changing ------------------------------------------------------------------------------------

    def apply(self, action: rules.Action, *, text: str | None = None, preface: Iterable[str] = ()) -> Any:
        """Apply ``action`` through the facade and push it on the undo stack.

        Returns the ``rules.Outcome``, or ``None`` when the rules refused (``refused`` is emitted with
        the French reason; nothing changed). ``preface`` lines go to the journal before the rules'
        lines (dice the interface rolled itself, e.g. before asking keep or replace).
        """
        before = self._state
        try:
            outcome = rules.apply(before.sheet, action, self._rng, rules_table=self.rules_table)
        except rules.Refused as exc:
            self.refuse(exc)
            return None
        except Exception:  # a bug in a rule must not take the player's sheet with it
            log.exception("rules.apply failed for %r", action)
            self.refused.emit(self.tr("Erreur interne des règles : l'action n'a pas été appliquée (rien n'a changé)."))
            return None
        title = text or self.title_of(action)
        rolled = [r for r in outcome.rolls if not r.given]
        if outcome.sheet == before.sheet and not outcome.rolls and not preface:
            # Issue 10 item 10: an action that changes nothing and rolls nothing adds nothing: no
            # journal entry, no undo step; the message says so, with what the rules said. A test whose
            # die the player gives (rolled at the table) changes nothing either, but its result is news.
            said = [line for line in self.visible_lines(outcome.log) if line]
            detail = " ".join(said[:2])
            self.notified.emit(
                self.tr("Rien n'a changé ({0}).").format(title) + (" " + detail if detail else ""), False
            )
            return outcome
        entry = self._journal_entry(title, [*preface, *outcome.log], outcome.rolls, outcome.sheet)
        after = State(outcome.sheet, (*before.journal, entry), before.house)
        self.undo_stack.push(SwapState(self, before, after, title))
        dice = "; ".join(r.detail for r in rolled)
        if dice:
            self.rolled.emit(dice)
        self._notify(outcome.events)
        self.applied.emit(action)
        return outcome

    def refuse(self, exc: rules.Refused) -> None:
        """Say why the rules refused (a ``SheetError`` lists its French lines under its title)."""
        if isinstance(exc, rules.SheetError):
            self.refused.emit("\n".join([exc.reason.split(" : ")[0] + " :", *exc.lines]))
        else:
            self.refused.emit(exc.reason)

    def edit(self, changes: Mapping[str, Any]) -> bool:
        """Edit stored fields (header, characteristics, maxima…) through ``rules.Edit``.

        A refused value emits ``refused`` with the French lines of the facade and changes nothing.
        """
        if all(getattr(self.sheet, k, object()) == v for k, v in changes.items()):
            return True
        labels = ", ".join(self.field_label(k) for k in changes)
        text = self.tr("Modifier {0}").format(labels)
        return self.apply(rules.Edit(changes=dict(changes)), text=text) is not None

    def replace_sheet(self, sheet: Any, journal: Iterable[str] | None = None, house: Any = None) -> None:
        """Start over from ``sheet`` (a file reloaded, with the house rules it holds): no undo across it."""
        self.undo_stack.clear()
        self._install(State(sheet, self.journal if journal is None else tuple(journal), house))

    def set_house_rules(self, house: Any) -> bool:
        """Play by ``house`` (a ``rules.HouseRules``; ``None``: back to the base rules), as one undoable
        step with its journal entry; the sheet is recomputed at once. A sheet the new rules do not allow
        (a state or a wound type they do not know…) is refused in French and nothing changes."""
        before = self._state
        if house == before.house:
            return True
        misfit = house_rules.misfit_lines(house, before.sheet)
        if misfit:
            who = f"« {before.sheet.name} »" if before.sheet.name else self.tr("la fiche")
            self.refused.emit(house_rules.misfit_message(who, misfit))
            return False
        title, lines = house_rules.change_entry(before.house, house)
        after = State(before.sheet, (*before.journal, self._journal_entry(title, lines, (), before.sheet)), house)
        self.undo_stack.push(SwapState(self, before, after, title))
        return True

    # --- internals -----------------------------------------------------------------------------------

    def _journal_entry(self, title: str, lines: list[str], rolls: Iterable[rules.Roll], sheet: Any = None) -> str:
        # Dice not already spelled out by the rules' own lines are listed, so every roll is visible; a
        # file keeps entries of bounded length; each entry is dated with the sheet's clock after the
        # action (issue 10 item 24).
        clock = int(getattr(sheet, "clock", 0) or 0) if sheet is not None else None
        return journal_entry(title, lines, rolls, clock)

    def _notify(self, events: Iterable[str]) -> None:
        """Notices of the outcome's events, as the final state of the action has them (issue 10 item 8):
        a stabilisation a bleed broke in the same step, a fall or a faint ending in death, is not told."""
        name = self.sheet.name or self.tr("Le personnage")
        shown = [e for e in events if e in EVENT_NOTICES]
        state = self._derived.state
        if state == "mort":
            shown = [e for e in shown if e not in ("stabilised", "fell", "unconscious", "heroic_survival")]
        elif "died" in shown:
            shown.remove("died")  # the rules said « died » but the sheet is not dead (a bug elsewhere)
        if "stabilised" in shown and (state == "mourant" or getattr(self.sheet, "stabilised", None) is False):
            shown.remove("stabilised")
        for event in shown:
            self.notified.emit(tr_const(EVENT_NOTICES[event]).format(name=name), event in GRAVE_EVENTS)

    # --- what the player may read ---------------------------------------------------------------------

    def visible_lines(self, lines: Iterable[str]) -> list[str]:
        """Journal lines as this view shows them: the GM's lines (``rules.SECRET_MARK``) only in the GM
        view, where they keep their mark."""
        if self._gm_view:
            return list(lines)
        return [line for line in lines if not line.startswith(rules.SECRET_MARK)]

    def visible_entry(self, entry: str) -> str:
        """A journal entry as this view shows it (``""`` if nothing of it is for the player)."""
        if self._gm_view or rules.SECRET_MARK not in entry:
            return entry
        return "\n".join(self.visible_lines(entry.split("\n")))

    def visible_journal(self) -> tuple[str, ...]:
        """The journal as this view shows it, oldest first (empty entries left out)."""
        if self._gm_view:
            return self.journal
        return tuple(e for e in (self.visible_entry(entry) for entry in self.journal) if e)

    def _install(self, state: State) -> None:
        old_state, old_derived = self._state, self._derived
        self._state = state
        new_rules = state.house != old_state.house
        if state.sheet is not old_state.sheet or new_rules:
            self._derived = rules.derive(state.sheet, self.rules_table)
            self._odds = None
        if new_rules:
            self._info = rules.describe(state.sheet.system, self.rules_table)
            self.rulesChanged.emit(state.house)
        changes = Changes(
            fields=_changed_fields(old_state.sheet, state.sheet),
            derived=_changed_derived(old_derived, self._derived),
            journal=state.journal != old_state.journal,
            everything=new_rules,
        )
        self.changed.emit(changes)


def _changed_fields(old: Any, new: Any) -> frozenset[str]:
    if old is new:
        return frozenset()
    names = type(new).model_fields
    return frozenset(n for n in names if getattr(old, n, None) != getattr(new, n))


def _changed_derived(old: rules.Derived, new: rules.Derived) -> frozenset[str]:
    if old is new:
        return frozenset()
    names = set(old) | set(new)
    return frozenset(n for n in names if old.get(n) != new.get(n))
