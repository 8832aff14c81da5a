"""Each roll the odds name, against the real rules: every face of every die played through ``rules.apply``.

A roll's chance shown (``rules.sheet_odds`` or ``rules.action_odds``) must be exactly the share of die faces
for which the real action succeeds: its journal ends the roll with « réussite » (a test that changes
nothing but the journal), or the sheet comes out as a success leaves it.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest

import rules
from tests.rules.odds_helpers import outcomes_of, success_share


def shown(sheet: Any, roll_id: str, action: rules.Action | None = None) -> float:
    """The chance shown for ``roll_id``: the action's dialog when given, else the sheet's list."""
    found = rules.action_odds(sheet, action) if action is not None else rules.sheet_odds(sheet).rolls
    chances = [c for c in found if c.id == roll_id]
    assert len(chances) == 1, [c.id for c in found]
    return chances[0].probability


def share(sheet: Any, action: rules.Action, succeeded: Callable[[Any], bool]) -> Fraction:
    """The exact share of die faces whose resulting sheet ``succeeded`` says is a success."""
    return sum((p for p, out in outcomes_of(sheet, action).values() if succeeded(out)), Fraction(0))


def d20(**fields: Any) -> Any:
    return rules.new_sheet("d20", **{"name": "Brenna", "base_maximum": 20, "level": 3, **fields})


def segments(**fields: Any) -> Any:
    return rules.new_sheet("segments", **{"name": "Aldéric", "base_maximum": 20, "constitution": 14, **fields})


def douaratil(**fields: Any) -> Any:
    base = {"name": "Ulfred", "base_maximum": 14, "constitution": 14, "wisdom": 12}
    return rules.new_sheet("douaratil", **{**base, **fields})


@pytest.mark.parametrize("modifier", [-3, 0, 4, 25])
def test_d20_first_aid(modifier: int) -> None:
    """« Un test de Premiers secours de DD 15 réussi permet de stabiliser l'état d'un personnage mourant »."""
    sheet = d20(current=-4)
    action = rules.Stabilise(method="first_aid", modifier=modifier)
    assert shown(sheet, "first_aid", action) == pytest.approx(float(share(sheet, action, lambda s: s.recovery != "")))


@pytest.mark.parametrize("fortitude", [-25, 0, 6, 30])
def test_d20_massive_damage(fortitude: int) -> None:
    """« Si le personnage subit une attaque si terrible qu'elle lui inflige au moins 50 points de dégâts, il doit
    réussir un jet de Vigueur (DD 15). S'il le rate, il meurt sur le coup »."""
    sheet = d20(base_maximum=200, current=200, fortitude=fortitude)
    action = rules.Damage(amount=50)
    assert shown(sheet, "massive_damage") == pytest.approx(float(share(sheet, action, lambda s: not s.dead)))


@pytest.mark.parametrize("caster_level", [0, 5, 9])
def test_d20_quick_resurrection(caster_level: int) -> None:
    """« Le personnage qui lance le sort effectue un test de Résurrection rapide qui est un test de niveau de
    lanceur de sort. Le DD est de 10 »."""
    dead = d20(current=-12, dead=True)
    action = rules.Resurrection(procedure="quick", caster_level=caster_level)
    assert shown(dead, "resurrection", action) == pytest.approx(float(share(dead, action, lambda s: not s.dead)))


@pytest.mark.parametrize(
    ("recovery", "unit", "roll_id"), [("alone", "hour", "alone_wake"), ("assisted", "hour", "assisted_wake")]
)
def test_d20_recovery_rolls(recovery: str, unit: str, roll_id: str) -> None:
    """« Chaque heure, il a 10 % de chances de reprendre connaissance »."""
    sheet = d20(current=-4, recovery=recovery)
    action = rules.AdvanceTime(unit=unit, count=2)
    woke = share(sheet, action, lambda s: s.recovery in ("alone_awake", "awake"))
    p = shown(sheet, roll_id)
    # Two hours: a roll at each hour (the first one due at once on a sheet with no roll scheduled).
    assert float(woke) == pytest.approx(1 - (1 - p) ** 2)


@pytest.mark.parametrize(("reflex", "fatigue"), [(5, 0), (-2, 2), (12, 0)])
def test_segments_extinguish(reflex: int, fatigue: int) -> None:
    """« éteindre les flammes est une manœuvre, ou une action gratuite en se jetant à terre puis en roulant,
    avec un jet de Réflexes »."""
    sheet = segments(current=20, reflex_save=reflex, fatigue=fatigue, burning=True)
    action = rules.Extinguish(method="roll")
    assert shown(sheet, "extinguish", action) == pytest.approx(float(share(sheet, action, lambda s: not s.burning)))


@pytest.mark.parametrize(("agility", "dd"), [(3, 15), (0, 10), (8, 25)])
def test_segments_fall(agility: int, dd: int) -> None:
    """« Chute | 1d6 par tranche de 3 m, jusqu'à 20d6. Un jet d'Agilité réussi retire les dégâts des trois
    premiers mètres »."""
    sheet = segments(current=20, agility=agility)
    action = rules.Fall(metres=3, agility_dd=dd)
    # Three metres: a success leaves no damage at all.
    assert shown(sheet, "fall_agility", action) == pytest.approx(float(share(sheet, action, lambda s: s.current == 20)))


@pytest.mark.parametrize("fortitude", [0, 5, 14])
def test_segments_weapon_drop(fortitude: int) -> None:
    """« Engourdi | Toucher | on ne sent plus ce qu'on tient : tout coup encaissé fait lâcher son arme sauf
    réussite d'une Vigueur difficulté 15 »."""
    sheet = segments(current=20, fortitude_save=fortitude, conditions=("engourdi",))
    action = rules.Damage(amount=1)
    assert shown(sheet, "weapon_drop") == pytest.approx(float(success_share(sheet, action)))


@pytest.mark.parametrize(("physique", "opposition"), [(2, 8), (0, 12), (5, 14)])
def test_severite_tenacity(physique: int, opposition: int) -> None:
    """« Si le Défi est échoué, vous êtes hors combat »."""
    sheet = rules.new_sheet("severite", name="Ysolde", physique=physique, tenacity_skill=True)
    action = rules.TenacityTest(opposition=opposition)
    failure = rules.ruleset("severite").tenacity.failure_condition
    standing = share(sheet, action, lambda s: failure not in s.conditions)
    assert shown(sheet, "tenacity", action) == pytest.approx(float(standing))


@pytest.mark.parametrize("modifier", [0, 3, 9])
def test_douaratil_first_aid(modifier: int) -> None:
    """« Vous pouvez utiliser une action pour administrer les premiers soins à une personne inconsciente et tenter
    de la stabiliser, mais vous devez pour cela réussir un test de Sagesse (Médecine) DD 16. »"""
    sheet = douaratil(current=0)
    action = rules.Stabilise(method="first_aid", modifier=modifier)
    assert shown(sheet, "first_aid", action) == pytest.approx(float(share(sheet, action, lambda s: s.stabilised)))


@pytest.mark.parametrize(("constitution", "exhaustion"), [(14, 0), (10, 3), (18, 1)])
def test_douaratil_constitution_save_on_a_fall(constitution: int, exhaustion: int) -> None:
    """« Si les dégâts que vous subissez vous font tomber à 0 point d'action, vous êtes inconscient (voir la
    section États spéciaux) pour 1d6 rounds à moins de réussir un JS DD 16 de Constitution. »"""
    sheet = douaratil(current=5, constitution=constitution, exhaustion=exhaustion)
    action = rules.Damage(amount=5)
    assert shown(sheet, "constitution_save") == pytest.approx(float(success_share(sheet, action)))


@pytest.mark.parametrize(("constitution", "exhaustion"), [(14, 0), (12, 2)])
def test_douaratil_wound_risk(constitution: int, exhaustion: int) -> None:
    """« plaie … risque d'ouverture de la plaie avec saignement (1d6/rd) (JS CON DD 16) »."""
    sheet = douaratil(current=10, constitution=constitution, exhaustion=exhaustion)
    sheet = rules.apply(sheet, rules.AddWound(wound_type="plaie")).sheet
    action = rules.WoundRisk(wound_id=1)
    closed = share(sheet, action, lambda s: not s.wounds[0].bleeding)
    assert shown(sheet, "wound_risk", action) == pytest.approx(float(closed))
