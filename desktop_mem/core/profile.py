"""An open profile: the database and the services built on it. The CLI, the GUI and
scripts all start here."""

from __future__ import annotations

from dataclasses import dataclass

from desktop_mem.core.config import Config
from desktop_mem.core.db import Database, open_profile
from desktop_mem.core.embed import DEFAULT_EMBED_MODEL, Embedder
from desktop_mem.core.memories import MemoryStore
from desktop_mem.core.search import HybridSearch
from desktop_mem.core.vault import Vault


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

    def close(self) -> None:
        self.memories.index.close()
        self.db.close()

    def __enter__(self) -> Profile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
