"""French labels of actions for buttons (the systems' own titles name a done action, not a command)."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP

import rules
from ui.common.forms import action_label, user_fields
from ui.common.texts import tr_const

# Button labels of actions by kind (systems' own titles describe a done action, not a command).
ACTION_LABELS: dict[str, str] = {
    "death_save": QT_TRANSLATE_NOOP("Constant", "Jet contre la &mort"),
    "wake_save": QT_TRANSLATE_NOOP("Constant", "&JS pour se réveiller"),
    "stabilise": QT_TRANSLATE_NOOP("Constant", "Sta&biliser"),
    "heroic_survival": QT_TRANSLATE_NOOP("Constant", "Survie &héroïque…"),
    "add_exhaustion": QT_TRANSLATE_NOOP("Constant", "Épuisement + ou −…"),
    "lose_temporary": QT_TRANSLATE_NOOP("Constant", "Fin des points temporaires"),
    "spend_action_die": QT_TRANSLATE_NOOP("Constant", "Dé&penser un dé d'action"),
    "strike": QT_TRANSLATE_NOOP("Constant", "Attaque reçue (Puissance contre Résistance)…"),
    "tenacity_test": QT_TRANSLATE_NOOP("Constant", "Défi de Ténacité…"),
    "supernatural_healing": QT_TRANSLATE_NOOP("Constant", "Soins surnaturels…"),
    "end_conflict": QT_TRANSLATE_NOOP("Constant", "Fin du Conflit"),
    "ability_damage": QT_TRANSLATE_NOOP("Constant", "Affaiblir une caractéristique…"),
    "restore_ability": QT_TRANSLATE_NOOP("Constant", "Restaurer une caractéristique…"),
    "resurrection": QT_TRANSLATE_NOOP("Constant", "Résurrection…"),
    "strenuous_action": QT_TRANSLATE_NOOP("Constant", "Action simple hors de combat…"),
    "set_surprise": QT_TRANSLATE_NOOP("Constant", "Surprise…"),
    "add_fatigue": QT_TRANSLATE_NOOP("Constant", "Se fatiguer…"),
    "set_handicap": QT_TRANSLATE_NOOP("Constant", "&Handicap…"),
    "treat_wound": QT_TRANSLATE_NOOP("Constant", "&Traiter…"),
    "diagnose_wound": QT_TRANSLATE_NOOP("Constant", "Dia&gnostic…"),
    "worsening_risk": QT_TRANSLATE_NOOP("Constant", "Ris&que d'aggravation…"),
    "erase_wound": QT_TRANSLATE_NOOP("Constant", "Effacer"),
    "heal_local_wound": QT_TRANSLATE_NOOP("Constant", "&Guérie"),
    "add_local_wound": QT_TRANSLATE_NOOP("Constant", "&Ajouter une blessure…"),
    "heal_wound": QT_TRANSLATE_NOOP("Constant", "&Guérir…"),
    "wound_risk": QT_TRANSLATE_NOOP("Constant", "Mouvement br&usque"),
    "remove_wound": QT_TRANSLATE_NOOP("Constant", "Retirer"),
}

# Tooltips of some of those buttons.
ACTION_TIPS: dict[str, str] = {
    "heal_wound": QT_TRANSLATE_NOOP("Constant", "Magie ou herbes spéciales : la blessure guérit aussitôt."),
    "wound_risk": QT_TRANSLATE_NOOP(
        "Constant", "Un mouvement brusque avec une plaie : JS de Constitution, la plaie s'ouvre en cas d'échec."
    ),
    "remove_wound": QT_TRANSLATE_NOOP("Constant", "Retirer une blessure notée par erreur (sans cicatrice)."),
    "erase_wound": QT_TRANSLATE_NOOP("Constant", "Retirer une blessure notée par erreur."),
    "heal_local_wound": QT_TRANSLATE_NOOP("Constant", "La blessure localisée est guérie (ou notée par erreur)."),
}

LONGEST_LABEL = 38


def kind_of(action_type: type[rules.Action]) -> str:
    field = action_type.model_fields.get("kind")
    return str(field.default) if field is not None else action_type.__name__


def listed_label(action_type: type[rules.Action], info: rules.SystemInfo | None) -> str:
    """A label the system gives the action in its ``extra`` lists of (action type, label) pairs."""
    if info is None:
        return ""
    for value in info.extra.values():
        if isinstance(value, tuple):
            for item in value:
                if isinstance(item, tuple) and len(item) == 2 and item[0] is action_type and isinstance(item[1], str):
                    return item[1]
    return ""


def button_tip(action_type: type[rules.Action]) -> str:
    kind = kind_of(action_type)
    return tr_const(ACTION_TIPS[kind]) if kind in ACTION_TIPS else ""


def adds_wound(action_type: type[rules.Action], info: rules.SystemInfo) -> bool:
    """An action that records a new wound (a type or grade to choose, or listed by the system as such)."""
    if "wound_id" in action_type.model_fields:
        return False
    fields = action_type.model_fields
    listed = action_type in tuple(info.extra.get("local_wound_actions", ()) or ())
    return "wound_type" in fields or "grade" in fields or listed


def button_label(action_type: type[rules.Action], info: rules.SystemInfo | None = None) -> str:
    """The button text of an action: our table, the system's own list, or its title."""
    kind = kind_of(action_type)
    if kind in ACTION_LABELS:
        return tr_const(ACTION_LABELS[kind])
    label = listed_label(action_type, info) or action_label(action_type)
    return label + ("…" if user_fields(action_type) and not label.endswith("…") else "")
