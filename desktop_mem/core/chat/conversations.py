"""Conversations and their messages: the recall tier, stored encrypted in the profile.

A conversation is deleted the way a memory is: its messages, their full-text entries,
vectors and the record of which memories each answer used are purged in one
transaction, and the freed pages are overwritten. Memories that came from a deleted
message stay (the user decides about those in the memory browser); they just lose
the link to it.
"""

from __future__ import annotations

import builtins
import json
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from desktop_mem.core import textproc
from desktop_mem.core.chat.arrived import ArrivedConversations
from desktop_mem.core.chat.given import Given
from desktop_mem.core.chat.marks import LearningMarks
from desktop_mem.core.chat.message_search import MessageSearch
from desktop_mem.core.chat.records import (
    MESSAGE_COLUMNS,
    Conversation,
    Message,
    MessageHit,
    RecalledMessage,
    UsedMemory,
)
from desktop_mem.core.chat.versions import SHOWN, Versions
from desktop_mem.core.db.connection import Connection
from desktop_mem.core.db.database import id_chunks
from desktop_mem.core.db.vectors import MESSAGES, VectorIndex
from desktop_mem.core.errors import InvalidInput, NotFound, UsageError
from desktop_mem.core.events import Events
from desktop_mem.core.memory.spaces import EVERY, Scope, check_space
from desktop_mem.core.memory.store import MemoryStore, now_iso, parse_when, quoting
from desktop_mem.core.models.embed import Embedder
from desktop_mem.core.search.chance import Reference
from desktop_mem.core.search.relevance import RelevanceRule

if TYPE_CHECKING:
    from desktop_mem.core.db.database import Database

TITLE_CHARS = 60
ROLES = ("system", "user", "assistant")
STATUSES = ("complete", "stopped", "error")
# what was found in messages (facts waiting for review, core/chat/proposals.py) goes
# with them: called inside the transaction that purges them, with their ids (None: all)
ForgetFound = Callable[[Connection, Sequence[int] | None], None]

__all__ = [  # the records, importable from here as before
    "SHOWN", "Conversation", "ConversationStore", "Message", "MessageHit", "RecalledMessage",
    "UsedMemory", "title_from",
]  # fmt: skip


_CONVERSATION = (
    "c.id, c.title, c.model, c.created_at, c.updated_at, "
    "(SELECT count(*) FROM messages m WHERE m.conversation_id = c.id AND m.shown = 1), "
    "c.pinned, c.title_source, c.origin, c.space_id"
)


def _conversation(row: Sequence[Any]) -> Conversation:
    cid, title, model, created, updated, count, pinned, source, origin, space = row
    return Conversation(
        cid, title, model, created, updated, count, bool(pinned), source, origin, space
    )


def title_from(text: str) -> str:
    return textproc.shorten(textproc.normalize(text).split("\n", 1)[0], TITLE_CHARS)


class ConversationStore(ArrivedConversations, LearningMarks, Versions, MessageSearch, Given):
    def __init__(
        self,
        db: Database,
        embedder: Embedder | None = None,
        reference: Reference | None = None,
        rule: RelevanceRule | None = None,
        memories: MemoryStore | None = None,
        *,
        forget_found: ForgetFound | None = None,
        events: Events,
    ) -> None:
        self.db = db
        self.forget_found = forget_found
        self.embedder = embedder
        self.index = VectorIndex(db, MESSAGES)
        self.reference = reference or Reference(db)
        self.rule = rule or RelevanceRule()
        # the memories learned from these messages: a message that goes takes the
        # context it lent them (core/memory/store.py: forget_context)
        self.memories = memories
        self.events = events  # each committed change is announced

    def _conversations_of(self, message_ids: Sequence[int]) -> set[int]:
        found: set[int] = set()
        for chunk, marks in id_chunks(message_ids):
            found |= {
                r[0]
                for r in self.db.query(
                    f"SELECT DISTINCT conversation_id FROM messages WHERE id IN ({marks})", chunk
                )
            }
        return found

    # -- conversations ---------------------------------------------------------------

    def create(
        self, title: str = "", model: str | None = None, space: int | None = None
    ) -> Conversation:
        """A new conversation in a space (None: the shared space)."""
        stamp = now_iso()
        with self.db.transaction() as conn:
            cur = conn.execute(
                "INSERT INTO conversations(title, model, created_at, updated_at, space_id) "
                "VALUES (?, ?, ?, ?, ?)",
                (title_from(title) if title else "", model, stamp, stamp, space),
            )
            cid = int(cur.lastrowid)
        self.events.conversations("added", [cid])
        return self.get(cid)

    def get(self, conversation_id: int) -> Conversation:
        rows = self.db.query(
            f"SELECT {_CONVERSATION} FROM conversations c WHERE c.id = ?",
            (conversation_id,),
        )
        if not rows:
            raise NotFound(
                f"There is no conversation {conversation_id}: see `desktop-mem conversations list`.",
                reason="conversation_gone",
            )
        return _conversation(rows[0])

    def list(
        self, limit: int | None = None, offset: int = 0, scope: Scope = EVERY
    ) -> list[Conversation]:
        """The conversations, pinned first, then the most recent; those of the scope's
        spaces (every one by default: the person's own list)."""
        within, in_scope = scope.where("c.space_id")
        sql = (
            f"SELECT {_CONVERSATION} FROM conversations c WHERE {within} "
            "ORDER BY c.pinned DESC, c.updated_at DESC, c.id DESC"
        )
        params: list[object] = list(in_scope)
        if limit is not None:
            sql += " LIMIT ? OFFSET ?"
            params += [limit, offset]
        return [_conversation(r) for r in self.db.query(sql, params)]

    def rename(self, conversation_id: int, title: str) -> Conversation:
        title = textproc.normalize(title)
        if not title:
            raise InvalidInput("A conversation title cannot be empty: type a few words.")
        self.get(conversation_id)
        with self.db.transaction() as conn:
            conn.execute(
                "UPDATE conversations SET title = ?, title_source = 'user' WHERE id = ?",
                (title[:200], conversation_id),
            )
        self.events.conversations("changed", [conversation_id])
        return self.get(conversation_id)

    def suggest_title(self, conversation_id: int, title: str) -> bool:
        """The model's title for a conversation, unless the user named it (or it is
        gone). True when it was set."""
        title = textproc.shorten(textproc.plain_text(title).strip(" \"'“”「」《》.。"), 80)
        if not title:
            return False
        with self.db.transaction() as conn:
            cur = conn.execute(
                "UPDATE conversations SET title = ?, title_source = 'model' "
                "WHERE id = ? AND title_source <> 'user'",
                (title, conversation_id),
            )
            named = cur.rowcount > 0
        if named:
            self.events.conversations("changed", [conversation_id])
        return named

    def clear_title(self, conversation_id: int) -> None:
        """Forget a conversation's title (it named what was forgotten): the list shows
        its first words until it gets another."""
        with self.db.transaction() as conn:
            conn.execute(
                "UPDATE conversations SET title = '', title_source = '' WHERE id = ?",
                (conversation_id,),
            )
        self.events.conversations("changed", [conversation_id])

    def move(self, conversation_id: int, space: int | None) -> Conversation:
        """Move a conversation, with its messages, to a space (None: the shared space).
        The memories learned from it stay where they are: each moves on its own."""
        current = self.get(conversation_id)
        if current.space == space:
            return current
        with self.db.transaction() as conn:
            check_space(conn, space)
            conn.execute(
                "UPDATE conversations SET space_id = ? WHERE id = ?", (space, conversation_id)
            )
        self.events.conversations("changed", [conversation_id])
        return self.get(conversation_id)

    def set_pinned(self, conversation_id: int, pinned: bool) -> Conversation:
        """Pinned conversations stay at the top of the list."""
        self.get(conversation_id)
        with self.db.transaction() as conn:
            conn.execute(
                "UPDATE conversations SET pinned = ? WHERE id = ?", (int(pinned), conversation_id)
            )
        self.events.conversations("changed", [conversation_id])
        return self.get(conversation_id)

    def delete(self, conversation_id: int, memories: MemoryStore | None = None) -> int:
        """Purge a conversation and everything stored about its messages, including the
        context its messages lent to memories learned from them (`memories`; see
        `context_lent`). Returns how many messages went."""
        self.get(conversation_id)
        ids = self._message_ids(conversation_id)
        lent = memories if memories is not None else self.memories
        if lent is not None:
            lent.forget_context(ids)
        with self.db.transaction() as conn:
            self._purge_messages(conn, ids)
            conn.execute("DELETE FROM conversations WHERE id = ?", (conversation_id,))
        self.db.checkpoint()
        self.events.conversations("removed", [conversation_id])
        return len(ids)

    def learned_from(self, message_ids: Sequence[int]) -> dict[int, builtins.list[tuple[str, str]]]:
        """What each user message taught (action, text), as its memories' history
        recorded it, in the words of extract.Change: "added", "updated", "invalidated"."""
        out: dict[int, builtins.list[tuple[str, str]]] = {}
        for ids, marks in id_chunks(message_ids):
            for mid, action, text in self.db.query(
                "SELECT message_id, action, text FROM memory_history WHERE message_id IN "
                f"({marks}) AND action IN ('created', 'updated', 'invalidated') "
                "ORDER BY message_id, changed_at",
                ids,
            ):
                out.setdefault(mid, []).append(("added" if action == "created" else action, text))
        return out

    def delete_messages(self, ids: Sequence[int], memories: MemoryStore | None = None) -> int:
        """Purge single messages (a "forget ..." the user confirmed), with the context they
        lent to memories. Returns how many existed and went."""
        wanted = sorted({int(i) for i in ids})
        if not wanted:
            return 0
        marks = ",".join("?" * len(wanted))
        found = [
            r[0] for r in self.db.query(f"SELECT id FROM messages WHERE id IN ({marks})", wanted)
        ]
        if not found:
            return 0
        lent = memories if memories is not None else self.memories
        if lent is not None:
            lent.forget_context(found)
        touched = self._conversations_of(found)
        with self.db.transaction() as conn:
            self._purge_messages(conn, found)
        self.db.checkpoint()
        self.events.conversations("changed", touched)
        return len(found)

    def exclude_messages(self, ids: Sequence[int], memories: MemoryStore | None = None) -> int:
        """Keep messages to read but leave them out of every prompt (a "forget ..." whose
        earlier messages the user keeps): out of the full-text and vector indexes, so no
        recall finds them, marked so no history sends them and no re-index brings them
        back; the context they lent to memories goes. Returns how many."""
        wanted = sorted({int(i) for i in ids})
        found = []
        for chunk, marks in id_chunks(wanted):
            found += [
                r[0]
                for r in self.db.query(
                    f"SELECT id FROM messages WHERE forgotten = 0 AND id IN ({marks})", chunk
                )
            ]
        if not found:
            return 0
        lent = memories if memories is not None else self.memories
        if lent is not None:
            lent.forget_context(found)
        with self.db.transaction() as conn:
            self.index.remove(conn, found)
            for mid in found:
                conn.execute("DELETE FROM messages_fts WHERE rowid = ?", (mid,))
                conn.execute("UPDATE messages SET forgotten = 1 WHERE id = ?", (mid,))
            conn.execute("INSERT INTO messages_fts(messages_fts) VALUES ('optimize')")
        self.db.checkpoint()
        self.events.conversations("changed", self._conversations_of(found))
        return len(found)

    def exclude_all(self, memories: MemoryStore | None = None) -> int:
        """Every message kept, none in a prompt again ("Forget everything", keeping the
        conversations to read). Returns how many were left out."""
        ids = [r[0] for r in self.db.query("SELECT id FROM messages WHERE forgotten = 0")]
        return self.exclude_messages(ids, memories)

    def _message_ids(self, conversation_id: int) -> builtins.list[int]:
        return [
            r[0]
            for r in self.db.query(
                "SELECT id FROM messages WHERE conversation_id = ?", (conversation_id,)
            )
        ]

    def context_lent(self, conversation_id: int) -> int:
        """How many memories quote this conversation in their context (what deleting it
        also removes, for the confirmation)."""
        return len(quoting(self.db, self._message_ids(conversation_id)))

    def delete_all(self, vacuum: bool = True) -> int:
        """Purge every conversation, then rebuild the file (VACUUM, unless the caller
        does it once for more) so no freed page keeps a message. Returns how many
        messages went."""
        count = int(self.db.query("SELECT count(*) FROM messages")[0][0])
        with self.db.transaction() as conn:
            conn.execute("DELETE FROM message_memories")
            conn.execute("DELETE FROM message_recalls")
            conn.execute("DELETE FROM message_documents")
            if self.forget_found is not None:
                self.forget_found(conn, None)
            self.index.drop_all(conn)
            conn.execute("INSERT INTO messages_fts(messages_fts) VALUES ('delete-all')")
            conn.execute("DELETE FROM messages")
            conn.execute("DELETE FROM conversations")
        if vacuum:
            self.db.execute("VACUUM")
            self.db.checkpoint()
        self.events.conversations("removed")
        return count

    def _purge_messages(self, conn: Connection, ids: Sequence[int]) -> None:
        touched = {
            r[0]
            for chunk, marks in id_chunks(ids)
            for r in conn.execute(
                f"SELECT DISTINCT conversation_id FROM messages WHERE id IN ({marks})", chunk
            ).fetchall()
        }
        self.index.remove(conn, ids)
        if self.forget_found is not None:  # a fact found in it and not yet decided
            self.forget_found(conn, ids)
        for mid in ids:
            # what followed it follows what it followed: the conversation stays one tree
            conn.execute(
                "UPDATE messages SET parent_id = (SELECT parent_id FROM messages WHERE id = ?) "
                "WHERE parent_id = ?",
                (mid, mid),
            )
            conn.execute("DELETE FROM messages_fts WHERE rowid = ?", (mid,))
            conn.execute("DELETE FROM message_memories WHERE message_id = ?", (mid,))
            conn.execute("DELETE FROM message_documents WHERE message_id = ?", (mid,))
            conn.execute(
                "DELETE FROM message_recalls WHERE message_id = ? OR recalled_id = ?", (mid, mid)
            )
            conn.execute("DELETE FROM messages WHERE id = ?", (mid,))
        for cid in touched:  # a deleted version may have been the one shown
            self._mark_shown(conn, cid)
        if ids:  # as for memories: leave no deleted term in an FTS5 leaf page
            conn.execute("INSERT INTO messages_fts(messages_fts) VALUES ('optimize')")

    # -- messages ----------------------------------------------------------------------

    def add_message(
        self,
        conversation_id: int,
        role: str,
        content: str,
        *,
        status: str = "complete",
        model: str | None = None,
        prompt_tokens: int | None = None,
        error: str | None = None,
        used: Sequence[UsedMemory] = (),
        recalled: Sequence[RecalledMessage] = (),
        created_at: str | None = None,
        documents: Sequence[Any] = (),
        follows: int | None = SHOWN,
        about: Sequence[Any] = (),
    ) -> Message:
        """Store a message; `used`, `recalled` and `documents` are the memories, earlier
        messages and passages (documents.PassageHit) an answer was given, in order, as the
        turn's plan holds them, and `about` the lines of the profile (AboutLine); `created_at` a date for imported history (default now).
        `follows`: the message it comes after (default: the last one shown; None: it
        opens the conversation). Following one that already has a next message makes
        it another version of that one, and the version shown."""
        if role not in ROLES or status not in STATUSES:
            raise UsageError(f"Unknown message role or status: {role}/{status}.")
        conv = self.get(conversation_id)
        stamp = parse_when(created_at, "message date") if created_at else now_iso()
        with self.db.transaction() as conn:
            another_version = follows != SHOWN
            if follows == SHOWN:
                follows = self._last_shown(conversation_id)
            conn.execute(
                "UPDATE messages SET chosen = 0 WHERE conversation_id = ? AND parent_id IS ?",
                (conversation_id, follows),
            )
            cur = conn.execute(
                "INSERT INTO messages(conversation_id, role, content, status, model, created_at, "
                "prompt_tokens, error, parent_id, chosen) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1)",
                (conversation_id, role, content, status, model, stamp, prompt_tokens, error,
                 follows),
            )  # fmt: skip
            mid = int(cur.lastrowid)
            if another_version:  # what the conversation reads now goes through it
                self._mark_shown(conn, conversation_id)
            conn.execute(
                "INSERT INTO messages_fts(rowid, content) VALUES (?, ?)",
                (mid, textproc.fts_document(content)),
            )
            # what was deleted while the answer streamed is not recorded as given
            conn.executemany(
                "INSERT OR IGNORE INTO message_memories(message_id, memory_id, rank, score, "
                "why, weak) SELECT ?, id, ?, ?, ?, ? FROM memories WHERE id = ?",
                [
                    (mid, rank, float(u.score), u.why, int(u.weak), u.memory_id)
                    for rank, u in enumerate(used, 1)
                ],
            )
            conn.executemany(
                "INSERT OR IGNORE INTO message_recalls(message_id, recalled_id, rank, score, weak) "
                "SELECT ?, id, ?, ?, ? FROM messages WHERE id = ?",
                [
                    (mid, rank, float(r.score), int(r.weak), r.message_id)
                    for rank, r in enumerate(recalled, 1)
                ],
            )
            conn.executemany(
                "INSERT OR IGNORE INTO message_documents(message_id, chunk_id, rank, score, weak) "
                "SELECT ?, id, ?, ?, ? FROM doc_chunks WHERE id = ?",
                [
                    (mid, rank, float(p.score), int(p.weak), p.chunk_id)
                    for rank, p in enumerate(documents, 1)
                ],
            )
            # a line of the profile removed while the answer streamed is not recorded
            conn.executemany(
                "INSERT OR IGNORE INTO about_given(message_id, line_id, rank) "
                "SELECT ?, id, ? FROM about_lines WHERE id = ?",
                [(mid, rank, ln.id) for rank, ln in enumerate(about, 1)],
            )
            title = conv.title or (title_from(content) if role == "user" else "")
            conn.execute(
                "UPDATE conversations SET updated_at = ?, title = ? WHERE id = ?",
                (stamp, title, conversation_id),
            )
        self.events.conversations("changed", [conversation_id])
        return self.message(mid)

    def add_messages(
        self, conversation_id: int, items: Sequence[tuple[str, str, str | None]]
    ) -> builtins.list[int]:
        """Store many (role, text, date) messages in one transaction (imported history:
        all or nothing). They are embedded later by `index_vectors`."""
        conv = self.get(conversation_id)
        rows = []
        for role, content, created in items:
            if role not in ROLES:
                raise UsageError(f"Unknown message role: {role}.")
            rows.append(
                (role, content, parse_when(created, "message date") if created else now_iso())
            )
        ids: list[int] = []
        with self.db.transaction() as conn:
            follows = self._last_shown(conversation_id)
            for role, content, stamp in rows:
                cur = conn.execute(
                    "INSERT INTO messages(conversation_id, role, content, status, created_at, "
                    "parent_id) VALUES (?, ?, ?, 'complete', ?, ?)",
                    (conversation_id, role, content, stamp, follows),
                )
                mid = follows = int(cur.lastrowid)
                conn.execute(
                    "INSERT INTO messages_fts(rowid, content) VALUES (?, ?)",
                    (mid, textproc.fts_document(content)),
                )
                ids.append(mid)
            if rows:
                first_user = next((c for r, c, _ in rows if r == "user"), "")
                conn.execute(
                    "UPDATE conversations SET updated_at = ?, title = ? WHERE id = ?",
                    (rows[-1][2], conv.title or title_from(first_user), conversation_id),
                )
        self.events.conversations("changed", [conversation_id])
        return ids

    def message(self, message_id: int) -> Message:
        rows = self.db.query(f"SELECT {MESSAGE_COLUMNS} FROM messages WHERE id = ?", (message_id,))
        if not rows:
            raise NotFound(f"There is no message {message_id}.")
        msg = Message(*rows[0])
        msg.used = self.used_memories(message_id)
        msg.recalled = self._recalled_for([message_id]).get(message_id, [])
        msg.about = self._about_for([message_id]).get(message_id, [])
        return msg

    def messages(self, conversation_id: int) -> builtins.list[Message]:
        """The conversation as it is shown: from its first message, each next one the
        version chosen (Regenerate and Edit keep the others; see `versions`)."""
        self.get(conversation_id)
        msgs = [
            Message(*r)
            for r in self.db.query(
                f"SELECT {MESSAGE_COLUMNS} FROM messages WHERE conversation_id = ? AND shown = 1 "
                "ORDER BY id",
                (conversation_id,),
            )
        ]
        used = self._used_for([m.id for m in msgs])
        recalled = self._recalled_for([m.id for m in msgs])
        about = self._about_for([m.id for m in msgs])
        for m in msgs:
            m.used = used.get(m.id, [])
            m.recalled = recalled.get(m.id, [])
            m.about = about.get(m.id, [])
        return msgs

    def delete_from(self, conversation_id: int, message_id: int) -> int:
        """Remove a message and every later one in its conversation (regenerate, or
        edit-and-resend). Returns how many went."""
        ids = [
            r[0]
            for r in self.db.query(
                "SELECT id FROM messages WHERE conversation_id = ? AND id >= ? ORDER BY id",
                (conversation_id, message_id),
            )
        ]
        with self.db.transaction() as conn:
            self._purge_messages(conn, ids)
        self.events.conversations("changed", [conversation_id])
        return len(ids)

    # -- export ------------------------------------------------------------------------

    def export(self, conversation_id: int, fmt: str = "md") -> str:
        conv = self.get(conversation_id)
        msgs = self.messages(conversation_id)
        if fmt == "json":
            return json.dumps(
                {
                    "format": "desktop-mem/conversation",
                    "version": 1,
                    "conversation": conv.to_dict(),
                    "messages": [m.to_dict() for m in msgs],
                },
                ensure_ascii=False,
                indent=2,
            )
        if fmt != "md":
            raise UsageError(f"Unknown format '{fmt}': use md or json.")
        lines = [f"# {conv.title or 'Conversation'}", "", f"_{conv.created_at}_", ""]
        for m in msgs:
            who = {"user": "You", "assistant": "Assistant", "system": "System"}[m.role]
            note = "" if m.status == "complete" else f" ({m.status})"
            lines += [f"## {who}{note}", "", m.content, ""]
            if m.used:
                lines += [
                    "> Memories used: " + "; ".join(u.text or "(deleted)" for u in m.used),
                    "",
                ]
        return "\n".join(lines)
