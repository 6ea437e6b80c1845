"""A chat in a space, end to end (real store, real ollama client, the fake server): its
prompts hold its space's memories, past messages and the shared space's, never another
space's; what it learns goes to its space, but for health and safety facts, which
apply everywhere; a space kept apart gets nothing shared, not even the profile."""

from __future__ import annotations

from typing import Any

import pytest

from desktop_mem.core.chat.session import ChatSession
from desktop_mem.core.memory.spaces import EVERY, about_the_person
from desktop_mem.core.memory.store import NewMemory
from desktop_mem.core.models.llm import OllamaChat
from desktop_mem.core.profile import Profile
from tests.fakes.ollama_server import FakeOllama


def extraction(*memories: dict[str, Any]) -> dict[str, Any]:
    return {"memories": list(memories)}


def chat(profile: Profile, fake: FakeOllama, **kw: Any) -> ChatSession:
    return ChatSession(profile, OllamaChat(fake.url), **kw)


def test_a_turn_in_a_space_is_given_its_space_and_the_shared_one_never_another(
    profile: Profile, fake_ollama: FakeOllama
) -> None:
    work = profile.spaces.create("Work", "Answer in bullet points.").id
    family = profile.spaces.create("Family").id
    profile.memories.add(NewMemory("My manager Priya wants the report by Friday", space=work))
    profile.memories.add(NewMemory("My sister Priya is getting married in March", space=family))
    profile.memories.add(NewMemory("I am allergic to peanuts"))
    # a past conversation in the family space that talks about Priya too
    old = chat(profile, fake_ollama, space=family)
    old.send("Priya asked me to be her witness at the wedding")
    old.close()
    s = chat(profile, fake_ollama, space=work)
    s.send("What does Priya want from me this week?")
    seen = fake_ollama.last_prompt()
    assert "My manager Priya wants the report by Friday" in seen
    assert "I am allergic to peanuts" in seen  # health: every turn, in every space
    assert "married" not in seen and "witness" not in seen
    assert "Answer in bullet points." in seen
    assert profile.conversations.get(s.conversation_id).space == work
    s.close()


def test_what_a_space_learns_stays_there_but_health_facts_are_shared(
    profile: Profile, fake_ollama: FakeOllama
) -> None:
    work = profile.spaces.create("Work").id
    s = chat(profile, fake_ollama, space=work)
    fake_ollama.reply_json(
        extraction(
            {"text": "Works on the Acme migration project", "kind": "fact", "importance": 0.6},
            {"text": "Is allergic to shellfish", "kind": "fact", "importance": 0.9},
        )
    )
    changes = s.send("I'm on the Acme migration, and careful, I'm allergic to shellfish").learned(
        10
    )
    spaces = {c.text: profile.memories.get(c.memory_id).space for c in changes}
    assert spaces == {"Works on the Acme migration project": work, "Is allergic to shellfish": None}
    s.close()
    home = chat(profile, fake_ollama)
    home.send("What should I work on next for Acme?")
    assert "Acme migration" not in fake_ollama.last_prompt()
    home.close()


def test_a_space_kept_apart_reads_and_adds_nothing_shared(
    profile: Profile, fake_ollama: FakeOllama
) -> None:
    client = profile.spaces.create("客户 A", apart=True).id
    profile.memories.add(NewMemory("I am allergic to peanuts"))
    profile.memories.add(NewMemory("My favourite band is Radiohead", importance=0.9,
                                   pinned=True))  # fmt: skip
    s = chat(profile, fake_ollama, space=client)
    fake_ollama.reply_json(
        extraction({"text": "Is allergic to shellfish", "kind": "fact", "importance": 0.9})
    )
    changes = s.send("By the way, I'm allergic to shellfish").learned(10)
    seen = fake_ollama.last_prompt()
    assert "peanuts" not in seen and "Radiohead" not in seen
    assert [profile.memories.get(c.memory_id).space for c in changes] == [client]
    assert {m.text for m in profile.memories.list(scope=EVERY) if m.space is None} == {
        "I am allergic to peanuts", "My favourite band is Radiohead"
    }  # fmt: skip
    s.close()


def test_who_the_person_is_goes_to_the_shared_space_and_says_where_it_was_learned(
    profile: Profile, fake_ollama: FakeOllama
) -> None:
    work = profile.spaces.create("Work").id
    s = chat(profile, fake_ollama, space=work)
    fake_ollama.reply_json(
        extraction(
            {"text": "Lives in Hangzhou with a cat named Mochi", "kind": "fact"},
            {"text": "Presents the Q3 roadmap on Friday", "kind": "event"},
        )
    )
    changes = s.send("I live in Hangzhou with Mochi, and I present the roadmap Friday").learned(10)
    by_text = {c.text: c for c in changes}
    home = by_text["Lives in Hangzhou with a cat named Mochi"]
    assert profile.memories.get(home.memory_id).space is None and home.shared_from == work
    roadmap = by_text["Presents the Q3 roadmap on Friday"]
    assert profile.memories.get(roadmap.memory_id).space == work and roadmap.shared_from is None
    s.close()


@pytest.mark.parametrize(
    ("text", "who"),
    [
        ("Lives in Hangzhou with a cat", True), ("The user's name is Wei", True),
        ("I am 34", True), ("Has two sons", True), ("Speaks Mandarin and English", True),
        ("我叫小林", True), ("住在杭州", True), ("我有两个儿子", True), ("会说日语", True),
        ("My sister lives in Shenzhen", False), ("The client speaks only German", False),
        ("我妹妹住在深圳", False), ("Works on the Acme migration", False),
        ("The Hangzhou office moves in March", False), ("我下个月要考驾照", False),
    ],
)  # fmt: skip
def test_what_says_who_the_person_is(text: str, who: bool) -> None:
    assert about_the_person(text) is who
