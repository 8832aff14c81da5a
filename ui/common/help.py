"""A short French guide in the app (issue 10, item 25): F1 or Aide › Guide. Our own text (so rich text)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout, QWidget

from ui.common import guard


def _tr(text: str) -> str:
    return QCoreApplication.translate("Help", text)


def guide_html() -> str:
    keys = [
        ("Ctrl+N", _tr("nouvelle fiche")),
        ("Ctrl+Alt+N", _tr("nouvelle table de meneur")),
        ("Ctrl+O", _tr("ouvrir des fiches")),
        ("Ctrl+S / Ctrl+Maj+S", _tr("enregistrer / enregistrer sous")),
        ("Ctrl+W", _tr("fermer la fiche")),
        ("Ctrl+Q", _tr("quitter (chaque fiche modifiée est proposée à l'enregistrement ; Annuler arrête tout)")),
        ("Ctrl+Z / Ctrl+Maj+Z, Ctrl+Y", _tr("annuler / rétablir : le menu Édition nomme l'action")),
        ("Ctrl+D", _tr("dégâts : le curseur va dans le champ rapide")),
        ("Ctrl+H", _tr("soins (le champ l'affiche en vert)")),
        ("Ctrl+T", _tr("points temporaires (en bleu)")),
        ("Ctrl+E / Ctrl+J", _tr("aller aux états / au journal")),
        ("Ctrl+F", _tr("chercher dans le journal")),
        ("Ctrl+M", _tr("vue meneur ou vue joueur")),
        ("Ctrl+P", _tr("imprimer l'onglet courant (aperçu d'abord) ; Fichier › Exporter en PDF, fiche vierge")),
        ("F1", _tr("ce guide")),
    ]
    table_keys = [
        ("Ctrl+Espace / Ctrl+Maj+Espace", _tr("tour suivant / round suivant")),
        ("Ctrl+B / Ctrl+Maj+E", _tr("action / état sur les créatures choisies")),
        ("Ctrl+I / Ctrl+Maj+O", _tr("lancer l'initiative / trier dans l'ordre du tour")),
        ("Ctrl+Maj+N / Ctrl+Maj+D / Ctrl+Suppr", _tr("ajouter / dupliquer / retirer des créatures")),
        ("F2 / Ctrl+Maj+M", _tr("renommer / une note")),
        ("Ctrl+Entrée", _tr("ouvrir la fiche complète de la créature choisie")),
        ("Ctrl+Maj+J", _tr("la vue des joueurs, sur un second écran")),
    ]
    rows = "".join(f"<tr><td><b>{k}</b></td><td>{v}</td></tr>" for k, v in keys)
    table_rows = "".join(f"<tr><td><b>{k}</b></td><td>{v}</td></tr>" for k, v in table_keys)
    return (
        _tr(
            "<h2>Guide de la fiche</h2>"
            "<h3>Le champ rapide</h3>"
            "<p>Tapez un nombre (<b>7</b>) ou des dés (<b>2d6+3</b>) puis <b>Entrée</b>. L'étiquette dans le "
            "champ dit ce qu'Entrée fait : <span style='color:#b71c1c'><b>Dégâts</b></span> (rouge, par défaut), "
            "<span style='color:#2e7d32'><b>Soins</b></span> (vert, Ctrl+H), "
            "<span style='color:#1565c0'><b>Temporaires</b></span> (bleu, Ctrl+T) ; après chaque action elle "
            "revient à Dégâts. Les options (non létaux, critique, type, zone…) valent pour un coup et se "
            "décochent ensuite. Les dés lancés s'affichent sous le champ et dans le journal.</p>"
            "<h3>Où se trouve chaque règle</h3>"
            "<ul>"
            "<li><b>À gauche</b> : le personnage, ses caractéristiques, les valeurs de base de sa santé, ses "
            "réserves et ses notes.</li>"
            "<li><b>Au milieu</b> : la santé (état, points, barre, champ rapide), l'inconscience et la mort, "
            "les blessures, les repos et le temps (avec l'horloge de la fiche), les autres actions du système "
            "et les valeurs calculées.</li>"
            "<li><b>À droite</b> : les états (cochez-les ; « Poser pour une durée… » en pose un qui prend fin "
            "de lui-même quand le temps passe, décompté sous la liste) et le journal (filtre, copie, export ; "
            "chaque entrée porte l'heure de la fiche).</li>"
            "</ul>"
            "<p>Survolez un nombre : son info-bulle dit comment les règles l'ont calculé.</p>"
            "<h3>Ce que disent les couleurs</h3>"
            "<ul>"
            "<li>La pastille d'état prend la couleur que la table de règles donne à l'état.</li>"
            "<li>La barre : les points en couleur d'état ; les points temporaires en bleu, au-delà de la barre ; "
            "les dégâts non létaux en violet ; les points négatifs sur fond rouge hachuré, jusqu'au seuil de "
            "mort.</li>"
            "<li>Le cadre « Inconscience et mort » devient rouge quand le personnage est mourant.</li>"
            "<li>Les messages : rouge, une action refusée (rien n'a changé) ; orange, une mauvaise nouvelle ; "
            "bleu, une information.</li>"
            "<li>La vue meneur est encadrée de violet ; en vue joueur, « ? » remplace ce que les règles cachent "
            "au joueur, et les lignes du journal réservées au meneur n'apparaissent pas.</li>"
            "</ul>"
            "<h3>Raccourcis</h3>"
        )
        + f"<table cellspacing='4'>{rows}</table>"
        + _tr(
            "<h3>La table de meneur</h3>"
            "<p>Fichier › Nouvelle table de meneur : toutes les créatures d'une scène sur une grille. Choisissez "
            "des lignes puis tapez un montant (Entrée : dégâts, Maj+Entrée : soins). Le menu Table a toutes "
            "ses commandes ; en vue joueur, la table ne montre aucun nombre ni les lignes du meneur.</p>"
        )
        + f"<table cellspacing='4'>{table_rows}</table>"
        + _tr(
            "<p>Chaque fiche modifiée est copiée toutes les minutes (et après chaque repos ou passage du temps) "
            "dans une sauvegarde automatique, jamais sur votre fichier ; après un arrêt brutal, le prochain "
            "démarrage propose de la récupérer.</p>"
        )
    )


class HelpDialog(QDialog):
    """The guide, in a window of its own that stays open beside the sheet."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("helpDialog")
        self.setWindowTitle(_tr("Guide de la fiche"))
        layout = QVBoxLayout(self)
        self.browser = QTextBrowser()
        self.browser.setObjectName("helpText")
        self.browser.setOpenExternalLinks(False)
        self.browser.setHtml(guide_html())
        layout.addWidget(self.browser)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.button(QDialogButtonBox.StandardButton.Close).setText(_tr("Fermer"))
        guard.connect(buttons.rejected, self.close)
        layout.addWidget(buttons)
        self.resize(620, 620)
