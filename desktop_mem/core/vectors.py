"""The vector index: sqlite-vec KNN over binary codes in coarse cells, exact rescoring.

Measured on this machine (benchmarks/scale.py, PITFALLS.md):
- vec0 over float[1024] is brute force, and encrypted it needs the whole float table
  decrypted in the page cache (4 GB at 1M). So vec0 holds 1-bit codes (32x smaller)
  and the best candidates are rescored from int8 copies kept in the plain
  `memory_vectors` table (reading vectors back out of vec0 is slow).
- vec0's KNN costs about n * k: 7 ms for k=10 but 39 ms for k=256 at 100k rows, so a
  flat scan cannot return enough candidates at 1M. The codes are therefore split
  into cells (IVF): k-means centroids, about sqrt(n) of them, with the cell as vec0's
  partition key. A query probes the cells nearest to it, merges their candidates by
  Hamming distance and rescores the best ones. Below IVF_MIN vectors there is one cell.

Codes are the signs of (v - mean): embedding models have coordinates that are
positive for almost every text, and without centring those bits say nothing. The
mean and the cells are re-estimated whenever the collection has doubled (so the
total rebuild work stays under twice the collection); with one cell, the codes are
rebuilt only if the mean moved.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from desktop_mem.core.errors import DimensionMismatch

BITS_TABLE = "memory_bits"
MIN_CANDIDATES = 224  # codes rescored for a query (at least); cheap once warm
MAX_CANDIDATES = 4096  # vec0's limit for k
RETRAIN_MIN = 32  # vectors before the mean is worth estimating
IVF_MIN = 20_000  # below this, one cell: a flat scan is fast enough
MAX_CELLS = 4096
TRAIN_SAMPLE = 32_768
KMEANS_ITERS = 8
CACHE_CAP = 192 * 1024 * 1024  # the page cache never grows past this
CHUNK_SIZE = 1024  # per cell; 256 doubled probe cost at 1M (41 probes, k=60: 92 vs 44 ms)


def to_blob(vec: np.ndarray) -> bytes:
    """int8 with a per-vector float32 scale: 1,028 bytes for 1,024 dimensions, three to
    a 4 KB page, so the page cache can hold them for a store of 100k (float32 spanned
    two pages per vector, float16 one). Rescoring 160 candidates from the warm cache
    took 1.3 ms, against 10.4 ms for cold float16 pages (one decryption each).
    The cosine error is about 1e-3, far below ranking differences."""
    v = np.asarray(vec, dtype=np.float32)
    scale = float(np.abs(v).max()) / 127.0 or 1.0
    return np.float32(scale).tobytes() + np.round(v / scale).astype(np.int8).tobytes()


def from_blob(blob: bytes) -> np.ndarray:
    scale = np.frombuffer(blob[:4], dtype=np.float32)[0]
    return np.frombuffer(blob[4:], dtype=np.int8).astype(np.float32) * scale


def pack_bits(vecs: np.ndarray, center: np.ndarray | None) -> list[bytes]:
    """Sign bits of (v - center), 8 per byte; queries and rows use the same packing."""
    x = vecs if center is None else vecs - center
    bits = np.packbits(x > 0, axis=-1, bitorder="little")
    return [row.tobytes() for row in np.atleast_2d(bits)]


def candidates_for(k: int) -> int:
    return min(MAX_CANDIDATES, max(MIN_CANDIDATES, 2 * k + 64))


# Tuned with benchmarks/scale.py (README "Scale"). sqrt(n)/2 cells needed half the
# probes (each costs ~0.2 ms) of sqrt(n) cells for the same recall. Real embeddings
# straddle cells more than synthetic ones: on all-MiniLM vectors of LoCoMo text,
# probing 10% of the cells gave recall@10 0.90, 20% gave 0.96, 30% 0.98; so a fifth.


def cells_for(n: int, ivf_min: int = IVF_MIN) -> int:
    return 1 if n < ivf_min else min(MAX_CELLS, max(2, round(math.sqrt(n) / 2)))


def probes_for(cells: int) -> int:
    return cells if cells <= 8 else max(8, math.ceil(cells / 5))


def per_probe_k(want: int, rank: int) -> int:
    """The two nearest cells may hold most of the neighbours; the others few of them."""
    return want if rank < 2 else max(16, want // 4)


@dataclass
class Layout:
    version: str
    center: np.ndarray | None
    cells: np.ndarray  # cell ids
    centroids: np.ndarray  # (cells, dim)
    half_sqnorm: np.ndarray

    def nearest(self, vecs: np.ndarray, count: int = 1) -> np.ndarray:
        """Ids of the `count` nearest cells of each vector (L2), nearest first."""
        if len(self.cells) == 1:
            return np.zeros((len(vecs), 1), dtype=np.int64) + self.cells[0]
        score = np.atleast_2d(vecs) @ self.centroids.T - self.half_sqnorm
        if count == 1:
            return self.cells[np.argmax(score, axis=1)][:, None]
        top = np.argsort(-score, axis=1)[:, :count]
        return self.cells[top]


def kmeans(sample: np.ndarray, cells: int, rng: np.random.Generator) -> np.ndarray:
    centroids = sample[rng.choice(len(sample), cells, replace=False)].copy()
    for _ in range(KMEANS_ITERS):
        assign = np.argmax(sample @ centroids.T - 0.5 * (centroids**2).sum(1), axis=1)
        counts = np.bincount(assign, minlength=cells)
        sums = np.zeros_like(centroids)
        np.add.at(sums, assign, sample)
        empty = counts == 0
        centroids[~empty] = sums[~empty] / counts[~empty, None]
        if empty.any():  # re-seed empty cells from random points
            centroids[empty] = sample[rng.choice(len(sample), int(empty.sum()), replace=False)]
    return centroids.astype(np.float32)


class VectorIndex:
    """Owns meta keys `embed_model`, `embed_dim`, `embed_center`, `ivf_n`, `ivf_version`,
    the `memory_cells` table and the vec0 table."""

    ivf_min = IVF_MIN  # an attribute so that tests can exercise cells on small stores

    def __init__(self, db: Any) -> None:
        self.db = db
        self._layout: Layout | None = None

    # -- what the index was built with -----------------------------------------------

    @property
    def model(self) -> str | None:
        return self.db.meta_get("embed_model")

    @property
    def dim(self) -> int | None:
        value = self.db.meta_get("embed_dim")
        return int(value) if value else None

    def layout(self) -> Layout:
        """The mean and cells, re-read only when another writer rebuilt them."""
        version = self.db.meta_get("ivf_version") or "0"
        if self._layout is None or self._layout.version != version:
            row = self.db.query("SELECT value FROM meta WHERE key = 'embed_center'")
            center = np.frombuffer(bytes.fromhex(row[0][0]), dtype=np.float32) if row else None
            rows = self.db.query("SELECT cell, centroid FROM memory_cells ORDER BY cell")
            if rows:
                cells = np.array([r[0] for r in rows], dtype=np.int64)
                centroids = np.vstack([np.frombuffer(r[1], dtype=np.float32) for r in rows])
            else:
                cells = np.zeros(1, dtype=np.int64)
                centroids = np.zeros((1, self.dim or 8), dtype=np.float32)
            half = 0.5 * (centroids**2).sum(1)
            self._layout = Layout(version, center, cells, centroids, half)
        return self._layout

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
        if self.dim != dim or not self._bits_exist(conn):
            self._create_bits(conn, dim)
        for key, value in (("embed_model", model), ("embed_dim", str(dim))):
            self.db.meta_set(key, value)

    def _create_bits(self, conn: Any, dim: int) -> None:
        conn.execute(f"DROP TABLE IF EXISTS {BITS_TABLE}")
        conn.execute(
            f"CREATE VIRTUAL TABLE {BITS_TABLE} USING vec0("
            f"cell INTEGER PARTITION KEY, embedding bit[{dim}], chunk_size={CHUNK_SIZE})"
        )

    # -- writes (inside the caller's transaction) -------------------------------------

    def put(self, conn: Any, ids: Sequence[int], hashes: Sequence[str], vecs: np.ndarray) -> None:
        if not len(ids):
            return
        layout = self.layout()
        bits = pack_bits(vecs, layout.center)
        cells = layout.nearest(vecs)[:, 0]
        for mid, h, vec, b, cell in zip(ids, hashes, vecs, bits, cells, strict=True):
            conn.execute(
                "INSERT INTO memory_vectors(memory_id, content_hash, embedding) VALUES (?, ?, ?) "
                "ON CONFLICT(memory_id) DO UPDATE SET content_hash = excluded.content_hash, "
                "embedding = excluded.embedding",
                (mid, h, to_blob(vec)),
            )
            conn.execute(f"DELETE FROM {BITS_TABLE} WHERE rowid = ?", (mid,))
            conn.execute(
                f"INSERT INTO {BITS_TABLE}(rowid, cell, embedding) VALUES (?, ?, vec_bit(?))",
                (mid, int(cell), b),
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
        conn.execute("DELETE FROM memory_cells")
        conn.execute(
            "DELETE FROM meta WHERE key IN ('embed_model', 'embed_dim', 'embed_center', 'ivf_n')"
        )
        _bump_version(self.db)

    # -- keeping the layout fit for the collection -----------------------------------

    def maybe_rebuild(self) -> bool:
        """Re-estimate the mean (and the cells, from IVF_MIN on) when the collection has
        doubled since the last estimate; rebuild the codes if anything changed."""
        n = self.count()
        last = int(self.db.meta_get("ivf_n") or 0)
        if n < RETRAIN_MIN or n < 2 * last or self.dim is None:
            return False
        rng = np.random.default_rng(n)
        ids = self._all_ids()
        picked = ids if len(ids) <= TRAIN_SAMPLE else rng.choice(ids, TRAIN_SAMPLE, replace=False)
        got = self.vectors([int(i) for i in picked])
        sample = np.vstack(list(got.values()))
        center = sample.mean(axis=0).astype(np.float32)
        old = self.layout()
        cells = cells_for(n, self.ivf_min)
        moved = old.center is None or float(np.linalg.norm(center - old.center)) > 0.05 * max(
            float(np.linalg.norm(center)), 1e-6
        )
        rebuild = moved or cells != len(old.cells) or cells > 1
        with self.db.transaction() as conn:
            self.db.meta_set("ivf_n", str(n))
            if rebuild:
                centroids = center[None, :] if cells == 1 else kmeans(sample, cells, rng)
                self._write_layout(conn, center, centroids)
                self._rebuild_codes(conn, ids)
        return rebuild

    def _all_ids(self) -> np.ndarray:
        rows = self.db.query("SELECT memory_id FROM memory_vectors ORDER BY memory_id")
        return np.array([r[0] for r in rows], dtype=np.int64)

    def _write_layout(self, conn: Any, center: np.ndarray, centroids: np.ndarray) -> None:
        self.db.meta_set("embed_center", center.astype(np.float32).tobytes().hex())
        conn.execute("DELETE FROM memory_cells")
        conn.executemany(
            "INSERT INTO memory_cells(cell, centroid) VALUES (?, ?)",
            [(i, np.asarray(c, dtype=np.float32).tobytes()) for i, c in enumerate(centroids)],
        )
        _bump_version(self.db)
        self._layout = None

    def _rebuild_codes(self, conn: Any, ids: np.ndarray) -> None:
        assert self.dim is not None
        self._create_bits(conn, self.dim)
        layout = self.layout()
        for start in range(0, len(ids), 5000):
            chunk = [int(i) for i in ids[start : start + 5000]]
            got = self.vectors(chunk)
            keys = list(got)
            if not keys:
                continue
            vecs = np.vstack([got[i] for i in keys])
            cells = layout.nearest(vecs)[:, 0]
            conn.executemany(
                f"INSERT INTO {BITS_TABLE}(rowid, cell, embedding) VALUES (?, ?, vec_bit(?))",
                [
                    (mid, int(c), b)
                    for mid, c, b in zip(keys, cells, pack_bits(vecs, layout.center), strict=True)
                ],
            )

    # -- reads --------------------------------------------------------------------------

    def count(self) -> int:
        return int(self.db.query("SELECT n FROM counters WHERE name = 'vectors'")[0][0])

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

    def knn(self, query: np.ndarray, k: int) -> list[tuple[int, float]]:
        """The k nearest memories by cosine similarity: [(memory_id, similarity)], best first."""
        dim = self.dim
        if dim is None or self.count() == 0:
            return []
        if query.shape[-1] != dim:
            raise DimensionMismatch(
                f"The query vector has {query.shape[-1]} dimensions but the index has {dim}: "
                "run `desktop-mem memory reembed`."
            )
        layout = self.layout()
        want = candidates_for(k)
        qbits = pack_bits(query[None, :], layout.center)[0]
        if len(layout.cells) == 1:
            rows = self.db.query(
                f"SELECT rowid, distance FROM {BITS_TABLE} WHERE embedding MATCH vec_bit(?) AND k = ?",
                (qbits, want),
            )
        else:
            rows = []
            probes = layout.nearest(query[None, :], probes_for(len(layout.cells)))[0]
            for rank, cell in enumerate(probes):
                rows += self.db.query(
                    f"SELECT rowid, distance FROM {BITS_TABLE} "
                    "WHERE embedding MATCH vec_bit(?) AND k = ? AND cell = ?",
                    (qbits, per_probe_k(want, rank), int(cell)),
                )
            rows.sort(key=lambda r: r[1])
            rows = rows[:want]
        vecs = self.vectors([r[0] for r in rows])
        if not vecs:
            return []
        keys = list(vecs)
        sims = np.vstack([vecs[i] for i in keys]) @ query
        order = np.argsort(-sims)[:k]
        return [(keys[i], float(sims[i])) for i in order]

    def warm(self) -> int:
        """Read the binary codes (and the rescoring vectors, when the cache holds them)
        once, so that they sit decrypted in the page cache: otherwise each cell's chunk
        and each candidate costs its first query a page decryption (~60 us). The app
        does this in the background after opening. Returns the bytes read."""
        if self.dim is None:
            return 0
        sources = [(f"{BITS_TABLE}_vector_chunks00", "vectors"), (f"{BITS_TABLE}_chunks", "rowids")]
        if self._vectors_fit():
            sources.append(("memory_vectors", "embedding"))
        total = 0
        with self.db.lock:
            for table, column in sources:
                for (blob,) in self.db.conn.execute(f"SELECT {column} FROM {table}"):
                    total += len(blob or b"")
        return total

    def _code_bytes(self) -> int:
        return int(self.count() * ((self.dim or 0) // 8 + 16) * 1.3)

    def _vector_bytes(self) -> int:
        return int(self.count() * (4096 / 3) * 1.15)  # three int8 vectors a page, plus headers

    def _vectors_fit(self) -> bool:
        return self._code_bytes() + self._vector_bytes() + 16 * 1024 * 1024 <= CACHE_CAP

    def cache_bytes_wanted(self) -> int:
        """Page cache for the codes, plus the rescoring vectors while they fit under
        CACHE_CAP (about 120k memories at 1024 dimensions), plus room for the rest."""
        wanted = self._code_bytes() + 16 * 1024 * 1024
        if self._vectors_fit():
            wanted += self._vector_bytes()
        return min(CACHE_CAP, wanted)


def _bump_version(db: Any) -> None:
    db.meta_set("ivf_version", str(int(db.meta_get("ivf_version") or 0) + 1))
