"""Actions common to the rule systems (pydantic models).

Every action may carry ``rolls``: explicit die results, used in order by the dice the rules roll for
that action (a player rolling real dice types them; tests give them). Without them the ``rng`` passed
to ``rules.apply`` rolls.
"""

from typing import Any, Literal

from pydantic import ConfigDict, Field, field_validator

from rules.dice import DECIMAL, INTEGER, MAX_EXPRESSION_LENGTH
from rules.model import MAX_POINTS, Frozen

MAX_HITS = 100
MAX_TIME_COUNT = 100_000


class Action(Frozen):
    """Base of every action."""

    # Each action's validator is built when it is first used, not when its class is made (issue 15: a
    # start makes the ~30 action classes of the core and of its system, and validates none before the
    # user's first edit; building them all was ~30 ms of a start).
    model_config = ConfigDict(defer_build=True)

    kind: str
    rolls: tuple[int, ...] = Field((), max_length=1000)

    def title(self) -> str:
        """Short French name, for menus and undo ("Dégâts 7")."""
        return self.kind


Amount = int | str


def check_amount(value: Any) -> Amount:
    """One rule for every amount a user gives, typed as a number or as text (« 7 », « -3 », « 2d6+3 »).

    A whole number, typed or not, is held to ±``MAX_POINTS`` (a sheet beyond could not be saved); a
    number with decimals is refused in both forms; a dice expression is kept as text (its rolled total is
    bounded when it is rolled, ``Context.amount``). Negative numbers pass here: each rule says in French
    why it refuses them (« utilisez Soins »).
    """
    if isinstance(value, bool):
        raise ValueError("doit être un nombre entier ou une expression de dés (exemple : 2d6+3)")
    if isinstance(value, float):
        if not value.is_integer():
            raise ValueError("doit être un nombre entier, sans décimales")
        value = int(value)
    if isinstance(value, int):
        if not -MAX_POINTS <= value <= MAX_POINTS:
            raise ValueError(f"doit être entre −{MAX_POINTS:,} et {MAX_POINTS:,}".replace(",", "\u202f"))
        return value
    if not isinstance(value, str):
        raise ValueError("doit être un nombre entier ou une expression de dés (exemple : 2d6+3)")
    text = value.strip()
    if not text:
        raise ValueError("est vide")
    if len(text) > MAX_EXPRESSION_LENGTH:
        raise ValueError(f"est trop long (au plus {MAX_EXPRESSION_LENGTH} caractères)")
    if INTEGER.fullmatch(text):
        return check_amount(int(text))
    if DECIMAL.fullmatch(text):
        raise ValueError("doit être un nombre entier, sans décimales")
    return text


class Damage(Action):
    """Dégâts: ``amount`` per hit (a number or a dice expression, rolled once per hit).

    ``hits`` > 1 is several hits of the same attack pattern (damage reduction applies to each).
    ``critical``: the attack itself is a critical (Douaratil: three 6 on the attack).
    ``adjacent``: the attacker stands within 1.5 m (Douaratil: hits on the unconscious are critical).
    ``body_part``: a localised wound (d20: −2 to actions using that part).
    ``spell_check``: the caster's result against a magic resistance (segments).
    ``save_halves``: a save that halves this damage succeeded.
    ``single_attack``: the amount comes from one attack (d20 massive damage needs one attack).
    """

    kind: Literal["damage"] = "damage"
    amount: Amount
    nonlethal: bool = False
    damage_type: str | None = Field(None, max_length=60)
    hits: int = Field(1, ge=1, le=MAX_HITS)
    critical: bool = False
    adjacent: bool = False
    body_part: str | None = Field(None, max_length=60)
    spell_check: int | None = None
    save_halves: bool = False
    single_attack: bool = True

    _amount = field_validator("amount", mode="before")(check_amount)

    def title(self) -> str:
        what = "Dégâts non létaux" if self.nonlethal else "Dégâts"
        hits = f" ×{self.hits}" if self.hits > 1 else ""
        return f"{what} {self.amount}{hits}"


class Heal(Action):
    """Soins: ``magical`` for spells and potions (some systems treat them apart)."""

    kind: Literal["heal"] = "heal"
    amount: Amount
    magical: bool = False

    _amount = field_validator("amount", mode="before")(check_amount)

    def title(self) -> str:
        return f"Soins {self.amount}"


class GainTemporary(Action):
    """Points temporaires: never summed with those already there; ``replace`` chooses the new grant."""

    kind: Literal["gain_temporary"] = "gain_temporary"
    amount: Amount
    replace: bool = False

    _amount = field_validator("amount", mode="before")(check_amount)

    def title(self) -> str:
        return f"Points temporaires {self.amount}"


class LoseTemporary(Action):
    """The temporary points end (their duration is over)."""

    kind: Literal["lose_temporary"] = "lose_temporary"

    def title(self) -> str:
        return "Fin des points temporaires"


class SetCondition(Action):
    """Put a state on (``active``) or take it off.

    A state put for a while ends on its own (``rules/timers.py``): ``duration`` × ``unit`` (one of the
    system's time units), or ``until_conflict_end`` (« jusqu'à la fin du Conflit »).
    """

    kind: Literal["set_condition"] = "set_condition"
    condition: str = Field(max_length=60)
    active: bool = True
    duration: int | None = Field(None, ge=1, le=MAX_TIME_COUNT)
    unit: str | None = Field(None, max_length=20)
    until_conflict_end: bool = False

    def title(self) -> str:
        title = f"État {self.condition} {'ajouté' if self.active else 'retiré'}"
        if self.duration is not None:
            title += f" pour {self.duration} {self.unit or ''}".rstrip()
        elif self.until_conflict_end:
            title += " jusqu'à la fin du Conflit"
        return title


class ClearConditions(Action):
    """Remove all states (some systems spare a few unless ``include`` names them)."""

    kind: Literal["clear_conditions"] = "clear_conditions"
    include: tuple[str, ...] = ()

    def title(self) -> str:
        return "Retirer tous les états"


class Stabilise(Action):
    """Stabiliser: ``method`` is a system id ("first_aid", "spell", "ally", "self"...).

    ``modifier`` is the helper's bonus added to the die when the method needs a test.
    """

    kind: Literal["stabilise"] = "stabilise"
    method: str = Field("first_aid", max_length=40)
    modifier: int = Field(0, ge=-100, le=100)

    def title(self) -> str:
        return "Stabiliser"


class ShortRest(Action):
    """Repos court."""

    kind: Literal["short_rest"] = "short_rest"
    hours: int = Field(1, ge=0, le=24)
    dice: int = Field(0, ge=0, le=MAX_HITS)

    def title(self) -> str:
        return "Repos court"


class LongRest(Action):
    """Repos long (Douaratil), nuit de repos (d20), repos (Sévérité)..."""

    kind: Literal["long_rest"] = "long_rest"
    hours: int = Field(8, ge=0, le=24 * 7)
    interrupted: bool = False
    ate_and_drank: bool = True

    def title(self) -> str:
        return "Repos long"


class AdvanceTime(Action):
    """Let time pass: ``unit`` is one of the system's units (round, segment, turn, minute, hour, day)."""

    kind: Literal["advance_time"] = "advance_time"
    unit: str = Field(max_length=20)
    count: int = Field(1, ge=1, le=MAX_TIME_COUNT)

    def title(self) -> str:
        return f"Le temps passe : {self.count} {self.unit}"


class StartTurn(Action):
    """The start of this creature's turn in a fight (the GM table's « Tour suivant »).

    What the rules make happen « au début de votre tour » happens now and is journaled with its dice
    (Douaratil: the death save at 0 PA; segments: the dying creature's Vigueur try; Sévérité: what its
    turn brings). ``StartTurn`` then ``EndRound`` is one round of ``AdvanceTime`` for this creature: the
    same rules, each applied once.
    """

    kind: Literal["start_turn"] = "start_turn"

    def title(self) -> str:
        return "Début du tour"


class EndRound(Action):
    """The end of a round for this creature (the GM table's « Round suivant »): the round-scale rules
    (bleeding, burning, countdowns) that its ``StartTurn`` did not already apply; the clock moves one
    round (``SystemInfo.round_unit``)."""

    kind: Literal["end_round"] = "end_round"

    def title(self) -> str:
        return "Fin du round"


class Edit(Action):
    """Edit stored fields of the sheet (header, characteristics, maxima...), validated as a whole."""

    kind: Literal["edit"] = "edit"
    changes: dict[str, Any]

    def title(self) -> str:
        names = ", ".join(self.changes)
        return f"Modifier {names}"
