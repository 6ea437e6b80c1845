"""What this computer knows of each synced record (`sync_records`: its newest stamp and
body, or its tombstone) and of the links its messages' answers carry (`sync_links`), read
and written inside the caller's transaction. Change capture (core/sync/capture.py) and
applying (core/sync/applying.py) both keep these."""

from __future__ import annotations

import json

from desktop_mem.core.db.connection import Connection
from desktop_mem.core.sync.merge import Deletion, Known
from desktop_mem.core.sync.wire import Body, Stamp, stamp_of


def to_json(body: Body | None) -> str | None:
    return None if body is None else json.dumps(body, ensure_ascii=False, sort_keys=True)


def load(text: str | None) -> Body | None:
    return None if text is None else json.loads(text)


def record(conn: Connection, kind: str, uid: str) -> Known | None:
    row = conn.execute(
        "SELECT clock, device, body FROM sync_records WHERE kind = ? AND uid = ?", (kind, uid)
    ).fetchone()
    if row is None:
        return None
    return Known((int(row[0]), str(row[1])), load(row[2]))


def gone(conn: Connection, kind: str, uid: str) -> bool:
    """Whether a record is deleted (its tombstone is here)."""
    known = record(conn, kind, uid)
    return known is not None and known.deleted


def store(
    conn: Connection,
    kind: str,
    uid: str,
    stamp: Stamp,
    body: Body | None,
    seq: int | None,
    parent: str | None = None,
    waiting: bool = False,
    prev: Stamp | None = None,
) -> None:
    """`prev`, for a deletion: the stamp of what it deleted (whoever holds an edit newer
    than that, the deleter had not seen)."""
    conn.execute(
        "INSERT OR REPLACE INTO sync_records(kind, uid, clock, device, body, seq, parent, "
        "waiting, prev) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (kind, uid, stamp[0], stamp[1], to_json(body), seq, parent, int(waiting),
         None if prev is None else json.dumps(list(prev))),
    )  # fmt: skip


def deletion(conn: Connection, kind: str, uid: str) -> Deletion | None:
    """A deletion known here: its stamp, and that of what it deleted."""
    row = conn.execute(
        "SELECT clock, device, prev FROM sync_records WHERE kind = ? AND uid = ? AND body IS NULL",
        (kind, uid),
    ).fetchone()
    return None if row is None else Deletion((int(row[0]), str(row[1])), stamp_of(row[2]))


def drop_children(conn: Connection, conversation: str) -> None:
    """A conversation's messages: its tombstone says they are gone."""
    conn.execute("DELETE FROM sync_links WHERE message IN (SELECT uid FROM sync_records "
                 "WHERE kind = 'message' AND parent = ?)", (conversation,))  # fmt: skip
    conn.execute("DELETE FROM sync_records WHERE kind = 'message' AND parent = ?", (conversation,))


def put_links(conn: Connection, uid: str, body: Body) -> None:
    """What a message's answer was given (memories, earlier messages), by stable id."""
    if body.get("used"):
        conn.executemany(
            "INSERT OR REPLACE INTO sync_links(message, target, kind, rank, score, why, weak) "
            "VALUES (?, ?, 'used', ?, ?, ?, ?)",
            [(uid, t, r, s, w, int(k)) for t, r, s, w, k in body.get("used", [])],
        )
    if body.get("recalled"):
        conn.executemany(
            "INSERT OR REPLACE INTO sync_links(message, target, kind, rank, score, why, weak) "
            "VALUES (?, ?, 'recalled', ?, ?, 'found', ?)",
            [(uid, t, r, s, int(k)) for t, r, s, k in body.get("recalled", [])],
        )


def id_of(conn: Connection, table: str, uid: object) -> int | None:
    """The row id here of a record's stable id (None: not here, or not an id)."""
    if not isinstance(uid, str):
        return None
    row = conn.execute(f"SELECT id FROM {table} WHERE uid = ?", (uid,)).fetchone()
    return int(row[0]) if row else None


def uid_of(conn: Connection, table: str, rowid: int | None) -> str | None:
    if rowid is None:
        return None
    row = conn.execute(f"SELECT uid FROM {table} WHERE id = ?", (rowid,)).fetchone()
    return row[0] if row else None
