"""Learning never fails silently (issue 26, item 6).

When the extraction call fails (the server is away, drops the connection, times out)
or the model answers with something invalid even after the repair request, the turn
says so, the message is kept as not yet learned from (in the database), nothing of it
is stored half-way, and it is learned from later: after a turn the model answers, and
in the sleep-time pass. `doctor` counts what waits.
"""

from __future__ import annotations

import json
from typing import Any

from desktop_mem.core import doctor
from desktop_mem.core.chat.learning import MAX_ATTEMPTS, Learner, waiting
from desktop_mem.core.chat.session import ChatSession
from desktop_mem.core.chat.sleep import SleepSchedule
from desktop_mem.core.config import Config
from desktop_mem.core.memory.store import NewMemory
from desktop_mem.core.models.llm import OllamaChat
from desktop_mem.core.profile import Profile
from tests.conftest import Run
from tests.fakes.ollama_server import FakeOllama, demo_learn

SAID = "I am allergic to shellfish and I live in Porto"


def _state(profile: Profile, message_id: int | None) -> tuple[str, int, str | None]:
    rows = profile.db.query(
        "SELECT learn_state, learn_attempts, learn_error FROM messages WHERE id = ?", (message_id,)
    )
    return rows[0]


def _learns(body: dict[str, Any]) -> dict[str, Any]:
    props = (body.get("format") or {}).get("properties", {})
    return {"action": "ADD"} if "action" in props else demo_learn(body)


def test_an_invalid_answer_is_said_kept_and_learned_from_once_the_model_answers(
    profile: Profile, fake_ollama: FakeOllama
) -> None:
    fake_ollama.invalid_json = True
    session = ChatSession(profile, OllamaChat(fake_ollama.url))
    first = session.send(SAID)
    outcome = first.outcome(10)
    assert first.status == "complete" and not outcome.ok and outcome.changes == []
    assert outcome.reason == "invalid_answer"
    assert "Nothing was learned from this message" in (outcome.failure or "")
    assert len(fake_ollama.chat_requests(structured=True)) == 2, "asked once more, with the error"
    repair = fake_ollama.chat_requests(structured=True)[1]["messages"]
    assert "not valid JSON" in repair[-1]["content"] and repair[-2]["role"] == "assistant"
    assert _state(profile, first.user_message_id) == ("pending", 1, "invalid_answer")
    assert profile.memories.count() == 0 and waiting(profile.db).pending == 1
    # the model is right again: the next turn learns, then catches up on the first
    fake_ollama.invalid_json = False
    fake_ollama.json_responder = _learns
    second = session.send("My sister is called Ines")
    assert [c.text for c in second.learned(10)] == ["My sister is called Ines"]
    session.close()  # waits for the catch-up
    texts = {m.text for m in profile.memories.list()}
    assert SAID in texts, "learned from the message that waited"
    assert waiting(profile.db).total == 0
    assert _state(profile, first.user_message_id)[0] == ""
    mem = next(m for m in profile.memories.list() if m.text == SAID)
    assert mem.source_message_id == first.user_message_id


def test_a_timeout_and_a_dropped_connection_are_said_and_kept(
    profile: Profile, fake_ollama: FakeOllama
) -> None:
    backend = OllamaChat(fake_ollama.url, read_timeout=0.5)
    session = ChatSession(profile, backend)
    # the answer streams; the extraction after it gets no answer in time
    fake_ollama.fail_next(200, paths=("/api/chat",), after=1, delay=3.0)
    first = session.send(SAID)
    late = first.outcome(30)
    assert first.titling is not None
    first.titling.result(30)  # the title is asked after it: the next fault is for turn two
    assert first.status == "complete" and late.reason == "ollama_timeout"
    assert "did not answer in time" in (late.failure or "")
    assert _state(profile, first.user_message_id) == ("pending", 1, "ollama_timeout")
    # the connection dropped without an answer: the server is away, not the exchange's fault
    fake_ollama.fail_next(paths=("/api/chat",), after=1, drop=True)
    second = session.send("I also keep bees")
    dropped = second.outcome(30)
    assert dropped.reason == "ollama_unreachable" and "could not be reached" in (
        dropped.failure or ""
    )
    assert _state(profile, second.user_message_id) == ("pending", 0, "ollama_unreachable")
    session.close()
    assert profile.memories.count() == 0 and waiting(profile.db).pending == 2


def test_nothing_half_learned_is_stored(profile: Profile, fake_ollama: FakeOllama) -> None:
    """Two facts, the second close to a stored memory: its decision fails twice, and the
    first fact is not stored either; tried again, both are."""
    profile.memories.add(NewMemory("Lives in Lisbon near the river"))
    extraction = {
        "memories": [{"text": "Keeps bees on the roof"}, {"text": "Lives in Porto near the river"}]
    }
    fake_ollama.reply_json(extraction)
    fake_ollama.reply_json("not json")
    fake_ollama.reply_json('{"action": "MAYBE"}')
    session = ChatSession(profile, OllamaChat(fake_ollama.url))
    turn = session.send("I keep bees on the roof and I live in Porto near the river now")
    outcome = turn.outcome(10)
    assert outcome.reason == "invalid_answer"
    assert [m.text for m in profile.memories.list()] == ["Lives in Lisbon near the river"]
    fake_ollama.reply_json(extraction)
    fake_ollama.reply_json({"action": "UPDATE", "id": 1, "text": "Lives in Porto near the river"})
    again = session.learner.retry_one(turn.user_message_id or 0)
    session.close()
    assert again.ok and sorted(c.action for c in again.changes) == ["added", "updated"]
    assert {m.text for m in profile.memories.list()} == {
        "Keeps bees on the roof", "Lives in Porto near the river"
    }  # fmt: skip


def test_after_repeated_failures_it_waits_for_the_users_retry(
    profile: Profile, fake_ollama: FakeOllama
) -> None:
    fake_ollama.invalid_json = True
    session = ChatSession(profile, OllamaChat(fake_ollama.url))
    turn = session.send(SAID)
    turn.outcome(10)
    learner = Learner(profile.conversations, session.extractor)
    for _ in range(MAX_ATTEMPTS):
        learner.retry()
    assert _state(profile, turn.user_message_id)[:2] == ("failed", MAX_ATTEMPTS)
    assert learner.retry() == [], "no longer tried by itself"
    assert waiting(profile.db).failed == 1
    fake_ollama.invalid_json = False
    fake_ollama.json_responder = _learns
    assert learner.retry_one(turn.user_message_id or 0).ok
    session.close()
    assert waiting(profile.db).total == 0 and profile.memories.count() == 1


def test_the_sleep_time_pass_is_due_while_messages_wait(
    profile: Profile, fake_ollama: FakeOllama
) -> None:
    schedule = SleepSchedule(profile.db)
    assert not schedule.due()
    fake_ollama.invalid_json = True
    session = ChatSession(profile, OllamaChat(fake_ollama.url))
    session.send(SAID).outcome(10)
    session.close()
    assert schedule.due() and schedule.learning_due() and not schedule.store_due()


def test_a_retry_resolves_dates_from_the_day_it_was_said(
    profile: Profile, fake_ollama: FakeOllama
) -> None:
    fake_ollama.invalid_json = True
    session = ChatSession(profile, OllamaChat(fake_ollama.url))
    turn = session.send("My exam is tomorrow")
    turn.outcome(10)
    with profile.db.transaction() as conn:  # said a while ago
        conn.execute(
            "UPDATE messages SET created_at = '2026-03-02T09:00:00+00:00' WHERE id = ?",
            (turn.user_message_id,),
        )
    fake_ollama.invalid_json = False
    asked: list[str] = []
    fake_ollama.json_responder = lambda body: (
        asked.append(body["messages"][-1]["content"]) or {"memories": []}
    )
    assert session.learner.retry_one(turn.user_message_id or 0).ok
    session.close()
    assert "Today's date is 2026-03-02" in asked[0] and '"My exam is tomorrow"' in asked[0]


def test_the_command_line_warns_and_doctor_counts_what_waits(
    run: Run, fake_ollama: FakeOllama, config: Config, vault: Any
) -> None:
    fake_ollama.invalid_json = True
    code, out, err = run("chat", SAID, "--json")
    data = json.loads(out)
    assert code == 0 and data["status"] == "complete" and data["changes"] == []
    assert any("Nothing was learned from this message" in w for w in data["warnings"])
    code, _, err = run("chat", "I also keep bees")
    assert code == 0 and "warning: Nothing was learned from this message yet" in err
    found = {c.name: c for c in doctor.run(config, vault)}
    assert (
        not found["learning"].ok and "2 messages not yet learned from" in found["learning"].detail
    )
    assert "not the JSON asked for" in found["learning"].detail
    # the model is back: the next turn learns, and catches up on both
    fake_ollama.invalid_json = False
    fake_ollama.json_responder = _learns
    code, out, _ = run("chat", "My sister is called Ines", "--json")
    assert code == 0 and json.loads(out)["warnings"] == []
    assert {c.name: c for c in doctor.run(config, vault)}["learning"].ok
    code, out, _ = run("memory", "list", "--json")
    texts = {m["text"] for m in json.loads(out)}
    assert {SAID, "I also keep bees", "My sister is called Ines"} <= texts
