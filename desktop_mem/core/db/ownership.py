"""A profile that finds itself copied or moved becomes its own profile before anything
else happens to it (core/keys/identity.py says why): a new id, and a keyring entry of
its own holding the same key. Run on every open; costs nothing once settled."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Protocol

from desktop_mem.core.errors import DesktopMemError, KeyringUnavailable
from desktop_mem.core.keys import identity
from desktop_mem.core.keys.vault import Key, Vault, read_sidecar, write_key_mode
from desktop_mem.core.protocols import Rows


class Opened(Rows, Protocol):
    """What settling needs of a database just opened (database.py's Database, which
    calls settle, so this module names it rather than importing it)."""

    path: Path
    profile: str
    key_mode: str
    _key: Key | None


log = logging.getLogger(__name__)

META_ID = "profile.id"
META_LOCATION = "profile.location"


def settle(db: Opened, vault: Vault) -> str | None:
    """This profile's own id, made here if it had none (a profile from before ids) or
    was made somewhere else (a copy, a moved data folder). None when its keyring entry
    could not be written (a locked keyring): the profile opens, but may not change its
    key until a later open settles it."""
    side = read_sidecar(db.path)
    pid = identity.settled_id(side, db.path)
    if pid is None:
        pid = _become_own(db, vault)
        if pid is None:
            return None
    if db.meta_get(META_ID) != pid:  # recorded in the database too, so its backups carry it
        with db.transaction() as conn:
            for key, value in ((META_ID, pid), (META_LOCATION, identity.location(db.path))):
                conn.execute(
                    "INSERT INTO meta(key, value) VALUES (?, ?) "
                    "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                    (key, value),
                )
    return pid


def _become_own(db: Opened, vault: Vault) -> str | None:
    pid = identity.new_profile_id()
    account = None
    key = db._key
    if db.key_mode == "keyring":
        if key is None:
            return None
        account = identity.account_for(pid)
        try:
            vault.keyring.set(db.profile, key.secret, account)
            if vault.keyring.get(db.profile, account) != key.secret:
                raise KeyringUnavailable("the keyring does not return what it was given")
        except (KeyringUnavailable, DesktopMemError) as exc:
            log.info("profile %s keeps its shared key entry for now (%s)", db.profile,
                     type(exc).__name__)  # fmt: skip
            return None
    # The commit point: from here the profile opens with its own entry. The entry it
    # came with stays: another copy, or another data folder's profile, may use it.
    write_key_mode(
        db.path,
        "keyring" if db.key_mode == "keyring" else "passphrase",
        account=account,
        retired_account=None,
        identity=identity.record(pid, db.path),
    )
    log.info("profile %s is now its own (a new id and keyring entry)", db.profile)
    return pid


def require_settled(db_path: Path, profile: str) -> str:
    """The profile's id; refuses a key change for a profile that is not yet its own."""
    pid = identity.settled_id(read_sidecar(db_path), db_path)
    if pid is None:
        raise DesktopMemError(
            f"Profile '{profile}' was copied or moved here and could not yet get a keyring "
            "entry of its own (the keyring did not answer), so its key was not changed: "
            "unlock the keyring, open the profile once, and try again.",
            reason="not_settled",
        )
    return pid
