"""What each answer was given, read back: the memories it used (and why), the profile's
lines, and the earlier messages recalled for it; and the answers a memory was given to.
The given part of `ConversationStore`."""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from typing import TYPE_CHECKING

from desktop_mem.core.chat.records import MESSAGE_COLUMNS, Message, RecalledMessage, UsedMemory
from desktop_mem.core.db.database import id_chunks
from desktop_mem.core.memory.about import AboutLine

if TYPE_CHECKING:
    from desktop_mem.core.db.database import Database


class Given:
    """Needs `db` of the store it is part of."""

    db: Database

    def used_memories(self, message_id: int) -> builtins.list[UsedMemory]:
        return self._used_for([message_id]).get(message_id, [])

    def _used_for(self, message_ids: Sequence[int]) -> dict[int, builtins.list[UsedMemory]]:
        out: dict[int, list[UsedMemory]] = {}
        for chunk, marks in id_chunks(message_ids):
            for mid, mem, rank, score, text, why, weak in self.db.query(
                "SELECT u.message_id, u.memory_id, u.rank, u.score, m.text, u.why, u.weak "
                "FROM message_memories u LEFT JOIN memories m ON m.id = u.memory_id "
                f"WHERE u.message_id IN ({marks}) ORDER BY u.message_id, u.rank",
                chunk,
            ):
                out.setdefault(mid, []).append(UsedMemory(mem, rank, score, text, why, bool(weak)))
        return out

    def _about_for(self, message_ids: Sequence[int]) -> dict[int, builtins.list[AboutLine]]:
        """The profile's lines each answer was given that are still there, as they read
        now (a line the user removed, or one gone with a memory, is gone from here)."""
        out: dict[int, list[AboutLine]] = {}
        for chunk, marks in id_chunks(message_ids):
            rows = self.db.query(
                "SELECT g.message_id, l.id, l.text, l.by, "
                "(SELECT group_concat(memory_id) FROM about_cites c WHERE c.line_id = l.id) "
                "FROM about_given g JOIN about_lines l ON l.id = g.line_id "
                f"WHERE g.message_id IN ({marks}) ORDER BY g.message_id, g.rank",
                chunk,
            )
            for mid, line_id, text, by, cites in rows:
                ids = sorted(int(c) for c in str(cites or "").split(",") if c)
                out.setdefault(mid, []).append(AboutLine(line_id, text, by, ids))
        return out

    def _recalled_for(
        self, message_ids: Sequence[int]
    ) -> dict[int, builtins.list[RecalledMessage]]:
        out: dict[int, list[RecalledMessage]] = {}
        for chunk, marks in id_chunks(message_ids):
            for mid, rid, rank, score, cid, role, text, created, weak in self.db.query(
                "SELECT r.message_id, r.recalled_id, r.rank, r.score, m.conversation_id, "
                "m.role, m.content, m.created_at, r.weak FROM message_recalls r "
                "LEFT JOIN messages m ON m.id = r.recalled_id WHERE r.message_id IN "
                f"({marks}) ORDER BY r.message_id, r.rank",
                chunk,
            ):
                out.setdefault(mid, []).append(
                    RecalledMessage(rid, rank, score, cid, role, text, created, bool(weak))
                )
        return out

    def answers_using(self, memory_id: int, limit: int = 50) -> builtins.list[Message]:
        """The answers a memory was given to (its impact), newest first."""
        rows = self.db.query(
            f"SELECT {', '.join('m.' + c.strip() for c in MESSAGE_COLUMNS.split(','))} "
            "FROM message_memories u JOIN messages m ON m.id = u.message_id "
            "WHERE u.memory_id = ? ORDER BY m.id DESC LIMIT ?",
            (memory_id, limit),
        )
        return [Message(*r) for r in rows]
