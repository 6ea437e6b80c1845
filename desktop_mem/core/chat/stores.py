"""What a chat needs of an open profile: its stores, settings, announcements and
configuration. The Profile (core/profile.py, a layer above) is one; the chat names
only what it uses."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from desktop_mem.core.chat.conversations import ConversationStore
    from desktop_mem.core.config import Config
    from desktop_mem.core.db.database import Database
    from desktop_mem.core.documents.store import DocumentStore
    from desktop_mem.core.events import Events
    from desktop_mem.core.memory.about import AboutStore
    from desktop_mem.core.memory.spaces import SpaceStore
    from desktop_mem.core.memory.store import MemoryStore
    from desktop_mem.core.search.hybrid import HybridSearch
    from desktop_mem.core.settings import Settings


class Stores(Protocol):
    config: Config
    db: Database
    events: Events
    settings: Settings
    memories: MemoryStore
    search: HybridSearch
    conversations: ConversationStore
    documents: DocumentStore
    about: AboutStore
    spaces: SpaceStore
