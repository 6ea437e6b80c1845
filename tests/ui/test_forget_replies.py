"""After a "forget …" in the window (issue 53, item 5): no command's reply offers
Regenerate (live and read back, and nothing it could do leaves an empty bubble), no
"Remembered: … — Undo" line or chip of a forgotten memory stays, and a memory that says
more than what is forgotten offers to keep the rest, proposed and editable."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QPushButton

from desktop_mem.core.memory.store import NewMemory
from desktop_mem.core.profile import Profile
from desktop_mem.ui.forget_dialog import ID_ROLE, KIND_ROLE, ForgetDialog
from desktop_mem.ui.main_window import MainWindow
from tests.fakes.ollama_server import FakeOllama
from tests.ui.driving import HANGZHOU, idle, send


def in_next_forget_dialog(act: Callable[[ForgetDialog], None]) -> None:
    def look() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, ForgetDialog):
            QTimer.singleShot(20, look)
            return
        try:
            act(dialog)
        finally:  # a failed check never leaves the dialog open (the suite would hang)
            if dialog.isVisible():
                dialog.reject()

    QTimer.singleShot(20, look)


def forget(qtbot: Any, w: MainWindow, text: str, act: Callable[[ForgetDialog], None]) -> None:
    in_next_forget_dialog(act)
    send(qtbot, w, text)
    said = ("Deleted", "Nothing was deleted")  # the reply to what the dialog chose
    qtbot.waitUntil(lambda: w.chat.messages[-1].text().startswith(said), timeout=10000)
    idle(qtbot, w)


def regenerate_offered(w: MainWindow) -> list[str]:
    return [
        m.text() for m in w.chat.messages if m.role == "assistant" and m.redo_button.isVisibleTo(m)
    ]


def test_no_regenerate_on_a_command_reply_live_or_read_back(qtbot: Any, window: MainWindow) -> None:
    w = window
    send(qtbot, w, "remember that I play the cello")
    forget(qtbot, w, "forget the cello", lambda d: d.accept())
    said = w.chat.messages[-1]
    assert said.text().startswith("Deleted 1 memory")
    assert regenerate_offered(w) == [], "a command's reply is done, not answered"
    assert not w.regenerate_action.isEnabled() and not w.edit_last_action.isEnabled()
    count = len(w.chat.messages)
    said.redo_clicked.emit()  # as a click would, were it there
    w.regenerate_action.trigger()
    w.turns.regenerate(-1)
    w.turns.regenerate(0)
    idle(qtbot, w)
    assert len(w.chat.messages) == count
    assert all(m.text().strip() for m in w.chat.messages), "no empty bubble"
    w.conversations.open_conversation(w.context.chat.conversation_id)
    assert [m for m in w.chat.messages if m.role == "assistant"], "read back"
    assert regenerate_offered(w) == []
    assert not w.regenerate_action.isEnabled()
    send(qtbot, w, "What should I practise today?")  # a question: its answer can be
    assert regenerate_offered(w) == [w.chat.messages[-1].text()]
    assert w.regenerate_action.isEnabled() and w.edit_last_action.isEnabled()


def memory_chips(w: MainWindow) -> list[Any]:
    return [
        c.property("memory_id")
        for m in w.chat.messages
        for c in m.chip_row.findChildren(QPushButton)
        if c.property("memory_id") is not None
    ]


def keep_messages(dialog: ForgetDialog) -> None:
    for i in range(dialog.items.count()):
        item = dialog.items.item(i)
        if item.data(KIND_ROLE) == "message":
            item.setCheckState(Qt.CheckState.Unchecked)  # kept to read
    dialog.accept()


def test_no_stale_remembered_line_or_chip_after_forget(
    qtbot: Any, window: MainWindow, fake_ollama: FakeOllama, profile: Profile
) -> None:
    w = window
    fake_ollama.reply_json(HANGZHOU)
    send(qtbot, w, "I live in Hangzhou with my cat Mochi")
    taught = w.chat.messages[1]
    qtbot.waitUntil(lambda: "Undo" in taught.notice.text(), timeout=10000)
    memory = profile.memories.list()[0]
    send(qtbot, w, "Where do I live with my cat Mochi in Hangzhou?")
    assert memory.id in memory_chips(w)
    forget(qtbot, w, "forget Hangzhou", keep_messages)
    assert profile.memories.count() == 0
    assert taught in w.chat.messages, "its messages were kept to read"
    assert "Hangzhou" not in taught.notice.text() and "Undo" not in taught.notice.text()
    assert not taught.notice.isVisibleTo(taught)
    assert memory.id not in memory_chips(w)
    w.conversations.open_conversation(w.context.chat.conversation_id)
    assert not any("Remembered" in m.notice.text() for m in w.chat.messages)


def test_a_remember_line_goes_when_its_memory_is_forgotten_in_the_same_chat(
    qtbot: Any, window: MainWindow, profile: Profile
) -> None:
    w = window
    send(qtbot, w, "remember that I play the cello")
    line = w.chat.messages[1]
    assert "Undo" in line.notice.text()
    w.context.app.memories.delete([m.id for m in profile.memories.list()])  # the browser
    qtbot.waitUntil(lambda: not line.notice.isVisibleTo(line), timeout=5000)


def test_partial_forget_offers_the_rest_to_keep_and_edit(
    qtbot: Any, window: MainWindow, profile: Profile
) -> None:
    w = window
    merged = profile.memories.add(NewMemory("Lives in Lisbon and has a peanut allergy")).memory
    w.memories.refresh_memories()
    idle(qtbot, w)
    offered: list[str] = []

    def edit_the_rest(dialog: ForgetDialog) -> None:
        keep, text = dialog.rest_rows[merged.id]
        offered.append(text.text())
        assert keep.isChecked() and text.isEnabled()
        text.setText("Has a severe peanut allergy (carries an EpiPen)")
        dialog.accept()

    forget(qtbot, w, "forget that I live in Lisbon", edit_the_rest)
    assert offered == ["Has a peanut allergy"]
    assert [m.text for m in profile.memories.list()] == [
        "Has a severe peanut allergy (carries an EpiPen)"
    ]
    assert "Kept the rest of 1 memory." in w.chat.messages[-1].text()


def test_a_health_fact_is_never_dropped_silently(
    qtbot: Any, window: MainWindow, profile: Profile
) -> None:
    w = window
    whole = profile.memories.add(NewMemory("Lisbon resident with a severe peanut allergy")).memory
    w.memories.refresh_memories()
    idle(qtbot, w)
    ids: list[int] = []

    def accept(dialog: ForgetDialog) -> None:
        ids.extend(
            int(dialog.items.item(i).data(ID_ROLE))
            for i in range(dialog.items.count())
            if dialog.items.item(i).data(KIND_ROLE) == "memory"
        )
        assert dialog.rest_rows[whole.id][1].text() == whole.text  # proposed whole
        dialog.accept()  # as offered: kept

    forget(qtbot, w, "forget Lisbon", accept)
    assert ids == [whole.id]
    assert [m.text for m in profile.memories.list()] == [whole.text]
