"""A keyring backend for start-up benchmarks only: secrets in a JSON file named by
$DESKTOP_MEM_BENCH_KEYRING, so child processes share the key the way a desktop's
Secret Service would (without a D-Bus session). Never for real data: the file is the
benchmark's scratch folder, deleted afterwards."""

from __future__ import annotations

import json
import os
from pathlib import Path

import keyring.backend
import keyring.errors


class FileKeyring(keyring.backend.KeyringBackend):
    priority = 1  # type: ignore[assignment]

    @property
    def _path(self) -> Path:
        return Path(os.environ["DESKTOP_MEM_BENCH_KEYRING"])

    def _load(self) -> dict[str, str]:
        try:
            return dict(json.loads(self._path.read_text()))
        except FileNotFoundError:
            return {}

    def get_password(self, service: str, username: str) -> str | None:
        return self._load().get(f"{service}\x1f{username}")

    def set_password(self, service: str, username: str, password: str) -> None:
        data = self._load()
        data[f"{service}\x1f{username}"] = password
        self._path.write_text(json.dumps(data))

    def delete_password(self, service: str, username: str) -> None:
        data = self._load()
        if data.pop(f"{service}\x1f{username}", None) is None:
            raise keyring.errors.PasswordDeleteError(username)
        self._path.write_text(json.dumps(data))
