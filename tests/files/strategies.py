"""Hypothesis strategies for sheets and documents of every registered system (``rules.SYSTEMS``).

Generic on purpose: a system that lands later is covered without a line here. Sheets come from
``rules.demo_sheet`` or ``rules.new_sheet`` with random valid fields, then random actions of the
system (built from each action model's fields, with ids taken from the system's description and
rule table) applied with ``rules.apply`` — so they reach the states real play reaches.
"""

from __future__ import annotations

import functools
import random
import types
import typing
from typing import Any

import annotated_types
from hypothesis import strategies as st
from pydantic import ValidationError

import rules
from rules.model import MAX_POINTS
from sheet_app.files import Document

# Texts that stress a JSON writer: quotes, backslashes, control characters, line separators, emoji.
tricky_text = st.text(
    alphabet=st.one_of(
        st.characters(codec="utf-8"),
        st.sampled_from(['"', "\\", "\n", "\t", "\x00", "\u2028", "\u2029", "é", "«", "»", "−", "😀", "\ufeff"]),
    ),
    max_size=40,
)


@functools.cache
def vocabulary(system_id: str) -> tuple[str, ...]:
    """Every id the system knows: keys of its rule table, ids of its description."""
    words: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                if isinstance(key, str):
                    words.add(key)
                walk(item)
        elif isinstance(value, (list, tuple)):
            for item in value:
                walk(item)
        elif isinstance(value, str) and len(value) <= 40:
            words.add(value)

    walk(rules.ruleset(system_id).model_dump())
    info = rules.describe(system_id)
    for group in (info.conditions, info.time_units, info.damage_types, info.wound_types, info.health_states):
        words.update(item.id for item in group)
    walk(info.extra)
    return tuple(sorted(w for w in words if w and len(w) <= 40))


@functools.cache
def ids(system_id: str) -> tuple[str, ...]:
    """The words of ``vocabulary`` that look like ids (``a_terre``, ``minor``), most often asked."""
    return tuple(w for w in vocabulary(system_id) if w.replace("_", "").isalnum() and w == w.lower())


@functools.cache
def candidates(system_id: str, field: str) -> tuple[str, ...]:
    """Ids a field named ``field`` most likely takes: a condition, a time unit, a wound grade…

    Found by name in the system's description (``conditions``, ``time_units``…), in its rule table
    (a table ``grades`` for a field ``grade``) and in ``extra`` (``treatment_choices``…).
    """
    info = rules.describe(system_id)
    found: list[str] = []
    groups = {
        "condition": info.conditions,
        "unit": info.time_units,
        "wound_type": info.wound_types,
        "damage_type": info.damage_types,
    }
    if field in groups:
        found.extend(item.id for item in groups[field])

    def ids_of(value: Any) -> list[str]:
        if isinstance(value, dict):
            return [k for k in value if isinstance(k, str)]
        if isinstance(value, (list, tuple)):
            firsts = [v[0] if isinstance(v, (list, tuple)) and v else v for v in value]
            return [v for v in firsts if isinstance(v, str)]
        return []

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                if isinstance(key, str) and field in key:
                    found.extend(ids_of(item))
                walk(item)

    walk(rules.ruleset(system_id).model_dump())
    walk(dict(info.extra))
    return tuple(dict.fromkeys(found))


def _bounds(metadata: list[Any], low: int, high: int) -> tuple[int, int]:
    for item in metadata:
        if isinstance(item, annotated_types.Ge):
            low = max(low, int(item.ge))  # type: ignore[call-overload]
        elif isinstance(item, annotated_types.Gt):
            low = max(low, int(item.gt) + 1)  # type: ignore[call-overload]
        elif isinstance(item, annotated_types.Le):
            high = min(high, int(item.le))  # type: ignore[call-overload]
        elif isinstance(item, annotated_types.Lt):
            high = min(high, int(item.lt) - 1)  # type: ignore[call-overload]
    return low, max(low, high)


def _value(
    annotation: Any, metadata: list[Any], system_id: str, name: str = "", extreme: bool = False
) -> st.SearchStrategy[Any] | None:
    """A strategy for one action field; ``extreme``: numbers at the field's bounds (or ±``MAX_POINTS``)
    and dice that roll past them, as a user may type."""
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is typing.Annotated:
        inner_meta = list(metadata)
        for extra in args[1:]:
            inner_meta.extend(getattr(extra, "metadata", [extra]))
        return _value(args[0], inner_meta, system_id, name, extreme)
    if origin in (typing.Union, types.UnionType):
        options = [s for s in (_value(a, metadata, system_id, name, extreme) for a in args) if s is not None]
        return st.one_of(options) if options else None
    if origin is typing.Literal:
        return st.sampled_from(args)
    if annotation is type(None):
        return st.none()
    if annotation is bool:
        return st.booleans()
    if annotation is int:
        if name.endswith("_id"):  # wound numbers and the like: the first few exist
            return st.integers(0, 4)
        if extreme:
            low, high = _bounds(metadata, -MAX_POINTS, MAX_POINTS)
            return st.sampled_from([low, high, low + 1, high - 1])
        low, high = _bounds(metadata, -5, 60)
        return st.integers(low, high)
    if annotation is float:
        low, high = _bounds(metadata, 0, 60)
        return st.integers(low, high).map(float)
    if annotation is str:
        likely = candidates(system_id, name) if name else ()
        if extreme and not likely:
            return st.sampled_from([str(MAX_POINTS), f"-{MAX_POINTS}", "1000d1000", "1000d1000*1000", "0"])
        if likely:
            return st.one_of(st.sampled_from(likely), st.sampled_from(likely), st.sampled_from(vocabulary(system_id)))
        return st.one_of(
            st.sampled_from(ids(system_id) or ("",)),
            st.sampled_from(vocabulary(system_id) or ("",)),
            st.sampled_from(["1d6", "2d6+3", "3", ""]),
        )
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        item = _value(args[0], [], system_id, name, extreme)
        return st.lists(item, max_size=2).map(tuple) if item is not None else None
    return None


@functools.cache
def _action_strategy(
    system_id: str, action_type: type[rules.Action], extreme: bool = False
) -> st.SearchStrategy[rules.Action | None]:
    fields: dict[str, st.SearchStrategy[Any]] = {}
    optional: dict[str, st.SearchStrategy[Any]] = {}
    for name, info in action_type.model_fields.items():
        if name in ("kind", "rolls"):
            continue
        strategy = _value(info.annotation, list(info.metadata), system_id, name, extreme)
        if strategy is None:
            if info.is_required():
                return st.none()
            continue
        (fields if info.is_required() else optional)[name] = strategy

    def build(values: dict[str, Any]) -> rules.Action | None:
        try:
            return action_type.model_validate(values)
        except ValidationError:  # an invalid random combination: simply no action
            return None

    return st.fixed_dictionaries(fields, optional=optional).map(build)


def _field_value(field: rules.FieldInfo) -> st.SearchStrategy[Any]:
    if field.kind == "int":
        low = field.minimum if field.minimum is not None else 0
        high = field.maximum if field.maximum is not None else 1000
        return st.one_of(st.integers(low, high), st.sampled_from([low, high]))
    if field.kind == "bool":
        return st.booleans()
    if field.kind == "choice":
        return st.sampled_from([value for value, _ in field.choices] or [""])
    return tricky_text


@functools.cache
def edits(system_id: str) -> st.SearchStrategy[rules.Action]:
    fields = rules.describe(system_id).fields
    return (
        st.lists(st.sampled_from(fields), min_size=1, max_size=3, unique_by=lambda f: f.name)
        .flatmap(lambda chosen: st.fixed_dictionaries({f.name: _field_value(f) for f in chosen}))
        .map(lambda changes: rules.Edit(changes=changes))
    )


@functools.cache
def actions(system_id: str, extreme: bool = False) -> st.SearchStrategy[rules.Action | None]:
    """Any action of the system; ``extreme``: its numbers at their bounds (edits always reach them)."""
    info = rules.describe(system_id)
    options = [edits(system_id)] + [
        _action_strategy(system_id, a, extreme) for a in info.actions if a is not rules.Edit
    ]
    return st.one_of(options)


@st.composite
def sheets(draw: st.DrawFn, system_id: str | None = None, max_actions: int = 12) -> Any:
    """A sheet of ``system_id`` (or any registered system) after random play."""
    system_id = system_id or draw(st.sampled_from(rules.SYSTEMS))
    if draw(st.booleans()):
        sheet = rules.demo_sheet(system_id)
    else:
        info = rules.describe(system_id)
        chosen = draw(st.lists(st.sampled_from(info.fields), max_size=6, unique_by=lambda f: f.name))
        values = {f.name: draw(_field_value(f)) for f in chosen}
        try:
            sheet = rules.new_sheet(system_id, **values)
        except rules.SheetError:
            sheet = rules.new_sheet(system_id)
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    for _ in range(draw(st.integers(0, max_actions))):
        action = draw(actions(system_id))
        if action is None:
            continue
        try:
            sheet = rules.apply(sheet, action, rng=rng).sheet
        except rules.Refused:
            continue
    return sheet


journals = st.lists(tricky_text, max_size=6)


@st.composite
def documents(draw: st.DrawFn, max_sheets: int = 16) -> Document:
    """A sheet document or a GM table of sheets of any systems, with journals and a title."""
    if draw(st.booleans()):
        return Document("sheet", [draw(sheets())], [draw(journals)])
    count = draw(st.integers(0, max_sheets))
    table = [draw(sheets(max_actions=6)) for _ in range(count)]
    logs = [draw(journals) for _ in range(draw(st.integers(0, count)))]
    return Document("table", table, logs, draw(tricky_text))
