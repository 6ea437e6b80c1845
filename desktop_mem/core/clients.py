"""Other apps that use the memory (MCP clients): who they are, what each may do, and
what each read or wrote. Stored in the encrypted profile like everything else.

A client is known by the name it gives when it connects (the MCP ``clientInfo``). A
client seen for the first time gets the default level chosen in Settings (read only,
unless the user chose otherwise). Levels, in order: ``off`` (paused), ``read``,
``write`` (read and write), ``delete`` (read, write and delete). The access log keeps
which tool touched which memory, and when; never a query or a text.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from desktop_mem.core.errors import DesktopMemError, NotFound
from desktop_mem.core.settings import LEVELS, Settings, check_level

NEEDS = {"read": 1, "write": 2, "delete": 3}  # the level index a kind of tool needs
MAX_NAME = 80
DEFAULT_LEVEL = "read"


class ClientNotAllowed(DesktopMemError):
    """A client asked for something its level does not allow (or it is paused)."""

    reason = "client_not_allowed"


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def clean_name(name: Any) -> str:
    text = " ".join(str(name or "").split())[:MAX_NAME]
    text = "".join(ch for ch in text if ch.isprintable())
    return text or "unnamed app"


@dataclass(frozen=True)
class Client:
    name: str
    level: str
    first_seen: str
    last_seen: str
    reads: int = 0
    writes: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "level": self.level,
            "first_seen": self.first_seen,
            "last_seen": self.last_seen,
            "reads": self.reads,
            "writes": self.writes,
        }


@dataclass(frozen=True)
class Access:
    client: str
    tool: str
    memory_id: int | None
    at: str


class ClientRegistry:
    def __init__(self, db: Any) -> None:
        self.db = db

    def default_level(self) -> str:
        level = Settings(self.db).get("mcp_default_level")
        return level if level in LEVELS else DEFAULT_LEVEL

    def seen(self, name: str) -> Client:
        """Register a client (at the default level) or note that it is back."""
        name = clean_name(name)
        stamp = _now()
        with self.db.transaction() as conn:
            conn.execute(
                "INSERT INTO clients(name, level, first_seen, last_seen) VALUES (?, ?, ?, ?) "
                "ON CONFLICT(name) DO UPDATE SET last_seen = excluded.last_seen",
                (name, self.default_level(), stamp, stamp),
            )
        return self.get(name)

    def get(self, name: str) -> Client:
        rows = self.db.query(
            "SELECT name, level, first_seen, last_seen FROM clients WHERE name = ?",
            (clean_name(name),),
        )
        if not rows:
            raise NotFound(
                f"No app named '{name}' has connected: see `desktop-mem clients list`.",
                reason="client_unknown",
            )
        return Client(*rows[0])

    def all(self) -> list[Client]:
        counts: dict[str, tuple[int, int]] = {}
        for client, reads, writes in self.db.query(
            "SELECT client, sum(tool IN ('search_memories', 'list_memories', "
            "'get_profile_summary')), sum(tool IN ('add_memory', 'delete_memory')) "
            "FROM client_access GROUP BY client"
        ):
            counts[client] = (int(reads or 0), int(writes or 0))
        return [
            Client(r[0], r[1], r[2], r[3], *counts.get(r[0], (0, 0)))
            for r in self.db.query(
                "SELECT name, level, first_seen, last_seen FROM clients ORDER BY last_seen DESC"
            )
        ]

    def set_level(self, name: str, level: str) -> Client:
        check_level(level)
        client = self.get(name)
        with self.db.transaction() as conn:
            conn.execute("UPDATE clients SET level = ? WHERE name = ?", (level, client.name))
        return self.get(client.name)

    def require(self, client: Client, need: str, tool: str, where: str) -> None:
        """Raise ClientNotAllowed, naming where to change it, unless allowed."""
        if LEVELS.index(client.level) >= NEEDS[need]:
            return
        if client.level == "off":
            what = f"'{client.name}' is paused in desktop-mem"
        else:
            what = f"'{client.name}' may only {client.level} memories in desktop-mem"
        raise ClientNotAllowed(
            f"{what}, so {tool} was refused: change it in {where}. Nothing was changed."
        )

    def log(self, client: str, tool: str, memory_ids: list[int] | tuple[int, ...]) -> None:
        stamp = _now()
        rows: list[tuple[str, str, int | None, str]] = [
            (client, tool, mid, stamp) for mid in memory_ids
        ] or [(client, tool, None, stamp)]
        with self.db.transaction() as conn:
            conn.executemany(
                "INSERT INTO client_access(client, tool, memory_id, at) VALUES (?, ?, ?, ?)", rows
            )

    def access_for_memory(self, memory_id: int, limit: int = 50) -> list[Access]:
        return [
            Access(*r)
            for r in self.db.query(
                "SELECT client, tool, memory_id, at FROM client_access WHERE memory_id = ? "
                "ORDER BY at DESC, id DESC LIMIT ?",
                (memory_id, limit),
            )
        ]

    def recent(self, name: str | None = None, limit: int = 100) -> list[Access]:
        where, params = ("WHERE client = ? ", [clean_name(name)]) if name else ("", [])
        return [
            Access(*r)
            for r in self.db.query(
                f"SELECT client, tool, memory_id, at FROM client_access {where}"
                "ORDER BY at DESC, id DESC LIMIT ?",
                (*params, limit),
            )
        ]

    def clear_log(self, name: str) -> int:
        client = self.get(name)
        with self.db.transaction() as conn:
            n = conn.execute("DELETE FROM client_access WHERE client = ?", (client.name,)).rowcount
        self.db.checkpoint()
        return int(n)
