"""The memories' operations: write, find, show, undo what learning did, tidy them while
the user is away, import and export. Every change is announced by the store
(MemoriesChanged); these methods only compose."""

from __future__ import annotations

import builtins
import logging
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from desktop_mem.core.chat.records import Change, Learned, Message
from desktop_mem.core.clients import Access
from desktop_mem.core.errors import ModelServerError
from desktop_mem.core.memory.records import Memory, NewMemory, Version, WriteResult
from desktop_mem.core.memory.spaces import SHARED, Scope
from desktop_mem.core.search.hybrid import SearchResult

if TYPE_CHECKING:  # the write path (pydantic) is imported when it is first needed
    from desktop_mem.core.chat.extract import Extractor
    from desktop_mem.core.chat.learning import Learner, Waiting
    from desktop_mem.core.memory.memories_file import ImportReport
    from desktop_mem.core.service import Service

Progress = Callable[[int, int], None]
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Browsed:
    """A memory found by a search, as the memory browser shows it: `relevance` is the
    number shown (0 up; None where there is none: no model, not indexed yet), `match`
    whether it is a match (what the relevance rule keeps) or a weak one."""

    memory: Memory
    relevance: float | None
    match: bool


@dataclass
class ChangeSet:
    """What one turn, "remember ..." or tidying pass changed in the memories, as a
    command the window, the command line and the API share: `undo()` takes it back
    (what it added is deleted, what it changed gets its earlier version back), `redo()`
    makes it again."""

    changes: list[Change] = field(default_factory=list)
    undone: bool = False

    def __bool__(self) -> bool:
        return any(c.action != "skipped" for c in self.changes)

    @property
    def shown(self) -> list[Change]:
        return [c for c in self.changes if c.action != "skipped"]

    def undo(self, memories: Memories) -> None:
        if self.undone:
            return
        for change in reversed(self.shown):
            memories.extractor.undo(change)
        self.undone = True

    def redo(self, memories: Memories) -> None:
        """Make the changes again: what was added is added again (as a new memory),
        what was changed gets the version the change made back."""
        if not self.undone:
            return
        store = memories.service.profile.memories
        redone: list[Change] = []
        for change in self.shown:
            if change.action == "added":
                added = store.add(NewMemory(change.text, source="user"), actor="user").memory
                redone.append(Change("added", added.id, added.text, version=1))
            else:
                if change.version:
                    store.restore(change.memory_id, change.version, actor="user")
                redone.append(change)
        self.changes, self.undone = redone, False


@dataclass
class IdlePass:
    """What a pass while the user was away did: its changes, and whether it stopped
    early because the user came back."""

    changes: list[Change]
    stopped: bool
    proposed: int = 0  # facts found in imported history, waiting for review
    about: int | None = None  # lines of the "about you" profile written (None: not due)


class Memories:
    def __init__(self, service: Service) -> None:
        self.service = service
        self.store = service.profile.memories
        self._extractor: Extractor | None = None
        self._learner: Learner | None = None

    @property
    def extractor(self) -> Extractor:
        """The write path's judge (consolidation), on the service's backend."""
        from desktop_mem.core.chat.extract import Extractor

        if self._extractor is None:
            prof = self.service.profile
            self._extractor = Extractor(prof.memories, prof.search, self.service.backends)
        return self._extractor

    @property
    def learner(self) -> Learner:
        from desktop_mem.core.chat.learning import Learner

        if self._learner is None:
            self._learner = Learner(self.service.profile.conversations, self.extractor)
        return self._learner

    # -- writing ----------------------------------------------------------------------

    def add(self, new: NewMemory, actor: str | None = None) -> WriteResult:
        """Store a memory as given."""
        return self.store.add(new, actor or new.source)

    def add_many(
        self, items: Sequence[NewMemory], actor: str = "import", progress: Progress | None = None
    ) -> tuple[list[Memory], list[str]]:
        return self.store.add_many(items, actor=actor, progress=progress)

    def add_consolidated(
        self, text: str, kind: str = "fact", importance: float = 0.5,
        valid_until: str | None = None, source: str = "user", scope: Scope = SHARED,
    ) -> list[Change]:  # fmt: skip
        """Store a statement the way the chat's learning does: a duplicate is not stored
        twice, a change updates the stored memory and keeps its history (the model
        server decides close calls). `scope`: what it is weighed against, and where it
        goes (core/memory/spaces.py: learned_in). Raises ModelServerError and stores
        nothing when it fails."""
        from desktop_mem.core.chat.prompts import Candidate

        candidate = Candidate.model_validate(
            {"text": text.strip(), "kind": kind, "importance": importance,
             "valid_until": valid_until}
        )  # fmt: skip
        return self.extractor.consolidate(
            [candidate], None, None, datetime.now(UTC), actor=source, scope=scope
        )

    def edit(self, memory_id: int, **fields: Any) -> WriteResult:
        """Change a memory (text, kind, importance, valid_from, valid_until); the old
        version stays in its history."""
        return self.store.edit(memory_id, **fields)

    def pin(self, memory_id: int, pinned: bool = True) -> Memory:
        return self.store.set_pinned(memory_id, pinned)

    def set_always(self, memory_id: int, always: bool | None) -> Memory:
        """In every chat (True), only when found (False), or as its text says (None)."""
        return self.store.set_always(memory_id, always)

    def restore(self, memory_id: int, version: int) -> WriteResult:
        return self.store.restore(memory_id, version)

    def delete(self, memory_ids: int | Iterable[int]) -> int:
        """Delete memories for good: text, versions, vectors, full-text entries."""
        return self.store.delete(memory_ids)

    def undo(self, changes: ChangeSet) -> None:
        changes.undo(self)

    # -- reading ----------------------------------------------------------------------

    def get(self, memory_id: int) -> Memory:
        return self.store.get(memory_id)

    def get_many(self, ids: Sequence[int]) -> builtins.list[Memory]:
        return self.store.get_many(ids)

    def list(self, **filters: Any) -> builtins.list[Memory]:
        """Newest first, pinned on top (memory/store.py: MemoryStore.list's filters)."""
        return self.store.list(**filters)

    def count(self) -> int:
        return self.store.count()

    def always_given(self, scope: Scope = SHARED) -> builtins.list[Memory]:
        return self.store.always_given(scope=scope)

    def move(self, memory_ids: int | Iterable[int], space: int | None) -> int:
        """Move memories to a space (None: make them shared), with their history."""
        return self.store.move(memory_ids, space)

    def history(self, memory_id: int) -> builtins.list[Version]:
        return self.store.history(memory_id)

    def undoable(self, user_message_id: int) -> ChangeSet | None:
        """What a user message taught, as a change that can still be undone: None when
        it taught nothing, or when anything it changed has changed since (undone,
        edited, deleted), so an undo would take back more than it did."""
        taught = self.store.taught_by(user_message_id)
        if not taught or not all(latest for *_rest, latest in taught):
            return None
        return ChangeSet(
            [
                Change("added" if action == "created" else action, memory_id, text, version=v)
                for action, memory_id, text, v, _latest in taught
            ]
        )

    def search(self, query: str, k: int = 10, **options: Any) -> SearchResult:
        """The memories relevant to the query (search/hybrid.py: HybridSearch.search)."""
        return self.service.profile.search.search(query, k, **options)

    def browse(
        self, query: str, k: int = 50, kinds: set[str] | None = None, scope: Scope = SHARED
    ) -> builtins.list[Browsed]:
        """A search as a person browsing sees it: the best k ranked memories, each with
        the relevance shown (RelevanceRule.shown) and whether it is a match, which is
        what the relevance rule keeps (`search`, as the chat judges it: the rule also
        weighs how the best item stands, small talk and unknown words); the matches in
        the rule's order, then the weak ones. The window shows no number (one scale:
        match or weak match); `relevance` is for other callers. Without a model, or for a
        memory not indexed yet, there is no number: holding the words typed makes it a
        match. `scope`: the spaces searched (the shared space unless it says otherwise)."""
        search = self.service.profile.search
        result = search.search(query, k, kinds=kinds, relevant_only=False, scope=scope)
        among = search.texts.index.count()
        kept = [h.memory.id for h in search.search(query, k, kinds=kinds, scope=scope).hits]
        rank = {mid: n for n, mid in enumerate(kept)}
        out: list[Browsed] = []
        for h in result.hits:
            if h.relevance is None:
                out.append(Browsed(h.memory, None, h.memory.id in rank or "keyword" in h.signals))
            else:
                # What is a match is what the relevance rule keeps, as for the chat: a
                # hit's nearness alone, without the rule's view of the whole search (small
                # talk, a question about the world, words never seen), listed a memory for
                # 0.30 of the unrelated questions of a 60-memory store (the rule: 0.13).
                shown = search.rule.shown(h.relevance, among)
                out.append(Browsed(h.memory, shown, h.memory.id in rank))
        # the matches in the rule's order (best first), then the weak ones in the
        # ranking's (stable)
        out.sort(key=lambda b: (not b.match, rank.get(b.memory.id, 0)))
        return out

    def answers_using(self, memory_id: int, limit: int = 50) -> builtins.list[Message]:
        """The answers the memory shaped, newest first."""
        return self.service.profile.conversations.answers_using(memory_id, limit)

    def origin(self, memory: Memory) -> tuple[int, str] | None:
        """The message a memory was learned from (its id and text), if it is still there."""
        if memory.source_message_id is None:
            return None
        from desktop_mem.core.errors import NotFound

        try:
            msg = self.service.profile.conversations.message(memory.source_message_id)
        except NotFound:
            return None
        return msg.id, msg.content

    def proposals_for(self, memory_id: int) -> builtins.list[Memory]:
        """The memories apps wrote that want to change this one (they never change it
        themselves: core/memory/store.py)."""
        return self.store.proposals_for(memory_id)

    def apps_that_used(self, memory_id: int) -> builtins.list[Access]:
        """The other apps that read or wrote it, and when last."""
        return self.service.apps.access_for_memory(memory_id)

    # -- learning and tidying ---------------------------------------------------------

    def waiting(self) -> Waiting:
        """The exchanges that still wait to be learned from."""
        from desktop_mem.core.chat.learning import waiting

        return waiting(self.service.profile.db)

    def retry_learning(
        self, limit: int = 20, should_stop: Callable[[], bool] | None = None
    ) -> builtins.list[Learned]:
        """Learn from the exchanges still waiting, oldest first."""
        return self.learner.retry(limit, should_stop=should_stop)

    def retry_one(self, user_id: int) -> Learned:
        """Learn from one waiting exchange now (the user's Retry)."""
        return self.learner.retry_one(user_id)

    def consolidate(self, should_stop: Callable[[], bool] | None = None) -> builtins.list[Change]:
        """Merge duplicates and resolve conflicts across every memory."""
        return self.extractor.sleep(datetime.now(UTC), should_stop=should_stop)

    def idle_due(self) -> bool:
        """Whether a pass is due while the user is away (core/chat/sleep.py)."""
        from desktop_mem.core.chat.sleep import SleepSchedule

        return (
            SleepSchedule(self.service.profile.db).due()
            or self._imports_due()
            or self.service.about.due()
        )

    def _imports_due(self) -> bool:
        """Imported messages wait to be read for facts (with learning on)."""
        waiting = self.service.imports.to_read() + self.service.imports.to_weigh()
        return bool(self.service.settings.get("auto_memory")) and waiting > 0

    def idle_pass(self, should_stop: Callable[[], bool] | None = None) -> IdlePass:
        """What runs while the user is away: learning from what still waits, then the
        whole-store pass when it is due, then the "about you" profile rewritten from what
        the memories are now (when they changed since), then reading imported messages
        for facts (they are proposed, for review), then the schedule recorded (only for
        a pass that ran to its end)."""
        from desktop_mem.core.chat.sleep import SleepSchedule

        schedule = SleepSchedule(self.service.profile.db)
        stop = should_stop or (lambda: False)
        changes: list[Change] = []
        ran_store = False
        if schedule.learning_due():
            for learned in self.learner.retry(should_stop=stop):
                changes += learned.changes
        if not stop() and schedule.store_due():
            ran_store = True
            changes += self.consolidate(should_stop=stop)
        about = None
        if not stop() and self.service.about.due():
            try:
                about = len(self.service.about.rewrite(should_stop=stop).lines)
            except ModelServerError as exc:  # the rest of the pass is worth keeping
                log.info("the profile was not rewritten: %s", exc.reason)
        proposed = 0
        if not stop() and self._imports_due():  # last: it may take the whole evening
            proposed = self.service.imports.propose_facts(should_stop=stop).proposed
        stopped = stop()
        if ran_store and not stopped:
            schedule.record()
        return IdlePass(changes, stopped, proposed, about)

    # -- files --------------------------------------------------------------------------

    def export(self, path: Path, fmt: str = "json") -> int:
        from desktop_mem.core.memory.export import write_export

        return write_export(self.store, path, fmt, self.service.name)

    def import_file(self, path: Path, progress: Progress | None = None) -> ImportReport:
        from desktop_mem.core.memory.memories_file import import_file

        return import_file(self.store, path, progress=progress, spaces=self.service.profile.spaces)

    def reembed(self, progress: Progress | None = None, only_missing: bool = False) -> int:
        """Index the memories again with the embedding model (only those saved without a
        vector)."""
        return self.store.reembed(progress=progress, only_missing=only_missing)
