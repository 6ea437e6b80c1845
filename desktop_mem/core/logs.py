"""Logging to a rotating file under the data directory.

Rule for every log call in the project: ids, counts, durations and error types,
never the text of a message or a memory (tests scan the log for planted text).
"""

from __future__ import annotations

import logging
import logging.handlers
from pathlib import Path

from desktop_mem.core import paths

_configured: Path | None = None


def configure(home: Path, level: int = logging.INFO) -> Path:
    global _configured
    folder = paths.log_dir(home)
    target = folder / "desktop-mem.log"
    if _configured == target:
        return target
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    handler = logging.handlers.RotatingFileHandler(
        target, maxBytes=1_000_000, backupCount=3, encoding="utf-8"
    )
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger("desktop_mem")
    for old in list(root.handlers):
        if getattr(old, "_desktop_mem", False):
            root.removeHandler(old)
            old.close()
    handler._desktop_mem = True  # type: ignore[attr-defined]
    root.addHandler(handler)
    root.setLevel(level)
    _configured = target
    return target
