"""Start the app: ``sheet-app [FICHIER…]``, ``sheet-app --check FICHIER…``, ``sheet-app print …``.

Without argument the sheets open at the last exit come back (or the welcome screen); with files, they
open in tabs. Either way, what a crash left in the autosave store is offered first. Without a display
(no DISPLAY / WAYLAND_DISPLAY on Linux) Qt runs off screen, and says so.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
from pathlib import Path
from typing import Any

USAGE = "sheet-app [FICHIER…] | sheet-app --check FICHIER… | sheet-app print FICHIER… -o SORTIE.pdf"


class _FrenchParser(argparse.ArgumentParser):
    """argparse speaking French (usage line and errors)."""

    def format_usage(self) -> str:
        return f"utilisation : {USAGE}\n"

    def format_help(self) -> str:
        return (
            self.format_usage()
            + "\nFiche de personnage : santé, dégâts, états, blessures, repos.\n\n"
            + "arguments :\n"
            + "  FICHIER            fiches (.fiche.json) ou tables de meneur (.table.json)\n"
            + "                     à ouvrir dans des onglets\n"
            + "options :\n"
            + "  --check FICHIER…   vérifie des fichiers sans ouvrir de fenêtre\n"
            + "                     (code de sortie 0 si tous sont valides)\n"
            + "  -h, --help         affiche cette aide\n"
            + "commandes :\n"
            + "  print FICHIER… -o SORTIE.pdf\n"
            + "                     imprime fiches et tables de meneur dans un PDF, sans fenêtre\n"
            + "  print --blank SYSTÈME -o SORTIE.pdf\n"
            + "                     une fiche vierge à remplir au crayon\n"
            + "                     (sheet-app print --help : toutes ses options)\n"
        )

    def error(self, message: str) -> Any:
        self.exit(2, f"{self.format_usage()}sheet-app : erreur : {message}\n")


def parse(argv: list[str]) -> argparse.Namespace:
    parser = _FrenchParser(prog="sheet-app", add_help=False)
    parser.add_argument("-h", "--help", action="help")
    parser.add_argument("files", nargs="*")
    return parser.parse_args(argv)


def ensure_platform() -> bool:
    """Fall back to the offscreen platform when there is no screen; True when it did."""
    if (
        not os.environ.get("QT_QPA_PLATFORM")
        and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
        and sys.platform.startswith("linux")
    ):
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
        sys.stderr.write(
            "Pas d'écran détecté : la fiche de personnage démarre hors écran (QT_QPA_PLATFORM=offscreen) ; "
            "aucune fenêtre ne sera visible.\n"
        )
        return True
    return False


def check(paths: list[str]) -> int:
    """``--check``: the files helper's command line when it is there, else a plain check."""
    if importlib.util.find_spec("sheet_app.cli_check") is not None:
        from sheet_app import cli_check

        return int(cli_check.main(paths))
    from sheet_app import files

    if not paths:
        sys.stderr.write(f"utilisation : {USAGE}\n")
        return 2
    bad = 0
    for path, message in files.check_files([Path(p) for p in paths]):
        if message is None:
            sys.stdout.write(f"{path} : valide\n")
        else:
            bad += 1
            sys.stderr.write(message + "\n")
    return 1 if bad else 0


def install_translations(app: Any) -> None:
    """Qt's own French texts (standard dialogs, context menus of text fields)."""
    from PySide6.QtCore import QLibraryInfo, QLocale, QTranslator

    QLocale.setDefault(QLocale(QLocale.Language.French, QLocale.Country.France))
    folder = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    for name in ("qtbase_fr",):
        translator = QTranslator(app)
        if translator.load(name, folder):
            app.installTranslator(translator)


def run(argv: list[str]) -> int:
    if argv[:1] == ["print"]:
        from sheet_app import print_cli

        return print_cli.main(argv[1:])
    if "--check" in argv:
        rest = list(argv)
        rest.remove("--check")
        return check(rest)
    args = parse(argv)
    ensure_platform()
    from PySide6.QtWidgets import QApplication

    from sheet_app import guard
    from sheet_app.autosave import AutosaveStore
    from sheet_app.main_window import MainWindow

    app = QApplication.instance() or QApplication([sys.argv[0]])
    guard.install()  # a bug in any slot: a French message and the log, never a silent failure
    QApplication.setApplicationName("sheet_app")
    QApplication.setApplicationDisplayName("Fiche de personnage")
    install_translations(app)
    store = AutosaveStore()  # one per app; its lock says « this session is alive » until we quit
    try:
        window = MainWindow(store=store)
        start(window, [Path(f) for f in args.files])
        window.show()
        return int(app.exec())
    finally:
        store.close()


def start(window: Any, files: list[Path]) -> None:
    """Offer what a crash left, then open ``files``; without any, the last session's sheets, or the
    welcome screen."""
    recovered = window.recover_autosaves()
    if files:
        window.open_paths(files)
        return
    last = [p for p in window.settings.last_session() if p.exists()]
    if last:
        window.open_paths(last)
    elif not recovered:
        window.show_welcome()
