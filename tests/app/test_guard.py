"""The outer guard of slots (issue 16, item 6): « Every slot connected to a user action or a timer has an
outer guard: a bug shows a French message and is logged, never an exception escaping into Qt »."""

from __future__ import annotations

import ast
import logging
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QObject, Qt, Signal

import rules
from sheet_app.main_window import MainWindow
from tests.ui.conftest import GUARD_REPORT
from ui.common import guard, prompts
from ui.sheet.viewmodel import SheetViewModel

ROOT = Path(__file__).resolve().parents[2]
# Signals a user action or a timer emits: their slots must be guarded.
USER_SIGNALS = frozenset(
    {
        "clicked",
        "triggered",
        "activated",
        "toggled",
        "editingFinished",
        "returnPressed",
        "accepted",
        "rejected",
        "timeout",
        "currentIndexChanged",
        "itemActivated",
        "selectionChanged",
        "finished",
        "tabCloseRequested",
        "currentChanged",
        "textChanged",
        "textEdited",
        "valueChanged",
        "customContextMenuRequested",
        "doubleClicked",
        "stateChanged",
    }
)


def _signal_names(tree: ast.Module) -> set[str]:
    """Names assigned ``Signal(...)`` in a module's classes (forwarding one signal to another is safe)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            func = node.value.func
            if isinstance(func, ast.Name) and func.id == "Signal":
                names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    return names


def unguarded_connections() -> list[str]:
    found = []
    for folder in ("ui", "sheet_app"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            signals = _signal_names(tree)
            for node in ast.walk(tree):
                if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                    continue
                if node.func.attr != "connect" or not isinstance(node.func.value, ast.Attribute):
                    continue
                if node.func.value.attr not in USER_SIGNALS:
                    continue
                target = node.args[0] if node.args else None
                if isinstance(target, ast.Attribute) and target.attr in signals:
                    continue  # a signal forwarded
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} {ast.unparse(node)}")
    return found


def test_every_user_or_timer_connection_goes_through_the_guard() -> None:
    assert unguarded_connections() == []


def test_the_scan_finds_a_bare_connection(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The scan above can fail: a plain ``clicked.connect(slot)`` is reported."""
    source = "button.clicked.connect(self.go)\nguard.connect(button.clicked, self.go)\n"
    tree = ast.parse(source)
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and getattr(n.func, "attr", "") == "connect"]
    bare = [c for c in calls if isinstance(c.func, ast.Attribute) and isinstance(c.func.value, ast.Attribute)]
    assert len(bare) == 1 and bare[0].func.value.attr in USER_SIGNALS  # type: ignore[union-attr]


class Emitter(QObject):
    fired = Signal(bool)
    bare = Signal()


def test_a_guarded_slot_gets_the_arguments_a_plain_one_would() -> None:
    got: list[Any] = []
    e = Emitter()
    guard.connect(e.fired, lambda: got.append("none"))
    guard.connect(e.fired, lambda on: got.append(on))
    guard.connect(e.fired, lambda _=False, x=3: got.append((_, x)))
    e.fired.emit(True)
    assert got == ["none", True, (True, 3)]


def _signature_shape(fn: Any) -> tuple[int, int, bool]:
    """What ``guard._shape`` answered through ``inspect.signature`` alone (before session 7)."""
    import inspect

    params = list(inspect.signature(fn).parameters.values())
    kinds = inspect.Parameter
    positional = [p for p in params if p.kind in (kinds.POSITIONAL_ONLY, kinds.POSITIONAL_OR_KEYWORD)]
    required = sum(p.default is kinds.empty for p in positional)
    return required, len(positional) - required, any(p.kind is kinds.VAR_POSITIONAL for p in params)


class _Shapes:
    def none(self) -> None: ...
    def one(self, a: Any) -> None: ...
    def opt(self, a: Any = 1, b: Any = 2) -> None: ...
    def mixed(self, a: Any, /, b: Any, c: Any = 3, *rest: Any, d: Any = 4, **kw: Any) -> None: ...
    def star(*args: Any) -> None: ...
    def self_default(self: Any = None, a: Any = 1) -> None: ...


def _deco(fn: Any) -> Any:
    import functools

    @functools.wraps(fn)
    def inner(*args: Any) -> Any:
        return fn(*args)

    return inner


def test_the_quick_slot_shape_is_what_inspect_signature_says() -> None:
    """``guard._shape`` reads a plain function's or method's code object (a start connects ~110 slots:
    ``inspect.signature`` cost ~0.3 ms each, issue 15); it must answer as ``inspect.signature`` did, and
    leave to it what is not plain (a decorated function, a partial, a builtin, a callable object)."""
    import functools

    obj = _Shapes()
    plain = [
        lambda: None,
        lambda a: None,
        lambda a, b=1: None,
        lambda *a: None,
        lambda a, *b, c=1: None,
        lambda a=1, /, b=2: None,
        obj.none,
        obj.one,
        obj.opt,
        obj.mixed,
        obj.self_default,
        _Shapes.mixed,
        _signature_shape,
    ]
    for fn in plain:
        assert guard._code_shape(fn) is not None, fn
        assert guard._code_shape(fn) == _signature_shape(fn) == guard._shape(fn), fn
    others = [obj.star, _deco(lambda a, b: None), functools.partial(lambda a, b: None, 1), print, Emitter().deleteLater]
    for fn in others:
        assert guard._code_shape(fn) is None, fn
    assert guard._shape(_deco(lambda a, b: None)) == (2, 0, False)  # through ``__wrapped__``, as before


def test_a_slot_that_raises_is_logged_and_told_in_french(
    qtbot: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(guard, "report", GUARD_REPORT)
    shown: list[tuple[str, str]] = []
    monkeypatch.setattr(prompts, "show_error", lambda _parent, title, text: shown.append((title, text)))
    e = Emitter()

    def broken() -> None:
        raise ZeroDivisionError("1d6/0")

    guard.connect(e.bare, broken)
    with caplog.at_level(logging.ERROR, logger="sheet_app.guard"):
        e.bare.emit()  # pytest-qt would fail this test if anything escaped into Qt
    assert shown and shown[0][0] == "Erreur interne"
    assert "Erreur interne : cette commande n'a pas abouti" in shown[0][1]
    assert any("ZeroDivisionError" in (r.exc_text or "") for r in caplog.records)


def test_a_bug_behind_a_button_of_the_window_shows_in_the_sheets_message_bar(
    qtbot: Any, make_window: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(guard, "report", GUARD_REPORT)
    win: MainWindow = make_window()
    view = win.open_demo("d20")
    assert view is not None
    before = view.vm.sheet

    def broken(self: SheetViewModel, action: Any, **kwargs: Any) -> Any:
        raise RuntimeError("bug in a rule")

    monkeypatch.setattr(SheetViewModel, "apply", broken)
    qtbot.keyClicks(view.health.quick.amount, "3")
    with caplog.at_level(logging.ERROR, logger="sheet_app.guard"):
        qtbot.mouseClick(view.health.quick.buttons["damage"], Qt.MouseButton.LeftButton)
    assert view.messages.kind() == "error"
    assert "Erreur interne" in view.messages.text()
    assert view.vm.sheet is before
    assert any("bug in a rule" in (r.exc_text or "") for r in caplog.records)


def test_a_bug_in_the_autosave_timer_is_caught(
    qtbot: Any, make_window: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(guard, "report", GUARD_REPORT)
    win: MainWindow = make_window()
    view = win.open_demo("douaratil")
    assert view is not None
    view.vm.apply(rules.Damage(amount=1))

    def broken(*args: Any) -> Any:
        raise OSError("disque parti")

    # A bug in one document's copy: the autosave itself says so (the others still get theirs).
    monkeypatch.setattr(win.autosaver, "save", broken)
    with caplog.at_level(logging.ERROR):
        win.autosaver.timer.timeout.emit()
    assert win.autosave_status.text() == "Sauvegarde automatique impossible"
    assert "erreur interne" in win.autosave_status.toolTip()
    # A bug around them (the list of documents): the guard of the timer's slot says it.
    monkeypatch.setattr(win.autosaver, "_documents", broken)
    with caplog.at_level(logging.ERROR, logger="sheet_app.guard"):
        win.autosaver.timer.timeout.emit()
    assert "Erreur interne" in view.messages.text()
    assert any("disque parti" in (r.exc_text or "") for r in caplog.records)
