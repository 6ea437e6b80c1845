"""The one search pipeline every tier runs (memories, earlier messages, document
passages): full-text BM25 and vector KNN find the candidates; every candidate gets its
exact cosine similarity to the query; the relevance rule (core/search/relevance.py)
judges them; score fusion (core/search/fusion.py) scores them; the kept ones are
ordered and cut to k.

Memory search (core/search/hybrid.py) is this pipeline with steps of its own: column
weights in BM25, the similarity of a memory's source message, a listing marked by the
rule, then importance, recency and pinning, and near-duplicates removed. Earlier
messages and passages run it as it is (`search_tier`)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from desktop_mem.core import textproc
from desktop_mem.core.db.vectors import SHARED_KEY
from desktop_mem.core.errors import ModelServerError
from desktop_mem.core.memory.spaces import Scope
from desktop_mem.core.search import asking
from desktop_mem.core.search.fusion import fuse
from desktop_mem.core.search.relevance import (
    NONE,
    STRONG,
    Asked,
    Candidates,
    Judgement,
    RelevanceRule,
    Tier,
    judge,
)

if TYPE_CHECKING:
    import numpy as np

    from desktop_mem.core.db.database import Database
    from desktop_mem.core.models.embed import Embedder
    from desktop_mem.core.search.chance import Reference
else:
    from desktop_mem.core.lazy import numpy as np


class Searched(Protocol):
    """What a tier's store gives the pipeline: its database, its vector index and the
    embedder in use (read at each search: re-indexing switches it)."""

    db: Database
    index: Any
    embedder: Embedder | None


@dataclass(frozen=True)
class Weights:
    """Fusion and pool sizes. Messages and passages use these as they are; memory
    search has its own (hybrid.SearchWeights)."""

    vector: float = 0.6  # share of the min-max normalised cosine similarity
    keyword: float = 0.4  # share of the max-normalised BM25 score
    # Cosine differences smaller than this are not stretched to the full 0..1 range:
    # in a small store, or for a two-character query, they are noise. (On LoCoMo the
    # candidates' similarities span at least 0.34, so this changes nothing there.)
    min_similarity_spread: float = 0.25
    pool: int = 30  # keyword candidates, at least
    vector_pool: int = 30  # vector candidates, at least (each costs a page read when rescored)
    pool_per_k: int = 3  # keyword candidates per result asked for, when more than `pool`
    vector_pool_per_k: int = 3


@dataclass
class Query:
    """What one judgement asks: the query or one of its asking parts, its retrieval
    terms and its vector (None without a model)."""

    text: str
    terms: list[str]
    vector: np.ndarray | None


@dataclass
class Found:
    """The candidates of one search, in the order the searches found them (the vector
    search's, then the keyword search's, then those near an asking part only), with
    what the pipeline measured of each: `signals` (what found it, its `relevance` and
    `match` where the rule judged it), `judged` (per query and part: the similarities),
    `keep` and `held` (what the rule keeps, and what it holds back when words the
    profile has never seen shut the search), `scores` (fused), and the candidates'
    own `vectors`."""

    ids: list[int]
    signals: dict[int, dict[str, Any]]
    judged: list[Candidates]
    keep: np.ndarray
    held: np.ndarray
    scores: np.ndarray
    vectors: dict[int, np.ndarray]
    keyword: dict[int, float]
    semantic: dict[int, float]


@dataclass
class Ranked:
    """A tier's kept candidates, best first: (id, fused score, relevance in deviations);
    `strength`: how sure the rule is of each (relevance.STRONG or WEAK)."""

    hits: list[tuple[int, float, float | None]] = field(default_factory=list)
    strength: dict[int, str] = field(default_factory=dict)
    keyword: dict[int, float] = field(default_factory=dict)
    semantic: dict[int, float] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Within:
    """What of one tier a scope (core/memory/spaces.py) sees: its items in the spaces
    whose keys are `seen` (SHARED_KEY: the shared space), as an SQL condition on an
    item's id (`condition`, with `{id}` to fill in, and `seen` as its parameters)."""

    seen: tuple[int, ...]
    condition: str


class Pipeline:
    """One tier's search. The steps a tier may change: `bm25_columns` (column weights of
    its full-text table), `needs_vectors` (fetch the candidates' vectors even without a
    query vector), `source_vectors` (other vectors a candidate is as near as),
    `check_model` (refuse an index made with another model) and `marks_listing` (judge a
    ranked listing too, to say what the rule makes of each)."""

    needs_vectors = False
    check_model = False
    marks_listing = False

    def __init__(
        self,
        texts: Searched,
        tier: Tier,
        weights: Weights,
        rule: RelevanceRule,
        reference: Reference,
    ) -> None:
        self.texts = texts
        self.tier = tier
        self.weights = weights
        self.rule = rule
        self.reference = reference

    # -- the steps ----------------------------------------------------------------------

    def bm25_columns(self) -> tuple[float, ...]:
        return ()

    def keyword(
        self, terms: list[str], limit: int, within: Within | None = None
    ) -> list[tuple[int, float]]:
        """[(id, bm25)] best first; bm25 is positive, higher is better. Only items
        `within` a scope (`within`; None: every item)."""
        match = textproc.fts_match(terms)
        if not match:
            return []
        fts, columns = self.tier.fts, self.bm25_columns()
        # each match's space is looked up by its id (a full-text `rowid IN (...)` would
        # be one full-text lookup per id the scope sees: seconds at 100k)
        sql, params = (
            ("AND " + within.condition.format(id=f"{fts}.rowid"), within.seen)
            if within
            else ("", ())
        )
        rows = self.texts.db.query(
            f"SELECT rowid, bm25({fts}{', ?' * len(columns)}) AS s FROM {fts} "
            f"WHERE {fts} MATCH ? {sql} ORDER BY s LIMIT ?",
            (*columns, match, *params, limit),
        )
        return [(r[0], -r[1]) for r in rows]

    def within(self, scope: Scope | None) -> Within | None:
        """What of this tier a scope sees, as queries (once a search); None when it
        sees every item (no scope, every space, or no space is made and it sees the
        shared space)."""
        if scope is None or scope.every or not self.tier.space_of:
            return None
        if (
            scope.sees_shared
            and not self.texts.db.query("SELECT EXISTS (SELECT 1 FROM spaces)")[0][0]
        ):
            return None  # no space is made: everything is shared, and it sees that
        seen = (*([SHARED_KEY] if scope.shared else []), *scope.spaces)
        # an item whose space cannot be told (NULL) is in none of them
        marks = ",".join("?" * len(seen))
        return Within(seen, f"{self.tier.space_of} IN ({marks})" if seen else "0")

    def searched(self, within: Within | None) -> int | None:
        """How many items a search `within` a scope searches (None: every item of the
        tier): the relevance rule's bar grows with the items searched (the best of more
        chance draws reaches further), so a space is judged by its own size, as a
        profile of that size would be. Counted in the vector index's codes, which carry
        their space (the items without a vector are not searched by meaning)."""
        if within is None:
            return None
        return self.texts.index.visible(within.seen)

    def nearest(
        self, vector: np.ndarray, k: int, scope: Scope | None = None
    ) -> list[tuple[int, float]]:
        """The k items nearest the vector that a reader with `scope` sees: [(id,
        similarity)], best first (the vector half of `find`, alone)."""
        within = self.within(scope)
        return self.texts.index.knn(vector, k, within.seen if within else None)

    def embed(self, texts: Sequence[str], warnings: list[str]) -> np.ndarray | None:
        """The vectors of the query (or its vector query) and its asking parts, in one
        request; None without a model, or when the model server fails (the search then
        goes by words and says so)."""
        embedder = self.texts.embedder
        if embedder is None or self.texts.index.count() == 0:
            return None
        if self.check_model:
            self.texts.index.check_model(embedder.model)
        try:
            return embedder.embed(list(texts))
        except ModelServerError as exc:
            warnings.append(f"{exc} Showing keyword matches only.")
            return None

    def source_vectors(self, candidates: list[int]) -> dict[int, np.ndarray]:
        """Another vector of each candidate that the query's similarity may be measured
        with instead, where it is nearer (`measured`)."""
        return {}

    @staticmethod
    def measured(
        query: Query,
        candidates: list[int],
        vecs: dict[int, np.ndarray],
        sources: dict[int, np.ndarray],
        keyword: dict[int, float],
    ) -> Candidates:
        """Each candidate's similarity to the query (or to one of its parts): the larger
        of its own vector's and its source's (`source_vectors`)."""
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

    def relevant(
        self,
        query: Query,
        found: Candidates,
        signals: dict[int, dict[str, Any]],
        conversation: int | None,
        searched: int | None = None,
    ) -> Judgement:
        """The relevance rule's judgement of the candidates for this query (or part);
        each judged one gets its `relevance` (deviations above chance, keyword credit
        included) in its signals, the largest of the query's and its parts', and each
        kept one its `match` (strong or weak, the stronger)."""
        embedder = self.texts.embedder
        level = (
            self.reference.level(query.vector, textproc.script(query.text), embedder)
            if query.vector is not None
            else None
        )
        asked = Asked.of(query.text, query.terms, level, conversation)
        everything = self.texts.index.count()
        verdict = judge(
            self.texts.db, self.tier, self.rule, asked, found,
            everything if searched is None else searched, everything,
        )  # fmt: skip
        for mid, z in verdict.z.items():
            if z >= signals[mid].get("relevance", -math.inf):
                signals[mid]["relevance"] = z
                if mid in verdict.coverage:
                    signals[mid]["terms"] = round(verdict.coverage[mid], 3)
        for mid, strength in verdict.strength.items():
            if signals[mid].get("match") != STRONG:
                signals[mid]["match"] = strength
        return verdict

    def kept(
        self,
        asked: list[Query],
        judged: list[Candidates],
        signals: dict[int, dict[str, Any]],
        answering: int | None,
        relevant_only: bool,
        searched: int | None = None,
    ) -> tuple[np.ndarray, np.ndarray]:
        """Which candidates are kept and which held back (let in only when another tier
        shows the question is about something known): those the rule keeps for the
        query or for one of its asking parts. Without `relevant_only` every one is kept
        (and, with `marks_listing`, still marked with what the rule makes of it)."""
        count = len(judged[0].ids)
        if not relevant_only and (not self.marks_listing or asked[0].vector is None):
            return np.ones(count, dtype=bool), np.zeros(count, dtype=bool)
        verdicts = [
            self.relevant(query, found, signals, answering, searched)
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

    # -- the run ------------------------------------------------------------------------

    def find(
        self,
        query: str,
        terms: list[str],
        k: int,
        relevant_only: bool,
        answering: int | None,
        warnings: list[str],
        *,
        parts: Sequence[tuple[str, list[str]]] = (),
        vector_query: str | None = None,
        leave_out: Callable[[list[int]], set[int]] | None = None,
        scope: Scope | None = None,
    ) -> Found | None:
        """Find, measure, judge and fuse the candidates for the query (`terms`: its
        retrieval terms); None when nothing was found. `parts`: its asking parts
        (core/search/asking.py) with their terms, each judged like the query, whose
        nearest items are candidates too; `vector_query`: what is embedded for the query
        (the query itself by default); `leave_out` names candidates not to return (e.g.
        the conversation being answered); `answering`: the conversation the query comes
        from (its messages do not count as the profile knowing the query's words);
        `scope`: the spaces the reader sees (core/memory/spaces.py; None: every one)."""
        w = self.weights
        within = self.within(scope)
        keyword = self.keyword(terms, max(w.pool, k * w.pool_per_k), within)
        seen = within.seen if within else None
        vecs_asked = self.embed([vector_query or query, *(p for p, _ in parts)], warnings)
        qvec = vecs_asked[0] if vecs_asked is not None else None
        part_vecs = list(vecs_asked[1:]) if vecs_asked is not None else []
        vector = (
            self.texts.index.knn(qvec, max(w.vector_pool, k * w.vector_pool_per_k), seen)
            if qvec is not None
            else []
        )
        asked = [Query(query, terms, qvec)]
        for (part, part_terms), pvec in zip(parts, part_vecs, strict=False):
            asked.append(Query(part, part_terms, pvec))
        if leave_out is not None:
            gone = leave_out([*(i for i, _ in vector), *(i for i, _ in keyword)])
            vector = [(i, s) for i, s in vector if i not in gone]
            keyword = [(i, s) for i, s in keyword if i not in gone]

        signals: dict[int, dict[str, Any]] = {}
        for rank, (mid, sim) in enumerate(vector, 1):
            signals.setdefault(mid, {})["vector"] = {"rank": rank, "similarity": round(sim, 4)}
        for rank, (mid, bm25) in enumerate(keyword, 1):
            signals.setdefault(mid, {})["keyword"] = {"rank": rank, "bm25": round(bm25, 4)}
        for pvec in part_vecs:  # what a part alone comes near is a candidate too
            for mid, _ in self.texts.index.knn(pvec, w.vector_pool, seen):
                signals.setdefault(mid, {})
        if not signals:
            return None
        candidates = list(signals)

        # Every candidate gets both scores: exact cosine for keyword-only finds too.
        vecs = (
            self.texts.index.vectors(candidates) if qvec is not None or self.needs_vectors else {}
        )
        sources = (
            self.source_vectors([c for c in candidates if c in vecs]) if qvec is not None else {}
        )
        by_keyword = dict(keyword)
        judged = [self.measured(q, candidates, vecs, sources, by_keyword) for q in asked]
        _note_source(judged[0], vecs, signals)
        keep, held = self.kept(
            asked, judged, signals, answering, relevant_only, self.searched(within)
        )
        keyword_scores = np.array([by_keyword.get(mid, 0.0) for mid in candidates])
        # each candidate as near as the nearest of the query and its parts
        scores = np.max(
            [fuse(found.sims, found.has_vec, keyword_scores, w.vector, w.keyword,
                  w.min_similarity_spread, embedded=qvec is not None) for found in judged],
            axis=0,
        )  # fmt: skip
        return Found(
            candidates, signals, judged, keep, held, scores, vecs, by_keyword, dict(vector)
        )

    def ranked(
        self,
        query: str,
        terms: list[str],
        k: int,
        relevant_only: bool,
        leave_out: Callable[[list[int]], set[int]] | None = None,
        answering: int | None = None,
        scope: Scope | None = None,
    ) -> Ranked:
        """The k best kept candidates by fused score."""
        out = Ranked()
        found = self.find(
            query, terms, k, relevant_only, answering, out.warnings, leave_out=leave_out,
            scope=scope,
        )  # fmt: skip
        if found is None:
            return out
        out.keyword, out.semantic = found.keyword, found.semantic
        out.strength = {mid: sig["match"] for mid, sig in found.signals.items() if "match" in sig}
        order = [n for n in np.argsort(-found.scores) if found.keep[n]][:k]
        out.hits = [
            (found.ids[n], float(found.scores[n]), found.signals[found.ids[n]].get("relevance"))
            for n in order
        ]
        return out


def search_tier(
    store: Any,
    tier: Tier,
    query: str,
    terms: list[str],
    k: int,
    relevant_only: bool,
    leave_out: Callable[[list[int]], set[int]] | None = None,
    answering: int | None = None,
    scope: Scope | None = None,
) -> Ranked:
    """The pipeline over earlier messages or document passages: `store` has db, index,
    embedder, reference and rule; `terms` are the query's retrieval terms; `scope` the
    spaces the reader sees."""
    return Pipeline(store, tier, Weights(), store.rule, store.reference).ranked(
        query, terms, k, relevant_only, leave_out, answering, scope
    )


def _note_source(
    found: Candidates, vecs: dict[int, np.ndarray], signals: dict[int, dict[str, Any]]
) -> None:
    """Say where a candidate is as near the query as its source is (`source_vectors`)."""
    for n, mid in enumerate(found.ids):
        if found.has_vec[n] and found.vectors.get(mid) is not vecs.get(mid):
            signals[mid]["source"] = {"similarity": round(float(found.sims[n]), 4)}


def _held(verdict: Judgement, count: int) -> np.ndarray:
    """What the unknown-word gate held back (Found.held)."""
    return verdict.held.copy() if verdict.held is not None else np.zeros(count, dtype=bool)
