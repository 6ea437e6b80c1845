"""Explicit memory commands typed in the chat: "remember that …", "记住…",
"forget …", "忘记…" at the start of a message."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

_REMEMBER = re.compile(
    r"^\s*(?:please\s+|pls\s+)?(?P<always>always\s+|never\s+forget\s+)?"
    r"(?:(?:remember|note|memori[sz]e)(?:\s+that)?|(?<=forget\s)(?:that)?)[\s:,，]+(?P<what>.+)$"
    r"|^\s*(?:请)?(?P<zh_always>永远|一定要|务必|始终|一直)?"
    r"(?:记住|記住|记得|記得|记一下)(?:[:：,，\s]|一下)*(?P<zh>.+)$",
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
    always: bool = False  # "always remember …", "永远记住…": given on every turn


def parse_command(message: str) -> Command | None:
    """'remember that ...', '记住…', 'forget ...', '忘记…' at the start of a message;
    'always remember ...', 'never forget ...', '永远记住…' ask for a memory given on every
    turn."""
    for kind, pattern in (("remember", _REMEMBER), ("forget", _FORGET)):
        m = pattern.match(message)
        if m:
            what = (m.group("what") or m.group("zh") or "").strip().rstrip(".。!！")
            always = kind == "remember" and bool(m.group("always") or m.group("zh_always"))
            if len(what) >= 2:
                return Command(kind, what, always)  # type: ignore[arg-type]
    return None
