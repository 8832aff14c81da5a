"""d20 sheet checks that need the rule table, and the journal line of an ``Edit`` in the sheet's words.

``check_sheet`` takes the table it checks against (the shipped one, or a GM's copy): unknown ids of
states and body parts, PV above the maximum the table gives, and fields that contradict each other.
The facade runs it when a sheet is read or made and after every ``Edit``; every action keeps it true
(tests/rules/test_d20_properties.py).
"""

from __future__ import annotations

from typing import Any

from rules.model import fmt_int
from rules.systems.d20.derive import maximum, state_id
from rules.systems.d20.sheet import RECOVERY_LABELS, SHEET_LABELS, D20Sheet
from rules.systems.d20.table import D20Rules

Problem = tuple[tuple[str | int, ...], str]
TIMERS = ("dying_roll_at", "recovery_roll_at", "nonlethal_heal_at")
CLOCK_FIELDS = ("clock", *TIMERS, "last_rest_at")


def check_sheet(sheet: D20Sheet, rs: D20Rules) -> list[Problem]:
    """What is wrong with ``sheet`` under the rule table ``rs``: (location, French text) pairs."""
    problems: list[Problem] = []
    for i, cid in enumerate(sheet.conditions):
        rule = rs.conditions.get(cid)
        if rule is None:
            known = ", ".join(r.label for r in rs.conditions.values() if r.settable)
            problems.append((("conditions", i), f"état inconnu « {cid} » (états à poser : {known})"))
        elif not rule.settable:
            problems.append(
                (("conditions", i), f"l'état {rule.label} découle des points de vie : on ne le pose pas à la main")
            )
    for i, wound in enumerate(sheet.wounds):
        if wound.body_part not in rs.body_parts:
            known = ", ".join(rs.body_parts.values())
            problems.append(
                (("wounds", i, "body_part"), f"partie du corps inconnue « {wound.body_part} » (attendu : {known})")
            )
    top = maximum(sheet, rs)
    if sheet.current > top:
        problems.append((("current",), f"les PV ({fmt_int(sheet.current)}) dépassent le maximum ({top})"))
    if sheet.dead:
        if sheet.recovery:
            problems.append((("recovery",), "une récupération est notée alors que le personnage a perdu la vie"))
        for name in TIMERS:
            if getattr(sheet, name) is not None:
                problems.append(((name,), f"« {SHEET_LABELS[name]} » est noté alors que le personnage a perdu la vie"))
    else:
        for name, what in (
            ("death_cause", "une cause de la mort est notée"),
            ("soul_lost", "l'âme est notée perdue"),
            ("quick_blocked", "la résurrection rapide est notée interdite"),
        ):
            if getattr(sheet, name):
                problems.append(((name,), f"{what} alors que « Mort » n'est pas coché"))
    if sheet.recovery and sheet.current >= rs.thresholds.disabled_at:
        problems.append(
            (
                ("recovery",),
                f"une récupération ({RECOVERY_LABELS[sheet.recovery]}) est notée avec des PV à "
                f"{fmt_int(rs.thresholds.disabled_at)} ou plus",
            )
        )
    if sheet.dying_roll_at is not None and not sheet.dead and state_id(sheet, rs, "") != "mourant":
        problems.append((("dying_roll_at",), "un jet du mourant est prévu alors que l'état n'est pas Mourant"))
    if sheet.recovery_roll_at is not None and not sheet.dead and sheet.recovery in ("", "awake"):
        problems.append((("recovery_roll_at",), "un jet de récupération est prévu sans récupération en cours"))
    if sheet.nonlethal_heal_at is not None and not sheet.dead and sheet.nonlethal == 0:
        problems.append((("nonlethal_heal_at",), "une récupération de dégâts non létaux est prévue sans dégâts"))
    if sheet.temporary_noted is not None and sheet.temporary == 0:
        problems.append((("temporary_noted",), "des PV sont notés sans PV temporaires"))
    for name in TIMERS:
        at = getattr(sheet, name)
        if at is not None and at < sheet.clock:
            problems.append(((name,), f"« {SHEET_LABELS[name]} » est avant l'horloge de la fiche"))
    if sheet.last_rest_at is not None and sheet.last_rest_at > sheet.clock:
        problems.append((("last_rest_at",), "la dernière guérison naturelle est après l'horloge de la fiche"))
    return problems


def edit_line(field: str, before: Any, after: Any, rs: D20Rules) -> str:
    """« PV maximum : 30 → 20. », « Récupération : stabilisation sans assistance… → — . »: the sheet's words."""
    return f"{SHEET_LABELS.get(field, field)} : {show_value(field, before, rs)} → {show_value(field, after, rs)}."


def show_value(field: str, value: Any, rs: D20Rules) -> str:
    """A stored value as the sheet shows it: labels for ids, « oui »/« non », dates of the sheet's clock."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "oui" if value else "non"
    if field in CLOCK_FIELDS and isinstance(value, int):
        return clock_text(value, rs)
    if isinstance(value, int):
        return fmt_int(value)
    if field == "recovery":
        return RECOVERY_LABELS.get(value, "") or "aucune"
    if field == "conditions":
        return ", ".join(rs.conditions[c].label if c in rs.conditions else "état inconnu" for c in value) or "aucun"
    if field == "wounds":
        shown = []
        for wound in value:
            part = rs.body_parts.get(wound.body_part, "partie du corps inconnue")
            shown.append(f"n° {wound.id} {part}" + (f" (« {wound.note} »)" if wound.note else ""))
        return " ; ".join(shown) or "aucune"
    if isinstance(value, str):
        return f"« {value} »" if value else "(vide)"
    return "—"


def clock_text(seconds: int, rs: D20Rules) -> str:
    """The sheet's clock as a day and an hour: « jour 2, 8 h 00 » (day 1 starts at 0)."""
    day = rs.time_units["day"]
    hour = rs.time_units["hour"]
    minute = rs.time_units.get("minute", 60)
    d, rest = divmod(seconds, day)
    h, rest = divmod(rest, hour)
    m, s = divmod(rest, minute)
    text = f"jour {d + 1}, {h} h {m:02d}"
    return text + (f" min {s:02d} s" if s else "")
