"""An export, opened, and the reader of its format: what a file (a zip, a folder) holds,
its conversations read one at a time by its reader, its memories, and what was skipped
on the way; and what a reader answers (registry.py keeps the readers)."""

from __future__ import annotations

import io
import os
import zipfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from desktop_mem.core.chat.foreign.fields import Malformed, named
from desktop_mem.core.chat.foreign.files import open_regular, said_as_sentence
from desktop_mem.core.chat.foreign.items import (
    ForeignConversation,
    ForeignMemory,
    ForeignSpace,
    about_facts,
    memories_of,
)
from desktop_mem.core.chat.foreign.stream import MAX_SMALL, iter_array, loads, paused_gc
from desktop_mem.core.chat.records import ORIGINS

# reads one element of a file beside the conversations (a project) as a conversation
ReadBeside = Callable[[object, "Export"], ForeignConversation | None]


class Reader:
    """One export format: its name, how it recognises what is its, how it reads it. A
    reader overrides only what its format has (a list of memories has no conversations)."""

    name: str = ""  # the kind of export, and the origin of what is brought from it
    # keys that say an element of a conversations file is one of its conversations
    marks: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()  # values of an element's "format" that say so
    # keys that say a JSON file (by its first element) is one of its files of another
    # kind (a list of memories, projects): `open_file` opens it
    file_marks: tuple[str, ...] = ()
    archive: bool = False  # its exports are a zip (or a folder) of conversations files
    # files that only its exports hold beside their conversations: an export whose
    # conversations files are all empty is the first archive reader's that names one
    telltales: frozenset[str] = frozenset()
    known_files: frozenset[str] = frozenset()  # other files its exports hold

    @property
    def label(self) -> str:
        """How the export is named to the user ("ChatGPT")."""
        return ORIGINS.get(self.name, self.name)

    def claims(self, element: dict[str, object]) -> bool:
        """The element (an object of a conversations file) is one of its conversations."""
        return (bool(self.tags) and element.get("format") in self.tags) or any(
            key in element for key in self.marks
        )

    def conversation(self, item: object, out: Export, n: int) -> ForeignConversation | None:
        """The n-th element of a conversations file read as a conversation; None (and
        `out.skipped` counted) for one it does not recognise. Raises Malformed."""
        out.skipped += 1
        return None

    def open_file(self, path: Path, mark: str) -> Export:
        """A JSON file of its whose first element holds `mark` (one of file_marks)."""
        raise NotImplementedError(f"the {self.name} reader opens no file of its own")

    def takes_memories(self, data: object) -> bool:
        """A list of memories read whole (`data`) is its."""
        return False

    def read_beside(self, export: Export, files: dict[str, str]) -> None:
        """Read what is its among the files beside an archive's conversations (`files`:
        their names, to their paths in the zip or the folder)."""

    def open_text(self, path: Path, head: str) -> Export | None:
        """A file that is not JSON, by its first characters: its export, or None."""
        return None


@dataclass
class Export:
    """What a file (a zip, a folder) holds, and the reader of its format. Reading the
    conversations (a stream) counts what was skipped as unrecognisable, and finds the
    custom instructions; a part that is malformed stops the reading with ImportRejected."""

    path: Path
    reader: Reader
    conversation_files: list[str] = field(default_factory=list)  # '' is the file itself
    # files whose elements are read as conversations after them (Claude's projects.json,
    # in the zip, or '' the file itself), with the reader of one element
    also: list[tuple[str, ReadBeside]] = field(default_factory=list)
    memories: list[ForeignMemory] = field(default_factory=list)
    instructions: str | None = None  # custom instructions' "how to respond"
    about: list[ForeignMemory] = field(default_factory=list)  # their "about me", as facts
    projects: int = 0  # Claude projects read beside the conversations
    # the projects its conversations and memories are in, by their key: each is
    # imported into a space (core/chat/importing.py); filled as the export is read
    spaces: dict[str, ForeignSpace] = field(default_factory=dict)
    skipped: int = 0  # elements not recognisable as a conversation (a newer format?)
    unknown_files: list[str] = field(default_factory=list)
    members: list[str] = field(default_factory=list)  # every file of a zip or a folder
    taken: set[str] = field(default_factory=set)  # those a reader read beside
    folder: bool = False  # conversation_files are paths in the folder `path`
    _custom_when: str | None = None

    @property
    def kind(self) -> str:
        """The name of its reader: 'chatgpt', 'claude', 'mem0', 'openmemory', 'pasted',
        'desktop-mem'."""
        return self.reader.name

    @property
    def label(self) -> str:
        return self.reader.label

    def in_project(self, origin: str, key: str, name: str | None = None) -> str:
        """A project a conversation or a memory says it is in: known from then on (one
        the export names nowhere else is imported all the same, into a space named by
        what is known of it); its key."""
        if key not in self.spaces:
            self.spaces[key] = ForeignSpace(origin, key, name)
        elif name and not self.spaces[key].name:
            self.spaces[key].name = name
        return key

    def custom(self, when: str, about: str, how: str) -> None:
        """Custom instructions found in a conversation: the newest are those in force."""
        if self._custom_when is not None and when < self._custom_when:
            return
        self._custom_when = when
        self.instructions = how or None
        self.about = about_facts(about, self.kind, when or None) if about else []

    def conversations(self) -> Iterator[ForeignConversation]:
        """The conversations, then those of the files beside them; one at a time."""
        self.skipped = 0
        ids: set[str] = set()
        n = 0
        for member in self.conversation_files:
            read = self.reader.conversation
            with self.reading(member) as (fh, name):
                for item in iter_array(fh, name):
                    n += 1
                    with paused_gc():
                        conv = read(item, self, n)
                    if conv is None:
                        continue
                    if not conv.key.startswith("h:"):
                        if conv.key in ids:
                            raise Malformed(f"{named(n, conv.title)} has the id of an earlier one")
                        ids.add(conv.key)
                    yield conv
        for member, read_beside in self.also:
            with self.reading(member) as (fh, name):
                for item in iter_array(fh, name):
                    conv = read_beside(item, self)
                    if conv is not None:
                        yield conv

    def read_memories(self, member: str) -> None:
        """A memories file (memories.json in a zip or a folder): small, read whole."""
        with self.reading(member) as (fh, name):
            text = fh.read(MAX_SMALL + 1)
            if len(text) > MAX_SMALL:
                raise Malformed("it is too large for a list of memories")
            self.memories = memories_of(loads(text, name), self.kind) + self.memories
        for m in self.memories:
            if m.space is not None:
                self.in_project(self.kind, m.space)

    def fingerprint(self) -> str:
        """Changes when a file read changes: an import checked whole is not checked
        again (Importer.run) unless it did."""
        files = [self.path / m for m in self.conversation_files] if self.folder else [self.path]
        try:
            stats = [os.stat(f) for f in files]
        except OSError:  # gone meanwhile: reading it again says so
            return ""
        return ";".join(
            f"{f}:{st.st_size}:{st.st_mtime_ns}" for f, st in zip(files, stats, strict=True)
        )

    def _name(self, member: str) -> str:
        if self.folder:
            return f"{member} in {self.path.name}"
        return f"{member} in {self.path.name}" if member else self.path.name

    @contextmanager
    def reading(self, member: str) -> Iterator[tuple[IO[str], str]]:
        """A file of the export opened as text, and its name for sentences; whatever
        goes wrong while it is read is said as one sentence that names it."""
        name = self._name(member)
        with said_as_sentence(name), self._open(member) as fh:
            yield fh, name

    @contextmanager
    def _open(self, member: str) -> Iterator[IO[str]]:
        if self.folder:
            with open_regular(self.path / member) as fh:
                yield fh
            return
        if not member:
            with open(self.path, encoding="utf-8-sig", errors="strict") as fh:
                yield fh
            return
        with zipfile.ZipFile(self.path) as z, z.open(member) as raw:
            yield io.TextIOWrapper(raw, encoding="utf-8-sig")
