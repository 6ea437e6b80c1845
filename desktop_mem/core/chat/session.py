"""A chat session: one conversation with the model, remembering through the store.

`send()` runs one turn: the user's message is stored first (so no failure can lose
it), the prompt is built by the read path, the answer streams through `on_piece`, and
the answer is stored as complete, stopped or failed, with the memories it was given.
Then, in the background, the write path learns from the exchange (core/chat/learning.py:
a failure is said, and the message kept to learn from later); the reply never waits
for it. Learning and the title are asked after the chat's own messages, which the model
server has cached, so they cost it little and leave the chat's cache in place.
`stop()` (from any thread) or Ctrl+C ends the answer early, keeping what arrived.

Incognito sessions store nothing, read no memory and learn nothing.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from desktop_mem.core.chat import after_turn, forget, replies
from desktop_mem.core.chat.backends import BackendSlot, slot_of
from desktop_mem.core.chat.commands import about_user, to_you
from desktop_mem.core.chat.conversations import SHOWN, Message
from desktop_mem.core.chat.extract import (
    Change,
    Command,
    Extractor,
    given_always,
    parse_command,
)
from desktop_mem.core.chat.forget import Forgotten
from desktop_mem.core.chat.layout import Turn
from desktop_mem.core.chat.learning import Exchange, Learned, Learner
from desktop_mem.core.chat.read_path import Budget, ContextBuilder, Plan, TokenCounter
from desktop_mem.core.chat.records import COMMAND_MODEL, RecalledMessage, UsedMemory
from desktop_mem.core.chat.stores import Stores
from desktop_mem.core.errors import DesktopMemError, ModelServerError
from desktop_mem.core.events import (
    ConversationTitled,
    Event,
    Events,
    ServerObserved,
    TurnLearned,
)
from desktop_mem.core.memory.about import AboutLine
from desktop_mem.core.memory.spaces import SHARED, Scope, learned_in
from desktop_mem.core.memory.store import Memory, NewMemory
from desktop_mem.core.models.llm import DEFAULT_CONTEXT, ChatBackend, Stream

if TYPE_CHECKING:
    from desktop_mem.core.documents.records import PassageHit
    from desktop_mem.core.models.loaded import SlowTurns

log = logging.getLogger("desktop_mem.chat")

CATCH_UP = 3  # waiting exchanges learned from after a turn the model answered
TASK_TOKENS = 700  # a task asked after the chat, with its answer (extraction ~400 + ~300)


@dataclass
class TurnResult:
    text: str
    status: str  # complete, stopped, error, command
    error: str | None = None
    exit_code: int = 0  # the error's command-line exit code
    error_kind: str = ""  # the error's class name
    error_reason: str = ""  # its reason code (the window words it in its language)
    conversation_id: int | None = None
    user_message_id: int | None = None
    answer_id: int | None = None
    # what the answer was given (the plan's records: memories, earlier messages, passages)
    used: list[UsedMemory] = field(default_factory=list)
    recalled: list[RecalledMessage] = field(default_factory=list)
    documents: list[PassageHit] = field(default_factory=list)
    about: list[AboutLine] = field(default_factory=list)  # the profile's lines given
    changes: list[Change] = field(default_factory=list)  # made by a command, at once
    forget_candidates: list[Memory] = field(default_factory=list)
    forget_messages: list[Message] = field(default_factory=list)  # earlier messages about it
    forget_more: tuple[int, int] = (0, 0)  # memories and messages beyond the page offered
    # by candidate memory: what it says besides what is forgotten, proposed to keep
    forget_rests: dict[int, str] = field(default_factory=dict)
    plan: Plan | None = None
    learning: Future[Learned] | None = None  # the background write path
    titling: Future[bool] | None = None  # the model naming a new conversation
    # what the model server said right after the turn that would make every turn slow
    server: Future[SlowTurns | None] | None = None
    warnings: list[str] = field(default_factory=list)

    def given(self) -> dict[str, Any]:
        """What the answer was given, as plain data (`chat --json`, the Python API)."""
        return {
            "used": [
                {"id": u.memory_id, "score": round(u.score, 4), "text": u.text,
                 "why": u.why, "weak": u.weak}
                for u in self.used
            ],
            "recalled": [
                {"message_id": r.message_id, "conversation_id": r.conversation_id,
                 "role": r.role, "created_at": r.created_at, "score": round(r.score, 4),
                 "text": r.text, "weak": r.weak}
                for r in self.recalled
            ],
            "documents": [
                {"chunk_id": p.chunk_id, "where": p.where(), "score": round(p.score, 4),
                 "text": p.text, "weak": p.weak}
                for p in self.documents
            ],
            "about": [ln.to_dict() for ln in self.about],
        }  # fmt: skip

    def learned(self, timeout: float | None = None) -> list[Change]:
        """Wait for the write path of this turn (an empty list if there was none)."""
        return self.outcome(timeout).changes

    def outcome(self, timeout: float | None = None) -> Learned:
        """Wait for the write path of this turn: its changes, or why it failed."""
        return self.learning.result(timeout) if self.learning else Learned()


def _not_a_command(text: str) -> None:
    """Regenerate and Edit act on questions; a command ("forget …") was done, not
    answered, and sent to the model it would quote what it asked to forget."""
    if parse_command(text) is not None:
        raise DesktopMemError(
            "That message is a command, not a question: there is no answer to give again. "
            "Type a new message instead."
        )


class ChatSession:
    """One conversation (or a new or incognito one). The application service
    (core/service) gives each session its backend slot (the model the profile talks to
    now), the token counter that learns from the server's counts, and the executor
    that runs learning and titles; a session made on its own has its own."""

    def __init__(
        self,
        profile: Stores,
        backend: ChatBackend | BackendSlot,
        conversation_id: int | None = None,
        incognito: bool = False,
        counter: TokenCounter | None = None,
        background: Executor | None = None,
        space: int | None = None,
    ) -> None:
        self.profile = profile
        self.backends = slot_of(backend)
        self.events: Events = profile.events
        self.incognito = incognito
        self.settings = profile.settings
        self.conversations = profile.conversations
        self.counter = counter or TokenCounter()
        self.documents = profile.documents
        self.builder = ContextBuilder(
            profile.memories, profile.search, self.counter, self.conversations, self.documents
        )
        self.extractor = Extractor(profile.memories, profile.search, self.backends)
        self.learner = Learner(self.conversations, self.extractor)
        # learning and titles go after the chat's messages (False: prompts of their own)
        self.learn_after_chat = True
        self.conversation_id = None if incognito else conversation_id
        # the space the chat is in (core/memory/spaces.py): a conversation's own, or the
        # one a new chat is started in (None: the shared space)
        self.space = space
        if self.conversation_id is not None:
            self.space = self.conversations.get(self.conversation_id).space
        elif space is not None:
            self.profile.spaces.get(space)  # NotFound: a space taken out meanwhile
        self._transient: list[dict[str, str]] = []  # incognito history, never stored
        self._forget_command: list[int] = []  # the last "forget ..." and its answer
        self._forget_text = ""  # what it asked to forget
        # earlier_blocks "keep": each user message as it was sent, with what it quoted
        self._sent: dict[int, Plan] = {}
        self.server_problem: SlowTurns | None = None  # seen after the last turn
        self._history_start: int | None = None  # where the history sent started last turn
        self._follows: int | None = SHOWN  # what the next stored message comes after
        self._stream: Stream | None = None
        self._stopping = False  # stop() came during this turn
        self._lock = threading.Lock()
        self._owns_background = background is None
        self._background: Executor = background or ThreadPoolExecutor(
            1, thread_name_prefix="desktop-mem-learn"
        )

    @property
    def backend(self) -> ChatBackend:
        """The chat backend the profile talks to now (see BackendSlot)."""
        return self.backends.current

    # -- state -------------------------------------------------------------------------

    def history(self, until: int | None = None) -> list[Turn]:
        """The turns of this conversation as the model sees them (the versions shown),
        up to and with the message `until` if given."""
        if self.incognito:  # ids of their own: their place, never reused in the session
            return [
                Turn(role=m["role"], content=m["content"], id=-i - 1)
                for i, m in enumerate(self._transient)
            ]
        if self.conversation_id is None:
            return []
        shown = self.conversations.messages(self.conversation_id)
        if until is not None:
            shown = shown[: next((i + 1 for i, m in enumerate(shown) if m.id == until), None)]
        out = []
        for m in shown:
            if m.role not in ("user", "assistant") or not m.content.strip() or m.forgotten:
                continue
            item = Turn(role=m.role, content=m.content, id=m.id)
            plan = self._sent.get(m.id) if self.builder.earlier_blocks == "keep" else None
            if plan is not None and plan.still_true(
                self.profile.memories, self.conversations, self.documents
            ):
                item["sent"] = plan.sent
            elif plan is not None:  # it quoted what is gone or changed: never sent again
                del self._sent[m.id]
            out.append(item)
        return out

    def budget(self) -> Budget:
        try:
            context = self.backend.num_ctx()
        except ModelServerError:
            context = DEFAULT_CONTEXT
        return Budget(
            context=context,
            memory_tokens=int(self.settings.get("memory_tokens")),
            recall_tokens=int(self.settings.get("recall_tokens")),
        )

    def reads_memory(self) -> bool:
        """Whether the prompt gets memories and past messages: not in incognito, not
        when the user turned memory off for answers."""
        return not self.incognito and bool(self.settings.get("use_memory"))

    def scope(self) -> Scope:
        """What this chat's prompts are given: its space's memories, conversations and
        documents, and the shared space's unless the space is kept apart (read at each
        turn: the conversation may have moved, the space may have changed)."""
        if self.conversation_id is not None:
            self.space = self.conversations.get(self.conversation_id).space
        return self.profile.spaces.scope(self.space)

    def instructions(self) -> str:
        """The user's instructions, then the space's own."""
        own = str(self.settings.get("instructions") or "")
        if self.space is None:
            return own
        extra = self.profile.spaces.get(self.space).instruction
        return f"{own}\n\n{extra}".strip() if extra else own

    def about_lines(self, scope: Scope = SHARED) -> list[AboutLine]:
        """The "about you" profile's lines a prompt gets: none when memory is not read,
        the user turned the profile off, or the chat's space is kept apart (the profile
        is built from shared memories)."""
        if not self.reads_memory() or not self.settings.get("about_you"):
            return []
        if not scope.sees_shared:
            return []
        about = getattr(self.profile, "about", None)
        return about.lines(current_only=True) if about is not None else []

    def stop(self) -> None:
        """End the turn in progress at once, whatever it is doing: preparing the prompt
        (the model is then never asked), connecting, waiting for the first chunk or
        streaming. Call it only while a turn runs: the flag holds until the turn ends."""
        with self._lock:
            self._stopping = True
            stream = self._stream
        if stream is not None:
            stream.cancel()

    def close(self, wait: bool = True) -> None:
        """Stop using the session; its own executor (not a shared one) shuts down."""
        if self._owns_background:
            self._background.shutdown(wait=wait)

    # -- one turn ----------------------------------------------------------------------

    def send(self, text: str, on_piece: Callable[[str], None] | None = None) -> TurnResult:
        text = text.strip()
        if not text:
            raise DesktopMemError("The message is empty: type something to send.")
        user_id = self._store("user", text)
        command = parse_command(text)
        if command is not None:
            with self._lock:
                self._stopping = False  # a command is not an answer: nothing to stop
            return self._command(command, user_id)
        return self._answer(text, user_id, on_piece)

    def regenerate(
        self, on_piece: Callable[[str], None] | None = None, turn: int | None = None
    ) -> TurnResult:
        """Answer a user message again: the last one, or the `turn`-th (0-based, among
        the conversation's user messages). The new answer is another version after it;
        the earlier answer and the turns after it stay as the other version."""
        found = self._user_message(turn)
        if found is None:
            raise DesktopMemError("There is no message to answer again: send one first.")
        text, user_id = found
        _not_a_command(text)
        if self.incognito:
            self._drop_after(user_id)
        else:
            self._follows = user_id
        return self._answer(text, user_id, on_piece)

    def edit(
        self, turn: int | None, text: str, on_piece: Callable[[str], None] | None = None
    ) -> TurnResult:
        """Send a new text in place of a user message (the last, or the `turn`-th): it
        is another version of that message; the earlier one and what followed it stay
        as the other version."""
        found = self._user_message(turn)
        if found is not None:
            _not_a_command(found[0])
            if self.incognito:
                self._drop_from(found[1])
            elif found[1] is not None:
                self._follows = self.conversations.parent_of(found[1])
        return self.send(text, on_piece)

    def edit_last(self, text: str, on_piece: Callable[[str], None] | None = None) -> TurnResult:
        """Replace the last user message (and its answer) and send the new text."""
        return self.edit(None, text, on_piece)

    def _user_message(self, turn: int | None = None) -> tuple[str, int | None] | None:
        """A user message's text and reference (its id; in incognito its place in the
        transient history): the `turn`-th, or the last."""
        if self.incognito:
            users = [
                (m["content"], i) for i, m in enumerate(self._transient) if m["role"] == "user"
            ]
        elif self.conversation_id is None:
            users = []
        else:
            users = [
                (m.content, m.id)
                for m in self.conversations.messages(self.conversation_id)
                if m.role == "user"
            ]
        if not users:
            return None
        if turn is None:
            return users[-1]
        if not 0 <= turn < len(users):
            raise DesktopMemError(
                f"There is no message {turn + 1} in this conversation: it has {len(users)}."
            )
        return users[turn]

    def _drop_after(self, user_id: int | None) -> None:
        if self.incognito:
            del self._transient[(user_id or 0) + 1 :]
        elif self.conversation_id is not None and user_id is not None:
            self.conversations.delete_from(self.conversation_id, user_id + 1)

    def _drop_from(self, user_id: int | None) -> None:
        if self.incognito:
            del self._transient[user_id or 0 :]
        elif self.conversation_id is not None and user_id is not None:
            self.conversations.delete_from(self.conversation_id, user_id)

    def _store(self, role: str, text: str, **kw: Any) -> int | None:
        if self.incognito:
            self._transient.append({"role": role, "content": text})
            return len(self._transient) - 1 if role == "user" else None
        follows, self._follows = self._follows, SHOWN  # a new version: once, then as usual
        if self.conversation_id is not None:
            return self.conversations.add_message(
                self.conversation_id, role, text, follows=follows, **kw
            ).id
        # A new conversation and its first message in one transaction: a message the disk
        # refuses leaves no empty "(untitled)" conversation behind.
        with self.profile.db.transaction():
            conversation_id = self.conversations.create(
                model=self.backend.model, space=self.space
            ).id
            message_id = self.conversations.add_message(
                conversation_id, role, text, follows=follows, **kw
            ).id
        self.conversation_id = conversation_id
        return message_id

    def _answer(
        self, text: str, user_id: int | None, on_piece: Callable[[str], None] | None
    ) -> TurnResult:
        # what came before the message being answered (a regenerated answer's earlier
        # version is still shown until the new one is stored)
        history = self.history(until=user_id if not self.incognito else None)[:-1]
        budget = self.budget()
        scope = self.scope()
        plan = self.builder.build(
            text,
            history,
            budget,
            use_memory=self.reads_memory(),
            conversation_id=self.conversation_id,
            instructions=self.instructions(),
            history_start=self._history_start,
            about=self.about_lines(scope),
            scope=scope,
        )
        self._history_start = plan.history_start
        result = TurnResult(
            "",
            "complete",
            conversation_id=self.conversation_id,
            user_message_id=None if self.incognito else user_id,
            used=plan.used,
            recalled=plan.recalled,
            documents=plan.documents,
            about=plan.about,
            plan=plan,
            warnings=list(plan.warnings),
        )
        if user_id is not None and not self.incognito and self.builder.earlier_blocks == "keep":
            self._sent[user_id] = plan
        started = time.monotonic()
        stream = self.backend.stream(plan.messages)
        with self._lock:
            self._stream = stream
            stopping = self._stopping
        if stopping:  # stopped while the prompt was prepared: the model is not asked
            stream.cancel()
        try:
            for piece in stream:
                if on_piece:
                    on_piece(piece)
        except KeyboardInterrupt:
            stream.cancel()
        except ModelServerError as exc:
            result.status, result.error, result.exit_code = "error", str(exc), exc.exit_code
            result.error_kind = type(exc).__name__
            result.error_reason = exc.reason
        finally:
            with self._lock:
                self._stream = None
                self._stopping = False
        if result.status != "error" and (stream.stopped or not stream.done):
            result.status = "stopped"
        result.text = stream.text
        self.counter.observe(plan.messages, stream.usage.prompt_tokens)
        log.info(  # ids, counts and kinds only: never the text (see core/logs.py)
            "turn in conversation %s: %s%s, %d memories used, %s prompt tokens, "
            "%d past messages, %d answer characters, %.0f ms",
            "incognito" if self.incognito else self.conversation_id,
            result.status,
            f" ({result.error_kind})" if result.error_kind else "",
            len(plan.used),
            stream.usage.prompt_tokens,
            len(plan.recalled),
            len(result.text),
            (time.monotonic() - started) * 1000,
        )
        if result.text or result.status == "error":
            result.answer_id = self._store(
                "assistant",
                result.text,
                status=result.status,
                model=self.backend.model,
                prompt_tokens=stream.usage.prompt_tokens,
                error=result.error,
                used=plan.used,
                recalled=plan.recalled,
                documents=plan.documents,
                about=plan.about,
            )
        # What learning and the title are asked after: the prompt and answer just sent,
        # when the task and its answer still fit in the model's context with them (else
        # the server would cut the prompt's start, and the cache with it).
        after = plan.prompt_tokens + self.counter.count(result.text) + TASK_TOKENS
        prefix = (
            [*plan.messages, {"role": "assistant", "content": result.text}]
            if self.learn_after_chat and after <= budget.context
            else None
        )
        self._follows = SHOWN  # nothing stored (an empty stop): the next one goes last
        learns = (
            result.status == "complete"
            and not self.incognito
            and user_id is not None
            and parse_command(text) is None  # a command is never learned from
            and bool(self.settings.get("auto_memory"))
        )
        if learns:
            assert user_id is not None
            self.learner.mark(user_id)
            context = next(
                (m["content"] for m in reversed(history) if m["role"] == "assistant"), None
            )
            exchange = Exchange(
                user_id, result.answer_id, text, result.text, context,
                datetime.now(UTC).astimezone(),
            )  # fmt: skip
            result.learning = self._background.submit(self._learn, exchange, prefix)
            answer = result.answer_id
            self._announce(
                result.learning,
                lambda learned: TurnLearned(answer, learned or Learned(user_id=user_id)),
            )
        if result.status == "complete" and not history and self.conversation_id is not None:
            cid = self.conversation_id
            result.titling = self._background.submit(self._title, cid, text, result.text, prefix)
            self._announce(result.titling, lambda named: ConversationTitled(cid, bool(named)))
        if learns and user_id is not None:
            self._background.submit(self._catch_up, result.learning, user_id, prefix)
        if result.status == "complete":
            result.server = self._background.submit(self._observe_server)
            self._announce(result.server, ServerObserved)
        return result

    def _announce(self, future: Future[Any], event: Callable[[Any], Event]) -> None:
        """Say what a turn's background task found once it is done (with None for what
        it found when it failed or was cancelled): the window follows these
        announcements, never the future, and each task is announced once."""

        def done(f: Future[Any]) -> None:
            ok = not f.cancelled() and f.exception() is None
            self.events.emit(event(f.result() if ok else None))

        future.add_done_callback(done)

    def _observe_server(self) -> SlowTurns | None:
        """After the turn's last request, whether the server keeps the model as every
        turn needs; kept on the session for the window's status."""
        db = None if self.incognito else self.profile.db
        self.server_problem = after_turn.observe_server(self.backend, db)
        return self.server_problem

    def _learn(self, exchange: Exchange, prefix: list[dict[str, str]] | None) -> Learned:
        """The write path for one exchange; never raises (a failure is in the result,
        and the message stays marked to learn from later)."""
        return self.learner.learn(exchange, prefix)

    def _catch_up(
        self, learning: Future[Learned] | None, user_id: int, prefix: list[dict[str, str]] | None
    ) -> None:
        """The model answered and learned: the exchanges that waited for it are learned
        from now (a few; the sleep-time pass does the rest)."""
        if learning is None or not learning.result().ok:
            return
        try:
            self.learner.retry(CATCH_UP, prefix=prefix, before=user_id)
        except Exception as exc:  # noqa: BLE001 - never breaks the chat
            log.info("catching up on learning failed: %s", type(exc).__name__)

    def _title(
        self, conversation_id: int, user: str, answer: str, prefix: list[dict[str, str]] | None
    ) -> bool:
        return after_turn.title(
            self.backend, self.conversations, conversation_id, user, answer, prefix
        )

    # -- explicit commands ---------------------------------------------------------------

    def _command(self, command: Command, user_id: int | None) -> TurnResult:
        zh = replies.chinese(command.text)
        result = TurnResult("", "command", conversation_id=self.conversation_id)
        result.user_message_id = None if self.incognito else user_id
        if self.incognito:
            result.text = replies.incognito(zh)
        elif command.kind == "remember":
            # stored as learning stores a fact, about the user ("The user's favourite
            # colour is green"), and said back to them ("your favourite colour …")
            added = self.profile.memories.add(
                NewMemory(
                    about_user(command.text),
                    importance=0.8,
                    source="user",
                    source_message_id=user_id,
                    always=True if command.always else None,
                    space=learned_in(about_user(command.text), self.scope()),
                ),  # fmt: skip
                actor="user",
            )
            result.changes = [
                Change("added", added.memory.id, added.memory.text, version=1,
                       always=given_always(added.memory))
            ]  # fmt: skip
            result.warnings += added.warnings
            result.text = replies.remembered(to_you(command.text), zh)
        else:
            found = forget.find(
                self.profile, command.text, [user_id] if user_id else [], self.scope()
            )
            result.forget_candidates, result.forget_messages = found.memories, found.messages
            result.forget_more = (found.more_memories, found.more_messages)
            result.forget_rests = found.rests
            result.text = replies.forget_offer(command.text, found, zh)
        result.answer_id = self._store("assistant", result.text, model=COMMAND_MODEL)
        if command.kind == "forget" and not self.incognito:
            # the command and its answer name what is to be forgotten: once something is,
            # they are left out of every prompt too (see forget)
            self._forget_command = [i for i in (user_id, result.answer_id) if i is not None]
            self._forget_text = command.text
        return result

    def forget(
        self,
        memory_ids: Sequence[int],
        message_ids: Sequence[int] = (),
        keep: Sequence[int] = (),
        rests: Mapping[int, str] | None = None,
    ) -> Forgotten:
        """Do what the user chose after a "forget ..." command (core/chat/forget.py:
        carry_out; `rests`: of a memory deleted, the rest of it kept), and say what was
        done in the conversation."""
        if self.incognito:
            return Forgotten(0, 0, 0)
        command, self._forget_command = self._forget_command, []
        what, self._forget_text = self._forget_text, ""
        done = forget.carry_out(
            self.profile, memory_ids, message_ids, keep, command, what, self.conversation_id,
            rests,
        )  # fmt: skip
        self._store("assistant", replies.forgot(done, what), model=COMMAND_MODEL)
        return done

    def messages(self) -> list[Message]:
        if self.incognito or self.conversation_id is None:
            return []
        return self.conversations.messages(self.conversation_id)
