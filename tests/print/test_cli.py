"""``sheet-app print``: files to one PDF without a window; French errors and exit codes; nothing lost."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import rules
from sheet_app import files, print_cli
from sheet_app.app import run
from sheet_app.settings import examples_dir
from tests.print.conftest import read_pdf
from tests.print.test_pdf import gm_table, played

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def folder(tmp_path: Path, qapp: Any) -> Path:
    """Two sheets and a GM table saved in tmp_path (the QApplication of the tests does the drawing)."""
    files.write_document(tmp_path / "ulfred.fiche.json", files.Document("sheet", [played("douaratil")], [[]]))
    files.write_document(tmp_path / "maelle.fiche.json", files.Document("sheet", [played("severite")], [[]]))
    files.write_document(tmp_path / "gue.table.json", gm_table(12))
    return tmp_path


def test_sheets_a_table_and_blank_sheets_go_to_one_pdf_each_from_a_new_page(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = folder / "séance.pdf"
    inputs = [str(folder / n) for n in ("ulfred.fiche.json", "gue.table.json", "maelle.fiche.json")]
    code = print_cli.main([*inputs, "--blank", "segments", "-o", str(out)])
    assert code == 0
    doc = read_pdf(out)
    starts = [page.lstrip().splitlines()[0] for page in doc.pages]
    sheet = played("douaratil")
    assert starts[:3] == [sheet.name, "Embuscade au gué", played("severite").name]
    assert starts[3] == "Segments" and starts[4].startswith("Aide-mémoire")
    assert len(doc.pages) == 5
    said = capsys.readouterr().out
    assert "5 pages, 4 documents (A4)" in said


def test_a_blank_sheet_alone_and_letter_paper(folder: Path) -> None:
    out = folder / "vierge.pdf"
    assert print_cli.main(["--blank", "douaratil", "--papier", "letter", "-o", str(out)]) == 0
    doc = read_pdf(out)
    assert "(letter)" in doc.size_label and "Jets contre la mort" in doc.flat(0)


def test_a_missing_or_broken_file_is_told_in_french_and_nothing_is_written(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = folder / "cassee.fiche.json"
    text = (folder / "ulfred.fiche.json").read_text(encoding="utf-8")
    broken.write_text(text.replace('"level": 3', '"level": "trois"'), encoding="utf-8")
    out = folder / "out.pdf"
    code = print_cli.main(
        [str(folder / "ulfred.fiche.json"), str(folder / "absente.fiche.json"), str(broken), "-o", str(out)]
    )
    assert code == 1
    err = capsys.readouterr().err
    assert "absente.fiche.json" in err and "introuvable" in err
    assert "cassee.fiche.json" in err and "niveau" in err
    assert "2 fichier(s) illisible(s) ; aucun PDF n'a été écrit." in err
    assert not out.exists()


def test_an_unknown_system_is_a_usage_error(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = folder / "out.pdf"
    assert print_cli.main(["--blank", "gurps", "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert "système inconnu : « gurps »" in err and ", ".join(rules.SYSTEMS) in err
    assert not out.exists()


def test_an_unwritable_output_is_refused_and_the_old_pdf_is_kept(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    not_a_folder = folder / "ulfred.fiche.json" / "out.pdf"
    assert print_cli.main(["--blank", "d20", "-o", str(not_a_folder)]) == 1
    assert "rien n'a été écrit" in capsys.readouterr().err
    assert print_cli.main(["--blank", "d20", "-o", str(folder)]) == 1
    assert "est un dossier" in capsys.readouterr().err
    missing_dir = folder / "nulle-part" / "out.pdf"
    assert print_cli.main(["--blank", "d20", "-o", str(missing_dir)]) == 1
    assert "n'existe pas" in capsys.readouterr().err


def test_printing_never_overwrites_a_sheet_or_a_file_that_is_not_a_pdf(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sheet_file = folder / "ulfred.fiche.json"
    before = sheet_file.read_bytes()
    assert print_cli.main([str(sheet_file), "-o", str(sheet_file)]) == 1
    assert "aussi un des fichiers à imprimer" in capsys.readouterr().err
    notes = folder / "notes.txt"
    notes.write_text("mes notes de campagne")
    assert print_cli.main(["--blank", "d20", "-o", str(notes)]) == 1
    assert "n'est pas un PDF" in capsys.readouterr().err
    assert sheet_file.read_bytes() == before and notes.read_text() == "mes notes de campagne"
    # An older PDF is replaced.
    old = folder / "ancien.pdf"
    assert print_cli.main(["--blank", "d20", "-o", str(old)]) == 0
    assert print_cli.main(["--blank", "segments", "-o", str(old)]) == 0
    assert read_pdf(old).flat(0).startswith("Segments")


def test_printing_leaves_the_files_as_they_were(folder: Path) -> None:
    paths = [folder / "ulfred.fiche.json", folder / "gue.table.json"]
    before = [(p.read_bytes(), p.stat().st_mtime_ns) for p in paths]
    assert print_cli.main([*map(str, paths), "--meneur", "--journal", "-o", str(folder / "x.pdf")]) == 0
    assert [(p.read_bytes(), p.stat().st_mtime_ns) for p in paths] == before


def test_usage_errors_speak_french(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        print_cli.main(["--blank", "d20"])
    assert exc.value.code == 2
    assert "il manque le PDF à écrire : -o SORTIE.pdf" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        print_cli.main(["--blank", "d20", "--couleur", "-o", "x.pdf"])
    assert "options inconnues : --couleur" in capsys.readouterr().err
    assert print_cli.main(["-o", "x.pdf"]) == 2
    assert "rien à imprimer" in capsys.readouterr().err
    assert print_cli.main(["--blank", "d20", "--papier", "A3", "-o", "x.pdf"]) == 2
    assert "format de papier inconnu" in capsys.readouterr().err


def test_help_lists_the_print_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        run(["--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    assert "print FICHIER… -o SORTIE.pdf" in out and "print --blank SYSTÈME -o SORTIE.pdf" in out
    assert run(["print", "--help"]) == 0
    out = capsys.readouterr().out
    assert "--blank SYSTÈME" in out and "--papier a4|letter" in out and "--meneur" in out


def test_the_real_command_prints_without_a_display(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    env["XDG_CONFIG_HOME"] = str(tmp_path / "config")
    demo = examples_dir() / "douaratil.fiche.json"
    out = tmp_path / "demo.pdf"
    done = subprocess.run(
        [sys.executable, "-m", "sheet_app", "print", str(demo), "--blank", "severite", "-o", str(out)],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "3 pages, 2 documents (A4)" in done.stdout
    assert done.stderr == ""  # no « no screen » notice: printing needs no window
    assert len(read_pdf(out).pages) == 3
