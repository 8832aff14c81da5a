"""French text of the interface that is not in the rule tables (constant tables, formatting helpers).

Constant tables hold their text in ``QT_TRANSLATE_NOOP`` so Qt's translation tools can collect them;
``tr_const`` translates at use time (the novelWriter ``constants.py`` pattern).
"""

from __future__ import annotations

import re
from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

CONTEXT = "Constant"
_INT = re.compile(r"[+-]?[0-9]{1,12}")


def tr_const(text: str) -> str:
    """Translate a text declared with ``QT_TRANSLATE_NOOP("Constant", …)``."""
    return QCoreApplication.translate(CONTEXT, text)


# Labels of derived values shared by several systems (names from the GLOSSARY); a system's own
# derived values without a label here are shown by their French explanation.
DERIVED_LABELS: dict[str, str] = {
    "current": QT_TRANSLATE_NOOP("Constant", "Points actuels"),
    "maximum": QT_TRANSLATE_NOOP("Constant", "Maximum effectif"),
    "temporary": QT_TRANSLATE_NOOP("Constant", "Points temporaires"),
    "state": QT_TRANSLATE_NOOP("Constant", "État de santé"),
    "roll_penalty": QT_TRANSLATE_NOOP("Constant", "Malus aux jets"),
    "nonlethal": QT_TRANSLATE_NOOP("Constant", "Dégâts non létaux"),
    "death_threshold": QT_TRANSLATE_NOOP("Constant", "Mort à"),
    "speed": QT_TRANSLATE_NOOP("Constant", "Déplacement"),
    "attack_modifier": QT_TRANSLATE_NOOP("Constant", "Modificateur d'attaque"),
    "ac_modifier": QT_TRANSLATE_NOOP("Constant", "Modificateur de CA"),
    "reflex_modifier": QT_TRANSLATE_NOOP("Constant", "Modificateur de Réflexes"),
    "turn_start": QT_TRANSLATE_NOOP("Constant", "Début du tour"),
    "dd_steps": QT_TRANSLATE_NOOP("Constant", "Paliers de difficulté"),
    "test_dd": QT_TRANSLATE_NOOP("Constant", "DD d'un test moyen"),
    "action_dice": QT_TRANSLATE_NOOP("Constant", "Dés d'action"),
    "massive_damage": QT_TRANSLATE_NOOP("Constant", "Dégâts massifs au-delà de"),
    "trauma": QT_TRANSLATE_NOOP("Constant", "Trauma"),
    "tenacity": QT_TRANSLATE_NOOP("Constant", "Ténacité"),
    "opposition": QT_TRANSLATE_NOOP("Constant", "Opposition de Ténacité"),
}

# Derived values shown elsewhere than in the list of derived values (bar, badge, panels).
DERIVED_SHOWN_ELSEWHERE = frozenset(
    {"current", "maximum", "temporary", "state", "conditions", "condition_reasons", "death_saves"}
)

# Labels of action fields for the forms built from an action's model (common names across systems).
ACTION_FIELD_LABELS: dict[str, str] = {
    "amount": QT_TRANSLATE_NOOP("Constant", "Montant (nombre ou dés)"),
    "hours": QT_TRANSLATE_NOOP("Constant", "Durée (heures)"),
    "interrupted": QT_TRANSLATE_NOOP("Constant", "Interrompu par une période d'activité"),
    "ate_and_drank": QT_TRANSLATE_NOOP("Constant", "A bu et mangé"),
    "dice": QT_TRANSLATE_NOOP("Constant", "Dés à dépenser"),
    "nonlethal": QT_TRANSLATE_NOOP("Constant", "Non létaux"),
    "damage_type": QT_TRANSLATE_NOOP("Constant", "Type de dégâts"),
    "hits": QT_TRANSLATE_NOOP("Constant", "Nombre de coups"),
    "critical": QT_TRANSLATE_NOOP("Constant", "Coup critique à l'attaque"),
    "adjacent": QT_TRANSLATE_NOOP("Constant", "Attaquant à 1,50 m ou moins"),
    "body_part": QT_TRANSLATE_NOOP("Constant", "Partie du corps touchée"),
    "spell_check": QT_TRANSLATE_NOOP("Constant", "Résultat du lanceur (sort)"),
    "save_halves": QT_TRANSLATE_NOOP("Constant", "JS réussi : dégâts réduits de moitié"),
    "single_attack": QT_TRANSLATE_NOOP("Constant", "Une seule attaque"),
    "magical": QT_TRANSLATE_NOOP("Constant", "Soins magiques (sort, potion)"),
    "replace": QT_TRANSLATE_NOOP("Constant", "Remplacer les points temporaires actuels"),
    "condition": QT_TRANSLATE_NOOP("Constant", "État"),
    "active": QT_TRANSLATE_NOOP("Constant", "Actif"),
    "method": QT_TRANSLATE_NOOP("Constant", "Méthode"),
    "modifier": QT_TRANSLATE_NOOP("Constant", "Modificateur"),
    "unit": QT_TRANSLATE_NOOP("Constant", "Unité"),
    "count": QT_TRANSLATE_NOOP("Constant", "Nombre"),
    "level": QT_TRANSLATE_NOOP("Constant", "Niveau"),
    "levels": QT_TRANSLATE_NOOP("Constant", "Niveaux"),
    "wound_type": QT_TRANSLATE_NOOP("Constant", "Type de blessure"),
    "severity": QT_TRANSLATE_NOOP("Constant", "Gravité"),
    "grade": QT_TRANSLATE_NOOP("Constant", "Gravité"),
    "bleeding": QT_TRANSLATE_NOOP("Constant", "Saigne"),
    "treated": QT_TRANSLATE_NOOP("Constant", "Traitée"),
    "note": QT_TRANSLATE_NOOP("Constant", "Note"),
    "scar": QT_TRANSLATE_NOOP("Constant", "Laisse une cicatrice"),
    "rolls": QT_TRANSLATE_NOOP("Constant", "Dés lancés à la main (facultatif)"),
    "action_points_lost": QT_TRANSLATE_NOOP("Constant", "PA maximum perdus avec le niveau"),
    "magic_lost": QT_TRANSLATE_NOOP("Constant", "PM maximum perdus"),
    "faith_lost": QT_TRANSLATE_NOOP("Constant", "PF maximum perdus"),
    "honour_lost": QT_TRANSLATE_NOOP("Constant", "PH maximum perdus"),
    "xp_minimum": QT_TRANSLATE_NOOP("Constant", "Expérience minimum du nouveau niveau"),
    "power": QT_TRANSLATE_NOOP("Constant", "Puissance"),
    "resistance": QT_TRANSLATE_NOOP("Constant", "Résistance"),
    "success_level": QT_TRANSLATE_NOOP("Constant", "Niveau de réussite"),
    "opposition": QT_TRANSLATE_NOOP("Constant", "Opposition"),
    "notches": QT_TRANSLATE_NOOP("Constant", "Crans"),
    "handicap": QT_TRANSLATE_NOOP("Constant", "Handicap"),
    "psychological": QT_TRANSLATE_NOOP("Constant", "Blessure psychologique"),
    "ability": QT_TRANSLATE_NOOP("Constant", "Caractéristique"),
    "points": QT_TRANSLATE_NOOP("Constant", "Points"),
    "include": QT_TRANSLATE_NOOP("Constant", "États à retirer aussi"),
    "wound_id": QT_TRANSLATE_NOOP("Constant", "Blessure"),
    "contributions": QT_TRANSLATE_NOOP("Constant", "Contributions"),
    "steps": QT_TRANSLATE_NOOP("Constant", "Degrés de fatigue"),
    "segments": QT_TRANSLATE_NOOP("Constant", "Segments de surprise"),
    "metres": QT_TRANSLATE_NOOP("Constant", "Hauteur de la chute (m)"),
    "agility_dd": QT_TRANSLATE_NOOP("Constant", "DD du jet d'Agilité"),
    "agility_success": QT_TRANSLATE_NOOP("Constant", "Jet d'Agilité réussi"),
    "exposure": QT_TRANSLATE_NOOP("Constant", "Exposition"),
    "save_dd": QT_TRANSLATE_NOOP("Constant", "DD du jet de sauvegarde"),
    "need": QT_TRANSLATE_NOOP("Constant", "Besoin"),
    "margin": QT_TRANSLATE_NOOP("Constant", "Différence d'Opposition"),
    "damage_modifier": QT_TRANSLATE_NOOP("Constant", "Modificateur de dégâts"),
    "vital_modifier": QT_TRANSLATE_NOOP("Constant", "Modificateur de zone vitale"),
    "handicap_penalty": QT_TRANSLATE_NOOP("Constant", "Malus du Handicap"),
    "tenacity_test": QT_TRANSLATE_NOOP("Constant", "Défi de Ténacité tout de suite"),
    "treatment": QT_TRANSLATE_NOOP("Constant", "Traitement"),
    "diagnosis": QT_TRANSLATE_NOOP("Constant", "Diagnostic"),
    "penalty": QT_TRANSLATE_NOOP("Constant", "Malus"),
    "duration": QT_TRANSLATE_NOOP("Constant", "Durée"),
    "until_conflict_end": QT_TRANSLATE_NOOP("Constant", "Jusqu'à la fin du Conflit"),
}

# Notices for the events an outcome reports ("{name}" is the character's name).
EVENT_NOTICES: dict[str, str] = {
    "critical": QT_TRANSLATE_NOOP("Constant", "Coup critique : tirez sur la table des coups critiques."),
    "massive_damage": QT_TRANSLATE_NOOP("Constant", "Dégâts massifs subis par {name}."),
    "fell": QT_TRANSLATE_NOOP("Constant", "{name} tombe à terre, hors de combat."),
    "unconscious": QT_TRANSLATE_NOOP("Constant", "{name} perd connaissance."),
    "stabilised": QT_TRANSLATE_NOOP("Constant", "{name} ne perd plus de points : stabilisation réussie."),
    "died": QT_TRANSLATE_NOOP("Constant", "Mort de {name}."),
    "bleeding": QT_TRANSLATE_NOOP("Constant", "Une blessure de {name} saigne."),
    "heroic_survival": QT_TRANSLATE_NOOP("Constant", "{name} survit, avec de graves blessures."),
}

# Events that are bad news (shown as warnings rather than information).
GRAVE_EVENTS = frozenset({"died", "unconscious", "massive_damage", "fell", "bleeding", "critical"})


def fmt_number(value: int) -> str:
    """Integers with the typographic minus sign, as French sheets print them."""
    return f"−{-value}" if value < 0 else str(value)


def fmt_signed(value: int) -> str:
    return f"+{value}" if value >= 0 else f"−{-value}"


def fmt_value(value: Any) -> str:
    """A derived value for display (numbers with the typographic minus, yes/no in French)."""
    if isinstance(value, bool):
        return (
            tr_const(QT_TRANSLATE_NOOP("Constant", "oui")) if value else tr_const(QT_TRANSLATE_NOOP("Constant", "non"))
        )
    if isinstance(value, int):
        return fmt_number(value)
    if isinstance(value, (tuple, list)):
        return ", ".join(fmt_value(v) for v in value) or "—"
    return str(value)


def parse_int(text: str) -> int | None:
    """``"−3"``, ``"-3"``, ``" 12 "`` → int; anything else → ``None`` (the caller says why in French)."""
    cleaned = text.strip().replace("−", "-").replace("\u202f", "").replace("\xa0", "").replace(" ", "")
    if not _INT.fullmatch(cleaned):
        return None
    return int(cleaned)
