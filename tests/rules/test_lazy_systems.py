"""A system's package is imported on first use: ``import rules`` knows the systems without loading them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import rules
from rules.systems import KNOWN

ROOT = Path(__file__).resolve().parents[2]


def _run(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_import_rules_loads_no_system_and_no_dice_library() -> None:
    code = (
        "import sys, rules\n"
        "print(rules.REGISTRY.loaded(), rules.SYSTEMS,"
        " sorted(m for m in sys.modules if m.startswith('rules.systems.') or m in ('d20', 'lark')))"
    )
    assert _run(code) == "() ('douaratil', 'd20', 'segments', 'severite') []"


def test_a_system_loads_when_one_of_its_names_is_asked_for() -> None:
    code = (
        "import rules\n"
        "label = rules.system_label('severite')\n"
        "before = rules.REGISTRY.loaded()\n"
        "strike = rules.Strike\n"
        "print(before, label, rules.REGISTRY.loaded(), strike.__module__.split('.')[2])"
    )
    assert _run(code) == "() Sévérité ('severite',) severite"


def test_opening_a_sheet_loads_only_its_system() -> None:
    code = (
        "import rules, pathlib\n"
        "text = pathlib.Path('resources/examples/d20.fiche.json').read_text(encoding='utf-8')\n"
        "sheet = rules.sheet_from_data(__import__('json').loads(text)['sheet'])\n"
        "print(sheet.system, rules.REGISTRY.loaded())"
    )
    assert _run(code) == "d20 ('d20',)"


@pytest.mark.parametrize("system_id", list(KNOWN))
def test_known_labels_are_the_ones_each_system_registers(system_id: str) -> None:
    assert rules.system(system_id).label == KNOWN[system_id] == rules.system_label(system_id)


def test_unknown_names_stay_attribute_errors() -> None:
    with pytest.raises(AttributeError):
        _ = rules.NoSuchThing  # type: ignore[attr-defined]
    assert "nope" not in rules.REGISTRY
    with pytest.raises(rules.Refused):
        rules.system_label("nope")
