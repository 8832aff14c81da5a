"""Naming the house values a number or a journal line depends on.

A derived value « uses » a house value when putting that one value back to the shipped reading changes
the value or its explanation; an action's outcome uses it when the same action, with the same dice,
turns out otherwise. So every explanation and journal can say « règles maison : saves.death_save_success
= 12 (base : 10) » exactly where a GM's change made a difference, with no rule code knowing about house
rules: the systems compute with whatever table they are given.

The tables « but for one house value » are built once per house table (``Attribution``, cached). A derived
sheet works its notes out only when an explanation is read (``HouseDerived``); an action replays only
when the house table differs from the shipped one, first once with the shipped table (an outcome the
house rules do not change costs one replay), then once per changed key.
"""

from __future__ import annotations

import copy
import random
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, ValidationError

from rules.errors import Refused
from rules.house.differences import Difference, differences, with_base_value
from rules.model import Derived, Explained, Outcome

NOTE = "règles maison : "


class Attribution:
    """One house table against the shipped one: its differences and, for each, the table with that one
    difference put back (``None`` when that table would not validate: the difference is tied to another)."""

    def __init__(self, model: type[BaseModel], base: BaseModel, house: BaseModel) -> None:
        self.model = model
        self.base = base
        self.house = house
        self.diffs = differences(model, base, house)
        self._reverted: list[tuple[Difference, BaseModel | None]] | None = None

    def reverted(self) -> list[tuple[Difference, BaseModel | None]]:
        if self._reverted is None:
            data = self.house.model_dump(mode="json")
            found: list[tuple[Difference, BaseModel | None]] = []
            for diff in self.diffs:
                try:
                    table: BaseModel | None = self.model.model_validate(with_base_value(data, diff))
                except (ValidationError, ValueError, KeyError, TypeError):
                    table = None
                found.append((diff, table))
            self._reverted = found
        return self._reverted


_CACHE: OrderedDict[int, Attribution] = OrderedDict()
_CACHE_SIZE = 16


def attribution(model: type[BaseModel], base: BaseModel, house: BaseModel) -> Attribution:
    """The (cached) attribution of ``house``; a table is recognised by identity, as it is immutable."""
    found = _CACHE.get(id(house))
    if found is None or found.house is not house or found.base is not base:
        found = Attribution(model, base, house)
        _CACHE[id(house)] = found
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    else:
        _CACHE.move_to_end(id(house))
    return found


def _notes(diffs: list[Difference]) -> str:
    return NOTE + " ; ".join(d.short for d in diffs)


class HouseDerived(Derived):
    """Derived values under house rules: the same values; each explanation names the house values it
    depends on, worked out the first time an explanation is read."""

    __slots__ = ("_derive", "_pending", "_sheet", "_source")

    def __init__(self, plain: Derived, sheet: Any, source: Attribution, derive: Callable[[Any, Any], Derived]):
        super().__init__(plain.system, dict(plain._values), plain.hidden)
        self._sheet = sheet
        self._source = source
        self._derive = derive
        self._pending = True

    def _annotate(self) -> None:
        if not self._pending:
            return
        self._pending = False
        used: dict[str, list[Difference]] = {}
        for diff, table in self._source.reverted():
            if table is None:
                continue
            try:
                other = self._derive(self._sheet, table)
            except Exception:  # the sheet needs this value (an id only the house table knows)
                continue
            for name, value in self._values.items():
                if other._values.get(name) != value:
                    used.setdefault(name, []).append(diff)
        for name, diffs in used.items():
            value = self._values[name]
            self._values[name] = Explained(value.value, f"{value.text} — {_notes(diffs)}")

    def __getitem__(self, name: str) -> Explained:
        self._annotate()
        return super().__getitem__(name)

    def explain(self, name: str) -> str:
        self._annotate()
        return super().explain(name)


def explained(derived: Derived, sheet: Any, source: Attribution, derive: Callable[[Any, Any], Derived]) -> Derived:
    """``derived`` with house notes in its explanations (itself when the table changes nothing)."""
    if not source.diffs:
        return derived
    return HouseDerived(derived, sheet, source, derive)


Run = Callable[[Any, Any, random.Random | None, Any], Outcome]


def _clone(rng: Any) -> Any:
    """An independent copy of ``rng`` that draws the same values (a replay must not move the real one).
    A subclass whose constructor takes arguments (a test's scripted dice) is copied field by field."""
    if rng is None:
        return None
    try:
        return copy.deepcopy(rng)
    except TypeError:
        kind: Any = type(rng)
        clone = kind.__new__(kind)
        clone.__dict__.update(copy.deepcopy(rng.__dict__))
        if isinstance(rng, random.Random):
            random.Random.setstate(clone, random.Random.getstate(rng))
        return clone


def _replay(run: Run, sheet: Any, action: Any, rng: Any, table: Any) -> Any:
    try:
        outcome = run(sheet, action, _clone(rng), table)
    except Exception as exc:  # a refusal (or a table the action cannot run with) is an outcome too
        return (type(exc), str(exc))
    return (outcome.sheet, outcome.log)


def _used(run: Run, sheet: Any, action: Any, rng: Any, source: Attribution, result: Any) -> list[Difference]:
    if _replay(run, sheet, action, rng, source.base) == result:
        return []
    used: list[Difference] = []
    untied: list[Difference] = []
    for diff, table in source.reverted():
        if table is None:
            untied.append(diff)
        elif _replay(run, sheet, action, rng, table) != result:
            used.append(diff)
    # The outcome differs from the shipped rules but no single value explains it: they all do, together.
    return used or untied or list(source.diffs)


def noted_outcome(run: Run, sheet: Any, action: Any, rng: Any, table: Any, source: Attribution) -> Outcome:
    """Apply ``action`` with the house ``table`` (``run``), and add a journal line naming the house values
    that changed what happened; a refusal due to a house value says so."""
    snapshot = _clone(rng)
    try:
        outcome = run(sheet, action, rng, table)
    except Refused as exc:
        if type(exc) is not Refused:
            raise
        used = _used(run, sheet, action, snapshot, source, (type(exc), str(exc)))
        if not used:
            raise
        raise Refused(f"{exc.reason} (Règles maison : {' ; '.join(d.short for d in used)}.)") from None
    used = _used(run, sheet, action, snapshot, source, (outcome.sheet, outcome.log))
    if not used:
        return outcome
    line = "Règles maison en jeu : " + " ; ".join(d.short for d in used) + "."
    return outcome._replace(log=(*outcome.log, line))
