"""The models' operations: which models the server has, downloading one, the embedding
model and the index it makes (re-indexing with another model, indexing what was saved
without a vector), and where the model server is."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from desktop_mem.core.events import BackendChanged
from desktop_mem.core.profile import Reindexed

if TYPE_CHECKING:  # the model server's client is imported when it is first needed
    from concurrent.futures import Future

    from desktop_mem.core.models.catalog import ModelInfo
    from desktop_mem.core.models.llm import OllamaChat, PullProgress
    from desktop_mem.core.service import Service

Progress = Callable[[int, int], None]


def server_models(host: str) -> list[str]:
    """The models an Ollama server has (no profile needed)."""
    return server(host).models()


def server(host: str, model: str = "") -> OllamaChat:
    """An Ollama server, for what is about the server itself (its models, a download):
    no profile needed."""
    from desktop_mem.core.models.llm import OllamaChat

    return OllamaChat(host, model)


class Models:
    def __init__(self, service: Service) -> None:
        self.service = service

    @property
    def embedding_model(self) -> str:
        return self.service.profile.embedder.model

    @property
    def ollama_host(self) -> str:
        return self.service.config.ollama_host

    def ollama(self, model: str = "") -> OllamaChat:
        """The profile's Ollama server, for what is about the server itself."""
        return server(self.ollama_host, model)

    def inventory(self) -> tuple[list[ModelInfo], list[ModelInfo]]:
        """(chat models, embedding models) the servers have: Ollama's, or for an
        OpenAI-compatible backend its own list and Ollama's embedding models when it
        answers."""
        from desktop_mem.core.models.catalog import ModelInfo, short_name
        from desktop_mem.core.models.llm import OllamaChat

        backend = self.service.backend
        if isinstance(backend, OllamaChat):
            found = OllamaChat(backend.host).inventory()
            return [m for m in found if not m.embedding], [m for m in found if m.embedding]
        chat = [ModelInfo(short_name(n), False) for n in backend.models()]
        try:
            found = self.ollama().inventory()
        except Exception:  # noqa: BLE001 - no Ollama beside it: no embedding models listed
            return chat, []
        return chat, [m for m in found if m.embedding]

    def pull(
        self,
        model: str,
        progress: Callable[[PullProgress], None] | None = None,
        cancel: threading.Event | None = None,
    ) -> bool:
        """Download a model from the Ollama library (False: cancelled)."""
        return self.ollama(model).pull(progress, cancel=cancel)

    def set_ollama_host(self, host: str, chat_model: str | None = None) -> None:
        """Talk to another Ollama server: every tier embeds there, the chat answers there
        (with `chat_model`, else as the settings say)."""
        self.service.profile.set_ollama_host(host)
        self.service.use_chat_model(chat_model)

    def unindexed(self) -> Reindexed:
        return self.service.profile.unindexed()

    def index_missing(self, progress: Progress | None = None) -> Reindexed:
        """Give a vector to everything saved while the embedding model was missing."""
        return self.service.profile.index_missing(progress)

    def reembed(self, model: str, progress: Progress | None = None) -> Reindexed:
        """Re-index every memory, message and passage with `model`."""
        done = self.service.profile.reembed(model, progress)
        self.service.events.emit(BackendChanged(self.service.backend.model))
        return done

    def prepared(self) -> bool:
        return self.service.profile.prepared()

    def prepare_now(self) -> bool:
        """Embed the relevance rule's reference sentences now (True once they are
        ready), for a caller already off the GUI thread."""
        return self.service.profile.prepare().result()

    def prepare(self) -> Future[bool]:
        """Embed the relevance rule's reference sentences in the background."""
        return self.service.profile.prepare()
