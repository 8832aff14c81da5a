"""Paint printouts on paper or PDF with QPainter: real text and vector lines, cut into pages cleanly.

``render(printouts, device)`` draws on any paged device (a ``QPdfWriter``, the ``QPrinter`` of a print
preview or of a real printer) in its own resolution; ``pdf_bytes(printouts, page="a4")`` makes a PDF
in memory. Each printout starts on a new page; its pages carry a footer: its name, the date and
« page n sur m ».

Blocks are first measured on the device and turned into atoms (a line of text, a table row, a row of
fields…), which are never cut: a page ends between two atoms. A heading stays with what follows it, a
``Keep`` moves whole to the next page when it fits on one, a table's header is repeated on each page
it runs over. Only black and grey are used: nothing is told by colour.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from PySide6.QtCore import QBuffer, QByteArray, QCoreApplication, QIODevice, QMarginsF, QPointF, QRectF, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetricsF,
    QPagedPaintDevice,
    QPageLayout,
    QPageSize,
    QPainter,
    QPdfWriter,
    QPen,
    QTextLayout,
    QTextLine,
    QTextOption,
)

from ui.printing.blocks import (
    Blank,
    Block,
    Boxes,
    Cell,
    Check,
    CheckGrid,
    Field,
    FieldGrid,
    Heading,
    Keep,
    Options,
    PageBreak,
    Paragraph,
    Printout,
    Space,
    Stack,
    Styled,
    Table,
    Tally,
    TextStyle,
    Title,
    WritingLines,
)

PageFormat = Literal["a4", "letter"]
PAGE_SIZES: dict[str, QPageSize.PageSizeId] = {
    "a4": QPageSize.PageSizeId.A4,
    "letter": QPageSize.PageSizeId.Letter,
}
MARGINS_MM = QMarginsF(13, 12, 13, 10)  # left, top, right, bottom
PDF_DPI = 300
FONT_FAMILY = "DejaVu Sans"

MONTHS = (
    "janvier",
    "février",
    "mars",
    "avril",
    "mai",
    "juin",
    "juillet",
    "août",
    "septembre",
    "octobre",
    "novembre",
    "décembre",
)


def _tr(text: str) -> str:
    return QCoreApplication.translate("Printing", text)


def french_date(day: dt.date) -> str:
    """« 3 mars 2025 », whatever the locale of the machine."""
    first = "1er" if day.day == 1 else str(day.day)
    return f"{first} {MONTHS[day.month - 1]} {day.year}"


def page_layout(page: str = "a4") -> QPageLayout:
    """Portrait, the given paper (``a4`` or ``letter``), our margins in millimetres."""
    size = QPageSize(PAGE_SIZES[page])
    return QPageLayout(size, QPageLayout.Orientation.Portrait, MARGINS_MM, QPageLayout.Unit.Millimeter)


class PrintError(Exception):
    """The device cannot be painted on (French message)."""


# --------------------------------------------------------------------------------------------------
# Measures: fonts and sizes in the device's pixels
# --------------------------------------------------------------------------------------------------


class _Style:
    def __init__(self, dpi: float) -> None:
        self.dpi = dpi
        self.pt = dpi / 72.0

        def font(size: float, bold: bool = False, italic: bool = False) -> QFont:
            f = QFont(FONT_FAMILY)
            f.setStyleHint(QFont.StyleHint.SansSerif)
            f.setPointSizeF(size)
            f.setBold(bold)
            f.setItalic(italic)
            f.setKerning(True)
            # No ligatures: « fi » must stay two letters for whoever searches or copies the PDF's text.
            for tag in ("liga", "clig", "dlig"):
                f.setFeature(QFont.Tag(tag), 0)
            return f

        self.fonts: dict[str, QFont] = {
            "body": font(9.0),
            "bold": font(9.0, bold=True),
            "small": font(7.8),
            "small_bold": font(7.8, bold=True),
            "italic": font(7.8, italic=True),
            "heading": font(10.5, bold=True),
            "title": font(15.0, bold=True),
            "subtitle": font(9.5),
            "footer": font(7.2),
        }
        self.black = QColor(0, 0, 0)
        self.grey = QColor(110, 110, 110)
        self.shade = QColor(236, 236, 236)
        self.header_shade = QColor(220, 220, 220)

    def mm(self, value: float) -> float:
        return value * self.dpi / 25.4

    def points(self, value: float) -> float:
        return value * self.pt

    def pen(self, width_pt: float, colour: QColor | None = None) -> QPen:
        pen = QPen(colour or self.black)
        pen.setWidthF(width_pt * self.pt)
        pen.setCapStyle(Qt.PenCapStyle.FlatCap)
        return pen

    def cell_font(self, base: TextStyle, styled: bool = False) -> QFont:
        """The font of a cell's text: the table's style, bold for a ``Styled`` value."""
        if base == "small":
            return self.fonts["small_bold" if styled else "small"]
        return self.fonts["bold" if styled else "body"]


class _Text:
    """Wrapped plain text (never markup), ready to draw line by line."""

    def __init__(self, text: str, font: QFont, width: float, device: QPagedPaintDevice, metrics: QFontMetricsF) -> None:
        self.layouts: list[QTextLayout] = []
        self.lines: list[QTextLine] = []
        self.tops: list[float] = []
        self.heights: list[float] = []
        self.widths: list[float] = []
        option = QTextOption()
        option.setWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        y = 0.0
        for part in text.split("\n"):
            layout = QTextLayout(part, font, device)
            layout.setTextOption(option)
            layout.setCacheEnabled(True)
            layout.beginLayout()
            while True:
                line = layout.createLine()
                if not line.isValid():
                    break
                line.setLineWidth(max(width, 1.0))
                line.setPosition(QPointF(0, y))
                height = max(line.height(), metrics.height())
                self.lines.append(line)
                self.tops.append(y)
                self.heights.append(height)
                self.widths.append(line.naturalTextWidth())
                y += height
            layout.endLayout()
            self.layouts.append(layout)
        self.height = y
        self.natural = max(self.widths, default=0.0)

    def natural_width(self) -> float:
        return self.natural

    def draw_line(self, painter: QPainter, index: int, x: float, y: float) -> None:
        """Line ``index`` with its top at ``y``."""
        self.lines[index].draw(painter, QPointF(x, y - self.tops[index]))

    def draw(self, painter: QPainter, x: float, y: float) -> None:
        for index in range(len(self.lines)):
            self.draw_line(painter, index, x, y + self.tops[index])


# --------------------------------------------------------------------------------------------------
# Atoms: what a page is cut between
# --------------------------------------------------------------------------------------------------

Draw = Callable[[QPainter, float], None]  # paints an atom with its top at y
CellDraw = Callable[[QPainter, float, float], None]  # paints a cell's content at (x, y)


@dataclass(eq=False)
class _Atom:
    height: float
    draw: Draw
    keep_with_next: bool = False
    space: bool = False  # dropped at the top of a page
    page_break: bool = False
    first_page_only: bool = False  # a page break that happens only on the printout's first page
    header: _Atom | None = None  # printed again above this atom when it starts a page
    keep_height: float = 0.0  # height of the Keep this atom opens
    fill: bool = False  # repeated while it fits: ruled lines down to the bottom of the page


@dataclass
class _Page:
    printout: Printout
    atoms: list[tuple[float, _Atom]] = field(default_factory=list)


class _Measure:
    """Turns blocks into atoms for one device (one width, one resolution)."""

    def __init__(self, device: QPagedPaintDevice, style: _Style, width: float) -> None:
        self.device = device
        self.s = style
        self.width = width
        # Labels, headers and condition names come back on every sheet: each is laid out once.
        self._texts: dict[tuple[str, int, float], _Text] = {}
        self._metrics: dict[int, QFontMetricsF] = {}

    def metrics(self, font: QFont) -> QFontMetricsF:
        key = id(font)
        found = self._metrics.get(key)
        if found is None:
            found = self._metrics[key] = QFontMetricsF(font, self.device)
        return found

    def text(self, text: str, font: QFont, width: float) -> _Text:
        key = (text, id(font), round(width, 1))
        found = self._texts.get(key)
        if found is None:
            found = self._texts[key] = _Text(text, font, width, self.device, self.metrics(font))
        return found

    # -- cells (used by tables, field grids and check grids) --

    def box_size(self, font: QFont) -> float:
        return self.metrics(font).ascent()

    def _draw_box(self, painter: QPainter, x: float, y: float, size: float, ticked: bool) -> None:
        painter.setPen(self.s.pen(0.7))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRect(QRectF(x, y, size, size))
        if ticked:
            inset = size * 0.18
            painter.setPen(self.s.pen(1.1))
            painter.drawLine(QPointF(x + inset, y + inset), QPointF(x + size - inset, y + size - inset))
            painter.drawLine(QPointF(x + size - inset, y + inset), QPointF(x + inset, y + size - inset))

    def cell(self, value: Cell, base: TextStyle, width: float, align: str = "left") -> tuple[float, float, CellDraw]:
        """(height, natural width, draw at (x, y)) of one cell's content within ``width``."""
        s = self.s
        if isinstance(value, (str, Styled)):
            text = value if isinstance(value, str) else value.text
            if isinstance(value, Styled):
                font = s.cell_font(base, styled=value.style == "bold")
                if value.style == "italic":
                    font = s.fonts["italic"]
                elif value.style == "small":
                    font = s.fonts["small"]
            else:
                font = s.cell_font(base)
            if text.startswith("• "):
                # A list item: the lines after the first start under the text, not under the bullet.
                bullet = self.text("•", font, width)
                indent = self.metrics(font).horizontalAdvance("• ")
                rest = self.text(text[2:], font, width - indent)

                def draw_item(p: QPainter, x: float, y: float) -> None:
                    p.setPen(s.black)
                    bullet.draw(p, x, y)
                    rest.draw(p, x + indent, y)

                return rest.height, rest.natural_width() + indent, draw_item
            laid = self.text(text, font, width)

            def draw_text(p: QPainter, x: float, y: float, laid: _Text = laid) -> None:
                p.setPen(s.black)
                for i in range(len(laid.lines)):
                    dx = 0.0
                    if align == "center":
                        dx = max(0.0, (width - laid.widths[i]) / 2)
                    elif align == "right":
                        dx = max(0.0, width - laid.widths[i])
                    laid.draw_line(p, i, x + dx, y + laid.tops[i])

            return laid.height, laid.natural_width(), draw_text
        if isinstance(value, Stack):
            parts = [self.cell(part, base, width, align) for part in value.parts]

            def draw_stack(p: QPainter, x: float, y: float) -> None:
                for height, _natural, draw_part in parts:
                    draw_part(p, x, y)
                    y += height

            return sum(h for h, _n, _d in parts), max((n for _h, n, _d in parts), default=0.0), draw_stack
        font = s.cell_font(base)
        metrics = self.metrics(font)
        line = metrics.height()
        size = self.box_size(font)
        top = (line - size) / 2
        if isinstance(value, Check):
            dx = max(0.0, (width - size) / 2) if align == "center" else 0.0
            checked = value.checked

            def draw_check(p: QPainter, x: float, y: float) -> None:
                self._draw_box(p, x + dx, y + top, size, checked)

            return line, size, draw_check
        if isinstance(value, Boxes):
            gap = size * 0.35
            per_line = max(1, int((width + gap) // (size + gap)))
            rows = (value.count + per_line - 1) // per_line or 1

            def draw_boxes(p: QPainter, x: float, y: float) -> None:
                for i in range(value.count):
                    row, col = divmod(i, per_line)
                    self._draw_box(p, x + col * (size + gap), y + top + row * line, size, i < value.filled)

            return rows * line, min(value.count, per_line) * (size + gap), draw_boxes
        if isinstance(value, Options):
            gap = size * 0.5
            items = [(label, metrics.horizontalAdvance(label)) for label in value.labels]
            placed: list[tuple[float, int, str, int]] = []
            x0, row = 0.0, 0
            for index, (label, advance) in enumerate(items):
                need = size + gap * 0.6 + advance
                if x0 > 0 and x0 + need > width:
                    x0, row = 0.0, row + 1
                placed.append((x0, row, label, index))
                x0 += need + gap * 2
            rows = row + 1
            texts = {index: self.text(label, font, width) for _x, _r, label, index in placed}

            def draw_options(p: QPainter, x: float, y: float) -> None:
                for ox, orow, _label, index in placed:
                    yy = y + orow * line
                    self._draw_box(p, x + ox, yy + top, size, value.chosen == index)
                    p.setPen(s.black)
                    texts[index].draw_line(p, 0, x + ox + size + gap * 0.6, yy)

            natural = max(
                (ox + size + gap * 0.6 + metrics.horizontalAdvance(lbl) for ox, _r, lbl, _i in placed), default=0
            )
            return rows * line, natural, draw_options
        if isinstance(value, Blank):

            def draw_nothing(p: QPainter, x: float, y: float) -> None:
                return None

            return line, 0.0, draw_nothing
        raise TypeError(f"unknown cell {value!r}")

    # -- blocks --

    def atoms(self, block: Block) -> list[_Atom]:
        if isinstance(block, Keep):
            inner = [a for b in block.blocks for a in self.atoms(b)]
            if inner:
                inner[0].keep_height = max(inner[0].keep_height, sum(a.height for a in inner))
            return inner
        method = getattr(self, "_" + type(block).__name__.lower())
        result: list[_Atom] = method(block)
        return result

    def _pagebreak(self, block: PageBreak) -> list[_Atom]:
        return [_Atom(0.0, lambda p, y: None, page_break=True, first_page_only=block.first_page_only)]

    def _space(self, block: Space) -> list[_Atom]:
        return [_Atom(self.s.points(block.points), lambda p, y: None, space=True)]

    def _title(self, block: Title) -> list[_Atom]:
        s = self.s
        name = self.text(block.text, s.fonts["title"], self.width)
        sub = self.text(block.subtitle, s.fonts["subtitle"], self.width) if block.subtitle else None
        gap = s.points(3)
        height = name.height + (sub.height + gap if sub else 0) + s.points(8)

        def draw(p: QPainter, y: float) -> None:
            p.setPen(s.black)
            name.draw(p, 0, y)
            yy = y + name.height
            if sub is not None:
                sub.draw(p, 0, yy + gap)
                yy += gap + sub.height
            p.setPen(s.pen(1.4))
            p.drawLine(QPointF(0, yy + s.points(3)), QPointF(self.width, yy + s.points(3)))

        return [_Atom(height, draw)]

    def _heading(self, block: Heading) -> list[_Atom]:
        s = self.s
        laid = self.text(block.text, s.fonts["heading"], self.width)
        above, below = s.points(5), s.points(2.5)

        def draw(p: QPainter, y: float) -> None:
            p.setPen(s.black)
            laid.draw(p, 0, y + above)
            p.setPen(s.pen(0.6))
            line_y = y + above + laid.height + s.points(1)
            p.drawLine(QPointF(0, line_y), QPointF(self.width, line_y))

        return [_Atom(above + laid.height + below + s.points(1), draw, keep_with_next=True)]

    def _paragraph(self, block: Paragraph) -> list[_Atom]:
        s = self.s
        font = {"body": s.fonts["body"], "small": s.fonts["small"], "bold": s.fonts["small_bold"]}.get(
            block.style, s.fonts["italic"]
        )
        text = block.text if block.text else " "
        laid = self.text(text, font, self.width)
        atoms = []
        for index in range(len(laid.lines)):

            def draw(p: QPainter, y: float, index: int = index) -> None:
                p.setPen(s.black)
                laid.draw_line(p, index, 0, y)

            atoms.append(_Atom(laid.heights[index], draw))
        if atoms:
            atoms[-1].height += s.points(1)
        return atoms

    def _writinglines(self, block: WritingLines) -> list[_Atom]:
        s = self.s
        height = s.mm(6)

        def draw(p: QPainter, y: float) -> None:
            p.setPen(s.pen(0.4, s.grey))
            p.drawLine(QPointF(0, y + height - s.points(1)), QPointF(self.width, y + height - s.points(1)))

        atoms = [_Atom(height, draw) for _ in range(max(block.count, 1))]
        atoms[-1].fill = block.fill
        return atoms

    def _fieldgrid(self, block: FieldGrid) -> list[_Atom]:
        s = self.s
        columns = max(block.columns, 1)
        gap = s.mm(4)
        col_width = (self.width - gap * (columns - 1)) / columns
        rows: list[list[tuple[int, int, Field]]] = []
        current: list[tuple[int, int, Field]] = []
        used = 0
        for f in block.fields:
            span = min(max(f.span, 1), columns)
            if used + span > columns:
                rows.append(current)
                current, used = [], 0
            current.append((used, span, f))
            used += span
        if current:
            rows.append(current)
        label_font = s.fonts["small"]
        line_h = self.metrics(s.fonts["body"]).height()
        pad = s.points(1.5)
        label_gap = s.mm(1.5)
        atoms = []
        for row in rows:
            pieces = []
            row_height = 0.0
            for col, span, f in row:
                width = col_width * span + gap * (span - 1)
                value = f.value if f.value is not None else Blank()
                natural_label = self.text(f.label + " :", label_font, width).natural_width() + label_gap + s.points(1)
                if isinstance(value, Blank) and value.box:
                    value_w = max(min(s.mm(17), width - natural_label), s.mm(10))
                elif isinstance(value, Blank):
                    value_w = max(width - natural_label, width * 0.3)
                else:
                    _h, natural, _d = self.cell(value, "small" if isinstance(value, Options) else "body", width)
                    value_w = min(natural + s.mm(1), width - min(natural_label, width * 0.5))
                label_w = min(natural_label, width - value_w)
                label = self.text(f.label + " :", label_font, label_w - label_gap)
                draw_value: CellDraw
                if isinstance(value, Blank):
                    vh = line_h * 1.3
                    draw_value = self._blank_box(value_w, vh) if value.box else self._blank_line(width - label_w, vh)
                else:
                    base: TextStyle = "small" if isinstance(value, Options) else "body"
                    vh, _nat, draw_value = self.cell(value, base, width - label_w)
                x = col * (col_width + gap)
                pieces.append((x, label, label_w, draw_value, vh))
                row_height = max(row_height, label.height, vh)

            def draw(p: QPainter, y: float, pieces: list = pieces) -> None:  # type: ignore[type-arg]
                for x, label, label_w, draw_value, vh in pieces:
                    p.setPen(s.black)
                    first = label.heights[0] if label.heights else 0.0
                    label.draw(p, x, y + pad + max(0.0, (min(vh, line_h * 1.3) - first) / 2))
                    draw_value(p, x + label_w, y + pad)

            atoms.append(_Atom(row_height + 2 * pad, draw))
        return atoms

    def _blank_box(self, width: float, height: float) -> CellDraw:
        def draw(p: QPainter, x: float, y: float) -> None:
            p.setPen(self.s.pen(0.7))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawRect(QRectF(x, y, width, height))

        return draw

    def _blank_line(self, width: float, height: float) -> CellDraw:
        def draw(p: QPainter, x: float, y: float) -> None:
            p.setPen(self.s.pen(0.5))
            p.drawLine(QPointF(x, y + height * 0.85), QPointF(x + width, y + height * 0.85))

        return draw

    def _longest_word(self, cell: Cell, font: QFont, bold: QFont) -> float:
        if isinstance(cell, Stack):
            return max((self._longest_word(part, font, bold) for part in cell.parts), default=0.0)
        if isinstance(cell, (str, Styled)):
            text = cell if isinstance(cell, str) else cell.text
            metrics = self.metrics(bold if isinstance(cell, Styled) else font)
            return max((metrics.horizontalAdvance(word) for word in text.split()), default=0.0)
        return 0.0

    def _column_widths(self, block: Table, pad_x: float) -> list[float]:
        """Fixed columns as asked; the others share the rest by weight, but each is at least as wide as
        its longest word (a word is cut only when it could never fit)."""
        s = self.s
        font, bold = s.cell_font(block.style), s.cell_font(block.style, styled=True)
        columns = block.columns
        fixed = sum(s.mm(c.fixed_mm) for c in columns if c.fixed_mm is not None)
        free = max(self.width - fixed, 0.0)
        least = [0.0] * len(columns)
        for i, column in enumerate(columns):
            if column.fixed_mm is not None:
                continue
            words = [self._longest_word(column.header, bold, bold)]
            words += [self._longest_word(row[i], font, bold) for row in block.rows if i < len(row)]
            least[i] = max(words) + 2 * pad_x + s.points(0.5)
        loose = [i for i, c in enumerate(columns) if c.fixed_mm is None]
        widths = [s.mm(c.fixed_mm) if c.fixed_mm is not None else 0.0 for c in columns]
        # Give each column its least width where its share is smaller, then share what is left.
        pinned: set[int] = set()
        while True:
            rest = free - sum(widths[i] for i in pinned)
            weights = sum(columns[i].weight for i in loose if i not in pinned) or 1.0
            changed = False
            for i in loose:
                if i in pinned:
                    continue
                share = rest * columns[i].weight / weights
                if share < least[i] and sum(least[j] for j in loose) <= free:
                    widths[i] = least[i]
                    pinned.add(i)
                    changed = True
            if not changed:
                for i in loose:
                    if i not in pinned:
                        widths[i] = rest * columns[i].weight / weights
                return widths

    def _table(self, block: Table) -> list[_Atom]:
        s = self.s
        pad_x, pad_y = s.points(2.5), s.points(1.8) if block.ruled else s.points(0.6)
        base = block.style
        widths = self._column_widths(block, pad_x)
        xs = [sum(widths[:i]) for i in range(len(widths))]
        line_h = self.metrics(s.cell_font(base)).height()
        min_h = line_h * max(block.row_lines, 1.0)

        def row_atom(cells: Sequence[Cell], header: bool, shade: bool) -> _Atom:
            laid: list[CellDraw] = []
            height = 0.0
            for i, cell in enumerate(cells[: len(widths)]):
                col = block.columns[i]
                value: Cell = Styled(cell, "bold") if header and isinstance(cell, str) else cell
                h, _nat, draw_cell = self.cell(value, base, widths[i] - 2 * pad_x, "center" if header else col.align)
                laid.append(draw_cell)
                height = max(height, h)
            if not header:
                height = max(height, min_h)
            total = height + 2 * pad_y

            def draw(p: QPainter, y: float) -> None:
                if header or shade:
                    p.fillRect(QRectF(0, y, self.width, total), s.header_shade if header else s.shade)
                for i, draw_cell in enumerate(laid):
                    draw_cell(p, xs[i] + pad_x, y + pad_y)
                if not block.ruled:
                    return
                p.setPen(s.pen(0.5))
                p.setBrush(Qt.BrushStyle.NoBrush)
                p.drawRect(QRectF(0, y, self.width, total))
                for x in xs[1:]:
                    p.drawLine(QPointF(x, y), QPointF(x, y + total))

            return _Atom(total, draw)

        atoms: list[_Atom] = []
        header_atom: _Atom | None = None
        if any(c.header for c in block.columns):
            header_atom = row_atom([c.header for c in block.columns], True, False)
            header_atom.keep_with_next = True
            atoms.append(header_atom)
        blank: tuple[Cell, ...] = tuple(Blank() for _ in block.columns)
        rows = list(block.rows) + [blank] * block.blank_rows
        for index, row in enumerate(rows):
            atom = row_atom(row, False, block.zebra and index % 2 == 1)
            atom.header = header_atom
            atoms.append(atom)
        if atoms:
            atoms.append(_Atom(s.points(4), lambda p, y: None, space=True))
        return atoms

    def _checkgrid(self, block: CheckGrid) -> list[_Atom]:
        s = self.s
        atoms: list[_Atom] = []
        if block.title:
            title = self.text(block.title, s.fonts["small_bold"], self.width)

            def draw_title(p: QPainter, y: float) -> None:
                p.setPen(s.black)
                title.draw(p, 0, y + s.points(2))

            atoms.append(_Atom(title.height + s.points(2), draw_title, keep_with_next=True))
        if block.note:
            note = self.text(block.note, s.fonts["italic"], self.width)

            def draw_note(p: QPainter, y: float) -> None:
                p.setPen(s.black)
                note.draw(p, 0, y)

            atoms.append(_Atom(note.height, draw_note, keep_with_next=True))
        columns = max(block.columns, 1)
        gap = s.mm(3)
        col_width = (self.width - gap * (columns - 1)) / columns
        font = s.fonts["small"]
        size = self.box_size(font)
        pad = s.points(1.6)
        for start in range(0, len(block.items), columns):
            row = block.items[start : start + columns]
            laid = []
            height = 0.0
            for item in row:
                text = item.label + (f" ({item.detail})" if item.detail else "")
                t = self.text(text, s.fonts["small_bold"] if item.checked else font, col_width - size - s.mm(1.5))
                laid.append((t, item.checked))
                height = max(height, t.height)

            def draw(p: QPainter, y: float, laid: list = laid) -> None:  # type: ignore[type-arg]
                for i, (t, checked) in enumerate(laid):
                    x = i * (col_width + gap)
                    top = (t.heights[0] - size) / 2 if t.heights else 0.0
                    self._draw_box(p, x, y + pad + top, size, checked)
                    p.setPen(s.black)
                    t.draw(p, x + size + s.mm(1.5), y + pad)

            atoms.append(_Atom(height + 2 * pad, draw))
        if atoms:
            atoms.append(_Atom(s.points(2), lambda p, y: None, space=True))
        return atoms

    def _tally(self, block: Tally) -> list[_Atom]:
        s = self.s
        label = self.text(block.label, s.fonts["bold"], self.width * 0.3)
        label_w = label.natural_width() + s.mm(3)
        size = s.mm(block.box_mm)
        box_gap = s.mm(1.8)
        group_gap = s.mm(4) * max(1.0, block.box_mm / 4.2)
        caption_font = s.fonts["small"]
        # Place the groups left to right, on as many lines as needed.
        placed = []
        x, line = label_w, 0
        captions = []
        for group in block.groups:
            boxes_w = group.count * size + max(group.count - 1, 0) * box_gap
            caption = self.text(group.caption, caption_font, max(boxes_w, s.mm(22)) + group_gap * 0.8)
            width = max(boxes_w, caption.natural_width())
            if x > label_w and x + width > self.width:
                x, line = label_w, line + 1
            placed.append((x, line, group, boxes_w, width))
            captions.append(caption)
            x += width + group_gap
        cap_h = max((c.height for c in captions), default=0.0)
        line_h = size + s.points(2) + cap_h + s.points(3)
        after = self.text(block.after, s.fonts["italic"], self.width - label_w) if block.after else None
        height = (placed[-1][1] + 1 if placed else 1) * line_h + (after.height if after else 0) + s.points(3)

        def draw(p: QPainter, y: float) -> None:
            p.setPen(s.black)
            label.draw(p, 0, y + s.points(2) + (size - label.lines[0].height()) / 2 if label.lines else y)
            for (gx, gline, group, boxes_w, width), caption in zip(placed, captions, strict=True):
                top = y + s.points(2) + gline * line_h
                left = gx + (width - boxes_w) / 2
                for i in range(group.count):
                    self._draw_box(p, left + i * (size + box_gap), top, size, i < group.filled)
                p.setPen(s.black)
                for i in range(len(caption.lines)):
                    dx = (width - caption.widths[i]) / 2
                    caption.draw_line(p, i, gx + dx, top + size + s.points(2) + caption.tops[i])
            if after is not None:
                after.draw(p, label_w, y + (placed[-1][1] + 1 if placed else 1) * line_h)

        return [_Atom(height, draw)]


# --------------------------------------------------------------------------------------------------
# Pages
# --------------------------------------------------------------------------------------------------


def _need(atom: _Atom, following: Sequence[_Atom], height: float) -> float:
    """The room ``atom`` needs at the bottom of a page: itself, its whole ``Keep`` when that fits on a
    page, and (a heading) the start of what follows it."""
    need = atom.height
    if atom.keep_height and atom.keep_height <= height:
        need = max(need, atom.keep_height)
    if atom.keep_with_next:
        follower = next((a for a in following if not a.space), None)
        if follower is not None and not follower.page_break:
            more = follower.keep_height if 0 < follower.keep_height <= height - atom.height else follower.height
            need = max(need, atom.height + more)
    return need


def _paginate(printout: Printout, measure: _Measure, height: float) -> list[_Page]:
    atoms = [a for block in printout.blocks for a in measure.atoms(block)]
    pages = [_Page(printout)]
    y = 0.0

    def new_page() -> None:
        nonlocal y
        pages.append(_Page(printout))
        y = 0.0

    def breaks(atom: _Atom) -> bool:
        return atom.page_break and not (atom.first_page_only and len(pages) > 1)

    for index, atom in enumerate(atoms):
        if atom.page_break:
            if pages[-1].atoms and breaks(atom):
                new_page()
            continue
        if atom.space and y == 0.0:
            continue
        need = _need(atom, atoms[index + 1 :], height)
        if y + need > height and y > 0.0:
            if atom.space:
                new_page()
                continue
            new_page()
        if y == 0.0 and atom.header is not None and pages[-1].atoms == [] and len(pages) > 1:
            pages[-1].atoms.append((y, atom.header))
            y += atom.header.height
        pages[-1].atoms.append((y, atom))
        y += atom.height
        if atom.fill:
            # More ruled lines, down to the bottom of the page, unless what follows would fit there.
            rest = [a for a in atoms[index + 1 :] if not a.space and not (a.page_break and not breaks(a))]
            follower = rest[0] if rest else None
            after = 0.0 if follower is None or follower.page_break else _need(follower, rest[1:], height)
            while y + atom.height <= height and (after == 0.0 or y + after > height):
                pages[-1].atoms.append((y, atom))
                y += atom.height
    if not pages[-1].atoms and len(pages) > 1:
        pages.pop()
    return pages


def _footer(
    painter: QPainter,
    style: _Style,
    device: QPagedPaintDevice,
    width: float,
    bottom: float,
    page: _Page,
    number: int,
    count: int,
    day: str,
) -> None:
    font = style.fonts["footer"]
    metrics = QFontMetricsF(font, device)
    painter.setFont(font)
    painter.setPen(style.pen(0.4))
    top = bottom - metrics.height() - style.points(3)
    painter.drawLine(QPointF(0, top), QPointF(width, top))
    painter.setPen(style.black)
    baseline = bottom - metrics.descent()
    page_text = _tr("page {0} sur {1}").format(number, count)
    right = metrics.horizontalAdvance(page_text)
    middle = metrics.horizontalAdvance(day)
    name = metrics.elidedText(page.printout.name, Qt.TextElideMode.ElideRight, width / 2 - middle / 2 - style.mm(4))
    painter.drawText(QPointF(0, baseline), name)
    painter.drawText(QPointF((width - middle) / 2, baseline), day)
    painter.drawText(QPointF(width - right, baseline), page_text)


def footer_height(style: _Style, device: QPagedPaintDevice) -> float:
    return QFontMetricsF(style.fonts["footer"], device).height() + style.points(9)


def render(printouts: Sequence[Printout], device: QPagedPaintDevice, *, today: dt.date | None = None) -> int:
    """Paint ``printouts`` on ``device`` (each from a new page); the number of pages painted.

    Uses the device's page layout as it is (paper, orientation, margins): the page and margins the
    user picked in a print dialog are respected. Raises ``PrintError`` if the device cannot be opened.
    """
    dpi = float(device.logicalDpiY())
    style = _Style(dpi)
    rect = device.pageLayout().paintRectPixels(round(dpi))
    width, full_height = float(rect.width()), float(rect.height())
    body_height = full_height - footer_height(style, device)
    measure = _Measure(device, style, width)
    laid: list[list[_Page]] = [_paginate(p, measure, body_height) for p in printouts]
    day = french_date(today or dt.date.today())
    painter = QPainter()
    if not painter.begin(device):
        raise PrintError(_tr("Impossible d'imprimer : l'imprimante ou le fichier n'a pas pu être ouvert."))
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
    total = 0
    try:
        first = True
        for pages in laid:
            for number, page in enumerate(pages, start=1):
                if not first and not device.newPage():
                    raise PrintError(_tr("Impossible d'imprimer : une nouvelle page n'a pas pu être commencée."))
                first = False
                for y, atom in page.atoms:
                    painter.save()
                    atom.draw(painter, y)
                    painter.restore()
                _footer(painter, style, device, width, full_height, page, number, len(pages), day)
                total += 1
    finally:
        painter.end()
    return total


def pdf_writer(target: QIODevice | str, page: str = "a4", title: str = "") -> QPdfWriter:
    writer = QPdfWriter(target)
    writer.setResolution(PDF_DPI)
    writer.setPageLayout(page_layout(page))
    writer.setCreator("sheet_app")
    writer.setTitle(title)
    return writer


def pdf_bytes(printouts: Sequence[Printout], page: str = "a4", *, today: dt.date | None = None) -> tuple[bytes, int]:
    """A PDF of ``printouts`` (``page``: ``a4`` or ``letter``) made in memory, and its page count."""
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    title = printouts[0].name if len(printouts) == 1 else _tr("Fiches de personnage")
    writer = pdf_writer(buffer, page, title)
    pages = render(printouts, writer, today=today)
    del writer  # finishes the file
    buffer.close()
    return bytes(data.data()), pages
