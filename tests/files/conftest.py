"""Shared helpers of the file-layer tests (pure Python: these tests never import Qt)."""

from __future__ import annotations

import os

from hypothesis import settings

# ``SHEET_APP_BIG=1`` multiplies the examples of the big property runs (round trip, fuzz) by ten: the
# thorough run before a release. The default profiles keep the shared suite within its time budget.
BIG = os.environ.get("SHEET_APP_BIG", "") not in ("", "0")


def examples(default_share: float = 1.0) -> int:
    """Examples for a big property run: a share of the active profile's, ×10 under SHEET_APP_BIG."""
    base = max(10, int(settings.default.max_examples * default_share))
    return base * 10 if BIG else base
