"""Shapes shared by every rule system: the sheet base, the outcome of an action, derived values.

A sheet is an immutable pydantic model. Applying an action gives a *new* sheet and a French journal;
derived values (effective maxima, penalties, state) are computed on demand and each can say how.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, NamedTuple, TypeVar

from pydantic import BaseModel, ConfigDict, Field
from pydantic._internal._model_construction import ModelMetaclass

from rules.dice import _RULE_PLANS, AMOUNTS, Roll, amount_form, parse_amount, roll_dice, roll_of, roll_plan
from rules.errors import Refused
from rules.record import Record, _set

MAX_NAME = 200
MAX_NOTES = 20_000
MAX_POINTS = 100_000
MAX_LEVEL = 100
# In-game time a sheet can count, in seconds (about 31,700 years): a bound a file or an action cannot pass.
MAX_CLOCK = 10**12


class Frozen(BaseModel):
    """Base of every rules model: immutable, no unknown fields."""

    # Each model's validator is built when it is first used, not when its class is made (issue 15: a start
    # opening a sheet validates that system's sheet model alone, whose validator holds its nested models; the
    # bases and the nested models built on their own were never used). ``rules.Action`` says it again.
    model_config = ConfigDict(frozen=True, extra="forbid", validate_default=False, defer_build=True)


# Issue 15: reading a field of a model (``sheet.current``, ``action.amount``, ``rs.thresholds``) is what the rules
# do most. pydantic's ``BaseModel.__getattr__`` serves only private attributes (``PrivateAttr``) and the extra
# fields of ``extra="allow"`` models, which no model of this app has (a test checks every model class); yet its
# mere presence makes CPython send *every* attribute read of *every* model through a slower hook, and keeps the
# interpreter from specialising them: 15-20 % of each ``rules.apply`` (callgrind). Without it a read is CPython's
# own, and a missing name raises the same ``AttributeError`` (« 'X' object has no attribute 'y' »).
if "__getattr__" in vars(BaseModel):
    delattr(BaseModel, "__getattr__")
# The same hook on the models' class (pydantic's metaclass) serves a model class's private attributes
# (``Model._x``) only; every name a class lacks went through it, in Python, raising its own
# ``AttributeError``: pydantic asks dozens of them while it makes each model class (issue 15: ~6 % of
# making one, ~60 at a start). Without it a class lacks a name as any class does.
if "__getattr__" in vars(ModelMetaclass):
    delattr(ModelMetaclass, "__getattr__")


MAX_TIMERS = 40


class ConditionTimer(Frozen):
    """A state put for a while (``rules/timers.py``): it ends when the clock reaches ``ends_at``
    (seconds), or at the end of the Conflict when ``ends_at`` is None. ``unit`` and ``label`` say how
    its length was given (« 3 rounds »), for the countdown and the journal."""

    condition: str = Field(min_length=1, max_length=60)
    ends_at: int | None = Field(None, ge=0, le=MAX_CLOCK)
    unit: str = Field("", max_length=20)
    label: str = Field("", max_length=80)


class SheetBase(Frozen):
    """What every character sheet has, whatever its system."""

    system: str
    name: str = Field("", max_length=MAX_NAME)
    player: str = Field("", max_length=MAX_NAME)
    level: int = Field(1, ge=1, le=MAX_LEVEL)
    notes: str = Field("", max_length=MAX_NOTES)
    is_npc: bool = False
    # In-game time elapsed for this character, in seconds; drives rests and timed rules.
    clock: int = Field(0, ge=0, le=MAX_CLOCK)
    # States that end on their own as the clock moves (issue 10 item 23); empty in older files.
    condition_timers: tuple[ConditionTimer, ...] = Field((), max_length=MAX_TIMERS)


S = TypeVar("S", bound=BaseModel)


class _Blank(BaseModel):
    """What ``evolve``, ``with_values`` and ``construct`` make a model as, before it takes its own class.

    Issue 15, session 9: every action copies its sheet (``evolve``), and a pydantic model's four slots
    (``__dict__``, the fields set, extra, private) cannot be stored by plain assignments: ``BaseModel.__setattr__``
    refuses (frozen models) and goes through Python. Their descriptors' setters, called from Python, cost ~740 CPU
    instructions each (a call through a tuple of arguments). A ``_Blank`` has the very slots of every model of the
    app (``BaseModel``'s, and the ``__weakref__`` its subclasses add) and the plain ``object.__setattr__``: its
    stores are CPython's own (a slot store, a few instructions), then ``__class__`` is set to the model's class,
    which CPython allows because the two lay their objects out alike (it refuses with a ``TypeError`` otherwise,
    nothing half made). ~1,700 instructions less per copy. Never built nor validated (``defer_build``): no
    field, no validator; ``tests/rules/test_model_copies.py`` holds what comes out to pydantic's own models."""

    model_config = ConfigDict(defer_build=True)
    # Both (they share one slot of the type): with only ``__setattr__``, CPython would call it through Python.
    __setattr__ = object.__setattr__
    __delattr__ = object.__delattr__
    # ``_Blank()`` makes one without pydantic's ``__init__``: cheaper than ``object.__new__(_Blank)`` (no tuple of
    # arguments made and sliced).
    __init__ = object.__init__


_TEMPLATES: dict[type[BaseModel], tuple[dict[str, Any], frozenset[str]]] = {}


def _template(cls: type[BaseModel]) -> tuple[dict[str, Any], frozenset[str]]:
    """Every field of ``cls`` in its declared order with its default (None for a required one, always
    given), and the required names."""
    found = _TEMPLATES.get(cls)
    if found is None:
        template: dict[str, Any] = {}
        required: set[str] = set()
        for name, info in cls.__pydantic_fields__.items():
            if info.is_required():
                required.add(name)
                template[name] = None
            else:
                template[name] = info.get_default(call_default_factory=True)
        found = _TEMPLATES[cls] = (template, frozenset(required))
    return found


def construct(cls: type[S], **values: Any) -> S:
    """A new ``cls`` from trusted ``values`` (defaults filled in, no validation), like
    ``cls.model_construct(**values)`` at a fraction of its cost: handlers build wounds and timers with it.

    For models whose defaults are immutable (ours are frozen, with tuple, text and number defaults):
    defaults are computed once per class and shared.
    """
    template, required = _TEMPLATES.get(cls) or _template(cls)
    # A copy of the template keeps the fields' order, as validation stores them: a sheet's JSON text does not
    # depend on how it was built. A name the model does not have would make the dict grow.
    fields = template.copy()
    fields.update(values)
    if len(fields) != len(template) or not required <= values.keys():
        missing = sorted(required - values.keys())
        unknown = sorted(values.keys() - cls.__pydantic_fields__.keys())
        raise AttributeError(f"{cls.__name__}: missing {missing}, unknown {unknown}")
    new: Any = _Blank()  # ``_Blank``'s plain stores, then the class (see ``_Blank``)
    new.__dict__ = fields
    new.__pydantic_fields_set__ = set(values)
    new.__pydantic_extra__ = None
    new.__pydantic_private__ = None
    new.__class__ = cls
    return new  # type: ignore[no-any-return]  # ``cls``, now


def evolve(model: S, **changes: Any) -> S:
    """A copy of ``model`` with ``changes`` (no re-validation: handlers keep the invariants).

    Same result as ``model.model_copy(update=changes)`` at a third of its cost: ``apply`` runs this
    several times per action and the GM's table applies actions to many sheets at once.
    """
    fields = model.__dict__
    # One dict built, ``fields``' order, then a new key at the end: ``copy()`` then ``update()`` (issue 15, session
    # 7: two method calls less, ~600 instructions a copy).
    values = {**fields, **changes}
    cls = type(model)
    if len(values) != len(fields):  # ``__dict__`` holds every field: a new key is a name the model does not have
        unknown = sorted(changes.keys() - cls.__pydantic_fields__.keys())
        raise AttributeError(f"{cls.__name__} has no field {unknown}")
    # ``with_values``'s body, not a call to it (issue 15: one Python call less per copy; ``type(model)``: no
    # attribute lookup). ``_Blank``'s plain stores, then the class (issue 15, session 9: see ``_Blank``).
    new: Any = _Blank()
    new.__dict__ = values
    new.__pydantic_fields_set__ = model.__pydantic_fields_set__
    new.__pydantic_extra__ = None
    new.__pydantic_private__ = None
    new.__class__ = cls
    return new  # type: ignore[no-any-return]  # ``cls``, now


def with_values(model: S, values: dict[str, Any]) -> S:
    """A copy of ``model`` holding ``values``: a dict of every field of ``model``, in its order, built by the
    caller (``evolve``'s last step, for a handler that already copied ``model.__dict__`` to read and change
    it: d20's ``_settle``, issue 15). Nothing is checked: the caller keeps the fields and the invariants."""
    new: Any = _Blank()  # see ``_Blank``
    new.__dict__ = values
    new.__pydantic_fields_set__ = model.__pydantic_fields_set__
    new.__pydantic_extra__ = None
    new.__pydantic_private__ = None
    new.__class__ = type(model)
    return new  # type: ignore[no-any-return]  # ``type(model)``, now


_tuple_new = tuple.__new__
_Random = random.Random
# The roll of a whole number given as such (« 7 » typed, or a rule's number), by value: the same immutable
# ``Roll`` each time (issue 15: ``Context.amount`` runs for every damage and heal).
_NUMBERS: dict[int, Roll] = {}


class Outcome(NamedTuple):
    """What an action did: the new sheet, the French journal lines, the dice rolled, notable events.

    ``events`` are ids the UI can react to ("critical", "massive_damage", "died"...).
    """

    sheet: Any
    log: tuple[str, ...]
    rolls: tuple[Roll, ...] = ()
    events: tuple[str, ...] = ()


# Marks a journal line only the game master may read (it shows a value the rules hide from the player,
# such as an Engourdi character's own PV): the player's view of the journal leaves such lines out.
SECRET_MARK = "[MJ] "
# An action that would take a sheet's clock past ``MAX_CLOCK`` is refused with this (``Context.finish``).
CLOCK_REFUSAL = "Le temps de jeu de la fiche dépasserait la limite (environ 31 700 ans) : rien n'a changé."


class Context:
    """Per-action scratchpad: where the dice come from, and what the journal says.

    ``rules.apply`` makes its Context without calling ``__init__`` and ends it without calling ``finish``
    (issue 15: two Python calls less per action): it stores the same slots and does the same steps; a change
    here is a change there (``test_apply_makes_and_ends_its_context_as_context_does``).
    """

    __slots__ = ("events", "given", "log", "rng", "rolls", "ruleset")

    def __init__(self, rng: random.Random | None, ruleset: Any, given: Iterable[int] = ()) -> None:
        self.rng = rng
        self.ruleset = ruleset
        # The values the action gives for its dice, used in order: a list, or an empty tuple when it gives none
        # (issue 15: most actions; one list fewer made and freed).
        self.given: list[int] | tuple[()] = list(given) if given else ()
        self.log: list[str] = []
        # What was rolled, the events: an empty tuple until the first one (issue 15: most actions have neither,
        # and ``apply`` makes a Context per action); a list from then on.
        self.rolls: list[Roll] | tuple[()] = ()
        self.events: list[str] | tuple[()] = ()

    def say(self, line: str, secret: bool = False) -> None:
        """Add ``line`` to the journal; ``secret`` lines carry ``SECRET_MARK`` (GM view only)."""
        self.log.append(SECRET_MARK + line if secret else line)

    def event(self, name: str) -> None:
        events = self.events
        if name not in events:
            if events:
                events.append(name)
            else:
                self.events = [name]

    def dice(self, count: int, sides: int, what: str) -> Roll:
        """A rule roll: the next explicit value of the action if any, else the generator."""
        rng = self.rng
        if self.given:
            result = roll_dice(count, sides, rng, self.given.pop(0), what)
        elif (
            rng.__class__ is _Random
            and count.__class__ is int
            and sides.__class__ is int
            and (plan := _RULE_PLANS.get(sides if count == 1 else (count, sides))) is not None
        ):
            # A roll met before (issue 15): ``roll_dice`` without its checks, its list and its texts, the same
            # draws and the same ``Roll``; one die drawn here, as ``dice.roll_plan`` draws it.
            made = plan[6]
            if count == 1 and made is not None:
                getrandbits, bits = rng.getrandbits, plan[3]
                face = getrandbits(bits)
                while face >= sides:
                    face = getrandbits(bits)
                result = made[face]  # type: ignore[assignment]
                if result is None:
                    result = made[face] = roll_of(plan, [face + 1])
            else:
                result = roll_plan(plan, rng)
        else:
            result = roll_dice(count, sides, rng, None, what)
        rolls = self.rolls
        if rolls:
            rolls.append(result)
        else:
            self.rolls = [result]
        return result

    def amount(self, amount: int | str, what: str, minimum: int | None = 0) -> Roll:
        """An amount typed by the user: a number or a dice expression.

        A rolled total is held to what a sheet can store: above ``MAX_POINTS`` it counts as
        ``MAX_POINTS``; below ``minimum`` (0: a hit that rolls −1 deals nothing, it does not heal) it
        counts as ``minimum``; the roll's detail says so. A number given as such is never changed
        (the rule refuses a negative one in French). ``minimum=None`` keeps a negative total (a
        Sévérité below 0 means « no wound »).
        """
        if amount.__class__ is int:
            found = _NUMBERS.get(amount)
            if found is None:
                text = str(amount)
                found = _tuple_new(Roll, (text, amount, text, True))
                if len(_NUMBERS) < 4096:
                    _NUMBERS[amount] = found
            return found
        if amount.__class__ is str and (rng := self.rng) is not None:
            # ``parse_amount``'s first steps (issue 15: a typed « 1d6 » cost ~11,000 CPU instructions, « 2d6 »
            # ~22,000): the text read once per text (``dice.amount_form``), a plain ``NdS±K`` rolled by its plan.
            form = AMOUNTS.get(amount) or amount_form(amount)
            if form is None:
                result = parse_amount(amount, rng, what)
            elif form.__class__ is Roll:
                return form
            else:
                result = roll_plan(form, rng)  # type: ignore[arg-type]
        elif isinstance(amount, int):
            text = str(amount)
            return Roll(text, amount, text, True)
        else:
            result = parse_amount(amount, self.rng, what)
        if not result.given:
            total = result.total
            # ``_bounded`` changes a total above ``MAX_POINTS``, below ``-MAX_POINTS`` or below ``minimum``.
            if total > MAX_POINTS or total < -MAX_POINTS or (minimum is not None and total < minimum):
                result = _bounded(result, minimum)
            rolls = self.rolls
            if rolls:
                rolls.append(result)
            else:
                self.rolls = [result]
        return result

    def finish(self, sheet: Any) -> Outcome:
        if getattr(sheet, "clock", 0) > MAX_CLOCK:
            raise Refused(CLOCK_REFUSAL)
        if self.given:
            unused = ", ".join(str(v) for v in self.given)
            self.log.append(f"Valeurs de dés non utilisées : {unused}.")
        rolls, events = self.rolls, self.events
        # ``tuple.__new__``: what ``Outcome(...)`` does, without the Python-level ``__new__`` of a NamedTuple.
        log = tuple(self.log)
        return _tuple_new(Outcome, (sheet, log, tuple(rolls) if rolls else (), tuple(events) if events else ()))


class FreshContext(Context):
    """A ``Context`` made empty, its slots stored by the caller: ``rules.apply`` makes one per action, and
    ``FreshContext()`` (no ``__init__`` of ours to call) is the cheapest way found to make an object with slots
    in CPython 3.11 (issue 15: ~1,300 CPU instructions with the six stores, against ~2,300 for ``Context(…)``
    and ~1,600 for ``object.__new__(Context)``)."""

    __slots__ = ()
    __init__ = object.__init__


def _bounded(roll: Roll, minimum: int | None) -> Roll:
    total = roll.total
    if total > MAX_POINTS:
        return roll._replace(total=MAX_POINTS, detail=f"{roll.detail} → compté {MAX_POINTS} (au plus {MAX_POINTS})")
    low = -MAX_POINTS if minimum is None else max(minimum, -MAX_POINTS)
    if total < low:
        why = "aucun effet" if low == 0 else f"au moins {fmt_int(low)}"
        return roll._replace(total=low, detail=f"{roll.detail} → compté {fmt_int(low)} ({why})")
    return roll


def signed(value: int) -> str:
    """``+2`` / ``−3`` with the typographic minus sign."""
    return f"+{value}" if value >= 0 else f"−{-value}"


def of(label: str) -> str:
    """French « de » with elision: ``of("Inconscient")`` → « d'Inconscient », ``of("Force")`` → « de Force »."""
    return f"d'{label}" if label[:1].lower() in "aeiouyhéèêàâîôû" else f"de {label}"


def plural(count: int, singular: str, plural_form: str | None = None) -> str:
    word = singular if abs(count) <= 1 else (plural_form or singular + "s")
    return f"{count} {word}"


class Term(Record):
    """One contribution to a derived number, with its reason in French."""

    __slots__ = ("value", "reason")  # noqa: RUF023  (the fields, in order)
    value: int
    reason: str

    def __init__(self, value: int, reason: str) -> None:
        _set(self, "value", value)
        _set(self, "reason", reason)


class Explained(Record):
    """A derived value and the French sentence that says how it was computed."""

    __slots__ = ("value", "text")  # noqa: RUF023  (the fields, in order)
    value: Any
    text: str

    def __init__(self, value: Any, text: str) -> None:
        _set(self, "value", value)
        _set(self, "text", text)


def explained_sum(label: str, base: int, terms: Iterable[Term], base_reason: str = "") -> Explained:
    """``maximum 8 = 14 − 6 (épuisement niveau 6)``; a sum of a base and labelled terms."""
    parts = [t for t in terms if t.value != 0]
    total = base + sum(t.value for t in parts)
    text = f"{label} {fmt_int(total)} = {fmt_int(base)}"
    if base_reason:
        text += f" ({base_reason})"
    for term in parts:
        sign = "+" if term.value > 0 else "−"
        text += f" {sign} {abs(term.value)} ({term.reason})"
    return Explained(total, text)


def explained_modifier(label: str, terms: Iterable[Term], none_text: str = "aucun") -> Explained:
    """A modifier that starts at 0: ``malus aux jets −6 = −6 (épuisement niveau 6)``."""
    parts = [t for t in terms if t.value != 0]
    total = sum(t.value for t in parts)
    if not parts:
        return Explained(0, f"{label} 0 ({none_text})")
    pieces = " ".join(
        f"{'' if i == 0 and t.value > 0 else ('+ ' if t.value > 0 else '− ' if i else '−')}{abs(t.value)} ({t.reason})"
        for i, t in enumerate(parts)
    )
    return Explained(total, f"{label} {signed(total)} = {pieces}")


def fmt_int(value: int) -> str:
    """Integers with the typographic minus sign, as French sheets print them."""
    return f"−{-value}" if value < 0 else str(value)


class Derived(Mapping[str, Explained]):
    """Derived values of a sheet, each explainable.

    Always present: ``current``, ``maximum`` (effective), ``temporary``, ``state`` (an id),
    ``roll_penalty`` (the modifier every roll gets, 0 or negative). Systems add their own; all are
    reachable as attributes (``derived.speed``) and explained by ``derived.explain("speed")``.
    ``hidden`` names the values the player must not see (the GM keeps them).
    """

    __slots__ = ("_values", "hidden", "system")

    def __init__(self, system: str, values: dict[str, Explained], hidden: frozenset[str] = frozenset()):
        self.system = system
        self._values = values
        self.hidden = hidden

    def __getitem__(self, name: str) -> Explained:
        return self._values[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __getattr__(self, name: str) -> Any:
        try:
            return self._values[name].value
        except KeyError:
            raise AttributeError(name) from None

    def explain(self, name: str) -> str:
        """The French sentence saying how ``name`` was computed."""
        return self._values[name].text

    @property
    def current(self) -> int:
        return int(self._values["current"].value)

    @property
    def maximum(self) -> int:
        return int(self._values["maximum"].value)

    @property
    def temporary(self) -> int:
        return int(self._values["temporary"].value)

    @property
    def state(self) -> str:
        return str(self._values["state"].value)

    @property
    def roll_penalty(self) -> int:
        return int(self._values["roll_penalty"].value)


class StateInfo(Record):
    """A state id with its French label and badge colour, for display."""

    __slots__ = ("id", "label", "colour")  # noqa: RUF023  (the fields, in order)
    id: str
    label: str
    colour: str

    def __init__(self, id: str, label: str, colour: str) -> None:
        _set(self, "id", id)
        _set(self, "label", label)
        _set(self, "colour", colour)
