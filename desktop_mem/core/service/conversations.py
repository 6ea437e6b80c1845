"""The conversations' operations: list and search them, read one with what each answer
was given, rename, pin, choose an answer's version, export, and delete one with the
context it lent to memories. Every change is announced by the store
(ConversationsChanged)."""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from desktop_mem.core.chat.conversations import Conversation, MessageHit
from desktop_mem.core.chat.records import Message
from desktop_mem.core.memory.spaces import EVERY, SHARED, Scope

if TYPE_CHECKING:
    from desktop_mem.core.service import Service


class Conversations:
    def __init__(self, service: Service) -> None:
        self.service = service
        self.store = service.profile.conversations

    # -- reading ----------------------------------------------------------------------

    def list(
        self, limit: int | None = None, offset: int = 0, scope: Scope = EVERY
    ) -> builtins.list[Conversation]:
        """Pinned first, then the most recently active; those of the scope's spaces
        (every one by default: the person's own list)."""
        return self.store.list(limit, offset, scope=scope)

    def get(self, conversation_id: int) -> Conversation:
        return self.store.get(conversation_id)

    def messages(self, conversation_id: int) -> builtins.list[Message]:
        """The conversation as it is shown (the chosen version of each message)."""
        return self.store.messages(conversation_id)

    def message(self, message_id: int) -> Message:
        return self.store.message(message_id)

    def search(
        self, query: str, k: int = 20, relevant_only: bool = True, scope: Scope = SHARED
    ) -> tuple[builtins.list[MessageHit], builtins.list[str]]:
        """Messages about the query, best first, and warnings; those of the scope's
        conversations (the shared space's unless it says otherwise)."""
        return self.store.search(query, k, relevant_only=relevant_only, scope=scope)

    def versions(self, conversation_id: int) -> dict[int, tuple[int, int]]:
        """Each message with other versions: (which one is shown, how many)."""
        return self.store.versions(conversation_id)

    def learned_from(self, message_ids: Sequence[int]) -> dict[int, builtins.list[tuple[str, str]]]:
        """What each user message taught (action, text)."""
        return self.store.learned_from(message_ids)

    def passages_given(self, answer_ids: Sequence[int]) -> dict[int, builtins.list[Any]]:
        """The document passages each answer was given."""
        return self.service.profile.documents.used_by(list(answer_ids))

    def context_lent(self, conversation_id: int) -> int:
        """How many memories quote it (what deleting it also takes from them)."""
        return self.store.context_lent(conversation_id)

    def export(self, conversation_id: int, fmt: str = "md") -> str:
        return self.store.export(conversation_id, fmt)

    def export_to(self, path: Path, conversation_id: int, fmt: str = "md") -> None:
        """Write a conversation to a file only its owner can read (not encrypted)."""
        from desktop_mem.core.memory.export import write_private

        write_private(Path(path), self.store.export(conversation_id, fmt))

    def export_all(self, path: Path, fmt: str = "json") -> int:
        """Write every conversation to one file only its owner can read (not encrypted):
        JSON that `imports` reads back whole, or Markdown. Returns how many."""
        import json

        from desktop_mem.core.memory.export import write_private

        ids = [c.id for c in self.store.list()]
        if fmt == "json":
            text = json.dumps(
                [json.loads(self.store.export(i, "json")) for i in ids],
                ensure_ascii=False,
                indent=1,
            )
        else:
            text = "\n\n---\n\n".join(self.store.export(i, fmt) for i in ids)
        write_private(Path(path), text)
        return len(ids)

    def count_messages(self) -> int:
        return self.service.counts()["messages"]

    # -- changing ---------------------------------------------------------------------

    def rename(self, conversation_id: int, title: str) -> Conversation:
        return self.store.rename(conversation_id, title)

    def pin(self, conversation_id: int, pinned: bool = True) -> Conversation:
        return self.store.set_pinned(conversation_id, pinned)

    def move(self, conversation_id: int, space: int | None) -> Conversation:
        """Move a conversation, with its messages, to a space (None: the shared space);
        the memories learned from it stay where they are."""
        return self.store.move(conversation_id, space)

    def show_version(self, message_id: int, step: int) -> int | None:
        """Show the version `step` away from this message's (‹ 2/3 ›): which it is, or
        None when there is none that way."""
        other = self.store.other_version(message_id, step)
        if other is not None:
            self.store.choose(other)
        return other

    def delete(self, conversation_id: int) -> int:
        """Delete a conversation for good, with the context its messages lent to the
        memories learned from them (the memories stay). How many messages went."""
        return self.store.delete(conversation_id)
