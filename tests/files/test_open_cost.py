"""What opening a file must not do again (issue 15, sessions 6 and 7): build (or even declare: session 7) an
envelope model or a list adapter to read one sheet, or let the hand check of the envelope take what the envelope
models refuse. Structure, no time."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import ValidationError

import rules
from sheet_app import files

ROOT = Path(__file__).resolve().parents[2]


def test_reading_a_sheet_builds_no_envelope_model_nor_list_adapter() -> None:
    code = (
        "from sheet_app import files, autosave\n"
        "import sys\n"
        "for system_id in ('douaratil', 'd20', 'segments', 'severite'):\n"
        "    files.read_document(f'resources/examples/{system_id}.fiche.json')\n"
        "assert 'sheet_app.envelopes' not in sys.modules, 'the envelope models declared'\n"
        "assert not files.SheetFile.__pydantic_complete__, 'SheetFile built'\n"
        "assert not files.TableFile.__pydantic_complete__, 'TableFile built'\n"
        "assert not autosave._AutosaveFile.__pydantic_complete__, '_AutosaveFile built'\n"
        "assert files._sheet_list.cache_info().currsize == 0, 'a list adapter built for one sheet'\n"
        "import rules\n"
        "assert rules.strict_list_validator.cache_info().currsize == 0, 'a list of twins built for one sheet'\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]


def test_the_hand_checks_know_the_envelope_models_fields() -> None:
    """``_plain_envelope``'s lists of fields are the models' (written out: the models are imported when first used)."""
    assert files._SHEET_KEYS == set(files.SheetFile.model_fields)
    assert files._TABLE_KEYS == set(files.TableFile.model_fields)
    assert files._ENVELOPES == {"sheet": files.SheetFile, "table": files.TableFile}
    with pytest.raises(AttributeError):
        files.NoSuchModel  # noqa: B018


def _table() -> dict[str, object]:
    sheets = [rules.demo_sheet(s) for s in rules.SYSTEMS]
    tracker = files.TableTracker(rows=[(3, "n"), (None, "")], round=2, turn=1, started=[0], journal=["a"])
    doc = files.Document("table", sheets, [["x"]] * len(sheets), "T", tracker=tracker)
    data: dict[str, object] = json.loads(files.encode_document(doc))
    return data


VALUES = [None, True, 0, 1, 1.0, -1, "", "x" * 41, "x" * 201, [], [1], [True], ["a"], [[1]], {}, {"a": 1}, 10_000]


@pytest.mark.parametrize("key", [*sorted(files._TABLE_KEYS - {"sheets"}), "extra"])
def test_the_hand_check_of_an_envelope_takes_only_what_its_model_takes(key: str) -> None:
    """Whatever a field holds, ``_plain_envelope`` passes it only if ``TableFile`` takes it, with the same values."""
    base = _table()
    for value in VALUES:
        data = {**base, key: value}
        plain = files._plain_envelope(data)
        if plain is None:
            continue
        try:
            env = files.TableFile.model_validate(data)
        except ValidationError:
            pytest.fail(f"{key}={value!r}: the hand check takes what TableFile refuses")
        assert (plain.title, plain.systems, plain.journals, plain.round, plain.turn, plain.started, plain.journal) == (
            env.title,
            env.systems,
            env.journals,
            env.round,
            env.turn,
            env.started,
            env.journal,
        )
        assert [(r.initiative, r.note) for r in plain.rows] == [(r.initiative, r.note) for r in env.rows]


def test_one_pass_over_the_bytes_counts_as_the_separate_counts_did() -> None:
    raw = files.encode_document(files.Document("sheet", [rules.demo_sheet("severite")], [["« \\ud » : 12 34"]]))
    marks, long_digits, names, halves = files._tight(raw)
    assert marks == raw.count(b",") + raw.count(b"[") + raw.count(b"{")
    tight = raw.translate(None, b" \t\r\n")
    assert names == tight.count(b'":') - tight.count(b'\\":')
    assert halves and not long_digits  # the journal's « \\ud » is searched for in the bytes
    assert files._tight(b'{"a": ' + b"1" * 31 + b"}")[1]
    assert not files._tight(b'{"a": ' + b"1" * 30 + b"}")[1]


@pytest.mark.parametrize(
    "raw",
    [
        b'{"a": 1, "b": [2, {"c": "d"}]}',  # no backslash: the short way
        b'{"a\\"": 1, "b": "x\\":"}',  # escaped quotes before a colon: not names
        b'{"a": "\\ud83d"}',
        b'{"a": "\\uD83D", "b": 1}',
        b'{"a": "\\n\\t"}',
    ],
)
def test_the_bytes_without_a_backslash_are_counted_as_those_with_one(raw: bytes) -> None:
    """The short way taken when the copy holds no backslash (session 7) gives what the full searches give."""
    tight = raw.translate(files._TIGHT, b" \t\r\n")
    full = (
        tight.count(b","),
        tight.find(files._TOO_MANY_DIGITS) >= 0,
        tight.count(b'":') - tight.count(b'\\":'),
        b"\\ud" in tight or b"\\uD" in tight,
    )
    assert files._tight(raw) == full
    assert files._tight(raw)[3] == (b"\\ud" in raw.lower())


# --- session 9: a current file parsed by pydantic-core's parser (``files._quick_data``) ------------------


def _careful(raw: bytes) -> object:
    """What the careful way parses: ``json.loads`` of the text, with NaN and Infinity refused (``files._loads``)."""
    return json.loads(raw.decode("utf-8"), parse_constant=files._refuse_constant)


def _same(a: object, b: object) -> bool:
    """Equal JSON data, of the same types, floats to the bit (-0.0 is not 0.0), names in the same order."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return repr(a) == repr(b)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))  # type: ignore[arg-type]
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)  # type: ignore[index]
    return a == b


_PIECES = [
    b'"',
    b"\\",
    b"\\u",
    b"\\ud83d",
    b"\\ude00",
    b"{",
    b"}",
    b"[",
    b"]",
    b",",
    b":",
    b" ",
    b"\n",
    b"\t",
    b"\r",
    b"0",
    b"1",
    b"-",
    b".",
    b"e",
    b"E",
    b"+",
    b"true",
    b"null",
    b"NaN",
    b"Infinity",
    b"\x00",
    b"\x1f",
    b"\x7f",
    b"\xc3\xa9",
    b"\xe2\x80\xaf",
    b"\xff",
    b"\xed\xa0\x80",
    b"\xc3",
    b"\xef\xbb\xbf",
    b'"a":',
    b"\\n",
    b'\\"',
    b"\xc2\xa0",
    b"\x0b",
    b"\x0c",
    b"1e400",
    b"2.5e-324",
    b"0.1000000000000000055511151231257827",
]


def _value(rng: random.Random, depth: int = 0) -> str:
    roll = rng.random()
    if depth > 3 or roll < 0.4:
        atoms = [
            lambda: repr(rng.uniform(-1e6, 1e6)),
            lambda: f"{rng.randint(1, 9)}.{rng.randint(0, 10**20)}e{rng.randint(-330, 320)}",
            lambda: str(rng.randint(-(10**20), 10**20)),
            lambda: rng.choice(["true", "false", "null", "-0", "-0.0"]),
            lambda: json.dumps("".join(chr(rng.randint(0, 0x10FFFF)) for _ in range(5)), ensure_ascii=False),
        ]
        return rng.choice(atoms)()
    if roll < 0.7:
        return "[" + ",".join(_value(rng, depth + 1) for _ in range(rng.randint(0, 4))) + "]"
    return "{" + ",".join(f'"{rng.choice("abc")}":{_value(rng, depth + 1)}' for _ in range(rng.randint(0, 4))) + "}"


def _bytes(rng: random.Random) -> bytes:
    raw = bytearray(_value(rng).encode("utf-8", "surrogatepass"))
    for _ in range(rng.choice([0, 0, 1, 2])):
        at = rng.randint(0, len(raw))
        if rng.random() < 0.6:
            raw[at:at] = rng.choice(_PIECES)
        else:
            del raw[at : at + rng.randint(1, 3)]
    return bytes(raw)


def test_the_quick_parse_takes_only_what_json_loads_takes_with_the_same_values() -> None:
    """``from_json`` may refuse more than ``json.loads`` (then the careful way decides), never less, and
    what it takes it reads alike: numbers to the bit, escapes, UTF-8, blanks; bytes it takes decode as text."""
    rng = random.Random(9)
    taken = 0
    for _ in range(4000):
        raw = _bytes(rng)
        tight = files._tight(raw)
        data = files._quick_data(raw, tight)
        if data is None:
            continue
        taken += 1
        assert _same(data, _careful(raw)), raw
        assert files._text_of(raw) == raw.decode("utf-8")
    assert taken > 1000


def test_the_names_kept_are_counted_as_the_parse_hook_counts_them() -> None:
    table = files.encode_document(files.Document("table", [rules.demo_sheet(s) for s in rules.SYSTEMS] * 3))
    kept = 0

    def count(made: dict[str, object]) -> dict[str, object]:
        nonlocal kept
        kept += len(made)
        return made

    data = json.loads(table, object_hook=count)
    assert files._names_kept(data) == kept == files._tight(table)[2]
    assert files._names_kept({"a": [{"b": {}, "c": [[{"d": 1, "e": []}]]}], "f": {"g": {"h": 2}}}) == 8
    assert files._names_kept([[], 1, "a", None]) == 0


@pytest.mark.parametrize(
    "raw",
    [
        b'{"a": 1, "b": {"c": 2, "c": 3}}',  # a name given twice, at any depth
        b'{"a": [{"b": 1}, {"b": 2, "d": 4, "b": 3}]}',
        b'{"a": ' + b"1" * 31 + b"}",  # maybe a long number: bounded while parsing
        b'{"a": "\\ud83d\\ude00"}',  # maybe half a UTF-16 pair: looked for the careful way
        b'\xef\xbb\xbf{"a": 1}',  # a byte order mark: read, the careful way
        b'{"a": NaN}',
        b'{"a": Infinity}',
        b"[" * 202 + b"]" * 202,  # deeper than pydantic-core parses (201 levels)
        b'{"a": 1} x',
        b'{"a": "\xff"}',
    ],
)
def test_what_the_quick_parse_leaves_to_the_careful_way(raw: bytes) -> None:
    assert files._quick_data(raw, files._tight(raw)) is None


def test_a_name_given_twice_or_a_long_number_in_a_current_table_is_worded_as_before() -> None:
    sheets = [rules.demo_sheet(s) for s in rules.SYSTEMS] * 2
    text = files.encode_document(files.Document("table", sheets)).decode("utf-8")
    twice = text.replace('"dead": false,', '"dead": false, "dead": true,', 1)
    assert twice != text
    with pytest.raises(files.FileProblem, match="ce champ figure deux fois"):
        files.decode_document(twice.encode("utf-8"), "t.table.json")
    long = text.replace('"title": "",', '"round": ' + "1" * 31 + ",", 1)
    assert long != text
    with pytest.raises(files.FileProblem, match="nombre démesuré : 31 chiffres"):
        files.decode_document(long.encode("utf-8"), "t.table.json")


def test_a_current_table_is_read_without_json_loads_nor_its_text(monkeypatch: pytest.MonkeyPatch) -> None:
    sheets = [rules.demo_sheet(s) for s in rules.SYSTEMS] * 3
    raw = files.encode_document(files.Document("table", sheets, [["Dégâts : 5"]] * 12, "Table"))
    expected = files.decode_document(raw)

    def no(*args: object, **kwargs: object) -> object:
        raise AssertionError("the careful way taken")

    monkeypatch.setattr(files.json, "loads", no)
    monkeypatch.setattr(files, "_text_of", no)
    doc = files.decode_document(raw)
    assert doc.sheets == expected.sheets and doc.journals == expected.journals and doc.title == "Table"


def test_a_file_the_quick_parse_took_is_worded_with_its_lines_by_the_slow_reader() -> None:
    """A file parsed quickly that the fast reader does not take (here a sheet that breaks a rule) is worded
    from the same data, its text decoded then."""
    text = files.encode_document(files.Document("sheet", [rules.demo_sheet("douaratil")])).decode("utf-8")
    bad = text.replace('"level": 3,', '"level": 300,', 1)
    assert bad != text
    raw = bad.encode("utf-8")
    assert files._quick_data(raw, files._tight(raw)) is not None
    with pytest.raises(files.FileProblem) as caught:
        files.decode_document(raw, "f.fiche.json")
    assert f"ligne {bad[: bad.index('300')].count(chr(10)) + 1}" in str(caught.value)


def test_a_file_the_fast_reader_does_not_take_by_its_size_is_parsed_the_careful_way(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    lines = [",,,,,,,,,,"] * (files.FAST_PATH_MAX_MARKS // 10 + 1)  # commas in texts are marks too
    raw = files.encode_document(files.Document("sheet", [rules.demo_sheet("d20")], [lines]))

    def no(*args: object, **kwargs: object) -> object:
        raise AssertionError("parsed by from_json")

    monkeypatch.setattr(files, "from_json", no)
    assert files.decode_document(raw).journals == [lines]
