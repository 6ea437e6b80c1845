"""The encrypted profile database: a connection opened, keyed, verified and configured,
and the Database that runs every statement and transaction on it (opening a profile,
its key found and its schema migrated, is core/db/opening.py).

Always `sqlcipher3` (it brings its own SQLite with FTS5 and extension loading), never
the standard `sqlite3` module, with sqlite-vec loaded into the same connection.
"""

from __future__ import annotations

import contextlib
import importlib.util
import logging
import os
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import sqlcipher3

from desktop_mem.core.db.connection import Connection, Cursor, OpenConnection, Params
from desktop_mem.core.db.files import ProfileLock, clear_stale_backup_copies, sibling
from desktop_mem.core.errors import DatabaseCorrupt, DesktopMemError, ProfileBusy, WrongKey
from desktop_mem.core.keys.vault import Key

BUSY_TIMEOUT_MS = 10_000
FETCH_SLICE = 2048  # rows per fetch: the GIL is let go between slices


log = logging.getLogger(__name__)


def vec_extension_path() -> str:
    """sqlite-vec's loadable extension, found without importing the package (whose
    import pulls in numpy, which opening a database does not need)."""
    spec = importlib.util.find_spec("sqlite_vec")
    if spec is not None and spec.origin:
        return os.path.join(os.path.dirname(spec.origin), "vec0")
    import sqlite_vec  # an unusual installation: let the package say where it is

    return str(sqlite_vec.loadable_path())


def _sqlite_error_text(exc: BaseException) -> str:
    return str(exc).lower()


def probe_key(path: Path, key: Key) -> None:
    """Check the key against the main file alone, read-only and ignoring the WAL, so a
    wrong key never gets a connection that could checkpoint or delete a leftover WAL."""
    uri = f"{path.resolve().as_uri()}?mode=ro&immutable=1"
    conn = sqlcipher3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
    try:
        conn.execute("PRAGMA cipher_log_level = NONE")
        conn.execute(f"PRAGMA key = {key.pragma()}")
        conn.execute("SELECT count(*) FROM sqlite_schema").fetchone()
    except sqlcipher3.DatabaseError as exc:
        text = _sqlite_error_text(exc)
        if "not a database" in text or "encrypted" in text:
            raise  # the first page did not decrypt: the key is wrong
        # The first page decrypted, so the key is right; without its log the main file
        # can be half way through a checkpoint (one a full disk stopped, say) and read as
        # "malformed": the real open, with the log, decides.
    finally:
        conn.close()


def writable(path: Path) -> bool:
    """Whether this process may change the database and make files beside it."""
    return os.access(path.parent, os.W_OK) and (not path.exists() or os.access(path, os.W_OK))


def _has_leftover_wal(path: Path) -> bool:
    """Whether a non-empty write-ahead log sits beside a non-empty database. Another
    process closing the profile deletes its log at any moment, so a log that vanishes
    while it is looked at is simply none."""
    try:
        return bool(sibling(path, "-wal").stat().st_size and path.stat().st_size)
    except FileNotFoundError:
        return False


def connect(path: Path, key: Key) -> OpenConnection:
    """Open and key a connection; the first read proves the key is right.

    A wrong key is not reported by `PRAGMA key` itself: the first read fails with
    "file is not a database". Nothing is written before that read succeeds, so a
    wrong passphrase never touches the file.
    """
    conn = None
    read_only = not writable(path)
    try:
        if _has_leftover_wal(path):
            probe_key(path, key)
        if read_only:
            # Nothing here can be written (a read-only disk, or another user's folder), so
            # nothing can change it either: read the file as it is, without the WAL's
            # shared memory, which would have to be created beside it.
            uri = f"{path.resolve().as_uri()}?mode=ro&immutable=1"
            conn = sqlcipher3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
        else:
            conn = sqlcipher3.connect(str(path), isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA cipher_log_level = NONE")  # no HMAC noise on stderr
        conn.execute(f"PRAGMA key = {key.pragma()}")
        conn.execute("SELECT count(*) FROM sqlite_schema").fetchone()
    except sqlcipher3.DatabaseError as exc:
        if conn is not None:
            conn.close()
        text = _sqlite_error_text(exc)
        if "not a database" in text or "encrypted" in text:
            what = "passphrase" if key.mode == "passphrase" else "key from the keyring"
            raise WrongKey(
                f"The database {path} could not be decrypted: the {what} is wrong or the file "
                "is damaged. Nothing was changed; try again with the right "
                f"{'passphrase' if key.mode == 'passphrase' else 'key'}."
            ) from None
        if "locked" in text or "busy" in text:
            raise ProfileBusy(
                f"The database {path} is locked by another program: close it and try again."
            ) from None
        raise DatabaseCorrupt(
            f"The database {path} could not be opened ({exc}): it may be damaged; restore it "
            "from a backup or an export."
        ) from None
    try:
        conn.enable_load_extension(True)
        conn.load_extension(vec_extension_path())
        conn.enable_load_extension(False)
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute("PRAGMA secure_delete = ON")
        conn.execute("PRAGMA temp_store = MEMORY")  # no plaintext temp files, ever
        if not read_only:
            mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise DatabaseCorrupt(f"The database {path} could not switch to WAL mode ({mode}).")
            conn.execute("PRAGMA synchronous = NORMAL")
    except sqlcipher3.DatabaseError as exc:
        conn.close()
        raise DatabaseCorrupt(
            f"The database {path} could not be prepared ({exc}): it may be damaged; restore it "
            "from a backup or an export."
        ) from None
    return conn


class Database:
    """One keyed connection to one profile, with explicit transactions.

    The connection may be used from worker threads; a lock serialises access so that
    a transaction is never interleaved with another thread's statements.
    """

    def __init__(
        self,
        conn: OpenConnection,
        path: Path,
        profile: str,
        key_mode: str,
        profile_lock: ProfileLock | None = None,
        key: Key | None = None,
    ) -> None:
        self.conn = conn
        self._key = key  # for a backup's copy (core/db/backup.py); its repr hides the secret
        self.new_recovery_code: str | None = None  # set once, when a keyring profile is made
        self.cleared_copies = 0  # files killed backups had left, removed at this open
        self.path = path
        self.profile = profile
        self.key_mode = key_mode
        self.profile_lock = profile_lock  # released on close
        self.checkpoint_complete = True  # the last checkpoint overwrote what was deleted
        self.damaged = False  # a read found damage: writes are refused from then on
        self.lock = threading.RLock()
        self._depth = 0
        self._on_rollback: list[Callable[[], None]] = []
        # what to say once the transaction commits: each callable once, with every id
        # its writes gathered (a sync batch of 5,000 rows is one announcement, not 5,000)
        self._after_commit: dict[Callable[[tuple[int, ...]], None], list[int]] = {}
        self._reader: OpenConnection | None = None  # a second, read-only connection (open_reader)
        self._reader_lock = threading.Lock()
        self._closed = False

    @property
    def closed(self) -> bool:
        return self._closed

    def open_reader(self) -> bool:
        """Open a second connection, read-only, for reads made while another thread holds
        this one (a long write, a transaction, a slice of the vector codes): WAL lets a
        reader see the last commit without waiting for the writer, so a window listing or
        searching never queues behind a delete. Reads from the thread that holds the
        connection still use it (they must see their own uncommitted writes). Costs a
        key derivation with a passphrase, so call it off the GUI thread. False when it
        could not be opened (the one connection then serves everything, as before)."""
        if self._reader is not None or self._key is None or self._closed:
            return self._reader is not None
        try:
            conn = connect(self.path, self._key)
            conn.execute("PRAGMA query_only = ON")
        except (DesktopMemError, sqlcipher3.Error) as exc:
            log.info("no read-only connection for %s: %s", self.profile, exc)
            return False
        with self._reader_lock:
            if self._closed or self._reader is not None:
                conn.close()
            else:
                self._reader = conn
        return self._reader is not None

    def on_rollback(self, fn: Callable[[], None]) -> None:
        """Call fn if the current transaction is rolled back (for in-memory state that
        mirrors what the transaction wrote)."""
        self._on_rollback.append(fn)

    def after_commit(self, fn: Callable[[tuple[int, ...]], None], ids: Iterable[int] = ()) -> None:
        """Call fn once the current transaction commits (never when it is rolled back),
        with the ids of every call for the same fn gathered in order, each once. How a
        store announces a write made inside a caller's transaction: after the commit,
        so a listener that reads finds the change there. Outside a transaction, at once."""
        if not self._depth:
            fn(tuple(dict.fromkeys(ids)))
            return
        self._after_commit.setdefault(fn, []).extend(ids)

    def _rolled_back(self) -> None:
        self._after_commit = {}
        hooks, self._on_rollback = self._on_rollback, []
        for fn in hooks:
            fn()

    @contextlib.contextmanager
    def transaction(self) -> Iterator[Connection]:
        """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK on any exception. Re-entrant."""
        with self.lock:
            if self.damaged:
                raise DatabaseCorrupt(
                    f"The database of profile '{self.profile}' is damaged, so nothing more is "
                    "written to it: restore it from a backup, or export what can still be read."
                )
            if self._depth:
                self._depth += 1
                try:
                    yield self.conn
                finally:
                    self._depth -= 1
                return
            try:
                self.conn.execute("BEGIN IMMEDIATE")
            except sqlcipher3.OperationalError as exc:
                raise _busy(self.path, exc) from None
            self._depth = 1
            try:
                yield self.conn
            except BaseException as exc:
                self._depth = 0
                with contextlib.suppress(sqlcipher3.Error):
                    self.conn.execute("ROLLBACK")
                self._rolled_back()
                if type(exc) is sqlcipher3.DatabaseError or isinstance(
                    exc, sqlcipher3.OperationalError
                ):  # disk full, I/O error, locked, damaged: one sentence; nothing was changed
                    raise _busy(self.path, exc) from None
                raise
            try:
                self.conn.execute("COMMIT")
            except sqlcipher3.Error as exc:
                with contextlib.suppress(sqlcipher3.Error):
                    self.conn.execute("ROLLBACK")
                self._rolled_back()
                raise write_failed(self.path, exc) from None
            finally:
                self._depth = 0
                self._on_rollback = []
            pending, self._after_commit = self._after_commit, {}
        for fn, ids in pending.items():  # outside the lock: a listener may wait on a reader
            fn(tuple(dict.fromkeys(ids)))

    # SQLite reports some damage as "out of memory" (a corrupt page can claim an absurd
    # size, e.g. during VACUUM), which the driver raises as MemoryError.
    def execute(self, sql: str, params: Params = ()) -> Cursor:
        with self.lock:
            try:
                return self.conn.execute(sql, params)
            except (sqlcipher3.DatabaseError, MemoryError) as exc:
                raise self._read_failed(exc) from None

    def query(self, sql: str, params: Params = ()) -> list[Any]:
        """Every row. Fetched in slices: building Python rows holds the GIL, and one
        fetchall of 100,000 rows would hold it long enough to freeze the window."""
        if self._reader is not None and not self.lock._is_owned():  # type: ignore[attr-defined]
            with self._reader_lock:
                if self._reader is not None:
                    return self._fetch(self._reader, sql, params)
        with self.lock:
            return self._fetch(self.conn, sql, params)

    def _fetch(self, conn: Connection, sql: str, params: Params) -> list[Any]:
        try:
            cursor = conn.execute(sql, params)
            rows: list[Any] = []
            while more := cursor.fetchmany(FETCH_SLICE):
                rows += more
            return rows
        except (sqlcipher3.DatabaseError, MemoryError) as exc:
            raise self._read_failed(exc) from None

    def _read_failed(self, exc: BaseException) -> DesktopMemError:
        """A read hit a damaged page (or the disk failed): one sentence, and no more
        writes to this file from this process."""
        if isinstance(exc, sqlcipher3.OperationalError):
            text = _sqlite_error_text(exc)
            if "locked" in text or "busy" in text:
                return _busy(self.path, exc)
        self.damaged = True
        return DatabaseCorrupt(
            f"The database of profile '{self.profile}' is damaged ({exc}): nothing was "
            "changed. Restore it from a backup, or export what can still be read."
        )

    def meta_get(self, key: str) -> str | None:
        row = self.query("SELECT value FROM meta WHERE key = ?", (key,))
        return row[0][0] if row else None

    def meta_set(self, key: str, value: str | None) -> None:
        with self.transaction() as c:
            if value is None:
                c.execute("DELETE FROM meta WHERE key = ?", (key,))
            else:
                c.execute(
                    "INSERT INTO meta(key, value) VALUES (?, ?) "
                    "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                    (key, value),
                )

    def data_version(self, wait: bool = True) -> int | None:
        """Changes whenever another connection (another window, the command line, the MCP
        server) commits to this database: cheap to poll. With `wait` False, None when
        this process is using the connection (a poll from the GUI thread never waits)."""
        if not self.lock.acquire(blocking=wait):
            return None
        try:
            return int(self.query("PRAGMA data_version")[0][0])
        finally:
            self.lock.release()

    def set_cache_bytes(self, nbytes: int) -> None:
        """Size the page cache (decrypted pages) in bytes: negative cache_size is KiB."""
        self.execute(f"PRAGMA cache_size = {-max(2048, nbytes // 1024)}")

    def checkpoint(self) -> bool:
        """Fold the WAL into the main file and truncate it (so freed pages are
        overwritten), and remove the copies killed backups left beside it (each would
        keep what was just deleted). False when another connection's open read kept it
        from finishing (after the busy timeout): old pages then stay in the file until
        that reader lets go and a later checkpoint (at the latest, its close) completes
        it; the caller says so rather than "gone"."""
        clear_stale_backup_copies(self.path)
        with self.lock:
            busy, _log, _done = self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        self.checkpoint_complete = not busy
        return self.checkpoint_complete

    def close(self) -> None:
        with self._reader_lock:
            self._closed = True
            if self._reader is not None:
                self._reader.close()
                self._reader = None
        with self.lock:
            with contextlib.suppress(sqlcipher3.Error):
                self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
            self.conn.close()
            if self.profile_lock is not None:
                self.profile_lock.release()

    def __enter__(self) -> Database:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _busy(path: Path, exc: BaseException) -> DesktopMemError:
    text = _sqlite_error_text(exc)
    if "locked" in text or "busy" in text:
        return ProfileBusy(
            f"Another desktop-mem is writing to {path.parent.name}: wait for it to finish and "
            "try again."
        )
    return write_failed(path, exc)


def write_failed(path: Path, exc: BaseException) -> DesktopMemError:
    text = _sqlite_error_text(exc)
    if "readonly" in text or "read-only" in text:
        return DesktopMemError(
            f"The folder {path.parent} cannot be written (a read-only disk, or another user's "
            "folder), so the profile can only be read: nothing was changed.",
            reason="read_only",
        )
    if "full" in text:
        return DesktopMemError(
            f"The disk holding {path.parent} is full: nothing was changed; free some space and "
            "try again.",
            reason="disk_full",
        )
    if "malformed" in text or "corrupt" in text:
        return DatabaseCorrupt(
            f"The database {path} is damaged ({exc}): restore it from a backup or an export."
        )
    return DesktopMemError(f"Could not write to {path} ({exc}): nothing was changed.")


IN_CHUNK = 500  # ids per `IN (…)` query: far below SQLite's limit on variables


def id_chunks(ids: Sequence[int], size: int = IN_CHUNK) -> Iterator[tuple[list[int], str]]:
    """Ids in slices for `… IN (…)` queries, each with its placeholders ("?,?,?")."""
    ids = list(ids)
    for start in range(0, len(ids), size):
        chunk = ids[start : start + size]
        yield chunk, ",".join("?" * len(chunk))
