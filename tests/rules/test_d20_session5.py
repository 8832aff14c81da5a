"""Issue 15, session 5: d20's ``_settle`` takes what the last settle found of a sheet (its table's figures, its
maximum, its Constitution in play, the PV at which it dies) when a handler's changes leave them, and the handlers
of the hot path (damage, healing, temporary PV, conditions) end with ``_settle`` themselves. These tests keep each
shortcut to what the long path gives; each names the hand-made mutant it was written for (docs/performance.md,
« Session 5 — d20 apply »)."""

from __future__ import annotations

import random
from typing import Any

import rules
from rules.systems.d20 import handlers
from rules.systems.d20.derive import SETTLED, death_pv, figures, maximum, state_id
from tests.rules.d20_helpers import FORGOTTEN, RS
from tests.rules.d20_helpers import apply_d20 as _apply
from tests.rules.d20_helpers import d20_sheet as _sheet
from tests.rules.d20_helpers import house as _house


def test_every_handler_ends_with_a_settle() -> None:
    """Each handler d20 registers is wrapped by ``_settled`` or ``_settled_inside``, or is one of the handlers
    that end with ``_settle`` themselves (so a new handler cannot leave a sheet unsettled)."""
    wrappers = ("_settled.<locals>.run", "_settled_inside.<locals>.run")
    for action_type, handler in rules.system("d20").handlers.items():
        assert handler.__qualname__ in wrappers or handler.__name__ in handlers.SETTLES_ITSELF, action_type
    assert handlers.SETTLES_ITSELF == {"damage", "heal", "gain_temporary", "lose_temporary", "set_condition"}


def test_the_last_settle_s_record_is_what_the_long_path_finds() -> None:
    """After every action of a fight (Constitution raised, nonlethal damage, temporary PV, states, a fall, time),
    the last settle's record of the sheet — its state, maximum, Constitution in play and death threshold — is
    what ``state_id``, ``maximum`` and ``death_pv`` find from scratch (mutants: the record's fields swapped)."""
    sheet = _sheet(level=5, constitution=14, constitution_bonus=4, base_maximum=40, current=40, nonlethal=3)
    actions = [
        rules.Damage(amount=5),
        rules.SetCondition(condition="chancelant"),
        rules.Damage(amount="1d8+2"),
        rules.Heal(amount=3),
        rules.Damage(amount=4, nonlethal=True),
        rules.GainTemporary(amount=5),
        rules.SetCondition(condition="chancelant", active=False),
        rules.Damage(amount=30),
        rules.LoseTemporary(),
        rules.AdvanceTime(unit="round"),
        rules.Heal(amount=20, magical=True),
        rules.Damage(amount=9),
    ]
    rng = random.Random(5)
    f = figures(RS)
    checked = 0
    for action in actions * 2:
        sheet = rules.apply(sheet, action, rng).sheet
        record = SETTLED[0]
        if sheet.dead:
            break
        assert record[0] is sheet and record[1] is RS and record[4] is f
        played = sheet.constitution + sheet.constitution_bonus - sheet.constitution_damage - sheet.constitution_drain
        SETTLED[0] = FORGOTTEN  # worked out again, from the sheet alone
        assert (record[2], record[3], record[5], record[6]) == (
            state_id(sheet, RS),
            maximum(sheet, RS),
            played,
            death_pv(played, f),
        )
        SETTLED[0] = record
        checked += 1
    assert checked >= 10


def test_death_at_minus_ten_from_a_settled_sheet() -> None:
    """« À partir de –10 points de vie, il est mort. » From a sheet the last action settled (its death threshold
    known): at 0 PV, 9 damage leave it dying at −9, 10 damage kill it at −10 (mutant: ``<`` for ``<=``)."""
    fallen = _apply(_sheet(base_maximum=12, current=12), rules.Damage(amount=12)).sheet
    assert SETTLED[0][0] is fallen and fallen.current == 0
    dying = _apply(fallen, rules.Damage(amount=9)).sheet
    assert (dying.current, dying.dead) == (-9, False)
    fallen = _apply(_sheet(base_maximum=12, current=12), rules.Damage(amount=12)).sheet
    dead = _apply(fallen, rules.Damage(amount=10)).sheet
    assert dead.dead and dead.death_cause == "−10 PV"


def test_death_at_minus_the_constitution_from_a_settled_sheet() -> None:
    """The house switch ``thresholds.death_at_minus_constitution``: a CON 14 character settled at 0 PV under it
    is dying at −13 and dead at −14 (the threshold the last settle recorded is the house one)."""
    house = _house("thresholds", death_at_minus_constitution=True)
    start = _sheet(base_maximum=12, current=12, constitution=14)
    fallen = _apply(start, rules.Damage(amount=12), house).sheet
    assert _apply(fallen, rules.Damage(amount=13), house).sheet.dead is False
    fallen = _apply(start, rules.Damage(amount=12), house).sheet
    dead = _apply(fallen, rules.Damage(amount=14), house).sheet
    assert dead.dead and dead.death_cause == "−14 PV"


def test_a_state_is_named_by_the_table_in_force_after_another_table_s_action() -> None:
    """A sheet settled under the shipped table, then a state put under a house table that renames it: the line
    uses the house table's label (mutant: the last settle's figures taken whatever its table)."""
    states = {cid: c.model_copy(update={"label": f"{c.label} (maison)"}) for cid, c in RS.conditions.items()}
    house = RS.model_copy(update={"conditions": states})
    sheet = _apply(_sheet(base_maximum=12, current=12), rules.Damage(amount=1)).sheet
    assert SETTLED[0][1] is RS
    out = _apply(sheet, rules.SetCondition(condition="chancelant"), house)
    assert "État Chancelant (maison) ajouté." in out.log


def test_temporary_pv_lost_under_a_table_where_they_do_not_count() -> None:
    """« Quand les points de vie temporaires disparaissent, le total de points de vie de l’aventurier retombe à
    la valeur notée » — under a house table whose temporary PV do not count in the total, after an action under
    the shipped table, the total told is the real PV alone (mutant: the last settle's figures taken whatever
    its table)."""
    sheet = _apply(_sheet(base_maximum=20, current=10), rules.GainTemporary(amount=5)).sheet
    assert SETTLED[0][1] is RS
    out = _apply(sheet, rules.LoseTemporary(), _house("temporary", count_for_state=False))
    assert any("disparaissent (jamais récupérables) : total 10 → 10 PV" in line for line in out.log)
    out = _apply(sheet, rules.LoseTemporary())
    assert any("disparaissent (jamais récupérables) : total 15 → 10 PV" in line for line in out.log)


def test_a_hit_of_no_damage_leaves_a_stabilisation() -> None:
    """« Un test de Premiers secours de DD 15 réussi permet de stabiliser l’état d’un personnage mourant, avec
    pour conséquence qu’il cesse de perdre des points de vie. » A hit that deals 0 does not reopen the wounds
    (only new damage does: ``dying.damage_breaks_stability``; mutant: ``real >= 0``)."""
    out = _apply(_sheet(base_maximum=12, current=-3, recovery="assisted"), rules.Damage(amount=0))
    assert out.sheet.recovery == "assisted"
    assert not any("rouvrent" in line for line in out.log)


def test_a_hot_action_on_a_settled_sheet_works_nothing_out_again(monkeypatch: Any) -> None:
    """What must not come back (issue 15): a damage, a heal, temporary PV or a state on the sheet the last action
    settled reads the table's figures, the maximum and the death threshold from that settle, without working
    them out again (mutant: the short path's guard in ``_settle``)."""
    calls: list[str] = []

    def counted(name: str, real: Any) -> Any:
        def call(*args: Any) -> Any:
            calls.append(name)
            return real(*args)

        return call

    for name in ("figures", "maximum_of", "death_cause", "death_pv", "maximum", "is_dead", "state_id"):
        monkeypatch.setattr(handlers, name, counted(name, getattr(handlers, name)))
    sheet = _sheet(level=5, constitution=14, constitution_bonus=4, base_maximum=40, current=40, nonlethal=3)
    sheet = _apply(sheet, rules.Damage(amount=1)).sheet
    for action in (
        rules.Damage(amount=5),
        rules.Heal(amount=2),
        rules.GainTemporary(amount=4),
        rules.SetCondition(condition="chancelant"),
        rules.SetCondition(condition="chancelant", active=False),
        rules.LoseTemporary(),
        rules.Damage(amount=3, nonlethal=True),
    ):
        calls.clear()
        sheet = _apply(sheet, action).sheet
        assert calls == [], (action, calls)
