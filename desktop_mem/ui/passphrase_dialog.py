"""The passphrase dialog: choose one for a new profile, or unlock one."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from desktop_mem.core.keys.vault import MIN_PASSPHRASE


class PassphraseDialog(QDialog):
    """Ask for the passphrase that protects a profile. `create` asks twice."""

    def __init__(
        self,
        profile: str,
        create: bool,
        error: str = "",
        parent: QWidget | None = None,
        explanation: str = "",
    ) -> None:
        super().__init__(parent)
        self.creating = create
        self.setMinimumWidth(440)  # its explanation reads as a paragraph, not a column
        self.setWindowTitle(
            self.tr("Unlock your memories") if not create else self.tr("Protect your memories")
        )
        layout = QVBoxLayout(self)
        explain = QLabel(
            explanation
            or self.tr(
                "No system keyring is available, so your conversations and memories in the "
                "profile “%1” are protected by a passphrase. Everything is encrypted with it; "
                "without it nobody, including you, can read them. There is no way to recover it."
            ).replace("%1", profile)
            if create
            else self.tr(
                "Your conversations and memories in the profile “%1” are encrypted. Enter the "
                "passphrase to open them."
            ).replace("%1", profile)
        )
        explain.setWordWrap(True)
        layout.addWidget(explain)
        form = QFormLayout()
        self.first = QLineEdit()
        self.first.setEchoMode(QLineEdit.EchoMode.Password)
        form.addRow(self.tr("Passphrase"), self.first)
        self.second = QLineEdit()
        self.second.setEchoMode(QLineEdit.EchoMode.Password)
        if create:
            form.addRow(self.tr("Again"), self.second)
        layout.addLayout(form)
        if create:  # the rule up front, not only after a refusal
            rule = QLabel(
                self.tr("At least %1 characters. Write it down: it cannot be recovered.").replace(
                    "%1", str(MIN_PASSPHRASE)
                )
            )
            rule.setObjectName("notice")
            rule.setWordWrap(True)
            layout.addWidget(rule)
        self.error = QLabel(error)
        self.error.setObjectName("status")
        self.error.setWordWrap(True)
        self.error.setVisible(bool(error))
        layout.addWidget(self.error)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self._check)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.first.setFocus()

    def _check(self) -> None:
        text = self.first.text()
        problem = ""
        if not text:
            problem = self.tr("Type the passphrase.")
        elif self.creating and len(text) < MIN_PASSPHRASE:
            problem = self.tr("Use at least %1 characters.").replace("%1", str(MIN_PASSPHRASE))
        elif self.creating and text != self.second.text():
            problem = self.tr("The two passphrases differ: type the same one twice.")
        if problem:
            self.error.setText(problem)
            self.error.show()
            self.adjustSize()  # room for the warning: the explanation stays whole
            return
        self.accept()

    def passphrase(self) -> str:
        return self.first.text()
