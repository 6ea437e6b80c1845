"""An open profile: the database and every store built on it. The CLI, the window, the
MCP server and scripts all start here, and none of them builds a store of its own.

The profile owns one embedder, one set of reference sentences and one relevance rule,
shared by the memories, the conversations (the recall tier) and the documents. So
changing the Ollama address or the embedding model, re-indexing and restoring reach
every tier at once, and each tier switches to a new model together with its index.
What the rule compares with (the reference sentences, embedded once per model) is
prepared in the background (`prepare`) when a profile is new or its model changes, so
that no user's turn waits for it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Collection
from concurrent.futures import Future
from dataclasses import dataclass

from desktop_mem.core.chat.conversations import ConversationStore
from desktop_mem.core.chat.proposals import ProposalStore
from desktop_mem.core.clients import ClientRegistry
from desktop_mem.core.config import Config
from desktop_mem.core.db.database import Database
from desktop_mem.core.db.opening import open_profile
from desktop_mem.core.documents.store import DocumentStore
from desktop_mem.core.events import Events
from desktop_mem.core.keys.vault import Vault
from desktop_mem.core.memory.about import AboutStore
from desktop_mem.core.memory.spaces import SpaceStore
from desktop_mem.core.memory.store import MemoryStore
from desktop_mem.core.models.embed import DEFAULT_EMBED_MODEL, Embedder
from desktop_mem.core.search.chance import Reference
from desktop_mem.core.search.hybrid import HybridSearch
from desktop_mem.core.search.relevance import RelevanceRule
from desktop_mem.core.settings import Settings

Progress = Callable[[int, int], None]


@dataclass
class Reindexed:
    """What a re-index embedded, per tier."""

    memories: int = 0
    messages: int = 0
    passages: int = 0

    @property
    def total(self) -> int:
        return self.memories + self.messages + self.passages


class Profile:
    def __init__(
        self, config: Config, db: Database, embedder: Embedder, rule: RelevanceRule | None = None
    ) -> None:
        self.config = config
        self.db = db
        self.embedder = embedder
        # what changed, announced by the stores as they commit (core/events.py)
        self.events = Events()
        self.settings = Settings(db, self.events)
        self.rule = rule or RelevanceRule()
        self.reference = Reference(db)
        self.memories = MemoryStore(db, embedder, events=self.events)
        self.spaces = SpaceStore(db, self.events)  # memory kept apart by project
        self.about = AboutStore(db, self.events)  # what the model knows about the person
        # facts found in imported history, waiting for review; what was found in a
        # message goes with it
        self.proposals = ProposalStore(db, self.memories, self.events)
        self.conversations = ConversationStore(
            db, embedder, self.reference, self.rule, self.memories,
            forget_found=self.proposals.forget, events=self.events,
        )  # fmt: skip
        self.documents = DocumentStore(db, embedder, self.reference, self.rule, events=self.events)
        self.search = HybridSearch(
            self.memories,
            rule=self.rule,
            reference=self.reference,
            sources=self.conversations.index,
        )
        self.clients = ClientRegistry(db, self.events)

    @classmethod
    def open(
        cls,
        config: Config,
        vault: Vault | None = None,
        create: bool = True,
        rule: RelevanceRule | None = None,
    ) -> Profile:
        db = open_profile(config.home, config.profile, config.passphrase, vault, create=create)
        try:
            model = config.embed_model or db.meta_get("embed_model") or DEFAULT_EMBED_MODEL
            return cls(
                config, db, Embedder(config.ollama_host, model, timeout=config.timeout), rule
            )
        except BaseException:
            db.close()
            raise

    def embedder_for(self, model: str) -> Embedder:
        return Embedder(self.config.ollama_host, model, timeout=self.config.timeout)

    def use_embedder(self, embedder: Embedder) -> None:
        """Embed with this embedder from now on, in every tier (the same model at
        another address, or a model every tier is already indexed with)."""
        self.embedder = embedder
        self.config.embed_model = embedder.model
        for tier in (self.memories, self.conversations, self.documents):
            tier.embedder = embedder

    def set_ollama_host(self, host: str) -> None:
        self.config.ollama_host = host
        self.use_embedder(self.embedder_for(self.embedder.model))

    def prepared(self) -> bool:
        """Whether searching needs nothing embedded first (the reference sentences of
        the relevance rule are there for the embedding model in use)."""
        return self.reference.ready(self.embedder)

    def prepare(self) -> Future[bool]:
        """Embed the relevance rule's reference sentences for the model in use, in the
        background: a new profile, or a new embedding model, would otherwise make its
        first search wait for them (seconds on a laptop). A search meanwhile waits for
        this one instead of embedding them twice. True once they are ready."""
        done: Future[bool] = Future()
        embedder = self.embedder

        def work() -> None:
            try:
                done.set_result(self.reference.vectors(embedder) is not None)
            except BaseException as exc:  # noqa: BLE001 - the caller sees it in the future
                done.set_exception(exc)

        threading.Thread(target=work, name="desktop-mem-prepare", daemon=True).start()
        return done

    def unindexed(self) -> Reindexed:
        """How many memories, messages and passages have no vector yet."""
        return Reindexed(
            self.memories.unindexed_count(),
            self.conversations.unindexed_count(),
            self.documents.unindexed_count(),
        )

    def index_missing(self, progress: Progress | None = None) -> Reindexed:
        """Give a vector to everything saved while the embedding model was missing or
        the server down. Raises ModelServerError when it still cannot embed."""
        todo = self.unindexed()
        done = Reindexed()
        step = _Steps(progress, todo.total)
        if todo.memories:
            done.memories = self.memories.reembed(progress=step.tier(0), only_missing=True)
        step.base = todo.memories
        if todo.messages:
            done.messages = self.conversations.index_vectors(progress=step.tier(step.base))
        step.base += todo.messages
        if todo.passages:
            done.passages = self.documents.index_missing(progress=step.tier(step.base))
        return done

    def index_these(self, memories: Collection[int], messages: Collection[int]) -> Reindexed:
        """Give a vector to these memories and messages if they have none (what a sync
        pass brought), read by their ids: the work follows how many they are, not the
        profile's size. Any other memory without one gets it too (memories without a
        vector are counted, not searched for). Raises ModelServerError when it cannot
        embed the memories; messages it cannot embed stay without (`missing_of`)."""
        done = Reindexed()
        if memories and self.memories.unindexed_count():
            done.memories = self.memories.reembed(only_missing=True, ids=sorted(memories))
        if self.memories.unindexed_count():  # saved here while the server was down
            done.memories += self.memories.reembed(only_missing=True)
        if messages:
            done.messages = self.conversations.index_vectors(sorted(messages))
        return done

    def reembed(self, model: str, progress: Progress | None = None) -> Reindexed:
        """Re-index every memory, message and passage with `model` (or the current
        model again). Each tier switches to it together with its new index, so until
        then it keeps serving searches with the old one; a failure half-way leaves the
        tiers not yet done on the old model, and the profile's embedder with them."""
        embedder = self.embedder_for(model)
        total = (
            self.memories.count()
            + self.conversations.indexable_count()
            + self.documents.passage_count()
        )
        step = _Steps(progress, total)
        done = Reindexed()
        done.memories = self.memories.reembed(progress=step.tier(0), embedder=embedder)
        step.base = self.memories.count()
        done.messages = self.conversations.reembed(embedder, progress=step.tier(step.base))
        step.base += self.conversations.indexable_count()
        done.passages = self.documents.reembed(embedder, progress=step.tier(step.base))
        self.use_embedder(embedder)
        self.reference.vectors(embedder)  # the rule's reference, for the new model
        # what was learned or said while it ran was embedded with the old model
        more = self.index_missing()
        done.memories += more.memories
        done.messages += more.messages
        done.passages += more.passages
        return done

    def forget_everything(self, keep_conversations: bool = False) -> Forgot:
        """ "Forget everything": every memory, and what the earlier messages said: by
        default every conversation is deleted; with `keep_conversations` they stay to
        read, but no message is in any prompt again. Documents stay (they are files the
        user added, not things said). Deleted means gone from every page of the file."""
        conversations = len(self.conversations.list())
        # memories first: no memory is left to lose a quote of a message
        memories = self.memories.forget_all(vacuum=False)
        if keep_conversations:
            messages = self.conversations.exclude_all()
        else:
            messages = self.conversations.delete_all(vacuum=False)
        with self.db.transaction() as conn:  # facts found in imported history, too
            self.proposals.clear(conn)
        self.db.execute("VACUUM")  # once, for both: no freed page keeps a word of either
        self.db.checkpoint()
        return Forgot(memories, messages, conversations, keep_conversations)

    def close(self) -> None:
        for index in (self.memories.index, self.conversations.index, self.documents.index):
            index.close()
        self.db.close()

    def __enter__(self) -> Profile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclass(frozen=True)
class Forgot:
    """What "Forget everything" did."""

    memories: int
    messages: int  # deleted, or (kept) left out of every prompt
    conversations: int
    kept: bool


class _Steps:
    """One progress count over several tiers done one after another."""

    def __init__(self, progress: Progress | None, total: int) -> None:
        self.progress = progress
        self.total = total
        self.base = 0

    def tier(self, base: int) -> Progress | None:
        if self.progress is None:
            return None
        report = self.progress

        def step(done: int, _total: int) -> None:
            report(min(self.total, base + done), self.total)

        return step
