"""Owns the connection to the model server: the chat backend, whether Ollama answers,
its models, and pulling a missing one."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject
from PySide6.QtWidgets import (
    QMessageBox,
)

from desktop_mem.core.chat import (
    make_backend,
    ollama_model,
)
from desktop_mem.core.llm import OllamaChat
from desktop_mem.ui import tasks
from desktop_mem.ui.dialogs import PullDialog

if TYPE_CHECKING:
    from desktop_mem.ui.main_window import MainWindow


class ConnectionController(QObject):
    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.w = window
        self.backend = make_backend(window.profile, ollama_model(window.profile))
        self.online = False
        self.models: list[str] = []
        self.pull_dialog: PullDialog | None = None

    def chat_model(self) -> str:
        return ollama_model(self.w.profile)

    def check_ollama(self) -> None:
        self.w.ollama_status.setText(self.tr("Connecting to Ollama…"))
        tasks.run(self.backend.models, done=self.models_listed, failed=self.offline)

    def models_listed(self, models: list[str]) -> None:
        self.online = True
        self.models = models
        self.w.centre.setCurrentWidget(self.w.chat)
        self.w.chat.set_models(models, self.backend.model)
        self.w.update_status()
        if self.missing(self.backend.model) and isinstance(self.backend, OllamaChat):
            self.offer_pull(self.backend.model)

    def missing(self, model: str) -> bool:
        names = set(self.models) | {m.removesuffix(":latest") for m in self.models}
        return model not in names

    def offline(self, message: str) -> None:
        self.online = False
        self.w.offline.detail.setText(message)
        self.w.centre.setCurrentWidget(self.w.offline)
        self.w.update_status()

    def offer_pull(self, model: str) -> None:
        answer = QMessageBox.question(
            self.w,
            self.tr("Model not installed"),
            self.tr("The chat model %1 is not installed in Ollama. Download it now?").replace(
                "%1", model
            ),
        )
        if answer == QMessageBox.StandardButton.Yes:
            self.pull(model)

    def pull(self, model: str) -> None:
        dialog = PullDialog(model, self.w)
        cancel = threading.Event()
        dialog.cancelled.connect(cancel.set)
        chat = OllamaChat(self.backend.host, model)

        def work(report: Any) -> bool:
            return chat.pull(lambda p: report(p.completed, p.total or 0), cancel=cancel)

        def step(done: int, total: int) -> None:
            dialog.update_progress(self.tr("Downloading…"), done, total)

        def finished(ok: bool) -> None:
            dialog.accept()
            if ok:
                self.check_ollama()

        def failed(text: str) -> None:
            dialog.reject()
            QMessageBox.warning(self.w, self.tr("Download failed"), text)

        tasks.run(work, done=finished, failed=failed, progress=step)
        dialog.open()
        self.pull_dialog = dialog

    def use_model(self, name: str | None) -> None:
        """A backend for the profile's settings and this model; the open chat uses it."""
        self.backend = make_backend(self.w.profile, name)
        if self.w.turns.session is not None:
            self.w.turns.session.set_backend(self.backend)

    def set_chat_model(self, name: str) -> None:
        if not name or name == self.backend.model:
            return
        self.w.settings.set("chat_model", name)
        self.use_model(name)
        self.w.update_status()
        if self.online and self.missing(name):
            self.offer_pull(name)
