"""What every part of the window shares, as git-cola's ApplicationContext: the open
profile (which owns every store), the window's own preferences, the model server as the
window knows it, the open chat, and the hub: the signals by which one part says what
happened and the others act on it. Controllers and panels take the context, never the
main window, so each can be built and tested alone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QSettings, QStandardPaths, Signal
from PySide6.QtWidgets import QWidget

from desktop_mem.core.chat.backends import make_backend
from desktop_mem.core.chat.session import ChatSession
from desktop_mem.core.profile import Profile


class Hub(QObject):
    """The window's message bus: whoever knows something emits, whoever cares listens."""

    status = Signal(str, int)  # a line for the status bar, and for how long (ms)
    work = Signal(object, int, int)  # what runs now (None: nothing), done, total (0: unknown)
    error = Signal(str)  # one sentence for a message box
    memories_changed = Signal(object)  # list the memories again; a memory id to show, or None
    conversations_changed = Signal()  # list the conversations again
    page_requested = Signal(str)  # "chat", "memories" or "documents"
    memory_requested = Signal(int)  # show this memory in the browser
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


class ServerState(QObject):
    """The model server as the window knows it: the chat backend, whether it answers,
    its models (and which of them embed), whether the embedding model is there.
    `changed` after any of it changes."""

    changed = Signal()

    def __init__(self, profile: Profile, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.backend: Any = make_backend(profile)  # chooses the model for its own kind
        self.online = False
        self.checking = True  # not asked yet: neither online nor known to be offline
        self.problem = ""  # why it does not answer, in the window's words
        self.models: list[str] = []  # every model the server has, without ":latest"
        self.embedding_models: list[str] = []
        self.embed_missing = False  # the profile's embedding model is not on the server
        self.indexing = False  # vectors are being made (what had none, or a re-index)


class ChatState(QObject):
    """The open chat: its session (one conversation, or a new or incognito one) and
    whether a turn is running. `changed` when another chat is opened."""

    changed = Signal()
    busy_changed = Signal(bool)

    def __init__(self, profile: Profile, server: ServerState, parent: QObject | None = None):
        super().__init__(parent)
        self.profile = profile
        self.server = server
        self.session: ChatSession | None = None
        self.incognito = False
        self.busy = False

    def open(self, conversation_id: int | None, incognito: bool = False) -> ChatSession:
        """A session for this conversation (None: a new one), the old one stopped."""
        self.close()
        self.session = ChatSession(
            self.profile, self.server.backend, conversation_id, incognito=incognito
        )
        self.incognito = incognito
        self.changed.emit()
        return self.session

    def set_busy(self, busy: bool) -> None:
        self.busy = busy
        self.busy_changed.emit(busy)

    @property
    def conversation_id(self) -> int | None:
        return self.session.conversation_id if self.session is not None else None

    def close(self) -> None:
        if self.session is not None:
            self.session.stop()
            self.session.close(wait=False)
            self.session = None


class Context:
    """The profile, the window's preferences (QSettings: window state, language, theme,
    the Ollama address; no memory or message text), the server and chat states, the
    hub, and `view`: the widget dialogs are parented to (the main window, or nothing
    when a controller is tested alone)."""

    def __init__(self, profile: Profile, prefs: QSettings, view: QWidget | None = None):
        self.profile = profile
        self.prefs = prefs
        self.view = view
        self.hub = Hub(view)
        self.server = ServerState(profile, view)
        self.chat = ChatState(profile, self.server, view)

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
        return str(self.prefs.value("ui/language", "en"))
