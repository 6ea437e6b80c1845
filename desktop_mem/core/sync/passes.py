"""A pass (`Syncer.run`): this computer's files written and the others' read, under a
lock so one process at a time syncs a profile here (what the user asks of the sync that
touches the folder takes the same lock: core/sync/actions.py).

Its steps:

1. read the key files (a new generation, or this computer removed);
2. check this computer's own files in the folder against what it wrote
   (core/sync/own.py): those the engine damaged, cut, rolled back or deleted are
   written again at this pass; a valid one it did not write means a copy of it is at
   work under its identity, and one of the two goes on as a new computer
   (core/sync/twins.py);
3. undo, once a removal is known here, what the removed computer wrote that the files
   of the computer carrying it do not hold (core/sync/lawful.py); take out an identity
   both copies of a computer left;
4. stamp what changed here and write it as this computer's next change file;
5. read every other computer's status, then its snapshot (when this computer is
   further behind than its change files reach) and its change files in order, each
   applied in steps committed with how far they got; a file that does not open is
   waited for while it may still be arriving, then this computer goes on from a
   snapshot beyond it, or says once that it is stuck there (core/sync/incoming.py);
6. merge memories added on both sides with the same text;
7. compact this computer's files (a snapshot of what it wrote that still stands, the
   change files before it removed) when they have grown past the snapshot, when
   something it wrote was deleted, when one of them was damaged, or when another
   computer says it is stuck at one of them;
8. write its status: its name, what it has read of each computer, when, and where it
   is stuck.

Nothing in a pass depends on the wall clock except what a person reads ("2 min ago").
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from desktop_mem.core.db.connection import Connection
from desktop_mem.core.db.files import sibling
from desktop_mem.core.errors import SyncError, SyncRefused
from desktop_mem.core.events import MemoriesChanged, SyncChanged
from desktop_mem.core.jsontypes import JSONObject
from desktop_mem.core.keys import recovery
from desktop_mem.core.keys.vault import read_sidecar
from desktop_mem.core.sync import crypto, files, frame, merge, own, pairing, twins
from desktop_mem.core.sync.applying import Applied
from desktop_mem.core.sync.incoming import Incoming
from desktop_mem.core.sync.keys import KeyChain
from desktop_mem.core.sync.membership import Member
from desktop_mem.core.sync.outgoing import Outgoing
from desktop_mem.core.sync.quarantine import Quarantine
from desktop_mem.core.sync.state import Pass, SyncState, now_iso
from desktop_mem.core.sync.status import origin_names

if TYPE_CHECKING:
    from desktop_mem.core.profile import Profile

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: SQLite's own locking still applies
    fcntl = None  # type: ignore[assignment]

log = logging.getLogger(__name__)


@dataclass
class Repair:
    """What a pass writes again of its own files (core/sync/own.py)."""

    files: bool = False  # a change file or snapshot: a fresh snapshot
    status: bool = False
    counter: int = 0  # a status counter another writer used under its name
    split: bool = False  # it went on as a new computer


class Passes:
    """The passes of one synced profile: the lock, each pass and its steps, and taking a
    computer out of the sync (a removal asked for, or an identity two copies left)."""

    def __init__(self, state: SyncState, outgoing: Outgoing, incoming: Incoming) -> None:
        self.state = state
        self.profile = state.profile
        self.db = state.db
        self.outgoing = outgoing
        self.incoming = incoming
        self._lock = threading.Lock()
        self.last_pass: Pass | None = None
        self.last_error: str | None = None

    # -- the lock ------------------------------------------------------------------------

    @contextlib.contextmanager
    def exclusive(self) -> Iterator[None]:
        """The pass lock for what the user asked for (joining again, moving, a pairing
        code, a removal); a pass that holds it for more than 30 s is said, not waited
        on."""
        with self._pass_lock(30.0) as mine:
            if not mine:
                raise SyncError(
                    "Another window or command is syncing this profile: try again.",
                    reason="sync_busy",
                )
            with self._quarantine():
                yield

    @contextlib.contextmanager
    def _quarantine(self) -> Iterator[Quarantine]:
        """Every read of the folder in this block consults the files refused at earlier
        passes (core/sync/quarantine.py), and what it refuses is kept for the next."""
        quarantine = Quarantine.loads(self.state.get("quarantine"))
        try:
            with files.guarded(quarantine):
                yield quarantine
        finally:
            if quarantine.changed:
                with self.db.transaction() as conn:
                    self.state.set(conn, {"quarantine": quarantine.dumps()})

    @contextlib.contextmanager
    def _pass_lock(self, wait_s: float) -> Iterator[bool]:
        """One pass at a time for this profile on this computer, across processes."""
        with self._lock:
            if fcntl is None:
                self.outgoing.ledger.reload()
                self.incoming.reading.reload()
                yield True
                return
            path = sibling(self.db.path, ".sync.lock")
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
            try:
                deadline = time.monotonic() + wait_s
                while True:
                    try:
                        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                        break
                    except BlockingIOError:
                        if time.monotonic() >= deadline:
                            yield False
                            return
                        time.sleep(0.05)
                # another process (the window, a command) may have synced since: what it
                # keeps of its files is read as kept, not as this one last saw it
                self.outgoing.ledger.reload()
                self.incoming.reading.reload()
                yield True
            finally:
                os.close(fd)

    # -- a pass ----------------------------------------------------------------------------

    def run(self, compact: bool | None = None, wait_s: float = 30.0) -> Pass:
        """One pass. `compact`: True to compact now, False never, None as needed."""
        if not self.state.enabled:
            raise SyncError("This profile is not synced.", reason="sync_off")
        with self._pass_lock(wait_s) as mine:
            if not mine:
                raise SyncError(
                    "Another window or command is syncing this profile right now: try again "
                    "in a moment.",
                    reason="sync_busy",
                )
            try:
                # the sync state read once for the pass (it holds the lock: no one else
                # writes it meanwhile)
                with self.state.held(), self._quarantine() as quarantine:
                    result = self._run(compact, quarantine)
            except SyncError as exc:
                self.last_error = str(exc)
                self.profile.events.emit(SyncChanged("error"))
                raise
        self.last_error = "; ".join(result.refused) or None
        self.last_pass = result
        self._announce(result)
        return result

    def _run(self, compact: bool | None, quarantine: Quarantine) -> Pass:
        """The steps of the module's docstring, in its order."""
        result = Pass()
        layout = self._folder(result)
        chain = self._read_keys(layout, result)  # 1
        chain, repair = self._check_own_files(layout, chain, result)  # 2
        keys = self.state.device_keys()  # a new computer's, when it went on as one at 2
        self._removals(layout, chain, keys, result)  # 3
        writes = chain.current is not None  # not while it waits for the key others use
        if writes:
            self._send(layout, chain, keys, result)  # 4
        self._read_others(layout, chain, result)  # 5
        result.merged = self._merge_duplicates(result.applied)  # 6
        if result.merged and writes:
            self._send(layout, chain, keys, result)  # the deletions that makes, at once
        self._compact(layout, chain, keys, writes, compact, repair, result)  # 7
        if writes:
            self.outgoing.write_status(layout, chain, keys, repair.status, repair.counter)  # 8
        self._close(quarantine, result)
        return result

    # -- its steps -----------------------------------------------------------------------

    def _folder(self, result: Pass) -> files.Layout:
        """The profile's folder, there and real (a link as it, or as its keys folder, is
        said, never acted through); this computer's own folder a real one, and what
        temporary files a write of its own killed half-way left, removed."""
        layout = self.state.layout()
        if not self.state.folder.is_dir() or not layout.check():
            raise SyncError(
                f"The sync folder {self.state.folder} is not there (a drive not connected, or the "
                "folder moved or deleted): connect it, or choose the folder again in Settings.",
                reason="sync_folder_missing",
            )
        if found := layout.own_folder(self.state.device):
            result.refused.append(found)
        layout.clear_temporary(self.state.device)
        return layout

    def _read_keys(self, layout: files.Layout, result: Pass) -> KeyChain:
        """1. The key chain as kept, refreshed with what the key files say now (nothing,
        when it joined with the recovery code alone and the folder now holds another
        start); a start planted beside its own, taken out (core/sync/pairing.py)."""
        chain = self.state.chain()
        contested = pairing.contested(layout, chain)
        if contested != chain.contested:
            chain.contested = contested
            self.keep(chain)
        if contested:
            # taken out (or left out) by what the records say, it says so first, as any
            # computer would: both ways back are the same, joining again
            probe = self.state.chain()
            try:
                with files.guarded(Quarantine()):  # a look: what it refuses is said later
                    probe.refresh(layout, self.state.device, self.state.device_keys())
            except SyncError as exc:
                if exc.reason in ("sync_removed", "sync_left_out"):
                    self.refresh_keys(layout, chain, self.state.device_keys(), result)
            raise SyncError(pairing.CONTESTED, reason="sync_contested")
        self.refresh_keys(layout, chain, self.state.device_keys(), result)
        result.refused += pairing.clear_planted(layout, chain)
        return chain

    def _check_own_files(
        self, layout: files.Layout, chain: KeyChain, result: Pass
    ) -> tuple[KeyChain, Repair]:
        """2. This computer's own files against what it wrote: a restored or copied
        profile, or a copy of it at work under its identity, goes on as a new computer
        (the key chain then read again as kept); what to write again."""
        if self._check_copy(layout, result):
            chain = self._reloaded(chain)
        repair = self._check_own(layout, chain)
        if repair.split:
            chain = self._reloaded(chain)
        return chain, repair

    def _removals(
        self, layout: files.Layout, chain: KeyChain, keys: crypto.DeviceKeys, result: Pass
    ) -> None:
        """3. A removal known here for the first time: what the removed computer wrote
        that its carrier's files do not hold is undone, and the others are read again
        (core/sync/lawful.py). An identity both copies of a computer left, taken out."""
        lawful = self.incoming.lawful
        result.undone += lawful.sweep(layout, chain, self.incoming.reading, self._stamp_pending)
        result.applied.lost += lawful.lost
        self._retire(layout, chain, keys)
        self._retire_former(layout, chain, keys)

    def _send(
        self, layout: files.Layout, chain: KeyChain, keys: crypto.DeviceKeys, result: Pass
    ) -> None:
        """4. What changed here, stamped and written as this computer's next change file."""
        result.sent += self.outgoing.export()
        self.outgoing.write_pending(layout, chain, keys)

    def _read_others(self, layout: files.Layout, chain: KeyChain, result: Pass) -> None:
        """5. Every other computer's files that are in the sync read and applied
        (core/sync/incoming.py); then the names of those that joined, once their status
        has been read."""
        device = self.state.device
        members = chain.members
        former = self._former_ids(chain) - set(members)
        for peer in layout.devices():
            if peer == device:
                continue
            if peer in chain.removed or peer in former:
                # taken out of the sync: what it wrote before is carried by the others,
                # what it wrote after is refused. A computer that wrote before it learned
                # so leaves its folder again, with texts deleted since in it: it goes
                # (what it holds is sent again when it joins again). So does the folder
                # of an id a computer had before it joined again (left out, not removed:
                # nothing else takes it out), which an engine may bring back after the
                # computer removed it
                files.remove_tree(layout.device(peer))
                continue
            if peer not in members:
                continue  # not let in (yet): nothing of it is read
            self.incoming.read_peer(layout, chain, peer, result)
        self._gone(chain)
        names = origin_names(self.state)
        for j in result.joined:
            j["name"] = names.get(j["device"]) if self.incoming.peer(j["device"])[2] else None
            j["by_name"] = names.get(j["by"] or "")

    def _gone(self, chain: KeyChain) -> None:
        """The other computers listed are the members, as the records say: an id a
        computer had before it joined again (each is listed under its new id), or one
        the thief let in while its removal was kept from this computer and that the
        records no longer count, would stand there for good, never read again, behind
        on everything. One that is a member again is listed again (the thief's records
        may leave an honest computer out for a time, or name it among an id's former
        ones)."""
        me = self.state.device
        members = chain.members
        if chain.membership is None or me not in members:
            return  # (who is in is not known here now)
        rows = self.db.query("SELECT device, removed FROM sync_peers")
        hide = {str(d) for d, removed in rows if not removed and d not in members and d != me}
        mine = self.state.former()
        show = {
            str(d)
            for d, removed in rows
            if removed and d in members and d not in chain.removed and d not in mine
        }
        if hide or show:
            with self.db.transaction() as conn:
                conn.executemany(
                    "UPDATE sync_peers SET removed = ? WHERE device = ?",
                    [(1, d) for d in sorted(hide)] + [(0, d) for d in sorted(show)],
                )

    def _former_ids(self, chain: KeyChain) -> set[str]:
        """The ids computers in the sync had before they joined again: this one's, and
        those the joins that let the others in name (signed by whoever let them in)."""
        former = set(self.state.former())
        if chain.membership is not None:
            members = chain.members
            for join in chain.membership.used.values():
                if join.device in members:
                    former |= set(join.former)
        return former

    def _compact(
        self,
        layout: files.Layout,
        chain: KeyChain,
        keys: crypto.DeviceKeys,
        writes: bool,
        compact: bool | None,
        repair: Repair,
        result: Pass,
    ) -> None:
        """7. Its own files compacted (core/sync/outgoing.py) when they are due (grown
        past the snapshot, or something it wrote was deleted), or at once when one of
        them was damaged, another computer is stuck at one of them, or a computer was
        taken out since the last snapshot (its files are sealed with keys it holds): a
        fresh snapshot of everything still standing, under the key of now (the damaged
        change files go with the others). Then
        its files the snapshot replaced, removed."""
        if result.applied.own_removed or result.applied.memories_removed:
            self.outgoing.deleted_at = self.outgoing.deleted_at or time.monotonic()
        needed = repair.files or self.outgoing.asked or self.outgoing.sealed_for_removed(chain)
        if (
            writes
            and compact is not False
            and (needed or self.outgoing.should_compact(layout, compact))
        ):
            self.outgoing.compact(layout, chain, keys)
            result.compacted = True
        self.outgoing.clean_own(layout)

    def _close(self, quarantine: Quarantine, result: Pass) -> None:
        """The pass's end: the counts of files every computer has taken in, forgotten; the
        files refused while the folder was listed, said; when it ran, kept; and what was
        replaced or deleted, gone from the WAL too."""
        self.outgoing.forget_received()
        result.refused += [self._said(place, why) for place, why in quarantine.unsaid()]
        result.ignored = quarantine.ignored
        with self.db.transaction() as conn:
            self.state.set(
                conn,
                {
                    "last_pass": now_iso(),
                    "ignored": str(quarantine.ignored + quarantine.refused_now),
                },
            )
        if result.sent or result.applied.anything:
            # what was replaced or deleted (a record's old text) leaves the WAL too, as a
            # deletion here does: secure_delete zeroed the freed pages, the checkpoint
            # writes them back over the old ones
            self.db.checkpoint()

    def _said(self, place: str, why: str) -> str:
        """One sentence for a file refused while its folder was listed."""
        first, _, name = place.partition("/")
        if files.DEVICE.fullmatch(first):
            whose = self.incoming.peer_name(first)
            return f"{name} from {whose}: {why}" if name else f"the folder of {whose}: {why}"
        return f"{place}: {why}"

    def refresh_keys(
        self,
        layout: files.Layout,
        chain: KeyChain,
        keys: crypto.DeviceKeys,
        result: Pass,
        announce: bool = True,
    ) -> None:
        """What the signed records say now: removed, left out, waiting to be let in, or
        in; the computers let in with a code this computer showed; a new generation when
        the sync is not settled (and this computer holds the key to write with)."""
        before = json.dumps(chain.to_dict(), sort_keys=True)
        try:
            refreshed = chain.refresh(layout, self.state.device, keys, self._grandfathered())
            result.refused += refreshed.refused
            result.let_in, result.let_in_by = refreshed.let_in, refreshed.let_in_by
            result.waiting_for = refreshed.waiting
            if refreshed.waiting is None:
                admitted, noted = pairing.admit(
                    chain, layout, self.state.device, keys, self._signing
                )
                result.refused += noted
                if admitted:
                    refreshed = chain.refresh(layout, self.state.device, keys)
                if refreshed.needs_generation:
                    lock = lock_of(self.profile) or (chain.current.lock if chain.current else None)
                    chain.new_generation(
                        layout, self.state.device, keys, lock, signing=self._signing
                    )
                    log.info(
                        "sync: wrote generation %d", chain.current.number if chain.current else 0
                    )
                    chain.refresh(layout, self.state.device, keys)
                pairing.clear_offers(chain, layout, self.state.device)
                if announce:  # (a removal or a code shown leaves it to the next pass)
                    result.joined = self._joined(chain)
        finally:
            if json.dumps(chain.to_dict(), sort_keys=True) != before:
                with self.db.transaction() as conn:
                    self.state.set(conn, {"keys": json.dumps(chain.to_dict())})
                    for device in sorted(chain.removed):
                        conn.execute(
                            "UPDATE sync_peers SET removed = 1 WHERE device = ?", (device,)
                        )

    def _signing(self, name: str) -> frame.Staged:
        """A membership record this computer signs (keys/`name`), kept as its own before
        it takes its name: a pass killed after that and before the key chain is kept
        (which says what it wrote) does not take it, at the next, for the work of a copy
        of this computer under its identity (core/sync/own.py)."""
        return self.outgoing.ledger.staged(own.KEYS + name)

    def keep(self, chain: KeyChain) -> None:
        with self.db.transaction() as conn:
            self.state.set(conn, {"keys": json.dumps(chain.to_dict())})

    def _grandfathered(self) -> dict[str, Member]:
        """The computers this one had met under 0.4 (by their status files): trusted as
        it trusted them, once, when it first reads the records with these rules."""
        return {
            r[0]: Member(r[1], r[2])
            for r in self.db.query(
                "SELECT device, agreement, signing FROM sync_peers WHERE removed = 0 AND "
                "agreement IS NOT NULL AND agreement <> '' AND signing IS NOT NULL"
            )
        }

    def _joined(self, chain: KeyChain) -> list[dict[str, Any]]:
        """The computers in the sync this one had not seen yet: each is said once ("laptop
        joined"), so a computer let in by someone else is noticed. Those already there
        when this computer itself joined are not news."""
        m = chain.membership
        if m is None:
            return []
        raw = self.state.get("seen")
        seen = set(json.loads(raw)) if raw else None
        new = sorted(d for d in m.members if d != self.state.device and d not in (seen or set()))
        if not new and seen is not None:
            return []
        with self.db.transaction() as conn:
            self.state.set(conn, {"seen": json.dumps(sorted((seen or set()) | set(new)))})
            conn.executemany(
                "INSERT OR IGNORE INTO sync_peers(device, applied) VALUES (?, 0)",
                [(d,) for d in new],
            )
        if seen is None:
            return []  # the first time: every one of them was there before this computer
        out = []
        for device in new:
            join = m.joins.get(device)
            out.append({
                "device": device,
                "via": join.via if join is not None else "key",
                "offered_at": join.offered_at if join is not None else None,
                "by": join.voucher if join is not None else None,
            })  # fmt: skip
        return out

    def _check_copy(self, layout: files.Layout, result: Pass) -> bool:
        """This profile was restored from a backup, or copied, while synced: the folder
        holds files of this computer numbered past what the profile knows it wrote. It
        goes on as a new computer (core/sync/twins.py), so no file is written twice under
        one name; what the folder holds of its earlier self comes back to it like another
        computer's. Returns whether it did.

        A change file numbered up to what this profile stamped is its own: a pass killed
        after the file was in place but before it recorded so. The next pass writes it
        again under the same name. (Taking it for a copy left the computer's own folder
        behind for good, with texts deleted since in it.)

        A file above that counts only when this computer signed it: anyone can put a file
        under the next number in its folder, and would otherwise make it go on as a new
        computer at will."""
        changes, snaps = layout.numbered(self.state.device)
        mark = max(self.state.int("written"), self.state.int("seq"))
        above = [("changes", n) for n in changes if n > mark]
        above += [("snapshot", n) for n in snaps if n > mark]
        if not any(self._signed_here(layout, kind, n, result) for kind, n in above):
            return False
        twins.split(self.state, self.outgoing, layout)
        return True

    def _check_own(self, layout: files.Layout, chain: KeyChain) -> Repair:
        """This computer's own files in the folder, compared with what it wrote: what to
        write again; and a copy of it at work under its identity, settled."""
        before = chain.written
        found = self.outgoing.ledger.check(
            layout, chain, self.state.device_keys().public["signing"]
        )
        if chain.written != before:
            self.keep(chain)
        repair = Repair(found.files, found.status, found.counter)
        for name in found.restored:
            log.info("sync: wrote back this computer's %s in keys/", name)
        if not found.foreign:
            return repair
        if found.twin_left:  # the other copy went on as a new computer: this one stays
            twins.keep(self.state, self.outgoing, [d for _n, d in found.foreign])
            return Repair(True, True, found.counter)
        twins.split(self.state, self.outgoing, layout)
        return Repair(split=True)

    def _reloaded(self, chain: KeyChain) -> KeyChain:
        """The key chain as kept (a join was just added to it), with what the pass's
        refresh found."""
        fresh = self.state.chain()
        fresh.membership, fresh.bodies = chain.membership, chain.bodies
        return fresh

    def _signed_here(self, layout: files.Layout, kind: str, n: int, result: Pass) -> bool:
        """Whether this computer's file `n` in its own folder is one it signed."""
        name = files.changes_name(n) if kind == "changes" else files.snapshot_name(n)
        path = layout.device(self.state.device) / name
        expect = {"device": self.state.device, "seq": n}
        try:
            frame.read_raw(path, layout.sync_id, kind, expect).verify(
                self.state.device_keys().public["signing"]
            )
        except files.Quarantined:
            return False
        except SyncRefused as exc:
            result.refused.append(f"{name} in this computer's own folder: {exc}")
            return False
        return True

    # -- after reading -------------------------------------------------------------------

    def _merge_duplicates(self, applied: Applied) -> int:
        """6. Memories added on two computers with the same text end up once: on every
        computer the same one stays (the lower uid: core/sync/merge.py), its twin is deleted
        like any memory."""
        if not applied.new_memories:
            return 0
        twins: set[int] = set()
        for chunk in _chunks(sorted(applied.new_memories)):
            marks = ",".join("?" * len(chunk))
            for mid, uid, hash_ in self.db.query(
                f"SELECT id, uid, content_hash FROM memories WHERE id IN ({marks})", chunk
            ):
                others = self.db.query(
                    "SELECT id, uid FROM memories WHERE content_hash = ? AND id <> ?", (hash_, mid)
                )
                for oid, ouid in others:
                    twins.add(merge.duplicate_dropped((mid, uid), (oid, ouid)))
        if not twins:
            return 0
        self.profile.memories.delete(sorted(twins))
        return len(twins)

    def _announce(self, result: Pass) -> None:
        """The pass ended. (The rows it wrote were announced by their stores as each
        step committed.)"""
        events = self.profile.events
        if result.applied.conflicts:
            events.emit(MemoriesChanged("changed", ()))
        events.emit(SyncChanged("synced"))

    # -- taking a computer out ---------------------------------------------------------

    def _stamp_pending(self, conn: Connection) -> None:
        """What changed here since the last pass gets its stamp now (filed in the next
        change file, written later in the pass)."""
        replica = self.state.replica()
        if replica.pending():
            self.outgoing.export_in(conn, replica)

    def take_out(
        self, layout: files.Layout, chain: KeyChain, keys: crypto.DeviceKeys, device: str
    ) -> None:
        """A new generation without `device`; what it wrote that stands carried by this
        computer from now on; its folder gone."""
        lock = lock_of(self.profile) or (chain.current.lock if chain.current else None)
        chain.new_generation(
            layout, self.state.device, keys, lock, removed={device}, signing=self._signing
        )
        with self.db.transaction() as conn:
            self.state.set(conn, {"keys": json.dumps(chain.to_dict())})
            conn.execute("UPDATE sync_peers SET removed = 1 WHERE device = ?", (device,))
            # what it wrote that stands is this computer's to carry from now on, and what
            # it carried of the computers removed before it (whose carrier it may have
            # been: core/sync/lawful.py): all of it goes out in this computer's files
            self.incoming.lawful.carry(conn, sorted({device, *chain.removed}))
        # its standing records go out under this computer's name, their stamps
        # unchanged, and stay in every snapshot after (the replica carries the
        # records of every computer taken out)
        self.outgoing.write_pending(layout, chain, keys)
        files.remove_tree(layout.device(device))

    def _retire(self, layout: files.Layout, chain: KeyChain, keys: crypto.DeviceKeys) -> None:
        """Both copies of a computer went on as new computers (each found the other's
        files before it saw that the other had gone): the identity they shared is no
        one's now, and its folder would stay for good, with texts deleted since in it.
        Each of the new ones takes it out of the sync, as a removal (whichever of them
        still can); everything in it was sent again by the two (core/sync/twins.py)."""
        old = self.state.get("split_from")
        if old is None or chain.current is None:
            return
        heirs = twins.heirs(chain, old, self.outgoing.ledger)
        if old in chain.removed:  # done (by this computer, the other new one, or a person)
            with self.db.transaction() as conn:
                self.state.set(conn, {"split_from": None})
        elif len(heirs) > 1:  # each of them does (two new keys made apart are merged)
            log.info("sync: both copies of a computer went on as new ones: its old id leaves")
            self.take_out(layout, chain, keys, old)
            with self.db.transaction() as conn:
                self.state.set(conn, {"split_from": None})

    def _retire_former(
        self, layout: files.Layout, chain: KeyChain, keys: crypto.DeviceKeys
    ) -> None:
        """An id this computer had before it joined again that is a member still: the
        computers' views of who is in can differ (each trusts what it was let in with),
        so one that was told it was left out may be counted in by another that it then
        joined again through. No computer acts as that id now: a computer waiting on a
        pairing code it showed would wait for good, and the others would list it beside
        the new one. It takes it out, as a removal; what the old id wrote went out again
        under the new one when it joined again."""
        me = self.state.device
        if chain.current is None or me not in chain.members:
            return
        for old in sorted(self.state.former() & set(chain.members)):
            log.info("sync: an id this computer had before it joined again leaves")
            self.take_out(layout, chain, keys, old)


def _chunks(ids: list[int], size: int = 500) -> Iterator[list[int]]:
    for start in range(0, len(ids), size):
        yield ids[start : start + size]


def lock_of(profile: Profile) -> JSONObject | None:
    """The profile's recovery lock (the public half of its recovery code), if it has one."""
    record = read_sidecar(profile.db.path).get("recovery")
    if not isinstance(record, dict):
        return None
    try:
        lock = recovery.RecoveryLock.from_dict(record)
    except Exception:  # noqa: BLE001 - a damaged record: sync without it
        return None
    return None if lock is None else lock.to_dict()
