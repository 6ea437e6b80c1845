"""The key put back with the recovery code (a reset or new keyring), and a new recovery
code for an open profile. Backups are core/db/backup.py."""

from __future__ import annotations

import secrets
from pathlib import Path

from desktop_mem.core import paths
from desktop_mem.core.db.backup import _check
from desktop_mem.core.db.database import Database
from desktop_mem.core.db.files import (
    ProfileLock,
)
from desktop_mem.core.errors import (
    DesktopMemError,
    ProfileBusy,
    UsageError,
)
from desktop_mem.core.keys import identity, recovery
from desktop_mem.core.keys.vault import (
    Key,
    Vault,
    read_sidecar,
    write_key_mode,
)


def recover_key(home: Path | None, profile: str, code: str, vault: Vault | None = None) -> str:
    """Put a keyring profile's key back into the keyring from its recovery code (a reset or
    new keyring). Returns the new keyring account's name."""
    vault = vault or Vault()
    home = paths.data_home(home)
    path = paths.database_path(home, profile)
    if not path.exists():
        raise UsageError(
            f"There is no profile '{profile}' in {home}: check --profile and --home.",
            reason="no_profile",
        )
    side = read_sidecar(path)
    if side.get("key_mode") != "keyring":
        raise UsageError(
            f"Profile '{profile}' is protected by a passphrase, not the keyring: open it with "
            "the passphrase. Nothing was changed."
        )
    secret = recovery.unseal(side.get("recovery"), code)
    key = Key("keyring", secret)
    lock = ProfileLock(path)
    if not lock.acquire(exclusive=True):
        lock.release()
        raise ProfileBusy(
            f"Profile '{profile}' is open in another desktop-mem: close it and try again."
        )
    try:
        _check(path, key)
        pid = identity.settled_id(side, path) or identity.new_profile_id()
        account = identity.account_for(pid, secrets.token_hex(4))
        vault.keyring.set(profile, secret, account)
        if vault.keyring.get(profile, account) != secret:
            raise DesktopMemError(
                "The system keyring accepted the key but does not return it: nothing was changed."
            )
        write_key_mode(path, "keyring", account=account, identity=identity.record(pid, path))
    finally:
        lock.release()
    return account


def renew_recovery_code(db: Database) -> str:
    """A new recovery code for an open keyring profile (the old one stops opening it and
    new backups; backups made before keep the code they were made with)."""
    key = db._key
    if key is None or key.mode != "keyring":
        raise UsageError(
            f"Profile '{db.profile}' is protected by a passphrase: the passphrase is what opens "
            "it, so it has no recovery code."
        )
    code, record = recovery.protect(key.secret)
    side = read_sidecar(db.path)
    write_key_mode(db.path, "keyring", account=side.get("key_account"), recovery=record)
    return code
