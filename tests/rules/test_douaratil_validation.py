"""Douaratil sheets read from a file: ids checked against the rule table, every field bounded, the fields
coherent with each other (issue 16, items 14 and 16) — the same check on load, on ``Edit`` and after
every action (``rules.sheet_problems``)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

import rules


def data(**fields: Any) -> dict[str, Any]:
    d = rules.sheet_to_data(rules.demo_sheet("douaratil"))
    d.update(fields)
    return d


def refused(d: dict[str, Any], table: Any = None) -> list[str]:
    """The problems of ``d`` read as a sheet (one line each), the same from data and from JSON text."""
    with pytest.raises(rules.SheetError) as err:
        rules.sheet_from_data(d, table)
    with pytest.raises(rules.SheetError) as from_text:
        rules.sheet_from_json(json.dumps(d), table)
    assert from_text.value.reason == err.value.reason
    return [problem for line in err.value.lines for problem in line.split(" ; ")]


def test_the_demo_and_a_played_sheet_have_no_problem() -> None:
    assert rules.sheet_problems(rules.demo_sheet("douaratil")) == []


@pytest.mark.parametrize(
    ("fields", "line"),
    [
        ({"conditions": ["ljnteur"]}, "« états » : état inconnu « ljnteur »"),
        ({"wounds": [{"id": 1, "type": "brulure"}]}, "« blessures › n° 1 » : type de blessure inconnu « brulure »"),
        (
            {"wounds": [{"id": 1, "type": "plaie", "severity": "grav="}]},
            "« blessures › n° 1 » : gravité inconnue « grav= » (mineure ou majeure)",
        ),
        ({"scars": [{"type": "brulure"}]}, "« cicatrices › n° 1 » : type de blessure inconnu « brulure »"),
        (
            {"path": "voleur"},
            "« voie » : voie inconnue « voleur » (attendu : aucune voie, voie de la magie, voie des armes)",
        ),
        ({"exhaustion": 7}, "« épuisement » : au plus le niveau 6"),
    ],
)
def test_unknown_ids_are_refused(fields: dict[str, Any], line: str) -> None:
    assert refused(data(**fields))[0] == line


def test_a_house_table_passes_its_own_ids() -> None:
    """A sheet played with a GM's table (an extra state) is read with that table, refused without it."""
    table = rules.ruleset("douaratil")
    extra = table.model_dump()
    extra["conditions"]["saignant"] = {**extra["conditions"]["a_terre"], "label": "Saignant"}
    house = rules.DouaratilRules.model_validate(extra)
    d = data(conditions=["saignant"])
    assert rules.sheet_from_data(d, house).conditions == ("saignant",)
    assert rules.sheet_from_json(json.dumps(d), house).conditions == ("saignant",)
    assert refused(d) == ["« états » : état inconnu « saignant »"]
    assert rules.sheet_problems(rules.sheet_from_data(d, house), house) == []


FAILURES, SUCCESSES = "« échecs aux jets contre la mort »", "« succès aux jets contre la mort »"
ONLY_DYING = "les jets contre la mort ne se comptent qu'à 0 point d'action"
ONLY_MONSTER = "seulement pour un monstre vivant à 0 point d'action qui meurt à 0 PA"
PRIORITY = "« points de caractéristique d'abord en Constitution »"
HONOUR = "« points d'honneur (PH) › actuels » : 6 dépassent le maximum 4 (épuisement niveau 2)"


@pytest.mark.parametrize(
    ("fields", "line"),
    [
        ({"current": 0, "death_failures": 10}, f"{FAILURES} : 10 sur 3 au plus"),
        ({"current": 0, "death_failures": 3}, f"{FAILURES} : 3 échecs signifient la mort"),
        ({"current": 0, "death_successes": 3}, f"{SUCCESSES} : 3 succès stabilisent : au plus 2 en attente"),
        ({"death_failures": 1}, f"{SUCCESSES} : {ONLY_DYING}"),
        ({"stabilised": True}, "« stabilisation » : seulement pour une créature vivante à 0 point d'action"),
        ({"current": 0, "wake_in": 3600}, "« délai avant de regagner 1 PA » : seulement pour une créature stabilisée"),
        ({"current": 0, "death_in_rounds": 2}, f"« rounds avant de succomber » : {ONLY_MONSTER}"),
        ({"unconscious_rounds": 2}, "« rounds d'inconscience restants » : seulement pour une créature vivante "
         "dans l'état Inconscient"),
        ({"clock": 10, "last_long_rest_end": 20}, "« fin du dernier repos long » : après l'horloge de la fiche"),
        ({"constitution_priority": True}, f"{PRIORITY} : prend fin quand la Constitution revient à 10"),
        ({"action_dice_spent": 4}, "« dés d'action dépensés » : 4 pour une réserve de 3 (le niveau)"),
        ({"exhaustion": 2, "current": 14}, "« points d'action » : 14 dépassent le maximum 12 (épuisement niveau 2)"),
        ({"exhaustion": 2, "honour": {"current": 6, "base_maximum": 6}}, HONOUR),
        ({"wounds": [{"id": 1, "type": "plaie"}, {"id": 1, "type": "fracture"}]},
         "« blessures » : deux blessures portent le même numéro"),
    ],
)  # fmt: skip
def test_incoherent_fields_are_refused(fields: dict[str, Any], line: str) -> None:
    """« Ces succès ou ces échecs n'ont pas besoin d'être consécutifs, vous devez donc noter chaque résultat
    jusqu'à en avoir obtenu trois identiques. »: no « 11/3 échecs » can be read."""
    assert line in refused(data(**fields))


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("clock", 10**400),
        ("clock", 10**12 + 1),
        ("wake_in", 10**15),
        ("last_long_rest_end", -1),
        ("xp", 10**12),
        ("temporary", 100_001),
        ("unconscious_rounds", 1001),
        ("heroic_survivals", 10**6),
        ("action_dice_spent", 101),
        ("conditions", ["a_terre"] * 101),
        ("conditions", ["x" * 61]),
        ("wounds", [{"id": 10**9, "type": "plaie"}]),
        ("wounds", [{"id": 1, "type": "plaie", "rests": 10**9}]),
    ],
)
def test_every_number_is_bounded(field: str, value: Any) -> None:
    assert refused(data(**{field: value}))


def test_a_dead_sheet_with_three_failures_loads() -> None:
    """« après trois échecs, vous mourez »"""
    d = data(current=0, death_failures=3, dead=True)
    assert rules.sheet_from_data(d).dead


def test_edits_are_checked_the_same_way() -> None:
    s = rules.demo_sheet("douaratil")
    with pytest.raises(rules.Refused) as err:
        rules.apply(s, rules.Edit(changes={"conditions": ("ljnteur",)}))
    assert err.value.reason == "Valeur refusée : « états » : état inconnu « ljnteur »"
    with pytest.raises(rules.Refused) as err:
        rules.apply(s, rules.Edit(changes={"current": 0, "death_failures": 4}))
    assert "« échecs aux jets contre la mort » : 4 sur 3 au plus" in err.value.reason
    with pytest.raises(rules.Refused) as err:
        rules.apply(s, rules.Edit(changes={"constitution_priority": True}))
    assert "prend fin quand la Constitution revient à 10" in err.value.reason


@pytest.mark.parametrize(
    ("pattern", "replacement", "said"),
    [
        (r"^hour = \d+", "hour = 0", "« time_units › hour » : doit être supérieur ou égal à 1"),
        (r"^unconscious_dice = \[1, 6\]", "unconscious_dice = [1, 0]", "doit être supérieur ou égal à 1"),
        (r"^reopen_dd = 16", "", "reopen_dd"),
        (r'^"" = "aucune voie"', "", "paths doit nommer l'absence de voie"),
    ],
)
def test_a_house_table_the_rules_could_not_run_is_refused(
    tmp_path: Path, pattern: str, replacement: str, said: str
) -> None:
    """A GM's copy that would crash the rules later (an hour of 0 seconds, a 0-sided die, a bleeding wound
    without the DD of its opening, no « aucune voie ») is refused on load, in French, naming the file."""
    text = (Path(rules.__file__).parent.parent / "resources" / "rulesets" / "douaratil.toml").read_text("utf-8")
    broken, count = re.subn(pattern, replacement, text, count=1, flags=re.M)
    assert count == 1
    house = tmp_path / "maison.toml"
    house.write_text(broken, encoding="utf-8")
    with pytest.raises(rules.RulesetError) as err:
        rules.load_rules_table("douaratil", house)
    assert str(house) in str(err.value) and said in str(err.value)


NEW_KEYS = ("unconscious_at_zero", "will_test_steps", "absorbed_damage_counts", "aggravation_dd", "minimum_maximum",
            "short_min_points", "refused_while_bleeding")  # fmt: skip


def test_a_gms_copy_made_with_the_first_release_still_loads(tmp_path: Path) -> None:
    """Keys added since sheet_app 0.1.0 take the shipped readings; the two it read and no longer uses pass."""
    text = (Path(rules.__file__).parent.parent / "resources" / "rulesets" / "douaratil.toml").read_text("utf-8")
    old = "\n".join(line for line in text.splitlines() if not line.startswith(NEW_KEYS))
    old = old.replace("[temporary]\n", "").replace("step = 6\n", "step = 6\nminor_steps = 1\nmajor_steps = 2\n")
    assert "[temporary]" not in old and "minor_steps" in old
    copy = tmp_path / "maison-0.1.0.toml"
    copy.write_text(old, encoding="utf-8")
    table = rules.load_rules_table("douaratil", copy).model_dump()
    shipped = rules.ruleset("douaratil").model_dump()
    assert table["difficulty"].pop("minor_steps") == 1 and table["difficulty"].pop("major_steps") == 2
    shipped["difficulty"].pop("minor_steps"), shipped["difficulty"].pop("major_steps")
    assert table["wounds"]["fracture"].pop("aggravation_dd") is None  # the risk was not rolled then
    shipped["wounds"]["fracture"].pop("aggravation_dd")
    assert table == shipped
