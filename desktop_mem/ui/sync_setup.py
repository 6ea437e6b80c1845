"""Settings > Sync while this computer does not sync: its name, and the two ways in:
sync this profile through a folder, or join a synced one. The form only: the page
(ui/sync_ui.py) has the sync controller do what it asks for."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from desktop_mem.ui.sync_controller import default_computer_name


class SetUpOrJoin(QWidget):
    """This computer's name; a folder to sync this profile through; or a folder and a
    code to join a synced profile with (a profile that holds anything cannot join)."""

    set_up_requested = Signal(str, str)  # the folder, this computer's name
    join_requested = Signal(str, str, str)  # the folder, the code, this computer's name
    said = Signal(str, bool)  # what is missing, for the page's line (True: an error)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        intro = QLabel(
            self.tr(
                "Use this profile on more than one computer. desktop-mem keeps it in a folder "
                "that a sync engine carries between them: Syncthing, Dropbox, iCloud Drive, "
                "OneDrive, Nextcloud or a network share. Only encrypted data goes into that "
                "folder: no memory, message or name can be read there."
            )
        )
        intro.setWordWrap(True)
        column.addWidget(intro)
        form = QFormLayout()
        self.name = QLineEdit(default_computer_name())
        self.name.setMaxLength(60)
        self.name.setToolTip(self.tr("How the other computers list this one"))
        form.addRow(self.tr("This computer's name"), self.name)
        column.addLayout(form)

        box = QGroupBox(self.tr("Sync this profile through a folder"))
        inner = QFormLayout(box)
        self.set_up_folder, row = self._folder_row()
        inner.addRow(self.tr("Folder"), row)
        self.set_up_button = QPushButton(self.tr("Sync through this folder"))
        self.set_up_button.clicked.connect(self._set_up)
        buttons = QHBoxLayout()
        buttons.addWidget(self.set_up_button)
        buttons.addStretch(1)
        inner.addRow("", buttons)
        column.addWidget(box)

        box = QGroupBox(self.tr("Join a synced profile"))
        self.join_box = box
        inner = QFormLayout(box)
        self.join_folder, row = self._folder_row()
        inner.addRow(self.tr("Folder"), row)
        self.code = QLineEdit()
        self.code.setPlaceholderText(self.tr("The recovery code, or a pairing code"))
        inner.addRow(self.tr("Code"), self.code)
        self.join_button = QPushButton(self.tr("Join"))
        self.join_button.clicked.connect(self._join)
        buttons = QHBoxLayout()
        buttons.addWidget(self.join_button)
        buttons.addStretch(1)
        inner.addRow("", buttons)
        self.join_note = QLabel(
            self.tr(
                "Joining fills a new, empty profile with everything the other computers hold. "
                "This profile already holds memories or conversations, so it cannot join: "
                "nothing here is changed. To use them on another computer, sync this profile "
                "through a folder above, then join from there."
            )
        )
        self.join_note.setWordWrap(True)
        inner.addRow(self.join_note)
        column.addWidget(box)

    def show_state(self, info: dict[str, Any], running: bool) -> None:
        """How the profile stands (the controller's reading, sync off): the name it had
        before, and whether it is empty enough to join."""
        if not self.name.isModified() and info.get("name"):  # as it was called before
            self.name.setText(str(info["name"]))
        empty = bool(info.get("empty"))
        for w in (self.join_folder, self.code):
            w.setEnabled(empty)
        self.join_button.setEnabled(empty and not running)
        self.join_note.setVisible(not empty)
        self.set_up_button.setEnabled(not running)

    def busy(self) -> None:
        """Setting up or joining: neither can be asked again meanwhile."""
        for w in (self.set_up_button, self.join_button):
            w.setEnabled(False)

    def _folder_row(self) -> tuple[QLineEdit, QHBoxLayout]:
        edit = QLineEdit()
        edit.setPlaceholderText(self.tr("No folder chosen"))
        choose = QPushButton(self.tr("Choose…"))
        choose.clicked.connect(lambda: self._choose(edit))
        row = QHBoxLayout()
        row.addWidget(edit, 1)
        row.addWidget(choose)
        return edit, row

    def _choose(self, edit: QLineEdit) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Sync folder"), edit.text())
        if folder:
            edit.setText(folder)

    def _set_up(self) -> None:
        folder = self.set_up_folder.text().strip()
        if not folder:
            self.said.emit(self.tr("Choose the folder your sync engine carries first."), True)
            return
        self.set_up_requested.emit(folder, self._name())

    def _join(self) -> None:
        folder = self.join_folder.text().strip()
        code = self.code.text().strip()
        if not folder or not code:
            self.said.emit(
                self.tr("Choose the folder the other computer syncs through, and enter a code."),
                True,
            )
            return
        self.join_requested.emit(folder, code, self._name())

    def _name(self) -> str:
        return self.name.text().strip() or default_computer_name()
