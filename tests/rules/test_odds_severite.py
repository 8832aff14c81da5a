"""Sévérité's odds (seed 003) against hand-computed values and against the real rules."""

from __future__ import annotations

import random
from typing import Any

import pytest

import rules
from tests.rules.odds_helpers import RUNS, monte_carlo, outcomes_of, within_standard_errors

NBSP = "\u00a0"


def hero(**fields: Any) -> Any:
    base: dict[str, Any] = {"name": "Aube", "physique": 2}
    return rules.new_sheet("severite", **{**base, **fields})


def test_the_fatal_survival_roll() -> None:
    """« Prenez le résultat du jet de Sévérité de la Blessure qui vous a été infligé et vous aurez ainsi la
    valeur qu'il vous faudra surmonter. Vous aurez droit à un seul et unique jet de dé pour égaliser ou
    dépasser ce montant. Si cette valeur est supérieure à 19, il vous faudra impérativement obtenir un 20 »."""
    for severity, chance in ((12, 0.45), (19, 0.10), (20, 0.05), (35, 0.05)):
        found = rules.action_odds(hero(), rules.InflictWound(grade="fatale", severity=severity, body_part="tete"))
        assert found[0].id == "fatal_survival" and found[0].probability == pytest.approx(chance)
    overview = rules.sheet_odds(hero()).get("fatal_survival")
    assert overview is not None and overview.probability == pytest.approx(0.45)
    assert overview.outcomes[-1] == ("Sévérité 20 ou plus", 0.05)
    # On a limb the Fatale wound cripples and kills no one; an NPC dies of it on a vital zone.
    limb = rules.action_odds(hero(), rules.InflictWound(grade="fatale", severity=14, body_part="bras_droit"))
    assert all(c.id != "fatal_survival" for c in limb)
    npc = rules.action_odds(hero(is_npc=True), rules.InflictWound(grade="fatale", severity=14, body_part="tete"))
    assert npc[0].id == "inflict_death" and npc[0].probability == 1.0


def test_the_tenacity_challenge_and_its_levels() -> None:
    """« Ensuite se succèdent des Oppositions de difficultés croissantes: Jouable (8), Compliqué (10) et
    Difficile (12). »"""
    # Physique 2, no skill: D10 + 2 against 8 succeeds on 6…10 (50 %), margins 0-1 Faible, 2-3 Correcte, 4 Efficace.
    found = rules.action_odds(hero(), rules.TenacityTest(opposition=8))
    assert found[0].probability == 0.5
    levels = dict(found[0].outcomes)
    assert levels["échec : hors combat"] == 0.5
    assert levels["réussite Faible : Ténacité Tourmentée"] == pytest.approx(0.2)
    assert levels["réussite Efficace : Ténacité Inébranlable"] == pytest.approx(0.1)
    assert "1d10 + 2 (Physique) ≥ l'Opposition choisie (8)" in found[0].how
    # No test at the first tier; the tier's Opposition otherwise.
    assert rules.action_odds(hero(), rules.TenacityTest()) == ()
    wounded = rules.apply(hero(), rules.InflictWound(grade="grave", tenacity_test=False)).sheet
    tier = rules.action_odds(wounded, rules.TenacityTest())
    assert tier[0].probability == 0.5 and "Jouable (8)" in tier[0].how
    assert rules.sheet_odds(wounded).get("tenacity") is not None
    skilled = rules.action_odds(hero(tenacity_skill=True, tenacity_bonus=1), rules.TenacityTest(opposition=12))
    assert skilled[0].probability == pytest.approx(
        sum(1 for a in range(1, 11) for b in range(1, 7) if a + b + 3 >= 12) / 60
    )


def test_the_survival_roll_equals_the_real_rules_face_by_face() -> None:
    for severity in (12, 16, 24):
        action = rules.InflictWound(grade="fatale", severity=severity, body_part="torse")
        real = sum(float(p) for p, after in outcomes_of(hero(), action).values() if not after.dead)
        assert rules.action_odds(hero(), action)[0].probability == pytest.approx(real, abs=1e-12)


@pytest.mark.parametrize(
    ("margin", "modifier", "part", "demo", "vital"),
    [
        (1, 2, "tete", True, True),
        (5, 1, "torse", False, False),
        (3, 6, "bras_gauche", True, False),
        (0, 3, "abdomen", True, True),
    ],
)
def test_a_strike_equals_the_real_rules_face_by_face(
    margin: int, modifier: int, part: str, demo: bool, vital: bool
) -> None:
    """Puissance, Résistance, the Survie and the Défi that follow: every face through ``rules.apply``."""
    sheet = rules.demo_sheet("severite") if demo else hero()
    action = rules.Strike(
        margin=margin, damage_type="tranchant", body_part=part, damage_modifier=modifier, vital_zone=vital
    )
    found = {c.id: c for c in rules.action_odds(sheet, action)}
    outcomes = outcomes_of(sheet, action)
    failure = rules.ruleset("severite").tenacity.failure_condition
    dead = sum(float(p) for p, after in outcomes.values() if after.dead)
    out = sum(float(p) for p, after in outcomes.values() if failure in after.conditions and not after.dead)
    wounded = sum(float(p) for p, after in outcomes.values() if len(after.wounds) > len(sheet.wounds) or after.dead)
    assert found.get("strike_death", None) is None or found["strike_death"].probability == pytest.approx(dead)
    assert dead == 0 or "strike_death" in found
    shown_out = found["strike_out"].probability if "strike_out" in found else 0.0
    assert shown_out == pytest.approx(out, abs=1e-12)
    benign = dict(found["strike_wound"].outcomes)["Blessure Bénigne"]
    assert found["strike_wound"].probability - benign == pytest.approx(wounded, abs=1e-12)


def _survives(sheet: Any, rng: random.Random) -> bool:
    action = rules.InflictWound(grade="fatale", severity=15, body_part="tete")
    return not rules.apply(sheet, action, rng=rng).sheet.dead


@pytest.mark.slow
def test_the_survival_roll_against_a_monte_carlo_of_the_real_rules() -> None:
    found = rules.action_odds(hero(), rules.InflictWound(grade="fatale", severity=15, body_part="tete"))
    observed = monte_carlo(hero(), _survives, RUNS, 1)
    assert within_standard_errors(observed, found[0].probability, RUNS), (observed, found[0].probability)


def test_the_vital_zone_modifier_is_the_gms_choice() -> None:
    """« Une frappe portée sur une zone vitale peut se voir octroyer un Modificateur de plus. »"""
    sheet = hero()
    plain = rules.Strike(margin=3, damage_type="tranchant", body_part="tete", damage_modifier=2)
    granted = plain.model_copy(update={"vital_zone": True})
    without = {c.id: c for c in rules.action_odds(sheet, plain)}
    with_it = {c.id: c for c in rules.action_odds(sheet, granted)}
    assert "+ 1 (zone vitale)" in with_it["strike_wound"].how and "zone vitale" not in without["strike_wound"].how
    assert with_it["strike_wound"].outcomes != without["strike_wound"].outcomes
    off = rules.Strike(margin=3, damage_type="tranchant", body_part="bras_droit", vital_zone=True)
    assert rules.action_odds(sheet, off) == ()
