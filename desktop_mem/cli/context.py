"""What a command gets: its arguments, the resolved configuration, the streams, the
key store, and (for commands that work on a profile) the application service over the
open profile (core/service): commands call its operations, never a store."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from desktop_mem.core.config import Config
    from desktop_mem.core.keys.vault import Vault
    from desktop_mem.core.service import Service

    # what add_subparsers gives: each command module adds its parsers to it
    Subparsers = argparse._SubParsersAction[argparse.ArgumentParser]


@dataclass
class Context:
    args: argparse.Namespace
    config: Config
    out: TextIO
    err: TextIO
    given_vault: Vault | None = None
    argv: list[str] | None = None
    parser: Any = None
    _service: Service | None = None
    new_code: str | None = None  # the recovery code of a profile this command made

    @property
    def vault(self) -> Vault:
        """The key store, made on first use (the keyring module costs start-up time)."""
        if self.given_vault is None:
            from desktop_mem.core.keys.vault import Vault

            self.given_vault = Vault()
        return self.given_vault

    @property
    def app(self) -> Service:
        """The application service over the open profile."""
        assert self._service is not None, "a profile command runs with its profile open"
        return self._service
