"""An open profile: the database and the services built on it. The CLI, the GUI and
scripts all start here."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from desktop_mem.core.config import Config
from desktop_mem.core.keys.vault import Vault
from desktop_mem.core.memory.store import MemoryStore
from desktop_mem.core.models.embed import DEFAULT_EMBED_MODEL, Embedder
from desktop_mem.core.search.hybrid import HybridSearch
from desktop_mem.core.store.db import Database, open_profile


@dataclass
class Profile:
    config: Config
    db: Database
    embedder: Embedder
    memories: MemoryStore
    search: HybridSearch

    @classmethod
    def open(cls, config: Config, vault: Vault | None = None, create: bool = True) -> Profile:
        db = open_profile(config.home, config.profile, config.passphrase, vault, create=create)
        try:
            model = config.embed_model or db.meta_get("embed_model") or DEFAULT_EMBED_MODEL
            embedder = Embedder(config.ollama_host, model, timeout=config.timeout)
            store = MemoryStore(db, embedder)
            return cls(config, db, embedder, store, HybridSearch(store))
        except BaseException:
            db.close()
            raise

    def use_embedder(self, embedder: Embedder) -> None:
        """Embed with this embedder from now on (the same model at another address)."""
        self.embedder = embedder
        self.memories.embedder = embedder

    def set_ollama_host(self, host: str) -> None:
        self.config.ollama_host = host
        self.use_embedder(Embedder(host, self.embedder.model, timeout=self.config.timeout))

    def reembed(self, model: str, progress: Callable[[int, int], None] | None = None) -> int:
        """Re-index every memory with another embedding model; the profile switches to it
        only once that succeeded (until then the old index keeps serving searches)."""
        embedder = Embedder(self.config.ollama_host, model, timeout=self.config.timeout)
        n = self.memories.reembed(progress=progress, embedder=embedder)  # switches at the end
        self.embedder = embedder
        # memories learned while it ran were embedded with the old model: index them too
        return n + self.memories.reembed(only_missing=True)

    def close(self) -> None:
        self.memories.index.close()
        self.db.close()

    def __enter__(self) -> Profile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
