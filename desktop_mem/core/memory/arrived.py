"""Memories written as another computer has them: the store's writes for sync.

Sync decides what stands (core/sync/merge.py: the newest stamp wins, a deletion wins
over everything, concurrent versions are kept); the rows are written here, by the store
that owns them, inside the pass's transaction, and announced once it commits. The sync
stamps kept on each version (which computer made it, with which logical clock, filed in
which of its change files) are written here too: nothing outside the store writes the
memories or their history.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from desktop_mem.core import textproc
from desktop_mem.core.memory.care import care_of
from desktop_mem.core.models.embed import content_hash

if TYPE_CHECKING:
    from desktop_mem.core.db.connection import Connection
    from desktop_mem.core.db.database import Database
    from desktop_mem.core.events import Events


@dataclass(frozen=True)
class ArrivedMemory:
    """A memory's current fields as another computer sent them."""

    text: str
    kind: str
    importance: float
    pinned: bool
    source: str
    source_message_id: int | None
    created_at: str
    updated_at: str
    valid_from: str | None
    valid_until: str | None
    care_choice: int | None  # the person said: always given (1), never (0), or not said
    origin: str | None  # the computer it was learned on (None: this one)
    context: str | None = None  # what was being said when it was learned (a new row's)
    space: int | None = None  # its space here (None: the shared space)


@dataclass(frozen=True)
class ArrivedVersion:
    """One version of a memory's history, as the computer that made it stamped it."""

    action: str
    actor: str
    message_id: int | None
    text: str
    kind: str
    importance: float
    pinned: bool
    valid_from: str | None
    valid_until: str | None
    changed_at: str
    clock: int
    device: str


class ArrivedRows:
    """The sync half of MemoryStore (which provides db, events and the indexing)."""

    db: Database
    events: Events

    if TYPE_CHECKING:  # the indexing half's (core/memory/indexing.py)

        def _index_text(
            self, conn: Connection, mid: int, text: str, context: str | None, replace: bool
        ) -> None: ...

        def _reindex_text(
            self, conn: Connection, memory_id: int, text: str, context: str | None, vecs: Any
        ) -> None: ...

        def _sync_cache(self) -> None: ...

    # -- announced after the caller's commit --------------------------------------------

    def _arrived(self, ids: tuple[int, ...]) -> None:
        self._sync_cache()  # rows came: the vector index's cache is sized again
        self.events.memories("added", ids)

    def _changed_by_sync(self, ids: tuple[int, ...]) -> None:
        self.events.memories("changed", ids)

    # -- rows ----------------------------------------------------------------------------

    def put_arrived(self, conn: Connection, uid: str, m: ArrivedMemory) -> tuple[int, bool]:
        """Write a memory as another computer has it: a new row (indexed by its words;
        its vector comes from this computer's own model later), or its fields replaced.
        Its id, and whether it is new."""
        row = conn.execute(
            "SELECT id, text, context FROM memories WHERE uid = ?", (uid,)
        ).fetchone()
        always = None if m.care_choice is None else bool(m.care_choice)
        fields = (
            m.text, m.kind, m.importance, int(m.pinned), m.source, m.source_message_id,
            m.created_at, m.updated_at, m.valid_from, m.valid_until,
            content_hash(textproc.normalize(m.text).lower()), care_of(m.text, always),
            m.care_choice, m.origin, m.space,
        )  # fmt: skip
        if row is None:
            cur = conn.execute(
                "INSERT INTO memories(text, kind, importance, pinned, source, source_message_id, "
                "created_at, updated_at, valid_from, valid_until, content_hash, care, care_choice, "
                "origin, space_id, uid, context) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (*fields, uid, m.context),
            )
            mid = int(cur.lastrowid)
            self._index_text(conn, mid, m.text, m.context, replace=False)
            self.db.after_commit(self._arrived, [mid])
            return mid, True
        mid = int(row[0])
        conn.execute(
            "UPDATE memories SET text = ?, kind = ?, importance = ?, pinned = ?, source = ?, "
            "source_message_id = coalesce(?, source_message_id), created_at = ?, updated_at = ?, "
            "valid_from = ?, valid_until = ?, content_hash = ?, care = ?, care_choice = ?, "
            "origin = ?, space_id = ? WHERE id = ?",
            (*fields, mid),
        )
        if row[1] != m.text:
            self._reindex_text(conn, mid, m.text, row[2], None)
        self.db.after_commit(self._changed_by_sync, [mid])
        return mid, False

    def put_arrived_context(self, conn: Connection, uid: str, context: str | None) -> int | None:
        """A memory's context as another computer has it; its id if it changed."""
        row = conn.execute(
            "SELECT id, text, context FROM memories WHERE uid = ?", (uid,)
        ).fetchone()
        if row is None or row[2] == context:
            return None
        conn.execute("UPDATE memories SET context = ? WHERE id = ?", (context, row[0]))
        self._reindex_text(conn, int(row[0]), row[1], context, None)
        self.db.after_commit(self._changed_by_sync, [int(row[0])])
        return int(row[0])

    def point_sources(self, conn: Connection, pairs: Iterable[tuple[int, int]]) -> None:
        """Memories learned from messages that arrived after them point at them now:
        (memory id, message id) pairs; a memory that already points somewhere stays."""
        conn.executemany(
            "UPDATE memories SET source_message_id = ? WHERE id = ? AND source_message_id IS NULL",
            [(message, memory) for memory, message in pairs],
        )

    # -- history -------------------------------------------------------------------------

    def add_arrived_versions(
        self, conn: Connection, mid: int, versions: Sequence[ArrivedVersion]
    ) -> None:
        """Add versions another computer made to a memory's history, then number every
        version in stamp order (every computer numbers them the same way)."""
        if not versions:
            return
        conn.executemany(
            "INSERT INTO memory_history(memory_id, version, action, actor, message_id, text, "
            "kind, importance, pinned, valid_from, valid_until, changed_at, sync_clock, "
            "sync_device) VALUES (?, (SELECT coalesce(max(version), 0) + 1 FROM memory_history "
            "WHERE memory_id = ?), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    mid,
                    mid,
                    v.action,
                    v.actor,
                    v.message_id,
                    v.text,
                    v.kind,
                    v.importance,
                    int(v.pinned),
                    v.valid_from,
                    v.valid_until,
                    v.changed_at,
                    v.clock,
                    v.device,
                )  # fmt: skip
                for v in versions
            ],
        )
        rows = conn.execute(
            "SELECT id FROM memory_history WHERE memory_id = ? ORDER BY "
            "sync_clock IS NULL, sync_clock, sync_device, version",
            (mid,),
        ).fetchall()
        conn.execute("UPDATE memory_history SET version = -version WHERE memory_id = ?", (mid,))
        conn.executemany(
            "UPDATE memory_history SET version = ? WHERE id = ?",
            [(n, hid) for n, (hid,) in enumerate(rows, 1)],
        )
        self.db.after_commit(self._changed_by_sync, [mid])

    def stamp_version(
        self, conn: Connection, version_id: int, clock: int, device: str, seq: int
    ) -> None:
        """A version made here gets its sync stamp as it is sent."""
        conn.execute(
            "UPDATE memory_history SET sync_clock = ?, sync_device = ?, sync_seq = ? WHERE id = ?",
            (clock, device, seq, version_id),
        )

    def restamp_versions(self, conn: Connection, old: str, device: str, seq: int) -> int:
        """Versions stamped by `old` are `device`'s (its clock kept), filed under `seq`."""
        return int(
            conn.execute(
                "UPDATE memory_history SET sync_device = ?, sync_seq = ? WHERE sync_device = ?",
                (device, seq, old),
            ).rowcount
        )

    def refile_versions(self, conn: Connection, devices: Sequence[str], seq: int) -> int:
        """Versions stamped by `devices` go out again, filed under `seq`."""
        if not devices:
            return 0
        marks = ",".join("?" * len(devices))
        return int(
            conn.execute(
                f"UPDATE memory_history SET sync_seq = ? WHERE sync_device IN ({marks})",
                (seq, *devices),
            ).rowcount
        )

    def drop_versions(self, conn: Connection, ids: Sequence[int]) -> None:
        """Versions that do not stand, dropped from their memories' histories (a computer
        taken out of the sync made them after its removal: core/sync/lawful.py)."""
        memories: set[int] = set()
        for start in range(0, len(ids), 500):
            chunk = list(ids[start : start + 500])
            marks = ",".join("?" * len(chunk))
            memories |= {
                int(r[0])
                for r in conn.execute(
                    f"SELECT DISTINCT memory_id FROM memory_history WHERE id IN ({marks})", chunk
                ).fetchall()
            }
            conn.execute(f"DELETE FROM memory_history WHERE id IN ({marks})", chunk)
        if memories:
            self.db.after_commit(self._changed_by_sync, sorted(memories))

    def unstamp_versions(self, conn: Connection) -> None:
        """Sync is turned off: no version keeps a stamp."""
        conn.execute(
            "UPDATE memory_history SET sync_clock = NULL, sync_device = NULL, sync_seq = NULL"
        )
