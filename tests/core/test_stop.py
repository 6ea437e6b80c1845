"""Stop ends an answer at once in every state: while the request connects, while the
server has the request and has not answered (a model loading does this for minutes),
and while the answer streams. Each state is made by the fake server's hang modes; a
turn that did not stop would end only when the hold is released (HOLD_LIMIT), so the
assertions see whether the held request was still unanswered when the turn ended."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest

from desktop_mem.core.chat.session import ChatSession
from desktop_mem.core.models.llm import OllamaChat
from desktop_mem.core.profile import Profile
from tests.fakes.ollama_server import HOLD_LIMIT, FakeOllama, Unaccepting, hang


@pytest.fixture
def session(profile: Profile, fake_ollama: FakeOllama) -> Iterator[ChatSession]:
    s = ChatSession(profile, OllamaChat(fake_ollama.url))
    yield s
    s.close()


def _in_thread(fn: Any) -> tuple[threading.Thread, dict[str, Any]]:
    out: dict[str, Any] = {}

    def run() -> None:
        out["result"] = fn()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, out


def test_stop_while_connecting_ends_the_answer_at_once() -> None:
    server = Unaccepting()
    try:
        # a connection that would wait far longer than a failing test may take
        chat = OllamaChat(server.url, model="qwen2.5:7b", connect_timeout=10 * HOLD_LIMIT)
        stream = chat.stream([{"role": "user", "content": "hello"}])
        started = threading.Event()

        def read() -> list[str]:
            started.set()
            return list(stream)

        thread, out = _in_thread(read)
        started.wait()
        stream.cancel()
        thread.join(HOLD_LIMIT)  # bounds a failure: a stopped read ends at once
        assert not thread.is_alive(), "the stop waited for the connection"
        assert out["result"] == [] and stream.stopped
    finally:
        server.close()


def test_stop_before_the_first_byte_ends_the_turn_at_once(
    profile: Profile, fake_ollama: FakeOllama, session: ChatSession
) -> None:
    held = hang(fake_ollama)
    thread, out = _in_thread(lambda: session.send("are you there?"))
    assert held.arrived.wait(HOLD_LIMIT)
    session.stop()
    thread.join(HOLD_LIMIT)
    assert not held.answered.is_set(), "the turn ended only when the server answered"
    result = out["result"]
    assert result.status == "stopped" and result.text == ""
    assert [m.role for m in session.messages()] == ["user"], "the question is kept"
    held.release.set()


def test_stop_while_streaming_ends_the_turn_at_once(
    profile: Profile, fake_ollama: FakeOllama, session: ChatSession
) -> None:
    reply = fake_ollama.reply("one two three four five", hold_after=2)
    got: list[str] = []
    two = threading.Event()

    def piece(p: str) -> None:
        got.append(p)
        if len(got) == 2:
            two.set()

    thread, out = _in_thread(lambda: session.send("count", on_piece=piece))
    assert two.wait(HOLD_LIMIT)
    session.stop()
    thread.join(HOLD_LIMIT)
    assert not reply.resumed.is_set(), "the turn waited for the server's next chunk"
    assert out["result"].status == "stopped" and out["result"].text == "one two "
    reply.release.set()


def test_stop_while_the_prompt_is_prepared_never_asks_the_model(
    profile: Profile, fake_ollama: FakeOllama, session: ChatSession
) -> None:
    held = hang(fake_ollama, "/api/show")  # the model's context length, asked first
    thread, out = _in_thread(lambda: session.send("what do you know about me?"))
    assert held.arrived.wait(HOLD_LIMIT)
    session.stop()
    held.release.set()
    thread.join(HOLD_LIMIT)
    assert out["result"].status == "stopped"
    assert fake_ollama.chat_requests(structured=False) == [], "the model was asked anyway"
