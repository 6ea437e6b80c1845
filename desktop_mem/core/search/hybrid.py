"""Memory search: the search pipeline (core/search/pipeline.py) with the memory tier's
own steps. BM25 weighs a memory's context below its text; a memory is as near the query
as the message it was learned from; a ranked listing is still marked by the rule; words
found in too many memories are left out of the vector query (and, in a large store, of
the keyword query); the fused score is then adjusted for importance, recency and
pinning, and near-duplicates removed.

Each hit says which signals found it, so the UI and `--json` can show why a
memory came back. Keyword search works without the model server; when the
embedding call fails the search degrades to keywords and says so.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from desktop_mem.core import textproc
from desktop_mem.core.db.database import id_chunks
from desktop_mem.core.db.vectors import MESSAGES, VectorIndex
from desktop_mem.core.memory.spaces import SHARED, Scope
from desktop_mem.core.memory.store import Memory, MemoryStore
from desktop_mem.core.search import asking
from desktop_mem.core.search.chance import Reference
from desktop_mem.core.search.pipeline import Pipeline, Weights
from desktop_mem.core.search.relevance import MEMORY_TIER, WEAK, RelevanceRule
from desktop_mem.core.search.words import document_frequencies, retrieval_terms

if TYPE_CHECKING:
    import numpy as np
else:
    from desktop_mem.core.lazy import numpy as np

MAX_QUERY_CHARS = 2_000  # of a search query (the chat message when building a prompt)


@dataclass(frozen=True)
class SearchWeights(Weights):
    """Fusion parameters, tuned on the LoCoMo development split (benchmarks/locomo.py;
    docs/benchmarks.md has the table of what each choice measured)."""

    context_column: float = 0.4  # BM25 weight of a memory's context next to its text (1.0)
    # Words found in more than this share of the memories (the user's own name, say)
    # are left out of the vector query: BM25 discounts them by IDF, a small embedding
    # model does not, and they drown what the question is about.
    common_word_share: float = 0.35
    common_word_min_memories: int = 50
    # In a large store, words found in more than this share of the memories are not
    # used to retrieve by keyword (Elasticsearch's cutoff_frequency): FTS5 scores every
    # row matching any term, so one frequent word costs tens of ms at 100k, while its
    # IDF is low. A query made only of such words keeps its rarest one.
    keyword_cutoff_share: float = 0.10
    keyword_cutoff_min_memories: int = 2_000
    importance: float = 0.10  # multiplier span over importance 0..1
    recency: float = 0.05  # multiplier bonus for a memory updated today, halving every half-life
    recency_half_life_days: float = 90.0
    pinned: float = 0.10  # multiplier bonus
    duplicate_similarity: float = 0.97
    pool: int = 100  # keyword candidates
    vector_pool: int = 50  # vector candidates (each costs a page read when rescored)
    vector_pool_per_k: int = 2


@dataclass
class Hit:
    memory: Memory
    score: float
    signals: dict[str, Any]  # what found it; "relevance" and "match" where the rule judged it

    @property
    def relevance(self) -> float | None:
        """Deviations above chance (keyword credit included), where the rule judged it
        (not without a model, nor in a script the model cannot read)."""
        return self.signals.get("relevance")

    @property
    def weak(self) -> bool:
        """Kept as a weaker match: within the rule's margin, not over its bar by itself."""
        return self.signals.get("match") == WEAK

    def to_dict(self) -> dict[str, Any]:
        d = self.memory.to_dict()
        d["score"] = round(self.score, 6)
        d["relevance"] = self.relevance
        d["match"] = self.signals.get("match")
        d["signals"] = self.signals
        return d


@dataclass
class SearchResult:
    hits: list[Hit]
    warnings: list[str] = field(default_factory=list)
    # What the ordinary bar keeps when words the profile has never seen shut the search
    # (relevance.judge): for a caller that knows from another tier that the query is
    # about something the profile knows.
    held: list[Hit] = field(default_factory=list)


class HybridSearch(Pipeline):
    """The memory tier's search: the pipeline's steps, and its own (see the module)."""

    needs_vectors = True  # to remove near-duplicates, with or without a query vector
    check_model = True
    marks_listing = True
    weights: SearchWeights

    def __init__(
        self,
        store: MemoryStore,
        weights: SearchWeights | None = None,
        rule: RelevanceRule | None = None,
        reference: Reference | None = None,
        sources: VectorIndex | None = None,
    ) -> None:
        super().__init__(
            store,
            MEMORY_TIER,
            weights or SearchWeights(),
            rule or RelevanceRule(),
            reference or Reference(store.db),
        )
        self.store = store
        # the messages' index (the conversation store's): only its stored vectors are read
        self.sources = sources or VectorIndex(store.db, MESSAGES)

    def document_frequencies(self, terms: list[str], upto: int) -> dict[str, int]:
        """How many memories say each term in their own text, counted up to `upto`."""
        return document_frequencies(self.store.db, "memories_fts", terms, upto, column="body")

    def _frequencies(self, query: str) -> tuple[int, dict[str, int]]:
        w = self.weights
        total = self.store.count()
        terms = [t for t in textproc.query_terms(query) if not textproc.has_cjk(t)]
        if total < min(w.common_word_min_memories, w.keyword_cutoff_min_memories) or not terms:
            return total, {}
        upto = int(total * max(w.common_word_share, w.keyword_cutoff_share))
        return total, self.document_frequencies(terms, upto)

    def keyword_terms(self, query: str, total: int, df: dict[str, int]) -> list[str]:
        terms = textproc.query_terms(query)
        if total < self.weights.keyword_cutoff_min_memories:
            return terms
        return retrieval_terms(terms, total, df, self.weights.keyword_cutoff_share)

    def bm25_columns(self) -> tuple[float, ...]:
        return (1.0, self.weights.context_column)

    def keyword_ranking(
        self, query: str, limit: int, terms: list[str] | None = None
    ) -> list[tuple[int, float]]:
        """[(memory_id, bm25)] best first; bm25 is positive, higher is better."""
        return self.keyword(terms if terms is not None else textproc.query_terms(query), limit)

    def vector_query(
        self, query: str, total: int | None = None, df: dict[str, int] | None = None
    ) -> str:
        """The query without words that occur in too many memories to tell them apart."""
        w = self.weights
        if total is None or df is None:
            total, df = self._frequencies(query)
        if total < w.common_word_min_memories or not df:
            return query
        common = [t for t, n in df.items() if n > total * w.common_word_share]
        if not common:
            return query
        stripped = textproc.remove_words(query, common)
        return stripped if textproc.query_terms(stripped) else query

    def search(
        self,
        query: str,
        k: int = 10,
        *,
        include_expired: bool = True,
        kinds: set[str] | None = None,
        now: datetime | None = None,
        relevant_only: bool = True,
        answering: int | None = None,
        scope: Scope = SHARED,
    ) -> SearchResult:
        """The k best memories for the query. With `relevant_only` (the default) only
        those that pass the relevance rule (core/search/relevance.py): an unrelated query gets
        none. Without it, the best k whatever they are (a ranked listing). `answering`:
        the conversation the query comes from (the chat's read path), whose messages do
        not count as the profile knowing the query's words: they hold the query itself.
        `scope`: the spaces the reader sees (core/memory/spaces.py): the shared space
        unless it says otherwise; never another space's memory."""
        w = self.weights
        warnings: list[str] = []
        query = textproc.normalize(query)
        if not query:
            return SearchResult([], warnings)
        if len(query) > MAX_QUERY_CHARS:
            # A pasted document, or a long chat message: its start says what it is about,
            # and embedding models read only so much anyway.
            query = query[:MAX_QUERY_CHARS]
            warnings.append(
                f"Only the first {MAX_QUERY_CHARS:,} characters of the query were searched."
            )
        total, df = self._frequencies(query)
        parts = asking.parts(query) if self.rule.by_parts else []
        found = self.find(
            query,
            self.keyword_terms(query, total, df),
            k,
            relevant_only,
            answering,
            warnings,
            parts=[(part, self.keyword_terms(part, total, df)) for part in parts],
            vector_query=self.vector_query(query, total, df),
            scope=scope,
        )
        missing = self.store.unindexed_count() if self.store.embedder else 0
        if missing:
            warnings.append(
                f"{missing} memories have no vector yet and are matched by keywords only: run "
                "`desktop-mem memory reembed --missing` to index them."
            )
        if found is None:
            return SearchResult([], warnings)
        candidates, keep, vecs = found.ids, found.keep, found.vectors
        sims, has_vec = found.judged[0].sims, found.judged[0].has_vec

        now = now or datetime.now(UTC)
        wanted = keep | found.held
        mems = {
            m.id: m for m in self.store.get_many([c for n, c in enumerate(candidates) if wanted[n]])
        }
        hits: list[Hit] = []
        held_hits: list[Hit] = []
        for n, mid in enumerate(candidates):
            m = mems.get(mid)
            if m is None or not wanted[n] or (kinds and m.kind not in kinds):
                continue
            if not scope.holds(m.space):  # the scan's filter, checked on what it returns
                continue
            if not include_expired and m.expired:
                continue
            boost = 1.0 + w.importance * (m.importance - 0.5)
            boost += w.recency * _recency(m.updated_at, now, w.recency_half_life_days)
            sig = found.signals[mid]
            if m.pinned:
                boost += w.pinned
                sig["pinned"] = True
            if has_vec[n] and "vector" not in sig:
                sig["vector"] = {"rank": None, "similarity": round(float(sims[n]), 4)}
            (hits if keep[n] else held_hits).append(Hit(m, float(found.scores[n]) * boost, sig))
        for listed in (hits, held_hits):
            listed.sort(key=lambda h: (-h.score, -h.memory.id))
        return SearchResult(
            self._without_duplicates(hits, k, vecs),
            warnings,
            self._without_duplicates(held_hits, k, vecs),
        )

    def source_vectors(self, candidates: list[int]) -> dict[int, np.ndarray]:
        """The vector of the message each candidate was learned from, where the
        messages are indexed with the same model. A memory is as near the query as the
        message it was learned from: the memory is a one-line summary and loses the
        words the user said it in, and a question often asks in those words ("the hike
        last weekend" for "User enjoys the outdoors")."""
        embedder = self.store.embedder
        if embedder is None or self.sources.model != embedder.model:
            return {}
        source_of: dict[int, int] = {}
        for chunk, marks in id_chunks(candidates):
            source_of.update(
                self.store.db.query(
                    f"SELECT id, source_message_id FROM memories WHERE id IN ({marks}) "
                    "AND source_message_id IS NOT NULL",
                    chunk,
                )
            )
        if not source_of:
            return {}
        vecs = self.sources.vectors(sorted(set(source_of.values())))
        return {mid: vecs[msg] for mid, msg in source_of.items() if msg in vecs}

    def _without_duplicates(
        self, hits: list[Hit], k: int, vecs: dict[int, np.ndarray]
    ) -> list[Hit]:
        """Drop a hit that says the same as a better one (same text, or cosine >= threshold)."""
        window = hits[: k * 3]
        kept: list[Hit] = []
        kept_vecs: list[np.ndarray] = []
        seen_text: set[str] = set()
        for h in window:
            norm = textproc.normalize(h.memory.text).lower()
            if norm in seen_text:
                continue
            v = vecs.get(h.memory.id)
            if (
                v is not None
                and kept_vecs
                and float(np.max(np.vstack(kept_vecs) @ v)) >= self.weights.duplicate_similarity
            ):
                continue
            seen_text.add(norm)
            if v is not None:
                kept_vecs.append(v)
            kept.append(h)
            if len(kept) == k:
                break
        return kept


def _recency(stamp: str, now: datetime, half_life_days: float) -> float:
    try:
        then = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return 0.0
    if then.tzinfo is None:
        then = then.replace(tzinfo=UTC)
    age = max(0.0, (now - then).total_seconds() / 86400)
    return math.pow(0.5, age / half_life_days)
