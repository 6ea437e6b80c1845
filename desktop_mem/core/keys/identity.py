"""Whose key it is: every profile has its own id, recorded when it is made, and its
keyring entries are named for that id, never for the profile's name.

Two data folders may both hold a profile called "default", and a profile folder may be
copied anywhere; named by profile name, they all shared one keyring entry, so that a
key change in one deleted the key of every other. Now the id and the folder the profile
lives in are written in its profile.json (and in its database). A profile that finds
itself somewhere else (copied, or its data folder moved) first becomes its own profile:
a new id, and a keyring entry of its own holding the same key, before it may change a
key. Only entries named for a profile's own id, made where it lives, are ever deleted
by it; an entry named the old way (``profile:NAME``) may belong to another data
folder's profile of that name and is left alone.
"""

from __future__ import annotations

import secrets
from pathlib import Path

from desktop_mem.core.jsontypes import JSONObject

ACCOUNT_PREFIX = "profile-id:"


def new_profile_id() -> str:
    return secrets.token_hex(8)


def account_for(profile_id: str, rotation: str | None = None) -> str:
    """The keyring account of a profile's key: its first one, or a rotated one."""
    base = f"{ACCOUNT_PREFIX}{profile_id}"
    return f"{base}:{rotation}" if rotation else base


def location(db_path: Path) -> str:
    """Where a profile lives: its folder, as an absolute path with links resolved."""
    return str(Path(db_path).parent.resolve())


def record(profile_id: str, db_path: Path) -> dict[str, str]:
    """What profile.json keeps of a profile's identity."""
    return {"profile_id": profile_id, "location": location(db_path)}


def settled_id(side: JSONObject, db_path: Path) -> str | None:
    """The profile's id, if profile.json records one made where the profile is now;
    None for a profile from before ids, or one that was copied or moved here."""
    pid = side.get("profile_id")
    if isinstance(pid, str) and len(pid) == 16 and side.get("location") == location(db_path):
        return pid
    return None


def owns(side: JSONObject, db_path: Path, account: str) -> bool:
    """Whether a keyring account provably belongs to this profile alone: it is named for
    the profile's own id, and that id was made where the profile lives."""
    pid = settled_id(side, db_path)
    if pid is None:
        return False
    mine = account_for(pid)
    return account == mine or account.startswith(mine + ":")
