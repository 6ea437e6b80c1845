"""Asking for a word to be typed before something that cannot be undone."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)


class TypedConfirmDialog(QDialog):
    """A destructive action that needs a typed word, not a reflex click."""

    def __init__(self, title: str, text: str, word: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.word = word
        self.setWindowTitle(title)
        layout = QVBoxLayout(self)
        label = QLabel(text + "\n\n" + self.tr("Type %1 to confirm.").replace("%1", word))
        label.setWordWrap(True)
        layout.addWidget(label)
        self.entry = QLineEdit()
        layout.addWidget(self.entry)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok.setEnabled(False)
        self.entry.textChanged.connect(lambda t: self.ok.setEnabled(t.strip() == word))
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
