"""Rules tests never import Qt: they also run with PySide6 made unimportable (test_no_qt.py).

Every rules test starts with the segments memo empty (below)."""

from __future__ import annotations

import pytest

from rules.systems import _TABLES


@pytest.fixture(autouse=True)
def _fresh_segments_memo() -> None:
    """The shipped segments table's memo (what the rules compute again and again from the table and a few
    fields of a sheet: effective states, reductions, a hit's plan, the states that hide points…) is dropped
    before each test, so each test computes it anew. Mutation testing (scripts/mutation) runs the suite once
    in mutmut's parent process before it forks a child per mutant: a memo filled there answered in the child
    and the mutated function never ran (docs/testing.md, segments session 3). A system not loaded yet stays
    unloaded (``_TABLES`` is only read)."""
    table = _TABLES.get("segments")
    if table is not None:
        table.__dict__.pop("memo", None)
