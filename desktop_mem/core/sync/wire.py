"""A synced record as it travels in change files and snapshots: one JSON object a line.

On the wire (the names are short: a snapshot holds every record a computer wrote)::

    {"k": kind, "u": uid, "c": clock, "d": device, "b": body or null,
     "h": [version, ...],     # a memory's head only: the versions its writer made
     "p": [clock, device]}    # a deletion only, when known: the stamp of what it deleted

and a version of a memory's history::

    {"action", "actor", "message", "text", "kind", "importance", "pinned", "valid_from",
     "valid_until", "changed_at", "c": clock, "d": device}

This format is read by every computer in a sync, whatever version of desktop-mem it runs:
`Record.to_wire` writes it exactly so (the same keys, in the same order), and
`from_wire` reads it with every field checked, since the folder is written by anyone
who shares it. Whatever does not fit is refused (None), never half-read.

The rules that merge records are in core/sync/merge.py.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

Stamp = tuple[int, str]
"""A change's stamp: its logical clock, then the id of the computer that made it. A later
change always has a greater stamp (the clock moves past every stamp that arrives)."""

Body = dict[str, Any]
"""A record's fields (JSON: their names are words, their values whatever the kind says)."""

MEMORY = "memory"
CONTEXT = "memctx"
CONVERSATION = "conversation"
MESSAGE = "message"
SETTING = "setting"
SPACE = "space"  # a space (core/memory/spaces.py); memories and conversations name theirs
KINDS = (MEMORY, CONTEXT, CONVERSATION, MESSAGE, SETTING, SPACE)
DELETABLE = (MEMORY, CONVERSATION, MESSAGE, SPACE)  # a record of these kinds can be deleted


def stamp_of(value: object) -> Stamp | None:
    """A stamp as a file or the database holds it ([clock, device], or that as JSON
    text), or None."""
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError:
            return None
    if (
        isinstance(value, list | tuple)
        and len(value) == 2
        and isinstance(value[0], int)
        and isinstance(value[1], str)
    ):
        return int(value[0]), str(value[1])
    return None


def importance_of(value: object) -> float:
    """An importance as a file holds it: a number from 0 to 1 as it is (0 too), anything
    else the default, 0.5."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return 0.5
    level = float(value)
    return level if 0.0 <= level <= 1.0 else 0.5


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None


@dataclass(frozen=True)
class Version:
    """One version of a memory's history, stamped by the computer that made it."""

    action: str
    actor: str
    message: str | None  # the uid of the message it was learned from
    text: str
    kind: str
    importance: float
    pinned: bool
    valid_from: str | None
    valid_until: str | None
    changed_at: str
    clock: int
    device: str

    @property
    def stamp(self) -> Stamp:
        return (self.clock, self.device)

    def to_wire(self) -> dict[str, Any]:
        return {
            "action": self.action,
            "actor": self.actor,
            "message": self.message,
            "text": self.text,
            "kind": self.kind,
            "importance": self.importance,
            "pinned": self.pinned,
            "valid_from": self.valid_from,
            "valid_until": self.valid_until,
            "changed_at": self.changed_at,
            "c": self.clock,
            "d": self.device,
        }  # fmt: skip

    @classmethod
    def from_wire(cls, value: object) -> Version | None:
        """A version as a file holds it; None unless it is an object with a clock. Its
        other fields are taken as their defaults when missing or of the wrong type."""
        if not isinstance(value, dict) or not isinstance(value.get("c"), int):
            return None
        level = importance_of(value.get("importance"))
        return cls(
            action=str(value.get("action") or "edited"),
            actor=str(value.get("actor") or "user"),
            message=_text(value.get("message")),
            text=str(value.get("text") or ""),
            kind=str(value.get("kind") or "fact"),
            importance=level,
            pinned=bool(value.get("pinned")),
            valid_from=_text(value.get("valid_from")),
            valid_until=_text(value.get("valid_until")),
            changed_at=str(value.get("changed_at") or ""),
            clock=int(value["c"]),
            device=str(value.get("d") or ""),
        )


@dataclass(frozen=True)
class Record:
    """One record's state as its writer sent it: a deletion when `body` is None."""

    kind: str
    uid: str
    stamp: Stamp
    body: Body | None
    versions: tuple[Version, ...] = ()  # a memory's head: the versions its writer made
    prev: Stamp | None = None  # a deletion: the stamp of what it deleted, when it says

    @property
    def deletion(self) -> bool:
        return self.body is None

    def to_wire(self) -> dict[str, Any]:
        """The record as a file holds it (the keys in this order: files written by
        older versions are the same bytes)."""
        out: dict[str, Any] = {
            "k": self.kind, "u": self.uid, "c": self.stamp[0], "d": self.stamp[1], "b": self.body,
        }  # fmt: skip
        if self.kind == MEMORY and self.body is not None:
            out["h"] = [v.to_wire() for v in self.versions]
        if self.prev is not None:
            out["p"] = list(self.prev)
        return out


def from_wire(value: object) -> Record | None:
    """A record read from another computer's file, every field checked; None for one that
    is not a record (an unknown kind, a missing id or stamp, a body that is not an object).
    A version in it that is not one is left out; a deletion's "p" that is not a stamp is
    taken as not said."""
    if not isinstance(value, dict):
        return None
    kind, uid, clock, device = value.get("k"), value.get("u"), value.get("c"), value.get("d")
    if kind not in KINDS or not isinstance(uid, str) or not isinstance(clock, int):
        return None
    if not isinstance(device, str):
        return None
    body = value.get("b")
    if body is not None and not isinstance(body, dict):
        return None
    history = value.get("h") if kind == MEMORY and body is not None else None
    versions = tuple(
        v for v in map(Version.from_wire, history if isinstance(history, list) else []) if v
    )
    prev = stamp_of(value.get("p")) if body is None else None
    return Record(str(kind), uid, (int(clock), device), body, versions, prev)


__all__ = [
    "CONTEXT",
    "CONVERSATION",
    "DELETABLE",
    "KINDS",
    "MEMORY",
    "MESSAGE",
    "SETTING",
    "Body",
    "Record",
    "Stamp",
    "Version",
    "from_wire",
    "stamp_of",
]
