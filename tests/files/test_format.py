"""The file format: readable UTF-8 JSON with a version and a system id, migrations, newer versions.

Issue 7 « Format »: « One sheet = one human-readable UTF-8 JSON file … a GM table = one file holding
many sheets. Both carry a format version and the system id … Older versions are migrated on open (and
the migration is tested with a file of each older version kept in tests/); a newer version is refused
with a message saying which version of sheet_app is needed. »
"""

from __future__ import annotations

import json
import pickle
import re
from pathlib import Path

import pytest

import rules
import sheet_app
from sheet_app import files

DATA = Path(__file__).resolve().parent / "data"
ROOT = Path(__file__).resolve().parents[2]
KEPT = sorted(DATA.glob("v*/*.json"))


def _version_of(path: Path) -> int:
    return int(path.parent.name.removeprefix("v"))


def test_a_sheet_file_is_readable_utf8_json_with_version_and_system(tmp_path: Path) -> None:
    sheet = rules.new_sheet("douaratil", name="Éléonore « la Brave »", notes="Ligne 1\nLigne 2")
    path = tmp_path / f"eleonore{files.SHEET_SUFFIX}"
    files.write_document(path, files.Document("sheet", [sheet], [["Dégâts 7 : 14 → 7 PA."]]))
    raw = path.read_bytes()
    text = raw.decode("utf-8")
    # Human-readable: accents as they are (not \u00e9 escapes), indented, one field per line.
    assert "Éléonore « la Brave »" in text and "\\u00" not in text
    assert text.count("\n") > 40 and '\n  "sheet": {\n    "system": "douaratil",' in text
    data = json.loads(text)
    assert data["format"] == files.FORMAT_VERSION
    assert data["kind"] == "sheet" and data["system"] == "douaratil"
    assert data["app"] == sheet_app.__version__
    assert data["needs"] == files.FORMAT_INTRODUCED_IN[files.FORMAT_VERSION]
    assert data["journal"] == ["Dégâts 7 : 14 → 7 PA."]
    assert data["sheet"] == rules.sheet_to_data(sheet)


def test_a_table_file_holds_many_sheets_with_their_systems(tmp_path: Path) -> None:
    sheets = [rules.demo_sheet(s) for s in rules.SYSTEMS] + [rules.new_sheet(rules.SYSTEMS[0], name="Gobelin")]
    path = tmp_path / f"seance{files.TABLE_SUFFIX}"
    files.write_document(path, files.Document("table", sheets, [["a"], [], ["b", "c"]], "Séance 12"))
    data = json.loads(path.read_text(encoding="utf-8"))
    assert (data["format"], data["kind"], data["title"]) == (files.FORMAT_VERSION, "table", "Séance 12")
    assert data["systems"] == sorted(set(rules.SYSTEMS))
    assert [s["system"] for s in data["sheets"]] == [s.system for s in sheets]
    assert data["journals"][:3] == [["a"], [], ["b", "c"]] and len(data["journals"]) == len(sheets)


@pytest.mark.parametrize("path", KEPT, ids=[f"{p.parent.name}/{p.name}" for p in KEPT])
def test_every_kept_file_opens(path: Path) -> None:
    """A file of each older version (and of the current one) kept in tests/ still opens."""
    doc, _ = files.read_document(path)
    version = _version_of(path)
    assert doc.migrated_from == (version if version < files.FORMAT_VERSION else None)
    assert doc.sheets and all(s.system in rules.SYSTEMS for s in doc.sheets)
    assert doc.kind == ("table" if path.name.endswith(files.TABLE_SUFFIX) else "sheet")


def test_there_is_a_kept_file_and_a_migration_for_every_older_version() -> None:
    versions = {_version_of(p) for p in KEPT}
    assert versions == set(range(files.FORMAT_VERSION + 1))
    assert set(files.MIGRATIONS) == set(range(files.FORMAT_VERSION))
    assert set(files.FORMAT_INTRODUCED_IN) == set(range(files.FORMAT_VERSION + 1))


def test_a_format_0_sheet_migrates_to_the_same_character() -> None:
    """Format 0 (a bare sheet) opens as the same character as its format 1 twin, with an empty journal."""
    old, _ = files.read_document(DATA / "v0" / "ulfred.fiche.json")
    new, _ = files.read_document(DATA / "v1" / "ulfred.fiche.json")
    raw = json.loads((DATA / "v0" / "ulfred.fiche.json").read_text(encoding="utf-8"))
    assert old.sheets == new.sheets
    assert old.sheets[0].name == raw["name"] == "Ulfred"
    assert old.sheets[0].current == raw["current"] and old.sheets[0].exhaustion == raw["exhaustion"]
    assert old.journals == [[]] and new.journals[0]


def test_a_format_0_table_migrates_to_the_same_table() -> None:
    old, _ = files.read_document(DATA / "v0" / "auberge.table.json")
    new, _ = files.read_document(DATA / "v1" / "auberge.table.json")
    assert old.kind == new.kind == "table"
    assert old.sheets == new.sheets and len(old.sheets) == 2
    assert old.journals == [[], []] and old.title == ""


def test_a_migrated_file_is_saved_in_the_current_format(tmp_path: Path) -> None:
    old, _ = files.read_document(DATA / "v0" / "ulfred.fiche.json")
    path = tmp_path / "ulfred.fiche.json"
    files.write_document(path, old)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == files.FORMAT_VERSION and data["kind"] == "sheet"
    again, _ = files.read_document(path)
    assert again.sheets == old.sheets and again.migrated_from is None


def _future(tmp_path: Path, **envelope: object) -> Path:
    data = json.loads((DATA / "v1" / "ulfred.fiche.json").read_text(encoding="utf-8"))
    data.update(envelope)
    path = tmp_path / "futur.fiche.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def test_a_newer_format_is_refused_naming_the_sheet_app_version_needed(tmp_path: Path) -> None:
    newer = files.FORMAT_VERSION + 1
    path = _future(tmp_path, format=newer, needs="0.4.2", app="0.5.0", new_field={"x": 1})
    before = path.read_bytes()
    with pytest.raises(files.FileProblem) as caught:
        files.read_document(path)
    message = caught.value.message
    assert message.startswith(str(path))
    assert f"format {newer}" in message and "sheet_app 0.4.2 ou plus récent" in message
    assert sheet_app.__version__ in message
    assert path.read_bytes() == before


def test_a_newer_format_without_needs_names_the_version_that_wrote_it(tmp_path: Path) -> None:
    path = _future(tmp_path, format=files.FORMAT_VERSION + 3, app="2.1")
    data = json.loads(path.read_text(encoding="utf-8"))
    del data["needs"]
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(files.FileProblem, match=r"sheet_app 2\.1 ou plus récent"):
        files.read_document(path)
    data.pop("app")
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(files.FileProblem, match="une version plus récente de sheet_app"):
        files.read_document(path)


@pytest.mark.parametrize("bad", [True, 1.0, "1", -1, None, [1]])
def test_the_format_number_must_be_a_whole_number(tmp_path: Path, bad: object) -> None:
    path = _future(tmp_path, format=bad)
    with pytest.raises(files.FileProblem, match="« format » : doit être un nombre entier"):
        files.read_document(path)
    # The same through the fast reader: it must not accept what the wording reader refuses.
    assert files._decode_fast(path.read_bytes()) is None


def test_no_code_ever_runs_from_a_file(tmp_path: Path) -> None:
    """“No code ever runs from a file: JSON only, no pickle, no eval.”"""
    marker = tmp_path / "pwned"

    class Evil:
        def __reduce__(self) -> tuple[object, tuple[str]]:
            return (Path.touch, (str(marker),))  # type: ignore[return-value]

    path = tmp_path / "evil.fiche.json"
    path.write_bytes(pickle.dumps(Evil()))
    with pytest.raises(files.FileProblem):
        files.read_document(path)
    path.write_text('{"format": 1, "kind": "sheet", "system": "__import__(\'os\').system(\'touch pwned\')"}')
    with pytest.raises(files.FileProblem):
        files.read_document(path)
    assert not marker.exists()
    for module in ("files.py", "autosave.py", "cli_check.py"):
        source = (ROOT / "sheet_app" / module).read_text(encoding="utf-8")
        assert not re.search(r"\b(pickle|marshal|shelve|eval|exec|yaml)\b", source), module


def test_the_schema_in_the_docs_is_the_one_pydantic_generates() -> None:
    """docs/file-format.md carries the JSON Schema generated from the models (kept in step)."""
    doc = (ROOT / "docs" / "file-format.md").read_text(encoding="utf-8")
    found = re.search(r"<!-- schema:start -->\n```json\n(.*?)\n```\n<!-- schema:end -->", doc, re.S)
    assert found, "schema markers missing in docs/file-format.md"
    assert json.loads(found.group(1)) == files.json_schema(), (
        "docs/file-format.md is out of date: run `.venv/bin/python -m tests.files.update_schema_doc`"
    )


def test_the_schema_describes_both_kinds_and_every_system() -> None:
    schema = files.json_schema()
    text = json.dumps(schema)
    assert schema["discriminator"]["propertyName"] == "kind"
    assert set(schema["discriminator"]["mapping"]) == {"sheet", "table"}
    for system_id in rules.SYSTEMS:
        assert f'"{system_id}"' in text
    assert f'"const": {files.FORMAT_VERSION}' in text
