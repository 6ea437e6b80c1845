"""The pairing code shown large: another computer joins the sync with it, within the
hour (Settings > Sync > Show a pairing code)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QFontDatabase, QGuiApplication
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QVBoxLayout, QWidget


class PairingCodeDialog(QDialog):
    """A pairing code, large, for another computer to join with within the hour."""

    def __init__(self, code: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Pairing code"))
        layout = QVBoxLayout(self)
        intro = QLabel(
            self.tr(
                "On the other computer, open Settings > Sync > Join a synced profile, choose "
                "the same folder once the engine has brought it there, and enter this code:"
            )
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        self.code = QLabel(code)
        font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        font.setPointSizeF(font.pointSizeF() * 2.4)
        font.setWeight(QFont.Weight.DemiBold)
        self.code.setFont(font)
        self.code.setObjectName("recoveryCode")
        self.code.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.code.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.code)
        note = QLabel(
            self.tr(
                "It is valid for an hour, and for one computer. Anyone with it and the folder "
                "can read this profile until then: do not send it through the synced folder."
            )
        )
        note.setWordWrap(True)
        layout.addWidget(note)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.copy = buttons.addButton(self.tr("Copy"), QDialogButtonBox.ButtonRole.ActionRole)
        self.copy.clicked.connect(lambda: QGuiApplication.clipboard().setText(code))
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.setMinimumWidth(min(560, max(400, self.code.sizeHint().width() + 60)))
