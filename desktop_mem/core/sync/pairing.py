"""Letting another computer in: with a one-time pairing code shown on a member (the
first computer that asks with it is let in by a join record that member signs, and the
offer leaves the folder), or with the profile's recovery code (its holder signs the
join with the recovery authority, whose private half only that code opens).

A pairing offer seals, under the code (scrypt), every key the member holds and the
records it has taken: the joining computer trusts what the code opened, not what the
folder holds beside it. The code has 60 random bits and lives an hour; scrypt at 2^17
makes each guess cost about 0.3 s and 128 MiB (benchmarks/sync.py measures it)."""

from __future__ import annotations

import base64
import contextlib
import hmac
import json
import os
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from desktop_mem.core.errors import DatabaseCorrupt, SyncError, SyncRefused, WrongKey
from desktop_mem.core.keys.recovery import RecoveryLock
from desktop_mem.core.sync import crypto, files, frame, records
from desktop_mem.core.sync.keys import Current, KeyChain, Offer, Pending
from desktop_mem.core.sync.membership import RECOVERY, Anchor, Generation, Member, Membership
from desktop_mem.core.sync.quarantine import Quarantine

PAIRING_SECONDS = 3600
OFFER_KEPT_S = 86400  # an offer used or expired is remembered this long (a late request)


def offer_path(layout: files.Layout, pair_id: str) -> Path:
    return layout.root / f"pair-{pair_id}.dmp"


def offer(chain: KeyChain, layout: files.Layout, me: str, signer: crypto.DeviceKeys) -> str:
    """A one-time pairing code, and its offer in the folder, for an hour. The chain must
    have been refreshed (it holds the key to write with)."""
    if chain.current is None:
        raise SyncError(
            "This computer has not been given the newest sync key yet, so it cannot let "
            "another computer in: show the pairing code on another of your computers, or "
            "try again after the next sync.",
            reason="sync_no_key",
        )
    code = crypto.new_pairing_code()
    salt = os.urandom(16)
    pair_id = crypto.new_id()
    now = int(time.time())
    expires = now + PAIRING_SECONDS
    anchor = chain.anchor or Anchor(frozenset())
    # the key files it vouches for: those whose writers were not removed, and what it
    # trusts itself. The others it carries too, to be checked there as everywhere: a
    # removed computer's key file, trusted, would vouch there for an id the thief made
    # up, whose own key file would then be taken there and refused everywhere else
    lawful = chain.membership.lawful if chain.membership is not None else set(chain.kept)
    vouched = sorted(d for d in chain.kept if d in lawful or d in anchor.trusted)
    secret = json.dumps(
        {
            "keys": {k: v.hex() for k, v in chain.keys.items()},
            "write": chain.current.digest,
            "inviter": me,
            "records": {
                d: [kind, base64.b64encode(data).decode()]
                for d, (kind, data) in sorted(chain.kept.items())
            },
            "members": {d: m.to_dict() for d, m in sorted(anchor.members.items())},
            # what its maker trusts without records (a sync from 0.4): the removals the
            # records make are in the records, and the joining computer reads them the
            # same way (the rules must run alike on every computer)
            "removed": sorted(anchor.removed),
            "vouched": vouched,
            "offered_at": now,
        }
    ).encode()
    key = crypto.pairing_key(code, salt)
    context = f"{layout.sync_id}/{pair_id}/{expires}".encode()
    body = {
        "salt": crypto.b64(salt),
        "expires": expires,
        "offer": crypto.pair_seal(key, secret, context),
        "inviter": me,
    }
    header = {"kind": "pair", "sync": layout.sync_id, "id": pair_id, "writer": me}
    frame.write_plain(offer_path(layout, pair_id), header, body, signer)
    chain.offers[pair_id] = Offer(key, now, expires, chain.current.digest)
    return code


@dataclass
class Admitted:
    """A computer let in with a pairing code this computer showed."""

    device: str
    offered_at: int


def admit(
    chain: KeyChain,
    layout: files.Layout,
    me: str,
    signer: crypto.DeviceKeys,
    signing: records.Signing | None = None,
) -> tuple[list[Admitted], list[str]]:
    """Let in the first computer that asked with each of this computer's pairing codes
    (a join record signed here), and take the offer out of the folder: a code lets one
    computer in. What else asked with a used or wrong code, in one sentence each.
    `signing`: what keeps each join as this computer's before it takes its name (a pass
    killed before the chain is kept still knows it signed it: not a copy of it at
    work)."""
    admitted: list[Admitted] = []
    noted: list[str] = []
    if not chain.offers:
        return admitted, noted
    members = chain.members
    now = time.time()
    asked = []
    for device, path in layout.request_files():
        if device in members or device in chain.removed:
            continue
        try:
            asked.append(records.read_request(path, layout.sync_id, device))
        except SyncRefused:
            continue
    # the first to ask, as each says (only a computer holding the code can ask at all)
    for req in sorted(asked, key=lambda r: (r.made, r.device)):
        device = req.device
        made = chain.offers.get(req.offer)
        if made is None or made.used_by == device:
            continue  # another computer's offer, or let in already
        shown = time.strftime("%H:%M", time.localtime(made.made))
        if made.used_by is not None or made.expires < now:
            note = (
                f"A computer asked to join with the pairing code shown here at {shown}, which "
                f"had {'already been used' if made.used_by else 'expired'}: it was not let in."
            )
            if note not in noted:
                noted.append(note)
            continue
        want = records.request_proof(made.key, layout.sync_id, req.offer, device, req.member)
        if not hmac.compare_digest(req.proof, want):
            continue  # not made with the code: nothing to say to a stranger
        join = records.write_join(
            layout, device, req.member, me, made.generation, "pair", made.made, signer,
            req.offer, req.former, None if signing is None else signing(files.join_name(device)),
        )  # fmt: skip
        chain.wrote(join.digest)
        made.used_by = device
        files.remove_file(offer_path(layout, req.offer))
        admitted.append(Admitted(device, made.made))
    return admitted, noted


def clear_offers(chain: KeyChain, layout: files.Layout, me: str) -> None:
    """This computer's offers that expired leave the folder; those long gone, the profile."""
    now = time.time()
    for pair_id, made in list(chain.offers.items()):
        if made.expires < now or made.used_by is not None:
            files.remove_file(offer_path(layout, pair_id))
        if made.expires + OFFER_KEPT_S < now:
            del chain.offers[pair_id]
    # offers of this computer from before it kept them (0.4): expired ones go
    for path in layout.pair_files():
        with contextlib.suppress(SyncRefused, TypeError, ValueError, OSError):
            raw = frame.read_raw(path, layout.sync_id, "pair")
            if raw.header.get("writer") == me and int(raw.plain().get("expires", 0)) < now:
                files.remove_file(path)


# -- joining -------------------------------------------------------------------------


def join_with_pairing_code(layout: files.Layout, code: str) -> KeyChain:
    """The keys and records an offer in the folder carries, opened with its code. The
    computer then asks to be let in (`ask`); it is in once the member that showed the
    code signs its join, at that member's next pass."""
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
            raw = frame.read_raw(path, layout.sync_id, "pair")
            body = raw.plain()
            expires = int(body["expires"])
            salt = crypto.unb64(body["salt"], 16)
        except (SyncRefused, KeyError, TypeError, ValueError):
            continue
        if expires < now:
            continue
        offers += 1
        key = crypto.pairing_key(code, salt)
        context = f"{layout.sync_id}/{raw.header.get('id')}/{expires}".encode()
        secret = crypto.pair_open(key, body.get("offer") or {}, context)
        if secret is None:
            continue
        return _from_offer(layout, raw, secret, key, expires)
    if not offers:
        raise SyncError(
            "There is no pairing offer in this folder that is still valid: show a new "
            "pairing code on the computer that syncs the profile (it lasts an hour and "
            "lets one computer in), wait for the folder to reach this computer, and try "
            "again.",
            reason="sync_no_offer",
        )
    raise WrongKey(
        "That pairing code does not match the offer in this folder: check it, or show a "
        "new one on the other computer.",
        reason="wrong_code",
    )


def _from_offer(
    layout: files.Layout, raw: frame.Raw, secret: bytes, key: bytes, expires: int
) -> KeyChain:
    try:
        data = json.loads(secret)
        chain = KeyChain(layout.sync_id)
        chain.keys = {str(k): bytes.fromhex(v) for k, v in data["keys"].items()}
        chain.kept = {
            str(d): (str(kind), base64.b64decode(b)) for d, (kind, b) in data["records"].items()
        }
        inviter, write = str(data["inviter"]), str(data["write"])
        offered_at = int(data["offered_at"])
        members = {str(d): records.member_of(m) for d, m in data.get("members", {}).items()}
        removed = frozenset(str(d) for d in data.get("removed", []))
        vouched = data.get("vouched")  # None: an offer from before it was said
        vouched = None if vouched is None else {str(d) for d in vouched}
    except (KeyError, TypeError, ValueError, AttributeError, SyncRefused):
        raise SyncRefused(
            "the pairing offer was made by an older version of desktop-mem: update it on "
            "the computer that showed the code, and show a new one"
        ) from None
    trusted = frozenset(
        d
        for d, (kind, _b) in chain.kept.items()
        if kind == records.GENERATION and (vouched is None or d in vouched)
    )
    # a removal the records carried here say themselves counts from the generation that
    # made it; as part of the anchor it would count everywhere, before it too: a
    # generation written before it, by a computer the removed one had let in, would be
    # refused here and taken everywhere else (and what builds on it wait here for good)
    said: set[str] = set()
    for d in trusted:
        with contextlib.suppress(SyncRefused):
            said |= records.key_file(
                frame.parse_raw(chain.kept[d][1], raw.path, layout.sync_id, records.GENERATION)
            ).record.removed
    chain.anchor = Anchor(trusted, members, removed - said)
    m, _refused = chain.evaluate(layout)
    shown_by = m.members.get(inviter)
    if shown_by is None or write not in m.generations:
        raise SyncError(
            "The pairing code was shown on a computer that is no longer in this sync: show a "
            "new one on a computer that is.",
            reason="sync_removed",
        )
    raw.verify(shown_by.signing)  # the offer is the inviter's own
    g = m.generations[write]
    if g.key_id not in chain.keys:
        raise SyncRefused("the pairing offer is damaged")
    chain.current = Current(
        g.number, g.writer, chain.keys[g.key_id],
        {d: k.to_dict() for d, k in g.members.items()}, set(g.removed),
        chain.bodies.get(write, {}).get("lock"), write,
    )  # fmt: skip
    chain.removed = set(m.removed)
    chain.pending = Pending(str(raw.header.get("id")), inviter, offered_at, expires, key)
    return chain


def ask(
    chain: KeyChain,
    layout: files.Layout,
    me: str,
    keys: crypto.DeviceKeys,
    former: Iterable[str] = (),
) -> None:
    """This computer, holding a pairing offer's keys, asks to be let in: a request,
    signed with its own key, that proves it holds the code (and, joining again, names
    the ids it had: the join that lets it in says so)."""
    p = chain.pending
    if p is None:
        return
    member = Member(keys.public["agreement"], keys.public["signing"])
    proof = records.request_proof(p.key, layout.sync_id, p.offer, me, member)
    records.write_request(
        layout, me, member, p.offer, proof, time.time_ns() // 1_000_000, keys, former
    )


def _starts(
    layout: files.Layout,
    kept: Mapping[str, tuple[str, bytes]] | None = None,
    recovered_from: str | None = None,
) -> list[records.KeyFile]:
    """Where this sync's history starts, for a computer that trusts nothing but the
    recovery code: its first generation; in a sync set up by 0.4 (whose key files do not
    name what they build on, nor a recovery authority), the first generations an updated
    computer wrote on top of them. More than one start that the code opens is refused.

    With the key files a computer joining again `kept`: its start may be damaged or
    taken out of the folder (anyone can), and a planted one left beside it. Not one it
    knew only from joining with the recovery code alone (`recovered_from`): that one
    may be the planted start, and gone from the folder since."""
    read: list[records.KeyFile] = []
    for number, writer, path in layout.key_files():
        with contextlib.suppress(SyncRefused):
            read.append(records.read_key_file(path, layout.sync_id, number, writer))
    seen = {kf.record.digest for kf in read}
    for digest, (kind, data) in sorted((kept or {}).items()):
        if kind != records.GENERATION or digest in seen or digest == recovered_from:
            continue
        with contextlib.suppress(SyncRefused):
            found = records.from_kept(kind, data, layout.sync_id)
            if isinstance(found, records.KeyFile) and found.record.digest == digest:
                read.append(found)
    old = {kf.record.digest for kf in read if kf.record.parents is None}
    if any(kf.record.number == 1 and kf.record.parents is None for kf in read):
        return [
            kf for kf in read
            if kf.record.parents and all(p in old for p in kf.record.parents)
        ]  # fmt: skip
    return [kf for kf in read if kf.record.number == 1]


CONTESTED = (
    "The sync folder now holds a second start of this synced profile that the recovery "
    "code opens: someone who can write the folder planted one, and this computer, which "
    "joined with the recovery code, cannot tell which is yours. It writes nothing to the "
    "folder while both are there. To go on now, join again with a pairing code shown on "
    "one of your other computers (`desktop-mem sync join FOLDER --code CODE`); it keeps "
    "what it holds."
)


def contested(layout: files.Layout, chain: KeyChain) -> bool:
    """Whether this computer, which joined with the recovery code alone, sees another
    start beside the one it joined. It trusted the start the folder showed: when the
    real one had been damaged or taken out and one of a thief's planted (the recovery
    lock is public, so anyone can make a start the code opens), it joined the thief's
    sync. The real one comes back at the next pass of a computer in it (each writes back
    the records it keeps); from then on the folder holds two starts, and this computer
    stops (it writes nothing, so the thief reads nothing more of it) until one is gone
    or it joins again with a pairing code. A computer that knew its start takes the
    planted one out (`clear_planted`), so one that joined the real sync this way goes
    on at its next pass."""
    if chain.recovered_from is None:
        return False
    # read before the pass reads the key files, which says what it refuses: a scratch
    # quarantine, so that nothing refused here passes for said
    with files.guarded(Quarantine()):
        return any(d != chain.recovered_from for d, _path in _new_starts(layout))


def clear_planted(layout: files.Layout, chain: KeyChain) -> list[str]:
    """Starts of this synced profile that this computer, which knows its own (it was
    there, or joined with a pairing code, or joined again holding the records it knew),
    did not take: someone who can write the folder planted them for the recovery code.
    Taken out of the folder, each said in one sentence. Never by a computer that
    joined with the recovery code alone, nor in a sync that 0.4 started (whose first key
    files do not say they are a start)."""
    m = chain.membership
    if chain.recovered_from is not None or m is None:
        return []
    if not any(g.number == 1 and g.parents == () for g in m.generations.values()):
        return []
    said = []
    for digest, path in _new_starts(layout):
        if digest not in m.generations and files.remove_file(path):
            said.append(
                f"{path.name}: a second start of this synced profile, planted by someone "
                "who can write the folder, was taken out of it"
            )
    return said


def _new_starts(layout: files.Layout) -> list[tuple[str, Path]]:
    """The first key files in the folder that read as a start (not 0.4's, which do not
    say so): each one's digest and place."""
    out = []
    for number, writer, path in layout.key_files():
        if number != 1:
            continue
        try:
            found = records.read_key_file(path, layout.sync_id, number, writer)
        except SyncRefused:
            continue
        if found.record.parents == ():
            out.append((found.record.digest, path))
    return out


def _fallback(m: Membership, chain: KeyChain, former: frozenset[str]) -> Generation | None:
    """A generation to join with when none is to be written with: one the recovery
    authority lets in with now, sealed to the recovery code, that does not remove this
    computer's former selves; the newest such (a head first)."""
    heads = {g.digest for g in m.heads}

    def sealed(g: Generation) -> bool:
        seals = chain.bodies.get(g.digest, {}).get("seals")
        return isinstance(seals, dict) and "recovery" in seals

    usable = [
        g for g in m.generations.values()
        if g.authority is not None and g.authority == m.authority and sealed(g)
        and not (g.removed & former)
    ]  # fmt: skip
    usable.sort(key=lambda g: (g.digest in heads, g.number, g.writer, g.digest))
    return usable[-1] if usable else None


def _fits(lock: object, code: str) -> bool:
    """Whether the recovery code is the one of this lock (a start's)."""
    try:
        found = RecoveryLock.from_dict(lock)
    except DatabaseCorrupt:
        return False
    return found is not None and found.fits(code)


def _from_0_4(layout: files.Layout) -> bool:
    """Whether the sync's first key file is one 0.4 wrote (no parents)."""
    for number, writer, path in layout.key_files():
        if number == 1:
            with contextlib.suppress(SyncRefused):
                if records.read_key_file(path, layout.sync_id, 1, writer).record.parents is None:
                    return True
    return False


class _AuthoritySigner:
    def __init__(self, private: bytes) -> None:
        self._key = Ed25519PrivateKey.from_private_bytes(private)

    def sign(self, data: bytes) -> bytes:
        return self._key.sign(data)

    @property
    def public(self) -> str:
        return crypto.b64(self._key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw))


def join_with_recovery_code(
    layout: files.Layout,
    code: str,
    former: Iterable[str] = (),
    kept: Mapping[str, tuple[str, bytes]] | None = None,
    recovered_from: str | None = None,
) -> KeyChain:
    """The keys, opened with the profile's recovery code from the generation the rules
    say to write with, starting from this sync's first generation (a second one, or a
    second synced profile the code opens, means someone planted one: refused), and
    the recovery authority's private half, to sign this computer's join.

    When there is none to write with (a removed computer took every other one out along
    with itself, so every key was given to a computer removed since), the join names
    the newest generation that did not take out this computer's `former` selves (its
    ids before: the side of the history it trusts), or the newest one the recovery
    authority still lets in with; this computer then writes the next generation, with a
    new key, at its first pass.

    A computer joining again passes the records it `kept` (by digest): they are read
    with the folder's (whoever can write the folder can take a record out of it, such
    as the removal of the thief), and of two starts, the one it knew is its own (someone
    planted the other); unless it knew that start only from joining with the recovery
    code alone (`recovered_from`), which the chain then says still."""
    found: list[KeyChain] = []
    no_lock = True
    wrong: Exception | None = None
    starts = _starts(layout, kept, recovered_from)
    if not starts and _from_0_4(layout):
        raise SyncError(
            "This synced profile was set up by an older version of desktop-mem and no "
            "computer has synced it with this version yet: join with a pairing code shown "
            "on one of its computers (or update one and let it sync first).",
            reason="sync_no_recovery",
        )
    if not starts:
        raise SyncError(
            "This sync folder does not hold the first key file of its synced profile, where "
            "the recovery code starts (not delivered by the engine yet, or taken out): wait "
            "for the engine, or join with a pairing code shown on a computer that syncs it.",
            reason="sync_not_found",
        )
    mine = [r for r in starts if r.record.digest in (kept or {})]
    for root in mine or starts:
        chain = KeyChain(layout.sync_id)
        chain.anchor = Anchor(frozenset({root.record.digest}))
        chain.kept.update(kept or {})
        chain.kept[root.record.digest] = (records.GENERATION, root.data)
        m, _refused = chain.evaluate(layout)
        g = m.write or _fallback(m, chain, frozenset(former))
        body = chain.bodies.get(g.digest, {}) if g is not None else {}
        try:  # the lock comes from the folder: checked like everything there
            lock = RecoveryLock.from_dict(body.get("lock"))
        except DatabaseCorrupt:
            continue
        seals = body.get("seals")
        seal = seals.get("recovery") if isinstance(seals, dict) else None
        authority = body.get("authority")
        if g is None or lock is None or seal is None:
            continue
        no_lock = False
        if not isinstance(authority, dict) or m.authority != g.authority:
            wrong = SyncError(
                "This synced profile was set up by an older version of desktop-mem and no "
                "computer has synced it with this version yet: join with a pairing code shown "
                "on one of its computers (or update one and let it sync first).",
                reason="sync_no_recovery",
            )
            continue
        try:
            key = lock.open(code, seal)
            private = lock.open(code, authority.get("sealed"))
        except WrongKey as exc:
            wrong = exc
            continue
        except DatabaseCorrupt:
            continue
        signer = _AuthoritySigner(private)
        if signer.public != g.authority:
            continue
        chain.hold(body, key)
        chain.current = Current(
            g.number, g.writer, key, {d: k.to_dict() for d, k in g.members.items()},
            set(g.removed), body.get("lock"), g.digest,
        )  # fmt: skip
        chain.removed = set(m.removed)
        chain.authority_key = private
        alone = not mine or root.record.digest == recovered_from
        chain.recovered_from = root.record.digest if alone else None
        found.append(chain)
    if len(found) == 1:
        return found[0]
    if len(found) > 1:
        raise SyncError(
            "This sync folder holds more than one start of this synced profile that your "
            "recovery code opens: one of them was planted by someone else. Join with a "
            "pairing code shown on one of your computers instead.",
            reason="sync_ambiguous",
        )
    if any(_fits(start.body.get("lock"), code) for start in starts):
        # the code is this sync's, but the key file it would join with does not let it
        # in: one written by a computer removed since (whose removal this copy of the
        # folder lacks, or lacked), or damaged. Saying the code is wrong would be untrue
        raise SyncError(
            "Your recovery code is right, but the newest key file in this sync folder does "
            "not let it in (damaged, or written by a computer removed since): join with a "
            "pairing code shown on one of your computers, or try again once they have "
            "synced.",
            reason="sync_recovery_blocked",
        )
    if no_lock:
        raise SyncError(
            "This synced profile has no recovery code (it is protected by a passphrase): "
            "join with a pairing code shown on a computer that syncs it.",
            reason="sync_no_recovery",
        )
    if isinstance(wrong, SyncError):
        raise wrong
    raise WrongKey(
        "That recovery code does not open this synced profile: check it (each profile has "
        "its own) and try again.",
        reason="wrong_code",
    )


def let_in_with_recovery(
    chain: KeyChain,
    layout: files.Layout,
    me: str,
    keys: crypto.DeviceKeys,
    former: Iterable[str] = (),
) -> None:
    """This computer's join, signed with the recovery authority the code opened."""
    private = chain.authority_key
    if private is None or chain.current is None:
        return
    member = Member(keys.public["agreement"], keys.public["signing"])
    join = records.write_join(
        layout, me, member, RECOVERY, chain.current.digest, "recovery", None,
        _AuthoritySigner(private), None, former,
    )  # fmt: skip
    chain.kept[join.digest] = (records.JOIN, join.signed + join.signature)
    chain.authority_key = None  # used once, never kept


__all__ = [
    "PAIRING_SECONDS",
    "Admitted",
    "admit",
    "ask",
    "clear_offers",
    "join_with_pairing_code",
    "join_with_recovery_code",
    "let_in_with_recovery",
    "offer",
]
