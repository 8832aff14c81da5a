"""What a system offers, described for the UI: fields, states, conditions, ladders, rests, features.

The UI builds its panels from ``rules.describe(system_id)`` (a ``SystemInfo``) instead of reading each
rule table's own shape. All labels are French and come from the rule tables where the seed names them.
"""

from __future__ import annotations

from typing import Any, Literal

from rules.actions import Action
from rules.record import Record, _set

FieldKind = Literal["int", "text", "longtext", "bool", "choice"]


class FieldInfo(Record):
    """An editable stored field of the sheet (edited with ``Edit(changes={name: value})``).

    ``group``: "identity" (name, player, level…), "characteristics", "health" (maxima, thresholds…),
    "other". ``choices``: (value, French label) pairs for kind "choice".
    """

    __slots__ = ("name", "label", "kind", "group", "minimum", "maximum", "choices", "tooltip")  # noqa: RUF023  (the fields, in order)
    name: str
    label: str
    kind: FieldKind
    group: str
    minimum: int | None
    maximum: int | None
    choices: tuple[tuple[str, str], ...]
    tooltip: str

    def __init__(
        self,
        name: str,
        label: str,
        kind: FieldKind,
        group: str = "identity",
        minimum: int | None = None,
        maximum: int | None = None,
        choices: tuple[tuple[str, str], ...] = (),
        tooltip: str = "",
    ) -> None:
        _set(self, "name", name)
        _set(self, "label", label)
        _set(self, "kind", kind)
        _set(self, "group", group)
        _set(self, "minimum", minimum)
        _set(self, "maximum", maximum)
        _set(self, "choices", choices)
        _set(self, "tooltip", tooltip)


class HealthStateInfo(Record):
    """A health state of the system (``id`` as ``derive`` names it), its French label and badge colour."""

    __slots__ = ("id", "label", "colour")  # noqa: RUF023  (the fields, in order)
    id: str
    label: str
    colour: str

    def __init__(self, id: str, label: str, colour: str) -> None:
        _set(self, "id", id)
        _set(self, "label", label)
        _set(self, "colour", colour)


class ConditionGroupInfo(Record):
    """A group of states, as the seed groups them (``note``: a remark the sheet shows under it)."""

    __slots__ = ("id", "label", "note")
    id: str
    label: str
    note: str

    def __init__(self, id: str, label: str, note: str = "") -> None:
        _set(self, "id", id)
        _set(self, "label", label)
        _set(self, "note", note)


class ConditionInfo(Record):
    """A state the user can tick (``SetCondition(condition=id, active=…)``)."""

    __slots__ = ("id", "label", "group", "effects")  # noqa: RUF023  (the fields, in order)
    id: str
    label: str
    group: str
    effects: tuple[str, ...]

    def __init__(self, id: str, label: str, group: str, effects: tuple[str, ...]) -> None:
        _set(self, "id", id)
        _set(self, "label", label)
        _set(self, "group", group)
        _set(self, "effects", effects)


class LadderLevel(Record):
    """One level of a ladder (exhaustion 3…): its number, French label and effect."""

    __slots__ = ("level", "label", "effect")  # noqa: RUF023  (the fields, in order)
    level: int
    label: str
    effect: str

    def __init__(self, level: int, label: str, effect: str) -> None:
        _set(self, "level", level)
        _set(self, "label", label)
        _set(self, "effect", effect)


class LadderInfo(Record):
    """A level selector (exhaustion 0–6, fatigue…): ``action(level=n)`` sets it; ``field`` stores it."""

    __slots__ = ("id", "label", "field", "levels", "action")  # noqa: RUF023  (the fields, in order)
    id: str
    label: str
    field: str
    levels: tuple[LadderLevel, ...]
    action: type[Action]

    def __init__(self, id: str, label: str, field: str, levels: tuple[LadderLevel, ...], action: type[Action]) -> None:
        _set(self, "id", id)
        _set(self, "label", label)
        _set(self, "field", field)
        _set(self, "levels", levels)
        _set(self, "action", action)


class ChoiceInfo(Record):
    """A value the user picks from (a time unit, a damage or wound type) and its French label."""

    __slots__ = ("id", "label")
    id: str
    label: str

    def __init__(self, id: str, label: str) -> None:
        _set(self, "id", id)
        _set(self, "label", label)


class SystemInfo(Record):
    """Everything the UI needs to lay out a sheet of one system.

    ``features`` names what the system has, so the UI shows only those controls, e.g.
    "temporary", "nonlethal", "hits", "damage_types", "death_saves", "stabilise", "wounds",
    "short_rest", "long_rest", "action_dice", "exhaustion", "trauma"… (see each system's ``info``).
    ``rests``: (action type, French button label) pairs the rest buttons offer.
    ``actions``: every action type the system accepts.
    """

    __slots__ = (  # noqa: RUF023  (the fields, in order)
        "id",
        "label",
        "seed",
        "points_label",
        "points_short",
        "fields",
        "health_states",
        "condition_groups",
        "conditions",
        "ladders",
        "time_units",
        "damage_types",
        "wound_types",
        "rests",
        "features",
        "actions",
        "extra",
        "round_unit",
    )
    id: str
    label: str
    seed: str
    points_label: str
    points_short: str
    fields: tuple[FieldInfo, ...]
    health_states: tuple[HealthStateInfo, ...]
    condition_groups: tuple[ConditionGroupInfo, ...]
    conditions: tuple[ConditionInfo, ...]
    ladders: tuple[LadderInfo, ...]
    time_units: tuple[ChoiceInfo, ...]
    damage_types: tuple[ChoiceInfo, ...]
    wound_types: tuple[ChoiceInfo, ...]
    rests: tuple[tuple[type[Action], str], ...]
    features: frozenset[str]
    actions: tuple[type[Action], ...]
    extra: dict[str, Any]
    # The time unit of one round of a fight (the GM table's « Round suivant »): one of ``time_units``.
    round_unit: str

    def __init__(
        self,
        id: str,
        label: str,
        seed: str,
        points_label: str,
        points_short: str,
        fields: tuple[FieldInfo, ...],
        health_states: tuple[HealthStateInfo, ...],
        condition_groups: tuple[ConditionGroupInfo, ...],
        conditions: tuple[ConditionInfo, ...],
        ladders: tuple[LadderInfo, ...],
        time_units: tuple[ChoiceInfo, ...],
        damage_types: tuple[ChoiceInfo, ...],
        wound_types: tuple[ChoiceInfo, ...],
        rests: tuple[tuple[type[Action], str], ...],
        features: frozenset[str],
        actions: tuple[type[Action], ...],
        extra: dict[str, Any],
        round_unit: str = "round",
    ) -> None:
        _set(self, "id", id)
        _set(self, "label", label)
        _set(self, "seed", seed)
        _set(self, "points_label", points_label)
        _set(self, "points_short", points_short)
        _set(self, "fields", fields)
        _set(self, "health_states", health_states)
        _set(self, "condition_groups", condition_groups)
        _set(self, "conditions", conditions)
        _set(self, "ladders", ladders)
        _set(self, "time_units", time_units)
        _set(self, "damage_types", damage_types)
        _set(self, "wound_types", wound_types)
        _set(self, "rests", rests)
        _set(self, "features", features)
        _set(self, "actions", actions)
        _set(self, "extra", extra)
        _set(self, "round_unit", round_unit)

    def state(self, state_id: str) -> HealthStateInfo:
        for state in self.health_states:
            if state.id == state_id:
                return state
        return HealthStateInfo(state_id, state_id, "#616161")


# Common header fields every system shares.
IDENTITY_FIELDS: tuple[FieldInfo, ...] = (
    FieldInfo("name", "Nom", "text"),
    FieldInfo("player", "Joueur", "text"),
    FieldInfo("level", "Niveau", "int", minimum=1, maximum=100),
    FieldInfo("is_npc", "PNJ", "bool"),
    FieldInfo("notes", "Notes", "longtext", group="other"),
)
