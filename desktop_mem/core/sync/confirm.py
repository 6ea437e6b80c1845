"""Joining with the recovery code is refused while the computers in write with a key
the code did not open.

Joining with the recovery code trusts what the folder holds: the sync's first key file,
and every key file after it by the rules (core/sync/membership.py). Someone who can
write the folder can take a removal's key file out just before the join (its writer
puts it back at its next pass) and offer a key file the removed computer wrote instead;
the computer joining would then write with a key the removed computer holds. But the
computers that took the removal in write their status with the new key: so joining is
refused while the status of a computer the records name as in, signed by it, is sealed
with a key the code did not open, with one sentence that says what to do.

Only members' statuses count, checked against their signing keys: a removed computer
can make ids of its own and write statuses under them, and would otherwise keep everyone
out when the recovery code is the only way back in. What this does not catch: a start
planted in the folder with the real one damaged (the recovery lock is public), whose
records name only computers of the planter's making; the real computers' statuses are
then no member's. The pairing code is the way in that trusts nothing the folder shows."""

from __future__ import annotations

from pathlib import Path

from desktop_mem.core.errors import SyncError, SyncRefused
from desktop_mem.core.sync import files
from desktop_mem.core.sync.keys import KeyChain

AMBIGUOUS = (
    "The computers in this sync folder write with a key your recovery code did not open: "
    "the folder is still arriving, or someone changed it. Try again in a few minutes, or "
    "join with a pairing code shown on one of your computers."
)


def _sealed_with(path: Path, sync_id: str, signing: str) -> str | None:
    """The key id a member's status is sealed with; None when it is not a status signed
    by it (damaged, refused, a link or a FIFO, over the cap)."""
    # read as bytes, apart from a pass's reading (which says once what it refuses)
    data = files.read_bytes(path, "status")
    if data is None:
        return None
    try:
        raw = files.parse_raw(data, path, sync_id, "status")
        raw.verify(signing)
    except SyncRefused:
        return None
    return str(raw.header.get("key"))


def check_join(layout: files.Layout, chain: KeyChain) -> None:
    """Before joining with the recovery code: the status of every computer the records
    the code opened name as in, signed by it, must open with the keys the code opened."""
    for device, member in chain.members.items():
        path = layout.device(device) / files.STATUS
        if not files.present(path):
            continue
        key = _sealed_with(path, layout.sync_id, member.signing)
        if key is not None and key not in chain.keys:
            raise SyncError(AMBIGUOUS, reason="sync_ambiguous")


__all__ = ["AMBIGUOUS", "check_join"]
