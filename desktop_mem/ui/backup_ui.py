"""Owns backups and the recovery code in the window: the code shown once, the way back
in when the keyring lost the key, the Backup page of Settings, and the daily backup.

The daily backup runs in the background when one is due (a folder is chosen, daily
backups are on, and the last one is a day old): checked at start and every half hour.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from PySide6.QtCore import QLocale, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QFont, QFontDatabase, QGuiApplication
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from desktop_mem.core.errors import DesktopMemError
from desktop_mem.core.jsontypes import JSONObject, JSONValue
from desktop_mem.core.keys import recovery
from desktop_mem.core.service.keys import BackupFile, Keys
from desktop_mem.ui import tasks
from desktop_mem.ui.context import Context

CHECK_MS = 30 * 60 * 1000
DAY = timedelta(days=1)


class RecoveryCodeDialog(QDialog):
    """The recovery code, shown once: copy it, write it down, confirm."""

    def __init__(self, code: str, profile: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Your recovery code"))
        layout = QVBoxLayout(self)
        intro = QLabel(
            self.tr(
                "Your memories in the profile “%1” are encrypted with a key kept in this "
                "computer's keyring. If the keyring is ever lost (a reinstalled system, a new "
                "computer), this code is the only way to open them and their backups."
            ).replace("%1", profile)
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        self.code = QLabel(code)
        font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        font.setPointSizeF(font.pointSizeF() * 1.6)
        font.setWeight(QFont.Weight.DemiBold)
        self.code.setFont(font)
        self.code.setObjectName("recoveryCode")
        self.code.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.code)
        warn = QLabel(
            self.tr(
                "Write it down and keep it somewhere safe, away from this computer. It is "
                "shown only this once; anyone with it and a backup can read your memories."
            )
        )
        warn.setWordWrap(True)
        layout.addWidget(warn)
        self.copied = False
        self.copy = QPushButton(self.tr("Copy"))
        self.copy.clicked.connect(lambda: self._copy(code))
        self.confirm = QCheckBox(self.tr("I have written it down or stored it safely"))
        row = QHBoxLayout()
        row.addWidget(self.copy)
        row.addStretch(1)
        layout.addLayout(row)
        layout.addWidget(self.confirm)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok)
        self.ok = buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok.setText(self.tr("Continue"))
        self.ok.setEnabled(False)
        self.confirm.toggled.connect(self.ok.setEnabled)
        buttons.accepted.connect(self.accept)
        # Said when Esc (or the window's close button) is pressed too early.
        self.why = QLabel(
            self.tr(
                "Esc does not close this yet: the code is shown only once, so copy it or "
                "tick the box first."
            )
        )
        self.why.setObjectName("status")
        self.why.setWordWrap(True)
        self.why.hide()
        layout.addWidget(self.why)
        layout.addWidget(buttons)
        self.setMinimumWidth(min(560, max(380, self.code.sizeHint().width() + 60)))

    def _copy(self, code: str) -> None:
        QGuiApplication.clipboard().setText(code)
        self.copied = True
        self.why.hide()

    def confirmed(self) -> bool:
        return self.copied or self.confirm.isChecked()

    def reject(self) -> None:
        """Esc closes it once the code was copied or its keeping confirmed; before that
        it stays, and says why."""
        if self.confirmed():
            self.accept()
        elif self.why.isHidden():
            self.why.show()
            self.adjustSize()  # taller by the sentence, nothing above it cut


class LockedDialog(QDialog):
    """The keyring does not hold the key: the recovery code, a backup, or quit."""

    def __init__(self, profile: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.choice = ""
        self.setWindowTitle(self.tr("Your memories are locked"))
        layout = QVBoxLayout(self)
        text = QLabel(
            self.tr(
                "The key of the profile “%1” is not in this computer's keyring (it was reset, or "
                "this is a new computer). Enter the recovery code you wrote down when the "
                "profile was made, or restore a backup."
            ).replace("%1", profile)
        )
        text.setWordWrap(True)
        layout.addWidget(text)
        form = QFormLayout()
        self.code = QLineEdit()
        self.code.setPlaceholderText("XXXX-XXXX-XXXX-XXXX-XXXX-XXXX")
        form.addRow(self.tr("Recovery code"), self.code)
        layout.addLayout(form)
        self.error = QLabel("")
        self.error.setObjectName("status")
        self.error.setWordWrap(True)
        self.error.hide()
        layout.addWidget(self.error)
        buttons = QDialogButtonBox()
        self.unlock = buttons.addButton(self.tr("Unlock"), QDialogButtonBox.ButtonRole.AcceptRole)
        self.restore = buttons.addButton(
            self.tr("Restore a backup…"), QDialogButtonBox.ButtonRole.ActionRole
        )
        self.quit = buttons.addButton(self.tr("Quit"), QDialogButtonBox.ButtonRole.RejectRole)
        self.unlock.clicked.connect(self._unlock)
        self.restore.clicked.connect(self._restore)
        self.quit.clicked.connect(self.reject)
        layout.addWidget(buttons)
        self.setMinimumWidth(460)

    def show_error(self, text: str) -> None:
        self.error.setText(text)
        self.error.show()

    def _unlock(self) -> None:
        try:
            recovery.normalize(self.code.text())
        except DesktopMemError:
            self.show_error(
                self.tr("A recovery code has 24 letters and digits in six groups: check it.")
            )
            return
        self.choice = "code"
        self.accept()

    def _restore(self) -> None:
        self.choice = "restore"
        self.accept()


def choose_backup_file(parent: QWidget | None, folder: str = "") -> str:
    """A backup file, the picker opening in the backup folder (else the home folder)."""
    start = folder if folder and Path(folder).is_dir() else str(Path.home())
    path, _ = QFileDialog.getOpenFileName(
        parent,
        QGuiApplication.translate("backup", "Restore a backup"),
        start,
        QGuiApplication.translate("backup", "desktop-mem backups (*.dmbackup)"),
    )
    return path


class BackupWords(QObject):
    """A backup in a line. A QObject for its tr(): lupdate reads counted strings (the
    singular and plural forms) from tr() calls in a class."""

    def summary(self, header: JSONObject) -> str:
        """When a backup was made and what it holds (older backups say only when)."""
        when = str(header.get("created_at") or "")
        try:
            stamp = datetime.fromisoformat(when).astimezone().strftime("%Y-%m-%d %H:%M")
        except ValueError:
            stamp = when[:16].replace("T", " ")
        holds = header.get("holds")
        if not isinstance(holds, dict):
            return self.tr("made %1").replace("%1", stamp)
        what = [
            self.tr("%n memory(s)", "", _count(holds.get("memories", 0))),
            self.tr("%n conversation(s)", "", _count(holds.get("conversations", 0))),
            self.tr("%n document(s)", "", _count(holds.get("documents", 0))),
        ]
        return self.tr("made %1: ").replace("%1", stamp) + ", ".join(what)


def _count(value: JSONValue) -> int:
    """A count a header gives: a number (or one written as text), else 0."""
    return int(value) if isinstance(value, int | float | str) else 0


def backup_summary(header: JSONObject) -> str:
    return BackupWords().summary(header)


class BackupController(QObject):
    """Backs up the open profile now, or daily into the chosen folder."""

    finished = Signal(str)  # the backup file written
    failed = Signal(str)  # one sentence

    def __init__(self, context: Context, check_ms: int = CHECK_MS) -> None:
        super().__init__(context.view)
        self.ctx = context
        self.keys = context.app.keys
        self.settings = context.app.settings
        self.running = False
        self.timer = QTimer(self)
        self.timer.setInterval(check_ms)
        self.timer.timeout.connect(self.run_if_due)
        self.timer.start()
        self.first = QTimer(self)  # a minute after start, not during it; dies with self
        self.first.setSingleShot(True)
        self.first.timeout.connect(self.run_if_due)
        self.first.start(60_000)

    def last_backup(self) -> datetime | None:
        """The newest backup of this profile: the one this window made, or the newest in
        the backup folder (made by another process, or before a restore put an older
        copy of the settings back)."""
        stamps = [self.settings.get("last_backup_at")]
        folder = self.settings.get("backup_folder")
        if folder:
            newest = self.keys.newest_backup_in(Path(folder))
            stamps += [newest.created_at] if newest else []
        when = []
        for raw in filter(None, stamps):
            with contextlib.suppress(ValueError):
                when.append(datetime.fromisoformat(raw))
        return max(when, default=None)

    def due(self, now: datetime | None = None) -> bool:
        if not (self.settings.get("backup_daily") and self.settings.get("backup_folder")):
            return False
        last = self.last_backup()
        return last is None or (now or datetime.now(UTC)) - last >= DAY

    def run_if_due(self, now: datetime | None = None) -> bool:
        if self.keys.closed:  # the window's profile was closed (a rekey, a restore, a quit)
            self.timer.stop()
            return False
        if self.running or not self.due(now):
            return False
        return self.back_up_now()

    def back_up_now(self, on_done: Callable[[str], None] | None = None) -> bool:
        folder = self.settings.get("backup_folder")
        if self.running or not folder:
            return False
        self.running = True
        keep = int(self.settings.get("backup_keep"))

        def work() -> str:
            return str(self.keys.back_up_to_folder(Path(folder), keep).path)

        def done(path: str) -> None:
            self.running = False
            self.finished.emit(path)
            if on_done is not None:
                on_done(path)

        def failed(text: str) -> None:
            self.running = False
            self.failed.emit(text)

        tasks.run(work, done=done, failed=failed)
        return True


def _backups_in(keys: Keys, folder: str) -> tuple[str, list[BackupFile]]:
    """(the folder, this profile's backups in it, newest first): on a worker thread."""
    return folder, keys.backups_in(Path(folder))


def _local_time(stamp: str) -> str:
    """A backup's UTC time as the user's clock shows it ("2026-12-04 17:05")."""
    try:
        return datetime.fromisoformat(stamp).astimezone().strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return stamp or "?"


class BackupPage(QWidget):
    """Settings > Backup: the folder, daily backups, how many to keep, back up now,
    restore, and a new recovery code."""

    restore_requested = Signal(str)  # a backup file to restore over this profile
    new_code_requested = Signal()

    def __init__(
        self, controller: BackupController, keyring_mode: bool, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.controller = controller
        settings = controller.settings
        layout = QVBoxLayout(self)
        intro = QLabel(
            self.tr(
                "A backup is encrypted like your memories. Put the folder in Syncthing, "
                "Dropbox or iCloud Drive to carry your memories to another computer: only "
                "encrypted data is synced."
            )
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        form = QFormLayout()
        row = QHBoxLayout()
        self.folder = QLineEdit(settings.get("backup_folder") or "")
        self.folder.setPlaceholderText(self.tr("No folder chosen"))
        self.choose = QPushButton(self.tr("Choose…"))
        self.choose.clicked.connect(self._choose)
        row.addWidget(self.folder, 1)
        row.addWidget(self.choose)
        form.addRow(self.tr("Backup folder"), row)
        self.daily = QCheckBox(self.tr("Back up every day"))
        self.daily.setChecked(bool(settings.get("backup_daily")))
        form.addRow("", self.daily)
        self.keep = QSpinBox()
        self.keep.setRange(1, 365)
        self.keep.setValue(int(settings.get("backup_keep")))
        self.keep.setMaximumWidth(120)
        form.addRow(self.tr("Backups to keep"), self.keep)
        layout.addLayout(form)
        buttons = QHBoxLayout()
        self.now = QPushButton(self.tr("Back up now"))
        self.now.clicked.connect(self._back_up_now)
        self.restore = QPushButton(self.tr("Restore a backup…"))
        self.restore.clicked.connect(self._restore)
        buttons.addWidget(self.now)
        buttons.addWidget(self.restore)
        buttons.addStretch(1)
        layout.addLayout(buttons)
        self.status = QLabel(self._last_text())
        self.status.setObjectName("notice")
        self.status.setWordWrap(True)
        layout.addWidget(self.status)
        # The backups of this profile in the chosen folder, newest first; one restores.
        self.found = QTableWidget(0, 3)
        self.found.setHorizontalHeaderLabels([self.tr("Made"), self.tr("Size"), self.tr("Version")])
        self.found.verticalHeader().hide()
        header = self.found.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for column in (1, 2):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        self.found.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.found.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.found.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.found.setAccessibleName(self.tr("Backups in this folder"))
        self.found.itemSelectionChanged.connect(self._found_selected)
        self.found.itemActivated.connect(lambda *_: self._restore_selected())
        self.found.setMinimumHeight(90)
        layout.addWidget(self.found, 1)
        self.none_found = QLabel()
        self.none_found.setObjectName("notice")
        self.none_found.setWordWrap(True)
        layout.addWidget(self.none_found)
        found_row = QHBoxLayout()
        self.restore_selected = QPushButton(self.tr("Restore this backup…"))
        self.restore_selected.setEnabled(False)
        self.restore_selected.clicked.connect(self._restore_selected)
        found_row.addWidget(self.restore_selected)
        found_row.addStretch(1)
        layout.addLayout(found_row)
        self.new_code = QPushButton(self.tr("New recovery code…"))
        self.new_code.setToolTip(
            self.tr("Makes a new code and shows it once; the old one stops opening this profile.")
        )
        self.new_code.clicked.connect(self.new_code_requested)
        self.set_keyring_mode(keyring_mode)
        code_row = QHBoxLayout()
        code_row.addWidget(self.new_code)
        code_row.addStretch(1)
        layout.addLayout(code_row)
        controller.failed.connect(self._failed)
        self._asked = ""  # the folder whose backups are being looked for
        self.folder.editingFinished.connect(self.list_backups)
        self.list_backups()

    def set_keyring_mode(self, keyring_mode: bool) -> None:
        """A recovery code is offered only where the key is in the keyring."""
        self.new_code.setVisible(keyring_mode)

    # -- the backups in the folder ---------------------------------------------------

    def list_backups(self) -> None:
        """List this profile's backups in the chosen folder (read off the GUI thread:
        checking each one's seal may cost a key derivation)."""
        folder = self.folder.text().strip()
        self.found.setRowCount(0)
        self.restore_selected.setEnabled(False)
        if not folder:
            self._show_found([], self.tr("Choose a folder to see its backups."))
            return
        self._show_found([], self.tr("Looking for backups…"))
        self._asked = folder
        # bound methods: a page closed meanwhile drops the answer
        tasks.run(
            _backups_in, self.controller.keys, folder, done=self._listed, failed=self._list_failed
        )

    def _listed(self, answer: tuple[str, list[BackupFile]]) -> None:
        folder, found = answer
        if folder == self._asked:  # else another folder was chosen: its listing follows
            self._show_found(found, None)

    def _list_failed(self, text: str) -> None:
        self._show_found([], text)

    def _show_found(self, found: list[BackupFile], said: str | None) -> None:
        locale = QLocale()
        self.found.setRowCount(len(found))
        for row, b in enumerate(found):
            made = QTableWidgetItem(_local_time(b.created_at))
            made.setData(Qt.ItemDataRole.UserRole, str(b.path))
            made.setToolTip(str(b.path))
            self.found.setItem(row, 0, made)
            size = locale.formattedDataSize(b.bytes, 1, QLocale.DataSizeFormat.DataSizeSIFormat)
            self.found.setItem(row, 1, QTableWidgetItem(size))
            self.found.setItem(row, 2, QTableWidgetItem(b.app_version or "?"))
        if said is None and not found:
            said = self.tr("No backup of this profile in this folder yet.")
        self.none_found.setText(said or "")
        self.none_found.setVisible(bool(said))
        self.found.setVisible(bool(found))
        self.restore_selected.setVisible(bool(found))

    def _found_selected(self) -> None:
        self.restore_selected.setEnabled(bool(self.found.selectionModel().selectedRows()))

    def _restore_selected(self) -> None:
        rows = self.found.selectionModel().selectedRows()
        item = self.found.item(rows[0].row(), 0) if rows else None
        if item is not None:
            self.restore_requested.emit(str(item.data(Qt.ItemDataRole.UserRole)))

    def _last_text(self) -> str:
        last = self.controller.last_backup()
        if last is None:
            return self.tr("No backup yet.")
        local = last.astimezone().strftime("%Y-%m-%d %H:%M")
        return self.tr("Last backup: %1").replace("%1", local)

    def _choose(self) -> None:
        folder = QFileDialog.getExistingDirectory(
            self, self.tr("Backup folder"), self.folder.text()
        )
        if folder:
            self.folder.setText(folder)
            self.list_backups()

    def _back_up_now(self) -> None:
        folder = self.folder.text().strip()
        if not folder:
            self.status.setText(self.tr("Choose a folder for the backups first."))
            return
        self.controller.settings.set("backup_folder", folder)
        self.controller.settings.set("backup_keep", self.keep.value())
        self.now.setEnabled(False)
        self.status.setText(self.tr("Backing up…"))

        def done(path: str) -> None:
            self.now.setEnabled(True)
            self.status.setText(self.tr("Backed up to %1").replace("%1", path))
            self.list_backups()

        if not self.controller.back_up_now(done):
            self.now.setEnabled(True)
            self.status.setText(self.tr("A backup is already running."))

    def _failed(self, text: str) -> None:
        self.now.setEnabled(True)
        self.status.setObjectName("status")  # an error: in the error colour
        self.status.style().polish(self.status)
        self.status.setText(text)

    def _restore(self) -> None:
        path = choose_backup_file(self, self.folder.text().strip())
        if path:
            self.restore_requested.emit(path)

    def values(self) -> dict[str, Any]:
        return {
            "backup_folder": self.folder.text().strip(),
            "backup_daily": self.daily.isChecked(),
            "backup_keep": self.keep.value(),
        }
