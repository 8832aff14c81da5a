"""The rules core of sheet_app: the one public facade.

Pure Python and pydantic, no Qt. The UI and the tests use only what this module exports::

    sheet = rules.new_sheet("douaratil", name="Ulfred", base_maximum=14, current=14)
    outcome = rules.apply(sheet, rules.Damage(amount="2d6+3"), rng=random.Random())
    outcome.sheet, outcome.log          # a new sheet; French journal lines, dice shown
    d = rules.derive(outcome.sheet)
    d.maximum, d.explain("maximum")     # 8, "maximum 8 = 14 − 6 (épuisement niveau 6)"

``apply`` never mutates its input: undo anywhere in the app is "put the previous sheet back".
An action the rules forbid raises ``Refused`` with a French reason, and nothing changes.
"""

from __future__ import annotations

import functools
import importlib
import operator
import random
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import Field, TypeAdapter, ValidationError

from rules import timers
from rules.actions import (
    Action,
    AdvanceTime,
    ClearConditions,
    Damage,
    Edit,
    EndRound,
    GainTemporary,
    Heal,
    LongRest,
    LoseTemporary,
    SetCondition,
    ShortRest,
    Stabilise,
    StartTurn,
)
from rules.dice import Roll, dice_range, roll_expression
from rules.errors import (
    FIELD_LABELS,
    NeedsRoll,
    Refused,
    RulesetError,
    describe_validation_error,
    location_text,
    os_reason,
    shown_location,
)
from rules.info import (
    ChoiceInfo,
    ConditionGroupInfo,
    ConditionInfo,
    FieldInfo,
    HealthStateInfo,
    LadderInfo,
    LadderLevel,
    SystemInfo,
)
from rules.model import (
    CLOCK_REFUSAL,
    MAX_CLOCK,
    SECRET_MARK,
    Context,
    Derived,
    Explained,
    FreshContext,
    Outcome,
    SheetBase,
    evolve,
    fmt_int,
    signed,
)
from rules.odds import Chance, Odds, fmt_percent
from rules.record import Record
from rules.ruleset import keep_parsed_tables, load_ruleset
from rules.strict import file_sheets_validator
from rules.strict import twin_validator as strict_validator
from rules.strict import twins_validator as strict_list_validator
from rules.strict import type_twin as strict_types
from rules.systems import _TABLES, KNOWN, REGISTRY, System

# Each system's own names (its sheet, rule table and actions) are imported on first use: a system's
# package loads when one of its names is asked for (``__getattr__`` below) or a sheet of it is met.
# Its section imports them for the type checker only and lists them with ``_lazy`` at the end.

# --- Douaratil (seed 000) -------------------------------------------------------------------------
if TYPE_CHECKING:
    from rules.systems.douaratil import (
        AbilityCheck,
        AddExhaustion,
        AddWound,
        DeathSave,
        DouaratilRules,
        DouaratilSheet,
        HealWound,
        HeroicSurvival,
        RemoveWound,
        SetExhaustion,
        SetWoundBleeding,
        SpendActionDie,
        WakeSave,
        WillTest,
        WoundRisk,
    )
from rules.timers import Countdown, format_clock

# --- d20 (seed 001): section owned by the d20 system work ------------------------------------------
# isort: split
if TYPE_CHECKING:
    from rules.systems.d20 import (
        AbilityDamage,
        AddLocalWound,
        D20Rules,
        D20Sheet,
        FullDayRest,
        HealLocalWound,
        RestoreAbility,
        Resurrection,
        ResurrectionContribution,
        SetConstitutionBonus,
        StrenuousAction,
    )

# --- segments (seed 002): section owned by the segments system work --------------------------------
# isort: split
if TYPE_CHECKING:
    from rules.systems.segments import (
        AddFatigue,
        Extinguish,
        Fall,
        SegmentsRules,
        SegmentsSheet,
        SetBurning,
        SetExposure,
        SetFatigue,
        SetPrivation,
        SetSuffocating,
        SetSurprise,
        StandUp,
    )

# --- severite (seed 003): section owned by the Sévérité system work --------------------------------
# isort: split
if TYPE_CHECKING:
    from rules.systems.severite import (
        DiagnoseWound,
        EndConflict,
        EraseWound,
        InflictWound,
        SetHandicap,
        SeveriteRules,
        SeveriteSheet,
        Strike,
        SupernaturalHealing,
        TenacityTest,
        TreatWound,
        WorseningRisk,
    )

# The systems whose rules have landed, in the order the app offers them (known without importing them).
SYSTEMS: tuple[str, ...] = tuple(s for s in ("douaratil", "d20", "segments", "severite") if s in REGISTRY)

# Name → system id of each system's own exports (filled by ``_lazy`` in the export sections below).
_LAZY: dict[str, str] = {}


def _lazy(system_id: str, names: list[str]) -> list[str]:
    """``names`` exported by ``system_id``'s package, imported when first asked for."""
    for name in names:
        _LAZY[name] = system_id
    return names


# Name → module of the exports of the facade's own modules imported on first use (``rules.table``).
_LAZY_MODULE: dict[str, str] = {}


def __getattr__(name: str) -> Any:
    """A system's own export (``rules.DouaratilSheet``, ``rules.Strike``…): its package loads now; or
    an export of a module of the facade imported on first use (``rules.table``, ``rules.Summary``)."""
    system_id = _LAZY.get(name)
    if system_id is None:
        module_name = _LAZY_MODULE.get(name)
        if module_name is None:
            raise AttributeError(f"module 'rules' has no attribute {name!r}")
        module = importlib.import_module(module_name)
        found = module if module_name.rpartition(".")[2] == name else getattr(module, name)
        globals()[name] = found  # the next lookups are plain module attributes
        return found
    REGISTRY[system_id]  # imports the package
    value = getattr(importlib.import_module(f"rules.systems.{system_id}"), name)
    globals()[name] = value  # the next lookups are plain module attributes
    return value


Sheet = Any  # one of the system sheet models; see ``sheet_types()``


class SheetError(Refused):
    """Sheet data that does not validate; ``lines`` holds one French line per problem.

    ``locations``, parallel to ``lines``, says where each problem sits in the data as keys and list
    indices (``("wounds", 0, "days")``; ``()`` for the sheet as a whole): the file layer turns it into
    the line of the JSON file.
    """

    def __init__(
        self,
        reason: str,
        lines: list[str],
        locations: list[tuple[str | int, ...]] | None = None,
        count: int | None = None,
    ) -> None:
        super().__init__(reason)
        self.lines = lines
        self.locations = locations if locations is not None else [() for _ in lines]
        # How many errors validation found (``lines`` words the first few): what reading them cost.
        self.count = count if count is not None else len(lines)


def _invalid_sheet(prefix: str, exc: ValidationError, system_id: str | None = None) -> SheetError:
    """A sheet's pydantic error in French, its fields named in its own system's words (``System.field_labels``,
    then the shared ``FIELD_LABELS``): the same words whichever systems happen to be loaded already."""
    if system_id is None:
        first = exc.errors(include_url=False)[:1]
        loc = first[0]["loc"] if first else ()
        system_id = loc[0] if loc and isinstance(loc[0], str) and loc[0] in REGISTRY.keys() else None
    labels = REGISTRY[system_id].field_labels if system_id is not None else FIELD_LABELS
    lines = describe_validation_error(exc, labels=labels, tags=REGISTRY.keys())
    locations: list[tuple[str | int, ...]] = [
        shown_location(err["loc"], REGISTRY.keys()) for err in exc.errors(include_url=False)[: len(lines)]
    ]
    locations += [()] * (len(lines) - len(locations))
    return SheetError(prefix + " ; ".join(lines), lines, locations, exc.error_count())


def build_action(action_type: type[Action], **fields: Any) -> Action:
    """``action_type(**fields)``, with bad fields refused in French (``SheetError``, a ``Refused``).

    The way the UI turns what a user typed into an action: « 1.5 », « 999999 » or an empty amount give
    ``« montant » : doit être un nombre entier, sans décimales``, never a pydantic error.
    """
    try:
        return action_type(**fields)
    except ValidationError as exc:
        titles = {name: f.title for name, f in action_type.model_fields.items() if f.title}
        lines = describe_validation_error(exc, labels=titles)
        raise SheetError("Action refusée : " + " ; ".join(lines), lines) from None


def system(system_id: str) -> System:
    """The registered system ``system_id`` (label, rule table, actions); ``Refused`` if unknown."""
    try:
        return REGISTRY[system_id]
    except KeyError:
        known = ", ".join(SYSTEMS)
        raise Refused(
            f"Système inconnu ou pas encore disponible : « {system_id} » (systèmes disponibles : {known})."
        ) from None


def system_label(system_id: str) -> str:
    """The French label of ``system_id`` (« Sévérité »), without loading its rules; ``Refused`` if unknown."""
    label = KNOWN.get(system_id)
    return label if label is not None else system(system_id).label


def describe(system_id: str, rules_table: Any = None) -> SystemInfo:
    """How the UI lays out a sheet of ``system_id`` (fields, states, conditions, ladders, rests…)."""
    sys_ = system(system_id)
    assert sys_.info is not None, f"{system_id} has no info()"
    described = sys_.info(rules_table if rules_table is not None else sys_.ruleset())
    return described.replace(actions=(Edit, *sys_.handlers))


def ruleset(system_id: str) -> Any:
    """The shipped rule table of ``system_id`` (a validated pydantic model)."""
    return system(system_id).ruleset()


def new_sheet(system_id: str, **fields: Any) -> Sheet:
    """A new sheet of ``system_id``; bad fields raise ``SheetError`` with French lines."""
    sys_ = system(system_id)
    try:
        sheet = sys_.sheet_type.model_validate({**fields, "system": system_id})
    except ValidationError as exc:
        lines = describe_validation_error(exc, labels=sys_.field_labels)
        raise SheetError("Fiche invalide : " + " ; ".join(lines), lines) from None
    return _checked(sheet, None, "Fiche invalide : ")


def check_sheet(sheet: Sheet, rules_table: Any = None) -> Sheet:
    """``sheet`` if what pydantic alone cannot see holds under ``rules_table`` (default: the shipped table):
    ids of the table, bounds that depend on it, fields that contradict each other. ``SheetError`` (French
    lines and locations) otherwise. ``new_sheet``, ``sheet_from_data``/``json`` and ``Edit`` run it; a reader
    that validates sheets with pydantic directly must run it too."""
    return _checked(sheet, rules_table, "Fiche invalide : ")


def _checked(sheet: Sheet, rules_table: Any, prefix: str) -> Sheet:
    """``sheet`` if its system's ``check`` finds nothing wrong under ``rules_table`` (default: shipped)."""
    sys_ = REGISTRY[sheet.system]
    table = rules_table if rules_table is not None else sys_.ruleset()
    problems = list(sys_.check(sheet, table)) if sys_.check is not None else []
    problems += timers.problems(sheet, table)  # the states put for a while: the same for every system
    if not problems:
        return sheet
    lines = [f"{location_text(loc)} : {text}" if location_text(loc) else text for loc, text in problems]
    raise SheetError(prefix + " ; ".join(lines), lines, [loc for loc, _ in problems])


def demo_sheet(system_id: str) -> Sheet:
    """A filled demo sheet of ``system_id`` (for the welcome screen and screenshots)."""
    return new_sheet(system_id, **system(system_id).demo)


@functools.cache
def _sheet_adapter() -> TypeAdapter[Any]:
    """Validates any registered system's sheet, chosen by its ``system`` field."""
    types = [s.sheet_type for s in REGISTRY.values()]
    if len(types) == 1:
        return TypeAdapter(types[0])
    union = functools.reduce(operator.or_, types)
    target: Any = Annotated[union, Field(discriminator="system")]
    return TypeAdapter(target)


def _context(rules_table: Any) -> dict[str, Any] | None:
    return {"rules_table": rules_table} if rules_table is not None else None


def sheet_from_data(data: Any, rules_table: Any = None, *, strict: bool = False) -> Sheet:
    """Validate plain data (parsed JSON) as a sheet of whichever system it names.

    Its ids (conditions, wound types…) and bounds are checked against ``rules_table`` (a GM's house
    rules, from ``load_rules_table``), else against the system's shipped table. ``strict``: as data read
    from a file: JSON types exactly as the schema says (``true``, ``"3"``, ``3.0`` or ``1e-400`` are no
    integer): checked against the model's type twin first.
    """
    sheet_type: Any = None
    known_id: str | None = None
    if isinstance(data, dict):
        sys_id = data.get("system")
        if isinstance(sys_id, str) and sys_id not in REGISTRY:
            known = ", ".join(SYSTEMS)
            raise SheetError(
                f"Système inconnu : « {sys_id} » (systèmes disponibles : {known}).",
                [f"« système » : inconnu « {sys_id} »"],
                [("system",)],
            )
        if isinstance(sys_id, str):
            # The system is known: validate with its own model, so messages carry no union tag.
            sheet_type = REGISTRY[sys_id].sheet_type
            known_id = sys_id
    try:
        if strict and sheet_type is not None:
            strict_validator(sheet_type).validate_python(data, strict=True)
        if sheet_type is not None:
            sheet = sheet_type.model_validate(data, context=_context(rules_table))
        else:
            sheet = _sheet_adapter().validate_python(data, context=_context(rules_table))
    except ValidationError as exc:
        raise _invalid_sheet("Fiche invalide : ", exc, known_id) from None
    return _checked(sheet, rules_table, "Fiche invalide : ")


def sheet_from_json(text: str | bytes, rules_table: Any = None) -> Sheet:
    """Parse a sheet from JSON text (``SheetError`` with French lines on any problem); ``rules_table`` as
    for ``sheet_from_data``."""
    try:
        sheet = _sheet_adapter().validate_json(text, context=_context(rules_table))
    except ValidationError as exc:
        raise _invalid_sheet("Fiche invalide : ", exc) from None
    return _checked(sheet, rules_table, "Fiche invalide : ")


def sheet_problems(sheet: Sheet, rules_table: Any = None) -> list[str]:
    """Why ``sheet`` could not be saved and read back (under ``rules_table``): French lines, ``[]`` if none.

    The same check as on load and on ``Edit``: tests run it after every action.
    """
    try:
        sheet_from_data(sheet_to_data(sheet), rules_table)
    except SheetError as exc:
        return exc.lines
    return []


def sheet_to_json(sheet: Sheet, indent: int | None = 2) -> str:
    """A sheet as JSON text (UTF-8, human readable); ``sheet_from_json`` gives it back equal."""
    return str(sheet.model_dump_json(indent=indent))


def sheet_to_data(sheet: Sheet) -> dict[str, Any]:
    """A sheet as plain JSON-compatible data."""
    data: dict[str, Any] = sheet.model_dump(mode="json")
    return data


def _edit(sheet: Sheet, action: Edit, ctx: Context, sys_: System) -> Sheet:
    changes = dict(action.changes)
    # The states put for a while are the facade's (rules/timers.py): edited after the system's own
    # fields, so no system sees a field it does not know.
    timed = changes.pop("condition_timers", _UNSET)
    if not changes and timed is not _UNSET:
        return _checked(_edit_timers(sheet, timed, ctx, sys_), ctx.ruleset, "Valeur refusée : ")
    forbidden = {"system"} & set(changes)
    if forbidden:
        raise Refused("Le système d'une fiche ne se change pas.")
    unknown = [k for k in changes if k not in sys_.sheet_type.model_fields]
    if unknown:
        raise Refused("Champ inconnu : " + ", ".join(f"« {k} »" for k in unknown) + ".")
    data = sheet.model_dump()
    data.update(changes)
    if sys_.prepare_edit is not None:
        data = sys_.prepare_edit(sheet, data)
    try:
        # The rule table in force checks the ids; ``edit``: consequences (clamps) come in ``after_edit``.
        new = sys_.sheet_type.model_validate(data, context={"rules_table": ctx.ruleset, "edit": True})
    except ValidationError as exc:
        lines = describe_validation_error(exc, labels=sys_.field_labels)
        raise SheetError("Valeur refusée : " + " ; ".join(lines), lines) from None
    labels: dict[str, str] | None = None
    for key in changes:
        before, after = getattr(sheet, key), getattr(new, key)
        if before == after:
            continue
        line = sys_.edit_line(key, before, after, ctx.ruleset) if sys_.edit_line is not None else None
        if line is None:
            if key not in FIELD_LABELS and labels is None and sys_.info is not None:
                labels = {f.name: f.label for f in sys_.info(ctx.ruleset).fields}
            label = sys_.field_labels.get(key) or FIELD_LABELS.get(key) or (labels or {}).get(key, key)
            line = f"{label[:1].upper() + label[1:]} : {_show(before)} → {_show(after)}."
        ctx.say(line)
    if sys_.after_edit is not None:
        new = sys_.after_edit(sheet, new, ctx.ruleset, ctx)
    if timed is not _UNSET:
        new = _edit_timers(new, timed, ctx, sys_)
    return _checked(new, ctx.ruleset, "Valeur refusée : ")


_UNSET: Any = object()


def _edit_timers(sheet: Sheet, value: Any, ctx: Context, sys_: System) -> Sheet:
    """``Edit(changes={"condition_timers": …})``: validated as the sheet's field, journaled with labels."""
    data = sheet.model_dump()
    data["condition_timers"] = value
    try:
        new = sys_.sheet_type.model_validate(data, context={"rules_table": ctx.ruleset})
    except ValidationError as exc:
        lines = describe_validation_error(exc)
        raise SheetError("Valeur refusée : " + " ; ".join(lines), lines) from None
    if new.condition_timers != sheet.condition_timers:
        ctx.say(timers.edit_line(sheet.condition_timers, new.condition_timers, ctx.ruleset))
    return evolve(sheet, condition_timers=new.condition_timers)


def field_label(system_id: str, key: str, rules_table: Any = None) -> str:
    """The French label of a sheet's stored field ``key`` (what an ``Edit``'s journal calls it)."""
    sys_ = system(system_id)
    label = sys_.field_labels.get(key) or FIELD_LABELS.get(key)
    if label is None and sys_.info is not None:
        table = rules_table if rules_table is not None else sys_.ruleset()
        label = next((f.label for f in sys_.info(table).fields if f.name == key), None)
    return label or key


def _show(value: Any) -> str:
    """A stored value as the journal of an ``Edit`` shows it (French, never Python's ``None``)."""
    if value is None:
        return "(aucun)"
    if isinstance(value, bool):
        return "oui" if value else "non"
    if isinstance(value, int):
        return fmt_int(value)
    if isinstance(value, str):
        return f"« {value} »" if value else "(vide)"
    if isinstance(value, (tuple, list)):
        return ", ".join(_show(v) for v in value) if value else "(aucun)"
    return str(value)


# The systems already imported, by id: ``apply`` looks its system up here first (issue 15: one dict lookup
# per action instead of ``Registry.get``); ``system()`` imports one on first use.
_LOADED: dict[str, System] = REGISTRY._loaded

# How ``_apply`` runs each action type, worked out once per type (issue 15: ``isinstance`` against a pydantic
# model class walks its metaclass; two of them per action cost more than reading them here): ``_PLAIN`` the
# system's handler alone, ``_TIMED`` a ``SetCondition`` (its duration checked, its timer noted), ``_TIME`` an
# ``AdvanceTime`` (cut at each timer's end when the sheet has timers).
_PLAIN, _TIMED, _TIME = 0, 1, 2
_ROUTES: dict[type, int] = {}


def _route(action_type: type) -> int:
    route = _PLAIN
    if issubclass(action_type, SetCondition):
        route = _TIMED
    elif issubclass(action_type, AdvanceTime):
        route = _TIME
    _ROUTES[action_type] = route
    return route


def _apply(sheet: Sheet, action: Action, rng: random.Random | None, table: Any) -> Outcome:
    """``action`` applied with the rule table ``table`` as given, without the house notes (what
    ``house.explain`` replays to find the house values that changed an outcome)."""
    return apply(sheet, action, rng, _AsGiven(table))


class _AsGiven:
    """A rule table ``apply`` takes as it is (``_apply``): no house notes asked for it."""

    __slots__ = ("table",)

    def __init__(self, table: Any) -> None:
        self.table = table


_tuple_new = tuple.__new__


def new_timers(sheet: Sheet) -> bool:
    """Whether ``sheet`` has states put for a while (``rules.timers``)."""
    return bool(getattr(sheet, "condition_timers", ()))


def countdowns(sheet: Sheet, rules_table: Any = None) -> tuple[timers.Countdown, ...]:
    """What counts down on ``sheet`` (timed states, the systems' own waits), each in French."""
    table = rules_table if rules_table is not None else system(sheet.system).ruleset()
    return timers.countdowns(sheet, table)


def apply(sheet: Sheet, action: Action, rng: random.Random | None = None, rules_table: Any = None) -> Outcome:
    """Apply ``action`` to ``sheet``: a new sheet and a French journal (the input is never changed).

    ``rng`` rolls the dice the action does not give explicitly (``action.rolls``). ``rules_table``
    replaces the shipped rule table (a GM's house rules, ``rules.house``): the journal then ends with
    the house values that changed what happened (« Règles maison en jeu : … »), and a refusal due to
    one says so.
    Raises ``Refused`` (French reason) when the rules forbid the action; nothing changes then.
    """
    # Issue 15: every action of every system comes through here, so this is one function: no ``_apply``, no
    # ``Context.__init__``, no ``Context.finish`` call (an action that changes nothing cost ~10,400 CPU
    # instructions through here, ~7,500 now); ``Context.__init__`` and ``Context.finish`` do the same steps.
    system_id = sheet.system
    if rules_table is None:
        try:  # the system and its shipped table, once loaded (``sys_.ruleset()`` without the call)
            sys_ = _LOADED[system_id]
            table = _TABLES[system_id]
        except KeyError:
            sys_ = _LOADED.get(system_id) or system(system_id)
            table = sys_.ruleset()
    else:
        if rules_table.__class__ is _AsGiven:
            table = rules_table.table
        else:
            source = house.attribution_of(system_id, rules_table)
            if source is not None:
                return house.explain.noted_outcome(_apply, sheet, action, rng, rules_table, source)
            table = rules_table
        sys_ = _LOADED.get(system_id) or system(system_id)
    # ``Context(rng, table, action.rolls)``: a ``FreshContext``, its slots stored here.
    ctx = FreshContext()
    ctx.rng = rng
    ctx.ruleset = table
    given = action.rolls
    ctx.given = list(given) if given else ()
    ctx.log = []
    ctx.rolls = ctx.events = ()
    action_type = type(action)
    handler = sys_.handlers.get(action_type)
    if handler is None:
        if action.kind != "edit":
            raise Refused(f"« {action.title()} » n'existe pas dans les règles {sys_.label}.")
        assert isinstance(action, Edit)
        new = _edit(sheet, action, ctx, sys_)
    else:
        try:  # ``[]`` on a dict, not ``get`` (issue 15, session 8: −100 to −180 instructions an action)
            route = _ROUTES[action_type]
        except KeyError:
            route = _route(action_type)
        if route == _PLAIN:
            new = handler(sheet, action, ctx)
        # States put for a while (rules/timers.py): one mechanism around every system's handlers.
        elif route == _TIMED:
            a = action.__dict__
            if a["duration"] is None and a["unit"] is None and not a["until_conflict_end"]:
                # No duration asked (the common case): nothing for ``timers.check`` to refuse, and a timer to
                # drop only when a state is taken off a sheet that has timers (``timers.after_set_condition``).
                new = handler(sheet, action, ctx)
                if not a["active"] and new.condition_timers:
                    new = timers.after_set_condition(new, action, ctx)  # type: ignore[arg-type]
            else:
                timers.check(action, table, sys_.handlers)  # type: ignore[arg-type]
                new = timers.after_set_condition(handler(sheet, action, ctx), action, ctx)  # type: ignore[arg-type]
        elif sheet.condition_timers:
            new = timers.advance(sheet, action, ctx, handler, sys_.handlers, table)  # type: ignore[arg-type]
        else:
            new = handler(sheet, action, ctx)
    if new.condition_timers:  # ``new_timers(new)``
        conflict_over = action.kind == "end_conflict"
        if new.clock != sheet.clock or conflict_over or new is not sheet:
            new = timers.expire(new, ctx, sys_.handlers, conflict_over=conflict_over)
    after = sys_.after_action
    if after is not None:
        new = after(new, action)
    # ``ctx.finish(new)``
    if new.clock > MAX_CLOCK:
        raise Refused(CLOCK_REFUSAL)
    if ctx.given:
        ctx.log.append(f"Valeurs de dés non utilisées : {', '.join(str(v) for v in ctx.given)}.")
    rolls, events = ctx.rolls, ctx.events
    return _tuple_new(Outcome, (new, tuple(ctx.log), tuple(rolls) if rolls else (), tuple(events) if events else ()))


def derive(sheet: Sheet, rules_table: Any = None) -> Derived:
    """Derived values of ``sheet`` (effective maxima, penalties, state...), each explainable.

    Under house rules (``rules_table``), each explanation names the house values it depends on.
    """
    sys_ = system(sheet.system)
    if rules_table is None:
        return sys_.derive(sheet, sys_.ruleset())
    derived = sys_.derive(sheet, rules_table)
    source = house.attribution_of(sheet.system, rules_table)
    return derived if source is None else house.explain.explained(derived, sheet, source, sys_.derive)


def supports(system_id: str, action_type: type[Action]) -> bool:
    """Whether ``system_id``'s rules know ``action_type`` (the UI shows only those controls)."""
    return action_type is Edit or action_type in system(system_id).handlers


# --- Odds (issue 17): each roll the rules can ask, with its exact chance -----------------------------


def sheet_odds(sheet: Sheet, rules_table: Any = None) -> Odds:
    """Every roll the rules can ask of ``sheet`` now, with its exact chance and how it is made, and a dying
    character's chance of pulling through from where it stands (``Odds.survival``).

    The interface shows these and computes nothing: ``chance.percent`` (« 62,5 % ») beside the roll,
    ``chance.text`` (« Jet contre la mort : 3d6 − 2 (épuisement niveau 2) ≥ 10 : 37,5 % ») on hover.
    """
    sys_ = system(sheet.system)
    provider = sys_.odds()
    if provider is None:
        return Odds()
    table = rules_table if rules_table is not None else sys_.ruleset()
    return Odds(tuple(provider.rolls(sheet, table)), provider.survival(sheet, table))


def survival_odds(sheet: Sheet, rules_table: Any = None) -> Chance | None:
    """Only the dying character's chance of pulling through (None when not dying): what a GM's table row
    shows, without the other rolls."""
    sys_ = system(sheet.system)
    provider = sys_.odds()
    if provider is None:
        return None
    return provider.survival(sheet, rules_table if rules_table is not None else sys_.ruleset())


def action_odds(sheet: Sheet, action: Action, rules_table: Any = None) -> tuple[Chance, ...]:
    """The rolls ``action`` would make on ``sheet``, with the values chosen in its dialog (a first-aid
    bonus, a caster level, an Opposition…); empty when the action rolls nothing the rules can foresee."""
    sys_ = system(sheet.system)
    provider = sys_.odds()
    if provider is None:
        return ()
    table = rules_table if rules_table is not None else sys_.ruleset()
    return tuple(provider.for_action(sheet, table, action))


def load_rules_table(system_id: str, path: Any) -> Any:
    """A GM's own copy of a rule table, validated like the shipped one (``RulesetError`` if broken)."""
    from pathlib import Path

    return load_ruleset(system(system_id).ruleset_type, Path(path))


__all__ = [
    "SECRET_MARK",
    "SYSTEMS",
    "Action",
    "AdvanceTime",
    "ChoiceInfo",
    "ClearConditions",
    "ConditionGroupInfo",
    "ConditionInfo",
    "Countdown",
    "Damage",
    "Derived",
    "Edit",
    "EndRound",
    "Explained",
    "FieldInfo",
    "GainTemporary",
    "Heal",
    "HealthStateInfo",
    "LadderInfo",
    "LadderLevel",
    "LongRest",
    "LoseTemporary",
    "NeedsRoll",
    "Outcome",
    "Record",
    "Refused",
    "Roll",
    "RulesetError",
    "SetCondition",
    "SheetBase",
    "SheetError",
    "ShortRest",
    "Stabilise",
    "StartTurn",
    "System",
    "SystemInfo",
    "apply",
    "build_action",
    "check_sheet",
    "countdowns",
    "demo_sheet",
    "derive",
    "describe",
    "dice_range",
    "evolve",
    "field_label",
    "file_sheets_validator",
    "format_clock",
    "keep_parsed_tables",
    "load_rules_table",
    "new_sheet",
    "os_reason",
    "roll_expression",
    "ruleset",
    "sheet_from_data",
    "sheet_from_json",
    "sheet_problems",
    "sheet_to_data",
    "sheet_to_json",
    "signed",
    "strict_list_validator",
    "strict_types",
    "strict_validator",
    "supports",
    "system",
    "system_label",
]

# --- Douaratil exports (seed 000) -----------------------------------------------------------------
__all__ += _lazy(
    "douaratil",
    [
        "AbilityCheck",
        "AddExhaustion",
        "AddWound",
        "DeathSave",
        "DouaratilRules",
        "DouaratilSheet",
        "HealWound",
        "HeroicSurvival",
        "RemoveWound",
        "SetExhaustion",
        "SetWoundBleeding",
        "SpendActionDie",
        "WakeSave",
        "WillTest",
        "WoundRisk",
    ],
)

# --- d20 exports (seed 001) -----------------------------------------------------------------------
__all__ += _lazy(
    "d20",
    [
        "AbilityDamage",
        "AddLocalWound",
        "D20Rules",
        "D20Sheet",
        "FullDayRest",
        "HealLocalWound",
        "RestoreAbility",
        "Resurrection",
        "ResurrectionContribution",
        "SetConstitutionBonus",
        "StrenuousAction",
    ],
)

# --- segments exports (seed 002) ------------------------------------------------------------------
__all__ += _lazy(
    "segments",
    [
        "AddFatigue",
        "Extinguish",
        "Fall",
        "SegmentsRules",
        "SegmentsSheet",
        "SetBurning",
        "SetExposure",
        "SetFatigue",
        "SetPrivation",
        "SetSuffocating",
        "SetSurprise",
        "StandUp",
    ],
)

# --- severite exports (seed 003) ------------------------------------------------------------------
__all__ += _lazy(
    "severite",
    [
        "DiagnoseWound",
        "EndConflict",
        "EraseWound",
        "InflictWound",
        "SetHandicap",
        "SeveriteRules",
        "SeveriteSheet",
        "Strike",
        "SupernaturalHealing",
        "TenacityTest",
        "TreatWound",
        "WorseningRisk",
    ],
)

# --- the game master's table (issue 11): section owned by the table work ---------------------------
# Imported when first asked for (``rules.table``, ``rules.Summary``, ``rules.summarise``): a start that
# opens a sheet has no GM table to show (issue 15: the module's import, ~3 ms of every start).
# isort: split
if TYPE_CHECKING:
    from rules import table
    from rules.table import Summary, summarise

_LAZY_MODULE["table"] = _LAZY_MODULE["Summary"] = _LAZY_MODULE["summarise"] = "rules.table"
__all__ += ["Summary", "summarise", "table"]

# --- house rules (issue 18): section owned by the house-rules work ---------------------------------
# isort: split
from rules import house  # noqa: E402  (apply and derive name the house values they use)
from rules.house import HouseRules, HouseRulesError  # noqa: E402

# ``rules.Difference`` is ``rules.house``'s, whose module is imported when first asked for (issue 15).
if TYPE_CHECKING:
    from rules.house import Difference
_LAZY_MODULE["Difference"] = "rules.house.differences"

__all__ += ["Difference", "HouseRules", "HouseRulesError", "house"]

# --- odds exports (issue 17) ----------------------------------------------------------------------
__all__ += [
    "Chance",
    "Odds",
    "action_odds",
    "fmt_percent",
    "sheet_odds",
    "survival_odds",
]
