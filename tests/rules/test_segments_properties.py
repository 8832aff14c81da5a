"""Segments (seed 002) invariants over random action sequences (hypothesis), JSON, and broken data."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rules
from rules.systems.segments.derive import health_state_id
from tests.rules.helpers import apply_checked, broken_table_message

INFO = rules.describe("segments")
CONDITIONS = [c.id for c in INFO.conditions]
# The states a sheet stores as set (the fatigue states come from the ladder, S14).
SETTABLE = [c for c in CONDITIONS if c not in INFO.extra["ladder_conditions"]]
DAMAGE_TYPES = [None, "feu", "froid", "argent", "tranchant, argent", "magie", "chute", "son"]
SHIPPED = Path(__file__).parents[2] / "resources" / "rulesets" / "segments.toml"

amounts = st.one_of(st.integers(0, 30), st.sampled_from(["1d6", "2d6+3", "1d4", "3d6", "4d8"]))
reduction_lists = st.lists(
    st.builds(lambda n, t: f"{n}/{t}", st.integers(0, 8), st.sampled_from(["−", "argent", "magie", "feu"])),
    max_size=3,
)

actions = st.one_of(
    st.builds(
        rules.Damage,
        amount=amounts,
        hits=st.integers(1, 4),
        nonlethal=st.booleans(),
        damage_type=st.sampled_from(DAMAGE_TYPES),
        save_halves=st.booleans(),
        spell_check=st.one_of(st.none(), st.integers(0, 25)),
    ),
    st.builds(rules.Heal, amount=amounts),
    st.builds(rules.GainTemporary, amount=st.integers(0, 15), replace=st.booleans()),
    st.builds(rules.LoseTemporary),
    st.builds(rules.SetCondition, condition=st.sampled_from(CONDITIONS), active=st.booleans()),
    st.builds(rules.ClearConditions),
    st.builds(rules.Stabilise, method=st.sampled_from(["self", "ally"]), modifier=st.integers(-2, 4)),
    st.builds(rules.LongRest, hours=st.integers(8, 10), interrupted=st.booleans(), ate_and_drank=st.booleans()),
    st.builds(
        rules.AdvanceTime,
        unit=st.sampled_from(["segment", "segment", "segment", "turn", "turn", "minute", "hour", "day"]),
        count=st.integers(1, 12),
    ),
    st.builds(rules.SetFatigue, level=st.integers(0, 4)),
    st.builds(rules.AddFatigue, steps=st.integers(1, 2)),
    st.builds(rules.StandUp),
    st.builds(rules.SetSurprise, segments=st.integers(0, 4)),
    st.builds(
        rules.Fall,
        metres=st.floats(0, 80, allow_nan=False),
        agility_success=st.booleans(),
        save_halves=st.booleans(),
    ),
    st.builds(rules.SetSuffocating, active=st.booleans()),
    st.builds(rules.SetBurning, active=st.booleans()),
    st.builds(rules.Extinguish, method=st.sampled_from(["maneuver", "roll"])),
    st.builds(
        rules.SetExposure, exposure=st.sampled_from(["", "froid", "chaleur"]), save_dd=st.sampled_from([None, 12])
    ),
    st.builds(rules.SetPrivation, need=st.sampled_from(["food", "water", "sleep"]), active=st.booleans()),
    st.builds(
        rules.Edit,
        changes=st.fixed_dictionaries(
            {},
            optional={
                "constitution": st.integers(1, 20),
                "base_maximum": st.integers(1, 40),
                "damage_reductions": reduction_lists,
                "light": st.sampled_from(["vive", "faible", "obscurite"]),
                "armour": st.sampled_from(["", "legere", "intermediaire", "lourde"]),
            },
        ),
    ),
)


@st.composite
def starts(draw: st.DrawFn) -> rules.SegmentsSheet:
    """Sheets in every state: healthy, wounded, at 0, knocked out, dying, stabilised."""
    con = draw(st.integers(1, 18))
    maximum = draw(st.integers(1, 30))
    current = draw(st.integers(-con + 1, maximum))
    return rules.new_sheet(
        "segments",
        name="Essai",
        level=draw(st.integers(1, 8)),
        base_maximum=maximum,
        current=current,
        nonlethal=draw(st.sampled_from([0, 0, 1, 5, 12])),
        stabilised=current < 0 and draw(st.booleans()),
        constitution=con,
        fortitude_save=draw(st.integers(-2, 12)),
        armour=draw(st.sampled_from(["", "legere", "intermediaire", "lourde"])),
        shield=draw(st.booleans()),
        natural_armour=draw(st.integers(0, 9)),
        damage_reductions=draw(reduction_lists),
        energy_resistances=draw(st.sampled_from([(), ("feu 5",), ("froid 3", "feu 10")])),
        magic_resistance=10,
        light=draw(st.sampled_from(["vive", "faible", "obscurite"])),
        darkvision_m=draw(st.sampled_from([0, 18])),
        conditions=draw(st.lists(st.sampled_from(SETTABLE), max_size=3)),
    )


def expected_state(s: rules.SegmentsSheet) -> str:
    """The seed's state table, written again independently of the rules module."""
    if s.dead or s.current <= -s.constitution:
        return "mort"
    if s.current < 0:
        return "stabilise" if s.stabilised else "mourant"
    if s.nonlethal > s.current:
        return "inconscient"
    if s.current == 0:
        return "chancelant"
    return "blesse" if 2 * s.current <= s.base_maximum else "en_forme"


def _step(sheet: rules.SegmentsSheet, action: rules.Action, rng: random.Random) -> rules.SegmentsSheet:
    out = apply_checked(sheet, action, rng)
    if out is None:
        return sheet
    new: rules.SegmentsSheet = out.sheet
    d = rules.derive(new)
    # PV never above the maximum.
    assert new.current <= d.maximum, (new.current, d.maximum, action)
    # The state always matches the thresholds.
    assert d.state == expected_state(new), (d.state, new, action)
    # The state id the handlers read after every change (its own fast path for a standing character) agrees.
    assert health_state_id(new, rules.ruleset("segments")) == d.state, (new, action)
    # Death is automatic and recorded.
    if new.current <= -new.constitution:
        assert new.dead
    if new.stabilised:
        assert new.current < 0
    # Reductions and resistances never turn damage into healing.
    if isinstance(action, rules.Damage):
        assert new.current <= sheet.current
        assert new.nonlethal >= sheet.nonlethal
        assert new.temporary <= sheet.temporary
    if isinstance(action, rules.GainTemporary):
        assert new.temporary in (sheet.temporary, action.amount)
    assert d.roll_penalty <= 0
    assert set(d.conditions) == set(d.condition_reasons) <= set(CONDITIONS)
    assert new.fatigue <= len(rules.ruleset("segments").fatigue.levels)
    for key in d:
        assert isinstance(d.explain(key), str) and d.explain(key)
    # JSON round trip.
    assert rules.sheet_from_json(rules.sheet_to_json(new)) == new
    return new


@settings(max_examples=150)
@given(start=starts(), steps=st.lists(actions, min_size=1, max_size=25), seed=st.integers(0, 2**32 - 1))
def test_random_sequences_keep_the_invariants(start: rules.SegmentsSheet, steps: list[rules.Action], seed: int) -> None:
    """PV never above the maximum; the state always matches the thresholds; reductions never heal;
    ``apply`` never mutates; a sheet survives JSON."""
    rng = random.Random(seed)
    sheet = start
    for action in steps:
        sheet = _step(sheet, action, rng)


@given(
    start=starts(),
    amount=st.integers(0, 60),
    hits=st.integers(1, 6),
    damage_type=st.sampled_from(DAMAGE_TYPES),
    nonlethal=st.booleans(),
)
def test_reductions_never_heal(
    start: rules.SegmentsSheet, amount: int, hits: int, damage_type: str | None, nonlethal: bool
) -> None:
    """« on retire X points à chaque coup encaissé » — never more than the hit: no damage becomes healing."""
    damage = rules.Damage(amount=amount, hits=hits, damage_type=damage_type, nonlethal=nonlethal)
    out = rules.apply(start, damage, rng=random.Random(amount))
    lost = start.current - out.sheet.current + out.sheet.nonlethal - start.nonlethal
    assert 0 <= lost <= amount * hits


@given(start=starts(), steps=st.lists(actions, max_size=8), seed=st.integers(0, 1000))
def test_json_round_trip(start: rules.SegmentsSheet, steps: list[rules.Action], seed: int) -> None:
    rng = random.Random(seed)
    sheet = start
    for action in steps:
        out = apply_checked(sheet, action, rng)
        if out is not None:
            sheet = out.sheet
    text = rules.sheet_to_json(sheet)
    back = rules.sheet_from_json(text)
    assert back == sheet
    assert rules.sheet_from_data(rules.sheet_to_data(sheet)) == sheet
    assert '"system": "segments"' in text


def test_most_random_actions_apply() -> None:
    """The round trip above is only worth something if the actions apply: over 300 random sequences drawn from
    the same pool (fixed seed), most actions are applied, not refused, and every sheet left reloads."""
    rng = random.Random(2024)
    pool = [
        rules.Damage(amount="1d6", damage_type="tranchant"),
        rules.Damage(amount=4, nonlethal=True),
        rules.Damage(amount=3, hits=2, damage_type="feu"),
        rules.Heal(amount="1d8"),
        rules.GainTemporary(amount=5),
        rules.LoseTemporary(),
        rules.SetCondition(condition="lenteur"),
        rules.SetCondition(condition="a_terre", active=False),
        rules.ClearConditions(),
        rules.AdvanceTime(unit="segment", count=3),
        rules.AdvanceTime(unit="turn"),
        rules.AdvanceTime(unit="hour"),
        rules.StartTurn(),
        rules.EndRound(),
        rules.SetFatigue(level=1),
        rules.SetSurprise(segments=2),
        rules.SetExposure(exposure="froid"),
        rules.SetPrivation(need="food"),
        rules.Fall(metres=6),
        rules.Edit(changes={"armour": "legere"}),
    ]
    applied = total = 0
    for _ in range(300):
        sheet = rules.new_sheet("segments", name="Essai", base_maximum=30, current=30, constitution=12)
        for action in rng.choices(pool, k=8):
            total += 1
            out = apply_checked(sheet, action, rng)
            if out is not None:
                applied += 1
                sheet = out.sheet
        assert rules.sheet_from_json(rules.sheet_to_json(sheet)) == sheet
    assert applied >= 0.8 * total, (applied, total)


# Every action at every size a user can give it: amounts up to the bound, dice, long times, extreme edits.
big_amounts = st.one_of(
    st.integers(0, 100_000),
    st.sampled_from(["1d6", "1000d1000", "1d100000", "100d6*1000", "99999", "1d4-10"]),
)
extreme_edits = st.fixed_dictionaries(
    {},
    optional={
        "constitution": st.integers(1, 50),
        "base_maximum": st.integers(1, 100_000),
        "current": st.integers(-100_000, 100_000),
        "temporary": st.integers(0, 100_000),
        "nonlethal": st.integers(0, 100_000),
        "level": st.integers(1, 100),
        "initiative_segment": st.integers(1, 100),
        "conditions": st.lists(st.sampled_from(SETTABLE), max_size=4),
        "fatigue": st.integers(0, 3),
        "natural_armour": st.integers(0, 1000),
        "magic_resistance": st.integers(0, 1000),
        "damage_reductions": reduction_lists,
        "energy_resistances": st.sampled_from(["", "feu 9999", "froid 0, son 5"]),
        "burning": st.booleans(),
        "exposure": st.sampled_from(["", "froid", "chaleur"]),
        "clock": st.sampled_from([0, 10, 3600, 31_536_000_000 - 3600]),
        "dead": st.booleans(),
        "stabilised": st.booleans(),
    },
)
wide_actions = st.one_of(
    st.builds(
        rules.Damage,
        amount=st.integers(0, 100_000),
        hits=st.integers(1, 100),
        nonlethal=st.booleans(),
        damage_type=st.sampled_from(DAMAGE_TYPES),
        save_halves=st.booleans(),
    ),
    st.builds(rules.Damage, amount=big_amounts, hits=st.integers(1, 3), nonlethal=st.booleans()),
    st.builds(rules.Heal, amount=big_amounts),
    st.builds(rules.GainTemporary, amount=big_amounts, replace=st.booleans()),
    st.builds(
        rules.AdvanceTime,
        unit=st.sampled_from(["segment", "turn", "minute", "hour", "day"]),
        count=st.one_of(st.integers(1, 200), st.sampled_from([5_000, 100_000])),
    ),
    st.builds(rules.LongRest, hours=st.integers(0, 168), ate_and_drank=st.booleans()),
    st.builds(rules.StartTurn),
    st.builds(rules.EndRound),
    st.builds(rules.Fall, metres=st.floats(0, 100_000, allow_nan=False), agility_success=st.booleans()),
    st.builds(rules.SetSurprise, segments=st.integers(0, 100)),
    st.builds(rules.SetBurning, active=st.booleans()),
    st.builds(rules.SetSuffocating, active=st.booleans()),
    st.builds(
        rules.SetExposure, exposure=st.sampled_from(["", "froid", "chaleur"]), save_dd=st.sampled_from([None, 100])
    ),
    st.builds(rules.SetPrivation, need=st.sampled_from(["food", "water", "sleep"]), active=st.booleans()),
    st.builds(rules.SetFatigue, level=st.integers(0, 20)),
    st.builds(rules.AddFatigue, steps=st.integers(1, 20)),
    st.builds(rules.Stabilise, method=st.sampled_from(["self", "ally"]), modifier=st.integers(-100, 100)),
    st.builds(rules.SetCondition, condition=st.sampled_from(CONDITIONS), active=st.booleans()),
    st.builds(rules.Edit, changes=extreme_edits),
)


@settings(max_examples=120, deadline=None)
@given(start=starts(), steps=st.lists(wide_actions, min_size=1, max_size=12), seed=st.integers(0, 2**32 - 1))
def test_no_sequence_of_actions_leaves_a_sheet_that_does_not_reload(
    start: rules.SegmentsSheet, steps: list[rules.Action], seed: int
) -> None:
    """Issue 14/13 proof: whatever a user does, at whatever size, the sheet left always reloads from its JSON
    (an action that would break it is refused in French, and changes nothing)."""
    rng = random.Random(seed)
    sheet = start
    for action in steps:
        out = apply_checked(sheet, action, rng)
        if out is None:
            continue
        sheet = out.sheet
        assert rules.sheet_from_json(rules.sheet_to_json(sheet)) == sheet


def test_demo_sheet_is_valid_and_interesting() -> None:
    demo = rules.demo_sheet("segments")
    d = rules.derive(demo)
    assert d.state == "blesse"
    assert d.conditions  # something to show
    assert rules.sheet_from_json(rules.sheet_to_json(demo)) == demo


@pytest.mark.parametrize(
    ("old", "new", "field"),
    [
        ("self_stabilise_dd = 20", 'self_stabilise_dd = "vingt"', "self_stabilise_dd"),
        ("turn = 10", "turn = 15\nextra_unit = 0", "time_units › extra_unit"),
        ("segment = 1\n", "segment = 3\n", "multiple"),
        ("[armours.lourde]\nlabel", "[armours.plaques]\nlabel", "armours"),
        ("loss_per_segment = 1", "loss_per_segment = -1", "loss_per_segment"),
        ('levels = ["fatigue", "epuise", "vacillant"]', 'levels = ["fatigue", "harasse"]', "harasse"),
        ('damage_type = "chute"', 'damage_type = "gravite"', "fall.damage_type"),
        ("all_rolls = -2", "all_rolls = 2", "all_rolls"),
    ],
)
def test_broken_table_names_file_and_field(tmp_path: Path, old: str, new: str, field: str) -> None:
    assert field in broken_table_message("segments", SHIPPED, tmp_path, old, new)


def test_broken_toml_syntax(tmp_path: Path) -> None:
    broken = tmp_path / "segments.toml"
    broken.write_text("[general\ncheck_dice = [1, 20]", encoding="utf-8")
    with pytest.raises(rules.RulesetError, match="syntaxe TOML"):
        rules.load_rules_table("segments", broken)


def test_shipped_table_loads_as_a_house_copy() -> None:
    assert rules.load_rules_table("segments", SHIPPED) == rules.ruleset("segments")


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({"constitution": 0}, "« Constitution » : doit être supérieur ou égal à 1"),
        ({"current": 30, "base_maximum": 20}, "dépassent le maximum"),
        ({"damage_reductions": ["5argent"]}, "« Réductions de dégâts » : « 5argent » n'est pas une réduction"),
        ({"damage_reductions": ["5/"]}, "précisez après la barre"),
        ({"energy_resistances": ["feu 5", "feu 10"]}, "deux résistances"),
        ({"armour": "plaques"}, "« Armure » : « plaques » n'est pas au choix (aucune, Armure légère"),
        ({"light": "crépuscule"}, "« Éclairage » : « crépuscule » n'est pas au choix (Lumière vive"),
        ({"fatigue": -1}, "« Fatigue » : doit être supérieur ou égal à 0"),
        ({"fatigue": 4}, "« fatigue » : au plus 3 (Vacillant)"),
        ({"privations": ["air"]}, "« Privations » : « air » n'est pas une privation connue (sans manger"),
        ({"conditions": ["ljnteur"]}, "« états » : « ljnteur » n'est pas un état connu (états : Lenteur"),
        ({"speed": 3}, "n'est pas un champ connu"),
    ],
)
def test_bad_sheet_fields_give_french_lines(fields: dict[str, object], expected: str) -> None:
    with pytest.raises(rules.SheetError) as err:
        rules.new_sheet("segments", **fields)
    assert any(expected in line for line in err.value.lines), err.value.lines
    assert err.value.reason.startswith("Fiche invalide")
