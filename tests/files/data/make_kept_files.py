"""Write the kept files of ``tests/files/data/`` that do not exist yet (never overwrites one).

Kept files are what files written by an older (or the current) format look like; tests open them to
prove migrations work. Once written and committed, a kept file is never regenerated: if the current
code cannot read it any more, a migration is missing — fix the code, not the file.

Run: ``.venv/bin/python -m tests.files.data.make_kept_files [SYSTEM…]``. Named systems get a kept
sheet of the current format (``v1/<system>.fiche.json``): do it once a system's sheet model is settled,
for the release that ships it — from then on the file guards its compatibility.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import rules
from sheet_app import files

HERE = Path(__file__).resolve().parent


def played(system_id: str, seed: int) -> tuple[object, list[str]]:
    """The system's demo character after a few blows, a condition, a rest: a sheet with history."""
    rng = random.Random(seed)
    sheet = rules.demo_sheet(system_id)
    info = rules.describe(system_id)
    journal: list[str] = []
    steps: list[rules.Action] = [rules.Damage(amount=3), rules.Damage(amount="1d6")]
    if info.conditions:
        steps.append(rules.SetCondition(condition=info.conditions[0].id))
    if info.ladders:
        steps.append(info.ladders[0].action(level=1))  # type: ignore[call-arg]
    if info.time_units:
        steps.append(rules.AdvanceTime(unit=info.time_units[-1].id, count=1))
    steps.append(rules.Heal(amount=1))
    for action in steps:
        try:
            out = rules.apply(sheet, action, rng=rng)
        except rules.Refused as exc:
            journal.append(f"Refusé : {exc.reason}")
            continue
        sheet = out.sheet
        journal.extend(out.log)
    return sheet, journal


def write_new(path: Path, text: str) -> None:
    if path.exists():
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    sys.stdout.write(f"écrit : {path.relative_to(HERE)}\n")


def main(systems: list[str]) -> int:
    # Format 0 (pre-release, never shipped): a bare sheet as ``rules.sheet_to_json`` writes it, and a
    # table as a bare list of such sheets.
    ulfred, ulfred_log = played("douaratil", 1)
    write_new(HERE / "v0" / "ulfred.fiche.json", rules.sheet_to_json(ulfred) + "\n")
    inn = [ulfred, rules.evolve(rules.demo_sheet("douaratil"), name="Aubergiste", is_npc=True)]
    write_new(HERE / "v0" / "auberge.table.json", json.dumps([rules.sheet_to_data(s) for s in inn], indent=2) + "\n")
    # Format 1 (the first release): the same characters, and one played sheet per landed system.
    write_new(
        HERE / "v1" / "ulfred.fiche.json",
        files.encode_document(files.Document("sheet", [ulfred], [ulfred_log])).decode("utf-8"),
    )
    write_new(
        HERE / "v1" / "auberge.table.json",
        files.encode_document(files.Document("table", inn, [ulfred_log, []], "L'auberge")).decode("utf-8"),
    )
    for system_id in systems:
        sheet, log = played(system_id, rules.SYSTEMS.index(system_id))
        text = files.encode_document(files.Document("sheet", [sheet], [log])).decode("utf-8")
        write_new(HERE / "v1" / f"{system_id}.fiche.json", text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
