"""Small mutable records of the file side (a document read from a file, a table's tracker, an open document):
what ``@dataclass`` gave them, without making code at import (issue 15).

A dataclass compiles and runs the source of its methods (``__init__``, ``__repr__``, ``__eq__``…) when its class
is made: ~2.3–3.6 M CPU instructions a class, paid by every start for each class of ``sheet_app.files``,
``autosave`` and ``controller``, before the first paint. A ``Fields`` class names its fields in ``_fields`` (in
the order of its ``__init__``, which it writes itself) and gets from this base what the dataclass gave it: the
same ``repr`` and ``match`` by position. ``Compared`` adds the dataclass's equality (an object of the same
class whose fields are equal; else ``NotImplemented``), which leaves it unhashable, as a mutable dataclass
with ``eq`` is. A field whose dataclass default was a ``default_factory`` takes ``FRESH`` as its default (shown
as ``<factory>`` in the signature, as the dataclass's) and makes its new value itself. Read-only records
are ``rules.Record``'s. ``tests/files/test_records.py`` holds each class to the dataclass it was.
"""

from __future__ import annotations

import reprlib
from typing import Any, ClassVar


class _Fresh:
    """The default of a field that gets a new value (an empty list) when none is given."""

    def __repr__(self) -> str:
        return "<factory>"


FRESH: Any = _Fresh()


class Fields:
    """The base of a small mutable record: ``_fields`` names its fields in the order of its ``__init__``."""

    _fields: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls) -> None:
        cls.__match_args__ = cls._fields  # type: ignore[attr-defined]  # ``match`` by position, as a dataclass's

    @reprlib.recursive_repr()
    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{self.__class__.__qualname__}({fields})"


class Compared(Fields):
    """A ``Fields`` record equal to one of the same class whose fields are equal; unhashable (it can change)."""

    __hash__ = None  # type: ignore[assignment]

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self._values() == other._values()  # type: ignore[attr-defined]
        return NotImplemented

    def _values(self) -> tuple[Any, ...]:
        return tuple([getattr(self, name) for name in self._fields])
