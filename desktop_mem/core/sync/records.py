"""The signed records of who is in a sync, as files in its keys/ folder: generations (key
files), joins, and requests to be let in. Each is read with every field checked (the
folder is written by anyone who shares it), and written signed by its one writer."""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import os
import re
import stat
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar, cast

from desktop_mem.core.errors import SyncRefused
from desktop_mem.core.sync import crypto, files, frame
from desktop_mem.core.sync.membership import RECOVERY, Generation, Join, Member

GENERATION = "keys"
JOIN = "join"
REQUEST = "request"

ID = re.compile(r"[0-9a-f]{32}")
DIGEST = re.compile(r"[0-9a-f]{64}")
KEY_ID = re.compile(r"[0-9a-f]{16}")
# far above any real sync (a few computers, a removal now and then), far below harm
MAX_MEMBERS = 1000
MAX_REMOVED = 20_000
MAX_PARENTS = 64
# what a key file carries of the key files it builds on, at most (base64), well under the
# key file's own cap: a key file is a few kB
CARRIED_CAP = 256 << 10
_PROOF_INFO = b"desktop-mem sync join request v1"
# a record this computer signs, kept as its own before it takes its name in keys/: its
# name there -> the hook that hears its digest (core/sync/own.py, Ledger.staged)
Signing = Callable[[str], frame.Staged]


def _damaged(what: str) -> SyncRefused:
    return SyncRefused(f"its {what} is damaged")


def _id(value: object, what: str) -> str:
    if not isinstance(value, str) or not ID.fullmatch(value):
        raise _damaged(what)
    return value


def _key(value: object) -> str:
    """A public key (32 bytes, base64), as written."""
    crypto.unb64(value, 32)  # SyncRefused if it is not one
    return str(value)


def member_of(value: object) -> Member:
    if not isinstance(value, dict):
        raise _damaged("list of computers")
    return Member(_key(value.get("agreement")), _key(value.get("signing")))


@dataclass(frozen=True)
class KeyFile:
    """A generation as read: its record, and the body with what it seals."""

    record: Generation
    body: dict[str, Any]
    data: bytes  # the whole file: kept once taken, so a copy deleted later undoes nothing


@dataclass(frozen=True)
class Request:
    """A computer asking to be let in with a pairing code."""

    name: str
    digest: str
    device: str
    member: Member
    offer: str
    proof: bytes
    made: int  # when it asked (ms), as it says
    raw: frame.Raw
    former: tuple[str, ...] = ()  # the ids it had, when it joins again


# -- reading -------------------------------------------------------------------------


def key_file(raw: frame.Raw) -> KeyFile:
    """A generation from a key file read (its frame checked), every field checked."""
    header = raw.header
    number, writer = header.get("generation"), header.get("writer")
    if type(number) is not int or not 0 < number < 1_000_000:
        raise _damaged("number")
    writer = _id(writer, "writer")
    body = raw.plain()
    if body.get("generation") != number or body.get("writer") != writer:
        raise SyncRefused("it is not what its name says")
    members = body.get("members")
    if not isinstance(members, dict) or len(members) > MAX_MEMBERS:
        raise _damaged("list of computers")
    removed = body.get("removed") or []
    if not isinstance(removed, list) or len(removed) > MAX_REMOVED:
        raise _damaged("list of computers removed")
    parents = body.get("parents")
    if parents is not None:
        if not isinstance(parents, list) or len(parents) > MAX_PARENTS:
            raise _damaged("list of what it builds on")
        if any(not isinstance(p, str) or not DIGEST.fullmatch(p) for p in parents):
            raise _damaged("list of what it builds on")
    key = body.get("key")
    if not isinstance(key, str) or not KEY_ID.fullmatch(key):
        raise _damaged("key's name")
    authority = body.get("authority")
    if authority is not None:
        if not isinstance(authority, dict) or not isinstance(authority.get("sealed"), dict):
            raise _damaged("recovery authority")
        authority = _key(authority.get("signing"))
    record = Generation(
        name=files.key_name(number, writer),
        digest=raw.digest,
        number=number,
        writer=writer,
        key_id=key,
        parents=None if parents is None else tuple(parents),
        members={_id(d, "list of computers"): member_of(m) for d, m in members.items()},
        removed=frozenset(_id(d, "list of computers removed") for d in removed),
        authority=authority,
        signed=raw.frame + raw.body,
        signature=raw.signature,
    )
    return KeyFile(record, body, raw.data)


# Records already read and checked, by what they were read from: a key or join file by
# its name and mark (its size, times and inode: rewriting it, even with its modification
# time put back, changes its ctime), a kept record by its bytes' digest. Every pass looks
# at every key file; one that has not changed is not read, parsed and verified again.
# What does not read is not remembered (it is said again, or quarantined).
T = TypeVar("T")
_READ: dict[tuple[Any, ...], Any] = {}
_READ_MAX = 4096


def _remembered(key: tuple[Any, ...], read: Callable[[], T]) -> T:
    if key[-1] is None:  # no mark: not a regular file (reading it says why)
        return read()
    if key in _READ:
        return cast("T", _READ[key])
    found = read()
    if len(_READ) >= _READ_MAX:
        _READ.clear()
    _READ[key] = found
    return found


def _mark(path: Path) -> tuple[int, ...] | None:
    try:
        st = os.lstat(path)
    except OSError:
        return None
    if not stat.S_ISREG(st.st_mode):
        return None
    return (st.st_size, st.st_mtime_ns, st.st_ino, st.st_ctime_ns)


def read_key_file(path: Path, sync_id: str, number: int, writer: str) -> KeyFile:
    def read() -> KeyFile:
        found = key_file(frame.read_raw(path, sync_id, GENERATION))
        if (found.record.number, found.record.writer) != (number, writer):
            raise SyncRefused("it is not what its name says")
        return found

    return _remembered((GENERATION, str(path), sync_id, number, writer, _mark(path)), read)


def join_record(raw: frame.Raw) -> Join:
    header, body = raw.header, raw.plain()
    device = _id(header.get("device"), "computer")
    voucher = header.get("voucher")
    if voucher != RECOVERY:
        voucher = _id(voucher, "voucher")
    if body.get("device") != device or body.get("voucher") != voucher:
        raise SyncRefused("it is not what its name says")
    parent = body.get("parent")
    if not isinstance(parent, str) or not DIGEST.fullmatch(parent):
        raise _damaged("generation")
    via = body.get("via")
    if via not in ("pair", "recovery", "key"):
        raise _damaged("way in")
    offered = body.get("offered_at")
    if offered is not None and type(offered) is not int:
        raise _damaged("time")
    offer = body.get("offer")
    if offer is not None:
        offer = _id(offer, "pairing offer")
    return Join(
        name=files.join_name(device),
        digest=raw.digest,
        device=device,
        member=member_of(body),
        voucher=voucher,
        parent=parent,
        via=via,
        offered_at=offered,
        signed=raw.frame + raw.body,
        signature=raw.signature,
        offer=offer,
        former=_former(body),
    )


def _former(body: dict[str, Any]) -> tuple[str, ...]:
    """The ids a computer joining again had before (none: a first join, or one written
    before joins named them)."""
    value = body.get("former", [])
    if not isinstance(value, list) or len(value) > 256:
        raise _damaged("former ids")
    return tuple(_id(d, "former id") for d in value)


def read_join(path: Path, sync_id: str, device: str) -> Join:
    def read() -> Join:
        found = join_record(frame.read_raw(path, sync_id, JOIN))
        if found.device != device:
            raise SyncRefused("it is not what its name says")
        return found

    return _remembered((JOIN, str(path), sync_id, device, _mark(path)), read)


def read_request(path: Path, sync_id: str, device: str) -> Request:
    raw = frame.read_raw(path, sync_id, REQUEST)
    body = raw.plain()
    if raw.header.get("device") != device or body.get("device") != device:
        raise SyncRefused("it is not what its name says")
    member = member_of(body)
    raw.verify(member.signing)  # signed by the computer that asks
    offer = _id(body.get("offer"), "pairing offer")
    made = body.get("made")
    if type(made) is not int:
        raise _damaged("time")
    return Request(
        raw.path.name, raw.digest, device, member, offer,
        crypto.unb64(body.get("proof"), 32), made, raw, _former(body),
    )  # fmt: skip


def from_kept(kind: str, data: bytes, sync_id: str) -> KeyFile | Join:
    """A record kept in the profile (its bytes as they were in the folder when taken)."""

    def read() -> KeyFile | Join:
        raw = frame.parse_raw(data, Path("kept"), sync_id, kind)
        return key_file(raw) if kind == GENERATION else join_record(raw)

    return _remembered(("kept", kind, sync_id, hashlib.sha256(data).digest()), read)


def carried(kf: KeyFile, sync_id: str) -> list[KeyFile]:
    """The key files a generation carries whole (those it builds on that others wrote):
    only those it names as parents, each its digest; what does not read is left out."""
    found: list[KeyFile] = []
    carries = kf.body.get("carries")
    if not isinstance(carries, dict):
        return found
    parents = set(kf.record.parents or ())
    for digest, text in list(carries.items())[:MAX_PARENTS]:
        if digest not in parents or not isinstance(text, str) or len(text) > CARRIED_CAP:
            continue
        try:
            got = from_kept(GENERATION, base64.b64decode(text, validate=True), sync_id)
        except (SyncRefused, binascii.Error, ValueError):
            continue
        if isinstance(got, KeyFile) and got.record.digest == digest:
            found.append(got)
    return found


# -- writing -------------------------------------------------------------------------


def write_key_file(
    layout: files.Layout,
    body: dict[str, Any],
    signer: frame.Signer,
    staged: frame.Staged | None = None,
) -> KeyFile:
    """`staged` hears the file's digest before it takes its name (frame.atomic_write)."""
    number, writer = int(body["generation"]), str(body["writer"])
    header = {"kind": GENERATION, "sync": layout.sync_id, "generation": number, "writer": writer}
    path = layout.keys / files.key_name(number, writer)
    frame.write_plain(path, header, body, signer, staged)
    return read_key_file(path, layout.sync_id, number, writer)


def write_join(
    layout: files.Layout,
    device: str,
    member: Member,
    voucher: str,
    parent: str,
    via: str,
    offered_at: int | None,
    signer: frame.Signer,
    offer: str | None = None,
    former: Iterable[str] = (),
    staged: frame.Staged | None = None,
) -> Join:
    """`staged` hears the file's digest before it takes its name (frame.atomic_write)."""
    header = {"kind": JOIN, "sync": layout.sync_id, "device": device, "voucher": voucher}
    body: dict[str, Any] = {
        "device": device, **member.to_dict(), "voucher": voucher, "parent": parent,
        "via": via, "offered_at": offered_at,
    }  # fmt: skip
    if offer is not None:  # which code: two shown within a second are two
        body["offer"] = offer
    if former:  # a computer joining again: the ids it had (it carries what they did)
        body["former"] = sorted(set(former))
    path = layout.keys / files.join_name(device)
    frame.write_plain(path, header, body, signer, staged)
    return read_join(path, layout.sync_id, device)


def write_request(
    layout: files.Layout,
    device: str,
    member: Member,
    offer: str,
    proof: bytes,
    made: int,
    signer: frame.Signer,
    former: Iterable[str] = (),
) -> None:
    header = {"kind": REQUEST, "sync": layout.sync_id, "device": device}
    body = {
        "device": device, **member.to_dict(), "offer": offer, "proof": crypto.b64(proof),
        "made": made,
    }  # fmt: skip
    if former:
        body["former"] = sorted(set(former))
    frame.write_plain(layout.keys / files.request_name(device), header, body, signer)


def request_proof(pair_key: bytes, sync_id: str, offer: str, device: str, member: Member) -> bytes:
    """What shows that whoever asks to be let in holds the pairing code: a MAC of who
    asks, under the key the code makes."""
    text = "\n".join([sync_id, offer, device, member.agreement, member.signing]).encode()
    return hmac.new(pair_key, _PROOF_INFO + text, hashlib.sha256).digest()


__all__ = [
    "GENERATION",
    "JOIN",
    "REQUEST",
    "KeyFile",
    "Request",
    "from_kept",
    "join_record",
    "key_file",
    "member_of",
    "read_join",
    "read_key_file",
    "read_request",
    "request_proof",
    "write_join",
    "write_key_file",
    "write_request",
]
