"""One profile synced through a folder: setting it up, joining it, and each pass, behind
one object for the service (core/service/sync.py) and the tests.

`Syncer` holds the profile's sync state (core/sync/state.py), what this computer writes
(core/sync/outgoing.py) and takes in (core/sync/incoming.py), and hands each call to the
module whose job it is: a pass and its lock (core/sync/passes.py), what the user asks of
the sync outside a pass (core/sync/actions.py), and what the window and `sync status`
show (core/sync/status.py).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from desktop_mem.core.sync import crypto, files
from desktop_mem.core.sync.actions import Actions
from desktop_mem.core.sync.incoming import APPLY_BATCH, Incoming
from desktop_mem.core.sync.keys import KeyChain
from desktop_mem.core.sync.lost import Lost
from desktop_mem.core.sync.outgoing import Outgoing
from desktop_mem.core.sync.passes import Passes
from desktop_mem.core.sync.replica import Replica
from desktop_mem.core.sync.state import Pass, Peer, SyncState, default_name
from desktop_mem.core.sync.status import Status

if TYPE_CHECKING:
    from desktop_mem.core.profile import Profile

__all__ = ["APPLY_BATCH", "Pass", "Peer", "Syncer", "default_name"]


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
        self.passes = Passes(self.state, self.outgoing, self.incoming)
        self.actions = Actions(self.state, self.outgoing, self.incoming, self.passes)
        self.status = Status(self.state, self.outgoing, self.incoming)

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

    @property
    def removed_here(self) -> bool:
        """Another computer took this one out of the sync (SyncState.removed_here)."""
        return self.state.removed_here

    @property
    def last_pass(self) -> Pass | None:
        return self.passes.last_pass

    @property
    def last_error(self) -> str | None:
        return self.passes.last_error

    # -- what the user asks (core/sync/actions.py) -----------------------------------------

    def set_up(self, folder: Path, name: str | None = None) -> None:
        self.actions.set_up(folder, name)

    def join(self, folder: Path, chain: KeyChain, name: str | None = None) -> str:
        """Join with the keys a code opened; which recovery code opens this copy now
        (Actions.join)."""
        return self.actions.join(folder, chain, name)

    def kept_name(self) -> str:
        return self.actions.kept_name()

    def rejoin(self, folder: Path, chain: KeyChain) -> None:
        self.actions.rejoin(folder, chain)

    def turn_off(self) -> None:
        self.actions.turn_off()

    def rename(self, name: str) -> None:
        self.actions.rename(name)

    def move(self, folder: Path) -> str:
        return self.actions.move(folder)

    def offer_pairing(self) -> str:
        return self.actions.offer_pairing()

    def remove(self, device: str) -> None:
        self.actions.remove(device)

    # -- a pass (core/sync/passes.py) ------------------------------------------------------

    def run(self, compact: bool | None = None, wait_s: float = 30.0) -> Pass:
        """One pass. `compact`: True to compact now, False never, None as needed."""
        return self.passes.run(compact, wait_s)

    # -- what the window and `sync status` show (core/sync/status.py) ----------------------

    def peers(self) -> list[Peer]:
        return self.status.peers()

    def conflicts(self, unseen_only: bool = False) -> list[tuple[int, str, str]]:
        return self.status.conflicts(unseen_only)

    def edited_on_both(self, memory_id: int) -> bool:
        return self.status.edited_on_both(memory_id)

    def mark_conflicts_seen(self, memory_ids: Iterable[int] | None = None) -> int:
        return self.status.mark_conflicts_seen(memory_ids)

    def lost(self) -> list[Lost]:
        return self.status.lost()

    def dismiss_lost(self, ids: Iterable[int] | None = None) -> int:
        return self.status.dismiss_lost(ids)

    def origin_names(self) -> dict[str, str]:
        return self.status.origin_names()

    def info(self) -> dict[str, Any]:
        return self.status.info(self.passes.last_error)
