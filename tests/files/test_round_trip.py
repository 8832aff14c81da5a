"""Round trip: every sheet of every system, saved and reopened, is equal (issue 7 « Proof »).

« Round trip: every sheet of every system saved and reopened is equal (hypothesis, thousands of
sheets). » Each example of the mixed run is a sheet file or a GM table of up to 24 sheets of any
registered system after random play; with the per-system runs and the table of 1,000 NPCs, the
default profile round-trips about 1,700 generated sheets and 1,000 NPCs (measured: 200 mixed
examples held 1,254 sheets), the ``ci`` profile half as many again, and ``SHEET_APP_BIG=1`` ten times
the generated ones.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules
from sheet_app import files
from tests.files.conftest import examples
from tests.files.strategies import documents, sheets


def _padded(doc: files.Document) -> list[list[str]]:
    return [list(j) for j in doc.journals] + [[] for _ in range(len(doc.sheets) - len(doc.journals))]


def _assert_same(back: files.Document, doc: files.Document) -> None:
    assert back.kind == doc.kind
    assert back.sheets == doc.sheets
    assert [type(s) for s in back.sheets] == [type(s) for s in doc.sheets]
    assert back.journals == _padded(doc)
    assert back.title == (doc.title if doc.kind == "table" else "")
    assert back.migrated_from is None


@pytest.mark.slow
@settings(max_examples=examples(), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents(max_sheets=24))
def test_every_document_round_trips_in_memory(doc: files.Document) -> None:
    """Encoded then decoded, a document is equal — by the fast reader and by the wording one alike."""
    raw = files.encode_document(doc)
    raw.decode("utf-8")  # always UTF-8 text
    _assert_same(files.decode_document(raw, "x"), doc)
    _assert_same(files._decode_slow(raw, "x"), doc)
    # Writing what was read gives the same bytes: saving is stable, nothing drifts from save to save.
    assert files.encode_document(files.decode_document(raw, "x")) == raw


@settings(max_examples=examples(0.25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(doc=documents(max_sheets=4))
def test_documents_round_trip_through_the_disk(doc: files.Document, tmp_path_factory: pytest.TempPathFactory) -> None:
    """The same through ``write_document`` / ``read_document`` (atomic write, stamps)."""
    folder = tmp_path_factory.mktemp("rt")
    path = folder / ("x" + (files.SHEET_SUFFIX if doc.kind == "sheet" else files.TABLE_SUFFIX))
    stamp = files.write_document(path, doc)
    back, read_stamp = files.read_document(path)
    _assert_same(back, doc)
    assert read_stamp == stamp and read_stamp.sha256 == stamp.sha256
    assert [p.name for p in folder.iterdir()] == [path.name], "a temp file was left behind"


@pytest.mark.parametrize("system_id", rules.SYSTEMS)
@settings(max_examples=examples(0.5), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_each_system_round_trips(system_id: str, data: st.DataObject) -> None:
    """Per system, so a system with few examples in the mixed run is still covered on its own."""
    sheet = data.draw(sheets(system_id, max_actions=20))
    doc = files.Document("sheet", [sheet], [["Dégâts 7 (2d6+3 : 4 + 0 + 3)."]])
    back = files.decode_document(files.encode_document(doc), "x")
    assert back.sheets == [sheet]
    assert rules.derive(back.sheets[0]).maximum == rules.derive(sheet).maximum


@pytest.mark.parametrize("system_id", rules.SYSTEMS)
def test_demo_sheets_round_trip(system_id: str, tmp_path: Path) -> None:
    demo = rules.demo_sheet(system_id)
    path = tmp_path / f"demo{files.SHEET_SUFFIX}"
    files.write_document(path, files.Document("sheet", [demo], [["Création."]]))
    back, _ = files.read_document(path)
    assert back.sheets == [demo]
    assert back.journals == [["Création."]]


def test_a_1000_npc_table_round_trips(tmp_path: Path) -> None:
    """The GM's big table: a thousand NPCs of every system after a few blows each."""
    rng = random.Random(1000)
    npcs = []
    hurt = 0
    for i in range(1000):
        system_id = rules.SYSTEMS[i % len(rules.SYSTEMS)]
        fresh = rules.evolve(rules.demo_sheet(system_id), name=f"Gobelin {i}", is_npc=True)
        sheet = rules.apply(fresh, rules.Damage(amount=rng.randint(1, 9)), rng=rng).sheet  # never refused
        hurt += sheet != fresh  # armour may stop a small blow
        npcs.append(sheet)
    assert hurt > 750  # three systems in four always take the blow; armour stops some of segments'
    doc = files.Document("table", npcs, [[f"PNJ {i}"] for i in range(1000)], "La horde")
    path = tmp_path / f"horde{files.TABLE_SUFFIX}"
    files.write_document(path, doc)
    back, _ = files.read_document(path)
    assert back.sheets == npcs
    assert back.journals == doc.journals and back.title == "La horde"
