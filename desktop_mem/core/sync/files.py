"""The sync folder on disk: where each file goes, and how one is written and read.

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
not open) is not read, or refused without being applied.

A file: ``DMSYNC\\0``, the format version (1 byte), the header's length (4 bytes) and
the header (JSON: what the file is, whose, its number and which key seals it), the
body (sealed chunks, core/sync/crypto.py; or, for a key file, JSON whose secrets are
sealed one by one), then the writer's Ed25519 signature over all of it.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import struct
import zlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from desktop_mem.core.errors import SyncRefused
from desktop_mem.core.sync import crypto

MAGIC = b"DMSYNC\0"
# 2: membership by signatures (key files name their parents, joins are signed records).
# A file of a newer format is left alone, with a word to update the app; one of format
# 1 (0.4) is still read: a computer not yet updated goes on being understood.
FORMAT = 2
READABLE = (1, 2)
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
SEALED = ("changes", "snapshot", "status")  # kinds written by write_sealed


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

    def devices(self) -> list[str]:
        """The computers that have a folder here."""
        try:
            return sorted(
                e.name for e in os.scandir(self.root) if e.is_dir() and DEVICE.fullmatch(e.name)
            )
        except FileNotFoundError:
            return []

    def numbered(self, device: str) -> tuple[list[int], list[int]]:
        """A computer's change files and snapshots present, by number."""
        changes: list[int] = []
        snaps: list[int] = []
        try:
            entries = list(os.scandir(self.device(device)))
        except FileNotFoundError:
            return [], []
        for e in entries:
            if m := CHANGES.fullmatch(e.name):
                changes.append(int(m.group(1)))
            elif m := SNAPSHOT.fullmatch(e.name):
                snaps.append(int(m.group(1)))
        return sorted(changes), sorted(snaps)

    def key_files(self) -> list[tuple[int, str, Path]]:
        try:
            entries = list(os.scandir(self.keys))
        except FileNotFoundError:
            return []
        out = []
        for e in entries:
            if m := KEYFILE.fullmatch(e.name):
                out.append((int(m.group(1)), m.group(2), Path(e.path)))
        return sorted(out)

    def join_files(self) -> list[tuple[str, Path]]:
        """The joins in keys/: (the computer let in, the file)."""
        return self._named(JOINFILE)

    def request_files(self) -> list[tuple[str, Path]]:
        """The requests to be let in, in keys/: (the computer asking, the file)."""
        return self._named(REQUESTFILE)

    def _named(self, pattern: re.Pattern[str]) -> list[tuple[str, Path]]:
        try:
            entries = list(os.scandir(self.keys))
        except FileNotFoundError:
            return []
        return sorted(
            (m.group(1), Path(e.path)) for e in entries if (m := pattern.fullmatch(e.name))
        )

    def pair_files(self) -> list[Path]:
        try:
            return sorted(Path(e.path) for e in os.scandir(self.root) if PAIRFILE.fullmatch(e.name))
        except FileNotFoundError:
            return []

    def size(self) -> int:
        """Bytes of desktop-mem's files in the folder."""
        total = 0
        for dirpath, _dirs, files in os.walk(self.root):
            for f in files:
                with contextlib.suppress(OSError):
                    total += os.stat(os.path.join(dirpath, f)).st_size
        return total

    def clear_temporary(self, device: str) -> None:
        """Temporary files this computer left (a write killed half-way)."""
        for folder in (self.device(device), self.keys, self.root):
            with contextlib.suppress(OSError):
                for e in os.scandir(folder):
                    if e.name.startswith(_TEMP):
                        with contextlib.suppress(OSError):
                            os.unlink(e.path)


def find_profiles(chosen: Path) -> list[str]:
    """The sync ids of the profiles synced through a folder."""
    try:
        return sorted(
            e.name[len(PREFIX) :]
            for e in os.scandir(chosen)
            if e.is_dir() and e.name.startswith(PREFIX) and DEVICE.fullmatch(e.name[len(PREFIX) :])
        )
    except (FileNotFoundError, NotADirectoryError):
        return []


# -- writing --------------------------------------------------------------------------


def _frame(header: dict[str, Any]) -> bytes:
    head = json.dumps(header, sort_keys=True, separators=(",", ":")).encode("utf-8")
    return MAGIC + bytes([FORMAT]) + struct.pack(">I", len(head)) + head


# called with a file's digest once it is whole on disk, before it takes its name: its
# writer records it first, so a write killed after the rename is still known as its own
Staged = Callable[[str], None]


def atomic_write(path: Path, parts: Iterable[bytes], staged: Staged | None = None) -> int:
    """Write a file under a temporary name, flush it to disk, then rename it into place:
    a reader (or a sync engine) sees the whole file or none. Returns its size."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.parent / f"{_TEMP}{crypto.new_id()[:12]}"
    size = 0
    digest = hashlib.sha256()
    try:
        with open(tmp, "wb") as out:
            for part in parts:
                out.write(part)
                digest.update(part)
                size += len(part)
            out.flush()
            os.fsync(out.fileno())
        if staged is not None:
            staged(digest.hexdigest())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    with contextlib.suppress(OSError):  # the rename itself, on disk
        fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    return size


class Signer(Protocol):
    def sign(self, data: bytes) -> bytes: ...


class _Signed:
    """Collects what is written so the signature covers every byte."""

    def __init__(self, signer: Signer) -> None:
        self.signer = signer
        self.data = bytearray()

    def parts(self, pieces: Iterable[bytes]) -> Iterator[bytes]:
        for piece in pieces:
            self.data += piece
            yield piece
        yield self.signer.sign(bytes(self.data))


def write_sealed(
    path: Path,
    header: dict[str, Any],
    records: Iterable[dict[str, Any]],
    key: bytes,
    signer: crypto.DeviceKeys,
    staged: Staged | None = None,
) -> int:
    """A sealed file of records (JSON lines, compressed, then sealed in chunks)."""
    frame = _frame({**header, "key": crypto.key_id(key)})

    def plain() -> Iterator[bytes]:
        packer = zlib.compressobj(6)
        batch: list[bytes] = []
        for record in records:
            batch.append(json.dumps(record, ensure_ascii=False, separators=(",", ":")).encode())
            if len(batch) >= 512:
                yield packer.compress(b"\n".join(batch) + b"\n")
                batch = []
        if batch:
            yield packer.compress(b"\n".join(batch) + b"\n")
        yield packer.flush()

    signed = _Signed(signer)
    return atomic_write(
        path, signed.parts([frame, *crypto.seal_chunks(key, frame, plain())]), staged
    )


def write_plain(
    path: Path,
    header: dict[str, Any],
    body: dict[str, Any],
    signer: Signer,
    staged: Staged | None = None,
) -> int:
    """A signed file whose body is JSON (a key file: its secrets are sealed inside)."""
    frame = _frame(header)
    data = json.dumps(body, sort_keys=True, separators=(",", ":")).encode("utf-8")
    return atomic_write(path, _Signed(signer).parts([frame, data]), staged)


# -- reading ----------------------------------------------------------------------------


@dataclass
class Raw:
    """A file read but not yet opened: its header, and what it holds."""

    path: Path
    header: dict[str, Any]
    frame: bytes
    body: bytes
    signature: bytes

    @property
    def data(self) -> bytes:
        """The whole file, as read."""
        return self.frame + self.body + self.signature

    @property
    def digest(self) -> str:
        """What names this very file (a record refers to another by it)."""
        return hashlib.sha256(self.data).hexdigest()

    def verify(self, public_signing: str) -> None:
        if not crypto.verify(public_signing, self.signature, self.frame + self.body):
            if self.header.get("kind") in SEALED and not crypto.chunks_whole(
                self.body + self.signature
            ):
                raise SyncRefused("it is cut short")
            raise SyncRefused("its signature is not its writer's")

    def records(self, key: bytes) -> Iterator[dict[str, Any]]:
        """Its records, opened with `key` (SyncRefused if any part does not open)."""
        unpacker = zlib.decompressobj()
        tail = b""
        try:
            for chunk in crypto.open_chunks(key, self.frame, self.body):
                tail += unpacker.decompress(chunk)
                *lines, tail = tail.split(b"\n")
                for line in lines:
                    yield json.loads(line)
            tail += unpacker.flush()
        except (zlib.error, ValueError):
            raise SyncRefused("what it holds is damaged") from None
        if tail.strip() or not unpacker.eof:
            raise SyncRefused("what it holds is damaged")

    def count(self, key: bytes) -> int:
        """How many records it holds, every part opened (SyncRefused as `records`), so a
        file is known whole before any of it is applied."""
        unpacker = zlib.decompressobj()
        lines, after = 0, b""

        def pieces() -> Iterator[bytes]:
            for chunk in crypto.open_chunks(key, self.frame, self.body):
                yield unpacker.decompress(chunk)
            yield unpacker.flush()

        try:
            for piece in pieces():
                n = piece.count(b"\n")
                lines += n
                after = piece.rsplit(b"\n", 1)[-1] if n else after + piece
        except zlib.error:
            raise SyncRefused("what it holds is damaged") from None
        if after.strip() or not unpacker.eof:
            raise SyncRefused("what it holds is damaged")
        return lines

    def plain(self) -> dict[str, Any]:
        try:
            body = json.loads(self.body)
        except ValueError:
            raise SyncRefused("what it holds is damaged") from None
        if not isinstance(body, dict):
            raise SyncRefused("what it holds is damaged")
        return body


class NewerFormat(SyncRefused):
    reason = "sync_newer"


def read_raw(path: Path, sync_id: str, kind: str) -> Raw:
    """Read a file and check its frame: the format, that it is this profile's and the
    kind its name says. The caller checks whose it is and its number."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise SyncRefused(f"it cannot be read ({exc.strerror or exc})") from None
    return parse_raw(data, path, sync_id, kind)


def parse_raw(data: bytes, path: Path, sync_id: str, kind: str) -> Raw:
    """A file's bytes, its frame checked (as read_raw)."""
    if len(data) < len(MAGIC) + 5 + crypto.SIGNATURE or not data.startswith(MAGIC):
        raise SyncRefused("it is not a sync file of this app, or is cut short")
    version = data[len(MAGIC)]
    if version > FORMAT:
        raise NewerFormat("it was written by a newer version of this app: update it here")
    if version not in READABLE:
        raise SyncRefused(f"its format ({version}) is not one this desktop-mem writes")
    (size,) = struct.unpack(">I", data[len(MAGIC) + 1 : len(MAGIC) + 5])
    start = len(MAGIC) + 5
    if start + size + crypto.SIGNATURE > len(data):
        raise SyncRefused("it is cut short")
    try:
        header = json.loads(data[start : start + size])
    except ValueError:
        raise SyncRefused("its header is damaged") from None
    if not isinstance(header, dict):
        raise SyncRefused("its header is damaged")
    if header.get("sync") != sync_id:
        raise SyncRefused("it belongs to another profile")
    if header.get("kind") != kind:
        raise SyncRefused("it is not what its name says")
    frame = data[: start + size]
    return Raw(
        path, header, frame, data[start + size : -crypto.SIGNATURE], data[-crypto.SIGNATURE :]
    )
