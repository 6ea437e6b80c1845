"""The Undo link on a "Remembered: …" line stays while the change can still be undone
(issue 44): after the conversation is opened again and after the language changes, and
it works then; once the change cannot be undone (undone, or the memory edited since), no
link is offered."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QApplication

from desktop_mem.core.profile import Profile
from desktop_mem.core.service import Service
from desktop_mem.ui.app import Application, app_settings, install_language
from desktop_mem.ui.main_window import MainWindow
from tests.fakes.ollama_server import FakeOllama
from tests.ui.driving import HANGZHOU, idle, send


def test_undo_stays_after_reopening_and_works(
    qtbot: Any, window: MainWindow, fake_ollama: FakeOllama, profile: Profile
) -> None:
    w = window
    fake_ollama.reply_json(HANGZHOU)
    send(qtbot, w, "I live in Hangzhou with my cat Mochi")
    qtbot.waitUntil(lambda: "Undo" in w.chat.messages[1].notice.text(), timeout=10000)
    cid = w.context.chat.conversation_id
    w.conversations.new_conversation(False)
    w.conversations.open_conversation(cid)
    answer = w.chat.messages[1]
    assert answer.notice.text().startswith("Remembered: Lives in Hangzhou")
    assert '<a href="undo">Undo</a>' in answer.notice.text()
    answer.notice.linkActivated.emit("undo")  # as a click on it
    idle(qtbot, w)
    assert profile.memories.count() == 0
    assert w.chat.messages[1].notice.text() == "Undone."
    w.conversations.open_conversation(cid)  # undone: nothing left to take back
    assert "Undo" not in w.chat.messages[1].notice.text()


def test_no_undo_once_the_memory_was_edited_since(
    qtbot: Any, window: MainWindow, fake_ollama: FakeOllama, profile: Profile
) -> None:
    w = window
    fake_ollama.reply_json(HANGZHOU)
    send(qtbot, w, "I live in Hangzhou with my cat Mochi")
    qtbot.waitUntil(lambda: "Undo" in w.chat.messages[1].notice.text(), timeout=10000)
    memory = profile.memories.list()[0]
    w.context.app.memories.edit(memory.id, text="Lives in Hangzhou with two cats")
    w.conversations.open_conversation(w.context.chat.conversation_id)
    notice = w.chat.messages[1].notice.text()
    assert notice.startswith("Remembered:") and "Undo" not in notice


def test_undo_stays_after_a_language_change(
    qtbot: Any, profile: Profile, home: Path, fake_ollama: FakeOllama
) -> None:
    app = QApplication.instance()
    running = Application(app, Service(profile), app_settings(home))
    try:
        w = running.window
        qtbot.waitUntil(lambda: w.context.server.online, timeout=5000)
        fake_ollama.reply_json(HANGZHOU)
        send(qtbot, w, "I live in Hangzhou with my cat Mochi")
        qtbot.waitUntil(lambda: "Undo" in w.chat.messages[1].notice.text(), timeout=10000)
        running.set_language("zh_CN")
        w = running.window
        qtbot.waitUntil(lambda: w.context.server.online, timeout=5000)
        notice = w.chat.messages[1].notice.text()
        assert "已记住" in notice and '<a href="undo">撤销</a>' in notice
        w.turns.link(1, "undo")
        idle(qtbot, w)
        assert profile.memories.count() == 0
    finally:
        install_language(app, "en")
        running.window.close()
