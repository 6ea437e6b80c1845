"""The vector index: binary-quantized coarse search in sqlite-vec, exact rescoring.

vec0 is brute force: float[1024] costs about 1 ms per 1,000 vectors and, encrypted,
needs the whole float table decrypted in the page cache (4 GB at 1M). A `bit[D]`
copy is 32x smaller and scans in a few ms at 100k, so KNN runs there (Hamming
distance) and only the best few hundred candidates are rescored exactly, with the
float copies kept in the plain `memory_vectors` table (reading vectors back out of
vec0 is slow). Recall against exact search is measured in benchmarks/scale.py.

Quantization keeps the sign of each coordinate after subtracting the mean vector
of the collection: embedding models have non-zero mean coordinates (some
coordinates are positive for almost every text), and without centering those bits
carry no information. The mean is re-estimated from a sample whenever the
collection has doubled, and the codes are rebuilt only if it moved; after a few
thousand memories it stops moving, so rebuilds stop too.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from desktop_mem.core.errors import DimensionMismatch

BITS_TABLE = "memory_bits"
MIN_CANDIDATES = 256
OVERSAMPLE = 40
MAX_CANDIDATES = 4096  # vec0's limit for k
RECENTER_MIN = 32  # memories before the mean is worth estimating
CENTER_SAMPLE = 4096


def to_blob(vec: np.ndarray) -> bytes:
    return np.asarray(vec, dtype=np.float32).tobytes()


def from_blob(blob: bytes) -> np.ndarray:
    return np.frombuffer(blob, dtype=np.float32)


def pack_bits(vecs: np.ndarray, center: np.ndarray | None) -> list[bytes]:
    """Sign bits of (v - center), packed most significant bit first per byte as vec0 expects."""
    x = vecs if center is None else vecs - center
    bits = np.packbits(x > 0, axis=-1, bitorder="little")
    return [row.tobytes() for row in np.atleast_2d(bits)]


class VectorIndex:
    """Owns meta keys `embed_model`, `embed_dim`, `embed_center`, and the vec0 table."""

    def __init__(self, db: Any) -> None:
        self.db = db

    # -- what the index was built with -----------------------------------------------

    @property
    def model(self) -> str | None:
        return self.db.meta_get("embed_model")

    @property
    def dim(self) -> int | None:
        value = self.db.meta_get("embed_dim")
        return int(value) if value else None

    def center(self) -> np.ndarray | None:
        row = self.db.query("SELECT value FROM meta WHERE key = 'embed_center'")
        return np.frombuffer(bytes.fromhex(row[0][0]), dtype=np.float32) if row else None

    def check_model(self, model: str) -> None:
        """Raise before any model call when memories are indexed with another model."""
        stored = self.model
        if stored and stored != model and self.count() > 0:
            raise DimensionMismatch(
                f"Your memories are indexed with the embedding model '{stored}' ({self.dim} "
                f"dimensions), not '{model}': run `desktop-mem memory reembed --embed-model {model}` "
                f"to re-index them, or go back to '{stored}'."
            )

    def check_dim(self, model: str, dim: int) -> None:
        stored = self.dim
        if stored and stored != dim and self.count() > 0:
            raise DimensionMismatch(
                f"The embedding model '{model}' now gives {dim}-dimensional vectors but your "
                f"memories are indexed with {stored}: run `desktop-mem memory reembed` to re-index them."
            )

    def ensure(self, conn: Any, model: str, dim: int) -> None:
        """Inside a transaction: make the vec0 table exist for (model, dim)."""
        if dim % 8:
            raise DimensionMismatch(
                f"The embedding model '{model}' gives {dim} dimensions, not a multiple of 8: "
                "choose another embedding model."
            )
        self.check_dim(model, dim)
        exists = conn.execute(
            "SELECT 1 FROM sqlite_schema WHERE name = ?", (BITS_TABLE,)
        ).fetchone()
        if self.dim != dim or not exists:
            conn.execute(f"DROP TABLE IF EXISTS {BITS_TABLE}")
            conn.execute(f"CREATE VIRTUAL TABLE {BITS_TABLE} USING vec0(embedding bit[{dim}])")
        for key, value in (("embed_model", model), ("embed_dim", str(dim))):
            conn.execute(
                "INSERT INTO meta(key, value) VALUES (?, ?) "
                "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

    def maybe_recenter(self) -> bool:
        """Re-estimate the mean when the collection has doubled; rebuild codes if it moved."""
        n = self.count()
        last = int(self.db.meta_get("embed_center_n") or 0)
        if n < RECENTER_MIN or n < 2 * last:
            return False
        ids = [
            r[0] for r in self.db.query("SELECT memory_id FROM memory_vectors ORDER BY memory_id")
        ]
        rng = np.random.default_rng(n)
        sample = (
            ids
            if len(ids) <= CENTER_SAMPLE
            else list(rng.choice(ids, CENTER_SAMPLE, replace=False))
        )
        vecs = self.vectors([int(i) for i in sample])
        center = np.mean(np.vstack(list(vecs.values())), axis=0).astype(np.float32)
        old = self.center()
        moved = old is None or float(np.linalg.norm(center - old)) > 0.05 * max(
            float(np.linalg.norm(center)), 1e-6
        )
        with self.db.transaction() as conn:
            conn.execute(
                "INSERT INTO meta(key, value) VALUES ('embed_center_n', ?) "
                "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (str(n),),
            )
            if moved:
                self.set_center(conn, center)
                self._repack(conn, ids, center)
        return moved

    def _repack(self, conn: Any, ids: Sequence[int], center: np.ndarray) -> None:
        for start in range(0, len(ids), 1000):
            chunk = ids[start : start + 1000]
            vecs = self.vectors(chunk)
            keys = list(vecs)
            if not keys:
                continue
            bits = pack_bits(np.vstack([vecs[i] for i in keys]), center)
            for mid, b in zip(keys, bits, strict=True):
                conn.execute(f"DELETE FROM {BITS_TABLE} WHERE rowid = ?", (mid,))
                conn.execute(
                    f"INSERT INTO {BITS_TABLE}(rowid, embedding) VALUES (?, vec_bit(?))", (mid, b)
                )

    def set_center(self, conn: Any, center: np.ndarray | None) -> None:
        conn.execute("DELETE FROM meta WHERE key = 'embed_center'")
        if center is not None:
            conn.execute(
                "INSERT INTO meta(key, value) VALUES ('embed_center', ?)",
                (np.asarray(center, dtype=np.float32).tobytes().hex(),),
            )

    # -- writes (inside the caller's transaction) -------------------------------------

    def put(self, conn: Any, ids: Sequence[int], hashes: Sequence[str], vecs: np.ndarray) -> None:
        if not len(ids):
            return
        center = self.center()
        bits = pack_bits(vecs, center)
        for mid, h, vec, b in zip(ids, hashes, vecs, bits, strict=True):
            conn.execute(
                "INSERT INTO memory_vectors(memory_id, content_hash, embedding) VALUES (?, ?, ?) "
                "ON CONFLICT(memory_id) DO UPDATE SET content_hash = excluded.content_hash, "
                "embedding = excluded.embedding",
                (mid, h, to_blob(vec)),
            )
            conn.execute(f"DELETE FROM {BITS_TABLE} WHERE rowid = ?", (mid,))
            conn.execute(
                f"INSERT INTO {BITS_TABLE}(rowid, embedding) VALUES (?, vec_bit(?))", (mid, b)
            )

    def remove(self, conn: Any, ids: Iterable[int]) -> None:
        """Purge vectors. sqlite-vec (0.1.7+) zeroes a deleted row's bytes in its chunk;
        tests/core/test_privacy.py checks that it still does."""
        has_bits = self.dim is not None and self._bits_exist(conn)
        for mid in ids:
            if has_bits:
                conn.execute(f"DELETE FROM {BITS_TABLE} WHERE rowid = ?", (mid,))
            conn.execute("DELETE FROM memory_vectors WHERE memory_id = ?", (mid,))

    def _bits_exist(self, conn: Any) -> bool:
        return bool(
            conn.execute("SELECT 1 FROM sqlite_schema WHERE name = ?", (BITS_TABLE,)).fetchone()
        )

    def drop_all(self, conn: Any) -> None:
        conn.execute(f"DROP TABLE IF EXISTS {BITS_TABLE}")
        conn.execute("DELETE FROM memory_vectors")
        conn.execute(
            "DELETE FROM meta WHERE key IN ('embed_model', 'embed_dim', 'embed_center', 'embed_center_n')"
        )

    # -- reads --------------------------------------------------------------------------

    def count(self) -> int:
        return int(self.db.query("SELECT count(*) FROM memory_vectors")[0][0])

    def vectors(self, ids: Sequence[int]) -> dict[int, np.ndarray]:
        out: dict[int, np.ndarray] = {}
        ids = list(ids)
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            marks = ",".join("?" * len(chunk))
            for mid, blob in self.db.query(
                f"SELECT memory_id, embedding FROM memory_vectors WHERE memory_id IN ({marks})",
                chunk,
            ):
                out[mid] = from_blob(blob)
        return out

    def knn(
        self, query: np.ndarray, k: int, candidates: int | None = None
    ) -> list[tuple[int, float]]:
        """The k nearest memories by cosine similarity: [(memory_id, similarity)], best first."""
        if self.dim is None or self.count() == 0:
            return []
        if query.shape[-1] != self.dim:
            raise DimensionMismatch(
                f"The query vector has {query.shape[-1]} dimensions but the index has {self.dim}: "
                "run `desktop-mem memory reembed`."
            )
        n = candidates or min(MAX_CANDIDATES, max(MIN_CANDIDATES, k * OVERSAMPLE))
        qbits = pack_bits(query[None, :], self.center())[0]
        rows = self.db.query(
            f"SELECT rowid FROM {BITS_TABLE} WHERE embedding MATCH vec_bit(?) AND k = ?",
            (qbits, n),
        )
        ids = [r[0] for r in rows]
        vecs = self.vectors(ids)
        if not vecs:
            return []
        keys = list(vecs)
        sims = np.vstack([vecs[i] for i in keys]) @ query
        order = np.argsort(-sims)[:k]
        return [(keys[i], float(sims[i])) for i in order]

    def cache_bytes_wanted(self) -> int:
        """Page cache that holds the binary index decrypted, with room for the rest."""
        dim = self.dim or 0
        n = self.count()
        return int(n * (dim // 8 + 16) * 1.3) + 16 * 1024 * 1024
