"""This computer's own files in the sync folder, as it wrote them, checked at every pass.

For each file it has there, the digest (with its size, times and inode, so a file that
did not change is not read again), and what a pass finds when it compares them with
what the folder holds.

An engine may copy a half-written file back over its writer's own copy, delete it, put
an older version back, or keep another computer's version of it. Only this computer
ever writes its own files, so any difference is damage: the pass writes the file again
from the database (a change file: a fresh snapshot covering everything still standing,
after which the damaged change files go). The membership records in keys/ are kept by
every computer that took them (a later computer needs each to trust what builds on
it, and its writer may be gone): one missing or damaged is written back byte for byte
from the copy the profile keeps. A valid file signed with this computer's key that it
did not write is another matter: a copy of this computer is at work under its
identity (a cloned disk, a restored backup), which core/sync/twins.py settles.

The digest of each file is recorded before the file takes its name (frame.atomic_write's
`staged`), so a pass killed between the rename and recording it still knows the file
as its own."""

from __future__ import annotations

import hashlib
import json
import logging
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from desktop_mem.core.db.connection import Connection
from desktop_mem.core.errors import SyncRefused
from desktop_mem.core.sync import crypto, files, frame, records
from desktop_mem.core.sync.membership import Join

if TYPE_CHECKING:
    from desktop_mem.core.sync.keys import KeyChain
    from desktop_mem.core.sync.state import SyncState

log = logging.getLogger(__name__)

PAST = 16  # earlier digests kept under one name (a snapshot is written again under its name)
HANDLED = 64  # other writers' files already acted upon, remembered so they count once
KEYS = "keys/"

Mark = list[int]  # size, mtime (ns), inode, ctime (ns)
Record = records.KeyFile | Join


def mark_of(path: Path) -> Mark | None:
    """What changes when a file is written, replaced or touched; None when no regular
    file is there."""
    try:
        st = os.lstat(path)
    except OSError:
        return None
    if not stat.S_ISREG(st.st_mode):
        return None
    return [st.st_size, st.st_mtime_ns, st.st_ino, st.st_ctime_ns]


@dataclass
class Findings:
    """What one check of this computer's own files found."""

    damaged: list[str] = field(default_factory=list)  # change files and snapshots
    status: bool = False  # its status file is not the one it wrote
    restored: list[str] = field(default_factory=list)  # membership records written back
    # valid files signed with this computer's key that it did not write: (name, digest)
    foreign: list[tuple[str, str]] = field(default_factory=list)
    # a copy of this computer already went on as a new computer (a join it signed, via
    # its own key, that this computer did not write): this one keeps the identity
    twin_left: bool = False
    counter: int = 0  # the highest status counter another writer used under its name
    # files under its name, numbered beyond what it wrote and not signed by it: removed
    planted: list[str] = field(default_factory=list)

    @property
    def files(self) -> bool:
        return bool(self.damaged)


class Ledger:
    """The `sync.own` key of the profile's meta: for each of this computer's files that
    should be in the folder, its digest and mark; the digests it wrote earlier under
    each name; and what it already did about other writers."""

    def __init__(self, state: SyncState) -> None:
        self.state = state
        self.db = state.db
        self._data: dict[str, Any] | None = None
        self._staged: dict[str, str] = {}  # name -> digest, written and not yet in place
        self._parsed: dict[str, Record] = {}

    # -- kept in the profile ---------------------------------------------------------

    def _load(self) -> dict[str, Any]:
        if self._data is None:
            raw = self.state.get("own")
            data = json.loads(raw) if raw else None
            if not isinstance(data, dict):
                data = {"new": True}
            for key, empty in (("files", {}), ("past", {}), ("handled", []), ("suspect", []),
                               ("answered", {})):  # fmt: skip
                data.setdefault(key, empty)
            self._data = data
        return self._data

    def dumps(self) -> str:
        return json.dumps(self._load(), sort_keys=True, separators=(",", ":"))

    def save(self, conn: Connection) -> None:
        self.state.set(conn, {"own": self.dumps()})

    def reset(self, conn: Connection) -> None:
        """A new identity: nothing in the folder is its own yet."""
        self._data = None
        self._staged.clear()
        self.state.set(conn, {"own": json.dumps({"files": {}})})

    def reload(self) -> None:
        self._data = None

    # -- what this computer writes ---------------------------------------------------

    def staged(self, name: str) -> frame.Staged:
        """The hook that records a file's digest before it takes its name."""

        def note(digest: str) -> None:
            data = self._load()
            past = data["past"].setdefault(name, [])
            if digest not in past:
                past.append(digest)
                del past[:-PAST]
            self._staged[name] = digest
            with self.db.transaction() as conn:
                self.save(conn)

        return note

    def landed(self, conn: Connection, name: str, path: Path) -> None:
        """The file staged under `name` is in place (inside the caller's transaction)."""
        digest = self._staged.pop(name, None)
        if digest is not None:
            self._load()["files"][name] = [digest, mark_of(path)]
            self.save(conn)

    def forget(self, conn: Connection, names: list[str]) -> None:
        """Files this computer removed from the folder (compacted away)."""
        data = self._load()
        for name in names:
            data["files"].pop(name, None)
            data["past"].pop(name, None)
        self.save(conn)

    def older_than(self, snapshot: int) -> list[str]:
        """The change files and snapshots it knows of that a snapshot at `snapshot` left
        behind (their digests are no longer needed)."""
        names = set(self._load()["files"]) | set(self._load()["past"])
        return sorted(
            n for n in names
            if (files.CHANGES.fullmatch(n) and int(n[2:12]) <= snapshot)
            or (files.SNAPSHOT.fullmatch(n) and int(n[2:12]) < snapshot)
        )  # fmt: skip

    def mine(self, name: str, digest: str) -> bool:
        """Whether this computer wrote this version of the file (a digest or its start)."""
        data = self._load()
        known = list(data["past"].get(name, []))
        entry = data["files"].get(name)
        if entry:
            known.append(entry[0])
        return any(d.startswith(digest) for d in known if digest)

    def knows(self, name: str) -> bool:
        data = self._load()
        return name in data["files"] or name in data["past"]

    # -- what others say -------------------------------------------------------------

    def reported(self, name: str, digest: str) -> None:
        """Another computer says it took in this version of one of this computer's files:
        one this computer did not write is a copy of it at work. Change files only: a
        snapshot is written again under its name, often more than its earlier digests
        kept here, and another computer may name one of those."""
        if not digest or not files.CHANGES.fullmatch(name):
            return
        if not self.knows(name) or self.mine(name, digest):
            return
        data = self._load()
        if digest[:16] in data["handled"] or [name, digest] in data["suspect"]:
            return
        data["suspect"].append([name, digest])
        with self.db.transaction() as conn:
            self.save(conn)

    def asked(self, peer: str, name: str, since: str) -> bool:
        """A computer says it has been stuck at one of this computer's files since
        `since`: True the first time (a fresh snapshot answers it), False after."""
        data = self._load()
        said = f"{name}@{since}"
        if data["answered"].get(peer) == said:
            return False
        data["answered"][peer] = said
        with self.db.transaction() as conn:
            self.save(conn)
        return True

    def handled(self, conn: Connection, digests: list[str]) -> None:
        """Other writers' files acted upon: they count once."""
        data = self._load()
        for d in digests:
            if d[:16] not in data["handled"]:
                data["handled"].append(d[:16])
        del data["handled"][:-HANDLED]
        data["suspect"] = []
        self.save(conn)

    # -- the check -------------------------------------------------------------------

    def check(self, layout: files.Layout, chain: KeyChain, signing: str) -> Findings:
        """Compare this computer's files in the folder with what it wrote."""
        data = self._load()
        me = self.state.device
        out = Findings()
        first = bool(data.pop("new", False))
        folder = layout.device(me)
        snap = self.state.int("snapshot")
        written = self.state.int("written")
        changed = first
        for name, entry in list(data["files"].items()):
            if name.startswith(KEYS):
                continue
            path = folder / name
            mark = mark_of(path)
            if mark is not None and mark == entry[1]:
                continue
            verdict, digest, counter = self._look(path, name, layout, chain, signing)
            if verdict == "same":
                entry[1] = mark
                changed = True
            elif verdict == "foreign":
                out.foreign.append((name, digest))
                out.counter = max(out.counter, counter)
            elif name == files.STATUS:
                out.status = True
            else:
                out.damaged.append(name)
            if verdict in ("missing", "damaged", "older"):
                log.info("sync: this computer's %s in the folder is %s", name, verdict)
        changes, snaps = layout.numbered(me, refused=True)  # a damaged one, quarantined too
        present = [files.changes_name(n) for n in changes if snap < n <= written]
        present += [files.snapshot_name(n) for n in snaps if snap <= n <= written]
        if files.lstat(folder / files.STATUS) is not None:
            present.append(files.STATUS)
        for name in present:  # under its name, not written by it: its own, foreign or junk
            if name in data["files"]:
                continue
            path = folder / name
            verdict, digest, counter = self._look(path, name, layout, chain, signing)
            if verdict == "same" or (first and verdict == "foreign"):
                # a write killed before it was recorded; or, the first time, a file from
                # before this computer kept digests
                data["files"][name] = [digest, mark_of(path)]
                if digest not in data["past"].setdefault(name, []):
                    data["past"][name].append(digest)
                changed = True
            elif verdict == "foreign":
                out.foreign.append((name, digest))
                out.counter = max(out.counter, counter)
            elif name == files.STATUS:
                out.status = True
            else:
                out.damaged.append(name)
        beyond = [files.changes_name(n) for n in changes if n > written]
        beyond += [files.snapshot_name(n) for n in snaps if n > written]
        changed |= self._beyond(beyond, layout, chain, signing, out)
        out.foreign += [(n, d) for n, d in data["suspect"]]
        out.foreign = [(n, d) for n, d in out.foreign if d[:16] not in data["handled"]]
        changed |= self._check_records(layout, chain, me, signing, out)
        if changed:
            with self.db.transaction() as conn:
                self.save(conn)
        return out

    def _beyond(
        self,
        names: list[str],
        layout: files.Layout,
        chain: KeyChain,
        signing: str,
        out: Findings,
    ) -> bool:
        """Files under its name, numbered beyond what it wrote: its own (a write killed
        before it was recorded), a copy of it at work (signed with its key), or planted
        by someone who can write the folder, which readers would wait for, or take as
        the newest snapshot, for good: removed, said once in the log. Whether the ledger
        changed."""
        data = self._load()
        folder = layout.device(self.state.device)
        changed = False
        for name in names:
            if name in data["files"]:
                continue
            path = folder / name
            verdict, digest, counter = self._look(path, name, layout, chain, signing)
            if verdict == "same":
                data["files"][name] = [digest, mark_of(path)]
                changed = True
            elif verdict == "foreign":
                out.foreign.append((name, digest))
                out.counter = max(out.counter, counter)
            elif verdict != "missing" and files.remove_file(path):
                out.planted.append(name)
                log.info("sync: %s under this computer's name was not written by it: removed", name)
        return changed

    def _look(
        self, path: Path, name: str, layout: files.Layout, chain: KeyChain, signing: str
    ) -> tuple[str, str, int]:
        """What is under one of this computer's names: "same" (the version it wrote
        last, or one it wrote), "older" (an earlier version of its own), "foreign"
        (valid, signed with its key, not written by it), "damaged" or "missing"; the
        digest; a status's counter."""
        if mark_of(path) is None:
            return "missing", "", 0
        kind = (
            "status" if name == files.STATUS else "snapshot" if name.startswith("s-") else "changes"
        )
        try:
            raw = frame.read_raw(path, layout.sync_id, kind)
        except SyncRefused:
            return "damaged", "", 0
        digest = raw.digest
        entry = self._load()["files"].get(name)
        if entry is not None and entry[0] == digest:
            return "same", digest, 0
        if self.mine(name, digest):
            return ("older" if entry is not None else "same"), digest, 0
        counter = 0
        try:
            # one of its own files copied under another of its names (anyone can copy a
            # file) is damage to mend, not a copy of this computer writing under its name
            if raw.header.get("device") != self.state.device or (
                kind != "status" and raw.header.get("seq") != int(name[2:12])
            ):
                raise SyncRefused("it is not what its name says")
            raw.verify(signing)
            if kind == "status":
                status = next(iter(raw.records(chain.key(str(raw.header.get("key"))))), {})
                counter = int(status.get("counter") or 0) if isinstance(status, dict) else 0
        except (SyncRefused, ValueError, TypeError):
            return "damaged", digest, 0
        return "foreign", digest, counter

    def _check_records(
        self, layout: files.Layout, chain: KeyChain, me: str, signing: str, out: Findings
    ) -> bool:
        """The membership records in keys/. Every record this computer has taken is one
        it keeps there: a later computer needs each to trust what builds on it, and its
        writer may be gone (removed, or a copy that went on as another). One missing, or
        that is not a version this computer took, is written back byte for byte from the
        copy the profile keeps; unless it is a valid record signed with this computer's
        key that it did not write (a copy of it at work). Returns whether the ledger
        changed."""
        data = self._load()
        changed = False
        kept = self._kept(chain)
        if chain.written is None:  # from before this version: what it signed is its own
            chain.written = {digest for digest, found in kept if _signed_by(found, me)}
        named: dict[str, list[tuple[str, Record]]] = {}
        for digest, found in kept:
            if _signed_by(found, me) and digest not in chain.written:
                if not self.mine(KEYS + _name(found), digest):
                    if isinstance(found, records.KeyFile) or found.via != "key":
                        out.foreign.append((KEYS + _name(found), digest))  # it let someone in
                    else:
                        out.twin_left = True  # a copy of it went on as a new computer
                    continue
                # written here by a pass killed once it was in place, before the key chain
                # was kept: its own (a new set, which the caller compares with the old)
                chain.written = chain.written | {digest}
            named.setdefault(_name(found), []).append((digest, found))
        for name, versions in sorted(named.items()):
            path = layout.keys / name
            mark = mark_of(path)
            entry = data["files"].get(KEYS + name)
            if entry is not None and mark is not None and mark == entry[1]:
                continue
            kind = "keys" if name.endswith(".dmk") else "join"
            there = files.read_bytes(path, kind) if mark is not None else None
            now = hashlib.sha256(there).hexdigest() if there is not None else None
            if now is None or now not in {d for d, _f in versions}:
                if there is not None and self._signed_here(there, layout, name, signing):
                    out.foreign.append((KEYS + name, now or ""))
                    continue
                # its own first (what it wrote, what let it in), else any it took
                now = next(
                    (d for d, f in versions if d in chain.written or _about(f, me)),
                    versions[0][0],
                )
                frame.atomic_write(path, [chain.kept[now][1]], me)
                out.restored.append(name)
                log.info("sync: %s in keys/ was written back", name)
            data["files"][KEYS + name] = [now, mark_of(path)]
            changed = True
        return changed

    def _signed_here(self, data: bytes, layout: files.Layout, name: str, signing: str) -> bool:
        """Whether a membership record's bytes are a valid record signed with this
        computer's key (`signing`, its public half), under its own name: one of its
        records copied under another's name (anyone can copy a file) is a misplaced copy,
        written back like any damage, not a copy of this computer at work."""
        kind = records.GENERATION if name.endswith(".dmk") else records.JOIN
        try:
            raw = frame.parse_raw(data, layout.keys / name, layout.sync_id, kind)
            found = (
                records.key_file(raw) if kind == records.GENERATION else records.join_record(raw)
            )
        except SyncRefused:
            return False
        me = self.state.device
        return (
            _name(found) == name
            and _signed_by(found, me)
            and crypto.verify(signing, raw.signature, raw.frame + raw.body)
        )

    def records(self, chain: KeyChain) -> list[tuple[str, Record]]:
        """The membership records taken (generations, joins), by digest."""
        return self._kept(chain)

    def _kept(self, chain: KeyChain) -> list[tuple[str, Record]]:
        """The membership records taken, read once per process."""
        out = []
        for digest, (kind, raw) in sorted(chain.kept.items()):
            if digest not in self._parsed:
                try:
                    self._parsed[digest] = records.from_kept(kind, raw, chain.sync_id)
                except SyncRefused:
                    continue
            out.append((digest, self._parsed[digest]))
        return out


def _name(found: Record) -> str:
    return found.record.name if isinstance(found, records.KeyFile) else found.name


def _signed_by(found: Record, me: str) -> bool:
    if isinstance(found, records.KeyFile):
        return found.record.writer == me
    return found.voucher == me


def _about(found: Record, me: str) -> bool:
    """A join that let this computer in (it keeps it in the folder for those who come
    later, whoever signed it)."""
    return not isinstance(found, records.KeyFile) and found.device == me
