"""Files within the limits are answered cheaply; data is read strictly (issue 16, items 1, 2, 15, 18).

Item 1: « Report at most a bounded number of problems (say the first 50, then « … et N autres »), and
locate them in one pass. » Item 2: « Any file under the size limit is answered within ~10× its size in
memory (count and type-check before building Python objects, or parse with limits). » Item 15:
« `true` → 1 in 85 integer fields, `"3"` and `3.0` accepted, `1e-400` → 0 … Files are read strictly
…, with French messages. » Item 18: « a format-2 file whose `needs` is 0.1.0 says « il faut sheet_app
0.1.0 ou plus récent »; two `"sheet"` keys → the last silently wins (refuse duplicate keys); UTF-16
without BOM gets a generic message ».

The time and memory of the biggest files are measured in ``test_hostile.py`` (a fresh process each);
here, the mechanisms: one location pass, nothing parsed past the limits, bounded counting.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import rules
from sheet_app import files
from tests.files import hostile


def _text(sheet: Any = None, journal: list[str] | None = None) -> str:
    sheet = sheet if sheet is not None else rules.demo_sheet("douaratil")
    return files.encode_document(files.Document("sheet", [sheet], [journal or []])).decode("utf-8")


def _line(text: str, needle: str, occurrence: int = 1) -> int:
    hits = [i + 1 for i, line in enumerate(text.splitlines()) if needle in line]
    return hits[occurrence - 1]


def _refused(raw: bytes | str, name: str = "f.fiche.json") -> str:
    raw = raw.encode("utf-8") if isinstance(raw, str) else raw
    with pytest.raises(files.FileProblem) as caught:
        files.decode_document(raw, name)
    assert files._decode_fast(raw) is None, "the fast reader accepts what the wording reader refuses"
    return caught.value.message


# --- item 1: bounded reports, located in one pass -------------------------------------------------------


def test_16000_unknown_keys_list_50_and_count_the_rest_locating_them_in_one_pass(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    data = json.loads(_text())
    data.update({f"inconnu_{i}": i for i in range(16_000)})
    text = json.dumps(data, indent=2)
    passes: list[int] = []
    locate = files._positions

    def counted(text: str, locs: Any, last: Any = ()) -> Any:
        passes.append(1)
        return locate(text, locs, last)

    monkeypatch.setattr(files, "_positions", counted)
    message = _refused(text)
    lines = message.splitlines()
    assert lines[0] == "f.fiche.json : 16\u202f000 problèmes :"
    assert len(lines) == 1 + files.MAX_PROBLEMS + 1
    assert lines[1] == f"  ligne {_line(text, 'inconnu_0')} : « inconnu_0 » : n'est pas un champ connu de ce format"
    assert lines[50] == f"  ligne {_line(text, 'inconnu_49')} : « inconnu_49 » : n'est pas un champ connu de ce format"
    assert lines[-1] == "  … et 15\u202f950 autres problèmes."
    assert passes == [1], "the lines of the problems are found in one pass over the text"


def test_a_table_of_2000_invalid_sheets_lists_50_with_their_lines() -> None:
    raw = hostile.invalid_table(2000)
    text = raw.decode("utf-8")
    message = _refused(raw, "t.table.json")
    lines = message.splitlines()
    assert lines[0] == "t.table.json : 2\u202f000 problèmes :"
    level = "« niveau » : doit être inférieur ou égal à 100"
    needle = '"level": 1000'
    assert lines[1] == f"  ligne {_line(text, needle, 1)} : fiche n° 1 « Ulfred » : {level}"
    assert lines[50] == f"  ligne {_line(text, needle, 50)} : fiche n° 50 « Ulfred » : {level}"
    assert lines[-1] == "  … et 1\u202f950 autres problèmes."


def test_past_a_budget_of_errors_the_count_stops_and_says_so() -> None:
    """Sheets of 15,000 unknown fields each: wording or counting them all would take seconds."""
    sheet = json.loads(_text())["sheet"]
    sheet.update({f"x{i}": 0 for i in range(15_000)})
    table = {"format": 1, "kind": "table", "sheets": [sheet] * 8}
    message = _refused(json.dumps(table), "t.table.json")
    assert message.splitlines()[0].startswith("t.table.json : plus de ")
    assert message.splitlines()[-1].startswith("  … et plus de ")


def test_a_sheet_of_more_than_20000_values_is_refused_by_its_size() -> None:
    sheet = json.loads(_text())["sheet"]
    sheet["conditions"] = ["a_terre"] * (files.MAX_SHEET_VALUES + 1)
    # In a file too big for the fast reader (there, the whole file is bounded instead).
    padding = [["a"] * files.MAX_JOURNAL_LINES] * (files.FAST_PATH_MAX_MARKS // files.MAX_JOURNAL_LINES + 1)
    others = [json.loads(_text())["sheet"] for _ in padding]
    table = {"format": 1, "kind": "table", "sheets": [sheet, *others], "journals": [[], *padding]}
    message = _refused(json.dumps(table), "t.table.json")
    assert "fiche n° 1 « Ulfred » : fiche démesurée : plus de 20\u202f000 valeurs JSON" in message


# --- item 2: nothing is built past the limits -----------------------------------------------------------


def test_a_journal_of_ten_million_objects_is_refused_before_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    raw = hostile._envelope_with("journal", hostile._repeat_list(b"{}", 10_000_000))
    assert len(raw) < files.MAX_FILE_BYTES

    def no_parse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("parsed")

    monkeypatch.setattr(files.json, "loads", no_parse)
    with pytest.raises(files.FileProblem, match=r"structure démesurée : 20\u202f000\u202f0\d\d virgules, crochets"):
        files.decode_document(raw, "f")


def test_the_marks_limit_is_exact() -> None:
    head = hostile._envelope_with("journal", b"[]")
    marks = files._marks(head)
    fill = files.MAX_JSON_MARKS - marks  # commas between "a" lines: one mark each
    at_limit = hostile._envelope_with("journal", hostile._repeat_list(b'"a"', fill + 1))
    assert files._marks(at_limit) == files.MAX_JSON_MARKS
    message = _refused(at_limit)
    assert "lignes (au plus 100\u202f000)" in message  # parsed: refused for its journal, not its size
    over = hostile._envelope_with("journal", hostile._repeat_list(b'"a"', fill + 2))
    assert "structure démesurée" in _refused(over)


def test_an_integer_of_more_than_30_digits_is_refused_while_parsing() -> None:
    text = _text().replace('"xp": 0', '"xp": ' + "9" * 4300)
    assert f"ligne {_line(text, '9999')} : nombre démesuré : 4\u202f300 chiffres (au plus 30)." in _refused(text)
    text = _text().replace('"xp": 0', '"xp": -' + "1" * 31)
    assert "nombre démesuré : 31 chiffres" in _refused(text)
    # In a text, digits are only text.
    files.decode_document(_text(journal=["1" * 5000]).encode("utf-8"))


# --- item 15: strict reading ------------------------------------------------------------------------------


@pytest.mark.parametrize("loose", ["true", '"3"', "3.0", "1e-400", "1e308", "-0.0"])
def test_an_integer_field_takes_only_a_json_integer(loose: str) -> None:
    text = _text().replace('"level": 3', f'"level": {loose}')
    assert f"ligne {_line(text, LEVEL)} : « niveau » : doit être un nombre entier" in _refused(text)


LEVEL = '"level"'


def test_strict_everywhere_nested_fields_and_booleans() -> None:
    wounded = rules.apply(
        rules.demo_sheet("douaratil"), rules.AddWound(wound_type=_a_wound_type(), severity="minor")
    ).sheet
    text = _text(wounded).replace('"rests": 0', '"rests": "0"')
    rests, dead = '"rests"', '"dead"'
    message = _refused(text)
    where = f"ligne {_line(text, rests)} : « blessures › n° 1 › repos longs passés »"
    assert f"{where} : doit être un nombre entier" in message
    text = _text().replace('"dead": false', '"dead": 0')
    # Named in Douaratil's own word for the field (its sheet's « décès »), whichever systems are loaded
    # already: before, « mort » came from d20's labels if d20 had been loaded first, else « dead ».
    assert f"ligne {_line(text, dead)} : « décès » : doit être vrai ou faux" in _refused(text)
    text = _text().replace('"is_npc": false', '"is_npc": "false"')
    assert "doit être vrai ou faux" in _refused(text)


def _a_wound_type() -> str:
    info = rules.describe("douaratil")
    return info.wound_types[0].id


def test_strict_in_every_system_and_in_tables() -> None:
    for system_id in rules.SYSTEMS:
        sheet = rules.demo_sheet(system_id)
        raw = files.encode_document(files.Document("table", [sheet, sheet]))
        text = raw.decode("utf-8").replace('"level": ', '"level": 1.0 + ', 1).replace("1.0 + ", "", 0)
        data = json.loads(raw)
        data["sheets"][1]["level"] = True
        message = _refused(json.dumps(data, indent=2), "t.table.json")
        assert "fiche n° 2" in message and "« niveau » : doit être un nombre entier" in message, message
        assert text  # the table as written reads back
        files.decode_document(raw)


# --- item 18 ------------------------------------------------------------------------------------------------


def test_a_newer_format_that_claims_our_version_asks_for_a_newer_sheet_app() -> None:
    data = json.loads(_text())
    data.update(format=2, needs="0.1.0", app="0.1.0")
    message = _refused(json.dumps(data))
    assert "il faut une version plus récente de sheet_app pour l'ouvrir" in message
    data.update(needs="0.3.0")
    assert "il faut sheet_app 0.3.0 ou plus récent" in _refused(json.dumps(data))


def test_a_field_given_twice_is_refused_with_the_line_of_the_second() -> None:
    text = _text()
    twice = text.replace('"journal": [', '"sheet": {},\n  "journal": [', 1)
    message = _refused(twice)
    sheet_key = '"sheet":'
    assert f"ligne {_line(twice, sheet_key, 2)} : « fiche » : ce champ figure deux fois" in message
    inner = text.replace('"level": 3,', '"level": 3,\n    "level": 4,', 1)
    message = _refused(inner)
    assert f"ligne {_line(inner, LEVEL, 2)} : « fiche › level » : ce champ figure deux fois" in message


def test_a_field_given_twice_in_a_big_table_is_refused_by_both_readers() -> None:
    sheets = [rules.demo_sheet(s) for s in rules.SYSTEMS] * 50
    text = files.encode_document(files.Document("table", sheets)).decode("utf-8")
    twice = text.replace('"clock": 0,', '"clock": 0, "clock": 5,', 1)
    assert twice != text
    assert "ce champ figure deux fois" in _refused(twice, "t.table.json")


def test_names_in_texts_and_loose_layouts_do_not_count_as_twice() -> None:
    text = _text(journal=['Il dit : "stop": rien.', ": ouvert", '"level": 9'])
    spaced = text.replace('"level": 3', '"level"   :\n 3')
    for variant in (text, spaced):
        doc = files.decode_document(variant.encode("utf-8"))
        assert doc.sheets[0].level == 3


@pytest.mark.parametrize(
    ("encoding", "named"), [("utf-16-le", "UTF-16"), ("utf-16-be", "UTF-16"), ("utf-32-le", "UTF-32")]
)
def test_utf16_and_utf32_without_byte_order_mark_are_named(encoding: str, named: str) -> None:
    message = _refused(_text().encode(encoding))
    assert f"semble encodé en {named} (sans marque d'ordre)" in message
