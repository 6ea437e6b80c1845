"""The page the chat shows when Ollama cannot be reached: what is wrong, how to start
it (said once), and Retry."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

COLUMN = 560  # px: the explanation reads as a paragraph, not one line across the window


class OfflinePage(QWidget):
    """Shown when Ollama cannot be reached: what is wrong, how to fix it, Retry, and
    Settings… for another address."""

    retry = Signal()
    settings = Signal()  # Settings…: another address for the model server

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        outer = QHBoxLayout(self)
        column = QWidget()  # a readable column, centred
        column.setMaximumWidth(COLUMN)
        outer.addStretch(1)
        outer.addWidget(column, 100)
        outer.addStretch(1)
        layout = QVBoxLayout(column)
        layout.addStretch(1)
        self.title = title = QLabel(self.tr("Ollama is not running"))
        title.setObjectName("banner")
        title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        layout.addWidget(title)
        self.detail = QLabel()
        self.detail.setWordWrap(True)
        self.detail.setAlignment(Qt.AlignmentFlag.AlignCenter)
        layout.addWidget(self.detail)
        self.how = how = QLabel(
            self.tr(
                "desktop-mem talks to a language model through Ollama, on this computer.\n"
                "Install it from ollama.com, then start it: open the Ollama app (on Linux it "
                "runs as a service once installed). Your memories are safe meanwhile and can "
                "still be browsed and searched by keywords."
            )
        )
        how.setWordWrap(True)
        how.setAlignment(Qt.AlignmentFlag.AlignCenter)
        layout.addWidget(how)
        self.retry_button = QPushButton(self.tr("Retry"))
        self.retry_button.clicked.connect(self.retry)
        self.settings_button = QPushButton(self.tr("Settings…"))
        self.settings_button.setToolTip(self.tr("Change the model server's address"))
        self.settings_button.clicked.connect(self.settings)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.retry_button)
        buttons.addWidget(self.settings_button)
        buttons.addStretch(1)
        layout.addLayout(buttons)
        layout.addStretch(2)

    def set_failing(self, failing: bool) -> None:
        """The server is there but answers with an error (HTTP 500…): say that, not
        that it is not running, and leave out how to install and start it."""
        self.title.setText(
            self.tr("The model server answers with an error")
            if failing
            else self.tr("Ollama is not running")
        )
        self.how.setVisible(not failing)
