"""Issue 15, session 5 round 2: d20's ``state`` hook (what the GM table asks of each creature after a bulk
action, « qui est tombé ») takes the state the last settle recorded (``SETTLED``) when it is asked about the
sheet that settle gave, under the same table; ``state_words`` reads the sheet's fields once. These tests keep
the shortcut to what the long path gives; each names the hand-made mutant it was written for
(docs/performance.md, « Session 5 — d20 apply »)."""

from __future__ import annotations

import random
import sys
from typing import Any

import pytest

import rules
from rules.actions import Damage, Heal
from rules.model import Context
from rules.systems.d20 import handlers
from rules.systems.d20.derive import SETTLED, health_state

derive = sys.modules["rules.systems.d20.derive"]  # the package's ``derive`` is the function

RS = rules.system("d20").ruleset()
FORGOTTEN = (None, None, "", 0, None, 0, 0, False)


def _sheet(**fields: Any) -> Any:
    return rules.new_sheet("d20", **{"name": "Brenna", "base_maximum": 20, "current": 20, **fields})


def _apply(sheet: Any, action: Any, table: Any = None) -> Any:
    return rules.apply(sheet, action, random.Random(1), table).sheet


def _from_scratch(sheet: Any, table: Any) -> tuple[str, str]:
    SETTLED[0] = FORGOTTEN
    return health_state(sheet, table)


def _no_temporary_count() -> Any:
    return RS.model_copy(update={"temporary": RS.temporary.model_copy(update={"count_for_state": False})})


def test_the_hook_on_the_last_settled_sheet_works_nothing_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """Mutant: the shortcut dropped (same answers, the long path each time). The state of the sheet the last
    settle gave is the recorded one, with the same words as from scratch."""
    cases = [
        (_sheet(), Damage(amount=5)),
        (_sheet(), Damage(amount=20)),  # hors de combat
        (_sheet(), Damage(amount=25)),  # mourant
        (_sheet(nonlethal=8), Damage(amount=12)),  # chancelant
        (_sheet(temporary=5), Damage(amount=3)),
    ]
    for start, action in cases:
        new = _apply(start, action)
        expected = _from_scratch(new, RS)
        new = _apply(start, action)
        assert SETTLED[0][0] is new
        with monkeypatch.context() as m:
            for name in ("death_reason", "state_id", "figures"):
                m.setattr(derive, name, lambda *a, **k: pytest.fail("worked out again"))
            assert health_state(new, RS) == expected


def test_the_hook_on_another_sheet_does_not_take_the_record() -> None:
    """Mutant: the record taken for any sheet of its table. « À partir de –10 points de vie, il est mort. »:
    asked about a dead sheet just after another one settled alive, the hook says it is dead."""
    alive = _apply(_sheet(), Damage(amount=3))
    dead = _apply(_sheet(), Damage(amount=30))
    alive = _apply(alive, Heal(amount=1))
    assert SETTLED[0][0] is alive
    assert health_state(dead, RS)[0] == "mort"
    assert health_state(alive, RS) == _from_scratch(alive, RS)


def test_the_hook_under_another_table_does_not_take_the_record() -> None:
    """Mutant: the record taken for the sheet whatever the table. With temporary PV that do not count for the
    state (a house table), a sheet at 0 PV and 5 temporary PV is hors de combat, not en forme."""
    sheet = _apply(_sheet(current=0, temporary=6, temporary_noted=0), Damage(amount=1))
    assert sheet.current == 0 and sheet.temporary == 5
    assert SETTLED[0][0] is sheet and health_state(sheet, RS)[0] == "en_forme"
    assert health_state(sheet, _no_temporary_count()) == ("hors_de_combat", "0 PV")


def test_nonlethal_words_with_temporary_pv_that_do_not_count() -> None:
    """Mutants of ``state_words``: the temporary PV counted in the total (or in the words) when the table says
    they do not count. « Si les dégâts non-létaux deviennent plus importants que les points de vie restants,
    le personnage s'effondre, inconscient. »: 4 nonlethal against 3 PV (the 5 temporary PV left out)."""
    house = _no_temporary_count()
    sheet = _sheet(current=3, temporary=5, temporary_noted=3, nonlethal=3)
    assert _from_scratch(sheet, house) == ("chancelant", "dégâts non létaux 3 = 3 PV")
    sheet = sheet.model_copy(update={"nonlethal": 4})
    assert _from_scratch(sheet, house) == ("inconscient", "dégâts non létaux 4 > 3 PV")
    assert _from_scratch(sheet, RS) == ("en_forme", "3 PV + 5 PV temporaires = 8 au total")
    # Settled under the house table (``rules.apply`` settles last under the shipped one, to tell the house rules).
    settled = handlers._settle(sheet, sheet, house, Context(random.Random(1), house))
    assert SETTLED[0][0] is settled and SETTLED[0][1] is house
    assert health_state(settled, house) == ("inconscient", "dégâts non létaux 4 > 3 PV")
