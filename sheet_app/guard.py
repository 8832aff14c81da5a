"""The outer guard: a bug in any slot (a menu, a button, a timer) is said in French and logged.

Qt calls Python slots from its event loop; an exception escaping one reaches ``sys.excepthook`` (PySide
reports it there) and would otherwise only print a traceback on a terminal the user never sees: the
action silently does nothing. ``install()`` (called once by ``sheet_app.app.run``) replaces the hook:
the exception and its traceback go to the log file (``log_path()``), and a French message tells the
user the action did not complete, that the open sheets are intact, and where the details are. The app
goes on. ``KeyboardInterrupt`` and ``SystemExit`` keep their usual meaning.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Callable
from pathlib import Path
from types import TracebackType

import platformdirs

log = logging.getLogger("sheet_app")

LOG_NAME = "sheet_app.log"


def log_path() -> Path:
    """``<user log folder>/sheet_app.log`` (platformdirs; computed on each call, so tests can move it)."""
    return platformdirs.user_log_path("sheet_app", appauthor=False) / LOG_NAME


class RotatingFile(logging.Handler):
    """``logging.handlers.RotatingFileHandler`` on ``path``, made at the first record this handler gets.

    ``logging.handlers`` imports ``socket``, ``pickle``, ``queue``, ``selectors``… (~25 M instructions,
    1.2 % of a start, issue 15) for a log most starts never write: it is imported, and the file opened,
    when there is something to write. Level, formatter and filters are this handler's, as set on it."""

    def __init__(self, path: Path, max_bytes: int, backup_count: int) -> None:
        super().__init__()
        self.baseFilename = os.path.abspath(path)  # as the file handler names it
        self._limits = (max_bytes, backup_count)
        self._file: logging.Handler | None = None

    def emit(self, record: logging.LogRecord) -> None:
        try:
            if self._file is None:
                from logging.handlers import RotatingFileHandler

                max_bytes, backup_count = self._limits
                self._file = RotatingFileHandler(
                    self.baseFilename, maxBytes=max_bytes, backupCount=backup_count, encoding="utf-8"
                )
            self._file.setFormatter(self.formatter)
            self._file.emit(record)
        except Exception:
            self.handleError(record)

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
        super().close()


def _log_to_file() -> None:
    """Log warnings and errors of the app to ``log_path()`` (1 Mo, the 3 previous kept); best effort."""
    path = log_path()
    if any(getattr(h, "baseFilename", None) == str(path) for h in log.handlers):
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError:
        return  # no log folder: the message still shows, the details go to the terminal
    handler = RotatingFile(path, 1_000_000, 3)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s : %(message)s"))
    handler.setLevel(logging.WARNING)
    log.addHandler(handler)
    if log.level == logging.NOTSET or log.level > logging.WARNING:
        log.setLevel(logging.WARNING)


def message() -> str:
    """What the user reads after a bug (French; no text of the exception, which is often English)."""
    return (
        "Une erreur inattendue s'est produite : l'action n'a pas abouti.\n"
        "Les fiches ouvertes sont intactes (et copiées par la sauvegarde automatique) ; vous pouvez "
        "continuer, et enregistrer.\n\n"
        f"Le détail est noté dans le journal de l'application :\n{log_path()}"
    )


_showing = False


def handle(
    exc_type: type[BaseException],
    exc: BaseException,
    tb: TracebackType | None,
    show: Callable[[str], None] | None = None,
) -> None:
    """The hook: log the exception with its traceback, then tell the user (``show``, by default a
    French error dialog over the active window). A bug while telling is only logged."""
    global _showing
    if issubclass(exc_type, (KeyboardInterrupt, SystemExit)):
        sys.__excepthook__(exc_type, exc, tb)
        return
    log.error("exception non rattrapée dans une action", exc_info=(exc_type, exc, tb))
    if _showing:
        return  # an error while showing the last one: logged, not shown again
    _showing = True
    try:
        (show or _show_dialog)(message())
    except Exception:
        log.exception("le message d'erreur n'a pas pu s'afficher")
    finally:
        _showing = False


def _show_dialog(text: str) -> None:
    from PySide6.QtWidgets import QApplication

    from ui.common import prompts

    if QApplication.instance() is None:
        sys.stderr.write(text + "\n")
        return
    prompts.show_error(QApplication.activeWindow(), QApplication.translate("Guard", "Erreur inattendue"), text)


def install() -> None:
    """Make ``handle`` the hook for every exception that escapes a slot; log to ``log_path()``."""
    _log_to_file()
    sys.excepthook = handle
