"""mem0's and OpenMemory's memory exports: JSON read whole, mem0's `results` of
`memory`, OpenMemory's `memories` of `content` (deleted and archived ones left out)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from desktop_mem.core.chat.foreign.detect import memories_file
from desktop_mem.core.chat.foreign.export import Export, Reader


class Mem0(Reader):
    name = "mem0"
    file_marks = ("results",)

    def open_file(self, path: Path, mark: str) -> Export:
        return memories_file(path, self)

    def takes_memories(self, data: object) -> bool:
        return isinstance(data, dict) and "results" in data


class OpenMemory(Reader):
    """The plainest list of memories: `memories` in an object, or the list itself."""

    name = "openmemory"
    file_marks = ("memories",)

    def open_file(self, path: Path, mark: str) -> Export:
        return memories_file(path, self)

    def takes_memories(self, data: object) -> bool:
        return isinstance(data, list) or (isinstance(data, dict) and "memories" in data)


def register_readers(register: Callable[[Reader], None]) -> None:
    register(Mem0())
    register(OpenMemory())
