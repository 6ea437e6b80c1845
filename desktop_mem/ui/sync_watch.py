"""Watching the sync folder while the window is open: a file another computer wrote is
taken in about a quarter of a second after the engine puts it in place, instead of at
the next pass of the timer (up to 10 seconds later).

The system tells us (inotify, FSEvents, ReadDirectoryChangesW: QFileSystemWatcher),
so waiting costs nothing. Only the folders others write are watched: the profile's
folder (a new computer's folder, pairing offers), keys/, and each other computer's
folder; never this computer's own (what a pass writes there is not news). A burst of
changes (an engine writes a temporary file, then renames it) makes one pass.
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QFileSystemWatcher, QObject, QTimer, Signal

SETTLE_MS = 250  # a burst of changes (a temporary file, then its rename) is one


class FolderWatch(QObject):
    """Says `arrived` once a burst of changes in the folders others write has settled."""

    arrived = Signal()

    def __init__(self, parent: QObject | None = None, settle_ms: int = SETTLE_MS) -> None:
        super().__init__(parent)
        self._watcher = QFileSystemWatcher(self)
        self._watcher.directoryChanged.connect(self._changed)
        self._settle = QTimer(self)
        self._settle.setSingleShot(True)
        self._settle.setInterval(settle_ms)
        self._settle.timeout.connect(self._settled)
        self.root: Path | None = None
        self.own: str | None = None

    def watch(self, root: Path | None, own: str | None) -> None:
        """Watch a profile's sync folder (`root`, desktop-mem-<id>) but this computer's
        own folder in it (`own`, its id); None stops watching."""
        if (root, own) == (self.root, self.own):
            self._follow()
            return
        self.stop()
        self.root, self.own = root, own
        self._follow()

    def stop(self) -> None:
        paths = self._watcher.directories()
        if paths:
            self._watcher.removePaths(paths)
        self._settle.stop()
        self.root = self.own = None

    def _wanted(self) -> set[str]:
        """The real folders (never a link) others write into."""
        root = self.root
        if root is None or not _real_folder(root):
            return set()
        wanted = {str(root)}
        try:
            names = [e.name for e in os.scandir(root)]
        except OSError:
            return wanted
        for name in names:
            if name != self.own and _real_folder(root / name):
                wanted.add(str(root / name))
        return wanted

    def _follow(self) -> None:
        """Watch what is there now: a computer's folder that appeared, keys/ once made."""
        wanted = self._wanted()
        have = set(self._watcher.directories())
        if wanted - have:
            self._watcher.addPaths(sorted(wanted - have))
        if have - wanted:
            self._watcher.removePaths(sorted(have - wanted))

    def _changed(self, _path: str) -> None:
        self._settle.start()  # restarted by each change of a burst

    def _settled(self) -> None:
        self._follow()
        self.arrived.emit()


def _real_folder(path: Path) -> bool:
    try:
        return Path(path).is_dir() and not Path(path).is_symlink()
    except OSError:
        return False


__all__ = ["SETTLE_MS", "FolderWatch"]
