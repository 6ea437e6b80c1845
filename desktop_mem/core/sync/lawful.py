"""What a computer taken out of the sync wrote that stands, and undoing the rest.

A removed computer's files are never read once its removal is known, but its removal
can reach a computer late: its key file kept out of the folder by anyone who can write
there, or delivered late by the engine. Meanwhile that computer reads the removed one's
files as a member's, so it takes in what a thief writes with the stolen computer's app
or keys, and then passes it on (every computer carries the records of those taken out,
in its snapshots).

The rule (core/sync/membership.py, `carrier`): the computer that first removed it (the
same on every computer) had read it only up to its removal, and carries its records
from then on, in its own files; so what the removed computer wrote that stands is what
those files hold, and nothing else:

- a record or version stamped by a removed computer is taken from the carrier's files,
  and from anyone else's only when the carrier's files hold it too (the carrier itself
  takes none from others: it already holds every one that stands);
- once, when a computer first knows of a removal, it drops every record and version
  stamped by the removed computer that the carrier's files do not hold (it waits while
  one of them cannot be read: damaged, or half-written by the engine, until the carrier
  writes it again, so as not to drop for good what that file holds; a deletion so
  dropped undoes itself: the record comes back), through the stores, securely as any
  delete; and then reads every computer still in again from its first file (an
  idempotent merge), so that what those records had overwritten or deleted comes back
  from whoever wrote it. What they overwrote or deleted of its own is in no file (each
  holds what its writer wrote or carries): its status asks the others to give it back,
  and each sends what it holds stamped with this computer's id in its next change
  file (core/sync/outgoing.py, give_back).

What a removed computer wrote after the carrier last read it is lost with it, even when
it was honest (a laptop that wrote just before it was removed elsewhere): the others
keep exactly what the computer that took it out had.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from desktop_mem.core.db.connection import Connection
from desktop_mem.core.errors import SyncRefused
from desktop_mem.core.memory.arrived import ArrivedMemory
from desktop_mem.core.sync import capture, files, frame, lost
from desktop_mem.core.sync import known as sync_records
from desktop_mem.core.sync.keys import KeyChain
from desktop_mem.core.sync.membership import carrier
from desktop_mem.core.sync.own import mark_of
from desktop_mem.core.sync.wire import CONTEXT, CONVERSATION, MEMORY, MESSAGE, Record, from_wire

if TYPE_CHECKING:
    from desktop_mem.core.sync.reading import Reading
    from desktop_mem.core.sync.state import SyncState

log = logging.getLogger(__name__)

Screen = Callable[[Record], "Record | None"]
"""What a file's record becomes where removed computers' records are screened: itself,
itself without the versions that do not stand, or None (not applied)."""


@dataclass(frozen=True)
class Stands:
    """What a carrier's files hold of one removed computer: its records (kind, uid,
    clock) and the versions of memories it made (memory uid, clock)."""

    records: frozenset[tuple[str, str, int]]
    versions: frozenset[tuple[str, int]]


_NOTHING = Stands(frozenset(), frozenset())


class Lawful:
    """The removed computers' records, as the computers that carry them say."""

    def __init__(self, state: SyncState) -> None:
        self.state = state
        self.profile = state.profile
        # what each of a carrier's files holds, by its name and mark (a file is read
        # again only when it changed): {(device, name): (mark, {removed id: Stands})}
        self._files: dict[tuple[str, str], tuple[object, dict[str, Stands]]] = {}
        # what the last sweep kept for the user ((way, computer) each, as merges say it)
        self.lost: list[tuple[str, str]] = []
        self._said_now: set[tuple[str, str]] = set()

    # -- who carries whom -----------------------------------------------------------------

    def carriers(self, chain: KeyChain) -> dict[str, str | None]:
        """For each computer removed, the computer whose files say what of it stands
        (None: no one still in, or a removal from before generations said so)."""
        m = chain.membership
        if m is None or not chain.removed:
            return {}
        removed = frozenset(chain.removed) | m.removed
        gens = list(m.generations.values())
        # one no longer in (left out, and in again under a new id: its old files gone)
        # carries no one: what it carried is kept where it is, as before these rules
        here = set(chain.members) | {self.state.device}
        # a computer that joined again carries what its former ids did (its join, which
        # whoever let it in signed, names them; this computer knows its own)
        successors = {
            f: j.device for j in m.used.values() if j.device in chain.members for f in j.former
        }  # fmt: skip
        successors.update({f: self.state.device for f in self.state.former()})
        found = {x: carrier(gens, removed, x, successors) for x in sorted(removed)}
        return {x: (c if c in here else None) for x, c in found.items()}

    def stands(
        self, layout: files.Layout, chain: KeyChain, by: str, device: str, whole: bool = False
    ) -> Stands | None:
        """What `by`'s files in the folder hold of the removed computer `device`; None
        when its folder is not there (not yet, or no longer: one that joined again under
        a new id, whose old folder went): then nothing of `device` is screened or
        dropped, as before these rules, until it is. A file there that cannot be read
        (damaged, or half-written by the engine) holds nothing of it; or, `whole`, makes
        it None too: what is dropped for good waits until every file can be read."""
        member = chain.members.get(by)
        if member is None or by not in layout.devices():
            return None
        # (`whole`: those refused already too, each one it cannot read; once a reader's
        # pass refused a damaged file, a plain listing leaves it out)
        changes, snaps = layout.numbered(by, refused=whole)
        names = [files.snapshot_name(n) for n in snaps] + [files.changes_name(n) for n in changes]
        got: list[tuple[str, str, int]] = []
        versions: list[tuple[str, int]] = []
        for name in names:
            held = self._held(layout, chain, by, member.signing, name)
            if held is None:
                if whole:
                    return None
                continue
            found = held.get(device, _NOTHING)
            got.extend(found.records)
            versions.extend(found.versions)
        return Stands(frozenset(got), frozenset(versions))

    def _held(
        self, layout: files.Layout, chain: KeyChain, by: str, signing: str, name: str
    ) -> dict[str, Stands] | None:
        """What one of `by`'s files holds of each removed computer (None: it cannot be
        read now)."""
        path = layout.device(by) / name
        mark = mark_of(path)
        cached = self._files.get((by, name))
        if cached is not None and cached[0] == mark and mark is not None:
            return cached[1]
        kind = "snapshot" if name.startswith("s-") else "changes"
        found: dict[str, tuple[list[tuple[str, str, int]], list[tuple[str, int]]]] = {}
        try:
            raw = frame.read_raw(
                path, layout.sync_id, kind, expect={"device": by, "seq": int(name[2:12])},
                check=lambda header: chain.key(str(header.get("key"))),
            )  # fmt: skip
            raw.verify(signing)
            for item in raw.records(chain.key(str(raw.header.get("key")))):
                record = from_wire(item)
                if record is None:
                    continue
                x = record.stamp[1]
                if x != by:
                    found.setdefault(x, ([], []))[0].append(
                        (record.kind, record.uid, record.stamp[0])
                    )
                for v in record.versions:
                    if v.device != by:
                        found.setdefault(v.device, ([], []))[1].append((record.uid, v.clock))
        except (SyncRefused, ValueError) as exc:
            log.debug("sync: %s of %s not read for what it carries: %s", name, by[:8], exc)
            return None  # not cached: read again when it opens
        held = {x: Stands(frozenset(r), frozenset(v)) for x, (r, v) in found.items()}
        self._files[(by, name)] = (mark, held)
        return held

    # -- what a file's records become -----------------------------------------------------

    def screen(self, layout: files.Layout, chain: KeyChain, source: str) -> Screen | None:
        """How the records of `source`'s files are screened (None: nothing to screen,
        no computer was removed that anyone carries)."""
        carriers = {x: c for x, c in self.carriers(chain).items() if c is not None}
        if not carriers:
            return None
        me = self.state.device
        cache: dict[str, Stands | None] = {}

        def stands(x: str) -> Stands | None:
            """None: take everything of `x` (these are its carrier's files, or its
            carrier has none in the folder)."""
            by = carriers[x]
            if by == source:
                return None
            if by == me:
                return _NOTHING  # this computer holds every one that stands
            if x not in cache:
                cache[x] = self.stands(layout, chain, by, x)
            return cache[x]

        def screened(record: Record) -> Record | None:
            x = record.stamp[1]
            if x in carriers:
                held = stands(x)
                key = (record.kind, record.uid, record.stamp[0])
                if held is not None and key not in held.records:
                    return None
            if not any(v.device in carriers for v in record.versions):
                return record
            kept = []
            for v in record.versions:
                held = stands(v.device) if v.device in carriers else None
                if held is None or (record.uid, v.clock) in held.versions:
                    kept.append(v)
            return replace(record, versions=tuple(kept))

        return screened

    # -- once a removal is known: dropping what does not stand ----------------------------

    def sweep(
        self,
        layout: files.Layout,
        chain: KeyChain,
        reading: Reading,
        stamp: Callable[[Connection], object],
    ) -> int:
        """Drop, once for each removal, the records and versions of the removed computer
        that its carrier's files do not hold; when any were dropped, every computer still
        in is read again from its first file. `stamp` gives what changed here its stamp
        first (a change made here to what is dropped goes out as it was made, not as a
        deletion). How many were dropped."""
        self.lost = []
        self._said_now = set()
        if not chain.removed or chain.membership is None:
            return 0
        done = _screened(self.state.get("screened"))
        carriers = self.carriers(chain)
        # each removal once, and again when the computer that carries it changed (it was
        # taken out in turn): what stands is then what the new one's files hold
        todo = sorted(x for x in chain.removed if x not in done or done[x] != carriers.get(x))
        if not todo:
            return 0
        me = self.state.device
        dropped = 0
        with self.state.db.transaction() as conn:
            stamp(conn)
            capture.set_recording(conn, False)  # undoing is no change of this computer's
            carry: list[str] = []
            for x in todo:
                by = carriers.get(x)
                if by is not None and by != me:
                    held = self.stands(layout, chain, by, x, whole=True)
                    if held is None:
                        # its carrier's files are not there, or one cannot be read now
                        # (the carrier writes a damaged file of its own again at its
                        # next pass): at a later pass. Dropping now would drop for good
                        # what stands in the unreadable file
                        continue
                    dropped += self._drop(conn, x, held)
                elif by == me:
                    carry.append(x)
                done[x] = by
            if carry:
                self.carry(conn, carry)
            capture.set_recording(conn, True)
            if dropped:
                # what the dropped records overwrote or deleted comes back from whoever
                # wrote it: every computer still in is read again, whole
                # (the members as the records say, and every computer listed: a list
                # may lag behind the records)
                listed = {
                    str(r[0])
                    for r in conn.execute("SELECT device FROM sync_peers WHERE removed = 0")
                }
                again = sorted((listed | set(chain.members)) - {me})
                for peer in again:
                    reading.drop(peer)
                conn.executemany(
                    "UPDATE sync_peers SET applied = 0 WHERE device = ?", [(p,) for p in again]
                )
                reading.save(conn)
                # but what they overwrote or deleted of this computer's own is in no
                # file (each holds what its writer wrote or carries): its status asks
                # every computer still in to send back what it holds stamped with its id
                asked = self.state.int("give_back") + 1
                self.state.set(conn, {"partial": None, "give_back": str(asked)})
            self.state.set(conn, {"screened": json.dumps(done, sort_keys=True)})
        if dropped:
            log.info(
                "sync: %d changes a removed computer made after its removal were undone", dropped
            )
        return dropped

    def _said(self, conn: Connection, x: str, uid: str, text: str, kind: object) -> None:
        """A memory's text undone, kept for the user to look at (it may be theirs: a
        computer removed while it had changes the remover had not read yet); once for a
        memory and a text (its current text is also its newest version's)."""
        memory = uid.split(":")[0]
        if (memory, text) in self._said_now:
            return
        self._said_now.add((memory, text))
        if lost.record(conn, lost.REMOVED, uid, x, text, str(kind) if kind else None):
            self.lost.append((lost.REMOVED, x))

    def _revert(self, conn: Connection, mid: int, uid: str, x: str, held: Stands) -> bool:
        """A memory whose current text the removed computer `x` wrote, and that stands
        otherwise (a version another computer made, or one of `x`'s that stands): back
        to its newest such version, its other versions kept (the computer that wrote
        the memory may never send them again: it does not read its own files). Whether
        there was one (else the memory goes)."""
        for version in conn.execute(
            "SELECT text, kind, importance, pinned, valid_from, valid_until, sync_clock, "
            "sync_device, changed_at FROM memory_history WHERE memory_id = ? "
            "ORDER BY sync_clock IS NULL, sync_clock DESC, id DESC",
            (mid,),
        ).fetchall():
            text, kind, importance, pinned, valid_from, valid_until, clock, device, at = version
            if device == x and (uid, int(clock)) not in held.versions:
                continue
            row = conn.execute(
                "SELECT source, source_message_id, created_at, updated_at, care_choice, origin, "
                "context FROM memories WHERE id = ?",
                (mid,),
            ).fetchone()
            self.profile.memories.put_arrived(
                conn,
                uid,
                ArrivedMemory(
                    text=str(text), kind=str(kind), importance=float(importance),
                    pinned=bool(pinned), source=str(row[0]), source_message_id=row[1],
                    # when that version was made, as its writer's record says (not when
                    # the version dropped was)
                    created_at=str(row[2]), updated_at=str(at or row[3]), valid_from=valid_from,
                    valid_until=valid_until, care_choice=row[4], origin=row[5], context=row[6],
                ),
            )  # fmt: skip
            if clock is not None:
                # and its record is that version's, under its stamp: the files of a
                # computer that carries the version's writer hold it from then on (with
                # no record, the memory stood here and in no file, and a computer
                # sweeping against these files dropped it)
                head = capture.head_of(conn, uid, str(device))
                sync_records.store(conn, MEMORY, uid, (int(clock), str(device)), head, None)
            return True
        return False

    def carry(self, conn: Connection, removed: list[str]) -> None:
        """This computer carries these removed computers now (it removed them, or took
        out the one that did): everything of theirs it holds goes out in its next change
        file, so that its files hold what stands of them."""
        seq = self.state.int("seq") + 1
        if capture.refile(conn, self.profile, removed, seq):
            self.state.set(conn, {"seq": str(seq)})

    def _drop(self, conn: Connection, x: str, held: Stands) -> int:
        memories: list[int] = []
        messages: list[int] = []
        dropped = 0
        for kind, uid, clock, body in _rows(
            conn, "SELECT kind, uid, clock, body FROM sync_records WHERE device = ?", x
        ):
            if (kind, uid, clock) in held.records:
                continue
            dropped += 1
            conn.execute("DELETE FROM sync_records WHERE kind = ? AND uid = ?", (kind, uid))
            if body is None:
                continue  # a deletion: undone, what it deleted comes back from the others
            if kind == MEMORY:
                conn.execute("DELETE FROM sync_records WHERE kind = ? AND uid = ?", (CONTEXT, uid))
                conn.execute("DELETE FROM sync_conflicts WHERE uid = ?", (uid,))
                row = conn.execute(
                    "SELECT id, text, kind FROM memories WHERE uid = ?", (uid,)
                ).fetchone()
                if row:
                    self._said(conn, x, uid, str(row[1] or ""), row[2])
                    if not self._revert(conn, int(row[0]), uid, x, held):
                        memories.append(int(row[0]))
            elif kind == CONTEXT:
                self.profile.memories.put_arrived_context(conn, uid, None)
            elif kind == MESSAGE:
                conn.execute("DELETE FROM sync_links WHERE message = ?", (uid,))
                row = conn.execute("SELECT id FROM messages WHERE uid = ?", (uid,)).fetchone()
                if row:
                    messages.append(int(row[0]))
            elif kind == CONVERSATION:
                sync_records.drop_children(conn, uid)
                row = conn.execute("SELECT id FROM conversations WHERE uid = ?", (uid,)).fetchone()
                if row:
                    self.profile.conversations.remove_arrived_conversation(conn, int(row[0]))
            # a setting keeps its value until a computer still in sends one
        going = set(memories)
        versions: list[int] = []
        for vid, mid, uid, clock, text, memory_kind in conn.execute(
            "SELECT h.id, m.id, m.uid, h.sync_clock, h.text, h.kind FROM memory_history h "
            "JOIN memories m ON m.id = h.memory_id WHERE h.sync_device = ?",
            (x,),
        ).fetchall():
            if int(mid) not in going and (str(uid), int(clock)) not in held.versions:
                versions.append(int(vid))
                self._said(conn, x, f"{uid}:{int(clock)}", str(text or ""), memory_kind)
        dropped += len(versions)
        if versions:
            self.profile.memories.drop_versions(conn, versions)
        if messages:
            self.profile.conversations.purge_rows(conn, messages)
        if memories:
            self.profile.memories.purge_rows(conn, memories)
        return dropped


def _screened(text: str | None) -> dict[str, str | None]:
    """The removals swept here, each with the computer that carried it then (a list of
    ids from before the carrier was kept: carried by no one known)."""
    try:
        value = json.loads(text or "{}")
    except ValueError:
        return {}
    if isinstance(value, list):
        return {str(x): "" for x in value}
    if not isinstance(value, dict):
        return {}
    return {str(x): (str(by) if isinstance(by, str) else None) for x, by in value.items()}


def _rows(conn: Connection, sql: str, device: str) -> Iterator[tuple[str, str, int, str | None]]:
    """The rows of a query about one computer's stamps (four columns each)."""
    for row in conn.execute(sql, (device,)).fetchall():
        yield row[0], row[1], int(row[2]), row[3]


__all__ = ["Lawful", "Screen", "Stands"]
