"""The keyboard shortcuts, listed from the one table that defines them."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from desktop_mem.ui import shortcuts


class ShortcutsDialog(QDialog):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Keyboard shortcuts"))
        layout = QVBoxLayout(self)
        table = QTableWidget(len(shortcuts.SHORTCUTS), 2)
        table.setTabKeyNavigation(False)  # Tab moves on to Close; the arrows scroll
        table.setHorizontalHeaderLabels([self.tr("Keys"), self.tr("Action")])
        table.verticalHeader().hide()
        for row, name in enumerate(shortcuts.SHORTCUTS):
            table.setItem(
                row,
                0,
                QTableWidgetItem(
                    shortcuts.key(name).toString(shortcuts.key(name).SequenceFormat.NativeText)
                    or shortcuts.SHORTCUTS[name][0]
                ),
            )
            table.setItem(row, 1, QTableWidgetItem(shortcuts.describe(name)))
        table.resizeColumnsToContents()
        table.horizontalHeader().setStretchLastSection(True)
        table.resizeRowsToContents()
        rows = sum(table.rowHeight(r) for r in range(table.rowCount()))
        frame = 2 * table.frameWidth() + 2
        table.setMinimumHeight(rows + table.horizontalHeader().height() + frame)  # none cut
        table.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.table = table
        layout.addWidget(table)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        close.rejected.connect(self.reject)
        layout.addWidget(close)
        self.resize(460, self.sizeHint().height())
