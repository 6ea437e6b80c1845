"""The recovery code: what opens a keyring profile, and its backups, when the keyring is
lost (a reinstalled system, a reset keychain, a new computer).

The code is 120 random bits written as 24 letters and digits (Crockford's base32: no
I, L, O or U to misread) in six groups. It is shown once, when it is made, and never
stored. What is stored is a *lock* (a salt and an X25519 public key derived from the
code by scrypt) and, for each database key, that key *sealed* to the public key
(ephemeral X25519, HKDF-SHA256, AES-256-GCM). Sealing needs only the public half, so
a key rotation seals the new key without asking for the code, and every backup carries
its own sealed key: the one code opens the profile and every backup made since.

Nothing here is secret: the lock and the sealed keys sit in ``profile.json`` and in
each backup's header. Opening one needs the code.
"""

from __future__ import annotations

import base64
import hashlib
import os
import secrets
from dataclasses import dataclass

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from desktop_mem.core.config import RECOVERY_ENV
from desktop_mem.core.errors import DatabaseCorrupt, UsageError, WrongKey
from desktop_mem.core.jsontypes import JSONObject

__all__ = [
    "RECOVERY_ENV",
    "RecoveryLock",
    "holds",
    "new_code",
    "normalize",
    "protect",
    "provable",
    "reseal",
    "unseal",
    "well_formed",
]

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford's base32
CODE_CHARS = 24  # 120 bits
GROUP = 4
_INFO = b"desktop-mem recovery seal v1"
# The ephemeral key of a seal is derived from the sealed key itself, so whoever holds the
# database key can check that a record opens it (see holds) without the code.
_EPHEMERAL_INFO = b"desktop-mem recovery ephemeral v1"
# scrypt: the code already has 120 bits, so this only has to be more than free.
_SCRYPT = {"n": 2**14, "r": 8, "p": 1}


def new_code() -> str:
    """A fresh recovery code, formatted for a person to copy: ABCD-EFGH-…"""
    raw = "".join(secrets.choice(ALPHABET) for _ in range(CODE_CHARS))
    return format_code(raw)


def format_code(raw: str) -> str:
    return "-".join(raw[i : i + GROUP] for i in range(0, len(raw), GROUP))


def normalize(code: str) -> str:
    """The code as typed (any case, spaces or dashes, O for 0, I or L for 1) in its
    canonical form; a UsageError for anything that cannot be one."""
    cleaned = "".join(ch for ch in code.upper() if ch not in " -\t\n")
    cleaned = cleaned.translate(str.maketrans("OIL", "011"))
    if len(cleaned) != CODE_CHARS or any(ch not in ALPHABET for ch in cleaned):
        raise UsageError(
            f"That is not a recovery code: it has {CODE_CHARS} letters and digits in "
            f"{CODE_CHARS // GROUP} groups (like ABCD-EFGH-…). Check it and try again."
        )
    return cleaned


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _unb64(text: object, what: str) -> bytes:
    try:
        return base64.b64decode(str(text), validate=True)
    except (ValueError, TypeError):
        raise DatabaseCorrupt(f"The recovery data ({what}) is damaged.") from None


def _private(code: str, salt: bytes) -> X25519PrivateKey:
    seed = hashlib.scrypt(
        normalize(code).encode("ascii"), salt=salt, dklen=32, maxmem=64 * 1024 * 1024, **_SCRYPT
    )
    return X25519PrivateKey.from_private_bytes(seed)


def _public_bytes(key: X25519PublicKey) -> bytes:
    return key.public_bytes(Encoding.Raw, PublicFormat.Raw)


@dataclass(frozen=True)
class RecoveryLock:
    """The public half of a recovery code: seals keys, cannot open them."""

    salt: bytes
    public: bytes

    @classmethod
    def create(cls) -> tuple[str, RecoveryLock]:
        code = new_code()
        salt = os.urandom(16)
        public = _public_bytes(_private(code, salt).public_key())
        return code, cls(salt, public)

    def to_dict(self) -> JSONObject:
        return {"version": 1, "salt": _b64(self.salt), "public": _b64(self.public)}

    @classmethod
    def from_dict(cls, data: object) -> RecoveryLock | None:
        # exactly the integer 1: True and 1.0 compare equal to it in Python
        if not isinstance(data, dict) or type(data.get("version")) is not int:
            return None
        if data["version"] != 1:
            return None
        salt, public = _unb64(data.get("salt"), "salt"), _unb64(data.get("public"), "key")
        if len(salt) != 16 or len(public) != 32:
            raise DatabaseCorrupt("The recovery data (lock) is damaged.")
        return cls(salt, public)

    def fits(self, code: str) -> bool:
        """Whether this code is the one the lock was made from."""
        return secrets.compare_digest(
            _public_bytes(_private(code, self.salt).public_key()), self.public
        )

    def _ephemeral(self, secret: bytes, nonce: bytes) -> X25519PrivateKey:
        seed = HKDF(
            algorithm=hashes.SHA256(),
            length=32,
            salt=nonce,
            info=_EPHEMERAL_INFO + self.salt + self.public,
        ).derive(secret)
        return X25519PrivateKey.from_private_bytes(seed)

    def seal(self, secret: bytes) -> JSONObject:
        nonce = os.urandom(12)
        ephemeral = self._ephemeral(secret, nonce)
        eph_public = _public_bytes(ephemeral.public_key())
        shared = ephemeral.exchange(X25519PublicKey.from_public_bytes(self.public))
        box = AESGCM(_wrapping_key(shared, eph_public, self.public))
        return {
            "ephemeral": _b64(eph_public),
            "nonce": _b64(nonce),
            "sealed": _b64(box.encrypt(nonce, secret, _INFO)),
            "derived": True,  # its ephemeral key comes from the secret: see holds
        }

    def holds(self, secret: bytes, sealed: object) -> bool:
        """Whether `sealed` is this lock's seal of `secret`: its ephemeral key is the one
        the secret derives, and the box opens with it to the secret. Needs the secret,
        not the code; a seal made without the secret (by someone who only saw a header)
        cannot pass, and neither can one made before seals were derived (0.3)."""
        try:
            eph_public, nonce, body = _parts(sealed)
            ephemeral = self._ephemeral(secret, nonce)
            if not secrets.compare_digest(_public_bytes(ephemeral.public_key()), eph_public):
                return False
            shared = ephemeral.exchange(X25519PublicKey.from_public_bytes(self.public))
            box = AESGCM(_wrapping_key(shared, eph_public, self.public))
            return secrets.compare_digest(box.decrypt(nonce, body, _INFO), secret)
        except (DatabaseCorrupt, InvalidTag, ValueError):
            return False

    def open(self, code: str, sealed: object) -> bytes:
        """The secret sealed to this lock; WrongKey when the code is not this lock's."""
        if not isinstance(sealed, dict):
            raise DatabaseCorrupt("The recovery data (sealed key) is damaged.")
        if not self.fits(code):
            raise WrongKey(
                "That recovery code does not belong to this profile or backup: check it "
                "(each profile has its own) and try again. Nothing was changed.",
                reason="wrong_code",
            )
        eph_public, nonce, body = _parts(sealed)
        try:
            shared = _private(code, self.salt).exchange(
                X25519PublicKey.from_public_bytes(eph_public)
            )
            box = AESGCM(_wrapping_key(shared, eph_public, self.public))
            return box.decrypt(nonce, body, _INFO)
        except (InvalidTag, ValueError):
            raise DatabaseCorrupt(
                "The sealed key in the recovery data is damaged: the code is right but the "
                "key it protects cannot be read."
            ) from None


def _parts(sealed: object) -> tuple[bytes, bytes, bytes]:
    """A sealed key's ephemeral public key, nonce and box, each of its right length."""
    if not isinstance(sealed, dict):
        raise DatabaseCorrupt("The recovery data (sealed key) is damaged.")
    eph_public = _unb64(sealed.get("ephemeral"), "ephemeral key")
    nonce = _unb64(sealed.get("nonce"), "nonce")
    body = _unb64(sealed.get("sealed"), "sealed key")
    if len(eph_public) != 32 or len(nonce) != 12 or len(body) != 32 + 16:
        raise DatabaseCorrupt("The recovery data (sealed key) is damaged.")
    return eph_public, nonce, body


def _wrapping_key(shared: bytes, eph_public: bytes, public: bytes) -> bytes:
    return HKDF(
        algorithm=hashes.SHA256(), length=32, salt=None, info=_INFO + eph_public + public
    ).derive(shared)


# -- what the sidecar and the backups store ------------------------------------------


def protect(secret_hex: str) -> tuple[str, JSONObject]:
    """A new recovery code for a raw database key, and the record to store beside it."""
    code, lock = RecoveryLock.create()
    return code, {**lock.to_dict(), "sealed_key": lock.seal(bytes.fromhex(secret_hex))}


def reseal(record: object, secret_hex: str) -> JSONObject | None:
    """The record for a new key under the same code (a key rotation); None without one."""
    lock = RecoveryLock.from_dict(record)
    if lock is None:
        return None
    return {**lock.to_dict(), "sealed_key": lock.seal(bytes.fromhex(secret_hex))}


def well_formed(record: object) -> bool:
    """Whether a record has every part a recovery record has, each of its right size
    (what can be checked without the code or the key)."""
    try:
        lock = RecoveryLock.from_dict(record)
        if lock is None or not isinstance(record, dict):  # a lock is read from a dict only
            return False
        _parts(record.get("sealed_key"))
    except DatabaseCorrupt:
        return False
    return True


def provable(record: object) -> bool:
    """Whether the record's seal is derived from the key it holds, so holds() can prove
    it (records sealed before that, in 0.3, cannot be checked without the code)."""
    sealed = record.get("sealed_key") if isinstance(record, dict) else None
    return isinstance(sealed, dict) and sealed.get("derived") is True


def holds(record: object, secret_hex: str) -> bool:
    """Whether a record opens to this database key with its code: proved with the key
    itself (a record sealed since seals are derived from the key)."""
    try:
        lock = RecoveryLock.from_dict(record)
    except DatabaseCorrupt:
        return False
    return (
        lock is not None
        and isinstance(record, dict)  # a lock is read from a dict only
        and lock.holds(bytes.fromhex(secret_hex), record.get("sealed_key"))
    )


def unseal(record: object, code: str) -> str:
    """The raw database key (hex) a record holds, opened with the recovery code."""
    lock = RecoveryLock.from_dict(record)
    if lock is None or not isinstance(record, dict):  # a lock is read from a dict only
        raise WrongKey(
            "There is no recovery code for this profile or backup (it was made before "
            "recovery codes existed, or is protected by a passphrase): nothing was changed."
        )
    secret = lock.open(code, record.get("sealed_key"))
    if len(secret) != 32:
        raise DatabaseCorrupt("The recovery data (sealed key) is damaged.")
    return secret.hex()
