"""Bad input: a clear French message naming the file and what is wrong, never a crash (issue 7).

Issue 7 « Bad input »: « Truncated or invalid JSON, wrong types, missing fields, an unknown system,
values out of range (negative maximum, level 10^9), huge files (refuse above a documented size limit
before reading it all), deeply nested data, a directory or unreadable file … The message names the
file and what is wrong ("ligne 12 : « niveau » doit être un entier positif") ».

Expected line numbers are found in the file's own text, never typed in.
"""

from __future__ import annotations

import errno
import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest

import rules
from sheet_app import files

DATA = Path(__file__).resolve().parent / "data"
LEVEL = '"level"'


def _sheet_text(**changes: Any) -> str:
    sheet = rules.evolve(rules.demo_sheet("douaratil"), **changes)
    return files.encode_document(files.Document("sheet", [sheet], [["Création."]])).decode("utf-8")


def _line(text: str, needle: str, occurrence: int = 1) -> int:
    """1-based line of the ``occurrence``-th line containing ``needle``."""
    hits = [i + 1 for i, line in enumerate(text.splitlines()) if needle in line]
    return hits[occurrence - 1]


def _problem(tmp_path: Path, content: str | bytes, name: str = "fiche.fiche.json") -> str:
    path = tmp_path / name
    path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
    before = path.read_bytes()
    with pytest.raises(files.FileProblem) as caught:
        files.read_document(path)
    assert path.read_bytes() == before, "reading changed the file"
    message = caught.value.message
    assert message.startswith(f"{path} : "), message
    assert "Traceback" not in message and "Error" not in message
    return message


# --- JSON itself ------------------------------------------------------------------------------------


def test_a_truncated_file_says_so_with_its_line(tmp_path: Path) -> None:
    text = _sheet_text()
    cut = text[: len(text) // 2]
    message = _problem(tmp_path, cut)
    assert "JSON invalide" in message and "tronqué" in message
    assert f"ligne {cut.count(chr(10)) + 1}" in message


def test_invalid_json_names_the_line_and_column(tmp_path: Path) -> None:
    text = _sheet_text().replace('"player": "Camille",', '"player": "Camille"', 1)
    message = _problem(tmp_path, text)
    line = _line(text, LEVEL)
    assert f"ligne {line} : JSON invalide (colonne 5) : une virgule est attendue ici" in message


def test_an_empty_file(tmp_path: Path) -> None:
    assert "le fichier est vide" in _problem(tmp_path, b"  \n")


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_non_standard_numbers_are_refused(tmp_path: Path, constant: str) -> None:
    text = _sheet_text().replace('"level": 3', f'"level": {constant}', 1)
    message = _problem(tmp_path, text)
    assert f"ligne {_line(text, constant)}" in message and "n'est pas un nombre JSON valide" in message


def test_a_number_with_thousands_of_digits(tmp_path: Path) -> None:
    text = _sheet_text().replace('"level": 3', '"level": ' + "9" * 5000, 1)
    message = _problem(tmp_path, text)
    assert f"ligne {_line(text, '99999')}" in message and "nombre démesuré" in message


# --- wrong types, missing fields, unknown system, out of range ---------------------------------------


def test_a_wrong_type_names_the_field_and_its_line(tmp_path: Path) -> None:
    text = _sheet_text().replace('"level": 3', '"level": "trois"', 1)
    message = _problem(tmp_path, text)
    assert message.endswith(f"ligne {_line(text, LEVEL)} : « niveau » : doit être un nombre entier")


@pytest.mark.parametrize(
    ("field", "value", "expected"),
    [
        ("level", 10**9, "« niveau » : doit être inférieur ou égal à 100"),
        ("level", 0, "« niveau » : doit être supérieur ou égal à 1"),
        ("base_maximum", -5, "« PA maximum » : doit être supérieur ou égal à 0"),
        ("exhaustion", 10**9, "« épuisement » : doit être inférieur ou égal à 20"),
        ("current", -1, "« points d'action » : doit être supérieur ou égal à 0"),
    ],
)
def test_out_of_range_values(tmp_path: Path, field: str, value: int, expected: str) -> None:
    data = json.loads(_sheet_text())
    data["sheet"][field] = value
    text = json.dumps(data, indent=2, ensure_ascii=False)
    message = _problem(tmp_path, text)
    key = f'"{field}"'
    assert f"ligne {_line(text, key)} : {expected}" in message


def test_an_incoherent_sheet_is_refused_with_the_reason(tmp_path: Path) -> None:
    data = json.loads(_sheet_text())
    data["sheet"]["current"] = data["sheet"]["base_maximum"] + 5
    message = _problem(tmp_path, json.dumps(data, indent=2, ensure_ascii=False))
    assert "dépassent le maximum" in message


def test_a_missing_field_of_the_envelope(tmp_path: Path) -> None:
    data = json.loads(_sheet_text())
    del data["sheet"]
    assert "« fiche » : est obligatoire et manque" in _problem(tmp_path, json.dumps(data, indent=2))


def test_a_missing_field_inside_a_sheet(tmp_path: Path) -> None:
    sheet = rules.apply(rules.demo_sheet("douaratil"), rules.AddWound(wound_type="contusion")).sheet
    text = files.encode_document(files.Document("sheet", [sheet])).decode("utf-8")
    data = json.loads(text)
    del data["sheet"]["wounds"][0]["id"]
    text = json.dumps(data, indent=2, ensure_ascii=False)
    message = _problem(tmp_path, text)
    wound_line = _line(text, '"wounds"') + 1  # the wound object opens on the line after "wounds": [
    assert f"ligne {wound_line} : « blessures › n° 1 › numéro » : est obligatoire et manque" in message


def test_an_unknown_field_is_not_silently_dropped(tmp_path: Path) -> None:
    data = json.loads(_sheet_text())
    data["sheet"]["levle"] = 4
    text = json.dumps(data, indent=2)
    assert f"ligne {_line(text, 'levle')} : « levle » : n'est pas un champ connu" in _problem(tmp_path, text)


def test_an_unknown_system(tmp_path: Path) -> None:
    data = json.loads(_sheet_text())
    data["system"] = data["sheet"]["system"] = "pathfinder"
    text = json.dumps(data, indent=2)
    message = _problem(tmp_path, text)
    assert f"ligne {_line(text, 'pathfinder')} : « système » : inconnu « pathfinder »" in message
    assert all(s in message for s in rules.SYSTEMS)


def test_a_sheet_of_another_system_than_its_file(tmp_path: Path) -> None:
    other = next((s for s in rules.SYSTEMS if s != "douaratil"), None)
    if other is None:
        pytest.skip("one system only")
    data = json.loads(_sheet_text())
    data["system"] = other
    assert f"la fiche dit « douaratil » mais le fichier « {other} »" in _problem(tmp_path, json.dumps(data))


def test_an_unknown_kind(tmp_path: Path) -> None:
    data = json.loads(_sheet_text())
    data["kind"] = "campagne"
    assert "« kind » : doit valoir « sheet »" in _problem(tmp_path, json.dumps(data))


def test_something_that_is_not_a_sheet(tmp_path: Path) -> None:
    assert "ni une fiche ni une table" in _problem(tmp_path, "42")
    assert "« format » : est obligatoire et manque" in _problem(tmp_path, '{"nom": "Ulfred"}')


def test_a_table_lists_every_bad_sheet_with_its_number_name_and_line(tmp_path: Path) -> None:
    sheets = [rules.evolve(rules.demo_sheet("douaratil"), name=f"Gobelin {i}") for i in range(30)]
    data = json.loads(files.encode_document(files.Document("table", sheets)))
    data["sheets"][2]["level"] = 10**9
    data["sheets"][4]["system"] = "pathfinder"
    text = json.dumps(data, indent=2, ensure_ascii=False)
    message = _problem(tmp_path, text, "table.table.json")
    assert message.startswith(f"{tmp_path / 'table.table.json'} : 2 problèmes :\n")
    level_line = _line(text, "1000000000")
    assert f"ligne {level_line} : fiche n° 3 « Gobelin 2 » : « niveau » : doit être inférieur ou égal à 100" in message
    assert f"ligne {_line(text, 'pathfinder')} : fiche n° 5 « Gobelin 4 » : « système » : inconnu" in message


def test_many_problems_are_counted_not_all_listed(tmp_path: Path) -> None:
    sheets = [rules.demo_sheet("douaratil")] * 140
    data = json.loads(files.encode_document(files.Document("table", sheets)))
    for sheet in data["sheets"]:
        sheet["level"] = -1
    message = _problem(tmp_path, json.dumps(data), "t.table.json")
    assert message.startswith(f"{tmp_path / 't.table.json'} : 140 problèmes :\n")
    assert message.count("\n") == files.MAX_PROBLEMS + 1
    assert f"… et {140 - files.MAX_PROBLEMS} autres problèmes." in message


def test_more_journals_than_sheets(tmp_path: Path) -> None:
    data = json.loads(files.encode_document(files.Document("table", [rules.demo_sheet("douaratil")])))
    data["journals"] = [["a"], ["b"]]
    assert "2 journaux pour 1 fiches" in _problem(tmp_path, json.dumps(data))


def test_a_journal_of_the_wrong_type(tmp_path: Path) -> None:
    data = json.loads(_sheet_text())
    data["journal"] = ["ok", 7]
    text = json.dumps(data, indent=2)
    assert f"ligne {_line(text, '    7')} : « journal › n° 2 » : doit être un texte" in _problem(tmp_path, text)


# --- size, nesting, encodings ------------------------------------------------------------------------


def test_a_huge_file_is_refused_before_being_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "enorme.fiche.json"
    with open(path, "wb") as handle:
        handle.truncate(files.MAX_FILE_BYTES + 1)  # sparse: costs no disk
    read: list[int] = []
    real_read = os.read
    monkeypatch.setattr(os, "read", lambda fd, n: read.append(n) or real_read(fd, n))
    with pytest.raises(files.FileProblem, match=r"fichier trop gros .*au plus 32,0 Mo"):
        files.read_document(path)
    assert read == [], "the huge file was read"


def test_a_file_that_grows_past_the_limit_is_cut_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file whose size said small (a device, or growing meanwhile) is never read past the limit."""
    monkeypatch.setattr(files, "MAX_FILE_BYTES", 1000)
    path = tmp_path / "x.fiche.json"
    path.write_bytes(b" " * 10)
    real_fstat = os.fstat

    def growing(fd: int) -> os.stat_result:
        with open(path, "ab") as handle:
            handle.write(b" " * 5000)
        return real_fstat(fd)

    monkeypatch.setattr(os, "fstat", growing)
    with pytest.raises(files.FileProblem, match="plus de"):
        files.read_document(path)


@pytest.mark.parametrize("depth", [100, 5_000, 200_000])
def test_deeply_nested_data_never_crashes(tmp_path: Path, depth: int) -> None:
    message = _problem(tmp_path, "[" * depth + "]" * depth)
    assert "imbriquées trop profondément" in message or "doit être un objet" in message


def test_deep_nesting_inside_a_field(tmp_path: Path) -> None:
    text = _sheet_text().replace('"notes": ""', '"notes": ' + "[" * 500 + "]" * 500, 1)
    assert f"ligne {_line(text, '[[[')} : « notes » : doit être un texte" in _problem(tmp_path, text)


def test_not_utf8_names_the_line(tmp_path: Path) -> None:
    raw = _sheet_text(name="Éléonore").encode("latin-1", "replace")
    message = _problem(tmp_path, raw)
    assert f"ligne {_line(raw.decode('latin-1'), 'name')} : ce n'est pas du texte UTF-8 (octet 0xC9" in message


def test_utf16_is_named(tmp_path: Path) -> None:
    assert "UTF-16" in _problem(tmp_path, _sheet_text().encode("utf-16"))


def test_a_utf8_bom_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "bom.fiche.json"
    path.write_bytes(b"\xef\xbb\xbf" + _sheet_text().encode("utf-8"))
    doc, _ = files.read_document(path)
    assert doc.sheets == [rules.demo_sheet("douaratil")]


def test_half_a_surrogate_pair_is_refused(tmp_path: Path) -> None:
    text = _sheet_text().replace('"Création."', '"Cr\\ud800ation"', 1)
    message = _problem(tmp_path, text)
    where = "« journal › n° 1 »"
    assert f"ligne {_line(text, 'ud800')} : {where} : texte invalide : demi-caractère UTF-16 isolé" in message


# --- what is not a readable file ---------------------------------------------------------------------


def test_a_directory(tmp_path: Path) -> None:
    with pytest.raises(files.FileProblem, match="c'est un dossier, pas un fichier de fiche"):
        files.read_document(tmp_path)


def test_a_missing_file(tmp_path: Path) -> None:
    with pytest.raises(files.FileProblem, match="lecture impossible : fichier ou dossier introuvable"):
        files.read_document(tmp_path / "absent.fiche.json")


def test_a_pipe_does_not_hang(tmp_path: Path) -> None:
    fifo = tmp_path / "tube.fiche.json"
    os.mkfifo(fifo)
    with pytest.raises(files.FileProblem, match="pas un fichier ordinaire"):
        files.read_document(fifo)


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
def test_a_device_is_not_read() -> None:
    with pytest.raises(files.FileProblem, match="pas un fichier ordinaire"):
        files.read_document("/dev/zero")


@pytest.mark.parametrize(("code", "reason"), [(errno.EACCES, "accès refusé"), (errno.EIO, "erreur d'entrée-sortie")])
def test_an_unreadable_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, code: int, reason: str) -> None:
    path = tmp_path / "secret.fiche.json"
    path.write_text(_sheet_text(), encoding="utf-8")
    real_open = os.open

    def refusing(target: Any, flags: int, *args: Any) -> int:
        if Path(target) == path:
            raise OSError(code, os.strerror(code), str(path))
        return real_open(target, flags, *args)

    monkeypatch.setattr(os, "open", refusing)
    with pytest.raises(files.FileProblem, match=f"lecture impossible : {reason}"):
        files.read_document(path)


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads everything")
def test_an_unreadable_file_for_real(tmp_path: Path) -> None:
    path = tmp_path / "secret.fiche.json"
    path.write_text(_sheet_text(), encoding="utf-8")
    path.chmod(0)
    try:
        with pytest.raises(files.FileProblem, match="accès refusé"):
            files.read_document(path)
    finally:
        path.chmod(stat.S_IRUSR | stat.S_IWUSR)


def test_a_bad_path(tmp_path: Path) -> None:
    with pytest.raises(files.FileProblem, match="nom de fichier invalide"):
        files.read_document(str(tmp_path) + "/a\0b.fiche.json")


def test_check_files_reports_each_file(tmp_path: Path) -> None:
    good = DATA / "v1" / "ulfred.fiche.json"
    bad = tmp_path / "bad.fiche.json"
    bad.write_text("{", encoding="utf-8")
    results = files.check_files([good, bad, tmp_path])
    assert results[0] == (good, None)
    assert results[1][0] == bad and results[1][1] is not None and "JSON invalide" in results[1][1]
    assert results[2][1] is not None and "dossier" in results[2][1]
