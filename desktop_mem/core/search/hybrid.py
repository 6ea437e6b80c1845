"""Hybrid search: vector KNN and full-text BM25 find the candidates; every candidate
gets both scores (its exact cosine similarity, or its source message's when that is
nearer, and its BM25, each scaled to 0-1 over the candidates) and they are fused by
weighted score (not by rank: the size of a lead matters), then adjusted for
importance, recency and pinning, then near-duplicates removed.

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
from desktop_mem.core.errors import ModelServerError
from desktop_mem.core.memory.store import Memory, MemoryStore
from desktop_mem.core.search.fusion import fuse
from desktop_mem.core.search.relevance import (
    Reference,
    RelevanceRule,
    document_frequencies,
    judge,
    retrieval_terms,
)
from desktop_mem.core.store.db import id_chunks
from desktop_mem.core.store.vectors import MESSAGES, VectorIndex

if TYPE_CHECKING:
    import numpy as np
else:
    from desktop_mem.core.lazy import numpy as np

MAX_QUERY_CHARS = 2_000  # of a search query (the chat message when building a prompt)


@dataclass(frozen=True)
class SearchWeights:
    """Fusion parameters, tuned on the LoCoMo development split (benchmarks/locomo.py;
    docs/benchmarks.md has the table of what each choice measured)."""

    vector: float = 0.6  # share of the min-max normalised cosine similarity
    keyword: float = 0.4  # share of the max-normalised BM25 score
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
    # Cosine differences smaller than this are not stretched to the full 0..1 range:
    # in a small store, or for a two-character query, they are noise. (On LoCoMo the
    # candidates' similarities span at least 0.34, so this changes nothing there.)
    min_similarity_spread: float = 0.25
    importance: float = 0.10  # multiplier span over importance 0..1
    recency: float = 0.05  # multiplier bonus for a memory updated today, halving every half-life
    recency_half_life_days: float = 90.0
    pinned: float = 0.10  # multiplier bonus
    duplicate_similarity: float = 0.97
    pool: int = 100  # keyword candidates
    vector_pool: int = 50  # vector candidates (each costs a page read when rescored)


@dataclass
class Hit:
    memory: Memory
    score: float
    signals: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        d = self.memory.to_dict()
        d["score"] = round(self.score, 6)
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


class HybridSearch:
    def __init__(
        self,
        store: MemoryStore,
        weights: SearchWeights | None = None,
        rule: RelevanceRule | None = None,
        reference: Reference | None = None,
        sources: VectorIndex | None = None,
    ) -> None:
        self.store = store
        self.weights = weights or SearchWeights()
        self.rule = rule or RelevanceRule()
        self.reference = reference or Reference(store.db)
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

    def keyword_ranking(
        self, query: str, limit: int, terms: list[str] | None = None
    ) -> list[tuple[int, float]]:
        """[(memory_id, bm25)] best first; bm25 is positive, higher is better."""
        match = textproc.fts_match(terms if terms is not None else textproc.query_terms(query))
        if not match:
            return []
        rows = self.store.db.query(
            "SELECT rowid, bm25(memories_fts, 1.0, ?) AS s FROM memories_fts "
            "WHERE memories_fts MATCH ? ORDER BY s LIMIT ?",
            (self.weights.context_column, match, limit),
        )
        return [(r[0], -r[1]) for r in rows]

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

    def vector_ranking(
        self, query: str, limit: int, warnings: list[str], vector_query: str | None = None
    ) -> tuple[list[tuple[int, float]], np.ndarray | None]:
        embedder = self.store.embedder
        if embedder is None or self.store.index.count() == 0:
            return [], None
        self.store.index.check_model(embedder.model)
        try:
            qvec = embedder.embed_one(vector_query or self.vector_query(query))
        except ModelServerError as exc:
            warnings.append(f"{exc} Showing keyword matches only.")
            return [], None
        return self.store.index.knn(qvec, limit), qvec

    def search(
        self,
        query: str,
        k: int = 10,
        *,
        include_expired: bool = True,
        kinds: set[str] | None = None,
        now: datetime | None = None,
        relevant_only: bool = True,
    ) -> SearchResult:
        """The k best memories for the query. With `relevant_only` (the default) only
        those that pass the relevance rule (core/search/relevance.py): an unrelated query gets
        none. Without it, the best k whatever they are (a ranked listing)."""
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
        pool = max(w.pool, k * 3)
        total, df = self._frequencies(query)
        retrieval = self.keyword_terms(query, total, df)
        keyword = self.keyword_ranking(query, pool, retrieval)
        vector, qvec = self.vector_ranking(
            query, max(w.vector_pool, k * 2), warnings, self.vector_query(query, total, df)
        )
        missing = self.store.unindexed_count() if self.store.embedder else 0
        if missing:
            warnings.append(
                f"{missing} memories have no vector yet and are matched by keywords only: run "
                "`desktop-mem memory reembed --missing` to index them."
            )

        signals: dict[int, dict[str, Any]] = {}
        for rank, (mid, sim) in enumerate(vector, 1):
            signals.setdefault(mid, {})["vector"] = {"rank": rank, "similarity": round(sim, 4)}
        for rank, (mid, bm25) in enumerate(keyword, 1):
            signals.setdefault(mid, {})["keyword"] = {"rank": rank, "bm25": round(bm25, 4)}
        if not signals:
            return SearchResult([], warnings)
        candidates = list(signals)

        # Every candidate gets both scores: exact cosine for keyword-only finds too.
        sims = np.zeros(len(candidates))
        has_vec = np.zeros(len(candidates), dtype=bool)
        vecs = self.store.index.vectors(candidates)
        if qvec is not None:
            for n, mid in enumerate(candidates):
                if mid in vecs:
                    sims[n] = float(vecs[mid] @ qvec)
                    has_vec[n] = True
            self._source_similarity(candidates, sims, has_vec, qvec, signals)
        # Every hit carries its relevance (signals["relevance"]), a ranked listing too
        keep, held = self._relevant(
            query, retrieval, candidates, sims, has_vec, qvec, dict(keyword), signals
        )
        if not relevant_only:
            keep = np.ones(len(candidates), dtype=bool)
            held = np.zeros(len(candidates), dtype=bool)
        bm25_of = dict(keyword)
        fused = fuse(
            sims,
            has_vec,
            np.array([bm25_of.get(mid, 0.0) for mid in candidates]),
            w.vector,
            w.keyword,
            w.min_similarity_spread,
            embedded=qvec is not None,
        )

        now = now or datetime.now(UTC)
        wanted = keep | held
        mems = {
            m.id: m for m in self.store.get_many([c for n, c in enumerate(candidates) if wanted[n]])
        }
        hits: list[Hit] = []
        held_hits: list[Hit] = []
        for n, mid in enumerate(candidates):
            m = mems.get(mid)
            if m is None or not wanted[n] or (kinds and m.kind not in kinds):
                continue
            if not include_expired and m.expired:
                continue
            boost = 1.0 + w.importance * (m.importance - 0.5)
            boost += w.recency * _recency(m.updated_at, now, w.recency_half_life_days)
            sig = signals[mid]
            if m.pinned:
                boost += w.pinned
                sig["pinned"] = True
            if has_vec[n] and "vector" not in sig:
                sig["vector"] = {"rank": None, "similarity": round(float(sims[n]), 4)}
            (hits if keep[n] else held_hits).append(Hit(m, float(fused[n]) * boost, sig))
        for found in (hits, held_hits):
            found.sort(key=lambda h: (-h.score, -h.memory.id))
        return SearchResult(
            self._without_duplicates(hits, k, vecs),
            warnings,
            self._without_duplicates(held_hits, k, vecs),
        )

    def _source_similarity(
        self,
        candidates: list[int],
        sims: np.ndarray,
        has_vec: np.ndarray,
        qvec: np.ndarray,
        signals: dict[int, dict[str, Any]],
    ) -> None:
        """A memory is as near the query as the message it was learned from. The memory
        is a one-line summary and loses the words the user said it in; a question often
        asks in those words ("the hike last weekend" for "User enjoys the outdoors").
        So each candidate's similarity becomes the larger of its own and its source
        message's, when the messages are indexed with the same model."""
        embedder = self.store.embedder
        if embedder is None or self.sources.model != embedder.model:
            return
        with_vec = [mid for n, mid in enumerate(candidates) if has_vec[n]]
        source_of: dict[int, int] = {}
        for chunk, marks in id_chunks(with_vec):
            source_of.update(
                self.store.db.query(
                    f"SELECT id, source_message_id FROM memories WHERE id IN ({marks}) "
                    "AND source_message_id IS NOT NULL",
                    chunk,
                )
            )
        if not source_of:
            return
        vecs = self.sources.vectors(sorted(set(source_of.values())))
        for n, mid in enumerate(candidates):
            v = vecs.get(source_of.get(mid, -1))
            if v is None:
                continue
            sim = float(v @ qvec)
            if sim > sims[n]:
                sims[n] = sim
                signals[mid]["source"] = {"similarity": round(sim, 4)}

    def _relevant(
        self,
        query: str,
        terms: list[str],
        candidates: list[int],
        sims: np.ndarray,
        has_vec: np.ndarray,
        qvec: np.ndarray | None,
        keyword: dict[int, float],
        signals: dict[int, dict[str, Any]],
    ) -> tuple[np.ndarray, np.ndarray]:
        """Which candidates pass the relevance rule; each gets its `relevance` in
        deviations above the query's chance level in its signals. `terms` are the
        query's words as retrieved by (in a large store, without very frequent ones).
        Also those the unknown-word gate held back (SearchResult.held)."""
        level = (
            self.reference.level(qvec, textproc.script(query), self.store.embedder)
            if qvec is not None
            else None
        )
        verdict = judge(
            self.store.db, "memories_fts", self.rule, level, terms, candidates,
            sims, has_vec, keyword, self.store.index.count(), textproc.named_period(query),
        )  # fmt: skip
        for mid, z in verdict.z.items():
            signals[mid]["relevance"] = round(z, 2)
            if mid in verdict.coverage:
                signals[mid]["terms"] = round(verdict.coverage[mid], 3)
        held = verdict.held if verdict.held is not None else np.zeros(len(candidates), bool)
        return verdict.keep, held

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
