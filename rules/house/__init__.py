"""House rules: a game master's own copy of a system's rule table, written, read, compared, explained.

- ``export_base(system_id)``: the shipped table as a commented TOML file to edit (every key described in
  French, the seed's words from the shipped file next to it).
- ``parse_house_rules`` / ``load_house_rules``: a GM's copy read back, validated by the system's own
  schema, every problem said in French with its line, its key, what was expected and what was found
  (« ligne 42, saves.death_save_success : attendu un entier entre -100 et 1000, trouvé "dix" »).
- ``HouseRules``: the table a sheet or a GM table plays by, with its title; ``to_data`` /
  ``house_rules_from_data`` embed it in a document's file.
- ``HouseRules.differences``: what differs from the base rules (the header's tooltip).
- ``explain``: every derived number and every journal names the house values it depends on.

Only data is read: TOML through ``tomllib``, JSON data through pydantic; no code runs from a table.
"""

from __future__ import annotations

from pathlib import Path as FilePath
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ValidationError

from rules.errors import RulesetError, describe_validation_error, os_reason
from rules.record import Record, _set
from rules.ruleset import _read_table, _toml_error, shipped_text
from rules.systems import REGISTRY, System

# This package's modules (the differences, the explanations, the export, the problems of a GM's file, the TOML
# text, the schema) are imported when first used: a start that opens a sheet without house rules has none
# of them to run (issue 15: ~20 M instructions of every start). The first of ``rules.house.explain``,
# ``rules.house.ABSENT``… asked for imports them (``__getattr__`` below).
if TYPE_CHECKING:
    from rules.house.differences import ABSENT, Difference
    from rules.house.explain import Attribution
    from rules.house.toml_text import key_text

_LAZY = frozenset(
    {"differences", "explain", "export", "problems", "schema", "toml_text", "ABSENT", "Difference", "key_text"}
)


def __getattr__(name: str) -> Any:
    """A module of this package (``rules.house.explain``…) or a name of one (``rules.house.Difference``): the
    package's modules are imported now, all six (they import one another)."""
    if name == "HouseHeader":
        from rules.house.header import HouseHeader

        return HouseHeader
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import rules.house.differences
    import rules.house.explain
    import rules.house.export
    import rules.house.problems
    import rules.house.schema
    import rules.house.toml_text

    differences = rules.house.differences
    names = {
        "ABSENT": differences.ABSENT,
        "Difference": differences.Difference,
        "key_text": rules.house.toml_text.key_text,
    }
    globals().update(names)  # the next lookups are plain module attributes (the modules are, once imported)
    return names[name] if name in names else globals()[name]


MAX_TITLE = 200
# A rule table has a few hundred keys; a file with far more is no rule table (and is refused before
# pydantic lists an error for each of them).
MAX_KEYS = 20_000
MAX_DEPTH = 16
HOUSE_KEY = "house"


class HouseRulesError(RulesetError):
    """A house-rule table refused: ``lines`` says each problem (« ligne 42, saves.x : attendu … »),
    ``source`` names the file (or the document it came with)."""

    def __init__(self, source: str, lines: list[str], paths: list[tuple[str | int, ...]] | None = None) -> None:
        super().__init__(f"{source} : " + " ; ".join(lines))
        self.source = source
        self.lines = lines
        # Where each problem sits in the table (parallel to ``lines``; ``()``: the table as a whole).
        self.paths = paths if paths is not None else [() for _ in lines]


class HouseRules(Record):
    """The rule table a document plays by, when it is not the shipped one: its title, its system, the
    validated table, and where it was read from (``source``, for messages; not part of its identity)."""

    __slots__ = ("system", "title", "table", "source")  # noqa: RUF023  (the fields, in order)
    system: str
    title: str
    table: Any
    source: str

    def __init__(self, system: str, title: str, table: Any, source: str = "") -> None:
        _set(self, "system", system)
        _set(self, "title", title)
        _set(self, "table", table)
        _set(self, "source", source)

    def _values(self) -> tuple[Any, ...]:
        return (self.system, self.title, self.table)  # what compares and hashes: not ``source``

    @property
    def differences(self) -> tuple[Difference, ...]:
        """What differs from the base rules, key by key, in the schema's order."""
        from rules.house.explain import attribution

        sys_ = _system(self.system)
        return attribution(sys_.ruleset_type, sys_.ruleset(), self.table).diffs

    def difference_lines(self) -> list[str]:
        """The header's tooltip: one French line per difference (« Seuil … (saves.x) : 12 au lieu de 10 »)."""
        return [d.text for d in self.differences]

    def to_data(self) -> dict[str, Any]:
        """As plain JSON data, to embed in a document's file (``house_rules_from_data`` reads it back)."""
        return {"title": self.title, "table": self.table.model_dump(mode="json")}

    def export(self) -> str:
        """These rules as a commented TOML file (a GM can edit them again)."""
        return export_rules(self.system, self.table, self.title)


def _system(system_id: str) -> System:
    sys_: System | None = REGISTRY.get(system_id)
    if sys_ is None:
        known = ", ".join(REGISTRY)
        raise RulesetError(f"Système inconnu : « {system_id} » (systèmes disponibles : {known}).")
    return sys_


# --------------------------------------------------------------------------------------------------
# Writing
# --------------------------------------------------------------------------------------------------


def _preamble(sys_: System, title: str) -> list[str]:
    return [
        f"Règles maison pour {sys_.label} (graine {sys_.seed}) : « {title} ».",
        "",
        "Ce fichier est une copie des règles de base de sheet_app, à modifier dans un éditeur de texte "
        "puis à charger par « Fiche › Règles maison… › Charger des règles maison… » (ou sur une table du "
        "meneur). Changez les valeurs après « = » ; les lignes qui commencent par « # » sont des "
        "commentaires. Chaque clé est décrite au-dessus d'elle, avec ce qu'elle accepte ; les citations "
        "« … » viennent du texte des règles. Un fichier refusé est expliqué ligne par ligne et rien ne "
        "change tant qu'il n'est pas valide.",
        "",
        "Voir docs/house-rules.md pour des exemples.",
    ]


def export_rules(system_id: str, table: Any = None, title: str = "") -> str:
    """``table`` (the shipped one by default) as a commented TOML file a GM can edit."""
    sys_ = _system(system_id)
    base = sys_.ruleset()
    table = base if table is None else table
    title = title or f"Règles maison {sys_.label}"
    from rules.house.export import export_table

    shipped, _ = shipped_text(system_id)
    return export_table(
        sys_.ruleset_type,
        table,
        base,
        shipped,
        _preamble(sys_, title),
        {"title": title, "system": system_id},
    )


def export_base(system_id: str) -> str:
    """The shipped table of ``system_id`` as a commented TOML file (« Exporter les règles de base »)."""
    return export_rules(system_id)


# --------------------------------------------------------------------------------------------------
# Reading
# --------------------------------------------------------------------------------------------------


def _size_problem(data: Any) -> str | None:
    """Far too many keys or levels for a rule table (checked without recursion)."""
    count = 0
    pending: list[tuple[Any, int]] = [(data, 0)]
    while pending:
        node, depth = pending.pop()
        if depth > MAX_DEPTH:
            return "données imbriquées trop profondément (ce n'est pas une table de règles)"
        if isinstance(node, dict):
            count += len(node)
            pending.extend((v, depth + 1) for v in node.values())
        elif isinstance(node, list):
            count += len(node)
            pending.extend((v, depth + 1) for v in node)
        if count > MAX_KEYS:
            return f"beaucoup trop de clés pour une table de règles (plus de {MAX_KEYS:,})".replace(",", "\u202f")
    return None


def _validate(sys_: System, data: Any, text: str | None, source: str) -> BaseModel:
    problem = _size_problem(data)
    if problem is not None:
        raise HouseRulesError(source, [problem])
    from rules.house.problems import loose_types, placed_problems

    model = sys_.ruleset_type
    loose = loose_types(model, data, text)
    if loose:
        raise HouseRulesError(source, loose)
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        placed = placed_problems(exc, model, text)
        raise HouseRulesError(source, [line for _, line in placed], [path for path, _ in placed]) from None
    except RecursionError:
        raise HouseRulesError(source, ["données imbriquées trop profondément"]) from None


def _toml_data(text: str, source: str) -> dict[str, Any]:
    import tomllib  # when a GM's table is read (issue 15: not at every start, ``rules.ruleset.parse_toml``)

    text = text.removeprefix("\ufeff")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise _toml_error(exc, source) from None  # French, with its line
    except RecursionError:
        raise RulesetError(f"{source} : données imbriquées trop profondément.") from None
    except ValueError:
        raise RulesetError(f"{source} : nombre démesuré (des milliers de chiffres).") from None


def parse_house_rules(system_id: str, text: str, source: str, default_title: str = "") -> HouseRules:
    """A GM's TOML ``text`` as the house rules of a ``system_id`` document (``HouseRulesError``, a
    ``RulesetError``, with one French line per problem when it does not validate)."""
    sys_ = _system(system_id)
    data = _toml_data(text, source)
    header_data = {HOUSE_KEY: data.pop(HOUSE_KEY)} if HOUSE_KEY in data else {}
    from rules.house.header import _HouseFile

    try:
        header = _HouseFile.model_validate(header_data).house
    except ValidationError as exc:
        from rules.house.problems import table_problems

        raise HouseRulesError(source, table_problems(exc, _HouseFile, text)) from None
    if header.system and header.system != system_id:
        from rules.house.toml_text import key_lines

        line, _ = key_lines(text).line_of((HOUSE_KEY, "system"))
        where = f"ligne {line}, " if line is not None else ""
        other = REGISTRY.get(header.system)
        named = f"{other.label} (« {header.system} »)" if other is not None else f"« {header.system} »"
        raise HouseRulesError(
            source, [f"{where}house.system : ces règles sont pour {named}, pas pour {sys_.label} (« {system_id} »)"]
        )
    table = _validate(sys_, data, text, source)
    title = header.title.strip() or default_title or f"Règles maison {sys_.label}"
    return HouseRules(system_id, title, table, source)


def _read_text(path: FilePath) -> str:
    """The text of a house-rule file, read as any rule table (``rules.ruleset._read_table``: only an
    ordinary file, at most ``MAX_RULESET_BYTES``); UTF-8; a French ``RulesetError`` naming the file."""
    try:
        return _read_table(path).decode("utf-8")
    except UnicodeDecodeError:
        raise RulesetError(f"{path} : le fichier n'est pas en UTF-8.") from None
    except OSError as exc:
        raise RulesetError(f"{path} : lecture impossible ({os_reason(exc)}).") from None


def load_house_rules(system_id: str, path: Any) -> HouseRules:
    """A GM's house-rule file for a ``system_id`` document (``RulesetError``, in French, if refused)."""
    path = FilePath(path)
    return parse_house_rules(system_id, _read_text(path), str(path), default_title=path.name.split(".")[0])


def house_rules_from_data(system_id: str, data: Any, source: str) -> HouseRules:
    """House rules embedded in a document (``HouseRules.to_data``), checked as strictly as a file."""
    sys_ = _system(system_id)
    if not isinstance(data, dict) or set(data) - {"title", "table"} or "table" not in data:
        raise HouseRulesError(source, ["règles maison : attendu une table avec « title » et « table »"])
    title = data.get("title", "")
    if not isinstance(title, str) or len(title) > MAX_TITLE:
        raise HouseRulesError(source, [f"règles maison, title : attendu un texte d'au plus {MAX_TITLE} caractères"])
    table = _validate(sys_, data["table"], None, source)
    return HouseRules(system_id, title.strip() or f"Règles maison {sys_.label}", table, source)


def differences_of(system_id: str, table: Any) -> tuple[Difference, ...]:
    """What ``table`` changes from the shipped table of ``system_id``."""
    from rules.house.explain import attribution

    sys_ = _system(system_id)
    return attribution(sys_.ruleset_type, sys_.ruleset(), table).diffs


def attribution_of(system_id: str, table: Any) -> Attribution | None:
    """The attribution of a table in force, ``None`` when it is the shipped one."""
    sys_ = _system(system_id)
    base = sys_.ruleset()
    if table is None or table is base:
        return None
    from rules.house.explain import attribution

    found = attribution(sys_.ruleset_type, base, table)
    return found if found.diffs else None


def sheet_problems(sheet: Any, table: Any) -> list[str]:
    """What in ``sheet`` the rule ``table`` does not allow (a state, a wound type… it does not know), in
    French, one line each: empty when the sheet can play by these rules."""
    try:
        type(sheet).model_validate(sheet.model_dump(), context={"rules_table": table})
    except ValidationError as exc:
        return describe_validation_error(exc)
    return []


def _system_of(path: FilePath, text: str) -> list[str]:
    """The systems a rule table file may be for, most likely first: the one its ``[house]`` names, else
    one its file name names (``douaratil.toml``, ``brume.d20.toml``), else every system."""
    import tomllib

    try:
        named = tomllib.loads(text.removeprefix("\ufeff")).get(HOUSE_KEY, {}).get("system")
    except (tomllib.TOMLDecodeError, RecursionError, ValueError, AttributeError):
        named = None
    if isinstance(named, str) and named in REGISTRY:
        return [named]
    parts = path.name.lower().split(".")
    by_name = [s for s in REGISTRY if s in parts]
    return by_name or list(REGISTRY)


def check_file(path: Any) -> HouseRules:
    """A house-rule file checked on its own (``sheet-app --check FICHIER.toml``): its system found from
    its ``[house]`` table or its name, else the one it validates for; ``RulesetError`` if refused (for
    the most likely system)."""
    path = FilePath(path)
    text = _read_text(path)
    candidates = _system_of(path, text)
    first_error: RulesetError | None = None
    for system_id in candidates:
        try:
            return parse_house_rules(system_id, text, str(path), default_title=path.name.split(".")[0])
        except RulesetError as exc:
            if first_error is None or (
                isinstance(exc, HouseRulesError)
                and isinstance(first_error, HouseRulesError)
                and len(exc.lines) < len(first_error.lines)
            ):
                first_error = exc
    assert first_error is not None
    raise first_error


__all__ = [
    "ABSENT",
    "Difference",
    "HouseRules",
    "HouseRulesError",
    "check_file",
    "differences_of",
    "export_base",
    "export_rules",
    "house_rules_from_data",
    "key_text",
    "load_house_rules",
    "parse_house_rules",
    "sheet_problems",
]
