"""Taking in what another computer sent: each record read (core/sync/wire.py), what it
does decided by the merge rules (core/sync/merge.py), and the rows it changes written by
their stores (MemoryStore.put_arrived and the like: core/memory/arrived.py,
core/chat/arrived.py), inside the caller's transaction."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from desktop_mem.core.chat.arrived import ArrivedConversation, ArrivedMessage
from desktop_mem.core.db.connection import Connection
from desktop_mem.core.memory.arrived import ArrivedMemory, ArrivedVersion
from desktop_mem.core.sync import capture, lost, merge
from desktop_mem.core.sync import known as records
from desktop_mem.core.sync.merge import Known, Outcome
from desktop_mem.core.sync.wire import (
    CONTEXT,
    CONVERSATION,
    MEMORY,
    MESSAGE,
    SPACE,
    Body,
    Record,
    Version,
    from_wire,
    importance_of,
)

if TYPE_CHECKING:
    from desktop_mem.core.profile import Profile


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
    spaces_removed: set[str] = field(default_factory=set)  # their uids
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
            "conversations_removed", "settings", "spaces_removed",
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


class Applier:
    """Merges records into this computer's (`device`) copy of one open profile."""

    def __init__(self, profile: Profile, device: str) -> None:
        self.profile = profile
        self.device = device
        self._undone = False

    def apply(
        self,
        conn: Connection,
        wired: Iterable[object],
        screen: Callable[[Record], Record | None] | None = None,
    ) -> Applied:
        """Merge records as files hold them: the newest stamp wins, deletions win over
        everything (core/sync/merge.py). `screen`: what a record of a computer taken out
        of the sync becomes (core/sync/lawful.py). Inside the caller's transaction, with
        recording off."""
        out = Applied()
        self._undone = lost.any_undone(conn)  # a sweep's undone texts, to check against
        purge_memories: list[int] = []
        purge_messages: list[int] = []
        latest = 0
        for item in wired:
            out.records += 1
            record = from_wire(item)
            if record is not None and screen is not None:
                record = screen(record)  # None: a removed computer's, which does not stand
            if record is None:
                continue  # not a record: refused
            latest = max(latest, record.stamp[0])
            known = records.record(conn, record.kind, record.uid)
            parent = (record.body or {}).get("conversation") if record.kind == MESSAGE else None
            if record.kind == CONTEXT:
                above_gone = records.gone(conn, MEMORY, record.uid)
            elif record.kind == MESSAGE and record.body is not None:
                above_gone = not isinstance(parent, str) or records.gone(conn, CONVERSATION, parent)
            else:
                above_gone = False
            if (
                record.kind == SPACE and record.body is not None
                and known is not None and known.body is not None
            ):  # fmt: skip
                self._merge_space(conn, record, known)
                continue
            what = merge.outcome(record, known, above_gone)
            if what is Outcome.OVERRIDDEN:
                out.overridden += 1
                if record.kind == MEMORY:
                    self._edit_of_deleted(conn, record, out)
            elif what is Outcome.ORPHANED:
                out.overridden += 1  # its conversation was deleted
                if isinstance(parent, str):
                    self._message_in_deleted(conn, record, parent, out)
            elif what is Outcome.DELETE:
                self._lost_to(conn, record, known, out)
                self._tombstone(conn, record, known, out, purge_memories, purge_messages)
            elif what is Outcome.MEMORY:
                self._apply_memory(conn, record, known, out)
            elif what is Outcome.WRITE:
                self._write(conn, record, known, out)
        capture.witness(conn, latest)
        self._materialize_waiting(conn, out)
        if purge_messages:
            self.profile.conversations.purge_rows(conn, purge_messages)
        if purge_memories:
            self.profile.memories.purge_rows(conn, purge_memories)
        for uid in out.spaces_removed:  # after what the pass moved out of them or deleted
            self.profile.spaces.remove_arrived(conn, uid)
        return out

    def _merge_space(self, conn: Connection, record: Record, known: Known) -> None:
        """A space known here, changed elsewhere: field by field (merge.merge_space), so
        a rename there and "kept apart" here both stand."""
        assert record.body is not None and known.body is not None
        merged = merge.merge_space(known.body, known.stamp, record.body, record.stamp)
        if merged == known.body:
            return
        records.store(conn, SPACE, record.uid, max(known.stamp, record.stamp), merged, None)
        self.profile.spaces.put_arrived(conn, record.uid, merged)

    def _write(self, conn: Connection, record: Record, known: Known | None, out: Applied) -> None:
        """A record newer than what is known here (not a memory's head, not a deletion)."""
        kind, uid, stamp, body = record.kind, record.uid, record.stamp, record.body or {}
        if kind == CONTEXT:
            records.store(conn, CONTEXT, uid, stamp, body, None)
            mid = self.profile.memories.put_arrived_context(conn, uid, body.get("context"))
            if mid is not None:
                out.memories.add(mid)
        elif kind == CONVERSATION:
            records.store(conn, kind, uid, stamp, body, None)
            self._materialize_conversation(conn, uid, body, out)
        elif kind == MESSAGE:
            parent = str(body.get("conversation"))
            records.store(conn, kind, uid, stamp, body, None, parent=parent, waiting=True)
            if known is not None:  # a new message has no links yet
                conn.execute("DELETE FROM sync_links WHERE message = ?", (uid,))
            records.put_links(conn, uid, body)
        elif kind == SPACE:
            records.store(conn, kind, uid, stamp, body, None)
            self.profile.spaces.put_arrived(conn, uid, body)
        else:  # a setting
            records.store(conn, kind, uid, stamp, body, None)
            self.profile.settings.put_arrived(conn, uid, body.get("value"))
            out.settings.add(uid)

    def _tombstone(
        self,
        conn: Connection,
        record: Record,
        known: Known | None,
        out: Applied,
        purge_memories: list[int],
        purge_messages: list[int],
    ) -> None:
        kind, uid = record.kind, record.uid
        if merge.removes_own(known, self.device):
            out.own_removed += 1
        records.store(conn, kind, uid, record.stamp, None, None, prev=record.prev)
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
            records.drop_children(conn, uid)
            row = conn.execute("SELECT id FROM conversations WHERE uid = ?", (uid,)).fetchone()
            if row:
                cid = int(row[0])
                self.profile.conversations.remove_arrived_conversation(conn, cid)
                out.conversations_removed.add(cid)
        elif kind == SPACE:
            out.spaces_removed.add(uid)  # once what it held has gone (`apply`)

    # -- what a deletion drops that its computer had not seen ---------------------------

    def _lost_to(self, conn: Connection, record: Record, known: Known | None, out: Applied) -> None:
        """A deletion arrived: what was written here after the version it deleted (its
        computer had not seen it) is kept for the user."""
        uid, by, prev = record.uid, record.stamp[1], record.prev
        if prev is None:
            return  # a deletion that does not say (an older version) saw everything
        if record.kind == MEMORY:
            if not merge.own_edit_lost(known, prev, self.device):
                return
            row = conn.execute("SELECT text, kind FROM memories WHERE uid = ?", (uid,)).fetchone()
            body = known.body if known is not None else None
            text, memory_kind = (row[0], row[1]) if row else ((body or {}).get("text"), None)
            if lost.record(conn, lost.MEMORY_HERE, uid, by, str(text or ""), memory_kind):
                out.lost.append((lost.MEMORY_HERE, by))
        elif record.kind == CONVERSATION:
            # the messages written here after the newest the other had seen of it
            for muid, role, content, at, device in conn.execute(
                "SELECT m.uid, m.role, m.content, r.clock, r.device FROM conversations c "
                "JOIN messages m ON m.conversation_id = c.id JOIN sync_records r "
                "ON r.kind = 'message' AND r.uid = m.uid WHERE c.uid = ? AND r.device = ? "
                "AND m.forgotten = 0 ORDER BY m.id",
                (uid, self.device),
            ).fetchall():
                if merge.unseen((int(at), str(device)), prev) and lost.record(
                    conn, lost.MESSAGE_HERE, muid, by, str(content or ""), role=role
                ):
                    out.lost.append((lost.MESSAGE_HERE, by))

    def _edit_of_deleted(self, conn: Connection, record: Record, out: Applied) -> None:
        """An edit made elsewhere arrived for a memory deleted here, which this computer
        had not seen when it deleted it (newer than what it deleted): kept for the user."""
        deletion = records.deletion(conn, MEMORY, record.uid)
        if not merge.lost_here(record.stamp, deletion, self.device):
            return
        head, by = record.body or {}, record.stamp[1]
        text, memory_kind = str(head.get("text") or ""), head.get("kind")
        if lost.record(conn, lost.MEMORY_THERE, record.uid, by, text,
                       memory_kind if isinstance(memory_kind, str) else None):  # fmt: skip
            out.lost.append((lost.MEMORY_THERE, by))

    def _message_in_deleted(
        self, conn: Connection, record: Record, conversation: str, out: Applied
    ) -> None:
        """A message written elsewhere arrived for a conversation deleted here, newer than
        the newest of it this computer had seen: kept for the user."""
        body, by = record.body or {}, record.stamp[1]
        deletion = records.deletion(conn, CONVERSATION, conversation)
        if not merge.lost_here(record.stamp, deletion, self.device) or body.get("forgotten"):
            return
        role = body.get("role") if isinstance(body.get("role"), str) else None
        if lost.record(conn, lost.MESSAGE_THERE, record.uid, by, str(body.get("content") or ""),
                       role=role):  # fmt: skip
            out.lost.append((lost.MESSAGE_THERE, by))

    # -- memories -------------------------------------------------------------------------

    def _apply_memory(
        self, conn: Connection, record: Record, known: Known | None, out: Applied
    ) -> None:
        """A memory's head: it stands if it is newer; its versions merge into the history
        whatever its stamp."""
        uid, stamp, head = record.uid, record.stamp, record.body or {}
        if known is not None and merge.edited_apart(stamp, head, known):
            # its version is here (under the id of a computer it was a copy of, when the
            # two sent it under both: the same clock and text)?
            here = conn.execute(
                "SELECT h.sync_device, h.text FROM memory_history h JOIN memories m "
                "ON m.id = h.memory_id WHERE m.uid = ? AND h.sync_clock = ?",
                (uid, stamp[0]),
            ).fetchall()
            if not merge.seen_here(stamp, str(head.get("text") or ""), here):
                out.conflicts.append(uid)
                conn.execute(
                    "INSERT OR REPLACE INTO sync_conflicts(uid, device, at, seen) "
                    "VALUES (?, ?, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), 0)",
                    (uid, merge.conflict_with(stamp, known, self.device)),
                )
        wins = merge.wins(stamp, known.stamp if known else None)
        if wins:
            records.store(conn, MEMORY, uid, stamp, head, None)
        mid = self._materialize_memory(conn, uid, head if wins else None, out)
        if mid is not None and record.versions:
            self._merge_versions(conn, mid, record.versions)
        if self._undone and mid is not None:
            texts = [str(head.get("text") or ""), *(v.text for v in record.versions)]
            lost.restored(conn, uid, texts)

    def _materialize_memory(
        self, conn: Connection, uid: str, head: Body | None, out: Applied
    ) -> int | None:
        if head is None:
            return records.id_of(conn, "memories", uid)
        choice = head.get("care_choice")
        context = records.record(conn, CONTEXT, uid)
        arrived = ArrivedMemory(
            text=str(head.get("text") or ""),
            kind=head.get("kind") or "fact",
            importance=importance_of(head.get("importance")),
            pinned=bool(head.get("pinned")),
            source=head.get("source") or "user",
            source_message_id=records.id_of(conn, "messages", head.get("source_message")),
            created_at=head.get("created_at") or head.get("updated_at") or "",
            updated_at=head.get("updated_at") or head.get("created_at") or "",
            valid_from=head.get("valid_from"),
            valid_until=head.get("valid_until"),
            care_choice=None if choice is None else int(bool(choice)),
            origin=None if head.get("origin") == self.device else head.get("origin"),
            context=(context.body or {}).get("context") if context else None,
            space=self.profile.spaces.arrived_id(conn, head.get("space")),
        )
        mid, new = self.profile.memories.put_arrived(conn, uid, arrived)
        if new:
            self._link_target(conn, uid, mid)
            out.new_memories.add(mid)
        out.memories.add(mid)
        return mid

    def _merge_versions(self, conn: Connection, mid: int, versions: Iterable[Version]) -> None:
        here = [
            Version(r[2], r[3], None, r[4], r[5], r[6], r[7], r[8], r[9], r[10], r[0], r[1])
            for r in conn.execute(
                "SELECT sync_clock, sync_device, action, actor, text, kind, importance, pinned, "
                "valid_from, valid_until, changed_at FROM memory_history WHERE memory_id = ? "
                "AND sync_clock IS NOT NULL",
                (mid,),
            ).fetchall()
        ]
        added, newest = merge.new_versions(here, versions)
        capture.witness(conn, newest)
        self.profile.memories.add_arrived_versions(
            conn,
            mid,
            [
                ArrivedVersion(
                    action=v.action,
                    actor=v.actor,
                    message_id=records.id_of(conn, "messages", v.message),
                    text=v.text,
                    kind=v.kind,
                    importance=v.importance,
                    pinned=v.pinned,
                    valid_from=v.valid_from,
                    valid_until=v.valid_until,
                    changed_at=v.changed_at,
                    clock=v.clock,
                    device=v.device,
                )  # fmt: skip
                for v in added
            ],
        )

    def _materialize_conversation(
        self, conn: Connection, uid: str, body: Body, out: Applied
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
        space = self.profile.spaces.arrived_id(conn, body.get("space"))
        arrived = ArrivedConversation(*fields, origin=origin, origin_key=key, space=space)
        out.conversations.add(
            self.profile.conversations.put_arrived_conversation(conn, uid, arrived)
        )

    def _materialize_waiting(self, conn: Connection, out: Applied) -> None:
        """Make the messages that arrived (or waited for what they follow) rows of their
        conversations, each after the message it follows, so the conversation reads in
        order here too; those whose conversation or earlier message has not arrived wait."""
        rows = conn.execute(
            "SELECT uid, body FROM sync_records WHERE kind = 'message' AND waiting = 1 "
            "ORDER BY clock, device"
        ).fetchall()
        bodies = {uid: records.load(text) or {} for uid, text in rows}
        # a message after the one it follows, whatever order their stamps came in (a
        # conversation's messages are often stamped together, in any order)
        depth: dict[str, int] = {}
        for start in bodies:
            chain = []
            at: object = start
            while isinstance(at, str) and at in bodies and at not in depth and at not in chain:
                chain.append(at)
                at = bodies[at].get("parent")
            base = depth.get(at, -1) if isinstance(at, str) else -1
            for n, item in enumerate(reversed(chain)):
                depth[item] = base + 1 + n
        touched: set[int] = set()
        placed: set[str] = set()
        conversations: dict[object, int | None] = {}
        to_index: list[tuple[int, str]] = []  # new messages: full-text indexed together
        for uid in sorted(bodies, key=lambda u: depth.get(u, 0)):
            body = bodies[uid]
            conv = body.get("conversation")
            if conv not in conversations:
                conversations[conv] = records.id_of(conn, "conversations", conv)
            cid = conversations[conv]
            if cid is None:
                continue
            parent_uid = body.get("parent")
            parent = records.id_of(conn, "messages", parent_uid)
            if parent_uid and parent is None and not records.gone(conn, MESSAGE, parent_uid):
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

    def _materialize_message(
        self,
        conn: Connection,
        uid: str,
        cid: int,
        parent: int | None,
        body: Body,
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

    def _link_target(self, conn: Connection, uid: str, rowid: int) -> None:
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
