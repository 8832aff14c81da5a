"""What opening a file must not do again (issue 15, sessions 6 and 7): build (or even declare: session 7) an
envelope model or a list adapter to read one sheet, or let the hand check of the envelope take what the envelope
models refuse. Structure, no time."""

from __future__ import annotations

import json
import os
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
