"""Printing: 100 sheets to one PDF, the window's « Exporter en PDF… », the weight of one sheet page;
against a floor measured in the same run.

- « sheet-app print »: ``print_cli.main`` on 100 sheet files (25 of each system, each played: hit,
  wounded, a condition): read every file, lay out, paint, write the PDF. Target ≤ 5 s.
- The window: Fichier › Exporter en PDF… of one open sheet (the file dialog answered at once), events
  processed until quiet.
- One sheet page: the PDF of each system's played sheet. Target ≤ 100 KB a page.

The floor is a bare QPdfWriter drawing the same sheets' words (the rules' explanations, one
``drawText`` per line, no layout, no boxes, one page per sheet): what any PDF of that text costs here.
Paired rounds, the order alternating.

``python -m bench.printing [--quick]``
"""

from __future__ import annotations

import os
import random
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from bench import qt
from bench.common import Figure, Samples, median, paired

TARGET_S = 5.0
TARGET_KB = 100


def played(system_id: str, index: int, rng: random.Random) -> Any:
    import rules

    sheet = rules.evolve(rules.demo_sheet(system_id), name=f"{rules.describe(system_id).label} n° {index + 1}")
    info = rules.describe(system_id)
    actions: list[rules.Action] = []
    if rules.supports(system_id, rules.Damage):
        actions.append(rules.Damage(amount=rng.randint(1, 6)))
    if system_id == "douaratil":
        actions.append(rules.AddWound(wound_type="plaie", note="Coup d'épée au flanc"))
    elif system_id == "d20":
        actions.append(rules.AddLocalWound(body_part="main_gauche", note="Brûlure"))
    elif system_id == "severite":
        actions.append(rules.InflictWound(grade="legere", body_part="torse", damage_type="tranchant"))
    if info.conditions:
        actions.append(rules.SetCondition(condition=rng.choice(info.conditions).id))
    for action in actions:
        try:
            sheet = rules.apply(sheet, action, rng=rng).sheet
        except rules.Refused:
            pass
    return sheet


def floor_pdf(sheets: list[Any]) -> bytes:
    """The same words, drawn as plain lines on a bare QPdfWriter (one page per sheet)."""
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QPointF
    from PySide6.QtGui import QFont, QPainter

    import rules
    from ui.printing import render

    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    writer = render.pdf_writer(buffer)
    painter = QPainter(writer)
    font = QFont(render.FONT_FAMILY)
    font.setPointSizeF(9)
    painter.setFont(font)
    step = writer.logicalDpiY() * 11 / 72
    for i, sheet in enumerate(sheets):
        if i:
            writer.newPage()
        lines = [sheet.name, sheet.notes] + [e.text for e in rules.derive(sheet).values()]
        for n, line in enumerate(lines):
            painter.drawText(QPointF(0, (n + 1) * step), line[:160])
    painter.end()
    buffer.close()
    return bytes(data.data())


def run(quick: bool = False) -> list[Figure]:
    import rules
    from sheet_app import files, print_cli
    from ui.printing import dialogs, layout, render

    count, rounds = (8, 1) if quick else (100, 5)
    folder = qt.isolate()
    qt.app()
    rng = random.Random(12)
    sheets = [played(rules.SYSTEMS[i % len(rules.SYSTEMS)], i, rng) for i in range(count)]
    work = Path(tempfile.mkdtemp(prefix="print_", dir=folder))
    paths = []
    for i, sheet in enumerate(sheets):
        path = work / f"fiche{i:03}.fiche.json"
        files.write_document(path, files.Document("sheet", [sheet], [[]]))
        paths.append(str(path))
    out = work / "fiches.pdf"

    def cli() -> None:
        stdout = sys.stdout
        with open(os.devnull, "w", encoding="utf-8") as sys.stdout:  # the CLI's one line of output
            try:
                assert print_cli.main([*paths, "-o", str(out)]) == 0
            finally:
                sys.stdout = stdout

    cli()  # warm-up: fonts, first-call caches
    floor_pdf(sheets)
    ours, floor, ratios = paired(cli, lambda: floor_pdf(sheets), rounds)
    printouts = [layout.sheet_printout(s) for s in sheets]
    _data, pages = render.pdf_bytes(printouts)
    cli_bytes = out.stat().st_size

    window = qt.main_window()
    window.open_demo("douaratil")
    qt.settle()
    target = work / "export.pdf"
    dialogs.ask_pdf_path = lambda *_args: target

    def export() -> None:
        window.printing.act_pdf.trigger()
        qt.settle()
        assert target.exists()

    export()
    one_floor = [sheets[0]]
    exports, export_floor, export_ratios = paired(export, lambda: floor_pdf(one_floor), max(rounds, 3))
    qt.close_window(window)

    sizes = {}
    for system_id in rules.SYSTEMS:
        data, pages_one = render.pdf_bytes([layout.sheet_printout(played(system_id, 0, random.Random(3)))])
        sizes[system_id] = len(data) / pages_one / 1024
    shutil.rmtree(work, ignore_errors=True)

    def per(samples: Samples, attr: str) -> float:
        return median(getattr(samples, attr))

    heaviest = max(sizes, key=lambda s: sizes[s])
    return [
        Figure(
            section="printing",
            name=f"sheet-app print, {count} sheets → one PDF",
            wall=per(ours, "wall"),
            cpu=per(ours, "cpu"),
            base_name="bare QPdfWriter",
            base_wall=per(floor, "wall"),
            base_cpu=per(floor, "cpu"),
            ratio=median(ratios),
            target=("median", "<=", TARGET_S * 1000 * count / 100),
            note=f"{pages} pages, {cli_bytes / 1024:.0f} KB; target scaled to {count} sheets",
        ),
        Figure(
            section="printing",
            name="window: Exporter en PDF…, one sheet",
            wall=per(exports, "wall"),
            cpu=per(exports, "cpu"),
            base_name="bare QPdfWriter",
            base_wall=per(export_floor, "wall"),
            base_cpu=per(export_floor, "cpu"),
            ratio=median(export_ratios),
        ),
        Figure(
            section="printing",
            name="one sheet page, heaviest system",
            unit="KB",
            wall=sizes[heaviest],
            target=("median", "<=", TARGET_KB),
            note=", ".join(f"{s} {kb:.0f} KB" for s, kb in sizes.items()),
        ),
    ]


if __name__ == "__main__":
    from bench.__main__ import main

    sys.exit(main(["--only", "printing", *sys.argv[1:]]))
