"""Sleep-time consolidation: the whole-store pass, run by itself when the user is away.

Letta's sleep-time agents reorganise memory between conversations instead of during
them. Here the window asks `SleepSchedule.due()` after it has been idle for a while;
the pass then runs in the background and stops the moment the user types: first the
exchanges that still wait to be learned from (core/chat/learning.py), then the
whole-store pass (Extractor.sleep: duplicates merged, contradictions resolved, every
change a history version that can be undone). The whole-store pass runs at most once
a day, or sooner once enough new memories have come in, and only if something changed
since the last run. The `sleep_consolidation` setting turns it off.

The user has been away for as long as Ollama keeps a model loaded by default (five
minutes): the chat's cached prompt is gone by then anyway, so these calls, which do
not extend the chat's prompt, cost the next turn nothing it would not pay.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from desktop_mem.core.chat.learning import waiting
from desktop_mem.core.settings import setting

if TYPE_CHECKING:
    from desktop_mem.core.db.database import Database

LAST_RUN = "sleep.last_run"  # meta: when a pass last ran to its end (ISO, UTC)
SEEN = "sleep.memories_seen"  # meta: the memories counter's value then


@dataclass(frozen=True)
class SleepSchedule:
    db: Database
    every: timedelta = timedelta(days=1)
    new_memories: int = 20  # this many new since the last pass: run even within the day

    def due(self, now: datetime | None = None) -> bool:
        """A pass is due: exchanges wait to be learned from, or the store is due."""
        if not setting(self.db, "sleep_consolidation"):
            return False
        return self.learning_due() or self.store_due(now)

    def learning_due(self) -> bool:
        return bool(setting(self.db, "auto_memory")) and waiting(self.db).pending > 0

    def store_due(self, now: datetime | None = None) -> bool:
        """The whole-store pass is due (a day since the last, or many new memories)."""
        if not setting(self.db, "sleep_consolidation"):
            return False
        now = now or datetime.now(UTC)
        added = self._created_since()
        if added == 0:
            return False  # nothing new to tidy
        last = self.db.meta_get(LAST_RUN)
        if last is None or added >= self.new_memories:
            return True
        return now - datetime.fromisoformat(last) >= self.every

    def _created_since(self) -> int:
        """Memories added since the last pass (ids only grow)."""
        seen = int(self.db.meta_get(SEEN) or 0)
        return int(self.db.query("SELECT count(*) FROM memories WHERE id > ?", (seen,))[0][0])

    def record(self, now: datetime | None = None) -> None:
        """A pass ran to its end: the next is due a day from now, or after new memories."""
        now = now or datetime.now(UTC)
        newest = self.db.query("SELECT coalesce(max(id), 0) FROM memories")[0][0]
        self.db.meta_set(LAST_RUN, now.astimezone(UTC).isoformat(timespec="seconds"))
        self.db.meta_set(SEEN, str(newest))
