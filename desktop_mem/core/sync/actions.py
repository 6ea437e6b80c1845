"""What the user asks of a synced profile, outside a pass: set it up, join a sync (or
join it again once taken out), turn it off, rename this computer, move to another
folder, show a pairing code, and take another computer out."""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from desktop_mem.core.errors import SyncError
from desktop_mem.core.events import KeyChanged, SyncChanged
from desktop_mem.core.jsontypes import JSONObject
from desktop_mem.core.keys import recovery
from desktop_mem.core.keys.vault import read_sidecar, write_key_mode
from desktop_mem.core.sync import capture, crypto, files, pairing, twins
from desktop_mem.core.sync.keys import KeyChain
from desktop_mem.core.sync.passes import Passes, lock_of
from desktop_mem.core.sync.replica import Replica
from desktop_mem.core.sync.state import Pass, SyncState, default_name, now_iso

if TYPE_CHECKING:
    from desktop_mem.core.profile import Profile
    from desktop_mem.core.sync.incoming import Incoming
    from desktop_mem.core.sync.outgoing import Outgoing

log = logging.getLogger(__name__)

NAME_KEPT = "computer_name"  # outside sync.*: kept when sync is turned off


class Actions:
    """Setting up, joining, moving, renaming and removing, each under the pass lock where
    it touches the folder (core/sync/passes.py)."""

    def __init__(
        self, state: SyncState, outgoing: Outgoing, incoming: Incoming, passes: Passes
    ) -> None:
        self.state = state
        self.profile = state.profile
        self.db = state.db
        self.outgoing = outgoing
        self.incoming = incoming
        self.passes = passes

    def set_up(self, folder: Path, name: str | None = None) -> None:
        """Sync this profile through `folder` (one an engine carries): make its sync
        key and this computer's keys, and send everything it holds."""
        if self.state.enabled:
            raise SyncError(
                f"This profile already syncs through {self.state.folder}: turn sync off first to "
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
        chain.start(layout, device, keys, lock_of(self.profile))
        self._start(folder, sync_id, device, keys, chain, name)

    def join(self, folder: Path, chain: KeyChain, name: str | None = None) -> str:
        """Join the profile synced through `folder` with the keys a code opened. This
        profile must be new (nothing in it yet): it becomes a copy of the synced one.

        Returns which recovery code opens this copy from now on, for the front ends to
        say: "synced" (the synced profile's: the code this profile was made with, shown
        at its first start, no longer does), "own" (the synced profile has none, its
        computers use a passphrase: this copy keeps its own code), or "none" (this
        profile has no recovery code: a passphrase opens it)."""
        if self.state.enabled:
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
        self._let_in(files.Layout.of(folder, chain.sync_id), chain, device, keys)
        self._start(folder, chain.sync_id, device, keys, chain, name)
        lock = chain.current.lock if chain.current else None
        if lock and _adopt_lock(self.profile, lock):
            return "synced"
        return "own" if lock_of(self.profile) else "none"

    @staticmethod
    def _let_in(
        layout: files.Layout,
        chain: KeyChain,
        device: str,
        keys: crypto.DeviceKeys,
        former: Iterable[str] = (),
    ) -> None:
        """This computer's way in: its join signed with the recovery authority (the
        recovery code opened it), or its request to the computer that showed the pairing
        code (it is in once that one signs its join, at its next pass)."""
        if chain.authority_key is not None:
            pairing.let_in_with_recovery(chain, layout, device, keys, former)
        else:
            pairing.ask(chain, layout, device, keys, former)

    def kept_name(self) -> str:
        """This computer's name: as it syncs now, or as it was called when sync was
        last turned off here, or the system's."""
        if self.state.enabled:
            return self.state.name
        return self.db.meta_get(NAME_KEPT) or default_name()

    def rejoin(self, folder: Path, chain: KeyChain) -> None:
        """This computer, taken out of the sync by another, joins it again with the keys
        a pairing code (or the recovery code) opened: as a new computer (a new id and
        new keys: nothing written under the old id can be mistaken for it), keeping
        everything it holds. What it changed since it was taken out is sent at the next
        pass; what the others did since is taken in from where it had read."""
        if not self.state.removed_here:
            raise SyncError("This computer still syncs: there is nothing to join again.",
                            reason="sync_on")  # fmt: skip
        if chain.sync_id != self.state.get("id"):
            raise SyncError(
                "That code opens another synced profile than the one this computer was "
                "taken out of: use a pairing code shown by one of its other computers.",
                reason="wrong_key",
            )
        folder = _usable_folder(folder)
        old = self.state.device
        carried = set(self.state.chain().removed)  # the computers removed whose records it carried
        # above every id it had: where a copy of it stamped a record with the same clock
        # under one of them, what it sends again comes after (core/sync/twins.py)
        device = twins.id_above(max(self.state.former() | {old}))
        keys = crypto.DeviceKeys.generate()
        # its join names the ids it had: the others then know it carries what they did
        was = self.state.former() | {old}
        self._let_in(files.Layout.of(folder, chain.sync_id), chain, device, keys, was)
        with self.passes.exclusive():
            with self.db.transaction() as conn:
                # its old self is one more computer taken out: its records are carried
                conn.execute(
                    "INSERT INTO sync_peers(device, name, applied, removed) VALUES (?, ?, 0, 1) "
                    "ON CONFLICT(device) DO UPDATE SET removed = 1",
                    (old, self.state.name),
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
        self.passes.last_error = None
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
        name = self.state.name
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
        layout = self.state.layout()
        target = _usable_folder(folder)
        if self.state.folder.is_dir() and target == self.state.folder.resolve():
            raise SyncError("This profile already syncs through that folder.", reason="usage")
        new = files.Layout.of(target, layout.sync_id)
        with self.passes.exclusive():
            if new.check():  # a link there is said, never used
                how = "used"
            elif layout.check():
                _copy_tree(layout, new)
                how = "copied"
            else:
                raise SyncError(
                    f"The old sync folder {self.state.folder} is not there to copy from, and {target} "
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
        layout = self.state.layout()
        with self.passes.exclusive():
            layout.check()
            keys = self.state.device_keys()
            chain = self.state.chain()
            self.passes.refresh_keys(layout, chain, keys, Pass(), announce=False)
            code = pairing.offer(chain, layout, self.state.device, keys)
            self.passes.keep(chain)
        return code

    def remove(self, device: str) -> None:
        """Take a computer out of the sync ("this laptop was stolen"): a new sync key
        that it is not given, what it wrote that still stands copied into this computer's
        own files, and its folder removed. It keeps what it already had."""
        if device == self.state.device:
            raise SyncError(
                "This computer cannot remove itself: turn sync off here, or remove it from "
                "another computer.",
                reason="usage",
            )
        layout = self.state.layout()
        with self.passes.exclusive():
            layout.check()
            layout.own_folder(self.state.device)  # a link in its place: removed, made again
            known = {r[0] for r in self.db.query("SELECT device FROM sync_peers")}
            if device not in known and device not in layout.devices():
                raise SyncError(
                    f"There is no computer {device[:8]} in this sync.", reason="not_found"
                )
            keys = self.state.device_keys()
            chain = self.state.chain()
            # the newest records first (a removal made since elsewhere; a computer let in
            # since the last pass: it gets the new key too)
            self.passes.refresh_keys(layout, chain, keys, Pass(), announce=False)
            self.passes.take_out(layout, chain, keys, device)
            self.outgoing.write_status(layout, chain, keys)
        self.profile.events.emit(SyncChanged("removed"))


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


def _adopt_lock(profile: Profile, lock: JSONObject) -> bool:
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
