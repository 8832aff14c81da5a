"""A scroll area's own parts (viewport, scroll bars' containers) handed to Python without loading every
Qt widget class (issue 15, session 6).

``area.viewport()`` or ``bar.parentWidget()`` returns a widget Qt made in C++; the first time Python
gets it, PySide looks for its most derived class among every subclass of ``QWidget``, and to do so
makes every widget class not yet loaded, with its enums (~30–70 enum classes, 30–60 M instructions at
a start). Found by its object name with ``findChild`` (PySide then takes the class from the object's
own meta-object, ``QWidget``), the same widget gets its Python wrapper at once; ``viewport()`` and
``parentWidget()`` then return that wrapper. Nothing changes in Qt: only how Python first meets them.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractScrollArea, QWidget

# Qt's names for them (``QAbstractScrollAreaPrivate::init``); a part not found is left to the next call.
PARTS = ("qt_scrollarea_viewport", "qt_scrollarea_vcontainer", "qt_scrollarea_hcontainer")


def meet(area: QAbstractScrollArea) -> list[QWidget]:
    """The parts of ``area`` found (wrapped for Python), in the order of ``PARTS``."""
    found = []
    for name in PARTS:
        part = area.findChild(QWidget, name, Qt.FindChildOption.FindDirectChildrenOnly)
        if part is not None:
            found.append(part)
    return found
