"""The main window: conversations on the left, the chat in the middle, the memory
browser on the right, a status bar at the bottom. It drives the core services and
keeps every call that may wait off the GUI thread (desktop_mem.ui.tasks)."""

from __future__ import annotations

import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings, Qt, QUrl, Signal
from PySide6.QtGui import QAction, QCloseEvent, QDesktopServices, QShortcut
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListView,
    QMainWindow,
    QMenu,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from desktop_mem.core import backup
from desktop_mem.core.chat import (
    ChatSession,
    TurnResult,
    make_backend,
    ollama_model,
    remote_notice,
)
from desktop_mem.core.config import normalize_host
from desktop_mem.core.conversations import ConversationStore
from desktop_mem.core.embed import Embedder
from desktop_mem.core.errors import DesktopMemError, ImportRejected
from desktop_mem.core.export import import_file, write_export, write_private
from desktop_mem.core.extract import Change
from desktop_mem.core.llm import OllamaChat
from desktop_mem.core.memories import NewMemory
from desktop_mem.core.profile import Profile
from desktop_mem.core.settings import Settings
from desktop_mem.ui import shortcuts, tasks
from desktop_mem.ui.backup_ui import BackupController, BackupPage, RecoveryCodeDialog
from desktop_mem.ui.chat_view import ChatView, MessageWidget
from desktop_mem.ui.dialogs import PullDialog, SettingsDialog, ShortcutsDialog, TypedConfirmDialog
from desktop_mem.ui.errors import describe
from desktop_mem.ui.forget_dialog import ForgetDialog
from desktop_mem.ui.memory_browser import MemoryBrowser
from desktop_mem.ui.models import ID_ROLE, ConversationListModel
from desktop_mem.ui.sleep_controller import SleepController


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


class MainWindow(QMainWindow):
    language_changed = Signal(str)
    theme_changed = Signal(str)
    key_change_requested = Signal(str)  # "keyring" or "passphrase": the Application does it
    restore_requested = Signal(str)  # a backup file to put in place of this profile

    def __init__(
        self, profile: Profile, settings: QSettings, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.profile = profile
        self.qsettings = settings
        self.settings = Settings(profile.db)
        self.conversations = ConversationStore(
            profile.db, profile.embedder, profile.search.reference
        )
        self.backend = make_backend(profile, self._chat_model())
        self.session: ChatSession | None = None
        self.incognito = False
        self.online = False
        self.models: list[str] = []
        self.turn_busy = False
        self.last_changes: list[list[Change]] = []
        self.setWindowTitle(self.tr("desktop-mem"))

        # left: conversations
        left = QWidget()
        lv = QVBoxLayout(left)
        lv.setContentsMargins(6, 6, 0, 6)
        buttons = QHBoxLayout()
        self.new_button = QPushButton(self.tr("New chat"))
        self.new_button.clicked.connect(lambda: self.new_conversation(False))
        self.incognito_button = QPushButton(self.tr("Incognito"))
        self.incognito_button.setToolTip(
            self.tr("A chat that reads and writes no memory and is not stored")
        )
        self.incognito_button.clicked.connect(lambda: self.new_conversation(True))
        buttons.addWidget(self.new_button)
        buttons.addWidget(self.incognito_button)
        lv.addLayout(buttons)
        self.conv_search = QLineEdit()
        self.conv_search.setPlaceholderText(self.tr("Search conversations"))
        self.conv_search.setClearButtonEnabled(True)
        self.conv_search.returnPressed.connect(self.search_conversations)
        self.conv_search.textChanged.connect(lambda t: t or self.refresh_conversations())
        lv.addWidget(self.conv_search)
        self.conv_model = ConversationListModel(self)
        self.conv_list = QListView()
        self.conv_list.setModel(self.conv_model)
        self.conv_list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.conv_list.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.conv_list.setUniformItemSizes(True)
        self.conv_list.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.conv_list.customContextMenuRequested.connect(self._conversation_menu)
        self.conv_list.clicked.connect(
            lambda i: self.open_conversation(self.conv_model.data(i, ID_ROLE))
        )
        lv.addWidget(self.conv_list, 1)

        # centre: chat, or the offline page
        self.chat = ChatView()
        self.chat.send_requested.connect(self.send)
        self.chat.stop_requested.connect(self.stop)
        self.chat.regenerate_requested.connect(self.regenerate)
        self.chat.edit_requested.connect(self.edit_last)
        self.chat.memory_clicked.connect(self.show_memory)
        self.chat.message_clicked.connect(self.open_message)
        self.chat.undo_requested.connect(self.undo_changes)
        self.sleeper = SleepController(
            profile.db,
            lambda: self.session.extractor if self.session and not self.session.incognito else None,
            lambda: self.turn_busy,
            self,
        )
        self.chat.input.textChanged.connect(self.sleeper.user_active)
        self.sleeper.finished.connect(self._slept)
        self.backups = BackupController(profile.db, self)
        self.backups.finished.connect(
            lambda path: self.statusBar().showMessage(
                self.tr("Backed up to %1").replace("%1", path), 10000
            )
        )
        self.backups.failed.connect(
            lambda text: self.statusBar().showMessage(
                self.tr("The backup failed: %1").replace("%1", text), 30000
            )
        )
        self.chat.model_changed.connect(self.set_chat_model)
        self.offline = OfflinePage()
        self.offline.retry.connect(self.check_ollama)
        self.centre = QStackedWidget()
        self.centre.addWidget(self.chat)
        self.centre.addWidget(self.offline)

        # right: memories
        self.browser = MemoryBrowser()
        self.browser.refresh_requested.connect(self.refresh_memories)
        self.browser.search_requested.connect(self.search_memories)
        self.browser.selected.connect(self.show_memory_details)
        self.browser.add_requested.connect(self.add_memory)
        self.browser.save_requested.connect(self.save_memory)
        self.browser.pin_requested.connect(self.pin_memory)
        self.browser.delete_requested.connect(self.delete_memories)
        self.browser.forget_all_requested.connect(self.forget_all)
        self.browser.restore_requested.connect(self.restore_memory)
        self.browser.export_requested.connect(self.export_memories)
        self.browser.import_requested.connect(self.import_memories)
        self.browser.message_requested.connect(self.open_message)

        self.splitter = QSplitter()
        self.splitter.addWidget(left)
        self.splitter.addWidget(self.centre)
        self.splitter.addWidget(self.browser)
        self.splitter.setStretchFactor(1, 3)
        self.splitter.setStretchFactor(2, 2)
        self.setCentralWidget(self.splitter)

        # status bar
        self.ollama_status = QLabel()
        self.memory_status = QLabel()
        self.work_status = QLabel()
        self.work_bar = QProgressBar()
        self.work_bar.setMaximumWidth(160)
        self.work_bar.hide()
        bar = self.statusBar()
        bar.addWidget(self.ollama_status)
        bar.addWidget(self.memory_status)
        bar.addPermanentWidget(self.work_status)
        bar.addPermanentWidget(self.work_bar)

        self._build_menus()
        self._restore_state()
        self.refresh_conversations()
        self.refresh_memories()
        self.new_conversation(False)
        self._update_status()
        self.check_ollama()
        # load the vector index in the background: the first search is then warm
        tasks.run(profile.memories.index.warm)

    # -- menus and shortcuts -------------------------------------------------------------

    def _build_menus(self) -> None:
        def action(menu: QMenu, text: str, slot: Any, name: str | None = None) -> QAction:
            act = QAction(text, self)
            if name:
                act.setShortcut(shortcuts.key(name))
            act.triggered.connect(slot)
            menu.addAction(act)
            return act

        chat = self.menuBar().addMenu(self.tr("&Chat"))
        action(chat, self.tr("New conversation"), lambda: self.new_conversation(False), "new_chat")
        action(
            chat,
            self.tr("New incognito conversation"),
            lambda: self.new_conversation(True),
            "incognito",
        )
        action(chat, self.tr("Regenerate"), self.regenerate, "regenerate")
        action(chat, self.tr("Edit last message"), self.chat._edit_last, "edit_last")
        action(chat, self.tr("Search conversations"), self.conv_search.setFocus, "search_chats")
        chat.addSeparator()
        action(chat, self.tr("Settings…"), self.open_settings, "settings")
        action(chat, self.tr("Delete all conversations and memories…"), self.delete_everything)
        action(chat, self.tr("Quit"), self.close, "quit")
        mem = self.menuBar().addMenu(self.tr("&Memories"))
        self.toggle_browser = action(
            mem, self.tr("Show memory browser"), self._toggle_browser, "memories"
        )
        self.toggle_browser.setCheckable(True)
        self.toggle_browser.setChecked(True)
        action(mem, self.tr("Search memories"), self._focus_memory_search, "search_memories")
        action(mem, self.tr("Consolidate now"), self.consolidate)
        action(mem, self.tr("Export…"), self.export_memories)
        action(mem, self.tr("Import…"), self.import_memories)
        self.auto_action = action(mem, self.tr("Learn automatically"), self._toggle_auto)
        self.auto_action.setCheckable(True)
        self.auto_action.setChecked(bool(self.settings.get("auto_memory")))
        help_menu = self.menuBar().addMenu(self.tr("&Help"))
        action(help_menu, self.tr("Keyboard shortcuts"), self.show_shortcuts, "help")
        action(help_menu, self.tr("About desktop-mem"), self.show_about)
        stop = QShortcut(shortcuts.key("stop"), self)
        stop.activated.connect(self.stop)
        focus = QShortcut(shortcuts.key("focus_input"), self)
        focus.activated.connect(self.chat.input.setFocus)

    def _toggle_browser(self) -> None:
        self.browser.setVisible(not self.browser.isVisible())
        self.toggle_browser.setChecked(self.browser.isVisible())

    def _focus_memory_search(self) -> None:
        self.browser.show()
        self.toggle_browser.setChecked(True)
        self.browser.search.setFocus()

    def _toggle_auto(self) -> None:
        self.settings.set("auto_memory", self.auto_action.isChecked())
        self._update_status()

    def show_shortcuts(self) -> None:
        ShortcutsDialog(self).exec()

    def show_about(self) -> None:
        from desktop_mem import __version__

        QMessageBox.about(
            self,
            self.tr("About desktop-mem"),
            self.tr(
                "desktop-mem %1\nA local language model with a long-term memory you can see "
                "and control. Your conversations and memories are encrypted on this computer."
            ).replace("%1", __version__),
        )

    # -- window state -----------------------------------------------------------------------

    def _restore_state(self) -> None:
        geometry = self.qsettings.value("window/geometry")
        if geometry:
            self.restoreGeometry(geometry)
        else:
            self.resize(1280, 800)
        split = self.qsettings.value("window/splitter")
        if split:
            self.splitter.restoreState(split)
        else:
            self.splitter.setSizes([240, 640, 420])
        visible = self.qsettings.value("window/browser", True)
        self.browser.setVisible(str(visible).lower() != "false")

    def closeEvent(self, event: QCloseEvent) -> None:
        self.qsettings.setValue("window/geometry", self.saveGeometry())
        self.qsettings.setValue("window/splitter", self.splitter.saveState())
        self.qsettings.setValue("window/browser", self.browser.isVisible())
        self.qsettings.sync()
        self.browser.cancel_pending()
        self.sleeper.user_active()  # a running sleep-time pass stops at its next memory
        self.sleeper.timer.stop()
        self.backups.timer.stop()
        self.backups.first.stop()
        if self.session is not None:
            self.session.stop()
            self.session.close(wait=False)
        super().closeEvent(event)

    # -- Ollama ---------------------------------------------------------------------------

    def _chat_model(self) -> str:
        return ollama_model(self.profile)

    def check_ollama(self) -> None:
        self.ollama_status.setText(self.tr("Connecting to Ollama…"))
        tasks.run(self.backend.models, done=self._models_listed, failed=self._offline)

    def _models_listed(self, models: list[str]) -> None:
        self.online = True
        self.models = models
        self.centre.setCurrentWidget(self.chat)
        self.chat.set_models(models, self.backend.model)
        self._update_status()
        if self._missing(self.backend.model) and isinstance(self.backend, OllamaChat):
            self.offer_pull(self.backend.model)

    def _missing(self, model: str) -> bool:
        names = set(self.models) | {m.removesuffix(":latest") for m in self.models}
        return model not in names

    def _offline(self, message: str) -> None:
        self.online = False
        self.offline.detail.setText(message)
        self.centre.setCurrentWidget(self.offline)
        self._update_status()

    def offer_pull(self, model: str) -> None:
        answer = QMessageBox.question(
            self,
            self.tr("Model not installed"),
            self.tr("The chat model %1 is not installed in Ollama. Download it now?").replace(
                "%1", model
            ),
        )
        if answer == QMessageBox.StandardButton.Yes:
            self.pull(model)

    def pull(self, model: str) -> None:
        dialog = PullDialog(model, self)
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
            QMessageBox.warning(self, self.tr("Download failed"), text)

        tasks.run(work, done=finished, failed=failed, progress=step)
        dialog.open()
        self.pull_dialog = dialog

    def set_chat_model(self, name: str) -> None:
        if not name or name == self.backend.model:
            return
        self.settings.set("chat_model", name)
        self.backend = make_backend(self.profile, name)
        if self.session is not None:
            self.session.backend = self.backend
            self.session.extractor.backend = self.backend
        self._update_status()
        if self.online and self._missing(name):
            self.offer_pull(name)

    # -- status -----------------------------------------------------------------------------

    def _update_status(self) -> None:
        if self.online:
            self.ollama_status.setText(
                self.tr("● Connected · %1").replace("%1", self.backend.model)
            )
        else:
            self.ollama_status.setText(self.tr("○ Ollama not connected"))
        if self.incognito:
            mem = self.tr("Memory: incognito")
        elif self.settings.get("auto_memory"):
            mem = self.tr("Memory: on")
        else:
            mem = self.tr("Memory: off (commands only)")
        self.memory_status.setText(mem)

    def _work(self, text: str | None, done: int = 0, total: int = 0) -> None:
        if text is None:
            self.work_status.setText("")
            self.work_bar.hide()
            return
        self.work_status.setText(text)
        if total:
            self.work_bar.setRange(0, total)
            self.work_bar.setValue(done)
        else:
            self.work_bar.setRange(0, 0)
        self.work_bar.show()

    # -- conversations ---------------------------------------------------------------------

    def refresh_conversations(self) -> None:
        self.conv_model.set_conversations(self.conversations.list())
        if self.session is not None and self.session.conversation_id is not None:
            row = self.conv_model.row_of(self.session.conversation_id)
            if row >= 0:
                self.conv_list.setCurrentIndex(self.conv_model.index(row))

    def search_conversations(self) -> None:
        query = self.conv_search.text().strip()
        if not query:
            self.refresh_conversations()
            return

        def found(result: Any) -> None:
            hits, _warnings = result
            ids = list(dict.fromkeys(h.message.conversation_id for h in hits))
            all_convs = {c.id: c for c in self.conversations.list()}
            self.conv_model.set_conversations([all_convs[i] for i in ids if i in all_convs])

        tasks.run(self.conversations.search, query, 20, done=found, failed=self._error)

    def _new_session(self, conversation_id: int | None, incognito: bool) -> None:
        if self.session is not None:
            self.session.stop()
            self.session.close(wait=False)
        self.session = ChatSession(self.profile, self.backend, conversation_id, incognito=incognito)
        self.incognito = incognito
        self.chat.set_incognito(incognito)
        self._update_status()

    def new_conversation(self, incognito: bool = False) -> None:
        if self.turn_busy:
            return
        self._new_session(None, incognito)
        self.chat.clear()
        self.chat.title.setText(
            self.tr("Incognito conversation") if incognito else self.tr("New conversation")
        )
        self.conv_list.clearSelection()
        self.chat.input.setFocus()

    def open_conversation(self, conversation_id: int) -> None:
        if self.turn_busy or conversation_id is None:
            return
        self._new_session(conversation_id, False)
        conv = self.conversations.get(conversation_id)
        self.chat.title.setText(conv.title or self.tr("New conversation"))
        self.chat.clear()
        for m in self.conversations.messages(conversation_id):
            if m.role == "system":
                continue
            w = self.chat.add_message(m.role, m.content)
            w.message_id = m.id
            w.set_status(m.status, m.error)
            if m.used or m.recalled:
                w.set_chips(
                    [(u.memory_id, u.text or self.tr("(deleted)")) for u in m.used],
                    [
                        (r.message_id, r.text, (r.created_at or "")[:10])
                        for r in m.recalled
                        if r.text is not None
                    ],
                )
        self.refresh_conversations()

    def open_message(self, message_id: int) -> None:
        msg = self.conversations.message(message_id)
        self.open_conversation(msg.conversation_id)
        for w in self.chat.messages:
            if w.message_id == message_id:
                self.chat.scroll.ensureWidgetVisible(w)

    def _conversation_menu(self, pos: Any) -> None:
        index = self.conv_list.indexAt(pos)
        conv = self.conv_model.conversation(index.row()) if index.isValid() else None
        if conv is None:
            return
        menu = QMenu(self)
        rename = menu.addAction(self.tr("Rename…"))
        export = menu.addAction(self.tr("Export…"))
        delete = menu.addAction(self.tr("Delete…"))
        chosen = menu.exec(self.conv_list.viewport().mapToGlobal(pos))
        if chosen is rename:
            self.rename_conversation(conv.id)
        elif chosen is export:
            self.export_conversation(conv.id)
        elif chosen is delete:
            self.delete_conversation(conv.id)

    def rename_conversation(self, conversation_id: int, title: str | None = None) -> None:
        if title is None:
            from PySide6.QtWidgets import QInputDialog

            current = self.conversations.get(conversation_id).title
            title, ok = QInputDialog.getText(
                self, self.tr("Rename"), self.tr("Title"), text=current
            )
            if not ok:
                return
        try:
            self.conversations.rename(conversation_id, title)
        except DesktopMemError as exc:
            self._error(str(exc))
            return
        self.refresh_conversations()
        if self.session is not None and self.session.conversation_id == conversation_id:
            self.chat.title.setText(title)

    def export_conversation(self, conversation_id: int) -> None:
        path, _ = QFileDialog.getSaveFileName(
            self,
            self.tr("Export conversation"),
            "conversation.md",
            self.tr("Markdown (*.md);;JSON (*.json)"),
        )
        if path:
            fmt = "json" if path.lower().endswith(".json") else "md"
            try:
                write_private(Path(path), self.conversations.export(conversation_id, fmt))
            except DesktopMemError as exc:
                self._error(str(exc))

    def delete_conversation(self, conversation_id: int, confirm: bool = True) -> None:
        if confirm:
            lent = self.conversations.context_lent(conversation_id)
            text = self.tr("Delete this conversation for good? Memories learned from it stay.")
            if lent:
                text += " " + self.tr(
                    "%n of them will no longer quote what was said in it.", "", lent
                )
            answer = QMessageBox.question(self, self.tr("Delete conversation"), text)
            if answer != QMessageBox.StandardButton.Yes:
                return
        current = self.session.conversation_id if self.session else None
        if current == conversation_id:
            self.new_conversation(False)

        def done(_: int) -> None:
            self._work(None)
            self.refresh_conversations()

        # a purge rewrites the full-text index and checkpoints: off the GUI thread
        self._work(self.tr("Deleting…"))
        tasks.run(
            self.conversations.delete,
            conversation_id,
            self.profile.memories,
            done=done,
            failed=self._error,
        )

    # -- chatting ---------------------------------------------------------------------------

    def send(self, text: str) -> None:
        if self.turn_busy or self.session is None:
            return
        self.sleeper.user_active()
        user = self.chat.add_message("user", text)
        self._run_turn(self.session.send, text, user=user)

    def regenerate(self) -> None:
        if self.turn_busy or self.session is None or not self.chat.messages:
            return
        if self.chat.messages[-1].role == "assistant":
            self.chat.remove_last()
        self._run_turn(self.session.regenerate)

    def edit_last(self, text: str) -> None:
        if self.turn_busy or self.session is None:
            return
        last_user = max(
            (i for i, m in enumerate(self.chat.messages) if m.role == "user"), default=None
        )
        if last_user is not None:
            self.chat.remove_last(len(self.chat.messages) - last_user)
        user = self.chat.add_message("user", text)
        self._run_turn(self.session.edit_last, text, user=user)

    def _run_turn(self, fn: Any, *args: Any, user: MessageWidget | None = None) -> None:
        self.turn_busy = True
        self.chat.set_busy(True)
        answer = self.chat.add_message("assistant", "")
        answer.rendered.connect(self.chat.scroll_to_end)
        answer.set_text(self.tr("…"))
        first = [True]

        def piece(p: str) -> None:
            if first[0]:
                answer.set_text("")
                first[0] = False
            answer.append(p)

        def done(result: TurnResult) -> None:
            self.turn_busy = False
            self.chat.set_busy(False)
            answer.set_text(result.text)  # the whole answer, whatever was still buffered
            answer.message_id = result.answer_id
            if user is not None:
                user.message_id = result.user_message_id
            answer.set_status(
                result.status,
                describe(result.error_kind, result.error or "", model=self.backend.model),
            )
            if (result.used or result.recalled) and result.status != "error":
                mems = {
                    m.id: m for m in self.profile.memories.get_many([i for i, _ in result.used])
                }
                past = [self.conversations.message(i) for i, _ in result.recalled]
                answer.set_chips(
                    [(i, mems[i].text) for i, _ in result.used if i in mems],
                    [(p.id, p.content, p.created_at[:10]) for p in past],
                )
            if result.changes:
                self._show_changes(answer, result.changes)
                self.refresh_memories()
            if result.forget_candidates or result.forget_messages:
                self._confirm_forget(result)
            if result.learning is not None:
                self._work(self.tr("Learning from this exchange…"))
                tasks.run(
                    result.learned,
                    300.0,
                    done=lambda ch: self._learned(answer, ch),
                    failed=self._error,
                )
            if result.status == "error" and "ollama pull" in (result.error or ""):
                self.offer_pull(self.backend.model)
            self.refresh_conversations()
            if self.session and self.session.conversation_id and not self.incognito:
                self.chat.title.setText(self.conversations.get(self.session.conversation_id).title)

        def failed(text: str) -> None:
            self.turn_busy = False
            self.chat.set_busy(False)
            answer.set_text("")
            answer.set_status("error", text)

        tasks.run(fn, *args, done=done, failed=failed, piece=piece)

    def stop(self) -> None:
        if self.session is not None and self.turn_busy:
            self.session.stop()

    def _learned(self, answer: MessageWidget, changes: list[Change]) -> None:
        self._work(None)
        shown = [c for c in changes if c.action != "skipped"]
        if shown:
            self._show_changes(answer, shown)
            self.refresh_memories()

    def _show_changes(self, answer: MessageWidget, changes: list[Change]) -> None:
        self.last_changes.append(changes)
        answer.setProperty("changes_index", len(self.last_changes) - 1)
        words = {
            "added": self.tr("Remembered"),
            "updated": self.tr("Updated"),
            "invalidated": self.tr("Marked as no longer true"),
            "merged": self.tr("Merged"),
        }
        parts = [f"{words.get(c.action, c.action)}: {_html(c.text)}" for c in changes]
        answer.set_notice(" · ".join(parts) + f' — <a href="undo">{self.tr("Undo")}</a>')

    def undo_changes(self, widget_index: int) -> None:
        w = self.chat.messages[widget_index]
        idx = w.property("changes_index")
        if idx is None:
            return
        if self.session is None:
            return
        changes = self.last_changes[int(idx)]
        extractor = self.session.extractor

        def work() -> None:  # a restore re-embeds: the model server, off the GUI thread
            for c in reversed(changes):
                extractor.undo(c)

        def done(_: Any) -> None:
            w.set_notice(self.tr("Undone."))
            self._memory_changed()

        self._work(self.tr("Undoing…"))
        tasks.run(work, done=done, failed=self._error)

    def _confirm_forget(self, result: TurnResult) -> None:
        """Each candidate with its own checkbox; what was done is said in the chat."""
        if self.session is None:
            return
        dialog = ForgetDialog(result.forget_candidates, result.forget_messages, self)
        accepted = dialog.exec() == ForgetDialog.DialogCode.Accepted
        memories = dialog.chosen("memory") if accepted else []
        messages = dialog.chosen("message") if accepted else []

        def done(counts: tuple[int, int]) -> None:
            n, m = counts
            if n or m:
                text = self.tr("Deleted %n memory(s)", "", n) + self.tr(
                    " and %n message(s).", "", m
                )
            else:
                text = self.tr("Nothing was deleted.")
            self._work(None)
            self.chat.add_message("assistant", text)
            self._memory_changed()
            if m:
                self.refresh_conversations()

        self._work(self.tr("Deleting…"))
        tasks.run(self.session.forget, memories, messages, done=done, failed=self._error)

    # -- memories ---------------------------------------------------------------------------

    def refresh_memories(self) -> None:
        if self.browser.query():
            self.search_memories(self.browser.query())
            return
        f = self.browser.filters()
        self.browser.show_memories(
            self.profile.memories.list(kind=f["kind"], pinned=f["pinned"], since=f["since"])
        )

    def search_memories(self, query: str) -> None:
        f = self.browser.filters()

        def found(result: Any) -> None:
            if self.browser.query() != query:
                return  # typed on: a newer search is coming
            hits = [h for h in result.hits if f["pinned"] is None or h.memory.pinned]
            if f["since"]:
                hits = [h for h in hits if h.memory.created_at[:10] >= f["since"]]
            self.browser.show_memories(
                [h.memory for h in hits], {h.memory.id: h.score for h in hits}
            )
            if result.warnings:
                self.statusBar().showMessage(result.warnings[0], 8000)

        kinds = {f["kind"]} if f["kind"] else None
        tasks.run(
            self.profile.search.search,
            query,
            50,
            kinds=kinds,
            relevant_only=not self.browser.all_matches.isChecked(),
            done=found,
            failed=self._error,
        )

    def show_memory(self, memory_id: int) -> None:
        self.browser.show()
        self.toggle_browser.setChecked(True)
        if not self.browser.select(memory_id):
            self.browser.search.clear()
            self.refresh_memories()
            self.browser.select(memory_id)
        self.show_memory_details(memory_id)

    def show_memory_details(self, memory_id: int) -> None:
        try:
            memory = self.profile.memories.get(memory_id)
        except DesktopMemError:
            self.browser.show_details(None, [], [])
            return
        versions = self.profile.memories.history(memory_id)
        answers = [(m.id, m.content) for m in self.conversations.answers_using(memory_id)]
        origin = None
        if memory.source_message_id:
            try:
                msg = self.conversations.message(memory.source_message_id)
                origin = (msg.id, msg.content)
            except DesktopMemError:
                origin = None
        self.browser.show_details(memory, versions, answers, origin)

    def _memory_changed(self, memory_id: int | None = None) -> None:
        self._work(None)
        self.refresh_memories()
        if memory_id is not None:
            self.browser.select(memory_id)
            self.show_memory_details(memory_id)

    def add_memory(self, text: str, kind: str, pinned: bool) -> None:
        self._work(self.tr("Saving the memory…"))
        tasks.run(
            self.profile.memories.add,
            NewMemory(text, kind=kind, pinned=pinned),
            "user",
            done=lambda r: self._memory_changed(r.memory.id),
            failed=self._error,
        )

    def save_memory(self, memory_id: int, text: str, kind: str, importance: float) -> None:
        self._work(self.tr("Saving the memory…"))
        tasks.run(
            self.profile.memories.edit,
            memory_id,
            text=text,
            kind=kind,
            importance=importance,
            done=lambda r: self._memory_changed(memory_id),
            failed=self._error,
        )

    def pin_memory(self, memory_id: int, pinned: bool) -> None:
        self.profile.memories.set_pinned(memory_id, pinned)
        self._memory_changed(memory_id)

    def restore_memory(self, memory_id: int, version: int) -> None:
        tasks.run(
            self.profile.memories.restore,
            memory_id,
            version,
            done=lambda r: self._memory_changed(memory_id),
            failed=self._error,
        )

    def delete_memories(self, ids: list[int], confirm: bool = True) -> None:
        if confirm:
            used = sum(len(self.conversations.answers_using(i)) for i in ids)
            text = self.tr("Delete %n memory(s) for good, with their history?", "", len(ids))
            if used:
                text += " " + self.tr("They shaped %n answer(s).", "", used)
            answer = QMessageBox.question(self, self.tr("Delete memories"), text)
            if answer != QMessageBox.StandardButton.Yes:
                return
        self._work(self.tr("Deleting…"))
        tasks.run(
            self.profile.memories.delete,
            ids,
            done=lambda _n: self._memory_changed(),
            failed=self._error,
        )

    def forget_all(self, confirmed: bool = False) -> None:
        if not confirmed:
            word = self.tr("FORGET")
            dialog = TypedConfirmDialog(
                self.tr("Forget everything"),
                self.tr(
                    "This deletes all %n memory(s) of this profile for good. Conversations stay.",
                    "",
                    self.profile.memories.count(),
                ),
                word,
                self,
            )
            if dialog.exec() != TypedConfirmDialog.DialogCode.Accepted:
                return
        self._work(self.tr("Forgetting everything…"))
        tasks.run(
            self.profile.memories.forget_all,
            done=lambda _n: self._memory_changed(),
            failed=self._error,
        )

    def delete_everything(self, confirmed: bool = False) -> None:
        """Every conversation and every memory, for good (as `desktop-mem wipe`); the
        settings and the key stay."""
        if self.turn_busy:
            return
        if not confirmed:
            dialog = TypedConfirmDialog(
                self.tr("Delete everything"),
                self.tr(
                    "This deletes all %1 conversations and all %2 memories of this profile "
                    "for good. The settings and the key stay."
                )
                .replace("%1", str(len(self.conversations.list())))
                .replace("%2", str(self.profile.memories.count())),
                self.tr("DELETE"),
                self,
            )
            if dialog.exec() != TypedConfirmDialog.DialogCode.Accepted:
                return
        self.new_conversation(False)
        self._work(self.tr("Deleting everything…"))

        def wipe() -> int:
            self.conversations.delete_all()
            return self.profile.memories.forget_all()

        def done(_n: int) -> None:
            self.refresh_conversations()
            self._memory_changed()

        tasks.run(wipe, done=done, failed=self._error)

    def export_memories(self, path: str | None = None) -> None:
        if path is None:
            path, _ = QFileDialog.getSaveFileName(
                self,
                self.tr("Export memories"),
                "memories.json",
                self.tr("JSON (*.json);;Markdown (*.md)"),
            )
            if not path:
                return
        fmt = "md" if path.lower().endswith((".md", ".markdown", ".txt")) else "json"
        self._work(self.tr("Exporting…"))
        tasks.run(
            write_export,
            self.profile.memories,
            Path(path),
            fmt,
            self.profile.config.profile,
            done=lambda n: self._exported(n, path),
            failed=self._error,
        )

    def _exported(self, count: int, path: str) -> None:
        self._work(None)
        self.statusBar().showMessage(
            self.tr("Exported %n memory(s) to %1. That file is not encrypted.", "", count).replace(
                "%1", path
            ),
            10000,
        )

    def import_memories(self, path: str | None = None) -> None:
        if path is None:
            path, _ = QFileDialog.getOpenFileName(
                self, self.tr("Import memories"), "",
                self.tr("Memories (*.json *.md *.markdown *.txt *.csv);;All files (*)"),
            )  # fmt: skip
            if not path:
                return

        def work(report: Any) -> Any:
            return import_file(self.profile.memories, Path(path), progress=report)

        def failed_import(text: str, exc: Any) -> None:
            self._work(None)
            if isinstance(exc, ImportRejected):
                rows = "\n".join(self.tr("line %1: %2").replace("%1", str(ln)).replace("%2", msg)
                                 for ln, msg in exc.problems[:30])  # fmt: skip
                box = QMessageBox(
                    QMessageBox.Icon.Warning, self.tr("Nothing was imported"), text, parent=self
                )
                box.setDetailedText(rows)
                box.open()
                self.import_box = box
            else:
                self._error(text)

        tasks.run(
            work,
            done=lambda r: self._imported(r),
            progress=lambda d, t: self._work(self.tr("Importing…"), d, t),
            failed_with=failed_import,
        )

    def _imported(self, report: Any) -> None:
        self._work(None)
        self.refresh_memories()
        msg = self.tr("Imported %n memory(s).", "", report.imported)
        if report.duplicates:
            msg += " " + self.tr("%n already known, skipped.", "", report.duplicates)
        self.statusBar().showMessage(msg, 10000)

    def consolidate(self) -> None:
        if self.session is None:
            return
        self._work(self.tr("Consolidating memories…"))
        tasks.run(
            self.session.extractor.sleep,
            datetime.now(UTC),
            done=self._consolidated,
            failed=self._error,
        )

    def _slept(self, changes: list[Change]) -> None:
        """A sleep-time pass ran while the window was idle: say so quietly."""
        if not changes:
            return
        self.refresh_memories()
        self.statusBar().showMessage(
            self.tr(
                "While you were away, %n memory(s) were tidied (merged or marked out of "
                "date); each memory's History can undo it.",
                "",
                len(changes),
            ),
            30000,
        )

    def _consolidated(self, changes: list[Change]) -> None:
        self._work(None)
        self.refresh_memories()
        self.statusBar().showMessage(
            self.tr("Consolidation: %n change(s).", "", len(changes)), 10000
        )

    # -- settings -------------------------------------------------------------------------

    def open_settings(self) -> None:
        values = {
            **self.settings.all(),
            "ollama_host": self.profile.config.ollama_host,
            "chat_model": self.backend.model,
            "embed_model": self.profile.embedder.model,
            "language": self.qsettings.value("ui/language", "en"),
            "theme": self.qsettings.value("ui/theme", "system"),
            "data_folder": str(self.profile.db.path.parent),
            "key_mode": self.profile.db.key_mode,
        }
        backup_page = BackupPage(self.backups, self.profile.db.key_mode != "passphrase")
        dialog = SettingsDialog(values, self.models, self, [(self.tr("Backup"), backup_page)])
        dialog.open_folder.clicked.connect(
            lambda: QDesktopServices.openUrl(QUrl.fromLocalFile(str(self.profile.db.path.parent)))
        )
        restore: list[str] = []
        backup_page.restore_requested.connect(lambda path: (restore.append(path), dialog.accept()))
        backup_page.new_code_requested.connect(lambda: self.new_recovery_code(dialog))
        if dialog.exec() == SettingsDialog.DialogCode.Accepted:
            self.apply_settings({**dialog.values(), **backup_page.values()})
            if dialog.key_request:
                self.key_change_requested.emit(dialog.key_request)
            elif restore:
                self.restore_requested.emit(restore[0])

    def new_recovery_code(self, parent: QWidget | None = None) -> None:
        answer = QMessageBox.question(
            parent or self,
            self.tr("New recovery code"),
            self.tr(
                "Make a new recovery code? The old one will no longer open this profile or its "
                "new backups (backups made before still open with the old one)."
            ),
        )
        if answer != QMessageBox.StandardButton.Yes:
            return
        try:
            code = backup.renew_recovery_code(self.profile.db)
        except DesktopMemError as exc:
            self._error(tasks.describe_exception(exc, str(exc)))
            return
        RecoveryCodeDialog(code, self.profile.config.profile, parent or self).exec()

    def apply_settings(self, values: dict[str, Any]) -> None:
        try:
            host = normalize_host(values["ollama_host"])
        except DesktopMemError as exc:
            self._error(str(exc))
            return
        for key in (
            "auto_memory",
            "use_memory",
            "sleep_consolidation",
            "context_tokens",
            "openai_enabled",
            "openai_base_url",
            "openai_model",
        ):
            if key in values:
                self.settings.set(key, values[key])
        if values.get("openai_api_key"):
            self.settings.set("openai_api_key", values["openai_api_key"])
        for key in ("backup_folder", "backup_daily", "backup_keep"):
            if key in values:
                self.settings.set(key, values[key])
        self.settings.set("chat_model", values["chat_model"])
        self.qsettings.setValue("ollama/host", host)
        self.profile.config.ollama_host = host
        old_embed = self.profile.embedder.model
        new_embed = values["embed_model"] or old_embed
        self.profile.embedder = Embedder(host, old_embed, timeout=self.profile.config.timeout)
        self.profile.memories.embedder = self.profile.embedder
        self.conversations.embedder = self.profile.embedder
        try:
            self.backend = make_backend(self.profile, values["chat_model"])
        except DesktopMemError as exc:
            self._error(str(exc))
        notice = remote_notice(self.profile, self.backend)
        if notice:  # once: messages now leave this computer
            QMessageBox.information(self, self.tr("Messages will leave this computer"), notice)
        if self.session is not None:
            self.session.backend = self.backend
            self.session.extractor.backend = self.backend
        self.auto_action.setChecked(bool(self.settings.get("auto_memory")))
        self._update_status()
        self.check_ollama()
        if new_embed != old_embed:
            self.change_embedding_model(new_embed)
        if values["theme"] != self.qsettings.value("ui/theme", "system"):
            self.qsettings.setValue("ui/theme", values["theme"])
            self.theme_changed.emit(values["theme"])
        if values["language"] != self.qsettings.value("ui/language", "en"):
            self.qsettings.setValue("ui/language", values["language"])
            self.language_changed.emit(values["language"])

    def change_embedding_model(self, model: str) -> None:
        answer = QMessageBox.question(
            self,
            self.tr("Re-index memories?"),
            self.tr("Search by meaning needs every memory re-indexed with %1. Do it now? "
                    "Until it finishes, the old index keeps working.").replace("%1", model),
        )  # fmt: skip
        if answer != QMessageBox.StandardButton.Yes:
            return
        embedder = Embedder(
            self.profile.config.ollama_host, model, timeout=self.profile.config.timeout
        )

        def work(report: Any) -> int:
            self.profile.memories.embedder = embedder
            try:
                return self.profile.memories.reembed(progress=report)
            except BaseException:
                self.profile.memories.embedder = self.profile.embedder
                raise

        def done(n: int) -> None:
            self.profile.embedder = embedder
            self.conversations.embedder = embedder
            self._work(None)
            self.statusBar().showMessage(self.tr("Re-indexed %n memory(s).", "", n), 10000)

        self._work(self.tr("Re-indexing memories…"))
        tasks.run(
            work,
            done=done,
            failed=self._error,
            progress=lambda d, t: self._work(self.tr("Re-indexing memories…"), d, t),
        )

    # -- errors -----------------------------------------------------------------------------

    def _error(self, text: str) -> None:
        self._work(None)
        box = QMessageBox(QMessageBox.Icon.Warning, self.tr("desktop-mem"), text, parent=self)
        box.open()
        self.error_box = box


def _html(text: str) -> str:
    flat = " ".join(text.split())
    flat = flat if len(flat) <= 80 else flat[:79] + "…"
    return flat.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
