"""Other assistants' exports, read: ChatGPT's and Claude's data exports (the zip or its
conversations.json), their memories, mem0 / OpenMemory's JSON, this app's own export,
and a pasted list of memories. The file is recognised by what it holds, not by its name.

Each format is a reader registered with the registry (registry.py), the built-in ones
(chatgpt.py, claude.py, own.py, mem0.py, pasted.py) exactly as another would be: adding
a format is adding a module that registers its reader. They share one streaming JSON
reader (stream.py: conversations are read one at a time, so an export of thousands is
never held whole), one guard on zips and unpacked folders (files.py), and one way of
telling what a file is (detect.py).
"""

from __future__ import annotations

from desktop_mem.core.chat.foreign.detect import open_export
from desktop_mem.core.chat.foreign.export import Export, Reader
from desktop_mem.core.chat.foreign.items import ForeignConversation, ForeignMemory, ForeignMessage
from desktop_mem.core.chat.foreign.registry import load, readers, register
from desktop_mem.core.chat.foreign.stream import iter_array

__all__ = [
    "ForeignConversation", "ForeignMemory", "ForeignMessage", "Export", "open_export",
    "iter_array", "Reader", "register", "load", "readers",
]  # fmt: skip
