"""The readers of exports, registered: each format is a Reader that a module registers
through `register`, the built-in ones exactly as another module would be (the way the
`llm` tool loads its default plugins through the same hook as any plugin). Telling what
a file is asks the readers in the order they were registered; nothing here names a
format.

A module of readers defines `register_readers(register)` and calls `register` once a
reader; `load(module)` runs it. The built-ins, BUILTINS, are loaded the first time the
readers are asked for.
"""

from __future__ import annotations

import importlib
import re
import threading
from collections.abc import Callable
from types import ModuleType
from typing import Any, NamedTuple

from desktop_mem.core.chat.foreign.export import Reader

# the modules of this package that register the built-in readers, in order: a JSON
# element two readers would claim is the first one's
BUILTINS = ("chatgpt", "claude", "own", "mem0", "pasted")


class Claim(NamedTuple):
    """Which reader a JSON element is of, and how it knew: mark None, one of its
    conversations; else the file mark that said it is one of its other files."""

    reader: Reader
    mark: str | None


_lock = threading.RLock()
_readers: list[Reader] = []
_loaded = False


def register(reader: Reader) -> None:
    """Add a reader, after those registered before it (the built-ins first)."""
    with _lock:
        _load_builtins()
        if not reader.name or any(r.name == reader.name for r in _readers):
            raise ValueError(f"a reader needs a name of its own, not {reader.name!r}")
        _readers.append(reader)


def load(module: ModuleType | Any) -> None:
    """Register the readers of a module: its `register_readers(register)`."""
    hook: Callable[[Callable[[Reader], None]], None] = module.register_readers
    hook(register)


def _load_builtins() -> None:
    global _loaded
    with _lock:
        if _loaded:
            return
        _loaded = True
        for name in BUILTINS:
            load(importlib.import_module(f"{__package__}.{name}"))


def readers() -> list[Reader]:
    """Every reader, in the order registered."""
    with _lock:
        _load_builtins()
        return list(_readers)


def reader(name: str) -> Reader:
    """The reader of the export kind `name`."""
    found = next((r for r in readers() if r.name == name), None)
    if found is None:
        raise KeyError(f"no reader of {name!r} exports")
    return found


def claimant(element: object) -> Claim | None:
    """The reader whose element this is: a conversation of one, then a file of another
    kind of one; None when no reader knows it."""
    if not isinstance(element, dict):
        return None
    every = readers()
    for r in every:
        if r.claims(element):
            return Claim(r, None)
    for r in every:
        mark = next((key for key in r.file_marks if key in element), None)
        if mark is not None:
            return Claim(r, mark)
    return None


def guess(head: str) -> Claim | None:
    """The reader a JSON text's first element is of, by the first key in it that says
    (for an element too large to decode only to tell): None when none does, or when
    a format's tag comes before it."""
    every = readers()
    marks: dict[str, Claim] = {}
    for r in every:
        for key in r.marks:
            marks.setdefault(key, Claim(r, None))
    for r in every:
        for key in r.file_marks:
            marks.setdefault(key, Claim(r, key))
    if not marks:
        return None
    found = re.search(r'"(' + "|".join(map(re.escape, marks)) + r')"\s*:', head)
    if found is None:
        return None
    before = head[: found.start()]
    if any(tag in before for r in every for tag in r.tags):
        return None
    return marks[found.group(1)]
