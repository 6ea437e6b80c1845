"""Sync while the window is open: the passes in the background, the line in the status
bar ("Synced with laptop 2 min ago"; its words are ui/sync_words.py), and everything
Settings > Sync does (ui/sync_ui.py asks this controller, never the service).

A pass runs about every 10 seconds, and about 2 seconds after a change made here (the
core's announcements say so), off the GUI thread and never two at once. What a pass
brings in, the core announces like any other change: the memory browser and the
conversation list refresh themselves. Everything goes through the application service
(`service.sync`), off the GUI thread.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import shiboken6
from PySide6.QtCore import QCoreApplication, QLocale, QObject, QSysInfo, QTimer, Signal
from PySide6.QtGui import QGuiApplication

from desktop_mem.core import events as core_events
from desktop_mem.core.errors import DesktopMemError
from desktop_mem.ui import tasks
from desktop_mem.ui.context import Context
from desktop_mem.ui.sync_watch import FolderWatch
from desktop_mem.ui.sync_words import SyncWords

PASS_MS = 10_000  # a pass about this often while the window is open
SOON_MS = 2_000  # and this long after a change made here (more changes wait with it)
LABEL_MS = 30_000  # "2 min ago" is written again this often


def deleted_elsewhere(ctx: Context) -> str:
    """What a delete confirmation adds when the profile syncs: what is deleted here goes
    from the other computers too, named as the sync controller last read them (off the
    GUI thread: reading them goes to the sync folder, which may be slow or hung); ""
    when it does not sync."""
    if not ctx.app.sync.enabled:
        return ""
    if not ctx.sync_peers:
        return QCoreApplication.translate(
            "SyncWords",
            "This profile syncs: what you delete here goes from your other computers too.",
        )
    return QCoreApplication.translate(
        "SyncWords", "This profile syncs: what you delete here goes from %1 too."
    ).replace("%1", QLocale().createSeparatedList(list(ctx.sync_peers)))


def default_computer_name() -> str:
    """This computer's name as the system has it, without a domain."""
    name = QSysInfo.machineHostName().split(".")[0].strip()
    return name[:40] or QGuiApplication.translate("sync", "this computer")


class SyncController(QObject):
    """Runs the passes while the window is open and says how sync stands."""

    changed = Signal()  # the status line changed (a pass began or ended, sync on or off)
    passed = Signal(object)  # a pass ended (core.sync's Pass)
    progress = Signal(int, int, str)  # a large file: records applied, in it, from whom
    # sync turned on or off, or a computer removed, renamed or moved (the core's
    # sync_changed, said once the controller has taken it in)
    sync_changed = Signal(str)
    _local = Signal()  # from any thread: something changed here

    def __init__(self, context: Context, pass_ms: int = PASS_MS, soon_ms: int = SOON_MS) -> None:
        super().__init__(context.view)
        self.ctx = context
        self.app = context.app
        self.words = SyncWords(self)
        self.running = False
        self.again = False  # a change came during a pass: another one after it
        self.error = ""  # the last pass's failure, in the window's words
        self._info: dict[str, Any] = {"enabled": False}
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

    @property
    def info(self) -> dict[str, Any]:
        """How sync stands, as last read off the GUI thread (core: Syncer.info)."""
        return self._info

    @info.setter
    def info(self, info: dict[str, Any]) -> None:
        self._info = info
        me = info.get("device")
        self.ctx.sync_peers = tuple(
            str(c["name"])
            for c in info.get("computers") or []
            if c.get("device") != me and not c.get("removed") and c.get("name")
        )

    # -- when -------------------------------------------------------------------------

    def _hear(self, event: core_events.Event) -> None:
        """On the thread that made the change: one the sync made is not a change here."""
        if isinstance(event, core_events.SyncProgress):  # from the pass's thread
            self.progress.emit(event.done, event.total, event.peer)
            return
        if event.origin == core_events.SYNC:
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
        elif state in ("removed", "renamed", "moved") or (state == "synced" and not self.running):
            # a computer taken out leaves the line now, not at the next pass; a pass made
            # elsewhere (the service called directly) is read as one of its own would be
            self._read_info()
        self.sync_changed.emit(state)

    def _read_info(self) -> None:
        """How sync stands, read again off the GUI thread (no pass)."""
        sync = self.app.sync

        def work() -> dict[str, Any]:
            return sync.info() if sync.enabled else {"enabled": False}

        def done(info: dict[str, Any]) -> None:
            if not shiboken6.isValid(self):  # the window closed while it was read
                return
            if not self.running:  # a pass that runs says it when it ends
                self.info = info
                self.changed.emit()

        tasks.run(work, done=done, failed=lambda _text: None)

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
            result = sync.now()
            return result, sync.info()

        def done(out: tuple[Any, dict[str, Any]]) -> None:
            if not shiboken6.isValid(self):  # the window closed while the pass ran
                return
            result, self.info = out
            self._ended()  # the status bar's own line first: a message goes beside it
            stuck = [str(at.get("name") or "") for at in self.info.get("stuck") or []]
            refused = self.words.refused([n for n in stuck if n]) if result.refused else ""
            self._set_error(refused)
            both = int(result.to_dict().get("conflicts") or 0)
            if both:
                self.ctx.hub.status.emit(self.words.edited_on_both(both), 30000)
            for j in result.joined:
                self.ctx.hub.status.emit(self.words.joined(j), 30000)
            if result.let_in:
                waited = self.info.get("computers", [])
                name = next((c["name"] for c in waited if c.get("device") == result.let_in_by), "")
                self.ctx.hub.status.emit(self.words.let_in(name or "?"), 30000)
            if result.applied.lost:  # what the merge dropped, said once
                self.ctx.hub.status.emit(
                    self.words.lost_after_pass(self._lost_groups(result.applied.lost)), 30000
                )
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
        computers, removed = self._computers()
        if not computers:
            return self.words.synced([], None, now, removed)
        # "synced with desktop" only once desktop has taken in everything written here
        # (as its own status says), not when this computer has read everything it wrote
        parts = [
            self.words.cannot_read(str(c["name"])) if c.get("stuck") else
            self.words.not_received(str(c["name"]), int(c.get("missing") or 0),
                                    c.get("missing_since"), now)
            for c in computers
            if not c.get("up_to_date", True)
        ]  # fmt: skip
        synced = [c for c in computers if c.get("up_to_date", True)]
        if synced:
            stamps = [str(c.get("synced_at") or "") for c in synced]
            when = max(stamps) or self.info.get("last_pass")
            parts.append(self.words.synced([str(c["name"]) for c in synced], when, now))
        parts += [self.words.not_arrived(str(c["name"])) for c in computers if c.get("behind")]
        return " · ".join(parts)

    def status_tip(self) -> str:
        """The status line's tooltip: the failure's sentence, or the line with what the
        user can do about what it says."""
        if self.error and not self.running:
            return self.error
        text = self.status_text()
        advice = self.advice()
        return self.words.sentences([text, advice]) if advice else text

    def advice(self) -> str:
        """What the user can do when another computer lacks this one's changes, or its
        own have not all arrived here; "" when there is nothing to do."""
        if self.running or self.error or not self.info.get("enabled"):
            return ""
        computers, _removed = self._computers()
        lagging = [str(c["name"]) for c in computers if not c.get("up_to_date", True)]
        behind = [str(c["name"]) for c in computers if c.get("behind")]
        return self.words.advice(lagging, behind)

    def _lost_groups(self, pairs: list[tuple[str, str]]) -> list[tuple[str, str, int]]:
        names = {str(c.get("device")): str(c.get("name")) for c in self.info.get("computers", [])}
        counts: dict[tuple[str, str], int] = {}
        for kind, device in pairs:
            key = (kind, names.get(device) or device[:8])
            counts[key] = counts.get(key, 0) + 1
        return [(kind, name, n) for (kind, name), n in counts.items()]

    def _computers(self) -> tuple[list[dict[str, Any]], bool]:
        """The other computers that sync, and whether one was taken out."""
        computers = [
            c for c in self.info.get("computers", []) if c.get("device") != self.info.get("device")
        ]
        live = [c for c in computers if not c.get("removed")]
        return live, any(c.get("removed") for c in computers)

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
            result = fn()  # what it writes is the sync's (the service says so)
            # a join's: which recovery code opens this profile now (the core says)
            recovery = getattr(result, "recovery", None)
            return {**sync.info(), "counts": app.counts(), "recovery": recovery}

        def ok(info: dict[str, Any]) -> None:
            if not shiboken6.isValid(self):  # the window closed while it was set up
                return
            self.info = info
            self.error = ""
            self._ended()
            done(info)

        def bad(text: str) -> None:
            if not shiboken6.isValid(self):
                return
            self._ended()
            failed(text)

        tasks.run(work, done=ok, failed=bad)

    def read_page(
        self, done: Callable[[dict[str, Any]], None], failed: Callable[[str], None]
    ) -> None:
        """What Settings > Sync shows, read off the GUI thread: how sync stands, what
        merges dropped, and (on) the memories edited on two computers at once; (off)
        whether this profile is empty enough to join."""
        app = self.app

        def work() -> dict[str, Any]:
            names = app.sync.origin_names()
            lost = [x.to_dict(names) for x in app.sync.lost()]
            if not app.sync.enabled:
                empty = app.memories.count() == 0 and not app.conversations.list(limit=1)
                return {"enabled": False, "empty": empty, "name": app.sync.computer_name(),
                        "lost_items": lost}  # fmt: skip
            info = {**app.sync.info(), "lost_items": lost}
            conflicts = app.sync.conflicts()
            unseen = [c[0] for c in app.sync.conflicts(unseen_only=True)]
            texts = {}
            for memory_id, _device, _at in conflicts:
                try:
                    texts[memory_id] = app.memories.get(memory_id).text
                except DesktopMemError:  # deleted since: listed without its text
                    texts[memory_id] = ""
            return {
                **info, "conflict_list": conflicts, "conflict_texts": texts,
                "conflict_unseen": unseen,
            }  # fmt: skip

        tasks.run(work, done=done, failed=failed)

    def without_recovery_code(self) -> bool:
        """Whether a passphrase opens this profile: then there is no recovery code for
        another computer to join with, only a pairing code."""
        return bool(self.app.keys.mode == "passphrase")

    def rename(self, name: str, done: Callable[[Any], None], failed: Callable[[str], None]) -> None:
        tasks.run(self.app.sync.rename, name, done=done, failed=failed)

    def remove(
        self, device: str, done: Callable[[Any], None], failed: Callable[[str], None]
    ) -> None:
        """Take another computer out of the sync (a new key it is not given)."""
        tasks.run(self.app.sync.remove, device, done=done, failed=failed)

    def offer_pairing(self, done: Callable[[str], None], failed: Callable[[str], None]) -> None:
        """A pairing code another computer joins with, within the hour."""
        tasks.run(self.app.sync.offer_pairing, done=done, failed=failed)

    def turn_off(self, done: Callable[[Any], None], failed: Callable[[str], None]) -> None:
        tasks.run(self.app.sync.turn_off, done=done, failed=failed)

    def mark_conflicts_seen(
        self, done: Callable[[Any], None], failed: Callable[[str], None]
    ) -> None:
        """The memories edited on two computers at once were looked at."""
        tasks.run(self.app.sync.mark_conflicts_seen, done=done, failed=failed)

    def keep_lost(
        self, lost_id: int, done: Callable[[Any], None], failed: Callable[[str], None]
    ) -> None:
        """What a merge dropped, added back as a new memory."""
        tasks.run(self.app.sync.keep_lost, lost_id, done=done, failed=failed)

    def dismiss_lost(
        self, lost_ids: list[int], done: Callable[[Any], None], failed: Callable[[str], None]
    ) -> None:
        """What a merge dropped, deleted for good."""
        tasks.run(self.app.sync.dismiss_lost, lost_ids, done=done, failed=failed)
