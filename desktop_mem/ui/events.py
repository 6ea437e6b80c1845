"""The core's announcements (core/events.py) as Qt signals, on the window's thread.

The core says what changed on whichever thread changed it (learning in the background,
an import, the window's own edit); this adapter, napari's pattern for its evented
models, receives each announcement and re-emits it as a signal of a QObject that lives
on the GUI thread, so every slot runs there. Announcements of the same kind that come
together (a pass that changes 40 memories, an import) are delivered once, on the next
turn of the event loop: one refresh, not forty.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer, Signal

from desktop_mem.core import events as core


class CoreSignals(QObject):
    memories_changed = Signal()  # memories were added, changed or removed
    conversations_changed = Signal()
    # which were: the memories removed, the conversations changed or removed (each a
    # tuple of ids; empty: every one), for a view that shows some of them
    memories_removed = Signal(object)
    conversations_touched = Signal(object)
    documents_changed = Signal()
    setting_changed = Signal(str)  # a setting's key
    backend_changed = Signal(str)  # the chat model now
    learning_changed = Signal()  # what waits to be learned from changed
    about_changed = Signal()  # the "about you" profile was rewritten, edited or a line removed
    turn_learned = Signal(object, object)  # an answer's id, what it taught (Learned)
    conversation_titled = Signal(int, bool)  # a conversation, whether the model named it
    server_observed = Signal(object)  # what the server said after a turn, or None
    sync_changed = Signal(str)  # sync's state: "on", "off", "synced", "error", ...
    proposals_changed = Signal()  # facts found in imported history: added or decided
    apps_changed = Signal()  # apps over MCP: registered, changed (a level, a key, a use), removed
    spaces_changed = Signal()  # spaces: made, renamed, changed (instruction, kept apart), taken out
    # the key, what opens it (the recovery code) or where it is kept, changed: how
    # (core.events.KeyChange: "opens", "rekeyed", "restored")
    key_changed = Signal(str)
    _arrived = Signal()  # from any thread: something waits to be delivered

    def __init__(
        self,
        events: core.Events,
        parent: QObject | None = None,
        is_open: Callable[[], bool] | None = None,
    ) -> None:
        super().__init__(parent)
        # whether the profile is still open: what arrived just before it closed (a
        # rekey, a restore, a quit) is not delivered to views that would read it
        self._is_open = is_open
        self._lock = threading.Lock()
        self._waiting: list[core.Event] = []
        self._flush = QTimer(self)
        self._flush.setSingleShot(True)
        self._flush.setInterval(0)
        self._flush.timeout.connect(self._deliver)
        self._arrived.connect(self._flush.start)  # queued to this object's thread
        unsubscribe = self._unsubscribe = events.subscribe(self._receive)
        self.destroyed.connect(lambda *_: unsubscribe())

    def stop(self) -> None:
        """Hear nothing more (the window closes)."""
        self._unsubscribe()

    def _receive(self, event: core.Event) -> None:
        with self._lock:
            self._waiting.append(event)
        self._arrived.emit()

    def _deliver(self) -> None:
        with self._lock:
            waiting, self._waiting = self._waiting, []
        if self._is_open is not None and not self._is_open():
            return
        kinds: set[type[core.Event]] = set()
        removed: set[int] | None = set()  # None: every memory
        touched: set[int] | None = set()  # None: every conversation
        for event in waiting:
            if isinstance(event, core.MemoriesChanged) and event.change == "removed":
                removed = None if removed is None or not event.ids else removed | set(event.ids)
            if isinstance(event, core.ConversationsChanged):
                touched = None if touched is None or not event.ids else touched | set(event.ids)
            if isinstance(event, core.TurnLearned):
                self.turn_learned.emit(event.answer_id, event.learned)
            elif isinstance(event, core.ConversationTitled):
                self.conversation_titled.emit(event.conversation_id, event.named)
            elif isinstance(event, core.ServerObserved):
                self.server_observed.emit(event.problem)
            elif isinstance(event, core.SettingChanged):
                self.setting_changed.emit(event.key)
            elif isinstance(event, core.BackendChanged):
                self.backend_changed.emit(event.model)
            elif isinstance(event, core.SyncChanged):
                self.sync_changed.emit(event.state)
            elif isinstance(event, core.KeyChanged):
                self.key_changed.emit(event.how)
            else:
                kinds.add(type(event))
        if removed is None or removed:
            self.memories_removed.emit(tuple(sorted(removed or ())))
        if touched is None or touched:
            self.conversations_touched.emit(tuple(sorted(touched or ())))
        # a change of each kind, said once however many arrived together
        for kind, signal in (
            (core.MemoriesChanged, self.memories_changed),
            (core.ConversationsChanged, self.conversations_changed),
            (core.DocumentsChanged, self.documents_changed),
            (core.LearningChanged, self.learning_changed),
            (core.AboutChanged, self.about_changed),
            (core.ProposalsChanged, self.proposals_changed),
            (core.AppsChanged, self.apps_changed),
            (core.SpacesChanged, self.spaces_changed),
        ):
            if kind in kinds:
                signal.emit()
