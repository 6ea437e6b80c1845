"""Owns Settings: the dialog, applying what changed (model server, models, memory
switches, language, theme, backups) and re-indexing for a new embedding model."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (
    QMessageBox,
    QWidget,
)

from desktop_mem.core.chat.session import (
    remote_notice,
)
from desktop_mem.core.config import normalize_host
from desktop_mem.core.errors import DesktopMemError
from desktop_mem.core.keys.vault import KeyringAccess
from desktop_mem.core.store import backup
from desktop_mem.ui import tasks
from desktop_mem.ui.apps_ui import AppsPage
from desktop_mem.ui.backup_ui import BackupPage, RecoveryCodeDialog
from desktop_mem.ui.dialogs import SettingsDialog

if TYPE_CHECKING:
    from desktop_mem.ui.main_window import MainWindow


class SettingsController(QObject):
    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.w = window

    def open_settings(self) -> None:
        values = {
            **self.w.settings.all(),
            "ollama_host": self.w.profile.config.ollama_host,
            "chat_model": self.w.connection.backend.model,
            "embed_model": self.w.profile.embedder.model,
            "language": self.w.qsettings.value("ui/language", "en"),
            "theme": self.w.qsettings.value("ui/theme", "system"),
            "data_folder": str(self.w.profile.db.path.parent),
            "key_mode": self.w.profile.db.key_mode,
            "keyring_usable": KeyringAccess().problem() is None,
        }
        backup_page = BackupPage(self.w.backups, self.w.profile.db.key_mode != "passphrase")
        apps_page = AppsPage(
            self.w.profile.db, self.w.profile.config.profile, home=self.w.profile.config.home
        )
        pages = [(self.tr("Backup"), backup_page), (self.tr("Apps"), apps_page)]
        dialog = SettingsDialog(values, self.w.connection.models, self.w, pages)
        dialog.open_folder.clicked.connect(
            lambda: QDesktopServices.openUrl(QUrl.fromLocalFile(str(self.w.profile.db.path.parent)))
        )
        restore: list[str] = []
        backup_page.restore_requested.connect(lambda path: (restore.append(path), dialog.accept()))
        backup_page.new_code_requested.connect(lambda: self.new_recovery_code(dialog))
        if dialog.exec() == SettingsDialog.DialogCode.Accepted:
            self.apply_settings({**dialog.values(), **backup_page.values()})
            if dialog.key_request:
                self.w.key_change_requested.emit(dialog.key_request)
            elif restore:
                self.w.restore_requested.emit(restore[0])

    def new_recovery_code(self, parent: QWidget | None = None) -> None:
        answer = QMessageBox.question(
            parent or self.w,
            self.tr("New recovery code"),
            self.tr(
                "Make a new recovery code? The old one will no longer open this profile or its "
                "new backups (backups made before still open with the old one)."
            ),
        )
        if answer != QMessageBox.StandardButton.Yes:
            return
        try:
            code = backup.renew_recovery_code(self.w.profile.db)
        except DesktopMemError as exc:
            self.w.show_error(tasks.describe_exception(exc, str(exc)))
            return
        RecoveryCodeDialog(code, self.w.profile.config.profile, parent or self.w).exec()

    def apply_settings(self, values: dict[str, Any]) -> None:
        try:
            host = normalize_host(values["ollama_host"])
        except DesktopMemError as exc:
            self.w.show_error(str(exc))
            return
        for key in (
            "auto_memory",
            "use_memory",
            "sleep_consolidation",
            "instructions",
            "context_tokens",
            "openai_enabled",
            "openai_base_url",
            "openai_model",
        ):
            if key in values:
                self.w.settings.set(key, values[key])
        if values.get("openai_api_key"):
            self.w.settings.set("openai_api_key", values["openai_api_key"])
        for key in ("backup_folder", "backup_daily", "backup_keep"):
            if key in values:
                self.w.settings.set(key, values[key])
        self.w.settings.set("chat_model", values["chat_model"])
        self.w.qsettings.setValue("ollama/host", host)
        old_embed = self.w.profile.embedder.model
        new_embed = values["embed_model"] or old_embed
        self.w.profile.set_ollama_host(host)
        try:
            self.w.connection.use_model(values["chat_model"])
        except DesktopMemError as exc:
            self.w.show_error(str(exc))
        notice = remote_notice(self.w.profile, self.w.connection.backend)
        if notice:  # once: messages now leave this computer
            QMessageBox.information(self.w, self.tr("Messages will leave this computer"), notice)
        self.w.auto_action.setChecked(bool(self.w.settings.get("auto_memory")))
        self.w.update_status()
        self.w.connection.check_ollama()
        if new_embed != old_embed:
            self.change_embedding_model(new_embed)
        if values["theme"] != self.w.qsettings.value("ui/theme", "system"):
            self.w.qsettings.setValue("ui/theme", values["theme"])
            self.w.theme_changed.emit(values["theme"])
        if values["language"] != self.w.qsettings.value("ui/language", "en"):
            self.w.qsettings.setValue("ui/language", values["language"])
            self.w.language_changed.emit(values["language"])

    def change_embedding_model(self, model: str) -> None:
        answer = QMessageBox.question(
            self.w,
            self.tr("Re-index memories?"),
            self.tr("Search by meaning needs every memory re-indexed with %1. Do it now? "
                    "Until it finishes, the old index keeps working.").replace("%1", model),
        )  # fmt: skip
        if answer != QMessageBox.StandardButton.Yes:
            return

        def work(report: Any) -> int:
            return self.w.profile.reembed(model, progress=report).memories

        def done(n: int) -> None:
            self.w.show_work(None)
            self.w.statusBar().showMessage(self.tr("Re-indexed %n memory(s).", "", n), 10000)

        self.w.show_work(self.tr("Re-indexing memories…"))
        tasks.run(
            work,
            done=done,
            failed=self.w.show_error,
            progress=lambda d, t: self.w.show_work(self.tr("Re-indexing memories…"), d, t),
        )
