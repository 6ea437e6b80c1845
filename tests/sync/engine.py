"""A simulated sync engine for the fuzz: each computer has its own copy of the folder,
and the engine carries files between them the way real engines misbehave. It delays
(a file waits any number of steps), reorders (any pending file may go next), delivers
a file cut short under its final name before the whole of it (a network share, an
engine writing in place), duplicates (delivers a version it already delivered again),
and makes conflict copies beside a file (Syncthing's `.sync-conflict-`, Dropbox's
"(conflicted copy)"), and uses temporary names while it writes (`.syncthing.*.tmp`).

It knows nothing of desktop-mem's files: a version is whatever bytes a computer wrote,
a deletion is a file a computer removed. `settle()` delivers everything whole."""

from __future__ import annotations

import hashlib
import os
import random
from dataclasses import dataclass, field
from pathlib import Path

_OURS = (".syncthing.", ".dropbox", ".~dm-")


def _digest(path: Path) -> str | None:
    try:
        return hashlib.blake2b(path.read_bytes(), digest_size=12).hexdigest()
    except OSError:
        return None


def _tree(root: Path) -> dict[str, str]:
    out: dict[str, str] = {}
    for dirpath, _dirs, names in os.walk(root):
        for name in names:
            if name.startswith(_OURS) or "sync-conflict" in name or "conflicted copy" in name:
                continue
            path = Path(dirpath) / name
            digest = _digest(path)
            if digest is not None:
                out[str(path.relative_to(root))] = digest
    return out


@dataclass
class SimEngine:
    folders: list[Path]
    rng: random.Random
    # what the engine last saw (or wrote) in each folder: path -> digest
    seen: list[dict[str, str]] = field(default_factory=list)
    # the newest version of each path, and its bytes (None: deleted)
    versions: dict[str, tuple[int, bytes | None]] = field(default_factory=dict)
    clock: int = 0
    stats: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.seen = [{} for _ in self.folders]

    def _count(self, what: str) -> None:
        self.stats[what] = self.stats.get(what, 0) + 1

    def scan(self) -> None:
        """Notice what each computer wrote or removed since the engine last looked."""
        for n, root in enumerate(self.folders):
            now = _tree(root)
            for rel, digest in now.items():
                if self.seen[n].get(rel) == "partial":
                    continue  # the engine's own unfinished delivery
                if self.seen[n].get(rel) != digest:
                    self.clock += 1
                    self.versions[rel] = (self.clock, (root / rel).read_bytes())
                    self.seen[n][rel] = digest
            for rel in list(self.seen[n]):
                if rel not in now:
                    del self.seen[n][rel]
                    self.clock += 1
                    self.versions[rel] = (self.clock, None)

    def _pending(self) -> list[tuple[int, str]]:
        out = []
        for rel, (_, data) in self.versions.items():
            for n in range(len(self.folders)):
                here = self.seen[n].get(rel)
                want = None if data is None else hashlib.blake2b(data, digest_size=12).hexdigest()
                if here != want:
                    out.append((n, rel))
        return out

    def _write(self, n: int, rel: str, data: bytes | None) -> None:
        target = self.folders[n] / rel
        if data is None:
            target.unlink(missing_ok=True)
            self.seen[n].pop(rel, None)
            return
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.parent / f".syncthing.{target.name}.{self.rng.randrange(1 << 30)}.tmp"
        tmp.write_bytes(data)
        os.replace(tmp, target)
        self.seen[n][rel] = hashlib.blake2b(data, digest_size=12).hexdigest()

    def step(self, deliveries: int = 1) -> None:
        """Carry up to `deliveries` files, misbehaving at random."""
        self.scan()
        pending = self._pending()
        self.rng.shuffle(pending)  # reorder
        for n, rel in pending[:deliveries]:
            data = self.versions[rel][1]
            roll = self.rng.random()
            target = self.folders[n] / rel
            if roll < 0.15:
                self._count("delayed")
                continue
            if data is not None and roll < 0.30 and len(data) > 8:
                # cut short, under its final name; the rest comes later
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(data[: self.rng.randrange(1, len(data))])
                self.seen[n][rel] = "partial"
                self._count("cut_short")
                continue
            if data is not None and roll < 0.38:
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
        """Deliver every pending version whole."""
        self.scan()
        for n, rel in self._pending():
            self._write(n, rel, self.versions[rel][1])
