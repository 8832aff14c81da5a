"""``sheet-app --check FICHIER.toml`` checks a house-rule table without opening a window (issue 18: « like
sheet files »): its system found from its ``[house]`` table or its name, its problems said line by line."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import rules
from sheet_app import cli_check
from tests.rules.house_helpers import set_key

ROOT = Path(__file__).resolve().parents[2]


def _run(args: list[str]) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    code = cli_check.main(args, out, err)
    return code, out.getvalue()


def test_an_exported_table_and_the_shipped_ones_check_out(tmp_path: Path) -> None:
    text, _ = set_key(rules.house.export_base("douaratil"), ("saves", "death_save_success"), 12)
    brume = tmp_path / "brume.toml"
    brume.write_text(text.replace('title = "Règles maison Douaratil"', 'title = "Campagne de Brume"'))
    shipped = ROOT / "resources" / "rulesets" / "segments.toml"
    code, out = _run([str(brume), str(shipped)])
    assert code == 0, out
    assert f"ok     {brume} : règles maison « Campagne de Brume » pour Douaratil, 1 différence avec" in out
    assert f"ok     {shipped} : règles maison « segments » pour Segments, les règles de base" in out


def test_a_broken_table_exits_non_zero_with_its_lines(tmp_path: Path) -> None:
    text, line = set_key(rules.house.export_base("severite"), ("trauma", "notches_per_tier"), "deux")
    bad = tmp_path / "maison.toml"
    bad.write_text(text.replace('system = "severite"\n', ""))  # found by trying each system
    code, out = _run([str(bad)])
    assert code == 1
    assert out.startswith(f"ERREUR {bad} :\n       ligne {line - 1}, trauma.notches_per_tier : attendu un entier")
    assert out.endswith("1 fichier vérifié : 0 valide, 1 en erreur.\n")


def test_a_syntax_error_and_a_missing_file(tmp_path: Path) -> None:
    bad = tmp_path / "d20.toml"
    bad.write_text("[general\n")
    code, out = _run([str(bad), str(tmp_path / "absent.toml")])
    assert code == 1
    assert f"ERREUR {bad} :\n       " in out and "syntaxe TOML invalide" in out
    assert "lecture impossible (fichier ou dossier introuvable)" in out


def test_the_command_line_itself(tmp_path: Path) -> None:
    table = tmp_path / "d20.toml"
    table.write_text(rules.house.export_base("d20"))
    done = subprocess.run(
        [sys.executable, "-m", "sheet_app", "--check", str(table)], cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "règles maison « Règles maison d20 » pour d20" in done.stdout
