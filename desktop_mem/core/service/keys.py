"""The key's and the backups' operations on the open profile: back up (to a file, or
into the backup folder keeping the newest few), list the folder's backups, make a new
recovery code, say how the key is kept. What works on a profile that is not open
(restoring a backup, changing the key, putting a lost key back with the recovery code)
is in the functions below the class, which the front ends call with the profile
closed."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from desktop_mem.core.db import backup, backup_folder, recovery
from desktop_mem.core.db.backup import (  # noqa: F401 - the operations on a closed profile
    BackupReport,
    RestoreReport,
    read_header,
    restore,
    verify_file,
)
from desktop_mem.core.db.backup_folder import BackupFile
from desktop_mem.core.db.database import Database
from desktop_mem.core.db.recovery import recover_key  # noqa: F401 - on a closed profile
from desktop_mem.core.db.rekey import RekeyReport, change_key  # noqa: F401
from desktop_mem.core.events import KeyChange, KeyChanged

if TYPE_CHECKING:
    from desktop_mem.core.service import Service


class Keys:
    def __init__(self, service: Service) -> None:
        self.service = service

    @property
    def _db(self) -> Database:
        return self.service.profile.db

    @property
    def mode(self) -> str:
        """How the key is kept: "keyring" or "passphrase"."""
        return str(self._db.key_mode)

    @property
    def data_folder(self) -> Path:
        """The folder the profile's database is in."""
        return Path(self._db.path).parent

    @property
    def closed(self) -> bool:
        return bool(self._db.closed)

    def encryption(self) -> tuple[str, str, bool]:
        """The SQLCipher version, the sqlite-vec version, and whether the file on disk
        is encrypted (it does not start with SQLite's plain header)."""
        cipher = str(self._db.query("PRAGMA cipher_version")[0][0] or "")
        vec = str(self._db.query("SELECT vec_version()")[0][0] or "")
        plain = Path(self._db.path).read_bytes()[:16].startswith(b"SQLite format 3")
        return cipher, vec, not plain

    def new_recovery_code_shown(self) -> str | None:
        """A recovery code made when the profile was created, to be shown once."""
        code = self._db.new_recovery_code
        return str(code) if code else None

    def backup(self, target: Path) -> BackupReport:
        """Write an encrypted, verified backup to a file (or into a folder)."""
        target = Path(target).expanduser()
        if target.is_dir():
            target = target / backup_folder.backup_name(self.service.name)
        return self._written(backup.write_backup(self._db, target))

    def back_up_to_folder(self, folder: Path, keep: int) -> BackupReport:
        """A backup into the backup folder, keeping the newest `keep` there."""
        return self._written(backup_folder.back_up_to_folder(self._db, Path(folder), keep))

    def _written(self, report: BackupReport) -> BackupReport:
        self.service.settings.set("last_backup_at", report.created_at)
        return report

    def backups_in(self, folder: Path) -> list[BackupFile]:
        """This profile's backups in a folder that its key sealed, newest first (what
        anyone else put there does not count)."""
        return backup_folder.list_backups(Path(folder), self.service.name, self._db._key)

    def newest_backup_in(self, folder: Path) -> BackupFile | None:
        """The newest backup of this profile in a folder that its key sealed, checking
        at most a few seals not checked before (see db/backup_folder.py: newest_backup)."""
        key = self._db._key
        return (
            None
            if key is None
            else backup_folder.newest_backup(Path(folder), self.service.name, key)
        )

    def renew_recovery_code(self) -> str:
        """A new recovery code (shown once); the old one stops opening the profile.
        Announced (KeyChanged): what opens the key changed."""
        code = recovery.renew_recovery_code(self._db)
        self.service.events.emit(KeyChanged("opens"))
        return code

    def changed_while_closed(self, how: KeyChange) -> None:
        """Announce (KeyChanged) a change of the key made with the profile closed: the
        key replaced or moved (change_key, `how` "rekeyed") or a backup put in its place
        (restore, "restored"). The closed profile's bus has gone with it, and its
        listeners with it; this one is the profile opened again with the new key, read
        afresh. Whoever made the change and opened it again says so once what listens to
        the new one (a window built on it) listens, and only if the change was made."""
        if self.closed:
            raise RuntimeError("announced on a closed profile")
        self.service.events.emit(KeyChanged(how))
