"""The hostile corpus (issue 16): every file is answered cleanly, in French, quickly and cheaply.

Issue 16 « Proof »: « the hostile corpus generator (truncation at every offset, byte flips, wrong types
and extreme numbers in every field, unknown keys ×16k, huge journals, special files) kept in
`tests/files/` with a quick default and a `slow` full run ». Items 1–2: « every file of a hostile
corpus ≤ 32 MB is answered in ≤ 2 s and ≤ 400 MB peak », measured by ``bench/bench_files.py
--hostile`` and held loosely here (memory exactly, time with a wide margin: the machine is shared).

The corpus is ``tests/files/hostile.py``. Quick (every run): a sample of offsets and values, every
family; slow: every offset, every field × every wrong value, and the files of megabytes each read in
a fresh process (peak memory, time). ``SHEET_APP_BIG=1``: every file of megabytes too.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from sheet_app import files
from tests.files import hostile
from tests.files.conftest import BIG
from tests.files.strategies import ids

# Words of pydantic's and Python's English messages; none is French (« type », « maximum » are both).
ENGLISH = re.compile(
    r"\b(Input|input|should|must|valid|integer|Unable|unable|parse|exceeded|size|Value|value|error|string|"
    r"greater|less|than|equal|Field|field|required|Extra|permitted|dictionary|instance|items|characters|"
    r"after|validation|not|or|and|the|an|of|to|is|with|at|least|most|Invalid|Assertion|failed|number|out|"
    r"range|float|object|expected|got|has|attribute|None|True|False|list|Expecting|delimiter|line|column)\b"
)


def english_in(message: str, path: Path) -> list[str]:
    """English words of ``message``, outside the path and the « … » quotes of the file's own texts."""
    text = message.replace(str(path), "")
    text = re.sub(r"« [^»]*? »", "", text)
    return ENGLISH.findall(text)


def answer(item: hostile.Hostile, folder: Path, stats: Counter[str]) -> str:
    """Read one hostile file: refused with a clean French message, or a real document both readers
    agree on. Anything else (an exception, English, an unbounded message) fails the test."""
    folder.mkdir(exist_ok=True)
    path = item.make(folder)
    try:
        doc, _ = files.read_document(path)
    except files.FileProblem as exc:
        message = exc.message
        assert message.startswith(f"{path} : "), message
        assert not english_in(message, path), (item.name, english_in(message, path), message)
        assert len(message.splitlines()) <= files.MAX_PROBLEMS + 2, item.name
        if path.is_file() and not path.is_symlink():
            assert files._decode_fast(path.read_bytes()) is None, f"{item.name}: the fast reader accepts it"
        stats["refused"] += 1
        return message
    raw = path.read_bytes()
    slow = files._decode_slow(raw, item.name)
    assert (slow.kind, slow.sheets, slow.journals) == (doc.kind, doc.sheets, doc.journals), item.name
    again = files.decode_document(files.encode_document(doc), item.name)
    assert again.sheets == doc.sheets
    stats["accepted"] += 1
    return ""


def test_the_quick_corpus_is_answered_cleanly(tmp_path: Path) -> None:
    stats: Counter[str] = Counter()
    families: Counter[str] = Counter()
    for i, item in enumerate(hostile.corpus(full=False, big=False)):
        answer(item, tmp_path / str(i), stats)
        families[item.family] += 1
    assert set(families) == {
        "truncated",
        "flipped",
        "field",
        "keys",
        "table",
        "nesting",
        "numbers",
        "encoding",
        "duplicates",
        "special",
    }, families
    assert stats["refused"] > 500 and stats["accepted"] > 0, stats


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_every_offset_and_every_byte_is_answered_cleanly(tmp_path: Path) -> None:
    """Truncation at every offset, a byte replaced at every offset, of a played file of every system."""
    stats: Counter[str] = Counter()
    for item in [*hostile.truncations(full=True), *hostile.flips(full=True)]:
        assert item.content is not None
        try:
            doc = files.decode_document(item.content, item.name)
        except files.FileProblem as exc:
            assert exc.message.startswith(f"{item.name} : ") and not english_in(exc.message, Path(item.name))
            stats["refused"] += 1
            continue
        assert files._decode_slow(item.content, item.name).sheets == doc.sheets
        stats["accepted"] += 1
    assert stats["refused"] > 5000, stats


# --- items 15 and 17: every field, wrong types and extreme numbers ----------------------------------------


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_every_field_of_every_system_refuses_wrong_types_in_french(tmp_path: Path) -> None:
    """Issue 16 item 17: “A test sweeps every field of every system with wrong types and extreme
    numbers and finds no English word.” Item 15: ``true``, ``"3"``, ``3.0``, ``1e-400`` are no
    integer in a file, wherever an integer is expected."""
    stats: Counter[str] = Counter()
    loose = {"true", "false", "texte-3", "3.0", "1e-400", "1e308", "-1e308", "1e400"}
    checked_ints = 0
    unknown_ids_accepted: set[tuple[str, tuple[object, ...]]] = set()
    checked_ids = 0
    for i, case in enumerate(hostile.field_cases(full=True)):
        message = answer(case.file, tmp_path / str(i % 20), stats)
        for path in (tmp_path / str(i % 20)).iterdir():
            path.unlink()
        if type(case.original) is int and case.label in loose:
            checked_ints += 1
            assert message, f"{case.file.name}: a loose integer was accepted"
            assert "ligne " in message, message
        if case.label == "inconnu" and isinstance(case.original, str) and case.original in ids(case.system):
            checked_ids += 1  # item 14: « Ids are validated against the system's table when a sheet is read. »
            if not message:
                unknown_ids_accepted.add((case.system, case.path))
            else:
                assert "ligne " in message, message
    assert checked_ints > 500, checked_ints
    assert checked_ids >= 10, checked_ids
    assert unknown_ids_accepted <= OPEN_IDS, unknown_ids_accepted - OPEN_IDS
    assert stats["refused"] > 2000, stats


# Id fields a file may still fill with an unknown id (issue 16 item 14 is the systems' own: their
# models check ids against their tables). Only ever shrinks.
OPEN_IDS: set[tuple[str, tuple[object, ...]]] = {
    ("d20", ("sheet", "wounds", 0, "body_part")),  # free text in d20: any part of the body may be hit
}


# --- items 1-2: big files, time and peak memory in a fresh process ----------------------------------------

WORST = {
    "cles-16000.fiche.json",
    "cles-fiche-16000.fiche.json",
    "table-10000-invalides.table.json",
    "journal-objets.fiche.json",
    "limite-journal-objets-pleins.fiche.json",
    "limite-inconnu-objets.fiche.json",
    "limite-journal-textes-courts.fiche.json",
    "nombres-4300.fiche.json",
}
PEAK_MB = 400  # the target of issue 16, held as it is: memory is not noisy
SECONDS = 15  # the target is 2 s; a shared machine can be several times slower (the bench says more)


@pytest.mark.slow
@pytest.mark.timeout(1800)
@pytest.mark.parametrize("item", [h for h in hostile.big_files() if BIG or h.name in WORST], ids=lambda h: h.name)
def test_a_big_hostile_file_is_answered_quickly_and_cheaply(item: hostile.Hostile, tmp_path: Path) -> None:
    path = item.make(tmp_path)
    got = hostile.answer_in_child(path, timeout=120, memory_limit_mb=2048)
    assert got.outcome in ("ok", "refused"), (got.outcome, got.message)
    assert got.peak_mb <= PEAK_MB, f"{item.name}: {got.peak_mb:.0f} Mo at peak"
    assert got.seconds <= SECONDS, f"{item.name}: {got.seconds:.1f} s"
    assert not english_in(got.message, path), got.message
