"""Issue 15, session 6: what d20 knows of a sheet no settle gave (``derive.known``: the first hit of a fight, each
creature of the GM table) is worked out once and kept as the record, marked not settled; ``_settle`` works the
state out inline and makes its changes in its copy; the journal's numbers come from tables. These tests keep each
shortcut to what the long path gives; each names the hand-made mutant it was written for (docs/performance.md,
« Session 6 — d20 »)."""

from __future__ import annotations

import importlib
import random
from typing import Any

import rules
from rules.systems.d20 import handlers
from rules.systems.d20.derive import SETTLED, death_pv, death_reason, known, living_state, maximum, state_id
from tests.rules.d20_helpers import FORGOTTEN, RS
from tests.rules.d20_helpers import apply_d20 as _apply
from tests.rules.d20_helpers import d20_sheet as _sheet
from tests.rules.d20_helpers import house as _house

d20_derive = importlib.import_module("rules.systems.d20.derive")  # the package's ``derive`` is the function


TABLES = [
    RS,
    _house("thresholds", death_at_minus_constitution=True),
    _house("temporary", count_for_state=False),
    _house("constitution", changes_pv=False),
]


def _random_sheet(r: random.Random) -> Any | None:
    fields: dict[str, Any] = {
        "level": r.randint(1, 8),
        "constitution": r.choice([3, 8, 10, 14, 18]),
        "constitution_bonus": r.choice([0, 0, 2, 4]),
        "constitution_damage": r.choice([0, 0, 0, 2, 6, 14]),
        "constitution_drain": r.choice([0, 0, 0, 1]),
        "base_maximum": r.choice([8, 12, 40]),
        "current": r.choice([0, r.randint(-14, 12)]),
        "temporary": r.choice([0, 0, 3, 8]),
        "nonlethal": r.choice([0, 0, 2, 5, 12, 20]),
        "recovery": r.choice(["", "", "assisted", "alone", "awake", "alone_awake"]),
        "conditions": r.choice([(), (), ("chancelant",), ("inconscient",), ("chancelant", "sans_defense")]),
        "dead": r.random() < 0.1,
    }
    try:
        return _sheet(**fields)
    except rules.Refused:
        return None


def _from_scratch(sheet: Any, rs: Any) -> tuple[Any, ...] | None:
    SETTLED[0] = FORGOTTEN
    if death_reason(sheet, rs):
        return None
    d = sheet.__dict__
    played = d["constitution"] + d["constitution_bonus"] - d["constitution_damage"] - d["constitution_drain"]
    f = d20_derive.figures(rs)
    return (state_id(sheet, rs), maximum(sheet, rs), f, played, death_pv(played, f))


def test_what_is_known_of_a_sheet_no_settle_gave_is_what_the_long_path_finds() -> None:
    """``known`` of random sheets (alive, dying, stable, dead, Constitution changed, nonlethal damage, states) under
    the shipped table and house tables: None exactly when ``death_reason`` says dead, else the state, maximum,
    Constitution in play and death threshold that ``state_id``, ``maximum``, ``death_pv`` find from scratch, kept
    as the record and marked not settled (mutants: the dead flag, the death test, the maximum, the temporary PV
    in the total, the house death threshold, the settled mark)."""
    r = random.Random(6)
    seen: set[Any] = set()
    checked = 0
    while checked < 400:
        sheet = _random_sheet(r)
        if sheet is None:
            continue
        rs = r.choice(TABLES)
        expected = _from_scratch(sheet, rs)
        SETTLED[0] = FORGOTTEN
        record = known(sheet, rs)
        if expected is None:
            assert record is None
            seen.add("mort")
        else:
            assert record is not None
            assert record[0] is sheet and record[1] is rs and record[7] is False
            assert (record[2], record[3], record[4], record[5], record[6]) == expected
            assert SETTLED[0] is record and known(sheet, rs) is record
            seen.add(expected[0])
        checked += 1
    assert seen == {"en_forme", "chancelant", "hors_de_combat", "inconscient", "stabilise", "mourant", "mort"}


def test_a_fresh_sheet_s_first_hit_reads_it_once(monkeypatch: Any) -> None:
    """What must not come back (issue 15): the first hit on a sheet no settle gave works out its death, maximum
    and state once (``known``), not again in ``_settle`` (mutant: ``known`` not keeping its record)."""
    calls: list[str] = []

    def counted(module: Any, name: str) -> None:
        real = getattr(module, name)

        def call(*args: Any) -> Any:
            calls.append(name)
            return real(*args)

        monkeypatch.setattr(module, name, call)

    for module in (handlers, d20_derive):
        for name in ("death_reason", "state_id", "is_dead", "maximum"):
            if hasattr(module, name):
                counted(module, name)
    counted(d20_derive, "death_cause")
    sheet = _sheet(level=5, constitution=14, constitution_bonus=4, base_maximum=40, current=40, nonlethal=3)
    SETTLED[0] = FORGOTTEN
    out = _apply(sheet, rules.Damage(amount=5))
    assert out.sheet.current == 35
    assert calls == ["death_cause"], calls


def test_a_sheet_known_but_not_settled_is_settled_after_a_failed_first_aid() -> None:
    """« Un personnage mourant perd 1 point de vie chaque round. » A sheet typed in dying (no roll planned yet):
    a failed first aid (« Un test de Premiers secours de DD 15 réussi permet de stabiliser l’état d’un personnage
    mourant ») leaves it dying and its next dying roll is planned, as for any settled sheet (mutant: a record of
    what is known taken for a settled one)."""
    sheet = _sheet(base_maximum=12, current=-3)
    assert sheet.dying_roll_at is None
    out = _apply(sheet, rules.Stabilise(method="first_aid", rolls=(1,)))
    assert "échec" in out.log[0]
    assert out.sheet.recovery == "" and out.sheet.dying_roll_at is not None
    assert SETTLED[0][0] is out.sheet and SETTLED[0][7] is True


def test_death_under_minus_the_constitution_on_a_fresh_sheet() -> None:
    """« À partir de –10 points de vie, il est mort. » Under the house rule “mort à moins la Constitution”, a CON 5
    character hit from 12 PV to −7 on a sheet no action settled yet dies (−5 or less), though −7 is above −10
    (mutant: the shipped threshold recorded for a fresh sheet)."""
    house = _house("thresholds", death_at_minus_constitution=True)
    out = _apply(_sheet(base_maximum=12, current=12, constitution=5), rules.Damage(amount=19), house)
    assert out.sheet.dead and out.sheet.death_cause == "−7 PV"
    out = _apply(_sheet(base_maximum=12, current=12, constitution=5), rules.Damage(amount=16), house)
    assert not out.sheet.dead and out.sheet.current == -4


def test_the_settle_s_state_is_living_state_for_every_state() -> None:
    """After random actions on random sheets, the state the last settle recorded is the one ``living_state`` and
    ``state_id`` find from the sheet alone, and every living state is reached (mutants of ``_settle``'s inline
    state: each comparison flipped, each test dropped)."""
    r = random.Random(61)
    actions = [
        rules.Damage(amount=0),
        rules.Damage(amount=3),
        rules.Damage(amount=9),
        rules.Damage(amount=4, nonlethal=True),
        rules.Damage(amount=12, nonlethal=True),
        rules.Heal(amount=2),
        rules.Heal(amount=6, magical=True),
        rules.GainTemporary(amount=5),
        rules.LoseTemporary(),
        rules.SetCondition(condition="chancelant"),
        rules.SetCondition(condition="chancelant", active=False),
        rules.SetCondition(condition="inconscient"),
        rules.SetCondition(condition="inconscient", active=False),
        rules.AdvanceTime(unit="round"),
        rules.AdvanceTime(unit="hour"),
        rules.Stabilise(method="magic"),
    ]
    seen: set[str] = set()
    for _ in range(150):
        sheet = _random_sheet(r)
        if sheet is None or sheet.dead:
            continue
        rs = r.choice(TABLES)
        for _ in range(12):
            try:
                sheet = rules.apply(sheet, r.choice(actions), r, rs).sheet
            except rules.Refused:
                continue
            record = SETTLED[0]
            if sheet.dead:
                break
            if record[0] is not sheet:
                continue
            d = sheet.__dict__
            total = d["current"] + d["temporary"] if rs.temporary.count_for_state else d["current"]
            expected = living_state(total, d["nonlethal"], d["recovery"], d["conditions"], rs.thresholds.disabled_at)
            assert record[2] == expected
            SETTLED[0] = FORGOTTEN
            assert state_id(sheet, rs) == expected
            SETTLED[0] = record
            seen.add(expected)
    assert seen == {"en_forme", "chancelant", "hors_de_combat", "inconscient", "stabilise", "mourant"}


def test_numbers_beyond_the_tables_are_written_as_before() -> None:
    """The journal writes the numbers of a fight from tables (issue 15); outside them, as before: a hit of 5000 on
    10 PV “perd 5000 PV” down to −4990 with the typographic minus, a heal of 2000 “Soins 2000”."""
    out = _apply(_sheet(base_maximum=12, current=10), rules.Damage(amount=5000))
    assert out.log[0] == "Dégâts : Brenna perd 5000 PV : 10 → −4990 PV."
    out = _apply(_sheet(base_maximum=3000, current=500), rules.Heal(amount=2000))
    assert out.log[0] == "Soins 2000 : 500 → 2500 PV."
    out = _apply(_sheet(base_maximum=3000, current=-5), rules.GainTemporary(amount=1500))
    assert out.log[0] == "PV temporaires : 1500 ; PV notés avant l'effet : −5."


def test_a_state_taken_off_leaves_the_others() -> None:
    """Taking one of two states off leaves the other; taking the only one off leaves none (mutant: the count that
    spares the filter)."""
    sheet = _sheet(base_maximum=12, current=12, conditions=("chancelant", "sans_defense"))
    out = _apply(sheet, rules.SetCondition(condition="chancelant", active=False))
    assert out.sheet.conditions == ("sans_defense",)
    out = _apply(out.sheet, rules.SetCondition(condition="sans_defense", active=False))
    assert out.sheet.conditions == ()
    out = _apply(out.sheet, rules.SetCondition(condition="sans_defense"))
    assert out.sheet.conditions == ("sans_defense",)
    out = _apply(out.sheet, rules.SetCondition(condition="chancelant"))
    assert out.sheet.conditions == ("chancelant", "sans_defense")


def test_awake_below_zero_with_nonlethal_damage_is_unconscious() -> None:
    """« il récupère progressivement de ses blessures et peut avoir moins de 0 point de vie »: awake below 0, he is
    « hors de combat »; with nonlethal damage too, « Si les dégâts non-létaux deviennent plus importants que les
    points de vie restants, le personnage s’effondre, inconscient. » — as the settle of a hit of 0 (no stabilisation
    broken) finds it, from a sheet typed in and from the sheet a settle gave (mutant: below 0, the nonlethal
    damage's test dropped from ``_settle``'s inline state)."""
    for recovery in ("awake", "alone_awake"):
        sheet = _sheet(base_maximum=12, current=-3, recovery=recovery)
        settled = _apply(sheet, rules.Damage(amount=0)).sheet
        assert state_id(settled, RS) == "hors_de_combat"
        hurt = _apply(settled, rules.Damage(amount=2, nonlethal=True)).sheet
        assert SETTLED[0][0] is hurt and SETTLED[0][2] == "inconscient"
        SETTLED[0] = FORGOTTEN
        assert state_id(hurt, RS) == "inconscient"
        out = _apply(hurt, rules.Damage(amount=0))
        assert SETTLED[0][0] is out.sheet and SETTLED[0][2] == "inconscient"


def test_a_settle_that_lowers_the_pv_tells_the_state_it_changes() -> None:
    """« Si les dégâts non-létaux deviennent plus importants que les points de vie restants, le personnage
    s’effondre, inconscient. » A sheet at 12 PV of a maximum raised by its Constitution, with 11 nonlethal damage,
    played under a house table where the Constitution changes no PV: any action brings the PV down to the
    maximum of 10, and the journal tells the fall into unconsciousness that this makes (mutant: the state before
    taken for the state after when the settle itself changed the sheet)."""
    sheet = _sheet(level=1, constitution=10, constitution_bonus=4, base_maximum=10, current=12, nonlethal=11)
    out = _apply(sheet, rules.ClearConditions(), _house("constitution", changes_pv=False))
    assert "PV ramenés au maximum : 12 → 10." in out.log
    assert any(line.startswith("État : En forme → Inconscient") for line in out.log), out.log
    assert out.sheet.current == 10 and "unconscious" in out.events
