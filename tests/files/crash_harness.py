"""Crash harness: a process saving in a loop is killed with SIGKILL at random moments.

Run by ``test_crash.py`` as ``python -m tests.files.crash_harness FOLDER MODE KILLS SEED``. It loads
the app's code once, then for each kill forks a child that saves one of several versions of a GM
table in a loop (``write_document``, or with MODE ``naive`` a plain ``open(…, "w")`` write, to prove
the harness catches broken files), sleeps a random time, kills the child with SIGKILL and opens the
file. It prints a JSON report: kills, files found valid (with their version), broken ones, and how
many kills landed in the middle of a save (a temp file was left behind).

Forking keeps 200 kills within seconds; the child is single-threaded (nothing but this harness runs
in this process), so forking it is safe.
"""

from __future__ import annotations

import json
import os
import random
import signal
import sys
import time
from pathlib import Path

import rules
from sheet_app import files


def versions(count: int) -> list[files.Document]:
    base = [rules.evolve(rules.demo_sheet(s), is_npc=True) for s in rules.SYSTEMS]
    docs = []
    for v in range(count):
        sheets = [rules.evolve(base[i % len(base)], name=f"v{v} PNJ {i}") for i in range(80)]
        docs.append(files.Document("table", sheets, [[f"version {v}"] * 3 for _ in sheets], f"version {v}"))
    return docs


def naive_save(path: Path, data: bytes) -> None:
    with open(path, "wb") as handle:  # truncates first: the classic way to lose a file
        for start in range(0, len(data), 16384):
            handle.write(data[start : start + 16384])
            handle.flush()


def child(path: Path, docs: list[files.Document], encoded: list[bytes], mode: str, start: int, done: int) -> None:
    """Save versions in a loop; one byte on the ``done`` pipe after each completed save."""
    i = start
    while True:
        if mode == "naive":
            naive_save(path, encoded[i % len(docs)])
        else:
            files.write_document(path, docs[i % len(docs)])
        os.write(done, b".")
        i += 1


def main(argv: list[str]) -> int:
    folder, mode, kills, seed = Path(argv[0]), argv[1], int(argv[2]), int(argv[3])
    rng = random.Random(seed)
    docs = versions(4)
    expected = {doc.title: doc for doc in docs}
    encoded = [files.encode_document(doc) for doc in docs]
    path = folder / f"table{files.TABLE_SUFFIX}"
    files.write_document(path, docs[0])
    # How long one save takes here, to spread the kills over a few saves.
    timings = []
    for doc in docs:
        start = time.perf_counter()
        files.write_document(path, doc)
        timings.append(time.perf_counter() - start)
    files.write_document(path, docs[0])
    save_time = max(timings)  # a busy machine slows the child too: rather too long a range than too short
    report: dict[str, object] = {"kills": 0, "valid": {}, "broken": [], "mid_save": 0, "save_ms": save_time * 1000}
    valid: dict[str, int] = {}
    broken: list[str] = []
    for n in range(kills):
        read_end, write_end = os.pipe()
        pid = os.fork()
        if pid == 0:  # the saving process
            try:
                os.close(read_end)
                child(path, docs, encoded, mode, n, write_end)
            finally:
                os._exit(0)
        os.close(write_end)
        # Kill at a random moment: after 0, 1 or 2 completed saves, somewhere within the next one.
        for _ in range(rng.randint(0, 2)):
            os.read(read_end, 1)
        time.sleep(rng.uniform(0, 1.5 * save_time))
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(read_end)
        report["kills"] = int(report["kills"]) + 1  # type: ignore[call-overload]
        leftovers = [p for p in folder.iterdir() if p.name.endswith(".tmp")]
        if leftovers:
            report["mid_save"] = int(report["mid_save"]) + 1  # type: ignore[call-overload]
            for p in leftovers:
                p.unlink()
        try:
            doc, _ = files.read_document(path)
        except files.FileProblem as exc:
            broken.append(exc.message.splitlines()[0][:200])
            files.write_document(path, docs[0])  # start the next round from a good file
            continue
        if doc.title not in expected or doc.sheets != expected[doc.title].sheets:
            broken.append(f"unexpected content: {doc.title!r}")
            continue
        valid[doc.title] = valid.get(doc.title, 0) + 1
    report["valid"] = valid
    report["broken"] = broken
    sys.stdout.write(json.dumps(report) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
