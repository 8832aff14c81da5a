"""The command line: files to open, ``--check``, French usage and errors, the offscreen fallback;
the shipped demo sheets."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

import rules
from sheet_app import app, files
from sheet_app.settings import examples_dir
from sheet_app.tools import make_examples


def test_check_dispatches_to_the_files_command_line(tmp_path: Path, capsys: Any) -> None:
    good = tmp_path / "bonne.fiche.json"
    files.write_document(good, files.Document("sheet", [rules.demo_sheet("douaratil")], [[]]))
    bad = tmp_path / "mauvaise.fiche.json"
    bad.write_text("{ pas du json", encoding="utf-8")
    assert app.run(["--check", str(good)]) == 0
    assert app.run(["--check", str(good), str(bad)]) == 1
    captured = capsys.readouterr()
    assert "mauvaise.fiche.json" in captured.out + captured.err


def test_usage_and_errors_are_french(capsys: Any) -> None:
    with pytest.raises(SystemExit) as exc:
        app.parse(["--nimportequoi"])
    assert exc.value.code == 2
    assert "erreur" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        app.parse(["--help"])
    assert "utilisation : sheet-app" in capsys.readouterr().out


def test_files_are_parsed() -> None:
    assert app.parse(["a.fiche.json", "b.fiche.json"]).files == ["a.fiche.json", "b.fiche.json"]


def test_no_display_falls_back_offscreen_with_a_french_notice(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    monkeypatch.delenv("QT_QPA_PLATFORM", raising=False)
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    assert app.ensure_platform()
    import os

    assert os.environ["QT_QPA_PLATFORM"] == "offscreen"
    assert "Pas d'écran détecté" in capsys.readouterr().err


def test_a_display_is_used_when_there_is_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("QT_QPA_PLATFORM", raising=False)
    monkeypatch.setenv("DISPLAY", ":0")
    assert not app.ensure_platform()


@pytest.mark.parametrize("system", rules.SYSTEMS)
def test_shipped_demo_sheets_are_the_systems_demos(system: str) -> None:
    """resources/examples is made by sheet_app.tools.make_examples: it must match the rules' demos."""
    path = examples_dir() / f"{system}.fiche.json"
    assert path.exists(), "run: .venv/bin/python -m sheet_app.tools.make_examples"
    doc, _ = files.read_document(path)
    assert doc.sheets[0] == rules.demo_sheet(system)


def test_make_examples_writes_one_file_per_system(tmp_path: Path) -> None:
    written = make_examples.make(tmp_path)
    assert sorted(p.name for p in written) == sorted(f"{s}.fiche.json" for s in rules.SYSTEMS)
    for path in written:
        files.read_document(path)
