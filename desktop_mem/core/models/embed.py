"""Embeddings through Ollama's /api/embed, batched, with timeouts and clear errors.

The request is one JSON POST, made with the standard library's http.client: importing
the `ollama` package (httpx, pydantic, its types) costs about 0.45 s, more than a whole
`memory add` or `memory search` may take. The chat, with its streaming and model
management, uses the `ollama` client (core/models/llm.py). Like that client here, the
connection never goes through a proxy from the environment: text goes only to the
configured server."""

from __future__ import annotations

import hashlib
import http.client
import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from desktop_mem.core.config import DEFAULT_HOST
from desktop_mem.core.errors import DesktopMemError, ModelFailed, ModelMissing, OllamaUnavailable
from desktop_mem.core.models.ollama_client import load as load_ollama

if TYPE_CHECKING:
    import numpy as np
else:
    from desktop_mem.core.lazy import numpy as np

__all__ = ["DEFAULT_HOST", "Embedder", "post_json", "translate_error"]
# Multilingual (100+ languages, strong on Chinese and English retrieval), 1024
# dimensions; see docs/embedding-models.md for the measurements.
DEFAULT_EMBED_MODEL = "bge-m3"
DEFAULT_TIMEOUT_S = 60.0
BATCH_SIZE = 32
CACHE_SIZE = 4096  # vectors kept by text hash: a context is usually another memory's text


def content_hash(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).hexdigest()


def translate_error(
    exc: BaseException, host: str, model: str, what: str, request: str | None = None
) -> Exception:
    """Map the ollama/httpx zoo of errors onto our typed errors (one sentence each).
    `request` names what was asked when it was not the model's own work ("the list of
    models"); else "the {what} request"."""
    request = request or f"the {what} request"
    import httpx

    if isinstance(exc, DesktopMemError):  # already one of ours (say, from /api/show)
        return exc
    if isinstance(exc, load_ollama().ResponseError):
        if exc.status_code == 404:
            return ModelMissing(
                f"The {what} model '{model}' is not installed in Ollama: run `ollama pull "
                f"{model}` (or choose another model) and try again.",
                model=model,
            )
        return ModelFailed(
            f"Ollama failed on {request} ({exc.error.strip()[:200]}): try again, or "
            "check the Ollama log."
        )
    if isinstance(exc, httpx.TimeoutException):
        return OllamaUnavailable(
            f"Ollama at {host} did not answer in time: check that it is not overloaded and try again.",
            reason="ollama_timeout",
        )
    if isinstance(exc, ConnectionError | httpx.TransportError):
        return OllamaUnavailable(
            f"Ollama is not reachable at {host}: start it (`ollama serve`, or open the Ollama "
            "app) and try again."
        )
    return ModelFailed(f"Unexpected answer from Ollama for {request} ({exc}).")


def post_json(host: str, path: str, payload: Any, timeout: float, model: str, what: str) -> Any:
    """POST JSON to the Ollama server and return its JSON answer; every failure becomes
    one of our typed, one-sentence errors."""
    parts = urlsplit(host)
    connection = (
        http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
    )
    conn = connection(parts.hostname or "127.0.0.1", parts.port, timeout=timeout)
    try:
        conn.request(
            "POST",
            parts.path.rstrip("/") + path,
            json.dumps(payload, ensure_ascii=False).encode("utf-8"),
            {"Content-Type": "application/json"},
        )
        resp = conn.getresponse()
        status, data = resp.status, resp.read()
    except TimeoutError:
        raise OllamaUnavailable(
            f"Ollama at {host} did not answer in time: check that it is not overloaded and try again.",
            reason="ollama_timeout",
        ) from None
    except (OSError, http.client.HTTPException):
        raise OllamaUnavailable(
            f"Ollama is not reachable at {host}: start it (`ollama serve`, or open the Ollama "
            "app) and try again."
        ) from None
    finally:
        conn.close()
    try:
        answer = json.loads(data or b"null")
    except ValueError:
        answer = None
    if status >= 400:
        error = answer.get("error") if isinstance(answer, dict) else None
        detail = str(error or data[:200].decode("utf-8", "replace")).strip()[:200]
        if status == 404:
            raise ModelMissing(
                f"The {what} model '{model}' is not installed in Ollama: run `ollama pull "
                f"{model}` (or choose another model) and try again.",
                model=model,
            )
        raise ModelFailed(
            f"Ollama failed on the {what} request ({detail or status}): try again, or check "
            "the Ollama log."
        )
    if answer is None:
        raise ModelFailed(f"Unexpected answer from Ollama for the {what} request (not JSON).")
    return answer


class Embedder:
    """Turns texts into unit-length float32 vectors with one Ollama model.

    Identical texts are sent once per call, and recent vectors are kept in a small
    cache keyed by a hash of the text (never the text itself)."""

    def __init__(
        self,
        host: str = DEFAULT_HOST,
        model: str = DEFAULT_EMBED_MODEL,
        timeout: float = DEFAULT_TIMEOUT_S,
        batch_size: int = BATCH_SIZE,
        cache_size: int = CACHE_SIZE,
    ) -> None:
        self.host = host
        self.model = model
        self.timeout = timeout
        self.batch_size = batch_size
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._cache_size = cache_size
        self._lock = threading.Lock()

    def embed(
        self,
        texts: Sequence[str],
        progress: Callable[[int, int], None] | None = None,
        fresh: bool = False,
    ) -> np.ndarray:
        """Vectors for texts; `fresh` asks the server even for cached texts (re-indexing)."""
        keys = [content_hash(t) for t in texts]
        found: dict[str, np.ndarray] = {}
        with self._lock:
            for k in [] if fresh else keys:
                if k in self._cache:
                    self._cache.move_to_end(k)
                    found[k] = self._cache[k]
        todo: dict[str, str] = {}
        for k, t in zip(keys, texts, strict=True):
            if k not in found:
                todo.setdefault(k, t)
        pending = list(todo.items())
        for start in range(0, len(pending), self.batch_size):
            batch = pending[start : start + self.batch_size]
            vecs = self._call([t for _, t in batch])
            for (k, _), v in zip(batch, vecs, strict=True):
                found[k] = v
            self._remember(batch, vecs)
            if progress:
                progress(min(start + len(batch), len(pending)), len(pending))
        if not keys:
            return np.zeros((0, 0), dtype=np.float32)
        return np.vstack([found[k] for k in keys])

    def _call(self, batch: list[str]) -> np.ndarray:
        answer = post_json(self.host, "/api/embed", {"model": self.model, "input": batch},
                           self.timeout, self.model, "embedding")  # fmt: skip
        embeddings = answer.get("embeddings") if isinstance(answer, dict) else None
        try:
            vecs = np.asarray(embeddings, dtype=np.float32)
        except (TypeError, ValueError):
            vecs = np.zeros((0, 0), dtype=np.float32)
        if vecs.ndim != 2 or len(vecs) != len(batch) or vecs.shape[1] == 0:
            raise ModelFailed(
                f"The embedding model '{self.model}' returned {len(vecs)} vectors for "
                f"{len(batch)} texts: check that it is an embedding model."
            )
        return _unit(vecs)

    def _remember(self, batch: list[tuple[str, str]], vecs: np.ndarray) -> None:
        with self._lock:
            for (k, _), v in zip(batch, vecs, strict=True):
                self._cache[k] = v
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)

    def embed_one(self, text: str) -> np.ndarray:
        return self.embed([text])[0]


def _unit(vecs: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(vecs, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return (vecs / norms).astype(np.float32)
