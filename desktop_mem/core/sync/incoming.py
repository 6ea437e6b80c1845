"""Reading another computer's files: its status (who it is), then its snapshot when
this computer is further behind than its change files reach, and its change files in
order, each applied in steps committed with how far they got (a pass stopped or
killed half-way goes on from there, and nothing is applied twice). A file that does
not open (an engine still delivering it, or changed) is left, and the files after it
wait behind it."""

from __future__ import annotations

import itertools
import json
import logging
import time
from pathlib import Path

from desktop_mem.core.errors import SyncRefused
from desktop_mem.core.events import SyncProgress
from desktop_mem.core.sync import files
from desktop_mem.core.sync.keys import KeyChain
from desktop_mem.core.sync.outgoing import Outgoing
from desktop_mem.core.sync.state import Pass, SyncState, now_iso

log = logging.getLogger(__name__)

REFUSED_REPORT_S = 600.0  # a file still refused after this long is reported
APPLY_BATCH = 5000  # records of another computer's file applied (and committed) at a time


class Incoming:
    """What this computer takes in from the others' files."""

    def __init__(self, state: SyncState, outgoing: Outgoing) -> None:
        self.state = state
        self.outgoing = outgoing
        self.profile = state.profile
        self.db = state.db
        # a file that does not open: since when, at which size and time (an engine may
        # still be delivering it)
        self._refused_since: dict[str, tuple[float, int, float]] = {}

    def peer(self, device: str) -> tuple[int, str | None, str | None]:
        row = self.db.query(
            "SELECT applied, signing, name FROM sync_peers WHERE device = ?", (device,)
        )
        return (int(row[0][0]), row[0][1], row[0][2]) if row else (0, None, None)

    def read_peer(self, layout: files.Layout, chain: KeyChain, device: str, result: Pass) -> None:
        applied = self.peer(device)[0]
        member = chain.members.get(device)
        if member is None:
            return  # not in the sync: nothing of it is read
        signing = member.signing
        self.read_status(layout, chain, device, signing, result)
        changes, snaps = layout.numbered(device)
        todo: list[tuple[str, int]] = []
        if snaps and snaps[-1] > applied and (applied + 1) not in changes:
            todo.append(("snapshot", snaps[-1]))
            start = snaps[-1]
        else:
            start = applied
        for n in changes:
            if n <= start:
                continue
            if n != start + 1:
                break
            todo.append(("changes", n))
            start = n
        for kind, n in todo:
            name = files.snapshot_name(n) if kind == "snapshot" else files.changes_name(n)
            path = layout.device(device) / name
            try:
                self.apply_file(layout, chain, device, signing, kind, n, path, result)
            except files.Quarantined:
                return  # refused at an earlier pass and still the same: counted, not said
            except SyncRefused as exc:
                self.refused(path, str(exc), result, device)
                return
        with self.db.transaction() as conn:
            reached = self.peer(device)[0]
            newest = max([*changes, *snaps, 0])
            if reached >= newest:
                conn.execute(
                    "UPDATE sync_peers SET seen_at = ? WHERE device = ?", (now_iso(), device)
                )

    def apply_file(
        self,
        layout: files.Layout,
        chain: KeyChain,
        device: str,
        signing: str,
        kind: str,
        n: int,
        path: Path,
        result: Pass,
    ) -> None:
        # what its name says, and a key this computer holds, before the rest is read
        raw = files.read_raw(
            path,
            layout.sync_id,
            kind,
            expect={"device": device, "seq": n},
            check=lambda header: chain.key(str(header.get("key"))),
        )
        raw.verify(signing)
        key = chain.key(str(raw.header.get("key")))
        total = raw.count(key)  # every part opens before any of it is applied
        # a large file (a snapshot, when joining or back after months) is applied in
        # steps, each committed with how far it got: a pass stopped or killed half-way
        # goes on from there, and nothing is applied twice
        place = f"{device}:{kind}:{n}"
        mark = json.loads(self.state.get("partial") or "{}")
        done = int(mark.get("done") or 0) if mark.get("file") == place else 0
        records = itertools.islice(raw.records(key), done, None)
        replica = self.state.replica()
        peer = self.peer_name(device)
        while True:
            batch = list(itertools.islice(records, APPLY_BATCH))
            done += len(batch)
            last = done >= total or len(batch) < APPLY_BATCH
            with self.db.transaction() as conn:
                if replica.pending():
                    self.outgoing.export_in(conn, replica)  # what changed here first gets its stamp
                replica.set_recording(conn, False)
                applied = replica.apply(conn, batch)
                replica.set_recording(conn, True)
                if last:
                    conn.execute(
                        "INSERT INTO sync_peers(device, applied, applied_at) VALUES (?, ?, ?) "
                        "ON CONFLICT(device) DO UPDATE SET applied = excluded.applied, "
                        "applied_at = excluded.applied_at",
                        (device, n, now_iso()),
                    )
                    self.state.set(conn, {"partial": None})
                else:
                    self.state.set(conn, {"partial": json.dumps({"file": place, "done": done})})
            result.applied.merge(applied)
            if total > APPLY_BATCH:
                self.profile.events.emit(SyncProgress(min(done, total), total, peer))
            if last:
                break
        self._refused_since.pop(str(path), None)
        result.files_read += 1

    def refused(self, path: Path, reason: str, result: Pass, device: str) -> None:
        """A file that does not open yet: an engine may still be delivering it. Said in
        the status once it has stayed so (same size and time) for a while."""
        st = files.lstat(path)  # what is there, never what a link points to
        mark = (st.st_size, st.st_mtime) if st is not None else (0, 0.0)
        first, size, mtime = self._refused_since.get(str(path), (time.monotonic(), *mark))
        if (size, mtime) != mark:
            first = time.monotonic()
        self._refused_since[str(path)] = (first, *mark)
        log.info("sync: %s not applied: %s", path.name, reason)
        unfinished = "cut short" in reason or "cannot be read" in reason
        if not unfinished or time.monotonic() - first >= REFUSED_REPORT_S:
            result.refused.append(f"{path.name} from {self.peer_name(device)}: {reason}")
        else:
            result.waiting.append(device)

    def peer_name(self, device: str) -> str:
        row = self.db.query("SELECT name FROM sync_peers WHERE device = ?", (device,))
        return (row[0][0] if row and row[0][0] else None) or device[:8]

    def read_status(
        self,
        layout: files.Layout,
        chain: KeyChain,
        device: str,
        signing: str,
        result: Pass,
    ) -> str | None:
        """Read a member's status (its name, what it has read), checked against the
        signing key the membership records give it (never the key the status claims)."""
        path = layout.device(device) / files.STATUS
        if not files.present(path):  # a link or a FIFO is there: reading it says so
            return None
        try:
            raw = files.read_raw(path, layout.sync_id, "status")
            if raw.header.get("device") != device:
                raise SyncRefused("it is not what its name says")
            raw.verify(signing)
            key = chain.key(str(raw.header.get("key")))
            records = list(raw.records(key))
            if not records or not isinstance(records[0], dict):
                raise SyncRefused("what it holds is damaged")
            status = records[0]
            trusted = signing
        except files.Quarantined:
            return None  # refused at an earlier pass and still the same: counted, not said
        except SyncRefused as exc:
            self.refused(path, str(exc), result, device)
            return None
        row = self.db.query("SELECT status FROM sync_peers WHERE device = ?", (device,))
        old = json.loads(row[0][0]) if row and row[0][0] else {}
        if int(status.get("counter") or 0) < int(old.get("counter") or 0):
            return trusted  # an older status delivered again: the newer one stands
        with self.db.transaction() as conn:
            conn.execute(
                "INSERT INTO sync_peers(device, name, status, signing, agreement) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT(device) DO UPDATE SET name = excluded.name, "
                "status = excluded.status, signing = coalesce(sync_peers.signing, excluded.signing), "
                "agreement = excluded.agreement",
                (device, str(status.get("name") or "")[:60], json.dumps(status), trusted,
                 str(status.get("agreement") or "")),
            )  # fmt: skip
        return trusted
