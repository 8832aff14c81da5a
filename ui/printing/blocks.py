"""What a printed page is made of, as plain data: no Qt, no rules.

``ui.printing.layout`` turns a sheet, a blank system or a GM table into a ``Printout`` (a title for the
footer and a list of blocks); ``ui.printing.render`` measures the blocks on the paint device, cuts them
into pages (never through a line of text, never through a table row) and draws them with QPainter.

Every text here is plain text: nothing is ever read as markup. ``None`` where a value would be means
« to be filled by pen »: the renderer draws an empty box or line instead.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, TypeAlias

TextStyle = Literal["body", "small", "bold", "italic"]


@dataclass(frozen=True, slots=True)
class Check:
    """A check box, ticked or not (an empty one is for the pen)."""

    checked: bool = False


@dataclass(frozen=True, slots=True)
class Boxes:
    """A row of ``count`` small boxes, the first ``filled`` of them ticked (tallies, ladders)."""

    count: int
    filled: int = 0


@dataclass(frozen=True, slots=True)
class Blank:
    """An empty space to write in: a box (``box=True``) or a line."""

    box: bool = True


@dataclass(frozen=True, slots=True)
class Styled:
    """Text drawn in another style than the cell's (bold for a value, small for a detail)."""

    text: str
    style: TextStyle = "bold"


@dataclass(frozen=True, slots=True)
class Options:
    """A choice printed as its options, each with a box; ``chosen`` is ticked (or none: for the pen)."""

    labels: tuple[str, ...]
    chosen: int | None = None


@dataclass(frozen=True, slots=True)
class Stack:
    """Texts one under the other in one cell (a creature's name in bold, its kind under it)."""

    parts: tuple[str | Styled, ...]


Cell: TypeAlias = str | Styled | Check | Boxes | Blank | Options | Stack


@dataclass(frozen=True, slots=True)
class Title:
    """The top of a document: the name in large type, and a line under it."""

    text: str
    subtitle: str = ""


@dataclass(frozen=True, slots=True)
class Heading:
    """A section title; it is never left alone at the bottom of a page."""

    text: str


@dataclass(frozen=True, slots=True)
class Field:
    """``label : value`` in a field grid; ``value=None``: a box or line to fill (``Blank``, ``Check``…)."""

    label: str
    value: Cell | None = None
    span: int = 1


@dataclass(frozen=True, slots=True)
class FieldGrid:
    """Fields laid out in ``columns`` columns, row by row (a row is never cut)."""

    fields: tuple[Field, ...]
    columns: int = 3


@dataclass(frozen=True, slots=True)
class Column:
    """A table column: its header, its share of the width (or a fixed width in millimetres)."""

    header: str
    weight: float = 1.0
    fixed_mm: float | None = None
    align: Literal["left", "center", "right"] = "left"


@dataclass(frozen=True, slots=True)
class Table:
    """A table; its header is printed again at the top of each page it continues on.

    ``blank_rows``: empty rows after the given ones, to fill by pen. ``zebra``: every other row is
    lightly shaded (only a help to the eye, never information). A table whose headers are all empty
    has no header row.
    """

    columns: tuple[Column, ...]
    rows: tuple[tuple[Cell, ...], ...] = ()
    blank_rows: int = 0
    zebra: bool = False
    ruled: bool = True  # cell borders; without them, a table is only columns of text
    style: TextStyle = "body"
    row_lines: float = 1.0  # the least height of a row, in lines of text (room to write by pen)


@dataclass(frozen=True, slots=True)
class CheckItem:
    label: str
    checked: bool = False
    detail: str = ""


@dataclass(frozen=True, slots=True)
class CheckGrid:
    """Check boxes with their names in ``columns`` columns; ``title`` above (a condition group)."""

    items: tuple[CheckItem, ...]
    columns: int = 4
    title: str = ""
    note: str = ""


@dataclass(frozen=True, slots=True)
class TallyGroup:
    """A group of boxes in a tally: ``count`` boxes, ``filled`` ticked, ``caption`` under them."""

    count: int
    filled: int = 0
    caption: str = ""


@dataclass(frozen=True, slots=True)
class Tally:
    """A label and groups of boxes side by side: death saves (3 + 3), a Trauma gauge (4 tiers × 2)…"""

    label: str
    groups: tuple[TallyGroup, ...]
    after: str = ""
    box_mm: float = 4.2  # the side of a box


@dataclass(frozen=True, slots=True)
class Paragraph:
    """Text that may run over pages, cut only between lines."""

    text: str
    style: TextStyle = "body"


@dataclass(frozen=True, slots=True)
class WritingLines:
    """``count`` ruled lines to write on; ``fill``: more of them, down to the bottom of the page."""

    count: int
    fill: bool = False


@dataclass(frozen=True, slots=True)
class Space:
    """Vertical room, in points (dropped at the top of a page)."""

    points: float = 6.0


@dataclass(frozen=True, slots=True)
class PageBreak:
    """The next block starts a new page; ``first_page_only``: only if this is still the first page of
    the printout (what follows a part that already ran over pages goes on right after it)."""

    first_page_only: bool = False


@dataclass(frozen=True, slots=True)
class Keep:
    """Blocks printed on one page when they fit on one (moved whole to the next page otherwise)."""

    blocks: tuple[Block, ...]


Block: TypeAlias = (
    Title | Heading | FieldGrid | Table | CheckGrid | Tally | Paragraph | WritingLines | Space | PageBreak | Keep
)


@dataclass(frozen=True, slots=True)
class Printout:
    """One printed document (a sheet, a blank sheet, a GM table): it starts on a new page.

    ``name`` is printed in the footer of each of its pages with the date and « page n sur m ».
    """

    name: str
    blocks: tuple[Block, ...] = field(default_factory=tuple)
