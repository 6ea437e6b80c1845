"""Backups: an encrypted, consistent copy of a profile in one file, and its restore.

A backup file is a short header and the profile's database, encrypted as it is on
disk (with the profile's key)::

    DESKTOP-MEM BACKUP\\n | 4-byte header length | header (JSON) | SQLCipher database

The header holds no memory or message: the profile's name, the time, how the key is
kept, and for a keyring profile the database key sealed to the recovery code (see
core/keys/recovery.py), so the code opens the backup on a computer whose keyring never had
the key. The copy is ``sqlcipher_export`` inside one read transaction: a backup taken
while the chat writes holds the state at one instant, whole. It is written to
``<file>.partial`` and renamed into place only when complete, so a backup killed half
way leaves the previous one untouched. A folder of dated backups, the newest few kept,
is core/db/backup_folder.py.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import json
import os
import secrets
import stat
import struct
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import BinaryIO

import sqlcipher3

from desktop_mem import __version__
from desktop_mem.core import paths
from desktop_mem.core.db.backup_seal import check_seal, seal
from desktop_mem.core.db.connection import Connection, OpenConnection
from desktop_mem.core.db.database import Database
from desktop_mem.core.db.files import (
    BACKUP_COPY_PREFIX,
    ProfileLock,
    clear_stale_backup_copies,
    remove_database_files,
    sibling,
)
from desktop_mem.core.db.opening import open_profile
from desktop_mem.core.errors import (
    DatabaseCorrupt,
    DesktopMemError,
    KeyMissing,
    ProfileBusy,
    UsageError,
    WrongKey,
)
from desktop_mem.core.jsontypes import JSONObject
from desktop_mem.core.keys import identity, recovery
from desktop_mem.core.keys.vault import (
    PASSPHRASE_ENV,
    Key,
    Vault,
    fsync_dir,
    key_account,
    read_sidecar,
    write_key_mode,
)

MAGIC = b"DESKTOP-MEM BACKUP\n"
SUFFIX = ".dmbackup"
PARTIAL = ".partial"
MAX_HEADER = 64 * 1024
HEADER_VERSION = 2  # 2: the header is sealed (core/db/backup_seal.py)


@dataclass(frozen=True)
class BackupReport:
    path: Path
    bytes: int
    rows: int
    created_at: str


@dataclass(frozen=True)
class RestoreReport:
    profile: str
    memories: int
    messages: int
    key_mode: str
    used_recovery_code: bool
    new_recovery_code: str | None = None  # the backup had none: shown once, as at creation
    synced_through: str | None = None  # the profile synced through this folder when backed up


# -- writing -----------------------------------------------------------------------


def _row_counts(conn: Connection, schema: str) -> dict[str, int]:
    names = [
        r[0]
        for r in conn.execute(
            f"SELECT name FROM {schema}.sqlite_schema WHERE type = 'table' AND rootpage > 0 "
            "ORDER BY name"
        ).fetchall()
    ]
    return {n: conn.execute(f'SELECT count(*) FROM {schema}."{n}"').fetchone()[0] for n in names}


def _check_destination(dest: Path) -> None:
    """A backup goes to a new name or replaces a regular file: never a link, a FIFO, a
    device or a socket (a rename over /dev/full or a link would replace the node)."""
    try:
        mode = os.lstat(dest).st_mode
    except FileNotFoundError:
        return
    except OSError as exc:
        raise UsageError(
            f"{dest} cannot be checked ({exc.strerror or exc}): choose another file."
        ) from None
    if stat.S_ISLNK(mode):
        raise UsageError(
            f"{dest} is a symbolic link, and a backup never replaces one: give the file's "
            "own name, or a new one. Nothing was written."
        )
    if not stat.S_ISREG(mode):
        raise UsageError(
            f"{dest} is not a regular file (a device, FIFO or socket): give a new file name "
            "for the backup. Nothing was written."
        )


def write_backup(db: Database, dest: Path) -> BackupReport:
    """Write an encrypted backup of the open profile to dest (replacing it only once the
    new one is complete)."""
    key = db._key
    if key is None:
        raise DesktopMemError("This profile was opened without its key, so it cannot be backed up.")
    dest = Path(dest)
    if dest.is_dir():
        raise UsageError(
            f"{dest} is a folder: give the backup file's name, e.g. {dest / 'x'}{SUFFIX}."
        )
    if not dest.parent.is_dir():
        raise UsageError(f"The folder {dest.parent} does not exist: create it or choose another.")
    _check_destination(dest)
    clear_stale_backup_copies(db.path)
    copy = sibling(db.path, f"{BACKUP_COPY_PREFIX}{os.getpid()}-{secrets.token_hex(4)}")
    partial = dest.with_name(dest.name + PARTIAL)
    created = datetime.now(UTC).isoformat()
    try:
        counts, version = _export(db, copy, key)
        _verify_copy(copy, key, counts, version)
        side = read_sidecar(db.path)
        header: JSONObject = {
            "format": "desktop-mem/backup",
            "version": HEADER_VERSION,
            "app_version": __version__,
            "profile": db.profile,
            "created_at": created,
            "key_mode": key.mode,
            "schema": version,
            "profile_id": db.meta_get("profile.id") or "",
            "seal_salt": base64.b64encode(os.urandom(16)).decode("ascii"),
            # what it holds, for the restore's confirmation (counts only, never text)
            "holds": {t: counts.get(t, 0) for t in ("memories", "conversations", "documents")},
        }
        if key.mode == "keyring":
            header["key_account"] = key_account(db.path, db.profile)
            if isinstance(side.get("recovery"), dict):
                header["recovery"] = side["recovery"]
        _assemble(partial, header, copy, key)
        os.replace(partial, dest)
        fsync_dir(dest.parent)
    except OSError as exc:
        raise DesktopMemError(
            f"The backup could not be written to {dest} ({exc.strerror or exc}): the previous "
            "backup, if any, is untouched. Check the folder and the free space, and try again."
        ) from None
    finally:
        remove_database_files(copy)
        with contextlib.suppress(OSError):
            partial.unlink(missing_ok=True)
    return BackupReport(dest, dest.stat().st_size, sum(counts.values()), created)


def _export(db: Database, copy: Path, key: Key) -> tuple[dict[str, int], int]:
    """Copy the database under its own key inside one read transaction."""
    with db.lock:
        conn = db.conn
        remove_database_files(copy)
        try:
            conn.execute("BEGIN")
            try:
                counts = _row_counts(conn, "main")
                version = conn.execute("PRAGMA user_version").fetchone()[0]
                conn.execute(f"ATTACH DATABASE ? AS backup KEY {key.pragma()}", (str(copy),))
                conn.execute("SELECT sqlcipher_export('backup')").fetchall()
                conn.execute(f"PRAGMA backup.user_version = {int(version)}")
                conn.execute("COMMIT")
            except BaseException:
                with contextlib.suppress(sqlcipher3.Error):
                    conn.execute("ROLLBACK")
                raise
            finally:
                with contextlib.suppress(sqlcipher3.Error):
                    conn.execute("DETACH DATABASE backup")
        except sqlcipher3.Error as exc:
            raise DesktopMemError(
                f"The backup copy could not be made ({exc}): nothing was changed; check the "
                "free space and try again."
            ) from None
    with contextlib.suppress(OSError):
        os.chmod(copy, 0o600)
    return counts, int(version)


def _open_read_only(path: Path, key: Key) -> OpenConnection:
    uri = f"{path.resolve().as_uri()}?mode=ro"
    conn = sqlcipher3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
    conn.execute("PRAGMA cipher_log_level = NONE")
    conn.execute(f"PRAGMA key = {key.pragma()}")
    return conn


def _check(path: Path, key: Key) -> tuple[dict[str, int], int]:
    """Open a copy read-only and check it whole; the row counts and schema version. Raises
    WrongKey when the key does not open it, DatabaseCorrupt when it is damaged."""
    try:
        conn = _open_read_only(path, key)
    except sqlcipher3.Error as exc:
        raise DatabaseCorrupt(f"The backup's database could not be read ({exc}).") from None
    try:
        try:
            conn.execute("SELECT count(*) FROM sqlite_schema").fetchone()
        except sqlcipher3.DatabaseError:
            raise WrongKey(
                "The key does not open this backup (or the file is damaged): nothing was changed."
            ) from None
        try:
            problems = conn.execute("PRAGMA integrity_check").fetchone()[0] != "ok"
            problems = problems or bool(conn.execute("PRAGMA cipher_integrity_check").fetchall())
            counts = _row_counts(conn, "main")
            version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        except sqlcipher3.DatabaseError as exc:
            raise DatabaseCorrupt(
                f"The backup is damaged ({exc}): it cannot be restored."
            ) from None
        if problems:
            raise DatabaseCorrupt(
                "The backup is damaged (its integrity check fails): it cannot be restored."
            )
        return counts, version
    finally:
        conn.close()


def _verify_copy(copy: Path, key: Key, counts: dict[str, int], version: int) -> None:
    found, found_version = _check(copy, key)
    if found != counts or found_version != version:
        raise DesktopMemError(
            "The backup copy did not match the profile (a row count differs): no backup was "
            "written; try again."
        )


def _digest(fh: BinaryIO) -> tuple[int, str]:
    h, n = hashlib.sha256(), 0
    while chunk := fh.read(1 << 20):
        h.update(chunk)
        n += len(chunk)
    return n, h.hexdigest()


def _assemble(partial: Path, header: JSONObject, copy: Path, key: Key) -> None:
    with open(copy, "rb") as src:
        header["bytes"], header["sha256"] = _digest(src)  # a cut or altered file shows
    header["seal"] = seal(header, key)  # and so does a changed header
    body = json.dumps(header, ensure_ascii=True).encode("ascii")
    # A name someone else could have made first (a link to a file of yours, a FIFO) is
    # removed, and the new one made exclusively: nothing is ever written through it.
    with contextlib.suppress(FileNotFoundError):
        os.unlink(partial)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(partial, flags, 0o600)
    with os.fdopen(fd, "wb") as out, open(copy, "rb") as src:
        out.write(MAGIC + struct.pack(">I", len(body)) + body)
        while chunk := src.read(1 << 20):
            out.write(chunk)
        out.flush()
        os.fsync(out.fileno())


# -- reading and restoring ------------------------------------------------------------


def _open_backup(path: Path) -> BinaryIO:
    """A backup file opened for reading: a regular file only (a FIFO planted in a backup
    folder would otherwise block the reader for ever, a device never end)."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)
    except IsADirectoryError:
        raise UsageError(f"{path} is a folder, not a backup file: nothing was changed.") from None
    except FileNotFoundError:
        raise UsageError(f"There is no file {path}: check the name and try again.") from None
    except OSError as exc:
        raise UsageError(
            f"{path} cannot be read ({exc.strerror or exc}): nothing was changed."
        ) from None
    if stat.S_ISDIR(os.fstat(fd).st_mode):
        os.close(fd)
        raise UsageError(f"{path} is a folder, not a backup file: nothing was changed.")
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise UsageError(
            f"{path} is not a regular file (a device, FIFO or socket), so it is not a backup: "
            "nothing was changed.",
            reason="not_backup",
        )
    os.set_blocking(fd, True)
    return os.fdopen(fd, "rb")


def read_header(path: Path) -> tuple[JSONObject, int]:
    """The header of a backup file and where its database starts."""
    path = Path(path)
    not_backup = UsageError(
        f"{path} is not a backup made by desktop-mem (a .dmbackup file): nothing was changed.",
        reason="not_backup",
    )
    with _open_backup(path) as fh:
        head = fh.read(len(MAGIC) + 4)
        if len(head) < len(MAGIC) + 4 or not head.startswith(MAGIC):
            raise not_backup
        (length,) = struct.unpack(">I", head[len(MAGIC) :])
        if not 0 < length <= MAX_HEADER:
            raise not_backup
        body = fh.read(length)
    try:
        header = json.loads(body.decode("ascii"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise DatabaseCorrupt(f"The backup {path} is damaged (its header does not read).") from None
    if (
        not isinstance(header, dict)
        or header.get("format") != "desktop-mem/backup"
        or header.get("key_mode") not in ("keyring", "passphrase")
    ):
        raise DatabaseCorrupt(f"The backup {path} is damaged (its header is not one we wrote).")
    version = header.get("version")
    # exactly an integer: True and 1.0 equal 1 in Python, and 1 is the unsealed version
    if type(version) is not int:
        raise DatabaseCorrupt(f"The backup {path} is damaged (its header is not one we wrote).")
    if version not in (1, HEADER_VERSION):
        raise UsageError(
            f"The backup {path} was made by a newer desktop-mem: update it and try again."
        )
    return header, len(MAGIC) + 4 + length


def verify_file(path: Path) -> JSONObject:
    """The header of a backup whose database is whole (its length and checksum match)."""
    header, offset = read_header(path)
    with _open_backup(path) as fh:
        fh.seek(offset)
        size, digest = _digest(fh)
    if size != header.get("bytes") or digest != header.get("sha256"):
        raise DatabaseCorrupt(
            f"The backup {path} is damaged (cut short or altered since it was made): it "
            "cannot be restored; use an older backup."
        )
    return header


def _key_for_backup(
    header: JSONObject,
    copy: Path,
    passphrase: str | None,
    code: str | None,
    vault: Vault,
) -> tuple[Key, bool]:
    """The key that opens a backup's database, and whether the recovery code gave it."""
    if header["key_mode"] == "passphrase":
        if not passphrase:
            raise KeyMissing(
                "This backup is protected by its profile's passphrase: give it (set "
                f"{PASSPHRASE_ENV}, or enter it in the app) and try again."
            )
        return Key("passphrase", passphrase), False
    account = header.get("key_account")
    if code is None and isinstance(account, str) and not vault.keyring.problem():
        with contextlib.suppress(DesktopMemError):
            secret = vault.keyring.get(str(header.get("profile", "")), account)
            if secret:
                key = Key("keyring", secret)
                with contextlib.suppress(WrongKey):
                    _check(copy, key)
                    return key, False
    if code is None:
        raise KeyMissing(
            "The key of this backup is not in this computer's keyring: give the profile's "
            f"recovery code (set {recovery.RECOVERY_ENV}, or enter it when asked) and try again."
        )
    return Key("keyring", recovery.unseal(header.get("recovery"), code)), True


def restore(
    file: Path,
    home: Path | None = None,
    profile: str | None = None,
    passphrase: str | None = None,
    code: str | None = None,
    vault: Vault | None = None,
    replace: bool = False,
) -> RestoreReport:
    """Make a profile from a backup. The profile must not exist yet, unless `replace`:
    then the backup takes the place of the profile's database (closed everywhere: the
    restore holds it exclusively), and the profile's old key is retired once the backup
    opens in its place (only if it provably belongs to this profile alone)."""
    vault = vault or Vault()
    home = paths.data_home(home)
    header, offset = read_header(Path(file))
    verify_file(Path(file))
    name = paths.check_profile_name(profile or str(header.get("profile") or ""))
    path = paths.database_path(home, name)
    replacing = replace and path.exists()
    if not replace and (path.exists() or sibling(path, ".old").exists()):
        raise UsageError(
            f"Profile '{name}' already exists: restore the backup as a new profile (choose "
            "another name), or delete that profile first. Nothing was changed."
        )
    created_folder = not path.parent.exists()
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    lock = ProfileLock(path)
    if not lock.acquire(exclusive=True):
        lock.release()
        raise ProfileBusy(
            f"Profile '{name}' is open in another desktop-mem window or command: close it and "
            "try again. Nothing was changed."
        )
    old_side = read_sidecar(path) if replacing else {}
    old_account = (
        key_account(path, name) if replacing and old_side.get("key_mode") != "passphrase" else None
    )
    staging = sibling(path, ".restoring")
    committed = False
    account: str | None = None
    new_code: str | None = None
    try:
        _copy_out(Path(file), offset, staging)
        key, used_code = _key_for_backup(header, staging, passphrase, code, vault)
        _check(staging, key)
        check_seal(header, key, Path(file))
        record = _trusted_recovery(header, key, used_code) if key.mode == "keyring" else None
        if key.mode == "keyring" and record is None:
            # Nothing would open this profile if the keyring lost it: a code of its own.
            new_code, record = recovery.protect(key.secret)
        # A profile replaced in place keeps its id; a new one gets its own.
        pid = (identity.settled_id(old_side, path) if replacing else None) or (
            identity.new_profile_id()
        )
        if key.mode == "keyring":
            # Its own keyring entry: never one another profile (or the original) uses.
            account = identity.account_for(pid, secrets.token_hex(4))
            vault.keyring.set(name, key.secret, account)
            if vault.keyring.get(name, account) != key.secret:
                raise DesktopMemError(
                    "The system keyring accepted the key but does not return it: nothing was "
                    "restored."
                )
        # The replaced database's log goes with it (nobody has the profile open).
        for leftover in (sibling(path, "-wal"), sibling(path, "-shm")):
            with contextlib.suppress(FileNotFoundError):
                leftover.unlink()
        remove_database_files(sibling(path, ".old"))
        os.replace(staging, path)
        write_key_mode(
            path,
            key.mode,
            account=account,
            retired_account=old_account if old_account != account else None,
            recovery=record,
            identity=identity.record(pid, path),
        )
        committed = True
    finally:
        remove_database_files(staging)
        if not committed and account:
            with contextlib.suppress(Exception):
                vault.keyring.delete(name, account)
        if not committed and not replacing:
            with contextlib.suppress(OSError):
                path.with_name("profile.json").unlink(missing_ok=True)
                remove_database_files(path)
        lock.release()
        if not committed and created_folder:
            with contextlib.suppress(OSError):
                for p in path.parent.iterdir():
                    p.unlink()
                path.parent.rmdir()
    db = open_profile(
        home, name, passphrase if key.mode == "passphrase" else None, vault, create=False
    )
    try:
        memories = db.query("SELECT count(*) FROM memories")[0][0]
        messages = db.query("SELECT count(*) FROM messages")[0][0]
        folder = db.meta_get("sync.folder")
    finally:
        db.close()
    return RestoreReport(name, memories, messages, key.mode, used_code, new_code, folder)


def _trusted_recovery(header: JSONObject, key: Key, used_code: bool) -> JSONObject | None:
    """The backup's recovery record, if it is proved to open this key, made again with its
    seal derived from the key (so the profile can prove it later); else None, and the
    restored profile gets a code of its own. Proof: the code opened the key from it; or
    the record's seal is derived from the key (backups since 0.4); or the header's seal,
    made with the key, vouches for it (0.3's sealed backups). A header from before seals
    (version 1) is only what it is: whoever could write to the folder may have put a
    record of their own code there, and that code would open every key sealed to it
    from then on."""
    record = header.get("recovery")
    if not recovery.well_formed(record):
        return None
    assert isinstance(record, dict)
    if used_code or recovery.holds(record, key.secret):
        return recovery.reseal(record, key.secret)
    version = header["version"]  # an int: read_header refuses anything else
    if isinstance(version, int) and version >= 2 and not recovery.provable(record):
        return recovery.reseal(record, key.secret)  # 0.3's: the sealed header vouches
    return None  # a record that could prove itself and does not, or an old header's


def _copy_out(file: Path, offset: int, staging: Path) -> None:
    remove_database_files(staging)
    fd = os.open(staging, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as out, _open_backup(file) as src:
        src.seek(offset)
        while chunk := src.read(1 << 20):
            out.write(chunk)
        out.flush()
        os.fsync(out.fileno())
