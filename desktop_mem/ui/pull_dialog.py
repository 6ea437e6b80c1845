"""A model downloading into Ollama, with its progress and Cancel."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QProgressBar,
    QVBoxLayout,
    QWidget,
)


class PullDialog(QDialog):
    """Progress of a model download: Hide lets it go on in the background (the status
    bar shows its progress), Cancel stops it. Enter hides: a reflexive key never throws
    a long download away."""

    cancelled = Signal()

    def __init__(self, model: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Downloading %1").replace("%1", model))
        self.setMinimumWidth(380)
        layout = QVBoxLayout(self)
        self.status = QLabel(self.tr("Starting…"))
        layout.addWidget(self.status)
        self.bar = QProgressBar()
        self.bar.setRange(0, 0)
        layout.addWidget(self.bar)
        buttons = QDialogButtonBox()
        self.hide_button = buttons.addButton(
            self.tr("Hide"), QDialogButtonBox.ButtonRole.AcceptRole
        )
        self.hide_button.setToolTip(self.tr("The download goes on; the status bar shows it"))
        self.hide_button.setDefault(True)
        cancel = buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        cancel.setAutoDefault(False)
        cancel.clicked.connect(self._cancel)
        self.hide_button.clicked.connect(self.hide)
        layout.addWidget(buttons)

    def update_progress(self, status: str, completed: int, total: int) -> None:
        self.status.setText(status)
        if total:
            self.bar.setRange(0, 1000)
            self.bar.setValue(min(1000, 1000 * completed // total))

    def reject(self) -> None:  # Esc hides, as Hide does: the download goes on
        self.hide()

    def _cancel(self) -> None:
        self.cancelled.emit()
        super().reject()
