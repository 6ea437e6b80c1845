"""What changed, said by the core as it happens: the announcements the window, and any
other listener, follow instead of refreshing by hand after each action.

A store announces each change once it is committed, on the thread that made it (the
chat's learning in the background, an import, an app over MCP, the window's own edit):
`Events.emit` calls every subscriber there and then. The window's Qt adapter
(ui/events.py) turns them into signals delivered on its own thread. One vocabulary for
every kind of record: a change is "added", "changed" or "removed".

Every event carries its *origin*: who made the change (the window or the command line
through the service, a sync pass, an import, an app over MCP). Whoever acts says so
once, around what it does (`acting(SYNC)`); each event made inside takes it, on that
thread, so a listener never guesses from a thread id whose change it is.
"""

from __future__ import annotations

import contextlib
import contextvars
import logging
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Literal

log = logging.getLogger(__name__)

Change = Literal["added", "changed", "removed"]

# Who makes a change. An app over MCP is APP followed by its name ("app:notes").
SERVICE = "service"  # the window or the command line, through the application service
SYNC = "sync"  # a sync pass taking in what other computers wrote
IMPORT = "import"  # an import of another assistant's export, or of a memory file
APP = "app:"

_origin: contextvars.ContextVar[str] = contextvars.ContextVar("origin", default=SERVICE)


def current_origin() -> str:
    """Who is acting on this thread now (SERVICE unless someone said otherwise)."""
    return _origin.get()


@contextlib.contextmanager
def acting(origin: str) -> Iterator[None]:
    """Every event made on this thread inside the block has `origin`."""
    token = _origin.set(origin)
    try:
        yield
    finally:
        _origin.reset(token)


def act_as(origin: str) -> None:
    """Every event made from here on in the current context has `origin`: for a caller
    that runs each request in a context of its own (an MCP request is an asyncio task,
    which starts from a copy of the context), so it reaches nothing else."""
    _origin.set(origin)


@dataclass(frozen=True)
class Event:
    """Something that changed in the profile, and who changed it."""

    origin: str = field(default_factory=current_origin, kw_only=True)


@dataclass(frozen=True)
class MemoriesChanged(Event):
    change: Change
    ids: tuple[int, ...] = ()  # empty: every memory (forget everything)


@dataclass(frozen=True)
class ConversationsChanged(Event):
    """Conversations, or messages in them, were added, changed or removed."""

    change: Change
    ids: tuple[int, ...] = ()  # the conversations; empty: every one


@dataclass(frozen=True)
class DocumentsChanged(Event):
    change: Change
    ids: tuple[int, ...] = ()


@dataclass(frozen=True)
class SettingChanged(Event):
    key: str


@dataclass(frozen=True)
class BackendChanged(Event):
    """The chat backend (the model, or its server) is another one now."""

    model: str


@dataclass(frozen=True)
class LearningChanged(Event):
    """Messages waiting to be learned from were added or learned from."""


@dataclass(frozen=True)
class AboutChanged(Event):
    """The "about you" profile changed: rewritten, a line edited or removed, or lines
    gone with a memory they cited (that one is announced as MemoriesChanged)."""

    change: Change
    ids: tuple[int, ...] = ()  # the lines; empty: the whole profile


@dataclass(frozen=True)
class ProposalsChanged(Event):
    """Facts proposed from imported history were added, accepted or rejected."""


@dataclass(frozen=True)
class TurnLearned(Event):
    """The write path finished for a turn: what it taught (core.chat.records.Learned;
    None when it failed). The bus knows no record of a layer above it: a listener
    narrows it."""

    answer_id: int | None
    learned: object


@dataclass(frozen=True)
class ConversationTitled(Event):
    conversation_id: int
    named: bool  # the model gave it a title (else the first message's start stays)


@dataclass(frozen=True)
class ServerObserved(Event):
    """What the model server said after a turn that would make every turn slow
    (core.models.loaded.SlowTurns), or None."""

    problem: object


@dataclass(frozen=True)
class AppsChanged(Event):
    """Apps over MCP (core/clients.py) were registered, changed (a level, a new key, a
    use, their log) or removed; the level of apps without a key is a change of none."""

    change: Change
    ids: tuple[int, ...] = ()  # the apps; empty: none in particular, or every one


# What changed of the key: what opens it ("opens": a new recovery code, or the one of a
# synced profile joined), the key itself ("rekeyed": re-encrypted under a new key or a
# new passphrase, or moved between the keyring and a passphrase), or the whole profile
# ("restored": a backup put in its place, with the key that opens the backup).
KeyChange = Literal["opens", "rekeyed", "restored"]


@dataclass(frozen=True)
class SpacesChanged(Event):
    """Spaces (core/memory/spaces.py) were made, renamed, changed or taken out."""

    change: Change
    ids: tuple[int, ...] = ()


@dataclass(frozen=True)
class KeyChanged(Event):
    """The profile's key, what opens it, or where it is kept, changed. A rekey and a
    restore are made with the profile closed: they are announced on the profile opened
    again with its new key (service.keys.changed_while_closed), once it is committed."""

    how: KeyChange = "opens"


@dataclass(frozen=True)
class SyncChanged(Event):
    """Sync through a folder changed state: "on", "off", "synced" (a pass ended),
    "error", "renamed", "removed" (a computer taken out), "conflicts_seen" (the user
    looked at memories edited on two computers at once), "moved" (to another folder)."""

    state: str


@dataclass(frozen=True)
class SyncProgress(Event):
    """A pass is taking in a large file (joining, or catching up after a long time
    away): `done` of its `total` records applied, from the computer called `peer`."""

    done: int
    total: int
    peer: str


Listener = Callable[[Event], None]


@dataclass
class Events:
    """Subscribers to a profile's announcements."""

    _listeners: list[Listener] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call `listener` with every event from now on; returns what unsubscribes it."""
        with self._lock:
            self._listeners.append(listener)

        def unsubscribe() -> None:
            with self._lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)

        return unsubscribe

    def emit(self, event: Event) -> None:
        """Tell every subscriber. A subscriber that fails is logged, never the caller's
        problem: the change it announces is already made."""
        with self._lock:
            listeners = list(self._listeners)
        for listener in listeners:
            try:
                listener(event)
            except Exception as exc:  # noqa: BLE001 - a listener never undoes a change
                log.warning("a listener failed on %s: %s", type(event).__name__, type(exc).__name__)

    def memories(self, change: Change, ids: Iterable[int] = ()) -> None:
        self.emit(MemoriesChanged(change, tuple(ids)))

    def conversations(self, change: Change, ids: Iterable[int | None] = ()) -> None:
        self.emit(ConversationsChanged(change, tuple(i for i in ids if i is not None)))

    def documents(self, change: Change, ids: Iterable[int] = ()) -> None:
        self.emit(DocumentsChanged(change, tuple(ids)))
