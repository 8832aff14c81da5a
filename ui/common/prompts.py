"""Every modal question the interface asks, in one place.

Widgets call these functions instead of opening dialogs themselves, so tests replace them (nothing
blocks) and the wording stays together. Each returns the user's answer, ``None`` for « Annuler ».
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QGridLayout,
    QLabel,
    QVBoxLayout,
    QWidget,
)

import rules
from ui.common import guard
from ui.common.forms import ActionForm

if TYPE_CHECKING:  # the dialogs' own classes are imported where a dialog is made (issue 15)
    from PySide6.QtWidgets import QFileDialog, QMessageBox

SHEET_FILTER = "Fiches de personnage (*.fiche.json *.json);;Tous les fichiers (*)"
TABLE_FILTER = "Tables de meneur (*.table.json);;Tous les fichiers (*)"
OPEN_FILTER = (
    "Fiches et tables de meneur (*.fiche.json *.table.json *.json);;Fiches de personnage (*.fiche.json);;"
    "Tables de meneur (*.table.json);;Tous les fichiers (*)"
)


def _tr(text: str) -> str:
    return QCoreApplication.translate("Prompts", text)


def _box(parent: QWidget | None, icon: QMessageBox.Icon, title: str, text: str) -> QMessageBox:
    from PySide6.QtWidgets import QMessageBox  # with the first box (issue 15: not at start-up)

    box = QMessageBox(icon, title, text, QMessageBox.StandardButton.NoButton, parent)
    # A sheet's or a file's name is text, never markup (issue 16 item 13).
    box.setTextFormat(Qt.TextFormat.PlainText)
    return box


def keep_or_replace(parent: QWidget | None, current: int, new: int, detail: str = "") -> bool | None:
    """Temporary points never stack: keep the current ones (False) or take the new ones (True)?"""
    from PySide6.QtWidgets import QMessageBox  # with the first box (issue 15: not at start-up)

    text = _tr("Le personnage a déjà {0} points temporaires ; le nouvel effet en donne {1}.").format(current, new)
    if detail:
        text += "\n" + detail
    text += "\n" + _tr("Les points temporaires ne se cumulent pas : lesquels garder ?")
    box = _box(parent, QMessageBox.Icon.Question, _tr("Points temporaires"), text)
    keep = box.addButton(_tr("Garder les {0} actuels").format(current), QMessageBox.ButtonRole.RejectRole)
    replace = box.addButton(_tr("Prendre les {0} nouveaux").format(new), QMessageBox.ButtonRole.AcceptRole)
    cancel = box.addButton(_tr("Annuler"), QMessageBox.ButtonRole.DestructiveRole)
    box.setDefaultButton(replace if new > current else keep)
    box.setEscapeButton(cancel)
    box.exec()
    clicked = box.clickedButton()
    if clicked is replace:
        return True
    if clicked is keep:
        return False
    return None


def ask_action(
    parent: QWidget | None,
    action_type: type[rules.Action],
    info: rules.SystemInfo,
    *,
    title: str = "",
    fixed: Mapping[str, Any] | None = None,
    defaults: Mapping[str, Any] | None = None,
    intro: str = "",
    preview: Callable[[rules.Action], Sequence[rules.Chance]] | None = None,
) -> rules.Action | None:
    """The values of an action, asked in a form built from its model; ``preview`` gives the chances of the
    rolls the action would make, shown live as the values change."""
    form = ActionForm(
        action_type, info, title=title, fixed=fixed, defaults=defaults, intro=intro, preview=preview, parent=parent
    )
    if form.exec() == ActionForm.DialogCode.Accepted:
        return form.result_action
    return None


def confirm(parent: QWidget | None, title: str, text: str, yes: str) -> bool:
    from PySide6.QtWidgets import QMessageBox  # with the first box (issue 15: not at start-up)

    box = _box(parent, QMessageBox.Icon.Question, title, text)
    ok = box.addButton(yes, QMessageBox.ButtonRole.AcceptRole)
    box.addButton(_tr("Annuler"), QMessageBox.ButtonRole.RejectRole)
    box.setDefaultButton(ok)
    box.exec()
    return box.clickedButton() is ok


def show_error(parent: QWidget | None, title: str, text: str) -> None:
    from PySide6.QtWidgets import QMessageBox  # with the first box (issue 15: not at start-up)

    box = _box(parent, QMessageBox.Icon.Warning, title, text)
    box.addButton(_tr("Fermer"), QMessageBox.ButtonRole.AcceptRole)
    box.exec()


def show_info(parent: QWidget | None, title: str, text: str) -> None:
    from PySide6.QtWidgets import QMessageBox  # with the first box (issue 15: not at start-up)

    box = _box(parent, QMessageBox.Icon.Information, title, text)
    box.addButton(_tr("Fermer"), QMessageBox.ButtonRole.AcceptRole)
    box.exec()


def save_changes(parent: QWidget | None, name: str) -> str | None:
    """Closing a modified sheet: "save", "discard", or None (stay)."""
    from PySide6.QtWidgets import QMessageBox  # with the first box (issue 15: not at start-up)

    box = _box(
        parent,
        QMessageBox.Icon.Warning,
        _tr("Modifications non enregistrées"),
        _tr("La fiche « {0} » a des modifications non enregistrées.").format(name),
    )
    save = box.addButton(_tr("Enregistrer"), QMessageBox.ButtonRole.AcceptRole)
    discard = box.addButton(_tr("Fermer sans enregistrer"), QMessageBox.ButtonRole.DestructiveRole)
    cancel = box.addButton(_tr("Annuler"), QMessageBox.ButtonRole.RejectRole)
    box.setDefaultButton(save)
    box.setEscapeButton(cancel)
    box.exec()
    clicked = box.clickedButton()
    if clicked is save:
        return "save"
    if clicked is discard:
        return "discard"
    return None


def changed_on_disk(parent: QWidget | None, path: Path) -> str | None:
    """The file changed since it was opened: "reload", "save_as", "overwrite", or None (« Annuler »)."""
    from PySide6.QtWidgets import QMessageBox  # with the first box (issue 15: not at start-up)

    box = _box(
        parent,
        QMessageBox.Icon.Warning,
        _tr("Fichier modifié ailleurs"),
        _tr("« {0} » a été modifié par un autre programme depuis son ouverture.\n(dossier : {1})").format(
            path.name, path.parent
        ),
    )
    box.setInformativeText(
        _tr(
            "• Recharger : reprendre le fichier tel qu'il est sur le disque (vos modifications et "
            "l'historique d'annulation de cette fiche sont perdus).\n"
            "• Enregistrer sous… : garder les deux versions, la vôtre sous un autre nom.\n"
            "• Écraser : remplacer le fichier par votre version (l'autre est perdue)."
        )
    )
    reload = box.addButton(_tr("Recharger"), QMessageBox.ButtonRole.ResetRole)
    save_as = box.addButton(_tr("Enregistrer sous…"), QMessageBox.ButtonRole.AcceptRole)
    overwrite = box.addButton(_tr("Écraser"), QMessageBox.ButtonRole.DestructiveRole)
    cancel = box.addButton(_tr("Annuler"), QMessageBox.ButtonRole.RejectRole)
    box.setDefaultButton(save_as)
    box.setEscapeButton(cancel)
    box.exec()
    clicked = box.clickedButton()
    if clicked is reload:
        return "reload"
    if clicked is save_as:
        return "save_as"
    if clicked is overwrite:
        return "overwrite"
    return None


class _ToggleLabel(QLabel):
    """A wrapped label that ticks its check box when clicked (a QCheckBox's own text cannot wrap)."""

    def __init__(self, text: str, box: QCheckBox) -> None:
        super().__init__(text)
        self._box = box
        self.setWordWrap(True)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setCursor(Qt.CursorShape.PointingHandCursor)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self._box.toggle()
        super().mouseReleaseEvent(event)


class RecoveryDialog(QDialog):
    """After a crash: which autosaved documents to reopen (ticked) and which to drop (unticked)."""

    def __init__(self, descriptions: list[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(_tr("Récupérer le travail non enregistré"))
        self.setModal(True)
        layout = QVBoxLayout(self)
        intro = QLabel(
            _tr(
                "L'application s'est arrêtée de façon inattendue. Ces sauvegardes automatiques "
                "contiennent du travail qui n'est pas dans vos fichiers :"
            )
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        self.boxes: list[QCheckBox] = []
        grid = QGridLayout()
        grid.setColumnStretch(1, 1)
        grid.setContentsMargins(8, 4, 0, 4)
        for row, text in enumerate(descriptions):
            box = QCheckBox()
            box.setChecked(True)
            box.setAccessibleName(text)
            grid.addWidget(box, row, 0, Qt.AlignmentFlag.AlignTop)
            grid.addWidget(_ToggleLabel(text, box), row, 1, Qt.AlignmentFlag.AlignTop)
            self.boxes.append(box)
        layout.addLayout(grid)
        note = QLabel(
            _tr(
                "Les documents cochés s'ouvrent dans des onglets, marqués modifiés : enregistrez-les pour "
                "garder leur contenu. Les sauvegardes décochées sont supprimées. « Plus tard » garde tout "
                "pour le prochain démarrage."
            )
        )
        note.setWordWrap(True)
        layout.addWidget(note)
        layout.addStretch(1)
        from PySide6.QtWidgets import QDialogButtonBox  # with the first dialog (issue 15: not at start-up)

        buttons = QDialogButtonBox()
        self.recover_button = buttons.addButton(_tr("Récupérer la sélection"), QDialogButtonBox.ButtonRole.AcceptRole)
        self.later_button = buttons.addButton(_tr("Plus tard"), QDialogButtonBox.ButtonRole.RejectRole)
        self.recover_button.setDefault(True)
        guard.connect(buttons.accepted, self.accept)
        guard.connect(buttons.rejected, self.reject)
        layout.addWidget(buttons)
        self.setMinimumWidth(560)
        # Wrapped labels make the size hint too tall at the hinted width: take the height they need.
        width = 640
        self.resize(width, layout.totalHeightForWidth(width))

    def choices(self) -> list[bool]:
        """For each description, whether it is to be recovered."""
        return [box.isChecked() for box in self.boxes]


def ask_recovery(parent: QWidget | None, descriptions: list[str]) -> list[bool] | None:
    """What a crash left: for each autosave, recover it (True) or drop it (False); None: ask again later."""
    dialog = RecoveryDialog(descriptions, parent)
    if dialog.exec() == QDialog.DialogCode.Accepted:
        return dialog.choices()
    return None


def file_dialog_options() -> QFileDialog.Option:
    """Qt's own file dialog (translated by qtbase_fr), not the desktop's: it speaks French whatever the
    desktop's language (issue 10 item 18: « Look in », « Files of type »). Also ``FILE_DIALOG_OPTIONS``."""
    from PySide6.QtWidgets import QFileDialog  # the file dialog's class comes with it (issue 15)

    return QFileDialog.Option.DontUseNativeDialog


def __getattr__(name: str) -> Any:
    # ``FILE_DIALOG_OPTIONS``, made when first asked: the file dialog's class is not loaded at start-up.
    if name == "FILE_DIALOG_OPTIONS":
        return file_dialog_options()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def open_paths(parent: QWidget | None, folder: Path) -> list[Path]:
    from PySide6.QtWidgets import QFileDialog  # with the first file dialog (issue 15)

    names, _ = QFileDialog.getOpenFileNames(
        parent, _tr("Ouvrir des fiches ou des tables"), str(folder), _tr(OPEN_FILTER), "", file_dialog_options()
    )
    return [Path(n) for n in names]


TEXT_FILTER = "Texte (*.txt);;Tous les fichiers (*)"


def documents_folder() -> Path:
    """The user's documents folder (their home if there is none)."""
    from PySide6.QtCore import QStandardPaths  # with the first export (issue 15: 2 enum classes)

    found = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    folder = Path(found) if found else Path.home()
    return folder if folder.is_dir() else Path.home()


def save_text_path(parent: QWidget | None, suggested: str) -> Path | None:
    """Where to write a text export (the journal); ``suggested`` is a file name, in the documents folder."""
    from PySide6.QtWidgets import QFileDialog  # with the first file dialog (issue 15)

    name, _ = QFileDialog.getSaveFileName(
        parent,
        _tr("Exporter le journal"),
        str(documents_folder() / suggested),
        _tr(TEXT_FILTER),
        "",
        file_dialog_options(),
    )
    if not name:
        return None
    path = Path(name)
    return path if path.suffix else path.with_suffix(".txt")


def save_path(parent: QWidget | None, suggested: Path) -> Path | None:
    """Where to save: a sheet (« .fiche.json ») or, when ``suggested`` names one, a GM table (« .table.json »)."""
    from PySide6.QtWidgets import QFileDialog  # with the first file dialog (issue 15)

    table = suggested.name.endswith(".table.json")
    title = _tr("Enregistrer la table") if table else _tr("Enregistrer la fiche")
    name, _ = QFileDialog.getSaveFileName(
        parent, title, str(suggested), _tr(TABLE_FILTER if table else SHEET_FILTER), "", file_dialog_options()
    )
    if not name:
        return None
    path = Path(name)
    if not path.name.endswith(".json"):
        path = path.with_name(path.name + (".table.json" if table else ".fiche.json"))
    return path
