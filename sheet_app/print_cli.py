"""``sheet-app print``: sheets, GM tables and blank sheets to one PDF, without a window (issue 12).

    sheet-app print FICHIER… -o fiches.pdf
    sheet-app print --blank douaratil -o vierge.pdf

Each document starts on a new page. Every file is read first: if one is missing or broken, each
problem is told (French, naming the file) and nothing is written. Exit codes: 0 written, 1 a file
could not be read or the PDF could not be written, 2 the command itself is wrong (unknown option,
unknown system, no output).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any, NoReturn

USAGE = (
    "sheet-app print FICHIER… -o SORTIE.pdf\n"
    "              sheet-app print --blank SYSTÈME [--blank SYSTÈME…] [FICHIER…] -o SORTIE.pdf"
)

PAPERS = {"a4": "a4", "letter": "letter", "lettre": "letter", "us": "letter"}


def _help(systems: str) -> str:
    return (
        f"utilisation : {USAGE}\n\n"
        "Imprime des fiches, des tables de meneur et des fiches vierges dans un seul PDF, sans ouvrir\n"
        "de fenêtre ; chaque document commence sur une nouvelle page.\n\n"
        "arguments :\n"
        "  FICHIER                fiches (.fiche.json) et tables de meneur (.table.json)\n"
        "options :\n"
        "  -o, --output SORTIE    le PDF à écrire (obligatoire)\n"
        f"  --blank SYSTÈME        une fiche vierge à remplir au crayon ({systems}) ;\n"
        "                         répétable\n"
        "  --papier a4|letter     format du papier (A4 portrait par défaut)\n"
        "  --meneur               imprime aussi ce que les règles cachent au joueur\n"
        "  --journal              ajoute le journal de chaque fiche\n"
        "  -h, --help             affiche cette aide\n"
    )


class _Parser(argparse.ArgumentParser):
    """argparse in French: usage, help and errors (exit code 2)."""

    systems = ""

    def format_usage(self) -> str:
        return f"utilisation : {USAGE}\n"

    def format_help(self) -> str:
        return _help(self.systems)

    def error(self, message: str) -> NoReturn:
        if "required" in message:
            message = "il manque le PDF à écrire : -o SORTIE.pdf"
        else:
            for english, french in (
                ("unrecognized arguments", "options inconnues"),
                ("expected one argument", "une valeur est attendue"),
                ("argument ", "option "),
            ):
                message = message.replace(english, french)
            message = message.replace(": ", " : ")
        self.exit(2, f"{self.format_usage()}sheet-app print : erreur : {message}\n")


def parse(argv: list[str], systems: str) -> argparse.Namespace:
    parser = _Parser(prog="sheet-app print", add_help=False)
    parser.systems = systems
    parser.add_argument("-h", "--help", action="help")
    parser.add_argument("files", nargs="*")
    parser.add_argument("-o", "--output", required=True)
    parser.add_argument("--blank", action="append", default=[])
    parser.add_argument("--papier", "--paper", dest="paper", default="a4")
    parser.add_argument("--meneur", "--gm", dest="gm", action="store_true")
    parser.add_argument("--journal", action="store_true")
    return parser.parse_args(argv)


def _err(text: str) -> None:
    sys.stderr.write(text.rstrip("\n") + "\n")


def _ensure_gui() -> Any:
    """A QGuiApplication for fonts and painting; off screen when none runs yet (no window ever)."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtGui import QGuiApplication

    app = QGuiApplication.instance()
    if app is None:
        app = QGuiApplication([sys.argv[0] if sys.argv else "sheet-app"])
    return app


def main(argv: list[str]) -> int:
    import rules

    systems = ", ".join(rules.SYSTEMS)
    if any(a in ("-h", "--help") for a in argv):
        sys.stdout.write(_help(systems))
        return 0
    args = parse(argv, systems)
    paper = PAPERS.get(str(args.paper).lower())
    if paper is None:
        _err(f"sheet-app print : format de papier inconnu : « {args.paper} » (a4 ou letter).")
        return 2
    if not args.files and not args.blank:
        _err(f"utilisation : {USAGE}\nsheet-app print : rien à imprimer : donnez des fichiers ou --blank SYSTÈME.")
        return 2
    for system_id in args.blank:
        if system_id not in rules.SYSTEMS:
            _err(f"sheet-app print : système inconnu : « {system_id} » (systèmes disponibles : {systems}).")
            return 2

    from sheet_app import files

    documents = []
    problems = []
    for name in args.files:
        try:
            document, _stamp = files.read_document(Path(name))
        except files.FileProblem as exc:
            problems.append(exc.message)
            continue
        documents.append(document)
    if problems:
        for problem in problems:
            _err(problem)
        _err(f"sheet-app print : {len(problems)} fichier(s) illisible(s) ; aucun PDF n'a été écrit.")
        return 1

    _app = _ensure_gui()
    from sheet_app.printing import PrintProblem, write_pdf
    from ui.printing import layout

    printouts = []
    for document in documents:
        printouts += layout.document_printouts(document, gm_view=args.gm, with_journal=args.journal)
    printouts += layout.blank_printouts(args.blank)
    output = Path(args.output)
    try:
        pages = write_pdf(output, printouts, paper, inputs=[Path(f) for f in args.files])
    except PrintProblem as exc:
        _err(f"sheet-app print : {exc.message}")
        return 1
    count = len(printouts)
    sys.stdout.write(
        f"{output} : {pages} page{'s' if pages > 1 else ''}, "
        f"{count} document{'s' if count > 1 else ''} ({'Letter' if paper == 'letter' else 'A4'}).\n"
    )
    return 0
