"""Watched folders: the files of a folder and its subfolders read as they change,
never through a link, and what the user removed from one kept out of it. The folders
part of `DocumentStore` (store.py)."""

from __future__ import annotations

import builtins
import errno
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from desktop_mem.core import textproc
from desktop_mem.core.documents.files import (
    HARD_LINK,
    kind_of,
    open_nofollow,
    shown_name,
    storable_name,
)
from desktop_mem.core.documents.records import (
    AddReport,
    Document,
    Folder,
)
from desktop_mem.core.errors import NotFound
from desktop_mem.core.events import Events

if TYPE_CHECKING:
    from desktop_mem.core.db.database import Database


def _scanned(folder: Path, entry: os.DirEntry[str], refuse: Callable[[Path, str], None]) -> str:
    """What a folder's entry is to a scan: "folder" (to enter), "file" (to read) or ""
    (left out; said through `refuse` when it looks like a document or a folder)."""
    path = folder / entry.name
    if entry.name.startswith("."):
        return ""
    try:
        info = entry.stat(follow_symlinks=False)
    except OSError:
        return ""  # gone while the folder was listed
    if not storable_name(path):
        if stat.S_ISDIR(info.st_mode) or kind_of(path):
            what = "folder" if stat.S_ISDIR(info.st_mode) else "file"
            refuse(path, f"its name is not valid UTF-8 (rename the {what})")
        return ""
    if stat.S_ISLNK(info.st_mode):
        try:
            to_folder = stat.S_ISDIR(os.stat(path).st_mode)
        except OSError:
            to_folder = False
        if to_folder:
            refuse(
                path, "it is a symbolic link to a folder, and links in a folder are not followed"
            )
        elif kind_of(path):
            refuse(path, "it is a symbolic link, and links in a folder are not followed")
        return ""
    if stat.S_ISDIR(info.st_mode):
        return "folder"
    if not kind_of(path):
        return ""
    if not stat.S_ISREG(info.st_mode):
        refuse(path, "it is not a regular file (a device, FIFO or socket)")
        return ""
    if info.st_nlink > 1:
        refuse(path, HARD_LINK)
        return ""
    return "file"


def _folder_readable(folder: Path) -> bool:
    try:
        os.close(open_nofollow(folder, directory=True))
    except OSError:
        return False
    return True


def _unavailable(folder: Path, exc: OSError | None) -> str:
    why = (
        "it is now a symbolic link, which is not followed"
        if exc is not None and exc.errno in (errno.ELOOP, errno.ENOTDIR)
        else "it is gone or cannot be read (a drive not connected?)"
    )
    return (
        f"The folder {textproc.escape_controls(str(folder))} is unavailable ({why}): its "
        "documents are kept "
        "as they were; reconnect it, or stop watching it."
    )


class WatchedFolders:
    """Needs `db`, `events`, `list()`, `remove()` and `_add_file()` of the store it is
    part of."""

    db: Database
    events: Events

    def list(self) -> builtins.list[Document]:
        raise NotImplementedError

    def remove(self, doc_id: int, for_good: bool = True) -> int:
        raise NotImplementedError

    def _add_file(
        self,
        path: Path,
        folder: str | None,
        report: AddReport,
        single: bool = False,
        space: int | None = None,
    ) -> bool:
        raise NotImplementedError

    def _folder_paths(self) -> builtins.list[Path]:
        return [Path(r[0]) for r in self.db.query("SELECT path FROM doc_folders ORDER BY path")]

    def _left_out(self) -> set[str]:
        return {r[0] for r in self.db.query("SELECT path FROM doc_removed")}

    @staticmethod
    def _files_in(folder: Path, report: AddReport | None = None) -> builtins.list[Path]:
        """The document files of a folder and its subfolders. Each folder is opened by
        its parent's descriptor without following a link (a folder swapped for a link
        while it is read is not entered), links (to a folder or a file), FIFOs, devices,
        sockets and files with another name elsewhere (hard links) are never taken; each
        is said in `report`, as is a name that is not UTF-8. OSError when the folder
        itself cannot be opened (gone, unreadable, or now a link)."""
        found: builtins.list[Path] = []

        def refuse(path: Path, why: str) -> None:
            if report is not None:
                report.refused.append(f"{shown_name(path)} was not added: {why}.")

        pending = [folder]
        first = True
        while pending:
            current = pending.pop()
            try:
                fd = open_nofollow(current, directory=True)
            except OSError:
                if first:
                    raise
                refuse(current, "this folder could not be opened (gone, unreadable or a link)")
                continue
            first = False
            try:
                with os.scandir(fd) as listing:
                    entries = sorted(listing, key=lambda e: e.name)
                subfolders = []
                for entry in entries:
                    where = _scanned(current, entry, refuse)
                    if where == "folder":
                        subfolders.append(current / entry.name)
                    elif where == "file":
                        found.append(current / entry.name)
            finally:
                os.close(fd)
            pending.extend(reversed(subfolders))
        return found

    def folders(self) -> builtins.list[Folder]:
        """The watched folders, with how many documents each holds and leaves out."""
        return [
            Folder(r[0], r[1], int(r[2]), int(r[3]), r[4])
            for r in self.db.query(
                "SELECT f.path, f.added_at, "
                "(SELECT count(*) FROM documents d WHERE d.folder = f.path), "
                "(SELECT count(*) FROM doc_removed r WHERE r.folder = f.path), f.space_id "
                "FROM doc_folders f ORDER BY f.path"
            )
        ]

    def unwatch(self, folder: str | Path, keep_documents: bool = False) -> int:
        """Stop watching a folder. Its documents are removed (every trace of them), or
        with `keep_documents` kept as single files. Returns how many it held."""
        wanted = str(folder)
        found = [f for f in self.folders() if f.path == wanted]
        if not found:
            wanted = str(Path(folder).expanduser().resolve())
            found = [f for f in self.folders() if f.path == wanted]
        if not found:
            raise NotFound(
                f"{shown_name(Path(folder))} is not a watched folder: see the list of folders.",
                reason="folder_unknown",
            )
        docs = [d for d in self.list() if d.folder == wanted]
        with self.db.transaction() as conn:
            conn.execute("DELETE FROM doc_folders WHERE path = ?", (wanted,))
            conn.execute("DELETE FROM doc_removed WHERE folder = ?", (wanted,))
            if keep_documents:
                conn.execute("UPDATE documents SET folder = NULL WHERE folder = ?", (wanted,))
        if not keep_documents:
            for d in docs:
                self.remove(d.id, for_good=False)
        self.events.documents("changed")
        return len(docs)

    def sync(self, progress: Callable[[int, int], None] | None = None) -> AddReport:
        """Bring the index in line with the files: new and changed files of the watched
        folders are (re)indexed (leaving out what the user removed), documents whose
        file is gone are removed."""
        report = AddReport()
        folders = self._folder_paths()
        left_out = self._left_out()
        files: builtins.list[Path] = []
        away: set[str] = set()  # folders that could not be read: their documents stay
        for watched in folders:
            try:
                listed = self._files_in(watched, report)
            except OSError as exc:
                away.add(str(watched))
                report.unavailable.append(_unavailable(watched, exc))
                continue
            for f in listed:
                if str(f) in left_out:
                    report.left_out.append(str(f))
                else:
                    files.append(f)
        for doc in self.list():
            if doc.folder is not None and doc.folder in away:
                continue
            if doc.folder is None and not _folder_readable(Path(doc.path).parent):
                report.unavailable.append(_unavailable(Path(doc.path).parent, None))
                away.add(str(Path(doc.path).parent))
                continue
            if not os.path.lexists(doc.path):
                self.remove(doc.id, for_good=False)
                report.removed.append(doc.path)
            elif doc.folder is None and Path(doc.path) not in files:
                files.append(Path(doc.path))
        for n, path in enumerate(files, 1):
            folder = next((str(f) for f in folders if path.is_relative_to(f)), None)
            if not self._add_file(path, folder, report):
                break
            if progress:
                progress(n, len(files))
        report.unavailable = list(dict.fromkeys(report.unavailable))
        self.events.documents("changed")
        return report
