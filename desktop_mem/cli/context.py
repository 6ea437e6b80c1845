"""What a command gets: its arguments, the resolved configuration, the streams, the
key store, and (for commands that work on a profile) the open profile."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from desktop_mem.api import MemoryLayer
    from desktop_mem.core.config import Config
    from desktop_mem.core.keys.vault import Vault
    from desktop_mem.core.profile import Profile


@dataclass
class Context:
    args: argparse.Namespace
    config: Config
    out: TextIO
    err: TextIO
    given_vault: Vault | None = None
    argv: list[str] | None = None
    parser: Any = None
    _profile: Profile | None = None

    @property
    def vault(self) -> Vault:
        """The key store, made on first use (the keyring module costs start-up time)."""
        if self.given_vault is None:
            from desktop_mem.core.keys.vault import Vault

            self.given_vault = Vault()
        return self.given_vault

    @property
    def prof(self) -> Profile:
        assert self._profile is not None, "a profile command runs with its profile open"
        return self._profile

    @property
    def mem(self) -> MemoryLayer:
        """The open profile's memory through the Python API (core records, not dicts)."""
        from desktop_mem.api import MemoryLayer

        return MemoryLayer(self.prof, plain=False)
