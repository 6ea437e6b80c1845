"""The sync keys this computer holds, and what the signed records say of who is in.

A profile's sync key is made when sync is set up, and made again (a new *generation*)
when a computer is removed, when generations were made apart (two removals at once), or
when a member lacks the key others write with. Each generation's key file seals the key
to every member its writer names (their X25519 keys) and to the profile's recovery lock,
carries every earlier key sealed under the new one (holding the newest opens every
file), names the generations it builds on, and names the recovery authority (a signing
key sealed to the recovery code, with which a computer joining with that code is let
in).

Who is in is never what a key file alone says, nor who can open it: the rules in
core/sync/membership.py decide, from the key files and the join records, each checked
against the members of what it builds on. This module reads those records from the
folder (and keeps each one taken, so a copy deleted or damaged later undoes nothing),
holds the keys sealed to this computer, says which generation to write with, and writes
the next one.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from desktop_mem.core.errors import SyncError, SyncRefused
from desktop_mem.core.jsontypes import JSONObject
from desktop_mem.core.keys.recovery import RecoveryLock
from desktop_mem.core.sync import crypto, files, records
from desktop_mem.core.sync.membership import (
    Anchor,
    Join,
    Member,
    Membership,
    evaluate,
)
from desktop_mem.core.sync.membership import Generation as Signed

_CHAIN_INFO = b"desktop-mem sync key chain v1"
REMOVED = (
    "This computer was removed from the sync by another one: what it holds stays here, but "
    "it no longer syncs. To sync it again, join with a pairing code shown on one of the "
    "other computers (`desktop-mem sync join FOLDER --code CODE`); it keeps what it holds."
)
LEFT_OUT = (
    "This computer is no longer in the sync: the computer that let it in was removed before "
    "the others knew of it. What it holds stays here. To sync it again, join with a pairing "
    "code shown on one of the other computers (`desktop-mem sync join FOLDER --code CODE`); "
    "it keeps what it holds."
)


@dataclass
class Current:
    """The generation this computer writes with."""

    number: int
    writer: str
    key: bytes
    members: dict[str, dict[str, str]]
    removed: set[str]
    lock: JSONObject | None  # the recovery lock (RecoveryLock.to_dict) it names
    digest: str = ""

    @property
    def key_id(self) -> str:
        return crypto.key_id(self.key)

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number, "writer": self.writer, "key": self.key.hex(),
            "members": self.members, "removed": sorted(self.removed), "lock": self.lock,
            "digest": self.digest,
        }  # fmt: skip

    @classmethod
    def from_dict(cls, cur: dict[str, Any]) -> Current:
        return cls(
            int(cur["number"]), str(cur["writer"]), bytes.fromhex(cur["key"]),
            dict(cur["members"]), set(cur.get("removed", [])), cur.get("lock"),
            str(cur.get("digest") or ""),
        )  # fmt: skip


# the name the rest of the sync code used for it
Generation = Current


@dataclass
class Offer:
    """A pairing offer this computer made: let in the first computer that asks with it."""

    key: bytes  # what the code makes (scrypt): a request's proof is checked with it
    made: int
    expires: int
    generation: str  # the digest of the generation whose key the offer carries
    used_by: str | None = None

    def to_dict(self) -> JSONObject:
        return {"key": self.key.hex(), "made": self.made, "expires": self.expires,
                "generation": self.generation, "used_by": self.used_by}  # fmt: skip

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Offer:
        return cls(bytes.fromhex(d["key"]), int(d["made"]), int(d["expires"]),
                   str(d["generation"]), d.get("used_by"))  # fmt: skip


@dataclass
class Pending:
    """This computer asked to be let in with a pairing code, and waits."""

    offer: str
    inviter: str
    offered_at: int
    expires: int
    key: bytes  # what the code made, for the request's proof

    def to_dict(self) -> JSONObject:
        return {"offer": self.offer, "inviter": self.inviter, "offered_at": self.offered_at,
                "expires": self.expires, "key": self.key.hex()}  # fmt: skip

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Pending:
        return cls(str(d["offer"]), str(d["inviter"]), int(d["offered_at"]),
                   int(d["expires"]), bytes.fromhex(d["key"]))  # fmt: skip


@dataclass
class Refreshed:
    """What reading the records found."""

    refused: list[str] = field(default_factory=list)
    let_in: bool = False  # this computer, waiting to be let in, now is
    let_in_by: str | None = None  # by this member
    waiting: str | None = None  # the member this computer waits to be let in by
    needs_generation: bool = False  # not settled: a member holding the key writes anew
    no_key: bool = False  # a member, but not given the key the others write with yet


@dataclass
class KeyChain:
    """The keys this computer holds, by key id, what it trusts, and the generation it
    writes with."""

    sync_id: str
    keys: dict[str, bytes] = field(default_factory=dict)
    anchor: Anchor | None = None  # None: as 0.4 left it, until the first refresh
    kept: dict[str, tuple[str, bytes]] = field(default_factory=dict)  # digest -> record
    current: Current | None = None
    removed: set[str] = field(default_factory=set)
    left_out: bool = False
    pending: Pending | None = None
    offers: dict[str, Offer] = field(default_factory=dict)
    in_sync: dict[str, Member] = field(default_factory=dict)  # who was in at the last refresh
    # the digests of the records this computer wrote in keys/ (its generations, the joins
    # it signed): it keeps them there, and one signed with its key that it did not write
    # is a copy of it at work. None: from before they were counted (core/sync/own.py)
    written: set[str] | None = None
    # joined with the recovery code alone, on this start (its digest): the one the folder
    # showed then, which it cannot tell from another start planted for the code
    recovered_from: str | None = None
    # and the folder now holds another start beside it: it syncs no more until one is
    # gone, or it joins again with a pairing code (core/sync/pairing.py, contested)
    contested: bool = False
    # not kept: what the last refresh read
    membership: Membership | None = field(default=None, repr=False, compare=False)
    bodies: dict[str, dict[str, Any]] = field(default_factory=dict, repr=False, compare=False)
    authority_key: bytes | None = field(default=None, repr=False, compare=False)

    # -- kept in the profile ---------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": 2,
            "sync": self.sync_id,
            "keys": {k: v.hex() for k, v in self.keys.items()},
            "anchor": None if self.anchor is None else self.anchor.to_dict(),
            "kept": {
                d: [kind, base64.b64encode(data).decode()]
                for d, (kind, data) in sorted(self.kept.items())
            },  # fmt: skip
            "removed": sorted(self.removed),
            **({"left_out": True} if self.left_out else {}),
            "current": None if self.current is None else self.current.to_dict(),
            "pending": None if self.pending is None else self.pending.to_dict(),
            "offers": {k: o.to_dict() for k, o in sorted(self.offers.items())},
            "members": {d: m.to_dict() for d, m in sorted(self.members.items())},
            **({} if self.written is None else {"written": sorted(self.written)}),
            **({"recovered_from": self.recovered_from} if self.recovered_from else {}),
            **({"contested": True} if self.contested else {}),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> KeyChain:
        chain = cls(str(data["sync"]))
        chain.keys = {k: bytes.fromhex(v) for k, v in data.get("keys", {}).items()}
        chain.removed = set(data.get("removed", []))
        chain.left_out = bool(data.get("left_out"))
        if data.get("anchor") is not None:
            chain.anchor = Anchor.from_dict(data["anchor"])
        chain.kept = {
            d: (str(kind), base64.b64decode(b)) for d, (kind, b) in data.get("kept", {}).items()
        }
        cur = data.get("current")
        if cur:
            chain.current = Current.from_dict(cur)
        if data.get("pending"):
            chain.pending = Pending.from_dict(data["pending"])
        chain.offers = {k: Offer.from_dict(o) for k, o in data.get("offers", {}).items()}
        chain.in_sync = {
            str(d): Member(str(m["agreement"]), str(m["signing"]))
            for d, m in data.get("members", {}).items()
        }
        if isinstance(data.get("written"), list):
            chain.written = {str(d) for d in data["written"]}
        if isinstance(data.get("recovered_from"), str):
            chain.recovered_from = data["recovered_from"]
        chain.contested = bool(data.get("contested"))
        return chain

    @property
    def write_key(self) -> bytes:
        if self.current is None:
            raise SyncError("This computer holds no sync key yet.", reason="sync_no_key")
        return self.current.key

    def key(self, key_id: str) -> bytes:
        try:
            return self.keys[key_id]
        except KeyError:
            raise SyncRefused("it is sealed with a key this computer does not hold") from None

    @property
    def members(self) -> dict[str, Member]:
        """Who is in, as the last refresh found, less any computer removed since (by this
        computer: a removal is never undone)."""
        found = self.membership.members if self.membership is not None else self.in_sync
        return {d: m for d, m in found.items() if d not in self.removed}

    # -- reading the records -----------------------------------------------------------

    def read(self, layout: files.Layout) -> tuple[list[records.KeyFile], list[Join], list[str]]:
        """Every generation and join in the folder, and those kept here; what does not
        read, with why (one sentence each)."""
        refused: list[str] = []
        gens: dict[str, records.KeyFile] = {}
        joins: dict[str, Join] = {}
        for digest, (kind, data) in self.kept.items():
            try:
                found = records.from_kept(kind, data, self.sync_id)
            except SyncRefused:
                continue
            if isinstance(found, records.KeyFile):
                gens[digest] = found
            else:
                joins[digest] = found
        for number, writer, path in layout.key_files():
            try:
                kf = records.read_key_file(path, self.sync_id, number, writer)
            except SyncRefused as exc:
                refused.append(f"{path.name}: {exc}")
                continue
            gens.setdefault(kf.record.digest, kf)
        for kf in list(gens.values()):  # what each builds on, carried whole in it
            for carried in records.carried(kf, self.sync_id):
                gens.setdefault(carried.record.digest, carried)
        for device, path in layout.join_files():
            try:
                join = records.read_join(path, self.sync_id, device)
            except SyncRefused as exc:
                refused.append(f"{path.name}: {exc}")
                continue
            joins.setdefault(join.digest, join)
        return list(gens.values()), list(joins.values()), refused

    def evaluate(
        self, layout: files.Layout, grandfathered: dict[str, Member] | None = None
    ) -> tuple[Membership, list[str]]:
        """What the records say now; what could not be read or was not taken."""
        gens, joins, refused = self.read(layout)
        if self.anchor is None:
            self.anchor = self._anchor_from_0_4(gens, grandfathered or {})
        self.bodies = {kf.record.digest: kf.body for kf in gens}
        m = evaluate(self.anchor, [kf.record for kf in gens], joins, crypto.verify)
        self.membership = m
        for digest in m.generations:  # taken: kept, so no later copy in the folder undoes it
            kf = next(k for k in gens if k.record.digest == digest)
            self.kept.setdefault(digest, (records.GENERATION, kf.data))
        by_digest = {j.digest: j for j in joins}
        for join in [*m.joins.values(), *m.used.values()]:
            if join.digest in by_digest:
                kept = by_digest[join.digest]
                self.kept.setdefault(join.digest, (records.JOIN, kept.signed + kept.signature))
        refused += [f"{name}: {why}" for name, why in m.refused]
        return m, refused

    def _anchor_from_0_4(
        self, gens: list[records.KeyFile], grandfathered: dict[str, Member]
    ) -> Anchor:
        """A sync set up by 0.4: what this computer trusted then, it trusts (the key files
        up to the one it wrote with, by their writers it knew, and the computers it had
        met); from here on, the rules."""
        cur = self.current
        known: dict[str, Member] = dict(grandfathered)
        if cur is not None:
            for d, m in cur.members.items():
                known.setdefault(d, Member(str(m.get("agreement", "")), str(m.get("signing", ""))))
        number = cur.number if cur is not None else 0
        trusted = frozenset(
            kf.record.digest
            for kf in gens
            if kf.record.number <= number
            and kf.record.writer in known
            and crypto.verify(
                known[kf.record.writer].signing, kf.record.signature, kf.record.signed
            )
        )
        members = {d: m for d, m in known.items() if d not in self.removed}
        return Anchor(trusted, members, frozenset(self.removed))

    def refresh(
        self,
        layout: files.Layout,
        me: str,
        device_keys: crypto.DeviceKeys,
        grandfathered: dict[str, Member] | None = None,
    ) -> Refreshed:
        """Take in what the records say: the keys sealed to this computer, the generation
        to write with, who is in. Raises SyncError when this computer was removed, or is
        no longer in."""
        out = Refreshed()
        m, out.refused = self.evaluate(layout, grandfathered)
        self._hold(m, me, device_keys)
        self.removed = set(m.removed)
        if me in m.removed:
            raise SyncError(REMOVED, reason="sync_removed")
        if me not in m.members:
            if self.pending is not None:
                out.waiting = self.pending.inviter
                self._check_pending(layout, m, me)
                cur = self.current
                if cur is not None and m.given.get(cur.digest, set()) & m.removed:
                    # the pairing code carried a key a computer removed since holds: nothing
                    # is written with it (the new key comes once this computer is let in)
                    self.current = None
                    out.no_key = True
                return out
            self.left_out = True
            raise SyncError(LEFT_OUT, reason="sync_left_out")
        self.left_out = False
        if self.pending is not None:
            out.let_in, out.let_in_by = True, self.pending.inviter
            self.pending = None
            files.remove_file(layout.keys / files.request_name(me))
        write = m.write
        if write is not None and write.key_id in self.keys:
            self.current = Current(
                write.number, write.writer, self.keys[write.key_id],
                {d: k.to_dict() for d, k in write.members.items()}, set(write.removed),
                self.bodies.get(write.digest, {}).get("lock"), write.digest,
            )  # fmt: skip
        elif write is not None or self.current is not None:
            # the key the others write with was not given to this computer yet (or every
            # key it holds was given to a computer now removed): it writes nothing until
            # a new generation is sealed to it
            self.current = None
            out.no_key = True
        # not settled: a member that holds a key of the newest generations writes the next
        # one (its earlier keys go with it, so everything written before still opens)
        out.needs_generation = not m.settled and any(g.key_id in self.keys for g in m.frontier)
        if m.settled and write is not None and self.current is not None:
            # written before the recovery authority existed (0.4): one more generation
            # names it, so that the recovery code can let a computer in
            body = self.bodies.get(write.digest, {})
            out.needs_generation = bool(body.get("lock")) and not body.get("authority")
        return out

    def _hold(self, m: Membership, me: str, device_keys: crypto.DeviceKeys) -> None:
        """Keep every key sealed to this computer in a generation taken, and the earlier
        keys each carries (files written under them open here); none is written with
        unless the rules say so."""
        for digest, g in m.generations.items():
            if g.key_id in self.keys:
                continue
            seals = self.bodies.get(digest, {}).get("seals")
            seal = seals.get(me) if isinstance(seals, dict) else None
            if seal is None:
                continue
            try:
                key = device_keys.open(seal)
                self.hold(self.bodies[digest], key)
            except SyncRefused:
                continue

    def hold(self, body: dict[str, Any], key: bytes) -> None:
        """A generation's key and the earlier ones it carries."""
        if crypto.key_id(key) != body.get("key"):
            raise SyncRefused("its key is not the one it names")
        previous = body.get("previous") or {}
        try:
            chain = AESGCM(key).decrypt(
                crypto.unb64(previous.get("nonce"), 12),
                crypto.unb64(previous.get("sealed")),
                _CHAIN_INFO + self.sync_id.encode(),
            )
            carried = json.loads(chain)
        except (InvalidTag, ValueError, AttributeError):
            raise SyncRefused("its earlier keys do not open") from None
        if isinstance(carried, dict):
            for k, v in carried.items():
                if isinstance(k, str) and isinstance(v, str) and len(v) == 64:
                    with contextlib.suppress(ValueError):
                        self.keys.setdefault(k, bytes.fromhex(v))
        self.keys[crypto.key_id(key)] = key

    def _check_pending(self, layout: files.Layout, m: Membership, me: str) -> None:
        """Waiting to be let in: was the code used by another computer, or did it
        expire before the computer that showed it let this one in?"""
        p = self.pending
        assert p is not None
        if p.inviter in m.removed or p.inviter not in m.members:
            # removed, or left out itself: it will never let this one in
            self.left_out = True  # only joining again (with another code) can work
            raise SyncError(
                "The computer that showed the pairing code this computer joined with left "
                "the sync before it let this one in: show a new pairing code on another of "
                "your computers and join with it.",
                reason="sync_left_out",
            )
        # only a join the computer that showed the code signed (anyone can write one)
        inviter = m.members.get(p.inviter)
        for join in _joins_in(layout, self.sync_id):
            same = (
                join.offer == p.offer if join.offer is not None else join.offered_at == p.offered_at
            )
            if (
                (join.voucher, join.via) == (p.inviter, "pair")
                and same
                and join.device != me
                and inviter is not None
                and crypto.verify(inviter.signing, join.signature, join.signed)
            ):
                self.left_out = True
                raise SyncError(
                    "The pairing code this computer joined with was used by another computer "
                    "first, so this one was not let in: show a new pairing code on one of your "
                    "other computers and join with it.",
                    reason="sync_code_used",
                )
        offered = layout.root / f"pair-{p.offer}.dmp"
        if time.time() > p.expires and not files.present(offered):
            self.left_out = True
            raise SyncError(
                "The pairing code this computer joined with expired before the computer that "
                "showed it could let this one in (it was not syncing): show a new pairing "
                "code there, keep both computers on, and join with it.",
                reason="sync_code_expired",
            )
        self.left_out = False  # still waiting, and rightly

    # -- making a generation -----------------------------------------------------------

    def new_generation(
        self,
        layout: files.Layout,
        me: str,
        signer: crypto.DeviceKeys,
        lock: JSONObject | None,
        removed: set[str] = frozenset(),  # type: ignore[assignment]
        members: dict[str, Member] | None = None,
        signing: records.Signing | None = None,
    ) -> Current:
        """The next generation, written by this computer: a new key sealed to every
        member (`members`, or who is in now) but those `removed` now or before, and to
        the recovery lock; every key this computer holds carried under it; every head
        as its parent. Then it is what this computer writes with. `signing`: what keeps
        the key file as this computer's before it takes its name (a pass killed before
        the chain is kept still knows it wrote it: not a copy of it at work)."""
        m = self.membership
        gone = set(self.removed) | set(removed)
        if m is not None:
            gone |= set(m.removed)
        everyone = dict(members if members is not None else self.members)
        everyone[me] = Member(signer.public["agreement"], signer.public["signing"])
        everyone = {d: k for d, k in everyone.items() if d not in gone}
        heads = m.heads if m is not None else []
        number = max((g.number for g in heads), default=0) + 1
        key = os.urandom(32)
        seals: dict[str, Any] = {
            d: crypto.seal_to(k.agreement, key) for d, k in sorted(everyone.items())
        }
        recovery = RecoveryLock.from_dict(lock) if lock is not None else None
        if recovery is not None:
            seals["recovery"] = recovery.seal(key)
        nonce = os.urandom(12)
        chain = AESGCM(key).encrypt(
            nonce,
            json.dumps({k: v.hex() for k, v in self.keys.items()}).encode(),
            _CHAIN_INFO + self.sync_id.encode(),
        )
        body: dict[str, Any] = {
            "generation": number,
            "writer": me,
            "parents": sorted(g.digest for g in heads),
            "members": {d: k.to_dict() for d, k in sorted(everyone.items())},
            "removed": sorted(gone),
            "lock": lock if recovery is not None else None,
            "seals": seals,
            "previous": {"nonce": crypto.b64(nonce), "sealed": crypto.b64(chain)},
            "key": crypto.key_id(key),
        }
        authority = self._authority_for(recovery, lock)
        if authority is not None:
            body["authority"] = authority
        carries = self._carries(layout, heads, me)
        if carries:
            body["carries"] = carries
        staged = None if signing is None else signing(files.key_name(number, me))
        kf = records.write_key_file(layout, body, signer, staged)
        self.keys[crypto.key_id(key)] = key
        self.kept[kf.record.digest] = (records.GENERATION, kf.data)
        self.wrote(kf.record.digest)
        self.bodies[kf.record.digest] = body
        self.removed = gone
        self.current = Current(
            number, me, key, {d: k.to_dict() for d, k in everyone.items()}, gone,
            body["lock"], kf.record.digest,
        )  # fmt: skip
        return self.current

    def _carries(self, layout: files.Layout, heads: list[Signed], me: str) -> dict[str, str]:
        """The key files a new generation builds on that others wrote, each whole (as
        kept here), so that a computer that reads it can take them even when the folder
        no longer holds them as they were: only their writer puts a key file back, and a
        removed computer can write its own again, differently, under the same name. And
        one of its own that the folder holds another version of under its name: a copy
        of this computer (a cloned disk) wrote that one, signed with the same key, and
        this computer cannot put its own back over it (core/sync/own.py)."""
        out: dict[str, str] = {}
        budget = records.CARRIED_CAP
        for g in heads:
            kept = self.kept.get(g.digest)
            if kept is None or kept[0] != records.GENERATION:
                continue
            if g.writer == me and _in_place(layout.keys / g.name, g.digest):
                continue
            data = base64.b64encode(kept[1]).decode()
            if len(data) <= budget:
                out[g.digest] = data
                budget -= len(data)
        return out

    def wrote(self, digest: str) -> None:
        """A record this computer wrote in keys/ (None until counted: all it signed)."""
        if self.written is not None:
            self.written.add(digest)

    def _authority_for(
        self, recovery: RecoveryLock | None, lock: JSONObject | None
    ) -> dict[str, Any] | None:
        """The recovery authority a new generation names: the one before it while the
        recovery code is the same (its private half sealed to that code is copied, no one
        here can open it), a new one sealed to a new code."""
        if recovery is None:
            return None
        # the one it writes with; with none (every key left was given to a computer
        # removed since), the one the newest lawful generations name
        m = self.membership
        digests = [self.current.digest] if self.current is not None else []
        digests += [g.digest for g in m.frontier] if m is not None else []
        for digest in digests:
            before = self.bodies.get(digest, {})
            if before.get("lock") == lock and isinstance(before.get("authority"), dict):
                return dict(before["authority"])
        private = Ed25519PrivateKey.generate()
        public = private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        raw = private.private_bytes_raw()
        return {"signing": crypto.b64(public), "sealed": recovery.seal(raw)}

    def start(
        self, layout: files.Layout, me: str, signer: crypto.DeviceKeys, lock: JSONObject | None
    ) -> None:
        """The first generation of a new sync: this computer alone, trusted as the root."""
        self.written = set()
        self.new_generation(layout, me, signer, lock, members={})
        assert self.current is not None
        self.anchor = Anchor(frozenset({self.current.digest}))


def _joins_in(layout: files.Layout, sync_id: str) -> list[Join]:
    out = []
    for device, path in layout.join_files():
        try:
            out.append(records.read_join(path, sync_id, device))
        except SyncRefused:
            continue
    return out


__all__ = [
    "LEFT_OUT",
    "REMOVED",
    "Current",
    "Generation",
    "KeyChain",
    "Offer",
    "Pending",
    "Refreshed",
]


def _in_place(path: Path, digest: str) -> bool:
    """Whether the folder holds this key file, as it was, under its name."""
    data = files.read_bytes(path, "keys")
    return data is not None and hashlib.sha256(data).hexdigest() == digest
