"""Safe primitives for a folder that others write (the sync folder): nothing in it is
followed, nothing is read past a cap, and nothing is opened that could block.

Whoever can write the sync folder (the engine, every device and account that shares
it, a thief with a removed laptop) decides what its names are: a symbolic link to the
user's home, a FIFO, a sparse file that says 1.5 GB, a link to /dev/zero. So below the
folder the user chose (which is theirs, and may be a link they made), every path is
walked one part at a time, each folder opened relative to the descriptor of the one
before it with O_NOFOLLOW | O_DIRECTORY: O_NOFOLLOW alone guards only the last part, and
`a/link/f` opens through a linked `a/link`. A file is looked at with lstat, opened with
O_NOFOLLOW | O_NONBLOCK (a FIFO would wait for a writer for ever), checked with fstat to
be the regular file lstat saw, and read no further than a cap given before reading. New
files are made with O_CREAT | O_EXCL | O_NOFOLLOW beside the name they replace and
renamed into place through the folder's descriptor; a tree is removed the same way, a
link unlinked, never what it points to.

Where the system lacks the calls relative to a descriptor (Windows), each folder on the
way is checked with lstat before every act instead: the same rules, with a moment
between the check and the act.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path

from desktop_mem.core.errors import SyncRefused

# what a file is, for the quarantine: a file that changes (written again, renamed over,
# even in place: the change time moves) is another file
Identity = tuple[int, int, int, int, int]

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_BINARY = getattr(os, "O_BINARY", 0)
_READ = (
    os.O_RDONLY
    | _NOFOLLOW
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_NOCTTY", 0)
    | _CLOEXEC
    | _BINARY
)
_NEW = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC | _BINARY
_FOLDER = os.O_RDONLY | _DIRECTORY | _NOFOLLOW | _CLOEXEC
_REFUSED_OPEN = {errno.ELOOP, errno.EMLINK, errno.ENOTDIR, errno.ENXIO, errno.EOPNOTSUPP}
# desktop-mem's trees are two deep (the profile's folder, a computer's folder, its
# files): a tree removed deeper than this is not one of ours, and is left
MAX_TREE_DEPTH = 8
_READ_STEP = 1 << 20

LINK = "it is a symbolic link, and links in the sync folder are never followed"
NOT_FILE = "it is not a regular file (a FIFO, device, socket or folder), so it is not read"
NOT_FOLDER = "it is not a folder"


def _dir_fd_here() -> bool:
    needed = {os.open, os.stat, os.unlink, os.rmdir, os.mkdir, os.rename}
    return (
        bool(_NOFOLLOW and _DIRECTORY)
        and needed <= os.supports_dir_fd
        and os.scandir in os.supports_fd
        and os.stat in os.supports_follow_symlinks
    )


# Whether folders are walked by descriptor here (Linux, macOS) or by lstat of every part
# (Windows). The tests turn it off to run the second way on Linux too.
DIR_FD = _dir_fd_here()


class Unsafe(SyncRefused):
    """Something in the sync folder that breaks one of its rules: a link, a FIFO, device
    or socket where a file or folder is expected, a file larger than its cap or that grew
    past it while read. `identity` names it for the quarantine (None when not known)."""

    def __init__(self, message: str, identity: Identity | None = None) -> None:
        super().__init__(message)
        self.identity = identity


def identity(st: os.stat_result) -> Identity:
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def is_link(st: os.stat_result) -> bool:
    # a Windows junction is not S_ISLNK but is followed all the same
    return stat.S_ISLNK(st.st_mode) or bool(getattr(st, "st_reparse_tag", 0))


def is_folder(st: os.stat_result) -> bool:
    return stat.S_ISDIR(st.st_mode) and not is_link(st)


def is_file(st: os.stat_result) -> bool:
    return stat.S_ISREG(st.st_mode) and not is_link(st)


def what_is_wrong(st: os.stat_result, folder: bool = False) -> str | None:
    """Why this entry cannot be what is expected (a folder, or else a file); None if it
    can."""
    if is_link(st):
        return LINK
    if folder:
        return None if stat.S_ISDIR(st.st_mode) else NOT_FOLDER
    return None if stat.S_ISREG(st.st_mode) else NOT_FILE


def size_words(n: int) -> str:
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size:
            return f"{n / size:,.1f}".removesuffix(".0") + f" {unit}"
    return f"{n} bytes"


def too_large(size: int, cap: int) -> str:
    return (
        f"it is {size_words(size)}, more than the {size_words(cap)} desktop-mem reads of such "
        "a file"
    )


def _name(name: str) -> str:
    """A name inside a folder: never a path, never "." or "..". Names come from the
    folder's own listing or desktop-mem's patterns; anything else is a bug here."""
    if name in ("", ".", "..") or any(sep and sep in name for sep in ("/", os.sep, os.altsep)):
        raise ValueError(f"not a name in a folder: {name!r}")
    return name


class Reader:
    """A regular file opened for reading, read no further than its cap."""

    def __init__(self, fd: int, st: os.stat_result, cap: int) -> None:
        self.fd = fd
        self.st = st
        self.cap = cap
        self.done = 0

    @property
    def identity(self) -> Identity:
        return identity(self.st)

    def _take(self, limit: int) -> bytes:
        parts: list[bytes] = []
        got = 0
        expected = max(self.st.st_size - self.done, 0)
        while got < limit:
            # one read of what fstat said is there (one allocation), then small ones
            want = min(limit - got, max(expected - got, 0) + 65536, 1 << 30)
            chunk = os.read(self.fd, want)
            if not chunk:
                break
            parts.append(chunk)
            got += len(chunk)
        self.done += got
        return parts[0] if len(parts) == 1 else b"".join(parts)

    def read(self, n: int) -> bytes:
        """Up to `n` more bytes (fewer at the end of the file)."""
        data = self._take(min(n, self.cap - self.done + 1))
        if self.done > self.cap:
            raise self.grew()
        return data

    def rest(self) -> bytes:
        """What is left of the file, up to its cap: Unsafe when there is more (it grew
        past the cap while it was read)."""
        data = self._take(self.cap - self.done + 1)
        if self.done > self.cap:
            raise self.grew()
        return data

    def chunks(self) -> Iterator[bytes]:
        """What is left, in pieces (a copy), up to the cap."""
        while True:
            chunk = self._take(min(_READ_STEP, self.cap - self.done + 1))
            if self.done > self.cap:
                raise self.grew()
            if not chunk:
                return
            yield chunk

    def grew(self) -> Unsafe:
        return Unsafe(
            f"it grew past {size_words(self.cap)}, the most desktop-mem reads of such a file, "
            "while it was read",
            self.identity,
        )

    def close(self) -> None:
        os.close(self.fd)

    def __enter__(self) -> Reader:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()


class Dir:
    """A folder inside the sync folder, held open: every name in it is acted on relative
    to it, and none through a link."""

    def __init__(self, path: Path, fd: int | None, checked: tuple[Path, ...] = ()) -> None:
        self.path = path
        self.fd = fd  # None: no descriptors here; `checked` are lstat-ed before each act
        self._checked = checked

    # -- opening -----------------------------------------------------------------------

    @classmethod
    def open(cls, anchor: Path, parts: Sequence[str] = (), create: bool = False) -> Dir:
        """`anchor`, the folder the user chose (followed: it is theirs), then each of
        `parts` below it as a real folder (made when missing and `create`). Unsafe when
        a part is a link or not a folder; FileNotFoundError when one is missing."""
        anchor = Path(anchor)
        if DIR_FD:
            folder = cls(anchor, os.open(anchor, os.O_RDONLY | _DIRECTORY | _CLOEXEC))
        else:
            if not anchor.is_dir():
                raise FileNotFoundError(errno.ENOENT, "not a folder", str(anchor))
            folder = cls(anchor, None)
        try:
            for part in parts:
                inner = folder.sub(part, create)
                folder.close()
                folder = inner
        except BaseException:
            folder.close()
            raise
        return folder

    def sub(self, name: str, create: bool = False) -> Dir:
        """The folder `name` in this one (made when missing and `create`)."""
        path = self.path / _name(name)
        if self.fd is None:
            self._verify()
            if create:
                with contextlib.suppress(FileExistsError):
                    os.mkdir(path)
            st = os.lstat(path)
            if why := what_is_wrong(st, folder=True):
                raise Unsafe(why, identity(st))
            return Dir(path, None, (*self._checked, path))
        if create:
            with contextlib.suppress(FileExistsError):
                os.mkdir(name, dir_fd=self.fd)
        try:
            fd = os.open(name, _FOLDER, dir_fd=self.fd)
        except OSError as exc:
            if exc.errno not in _REFUSED_OPEN:
                raise
            st = self.lstat(name)
            raise Unsafe(what_is_wrong(st, folder=True) or NOT_FOLDER, identity(st)) from None
        return Dir(path, fd)

    def _verify(self) -> None:
        """Without descriptors: every folder on the way is still a real folder."""
        for path in self._checked:
            st = os.lstat(path)
            if why := what_is_wrong(st, folder=True):
                raise Unsafe(why, identity(st))

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None

    def __enter__(self) -> Dir:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    # -- looking -----------------------------------------------------------------------

    def scan(self) -> list[tuple[str, os.stat_result]]:
        """Each name in this folder with what lstat says of it (a name gone meanwhile is
        left out)."""
        out = []
        if self.fd is None:
            self._verify()
            entries = os.scandir(self.path)
        else:
            entries = os.scandir(self.fd)
        with entries:
            for entry in entries:
                try:
                    out.append((entry.name, entry.stat(follow_symlinks=False)))
                except OSError:
                    continue
        return out

    def lstat(self, name: str) -> os.stat_result:
        """What `name` is, not what it points to (FileNotFoundError when not there)."""
        if self.fd is None:
            self._verify()
            return os.lstat(self.path / _name(name))
        return os.stat(_name(name), dir_fd=self.fd, follow_symlinks=False)

    # -- reading -----------------------------------------------------------------------

    def reader(self, name: str, cap: int) -> Reader:
        """`name` opened for reading when it is a regular file of at most `cap` bytes:
        Unsafe when it is a link, a FIFO, a device, a socket, a folder, or larger (from
        lstat, before it is opened at all, so a sparse file costs nothing)."""
        st = self.lstat(name)
        if why := what_is_wrong(st):
            raise Unsafe(why, identity(st))
        if st.st_size > cap:
            raise Unsafe(too_large(st.st_size, cap), identity(st))
        try:
            if self.fd is None:
                fd = os.open(self.path / name, _READ)
            else:
                fd = os.open(name, _READ, dir_fd=self.fd)
        except OSError as exc:
            if exc.errno not in _REFUSED_OPEN:
                raise
            raise Unsafe(NOT_FILE, identity(st)) from None
        try:
            opened = os.fstat(fd)
            if (opened.st_dev, opened.st_ino) != (st.st_dev, st.st_ino):
                # swapped between the look and the open: looked at again next time
                raise SyncRefused("it was replaced while it was opened")
            if not stat.S_ISREG(opened.st_mode):
                raise Unsafe(NOT_FILE, identity(opened))
        except BaseException:
            os.close(fd)
            raise
        return Reader(fd, opened, cap)

    # -- writing -----------------------------------------------------------------------

    def create(self, name: str) -> int:
        """A new file `name` for writing: never an existing name, never through a link."""
        if self.fd is None:
            self._verify()
            return os.open(self.path / _name(name), _NEW, 0o666)
        return os.open(_name(name), _NEW, 0o666, dir_fd=self.fd)

    def write_new(self, name: str, parts: Iterable[bytes]) -> int:
        """Write a new file `name` from `parts`, flushed to disk. Returns its size."""
        size = 0
        fd = self.create(name)
        try:
            with os.fdopen(fd, "wb", closefd=False) as out:
                for part in parts:
                    out.write(part)
                    size += len(part)
                out.flush()
            os.fsync(fd)
        finally:
            os.close(fd)
        return size

    def write_atomic(
        self,
        name: str,
        parts: Iterable[bytes],
        temporary: str,
        staged: Callable[[], None] | None = None,
    ) -> int:
        """Write `name` under the name `temporary`, flush it to disk, then rename it into
        place: a reader (or a sync engine) sees the whole file or none. Whatever had the
        name (a link, a FIFO, a folder someone put there) is replaced, not followed.
        `staged` is called once the file is whole on disk, before the rename. Returns its
        size."""
        try:
            size = self.write_new(temporary, parts)
            if staged is not None:
                staged()
            self.replace(temporary, name)
        except BaseException:
            with contextlib.suppress(OSError):
                self.unlink(temporary)
            raise
        self.fsync()
        return size

    def replace(self, src: str, dst: str) -> None:
        """Rename `src` to `dst` in this folder. A folder in the way (no file of this
        app is one) is removed first: renaming cannot replace one."""
        try:
            self._rename(src, self, dst)
        except (IsADirectoryError, FileExistsError):
            self.remove_tree(dst)
            self._rename(src, self, dst)
        except OSError as exc:
            if exc.errno != errno.ENOTEMPTY:
                raise
            self.remove_tree(dst)
            self._rename(src, self, dst)

    def _rename(self, src: str, into: Dir, dst: str) -> None:
        if self.fd is None or into.fd is None:
            self._verify()
            into._verify()
            os.replace(self.path / _name(src), into.path / _name(dst))
        else:
            os.replace(_name(src), _name(dst), src_dir_fd=self.fd, dst_dir_fd=into.fd)

    def rename_into(self, src: str, into: Dir, dst: str) -> None:
        """Move `src` from this folder to `dst` in `into` (the same file system)."""
        self._rename(src, into, dst)

    def fsync(self) -> None:
        """The folder's entries on disk (a rename, a new file)."""
        with contextlib.suppress(OSError):
            if self.fd is not None:
                os.fsync(self.fd)
                return
            fd = os.open(self.path, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)

    # -- removing ----------------------------------------------------------------------

    def unlink(self, name: str) -> None:
        """Remove the file or link `name` (a link itself, never what it points to)."""
        if self.fd is None:
            self._verify()
            path = self.path / _name(name)
            st = os.lstat(path)
            if is_link(st) and stat.S_ISDIR(st.st_mode):  # a Windows folder link or junction
                os.rmdir(path)
            else:
                os.unlink(path)
            return
        os.unlink(_name(name), dir_fd=self.fd)

    def rmdir(self, name: str) -> None:
        if self.fd is None:
            self._verify()
            os.rmdir(self.path / _name(name))
            return
        os.rmdir(_name(name), dir_fd=self.fd)

    def remove_tree(self, name: str, depth: int = MAX_TREE_DEPTH) -> None:
        """Remove `name` from this folder: a file or a link is unlinked (never what a link
        points to), a folder emptied the same way first, never deeper than `depth`.
        What cannot be removed is left."""
        try:
            st = self.lstat(name)
        except OSError:
            return
        if not is_folder(st):
            with contextlib.suppress(OSError):
                self.unlink(name)
            return
        try:
            inner = self.sub(name)
        except (OSError, SyncRefused):  # swapped for something else meanwhile
            with contextlib.suppress(OSError):
                self.unlink(name)
            return
        with inner:
            if depth > 0:
                for child, _st in inner.scan():
                    inner.remove_tree(child, depth - 1)
        with contextlib.suppress(OSError):
            self.rmdir(name)

    # -- measuring ---------------------------------------------------------------------

    def size(self, depth: int = 2) -> int:
        """The bytes of the regular files in this folder and the real folders in it, to
        `depth` levels (links and anything else not counted)."""
        total = 0
        for name, st in self.scan():
            if is_file(st):
                total += st.st_size
            elif is_folder(st) and depth > 0:
                with contextlib.suppress(OSError, SyncRefused), self.sub(name) as inner:
                    total += inner.size(depth - 1)
        return total


def copy_file(src: Dir, name: str, dst: Dir, cap: int) -> int:
    """Copy the regular file `name` of `src` (within `cap`) into a new file of the same
    name in `dst`. Unsafe for anything else; nothing is followed on either side."""
    with src.reader(name, cap) as reader:
        return dst.write_new(name, reader.chunks())
