"""What the window says about the model server and about learning: a quiet line with
Retry under an answer nothing was learned from, a count in the status of what waits,
the server state that would make every turn slow, and search prepared before the
first message."""

from __future__ import annotations

from typing import Any

from desktop_mem.ui import tasks
from desktop_mem.ui.main_window import MainWindow
from tests.fakes.ollama_server import FakeOllama, demo_learn
from tests.ui.driving import send


def test_nothing_learned_is_said_under_the_answer_with_retry(
    qtbot: Any, window: MainWindow, fake_ollama: FakeOllama
) -> None:
    fake_ollama.invalid_json = True
    send(qtbot, window, "I am allergic to shellfish and I live in Porto")
    answer = window.chat.messages[1]
    notice = answer.notice.text()
    assert "Nothing was learned from this message" in notice and 'href="retry"' in notice
    assert "1 message not yet learned from" in window.status_bar.memory_status.text()
    assert window.context.app.profile.memories.count() == 0
    # Retry, once the model answers properly
    fake_ollama.invalid_json = False
    fake_ollama.json_responder = demo_learn
    window.turns.link(1, "retry")
    qtbot.waitUntil(lambda: tasks.busy() == 0, timeout=10000)
    assert (
        "Remembered" in answer.notice.text() and "Nothing was learned" not in answer.notice.text()
    )
    assert "not yet learned" not in window.status_bar.memory_status.text()
    assert window.context.app.profile.memories.count() == 1


def test_a_short_keep_alive_is_said_in_the_status(
    qtbot: Any, window: MainWindow, fake_ollama: FakeOllama
) -> None:
    fake_ollama.scheduler.keep_alive = 30
    send(qtbot, window, "hello")
    qtbot.waitUntil(lambda: "keep-alive" in window.status_bar.ollama_status.text(), timeout=5000)
    assert "every turn waits for it to load again" in window.status_bar.ollama_status.text()
    fake_ollama.scheduler.keep_alive = 300
    send(qtbot, window, "hello again")
    qtbot.waitUntil(
        lambda: "keep-alive" not in window.status_bar.ollama_status.text(), timeout=5000
    )


def test_search_is_prepared_before_the_first_message(
    qtbot: Any, window: MainWindow, fake_ollama: FakeOllama
) -> None:
    qtbot.waitUntil(window.context.app.profile.prepared, timeout=10000)
    chats = len(fake_ollama.chat_requests())
    assert chats == 0, "no turn was needed"
