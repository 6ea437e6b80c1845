"""Logging to a rotating file under the data directory.

Rule for every log call in the project: ids, counts, durations and error types,
never the text of a message or a memory (tests scan the log for planted text).

Third-party libraries' warnings (pypdf's "EOF marker not found", the MCP SDK's) go to
the same file, at WARNING and above, instead of Python's last-resort handler, which
writes them to stderr: a host app's log or the user's terminal is no place for them.
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
    ours = logging.getLogger("desktop_mem")
    top = logging.getLogger()
    for logger in (ours, top):
        for old in list(logger.handlers):
            if getattr(old, "_desktop_mem", False):
                logger.removeHandler(old)
                old.close()
    handler._desktop_mem = True  # type: ignore[attr-defined]
    ours.addHandler(handler)
    ours.setLevel(level)
    ours.propagate = False  # written once, by the handler above
    others = logging.handlers.RotatingFileHandler(
        target, maxBytes=1_000_000, backupCount=3, encoding="utf-8"
    )
    others.setFormatter(handler.formatter)
    others.setLevel(logging.WARNING)
    others._desktop_mem = True  # type: ignore[attr-defined]
    top.addHandler(others)
    logging.captureWarnings(True)
    _configured = target
    return target


def unconfigure() -> None:
    """Undo configure(): close the file handlers and let our records propagate again.

    For a process that opens profiles in several data folders one after the other
    (the test suite does), so one folder's log never receives another's records.
    """
    global _configured
    ours = logging.getLogger("desktop_mem")
    for logger in (ours, logging.getLogger()):
        for old in list(logger.handlers):
            if getattr(old, "_desktop_mem", False):
                logger.removeHandler(old)
                old.close()
    ours.setLevel(logging.NOTSET)
    ours.propagate = True
    logging.captureWarnings(False)
    _configured = None
