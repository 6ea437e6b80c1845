"""The profile database's files on disk: the copies a key change keeps beside it, the
copies a killed backup leaves, the advisory lock every open profile holds, and removing
a database with its journals."""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]

# A key change (core/db/rekey.py) writes the re-encrypted copy beside the database and
# keeps the old file under OLD_SUFFIX until the new key is committed in the sidecar.
REKEY_SUFFIX = ".rekey"
OLD_SUFFIX = ".old"
LOCK_SUFFIX = ".lock"
# A backup first copies the database beside it, as ``<db>.backup-PID-XXXXXXXX``
# (core/db/backup.py), under the live key.
BACKUP_COPY_PREFIX = ".backup-"


def sibling(path: Path, suffix: str) -> Path:
    return path.with_name(path.name + suffix)


def remove_database_files(path: Path) -> None:
    for p in (path, sibling(path, "-wal"), sibling(path, "-shm"), sibling(path, "-journal")):
        with contextlib.suppress(FileNotFoundError):
            p.unlink()


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def stale_backup_copies(db_path: Path) -> list[Path]:
    """What killed backups left beside the database (named for a process that is gone):
    each a whole copy of the profile under its key, so whatever a forget deletes would
    stay in it."""
    prefix = db_path.name + BACKUP_COPY_PREFIX
    found = []
    with contextlib.suppress(OSError):
        for p in db_path.parent.iterdir():
            tail = p.name[len(prefix) :].split("-")[0] if p.name.startswith(prefix) else ""
            if tail.isdigit() and int(tail) != os.getpid() and not _pid_alive(int(tail)):
                found.append(p)
    return sorted(found)


def clear_stale_backup_copies(db_path: Path) -> int:
    """Remove what killed backups left beside the database; how many files went."""
    gone = 0
    for p in stale_backup_copies(db_path):
        with contextlib.suppress(OSError):
            p.unlink()
            gone += 1
    return gone


class ProfileLock:
    """An advisory lock on ``<db>.lock``. Every open profile holds it shared; a key
    change, and the recovery of an interrupted one, hold it exclusive. So recovery
    never runs while another process has the profile, and a key change keeps everyone
    out from its copy until the old key is gone."""

    def __init__(self, path: Path) -> None:
        self.path = sibling(path, LOCK_SUFFIX)
        self._fd: int | None = None
        self.exclusive = False

    def acquire(self, exclusive: bool = False, wait_s: float = 0.0) -> bool:
        """Take (or convert) the lock; False if another process holds it in a way that
        conflicts, after waiting up to wait_s."""
        if fcntl is None:  # no advisory locks here: SQLite's own locking still applies
            return True
        if self._fd is None:
            try:
                self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
            except OSError:
                # A folder nobody may write to (a read-only disk): a key change could not
                # write there either, so a read-only lock, or none, keeps nothing unsafe.
                try:
                    self._fd = os.open(self.path, os.O_RDONLY)
                except OSError:
                    return True
        op = (fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH) | fcntl.LOCK_NB
        deadline = time.monotonic() + wait_s
        while True:
            try:
                fcntl.flock(self._fd, op)
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    return False
                time.sleep(0.05)
                continue
            self.exclusive = exclusive
            return True

    def release(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)  # closing the descriptor releases the lock
            self._fd = None
            self.exclusive = False
