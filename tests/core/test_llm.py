"""The chat backends through the real ollama client / httpx against the fake server."""

from __future__ import annotations

import threading

import pytest

from desktop_mem.core.errors import ModelFailed, ModelMissing, OllamaUnavailable
from desktop_mem.core.models.llm import OllamaChat, OpenAICompatChat, PullProgress
from desktop_mem.core.profile import Profile
from tests.fakes.ollama_server import HOLD_LIMIT, FakeOllama, Reply

MESSAGES = [{"role": "user", "content": "hello there"}]


def test_stream_yields_the_answer_and_usage(fake_ollama: FakeOllama) -> None:
    fake_ollama.reply("The capital of France is Paris.", prompt_tokens=42)
    stream = OllamaChat(fake_ollama.url).stream(MESSAGES)
    pieces = list(stream)
    assert len(pieces) > 3 and "".join(pieces) == "The capital of France is Paris."
    assert stream.done and not stream.stopped
    assert stream.usage.prompt_tokens == 42
    assert fake_ollama.chat_requests()[-1]["messages"] == MESSAGES


@pytest.mark.parametrize("backend", ["ollama", "openai"])
def test_cancel_from_another_thread_closes_the_stream_and_keeps_the_partial_answer(
    fake_ollama: FakeOllama, backend: str
) -> None:
    """The server sends three words and then waits, as a model does while it thinks:
    only a cancel that shuts the connection (not one that waits for the next chunk)
    lets the reader go."""
    reply = fake_ollama.reply(" ".join(f"w{i}" for i in range(200)), hold_after=3)
    chat = (
        OllamaChat(fake_ollama.url)
        if backend == "ollama"
        else OpenAICompatChat(f"{fake_ollama.url}/v1", "qwen2.5:7b", api_key=fake_ollama.api_key)
    )
    stream = chat.stream(MESSAGES)
    three = threading.Event()
    got: list[str] = []

    def consume() -> None:
        for piece in stream:
            got.append(piece)
            if len(got) == 3:
                three.set()

    worker = threading.Thread(target=consume)
    worker.start()
    assert three.wait(HOLD_LIMIT), "the first three words never came"
    stream.cancel()
    worker.join(2 * HOLD_LIMIT)  # bounds a failure; a working cancel ends it at once
    assert not worker.is_alive()
    assert not reply.resumed.is_set(), "the reader waited for the server's next chunk"
    reply.release.set()
    assert stream.stopped and not stream.done
    assert stream.text == "w0 w1 w2 "


def test_ollama_down_is_reported_on_the_first_chunk() -> None:
    stream = OllamaChat("http://127.0.0.1:9").stream(MESSAGES)  # nothing listens on port 9
    with pytest.raises(OllamaUnavailable, match="not reachable"):
        list(stream)


def test_missing_model(fake_ollama: FakeOllama) -> None:
    with pytest.raises(ModelMissing, match="ollama pull llama9"):
        list(OllamaChat(fake_ollama.url, model="llama9").stream(MESSAGES))


@pytest.mark.parametrize("how", ["die", "error"])
def test_server_dying_mid_answer_keeps_the_partial_text(fake_ollama: FakeOllama, how: str) -> None:
    text = "one two three four five six seven"
    fake_ollama.reply(text, **({"die_after": 3} if how == "die" else {"error_after": 3}))
    stream = OllamaChat(fake_ollama.url).stream(MESSAGES)
    got = []
    with pytest.raises((OllamaUnavailable, ModelFailed), match="partial answer is kept"):
        for piece in stream:
            got.append(piece)
    assert "".join(got) == stream.text == "one two three "
    assert not stream.done


def test_server_error_status(fake_ollama: FakeOllama) -> None:
    fake_ollama.fail_next(500, paths=("/api/chat",), body='{"error": "out of memory"}')
    with pytest.raises(ModelFailed, match="out of memory"):
        list(OllamaChat(fake_ollama.url).stream(MESSAGES))


def test_read_timeout(fake_ollama: FakeOllama) -> None:
    fake_ollama.fail_next(200, paths=("/api/chat",), delay=2.0)
    with pytest.raises(OllamaUnavailable, match="did not answer in time"):
        list(OllamaChat(fake_ollama.url, read_timeout=0.3).stream(MESSAGES))


def test_structured_output_sends_the_schema(fake_ollama: FakeOllama) -> None:
    schema = {"type": "object", "properties": {"items": {"type": "array"}}}
    fake_ollama.reply_json({"items": [1, 2]})
    text, _ = OllamaChat(fake_ollama.url).complete_json(MESSAGES, schema)
    assert text == '{"items": [1, 2]}'
    body = fake_ollama.chat_requests(structured=True)[-1]
    assert body["format"] == schema and body["options"]["temperature"] == 0


def test_models_context_length_and_pull(fake_ollama: FakeOllama) -> None:
    chat = OllamaChat(fake_ollama.url, model="llama3.2:3b")
    assert "qwen2.5:7b" in chat.models() and "llama3.2:3b" not in chat.models()
    with pytest.raises(ModelMissing):
        chat.context_length()
    seen: list[PullProgress] = []
    assert chat.pull(seen.append)
    fractions = [p.fraction for p in seen if p.fraction is not None]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0
    assert seen[-1].status == "success"
    assert "llama3.2:3b" in chat.models()
    fake_ollama.context_length = 8192
    assert chat.context_length() == 8192


def test_pull_can_be_cancelled_and_unknown_models_fail(fake_ollama: FakeOllama) -> None:
    cancel = threading.Event()
    cancel.set()
    assert OllamaChat(fake_ollama.url, model="llama3.2:3b").pull(cancel=cancel) is False
    with pytest.raises(ModelFailed, match="does not exist"):
        OllamaChat(fake_ollama.url, model="nonexistent:1b").pull()


def test_scripted_reply_objects(fake_ollama: FakeOllama) -> None:
    fake_ollama.replies.append(Reply(chunks=["你好", "，", "世界"]))
    assert list(OllamaChat(fake_ollama.url).stream(MESSAGES)) == ["你好", "，", "世界"]


def test_a_remote_ollama_gets_the_leaves_this_computer_notice_once(profile: Profile) -> None:
    from desktop_mem.core.chat.backends import remote_notice
    from desktop_mem.core.models.llm import OllamaChat, is_local_url

    assert is_local_url("http://127.0.0.1:11434") and is_local_url("http://localhost:1")
    assert is_local_url("http://[::1]:11434") and not is_local_url("http://192.0.2.7:11434")
    assert not is_local_url("http://[::1")  # malformed: not taken for this computer
    assert remote_notice(profile, OllamaChat("http://127.0.0.1:11434")) is None
    remote = OllamaChat("http://192.0.2.7:11434")  # nothing is sent: only the notice
    notice = remote_notice(profile, remote)
    assert notice and "192.0.2.7" in notice and "not this computer" in notice
    assert remote_notice(profile, remote) is None, "once per server"
    assert remote_notice(profile, OllamaChat("http://192.0.2.8:11434")) is not None
