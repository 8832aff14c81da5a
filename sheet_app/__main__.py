"""Entry point: ``sheet-app`` / ``python -m sheet_app``."""

from __future__ import annotations

import os
import sys


def main(argv: list[str] | None = None) -> int:
    # The app uses no pydantic plugin: pydantic need not scan every installed package's entry points
    # for them at its first model (documented switch; a user's own setting wins).
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    from sheet_app.app import run

    return run(sys.argv[1:] if argv is None else argv)


if __name__ == "__main__":
    raise SystemExit(main())
