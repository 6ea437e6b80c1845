"""What a conversation, a message, a message search hit and the records of what an answer
used look like (the store is conversations.py); what a change to the memories and
learning from an exchange did (extract.py, learning.py)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from desktop_mem.core.jsontypes import JSONObject

# Where imported history came from, as it is named to the user.
ORIGINS = {
    "chatgpt": "ChatGPT",
    "claude": "Claude",
    "mem0": "mem0",
    "openmemory": "OpenMemory",
    "pasted": "a pasted list",
    "desktop-mem": "desktop-mem",
}


def origin_label(origin: str | None, created_at: str | None) -> str:
    """ "from ChatGPT, 2024-03-02" ('' for what was said in this app)."""
    if not origin:
        return ""
    name = ORIGINS.get(origin, origin)
    return f"from {name}, {created_at[:10]}" if created_at else f"from {name}"


@dataclass
class Conversation:
    id: int
    title: str
    model: str | None
    created_at: str
    updated_at: str
    messages: int = 0
    pinned: bool = False
    title_source: str = ""  # '' the first message's start, 'model', or 'user'
    origin: str | None = None  # imported from: 'chatgpt', 'claude'; None: said here
    space: int | None = None  # its space (core/memory/spaces.py); None: the shared space

    @property
    def source(self) -> str:
        """ "from ChatGPT, 2024-03-02", or '' for a conversation held here."""
        return origin_label(self.origin, self.created_at)

    def to_dict(self) -> JSONObject:
        return asdict(self)


# Why a memory was given to an answer: it is in every prompt because it is about the
# user's health or safety (core/memory/care/), or as the user's core memory (pinned,
# or among their most important facts), it was found for this message, or it was
# learned from an earlier message that was found for it.
WHY = ("always", "core", "found", "recalled")
IN_EVERY_PROMPT = ("always", "core")


@dataclass
class UsedMemory:
    """A memory an answer was given, as the turn gave it and as its record keeps it."""

    memory_id: int
    rank: int
    score: float
    text: str | None  # None once the memory has been deleted
    why: str = "found"  # one of WHY
    weak: bool = False  # given as a weaker match (the window draws it as such)

    def to_dict(self) -> JSONObject:
        return asdict(self)


COMMAND_MODEL = "desktop-mem"  # the "model" stored with the app's replies to commands


@dataclass
class Message:
    id: int
    conversation_id: int
    role: str
    content: str
    status: str
    model: str | None
    created_at: str
    prompt_tokens: int | None = None
    error: str | None = None
    forgotten: bool = False  # kept to read, but in no prompt and no search (a "forget")
    used: list[UsedMemory] = field(default_factory=list)
    recalled: list[RecalledMessage] = field(default_factory=list)
    about: list[Any] = field(default_factory=list)  # the profile's lines (AboutLine) given

    def __post_init__(self) -> None:
        self.forgotten = bool(self.forgotten)

    @property
    def command_reply(self) -> bool:
        """The app's own reply to a chat command ("remember …", "forget …"), not a
        model's answer: nothing to regenerate."""
        return self.role == "assistant" and self.model == COMMAND_MODEL

    def to_dict(self) -> JSONObject:
        d = asdict(self)
        d["used"] = [u.to_dict() for u in self.used]
        d["recalled"] = [r.to_dict() for r in self.recalled]
        d["about"] = [ln.to_dict() for ln in self.about]
        return d


@dataclass
class MessageHit:
    message: Message
    conversation_title: str
    score: float
    signals: list[str]
    relevance: float | None = None  # deviations above the query's chance level
    weak: bool = False  # kept as a weaker match (relevance.WEAK)


MESSAGE_COLUMNS = (
    "id, conversation_id, role, content, status, model, created_at, prompt_tokens, error, forgotten"
)


@dataclass
class RecalledMessage:
    """An earlier message an answer was given (the recall tier)."""

    message_id: int
    rank: int
    score: float
    conversation_id: int | None  # None once the message has been deleted
    role: str | None
    text: str | None
    created_at: str | None
    weak: bool = False

    def to_dict(self) -> JSONObject:
        return asdict(self)


@dataclass
class Change:
    """One change to the store, enough to show it and to undo it."""

    action: str  # added, updated, invalidated, skipped (noop)
    memory_id: int
    text: str
    before: str | None = None  # the text before an update
    version: int | None = None  # the memory's version the change created
    # why the memory is now given on every turn (core/memory/care/: health, diet,
    # access, asked), or None
    always: str | None = None
    # an app's statement kept as its own memory beside one it may not change: that one
    proposes: int | None = None
    # learned in a space's chat but kept in the shared space, as what applies
    # everywhere (health and safety, who the person is): the space it was learned in,
    # which the window offers to keep it in instead
    shared_from: int | None = None

    def to_dict(self) -> JSONObject:
        return asdict(self)


@dataclass
class Learned:
    """What learning from one exchange did: its changes, or why it failed."""

    changes: list[Change] = field(default_factory=list)
    failure: str | None = None  # one sentence
    reason: str = ""  # the failure's reason code (the window words it)
    user_id: int | None = None

    @property
    def ok(self) -> bool:
        return self.failure is None
