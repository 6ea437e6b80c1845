"""Score fusion, shared by memory search and message search: each candidate's cosine
similarity and its BM25, each scaled to 0-1 over the candidates, weighted and summed.
By score, not by rank: the size of a lead matters."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
else:
    from desktop_mem.core.lazy import numpy as np


def minmax(values: np.ndarray, mask: np.ndarray, min_spread: float) -> np.ndarray:
    """Scale the masked values from their minimum, by their spread but never by less
    than `min_spread`; unmasked values are 0."""
    out = np.zeros(len(values))
    if not mask.any():
        return out
    vals = values[mask]
    lo, hi = float(vals.min()), float(vals.max())
    out[mask] = (vals - lo) / max(hi - lo, min_spread, 1e-9)
    return out


def fuse(
    sims: np.ndarray,
    has_vec: np.ndarray,
    bm25: np.ndarray,
    vector_weight: float,
    keyword_weight: float,
    min_spread: float,
    embedded: bool,
) -> np.ndarray:
    """One score per candidate: similarity (where it has a vector) and BM25 (0 where the
    keyword search did not find it), each scaled to 0-1, weighted, summed, and divided by
    the weights in use (no vector weight when the query could not be embedded)."""
    dense = minmax(sims, has_vec, min_spread)
    top = float(bm25.max()) if len(bm25) else 0.0
    kw = bm25 / top if top > 0 else bm25
    weight = (vector_weight if embedded else 0.0) + keyword_weight
    return (vector_weight * dense + keyword_weight * kw) / weight if weight else kw
