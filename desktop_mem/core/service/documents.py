"""The documents' operations: add files and folders (watched), remove, re-read what
changed, and search the passages. Every change is announced (DocumentsChanged)."""

from __future__ import annotations

import builtins
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from desktop_mem.core.documents.records import AddReport, Document, Folder, PassageHit
from desktop_mem.core.memory.spaces import EVERY, Scope

if TYPE_CHECKING:
    from desktop_mem.core.service import Service

Progress = Callable[[int, int], None]


class Documents:
    def __init__(self, service: Service) -> None:
        self.service = service
        self.store = service.profile.documents

    def add(
        self,
        target: Path,
        progress: Progress | None = None,
        should_stop: Callable[[], bool] | None = None,
        space: int | None = None,
    ) -> AddReport:
        """A file, or every readable file of a folder (then watched), to a space (None:
        the shared space). What was added before stays in its space, in the report's
        `elsewhere`."""
        return self.store.add(target, progress=progress, should_stop=should_stop, space=space)

    def remove(self, doc_id: int) -> int:
        """Remove a document and every trace of its text (a file of a watched folder
        stays out of it until added again). How many passages went."""
        return self.store.remove(doc_id)

    def unwatch(self, folder: str | Path, keep_documents: bool = False) -> int:
        return self.store.unwatch(folder, keep_documents=keep_documents)

    def sync(self, progress: Progress | None = None) -> AddReport:
        """Re-read what changed in the watched folders; drop what is gone."""
        return self.store.sync(progress=progress)

    def list(self, scope: Scope = EVERY) -> builtins.list[Document]:
        """The documents of the scope's spaces (every one by default)."""
        return self.store.list(scope)

    def move(self, doc_id: int, space: int | None) -> Document:
        """Move a document added on its own to a space (None: the shared space); one of
        a watched folder moves with its folder."""
        return self.store.move(doc_id, space)

    def move_folder(self, folder: str, space: int | None) -> int:
        """Move a watched folder, and its documents, to a space. How many moved."""
        return self.store.move_folder(folder, space)

    def get(self, doc_id: int) -> Document:
        return self.store.get(doc_id)

    def folders(self) -> builtins.list[Folder]:
        return self.store.folders()

    def search(self, query: str, k: int = 4, **options: Any) -> builtins.list[PassageHit]:
        return self.store.search(query, k, **options)

    def passages(self, chunk_ids: builtins.list[int]) -> dict[int, PassageHit]:
        return self.store.passages(chunk_ids)

    def answers_using(self, chunk_id: int) -> builtins.list[int]:
        return self.store.answers_using(chunk_id)
