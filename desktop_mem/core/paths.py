"""The one place that decides where desktop-mem keeps its files."""

from __future__ import annotations

import os
import re
from pathlib import Path

import platformdirs

from desktop_mem.core.errors import UsageError

APP_NAME = "desktop-mem"
DEFAULT_PROFILE = "default"
_PROFILE_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")  # whole name: no trailing newline


def data_home(override: str | os.PathLike[str] | None = None) -> Path:
    """`override`, else $DESKTOP_MEM_HOME, else the platform's user data dir."""
    if override:
        return Path(override).expanduser()
    env = os.environ.get("DESKTOP_MEM_HOME")
    if env:
        return Path(env).expanduser()
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def check_profile_name(name: str) -> str:
    if not _PROFILE_RE.fullmatch(name):
        raise UsageError(
            f"'{name}' is not a valid profile name: use letters, digits, '-', '_' or '.' (at most 64)."
        )
    return name


def profile_dir(home: Path, profile: str) -> Path:
    return home / "profiles" / check_profile_name(profile)


def database_path(home: Path, profile: str) -> Path:
    return profile_dir(home, profile) / "memory.db"


def log_dir(home: Path) -> Path:
    return home / "logs"


def home_argument(home: Path) -> str | None:
    """The `--home` another program needs to reach this data folder: None when it is the
    platform's default (what a program started without DESKTOP_MEM_HOME finds)."""
    default = Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))
    here = Path(home).expanduser().resolve()
    return None if here == default.resolve() else str(here)
