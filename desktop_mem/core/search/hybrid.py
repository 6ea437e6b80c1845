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
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from desktop_mem.core import textproc
from desktop_mem.core.db.database import id_chunks
from desktop_mem.core.db.vectors import MESSAGES, VectorIndex
from desktop_mem.core.errors import ModelServerError
from desktop_mem.core.memory.store import Memory, MemoryStore
from desktop_mem.core.search import asking
from desktop_mem.core.search.chance import Reference
from desktop_mem.core.search.fusion import fuse
from desktop_mem.core.search.relevance import (
    MEMORY_TIER,
    NONE,
    STRONG,
    WEAK,
    Asked,
    Candidates,
    Judgement,
    RelevanceRule,
    judge,
)
from desktop_mem.core.search.words import document_frequencies, retrieval_terms

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


@dataclass
class Query:
    """What one judgement asks: the query or one of its asking parts, its retrieval
    terms and its vector (None without a model)."""

    text: str
    terms: list[str]
    vector: np.ndarray | None


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
        self,
        query: str,
        limit: int,
        warnings: list[str],
        vector_query: str | None = None,
        parts: Sequence[str] = (),
    ) -> tuple[list[tuple[int, float]], np.ndarray | None, list[np.ndarray]]:
        """The query's nearest memories, its vector, and the vectors of its asking
        parts (core/search/asking.py), embedded in the same request."""
        embedder = self.store.embedder
        if embedder is None or self.store.index.count() == 0:
            return [], None, []
        self.store.index.check_model(embedder.model)
        try:
            vecs = embedder.embed([vector_query or self.vector_query(query), *parts])
        except ModelServerError as exc:
            warnings.append(f"{exc} Showing keyword matches only.")
            return [], None, []
        return self.store.index.knn(vecs[0], limit), vecs[0], list(vecs[1:])

    def _kept(
        self,
        asked: list[Query],
        judged: list[Candidates],
        signals: dict[int, dict[str, Any]],
        answering: int | None,
        relevant_only: bool,
    ) -> tuple[np.ndarray, np.ndarray]:
        """Which candidates are kept and which held back (let in only when past messages
        show the question is about something known): those the rule keeps for the
        query or for one of its asking parts. Without `relevant_only` every one is kept,
        and still marked with what the rule makes of it."""
        count = len(judged[0].ids)
        if not relevant_only and asked[0].vector is None:
            return np.ones(count, dtype=bool), np.zeros(count, dtype=bool)
        verdicts = [
            self._relevant(query, found, signals, answering)
            for query, found in zip(asked, judged, strict=True)
        ]
        kept = verdicts[0].keep.copy()
        held = _held(verdicts[0], count)
        floor = self.rule.part_floor
        if len(verdicts) > 1 and floor is not None and asking.sets_a_scene(asked[0].text):
            # The whole message keeps only what is near something it asks: the scene it
            # sets ("I'm at the shops.") is its frame, not its question.
            near = np.array(
                [max((v.z.get(mid, np.nan) for v in verdicts[1:]), default=np.nan)
                 for mid in judged[0].ids]
            )  # fmt: skip
            kept &= np.isnan(near) | (near >= floor)
            held &= np.isnan(near) | (near >= floor)
        for verdict in verdicts[1:]:
            kept |= verdict.keep
            held |= _held(verdict, count)
        held &= ~kept
        if relevant_only:
            return kept, held
        for mid in judged[0].ids:
            signals[mid].setdefault("match", NONE)
        return np.ones(count, dtype=bool), np.zeros(count, dtype=bool)

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
    ) -> SearchResult:
        """The k best memories for the query. With `relevant_only` (the default) only
        those that pass the relevance rule (core/search/relevance.py): an unrelated query gets
        none. Without it, the best k whatever they are (a ranked listing). `answering`:
        the conversation the query comes from (the chat's read path), whose messages do
        not count as the profile knowing the query's words: they hold the query itself."""
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
        parts = asking.parts(query) if self.rule.by_parts else []
        vector, qvec, part_vecs = self.vector_ranking(
            query, max(w.vector_pool, k * 2), warnings, self.vector_query(query, total, df), parts
        )
        asked = [Query(query, retrieval, qvec)]
        for part, pvec in zip(parts, part_vecs, strict=False):
            asked.append(Query(part, self.keyword_terms(part, total, df), pvec))
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
        for pvec in part_vecs:  # what a part alone comes near is a candidate too
            for mid, _ in self.store.index.knn(pvec, w.vector_pool):
                signals.setdefault(mid, {})
        if not signals:
            return SearchResult([], warnings)
        candidates = list(signals)

        # Every candidate gets both scores: exact cosine for keyword-only finds too.
        vecs = self.store.index.vectors(candidates)
        sources = (
            self._source_vectors([c for c in candidates if c in vecs]) if qvec is not None else {}
        )
        keyword_scores = np.array([dict(keyword).get(mid, 0.0) for mid in candidates])
        judged = [self._measured(q, candidates, vecs, sources, dict(keyword)) for q in asked]
        self._note_source(judged[0], vecs, signals)
        keep, held = self._kept(asked, judged, signals, answering, relevant_only)
        # each candidate as near as the nearest of the query and its parts
        fused = np.max(
            [fuse(found.sims, found.has_vec, keyword_scores, w.vector, w.keyword, w.min_similarity_spread,
                  embedded=qvec is not None) for found in judged],
            axis=0,
        )  # fmt: skip
        sims, has_vec = judged[0].sims, judged[0].has_vec

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
        for listed in (hits, held_hits):
            listed.sort(key=lambda h: (-h.score, -h.memory.id))
        return SearchResult(
            self._without_duplicates(hits, k, vecs),
            warnings,
            self._without_duplicates(held_hits, k, vecs),
        )

    def _source_vectors(self, candidates: list[int]) -> dict[int, np.ndarray]:
        """The vector of the message each candidate was learned from, where the
        messages are indexed with the same model (see `_measured`)."""
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

    @staticmethod
    def _measured(
        query: Query,
        candidates: list[int],
        vecs: dict[int, np.ndarray],
        sources: dict[int, np.ndarray],
        keyword: dict[int, float],
    ) -> Candidates:
        """Each candidate's similarity to the query (or to one of its parts). A memory is
        as near the query as the message it was learned from: the memory is a one-line
        summary and loses the words the user said it in, and a question often asks in
        those words ("the hike last weekend" for "User enjoys the outdoors"). So each
        candidate's similarity is the larger of its own and its source message's."""
        sims = np.zeros(len(candidates))
        has_vec = np.zeros(len(candidates), dtype=bool)
        measured: dict[int, np.ndarray] = {}
        for n, mid in enumerate(candidates):
            own = vecs.get(mid)
            if own is None or query.vector is None:
                continue
            has_vec[n] = True
            sims[n], measured[mid] = float(own @ query.vector), own
            source = sources.get(mid)
            if source is not None and float(source @ query.vector) > sims[n]:
                sims[n], measured[mid] = float(source @ query.vector), source
        return Candidates(candidates, sims, has_vec, measured, keyword)

    @staticmethod
    def _note_source(
        found: Candidates, vecs: dict[int, np.ndarray], signals: dict[int, dict[str, Any]]
    ) -> None:
        """Say where a candidate is as near the query as its source message is."""
        for n, mid in enumerate(found.ids):
            if found.has_vec[n] and found.vectors.get(mid) is not vecs.get(mid):
                signals[mid]["source"] = {"similarity": round(float(found.sims[n]), 4)}

    def _relevant(
        self,
        query: Query,
        found: Candidates,
        signals: dict[int, dict[str, Any]],
        conversation: int | None,
    ) -> Judgement:
        """The relevance rule's judgement of the candidates for this query (or part);
        each judged one gets its `relevance` (deviations above chance, keyword credit
        included) in its signals, the largest of the query's and its parts', and each
        kept one its `match` (strong or weak, the stronger)."""
        level = (
            self.reference.level(query.vector, textproc.script(query.text), self.store.embedder)
            if query.vector is not None
            else None
        )
        asked = Asked.of(query.text, query.terms, level, conversation)
        verdict = judge(
            self.store.db, MEMORY_TIER, self.rule, asked, found, self.store.index.count()
        )
        for mid, z in verdict.z.items():
            if z >= signals[mid].get("relevance", -math.inf):
                signals[mid]["relevance"] = z
                if mid in verdict.coverage:
                    signals[mid]["terms"] = round(verdict.coverage[mid], 3)
        for mid, strength in verdict.strength.items():
            if signals[mid].get("match") != STRONG:
                signals[mid]["match"] = strength
        return verdict

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


def _held(verdict: Judgement, count: int) -> np.ndarray:
    """What the unknown-word gate held back (SearchResult.held)."""
    return verdict.held.copy() if verdict.held is not None else np.zeros(count, dtype=bool)


def _recency(stamp: str, now: datetime, half_life_days: float) -> float:
    try:
        then = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return 0.0
    if then.tzinfo is None:
        then = then.replace(tzinfo=UTC)
    age = max(0.0, (now - then).total_seconds() / 86400)
    return math.pow(0.5, age / half_life_days)
