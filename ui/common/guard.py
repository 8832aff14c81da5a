"""The outer guard of every slot a user action or a timer calls (issue 16, item 6).

A bug in a slot must never escape into Qt (PySide prints it and carries on, the user sees nothing, or
the app dies in a half-done state). Every slot connected to a button, a menu entry, a shortcut, a
key, a list or a timer goes through ``guarded``: the exception is logged with its traceback and the
user gets a French message saying what happened and where the details are.

``guarded`` decorates a method or wraps a lambda; ``connect(signal, slot)`` is the same for a
connection. ``tests/ui/test_guard.py`` checks that every such connection of ``ui/`` and
``sheet_app/`` is guarded, and that a slot that raises shows the message.
"""

from __future__ import annotations

import functools
import inspect
import logging
import types
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

from PySide6.QtCore import QCoreApplication

log = logging.getLogger("sheet_app.guard")

P = ParamSpec("P")
R = TypeVar("R")

# Where the user is told (set by the main window: the current sheet's message bar, else a box).
_reporter: Callable[[str], None] | None = None
# Where the details are written (set by the app when it opens its log file).
log_path: str = ""
_reporting = False


def _tr(text: str) -> str:
    return QCoreApplication.translate("Guard", text)


def set_reporter(reporter: Callable[[str], None] | None) -> None:
    global _reporter
    _reporter = reporter


def bug_message() -> str:
    text = _tr(
        "Erreur interne : cette commande n'a pas abouti. Vos fichiers n'ont pas été touchés ; "
        "vérifiez la fiche (Ctrl+Z annule la dernière action)."
    )
    if log_path:
        text += " " + _tr("Détails techniques dans {0}.").format(log_path)
    return text


def report(where: str) -> None:
    """Log the exception being handled (with ``where``) and tell the user in French."""
    global _reporting
    log.exception("bug in %s", where)
    if _reporting:  # the reporter itself failed: the log has it, nothing more to do safely
        return
    _reporting = True
    try:
        message = bug_message()
        if _reporter is not None:
            _reporter(message)
        else:
            from ui.common import prompts

            prompts.show_error(None, _tr("Erreur interne"), message)
    except Exception:
        log.exception("the bug report itself failed")
    finally:
        _reporting = False


def guarded(fn: Callable[P, R]) -> Callable[P, R | None]:
    """``fn`` with an outer guard: an exception is logged and shown in French, never raised into Qt."""

    def call(args: tuple[Any, ...]) -> R | None:
        try:
            return fn(*args)  # type: ignore[call-arg]
        except Exception:
            report(getattr(fn, "__qualname__", repr(fn)))
            return None

    slot = _mirror(fn, call)
    # Not ``__doc__`` of a Qt method: PySide builds it on first read, loading its help-text machinery
    # and every Qt class not yet loaded (~80 ms at a start; issue 15). A Python function's is kept.
    functools.update_wrapper(slot, fn, assigned=("__module__", "__name__", "__qualname__"))
    if isinstance(fn, (types.FunctionType, types.MethodType)):
        slot.__doc__ = fn.__doc__
    slot.__guarded__ = True  # type: ignore[attr-defined]
    return slot  # type: ignore[return-value]


_MISSING = object()
_MAKERS: dict[tuple[int, int, bool], Any] = {}


def _mirror(fn: Callable[..., Any], call: Callable[[tuple[Any, ...]], Any]) -> Callable[..., Any]:
    """A function taking the same positional arguments as ``fn`` (required, optional, or ``*args``) that
    hands those it got to ``call``.

    PySide looks at a slot's own argument count to choose a signal's overload (``triggered()`` or
    ``triggered(bool)``) and how many arguments to give it; a ``*args`` wrapper would change both.
    """
    required, optional, varargs = _shape(fn)
    key = (required, optional, varargs)
    maker = _MAKERS.get(key)
    if maker is None:
        names = [f"a{i}" for i in range(required + optional)]
        params = names[:required] + [f"{n}=_MISSING" for n in names[required:]]
        if varargs:
            params.append("*rest")
        got = "(" + "".join(f"{n}, " for n in names) + ")"
        rest = " + rest" if varargs else ""
        source = (
            f"def make(call):\n"
            f"    def slot({', '.join(params)}):\n"
            f"        return call(tuple(x for x in {got} if x is not _MISSING){rest})\n"
            f"    return slot\n"
        )
        namespace: dict[str, Any] = {"_MISSING": _MISSING}
        exec(source, namespace)  # a fixed template: only counts vary
        maker = _MAKERS[key] = namespace["make"]
    return maker(call)  # type: ignore[no-any-return]


def _shape(fn: Callable[..., Any]) -> tuple[int, int, bool]:
    """(required positional arguments, optional ones, takes ``*args``) of ``fn``."""
    quick = _code_shape(fn)
    if quick is not None:
        return quick
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):  # a builtin without signature: give it everything
        return 0, 0, True
    kinds = inspect.Parameter
    positional = [p for p in params if p.kind in (kinds.POSITIONAL_ONLY, kinds.POSITIONAL_OR_KEYWORD)]
    required = sum(p.default is kinds.empty for p in positional)
    varargs = any(p.kind is kinds.VAR_POSITIONAL for p in params)
    return required, len(positional) - required, varargs


_VARARGS = inspect.CO_VARARGS


def _code_shape(fn: Callable[..., Any]) -> tuple[int, int, bool] | None:
    """``_shape`` of a plain Python function or of a method bound to one, read from its code object as
    ``inspect.signature`` reads it; None for anything else (``inspect.signature`` answers then). A start
    connects ~110 slots, ~100 of them plain: ``inspect.signature`` cost ~0.3 ms each (issue 15)."""
    bound = isinstance(fn, types.MethodType)
    func = fn.__func__ if bound else fn
    if type(func) is not types.FunctionType or "__wrapped__" in func.__dict__ or "__signature__" in func.__dict__:
        return None  # a decorated function, a partial, a builtin, a callable object: the full answer
    code = func.__code__
    positional = code.co_argcount  # positional-only ones included
    defaults = len(func.__defaults__ or ())
    varargs = bool(code.co_flags & _VARARGS)
    if bound:
        if positional == 0:
            return None  # ``self`` taken by ``*args``: the full answer
        positional -= 1
        # The first parameter is bound; the defaults are the last ones: a default on it leaves one fewer.
        defaults = min(defaults, positional)
    return positional - defaults, defaults, varargs


def connect(signal: Any, slot: Callable[..., Any]) -> None:
    """``signal.connect(slot)`` with ``slot`` guarded (a guarded slot is not wrapped twice)."""
    signal.connect(slot if getattr(slot, "__guarded__", False) else guarded(slot))
