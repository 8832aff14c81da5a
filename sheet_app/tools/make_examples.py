"""Write one demo sheet per system to ``resources/examples/<system>.fiche.json``.

    .venv/bin/python -m sheet_app.tools.make_examples

Each file is ``rules.demo_sheet(system)`` written by ``sheet_app.files.write_document`` (the same path
as « Enregistrer »), so the examples are always in the current file format.
"""

from __future__ import annotations

import sys
from pathlib import Path

import rules
from sheet_app import files
from sheet_app.settings import examples_dir


def make(folder: Path | None = None) -> list[Path]:
    folder = folder if folder is not None else examples_dir()
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for system_id in rules.SYSTEMS:
        path = folder / f"{system_id}.fiche.json"
        doc = files.Document("sheet", [rules.demo_sheet(system_id)], [[]])
        files.write_document(path, doc)
        written.append(path)
    return written


def main() -> int:
    for path in make():
        print(f"écrit : {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
