"""This app's own exports read back: a conversation exported as JSON (one object, or a
list of them), and its memories export, proposed like any other list of memories."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from desktop_mem.core import textproc
from desktop_mem.core.chat.foreign.export import Reader
from desktop_mem.core.chat.foreign.fields import as_dict, as_list, as_text, iso, named
from desktop_mem.core.chat.foreign.items import ForeignConversation, ForeignMessage, key_of

if TYPE_CHECKING:
    from desktop_mem.core.chat.foreign.export import Export

OWN_FORMAT = "desktop-mem/conversation"


def read_own(item: object, out: Export, n: int = 0) -> ForeignConversation | None:
    if not isinstance(item, dict) or item.get("format") != OWN_FORMAT:
        out.skipped += 1
        return None
    head = as_dict(item.get("conversation"), f"conversation {n:,}'s heading")
    title = as_text(head.get("title"), f"conversation {n:,}'s title")
    name = named(n, title)
    conv = ForeignConversation(
        "desktop-mem",
        "",
        textproc.normalize(title),
        iso(head.get("created_at")),
        iso(head.get("updated_at")),
    )
    for m in as_list(item.get("messages"), f"{name}'s messages"):
        if not isinstance(m, dict) or m.get("role") not in ("user", "assistant"):
            continue
        text = as_text(m.get("content"), f"{name}: a message")
        if text.strip():
            created = iso(m.get("created_at")) or conv.created_at
            conv.messages.append(ForeignMessage(m["role"], text, created))
    conv.key = key_of(conv)
    return conv


class Own(Reader):
    name = "desktop-mem"
    tags = (OWN_FORMAT,)

    def conversation(self, item: object, out: Export, n: int) -> ForeignConversation | None:
        return read_own(item, out, n)

    def takes_memories(self, data: object) -> bool:
        return isinstance(data, dict) and str(data.get("format", "")).startswith("desktop-mem/")


def register_readers(register: Callable[[Reader], None]) -> None:
    register(Own())
