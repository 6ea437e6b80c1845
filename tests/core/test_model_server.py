"""The turn as the model server sees it (issue 27), against the fake server's simulation
of Ollama's scheduler (tests/fakes/scheduler.py).

- Every request to the chat model asks for one context length, whoever sends it (the
  chat, learning, titles, consolidation, the Python API, the MCP server's consolidated
  add), and nothing else fixed at load time: a conversation never reloads the model.
- Each chat request extends the one before; learning and titles are asked after the
  chat's own messages, so with one slot the chat's cache survives them.
- The history is cut back to half when it outgrows the budget, then grows again.
- What /api/ps says that would make every turn slow is found and said.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from desktop_mem.api import MemoryLayer
from desktop_mem.core import doctor
from desktop_mem.core.chat import layout
from desktop_mem.core.chat.backends import make_backend
from desktop_mem.core.chat.read_path import TokenCounter
from desktop_mem.core.chat.session import ChatSession
from desktop_mem.core.config import Config
from desktop_mem.core.memory.store import NewMemory
from desktop_mem.core.models.llm import LOAD_OPTIONS
from desktop_mem.core.profile import Profile
from desktop_mem.core.search.sentences import REFERENCE_SENTENCES
from desktop_mem.core.service import Service
from tests.conftest import Run
from tests.fakes.ollama_server import FakeOllama, _kind, demo_learn
from tests.fakes.scheduler import render


def _chat_options(fake: FakeOllama) -> list[dict[str, Any]]:
    return [body.get("options") or {} for _, path, body in fake.requests if path == "/api/chat"]


def _decides(body: dict[str, Any]) -> dict[str, Any]:
    props = (body.get("format") or {}).get("properties", {})
    return {"action": "ADD"} if "action" in props else demo_learn(body)


def test_every_request_to_the_chat_model_asks_for_one_context_length(
    profile: Profile, fake_ollama: FakeOllama, run: Run
) -> None:
    profile.settings.set("context_tokens", 6144)
    fake_ollama.json_responder = _decides
    profile.memories.add(NewMemory("Prefers green tea in the morning"))
    session = ChatSession(profile, make_backend(profile))
    for text in ("I prefer black tea in the morning now", "My sister lives in Lyon", "thanks!"):
        assert session.send(text).outcome(10).ok
    session.close()
    # the sleep-time pass, and the Python API's chat and consolidated add
    profile.memories.add(NewMemory("Prefers black tea in the morning, with milk"))
    assert session.extractor.sleep(datetime.now(UTC)) is not None
    layer = MemoryLayer(Service(profile))
    assert layer.chat("what do I drink in the morning?")["status"] == "complete"
    layer.add("Prefers black tea in the morning with lemon", consolidate=True)
    # the chat's title is asked in the background, after the learning chat() waits for:
    # the service's one background thread has done it once this no-op has run
    layer.service.background.submit(lambda: None).result(60)
    # the command line's model commands load nothing
    before = len(fake_ollama.requests)
    assert run("models", "list")[0] == 0 and run("models", "pull", "llama3.2:3b")[0] == 0
    assert all(p != "/api/chat" for _, p, _ in fake_ollama.requests[before:])

    options = _chat_options(fake_ollama)
    kinds = {_kind(b) for _, p, b in fake_ollama.requests if p == "/api/chat"}
    assert kinds == {"chat", "json", "title"}, "chat, learning, decisions and a title were sent"
    assert len(options) >= 8 and {o.get("num_ctx") for o in options} == {6144}
    assert all(set(o) & LOAD_OPTIONS == {"num_ctx"} for o in options), "no other load option"
    assert all("keep_alive" not in b for _, p, b in fake_ollama.requests if p == "/api/chat"), (
        "the server's keep-alive is the user's"
    )
    assert fake_ollama.scheduler.reloads() == 0


def test_the_mcp_servers_consolidated_add_asks_for_the_same_length(
    tmp_path: Path, fake_ollama: FakeOllama, monkeypatch: Any
) -> None:
    from tests.test_mcp import _call, _register, _vault

    home = tmp_path / "home"
    vault = _vault(home, monkeypatch)
    run = Run(home, fake_ollama, vault)
    config = Config.resolve(home=home, ollama_host=fake_ollama.url, embed_model="fake-embed")
    with Profile.open(config, vault) as prof:
        prof.memories.add(NewMemory("Prefers green tea in the morning"))
        prof.settings.set("context_tokens", 6144)
    fake_ollama.json_responder = _decides
    key, _ = _register(run, "Test Editor", "write")
    _, added = _call(home, fake_ollama, "Test Editor", [
        ("add_memory", {"text": "Prefers black tea in the morning", "kind": "preference"}),
    ], key)  # fmt: skip
    assert not added.is_error
    options = _chat_options(fake_ollama)
    assert options and {o.get("num_ctx") for o in options} == {6144}, "the decision call"


def test_each_chat_request_extends_the_one_before_and_learning_goes_after_it(
    profile: Profile, fake_ollama: FakeOllama
) -> None:
    profile.memories.add(NewMemory("Lives in Porto with a dog named Ruca", pinned=True))
    profile.memories.add(NewMemory("Works as a nurse on night shifts"))
    fake_ollama.json_responder = _decides
    session = ChatSession(profile, make_backend(profile))
    for text in (
        "What shifts do I work as a nurse?",
        "I started learning the piano",
        "and my dog?",
    ):
        session.send(text).outcome(10)
    session.close()
    chats = fake_ollama.chat_requests(structured=False)
    for before, after in zip(chats, chats[1:], strict=False):
        # everything but the newest message (which had its blocks) is sent again as it was
        assert after["messages"][: len(before["messages"]) - 1] == before["messages"][:-1]
    # the blocks went with the message; the system message never changed
    assert len({c["messages"][0]["content"] for c in chats}) == 1
    assert "Ruca" in chats[0]["messages"][0]["content"], "the core memory is in it"
    assert "night shifts" in chats[0]["messages"][-1]["content"]
    # learning and the title are asked after the chat's prompt and its answer
    for body in fake_ollama.requests:
        if body[1] == "/api/chat" and body[2].get("format"):
            msgs = body[2]["messages"]
            asked_after = next(c for c in chats if c["messages"] == msgs[: len(c["messages"])])
            assert msgs[len(asked_after["messages"])]["role"] == "assistant"
    # so with one slot the next turn evaluates only the last exchange and the new message
    served = [e for e in fake_ollama.scheduler.evaluations if e.kind == "chat"]
    tok = fake_ollama.scheduler.tokenizer
    for ev, previous in zip(served[1:], chats[:-1], strict=True):
        same = len(render(tok, previous["messages"][:-1])) - len(
            tok.tokens("<|im_start|>assistant\n")
        )
        assert ev.cached >= same, "the cache held across learning and the title"
        assert ev.fresh < ev.prompt_tokens


def test_learning_asked_as_a_prompt_of_its_own_would_evict_the_chat(
    profile: Profile, fake_ollama: FakeOllama
) -> None:
    """The measure the other way: what the benchmark's `--learning own` shows."""
    fake_ollama.json_responder = _decides
    session = ChatSession(profile, make_backend(profile))
    session.learn_after_chat = False
    for text in ("I started learning the piano", "I also sing in a choir"):
        session.send(text).outcome(10)
    session.close()
    second = [e for e in fake_ollama.scheduler.evaluations if e.kind == "chat"][1]
    assert second.cached < 20, "the template's first tokens at most"


def test_the_history_is_cut_back_to_half_and_then_kept() -> None:
    history = [{"role": "user" if i % 2 == 0 else "assistant", "id": i} for i in range(40)]

    def cost(m: dict[str, Any]) -> int:
        return 100

    assert layout.keep_from(history[:10], cost, 2000) == 0, "all of it while it fits"
    start = layout.keep_from(history, cost, 2000)
    assert start == 30 and history[start]["role"] == "user", "cut back to half the room"
    # it stays there, turn after turn, until it no longer fits
    starts = []
    previous = history[start]["id"]
    for n in range(40, 70, 2):
        grown = [*history, *({"role": r, "id": n + k} for k, r in enumerate(("user", "assistant")))]
        history = grown
        s = layout.keep_from(history, cost, 2000, previous)
        starts.append(s)
        previous = history[s]["id"]
    assert len(set(starts)) <= 3, f"the start moved rarely: {starts}"
    assert all(
        b - a >= 10 for a, b in zip(sorted(set(starts)), sorted(set(starts))[1:], strict=False)
    )


def test_a_partial_prompt_count_does_not_correct_the_estimate() -> None:
    counter = TokenCounter()
    messages = [{"role": "user", "content": "word " * 400}]
    counter.observe(messages, 40)  # a server reporting only what it evaluated afresh
    assert counter.ratio == 1.0
    counter.observe(messages, 650)
    assert counter.ratio > 1.0


def test_another_context_length_or_a_short_keep_alive_is_said(
    profile: Profile, fake_ollama: FakeOllama, config: Config, vault: Any
) -> None:
    # another app loaded the chat model with its own context length
    fake_ollama.scheduler.load("qwen2.5:7b", 4096)
    found = {c.name: c for c in doctor.run(config, vault)}
    speed = found["turn speed"]
    assert not speed.ok and "4,096-token context" in speed.detail and "8,192" in speed.detail
    assert "context_tokens 4096" in speed.fix
    # a keep-alive of half a minute: seen right after an answer, kept for doctor
    fake_ollama.scheduler.keep_alive = 30
    session = ChatSession(profile, make_backend(profile))
    result = session.send("hello there")
    assert result.server is not None
    problem = result.server.result(10)
    session.close()
    assert problem is not None and problem.reason == "keep_alive"
    assert "after each answer" in problem.sentence() and "OLLAMA_KEEP_ALIVE" in problem.sentence()
    found = {c.name: c for c in doctor.run(config, vault)}
    assert not found["turn speed"].ok and "unloads qwen2.5:7b" in found["turn speed"].detail
    # with the server's default keep-alive the next answer clears it
    fake_ollama.scheduler.keep_alive = 300
    session = ChatSession(profile, make_backend(profile))
    result = session.send("hello again")
    assert result.server is not None and result.server.result(10) is None
    session.close()
    assert {c.name: c for c in doctor.run(config, vault)}["turn speed"].ok


def test_the_reference_is_prepared_before_the_first_search(
    profile: Profile, fake_ollama: FakeOllama
) -> None:
    assert not profile.prepared()
    assert profile.prepare().result(30) is True and profile.prepared()
    profile.memories.add(NewMemory("Lives in Porto with a dog named Ruca"))
    embedded = len(fake_ollama.embed_inputs())
    assert REFERENCE_SENTENCES[0] in fake_ollama.embed_inputs()
    profile.search.search("where do I live?", k=5)
    assert fake_ollama.embed_inputs()[embedded:] == ["where do I live?"], "only the query"


def test_kept_blocks_never_send_a_deleted_memory_again(
    profile: Profile, fake_ollama: FakeOllama
) -> None:
    """The measured alternative (earlier turns sent with their blocks, in the session):
    a memory deleted since is not in any later request."""
    secret = profile.memories.add(NewMemory("Works as a nurse on night shifts")).memory
    session = ChatSession(profile, make_backend(profile))
    session.builder.earlier_blocks = "keep"
    session.send("What shifts do I work as a nurse?")
    session.send("and on weekends?")
    second = fake_ollama.chat_requests(structured=False)[-1]
    assert "night shifts" in second["messages"][1]["content"], "sent again as it was"
    profile.memories.delete([secret.id])
    session.send("thanks!")
    session.close()
    third = fake_ollama.chat_requests(structured=False)[-1]
    assert all("night shifts" not in m["content"] for m in third["messages"])
