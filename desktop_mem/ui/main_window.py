"""Owns the window's assembly: the panels (conversations, chat, memory browser), the
menus and shortcuts, the status bar and the saved window state. Everything else is a
controller's: connection, turns, conversations, memory, settings (one file each)."""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings, QStandardPaths, Qt, QTimer, QUrl, Signal
from PySide6.QtGui import QAction, QCloseEvent, QDesktopServices, QShortcut
from PySide6.QtWidgets import (
    QButtonGroup,
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
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop_mem.api import MemoryLayer
from desktop_mem.core.chat import learning
from desktop_mem.core.chat.session import (
    ChatSession,
)
from desktop_mem.core.errors import DesktopMemError
from desktop_mem.core.profile import Profile
from desktop_mem.ui import shortcuts, tasks
from desktop_mem.ui.backup_ui import BackupController
from desktop_mem.ui.chat_view import ChatView
from desktop_mem.ui.connection import ConnectionController
from desktop_mem.ui.conversations_controller import ConversationsController
from desktop_mem.ui.dialogs import ShortcutsDialog
from desktop_mem.ui.documents_ui import DocumentsPage
from desktop_mem.ui.memory_browser import MemoryBrowser
from desktop_mem.ui.memory_controller import MemoryController
from desktop_mem.ui.models import ID_ROLE, ConversationListModel
from desktop_mem.ui.offline_page import OfflinePage
from desktop_mem.ui.settings_controller import SettingsController
from desktop_mem.ui.sleep_controller import SleepController
from desktop_mem.ui.turns import TurnController


def open_document(path: str, page: int) -> None:
    """Open a passage's file in the user's viewer, at its page where the viewer takes
    one (PDF viewers read #page=N)."""
    url = QUrl.fromLocalFile(path)
    if page and path.lower().endswith(".pdf"):
        url.setFragment(f"page={page}")
    QDesktopServices.openUrl(url)


WATCH_MS = 2000  # how often the window looks for changes made by another process


class MainWindow(QMainWindow):
    language_changed = Signal(str)
    theme_changed = Signal(str)
    key_change_requested = Signal(str)  # "keyring" or "passphrase": the Application does it
    restore_requested = Signal(str)  # a backup file to put in place of this profile

    # What other parts of the app read (app.py, tests): the controllers own them.
    @property
    def session(self) -> ChatSession | None:
        return self.turns.session

    @property
    def turn_busy(self) -> bool:
        return self.turns.turn_busy

    @property
    def online(self) -> bool:
        return self.connection.online

    @property
    def backend(self) -> Any:
        return self.connection.backend

    @property
    def models(self) -> list[str]:
        return self.connection.models

    @property
    def mem(self) -> MemoryLayer:
        """The open profile's memory through the Python API, as the command line and
        the MCP server use it (core records, not dicts)."""
        return MemoryLayer(self.profile, plain=False)

    def __init__(
        self, profile: Profile, settings: QSettings, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.profile = profile
        self.qsettings = settings
        self.settings = profile.settings
        self.conversations = profile.conversations
        self.documents = profile.documents
        # one controller per concern; the window only assembles the panels
        self.connection = ConnectionController(self)
        self.turns = TurnController(self)
        self.threads = ConversationsController(self)
        self.memory = MemoryController(self)
        self.preferences = SettingsController(self)
        self.setWindowTitle(self.tr("desktop-mem"))

        # left: conversations
        left = QWidget()
        lv = QVBoxLayout(left)
        lv.setContentsMargins(6, 6, 0, 6)
        buttons = QHBoxLayout()
        self.new_button = QPushButton(self.tr("New chat"))
        self.new_button.clicked.connect(lambda: self.threads.new_conversation(False))
        self.incognito_button = QPushButton(self.tr("Incognito"))
        self.incognito_button.setToolTip(
            self.tr("A chat that reads and writes no memory and is not stored")
        )
        self.incognito_button.clicked.connect(lambda: self.threads.new_conversation(True))
        buttons.addWidget(self.new_button)
        buttons.addWidget(self.incognito_button)
        lv.addLayout(buttons)
        self.conv_search = QLineEdit()
        self.conv_search.setPlaceholderText(self.tr("Search conversations"))
        self.conv_search.setClearButtonEnabled(True)
        self.conv_search.returnPressed.connect(self.threads.search_conversations)
        self.conv_search.textChanged.connect(lambda t: t or self.threads.refresh_conversations())
        lv.addWidget(self.conv_search)
        self.conv_model = ConversationListModel(self)
        self.conv_list = QListView()
        self.conv_list.setModel(self.conv_model)
        self.conv_list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.conv_list.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.conv_list.setUniformItemSizes(False)  # date headings are taller
        self.conv_list.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.conv_list.customContextMenuRequested.connect(self.threads.conversation_menu)
        self.conv_list.clicked.connect(
            lambda i: self.threads.open_conversation(self.conv_model.data(i, ID_ROLE))
        )
        lv.addWidget(self.conv_list, 1)

        # centre: chat, or the offline page
        self.chat = ChatView()
        self.chat.send_requested.connect(self.turns.send)
        self.chat.stop_requested.connect(self.turns.stop)
        self.chat.regenerate_requested.connect(self.turns.regenerate)
        self.chat.edit_requested.connect(self.turns.edit)
        self.chat.memory_clicked.connect(self.memory.show_memory)
        self.chat.message_clicked.connect(self.threads.open_message)
        self.chat.document_clicked.connect(open_document)
        self.chat.notice_link.connect(self.turns.link)
        self.sleeper = SleepController(
            profile.db,
            lambda: (
                self.turns.session.learner
                if self.turns.session and not self.turns.session.incognito
                else None
            ),
            lambda: self.turns.turn_busy,
            self,
        )
        self.chat.input.textChanged.connect(self.sleeper.user_active)
        self.sleeper.finished.connect(self.memory.slept)
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
        self.chat.model_changed.connect(self.connection.set_chat_model)
        self.offline = OfflinePage()
        self.offline.retry.connect(self.connection.check_ollama)
        self.centre = QStackedWidget()
        self.centre.addWidget(self.chat)
        self.centre.addWidget(self.offline)

        # right: memories
        self.browser = MemoryBrowser()
        self.browser.refresh_requested.connect(self.memory.refresh_memories)
        self.browser.search_requested.connect(self.memory.search_memories)
        self.browser.selected.connect(self.memory.show_memory_details)
        self.browser.add_requested.connect(self.memory.add_memory)
        self.browser.save_requested.connect(self.memory.save_memory)
        self.browser.pin_requested.connect(self.memory.pin_memory)
        self.browser.delete_requested.connect(self.memory.delete_memories)
        self.browser.forget_all_requested.connect(self.memory.forget_all)
        self.browser.restore_requested.connect(self.memory.restore_memory)
        self.browser.export_requested.connect(self.memory.export_memories)
        self.browser.import_requested.connect(self.memory.import_memories)
        self.browser.message_requested.connect(self.threads.open_message)

        # Two pages, each using the full width, chosen on a narrow rail: Chat (the
        # conversations and the chat) and Memories (the browser with its details).
        self.splitter = QSplitter()
        self.splitter.addWidget(left)
        self.splitter.addWidget(self.centre)
        self.splitter.setStretchFactor(1, 3)
        self.splitter.setChildrenCollapsible(False)
        left.setMinimumWidth(160)
        left.setMaximumWidth(360)
        self.documents_page = DocumentsPage(self.documents)
        self.documents_page.status.connect(lambda text: self.statusBar().showMessage(text, 10000))
        self.documents_page.progress.connect(
            lambda what, done, total: self.show_work(what or None, done, total)
        )
        self.pages = QStackedWidget()
        self.pages.addWidget(self.splitter)
        self.pages.addWidget(self.browser)
        self.pages.addWidget(self.documents_page)
        self.rail = QWidget()
        self.rail.setObjectName("rail")
        rail = QVBoxLayout(self.rail)
        rail.setContentsMargins(4, 8, 4, 8)
        self.rail_group = QButtonGroup(self)
        self.rail_buttons: dict[str, QToolButton] = {}
        for name, label in (
            ("chat", self.tr("Chat")),
            ("memories", self.tr("Memories")),
            ("documents", self.tr("Documents")),
        ):
            button = QToolButton()
            button.setText(label)
            button.setCheckable(True)
            button.setObjectName("railButton")
            button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
            button.clicked.connect(lambda _=False, n=name: self.show_page(n))
            self.rail_group.addButton(button)
            self.rail_buttons[name] = button
            rail.addWidget(button)
        rail.addStretch(1)
        # As wide as its longest label in this language: never "Doc…nts" at 800x600.
        for b in self.rail_buttons.values():
            b.ensurePolished()  # the style sheet's padding counts
        widest = max(b.sizeHint().width() for b in self.rail_buttons.values())
        self.rail.setMinimumWidth(widest + rail.contentsMargins().left() * 2)
        central = QWidget()
        row = QHBoxLayout(central)
        row.setContentsMargins(0, 0, 8, 0)  # the pages keep clear of the window's edge
        row.setSpacing(8)
        row.addWidget(self.rail)
        row.addWidget(self.pages, 1)
        self.setCentralWidget(central)

        # status bar
        self.ollama_status = QLabel()
        self.ollama_status.setTextFormat(Qt.TextFormat.RichText)
        self.ollama_status.linkActivated.connect(
            lambda _link: (
                self.profile.embedder and self.connection.pull(self.profile.embedder.model)
            )
        )
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
        # The window's reads get their own connection, so they never wait behind a write.
        tasks.run(profile.db.open_reader)
        self.threads.refresh_conversations()
        self.memory.refresh_memories()
        self.threads.new_conversation(False)
        self.update_status()
        self.connection.check_ollama()
        # load the vector index in the background: the first search is then warm
        tasks.run(profile.memories.index.warm)
        # Another process writing to this profile (the MCP server, the command line):
        # SQLite's data_version changes; the lists are read again.
        self._seen_version = profile.db.data_version()
        self.watch = QTimer(self)
        self.watch.setInterval(WATCH_MS)
        self.watch.timeout.connect(self.check_outside_changes)
        self.watch.start()

    def _build_menus(self) -> None:
        def action(menu: QMenu, text: str, slot: Any, name: str | None = None) -> QAction:
            act = QAction(text, self)
            if name:
                act.setShortcut(shortcuts.key(name))
            act.triggered.connect(slot)
            menu.addAction(act)
            return act

        chat = self.menuBar().addMenu(self.tr("&Chat"))
        action(
            chat,
            self.tr("New conversation"),
            lambda: self.threads.new_conversation(False),
            "new_chat",
        )
        action(
            chat,
            self.tr("New incognito conversation"),
            lambda: self.threads.new_conversation(True),
            "incognito",
        )
        action(chat, self.tr("Regenerate"), lambda: self.turns.regenerate(-1), "regenerate")
        action(chat, self.tr("Edit last message"), self.chat.edit_last_message, "edit_last")
        action(chat, self.tr("Search conversations"), self.conv_search.setFocus, "search_chats")
        chat.addSeparator()
        action(chat, self.tr("Settings…"), self.preferences.open_settings, "settings")
        action(
            chat, self.tr("Delete all conversations and memories…"), self.memory.delete_everything
        )
        action(chat, self.tr("Quit"), self.close, "quit")
        mem = self.menuBar().addMenu(self.tr("&Memories"))
        self.toggle_browser = action(
            mem, self.tr("Show memories"), self._toggle_browser, "memories"
        )
        self.toggle_browser.setCheckable(True)
        action(mem, self.tr("Search memories"), self._focus_memory_search, "search_memories")
        action(mem, self.tr("New memory…"), self._new_memory)
        action(mem, self.tr("Consolidate now"), self.memory.consolidate)
        action(mem, self.tr("Export…"), self.memory.export_memories)
        action(mem, self.tr("Import…"), self.memory.import_memories)
        self.auto_action = action(mem, self.tr("Learn automatically"), self._toggle_auto)
        self.auto_action.setCheckable(True)
        self.auto_action.setChecked(bool(self.settings.get("auto_memory")))
        help_menu = self.menuBar().addMenu(self.tr("&Help"))
        action(help_menu, self.tr("Keyboard shortcuts"), self.show_shortcuts, "help")
        action(help_menu, self.tr("About desktop-mem"), self.show_about)
        stop = QShortcut(shortcuts.key("stop"), self)
        stop.activated.connect(self.turns.stop)
        focus = QShortcut(shortcuts.key("focus_input"), self)
        focus.activated.connect(self.chat.input.setFocus)

    def file_folder(self) -> str:
        """Where export and import dialogs open: the last folder used, else Documents."""
        saved = self.qsettings.value("files/last_folder")
        if saved and Path(str(saved)).is_dir():
            return str(saved)
        docs = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
        return docs or str(Path.home())

    def remember_folder(self, path: str) -> None:
        self.qsettings.setValue("files/last_folder", str(Path(path).parent))

    def check_outside_changes(self) -> bool:
        """Refresh the memories and conversations if another process changed them."""
        try:
            version = self.profile.db.data_version(wait=False)  # never block the GUI
        except DesktopMemError:
            return False
        if version is None or version == self._seen_version:
            return False
        self._seen_version = version
        if not self.turns.turn_busy:
            self.memory.refresh_memories()
            self.threads.refresh_conversations()
        return True

    def page(self) -> str:
        current = self.pages.currentWidget()
        if current is self.browser:
            return "memories"
        return "documents" if current is self.documents_page else "chat"

    def show_page(self, name: str) -> None:
        """Chat, Memories or Documents, each with the whole width."""
        widgets = {"memories": self.browser, "documents": self.documents_page}
        name = name if name in ("chat", *widgets) else "chat"
        self.pages.setCurrentWidget(widgets.get(name, self.splitter))
        self.rail_buttons[name].setChecked(True)
        if hasattr(self, "toggle_browser"):
            self.toggle_browser.setChecked(name == "memories")

    def _toggle_browser(self) -> None:
        self.show_page("chat" if self.page() == "memories" else "memories")

    def _new_memory(self) -> None:
        self.show_page("memories")
        self.browser.new_memory()

    def _focus_memory_search(self) -> None:
        self.show_page("memories")
        self.browser.search.setFocus()

    def _toggle_auto(self) -> None:
        self.settings.set("auto_memory", self.auto_action.isChecked())
        self.update_status()

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

    def _restore_state(self) -> None:
        geometry = self.qsettings.value("window/geometry")
        if geometry:
            self.restoreGeometry(geometry)
        else:
            self.resize(1280, 800)
        split = self.qsettings.value("window/chat-splitter")
        if split:
            self.splitter.restoreState(split)
        else:
            self.splitter.setSizes([240, 900])
        self.show_page(str(self.qsettings.value("window/page", "chat")))

    def closeEvent(self, event: QCloseEvent) -> None:
        self.qsettings.setValue("window/geometry", self.saveGeometry())
        self.qsettings.setValue("window/chat-splitter", self.splitter.saveState())
        self.qsettings.setValue("window/page", self.page())
        self.qsettings.sync()
        self.browser.cancel_pending()
        self.sleeper.user_active()  # a running sleep-time pass stops at its next memory
        self.sleeper.timer.stop()
        self.backups.timer.stop()
        self.connection.retry.stop()
        self.watch.stop()
        self.documents_page.timer.stop()
        self.backups.first.stop()
        if self.turns.session is not None:
            self.turns.session.stop()
            self.turns.session.close(wait=False)
        super().closeEvent(event)

    def update_status(self) -> None:
        if self.connection.online and self.connection.embed_missing:
            model = self.profile.embedder.model if self.profile.embedder else ""
            self.ollama_status.setText(
                html.escape(
                    self.tr("● Connected · embedding model %1 missing: search by words only")
                ).replace("%1", html.escape(model))
                + ' · <a href="pull">'
                + html.escape(self.tr("Download it"))
                + "</a>"
            )
        elif self.connection.online:
            slow = self.slow_turns()
            self.ollama_status.setText(
                html.escape(self.tr("● Connected · %1")).replace(
                    "%1", html.escape(self.connection.backend.model)
                )
                + (" · " + html.escape(slow) if slow else "")
            )
        else:
            self.ollama_status.setText(self.tr("○ Ollama not connected"))
        if self.turns.incognito:
            mem = self.tr("Memory: incognito")
        elif self.settings.get("auto_memory"):
            mem = self.tr("Memory: on")
        else:
            mem = self.tr("Memory: off (commands only)")
        waiting = learning.waiting(self.profile.db).total
        if waiting and not self.turns.incognito:
            mem += self.tr(" · %n message(s) not yet learned from", "", waiting)
        self.memory_status.setText(mem)

    def slow_turns(self) -> str:
        """What the model server said after the last answer that makes every turn slow
        (core/models/loaded.py), in one sentence with what to change; "" when nothing."""
        session = self.turns.session
        problem = session.server_problem if session is not None else None
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
        if total:
            self.work_bar.setRange(0, total)
            self.work_bar.setValue(done)
        else:
            self.work_bar.setRange(0, 0)
        self.work_bar.show()

    def show_error(self, text: str) -> None:
        self.show_work(None)
        box = QMessageBox(QMessageBox.Icon.Warning, self.tr("desktop-mem"), text, parent=self)
        box.open()
        self.error_box = box
