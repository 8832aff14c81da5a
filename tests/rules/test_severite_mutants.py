"""Sévérité: tests that kill the mutants a mutation sample left alive (scripts/mutation sample severite)."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

import rules
from tests.rules.helpers import write_table

ROOT = Path(__file__).resolve().parents[2]

RS = rules.ruleset("severite")


def with_notches(notches: int) -> Any:
    return rules.new_sheet("severite", name="Ysolde", wounds=[{"id": 1, "grade": "critique", "notches": notches}])


def test_a_full_gauge_is_the_last_tier_not_beyond() -> None:
    """« La jauge est composée de 4 paliers comprenant deux crans de Trauma. » « Au-delà de ces paliers, tout
    Défi de Ténacité devra être accompli à un niveau Ardu (14). » Eight notches fill the fourth tier; the
    ninth is beyond."""
    full = rules.derive(with_notches(8))
    assert full.trauma_tier == 4
    assert full.explain("trauma_tier") == "palier 4 : Difficile (12)"
    beyond = rules.derive(with_notches(9))
    assert beyond.trauma_tier == 5
    assert beyond.explain("trauma_tier") == "au-delà de la jauge : Ardu (14)"


def test_grades_must_strictly_increase(tmp_path: Path) -> None:
    """A house table whose two grades start at the same Sévérité is refused, naming both."""
    data = tomllib.loads((ROOT / "resources" / "rulesets" / "severite.toml").read_text(encoding="utf-8"))
    first, second = list(data["grades"])[1:3]
    data["grades"][second]["min_severity"] = data["grades"][first]["min_severity"]
    with pytest.raises(rules.RulesetError, match=f"« {second} » .* doit commencer après « {first} »"):
        rules.load_rules_table("severite", write_table(tmp_path, data))
