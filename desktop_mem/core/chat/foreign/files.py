"""The one guard on an export's files, shared by every reader: a zip's members checked
before anything is read (no path out of it, no password, no bomb), an unpacked folder's
files opened never through a link and never as a FIFO or a device, and whatever goes
wrong while a file is read said as one sentence that names it."""

from __future__ import annotations

import os
import re
import stat
import zipfile
import zlib
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from desktop_mem.core.chat.foreign.fields import Malformed
from desktop_mem.core.chat.foreign.stream import CHUNK, unreadable
from desktop_mem.core.errors import ExportRejected, InvalidInput

MAX_UNPACKED = 8 * 1024**3  # the most a zip may unpack to
MAX_RATIO = 200  # a member that unpacks to more than this many times its size: a bomb

# ChatGPT splits a large export into conversations-000.json, conversations-001.json, …
CONVERSATIONS = re.compile(r"conversations(?:-(\d{1,6}))?\.json", re.IGNORECASE)


def conversation_files(names: Iterable[str]) -> list[str]:
    """The conversation files among `names` (paths in a zip or a folder), in order:
    conversations.json, then the numbered ones by number. A Mac's resource forks
    (__MACOSX/, ._name) are not files of the export."""
    found = []
    for name in names:
        base = name.replace("\\", "/").rsplit("/", 1)[-1]
        if base.startswith("._") or name.startswith("__MACOSX/"):
            continue
        match = CONVERSATIONS.fullmatch(base)
        if match:
            found.append((int(match.group(1) or -1), name))
    return [name for _, name in sorted(found)]


def safe_members(path: Path, z: zipfile.ZipFile) -> list[str]:
    """The names of a zip's members, once each has been found safe to read."""
    total = 0
    names = []
    for info in z.infolist():
        name = info.filename
        parts = name.replace("\\", "/").split("/")
        if name.startswith(("/", "\\")) or ".." in parts or (len(name) > 1 and name[1] == ":"):
            raise ExportRejected(
                f"{path.name} holds a file that points outside it ({name}): it was not read. "
                "Download the export again from the service.",
                path.name, "unsafe_zip", "path outside the zip",
            )  # fmt: skip
        if info.flag_bits & 0x1 and name.lower().endswith(".json"):
            raise ExportRejected(
                f"{path.name} holds files locked with a password ({name}), which this app "
                "cannot open: nothing was imported. Download the export again from the service.",
                path.name, "password", name,
            )  # fmt: skip
        total += info.file_size
        ratio = info.file_size / max(info.compress_size, 1)
        if total > MAX_UNPACKED or (info.file_size > CHUNK * 16 and ratio > MAX_RATIO):
            raise ExportRejected(
                f"{path.name} would unpack to far more than it holds (a zip bomb?): it was not "
                "read. Download the export again from the service.",
                path.name, "unsafe_zip", "zip bomb",
            )  # fmt: skip
        names.append(name)
    return names


@contextmanager
def open_regular(path: Path) -> Iterator[IO[str]]:
    """A file of an unpacked export: not through a link, never a FIFO or a device."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_BINARY", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise Malformed("it is not a regular file")
        os.set_blocking(fd, True)
        fh = os.fdopen(fd, encoding="utf-8-sig", errors="strict")
    except BaseException:
        os.close(fd)
        raise
    with fh:
        yield fh


def regular_files(folder: Path) -> list[str]:
    """The names of a folder's files, not following links."""
    return sorted(e.name for e in os.scandir(folder) if e.is_file(follow_symlinks=False))


@contextmanager
def said_as_sentence(name: str) -> Iterator[None]:
    """Whatever goes wrong while the file `name` is read, said as one sentence."""
    try:
        yield
    except Malformed as exc:
        raise unreadable(name, str(exc)) from None
    except UnicodeDecodeError:
        raise unreadable(name, "it is not UTF-8 text") from None
    except RecursionError:
        raise unreadable(name, "it is nested too deeply") from None
    except (zipfile.BadZipFile, zlib.error, EOFError):
        raise unreadable(name, "it is damaged (its compressed data does not check out)") from None
    except (RuntimeError, NotImplementedError):
        raise unreadable(name, "it is locked or compressed in a way this app cannot open") from None
    except OSError as exc:
        raise InvalidInput(f"Could not read {name} ({exc.strerror or exc}).") from None
