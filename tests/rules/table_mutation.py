"""Table mutation: does a wrong number in a rule table make a rule test fail?

Mutation tools (mutmut) read Python only; the rules also live in ``resources/rulesets/<system>.toml``.
This check changes each number and each switch of a system's table, one at a time, to another valid
value, and runs that system's rule tests (``tests/rules/test_<system>*.py`` and ``test_core.py``)
against the changed table: at least one must fail. A key no rule test needs to watch (a display-only
number) is listed in ``UNTESTED`` with the reason.

The changed table is built from the parsed data (never by editing the TOML text), validated by the
system's own schema (a change the schema refuses is not "another valid value": the next candidate is
tried), and put in place of the shipped table in a forked child process that runs pytest; the parent
imports pytest and the rules once, so each mutant costs only its tests (``-x``: a
killed mutant stops at its first failing test).

Usage (from the project root)::

    .venv/bin/python -m tests.rules.table_mutation                 # every system, every key
    .venv/bin/python -m tests.rules.table_mutation d20 severite    # some systems
    .venv/bin/python -m tests.rules.table_mutation --sample 8      # a sample (seeded, --seed N)
    .venv/bin/python -m tests.rules.table_mutation --list          # the keys and their mutations, no run

Exit status 1 when a mutant survives that ``UNTESTED`` does not list (or a listed key is gone).
"""

from __future__ import annotations

import argparse
import copy
import enum
import os
import random
import signal
import sys
import time
import tomllib
import types
import typing
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
RULES_TESTS = ROOT / "tests" / "rules"

Path_ = tuple[str | int, ...]

# Keys no rule test has to watch, with the reason. A key is written as ``--list`` prints it.
UNTESTED: dict[str, dict[str, str]] = {
    "douaratil": {},
    "d20": {},
    "segments": {},
    "severite": {},
}


@dataclass(frozen=True)
class Mutant:
    system: str
    path: Path_
    old: Any
    new: Any

    @property
    def key(self) -> str:
        return key_text(self.path)

    def __str__(self) -> str:
        return f"{self.system}: {self.key} {self.old!r} → {self.new!r}"


def key_text(path: Path_) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


# ---------------------------------------------------------------------------------------------- schema


def _unwrap(annotation: Any) -> Any:
    """``Annotated[X, …]`` → ``X``; ``X | None`` → ``X``."""
    while True:
        origin = typing.get_origin(annotation)
        if origin is typing.Annotated:
            annotation = typing.get_args(annotation)[0]
        elif origin in (typing.Union, types.UnionType):
            args = [a for a in typing.get_args(annotation) if a is not type(None)]
            if len(args) != 1:
                return annotation
            annotation = args[0]
        else:
            return annotation


def leaf_annotation(model: Any, path: Path_) -> Any:
    """The declared type of the value at ``path`` in a table of type ``model`` (``None`` if unknown)."""
    annotation: Any = model
    for part in path:
        annotation = _unwrap(annotation)
        fields = getattr(annotation, "model_fields", None)
        if fields is not None and isinstance(part, str):
            field = fields.get(part)
            if field is None:
                field = next((f for f in fields.values() if f.alias == part), None)
            if field is None:
                return None
            annotation = field.annotation
            continue
        origin = typing.get_origin(annotation)
        args = typing.get_args(annotation)
        if origin in (dict, typing.Mapping) or (origin is not None and getattr(origin, "__name__", "") == "Mapping"):
            annotation = args[1]
        elif origin is tuple:
            if len(args) == 2 and args[1] is Ellipsis:
                annotation = args[0]
            elif isinstance(part, int) and part < len(args):
                annotation = args[part]
            else:
                return None
        elif origin in (list, frozenset, set) or (origin is not None and getattr(origin, "__name__", "") == "Sequence"):
            annotation = args[0]
        else:
            return None
    return _unwrap(annotation)


def _choices(annotation: Any) -> list[Any] | None:
    if typing.get_origin(annotation) is typing.Literal:
        return list(typing.get_args(annotation))
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return [m.value for m in annotation]
    return None


def candidates(value: Any, annotation: Any) -> list[Any]:
    """Other values to try, in order: the first the schema accepts is the mutant."""
    choices = _choices(annotation)
    if choices is not None:
        return [c for c in choices if c != value]
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, int):
        return [value + 1, value - 1, 0 if value else 2]
    if isinstance(value, float):
        return [value * 2, value / 2, value + 1]
    return []


def leaves(data: Any, path: Path_ = ()) -> Iterator[tuple[Path_, Any]]:
    if isinstance(data, dict):
        for key, value in data.items():
            yield from leaves(value, (*path, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from leaves(value, (*path, index))
    else:
        yield path, data


def with_value(data: Any, path: Path_, value: Any) -> Any:
    changed = copy.deepcopy(data)
    node = changed
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = value
    return changed


def table_data(system: str) -> dict[str, Any]:
    from rules.ruleset import shipped_text

    text, _ = shipped_text(system)
    return tomllib.loads(text)


def table_model(system: str) -> Any:
    import rules.systems
    from rules import ruleset

    ruleset(system)  # loads the system package
    return rules.systems.REGISTRY[system].ruleset_type


def mutants_of(system: str) -> tuple[list[Mutant], list[tuple[str, Any]]]:
    """Every one-key mutant of ``system``'s table, and the keys that have no other valid value."""
    model = table_model(system)
    data = table_data(system)
    found: list[Mutant] = []
    stuck: list[tuple[str, Any]] = []
    for path, value in leaves(data):
        annotation = leaf_annotation(model, path)
        if isinstance(value, str) and _choices(annotation) is None:
            continue  # labels, effects, dice texts: words, not numbers or switches
        tried = candidates(value, annotation)
        if not tried:
            continue
        for new in tried:
            try:
                model.model_validate(with_value(data, path, new))
            except ValueError:
                continue
            found.append(Mutant(system, path, value, new))
            break
        else:
            stuck.append((key_text(path), value))
    return found, stuck


def build(mutant: Mutant) -> Any:
    data = table_data(mutant.system)
    return table_model(mutant.system).model_validate(with_value(data, mutant.path, mutant.new))


# ------------------------------------------------------------------------------------------------- run


def test_files(system: str) -> list[str]:
    files = sorted(str(p) for p in RULES_TESTS.glob(f"test_{system}*.py"))
    return [*files, str(RULES_TESTS / "test_core.py")]


KILLED, SURVIVED, ERROR, TIMEOUT = "tuée", "SURVIT", "erreur", "délai dépassé"


def _child(mutant: Mutant, files: list[str], verbose: bool) -> int:
    import pytest

    import rules.systems

    rules.systems._TABLES[mutant.system] = build(mutant)
    if not verbose:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
    args = ["-x", "-q", "-p", "no:cacheprovider", "--no-header", "-o", "addopts=", *files]
    return int(pytest.main(args))


def run_one(mutant: Mutant, timeout: float, verbose: bool = False, files: list[str] | None = None) -> tuple[str, float]:
    """Run the rule tests of ``mutant.system`` (or ``files``) against the changed table, in a child."""
    files = files or test_files(mutant.system)
    start = time.monotonic()
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # child
        code = 3
        try:
            code = _child(mutant, files, verbose)
        finally:
            os._exit(code)
    deadline = start + timeout
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return TIMEOUT, time.monotonic() - start
        time.sleep(0.05)
    code = os.waitstatus_to_exitcode(status)
    outcome = {0: SURVIVED, 1: KILLED}.get(code, ERROR)
    return outcome, time.monotonic() - start


def warm_up(systems: Sequence[str]) -> None:
    """Import pytest, hypothesis and the rules once, before forking. Not the test modules: one that
    reads the table when imported must read the changed one."""
    import hypothesis  # noqa: F401
    import pytest  # noqa: F401

    for system in systems:
        table_model(system)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="table_mutation", description=__doc__.split("\n\n")[0])
    parser.add_argument("systems", nargs="*", help="systèmes (défaut : tous)")
    parser.add_argument("--sample", type=int, default=0, help="seulement N mutants tirés au hasard")
    parser.add_argument("--seed", type=int, default=19)
    parser.add_argument("--list", action="store_true", help="lister les mutants sans lancer les tests")
    parser.add_argument("--timeout", type=float, default=600.0, help="secondes au plus par mutant")
    parser.add_argument("--verbose", action="store_true", help="montrer la sortie de pytest")
    parser.add_argument("--keys", nargs="*", default=(), help="seulement ces clés (comme --list les écrit)")
    args = parser.parse_args(argv)

    os.environ.setdefault("HYPOTHESIS_PROFILE", "mutation")
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    import rules

    systems = args.systems or list(rules.SYSTEMS)
    unknown = [s for s in systems if s not in rules.SYSTEMS]
    if unknown:
        parser.error(f"système inconnu : {', '.join(unknown)}")

    every: list[Mutant] = []
    problems = 0
    for system in systems:
        found, stuck = mutants_of(system)
        every += found
        for key, value in stuck:
            print(f"{system}: {key} = {value!r} : aucune autre valeur valide (non muté)")
        keys = {m.key for m in found}
        for key in UNTESTED.get(system, {}):
            if key not in keys:
                print(f"{system}: {key} est dans UNTESTED mais n'est plus une clé mutée de la table")
                problems += 1
    if args.keys:
        every = [m for m in every if m.key in args.keys or f"{m.system}:{m.key}" in args.keys]
    if args.sample:
        every = random.Random(args.seed).sample(every, min(args.sample, len(every)))
    if args.list:
        for mutant in every:
            note = UNTESTED.get(mutant.system, {}).get(mutant.key)
            print(f"{mutant}" + (f"   (non testée : {note})" if note else ""))
        print(f"{len(every)} mutants")
        return 1 if problems else 0

    warm_up(sorted({m.system for m in every}))
    if every:  # canary: an unchanged table passes, so a failure means the change was seen
        first = every[0]
        same = Mutant(first.system, first.path, first.old, first.old)
        outcome, _ = run_one(same, args.timeout, args.verbose, [str(RULES_TESTS / "test_core.py")])
        if outcome != SURVIVED:
            print(f"canari : la table d'origine échoue aux tests ({outcome}) : rien à conclure")
            return 2
        print("canari : la table d'origine passe test_core.py")
    counts: dict[str, dict[str, int]] = {}
    survivors: list[Mutant] = []
    start = time.monotonic()
    for mutant in every:
        outcome, seconds = run_one(mutant, args.timeout, args.verbose)
        note = UNTESTED.get(mutant.system, {}).get(mutant.key)
        by = counts.setdefault(mutant.system, {})
        label = outcome if not note else f"{outcome} (non testée : {note})"
        by[outcome] = by.get(outcome, 0) + 1
        print(f"{label:>10}  {seconds:6.1f} s  {mutant}", flush=True)
        if outcome in (SURVIVED, ERROR, TIMEOUT) and not note:
            survivors.append(mutant)
    print()
    for system, by in counts.items():
        total = sum(by.values())
        listed = sum(1 for m in every if m.system == system and m.key in UNTESTED.get(system, {}))
        print(
            f"{system}: {by.get(KILLED, 0)}/{total} tués, {by.get(SURVIVED, 0)} survivants"
            f" ({listed} clés listées non testées), {by.get(ERROR, 0) + by.get(TIMEOUT, 0)} erreurs"
        )
    print(f"{len(every)} mutants en {time.monotonic() - start:.0f} s")
    if survivors:
        print("\nSurvivants non listés :")
        for mutant in survivors:
            print(f"  {mutant}")
    return 1 if survivors or problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
