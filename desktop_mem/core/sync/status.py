"""What the window and `sync status` show of a synced profile: the other computers and
what each has read, the memories edited on two computers at once, what merges dropped,
and the figures of the status line (with the user's "seen" and "dismiss" on them)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from desktop_mem.core.events import SyncChanged
from desktop_mem.core.jsontypes import JSONObject
from desktop_mem.core.sync import lost
from desktop_mem.core.sync.keys import KeyChain
from desktop_mem.core.sync.lost import Lost
from desktop_mem.core.sync.reading import Reading
from desktop_mem.core.sync.state import Peer, SyncState

if TYPE_CHECKING:
    from desktop_mem.core.sync.incoming import Incoming
    from desktop_mem.core.sync.outgoing import Outgoing


class Status:
    """The synced profile as the window and `sync status` show it (read when asked: a
    pass never waits on it)."""

    def __init__(self, state: SyncState, outgoing: Outgoing, incoming: Incoming) -> None:
        self.state = state
        self.profile = state.profile
        self.db = state.db
        self.outgoing = outgoing
        self.incoming = incoming

    def peers(self) -> list[Peer]:
        """The other computers: what this one has read of each, and what each has taken
        in of this one's files (as its status says)."""
        me = self.state.device
        written = self.state.int("written")
        out = []
        for device, name, applied, status, seen_at, removed in self.db.query(
            "SELECT device, name, applied, status, seen_at, removed FROM sync_peers ORDER BY name, device"
        ):
            data = json.loads(status) if status else {}
            received = _int_of(data.get("applied"), me)
            at = data.get("applied_at")
            stuck = data.get("stuck")
            on = stuck.get(me) if isinstance(stuck, dict) and self.state.enabled else None
            peer = Peer(
                device,
                name or device[:8],
                int(applied),
                seen_at,
                data.get("written_at"),
                bool(removed),
                int(data.get("seq") or 0) > int(applied),
                received,
                str(at[me]) if isinstance(at, dict) and at.get(me) else None,
                stuck=str(on["file"]) if isinstance(on, dict) and on.get("file") else None,
            )  # fmt: skip
            if received < written and not removed:
                peer.missing, peer.missing_since = self.outgoing.unreceived(received, written)
            out.append(peer)
        return out

    def conflicts(self, unseen_only: bool = False) -> list[tuple[int, str, str]]:
        """Memories edited on two computers at once: (memory id, the other computer's
        name, when)."""
        sql = (
            "SELECT m.id, coalesce(p.name, c.device), c.at FROM sync_conflicts c "
            "JOIN memories m ON m.uid = c.uid LEFT JOIN sync_peers p ON p.device = c.device"
        )
        if unseen_only:
            sql += " WHERE c.seen = 0"
        return [
            (int(r[0]), str(r[1]), str(r[2])) for r in self.db.query(sql + " ORDER BY c.at DESC")
        ]

    def edited_on_both(self, memory_id: int) -> bool:
        """Whether this memory was edited on two computers at once (seen or not)."""
        return bool(
            self.db.query(
                "SELECT 1 FROM sync_conflicts c JOIN memories m ON m.uid = c.uid WHERE m.id = ?",
                (memory_id,),
            )
        )

    def mark_conflicts_seen(self, memory_ids: Iterable[int] | None = None) -> int:
        """The user has looked: at the list of them (every one), or at these memories.
        How many were not seen before (announced: the window's line clears)."""
        ids = None if memory_ids is None else sorted({int(i) for i in memory_ids})
        where = "c.seen = 0"
        if ids is not None:
            if not ids:
                return 0
            where += f" AND m.id IN ({','.join('?' * len(ids))})"
        sql = f"SELECT c.uid FROM sync_conflicts c JOIN memories m ON m.uid = c.uid WHERE {where}"
        uids = [r[0] for r in self.db.query(sql, ids or ())]
        if not uids:  # the usual case, read only: nothing written
            return 0
        with self.db.transaction() as conn:
            conn.executemany(
                "UPDATE sync_conflicts SET seen = 1 WHERE uid = ?", [(u,) for u in uids]
            )
        self.profile.events.emit(SyncChanged("conflicts_seen"))
        return len(uids)

    def lost(self) -> list[Lost]:
        """What merges dropped and the user has not dismissed (sync/lost.py)."""
        return lost.listed(self.db)

    def dismiss_lost(self, ids: Iterable[int] | None = None) -> int:
        """The user is done with these (every one with None): purged from every page of
        the file. How many."""
        with self.db.transaction() as conn:
            n = lost.purge(conn, None if ids is None else list(ids))
        if n:
            self.db.checkpoint()  # the zeroed pages over the old ones, in the file itself
            self.profile.events.emit(SyncChanged("lost"))
        return n

    def _lost_groups(self) -> list[JSONObject]:
        """What merges dropped, by way and computer (`sync lost` lists the texts)."""
        names = self.origin_names()
        return [
            {"kind": kind, "device": device, "computer": names.get(device, device[:8]),
             "count": n}
            for kind, device, n in lost.groups(self.lost())
        ]  # fmt: skip

    def origin_names(self) -> dict[str, str]:
        """Each computer's name, by id (this one's too)."""
        return origin_names(self.state)

    def info(self, error: str | None) -> dict[str, Any]:
        """The status line's figures; `error`: what the last pass here said went wrong."""
        if not self.state.enabled:
            return {"enabled": False, "lost": self._lost_groups()}
        layout = self.state.layout()
        return {
            "enabled": True,
            "folder": str(self.state.folder),
            "root": str(layout.root),  # the profile's own folder in it (the window watches it)
            "device": self.state.device,
            "name": self.state.name,
            "since": self.state.get("since"),
            "last_pass": self.state.get("last_pass"),
            "pending": self.state.replica().pending(),
            "sent_files": self.state.int("written"),
            "generation": _generation(self.state.chain()),
            "computers": [p.to_dict() for p in self.peers()],
            "conflicts": len(self.conflicts(unseen_only=True)),
            "lost": self._lost_groups(),
            "folder_bytes": layout.size(),
            # files in the folder the last pass ignored or refused for what they are
            "ignored": self.state.int("ignored"),
            "error": error,
            "removed": self.state.removed_here,
            "waiting_for": self._waiting_for(),
            # where this computer cannot go on with another's files (said once at the
            # pass that found it; here until a fresh copy arrives)
            "stuck": [
                {"device": d, "name": self.incoming.peer_name(d), **at}
                for d, at in Reading(self.state).stuck_at().items()
            ],
        }

    def _waiting_for(self) -> dict[str, str] | None:
        """The computer this one waits to be let in by (it joined with a pairing code
        shown there), or None."""
        pending = self.state.chain().pending
        if pending is None:
            return None
        name = self.origin_names().get(pending.inviter) or pending.inviter[:8]
        return {"device": pending.inviter, "name": name}


def origin_names(state: SyncState) -> dict[str, str]:
    """Each computer's name, by id (this one's too)."""
    names = {r[0]: r[1] or r[0][:8] for r in state.db.query("SELECT device, name FROM sync_peers")}
    if state.enabled:
        names[state.device] = state.name
    return names


def _int_of(mapping: object, key: str) -> int:
    """A number a status holds for a key (0 when it holds none, or not a number)."""
    try:
        return int(mapping.get(key) or 0) if isinstance(mapping, dict) else 0
    except (TypeError, ValueError):
        return 0


def _generation(chain: KeyChain) -> int:
    current = chain.current
    return current.number if current is not None else 0
