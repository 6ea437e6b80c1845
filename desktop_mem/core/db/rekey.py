"""Changing a profile's key: rotating it, or moving between keyring and passphrase.

SQLCipher's ``PRAGMA rekey`` rewrites the file in place; a crash in the middle of it
leaves pages under two keys. Instead the database is copied under the new key with
``sqlcipher_export`` into ``<db>.rekey``, and the copy is verified (it opens with the
new key, passes ``integrity_check`` and ``cipher_integrity_check``, and every table
holds the same number of rows). Only then are the files switched, keeping the old one
as ``<db>.old``, and the change is committed by rewriting the sidecar (one atomic
rename). A crash at any moment leaves a profile that opens with either the old or the
new key, holding everything (see ``opening._connect_after_rekey``). The profile must not
be open anywhere else: the copy is made under an exclusive lock.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
from dataclasses import dataclass
from pathlib import Path

import sqlcipher3

from desktop_mem.core import paths
from desktop_mem.core.db.connection import Connection
from desktop_mem.core.db.database import connect
from desktop_mem.core.db.files import (
    OLD_SUFFIX,
    REKEY_SUFFIX,
    ProfileLock,
    remove_database_files,
    sibling,
)
from desktop_mem.core.db.opening import open_profile
from desktop_mem.core.db.ownership import require_settled
from desktop_mem.core.errors import DesktopMemError, ProfileBusy, UsageError
from desktop_mem.core.jsontypes import JSONObject
from desktop_mem.core.keys import identity, recovery
from desktop_mem.core.keys.vault import (
    Key,
    KeyMode,
    Vault,
    check_new_passphrase,
    fsync_dir,
    key_account,
    read_sidecar,
    write_key_mode,
)


@dataclass(frozen=True)
class RekeyReport:
    old_mode: KeyMode
    new_mode: KeyMode
    tables: int
    rows: int
    bytes: int
    recovery_code: str | None = None  # a new one, when the profile moved to the keyring


def _row_counts(conn: Connection, schema: str = "main") -> dict[str, int]:
    names = [
        r[0]
        for r in conn.execute(
            f"SELECT name FROM {schema}.sqlite_schema WHERE type = 'table' AND rootpage > 0 "
            "ORDER BY name"
        ).fetchall()
    ]
    return {n: conn.execute(f'SELECT count(*) FROM {schema}."{n}"').fetchone()[0] for n in names}


def _fsync(path: Path) -> None:
    with open(path, "rb") as fh:
        os.fsync(fh.fileno())


def change_key(
    home: Path | None,
    profile: str,
    passphrase: str | None,
    new_mode: KeyMode | None = None,
    new_passphrase: str | None = None,
    vault: Vault | None = None,
) -> RekeyReport:
    """Re-encrypt a profile under a new key. new_mode None keeps the current mode."""
    home = paths.data_home(home)
    path = paths.database_path(home, profile)
    vault = vault or Vault()
    # Everyone else out, from the copy until the old key is gone: no other desktop-mem
    # may open the profile (and take the old file for an interrupted change) meanwhile.
    lock = ProfileLock(path)
    if path.parent.exists() and not lock.acquire(exclusive=True):
        lock.release()
        raise ProfileBusy(
            f"Profile '{profile}' is open in another desktop-mem window or command: "
            "close it and try again. The key was not changed."
        )
    try:
        return _change_key_locked(
            home, profile, path, passphrase, new_mode, new_passphrase, vault, lock
        )
    finally:
        lock.release()


def _change_key_locked(
    home: Path,
    profile: str,
    path: Path,
    passphrase: str | None,
    new_mode: KeyMode | None,
    new_passphrase: str | None,
    vault: Vault,
    lock: ProfileLock,
) -> RekeyReport:
    db = open_profile(home, profile, passphrase, vault, create=False, held_lock=lock)
    try:
        pid = require_settled(path, profile)  # a copy never changes a key it may share
    except BaseException:
        db.close()
        raise
    old_mode: KeyMode = "passphrase" if db.key_mode == "passphrase" else "keyring"
    old_account = key_account(path, profile) if old_mode == "keyring" else None
    mode: KeyMode = new_mode or old_mode
    new_account: str | None = None
    copy = sibling(path, REKEY_SUFFIX)
    try:
        if mode == "passphrase":
            if not new_passphrase:
                raise UsageError("A new passphrase is needed to protect the profile with one.")
            new_key = Key("passphrase", check_new_passphrase(new_passphrase))
            if old_mode == "passphrase" and new_passphrase == passphrase:
                raise UsageError("The new passphrase is the same as the old one: choose another.")
        else:
            new_key = Vault.new_raw_key()
            new_account = identity.account_for(pid, secrets.token_hex(4))
            vault.keyring.set(profile, new_key.secret, new_account)
            if vault.keyring.get(profile, new_account) != new_key.secret:
                raise DesktopMemError(
                    "The system keyring accepted the new key but does not return it: the key "
                    "was not changed."
                )
        with db.lock:
            conn = db.conn
            conn.execute("PRAGMA busy_timeout = 0")
            conn.execute("PRAGMA locking_mode = EXCLUSIVE")
            try:
                conn.execute("BEGIN EXCLUSIVE")
                conn.execute("COMMIT")
            except sqlcipher3.OperationalError:
                raise ProfileBusy(
                    f"Profile '{profile}' is open in another desktop-mem window or command: "
                    "close it and try again. The key was not changed."
                ) from None
            counts = _row_counts(conn)
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            _copy_under(conn, copy, new_key, int(version), path)
        db.close()
        try:
            _verify(copy, new_key, counts, version)
            os.chmod(copy, 0o600)
            _fsync(copy)
        except OSError as exc:
            raise _not_copied(path, exc) from None
        # Switch: the old file stays reachable as <db>.old until the sidecar commits.
        old = sibling(path, OLD_SUFFIX)
        remove_database_files(old)
        for suffix in ("-wal", "-shm"):
            if sibling(path, suffix).exists():
                raise ProfileBusy(
                    f"Profile '{profile}' is still in use (its write-ahead log is open): close "
                    "other desktop-mem windows and try again. The key was not changed."
                )
        try:
            os.link(path, old)
        except OSError:  # a file system without hard links: two renames, both recoverable
            os.replace(path, old)
        os.replace(copy, path)
        fsync_dir(path.parent)
    except BaseException:
        with contextlib.suppress(Exception):
            db.close()
        remove_database_files(copy)
        if new_account:
            with contextlib.suppress(Exception):
                vault.keyring.delete(profile, new_account)
        raise
    # The recovery code follows the key: the same code opens a rotated key (sealing needs
    # only its public half); a profile moving to the keyring gets its first code; a
    # passphrase needs none.
    code: str | None = None
    record: JSONObject | None = None
    if mode == "keyring":
        record = recovery.reseal(read_sidecar(path).get("recovery"), new_key.secret)
        if record is None:
            code, record = recovery.protect(new_key.secret)
    # Commit point: from here the profile opens with the new key.
    try:
        write_key_mode(
            path, mode, account=new_account, retired_account=old_account, recovery=record
        )
    except OSError as exc:  # profile.json unchanged: the old file and key are still the ones
        os.replace(old, path)
        if new_account:
            with contextlib.suppress(Exception):
                vault.keyring.delete(profile, new_account)
        raise _not_copied(path, exc) from None
    # The old key goes only once the file on disk is proven to open with the new one.
    connect(path, new_key).close()
    vault.retire_replaced_key(path, profile)
    remove_database_files(old)
    return RekeyReport(
        old_mode=old_mode,
        new_mode=mode,
        tables=len(counts),
        rows=sum(counts.values()),
        bytes=path.stat().st_size,
        recovery_code=code,
    )


def _copy_under(conn: Connection, copy: Path, key: Key, version: int, path: Path) -> None:
    """The open database copied to `copy` under `key` (sqlcipher_export)."""
    remove_database_files(copy)
    try:
        conn.execute(f"ATTACH DATABASE ? AS rekeyed KEY {key.pragma()}", (str(copy),))
        try:
            conn.execute("SELECT sqlcipher_export('rekeyed')").fetchall()
            conn.execute(f"PRAGMA rekeyed.user_version = {version}")
        finally:
            with contextlib.suppress(sqlcipher3.Error):
                conn.execute("DETACH DATABASE rekeyed")
    except sqlcipher3.Error as exc:
        raise _not_copied(path, exc) from None


def _not_copied(path: Path, exc: BaseException) -> DesktopMemError:
    """One sentence for a key change the disk stopped: nothing of the profile changed."""
    text = str(exc).lower()
    if "full" in text or "no space" in text or getattr(exc, "errno", None) == errno.ENOSPC:
        return DesktopMemError(
            f"The disk holding {path.parent} is full, so the profile could not be copied under "
            "a new key: the key was not changed and the profile is as it was; free as much "
            "space as the profile takes and try again.",
            reason="disk_full",
        )
    why = getattr(exc, "strerror", None) or exc
    return DesktopMemError(
        f"The profile could not be copied under a new key ({why}): the key was not changed "
        "and the profile is as it was."
    )


def _verify(copy: Path, key: Key, counts: dict[str, int], version: int) -> None:
    try:
        conn = connect(copy, key)
    except DesktopMemError as exc:
        raise DesktopMemError(
            f"The re-encrypted copy did not open ({exc}): the key was not changed."
        ) from None
    try:
        problems: list[str] = []
        if conn.execute("PRAGMA integrity_check").fetchone()[0] != "ok":
            problems.append("integrity_check failed")
        if conn.execute("PRAGMA cipher_integrity_check").fetchall():
            problems.append("cipher_integrity_check failed")
        if conn.execute("PRAGMA user_version").fetchone()[0] != version:
            problems.append("the schema version differs")
        if _row_counts(conn) != counts:
            problems.append("the row counts differ")
    finally:
        conn.close()
    if problems:
        raise DesktopMemError(
            f"The re-encrypted copy failed verification ({'; '.join(problems)}): the key was "
            "not changed."
        )
