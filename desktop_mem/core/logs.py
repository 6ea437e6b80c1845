"""Logging to a rotating file under the data directory.

Rule for every log call in the project: ids, counts, durations and error types,
never the text of a message or a memory (tests scan the log for planted text).

Third-party libraries' warnings (pypdf's "EOF marker not found", the MCP SDK's) go to
the same file, at WARNING and above, instead of Python's last-resort handler, which
writes them to stderr: a host app's log or the user's terminal is no place for them.

What a record may write is bounded, because another program can make a library log:
an MCP client's request name ended up, newlines and all, in a traceback (a forged log
line), and twenty names of 900 KB rotated the whole log away. So every record is one
line (control characters escaped) of at most MAX_RECORD characters; a library's record
keeps its message template and its exceptions' types and places, never their text nor
the values it was given (a request's text is the caller's data); and the same library
message is written at most REPEATS times a run.
"""

from __future__ import annotations

import logging
import logging.handlers
import threading
import traceback
from pathlib import Path

from desktop_mem.core import paths
from desktop_mem.core.textproc import escape_controls

MAX_RECORD = 500  # characters of one record, all told
REPEATS = 20  # times one library message is written in a run
_configured: Path | None = None


def _ours(name: str) -> bool:
    return name == "desktop_mem" or name.startswith("desktop_mem.")


def _where(exc: BaseException) -> str:
    """An exception and its causes as types and places only: no message, which may hold
    what a caller sent."""
    parts: list[str] = []
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen and len(parts) < 4:
        seen.add(id(current))
        frames = traceback.extract_tb(current.__traceback__)
        place = f" at {Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else ""
        parts.append(type(current).__name__ + place)
        current = current.__cause__ or current.__context__
    return " <- ".join(parts)


class OneLine(logging.Formatter):
    """A record as one bounded line: see the module's docstring."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        if _ours(record.name) or record.name == "py.warnings":
            try:
                message = record.getMessage()
            except (TypeError, ValueError):
                message = str(record.msg)
        else:
            message = str(record.msg)  # the template, without what it was given
        if record.exc_info and record.exc_info[1] is not None:
            message += f" ({_where(record.exc_info[1])})"
        head = f"{self.formatTime(record)} {record.levelname} {record.name}: "
        text = escape_controls(message)
        room = max(40, MAX_RECORD - len(head))
        if len(text) > room:
            text = text[: room - 1] + "…"
        return head + text


class _Repeats(logging.Filter):
    """Let a library's message through at most REPEATS times a run (one client can make
    the same error thousands of times); the last one says so."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: dict[tuple[str, str], int] = {}
        self.lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        if _ours(record.name):
            return True
        key = (record.name, str(record.msg)[:200])
        with self.lock:
            n = self.seen[key] = self.seen.get(key, 0) + 1
        if n == REPEATS:
            record.msg = f"{record.msg} [written {REPEATS} times: not again this run]"
        return n <= REPEATS


def _handler(target: Path, level: int) -> logging.Handler:
    handler = logging.handlers.RotatingFileHandler(
        target, maxBytes=1_000_000, backupCount=3, encoding="utf-8"
    )
    handler.setFormatter(OneLine())
    handler.addFilter(_Repeats())
    handler.setLevel(level)
    handler._desktop_mem = True  # type: ignore[attr-defined]
    return handler


def configure(home: Path, level: int = logging.INFO) -> Path | None:
    """Log to HOME/logs/desktop-mem.log. None when the file cannot be written (a data
    folder on a read-only disk, or another user's): then nothing is logged, and reading
    the profile still works."""
    global _configured
    folder = paths.log_dir(home)
    target = folder / "desktop-mem.log"
    if _configured == target:
        return target
    ours = logging.getLogger("desktop_mem")
    top = logging.getLogger()
    _remove_handlers(ours, top)
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        handler = _handler(target, logging.NOTSET)
        others = _handler(target, logging.WARNING)
    except OSError:
        ours.addHandler(_null())
        ours.propagate = False
        top.addHandler(_null())
        logging.captureWarnings(True)
        _configured = None
        return None
    ours.addHandler(handler)
    ours.setLevel(level)
    ours.propagate = False  # written once, by the handler above
    top.addHandler(others)
    logging.captureWarnings(True)
    _configured = target
    return target


def _null() -> logging.Handler:
    handler = logging.NullHandler()
    handler._desktop_mem = True  # type: ignore[attr-defined]
    return handler


def _remove_handlers(*loggers: logging.Logger) -> None:
    for logger in loggers:
        for old in list(logger.handlers):
            if getattr(old, "_desktop_mem", False):
                logger.removeHandler(old)
                old.close()


def unconfigure() -> None:
    """Undo configure(): close the file handlers and let our records propagate again.

    For a process that opens profiles in several data folders one after the other
    (the test suite does), so one folder's log never receives another's records.
    """
    global _configured
    ours = logging.getLogger("desktop_mem")
    _remove_handlers(ours, logging.getLogger())
    ours.setLevel(logging.NOTSET)
    ours.propagate = True
    logging.captureWarnings(False)
    _configured = None
