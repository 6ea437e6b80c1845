"""Hybrid search in English, Chinese and mixed text, with its signals and fallbacks."""

from __future__ import annotations

import pytest

from desktop_mem.core.config import Config
from desktop_mem.core.keys.vault import Vault
from desktop_mem.core.memory.store import NewMemory
from desktop_mem.core.profile import Profile
from desktop_mem.core.search.hybrid import MAX_QUERY_CHARS, SearchWeights
from tests.fakes.ollama_server import FakeOllama

MEMORIES = [
    ("I live in Hangzhou with my cat Mochi", "fact"),
    ("I prefer green tea over coffee", "preference"),
    ("我下个月要考驾照", "plan"),
    ("我女儿叫小雨，今年五岁", "person"),
    ("My sister works at a hospital in Shenzhen", "person"),
    ("下周去东京出差 business trip to Tokyo next week", "event"),
    ("I am allergic to peanuts", "fact"),
    ("我喜欢跑步，每周跑三次", "preference"),
]


@pytest.fixture
def seeded(profile: Profile) -> Profile:
    profile.memories.add_many([NewMemory(t, kind=k) for t, k in MEMORIES], actor="user")
    return profile


def top(profile: Profile, query: str, k: int = 3) -> list[str]:
    return [h.memory.text for h in profile.search.search(query, k=k).hits]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("where does my cat live", "I live in Hangzhou with my cat Mochi"),
        ("tea or coffee?", "I prefer green tea over coffee"),
        ("peanut allergy", "I am allergic to peanuts"),
        ("考驾照", "我下个月要考驾照"),
        ("女儿", "我女儿叫小雨，今年五岁"),
        ("跑步", "我喜欢跑步，每周跑三次"),
        ("东京", "下周去东京出差 business trip to Tokyo next week"),
        ("Tokyo 出差", "下周去东京出差 business trip to Tokyo next week"),
        ("sister hospital", "My sister works at a hospital in Shenzhen"),
    ],
)
def test_finds_the_right_memory_in_english_chinese_and_mixed(
    seeded: Profile, query: str, expected: str
) -> None:
    assert top(seeded, query)[0] == expected


def test_hits_report_their_signals(seeded: Profile) -> None:
    hit = seeded.search.search("Hangzhou cat", k=1).hits[0]
    assert hit.signals["keyword"]["rank"] == 1
    assert hit.signals["vector"]["rank"] >= 1
    assert 0 < hit.signals["vector"]["similarity"] <= 1
    d = hit.to_dict()
    assert {
        "id",
        "text",
        "kind",
        "pinned",
        "created_at",
        "updated_at",
        "score",
        "signals",
    } <= d.keys()


def test_keyword_only_memory_still_found(seeded: Profile) -> None:
    hits = seeded.search.search("Mochi").hits
    assert hits[0].memory.text.endswith("Mochi")
    assert "keyword" in hits[0].signals


@pytest.mark.parametrize(
    "query",
    [
        '"',
        "*",
        "NEAR(",
        "a - b",
        "AND OR NOT",
        "'; DROP TABLE memories; --",
        "(((",
        "^",
        "考*",
        "\x00",
        "   ",
    ],
)
def test_fts_syntax_and_junk_never_crash(seeded: Profile, query: str) -> None:
    seeded.search.search(query)
    assert seeded.memories.count() == len(MEMORIES)


def test_near_duplicates_are_collapsed(profile: Profile) -> None:
    profile.memories.add(NewMemory("I live in Hangzhou"))
    profile.memories.add(NewMemory("i live in  hangzhou"))  # same words, other case and spacing
    profile.memories.add(NewMemory("I live in Hangzhou!"))  # same vector in the fake model
    profile.memories.add(NewMemory("Hangzhou has a lake"))
    texts = top(profile, "Hangzhou", k=10)
    assert len([t for t in texts if "live" in t.lower()]) == 1
    assert "Hangzhou has a lake" in texts


def test_pinned_and_important_memories_rank_higher_on_ties(profile: Profile) -> None:
    a = profile.memories.add(NewMemory("project alpha deadline")).memory
    b = profile.memories.add(NewMemory("project alpha deadline", pinned=True)).memory
    hits = profile.search.search("project alpha deadline", k=5).hits
    assert hits[0].memory.id == b.id and hits[0].signals.get("pinned")
    assert a.id not in [h.memory.id for h in hits]  # duplicate of the pinned one


def test_expired_memories_can_be_excluded(profile: Profile) -> None:
    profile.memories.add(NewMemory("In Tokyo this week", valid_until="2020-01-01"))
    assert top(profile, "Tokyo")
    assert profile.search.search("Tokyo", include_expired=False).hits == []


def test_kind_filter(seeded: Profile) -> None:
    hits = seeded.search.search("I", k=10, kinds={"person"}, relevant_only=False).hits
    assert hits and all(h.memory.kind == "person" for h in hits)


def test_ollama_down_falls_back_to_keywords_with_a_warning(config: Config, vault: Vault) -> None:
    with Profile.open(config, vault) as prof:
        prof.memories.add(NewMemory("I live in Hangzhou with my cat Mochi"))
    config.ollama_host = "http://127.0.0.1:9"
    with Profile.open(config, vault) as prof:
        result = prof.search.search("Hangzhou")
        assert [h.memory.text for h in result.hits] == ["I live in Hangzhou with my cat Mochi"]
        assert (
            "not reachable" in result.warnings[0] and "keyword matches only" in result.warnings[0]
        )


def test_vector_only_search_finds_semantic_neighbours(profile: Profile) -> None:
    profile.memories.add(NewMemory("cats are wonderful pets"))
    profile.memories.add(NewMemory("stock market crashed"))
    w = SearchWeights(keyword=0.0)
    from desktop_mem.core.search.hybrid import HybridSearch

    hits = HybridSearch(profile.memories, w).search("wonderful pet cats", k=1).hits
    assert hits[0].memory.text == "cats are wonderful pets"


def _knn_recall(profile: Profile, queries: list[str]) -> float:
    import numpy as np

    index = profile.memories.index
    ids = [
        r[0] for r in profile.db.query("SELECT memory_id FROM memory_vectors ORDER BY memory_id")
    ]
    vecs = index.vectors(ids)
    mat = np.vstack([vecs[i] for i in ids])
    found = []
    for text in queries:
        q = profile.embedder.embed_one(text)
        tenth = np.sort(mat @ q)[::-1][9]
        # the fake model has many exact ties: a hit counts if it is as close as the 10th
        # (give or take the int8 rounding of the query for rescoring)
        found.append(sum(sim >= tenth - 2e-3 for _, sim in index.knn(q, 10)) / 10)
    return float(np.mean(found))


QUERIES = [f"word{i % 13} thing{i % 29} item{i % 7}" for i in range(0, 60, 3)]


def _fill(profile: Profile, n: int) -> None:
    profile.memories.add_many(
        [
            NewMemory(f"memory {i} word{i % 13} thing{i % 29} item{i % 7} kind{i % 11}")
            for i in range(n)
        ]
    )


def test_knn_recall_small_store_is_exact(profile: Profile) -> None:
    _fill(profile, 200)  # fewer than the rescored candidates: every vector is rescored
    assert _knn_recall(profile, QUERIES) == 1.0


def test_knn_recall_through_the_code_scan(profile: Profile) -> None:
    _fill(profile, 1500)
    index = profile.memories.index
    assert index.center() is not None, "the mean was estimated at the doublings"
    assert index.codes().n == 1500
    assert _knn_recall(profile, QUERIES) >= 0.9


def test_threaded_scan_matches_the_single_thread(
    profile: Profile, monkeypatch: pytest.MonkeyPatch
) -> None:
    import numpy as np

    from desktop_mem.core.db import vectors

    _fill(profile, 1200)
    codes = profile.memories.index.codes()
    q = codes.as_words(vectors.pack_bits(profile.embedder.embed_one("word3 thing4"), None))[0]
    single = codes.hamming(q, None)
    monkeypatch.setattr(vectors, "BLOCK", 256)
    monkeypatch.setattr(vectors, "THREADED_MIN", 100)
    assert np.array_equal(codes.hamming(q, profile.memories.index._threads()), single)


def test_codes_follow_edits_deletes_and_rollbacks(profile: Profile) -> None:
    store = profile.memories
    _fill(profile, 400)
    index = store.index
    loaded = index.codes()
    m = store.add(NewMemory("zebra quartz unique words")).memory
    assert index.codes() is loaded and loaded.n == 401, "a write updates the loaded codes"
    assert profile.search.search("zebra quartz unique words", k=1).hits[0].memory.id == m.id
    store.edit(m.id, text="violet harbor lanterns")
    assert loaded.n == 401
    q = profile.embedder.embed_one("violet harbor lanterns")
    assert index.knn(q, 1)[0][0] == m.id
    store.delete(m.id)
    assert loaded.n == 400 and m.id not in set(index.codes().ids[:400].tolist())
    assert all(i != m.id for i, _ in index.knn(q, 5))

    with pytest.raises(RuntimeError), profile.db.transaction() as conn:
        index.put(conn, [1], ["x"], profile.embedder.embed(["rolled back"]))
        raise RuntimeError("the caller fails after the write")
    assert index._codes is None, "a rollback drops the in-memory copy"
    assert index.codes().n == 400


def test_another_process_write_is_seen(profile: Profile, config: Config, vault: Vault) -> None:
    _fill(profile, 300)
    index = profile.memories.index
    before = index.codes()
    with Profile.open(config, vault) as other:  # a second connection, like the CLI
        m = other.memories.add(NewMemory("a memory written by another process")).memory
    q = profile.embedder.embed_one("a memory written by another process")
    assert index.knn(q, 1)[0][0] == m.id
    assert index.codes() is not before and index.codes().n == 301


def test_warm_reads_the_codes_and_search_still_works(profile: Profile) -> None:
    _fill(profile, 100)
    dim = profile.memories.index.dim or 0
    assert profile.memories.index.warm() >= 100 * (dim // 8 + dim)
    assert profile.search.search("word3 thing5", k=3).hits


def test_an_unrelated_query_finds_nothing_by_meaning_alone(profile: Profile) -> None:
    _fill(profile, 200)
    profile.memories.add(NewMemory("zebra quartz violet harbor"))
    assert (
        profile.search.search("zebra quartz", k=3).hits[0].memory.text
        == "zebra quartz violet harbor"
    )
    hits = profile.search.search("hello there", k=5).hits
    assert all("keyword" in h.signals for h in hits), "no vector-only noise for a greeting"


def test_a_pasted_document_as_query_is_cut_to_its_start(
    seeded: Profile, fake_ollama: FakeOllama
) -> None:
    """A 1 MB query (a pasted file, or a chat message used as the query) is searched by
    its first MAX_QUERY_CHARS characters, with a warning, instead of taking minutes."""
    query = "where do I live? " + "长" * (1 << 20)
    result = seeded.search.search(query, k=3)
    assert any(f"{MAX_QUERY_CHARS:,} characters" in w for w in result.warnings)
    sent = fake_ollama.embed_inputs()[-1]
    assert len(sent) <= MAX_QUERY_CHARS
