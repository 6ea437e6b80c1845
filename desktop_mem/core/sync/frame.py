"""A file of the sync folder, written and read: its frame, its body and its signature.

A file: ``DMSYNC\\0``, the format version (1 byte), the header's length (4 bytes) and
the header (JSON: what the file is, whose, its number and which key seals it), the
body (sealed chunks, core/sync/crypto.py; or, for a key file, JSON whose secrets are
sealed one by one), then the writer's Ed25519 signature over all of it.

A file is written under a temporary name and renamed when whole. It is read without
following anything (core/sync/fsafe.py), no further than the cap of its kind
(core/sync/files.py, CAPS), its frame checked before the rest is read, and every JSON
parse under a depth cap (MAX_DEPTH): whoever can write the folder can put JSON nested
100,000 deep there. A file refused for what it is is kept in the pass's quarantine
(core/sync/quarantine.py). Where each file goes and what it is called:
core/sync/files.py.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import struct
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from desktop_mem.core.errors import SyncRefused
from desktop_mem.core.jsontypes import JSONObject
from desktop_mem.core.sync import crypto, files, fsafe
from desktop_mem.core.sync.files import Refused

MAGIC = b"DMSYNC\0"
# 2: membership by signatures (key files name their parents, joins are signed records).
# A file of a newer format is left alone, with a word to update the app; one of format
# 1 (0.4) is still read: a computer not yet updated goes on being understood.
FORMAT = 2
# 3: records name spaces (core/memory/spaces.py). Change files and snapshots are written
# in it only while the profile has a space: an app that does not know spaces would put
# a space's memories in the shared space, so it is told to update instead, while a
# profile without spaces goes on syncing with it as before.
SPACES_FORMAT = 3
READABLE = (1, 2, 3)
SEALED = ("changes", "snapshot", "status")  # kinds written by write_sealed
HEADER_CAP = 64 << 10  # a header is a few hundred bytes
MAX_DEPTH = 64  # JSON nesting: desktop-mem writes at most 4 or 5 levels

# a string (to its closing quote, or to the end when it has none: a string that could
# fail to match would be tried again from every quote after it, quadratic in a planted
# file of escaped quotes), an opening bracket, a closing one
_TOKENS = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*(?:"|\\?\Z)|([\[{])|([\]}])', re.DOTALL)


def too_deep(data: bytes, limit: int = MAX_DEPTH) -> bool:
    """Whether JSON `data` nests arrays and objects deeper than `limit` (brackets inside
    strings do not count). `json.loads` of `[` 100,000 deep raises RecursionError, and what
    is below the limit could still make later code recurse: refused before it is parsed."""
    if data.count(b"[") + data.count(b"{") <= limit:
        return False  # the usual case, in C
    depth = 0
    for m in _TOKENS.finditer(data):
        if m.lastindex == 1:
            depth += 1
            if depth > limit:
                return True
        elif m.lastindex == 2:
            depth -= 1
    return False


def loads(data: bytes, identity: fsafe.Identity | None = None) -> object:
    """JSON from the folder (any JSON value: its reader checks what it is): Refused when
    nested too deep, ValueError when not JSON."""
    deep = f"it is nested deeper than {MAX_DEPTH} levels"
    if too_deep(data):
        raise Refused(deep, identity)
    try:
        return json.loads(data)
    except RecursionError:
        raise Refused(deep, identity) from None


# -- writing --------------------------------------------------------------------------


def _frame(header: Mapping[str, object], fmt: int = FORMAT) -> bytes:
    head = json.dumps(header, sort_keys=True, separators=(",", ":")).encode("utf-8")
    return MAGIC + bytes([fmt]) + struct.pack(">I", len(head)) + head


# called with a file's digest once it is whole on disk, before it takes its name: its
# writer records it first, so a write killed after the rename is still known as its own
Staged = Callable[[str], None]


def atomic_write(
    path: Path, parts: Iterable[bytes], owner: str = "", staged: Staged | None = None
) -> int:
    """Write a file of the sync folder under a temporary name (named for the computer
    writing it), flush it to disk, then rename it into place: a reader (or a sync engine)
    sees the whole file or none. No folder on the way is followed (they are made when
    missing); whatever had the name is replaced, never written through. `staged` hears
    the file's digest before the rename. Returns its size."""
    anchor, names = files.anchored(path)
    digest = hashlib.sha256()

    def hashed() -> Iterator[bytes]:
        for part in parts:
            digest.update(part)
            yield part

    with fsafe.Dir.open(anchor, names[:-1], create=True) as folder:
        return folder.write_atomic(
            names[-1],
            hashed(),
            f"{files.temp_prefix(owner)}{crypto.new_id()[:12]}",
            None if staged is None else (lambda: staged(digest.hexdigest())),
        )


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
    header: Mapping[str, object],
    records: Iterable[Mapping[str, object]],
    key: bytes,
    signer: crypto.DeviceKeys,
    staged: Staged | None = None,
    fmt: int = FORMAT,
) -> int:
    """A sealed file of records (JSON lines, compressed, then sealed in chunks), in the
    format `fmt` (SPACES_FORMAT when its records may name spaces)."""
    frame = _frame({**header, "key": crypto.key_id(key)}, fmt)

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
    parts = signed.parts([frame, *crypto.seal_chunks(key, frame, plain())])
    return atomic_write(path, parts, str(header.get("device") or ""), staged)


def write_plain(
    path: Path,
    header: Mapping[str, object],
    body: Mapping[str, object],
    signer: Signer,
    staged: Staged | None = None,
) -> int:
    """A signed file whose body is JSON (a key file: its secrets are sealed inside)."""
    frame = _frame(header)
    data = json.dumps(body, sort_keys=True, separators=(",", ":")).encode("utf-8")
    # the computer writing it: a key file's or an offer's writer, a join's voucher (or,
    # let in by the recovery code, the computer itself), a request's asker
    voucher = header.get("voucher")
    owner = header.get("writer") or (voucher if voucher and voucher != "recovery" else None)
    return atomic_write(
        path, _Signed(signer).parts([frame, data]), str(owner or header.get("device") or ""),
        staged,
    )  # fmt: skip


# -- reading ----------------------------------------------------------------------------


@dataclass
class Raw:
    """A file read but not yet opened: its header, and what it holds."""

    path: Path
    header: JSONObject
    frame: bytes
    body: bytes
    signature: bytes
    place: str = ""  # its place in the profile's folder, for the quarantine
    identity: fsafe.Identity | None = None

    def _refused(self, why: str, final: bool = True) -> SyncRefused:
        """Refused for what it holds: the same file is not read again until it changes."""
        files.refuse(self.place, self.identity, why, final, said=self.header.get("kind") != "pair")
        return SyncRefused(why)

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
                raise self._refused("it is cut short", final=False)
            raise self._refused("its signature is not its writer's")

    def records(self, key: bytes) -> Iterator[object]:
        """Its records, opened with `key` (SyncRefused if any part does not open), each
        as its line parses (the reader checks what it is)."""
        unpacker = zlib.decompressobj()
        tail = b""
        try:
            for chunk in crypto.open_chunks(key, self.frame, self.body):
                tail += unpacker.decompress(chunk)
                *lines, tail = tail.split(b"\n")
                for line in lines:
                    yield loads(line, self.identity)
            tail += unpacker.flush()
        except Refused as exc:
            raise self._refused(str(exc)) from None
        except (zlib.error, ValueError):
            raise self._refused("what it holds is damaged") from None
        if tail.strip() or not unpacker.eof:
            raise self._refused("what it holds is damaged")

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
            raise self._refused("what it holds is damaged") from None
        if after.strip() or not unpacker.eof:
            raise self._refused("what it holds is damaged")
        return lines

    def plain(self) -> dict[str, Any]:
        try:
            body = loads(self.body, self.identity)
        except Refused as exc:
            raise self._refused(str(exc)) from None
        except ValueError:
            raise self._refused("what it holds is damaged") from None
        if not isinstance(body, dict):
            raise self._refused("what it holds is damaged")
        return body


class NewerFormat(SyncRefused):
    reason = "sync_newer"


def read_raw(
    path: Path,
    sync_id: str,
    kind: str,
    expect: Mapping[str, object] | None = None,
    check: Callable[[JSONObject], object] | None = None,
) -> Raw:
    """Read a file and check its frame: the format, that it is this profile's, the kind
    its name says, and the header fields in `expect`; then `check` (which may refuse it
    for what this computer lacks, such as its key) before the body is read. The caller
    checks whose it is and its number.

    Nothing on the way is followed, nothing is read past the kind's cap, and a file
    refused for what it is (a link, a FIFO, too large, nested too deep, not a file of
    this profile) is not read again while it stays the same (Quarantined)."""
    anchor, parts = files.anchored(path)
    place = "/".join(parts[1:])
    # offers are read by clean-up and by joining, which say nothing of one that does not
    # open: one refused for what it is is said by the pass (the quarantine's unsaid)
    said = kind != "pair"
    try:
        folder = fsafe.Dir.open(anchor, parts[:-1])
    except SyncRefused as exc:
        raise SyncRefused(f"a folder on its way is not a real folder ({exc})") from None
    except OSError as exc:
        raise SyncRefused(f"it cannot be read ({exc.strerror or exc})") from None
    with folder:
        try:
            files.gate(place, folder.lstat(parts[-1]))
            with folder.reader(parts[-1], files.CAPS[kind]) as reader:
                return _frame_of(reader, path, place, sync_id, kind, expect, check)
        except fsafe.Unsafe as exc:
            files.refuse(place, exc.identity, str(exc), True, said)
            raise
        except Refused as exc:
            files.refuse(place, exc.identity, str(exc), exc.final, said)
            raise
        except OSError as exc:
            raise SyncRefused(f"it cannot be read ({exc.strerror or exc})") from None


class _Source(Protocol):
    """What a frame is read from: a file of the folder (fsafe.Reader), or bytes in hand."""

    st: os.stat_result

    @property
    def identity(self) -> fsafe.Identity | None: ...

    def read(self, n: int) -> bytes: ...

    def rest(self) -> bytes: ...


def _frame_of(
    reader: _Source,
    path: Path,
    place: str,
    sync_id: str,
    kind: str,
    expect: Mapping[str, object] | None,
    check: Callable[[JSONObject], object] | None,
) -> Raw:
    """The frame first (a few hundred bytes): a file that is not this profile's, or not
    what its name says, is refused before the rest is read."""
    ident = reader.identity
    start = len(MAGIC) + 5
    head = reader.read(start)
    if head[: len(MAGIC)] != MAGIC[: len(head)]:
        raise Refused("it is not a sync file of this app", ident)
    if len(head) < start:
        raise Refused("it is not a sync file of this app, or is cut short", ident, final=False)
    version = head[len(MAGIC)]
    if version > max(READABLE):
        raise NewerFormat("it was written by a newer version of this app: update it here")
    if version not in READABLE:
        raise Refused(f"its format ({version}) is not one this desktop-mem writes", ident)
    (size,) = struct.unpack(">I", head[len(MAGIC) + 1 : start])
    if size > HEADER_CAP:
        raise Refused("its header is damaged (far too long)", ident)
    if start + size + crypto.SIGNATURE > reader.st.st_size:
        raise Refused("it is cut short", ident, final=False)
    head_bytes = reader.read(size)
    if len(head_bytes) < size:
        raise Refused("it is cut short", ident, final=False)
    try:
        header = loads(head_bytes, ident)
    except ValueError:
        raise Refused("its header is damaged", ident) from None
    if not isinstance(header, dict):
        raise Refused("its header is damaged", ident)
    if header.get("sync") != sync_id:
        raise Refused("it belongs to another profile", ident)
    if header.get("kind") != kind:
        raise Refused("it is not what its name says", ident)
    if any(header.get(k) != v for k, v in (expect or {}).items()):
        raise Refused("it is not what its name says (moved, or replayed under another name)", ident)
    if check is not None:
        check(header)
    rest = reader.rest()
    if len(rest) < crypto.SIGNATURE:
        raise Refused("it is cut short", ident, final=False)
    return Raw(
        path,
        header,
        head + head_bytes,
        rest[: -crypto.SIGNATURE],
        rest[-crypto.SIGNATURE :],
        place,
        ident,
    )


class _Bytes:
    """A file's bytes already in hand (a record kept in the profile), read like a file."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.done = 0
        self.st = os.stat_result((0, 0, 0, 0, 0, 0, len(data), 0, 0, 0))

    @property
    def identity(self) -> fsafe.Identity | None:
        return None

    def read(self, n: int) -> bytes:
        out = self.data[self.done : self.done + n]
        self.done += len(out)
        return out

    def rest(self) -> bytes:
        return self.read(len(self.data))


def parse_raw(data: bytes, path: Path, sync_id: str, kind: str) -> Raw:
    """A file's bytes (kept in the profile when it was taken), its frame checked as
    read_raw checks a file of the folder."""
    return _frame_of(_Bytes(data), path, path.name, sync_id, kind, None, None)
