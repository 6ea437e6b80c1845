"""Owns the connection to the model server: the chat backend, whether Ollama answers,
its models, and pulling a missing one."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import (
    QMessageBox,
)

from desktop_mem.core.chat.session import (
    make_backend,
    ollama_model,
)
from desktop_mem.core.models.llm import OllamaChat
from desktop_mem.ui import tasks
from desktop_mem.ui.dialogs import PullDialog

if TYPE_CHECKING:
    from desktop_mem.ui.main_window import MainWindow


RETRY_MS = 15_000  # how often a lost model server is looked for again


class ConnectionController(QObject):
    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.w = window
        self.backend = make_backend(window.profile)  # chooses the model for its own kind
        self.online = False
        self.models: list[str] = []
        self.embed_missing = False  # the embedding model is not in Ollama
        self.pull_dialog: PullDialog | None = None
        self.retry = QTimer(self)  # while offline: look again, lightly
        self.retry.setInterval(RETRY_MS)
        self.retry.timeout.connect(self._retry)

    def _retry(self) -> None:
        if not self.online and not self.w.turns.turn_busy:
            tasks.run(self.backend.models, done=self.models_listed,
                      failed_with=lambda text, exc: self.w.offline.detail.setText(
                          self._page_detail(text, exc)))  # fmt: skip

    def _page_detail(self, message: str, exc: BaseException | None) -> str:
        """The offline page's line above its start instructions: where nothing answers,
        so the instructions are given once (the error's own sentence repeats them)."""
        if getattr(exc, "reason", "") == "ollama_unreachable":
            return self.tr("Nothing answers at %1.").replace(
                "%1", self.w.profile.config.ollama_host
            )
        return message

    def chat_model(self) -> str:
        return ollama_model(self.w.profile)

    def check_ollama(self) -> None:
        self.w.ollama_status.setText(self.tr("Connecting to Ollama…"))
        tasks.run(self.backend.models, done=self.models_listed, failed_with=self.offline)

    def models_listed(self, models: list[str]) -> None:
        self.online = True
        self.models = models
        self.retry.stop()
        self.w.chat.offline_banner.hide()
        self.w.centre.setCurrentWidget(self.w.chat)
        self.w.chat.set_models(models, self.backend.model)
        embedder = self.w.profile.embedder
        # Ollama's list names the embedding model too (an OpenAI-compatible server's
        # list does not: the embedding model is Ollama's, on the profile's host)
        self.embed_missing = (
            embedder is not None
            and isinstance(self.backend, OllamaChat)
            and self.missing(embedder.model)
        )
        self.w.update_status()
        if self.missing(self.backend.model) and isinstance(self.backend, OllamaChat):
            self.offer_pull(self.backend.model)  # then, once pulled, the embedding model
        elif self.embed_missing and embedder is not None:
            self.offer_pull(embedder.model, embedding=True)
        elif embedder is not None:
            self.prepare_search()
            self.index_missing()
        self.w.turns.catch_up()  # what waited for the model to answer again

    def prepare_search(self) -> None:
        """A new profile or embedding model: what the relevance rule compares with is
        embedded now, in the background, so the first message does not wait for it."""
        profile = self.w.profile
        if profile.prepared():
            return
        self.w.show_work(self.tr("Preparing search for %1…").replace("%1", profile.embedder.model))
        # bound methods: a window rebuilt meanwhile (a new language) drops the call
        tasks.run(profile.reference.vectors, profile.embedder, done=self._prepared,
                  failed=self._prepared)  # fmt: skip

    def _prepared(self, *_: Any) -> None:
        self.w.show_work(None)

    def index_missing(self) -> None:
        """Memories and messages saved while the embedding model was missing (or the
        server down) get their vectors, in the background."""
        profile = self.w.profile

        def work(report: Any) -> int:
            return profile.index_missing(progress=report).memories

        def step(done: int, total: int) -> None:
            self.w.show_work(self.tr("Indexing memories…"), done, total)

        def finished(n: int) -> None:
            self.w.show_work(None)
            if n:
                self.w.statusBar().showMessage(
                    self.tr("%n memory(s) can now be found by meaning too.", "", n), 8000
                )
                self.w.memory.refresh_memories()

        if profile.unindexed().total:
            tasks.run(work, done=finished, failed=lambda _text: self.w.show_work(None),
                      progress=step)  # fmt: skip

    def missing(self, model: str) -> bool:
        names = set(self.models) | {m.removesuffix(":latest") for m in self.models}
        return model not in names

    def offline(self, message: str, exc: BaseException | None = None) -> None:
        """Ollama does not answer. A new, empty chat shows the page with the start
        instructions; a conversation being read stays readable under a one-line notice
        (reading, searching and managing never need the model server). While offline,
        a light check every RETRY_MS finds it again."""
        self.online = False
        self.w.offline.detail.setText(self._page_detail(message, exc))
        self.w.chat.offline_banner.setText(
            self.tr("The model server is not answering: you can read and search, not send.")
            + f" {message}"
        )
        if self.w.chat.messages:
            self.w.centre.setCurrentWidget(self.w.chat)
            self.w.chat.offline_banner.show()
        else:
            self.w.centre.setCurrentWidget(self.w.offline)
        self.w.update_status()
        self.retry.start()

    def show_chat(self) -> None:
        """The chat, e.g. when a conversation is opened: the page only for an empty one."""
        if self.online or self.w.chat.messages:
            self.w.centre.setCurrentWidget(self.w.chat)
            self.w.chat.offline_banner.setVisible(not self.online)

    def offer_pull(self, model: str, embedding: bool = False) -> None:
        if embedding:
            title = self.tr("Embedding model not installed")
            text = self.tr(
                "The embedding model %1 is not installed in Ollama, so memories are found "
                "by their words only, not by their meaning. Download it now? Memories saved "
                "meanwhile are indexed once it is there."
            )
        else:
            title = self.tr("Model not installed")
            text = self.tr("The chat model %1 is not installed in Ollama. Download it now?")
        answer = QMessageBox.question(self.w, title, text.replace("%1", model))
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
