"""The view-model of one open GM table: its creatures, the fight's clock, one undo stack, the journal.

Every change to a creature goes through ``rules.apply``, exactly as the sheet's view-model does
(``ui/sheet/viewmodel.py``); the table adds only what is its own (initiative, note, order, round).
Each user action is one ``QUndoCommand`` that swaps whole ``TableState``s (a bulk damage on forty
wolves is one undo step), touches only this view-model, and says what changed: the Qt model turns
that into ``dataChanged`` for the rows that changed (never a reset), the other views into their own
small refresh (Anki's ``OpChanges``).
"""

from __future__ import annotations

import contextlib
import functools
import gc
import logging
import random
import re
import weakref
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, ParamSpec, TypeVar

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

import rules
from rules import table as rtable
from ui.common import house_rules
from ui.common.texts import fmt_number
from ui.common.titles import action_title, journal_entry, sheet_clock
from ui.table.state import Creature, TableState

log = logging.getLogger(__name__)

MAX_CREATURES = 10_000
MAX_BATCH = 100
MAX_NOTE = 2000
MAX_INITIATIVE = 10_000
# Lines of what happened by chance that a round's report shows before pointing at the journal.
MAX_DETAILS = 12
# Creatures named one per line in one entry of the table's journal (the rest: in their own journals).
TABLE_ENTRY_LINES = 40
NAMES_LISTED = 60

# Bulk action kinds, in the order the dialog offers them.
BULK_KINDS = ("damage", "nonlethal", "heal", "temporary", "condition_on", "condition_off")


_P = ParamSpec("_P")
_R = TypeVar("_R")


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """The cyclic garbage collector held off while one action changes many creatures.

    A blow to a thousand creatures makes tens of thousands of objects that all live on (the new sheets,
    their journals): collected as they come, the young generations would be walked again and again and
    a full collection would come every other blow. Held off, one young collection follows the action.
    Nothing is lost: whatever is garbage is collected then.
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _collected_once(method: Callable[_P, _R]) -> Callable[_P, _R]:
    """``method`` runs under ``gc_paused``."""

    @functools.wraps(method)
    def wrapper(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        with gc_paused():
            return method(*args, **kwargs)

    return wrapper


@dataclass(frozen=True, slots=True)
class TableChanges:
    """What one state swap changed: ids whose row changed (``rows``), whose sheet changed (``sheets``),
    rows added or removed, the round and turn, the table's journal, or everything (the view mode)."""

    rows: frozenset[int] = frozenset()
    sheets: frozenset[int] = frozenset()
    added: frozenset[int] = frozenset()
    removed: frozenset[int] = frozenset()
    turn: bool = False
    journal: bool = False
    title: bool = False
    everything: bool = False


@dataclass(frozen=True, slots=True)
class Result:
    """What one action did to one creature (or why it did not)."""

    id: int
    name: str
    applied: bool
    reason: str = ""  # refused: the rules' French reason; skipped: why
    skipped: bool = False
    change: rtable.StateChange = field(default_factory=rtable.StateChange)


@dataclass(frozen=True, slots=True)
class Report:
    """The outcome of one action on several creatures: who fell, who is dying, who died."""

    title: str
    results: tuple[Result, ...]
    preface: tuple[str, ...] = ()
    # Said instead of « title : N créature(s) » (a turn that starts), and lines shown under it.
    headline: str = ""
    details: tuple[str, ...] = ()
    # Who fell, is dying, died, rose; who was changed, refused, skipped: sorted out once, in one pass
    # over the results (a blow to a thousand creatures is read several times to be told).
    _sorted: dict[str, list[Any]] | None = field(default=None, compare=False, repr=False)

    def _sort(self) -> dict[str, list[Any]]:
        found = self._sorted
        if found is None:
            found = {key: [] for key in ("fell", "dying", "died", "rose", "applied", "refused", "skipped")}
            for r in self.results:
                if r.applied:
                    found["applied"].append(r)
                    change = r.change
                    if change:
                        for what in ("fell", "dying", "died", "rose"):
                            if getattr(change, what):
                                found[what].append(r.name)
                elif r.skipped:
                    found["skipped"].append(r)
                else:
                    found["refused"].append(r)
            object.__setattr__(self, "_sorted", found)
        return found

    def names(self, what: str) -> list[str]:
        return list(self._sort()[what])

    @property
    def applied(self) -> list[Result]:
        return list(self._sort()["applied"])

    @property
    def refused(self) -> list[Result]:
        return list(self._sort()["refused"])

    @property
    def skipped(self) -> list[Result]:
        return list(self._sort()["skipped"])

    def grave(self) -> bool:
        return bool(self.names("fell") or self.names("dying") or self.names("died"))


def _tr(text: str) -> str:
    from PySide6.QtCore import QCoreApplication

    return QCoreApplication.translate("TableViewModel", text)


def report_text(report: Report, limit: int = 12) -> str:
    """The French lines of a report: what was done to how many, then who fell, is dying, died."""

    def listed(names: Sequence[str]) -> str:
        return _listed(names, limit)

    if report.headline:
        lines = [report.headline]
    elif report.applied:
        lines = [_tr("{0} : {1} créature(s).").format(report.title, len(report.applied))]
    else:
        lines = [_tr("{0} : aucune créature.").format(report.title)]
    lines.extend(report.preface)
    lines.extend(report.details)
    for what, label in (
        ("fell", _tr("Tombés : {0}.")),
        ("dying", _tr("Mourants : {0}.")),
        ("died", _tr("Morts : {0}.")),
        ("rose", _tr("Relevés : {0}.")),
    ):
        names = report.names(what)
        if names:
            lines.append(label.format(listed(names)))
    # The refusals grouped by reason, each reason said once (a heal refused to 250 creatures for the same
    # reason was that reason 12 times: 2,000 characters laid out in the message bar at every blow).
    by_reason: dict[str, list[str]] = {}
    for refusal in report.refused:
        by_reason.setdefault(refusal.reason, []).append(refusal.name)
    groups = list(by_reason.items())
    for reason, names in groups[:limit]:
        lines.append(_tr("Refusé pour {0} : {1}").format(listed(names), reason))
    if len(groups) > limit:
        rest = sum(len(names) for _reason, names in groups[limit:])
        if rest == 1:
            lines.append(_tr("Refusé aussi pour {0} autre (raisons différentes).").format(rest))
        else:
            lines.append(_tr("Refusé aussi pour {0} autres (raisons différentes).").format(rest))
    skipped = report.skipped
    if skipped:
        lines.append(_tr("Non concernés : {0}.").format(listed([r.name for r in skipped])))
    return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class BulkRequest:
    """One bulk action from the dialog: its kind (``BULK_KINDS``), an amount or dice expression rolled
    once for everyone (``once``) or once per creature, a factor per creature id (default « full »), the
    condition id for the condition kinds, and whether new temporary points replace the current ones."""

    kind: str
    amount: str = ""
    once: bool = True
    factors: dict[int, str] = field(default_factory=dict)
    condition: str = ""
    replace_temporary: bool = False


class SwapTable(QUndoCommand):
    """Undo command: put a whole table state back (model only; views follow its signals)."""

    def __init__(self, vm: TableViewModel, before: TableState, after: TableState, text: str) -> None:
        super().__init__(text)
        # Weak: the view-model owns the stack that owns this command (see ui/sheet/viewmodel.py).
        self._vm = weakref.ref(vm)
        self._before = before
        self._after = after

    def redo(self) -> None:
        vm = self._vm()
        if vm is not None:
            vm._install(self._after)

    def undo(self) -> None:
        vm = self._vm()
        if vm is not None:
            vm._install(self._before)


_NUMBERED = re.compile(r"^(.*?)\s+(\d+)$")


def base_name(name: str) -> str:
    """« Loup 3 » → « Loup » (the name a numbered series shares)."""
    found = _NUMBERED.match(name.strip())
    return found.group(1) if found else name.strip()


def state_from(
    sheets: Sequence[Any],
    journals: Sequence[Sequence[str]] = (),
    *,
    initiatives: Sequence[int | None] = (),
    notes: Sequence[str] = (),
    title: str = "",
    round_: int = 0,
    turn: int | None = None,
    started: Iterable[int] = (),
    journal: Sequence[str] = (),
) -> TableState:
    """A table state from plain lists (a file's content); ``turn`` and ``started`` are row numbers."""
    creatures = tuple(
        Creature(
            id=i + 1,
            sheet=sheet,
            journal=tuple(journals[i]) if i < len(journals) else (),
            initiative=initiatives[i] if i < len(initiatives) else None,
            note=notes[i] if i < len(notes) else "",
        )
        for i, sheet in enumerate(sheets)
    )
    ids = [c.id for c in creatures]
    return TableState(
        creatures=creatures,
        round=round_,
        turn=ids[turn] if turn is not None and 0 <= turn < len(ids) else None,
        started=frozenset(ids[i] for i in started if 0 <= i < len(ids)),
        journal=tuple(journal),
        title=title,
        next_id=len(creatures) + 1,
    )


class TableViewModel(QObject):
    """One open table. Views read ``state`` and ``summary``; every change is a method here."""

    swapped = Signal(object, object)  # old TableState, new TableState (the Qt model diffs them)
    changed = Signal(object)  # TableChanges
    refused = Signal(str)  # French: nothing changed, and why
    reported = Signal(str, bool)  # French outcome of an action; True when someone fell, is dying or died
    applied = Signal(str)  # kind of what was just done ("time", "rest", "bulk", "turn", …): autosave hooks
    gmViewChanged = Signal(bool)

    def __init__(
        self,
        state: TableState | None = None,
        *,
        rng: random.Random | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._rng = rng if rng is not None else random.Random()
        self._state = state if state is not None else TableState()
        self._summaries: dict[int, tuple[Any, rules.Summary]] = {}
        self._states: dict[int, tuple[Any, str]] = {}
        self._survival: dict[int, tuple[Any, rules.Chance | None]] = {}
        self._gm_view = True
        self.undo_stack = QUndoStack(self)

    # --- reading ----------------------------------------------------------------------------------

    @property
    def state(self) -> TableState:
        return self._state

    @property
    def creatures(self) -> tuple[Creature, ...]:
        return self._state.creatures

    @property
    def rng(self) -> random.Random:
        return self._rng

    @property
    def gm_view(self) -> bool:
        return self._gm_view

    def creature(self, creature_id: int) -> Creature | None:
        return self._state.get(creature_id)

    def summary(self, creature: Creature) -> rules.Summary:
        """The creature's row as the rules describe it (computed once per sheet, then kept)."""
        cached = self._summaries.get(creature.id)
        if cached is not None and cached[0] is creature.sheet:
            return cached[1]
        table = self.rules_table(creature.sheet.system)
        summary = rules.summarise(creature.sheet, None if table is None else rules.derive(creature.sheet, table))
        self._summaries[creature.id] = (creature.sheet, summary)
        return summary

    def survival(self, creature: Creature) -> rules.Chance | None:
        """A dying creature's chance of pulling through, from the rules (kept per sheet; None: not dying)."""
        cached = self._survival.get(creature.id)
        if cached is not None and cached[0] is creature.sheet:
            return cached[1]
        try:
            chance = rules.survival_odds(creature.sheet, self.rules_table(creature.sheet.system))
        except Exception:  # a house table too big to compute exactly: no chance shown, the row stays
            log.exception("rules.survival_odds failed")
            chance = None
        self._survival[creature.id] = (creature.sheet, chance)
        return chance

    def timed_odds(self, creature: Creature) -> tuple[rules.Chance, ...]:
        """The rolls the rules make on their own as the creature's turns pass, with their chances (on hover)."""
        try:
            return rules.sheet_odds(creature.sheet, self.rules_table(creature.sheet.system)).by_trigger("time")
        except Exception:
            log.exception("rules.sheet_odds failed")
            return ()

    def state_of(self, creature: Creature) -> str:
        """The creature's health state id, kept per sheet (the rules' own shortcut, not a full summary)."""
        cached = self._summaries.get(creature.id)
        if cached is not None and cached[0] is creature.sheet:
            return cached[1].state
        known = self._states.get(creature.id)
        if known is not None and known[0] is creature.sheet:
            return known[1]
        table = self.rules_table(creature.sheet.system)
        state = rtable.health_state(creature.sheet) if table is None else rules.derive(creature.sheet, table).state
        self._states[creature.id] = (creature.sheet, state)
        return state

    def category_of(self, creature: Creature) -> str:
        return rtable.category(self.state_of(creature))

    def info(self, system_id: str) -> rules.SystemInfo:
        table = self.rules_table(system_id)
        return _describe(system_id) if table is None else rules.describe(system_id, table)

    def house_of(self, system_id: str) -> Any:
        """The house rules ``system_id``'s creatures play by here (``None``: the base rules)."""
        return self._state.house_of(system_id)

    def rules_table(self, system_id: str) -> Any:
        """The rule table in force for ``system_id`` (``None``: the shipped one)."""
        house = self._state.house_of(system_id)
        return house.table if house is not None else None

    def set_house_rules(self, system_id: str, house: Any, on_refused: Callable[[str], None] | None = None) -> bool:
        """The creatures of ``system_id`` play by ``house`` (``None``: back to the base rules): one undo
        step, in the table's journal and in each of their journals; every row is recomputed at once. If
        a creature does not fit the new rules, the change is refused in French and nothing changes."""
        state = self._state
        old = state.house_of(system_id)
        if house == old:
            return True
        refuse = on_refused or self.refused.emit
        if house is not None and house.system != system_id:
            refuse(_tr("Ces règles maison sont pour un autre système."))
            return False
        for creature in state.creatures:
            if creature.sheet.system != system_id:
                continue
            misfit = house_rules.misfit_lines(house, creature.sheet)
            if misfit:
                who = f"« {creature.name} »" if creature.name else _tr("une créature")
                refuse(house_rules.misfit_message(who, misfit))
                return False
        label = rules.system(system_id).label
        title, lines = house_rules.change_entry(old, house, label)
        updated = [
            c.with_(journal=(*c.journal, journal_entry(title, lines, clock=sheet_clock(c.sheet))))
            for c in state.creatures
            if c.sheet.system == system_id
        ]
        others = tuple(h for h in state.house if h.system != system_id)
        new = state.replacing(updated)
        new = new.with_(
            house=others if house is None else (*others, house),
            journal=(*state.journal, self._table_entry(title, lines, new)),
        )
        self._push(new, title)
        return True

    def systems(self, ids: Iterable[int] | None = None) -> list[str]:
        """The systems of ``ids`` (all rows by default), in the app's order."""
        wanted = None if ids is None else set(ids)
        found = {c.sheet.system for c in self.creatures if wanted is None or c.id in wanted}
        return [s for s in rules.SYSTEMS if s in found]

    def turn_order(self, state: TableState | None = None) -> list[int]:
        """Creature ids in turn order: initiative from highest to lowest, no initiative last, ties in
        table order."""
        state = state or self._state
        ranked = sorted(
            enumerate(state.creatures),
            key=lambda pair: (pair[1].initiative is None, -(pair[1].initiative or 0), pair[0]),
        )
        return [c.id for _, c in ranked]

    def is_dead(self, creature: Creature) -> bool:
        return self.category_of(creature) == "dead"

    def turn_text(self) -> str:
        """« Round 2 — tour de Loup 3 », or that no fight is under way."""
        state = self._state
        if state.round == 0:
            return _tr("Pas de combat en cours")
        current = state.get(state.turn) if state.turn is not None else None
        if current is None:
            return _tr("Round {0}").format(state.round)
        return _tr("Round {0} — tour de {1}").format(state.round, current.name or _tr("(sans nom)"))

    # --- view mode --------------------------------------------------------------------------------

    def set_gm_view(self, on: bool) -> None:
        if on == self._gm_view:
            return
        self._gm_view = on
        self.gmViewChanged.emit(on)
        self.changed.emit(TableChanges(everything=True))

    # --- adding and removing creatures ------------------------------------------------------------

    def add_creatures(
        self,
        template: Any,
        count: int = 1,
        *,
        name: str | None = None,
        numbered: bool | None = None,
        maximum: str = "",
        npc: bool | None = None,
        journal: Sequence[str] = (),
        initiative: int | None = None,
        note: str = "",
        after: int | None = None,
        text: str | None = None,
    ) -> list[int]:
        """Add ``count`` creatures from ``template`` (a sheet), named « name 1 » … when ``numbered``
        (default: when more than one), each maximum rolled from ``maximum`` when given (the roll in its
        journal). Inserted after the row of ``after`` (default: at the end). One undo step; the new ids,
        or [] when refused (``refused`` says why)."""
        if not 1 <= count <= MAX_BATCH:
            self.refused.emit(_tr("Nombre de créatures : de 1 à {0} à la fois.").format(MAX_BATCH))
            return []
        state = self._state
        if len(state.creatures) + count > MAX_CREATURES:
            self.refused.emit(_tr("Une table compte au plus {0} créatures.").format(MAX_CREATURES))
            return []
        base = (name if name is not None else template.name).strip()
        numbered = count > 1 if numbered is None else numbered
        if numbered:
            base = base_name(base) or _tr("Créature")
        names = self._numbered_names(base, count) if numbered else [base] * count
        creatures: list[Creature] = []
        next_id = state.next_id
        for new_name in names:
            try:
                sheet = self._prepared(template, new_name, npc)
                lines = [_tr("Ajouté à la table.")]
                rolls: tuple[rules.Roll, ...] = ()
                if maximum.strip():
                    outcome = rtable.with_rolled_maximum(sheet, maximum.strip(), self._rng)
                    sheet, rolls = outcome.sheet, outcome.rolls
                    lines.extend(outcome.log)
            except rules.SheetError as exc:
                self.refused.emit("\n".join([exc.reason.split(" : ")[0] + " :", *exc.lines]))
                return []
            except rules.Refused as exc:
                self.refused.emit(exc.reason)
                return []
            entry = journal_entry(
                _tr("Arrivée : {0}").format(new_name or _tr("(sans nom)")), lines, rolls, sheet_clock(sheet)
            )
            creatures.append(
                Creature(
                    id=next_id, sheet=sheet, journal=(*journal, entry), initiative=initiative, note=note[:MAX_NOTE]
                )
            )
            next_id += 1
        rows = list(state.creatures)
        at = state.row_of(after) + 1 if after is not None and state.row_of(after) >= 0 else len(rows)
        rows[at:at] = creatures
        title = text or (
            _tr("Ajouter {0} × {1}").format(count, base) if count > 1 else _tr("Ajouter {0}").format(names[0])
        )
        table_lines = [c.journal[-1].split("\n", 1)[-1].replace("\n", " ") for c in creatures]
        added = state.with_(creatures=tuple(rows), next_id=next_id)
        new_state = added.with_(
            journal=(
                *state.journal,
                self._table_entry(
                    title, [f"{c.name} : {line}" for c, line in zip(creatures, table_lines, strict=True)], added
                ),
            ),
        )
        self._push(new_state, title)
        self.applied.emit("add")
        return [c.id for c in creatures]

    def _prepared(self, template: Any, name: str, npc: bool | None) -> Any:
        changes: dict[str, Any] = {"name": name}
        if npc is not None:
            changes["is_npc"] = npc
        data = rules.sheet_to_data(template)
        data.update(changes)
        # Checked against the rules its system plays by here (a GM's house rules, issue 18).
        return rules.sheet_from_data(data, self.rules_table(template.system))

    def _numbered_names(self, base: str, count: int) -> list[str]:
        """« base N » for the next ``count`` numbers free after those already at the table."""
        used = 0
        for creature in self.creatures:
            found = _NUMBERED.match(creature.name.strip())
            if found and found.group(1) == base:
                used = max(used, int(found.group(2)))
        return [f"{base} {used + i}" for i in range(1, count + 1)]

    def duplicate(self, ids: Iterable[int]) -> list[int]:
        """A copy of each creature (sheet, initiative, note; a fresh journal), numbered in its series,
        right after the last of them. One undo step."""
        chosen = [c for c in self.creatures if c.id in set(ids)]
        if not chosen:
            return []
        state = self._state
        if len(state.creatures) + len(chosen) > MAX_CREATURES:
            self.refused.emit(_tr("Une table compte au plus {0} créatures.").format(MAX_CREATURES))
            return []
        next_id = state.next_id
        copies: list[Creature] = []
        taken: dict[str, int] = {}
        for creature in chosen:
            base = base_name(creature.name) or _tr("Créature")
            if base not in taken:
                taken[base] = int(self._numbered_names(base, 1)[0].rsplit(" ", 1)[1]) - 1
                # An unnumbered original counts as the first of its series.
                taken[base] = max(taken[base], 1)
            taken[base] += 1
            new_name = f"{base} {taken[base]}"
            edit = rules.Edit(changes={"name": new_name})
            sheet = rules.apply(creature.sheet, edit, rules_table=self.rules_table(creature.sheet.system)).sheet
            entry = journal_entry(
                _tr("Copie de {0}").format(creature.name or _tr("(sans nom)")),
                [_tr("Ajouté à la table.")],
                clock=sheet_clock(sheet),
            )
            copies.append(creature.with_(id=next_id, sheet=sheet, journal=(entry,)))
            next_id += 1
        rows = list(state.creatures)
        at = max(state.row_of(c.id) for c in chosen) + 1
        rows[at:at] = copies
        title = (
            _tr("Dupliquer {0} créature(s)").format(len(copies))
            if len(copies) > 1
            else _tr("Dupliquer {0}").format(chosen[0].name)
        )
        lines = [_tr("{0} → {1}").format(o.name, c.name) for o, c in zip(chosen, copies, strict=True)]
        copied = state.with_(creatures=tuple(rows), next_id=next_id)
        self._push(copied.with_(journal=(*state.journal, self._table_entry(title, lines, copied))), title)
        self.applied.emit("add")
        return [c.id for c in copies]

    def remove(self, ids: Iterable[int]) -> int:
        """Take creatures off the table (undoable); the number removed."""
        wanted = set(ids)
        state = self._state
        gone = [c for c in state.creatures if c.id in wanted]
        if not gone:
            return 0
        rows = tuple(c for c in state.creatures if c.id not in wanted)
        title = (
            _tr("Retirer {0} créature(s)").format(len(gone))
            if len(gone) > 1
            else _tr("Retirer {0}").format(gone[0].name)
        )
        new_state = state.with_(
            creatures=rows, turn=None if state.turn in wanted else state.turn, started=state.started - wanted
        )
        new_state = new_state.with_(
            journal=(*state.journal, self._table_entry(title, [c.name for c in gone], new_state))
        )
        self._push(new_state, title)
        self.applied.emit("remove")
        return len(gone)

    # --- one creature's fields --------------------------------------------------------------------

    def rename(self, creature_id: int, name: str) -> bool:
        creature = self.creature(creature_id)
        if creature is None:
            return False
        name = name.strip()
        if name == creature.name:
            return True
        return (
            self.apply_to(
                creature_id,
                rules.Edit(changes={"name": name}),
                text=_tr("Renommer {0} en {1}").format(creature.name, name),
            )
            is not None
        )

    def set_note(self, creature_id: int, note: str) -> bool:
        creature = self.creature(creature_id)
        if creature is None:
            return False
        if len(note) > MAX_NOTE:
            self.refused.emit(_tr("Note trop longue (au plus {0} caractères).").format(MAX_NOTE))
            return False
        if note == creature.note:
            return True
        title = _tr("Note de {0}").format(creature.name)
        state = self._state
        self._push(state.replacing([creature.with_(note=note)]), title)
        return True

    def set_initiative(self, creature_id: int, value: int | None) -> bool:
        creature = self.creature(creature_id)
        if creature is None:
            return False
        if value is not None and not -MAX_INITIATIVE <= value <= MAX_INITIATIVE:
            self.refused.emit(_tr("Initiative : de −{0} à {0}.").format(MAX_INITIATIVE))
            return False
        if value == creature.initiative:
            return True
        title = _tr("Initiative de {0} : {1}").format(creature.name, "—" if value is None else fmt_number(value))
        self._push(self._state.replacing([creature.with_(initiative=value)]), title)
        return True

    def roll_initiative(self, ids: Iterable[int], expression: str) -> bool:
        """Roll ``expression`` for each creature of ``ids`` (the dice in its journal and the table's)."""
        chosen = [c for c in self.creatures if c.id in set(ids)]
        if not chosen:
            self.refused.emit(_tr("Sélectionnez les créatures dont l'initiative est à lancer."))
            return False
        updated: list[Creature] = []
        lines: list[str] = []
        for creature in chosen:
            try:
                roll = rules.roll_expression(expression, self._rng)
            except rules.Refused as exc:
                self.refused.emit(exc.reason)
                return False
            value = max(-MAX_INITIATIVE, min(MAX_INITIATIVE, roll.total))
            line = _tr("Initiative : {0}.").format(roll.detail)
            entry = journal_entry(
                _tr("Initiative {0}").format(fmt_number(value)), [line], clock=sheet_clock(creature.sheet)
            )
            updated.append(creature.with_(initiative=value, journal=(*creature.journal, entry)))
            lines.append(f"{creature.name} : {roll.detail}")
        title = _tr("Lancer l'initiative ({0})").format(expression.strip())
        state = self._state.replacing(updated)
        self._push(state.with_(journal=(*state.journal, self._table_entry(title, lines, state))), title)
        return True

    # --- rules actions ----------------------------------------------------------------------------

    def apply_to(
        self,
        creature_id: int,
        action: rules.Action,
        *,
        text: str | None = None,
        preface: Iterable[str] = (),
        on_refused: Callable[[str], None] | None = None,
    ) -> rules.Outcome | None:
        """One action on one creature (its sheet tab, a rename): one undo step; the outcome, or None
        when refused (``on_refused``, else ``refused``, says why)."""
        creature = self.creature(creature_id)
        if creature is None:
            return None
        title = text or action_title(self.info(creature.sheet.system), action)
        run = self._run(self._state, [creature_id], lambda _c: action, entry_title=title, preface=tuple(preface))
        run_outcome = run.outcomes[0] if run.outcomes else None
        if run_outcome is None:
            reason = run.refused[0].reason if run.refused else ""
            if reason:
                (on_refused or self.refused.emit)(reason)
            return None
        self._commit(run, title, kind="sheet", announce=False)
        return run_outcome

    @_collected_once
    def bulk(self, ids: Sequence[int], request: BulkRequest) -> Report | None:
        """The bulk dialog's action on ``ids``: each creature's own rules apply; one undo step."""
        wanted = set(ids)
        chosen = [c for c in self.creatures if c.id in wanted]
        if not chosen:
            self.refused.emit(_tr("Sélectionnez d'abord les créatures concernées (Ctrl+A : toutes)."))
            return None
        kind = request.kind
        if kind not in BULK_KINDS:
            raise ValueError(f"unknown bulk kind {kind!r}")
        if kind in ("condition_on", "condition_off"):
            return self._bulk_condition(chosen, request)
        text = request.amount.strip().replace("−", "-")
        if not text:
            self.refused.emit(_tr("Entrez un montant : un nombre (7) ou des dés (2d6+3)."))
            return None
        action_type: type[rules.Action] = {
            "damage": rules.Damage,
            "nonlethal": rules.Damage,
            "heal": rules.Heal,
            "temporary": rules.GainTemporary,
        }[kind]
        fields: dict[str, Any] = {"amount": 0}
        if kind == "nonlethal":
            fields["nonlethal"] = True
        if kind == "temporary":
            fields["replace"] = request.replace_temporary
        number = _parse_number(text)
        rolled: dict[int, rules.Roll] = {}
        shared: rules.Roll | None = None
        try:
            base = rules.build_action(action_type, **fields)
            # The rules' own check of what was typed (bounds, decimals refused in French).
            rules.build_action(action_type, **{**fields, "amount": text})
            if number is not None:
                shared = rules.Roll(text, number, text, True)
            elif request.once:
                shared = rtable.roll_once(text, self._rng)
            else:
                for creature in chosen:
                    if request.factors.get(creature.id, "full") != "none":
                        rolled[creature.id] = rtable.roll_once(text, self._rng)
        except rules.SheetError as exc:
            self.refused.emit("\n".join(exc.lines) or exc.reason)
            return None
        except rules.Refused as exc:
            self.refused.emit(exc.reason)
            return None

        scaled: dict[tuple[str, str, int], rules.Action | None] = {}

        def make(creature: Creature) -> rules.Action | None:
            roll = shared or rolled.get(creature.id)
            if roll is None:
                return None
            key = (request.factors.get(creature.id, "full"), creature.sheet.system, roll.total)
            if key not in scaled:
                scaled[key] = rtable.scaled(base, key[0], key[1], total=key[2])
            return scaled[key]

        def preface_of(creature: Creature) -> list[str]:
            lines = []
            if creature.id in rolled:
                lines.append(_tr("Lancé pour {0} : {1}.").format(creature.name, rolled[creature.id].detail))
            factor = request.factors.get(creature.id, "full")
            if factor != "full":
                lines.append(_tr("Facteur : {0}.").format(_tr(rtable.FACTOR_LABELS[factor])))
            return lines

        names = {
            "damage": _tr("Dégâts"),
            "nonlethal": _tr("Dégâts non létaux"),
            "heal": _tr("Soins"),
            "temporary": _tr("Points temporaires"),
        }
        if shared is not None and not shared.given:
            title = f"{names[kind]} {text} = {shared.total}"
            preface = [_tr("Lancé une fois pour tous : {0}.").format(shared.detail)]
        elif shared is None:
            title = _tr("{0} {1} (lancés pour chacun)").format(names[kind], text)
            preface = []
        else:
            title = f"{names[kind]} {text}"
            preface = []
        run = self._run(
            self._state,
            [c.id for c in chosen],
            make,
            shared=preface,
            per_creature=preface_of,
            skipped_reason=_tr("facteur « aucun »"),
        )
        return self._commit(run, title, kind="bulk", preface=preface)

    def _bulk_condition(self, chosen: list[Creature], request: BulkRequest) -> Report | None:
        active = request.kind == "condition_on"
        label = request.condition
        for system_id in self.systems(c.id for c in chosen):
            found = next((c.label for c in self.info(system_id).conditions if c.id == request.condition), None)
            if found:
                label = found
                break

        def make(creature: Creature) -> rules.Action | None:
            if request.factors.get(creature.id, "full") == "none":
                return None
            known = {c.id for c in self.info(creature.sheet.system).conditions}
            if request.condition not in known:
                return None
            return rules.SetCondition(condition=request.condition, active=active)

        title = _tr("État {0} : ajouté").format(label) if active else _tr("État {0} : retiré").format(label)
        run = self._run(
            self._state,
            [c.id for c in chosen],
            make,
            skipped_reason=_tr("état absent de ses règles, ou facteur « aucun »"),
        )
        return self._commit(run, title, kind="bulk")

    # --- time, turns and rounds -------------------------------------------------------------------

    @_collected_once
    def advance_time(self, unit: str, count: int = 1) -> Report | None:
        """Time passes for everyone at the table (+1 minute, +1 heure, +1 jour)."""
        label = {"minute": _tr("minute"), "hour": _tr("heure"), "day": _tr("jour")}.get(unit, unit)
        title = _tr("Le temps passe : +{0} {1}").format(count, label)
        run = self._run(
            self._state, [c.id for c in self.creatures], lambda _c: rules.AdvanceTime(unit=unit, count=count)
        )
        return self._commit(run, title, kind="time")

    @_collected_once
    def rest(self, ids: Iterable[int], action_type: type[rules.Action], label: str) -> Report | None:
        """A rest for the creatures of ``ids`` whose rules know it (the others: not concerned)."""

        def make(creature: Creature) -> rules.Action | None:
            return action_type() if rules.supports(creature.sheet.system, action_type) else None

        wanted = set(ids)
        chosen = [c.id for c in self.creatures if c.id in wanted]
        if not chosen:
            self.refused.emit(_tr("Sélectionnez d'abord les créatures qui se reposent."))
            return None
        run = self._run(self._state, chosen, make, skipped_reason=_tr("ce repos n'existe pas dans ses règles"))
        return self._commit(run, label, kind="rest")

    def has_end_conflict(self) -> bool:
        return any(rules.supports(s, rules.EndConflict) for s in self.systems())

    @_collected_once
    def end_conflict(self) -> Report | None:
        """« Fin du Conflit » for every creature whose rules have it (Sévérité)."""
        ids = [c.id for c in self.creatures if rules.supports(c.sheet.system, rules.EndConflict)]
        if not ids:
            self.refused.emit(_tr("Aucune créature de la table n'a de « Fin du Conflit » dans ses règles."))
            return None
        run = self._run(self._state, ids, lambda _c: rules.EndConflict())
        return self._commit(run, _tr("Fin du Conflit"), kind="time")

    @_collected_once
    def next_turn(self) -> Report | None:
        """« Tour suivant »: the next creature in turn order that has not started this round and is not
        dead starts its turn; after the last one, the round ends for everyone and the next begins."""
        state = self._state
        order = self.turn_order(state)
        if not order:
            self.refused.emit(_tr("La table est vide."))
            return None
        if state.round == 0:
            first = next((cid for cid in order if not self._dead_in(state, cid)), None)
            if first is None:
                self.refused.emit(_tr("Aucune créature vivante à la table."))
                return None
            begun = state.with_(round=1, started=frozenset(), turn=None)
            return self._start_turn(begun, first, heading=_tr("Début du combat : round 1."))
        position = order.index(state.turn) + 1 if state.turn in order else 0
        nxt = next(
            (cid for cid in order[position:] if cid not in state.started and not self._dead_in(state, cid)), None
        )
        if nxt is not None:
            return self._start_turn(state, nxt)
        return self._end_round(state, start_next=True)

    @_collected_once
    def next_round(self) -> Report | None:
        """« Round suivant »: the round ends for everyone (a creature whose turn had not started gets it
        first, so each one's turn rules run once a round), then the next round begins at its first
        creature when turns are being followed."""
        state = self._state
        if not state.creatures:
            self.refused.emit(_tr("La table est vide."))
            return None
        following = state.turn is not None
        if state.round == 0:
            state = state.with_(round=1, started=frozenset(), turn=None)
        return self._end_round(state, start_next=following)

    def end_fight(self) -> None:
        """The fight is over: no round, no turn (undoable)."""
        state = self._state
        if state.round == 0 and state.turn is None:
            return
        title = _tr("Fin du combat")
        ended = state.with_(round=0, turn=None, started=frozenset())
        self._push(ended.with_(journal=(*state.journal, self._table_entry(title, [], ended))), title)
        self.applied.emit("turn")

    def _dead_in(self, state: TableState, creature_id: int) -> bool:
        creature = state.get(creature_id)
        return creature is None or self.is_dead(creature)

    def _start_turn(self, state: TableState, creature_id: int, heading: str = "") -> Report | None:
        creature = state.get(creature_id)
        assert creature is not None
        title = _tr("Round {0} : tour de {1}").format(state.round, creature.name or _tr("(sans nom)"))
        begun = state.with_(turn=creature_id, started=state.started | {creature_id})
        run = self._run(begun, [creature_id], lambda c: rtable.turn_start(c.sheet.system), quiet_skips=True)
        return self._commit(
            run,
            title,
            kind="turn",
            preface=[heading] if heading else [],
            always=True,
            headline=title + ".",
            details=run.details.get(creature_id, ()),
        )

    def _end_round(self, state: TableState, *, start_next: bool) -> Report | None:
        """End round ``state.round`` for everyone, then begin the next (at its first creature's turn when
        ``start_next``): one undo step."""
        order = self.turn_order(state)
        ending = state.round
        late = [cid for cid in order if cid not in state.started and not self._dead_in(state, cid)]
        run = self._run(state, late, lambda c: rtable.turn_start(c.sheet.system), quiet_skips=True)
        run = self._run(run.state, order, lambda c: rtable.round_end(c.sheet.system), before=run)
        new_state = run.state.with_(round=ending + 1, started=frozenset(), turn=None)
        title = _tr("Fin du round {0}").format(ending)
        nxt = next((cid for cid in order if not self._dead_in(new_state, cid)), None) if start_next else None
        if nxt is not None:
            creature = new_state.get(nxt)
            assert creature is not None
            title = _tr("Fin du round {0} ; round {1} : tour de {2}").format(
                ending, ending + 1, creature.name or _tr("(sans nom)")
            )
            begun = new_state.with_(turn=nxt, started=frozenset({nxt}))
            run = self._run(begun, [nxt], lambda c: rtable.turn_start(c.sheet.system), quiet_skips=True, before=run)
        else:
            run = run.moved_to(new_state)
        details = run.eventful[:MAX_DETAILS]
        if len(run.eventful) > MAX_DETAILS:
            details.append(_tr("… et {0} autres (voir le journal).").format(len(run.eventful) - MAX_DETAILS))
        return self._commit(run, title, kind="turn", always=True, headline=title + ".", details=details)

    # --- the one way a change happens -------------------------------------------------------------

    def _run(
        self,
        state: TableState,
        ids: Sequence[int],
        make: Callable[[Creature], rules.Action | None],
        *,
        entry_title: str = "",
        preface: Sequence[str] = (),
        shared: Sequence[str] = (),
        per_creature: Callable[[Creature], Sequence[str]] | None = None,
        skipped_reason: str = "",
        quiet_skips: bool = False,
        before: Run | None = None,
    ) -> Run:
        """``make(creature)`` through ``rules.apply`` on each creature of ``ids`` in ``state``, each with
        its own journal entry; nothing is pushed (``_commit`` does). ``preface``: first lines of each
        entry; ``shared``: lines every entry repeats but the table's journal says once (a shared roll);
        ``per_creature``: lines of one creature's own. ``before``: an earlier run of the step, continued."""
        run = before.moved_to(state) if before is not None else Run(state, state)
        updated: list[Creature] = []
        # A bulk action gives many creatures the same action: its title is worked out once per system
        # and action. The same action object is found again by identity (hashing an action hashes all
        # its fields, at every creature; the object is kept with it, so that its id is not reused
        # meanwhile), an equal one by value.
        titles: dict[tuple[str, int], tuple[rules.Action, str]] = {}
        named: dict[tuple[str, rules.Action], str] = {}
        touched = set(run.touched)
        unnamed = _tr("(sans nom)")
        rng = self._rng
        tables = {s: self.rules_table(s) for s in rules.SYSTEMS}
        for cid in ids:
            creature = state.get(cid)
            if creature is None:
                continue
            try:
                action = make(creature)
            except rules.Refused as exc:
                run.refused.append(Result(cid, creature.name, False, exc.reason))
                continue
            if action is None:
                if not quiet_skips:
                    run.refused.append(Result(cid, creature.name, False, skipped_reason, skipped=True))
                continue
            try:
                outcome = rules.apply(creature.sheet, action, rng, rules_table=tables.get(creature.sheet.system))
            except rules.SheetError as exc:
                run.refused.append(Result(cid, creature.name, False, "; ".join(exc.lines) or exc.reason))
                continue
            except rules.Refused as exc:
                run.refused.append(Result(cid, creature.name, False, exc.reason))
                continue
            except Exception:  # a bug in a rule must not take the table with it
                log.exception("rules.apply failed for %r", action)
                run.refused.append(
                    Result(cid, creature.name, False, _tr("erreur interne des règles (rien n'a changé)"))
                )
                continue
            run.outcomes.append(outcome)
            own = [*preface, *per_creature(creature)] if per_creature else list(preface)
            title = entry_title
            if not title:
                system_id = creature.sheet.system
                known = titles.get((system_id, id(action)))
                if known is not None and known[0] is action:
                    title = known[1]
                else:
                    key = (system_id, action)
                    title = named.get(key) or named.setdefault(key, action_title(self.info(system_id), action))
                    titles[(system_id, id(action))] = (action, title)
            sheet = outcome.sheet
            # Dated with the creature's clock after the action, as the sheet dates its own entries.
            entry = journal_entry(title, [*shared, *own, *outcome.log], outcome.rolls, sheet_clock(sheet))
            updated.append(Creature(cid, sheet, (*creature.journal, entry), creature.initiative, creature.note))
            if cid not in touched:
                touched.add(cid)
                run.touched.append(cid)
            shown = " ".join(entry.split("\n")[1 + len(shared) :])
            line = f"{creature.name or unnamed} : {shown}" if shown else creature.name
            run.lines.append(line)
            run.details.setdefault(cid, []).append(line)
            if outcome.rolls or outcome.events:
                run.eventful.append(line)
        if updated:
            run.state = state.replacing(updated)
        return run

    def _commit(
        self,
        run: Run,
        title: str,
        *,
        kind: str,
        preface: Sequence[str] = (),
        always: bool = False,
        announce: bool = True,
        headline: str = "",
        details: Sequence[str] = (),
    ) -> Report:
        """Push what ``run`` did as one undo step, with one entry in the table's journal, and report
        who fell, is dying, died (comparing each touched creature before and after the whole step)."""
        results: list[Result] = []
        for cid in run.touched:
            old, new = run.start.get(cid), run.state.get(cid)
            if old is None or new is None:
                continue
            change = rtable.state_change(self.state_of(old), self.state_of(new))
            results.append(Result(cid, new.name, True, change=change))
        results.extend(run.refused)
        report = Report(title, tuple(results), tuple(p for p in preface if p), headline, tuple(details))
        if not run.touched and not always:
            if announce and results:
                self.reported.emit(report_text(report), False)
            return report
        # The table's entry says what happened to each creature, up to a screenful; every creature's own
        # journal keeps its whole part (a blow to a thousand wolves is a thousand lines there).
        lines = [*report.preface, *run.lines[:TABLE_ENTRY_LINES]]
        if len(run.lines) > TABLE_ENTRY_LINES:
            more = len(run.lines) - TABLE_ENTRY_LINES
            lines.append(_tr("… et {0} autres : voir le journal de chaque créature.").format(more))
        for what, label in (("fell", _tr("Tombés")), ("dying", _tr("Mourants")), ("died", _tr("Morts"))):
            names = report.names(what)
            if names:
                lines.append(f"{label} : {_listed(names)}.")
        refused = report.refused
        lines.extend(_tr("Refusé pour {0} : {1}").format(r.name, r.reason) for r in refused[:TABLE_ENTRY_LINES])
        if len(refused) > TABLE_ENTRY_LINES:
            lines.append(_tr("… et {0} autres refus.").format(len(refused) - TABLE_ENTRY_LINES))
        new_state = run.state.with_(journal=(*run.state.journal, self._table_entry(title, lines, run.state)))
        self._push(new_state, title)
        if announce:
            self.reported.emit(report_text(report), report.grave())
        self.applied.emit(kind)
        return report

    def _table_entry(self, title: str, lines: Sequence[str], state: TableState) -> str:
        """An entry of the table's journal, dated as the sheets date theirs: with the table's time after
        the action (``state``), the latest clock of its creatures (none when the table is empty)."""
        clock = max((sheet_clock(c.sheet) for c in state.creatures), default=None)
        return journal_entry(title, lines, clock=clock)

    def _push(self, new_state: TableState, title: str) -> None:
        self.undo_stack.push(SwapTable(self, self._state, new_state, title))

    def set_title(self, title: str) -> None:
        title = title.strip()[:200]
        if title != self._state.title:
            self._push(self._state.with_(title=title), _tr("Titre de la table"))

    def replace_state(self, state: TableState) -> None:
        """Start over from ``state`` (a file reloaded): no undo across it."""
        self.undo_stack.clear()
        self._install(state)

    def _install(self, state: TableState) -> None:
        old = self._state
        self._state = state
        old_rows = {c.id: c for c in old.creatures}
        new_rows = {c.id: c for c in state.creatures}
        rows = frozenset(cid for cid, c in new_rows.items() if cid in old_rows and old_rows[cid] is not c)
        sheets = frozenset(cid for cid in rows if old_rows[cid].sheet is not new_rows[cid].sheet)
        added = frozenset(new_rows.keys() - old_rows.keys())
        removed = frozenset(old_rows.keys() - new_rows.keys())
        for cid in removed:
            self._summaries.pop(cid, None)
            self._states.pop(cid, None)
            self._survival.pop(cid, None)
        new_rules = old.house != state.house
        if new_rules:  # every row is recomputed under the rules now in force
            self._summaries.clear()
            self._states.clear()
            self._survival.clear()
        self.swapped.emit(old, state)
        self.changed.emit(
            TableChanges(
                rows=rows,
                sheets=sheets,
                added=added,
                removed=removed,
                turn=(old.round, old.turn, old.started) != (state.round, state.turn, state.started),
                journal=old.journal is not state.journal,
                title=old.title != state.title,
                everything=new_rules,
            )
        )


@dataclass(slots=True)
class Run:
    """One step being built: the state it started from, the state so far, the creatures changed (in
    order), the refusals and skips, one line per change for the table's journal, the outcomes."""

    start: TableState
    state: TableState
    touched: list[int] = field(default_factory=list)
    refused: list[Result] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    outcomes: list[rules.Outcome] = field(default_factory=list)
    details: dict[int, list[str]] = field(default_factory=dict)
    # Lines of the creatures to which something happened by chance or of note (dice, events).
    eventful: list[str] = field(default_factory=list)

    def moved_to(self, state: TableState) -> Run:
        self.state = state
        return self


def _listed(names: Sequence[str], limit: int = NAMES_LISTED) -> str:
    """The first ``limit`` names, then how many others (« et 1 autre », « et 3 autres »)."""
    shown = ", ".join(names[:limit])
    more = len(names) - limit
    if more <= 0:
        return shown
    return shown + (_tr(" et {0} autre") if more == 1 else _tr(" et {0} autres")).format(more)


def _parse_number(text: str) -> int | None:
    from ui.common.texts import parse_int

    return parse_int(text)


_DESCRIBED: dict[str, rules.SystemInfo] = {}


def _describe(system_id: str) -> rules.SystemInfo:
    found = _DESCRIBED.get(system_id)
    if found is None:
        found = _DESCRIBED[system_id] = rules.describe(system_id)
    return found
