"""A simulated sync engine for the fuzz: each computer has its own copy of the folder,
and the engine carries files between them the way real engines misbehave. It delays
(a file waits any number of steps), reorders (any pending file may go next), delivers
a file cut short under its final name before the whole of it (a network share, an
engine writing in place), duplicates (delivers a version it already delivered again),
makes conflict copies beside a file (Syncthing's `.sync-conflict-`, Dropbox's
"(conflicted copy)"), leaves its temporary files (`.syncthing.*.tmp`) and delivers
under a temporary name that takes the file's name only at a later step.

And what 0.4 did not survive: it copies a half-written file back over its writer's own
copy (then everywhere, as a new version), deletes a file (everywhere), puts an older
version of a file back (a rollback, or a deleted file come back), and, when two
computers wrote one name since it last looked, keeps one of the two versions without
a word (what it does for two computers under one identity).

And a delivery it believes whole that is not, in one copy only (cut short, or a byte
changed on the way): it never delivers that version there again, so only the file's
writer writing it anew mends it.

It knows nothing of desktop-mem's files: a version is whatever bytes a computer wrote,
a deletion is a file a computer removed. `settle()` delivers everything whole and does
nothing else.

A schedule replays the same (the attacker's DESKTOP_MEM_ATTACK_ONLY): what it draws from
the random sequence depends on what it does, never on the files' bytes or lengths (sealed
files differ by a few bytes from one run to the next: nonces, times) nor on the order a
folder is listed in. A place in a file is a fraction of its length (`below`), one draw
whatever the length; folders are read, and what is pending taken, in the order of names."""

from __future__ import annotations

import hashlib
import os
import random
import shutil
from dataclasses import dataclass, field
from pathlib import Path

_OURS = (".syncthing.", ".dropbox", ".~dm-", ".~engine-")
# the files an engine may damage, delete or roll back (not a pairing offer or request:
# those live for a minute while a person types a code, and are made again if lost)
_DAMAGEABLE = (".dmc", ".dms", ".dmd", ".dmk", ".dmj")
# and break on the way in one copy only, believing it whole: not a membership record,
# which its writer never writes again (an engine that rescans finds such a copy changed,
# and carries it back to its writer, who writes it back: the "damaged" case)
_SPOILABLE = (".dmc", ".dms", ".dmd")
HISTORY = 4  # earlier versions kept of each file (what a rollback puts back)


def _digest(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=12).hexdigest()


def below(rng: random.Random, n: int) -> int:
    """A number in [0, n), drawn as one fraction of n: the same single draw whatever n
    is (`randrange(n)` draws as many times as it takes, and how many depends on n)."""
    return min(n - 1, int(rng.random() * n)) if n > 0 else 0


def _tree(root: Path) -> dict[str, str]:
    out: dict[str, str] = {}
    for dirpath, dirs, names in os.walk(root):
        dirs.sort()
        for name in sorted(names):
            if name.startswith(_OURS) or "sync-conflict" in name or "conflicted copy" in name:
                continue
            path = Path(dirpath) / name
            try:
                out[str(path.relative_to(root))] = _digest(path.read_bytes())
            except OSError:
                continue
    return out


@dataclass
class Version:
    clock: int
    data: bytes | None  # None: deleted
    origin: int  # the folder it was written in


@dataclass
class SimEngine:
    folders: list[Path]
    rng: random.Random
    # of the steps, the share where the engine does each of these to one file (none unless
    # asked: the fuzz asks)
    damage: float = 0.0  # a half-written copy over a copy (often its writer's), then everywhere
    delete: float = 0.0
    rollback: float = 0.0
    spoiled: float = 0.0  # a copy broken on the way, believed whole
    # what the engine last saw (or wrote) in each folder: path -> digest
    seen: list[dict[str, str]] = field(default_factory=list)
    # its own unfinished deliveries, cut short under the final name: path -> digest
    partial: list[dict[str, str]] = field(default_factory=list)
    # deliveries under a temporary name, to take the final name at a later step
    inflight: list[dict[str, Path]] = field(default_factory=list)
    # copies it believes whole that are not: path -> digest of what is there
    rotten: list[dict[str, str]] = field(default_factory=list)
    # the newest version of each path; and earlier ones (a rollback puts one back)
    versions: dict[str, Version] = field(default_factory=dict)
    history: dict[str, list[bytes]] = field(default_factory=dict)
    clock: int = 0
    stats: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.seen = [{} for _ in self.folders]
        self.partial = [{} for _ in self.folders]
        self.inflight = [{} for _ in self.folders]
        self.rotten = [{} for _ in self.folders]

    def add_folder(self, folder: Path) -> None:
        """Another computer's copy of the folder (made by copying one: what is there is
        what the engine has seen there)."""
        self.folders.append(folder)
        self.seen.append(_tree(folder))
        self.partial.append({})
        self.inflight.append({})
        self.rotten.append({})

    def _count(self, what: str) -> None:
        self.stats[what] = self.stats.get(what, 0) + 1

    def _new_version(self, rel: str, data: bytes | None, origin: int) -> None:
        old = self.versions.get(rel)
        if old is not None and old.data is not None:
            kept = self.history.setdefault(rel, [])
            kept.append(old.data)
            del kept[:-HISTORY]
        self.clock += 1
        self.versions[rel] = Version(self.clock, data, origin)

    def scan(self) -> None:
        """Notice what each computer wrote or removed since the engine last looked. Two
        computers that wrote one name: one of the two versions is kept, silently."""
        found: dict[str, list[tuple[int, bytes | None]]] = {}
        for n, root in enumerate(self.folders):
            now = _tree(root)
            for rel, digest in now.items():
                if self.partial[n].get(rel) == digest:
                    continue  # the engine's own unfinished delivery
                if self.rotten[n].get(rel) == digest:
                    continue  # broken on the way: it believes the copy whole
                self.partial[n].pop(rel, None)
                self.rotten[n].pop(rel, None)
                if self.seen[n].get(rel) != digest:
                    try:
                        data = (root / rel).read_bytes()
                    except OSError:
                        continue
                    self.seen[n][rel] = digest
                    found.setdefault(rel, []).append((n, data))
            for rel in sorted(self.seen[n]):
                if rel not in now:
                    del self.seen[n][rel]
                    self.partial[n].pop(rel, None)
                    self.rotten[n].pop(rel, None)
                    found.setdefault(rel, []).append((n, None))
        for rel, changes in sorted(found.items(), key=lambda kv: kv[0]):
            n, data = self.rng.choice(changes)
            if len(changes) > 1:
                self._count("overwritten")  # the others' versions are replaced, unsaid
            self._new_version(rel, data, n)

    def _pending(self) -> list[tuple[int, str]]:
        out = []
        for rel, version in sorted(self.versions.items(), key=lambda kv: kv[0]):
            want = None if version.data is None else _digest(version.data)
            for n in range(len(self.folders)):
                if rel in self.inflight[n]:
                    continue  # on its way under a temporary name
                if self.seen[n].get(rel) != want or rel in self.partial[n]:
                    out.append((n, rel))
        return out

    def _write(self, n: int, rel: str, data: bytes | None) -> None:
        target = self.folders[n] / rel
        self.partial[n].pop(rel, None)
        self.rotten[n].pop(rel, None)
        tmp = self.inflight[n].pop(rel, None)
        if tmp is not None:
            tmp.unlink(missing_ok=True)
        if data is None:
            target.unlink(missing_ok=True)
            self.seen[n].pop(rel, None)
            return
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.parent / f".syncthing.{target.name}.{self.rng.randrange(1 << 30)}.tmp"
        tmp.write_bytes(data)
        os.replace(tmp, target)
        self.seen[n][rel] = _digest(data)

    def _misbehave(self) -> None:
        """What 0.4 did not survive, now and then: to one file, in one copy of the folder
        (the next scan takes it for a change made there, and carries it everywhere)."""
        roll = self.rng.random()
        kinds = (("damaged", self.damage), ("deleted", self.delete), ("rolled back", self.rollback),
                 ("spoiled", self.spoiled))  # fmt: skip
        for what, share in kinds:
            if roll >= share:
                roll -= share
                continue
            files = sorted(
                (rel, v) for rel, v in self.versions.items()
                if v.data is not None and rel.endswith(_DAMAGEABLE)
            )  # fmt: skip
            if not files:
                return
            rel, version = self.rng.choice(files)
            # often its writer's own copy: the one place 0.4 never looked
            n = version.origin if self.rng.random() < 0.5 else self.rng.randrange(len(self.folders))
            target = self.folders[n] / rel
            if not target.is_file() or rel in self.partial[n] or rel in self.inflight[n]:
                return
            assert version.data is not None
            if what == "damaged" and len(version.data) > 8:
                target.write_bytes(version.data[: 1 + below(self.rng, len(version.data) - 1)])
            elif what == "deleted":
                target.unlink()
            elif what == "rolled back" and self.history.get(rel):
                target.write_bytes(self.rng.choice(self.history[rel]))
            elif (
                what == "spoiled" and n != version.origin and len(version.data) > 8
                and rel.endswith(_SPOILABLE)
            ):  # fmt: skip
                self.spoil(n, rel, _broken(version.data, self.rng))
            else:
                return
            self._count(what)
            return

    def spoil(self, n: int, rel: str, data: bytes) -> None:
        """Folder n's copy of `rel` holds `data`, and the engine believes it holds the
        version it delivered there (it will not deliver that version again)."""
        target = self.folders[n] / rel
        target.write_bytes(data)
        self.rotten[n][rel] = _digest(data)

    def step(self, deliveries: int = 1) -> None:
        """Carry up to `deliveries` files, misbehaving at random."""
        self.scan()
        self._misbehave()
        for n in range(len(self.folders)):  # some deliveries under a temporary name land
            for rel in sorted(self.inflight[n]):
                if self.rng.random() < 0.5:
                    version = self.versions.get(rel)
                    self.inflight[n][rel].unlink(missing_ok=True)
                    del self.inflight[n][rel]
                    if version is not None:
                        self._write(n, rel, version.data)
        pending = self._pending()
        self.rng.shuffle(pending)  # reorder
        for n, rel in pending[:deliveries]:
            data = self.versions[rel].data
            roll = self.rng.random()
            target = self.folders[n] / rel
            if roll < 0.15:
                self._count("delayed")
                continue
            if data is not None and roll < 0.30 and len(data) > 8:
                # cut short, under its final name; the rest comes later
                target.parent.mkdir(parents=True, exist_ok=True)
                cut = data[: 1 + below(self.rng, len(data) - 1)]
                target.write_bytes(cut)
                self.seen[n][rel] = _digest(cut)
                self.partial[n][rel] = _digest(cut)
                self._count("cut_short")
                continue
            if data is not None and roll < 0.36:
                # whole, under a temporary name (an iCloud placeholder, a Dropbox `.~`
                # file): it takes its name at a later step
                target.parent.mkdir(parents=True, exist_ok=True)
                tmp = target.parent / f".~engine-{target.name}.{self.rng.randrange(1 << 30)}"
                tmp.write_bytes(data)
                self.inflight[n][rel] = tmp
                self._count("temporary_name")
                continue
            if data is not None and roll < 0.44:
                # a leftover temporary file and a conflict copy beside the real one
                target.parent.mkdir(parents=True, exist_ok=True)
                stem, dot, ext = target.name.partition(".")
                (
                    target.parent
                    / f"{stem}.sync-conflict-20261204-{self.rng.randrange(10**6):06d}-SIMSIM{dot}{ext}"
                ).write_bytes(data[: len(data) // 2] + b"conflict")
                (
                    target.parent / f".syncthing.{target.name}.{self.rng.randrange(1 << 30)}.tmp"
                ).write_bytes(data[: len(data) // 3])
                self._count("conflict_copies")
            self._write(n, rel, data)
            self._count("delivered")
            if data is not None and self.rng.random() < 0.05:
                self._write(n, rel, data)  # the same version again
                self._count("duplicated")

    def settle(self) -> None:
        """Deliver every pending version whole (and nothing else)."""
        self.scan()
        for n in range(len(self.folders)):
            for rel in list(self.inflight[n]):
                self.inflight[n].pop(rel).unlink(missing_ok=True)
        for n, rel in self._pending():
            self._write(n, rel, self.versions[rel].data)


def _broken(data: bytes, rng: random.Random) -> bytes:
    """Cut short, or one byte changed."""
    if rng.random() < 0.5:
        return data[: 1 + below(rng, len(data) - 1)]
    at = below(rng, len(data))
    return data[:at] + bytes([data[at] ^ 0x40]) + data[at + 1 :]


def copy_folder(src: Path, dst: Path) -> None:
    """A computer's copy of the folder, copied whole (a cloned disk)."""
    shutil.copytree(src, dst, dirs_exist_ok=True)
