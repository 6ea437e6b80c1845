"""Forget means forget: after "Forget everything" or the chat's "forget …", nothing that
still tells the model is left: the earlier messages that said it are deleted by default,
or, if the user keeps them, left out of every prompt. Each test asks the forgotten fact
again and looks for it in the whole prompt the model was sent (wherever a block sits),
first showing that forgetting only the memories (what the app did before) leaves it
there."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from desktop_mem.core.chat.session import ChatSession
from desktop_mem.core.models.llm import OllamaChat
from desktop_mem.core.profile import Profile
from tests import report
from tests.conftest import Run
from tests.core.test_chat import extraction
from tests.fakes.keyrings import MemoryKeyring, stored_key
from tests.fakes.ollama_server import FakeOllama
from tests.leaks import leaks_in
from tests.sqlcipher_pages import decrypted_pages

FACT_ZH = "我对花生过敏，吃了会起疹子"
QUESTION_ZH = "我对花生过敏吗"
FACT_EN = "I am allergic to peanuts, they give me hives"
QUESTION_EN = "Am I allergic to peanuts?"


@pytest.fixture
def chat(profile: Profile, fake_ollama: FakeOllama) -> Iterator[list[ChatSession]]:
    made: list[ChatSession] = []
    yield made
    for s in made:
        s.close()


def _session(
    profile: Profile, fake: FakeOllama, made: list[ChatSession], **kw: object
) -> ChatSession:
    s = ChatSession(profile, OllamaChat(fake.url), **kw)  # type: ignore[arg-type]
    made.append(s)
    return s


def _say(
    profile: Profile, fake: FakeOllama, made: list[ChatSession], fact: str, times: int
) -> None:
    """The user says the fact in `times` conversations; the first teaches a memory."""
    for n in range(times):
        s = _session(profile, fake, made)
        fake.reply_json(
            extraction({"text": fact, "kind": "fact", "importance": 0.9})
            if n == 0
            else {"memories": []}
        )
        s.send(fact).learned(10)
        s.send("Thanks, noted.").learned(10)
    assert profile.memories.count() == 1


def _asked(profile: Profile, fake: FakeOllama, made: list[ChatSession], question: str,
           session: ChatSession | None = None) -> str:  # fmt: skip
    """Everything the model was given for `question`, less the question itself."""
    s = session or _session(profile, fake, made)
    fake.reply_json({"memories": []})
    s.send(question).learned(10)
    return fake.last_prompt().replace(question, "", 1)


@pytest.mark.parametrize(("fact", "question", "word"), [
    (FACT_ZH, QUESTION_ZH, "疹子"), (FACT_EN, QUESTION_EN, "hives"),
])  # fmt: skip
def test_forget_everything_leaves_the_fact_in_no_prompt_and_no_page(
    profile: Profile, fake_ollama: FakeOllama, chat: list[ChatSession], isolated: MemoryKeyring,
    fact: str, question: str, word: str,
) -> None:  # fmt: skip
    _say(profile, fake_ollama, chat, fact, 4)
    profile.memories.forget_all()  # what "Forget everything" did before: memories only
    assert word in _asked(profile, fake_ollama, chat, question)  # issue 28: still told
    for s in chat:
        s.close()
    done = profile.forget_everything()
    assert done.memories == 0 and done.messages >= 8 and done.conversations >= 4 and not done.kept
    assert word not in _asked(profile, fake_ollama, chat, question)
    assert [c.messages for c in profile.conversations.list()] == [2]  # only the new question
    profile.forget_everything()
    profile.db.checkpoint()
    pages = decrypted_pages(profile.db.path, secret_hex=stored_key(isolated, profile.db.path))
    assert leaks_in(pages, [fact]) == []  # deleted means gone from every page
    report.add("forget_checks", 2)


def test_forget_everything_keeping_the_conversations_keeps_them_out_of_every_prompt(
    profile: Profile, fake_ollama: FakeOllama, chat: list[ChatSession]
) -> None:
    _say(profile, fake_ollama, chat, FACT_EN, 3)
    old = chat[0].conversation_id
    done = profile.forget_everything(keep_conversations=True)
    assert done.kept and done.messages == 12 and profile.memories.count() == 0
    assert "hives" not in _asked(profile, fake_ollama, chat, QUESTION_EN)
    # an old conversation continued: its history is not sent either, but it can be read
    again = _session(profile, fake_ollama, chat, conversation_id=old)
    assert [m.content for m in again.messages()][:1] == [FACT_EN]
    assert all(m.forgotten for m in again.messages())
    assert "hives" not in _asked(profile, fake_ollama, chat, QUESTION_EN, again)
    found = profile.conversations.search("peanuts hives")[0]
    assert not [h for h in found if "hives" in h.message.content]  # nor found by search
    assert profile.conversations.unindexed_count() == 0  # nor indexed again
    report.add("forget_checks", 2)


def test_the_chats_forget_deletes_the_messages_that_said_it_by_default(
    profile: Profile, fake_ollama: FakeOllama, chat: list[ChatSession]
) -> None:
    _say(profile, fake_ollama, chat, FACT_EN, 3)
    here = _session(profile, fake_ollama, chat)
    here.send("My favourite colour is green.")
    found = here.send("forget that I am allergic to peanuts")
    assert [m.text for m in found.forget_candidates] == [FACT_EN]
    assert len([m for m in found.forget_messages if "peanuts" in m.content]) >= 3
    # the memory alone (the dialog's default before): the messages still tell the model
    first = here.forget([m.id for m in found.forget_candidates], [])
    assert first[:3] == (1, 0, 0) and first.messages_left >= 3  # said, not hidden
    assert "hives" in _asked(profile, fake_ollama, chat, QUESTION_EN)
    # the default now: every earlier message that said it, too; asked in the same chat
    found = here.send("forget that I am allergic to peanuts")
    done = here.forget([], [m.id for m in found.forget_messages])
    assert done.messages >= 6 and done.kept == 0
    assert "Deleted 0 memories and" in here.messages()[-1].content
    assert "hives" not in _asked(profile, fake_ollama, chat, QUESTION_EN, here)
    assert "hives" not in _asked(profile, fake_ollama, chat, QUESTION_EN)
    assert "green" in _asked(profile, fake_ollama, chat, "What colour do I like?", here)
    report.add("forget_checks", 3)


def test_earlier_messages_the_user_keeps_stay_to_read_but_leave_every_prompt(
    profile: Profile, fake_ollama: FakeOllama, chat: list[ChatSession]
) -> None:
    _say(profile, fake_ollama, chat, FACT_ZH, 2)
    here = _session(profile, fake_ollama, chat)
    found = here.send("忘记我对花生过敏这件事")
    kept = [m.id for m in found.forget_messages]
    done = here.forget([m.id for m in found.forget_candidates], [], kept)
    assert done.memories == 1 and done.messages == 0 and done.kept == len(kept) >= 2
    assert "保留供阅读" in here.messages()[-1].content  # said in the command's language
    assert all(profile.conversations.message(i).forgotten for i in kept)
    assert "疹子" not in _asked(profile, fake_ollama, chat, QUESTION_ZH)
    assert "疹子" not in _asked(profile, fake_ollama, chat, QUESTION_ZH, here)
    report.add("forget_checks", 2)


def test_the_command_line_forgets_everything_and_says_how_much(
    run: Run, profile: Profile, fake_ollama: FakeOllama, chat: list[ChatSession]
) -> None:
    _say(profile, fake_ollama, chat, FACT_EN, 2)
    for s in chat:
        s.close()
    profile.close()
    code, out, err = run("memory", "forget-all")
    assert code == 2 and "8 messages too" in err and "--keep-conversations" in err
    code, out, _ = run("memory", "forget-all", "--yes", "--keep-conversations")
    assert code == 0 and "stay to read" in out and "8 messages of 2 conversations" in out
    code, out, _ = run("memory", "forget-all", "--yes")
    assert code == 0 and "8 messages of 2 conversations for good" in out
    report.add("forget_checks", 1)


# -- issue 45: forget finds all of it, and the titles made from it ------------------------------

PERSON = "Marguerite"
# 27 planted phrases: 17 in memories, 10 in earlier messages, each said once
PLANTED = [f"plantedphrase{chr(97 + i // 26)}{chr(97 + i % 26)}" for i in range(27)]


def _a_person(profile: Profile) -> tuple[list[int], list[int]]:
    """44 memories and 36 earlier messages (in 6 conversations) about one person; a
    model's title of each conversation made from the first message."""
    from desktop_mem.core.memory.store import NewMemory

    mems = [
        NewMemory(f"{PERSON} from the bakery " + (PLANTED[i] if i < 17 else f"detail {i}"))
        for i in range(44)
    ]
    memory_ids = [m.id for m in profile.memories.add_many(mems)[0]]
    conversations = profile.conversations
    message_ids: list[int] = []
    planted = iter(PLANTED[17:])
    for c in range(6):
        cid = conversations.create(model="test").id
        for turn in range(3):
            said = next(planted, f"turn {turn}") if turn < 2 else f"turn {turn}"
            user = conversations.add_message(cid, "user", f"{PERSON} said {said} at the bakery")
            answer = conversations.add_message(cid, "assistant", f"Noted about {PERSON}.")
            message_ids += [user.id, answer.id]
        conversations.suggest_title(cid, f"{PERSON} at the bakery {c}")
    conversations.index_vectors(message_ids)
    return memory_ids, message_ids


def test_the_chats_forget_finds_everything_about_a_person(
    profile: Profile, fake_ollama: FakeOllama, chat: list[ChatSession], isolated: MemoryKeyring
) -> None:
    """Before, "forget Marguerite" offered 5 memories and 30 messages, said "Deleted 5
    memories", and 27 planted phrases still reached the next prompt; the titles made
    from those conversations stayed on pages of the file."""
    memory_ids, message_ids = _a_person(profile)
    here = _session(profile, fake_ollama, chat)
    found = here.send(f"forget {PERSON}")
    assert sorted(m.id for m in found.forget_candidates) == sorted(memory_ids)
    offered = {m.id for m in found.forget_messages}
    assert set(message_ids) <= offered, len(offered)
    assert found.forget_more == (0, 0) and "44 memories and" in found.text
    done = here.forget([m.id for m in found.forget_candidates], sorted(offered))
    assert (done.memories, done.memories_left, done.messages_left) == (44, 0, 0)
    assert [c.title for c in profile.conversations.list()] == [""]  # emptied ones went
    prompt = _asked(profile, fake_ollama, chat, f"What do you know about {PERSON}?")
    assert [p for p in PLANTED if p in prompt] == []
    profile.db.checkpoint()
    pages = decrypted_pages(profile.db.path, secret_hex=stored_key(isolated, profile.db.path))
    assert leaks_in(pages, [*PLANTED, f"{PERSON} at the bakery"]) == []
    report.add("forget_checks", 3)


def test_more_than_a_page_is_said_and_the_rest_found_by_asking_again(
    profile: Profile, fake_ollama: FakeOllama, chat: list[ChatSession], monkeypatch: Any
) -> None:
    """A page smaller than what there is (here 20): the answer says how many more, and
    the same "forget …" after the deletion offers them."""
    from desktop_mem.core.chat import forget

    monkeypatch.setattr(forget, "PAGE", 20)
    memory_ids, _ = _a_person(profile)
    here = _session(profile, fake_ollama, chat)
    found = here.send(f"forget {PERSON}")
    assert len(found.forget_candidates) == 20 and found.forget_more[0] == 24
    assert "24 more memories" in found.text
    done = here.forget([m.id for m in found.forget_candidates], [])
    assert done.memories_left == 24 and "Still mentioning it" in here.messages()[-1].content
    again = here.send(f"forget {PERSON}")
    assert len(again.forget_candidates) == 20 and again.forget_more[0] == 4
    report.add("forget_checks")


@pytest.mark.parametrize("keep_conversations", [False, True])
def test_forget_everything_keeps_the_chosen_embedding_model(
    config: Any, vault: Any, keep_conversations: bool
) -> None:
    """Forgetting memories never changes settings: the embedding model chosen stays the
    profile's after a restart (it fell back to the default when the index was emptied)."""
    from dataclasses import replace

    from desktop_mem.core.memory.store import NewMemory
    from desktop_mem.core.models.embed import DEFAULT_EMBED_MODEL

    assert config.embed_model != DEFAULT_EMBED_MODEL
    with Profile.open(config, vault) as profile:
        profile.memories.add(NewMemory("Allergic to peanuts"))
        profile.forget_everything(keep_conversations=keep_conversations)
        assert profile.memories.count() == 0
    # the next start, with no model named on the command line or in the environment
    with Profile.open(replace(config, embed_model=None), vault) as again:
        assert again.embedder.model == config.embed_model
