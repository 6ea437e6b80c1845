"""This computer's sync state, kept in the profile's `meta` (the `sync.*` keys): the
sync id and folder, this computer's id, name and keys, the key chain, and the numbers
of the change files it has stamped, written and compacted; and what one pass did."""

from __future__ import annotations

import contextlib
import copy
import json
import socket
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from desktop_mem.core.db.connection import Connection
from desktop_mem.core.errors import SyncError
from desktop_mem.core.jsontypes import JSONObject
from desktop_mem.core.sync import crypto, files
from desktop_mem.core.sync.applying import Applied
from desktop_mem.core.sync.keys import KeyChain
from desktop_mem.core.sync.replica import Replica

if TYPE_CHECKING:
    from desktop_mem.core.profile import Profile


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def default_name() -> str:
    name = socket.gethostname().split(".")[0].strip()
    return name[:40] or "this computer"


@dataclass
class Peer:
    device: str
    name: str
    applied: int  # this computer has read its files up to this number
    seen_at: str | None  # when this computer last had everything it had written
    written_at: str | None  # when it last said it was there (its status)
    removed: bool = False
    behind: bool = False  # it has written more than this computer could read yet
    # the other way round, as its status says: how far it has taken in this computer's
    # files, and when it got there (None from a computer too old to say)
    received: int = 0
    received_at: str | None = None
    # the records of this computer's change files it has not taken in yet, and when the
    # first of them was written (None: written before that was kept)
    missing: int = 0
    missing_since: str | None = None
    # the file of this computer's that it says it cannot go on past (its status): it is
    # not up to date, whatever else is said of it, until a fresh snapshot reaches it
    stuck: str | None = None

    @property
    def up_to_date(self) -> bool:
        """It has taken in everything this computer has written, and is not stuck."""
        return self.missing == 0 and self.stuck is None

    @property
    def synced_at(self) -> str | None:
        """When it had taken in everything this computer wrote (its status's time, from
        a computer too old to say when it got there)."""
        return (self.received_at or self.written_at) if self.up_to_date else None

    def to_dict(self) -> JSONObject:
        return {
            "device": self.device, "name": self.name, "applied": self.applied,
            "seen_at": self.seen_at, "written_at": self.written_at, "removed": self.removed,
            "behind": self.behind, "received": self.received, "received_at": self.received_at,
            "up_to_date": self.up_to_date, "synced_at": self.synced_at,
            "missing": self.missing, "missing_since": self.missing_since, "stuck": self.stuck,
        }  # fmt: skip


@dataclass
class Pass:
    """What one pass did."""

    sent: int = 0  # records this computer sent
    files_read: int = 0
    applied: Applied = field(default_factory=Applied)
    merged: int = 0  # memories added on two computers with the same text, now one
    compacted: bool = False
    refused: list[str] = field(default_factory=list)
    waiting: list[str] = field(default_factory=list)  # computers whose next file is not whole yet
    joined: list[dict[str, Any]] = field(
        default_factory=list
    )  # computers seen in for the first time
    let_in: bool = False  # this computer, waiting to be let in with a pairing code, now is
    let_in_by: str | None = None
    waiting_for: str | None = None  # the computer this one waits to be let in by
    # files in the folder left alone because an earlier pass refused them for what they
    # are (a link, a FIFO, too large, too deep...): said once in `refused`, then counted
    ignored: int = 0
    # records and versions a computer taken out of the sync made after its removal, taken
    # in before the removal reached this computer and undone now (core/sync/lawful.py)
    undone: int = 0
    # a join's: which recovery code opens this copy from now on ("synced", "own", "none";
    # Syncer.join), None for every other pass
    recovery: str | None = None

    def to_dict(self) -> dict[str, Any]:
        a = self.applied
        return {
            "sent": self.sent,
            "files_read": self.files_read,
            "received": a.records,
            "memories_changed": len(a.memories),
            "memories_removed": len(a.memories_removed),
            "conversations_changed": len(a.conversations),
            "conversations_removed": len(a.conversations_removed),
            "conflicts": len(a.conflicts),
            "overridden_by_deletion": a.overridden,
            "lost": len(a.lost),
            "merged_duplicates": self.merged,
            "compacted": self.compacted,
            "refused": self.refused,
            "waiting": self.waiting,
            "joined": self.joined,
            "let_in": self.let_in,
            "let_in_by": self.let_in_by,
            "waiting_for": self.waiting_for,
            "ignored": self.ignored,
        }


class SyncState:
    """The `sync.*` keys of one profile's `meta`, read and written.

    A pass reads them once (`held`): one query, then every read from what it holds,
    kept up to date by this computer's own writes (a pass holds the sync lock, so no
    other window or command writes them meanwhile; a write rolled back is read again).
    Outside a pass each read goes to the database: another process may have written."""

    def __init__(self, profile: Profile) -> None:
        self.profile = profile
        self.db = profile.db
        self._held: dict[str, str | None] | None = None
        self._chain: tuple[str, KeyChain] | None = None  # the last one parsed, by its text

    @contextlib.contextmanager
    def held(self) -> Iterator[None]:
        """Read every key once, for the length of the block (re-entrant)."""
        if self._held is not None:
            yield
            return
        self._load()
        try:
            yield
        finally:
            self._held = None

    def _load(self) -> None:
        rows = self.db.query("SELECT key, value FROM meta WHERE key LIKE 'sync.%'")
        # the logical clock is the replica's, written in its own statements
        self._held = {k[5:]: v for k, v in rows if k != "sync.clock"}

    def get(self, key: str) -> str | None:
        if self._held is not None and key != "clock":
            return self._held.get(key)
        return self.db.meta_get(f"sync.{key}")

    def int(self, key: str) -> int:
        return int(self.get(key) or 0)

    def set(self, conn: Connection, values: dict[str, str | None]) -> None:
        for key, value in values.items():
            if value is None:
                conn.execute("DELETE FROM meta WHERE key = ?", (f"sync.{key}",))
            else:
                conn.execute(
                    "INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (f"sync.{key}", value)
                )
        if self._held is not None:
            self._held.update(values)
            self.db.on_rollback(self._reload)

    def _reload(self) -> None:
        if self._held is not None:
            self._load()

    @property
    def enabled(self) -> bool:
        return self.get("id") is not None

    @property
    def device(self) -> str:
        device = self.get("device")
        if device is None:
            raise SyncError("This profile is not synced.", reason="sync_off")
        return device

    @property
    def name(self) -> str:
        return self.get("name") or default_name()

    @property
    def folder(self) -> Path:
        return Path(self.get("folder") or "")

    def layout(self) -> files.Layout:
        sync_id = self.get("id")
        if sync_id is None:
            raise SyncError("This profile is not synced.", reason="sync_off")
        return files.Layout.of(self.folder, sync_id)

    def chain(self) -> KeyChain:
        """The key chain as kept; parsed again only when what is kept changed. (A copy
        for each caller: one that changes it changes nothing kept until it is set.)"""
        return copy.deepcopy(self.chain_read())

    def chain_read(self) -> KeyChain:
        """The key chain as kept, to read only (shared: never change it)."""
        raw = self.get("keys")
        if raw is None:
            raise SyncError("This profile is not synced.", reason="sync_off")
        if self._chain is None or self._chain[0] != raw:
            self._chain = (raw, KeyChain.from_dict(json.loads(raw)))
        return self._chain[1]

    @property
    def removed_here(self) -> bool:
        """Another computer took this one out of the sync (or the one that let it in
        was taken out before the others knew of it, or it joined with the recovery code
        and cannot tell its start from one planted beside it): only joining again with
        a pairing code makes it sync."""
        if not self.enabled:
            return False
        chain = self.chain()
        return self.device in chain.removed or chain.left_out or chain.contested

    def device_keys(self) -> crypto.DeviceKeys:
        raw = self.get("device_keys")
        if raw is None:
            raise SyncError("This profile is not synced.", reason="sync_off")
        return crypto.DeviceKeys.from_dict(json.loads(raw))

    def replica(self, also: Iterable[str] = ()) -> Replica:
        """This computer's records, and those of the computers taken out of the sync
        (their own files are gone from the folder: the others carry what stands), and
        those of its own former selves (the ids it had before it joined again); `also`:
        other computers' (those it gives back what it holds of theirs, in one file)."""
        return Replica(
            self.profile, self.device, carried=self.removed() | self.former() | set(also)
        )

    def removed(self) -> frozenset[str]:
        """The computers taken out of the sync (read, not copied: nothing changes it)."""
        self.chain_read()
        assert self._chain is not None
        return frozenset(self._chain[1].removed)

    def former(self) -> frozenset[str]:
        """The ids this computer had in this sync before it joined it again."""
        return frozenset(json.loads(self.get("former") or "[]"))
