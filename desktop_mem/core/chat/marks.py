"""Where each user message stands with learning: to be learned from, learned, failed
(and how often), or waiting to be read for facts after an import. The marks live on the
messages, so the store that owns the messages writes them, inside the caller's
transaction, and announces LearningChanged once it commits."""

from __future__ import annotations

from typing import TYPE_CHECKING

from desktop_mem.core.events import LearningChanged

if TYPE_CHECKING:
    from desktop_mem.core.db.connection import Connection
    from desktop_mem.core.db.database import Database
    from desktop_mem.core.events import Events


class LearningMarks:
    """The learning half of ConversationStore."""

    db: Database
    events: Events

    def _learning_changed(self, _ids: tuple[int, ...]) -> None:
        self.events.emit(LearningChanged())

    def mark_to_learn(self, conn: Connection, user_id: int) -> None:
        """This exchange is to be learned from (before learning starts)."""
        conn.execute(
            "UPDATE messages SET learn_state = 'pending' WHERE id = ? AND role = 'user'",
            (user_id,),
        )
        self.db.after_commit(self._learning_changed)

    def mark_learned(self, conn: Connection, user_id: int) -> None:
        """Learned from (or read for facts): nothing more to do with it."""
        conn.execute(
            "UPDATE messages SET learn_state = '', learn_error = NULL WHERE id = ?", (user_id,)
        )
        self.db.after_commit(self._learning_changed)

    def mark_failed(
        self, conn: Connection, user_id: int, reason: str, counted: int, most: int
    ) -> None:
        """Learning from it failed for `reason`; `counted` (0: the model server was away,
        which is no attempt) more attempts, and past `most` it is given up on."""
        conn.execute(
            "UPDATE messages SET learn_attempts = learn_attempts + ?, learn_error = ?, "
            "learn_state = CASE WHEN learn_attempts + ? >= ? THEN 'failed' ELSE 'pending' "
            "END WHERE id = ?",
            (counted, reason, counted, most, user_id),
        )
        self.db.after_commit(self._learning_changed)
