"""App tests share the GUI fixtures: user folders in tmp, no modal dialog may block, prompt answers."""

from __future__ import annotations

from tests.ui.conftest import Recorder, answer, isolated, make_view

__all__ = ["Recorder", "answer", "isolated", "make_view"]
