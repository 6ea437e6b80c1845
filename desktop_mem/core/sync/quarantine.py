"""The files of the sync folder refused for what they are, left alone until they change.

A link, a FIFO, a file over its cap or nested too deep, a header that is not this
profile's, a signature that fails: the same bytes are refused again at every pass, so
reading them again only costs (a 1 GB file, at every pass, in every process). Each such
file is remembered by its place in the folder and its identity (device, inode, size,
modification and change times): while it is the same file it is not opened again; it is
said once (in the pass's `refused`) and counted after (`ignored`). Once it changes (an
engine delivers the real one, someone removes it) it is looked at again. A file cut short
is remembered the same way but not counted: an engine may still be delivering it, and it
is read again as soon as it grows.

Kept in the profile's `meta` (`sync.quarantine`, written by core/sync/passes.py), at most
MAX_ENTRIES places, the oldest forgotten first.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

# places remembered: one forgotten is read once more and refused again, so this bounds
# the profile's record, not what a hostile folder can cost
MAX_ENTRIES = 256
_WHY_CHARS = 300


@dataclass
class Entry:
    identity: tuple[int, ...]
    why: str
    final: bool  # False: cut short, waiting for the engine (not counted as ignored)
    said: bool = True  # False: refused while listing a folder, not said yet


class Quarantine:
    """The places refused, by identity; what one pass left alone and refused."""

    def __init__(self) -> None:
        self._entries: dict[str, Entry] = {}  # oldest first
        self._left: set[str] = set()  # refused before, left alone this pass
        self._refused: set[str] = set()  # refused this pass
        self.changed = False

    @classmethod
    def loads(cls, text: str | None) -> Quarantine:
        q = cls()
        try:
            rows = json.loads(text or "[]")
        except ValueError:
            rows = []
        for row in rows if isinstance(rows, list) else []:
            try:
                place, ident, why, final, said = row
                q._entries[str(place)] = Entry(
                    tuple(int(i) for i in ident), str(why), bool(final), bool(said)
                )
            except (TypeError, ValueError):
                continue
        return q

    def dumps(self) -> str:
        rows = [[p, list(e.identity), e.why, e.final, e.said] for p, e in self._entries.items()]
        return json.dumps(rows[-MAX_ENTRIES:], separators=(",", ":"))

    def look(self, place: str, identity: Sequence[int]) -> Entry | None:
        """The entry for the file at `place` when it is still the file refused before (it
        is left alone); None when the place holds another file now (forgotten)."""
        entry = self._entries.get(place)
        if entry is None:
            return None
        if entry.identity != tuple(identity):
            del self._entries[place]
            self.changed = True
            return None
        if entry.final:
            self._left.add(place)
        return entry

    def add(
        self, place: str, identity: Sequence[int], why: str, final: bool = True, said: bool = True
    ) -> None:
        """Refuse the file at `place` until it changes. `said`: the caller reports it;
        else `unsaid` does (it was found while listing a folder)."""
        self._entries.pop(place, None)
        self._entries[place] = Entry(tuple(identity), why[:_WHY_CHARS], final, said)
        self.changed = True
        if final:
            self._refused.add(place)
        while len(self._entries) > MAX_ENTRIES:
            del self._entries[next(iter(self._entries))]

    def unsaid(self) -> list[tuple[str, str]]:
        """The places refused while listing and not said yet (by this pass, or by an
        earlier operation that had no one to tell), with why: to be said once."""
        out = []
        for place, entry in self._entries.items():
            if entry.final and not entry.said:
                entry.said = True
                self.changed = True
                self._refused.add(place)  # said now: not also counted as left alone
                out.append((place, entry.why))
        return out

    @property
    def ignored(self) -> int:
        """Files this pass left alone because an earlier pass refused them."""
        return len(self._left - self._refused)

    @property
    def refused_now(self) -> int:
        """Files this pass refused for the first time."""
        return len(self._refused)
