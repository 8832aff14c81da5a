"""Sévérité (seed 003): invariants over random action sequences, data files, sheet validation.

Invariants (issue 5): the gauge never goes below 0; a negative Sévérité never adds a wound; rest never
heals an untreated wound; ``apply`` never mutates its input; a sheet survives a JSON round trip.
"""

from __future__ import annotations

import random
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rules
from rules.model import MAX_CLOCK
from tests.rules.helpers import write_table

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "resources" / "rulesets" / "severite.toml"
RS = rules.ruleset("severite")

PARTS = [*RS.body_parts, None]
TYPES = [*RS.damage_types, None]
CONDITIONS = list(RS.conditions)
ARMOUR = {
    "name": "Brigandine",
    "body_parts": ["torse", "abdomen", "bras_gauche"],
    "protections": [{"damage_type": "tranchant", "modifier": 3}, {"damage_type": "ecrasant", "modifier": 1}],
}

wound_ids = st.integers(1, 6)
actions = st.one_of(
    st.builds(
        rules.Strike,
        margin=st.integers(0, 14),
        damage_type=st.sampled_from(list(RS.damage_types)),
        body_part=st.sampled_from(list(RS.body_parts)),
        damage_modifier=st.integers(-2, 6),
        vital_zone=st.booleans(),
        handicap=st.sampled_from(["", "Genou raide"]),
        handicap_penalty=st.integers(-3, 0),
    ),
    st.builds(
        rules.Damage,
        amount=st.integers(0, 22) | st.sampled_from(["-4", "-1", "1d6-3", "2d8"]),
        body_part=st.sampled_from(PARTS),
        damage_type=st.sampled_from(TYPES),
        hits=st.integers(1, 3),
    ),
    st.builds(
        rules.InflictWound,
        grade=st.sampled_from(list(RS.grades)),
        body_part=st.sampled_from(PARTS),
        psychological=st.booleans(),
        tenacity_test=st.booleans(),
    ),
    st.builds(rules.TenacityTest, psychological=st.booleans(), opposition=st.none() | st.integers(0, 16)),
    st.builds(rules.TreatWound, wound_id=wound_ids, treatment=st.sampled_from(list(RS.treatments))),
    st.builds(rules.DiagnoseWound, wound_id=wound_ids, diagnosis=st.sampled_from(["", "Fracture"])),
    st.builds(
        rules.SetHandicap, wound_id=wound_ids, handicap=st.sampled_from(["", "Boite"]), penalty=st.integers(-3, 0)
    ),
    st.builds(rules.WorseningRisk, wound_id=wound_ids, opposition=st.none() | st.integers(0, 16)),
    st.builds(
        rules.SupernaturalHealing,
        success_level=st.sampled_from(list(RS.success_levels)),
        wound_id=st.none() | wound_ids,
    ),
    st.builds(rules.Heal, amount=st.integers(0, 6), magical=st.booleans()),
    st.builds(rules.EndConflict),
    st.builds(rules.EraseWound, wound_id=wound_ids),
    st.builds(rules.SetCondition, condition=st.sampled_from(CONDITIONS), active=st.booleans()),
    st.builds(rules.ClearConditions),
    st.builds(rules.LongRest, hours=st.integers(0, 12), interrupted=st.booleans()),
    st.builds(rules.AdvanceTime, unit=st.sampled_from(list(RS.time_units)), count=st.integers(1, 30)),
    st.builds(lambda n: rules.Edit(changes={"physique": n}), st.integers(-3, 8)),
)
start_sheets = st.builds(
    lambda npc, physique, mental, skill, bonus, armoured: rules.new_sheet(
        "severite",
        is_npc=npc,
        physique=physique,
        mental=mental,
        tenacity_skill=skill,
        tenacity_bonus=bonus,
        equipment=[ARMOUR] if armoured else [],
    ),
    st.booleans(),
    st.integers(-2, 6),
    st.integers(-2, 6),
    st.booleans(),
    st.integers(0, 3),
    st.booleans(),
)

SEVERITY_LINE = re.compile(r"^Sévérité = (−?\d+) − (−?\d+) = (−?\d+)\.$")


def _int(text: str) -> int:
    return int(text.replace("−", "-"))


def check_invariants(before: Any, action: Any, outcome: rules.Outcome) -> None:
    after = outcome.sheet
    derived = rules.derive(after)
    # The gauge never goes below 0, and is what the wounds hold.
    assert derived.current >= 0
    assert all(w.notches >= 0 for w in after.wounds)
    assert derived.current == sum(w.notches for w in after.wounds)
    # A new wound takes the next number after the highest on the sheet (the rules keep these figures per
    # tuple of wounds: issue 15), whatever healed or was erased before.
    old_ids = {w.id for w in before.wounds}
    new_ids = [w.id for w in after.wounds if w.id not in old_ids]
    if new_ids and not isinstance(action, rules.Edit):
        assert min(new_ids) == max(old_ids, default=0) + 1
    # A negative Sévérité never adds a wound.
    for entry in outcome.log:
        match = SEVERITY_LINE.match(entry)
        if match:
            power, resistance, severity = (_int(g) for g in match.groups())
            assert severity == power - resistance
    if isinstance(action, rules.Strike) and not before.dead:
        severities = [_int(m.group(3)) for m in map(SEVERITY_LINE.match, outcome.log) if m]
        assert len(severities) == 1
        if severities[0] < 0:
            assert after == before
            assert "no_wound" in outcome.events
    # Rest never heals an untreated wound.
    if isinstance(action, rules.LongRest):
        kept = {w.id: w for w in after.wounds}
        for wound in before.wounds:
            if wound.treatment is None:
                assert wound.id in kept
                assert (kept[wound.id].grade, kept[wound.id].notches) == (wound.grade, wound.notches)
    # The derived values the UI relies on are all there and explained.
    for name in ("current", "maximum", "temporary", "state", "roll_penalty", "conditions", "condition_reasons"):
        assert derived.explain(name)
    assert derived.state in RS.health_states
    assert derived.roll_penalty <= 0
    # The sheet survives a JSON round trip.
    assert rules.sheet_from_json(rules.sheet_to_json(after)) == after


def test_random_action_sequences_keep_the_invariants() -> None:
    """« Chaque Blessure que vous allez subir va remplir une jauge de Trauma » — whatever happens, the gauge is
    the wounds' notches, never below 0; rest never heals an untreated wound; nothing is mutated; and most of
    the actions tried apply."""
    tried = applied = 0

    @given(start_sheets, st.lists(actions, max_size=25), st.integers(0, 2**32))
    def sequences(start: Any, sequence: list[Any], seed: int) -> None:
        nonlocal tried, applied
        rng = random.Random(seed)
        s = start
        for action in sequence:
            tried += 1
            dump = s.model_dump()
            try:
                outcome = rules.apply(s, action, rng)
            except rules.Refused:
                assert s.model_dump() == dump
                continue
            applied += 1
            assert s.model_dump() == dump, f"{action.title()} changed its input"
            check_invariants(s, action, outcome)
            s = outcome.sheet

    sequences()
    # About half apply (the wound numbers drawn often name no wound): a third at least.
    assert tried and applied >= tried // 3, f"only {applied} of {tried} actions applied"


# Sheets at the edge of what a sheet holds: many wounds, sequels, wound numbers and time near their bounds.
def _edge_sheet(wounds: int, sequels: int, high_ids: bool, late: bool, npc: bool, crippled: bool) -> Any:
    base = 999_000 if high_ids else 1
    listed = [
        {
            "id": base + i,
            "grade": "fatale" if crippled and i % 3 == 0 else "legere",
            "notches": 1,
            "body_part": "bras_droit" if crippled and i % 3 == 0 else None,
            "crippled": crippled and i % 3 == 0,
            "treatment": "bandage" if i % 2 else None,
            "handicap": "Membre invalide ou sectionné" if crippled and i % 3 == 0 else "",
        }
        for i in range(wounds)
    ]
    clock = MAX_CLOCK - 86_400 * 3 if late else 0
    return rules.new_sheet(
        "severite",
        is_npc=npc,
        physique=2,
        wounds=listed,
        sequels=["Ancienne blessure"] * sequels,
        clock=clock,
        equipment=[ARMOUR],
    )


edge_sheets = st.builds(
    _edge_sheet,
    st.sampled_from([0, 3, 150, 199, 200]),
    st.sampled_from([0, 99, 100]),
    st.booleans(),
    st.booleans(),
    st.booleans(),
    st.booleans(),
)
edits = st.sampled_from(
    [
        {"physique": 20},
        {"mental": -10},
        {"tenacity_bonus": 20},
        {"tenacity_skill": True},
        {"conditions": ["tourmente", "inebranlable"]},
        {"conditions": []},
        {"dead": False},
        {"is_npc": True},
        {"name": "Ysolde"},
        {"wounds": []},
        {"sequels": []},
        {"equipment": []},
        {"clock": MAX_CLOCK},
        {"last_rest_end": None},
    ]
).map(lambda changes: rules.Edit(changes=changes))
more_actions = st.one_of(
    actions,
    st.builds(rules.StartTurn),
    st.builds(rules.EndRound),
    edits,
    st.builds(
        rules.Damage,
        amount=st.sampled_from(["1d20+10", "100000", "1d100000", "-100000", "3d6*50", "12"]),
        body_part=st.sampled_from(PARTS),
        hits=st.integers(1, 100),
    ),
    st.builds(rules.AdvanceTime, unit=st.sampled_from(list(RS.time_units)), count=st.integers(1, 100_000)),
    st.builds(
        rules.InflictWound,
        grade=st.sampled_from(list(RS.grades)),
        severity=st.none() | st.integers(0, 1000),
        body_part=st.sampled_from(PARTS),
        handicap=st.sampled_from(["", "x" * 300]),
        handicap_penalty=st.integers(-50, 0),
        note=st.sampled_from(["", "n" * 500]),
    ),
    st.builds(rules.SupernaturalHealing, success_level=st.sampled_from(list(RS.success_levels)), wound_id=st.none()),
    st.builds(rules.Heal, amount=st.sampled_from([100_000, "1d100000"]), magical=st.just(True)),
)


@pytest.mark.slow
def test_no_sequence_of_actions_leaves_a_sheet_that_cannot_be_read_back() -> None:
    """Issue 13 (proof): “no sequence of actions leaves a sheet that sheet_from_json(sheet_to_json(sheet))
    refuses” — whatever happens, even at the edge of what a sheet holds, what the rules give is saved and read
    back equal; and most of the actions tried do apply (a property of refusals would prove nothing)."""
    tried = applied = 0

    @given(edge_sheets | start_sheets, st.lists(more_actions, min_size=5, max_size=30), st.integers(0, 2**32))
    def sequences(start: Any, sequence: list[Any], seed: int) -> None:
        nonlocal tried, applied
        rng = random.Random(seed)
        s = start
        for action in sequence:
            tried += 1
            try:
                s = rules.apply(s, action, rng).sheet
            except rules.Refused as exc:
                assert exc.reason
                continue
            applied += 1
            assert rules.sheet_from_json(rules.sheet_to_json(s)) == s, action.title()

    sequences()
    assert tried and applied >= tried // 2, f"only {applied} of {tried} actions applied"


@given(st.integers(0, 14), st.integers(-5, 10), st.sampled_from(list(RS.body_parts)), st.integers(0, 2**32))
def test_a_negative_severity_never_adds_a_wound(margin: int, modifier: int, part: str, seed: int) -> None:
    """« Si le résultat est négatif, cela signifie que l’attaque n’a pas causé suffisamment de dommages pour
    créer une Blessure. »"""
    armour = {"name": "Pavois", "body_parts": [part], "protections": [{"damage_type": "percant", "modifier": 50}]}
    s = rules.new_sheet("severite", equipment=[armour])
    strike = rules.Strike(margin=margin, damage_type="percant", body_part=part, damage_modifier=modifier)
    out = rules.apply(s, strike, random.Random(seed))
    assert out.sheet == s
    assert "no_wound" in out.events


@given(
    st.lists(
        st.tuples(st.sampled_from(list(RS.grades)), st.integers(0, 9), st.sampled_from([None, *RS.treatments])),
        max_size=8,
    ),
    st.integers(1, 5),
)
def test_rest_never_heals_an_untreated_wound(wounds: list[tuple[str, int, str | None]], rests: int) -> None:
    """« Si par négligence ou par manque de moyens un personnage ne traite pas ses Blessures, celles-ci ne
    guériront pas avec du repos »"""
    s = rules.new_sheet(
        "severite",
        wounds=[{"id": i + 1, "grade": g, "notches": n, "treatment": t} for i, (g, n, t) in enumerate(wounds)],
    )
    untreated = [w for w in s.wounds if w.treatment is None]
    treated_notches = sum(w.notches for w in s.wounds if w.treatment is not None)
    for _ in range(rests):
        s = rules.apply(s, rules.AdvanceTime(unit="day")).sheet
        s = rules.apply(s, rules.LongRest(hours=8)).sheet
    assert [w for w in s.wounds if w.treatment is None] == untreated
    # … and every treated wound gave back one notch per rest, down to 0.
    given_back = sum(min(rests, n) for _, n, t in wounds if t is not None)
    assert sum(w.notches for w in s.wounds if w.treatment is not None) == treated_notches - given_back


# --------------------------------------------------------------------------------------------------
# The rule table
# --------------------------------------------------------------------------------------------------


def test_a_copy_of_the_shipped_table_loads_equal() -> None:
    """Every choice is data a GM can copy: the shipped table loaded as a house copy is the same table."""
    assert rules.load_rules_table("severite", SHIPPED) == RS


def _set(data: dict[str, Any], path: tuple[str | int, ...], value: Any) -> None:
    for key in path[:-1]:
        data = data[key]  # type: ignore[index]
    data[path[-1]] = value  # type: ignore[index]


@pytest.mark.parametrize(
    ("path", "value", "field"),
    [
        (("grades", "grave", "min_severity"), "cinq", "grades › grave › min_severity"),
        (("trauma", "tiers", 1, "opposition"), -8, "trauma › tiers › n° 2 › opposition"),
        (("trauma", "notches_per_tier"), 0, "trauma › notches_per_tier"),
        (("success_levels", "correcte", "tenacity"), "stoïque", "success_levels.correcte"),
        (("grades", "critique", "min_severity"), 4, "grades"),
        (("power", "facilty"), 3, "power › facilty"),
        (("health_states", "hors_de_combat", "colour"), "rouge", "health_states › hors_de_combat › colour"),
        (("body_parts", "tete", "label"), "x" * 81, "body_parts › tete › label"),
    ],
)
def test_a_broken_table_names_the_file_and_the_field(
    tmp_path: Path, path: tuple[str | int, ...], value: Any, field: str
) -> None:
    """A GM's copy of the table is checked like the shipped one; the error names the file and the field."""
    data = tomllib.loads(SHIPPED.read_text("utf-8"))
    _set(data, path, value)
    broken = write_table(tmp_path, data)
    with pytest.raises(rules.RulesetError) as err:
        rules.load_rules_table("severite", broken)
    assert str(broken) in str(err.value) and field in str(err.value), str(err.value)


def test_a_table_that_is_not_toml(tmp_path: Path) -> None:
    """A copy that is not TOML at all says so."""
    broken = tmp_path / "maison.toml"
    broken.write_text("[trauma\nnotches_per_tier = 2\n", encoding="utf-8")
    with pytest.raises(rules.RulesetError, match="syntaxe TOML invalide"):
        rules.load_rules_table("severite", broken)


def test_a_house_table_changes_the_rules(tmp_path: Path) -> None:
    """« Une Blessure Légère commence à devenir problématique » — a GM may make it weigh two notches."""
    data = tomllib.loads(SHIPPED.read_text("utf-8"))
    data["grades"]["legere"]["notches"] = 2
    table = rules.load_rules_table("severite", write_table(tmp_path, data))
    out = rules.apply(rules.new_sheet("severite"), rules.Damage(amount=3), rules_table=table)
    assert rules.derive(out.sheet, table).current == 2


# --------------------------------------------------------------------------------------------------
# Sheets
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({"physique": 99}, "« Physique » : doit être inférieur ou égal à 20"),
        ({"tenacity_bonus": "beaucoup"}, "« bonus de Ténacité » : doit être un nombre entier"),
        (
            {"wounds": [{"id": 1, "grade": "grave"}, {"id": 1, "grade": "legere"}]},
            "deux blessures portent le numéro 1",
        ),
        (
            {"wounds": [{"id": 1, "grade": "grave", "notches": -1}]},
            "« blessures › n° 1 › crans » : doit être supérieur ou égal à 0",
        ),
        ({"turn_timers": [{"condition": "tourmente", "turns": 2}]}, "n'est pas en place"),
        ({"equipment": [{"name": "", "body_parts": []}]}, "« équipement › n° 1 › nom » : est trop court (au moins 1)"),
        ({"trauma": 3}, "« trauma » : n'est pas un champ connu"),
    ],
)
def test_bad_sheet_fields_give_french_lines(fields: dict[str, Any], expected: str) -> None:
    """« Chaque Blessure que vous allez subir va remplir une jauge de Trauma, qui est représentée dans votre fiche
    personnage. »"""
    with pytest.raises(rules.SheetError) as err:
        rules.new_sheet("severite", **fields)
    assert any(expected in entry for entry in err.value.lines), err.value.lines


def test_json_round_trip_of_a_full_sheet() -> None:
    """« Il peut être intéressant alors de pouvoir en faire un diagnostic par une personne compétente. »"""
    s = rules.demo_sheet("severite")
    s = rules.apply(s, rules.DiagnoseWound(wound_id=2, diagnosis="Hématome « profond »")).sheet
    s = rules.apply(s, rules.Damage(amount=14, body_part="bras_droit", rolls=(10, 6))).sheet
    assert s.wounds[-1].crippled
    text = rules.sheet_to_json(s)
    back = rules.sheet_from_json(text)
    assert back == s
    assert rules.sheet_from_data(rules.sheet_to_data(s)) == s
    assert hash(back) == hash(s)


def test_apply_never_mutates_its_input() -> None:
    """« il suffit de les soustraire afin d’obtenir la Sévérité » — and the sheet given is left as it was."""
    s = rules.demo_sheet("severite")
    dump = s.model_dump()
    for action in (
        rules.Strike(margin=12, damage_type="percant", body_part="tete", rolls=(4, 16, 1, 20)),
        rules.EndConflict(),
        rules.LongRest(hours=8),
        rules.SupernaturalHealing(success_level="phenomenale", wound_id=1),
        rules.Edit(changes={"wounds": []}),
    ):
        rules.apply(s, action)
        assert s.model_dump() == dump


# --------------------------------------------------------------------------------------------------
# The quotes in these tests are the seed's words
# --------------------------------------------------------------------------------------------------
