"""What a document, a passage found in one, a watched folder and the report of adding
files look like (the store is store.py)."""

from __future__ import annotations

import builtins
from dataclasses import asdict, dataclass, field

from desktop_mem.core.errors import DesktopMemError
from desktop_mem.core.jsontypes import JSONObject


@dataclass(frozen=True)
class Document:
    id: int
    path: str
    title: str
    kind: str
    bytes: int
    pages: int | None
    folder: str | None
    added_at: str
    indexed_at: str
    passages: int = 0
    space: int | None = None  # its space (core/memory/spaces.py); None: the shared space

    def to_dict(self) -> JSONObject:
        return asdict(self)


@dataclass(frozen=True)
class PassageHit:
    chunk_id: int
    document_id: int
    title: str
    path: str
    page: int | None
    heading: str
    text: str
    score: float
    relevance: float | None = None
    weak: bool = False  # given to an answer as a weaker match

    def where(self) -> str:
        """'handbook.pdf, p. 12' / 'notes.md, Setup › Keys'."""
        place = f"p. {self.page}" if self.page else self.heading
        return f"{self.title}, {place}" if place else self.title

    def to_dict(self) -> JSONObject:
        return {**asdict(self), "where": self.where()}


@dataclass(frozen=True)
class Elsewhere:
    """Something named to be added to one space that stays in another: a file or folder
    added before (`document` its id, for a file), or a file of a watched folder
    (`folder`), which is in its folder's space."""

    path: str
    space: int | None  # where it stays (None: the shared space)
    document: int | None = None
    folder: str | None = None

    def to_dict(self) -> JSONObject:
        return asdict(self)


@dataclass
class AddReport:
    added: builtins.list[str] = field(default_factory=list)
    updated: builtins.list[str] = field(default_factory=list)
    unchanged: builtins.list[str] = field(default_factory=list)
    removed: builtins.list[str] = field(default_factory=list)
    refused: builtins.list[str] = field(default_factory=list)  # one sentence each
    left_out: builtins.list[str] = field(default_factory=list)  # removed for good by the user
    # watched folders (or a lone file's folder) that could not be read: an unmounted
    # drive, a folder made unreadable or swapped for a link; their documents are kept
    unavailable: builtins.list[str] = field(default_factory=list)
    # named to go to one space, kept in the one it was already in: said, never moved
    elsewhere: builtins.list[Elsewhere] = field(default_factory=list)
    passages: int = 0
    pages: int = 0
    unindexed: int = 0  # passages stored without a vector (no embedding model to use)
    stopped: DesktopMemError | None = None  # what stopped the pass (a full disk): said once

    def stays(self, elsewhere: Elsewhere) -> None:
        """Something named stays in another space: said once, however often named."""
        if all(e.path != elsewhere.path for e in self.elsewhere):
            self.elsewhere.append(elsewhere)

    def extend(self, other: AddReport) -> None:
        for name in ("added", "updated", "unchanged", "removed", "refused", "left_out"):
            getattr(self, name).extend(getattr(other, name))
        self.unavailable.extend(other.unavailable)
        for e in other.elsewhere:
            self.stays(e)
        self.passages += other.passages
        self.pages += other.pages
        self.unindexed += other.unindexed
        self.stopped = self.stopped or other.stopped


@dataclass(frozen=True)
class Folder:
    """A watched folder: re-read for new, changed and removed files."""

    path: str
    added_at: str
    documents: int
    left_out: int  # files in it the user removed for good
    space: int | None = None  # its space (core/memory/spaces.py); None: the shared space

    def to_dict(self) -> JSONObject:
        return asdict(self)
