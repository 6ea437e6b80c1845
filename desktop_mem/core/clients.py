"""Other apps that use the memory (MCP clients): which are registered, what each may do,
and what each read or wrote. Stored in the encrypted profile like everything else.

An app is known by a credential, not by a name. Connecting an app (Settings > Apps,
`desktop-mem clients add NAME`) registers it and gives it a key, which its MCP
configuration carries in its environment (``DESKTOP_MEM_APP_KEY``); the profile keeps
only the key's SHA-256. The name the app sends when it connects (the MCP
``clientInfo``) is a label, shown beside the registration and never trusted. A client
without a key is *unregistered*: it may do what the user chose for unregistered apps
(read, the default, or nothing). A client whose key is not (or no longer) valid may do
nothing: a removed or renewed app stays shut out until it is given its new key.

Levels, in order: ``off`` (paused), ``read``, ``write`` (read and write), ``delete``
(read, write and delete). The access log keeps which tool touched which memory, and
when; never a query or a text. It is bounded: an app using one tool on one memory on
one day is one row that counts the times (a refusal the same), rows older than
RETENTION_DAYS go, and at most MAX_LOG_ROWS stay. A deleted memory's earlier reads stay
in it. Who a row is for is the registration, never the name a client gave itself.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from desktop_mem.core.errors import DesktopMemError, NotFound, UsageError
from desktop_mem.core.events import AppsChanged, Change, Events
from desktop_mem.core.jsontypes import JSONObject
from desktop_mem.core.protocols import Rows
from desktop_mem.core.settings import LEVELS, Settings, check_level, setting

NEEDS = {"read": 1, "write": 2, "delete": 3}  # the level index a kind of tool needs
MAX_NAME = 80
MAX_LABEL = 80
APP_KEY_ENV = "DESKTOP_MEM_APP_KEY"
KEY_PREFIX = "dmk_"
UNREGISTERED_LEVELS = ("off", "read")  # what a client without a key may be allowed
RETENTION_DAYS = 90  # the access log keeps this long
MAX_LOG_ROWS = 100_000  # and at most this many rows (the oldest go first)
PRUNE_EVERY = 500  # log calls between two prunings in one process
# who a row of the log is for, when it is no registered app (never a name it gave)
NO_KEY = "no key"
INVALID_KEY = "invalid key"
READ_TOOLS = ("search_memories", "list_memories", "get_profile_summary")
WRITE_TOOLS = ("add_memory", "delete_memory")


class ClientNotAllowed(DesktopMemError):
    """A client asked for something its level does not allow (or it is paused)."""

    reason = "client_not_allowed"


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def clean_name(name: Any, limit: int = MAX_NAME) -> str:
    """One line of printable text (whitespace folded, control characters dropped)."""
    text = " ".join(str(name or "").split())
    text = "".join(ch for ch in text if ch.isprintable() and not 0xD800 <= ord(ch) <= 0xDFFF)
    return text[:limit]


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8", "replace")).hexdigest()


def new_key() -> str:
    """A fresh app key: 256 random bits, with a prefix that says what it is."""
    return KEY_PREFIX + secrets.token_urlsafe(32)


@dataclass(frozen=True)
class App:
    """A registered app."""

    id: int
    name: str
    level: str
    created_at: str
    last_seen: str | None
    label: str  # the name the app gave when it last connected (clientInfo): a label
    has_key: bool  # False: registered before apps had keys; it needs one to be known
    reads: int = 0
    writes: int = 0

    def to_dict(self) -> JSONObject:
        return {
            "id": self.id,
            "name": self.name,
            "level": self.level,
            "created_at": self.created_at,
            "last_seen": self.last_seen,
            "label": self.label,
            "has_key": self.has_key,
            "reads": self.reads,
            "writes": self.writes,
        }


@dataclass(frozen=True)
class Caller:
    """Who is calling the MCP server: a registered app, or an unregistered client (or
    one whose key is not valid), with the label it gave."""

    app: App | None
    label: str
    bad_key: bool = False
    key_hash: str | None = None  # the hash of the key it authenticated with

    @property
    def name(self) -> str:
        if self.app is not None:
            return self.app.name
        return "an app with a key that is not valid" if self.bad_key else "an app without a key"


@dataclass(frozen=True)
class Access:
    client: str  # the app's name, or "an app without a key" / "…with a key that is not valid"
    tool: str
    memory_id: int | None
    at: str  # the last time
    times: int = 1  # that day
    caller: str = "app"  # "app" (client is its name), NO_KEY or INVALID_KEY


_APP_COLUMNS = "id, name, level, created_at, last_seen, label, key_hash IS NOT NULL"
SHARED_KEY = 0  # the shared space, in app_spaces (a space is its id)


UNREGISTERED_SPACES: frozenset[int | None] = frozenset({None})  # no key: the shared space


def _app(row: Any, counts: tuple[int, int] = (0, 0)) -> App:
    return App(
        int(row[0]), row[1], row[2], row[3], row[4], row[5], bool(row[6]), counts[0], counts[1]
    )


class ClientRegistry:
    """The one place that writes the apps and their log: each committed change is
    announced (AppsChanged), so the Apps page follows it instead of refreshing."""

    def __init__(self, db: Rows, events: Events) -> None:
        self.db = db
        self.events = events
        self._logged = 0  # log calls since this registry last pruned the log

    def _changed(self, change: Change, *ids: int) -> None:
        self.events.emit(AppsChanged(change, ids))

    # -- registrations ---------------------------------------------------------------

    def add(self, name: str, level: str = "read") -> tuple[App, str]:
        """Register an app; returns it and its key (shown once: only its hash is kept)."""
        check_level(level)
        clean = clean_name(name)
        if not clean:
            raise UsageError("An app needs a name (such as Claude Desktop): give one.")
        if self._find(clean) is not None:
            raise UsageError(
                f"An app named '{clean}' is already registered: choose another name, or give "
                "it a new key instead."
            )
        key = new_key()
        with self.db.transaction() as conn:
            cur = conn.execute(
                "INSERT INTO apps(name, level, key_hash, created_at, label) VALUES (?, ?, ?, ?, '')",
                (clean, level, key_hash(key), _now()),
            )
            # the shared space, until the user chooses
            conn.execute(
                "INSERT INTO app_spaces(app_id, space_key) VALUES (?, ?)",
                (cur.lastrowid, SHARED_KEY),
            )
        app = self.get(clean)
        self._changed("added", app.id)
        return app, key

    def renew(self, name: str) -> tuple[App, str]:
        """A new key for an app: the old one stops working at once."""
        app = self.get(name)
        key = new_key()
        with self.db.transaction() as conn:
            conn.execute("UPDATE apps SET key_hash = ? WHERE id = ?", (key_hash(key), app.id))
        self._changed("changed", app.id)
        return self.get(app.name), key

    def remove(self, name: str) -> App:
        """Forget an app: its key stops working and its log goes with it."""
        app = self.get(name)
        with self.db.transaction() as conn:
            conn.execute("DELETE FROM client_access WHERE app_id = ?", (app.id,))
            conn.execute("DELETE FROM apps WHERE id = ?", (app.id,))
        self._changed("removed", app.id)
        self.db.checkpoint()
        return app

    def _find(self, name: str) -> App | None:
        rows = self.db.query(
            f"SELECT {_APP_COLUMNS} FROM apps WHERE name = ? COLLATE NOCASE", (clean_name(name),)
        )
        return _app(rows[0]) if rows else None

    def get(self, name: str) -> App:
        app = self._find(name)
        if app is None:
            raise NotFound(
                f"No app named '{clean_name(name)}' is registered: see the list of apps.",
                reason="client_unknown",
            )
        return app

    def by_id(self, app_id: int) -> App | None:
        rows = self.db.query(f"SELECT {_APP_COLUMNS} FROM apps WHERE id = ?", (app_id,))
        return _app(rows[0]) if rows else None

    def all(self) -> list[App]:
        counts = self._counts("app_id IS NOT NULL GROUP BY app_id", "app_id")
        return [
            _app(r, counts.get(r[0], (0, 0)))
            for r in self.db.query(
                f"SELECT {_APP_COLUMNS} FROM apps ORDER BY last_seen IS NULL, last_seen DESC, id"
            )
        ]

    def _counts(self, where: str, group: str) -> dict[Any, tuple[int, int]]:
        reads = ",".join(f"'{t}'" for t in READ_TOOLS)
        writes = ",".join(f"'{t}'" for t in WRITE_TOOLS)
        out: dict[Any, tuple[int, int]] = {}
        for key, r, w in self.db.query(
            f"SELECT {group}, sum(times * (tool IN ({reads}))), "
            f"sum(times * (tool IN ({writes}))) FROM client_access WHERE {where}"
        ):
            out[key] = (int(r or 0), int(w or 0))
        return out

    def unregistered_counts(self) -> tuple[int, int]:
        found = self._counts("app_id IS NULL GROUP BY 1", "1")
        return found.get(1, (0, 0))

    def spaces_of(self, caller: Caller | App | None) -> frozenset[int | None]:
        """The spaces an app may use (None: the shared space), as its level allows: read,
        write or delete there and nowhere else. An app without a key (or with one that
        is not valid) the shared space."""
        app = caller.app if isinstance(caller, Caller) else caller
        if app is None:
            return UNREGISTERED_SPACES
        return frozenset(
            None if key == SHARED_KEY else int(key)
            for (key,) in self.db.query(
                "SELECT space_key FROM app_spaces WHERE app_id = ?", (app.id,)
            )
        )

    def set_spaces(self, name: str, spaces: set[int | None]) -> App:
        """Give an app these spaces (None: the shared space), and only these. A space
        that is not one of the profile's is refused (NotFound)."""
        app = self.get(name)
        with self.db.transaction() as conn:
            for space in spaces:
                if (
                    space is not None
                    and not conn.execute("SELECT 1 FROM spaces WHERE id = ?", (space,)).fetchone()
                ):
                    raise NotFound(f"There is no space #{space}.", reason="space_not_found")
            conn.execute("DELETE FROM app_spaces WHERE app_id = ?", (app.id,))
            conn.executemany(
                "INSERT INTO app_spaces(app_id, space_key) VALUES (?, ?)",
                [(app.id, SHARED_KEY if s is None else s) for s in spaces],
            )
        self._changed("changed", app.id)
        return app

    def set_level(self, name: str, level: str) -> App:
        check_level(level)
        app = self.get(name)
        with self.db.transaction() as conn:
            conn.execute("UPDATE apps SET level = ? WHERE id = ?", (level, app.id))
        self._changed("changed", app.id)
        return self.get(app.name)

    def unregistered_level(self) -> str:
        level = setting(self.db, "mcp_unregistered_level")
        return level if level in UNREGISTERED_LEVELS else "read"

    def set_unregistered_level(self, level: str) -> str:
        Settings(self.db, self.events).set("mcp_unregistered_level", level)
        self._changed("changed")
        return self.unregistered_level()

    # -- who is calling ----------------------------------------------------------------

    def authenticate(self, key: str | None, label: Any = "") -> Caller:
        """The caller a key names (None or "": an unregistered client). A key is compared
        by its hash, in constant time."""
        label = clean_name(label, MAX_LABEL)
        if not key:
            return Caller(None, label)
        # the key exactly as given: " dmk_…" is another key, not this one with spaces
        wanted = key_hash(key)
        for app_id, stored in self.db.query(
            "SELECT id, key_hash FROM apps WHERE key_hash = ?", (wanted,)
        ):
            if hmac.compare_digest(str(stored), wanted):
                app = self.by_id(int(app_id))
                if app is not None:
                    return Caller(app, label, key_hash=wanted)
        return Caller(None, label, bad_key=True)

    def refresh(self, caller: Caller) -> Caller:
        """The caller as the profile says now: a level changed, the app removed, or its
        key renewed while it was connected (then the key it came with is no longer the
        app's, and it gets nothing from its next call on)."""
        if caller.app is None:
            return caller
        app = self.by_id(caller.app.id)
        rows = self.db.query("SELECT key_hash FROM apps WHERE id = ?", (caller.app.id,))
        current = str(rows[0][0]) if rows and rows[0][0] is not None else ""
        if app is None or not current or not hmac.compare_digest(current, caller.key_hash or ""):
            return Caller(None, caller.label, bad_key=True)
        return Caller(app, caller.label, key_hash=caller.key_hash)

    def seen(self, caller: Caller) -> None:
        if caller.app is None:
            return
        with self.db.transaction() as conn:
            conn.execute(
                "UPDATE apps SET last_seen = ?, label = ? WHERE id = ?",
                (_now(), caller.label, caller.app.id),
            )
        self._changed("changed", caller.app.id)

    def level_of(self, caller: Caller) -> str:
        if caller.app is not None:
            return caller.app.level
        return "off" if caller.bad_key else self.unregistered_level()

    def require(self, caller: Caller, need: str, tool: str, where: str) -> None:
        """Raise ClientNotAllowed, naming where to change it, unless allowed."""
        level = self.level_of(caller)
        if LEVELS.index(level) >= NEEDS[need]:
            return
        if caller.bad_key:
            raise ClientNotAllowed(
                f"This app's desktop-mem key is not valid (the app was removed or given a new "
                f"key), so {tool} was refused: copy its configuration again from {where}. "
                "Nothing was changed."
            )
        if caller.app is None:
            what = (
                "Apps without a desktop-mem key are shut out"
                if level == "off"
                else "Apps without a desktop-mem key may only read memories"
            )
            raise ClientNotAllowed(
                f"{what}, so {tool} was refused: register this app in {where} and put the "
                "configuration it shows into the app. Nothing was changed."
            )
        if level == "off":
            what = f"'{caller.app.name}' is paused in desktop-mem"
        else:
            what = f"'{caller.app.name}' may only {level} memories in desktop-mem"
        raise ClientNotAllowed(
            f"{what}, so {tool} was refused: change it in {where}. Nothing was changed."
        )

    # -- the access log ------------------------------------------------------------------

    def log(self, caller: Caller, tool: str, memory_ids: list[int] | tuple[int, ...]) -> None:
        """Record a call: per memory it touched, or once (a refusal, an empty answer). The
        same app, tool and memory on the same day add to one row's count."""
        stamp = _now()
        app_id = caller.app.id if caller.app is not None else None
        who = "" if app_id is not None else INVALID_KEY if caller.bad_key else NO_KEY
        ids: list[int | None] = list(dict.fromkeys(memory_ids)) or [None]
        with self.db.transaction() as conn:
            for mid in ids:
                counted = conn.execute(
                    "UPDATE client_access SET times = times + 1, at = ? WHERE memory_id IS ? "
                    "AND tool = ? AND app_id IS ? AND client = ? AND at >= ?",
                    (stamp, mid, tool, app_id, who, stamp[:10]),
                ).rowcount
                if not counted:
                    conn.execute(
                        "INSERT INTO client_access(client, app_id, tool, memory_id, at, times) "
                        "VALUES (?, ?, ?, ?, ?, 1)",
                        (who, app_id, tool, mid, stamp),
                    )
        self._changed("changed", *(() if app_id is None else (app_id,)))
        self._logged += 1
        if self._logged == 1 or self._logged % PRUNE_EVERY == 0:
            self.prune()

    def prune(self, now: datetime | None = None) -> int:
        """Drop what the log keeps no longer: rows older than RETENTION_DAYS, and the
        oldest beyond MAX_LOG_ROWS. Returns how many went."""
        cutoff = ((now or datetime.now(UTC)) - timedelta(days=RETENTION_DAYS)).isoformat()
        with self.db.transaction() as conn:
            gone = conn.execute("DELETE FROM client_access WHERE at < ?", (cutoff[:10],)).rowcount
            extra = conn.execute("SELECT count(*) FROM client_access").fetchone()[0] - MAX_LOG_ROWS
            if extra > 0:
                gone += conn.execute(
                    "DELETE FROM client_access WHERE id IN (SELECT id FROM client_access "
                    "ORDER BY at, id LIMIT ?)",
                    (extra,),
                ).rowcount
        if gone:
            self._changed("changed")
        return int(gone)

    _ACCESS = (
        "SELECT CASE WHEN a.id IS NOT NULL THEN a.name WHEN c.client = 'invalid key' "
        "THEN 'an app with a key that is not valid' ELSE 'an app without a key' END, "
        "c.tool, c.memory_id, c.at, c.times, CASE WHEN a.id IS NOT NULL THEN 'app' "
        "WHEN c.client = 'invalid key' THEN 'invalid key' ELSE 'no key' END "
        "FROM client_access c "
        "LEFT JOIN apps a ON a.id = c.app_id "
    )

    def access_for_memory(self, memory_id: int, limit: int = 50) -> list[Access]:
        return [
            Access(*r)
            for r in self.db.query(
                self._ACCESS + "WHERE c.memory_id = ? ORDER BY c.at DESC, c.id DESC LIMIT ?",
                (memory_id, limit),
            )
        ]

    def recent(
        self, name: str | None = None, limit: int = 100, unregistered: bool = False
    ) -> list[Access]:
        if unregistered:
            where, params = "WHERE c.app_id IS NULL ", []
        elif name:
            where, params = "WHERE c.app_id = ? ", [self.get(name).id]
        else:
            where, params = "", []
        return [
            Access(*r)
            for r in self.db.query(
                self._ACCESS + where + "ORDER BY c.at DESC, c.id DESC LIMIT ?", (*params, limit)
            )
        ]

    def clear_log(self, name: str | None, unregistered: bool = False) -> int:
        ids: tuple[int, ...] = ()
        with self.db.transaction() as conn:
            if unregistered:
                n = conn.execute("DELETE FROM client_access WHERE app_id IS NULL").rowcount
            else:
                app = self.get(name or "")
                n = conn.execute("DELETE FROM client_access WHERE app_id = ?", (app.id,)).rowcount
                ids = (app.id,)
        self._changed("changed", *ids)
        self.db.checkpoint()
        return int(n)


# -- the configuration an app is started with -------------------------------------------


def server_command() -> tuple[str, list[str]]:
    """How this installation's `desktop-mem` is started: its own executable beside the
    interpreter, the one on PATH, or the interpreter with the module (a checkout)."""
    import shutil
    import sys
    from pathlib import Path

    beside = Path(sys.executable).with_name("desktop-mem")
    if beside.exists():
        return str(beside), []
    found = shutil.which("desktop-mem")
    if found:
        return found, []
    return sys.executable, ["-m", "desktop_mem"]


def connect_snippet(
    key: str | None,
    home: str | None = None,
    profile: str = "default",
    command: tuple[str, list[str]] | None = None,
    server_name: str = "desktop-mem",
) -> str:
    """The MCP configuration ("mcpServers") that starts this profile's server for one app:
    `--home` and `--profile` when they are not the defaults, the app's key in `env`."""
    import json

    program, args = command or server_command()
    args = list(args)
    if home:
        args += ["--home", home]
    if profile != "default":
        args += ["--profile", profile]
    entry: dict[str, Any] = {"command": program, "args": [*args, "mcp"]}
    if key:
        entry["env"] = {APP_KEY_ENV: key}
    return json.dumps({"mcpServers": {server_name: entry}}, indent=2, ensure_ascii=False)
