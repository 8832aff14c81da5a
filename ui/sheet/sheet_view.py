"""The sheet of one character: every panel, laid out in three columns, over one view-model.

Which panels appear comes from the system's description (``rules.describe``): a new system gets a
working sheet without new widget code; a few systems have a truly specific panel on top.
"""

from __future__ import annotations

import random
import weakref
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QEvent, QObject, QRect, Qt, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QScrollArea, QSplitter, QVBoxLayout, QWidget

import rules
from ui.common import guard, scroll_parts
from ui.common.house_rules import HouseRulesBanner
from ui.common.messages import MessageBar
from ui.sheet.actions import DyingPanel, OtherActionsPanel, RestsPanel
from ui.sheet.conditions import ConditionsPanel
from ui.sheet.fields import FieldsPanel, PoolsPanel
from ui.sheet.health import DerivedPanel, HealthPanel
from ui.sheet.journal import JournalPanel
from ui.sheet.odds import OddsPanel
from ui.sheet.system_panels import TENACITY_NAMES, TenacityPanel
from ui.sheet.viewmodel import Changes, SheetViewModel
from ui.sheet.wounds import WoundsPanel

DYING_FEATURES = frozenset({"death_saves", "stabilise", "dying_rolls", "recovery_rolls", "negative_points"})


class _ColumnLayout(QVBoxLayout):
    """The panels of a column, placed once when they grow (issue 15).

    A panel that grew (a derived value on two lines, a new row) asks the column's layout to place the
    panels again; Qt's layout does so at once, in the column's old height, so the panel above the one that
    grew was squeezed, and placed again (and painted again) in the next pass, when the column had fitted
    its new height. Asked to place the panels in less height than they need, this layout lets the column
    grow first: the column's resize places them, once, in their new height.
    """

    def __init__(self, parent: QWidget, grow: Callable[[QRect], bool]) -> None:
        super().__init__(parent)
        method = getattr(grow, "__func__", None)
        owner = getattr(grow, "__self__", None)
        # A weak reference: the column owns this layout (through its widget).
        self._grow = weakref.WeakMethod(grow) if method is not None and owner is not None else (lambda: grow)

    def setGeometry(self, rect: QRect) -> None:
        grow = self._grow()
        if grow is not None and grow(rect):
            return  # the column grew: its resize placed the panels in their new height
        super().setGeometry(rect)


class Column(QScrollArea):
    """A scrollable column of panels that gives wrapped texts the height they need.

    QScrollArea sizes its widget from ``minimumSizeHint``, which ignores height-for-width: word-wrapped
    labels would be squeezed. The column sets its widget's minimum height from the layout's
    ``heightForWidth`` at the current width instead.
    """

    def __init__(
        self, widgets: list[QWidget], widest: int, parent: QWidget | None = None, *, stretch: bool = True
    ) -> None:
        """``stretch``: empty space after the panels (else the last panel takes it)."""
        super().__init__(parent)
        scroll_parts.meet(self)  # its viewport and scroll bars' containers, without loading every class
        self._fitting = False
        inner = QWidget()
        # Opaque: a change inside the column repaints the column's panels, not the sheet, the tabs and the
        # window under them as well (issue 15). The colour is the one that showed through.
        inner.setAutoFillBackground(True)
        inner.setAttribute(Qt.WidgetAttribute.WA_StaticContents)
        self._inner = inner
        layout = _ColumnLayout(inner, self._grow_first)
        layout.setContentsMargins(4, 4, 4, 4)
        for widget in widgets:
            layout.addWidget(widget)
            added = getattr(widget, "added_to_column", None)
            if added is not None:  # a panel's own style sheet, set once it has its parent (``DyingPanel``)
                added()
        if stretch:
            layout.addStretch(1)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        # The scroll bars' containers too: a scroll bar coming or changing with the panels' height
        # repaints itself, not the splitter and the window under it.
        for bar in (self.verticalScrollBar(), self.horizontalScrollBar()):
            container = bar.parentWidget()
            if container is not None and container is not self:
                container.setAutoFillBackground(True)
        # QScrollArea watches its widget through its own event filter (``eventFilter`` below).
        self.setWidget(inner)
        # As wide as the panels need (nothing cut), up to ``widest``; beyond, the column scrolls sideways.
        needed = inner.minimumSizeHint().width() + self.verticalScrollBar().sizeHint().width() + 2
        self.setMinimumWidth(min(needed, widest))

    def _needed(self) -> int | None:
        """The height the panels need at the column's width (``None``: no widget or layout yet)."""
        inner = self.widget()
        layout = inner.layout() if inner is not None else None
        if layout is None:
            return None
        width = max(self.viewport().width(), layout.minimumSize().width())
        height = layout.heightForWidth(width) if layout.hasHeightForWidth() else -1
        return max(height, layout.minimumSize().height())

    @guard.guarded  # run from events
    def fit(self) -> None:
        inner = self.widget()
        if inner is None or self._fitting:
            return
        self._fitting = True
        try:
            needed = self._needed()
            if needed is not None:
                inner.setMinimumHeight(needed)
        finally:
            self._fitting = False

    def _grow_first(self, rect: QRect) -> bool:
        """Whether the panels, about to be placed in ``rect``, need more height: the column then grows
        first (its widget's resize places them in their new height) and True is returned."""
        inner = self.widget()
        if inner is None or self._fitting or not inner.isVisible():
            return False
        needed = self._needed()
        if needed is None or rect.height() >= needed:
            return False
        self.fit()
        return inner.height() >= needed

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.fit()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.LayoutRequest and watched is getattr(self, "_inner", None):
            # Fitted now, before the panels' layout answers the request (filters come first): the layout
            # then places the panels once, in the new height. Fitted by a zero timer after it, the layout
            # first squeezed the panels into the old height (a panel that grew shrank the one above it),
            # and placed them all again in the next pass, painted twice (issue 15).
            self.fit()
        return super().eventFilter(watched, event)


class SheetView(QWidget):
    """One character sheet (a tab of the main window)."""

    # The name or the saved state changed: the tab's title must follow.
    titleChanged = Signal()

    def __init__(
        self,
        sheet: Any = None,
        *,
        vm: SheetViewModel | None = None,
        rng: random.Random | None = None,
        journal: tuple[str, ...] = (),
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.vm = vm if vm is not None else SheetViewModel(sheet, rng=rng, journal=journal, parent=self)
        vm = self.vm
        self.setObjectName(f"sheet_{vm.sheet.system}")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground)  # the GM view's frame is drawn
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        # The top strip: which view this is, then the messages (its space always reserved).
        strip = QHBoxLayout()
        strip.setSpacing(6)
        self.view_badge = QLabel()
        self.view_badge.setObjectName("viewBadge")
        self.view_badge.setTextFormat(Qt.TextFormat.PlainText)
        strip.addWidget(self.view_badge, 0, Qt.AlignmentFlag.AlignVCenter)
        self.messages = MessageBar()
        # Opaque (the colour that showed through): a message coming or going repaints the bar, not the
        # sheet, the tabs and the window under it (issue 15).
        self.messages.setAutoFillBackground(True)
        strip.addWidget(self.messages, 1)
        layout.addLayout(strip)
        # « Règles maison : … » when the sheet plays by a GM's house rules (issue 18).
        # Made as a child: a label with a style sheet of its own is re-polished when it changes parent.
        self.house_banner = HouseRulesBanner(self)
        self.house_banner.show_rules([vm.house])
        vm.rulesChanged.connect(self._on_rules_changed)
        layout.addWidget(self.house_banner)
        # The description the panels were laid out from: other rules may lay the sheet out otherwise
        # (states, ladders, fields), and the window then gives the tab a new view (``built_info``).
        self.built_info = vm.info

        self.fields = FieldsPanel(vm)
        self.pools = PoolsPanel(vm) if vm.info.extra.get("pools") else None
        self.health = HealthPanel(vm)
        covered: set[type[rules.Action]] = set()
        shown_elsewhere: set[str] = set()
        self.tenacity: TenacityPanel | None = None
        if vm.has("tenacity"):
            self.tenacity = TenacityPanel(vm)
            covered |= self.tenacity.covered()
            shown_elsewhere |= set(TENACITY_NAMES)
        self.derived = DerivedPanel(vm, exclude=shown_elsewhere)
        self.dying = DyingPanel(vm) if vm.info.features & DYING_FEATURES and not vm.has("tenacity") else None
        if self.dying is not None:
            covered |= self.dying.covered()
        self.rests = RestsPanel(vm)
        self.wounds = WoundsPanel(vm) if vm.info.features & {"wounds", "local_wounds"} else None
        self.others = OtherActionsPanel(vm, covered)
        # Made as a child: its refresh shows it, and a widget without a parent shown becomes a window of
        # its own that takes the activation (the window's shortcuts and focus stopped working).
        self.odds = OddsPanel(vm, self)
        self.conditions = ConditionsPanel(vm)
        self.journal = JournalPanel(vm)

        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.setChildrenCollapsible(False)
        left = [self.fields, self.pools, *self.fields.text_boxes]
        self.splitter.addWidget(Column([w for w in left if w is not None], widest=410))
        middle = (
            self.health,
            self.tenacity,
            self.dying,
            self.wounds,
            self.rests,
            self.others,
            self.odds,
            self.derived,
        )
        self.splitter.addWidget(Column([w for w in middle if w is not None], widest=490))
        right = QSplitter(Qt.Orientation.Vertical)
        right.setChildrenCollapsible(False)
        # The states scroll when a ladder's text and the list need more height than the column has.
        right.addWidget(Column([self.conditions], widest=420, stretch=False))
        right.addWidget(self.journal)
        right.setSizes([420, 300])
        self.splitter.addWidget(right)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 5)
        self.splitter.setStretchFactor(2, 4)
        self.splitter.setSizes([390, 500, 360])
        layout.addWidget(self.splitter, 1)

        self._show_view_mode(vm.gm_view)
        vm.gmViewChanged.connect(self._show_view_mode)
        vm.refused.connect(self._on_refused)
        vm.notified.connect(self._on_notified)
        vm.changed.connect(self._on_changed)
        vm.undo_stack.cleanChanged.connect(self._on_clean_changed)

    # --- the view mode ------------------------------------------------------------------------------------

    def _show_view_mode(self, gm: bool) -> None:
        """The sheet itself says which view it is: the GM's shows what the rules hide from the player,
        and a purple frame (Ctrl+M switches)."""
        if gm:
            self.view_badge.setText(self.tr("Vue meneur"))
            self.view_badge.setToolTip(
                self.tr("Vue meneur : tout est visible, y compris ce que les règles cachent au joueur (Ctrl+M).")
            )
            badge = "background: #6a1b9a; color: white;"
            self.setStyleSheet(f"SheetView#{self.objectName()} {{ border: 3px solid #6a1b9a; }}")
        else:
            self.view_badge.setText(self.tr("Vue joueur"))
            self.view_badge.setToolTip(
                self.tr(
                    "Vue joueur : ce que les règles cachent au joueur est masqué (« ? ») ; Ctrl+M pour la vue meneur."
                )
            )
            badge = "background: #e0e0e0; color: #333333;"
            self.setStyleSheet("")
        self.view_badge.setStyleSheet(badge + " border-radius: 9px; padding: 2px 8px; font-weight: bold;")
        self.view_badge.setAccessibleName(self.view_badge.text())

    # --- the message bar ----------------------------------------------------------------------------------

    def _on_refused(self, reason: str) -> None:
        self.messages.show_message(reason, "error")

    def _on_notified(self, text: str, grave: bool) -> None:
        if self.messages.kind() in ("warning", "info") and self.messages.text():
            text = self.messages.text() + "\n" + text
        self.messages.show_message(text, "warning" if grave else "info")

    def _on_changed(self, changes: Changes) -> None:
        # A new step makes the previous message stale (a notice of this very step comes right after).
        if changes.journal:
            self.messages.clear()
        if changes.everything or "name" in changes.fields:
            self.titleChanged.emit()

    def _on_clean_changed(self, _clean: bool) -> None:
        self.titleChanged.emit()

    def _on_rules_changed(self, house: object) -> None:
        self.house_banner.show_rules([house])

    # --- commands of the window ---------------------------------------------------------------------------

    def focus_quick_entry(self, mode: str = "damage") -> None:
        self.health.quick.set_mode(mode)
        self.health.quick.amount.setFocus()
        self.health.quick.amount.selectAll()

    def unbind(self) -> None:
        """Disconnect from the view-model before the view goes away (explicit, as the binders do)."""
        for signal, slot in (
            (self.vm.refused, self._on_refused),
            (self.vm.notified, self._on_notified),
            (self.vm.changed, self._on_changed),
            (self.vm.undo_stack.cleanChanged, self._on_clean_changed),
            (self.vm.gmViewChanged, self._show_view_mode),
            (self.vm.rulesChanged, self._on_rules_changed),
        ):
            try:
                signal.disconnect(slot)
            except (RuntimeError, TypeError):
                pass
