"""Settings > Sync: the changes a merge could not keep (an edit to a memory deleted on
another computer, a message written in a conversation deleted there), each kept with
its text until the user copies it, keeps it as a new memory, or dismisses it. The work
is the sync controller's (ui/sync_controller.py)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from desktop_mem.core.textproc import shorten
from desktop_mem.ui.item_models import ID_ROLE
from desktop_mem.ui.sync_controller import SyncController
from desktop_mem.ui.sync_words import SyncWords


class LostChangesBox(QGroupBox):
    """What merges dropped, listed with Copy, Keep as a new memory and Dismiss…; hidden
    while there is none. Shown whether sync is on or off (it may be off by now)."""

    said = Signal(str, bool)  # a line for the page to show (True: in the error colour)
    handled = Signal()  # one was kept or dismissed: the page reads again what is left

    def __init__(self, controller: SyncController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.words = SyncWords(self)
        self.setTitle(self.tr("Changes a merge could not keep"))
        column = QVBoxLayout(self)
        self.line = QLabel("")
        self.line.setWordWrap(True)
        column.addWidget(self.line)
        note = QLabel(
            self.tr(
                "A deletion made on one computer wins over what another changed at the same "
                "time. What it replaced is kept here until you dismiss it."
            )
        )
        note.setObjectName("notice")
        note.setWordWrap(True)
        column.addWidget(note)
        self.list = QListWidget()
        self.list.setMaximumHeight(120)
        # each one's text, then its way on a line of its own, wrapped to the width the
        # dialog has (a long memory scrolled out of sight sideways)
        self.list.setWordWrap(True)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.currentItemChanged.connect(lambda *_: self._selected())
        column.addWidget(self.list)
        row = QHBoxLayout()
        self.copy = QPushButton(self.tr("Copy"))
        self.copy.clicked.connect(self._copy)
        self.keep = QPushButton(self.tr("Keep as a new memory"))
        self.keep.setToolTip(self.tr("Add its text back as a new memory of yours"))
        self.keep.clicked.connect(self._keep)
        self.dismiss = QPushButton(self.tr("Dismiss…"))
        self.dismiss.setToolTip(self.tr("Delete its text for good"))
        self.dismiss.clicked.connect(self._dismiss)
        for button in (self.copy, self.keep):
            row.addWidget(button)
        row.addStretch(1)
        row.addWidget(self.dismiss)
        column.addLayout(row)
        self.hide()

    def show_items(self, items: list[dict[str, Any]]) -> None:
        """What merges dropped (as the controller read it), the one chosen kept chosen."""
        self.setVisible(bool(items))
        groups: dict[tuple[str, str], int] = {}
        for x in items:
            key = (str(x["kind"]), str(x["computer"]))
            groups[key] = groups.get(key, 0) + 1
        self.line.setText(
            "\n".join(self.words.lost(kind, name, n) for (kind, name), n in groups.items())
        )
        current = self.list.currentItem()
        was = current.data(ID_ROLE) if current is not None else None
        self.list.clear()
        for x in items:
            way = self.words.lost_way(str(x["kind"]), str(x["computer"]))
            item = QListWidgetItem(
                shorten(str(x["text"]), 160)
                + "\n"
                + self.tr("%1 · %2").replace("%1", way).replace("%2", self.words.ago(x.get("at")))
            )
            item.setData(ID_ROLE, int(x["id"]))
            item.setData(Qt.ItemDataRole.UserRole + 1, str(x["text"]))
            item.setToolTip(str(x["text"]))
            self.list.addItem(item)
            if x["id"] == was:
                self.list.setCurrentItem(item)
        if self.list.currentItem() is None and self.list.count():
            self.list.setCurrentRow(0)
        self._selected()

    def _selected(self) -> None:
        chosen = self.list.currentItem() is not None
        for button in (self.copy, self.keep, self.dismiss):
            button.setEnabled(chosen)

    def _chosen(self) -> tuple[int, str] | None:
        item = self.list.currentItem()
        if item is None:
            return None
        return int(item.data(ID_ROLE)), str(item.data(Qt.ItemDataRole.UserRole + 1))

    def _copy(self) -> None:
        chosen = self._chosen()
        if chosen is not None:
            QGuiApplication.clipboard().setText(chosen[1])
            self.said.emit(self.tr("Copied."), False)

    def _keep(self) -> None:
        chosen = self._chosen()
        if chosen is None:
            return
        self.keep.setEnabled(False)

        def kept(_memory_id: int) -> None:
            self.said.emit(self.tr("Kept as a new memory."), False)
            self.handled.emit()

        self.controller.keep_lost(chosen[0], kept, self._failed)

    def _dismiss(self) -> None:
        chosen = self._chosen()
        if chosen is None:
            return
        answer = QMessageBox.question(
            self,
            self.tr("Dismiss"),
            self.tr(
                "Delete this text for good? It is in no memory or conversation any more: once "
                "dismissed, it cannot be brought back."
            ),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,  # a reflexive Enter keeps it
        )
        if answer != QMessageBox.StandardButton.Yes:
            return
        self.controller.dismiss_lost([chosen[0]], lambda _n: self.handled.emit(), self._failed)

    def _failed(self, text: str) -> None:
        self.said.emit(text, True)
