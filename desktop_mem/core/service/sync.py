"""Sync: one profile on two or more computers, through a folder an engine carries
(Syncthing, Dropbox, iCloud Drive, OneDrive, Nextcloud, a network share). The work is
in core/sync; this is what the front ends call."""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from desktop_mem.core.errors import ModelServerError, NotFound, SyncError
from desktop_mem.core.events import SYNC, Event, SyncProgress, acting
from desktop_mem.core.memory.records import KINDS as MEMORY_KINDS
from desktop_mem.core.memory.records import NewMemory
from desktop_mem.core.sync import crypto, files, pairing
from desktop_mem.core.sync.applying import Applied
from desktop_mem.core.sync.lost import Lost
from desktop_mem.core.sync.syncer import Pass, Peer, Syncer

if TYPE_CHECKING:
    from desktop_mem.core.profile import Reindexed
    from desktop_mem.core.service import Service

log = logging.getLogger(__name__)

# what a large file's progress is told to: (records applied, records in it, from whom)
Progress = Callable[[int, int, str], None]
# set while something a pass brought has no vector yet: the next pass that brings
# something indexes everything without one (not only what it brought)
WAITING = "sync.index_waiting"


def profiles_in(folder: Path) -> list[str]:
    """The synced profiles a folder holds (their sync ids)."""
    return files.find_profiles(folder)


class Sync:
    def __init__(self, service: Service) -> None:
        self._service = service
        self.syncer = Syncer(service.profile)
        self._running = threading.Lock()

    @property
    def enabled(self) -> bool:
        return self.syncer.enabled

    def info(self) -> dict[str, Any]:
        return self.syncer.info()

    def this_computer(self) -> str | None:
        """This computer's id in the sync (None when it does not sync)."""
        return self.syncer.device if self.enabled else None

    def computer_name(self) -> str:
        """This computer's name: as it syncs, or as it was called when it last did."""
        return self.syncer.kept_name()

    def set_up(self, folder: Path, name: str | None = None) -> Pass:
        """Sync this profile through `folder`, then send everything it holds."""
        with acting(SYNC):
            self.syncer.set_up(folder, name)
        return self.now()

    @contextlib.contextmanager
    def _watching(self, progress: Progress | None) -> Iterator[None]:
        if progress is None:
            yield
            return

        def listener(event: Event) -> None:
            if isinstance(event, SyncProgress):
                progress(event.done, event.total, event.peer)

        stop = self._service.events.subscribe(listener)
        try:
            yield
        finally:
            stop()

    def join(
        self,
        folder: Path,
        code: str,
        name: str | None = None,
        index: bool = True,
        progress: Progress | None = None,
    ) -> Pass:
        """Join the profile synced through `folder` with its recovery code or a pairing
        code shown on a computer that syncs it; this profile must be new, or this
        computer one that another took out of that sync (it joins again, keeping what it
        holds). `progress`
        hears how far a large file has been applied (it is also announced on the
        service's events, SyncProgress, for the window). The pass's `recovery` says
        which recovery code opens this profile from now on (Syncer.join)."""
        chosen = Path(folder).expanduser()
        ids = files.find_profiles(chosen) if chosen.is_dir() else []
        if not ids:
            for sync_id in files.find_profiles(chosen, links=True):
                files.Layout.of(chosen, sync_id).check()  # a link there: said, not followed
            raise SyncError(
                f"There is no synced desktop-mem profile in {chosen}: choose the folder the "
                "other computer syncs through (the one that holds a desktop-mem-… folder), "
                "and wait until the engine has brought it here.",
                reason="sync_not_found",
            )
        last: Exception | None = None
        if self.syncer.removed_here:  # taken out by another computer: join it again
            ids = [i for i in ids if i == self.syncer.state.get("id")] or ids
        opened = []
        for sync_id in ids:
            layout = files.Layout.of(chosen, sync_id)
            try:
                if crypto.normalize_pairing_code(code) is not None:
                    opened.append(pairing.join_with_pairing_code(layout, code))
                    break  # a pairing offer is sealed under the code: only its maker made it
                # joining again: its earlier selves, and the records it knew
                back = self.syncer.removed_here
                former = self.syncer.state.former() | {self.syncer.device} if back else set()
                was = self.syncer.chain() if back else None
                kept = was.kept if was is not None else {}
                alone = was.recovered_from if was is not None else None
                opened.append(pairing.join_with_recovery_code(layout, code, former, kept, alone))
            except SyncError as exc:  # WrongKey is one: try the next profile in the folder
                last = exc
        if len(opened) > 1:
            # anyone who can write the folder can seal a profile of their own to the
            # recovery lock (it is public): two that open mean one was planted
            raise SyncError(
                "This folder holds more than one synced profile that your recovery code "
                "opens: one of them was planted by someone else. Join with a pairing code "
                "shown on one of your computers instead.",
                reason="sync_ambiguous",
            )
        if not opened:
            assert last is not None
            raise last
        chain = opened[0]
        recovery = None  # joining again changes no key of this profile
        with acting(SYNC):
            if self.syncer.removed_here:
                self.syncer.rejoin(chosen, chain)
                if name:
                    self.syncer.rename(name)
            else:
                recovery = self.syncer.join(chosen, chain, name)
        result = self.now(index=index, progress=progress)
        result.recovery = recovery
        return result

    def move(self, folder: Path) -> Pass:
        """Sync through another folder from now on (the engine's folder moved, or another
        engine): the same key, the same computer; the sync folder is copied there unless
        it is there already. Then a pass through it."""
        with self._running, acting(SYNC):
            self.syncer.move(Path(folder))
        return self.now()

    def offer_pairing(self) -> str:
        return self.syncer.offer_pairing()

    def now(
        self, compact: bool | None = None, index: bool = True, progress: Progress | None = None
    ) -> Pass:
        """One pass: send what changed here, take in what the others sent; then what
        arrived is indexed by meaning with this computer's own embedding model (vectors
        never travel: each computer may use another model). Every change it makes is
        announced as the sync's (origin SYNC)."""
        with acting(SYNC):
            with self._running, self._watching(progress):
                result = self.syncer.run(compact=compact)
            if result.applied.anything:
                if index:
                    self.index_arrived(result.applied)
                else:
                    self._set_waiting(True)
        return result

    def index_arrived(
        self,
        applied: Applied | None = None,
        progress: Callable[[int, int], None] | None = None,
    ) -> Reindexed | None:
        """Vectors for what arrived without one: what one pass brought (`applied`,
        found by its ids, so a small change costs little on a large profile), or
        everything without a vector (None; `progress` hears how many of how many).
        None if the model server cannot make them now: the items are found by their
        words until it can (the window says how many wait, with Index now), and the
        next pass that brings something tries again with everything without a vector."""
        profile = self._service.profile
        try:
            if applied is None or self._waiting():
                done = self._service.models.index_missing(progress)
                self._set_waiting(bool(profile.conversations.unindexed_count()))
                return done
            reindexed = profile.index_these(applied.memories, applied.messages)
        except ModelServerError as exc:
            log.info("sync: what arrived waits to be indexed: %s", type(exc).__name__)
            self._set_waiting(True)
            return None
        if profile.conversations.missing_of(sorted(applied.messages)):
            self._set_waiting(True)  # the server stopped answering half-way
        return reindexed

    def _waiting(self) -> bool:
        """Whether something a pass brought was left without a vector."""
        return self._service.profile.db.meta_get(WAITING) is not None

    def _set_waiting(self, waiting: bool) -> None:
        if waiting != self._waiting():
            self._service.profile.db.meta_set(WAITING, "1" if waiting else None)

    def peers(self) -> list[Peer]:
        return self.syncer.peers()

    def rename(self, name: str) -> None:
        self.syncer.rename(name)

    def remove(self, device: str) -> None:
        """Take a computer out (by its id, or the start of it, or its name)."""
        self.syncer.remove(self.find(device))

    def find(self, which: str) -> str:
        peers = self.peers()
        matches = [p.device for p in peers if p.device == which or p.name == which]
        if not matches and len(which) >= 4:
            matches = [p.device for p in peers if p.device.startswith(which)]
        if len(matches) != 1:
            names = ", ".join(f"{p.name} ({p.device[:8]})" for p in peers if not p.removed)
            raise SyncError(
                f"No single computer is called {which!r} in this sync"
                + (f" (there are: {names})" if names else "")
                + ": give its name or the start of its id.",
                reason="not_found",
            )
        return matches[0]

    def turn_off(self) -> None:
        self.syncer.turn_off()

    def conflicts(self, unseen_only: bool = False) -> list[tuple[int, str, str]]:
        return self.syncer.conflicts(unseen_only)

    def edited_on_both(self, memory_id: int) -> bool:
        """Whether two synced computers changed this memory at once (both versions are
        in its history), looked at or not."""
        return self.enabled and self.syncer.edited_on_both(memory_id)

    def mark_conflicts_seen(self, memory_ids: Iterable[int] | None = None) -> int:
        """The user looked at the memories edited on two computers at once (all of
        them, or these): they are no longer counted as new."""
        if not self.enabled:
            return 0
        return self.syncer.mark_conflicts_seen(memory_ids)

    def origin_names(self) -> dict[str, str]:
        return self.syncer.origin_names()

    def lost(self) -> list[Lost]:
        """What merges dropped (an edit to a memory deleted on another computer, messages
        in a conversation deleted on another, each way round), kept with its text until
        the user dismisses it. Also when sync is off."""
        return self.syncer.lost()

    def dismiss_lost(self, ids: Iterable[int] | None = None) -> int:
        """Done with these (every one with None): their text is purged from every page
        of the file. How many."""
        return self.syncer.dismiss_lost(ids)

    def keep_lost(self, lost_id: int) -> int:
        """Keep a dropped change's text as a new memory (then it is dismissed). The new
        memory's id."""
        item = next((x for x in self.lost() if x.id == int(lost_id)), None)
        if item is None:
            raise NotFound(
                f"There is no lost change {lost_id} (kept or dismissed already): list them "
                "again to see those that are left.",
                reason="not_found",
            )
        kind = item.memory_kind if item.memory_kind in MEMORY_KINDS else "fact"
        added = self._service.memories.add(NewMemory(item.text, kind=kind))
        self.dismiss_lost([item.id])
        return added.memory.id
