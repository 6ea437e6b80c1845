"""Conversations: list, rename, search, export, and deletion that leaves no trace."""

from __future__ import annotations

import json

import pytest

from desktop_mem.core.chat.conversations import ConversationStore
from desktop_mem.core.chat.records import UsedMemory
from desktop_mem.core.errors import InvalidInput, NotFound
from desktop_mem.core.memory.store import NewMemory
from desktop_mem.core.profile import Profile
from tests.fakes.keyrings import MemoryKeyring, stored_key
from tests.fakes.ollama_server import FakeOllama
from tests.sqlcipher_pages import decrypted_pages


@pytest.fixture
def store(profile: Profile) -> ConversationStore:
    return profile.conversations


def _conversation(store: ConversationStore, *turns: str) -> int:
    cid = store.create().id
    ids = []
    for n, text in enumerate(turns):
        ids.append(store.add_message(cid, "user" if n % 2 == 0 else "assistant", text).id)
    store.index_vectors(ids)
    return cid


def test_titles_listing_and_rename(store: ConversationStore) -> None:
    a = _conversation(store, "Plan a trip to Kyoto in April please", "Sure: temples first.")
    b = _conversation(store, "帮我写一封请假邮件", "好的。")
    listed = store.list()
    assert [c.id for c in listed] == [b, a], "most recent first"
    assert listed[1].title == "Plan a trip to Kyoto in April please" and listed[1].messages == 2
    assert store.rename(a, "Kyoto").title == "Kyoto"
    with pytest.raises(InvalidInput):
        store.rename(a, "   ")
    long = store.create().id
    store.add_message(long, "user", "x" * 200)
    assert len(store.get(long).title) <= 60


def test_search_across_conversations_by_words_and_meaning(store: ConversationStore) -> None:
    kyoto = _conversation(store, "Plan a trip to Kyoto temples in April", "Sure.")
    _conversation(store, "How do I bake sourdough bread?", "Start with a starter.")
    _conversation(store, "我想学习日语", "好的，从五十音开始。")
    hits, warnings = store.search("kyoto temples")
    assert not warnings and hits[0].message.conversation_id == kyoto
    assert set(hits[0].signals) == {"keyword", "vector"}
    zh, _ = store.search("学习日语")
    assert zh[0].message.content == "我想学习日语"
    assert store.search("'\" * - ()")[0] == []
    assert store.search('kyoto" NEAR(* -temples')[0][0].message.conversation_id == kyoto


def test_export_markdown_and_json(profile: Profile, store: ConversationStore) -> None:
    mem = profile.memories.add(NewMemory("Likes temples")).memory
    cid = store.create().id
    store.add_message(cid, "user", "Plan Kyoto")
    store.add_message(
        cid, "assistant", "Temples.", used=[UsedMemory(mem.id, 1, 0.9, mem.text)], status="stopped"
    )
    md = store.export(cid, "md")
    assert "# Plan Kyoto" in md and "## Assistant (stopped)" in md
    assert "Memories used: Likes temples" in md
    data = json.loads(store.export(cid, "json"))
    assert data["format"] == "desktop-mem/conversation" and data["version"] == 1
    assert data["messages"][1]["used"][0]["memory_id"] == mem.id


def test_an_answer_keeps_why_each_memory_was_given_and_which_were_weak(
    profile: Profile, store: ConversationStore
) -> None:
    """The record read back is the record the turn gave: its order, why each memory was
    given and whether it was a weaker match; one deleted meanwhile is not recorded."""
    core = profile.memories.add(NewMemory("Name is Erin", pinned=True)).memory
    found = profile.memories.add(NewMemory("Likes temples")).memory
    gone = profile.memories.add(NewMemory("Visited Nara")).memory
    profile.memories.delete([gone.id])
    cid = store.create().id
    store.add_message(cid, "user", "Plan Kyoto")
    given = [
        UsedMemory(core.id, 1, 1.0, core.text, why="core"),
        UsedMemory(found.id, 2, 0.4, found.text, why="found", weak=True),
        UsedMemory(gone.id, 3, 0.3, gone.text),
    ]
    answer = store.add_message(cid, "assistant", "Temples.", used=given)
    back = store.message(answer.id).used
    assert [(u.memory_id, u.why, u.weak) for u in back] == [
        (core.id, "core", False),
        (found.id, "found", True),
    ]


def test_search_without_details_finds_the_same_messages(
    profile: Profile, store: ConversationStore
) -> None:
    """The chat's read path asks for hits without what their answers used (one query
    for all of them): the same messages, in the same order, with the same scores."""
    mem = profile.memories.add(NewMemory("Likes temples")).memory
    cid = store.create().id
    store.add_message(cid, "user", "Plan a trip to the Kyoto temples")
    store.add_message(
        cid,
        "assistant",
        "Kyoto temples: Kinkaku-ji first.",
        used=[UsedMemory(mem.id, 1, 0.9, mem.text)],
    )
    store.index_vectors()
    full, _ = store.search("Kyoto temples trip", k=5)
    light, _ = store.search("Kyoto temples trip", k=5, details=False)
    assert full and [(h.message.id, h.message.content, h.score) for h in full] == [
        (h.message.id, h.message.content, h.score) for h in light
    ]
    answer = next(h.message for h in full if h.message.role == "assistant")
    assert [u.memory_id for u in answer.used] == [mem.id]  # details: what it used


def test_deleting_a_conversation_leaves_no_trace(
    profile: Profile, store: ConversationStore, isolated: MemoryKeyring
) -> None:
    canary = "quokkazanzibar conversation canary 4411"
    keep = _conversation(store, "an unrelated conversation about bread", "ok")
    gone = _conversation(store, f"my secret is {canary}", f"I will keep {canary} safe")
    mem = profile.memories.add(
        NewMemory("came from the deleted chat", source_message_id=None)
    ).memory
    key = stored_key(isolated, profile.db.path)
    profile.db.checkpoint()
    assert any(canary.encode() in p for p in decrypted_pages(profile.db.path, secret_hex=key))
    assert store.delete(gone) == 2
    with pytest.raises(NotFound):
        store.get(gone)
    assert not any(canary.encode() in p for p in decrypted_pages(profile.db.path, secret_hex=key))
    assert all(h.message.conversation_id == keep for h in store.search("quokkazanzibar")[0])
    assert [c.id for c in store.list()] == [keep]
    assert profile.memories.get(mem.id), "memories stay; the user decides about them"
    for table in ("messages_fts", "message_vectors", "message_memories"):
        assert profile.db.query(f"SELECT count(*) FROM {table}")[0][0] in (0, 2)


def test_message_delete_keeps_memories_but_drops_the_link(
    profile: Profile, store: ConversationStore
) -> None:
    cid = store.create().id
    msg = store.add_message(cid, "user", "I live in Hangzhou")
    mem = profile.memories.add(NewMemory("Lives in Hangzhou", source_message_id=msg.id)).memory
    store.delete(cid)
    assert profile.memories.get(mem.id).source_message_id is None


def test_deleting_a_conversation_takes_back_the_words_it_lent_to_memories(
    profile: Profile, store: ConversationStore, isolated: MemoryKeyring
) -> None:
    """A memory learned in a conversation quotes what was said before it (its context);
    deleting the conversation removes that quote from the memory, its full-text entry
    and every page of the file, and keeps the memory."""
    canary = "therapist doctor wombatquill says"
    cid = store.create().id
    asked = store.add_message(cid, "assistant", f"My {canary} I should sleep more?")
    said = store.add_message(cid, "user", "Yes, and I sleep six hours a night")
    store.index_vectors([asked.id, said.id])
    mem = profile.memories.add(
        NewMemory(
            "Sleeps six hours a night",
            source="extractor",
            source_message_id=said.id,
            context=asked.content,
        )
    ).memory
    key = stored_key(isolated, profile.db.path)
    profile.db.checkpoint()
    assert any(b"wombatquill" in p for p in decrypted_pages(profile.db.path, secret_hex=key))
    assert store.context_lent(cid) == 1
    assert store.delete(cid, profile.memories) == 2
    kept = profile.memories.get(mem.id)
    assert kept.text == "Sleeps six hours a night" and kept.context is None
    assert profile.search.keyword_ranking("wombatquill", 10) == [], "not in its full text"
    assert profile.search.search("sleep hours").hits[0].memory.id == mem.id
    assert not any(b"wombatquill" in p for p in decrypted_pages(profile.db.path, secret_hex=key))


def test_the_model_names_a_new_conversation_unless_the_user_did(
    profile: Profile, fake_ollama: FakeOllama
) -> None:
    from desktop_mem.core.chat.session import ChatSession
    from desktop_mem.core.models.llm import OllamaChat

    fake_ollama.titles.append("“Tea in Hangzhou”")
    session = ChatSession(profile, OllamaChat(fake_ollama.url))
    first = session.send("Which green teas grow around Hangzhou? I want to try some.")
    assert first.titling is not None and first.titling.result(10) is True
    store = session.conversations
    conv = store.get(session.conversation_id)
    assert (conv.title, conv.title_source) == ("Tea in Hangzhou", "model")
    asked = fake_ollama.chat_requests(structured=True, titles=True)
    assert len(asked) == 1 and "Hangzhou" in asked[0]["messages"][-1]["content"]
    second = session.send("And which is the most famous?")
    assert second.titling is None, "only a new conversation's first exchange is named"
    session.close()

    # a title the user gave is kept; an empty or failed answer keeps the first message's
    renamed = ChatSession(profile, OllamaChat(fake_ollama.url))
    renamed.send("I am planning a garden with tomatoes").titling.result(10)  # type: ignore[union-attr]
    store.rename(renamed.conversation_id, "Garden")
    assert store.suggest_title(renamed.conversation_id, "Tomato plans") is False
    assert store.get(renamed.conversation_id).title == "Garden"
    renamed.close()
    plain = ChatSession(profile, OllamaChat(fake_ollama.url))
    assert plain.send("What is a good name for a cat?").titling.result(10) is False  # type: ignore[union-attr]
    assert store.get(plain.conversation_id).title == "What is a good name for a cat?"
    plain.close()
    incognito = ChatSession(profile, OllamaChat(fake_ollama.url), incognito=True)
    assert incognito.send("Secret plans for a party").titling is None
    incognito.close()


def test_pinned_conversations_come_first(profile: Profile) -> None:
    store = profile.conversations
    old = store.create("An old chat")
    store.create("A newer chat")
    assert [c.title for c in store.list()] == ["A newer chat", "An old chat"]
    assert store.set_pinned(old.id, True).pinned is True
    assert [c.title for c in store.list()] == ["An old chat", "A newer chat"]
    store.set_pinned(old.id, False)
    assert [c.title for c in store.list()][0] == "A newer chat"
