"""This computer's copy of the synced records: what it sends (core/sync/capture.py: the
logical clock, the changes made here, the records of each file) and what it takes in
(core/sync/applying.py), as one object for a pass. The records on the wire:
core/sync/wire.py; the rules that merge them: core/sync/merge.py."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from desktop_mem.core.db.connection import Connection
from desktop_mem.core.sync.applying import Applied, Applier
from desktop_mem.core.sync.capture import Capture
from desktop_mem.core.sync.wire import Record


class Replica(Capture):
    """The synced records of one open profile, as this computer (`device`) holds them."""

    def apply(
        self,
        conn: Connection,
        records: Iterable[object],
        screen: Callable[[Record], Record | None] | None = None,
    ) -> Applied:
        """Merge records as another computer's file holds them (`screen`: what a record
        of a computer taken out of the sync becomes). Inside the caller's transaction,
        with recording off."""
        return Applier(self.profile, self.device).apply(conn, records, screen)


__all__ = ["Applied", "Replica"]
