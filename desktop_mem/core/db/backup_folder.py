"""A folder of dated backups: a backup written into it under a dated name, only the
newest few of this profile's own kept, and which of its files this profile's key
sealed (what anyone else put in the folder is neither the newest backup nor counted)."""

from __future__ import annotations

import contextlib
import hashlib
import os
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from desktop_mem.core.db.backup import PARTIAL, SUFFIX, BackupReport, read_header, write_backup
from desktop_mem.core.db.backup_seal import is_sealed
from desktop_mem.core.db.database import Database
from desktop_mem.core.errors import DesktopMemError, UsageError
from desktop_mem.core.jsontypes import JSONObject
from desktop_mem.core.keys.vault import Key


@dataclass(frozen=True)
class BackupFile:
    path: Path
    created_at: str
    bytes: int
    app_version: str = ""  # the desktop-mem that made it ("" when its header does not say)


def backup_name(profile: str, when: datetime | None = None) -> str:
    when = when or datetime.now(UTC)
    return f"desktop-mem-{profile}-{when.strftime('%Y%m%d-%H%M%S')}{SUFFIX}"


# a file's identity (path, device, inode, size, time) and the key's fingerprint
Ident = tuple[str, int, int, int, int, str]
# a file (by its identity) and a key -> whether the file's header is sealed with that key:
# a passphrase's seal costs SQLCipher's key derivation, so each file is checked once
_SEALED: dict[Ident, bool] = {}


def _ident(path: Path, key: Key) -> Ident:
    info = path.stat()
    fingerprint = hashlib.sha256(f"{key.mode}:{key.secret}".encode()).hexdigest()
    return (str(path), info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, fingerprint)


def _checked(path: Path, key: Key) -> bool:
    return _ident(path, key) in _SEALED


def _sealed_with(path: Path, header: JSONObject, key: Key) -> bool:
    ident = _ident(path, key)
    if ident not in _SEALED:
        _SEALED[ident] = is_sealed(header, key)
    return _SEALED[ident]


def newest_backup(folder: Path, profile: str, key: Key, budget: int = 4) -> BackupFile | None:
    """The newest of this profile's own backups in a folder, for the window's daily check
    (on its thread): newest claimed date first, checking at most `budget` seals not
    checked before (a passphrase's costs a key derivation, and a folder can hold a
    thousand forged headers); a date more than a day ahead is never ours. None when none
    is found within that: a backup is then made, the worst a forger can cause."""
    soon = (datetime.now(UTC) + timedelta(days=1)).isoformat()
    candidates = []
    prefix = f"desktop-mem-{profile}-"
    with contextlib.suppress(OSError):
        for p in Path(folder).iterdir():
            if not (p.name.startswith(prefix) and p.name.endswith(SUFFIX)):
                continue
            with contextlib.suppress(DesktopMemError, OSError):
                header, _ = read_header(p)
                when = str(header.get("created_at", ""))
                if header.get("profile") == profile and when <= soon:
                    candidates.append((when, p, header))
    for when, p, header in sorted(candidates, key=lambda c: (c[0], c[1].name), reverse=True):
        with contextlib.suppress(OSError):
            if not _checked(p, key):
                if budget <= 0:
                    return None
                budget -= 1
            if _sealed_with(p, header, key):
                return BackupFile(p, when, p.stat().st_size)
    return None


def list_backups(folder: Path, profile: str, key: Key | None = None) -> list[BackupFile]:
    """This profile's complete backups in a folder, newest first. With `key`, only those
    sealed with it: what anyone else put in the folder (a file with a date in 2099, say)
    must neither count as the newest backup, which would stop the daily ones, nor push
    the real ones out of the `keep` newest, which deleted them."""
    found: list[BackupFile] = []
    prefix = f"desktop-mem-{profile}-"
    with contextlib.suppress(OSError):
        for p in Path(folder).iterdir():
            if not (p.name.startswith(prefix) and p.name.endswith(SUFFIX)):
                continue
            with contextlib.suppress(DesktopMemError, OSError):
                header, _ = read_header(p)
                if header.get("profile") != profile:
                    continue
                if key is not None and not _sealed_with(p, header, key):
                    continue
                made_by = header.get("app_version")
                found.append(
                    BackupFile(
                        p,
                        str(header.get("created_at", "")),
                        p.stat().st_size,
                        made_by if isinstance(made_by, str) else "",
                    )
                )
    return sorted(found, key=lambda b: (b.created_at, b.path.name), reverse=True)


def _partials(folder: Path, profile: str) -> Iterator[Path]:
    prefix = f"desktop-mem-{profile}-"
    with contextlib.suppress(OSError):
        for p in Path(folder).iterdir():
            if p.name.startswith(prefix) and p.name.endswith(SUFFIX + PARTIAL):
                yield p


def back_up_to_folder(db: Database, folder: Path, keep: int) -> BackupReport:
    """A dated backup in folder; then only the newest `keep` of this profile's remain (the
    older ones go only after the new one is complete)."""
    folder = Path(folder)
    if not folder.is_dir():
        raise UsageError(
            f"The backup folder {folder} does not exist (a removed drive?): choose another "
            "or reconnect it. No backup was made."
        )
    for stale in _partials(folder, db.profile):
        with contextlib.suppress(OSError):
            stale.unlink()
    dest = folder / backup_name(db.profile)
    n = 1
    while os.path.lexists(dest):
        dest = folder / backup_name(db.profile).replace(SUFFIX, f"-{n}{SUFFIX}")
        n += 1
    report = write_backup(db, dest)
    # only this profile's own backups count, and only they are ever deleted
    for old in list_backups(folder, db.profile, db._key)[max(1, keep) :]:
        with contextlib.suppress(OSError):
            old.path.unlink()
    return report
