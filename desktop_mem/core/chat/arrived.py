"""Conversations and messages written as another computer has them, or as an export
holds them: the store's writes for sync and import.

Sync decides what stands (core/sync/merge.py) and an import what is new
(core/chat/importing.py); the rows are written here, by the store that owns them, inside
the caller's transaction, and announced once it commits.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from desktop_mem.core import textproc

if TYPE_CHECKING:
    from desktop_mem.core.db.connection import Connection
    from desktop_mem.core.db.database import Database
    from desktop_mem.core.db.vectors import VectorIndex
    from desktop_mem.core.events import Events


@dataclass(frozen=True)
class ArrivedConversation:
    title: str
    title_source: str
    pinned: bool
    model: str | None
    created_at: str
    updated_at: str
    origin: str | None = None  # the assistant it was imported from
    origin_key: str | None = None  # its id there (None: another copy keeps it)
    space: int | None = None  # its space here (None: the shared space)


@dataclass(frozen=True)
class ArrivedMessage:
    role: str
    content: str
    status: str
    model: str | None
    created_at: str
    prompt_tokens: int | None
    error: str | None
    parent_id: int | None
    chosen: bool
    forgotten: bool


@dataclass(frozen=True)
class ImportedMessage:
    role: str
    text: str
    created_at: str
    learn_state: str  # TO_PROPOSE: to be read for facts; "": not


# what an answer was given: (answer id, memory id, rank, score, why, weak) and
# (answer id, recalled message id, rank, score, weak)
UsedLink = tuple[int, int, Any, Any, Any, Any]
RecalledLink = tuple[int, int, Any, Any, Any]


class ArrivedConversations:
    """The sync and import half of ConversationStore."""

    db: Database
    events: Events
    index: VectorIndex

    if TYPE_CHECKING:  # the store's own

        def _mark_shown(self, conn: Connection, conversation_id: int) -> None: ...

        def _purge_messages(self, conn: Connection, ids: Sequence[int]) -> None: ...

    # -- announced after the caller's commit --------------------------------------------

    def _added(self, ids: tuple[int, ...]) -> None:
        self.events.conversations("added", ids)

    def _changed(self, ids: tuple[int, ...]) -> None:
        self.events.conversations("changed", ids)

    def _removed(self, ids: tuple[int, ...]) -> None:
        self.events.conversations("removed", ids)

    # -- sync ----------------------------------------------------------------------------

    def put_arrived_conversation(self, conn: Connection, uid: str, c: ArrivedConversation) -> int:
        """Write a conversation as another computer has it (new, or its fields replaced);
        its id."""
        fields = (
            c.title, c.title_source, int(c.pinned), c.model, c.created_at, c.updated_at,
            c.origin, c.origin_key, c.space,
        )  # fmt: skip
        row = conn.execute("SELECT id FROM conversations WHERE uid = ?", (uid,)).fetchone()
        if row is None:
            cur = conn.execute(
                "INSERT INTO conversations(title, title_source, pinned, model, created_at, "
                "updated_at, origin, origin_key, space_id, uid) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (*fields, uid),
            )
            cid = int(cur.lastrowid)
            self.db.after_commit(self._added, [cid])
            return cid
        cid = int(row[0])
        conn.execute(
            "UPDATE conversations SET title = ?, title_source = ?, pinned = ?, model = ?, "
            "created_at = ?, updated_at = ?, origin = ?, origin_key = ?, space_id = ? "
            "WHERE id = ?",
            (*fields, cid),
        )
        self.db.after_commit(self._changed, [cid])
        return cid

    def remove_arrived_conversation(self, conn: Connection, conversation_id: int) -> None:
        """A conversation deleted elsewhere: it and its messages purged, as here."""
        ids = [
            r[0]
            for r in conn.execute(
                "SELECT id FROM messages WHERE conversation_id = ?", (conversation_id,)
            ).fetchall()
        ]
        if ids:
            self._purge_messages(conn, ids)
        conn.execute("DELETE FROM conversations WHERE id = ?", (conversation_id,))
        self.db.after_commit(self._removed, [conversation_id])

    def put_arrived_message(
        self,
        conn: Connection,
        uid: str,
        conversation_id: int,
        m: ArrivedMessage,
        to_index: list[tuple[int, str]],
    ) -> tuple[int, bool]:
        """Write one message as another computer has it. A new one's words go to
        `to_index` (indexed together: `index_texts`); a changed one is indexed again, and
        what it was given is put again by the caller (`link_answers`). Its id, and
        whether it needs a vector (new or its text changed, and in search)."""
        fields = (
            conversation_id, m.role, m.content, m.status, m.model, m.created_at,
            m.prompt_tokens, m.error, m.parent_id, int(m.chosen), int(m.forgotten),
        )  # fmt: skip
        row = conn.execute(
            "SELECT id, content, forgotten FROM messages WHERE uid = ?", (uid,)
        ).fetchone()
        self.db.after_commit(self._changed, [conversation_id])
        if row is None:
            cur = conn.execute(
                "INSERT INTO messages(conversation_id, role, content, status, model, created_at, "
                "prompt_tokens, error, parent_id, chosen, forgotten, uid) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (*fields, uid),
            )
            mid = int(cur.lastrowid)
            if not m.forgotten:
                to_index.append((mid, m.content))
            return mid, not m.forgotten
        mid = int(row[0])
        conn.execute(
            "UPDATE messages SET conversation_id = ?, role = ?, content = ?, status = ?, "
            "model = ?, created_at = ?, prompt_tokens = ?, error = ?, parent_id = ?, "
            "chosen = ?, forgotten = ? WHERE id = ?",
            (*fields, mid),
        )
        searched = False
        if m.forgotten and not row[2]:
            self.unindex(conn, [mid])
        elif row[1] != m.content or (row[2] and not m.forgotten):
            self.unindex(conn, [mid])
            if not m.forgotten:
                self.index_text(conn, mid, m.content)
                searched = True
        # what this answer was given, and the answers that were given this message
        conn.execute("DELETE FROM message_memories WHERE message_id = ?", (mid,))
        conn.execute("DELETE FROM message_recalls WHERE message_id = ?", (mid,))
        return mid, searched

    def link_answers(
        self, conn: Connection, used: Iterable[UsedLink], recalled: Iterable[RecalledLink]
    ) -> None:
        """What answers were given: memories, and earlier messages (each link once)."""
        conn.executemany(
            "INSERT OR IGNORE INTO message_memories(message_id, memory_id, rank, score, why, "
            "weak) VALUES (?, ?, ?, ?, ?, ?)",
            list(used),
        )
        conn.executemany(
            "INSERT OR IGNORE INTO message_recalls(message_id, recalled_id, rank, score, weak) "
            "VALUES (?, ?, ?, ?, ?)",
            list(recalled),
        )

    def purge_rows(self, conn: Connection, ids: Sequence[int]) -> None:
        """Purge messages deleted elsewhere, as `delete_messages` does here."""
        if not ids:
            return
        touched = {
            int(r[0])
            for mid in ids
            for r in conn.execute(
                "SELECT conversation_id FROM messages WHERE id = ?", (mid,)
            ).fetchall()
        }
        self._purge_messages(conn, ids)
        self.db.after_commit(self._changed, sorted(touched))

    def mark_shown(self, conn: Connection, conversation_id: int) -> None:
        self._mark_shown(conn, conversation_id)

    def index_text(self, conn: Connection, message_id: int, content: str) -> None:
        """Index a message written by sync (its vector comes later: `index_vectors`)."""
        conn.execute(
            "INSERT INTO messages_fts(rowid, content) VALUES (?, ?)",
            (message_id, textproc.fts_document(content)),
        )

    def index_texts(self, conn: Connection, items: Sequence[tuple[int, str]]) -> None:
        """Index many messages written by sync at once (a computer joining or catching up
        takes in thousands)."""
        conn.executemany(
            "INSERT INTO messages_fts(rowid, content) VALUES (?, ?)",
            [(mid, textproc.fts_document(content)) for mid, content in items],
        )

    def unindex(self, conn: Connection, ids: Sequence[int]) -> None:
        """Take messages out of search (changed or left out of every prompt elsewhere)."""
        self.index.remove(conn, ids)
        for mid in ids:
            conn.execute("DELETE FROM messages_fts WHERE rowid = ?", (mid,))

    # -- import --------------------------------------------------------------------------

    def add_imported(
        self, conn: Connection, c: ArrivedConversation, messages: Sequence[ImportedMessage]
    ) -> tuple[int, list[int]]:
        """Write a conversation read from an export, in its space (a project's), its
        messages each after the one before; its id and its messages' ids (their vectors
        come after: `index_vectors`)."""
        cur = conn.execute(
            "INSERT INTO conversations(title, model, created_at, updated_at, "
            "title_source, origin, origin_key, space_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (c.title, c.model, c.created_at, c.updated_at, c.title_source, c.origin, c.origin_key,
             c.space),
        )  # fmt: skip
        cid = int(cur.lastrowid)
        ids: list[int] = []
        follows: int | None = None
        for m in messages:
            cur = conn.execute(
                "INSERT INTO messages(conversation_id, role, content, status, "
                "created_at, parent_id, learn_state) VALUES (?, ?, ?, 'complete', ?, ?, ?)",
                (cid, m.role, m.text, m.created_at, follows, m.learn_state),
            )
            follows = int(cur.lastrowid)
            ids.append(follows)
        self.index_texts(conn, [(mid, m.text) for mid, m in zip(ids, messages, strict=True)])
        self.db.after_commit(self._added, [cid])
        return cid, ids
