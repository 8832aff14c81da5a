"""What goes on paper: a sheet as it stands, a blank sheet of a system, a GM table (as ``blocks``).

Nothing here draws. Every label, number and effect comes from ``rules.describe`` (the system's
description), ``rules.derive`` (computed values with their explanations), the sheet itself and the
system's rule table (``rules.ruleset``): no number of a rule is written here. The renderer
(``ui.printing.render``) measures and paints the blocks.

Documents are read by duck typing (``kind``, ``sheets``, ``journals``, ``title``: what
``sheet_app.files.Document`` holds), so the command line, the sheet tab and the GM table tab print
the same way.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from PySide6.QtCore import QCoreApplication

import rules
from ui.common.texts import fmt_number, fmt_signed
from ui.printing.blocks import (
    Blank,
    Block,
    Cell,
    Check,
    CheckGrid,
    CheckItem,
    Column,
    Field,
    FieldGrid,
    Heading,
    Keep,
    Options,
    PageBreak,
    Paragraph,
    Printout,
    Space,
    Stack,
    Styled,
    Table,
    Tally,
    TallyGroup,
    Title,
    WritingLines,
)
from ui.sheet.wounds import WoundRows

# Ladders longer than this print as a row of boxes (a table of 13 near-identical lines helps nobody).
LONG_LADDER = 8
BLANK_WOUND_ROWS = 4
BLANK_NOTE_LINES = 1  # at least; the lines run down to the bottom of the page


class PrintableDocument(Protocol):
    """What a document to print holds (``sheet_app.files.Document`` has it)."""

    kind: str
    sheets: list[Any]
    journals: list[list[str]]
    title: str


def _tr(text: str) -> str:
    return QCoreApplication.translate("Printing", text)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _get(obj: Any, name: str, default: Any = None) -> Any:
    if isinstance(obj, dict):
        return obj.get(name, default)
    return getattr(obj, name, default)


def _lookup(table: Any, path: str) -> Any:
    """``table.saves.death_saves_needed`` read step by step; ``None`` when a rule table has no such entry."""
    value = table
    for name in path.split("."):
        value = _get(value, name)
        if value is None:
            return None
    return value


def _items(mapping: Any) -> list[tuple[str, Any]]:
    if isinstance(mapping, dict):
        return [(str(k), v) for k, v in mapping.items()]
    return []


def _pairs(pairs: Any) -> dict[str, str]:
    return {str(p[0]): str(p[1]) for p in pairs or () if isinstance(p, (tuple, list)) and len(p) >= 2}


def effects_text(effects: Sequence[str]) -> str:
    """A condition's effects in one line: sentences follow each other, fragments are joined by « ; »."""
    out = ""
    for effect in effects:
        effect = effect.strip()
        if not effect:
            continue
        if out:
            out += " " if out.endswith((".", "!", "?", "…")) else " ; "
        out += effect
    return out


def _weight(header: str, texts: Sequence[str]) -> float:
    """A column's share of the width, from what it holds: long texts get room, short ones little."""
    lengths = sorted(len(t) for t in texts) or [0]
    typical = lengths[(len(lengths) * 3) // 4]  # most cells fit in the column, the longest wrap
    return max(len(header) + 2, min(typical, 70), 8) / 10


def _plural(count: int, singular: str, plural: str) -> str:
    return f"{fmt_number(count)} {singular if abs(count) <= 1 else plural}"


def fmt(value: Any) -> str:
    """A stored or derived value as printed (typographic minus, oui/non, lists joined)."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return _tr("oui") if value else _tr("non")
    if isinstance(value, int):
        return fmt_number(value)
    if isinstance(value, float):
        return f"{value:g}".replace(".", ",").replace("-", "−")
    if isinstance(value, (tuple, list)):
        return ", ".join(fmt(v) for v in value) or "—"
    return str(value)


# --------------------------------------------------------------------------------------------------
# Shared by the filled and the blank sheet
# --------------------------------------------------------------------------------------------------


@dataclass
class _Abilities:
    """Characteristics as a table: base fields, and the fields named ``<base>_<suffix>`` beside them."""

    bases: list[rules.FieldInfo]
    suffixes: list[tuple[str, str]]  # (suffix, column label)
    alone: list[rules.FieldInfo]


def _abilities(fields: Sequence[rules.FieldInfo]) -> _Abilities:
    names = {f.name: f for f in fields}
    suffixes: dict[str, str] = {}
    owned: set[str] = set()
    for f in fields:
        for other in fields:
            prefix = other.name + "_"
            if f is not other and f.name.startswith(prefix) and f.name[len(prefix) :] and other.name not in owned:
                suffix = f.name[len(prefix) :]
                label = f.label
                for joint in (f" de {other.label}", f" d'{other.label}", f" {other.label}"):
                    if label.endswith(joint):
                        label = label[: -len(joint)]
                        break
                suffixes.setdefault(suffix, _cap(label))
                owned.add(f.name)
                break
    bases = [f for f in fields if f.name not in owned and any(f"{f.name}_{s}" in names for s in suffixes)]
    alone = [f for f in fields if f.name not in owned and f not in bases]
    return _Abilities(bases, list(suffixes.items()), alone)


def _choice_labels(f: rules.FieldInfo) -> tuple[str, ...]:
    return tuple(label for _value, label in f.choices)


def _pool_pairs(info: rules.SystemInfo) -> list[tuple[str, str]]:
    return [(str(p[0]), str(p[1])) for p in info.extra.get("pools", ()) or ()]


def _state_notes(info: rules.SystemInfo, table: Any) -> dict[str, str]:
    """What each health state means, as the rule table words it (threshold or effect)."""
    notes = dict(_get(info.extra, "health_state_notes") or {})
    for key, text in dict(_get(info.extra, "health_state_effects") or {}).items():
        notes.setdefault(key, text)
    for key, entry in _items(_get(table, "health_states")):
        for name in ("note", "effect"):
            text = _get(entry, name)
            if text:
                notes.setdefault(key, str(text))
    return {str(k): str(v) for k, v in notes.items()}


def _death_saves_needed(table: Any) -> int | None:
    needed = _lookup(table, "saves.death_saves_needed")
    return int(needed) if isinstance(needed, int) and needed > 0 else None


def _trauma(info: rules.SystemInfo) -> dict[str, Any] | None:
    trauma = info.extra.get("trauma")
    return trauma if isinstance(trauma, dict) and trauma.get("tiers") else None


def _trauma_tally(info: rules.SystemInfo, trauma: dict[str, Any], filled: int | None) -> Tally:
    """The Trauma gauge: its tiers side by side, each with its notches and its opposition."""
    groups = []
    left = filled or 0
    for tier in trauma["tiers"]:
        count = int(tier.get("last_notch", 0)) - int(tier.get("first_notch", 1)) + 1
        if count <= 0:
            count = int(trauma.get("notches_per_tier", 1))
        opposition = tier.get("opposition")
        caption = str(tier.get("label", ""))
        if opposition is not None:
            caption += f" ({opposition})"
        groups.append(TallyGroup(count, min(left, count), caption))
        left = max(0, left - count)
    beyond = trauma.get("beyond") or {}
    after = ""
    if beyond:
        after = _tr("au-delà : {0} ({1})").format(beyond.get("label", ""), beyond.get("opposition", ""))
        if filled is not None and left > 0:
            after += " — " + _tr("{0} au-delà de la jauge").format(_plural(left, _tr("cran"), _tr("crans")))
    # The gauge is the heart of a Sévérité sheet: large boxes, to tick and rub out at the table.
    return Tally(_cap(info.points_label), tuple(groups), after, box_mm=6.0)


def _ladder_rows(ladder: rules.LadderInfo, level: int | None) -> list[Block]:
    """A ladder and the effect of each level beside it; ``level`` is ticked (``None``: blank)."""
    if len(ladder.levels) <= LONG_LADDER:
        rows = tuple(
            (Check(level == lv.level), Styled(lv.label) if level == lv.level else lv.label, lv.effect)
            for lv in ladder.levels
        )
        table = Table(
            (Column("", fixed_mm=6, align="center"), Column(_tr("Niveau"), 1.0), Column(_tr("Effet"), 5.0)),
            rows,
            style="small",
        )
        return [Keep((Heading(ladder.label), table))]
    # A long ladder: a box per level above the first, then the effect of the levels in words.
    first, rest = ladder.levels[0], ladder.levels[1:]
    filled = sum(1 for lv in rest if level is not None and lv.level <= level)
    tally = Tally(_tr("Niveau"), (TallyGroup(len(rest), filled, f"{rest[0].label} … {rest[-1].label}"),))
    shown = next((lv for lv in rest if lv.level == level), None)
    lines = [Paragraph(f"{first.label} : {first.effect}", "small")]
    if shown is not None:
        lines.append(Paragraph(f"{shown.label} : {shown.effect}", "small"))
    else:
        lines.append(Paragraph(f"{rest[0].label} : {rest[0].effect}", "small"))
        lines.append(Paragraph(_tr("(de même à chaque niveau jusqu'à {0})").format(rest[-1].label), "small"))
    return [Keep((Heading(ladder.label), tally, *lines))]


def _condition_grids(info: rules.SystemInfo, active: dict[str, str] | None) -> list[Block]:
    """Every condition with its box, group by group; ``active`` (id → why) are ticked."""
    blocks: list[Block] = []
    groups = list(info.condition_groups) or [rules.ConditionGroupInfo("", "")]
    known = {g.id for g in groups}
    for group in groups:
        members = [c for c in info.conditions if c.group == group.id or (c.group not in known and not group.id)]
        if not members:
            continue
        items = tuple(
            CheckItem(
                c.label,
                active is not None and c.id in active,
                (active or {}).get(c.id, "") if (active or {}).get(c.id, "") not in ("", _tr("posé"), "posé") else "",
            )
            for c in members
        )
        blocks.append(CheckGrid(items, 4, group.label))
    return blocks


# --------------------------------------------------------------------------------------------------
# A sheet as it stands
# --------------------------------------------------------------------------------------------------


class _WoundSource:
    """What ``ui.sheet.wounds.WoundRows`` reads of a view-model, for a sheet outside any window."""

    def __init__(self, sheet: Any, info: rules.SystemInfo, derived: rules.Derived) -> None:
        self.sheet = sheet
        self.info = info
        self._derived = derived

    def value(self, name: str, default: Any = None) -> Any:
        explained = self._derived.get(name)
        return default if explained is None else explained.value


class _SheetPrint:
    def __init__(self, sheet: Any, journal: Sequence[str], gm_view: bool, with_journal: bool, table: Any) -> None:
        self.sheet = sheet
        self.journal = journal
        self.gm_view = gm_view
        self.with_journal = with_journal
        self.table = table if table is not None else rules.ruleset(sheet.system)
        self.info = rules.describe(sheet.system, self.table)
        self.derived = rules.derive(sheet, self.table)
        self.shown: set[str] = {"conditions", "condition_reasons", "wound_rows", "scar_rows", "death_saves"}

    # -- values --

    def hidden(self, name: str) -> bool:
        return not self.gm_view and name in self.derived.hidden

    def value(self, name: str, default: Any = None) -> Any:
        explained = self.derived.get(name)
        return default if explained is None else explained.value

    def show(self, name: str) -> str:
        self.shown.add(name)
        if self.hidden(name):
            return _tr("caché (meneur)")
        return fmt(self.value(name))

    def field_value(self, f: rules.FieldInfo) -> str:
        value = getattr(self.sheet, f.name, None)
        if f.kind == "choice":
            return dict(f.choices).get(str(value), fmt(value))
        if f.kind == "text" and isinstance(value, (tuple, list)):
            return ", ".join(str(v) for v in value) or "—"
        if f.kind == "text":
            return str(value) if value else "—"
        return fmt(value)

    # -- sections --

    def blocks(self) -> list[Block]:
        out: list[Block] = [self.title()]
        out += self.identity()
        out += self.health()
        out += self.characteristics()
        out += self.other_fields()
        out += self.conditions()
        out += self.ladders()
        out += self.wounds()
        out += self.equipment()
        out += self.computed()
        out += self.notes()
        out += self.journal_lines()
        return out

    def title(self) -> Title:
        sheet = self.sheet
        parts = [self.info.label]
        if sheet.player:
            parts.append(_tr("joueur : {0}").format(sheet.player))
        parts.append(_tr("niveau {0}").format(sheet.level))
        parts.append(_tr("PNJ") if sheet.is_npc else _tr("PJ"))
        return Title(sheet.name or _tr("Sans nom"), " — ".join(parts))

    def identity(self) -> list[Block]:
        skip = {"name", "player", "level", "is_npc"}
        fields = [
            Field(f.label, Styled(self.field_value(f)))
            for f in self.info.fields
            if f.group == "identity" and f.name not in skip and f.kind != "longtext"
        ]
        return [FieldGrid(tuple(fields), 3)] if fields else []

    def health(self) -> list[Block]:
        info, features = self.info, self.info.features
        points = _cap(info.points_label)
        if self.hidden("current"):
            current = _tr("caché (meneur)")
        else:
            current = f"{fmt(self.value('current'))} / {fmt(self.value('maximum'))}"
        self.shown.update({"current", "maximum"})
        fields = [Field(points, Styled(current))]
        if "temporary" in features:
            fields.append(Field(_tr("{0} temporaires").format(info.points_short), Styled(self.show("temporary"))))
        else:
            self.shown.add("temporary")
        if "nonlethal" in self.derived:
            fields.append(Field(_tr("Dégâts non létaux"), Styled(self.show("nonlethal"))))
        state = _tr("caché (meneur)") if self.hidden("state") else info.state(self.derived.state).label
        self.shown.add("state")
        fields.append(Field(_tr("État de santé"), Styled(state)))
        fields.append(Field(_tr("Malus aux jets"), Styled(fmt_signed(self.derived.roll_penalty))))
        self.shown.add("roll_penalty")
        out: list[Block] = [Heading(_tr("Santé")), FieldGrid(tuple(fields), 3)]
        saves = self.value("death_saves")
        if "death_saves" in features and isinstance(saves, tuple) and len(saves) == 2:
            needed = _death_saves_needed(self.table) or max(saves)
            successes, failures = (min(int(v), needed) for v in saves)
            out.append(
                Tally(
                    _tr("Jets contre la mort"),
                    (
                        TallyGroup(needed, successes, _tr("succès {0} sur {1}").format(successes, needed)),
                        TallyGroup(needed, failures, _tr("échecs {0} sur {1}").format(failures, needed)),
                    ),
                )
            )
        pools = _pool_pairs(info)
        if pools:
            rows = []
            for pool_id, label in pools:
                stored = getattr(self.sheet, pool_id, None)
                maximum = self.value(f"{pool_id}_maximum", _get(stored, "base_maximum"))
                self.shown.add(f"{pool_id}_maximum")
                rows.append((_cap(label), Styled(fmt(_get(stored, "current"))), fmt(maximum)))
            out.append(
                Table(
                    (
                        Column(_tr("Réserve"), 3.0),
                        Column(_tr("Actuels"), 1.0, align="center"),
                        Column(_tr("Maximum"), 1.0, align="center"),
                    ),
                    tuple(rows),
                )
            )
        trauma = _trauma(info)
        if trauma is not None:
            filled = None if self.hidden("current") else int(self.value("current") or 0)
            out.append(_trauma_tally(info, trauma, filled))
        return [Keep(tuple(out))]

    def characteristics(self) -> list[Block]:
        fields = [f for f in self.info.fields if f.group == "characteristics"]
        if not fields:
            return []
        ab = _abilities(fields)
        out: list[Block] = [Heading(_tr("Caractéristiques"))]
        if ab.bases:
            columns = [Column(_tr("Caractéristique"), 2.0), Column(_tr("Valeur"), 1.0, align="center")]
            has_score = any(f"{f.name}_score" in self.derived for f in ab.bases)
            has_mod = any(f"{f.name}_modifier" in self.derived for f in ab.bases)
            if has_score:
                columns.append(Column(_tr("En jeu"), 1.0, align="center"))
            if has_mod:
                columns.append(Column(_tr("Mod."), 1.0, align="center"))
            columns += [Column(label, 1.6, align="center") for _s, label in ab.suffixes]
            rows = []
            for f in ab.bases:
                row: list[Cell] = [f.label, Styled(self.field_value(f))]
                if has_score:
                    row.append(self.show(f"{f.name}_score") if f"{f.name}_score" in self.derived else "")
                if has_mod:
                    mod = self.value(f"{f.name}_modifier")
                    self.shown.add(f"{f.name}_modifier")
                    row.append(fmt_signed(mod) if isinstance(mod, int) else "")
                for suffix, _label in ab.suffixes:
                    other = next((g for g in fields if g.name == f"{f.name}_{suffix}"), None)
                    row.append(self.field_value(other) if other is not None else "")
                rows.append(tuple(row))
            out.append(Table(tuple(columns), tuple(rows)))
        if ab.alone:
            items = []
            for f in ab.alone:
                text = self.field_value(f)
                mod = self.value(f"{f.name}_modifier")
                if isinstance(mod, int):
                    self.shown.add(f"{f.name}_modifier")
                    text += f" ({fmt_signed(mod)})"
                items.append(Field(f.label, Styled(text)))
            out.append(FieldGrid(tuple(items), 3))
        return [Keep(tuple(out))]

    def other_fields(self) -> list[Block]:
        fields = [
            f for f in self.info.fields if f.group in ("health", "other") and f.kind != "longtext" and f.name != "notes"
        ]
        if not fields:
            return []
        items = tuple(Field(f.label, Styled(self.field_value(f))) for f in fields)
        return [Keep((Heading(_tr("Autres valeurs de la fiche")), FieldGrid(items, 3)))]

    def conditions(self) -> list[Block]:
        if not self.info.conditions:
            return []
        active_ids = tuple(self.value("conditions", ()) or ())
        reasons = dict(self.value("condition_reasons", {}) or {})
        if self.hidden("conditions"):
            active_ids = ()
        active = {str(c): str(reasons.get(c, "")) for c in active_ids}
        out: list[Block] = [Heading(_tr("États")), *_condition_grids(self.info, active)]
        by_id = {c.id: c for c in self.info.conditions}
        lines = []
        for cid in active_ids:
            cond = by_id.get(cid)
            label = cond.label if cond is not None else str(cid)
            why = active.get(cid, "")
            head = f"{label} ({why})" if why else label
            effects = effects_text(cond.effects) if cond is not None else ""
            lines.append(Paragraph(f"{head} : {effects}" if effects else head, "small"))
        if lines:
            out.append(Paragraph(_tr("États actifs et leurs effets :"), "bold"))
            out += lines
        else:
            out.append(Paragraph(_tr("Aucun état actif."), "small"))
        return [Keep(tuple(out))]

    def ladders(self) -> list[Block]:
        out: list[Block] = []
        for ladder in self.info.ladders:
            level = getattr(self.sheet, ladder.field, None)
            level = level if isinstance(level, int) else 0
            if len(ladder.levels) <= LONG_LADDER:
                count = len(ladder.levels) - 1
                current = next((lv for lv in ladder.levels if lv.level == level), ladder.levels[0])
                tally = Tally(ladder.label, (TallyGroup(count, min(max(level, 0), count), current.label),))
                out.append(Keep((tally, Paragraph(f"{current.label} : {current.effect}", "small"))))
            else:
                out += _ladder_rows(ladder, level)
        return out

    def wounds(self) -> list[Block]:
        features = self.info.features
        if not ({"wounds", "local_wounds"} & features) and not getattr(self.sheet, "wounds", None):
            return []
        source = _WoundSource(self.sheet, self.info, self.derived)
        builder = WoundRows(source)  # type: ignore[arg-type]  # reads only info, sheet and value()
        rows = builder.rows()
        penalties = self.value("body_part_penalties")
        if isinstance(penalties, dict):
            self.shown.add("body_part_penalties")
        headers = [_tr("Blessure"), _tr("Gravité"), _tr("Effet"), _tr("Soins"), _tr("Guérison"), _tr("Note")]
        out: list[Block] = [Heading(_tr("Blessures ({0})").format(len(rows)))]
        if not rows:
            out.append(Paragraph(_tr("Aucune blessure."), "small"))
        else:
            cells = [list(r.cells) for r in rows]
            wounds = tuple(getattr(self.sheet, "wounds", ()) or ())
            if isinstance(penalties, dict):
                for index, row in enumerate(cells):
                    part = _get(wounds[index], "body_part") if index < len(wounds) else None
                    penalty = penalties.get(part) if part is not None else None
                    if isinstance(penalty, int) and penalty and not row[2]:
                        row[2] = _tr("malus {0} aux actions de cette partie").format(fmt_signed(penalty))
            keep = [i for i in range(len(headers)) if i == 0 or any(str(r[i]) for r in cells)]
            columns = [Column("N°", fixed_mm=8, align="center")] + [
                Column(headers[i], _weight(headers[i], [str(r[i]) for r in cells])) for i in keep
            ]
            table_rows = tuple((str(r.key), *(str(cells[n][i]) for i in keep)) for n, r in enumerate(rows))
            out.append(Table(tuple(columns), table_rows, style="small", zebra=True))
        bleeding = self.value("bleeding")
        if bleeding:
            out.append(Paragraph(_cap(self.derived.explain("bleeding")), "bold"))
        self.shown.add("bleeding")
        if "scars" in features:
            scars = builder.scar_rows()
            if scars:
                out.append(Paragraph(_tr("Cicatrices : {0}").format(" ; ".join(r.tooltips[0] for r in scars)), "small"))
            else:
                out.append(Paragraph(_tr("Cicatrices : aucune."), "small"))
        if len(out) > 2 and len(rows) > 12:
            return out  # a long list runs over pages, row by row
        return [Keep(tuple(out))]

    def equipment(self) -> list[Block]:
        items = getattr(self.sheet, "equipment", None)
        if not items:
            return []
        parts = _pairs(self.info.extra.get("body_part_choices"))
        types = {c.id: c.label for c in self.info.damage_types}
        rows = []
        for item in items:
            zones = ", ".join(parts.get(str(p), str(p)) for p in _get(item, "body_parts", ()) or ())
            protections = ", ".join(
                f"{types.get(str(kind), str(kind))} {fmt_signed(int(_get(p, 'modifier', 0)))}"
                for p in _get(item, "protections", ()) or ()
                for kind in (_get(p, "damage_type"),)
            )
            rows.append((Styled(str(_get(item, "name", ""))), zones or "—", protections or "—"))
        table = Table(
            (Column(_tr("Équipement"), 2.0), Column(_tr("Zones couvertes"), 2.0), Column(_tr("Protection"), 3.0)),
            tuple(rows),
            style="small",
        )
        return [Keep((Heading(_tr("Équipement et protections")), table))]

    def computed(self) -> list[Block]:
        lines: list[str] = []
        said: set[str] = set()
        for name, explained in self.derived.items():
            if name in self.shown or not explained.text or self.hidden(name) or explained.text in said:
                continue
            said.add(explained.text)
            value = explained.value
            if value is None or value is False or value == () or value == {} or value == "":
                continue  # nothing to say (no restriction, no immunity, nothing to come…)
            if isinstance(value, int) and not isinstance(value, bool) and value == 0 and name not in self.info.extra:
                continue
            lines.append("• " + _cap(explained.text))
        if not lines:
            return []
        # Two columns of short sentences, read down the first column then the second.
        half = (len(lines) + 1) // 2
        rows = tuple((lines[i], lines[i + half] if i + half < len(lines) else "") for i in range(half))
        table = Table((Column(""), Column("")), rows, style="small", ruled=False)
        return [Heading(_tr("Valeurs calculées")), table]

    def notes(self) -> list[Block]:
        text = str(getattr(self.sheet, "notes", "") or "")
        if not text.strip():
            return []
        return [Heading(_tr("Notes")), *(Paragraph(line) for line in text.split("\n"))]

    def journal_lines(self) -> list[Block]:
        if not self.with_journal or not self.journal:
            return []
        lines = [line for line in self.journal if self.gm_view or not str(line).startswith(rules.SECRET_MARK)]
        return [Heading(_tr("Journal")), *(Paragraph(str(line), "small") for line in lines)]


def sheet_printout(
    sheet: Any,
    journal: Sequence[str] = (),
    *,
    gm_view: bool = False,
    with_journal: bool = False,
    rules_table: Any = None,
) -> Printout:
    """A sheet as it stands: identity, points, states, ladders, wounds, computed values, notes.

    ``gm_view``: print what the rules hide from the player (and the journal's GM lines).
    ``with_journal``: the journal follows, in full.
    """
    built = _SheetPrint(sheet, journal, gm_view, with_journal, rules_table)
    return Printout(sheet.name or _tr("Sans nom"), tuple(built.blocks()))


# --------------------------------------------------------------------------------------------------
# A blank sheet, to fill by pen
# --------------------------------------------------------------------------------------------------


def _blank_field(f: rules.FieldInfo) -> Field:
    if f.kind == "bool":
        return Field(f.label, Check(False))
    if f.kind == "choice":
        return Field(f.label, Options(_choice_labels(f)), span=2 if len(f.choices) > 2 else 1)
    if f.kind == "text":
        return Field(f.label, Blank(box=False))
    return Field(f.label, Blank())


class _BlankPrint:
    def __init__(self, system_id: str, table: Any) -> None:
        self.table = table if table is not None else rules.ruleset(system_id)
        self.info = rules.describe(system_id, self.table)
        self.fresh = rules.derive(rules.new_sheet(system_id), self.table)

    def blocks(self) -> list[Block]:
        out: list[Block] = [self.title()]
        out += self.health()
        out += self.characteristics()
        out += self.other_fields()
        out += self.conditions()
        out += self.ladders()
        out += self.wounds()
        out += self.system_extras()
        out.append(Keep((Heading(_tr("Notes")), WritingLines(BLANK_NOTE_LINES, fill=True))))
        out += self.reference()
        return out

    def title(self) -> Block:
        info = self.info
        fields = [Field(_tr("Nom"), Blank(box=False), span=2), Field(_tr("Joueur"), Blank(box=False))]
        fields += [Field(_tr("Niveau"), Blank()), Field(_tr("PNJ"), Check(False))]
        fields += [
            _blank_field(f)
            for f in info.fields
            if f.group == "identity" and f.name not in {"name", "player", "level", "is_npc"} and f.kind != "longtext"
        ]
        return Keep((Title(info.label, _tr("Fiche vierge — à remplir au crayon")), FieldGrid(tuple(fields), 4)))

    def health(self) -> list[Block]:
        info, features = self.info, self.info.features
        points = _cap(info.points_label)
        out: list[Block] = [Heading(_tr("Santé"))]
        trauma = _trauma(info)
        if trauma is not None:
            out.append(_trauma_tally(info, trauma, None))
        else:
            fields = [Field(_tr("{0} actuels").format(points), Blank()), Field(_tr("Maximum"), Blank())]
            if "temporary" in features:
                fields.append(Field(_tr("{0} temporaires").format(info.points_short), Blank()))
            if "nonlethal" in features:
                fields.append(Field(_tr("Dégâts non létaux"), Blank()))
            if "action_dice" in features:
                fields.append(Field(_tr("Dés d'action restants"), Blank()))
            out.append(FieldGrid(tuple(fields), 4 if len(fields) > 3 else 3))
        if "death_saves" in features:
            needed = _death_saves_needed(self.table)
            if needed:
                out.append(
                    Tally(
                        _tr("Jets contre la mort"),
                        (TallyGroup(needed, 0, _tr("succès")), TallyGroup(needed, 0, _tr("échecs"))),
                    )
                )
        pools = _pool_pairs(info)
        if pools:
            # Two reserves a row: « PM actuels / maximum » side by side.
            head = (Column(_tr("Réserve"), 2.6), Column(_tr("Actuels"), 1.0), Column(_tr("Maximum"), 1.2))
            pairs = [pools[i : i + 2] for i in range(0, len(pools), 2)]
            rows_p: list[tuple[Cell, ...]] = []
            for pair in pairs:
                row: list[Cell] = []
                for _id, label in pair:
                    row += [_cap(label), Blank(), Blank()]
                row += [""] * (6 - len(row))
                rows_p.append(tuple(row))
            out.append(Table(head * 2 if len(pools) > 1 else head, tuple(rows_p)))
        notes = _state_notes(info, self.table)
        if any(notes.get(s.id) for s in info.health_states):
            rows = tuple((Check(False), Styled(s.label), notes.get(s.id, "")) for s in info.health_states)
            out.append(
                Table(
                    (
                        Column("", fixed_mm=6, align="center"),
                        Column(_tr("État de santé"), 1.3),
                        Column(_tr("Quand, et ce qu'il fait"), 5.0),
                    ),
                    rows,
                    style="small",
                )
            )
        else:
            items = tuple(CheckItem(s.label) for s in info.health_states)
            out.append(CheckGrid(items, len(items) if len(items) <= 5 else 4, _tr("État de santé")))
        return [Keep(tuple(out))]

    def characteristics(self) -> list[Block]:
        fields = [f for f in self.info.fields if f.group == "characteristics"]
        if not fields:
            return []
        ab = _abilities(fields)
        out: list[Block] = [Heading(_tr("Caractéristiques"))]
        if ab.bases:
            has_mod = any(f"{f.name}_modifier" in self.fresh for f in ab.bases)
            columns = [Column(_tr("Caractéristique"), 2.0), Column(_tr("Valeur"), 1.0)]
            if has_mod:
                columns.append(Column(_tr("Mod."), 1.0))
            columns += [Column(label, 1.6) for _s, label in ab.suffixes]
            blanks: tuple[Cell, ...] = tuple(Blank(box=False) for _ in columns[1:])
            rows = tuple((f.label, *blanks) for f in ab.bases)
            out.append(Table(tuple(columns), rows))
        if ab.alone:
            out.append(FieldGrid(tuple(_blank_field(f) for f in ab.alone), 3))
        return [Keep(tuple(out))]

    def other_fields(self) -> list[Block]:
        fields = [
            f for f in self.info.fields if f.group in ("health", "other") and f.kind != "longtext" and f.name != "notes"
        ]
        if not fields:
            return []
        return [
            Keep((Heading(_tr("Autres valeurs de la fiche")), FieldGrid(tuple(_blank_field(f) for f in fields), 3)))
        ]

    def conditions(self) -> list[Block]:
        if not self.info.conditions:
            return []
        return [Keep((Heading(_tr("États")), *_condition_grids(self.info, None)))]

    def ladders(self) -> list[Block]:
        out: list[Block] = []
        for ladder in self.info.ladders:
            out += _ladder_rows(ladder, None)
        return out

    def wounds(self) -> list[Block]:
        features = self.info.features
        if "trauma" in features and "wounds" in features:
            return self._graded_wounds()
        if "local_wounds" in features:
            return self._local_wounds()
        if "wounds" in features:
            return self._typed_wounds()
        return []

    def _typed_wounds(self) -> list[Block]:
        """Wounds of a type with a healing delay (Douaratil): the delay column is for the pen."""
        severities = _pairs(self.info.extra.get("wound_severities"))
        columns: list[Column] = [Column("N°", fixed_mm=8), Column(_tr("Type de blessure"), 2.0)]
        cells: list[Cell] = [Blank(box=False), Blank(box=False)]
        if severities:
            columns.append(Column(_tr("Gravité"), 2.2))
            cells.append(Options(tuple(severities.values())))
        if any(_get(w, "bleeding_dice") for _k, w in _items(_get(self.table, "wounds"))):
            columns.append(Column(_tr("Saigne"), fixed_mm=13, align="center"))
            cells.append(Check(False))
        columns += [Column(_tr("Repos longs faits / requis"), 1.8), Column(_tr("Note"), 3.0)]
        cells += [Blank(box=False), Blank(box=False)]
        rows = tuple(tuple(cells) for _ in range(BLANK_WOUND_ROWS))
        out: list[Block] = [Heading(_tr("Blessures")), Table(tuple(columns), rows, style="small", row_lines=1.7)]
        if "scars" in self.info.features:
            out.append(FieldGrid((Field(_tr("Cicatrices"), Blank(box=False), span=3),), 3))
        return [Keep(tuple(out))]

    def _local_wounds(self) -> list[Block]:
        penalty = _lookup(self.table, "local_wounds.penalty")
        columns = (
            Column(_tr("Partie du corps"), 2.0),
            Column(_tr("Malus"), fixed_mm=14, align="center"),
            Column(_tr("Note"), 4.0),
            Column(_tr("Guérie"), fixed_mm=13, align="center"),
        )
        shown = fmt_signed(int(penalty)) if isinstance(penalty, int) else Blank(box=False)
        rows = tuple((Blank(box=False), shown, Blank(box=False), Check(False)) for _ in range(BLANK_WOUND_ROWS))
        out: list[Block] = [Heading(_tr("Blessures localisées")), Table(columns, rows, style="small", row_lines=1.7)]
        return [Keep(tuple(out))]

    def _graded_wounds(self) -> list[Block]:
        """Sévérité: grade, notches, zone, damage type, treatment, handicap."""
        treatments = tuple(_pairs(self.info.extra.get("treatment_choices")).values())
        columns: list[Column] = [
            Column("N°", fixed_mm=7),
            Column(_tr("Gravité"), 1.5),
            Column(_tr("Sévérité"), fixed_mm=15),
            Column(_tr("Crans"), fixed_mm=12),
            Column(_tr("Zone"), 1.5),
            Column(_tr("Dégâts"), 1.4),
        ]
        cells: list[Cell] = [Blank(box=False)] * 6
        if treatments:
            columns.append(Column(_tr("Traitement"), 2.6))
            cells.append(Options(treatments))
        columns += [Column(_tr("Handicap"), 2.0), Column(_tr("Note"), 2.0)]
        cells += [Blank(box=False), Blank(box=False)]
        rows = tuple(tuple(cells) for _ in range(BLANK_WOUND_ROWS))
        return [Keep((Heading(_tr("Blessures")), Table(tuple(columns), rows, style="small", row_lines=1.7)))]

    def system_extras(self) -> list[Block]:
        out: list[Block] = []
        privations = _items(_get(self.table, "privations"))
        exposures = _items(_get(self.table, "exposure"))
        if privations or exposures:
            rows: list[tuple[Cell, ...]] = []
            for _key, entry in privations:
                hours = _get(entry, "hours")
                limit = _tr("au-delà de {0} h").format(hours) if hours is not None else ""
                rows.append((_cap(str(_get(entry, "label", ""))), limit, Blank(box=False)))
            for _key, entry in exposures:
                every = _get(entry, "damage_every_hours")
                limit = _tr("dégâts toutes les {0} h").format(every) if every is not None else ""
                rows.append((_cap(str(_get(entry, "label", ""))), limit, Blank(box=False)))
            table = Table(
                (
                    Column(_tr("Ce que le monde inflige"), 2.0),
                    Column(_tr("Règle"), 2.0),
                    Column(_tr("Depuis (heures)"), 1.5),
                ),
                tuple(rows),
                style="small",
            )
            out.append(Keep((Heading(_tr("Privations et milieu")), table)))
        if "protection" in self.info.features and self.info.damage_types:
            types = self.info.damage_types
            columns = (
                Column(_tr("Équipement"), 2.0),
                Column(_tr("Zones couvertes"), 2.0),
                *(Column(t.label, 1.0, align="center") for t in types),
            )
            rows_eq = tuple(tuple(Blank(box=False) for _ in columns) for _ in range(3))
            out.append(Keep((Heading(_tr("Équipement et protections")), Table(columns, rows_eq, style="small"))))
        return out

    def reference(self) -> list[Block]:
        """The second page: what each state does, the wound table, the other rule tables a player reads."""
        out: list[Block] = [PageBreak(first_page_only=True), Heading(_tr("Aide-mémoire — {0}").format(self.info.label))]
        wound_types = _items(_get(self.table, "wounds"))
        if wound_types and any(_get(w, "days") is not None for _k, w in wound_types):
            rows = []
            for _key, w in wound_types:
                days = _get(w, "days")
                rows.append(
                    (
                        Styled(str(_get(w, "label", ""))),
                        _plural(int(days), _tr("repos long"), _tr("repos longs")) if isinstance(days, int) else "",
                        str(_get(w, "limitation", "")),
                        fmt(_get(w, "will_dd")),
                    )
                )
            out.append(
                Keep(
                    (
                        Paragraph(_tr("Blessures : test de guérison, limitation, test de volonté"), "bold"),
                        Table(
                            (
                                Column(_tr("Type"), 1.3),
                                Column(_tr("Test de guérison après"), 1.5),
                                Column(_tr("Limitation"), 5.0),
                                Column(_tr("DD volonté"), fixed_mm=18, align="center"),
                            ),
                            tuple(rows),
                            style="small",
                        ),
                    )
                )
            )
        grades = self.info.extra.get("wound_grade_rules")
        if grades:
            rows_g = tuple(
                (Styled(str(g[1])), _tr("{0} ou plus").format(g[2]), fmt(g[3])) for g in grades if len(g) >= 4
            )
            out.append(
                Keep(
                    (
                        Space(4),
                        Paragraph(_tr("Gravité des Blessures"), "bold"),
                        Table(
                            (
                                Column(_tr("Gravité"), 1.5),
                                Column(_tr("Sévérité"), 1.5, align="center"),
                                Column(_tr("Crans de Trauma"), 1.5, align="center"),
                            ),
                            rows_g,
                            style="small",
                        ),
                    )
                )
            )
        results = self.info.extra.get("tenacity_results")
        levels = {str(s[3]): str(s[1]) for s in self.info.extra.get("success_levels", ()) or () if len(s) >= 4}
        if results:
            rows_t = tuple(
                (levels.get(str(r[1]), ""), Styled(str(r[1])), str(r[2]) if len(r) > 2 else "") for r in results
            )
            out.append(
                Keep(
                    (
                        Space(4),
                        Paragraph(_tr("Défi de Ténacité"), "bold"),
                        Table(
                            (Column(_tr("Réussite"), 1.3), Column(_tr("Ténacité"), 1.3), Column(_tr("Effet"), 5.0)),
                            rows_t,
                            style="small",
                        ),
                    )
                )
            )
        methods = [str(m[1]) for m in self.info.extra.get("stabilise_methods", ()) or () if len(m) >= 2]
        notes = [str(self.info.extra[k]) for k in ("stabilised_note", "hidden_points_note") if self.info.extra.get(k)]
        if methods or notes:
            lines: list[Block] = [Space(4), Paragraph(_tr("Stabiliser et soigner"), "bold")]
            lines += [Paragraph("• " + _tr("Stabiliser : {0}.").format(m), "small") for m in methods]
            lines += [Paragraph("• " + n, "small") for n in notes]
            out.append(Keep(tuple(lines)))
        light = self.info.extra.get("light_levels")
        if light:
            rows_l = tuple((Styled(str(p[1])), str(p[2]) if len(p) > 2 else "") for p in light)
            out.append(
                Keep(
                    (
                        Space(4),
                        Paragraph(_tr("Éclairage"), "bold"),
                        Table((Column(_tr("Lumière"), 1.3), Column(_tr("Effet"), 5.0)), rows_l, style="small"),
                    )
                )
            )
        if self.info.conditions:
            out += [Space(4), Paragraph(_tr("États et leurs effets"), "bold")]
            rows_c: list[tuple[Cell, ...]] = []
            groups = {g.id: g for g in self.info.condition_groups}
            for group in self.info.condition_groups:
                members = [c for c in self.info.conditions if c.group == group.id]
                if not members:
                    continue
                rows_c.append((Styled(group.label), Styled(group.note, "italic")))
                rows_c += [(c.label, effects_text(c.effects)) for c in members]
            rows_c += [(c.label, effects_text(c.effects)) for c in self.info.conditions if c.group not in groups]
            out.append(Table((Column(_tr("État"), 1.2), Column(_tr("Effets"), 6.0)), tuple(rows_c), style="small"))
        return out if len(out) > 2 else []


def blank_printout(system_id: str, rules_table: Any = None) -> Printout:
    """A blank sheet of ``system_id`` to fill by pen, and its rule reminder (``rules.Refused`` if unknown)."""
    built = _BlankPrint(system_id, rules_table)
    return Printout(_tr("Fiche vierge {0}").format(built.info.label), tuple(built.blocks()))


# --------------------------------------------------------------------------------------------------
# A GM table: one line per creature
# --------------------------------------------------------------------------------------------------


def _wound_names(sheet: Any, info: rules.SystemInfo, derived: rules.Derived) -> str:
    rows = WoundRows(_WoundSource(sheet, info, derived)).rows()  # type: ignore[arg-type]
    return " ; ".join(str(r.cells[0]) for r in rows)


def table_printout(document: PrintableDocument, *, gm_view: bool = True) -> Printout:
    """The GM's table: one line per creature, with its points, state, states, wounds and boxes to fill."""
    sheets = list(document.sheets)
    title = document.title or _tr("Table de meneur")
    systems = []
    for sheet in sheets:
        label = rules.describe(sheet.system).label
        if label not in systems:
            systems.append(label)
    mixed = len(systems) > 1
    rows: list[tuple[Cell, ...]] = []
    for sheet in sheets:
        table = _house_table(document, sheet.system)
        info = rules.describe(sheet.system, table)
        derived = rules.derive(sheet, table)
        hidden = not gm_view
        name = sheet.name or _tr("Sans nom")
        who = _tr("PNJ") if sheet.is_npc else _tr("PJ")
        detail = f"{who} — {info.label}" if mixed else who
        if hidden and "current" in derived.hidden:
            points = _tr("caché")
        else:
            points = f"{info.points_short} {fmt(derived.current)} / {fmt(derived.maximum)}"
            if derived.temporary:
                points += "\n" + _tr("+{0} temp.").format(fmt(derived.temporary))
            nonlethal = derived.get("nonlethal")
            if nonlethal is not None and nonlethal.value:
                points += "\n" + _tr("non létaux {0}").format(fmt(nonlethal.value))
        state = _tr("caché") if hidden and "state" in derived.hidden else info.state(derived.state).label
        labels = {c.id: c.label for c in info.conditions}
        conditions = ", ".join(
            labels.get(str(c), str(c)) for c in derived.get("conditions", rules.Explained((), "")).value
        )
        rows.append(
            (
                Check(False),
                Stack((Styled(name), detail)),
                points,
                Blank(),
                Styled(state),
                conditions,
                _wound_names(sheet, info, derived),
                Blank(box=False),
            )
        )
    columns = (
        Column(_tr("Agi"), fixed_mm=8, align="center"),
        Column(_tr("Créature"), 2.1),
        Column(_tr("Points"), 1.4),
        Column(_tr("Nouveau"), fixed_mm=16, align="center"),
        Column(_tr("État"), 1.5),
        Column(_tr("États"), 1.8),
        Column(_tr("Blessures"), 1.8),
        Column(_tr("Notes"), 1.4),
    )
    subtitle = _tr("{0} — {1}").format(
        _plural(len(sheets), _tr("créature"), _tr("créatures")), ", ".join(systems) or _tr("aucun système")
    )
    blocks: list[Block] = [
        Title(title, subtitle),
        Table(columns, tuple(rows), zebra=True, style="small", row_lines=1.7),
        Space(8),
        Paragraph(
            _tr("« Agi » : à cocher quand la créature a joué son tour ; « Nouveau » : ses points après le round."),
            "small",
        ),
    ]
    return Printout(title, tuple(blocks))


# --------------------------------------------------------------------------------------------------
# Any document
# --------------------------------------------------------------------------------------------------


def document_printouts(
    document: PrintableDocument, *, gm_view: bool = False, with_journal: bool = False
) -> list[Printout]:
    """The printouts of a file's document: its sheet, or its table (a table is always the GM's view)."""
    if document.kind == "table":
        return [table_printout(document)]
    journals = list(document.journals) + [[]] * (len(document.sheets) - len(document.journals))
    return [
        sheet_printout(
            sheet,
            journal,
            gm_view=gm_view,
            with_journal=with_journal,
            rules_table=_house_table(document, sheet.system),
        )
        for sheet, journal in zip(document.sheets, journals, strict=False)
    ]


def _house_table(document: Any, system_id: str) -> Any:
    """The house-rule table ``system_id``'s sheets play by in ``document`` (issue 18), ``None`` if none."""
    return next((h.table for h in getattr(document, "house", ()) if h.system == system_id), None)


def blank_printouts(system_ids: Iterable[str]) -> list[Printout]:
    return [blank_printout(s) for s in system_ids]
