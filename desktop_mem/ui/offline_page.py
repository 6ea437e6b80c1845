"""The page the chat shows when Ollama cannot be reached: what is wrong, how to start
it (said once), and Retry."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLabel, QPushButton, QVBoxLayout, QWidget


class OfflinePage(QWidget):
    """Shown when Ollama cannot be reached: what is wrong, how to fix it, Retry."""

    retry = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.addStretch(1)
        title = QLabel(self.tr("Ollama is not running"))
        title.setObjectName("banner")
        title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        layout.addWidget(title)
        self.detail = QLabel()
        self.detail.setWordWrap(True)
        self.detail.setAlignment(Qt.AlignmentFlag.AlignCenter)
        layout.addWidget(self.detail)
        how = QLabel(
            self.tr(
                "desktop-mem talks to a language model through Ollama, on this computer.\n"
                "Install it from ollama.com, then start it: open the Ollama app, or run "
                "“ollama serve” in a terminal. Your memories are safe meanwhile and can "
                "still be browsed and searched by keywords."
            )
        )
        how.setWordWrap(True)
        how.setAlignment(Qt.AlignmentFlag.AlignCenter)
        layout.addWidget(how)
        self.retry_button = QPushButton(self.tr("Retry"))
        self.retry_button.clicked.connect(self.retry)
        layout.addWidget(self.retry_button, alignment=Qt.AlignmentFlag.AlignCenter)
        layout.addStretch(2)
