"""Where the app keeps its things, and the little it remembers between runs.

User folders come from platformdirs (on Linux they follow ``XDG_CONFIG_HOME`` / ``XDG_DATA_HOME``, which
is how the tests point them at a temporary folder). QSettings keeps only the window geometry and the
recent files (the last session's open sheets among them); everything else lives in the sheets.
The few other settings are typed attributes of ``Settings``, declared once here (tests override them).
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs
from PySide6.QtCore import QByteArray, QSettings

APP_NAME = "sheet_app"
MAX_RECENT = 10
# Issue 7: « Autosave every minute ».
AUTOSAVE_INTERVAL_MS = 60_000


def config_dir() -> Path:
    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False))


def data_dir() -> Path:
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def cache_dir() -> Path:
    """What the app keeps only to start faster, rebuilt when missing (the shipped rule tables' parsed
    data: ``rules.keep_parsed_tables``)."""
    return Path(platformdirs.user_cache_dir(APP_NAME, appauthor=False))


def documents_dir() -> Path:
    return Path(platformdirs.user_documents_dir())


def start_folder(settings: Settings | None = None) -> Path:
    """Where Open and Save dialogs start (issue 10 item 20): the folder of the last file used, else the
    user's documents folder, else their home; never the folder the app was launched from."""
    if settings is not None:
        for path in settings.recent_files():
            if path.parent.is_dir():
                return path.parent
    documents = documents_dir()
    return documents if documents.is_dir() else Path.home()


def examples_dir() -> Path:
    """The demo sheets shipped with the app (``resources/examples``)."""
    import resources

    return Path(resources.__file__).resolve().parent / "examples"


# A path whose name is not valid UTF-8 (an old Latin-1 file name) cannot go through Qt's text as it
# is: it is stored as the hexadecimal of its bytes after this mark (paths stored are absolute).
_BYTES_MARK = "octets:"


def _stored(path: Path) -> str:
    text = str(path)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return _BYTES_MARK + os.fsencode(path).hex()
    return text


def _unstored(text: str) -> Path:
    if text.startswith(_BYTES_MARK):
        try:
            return Path(os.fsdecode(bytes.fromhex(text.removeprefix(_BYTES_MARK))))
        except ValueError:
            pass
    return Path(text)


def _resolved(path: Path) -> Path:
    """``path`` with its links followed; as written when that fails (a link loop, an odd name)."""
    try:
        return Path(path).resolve()
    except (OSError, RuntimeError, ValueError):
        return Path(os.path.abspath(path))


def _paths(value: object) -> list[Path]:
    if value is None or value == "":
        return []
    items = value if isinstance(value, list) else [value]
    return [_unstored(str(v)) for v in items if str(v)]


class Settings:
    """Geometry and recent files, in an INI file of the user's configuration folder.

    ``autosave_interval_ms``: how often the open documents with unsaved changes are copied to the
    autosave folder (not stored: one minute, or what a test asks for).
    """

    def __init__(self, path: Path | None = None, *, autosave_interval_ms: int = AUTOSAVE_INTERVAL_MS) -> None:
        if autosave_interval_ms <= 0:
            raise ValueError(f"autosave interval must be positive, not {autosave_interval_ms}")
        self.autosave_interval_ms = autosave_interval_ms
        self.path = path if path is not None else config_dir() / "sheet_app.ini"
        self._q = QSettings(str(self.path), QSettings.Format.IniFormat)

    def geometry(self) -> QByteArray | None:
        value = self._q.value("window/geometry")
        return value if isinstance(value, QByteArray) and not value.isEmpty() else None

    def set_geometry(self, geometry: QByteArray) -> None:
        self._q.setValue("window/geometry", geometry)

    def recent_files(self) -> list[Path]:
        return _paths(self._q.value("recent/files"))

    def add_recent(self, path: Path) -> None:
        path = _resolved(path)
        files = [path, *(p for p in self.recent_files() if p != path)]
        self._q.setValue("recent/files", [_stored(p) for p in files[:MAX_RECENT]])

    def remove_recent(self, path: Path) -> None:
        path = _resolved(path)
        self._q.setValue("recent/files", [_stored(p) for p in self.recent_files() if p != path])

    def last_session(self) -> list[Path]:
        """The sheets that were open when the app last closed (reopened by ``sheet-app`` alone)."""
        return _paths(self._q.value("recent/open"))

    def set_last_session(self, paths: list[Path]) -> None:
        self._q.setValue("recent/open", [_stored(_resolved(p)) for p in paths])

    def sync(self) -> None:
        self._q.sync()

    def house_rules_folder(self) -> Path | None:
        """The folder of the last house-rule file exported or loaded (issue 18), if any."""
        found = _paths(self._q.value("houserules/folder"))
        return found[0] if found else None

    def set_house_rules_folder(self, folder: Path) -> None:
        self._q.setValue("houserules/folder", str(Path(folder).resolve()))
