"""The file side's records behave as the dataclasses they were (issue 15, session 8: a dataclass makes its methods
from source text when its class is made, ~2.3–5 M instructions each at every start). Each class is held here to
its dataclass declaration as it stood on ``main`` at 165cd15, copied below: the same ``__init__`` (names, order,
defaults, a new list for each ``default_factory``), ``repr``, equality, hashing, ``match``, frozen or not, weak
references; and a sheet's start makes none of them a dataclass again."""

from __future__ import annotations

import copy
import dataclasses
import inspect
import os
import pickle
import subprocess
import sys
import weakref
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from sheet_app import autosave, controller, files

ROOT = Path(__file__).resolve().parents[2]
Location = tuple[str | int, ...]


# The dataclasses as they were (their methods left out: only what the decorator made is compared).
@dataclass(frozen=True)
class FileStamp:
    mtime_ns: int
    size: int
    sha256: str = field(default="", compare=False)


@dataclass
class TableTracker:
    rows: list[tuple[int | None, str]] = field(default_factory=list)
    round: int = 0
    turn: int | None = None
    started: list[int] = field(default_factory=list)
    journal: list[str] = field(default_factory=list)


@dataclass
class Document:
    kind: str
    sheets: list[Any]
    journals: list[list[str]] = field(default_factory=list)
    title: str = ""
    migrated_from: int | None = None
    tracker: files.TableTracker | None = None
    house: list[Any] = field(default_factory=list)


@dataclass(frozen=True)
class _Issue:
    text: str
    line: int | None = None
    loc: Location | None = None
    later: bool = False


@dataclass(frozen=True)
class AutosaveEntry:
    key: str
    path: Path
    source: Path | None
    saved_at_ns: int
    title: str
    session: str
    pid: int
    source_sha256: str = ""
    last_seen_ns: int = 0


@dataclass(eq=False)
class OpenSheet:
    vm: Any
    path: Path | None = None
    stamp: files.FileStamp | None = None
    differs_from_file: bool = False
    autosave_key: str | None = None
    autosaved: tuple[Any, tuple[str, ...]] | None = None
    demo: bool = False
    recovered_from: Any = None
    confirm_path: bool = False


@dataclass(eq=False)
class OpenTable:
    vm: Any
    path: Path | None = None
    stamp: files.FileStamp | None = None
    differs_from_file: bool = False
    autosave_key: str | None = None
    autosaved: Any = None
    recovered_from: Any = None
    confirm_path: bool = False


PAIRS = [
    (files.FileStamp, FileStamp),
    (files.TableTracker, TableTracker),
    (files.Document, Document),
    (files._Issue, _Issue),
    (autosave.AutosaveEntry, AutosaveEntry),
    (controller.OpenSheet, OpenSheet),
    (controller.OpenTable, OpenTable),
]
FROZEN = {files.FileStamp, files._Issue, autosave.AutosaveEntry}


def _shown(cls: type) -> list[tuple[str, Any, str]]:
    """``cls``'s ``__init__`` parameters: name, kind and default as shown (a factory shows ``<factory>``)."""
    params = list(inspect.signature(cls).parameters.values())
    return [(p.name, p.kind, repr(p.default)) for p in params]


@pytest.mark.parametrize(("new", "old"), PAIRS, ids=[new.__name__ for new, _ in PAIRS])
def test_same_init_match_and_fields(new: type, old: type) -> None:
    assert _shown(new) == _shown(old)
    assert new.__match_args__ == old.__match_args__  # type: ignore[attr-defined]
    assert not dataclasses.is_dataclass(new)  # made without the decorator: that is the point


def _samples(new: type, old: type) -> list[tuple[Any, Any]]:
    """The same arguments given to both classes, as pairs of objects."""
    path, other = Path("/tmp/a.fiche.json"), Path("/tmp/b.fiche.json")
    argsets: dict[type, list[tuple[tuple[Any, ...], dict[str, Any]]]] = {
        files.FileStamp: [((1, 2), {}), ((1, 2, "ab"), {}), ((1, 3, "ab"), {}), ((2, 2, ""), {})],
        files.TableTracker: [((), {}), (([(3, "n")], 2), {}), ((), {"turn": 1, "journal": ["x"]}), ((), {"turn": 1})],
        files.Document: [
            (("sheet", ["s"]), {}),
            (("sheet", ["s"], [["j"]]), {}),
            (("table", ["s", "t"]), {"title": "T", "house": ["h"], "migrated_from": 0}),
            (("table", ["s", "t"]), {"tracker": files.TableTracker(round=2)}),
        ],
        files._Issue: [(("a",), {}), (("a", 3), {}), (("a",), {"loc": ("sheet", 1), "later": True}), (("b", 3), {})],
        autosave.AutosaveEntry: [
            (("k", path, None, 5, "T", "s", 1), {}),
            (("k", path, other, 5, "T", "s", 1, "ff", 9), {}),
            (("k", path, other, 5, "T", "s", 1), {"last_seen_ns": 9}),
        ],
        controller.OpenSheet: [(("vm",), {}), (("vm", path), {"demo": True, "confirm_path": True})],
        controller.OpenTable: [(("vm",), {}), (("vm", path, None, True, "key"), {})],
    }
    return [(new(*args, **kwargs), old(*args, **kwargs)) for args, kwargs in argsets[new]]


@pytest.mark.parametrize(("new", "old"), PAIRS, ids=[new.__name__ for new, _ in PAIRS])
def test_same_repr_equality_and_hash(new: type, old: type) -> None:
    pairs = _samples(new, old)
    for a_new, a_old in pairs:
        assert repr(a_new) == repr(a_old)
        for b_new, b_old in pairs:
            assert (a_new == b_new) == (a_old == b_old), (a_new, b_new)
            assert (a_new != b_new) == (a_old != b_old), (a_new, b_new)
        assert (_again(a_new) == a_new) == (_again(a_old) == a_old)
        assert a_new.__eq__(object()) is NotImplemented and a_old.__eq__(object()) is NotImplemented
        if new in FROZEN:
            assert hash(a_new) == hash(a_old)
        elif old.__hash__ is None:
            with pytest.raises(TypeError):
                hash(a_new)
        else:  # identity, as ``eq=False``
            assert hash(a_new) == object.__hash__(a_new)


def _again(obj: Any) -> Any:
    """Another object of ``obj``'s class with the same fields."""
    return type(obj)(*[getattr(obj, name) for name in obj.__match_args__])


@pytest.mark.parametrize(("new", "old"), PAIRS, ids=[new.__name__ for new, _ in PAIRS])
def test_frozen_or_not_and_fresh_lists(new: type, old: type) -> None:
    a_new, a_old = _samples(new, old)[0]
    name = new.__match_args__[-1]  # type: ignore[attr-defined]
    if new in FROZEN:
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(a_new, name, 1)
        with pytest.raises(dataclasses.FrozenInstanceError):
            delattr(a_new, name)
        assert pickle.loads(pickle.dumps(a_new)) == a_new and copy.copy(a_new) == a_new
    else:
        setattr(a_new, name, 7)
        setattr(a_old, name, 7)
        assert repr(a_new) == repr(a_old)
        a_new.extra = 1  # an attribute of its own, as a dataclass without slots takes
        weakref.ref(a_new)  # the idle checks keep documents by weak reference
    for field_ in dataclasses.fields(old):
        if field_.default_factory is not dataclasses.MISSING:
            one, two = _samples(new, old)[0][0], _samples(new, old)[0][0]
            assert getattr(one, field_.name) == [] and getattr(one, field_.name) is not getattr(two, field_.name)


def test_the_stamp_compares_without_its_digest() -> None:
    """``sha256`` lets ``changed_since`` tell a touched file from a rewritten one; two stamps are equal when
    modification time and size are, and hash alike then."""
    assert files.FileStamp(1, 2, "a") == files.FileStamp(1, 2, "b")
    assert hash(files.FileStamp(1, 2, "a")) == hash(files.FileStamp(1, 2)) == hash((1, 2))
    assert files.FileStamp(1, 2) != files.FileStamp(1, 3) and files.FileStamp(1, 2) != files.FileStamp(2, 2)
    assert files.FileStamp(1, 2, "a").replace(size=3) == files.FileStamp(1, 3)


def test_a_document_compares_and_shows_itself_in_itself() -> None:
    """A document held in its own sheets (never made by the app) shows « ... » there, as a dataclass does."""
    doc = files.Document("sheet", [])
    doc.sheets.append(doc)
    old = Document("sheet", [])
    old.sheets.append(old)
    shown = "Document(kind='sheet', sheets=[...], journals=[], title='', migrated_from=None, tracker=None, house=[])"
    assert repr(doc) == repr(old) == shown


def test_a_sheet_start_makes_no_dataclass_of_the_file_side(tmp_path: Path) -> None:
    """Importing the file side and the controller, then reading each demo sheet, makes no dataclass of
    ``sheet_app`` (``main_window``'s own aside) and does not import the autosave file's model."""
    code = r"""
import dataclasses, sys
made = []
_process_class = dataclasses._process_class
def _logged(cls, *args, **kwargs):
    if cls.__module__.startswith("sheet_app."):
        made.append(cls.__module__ + "." + cls.__qualname__)
    return _process_class(cls, *args, **kwargs)
dataclasses._process_class = _logged
from sheet_app import app
app.preload()
from sheet_app import autosave, controller, files
store = autosave.AutosaveStore(sys.argv[1])
assert store.recoverable() == [] and store.clean() == 0
for system_id in ("douaratil", "d20", "segments", "severite"):
    files.read_document(f"resources/examples/{system_id}.fiche.json")
assert made == [], made
assert "sheet_app.envelopes" not in sys.modules, "an envelope or the autosave file's model declared"
"""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path / "autosave")],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr[-2000:]
