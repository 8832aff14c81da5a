"""A GM table's own data in its file (initiatives, notes, round, turn, the table's journal): kept through
a save and a read, refused in French with its line when it points past the sheets."""

from __future__ import annotations

import json

import pytest

import rules
from sheet_app import files


def table(tracker: files.TableTracker | None) -> files.Document:
    sheets = [rules.demo_sheet("douaratil"), rules.demo_sheet("severite"), rules.demo_sheet("d20")]
    return files.Document("table", sheets, [["Arrivée"], [], []], "Séance 3", tracker=tracker)


def test_the_table_s_own_data_round_trips() -> None:
    tracker = files.TableTracker(
        rows=[(14, ""), (None, "garde la porte"), (-2, "")],
        round=3,
        turn=2,
        started=[0, 2],
        journal=["Dégâts 2d6 = 7\nLancé une fois pour tous : 2d6 (3, 4) = 7.", "Round 3"],
    )
    raw = files.encode_document(table(tracker))
    back = files.decode_document(raw)
    assert back.tracker == tracker
    # The slow reader (the one that words problems) agrees with the fast one.
    assert files._decode_slow(raw, "t").tracker == tracker
    data = json.loads(raw)
    assert data["rows"][1] == {"initiative": None, "note": "garde la porte"}
    assert data["round"] == 3 and data["turn"] == 2 and data["started"] == [0, 2]


def test_a_table_without_its_own_data_is_written_as_before() -> None:
    raw = files.encode_document(table(None))
    assert b'"rows"' not in raw and b'"round"' not in raw
    assert files.decode_document(raw).tracker is None
    assert files.decode_document(files.encode_document(table(files.TableTracker()))).tracker is None


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("turn", 3, "« tour » : la fiche n° 4 n'existe pas (3 fiches)"),
        ("started", [0, 7], "« tours commencés » : la fiche n° 8 n'existe pas"),
        ("rows", [{"initiative": 1}] * 4, "« lignes » : 4 lignes pour 3 fiches"),
        ("rows", [{"initiative": 1, "note": "x" * 2001}], "« lignes › n° 1 › note » : est trop long"),
        ("rows", [{"initiative": "vite"}], "« lignes › n° 1 › initiative »"),
        ("round", -1, "« round »"),
    ],
)
def test_bad_table_data_is_refused_with_its_line(field: str, value: object, words: str) -> None:
    data = json.loads(files.encode_document(table(files.TableTracker(round=1))))
    data[field] = value
    raw = json.dumps(data, ensure_ascii=False, indent=2).encode("utf-8")
    with pytest.raises(files.FileProblem) as problem:
        files.decode_document(raw, "seance.table.json")
    message = problem.value.message
    assert message.startswith("seance.table.json : ligne "), message
    assert words in message, message


def test_saving_refuses_table_data_the_format_cannot_hold() -> None:
    bad = files.TableTracker(rows=[(20_000, "")], turn=5, journal=["x" * 10_001])
    with pytest.raises(files.FileProblem) as problem:
        files.encode_document(table(bad), "seance.table.json")
    text = problem.value.message
    assert "initiative hors limites" in text and "tour" in text and "journal de la table" in text
