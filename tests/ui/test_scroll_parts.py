"""``scroll_parts.meet``: a scroll area's viewport and scroll bars' containers, found by Qt's names, are the
very widgets ``viewport()`` and ``parentWidget()`` return (issue 15, session 6)."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtWidgets import QScrollArea, QTreeView

from ui.common import scroll_parts


@pytest.mark.parametrize("kind", [QScrollArea, QTreeView])
def test_meet_finds_the_parts_viewport_and_parent_widget_return(qtbot: Any, kind: type) -> None:
    area = kind()
    qtbot.addWidget(area)
    parts = scroll_parts.meet(area)
    assert len(parts) == 3
    viewport, vertical, horizontal = parts
    assert area.viewport() is viewport
    assert area.verticalScrollBar().parentWidget() is vertical
    assert area.horizontalScrollBar().parentWidget() is horizontal
