"""Explicit memory commands typed in the chat: "remember that …", "记住…",
"forget …", "忘记…" at the start of a message."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

_REMEMBER = re.compile(
    r"^\s*(?:please\s+|pls\s+)?(?:remember|note|memori[sz]e)(?:\s+that)?[\s:,，]+(?P<what>.+)$"
    r"|^\s*(?:请)?(?:记住|記住|记得|記得|记一下)(?:[:：,，\s]|一下)*(?P<zh>.+)$",
    re.I | re.S,
)
_FORGET = re.compile(
    r"^\s*(?:please\s+)?forget(?:\s+(?:that|about|the\s+fact\s+that))?[\s:,，]+(?P<what>.+)$"
    r"|^\s*(?:请)?(?:忘记|忘掉|忘了|忘記|删除关于|刪除關於)(?:[:：,，\s]|一下)*(?P<zh>.+)$",
    re.I | re.S,
)


@dataclass
class Command:
    kind: Literal["remember", "forget"]
    text: str


def parse_command(message: str) -> Command | None:
    """'remember that ...', '记住…', 'forget ...', '忘记…' at the start of a message."""
    for kind, pattern in (("remember", _REMEMBER), ("forget", _FORGET)):
        m = pattern.match(message)
        if m:
            what = (m.group("what") or m.group("zh") or "").strip().rstrip(".。!！")
            if len(what) >= 2:
                return Command(kind, what)  # type: ignore[arg-type]
    return None
