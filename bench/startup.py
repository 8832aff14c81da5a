"""Start-up, as separate processes: the app until its window is painted, against the floor.

The floor (``startup_floor.py``) imports pydantic, shows an empty 1280×800 ``QMainWindow`` and exits after
its first paint: Python + Qt + pydantic, nothing of ours. The app (``startup_app.py``) is ``sheet-app
FILE`` on each system's demo sheet, until the sheet has painted (and ``sheet-app`` alone, first run, until
the welcome page has painted). Both exit at once after that paint.

Runs are paired and interleaved: floor and app back to back, in alternating order, system after
system; a ratio is the median of the per-pair ratios. Time is measured from the parent: wall from spawn
to exit, CPU from the child's rusage (user + system, every thread). Bytecode is cached for both sides
(``PYTHONDONTWRITEBYTECODE`` unset, warm-up runs first), as in a user's install.

``python -m bench.startup [--quick]``

``BENCH_STARTUP_AGAINST=/path/to/another/tree``: the same starts, with the same harness, of another copy
of the app (``git worktree add`` or ``git archive main | tar -x``) too, in the same rounds: each round runs
the floor, this tree and the other tree in a rotating order, and the other tree's figures are added
(« … [other] »). This is the A/B of a change on a loaded machine: both sides share the same load.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from bench.common import Figure, Samples, median

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SYSTEMS = ("douaratil", "d20", "segments", "severite")
TARGET_RATIO = 2.0


def _env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPYCACHEPREFIX")}
    env["QT_QPA_PLATFORM"] = "offscreen"
    # The code of this tree, whatever the venv's editable install points at (a copy of the tree measured).
    env["PYTHONPATH"] = str(ROOT)
    env["XDG_CONFIG_HOME"] = str(home / "config")
    env["XDG_DATA_HOME"] = str(home / "data")
    env["XDG_STATE_HOME"] = str(home / "state")
    env["XDG_CACHE_HOME"] = str(home / "cache")
    return env


def spawn(args: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU milliseconds of one process, from spawn to exit."""
    with tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen([sys.executable, *args], env=env, stdout=subprocess.DEVNULL, stderr=err, cwd=ROOT)
        killer = threading.Timer(120, proc.kill)  # a start that hangs (a dialog?) fails the run
        killer.start()
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        finally:
            killer.cancel()
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode != 0:
            err.seek(0)
            raise RuntimeError(f"{args} exited with {proc.returncode}: {err.read().decode(errors='replace')[-2000:]}")
    return wall * 1000, (usage.ru_utime + usage.ru_stime) * 1000


def pairs(app: list[str], floor: list[str], env: dict[str, str], rounds: int, out: tuple[Samples, Samples]) -> None:
    for r in range(rounds):
        order = [(app, out[0]), (floor, out[1])]
        for args, samples in order if r % 2 == 0 else order[::-1]:
            samples.add(*spawn(args, env))


def triples(
    app: list[str], floor: list[str], envs: tuple[dict[str, str], dict[str, str]], turn: int, out: tuple[Samples, ...]
) -> None:
    """One round of this tree, the floor and the other tree (``BENCH_STARTUP_AGAINST``), order rotating."""
    order = [(envs[0], out[0], app), (envs[0], out[1], floor), (envs[1], out[2], app)]
    for env, samples, args in order[turn % 3 :] + order[: turn % 3]:
        samples.add(*spawn(args, env))


def figure(name: str, app: Samples, floor: Samples, target: float | None, note: str = "") -> Figure:
    ratios = [a / f for a, f in zip(app.cpu, floor.cpu, strict=True)]
    wall_ratios = [a / f for a, f in zip(app.wall, floor.wall, strict=True)]
    return Figure(
        section="start-up",
        name=name,
        wall=median(app.wall),
        cpu=median(app.cpu),
        base_name="floor",
        base_wall=median(floor.wall),
        base_cpu=median(floor.cpu),
        ratio=median(ratios),
        target=("ratio", "<=", target) if target else None,
        note=(note + " " if note else "") + f"wall ratio {median(wall_ratios):.2f}× ({len(ratios)} pairs)",
    )


def run(quick: bool = False, rounds: int | None = None) -> list[Figure]:
    rounds = rounds or (1 if quick else 20)
    home = Path(tempfile.mkdtemp(prefix="sheet_app_bench_start_"))
    env = _env(home)
    # The welcome page shows on a first run only: the sheets' runs leave a session to reopen (the list of
    # open documents is kept current, issue 10 item 3), so the welcome runs get user folders of their own.
    welcome_env = _env(Path(tempfile.mkdtemp(prefix="sheet_app_bench_welcome_")))
    floor = [str(HERE / "startup_floor.py"), "sheet"]
    demos = {s: ROOT / "resources" / "examples" / f"{s}.fiche.json" for s in SYSTEMS}
    apps = {s: [str(HERE / "startup_app.py"), "sheet", str(path)] for s, path in demos.items()}
    welcome = [str(HERE / "startup_app.py"), "welcome"]
    # Warm-up: bytecode written for both sides, the page cache filled, the user folders made.
    for args in (floor, *apps.values(), welcome):
        for _ in range(1 if quick else 2):
            spawn(args, welcome_env if args is welcome else env)
    against = os.environ.get("BENCH_STARTUP_AGAINST", "")
    if against:
        return _against(Path(against).resolve(), rounds, quick, floor, apps, welcome)
    results = {s: (Samples(), Samples()) for s in (*SYSTEMS, "welcome")}
    for _ in range(rounds):  # interleaved: one pair of each system per round
        for s in SYSTEMS:
            pairs(apps[s], floor, env, 1, results[s])
        pairs(welcome, floor, welcome_env, 1, results["welcome"])
    figures = [figure(f"start-up → {s} sheet painted", *results[s], TARGET_RATIO) for s in SYSTEMS]
    figures.append(figure("start-up → welcome painted (first run)", *results["welcome"], TARGET_RATIO))

    # What ``import rules`` alone costs, against ``from pydantic import BaseModel`` (both fresh processes).
    imports = (Samples(), Samples())
    code_rules = ["-c", "import rules"]
    code_floor = ["-c", "from pydantic import BaseModel"]
    pairs(code_rules, code_floor, env, 1 if quick else 11, imports)
    loaded = subprocess.run(
        [sys.executable, "-c", "import sys, rules; print(sorted(m for m in ('d20', 'lark') if m in sys.modules))"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    fig = figure("import rules (fresh process)", *imports, None, f"dice library loaded by it: {loaded};")
    fig.base_name = "import pydantic"
    figures.append(fig)
    return figures


def _against(
    other: Path, rounds: int, quick: bool, floor: list[str], apps: dict[str, list[str]], welcome: list[str]
) -> list[Figure]:
    """The start-up figures of this tree and of ``other`` (same harness, same rounds), against one floor."""
    if not (other / "sheet_app" / "app.py").is_file():
        raise SystemExit(f"BENCH_STARTUP_AGAINST: no sheet_app/app.py under {other}")

    def envs(kind: str) -> tuple[dict[str, str], dict[str, str]]:
        mine = _env(Path(tempfile.mkdtemp(prefix=f"sheet_app_bench_{kind}_")))
        theirs = _env(Path(tempfile.mkdtemp(prefix=f"sheet_app_bench_{kind}_other_")))
        theirs["PYTHONPATH"] = str(other)
        return mine, theirs

    sheet_envs, welcome_envs = envs("start"), envs("welcome")  # as in ``run``: the welcome's folders apart
    for args in apps.values():  # warm-up: the other tree's bytecode, its user folders
        spawn(args, sheet_envs[1])
    spawn(welcome, welcome_envs[1])
    spawn(welcome, welcome_envs[0])
    results = {s: (Samples(), Samples(), Samples()) for s in (*SYSTEMS, "welcome")}
    for turn in range(rounds):
        for s in SYSTEMS:
            triples(apps[s], floor, sheet_envs, turn, results[s])
        triples(welcome, floor, welcome_envs, turn, results["welcome"])
    figures = []
    for s in (*SYSTEMS, "welcome"):
        name = f"start-up → {s} sheet painted" if s != "welcome" else "start-up → welcome painted (first run)"
        mine, base, theirs = results[s]
        figures.append(figure(name, mine, base, TARGET_RATIO))
        figures.append(figure(f"{name} [{other.name}]", theirs, base, TARGET_RATIO))
    return figures


if __name__ == "__main__":
    from bench.__main__ import main

    sys.exit(main(["--only", "startup", *sys.argv[1:]]))
