"""One search over a collection of texts beside the memories (earlier messages, document
passages): full-text BM25 and vector KNN find the candidates, the relevance rule keeps
what is about the query, and score fusion orders them. Memory search (core/search/hybrid.py)
adds importance, recency and pinning on top; these tiers need only this."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from desktop_mem.core.errors import ModelServerError
from desktop_mem.core.search.fusion import fuse
from desktop_mem.core.search.relevance import Asked, Candidates, Tier, judge
from desktop_mem.core.textproc import fts_match, script

if TYPE_CHECKING:
    import numpy as np
else:
    from desktop_mem.core.lazy import numpy as np

# Messages and passages lean on meaning a little less than memories do: they are longer
# and chattier than a memory, so their words say more.
VECTOR_WEIGHT = 0.6
KEYWORD_WEIGHT = 0.4
MIN_SPREAD = 0.25


@dataclass
class Ranked:
    """The kept candidates, best first: (id, fused score, relevance in deviations);
    `strength`: how sure the rule is of each (relevance.STRONG or WEAK)."""

    hits: list[tuple[int, float, float | None]] = field(default_factory=list)
    strength: dict[int, str] = field(default_factory=dict)
    keyword: dict[int, float] = field(default_factory=dict)
    semantic: dict[int, float] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


def search_tier(
    store: Any,
    tier: Tier,
    query: str,
    terms: list[str],
    k: int,
    relevant_only: bool,
    leave_out: Callable[[list[int]], set[int]] | None = None,
    answering: int | None = None,
) -> Ranked:
    """`store` has db, index, embedder, reference and rule; `terms` are the query's
    retrieval terms; `leave_out` names candidates not to return (e.g. the conversation
    being answered); `answering`: the conversation the query comes from (its messages do
    not count as the profile knowing the query's words)."""
    out = Ranked()
    pool = max(30, 3 * k)
    match = fts_match(terms)
    if match:
        for rowid, s in store.db.query(
            f"SELECT rowid, bm25({tier.fts}) AS s FROM {tier.fts} WHERE {tier.fts} "
            "MATCH ? ORDER BY s LIMIT ?",
            (match, pool),
        ):
            out.keyword[rowid] = -s
    qvec = None
    if store.embedder is not None and store.index.count():
        try:
            qvec = store.embedder.embed_one(query)
        except ModelServerError as exc:
            out.warnings.append(f"{exc} Showing keyword matches only.")
        else:
            out.semantic = dict(store.index.knn(qvec, pool))
    if leave_out is not None:
        gone = leave_out([*out.semantic, *out.keyword])
        out.semantic = {i: v for i, v in out.semantic.items() if i not in gone}
        out.keyword = {i: v for i, v in out.keyword.items() if i not in gone}
    ids = list(dict.fromkeys([*out.semantic, *out.keyword]))
    if not ids:
        return out
    sims = np.full(len(ids), np.nan)
    vecs: dict[int, np.ndarray] = {}
    if qvec is not None:
        vecs = store.index.vectors(ids)
        for n, item in enumerate(ids):
            if item in vecs:
                sims[n] = float(vecs[item] @ qvec)
    present = ~np.isnan(sims)
    keep = np.ones(len(ids), dtype=bool)
    relevance: dict[int, float] = {}
    if relevant_only:
        level = (
            store.reference.level(qvec, script(query), store.embedder) if qvec is not None else None
        )
        found = Candidates(ids, np.nan_to_num(sims), present, vecs, out.keyword)
        asked = Asked.of(query, terms, level, answering)
        verdict = judge(store.db, tier, store.rule, asked, found, store.index.count())
        keep, relevance, out.strength = verdict.keep, verdict.z, verdict.strength
    scores = fuse(
        np.nan_to_num(sims),
        present,
        np.array([out.keyword.get(i, 0.0) for i in ids]),
        VECTOR_WEIGHT,
        KEYWORD_WEIGHT,
        MIN_SPREAD,
        embedded=qvec is not None,
    )
    order = [n for n in np.argsort(-scores) if keep[n]][:k]
    out.hits = [(ids[n], float(scores[n]), relevance.get(ids[n])) for n in order]
    return out
