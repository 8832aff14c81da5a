"""Every die roll of the rules core.

A roll comes from a ``random.Random`` the caller passes, or from an explicit value given in the action
(``Action.rolls``): tests are deterministic and the app shows what was rolled. Plain expressions
(« 2d6+3 », « d20 », « 1d8-1 ») are rolled here, in the d20 library's journal format and with its draws;
anything else (« 4d6kh3 », « 1d6*2 ») goes to the ``d20`` library, imported only then (its parser costs
some 80 ms at start-up), with its randomness routed through the caller's generator.
"""

from __future__ import annotations

import functools
import math
import random
import re
import threading
from typing import Any, NamedTuple

from rules.errors import NeedsRoll, Refused

# d20 draws from the module-level ``random`` of ``d20.expression``; we swap in the caller's generator
# for the time of one roll. The lock keeps two threads from seeing each other's generator.
_D20_LOCK = threading.Lock()
# The d20 library, its roller and stringifier: imported when an expression first needs them.
_d20: Any = None
_ROLLER: Any = None
_STRINGIFIER: Any = None

_SIMPLE_DICE = re.compile(r"^\s*(\d*)\s*[dD]\s*(\d+)\s*$")
# The plain ``NdS±K`` expressions a sheet rolls most (« 1d6+2 », « 2d6 »), rolled without the d20 parser.
_PLAIN_DICE = re.compile(r"(\d{0,3})d(\d{1,4})(?:\s*([+-])\s*(\d{1,6}))?")
# « 2D6 » as the seeds write dice: the library reads only « 2d6 ».
_UPPER_D = re.compile(r"(?<![A-Za-z])D(?=\d|%)")
MAX_EXPRESSION_LENGTH = 80
# Dice one expression may roll (the d20 library's own limit, kept for plain expressions too).
MAX_DICE = 1000
# A whole number as a user types it (« 7 », « -3 », « +2 »).
INTEGER = re.compile(r"[+-]?\d+")
# A number with decimals, which no amount accepts (« 1.5 », « 2,5 »).
DECIMAL = re.compile(r"[+-]?\d*[.,]\d+")


class Roll(NamedTuple):
    """One roll as the journal shows it."""

    expression: str
    total: int
    detail: str
    given: bool = False


def _parse_simple(expression: str) -> tuple[int, int] | None:
    match = _SIMPLE_DICE.match(expression)
    if not match:
        return None
    count = int(match.group(1) or 1)
    return count, int(match.group(2))


def dice_range(expression: str) -> tuple[int, int] | None:
    """Lowest and highest total of a plain ``NdS`` expression, ``None`` for anything else."""
    parsed = _parse_simple(expression)
    if parsed is None:
        return None
    count, sides = parsed
    return count, count * sides


# d20's own English messages, in French (the expression is named before them).
_D20_MESSAGES: dict[str, str] = {
    "Cannot divide by zero.": "division par zéro",
    "Cannot roll a 0-sided die.": "un dé à 0 face ne se lance pas",
    "Too many dice rolled.": f"trop de dés (au plus {MAX_DICE})",
}


def _french(exc: Exception) -> str:
    text = str(exc)
    if text in _D20_MESSAGES:
        return _D20_MESSAGES[text]
    if "not a valid selector" in text:
        return "sélecteur de dés invalide"
    return "expression impossible à calculer"


def _too_many(expression: str) -> Refused:
    return Refused(f"« {expression} » lance trop de dés (au plus {MAX_DICE}).")


# A plain ``NdS±K``, worked out once (issue 15: a typed dice hit cost 11,000 to 22,000 CPU instructions more than a
# typed number, through three Python calls per die and its text built anew each time):
# ``(expression, count, sides, bits, bonus, pattern, made)``. ``bits`` is what ``random.Random._randbelow(sides)``
# asks of ``getrandbits``; ``pattern.format(faces, total)`` is the journal's detail; ``made`` keeps the ``Roll`` of
# each result already met, at its draws (each face − 1) read as one number in base ``sides`` (``None`` when the
# expression has too many results to keep them: more than ``MAX_KEPT``).
Plan = tuple[str, int, int, int, int, str, "list[Roll | None] | None"]
MAX_KEPT = 216


def _plan(expression: str, count: int, sides: int, bonus: int, pattern: str) -> Plan:
    made: list[Roll | None] | None = [None] * sides**count if count <= 3 and sides**count <= MAX_KEPT else None
    return (expression, count, sides, sides.bit_length(), bonus, pattern, made)


@functools.lru_cache(maxsize=256)
def _plain_form(expression: str) -> Plan | None:
    """``"2d6+3"`` → its ``Plan`` (count 2, sides 6, bonus 3, detail « 2d6 (…) + 3 = … »); ``None`` when the
    expression is not a plain ``NdS±K`` the fast path rolls."""
    match = _PLAIN_DICE.fullmatch(expression)
    if match is None:
        return None
    count = int(match.group(1) or 1)
    sides = int(match.group(2))
    if not (1 <= count <= 100 and 1 <= sides <= 1000):
        return None
    sign, bonus = match.group(3), int(match.group(4) or 0)
    pattern = f"{count}d{sides} ({{}})" + (f" {sign} {bonus}" if sign else "") + " = {}"
    return _plan(expression, count, sides, -bonus if sign == "-" else bonus, pattern)


# The rules' own rolls (``roll_dice``: « 1d6 = 4 », « 3d6 (1, 5, 2) = 8 »), by sides for one die, by (count,
# sides) for more.
_RULE_PLANS: dict[int | tuple[int, int], Plan] = {}


def rule_plan(count: int, sides: int) -> Plan | None:
    """The ``Plan`` of a rule roll of ``count``d``sides`` as ``roll_dice`` writes it; ``None`` outside 1 to 100
    dice of 1 to 1,000 sides (``roll_dice`` rolls those)."""
    if count.__class__ is not int or sides.__class__ is not int:
        return None
    key = sides if count == 1 else (count, sides)
    plan = _RULE_PLANS.get(key)
    if plan is None:
        if not (1 <= count <= 100 and 1 <= sides <= 1000):
            return None
        pattern = f"{count}d{sides} = {{1}}" if count == 1 else f"{count}d{sides} ({{}}) = {{}}"
        plan = _RULE_PLANS[key] = _plan(f"{count}d{sides}", count, sides, 0, pattern)
    return plan


_Random = random.Random
_tuple_new = tuple.__new__


def draw(rng: random.Random, sides: int) -> int:
    """``rng.randrange(sides) + 1``, one die's face (what ``randint(1, sides)`` draws). For a plain
    ``random.Random`` and a whole ``sides`` of at least 1, ``randrange`` is its ``_randbelow`` after checks
    that cannot fail: called directly (issue 15: a Python call less for every die); any other generator
    (a subclass that scripts its draws, ``SystemRandom``) is asked through ``randrange``."""
    if type(rng) is _Random and type(sides) is int and sides > 0:
        return rng._randbelow(sides) + 1  # type: ignore[attr-defined, no-any-return]
    return rng.randrange(sides) + 1


def roll_of(plan: Plan, faces: list[int]) -> Roll:
    """The ``Roll`` of ``plan`` whose dice show ``faces``."""
    total = sum(faces) + plan[4]
    return _tuple_new(Roll, (plan[0], total, plan[5].format(", ".join(map(str, faces)), total), False))


def roll_plan(plan: Plan, rng: random.Random) -> Roll:
    """``plan`` rolled with ``rng``: each die ``rng.randrange(sides) + 1`` in turn, as ``draw`` and the d20 library
    draw it. For a plain ``random.Random``, ``randrange(sides)`` is ``_randbelow(sides)``, whose loop is written
    out here (issue 15: two Python calls less per die; ``test_dice_plans`` holds it to the library's draws), and
    a result already met is its ``Roll`` again (``Roll`` is immutable)."""
    if rng.__class__ is not _Random:
        return _asked(plan, rng)
    _, count, sides, bits, _, _, made = plan
    getrandbits = rng.getrandbits
    if made is None:
        faces = []
        for _ in range(count):
            r = getrandbits(bits)
            while r >= sides:
                r = getrandbits(bits)
            faces.append(r + 1)
        return roll_of(plan, faces)
    key = getrandbits(bits)
    while key >= sides:
        key = getrandbits(bits)
    if count > 1:
        for _ in range(count - 1):
            r = getrandbits(bits)
            while r >= sides:
                r = getrandbits(bits)
            key = key * sides + r
    roll = made[key]
    if roll is None:
        roll = made[key] = roll_of(plan, faces_of(key, count, sides))
    return roll


def _asked(plan: Plan, rng: random.Random) -> Roll:
    """``plan`` rolled by asking ``rng.randrange`` for each die (a generator that is not a plain ``random.Random``:
    a subclass that scripts its draws, ``SystemRandom``). Apart from ``roll_plan``: its comprehension would make
    ``roll_plan`` keep ``rng`` and ``sides`` in cells on every call."""
    sides = plan[2]
    return roll_of(plan, [rng.randrange(sides) + 1 for _ in range(plan[1])])


def faces_of(key: int, count: int, sides: int) -> list[int]:
    """The faces of ``count`` dice whose draws (each face − 1) read as one number in base ``sides`` make ``key``."""
    faces = []
    for _ in range(count):
        key, r = divmod(key, sides)
        faces.append(r + 1)
    faces.reverse()
    return faces


def _roll_plain(expression: str, rng: random.Random) -> Roll | None:
    """``NdS±K`` rolled exactly as the d20 library rolls and writes it (same draws from ``rng``, same detail),
    at a fraction of its cost; ``None`` for anything else (the library handles it, with its bounds and our
    French refusals)."""
    plan = _plain_form(expression)
    if plan is None:
        return None
    return roll_plan(plan, rng)


# How ``parse_amount`` reads each text met (``amount_form``), at most ``MAX_AMOUNTS`` of them.
AMOUNTS: dict[str, Roll | Plan | None] = {}
MAX_AMOUNTS = 512


def amount_form(amount: str) -> Roll | Plan | None:
    """How ``parse_amount`` reads the text ``amount``, worked out once per text (issue 15): a whole number is
    its given ``Roll`` itself; a plain ``NdS±K`` is its ``Plan``, rolled by ``roll_plan``; anything else is
    ``None`` (``parse_amount`` then says what is wrong, or the d20 library rolls it)."""
    try:
        return AMOUNTS[amount]
    except KeyError:
        pass
    text = amount.strip()
    form: Roll | Plan | None
    if INTEGER.fullmatch(text):
        value = int(text)
        form = Roll(text, value, text, given=True)
    elif not text or len(text) > MAX_EXPRESSION_LENGTH:
        form = None
    else:
        form = _plain_form(text)
    if len(AMOUNTS) < MAX_AMOUNTS:
        AMOUNTS[amount] = form
    return form


def _library() -> Any:
    """The d20 library, imported on first need (it builds a parser at import)."""
    global _d20, _ROLLER, _STRINGIFIER
    with _D20_LOCK:
        if _d20 is None:
            import d20
            import d20.expression

            _ROLLER, _STRINGIFIER = d20.Roller(), d20.SimpleStringifier()
            _d20 = d20
    return _d20


def _roll_library(expression: str, rng: random.Random) -> Roll:
    """Any other expression, rolled by the d20 library; ``expression`` is what the user typed."""
    d20 = _library()
    with _D20_LOCK:
        saved = d20.expression.random
        d20.expression.random = rng
        try:
            result = _ROLLER.roll(_UPPER_D.sub("d", expression), stringifier=_STRINGIFIER)
            # ``total`` is computed lazily: a division by zero surfaces here, inside the guard.
            raw_total = result.total
            detail = str(result).replace("`", "")
        except d20.TooManyRolls:
            raise _too_many(expression) from None
        except d20.RollSyntaxError:
            raise Refused(
                f"« {expression} » n'est pas une expression de dés valide (exemples : 7, 2d6+3, 1d8-1)."
            ) from None
        except d20.RollError as exc:
            raise Refused(f"« {expression} » ne peut pas être lancé ({_french(exc)}).") from None
        except (ArithmeticError, ValueError, RecursionError, MemoryError, LookupError) as exc:
            raise Refused(f"« {expression} » ne peut pas être lancé ({_french(exc)}).") from None
        finally:
            d20.expression.random = saved
    try:
        total = math.floor(raw_total)
    except (OverflowError, ValueError):
        raise Refused(f"« {expression} » donne un résultat qui n'est pas un nombre.") from None
    if total != raw_total:
        detail += f" → {total} (arrondi à l'entier inférieur)"
    return Roll(expression, total, detail)


def roll_expression(expression: str, rng: random.Random) -> Roll:
    """Roll a dice expression with ``rng``; a bad expression raises ``Refused`` in French.

    A total with decimals (``7/2``) is rounded down, and the detail says so.
    """
    expression = expression.strip()
    if not expression:
        raise Refused("Expression de dés vide.")
    if len(expression) > MAX_EXPRESSION_LENGTH:
        raise Refused(f"Expression de dés trop longue (au plus {MAX_EXPRESSION_LENGTH} caractères).")
    plain = _roll_plain(expression, rng)
    if plain is not None:
        return plain
    return _roll_library(expression, rng)


def parse_amount(amount: int | str, rng: random.Random | None, what: str) -> Roll:
    """An amount given as a number ("7") or a dice expression ("2d6+3")."""
    if amount.__class__ is str and rng is not None:
        form = amount_form(amount)
        if form is not None:
            if form.__class__ is Roll:
                return form
            return roll_plan(form, rng)  # type: ignore[arg-type]
    if isinstance(amount, int):
        return Roll(str(amount), amount, str(amount), given=True)
    text = amount.strip()
    if INTEGER.fullmatch(text):
        value = int(text)
        return Roll(text, value, text, given=True)
    if rng is None:
        raise NeedsRoll(f"{what} « {text} » demande un lancer de dés, mais aucun dé n'a été fourni.")
    return roll_expression(text, rng)


def roll_dice(
    count: int,
    sides: int,
    rng: random.Random | None,
    given: int | None,
    what: str,
) -> Roll:
    """Roll ``count``d``sides`` (a rule roll), or take the explicit ``given`` total after checking it."""
    expression = f"{count}d{sides}"
    if given is not None:
        low, high = count, count * sides
        if not low <= given <= high:
            raise Refused(f"{what} : {given} est impossible sur {expression} (de {low} à {high}).")
        return Roll(expression, given, f"{expression} = {given} (valeur donnée)", given=True)
    if rng is None:
        raise NeedsRoll(f"{what} : lancez {expression} ou donnez la valeur obtenue.")
    plan = rule_plan(count, sides)
    if plan is not None:
        return roll_plan(plan, rng)
    faces = []
    for _ in range(count):  # a loop, not a comprehension: ``rng`` and ``sides`` stay out of cells
        faces.append(draw(rng, sides))  # randrange(s) + 1 draws what randint(1, s) draws, faster
    total = sum(faces)
    if count == 1:
        detail = f"{expression} = {total}"
    else:
        detail = f"{expression} ({', '.join(str(f) for f in faces)}) = {total}"
    return Roll(expression, total, detail)
