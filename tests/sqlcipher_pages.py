"""Decrypt every page of a SQLCipher 4 database file and its WAL, free pages included.

`sqlcipher_export` copies only live rows, so it cannot show that deleted text is gone
from free pages, old WAL frames or FTS segments. This reads the raw pages instead,
with SQLCipher 4's defaults: 4096-byte pages, AES-256-CBC, a 16-byte IV and a
64-byte HMAC-SHA512 reserved at the end of each page, and the 16-byte salt at the
start of the file (page 1's first 16 bytes are not encrypted).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

PAGE = 4096
RESERVE = 16 + 64
WAL_HEADER = 32
FRAME_HEADER = 24


def _key(secret_hex: str | None, passphrase: str | None, salt: bytes) -> bytes:
    if secret_hex:
        return bytes.fromhex(secret_hex)
    assert passphrase is not None
    return hashlib.pbkdf2_hmac("sha512", passphrase.encode(), salt, 256_000, 32)


def _decrypt_page(key: bytes, page: bytes, pgno: int) -> bytes:
    offset = 16 if pgno == 1 else 0
    iv = page[PAGE - RESERVE : PAGE - RESERVE + 16]
    body = page[offset : PAGE - RESERVE]
    dec = Cipher(algorithms.AES(key), modes.CBC(iv)).decryptor()
    return dec.update(body) + dec.finalize()


def decrypted_pages(
    db_path: Path, secret_hex: str | None = None, passphrase: str | None = None
) -> list[bytes]:
    """Every page of the main file and every frame of the WAL, decrypted."""
    raw = Path(db_path).read_bytes()
    salt = raw[:16]
    key = _key(secret_hex, passphrase, salt)
    pages = []
    for n in range(len(raw) // PAGE):
        pages.append(_decrypt_page(key, raw[n * PAGE : (n + 1) * PAGE], n + 1))
    wal = Path(str(db_path) + "-wal")
    if wal.exists():
        data = wal.read_bytes()
        pos = WAL_HEADER
        while pos + FRAME_HEADER + PAGE <= len(data):
            pgno = int.from_bytes(data[pos : pos + 4], "big")
            frame = data[pos + FRAME_HEADER : pos + FRAME_HEADER + PAGE]
            if pgno:
                pages.append(_decrypt_page(key, frame, pgno))
            pos += FRAME_HEADER + PAGE
    return pages


def header_ok(first_page: bytes) -> bool:
    """Decrypted page 1, from byte 16 of the file: the page size field must read 4096."""
    return first_page[:2] == PAGE.to_bytes(2, "big")
