"""Test-wide setup: no screen needed, user folders in tmp, hypothesis profiles."""

from __future__ import annotations

import os
from typing import Any

# Before anything imports Qt: tests run without a display (see QT-ON-THIS-MACHINE notes in README).
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from hypothesis import HealthCheck, settings

settings.register_profile(
    "default",
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("ci", max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("quick", max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# Mutation runs (scripts/mutation): the same examples every run, so a mutant is killed or not, never by chance.
settings.register_profile(
    "mutation",
    max_examples=30,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("hard", max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


# Left out of mutmut's runs (scripts/mutation sets SHEET_APP_MUTMUT): the odds tests compare every roll of whole
# stories with the real rules (rules.apply thousands of times per example) and the house-table sweep plays a game
# per mutated table; under mutmut's trampolines and test tracing one of them passed 120 s on the shared machine.
# Left out, they only make the scores lower (docs/testing.md: the odds modules' mutants are counted apart).
# Also left out: what a fresh ``import rules`` imports and builds (test_import_structure.py), a fact of the
# shipped tree that mutmut's copy of it does not have (its trampolines, its own copy of the files).
MUTMUT_LEFT_OUT = (
    "tests/rules/test_odds",
    "tests/rules/test_house_tables_run.py",
    "tests/rules/test_import_structure.py",
)


def pytest_collection_modifyitems(items: list[Any]) -> None:
    """Mutation runs: a test that sets its own ``max_examples`` tries the profile's at most (30), so that a
    surviving mutant costs seconds, not minutes; a verdict may only err towards « survived »."""
    if os.environ.get("SHEET_APP_MUTMUT"):
        items[:] = [item for item in items if not item.nodeid.startswith(MUTMUT_LEFT_OUT)]
    if os.environ.get("HYPOTHESIS_PROFILE") != "mutation":
        return
    cap = settings.get_profile("mutation").max_examples
    for item in items:
        test = getattr(item, "obj", None)
        own = getattr(test, "_hypothesis_internal_use_settings", None)  # what @settings gave the test
        if own is not None and own.max_examples > cap:
            test._hypothesis_internal_use_settings = settings(own, max_examples=cap)


def pytest_sessionfinish(session: object, exitstatus: int) -> None:
    """Qt objects go before the QApplication does: widgets a test left open are closed and deleted,
    pending deletions run, then Python's garbage. Otherwise the interpreter's teardown may destroy
    them after the application and crash the process once every test has passed."""
    import gc
    import sys

    if "PySide6.QtWidgets" not in sys.modules:  # the rules tests run without Qt
        return
    from PySide6.QtCore import QEvent
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    if app is None:
        return
    for widget in QApplication.topLevelWidgets():
        widget.close()
        widget.deleteLater()
    app.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    app.processEvents()
    gc.collect()
    app.sendPostedEvents(None, QEvent.Type.DeferredDelete)
