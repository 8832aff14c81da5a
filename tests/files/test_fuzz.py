"""Fuzz: at least 10,000 generated bad files → only clean errors, no exception escapes, no hang.

Issue 7 « Proof »: « Fuzz: at least 10,000 generated bad files (hypothesis: truncations, byte flips,
wrong types, huge numbers) → only clean errors, no exception escapes, no hang. »

Each hypothesis example draws a valid document of random sheets and a seed; from them a batch of
mutants is made (truncations, byte flips, insertions, deletions, wrong types and huge numbers put at
random places of the JSON, deep nesting, other encodings…) and read in-process by ``decode_document``.
Every mutant must either be refused with a ``FileProblem`` naming the file, or read as a valid
document — and then the fast reader and the wording reader must agree and the document save again.
The batch size makes 10,000 files or more whatever the hypothesis profile; the test counts them.
"""

from __future__ import annotations

import codecs
import json
import math
import pickle
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from sheet_app import files
from tests.files.conftest import BIG, examples
from tests.files.strategies import documents

NAME = "fuzz.fiche.json"
DEEP = "__deeply_nested__"
TOTAL = 100_000 if BIG else 10_000

WEIRD: list[Any] = [
    None,
    True,
    False,
    0,
    -1,
    10**9,
    -(10**9),
    2**63,
    -(2**63) - 1,
    10**30,
    10**4000,
    1.5,
    -0.0,
    1e308,
    math.inf,
    -math.inf,
    math.nan,
    "",
    "x" * 300,
    "y" * (files.MAX_JOURNAL_LINE + 1),
    "\u0000\u001f\u2028",
    "😀" * 50,
    "douaratil",
    "table",
    "sheet",
    [],
    {},
    [[[]]],
    {"a": {"b": {"c": {}}}},
    list(range(200)),
    {"system": "douaratil"},
    {"format": 99},
]
INSERTS = [b"{", b"}", b"[", b"]", b'"', b",", b":", b"\\", b"\x00", b"\xff", b"\xc3", b"\xed\xa0\x80"]
INSERTS += [b"null", b"NaN", b"-Infinity", b"1e999", b"9" * 60, b"\\ud800", b"\\u12", b"\n", b"\t", b"\r"]
WHOLE = [b"", b" ", b"null", b"[]", b"{}", b"0", b'"x"', b"[[[[", b"\xef\xbb\xbf", b"\xff\xfe", pickle.dumps({"a": 1})]


def _paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in the JSON data (keys and list indices), to aim the structural mutations."""
    found = [prefix]
    if isinstance(data, dict):
        for key, value in data.items():
            found.extend(_paths(value, (*prefix, key)))
    elif isinstance(data, list):
        for i, value in enumerate(data[:5]):
            found.extend(_paths(value, (*prefix, i)))
    return found


def _structural(data: Any, paths: list[tuple[Any, ...]], rng: random.Random) -> bytes:
    data = json.loads(json.dumps(data))  # a private copy
    where = rng.choice(paths[1:] or paths)
    parent = data
    for part in where[:-1]:
        parent = parent[part]
    last = where[-1] if where else None
    choice = rng.random()
    if last is None:
        data = rng.choice(WEIRD)
    elif choice < 0.55:
        parent[last] = rng.choice(WEIRD)
    elif choice < 0.65:
        parent[last] = DEEP  # replaced by the text of deeply nested lists below
    elif choice < 0.8 and isinstance(parent, dict):
        del parent[last]
    elif choice < 0.9 and isinstance(parent, dict):
        parent[f"inconnu_{rng.randint(0, 9)}"] = rng.choice(WEIRD)
    elif isinstance(parent, dict):
        parent[str(last) + "_"] = parent.pop(last)
    else:
        parent[last] = str(parent[last])
    indent = 2 if rng.random() < 0.2 else None  # mostly the fast C encoder; sometimes lines
    text = json.dumps(data, indent=indent, ensure_ascii=rng.random() < 0.5)
    depth = rng.choice([50, 500, 5000, 100_000])
    text = text.replace(f'"{DEEP}"', "[" * depth + "]" * depth)
    return text.encode("utf-8", "surrogatepass")


def _bytes_mutation(raw: bytes, rng: random.Random) -> bytes:
    kind = rng.randrange(7)
    n = len(raw)
    if kind == 0:  # truncation
        return raw[: rng.randrange(n)]
    if kind == 1:  # byte flips
        out = bytearray(raw)
        for _ in range(rng.randint(1, 8)):
            out[rng.randrange(n)] = rng.randrange(256)
        return bytes(out)
    if kind == 2:  # insertion
        at = rng.randrange(n)
        return raw[:at] + rng.choice(INSERTS) + raw[at:]
    if kind == 3:  # deletion of a range
        at = rng.randrange(n)
        return raw[:at] + raw[at + rng.randint(1, 200) :]
    if kind == 4:  # duplication of a range
        at = rng.randrange(n)
        return raw[:at] + raw[at : at + rng.randint(1, 400)] + raw[at:]
    if kind == 5:  # another encoding
        text = raw.decode("utf-8", "replace")
        encoding = rng.choice(["latin-1", "utf-16", "utf-16-le", "utf-32", "cp1252"])
        return text.encode(encoding, "replace")
    return rng.choice(WHOLE) if rng.random() < 0.5 else codecs.BOM_UTF8 + raw


def _mutant(raw: bytes, data: Any, paths: list[tuple[Any, ...]], rng: random.Random) -> bytes:
    out = _structural(data, paths, rng) if rng.random() < 0.5 else _bytes_mutation(raw, rng)
    if rng.random() < 0.15 and out:  # sometimes two blows
        out = _bytes_mutation(out, rng)
    return out


def _check(raw: bytes, stats: Counter[str]) -> None:
    """Refused cleanly, or a real document on which both readers agree. Anything else escapes."""
    stats["files"] += 1
    try:
        doc = files.decode_document(raw, NAME)
    except files.FileProblem as exc:
        assert exc.message.startswith(f"{NAME} : "), exc.message
        assert files._decode_fast(raw) is None, "the fast reader accepted a file the wording reader refuses"
        stats["refused"] += 1
        return
    slow = files._decode_slow(raw, NAME)
    assert (slow.kind, slow.sheets, slow.journals, slow.title) == (doc.kind, doc.sheets, doc.journals, doc.title)
    again = files.decode_document(files.encode_document(doc), NAME)
    assert again.sheets == doc.sheets and again.journals == doc.journals
    stats["accepted"] += 1


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_ten_thousand_bad_files_give_only_clean_errors() -> None:
    stats: Counter[str] = Counter()
    runs = examples(0.5)
    batch = -(-TOTAL // runs)

    # No shrinking: a batch of hundreds of mutants per example makes it crawl; a failure names the
    # mutant that failed (its bytes), which is what one needs to reproduce it.
    @settings(
        max_examples=runs,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
        database=None,
        phases=[Phase.explicit, Phase.generate],
    )
    @given(documents(max_sheets=3), st.integers(0, 2**32 - 1), st.binary(max_size=64))
    def fuzz(doc: files.Document, seed: int, noise: bytes) -> None:
        raw = files.encode_document(doc)
        data = json.loads(raw)
        paths = _paths(data)
        rng = random.Random(seed)
        _check(noise, stats)  # pure noise, as hypothesis likes it
        for _ in range(batch):
            mutant = _mutant(raw, data, paths, rng)
            try:
                _check(mutant, stats)
            except BaseException as exc:
                raise AssertionError(f"mutant {mutant[:2000]!r} (len {len(mutant)}): {exc!r}") from exc

    fuzz()
    assert stats["files"] >= TOTAL, stats
    # Both outcomes happen: the mutations are not all trivially fatal, nor all harmless.
    assert stats["refused"] > stats["files"] // 2 and stats["accepted"] > 0, stats


@pytest.mark.parametrize(
    "raw",
    [
        b"[" * 100_000,
        b'{"format": 1, "kind": "sheet", "system": "douaratil", "sheet": ' + b"[" * 3000 + b"]" * 3000 + b"}",
        b'{"format": 1e999}',
        b'{"format": ' + b"1" * 5000 + b"}",
        b'{"format": 1, "kind": "table", "sheets": [' + b"{}," * 20_000 + b"{}]}",
        b'{"format": 1, "kind": "sheet", "system": "\\ud800"}',
        b'{"format": 1, "kind": "sheet", "system": "douaratil", "sheet": {"name": "\\udfff"}}',
        '{"format": 1, "kind": "sheet", "system": "douaratil", "sheet": {"name": "\u2028"}}'.encode(),
    ],
)
def test_known_nasty_files(raw: bytes) -> None:
    stats: Counter[str] = Counter()
    _check(raw, stats)
    assert stats["files"] == 1
