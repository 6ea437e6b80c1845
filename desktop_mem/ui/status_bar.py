"""The window's status bar: how the model server stands (with a link that downloads or
indexes what is missing), whether the chat learns, how sync stands, the work in
progress, and the passing messages the controllers send through the context's hub."""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLabel, QProgressBar, QSizeGrip, QStatusBar, QWidget

from desktop_mem.core.models.catalog import short_name
from desktop_mem.ui.connection import ConnectionController
from desktop_mem.ui.context import Context
from desktop_mem.ui.spaces import names_of, space_name
from desktop_mem.ui.sync_controller import SyncController


class StatusBar(QStatusBar):
    """Made before the window's controllers, which may add a part of their own (the
    import's line), and told of them once they are made (follow)."""

    connection: ConnectionController
    syncing: SyncController

    def __init__(self, ctx: Context) -> None:
        super().__init__()
        self.context = ctx
        self.ollama_status = QLabel()
        self.ollama_status.setTextFormat(Qt.TextFormat.RichText)
        self.ollama_status.linkActivated.connect(self._status_link)
        self.memory_status = QLabel()
        self.work_status = QLabel()
        self.sync_status = QLabel()
        self.sync_status.hide()
        self.work_bar = QProgressBar()
        self.work_bar.setMaximumWidth(140)
        self.work_bar.hide()
        self.messageChanged.connect(self._message_changed)
        self.addWidget(self.ollama_status)
        self.addWidget(self.memory_status)
        ctx.core.key_changed.connect(self._key_changed)

    def _key_changed(self, how: str) -> None:
        """A key changed with the profile closed is said on the window opened again on it,
        as the profile announces it (what opens the key is said where it was made)."""
        if how == "rekeyed":
            text = QApplication.translate(
                "app", "Your memories were re-encrypted; the old key no longer opens them."
            )
        elif how == "restored":
            text = QApplication.translate("app", "The backup was restored.")
        else:
            return
        self.showMessage(text, 15000)

    def follow(self, connection: ConnectionController, syncing: SyncController) -> None:
        """The controllers it speaks for; its permanent parts go after theirs."""
        self.connection, self.syncing = connection, syncing
        syncing.changed.connect(self.update_sync_status)
        self.addPermanentWidget(self.sync_status)
        self.addPermanentWidget(self.work_status)
        self.addPermanentWidget(self.work_bar)

    def _status_link(self, link: str) -> None:
        if link == "pull-chat":
            self.connection.offer_pull(self.context.server.backend.model)
        elif link == "pull":
            self.connection.offer_pull(self.context.app.models.embedding_model, embedding=True)
        elif link == "index":
            self.connection.index_missing()

    def update_status(self) -> None:
        server, chat = self.context.server, self.context.chat
        model = short_name(server.backend.model)
        tip = ""
        if server.checking and not server.online:
            text = html.escape(self.tr("Connecting to Ollama…"))
        elif server.failing:
            text = html.escape(
                self.tr("⚠ The model server answers with an error · %1").replace("%1", model)
            )
            tip = server.failing
        elif self.connection.chat_model_missing() and model in self.connection.downloads:
            text = html.escape(self.tr("● Connected · %1").replace("%1", self.downloading(model)))
        elif server.online and server.embed_missing and self._embed_downloading():
            embed = short_name(self.context.app.models.embedding_model)
            text = html.escape(
                self.tr("● Connected · search by words only until %1 is there · %2")
                .replace("%1", embed)
                .replace("%2", self.downloading(embed))
            )
        elif self.connection.chat_model_missing():
            text = (
                html.escape(self.tr("● Connected · %1 is not installed").replace("%1", model))
                + ' · <a href="pull-chat">'
                + html.escape(self.tr("Download %1").replace("%1", model))
                + "</a>"
            )
        elif server.online and server.embed_missing:
            text = (
                html.escape(self.tr("● Connected · search by words only"))
                + ' · <a href="pull">'
                + html.escape(
                    self.tr("Download %1").replace(
                        "%1", short_name(self.context.app.models.embedding_model)
                    )
                )
                + "</a>"
            )
        elif server.online and self.connection.unindexed and not server.indexing:
            text = (
                html.escape(
                    self.tr("● Connected · %n not indexed yet", "", self.connection.unindexed)
                )
                + ' · <a href="index">'
                + html.escape(self.tr("Index now"))
                + "</a>"
            )
        elif server.online:
            slow = self.slow_turns()
            text = html.escape(
                self.tr("● Connected · %1").replace("%1", short_name(server.backend.model))
                + (" · " + slow if slow else "")
            )
        else:
            text = html.escape(self.tr("○ Ollama not connected"))
        self.ollama_status.setText(text)
        self.ollama_status.setToolTip(tip)
        if chat.incognito:
            mem = self.tr("Memory: incognito")
        elif self.context.app.settings.get("auto_memory"):
            mem = self.tr("Memory: on")
        else:
            mem = self.tr("Memory: off (commands only)")
        waiting = self.context.app.memories.waiting().total
        if waiting and not chat.incognito:
            mem += self.tr(" · %n message(s) not yet learned from", "", waiting)
        spaces = self.context.app.spaces.list()
        if spaces and not chat.incognito:  # which space the chat reads and adds to
            mem = (
                self.tr("Space: %1").replace("%1", space_name(chat.space, names_of(spaces)))
                + " · "
                + mem
            )
        self.memory_status.setText(mem)

    def downloading(self, model: str) -> str:
        """A model's download as the status bar says it: "downloading qwen2.5:7b (42%)"."""
        percent = self.connection.downloads.get(model, -1)
        if percent < 0:
            return self.tr("downloading %1…").replace("%1", model)
        return self.tr("downloading %1 (%2%)").replace("%1", model).replace("%2", str(percent))

    def _embed_downloading(self) -> bool:
        return short_name(self.context.app.models.embedding_model) in self.connection.downloads

    def show_message(self, text: str, ms: int = 0) -> None:
        """A passing message in the status bar: cut with "…" where the bar has no more
        room beside its permanent parts (at 800x600 a long sentence would be cut
        mid-word), the whole sentence in the bar's tooltip while it shows."""
        # every permanent part showing (the sync's status, the work under way, and what
        # others add, such as the facts an import found): the message hides the others
        normal = (self.ollama_status, self.memory_status)
        beside = sum(
            # their size hints: a label just shown or changed is not laid out yet
            max(w.width(), w.sizeHint().width()) + 8
            for w in self.findChildren(QWidget, options=Qt.FindChildOption.FindDirectChildrenOnly)
            if w.isVisible() and w not in normal and not isinstance(w, QSizeGrip)
        )  # fmt: skip
        room = max(80, self.width() - beside - 40)  # its margins and the size grip
        shown = self.fontMetrics().elidedText(text, Qt.TextElideMode.ElideRight, room)
        self.showMessage(shown, ms)
        self.setToolTip(text if shown != text else "")

    def _message_changed(self, text: str) -> None:
        if not text:
            self.setToolTip("")

    def update_sync_status(self) -> None:
        """How sync stands, or what is wrong with it (in the error colour), or nothing
        when it is off."""
        text = self.syncing.status_text()
        name = "status" if self.syncing.error and not self.syncing.running else ""
        if self.sync_status.objectName() != name:
            self.sync_status.setObjectName(name)
            self.sync_status.style().polish(self.sync_status)
        self.sync_status.setText(text)
        self.sync_status.setToolTip(self.syncing.status_tip())
        self.sync_status.setVisible(bool(text))

    def slow_turns(self) -> str:
        """What the model server said after the last answer that makes every turn slow
        (core/models/loaded.py), in one sentence with what to change; "" when nothing."""
        problem = self.context.server.slow
        if problem is None:
            return ""
        if problem.reason == "context":
            return (
                self.tr(
                    "%1 is loaded with a %2-token context but this app asks for %3, so every "
                    "turn reloads it: give the apps that use it the same context length, or "
                    "set this one's in Settings."
                )
                .replace("%1", problem.model)
                .replace("%2", f"{problem.loaded or 0:,}")
                .replace("%3", f"{problem.asked:,}")
            )
        return self.tr(
            "Ollama unloads %1 soon after each answer, so every turn waits for it to load "
            "again: give Ollama a longer keep-alive."
        ).replace("%1", problem.model)

    def show_work(self, text: str | None, done: int = 0, total: int = 0) -> None:
        if text is None:
            self.work_status.setText("")
            self.work_bar.hide()
            return
        self.work_status.setText(text)
        if total:  # in thousandths: a bar's range is a 32-bit int, a download's bytes not
            self.work_bar.setRange(0, 1000)
            self.work_bar.setValue(min(1000, 1000 * done // total))
        else:
            self.work_bar.setRange(0, 0)
        self.work_bar.show()
