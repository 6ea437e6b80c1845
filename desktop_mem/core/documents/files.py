"""A document's file, read safely: through one descriptor opened without following a
symbolic link at any part of its path, never a FIFO, a device or a socket, never past a
size, and once (every reader works on those bytes, so what is hashed is what is
indexed); and what kind of document its name says it is."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from desktop_mem.core.errors import InvalidInput
from desktop_mem.core.textproc import escape_controls

MAX_FILE_BYTES = 200 * 1024 * 1024  # larger files are refused before reading
SUFFIXES = {".md": "markdown", ".markdown": "markdown", ".txt": "text", ".text": "text",
            ".pdf": "pdf", ".docx": "docx", ".html": "html", ".htm": "html"}  # fmt: skip


def kind_of(path: Path) -> str | None:
    return SUFFIXES.get(path.suffix.lower())


def shown_name(path: Path) -> str:
    """A file's name as a sentence may show it: control characters and undecodable
    bytes escaped."""
    return escape_controls(path.name)


def refuse(path: Path, why: str) -> InvalidInput:
    return InvalidInput(f"{shown_name(path)} was not added: {why}.", reason="document_refused")


_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_OPEN_FLAGS = os.O_RDONLY | _NOFOLLOW | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)


def open_nofollow(path: Path, directory: bool = False) -> int:
    """A descriptor for an absolute path opened one part at a time, each relative to the
    descriptor of the folder before it and none through a symbolic link. O_NOFOLLOW alone
    guards only the last part: a folder on the way swapped for a link between the scan and
    the read led outside the watched folder. OSError (ELOOP, ENOTDIR) when a part is a
    link or not a folder."""
    path = Path(path)
    if not path.is_absolute() or os.open not in os.supports_dir_fd:
        return os.open(path, _OPEN_FLAGS | (getattr(os, "O_DIRECTORY", 0) if directory else 0))
    parts = path.parts[1:]
    fd = os.open(path.anchor, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        for n, part in enumerate(parts, 1):
            folder = n < len(parts) or directory
            child = os.open(part, _OPEN_FLAGS | (os.O_DIRECTORY if folder else 0), dir_fd=fd)
            os.close(fd)
            fd = child
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_file(path: Path, in_folder: bool = False) -> tuple[bytes, os.stat_result]:
    """The bytes of a regular file and what fstat said of it, read through one descriptor
    opened without following a link at any part of its path (open_nofollow) and without
    blocking (a FIFO would wait for a writer for ever); InvalidInput for a link, a FIFO, a
    device, a socket or a file too large. A file found in a watched folder (`in_folder`)
    with another name elsewhere (a hard link) is refused too: it may be a file from
    outside the folder, which whoever writes to the folder could link in."""
    try:
        fd = open_nofollow(path)
    except FileNotFoundError:
        raise refuse(path, "the file is gone (moved or deleted)") from None
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENOTDIR, errno.EMLINK):
            raise refuse(
                path, "it, or a folder on its path, is a symbolic link, and links are not followed"
            ) from None
        raise refuse(path, f"it could not be read ({exc.strerror or exc})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise refuse(path, "it is not a regular file (a folder, device, FIFO or socket)")
        if in_folder and info.st_nlink > 1:
            raise refuse(path, HARD_LINK)
        if info.st_size > MAX_FILE_BYTES:
            raise refuse(
                path,
                f"it is {info.st_size / 1e6:,.0f} MB, more than the {MAX_FILE_BYTES / 1e6:.0f} "
                "MB read",
            )
        os.set_blocking(fd, True)
        chunks = []
        total = 0
        while chunk := os.read(fd, 1 << 20):
            total += len(chunk)
            if total > MAX_FILE_BYTES:
                raise refuse(path, "it grew past the size desktop-mem reads while it was read")
            chunks.append(chunk)
        return b"".join(chunks), info
    except OSError as exc:
        raise refuse(path, f"it could not be read ({exc.strerror or exc})") from None
    finally:
        os.close(fd)


HARD_LINK = (
    "it has another name outside what was listed (a hard link), so it may be a file from "
    "outside the folder; add it by its own name if you want it"
)


def read_regular(path: Path) -> bytes:
    """The bytes of a file named by itself (see read_file)."""
    return read_file(path)[0]


def storable_name(path: Path) -> bool:
    """Whether a path can be stored (a name that is not UTF-8 cannot)."""
    try:
        str(path).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
