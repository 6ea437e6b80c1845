"""The seal of a backup's header: an HMAC-SHA256 over every header field, with a key
derived from the database key. The header is outside the encrypted database and not
covered by its checksum, so without a seal a changed field (a removed recovery block, an
edited profile name) would go unnoticed; with it, only who can open the backup can make
a header the restore accepts."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from pathlib import Path

from desktop_mem.core.errors import DatabaseCorrupt
from desktop_mem.core.jsontypes import JSONObject
from desktop_mem.core.keys.vault import Key

SEAL_INFO = b"desktop-mem backup header seal v2"
PBKDF2_ROUNDS = 256_000  # SQLCipher's own for a passphrase


def _seal_key(key: Key, salt: bytes) -> bytes:
    """The key that seals a backup's header, derived from the database key: only who can
    open the backup can make a header it accepts. A passphrase goes through PBKDF2 at
    SQLCipher's own cost, so the seal is no cheaper a way to guess it than the file."""
    if key.mode == "passphrase":
        return hashlib.pbkdf2_hmac("sha256", key.secret.encode("utf-8"), salt, PBKDF2_ROUNDS)
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.kdf.hkdf import HKDF

    return HKDF(algorithm=hashes.SHA256(), length=32, salt=salt, info=SEAL_INFO).derive(
        bytes.fromhex(key.secret)
    )


def seal(header: JSONObject, key: Key) -> str:
    """HMAC-SHA256 of every other header field, in a canonical form."""
    body = {k: v for k, v in header.items() if k != "seal"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    try:
        salt = base64.b64decode(str(header.get("seal_salt", "")), validate=True)
    except ValueError:
        salt = b""
    return hmac.new(_seal_key(key, salt), text.encode("ascii"), hashlib.sha256).hexdigest()


def check_seal(header: JSONObject, key: Key, path: Path) -> None:
    """Refuse a backup whose header was changed after it was made (a field removed,
    added or altered); a header from before seals (version 1, exactly: True and 1.0
    are not it) has none to check, and restores only as what it is (core/db/backup.py
    takes no recovery record from it unless the code proves one)."""
    version = header.get("version")
    if type(version) is int and version == 1:
        return
    given = header.get("seal")
    if not isinstance(given, str) or not hmac.compare_digest(given, seal(header, key)):
        raise DatabaseCorrupt(
            f"The backup {path} was altered after it was made (its header does not match its "
            "seal): it cannot be restored; use another backup."
        )


def is_sealed(header: JSONObject, key: Key) -> bool:
    """Whether a header carries a seal made with this key (a backup of this profile, as
    this profile made it; never one from before seals, which anyone could have written)."""
    version = header.get("version")
    given = header.get("seal")
    if type(version) is not int or version < 2 or not isinstance(given, str):
        return False
    return hmac.compare_digest(given, seal(header, key))
