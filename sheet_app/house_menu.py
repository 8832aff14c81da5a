"""Fiche › Règles maison… and Table › Règles maison… (issue 18): a GM's own rule table, from the window.

- « Exporter les règles de base… » writes the shipped table of the document's system as a commented
  TOML file to edit (``rules.house.export_base``).
- « Charger des règles maison… » reads an edited copy; a table that does not validate is refused with
  its French problems (the file, the line, the key, what was expected and what was found) and nothing
  changes. Once valid, the document plays by it: one undoable step, in the journal, recomputed at once;
  the document's file embeds it (``files.Document.house``).
- « Revenir aux règles de base » ends it (undoable too).

On a GM table the rules are those of one system's creatures: with several systems, the GM picks which.
The folder of the last house-rule file is remembered in the settings (``Settings.house_rules_folder``).
The file dialogs and the system question are module functions, so tests replace them (nothing blocks).
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu, QWidget

import rules
from rules import house as rhouse
from sheet_app import files
from ui.common import guard, prompts
from ui.common.shortcuts import new_action

log = logging.getLogger(__name__)

TOML_FILTER = "Règles maison (*.toml);;Tous les fichiers (*)"
# Problems listed in the refusal before « … et N autres » (each names its line: the GM fixes them in order).
MAX_SHOWN = 20


def _tr(text: str) -> str:
    return QCoreApplication.translate("HouseMenu", text)


# --- questions (replaced by tests) -------------------------------------------------------------------


def _file_dialog(parent: QWidget | None, title: str, where: Path, save: bool) -> Path | None:
    from PySide6.QtWidgets import QFileDialog  # dialogs' classes come with the dialog (issue 15)

    dialog = QFileDialog(parent, title, str(where), _tr(TOML_FILTER))
    if save:
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setFileMode(QFileDialog.FileMode.AnyFile)
        dialog.setDefaultSuffix("toml")
    else:
        dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
    if not dialog.exec():
        return None
    chosen = dialog.selectedFiles()
    return Path(chosen[0]) if chosen else None


def ask_export_path(parent: QWidget | None, suggested: Path) -> Path | None:
    return _file_dialog(parent, _tr("Exporter les règles de base"), suggested, save=True)


def ask_house_path(parent: QWidget | None, folder: Path) -> Path | None:
    return _file_dialog(parent, _tr("Charger des règles maison"), folder, save=False)


def ask_system(parent: QWidget | None, systems: list[str]) -> str | None:
    """Which system's rules to change on a table that holds several."""
    from PySide6.QtWidgets import QInputDialog  # dialogs' classes come with the dialog (issue 15)

    labels = [rules.system(s).label for s in systems]
    dialog = QInputDialog(parent)
    dialog.setWindowTitle(_tr("Règles maison"))
    dialog.setLabelText(_tr("Règles de quel système ?"))
    dialog.setComboBoxItems(labels)
    dialog.setComboBoxEditable(False)
    dialog.setOkButtonText(_tr("OK"))
    dialog.setCancelButtonText(_tr("Annuler"))
    if not dialog.exec():
        return None
    label = dialog.textValue()
    return systems[labels.index(label)] if label in labels else None


# --- the refusal -------------------------------------------------------------------------------------


def refusal_text(exc: rules.RulesetError) -> str:
    """A refused house-rule file in French: the file, then one problem per line (at most ``MAX_SHOWN``)."""
    if isinstance(exc, rules.HouseRulesError):
        lines = exc.lines[:MAX_SHOWN]
        if len(exc.lines) > MAX_SHOWN:
            lines.append(_tr("… et {0} autres problèmes.").format(len(exc.lines) - MAX_SHOWN))
        head = _tr("Règles maison refusées : {0}").format(exc.source)
        return "\n".join([head, *(f"• {line}" for line in lines), _tr("Rien n'a changé.")])
    return _tr("Règles maison refusées : {0}").format(exc) + "\n" + _tr("Rien n'a changé.")


class HouseRulesCommands(QObject):
    """The « Règles maison » submenu of the window, for the document of the current tab."""

    def __init__(self, window: Any, menu: QMenu) -> None:
        super().__init__(window)
        self.window = window
        self.menu = QMenu(_tr("R&ègles maison"), window)  # every letter of the words is taken in « Table »
        self.menu.setObjectName("houseRulesMenu")
        self.act_export = self._action(_tr("&Exporter les règles de base…"), self.export_base, "actHouseExport")
        self.act_export.setToolTip(_tr("Écrit la table de règles du système en TOML commenté, à modifier."))
        self.act_export_house = self._action(
            _tr("Exporter les règles maison en &vigueur…"), self.export_current, "actHouseExportCurrent"
        )
        self.act_export_house.setToolTip(
            _tr("Écrit les règles maison du document (qu'il embarque) en TOML commenté, à modifier à nouveau.")
        )
        self.act_load = self._action(_tr("&Charger des règles maison…"), self.load, "actHouseLoad")
        self.act_load.setToolTip(_tr("Le document jouera selon la table de règles choisie (annulable)."))
        self.act_base = self._action(_tr("&Revenir aux règles de base"), self.back_to_base, "actHouseBase")
        for action in (self.act_export, self.act_export_house, self.act_load, self.act_base):
            self.menu.addAction(action)
        menu.addSeparator()
        menu.addMenu(self.menu)
        guard.connect(self.menu.aboutToShow, self.update)
        guard.connect(window.tabs.currentChanged, lambda _index: self.update())
        self.update()

    def _action(self, text: str, slot: Any, name: str) -> QAction:
        action = new_action(text, self.window)
        action.setObjectName(name)
        guard.connect(action.triggered, lambda _checked=False: slot())
        self.window.addAction(action)
        return action

    # --- the document of the current tab -----------------------------------------------------------

    def _target(self, with_house: bool = False) -> tuple[Any, str] | None:
        """The view-model whose rules change (a sheet's, or a table's) and the system concerned: on a
        table of several systems (or, ``with_house``, several with house rules), the GM picks one."""
        widget = self.window.tabs.currentWidget()
        vm = getattr(widget, "vm", None)
        if vm is None:
            return None
        if hasattr(vm, "sheet"):  # a sheet, or a table's creature in its sheet
            return vm, vm.sheet.system
        if with_house:
            systems = [s for s in rules.SYSTEMS if vm.house_of(s) is not None]
        else:
            systems = vm.systems() or list(rules.SYSTEMS)
        if not systems:
            return None
        if len(systems) == 1:
            return vm, systems[0]
        chosen = ask_system(self.window, systems)
        return (vm, chosen) if chosen is not None else None

    def _house_of(self, vm: Any, system_id: str) -> Any:
        return vm.house if hasattr(vm, "sheet") else vm.house_of(system_id)

    def _set(self, vm: Any, system_id: str, house: Any) -> bool:
        if hasattr(vm, "sheet"):
            return bool(vm.set_house_rules(house))
        return bool(vm.set_house_rules(system_id, house))

    def update(self) -> None:
        widget = self.window.tabs.currentWidget()
        vm = getattr(widget, "vm", None)
        has = vm is not None
        self.act_export.setEnabled(has)
        self.act_load.setEnabled(has)
        if vm is None:
            with_house = False
        elif hasattr(vm, "sheet"):
            with_house = vm.house is not None
        else:
            with_house = bool(vm.state.house)
        self.act_base.setEnabled(with_house)
        self.act_export_house.setEnabled(with_house)

    # --- commands ------------------------------------------------------------------------------------

    def export_base(self) -> Path | None:
        target = self._target()
        if target is None:
            return None
        _vm, system_id = target
        return self._export(f"regles-{system_id}.toml", rhouse.export_base(system_id))

    def export_current(self) -> Path | None:
        """The house rules the document plays by, as a TOML file to edit again (the document embeds them;
        the file they came from may be elsewhere, or gone)."""
        target = self._target(with_house=True)
        if target is None:
            return None
        vm, system_id = target
        chosen = self._house_of(vm, system_id)
        if chosen is None:
            return None
        stem = "".join(c if c.isalnum() or c in "-_" else "-" for c in chosen.title.lower()).strip("-") or "regles"
        return self._export(f"{stem[:60]}.{system_id}.toml", chosen.export())

    def _export(self, name: str, text: str) -> Path | None:
        folder = self.window.settings.house_rules_folder() or self.window.controller.last_folder
        path = ask_export_path(self.window, Path(folder) / name)
        if path is None:
            return None
        if not path.suffix:
            path = path.with_suffix(".toml")
        try:
            files.atomic_write(path, text.encode("utf-8"))
        except OSError as exc:
            reason = rules.os_reason(exc)
            prompts.show_error(
                self.window, _tr("Export impossible"), _tr("{0} : écriture impossible ({1}).").format(path, reason)
            )
            return None
        self.window.settings.set_house_rules_folder(path.parent)
        self.window.statusBar().showMessage(
            _tr("Règles exportées : {0} (à modifier, puis « Charger des règles maison… »)").format(path), 10000
        )
        return path

    def load(self) -> bool:
        target = self._target()
        if target is None:
            return False
        vm, system_id = target
        folder = self.window.settings.house_rules_folder() or self.window.controller.last_folder
        path = ask_house_path(self.window, Path(folder))
        if path is None:
            return False
        self.window.settings.set_house_rules_folder(path.parent)
        try:
            house = rhouse.load_house_rules(system_id, path)
        except rules.RulesetError as exc:
            prompts.show_error(self.window, _tr("Règles maison refusées"), refusal_text(exc))
            return False
        if not self._set(vm, system_id, house):
            return False  # the document does not fit them: its view says why
        self.update()
        return True

    def back_to_base(self) -> bool:
        target = self._target(with_house=True)
        if target is None:
            return False
        vm, system_id = target
        if self._house_of(vm, system_id) is None:
            return False
        done = self._set(vm, system_id, None)
        self.update()
        return done
