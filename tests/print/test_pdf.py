"""Printed PDFs read back with poppler: what a player or a GM finds on paper, and that nothing is cut."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import pytest

import rules
from sheet_app import files
from tests.print.conftest import MM, TODAY_TEXT, Pdf, overlapping
from ui.printing import layout, render

MakePdf = Callable[..., Pdf]


def fmt(value: int) -> str:
    return f"−{-value}" if value < 0 else str(value)


def played(system_id: str) -> Any:
    """The demo sheet of ``system_id`` after a fight: hit, wounded, a condition or two (seeded dice)."""
    rng = random.Random(11)
    sheet = rules.demo_sheet(system_id)
    steps: dict[str, list[rules.Action]] = {
        "douaratil": [
            rules.Damage(amount=5),
            rules.AddWound(wound_type="plaie", severity="major", bleeding=True, note="Flèche dans l'épaule"),
            rules.AddWound(wound_type="contusion", note="Chute de cheval"),
            rules.SetExhaustion(level=2),
            rules.SetCondition(condition="empoisonne"),
        ],
        "d20": [rules.Damage(amount=4), rules.AddLocalWound(body_part="oeil_gauche", note="Éclat de verre")],
        "segments": [rules.Damage(amount=6, damage_type="tranchant"), rules.SetCondition(condition="aveugle")],
        "severite": [
            rules.InflictWound(grade="legere", body_part="tete", damage_type="ecrasant", note="Coup de pommeau")
        ],
    }
    for action in steps[system_id]:
        sheet = rules.apply(sheet, action, rng=rng).sheet
    return sheet


def has(text: str, needle: str) -> bool:
    """``needle`` in ``text``, white space aside (a line may end in the middle of « coupe-jarret »)."""
    return "".join(needle.split()) in "".join(text.split())


def assert_clean(doc: Pdf) -> None:
    """Every word inside the page's margins, the body above the footer rule, no two words on each other."""
    left, right = 13 * MM - 0.5, doc.width - 13 * MM + 0.5
    top, bottom = 12 * MM - 0.5, doc.height - 10 * MM + 0.5
    for word in doc.words:
        assert left <= word.x0 and word.x1 <= right, f"hors marge (largeur) : {word}"
        assert top <= word.y0 and word.y1 <= bottom, f"hors marge (hauteur) : {word}"
    # The footer is the last line of each page: the body never reaches it.
    for page in range(len(doc.pages)):
        words = [w for w in doc.words if w.page == page]
        footer_top = max(w.y0 for w in words) - 0.5  # the footer is the lowest line
        footer = [w for w in words if w.y0 >= footer_top]
        assert [w.text for w in footer][-4::2] == ["page", "sur"], "the lowest line is the footer"
        body = [w for w in words if w.y0 < footer_top]
        assert all(w.y1 <= footer_top - 3 for w in body), "le texte touche le pied de page"
    assert overlapping(doc.words) == [], "des mots se chevauchent"


def assert_footers(doc: Pdf, names: list[str]) -> None:
    """Each page ends with its document's name, the date and « page n sur m » (numbered per document)."""
    assert len(doc.pages) == len(names)
    counts: dict[str, int] = {}
    for name in names:
        counts[name] = counts.get(name, 0) + 1
    seen: dict[str, int] = {}
    for page, name in enumerate(names):
        seen[name] = seen.get(name, 0) + 1
        last = [line for line in doc.pages[page].splitlines() if line.strip()][-1]
        assert last.split()[: len(name.split())] == name.split(), last
        assert TODAY_TEXT in last
        assert last.rstrip().endswith(f"page {seen[name]} sur {counts[name]}"), last


@pytest.mark.parametrize("system_id", rules.SYSTEMS)
def test_a_filled_sheet_prints_its_name_points_state_states_and_wounds_on_one_page(
    pdf: MakePdf, system_id: str
) -> None:
    sheet = played(system_id)
    info = rules.describe(system_id)
    derived = rules.derive(sheet)
    doc = pdf([layout.sheet_printout(sheet, gm_view=True)])
    text = doc.flat()
    assert len(doc.pages) == 1
    assert sheet.name in text and info.label in text
    assert f"{fmt(derived.current)} / {fmt(derived.maximum)}" in text
    assert info.state(derived.state).label in text
    labels = {c.id: c.label for c in info.conditions}
    assert derived.conditions, "the scenario sets a condition"
    for condition in derived.conditions:
        assert labels[condition] in text
    if {"wounds", "local_wounds"} & info.features:
        wounds = sheet.wounds
        assert wounds, "the scenario wounds the character"
        assert f"Blessures ({len(wounds)})" in text
        for wound in wounds:
            assert has(text, wound.note)
    for ladder in info.ladders:
        level = getattr(sheet, ladder.field)
        effect = next(lv.effect for lv in ladder.levels if lv.level == level)
        assert " ".join(effect.split()) in text
    assert_footers(doc, [sheet.name])
    assert_clean(doc)


@pytest.mark.parametrize("system_id", rules.SYSTEMS)
def test_a_shipped_demo_file_prints_on_one_page(pdf: MakePdf, system_id: str) -> None:
    from sheet_app.settings import examples_dir

    document, _stamp = files.read_document(examples_dir() / f"{system_id}.fiche.json")
    doc = pdf(layout.document_printouts(document))
    assert len(doc.pages) == 1
    assert document.sheets[0].name in doc.flat()
    assert_clean(doc)


def test_the_douaratil_blank_sheet_has_the_death_save_boxes_the_ladder_and_the_healing_table(pdf: MakePdf) -> None:
    info = rules.describe("douaratil")
    table = rules.ruleset("douaratil")
    doc = pdf([layout.blank_printout("douaratil")])
    sheet_page, reference = doc.flat(0), doc.flat(1)
    assert len(doc.pages) == 2, "the sheet on one page, its rule reminder on the next"
    assert "Jets contre la mort" in sheet_page and "succès" in sheet_page and "échecs" in sheet_page
    for condition in info.conditions:
        assert condition.label in sheet_page
    (ladder,) = info.ladders
    for level in ladder.levels:
        assert level.label in sheet_page and " ".join(level.effect.split()) in sheet_page
    for _pool_id, label in info.extra["pools"]:
        assert label[:1].upper() + label[1:] in sheet_page
    assert "Notes" in sheet_page and reference.startswith("Aide-mémoire — Douaratil")
    for wound in table.wounds.values():
        assert wound.label in reference
        assert f"{wound.days} repos long" in reference
        assert " ".join(wound.limitation.split()) in reference
    for condition in info.conditions:
        assert " ".join(condition.effects[0].split())[:40] in reference
    assert_footers(doc, ["Fiche vierge Douaratil"] * 2)
    assert_clean(doc)


def test_the_severite_blank_sheet_prints_the_trauma_gauge_tiers(pdf: MakePdf) -> None:
    trauma = rules.describe("severite").extra["trauma"]
    doc = pdf([layout.blank_printout("severite")])
    page = doc.flat(0)
    for tier in trauma["tiers"]:
        caption = tier["label"] + (f" ({tier['opposition']})" if tier["opposition"] is not None else "")
        assert caption in page
    assert f"au-delà : {trauma['beyond']['label']} ({trauma['beyond']['opposition']})" in page
    for choice in rules.describe("severite").extra["treatment_choices"]:
        assert choice[1] in page
    assert_clean(doc)


def test_the_segments_blank_sheet_prints_each_state_with_its_threshold(pdf: MakePdf) -> None:
    info = rules.describe("segments")
    doc = pdf([layout.blank_printout("segments")])
    page = doc.flat(0)
    for state in info.health_states:
        assert state.label in page
        assert " ".join(info.extra["health_state_notes"][state.id].split()) in page
    (ladder,) = info.ladders
    for level in ladder.levels:
        assert " ".join(level.effect.split()) in page
    assert_clean(doc)


@pytest.mark.parametrize("system_id", rules.SYSTEMS)
def test_each_blank_sheet_fits_its_first_page_and_is_clean(pdf: MakePdf, system_id: str) -> None:
    info = rules.describe(system_id)
    doc = pdf([layout.blank_printout(system_id)])
    first = doc.flat(0)
    assert "Fiche vierge — à remplir au crayon" in first and "Nom :" in first
    for condition in info.conditions:
        assert condition.label in first
    names = {f.name for f in info.fields}
    for field in info.fields:
        if field.name in ("name", "notes") or field.kind == "longtext":
            continue
        base = next((n for n in names if field.name.startswith(n + "_")), None)
        # « Affaiblissement de Force » is the « Affaiblissement » column of the Force row.
        label = field.label.split(" de ")[0].split(" d'")[0] if base else field.label
        assert has(first, label), field.label
    assert "Aide-mémoire" not in first or len(doc.pages) == 1
    assert len(doc.pages) == 2
    assert_clean(doc)


def gm_table(count: int = 12) -> files.Document:
    rng = random.Random(4)
    sheets = []
    for i in range(count):
        system_id = rules.SYSTEMS[i % len(rules.SYSTEMS)]
        sheet = rules.evolve(rules.demo_sheet(system_id), name=f"Brigand n° {i + 1}", is_npc=True)
        sheet = rules.apply(sheet, rules.Damage(amount=rng.randint(1, 9)), rng=rng).sheet
        sheets.append(sheet)
    return files.Document("table", sheets, [], "Embuscade au gué")


def test_a_gm_table_of_a_dozen_creatures_prints_one_line_each_on_one_page(pdf: MakePdf) -> None:
    document = gm_table(12)
    doc = pdf(layout.document_printouts(document))
    text = doc.flat()
    assert len(doc.pages) == 1
    assert "Embuscade au gué" in text and "12 créatures" in text
    for sheet in document.sheets:
        info = rules.describe(sheet.system)
        derived = rules.derive(sheet)
        assert sheet.name in text
        assert f"{info.points_short} {fmt(derived.current)} / {fmt(derived.maximum)}" in text
        assert info.state(derived.state).label in text
    # One line per creature, in the table's order.
    positions = [text.index(f"{s.name} ") for s in document.sheets]
    assert positions == sorted(positions)
    assert_footers(doc, ["Embuscade au gué"])
    assert_clean(doc)


def test_a_long_table_repeats_its_header_on_each_page(pdf: MakePdf) -> None:
    document = gm_table(60)
    doc = pdf(layout.document_printouts(document))
    assert len(doc.pages) > 2
    for page in range(len(doc.pages)):
        assert "Créature" in doc.pages[page] and "Blessures" in doc.pages[page]
    text = doc.flat()
    for sheet in document.sheets:
        assert text.count(f"{sheet.name} ") == 1
    assert_clean(doc)


def test_forty_wounds_and_a_300_line_note_print_whole_over_numbered_pages(pdf: MakePdf) -> None:
    rng = random.Random(2)
    sheet = rules.demo_sheet("douaratil")
    kinds = [c.id for c in rules.describe("douaratil").wound_types]
    for i in range(40):
        action = rules.AddWound(wound_type=kinds[i % len(kinds)], note=f"entaille numéro {i + 1} relevée")
        sheet = rules.apply(sheet, action, rng=rng).sheet
    note = "\n".join(f"Ligne {i + 1} de la note : le voyage continue vers le nord." for i in range(300))
    sheet = rules.evolve(sheet, notes=note)
    doc = pdf([layout.sheet_printout(sheet)])
    text = doc.flat()
    for i in range(40):
        assert text.count(f"entaille numéro {i + 1} relevée") == 1
    lines = [" ".join(line.split()) for page in doc.pages for line in page.splitlines()]
    for i in range(300):
        assert lines.count(f"Ligne {i + 1} de la note : le voyage continue vers le nord.") == 1, i + 1
    # In order, across the pages.
    order = [text.index(f"Ligne {i + 1} de la note") for i in range(300)]
    assert order == sorted(order)
    assert len(doc.pages) >= 6
    assert_footers(doc, [sheet.name] * len(doc.pages))
    assert_clean(doc)


def test_letter_paper_is_letter_sized_and_the_sheet_still_fits(pdf: MakePdf) -> None:
    sheet = played("d20")
    doc = pdf([layout.sheet_printout(sheet)], page="letter")
    assert "(letter)" in doc.size_label and round(doc.width) == 612 and round(doc.height) == 792
    assert len(doc.pages) == 1
    assert_clean(doc)


def test_several_documents_each_start_on_a_new_page(pdf: MakePdf) -> None:
    sheets = [played(s) for s in rules.SYSTEMS]
    printouts = [layout.sheet_printout(s) for s in sheets] + layout.document_printouts(gm_table(3))
    printouts.append(layout.blank_printout("d20"))
    doc = pdf(printouts)
    names = [s.name for s in sheets] + ["Embuscade au gué", "Fiche vierge d20", "Fiche vierge d20"]
    assert_footers(doc, names)
    for page, sheet in enumerate(sheets):
        assert doc.pages[page].lstrip().startswith(sheet.name)


def test_text_from_a_file_is_printed_as_text_never_as_markup(pdf: MakePdf) -> None:
    name = "<b>Zoé</b> & Cie"
    sheet = rules.evolve(played("douaratil"), name=name, notes="<i>pas d'italique</i> &amp; <table>")
    doc = pdf([layout.sheet_printout(sheet)])
    text = doc.flat()
    assert name in text
    assert "<i>pas d'italique</i> &amp; <table>" in text


def test_words_are_searchable_without_ligatures_and_accents_survive(pdf: MakePdf) -> None:
    doc = pdf([layout.blank_printout("segments")])
    text = doc.flat()
    assert "\ufb01" not in text and "\ufb02" not in text  # no « ﬁ » / « ﬂ » ligature glyphs
    assert "Fiche vierge" in text and "Réflexes" in text and "Ouïe" in doc.flat(1)


def test_the_player_view_keeps_what_the_rules_hide_and_the_gm_view_prints_it(pdf: MakePdf) -> None:
    sheet = rules.apply(rules.demo_sheet("segments"), rules.SetCondition(condition="engourdi")).sheet
    derived = rules.derive(sheet)
    assert "current" in derived.hidden
    points = f"{fmt(derived.current)} / {fmt(derived.maximum)}"
    player = pdf([layout.sheet_printout(sheet)]).flat()
    gm = pdf([layout.sheet_printout(sheet, gm_view=True)]).flat()
    assert points not in player and "caché (meneur)" in player
    assert points in gm


def test_the_journal_is_printed_on_request_without_gm_lines_in_the_player_view(pdf: MakePdf) -> None:
    journal = ["Dégâts 5 : 14 → 9 PA.", rules.SECRET_MARK + "PV réels : 3."]
    sheet = played("douaratil")
    plain = pdf([layout.sheet_printout(sheet, journal)]).flat()
    player = pdf([layout.sheet_printout(sheet, journal, with_journal=True)]).flat()
    gm = pdf([layout.sheet_printout(sheet, journal, with_journal=True, gm_view=True)]).flat()
    assert "Dégâts 5 : 14 → 9 PA." not in plain
    assert "Dégâts 5 : 14 → 9 PA." in player and "PV réels" not in player
    assert "[MJ] PV réels : 3." in gm


def test_a_sheet_page_is_small_vector_text(pdf: MakePdf) -> None:
    """Real text and lines, not a picture of widgets: one sheet page weighs well under 100 KB."""
    sheet = played("severite")
    data, pages = render.pdf_bytes([layout.sheet_printout(sheet)])
    assert pages == 1
    assert len(data) < 100_000
    assert b"/Subtype /Image" not in data and b"/Subtype/Image" not in data
    assert re.search(rb"/FontFile2|/FontFile3|/FontFile", data)
