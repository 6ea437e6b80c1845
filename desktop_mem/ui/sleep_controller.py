"""Owns sleep-time consolidation in the window: the idle timer, the pass, its stop.

When nobody has typed for `idle_ms` and a pass is due (core/chat/sleep.py), the core's
idle pass (Service.memories.idle_pass: what waits to be learned from, then the whole
store, then imported messages read for facts) runs in the background at the lowest thread priority; any key in the composer,
or a turn starting, asks it to stop at once. What it changed is reported through
`finished` (the window shows a quiet status line; every change is a version in the
memory's history, so it can be undone there).
"""

from __future__ import annotations

import threading

from PySide6.QtCore import QObject, QThread, QTimer, Signal

from desktop_mem.core.service.memories import IdlePass
from desktop_mem.ui import tasks
from desktop_mem.ui.context import Context

IDLE_MS = 5 * 60 * 1000  # five quiet minutes


class SleepController(QObject):
    finished = Signal(list)  # the changes, once a pass has run (to its end or stopped)

    def __init__(self, context: Context, idle_ms: int = IDLE_MS) -> None:
        super().__init__(context.view)
        self.ctx = context
        self._stop = threading.Event()
        self.running = False
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(idle_ms)
        self.timer.timeout.connect(self.run_if_due)
        self.timer.start()
        context.chat.busy_changed.connect(self.user_active)  # a turn starts: stop at once

    def _busy(self) -> bool:
        return self.ctx.chat.busy

    def user_active(self, *_: object) -> None:
        """The user is here: stop a running pass, and count the quiet time anew."""
        if self.running:
            self._stop.set()
        self.timer.start()

    def run_if_due(self) -> bool:
        memories = self.ctx.app.memories
        if self.running or self.ctx.chat.incognito or self._busy() or not memories.idle_due():
            self.timer.start()
            return False
        self.running = True
        self._stop.clear()
        tasks.run(self._pass, done=self._done, failed=self._failed)
        return True

    def _pass(self) -> IdlePass:
        thread = QThread.currentThread()
        thread.setPriority(QThread.Priority.LowestPriority)
        try:
            return self.ctx.app.memories.idle_pass(should_stop=self._stop.is_set)
        finally:
            thread.setPriority(QThread.Priority.NormalPriority)

    def _done(self, result: IdlePass) -> None:
        self.running = False
        self.timer.start()
        self.finished.emit(result.changes)
        # facts found in imported history are said by the import's own line in the
        # status bar ("3 facts found in your imported conversations: Review"), which
        # the core's announcement of them updates

    def _failed(self, *_: object) -> None:
        # the model server was away, say: try again after the next quiet spell
        self.running = False
        self.timer.start()
