"""The profile owns every store: a new Ollama address or embedding model reaches the
memories, the conversations and the documents at once, with no restart."""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop_mem.core.memory.store import NewMemory
from desktop_mem.core.profile import Profile
from tests.fakes.ollama_server import FakeOllama


def _tiers(profile: Profile) -> list[object]:
    return [
        profile.embedder,
        profile.memories.embedder,
        profile.conversations.embedder,
        profile.documents.embedder,
    ]


def test_a_new_address_reaches_every_tier(profile: Profile, fake_ollama: FakeOllama) -> None:
    profile.set_ollama_host("http://127.0.0.1:9")
    assert {e.host for e in _tiers(profile)} == {"http://127.0.0.1:9"}  # type: ignore[attr-defined]
    profile.set_ollama_host(fake_ollama.url)
    assert len({id(e) for e in _tiers(profile)}) == 1


def test_another_embedding_model_serves_documents_and_messages_without_a_restart(
    profile: Profile, fake_ollama: FakeOllama, tmp_path: Path
) -> None:
    """Settings > Embedding model > another model > re-index: then Documents > Add files
    embeds with the new model, and every tier is indexed with it."""
    fake_ollama.embed_models["other-embed"] = 128
    profile.memories.add(NewMemory("Lives in Lisbon and works night shifts"))
    convs = profile.conversations
    said = convs.add_message(convs.create("home").id, "user", "I moved to Lisbon in May")
    convs.index_vectors()
    (tmp_path / "boiler.md").write_text("# Boiler\n\n## Reset\n\nHold the reset button 10 s.\n")
    profile.documents.add(tmp_path / "boiler.md")
    seen: list[tuple[int, int]] = []

    done = profile.reembed("other-embed", progress=lambda d, t: seen.append((d, t)))

    assert (done.memories, done.messages, done.passages) == (1, 1, 1)
    assert seen[-1] == (3, 3) and [d for d, _ in seen] == sorted(d for d, _ in seen)
    assert {e.model for e in _tiers(profile)} == {"other-embed"}  # type: ignore[attr-defined]
    for index in (profile.memories.index, convs.index, profile.documents.index):
        assert index.model == "other-embed" and index.dim == 128
    (tmp_path / "wifi.md").write_text("# Wifi\n\nThe guest network is called Harbour.\n")
    report = profile.documents.add(tmp_path / "wifi.md")
    assert not report.refused and profile.documents.unindexed_count() == 0
    assert profile.documents.search("guest wifi network name", relevant_only=False)
    hits, _ = convs.search("when did I move to Lisbon", relevant_only=False)
    assert [h.message.id for h in hits] == [said.id]
    assert profile.unindexed().total == 0


def test_a_failed_re_index_leaves_every_tier_on_the_old_model(
    profile: Profile, fake_ollama: FakeOllama, tmp_path: Path
) -> None:
    convs = profile.conversations
    convs.add_message(convs.create("home").id, "user", "I moved to Lisbon in May")
    convs.index_vectors()
    profile.memories.add(NewMemory("Lives in Lisbon"))
    with pytest.raises(Exception, match="not installed|pull"):
        profile.reembed("missing-embed")
    assert {e.model for e in _tiers(profile)} == {"fake-embed"}  # type: ignore[attr-defined]
    hits, _ = convs.search("Lisbon", relevant_only=False)
    assert hits, "the old index still serves"
