"""Which chat backend a profile talks to, and the notice that messages leave the
machine: the one place that decides the chat model and the server for the window, the
command line, the Python API and the benchmarks."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from desktop_mem.core.chat.stores import Stores
from desktop_mem.core.errors import DesktopMemError

if TYPE_CHECKING:  # the model server's client (httpx) is imported when a backend is made
    from desktop_mem.core.models.llm import ChatBackend

OPENAI_NOTICE = (
    "The OpenAI-compatible backend is on: your messages and the memories retrieved for them "
    "are sent to {url}, outside this computer."
)
REMOTE_OLLAMA_NOTICE = (
    "The Ollama server {url} is not this computer: your messages and the memories "
    "retrieved for them are sent to it over the network."
)


class BackendSlot:
    """The chat backend a profile talks to now. One owner (the application service,
    core/service) sets it; every session, the learning and the titles read it at each
    request, so a model chosen in the window reaches all of them at once."""

    def __init__(self, backend: ChatBackend | Callable[[], ChatBackend]) -> None:
        self._lock = threading.Lock()
        self._backend: ChatBackend | None = None
        self._make: Callable[[], ChatBackend] | None = None
        if callable(backend) and not hasattr(backend, "stream"):
            self._make = backend  # made on first use: a profile without chat makes none
        else:
            self._backend = backend  # type: ignore[assignment]

    @property
    def current(self) -> ChatBackend:
        with self._lock:
            if self._backend is None:
                assert self._make is not None
                self._backend = self._make()
            return self._backend

    def set(self, backend: ChatBackend) -> None:
        with self._lock:
            self._backend = backend


def slot_of(backend: ChatBackend | BackendSlot) -> BackendSlot:
    """A slot for a backend given on its own (a test, a script), or the slot itself."""
    return backend if isinstance(backend, BackendSlot) else BackendSlot(backend)


def make_backend(profile: Stores, model: str | None = None) -> ChatBackend:
    """The chat backend the profile is set up for: Ollama unless the user turned the
    OpenAI-compatible backend on. `model` (a flag) overrides the configured model."""
    from desktop_mem.core.models.llm import OllamaChat, OpenAICompatChat

    settings = profile.settings
    if settings.get("openai_enabled"):
        url = settings.get("openai_base_url")
        chosen = model or settings.get("openai_model")
        if not url or not chosen:
            raise DesktopMemError(
                "The OpenAI-compatible backend is on but its URL or model is not set: run "
                "`desktop-mem settings set openai_base_url URL` and `... openai_model NAME`, or "
                "turn it off with `desktop-mem settings set openai_enabled false`.",
                reason="remote_unconfigured",
            )
        return OpenAICompatChat(
            url, chosen, api_key=settings.get("openai_api_key") or None,
            context_cap=lambda: int(settings.get("context_tokens")),
        )  # fmt: skip
    # every request to the model asks for the context length the profile's setting allows
    return OllamaChat(
        profile.config.ollama_host, ollama_model(profile, model),
        context_cap=lambda: int(settings.get("context_tokens")),
    )  # fmt: skip


def ollama_model(profile: Stores, model: str | None = None) -> str:
    """The Ollama chat model: a flag, then --model/DESKTOP_MEM_CHAT_MODEL, then the
    profile's setting, then the default. The one place that decides."""
    from desktop_mem.core.config import DEFAULT_CHAT_MODEL

    return (
        model
        or profile.config.chat_model
        or profile.settings.get("chat_model")
        or DEFAULT_CHAT_MODEL
    )


def remote_notice(profile: Stores, backend: ChatBackend) -> str | None:
    """The notice that messages leave the machine, once per server (None when the
    server is this computer, or the notice was shown for it)."""
    if backend.local:
        return None
    settings = profile.settings
    seen = f"{backend.host}".strip()
    if settings.get("remote_notice_seen") == seen:
        return None
    settings.set("remote_notice_seen", seen)
    from desktop_mem.core.models.llm import OllamaChat

    template = REMOTE_OLLAMA_NOTICE if isinstance(backend, OllamaChat) else OPENAI_NOTICE
    return template.format(url=backend.host)
