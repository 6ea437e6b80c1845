"""This computer's own files in the sync folder: what changed here stamped and written
as its next change file, the snapshot that compacts them (so what was deleted or
replaced leaves the folder), and its status (its name, what it has read of each
computer, when)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Iterator, Mapping
from datetime import datetime

from desktop_mem.core.db.connection import Connection
from desktop_mem.core.sync import capture, crypto, files, frame
from desktop_mem.core.sync.keys import KeyChain
from desktop_mem.core.sync.own import Ledger
from desktop_mem.core.sync.reading import Reading
from desktop_mem.core.sync.replica import Replica
from desktop_mem.core.sync.state import SyncState, now_iso

APP = "desktop-mem"
COMPACT_MIN_BYTES = 256 * 1024  # change files smaller than this are not worth a snapshot
COMPACT_AFTER_DELETE_S = 60.0  # a deletion's text leaves the folder within about this
STATUS_REFRESH_S = 3600.0  # a computer says it is alive at least this often


class Outgoing:
    """What this computer writes into the folder."""

    def __init__(self, state: SyncState) -> None:
        self.state = state
        self.profile = state.profile
        self.db = state.db
        # when something this computer wrote was deleted (its text must leave the folder)
        self.deleted_at: float | None = None
        # its files in the folder as it wrote them (core/sync/own.py)
        self.ledger = Ledger(state)
        # another computer said it is stuck at one of its files: a fresh snapshot answers
        self.asked = False

    def records_format(self) -> int:
        """The format of a file of records: the one that names spaces while the profile
        has any (core/sync/files.py: SPACES_FORMAT), else the one before."""
        return frame.SPACES_FORMAT if self.profile.spaces.any() else frame.FORMAT

    def export(self) -> int:
        replica = self.state.replica()
        if not replica.pending():
            return 0
        with self.db.transaction() as conn:
            return self.export_in(conn, replica)

    def export_in(self, conn: Connection, replica: Replica) -> int:
        seq = self.state.int("seq") + 1
        sent = replica.export(conn, seq)
        if sent:
            self.state.set(conn, {"seq": str(seq)})
        return sent

    def write_pending(self, layout: files.Layout, chain: KeyChain, keys: crypto.DeviceKeys) -> None:
        """Write this computer's change files not yet in the folder (a pass killed
        between stamping and writing leaves them to the next)."""
        written, seq = self.state.int("written"), self.state.int("seq")
        replica = self.state.replica()
        giving = self.giving()
        for n in range(written + 1, seq + 1):
            header = {
                "kind": "changes",
                "sync": layout.sync_id,
                "device": self.state.device,
                "seq": n,
            }
            name = files.changes_name(n)
            path = layout.device(self.state.device) / name
            also = [device for device, at in giving.items() if at == n]
            of = self.state.replica(also) if also else replica
            counted = _Counted(r.to_wire() for r in of.records_of(n))
            frame.write_sealed(
                path, header, counted, chain.write_key, keys, staged=self.ledger.staged(name),
                fmt=self.records_format(),
            )  # fmt: skip
            with self.db.transaction() as conn:
                self.state.set(conn, {"written": str(n)})
                self.ledger.landed(conn, name, path)
                # how many records it held and when: what another computer has not
                # taken in yet is counted from these ("your last 3 changes, since 14:02")
                conn.execute(
                    "INSERT OR REPLACE INTO sync_sent(seq, records, written_at) VALUES (?, ?, ?)",
                    (n, counted.n, now_iso()),
                )

    def own_sizes(self, layout: files.Layout) -> tuple[int, int]:
        changes, snaps = layout.numbered(self.state.device)
        folder = layout.device(self.state.device)
        snap = self.state.int("snapshot")

        def size(name: str) -> int:
            return files.size_of(folder / name)

        return (
            sum(size(files.changes_name(n)) for n in changes if n > snap),
            size(files.snapshot_name(snap)) if snap in snaps else 0,
        )

    def sealed_for_removed(self, chain: KeyChain) -> bool:
        """A computer was taken out of the sync since this one last compacted, and some
        of its files in the folder are sealed with a key the removed computer holds:
        those written before the removal, and any written after it while the removal had
        not reached this computer (its key file kept from it; or, joining with the
        recovery code, a history shown without it). A snapshot under the key of now
        takes their place, so nothing of this computer's in the folder opens with the
        removed computer's keys."""
        if not chain.removed <= set(json.loads(self.state.get("compacted_removed") or "[]")):
            return self.state.int("written") > 0 or self.state.int("snapshot") > 0
        return False

    def should_compact(self, layout: files.Layout, forced: bool | None) -> bool:
        if forced:
            return True
        if self.state.int("written") <= self.state.int("snapshot"):
            return False
        if (
            self.deleted_at is not None
            and time.monotonic() - self.deleted_at >= COMPACT_AFTER_DELETE_S
        ):
            return True
        changes, snapshot = self.own_sizes(layout)
        return changes > max(snapshot, COMPACT_MIN_BYTES)

    def compact(self, layout: files.Layout, chain: KeyChain, keys: crypto.DeviceKeys) -> None:
        """A snapshot of every record this computer wrote that still stands, then its
        change files up to it removed: what was deleted or replaced leaves the folder."""
        n = self.state.int("written")
        header = {"kind": "snapshot", "sync": layout.sync_id, "device": self.state.device, "seq": n}
        name = files.snapshot_name(n)
        path = layout.device(self.state.device) / name
        frame.write_sealed(
            path, header,
            (r.to_wire() for r in self.state.replica(self.giving()).records_of(None)),
            chain.write_key, keys,
            staged=self.ledger.staged(name), fmt=self.records_format(),
        )  # fmt: skip
        with self.db.transaction() as conn:
            self.state.set(
                conn,
                {"snapshot": str(n), "compacted_removed": json.dumps(sorted(chain.removed))},
            )
            self.ledger.landed(conn, name, path)
        self.deleted_at = None
        self.asked = False
        self.clean_own(layout)

    def clean_own(self, layout: files.Layout) -> None:
        snap = self.state.int("snapshot")
        if not snap:
            return
        # those refused here too (a copy the engine damaged, quarantined when this
        # computer checked its own files): they go with the others, never followed
        changes, snaps = layout.numbered(self.state.device, refused=True)
        folder = layout.device(self.state.device)
        gone = [files.changes_name(n) for n in changes if n <= snap]
        gone += [files.snapshot_name(n) for n in snaps if n < snap]
        for name in gone:
            files.remove_file(folder / name)
        # and what it knows of files compacted away (gone from the folder already)
        gone += self.ledger.older_than(snap)
        if gone:
            with self.db.transaction() as conn:
                self.ledger.forget(conn, gone)

    def unreceived(self, received: int, written: int) -> tuple[int, str | None]:
        """What a computer that has taken in this one's files up to `received` lacks of
        them: how many records, and when the first of those files was written."""
        rows = self.db.query(
            "SELECT records, written_at FROM sync_sent WHERE seq > ? AND seq <= ? ORDER BY seq",
            (received, written),
        )
        # a file with no row (written by a version before they were counted) counts one
        records = sum(int(r[0]) for r in rows) + max(0, written - received - len(rows))
        return max(records, 1), (rows[0][1] if rows else None)

    def forget_received(self) -> None:
        """The counts of files every other computer has taken in are no longer needed
        (one joining later takes in the snapshot)."""
        me = self.state.device
        taken = []
        for (status,) in self.db.query("SELECT status FROM sync_peers WHERE removed = 0"):
            applied = (json.loads(status) if status else {}).get("applied")
            mine = applied.get(me) if isinstance(applied, dict) else None
            taken.append(mine if isinstance(mine, int) else 0)
        # alone: what the snapshot holds (a computer joining takes it in first)
        floor = min(taken) if taken else self.state.int("snapshot")
        if floor > 0 and self.db.query("SELECT 1 FROM sync_sent WHERE seq <= ? LIMIT 1", (floor,)):
            with self.db.transaction() as conn:
                conn.execute("DELETE FROM sync_sent WHERE seq <= ?", (floor,))

    def give_back(self, device: str, asked: int) -> None:
        """Another computer asks for its own records back (`asked`: how many times it
        has; once each): it undid what a computer taken out of the sync changed, which
        may have overwritten or deleted what it wrote, and no file holds that. Every
        record and version this computer holds stamped with its id goes out in the next
        change file, stamps unchanged (what it holds newer or deleted is kept)."""
        given = json.loads(self.state.get("given_back") or "{}")
        if int(given.get(device, 0)) >= asked:
            return
        with self.db.transaction() as conn:
            seq = self.state.int("seq") + 1
            if capture.refile(conn, self.profile, [device], seq):
                giving = {**self.giving(), device: seq}
                self.state.set(
                    conn, {"seq": str(seq), "giving": json.dumps(giving, sort_keys=True)}
                )
            given[device] = asked
            self.state.set(conn, {"given_back": json.dumps(given, sort_keys=True)})

    def giving(self) -> dict[str, int]:
        """The computers given back their own records, each with the change file that
        holds them: this computer's snapshots hold them too, until that computer says
        it has taken that file in (a snapshot may replace the file before it did)."""
        raw = json.loads(self.state.get("giving") or "{}")
        return {str(d): int(n) for d, n in raw.items()} if isinstance(raw, dict) else {}

    def given(self, device: str, applied: object) -> None:
        """`device` says it has taken in this computer's files up to `applied`."""
        giving = self.giving()
        at = giving.get(device)
        if at is None or type(applied) is not int or applied < at:
            return
        del giving[device]
        with self.db.transaction() as conn:
            self.state.set(conn, {"giving": json.dumps(giving, sort_keys=True)})

    def write_status(
        self,
        layout: files.Layout,
        chain: KeyChain,
        keys: crypto.DeviceKeys,
        force: bool = False,
        counter: int = 0,
    ) -> None:
        """Its status, when it says something new (or once an hour, to say it is there).
        `force`: written whatever it says (the one in the folder is not this computer's
        own); `counter`: one it must go past (another writer used it under its name)."""
        rows = self.db.query("SELECT device, applied, applied_at FROM sync_peers")
        applied = {r[0]: int(r[1]) for r in rows}
        # when each was reached: the other computer says "desktop has had everything you
        # wrote since 14:02", not only that it has
        applied_at = {r[0]: r[2] for r in rows if r[2]}
        reading = Reading(self.state)
        status = {
            "name": self.state.name,
            "app": APP,
            "seq": self.state.int("written"),
            "snapshot": self.state.int("snapshot"),
            "applied": applied,
            "applied_at": applied_at,
            "agreement": keys.public["agreement"],
            "signing": keys.public["signing"],
            "generation": chain.current.number if chain.current else 0,
            # where it is stuck (the writer answers with a fresh snapshot), and the last
            # files it took in of each computer (one that its writer did not write shows
            # a copy of that computer at work)
            "stuck": reading.stuck_at(),
            "read": reading.last(),
        }
        if self.state.int("give_back"):  # what it asks the others to send back of its own
            status["give_back"] = self.state.int("give_back")
        digest = json.dumps(status, sort_keys=True)
        last = self.state.get("status_at")
        fresh = last is not None and (
            time.time() - datetime.fromisoformat(last.replace("Z", "+00:00")).timestamp()
            < STATUS_REFRESH_S
        )
        if digest == self.state.get("status_digest") and fresh and not force:
            return
        counter = max(self.state.int("status_counter"), counter) + 1
        stamp = now_iso()
        header = {"kind": "status", "sync": layout.sync_id, "device": self.state.device}
        path = layout.device(self.state.device) / files.STATUS
        frame.write_sealed(
            path,
            header,
            [{**status, "written_at": stamp, "counter": counter}],
            chain.write_key,
            keys,
            staged=self.ledger.staged(files.STATUS),
        )
        with self.db.transaction() as conn:
            self.state.set(
                conn,
                {"status_digest": digest, "status_at": stamp, "status_counter": str(counter)},
            )
            self.ledger.landed(conn, files.STATUS, path)


class _Counted:
    """The records of a file as they are written, counted."""

    def __init__(self, records: Iterable[Mapping[str, object]]) -> None:
        self.records = records
        self.n = 0

    def __iter__(self) -> Iterator[Mapping[str, object]]:
        for record in self.records:
            self.n += 1
            yield record
