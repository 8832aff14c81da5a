"""The app's log files are opened with their first record (issue 15, session 6): ``logging.handlers``
(which imports ``socket``, ``pickle``, ``queue``…) is not imported by a start that writes nothing."""

from __future__ import annotations

import logging
from pathlib import Path

from sheet_app.guard import RotatingFile


def test_the_log_file_is_made_with_its_first_record_and_rotates(tmp_path: Path) -> None:
    path = tmp_path / "sheet_app.log"
    handler = RotatingFile(path, 200, 2)
    handler.setFormatter(logging.Formatter("%(levelname)s %(message)s"))
    handler.setLevel(logging.WARNING)
    log = logging.getLogger("tests.log_file")
    log.propagate = False
    log.addHandler(handler)
    try:
        assert handler.baseFilename == str(path)
        log.info("ignorée")
        assert not path.exists()  # nothing written yet: no file
        log.warning("première")
        assert path.read_text(encoding="utf-8") == "WARNING première\n"
        for n in range(20):
            log.error("ligne %d, assez longue pour remplir le fichier", n)
        # Rotated as ``RotatingFileHandler`` does: the current file and two previous ones, each ≤ 200 bytes.
        assert sorted(p.name for p in tmp_path.iterdir()) == ["sheet_app.log", "sheet_app.log.1", "sheet_app.log.2"]
        assert all(p.stat().st_size <= 200 for p in tmp_path.iterdir())
        assert "ligne 19" in path.read_text(encoding="utf-8")
    finally:
        log.removeHandler(handler)
        handler.close()


def test_a_log_that_cannot_be_opened_is_reported_not_raised(tmp_path: Path, capsys: object) -> None:
    handler = RotatingFile(tmp_path / "absent" / "sheet_app.log", 1000, 1)  # no such folder
    record = logging.LogRecord("x", logging.ERROR, __file__, 1, "perdue", None, None)
    handler.handle(record)  # ``handleError``: a note on stderr, no exception
    handler.close()
