"""The rule systems: one package per system, registered here.

A system is a sheet model, a rule table model (loaded from ``resources/rulesets/<id>.toml``), one
handler per action type, and a ``derive`` function. ``rules/__init__.py`` is the only public door.

A system's package is imported on first use (its sheet, actions and rule table are about a hundred
pydantic models: importing all four took most of the app's start): ``KNOWN`` names the systems and
their labels without importing them, and ``REGISTRY[id]`` imports the package the first time.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, cast

from rules.actions import Action
from rules.info import SystemInfo
from rules.model import Context, Derived, SheetBase
from rules.record import Record, _set
from rules.ruleset import Table, shipped_ruleset

if TYPE_CHECKING:
    from rules.odds import SystemOdds

Handler = Callable[[Any, Any, Context], Any]
DeriveFn = Callable[[Any, Any], Derived]
AfterEdit = Callable[[Any, Any, Any, Context], Any]
# The journal line of one edited field: (field, before, after, rule table) -> a French line, or None for
# the generic « Label : avant → après. » (the label the sheet shows, from ``info``).
EditLine = Callable[[str, Any, Any, Any], str | None]


class System(Record):
    """Everything the facade needs to run one rule system."""

    __slots__ = (  # noqa: RUF023  (the fields, in order)
        "id",
        "label",
        "seed",
        "sheet_type",
        "ruleset_type",
        "handlers",
        "derive",
        "prepare_edit",
        "after_edit",
        "edit_line",
        "after_action",
        "field_labels",
        "demo",
        "info",
        "state",
        "check",
    )
    id: str
    label: str
    seed: str
    sheet_type: type[SheetBase]
    ruleset_type: type[Table]
    handlers: Mapping[type[Action], Handler]
    derive: DeriveFn
    # Called on the merged data of an ``Edit`` before validation (e.g. lower ``current`` with its maximum).
    prepare_edit: Callable[[Any, dict[str, Any]], dict[str, Any]] | None
    # Called after a validated ``Edit``: (old sheet, new sheet, ruleset, ctx) -> sheet (clamps, notes).
    after_edit: AfterEdit | None
    # Says in French what an ``Edit`` changed in a field (labels, never field ids).
    edit_line: EditLine | None
    # Called after every action but those listed in ``keeps_open`` (e.g. closes a short rest).
    after_action: Callable[[Any, Action], Any] | None
    # French labels of the sheet's stored fields (a dotted key names a nested one: "magic.current"), used
    # for the journal of an ``Edit`` and for messages about a field; ``rules.errors.FIELD_LABELS`` otherwise.
    field_labels: Mapping[str, str]
    demo: Mapping[str, Any]
    # Describes the system for the UI, from its rule table.
    info: Callable[[Any], SystemInfo] | None
    # The health state (id, French reason) alone, as ``derive`` computes it, without the rest of
    # ``derive``: the GM table asks it of a thousand creatures after one bulk action.
    state: Callable[[Any, Any], tuple[str, str]] | None
    # Problems of a sheet under a rule table that pydantic alone cannot see (ids of the table, the exact
    # maximum, fields that contradict each other): (sheet, table) -> [(location, French text)]. The facade
    # runs it when a sheet is read or made and after every ``Edit`` (``rules.check_sheet``).
    check: Callable[[Any, Any], list[tuple[tuple[str | int, ...], str]]] | None

    def __init__(
        self,
        id: str,
        label: str,
        seed: str,
        sheet_type: type[SheetBase],
        ruleset_type: type[Table],
        handlers: Mapping[type[Action], Handler],
        derive: DeriveFn,
        prepare_edit: Callable[[Any, dict[str, Any]], dict[str, Any]] | None = None,
        after_edit: AfterEdit | None = None,
        edit_line: EditLine | None = None,
        after_action: Callable[[Any, Action], Any] | None = None,
        field_labels: Mapping[str, str] | None = None,
        demo: Mapping[str, Any] | None = None,
        info: Callable[[Any], SystemInfo] | None = None,
        state: Callable[[Any, Any], tuple[str, str]] | None = None,
        check: Callable[[Any, Any], list[tuple[tuple[str | int, ...], str]]] | None = None,
    ) -> None:
        _set(self, "id", id)
        _set(self, "label", label)
        _set(self, "seed", seed)
        _set(self, "sheet_type", sheet_type)
        _set(self, "ruleset_type", ruleset_type)
        _set(self, "handlers", handlers)
        _set(self, "derive", derive)
        _set(self, "prepare_edit", prepare_edit)
        _set(self, "after_edit", after_edit)
        _set(self, "edit_line", edit_line)
        _set(self, "after_action", after_action)
        _set(self, "field_labels", {} if field_labels is None else field_labels)
        _set(self, "demo", {} if demo is None else demo)
        _set(self, "info", info)
        _set(self, "state", state)
        _set(self, "check", check)

    def ruleset(self) -> Any:
        """The shipped rule table (validated once, then cached)."""
        table = _TABLES.get(self.id)
        if table is None:
            table = _TABLES[self.id] = shipped_ruleset(self.ruleset_type, self.id)
        return table

    @property
    def actions(self) -> tuple[type[Action], ...]:
        return tuple(self.handlers)

    def odds(self) -> SystemOdds | None:
        """The system's odds (``rules/systems/<id>/odds.py``: its rolls and how they are made), loaded on
        first use; None for a system that has none."""
        name = f"{__name__}.{self.id}.odds"
        try:
            return cast("SystemOdds", importlib.import_module(name))
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            return None


# The systems the app knows, in the order it offers them, with the label each registers (a test checks
# they agree): their packages are imported on first use.
KNOWN: dict[str, str] = {"douaratil": "Douaratil", "d20": "d20", "segments": "Segments", "severite": "Sévérité"}


class Registry(Mapping[str, System]):
    """The registered systems by id; a known system's package is imported the first time it is asked for.

    ``id in REGISTRY``, ``len`` and iteration answer from ``KNOWN`` (and what registered itself) without
    importing anything; ``REGISTRY[id]``, ``get`` and ``values`` import what they return.
    """

    def __init__(self) -> None:
        self._loaded: dict[str, System] = {}

    def __getitem__(self, system_id: str) -> System:
        try:
            return self._loaded[system_id]
        except KeyError:
            pass
        if system_id not in KNOWN:
            raise KeyError(system_id)
        importlib.import_module(f"rules.systems.{system_id}")  # registers itself
        return self._loaded[system_id]

    def get(self, system_id: str, default: Any = None) -> Any:
        found = self._loaded.get(system_id)
        if found is not None:
            return found
        try:
            return self[system_id]
        except KeyError:
            return default

    def __contains__(self, system_id: object) -> bool:
        return system_id in KNOWN or system_id in self._loaded

    def __iter__(self) -> Iterator[str]:
        yield from KNOWN
        yield from (s for s in self._loaded if s not in KNOWN)

    def __len__(self) -> int:
        return len(KNOWN) + sum(1 for s in self._loaded if s not in KNOWN)

    def loaded(self) -> tuple[str, ...]:
        """The ids of the systems imported so far."""
        return tuple(self._loaded)

    def add(self, system: System) -> None:
        self._loaded[system.id] = system


REGISTRY = Registry()
_TABLES: dict[str, Any] = {}


def register(system: System) -> System:
    REGISTRY.add(system)
    return system
