"""What a system offers, described for the UI: fields, states, conditions, ladders, rests, features.

The UI builds its panels from ``rules.describe(system_id)`` (a ``SystemInfo``) instead of reading each
rule table's own shape. All labels are French and come from the rule tables where the seed names them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from rules.actions import Action

FieldKind = Literal["int", "text", "longtext", "bool", "choice"]


@dataclass(frozen=True, slots=True)
class FieldInfo:
    """An editable stored field of the sheet (edited with ``Edit(changes={name: value})``).

    ``group``: "identity" (name, player, level…), "characteristics", "health" (maxima, thresholds…),
    "other". ``choices``: (value, French label) pairs for kind "choice".
    """

    name: str
    label: str
    kind: FieldKind
    group: str = "identity"
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[tuple[str, str], ...] = ()
    tooltip: str = ""


@dataclass(frozen=True, slots=True)
class HealthStateInfo:
    """A health state of the system (``id`` as ``derive`` names it), its French label and badge colour."""

    id: str
    label: str
    colour: str


@dataclass(frozen=True, slots=True)
class ConditionGroupInfo:
    """A group of states, as the seed groups them (``note``: a remark the sheet shows under it)."""

    id: str
    label: str
    note: str = ""


@dataclass(frozen=True, slots=True)
class ConditionInfo:
    """A state the user can tick (``SetCondition(condition=id, active=…)``)."""

    id: str
    label: str
    group: str
    effects: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class LadderLevel:
    """One level of a ladder (exhaustion 3…): its number, French label and effect."""

    level: int
    label: str
    effect: str


@dataclass(frozen=True, slots=True)
class LadderInfo:
    """A level selector (exhaustion 0–6, fatigue…): ``action(level=n)`` sets it; ``field`` stores it."""

    id: str
    label: str
    field: str
    levels: tuple[LadderLevel, ...]
    action: type[Action]


@dataclass(frozen=True, slots=True)
class ChoiceInfo:
    """A value the user picks from (a time unit, a damage or wound type) and its French label."""

    id: str
    label: str


@dataclass(frozen=True, slots=True)
class SystemInfo:
    """Everything the UI needs to lay out a sheet of one system.

    ``features`` names what the system has, so the UI shows only those controls, e.g.
    "temporary", "nonlethal", "hits", "damage_types", "death_saves", "stabilise", "wounds",
    "short_rest", "long_rest", "action_dice", "exhaustion", "trauma"… (see each system's ``info``).
    ``rests``: (action type, French button label) pairs the rest buttons offer.
    ``actions``: every action type the system accepts.
    """

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
    round_unit: str = "round"

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
