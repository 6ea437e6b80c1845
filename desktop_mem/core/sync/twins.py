"""Two computers writing under one identity, found, and settled by making one of them a
new computer that keeps everything both wrote.

A data folder copied to a second machine (a cloned disk, a restored backup, a copied
profile) goes on with the same computer id and keys, and an engine that gets two
versions of one file keeps one of them without a word. Found by a valid file signed
with this computer's key that it did not write (core/sync/own.py: in its own folder, in
keys/, or a version another computer's status says it took in), and settled so:

- The one that finds it first goes on as a new computer: its earlier self (still a
  member, whose key it holds) signs the join that lets the new id in, as a restored
  backup does. Every record it holds stamped under the shared id is stamped under the
  new one, each with its logical clock unchanged (core/sync/capture.py, restamp), and
  sent whole in its first change file: the two copies stamped records with the same
  clocks after they parted, and a record both stamped with one clock would otherwise
  hold two contents under one stamp, each computer keeping whichever came first. The
  new id is chosen above the old one, so the new stamp comes after the other copy's;
  the same clocks keep every order with what other computers wrote. Which records were
  written after the copy cannot be known (the copy carries the same history), so all
  are sent: a version already held under the old id is recognised by its clock and
  content and not kept twice.
- Both may find it before either sees that the other has gone: then the identity they
  shared is no one's, and each of the new ones takes it out of the sync, as a removal
  (its folder would stay for good, with texts deleted since in it).
- The one that finds the other already gone (a join signed with its key, "via key",
  that it did not write) keeps the identity: everything it wrote goes out again in a
  new change file, stamps unchanged (the other copy's files replaced some of its own
  under their names), and a fresh snapshot replaces what the other left under its name.
"""

from __future__ import annotations

import json
import logging
import secrets

from desktop_mem.core.sync import crypto, files, records
from desktop_mem.core.sync.keys import KeyChain
from desktop_mem.core.sync.membership import Join, Member
from desktop_mem.core.sync.outgoing import Outgoing
from desktop_mem.core.sync.own import Ledger
from desktop_mem.core.sync.replica import Replica
from desktop_mem.core.sync.state import SyncState

log = logging.getLogger(__name__)

_ID_SPACE = 1 << 128


def id_above(old: str) -> str:
    """A new random computer id that sorts after `old` (both 32 hex digits)."""
    low = int(old, 16) + 1
    return f"{low + secrets.randbelow(_ID_SPACE - low):032x}"


def split(state: SyncState, outgoing: Outgoing, layout: files.Layout) -> str:
    """This computer goes on as a new computer (its files in the folder are not all its
    own: a copy of it writes there too, or it was restored from a backup). Returns the
    new id."""
    old = state.device
    old_keys = state.device_keys()
    device = id_above(old)
    keys = crypto.DeviceKeys.generate()
    chain = state.chain()
    if chain.current is not None:  # its earlier self, still a member, lets the new one in
        member = Member(keys.public["agreement"], keys.public["signing"])
        join = records.write_join(
            layout, device, member, old, chain.current.digest, "key", None, old_keys
        )
        chain.kept[join.digest] = (records.JOIN, join.signed + join.signature)
    with state.db.transaction() as conn:
        state.set(conn, {"keys": json.dumps(chain.to_dict())})
        # its earlier self is another computer now: what the folder holds of it (the other
        # copy's files, its own from before) is read like any other's
        conn.execute(
            "INSERT OR REPLACE INTO sync_peers(device, name, applied, signing, agreement) "
            "VALUES (?, ?, 0, ?, ?)",
            (old, state.name, old_keys.public["signing"], old_keys.public["agreement"]),
        )
        state.set(
            conn,
            {
                "device": device,
                "device_keys": json.dumps(keys.to_dict()),
                "seq": "0",
                "written": "0",
                "snapshot": "0",
                "status_digest": None,
                "partial": None,
                "split_from": old,  # if the other copy went on as a new one too, see Passes._retire
            },
        )
        replica = Replica(state.profile, device, carried=chain.removed | state.former())
        if replica.restamp(conn, old, 1):
            state.set(conn, {"seq": "1"})
        outgoing.ledger.reset(conn)
    log.info("sync: another computer writes under this computer's identity (a copy of it), "
             "or it was restored from a backup: it goes on as a new computer")  # fmt: skip
    return device


def heirs(chain: KeyChain, old: str, ledger: Ledger) -> set[str]:
    """The computers `old` let in as its own new selves (joins it signed, via key)."""
    return {
        found.device
        for _digest, found in ledger.records(chain)
        if isinstance(found, Join) and found.voucher == old and found.via == "key"
    }


def keep(state: SyncState, outgoing: Outgoing, digests: list[str]) -> None:
    """A copy of this computer went on as a new computer: this one keeps the identity,
    and sends again, whole, what it wrote (some of its files were replaced by the other
    copy's under their names). The other copy's files under its name count once."""
    with state.db.transaction() as conn:
        seq = state.int("seq") + 1
        if state.replica().resend(conn, seq):
            state.set(conn, {"seq": str(seq)})
        outgoing.ledger.handled(conn, digests)
    log.info("sync: a copy of this computer went on as a new computer; what this one wrote "
             "is sent again")  # fmt: skip
