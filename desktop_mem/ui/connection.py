"""Owns the window's talk with the model server about the server itself: whether it
answers (looked for again while it does not), which models it has and which of them
embed, downloading a missing model (offered once, with its size, then with progress),
and indexing what has no vector yet once the embedding model is there. The state lives
in the context (context.server); this controller changes it and says so."""

from __future__ import annotations

import threading
from collections.abc import Callable

from PySide6.QtCore import QLocale, QObject, QTimer, Signal
from PySide6.QtWidgets import QApplication, QDialog, QMessageBox

from desktop_mem.core.models.catalog import ModelInfo, download_size, short_name
from desktop_mem.core.models.llm import OllamaChat
from desktop_mem.core.service.models import Reindexed
from desktop_mem.ui import tasks
from desktop_mem.ui.context import Context
from desktop_mem.ui.pull_dialog import PullDialog
from desktop_mem.ui.tasks import Report

RETRY_MS = 15_000  # how often a lost model server is looked for again
OFFERED_KEY = "models/offered"  # the models whose download was offered once already


def size_text(size: int) -> str:
    """A size as the Ollama library states it: "1.2 GB" (SI units), in the UI's locale."""
    if not size:
        return ""
    digits = 1 if size >= 1_000_000_000 else 0  # "1.2 GB", "274 MB"
    return QLocale().formattedDataSize(size, digits, QLocale.DataSizeFormat.DataSizeSIFormat)


def _answers_with_error(exc: BaseException | None) -> bool:
    """The server is there but answers with an error (not: nothing answers)."""
    return getattr(exc, "reason", "") in ("model_failed", "invalid_answer")


class ConnectionController(QObject):
    downloads_changed = Signal()  # a download began, moved on a percent, or ended

    def __init__(self, context: Context) -> None:
        super().__init__(context.view)
        self.ctx = context
        self.server = context.server
        self.pull_dialog: PullDialog | None = None
        # by model (its short name): how far its download is, in percent (-1: not known
        # yet), so the status bar says so instead of offering to download it again
        self.downloads: dict[str, int] = {}
        self.unindexed = 0  # memories, messages and passages without a vector
        self.retry = QTimer(self)  # while offline: look again, lightly
        self.retry.setInterval(RETRY_MS)
        self.retry.timeout.connect(self._retry)
        context.hub.server_lost.connect(self.offline)
        context.hub.chat_model_missing.connect(lambda model: self.offer_pull(model))

    # -- is the server there, and what does it have ----------------------------------

    def _inventory(self) -> tuple[list[ModelInfo], list[ModelInfo]]:
        """(chat models, embedding models) the servers have (Service.models.inventory)."""
        return self.ctx.app.models.inventory()

    def check(self) -> None:
        """Ask the server what it has (off the GUI thread); `server.changed` follows."""
        self.server.checking = True
        self.server.changed.emit()
        tasks.run(self._inventory, done=self.listed, failed_with=self.offline)

    def _retry(self) -> None:
        if not self.server.online and not self.ctx.chat.busy:
            tasks.run(self._inventory, done=self.listed, failed_with=self._still_offline)

    def _still_offline(self, message: str, exc: BaseException | None = None) -> None:
        self.server.problem = self._problem(message, exc)
        self.server.failing = message if _answers_with_error(exc) else ""
        self.server.changed.emit()

    def _problem(self, message: str, exc: BaseException | None) -> str:
        """Where nothing answers (the offline page gives the start instructions once),
        or the error's own sentence."""
        if getattr(exc, "reason", "") == "ollama_unreachable":
            return self.tr("Nothing answers at %1.").replace("%1", self.ctx.app.models.ollama_host)
        return message

    def listed(self, found: tuple[list[ModelInfo], list[ModelInfo]]) -> None:
        chat, embedding = found
        server = self.server
        server.online, server.checking, server.problem = True, False, ""
        server.failing = ""  # a fresh look: the next failed request says so again
        server.models = [m.name for m in chat]
        server.embedding_models = [m.name for m in embedding]
        self.retry.stop()
        embed_model = self.ctx.app.models.embedding_model
        # Ollama's list names the embedding model (an OpenAI-compatible server's does
        # not: the embedding model is Ollama's, on the profile's host, if it answers)
        server.embed_missing = (
            isinstance(server.backend, OllamaChat) or bool(embedding)
        ) and short_name(embed_model) not in server.embedding_models
        self.unindexed = self.ctx.app.models.unindexed().total
        server.changed.emit()
        self._when_no_dialog(self._offer_or_index)
        self.ctx.hub.server_found.emit()  # what waited for the model to answer again

    def _offer_or_index(self) -> None:
        server, embed_model = self.server, self.ctx.app.models.embedding_model
        if isinstance(server.backend, OllamaChat) and self.missing(server.backend.model):
            self.offer_pull(server.backend.model, once=True)  # then the embedding model
        elif server.embed_missing:
            self.offer_pull(embed_model, embedding=True, once=True)
        else:
            self.prepare_search()
            self.index_missing()

    def _when_no_dialog(self, fn: Callable[[], None]) -> None:
        """Run `fn` now, or once the dialog open now (and any after it) is closed: a
        question asked by itself never covers one, least of all the recovery code, which
        is shown only once."""
        modal = QApplication.activeModalWidget()
        if not isinstance(modal, QDialog):  # none (or a modal that is no dialog: rare)
            fn()
            return
        modal.finished.connect(lambda *_: QTimer.singleShot(0, lambda: self._when_no_dialog(fn)))

    def prepare_search(self) -> None:
        """A new profile or embedding model: what the relevance rule compares with is
        embedded now, in the background, so the first message does not wait for it."""
        models = self.ctx.app.models
        if models.prepared():
            return
        what = self.tr("Preparing search for %1…").replace("%1", short_name(models.embedding_model))
        self.ctx.hub.work.emit(what, 0, 0)
        # bound methods: a window rebuilt meanwhile (a new language) drops the call
        tasks.run(models.prepare_now, done=self._prepared, failed=self._prepared)

    def _prepared(self, *_: object) -> None:
        if not self.server.indexing:  # its progress stays on the status bar
            self.ctx.hub.work.emit(None, 0, 0)

    def missing(self, model: str) -> bool:
        return short_name(model) not in self.server.models

    def chat_model_missing(self) -> bool:
        """The server answers but does not have the chat model (Ollama's list says so;
        an OpenAI-compatible server's list is not checked)."""
        backend = self.server.backend
        return (
            self.server.online and isinstance(backend, OllamaChat) and self.missing(backend.model)
        )

    def offline(self, message: str, exc: BaseException | None = None) -> None:
        """The server does not answer: the state says why; while offline, a light check
        every RETRY_MS finds it again (reading, searching and managing never need it)."""
        self.server.online, self.server.checking = False, False
        self.server.problem = self._problem(message, exc)
        self.server.failing = message if _answers_with_error(exc) else ""
        self.server.changed.emit()
        self.retry.start()

    # -- downloading a model ---------------------------------------------------------

    def _offered(self) -> list[str]:
        value = self.ctx.prefs.value(OFFERED_KEY) or []
        return [str(v) for v in (value if isinstance(value, list) else [value])]

    def offer_pull(self, model: str, embedding: bool = False, once: bool = False) -> bool:
        """Ask to download a model; `once`: only if never asked before (the question
        offered by itself at start comes once; the status bar's link stays)."""
        model = short_name(model)
        if once:
            offered = self._offered()
            if model in offered:
                return False
            self.ctx.prefs.setValue(OFFERED_KEY, [*offered, model])
        size = size_text(download_size(model))
        if embedding:
            title = self.tr("Embedding model not installed")
            text = (
                self.tr(
                    "The embedding model %1 (a %2 download) is not installed in Ollama, so "
                    "memories are found by their words only, not by their meaning. Download "
                    "it now? Everything saved meanwhile is indexed once it is there."
                )
                if size
                else self.tr(
                    "The embedding model %1 is not installed in Ollama, so memories are found "
                    "by their words only, not by their meaning. Download it now? Everything "
                    "saved meanwhile is indexed once it is there."
                )
            )
        else:
            title = self.tr("Model not installed")
            text = (
                self.tr("The chat model %1 (a %2 download) is not installed in Ollama. "
                        "Download it now?")
                if size
                else self.tr("The chat model %1 is not installed in Ollama. Download it now?")
            )  # fmt: skip
        answer = QMessageBox.question(
            self.ctx.view,
            title,
            text.replace("%1", model).replace("%2", size),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.Yes,
        )
        if answer == QMessageBox.StandardButton.Yes:
            self.pull(model)
            return True
        return False

    def pull(self, model: str, then: Callable[[], None] | None = None) -> None:
        """Download a model with progress; `then` once it is there."""
        dialog = PullDialog(model, self.ctx.view)
        key = short_name(model)
        cancel = threading.Event()
        dialog.cancelled.connect(cancel.set)
        models = self.ctx.app.models

        def work(report: Report) -> bool:
            return models.pull(model, lambda p: report(p.completed, p.total or 0), cancel=cancel)

        def moved(percent: int | None) -> None:
            if percent is None:
                self.downloads.pop(key, None)
            elif self.downloads.get(key) == percent:
                return
            else:
                self.downloads[key] = percent
            self.downloads_changed.emit()

        def step(done: int, total: int) -> None:
            if total:
                moved(min(100, done * 100 // total))
                said = self.tr("Downloading: %1 of %2").replace("%1", size_text(done) or "0")
                dialog.update_progress(said.replace("%2", size_text(total)), done, total)
                what = self.tr("Downloading %1…").replace("%1", model)
                self.ctx.hub.work.emit(what, done, total)  # seen with the dialog hidden too

        def finished(ok: bool) -> None:
            moved(None)
            self.ctx.hub.work.emit(None, 0, 0)
            dialog.accept()
            if ok:
                self.ctx.hub.status.emit(self.tr("%1 is downloaded.").replace("%1", model), 8000)
                if then is not None:
                    then()
                self.check()  # then what waited for it is indexed

        def failed(text: str) -> None:
            moved(None)
            self.ctx.hub.work.emit(None, 0, 0)
            dialog.done(0)
            QMessageBox.warning(self.ctx.view, self.tr("Download failed"), text)

        moved(-1)
        tasks.run(work, done=finished, failed=failed, progress=step)
        dialog.open()
        self.pull_dialog = dialog

    # -- indexing what has no vector -------------------------------------------------

    def index_missing(self) -> bool:
        """Memories, messages and passages saved while the embedding model was missing
        (or the server down) get their vectors, in the background with progress."""
        models = self.ctx.app.models
        if self.server.indexing or not models.unindexed().total:
            return False
        self.server.indexing = True
        what = self.tr("Indexing for search by meaning…")

        def work(report: Report) -> Reindexed:
            return models.index_missing(progress=report)

        def step(done: int, total: int) -> None:
            self.ctx.hub.work.emit(what, done, total)

        def finished(done: Reindexed) -> None:
            self.server.indexing = False
            self.unindexed = models.unindexed().total
            self.ctx.hub.work.emit(None, 0, 0)
            self.server.changed.emit()
            if done.total:
                self.ctx.hub.status.emit(
                    self.tr("Indexed: %n item(s) can now be found by meaning too.", "", done.total),
                    10000,
                )

        def failed(text: str) -> None:
            self.server.indexing = False
            self.unindexed = models.unindexed().total
            self.ctx.hub.work.emit(None, 0, 0)
            self.server.changed.emit()
            self.ctx.hub.status.emit(self.tr("Indexing stopped: %1").replace("%1", text), 15000)

        self.ctx.hub.work.emit(what, 0, 0)
        tasks.run(work, done=finished, failed=failed, progress=step)
        return True

    # -- the chat model --------------------------------------------------------------

    def chat_model(self) -> str:
        return self.ctx.app.chat_model()

    def use_model(self, name: str | None) -> None:
        """A backend for the profile's settings and this model, for every chat (the
        core announces it: server.changed follows)."""
        self.ctx.app.use_chat_model(name)

    def set_chat_model(self, name: str) -> None:
        if not name or name == short_name(self.server.backend.model):
            return
        self.ctx.app.settings.set("chat_model", name)
        self.use_model(name)
        if self.server.online and self.missing(name):
            self.offer_pull(name)
