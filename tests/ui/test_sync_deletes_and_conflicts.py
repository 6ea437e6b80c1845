"""A synced profile in the window (issue 53, item 5): a delete confirmation says the
memory or conversation goes from the other computers too, naming them; the link
"Memories edited on two computers at once" filters the memory list to those memories,
and the filter can be cleared."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QMessageBox

from desktop_mem.core.memory.records import NewMemory
from desktop_mem.core.profile import Profile
from desktop_mem.core.sync.status import Status
from desktop_mem.ui.main_window import MainWindow
from desktop_mem.ui.sync_ui import SyncPage
from tests.ui.driving import ORIGINAL_QUESTION, press_in_next_box
from tests.ui.test_sync_window import WAIT, _edited_on_both, folder, idle, second  # noqa: F401


def test_delete_confirmations_name_the_other_computers(
    qtbot: Any,
    window: MainWindow,
    second: MainWindow,  # noqa: F811
    folder: Path,  # noqa: F811
    profile: Profile,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    laptop, desktop = window, second
    app = laptop.context.app
    bees = app.memories.add(NewMemory("I keep bees in Hangzhou", kind="fact")).memory
    conv = profile.conversations.create("Bees")
    profile.conversations.add_message(conv.id, "user", "How do I winter my bees?")
    monkeypatch.setattr(QMessageBox, "question", ORIGINAL_QUESTION)  # the real box
    seen: list[str] = []
    press_in_next_box(Qt.Key.Key_Return, seen)  # Enter: No, nothing deleted
    laptop.memories.delete_memories([bees.id])
    assert "other computers" not in seen[0] and "syncs" not in seen[0], "not synced yet"

    app.sync.set_up(folder, "laptop")
    desktop.context.app.sync.join(folder, profile.db.new_recovery_code, "desktop")
    idle(qtbot)
    for w in (laptop, desktop):
        w.syncing.stop()
    idle(qtbot)
    app.sync.now()  # the laptop reads the desktop's name (its window, off the GUI thread)
    qtbot.waitUntil(lambda: laptop.context.sync_peers == ("desktop",), timeout=WAIT)
    # the other computers are never read on the GUI thread (the sync folder may hang)
    on_gui_thread: list[str] = []
    peers = Status.peers

    def watched(self: Status) -> Any:
        if threading.current_thread() is threading.main_thread():
            on_gui_thread.append("peers")
        return peers(self)

    monkeypatch.setattr(Status, "peers", watched)
    press_in_next_box(Qt.Key.Key_Return, seen)
    laptop.memories.delete_memories([bees.id])
    said = "This profile syncs: what you delete here goes from desktop too."
    assert seen[1].startswith("Delete 1 memory for good") and said in seen[1]
    press_in_next_box(Qt.Key.Key_Return, seen)
    laptop.conversations.delete_conversation(conv.id)
    assert seen[2].startswith("Delete this conversation for good") and said in seen[2]
    assert app.memories.count() == 1, "No was the answer"
    assert on_gui_thread == []


def test_the_conflicts_link_filters_the_memory_list(
    qtbot: Any,
    window: MainWindow,
    second: MainWindow,  # noqa: F811
    folder: Path,  # noqa: F811
    profile: Profile,
) -> None:
    w, memory_id = _edited_on_both(qtbot, window, second, folder, profile.db.new_recovery_code)
    app = w.context.app
    app.memories.add(NewMemory("I like rowing", kind="fact"))
    app.sync.mark_conflicts_seen()  # looked at before: the quiet link stays
    browser = w.browser
    w.memories.refresh_memories()
    qtbot.waitUntil(lambda: browser.model.rowCount() == 2, timeout=WAIT)
    w.show_page("chat")
    seen: dict[str, str] = {}

    def drive() -> None:
        dialog = w.settings.dialog
        if dialog is None or not dialog.isVisible():
            QTimer.singleShot(20, drive)
            return
        tabs = dialog.tabs
        index = next(i for i in range(tabs.count()) if tabs.tabText(i) == "Sync")
        tabs.setCurrentIndex(index)
        page = tabs.widget(index)
        assert isinstance(page, SyncPage)
        if not page.conflicts_line.isVisible():
            QTimer.singleShot(20, drive)
            return
        seen["line"] = page.conflicts_line.text()
        page.conflicts_line.linkActivated.emit("show")

    QTimer.singleShot(0, drive)
    w.settings.open_settings()
    assert "Memories edited on two computers at once" in seen["line"]
    assert w.page() == "memories"
    qtbot.waitUntil(lambda: browser.model.rowCount() == 1, timeout=WAIT)
    shown = browser.model.memory(0)
    assert shown is not None and shown.id == memory_id
    assert browser.edited_on_both_bar.isVisible()
    assert browser.edited_on_both_label.text() == (
        "Only the memories edited on two computers at once"
    )
    assert browser.count.text() == "1 memory"
    browser.edited_on_both.click()  # "Show every memory": the filter cleared
    qtbot.waitUntil(lambda: browser.model.rowCount() == 2, timeout=WAIT)
    assert not browser.edited_on_both_bar.isVisible()
    idle(qtbot)
