"""Per-profile settings, stored (encrypted) in the profile's meta table."""

from __future__ import annotations

from typing import Any

from desktop_mem.core.errors import InvalidInput, UsageError
from desktop_mem.core.events import Events, SettingChanged
from desktop_mem.core.protocols import Connection, Meta

# What another app (an MCP client) may do, in order: paused, read, read and write, read
# write and delete. Defined here because a setting chooses a new app's level.
LEVELS = ("off", "read", "write", "delete")


def check_level(level: str) -> str:
    if level not in LEVELS:
        raise UsageError(
            f"'{level}' is not a permission: use one of {', '.join(LEVELS)} "
            "(off = paused, write = read and write, delete = read, write and delete)."
        )
    return level


DEFAULTS: dict[str, Any] = {
    "chat_model": None,  # None: --model / DESKTOP_MEM_CHAT_MODEL / qwen2.5:7b
    "auto_memory": True,  # extract memories from every exchange
    "use_memory": True,  # give the model relevant memories and past messages
    "sleep_consolidation": True,  # tidy the memories by itself while the window is idle
    "context_tokens": 8192,  # the most context asked of the model (capped by the model's own)
    "memory_tokens": 800,  # the memory block at most
    "recall_tokens": 450,  # the past-messages block at most
    "openai_enabled": False,
    "openai_base_url": "",
    "openai_model": "",
    "openai_api_key": "",  # kept in the encrypted profile, never printed
    "openai_notice_seen": False,  # no longer used (see remote_notice_seen)
    "remote_notice_seen": "",  # the server the leaves-this-computer notice was shown for
    "backup_folder": "",  # where automatic backups go ("" : none chosen)
    "backup_daily": False,  # back up into backup_folder once a day
    "backup_keep": 7,  # how many of the automatic backups to keep
    "last_backup_at": "",  # when the last backup (any kind) was written, UTC ISO
    "mcp_unregistered_level": "read",  # what an app without a key may do: read or off
    "instructions": "",  # the user's "about me / how to answer": in every prompt
    "care_notice_seen": False,
    "about_you": True,  # keep a short profile of the person and give it in every prompt  # the window said what a memory given in every chat is
}

# Whole-number settings and their bounds (the token budgets: at least 256).
RANGES: dict[str, tuple[int, int]] = {"backup_keep": (1, 365)}


SECRET = ("openai_api_key",)


def setting(db: Meta, key: str) -> Any:
    """One setting's value, read (what reads a setting needs no store: only a write is
    announced)."""
    default = DEFAULTS[key]
    raw = db.meta_get(f"setting.{key}")
    if raw is None:
        return default
    if isinstance(default, bool):
        return raw == "1"
    if isinstance(default, int):
        return int(raw)
    return raw


class Settings:
    """The settings' one writer: each change is announced."""

    def __init__(self, db: Meta, events: Events) -> None:
        self.db = db
        self.events = events

    def get(self, key: str) -> Any:
        return setting(self.db, key)

    def set(self, key: str, value: Any) -> None:
        """Validate `value` against the setting's type and bounds, then store it.
        Nothing is stored when it does not fit ("treu" is not a yes/no)."""
        if key not in DEFAULTS:
            raise InvalidInput(f"There is no setting '{key}': use one of {', '.join(DEFAULTS)}.")
        value = _validated(key, value)
        raw: str | None
        if isinstance(value, bool):
            raw = "1" if value else "0"
        elif isinstance(value, int):
            raw = str(value)
        else:
            raw = value or None
        self.db.meta_set(f"setting.{key}", raw)
        self.events.emit(SettingChanged(key))

    def put_arrived(self, conn: Connection, key: str, value: object) -> None:
        """A synced setting as another computer has it (None: its default), written
        inside the caller's transaction and announced after its commit."""
        if value is None:
            conn.execute("DELETE FROM meta WHERE key = ?", (f"setting.{key}",))
        else:
            conn.execute(
                "INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)",
                (f"setting.{key}", str(value)),
            )
        self.db.after_commit(lambda _ids: self.events.emit(SettingChanged(key)))

    def all(self) -> dict[str, Any]:
        out = {k: self.get(k) for k in DEFAULTS}
        for k in SECRET:
            out[k] = "(set)" if out[k] else ""
        return out


_MODEL: Any = None


def _model() -> Any:
    """The settings as a pydantic model: one typed field per setting, with its bounds.
    Built on the first write (reading settings, which every command does, never
    imports pydantic)."""
    global _MODEL
    if _MODEL is None:
        from pydantic import BaseModel, ConfigDict, Field, StrictBool, create_model

        fields: dict[str, Any] = {}
        for key, default in DEFAULTS.items():
            if isinstance(default, bool):
                fields[key] = (StrictBool, default)
            elif isinstance(default, int):
                low, high = RANGES.get(key, (256, 2**31 - 1))
                fields[key] = (int, Field(default, ge=low, le=high, strict=False))
            else:
                fields[key] = (str | None, default)

        class _Base(BaseModel):
            model_config = ConfigDict(validate_assignment=True, str_strip_whitespace=False)

        _MODEL = create_model("SettingsValues", __base__=_Base, **fields)
    return _MODEL


_ON = ("1", "true", "on", "yes")
_OFF = ("0", "false", "off", "no")


def _validated(key: str, value: Any) -> Any:
    """`value` as the setting's type, or InvalidInput in one sentence."""
    from pydantic import ValidationError

    default = DEFAULTS[key]
    if isinstance(default, bool) and isinstance(value, str | int) and not isinstance(value, bool):
        word = str(value).strip().lower()  # the words a command line or a file gives
        value = True if word in _ON else False if word in _OFF else value
    elif isinstance(default, int) and isinstance(value, str):
        value = value.strip()
    elif not isinstance(default, bool | int):
        value = None if value in (None, "") else str(value)
    try:
        values = _model().model_construct()
        setattr(values, key, value)
        value = getattr(values, key)
    except ValidationError as exc:
        if isinstance(default, bool):
            raise InvalidInput(
                f"The setting '{key}' is on or off: use true or false, not '{value}'."
            ) from None
        kinds = {e["type"] for e in exc.errors()}
        if kinds & {"greater_than_equal", "less_than_equal"}:
            low, high = RANGES.get(key, (256, 2**31 - 1))
            raise InvalidInput(f"The setting '{key}' must be from {low} to {high}.") from None
        raise InvalidInput(f"The setting '{key}' takes a whole number.") from None
    if key == "mcp_unregistered_level" and value not in ("off", "read"):
        raise InvalidInput(
            f"'{value}' is not a permission for apps without a key: use read or off (only "
            "a registered app may write or delete)."
        )
    return value
