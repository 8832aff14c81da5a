"""Start the app: ``sheet-app [FICHIER…]``, ``sheet-app --check FICHIER…``, ``sheet-app print …``.

Without argument the sheets open at the last exit come back (or the welcome screen); with files, they
open in tabs. Either way, what a crash left in the autosave store is offered first. Without a display
(no DISPLAY / WAYLAND_DISPLAY on Linux) Qt runs off screen, and says so.
"""

from __future__ import annotations

import argparse
import gc
import importlib.machinery
import importlib.util
import os
import sys
import types
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


# argparse's own messages (it looks them up through gettext), in French.
ARGPARSE_FR = {
    "unrecognized arguments: %s": "arguments non reconnus : %s",
    "the following arguments are required: %s": "arguments obligatoires manquants : %s",
    "expected one argument": "un argument est attendu",
    "expected at most one argument": "un argument au plus est attendu",
    "expected at least one argument": "au moins un argument est attendu",
    "ambiguous option: %(option)s could match %(matches)s": "option ambiguë : %(option)s peut désigner %(matches)s",
    "argument %(argument_name)s: %(message)s": "argument %(argument_name)s : %(message)s",
    "invalid choice: %(value)r (choose from %(choices)s)": "choix invalide : %(value)r (choisir parmi %(choices)s)",
    "invalid %(type)s value: %(value)r": "valeur invalide (%(type)s) : %(value)r",
    "not allowed with argument %s": "incompatible avec l'argument %s",
    "ignored explicit argument %r": "argument explicite ignoré : %r",
    "show this help message and exit": "affiche cette aide",
    "usage: ": "utilisation : ",
    "options": "options",
    "positional arguments": "arguments",
    "%(prog)s: error: %(message)s\n": "%(prog)s : erreur : %(message)s\n",
}


def _french(message: str) -> str:
    return ARGPARSE_FR.get(message, message)


def _french_n(singular: str, plural: str, count: int) -> str:
    if singular == "expected %s argument":
        return "%s argument attendu" if count == 1 else "%s arguments attendus"
    return _french(singular if count == 1 else plural)


def parse(argv: list[str]) -> argparse.Namespace:
    parser = _FrenchParser(prog="sheet-app", add_help=False)
    parser.add_argument("-h", "--help", action="help")
    parser.add_argument("files", nargs="*")
    # argparse calls its module's ``_`` / ``ngettext`` when it builds a message: French while parsing.
    saved = argparse._, argparse.ngettext  # type: ignore[attr-defined]
    argparse._, argparse.ngettext = _french, _french_n  # type: ignore[attr-defined]
    try:
        return parser.parse_args(argv)
    finally:
        argparse._, argparse.ngettext = saved  # type: ignore[attr-defined]


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


# Strings of Qt's own dialogs that the shipped ``qtbase_fr`` catalogue lacks in this Qt version (its
# entries are for « Look in: », Qt now asks for « &Look in: »): without them the file dialogs said
# « Look in » and « Files of type » (issue 10 item 18). ``tests/app/test_french.py`` lists what the file
# dialogs show and finds no English.
QT_GAPS = {
    ("QFileDialog", "&Look in:"): "&Voir dans :",
    ("QFileDialog", "Files of &type:"): "Fichiers de &type :",
}


def _gaps_translator(app: Any) -> Any:
    from PySide6.QtCore import QTranslator

    class QtGaps(QTranslator):
        def translate(self, context: str, source: str, disambiguation: str | None = None, n: int = -1) -> Any:
            # None (a null string) lets Qt ask the next translator; "" would translate every text to "".
            return QT_GAPS.get((context, source))

        def isEmpty(self) -> bool:
            return False

    return QtGaps(app)


def install_translations(app: Any) -> list[Any]:
    """Qt's own French texts (file dialogs, message box buttons, context menus of text fields), from the
    ``qtbase_fr`` catalogue shipped in PySide6-Essentials' ``Qt/translations``; the translators installed."""
    from PySide6.QtCore import QLibraryInfo, QLocale, QTranslator

    QLocale.setDefault(QLocale(QLocale.Language.French, QLocale.Country.France))
    folder = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    installed = []
    for name in ("qtbase_fr",):
        translator = QTranslator(app)
        if translator.load(name, folder):
            app.installTranslator(translator)
            installed.append(translator)
        else:
            sys.stderr.write(f"Traductions de Qt introuvables ({name} dans {folder}) : boîtes en anglais.\n")
    gaps = _gaps_translator(app)
    app.installTranslator(gaps)  # installed last: asked first, answers only for its few strings
    installed.append(gaps)
    return installed


def configure_logging() -> Path | None:
    """Warnings and bugs go to a small rotating log in the user's data folder (named by the guard's
    French message); None if its folder cannot be made (then stderr only). The file is opened with the
    first record."""
    import logging

    from sheet_app.guard import RotatingFile
    from sheet_app.settings import data_dir
    from ui.common import guard

    path = data_dir() / "sheet_app.log"
    root = logging.getLogger()
    root.setLevel(logging.INFO)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    # The file is opened, and ``logging.handlers`` imported, with the first record (issue 15).
    handler = RotatingFile(path, 1_000_000, 2)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root.addHandler(handler)
    guard.log_path = str(path)
    return path


def install_excepthook() -> None:
    """The last net under the guards: an exception that still reaches Qt is logged and told in French."""
    from ui.common import guard

    def hook(kind: type[BaseException], value: BaseException, tb: Any) -> None:
        if issubclass(kind, KeyboardInterrupt):
            sys.__excepthook__(kind, value, tb)
            return
        try:
            raise value.with_traceback(tb)
        except Exception:
            guard.report("sys.excepthook")

    sys.excepthook = hook


def preload() -> None:
    """Import what a start needs that does not use Qt, before anything imports PySide6.

    Once PySide6 is imported, its ``__feature__`` import hook reads the source of every module an
    ``import`` statement names for the first time after it (``inspect.getsource``, to see whether the
    module mentions PySide6): 275 modules at a start that imported Qt first (~50 ms CPU on the team's
    loaded machine). pydantic, the rules core, the file formats and the autosave store (none of them
    uses Qt) are imported here first: 155 remain, the modules of the window and the names they import.
    ``tests/app/test_startup_imports.py`` checks the order.
    """
    from sheet_app import autosave, files, guard  # noqa: F401  (imported for their side effect: loaded)


PLUGINS_OFF = ("__all__", "1", "true")  # pydantic's own values of PYDANTIC_DISABLE_PLUGINS for « none »


def skip_plugin_loader() -> bool:
    """No pydantic plugin is loaded (``PYDANTIC_DISABLE_PLUGINS`` says so): its plugin loader need not be
    imported. pydantic imports ``pydantic.plugin._loader`` when it builds its first model only to call
    ``get_plugins()``, which answers « none » at once under that setting; but the loader's module imports
    ``importlib.metadata`` (and with it ``email``, ``csv``…: ~25 modules, 15–35 ms CPU of a
    start, issue 15) for the scan it never makes. A stand-in module answering the same « none » is put in
    its place. With another setting (some plugins wanted) or the loader already imported, nothing changes;
    True when the stand-in was put. ``tests/app/test_startup_imports.py`` checks both."""
    name = "pydantic.plugin._loader"
    if os.environ.get("PYDANTIC_DISABLE_PLUGINS") not in PLUGINS_OFF or name in sys.modules:
        return False
    stand_in = types.ModuleType(name, "pydantic's plugin loader when plugins are disabled: no plugin.")

    def get_plugins() -> tuple[()]:
        return ()

    stand_in.get_plugins = get_plugins  # type: ignore[attr-defined]
    sys.modules[name] = stand_in
    return True


def quick_pyside_probe() -> bool:
    """PySide6's import hook, made cheap (issue 15); True when it was.

    Once PySide6 is imported, its ``__feature__`` hook asks of every module imported for the first time
    whether its source mentions « PySide6 » (``_mod_uses_pyside``: for ``from __feature__ import
    snake_case``, which this app never uses), through ``inspect.getsource``: tokenizing and caching each
    file's lines, ~0.25 ms a module, for the ~95 modules of the window imported after PySide6, and
    reading a compiled module (PySide's own ``QtGui``, ``QtWidgets``) as text before finding it has none
    (20–40 ms CPU of a start). The same question is answered here by reading a ``.py`` file's bytes
    (~0.03 ms), and « no » for a compiled module; any other module goes to PySide's own answer (``sys``,
    ``io``: no file, dismissed at once). ``preload`` imports what has no Qt before PySide6: those modules
    never reach the hook. ``tests/app/test_startup_imports.py`` compares both answers for every module.
    Only what PySide's hook asks changes; the feature switching itself (``pyside_feature_dict``) is
    PySide's, untouched."""
    feature = sys.modules.get("__feature__")
    original = getattr(feature, "_mod_uses_pyside", None)
    if feature is None or not callable(original) or getattr(original, "quick", False):
        return False

    compiled = tuple(importlib.machinery.EXTENSION_SUFFIXES)

    def uses_pyside(module: Any) -> bool:
        path = getattr(module, "__file__", None)
        if isinstance(path, str) and path.endswith(".py"):
            try:
                with open(path, "rb") as source:
                    return b"PySide6" in source.read()
            except OSError:  # as ``inspect.getsource``: no source, no PySide
                return False
        if isinstance(path, str) and path.endswith(compiled):
            # A compiled module has no source: PySide's answer is False too, after searching every module
            # for the file's owner and trying to read the binary as text (``QtWidgets.abi3.so``: 40 MB).
            return False
        return bool(original(module))

    uses_pyside.quick = True  # type: ignore[attr-defined]
    feature._mod_uses_pyside = uses_pyside
    return True


def collector_back() -> None:
    """Python's garbage collector on again after the first paint, without going through the start's
    objects: they are moved to the permanent generation (``gc.freeze``) first. A start allocates ~60,000
    tracked objects while the collector is off (``run``), all of them in the youngest generation; turned
    on as they were, the next allocation made it walk them all (~25–35 ms CPU in the loop's pass right
    after the first paint, before the user's first key or click is handled). They are the app's modules,
    classes, models and widgets, alive until it quits: the collector has nothing to free among them (a
    few hundred objects of the start's own garbage stay, ~0.1 MB)."""
    gc.freeze()
    gc.enable()


def run(argv: list[str]) -> int:
    skip_plugin_loader()
    if argv[:1] == ["print"]:
        from sheet_app import print_cli

        return print_cli.main(argv[1:])
    if "--check" in argv:
        rest = list(argv)
        rest.remove("--check")
        return check(rest)
    args = parse(argv)
    ensure_platform()
    # No cyclic garbage collection until the window is painted (issue 15): a start allocates some million
    # objects (pydantic's schemas, Qt's enums, the rule tables, the widgets) and none of them is garbage
    # yet; Python's collector went through them again and again (~10 % of the start). It is back on in
    # the loop's pass after the first paint (``MainWindow.after_first_paint``: ``collector_back``), or
    # when ``run`` ends.
    gc.disable()
    try:
        preload()
        import PySide6.QtCore  # noqa: F401  (its import hook, made cheap before the window's modules come)

        quick_pyside_probe()
        from PySide6.QtWidgets import QApplication

        import rules
        from sheet_app import guard, settings
        from sheet_app.autosave import AutosaveStore
        from sheet_app.main_window import MainWindow

        # The shipped rule tables' parsed data kept between starts (issue 15: no TOML parsed at a start).
        rules.keep_parsed_tables(settings.cache_dir() / "rulesets")

        app = QApplication.instance() or QApplication([sys.argv[0]])
        guard.install()  # a bug in any slot: a French message and the log, never a silent failure
        QApplication.setApplicationName("sheet_app")
        QApplication.setApplicationDisplayName("Fiche de personnage")
        install_translations(app)
        configure_logging()
        install_excepthook()
        store = AutosaveStore()  # one per app; its lock says « this session is alive » until we quit
        try:
            # The application-wide event filters come after the first paint (``_AfterFirstPaint``, issue 15).
            window = MainWindow(store=store, filters_after_paint=True)
            window.after_first_paint.append(collector_back)
            start(window, [Path(f) for f in args.files])
            window.plain_labels()
            window.show()
            return int(app.exec())
        finally:
            store.close()
    finally:
        gc.enable()


def start(window: Any, files: list[Path]) -> None:
    """Offer what a crash left, then open ``files``; without any, the last session's documents. The
    welcome tab stays only when no document opened."""
    window.recover_autosaves()
    if files:
        window.open_paths(files)
    else:
        last = [p for p in window.settings.last_session() if p.exists()]
        if last:
            window.open_paths(last)
    if window.docs:
        window.hide_welcome()
    else:
        window.show_welcome()
