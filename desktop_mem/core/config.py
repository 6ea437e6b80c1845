"""Resolved settings for one run: command-line flags, then environment, then defaults."""

from __future__ import annotations

import argparse
import os
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from desktop_mem.core import paths
from desktop_mem.core.errors import UsageError

DEFAULT_HOST = "http://127.0.0.1:11434"
RECOVERY_ENV = "DESKTOP_MEM_RECOVERY_CODE"  # a recovery code for `restore` and `recover`
DEFAULT_CHAT_MODEL = "qwen2.5:7b"


def normalize_host(host: str) -> str:
    """Accept what OLLAMA_HOST accepts ("localhost", "0.0.0.0:11434", "http://h:1")."""
    host = host.strip()
    if not host:
        return DEFAULT_HOST
    if "://" not in host:
        host = "http://" + host
    bad = UsageError(f"'{host}' is not a valid Ollama address: use e.g. http://127.0.0.1:11434.")
    try:
        parts = urlsplit(host)
        hostname = parts.hostname
        port = parts.port  # a port that is not a number, or above 65535, raises here
    except ValueError:
        raise bad from None
    if parts.scheme not in ("http", "https") or not hostname:
        raise bad
    if hostname == "0.0.0.0":  # a bind address, not one to connect to
        hostname = "127.0.0.1"
    if ":" in hostname:
        hostname = f"[{hostname}]"
    port = port or (443 if parts.scheme == "https" else 11434)
    return f"{parts.scheme}://{hostname}:{port}{parts.path.rstrip('/')}"


def global_options(p: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """The options every command and the window share (the window parses them too)."""
    p.add_argument("--home", help="data folder (default: $DESKTOP_MEM_HOME, else the platform's)")
    p.add_argument("--profile", help="profile name (default: 'default')")
    p.add_argument(
        "--ollama-host", help="Ollama address (default: $OLLAMA_HOST, else http://127.0.0.1:11434)"
    )
    p.add_argument("--embed-model", help="embedding model (default: the profile's, else bge-m3)")
    return p


@dataclass
class Config:
    home: Path
    profile: str = paths.DEFAULT_PROFILE
    ollama_host: str = DEFAULT_HOST
    embed_model: str | None = None  # None: the model the profile is indexed with, else the default
    chat_model: str | None = None  # None: the profile's setting, else DEFAULT_CHAT_MODEL
    passphrase: str | None = field(default=None, repr=False)  # never in a log or traceback
    timeout: float = 60.0

    @classmethod
    def resolve(
        cls,
        home: str | os.PathLike[str] | None = None,
        profile: str | None = None,
        ollama_host: str | None = None,
        embed_model: str | None = None,
        chat_model: str | None = None,
        passphrase: str | None = None,
    ) -> Config:
        env = os.environ
        return cls(
            home=paths.data_home(home),
            profile=paths.check_profile_name(
                profile or env.get("DESKTOP_MEM_PROFILE") or paths.DEFAULT_PROFILE
            ),
            ollama_host=normalize_host(ollama_host or env.get("OLLAMA_HOST") or DEFAULT_HOST),
            embed_model=embed_model or env.get("DESKTOP_MEM_EMBED_MODEL") or None,
            chat_model=chat_model or env.get("DESKTOP_MEM_CHAT_MODEL") or None,
            passphrase=passphrase if passphrase is not None else env.get("DESKTOP_MEM_PASSPHRASE"),
        )
