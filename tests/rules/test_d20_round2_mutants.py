"""Issue 19 after the d20 lane's round 2 of issue 15 (the d20 apply path's shortcuts, since 65966c1): tests
that kill the surviving mutants of the d20 functions changed then; each names the mutant it was written for.
The measure: docs/testing.md, « Session 4: the code changed after the scores », row « d20 round 2 »."""

from __future__ import annotations

import random
from typing import Any

import rules
from rules.model import Context, fmt_int
from rules.systems.d20 import handlers
from rules.systems.d20.derive import death_reason, figures, maximum_of, state_id
from rules.systems.d20.sheet import LocalWound

RS = rules.system("d20").ruleset()


def _sheet(**fields: Any) -> Any:
    return rules.new_sheet("d20", name="Brenna", **fields)


def _apply(sheet: Any, action: Any, table: Any = None) -> Any:
    return rules.apply(sheet, action, random.Random(1), table)


def _no_temporary_in_states() -> Any:
    return RS.model_copy(update={"temporary": RS.temporary.model_copy(update={"count_for_state": False})})


def test_constitution_drain_counts_against_life_like_damage() -> None:
    """Constitution 10 drained by 10 is 0: dead, as 10 damaged by 10 (``x_death_reason__mutmut_10``)."""
    assert death_reason(_sheet(constitution=10, constitution_drain=10, current=1), RS) != ""
    assert death_reason(_sheet(constitution=10, constitution_drain=10, current=1), RS) == death_reason(
        _sheet(constitution=10, constitution_damage=10, current=1), RS
    )
    assert death_reason(_sheet(constitution=10, constitution_drain=2, current=1), RS) == ""


def test_a_maximum_is_a_whole_number_of_pv() -> None:
    """An odd Constitution's modifier is rounded down, so the maximum is an integer (``x_maximum_of__mutmut_13``)."""
    top = maximum_of(10, 1, 13, 12, figures(RS))
    assert top == 10 and isinstance(top, int)


def test_temporary_pv_left_out_of_the_states_by_a_house_table() -> None:
    """A table where the temporary PV do not count for the state: at 0 PV with 5 temporary PV the state is
    the one of 0 PV, before and after gaining them (``x_state_id__mutmut_28``, ``x__settle__mutmut_144``)."""
    house = _no_temporary_in_states()
    sheet = _sheet(base_maximum=12, current=0)
    assert state_id(sheet, house) == state_id(sheet, RS)
    after = _apply(sheet, rules.GainTemporary(amount=5), house)
    assert after.sheet.temporary == 5
    assert state_id(after.sheet, house) == state_id(sheet, RS)
    assert not any(line.startswith("État :") for line in after.log)


def test_pv_above_a_thousand_are_written_in_the_damage_and_healing_lines() -> None:
    """PV outside the texts written once (±1,000) are still written
    (``x__lost__mutmut_34``, ``x__healed__mutmut_30``)."""
    sheet = _sheet(base_maximum=2000, current=1500)
    hurt = _apply(sheet, rules.Damage(amount=10))
    assert any(f"{fmt_int(1500)} → {fmt_int(1490)} PV" in line for line in hurt.log)
    healed = _apply(sheet, rules.Heal(amount=10))
    assert any(f"{fmt_int(1500)} → {fmt_int(1510)} PV" in line for line in healed.log)


def test_temporary_pv_absorb_no_more_than_the_damage() -> None:
    """10 temporary PV and 3 damage: 3 absorbed, the real PV untouched, the line whole
    (``x__lost__mutmut_9``, ``_28``)."""
    out = _apply(_sheet(base_maximum=12, current=12, temporary=10, temporary_noted=12), rules.Damage(amount=3))
    assert (out.sheet.current, out.sheet.temporary) == (12, 7)
    assert any(line.startswith("Dégâts : Brenna perd 3 PV (3 absorbés par les PV temporaires)") for line in out.log)


def test_temporary_pv_without_a_noted_value_note_the_current_pv() -> None:
    """« notez le nombre de points de vie actuels du personnage, avant de prendre en compte l'effet magique »:
    a sheet with temporary PV and no noted value gets its PV noted at the next action (``x__settle__mutmut_259``)."""
    out = _apply(_sheet(base_maximum=12, current=10, temporary=5), rules.Damage(amount=1))
    assert out.sheet.temporary_noted == 10


def test_healing_with_temporary_pv_raises_the_noted_value() -> None:
    """Healed from 5 to 8 with temporary PV noted at 5: the noted value follows (``x__healed__mutmut_53``)."""
    out = _apply(_sheet(base_maximum=20, current=5, temporary=5, temporary_noted=5), rules.Heal(amount=3))
    assert (out.sheet.current, out.sheet.temporary_noted) == (8, 8)


def test_a_healing_spell_stabilises_a_dying_character() -> None:
    """« Si un sort de guérison lui rend ne serait-ce qu'un point de vie, il cesse de perdre des points de vie
    et son état se stabilise. » (``x__healed__mutmut_103``)"""
    out = _apply(_sheet(base_maximum=12, current=-5), rules.Heal(amount=1, magical=True))
    assert out.sheet.recovery == "assisted"
    assert out.events == ("stabilised",)


def test_a_spell_giving_no_pv_says_how_many_it_needs() -> None:
    """A healing spell of 0 PV on a dying character: the line names the PV needed (``x__healed__mutmut_109``)."""
    out = _apply(_sheet(base_maximum=12, current=-5), rules.Heal(amount=0, magical=True))
    assert any("(au moins 1 PV nécessaire)" in line for line in out.log)


def test_care_of_someone_recovering_alone_becomes_assisted() -> None:
    """Stabilised alone, unconscious, then healed by a non-magical care: recovery with assistance
    (``x__healed__mutmut_124``)."""
    out = _apply(_sheet(base_maximum=12, current=-5, recovery="alone"), rules.Heal(amount=1))
    assert out.sheet.recovery == "assisted"


def test_healed_up_to_zero_pv_is_no_longer_dying() -> None:
    """Healed from −1 to 0 PV by a non-magical care: not “l'état reste Mourant”, and the stabilisation story
    is over at 0 PV (``x__healed__mutmut_81``, ``x__settle__mutmut_105``)."""
    out = _apply(_sheet(base_maximum=12, current=-1), rules.Heal(amount=1))
    assert out.sheet.current == 0
    assert not any("reste Mourant" in line for line in out.log)
    out = _apply(_sheet(base_maximum=12, current=-1, recovery="assisted"), rules.Heal(amount=1))
    assert (out.sheet.current, out.sheet.recovery, out.sheet.recovery_roll_at) == (0, "", None)


def test_one_pv_of_magic_heals_the_wounds_when_the_table_says_so() -> None:
    """A house table whose magic heals the localised wounds: 1 PV of a spell heals them, the line names them
    (``x__healed__mutmut_152``, ``_154``)."""
    house = RS.model_copy(update={"local_wounds": RS.local_wounds.model_copy(update={"heal_by_magic": True})})
    wound = LocalWound(id=1, body_part="tete", note="")
    out = _apply(_sheet(base_maximum=12, current=5, wounds=(wound,)), rules.Heal(amount=1, magical=True), house)
    assert out.sheet.wounds == ()
    assert any(line.startswith("Blessures localisées guéries (soins magiques) : Tête") for line in out.log)


def test_new_damage_ends_a_stabilisation_and_says_so() -> None:
    """Damage to a stabilised dying character: the stabilisation ends, in the journal
    (``x__take_lethal__mutmut_20``)."""
    out = _apply(_sheet(base_maximum=12, current=-3, recovery="assisted"), rules.Damage(amount=1))
    assert out.sheet.recovery == ""
    assert "Les nouveaux dégâts rouvrent ses blessures : fin de la stabilisation." in out.log


def test_a_settled_handler_gets_its_action_and_its_changes_are_settled() -> None:
    """``_settled`` called here, not at import (mutmut's forks run after the import has wrapped the handlers):
    the handler gets the action and the context; changes or a sheet, the result is settled with the context
    (``x__settled__mutmut_1``, ``_3``, ``_12``, ``_26``)."""
    seen: list[Any] = []

    def lose(sheet: Any, action: Any, ctx: Context) -> Any:
        seen.append(action)
        return {"current": sheet.current - action.amount}

    def lose_as_sheet(sheet: Any, action: Any, ctx: Context) -> Any:
        return sheet.model_copy(update={"current": sheet.current - action.amount})

    action = rules.Damage(amount=15)
    for handler in (lose, lose_as_sheet):
        ctx = Context(random.Random(1), RS)
        out = handlers._settled(handler)(_sheet(base_maximum=12, current=12), action, ctx)  # type: ignore[arg-type]
        assert out.current == -3
        assert out.dying_roll_at is not None  # settled: dying, its first roll set
        assert any(line.startswith("État :") for line in ctx.log)
    assert seen == [action]
