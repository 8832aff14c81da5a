"""d20's shortcuts in its apply path (issue 15) keep what the long path gives: the line of a change of state,
kept by what it depends on, is the table's own (a house table's labels are not mixed with the shipped
one's); PV written once are written as ``fmt_int`` writes them."""

from __future__ import annotations

import random

import rules
from rules.model import fmt_int
from rules.systems.d20 import handlers


def _fall(table: object | None) -> tuple[str, ...]:
    sheet = rules.new_sheet("d20", name="Brenna", base_maximum=12, current=3)
    return rules.apply(sheet, rules.Damage(amount=3), random.Random(1), table).log


def test_a_change_of_state_is_told_with_each_table_s_own_labels() -> None:
    shipped = rules.system("d20").ruleset()
    states = {sid: s.model_copy(update={"label": f"{s.label} (maison)"}) for sid, s in shipped.health_states.items()}
    house = shipped.model_copy(update={"health_states": states})
    before = _fall(None)
    assert any(line.startswith("État : En forme → Hors de combat") for line in before)
    told = _fall(house)
    assert any(line.startswith("État : En forme (maison) → Hors de combat (maison)") for line in told)
    assert _fall(None) == before  # and back to the shipped table's words


def test_pv_written_once_read_as_fmt_int_writes_them() -> None:
    assert all(text == fmt_int(value) for value, text in handlers._PV_TEXT.items())
    assert handlers._PV_TEXT[-7] == "−7"
