"""The dialog that writes a new memory of the user's own: its text, kind and pin."""

from __future__ import annotations

from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from desktop_mem.core.memory.records import KINDS
from desktop_mem.ui.item_models import kind_label


class NewMemoryDialog(QDialog):
    """Text, kind and pin of a new memory; Add is enabled once there is text, and
    Ctrl+Enter adds it from the text field."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("New memory"))
        layout = QVBoxLayout(self)
        hint = QLabel(
            self.tr("Something the assistant should know about you, in a sentence. It is "
                    "given to the model only when a message is about it.")
        )  # fmt: skip
        hint.setWordWrap(True)
        hint.setObjectName("notice")
        layout.addWidget(hint)
        self.edit = QPlainTextEdit()
        self.edit.setTabChangesFocus(True)  # Tab moves on to Kind: the keyboard is not trapped
        self.edit.setPlaceholderText(self.tr("e.g. I am vegetarian / 我对花生过敏"))
        layout.addWidget(self.edit, 1)
        form = QFormLayout()
        self.kind_box = QComboBox()
        for k in KINDS:
            self.kind_box.addItem(kind_label(self, k), k)
        form.addRow(self.tr("Kind"), self.kind_box)
        self.pin = QCheckBox(self.tr("Pinned: always given to the model"))
        form.addRow("", self.pin)
        layout.addLayout(form)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.add_button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.add_button.setText(self.tr("Add"))
        self.add_button.setToolTip(self.tr("Add the memory (Ctrl+Enter)"))
        self.add_button.setDefault(True)
        self.add_button.setEnabled(False)
        for keys in ("Ctrl+Return", "Ctrl+Enter"):  # the main Enter and the keypad's
            add = QShortcut(QKeySequence(keys), self)
            add.activated.connect(self._add)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        self.edit.textChanged.connect(lambda: self.add_button.setEnabled(bool(self.text())))
        self.resize(460, 280)
        self.edit.setFocus()

    def _add(self) -> None:
        if self.text():
            self.accept()

    def text(self) -> str:
        return self.edit.toPlainText().strip()

    def kind(self) -> str:
        return str(self.kind_box.currentData())

    def pinned(self) -> bool:
        return self.pin.isChecked()
