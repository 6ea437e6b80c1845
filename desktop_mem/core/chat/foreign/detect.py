"""Which export a file is, recognised by what it holds, not by its name: a zip or a
folder of conversations files (its first conversation says whose), a JSON file (its
first element says), or text. The readers are asked in the order registered; a file no
reader claims is refused with one sentence that says what it is."""

from __future__ import annotations

import io
import json
import os
import zipfile
from pathlib import Path
from typing import IO, Literal, cast

from desktop_mem.core.chat.foreign import registry
from desktop_mem.core.chat.foreign.export import Export, Reader
from desktop_mem.core.chat.foreign.fields import Malformed
from desktop_mem.core.chat.foreign.files import (
    CONVERSATIONS,
    conversation_files,
    regular_files,
    safe_members,
    said_as_sentence,
)
from desktop_mem.core.chat.foreign.items import memories_of
from desktop_mem.core.chat.foreign.other_files import not_an_export
from desktop_mem.core.chat.foreign.stream import (
    CHUNK,
    MAX_SMALL,
    iter_array,
    loads,
    skip,
    unreadable,
)
from desktop_mem.core.errors import ExportRejected, InvalidInput

EMPTY: Literal["empty"] = "empty"  # a conversations file with no conversations in it


def open_export(path: Path) -> Export:
    """Recognise the file (a zip, a folder) by what it holds; raises ImportRejected (one
    sentence) for a file that is none of the exports read here or cannot be read,
    InvalidInput when it is not there. One of ChatGPT's numbered conversation files
    (conversations-001.json) stands for its folder: every one of them is read."""
    path = Path(path)
    if path.is_dir():
        return _open_folder(path)
    if not path.is_file():
        raise InvalidInput(
            f"There is no file {path}: check the name."
            if not path.exists()
            else f"{path} is not a file."
        )
    numbered = CONVERSATIONS.fullmatch(path.name)
    if numbered and (numbered.group(1) is not None or _beside_its_export(path)):
        return _open_folder(path.parent)
    with said_as_sentence(path.name):
        try:
            if zipfile.is_zipfile(path):
                return _open_zip(path)
            return _open_file(path)
        except UnicodeDecodeError:
            with open(path, "rb") as fh:
                json_like = fh.read(64).lstrip(b"\xef\xbb\xbf \t\r\n")[:1] in (b"[", b"{")
            if json_like:  # a JSON file with a byte that is not UTF-8 somewhere in it
                raise unreadable(path.name, "it is not UTF-8 text") from None
            raise not_an_export(path) from None


# -- a zip or a folder of conversations files ------------------------------------------------


def _open_zip(path: Path) -> Export:
    with zipfile.ZipFile(path) as z:
        names = safe_members(path, z)
    return _assemble(path, names, folder=False)


def _open_folder(path: Path) -> Export:
    """An unpacked export: its files (never through a link), or those of its one
    folder when the export was unpacked into a folder of its own."""
    with said_as_sentence(path.name):
        names = regular_files(path)
        if not conversation_files(names):
            inner = [e for e in os.scandir(path) if e.is_dir(follow_symlinks=False)]
            if len(inner) == 1:
                names = [f"{inner[0].name}/{n}" for n in regular_files(Path(inner[0].path))]
        if not conversation_files(names):
            raise ExportRejected(
                f"{path.name} holds no conversations.json (nor conversations-000.json…): "
                "choose the folder you unpacked the export into, or the export's zip.",
                path.name, "no_conversations",
            )  # fmt: skip
        return _assemble(path, names + _project_files(path, names), folder=True)


def _project_files(path: Path, names: list[str]) -> list[str]:
    """The files of the folder projects/ beside the conversations (Claude's newer
    exports keep a project a file there), never through a link."""
    top = names[0].rsplit("/", 1)[0] + "/" if "/" in names[0] else ""
    for entry in os.scandir(path / top if top else path):
        if entry.name == "projects" and entry.is_dir(follow_symlinks=False):
            return [f"{top}projects/{n}" for n in regular_files(Path(entry.path))]
    return []


def _assemble(path: Path, names: list[str], folder: bool) -> Export:
    base = {n.replace("\\", "/").rsplit("/", 1)[-1]: n for n in names if "__MACOSX/" not in n}
    export = Export(path, Reader(), conversation_files(names), folder=folder)
    reader = _archive_reader(export, set(base))
    if reader is None:
        raise not_an_export(path)
    export.reader = reader
    export.members = [n for n in names if "__MACOSX/" not in n]
    readers = registry.readers()
    for r in readers:
        r.read_beside(export, base)
    known = set().union(*(r.known_files for r in readers))
    export.unknown_files = [
        n for b, n in base.items()
        if b.endswith(".json") and b not in known and not CONVERSATIONS.fullmatch(b)
        and n not in export.taken
    ]  # fmt: skip
    return export


def _archive_reader(export: Export, seen: set[str]) -> Reader | None:
    """The reader of an export with conversation files: the first file that says;
    when all are empty, the first archive reader whose telltale files are there, else
    the first archive reader."""
    for member in export.conversation_files:
        with export.reading(member) as (fh, name):
            found = _first_element(fh, name)
        if found == EMPTY:
            continue
        if isinstance(found, registry.Claim) and found.mark is None and found.reader.archive:
            return found.reader
        return None
    archives = [r for r in registry.readers() if r.archive]
    if export.conversation_files and archives:
        return next((r for r in archives if r.telltales & seen), archives[0])
    return None


def _beside_its_export(path: Path) -> bool:
    """conversations.json chosen in the folder an export was unpacked into: the rest of
    the export (its memories, its projects, more conversation files) is read with it."""
    try:
        names = {n.lower() for n in regular_files(path.parent)}
    except OSError:
        return False
    return bool(names & {"memories.json", "projects.json", "users.json", "user.json"}) or any(
        CONVERSATIONS.fullmatch(n) and n != "conversations.json" for n in names
    )


# -- a file on its own ---------------------------------------------------------------------


def _open_file(path: Path) -> Export:
    with open(path, encoding="utf-8-sig") as fh:
        head = fh.read(4096)
    if head.lstrip()[:1] in ("[", "{"):
        with open(path, encoding="utf-8-sig") as fh:
            found = _first_element(fh, path.name)
        if not isinstance(found, registry.Claim):
            raise not_an_export(path)
        if found.mark is None:  # a file of conversations
            return Export(path, found.reader, [""])
        return found.reader.open_file(path, found.mark)
    for reader in registry.readers():
        export = reader.open_text(path, head)
        if export is not None:
            return export
    raise not_an_export(path)


def _first_element(fh: IO[str], name: str) -> registry.Claim | Literal["empty"] | None:
    """Which reader a JSON file's first element says it is of, EMPTY for an empty
    list, None when no reader claims it. A first conversation larger than what is read
    at a time (100,000 messages) is known by its first key that says, rather than
    decoded whole once more."""
    head = fh.read(CHUNK)
    more = len(head) == CHUNK
    start = skip(head, 0)
    if more and head[start : start + 1] == "[":
        try:
            item, _ = json.JSONDecoder().raw_decode(head, skip(head, start + 1))
            return registry.claimant(item)
        except (json.JSONDecodeError, RecursionError):
            guessed = registry.guess(head)
            if guessed is not None:
                return guessed
    rest = io.StringIO(head) if not more else cast(IO[str], _Rest(head, fh))
    for item in iter_array(rest, name):
        return registry.claimant(item)
    return EMPTY


class _Rest(io.TextIOBase):
    """What was read of a stream, then the rest of it."""

    def __init__(self, head: str, fh: IO[str]) -> None:
        self.head, self.fh = head, fh

    def read(self, size: int | None = -1) -> str:
        if self.head:
            out, self.head = self.head, ""
            return out
        return self.fh.read(-1 if size is None else size)


def memories_file(path: Path, claimant: Reader) -> Export:
    """A file that is a list of memories, read whole: whose it is, the first reader
    that takes it says (else the reader whose mark it holds)."""
    if os.path.getsize(path) > MAX_SMALL:
        raise Malformed("it is too large for a list of memories")
    data = loads(path.read_text(encoding="utf-8-sig"), path.name)
    reader = next((r for r in registry.readers() if r.takes_memories(data)), claimant)
    export = Export(path, reader)
    export.memories = memories_of(data, reader.name)
    for m in export.memories:
        if m.space is not None:
            export.in_project(reader.name, m.space)
    return export
