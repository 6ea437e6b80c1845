"""How memories are indexed: their vectors (the text's meaning mixed with a little of
its context's), their full-text entries, and re-indexing (every memory with a new
model, or those still without a vector). The store (core/memory/store.py) inherits this
and calls it inside its write transactions."""

from __future__ import annotations

import builtins
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from desktop_mem.core import textproc
from desktop_mem.core.db.database import id_chunks
from desktop_mem.core.errors import InvalidInput, ModelServerError
from desktop_mem.core.models.embed import Embedder, content_hash

if TYPE_CHECKING:
    import numpy as np

    from desktop_mem.core.db.connection import Connection
    from desktop_mem.core.db.database import Database
    from desktop_mem.core.db.vectors import VectorIndex
else:
    from desktop_mem.core.lazy import numpy as np

# How much of the context's meaning goes into a memory's vector: tuned on LoCoMo
# (benchmarks/locomo.py; 0.2-0.4 are within 0.005 of each other).
CONTEXT_VECTOR_WEIGHT = 0.3


def vector_key(text: str, context: str | None) -> str:
    """What a stored vector was computed from: unchanged key, no re-embedding."""
    return content_hash(text + "\x1f" + (context or ""))


class MemoryIndexing:
    """The indexing half of MemoryStore (which provides db, embedder, index, count)."""

    db: Database
    embedder: Embedder | None
    index: VectorIndex

    def count(self) -> int:
        raise NotImplementedError

    def _sync_cache(self) -> None:
        self.db.set_cache_bytes(self.index.cache_bytes_wanted())

    def _embed(
        self,
        texts: Sequence[str],
        warnings: list[str],
        contexts: Sequence[str | None] | None = None,
    ) -> np.ndarray | None:
        """Search vectors for memories, or None (with a warning) when the model server is
        unavailable. A model that does not match the index raises: that needs the user.

        A memory with a context gets normalize(v(text) + w * v(context)): the memory
        stays about its own text but is also found by what was being talked about."""
        if not texts:
            return None
        if self.embedder is None:
            warnings.append(
                "No embedding model is configured: the memory is found by keywords only."
            )
            return None
        self.index.check_model(self.embedder.model)
        ctx_list = list(contexts) if contexts is not None else [None] * len(texts)
        try:
            vecs = self._memory_vectors(texts, ctx_list)
        except ModelServerError as exc:
            warnings.append(
                f"{exc} Saved anyway: it is found by keywords until `desktop-mem memory reembed --missing` "
                "indexes it."
            )
            return None
        self.index.check_dim(self.embedder.model, vecs.shape[1])
        return vecs

    def _store_vectors(
        self, conn: Connection, ids: Sequence[int], keys: Sequence[str], vecs: np.ndarray | None
    ) -> None:
        if vecs is None or self.embedder is None:
            return
        self.index.ensure(conn, self.embedder.model, vecs.shape[1])
        self.index.put(conn, ids, keys, vecs)

    def _index_text(
        self, conn: Connection, mid: int, text: str, context: str | None, replace: bool
    ) -> None:
        if replace:
            conn.execute("DELETE FROM memories_fts WHERE rowid = ?", (mid,))
        conn.execute(
            "INSERT INTO memories_fts(rowid, body, context) VALUES (?, ?, ?)",
            (mid, textproc.fts_document(text), textproc.fts_document(context or "")),
        )

    def _reindex_text(
        self,
        conn: Connection,
        memory_id: int,
        text: str,
        context: str | None,
        vecs: np.ndarray | None,
    ) -> None:
        self._index_text(conn, memory_id, text, context, replace=True)
        if vecs is None:
            # The old vector describes the old text: drop it rather than mislead search.
            self.index.remove(conn, [memory_id])
        else:
            self._store_vectors(conn, [memory_id], [vector_key(text, context)], vecs)

    def unindexed_count(self) -> int:
        """Memories without a vector (every vector belongs to a memory)."""
        return self.count() - self.index.count()

    def _memory_vectors(
        self,
        texts: Sequence[str],
        contexts: Sequence[str | None],
        fresh: bool = False,
        embedder: Embedder | None = None,
    ) -> np.ndarray:
        """Texts and their (distinct) contexts in one embedding call, mixed."""
        embedder = embedder or self.embedder
        assert embedder is not None
        unique_ctx = list(dict.fromkeys(c for c in contexts if c))
        vecs = embedder.embed([*texts, *unique_ctx], fresh=fresh)
        return mix_context(vecs, list(contexts), unique_ctx)

    def missing_vector_ids(self) -> builtins.list[int]:
        return [r[0] for r in self._missing_rows()]

    def _missing_rows(self, ids: Sequence[int] | None = None) -> builtins.list[Any]:
        """(id, text, context) of the memories without a vector (of `ids` only, if
        given: read by id, whatever the profile's size), by id."""
        sql = (
            "SELECT m.id, m.text, m.context FROM memories m LEFT JOIN memory_vectors v "
            "ON v.memory_id = m.id WHERE v.memory_id IS NULL"
        )
        if ids is None:
            return self.db.query(sql + " ORDER BY m.id")
        rows = [
            r
            for chunk, marks in id_chunks(sorted(set(ids)))
            for r in self.db.query(sql + f" AND m.id IN ({marks})", chunk)
        ]
        return sorted(rows, key=lambda r: r[0])

    def reembed(
        self,
        progress: Callable[[int, int], None] | None = None,
        only_missing: bool = False,
        embedder: Embedder | None = None,
        ids: Sequence[int] | None = None,
    ) -> int:
        """Re-embed every memory with the configured model (or only those without a
        vector: of `ids` only, if given), or with `embedder`, a new model: the store
        switches to it in the final transaction that replaces the index. Until then
        searches and learning go on with the old model and the old index; a failure
        half-way leaves both as they were."""
        previous = self.embedder
        use = embedder or previous
        if use is None:
            raise InvalidInput(
                "No embedding model is configured: set one with --embed-model.",
                reason="no_embed_model",
            )
        if only_missing:
            self.index.check_model(use.model)
        if only_missing:
            rows = self._missing_rows(ids)
        else:
            rows = self.db.query("SELECT id, text, context FROM memories ORDER BY id")
        total = len(rows)
        staged_ids: list[int] = []
        staged: list[np.ndarray] = []
        done = 0
        for start in range(0, total, 256):
            chunk = rows[start : start + 256]
            # raises ModelServerError: the old index is untouched
            vecs = self._memory_vectors(
                [t for _, t, _ in chunk], [c for _, _, c in chunk], fresh=True, embedder=use
            )
            staged_ids += [i for i, _, _ in chunk]
            staged.append(vecs)
            done += len(chunk)
            if progress:
                progress(done, total)
        vecs = np.vstack(staged) if staged else np.zeros((0, 8), np.float32)
        keys = {i: vector_key(t, c) for i, t, c in rows}
        with self.db.transaction() as conn:
            # the memories embedded, as they are now (one edited meanwhile keeps no vector)
            still = {
                r[0]: vector_key(r[1], r[2])
                for chunk, marks in id_chunks(staged_ids)
                for r in conn.execute(
                    f"SELECT id, text, context FROM memories WHERE id IN ({marks})", chunk
                ).fetchall()
            }
            keep = [n for n, i in enumerate(staged_ids) if still.get(i) == keys[i]]
            kept = [staged_ids[n] for n in keep]
            vecs = vecs[keep] if len(keep) else vecs[:0]
            if not only_missing:
                self.index.drop_all(conn)
                self.db.meta_set(self.index.layout.model_key, use.model)  # even with none
            if len(kept):
                self.index.ensure(conn, use.model, vecs.shape[1])
                self.index.put(conn, kept, [keys[i] for i in kept], vecs)
            if use is not previous:  # the new index and the new model, together
                self.embedder = use
                self.db.on_rollback(lambda: setattr(self, "embedder", previous))
        self.index.maybe_rebuild()
        self.db.checkpoint()
        self._sync_cache()
        return len(kept)


def mix_context(
    vecs: np.ndarray, contexts: Sequence[str | None], unique_ctx: Sequence[str]
) -> np.ndarray:
    """vecs holds the texts' vectors, then one per unique context, in order."""
    n = len(contexts)
    out = vecs[:n].copy()
    if unique_ctx:
        ctx_vec = {c: vecs[n + i] for i, c in enumerate(unique_ctx)}
        for row, c in enumerate(contexts):
            if c:
                out[row] += CONTEXT_VECTOR_WEIGHT * ctx_vec[c]
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        norms[norms == 0] = 1.0
        out = (out / norms).astype(np.float32)
    return out
