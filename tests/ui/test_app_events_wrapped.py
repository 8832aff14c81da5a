"""``app_events.wrapped``: the labels and boxes among the objects Python holds (issue 15, session 7).

``plain_labels`` (before a start's first paint) and the filters' rules for the widgets already there
(``wheel``, ``plain_text``) used ``findChildren``, which hands Python every object under a window: the
first walk of a start loaded the classes of what Qt made in C++ (a combo box's list view, a spin box's
validator, a tab widget's stacked layout: 15 enum classes). ``wrapped`` must find what it found."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QComboBox,
    QDialog,
    QFormLayout,
    QLabel,
    QSpinBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ui.common import app_events


def test_the_labels_under_a_widget_are_the_ones_find_children_finds(qtbot: Any) -> None:
    root = QWidget()
    qtbot.addWidget(root)
    outer = QVBoxLayout(root)
    tabs = QTabWidget()
    page = QWidget()
    inner = QVBoxLayout(page)
    deep = QLabel("<b>profond</b>")
    inner.addWidget(deep)
    tabs.addTab(page, "onglet")
    outer.addWidget(tabs)
    outer.addWidget(QComboBox())
    form_holder = QWidget()
    form = QFormLayout(form_holder)
    form.addRow("&Nom :", QSpinBox())  # a label made by Qt in C++, never handed to Python
    outer.addWidget(form_holder)
    dialog = QDialog(root)  # another window under the root: findChildren reaches it, isAncestorOf does not
    in_dialog = QLabel("dans la boîte", dialog)
    beside = QLabel("ailleurs")  # not under the root
    qtbot.addWidget(beside)
    found = app_events.wrapped(QLabel, root)
    assert deep in found and in_dialog in found and beside not in found and root not in found
    texts = sorted(label.text() for label in found)
    assert texts == sorted(label.text() for label in root.findChildren(QLabel))
    assert "&Nom :" in texts
    assert set(found) == set(root.findChildren(QLabel))
    boxes = app_events.wrapped(QAbstractSpinBox, root)
    assert set(boxes) == set(root.findChildren(QAbstractSpinBox)) and len(boxes) == 1
    assert len(app_events.wrapped(QComboBox, root)) == 1


def test_existing_is_every_widget_of_the_kind(qtbot: Any) -> None:
    one, two = QWidget(), QWidget()
    qtbot.addWidget(one)
    qtbot.addWidget(two)
    a, b = QSpinBox(one), QSpinBox(two)
    found = app_events.existing(QAbstractSpinBox)
    assert a in found and b in found
    assert all(isinstance(box, QAbstractSpinBox) for box in found)
