"""Per-profile settings, stored (encrypted) in the profile's meta table."""

from __future__ import annotations

from typing import Any

from desktop_mem.core.errors import InvalidInput

DEFAULTS: dict[str, Any] = {
    "chat_model": None,  # None: --model / DESKTOP_MEM_CHAT_MODEL / qwen2.5:7b
    "auto_memory": True,  # extract memories from every exchange
    "use_memory": True,  # give the model relevant memories and past messages
    "sleep_consolidation": True,  # tidy the memories by itself while the window is idle
    "context_tokens": 8192,  # the most context asked of the model (capped by the model's own)
    "memory_tokens": 700,  # the memory block at most
    "recall_tokens": 300,  # the past-messages block at most
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
    "mcp_default_level": "read",  # what an app seen for the first time may do
    "instructions": "",  # the user's "about me / how to answer": in every prompt
}

# Whole-number settings and their bounds (the token budgets: at least 256).
RANGES: dict[str, tuple[int, int]] = {"backup_keep": (1, 365)}


SECRET = ("openai_api_key",)


class Settings:
    def __init__(self, db: Any) -> None:
        self.db = db

    def get(self, key: str) -> Any:
        default = DEFAULTS[key]
        raw = self.db.meta_get(f"setting.{key}")
        if raw is None:
            return default
        if isinstance(default, bool):
            return raw == "1"
        if isinstance(default, int):
            return int(raw)
        return raw

    def set(self, key: str, value: Any) -> None:
        if key not in DEFAULTS:
            raise InvalidInput(f"There is no setting '{key}': use one of {', '.join(DEFAULTS)}.")
        default = DEFAULTS[key]
        raw: str | None
        if isinstance(default, bool):
            word = str(value).strip().lower()
            if value is True or word in ("1", "true", "on", "yes"):
                raw = "1"
            elif value is False or word in ("0", "false", "off", "no"):
                raw = "0"
            else:
                raise InvalidInput(
                    f"The setting '{key}' is on or off: use true or false, not '{value}'."
                )
        elif isinstance(default, int):
            try:
                raw = str(int(value))
            except (TypeError, ValueError):
                raise InvalidInput(f"The setting '{key}' takes a whole number.") from None
            low, high = RANGES.get(key, (256, 2**31 - 1))
            if not low <= int(raw) <= high:
                raise InvalidInput(f"The setting '{key}' must be from {low} to {high}.")
        else:
            raw = None if value in (None, "") else str(value)
            if key == "mcp_default_level":
                from desktop_mem.core.clients import check_level

                raw = check_level(str(value))
        self.db.meta_set(f"setting.{key}", raw)

    def all(self) -> dict[str, Any]:
        out = {k: self.get(k) for k in DEFAULTS}
        for k in SECRET:
            out[k] = "(set)" if out[k] else ""
        return out
