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

from collections.abc import Callable
from typing import TypeVar

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QHelpEvent, QKeyEvent, QWheelEvent
from PySide6.QtWidgets import QApplication, QWidget

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
    """Every widget of class ``kind`` the application has now (``QApplication.allWidgets()`` filtered),
    found under its top-level widgets with ``findChildren`` (a widget may be listed twice).

    ``allWidgets()`` hands Python every widget Qt made in C++ (a tab's close button, a line edit's
    clear button…) through a ``QWidget *``: PySide then searches every subclass of ``QWidget`` for its
    class and loads every widget class not loaded yet (~45 enum classes, in the pass right after a
    start's first paint: issue 15, session 6). ``findChildren`` takes each object's class from its
    meta-object instead."""
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    found: list[W] = []
    for top in app.topLevelWidgets():
        if isinstance(top, kind):
            found.append(top)
        found.extend(top.findChildren(kind))
    return found
