"""Learning from an exchange, and the exchanges that still wait to be learned from.

Before the write path starts on an exchange, its user message is marked 'pending' in
the database; learning clears the mark. So when it fails (the model server is down,
times out or drops the connection, or answers twice with invalid JSON) or the app stops
half-way, the message says so, and nothing of it was stored: every model call comes
before the first change (core/chat/extract.py). A pending exchange is tried again when
the model answers again (after the next turn, when the window finds the server) and
by the sleep-time pass; after MAX_ATTEMPTS failures it is 'failed' and waits for the
user's Retry. The marks hold reason codes only, never text from the conversation.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from desktop_mem.core.chat.extract import Extractor, Prefix
from desktop_mem.core.chat.records import Learned
from desktop_mem.core.errors import ModelServerError
from desktop_mem.core.events import Events
from desktop_mem.core.memory.spaces import SHARED, Scope

if TYPE_CHECKING:
    from desktop_mem.core.db.connection import Connection
    from desktop_mem.core.db.database import Database

log = logging.getLogger("desktop_mem.learning")

MAX_ATTEMPTS = 3  # failures (the server away does not count) before it waits for Retry
CONTEXT_CHARS = 600  # of the answer before the user's message, kept with a memory
# a failure that is the server's absence, not the exchange's: it does not use an attempt
AWAY = frozenset({"ollama_unreachable", "server_unreachable"})
# what went wrong, by reason code, for the sentence a failure is said with
WHAT_FAILED = {
    "invalid_answer": "the model answered twice with something that is not the JSON asked for",
    "ollama_timeout": "the model server did not answer in time",
    "ollama_unreachable": "the model server could not be reached",
    "server_unreachable": "the model server could not be reached",
    "model_missing": "the chat model is not installed",
}


def failure_sentence(reason: str) -> str:
    """One sentence for a learning failure: what happened, and what happens next."""
    what = WHAT_FAILED.get(reason, "the model server failed on the request")
    hint = (
        ", or choose a model that follows instructions better" if reason == "invalid_answer" else ""
    )
    return (
        f"Nothing was learned from this message yet: {what}. It is tried again once the "
        f"model answers{hint}."
    )


@dataclass
class Exchange:
    """A user message and the answer it got, as learning needs them."""

    user_id: int
    answer_id: int | None
    user: str
    answer: str
    context: str | None  # the assistant's message before the user's
    when: datetime  # when the user said it: "tomorrow" is the day after that


@dataclass
class Waiting:
    """Messages not yet learned from: still tried again, and given up on."""

    pending: int = 0
    failed: int = 0
    reasons: dict[str, int] = field(default_factory=dict)  # the last failure's, counted

    @property
    def total(self) -> int:
        return self.pending + self.failed


def waiting(db: Database) -> Waiting:
    """How many messages wait to be learned from (for `doctor` and the window)."""
    out = Waiting()
    for state, reason, n in db.query(
        "SELECT learn_state, coalesce(learn_error, ''), count(*) FROM messages "
        "WHERE learn_state IN ('pending', 'failed') AND forgotten = 0 "
        "GROUP BY learn_state, learn_error"
    ):
        if state == "pending":
            out.pending += n
        else:
            out.failed += n
        if reason:
            out.reasons[reason] = out.reasons.get(reason, 0) + n
    return out


class Learner:
    def __init__(self, conversations: Any, extractor: Extractor) -> None:
        self.conversations = conversations
        self.extractor = extractor
        self.db = conversations.db
        self.events: Events = conversations.events

    def mark(self, user_id: int) -> None:
        """This exchange is to be learned from (before learning starts)."""
        with self.db.transaction() as conn:
            self.conversations.mark_to_learn(conn, user_id)

    def learn(
        self, exchange: Exchange, prefix: Prefix | None = None, newest: bool = True
    ) -> Learned:
        """Learn from one exchange; never raises. `prefix`: the chat's messages and
        answer the requests go after (`newest`: the exchange is their last one)."""
        try:
            ids = [i for i in (exchange.user_id, exchange.answer_id) if i is not None]
            self.conversations.index_vectors(ids)
            candidates = self.extractor.extract(
                exchange.user, exchange.answer, exchange.when, prefix, newest
            )
            context = exchange.context[-CONTEXT_CHARS:] if exchange.context else None
            changes = (
                self.extractor.consolidate(
                    candidates,
                    exchange.user_id,
                    context,
                    exchange.when,
                    prefix=prefix,
                    scope=self.scope_of(exchange.user_id),
                )  # fmt: skip
                if candidates
                else []
            )
        except ModelServerError as exc:
            self._failed(exchange.user_id, exc.reason)
            return Learned([], failure_sentence(exc.reason), exc.reason, exchange.user_id)
        except Exception as exc:  # noqa: BLE001 - learning must never break the chat
            log.warning("learning from an exchange failed: %s", type(exc).__name__)
            self._failed(exchange.user_id, "learning_error")
            return Learned(
                [], failure_sentence("learning_error"), "learning_error", exchange.user_id
            )
        self._done(exchange.user_id)
        return Learned(changes, user_id=exchange.user_id)

    def scope_of(self, user_id: int) -> Scope:
        """What learning from this message sees and where what it learns goes: its
        conversation's space (core/memory/spaces.py), read now (the chat may have moved
        since the message was sent)."""
        rows = self.db.query(
            "SELECT c.space_id, s.apart FROM messages m "
            "JOIN conversations c ON c.id = m.conversation_id "
            "LEFT JOIN spaces s ON s.id = c.space_id WHERE m.id = ?",
            (user_id,),
        )
        if not rows or rows[0][0] is None:
            return SHARED
        return Scope(int(rows[0][0]), shared=not rows[0][1])

    def _done(self, user_id: int) -> None:
        self._set(lambda conn: self.conversations.mark_learned(conn, user_id))

    def _failed(self, user_id: int, reason: str) -> None:
        counted = 0 if reason in AWAY else 1
        self._set(
            lambda conn: self.conversations.mark_failed(
                conn, user_id, reason, counted, MAX_ATTEMPTS
            )
        )
        log.info("message %s not learned from yet (%s)", user_id, reason)

    def _set(self, write: Callable[[Connection], None]) -> None:
        """Update a mark; a profile closed meanwhile (a command that did not wait) keeps
        the mark it had: the exchange is then still pending, as it should be."""
        try:
            with self.db.transaction() as conn:
                write(conn)
        except Exception as exc:  # noqa: BLE001 - never raised into the chat
            log.info("a learning mark was not updated: %s", type(exc).__name__)

    def exchange(self, user_id: int) -> Exchange | None:
        """The exchange a user message began: it, the answer after it, and the answer
        before it (None when the message is gone or has no complete answer)."""
        rows = self.db.query(
            "SELECT conversation_id, content, created_at FROM messages WHERE id = ? "
            "AND role = 'user' AND forgotten = 0",
            (user_id,),
        )
        if not rows:
            return None
        conversation, text, created = rows[0]
        after = self.db.query(
            "SELECT id, content, status FROM messages WHERE conversation_id = ? AND id > ? "
            "ORDER BY id LIMIT 1",
            (conversation, user_id),
        )
        if not after or after[0][2] != "complete":
            return None
        before = self.db.query(
            "SELECT content FROM messages WHERE conversation_id = ? AND id < ? "
            "AND role = 'assistant' ORDER BY id DESC LIMIT 1",
            (conversation, user_id),
        )
        when = datetime.fromisoformat(created)
        when = (when if when.tzinfo else when.replace(tzinfo=UTC)).astimezone()
        return Exchange(
            user_id, after[0][0], text, after[0][1], before[0][0] if before else None, when
        )

    def pending(
        self, limit: int = 20, include_failed: bool = False, before: int | None = None
    ) -> list[int]:
        """The user messages waiting, oldest first (only those older than `before`)."""
        states = ("pending", "failed") if include_failed else ("pending",)
        marks = ",".join("?" * len(states))
        return [
            r[0]
            for r in self.db.query(
                f"SELECT id FROM messages WHERE learn_state IN ({marks}) AND id < ? "
                "AND forgotten = 0 ORDER BY id LIMIT ?",
                (*states, before if before is not None else 2**62, limit),
            )
        ]

    def retry(
        self,
        limit: int = 20,
        should_stop: Callable[[], bool] | None = None,
        prefix: Prefix | None = None,
        before: int | None = None,
    ) -> list[Learned]:
        """Learn from the exchanges still pending (older than `before`: a newer one is
        being learned from by its own turn), oldest first, until one finds the model
        server away (the rest wait for it) or `should_stop` says so. With `prefix`, the
        requests go after the chat's messages (quoting each exchange)."""
        done: list[Learned] = []
        for user_id in self.pending(limit, before=before):
            if should_stop is not None and should_stop():
                break
            learned = self.retry_one(user_id, prefix)
            done.append(learned)
            if learned.reason in AWAY or len(done) >= limit:
                break
        return done

    def retry_one(self, user_id: int, prefix: Prefix | None = None) -> Learned:
        """Learn from one waiting exchange now (the user's Retry, whatever its attempts)."""
        exchange = self.exchange(user_id)
        if exchange is None:  # gone or forgotten, or its answer is: nothing to learn from
            self._done(user_id)
            return Learned(user_id=user_id)
        return self.learn(exchange, prefix, newest=False)
