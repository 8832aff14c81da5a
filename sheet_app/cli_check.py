"""``sheet-app --check FICHIER…``: validate sheet and table files from the command line (no Qt).

Prints one line per valid file and the same French messages as the app for the others; the exit
status is 0 when every file opens, 1 when any does not, 2 when the command is misused.
``--schema`` prints the JSON Schema of the file format instead (as in docs/file-format.md).
"""

from __future__ import annotations

import json
import sys
from typing import TextIO

import rules
from sheet_app.files import FileProblem, describe, json_schema, read_document

USAGE = (
    "usage : sheet-app --check FICHIER…\n"
    "  Vérifie des fiches (.fiche.json), des tables (.table.json) et des règles maison (.toml)\n"
    "  sans les ouvrir ;\n"
    "  code de sortie 0 si tous sont valides, 1 sinon.\n"
    "  --schema : affiche le schéma JSON du format de fichier.\n"
    "  -q, --quiet : n'affiche que les problèmes.\n"
)


def _write(stream: TextIO, text: str) -> None:
    """Write French text even to a terminal that cannot show every character."""
    try:
        stream.write(text)
    except UnicodeEncodeError:
        encoding = stream.encoding or "ascii"
        stream.write(text.encode(encoding, "replace").decode(encoding, "replace"))


def main(paths: list[str], out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Check each file of ``paths`` (options ``--schema``, ``-q``/``--quiet``, ``--``); the exit status."""
    out = out if out is not None else sys.stdout
    err = err if err is not None else sys.stderr
    quiet = False
    files: list[str] = []
    options_done = False
    for arg in paths:
        if options_done or not arg.startswith("-") or arg == "-":
            files.append(arg)
        elif arg == "--":
            options_done = True
        elif arg in ("-q", "--quiet"):
            quiet = True
        elif arg == "--schema":
            _write(out, json.dumps(json_schema(), ensure_ascii=False, indent=2) + "\n")
            return 0
        elif arg in ("-h", "--help"):
            _write(out, USAGE)
            return 0
        else:
            _write(err, f"option inconnue : {arg}\n{USAGE}")
            return 2
    if not files:
        _write(err, USAGE)
        return 2
    bad = 0
    for name in files:
        if name.lower().endswith(".toml"):  # house rules (issue 18)
            problem = _check_house_rules(name, out, quiet)
            bad += problem
            continue
        try:
            doc, _ = read_document(name)
        except FileProblem as exc:
            bad += 1
            _write(out, f"ERREUR {exc.message}\n")
            continue
        if not quiet:
            note = f" (converti depuis le format {doc.migrated_from})" if doc.migrated_from is not None else ""
            _write(out, f"ok     {name} : {describe(doc)}{note}\n")
    if not quiet or bad:
        count = len(files)
        _write(
            out,
            f"{count} fichier{'s' if count > 1 else ''} vérifié{'s' if count > 1 else ''} : "
            f"{count - bad} valide{'s' if count - bad > 1 else ''}, {bad} en erreur.\n",
        )
    return 1 if bad else 0


def _check_house_rules(name: str, out: TextIO, quiet: bool) -> int:
    """A house-rule table: « ok » with its title, system and number of differences, or its problems."""
    try:
        found = rules.house.check_file(name)
    except rules.RulesetError as exc:
        lines = exc.lines if isinstance(exc, rules.HouseRulesError) else [str(exc).removeprefix(f"{name} : ")]
        _write(out, f"ERREUR {name} :\n" + "".join(f"       {line}\n" for line in lines))
        return 1
    if not quiet:
        count = len(found.differences)
        what = (
            f"{count} différence{'s' if count > 1 else ''} avec les règles de base" if count else "les règles de base"
        )
        label = rules.system(found.system).label
        _write(out, f"ok     {name} : règles maison « {found.title} » pour {label}, {what}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
