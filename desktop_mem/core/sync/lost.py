"""What a merge dropped, kept for the user: a deletion wins over an edit made elsewhere
(so that what was deleted, "forget …" included, is gone from every computer), but the
edit's text is not dropped without a word. Five ways:

- an edit made here to a memory another computer deleted without having seen it;
- an edit made on another computer to a memory deleted here without having seen it;
- messages written here in a conversation another computer deleted;
- messages written on another computer in a conversation deleted here;
- a memory or an edit written on a computer after it was taken out of the sync, which
  reached this one before the removal did and was undone.

Each is kept with its text in the profile's database (encrypted, like the rest), for
the user to copy or keep as a new memory, until they dismiss it: then it is purged
(secure_delete zeroes the freed bytes; the caller checkpoints), as "Forget everything"
purges them all."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from desktop_mem.core.db.connection import Connection
from desktop_mem.core.db.database import Database
from desktop_mem.core.jsontypes import JSONObject

MEMORY_HERE = "memory_here"  # edited here, deleted on `device`
MEMORY_THERE = "memory_there"  # edited on `device`, deleted here
MESSAGE_HERE = "message_here"  # written here, its conversation deleted on `device`
MESSAGE_THERE = "message_there"  # written on `device`, its conversation deleted here
# written on `device` after it was taken out of the sync, taken in here before the
# removal reached this computer, and undone (core/sync/lawful.py): a memory or an edit
REMOVED = "memory_removed"
KINDS = (MEMORY_HERE, MEMORY_THERE, MESSAGE_HERE, MESSAGE_THERE, REMOVED)


@dataclass(frozen=True)
class Lost:
    """One change a merge dropped."""

    id: int
    kind: str
    device: str  # the other computer: the one that deleted, or the one that wrote
    text: str
    memory_kind: str | None  # a memory's kind ("fact", "preference", …)
    role: str | None  # a message's role ("user", "assistant")
    at: str  # when the merge dropped it

    def to_dict(self, names: dict[str, str] | None = None) -> JSONObject:
        return {
            "id": self.id, "kind": self.kind, "device": self.device,
            "computer": (names or {}).get(self.device) or self.device[:8], "text": self.text,
            "memory_kind": self.memory_kind, "role": self.role, "at": self.at,
        }  # fmt: skip


def record(
    conn: Connection,
    kind: str,
    uid: str,
    device: str,
    text: str,
    memory_kind: str | None = None,
    role: str | None = None,
) -> bool:
    """Keep a dropped change (inside the merge's transaction); once per record and way
    (a file delivered twice does not say it twice). Whether it was new."""
    if (
        not text
        or conn.execute(
            "SELECT 1 FROM sync_lost WHERE kind = ? AND uid = ?", (kind, uid)
        ).fetchone()
    ):
        return False
    conn.execute(
        "INSERT INTO sync_lost(kind, uid, device, text, memory_kind, role, at) "
        "VALUES (?, ?, ?, ?, ?, ?, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))",
        (kind, uid, device, text, memory_kind, role),
    )
    return True


def any_undone(conn: Connection) -> bool:
    """Whether a memory of a removed computer's is kept here as undone."""
    return (
        conn.execute("SELECT 1 FROM sync_lost WHERE kind = ? LIMIT 1", (REMOVED,)).fetchone()
        is not None
    )


def restored(conn: Connection, uid: str, texts: Iterable[str]) -> int:
    """A removed computer's memory that a sweep undid came back (the files of the computer
    that carries it arrived after the sweep): its text is no longer lost. How many."""
    wanted = {t for t in texts if t}
    gone = [
        int(r[0])
        for r in conn.execute(
            "SELECT id, text FROM sync_lost WHERE kind = ? AND (uid = ? OR uid LIKE ?)",
            (REMOVED, uid, uid + ":%"),
        ).fetchall()
        if r[1] in wanted
    ]
    if gone:
        conn.execute(f"DELETE FROM sync_lost WHERE id IN ({','.join('?' * len(gone))})", gone)
    return len(gone)


def listed(db: Database) -> list[Lost]:
    """Every dropped change not dismissed yet, the newest first."""
    return [
        Lost(int(r[0]), str(r[1]), str(r[2]), str(r[3]), r[4], r[5], str(r[6]))
        for r in db.query(
            "SELECT id, kind, device, text, memory_kind, role, at FROM sync_lost "
            "ORDER BY at DESC, id DESC"
        )
    ]


def groups(items: Iterable[Lost]) -> list[tuple[str, str, int]]:
    """(way, computer, how many): "2 edits made here were to memories deleted on
    desktop" is one."""
    counted: dict[tuple[str, str], int] = {}
    for item in items:
        counted[(item.kind, item.device)] = counted.get((item.kind, item.device), 0) + 1
    return [(kind, device, n) for (kind, device), n in counted.items()]


def purge(conn: Connection, ids: Sequence[int] | None) -> int:
    """Dismissed: gone (every one with None). Inside the caller's transaction; the
    caller checkpoints, so the freed pages, zeroed by secure_delete, reach the file."""
    if ids is None:
        return int(conn.execute("DELETE FROM sync_lost").rowcount)
    wanted = sorted({int(i) for i in ids})
    if not wanted:
        return 0
    marks = ",".join("?" * len(wanted))
    return int(conn.execute(f"DELETE FROM sync_lost WHERE id IN ({marks})", wanted).rowcount)
