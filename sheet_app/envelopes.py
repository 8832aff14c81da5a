"""The envelope models of the file format (format 1): what a sheet's or a GM table's file holds around its
sheets, validated by pydantic. The sheet itself is validated by the rules facade.

Imported when first used (``sheet_app.files`` names them lazily: ``files.SheetFile``…): the wording reader,
the JSON Schema of the files (``files.json_schema``) and the tests need them; the fast reader, which opens a
well-formed file (every start that opens a sheet), checks the envelope by hand and never does (issue 15).
The autosave store's wrapper (``_AutosaveFile``, ``sheet_app.autosave``) is here too, for the same reason: a
start whose store is empty reads no autosave, and its class was ~3.9 M instructions to make at every start.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, Strict, model_validator

from sheet_app.autosave import AUTOSAVE_FORMAT
from sheet_app.files import (
    FORMAT_VERSION,
    MAX_INITIATIVE,
    MAX_JOURNAL_LINE,
    MAX_JOURNAL_LINES,
    MAX_NOTE,
    MAX_ROUND,
    MAX_TABLE_SHEETS,
    MAX_TITLE,
    _no_entries,
    _no_items,
)

# Built when first used (``defer_build``).
_ENVELOPE_CONFIG = ConfigDict(extra="forbid", frozen=True, defer_build=True)

JournalLine = Annotated[str, Field(max_length=MAX_JOURNAL_LINE)]
Journal = Annotated[list[JournalLine], Field(max_length=MAX_JOURNAL_LINES)]
Version = Annotated[str, Field(max_length=40)]


class HouseEntry(BaseModel):
    """Les règles maison d'un système, embarquées dans le document (la table entière, validée comme un
    fichier de règles maison)."""

    model_config = _ENVELOPE_CONFIG

    title: str = Field("", max_length=200, description="Le nom de ces règles maison.")
    table: dict[str, Any] = Field(description="La table de règles du système, modifiée par le meneur.")


class _Envelope(BaseModel):
    model_config = _ENVELOPE_CONFIG

    # Strict: ``1.0`` or ``true`` are not a format number.
    format: Annotated[int, Strict(), Field(ge=FORMAT_VERSION, le=FORMAT_VERSION)] = Field(
        description="Version du format de fichier.", json_schema_extra={"const": FORMAT_VERSION}
    )
    app: Version = Field("", description="Version de sheet_app qui a écrit le fichier (information).")
    needs: Version = Field("", description="Plus ancienne version de sheet_app qui sait lire ce format.")
    house: dict[Annotated[str, Field(max_length=40)], HouseEntry] = Field(
        default_factory=_no_entries,
        max_length=10,
        description="Règles maison du document, par système : leur titre et leur table (voir docs/house-rules.md).",
    )


class SheetFile(_Envelope):
    """Une fiche de personnage : un fichier ``.fiche.json``."""

    kind: Literal["sheet"] = Field(description="« sheet » : une fiche.")
    system: str = Field(max_length=40, description="Identifiant du système de règles (douaratil, d20…).")
    sheet: dict[str, Any] = Field(description="La fiche, telle que le cœur des règles la décrit.")
    journal: Journal = Field(default_factory=_no_items, description="Le journal de la fiche, une ligne par entrée.")


class TableRow(BaseModel):
    """Ce que la table note d'une fiche en plus de la fiche elle-même."""

    model_config = _ENVELOPE_CONFIG

    # Strict (as every number of a file): ``true`` or ``3.0`` are no initiative.
    initiative: Annotated[int, Strict()] | None = Field(
        None, ge=-MAX_INITIATIVE, le=MAX_INITIATIVE, description="Initiative (ou rien)."
    )
    note: str = Field("", max_length=MAX_NOTE, description="Note libre du meneur.")


class TableFile(_Envelope):
    """Une table de meneur : plusieurs fiches (PJ, PNJ, monstres) dans un fichier ``.table.json``."""

    kind: Literal["table"] = Field(description="« table » : une table de meneur.")
    title: str = Field("", max_length=MAX_TITLE, description="Titre de la table (la séance, la rencontre…).")
    systems: list[Annotated[str, Field(max_length=40)]] = Field(
        default_factory=_no_items, max_length=100, description="Systèmes de règles des fiches (information)."
    )
    sheets: list[dict[str, Any]] = Field(max_length=MAX_TABLE_SHEETS, description="Les fiches, dans l'ordre.")
    journals: list[Journal] = Field(
        default_factory=_no_items,
        max_length=MAX_TABLE_SHEETS,
        description="Le journal de chaque fiche, dans le même ordre (peut être plus court : journaux vides).",
    )
    rows: list[TableRow] = Field(
        default_factory=_no_items,
        max_length=MAX_TABLE_SHEETS,
        description="Initiative et note de chaque fiche, dans le même ordre (peut être plus court).",
    )
    round: Annotated[int, Strict()] = Field(
        0, ge=0, le=MAX_ROUND, description="Round du combat en cours (0 : pas de combat)."
    )
    turn: Annotated[int, Strict()] | None = Field(
        None, ge=0, lt=MAX_TABLE_SHEETS, description="N° (à partir de 0) de la fiche dont c'est le tour."
    )
    started: list[Annotated[int, Strict(), Field(ge=0, lt=MAX_TABLE_SHEETS)]] = Field(
        default_factory=_no_items,
        max_length=MAX_TABLE_SHEETS,
        description="N° (à partir de 0) des fiches dont le tour a commencé dans ce round.",
    )
    journal: Journal = Field(default_factory=_no_items, description="Le journal de la table, une ligne par entrée.")


_ENVELOPES: dict[str, type[_Envelope]] = {"sheet": SheetFile, "table": TableFile}


# --- the autosave store's files (``sheet_app.autosave``): the document with what it is a copy of ---


class _AutosaveFile(BaseModel):
    # Built when an autosave is first read (never, at most starts: the store is empty; this module is not
    # even imported then).
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    format: Annotated[int, Strict(), Field(ge=AUTOSAVE_FORMAT, le=AUTOSAVE_FORMAT)]
    kind: Literal["autosave"]
    app: str = Field("", max_length=40)
    saved_at_ns: Annotated[int, Strict(), Field(ge=0)]
    saved_at: str = Field("", max_length=60)
    # No pydantic length constraint here: it refuses a file name that is not UTF-8 (its surrogate
    # escapes), which is a real file name all the same; the length is checked below.
    source: str | None = None
    source_sha256: str = Field("", pattern=r"^([0-9a-f]{64})?$")
    title: str = Field("", max_length=400)
    session: str = Field("", max_length=64)
    pid: int = 0
    document: dict[str, Any]

    @model_validator(mode="after")
    def _short_source(self) -> _AutosaveFile:
        if self.source is not None and len(self.source) > 4096:
            raise ValueError("source trop long")
        return self
