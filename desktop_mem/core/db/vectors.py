"""The vector index: a scan of 1-bit codes held in memory, then two rescoring steps.

Why not vec0's own KNN (what this module used first; measured in benchmarks/scale.py):
- vec0 over float[1024] is brute force, and encrypted it needs the whole float table
  decrypted in the page cache (4 GB at 1M).
- vec0 over bit[1024] is cheap per row, but its KNN costs about n * k: 7 ms for k=10
  and 39 ms for k=256 at 100k. Binary codes need hundreds of candidates for a good
  recall, and splitting vec0 into k-means cells (partition keys) to cut n lost recall
  on real embeddings, which straddle cells (0.89 on MiniLM vectors of LoCoMo text).

So the codes (signs of v - mean, 128 bytes for 1,024 dimensions) live in the plain
`memory_codes` table and, once loaded, in a numpy matrix: a flat Hamming scan costs
3.5 ms at 100k and about 25 ms at 1M (two threads), whatever k is. Then:
1. the best SCAN_CANDIDATES codes are scored asymmetrically, float query against the
   +-1 code, which ranks far better than Hamming distance (at 1M, rescoring 200
   candidates found 0.97 of the true top 10 ranked this way, 0.92 by Hamming);
2. the best of those are rescored exactly, in SQL, with sqlite-vec's
   `vec_distance_cosine` over int8 copies of the vectors (`memory_vectors`), which
   stay in the page cache while they fit (about 120k memories at 1,024 dimensions).

The in-memory codes follow this process's own writes as they happen (and are dropped
if the transaction rolls back); a write by another process is noticed through the
`codes` generation counter (kept by triggers) and the codes are read again.

The mean is re-estimated whenever the collection has doubled (so the total rebuild
work stays under twice the collection); the codes are rebuilt only if it moved.

Each code carries the space its item is in (core/memory/spaces.py; a load reads each
space's ids from indexes, not a lookup per code), so a search within some spaces is
filtered inside the scan, before the candidates are picked: the nearest of what the
reader sees, as many as an unscoped search gets, at the scan's cost
(100k memories in 10 spaces: recall@10 0.9955 against exact search within the space,
p95 within 1.22x of the search over every space; benchmarks/scale.py --spaces). A move
between spaces changes the codes' generation (triggers), so they are read again.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from desktop_mem.core.errors import DimensionMismatch

if TYPE_CHECKING:
    import numpy as np

    from desktop_mem.core.db.connection import Connection
    from desktop_mem.core.db.database import Database
else:
    from desktop_mem.core.lazy import numpy as np

MIN_CANDIDATES = 256  # vectors rescored exactly for a query (at least)
SCAN_CANDIDATES = 1024  # codes scored asymmetrically (at least 4x the above)
RETRAIN_MIN = 32  # vectors before the mean is worth estimating
TRAIN_SAMPLE = 32_768
CACHE_CAP = 192 * 1024 * 1024  # the page cache never grows past this
BLOCK = 32_768  # codes per scan block: the block's counters stay in the CPU cache
THREADED_MIN = 200_000  # below this, a second thread costs more than it saves
LOAD_SLICE = 16_384
SHARED_KEY = 0  # the shared space's key (a space's is its id, from 1): as app_spaces has it
_UNKNOWN = -1  # an item whose space cannot be told (no row): seen by no scoped search


def to_blob(vec: np.ndarray) -> bytes:
    """int8 with a per-vector float32 scale: 1,028 bytes for 1,024 dimensions, three to
    a 4 KB page, so the page cache can hold them for a store of 100k (float32 spanned
    two pages per vector, float16 one). The bytes after the scale are a sqlite-vec
    int8 vector, and cosine ignores the scale. The cosine error is about 1e-3, far
    below ranking differences."""
    v = np.asarray(vec, dtype=np.float32)
    scale = float(np.abs(v).max()) / 127.0 or 1.0
    return np.float32(scale).tobytes() + np.round(v / scale).astype(np.int8).tobytes()


def from_blob(blob: bytes) -> np.ndarray:
    scale = np.frombuffer(blob[:4], dtype=np.float32)[0]
    return np.frombuffer(blob[4:], dtype=np.int8).astype(np.float32) * scale


def pack_bits(vecs: np.ndarray, center: np.ndarray | None) -> np.ndarray:
    """Sign bits of (v - center), 8 per byte, as a (rows, bytes) uint8 matrix."""
    x = np.atleast_2d(vecs) if center is None else np.atleast_2d(vecs) - center
    return np.packbits(x > 0, axis=-1, bitorder="little")


def candidates_for(k: int) -> int:
    return max(MIN_CANDIDATES, 2 * k + 64)


class Codes:
    """The codes of every indexed memory, transposed into 64-bit words (words, n), so
    that the scan reads each word of every code as one contiguous run."""

    def __init__(self, dim: int, center: np.ndarray | None, generation: int) -> None:
        self.dim = dim
        self.nbytes = (dim + 7) // 8
        self.words = (self.nbytes + 7) // 8
        self.center = center
        self.generation = generation
        self.n = 0
        self.ids = np.zeros(0, dtype=np.int64)
        self.spaces = np.zeros(0, dtype=np.int64)  # each item's space key
        self._hidden: dict[tuple[int, ...], np.ndarray] = {}  # by spaces seen, until a change
        self.matrix = np.zeros((self.words, 0), dtype=np.uint64)

    def as_words(self, packed: np.ndarray) -> np.ndarray:
        """(rows, nbytes) uint8 -> (rows, words) uint64, zero-padded."""
        rows = np.zeros((len(packed), self.words * 8), dtype=np.uint8)
        rows[:, : self.nbytes] = packed
        return rows.view(np.uint64)

    def reserve(self, capacity: int) -> None:
        if capacity > self.matrix.shape[1]:
            matrix = np.zeros((self.words, capacity), dtype=np.uint64)
            matrix[:, : self.n] = self.matrix[:, : self.n]
            grown = np.zeros(capacity, dtype=np.int64)
            grown[: self.n] = self.ids[: self.n]
            spaces = np.zeros(capacity, dtype=np.int64)
            spaces[: self.n] = self.spaces[: self.n]
            self.matrix, self.ids, self.spaces = matrix, grown, spaces

    def add(
        self, ids: np.ndarray, words: np.ndarray, spaces: np.ndarray, load: bool = False
    ) -> None:
        """Append codes (with their items' space keys); an id already present is
        replaced (an edit), unless `load` says the ids are known to be new."""
        if not load and self.n and len(ids) and int(ids.min()) <= int(self.ids[: self.n].max()):
            self.discard(ids)
        need = self.n + len(ids)
        if need > self.matrix.shape[1]:
            self.reserve(max(need, self.matrix.shape[1] * 5 // 4, 1024))
        self.matrix[:, self.n : need] = words.T
        self.ids[self.n : need] = ids
        self.spaces[self.n : need] = spaces
        self.n = need
        self._hidden.clear()

    def discard(self, ids: Iterable[int]) -> None:
        gone = np.isin(self.ids[: self.n], np.fromiter(ids, dtype=np.int64))
        if not gone.any():
            return
        keep = np.flatnonzero(~gone)
        self.matrix[:, : len(keep)] = self.matrix[:, keep]
        self.ids[: len(keep)] = self.ids[keep]
        self.spaces[: len(keep)] = self.spaces[keep]
        self.n = len(keep)
        self._hidden.clear()

    def place(self, ids: np.ndarray, key: int) -> None:
        """Give the codes of these items (those that have one) the space key `key`. The
        codes must be in id order, as a load leaves them."""
        if not self.n or not len(ids):
            return
        held = self.ids[: self.n]
        at = np.minimum(np.searchsorted(held, ids), self.n - 1)
        self.spaces[at[held[at] == ids]] = key
        self._hidden.clear()

    def hidden(self, seen: Sequence[int] | None) -> np.ndarray | None:
        """Which codes a search that sees the spaces `seen` (their keys) may not return;
        None when it sees every one."""
        if seen is None:
            return None
        key = tuple(sorted(set(seen)))
        hidden = self._hidden.get(key)
        if hidden is None:
            spaces = self.spaces[: self.n]
            top = int(spaces.max()) if self.n else 0
            # a table by key (keys are small: -1, 0 and the spaces' ids) is 3x as fast
            # as np.isin over 100k codes
            table = np.ones(top + 2, dtype=bool)
            table[[k + 1 for k in key if -1 <= k <= top]] = False
            hidden = table[spaces + 1]
            self._hidden = {key: hidden}  # one scope at a time, mostly: keep the last
        return hidden

    def hamming(self, query: np.ndarray, pool: ThreadPoolExecutor | None) -> np.ndarray:
        """Hamming distance from the query's words to every code."""
        out = np.zeros(self.n, dtype=np.uint16)

        def scan(lo: int, hi: int) -> None:
            tmp = np.empty(BLOCK, dtype=np.uint64)
            count = np.empty(BLOCK, dtype=np.uint8)
            for start in range(lo, hi, BLOCK):
                end = min(start + BLOCK, hi)
                m = end - start
                acc = out[start:end]
                for w in range(self.words):
                    np.bitwise_xor(self.matrix[w, start:end], query[w], out=tmp[:m])
                    np.bitwise_count(tmp[:m], out=count[:m])
                    np.add(acc, count[:m], out=acc)

        if pool is None or self.n < THREADED_MIN:
            scan(0, self.n)
        else:  # numpy releases the GIL: the two halves run on two cores
            half = (self.n // 2 // BLOCK + 1) * BLOCK
            list(pool.map(lambda r: scan(*r), [(0, half), (half, self.n)]))
        return out

    def nearest(self, distances: np.ndarray, count: int) -> np.ndarray:
        """Positions of (about) the `count` smallest distances: a histogram of the
        small integer distances finds the cut-off faster than a partition."""
        if len(distances) <= count:
            return np.arange(len(distances))
        hist = np.bincount(distances, minlength=self.dim + 1)
        cut = int(np.searchsorted(np.cumsum(hist), count))
        return np.flatnonzero(distances <= cut)

    def signs(self, positions: np.ndarray) -> np.ndarray:
        """The +-1 codes at these positions as 0/1 floats (rows, dim)."""
        words = np.ascontiguousarray(self.matrix[:, positions].T)
        bits = np.unpackbits(words.view(np.uint8), axis=1, bitorder="little")[:, : self.dim]
        return bits.astype(np.float32)


@dataclass(frozen=True)
class Layout:
    """Where one collection's vectors live: tables, their id column, the counters the
    triggers keep (row count, codes generation) and its meta keys."""

    vectors: str
    codes: str
    id_column: str
    count_counter: str
    generation_counter: str
    model_key: str
    dim_key: str
    center_key: str
    trained_key: str
    hashed: bool  # the vectors table has a content_hash column
    # an item's space key, as an SQL expression of its id (`{id}`): its space's id,
    # SHARED_KEY for the shared space, NULL when there is no such item
    space_of: str
    # every item in a space, a row per space: (its id, its items' ids joined by commas),
    # read from the `..._by_space` partial indexes and the item-to-container index
    # alone, never the items' own rows (their text); no row while no item is in a
    # space. Every other code is the shared space's: a code never outlives its item
    # (the codes tables cascade from the items').
    in_spaces: str


MEMORIES = Layout(
    "memory_vectors", "memory_codes", "memory_id", "vectors", "codes",
    "embed_model", "embed_dim", "embed_center", "ivf_n", True,
    "(SELECT coalesce(space_id, 0) FROM memories WHERE id = {id})",
    "SELECT space_id, group_concat(id) FROM memories WHERE space_id IS NOT NULL "
    "GROUP BY space_id",
)  # fmt: skip
MESSAGES = Layout(
    "message_vectors", "message_codes", "message_id", "message_vectors", "message_codes",
    "message_embed_model", "message_embed_dim", "message_center", "message_ivf_n", False,
    "(SELECT coalesce(c.space_id, 0) FROM messages m JOIN conversations c "
    "ON c.id = m.conversation_id WHERE m.id = {id})",
    "SELECT c.space_id, group_concat(m.id) FROM conversations c JOIN messages m "
    "ON m.conversation_id = c.id WHERE c.space_id IS NOT NULL GROUP BY c.space_id",
)  # fmt: skip
DOCUMENTS = Layout(
    "doc_chunk_vectors", "doc_chunk_codes", "chunk_id", "doc_vectors", "doc_codes",
    "doc_embed_model", "doc_embed_dim", "doc_center", "doc_ivf_n", False,
    "(SELECT coalesce(d.space_id, 0) FROM doc_chunks ch JOIN documents d "
    "ON d.id = ch.document_id WHERE ch.id = {id})",
    "SELECT d.space_id, group_concat(ch.id) FROM documents d JOIN doc_chunks ch "
    "ON ch.document_id = d.id WHERE d.space_id IS NOT NULL GROUP BY d.space_id",
)  # fmt: skip


class VectorIndex:
    """Owns one collection's vectors and codes tables and its meta keys (`Layout`):
    the memories' by default, the messages' (the recall tier) with `MESSAGES`."""

    def __init__(self, db: Database, layout: Layout = MEMORIES) -> None:
        self.db = db
        self.layout = layout
        self._codes: Codes | None = None
        self._lock = threading.RLock()
        self._pool: ThreadPoolExecutor | None = None

    # -- what the index was built with -----------------------------------------------

    @property
    def model(self) -> str | None:
        return self.db.meta_get(self.layout.model_key)

    @property
    def dim(self) -> int | None:
        value = self.db.meta_get(self.layout.dim_key)
        return int(value) if value else None

    def center(self) -> np.ndarray | None:
        value = self.db.meta_get(self.layout.center_key)
        return np.frombuffer(bytes.fromhex(value), dtype=np.float32) if value else None

    def check_model(self, model: str) -> None:
        """Raise before any model call when memories are indexed with another model."""
        stored = self.model
        if stored and stored != model and self.count() > 0:
            raise DimensionMismatch(
                f"Your memories are indexed with the embedding model '{stored}' ({self.dim} "
                f"dimensions), not '{model}': run `desktop-mem --embed-model {model} memory reembed` "
                f"to re-index them, or go back to '{stored}'."
            )

    def check_dim(self, model: str, dim: int) -> None:
        stored = self.dim
        if stored and stored != dim and self.count() > 0:
            raise DimensionMismatch(
                f"The embedding model '{model}' now gives {dim}-dimensional vectors but your "
                f"memories are indexed with {stored}: run `desktop-mem memory reembed` to re-index them."
            )

    def ensure(self, conn: Connection, model: str, dim: int) -> None:
        """Inside a transaction: record the model and dimension the vectors are from."""
        self.check_dim(model, dim)
        if self.dim != dim:
            self._forget()
        for key, value in ((self.layout.model_key, model), (self.layout.dim_key, str(dim))):
            self.db.meta_set(key, value)

    # -- writes (inside the caller's transaction) -------------------------------------

    def put(
        self, conn: Connection, ids: Sequence[int], hashes: Sequence[str], vecs: np.ndarray
    ) -> None:
        if not len(ids):
            return
        with self._lock:
            codes = self._fresh_codes_for_write(conn)
            packed = pack_bits(vecs, self.center())
            lay = self.layout
            if lay.hashed:
                conn.executemany(
                    f"INSERT INTO {lay.vectors}({lay.id_column}, content_hash, embedding) "
                    f"VALUES (?, ?, ?) ON CONFLICT({lay.id_column}) DO UPDATE SET "
                    "content_hash = excluded.content_hash, embedding = excluded.embedding",
                    [(mid, h, to_blob(v)) for mid, h, v in zip(ids, hashes, vecs, strict=True)],
                )
            else:
                conn.executemany(
                    f"INSERT INTO {lay.vectors}({lay.id_column}, embedding) VALUES (?, ?) "
                    f"ON CONFLICT({lay.id_column}) DO UPDATE SET embedding = excluded.embedding",
                    [(mid, to_blob(v)) for mid, v in zip(ids, vecs, strict=True)],
                )
            conn.executemany(
                f"INSERT INTO {lay.codes}({lay.id_column}, code) VALUES (?, ?) "
                f"ON CONFLICT({lay.id_column}) DO UPDATE SET code = excluded.code",
                [(mid, row.tobytes()) for mid, row in zip(ids, packed, strict=True)],
            )
            if codes is not None:
                codes.add(
                    np.asarray(ids, dtype=np.int64),
                    codes.as_words(packed),
                    self._spaces_of(conn, ids),
                )
                codes.generation = self._generation(conn)

    def _spaces_of(self, conn: Connection, ids: Sequence[int]) -> np.ndarray:
        """The space keys of these items, in order."""
        lay, out = self.layout, np.full(len(ids), _UNKNOWN, dtype=np.int64)
        at = {int(mid): n for n, mid in enumerate(ids)}
        for start in range(0, len(ids), 500):
            chunk = [int(i) for i in ids[start : start + 500]]
            rows = conn.execute(
                f"SELECT {lay.id_column}, "
                f"{lay.space_of.format(id=lay.codes + '.' + lay.id_column)} "
                f"FROM {lay.codes} WHERE {lay.id_column} IN ({','.join('?' * len(chunk))})",
                chunk,
            ).fetchall()
            for mid, key in rows:
                if key is not None:
                    out[at[int(mid)]] = int(key)
        return out

    def remove(self, conn: Connection, ids: Iterable[int]) -> None:
        """Purge vectors and codes (secure_delete overwrites the freed bytes)."""
        ids = list(ids)
        with self._lock:
            codes = self._fresh_codes_for_write(conn)
            lay = self.layout
            for table in (lay.codes, lay.vectors):
                conn.executemany(
                    f"DELETE FROM {table} WHERE {lay.id_column} = ?", [(i,) for i in ids]
                )
            if codes is not None:
                codes.discard(ids)
                codes.generation = self._generation(conn)

    def _fresh_codes_for_write(self, conn: Connection) -> Codes | None:
        """The in-memory codes, if loaded and up to date with the database (this write
        holds the lock, so nobody else can change it now); otherwise drop them, to be
        read again by the next search. A rollback drops them too."""
        codes = self._codes
        if codes is None:
            return None
        if codes.generation != self._generation(conn):
            self._forget()
            return None
        self.db.on_rollback(self._forget)
        return codes

    def _generation(self, conn: Connection) -> int:
        return int(
            conn.execute(
                "SELECT n FROM counters WHERE name = ?", (self.layout.generation_counter,)
            ).fetchone()[0]
        )

    def _forget(self) -> None:
        with self._lock:
            self._codes = None

    def drop_all(self, conn: Connection) -> None:
        """Delete every vector. The model and dimension stay recorded: the memory tier's
        model is the profile's choice of embedding model, which emptying the index (as
        "Forget everything" does) must not change; with no vector they bind nothing."""
        lay = self.layout
        conn.execute(f"DELETE FROM {lay.codes}")
        conn.execute(f"DELETE FROM {lay.vectors}")
        conn.execute("DELETE FROM meta WHERE key IN (?, ?)", (lay.center_key, lay.trained_key))
        self._forget()

    def rebuild(
        self,
        items: Sequence[tuple[int, str]],
        embed: Callable[[list[str]], np.ndarray],
        model: str,
        switch: Callable[[], None],
        progress: Callable[[int, int], None] | None = None,
        batch: int = 64,
    ) -> int:
        """Index every (id, text) of `items` anew with `embed` (another model's): the
        vectors are staged in the profile batch by batch, then one transaction replaces
        the whole index with them and calls `switch` (the tier's embedder becomes the new
        one with its index). Until then searches go on with the old index; a failure
        leaves it as it was. Items deleted meanwhile get no vector. Returns how many."""
        tier = self.layout.vectors
        with self.db.transaction() as conn:
            conn.execute("DELETE FROM vector_staging WHERE tier = ?", (tier,))
        total, done = len(items), 0
        try:
            for start in range(0, total, batch):
                chunk = items[start : start + batch]
                vecs = embed([text for _, text in chunk])  # raises ModelServerError
                with self.db.transaction() as conn:
                    conn.executemany(
                        "INSERT OR REPLACE INTO vector_staging(tier, item_id, embedding) "
                        "VALUES (?, ?, ?)",
                        [(tier, i, to_blob(v)) for (i, _), v in zip(chunk, vecs, strict=True)],
                    )
                done += len(chunk)
                if progress:
                    progress(done, total)
            return self._switch_to_staged(model, switch)
        finally:
            with self.db.transaction() as conn:
                conn.execute("DELETE FROM vector_staging WHERE tier = ?", (tier,))

    def _switch_to_staged(self, model: str, switch: Callable[[], None]) -> int:
        tier = self.layout.vectors
        owner = {"memory_vectors": "memories", "message_vectors": "messages"}.get(
            tier, "doc_chunks"
        )
        written = 0
        with self.db.transaction() as conn:
            self.drop_all(conn)
            self.db.meta_set(self.layout.model_key, model)  # chosen, even with nothing to embed
            after = -1
            while True:
                rows = conn.execute(
                    f"SELECT s.item_id, s.embedding FROM vector_staging s JOIN {owner} o "
                    "ON o.id = s.item_id WHERE s.tier = ? AND s.item_id > ? "
                    "ORDER BY s.item_id LIMIT 1000",
                    (tier, after),
                ).fetchall()
                if not rows:
                    break
                vecs = np.vstack([from_blob(b) for _, b in rows])
                if not written:
                    self.ensure(conn, model, vecs.shape[1])
                self.put(conn, [r[0] for r in rows], [""] * len(rows), vecs)
                written += len(rows)
                after = int(rows[-1][0])
            switch()
        self.maybe_rebuild()
        return written

    # -- keeping the codes fit for the collection -------------------------------------

    def maybe_rebuild(self) -> bool:
        """Re-estimate the mean when the collection has doubled since the last estimate;
        rebuild the codes if it moved. Returns whether the codes were rebuilt."""
        n = self.count()
        last = int(self.db.meta_get(self.layout.trained_key) or 0)
        if n < RETRAIN_MIN or n < 2 * last or self.dim is None:
            return False
        rng = np.random.default_rng(n)
        ids = self._all_ids()
        picked = ids if len(ids) <= TRAIN_SAMPLE else rng.choice(ids, TRAIN_SAMPLE, replace=False)
        got = self.vectors([int(i) for i in picked])
        center = np.vstack(list(got.values())).mean(axis=0).astype(np.float32)
        old = self.center()
        moved = old is None or float(np.linalg.norm(center - old)) > 0.05 * max(
            float(np.linalg.norm(center)), 1e-6
        )
        with self.db.transaction() as conn:
            self.db.meta_set(self.layout.trained_key, str(n))
            if moved:
                self.db.meta_set(self.layout.center_key, center.tobytes().hex())
                self._rebuild_codes(conn, ids, center)
        return moved

    def _all_ids(self) -> np.ndarray:
        lay = self.layout
        rows = self.db.query(f"SELECT {lay.id_column} FROM {lay.vectors} ORDER BY {lay.id_column}")
        return np.array([r[0] for r in rows], dtype=np.int64)

    def _rebuild_codes(self, conn: Connection, ids: np.ndarray, center: np.ndarray) -> None:
        self._forget()
        self.db.on_rollback(self._forget)
        for start in range(0, len(ids), 5000):
            got = self.vectors([int(i) for i in ids[start : start + 5000]])
            if not got:
                continue
            keys = list(got)
            packed = pack_bits(np.vstack([got[i] for i in keys]), center)
            conn.executemany(
                f"UPDATE {self.layout.codes} SET code = ? WHERE {self.layout.id_column} = ?",
                [(row.tobytes(), mid) for mid, row in zip(keys, packed, strict=True)],
            )

    # -- reads --------------------------------------------------------------------------

    def visible(self, seen: Sequence[int]) -> int:
        """How many items a search that sees the spaces `seen` searches."""
        codes = self.codes()
        if codes is None:
            return 0
        with self._lock:
            hidden = codes.hidden(seen)
            return codes.n - int(hidden.sum()) if hidden is not None else codes.n

    def count(self) -> int:
        return int(
            self.db.query("SELECT n FROM counters WHERE name = ?", (self.layout.count_counter,))[0][
                0
            ]
        )

    def vectors(self, ids: Sequence[int]) -> dict[int, np.ndarray]:
        out: dict[int, np.ndarray] = {}
        ids = list(ids)
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            marks = ",".join("?" * len(chunk))
            for mid, blob in self.db.query(
                f"SELECT {self.layout.id_column}, embedding FROM {self.layout.vectors} "
                f"WHERE {self.layout.id_column} IN ({marks})",
                chunk,
            ):
                out[mid] = from_blob(blob)
        return out

    def codes(self) -> Codes | None:
        """The in-memory codes, read from the database if they are not loaded or another
        process (or thread) has changed them since.

        Read in slices of rows, each under the connection's lock for a moment only, so
        the window's reads are not kept waiting for the whole load (a million codes take
        seconds). The slices are one snapshot when the codes' generation is the same
        after the last slice as before the first; if a writer came between, the load is
        done again (the third time under the lock throughout)."""
        for attempt in range(3):
            with self.db.lock:
                dim = self.dim
                if dim is None:
                    return None
                with self._lock:  # lock order, everywhere: the database's, then the index's
                    generation = self._generation(self.db.conn)
                    codes = self._codes
                    if codes is not None and codes.generation == generation and codes.dim == dim:
                        return codes
                codes = Codes(dim, self.center(), generation)
                codes.reserve(self.count())
            if attempt < 2:
                self._load(codes, sliced=True)
            with self.db.lock, self._lock:
                if attempt == 2:
                    self._load(codes, sliced=False)
                elif self._generation(self.db.conn) != generation:
                    continue  # changed while loading: again
                self._codes = codes
                return codes
        return None  # not reached: the last attempt returns

    def _load(self, codes: Codes, sliced: bool) -> None:
        """Read every code into `codes`, by ascending id (a keyset, LOAD_SLICE at a time:
        a million rows as Python tuples would take 250 MB for a moment), then the ids of
        every space's items in one query (`Layout.in_spaces`): a lookup per code read
        the items' own rows, which took the load of 100k memories' codes from about 65
        to 130 ms with the pages cached (from 0.8 to 1.6 s read from disk). The codes'
        generation covers this query as it covers the slices: an item written, deleted
        or moved meanwhile changes it, and `codes` reads them all again."""
        col, table = self.layout.id_column, self.layout.codes
        after = -(2**63)
        while True:
            sql = f"SELECT {col}, code FROM {table} WHERE {col} > ? ORDER BY {col} LIMIT ?"
            rows = self._read(sql, (after, LOAD_SLICE), sliced)
            if not rows:
                break
            ids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
            packed = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.uint8)
            shared = np.full(len(rows), SHARED_KEY, dtype=np.int64)
            words = codes.as_words(packed.reshape(len(rows), codes.nbytes))
            codes.add(ids, words, shared, load=True)
            after = int(ids[-1])
        for key, ids in self._read(self.layout.in_spaces, (), sliced):
            codes.place(np.fromstring(ids, dtype=np.int64, sep=","), int(key))

    def _read(self, sql: str, params: tuple[int, ...], sliced: bool) -> list[Any]:
        if sliced:
            return self.db.query(sql, params)
        return self.db.conn.execute(sql, params).fetchall()

    def knn(
        self, query: np.ndarray, k: int, seen: Sequence[int] | None = None
    ) -> list[tuple[int, float]]:
        """The k nearest memories by cosine similarity: [(memory_id, similarity)], best
        first; with `seen` (space keys: a space's id, SHARED_KEY), only items in those
        spaces: the reader's, filtered in the scan, never another space's."""
        dim = self.dim
        if dim is None or self.count() == 0:
            return []
        if query.shape[-1] != dim:
            raise DimensionMismatch(
                f"The query vector has {query.shape[-1]} dimensions but the index has {dim}: "
                "run `desktop-mem memory reembed`."
            )
        query = np.asarray(query, dtype=np.float32)
        rescore = candidates_for(k)
        codes = self.codes()
        if codes is None or codes.n == 0:
            return []
        with self._lock:  # a writer in another thread waits for the scan
            centered = query if codes.center is None else query - codes.center
            qwords = codes.as_words(pack_bits(query, codes.center))[0]
            hidden = codes.hidden(seen)
            if codes.n <= rescore:
                ids = codes.ids[: codes.n].copy()
                if hidden is not None:
                    ids = ids[~hidden]
            else:
                distances = codes.hamming(qwords, self._threads())
                if hidden is not None:
                    distances[hidden] = codes.dim + 1  # beyond every real distance
                near = codes.nearest(distances, max(SCAN_CANDIDATES, 4 * rescore))
                if hidden is not None:
                    near = near[~hidden[near]]
                # sum((2b - 1) * q) ranks as sum(b * q): the +-1 code against the query
                scores = codes.signs(near) @ centered
                best = near[np.argsort(-scores)[:rescore]]
                ids = codes.ids[best]
        return self._rescore(ids, query, k)

    def _rescore(self, ids: np.ndarray, query: np.ndarray, k: int) -> list[tuple[int, float]]:
        """Exact cosine over the int8 copies, computed by sqlite-vec."""
        qblob = to_blob(query)[4:]
        marks = ",".join("?" * len(ids))
        rows = self.db.query(
            f"SELECT {self.layout.id_column}, vec_distance_cosine(vec_int8(substr(embedding, 5)), "
            f"vec_int8(?)) AS d FROM {self.layout.vectors} WHERE {self.layout.id_column} IN "
            f"({marks}) ORDER BY d LIMIT ?",
            (qblob, *[int(i) for i in ids], k),
        )
        return [(int(mid), 1.0 - float(d)) for mid, d in rows]

    def _threads(self) -> ThreadPoolExecutor:
        if self._pool is None:
            self._pool = ThreadPoolExecutor(2, thread_name_prefix="desktop-mem-scan")
        return self._pool

    def warm(self) -> int:
        """Load the codes, and read the rescoring vectors once when the page cache can
        hold them, so that they sit decrypted in it: otherwise each candidate costs its
        first query a page decryption (~60 us). The app does this in the background
        after opening. Returns the bytes read."""
        codes = self.codes()
        if codes is None:
            return 0
        total = codes.n * codes.nbytes
        if self._vectors_fit():
            with self.db.lock:
                for (blob,) in self.db.conn.execute(f"SELECT embedding FROM {self.layout.vectors}"):
                    total += len(blob)
        return total

    def _vector_bytes(self) -> int:
        per_page = max(1, 4000 // ((self.dim or 1024) + 4 + 12))
        return int(self.count() * 4096 / per_page * 1.15)

    def _vectors_fit(self) -> bool:
        return self._vector_bytes() + 16 * 1024 * 1024 <= CACHE_CAP

    def cache_bytes_wanted(self) -> int:
        """Page cache for the rescoring vectors while they fit under CACHE_CAP (about
        120k memories at 1024 dimensions), plus room for the rest."""
        wanted = 16 * 1024 * 1024
        if self._vectors_fit():
            wanted += self._vector_bytes()
        return min(CACHE_CAP, wanted)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False)
            self._pool = None
