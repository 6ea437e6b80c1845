"""Owns Settings: the dialog, applying what changed (model server, models, memory
switches, language, theme, backups) and re-indexing everything for a new embedding
model. What only the running app can do (a new language, theme or key, a restore) is
asked for on the hub."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget

from desktop_mem.core.config import normalize_host
from desktop_mem.core.errors import DesktopMemError
from desktop_mem.core.keys.vault import KeyringAccess
from desktop_mem.core.models.catalog import download_size, short_name
from desktop_mem.core.models.llm import OllamaChat
from desktop_mem.core.service.models import Reindexed
from desktop_mem.ui import tasks
from desktop_mem.ui.apps_ui import AppsPage
from desktop_mem.ui.backup_ui import BackupController, BackupPage, RecoveryCodeDialog
from desktop_mem.ui.connection import ConnectionController, size_text
from desktop_mem.ui.context import Context, shown_language
from desktop_mem.ui.settings_dialog import SettingsDialog
from desktop_mem.ui.spaces_ui import SpacesPage
from desktop_mem.ui.sync_controller import SyncController
from desktop_mem.ui.sync_ui import SyncPage
from desktop_mem.ui.tasks import Report

PROFILE_KEYS = (
    "auto_memory", "use_memory", "sleep_consolidation", "about_you", "instructions",
    "context_tokens",
    "openai_enabled", "openai_base_url", "openai_model",
    "backup_folder", "backup_daily", "backup_keep",
)  # fmt: skip


class SettingsController(QObject):
    def __init__(
        self,
        context: Context,
        connection: ConnectionController,
        backups: BackupController,
        syncing: SyncController,
    ) -> None:
        super().__init__(context.view)
        self.ctx = context
        self.connection = connection
        self.backups = backups
        self.syncing = syncing
        self.dialog: SettingsDialog | None = None
        context.hub.settings_page_requested.connect(self.open_settings)

    def _language_shown(self) -> str:
        """The choice as Settings shows it: the one saved, unless the window is in
        another language than that choice gives (then that language, by name: Settings
        never says a language the window is not in)."""
        choice = self.ctx.language()
        shown = str(QApplication.instance().property("desktop_mem_language") or "")  # type: ignore[union-attr]
        return choice if not shown or shown_language(choice) == shown else shown

    def values(self) -> dict[str, Any]:
        app, server = self.ctx.app, self.ctx.server
        return {
            **app.settings.all(),
            "ollama_host": app.models.ollama_host,
            "chat_model": short_name(server.backend.model),
            "embed_model": short_name(app.models.embedding_model),
            "language": self._language_shown(),
            "theme": self.ctx.prefs.value("ui/theme", "system"),
            "data_folder": str(app.keys.data_folder),
            "key_mode": app.keys.mode,
            "keyring_usable": KeyringAccess().problem() is None,
        }

    def open_settings(self, page: object = None) -> None:
        """Settings, at the tab `page` names ("spaces"; else the first)."""
        if self.dialog is not None:  # open already (a link inside it asked)
            return
        app, server = self.ctx.app, self.ctx.server
        backup_page = BackupPage(self.backups, app.keys.mode != "passphrase")
        apps_page = AppsPage(
            app.apps, self.ctx.core, app.name, home=app.config.home, spaces=app.spaces
        )
        sync_page = SyncPage(self.syncing)
        spaces_page = SpacesPage(self.ctx)
        pages = [
            (self.tr("Spaces"), spaces_page),
            (self.tr("Backup"), backup_page),
            (self.tr("Sync"), sync_page),
            (self.tr("Apps"), apps_page),
        ]
        dialog = SettingsDialog(
            self.values(), server.models, self.ctx.view, pages, server.embedding_models
        )
        self.dialog = dialog
        self.spaces_page = spaces_page
        if page == "spaces":
            dialog.tabs.setCurrentWidget(spaces_page)

        def key_changed() -> None:  # the key, or what opens it, changed meanwhile
            dialog.show_key(app.keys.mode, KeyringAccess().problem() is None)
            backup_page.set_keyring_mode(app.keys.mode != "passphrase")

        def closed() -> None:  # the dialog stays (its parent is the window), unheard
            self.ctx.core.key_changed.disconnect(key_changed)
            apps_page.stop()
            spaces_page.stop()

        self.ctx.core.key_changed.connect(key_changed)
        dialog.finished.connect(closed)
        dialog.open_folder.clicked.connect(
            lambda: QDesktopServices.openUrl(QUrl.fromLocalFile(str(app.keys.data_folder)))
        )
        restore: list[str] = []

        def restore_chosen(path: str) -> None:
            restore.append(path)
            dialog.accept()

        backup_page.restore_requested.connect(restore_chosen)
        shown: list[int] = []

        def memory_chosen(memory_id: int) -> None:  # a memory edited on two computers
            shown.append(memory_id)
            dialog.accept()

        sync_page.memory_requested.connect(memory_chosen)
        conflicts: list[bool] = []

        def conflicts_chosen() -> None:  # the link: the memory list, filtered to them
            conflicts.append(True)
            dialog.accept()

        sync_page.conflicts_requested.connect(conflicts_chosen)
        backup_page.new_code_requested.connect(lambda: self.new_recovery_code(dialog))
        accepted = dialog.exec() == SettingsDialog.DialogCode.Accepted
        self.dialog = None
        if accepted:
            self.apply_settings({**dialog.values(), **backup_page.values()})
            if dialog.key_request:
                self.ctx.hub.key_change_requested.emit(dialog.key_request)
            elif restore:
                self.ctx.hub.restore_requested.emit(restore[0])
            elif shown:
                self.ctx.hub.memory_requested.emit(shown[0])
            elif conflicts:
                self.ctx.hub.edited_on_both_requested.emit()

    def new_recovery_code(self, parent: QWidget | None = None) -> None:
        answer = QMessageBox.question(
            parent or self.ctx.view,
            self.tr("New recovery code"),
            self.tr(
                "Make a new recovery code? The old one will no longer open this profile or its "
                "new backups (backups made before still open with the old one)."
            ),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        if answer != QMessageBox.StandardButton.Yes:
            return
        try:
            code = self.ctx.app.keys.renew_recovery_code()
        except DesktopMemError as exc:
            self.ctx.hub.error.emit(tasks.describe_exception(exc, str(exc)))
            return
        RecoveryCodeDialog(code, self.ctx.app.name, parent or self.ctx.view).exec()

    def apply_settings(self, values: dict[str, Any]) -> None:
        app, prefs = self.ctx.app, self.ctx.prefs
        try:
            host = normalize_host(values["ollama_host"])
        except DesktopMemError as exc:
            self.ctx.hub.error.emit(tasks.describe_exception(exc, str(exc)))
            return
        for key in PROFILE_KEYS:
            if key in values:
                app.settings.set(key, values[key])
        if values.get("openai_api_key"):
            app.settings.set("openai_api_key", values["openai_api_key"])
        app.settings.set("chat_model", values["chat_model"])
        prefs.setValue("ollama/host", host)
        old_embed = short_name(app.models.embedding_model)
        new_embed = short_name(values["embed_model"] or old_embed)
        try:
            app.models.set_ollama_host(host, values["chat_model"] or None)
        except DesktopMemError as exc:
            self.ctx.hub.error.emit(tasks.describe_exception(exc, str(exc)))
        self._remote_notice()
        self.connection.check()  # what the server has, there; an offer comes only once
        if new_embed != old_embed:
            self.change_embedding_model(new_embed)
        if values["theme"] != prefs.value("ui/theme", "system"):
            prefs.setValue("ui/theme", values["theme"])
            self.ctx.hub.theme_requested.emit(values["theme"])
        if values["language"] != self.ctx.language():
            prefs.setValue("ui/language", values["language"])
            shown = QApplication.instance().property("desktop_mem_language")  # type: ignore[union-attr]
            if shown_language(values["language"]) != shown:  # else it is shown already
                self.ctx.hub.language_requested.emit(values["language"])

    def _remote_notice(self) -> None:
        """Once per server: messages now leave this computer."""
        settings, backend = self.ctx.app.settings, self.ctx.server.backend
        if backend.local:
            return
        seen = f"{backend.host}".strip()
        if settings.get("remote_notice_seen") == seen:
            return
        settings.set("remote_notice_seen", seen)
        text = (
            self.tr("The Ollama server %1 is not this computer: your messages and the memories "
                    "retrieved for them are sent to it over the network.")
            if isinstance(backend, OllamaChat)
            else self.tr("The OpenAI-compatible server is on: your messages and the memories "
                         "retrieved for them are sent to %1, outside this computer.")
        )  # fmt: skip
        QMessageBox.information(
            self.ctx.view, self.tr("Messages will leave this computer"), text.replace("%1", seen)
        )

    def change_embedding_model(self, model: str) -> bool:
        """Re-index every memory, message and passage with `model` (downloaded first if
        the server does not have it), in the background with progress; until it is done
        the old index answers searches. The server is asked first (off the GUI thread)
        whether it has the model: it may have been downloaded since the window looked."""
        if self.ctx.server.indexing:
            return False
        models = self.ctx.app.models

        def there() -> bool:
            found = models.ollama().inventory()
            return short_name(model) in [m.name for m in found if m.embedding]

        tasks.run(
            there,
            done=lambda has: self._confirm_reindex(model, missing=not has),
            failed=lambda _text: self._confirm_reindex(model, missing=False),
        )
        return True

    def _confirm_reindex(self, model: str, missing: bool) -> None:
        size = size_text(download_size(model))
        if missing:
            text = (
                self.tr("The embedding model %1 (a %2 download) is not installed in Ollama. "
                        "Download it, then re-index every memory, message and document "
                        "passage with it? Until that is done, the old index keeps working.")
                if size
                else self.tr("The embedding model %1 is not installed in Ollama. Download it, "
                             "then re-index every memory, message and document passage with "
                             "it? Until that is done, the old index keeps working.")
            )  # fmt: skip
        else:
            text = self.tr("Search by meaning needs every memory, message and document passage "
                           "re-indexed with %1. Do it now? Until it finishes, the old index "
                           "keeps working.")  # fmt: skip
        answer = QMessageBox.question(
            self.ctx.view,
            self.tr("Re-index everything?"),
            text.replace("%1", model).replace("%2", size),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.Yes,
        )
        if answer != QMessageBox.StandardButton.Yes:
            return
        if missing:
            self.connection.pull(model, then=lambda: self.reindex(model))
        else:
            self.reindex(model)

    def reindex(self, model: str) -> None:
        hub = self.ctx.hub
        what = self.tr("Re-indexing with %1…").replace("%1", model)
        self.ctx.server.indexing = True

        app = self.ctx.app

        def work(report: Report) -> Reindexed:
            return app.models.reembed(model, progress=report)

        def done(n: Reindexed) -> None:
            self.ctx.server.indexing = False
            hub.work.emit(None, 0, 0)
            self.ctx.server.embed_missing = False
            self.ctx.server.changed.emit()
            hub.status.emit(
                self.tr("Re-indexed %n item(s) with %1.", "", n.total).replace("%1", model), 10000
            )

        def failed(text: str) -> None:
            self.ctx.server.indexing = False
            hub.work.emit(None, 0, 0)
            hub.error.emit(
                self.tr("Re-indexing stopped; the old index is still in use. %1").replace(
                    "%1", text
                )
            )

        hub.work.emit(what, 0, 0)
        tasks.run(work, done=done, failed=failed, progress=lambda d, t: hub.work.emit(what, d, t))
