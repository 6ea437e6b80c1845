"""The sync key and who holds it.

A profile's sync key is made when sync is set up, and made again (a new *generation*)
each time a computer is removed, so that the removed computer cannot read anything
written afterwards. Each generation has a key file, written and signed by the computer
that made it, that seals the key to every computer still syncing (their X25519 keys)
and to the profile's recovery lock (the recovery code opens it), and carries every
earlier key sealed under the new one, so holding the newest opens every file.

Which computers may sign: the members a generation names, and those that joined since
(known by their status files, sealed under the key). A key file also carries its
writer's signing key sealed under the generation before it, so a computer that holds
that key but has not heard of the writer (it joined, or joined again, after this
computer last read the folder) can still take it: above all, learn that it was itself
removed. A key file signed by anyone else, or that names as a member a computer an
earlier generation removed, is not used.

Two computers that each make a generation before seeing the other's (two removals at
once) make generations *apart*: every key sealed to this computer is kept (their files
open here), and the next generation this computer writes brings them together: every
removal either made, every member either names that neither removed (not the list of a
computer one of them removed), every key. The same removal made on both is one
generation to write with, the lower writer's.

A one-time pairing offer seals the keys under a pairing code for an hour: a second
computer joins with it, or with the recovery code.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from desktop_mem.core.errors import SyncError, SyncRefused, WrongKey
from desktop_mem.core.keys.recovery import RecoveryLock
from desktop_mem.core.sync import crypto, files

PAIRING_SECONDS = 3600
_CHAIN_INFO = b"desktop-mem sync key chain v1"
_WRITER_INFO = b"desktop-mem sync key file writer v1"
_REMOVED = (
    "This computer was removed from the sync by another one: what it holds stays here, but "
    "it no longer syncs. To sync it again, join with a pairing code shown on one of the "
    "other computers (`desktop-mem sync join FOLDER --code CODE`); it keeps what it holds."
)
_LEFT_OUT = (
    "This computer was left out when another computer made a new sync key before it had "
    "heard of this one: what it holds stays here, but it no longer syncs. To sync it again, "
    "join with a pairing code shown on one of the other computers (`desktop-mem sync join "
    "FOLDER --code CODE`); it keeps what it holds."
)


@dataclass
class Generation:
    number: int
    writer: str
    key: bytes
    members: dict[str, dict[str, str]]
    removed: set[str]
    lock: dict[str, Any] | None

    @property
    def key_id(self) -> str:
        return crypto.key_id(self.key)


@dataclass
class Merge:
    """A generation to write because others were made apart (at the same time, or by a
    computer that had not seen a removal or a member this one knows of): every removal
    any of them made, every member they name that none removed, every key held."""

    number: int
    removed: set[str]
    members: dict[str, dict[str, str]]


@dataclass
class KeyChain:
    """The keys this computer holds, by key id, and the generation it writes with."""

    sync_id: str
    keys: dict[str, bytes] = field(default_factory=dict)
    current: Generation | None = None
    removed: set[str] = field(default_factory=set)
    left_out: bool = False  # a new key was made without this computer (see refresh)
    # what a new generation must hold after `refresh` found generations made apart
    merge: Merge | None = field(default=None, repr=False)
    keys_carried: set[str] = field(default_factory=set, repr=False)  # by the last taken

    # -- kept in the profile ---------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        cur = self.current
        return {
            "sync": self.sync_id,
            "keys": {k: v.hex() for k, v in self.keys.items()},
            "removed": sorted(self.removed),
            **({"left_out": True} if self.left_out else {}),
            "current": None
            if cur is None
            else {
                "number": cur.number,
                "writer": cur.writer,
                "key": cur.key.hex(),
                "members": cur.members,
                "removed": sorted(cur.removed),
                "lock": cur.lock,
            },  # fmt: skip
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> KeyChain:
        chain = cls(str(data["sync"]))
        chain.keys = {k: bytes.fromhex(v) for k, v in data.get("keys", {}).items()}
        chain.removed = set(data.get("removed", []))
        chain.left_out = bool(data.get("left_out"))
        cur = data.get("current")
        if cur:
            chain.current = Generation(
                int(cur["number"]), str(cur["writer"]), bytes.fromhex(cur["key"]),
                dict(cur["members"]), set(cur.get("removed", [])), cur.get("lock"),
            )  # fmt: skip
        return chain

    @property
    def write_key(self) -> bytes:
        if self.current is None:
            raise SyncError("This computer holds no sync key yet.")
        return self.current.key

    def key(self, key_id: str) -> bytes:
        try:
            return self.keys[key_id]
        except KeyError:
            raise SyncRefused("it is sealed with a key this computer does not hold") from None

    # -- making a generation -----------------------------------------------------------

    def new_generation(
        self,
        layout: files.Layout,
        me: str,
        signer: crypto.DeviceKeys,
        members: dict[str, dict[str, str]],
        lock: dict[str, Any] | None,
        removed: set[str] = frozenset(),  # type: ignore[assignment]
        number: int | None = None,
    ) -> Generation:
        """Make the next generation's key (or generation `number`), seal it to `members`
        and the recovery lock, and write its key file. Members removed now or before are
        left out."""
        number = number or (self.current.number if self.current else 0) + 1
        key = os.urandom(32)
        gone = set(self.removed) | set(removed)
        members = {d: m for d, m in members.items() if d not in gone}
        seals: dict[str, Any] = {d: crypto.seal_to(m["agreement"], key) for d, m in members.items()}
        if lock is not None:
            recovery = RecoveryLock.from_dict(lock)
            if recovery is not None:
                seals["recovery"] = recovery.seal(key)
        previous = dict(self.keys)
        nonce = os.urandom(12)
        chain = AESGCM(key).encrypt(
            nonce,
            json.dumps({k: v.hex() for k, v in previous.items()}).encode(),
            _CHAIN_INFO + self.sync_id.encode(),
        )
        body = {
            "generation": number,
            "writer": me,
            "members": members,
            "removed": sorted(gone),
            "lock": lock,
            "seals": seals,
            "previous": {"nonce": crypto.b64(nonce), "sealed": crypto.b64(chain)},
            "key": crypto.key_id(key),
        }
        if self.current is not None:  # who wrote it, for those holding the key before
            nonce = os.urandom(12)
            body["writer_signing"] = {
                "under": self.current.key_id,
                "nonce": crypto.b64(nonce),
                "sealed": crypto.b64(
                    AESGCM(self.current.key).encrypt(
                        nonce,
                        signer.public["signing"].encode(),
                        _writer_info(self.sync_id, number, me),
                    )
                ),
            }
        header = {"kind": "keys", "sync": self.sync_id, "generation": number, "writer": me}
        files.write_plain(layout.keys / files.key_name(number, me), header, body, signer)
        generation = Generation(number, me, key, members, gone, lock)
        self.keys[generation.key_id] = key
        self.current = generation
        self.removed = gone
        return generation

    # -- reading the key files ---------------------------------------------------------

    def refresh(
        self,
        layout: files.Layout,
        me: str,
        device_keys: crypto.DeviceKeys,
        signers: dict[str, str],
    ) -> list[str]:
        """Take in newer generations from the folder. `signers`: the signing keys of the
        computers known to be in this sync (device -> public key). Returns what was
        refused (one sentence each); raises SyncError when this computer was removed."""
        refused: list[str] = []
        if me in self.removed:  # found at an earlier pass
            if self.left_out:
                raise SyncError(_LEFT_OUT, reason="sync_left_out")
            raise SyncError(_REMOVED, reason="sync_removed")
        have = self.current.number if self.current else 0
        self.merge = None
        top = have
        apart: list[tuple[str, dict[str, Any], set[str]]] = []  # (writer, members, removed)
        for number, writer, path in layout.key_files():
            if number < have:
                continue
            if self.current and number == have and writer == self.current.writer:
                continue
            body = self._verified(path, number, writer, signers, have, refused)
            if body is None:
                continue
            members = body.get("members") or {}
            removed = set(body.get("removed") or [])
            # told by a computer of this sync that this one was removed: so it was, even
            # when that computer had not yet heard of a removal this one made
            if me in removed:
                self.removed |= removed
                raise SyncError(_REMOVED, reason="sync_removed")
            seal = (body.get("seals") or {}).get(me)
            key = device_keys.open(seal) if seal is not None else None
            held = set(self.keys)
            if key is not None:  # what was written under it opens here, whatever comes
                self._hold(body, key)
            top = max(top, number)
            cur = self.current
            if cur is not None and number == have:
                # made at the same time as the one this computer writes with, by another
                # computer that had not seen it: the same content (the same removal made
                # on both) is one key to write with, the lower writer's; anything else
                # is merged into a new generation (below)
                if removed == cur.removed and set(members) == set(cur.members):
                    if key is not None and writer < cur.writer:
                        self._take(body, key, number, writer)
                    continue
                apart.append((writer, members, removed))
                continue
            dropped = {
                d for d in (cur.members if cur else {}) if d not in members and d not in removed
            }
            if (set(members) & self.removed) or not removed >= self.removed or dropped:
                # made by a computer that had not seen a removal (or a member) this one
                # knows of: not written with; merged into a new generation (below)
                apart.append((writer, members, removed))
                continue
            if key is None:
                # made by a computer that had not heard of this one yet (it joined just
                # before): nothing will seal that key to it now, so it is out as if removed
                self.removed.add(me)
                self.left_out = True
                raise SyncError(_LEFT_OUT, reason="sync_left_out")
            self._take(body, key, number, writer)
            have = number
            # what was made apart before it and it already brings together needs nothing
            apart = [a for a in apart if not _covered(a, set(members), removed)]
            if held - self.keys_carried:
                # keys this computer holds (a generation made at the same time as another)
                # that the new one does not carry: the others need them to read its files
                apart.append((writer, members, removed))
        self.merge = self._merge_of(apart, top + 1)
        return refused

    def _merge_of(
        self, apart: list[tuple[str, dict[str, Any], set[str]]], number: int
    ) -> Merge | None:
        """The generation that brings generations made apart together: every removal
        any made, the members any names that none removed, at `number`."""
        if not apart or self.current is None:
            return None
        gone = set(self.removed).union(*(r for _w, _m, r in apart))
        members = dict(self.current.members)
        for writer, their, _r in apart:
            if writer not in gone:  # a removed computer's list is not trusted
                members.update(their)
        return Merge(number, gone, {d: m for d, m in members.items() if d not in gone})

    def _verified(
        self,
        path: Path,
        number: int,
        writer: str,
        signers: dict[str, str],
        have: int,
        refused: list[str],
    ) -> dict[str, Any] | None:
        """A key file's body, when it is what its name says and signed by a computer of
        this sync (or one whose signing key it carries sealed under the key before it);
        else None, with why in `refused`."""
        try:
            body = _read_key_file(path, self.sync_id, number, writer)
        except SyncRefused as exc:
            refused.append(f"{path.name}: {exc}")
            return None
        known = {
            **signers,
            **{
                d: m.get("signing", "")
                for d, m in (self.current.members if self.current else {}).items()
            },
        }
        signer_key = known.get(writer)
        if signer_key is None and number == have + 1:
            signer_key = self._introduced(body, number, writer)
        if signer_key is None or writer in self.removed:
            refused.append(f"{path.name}: written by a computer not in this sync")
            return None
        try:
            _verify_key_file(path, signer_key)
        except SyncRefused as exc:
            refused.append(f"{path.name}: {exc}")
            return None
        return body

    def _introduced(self, body: dict[str, Any], number: int, writer: str) -> str | None:
        """The signing key of a key file's writer this computer has not heard of, as the
        file seals it under this computer's current key (the generation just before
        it): whoever wrote it held that key. None when it does not, or does not open."""
        sealed = body.get("writer_signing")
        if self.current is None or not isinstance(sealed, dict):
            return None
        if sealed.get("under") != self.current.key_id:
            return None
        try:
            signing = AESGCM(self.current.key).decrypt(
                crypto.unb64(sealed.get("nonce"), 12),
                crypto.unb64(sealed.get("sealed")),
                _writer_info(self.sync_id, number, writer),
            )
        except (InvalidTag, SyncRefused, ValueError):
            return None
        return signing.decode("ascii", "replace")

    def _hold(self, body: dict[str, Any], key: bytes) -> set[str]:
        """Keep a generation's key and the earlier keys it carries (files written under
        them open here), without writing with it. Returns the ids it carries."""
        if crypto.key_id(key) != body.get("key"):
            raise SyncRefused("its key is not the one it names")
        previous = body.get("previous") or {}
        try:
            chain = AESGCM(key).decrypt(
                crypto.unb64(previous.get("nonce"), 12),
                crypto.unb64(previous.get("sealed")),
                _CHAIN_INFO + self.sync_id.encode(),
            )
        except InvalidTag:
            raise SyncRefused("its earlier keys do not open") from None
        carried = json.loads(chain)
        for k, v in carried.items():
            self.keys.setdefault(k, bytes.fromhex(v))
        self.keys[crypto.key_id(key)] = key
        return {*carried, crypto.key_id(key)}

    def _take(self, body: dict[str, Any], key: bytes, number: int, writer: str) -> None:
        self.keys_carried = self._hold(body, key)
        removed = set(body.get("removed") or [])
        self.removed |= removed
        self.current = Generation(
            number, writer, key, dict(body.get("members") or {}), removed, body.get("lock")
        )

    # -- joining -----------------------------------------------------------------------

    @classmethod
    def join_with_recovery_code(cls, layout: files.Layout, code: str) -> KeyChain:
        """The keys, opened with the profile's recovery code from the newest key file
        that has a recovery seal."""
        chain = cls(layout.sync_id)
        found = False
        for number, writer, path in reversed(layout.key_files()):
            try:
                body = _read_key_file(path, layout.sync_id, number, writer)
            except SyncRefused:
                continue
            lock = RecoveryLock.from_dict(body.get("lock"))
            seal = (body.get("seals") or {}).get("recovery")
            if lock is None or seal is None:
                continue
            found = True
            try:
                key = lock.open(code, seal)
            except WrongKey:
                continue
            chain._take(body, key, number, writer)
            return chain
        if not found:
            raise SyncError(
                "This synced profile has no recovery code (it is protected by a passphrase): "
                "join with a pairing code shown on a computer that syncs it.",
                reason="sync_no_recovery",
            )
        raise WrongKey(
            "That recovery code does not open this synced profile: check it (each profile has "
            "its own) and try again.",
            reason="wrong_code",
        )

    def offer_pairing(
        self, layout: files.Layout, me: str, signer: crypto.DeviceKeys
    ) -> tuple[str, Path]:
        """A one-time pairing code, and the offer it opens, valid for an hour."""
        code = crypto.new_pairing_code()
        salt = os.urandom(16)
        pair_id = crypto.new_id()
        expires = int(time.time()) + PAIRING_SECONDS
        secret = json.dumps(
            {
                "keys": {k: v.hex() for k, v in self.keys.items()},
                "current": self.current and self.current.key_id,
            }
        ).encode()
        context = f"{self.sync_id}/{pair_id}/{expires}".encode()
        body = {
            "salt": crypto.b64(salt),
            "expires": expires,
            "offer": crypto.pair_seal(crypto.pairing_key(code, salt), secret, context),
            "generation": self.current.number if self.current else 0,
        }
        header = {"kind": "pair", "sync": self.sync_id, "id": pair_id, "writer": me}
        path = layout.root / f"pair-{pair_id}.dmp"
        files.write_plain(path, header, body, signer)
        return code, path

    @classmethod
    def join_with_pairing_code(cls, layout: files.Layout, code: str) -> KeyChain:
        if crypto.normalize_pairing_code(code) is None:
            raise WrongKey(
                f"That is not a pairing code: it has {crypto.PAIR_CHARS} letters and digits in "
                "three groups (like ABCD-EFGH-JKMN). Check it and try again.",
                reason="wrong_code",
            )
        now = time.time()
        offers = 0
        for path in layout.pair_files():
            try:
                raw = files.read_raw(path, layout.sync_id, "pair")
                body = raw.plain()
                expires = int(body["expires"])
                salt = crypto.unb64(body["salt"], 16)
            except (SyncRefused, KeyError, TypeError, ValueError):
                continue
            if expires < now:
                continue
            offers += 1
            context = f"{layout.sync_id}/{raw.header.get('id')}/{expires}".encode()
            secret = crypto.pair_open(
                crypto.pairing_key(code, salt), body.get("offer") or {}, context
            )
            if secret is None:
                continue
            data = json.loads(secret)
            chain = cls(layout.sync_id)
            chain.keys = {k: bytes.fromhex(v) for k, v in data["keys"].items()}
            current = chain.keys.get(data.get("current") or "")
            if current is None:
                raise SyncRefused("the pairing offer is damaged")
            # the generation the offer was made under: read its key file for the members
            for number, writer, kpath in reversed(layout.key_files()):
                try:
                    kbody = _read_key_file(kpath, layout.sync_id, number, writer)
                except SyncRefused:
                    continue
                if kbody.get("key") == crypto.key_id(current):
                    chain._take(kbody, current, number, writer)
                    break
            else:
                raise SyncRefused(
                    "the key file the pairing offer belongs to is not in the folder yet"
                )
            return chain
        if not offers:
            raise SyncError(
                "There is no pairing offer in this folder that is still valid: show a new "
                "pairing code on the computer that syncs the profile (it lasts an hour), wait "
                "for the folder to reach this computer, and try again.",
                reason="sync_no_offer",
            )
        raise WrongKey(
            "That pairing code does not match the offer in this folder: check it, or show a "
            "new one on the other computer.",
            reason="wrong_code",
        )


def _covered(
    apart: tuple[str, dict[str, Any], set[str]], members: set[str], removed: set[str]
) -> bool:
    """Whether a generation with `members` and `removed` holds every removal and member
    of one made apart."""
    _writer, their, gone = apart
    return gone <= removed and set(their) <= members | removed


def _writer_info(sync_id: str, number: int, writer: str) -> bytes:
    return _WRITER_INFO + f" {sync_id} {number} {writer}".encode()


def _read_key_file(path: Path, sync_id: str, number: int, writer: str) -> dict[str, Any]:
    raw = files.read_raw(path, sync_id, "keys")
    if raw.header.get("generation") != number or raw.header.get("writer") != writer:
        raise SyncRefused("it is not what its name says")
    body = raw.plain()
    if body.get("generation") != number or body.get("writer") != writer:
        raise SyncRefused("it is not what its name says")
    return body


def _verify_key_file(path: Path, signing: str) -> None:
    raw = files.read_raw(path, path.parent.parent.name[len(files.PREFIX) :], "keys")
    raw.verify(signing)


def clear_expired_offers(layout: files.Layout, me: str) -> int:
    """Remove this computer's pairing offers that have expired."""
    gone = 0
    now = time.time()
    for path in layout.pair_files():
        try:
            raw = files.read_raw(path, layout.sync_id, "pair")
            if raw.header.get("writer") != me or int(raw.plain().get("expires", 0)) >= now:
                continue
        except (SyncRefused, TypeError, ValueError):
            continue
        if files.remove_file(path):
            gone += 1
    return gone
