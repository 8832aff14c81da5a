"""The hostile corpus: files made to hurt a reader (issue 16 « Proof »), for the tests and the bench.

Families (``family`` of each ``Hostile``):

- ``truncated``: a played file of every system cut at every offset (``full``) or at a sample of them.
- ``flipped``: one byte of such a file replaced (``full``: every offset; else a sample).
- ``field``: every field of every system's played sheet (nested ones too: wounds, equipment…) given
  a wrong type or an extreme number (``true``, ``"3"``, ``3.0``, ``1e-400``, ``1e308``, 10^400, a
  4,300-digit integer, ``null``, ``[]``, ``{}``…); the sweep of issue 16 items 15 and 17.
- ``keys``: unknown keys by the thousand (1,000 … 16,000), at the top and inside the sheet.
- ``table``: tables whose sheets are all invalid (500 … 10,000).
- ``journal``: huge journals within the size limit: 10 M ``{}``, 16 M zeros, 10 M ``""``…
- ``nesting``, ``numbers``, ``encoding``, ``duplicates``: deep brackets, giant numbers, UTF-16 without
  BOM, duplicate keys.
- ``special``: a FIFO, a symbolic link to ``/dev/zero``, a symbolic link loop, a folder, a file above
  the size limit.

Each ``Hostile`` writes itself into a folder (``make``); ``big`` ones (megabytes) are only built
when asked (``big=True``): the bench measures them in a fresh process each (time and peak memory),
and the ``slow`` tests hold them to the targets of issue 16 loosely.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import rules

DATA = Path(__file__).parent / "data" / "v1"
RAW = "\x00raw\x00"  # placeholder for a raw JSON token (``1e-400`` cannot come out of json.dumps)


@dataclass(frozen=True)
class Hostile:
    """One hostile file: ``make(folder)`` writes it there (or makes the special file) and returns its path."""

    name: str
    family: str
    make: Callable[[Path], Path]
    big: bool = False
    content: bytes | None = None  # the bytes of a small ordinary file (to read them without the disk)


def _bytes_file(name: str, family: str, data: bytes | Callable[[], bytes], big: bool = False) -> Hostile:
    def make(folder: Path) -> Path:
        path = folder / name
        path.write_bytes(data() if callable(data) else data)
        return path

    return Hostile(name, family, make, big, None if callable(data) else data)


def played(system_id: str) -> bytes:
    """The kept played file of ``system_id`` (a real sheet: wounds, conditions, journal)."""
    return (DATA / f"{system_id}.fiche.json").read_bytes()


def table_bytes() -> bytes:
    return (DATA / "auberge.table.json").read_bytes()


# --- byte-level -------------------------------------------------------------------------------------


def truncations(full: bool) -> Iterator[Hostile]:
    for system_id in rules.SYSTEMS:
        raw = played(system_id)
        offsets = range(len(raw)) if full else sorted(random.Random(system_id).sample(range(len(raw)), 40))
        for at in offsets:
            yield _bytes_file(f"tronque-{system_id}-{at}.fiche.json", "truncated", raw[:at])


FLIPS = b'{}[]",:\\\x00\xff\xc3 09-.e'


def flips(full: bool) -> Iterator[Hostile]:
    for system_id in rules.SYSTEMS:
        raw = played(system_id)
        rng = random.Random(f"flip-{system_id}")
        offsets = range(len(raw)) if full else sorted(rng.sample(range(len(raw)), 40))
        for at in offsets:
            byte = FLIPS[rng.randrange(len(FLIPS))] if not full else FLIPS[at % len(FLIPS)]
            if raw[at] == byte:
                byte ^= 0x20
            mutant = raw[:at] + bytes([byte]) + raw[at + 1 :]
            yield _bytes_file(f"octet-{system_id}-{at}.fiche.json", "flipped", mutant)


# --- every field, wrong types and extreme numbers --------------------------------------------------

# (label, value): a value is put in place with json.dumps, a ``(RAW, token)`` pair as that raw token.
WRONG_VALUES: tuple[tuple[str, Any], ...] = (
    ("true", True),
    ("false", False),
    ("null", None),
    ("texte-3", "3"),
    ("texte-vide", ""),
    ("texte-long", "x" * 5000),
    ("3.0", 3.0),
    ("1.5", 1.5),
    ("1e-400", (RAW, "1e-400")),
    ("1e308", 1e308),
    ("-1e308", -1e308),
    ("1e400", (RAW, "1e400")),
    ("10^400", 10**400),
    ("-10^400", -(10**400)),
    ("4300-chiffres", int("9" * 4300)),
    ("2^63", 2**63),
    ("-1", -1),
    ("-2^63", -(2**63)),
    ("liste-vide", []),
    ("liste", [1, "a"]),
    ("objet-vide", {}),
    ("objet", {"a": 1}),
    ("inconnu", "zzz_inconnu"),
)


def _leaf_paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every place of the sheet data: each field, and the fields of the first item of each list."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield (*prefix, key)
            yield from _leaf_paths(item, (*prefix, key))
    elif isinstance(value, list) and value:
        yield (*prefix, 0)
        yield from _leaf_paths(value[0], (*prefix, 0))


def _put(data: Any, path: tuple[Any, ...], value: Any) -> Any:
    data = json.loads(json.dumps(data))
    parent = data
    for part in path[:-1]:
        parent = parent[part]
    parent[path[-1]] = RAW if isinstance(value, tuple) and value[:1] == (RAW,) else value
    return data


def _dump(data: Any, value: Any) -> bytes:
    text = json.dumps(data, ensure_ascii=False, indent=2)
    if isinstance(value, tuple) and value[:1] == (RAW,):
        text = text.replace(json.dumps(RAW), value[1])
    return text.encode("utf-8")


def field_paths(system_id: str) -> list[tuple[Any, ...]]:
    """Every place of the played sheet of ``system_id`` (under ``sheet``)."""
    data = json.loads(played(system_id))
    return [("sheet", *p) for p in _leaf_paths(data["sheet"]) if p != ("system",)]


@dataclass(frozen=True)
class FieldCase:
    """One field of a played sheet given one wrong value (``original``: the value it had)."""

    system: str
    path: tuple[Any, ...]
    label: str
    original: Any
    file: Hostile


def field_cases(full: bool = True) -> Iterator[FieldCase]:
    """Every field of every system × every wrong value (``full``); else every field × a few values."""
    for system_id in rules.SYSTEMS:
        data = json.loads(played(system_id))
        for path in field_paths(system_id):
            original: Any = data
            for part in path:
                original = original[part]
            values = WRONG_VALUES if full else WRONG_VALUES[hash(path) % 5 :: 5]
            for label, value in values:
                mutant = _put(data, path, value)
                where = "-".join(str(p) for p in path[1:])
                name = f"champ-{system_id}-{where}-{label}.fiche.json"
                yield FieldCase(system_id, path, label, original, _bytes_file(name, "field", _dump(mutant, value)))


def fields(full: bool = True) -> Iterator[Hostile]:
    for case in field_cases(full):
        yield case.file


# --- big structures within the size limit -----------------------------------------------------------


def _envelope_with(key: str, body: bytes, system_id: str = "douaratil") -> bytes:
    """A played sheet file whose ``key`` (top-level) holds ``body``, raw JSON."""
    raw = played(system_id).rstrip()
    assert raw.endswith(b"}")
    data = json.loads(raw)
    data.pop(key, None)
    head = json.dumps(data, ensure_ascii=False, indent=2).encode()[:-2]
    return head + b',\n  "' + key.encode() + b'": ' + body + b"\n}\n"


def _repeat_list(item: bytes, count: int) -> bytes:
    return b"[" + b",".join([item] * count) + b"]"


def unknown_keys(counts: tuple[int, ...] = (1000, 2000, 4000, 8000, 16000)) -> Iterator[Hostile]:
    for count in counts:

        def top(count: int = count) -> bytes:
            data = json.loads(played("douaratil"))
            data.update({f"inconnu_{i}": i for i in range(count)})
            return json.dumps(data, indent=2).encode()

        def inner(count: int = count) -> bytes:
            data = json.loads(played("douaratil"))
            data["sheet"].update({f"inconnu_{i}": i for i in range(count)})
            return json.dumps(data, indent=2).encode()

        yield _bytes_file(f"cles-{count}.fiche.json", "keys", top, big=count >= 8000)
        yield _bytes_file(f"cles-fiche-{count}.fiche.json", "keys", inner, big=count >= 8000)


def invalid_table(count: int) -> bytes:
    """A table of ``count`` sheets, each with a wrong value (a level of 1,000)."""
    sheet = json.loads(played("douaratil"))["sheet"]
    sheet["level"] = 1000
    body = json.dumps(sheet, ensure_ascii=False, indent=2).replace("\n", "\n    ").encode()
    head = b'{\n  "format": 1,\n  "kind": "table",\n  "title": "Invalide",\n  "sheets": [\n    '
    return head + b",\n    ".join([body] * count) + b'\n  ],\n  "journals": []\n}\n'


def invalid_tables(counts: tuple[int, ...] = (500, 2000, 10000)) -> Iterator[Hostile]:
    for count in counts:
        yield _bytes_file(
            f"table-{count}-invalides.table.json", "table", lambda c=count: invalid_table(c), big=count >= 2000
        )


LIMIT = 32 * 1024 * 1024


def _fill(item: bytes, budget: int = LIMIT - 4096) -> int:
    """How many ``item`` separated by commas fit in ``budget`` bytes."""
    return budget // (len(item) + 1)


MARKS_LIMIT = 2_000_000  # files.MAX_JSON_MARKS: commas, [ and { a file may hold


def _fill_marks(item: bytes, budget: int = MARKS_LIMIT - 5000) -> int:
    """How many ``item`` separated by commas stay just under the marks limit (what parsing builds most)."""
    per_item = item.count(b",") + item.count(b"[") + item.count(b"{") + 1
    return min(budget // per_item, _fill(item))


def journals() -> Iterator[Hostile]:
    """Journals (and other lists) as big as the size limit allows, of every cheap kind of value; then
    the same just under the limit of marks (the biggest a reader must parse and answer)."""
    for label, item in (
        ("objets", b"{}"),
        ("zeros", b"0"),
        ("textes-vides", b'""'),
        ("textes-courts", b'"ab"'),
        ("listes", b"[]"),
        ("objets-pleins", b'{"a":0}'),
        ("nombres", b"123456789012"),
        ("lignes", rb'"Ulfred subit 3 d\u00e9g\u00e2ts : 14 \u2192 11 PA."'),
    ):
        count = _fill_marks(item)
        yield _bytes_file(
            f"limite-journal-{label}.fiche.json",
            "journal",
            lambda item=item, count=count: _envelope_with("journal", _repeat_list(item, count)),
            big=True,
        )
    yield _bytes_file(
        "limite-inconnu-objets.fiche.json",
        "journal",
        lambda: _envelope_with("inconnu", _repeat_list(b'{"a":[0]}', _fill_marks(b'{"a":[0]}'))),
        big=True,
    )
    yield _bytes_file(
        "limite-fiches-listes.table.json",
        "journal",
        lambda: b'{"format": 1, "kind": "table", "sheets": ' + _repeat_list(b"[[]]", _fill_marks(b"[[]]")) + b"}",
        big=True,
    )
    for label, item in (
        ("objets", b"{}"),
        ("zeros", b"0"),
        ("textes-vides", b'""'),
        ("textes-courts", b'"ab"'),
        ("listes", b"[]"),
        ("nuls", b"null"),
        ("mj", b'"[MJ] a"'),
        ("flottants", b"1.5"),
        ("entiers", b"100000"),
    ):
        count = _fill(item)
        yield _bytes_file(
            f"journal-{label}.fiche.json",
            "journal",
            lambda item=item, count=count: _envelope_with("journal", _repeat_list(item, count)),
            big=True,
        )
    # The same inside the sheet, and as a table's journals (lists of lists).
    yield _bytes_file(
        "notes-objets.fiche.json",
        "journal",
        lambda: played("douaratil").replace(b'"notes": ""', b'"notes": ' + _repeat_list(b"{}", _fill(b"{}"))),
        big=True,
    )
    yield _bytes_file(
        "journaux-listes.table.json",
        "journal",
        lambda: b'{"format": 1, "kind": "table", "sheets": [], "journals": ' + _repeat_list(b"[]", _fill(b"[]")) + b"}",
        big=True,
    )
    yield _bytes_file(
        "inconnu-objets.fiche.json",
        "journal",
        lambda: _envelope_with("inconnu", _repeat_list(b'{"a":0}', _fill(b'{"a":0}'))),
        big=True,
    )
    # A table whose sheets are as many empty objects as fit.
    yield _bytes_file(
        "fiches-vides.table.json",
        "journal",
        lambda: b'{"format": 1, "kind": "table", "sheets": ' + _repeat_list(b"{}", _fill(b"{}")) + b"}",
        big=True,
    )


def structures() -> Iterator[Hostile]:
    """Nesting, numbers, encodings, duplicate keys: small files that used to escape or mislead."""
    yield _bytes_file("crochets-100k.fiche.json", "nesting", b"[" * 100_000)
    yield _bytes_file("objets-100k.fiche.json", "nesting", b'{"a":' * 100_000)
    yield _bytes_file("crochets-900.fiche.json", "nesting", _envelope_with("journal", b"[" * 900 + b"]" * 900))
    yield _bytes_file("crochets-32mo.fiche.json", "nesting", lambda: b"[" * (LIMIT - 1), big=True)
    yield _bytes_file("nombre-5000.fiche.json", "numbers", _envelope_with("journal", b"1" * 5000))
    yield _bytes_file("nombre-4300.fiche.json", "numbers", _envelope_with("journal", b"[" + b"9" * 4300 + b"]"))
    yield _bytes_file(
        "nombres-4300.fiche.json",
        "numbers",
        lambda: _envelope_with("journal", _repeat_list(b"9" * 4300, _fill(b"9" * 4300))),
        big=True,
    )
    text = played("douaratil").decode("utf-8")
    yield _bytes_file("utf16-le.fiche.json", "encoding", text.encode("utf-16-le"))
    yield _bytes_file("utf16-be.fiche.json", "encoding", text.encode("utf-16-be"))
    yield _bytes_file("utf16-bom.fiche.json", "encoding", text.encode("utf-16"))
    yield _bytes_file("utf32.fiche.json", "encoding", text.encode("utf-32"))
    yield _bytes_file("latin1.fiche.json", "encoding", text.encode("latin-1", "replace"))
    yield _bytes_file(
        "deux-fiches.fiche.json", "duplicates", played("douaratil").replace(b'"journal"', b'"sheet": {}, "journal"', 1)
    )
    yield _bytes_file(
        "deux-niveaux.fiche.json", "duplicates", played("douaratil").replace(b'"level": 3', b'"level": 3, "level": 4')
    )


def specials() -> Iterator[Hostile]:
    def fifo(folder: Path) -> Path:
        path = folder / "tube.fiche.json"
        os.mkfifo(path)
        return path

    def zero(folder: Path) -> Path:
        path = folder / "zero.fiche.json"
        path.symlink_to("/dev/zero")
        return path

    def loop(folder: Path) -> Path:
        a, b = folder / "boucle-a.fiche.json", folder / "boucle-b.fiche.json"
        a.symlink_to(b)
        b.symlink_to(a)
        return a

    def directory(folder: Path) -> Path:
        path = folder / "dossier.fiche.json"
        path.mkdir()
        return path

    def too_big(folder: Path) -> Path:
        path = folder / "trop-gros.fiche.json"
        with open(path, "wb") as handle:
            handle.truncate(LIMIT + 1)
        return path

    for name, make in (
        ("tube", fifo),
        ("zero", zero),
        ("boucle", loop),
        ("dossier", directory),
        ("trop-gros", too_big),
    ):
        yield Hostile(name, "special", make)


def corpus(full: bool = False, big: bool = False) -> Iterator[Hostile]:
    """The hostile corpus: the quick sample by default, every offset and value with ``full``; the
    files of megabytes only with ``big``."""
    families: list[Iterator[Hostile]] = [
        truncations(full),
        flips(full),
        fields(full),
        unknown_keys(),
        invalid_tables(),
        journals(),
        structures(),
        specials(),
    ]
    for family in families:
        for item in family:
            if big or not item.big:
                yield item


def big_files() -> list[Hostile]:
    """Only the files of megabytes (the ones the bench and the slow tests measure in a fresh process)."""
    return [h for h in corpus(full=False, big=True) if h.big]


# --- answering one file in a fresh process: time and peak memory ------------------------------------

_CHILD = r"""
import json, resource, sys, time, traceback
limit = int(sys.argv[2]) * 1024 * 1024
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
from sheet_app import files
import rules
for s in rules.SYSTEMS:
    rules.system(s).ruleset()
files.decode_document(files.encode_document(files.Document("sheet", [rules.demo_sheet("douaratil")], [[]])))


def peak_kib():
    # VmHWM: this process's own peak (ru_maxrss would count the parent's memory at fork).
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


before = peak_kib()
start = time.perf_counter()
try:
    files.read_document(sys.argv[1])
    outcome, message = "ok", ""
except files.FileProblem as exc:
    outcome, message = "refused", exc.message
except BaseException as exc:
    outcome, message = "crash", "".join(traceback.format_exception(exc))[-2000:]
seconds = time.perf_counter() - start
peak = peak_kib()
print(json.dumps({"outcome": outcome, "message": message, "seconds": seconds,
                  "peak_mb": peak / 1024, "baseline_mb": before / 1024}))
"""


@dataclass(frozen=True)
class Answer:
    """How one file was answered by ``read_document`` in a fresh process."""

    outcome: str  # "ok", "refused", "crash", "timeout", "killed"
    message: str
    seconds: float
    peak_mb: float  # peak resident memory of the whole process (Python, pydantic, rules included)
    baseline_mb: float  # the same just before reading (what the imports cost)


def answer_in_child(path: Path, timeout: float = 120.0, memory_limit_mb: int = 4096) -> Answer:
    """Read ``path`` with ``files.read_document`` in a fresh Python: outcome, time and peak memory.

    The child gets an address-space limit (``memory_limit_mb``): a reader that would eat the machine
    is stopped (outcome ``killed``) rather than let loose on a shared machine.
    """
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    try:
        done = subprocess.run(
            [sys.executable, "-c", _CHILD, str(path), str(memory_limit_mb)],
            capture_output=True,
            text=True,
            timeout=timeout,
            cwd=root,
            env={**os.environ, "PYTHONPATH": str(root)},
        )
    except subprocess.TimeoutExpired:
        return Answer("timeout", f"plus de {timeout:.0f} s", timeout, float("nan"), float("nan"))
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        return Answer("killed", done.stderr[-2000:], float("nan"), float("nan"), float("nan"))
    got = json.loads(lines[-1])
    return Answer(got["outcome"], got["message"], got["seconds"], got["peak_mb"], got["baseline_mb"])
