"""How far this computer got in reading each other computer's files, beyond the number
of the last one applied: what it applied, by digest, and where it is stuck.

Kept in the profile's meta (`sync.reading`): the files it applied that are still in the
folder, with their digests (one whose content changes afterwards is read again:
applying is an idempotent merge; an engine may have put an older version of a snapshot
there first, one without a deletion made since, and two computers under one identity
may have put two versions under one name), the last snapshot and change file it applied
(its status says so, and the writer checks them), and the file it is stuck at: since
when, why, and whether that was said.

A file that does not open yet is waited for a while (an engine may still be delivering
it: cut short, growing, not arrived) while its size and time change; one that stays
broken makes this computer *stuck* at it. It says so once, in one sentence, and in its
status, so that the writer writes a fresh snapshot to jump to."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from desktop_mem.core.db.connection import Connection
from desktop_mem.core.sync.own import Mark

if TYPE_CHECKING:
    from desktop_mem.core.sync.state import SyncState

# how long a file that does not open yet (cut short, not arrived) is waited for, while
# its size and time stay the same, before this computer says it is stuck at it
PATIENCE_S = 600.0


def _iso(epoch: float) -> str:
    return datetime.fromtimestamp(epoch, UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


@dataclass
class Blocked:
    """The next file of a computer that this one cannot apply."""

    name: str
    why: str  # the reason, one clause ("it is cut short")
    arriving: bool  # it may still be on its way (cut short, unreadable, not there yet)
    mark: Mark | None  # its size and time, or None when it is not there


class Reading:
    """The `sync.reading` key: {computer: {"applied": {name: [digest, mark]},
    "last": [[name, digest], ...], "blocked": {...}}}."""

    def __init__(self, state: SyncState) -> None:
        self.state = state
        self._data: dict[str, Any] | None = None

    def _load(self) -> dict[str, Any]:
        if self._data is None:
            raw = self.state.get("reading")
            data = json.loads(raw) if raw else {}
            self._data = data if isinstance(data, dict) else {}
        return self._data

    def of(self, device: str) -> dict[str, Any]:
        peer = self._load().setdefault(device, {})
        peer.setdefault("applied", {})
        peer.setdefault("last", [])
        return peer

    def save(self, conn: Connection) -> None:
        self.state.set(conn, {"reading": json.dumps(self._load(), separators=(",", ":"))})

    def reload(self) -> None:
        self._data = None

    def drop(self, device: str) -> None:
        self._load().pop(device, None)

    # -- what was applied --------------------------------------------------------------

    def applied(self, device: str, kind: str, name: str, digest: str, mark: Mark | None) -> None:
        peer = self.of(device)
        if kind == "snapshot":
            # the files it covers are compacted away by their writer
            number = _number(name)
            peer["applied"] = {n: v for n, v in peer["applied"].items() if _number(n) > number}
        peer["applied"][name] = [digest, mark]
        last = [x for x in peer["last"] if x[0][0] != name[0]]
        peer["last"] = sorted([*last, [name, digest[:16]]])

    def gone(self, device: str, names: list[str]) -> None:
        applied = self.of(device)["applied"]
        for name in names:
            applied.pop(name, None)

    def last(self) -> dict[str, list[list[str]]]:
        """What the status says it took in of each computer: its last snapshot and change
        file, by name and digest."""
        return {d: p["last"] for d, p in sorted(self._load().items()) if p.get("last")}

    # -- where it cannot go on -------------------------------------------------------

    def wait(
        self, device: str, blocked: Blocked, slot: str = "blocked", now: float | None = None
    ) -> bool:
        """Whether to go on waiting for `blocked` (it may still arrive, and has not stayed
        as it is for PATIENCE_S). `slot`: "blocked" for its files, "status" for its
        status."""
        now = time.time() if now is None else now
        peer = self.of(device)
        held = peer.get(slot)
        if not held or held.get("name") != blocked.name or held.get("mark") != blocked.mark:
            # the first time, or it changed (still growing): the wait starts again
            held = {"name": blocked.name, "first": now, "mark": blocked.mark, "said": False}
            peer[slot] = held
        held["why"] = blocked.why
        return blocked.arriving and now - float(held["first"]) < PATIENCE_S

    def stuck(self, device: str) -> dict[str, Any] | None:
        held = self.of(device).get("blocked")
        return held if held and held.get("stuck") else None

    def mark_stuck(self, device: str, slot: str = "blocked") -> bool:
        """This computer is stuck at the blocked file: True the first time (to be said)."""
        held = self.of(device).setdefault(slot, {})
        held["stuck"] = True
        first = not held.get("said")
        held["said"] = True
        return first

    def clear(self, device: str, slot: str = "blocked") -> None:
        self.of(device).pop(slot, None)

    def stuck_at(self) -> dict[str, dict[str, str]]:
        """For the status: where this computer is stuck, at whose file, since when."""
        out = {}
        for device, peer in sorted(self._load().items()):
            held = peer.get("blocked")
            if held and held.get("stuck"):
                out[device] = {"file": str(held["name"]), "since": _iso(float(held["first"]))}
        return out


def _number(name: str) -> int:
    try:
        return int(name[2:12])
    except ValueError:
        return 0
