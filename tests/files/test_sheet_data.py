"""What a file's sheet may hold, through the file layer (issue 16 items 14 and 16).

Item 14: « Unknown ids from a file are accepted: a condition `ljnteur`, a grade `grav=` load
silently. Ids are validated against the system's table when a sheet is read. » Item 16: « Unbounded
values: `clock` (and four other segments counters) accept 10^400 and 4,300 digits; one `AdvanceTime`
later the save fails … Douaratil `death_failures=10, dead=false` is accepted from a file, `DeathSave`
then gives « 11/3 échecs » and the sheet can't be saved. d20 `current` above the effective maximum is
accepted from a file … Every stored field has a bound and a cross-field check, the same on load, on
edit and after every action. »

The checks themselves are the systems' (their sheet models and ``check`` hooks, tested in
``tests/rules``); here each repro of the issue is a real file read by ``read_document``: refused, in
French, at the line of the field, the file untouched, and both readers agree. Then the other half:
whatever actions do to a sheet at the bounds, the result saves and reads back (or the action is
refused in French, the sheet unchanged).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules
from sheet_app import files
from tests.files import strategies
from tests.files.conftest import examples
from tests.files.test_hostile import english_in


def _file(system_id: str, **changes: Any) -> str:
    """A sheet file of the system's demo character with ``changes`` written into its sheet (as a
    hand-edited file would be: no check on the way)."""
    doc = json.loads(files.encode_document(files.Document("sheet", [rules.demo_sheet(system_id)], [["Création."]])))
    for key, value in changes.items():
        if callable(value):
            value(doc["sheet"])
        else:
            doc["sheet"][key] = value
    return json.dumps(doc, ensure_ascii=False, indent=2)


def _line_of(text: str, needle: str) -> int:
    hits = [i + 1 for i, line in enumerate(text.splitlines()) if needle in line]
    assert hits, needle
    return hits[0]


# Douaratil and segments check what needs their rule table in one model validator that raises one
# ValueError for the whole sheet: the file layer can only place those problems at the sheet's line
# (the field is named in the text). Sévérité and d20 give each problem its field (its own line).
WHOLE_SHEET_CHECKS = {"douaratil", "segments"}


def _field_line(system_id: str, text: str, needle: str) -> int:
    """The line a problem of the field at ``needle`` is reported at (see ``WHOLE_SHEET_CHECKS``)."""
    return _line_of(text, _key("sheet") if system_id in WHOLE_SHEET_CHECKS else needle)


def _key(name: str) -> str:
    return json.dumps(name) + ":"


def _refused(tmp_path: Path, text: str) -> str:
    """Read ``text`` as a file: it must be refused in French, the file untouched, by both readers."""
    path = tmp_path / "hors-regle.fiche.json"
    raw = text.encode("utf-8")
    path.write_bytes(raw)
    with pytest.raises(files.FileProblem) as caught:
        files.read_document(path)
    assert path.read_bytes() == raw, "reading changed the file"
    assert files._decode_fast(raw) is None, "the fast reader accepts what the careful one refuses"
    message = caught.value.message
    assert message.startswith(f"{path} : "), message
    assert not english_in(message, path), message
    assert "Traceback" not in message and "Error" not in message
    return message


def _first_wound_grade(value: str) -> Any:
    def put(sheet: dict[str, Any]) -> None:
        assert sheet["wounds"], "the Sévérité demo character has a wound"
        sheet["wounds"][0]["grade"] = value

    return put


# --- item 14: ids against the system's table -----------------------------------------------------------


@pytest.mark.parametrize("system_id", rules.SYSTEMS)
def test_an_unknown_condition_in_a_file_is_refused_at_its_line(system_id: str, tmp_path: Path) -> None:
    text = _file(system_id, conditions=["ljnteur"])
    message = _refused(tmp_path, text)
    assert "« états" in message and "« ljnteur »" in message, message
    assert f"ligne {_field_line(system_id, text, 'ljnteur')} : « états" in message, message


def test_an_unknown_severite_grade_in_a_file_is_refused_at_its_line(tmp_path: Path) -> None:
    text = _file("severite", wounds=_first_wound_grade("grav="))
    message = _refused(tmp_path, text)
    assert f"ligne {_line_of(text, 'grav=')}" in message and "« grav= »" in message, message
    assert "Grave" in message, message  # the known grades are named


# --- item 16: bounds and fields that agree ------------------------------------------------------------


@pytest.mark.parametrize("system_id", rules.SYSTEMS)
@pytest.mark.parametrize("value", ["10" + "0" * 400, "9" * 4300, str(10**13)])
def test_a_clock_beyond_what_a_sheet_holds_is_refused_at_its_line(system_id: str, value: str, tmp_path: Path) -> None:
    text = _file(system_id, clock=0).replace('"clock": 0', f'"clock": {value}', 1)
    message = _refused(tmp_path, text)
    assert f"ligne {_line_of(text, _key('clock'))}" in message, message
    # the field in the system's own word (Douaratil and d20 « horloge de la fiche », segments « temps écoulé »)
    assert any(w in message.lower() for w in ("temps écoulé", "horloge de la fiche", "nombre démesuré")), message


SEGMENT_COUNTERS = [
    "burning_for",
    "exposure_for",
    "hungry_for",
    "thirsty_for",
    "sleepless_for",
    "suffocating_for",
    "nonlethal_for",
    "surprised_for",
]


@pytest.mark.parametrize("field", SEGMENT_COUNTERS)
def test_no_segments_counter_takes_an_unbounded_number_from_a_file(field: str, tmp_path: Path) -> None:
    text = _file("segments", **{field: 10**13})
    message = _refused(tmp_path, text)
    assert f"ligne {_line_of(text, _key(field))}" in message and "inférieur ou égal" in message, message


def test_douaratil_eleven_failed_death_saves_alive_is_refused(tmp_path: Path) -> None:
    text = _file("douaratil", death_failures=10, dead=False)
    message = _refused(tmp_path, text)
    line = _field_line("douaratil", text, _key("death_failures"))
    assert f"ligne {line} : « échecs aux jets contre la mort » : 10 sur 3 au plus" in message, message


def test_d20_points_above_the_effective_maximum_are_refused(tmp_path: Path) -> None:
    """The repro's dead character with Constitution damage: its maximum is lowered, its PV may not
    stand above it."""
    sheet = rules.demo_sheet("d20")
    maximum = rules.derive(rules.evolve(sheet, constitution_damage=4)).maximum
    text = _file("d20", constitution_damage=4, dead=True, current=maximum + 1, conditions=[], death_cause="")
    message = _refused(tmp_path, text)
    assert f"ligne {_line_of(text, _key('current'))}" in message and "maximum" in message, message
    ok = _file("d20", constitution_damage=4, dead=True, current=maximum, conditions=[], death_cause="")
    assert rules.derive(files.decode_document(ok.encode()).sheets[0]).maximum == maximum


# --- the same after every action: what actions make of a sheet at the bounds saves and reads back ------


MAX_TIME_COUNT = rules.AdvanceTime.model_json_schema()["properties"]["count"]["maximum"]


def _clock_bound(system_id: str) -> int:
    schema = rules.system(system_id).sheet_type.model_json_schema()
    return int(schema["properties"]["clock"]["maximum"])


@pytest.mark.parametrize("system_id", rules.SYSTEMS)
def test_time_at_the_bound_is_refused_or_saved_never_a_sheet_that_cannot_be_saved(system_id: str) -> None:
    """“one `AdvanceTime` later the save fails”: the largest time a sheet can be asked to pass, from
    a clock just under its bound, is refused in French (sheet unchanged) or gives a sheet that saves
    and reads back equal."""
    info = rules.describe(system_id)
    start = rules.evolve(rules.demo_sheet(system_id), clock=_clock_bound(system_id) - 10**7)
    refused = saved = 0
    for unit in info.time_units:
        for count in (1, MAX_TIME_COUNT):
            try:
                out = rules.apply(start, rules.AdvanceTime(unit=unit.id, count=count))
            except rules.Refused as exc:
                assert not english_in(str(exc), Path("-")), str(exc)
                refused += 1
                continue
            raw = files.encode_document(files.Document("sheet", [out.sheet], [list(out.log)]))
            assert files.decode_document(raw).sheets == [out.sheet]
            saved += 1
    assert refused, "no unit reaches past the bound: the test does not test it"
    assert saved, "one second more always fits"


@pytest.mark.parametrize("system_id", rules.SYSTEMS)
@settings(max_examples=examples(0.3), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_actions_with_numbers_at_their_bounds_leave_sheets_that_save(system_id: str, data: st.DataObject) -> None:
    """Every action of the system, its numbers at their bounds (±100,000, dice that roll past it),
    edits at the fields' limits, one after the other: after each, the sheet saves and reads back
    equal, or the action was refused (in French) and the sheet is the same object as before."""
    sheet = rules.demo_sheet(system_id)
    rng = random.Random(data.draw(st.integers(0, 2**32 - 1)))
    for _ in range(data.draw(st.integers(1, 12))):
        action = data.draw(strategies.actions(system_id, extreme=True))
        if action is None:
            continue
        try:
            out = rules.apply(sheet, action, rng=rng)
        except rules.Refused as exc:
            assert not english_in(str(exc), Path("-")), (action, str(exc))
            continue
        raw = files.encode_document(files.Document("sheet", [out.sheet], [list(out.log)]))
        assert files.decode_document(raw).sheets == [out.sheet], action
        sheet = out.sheet


EDITS = [
    *[(system_id, {"clock": 10**400}) for system_id in rules.SYSTEMS],
    *[(system_id, {"clock": int("9" * 4300)}) for system_id in rules.SYSTEMS],
    ("segments", {"burning_for": 10**13}),
    ("douaratil", {"death_failures": 10, "dead": False}),
    ("severite", {"level": 10**20}),
]


@pytest.mark.parametrize(("system_id", "changes"), EDITS, ids=lambda v: str(v)[:24])
def test_the_same_values_are_refused_by_an_edit(system_id: str, changes: dict[str, Any]) -> None:
    """“the same on load, on edit”: what a file may not hold, an edit may not put there (French, the
    sheet unchanged)."""
    sheet = rules.demo_sheet(system_id)
    before = rules.sheet_to_data(sheet)
    with pytest.raises(rules.Refused) as caught:
        rules.apply(sheet, rules.Edit(changes=changes))
    assert not english_in(str(caught.value), Path("-")), str(caught.value)
    assert rules.sheet_to_data(sheet) == before
