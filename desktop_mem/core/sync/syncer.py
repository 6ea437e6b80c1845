"""One profile synced through a folder: setting it up, joining it, and each pass.

A pass (`Syncer.run`), under a lock so one process at a time syncs a profile here:

1. read the key files (a new generation, or this computer removed);
2. check this computer's own files in the folder against what it wrote
   (core/sync/own.py): those the engine damaged, cut, rolled back or deleted are
   written again at this pass; a valid one it did not write means a copy of it is at
   work under its identity, and one of the two goes on as a new computer
   (core/sync/twins.py);
3. stamp what changed here and write it as this computer's next change file;
4. read every other computer's status, then its snapshot (when this computer is
   further behind than its change files reach) and its change files in order, each
   applied in steps committed with how far they got; a file that does not open is
   waited for while it may still be arriving, then this computer goes on from a
   snapshot beyond it, or says once that it is stuck there (core/sync/incoming.py);
5. merge memories added on both sides with the same text;
6. compact this computer's files (a snapshot of what it wrote that still stands, the
   change files before it removed) when they have grown past the snapshot, when
   something it wrote was deleted, when one of them was damaged, or when another
   computer says it is stuck at one of them;
7. write its status: its name, what it has read of each computer, when, and where it
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
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from desktop_mem.core.db.connection import Connection
from desktop_mem.core.db.files import sibling
from desktop_mem.core.errors import SyncError, SyncRefused
from desktop_mem.core.events import KeyChanged, MemoriesChanged, SyncChanged
from desktop_mem.core.keys import recovery
from desktop_mem.core.keys.vault import read_sidecar, write_key_mode
from desktop_mem.core.sync import capture, confirm, crypto, files, lost, merge, pairing, twins
from desktop_mem.core.sync.applying import Applied
from desktop_mem.core.sync.incoming import APPLY_BATCH, Incoming
from desktop_mem.core.sync.keys import KeyChain
from desktop_mem.core.sync.lost import Lost
from desktop_mem.core.sync.membership import Member
from desktop_mem.core.sync.outgoing import Outgoing
from desktop_mem.core.sync.quarantine import Quarantine
from desktop_mem.core.sync.reading import Reading
from desktop_mem.core.sync.replica import Replica
from desktop_mem.core.sync.state import Pass, Peer, SyncState, default_name, now_iso

if TYPE_CHECKING:
    from desktop_mem.core.profile import Profile

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: SQLite's own locking still applies
    fcntl = None  # type: ignore[assignment]

log = logging.getLogger(__name__)

__all__ = ["APPLY_BATCH", "Pass", "Peer", "Syncer", "default_name"]

NAME_KEPT = "computer_name"  # outside sync.*: kept when sync is turned off


@dataclass
class Repair:
    """What a pass writes again of its own files (core/sync/own.py)."""

    files: bool = False  # a change file or snapshot: a fresh snapshot
    status: bool = False
    counter: int = 0  # a status counter another writer used under its name
    split: bool = False  # it went on as a new computer


class Syncer:
    """The sync of one open profile (its state lives in the profile's `meta`): setting
    it up, joining, each pass (this computer's own files in `outgoing`, the others' in
    `incoming`), removing a computer, and what the window and `sync status` show."""

    def __init__(self, profile: Profile) -> None:
        self.profile = profile
        self.db = profile.db
        self.state = SyncState(profile)
        self.outgoing = Outgoing(self.state)
        self.incoming = Incoming(self.state, self.outgoing)
        self._lock = threading.Lock()
        self.last_pass: Pass | None = None
        self.last_error: str | None = None

    # -- state ---------------------------------------------------------------------------

    @property
    def enabled(self) -> bool:
        return self.state.enabled

    @property
    def device(self) -> str:
        return self.state.device

    @property
    def name(self) -> str:
        return self.state.name

    @property
    def folder(self) -> Path:
        return self.state.folder

    def layout(self) -> files.Layout:
        return self.state.layout()

    def chain(self) -> KeyChain:
        return self.state.chain()

    def device_keys(self) -> crypto.DeviceKeys:
        return self.state.device_keys()

    def replica(self) -> Replica:
        return self.state.replica()

    # -- setting up ----------------------------------------------------------------------

    def set_up(self, folder: Path, name: str | None = None) -> None:
        """Sync this profile through `folder` (one an engine carries): make its sync
        key and this computer's keys, and send everything it holds."""
        if self.enabled:
            raise SyncError(
                f"This profile already syncs through {self.folder}: turn sync off first to "
                "use another folder.",
                reason="sync_on",
            )
        folder = _usable_folder(folder)
        sync_id = crypto.new_id()
        device = crypto.new_id()
        keys = crypto.DeviceKeys.generate()
        layout = files.Layout.of(folder, sync_id)
        layout.root.mkdir(parents=True, exist_ok=False)
        chain = KeyChain(sync_id)
        chain.start(layout, device, keys, _lock_of(self.profile))
        self._start(folder, sync_id, device, keys, chain, name)

    def join(self, folder: Path, chain: KeyChain, name: str | None = None) -> str:
        """Join the profile synced through `folder` with the keys a code opened. This
        profile must be new (nothing in it yet): it becomes a copy of the synced one.

        Returns which recovery code opens this copy from now on, for the front ends to
        say: "synced" (the synced profile's: the code this profile was made with, shown
        at its first start, no longer does), "own" (the synced profile has none, its
        computers use a passphrase: this copy keeps its own code), or "none" (this
        profile has no recovery code: a passphrase opens it)."""
        if self.enabled:
            raise SyncError("This profile already syncs: turn sync off first.", reason="sync_on")
        counts = self.db.query(
            "SELECT (SELECT count(*) FROM memories) + (SELECT count(*) FROM conversations)"
        )[0][0]
        if counts:
            raise SyncError(
                "Only a new, empty profile can join a synced one (this one holds memories or "
                "conversations): join into a new profile.",
                reason="sync_not_empty",
            )
        folder = _usable_folder(folder)
        device = crypto.new_id()
        keys = crypto.DeviceKeys.generate()
        recovering = chain.authority_key is not None  # the recovery code opened it
        if recovering:
            confirm.check_join(files.Layout.of(folder, chain.sync_id), chain)
        self._let_in(files.Layout.of(folder, chain.sync_id), chain, device, keys)
        self._start(folder, chain.sync_id, device, keys, chain, name)
        lock = chain.current.lock if chain.current else None
        if lock and _adopt_lock(self.profile, lock):
            return "synced"
        return "own" if _lock_of(self.profile) else "none"

    @staticmethod
    def _let_in(
        layout: files.Layout, chain: KeyChain, device: str, keys: crypto.DeviceKeys
    ) -> None:
        """This computer's way in: its join signed with the recovery authority (the
        recovery code opened it), or its request to the computer that showed the pairing
        code (it is in once that one signs its join, at its next pass)."""
        if chain.authority_key is not None:
            pairing.let_in_with_recovery(chain, layout, device, keys)
        else:
            pairing.ask(chain, layout, device, keys)

    def kept_name(self) -> str:
        """This computer's name: as it syncs now, or as it was called when sync was
        last turned off here, or the system's."""
        if self.enabled:
            return self.name
        return self.db.meta_get(NAME_KEPT) or default_name()

    @property
    def removed_here(self) -> bool:
        """Another computer took this one out of the sync (or the one that let it in
        was taken out before the others knew of it)."""
        if not self.enabled:
            return False
        chain = self.chain()
        return self.device in chain.removed or chain.left_out

    def rejoin(self, folder: Path, chain: KeyChain) -> None:
        """This computer, taken out of the sync by another, joins it again with the keys
        a pairing code (or the recovery code) opened: as a new computer (a new id and
        new keys: nothing written under the old id can be mistaken for it), keeping
        everything it holds. What it changed since it was taken out is sent at the next
        pass; what the others did since is taken in from where it had read."""
        if not self.removed_here:
            raise SyncError("This computer still syncs: there is nothing to join again.",
                            reason="sync_on")  # fmt: skip
        if chain.sync_id != self.state.get("id"):
            raise SyncError(
                "That code opens another synced profile than the one this computer was "
                "taken out of: use a pairing code shown by one of its other computers.",
                reason="wrong_key",
            )
        folder = _usable_folder(folder)
        old = self.device
        carried = set(self.chain().removed)  # the computers removed whose records it carried
        # above every id it had: where a copy of it stamped a record with the same clock
        # under one of them, what it sends again comes after (core/sync/twins.py)
        device = twins.id_above(max(self.state.former() | {old}))
        keys = crypto.DeviceKeys.generate()
        recovering = chain.authority_key is not None  # the recovery code opened it
        if recovering:
            confirm.check_join(files.Layout.of(folder, chain.sync_id), chain)
        self._let_in(files.Layout.of(folder, chain.sync_id), chain, device, keys)
        with self._exclusive():
            with self.db.transaction() as conn:
                # its old self is one more computer taken out: its records are carried
                conn.execute(
                    "INSERT INTO sync_peers(device, name, applied, removed) VALUES (?, ?, 0, 1) "
                    "ON CONFLICT(device) DO UPDATE SET removed = 1",
                    (old, self.name),
                )
                self.state.set(
                    conn,
                    {
                        "folder": str(folder),
                        "device": device,
                        "device_keys": json.dumps(keys.to_dict()),
                        "keys": json.dumps(chain.to_dict()),
                        "seq": "0",
                        "written": "0",
                        "snapshot": "0",
                        "partial": None,
                        "status_digest": None,
                    },
                )
                conn.execute("DELETE FROM sync_sent")  # its file numbers start again
                self.outgoing.ledger.reset(conn)
                # what it wrote as its old self goes out again in its first change file:
                # the others may never have had some of it (its files were refused, or
                # removed with it); (and what it wrote as the selves before that, if it
                # joined again before). Under its new id, each with its clock unchanged:
                # a copy of it under the old id (a cloned disk) may have stamped other
                # content with the same stamps, which the new id now comes after. What it
                # carried of computers removed before goes out again too.
                former = sorted(self.state.former() | {old})
                replica = Replica(
                    self.profile, device, carried=carried | chain.removed | set(former)
                )
                moved = sum(replica.restamp(conn, f, 1) for f in former)
                if moved:
                    self.state.set(conn, {"seq": "1"})
                # and stays in every snapshot it writes: it is the one that carries it
                self.state.set(conn, {"former": json.dumps(former)})
            # its old folder goes: what it holds is sent again under its new id
            files.remove_tree(files.Layout.of(folder, chain.sync_id).device(old))
        self.last_error = None
        log.info("sync: this computer joined its sync again as a new computer")
        self.profile.events.emit(SyncChanged("on"))

    def _start(
        self,
        folder: Path,
        sync_id: str,
        device: str,
        keys: crypto.DeviceKeys,
        chain: KeyChain,
        name: str | None,
    ) -> None:
        with self.db.transaction() as conn:
            self.state.set(
                conn,
                {
                    "id": sync_id,
                    "folder": str(folder),
                    "device": device,
                    "name": (name or self.kept_name()).strip()[:60] or default_name(),
                    "device_keys": json.dumps(keys.to_dict()),
                    "keys": json.dumps(chain.to_dict()),
                    "seq": "0",
                    "written": "0",
                    "snapshot": "0",
                    "since": now_iso(),
                    "seen": json.dumps(sorted(chain.members)),
                },
            )
            conn.execute("DELETE FROM sync_sent")
            Replica(self.profile, device).enrol(conn)
        self.profile.events.emit(SyncChanged("on"))

    def turn_off(self) -> None:
        """Stop syncing this computer: what it holds stays; its files stay in the folder
        for the others (remove it from another computer to take them out)."""
        name = self.name
        with self.db.transaction() as conn:
            conn.execute("DELETE FROM meta WHERE key LIKE 'sync.%'")
            # the name the user gave this computer is offered again if it syncs again
            conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (NAME_KEPT, name))
            conn.execute("DELETE FROM sync_records")
            conn.execute("DELETE FROM sync_links")
            conn.execute("DELETE FROM sync_peers")
            conn.execute("DELETE FROM sync_conflicts")
            conn.execute("DELETE FROM sync_sent")
            self.profile.memories.unstamp_versions(conn)
            capture.stop_recording(conn)
        self.outgoing.ledger.reload()
        self.incoming.reading.reload()
        self.db.checkpoint()
        self.profile.events.emit(SyncChanged("off"))

    def rename(self, name: str) -> None:
        name = " ".join(name.split())[:60]
        if not name:
            raise SyncError(
                "A computer's name cannot be empty: type a few letters.", reason="usage"
            )
        with self.db.transaction() as conn:
            self.state.set(conn, {"name": name, "status_digest": None})
        self.profile.events.emit(SyncChanged("renamed"))

    def move(self, folder: Path) -> str:
        """Sync through another folder from now on, keeping the sync key, this
        computer's identity and everything it has read (nothing is sent again). If the
        new folder already holds this profile's sync folder (the engine moved it, or
        another computer moved first), this computer just uses it; otherwise the whole
        sync folder is copied there from the old one, which stays as it was until the
        user deletes it. Returns "used" or "copied"."""
        layout = self.layout()
        target = _usable_folder(folder)
        if self.folder.is_dir() and target == self.folder.resolve():
            raise SyncError("This profile already syncs through that folder.", reason="usage")
        new = files.Layout.of(target, layout.sync_id)
        with self._exclusive():
            if new.check():  # a link there is said, never used
                how = "used"
            elif layout.check():
                _copy_tree(layout, new)
                how = "copied"
            else:
                raise SyncError(
                    f"The old sync folder {self.folder} is not there to copy from, and {target} "
                    "does not hold this profile's sync folder: connect the old one, or choose "
                    "the folder your other computers sync through.",
                    reason="sync_folder_missing",
                )
            with self.db.transaction() as conn:
                self.state.set(conn, {"folder": str(target), "status_digest": None})
        self.profile.events.emit(SyncChanged("moved"))
        return how

    def offer_pairing(self) -> str:
        """A pairing code another computer joins with, for an hour. Made with the newest
        sync key the folder holds for this computer: one made with an older key would
        join the other computer to a key the others no longer write with."""
        layout = self.layout()
        with self._exclusive():
            layout.check()
            keys = self.device_keys()
            chain = self.chain()
            self._refresh_keys(layout, chain, keys, Pass(), announce=False)
            code = pairing.offer(chain, layout, self.device, keys)
            self._keep(chain)
        return code

    def _keep(self, chain: KeyChain) -> None:
        with self.db.transaction() as conn:
            self.state.set(conn, {"keys": json.dumps(chain.to_dict())})

    # -- a pass ----------------------------------------------------------------------------

    @contextlib.contextmanager
    def _exclusive(self) -> Iterator[None]:
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

    def run(self, compact: bool | None = None, wait_s: float = 30.0) -> Pass:
        """One pass. `compact`: True to compact now, False never, None as needed."""
        if not self.enabled:
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
        layout = self.layout()
        # a link as the profile's folder, or its keys folder, is said, never acted through
        if not self.folder.is_dir() or not layout.check():
            raise SyncError(
                f"The sync folder {self.folder} is not there (a drive not connected, or the "
                "folder moved or deleted): connect it, or choose the folder again in Settings.",
                reason="sync_folder_missing",
            )
        result = Pass()
        device = self.device
        keys = self.device_keys()
        chain = self.chain()
        if found := layout.own_folder(device):
            result.refused.append(found)
        layout.clear_temporary(device)
        self._refresh_keys(layout, chain, keys, result)
        if self._check_copy(layout, result):
            chain = self._reloaded(chain)
        repair = self._check_own(layout, chain)
        if repair.split:
            chain = self._reloaded(chain)
        # a removal known here for the first time: what the removed computer wrote that
        # its carrier's files do not hold is undone, and the others are read again
        result.undone += self.incoming.lawful.sweep(
            layout, chain, self.incoming.reading, self._stamp_pending
        )
        result.applied.lost += self.incoming.lawful.lost
        device = self.device
        keys = self.device_keys()
        self._retire(layout, chain, keys)
        # not while it waits for the key others use, nor while the others write with a
        # key it was not given (a removal on its way: core/sync/confirm.py)
        writes = chain.current is not None
        if writes and confirm.held_back(layout, chain, device):
            writes = False
            result.refused.append(confirm.WAITING)
        if writes:
            result.sent += self.outgoing.export()
            self.outgoing.write_pending(layout, chain, keys)
        members = chain.members
        for peer in layout.devices():
            if peer == device:
                continue
            if peer in chain.removed:
                # taken out of the sync: what it wrote before is carried by the others,
                # what it wrote after is refused. A computer that wrote before it learned
                # so leaves its folder again, with texts deleted since in it: it goes
                # (what it holds is sent again when it joins again)
                files.remove_tree(layout.device(peer))
                continue
            if peer not in members:
                continue  # not let in (yet): nothing of it is read
            self.incoming.read_peer(layout, chain, peer, result)
        names = self.origin_names()
        for j in result.joined:  # their names, once their status has been read
            j["name"] = names.get(j["device"]) if self.incoming.peer(j["device"])[2] else None
            j["by_name"] = names.get(j["by"] or "")
        result.merged = self._merge_duplicates(result.applied)
        if result.merged and writes:
            result.sent += self.outgoing.export()
            self.outgoing.write_pending(layout, chain, keys)
        if result.applied.own_removed or result.applied.memories_removed:
            self.outgoing.deleted_at = self.outgoing.deleted_at or time.monotonic()
        # its own files damaged, or another computer stuck at one of them: a fresh snapshot
        # of everything still standing (the damaged change files go with the others)
        needed = repair.files or self.outgoing.asked
        if (
            writes
            and compact is not False
            and (needed or self.outgoing.should_compact(layout, compact))
        ):
            self.outgoing.compact(layout, chain, keys)
            result.compacted = True
        self.outgoing.clean_own(layout)
        if writes:
            self.outgoing.write_status(layout, chain, keys, repair.status, repair.counter)
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
        return result

    def _said(self, place: str, why: str) -> str:
        """One sentence for a file refused while its folder was listed."""
        first, _, name = place.partition("/")
        if files.DEVICE.fullmatch(first):
            whose = self.incoming.peer_name(first)
            return f"{name} from {whose}: {why}" if name else f"the folder of {whose}: {why}"
        return f"{place}: {why}"

    def _refresh_keys(
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
            refreshed = chain.refresh(layout, self.device, keys, self._grandfathered())
            result.refused += refreshed.refused
            result.let_in, result.let_in_by = refreshed.let_in, refreshed.let_in_by
            result.waiting_for = refreshed.waiting
            if refreshed.waiting is None:
                admitted, noted = pairing.admit(chain, layout, self.device, keys)
                result.refused += noted
                if admitted:
                    refreshed = chain.refresh(layout, self.device, keys)
                if refreshed.needs_generation:
                    lock = _lock_of(self.profile) or (chain.current.lock if chain.current else None)
                    chain.new_generation(layout, self.device, keys, lock)
                    log.info(
                        "sync: wrote generation %d", chain.current.number if chain.current else 0
                    )
                    chain.refresh(layout, self.device, keys)
                pairing.clear_offers(chain, layout, self.device)
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
        new = sorted(d for d in m.members if d != self.device and d not in (seen or set()))
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
        changes, snaps = layout.numbered(self.device)
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
        found = self.outgoing.ledger.check(layout, chain, self.device_keys().public["signing"])
        if chain.written != before:
            self._keep(chain)
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
        fresh = self.chain()
        fresh.membership, fresh.bodies = chain.membership, chain.bodies
        return fresh

    def _signed_here(self, layout: files.Layout, kind: str, n: int, result: Pass) -> bool:
        """Whether this computer's file `n` in its own folder is one it signed."""
        name = files.changes_name(n) if kind == "changes" else files.snapshot_name(n)
        path = layout.device(self.device) / name
        expect = {"device": self.device, "seq": n}
        try:
            files.read_raw(path, layout.sync_id, kind, expect).verify(
                self.device_keys().public["signing"]
            )
        except files.Quarantined:
            return False
        except SyncRefused as exc:
            result.refused.append(f"{name} in this computer's own folder: {exc}")
            return False
        return True

    # -- reading another computer ------------------------------------------------------

    # -- after reading -------------------------------------------------------------------

    def _merge_duplicates(self, applied: Applied) -> int:
        """Memories added on two computers with the same text end up once: on every
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

    # -- removing a computer ---------------------------------------------------------

    def remove(self, device: str) -> None:
        """Take a computer out of the sync ("this laptop was stolen"): a new sync key
        that it is not given, what it wrote that still stands copied into this computer's
        own files, and its folder removed. It keeps what it already had."""
        if device == self.device:
            raise SyncError(
                "This computer cannot remove itself: turn sync off here, or remove it from "
                "another computer.",
                reason="usage",
            )
        layout = self.layout()
        with self._exclusive():
            layout.check()
            layout.own_folder(self.device)  # a link in its place: removed, made again
            known = {r[0] for r in self.db.query("SELECT device FROM sync_peers")}
            if device not in known and device not in layout.devices():
                raise SyncError(
                    f"There is no computer {device[:8]} in this sync.", reason="not_found"
                )
            keys = self.device_keys()
            chain = self.chain()
            # the newest records first (a removal made since elsewhere; a computer let in
            # since the last pass: it gets the new key too)
            self._refresh_keys(layout, chain, keys, Pass(), announce=False)
            self._take_out(layout, chain, keys, device)
            self.outgoing.write_status(layout, chain, keys)
        self.profile.events.emit(SyncChanged("removed"))

    def _stamp_pending(self, conn: Connection) -> None:
        """What changed here since the last pass gets its stamp now (filed in the next
        change file, written later in the pass)."""
        replica = self.state.replica()
        if replica.pending():
            self.outgoing.export_in(conn, replica)

    def _take_out(
        self, layout: files.Layout, chain: KeyChain, keys: crypto.DeviceKeys, device: str
    ) -> None:
        """A new generation without `device`; what it wrote that stands carried by this
        computer from now on; its folder gone."""
        lock = _lock_of(self.profile) or (chain.current.lock if chain.current else None)
        chain.new_generation(layout, self.device, keys, lock, removed={device})
        with self.db.transaction() as conn:
            self.state.set(conn, {"keys": json.dumps(chain.to_dict())})
            conn.execute("UPDATE sync_peers SET removed = 1 WHERE device = ?", (device,))
            # what it wrote that stands is this computer's to carry from now on, and what
            # it carried of the computers removed before it (whose carrier it may have
            # been: core/sync/lawful.py): all of it goes out in this computer's files
            seq = self.state.int("seq") + 1
            carried = sorted({device, *chain.removed})
            marks = ",".join("?" * len(carried))
            moved = conn.execute(
                f"UPDATE sync_records SET seq = ? WHERE device IN ({marks})", (seq, *carried)
            ).rowcount
            moved += self.profile.memories.refile_versions(conn, carried, seq)
            if moved:
                self.state.set(conn, {"seq": str(seq)})
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
            self._take_out(layout, chain, keys, old)
            with self.db.transaction() as conn:
                self.state.set(conn, {"split_from": None})

    # -- what the window and `sync status` show ------------------------------------------

    def peers(self) -> list[Peer]:
        """The other computers: what this one has read of each, and what each has taken
        in of this one's files (as its status says)."""
        me = self.device
        written = self.state.int("written")
        out = []
        for device, name, applied, status, seen_at, removed in self.db.query(
            "SELECT device, name, applied, status, seen_at, removed FROM sync_peers ORDER BY name, device"
        ):
            data = json.loads(status) if status else {}
            received = _int_of(data.get("applied"), me)
            at = data.get("applied_at")
            stuck = data.get("stuck")
            on = stuck.get(me) if isinstance(stuck, dict) and self.enabled else None
            peer = Peer(
                device,
                name or device[:8],
                int(applied),
                seen_at,
                data.get("written_at"),
                bool(removed),
                int(data.get("seq") or 0) > int(applied),
                received,
                str(at[me]) if isinstance(at, dict) and at.get(me) else None,
                stuck=str(on["file"]) if isinstance(on, dict) and on.get("file") else None,
            )  # fmt: skip
            if received < written and not removed:
                peer.missing, peer.missing_since = self.outgoing.unreceived(received, written)
            out.append(peer)
        return out

    def conflicts(self, unseen_only: bool = False) -> list[tuple[int, str, str]]:
        """Memories edited on two computers at once: (memory id, the other computer's
        name, when)."""
        sql = (
            "SELECT m.id, coalesce(p.name, c.device), c.at FROM sync_conflicts c "
            "JOIN memories m ON m.uid = c.uid LEFT JOIN sync_peers p ON p.device = c.device"
        )
        if unseen_only:
            sql += " WHERE c.seen = 0"
        return [
            (int(r[0]), str(r[1]), str(r[2])) for r in self.db.query(sql + " ORDER BY c.at DESC")
        ]

    def edited_on_both(self, memory_id: int) -> bool:
        """Whether this memory was edited on two computers at once (seen or not)."""
        return bool(
            self.db.query(
                "SELECT 1 FROM sync_conflicts c JOIN memories m ON m.uid = c.uid WHERE m.id = ?",
                (memory_id,),
            )
        )

    def mark_conflicts_seen(self, memory_ids: Iterable[int] | None = None) -> int:
        """The user has looked: at the list of them (every one), or at these memories.
        How many were not seen before (announced: the window's line clears)."""
        ids = None if memory_ids is None else sorted({int(i) for i in memory_ids})
        where = "c.seen = 0"
        if ids is not None:
            if not ids:
                return 0
            where += f" AND m.id IN ({','.join('?' * len(ids))})"
        sql = f"SELECT c.uid FROM sync_conflicts c JOIN memories m ON m.uid = c.uid WHERE {where}"
        uids = [r[0] for r in self.db.query(sql, ids or ())]
        if not uids:  # the usual case, read only: nothing written
            return 0
        with self.db.transaction() as conn:
            conn.executemany(
                "UPDATE sync_conflicts SET seen = 1 WHERE uid = ?", [(u,) for u in uids]
            )
        self.profile.events.emit(SyncChanged("conflicts_seen"))
        return len(uids)

    def lost(self) -> list[Lost]:
        """What merges dropped and the user has not dismissed (sync/lost.py)."""
        return lost.listed(self.db)

    def dismiss_lost(self, ids: Iterable[int] | None = None) -> int:
        """The user is done with these (every one with None): purged from every page of
        the file. How many."""
        with self.db.transaction() as conn:
            n = lost.purge(conn, None if ids is None else list(ids))
        if n:
            self.db.checkpoint()  # the zeroed pages over the old ones, in the file itself
            self.profile.events.emit(SyncChanged("lost"))
        return n

    def _lost_groups(self) -> list[dict[str, Any]]:
        """What merges dropped, by way and computer (`sync lost` lists the texts)."""
        names = self.origin_names()
        return [
            {"kind": kind, "device": device, "computer": names.get(device, device[:8]),
             "count": n}
            for kind, device, n in lost.groups(self.lost())
        ]  # fmt: skip

    def origin_names(self) -> dict[str, str]:
        """Each computer's name, by id (this one's too)."""
        names = {
            r[0]: r[1] or r[0][:8] for r in self.db.query("SELECT device, name FROM sync_peers")
        }
        if self.enabled:
            names[self.device] = self.name
        return names

    def info(self) -> dict[str, Any]:
        if not self.enabled:
            return {"enabled": False, "lost": self._lost_groups()}
        layout = self.layout()
        return {
            "enabled": True,
            "folder": str(self.folder),
            "root": str(layout.root),  # the profile's own folder in it (the window watches it)
            "device": self.device,
            "name": self.name,
            "since": self.state.get("since"),
            "last_pass": self.state.get("last_pass"),
            "pending": self.replica().pending(),
            "sent_files": self.state.int("written"),
            "generation": _generation(self.chain()),
            "computers": [p.to_dict() for p in self.peers()],
            "conflicts": len(self.conflicts(unseen_only=True)),
            "lost": self._lost_groups(),
            "folder_bytes": layout.size(),
            # files in the folder the last pass ignored or refused for what they are
            "ignored": self.state.int("ignored"),
            "error": self.last_error,
            "removed": self.removed_here,
            "waiting_for": self._waiting_for(),
            # where this computer cannot go on with another's files (said once at the
            # pass that found it; here until a fresh copy arrives)
            "stuck": [
                {"device": d, "name": self.incoming.peer_name(d), **at}
                for d, at in Reading(self.state).stuck_at().items()
            ],
        }

    def _waiting_for(self) -> dict[str, str] | None:
        """The computer this one waits to be let in by (it joined with a pairing code
        shown there), or None."""
        pending = self.chain().pending
        if pending is None:
            return None
        name = self.origin_names().get(pending.inviter) or pending.inviter[:8]
        return {"device": pending.inviter, "name": name}


def _int_of(mapping: Any, key: str) -> int:
    """A number a status holds for a key (0 when it holds none, or not a number)."""
    try:
        return int(mapping.get(key) or 0) if isinstance(mapping, dict) else 0
    except (TypeError, ValueError):
        return 0


def _generation(chain: KeyChain) -> int:
    current = chain.current
    return current.number if current is not None else 0


def _chunks(ids: list[int], size: int = 500) -> Iterator[list[int]]:
    for start in range(0, len(ids), size):
        yield ids[start : start + size]


def _copy_tree(src: files.Layout, dst: files.Layout) -> None:
    """A copy of a sync folder, made under a temporary name and renamed into place, so an
    engine (or a computer) never sees half of it: desktop-mem's own files only, none
    through a link (files.copy_folder)."""
    try:
        files.copy_folder(src, dst)
    except OSError as exc:
        raise SyncError(
            f"The sync folder could not be copied to {dst.root.parent} ({exc.strerror or exc}): "
            "free some space there, or choose another folder.",
            reason="sync_folder_readonly",
        ) from None


def _usable_folder(folder: Path) -> Path:
    folder = Path(folder).expanduser()
    if not folder.is_dir():
        raise SyncError(
            f"{folder} is not a folder: choose a folder your sync engine carries (Syncthing, "
            "Dropbox, iCloud Drive, OneDrive, Nextcloud or a network share).",
            reason="sync_folder_missing",
        )
    probe = folder / f".desktop-mem-probe-{crypto.new_id()[:8]}"
    try:
        # a new name, never an existing one (nor a link someone put there)
        os.close(os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        probe.unlink()
    except OSError as exc:
        raise SyncError(
            f"desktop-mem cannot write in {folder} ({exc.strerror or exc}): choose a folder you "
            "can write to.",
            reason="sync_folder_readonly",
        ) from None
    return folder.resolve()


def _lock_of(profile: Profile) -> dict[str, Any] | None:
    """The profile's recovery lock (the public half of its recovery code), if it has one."""
    record = read_sidecar(profile.db.path).get("recovery")
    if not isinstance(record, dict):
        return None
    try:
        lock = recovery.RecoveryLock.from_dict(record)
    except Exception:  # noqa: BLE001 - a damaged record: sync without it
        return None
    return None if lock is None else lock.to_dict()


def _adopt_lock(profile: Profile, lock: dict[str, Any]) -> bool:
    """A joined profile takes the synced profile's recovery code: its own key is sealed
    to the same lock, so the one code opens every computer's copy (and the code it was
    made with no longer opens it). Whether it did (a passphrase profile has no code)."""
    db = profile.db
    key = db._key
    if key is None or key.mode != "keyring":
        return False
    record = recovery.reseal(lock, key.secret)
    if record is None:
        return False
    write_key_mode(
        db.path, "keyring", account=read_sidecar(db.path).get("key_account"), recovery=record
    )
    profile.events.emit(KeyChanged())  # another recovery code opens it now
    return True
