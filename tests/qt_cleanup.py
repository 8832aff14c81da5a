"""Shared by the Qt test folders."""

from __future__ import annotations

import gc


def collect_qt_garbage() -> None:
    """Run Python's collector now, so that a cycle through Qt wrappers freed in a crashing order fails
    the test that made it instead of the interpreter's exit (autouse in tests/ui and tests/app)."""
    gc.collect()
