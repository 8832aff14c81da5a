"""The shipped rule tables' parsed data, kept between starts (``rules.keep_parsed_tables``, issue 15).

A start read and parsed each shipped table's TOML text (``tomllib``: ~28 M instructions with its import); the
data parsed is now kept as JSON in the app's cache folder with the whole text it came from, and read back
only for that very text. What is kept is the parsing alone: the data is validated by the table's model at
every start, so a table a GM edited is read again, and a table the rules refuse is refused in the same words.
"""

from __future__ import annotations

import importlib
import json
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

import rules
from rules.errors import RulesetError
from rules.ruleset import parse_ruleset, shipped_data, shipped_text

SYSTEMS = sorted(rules.SYSTEMS)
ruleset = importlib.import_module("rules.ruleset")  # the module (``rules.ruleset`` is the facade's function)


@pytest.fixture
def kept(tmp_path: Path) -> Any:
    folder = tmp_path / "cache" / "rulesets"
    rules.keep_parsed_tables(folder)
    yield folder
    rules.keep_parsed_tables(None)


def _no_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(text: str, source: str) -> Any:
        raise AssertionError("parsed again")

    monkeypatch.setattr(ruleset, "parse_toml", refuse)


def _same_types(a: Any, b: Any) -> bool:
    """Equal, and of the same types all the way down (an integer stays an integer, a float a float)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same_types(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same_types(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def _edited(monkeypatch: pytest.MonkeyPatch, system_id: str, text: str) -> None:
    """The shipped file of ``system_id`` as a GM left it: ``text``."""
    source = f"resources/rulesets/{system_id}.toml"
    monkeypatch.setattr(ruleset, "shipped_text", lambda s: (text, source) if s == system_id else shipped_text(s))


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_the_kept_data_is_the_parsed_data_and_the_same_table(
    system_id: str, kept: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text, source = shipped_text(system_id)
    parsed = tomllib.loads(text)
    model = rules.system(system_id).ruleset_type
    from_text = parse_ruleset(model, text, source)
    first, named = shipped_data(system_id)
    assert named == source == f"resources/rulesets/{system_id}.toml"
    assert _same_types(first, parsed)
    assert (kept / f"{system_id}.json").is_file()
    _no_parsing(monkeypatch)
    again, _ = shipped_data(system_id)  # read back, not parsed
    assert _same_types(again, parsed)
    assert ruleset.validate_table(model, again, source) == from_text == rules.ruleset(system_id)


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_without_a_folder_nothing_is_kept(system_id: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rules.keep_parsed_tables(None)
    calls: list[str] = []
    parse = ruleset.parse_toml
    monkeypatch.setattr(ruleset, "parse_toml", lambda t, s: calls.append(s) or parse(t, s))
    shipped_data(system_id)
    shipped_data(system_id)
    assert calls == [f"resources/rulesets/{system_id}.toml"] * 2


def test_a_table_a_gm_edited_is_read_again_and_kept_anew(kept: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text, _ = shipped_text("douaratil")
    shipped_data("douaratil")
    edited = text.replace("ability_base = 10", "ability_base = 12")
    assert edited != text
    _edited(monkeypatch, "douaratil", edited)
    data, _ = shipped_data("douaratil")
    assert data["general"]["ability_base"] == 12
    assert json.loads((kept / "douaratil.json").read_text(encoding="utf-8"))["text"] == edited
    _no_parsing(monkeypatch)
    assert shipped_data("douaratil")[0]["general"]["ability_base"] == 12  # the new copy read back
    # One character more (a comment at the end) is another text: parsed again.
    _edited(monkeypatch, "douaratil", edited + "#")
    with pytest.raises(AssertionError, match="parsed again"):
        shipped_data("douaratil")


@pytest.mark.parametrize(
    ("change", "error"),
    [
        (("ability_base = 10", "ability_base = ["), "syntaxe TOML invalide"),
        (("ability_base = 10", "ability_base = 1000"), "« general › ability_base »"),
        (("ability_base = 10", 'ability_base = "dix"'), "« general › ability_base »"),
    ],
)
def test_a_broken_edit_is_refused_as_before_and_the_old_copy_never_serves_it(
    change: tuple[str, str], error: str, kept: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text, source = shipped_text("douaratil")
    shipped_data("douaratil")  # the shipped text's copy kept
    broken = text.replace(*change)
    model = rules.system("douaratil").ruleset_type
    with pytest.raises(RulesetError) as before:
        parse_ruleset(model, broken, source)
    _edited(monkeypatch, "douaratil", broken)
    for _ in range(2):  # the first time and again (nothing kept makes it pass)
        with pytest.raises(RulesetError) as now:
            ruleset._cached.__wrapped__(model, "douaratil")
        assert str(now.value) == str(before.value)
        assert str(now.value).startswith("resources/rulesets/douaratil.toml : ") and error in str(now.value)


@pytest.mark.parametrize(
    "spoil",
    [
        lambda blob: b"not json",
        lambda blob: b"\xff\xfe",
        lambda blob: b"[1, 2]",
        lambda blob: b"[" * 100_000,
        lambda blob: json.dumps({**json.loads(blob), "format": 0}).encode(),
        lambda blob: json.dumps({**json.loads(blob), "python": "3.99"}).encode(),
        lambda blob: json.dumps({**json.loads(blob), "text": json.loads(blob)["text"] + " "}).encode(),
        lambda blob: json.dumps({**json.loads(blob), "data": [1]}).encode(),
        lambda blob: json.dumps({k: v for k, v in json.loads(blob).items() if k != "data"}).encode(),
        lambda blob: blob + b" " * (4 * ruleset.MAX_RULESET_BYTES),
    ],
    ids=["not-json", "not-utf8", "not-object", "too-deep", "format", "python", "text", "data", "no-data", "too-big"],
)
def test_a_copy_that_does_not_fit_is_parsed_again(spoil: Any, kept: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shipped_data("d20")
    path = kept / "d20.json"
    path.write_bytes(spoil(path.read_bytes()))
    calls: list[str] = []
    parse = ruleset.parse_toml
    monkeypatch.setattr(ruleset, "parse_toml", lambda t, s: calls.append(s) or parse(t, s))
    data, _ = shipped_data("d20")
    assert calls == ["resources/rulesets/d20.toml"]
    assert _same_types(data, tomllib.loads(shipped_text("d20")[0]))
    assert json.loads(path.read_text(encoding="utf-8"))["data"] == data  # kept anew


def test_the_copy_says_what_it_was_parsed_from(kept: Path) -> None:
    shipped_data("segments")
    blob = json.loads((kept / "segments.json").read_text(encoding="utf-8"))
    assert set(blob) == {"format", "python", "text", "data"}
    assert blob["python"] == sys.version and blob["text"] == shipped_text("segments")[0]
    assert [p.name for p in kept.iterdir()] == ["segments.json"]  # no part file left


def test_data_json_cannot_hold_exactly_is_not_kept(kept: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A TOML date (no JSON type) is parsed at every start, never kept as a text."""
    text, _ = shipped_text("severite")
    _edited(monkeypatch, "severite", "day = 2026-12-02\n" + text)
    data, _ = shipped_data("severite")
    assert str(data["day"]) == "2026-12-02" and not isinstance(data["day"], str)
    assert not (kept / "severite.json").exists()


def test_a_folder_that_cannot_be_written_changes_nothing(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("x", encoding="utf-8")
    rules.keep_parsed_tables(blocked / "rulesets")  # under a file: nothing can be made there
    try:
        data, _ = shipped_data("douaratil")
    finally:
        rules.keep_parsed_tables(None)
    assert _same_types(data, tomllib.loads(shipped_text("douaratil")[0]))
    assert blocked.read_text(encoding="utf-8") == "x"


def test_a_folder_in_the_copy_s_place_changes_nothing_and_leaves_no_part_file(kept: Path) -> None:
    (kept / "d20.json").mkdir(parents=True)  # cannot be read as a file, nor replaced by one
    data, _ = shipped_data("d20")
    assert _same_types(data, tomllib.loads(shipped_text("d20")[0]))
    assert [p.name for p in kept.iterdir()] == ["d20.json"] and (kept / "d20.json").is_dir()


def test_a_byte_order_mark_is_read_past_as_before(kept: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Some editors write one at the start of a UTF-8 file: the table is the same, parsed or read back."""
    text, _ = shipped_text("douaratil")
    _edited(monkeypatch, "douaratil", "\ufeff" + text)
    for _ in range(2):  # parsed and kept, then read back
        assert _same_types(shipped_data("douaratil")[0], tomllib.loads(text))
