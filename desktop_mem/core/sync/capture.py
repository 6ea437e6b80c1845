"""What this computer sends: its logical clock, the changes made here (found by triggers
in `sync_dirty`, whatever wrote them: the window, the command line or an app) stamped
when they are exported, and the records of each file it writes.

Every change gets a stamp (the clock, then this computer's id) when it is exported; the
clock moves past every stamp that arrives (`witness`), so a later change always has a
greater stamp whatever the wall clocks say. Each change is sent as the record's state
when it is sent. (How records merge: core/sync/merge.py.)"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING

from desktop_mem.core.db.connection import Connection
from desktop_mem.core.db.database import id_chunks
from desktop_mem.core.db.migrations import SYNCED_SETTINGS
from desktop_mem.core.sync import known as records
from desktop_mem.core.sync.merge import SPACE_FIELDS
from desktop_mem.core.sync.wire import (
    CONTEXT,
    CONVERSATION,
    MEMORY,
    MESSAGE,
    SETTING,
    SPACE,
    Body,
    Record,
    Stamp,
    Version,
    stamp_of,
)

if TYPE_CHECKING:
    from desktop_mem.core.profile import Profile

_MEMORY_COLUMNS = (
    "id, uid, text, kind, importance, pinned, source, source_message_id, created_at, "
    "updated_at, valid_from, valid_until, context, care_choice, origin, space_id"
)
_MESSAGE_COLUMNS = (
    "id, uid, conversation_id, role, content, status, model, created_at, prompt_tokens, "
    "error, parent_id, chosen, forgotten"
)

# -- the clock ---------------------------------------------------------------------------


def clock(conn: Connection) -> int:
    row = conn.execute("SELECT value FROM meta WHERE key = 'sync.clock'").fetchone()
    return int(row[0]) if row else 0


def _set_clock(conn: Connection, value: int) -> None:
    conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('sync.clock', ?)", (str(value),))


def witness(conn: Connection, at: int) -> None:
    """A stamp arrived: this computer's next stamps come after it."""
    if at > clock(conn):
        _set_clock(conn, at)


# -- recording -----------------------------------------------------------------------


def set_recording(conn: Connection, on: bool) -> None:
    conn.execute("DELETE FROM sync_flags")
    conn.execute("INSERT INTO sync_flags(recording) VALUES (?)", (1 if on else 0,))


def stop_recording(conn: Connection) -> None:
    conn.execute("DELETE FROM sync_flags")
    conn.execute("DELETE FROM sync_dirty")


def _deleted_what(prev: str | None) -> Stamp | None:
    """What a deletion kept here says it deleted (the stamp its record carries)."""
    return stamp_of(prev) if prev else None


class Capture:
    """The changes of one open profile, as this computer (`device`) sends them."""

    def __init__(self, profile: Profile, device: str, carried: Iterable[str] = ()) -> None:
        self.profile = profile
        self.db = profile.db
        self.device = device
        # whose standing records this computer writes besides its own: the computers
        # taken out of the sync, whose own files are gone (every computer carries them
        # in its snapshot, so a computer joining later still gets them)
        self.devices = (device, *sorted(set(carried) - {device}))

    def enrol(self, conn: Connection) -> None:
        """Sync starts here: every record this profile holds becomes a change to send
        (the first snapshot), and changes are recorded from now on."""
        for table, kind in (
            ("spaces", SPACE), ("memories", MEMORY), ("conversations", CONVERSATION),
            ("messages", MESSAGE),
        ):  # fmt: skip
            conn.execute(
                f"INSERT OR IGNORE INTO sync_dirty(kind, uid) SELECT ?, uid FROM {table}", (kind,)
            )
        conn.execute(
            "INSERT OR IGNORE INTO sync_dirty(kind, uid) SELECT 'setting', substr(key, 9) "
            "FROM meta WHERE key IN (" + ",".join("?" * len(SYNCED_SETTINGS)) + ")",
            [f"setting.{k}" for k in SYNCED_SETTINGS],
        )
        set_recording(conn, True)

    # -- stamping what changed here ------------------------------------------------------

    def pending(self) -> int:
        return int(self.db.query("SELECT count(*) FROM sync_dirty")[0][0])

    def export(self, conn: Connection, seq: int) -> int:
        """Stamp every change recorded since the last export and file it under `seq`
        (this computer's next change file). Inside the caller's transaction. Returns
        how many records changed."""
        dirty = conn.execute("SELECT kind, uid FROM sync_dirty ORDER BY kind, uid").fetchall()
        if not dirty:
            return 0
        stamp_state = {"clock": clock(conn)}

        def tick() -> int:
            stamp_state["clock"] += 1
            return stamp_state["clock"]

        changed = 0
        # spaces before what is in them; conversations before messages: a message's
        # tombstone is not needed when its conversation's is sent too
        order = {SPACE: -1, CONVERSATION: 0, MEMORY: 1, MESSAGE: 2, SETTING: 3}
        for kind, uid in sorted(dirty, key=lambda r: (order.get(r[0], 9), r[1])):
            if kind == MEMORY:
                changed += self._export_memory(conn, uid, seq, tick)
            elif kind == CONVERSATION:
                changed += self._export_plain(
                    conn, kind, uid, self._conversation_body(conn, uid), seq, tick
                )
            elif kind == MESSAGE:
                body = self._message_body(conn, uid)
                if body is None and self._covered(conn, uid):
                    conn.execute(
                        "DELETE FROM sync_records WHERE kind = ? AND uid = ?", (MESSAGE, uid)
                    )
                    conn.execute("DELETE FROM sync_links WHERE message = ?", (uid,))
                    continue
                changed += self._export_plain(
                    conn, kind, uid, body, seq, tick, parent=(body or {}).get("conversation")
                )
            elif kind == SETTING:
                changed += self._export_plain(
                    conn, kind, uid, self._setting_body(conn, uid), seq, tick
                )
            elif kind == SPACE:
                changed += self._export_space(conn, uid, seq, tick)
        conn.execute("DELETE FROM sync_dirty")
        _set_clock(conn, stamp_state["clock"])
        return changed

    def _newest_in(self, conn: Connection, conversation: str) -> Stamp | None:
        """The newest stamp of a conversation and its messages, as known here."""
        row = conn.execute(
            "SELECT clock, device FROM sync_records WHERE (kind = 'conversation' AND uid = ?) "
            "OR (kind = 'message' AND parent = ?) ORDER BY clock DESC, device DESC LIMIT 1",
            (conversation, conversation),
        ).fetchone()
        return None if row is None else (int(row[0]), str(row[1]))

    def _export_plain(
        self,
        conn: Connection,
        kind: str,
        uid: str,
        body: Body | None,
        seq: int,
        tick: Callable[[], int],
        parent: str | None = None,
    ) -> int:
        known = records.record(conn, kind, uid)
        if known is not None and known.deleted:
            return 0  # deleted elsewhere: nothing about it is sent again
        # (a record made and removed here before this computer sent it still has its
        # deletion sent: a copy of this computer under its identity may have sent it)
        if known is not None and known.body == body:
            return 0
        # a conversation's deletion says the newest of it this computer had seen: the
        # messages written elsewhere after that were not (they are reported, not lost)
        prev = self._newest_in(conn, uid) if body is None and kind == CONVERSATION else None
        records.store(conn, kind, uid, (tick(), self.device), body, seq, parent, prev=prev)
        if body is None and kind == CONVERSATION:
            records.drop_children(conn, uid)
        if kind == MESSAGE:
            conn.execute("DELETE FROM sync_links WHERE message = ?", (uid,))
            if body is not None:
                records.put_links(conn, uid, body)
        return 1

    def _covered(self, conn: Connection, uid: str) -> bool:
        """Whether a deleted message went with its conversation (whose tombstone says it)."""
        row = conn.execute(
            "SELECT r.body IS NULL FROM sync_records m JOIN sync_records r "
            "ON r.kind = 'conversation' AND r.uid = m.parent WHERE m.kind = 'message' AND m.uid = ?",
            (uid,),
        ).fetchone()
        return bool(row and row[0])

    def _export_memory(self, conn: Connection, uid: str, seq: int, tick: Callable[[], int]) -> int:
        row = conn.execute(
            f"SELECT {_MEMORY_COLUMNS} FROM memories WHERE uid = ?", (uid,)
        ).fetchone()
        known = records.record(conn, MEMORY, uid)
        if known is not None and known.deleted:
            return 0
        if row is None:
            # the version deleted: an edit elsewhere newer than it was not seen here. (Its
            # deletion is sent even if it was never sent: a copy of this computer under its
            # identity, a cloned disk, may have sent it.)
            prev = known.stamp if known is not None else None
            records.store(conn, MEMORY, uid, (tick(), self.device), None, seq, prev=prev)
            conn.execute("DELETE FROM sync_records WHERE kind = ? AND uid = ?", (CONTEXT, uid))
            return 1
        changed = 0
        fresh = conn.execute(
            "SELECT id FROM memory_history WHERE memory_id = ? AND sync_clock IS NULL ORDER BY version",
            (row[0],),
        ).fetchall()
        last = 0
        for (hid,) in fresh:
            last = tick()
            self.profile.memories.stamp_version(conn, hid, last, self.device, seq)
        head = self._head(conn, row)
        if fresh or known is None or _without_prev(known.body) != _without_prev(head):
            head["prev"] = list(known.stamp) if known is not None else None
            # a head with a new version has that version's stamp: whether another
            # computer's head is in this one's past is then in its history
            records.store(conn, MEMORY, uid, (last or tick(), self.device), head, seq)
            changed = 1
        context = records.record(conn, CONTEXT, uid)
        ctx_body = {"context": row[12]} if row[12] else None
        if (context is None and ctx_body is not None) or (
            context is not None
            and context.body != ctx_body
            and not (context.body is None and ctx_body is None)
        ):
            records.store(
                conn, CONTEXT, uid, (tick(), self.device), ctx_body or {"context": None}, seq
            )
            changed = 1
        return changed

    def _head(self, conn: Connection, row: tuple[object, ...]) -> Body:
        return _memory_head(conn, row, self.device)

    def _conversation_body(self, conn: Connection, uid: str) -> Body | None:
        row = conn.execute(
            "SELECT title, title_source, pinned, model, created_at, updated_at, origin, origin_key, "
            "space_id FROM conversations WHERE uid = ?",
            (uid,),
        ).fetchone()
        if row is None:
            return None
        body = {
            "title": row[0], "title_source": row[1], "pinned": bool(row[2]), "model": row[3],
            "created_at": row[4], "updated_at": row[5],
        }  # fmt: skip
        if row[6]:  # imported from another assistant ("from ChatGPT, 2024-03-02")
            body["origin"] = row[6]
            body["origin_key"] = row[7]
        body.update(_space_of(conn, row[8]))
        return body

    def _message_body(self, conn: Connection, uid: str) -> Body | None:
        row = conn.execute(
            f"SELECT {_MESSAGE_COLUMNS} FROM messages WHERE uid = ?", (uid,)
        ).fetchone()
        if row is None:
            return None
        used = conn.execute(
            "SELECT m.uid, u.rank, u.score, u.why, u.weak FROM message_memories u "
            "JOIN memories m ON m.id = u.memory_id WHERE u.message_id = ? ORDER BY u.rank",
            (row[0],),
        ).fetchall()
        recalled = conn.execute(
            "SELECT m.uid, r.rank, r.score, r.weak FROM message_recalls r "
            "JOIN messages m ON m.id = r.recalled_id WHERE r.message_id = ? ORDER BY r.rank",
            (row[0],),
        ).fetchall()
        return {
            "conversation": records.uid_of(conn, "conversations", row[2]),
            "role": row[3],
            "content": row[4],
            "status": row[5],
            "model": row[6],
            "created_at": row[7],
            "prompt_tokens": row[8],
            "error": row[9],
            "parent": records.uid_of(conn, "messages", row[10]),
            "chosen": bool(row[11]),
            "forgotten": bool(row[12]),
            "used": [[u, r, round(float(s), 6), w, bool(k)] for u, r, s, w, k in used],
            "recalled": [[u, r, round(float(s), 6), bool(k)] for u, r, s, k in recalled],
        }

    def _export_space(self, conn: Connection, uid: str, seq: int, tick: Callable[[], int]) -> int:
        """A space's record, each of its fields stamped with when it last changed
        ("at"), so that two computers changing different fields at once both stand
        (core/sync/merge.py: merge_space): a rename elsewhere never undoes "kept apart"
        made here."""
        body = self._space_body(conn, uid)
        known = records.record(conn, SPACE, uid)
        if body is None or (known is not None and known.deleted):
            return self._export_plain(conn, SPACE, uid, body, seq, tick)
        old = known.body if known is not None else None
        if old is not None and all(old.get(f) == body[f] for f in SPACE_FIELDS):
            return 0
        stamp = (tick(), self.device)
        at = dict(old.get("at") or {}) if old is not None else {}
        for f in SPACE_FIELDS:
            if old is None or old.get(f) != body[f]:
                at[f] = list(stamp)
        records.store(conn, SPACE, uid, stamp, {**body, "at": at}, seq)
        return 1

    def _space_body(self, conn: Connection, uid: str) -> Body | None:
        row = conn.execute(
            "SELECT name, instruction, apart, created_at, updated_at FROM spaces WHERE uid = ?",
            (uid,),
        ).fetchone()
        if row is None:
            return None
        return {
            "name": row[0], "instruction": row[1], "apart": bool(row[2]),
            "created_at": row[3], "updated_at": row[4],
        }  # fmt: skip

    def _setting_body(self, conn: Connection, key: str) -> Body | None:
        row = conn.execute("SELECT value FROM meta WHERE key = ?", (f"setting.{key}",)).fetchone()
        return {"value": row[0] if row else None}

    # -- what a file holds ---------------------------------------------------------------

    def records_of(self, seq: int | None = None) -> Iterator[Record]:
        """This computer's records filed under `seq` (a change file), or every one of its
        records still standing (None: a snapshot). Memories come as their head with the
        versions this computer made."""
        mine = ",".join("?" * len(self.devices))
        where, params = (
            (f"device IN ({mine}) AND seq = ?", (*self.devices, seq))
            if seq is not None
            else (f"device IN ({mine})", self.devices)
        )
        hwhere, hparams = (
            (f"h.sync_device IN ({mine}) AND h.sync_seq = ?", (*self.devices, seq))
            if seq is not None
            else (f"h.sync_device IN ({mine})", self.devices)
        )
        memory_uids = {
            r[0]
            for r in self.db.query(
                f"SELECT uid FROM sync_records WHERE kind = 'memory' AND {where}", params
            )
        } | {
            r[0]
            for r in self.db.query(
                f"SELECT DISTINCT m.uid FROM memory_history h JOIN memories m ON m.id = h.memory_id "
                f"WHERE {hwhere}",
                hparams,
            )
        }
        # conversations first, then messages oldest first: a computer reading them in
        # order finds what each refers to already there
        order = "CASE kind WHEN 'conversation' THEN 0 WHEN 'message' THEN 2 ELSE 1 END, clock"
        for kind, uid, at, device, body, prev in self.db.query(
            f"SELECT kind, uid, clock, device, body, prev FROM sync_records WHERE {where} "
            f"AND kind <> 'memory' ORDER BY {order}",
            params,
        ):
            yield Record(kind, uid, (at, device), records.load(body), prev=_deleted_what(prev))
        for chunk, marks in id_chunks(sorted(memory_uids)):
            for uid, at, device, body, prev in self.db.query(
                f"SELECT uid, clock, device, body, prev FROM sync_records WHERE kind = 'memory' "
                f"AND uid IN ({marks})",
                chunk,
            ):
                versions = self._versions(uid, seq) if body is not None else ()
                yield Record(
                    MEMORY, uid, (at, device), records.load(body), versions, _deleted_what(prev)
                )

    def _versions(self, uid: str, seq: int | None) -> tuple[Version, ...]:
        sql = (
            "SELECT h.action, h.actor, (SELECT uid FROM messages WHERE id = h.message_id), "
            "h.text, h.kind, h.importance, h.pinned, h.valid_from, h.valid_until, h.changed_at, "
            "h.sync_clock, h.sync_device FROM memory_history h JOIN memories m ON m.id = h.memory_id "
            f"WHERE m.uid = ? AND h.sync_device IN ({','.join('?' * len(self.devices))})"
        )
        params: list[object] = [uid, *self.devices]
        if seq is not None:
            sql += " AND h.sync_seq = ?"
            params.append(seq)
        # the values as the database holds them: the file says what was written here
        return tuple(
            Version(r[0], r[1], r[2], r[3], r[4], r[5], bool(r[6]), r[7], r[8], r[9], r[10], r[11])
            for r in self.db.query(sql + " ORDER BY h.sync_clock", params)
        )

    def own_seqs(self) -> set[int]:
        return {
            int(r[0])
            for r in self.db.query(
                "SELECT DISTINCT seq FROM sync_records WHERE device = ? AND seq IS NOT NULL "
                "UNION SELECT DISTINCT sync_seq FROM memory_history WHERE sync_device = ? "
                "AND sync_seq IS NOT NULL",
                (self.device, self.device),
            )
        }

    # -- when two computers wrote under one identity (core/sync/twins.py) ---------------

    def restamp(self, conn: Connection, old: str, seq: int) -> int:
        """Every record and version stamped by `old` is stamped by this computer instead,
        each with its logical clock unchanged, and filed under `seq` with those of the
        computers it carries (they all go out in its first change file). The same clock
        keeps every order with what others wrote; this computer's id, above `old`, puts
        its version after the other copy's where both stamped one record with one
        clock. Inside the caller's transaction; how many rows moved."""
        carried = [d for d in self.devices if d != self.device]
        moved = conn.execute(
            "UPDATE sync_records SET device = ?, seq = ? WHERE device = ?", (self.device, seq, old)
        ).rowcount
        moved += self.profile.memories.restamp_versions(conn, old, self.device, seq)
        if carried:
            moved += refile(conn, self.profile, carried, seq)
        return moved

    def resend(self, conn: Connection, seq: int) -> int:
        """Every record and version this computer writes, filed under `seq` again, stamps
        unchanged: they go out whole in its next change file (another copy of it wrote
        files under its name that replaced some of its own). How many rows moved."""
        return refile(conn, self.profile, self.devices, seq)


def head_of(conn: Connection, uid: str, device: str) -> Body | None:
    """A memory's head as a record's body holds it (None: no such memory); `device`: its
    origin when the memory does not say."""
    row = conn.execute(f"SELECT {_MEMORY_COLUMNS} FROM memories WHERE uid = ?", (uid,)).fetchone()
    return None if row is None else _memory_head(conn, row, device)


def _memory_head(conn: Connection, row: tuple[object, ...], device: str) -> Body:
    return {
        "text": row[2],
        "kind": row[3],
        "importance": row[4],
        "pinned": bool(row[5]),
        "source": row[6],
        "source_message": records.uid_of(conn, "messages", _rowid(row[7])),
        "created_at": row[8],
        "updated_at": row[9],
        "valid_from": row[10],
        "valid_until": row[11],
        "care_choice": row[13],
        "origin": row[14] or device,
        # its space (a shared memory's head has none: as before spaces)
        **_space_of(conn, row[15]),
    }


def refile(conn: Connection, profile: Profile, devices: Sequence[str], seq: int) -> int:
    """Every record and version stamped by `devices` filed under `seq`, stamps unchanged:
    they go out in this computer's change file `seq`. Inside the caller's transaction;
    how many rows moved."""
    if not devices:
        return 0
    marks = ",".join("?" * len(devices))
    moved = conn.execute(
        f"UPDATE sync_records SET seq = ? WHERE device IN ({marks})", (seq, *devices)
    ).rowcount
    return int(moved) + profile.memories.refile_versions(conn, devices, seq)


def _space_of(conn: Connection, space_id: object) -> Body:
    """{"space": its uid} for a row in a space, {} for one in the shared space."""
    uid = records.uid_of(conn, "spaces", _rowid(space_id))
    return {"space": uid} if uid is not None else {}


def _rowid(value: object) -> int | None:
    return value if isinstance(value, int) else None


def _without_prev(body: Body | None) -> Body | None:
    if body is None:
        return None
    return {k: v for k, v in body.items() if k != "prev"}
