"""How a memory is indexed: its vector (its text's meaning with a little of its
context's), its full-text entry (text and context), and what happens to both when the
model server is away or the text changes. Real store, real embedder over HTTP."""

from __future__ import annotations

import numpy as np
import pytest

from desktop_mem.core.config import Config
from desktop_mem.core.keys.vault import Vault
from desktop_mem.core.memory.indexing import CONTEXT_VECTOR_WEIGHT, vector_key
from desktop_mem.core.memory.store import NewMemory
from desktop_mem.core.profile import Profile
from tests.fakes.ollama_server import FakeOllama


def _unit(v: np.ndarray) -> np.ndarray:
    return v / np.linalg.norm(v)


def _stored(profile: Profile, memory_id: int) -> np.ndarray:
    return _unit(profile.memories.index.vectors([memory_id])[memory_id].astype(np.float64))


def test_a_memory_without_context_is_indexed_by_its_texts_meaning(profile: Profile) -> None:
    m = profile.memories.add(NewMemory("I grow tomatoes on the balcony")).memory
    text = profile.embedder.embed_one("I grow tomatoes on the balcony")
    assert float(_stored(profile, m.id) @ text) == pytest.approx(1.0, abs=0.002)


def test_a_memorys_context_lends_its_vector_a_little_of_its_meaning(profile: Profile) -> None:
    text, context = "Yes, two of them", "Do you have any cats at home?"
    m = profile.memories.add(NewMemory(text, context=context)).memory
    v_text, v_ctx = profile.embedder.embed([text, context])
    expected = _unit(v_text + CONTEXT_VECTOR_WEIGHT * v_ctx)
    stored = _stored(profile, m.id)
    assert float(stored @ expected) == pytest.approx(1.0, abs=0.002)
    assert float(stored @ v_text) < 0.99  # not the text's vector alone
    assert float(stored @ v_ctx) < float(stored @ v_text)  # still mostly about its own text


def test_the_context_is_searchable_by_its_words_as_well(profile: Profile) -> None:
    m = profile.memories.add(NewMemory("Yes, two of them", context="Any cats at home?")).memory
    profile.memories.add(NewMemory("I cycle to work"))
    hits = profile.search.search("cats", relevant_only=False).hits
    assert hits[0].memory.id == m.id and "keyword" in hits[0].signals


def test_what_a_vector_was_made_from_is_its_text_and_its_context() -> None:
    assert vector_key("tea", None) == vector_key("tea", "")
    assert vector_key("tea", "breakfast") != vector_key("tea", None)
    assert vector_key("tea", "breakfast") != vector_key("teabreakfast", None)


def test_a_memory_saved_while_the_model_server_is_down_waits_for_its_vector(
    config: Config, vault: Vault, fake_ollama: FakeOllama
) -> None:
    with Profile.open(config, vault) as prof:
        first = prof.memories.add(NewMemory("indexed at once")).memory
        fake_ollama.fail_next(500, paths=("/api/embed",))
        res = prof.memories.add(NewMemory("saved without a vector"))
        assert res.warnings and "Saved anyway" in res.warnings[0]
        assert prof.memories.unindexed_count() == 1
        assert prof.memories.missing_vector_ids() == [res.memory.id]
        before = prof.memories.index.vectors([first.id])[first.id]
        assert prof.memories.reembed(only_missing=True) == 1
        assert prof.memories.unindexed_count() == 0
        # only the missing one was embedded: the other keeps its vector as it was
        assert np.array_equal(prof.memories.index.vectors([first.id])[first.id], before)


def test_an_edit_the_model_server_cannot_embed_drops_the_old_texts_vector(
    profile: Profile, fake_ollama: FakeOllama
) -> None:
    m = profile.memories.add(NewMemory("I live in Lisbon")).memory
    fake_ollama.fail_next(500, paths=("/api/embed",))
    profile.memories.edit(m.id, text="I moved to Porto")
    # a vector of "Lisbon" would make search find Porto's memory for Lisbon questions
    assert profile.memories.missing_vector_ids() == [m.id]
    assert profile.memories.reembed(only_missing=True) == 1
    porto = profile.embedder.embed_one("I moved to Porto")
    assert float(_stored(profile, m.id) @ porto) == pytest.approx(1.0, abs=0.002)


def test_a_memory_edited_while_it_is_re_indexed_is_never_given_its_old_texts_vector(
    profile: Profile,
) -> None:
    ids = [
        profile.memories.add(NewMemory(f"note {i} about the garden")).memory.id for i in range(3)
    ]
    edited = ids[1]

    def meanwhile(done: int, total: int) -> None:
        if done == total:  # every vector is staged, none written yet
            profile.memories.edit(edited, text="a note about the harbour instead")

    assert profile.memories.reembed(progress=meanwhile) == 2
    # its staged vector described the old text, so it waits for `reembed --missing`
    assert set(profile.memories.index.vectors(ids)) == {ids[0], ids[2]}
    assert profile.memories.missing_vector_ids() == [edited]
    assert profile.memories.reembed(only_missing=True) == 1
    harbour = profile.embedder.embed_one("a note about the harbour instead")
    assert float(_stored(profile, edited) @ harbour) == pytest.approx(1.0, abs=0.002)
