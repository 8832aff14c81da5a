"""``sheet-app --check FICHIER…``: validates files from the command line, same messages, exit status.

Issue 7: « `sheet-app --check FILE…` validates files from the command line and exits non-zero with
the same messages. » Also: the file layer is pure Python (it runs without Qt installed).
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sheet_app import cli_check, files

DATA = Path(__file__).resolve().parent / "data"
ROOT = Path(__file__).resolve().parents[2]
GOOD = DATA / "v1" / "ulfred.fiche.json"


def _run(args: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = cli_check.main(args, out, err)
    return code, out.getvalue(), err.getvalue()


def test_valid_files_exit_zero() -> None:
    code, out, _ = _run([str(GOOD), str(DATA / "v0" / "auberge.table.json")])
    assert code == 0
    assert f"ok     {GOOD} : fiche Douaratil « Ulfred »" in out
    assert "table : 2 fiches (Douaratil) (converti depuis le format 0)" in out
    assert out.endswith("2 fichiers vérifiés : 2 valides, 0 en erreur.\n")


def test_any_problem_exits_non_zero_with_the_same_message(tmp_path: Path) -> None:
    bad = tmp_path / "bad.fiche.json"
    bad.write_text(GOOD.read_text(encoding="utf-8").replace('"level": 3', '"level": 1000000000'), encoding="utf-8")
    with pytest.raises(files.FileProblem) as caught:
        files.read_document(bad)
    code, out, _ = _run([str(GOOD), str(bad), str(tmp_path)])
    assert code == 1
    assert f"ERREUR {caught.value.message}\n" in out
    assert f"ERREUR {tmp_path} : c'est un dossier" in out
    assert out.endswith("3 fichiers vérifiés : 1 valide, 2 en erreur.\n")


def test_quiet_prints_only_problems(tmp_path: Path) -> None:
    assert _run(["-q", str(GOOD)]) == (0, "", "")
    missing = str(tmp_path / "absent.json")
    code, out, _ = _run(["--quiet", str(GOOD), missing])
    assert code == 1 and "ok " not in out and missing in out


def test_misuse_exits_two() -> None:
    code, _, err = _run([])
    assert code == 2 and err.startswith("usage : sheet-app --check")
    code, _, err = _run(["--frobnicate", str(GOOD)])
    assert code == 2 and "option inconnue : --frobnicate" in err
    assert _run(["--help"])[0] == 0


def test_a_file_named_like_an_option(tmp_path: Path) -> None:
    odd = tmp_path / "-q"
    odd.write_bytes(GOOD.read_bytes())
    code, out, _ = _run(["--", str(odd)])
    assert code == 0 and "Ulfred" in out


def test_schema() -> None:
    code, out, _ = _run(["--schema"])
    assert code == 0 and json.loads(out) == files.json_schema()


def test_a_terminal_that_cannot_show_accents() -> None:
    raw = io.BytesIO()
    out = io.TextIOWrapper(raw, encoding="ascii")
    assert cli_check.main([str(GOOD)], out, io.StringIO()) == 0
    out.flush()
    assert b"fiche Douaratil ? Ulfred ?" in raw.getvalue()


BLOCKER = r"""
import importlib.abc, sys

class _NoQt(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] in ('PySide6', 'shiboken6', 'PyQt5', 'PyQt6'):
            raise ImportError(f'{name} est bloqué pour ce test')
        return None

sys.meta_path.insert(0, _NoQt())
"""


def test_the_command_line_runs_without_qt() -> None:
    """A real process, with Qt made unimportable: the exit status and the messages."""
    code = BLOCKER + (
        "import runpy, sys\n"
        f"sys.argv = ['cli_check', {str(GOOD)!r}, '/nonexistent.fiche.json']\n"
        "try:\n"
        "    runpy.run_module('sheet_app.cli_check', run_name='__main__')\n"
        "finally:\n"
        "    assert not any(m.startswith('PySide6') for m in sys.modules)\n"
    )
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 1, done.stderr
    assert "ok     " in done.stdout and "ERREUR /nonexistent.fiche.json : lecture impossible" in done.stdout


def test_the_file_layer_imports_without_qt() -> None:
    code = BLOCKER + "import sheet_app.files, sheet_app.autosave, sheet_app.cli_check\nprint('ok')"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"
