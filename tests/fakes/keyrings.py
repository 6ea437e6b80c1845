"""Small real keyring backends for tests (never the `fail`, `null` or keyrings.alt ones)."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import Any

import keyring.backend
import keyring.credentials
import keyring.errors


class MemoryKeyring(keyring.backend.KeyringBackend):
    """Keeps secrets in a dict, like an unlocked Secret Service would."""

    priority = 1  # type: ignore[assignment]

    def __init__(self) -> None:
        super().__init__()
        self.secrets: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.secrets.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.secrets[(service, username)] = password

    def get_credential(self, service: str, username: str | None) -> Any:
        """Like the Secret Service: with no username, the first entry of the service."""
        for (svc, user), secret in self.secrets.items():
            if svc == service and (username is None or user == username):
                return keyring.credentials.SimpleCredential(user, secret)
        return None

    def delete_password(self, service: str, username: str) -> None:
        if (service, username) not in self.secrets:
            raise keyring.errors.PasswordDeleteError(username)
        del self.secrets[(service, username)]


class HangingKeyring(MemoryKeyring):
    """A locked keyring whose unlock prompt nobody sees: every call blocks."""

    def __init__(self) -> None:
        super().__init__()
        self.release = threading.Event()

    def get_password(self, service: str, username: str) -> str | None:
        self.release.wait(30)
        return super().get_password(service, username)

    def set_password(self, service: str, username: str, password: str) -> None:
        self.release.wait(30)
        super().set_password(service, username, password)


class LockedKeyring(MemoryKeyring):
    """A keyring that refuses, as a locked one does when the user cancels the prompt
    (the Secret Service backend raises KeyringLocked), until `locked` is set False (the
    user unlocked it)."""

    def __init__(self) -> None:
        super().__init__()
        self.locked = True
        self.refused = 0  # requests refused while locked

    def _check(self) -> None:
        if self.locked:
            self.refused += 1
            raise keyring.errors.KeyringLocked("Failed to unlock the collection!")

    def get_password(self, service: str, username: str) -> str | None:
        self._check()
        return super().get_password(service, username)

    def set_password(self, service: str, username: str, password: str) -> None:
        self._check()
        super().set_password(service, username, password)


class FileKeyring(keyring.backend.KeyringBackend):
    """Secrets in a JSON file named by $DESKTOP_MEM_TEST_KEYRING_FILE, so child processes
    (a command, an MCP server) share one keyring the way a desktop's Secret Service would,
    without a D-Bus session. Select it with
    PYTHON_KEYRING_BACKEND=tests.fakes.keyrings.FileKeyring. Tests and benchmarks only:
    the file is in their scratch folder."""

    priority = 1  # type: ignore[assignment]

    @property
    def _path(self) -> Path:
        return Path(os.environ["DESKTOP_MEM_TEST_KEYRING_FILE"])

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


def stored_key(backend: MemoryKeyring, db_path: Path) -> str:
    """The key a profile's database is encrypted with, from the keyring entry its
    profile.json names (each profile has its own, named for its id)."""
    from desktop_mem.core.keys.vault import SERVICE, read_sidecar

    return backend.secrets[(SERVICE, read_sidecar(Path(db_path))["key_account"])]
