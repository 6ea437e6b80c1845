"""The embedder: batching, dedupe, the hash-keyed cache, and error translation."""

from __future__ import annotations

import numpy as np
import pytest

from desktop_mem.core.errors import ModelFailed, ModelMissing, OllamaUnavailable
from desktop_mem.core.models.embed import Embedder
from tests.fakes.ollama_server import FakeOllama


def test_batches_dedupes_and_caches(fake_ollama: FakeOllama) -> None:
    emb = Embedder(fake_ollama.url, "fake-embed", batch_size=2)
    vecs = emb.embed(["a cat", "a dog", "a cat", "a bird"])
    assert vecs.shape == (4, 256)
    assert np.allclose(np.linalg.norm(vecs, axis=1), 1.0)
    assert np.array_equal(vecs[0], vecs[2])
    assert fake_ollama.embed_inputs() == ["a cat", "a dog", "a bird"]  # sent once each, 2 batches
    assert fake_ollama.paths().count("/api/embed") == 2
    emb.embed(["a dog"])
    assert fake_ollama.embed_inputs().count("a dog") == 1  # from the cache
    emb.embed(["a dog"], fresh=True)
    assert fake_ollama.embed_inputs().count("a dog") == 2  # asked again


def test_cache_is_bounded(fake_ollama: FakeOllama) -> None:
    emb = Embedder(fake_ollama.url, "fake-embed", cache_size=3)
    emb.embed([f"text {i}" for i in range(10)])
    assert len(emb._cache) == 3


@pytest.mark.parametrize(
    ("status", "body", "error", "words"),
    [
        (500, '{"error": "out of memory"}', ModelFailed, "out of memory"),
        (404, '{"error": "model not found"}', ModelMissing, "ollama pull fake-embed"),
        (200, '{"embeddings": []}', ModelFailed, "returned 0 vectors"),
        (200, "not json at all", ModelFailed, "Unexpected answer"),
    ],
)
def test_server_errors_become_one_clear_sentence(
    fake_ollama: FakeOllama, status: int, body: str, error: type, words: str
) -> None:
    fake_ollama.fail_next(status=status, body=body)
    with pytest.raises(error, match=words):
        Embedder(fake_ollama.url, "fake-embed").embed(["x"])


def test_nothing_listening_and_timeouts(fake_ollama: FakeOllama) -> None:
    with pytest.raises(OllamaUnavailable, match="not reachable"):
        Embedder("http://127.0.0.1:9", "fake-embed").embed(["x"])
    fake_ollama.fail_next(delay=2.0)
    with pytest.raises(OllamaUnavailable, match="did not answer in time"):
        Embedder(fake_ollama.url, "fake-embed", timeout=0.3).embed(["x"])
