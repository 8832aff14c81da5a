"""One application event filter for the application-wide rules (issue 15: an edit's events).

Three rules need to see events of every widget: labels are plain text (``plain_text``), tooltips are
shown literally (``plain_text``), a wheel over an unfocused number box scrolls the page (``wheel``),
and a window's shortcuts win over its text fields (``shortcuts``). Each was its own application event
filter: every event of the application (each paint, layout request, timer… ~100 per edit) called
Python three times, and ``event.type()`` built a Python enum each time. Here one filter calls Python
once per event and sorts events by their Python class first (a C-level check), asking the type only of
the few that may matter: a key event (``ShortcutOverride``), a help event (``ToolTip``), a wheel event,
and the events of labels and number boxes (``Polish``).

The rules register their handlers here (``hub()``); the hub knows none of them.
"""

from __future__ import annotations

from collections.abc import Callable, Container
from typing import TypeVar

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QHelpEvent, QKeyEvent, QWheelEvent
from PySide6.QtWidgets import QApplication, QLabel, QLayout, QWidget
from shiboken6 import getAllValidWrappers

W = TypeVar("W", bound=QWidget)

PolishHandler = Callable[[QWidget], None]
EventHandler = Callable[[QObject, QEvent], bool]

_hub: AppEvents | None = None


class AppEvents(QObject):
    """The application's one event filter; handlers are added by the rules that need them."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        # Polish: (widget classes, handler); the classes are checked before the event's type is asked.
        self._polish: list[tuple[tuple[type, ...], PolishHandler]] = []
        self._polished: tuple[type, ...] = ()
        self._tooltip: EventHandler | None = None
        self._wheel: EventHandler | None = None
        self._shortcuts: dict[int, EventHandler] = {}

    # --- registration ---------------------------------------------------------------------------------

    def on_polish(self, classes: tuple[type, ...], handler: PolishHandler) -> None:
        """``handler(widget)`` when a widget of one of ``classes`` is polished (before it first shows)."""
        self._polish.append((classes, handler))
        self._polished = tuple({c for cs, _ in self._polish for c in cs})

    def on_tooltip(self, handler: EventHandler) -> None:
        """``handler(watched, event)`` for every ``ToolTip`` help event; True: the event is handled."""
        self._tooltip = handler

    def on_wheel(self, handler: EventHandler) -> None:
        """``handler(watched, event)`` for every wheel event; True: the event is filtered out."""
        self._wheel = handler

    def on_shortcut_override(self, owner: QObject, handler: EventHandler) -> None:
        """``handler(watched, event)`` for every ``ShortcutOverride``, as long as ``owner`` lives."""
        key = id(owner)
        self._shortcuts[key] = handler
        owner.destroyed.connect(lambda *_args, k=key: self._shortcuts.pop(k, None))

    # --- the filter -----------------------------------------------------------------------------------

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if isinstance(event, QKeyEvent):
            if self._shortcuts and event.type() == QEvent.Type.ShortcutOverride:
                for handler in tuple(self._shortcuts.values()):
                    if handler(watched, event):
                        return True
            return False
        if isinstance(event, QHelpEvent):
            if self._tooltip is not None and event.type() == QEvent.Type.ToolTip:
                return self._tooltip(watched, event)
            return False
        if isinstance(event, QWheelEvent):
            return self._wheel is not None and self._wheel(watched, event)
        if isinstance(watched, self._polished) and event.type() == QEvent.Type.Polish:
            for classes, polish in self._polish:
                if isinstance(watched, classes):
                    polish(watched)  # type: ignore[arg-type]
        return False


def hub(app: QApplication | None = None) -> AppEvents:
    """The application's one filter, installed on the first call."""
    global _hub
    if _hub is None:
        app = app or QApplication.instance()  # type: ignore[assignment]
        assert app is not None
        _hub = AppEvents(app)
        app.installEventFilter(_hub)
    return _hub


def existing(kind: type[W]) -> list[W]:
    """Every widget of class ``kind`` the application has now: the ones Python holds (``wrapped``),
    not a walk of every object of every window (issue 15, session 7).

    ``allWidgets()`` hands Python every widget Qt made in C++ (a tab's close button, a line edit's
    clear button…) through a ``QWidget *``: PySide then searches every subclass of ``QWidget`` for its
    class and loads every widget class not loaded yet (~45 enum classes). ``findChildren`` converts
    every object under each window to Python (a spin box's validator, a tab widget's stacked layout, a
    combo box's list view, a style's animations…): the first walk of a start loads their classes
    (~10 of them, ~20 ms), none of which a label or a box is."""
    return wrapped(kind)


def wrapped(kind: type[W], root: QWidget | None = None, skip: Container[object] = ()) -> list[W]:
    """The widgets of class ``kind`` Python already holds a wrapper for (under ``root``, not ``root``
    itself, when given), and the labels a form layout held by Python made in C++ for its rows
    (``QFormLayout.addRow(text, field)``): every label and box this app's windows have, without a
    walk that hands Python every object of the window (``findChildren``; ``test_startup_paint``
    compares the two on each demo sheet and the welcome page). Widgets in ``skip`` are left out (a walk
    that goes only through the widgets made since the last one: ``MainWindow.plain_labels``)."""
    found: list[W] = []
    forms: list[QLayout] = []
    labels = issubclass(QLabel, kind)
    for obj in getAllValidWrappers():
        if isinstance(obj, kind):
            if obj in skip:
                continue
            if root is None or _under(obj, root):
                found.append(obj)
        elif labels and isinstance(obj, QLayout) and obj.inherits("QFormLayout"):
            forms.append(obj)
    if forms:
        # A form layout Python made: its class is loaded already (no enum made here for nothing).
        from PySide6.QtWidgets import QFormLayout

        known = {id(widget) for widget in found}
        for form in forms:
            assert isinstance(form, QFormLayout)
            for row in range(form.rowCount()):
                item = form.itemAt(row, QFormLayout.ItemRole.LabelRole)
                label = item.widget() if item is not None else None
                if isinstance(label, kind) and id(label) not in known and label not in skip:
                    if root is None or _under(label, root):
                        known.add(id(label))
                        found.append(label)
    return found


def _under(widget: QWidget, root: QWidget) -> bool:
    """Whether ``root`` is a parent of ``widget`` at any level (``findChildren``'s answer: across
    windows too, where ``isAncestorOf`` stops)."""
    if root.isAncestorOf(widget):
        return True
    if widget.window() is root.window():
        return False
    parent = widget.parentWidget()
    while parent is not None:
        if parent is root:
            return True
        parent = parent.parentWidget()
    return False
