"""The application service: every operation the product performs, for every front end.

The window, the command line, the MCP server and the Python API each hold one Service
and call its operations; none of them holds SQL, builds a store, a backend, an
extractor or a chat session of its own. Operations that span stores are written once,
here or in the Profile they compose ("forget everything" deletes the memories first,
then the conversations, and rebuilds the file once). As git-cola's models and napari's
evented models do, the core says what changed (`events`, core/events.py): the window
wraps that once in a Qt adapter (ui/events.py) instead of refreshing after each action.

The service owns what must be one per open profile: the chat backend (`backends`, read
by every session, the learning and the titles at each request), the token counter that
learns from the server's counts (kept when another conversation is opened), and the
one executor that runs background work (learning, titles, the idle pass), shut down
when the service closes.

Areas, by what they act on: `memories`, `about` (the short profile of the person given
in every prompt), `conversations`, `documents`, `models` (the
embedding model and the index), `apps` (other apps over MCP), `keys` (backups, key
changes), `imports` (other assistants' history), `settings`, `sync` (other
computers); chats come from `chat()`.
"""

from __future__ import annotations

import logging
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from desktop_mem.core.chat.backends import (
    BackendSlot,
    make_backend,
    ollama_model,
    remote_notice,
)
from desktop_mem.core.chat.read_path import TokenCounter
from desktop_mem.core.clients import ClientRegistry
from desktop_mem.core.config import Config
from desktop_mem.core.events import BackendChanged, Events
from desktop_mem.core.keys.vault import Vault
from desktop_mem.core.profile import Forgot, Profile
from desktop_mem.core.search.relevance import RelevanceRule
from desktop_mem.core.service.about import About
from desktop_mem.core.service.conversations import Conversations
from desktop_mem.core.service.documents import Documents
from desktop_mem.core.service.imports import Imports
from desktop_mem.core.service.keys import Keys
from desktop_mem.core.service.memories import Memories
from desktop_mem.core.service.models import Models
from desktop_mem.core.service.spaces import Spaces
from desktop_mem.core.settings import Settings

if TYPE_CHECKING:  # imported on use: a command that lists memories starts without them
    from desktop_mem.core.chat.session import ChatSession
    from desktop_mem.core.models.llm import ChatBackend
    from desktop_mem.core.service.sync import Sync

__all__ = ["Service"]

log = logging.getLogger(__name__)


class Service:
    def __init__(self, profile: Profile) -> None:
        self.profile = profile  # the stores: the core's own; front ends use operations
        self.events: Events = profile.events
        self.settings: Settings = profile.settings
        self.apps: ClientRegistry = profile.clients
        self.counter = TokenCounter()  # one for every chat: it learns the server's counts
        self.background = ThreadPoolExecutor(1, thread_name_prefix="desktop-mem-background")
        self.backends = BackendSlot(lambda: make_backend(profile))
        self.memories = Memories(self)
        self.conversations = Conversations(self)
        self.documents = Documents(self)
        self.models = Models(self)
        self.keys = Keys(self)
        self.imports = Imports(self)
        self.about = About(self)
        self.spaces = Spaces(self)
        self._sync: Sync | None = None
        self._closed = threading.Event()

    @classmethod
    def open(
        cls,
        config: Config,
        vault: Vault | None = None,
        create: bool = True,
        rule: RelevanceRule | None = None,
    ) -> Service:
        """Open (or create) the profile `config` names and the service over it."""
        return cls(Profile.open(config, vault, create=create, rule=rule))

    @property
    def config(self) -> Config:
        return self.profile.config

    @property
    def name(self) -> str:
        """The profile's name."""
        return self.profile.config.profile

    # -- the chat --------------------------------------------------------------------

    @property
    def sync(self) -> Sync:
        """Sync through a folder (imported on use: the cryptography it needs is not
        loaded by a command that lists memories)."""
        if self._sync is None:
            from desktop_mem.core.service.sync import Sync

            self._sync = Sync(self)
        return self._sync

    def chat(
        self, conversation_id: int | None = None, incognito: bool = False, space: int | None = None
    ) -> ChatSession:
        """A chat: an earlier conversation, a new one (None) or an incognito one. A new
        one starts in `space` (None: the shared space); an earlier one is in its own.
        Every chat shares the service's backend, token counter and background executor."""
        from desktop_mem.core.chat.session import ChatSession

        return ChatSession(
            self.profile,
            self.backends,
            conversation_id,
            incognito=incognito,
            counter=self.counter,
            background=self.background,
            space=space,
        )

    @property
    def backend(self) -> ChatBackend:
        """The chat backend the profile talks to now."""
        return self.backends.current

    def use_chat_model(self, model: str | None = None) -> ChatBackend:
        """Answer and learn with this model (None: as the settings say) from the next
        request on, in every chat; announced (BackendChanged)."""
        backend = make_backend(self.profile, model)
        self.backends.set(backend)
        self.events.emit(BackendChanged(backend.model))
        return backend

    def remote_notice(self) -> str | None:
        """The notice that messages leave this computer, once per server (None when the
        backend is this computer, or the notice was given for it)."""
        return remote_notice(self.profile, self.backend)

    def chat_model(self, model: str | None = None) -> str:
        """The Ollama chat model a flag, the environment or the settings choose."""
        return ollama_model(self.profile, model)

    # -- operations across the stores -------------------------------------------------

    def forget_everything(self, keep_conversations: bool = False) -> Forgot:
        """ "Forget everything": every memory, and every conversation (or, keeping them
        to read, none of their messages in a prompt again). Settings, documents and the
        embedding model stay. Gone from every page of the file."""
        forgot = self.profile.forget_everything(keep_conversations=keep_conversations)
        self.sync.dismiss_lost()  # and the text of changes a sync merge dropped, kept for the user
        return forgot

    def counts(self) -> dict[str, int]:
        """How many memories, conversations and messages the profile holds."""
        db = self.profile.db
        return {
            "memories": self.profile.memories.count(),
            "conversations": int(db.query("SELECT count(*) FROM conversations")[0][0]),
            "messages": int(db.query("SELECT count(*) FROM messages")[0][0]),
        }

    def warm(self) -> None:
        """Ready the window's reads: a connection of their own (so they never wait
        behind a write) and the vector index in memory (the first search is warm)."""
        self.profile.db.open_reader()
        self.profile.memories.index.warm()

    def data_version(self, wait: bool = True) -> int | None:
        """A number that changes when another process (the MCP server, the command line)
        writes to this profile; None when it could not be read without waiting."""
        return self.profile.db.data_version(wait=wait)

    def erase_pending(self) -> bool:
        """Whether another window or command reading the profile keeps old pages of
        what was just deleted in the file for now (they are overwritten when it lets
        go, at the latest when it closes)."""
        return not self.profile.db.checkpoint_complete

    # -- closing ---------------------------------------------------------------------

    def close(self, wait: bool = True) -> None:
        """Let the background work end (or not wait for it), then close the profile."""
        if self._closed.is_set():
            return
        self._closed.set()
        self.background.shutdown(wait=wait, cancel_futures=not wait)
        self.profile.close()

    def __enter__(self) -> Service:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Service({self.name!r})"


def open_service(config: Config, vault: Vault | None = None, **kw: Any) -> Service:
    return Service.open(config, vault, **kw)
