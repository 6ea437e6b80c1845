"""Owns the window's assembly: the panels (conversations, chat, memory browser,
documents), the menus and shortcuts, the status bar (what it says is ui/status_bar.py)
and the saved window state. The work is the controllers' (connection, turns,
conversations, memories, settings, backups, sleep), each built on the context
(ui/context.py), never on this window; they talk to each other through the context's
hub, and this window only shows what they say.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QByteArray, QEvent, QObject, QSettings, QSize, Qt, QTimer
from PySide6.QtGui import QAction, QCloseEvent, QGuiApplication, QShortcut, QShowEvent, QWindow
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QHBoxLayout,
    QMainWindow,
    QMenu,
    QMessageBox,
    QSplitter,
    QStackedWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop_mem.core.documents.records import PassageHit
from desktop_mem.core.errors import DesktopMemError
from desktop_mem.core.models.catalog import short_name
from desktop_mem.core.service import Service
from desktop_mem.ui import focus, shortcuts, tasks
from desktop_mem.ui.about_dialog import AboutDialog
from desktop_mem.ui.backup_ui import BackupController
from desktop_mem.ui.chat_view import ChatView
from desktop_mem.ui.connection import ConnectionController
from desktop_mem.ui.context import Context
from desktop_mem.ui.conversations_controller import ConversationsController
from desktop_mem.ui.conversations_panel import ConversationsPanel
from desktop_mem.ui.documents_ui import DocumentsPage
from desktop_mem.ui.import_dialog import ImportController
from desktop_mem.ui.memory_browser import MemoryBrowser
from desktop_mem.ui.memory_controller import MemoryController
from desktop_mem.ui.offline_page import OfflinePage
from desktop_mem.ui.passage_dialog import PassageDialog
from desktop_mem.ui.settings_controller import SettingsController
from desktop_mem.ui.shortcuts_dialog import ShortcutsDialog
from desktop_mem.ui.sleep_controller import SleepController
from desktop_mem.ui.status_bar import StatusBar
from desktop_mem.ui.sync_controller import SyncController
from desktop_mem.ui.turns import TurnController

WATCH_MS = 2000  # how often the window looks for changes made by another process
MINIMUM = QSize(760, 520)  # every page still works at this size (tests/ui check it)
FIRST = QSize(1280, 800)  # the first start's size, on a screen that has room for it


class FocusBack(QObject):
    """Gives the window the keyboard back when one of its dialogs closes (a child of the
    window: it goes, and stops listening, with it). It watches only the window's dialogs
    that took the keyboard (the application says which window has it), each until it
    goes: not every event of the application, as a filter on it did (about 830 a turn)."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.later = QTimer(self)  # after the dialog has gone; dies with the window
        self.later.setSingleShot(True)
        self.later.setInterval(0)
        self.later.timeout.connect(window.take_focus_back)
        self.app = QApplication.instance()
        self.watching = isinstance(self.app, QGuiApplication)
        if isinstance(self.app, QGuiApplication):
            self.app.focusWindowChanged.connect(self.focus_moved)

    def stop(self) -> None:
        """Watch no more (the window closes)."""
        if self.watching and isinstance(self.app, QGuiApplication):
            self.watching = False
            self.app.focusWindowChanged.disconnect(self.focus_moved)

    def focus_moved(self, focused: QWindow | None) -> None:
        """A window took the keyboard: one of this window's dialogs is watched until it
        hides (installed again, a filter is still called once)."""
        if focused is None:
            return
        dialog = next(
            (w for w in QApplication.topLevelWidgets() if w.windowHandle() is focused), None
        )
        if (
            isinstance(dialog, QDialog | QMessageBox)
            and (owner := dialog.parentWidget()) is not None
            and owner.window() is self.window
        ):
            dialog.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (
            event.type() == QEvent.Type.Hide
            and isinstance(watched, QDialog | QMessageBox)
            and watched.isWindow()
            and (owner := watched.parentWidget()) is not None
            and owner.window() is self.window
        ):
            self.later.start()
        return False


class MainWindow(QMainWindow):
    def __init__(
        self,
        service: Service,
        prefs: QSettings,
        parent: QWidget | None = None,
        geometry: QByteArray | None = None,
    ) -> None:
        """`geometry`: where the window was (a rebuild for another language keeps it)."""
        super().__init__(parent)
        self.context = Context(service, prefs, view=self)
        ctx, hub = self.context, self.context.hub
        self.setWindowTitle(self.tr("desktop-mem"))
        self.setMinimumSize(MINIMUM)

        # the panels
        self.conversation_panel = ConversationsPanel()
        self.chat = ChatView()
        self.offline = OfflinePage()
        self.centre = QStackedWidget()
        self.centre.addWidget(self.chat)
        self.centre.addWidget(self.offline)
        self.browser = MemoryBrowser()
        self.documents_page = DocumentsPage(ctx)

        # the status bar first: a controller may add a part of its own to it
        self.status_bar = StatusBar(ctx)
        self.setStatusBar(self.status_bar)

        # the controllers, each on the context
        self.connection = ConnectionController(ctx)
        self.turns = TurnController(ctx, self.chat)
        self.conversations = ConversationsController(ctx, self.conversation_panel, self.chat)
        self.memories = MemoryController(ctx, self.browser)
        self.imports = ImportController(ctx, self.memories.import_memories)
        self.backups = BackupController(ctx)
        self.sleeper = SleepController(ctx)
        self.syncing = SyncController(ctx)
        self.settings = SettingsController(ctx, self.connection, self.backups, self.syncing)
        self.status_bar.follow(self.connection, self.syncing)

        self.chat.send_requested.connect(self.turns.send)
        self.chat.stop_requested.connect(self.turns.stop)
        self.chat.regenerate_requested.connect(self.turns.regenerate)
        self.chat.edit_requested.connect(self.turns.edit)
        self.chat.version_requested.connect(self.conversations.show_version)
        self.chat.notice_link.connect(self.turns.link)
        self.chat.memory_clicked.connect(hub.memory_requested)
        self.chat.message_clicked.connect(hub.message_requested)
        self.chat.document_clicked.connect(hub.passage_requested)
        self.chat.model_changed.connect(self.connection.set_chat_model)
        self.chat.input.textChanged.connect(self.sleeper.user_active)
        self.sleeper.finished.connect(self.memories.slept)
        self.offline.retry.connect(self.connection.check)
        self.offline.settings.connect(self.settings.open_settings)
        self.chat.retry_requested.connect(self.connection.check)
        self.chat.settings_requested.connect(self.settings.open_settings)
        self.backups.finished.connect(
            lambda path: hub.status.emit(self.tr("Backed up to %1").replace("%1", path), 10000)
        )
        self.backups.failed.connect(
            lambda text: hub.status.emit(
                self.tr("The backup failed: %1").replace("%1", text), 30000
            )
        )
        self.documents_page.status.connect(lambda text: hub.status.emit(text, 10000))
        self.documents_page.progress.connect(
            lambda what, done, total: self.status_bar.show_work(what or None, done, total)
        )
        hub.status.connect(self.status_bar.show_message)
        hub.work.connect(self.status_bar.show_work)
        hub.error.connect(self.show_error)
        hub.page_requested.connect(self.show_page)
        hub.passage_requested.connect(self.show_passage)
        hub.memory_mode_changed.connect(self.status_bar.update_status)
        hub.status_changed.connect(self.status_bar.update_status)
        ctx.server.changed.connect(self.server_changed)
        self.connection.downloads_changed.connect(self.status_bar.update_status)
        hub.chat_shown.connect(self.server_changed)

        # Three pages, each using the full width, chosen on a narrow rail: Chat (the
        # conversations and the chat), Memories (the browser with its drawer), Documents.
        self.splitter = QSplitter()
        self.splitter.addWidget(self.conversation_panel)
        self.splitter.addWidget(self.centre)
        self.splitter.setStretchFactor(1, 3)
        self.splitter.setChildrenCollapsible(False)
        self.pages = QStackedWidget()
        self.pages.addWidget(self.splitter)
        self.pages.addWidget(self.browser)
        self.pages.addWidget(self.documents_page)
        self._build_rail()
        central = QWidget()
        row = QHBoxLayout(central)
        row.setContentsMargins(0, 0, 8, 0)  # the pages keep clear of the window's edge
        row.setSpacing(8)
        row.addWidget(self.rail)
        row.addWidget(self.pages, 1)
        self.setCentralWidget(central)
        self.about_you: AboutDialog | None = None
        self._build_menus()
        self.tab_order()
        self.conversations.new_conversation(False)
        self._restore_state(geometry)
        # After a dialog closes the window is active again, so its shortcuts work at once
        # (with no window manager to hand the focus back, they did not until a click).
        self.focus_back = FocusBack(self)
        self._shown_once = False

        # The window's reads get their own connection, so they never wait behind a
        # write, and the vector index is loaded: the first search is then warm.
        tasks.run(service.warm)
        self.conversations.refresh()
        self.memories.refresh_memories()
        self.status_bar.update_status()
        self.connection.check()
        # Another process writing to this profile (the MCP server, the command line):
        # SQLite's data_version changes; the lists are read again.
        self._seen_version = service.data_version()
        self._seen_spaces = service.spaces.list()
        self.watch = QTimer(self)
        self.watch.setInterval(WATCH_MS)
        self.watch.timeout.connect(self.check_outside_changes)
        self.watch.start()

    # -- assembly --------------------------------------------------------------------

    def _build_rail(self) -> None:
        self.rail = QWidget()
        self.rail.setObjectName("rail")
        rail = QVBoxLayout(self.rail)
        rail.setContentsMargins(4, 8, 4, 8)
        # Each page's button is a stop of Tab: no QButtonGroup (Tab skipped every button
        # of one but the first); show_page checks one at a time.
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
            self.rail_buttons[name] = button
            rail.addWidget(button)
        rail.addStretch(1)
        # As wide as its longest label in this language: never "Doc…nts" at 800x600.
        for b in self.rail_buttons.values():
            b.ensurePolished()  # the style sheet's padding counts
        widest = max(b.sizeHint().width() for b in self.rail_buttons.values())
        self.rail.setMinimumWidth(widest + rail.contentsMargins().left() * 2)

    def tab_order(self) -> None:
        """Tab goes down the rail (Chat, Memories, Documents), then through the page shown,
        as it is read, and back to the rail; the hidden pages are skipped."""
        focus.chain(
            [
                *self.rail_buttons.values(),
                *focus.in_order(self.conversation_panel),
                self.chat.model_box,  # then the messages (ChatView orders them)
            ]
        )
        focus.chain(
            [
                *self.chat.composer_parts(),
                *focus.in_order(self.offline),
                *focus.in_order(self.browser),
                *focus.in_order(self.documents_page),
            ]
        )

    def _build_menus(self) -> None:
        def action(
            menu: QMenu, text: str, slot: Callable[[], object], name: str | None = None
        ) -> QAction:
            act = QAction(text, self)
            if name:
                act.setShortcut(shortcuts.key(name))
            act.triggered.connect(slot)
            menu.addAction(act)
            return act

        new_chat = self.context.hub.new_chat_requested
        chat = self.menuBar().addMenu(self.tr("&Chat"))
        action(chat, self.tr("New conversation"), lambda: new_chat.emit(False), "new_chat")
        action(
            chat, self.tr("New incognito conversation"), lambda: new_chat.emit(True), "incognito"
        )
        self.regenerate_action = action(
            chat, self.tr("Regenerate"), lambda: self.turns.regenerate(-1), "regenerate"
        )
        self.edit_last_action = action(
            chat, self.tr("Edit last message"), self.chat.edit_last_message, "edit_last"
        )
        # usable or not as the chat is: a greyed entry says it would do nothing
        self.chat.actions_changed.connect(self._chat_actions)
        self._chat_actions()
        action(chat, self.tr("Search conversations"), self._focus_conversation_search,
               "search_chats")  # fmt: skip
        chat.addSeparator()
        action(chat, self.tr("Settings…"), self.settings.open_settings, "settings")
        action(
            chat, self.tr("Delete all conversations and memories…"),
            self.memories.delete_everything,
        )  # fmt: skip
        action(chat, self.tr("Quit"), self.close, "quit")
        mem = self.menuBar().addMenu(self.tr("&Memories"))
        self.toggle_browser = action(
            mem, self.tr("Show memories"), self._toggle_browser, "memories"
        )
        self.toggle_browser.setCheckable(True)
        action(mem, self.tr("Search memories"), self._focus_memory_search, "search_memories")
        action(mem, self.tr("New memory…"), self._new_memory, "new_memory")
        action(mem, self.tr("About you…"), self.show_about_you)
        action(mem, self.tr("Consolidate now"), self.memories.consolidate)
        action(mem, self.tr("Export…"), self.memories.export_memories)
        action(mem, self.tr("Import…"), lambda: self.imports.choose())
        action(mem, self.tr("Import from ChatGPT, Claude…"), lambda: self.imports.choose())
        action(mem, self.tr("Review imported memories…"), self.imports.show_review)
        self.auto_action = action(mem, self.tr("Learn automatically"), self._toggle_auto)
        self.auto_action.setCheckable(True)
        self.auto_action.setChecked(bool(self.context.app.settings.get("auto_memory")))
        self.context.hub.memory_mode_changed.connect(
            lambda: self.auto_action.setChecked(bool(self.context.app.settings.get("auto_memory")))
        )
        help_menu = self.menuBar().addMenu(self.tr("&Help"))
        action(help_menu, self.tr("Keyboard shortcuts"), self.show_shortcuts, "help")
        action(help_menu, self.tr("About desktop-mem"), self.show_about)
        stop = QShortcut(shortcuts.key("stop"), self)
        stop.activated.connect(self.turns.stop)
        focus = QShortcut(shortcuts.key("focus_input"), self)
        focus.activated.connect(self._focus_input)
        for name, page in (("page_chat", "chat"), ("page_memories", "memories"),
                           ("page_documents", "documents")):  # fmt: skip
            go = QShortcut(shortcuts.key(name), self)
            go.activated.connect(lambda p=page: self.show_page(p))

    def show_about_you(self) -> AboutDialog:
        """Memories › About you: what the model knows about you (one window, raised)."""
        if self.about_you is None:
            self.about_you = AboutDialog(self.context, self)
        self.about_you.refresh()
        self.about_you.show()
        self.about_you.raise_()
        return self.about_you

    def _chat_actions(self) -> None:
        self.regenerate_action.setEnabled(self.chat.can_regenerate())
        self.edit_last_action.setEnabled(self.chat.can_edit_last())

    # -- pages -----------------------------------------------------------------------

    def page(self) -> str:
        current = self.pages.currentWidget()
        if current is self.browser:
            return "memories"
        return "documents" if current is self.documents_page else "chat"

    def show_page(self, name: str) -> None:
        """Chat, Memories or Documents, each with the whole width."""
        widgets = {"memories": self.browser, "documents": self.documents_page}
        name = name if name in ("chat", *widgets) else "chat"
        changed = self.page() != name
        self.pages.setCurrentWidget(widgets.get(name, self.splitter))
        for page, button in self.rail_buttons.items():
            button.setChecked(page == name)
        if changed:  # the keyboard goes along: it never stays on a page no longer shown
            first = {"chat": self.chat.input, "memories": self.browser.search,
                     "documents": self.documents_page.add_files}[name]  # fmt: skip
            first.setFocus()
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
        self.browser.search.selectAll()

    def _focus_conversation_search(self) -> None:
        self.show_page("chat")
        self.conversation_panel.focus_search()

    def _focus_input(self) -> None:
        self.show_page("chat")
        self.chat.input.setFocus()

    def _toggle_auto(self) -> None:
        self.context.app.settings.set("auto_memory", self.auto_action.isChecked())
        self.status_bar.update_status()

    def show_passage(self, passage: PassageHit) -> None:
        self.passage_dialog = PassageDialog(passage, self)
        self.passage_dialog.open()

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

    # -- the model server ------------------------------------------------------------

    def server_changed(self) -> None:
        """The chat, or the page that says the server is not there (only for an empty
        chat: a conversation being read stays readable under a one-line notice)."""
        server = self.context.server
        known_offline = not server.online and not server.checking
        if server.online:
            self.chat.set_models(server.models, short_name(server.backend.model))
        self.offline.detail.setText(server.problem)
        self.offline.set_failing(bool(server.failing))
        self.chat.show_offline_line(
            self.tr("The model server answers with an error: you can read and search, not send.")
            if server.failing
            else self.tr("The model server is not answering: you can read and search, not send."),
            server.problem,
            known_offline and bool(self.chat.messages),
        )
        self.chat.set_offline(known_offline)
        if known_offline and not self.chat.messages:
            self.centre.setCurrentWidget(self.offline)
        else:
            self.centre.setCurrentWidget(self.chat)
        self.status_bar.update_status()

    def show_error(self, text: str) -> None:
        self.status_bar.show_work(None)
        box = QMessageBox(QMessageBox.Icon.Warning, self.tr("desktop-mem"), text, parent=self)
        box.open()
        self.error_box = box

    # -- outside changes, focus, state -----------------------------------------------

    def check_outside_changes(self) -> bool:
        """Refresh the memories and conversations if another process changed them."""
        try:
            version = self.context.app.data_version(wait=False)  # never block the GUI
        except DesktopMemError:
            return False
        if version is None or version == self._seen_version:
            return False
        self._seen_version = version
        spaces = self.context.app.spaces.list()
        if spaces != self._seen_spaces:  # made or changed by the command line, say
            self._seen_spaces = spaces
            self.context.core.spaces_changed.emit()  # as the core says it in this process
        if not self.context.chat.busy:
            self.memories.refresh_memories()
            self.conversations.refresh()
        return True

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not self._shown_once:  # typed keys and shortcuts reach it from the start
            self._shown_once = True
            QTimer.singleShot(0, self.take_focus_back)

    def take_focus_back(self) -> None:
        if self.isVisible() and QApplication.activeModalWidget() is None:
            self.raise_()
            self.activateWindow()

    def _restore_state(self, geometry: QByteArray | None) -> None:
        prefs = self.context.prefs
        saved = geometry or prefs.value("window/geometry")
        if not (saved and self.restoreGeometry(saved)):
            screen = QGuiApplication.primaryScreen()
            room = screen.availableGeometry() if screen is not None else None
            size = FIRST
            if room is not None:  # the first start: as large as FIRST, on the screen, centred
                size = size.boundedTo(QSize(room.width() * 9 // 10, room.height() * 9 // 10))
                size = size.expandedTo(MINIMUM)
                self.resize(size)
                self.move(room.center() - self.rect().center())
            else:
                self.resize(size)
        split = prefs.value("window/chat-splitter")
        if split:
            self.splitter.restoreState(split)
        else:
            self.splitter.setSizes([240, 900])
        self.show_page(str(prefs.value("window/page", "chat")))

    def save_state(self) -> None:
        prefs = self.context.prefs
        prefs.setValue("window/geometry", self.saveGeometry())
        prefs.setValue("window/chat-splitter", self.splitter.saveState())
        prefs.setValue("window/page", self.page())
        prefs.sync()

    def closeEvent(self, event: QCloseEvent) -> None:
        self.save_state()
        self.focus_back.stop()
        self.browser.cancel_pending()
        self.sleeper.user_active()  # a running sleep-time pass stops at its next memory
        self.sleeper.timer.stop()
        self.backups.timer.stop()
        self.syncing.stop()
        self.connection.retry.stop()
        self.watch.stop()
        self.documents_page.timer.stop()
        self.backups.first.stop()
        self.context.chat.close()
        super().closeEvent(event)
