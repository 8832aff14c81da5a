"""Printing: 100 sheets to one PDF, and the weight of one sheet page, against a floor in the same run.

    .venv/bin/python bench/bench_print.py [--sheets 100] [--repeat 3]

Where the user is:
- « sheet-app print »: ``print_cli.main`` on 100 sheet files (25 of each system, each played: hit,
  wounded, a condition) written in a temporary folder: read every file, lay out, paint, write the PDF.
  Target: ≤ 5 s.
- The window: Fichier › Exporter en PDF… of one open sheet (the file dialog answered at once),
  events processed until quiet.
- One sheet page: the PDF of each system's played sheet. Target: ≤ 100 KB.

The floor, measured in the same run, is a bare QPdfWriter drawing the same sheets' words (the
explanations the rules give, one ``drawText`` per line, no layout, no boxes, one page per sheet): what
any PDF with that text costs here. Each figure is the fastest of ``--repeat`` runs; the ratios to the
floor are printed, so the numbers mean the same on a slow or a busy machine.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QPointF
from PySide6.QtGui import QFont, QPainter
from PySide6.QtWidgets import QApplication

import rules
from sheet_app import files, print_cli
from ui.printing import layout, render

TARGET_S = 5.0
TARGET_KB = 100


def played(system_id: str, index: int, rng: random.Random) -> Any:
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


def best_s(fn: Callable[[], object], repeat: int) -> float:
    fn()  # warm-up: fonts, first-call caches
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def floor_pdf(sheets: list[Any]) -> bytes:
    """The same words, drawn as plain lines on a bare QPdfWriter (one page per sheet)."""
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--sheets", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    app = QApplication.instance() or QApplication([sys.argv[0]])

    rng = random.Random(12)
    sheets = [played(rules.SYSTEMS[i % len(rules.SYSTEMS)], i, rng) for i in range(args.sheets)]
    folder = Path(tempfile.mkdtemp(prefix="bench_print."))
    paths = []
    for i, sheet in enumerate(sheets):
        path = folder / f"fiche{i:03}.fiche.json"
        files.write_document(path, files.Document("sheet", [sheet], [[]]))
        paths.append(str(path))
    out = folder / "fiches.pdf"

    def cli() -> None:
        stdout = sys.stdout
        with open(os.devnull, "w", encoding="utf-8") as sys.stdout:  # the CLI's one line of output
            try:
                assert print_cli.main([*paths, "-o", str(out)]) == 0
            finally:
                sys.stdout = stdout

    printouts = [layout.sheet_printout(s) for s in sheets]
    results = {
        "floor: bare QPdfWriter, same words": best_s(lambda: floor_pdf(sheets), args.repeat),
        "layout only (blocks from the rules)": best_s(lambda: [layout.sheet_printout(s) for s in sheets], args.repeat),
        "render only (measure, cut, paint)": best_s(lambda: render.pdf_bytes(printouts), args.repeat),
        "sheet-app print (files → PDF)": best_s(cli, args.repeat),
    }
    _data, pages = render.pdf_bytes(printouts)
    cli_bytes = out.stat().st_size

    # The window: Fichier › Exporter en PDF… of one open sheet.
    from sheet_app.main_window import MainWindow
    from sheet_app.settings import Settings
    from ui.printing import dialogs

    window = MainWindow(Settings(folder / "settings.ini"), random.Random(1))
    window.resize(1280, 800)
    window.show()
    window.open_demo("douaratil")
    target = folder / "export.pdf"
    dialogs.ask_pdf_path = lambda *_args: target  # type: ignore[assignment]

    def export() -> None:
        window.printing.act_pdf.trigger()
        app.processEvents()
        assert target.exists()

    results["window: Exporter en PDF…, one sheet"] = best_s(export, args.repeat)

    sizes = {}
    for system_id in rules.SYSTEMS:
        data, count = render.pdf_bytes([layout.sheet_printout(played(system_id, 0, random.Random(3)))])
        sizes[system_id] = (len(data), count)
    window.close()
    for path in folder.iterdir():
        path.unlink()
    folder.rmdir()

    floor = results["floor: bare QPdfWriter, same words"]
    print(f"sheet_app print bench: {args.sheets} sheets ({', '.join(rules.SYSTEMS)}), fastest of {args.repeat}")
    width = max(len(k) for k in results)
    for name, seconds in results.items():
        print(f"  {name:<{width}}  {seconds * 1000:9.1f} ms  ({seconds / floor:5.1f}× the floor)")
    total = results["sheet-app print (files → PDF)"]
    print(f"  {args.sheets} sheets → one PDF of {pages} pages, {cli_bytes / 1024:.0f} KB")
    print(f"  per page: {total / max(pages, 1) * 1000:.1f} ms, {cli_bytes / max(pages, 1) / 1024:.1f} KB")
    verdict = "ok" if total <= TARGET_S else "SLOWER THAN TARGET"
    print(f"target: {args.sheets} sheets ≤ {TARGET_S:.0f} s → {total:.2f} s, {verdict}")
    print(f"one sheet, alone in its PDF (target ≤ {TARGET_KB} KB a page):")
    for system_id, (size, count) in sizes.items():
        per_page = size / count / 1024
        print(
            f"  {system_id:<10} {count} page(s), {size / 1024:6.1f} KB  {'ok' if per_page <= TARGET_KB else 'TOO BIG'}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
