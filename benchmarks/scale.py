"""Search latency, recall and memory at 10k / 100k / 1M memories, on the encrypted database.

Each size is built through the product's own write path (MemoryStore.add_many:
memories, history, full text, int8 vectors, binary codes) with a benchmark
embedder that serves precomputed vectors instead of calling a model, so nothing
but the store is timed. Vectors are clustered like real embeddings (topics, a
non-zero mean direction); queries are new points from the same distribution. The
exact top-10 of every query is computed while the data is generated. Searching
runs in a fresh process, so its peak resident memory is the search's own.

    python benchmarks/scale.py                       # 10k and 100k, 1024 dimensions
    python benchmarks/scale.py --sizes 10000 100000 1000000 --json
    python benchmarks/scale.py --real-embeddings     # recall on real MiniLM vectors (LoCoMo text)
    python benchmarks/scale.py --sizes 100000 --spaces 10
        # the same memories spread over 10 spaces: search within one space against
        # search over all of them (p95 ratio), recall@10 against exact search in the space
    python benchmarks/scale.py --read-path --sizes 10000 --messages 300000
        # the chat's read path (memories and the recall tier) before the first token,
        # and the message index's recall@10 against exact search
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._common import BENCH_PASSPHRASE, peak_rss_mb, percentile, scratch_home
from desktop_mem.core.chat.read_path import Budget, ContextBuilder, TokenCounter
from desktop_mem.core.config import Config
from desktop_mem.core.memory.spaces import EVERY, Scope
from desktop_mem.core.memory.store import NewMemory
from desktop_mem.core.models.embed import Embedder
from desktop_mem.core.profile import Profile
from desktop_mem.core.search.hybrid import HybridSearch
from desktop_mem.core.search.sentences import REFERENCE_SENTENCES

MODEL = "bench-embed"
CHUNK = 10_000


class PrecomputedEmbedder(Embedder):
    """Serves vectors registered for each text: the store is measured, not a model."""

    def __init__(self, dim: int) -> None:
        super().__init__(host="http://127.0.0.1:9", model=MODEL)
        self.dim = dim
        self.table: dict[str, np.ndarray] = {}
        self.query: np.ndarray | None = None  # served for a (possibly reworded) query

    def embed(
        self,
        texts: Sequence[str],
        progress: Callable[[int, int], None] | None = None,
        fresh: bool = False,
    ) -> np.ndarray:
        return np.vstack(
            [self.table.pop(t) if t in self.table else self._missing(t) for t in texts]
        )

    def _missing(self, text: str) -> np.ndarray:
        if self.query is not None:
            return self.query
        raise KeyError(f"no precomputed vector for {text[:30]!r}")


class Corpus:
    """Deterministic vectors and word-salad texts, generated chunk by chunk.

    Vectors are Gaussian with the shape measured on real all-MiniLM-L6-v2 embeddings
    of LoCoMo text: a mean vector of norm 0.47 and a covariance spectrum decaying as
    i^-1.37 (half the variance in 18 directions), in a random basis of `dim`
    dimensions. Isotropic noise would make binary codes look far worse than they are
    on real text; this is measured against real vectors with --real-embeddings."""

    def __init__(self, n: int, dim: int, seed: int = 7, stream: int = 0) -> None:
        rng = np.random.default_rng(seed)
        self.stream = stream  # another set of points from the same distribution
        self.n, self.dim = n, dim
        basis, _ = np.linalg.qr(rng.standard_normal((dim, dim)))
        spectrum = np.arange(1, dim + 1, dtype=np.float64) ** -1.37
        self.scale = (basis * np.sqrt(spectrum / spectrum.sum())).T.astype(np.float32)
        self.mean = (_unit(rng.standard_normal(dim)) * 0.47).astype(np.float32)
        vocab_rng = np.random.default_rng(seed + 1)
        letters = np.array(list("abcdefghiklmnoprstuvwyz"))
        self.vocab = [
            "".join(vocab_rng.choice(letters, size=vocab_rng.integers(3, 10)))
            for _ in range(30_000)
        ]
        self.zipf = 1.0 / np.arange(1, len(self.vocab) + 1)
        self.zipf /= self.zipf.sum()

    def vectors(self, rng: np.random.Generator, count: int) -> np.ndarray:
        z = rng.standard_normal((count, self.dim), dtype=np.float32)
        return _unit(self.mean + z @ self.scale).astype(np.float32)

    def chunk(self, index: int) -> tuple[list[str], np.ndarray]:
        rng = np.random.default_rng(1000 + index + 1_000_003 * self.stream)
        count = min(CHUNK, self.n - index * CHUNK)
        vecs = self.vectors(rng, count)
        words = rng.choice(len(self.vocab), size=(count, 12), p=self.zipf)
        texts = [
            f"memory {index * CHUNK + i}: " + " ".join(self.vocab[w] for w in row)
            for i, row in enumerate(words)
        ]
        return texts, vecs

    def queries(self, count: int) -> tuple[list[str], np.ndarray]:
        rng = np.random.default_rng(99)
        words = rng.choice(len(self.vocab), size=(count, 4), p=self.zipf)
        return [
            " ".join(self.vocab[w] for w in row) + f" q{i}" for i, row in enumerate(words)
        ], self.vectors(rng, count)


def _best(
    sims: np.ndarray, ids: np.ndarray, more: np.ndarray, more_ids: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The best 10 (similarities, ids) of each query among both sets."""
    both_s = np.hstack([sims, more])
    both_i = np.hstack([ids, np.broadcast_to(more_ids, more.shape)])
    top = np.argsort(-both_s, axis=1)[:, :10]
    return np.take_along_axis(both_s, top, 1), np.take_along_axis(both_i, top, 1)


def _unit(x: np.ndarray) -> np.ndarray:
    return x / np.linalg.norm(x, axis=-1, keepdims=True)


def build(home: Path, n: int, dim: int, queries: int, spaces: int = 0) -> dict:
    """With `spaces`, memory i goes to space i mod `spaces` (a space says nothing of
    what its memories are about: the hardest case for a filter) and query j is asked
    in space j mod `spaces`; its exact top 10 are those of that space."""
    corpus = Corpus(n, dim)
    qtexts, qvecs = corpus.queries(queries)
    best_sims = np.full((queries, 10), -np.inf, dtype=np.float32)
    best_ids = np.zeros((queries, 10), dtype=np.int64)
    space_sims, space_ids = best_sims.copy(), best_ids.copy()
    asked_in = np.arange(queries) % spaces if spaces else np.zeros(queries, dtype=np.int64)
    embedder = PrecomputedEmbedder(dim)
    config = Config.resolve(
        home=home, profile="scale", embed_model=MODEL, passphrase=BENCH_PASSPHRASE
    )
    insert_s = 0.0
    with Profile.open(config) as prof:
        prof.use_embedder(embedder)
        made = [prof.spaces.create(f"Space {i + 1}").id for i in range(spaces)]
        for c in range((n + CHUNK - 1) // CHUNK):
            texts, vecs = corpus.chunk(c)
            embedder.table.update(zip(texts, vecs, strict=True))
            where = (np.arange(len(texts)) + c * CHUNK) % spaces if spaces else None
            new = [
                NewMemory(t, space=made[int(where[i])] if where is not None else None)
                for i, t in enumerate(texts)
            ]
            t0 = time.perf_counter()
            mems, warnings = prof.memories.add_many(new)
            insert_s += time.perf_counter() - t0
            assert not warnings, warnings
            ids = np.array([m.id for m in mems])
            sims = qvecs @ vecs.T
            best_sims, best_ids = _best(best_sims, best_ids, sims, ids)
            if where is not None:  # a query in a space sees only that space's memories
                sims[asked_in[:, None] != where[None, :]] = -np.inf
                space_sims, space_ids = _best(space_sims, space_ids, sims, ids)
            print(
                f"\r  {n:>9,}: inserted {min((c + 1) * CHUNK, n):,}",
                end="",
                file=sys.stderr,
                flush=True,
            )
        prof.db.checkpoint()
    print(file=sys.stderr)
    folder = home / "profiles" / "scale"
    size = sum(p.stat().st_size for p in folder.iterdir() if p.is_file())
    np.save(home / "qvecs.npy", qvecs)
    np.save(home / "truth.npy", best_ids)
    (home / "qtexts.json").write_text(json.dumps(qtexts))
    np.save(home / "space_truth.npy", space_ids)
    (home / "spaces.json").write_text(json.dumps([made[int(a)] for a in asked_in] if made else []))
    return {
        "memories": n,
        "spaces": spaces,
        "dim": dim,
        "insert_per_s": round(n / insert_s),
        "file_mb": round(size / 1e6),
    }


def search_phase(home: Path, dim: int) -> dict:
    """Runs in its own process: open, search, report latency, recall and peak RSS."""
    qvecs = np.load(home / "qvecs.npy")
    truth = np.load(home / "truth.npy")
    qtexts = json.loads((home / "qtexts.json").read_text())
    embedder = PrecomputedEmbedder(dim)
    config = Config.resolve(
        home=home, profile="scale", embed_model=MODEL, passphrase=BENCH_PASSPHRASE
    )
    t0 = time.perf_counter()
    prof = Profile.open(config)
    open_ms = (time.perf_counter() - t0) * 1000
    prof.use_embedder(embedder)
    search = HybridSearch(prof.memories)
    index = prof.memories.index
    knn_ms, hybrid_ms, recalls = [], [], []
    t0 = time.perf_counter()
    index.knn(qvecs[0], 10)
    cold_ms = (time.perf_counter() - t0) * 1000
    # A running app loads the codes into the page cache once, in the background.
    t0 = time.perf_counter()
    index.warm()
    warm_ms = (time.perf_counter() - t0) * 1000
    for q, text, exact in zip(qvecs, qtexts, truth, strict=True):
        t0 = time.perf_counter()
        got = [i for i, _ in index.knn(q, 10)]
        knn_ms.append((time.perf_counter() - t0) * 1000)
        recalls.append(len(set(got) & set(exact.tolist())) / 10)
        embedder.query = q
        t0 = time.perf_counter()
        search.search(text, k=10, scope=EVERY)
        hybrid_ms.append((time.perf_counter() - t0) * 1000)
    scoped = _scoped(
        search, qvecs, qtexts, np.load(home / "space_truth.npy"),
        json.loads((home / "spaces.json").read_text()),
    )  # fmt: skip
    prof.close()
    return {
        **scoped,
        "open_ms": round(open_ms, 1),
        "cold_first_knn_ms": round(cold_ms, 1),
        "warm_up_ms": round(warm_ms, 1),
        "knn_p50_ms": round(percentile(knn_ms, 50), 2),
        "knn_p95_ms": round(percentile(knn_ms, 95), 2),
        "hybrid_p50_ms": round(percentile(hybrid_ms, 50), 2),
        "hybrid_p95_ms": round(percentile(hybrid_ms, 95), 2),
        "recall@10": round(float(np.mean(recalls)), 4),
        "peak_rss_mb": round(peak_rss_mb()),
    }


def _scoped(
    search: HybridSearch,
    qvecs: np.ndarray,
    qtexts: list[str],
    truth: np.ndarray,
    asked_in: list[int],
) -> dict:
    """Each query searched within its space (which sees the shared space, here empty),
    as the chat's read path does: the whole of a search's scoping is timed (what the
    space sees, the filter inside the scan, the keyword search kept to the space)."""
    if not asked_in:
        return {}
    embedder = search.texts.embedder
    assert isinstance(embedder, PrecomputedEmbedder)
    knn_ms, hybrid_ms, recalls = [], [], []
    for q, text, exact, space in zip(qvecs, qtexts, truth, asked_in, strict=True):
        scope = Scope(space)
        t0 = time.perf_counter()
        got = [i for i, _ in search.nearest(q, 10, scope)]
        knn_ms.append((time.perf_counter() - t0) * 1000)
        recalls.append(len(set(got) & set(exact.tolist())) / 10)
        embedder.query = q
        t0 = time.perf_counter()
        search.search(text, k=10, scope=scope)
        hybrid_ms.append((time.perf_counter() - t0) * 1000)
    return {
        "space_knn_p50_ms": round(percentile(knn_ms, 50), 2),
        "space_knn_p95_ms": round(percentile(knn_ms, 95), 2),
        "space_hybrid_p50_ms": round(percentile(hybrid_ms, 50), 2),
        "space_hybrid_p95_ms": round(percentile(hybrid_ms, 95), 2),
        "space_recall@10": round(float(np.mean(recalls)), 4),
    }


MESSAGES_PER_CONVERSATION = 40


def build_messages(home: Path, n: int, dim: int, queries: int) -> dict:
    """Add n messages (in conversations of 40, as imported history) to the profile
    `build` made, with vectors from the same distribution as the memories'; keep the
    exact top-10 messages of each query."""
    corpus = Corpus(n, dim, stream=1)
    qvecs = np.load(home / "qvecs.npy")
    best_sims = np.full((len(qvecs), 10), -np.inf, dtype=np.float32)
    best_ids = np.zeros((len(qvecs), 10), dtype=np.int64)
    embedder = PrecomputedEmbedder(dim)
    config = Config.resolve(
        home=home, profile="scale", embed_model=MODEL, passphrase=BENCH_PASSPHRASE
    )
    t_insert = 0.0
    with Profile.open(config) as prof:
        prof.use_embedder(embedder)
        convs = prof.conversations
        for c in range((n + CHUNK - 1) // CHUNK):
            texts, vecs = corpus.chunk(c)
            embedder.table.update(zip(texts, vecs, strict=True))
            t0 = time.perf_counter()
            ids: list[int] = []
            for start in range(0, len(texts), MESSAGES_PER_CONVERSATION):
                cid = convs.create(title=f"imported {c}-{start}").id
                part = texts[start : start + MESSAGES_PER_CONVERSATION]
                roles = ["user" if i % 2 == 0 else "assistant" for i in range(len(part))]
                ids += convs.add_messages(
                    cid, [(r, t, None) for r, t in zip(roles, part, strict=True)]
                )
            convs.index_vectors(ids)
            t_insert += time.perf_counter() - t0
            sims = qvecs @ vecs.T
            both_s = np.hstack([best_sims, sims])
            both_i = np.hstack([best_ids, np.broadcast_to(np.array(ids), sims.shape)])
            top = np.argsort(-both_s, axis=1)[:, :10]
            best_sims = np.take_along_axis(both_s, top, 1)
            best_ids = np.take_along_axis(both_i, top, 1)
            print(f"\r  messages: inserted {len(ids) + c * CHUNK:,}", end="", file=sys.stderr)
        # Memories are learned from messages: link each to one, as the extractor does,
        # so that the read path also reads their source messages' vectors.
        with prof.db.transaction() as conn:
            conn.execute(
                "UPDATE memories SET source_message_id = id WHERE id IN (SELECT id FROM messages)"
            )
        prof.db.checkpoint()
    print(file=sys.stderr)
    folder = home / "profiles" / "scale"
    size = sum(p.stat().st_size for p in folder.iterdir() if p.is_file())
    np.save(home / "message_truth.npy", best_ids)
    return {
        "messages": n,
        "message_insert_per_s": round(n / t_insert),
        "file_mb": round(size / 1e6),
    }


def read_path_phase(home: Path, dim: int) -> dict:
    """Runs in its own process: the chat's read path (ContextBuilder.build: memory
    search, the recall tier, the prompt) with the query embedding precomputed, and the
    message index's recall@10."""
    qvecs = np.load(home / "qvecs.npy")
    truth = np.load(home / "message_truth.npy")
    qtexts = json.loads((home / "qtexts.json").read_text())
    embedder = PrecomputedEmbedder(dim)
    # the relevance rule's reference sentences: unrelated points of the same distribution
    ref = Corpus(len(REFERENCE_SENTENCES), dim).vectors(
        np.random.default_rng(5), len(REFERENCE_SENTENCES)
    )
    embedder.table.update(zip(REFERENCE_SENTENCES, ref, strict=True))
    config = Config.resolve(
        home=home, profile="scale", embed_model=MODEL, passphrase=BENCH_PASSPHRASE
    )
    prof = Profile.open(config)
    prof.use_embedder(embedder)
    search, convs = prof.search, prof.conversations
    builder = ContextBuilder(prof.memories, search, TokenCounter(), convs)
    prof.memories.index.warm()
    convs.index.warm()
    budget = Budget()
    build_ms, recalls, injected = [], [], []
    for q, text, exact in zip(qvecs, qtexts, truth, strict=True):
        got = [i for i, _ in convs.index.knn(q, 10)]
        recalls.append(len(set(got) & set(exact.tolist())) / 10)
        embedder.query = q
        t0 = time.perf_counter()
        plan = builder.build(text, [], budget)
        build_ms.append((time.perf_counter() - t0) * 1000)
        injected.append(len(plan.used) + len(plan.recalled))
    prof.close()
    return {
        "read_path_p50_ms": round(percentile(build_ms, 50), 2),
        "read_path_p95_ms": round(percentile(build_ms, 95), 2),
        "message_recall@10": round(float(np.mean(recalls)), 4),
        "items_injected_mean": round(float(np.mean(injected)), 2),
        "peak_rss_mb": round(peak_rss_mb()),
    }


def real_embeddings(host: str | None, limit: int) -> dict:
    """Recall of the binary index against exact search on real MiniLM vectors:
    LoCoMo turns and their sentences stored, LoCoMo questions as queries."""
    import re

    from benchmarks._common import SHARED_BENCH, embed_server

    data = json.loads((SHARED_BENCH / "locomo" / "locomo_dev.json").read_text("utf-8"))
    texts: list[str] = []
    questions: list[str] = []
    for sample in data:
        conv = sample["conversation"]
        for key, turns in conv.items():
            if key.startswith("session_") and isinstance(turns, list):
                for t in turns:
                    texts.append(t["text"])
                    texts += [s for s in re.split(r"(?<=[.!?])\s+", t["text"]) if len(s) > 20]
        questions += [qa["question"] for qa in sample["qa"]]
    texts = list(dict.fromkeys(texts))[:limit]
    questions = list(dict.fromkeys(questions))[:500]

    def run(url: str) -> dict:
        with scratch_home() as home:
            config = Config.resolve(
                home=home, profile="real", ollama_host=url, embed_model="all-minilm"
            )
            with Profile.open(config) as prof:
                prof.memories.add_many([NewMemory(t) for t in texts])
                ids = [
                    r[0]
                    for r in prof.db.query(
                        "SELECT memory_id FROM memory_vectors ORDER BY memory_id"
                    )
                ]
                vecs = prof.memories.index.vectors(ids)
                mat = np.vstack([vecs[i] for i in ids])
                qv = prof.embedder.embed(questions)
                out: dict = {"recall@10": _recall(prof, ids, mat, qv)}
                return {
                    "memories": len(texts),
                    "queries": len(questions),
                    "dim": int(mat.shape[1]),
                    **out,
                }

    if host:
        return run(host)
    with embed_server() as url:
        return run(url)


def _recall(prof: Profile, ids: list[int], mat: np.ndarray, queries: np.ndarray) -> float:
    rec = []
    for q in queries:
        exact = {ids[i] for i in np.argsort(-(mat @ q))[:10]}
        rec.append(len(exact & {i for i, _ in prof.memories.index.knn(q, 10)}) / 10)
    return round(float(np.mean(rec)), 4)


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    ap.add_argument("--dim", type=int, default=1024, help="default: bge-m3's 1024")
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument(
        "--real-embeddings", action="store_true", help="also measure recall on real MiniLM vectors"
    )
    ap.add_argument("--real-limit", type=int, default=8000)
    ap.add_argument(
        "--ollama-host", help="for --real-embeddings (default: start the offline MiniLM server)"
    )
    ap.add_argument(
        "--spaces", type=int, default=0, help="spread the memories over this many spaces"
    )
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--search-phase", help=argparse.SUPPRESS)
    ap.add_argument("--read-path", action="store_true", help="memories plus --messages messages")
    ap.add_argument("--messages", type=int, default=300_000)
    ap.add_argument("--read-path-phase", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.search_phase:
        print(json.dumps(search_phase(Path(args.search_phase), args.dim)))
        return
    if args.read_path_phase:
        print(json.dumps(read_path_phase(Path(args.read_path_phase), args.dim)))
        return
    if args.read_path:
        rows = []
        for n in args.sizes:
            with scratch_home() as home:
                row = build(home, n, args.dim, args.queries)
                row.update(build_messages(home, args.messages, args.dim, args.queries))
                env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
                proc = subprocess.run(
                    [sys.executable, __file__, "--read-path-phase", str(home), "--dim", str(args.dim)],
                    stdout=subprocess.PIPE, text=True, env=env, check=True,
                )  # fmt: skip
                row.update(json.loads(proc.stdout))
                rows.append(row)
                print(f"  {row}", file=sys.stderr)
        print(json.dumps({"read_path": rows}, indent=2))
        return
    results = []
    for n in args.sizes:
        with scratch_home() as home:
            row = build(home, n, args.dim, args.queries, args.spaces)
            env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
            proc = subprocess.run(
                [sys.executable, __file__, "--search-phase", str(home), "--dim", str(args.dim)],
                stdout=subprocess.PIPE, text=True, env=env, check=True,
            )  # fmt: skip
            row.update(json.loads(proc.stdout))
            results.append(row)
            print(f"  {n:>9,}: {row}", file=sys.stderr)
    out: dict = {"synthetic": results}
    if args.real_embeddings:
        out["real"] = real_embeddings(args.ollama_host, args.real_limit)
    if args.json:
        print(json.dumps(out, indent=2))
        return
    print(f"{'memories':>10} {'dim':>5} {'insert/s':>9} {'file MB':>8} {'knn p50':>8} {'knn p95':>8} "
          f"{'hybrid p50':>11} {'hybrid p95':>11} {'recall@10':>10} {'peak RSS MB':>12}")  # fmt: skip
    for r in results:
        print(f"{r['memories']:>10,} {r['dim']:>5} {r['insert_per_s']:>9,} {r['file_mb']:>8,} "
              f"{r['knn_p50_ms']:>8} {r['knn_p95_ms']:>8} {r['hybrid_p50_ms']:>11} {r['hybrid_p95_ms']:>11} "
              f"{r['recall@10']:>10} {r['peak_rss_mb']:>12}")  # fmt: skip
    for r in results:
        if r.get("spaces"):
            print(f"within one of {r['spaces']} spaces: knn p50 / p95 {r['space_knn_p50_ms']} / "
                  f"{r['space_knn_p95_ms']} ms ({r['space_knn_p95_ms'] / r['knn_p95_ms']:.2f}x), "
                  f"hybrid p50 / p95 {r['space_hybrid_p50_ms']} / {r['space_hybrid_p95_ms']} ms "
                  f"({r['space_hybrid_p95_ms'] / r['hybrid_p95_ms']:.2f}x), "
                  f"recall@10 {r['space_recall@10']} against exact search in the space")  # fmt: skip
    if "real" in out:
        print("real embeddings:", out["real"])


if __name__ == "__main__":
    main()
