"""Keys for the encrypted profile databases.

Default: 32 random bytes in the OS keyring (service ``desktop-mem``), used as a raw
SQLCipher key, so opening costs no KDF time. Without a usable keyring the profile
is protected by a passphrase (SQLCipher's PBKDF2). There is never a plaintext
fallback: the fail, null and keyrings.alt backends are refused, and every keyring
call runs in a worker thread with a timeout because a locked Secret Service
blocks for ever waiting for a prompt nobody sees.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar

import platformdirs

from desktop_mem.core.errors import (
    DatabaseCorrupt,
    KeyMissing,
    KeyringLocked,
    KeyringUnavailable,
    UsageError,
)
from desktop_mem.core.jsontypes import JSONObject
from desktop_mem.core.keys import identity

if TYPE_CHECKING:
    import keyring.backend

log = logging.getLogger(__name__)

SERVICE = "desktop-mem"
KEYRING_TIMEOUT_S = 8.0
PASSPHRASE_ENV = "DESKTOP_MEM_PASSPHRASE"

KeyMode = Literal["keyring", "passphrase"]
T = TypeVar("T")


@dataclass(frozen=True)
class Key:
    mode: KeyMode
    secret: str  # hex for keyring mode, the passphrase otherwise

    def pragma(self) -> str:
        """The right-hand side of ``PRAGMA key = ...``."""
        if self.mode == "keyring":
            return f"\"x'{self.secret}'\""
        return "'" + self.secret.replace("'", "''") + "'"

    def __repr__(self) -> str:  # never let a key reach a log or a traceback
        return f"Key(mode={self.mode!r}, secret=<hidden>)"


def _account(profile: str) -> str:
    """The keyring account a profile made before profile ids had (core/keys/identity.py
    names every account made since); a rotated key gets its own account (named in the
    sidecar), so the old and the new key coexist until the switch."""
    return f"profile:{profile}"


def _remembered_path() -> Path:
    return Path(platformdirs.user_cache_dir("desktop-mem", appauthor=False)) / "keyring-backend"


def system_keyring() -> keyring.backend.KeyringBackend:
    """The keyring `keyring.get_keyring()` chooses, without its detection on every run.

    Detection imports every installed backend to ask each whether it works here (about
    0.1 s of each command: on Linux the macOS backend even searches for its system
    libraries). So the one usable backend it found is remembered by class name (in the
    user's cache folder, no secret in it) and loaded directly the next time, after the
    viability check keyring itself makes on a configured backend. A backend set in
    PYTHON_KEYRING_BACKEND, keyringrc.cfg or by `keyring.set_keyring` wins; a remembered
    one that fails its check, or is not usable, is ignored and detection decides again.

    The keyring package is imported here, on first use (about 0.1 s of imports): a
    profile protected by a passphrase never needs it."""
    import keyring
    import keyring.core

    if getattr(keyring.core, "_keyring_backend", None) is None and not os.environ.get(
        "PYTHON_KEYRING_BACKEND"
    ):
        remembered = _load_remembered()
        if remembered is not None and keyring.core.load_config() is None:
            keyring.set_keyring(remembered)
            return remembered
        _remember(keyring.get_keyring())
    return keyring.get_keyring()


def _load_remembered() -> keyring.backend.KeyringBackend | None:
    try:
        name = _remembered_path().read_text("utf-8").strip()
    except OSError:
        return None
    if not name.startswith("keyring.backends."):  # only keyring's own backends
        return None
    import keyring.core

    try:
        backend = keyring.core.load_keyring(name)
    except Exception as exc:  # noqa: BLE001 - any failed check means: detect again
        log.info("the remembered keyring backend %s is not viable here (%s)", name, exc)
        return None
    return backend if backend_problem(backend) is None else None


def _remember(backend: keyring.backend.KeyringBackend) -> None:
    chain = list(getattr(backend, "backends", None) or [backend])
    usable = [b for b in chain if backend_problem(b) is None]
    if len(usable) != 1 or len(chain) != 1:  # a chain of several is kept as keyring builds it
        return
    name = f"{type(usable[0]).__module__}.{type(usable[0]).__name__}"
    if not name.startswith("keyring.backends."):
        return
    path = _remembered_path()
    try:
        if not path.exists() or path.read_text("utf-8").strip() != name:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(name + "\n", "utf-8")
    except OSError as exc:
        log.info("could not remember the keyring backend (%s)", exc)


def backend_problem(backend: keyring.backend.KeyringBackend | None = None) -> str | None:
    """Why the keyring cannot hold our key safely, or None when it can."""
    kr = backend or system_keyring()
    chain = list(getattr(kr, "backends", None) or [kr])
    modules = [type(b).__module__ for b in chain]
    if any(m.startswith("keyrings.alt") for m in modules):
        return "the installed keyrings.alt backend stores secrets in plain text (uninstall keyrings.alt)"
    usable = [
        b
        for b in chain
        if not type(b).__module__.startswith(("keyring.backends.fail", "keyring.backends.null"))
    ]
    if not usable:
        if any(m.startswith("keyring.backends.null") for m in modules):
            return "the keyring is the null backend, which silently drops secrets"
        return "no keyring service is available on this system"
    return None


class KeyringAccess:
    """Keyring calls with a timeout. Safe to call from any thread."""

    def __init__(
        self,
        backend: keyring.backend.KeyringBackend | None = None,
        timeout: float = KEYRING_TIMEOUT_S,
    ) -> None:
        self._backend = backend
        self.timeout = timeout

    @property
    def backend(self) -> keyring.backend.KeyringBackend:
        return self._backend or system_keyring()

    def problem(self) -> str | None:
        return backend_problem(self.backend)

    def describe(self) -> str:
        b = self.backend
        return f"{type(b).__module__}.{type(b).__name__}"

    def _call(self, fn: Callable[[], T]) -> T:
        values: list[T] = []
        errors: list[BaseException] = []

        def run() -> None:
            try:
                values.append(fn())
            except BaseException as exc:  # noqa: BLE001 - re-raised in the caller's thread
                errors.append(exc)

        worker = threading.Thread(target=run, name="keyring-call", daemon=True)
        worker.start()
        worker.join(self.timeout)
        if worker.is_alive():
            raise KeyringUnavailable(
                f"The system keyring did not answer within {self.timeout:g} s (it may be locked): "
                f"unlock it and try again, or set {PASSPHRASE_ENV} to use a passphrase."
            )
        if errors:
            exc = errors[0]
            import keyring.errors

            if isinstance(exc, keyring.errors.KeyringLocked):  # its unlock prompt dismissed
                raise KeyringLocked(
                    "The system keyring is locked (its unlock prompt was closed): unlock it "
                    "when it asks, and try again."
                ) from None
            if isinstance(exc, keyring.errors.KeyringError):
                raise KeyringUnavailable(
                    f"The system keyring refused the request ({type(exc).__name__}): unlock it and "
                    f"try again, or set {PASSPHRASE_ENV} to use a passphrase."
                ) from None
            raise exc
        return values[0]

    def _require_usable(self) -> None:
        reason = self.problem()
        if reason:
            raise KeyringUnavailable(
                f"The system keyring cannot be used: {reason}. "
                f"Set {PASSPHRASE_ENV} to protect this profile with a passphrase instead."
            )

    def get(self, profile: str, account: str | None = None) -> str | None:
        self._require_usable()
        name = account or _account(profile)
        return self._call(lambda: self.backend.get_password(SERVICE, name))

    def other_account(
        self, profile: str, tried: str, prefix: str | tuple[str, ...] | None = None
    ) -> str | None:
        """Another keyring account of this profile's naming (`prefix`, by default the
        old name-based one) than the one tried, if the keyring names one (a rotated key
        whose profile.json was lost). Keyrings answer a search by service with one
        entry, so this finds at most one."""
        self._require_usable()
        cred = self._call(lambda: self.backend.get_credential(SERVICE, None))
        name = getattr(cred, "username", None)
        start = prefix or _account(profile) + ":"
        if isinstance(name, str) and name != tried and name.startswith(start):
            return name
        return None

    def set(self, profile: str, secret: str, account: str | None = None) -> None:
        self._require_usable()
        name = account or _account(profile)
        self._call(lambda: self.backend.set_password(SERVICE, name, secret))

    def delete(self, profile: str, account: str | None = None) -> None:
        self._require_usable()
        name = account or _account(profile)

        def remove() -> None:
            import keyring.errors

            with contextlib.suppress(keyring.errors.PasswordDeleteError):
                self.backend.delete_password(SERVICE, name)

        self._call(remove)


# -- the per-profile sidecar: how the profile is keyed (no secret in it) ----------


def _sidecar(db_path: Path) -> Path:
    return db_path.with_name("profile.json")


def read_sidecar(db_path: Path) -> dict[str, Any]:  # as read: each field checked where used
    try:
        data = json.loads(_sidecar(db_path).read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def read_key_mode(db_path: Path) -> KeyMode | None:
    mode = read_sidecar(db_path).get("key_mode")
    return mode if mode in ("keyring", "passphrase") else None


def key_account(db_path: Path, profile: str) -> str:
    """The keyring account that holds this profile's key."""
    account = read_sidecar(db_path).get("key_account")
    return account if isinstance(account, str) and account else _account(profile)


class Keep(Enum):
    """write_key_mode: keep what the sidecar holds as it is."""

    KEEP = "keep"


KEEP = Keep.KEEP


def write_key_mode(
    db_path: Path,
    mode: KeyMode,
    account: str | None = None,
    retired_account: str | None = None,
    recovery: JSONObject | None | Keep = KEEP,
    identity: dict[str, str] | None | Keep = KEEP,
) -> None:
    """Write the sidecar atomically (write, fsync, rename): a key change commits here.

    `recovery`: the recovery lock and the key sealed to it (core/keys/recovery.py);
    `identity`: the profile's id and where it lives (core/keys/identity.py); each by
    default whatever the sidecar already holds, None to drop it."""
    side = _sidecar(db_path)
    old = read_sidecar(db_path)
    if recovery is KEEP:
        recovery = old.get("recovery")
    if identity is KEEP:
        identity = {k: old[k] for k in ("profile_id", "location") if isinstance(old.get(k), str)}
    tmp = side.with_suffix(".json.tmp")
    data: JSONObject = {
        "format": 1,
        "key_mode": mode,
        "updated_at": datetime.now(UTC).isoformat(),
        **(identity or {}),
    }
    if account:
        data["key_account"] = account
    if retired_account:
        data["retired_account"] = retired_account
    if isinstance(recovery, dict):
        data["recovery"] = recovery
    with open(tmp, "w", encoding="utf-8") as fh:
        fh.write(json.dumps(data, indent=2))
        fh.flush()
        os.fsync(fh.fileno())
    os.chmod(tmp, 0o600)
    os.replace(tmp, side)
    fsync_dir(side.parent)


def fsync_dir(folder: Path) -> None:
    with contextlib.suppress(OSError, AttributeError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def check_sidecar(db_path: Path, profile: str) -> None:
    """Refuse a profile.json that contradicts itself, before anything acts on it: one
    that would retire (delete) the very key the profile is opened with."""
    side = read_sidecar(db_path)
    retired = side.get("retired_account")
    if retired and side.get("key_mode") == "keyring" and retired == key_account(db_path, profile):
        raise DatabaseCorrupt(
            f"The settings file of profile '{profile}' ({_sidecar(db_path)}) is damaged: it "
            "names the profile's own key as one to delete. Nothing was changed; remove its "
            '"retired_account" line, or restore the file from a backup, and try again.'
        )


def owns_account(db_path: Path, profile: str, account: str) -> bool:
    """Whether a keyring account provably belongs to this profile and to no other: it is
    named for the profile's own id, made where the profile lives (a copied folder keeps
    the original's names, and an account named the old way, for the profile's name, may
    be another data folder's), and no other profile in the same data folder names it."""
    if not identity.owns(read_sidecar(db_path), db_path, account):
        return False
    profiles = db_path.parent.parent
    with contextlib.suppress(OSError):
        for other in profiles.iterdir():
            if other == db_path.parent or not other.is_dir():
                continue
            side = read_sidecar(other / db_path.name)
            if account in (side.get("key_account"), side.get("retired_account")):
                return False
    return True


MIN_PASSPHRASE = 8  # characters of a new passphrase (an old, shorter one still opens)


def check_new_passphrase(passphrase: str) -> str:
    """A passphrase about to protect a profile: long enough to be worth its KDF."""
    check_passphrase(passphrase)
    if len(passphrase) < MIN_PASSPHRASE:
        raise UsageError(
            f"The new passphrase is shorter than {MIN_PASSPHRASE} characters: choose a longer "
            "one. Nothing was changed."
        )
    return passphrase


def check_passphrase(passphrase: str) -> str:
    if not passphrase:
        raise UsageError("The passphrase is empty: choose one of at least 8 characters.")
    if "\x00" in passphrase:
        raise UsageError("The passphrase contains a NUL character: choose another one.")
    return passphrase


class Vault:
    """Finds (or, for a new profile, creates) the key of a profile database."""

    def __init__(self, keyring_access: KeyringAccess | None = None) -> None:
        self.keyring = keyring_access or KeyringAccess()

    def key_for_existing(self, db_path: Path, profile: str, passphrase: str | None) -> Key:
        mode = read_key_mode(db_path)
        if mode == "passphrase" or (mode is None and passphrase):
            if not passphrase:
                raise KeyMissing(
                    f"Profile '{profile}' is protected by a passphrase: set {PASSPHRASE_ENV} "
                    "(or enter it in the app) and try again."
                )
            return Key("passphrase", check_passphrase(passphrase))
        secret = self.keyring.get(profile, key_account(db_path, profile))
        if not secret:
            raise KeyMissing(
                f"The key of profile '{profile}' is not in the system keyring (service "
                f"'{SERVICE}'): put it back with the profile's recovery code (`desktop-mem "
                "recover`, or the window's unlock page), or restore a backup."
            )
        return Key("keyring", secret)

    def key_for_new(
        self, db_path: Path, profile: str, passphrase: str | None, account: str | None = None
    ) -> Key:
        """A new profile's key: always a fresh one, under its own account (never a key
        left under the profile's name, which another data folder's profile of that name
        may be using)."""
        if passphrase:
            return Key("passphrase", check_passphrase(passphrase))
        if self.keyring.problem():
            self.keyring._require_usable()  # raises with the reason
        name = account or _account(profile)
        secret = secrets.token_bytes(32).hex()
        self.keyring.set(profile, secret, name)
        if self.keyring.get(profile, name) != secret:
            raise KeyringUnavailable(
                "The system keyring accepted the key but does not return it: it cannot be "
                f"trusted with your data. Set {PASSPHRASE_ENV} to use a passphrase instead."
            )
        return Key("keyring", secret)

    def retire_replaced_key(self, db_path: Path, profile: str) -> None:
        """Delete a key that a committed key change replaced (see core/db/rekey.py)."""
        side = read_sidecar(db_path)
        retired = side.get("retired_account")
        mode = side.get("key_mode")
        if not isinstance(retired, str) or not retired or mode not in ("keyring", "passphrase"):
            return
        if mode == "keyring" and retired == key_account(db_path, profile):
            return  # never the key in use (check_sidecar refuses such a file first)
        if owns_account(db_path, profile, retired):
            try:
                self.keyring.delete(profile, retired)
            except KeyringUnavailable as exc:  # a locked keyring: try again at the next open
                log.info("the replaced key stays until the keyring answers: %s", type(exc).__name__)
                return
        # else: it may be another profile's key (a copied folder): keep it, forget it here
        write_key_mode(db_path, mode, account=side.get("key_account"))

    @staticmethod
    def new_raw_key() -> Key:
        return Key("keyring", secrets.token_bytes(32).hex())
