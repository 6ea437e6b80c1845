"""Answer versions: a conversation is a tree (Regenerate adds another answer to the
same question, Edit another question after the same answer; the earlier versions
stay), and one path through it, the chosen version at each step, is what the
conversation reads and the model sees. The versions part of `ConversationStore`."""

from __future__ import annotations

import builtins
from typing import TYPE_CHECKING, Any

from desktop_mem.core.db.database import id_chunks
from desktop_mem.core.errors import NotFound
from desktop_mem.core.events import Events

if TYPE_CHECKING:
    from desktop_mem.core.db.connection import Connection
    from desktop_mem.core.db.database import Database

SHOWN = -1  # add_message: after the last message shown
Node = tuple[int, bool, str]  # a message in a conversation's tree: id, chosen, role


class Versions:
    """Needs `db`, `events` and `message(id)` of the store it is part of."""

    db: Database
    events: Events

    def message(self, message_id: int) -> Any:
        raise NotImplementedError

    def _tree(self, conversation_id: int) -> dict[int | None, builtins.list[Node]]:
        """Each message's next messages (id, chosen, role), in order; None: the first."""
        rows = self.db.query(
            "SELECT id, parent_id, chosen, role FROM messages WHERE conversation_id = ? "
            "ORDER BY id",
            (conversation_id,),
        )
        known = {r[0] for r in rows}
        children: dict[int | None, list[Node]] = {}
        for mid, parent, chosen, role in rows:
            node = (mid, bool(chosen), role)
            children.setdefault(parent if parent in known else None, []).append(node)
        return children

    @staticmethod
    def _siblings(kids: builtins.list[Node], mid: int) -> builtins.list[int]:
        """The versions of a message: what follows the same message in the same role."""
        role = next(r for m, _, r in kids if m == mid)
        return [m for m, _, r in kids if r == role]

    def _last_shown(self, conversation_id: int) -> int | None:
        """The last message shown (a message always comes after the one it follows, so
        the path's last is its newest)."""
        rows = self.db.query(
            "SELECT max(id) FROM messages WHERE conversation_id = ? AND shown = 1",
            (conversation_id,),
        )
        return rows[0][0] if rows else None

    def _mark_shown(self, conn: Connection, conversation_id: int) -> None:
        """Mark the messages on the path of chosen versions as the ones shown."""
        path = self._path(conversation_id)
        conn.execute("UPDATE messages SET shown = 0 WHERE conversation_id = ?", (conversation_id,))
        for ids, marks in id_chunks(path):
            conn.execute(f"UPDATE messages SET shown = 1 WHERE id IN ({marks})", ids)

    def _path(
        self, conversation_id: int, children: dict[int | None, builtins.list[Node]] | None = None
    ) -> builtins.list[int]:
        """The ids shown: from the first message, at each step the chosen next one (the
        newest chosen; the newest, when none is). `children`: the tree already read."""
        if children is None:
            children = self._tree(conversation_id)
        path: list[int] = []
        node: int | None = None
        while node in children:
            kids = children[node]
            chosen = [mid for mid, c, _ in kids if c]
            node = max(chosen) if chosen else kids[-1][0]
            path.append(node)
        return path

    def versions(self, conversation_id: int) -> dict[int, tuple[int, int]]:
        """For each message shown: which version it is (1-based) and how many there are
        (answers regenerated, questions edited)."""
        # one read of the tree: a message deleted meanwhile ("forget …" while an answer
        # ends) must not leave the path naming a message the tree no longer holds
        children = self._tree(conversation_id)
        out: dict[int, tuple[int, int]] = {}
        parent: int | None = None
        for mid in self._path(conversation_id, children):
            siblings = self._siblings(children.get(parent, []), mid)
            out[mid] = (siblings.index(mid) + 1, len(siblings))
            parent = mid
        return out

    def parent_of(self, message_id: int) -> int | None:
        rows = self.db.query("SELECT parent_id FROM messages WHERE id = ?", (message_id,))
        if not rows:
            raise NotFound(f"There is no message {message_id}.")
        return rows[0][0]

    def other_version(self, message_id: int, step: int) -> int | None:
        """The version `step` away from this message (-1 the one before, +1 the one
        after), or None when there is none."""
        msg = self.message(message_id)
        parent = self.parent_of(message_id)
        siblings = self._siblings(self._tree(msg.conversation_id).get(parent, []), message_id)
        at = siblings.index(message_id) + step
        return siblings[at] if 0 <= at < len(siblings) else None

    def choose(self, message_id: int) -> None:
        """Show this version of a message (and below it, the versions chosen there)."""
        msg = self.message(message_id)
        parent = self.parent_of(message_id)
        with self.db.transaction() as conn:
            conn.execute(
                "UPDATE messages SET chosen = (id = ?) WHERE conversation_id = ? AND parent_id IS ?",
                (message_id, msg.conversation_id, parent),
            )
            self._mark_shown(conn, msg.conversation_id)
        self.events.conversations("changed", [msg.conversation_id])
