"""Print tests: PDFs are read back with poppler (``pdftotext``, ``pdfinfo``), as a user's reader would.

poppler-utils is part of the test setup (``.ci/run`` installs it): a missing ``pdftotext`` fails the
tests with that reason, it never skips them.
"""

from __future__ import annotations

import datetime as dt
import html
import re
import shutil
import subprocess
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.app.conftest import make_window, window
from tests.qt_cleanup import collect_qt_garbage
from tests.ui.conftest import Recorder, answer, isolated

__all__ = ["Recorder", "answer", "isolated", "make_window", "window"]

TODAY = dt.date(2025, 3, 1)
TODAY_TEXT = "1er mars 2025"
MM = 72 / 25.4  # PDF points per millimetre


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.fail(f"{name} (poppler-utils) is needed by the print tests: apt-get install poppler-utils")
    return path


@dataclass(frozen=True)
class Word:
    page: int
    text: str
    x0: float
    y0: float
    x1: float
    y1: float


@dataclass
class Pdf:
    """A PDF read back: its pages' text, its words with their boxes, its page size in points."""

    path: Path
    pages: list[str]
    words: list[Word]
    width: float
    height: float
    size_label: str

    @property
    def text(self) -> str:
        return "\n".join(self.pages)

    def flat(self, page: int | None = None) -> str:
        """The text with every run of white space as one space (words cut by line ends rejoin)."""
        text = self.text if page is None else self.pages[page]
        return " ".join(text.split())


_WORD = re.compile(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</word>')
_PAGE = re.compile(r"<page width=\"([\d.]+)\" height=\"([\d.]+)\">(.*?)</page>", re.S)


def read_pdf(path: Path) -> Pdf:
    info = subprocess.run([_tool("pdfinfo"), str(path)], capture_output=True, text=True, check=True).stdout
    count = int(re.search(r"^Pages:\s+(\d+)", info, re.M).group(1))  # type: ignore[union-attr]
    size = re.search(r"^Page size:\s+(.*)$", info, re.M).group(1)  # type: ignore[union-attr]
    pages = []
    for number in range(1, count + 1):
        out = subprocess.run(
            [_tool("pdftotext"), "-f", str(number), "-l", str(number), "-raw", str(path), "-"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        pages.append(out)
    boxes = subprocess.run([_tool("pdftotext"), "-bbox", str(path), "-"], capture_output=True, text=True, check=True)
    words: list[Word] = []
    width = height = 0.0
    for index, match in enumerate(_PAGE.finditer(boxes.stdout)):
        width, height = float(match.group(1)), float(match.group(2))
        for w in _WORD.finditer(match.group(3)):
            x0, y0, x1, y1 = (float(w.group(i)) for i in range(1, 5))
            words.append(Word(index, html.unescape(w.group(5)), x0, y0, x1, y1))
    return Pdf(path, pages, words, width, height, size)


def overlapping(words: Sequence[Word], tolerance: float = 0.6) -> list[tuple[Word, Word]]:
    """Pairs of words of a page whose boxes overlap by more than ``tolerance`` points both ways."""
    found = []
    by_page: dict[int, list[Word]] = {}
    for w in words:
        by_page.setdefault(w.page, []).append(w)
    for page_words in by_page.values():
        page_words.sort(key=lambda w: w.y0)
        for i, a in enumerate(page_words):
            for b in page_words[i + 1 :]:
                if b.y0 >= a.y1 - tolerance:
                    break
                dx = min(a.x1, b.x1) - max(a.x0, b.x0)
                dy = min(a.y1, b.y1) - max(a.y0, b.y0)
                if dx > tolerance and dy > tolerance:
                    found.append((a, b))
    return found


@pytest.fixture
def pdf(qapp: Any, tmp_path: Path) -> Iterator[Callable[..., Pdf]]:
    """``pdf(printouts, page="a4")``: render to a PDF file in tmp_path and read it back."""
    from ui.printing.render import pdf_bytes

    made = 0

    def make(printouts: Sequence[Any], page: str = "a4") -> Pdf:
        nonlocal made
        made += 1
        data, _pages = pdf_bytes(list(printouts), page, today=TODAY)
        path = tmp_path / f"out{made}.pdf"
        path.write_bytes(data)
        return read_pdf(path)

    yield make
    collect_qt_garbage()
