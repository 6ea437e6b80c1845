"""The memory store: every operation on a real encrypted file, through the fake Ollama."""

from __future__ import annotations

import numpy as np
import pytest

from desktop_mem.core.config import Config
from desktop_mem.core.errors import DimensionMismatch, InvalidInput, ModelServerError, NotFound
from desktop_mem.core.keys.vault import Vault
from desktop_mem.core.memory.store import NewMemory
from desktop_mem.core.profile import Profile
from tests.fakes.ollama_server import FakeOllama


def test_add_get_and_fields(profile: Profile) -> None:
    res = profile.memories.add(
        NewMemory("My daughter is called Xiaoyu", kind="person", importance=0.8)
    )
    m = profile.memories.get(res.memory.id)
    assert (m.text, m.kind, m.importance, m.pinned, m.source) == (
        "My daughter is called Xiaoyu",
        "person",
        0.8,
        False,
        "user",
    )
    assert m.created_at == m.updated_at and m.created_at.endswith("Z")
    assert res.warnings == []
    assert profile.memories.index.count() == 1


@pytest.mark.parametrize(
    ("text", "kind", "importance"),
    [
        ("", "fact", 0.5),
        ("   \n", "fact", 0.5),
        ("x" * 8001, "fact", 0.5),
        ("ok", "nonsense", 0.5),
        ("ok", "fact", 2),
    ],
)
def test_invalid_memories_are_refused(
    profile: Profile, text: str, kind: str, importance: float
) -> None:
    with pytest.raises(InvalidInput):
        profile.memories.add(NewMemory(text, kind=kind, importance=importance))
    assert profile.memories.count() == 0


def test_control_characters_are_dropped_but_newlines_kept(profile: Profile) -> None:
    m = profile.memories.add(NewMemory("line one\x00\x07\nline two\x1b[31m")).memory
    assert m.text == "line one\nline two[31m"


def test_list_filters(profile: Profile) -> None:
    s = profile.memories
    s.add(NewMemory("I like green tea", kind="preference", pinned=True))
    s.add(NewMemory("Exam next month", kind="plan", created_at="2026-01-05"))
    s.add(NewMemory("我住在杭州", kind="fact", created_at="2025-06-01"))
    assert [m.text for m in s.list(kind="plan")] == ["Exam next month"]
    assert [m.text for m in s.list(pinned=True)] == ["I like green tea"]
    assert [m.text for m in s.list(text="杭州")] == ["我住在杭州"]
    assert [m.text for m in s.list(text="GREEN")] == ["I like green tea"]
    assert {m.text for m in s.list(since="2026-01-01", until="2026-01-31")} == {"Exam next month"}
    assert [m.text for m in s.list(until="2025-12-31")] == ["我住在杭州"]
    assert s.list()[0].pinned  # pinned first
    assert len(s.list(limit=2)) == 2


def test_edit_keeps_history_and_reembeds(profile: Profile) -> None:
    s = profile.memories
    m = s.add(NewMemory("I live in Hangzhou")).memory
    before = s.index.vectors([m.id])[m.id].copy()
    s.edit(m.id, text="I live in Shanghai", kind="fact")
    after = s.index.vectors([m.id])[m.id]
    assert not np.allclose(before, after)
    assert s.get(m.id).text == "I live in Shanghai"
    hist = s.history(m.id)
    assert [(v.version, v.action, v.text) for v in hist] == [
        (1, "created", "I live in Hangzhou"),
        (2, "edited", "I live in Shanghai"),
    ]
    # full-text follows the edit
    assert [h.memory.id for h in profile.search.search("Shanghai").hits][:1] == [m.id]
    assert profile.search.keyword_ranking("Hangzhou", 10) == []


def test_edit_without_change_writes_no_version(profile: Profile) -> None:
    m = profile.memories.add(NewMemory("same")).memory
    profile.memories.edit(m.id, text="same")
    assert len(profile.memories.history(m.id)) == 1


def test_pin_unpin_and_restore(profile: Profile) -> None:
    s = profile.memories
    m = s.add(NewMemory("I drink coffee")).memory
    s.set_pinned(m.id, True)
    s.edit(m.id, text="I drink tea now")
    s.set_pinned(m.id, False)
    s.restore(m.id, 1)
    cur = s.get(m.id)
    assert (cur.text, cur.pinned) == ("I drink coffee", False)
    assert [v.action for v in s.history(m.id)] == [
        "created",
        "pinned",
        "edited",
        "unpinned",
        "restored",
    ]
    with pytest.raises(NotFound):
        s.restore(m.id, 99)


def test_delete_purges_everything(profile: Profile) -> None:
    s = profile.memories
    keep = s.add(NewMemory("keep this one")).memory
    gone = s.add(NewMemory("delete this secret thing")).memory
    s.edit(gone.id, text="delete this secret thing, edited")
    s.delete(gone.id)
    with pytest.raises(NotFound):
        s.get(gone.id)
    db = profile.db
    assert (
        db.query("SELECT count(*) FROM memory_history WHERE memory_id = ?", (gone.id,))[0][0] == 0
    )
    assert (
        db.query("SELECT count(*) FROM memory_vectors WHERE memory_id = ?", (gone.id,))[0][0] == 0
    )
    assert db.query("SELECT count(*) FROM memory_codes WHERE memory_id = ?", (gone.id,))[0][0] == 0
    assert profile.search.keyword_ranking("secret", 10) == []
    assert [h.memory.id for h in profile.search.search("delete this secret").hits] == [keep.id]
    with pytest.raises(NotFound):
        s.delete(gone.id)


def test_delete_many_is_all_or_nothing(profile: Profile) -> None:
    a = profile.memories.add(NewMemory("a thing")).memory
    with pytest.raises(NotFound):
        profile.memories.delete([a.id, 12345])
    assert profile.memories.count() == 1


def test_forget_all(profile: Profile) -> None:
    for i in range(5):
        profile.memories.add(NewMemory(f"memory number {i}"))
    assert profile.memories.forget_all() == 5
    assert profile.memories.count() == 0
    assert profile.memories.index.count() == 0
    assert profile.search.search("memory number").hits == []
    profile.memories.add(NewMemory("a new start"))  # the index is rebuilt on demand
    assert profile.search.search("new start").hits


def test_ollama_down_on_add_keeps_the_memory_and_says_so(config: Config, vault: Vault) -> None:
    live_host = config.ollama_host
    config.ollama_host = "http://127.0.0.1:9"  # nothing listens there
    with Profile.open(config, vault) as prof:
        res = prof.memories.add(NewMemory("Remember me even without Ollama"))
        assert res.warnings and "not reachable" in res.warnings[0]
        assert prof.memories.count() == 1
        assert prof.memories.missing_vector_ids() == [res.memory.id]
        # keyword search still finds it, and says why it found only keywords
        result = prof.search.search("without Ollama")
        assert result.hits[0].memory.id == res.memory.id
        assert "matched by keywords only" in result.warnings[0]
    config.ollama_host = live_host
    with Profile.open(config, vault) as prof:
        assert prof.memories.reembed(only_missing=True) == 1
        assert prof.memories.missing_vector_ids() == []


def test_embedding_model_missing_is_a_model_error(config: Config, vault: Vault) -> None:
    config.embed_model = "not-pulled"
    with Profile.open(config, vault) as prof:
        res = prof.memories.add(NewMemory("hello"))
        assert "ollama pull not-pulled" in res.warnings[0]
        with pytest.raises(ModelServerError, match="ollama pull not-pulled"):
            prof.memories.reembed()


def test_dimension_mismatch_is_a_clear_error_and_reembed_fixes_it(
    config: Config, vault: Vault, fake_ollama: FakeOllama
) -> None:
    with Profile.open(config, vault) as prof:
        prof.memories.add(NewMemory("I have a cat"))
        prof.memories.add(NewMemory("我喜欢喝茶"))
    fake_ollama.embed_models["other-embed"] = 32
    config.embed_model = "other-embed"
    with Profile.open(config, vault) as prof:
        with pytest.raises(DimensionMismatch, match="--embed-model other-embed memory reembed"):
            prof.search.search("cat")
        with pytest.raises(DimensionMismatch):
            prof.memories.add(NewMemory("another"))
        assert prof.memories.count() == 2
        seen = []
        assert prof.memories.reembed(progress=lambda d, t: seen.append((d, t))) == 2
        assert seen[-1] == (2, 2)
        assert prof.memories.index.dim == 32
        hits = prof.search.search("cat", relevant_only=False).hits
        assert hits[0].memory.text == "I have a cat"
    config.embed_model = None  # later runs use the profile's model
    with Profile.open(config, vault) as prof:
        assert prof.embedder.model == "other-embed"


def test_same_model_returning_another_dimension_is_caught(
    profile: Profile, fake_ollama: FakeOllama
) -> None:
    profile.memories.add(NewMemory("first"))
    fake_ollama.embed_models["fake-embed"] = 32
    with pytest.raises(DimensionMismatch, match="memory reembed"):
        profile.memories.add(NewMemory("second"))
    assert profile.memories.count() == 1


def test_failed_reembed_leaves_the_old_index_usable(
    profile: Profile, fake_ollama: FakeOllama
) -> None:
    profile.memories.add_many([NewMemory(f"note {i} about topic{i % 7}") for i in range(300)])
    before = [h.memory.id for h in profile.search.search("topic3").hits]
    vectors_before = profile.memories.index.vectors(before)
    # Ollama dies after two batches of the re-embedding
    fake_ollama.fail_next(status=500, paths=("/api/embed",), after=2)
    with pytest.raises(ModelServerError):
        profile.memories.reembed()
    assert profile.memories.index.count() == 300
    assert [h.memory.id for h in profile.search.search("topic3").hits] == before
    after = profile.memories.index.vectors(before)
    assert all(np.array_equal(vectors_before[i], after[i]) for i in before)


def test_expired_memories_are_marked(profile: Profile) -> None:
    m = profile.memories.add(
        NewMemory("In Tokyo this week", kind="event", valid_until="2020-01-01")
    ).memory
    assert m.expired
    assert profile.memories.list(include_expired=False) == []
    assert not profile.memories.add(NewMemory("Forever", valid_until="2999-01-01")).memory.expired


def test_add_many_is_one_transaction(profile: Profile, fake_ollama: FakeOllama) -> None:
    items = [NewMemory(f"imported fact {i}") for i in range(100)]
    mems, warnings = profile.memories.add_many(items)
    assert len(mems) == 100 and not warnings
    # a batch of 100 costs 4 embed calls of 32, not 100 calls
    assert fake_ollama.paths().count("/api/embed") == 4


def test_counters_match_the_tables_after_every_kind_of_change(
    profile: Profile, fake_ollama: FakeOllama
) -> None:
    s = profile.memories

    def real() -> tuple[int, int]:
        return (
            profile.db.query("SELECT count(*) FROM memories")[0][0],
            profile.db.query("SELECT count(*) FROM memory_vectors")[0][0],
        )

    s.add_many([NewMemory(f"fact {i}") for i in range(40)])
    s.delete([1, 2, 3])
    s.edit(4, text="fact four, edited")
    fake_ollama.fail_next(status=500, paths=("/api/embed",))
    s.edit(5, text="edited while the model failed")  # loses its vector
    assert (s.count(), s.index.count()) == real() == (37, 36)
    assert s.unindexed_count() == 1 == len(s.missing_vector_ids())
    s.reembed()
    assert (s.count(), s.index.count()) == real() == (37, 37)
    s.forget_all()
    assert (s.count(), s.index.count()) == real() == (0, 0)


def test_embedding_never_holds_the_database(profile: Profile, fake_ollama: FakeOllama) -> None:
    import threading
    import time

    profile.memories.add(NewMemory("already here"))
    embeds = fake_ollama.paths().count("/api/embed")
    fake_ollama.delay = 1.0  # every answer from the model server is slow now
    worker = threading.Thread(target=profile.memories.add, args=(NewMemory("slow to embed"),))
    worker.start()
    try:
        deadline = time.monotonic() + 10
        while fake_ollama.paths().count("/api/embed") == embeds and time.monotonic() < deadline:
            time.sleep(0.01)
        assert [m.text for m in profile.memories.list()] == ["already here"]
        assert worker.is_alive(), "the read did not wait for the embedding"
    finally:
        worker.join(10)
        fake_ollama.delay = 0.0
    assert profile.memories.count() == 2


def test_a_new_embedding_model_takes_over_only_when_its_index_is_complete(
    profile: Profile, fake_ollama: FakeOllama
) -> None:
    """While every memory is re-indexed with another model, search and learning go on with
    the old model and index; the switch happens in the final transaction."""
    fake_ollama.embed_models["other-embed"] = 128
    for i in range(300):
        profile.memories.add(NewMemory(f"memory {i} about the garden and tea {i % 7}"))
    seen: list[str] = []

    def during(done: int, total: int) -> None:
        if done < total:
            hits = profile.search.search("garden tea", k=3, relevant_only=False).hits
            assert hits and profile.memories.embedder.model == "fake-embed"
            learned = profile.memories.add(NewMemory(f"learned meanwhile {done}")).memory
            seen.append(learned.text)

    n = profile.reembed("other-embed", progress=during)
    assert seen, "the progress callback ran before the end"
    assert profile.embedder.model == "other-embed" == profile.memories.embedder.model
    assert n.memories == profile.memories.count()  # those learned meanwhile were indexed as well
    assert profile.memories.missing_vector_ids() == []
    assert profile.search.search("garden tea", k=3, relevant_only=False).hits


def test_the_pinned_memories_are_read_through_an_index(profile: Profile) -> None:
    """The read path asks for them before every answer: no scan of the whole table."""
    plan = profile.db.query(
        "EXPLAIN QUERY PLAN SELECT id FROM memories WHERE pinned = 1 "
        "ORDER BY pinned DESC, created_at DESC, id DESC LIMIT 24"
    )
    assert "memories_by_pinned" in " ".join(str(r[-1]) for r in plan)
