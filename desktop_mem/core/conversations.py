"""Conversations and their messages: the recall tier, stored encrypted in the profile.

A conversation is deleted the way a memory is: its messages, their full-text entries,
vectors and the record of which memories each answer used are purged in one
transaction, and the freed pages are overwritten. Memories that came from a deleted
message stay (the user decides about those in the memory browser); they just lose
the link to it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from desktop_mem.core import textproc
from desktop_mem.core.embed import Embedder
from desktop_mem.core.errors import InvalidInput, ModelServerError, NotFound, UsageError
from desktop_mem.core.memories import now_iso
from desktop_mem.core.vectors import to_blob

TITLE_CHARS = 60
EMBED_CHARS = 4000
ROLES = ("system", "user", "assistant")
STATUSES = ("complete", "stopped", "error")


@dataclass
class Conversation:
    id: int
    title: str
    model: str | None
    created_at: str
    updated_at: str
    messages: int = 0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class UsedMemory:
    memory_id: int
    rank: int
    score: float
    text: str | None  # None once the memory has been deleted

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Message:
    id: int
    conversation_id: int
    role: str
    content: str
    status: str
    model: str | None
    created_at: str
    prompt_tokens: int | None = None
    error: str | None = None
    used: list[UsedMemory] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["used"] = [u.to_dict() for u in self.used]
        return d


@dataclass
class MessageHit:
    message: Message
    conversation_title: str
    score: float
    signals: list[str]


_MSG_COLUMNS = "id, conversation_id, role, content, status, model, created_at, prompt_tokens, error"


def title_from(text: str) -> str:
    line = textproc.normalize(text).split("\n", 1)[0]
    return line if len(line) <= TITLE_CHARS else line[: TITLE_CHARS - 1].rstrip() + "…"


class ConversationStore:
    def __init__(self, db: Any, embedder: Embedder | None = None) -> None:
        self.db = db
        self.embedder = embedder

    # -- conversations ---------------------------------------------------------------

    def create(self, title: str = "", model: str | None = None) -> Conversation:
        stamp = now_iso()
        with self.db.transaction() as conn:
            cur = conn.execute(
                "INSERT INTO conversations(title, model, created_at, updated_at) VALUES (?, ?, ?, ?)",
                (title_from(title) if title else "", model, stamp, stamp),
            )
            cid = int(cur.lastrowid)
        return self.get(cid)

    def get(self, conversation_id: int) -> Conversation:
        rows = self.db.query(
            "SELECT c.id, c.title, c.model, c.created_at, c.updated_at, "
            "(SELECT count(*) FROM messages m WHERE m.conversation_id = c.id) "
            "FROM conversations c WHERE c.id = ?",
            (conversation_id,),
        )
        if not rows:
            raise NotFound(
                f"There is no conversation {conversation_id}: see `desktop-mem conversations list`."
            )
        return Conversation(*rows[0])

    def list(self, limit: int | None = None, offset: int = 0) -> list[Conversation]:
        sql = (
            "SELECT c.id, c.title, c.model, c.created_at, c.updated_at, "
            "(SELECT count(*) FROM messages m WHERE m.conversation_id = c.id) "
            "FROM conversations c ORDER BY c.updated_at DESC, c.id DESC"
        )
        params: list[Any] = []
        if limit is not None:
            sql += " LIMIT ? OFFSET ?"
            params += [limit, offset]
        return [Conversation(*r) for r in self.db.query(sql, params)]

    def rename(self, conversation_id: int, title: str) -> Conversation:
        title = textproc.normalize(title)
        if not title:
            raise InvalidInput("A conversation title cannot be empty: type a few words.")
        self.get(conversation_id)
        with self.db.transaction() as conn:
            conn.execute(
                "UPDATE conversations SET title = ? WHERE id = ?", (title[:200], conversation_id)
            )
        return self.get(conversation_id)

    def delete(self, conversation_id: int) -> int:
        """Purge a conversation and everything stored about its messages. Returns how
        many messages went."""
        self.get(conversation_id)
        ids = [
            r[0]
            for r in self.db.query(
                "SELECT id FROM messages WHERE conversation_id = ?", (conversation_id,)
            )
        ]
        with self.db.transaction() as conn:
            self._purge_messages(conn, ids)
            conn.execute("DELETE FROM conversations WHERE id = ?", (conversation_id,))
        self.db.checkpoint()
        return len(ids)

    def delete_all(self) -> int:
        """Purge every conversation, then rebuild the file (VACUUM) so no freed page
        keeps a message. Returns how many messages went."""
        count = int(self.db.query("SELECT count(*) FROM messages")[0][0])
        with self.db.transaction() as conn:
            conn.execute("DELETE FROM message_memories")
            conn.execute("DELETE FROM message_vectors")
            conn.execute("INSERT INTO messages_fts(messages_fts) VALUES ('delete-all')")
            conn.execute("DELETE FROM messages")
            conn.execute("DELETE FROM conversations")
        with self.db.lock:
            self.db.conn.execute("VACUUM")
        self.db.checkpoint()
        return count

    def _purge_messages(self, conn: Any, ids: Sequence[int]) -> None:
        for mid in ids:
            conn.execute("DELETE FROM messages_fts WHERE rowid = ?", (mid,))
            conn.execute("DELETE FROM message_vectors WHERE message_id = ?", (mid,))
            conn.execute("DELETE FROM message_memories WHERE message_id = ?", (mid,))
            conn.execute("DELETE FROM messages WHERE id = ?", (mid,))
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
        used: Sequence[tuple[int, float]] = (),
        vector: np.ndarray | None = None,
    ) -> Message:
        if role not in ROLES or status not in STATUSES:
            raise UsageError(f"Unknown message role or status: {role}/{status}.")
        conv = self.get(conversation_id)
        stamp = now_iso()
        with self.db.transaction() as conn:
            cur = conn.execute(
                "INSERT INTO messages(conversation_id, role, content, status, model, created_at, "
                "prompt_tokens, error) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (conversation_id, role, content, status, model, stamp, prompt_tokens, error),
            )
            mid = int(cur.lastrowid)
            conn.execute(
                "INSERT INTO messages_fts(rowid, content) VALUES (?, ?)",
                (mid, textproc.fts_document(content)),
            )
            live = (
                {
                    r[0]
                    for r in conn.execute(
                        f"SELECT id FROM memories WHERE id IN ({','.join('?' * len(used))})",
                        [m for m, _ in used],
                    )
                }
                if used
                else set()
            )
            conn.executemany(
                "INSERT OR IGNORE INTO message_memories(message_id, memory_id, rank, score) "
                "VALUES (?, ?, ?, ?)",
                [(mid, m, rank, float(s)) for rank, (m, s) in enumerate(used, 1) if m in live],
            )
            if vector is not None:
                conn.execute(
                    "INSERT INTO message_vectors(message_id, embedding) VALUES (?, ?)",
                    (mid, to_blob(vector)),
                )
            title = conv.title or (title_from(content) if role == "user" else "")
            conn.execute(
                "UPDATE conversations SET updated_at = ?, title = ? WHERE id = ?",
                (stamp, title, conversation_id),
            )
        return self.message(mid)

    def message(self, message_id: int) -> Message:
        rows = self.db.query(f"SELECT {_MSG_COLUMNS} FROM messages WHERE id = ?", (message_id,))
        if not rows:
            raise NotFound(f"There is no message {message_id}.")
        msg = Message(*rows[0])
        msg.used = self.used_memories(message_id)
        return msg

    def messages(self, conversation_id: int) -> list[Message]:
        self.get(conversation_id)
        msgs = [
            Message(*r)
            for r in self.db.query(
                f"SELECT {_MSG_COLUMNS} FROM messages WHERE conversation_id = ? ORDER BY id",
                (conversation_id,),
            )
        ]
        used = self._used_for([m.id for m in msgs])
        for m in msgs:
            m.used = used.get(m.id, [])
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
        return len(ids)

    def used_memories(self, message_id: int) -> list[UsedMemory]:
        return self._used_for([message_id]).get(message_id, [])

    def _used_for(self, message_ids: Sequence[int]) -> dict[int, list[UsedMemory]]:
        out: dict[int, list[UsedMemory]] = {}
        for start in range(0, len(message_ids), 500):
            chunk = list(message_ids[start : start + 500])
            for mid, mem, rank, score, text in self.db.query(
                "SELECT u.message_id, u.memory_id, u.rank, u.score, m.text FROM message_memories u "
                f"LEFT JOIN memories m ON m.id = u.memory_id WHERE u.message_id IN "
                f"({','.join('?' * len(chunk))}) ORDER BY u.message_id, u.rank",
                chunk,
            ):
                out.setdefault(mid, []).append(UsedMemory(mem, rank, score, text))
        return out

    def answers_using(self, memory_id: int, limit: int = 50) -> list[Message]:
        """The answers a memory was given to (its impact), newest first."""
        rows = self.db.query(
            f"SELECT {', '.join('m.' + c.strip() for c in _MSG_COLUMNS.split(','))} "
            "FROM message_memories u JOIN messages m ON m.id = u.message_id "
            "WHERE u.memory_id = ? ORDER BY m.id DESC LIMIT ?",
            (memory_id, limit),
        )
        return [Message(*r) for r in rows]

    # -- search ------------------------------------------------------------------------

    def search(self, query: str, k: int = 10) -> tuple[list[MessageHit], list[str]]:
        """Messages of every conversation, by full text and by meaning (scores fused
        like memory search). Returns the hits and any warnings."""
        query = textproc.normalize(query)
        warnings: list[str] = []
        if not textproc.query_terms(query):  # nothing to search for (punctuation only)
            return [], warnings
        pool = max(30, 3 * k)
        keyword: dict[int, float] = {}
        match = textproc.fts_match(textproc.query_terms(query))
        if match:
            for rowid, s in self.db.query(
                "SELECT rowid, bm25(messages_fts) AS s FROM messages_fts WHERE messages_fts "
                "MATCH ? ORDER BY s LIMIT ?",
                (match, pool),
            ):
                keyword[rowid] = -s
        semantic: dict[int, float] = {}
        if self.embedder is not None and self.db.query("SELECT 1 FROM message_vectors LIMIT 1"):
            try:
                q = self.embedder.embed_one(query)
            except ModelServerError as exc:
                warnings.append(f"{exc} Showing keyword matches only.")
            else:
                dim = len(q)
                for mid, d in self.db.query(
                    "SELECT message_id, vec_distance_cosine(vec_int8(substr(embedding, 5)), "
                    "vec_int8(?)) AS d FROM message_vectors WHERE length(embedding) = ? "
                    "ORDER BY d LIMIT ?",
                    (to_blob(q)[4:], dim + 4, pool),
                ):
                    semantic[mid] = 1.0 - d
        ids = list(dict.fromkeys([*semantic, *keyword]))
        if not ids:
            return [], warnings
        top_kw = max(keyword.values(), default=0.0) or 1.0
        sims = np.array([semantic.get(i, np.nan) for i in ids])
        present = ~np.isnan(sims)
        dense = np.zeros(len(ids))
        if present.any():
            lo, hi = np.nanmin(sims), np.nanmax(sims)
            dense[present] = (sims[present] - lo) / max(hi - lo, 0.25)
        scores = 0.6 * dense + 0.4 * np.array([keyword.get(i, 0.0) / top_kw for i in ids])
        order = np.argsort(-scores)[:k]
        titles = dict(self.db.query("SELECT id, title FROM conversations"))
        hits = []
        for n in order:
            msg = self.message(ids[n])
            signals = [s for s, d in (("keyword", keyword), ("vector", semantic)) if ids[n] in d]
            hits.append(
                MessageHit(msg, titles.get(msg.conversation_id, ""), float(scores[n]), signals)
            )
        return hits, warnings

    def index_vectors(self, message_ids: Sequence[int]) -> int:
        """Embed messages that have no vector yet (run in the background after a turn).
        Returns how many were embedded; a model-server failure leaves them for later."""
        if self.embedder is None or not message_ids:
            return 0
        marks = ",".join("?" * len(message_ids))
        rows = self.db.query(
            f"SELECT m.id, m.content FROM messages m LEFT JOIN message_vectors v "
            f"ON v.message_id = m.id WHERE m.id IN ({marks}) AND v.message_id IS NULL "
            "AND m.content != ''",
            list(message_ids),
        )
        if not rows:
            return 0
        try:
            # the start of a long message says what it is about; embedding models read
            # a few thousand tokens at most, and a 10 MB answer must not be sent whole
            vecs = self.embedder.embed([r[1][:EMBED_CHARS] for r in rows])
        except ModelServerError:
            return 0
        with self.db.transaction() as conn:
            for (mid, _), vec in zip(rows, vecs, strict=True):
                conn.execute(
                    "INSERT OR IGNORE INTO message_vectors(message_id, embedding) "
                    "SELECT id, ? FROM messages WHERE id = ?",
                    (to_blob(vec), mid),
                )
        return len(rows)

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
