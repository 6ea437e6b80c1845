"""The spaces' operations: make, rename, change and take out a space, move what is in
one, and say what a reader in one sees (core/memory/spaces.py). Every change is
announced by the store that makes it (SpacesChanged, MemoriesChanged,
ConversationsChanged, DocumentsChanged); these methods only compose."""

from __future__ import annotations

import builtins
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from desktop_mem.core.errors import InvalidInput
from desktop_mem.core.memory.spaces import EVERY, Scope, Space, is_shared_name, only, readable

if TYPE_CHECKING:
    from desktop_mem.core.service import Service

Contents = Literal["move", "delete"]


@dataclass(frozen=True)
class Emptied:
    """What taking out a space did with what it held."""

    memories: int = 0
    conversations: int = 0
    documents: int = 0
    folders: int = 0
    moved: bool = True  # to the shared space; False: deleted


class Spaces:
    def __init__(self, service: Service) -> None:
        self.service = service
        self.store = service.profile.spaces

    def list(self) -> builtins.list[Space]:
        return self.store.list()

    def get(self, space_id: int) -> Space:
        return self.store.get(space_id)

    def find(self, name_or_id: str) -> Space:
        """A space by its name (any case) or number, as a person types it."""
        return self.store.find(name_or_id)

    def counts(self) -> dict[int | None, tuple[int, int]]:
        """{space id (None: shared): (memories, conversations)}."""
        return self.store.counts()

    def scope(self, space: int | None) -> Scope:
        """What a reader in this space sees (None: the shared space)."""
        return self.store.scope(space)

    @staticmethod
    def only(space: int | None) -> Scope:
        """The space's own items, without the shared space's (None: the shared space)."""
        return only(space)

    @staticmethod
    def readable(spaces: builtins.set[int | None]) -> Scope:
        """What a reader given these spaces sees (None: the shared space)."""
        return readable(spaces)

    def named(self, name: str | int | None) -> int | None:
        """The space a person or a script names: its name (any case), its number, or
        None or the shared space's name ("shared", 共享, 共享空间) for the shared space."""
        if name is None or (isinstance(name, str) and is_shared_name(name)):
            return None
        if isinstance(name, int):
            return self.store.get(name).id
        return self.store.find(name).id

    @staticmethod
    def every() -> Scope:
        """Every space: the person's own view (the memory browser's "all spaces")."""
        return EVERY

    def create(self, name: str, instruction: str = "", apart: bool = False) -> Space:
        return self.store.create(name, instruction, apart)

    def change(
        self,
        space_id: int,
        *,
        name: str | None = None,
        instruction: str | None = None,
        apart: bool | None = None,
    ) -> Space:
        return self.store.change(space_id, name=name, instruction=instruction, apart=apart)

    def remove(self, space_id: int, contents: Contents) -> Emptied:
        """Take out a space, with what it holds moved to the shared space ("move") or
        deleted ("delete": as any delete, securely, and everywhere the profile syncs)."""
        if contents not in ("move", "delete"):
            raise InvalidInput(
                f"'{contents}' is not a choice: move the space's contents to the shared "
                "space, or delete them.",
                reason="space_contents",
            )
        self.store.get(space_id)
        profile = self.service.profile
        memories = [m.id for m in profile.memories.list(scope=self.only(space_id))]
        conversations = [c.id for c in profile.conversations.list(scope=self.only(space_id))]
        documents, folders = profile.documents.in_space(space_id)
        if contents == "move":
            profile.memories.move(memories, None)
            for cid in conversations:
                profile.conversations.move(cid, None)
            for folder in folders:
                profile.documents.move_folder(folder, None)
            for doc in documents:
                profile.documents.move(doc, None)
            profile.proposals.move_space(space_id, None)
        else:
            profile.memories.delete(memories)
            for cid in conversations:
                profile.conversations.delete(cid, profile.memories)
            for folder in folders:
                profile.documents.unwatch(folder)
            for doc in documents:
                profile.documents.remove(doc)
            profile.proposals.drop_space(space_id)
        self.store.remove(space_id)
        return Emptied(
            len(memories), len(conversations), len(documents), len(folders), contents == "move"
        )
