"""A computer writes nothing while the others write with a key it was not given.

What a computer writes is sealed with the key of the generation it takes as current.
When a removal's key file is kept from it (taken out of the folder by anyone who can
write there, or late through the engine), it goes on writing with a key the removed
computer holds. A computer joining with the recovery code is in the same place: it
trusts what the folder holds, so someone who can write there can take a removal's key
file out just before the join (its writer puts it back at its next pass) and offer a
key file the removed computer wrote instead, or plant a start of their own (the
recovery lock is public).

But the computers that took the removal in write their status with the new key. So:

- at every pass, a computer writes nothing (no change file, snapshot or status) while
  the status of a member, signed by it, is sealed with a key this computer does not
  hold, and says why; the key file that gives it is on its way, and with it the
  removal;
- joining with the recovery code is refused while any computer's status in the folder
  is sealed with a key the code did not open (the folder shows a history they do not
  share), with one sentence that says what to do.

Anyone who can write the folder can keep a computer from joining with the recovery code
so (a status planted under a made-up computer's name): a denial of service, said, with
the pairing code as the way in. A member's status cannot be planted: it is checked
against the member's signing key."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from desktop_mem.core.errors import SyncError, SyncRefused
from desktop_mem.core.sync import files
from desktop_mem.core.sync.keys import KeyChain
from desktop_mem.core.sync.own import mark_of

WAITING = (
    "The other computers in this sync write with a key this computer has not been given "
    "yet: it writes nothing until that key reaches it through the folder (at their next "
    "sync)."
)

AMBIGUOUS = (
    "The computers in this sync folder write with a key your recovery code did not open: "
    "the folder is still arriving, or someone changed it. Try again in a few minutes, or "
    "join with a pairing code shown on one of your computers."
)

# the key a status is sealed with, by its path and mark (a status that has not changed
# is not read again at every pass)
_KEYS: dict[Path, tuple[object, str | None]] = {}


def _sealed_with(path: Path, sync_id: str, signing: str | None) -> str | None:
    """The key id a status is sealed with; None when it is not a status that opens as
    one (damaged, refused, not signed by `signing` when given)."""
    mark = mark_of(path)
    cached = _KEYS.get(path)
    if cached is not None and mark is not None and cached[0] == (mark, signing):
        return cached[1]
    key: str | None = None
    # read as bytes, apart from the pass's reading (which says once what it refuses and
    # quarantines it): a FIFO, a link or a file over the cap is no status here
    data = files.read_bytes(path, "status")
    if data is not None:
        try:
            raw = files.parse_raw(data, path, sync_id, "status")
            if signing is not None:
                raw.verify(signing)
            key = str(raw.header.get("key"))
        except SyncRefused:
            key = None
    if mark is not None:
        if len(_KEYS) > 1024:
            _KEYS.clear()
        _KEYS[path] = ((mark, signing), key)
    return key


def _unknown(layout: files.Layout, chain: KeyChain, devices: Iterable[str], signed: bool) -> bool:
    members = chain.members
    for device in devices:
        path = layout.device(device) / files.STATUS
        if not files.present(path):
            continue
        signing = members[device].signing if signed and device in members else None
        if signed and signing is None:
            continue
        key = _sealed_with(path, layout.sync_id, signing)
        if key is not None and key not in chain.keys:
            return True
    return False


def held_back(layout: files.Layout, chain: KeyChain, me: str) -> bool:
    """Whether this computer must write nothing now: a member's status, signed by it, is
    sealed with a key this computer does not hold."""
    return _unknown(layout, chain, [d for d in chain.members if d != me], signed=True)


def check_join(layout: files.Layout, chain: KeyChain) -> None:
    """Before joining with the recovery code: every computer's status in the folder must
    open with the keys the code opened."""
    if _unknown(layout, chain, layout.devices(), signed=False):
        raise SyncError(AMBIGUOUS, reason="sync_ambiguous")


__all__ = ["AMBIGUOUS", "WAITING", "check_join", "held_back"]
