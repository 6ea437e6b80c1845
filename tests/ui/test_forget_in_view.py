"""What a "forget …" deletes leaves the open conversation at once (issue 44): the deleted
messages disappear and no answer keeps a chip of a deleted memory; a link to a memory
that is gone says so in one sentence instead of opening an empty browser."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QPushButton

from desktop_mem.core.memory.store import NewMemory
from desktop_mem.core.profile import Profile
from desktop_mem.ui.main_window import MainWindow
from tests.ui.driving import idle, send


def memory_chips(window: MainWindow) -> list[Any]:
    return [
        c.property("memory_id")
        for m in window.chat.messages
        for c in m.chip_row.findChildren(QPushButton)
        if c.property("memory_id") is not None
    ]


def test_forget_from_the_chat_takes_what_it_deleted_out_of_the_view(
    qtbot: Any, window: MainWindow, profile: Profile
) -> None:
    from desktop_mem.ui.forget_dialog import ForgetDialog

    ana = profile.memories.add(NewMemory("My sister Ana lives in Porto")).memory
    window.memories.refresh_memories()
    idle(qtbot, window)
    send(qtbot, window, "Where does my sister Ana live?")
    asked = window.chat.messages[0]
    assert asked.message_id is not None
    assert ana.id in memory_chips(window), "the answer used the memory"

    def accept() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, ForgetDialog):
            QTimer.singleShot(20, accept)
            return
        dialog.accept()  # everything found, ticked: the memory and the message saying it

    QTimer.singleShot(20, accept)
    send(qtbot, window, "forget my sister Ana")
    idle(qtbot, window)
    qtbot.waitUntil(lambda: window.chat.messages[-1].text().startswith("Deleted"), timeout=5000)
    kept = {
        m.id for m in window.context.app.conversations.messages(window.context.chat.conversation_id)
    }  # type: ignore[arg-type]
    assert asked.message_id not in kept
    qtbot.waitUntil(lambda: asked not in window.chat.messages, timeout=5000)
    shown = [w.message_id for w in window.chat.messages if w.message_id is not None]
    assert set(shown) <= kept, "no deleted message is shown"
    qtbot.waitUntil(lambda: ana.id not in memory_chips(window), timeout=5000)
    # as it is when the conversation is opened again
    window.conversations.open_conversation(window.context.chat.conversation_id)
    assert ana.id not in memory_chips(window)


def test_a_memory_deleted_elsewhere_loses_its_chip_and_a_stale_link_says_so(
    qtbot: Any, window: MainWindow, profile: Profile
) -> None:
    tea = profile.memories.add(NewMemory("Prefers green tea over coffee")).memory
    window.memories.refresh_memories()
    idle(qtbot, window)
    send(qtbot, window, "Do I prefer green tea or coffee?")
    assert tea.id in memory_chips(window)
    window.context.app.memories.delete([tea.id])  # the browser, another app, the CLI
    qtbot.waitUntil(lambda: tea.id not in memory_chips(window), timeout=5000)
    # a link that outlived its memory (an Undo line, a chip drawn before): one sentence
    window.memories.show_memory(tea.id)
    assert window.page() == "chat"
    assert window.statusBar().currentMessage() == (
        "That memory was forgotten: it is no longer kept."
    )
