"""A rule table written as a commented TOML file a game master can edit (« Exporter les règles de base »).

Every key is there, in the order of the schema, with its French description (the schema's), what it
accepts, and the shipped file's own comment (the seed's words it comes from). The table's first lines
say how to use the file; ``[house]`` holds the title the sheet will show and the system it is for.
Reading the file back (``rules.house.parse_house_rules``) gives the very table that was written.
"""

from __future__ import annotations

import textwrap
import typing
from typing import Any

from pydantic import BaseModel

from rules.house.schema import Slot, expected, field_docs, slot, unwrap
from rules.house.toml_text import KeyMap, Path, key_lines, toml_key, toml_value

WIDTH = 100


def _comment(out: list[str], text: str, indent: str = "") -> None:
    if not text.strip():
        return
    for paragraph in text.splitlines():
        wrapped = textwrap.wrap(paragraph, WIDTH - 2 - len(indent)) or [""]
        out.extend(f"# {indent}{line}".rstrip() for line in wrapped)


def _header_path(path: Path) -> str:
    return ".".join(toml_key(p) for p in path if not isinstance(p, int))


def _is_table(value: Any) -> bool:
    return isinstance(value, dict)


def _is_table_list(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)


class _Writer:
    def __init__(self, model: type[BaseModel], shipped: KeyMap, base: dict[str, Any]) -> None:
        self.model = model
        self.shipped = shipped
        self.base = base
        self.out: list[str] = []

    def base_value(self, path: Path) -> Any:
        node: Any = self.base
        for part in path:
            if isinstance(node, dict) and part in node:
                node = node[part]
            elif isinstance(node, list) and isinstance(part, int) and part < len(node):
                node = node[part]
            else:
                return _MISSING
        return node

    def describe(self, found: Slot | None, with_expected: bool = True) -> str:
        if found is None:
            return ""
        text = found.description.strip()
        if with_expected:
            wanted = expected(found)
            if found.field is not None and not found.field.is_required():
                default = found.field.get_default(call_default_factory=True)
                wanted += " ; peut manquer" + (
                    "" if default is None else f" (vaut alors {toml_value(_plain(default))})"
                )
            text = f"{text} Attendu\u00a0: {wanted}." if text else f"Attendu\u00a0: {wanted}."
        return text

    def shipped_comments(self, path: Path) -> list[str]:
        return self.shipped.comments.get(path, [])

    def key_line(self, path: Path, value: Any, found: Slot | None, describe: bool = True) -> None:
        if describe:
            _comment(self.out, self.describe(found))
        for line in self.shipped_comments(path):
            self.out.append(f"# {line}".rstrip())
        base = self.base_value(path)
        if base is not _MISSING and base != value:
            self.out.append(f"# (règles de base : {toml_value(base)})")
        self.out.append(f"{toml_key(path[-1])} = {toml_value(value)}")

    def table(self, path: Path, model: type[BaseModel], data: dict[str, Any], entry: bool = False) -> None:
        """The keys of one table (``[path]`` already written), then its sub-tables."""
        later: list[tuple[str, Any, Slot | None]] = []
        for name in model.model_fields:
            found = slot(model, (name,))
            value = data.get(name)
            if value is None:
                if not entry:
                    self.out.append("")
                    _comment(self.out, self.describe(found))
                    self.out.append(f"# {toml_key(name)} =  (absent : à ajouter au besoin)")
                continue
            if entry and found is not None and found.field is not None and not found.field.is_required():
                default = found.field.get_default(call_default_factory=True)
                if _plain(default) == value:
                    continue  # an entry says only what differs from the defaults listed above it
            if (_is_table(value) and value) or _is_table_list(value):
                later.append((name, value, found))
                continue
            if not entry:
                self.out.append("")
            self.key_line((*path, name), value, found, describe=not entry)
        for name, value, found in later:
            self.sub((*path, name), value, found)

    def sub(self, path: Path, value: Any, found: Slot | None) -> None:
        """A sub-table, a table of tables, or a list of tables, at ``path``."""
        self.out.append("")
        self.out.append("")
        _comment(self.out, self.describe(found, with_expected=False) if found is not None else "")
        if found is not None and found.model is not None:
            self.header(path, f"[{_header_path(path)}]")
            self.table(path, found.model, value)
            return
        element = _element_model(found)
        if isinstance(value, list):
            if element is not None:
                self.fields_block(element)
            for index, item in enumerate(value):
                self.out.append("")
                self.header((*path, index), f"[[{_header_path(path)}]]")
                if element is not None:
                    self.table((*path, index), element, item, entry=True)
            return
        if element is not None:  # a table of tables: [path.key] for each entry
            self.fields_block(element)
            for key, item in value.items():
                self.out.append("")
                self.header((*path, key), f"[{_header_path((*path, key))}]")
                self.table((*path, key), element, item, entry=True)
            return
        # A table of plain values: one key per line.
        self.header(path, f"[{_header_path(path)}]")
        if found is not None:
            _comment(self.out, f"Chaque clé vaut {_value_expected(found)}.")
        for key, item in value.items():
            self.key_line((*path, key), item, None, describe=False)

    def header(self, path: Path, header: str) -> None:
        for line in self.shipped_comments(path):
            self.out.append(f"# {line}".rstrip())
        base = self.base_value(path)
        if base is _MISSING:
            self.out.append("# (absent des règles de base)")
        self.out.append(header)

    def fields_block(self, model: type[BaseModel]) -> None:
        docs = field_docs(model)
        self.out.append("# Chaque entrée a les clés suivantes (celles qui ont une valeur par défaut peuvent manquer) :")
        for name, info in model.model_fields.items():
            found = slot(model, (name,))
            wanted = expected(found) if found is not None else ""
            default = ""
            if not info.is_required():
                default_value = info.get_default(call_default_factory=True)
                default = " ; par défaut : " + (
                    "absent" if default_value is None else toml_value(_plain(default_value))
                )
            text = f"{toml_key(name)} : {docs.get(name, '')} ({wanted}{default})"
            _comment(self.out, text, indent="")


def _plain(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def _element_model(found: Slot | None) -> type[BaseModel] | None:
    if found is None:
        return None
    args = typing.get_args(found.annotation)
    if not args:
        return None
    element = unwrap(args[-1] if typing.get_origin(found.annotation) is dict else args[0])[0]
    return element if isinstance(element, type) and issubclass(element, BaseModel) else None


def _value_expected(found: Slot) -> str:
    args = typing.get_args(found.annotation)
    if len(args) == 2:
        inner, bounds, _ = unwrap(args[1])
        return expected(Slot(inner, bounds))
    return "une valeur"


class _Missing:
    pass


_MISSING = _Missing()


def export_table(
    model: type[BaseModel],
    table: BaseModel,
    base: BaseModel,
    shipped_text: str,
    preamble: list[str],
    house: dict[str, str],
) -> str:
    """``table`` as a commented TOML text (see the module's docstring)."""
    writer = _Writer(model, key_lines(shipped_text), base.model_dump(mode="json"))
    out = writer.out
    for line in preamble:
        _comment(out, line)
    out.append("")
    out.append("[house]")
    for key, (value, description) in _house_keys(house).items():
        _comment(out, description)
        out.append(f"{key} = {toml_value(value)}")
    data = table.model_dump(mode="json")
    writer.table((), model, data)
    text = "\n".join(out).strip("\n") + "\n"
    while "\n\n\n\n" in text:
        text = text.replace("\n\n\n\n", "\n\n\n")
    return text


def _house_keys(house: dict[str, str]) -> dict[str, tuple[str, str]]:
    return {
        "title": (
            house["title"],
            "Le nom de ces règles maison, que la fiche montre en en-tête (« Règles maison : … »). "
            "Attendu\u00a0: un texte entre guillemets (au plus 200 caractères).",
        ),
        "system": (house["system"], f"Le système de ces règles (« {house['system']} ») : ne pas le changer."),
    }
