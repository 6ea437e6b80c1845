"""This computer's copy of the synced records: what it sends, and what it takes in.

The records that travel, each named by a stable id (core/db/migrations.py, 19):

- a memory's current fields (its *head*) and the versions of its history;
- a memory's context (what was being said when it was learned), apart from the rest,
  so that deleting the message it quotes can remove it everywhere without a trace in
  any version;
- a conversation; a message with what its answer was given (memories and earlier
  messages, by stable id);
- the settings that are the person's (SYNCED_SETTINGS), not a computer's.

Every change made here gets a stamp (a logical clock, then this computer's id) when it
is sent; the clock moves past every stamp that arrives, so a later change always has a
greater stamp whatever the wall clocks say. Records merge the same on every computer,
whatever order their changes arrive in:

- a record's newest stamp wins (its fields, its head);
- a memory's history is every version any computer made, in stamp order, so a memory
  edited on two computers at once keeps both texts: the later one current, the other
  in its history;
- a deletion wins over everything: a deleted record's id is kept (its *tombstone*, no
  text) and nothing sent for it afterwards is applied.

The changes are found by triggers (sync_dirty: whatever wrote them, the window, the
command line or an app), and each is sent as the record's state when it is sent.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from desktop_mem.core.chat.arrived import ArrivedConversation, ArrivedMessage
from desktop_mem.core.db.database import id_chunks
from desktop_mem.core.db.migrations import SYNCED_SETTINGS
from desktop_mem.core.memory.arrived import ArrivedMemory, ArrivedVersion
from desktop_mem.core.sync import lost

if TYPE_CHECKING:
    from desktop_mem.core.profile import Profile

Stamp = tuple[int, str]

MEMORY = "memory"
CONTEXT = "memctx"
CONVERSATION = "conversation"
MESSAGE = "message"
SETTING = "setting"
KINDS = (MEMORY, CONTEXT, CONVERSATION, MESSAGE, SETTING)

_MEMORY_COLUMNS = (
    "id, uid, text, kind, importance, pinned, source, source_message_id, created_at, "
    "updated_at, valid_from, valid_until, context, care_choice, origin"
)
_HISTORY_COLUMNS = (
    "id, version, action, actor, message_id, text, kind, importance, pinned, valid_from, "
    "valid_until, changed_at, sync_clock, sync_device"
)
_MESSAGE_COLUMNS = (
    "id, uid, conversation_id, role, content, status, model, created_at, prompt_tokens, "
    "error, parent_id, chosen, forgotten"
)


def _json(body: dict[str, Any] | None) -> str | None:
    return None if body is None else json.dumps(body, ensure_ascii=False, sort_keys=True)


def _load(text: str | None) -> dict[str, Any] | None:
    return None if text is None else json.loads(text)


def newer(a: Stamp, b: Stamp | None) -> bool:
    return b is None or a > b


def _stamp(value: Any) -> Stamp | None:
    """A stamp as a file or the database holds it ([clock, device]), or None."""
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


@dataclass
class Applied:
    """What taking in a batch of changes did here (for the announcements and the
    window's words)."""

    memories: set[int] = field(default_factory=set)
    new_memories: set[int] = field(default_factory=set)
    memories_removed: set[int] = field(default_factory=set)
    messages: set[int] = field(default_factory=set)  # written or changed, searchable: to index
    conversations: set[int] = field(default_factory=set)
    conversations_removed: set[int] = field(default_factory=set)
    settings: set[str] = field(default_factory=set)
    conflicts: list[str] = field(default_factory=list)  # memory uids edited on both sides
    overridden: int = 0  # changes a deletion made elsewhere won over
    own_removed: int = 0  # records this computer wrote that a deletion elsewhere removed
    records: int = 0
    # what the merge dropped that the user had not seen deleted, kept (sync/lost.py):
    # (its way, the other computer), one per record
    lost: list[tuple[str, str]] = field(default_factory=list)

    def merge(self, other: Applied) -> None:
        for name in (
            "memories", "new_memories", "memories_removed", "messages", "conversations",
            "conversations_removed", "settings",
        ):  # fmt: skip
            getattr(self, name).update(getattr(other, name))
        self.conflicts += other.conflicts
        self.lost += other.lost
        self.overridden += other.overridden
        self.own_removed += other.own_removed
        self.records += other.records

    @property
    def anything(self) -> bool:
        return bool(
            self.memories or self.memories_removed or self.conversations
            or self.conversations_removed or self.settings
        )  # fmt: skip


class Replica:
    """The synced records of one open profile, as this computer (`device`) holds them."""

    def __init__(self, profile: Profile, device: str, carried: Iterable[str] = ()) -> None:
        self.profile = profile
        self.db = profile.db
        self.device = device
        # whose standing records this computer writes besides its own: the computers
        # taken out of the sync, whose own files are gone (every computer carries them
        # in its snapshot, so a computer joining later still gets them)
        self.devices = (device, *sorted(set(carried) - {device}))

    # -- the clock ----------------------------------------------------------------------

    def clock(self, conn: Any) -> int:
        row = conn.execute("SELECT value FROM meta WHERE key = 'sync.clock'").fetchone()
        return int(row[0]) if row else 0

    def _set_clock(self, conn: Any, value: int) -> None:
        conn.execute(
            "INSERT OR REPLACE INTO meta(key, value) VALUES ('sync.clock', ?)", (str(value),)
        )

    def witness(self, conn: Any, clock: int) -> None:
        """A stamp arrived: this computer's next stamps come after it."""
        if clock > self.clock(conn):
            self._set_clock(conn, clock)

    # -- recording -------------------------------------------------------------------

    @staticmethod
    def set_recording(conn: Any, on: bool) -> None:
        conn.execute("DELETE FROM sync_flags")
        conn.execute("INSERT INTO sync_flags(recording) VALUES (?)", (1 if on else 0,))

    @staticmethod
    def stop_recording(conn: Any) -> None:
        conn.execute("DELETE FROM sync_flags")
        conn.execute("DELETE FROM sync_dirty")

    def enrol(self, conn: Any) -> None:
        """Sync starts here: every record this profile holds becomes a change to send
        (the first snapshot), and changes are recorded from now on."""
        for table, kind in (
            ("memories", MEMORY), ("conversations", CONVERSATION), ("messages", MESSAGE)
        ):  # fmt: skip
            conn.execute(
                f"INSERT OR IGNORE INTO sync_dirty(kind, uid) SELECT ?, uid FROM {table}", (kind,)
            )
        conn.execute(
            "INSERT OR IGNORE INTO sync_dirty(kind, uid) SELECT 'setting', substr(key, 9) "
            "FROM meta WHERE key IN (" + ",".join("?" * len(SYNCED_SETTINGS)) + ")",
            [f"setting.{k}" for k in SYNCED_SETTINGS],
        )
        self.set_recording(conn, True)

    # -- sending: what changed here, as records with their stamps ----------------------

    def pending(self) -> int:
        return int(self.db.query("SELECT count(*) FROM sync_dirty")[0][0])

    def export(self, conn: Any, seq: int) -> int:
        """Stamp every change recorded since the last export and file it under `seq`
        (this computer's next change file). Inside the caller's transaction. Returns
        how many records changed."""
        dirty = conn.execute("SELECT kind, uid FROM sync_dirty ORDER BY kind, uid").fetchall()
        if not dirty:
            return 0
        clock = self.clock(conn)
        changed = 0
        stamp_state = {"clock": clock}

        def tick() -> int:
            stamp_state["clock"] += 1
            return stamp_state["clock"]

        # conversations before messages: a message's tombstone is not needed when its
        # conversation's is sent too
        order = {CONVERSATION: 0, MEMORY: 1, MESSAGE: 2, SETTING: 3}
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
        conn.execute("DELETE FROM sync_dirty")
        self._set_clock(conn, stamp_state["clock"])
        return changed

    def _record(self, conn: Any, kind: str, uid: str) -> tuple[Stamp, dict[str, Any] | None] | None:
        row = conn.execute(
            "SELECT clock, device, body FROM sync_records WHERE kind = ? AND uid = ?", (kind, uid)
        ).fetchone()
        if row is None:
            return None
        return (int(row[0]), str(row[1])), _load(row[2])

    def _store(
        self,
        conn: Any,
        kind: str,
        uid: str,
        stamp: Stamp,
        body: dict[str, Any] | None,
        seq: int | None,
        parent: str | None = None,
        waiting: bool = False,
        prev: Stamp | None = None,
    ) -> None:
        """`prev`, for a deletion: the stamp of what it deleted (whoever holds an edit
        newer than that, the deleter had not seen)."""
        conn.execute(
            "INSERT OR REPLACE INTO sync_records(kind, uid, clock, device, body, seq, parent, "
            "waiting, prev) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (kind, uid, stamp[0], stamp[1], _json(body), seq, parent, int(waiting),
             None if prev is None else json.dumps(list(prev))),
        )  # fmt: skip

    def _deletion(self, conn: Any, kind: str, uid: str) -> tuple[Stamp, Stamp | None] | None:
        """A deletion known here: its stamp, and that of what it deleted (None when made
        by a version that did not say)."""
        row = conn.execute(
            "SELECT clock, device, prev FROM sync_records WHERE kind = ? AND uid = ? "
            "AND body IS NULL",
            (kind, uid),
        ).fetchone()
        return None if row is None else ((int(row[0]), str(row[1])), _stamp(row[2]))

    def _newest_in(self, conn: Any, conversation: str) -> Stamp | None:
        """The newest stamp of a conversation and its messages, as known here."""
        row = conn.execute(
            "SELECT clock, device FROM sync_records WHERE (kind = 'conversation' AND uid = ?) "
            "OR (kind = 'message' AND parent = ?) ORDER BY clock DESC, device DESC LIMIT 1",
            (conversation, conversation),
        ).fetchone()
        return None if row is None else (int(row[0]), str(row[1]))

    def _export_plain(
        self,
        conn: Any,
        kind: str,
        uid: str,
        body: dict[str, Any] | None,
        seq: int,
        tick: Any,
        parent: str | None = None,
    ) -> int:
        known = self._record(conn, kind, uid)
        if known is not None and known[1] is None:
            return 0  # deleted elsewhere: nothing about it is sent again
        # (a record made and removed here before this computer sent it still has its
        # deletion sent: a copy of this computer under its identity may have sent it)
        if known is not None and known[1] == body:
            return 0
        # a conversation's deletion says the newest of it this computer had seen: the
        # messages written elsewhere after that were not (they are reported, not lost)
        prev = self._newest_in(conn, uid) if body is None and kind == CONVERSATION else None
        self._store(conn, kind, uid, (tick(), self.device), body, seq, parent, prev=prev)
        if body is None and kind == CONVERSATION:
            self._drop_children(conn, uid)
        if kind == MESSAGE:
            conn.execute("DELETE FROM sync_links WHERE message = ?", (uid,))
            if body is not None:
                self._put_links(conn, uid, body)
        return 1

    def _covered(self, conn: Any, uid: str) -> bool:
        """Whether a deleted message went with its conversation (whose tombstone says it)."""
        row = conn.execute(
            "SELECT r.body IS NULL FROM sync_records m JOIN sync_records r "
            "ON r.kind = 'conversation' AND r.uid = m.parent WHERE m.kind = 'message' AND m.uid = ?",
            (uid,),
        ).fetchone()
        return bool(row and row[0])

    def _drop_children(self, conn: Any, conversation: str) -> None:
        conn.execute("DELETE FROM sync_links WHERE message IN (SELECT uid FROM sync_records "
                     "WHERE kind = 'message' AND parent = ?)", (conversation,))  # fmt: skip
        conn.execute(
            "DELETE FROM sync_records WHERE kind = 'message' AND parent = ?", (conversation,)
        )

    def _export_memory(self, conn: Any, uid: str, seq: int, tick: Any) -> int:
        row = conn.execute(
            f"SELECT {_MEMORY_COLUMNS} FROM memories WHERE uid = ?", (uid,)
        ).fetchone()
        known = self._record(conn, MEMORY, uid)
        if known is not None and known[1] is None:
            return 0
        if row is None:
            # the version deleted: an edit elsewhere newer than it was not seen here. (Its
            # deletion is sent even if it was never sent: a copy of this computer under its
            # identity, a cloned disk, may have sent it.)
            prev = known[0] if known is not None else None
            self._store(conn, MEMORY, uid, (tick(), self.device), None, seq, prev=prev)
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
        if fresh or known is None or _without_prev(known[1]) != _without_prev(head):
            head["prev"] = list(known[0]) if known is not None else None
            # a head with a new version has that version's stamp: whether another
            # computer's head is in this one's past is then in its history
            self._store(conn, MEMORY, uid, (last or tick(), self.device), head, seq)
            changed = 1
        context = self._record(conn, CONTEXT, uid)
        ctx_body = {"context": row[12]} if row[12] else None
        if (context is None and ctx_body is not None) or (
            context is not None
            and context[1] != ctx_body
            and not (context[1] is None and ctx_body is None)
        ):
            self._store(
                conn, CONTEXT, uid, (tick(), self.device), ctx_body or {"context": None}, seq
            )
            changed = 1
        return changed

    def _uid_of(self, conn: Any, table: str, rowid: int | None) -> str | None:
        if rowid is None:
            return None
        row = conn.execute(f"SELECT uid FROM {table} WHERE id = ?", (rowid,)).fetchone()
        return row[0] if row else None

    def _head(self, conn: Any, row: Any) -> dict[str, Any]:
        return {
            "text": row[2],
            "kind": row[3],
            "importance": row[4],
            "pinned": bool(row[5]),
            "source": row[6],
            "source_message": self._uid_of(conn, "messages", row[7]),
            "created_at": row[8],
            "updated_at": row[9],
            "valid_from": row[10],
            "valid_until": row[11],
            "care_choice": row[13],
            "origin": row[14] or self.device,
        }

    def _conversation_body(self, conn: Any, uid: str) -> dict[str, Any] | None:
        row = conn.execute(
            "SELECT title, title_source, pinned, model, created_at, updated_at, origin, origin_key "
            "FROM conversations WHERE uid = ?",
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
        return body

    def _message_body(self, conn: Any, uid: str) -> dict[str, Any] | None:
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
            "conversation": self._uid_of(conn, "conversations", row[2]),
            "role": row[3],
            "content": row[4],
            "status": row[5],
            "model": row[6],
            "created_at": row[7],
            "prompt_tokens": row[8],
            "error": row[9],
            "parent": self._uid_of(conn, "messages", row[10]),
            "chosen": bool(row[11]),
            "forgotten": bool(row[12]),
            "used": [[u, r, round(float(s), 6), w, bool(k)] for u, r, s, w, k in used],
            "recalled": [[u, r, round(float(s), 6), bool(k)] for u, r, s, k in recalled],
        }

    def _setting_body(self, conn: Any, key: str) -> dict[str, Any] | None:
        row = conn.execute("SELECT value FROM meta WHERE key = ?", (f"setting.{key}",)).fetchone()
        return {"value": row[0] if row else None}

    def _put_links(self, conn: Any, uid: str, body: dict[str, Any]) -> None:
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

    # -- what a file holds ---------------------------------------------------------------

    def records_of(self, seq: int | None = None) -> Iterator[dict[str, Any]]:
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
        for kind, uid, clock, device, body, prev in self.db.query(
            f"SELECT kind, uid, clock, device, body, prev FROM sync_records WHERE {where} "
            f"AND kind <> 'memory' ORDER BY {order}",
            params,
        ):
            yield _with_prev({"k": kind, "u": uid, "c": clock, "d": device, "b": _load(body)}, prev)
        for chunk, marks in id_chunks(sorted(memory_uids)):
            for uid, clock, device, body, prev in self.db.query(
                f"SELECT uid, clock, device, body, prev FROM sync_records WHERE kind = 'memory' "
                f"AND uid IN ({marks})",
                chunk,
            ):
                record = {"k": MEMORY, "u": uid, "c": clock, "d": device, "b": _load(body)}
                if body is not None:
                    record["h"] = self._versions(uid, seq)
                yield _with_prev(record, prev)

    def _versions(self, uid: str, seq: int | None) -> list[dict[str, Any]]:
        sql = (
            "SELECT h.action, h.actor, (SELECT uid FROM messages WHERE id = h.message_id), "
            "h.text, h.kind, h.importance, h.pinned, h.valid_from, h.valid_until, h.changed_at, "
            "h.sync_clock, h.sync_device FROM memory_history h JOIN memories m ON m.id = h.memory_id "
            f"WHERE m.uid = ? AND h.sync_device IN ({','.join('?' * len(self.devices))})"
        )
        params: list[Any] = [uid, *self.devices]
        if seq is not None:
            sql += " AND h.sync_seq = ?"
            params.append(seq)
        return [
            {
                "action": r[0],
                "actor": r[1],
                "message": r[2],
                "text": r[3],
                "kind": r[4],
                "importance": r[5],
                "pinned": bool(r[6]),
                "valid_from": r[7],
                "valid_until": r[8],
                "changed_at": r[9],
                "c": r[10],
                "d": r[11],
            }  # fmt: skip
            for r in self.db.query(sql + " ORDER BY h.sync_clock", params)
        ]

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

    def restamp(self, conn: Any, old: str, seq: int) -> int:
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
            marks = ",".join("?" * len(carried))
            moved += conn.execute(
                f"UPDATE sync_records SET seq = ? WHERE device IN ({marks})", (seq, *carried)
            ).rowcount
            moved += self.profile.memories.refile_versions(conn, carried, seq)
        return moved

    def resend(self, conn: Any, seq: int) -> int:
        """Every record and version this computer writes, filed under `seq` again, stamps
        unchanged: they go out whole in its next change file (another copy of it wrote
        files under its name that replaced some of its own). How many rows moved."""
        marks = ",".join("?" * len(self.devices))
        moved = conn.execute(
            f"UPDATE sync_records SET seq = ? WHERE device IN ({marks})", (seq, *self.devices)
        ).rowcount
        moved += self.profile.memories.refile_versions(conn, self.devices, seq)
        return moved

    # -- taking in what another computer sent ------------------------------------------

    def apply(self, conn: Any, records: Iterable[dict[str, Any]]) -> Applied:
        """Merge records into this computer's copy: the newest stamp wins, deletions win
        over everything. Inside the caller's transaction, with recording off."""
        out = Applied()
        purge_memories: list[int] = []
        purge_messages: list[int] = []
        touched_messages: list[str] = []
        latest = 0
        for record in records:
            out.records += 1
            kind, uid = record.get("k"), record.get("u")
            clock, device = record.get("c"), record.get("d")
            if kind not in KINDS or not isinstance(uid, str) or not isinstance(clock, int):
                continue
            if not isinstance(device, str):
                continue
            latest = max(latest, clock)
            stamp = (clock, device)
            body = record.get("b")
            known = self._record(conn, kind, uid)
            if known is not None and known[1] is None and kind != CONTEXT:
                if body is not None:
                    out.overridden += 1
                    if kind == MEMORY and isinstance(body, dict):
                        self._edit_of_deleted(conn, uid, stamp, body, out)
                continue
            if body is None and kind in (MEMORY, CONVERSATION, MESSAGE):
                prev = _stamp(record.get("p"))
                self._lost_to(conn, kind, uid, stamp, prev, known, out)
                self._tombstone(
                    conn, kind, uid, stamp, known, out, purge_memories, purge_messages, prev
                )
                continue
            if not isinstance(body, dict):
                continue
            touched_messages += self._apply_one(conn, kind, uid, stamp, body, record, known, out)
        self.witness(conn, latest)
        self._materialize_waiting(conn, out)
        if purge_messages:
            self.profile.conversations.purge_rows(conn, purge_messages)
        if purge_memories:
            self.profile.memories.purge_rows(conn, purge_memories)
        return out

    def _apply_one(
        self,
        conn: Any,
        kind: str,
        uid: str,
        stamp: Stamp,
        body: dict[str, Any],
        record: dict[str, Any],
        known: tuple[Stamp, dict[str, Any] | None] | None,
        out: Applied,
    ) -> list[str]:
        """One record that is not a deletion; the messages it lets in."""
        is_newer = newer(stamp, known[0] if known else None)
        if kind == MEMORY:
            self._apply_memory(conn, uid, stamp, body, record.get("h") or [], known, out)
        elif kind == CONTEXT:
            if is_newer and not self._gone(conn, MEMORY, uid):
                self._store(conn, CONTEXT, uid, stamp, body, None)
                self._materialize_context(conn, uid, body.get("context"), out)
        elif kind == CONVERSATION:
            if is_newer:
                self._store(conn, kind, uid, stamp, body, None)
                self._materialize_conversation(conn, uid, body, out)
                return [
                    r[0]
                    for r in conn.execute(
                        "SELECT uid FROM sync_records WHERE kind = 'message' AND parent = ? "
                        "AND waiting = 1",
                        (uid,),
                    ).fetchall()
                ]
        elif kind == MESSAGE:
            parent = body.get("conversation")
            if not isinstance(parent, str) or self._gone(conn, CONVERSATION, parent):
                out.overridden += 1  # its conversation was deleted
                if isinstance(parent, str):
                    self._message_in_deleted(conn, uid, stamp, parent, body, out)
            elif is_newer:
                self._store(conn, kind, uid, stamp, body, None, parent=parent, waiting=True)
                if known is not None:  # a new message has no links yet
                    conn.execute("DELETE FROM sync_links WHERE message = ?", (uid,))
                self._put_links(conn, uid, body)
                return [uid]
        elif kind == SETTING and is_newer and uid in SYNCED_SETTINGS:
            self._store(conn, kind, uid, stamp, body, None)
            self.profile.settings.put_arrived(conn, uid, body.get("value"))
            out.settings.add(uid)
        return []

    def _tombstone(
        self,
        conn: Any,
        kind: str,
        uid: str,
        stamp: Stamp,
        known: tuple[Stamp, dict[str, Any] | None] | None,
        out: Applied,
        purge_memories: list[int],
        purge_messages: list[int],
        prev: Stamp | None = None,
    ) -> None:
        if known is not None and known[0][1] == self.device:
            out.own_removed += 1
        self._store(conn, kind, uid, stamp, None, None, prev=prev)
        if kind == MEMORY:
            conn.execute("DELETE FROM sync_records WHERE kind = ? AND uid = ?", (CONTEXT, uid))
            conn.execute("DELETE FROM sync_conflicts WHERE uid = ?", (uid,))
            row = conn.execute("SELECT id FROM memories WHERE uid = ?", (uid,)).fetchone()
            if row:
                purge_memories.append(int(row[0]))
                out.memories_removed.add(int(row[0]))
        elif kind == MESSAGE:
            conn.execute("DELETE FROM sync_links WHERE message = ?", (uid,))
            row = conn.execute(
                "SELECT id, conversation_id FROM messages WHERE uid = ?", (uid,)
            ).fetchone()
            if row:
                purge_messages.append(int(row[0]))
                out.conversations.add(int(row[1]))
        elif kind == CONVERSATION:
            self._drop_children(conn, uid)
            row = conn.execute("SELECT id FROM conversations WHERE uid = ?", (uid,)).fetchone()
            if row:
                cid = int(row[0])
                self.profile.conversations.remove_arrived_conversation(conn, cid)
                out.conversations_removed.add(cid)

    # -- what a deletion drops that its computer had not seen ---------------------------

    def _lost_to(
        self,
        conn: Any,
        kind: str,
        uid: str,
        stamp: Stamp,
        prev: Stamp | None,
        known: tuple[Stamp, dict[str, Any] | None] | None,
        out: Applied,
    ) -> None:
        """A deletion arrived: what was written here after the version it deleted (its
        computer had not seen it) is kept for the user. A deletion that does not say
        what it deleted (an older version) is taken as having seen everything."""
        if prev is None:
            return
        if kind == MEMORY:
            # this computer's own edit, newer than what the other deleted
            if known is None or known[1] is None or known[0][1] != self.device:
                return
            if not known[0] > prev:
                return
            row = conn.execute("SELECT text, kind FROM memories WHERE uid = ?", (uid,)).fetchone()
            text, memory_kind = (row[0], row[1]) if row else (known[1].get("text"), None)
            if lost.record(conn, lost.MEMORY_HERE, uid, stamp[1], str(text or ""), memory_kind):
                out.lost.append((lost.MEMORY_HERE, stamp[1]))
        elif kind == CONVERSATION:
            # the messages written here after the newest the other had seen of it
            for muid, role, content, clock, device in conn.execute(
                "SELECT m.uid, m.role, m.content, r.clock, r.device FROM conversations c "
                "JOIN messages m ON m.conversation_id = c.id JOIN sync_records r "
                "ON r.kind = 'message' AND r.uid = m.uid WHERE c.uid = ? AND r.device = ? "
                "AND m.forgotten = 0 ORDER BY m.id",
                (uid, self.device),
            ).fetchall():
                if (int(clock), str(device)) > prev and lost.record(
                    conn, lost.MESSAGE_HERE, muid, stamp[1], str(content or ""), role=role
                ):
                    out.lost.append((lost.MESSAGE_HERE, stamp[1]))

    def _edit_of_deleted(
        self, conn: Any, uid: str, stamp: Stamp, head: dict[str, Any], out: Applied
    ) -> None:
        """An edit made elsewhere arrived for a memory deleted here, which this computer
        had not seen when it deleted it (newer than what it deleted): kept for the user."""
        deletion = self._deletion(conn, MEMORY, uid)
        if deletion is None or deletion[0][1] != self.device or deletion[1] is None:
            return
        if not stamp > deletion[1]:
            return
        text, memory_kind = str(head.get("text") or ""), head.get("kind")
        if lost.record(conn, lost.MEMORY_THERE, uid, stamp[1], text,
                       memory_kind if isinstance(memory_kind, str) else None):  # fmt: skip
            out.lost.append((lost.MEMORY_THERE, stamp[1]))

    def _message_in_deleted(
        self,
        conn: Any,
        uid: str,
        stamp: Stamp,
        conversation: str,
        body: dict[str, Any],
        out: Applied,
    ) -> None:
        """A message written elsewhere arrived for a conversation deleted here, newer than
        the newest of it this computer had seen: kept for the user."""
        deletion = self._deletion(conn, CONVERSATION, conversation)
        if deletion is None or deletion[0][1] != self.device or deletion[1] is None:
            return
        if not stamp > deletion[1] or body.get("forgotten"):
            return
        role = body.get("role") if isinstance(body.get("role"), str) else None
        if lost.record(conn, lost.MESSAGE_THERE, uid, stamp[1], str(body.get("content") or ""),
                       role=role):  # fmt: skip
            out.lost.append((lost.MESSAGE_THERE, stamp[1]))

    def _apply_memory(
        self,
        conn: Any,
        uid: str,
        stamp: Stamp,
        head: dict[str, Any],
        versions: list[dict[str, Any]],
        known: tuple[Stamp, dict[str, Any] | None] | None,
        out: Applied,
    ) -> None:
        if not isinstance(head, dict):
            return
        wins = newer(stamp, known[0] if known else None)
        if (
            known is not None
            and known[1] is not None
            and self._concurrent(conn, uid, stamp, head, known)
        ):
            out.conflicts.append(uid)
            other = stamp[1] if stamp[1] != self.device else known[0][1]
            conn.execute(
                "INSERT OR REPLACE INTO sync_conflicts(uid, device, at, seen) "
                "VALUES (?, ?, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), 0)",
                (uid, other),
            )
        if wins:
            self._store(conn, MEMORY, uid, stamp, head, None)
        mid = self._materialize_memory(conn, uid, head if wins else None, out)
        if mid is not None and versions:
            self._merge_versions(conn, mid, versions)

    def _concurrent(
        self,
        conn: Any,
        uid: str,
        stamp: Stamp,
        head: dict[str, Any],
        known: tuple[Stamp, dict[str, Any] | None],
    ) -> bool:
        """Whether a memory's text was changed here and elsewhere without either seeing
        the other's change (edited on both computers at once)."""
        mine = known[1] or {}
        if stamp == known[0] or head.get("text") == mine.get("text"):
            return False
        if head.get("prev") is not None and tuple(head["prev"]) == known[0]:
            return False  # made on top of this computer's version
        if mine.get("prev") is not None and tuple(mine["prev"]) == stamp:
            return False  # this computer's version was made on top of it
        # its version is here (under the id of a computer it was a copy of, when the two
        # sent it under both: the same clock and text)
        seen = conn.execute(
            "SELECT 1 FROM memory_history h JOIN memories m ON m.id = h.memory_id WHERE m.uid = ? "
            "AND h.sync_clock = ? AND (h.sync_device = ? OR h.text = ?)",
            (uid, stamp[0], stamp[1], str(head.get("text") or "")),
        ).fetchone()
        return seen is None

    def _materialize_memory(
        self, conn: Any, uid: str, head: dict[str, Any] | None, out: Applied
    ) -> int | None:
        if head is None:
            return self._id_of(conn, "memories", uid)
        choice = head.get("care_choice")
        arrived = ArrivedMemory(
            text=str(head.get("text") or ""),
            kind=head.get("kind") or "fact",
            importance=float(head.get("importance") or 0.5),
            pinned=bool(head.get("pinned")),
            source=head.get("source") or "user",
            source_message_id=self._id_of(conn, "messages", head.get("source_message")),
            created_at=head.get("created_at") or head.get("updated_at") or "",
            updated_at=head.get("updated_at") or head.get("created_at") or "",
            valid_from=head.get("valid_from"),
            valid_until=head.get("valid_until"),
            care_choice=None if choice is None else int(bool(choice)),
            origin=None if head.get("origin") == self.device else head.get("origin"),
            context=self._context_of(conn, uid),
        )
        mid, new = self.profile.memories.put_arrived(conn, uid, arrived)
        if new:
            self._link_target(conn, uid, mid)
            out.new_memories.add(mid)
        out.memories.add(mid)
        return mid

    def _context_of(self, conn: Any, uid: str) -> str | None:
        known = self._record(conn, CONTEXT, uid)
        return (known[1] or {}).get("context") if known else None

    def _materialize_context(self, conn: Any, uid: str, context: str | None, out: Applied) -> None:
        mid = self.profile.memories.put_arrived_context(conn, uid, context)
        if mid is not None:
            out.memories.add(mid)

    def _merge_versions(self, conn: Any, mid: int, versions: list[dict[str, Any]]) -> None:
        rows = conn.execute(
            "SELECT sync_clock, sync_device, action, actor, text, kind, importance, pinned, "
            "valid_from, valid_until, changed_at FROM memory_history WHERE memory_id = ? "
            "AND sync_clock IS NOT NULL",
            (mid,),
        ).fetchall()
        have = {(r[0], r[1]) for r in rows}
        # a version already here under another computer's id with the same clock and the
        # same content is the same version: two computers that shared one identity sent
        # it under both ids (core/sync/twins.py)
        same = {_version_key(r[0], r[2:]) for r in rows}
        added: list[ArrivedVersion] = []
        for v in versions:
            if not isinstance(v, dict) or not isinstance(v.get("c"), int):
                continue
            if (v["c"], v.get("d")) in have:
                continue
            content = (
                str(v.get("action") or "edited"), str(v.get("actor") or "user"),
                str(v.get("text") or ""), v.get("kind") or "fact",
                float(v.get("importance") or 0.5), int(bool(v.get("pinned"))),
                v.get("valid_from"), v.get("valid_until"), str(v.get("changed_at") or ""),
            )  # fmt: skip
            self.witness(conn, int(v["c"]))
            if _version_key(v["c"], content) in same:
                continue
            added.append(
                ArrivedVersion(
                    action=content[0],
                    actor=content[1],
                    message_id=self._id_of(conn, "messages", v.get("message")),
                    text=content[2],
                    kind=content[3],
                    importance=content[4],
                    pinned=bool(content[5]),
                    valid_from=content[6],
                    valid_until=content[7],
                    changed_at=content[8],
                    clock=int(v["c"]),
                    device=str(v.get("d") or ""),
                )  # fmt: skip
            )
            have.add((v["c"], v.get("d")))
            same.add(_version_key(v["c"], content))
        self.profile.memories.add_arrived_versions(conn, mid, added)

    def _id_of(self, conn: Any, table: str, uid: Any) -> int | None:
        if not isinstance(uid, str):
            return None
        row = conn.execute(f"SELECT id FROM {table} WHERE uid = ?", (uid,)).fetchone()
        return int(row[0]) if row else None

    def _materialize_conversation(
        self, conn: Any, uid: str, body: dict[str, Any], out: Applied
    ) -> None:
        fields = (
            str(body.get("title") or ""), str(body.get("title_source") or ""),
            bool(body.get("pinned")), body.get("model"),
            str(body.get("created_at") or ""), str(body.get("updated_at") or ""),
        )  # fmt: skip
        origin = body.get("origin") if isinstance(body.get("origin"), str) else None
        key = body.get("origin_key") if origin and isinstance(body.get("origin_key"), str) else None
        if (
            key is not None
            and conn.execute(
                "SELECT 1 FROM conversations WHERE origin = ? AND origin_key = ? AND uid <> ?",
                (origin, key, uid),
            ).fetchone()
        ):
            key = None  # the same export imported on both computers: both copies stay
        arrived = ArrivedConversation(*fields, origin=origin, origin_key=key)
        out.conversations.add(
            self.profile.conversations.put_arrived_conversation(conn, uid, arrived)
        )

    def _materialize_waiting(self, conn: Any, out: Applied) -> None:
        """Make the messages that arrived (or waited for what they follow) rows of their
        conversations, each after the message it follows, so the conversation reads in
        order here too; those whose conversation or earlier message has not arrived wait."""
        rows = conn.execute(
            "SELECT uid, body FROM sync_records WHERE kind = 'message' AND waiting = 1 "
            "ORDER BY clock, device"
        ).fetchall()
        bodies = {uid: _load(text) or {} for uid, text in rows}
        # a message after the one it follows, whatever order their stamps came in (a
        # conversation's messages are often stamped together, in any order)
        depth: dict[str, int] = {}
        for start in bodies:
            chain = []
            at: Any = start
            while isinstance(at, str) and at in bodies and at not in depth and at not in chain:
                chain.append(at)
                at = bodies[at].get("parent")
            base = depth.get(at, -1) if isinstance(at, str) else -1
            for n, item in enumerate(reversed(chain)):
                depth[item] = base + 1 + n
        touched: set[int] = set()
        placed: set[str] = set()
        conversations: dict[Any, int | None] = {}
        to_index: list[tuple[int, str]] = []  # new messages: full-text indexed together
        for uid in sorted(bodies, key=lambda u: depth.get(u, 0)):
            body = bodies[uid]
            conv = body.get("conversation")
            if conv not in conversations:
                conversations[conv] = self._id_of(conn, "conversations", conv)
            cid = conversations[conv]
            if cid is None:
                continue
            parent_uid = body.get("parent")
            parent = self._id_of(conn, "messages", parent_uid)
            if parent_uid and parent is None and not self._gone(conn, MESSAGE, parent_uid):
                continue  # what it follows has not arrived (or waits itself)
            searched = self._materialize_message(conn, uid, cid, parent, body, to_index)
            if searched is not None:
                out.messages.add(searched)
            placed.add(uid)
            touched.add(cid)
        self.profile.conversations.index_texts(conn, to_index)
        conn.executemany(
            "UPDATE sync_records SET waiting = 0 WHERE kind = 'message' AND uid = ?",
            [(uid,) for uid in placed],
        )
        if placed:
            # memories learned from these messages (arrived before them) point at them now
            pairs = conn.execute(
                "SELECT m.id, ms.id FROM memories m JOIN sync_records r ON r.kind = 'memory' "
                "AND r.uid = m.uid JOIN messages ms ON ms.uid = json_extract(r.body, "
                "'$.source_message') WHERE m.source_message_id IS NULL AND r.body IS NOT NULL"
            ).fetchall()
            self.profile.memories.point_sources(conn, pairs)
        for cid in touched:
            self.profile.conversations.mark_shown(conn, cid)
        out.conversations |= touched

    def _gone(self, conn: Any, kind: str, uid: str) -> bool:
        known = self._record(conn, kind, uid)
        return known is not None and known[1] is None

    def _materialize_message(
        self,
        conn: Any,
        uid: str,
        cid: int,
        parent: int | None,
        body: dict[str, Any],
        to_index: list[tuple[int, str]],
    ) -> int | None:
        """Write one message; its id if it is new or its text changed and it is in
        search (it needs a vector), else None."""
        role = body.get("role") if body.get("role") in ("system", "user", "assistant") else "user"
        status = (
            body.get("status")
            if body.get("status") in ("complete", "stopped", "error")
            else "complete"
        )
        arrived = ArrivedMessage(
            role=str(role), content=str(body.get("content") or ""), status=str(status),
            model=body.get("model"), created_at=str(body.get("created_at") or ""),
            prompt_tokens=body.get("prompt_tokens"), error=body.get("error"), parent_id=parent,
            chosen=bool(body.get("chosen", True)), forgotten=bool(body.get("forgotten")),
        )  # fmt: skip
        store = self.profile.conversations
        mid, searched = store.put_arrived_message(conn, uid, cid, arrived, to_index)
        # its links are the body's (put when it arrived)
        used = (
            conn.execute(
                "SELECT ?, m.id, l.rank, l.score, l.why, l.weak FROM sync_links l JOIN memories m "
                "ON m.uid = l.target WHERE l.message = ? AND l.kind = 'used'",
                (mid, uid),
            ).fetchall()
            if body.get("used")
            else []
        )
        recalled = (
            conn.execute(
                "SELECT ?, m.id, l.rank, l.score, l.weak FROM sync_links l JOIN messages m "
                "ON m.uid = l.target WHERE l.message = ? AND l.kind = 'recalled'",
                (mid, uid),
            ).fetchall()
            if body.get("recalled")
            else []
        )
        store.link_answers(conn, used, recalled)
        self._link_target(conn, uid, mid)
        return mid if searched else None

    def _link_target(self, conn: Any, uid: str, rowid: int) -> None:
        """A memory or message arrived that answers already here were given."""
        used = conn.execute(
            "SELECT m.id, ?, l.rank, l.score, l.why, l.weak FROM sync_links l JOIN messages m "
            "ON m.uid = l.message WHERE l.target = ? AND l.kind = 'used'",
            (rowid, uid),
        ).fetchall()
        recalled = conn.execute(
            "SELECT m.id, ?, l.rank, l.score, l.weak FROM sync_links l JOIN messages m "
            "ON m.uid = l.message WHERE l.target = ? AND l.kind = 'recalled'",
            (rowid, uid),
        ).fetchall()
        self.profile.conversations.link_answers(conn, used, recalled)


def _with_prev(record: dict[str, Any], prev: str | None) -> dict[str, Any]:
    """A deletion's record says what it deleted ("p"), when it is known."""
    stamp = _stamp(prev) if prev else None
    if stamp is not None:
        record["p"] = list(stamp)
    return record


def _version_key(clock: int, content: Any) -> tuple[Any, ...]:
    action, actor, text, kind, importance, pinned, valid_from, valid_until, changed_at = content
    return (int(clock), str(action), str(actor), str(text), str(kind), round(float(importance), 6),
            int(bool(pinned)), valid_from, valid_until, str(changed_at))  # fmt: skip


def _without_prev(body: dict[str, Any] | None) -> dict[str, Any] | None:
    if body is None:
        return None
    return {k: v for k, v in body.items() if k != "prev"}
