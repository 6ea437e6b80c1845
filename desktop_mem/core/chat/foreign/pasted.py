"""A list of memories pasted into a text file, one a line: bullets and headings left
out. A file that is something else (a PDF, a table, a web page) is not taken for one."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from desktop_mem.core.chat.foreign.export import Export, Reader
from desktop_mem.core.chat.foreign.fields import as_text
from desktop_mem.core.chat.foreign.items import ForeignMemory, memory_lines
from desktop_mem.core.chat.foreign.other_files import what_it_is
from desktop_mem.core.errors import ExportRejected

MAX_PASTED = 4 * 1024 * 1024  # a pasted list of memories is small

# what a file that is text at its start may still be, that is not a list
_NOT_PASTED = {"pdf", "picture", "word", "spreadsheet", "web_page", "zip", "binary"}


class Pasted(Reader):
    name = "pasted"

    def open_text(self, path: Path, head: str) -> Export | None:
        first_line = head.lstrip().split("\n", 1)[0].lower()
        if (
            "\x00" in head
            or os.path.getsize(path) > MAX_PASTED
            or first_line.startswith("text,")  # a table of memories: the memory import's
            or what_it_is(path) in _NOT_PASTED  # a PDF or a web page that is text at its start
        ):
            return None
        text = path.read_text(encoding="utf-8-sig")
        memories = [
            ForeignMemory(self.name, line) for line in memory_lines(as_text(text, "its text"))
        ]
        if not memories:
            raise ExportRejected(
                f"{path.name} holds no memories: nothing was imported.", path.name, "no_memories"
            )
        return Export(path, self, memories=memories)


def register_readers(register: Callable[[Reader], None]) -> None:
    register(Pasted())
