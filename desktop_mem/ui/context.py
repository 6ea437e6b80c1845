"""What every part of the window shares, as git-cola's ApplicationContext: the
application service (core/service: every operation, on the open profile), the window's
own preferences, the model server as the window knows it, the open chat, and the hub:
the signals by which one part says what happened and the others act on it. What the
core changes, it announces itself (ui/events.py turns that into the hub's
memories_changed, conversations_changed and status_changed): no part emits those by
hand after an action. Controllers and panels take the context, never the main window,
so each can be built and tested alone."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QLocale, QObject, QSettings, QStandardPaths, Signal
from PySide6.QtWidgets import QWidget

from desktop_mem.core.chat.session import ChatSession
from desktop_mem.core.models.llm import ChatBackend
from desktop_mem.core.models.loaded import SlowTurns
from desktop_mem.core.service import Service
from desktop_mem.ui.events import CoreSignals
from desktop_mem.ui.spaces import SpaceChoice

# The interface's languages, each named in itself (the same in every interface language).
LANGUAGES = {"en": "English", "zh_CN": "简体中文"}
SYSTEM = "system"  # the language choice that follows the system's


def system_language() -> str:
    """The interface language the system's locale asks for."""
    return "zh_CN" if QLocale.system().language() == QLocale.Language.Chinese else "en"


def shown_language(choice: str) -> str:
    """The interface language a choice in Settings gives (SYSTEM: the system's)."""
    return choice if choice in LANGUAGES else system_language()


class Hub(QObject):
    """The window's message bus: whoever knows something emits, whoever cares listens."""

    status = Signal(str, int)  # a line for the status bar, and for how long (ms)
    # what runs now (None: nothing), done, total (0: unknown); Python ints, as a download's
    # bytes pass 2**31 (a Qt int is 32 bits)
    work = Signal(object, object, object)
    error = Signal(str)  # one sentence for a message box
    memories_changed = Signal(object)  # list the memories again; a memory id to show, or None
    conversations_changed = Signal()  # list the conversations again
    page_requested = Signal(str)  # "chat", "memories" or "documents"
    memory_requested = Signal(int)  # show this memory in the browser
    # the browser lists only the memories edited on two computers at once (Settings >
    # Sync's link); the user clears that filter there
    edited_on_both_requested = Signal()
    message_requested = Signal(int)  # open the conversation at this message
    passage_requested = Signal(object)  # show a passage an answer was given (PassageHit)
    new_chat_requested = Signal(bool)  # a new conversation (True: incognito)
    chat_shown = Signal()  # a conversation (or a new one) is in the chat view now
    memory_mode_changed = Signal()  # learning on or off, incognito: the status bar again
    status_changed = Signal()  # what waits to be learned, the server after a turn: the same
    server_found = Signal()  # the model server answers (again): what waited for it goes on
    server_lost = Signal(str)  # a turn found the model server gone (its sentence)
    chat_model_missing = Signal(str)  # a turn needs this chat model downloaded
    language_requested = Signal(str)  # the Application rebuilds the window in it
    theme_requested = Signal(str)
    key_change_requested = Signal(str)  # "keyring" or "passphrase"
    restore_requested = Signal(str)  # a backup file to put in place of this profile
    # a file or folder to import (None: choose one): one door for every kind of import
    import_requested = Signal(object)
    settings_page_requested = Signal(str)  # open Settings at this tab ("spaces")


class ServerState(QObject):
    """The model server as the window knows it: the chat backend, whether it answers,
    its models (and which of them embed), whether the embedding model is there.
    `changed` after any of it changes."""

    changed = Signal()

    def __init__(self, service: Service, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.app = service
        self.online = False
        self.checking = True  # not asked yet: neither online nor known to be offline
        self.problem = ""  # why it does not answer, in the window's words
        self.models: list[str] = []  # every model the server has, without ":latest"
        self.embedding_models: list[str] = []
        self.embed_missing = False  # the profile's embedding model is not on the server
        # the server answers, but with an error (HTTP 500…): its sentence, until a
        # request succeeds again; "" when nothing failed
        self.failing = ""
        self.indexing = False  # vectors are being made (what had none, or a re-index)
        # what the server said after the last turn that would make every turn slow
        # (core.models.loaded.SlowTurns), or None
        self.slow: SlowTurns | None = None

    @property
    def backend(self) -> ChatBackend:
        """The chat backend the profile talks to now (the service owns it)."""
        return self.app.backend


class ChatState(QObject):
    """The open chat: its session (one conversation, or a new or incognito one) and
    whether a turn is running. `changed` when another chat is opened."""

    changed = Signal()
    busy_changed = Signal(bool)

    def __init__(self, service: Service, server: ServerState, parent: QObject | None = None):
        super().__init__(parent)
        self.app = service
        self.server = server
        self.session: ChatSession | None = None
        self.incognito = False
        self.busy = False

    def open(
        self, conversation_id: int | None, incognito: bool = False, space: int | None = None
    ) -> ChatSession:
        """A session for this conversation (None: a new one, started in `space`), the
        old one stopped."""
        self.close()
        self.session = self.app.chat(conversation_id, incognito=incognito, space=space)
        self.incognito = incognito
        self.changed.emit()
        return self.session

    @property
    def space(self) -> int | None:
        """The space the open chat is in (None: the shared space)."""
        return self.session.space if self.session is not None else None

    def follow_space(self, space: int | None) -> bool:
        """The open chat's conversation was moved (or its space taken out): its next
        turns are given what the new space sees. Whether it changed."""
        if self.session is None or self.session.space == space:
            return False
        self.session.space = space
        return True

    def set_busy(self, busy: bool) -> None:
        self.busy = busy
        self.busy_changed.emit(busy)

    @property
    def conversation_id(self) -> int | None:
        return self.session.conversation_id if self.session is not None else None

    def close(self) -> None:
        if self.session is not None:
            self.session.stop()
            self.session.close()
            self.session = None


class Context:
    """The application service (`app`), the window's preferences (QSettings: window
    state, language, theme, the Ollama address; no memory or message text), the server
    and chat states, the hub, the core's announcements as signals (`core`), and `view`:
    the widget dialogs are parented to (the main window, or nothing when a controller
    is tested alone)."""

    def __init__(self, service: Service, prefs: QSettings, view: QWidget | None = None):
        self.app = service
        self.prefs = prefs
        self.view = view
        self.hub = Hub(view)
        self.server = ServerState(service, view)
        self.chat = ChatState(service, self.server, view)
        # the other computers this profile syncs with, by name, as the sync controller
        # last read them off the GUI thread (ui/sync_controller.py); () when none is known
        self.sync_peers: tuple[str, ...] = ()
        self.core = CoreSignals(service.events, view, is_open=lambda: not service.keys.closed)
        # the space the window is in: new chats, added documents, the conversation list
        self.space = SpaceChoice(service.spaces, prefs, view)
        self.core.spaces_changed.connect(self.space.check)
        hub = self.hub
        self.core.memories_changed.connect(lambda: hub.memories_changed.emit(None))
        self.core.conversations_changed.connect(hub.conversations_changed)
        self.core.learning_changed.connect(hub.status_changed)
        self.core.server_observed.connect(self._server_observed)
        self.core.backend_changed.connect(lambda _model: self.server.changed.emit())
        self.core.setting_changed.connect(self._setting_changed)

    def _server_observed(self, problem: SlowTurns | None) -> None:
        from desktop_mem.ui import tasks

        tasks.arrived("server")
        self.server.slow = problem
        self.hub.status_changed.emit()

    def _setting_changed(self, key: str) -> None:
        if key in ("auto_memory", "use_memory"):
            self.hub.memory_mode_changed.emit()

    def file_folder(self) -> str:
        """Where export and import dialogs open: the last folder used, else Documents."""
        saved = self.prefs.value("files/last_folder")
        if saved and Path(str(saved)).is_dir():
            return str(saved)
        docs = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
        return docs or str(Path.home())

    def remember_folder(self, path: str) -> None:
        self.prefs.setValue("files/last_folder", str(Path(path).parent))

    def language(self) -> str:
        """The language chosen in Settings: "system" (as the system, the default), or
        one of LANGUAGES."""
        return str(self.prefs.value("ui/language", SYSTEM))
