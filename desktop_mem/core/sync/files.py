"""The sync folder on disk: where each file goes, what it is called, and how the folder
is listed, copied and cleared without following anything in it.

    <folder>/desktop-mem-<sync id>/
        keys/<generation>-<computer>.dmk    the sync key, sealed to each computer
        <computer>/c-<n>.dmc                 the computer's changes, n = 1, 2, ...
        <computer>/s-<n>.dms                 a snapshot: its live changes up to n
        <computer>/status.dmd                its name, what it has read, when
        pair-<id>.dmp                        a one-time pairing offer (an hour)

Only random identifiers and numbers name anything: no profile, person or text. Each
file has one writer, the computer whose folder it is in (the key files: the computer
named in them), so a sync engine never has two versions of one file to reconcile.
A file is written under a temporary name and renamed when whole; anything else in the
folder (an engine's temporary file, a conflict copy, a half-delivered file that does
not open) is not read, or refused without being applied. (How a file is written and
read, its frame and signature: core/sync/frame.py.)

Whoever can write the folder needs no key to put a link, a FIFO or a sparse file there.
So every path below the folder the user chose goes through core/sync/fsafe.py (nothing
followed, only regular files opened), each kind of file has a size cap checked before
reading (CAPS), and a file refused for what it is is kept in the pass's quarantine
(core/sync/quarantine.py): said once, then left alone until it changes.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path

from desktop_mem.core.errors import SyncError, SyncRefused
from desktop_mem.core.sync import crypto, fsafe
from desktop_mem.core.sync.quarantine import Quarantine

log = logging.getLogger(__name__)

PREFIX = "desktop-mem-"

CHANGES = re.compile(r"c-(\d{10})\.dmc")
SNAPSHOT = re.compile(r"s-(\d{10})\.dms")
STATUS = "status.dmd"
KEYFILE = re.compile(r"(\d{6})-([0-9a-f]{32})\.dmk")
JOINFILE = re.compile(r"join-([0-9a-f]{32})\.dmj")
REQUESTFILE = re.compile(r"req-([0-9a-f]{32})\.dmq")
PAIRFILE = re.compile(r"pair-([0-9a-f]{32})\.dmp")
DEVICE = re.compile(r"[0-9a-f]{32}")
_TEMP = ".~dm-"

# The most desktop-mem reads of each kind of file, checked before a byte is read (a
# sparse file says 1.5 GB and costs nothing on disk to whoever planted it). A key file
# holds a seal per computer and every earlier key (a few KB); a status, a name and a
# number per computer; an offer, one sealed key list. Change files and snapshots hold
# the profile: the largest honest one is a snapshot, 7.8 MB for 10,000 memories and
# 100,000 messages compacted (docs/benchmarks.md, sync), so 1 GiB leaves room for a
# profile a hundred times that, and bounds what one file can make a pass hold in memory.
CAPS = {
    "keys": 1 << 20,
    "join": 64 << 10,
    "request": 64 << 10,
    "status": 1 << 20,
    # an offer carries every membership record its maker holds (a few kB a generation)
    "pair": 4 << 20,
    "changes": 1 << 30,
    "snapshot": 1 << 30,
}


def changes_name(seq: int) -> str:
    return f"c-{seq:010d}.dmc"


def snapshot_name(seq: int) -> str:
    return f"s-{seq:010d}.dms"


def key_name(generation: int, writer: str) -> str:
    return f"{generation:06d}-{writer}.dmk"


def join_name(device: str) -> str:
    return f"join-{device}.dmj"


def request_name(device: str) -> str:
    return f"req-{device}.dmq"


def temp_prefix(owner: str) -> str:
    return f"{_TEMP}{owner[:8]}-"


# -- what the folder's contents may do ----------------------------------------------------


class Refused(SyncRefused):
    """Refused for what the file is (its kind, its bytes): the same file would be refused
    again, so it is quarantined until it changes. `final` False: cut short (an engine may
    still be delivering it: read again once it changes, and not counted as ignored)."""

    def __init__(self, message: str, identity: fsafe.Identity | None, final: bool = True) -> None:
        super().__init__(message)
        self.identity = identity
        self.final = final


class Quarantined(SyncRefused):
    """A file an earlier pass refused, still the same file: left alone, not said again."""

    final = True  # it was refused for what it is: waiting does not change it


# The quarantine of the pass under way (see core/sync/quarantine.py). A context variable
# so that every read and listing of the folder consults it, whichever module reads (the
# key chain, the incoming files), without each passing it along.
_ACTIVE: ContextVar[Quarantine | None] = ContextVar("desktop_mem_sync_quarantine", default=None)


@contextlib.contextmanager
def guarded(quarantine: Quarantine) -> Iterator[Quarantine]:
    """Reads and listings of the sync folder inside this block use `quarantine`."""
    token = _ACTIVE.set(quarantine)
    try:
        yield quarantine
    finally:
        _ACTIVE.reset(token)


def refuse(
    place: str, identity: fsafe.Identity | None, why: str, final: bool, said: bool = True
) -> None:
    """A file at `place` refused for what it is: logged, and kept in the quarantine of the
    pass under way, so it is not read again while it stays the same."""
    quarantine = _ACTIVE.get()
    log.info("sync: %s refused: %s", place, why)
    if quarantine is not None and identity is not None:
        quarantine.add(place, identity, why, final, said)


def _admit(place: str, st: os.stat_result, kind: str | None = None) -> bool:
    """Whether a listing shows an entry: a real folder (no `kind`) or a regular file
    within the cap of its `kind` that no earlier pass refused as it is now. A link, a
    FIFO, a device, a socket or a file too large is refused here (said once, by the
    quarantine), never opened."""
    quarantine = _ACTIVE.get()
    ident = fsafe.identity(st)
    entry = quarantine.look(place, ident) if quarantine is not None else None
    if entry is not None and entry.final:
        return False
    why = fsafe.what_is_wrong(st, folder=kind is None)
    if why is None and kind is not None and st.st_size > CAPS[kind]:
        why = fsafe.too_large(st.st_size, CAPS[kind])
    if why:
        if entry is None:
            log.info("sync: %s refused: %s", place, why)
            if quarantine is not None:
                quarantine.add(place, ident, why, said=False)
        return False
    return True


def gate(place: str, st: os.stat_result) -> None:
    """Before a file is opened: one refused at an earlier pass, still the same, is not."""
    quarantine = _ACTIVE.get()
    entry = quarantine.look(place, fsafe.identity(st)) if quarantine is not None else None
    if entry is None:
        return
    if entry.final:
        raise Quarantined(entry.why)
    raise SyncRefused(entry.why)  # cut short, and not grown since


def _not_followed(label: str, path: Path, why: str) -> SyncError:
    what = "a symbolic link" if why == fsafe.LINK else "not a folder"
    return SyncError(
        f"{label} {path} is {what}, and desktop-mem never reads or writes through it: put "
        "the real folder in its place (remove what is there), or move this computer to "
        "another folder (`desktop-mem sync move FOLDER`), then sync again.",
        reason="sync_folder_link",
    )


# -- the folder -------------------------------------------------------------------------


def anchored(path: Path) -> tuple[Path, tuple[str, ...]]:
    """The folder the user chose, and the parts of `path` from the profile's folder
    (desktop-mem-<id>) down: the folder's contents, where nothing is followed."""
    parts = Path(path).parts
    for i in range(len(parts) - 1, 0, -1):
        if parts[i].startswith(PREFIX) and DEVICE.fullmatch(parts[i][len(PREFIX) :]):
            return Path(*parts[:i]), tuple(parts[i:])
    raise ValueError(f"{path} is not inside a profile's sync folder")


@contextlib.contextmanager
def _parent(path: Path) -> Iterator[tuple[fsafe.Dir, str]]:
    anchor, parts = anchored(path)
    with fsafe.Dir.open(anchor, parts[:-1]) as folder:
        yield folder, parts[-1]


def read_bytes(path: Path, kind: str) -> bytes | None:
    """A file of the folder, whole: nothing on the way followed, nothing read past the
    cap of its kind. None when no regular file of at most that size is there."""
    anchor, parts = anchored(path)
    try:
        with (
            fsafe.Dir.open(anchor, parts[:-1]) as folder,
            folder.reader(parts[-1], CAPS[kind]) as reader,
        ):
            return reader.rest()
    except (SyncError, OSError):
        return None


def remove_file(path: Path) -> bool:
    """Remove a file of the sync folder (a link itself, never what it points to)."""
    try:
        with _parent(path) as (folder, name):
            folder.unlink(name)
    except (OSError, SyncRefused):
        return False
    return True


def remove_tree(path: Path) -> None:
    """Remove a folder (or anything else) in the sync folder, nothing followed."""
    with contextlib.suppress(OSError, SyncRefused), _parent(path) as (folder, name):
        folder.remove_tree(name)


def size_of(path: Path) -> int:
    """The size of a regular file in the sync folder; 0 for anything else, or none."""
    st = lstat(path)
    return st.st_size if st is not None and fsafe.is_file(st) else 0


def lstat(path: Path) -> os.stat_result | None:
    """What is at `path` in the sync folder (a link itself), None when nothing is."""
    try:
        with _parent(path) as (folder, name):
            return folder.lstat(name)
    except (OSError, SyncRefused):
        return None


def present(path: Path) -> bool:
    """Whether something has that name in the sync folder (a link or a FIFO too: reading
    it says why it is refused)."""
    return lstat(path) is not None


@dataclass
class Layout:
    """The profile's folder inside the folder the user chose."""

    root: Path  # <chosen>/desktop-mem-<sync id>
    sync_id: str

    @classmethod
    def of(cls, chosen: Path, sync_id: str) -> Layout:
        return cls(Path(chosen) / f"{PREFIX}{sync_id}", sync_id)

    @property
    def keys(self) -> Path:
        return self.root / "keys"

    def device(self, device: str) -> Path:
        return self.root / device

    def _open(self, *parts: str, create: bool = False) -> fsafe.Dir:
        return fsafe.Dir.open(self.root.parent, (self.root.name, *parts), create)

    def _listing(self, *parts: str) -> list[tuple[str, os.stat_result]]:
        try:
            with self._open(*parts) as folder:
                return folder.scan()
        except (OSError, SyncRefused):  # not there; or a link, said where it is listed
            return []

    def check(self) -> bool:
        """Whether the profile's folder is there. SyncError when it, or its keys folder,
        is a link or not a folder: nothing is read or written through it."""
        try:
            with self._open() as root:
                try:
                    st = root.lstat("keys")
                except FileNotFoundError:
                    return True
                if why := fsafe.what_is_wrong(st, folder=True):
                    raise _not_followed("The sync folder's keys folder", self.keys, why)
        except (FileNotFoundError, NotADirectoryError):
            return False
        except fsafe.Unsafe as exc:
            raise _not_followed("The sync folder", self.root, str(exc)) from None
        return True

    def own_folder(self, device: str) -> str | None:
        """This computer's folder is a real folder: anything else under its name (a link
        someone put there) is removed, never what it points to, and the folder made
        again. Returns what was found, to be said once."""
        with self._open() as root:
            try:
                st = root.lstat(device)
            except FileNotFoundError:
                return None  # made when first written
            why = fsafe.what_is_wrong(st, folder=True)
            if why is None:
                return None
            root.remove_tree(device)
            root.sub(device, create=True).close()
        what = "a symbolic link" if why == fsafe.LINK else "not a folder"
        log.info("sync: this computer's folder was %s; made again", what)
        return (
            f"this computer's own folder ({device[:8]}) was {what}: it was removed (never "
            "what it pointed to) and made again"
        )

    def devices(self) -> list[str]:
        """The computers that have a folder here (a real one: a link is not followed)."""
        return sorted(
            name for name, st in self._listing() if DEVICE.fullmatch(name) and _admit(name, st)
        )

    def numbered(self, device: str, refused: bool = False) -> tuple[list[int], list[int]]:
        """A computer's change files and snapshots present, by number. `refused`: those
        refused for what they are too (a reader is blocked by one: reading it raises
        Quarantined without opening it)."""
        return self._numbered(device, refused, refused)

    def to_read(self, device: str) -> tuple[list[int], list[int]]:
        """Another computer's files as a reader sees them, from one listing: its change
        files present, those refused for what they are too (they block the reader as
        `numbered(refused=True)` says), and its snapshots present that were not refused
        (one refused is no place to go on from)."""
        return self._numbered(device, True, False)

    def _numbered(
        self, device: str, refused_changes: bool, refused_snapshots: bool
    ) -> tuple[list[int], list[int]]:
        changes: list[int] = []
        snaps: list[int] = []
        for name, st in self._listing(device):
            if m := CHANGES.fullmatch(name):
                if _admit(f"{device}/{name}", st, "changes") or refused_changes:
                    changes.append(int(m.group(1)))
            elif (m := SNAPSHOT.fullmatch(name)) and (
                _admit(f"{device}/{name}", st, "snapshot") or refused_snapshots
            ):
                snaps.append(int(m.group(1)))
        return sorted(changes), sorted(snaps)

    def key_files(self) -> list[tuple[int, str, Path]]:
        out = []
        for name, st in self._listing("keys"):
            if (m := KEYFILE.fullmatch(name)) and _admit(f"keys/{name}", st, "keys"):
                out.append((int(m.group(1)), m.group(2), self.keys / name))
        return sorted(out)

    def join_files(self) -> list[tuple[str, Path]]:
        """The joins in keys/: (the computer let in, the file)."""
        return self._named(JOINFILE, "join")

    def request_files(self) -> list[tuple[str, Path]]:
        """The requests to be let in, in keys/: (the computer asking, the file)."""
        return self._named(REQUESTFILE, "request")

    def _named(self, pattern: re.Pattern[str], kind: str) -> list[tuple[str, Path]]:
        out = []
        for name, st in self._listing("keys"):
            if (m := pattern.fullmatch(name)) and _admit(f"keys/{name}", st, kind):
                out.append((m.group(1), self.keys / name))
        return sorted(out)

    def pair_files(self) -> list[Path]:
        return sorted(
            self.root / name
            for name, st in self._listing()
            if PAIRFILE.fullmatch(name) and _admit(name, st, "pair")
        )

    def size(self) -> int:
        """Bytes of desktop-mem's files in the folder."""
        try:
            with self._open() as root:
                return root.size(depth=2)
        except (OSError, SyncRefused):
            return 0

    def clear_temporary(self, device: str) -> None:
        """Temporary files this computer left (a write killed half-way): any in its own
        folder, and in the folders all computers write (keys/, the root) only those named
        for it, since another computer may be writing one there right now (a network
        share is one folder for all)."""
        for parts, prefix in (
            ((device,), _TEMP),
            (("keys",), temp_prefix(device)),
            ((), temp_prefix(device)),
        ):
            with contextlib.suppress(OSError, SyncRefused), self._open(*parts) as folder:
                for name, _st in folder.scan():
                    if name.startswith(prefix):
                        folder.remove_tree(name)


def find_profiles(chosen: Path, links: bool = False) -> list[str]:
    """The sync ids of the profiles synced through a folder (with `links`, also those
    whose folder is a link or not a folder, to be said so)."""
    try:
        with fsafe.Dir.open(Path(chosen)) as folder:
            entries = folder.scan()
    except (OSError, SyncRefused):
        return []
    return sorted(
        name[len(PREFIX) :]
        for name, st in entries
        if name.startswith(PREFIX)
        and DEVICE.fullmatch(name[len(PREFIX) :])
        and (links or fsafe.is_folder(st))
    )


def copy_folder(src: Layout, dst: Layout) -> list[str]:
    """A copy of the profile's folder `src` as `dst`: desktop-mem's own files only (the
    key files, each computer's change files, snapshots and status, the pairing offers),
    each a regular file within its cap, read without following a link. Anything else
    (a link, a FIFO, an engine's file) is left behind: its names are returned. Made
    under a temporary name and renamed into place, so an engine (or a computer) never
    sees half of it."""
    skipped: list[str] = []
    temporary = f"{_TEMP}move-{crypto.new_id()[:12]}"
    with fsafe.Dir.open(dst.root.parent) as target, src._open() as root:
        made = target.sub(temporary, create=True)
        try:
            with made:
                for name, st in root.scan():
                    if name == "keys" or DEVICE.fullmatch(name):
                        _copy_inner(root, name, st, made, skipped)
                    elif not (PAIRFILE.fullmatch(name) and _copied(root, name, st, made, "pair")):
                        skipped.append(name)
            target.rename_into(temporary, target, dst.root.name)
        except BaseException:
            target.remove_tree(temporary)
            raise
        target.fsync()
    if skipped:
        log.info("sync: %d entries of the sync folder not copied (not desktop-mem's)", len(skipped))
    return skipped


def _copy_inner(
    root: fsafe.Dir, name: str, st: os.stat_result, made: fsafe.Dir, skipped: list[str]
) -> None:
    if not fsafe.is_folder(st):
        skipped.append(name)
        return
    try:
        inner = root.sub(name)
    except SyncRefused:
        skipped.append(name)
        return
    with inner, made.sub(name, create=True) as copy:
        for child, cst in inner.scan():
            kind = _kind_in(name, child)
            if kind is None or not _copied(inner, child, cst, copy, kind):
                skipped.append(f"{name}/{child}")


def _kind_in(folder: str, name: str) -> str | None:
    if folder == "keys":
        return "keys" if KEYFILE.fullmatch(name) else None
    if CHANGES.fullmatch(name):
        return "changes"
    if SNAPSHOT.fullmatch(name):
        return "snapshot"
    return "status" if name == STATUS else None


def _copied(src: fsafe.Dir, name: str, st: os.stat_result, dst: fsafe.Dir, kind: str) -> bool:
    if not fsafe.is_file(st):
        return False
    try:
        fsafe.copy_file(src, name, dst, CAPS[kind])
    except SyncRefused:  # a link or a FIFO by now, or too large: not ours to carry
        with contextlib.suppress(OSError):
            dst.unlink(name)
        return False
    return True
