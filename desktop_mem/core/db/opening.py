"""Opening a profile's database: its key found (or a new profile made, with its key and
recovery code), a key change a crash interrupted finished or undone, the schema migrated,
and the profile's ownership settled before anything else reads it."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import sqlcipher3

from desktop_mem.core import paths
from desktop_mem.core.db import database, migrations
from desktop_mem.core.db.connection import OpenConnection
from desktop_mem.core.db.database import Database, connect, probe_key, write_failed
from desktop_mem.core.db.files import (
    OLD_SUFFIX,
    REKEY_SUFFIX,
    ProfileLock,
    clear_stale_backup_copies,
    remove_database_files,
    sibling,
)
from desktop_mem.core.errors import (
    DatabaseCorrupt,
    DesktopMemError,
    KeyMissing,
    ProfileBusy,
    WrongKey,
)
from desktop_mem.core.keys import identity
from desktop_mem.core.keys.vault import (
    Key,
    Vault,
    check_sidecar,
    key_account,
    read_key_mode,
    read_sidecar,
    write_key_mode,
)


def open_profile(
    home: Path | None = None,
    profile: str = paths.DEFAULT_PROFILE,
    passphrase: str | None = None,
    vault: Vault | None = None,
    create: bool = True,
    held_lock: ProfileLock | None = None,
) -> Database:
    """Open (creating if allowed and absent) a profile's encrypted database.

    `held_lock`: the caller already holds the profile's lock exclusively (a key change)
    and keeps it; otherwise the open takes it shared until the database is closed."""
    home = paths.data_home(home)
    path = paths.database_path(home, profile)
    vault = vault or Vault()
    lock = held_lock
    if lock is None and path.parent.exists():
        lock = ProfileLock(path)
        # read here, not imported: the one busy timeout, for the lock and for SQLite
        if not lock.acquire(exclusive=False, wait_s=database.BUSY_TIMEOUT_MS / 1000):
            lock.release()
            raise ProfileBusy(
                f"The key of profile '{profile}' is being changed by another desktop-mem: wait "
                "for it to finish and try again."
            )
    try:
        db = _open_locked(home, path, profile, passphrase, vault, create, lock)
    except BaseException:
        if lock is not None and held_lock is None:
            lock.release()
        raise
    if held_lock is not None:
        db.profile_lock = None  # the caller's to release
    return db


def _open_locked(
    home: Path,
    path: Path,
    profile: str,
    passphrase: str | None,
    vault: Vault,
    create: bool,
    lock: ProfileLock | None,
) -> Database:
    code: str | None = None
    if path.exists() or sibling(path, OLD_SUFFIX).exists():
        if path.exists() and path.stat().st_size == 0:
            raise DatabaseCorrupt(
                f"The database of profile '{profile}' ({path}) is empty (0 bytes), so its "
                "memories are not in it: restore it from a backup. Nothing was changed."
            )
        check_sidecar(path, profile)
        try:
            key = vault.key_for_existing(path, profile, passphrase)
        except KeyMissing as exc:
            key = _adopt_found_key(path, profile, vault, exc)
        if sibling(path, OLD_SUFFIX).exists() and lock is not None and not lock.exclusive:
            # an interrupted key change: only finish or undo it with the profile to itself
            if not lock.acquire(exclusive=True):
                raise ProfileBusy(
                    f"Profile '{profile}' is in the middle of a key change and open in another "
                    "desktop-mem: close it, or let the change finish, and try again."
                )
            conn = _connect_after_rekey(path, key)
            lock.acquire(exclusive=False)
        else:
            conn = _connect_after_rekey(path, key)
        vault.retire_replaced_key(path, profile)
    else:
        if not create:
            raise DesktopMemError(
                f"There is no profile '{profile}' in {home}: check --profile and --home.",
                reason="no_profile",
            )
        pid = identity.new_profile_id()
        account = identity.account_for(pid)
        key = vault.key_for_new(path, profile, passphrase, account)
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        if lock is None:
            lock = ProfileLock(path)
            lock.acquire(exclusive=False)
        conn = connect(path, key)
        from desktop_mem.core.keys import recovery  # cryptography: only when a profile is made

        code, record = recovery.protect(key.secret) if key.mode == "keyring" else (None, None)
        write_key_mode(
            path,
            key.mode,
            account=account if key.mode == "keyring" else None,
            recovery=record,
            identity=identity.record(pid, path),
        )
        with contextlib.suppress(OSError):
            os.chmod(path, 0o600)
    try:
        migrations.migrate(conn)
    except sqlcipher3.DatabaseError as exc:
        conn.close()
        raise write_failed(path, exc) from None
    except BaseException:
        conn.close()
        raise
    db = Database(conn, path, profile, key.mode, lock, key)
    db.cleared_copies = clear_stale_backup_copies(path)
    if code is not None:
        db.new_recovery_code = code
    from desktop_mem.core.db.ownership import settle

    try:
        settle(db, vault)
    except BaseException:
        db.profile_lock = None  # the caller releases the lock it gave
        db.close()
        raise
    return db


def _adopt_found_key(path: Path, profile: str, vault: Vault, missing: KeyMissing) -> Key:
    """The key is not under the account profile.json names (or, with profile.json lost,
    under the profile's first one): if the keyring holds another key of this profile
    that opens the file, use it and write its name down again; else name what was found."""
    if read_key_mode(path) == "passphrase":
        raise missing
    tried = key_account(path, profile)
    pid = read_sidecar(path).get("profile_id")
    # With profile.json lost, any entry of either naming may be it: the probe decides.
    prefix = (
        (identity.account_for(pid) + ":",)
        if isinstance(pid, str) and pid
        else (f"profile:{profile}:", identity.ACCOUNT_PREFIX)
    )
    try:
        found = vault.keyring.other_account(profile, tried, prefix)
    except DesktopMemError:
        found = None
    if not found:
        raise missing
    secret = vault.keyring.get(profile, found)
    if secret:
        key = Key("keyring", secret)
        try:
            probe_key(path, key)
        except sqlcipher3.DatabaseError:
            pass
        else:
            write_key_mode(path, "keyring", account=found)
            return key
    raise KeyMissing(
        f"The key of profile '{profile}' is not in the system keyring under '{tried}', and the "
        f"keyring's other key for this profile, '{found}', does not open it. Put the right key "
        "back with the profile's recovery code, or restore a backup."
    ) from None


def _connect_after_rekey(path: Path, key: Key) -> OpenConnection:
    """Open the database, finishing or undoing a key change a crash interrupted.

    The old file is kept as ``<db>.old`` until the change commits. If it is still
    there, whichever of the two files the current key opens is the real one: the new
    file if the change committed, else the old one, which is put back. Nothing is
    lost either way: no write happens between the copy and the switch.
    """
    old = sibling(path, OLD_SUFFIX)
    remove_database_files(sibling(path, REKEY_SUFFIX))  # an unfinished copy
    if not old.exists():
        return connect(path, key)
    if path.exists():
        try:
            conn = connect(path, key)
        except WrongKey:
            pass
        else:
            remove_database_files(old)
            return conn
    probe = connect(old, key)  # raises WrongKey if neither file opens with this key
    probe.close()
    remove_database_files(path)  # the uncommitted copy, with any journal of its own
    os.replace(old, path)
    return connect(path, key)
