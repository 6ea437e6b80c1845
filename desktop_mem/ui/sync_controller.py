"""Sync while the window is open: the passes in the background, and the line in the
status bar with its words ("Synced with laptop 2 min ago").

A pass runs about every 10 seconds, and about 2 seconds after a change made here (the
core's announcements say so), off the GUI thread and never two at once. What a pass
brings in, the core announces like any other change: the memory browser and the
conversation list refresh themselves. Everything goes through the application service
(`service.sync`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import shiboken6
from PySide6.QtCore import QObject, QSysInfo, QTimer, Signal
from PySide6.QtGui import QGuiApplication

from desktop_mem.core import events as core_events
from desktop_mem.ui import tasks
from desktop_mem.ui.context import Context
from desktop_mem.ui.sync_watch import FolderWatch

PASS_MS = 10_000  # a pass about this often while the window is open
SOON_MS = 2_000  # and this long after a change made here (more changes wait with it)
LABEL_MS = 30_000  # "2 min ago" is written again this often


def default_computer_name() -> str:
    """This computer's name as the system has it, without a domain."""
    name = QSysInfo.machineHostName().split(".")[0].strip()
    return name[:40] or QGuiApplication.translate("sync", "this computer")


def _parse(stamp: str | None) -> datetime | None:
    if not stamp:
        return None
    try:
        when = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return None
    return when if when.tzinfo else when.replace(tzinfo=UTC)


class SyncWords(QObject):
    """Sync in a few words. A QObject for its tr(): lupdate reads counted strings (the
    singular and plural forms) from tr() calls in a class."""

    def ago(self, stamp: str | None, now: datetime | None = None) -> str:
        """When, from now: "just now", "5 min ago", "3 hours ago", or the date."""
        when = _parse(stamp)
        if when is None:
            return self.tr("never")
        seconds = ((now or datetime.now(UTC)) - when).total_seconds()
        if seconds < 60:
            return self.tr("just now")
        if seconds < 3600:
            return self.tr("%n min ago", "", int(seconds // 60))
        if seconds < 86400:
            return self.tr("%n hour(s) ago", "", int(seconds // 3600))
        return when.astimezone().strftime("%Y-%m-%d %H:%M")

    def synced(
        self,
        names: list[str],
        stamp: str | None,
        now: datetime | None = None,
        removed: bool = False,
    ) -> str:
        """The status bar's line after a pass (`removed`: computers were taken out)."""
        if not names:
            if removed:  # one did join; it was taken out
                return self.tr("Sync on · no other computer syncs now")
            return self.tr("Sync on · no other computer has joined yet")
        return (
            self.tr("Synced with %1 %2")
            .replace("%1", ", ".join(names))
            .replace("%2", self.ago(stamp, now))
        )

    def conflicts(self, n: int) -> str:
        return self.tr("%n memory(s) were edited on two computers at once", "", n)

    def edited_on_both(self, n: int) -> str:
        """Said once, after the pass that found them."""
        return self.tr(
            "%n memory(s) were edited on two computers at once: the other version is in its "
            "history (Settings > Sync lists them).",
            "",
            n,
        )

    def joined(self, j: dict[str, Any]) -> str:
        """Said once, on every computer, when a computer is first seen in the sync: so
        that one let in by someone else (or by a code seen over a shoulder) is noticed."""
        name = str(j.get("name") or "")
        by = str(j.get("by_name") or "")
        if j.get("via") == "recovery":
            if name:
                return self.tr("%1 joined the sync with the recovery code.").replace("%1", name)
            return self.tr("A computer joined the sync with the recovery code.")
        if j.get("via") == "pair" and j.get("offered_at"):
            at = datetime.fromtimestamp(int(j["offered_at"])).strftime("%H:%M")
            if name:
                return (
                    self.tr("%1 joined the sync with the pairing code shown on %2 at %3.")
                    .replace("%1", name).replace("%2", by).replace("%3", at)
                )  # fmt: skip
            return (
                self.tr("A computer joined the sync with the pairing code shown on %1 at %2.")
                .replace("%1", by).replace("%2", at)
            )  # fmt: skip
        if name:
            return self.tr("%1 joined the sync.").replace("%1", name)
        return self.tr("A computer joined the sync.")

    def let_in(self, name: str) -> str:
        return self.tr("This computer is in the sync now: %1 let it in.").replace("%1", name)

    def waiting(self, name: str) -> str:
        return self.tr("Waiting for %1 to let this computer in").replace("%1", name)

    def ignored(self, n: int) -> str:
        """Files an earlier pass refused for what they are, left alone since."""
        return self.tr(
            "%n file(s) in the sync folder are ignored: each was refused once for what it "
            "is (a link, a FIFO, too large, or not this profile's), and is not read again "
            "until it changes.",
            "",
            n,
        )

    def refused(self) -> str:
        return self.tr(
            "A file in the sync folder was refused (changed, cut short or from another "
            "profile): nothing of it was applied. If it goes on, remove that computer and join "
            "it again."
        )


class SyncController(QObject):
    """Runs the passes while the window is open and says how sync stands."""

    changed = Signal()  # the status line changed (a pass began or ended, sync on or off)
    passed = Signal(object)  # a pass ended (core.sync's Pass)
    progress = Signal(int, int, str)  # a large file: records applied, in it, from whom
    _local = Signal()  # from any thread: something changed here

    def __init__(self, context: Context, pass_ms: int = PASS_MS, soon_ms: int = SOON_MS) -> None:
        super().__init__(context.view)
        self.ctx = context
        self.app = context.app
        self.words = SyncWords(self)
        self.running = False
        self.again = False  # a change came during a pass: another one after it
        self.error = ""  # the last pass's failure, in the window's words
        self.info: dict[str, Any] = {"enabled": False}
        self._pass_thread: int | None = None  # the thread a pass runs on (its own changes)
        self.taken_in: tuple[int, int, str] | None = None  # a large file's progress
        self.timer = QTimer(self)
        self.timer.setInterval(pass_ms)
        self.timer.timeout.connect(self.run_pass)
        self.soon = QTimer(self)
        self.soon.setSingleShot(True)
        self.soon.setInterval(soon_ms)
        self.soon.timeout.connect(self.run_pass)
        self.label_timer = QTimer(self)
        self.label_timer.setInterval(LABEL_MS)
        self.label_timer.timeout.connect(self.changed)
        # a file another computer wrote, put in place by the engine: taken in at once
        self.folder_watch = FolderWatch(self)
        self.folder_watch.arrived.connect(self._arrived)
        self._arrived_meanwhile = False
        self._local.connect(self._changed_here)
        self.progress.connect(self._progressed)
        unsubscribe = self.app.events.subscribe(self._hear)
        context.core.sync_changed.connect(self._sync_changed)
        self.destroyed.connect(lambda *_: unsubscribe())  # not self: it is going
        if self.app.sync.enabled:
            self._start()

    # -- when -------------------------------------------------------------------------

    def _hear(self, event: core_events.Event) -> None:
        """On the thread that made the change: one made by a pass is not a change here."""
        if isinstance(event, core_events.SyncProgress):  # from the pass's thread
            self.progress.emit(event.done, event.total, event.peer)
            return
        if threading.get_ident() == self._pass_thread:
            return
        if isinstance(
            event,
            core_events.MemoriesChanged
            | core_events.ConversationsChanged
            | core_events.SettingChanged,
        ):
            self._local.emit()

    def _changed_here(self) -> None:
        if self.timer.isActive():  # sync is on
            self.soon.start()  # restarted by each change: one pass after a burst

    def _sync_changed(self, state: str) -> None:
        if state == "on" and not self.timer.isActive():
            self._start()
        elif state == "off":
            self.stop()
            self.info = {"enabled": False}
            self.error = ""
            self.changed.emit()

    def _start(self) -> None:
        self.timer.start()
        self.label_timer.start()
        self.run_pass()

    def stop(self) -> None:
        """No more passes (sync turned off, the window closes)."""
        self.timer.stop()
        self.soon.stop()
        self.label_timer.stop()
        self.folder_watch.stop()

    def _arrived(self) -> None:
        """Something another computer wrote is in the folder: a pass now (or, if one
        runs, right after it)."""
        if not self.timer.isActive():
            return
        if self.running:
            self._arrived_meanwhile = True
            return
        self.run_pass()

    def _watch(self) -> None:
        root, device = self.info.get("root"), self.info.get("device")
        if self.timer.isActive() and root and device and not self.info.get("removed"):
            self.folder_watch.watch(Path(str(root)), str(device))
        else:
            self.folder_watch.stop()

    # -- a pass -----------------------------------------------------------------------

    def run_pass(self, then: Callable[[], None] | None = None) -> bool:
        """A pass in the background, unless one runs (then one more follows it)."""
        if self.app.keys.closed:  # the profile was closed (a rekey, a restore, a quit)
            self.stop()
            return False
        if self.running:
            self.again = True
            return False
        if not self.app.sync.enabled:
            self.stop()
            return False
        self.soon.stop()
        self.running = True
        self.again = False
        self.changed.emit()
        sync = self.app.sync

        def work() -> tuple[Any, dict[str, Any]]:
            self._pass_thread = threading.get_ident()
            try:
                result = sync.now()
                return result, sync.info()
            finally:
                self._pass_thread = None

        def done(out: tuple[Any, dict[str, Any]]) -> None:
            if not shiboken6.isValid(self):  # the window closed while the pass ran
                return
            result, self.info = out
            self._ended()  # the status bar's own line first: a message goes beside it
            self._set_error(self.words.refused() if result.refused else "")
            both = int(result.to_dict().get("conflicts") or 0)
            if both:
                self.ctx.hub.status.emit(self.words.edited_on_both(both), 30000)
            for j in result.joined:
                self.ctx.hub.status.emit(self.words.joined(j), 30000)
            if result.let_in:
                waited = self.info.get("computers", [])
                name = next((c["name"] for c in waited if c.get("device") == result.let_in_by), "")
                self.ctx.hub.status.emit(self.words.let_in(name or "?"), 30000)
            self.passed.emit(result)
            if then is not None:
                then()

        def failed(text: str) -> None:
            if not shiboken6.isValid(self):
                return
            self._ended()
            self._set_error(text)

        tasks.run(work, done=done, failed=failed)
        return True

    def _set_error(self, text: str) -> None:
        """A failure is said once in full in the status bar (the same one again, pass
        after pass, is not); the short line stays while it lasts."""
        if text and text != self.error:
            self.error = text
            self.changed.emit()  # "Not synced: see Settings > Sync", then the sentence
            self.ctx.hub.status.emit(text, 30000)
        elif text != self.error:
            self.error = text
            self.changed.emit()

    def _progressed(self, done: int, total: int, peer: str) -> None:
        self.taken_in = (done, total, peer) if self.running and done < total else None
        self.changed.emit()

    def _ended(self) -> None:
        if not shiboken6.isValid(self):  # the window closed while a pass ran: it is done
            return
        self.running = False
        self.taken_in = None
        self.changed.emit()
        self._watch()
        if self._arrived_meanwhile and self.timer.isActive():
            self._arrived_meanwhile = False
            self.again = False
            QTimer.singleShot(0, self.run_pass)
        elif self.again and self.timer.isActive():
            self.soon.start()

    def status_text(self, now: datetime | None = None, in_settings: bool = False) -> str:
        """The status bar's line: "" when sync is off. `in_settings`: the line Settings >
        Sync shows, where the failure's sentence follows on its own line."""
        if not self.timer.isActive() and not self.running:
            return ""
        if self.running and self.taken_in is not None:
            done, total, _peer = self.taken_in
            return self.tr("Syncing… %1%").replace("%1", str(done * 100 // max(total, 1)))
        if self.running:
            return self.tr("Syncing…")
        if self.error:
            if in_settings:
                return self.tr("Not synced: the reason is below")
            return self.tr("Not synced: see Settings > Sync")
        if not self.info.get("enabled"):
            return self.tr("Sync on")
        waiting = self.info.get("waiting_for")
        if waiting:
            return self.words.waiting(str(waiting.get("name") or ""))
        computers = [
            c for c in self.info.get("computers", []) if c.get("device") != self.info.get("device")
        ]
        names = [str(c["name"]) for c in computers if not c.get("removed")]
        removed = any(c.get("removed") for c in computers)
        return self.words.synced(names, self.info.get("last_pass"), now, removed)

    # -- what Settings > Sync asks for ----------------------------------------------------

    def set_up(
        self, folder: str, name: str, done: Callable[[Any], None], failed: Callable[[str], None]
    ) -> None:
        sync = self.app.sync
        self._setting_up(lambda: sync.set_up(Path(folder), name), done, failed)

    def join(
        self,
        folder: str,
        code: str,
        name: str | None,
        done: Callable[[Any], None],
        failed: Callable[[str], None],
    ) -> None:
        sync = self.app.sync
        self._setting_up(lambda: sync.join(Path(folder), code, name), done, failed)

    def move(self, folder: str, done: Callable[[Any], None], failed: Callable[[str], None]) -> None:
        sync = self.app.sync
        self._setting_up(lambda: sync.move(Path(folder)), done, failed)

    def _setting_up(
        self, fn: Callable[[], Any], done: Callable[[Any], None], failed: Callable[[str], None]
    ) -> None:
        """Set up or join: its first pass runs in it, so no other pass meanwhile."""
        self.running = True
        self.changed.emit()
        sync = self.app.sync

        app = self.app

        def work() -> dict[str, Any]:
            self._pass_thread = threading.get_ident()
            try:
                fn()
                return {**sync.info(), "counts": app.counts()}
            finally:
                self._pass_thread = None

        def ok(info: dict[str, Any]) -> None:
            self.info = info
            self.error = ""
            self._ended()
            done(info)

        def bad(text: str) -> None:
            self._ended()
            failed(text)

        tasks.run(work, done=ok, failed=bad)
