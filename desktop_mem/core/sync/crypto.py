"""The cryptography of the sync folder: what a file is sealed with, who may read a key.

- Every file a computer writes is encrypted with AES-256-GCM under the profile's sync
  key, in chunks of 1 MiB (each chunk's nonce and associated data say which chunk it is
  and whether it is the last, so a file cut short, reordered or extended does not
  open), and signed with the writing computer's Ed25519 key, so another computer that
  holds the sync key cannot write in its name.
- A sync key reaches a computer sealed to it: to its X25519 public key (ephemeral
  X25519, HKDF-SHA256, AES-256-GCM), to the profile's recovery lock (the same seal the
  recovery code opens, core/keys/recovery.py), or under a one-time pairing code
  (scrypt).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import secrets
import struct
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from cryptography.exceptions import InvalidSignature, InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
    PublicFormat,
)

from desktop_mem.core.errors import SyncRefused

CHUNK = 1 << 20  # plaintext bytes per sealed chunk
TAG = 16
SIGNATURE = 64
_SEAL_INFO = b"desktop-mem sync seal v1"
_PAIR_INFO = b"desktop-mem sync pairing v1"
# A pairing code: 60 random bits, for an hour, behind scrypt at 2^17 (about 0.3 s and
# 128 MiB a guess): guessing it offline costs more than the hour it lives.
PAIR_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
PAIR_CHARS = 12
_PAIR_SCRYPT = {"n": 2**17, "r": 8, "p": 1}


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def unb64(text: object, size: int | None = None) -> bytes:
    try:
        raw = base64.b64decode(str(text), validate=True)
    except (ValueError, TypeError):
        raise SyncRefused("a key in the sync folder is damaged") from None
    if size is not None and len(raw) != size:
        raise SyncRefused("a key in the sync folder is damaged")
    return raw


def new_id() -> str:
    """A random identifier (128 bits, hex): a computer, a record, a sync folder."""
    return secrets.token_hex(16)


# -- a computer's keys ----------------------------------------------------------------


@dataclass(frozen=True)
class DeviceKeys:
    """A computer's two key pairs: X25519 (keys are sealed to it) and Ed25519 (it signs
    what it writes). The private halves stay in the profile's encrypted database."""

    agreement: bytes  # X25519 private, raw
    signing: bytes  # Ed25519 private, raw

    @classmethod
    def generate(cls) -> DeviceKeys:
        x = X25519PrivateKey.generate().private_bytes(
            Encoding.Raw, PrivateFormat.Raw, NoEncryption()
        )
        e = Ed25519PrivateKey.generate().private_bytes(
            Encoding.Raw, PrivateFormat.Raw, NoEncryption()
        )
        return cls(x, e)

    def to_dict(self) -> dict[str, str]:
        return {"agreement": b64(self.agreement), "signing": b64(self.signing)}

    @classmethod
    def from_dict(cls, data: dict[str, str]) -> DeviceKeys:
        return cls(unb64(data["agreement"], 32), unb64(data["signing"], 32))

    @property
    def public(self) -> dict[str, str]:
        x = X25519PrivateKey.from_private_bytes(self.agreement).public_key()
        e = Ed25519PrivateKey.from_private_bytes(self.signing).public_key()
        return {
            "agreement": b64(x.public_bytes(Encoding.Raw, PublicFormat.Raw)),
            "signing": b64(e.public_bytes(Encoding.Raw, PublicFormat.Raw)),
        }

    def sign(self, data: bytes) -> bytes:
        return Ed25519PrivateKey.from_private_bytes(self.signing).sign(data)

    def open(self, sealed: object) -> bytes:
        """A secret sealed to this computer (`seal_to` its public agreement key)."""
        eph, nonce, body = _seal_parts(sealed)
        own = X25519PrivateKey.from_private_bytes(self.agreement)
        shared = own.exchange(X25519PublicKey.from_public_bytes(eph))
        mine = own.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        try:
            return AESGCM(_wrap_key(shared, eph, mine)).decrypt(nonce, body, _SEAL_INFO)
        except InvalidTag:
            raise SyncRefused("a key sealed to this computer does not open") from None


def verify(public_signing: str, signature: bytes, data: bytes) -> bool:
    try:
        Ed25519PublicKey.from_public_bytes(unb64(public_signing, 32)).verify(signature, data)
    except (InvalidSignature, ValueError, SyncRefused):
        return False
    return True


def seal_to(public_agreement: str, secret: bytes) -> dict[str, str]:
    """`secret` sealed to an X25519 public key: only its private half opens it."""
    theirs = unb64(public_agreement, 32)
    ephemeral = X25519PrivateKey.generate()
    eph = ephemeral.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    shared = ephemeral.exchange(X25519PublicKey.from_public_bytes(theirs))
    nonce = os.urandom(12)
    body = AESGCM(_wrap_key(shared, eph, theirs)).encrypt(nonce, secret, _SEAL_INFO)
    return {"ephemeral": b64(eph), "nonce": b64(nonce), "sealed": b64(body)}


def _seal_parts(sealed: object) -> tuple[bytes, bytes, bytes]:
    if not isinstance(sealed, dict):
        raise SyncRefused("a sealed key in the sync folder is damaged")
    return (
        unb64(sealed.get("ephemeral"), 32),
        unb64(sealed.get("nonce"), 12),
        unb64(sealed.get("sealed")),
    )


def _wrap_key(shared: bytes, eph: bytes, public: bytes) -> bytes:
    return HKDF(
        algorithm=hashes.SHA256(), length=32, salt=None, info=_SEAL_INFO + eph + public
    ).derive(shared)


# -- pairing codes ----------------------------------------------------------------------


def new_pairing_code() -> str:
    raw = "".join(secrets.choice(PAIR_ALPHABET) for _ in range(PAIR_CHARS))
    return "-".join(raw[i : i + 4] for i in range(0, PAIR_CHARS, 4))


def normalize_pairing_code(code: str) -> str | None:
    cleaned = "".join(ch for ch in code.upper() if ch not in " -\t\n")
    cleaned = cleaned.translate(str.maketrans("OIL", "011"))
    if len(cleaned) != PAIR_CHARS or any(ch not in PAIR_ALPHABET for ch in cleaned):
        return None
    return cleaned


def pairing_key(code: str, salt: bytes) -> bytes:
    normal = normalize_pairing_code(code) or ""
    return hashlib.scrypt(
        normal.encode("ascii"), salt=salt, dklen=32, maxmem=256 * 1024 * 1024, **_PAIR_SCRYPT
    )


def pair_seal(key: bytes, secret: bytes, context: bytes) -> dict[str, str]:
    nonce = os.urandom(12)
    return {
        "nonce": b64(nonce),
        "sealed": b64(AESGCM(key).encrypt(nonce, secret, _PAIR_INFO + context)),
    }


def pair_open(key: bytes, sealed: dict[str, str], context: bytes) -> bytes | None:
    try:
        return AESGCM(key).decrypt(
            unb64(sealed.get("nonce"), 12), unb64(sealed.get("sealed")), _PAIR_INFO + context
        )
    except (InvalidTag, SyncRefused):
        return None


# -- sealed, chunked, signed files -------------------------------------------------------


def key_id(key: bytes) -> str:
    """A short public name for a sync key (which key a file is under), that says nothing
    of the key."""
    return hmac.new(key, b"desktop-mem sync key id", hashlib.sha256).hexdigest()[:16]


def _nonce(prefix: bytes, index: int, last: bool) -> bytes:
    # 7 random bytes for the file, 4 for the chunk's number, 1 for "last chunk"
    return prefix + struct.pack(">IB", index, 1 if last else 0)


def seal_chunks(key: bytes, aad: bytes, plain: Iterable[bytes]) -> Iterator[bytes]:
    """The sealed chunks of a stream: a 7-byte nonce prefix first, then each chunk as
    4-byte length + ciphertext. The last chunk is marked in its nonce, so a file cut
    at a chunk boundary does not pass for whole."""
    prefix = os.urandom(7)
    yield prefix
    box = AESGCM(key)
    buffer = b""
    index = 0
    pending: bytes | None = None

    def emit(data: bytes, last: bool) -> bytes:
        sealed = box.encrypt(_nonce(prefix, index, last), data, aad)
        return struct.pack(">I", len(sealed)) + sealed

    for piece in plain:
        buffer += piece
        while len(buffer) >= CHUNK:
            if pending is not None:
                yield emit(pending, False)
                index += 1
            pending, buffer = buffer[:CHUNK], buffer[CHUNK:]
    if pending is not None:
        if buffer:
            yield emit(pending, False)
            index += 1
            yield emit(buffer, True)
        else:
            yield emit(pending, True)
    else:
        yield emit(buffer, True)


def chunks_whole(data: bytes) -> bool:
    """Whether `data` (what seal_chunks wrote, then a signature) is as long as its own
    chunk lengths say: False for a file an engine has not finished delivering."""
    end = len(data) - SIGNATURE
    pos = 7
    while pos < end:
        if pos + 4 > end:
            return False
        (size,) = struct.unpack(">I", data[pos : pos + 4])
        pos += 4 + size
        if not TAG <= size <= CHUNK + TAG or (pos < end and size != CHUNK + TAG):
            # not what seal_chunks writes (every chunk but the last is whole): no delivery
            # under way, and a planted file of tiny chunks is not walked a million times
            return True
    return pos == end and end >= 7 + 4 + TAG


def open_chunks(key: bytes, aad: bytes, data: bytes) -> Iterator[bytes]:
    """The plaintext chunks of `data` (what seal_chunks wrote); SyncRefused when any
    chunk does not open, is out of place, or the last one is missing."""
    if len(data) < 7:
        raise SyncRefused("it is cut short")
    prefix, pos, index = data[:7], 7, 0
    box = AESGCM(key)
    while True:
        if pos + 4 > len(data):
            raise SyncRefused("it is cut short")
        (size,) = struct.unpack(">I", data[pos : pos + 4])
        pos += 4
        if size < TAG or pos + size > len(data):
            raise SyncRefused("it is cut short")
        body = data[pos : pos + size]
        pos += size
        last = pos == len(data)
        try:
            yield box.decrypt(_nonce(prefix, index, last), body, aad)
        except InvalidTag:
            raise SyncRefused("it does not open with the sync key (changed or damaged)") from None
        if last:
            return
        index += 1


__all__ = [
    "CHUNK",
    "SIGNATURE",
    "DeviceKeys",
    "b64",
    "chunks_whole",
    "key_id",
    "new_id",
    "new_pairing_code",
    "normalize_pairing_code",
    "open_chunks",
    "pair_open",
    "pair_seal",
    "pairing_key",
    "seal_chunks",
    "seal_to",
    "unb64",
    "verify",
]
