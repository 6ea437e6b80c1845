"""A document passage an answer was given, opened from its chip: the passage itself, where
it is in the file, and the file (open it in the user's viewer at its page, or copy its
path where no viewer is set up: the chip never does nothing)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt, QUrl
from PySide6.QtGui import QDesktopServices, QGuiApplication
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from desktop_mem.core.documents.records import PassageHit
from desktop_mem.ui import focus


def where(passage: PassageHit) -> str:
    """'handbook.pdf, page 12' / 'notes.md, Setup › Keys', in the interface's language."""
    if passage.page:
        return (
            QCoreApplication.translate("PassageDialog", "%1, page %2")
            .replace("%1", passage.title)
            .replace("%2", str(passage.page))
        )
    return f"{passage.title}, {passage.heading}" if passage.heading else passage.title


def open_file(path: str, page: int | None) -> bool:
    """Open a file in the user's viewer, at its page where the viewer takes one (PDF
    viewers read #page=N). False when nothing could open it."""
    url = QUrl.fromLocalFile(path)
    if page and path.lower().endswith(".pdf"):
        url.setFragment(f"page={page}")
    return QDesktopServices.openUrl(url)


class PassageDialog(QDialog):
    def __init__(self, passage: PassageHit, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.passage = passage
        self.setWindowTitle(where(passage))
        layout = QVBoxLayout(self)
        self.text = QPlainTextEdit(passage.text)
        self.text.setReadOnly(True)
        self.text.setTabChangesFocus(True)
        layout.addWidget(self.text, 1)
        self.path = QLabel(passage.path)
        self.path.setObjectName("notice")
        self.path.setWordWrap(True)
        self.path.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.path)
        self.problem = QLabel()
        self.problem.setObjectName("status")
        self.problem.setWordWrap(True)
        self.problem.hide()
        layout.addWidget(self.problem)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.open_button = buttons.addButton(
            self.tr("Open the file"), QDialogButtonBox.ButtonRole.ActionRole
        )
        self.copy_button = buttons.addButton(
            self.tr("Copy its path"), QDialogButtonBox.ButtonRole.ActionRole
        )
        self.open_button.clicked.connect(self.open_in_viewer)
        self.copy_button.clicked.connect(lambda: QGuiApplication.clipboard().setText(passage.path))
        buttons.rejected.connect(self.reject)
        close = buttons.button(QDialogButtonBox.StandardButton.Close)
        close.setDefault(True)
        layout.addWidget(buttons)
        focus.chain(focus.in_order(self))  # the buttons as they are shown, Close last
        self.resize(560, 380)

    def open_in_viewer(self) -> bool:
        if open_file(self.passage.path, self.passage.page):
            return True
        self.problem.setText(
            self.tr("No program on this computer opens this kind of file. Its path is above; "
                    "Copy its path puts it on the clipboard.")
        )  # fmt: skip
        self.problem.show()
        return False
