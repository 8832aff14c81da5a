"""Make ``docs/screenshots/print-*.png``: one printed page of each kind, from the PDF the app writes.

    .venv/bin/python -m sheet_app.tools.print_screenshots [DOSSIER] [--dpi 96]

Writes PDFs with the code ``sheet-app print`` uses (no window): a played Douaratil sheet, a blank
Douaratil sheet and its rule reminder, a blank Sévérité sheet (the Trauma gauge) and a GM table of a
dozen creatures; then turns one page of each into PNG with poppler's ``pdftoppm`` (poppler-utils).
Seeded dice and a fixed date in the footer: the pictures change only when the printing does.
"""

from __future__ import annotations

import datetime as dt
import os
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

DATE = dt.date(2025, 3, 1)


def _played_douaratil() -> Any:
    import rules

    rng = random.Random(5)
    sheet = rules.demo_sheet("douaratil")
    for action in (
        rules.GainTemporary(amount=4),
        rules.Damage(amount="2d6+3"),
        rules.AddWound(wound_type="plaie", severity="major", bleeding=True, note="Coup d'épée au flanc"),
        rules.AddWound(wound_type="contusion", note="Chute dans l'escalier de la tour"),
        rules.SetExhaustion(level=2),
        rules.SetCondition(condition="empoisonne"),
    ):
        sheet = rules.apply(sheet, action, rng=rng).sheet
    notes = "Doit 30 pièces d'or à l'aubergiste de Valcombe.\nA juré de retrouver l'épée de son père."
    return rules.evolve(sheet, notes=notes)


def _table() -> Any:
    import rules
    from sheet_app import files

    rng = random.Random(8)
    names = ["Brigand", "Loup", "Garde", "Cultiste"]
    sheets = []
    for i in range(12):
        system_id = rules.SYSTEMS[i % len(rules.SYSTEMS)]
        sheet = rules.evolve(rules.demo_sheet(system_id), name=f"{names[i % 4]} {i // 4 + 1}", is_npc=True)
        actions: list[rules.Action] = []
        if rules.supports(system_id, rules.Damage):
            actions.append(rules.Damage(amount=rng.randint(1, 9)))
        for action in actions:
            sheet = rules.apply(sheet, action, rng=rng).sheet
        sheets.append(sheet)
    return files.Document("table", sheets, [], "Embuscade au gué de la Sorne")


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    dpi = 96
    if "--dpi" in args:
        at = args.index("--dpi")
        dpi = int(args[at + 1])
        del args[at : at + 2]
    root = Path(__file__).resolve().parents[2]
    out = Path(args[0]) if args else root / "docs" / "screenshots"
    pdftoppm = shutil.which("pdftoppm")
    if pdftoppm is None:
        sys.stderr.write("pdftoppm introuvable : installez poppler-utils (apt-get install poppler-utils).\n")
        return 1
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtGui import QGuiApplication

    app = QGuiApplication.instance() or QGuiApplication([sys.argv[0]])
    from ui.printing import layout
    from ui.printing.render import pdf_bytes

    shots = {
        "print-fiche": ([layout.sheet_printout(_played_douaratil())], 1),
        "print-fiche-vierge": ([layout.blank_printout("douaratil")], 1),
        "print-aide-memoire": ([layout.blank_printout("douaratil")], 2),
        "print-fiche-vierge-severite": ([layout.blank_printout("severite")], 1),
        "print-table": (layout.document_printouts(_table()), 1),
    }
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        for name, (printouts, page) in shots.items():
            pdf = Path(tmp) / f"{name}.pdf"
            data, _pages = pdf_bytes(printouts, today=DATE)
            pdf.write_bytes(data)
            target = out / name
            subprocess.run(
                [
                    pdftoppm,
                    "-png",
                    "-r",
                    str(dpi),
                    "-f",
                    str(page),
                    "-l",
                    str(page),
                    "-singlefile",
                    str(pdf),
                    str(target),
                ],
                check=True,
            )
            print(f"{target}.png")
    app.processEvents()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
