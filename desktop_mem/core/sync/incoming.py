"""Reading another computer's files: its status (who it is), then its snapshot when
this computer is further behind than its change files reach, and its change files in
order, each applied in steps committed with how far they got (a pass stopped or
killed half-way goes on from there, and nothing is applied twice).

A file that does not open (an engine still delivering it, or damaged, or refused) does
not stop the others for good: a file still arriving is waited for a while
(core/sync/reading.py); past that, or at once when it is refused, this computer goes on
from the newest snapshot when there is one beyond it, and otherwise says once that it
is stuck there, in its status too, so that the writer writes a fresh snapshot. A file
already applied whose content changes since is read again."""

from __future__ import annotations

import itertools
import json
import logging
from pathlib import Path

from desktop_mem.core.errors import SyncRefused
from desktop_mem.core.events import SyncProgress
from desktop_mem.core.sync import capture, files, frame
from desktop_mem.core.sync.keys import KeyChain
from desktop_mem.core.sync.lawful import Lawful
from desktop_mem.core.sync.outgoing import Outgoing
from desktop_mem.core.sync.own import mark_of
from desktop_mem.core.sync.reading import Blocked, Reading
from desktop_mem.core.sync.state import Pass, SyncState, now_iso

log = logging.getLogger(__name__)

APPLY_BATCH = 5000  # records of another computer's file applied (and committed) at a time


def arriving(exc: SyncRefused) -> bool:
    """Whether a file refused may still become whole (an engine delivering it)."""
    final = getattr(exc, "final", None)
    if isinstance(final, bool):
        return not final
    reason = str(exc)
    # a key this computer does not hold yet: the key file that gives it is on its way
    return any(w in reason for w in ("cut short", "cannot be read", "does not hold"))


class Incoming:
    """What this computer takes in from the others' files."""

    def __init__(self, state: SyncState, outgoing: Outgoing) -> None:
        self.state = state
        self.outgoing = outgoing
        self.profile = state.profile
        self.db = state.db
        self.reading = Reading(state)
        self.lawful = Lawful(state)

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
        before = json.dumps(self.reading.of(device), sort_keys=True)
        # a change file refused for what it is blocks the reader as a damaged one does: it
        # goes on from a snapshot beyond it, or says it is stuck (the writer answers). A
        # snapshot refused so is no place to go on from: one planted under a number above
        # the writer's files would hold the reader there for good
        changes, snaps = layout.to_read(device)
        present = {files.changes_name(n) for n in changes}
        present |= {files.snapshot_name(n) for n in snaps}
        self.read_again(layout, chain, device, signing, present, result)
        pos = applied
        blocked: Blocked | None = None
        while True:
            nxt = pos + 1
            snap = snaps[-1] if snaps and snaps[-1] > pos else 0
            if nxt in changes:
                blocked = self._take(layout, chain, device, signing, "changes", nxt, result)
                if blocked is None:
                    pos = nxt
                    continue
                if self.reading.wait(device, blocked):
                    break  # still arriving: the snapshot is not worth reading for it yet
            elif not snap:
                if not any(n > nxt for n in changes):
                    blocked = None
                    break  # everything it wrote, taken in
                path = layout.device(device) / files.changes_name(nxt)
                blocked = Blocked(path.name, "it has not arrived", True, None)
                if self.reading.wait(device, blocked):
                    break  # a later one came first: this one is on its way
            if snap:  # the next change file is gone (compacted) or does not open
                blocked = self._take(layout, chain, device, signing, "snapshot", snap, result)
                if blocked is None:
                    pos = snap
                    continue
                if self.reading.wait(device, blocked):
                    break
            self._stuck(device, blocked, result)
            break
        if blocked is None:
            self.reading.clear(device)
        elif not self.reading.stuck(device):
            result.waiting.append(device)
        if json.dumps(self.reading.of(device), sort_keys=True) != before:
            with self.db.transaction() as conn:
                self.reading.save(conn)
        with self.db.transaction() as conn:
            reached = self.peer(device)[0]
            newest = max([*changes, *snaps, 0])
            if reached >= newest:
                conn.execute(
                    "UPDATE sync_peers SET seen_at = ? WHERE device = ?", (now_iso(), device)
                )

    def _take(
        self,
        layout: files.Layout,
        chain: KeyChain,
        device: str,
        signing: str,
        kind: str,
        n: int,
        result: Pass,
    ) -> Blocked | None:
        """Apply one file; what blocks it, if it does not open."""
        name = files.snapshot_name(n) if kind == "snapshot" else files.changes_name(n)
        path = layout.device(device) / name
        try:
            self.apply_file(layout, chain, device, signing, kind, n, path, result)
        except SyncRefused as exc:
            log.debug("sync: %s not applied: %s", name, exc)
            return Blocked(name, str(exc), arriving(exc), mark_of(path))
        return None

    def _stuck(self, device: str, blocked: Blocked | None, result: Pass) -> None:
        """This computer cannot go on with a computer's files: said once (its status says
        so at every pass, and the writer answers with a fresh snapshot)."""
        if blocked is None or not self.reading.mark_stuck(device):
            return
        peer = self.peer_name(device)
        number = int(blocked.name[2:12]) if blocked.name[2:12].isdigit() else 0
        what = "snapshot" if blocked.name.startswith("s-") else "change file"
        if blocked.mark is None and blocked.arriving:
            state = "has not arrived"
        elif blocked.arriving:
            state = "has stayed cut short"
        else:
            state = f"is damaged ({blocked.why})"
        sentence = (
            f"{peer}'s {what} {number} ({blocked.name}) {state}: {peer} will send a fresh "
            "copy at its next sync."
        )
        log.warning("sync: %s", sentence)
        result.refused.append(sentence)

    def read_again(
        self,
        layout: files.Layout,
        chain: KeyChain,
        device: str,
        signing: str,
        present: set[str],
        result: Pass,
    ) -> None:
        """Files already applied whose content changed since: applied again, whole (an
        idempotent merge); those gone from the folder are forgotten."""
        kept = self.reading.of(device)["applied"]
        self.reading.gone(device, [name for name in kept if name not in present])
        for name, (digest, mark) in sorted(kept.items()):
            path = layout.device(device) / name
            now = mark_of(path)
            if now is None or now == mark:
                continue
            kind = "snapshot" if name.startswith("s-") else "changes"
            try:
                self.apply_file(
                    layout, chain, device, signing, kind, int(name[2:12]), path, result,
                    again=digest,
                )  # fmt: skip
            except SyncRefused as exc:
                log.debug("sync: %s changed and does not open: %s", name, exc)

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
        again: str | None = None,
    ) -> None:
        """Apply one file. `again`: the digest of the version of it applied before (the
        file is read again only when it is another version, and how far this computer
        has read stays as it is)."""
        mark = mark_of(path)
        # what its name says, and a key this computer holds, before the rest is read
        raw = frame.read_raw(
            path,
            layout.sync_id,
            kind,
            expect={"device": device, "seq": n},
            check=lambda header: chain.key(str(header.get("key"))),
        )
        raw.verify(signing)
        digest = raw.digest
        if again is not None and digest == again:
            with self.db.transaction() as conn:  # the same version, touched: nothing to read
                self.reading.applied(device, kind, path.name, digest, mark)
                self.reading.save(conn)
            return
        key = chain.key(str(raw.header.get("key")))
        total = raw.count(key)  # every part opens before any of it is applied
        # a large file (a snapshot, when joining or back after months) is applied in
        # steps, each committed with how far it got: a pass stopped or killed half-way
        # goes on from there, and nothing is applied twice. The place names the version
        # by its digest: a file whose content changed since is read from its start
        place = f"{device}:{kind}:{n}:{digest[:16]}"
        partial = json.loads(self.state.get("partial") or "{}")
        done = int(partial.get("done") or 0) if partial.get("file") == place else 0
        records = itertools.islice(raw.records(key), done, None)
        replica = self.state.replica()
        screen = self.lawful.screen(layout, chain, device)
        peer = self.peer_name(device)
        while True:
            batch = list(itertools.islice(records, APPLY_BATCH))
            done += len(batch)
            last = done >= total or len(batch) < APPLY_BATCH
            with self.db.transaction() as conn:
                if replica.pending():
                    self.outgoing.export_in(conn, replica)  # what changed here first gets its stamp
                capture.set_recording(conn, False)
                applied = replica.apply(conn, batch, screen)
                capture.set_recording(conn, True)
                if last:
                    if again is None:
                        conn.execute(
                            "INSERT INTO sync_peers(device, applied, applied_at) VALUES (?, ?, ?) "
                            "ON CONFLICT(device) DO UPDATE SET applied = excluded.applied, "
                            "applied_at = excluded.applied_at",
                            (device, n, now_iso()),
                        )
                    self.state.set(conn, {"partial": None})
                    self.reading.applied(device, kind, path.name, digest, mark)
                    self.reading.save(conn)
                else:
                    self.state.set(conn, {"partial": json.dumps({"file": place, "done": done})})
            result.applied.merge(applied)
            if total > APPLY_BATCH:
                self.profile.events.emit(SyncProgress(min(done, total), total, peer))
            if last:
                break
        result.files_read += 1

    def refused(self, path: Path, exc: SyncRefused, result: Pass, device: str) -> None:
        """A status that does not open: waited for while it may still be arriving, then
        said once."""
        reason = str(exc)
        blocked = Blocked(path.name, reason, arriving(exc), mark_of(path))
        log.debug("sync: %s not applied: %s", path.name, reason)
        before = json.dumps(self.reading.of(device), sort_keys=True)
        if self.reading.wait(device, blocked, "status"):
            result.waiting.append(device)
        elif self.reading.mark_stuck(device, "status"):
            result.refused.append(f"{path.name} from {self.peer_name(device)}: {reason}")
        if json.dumps(self.reading.of(device), sort_keys=True) != before:
            with self.db.transaction() as conn:
                self.reading.save(conn)

    def _told(self, device: str, status: dict[str, object]) -> None:
        """What another computer's status says of this computer's files: the versions it
        took in (one this computer did not write is a copy of it at work), and where it
        is stuck (a fresh snapshot answers)."""
        me = self.state.device
        read = status.get("read")
        for item in (read.get(me) if isinstance(read, dict) else None) or []:
            if isinstance(item, list) and len(item) == 2 and all(isinstance(x, str) for x in item):
                self.outgoing.ledger.reported(item[0], item[1])
        stuck = status.get("stuck")
        at = stuck.get(me) if isinstance(stuck, dict) else None
        if (
            isinstance(at, dict)
            and isinstance(at.get("file"), str)
            and self.outgoing.ledger.asked(device, at["file"], str(at.get("since")))
        ):
            log.info("sync: %s cannot go on past %s: a fresh snapshot answers",
                     self.peer_name(device), at["file"])  # fmt: skip
            self.outgoing.asked = True
        back = status.get("give_back")
        if type(back) is int and back > 0:  # it asks for its own records back
            self.outgoing.give_back(device, back)
        applied = status.get("applied")
        if isinstance(applied, dict):
            self.outgoing.given(device, applied.get(me))

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
            raw = frame.read_raw(path, layout.sync_id, "status")
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
            self.refused(path, exc, result, device)
            return None
        if self.reading.of(device).pop("status", None) is not None:
            with self.db.transaction() as conn:
                self.reading.save(conn)
        row = self.db.query("SELECT status FROM sync_peers WHERE device = ?", (device,))
        old = json.loads(row[0][0]) if row and row[0][0] else {}
        if int(status.get("counter") or 0) < int(old.get("counter") or 0):
            return trusted  # an older status delivered again: the newer one stands
        self._told(device, status)
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
