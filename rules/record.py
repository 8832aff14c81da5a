"""Small read-only records of the rules (what a system offers the UI, a derived value, a roll's chance…):
what ``@dataclass(frozen=True, slots=True)`` gave them, without making code at import.

A dataclass compiles and runs the source of its methods (``__init__``, ``__repr__``, ``__eq__``, ``__hash__``,
``__setattr__``, ``__delattr__``…) when its class is made: ~4 M CPU instructions a class, and a start made
twenty of the rules' (issue 15). A ``Record`` names its fields in ``__slots__``, in their order, and writes its
own ``__init__`` (``_set(self, "name", name)`` for each field, as a frozen dataclass's does); this base gives
the rest as the dataclass did: equal to a record of the same class whose fields are equal (else
``NotImplemented``), hashed as the tuple of its fields, the same ``repr``, fields that cannot be assigned or
deleted (``dataclasses.FrozenInstanceError``), copied and pickled, and ``replace(**changes)`` for
``dataclasses.replace``. A record class has no subclass (its ``__slots__`` are all its fields).
"""

from dataclasses import FrozenInstanceError
from typing import Any, NoReturn, Self

# How a record's ``__init__`` sets a field (``object.__setattr__``: the record's own refuses).
_set = object.__setattr__


class Record:
    """The base of a read-only record: its fields are its class's ``__slots__``."""

    __slots__: tuple[str, ...] = ()

    def __init_subclass__(cls) -> None:
        # ``match`` takes its fields by position, as a dataclass's.
        cls.__match_args__ = cls.__slots__  # type: ignore[attr-defined,misc]

    def _values(self) -> tuple[Any, ...]:
        return tuple([getattr(self, name) for name in self.__slots__])

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self._values() == other._values()
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"{self.__class__.__qualname__}({fields})"

    def __setattr__(self, name: str, value: Any) -> NoReturn:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> NoReturn:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __getstate__(self) -> list[Any]:
        return [getattr(self, name) for name in self.__slots__]

    def __setstate__(self, state: list[Any]) -> None:
        for name, value in zip(self.__slots__, state, strict=False):
            _set(self, name, value)

    def replace(self, **changes: Any) -> Self:
        """A copy with ``changes`` (``dataclasses.replace``); an unknown field is a ``TypeError``."""
        fields = {name: getattr(self, name) for name in self.__slots__}
        fields.update(changes)
        return self.__class__(**fields)
