"""Attacks on spaces (issue 55): every way found for one space's text to reach another
space's prompt or search, the shared space, or a space kept apart. Each leak found is a
test with the attack in its docstring, which failed before its fix; an attack that held
is a test only where it guards something likely to break."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from desktop_mem.api import MemoryLayer
from desktop_mem.core.chat import forget
from desktop_mem.core.chat.session import ChatSession
from desktop_mem.core.config import Config
from desktop_mem.core.keys.vault import Vault
from desktop_mem.core.memory.export import write_export
from desktop_mem.core.memory.memories_file import import_file
from desktop_mem.core.memory.spaces import EVERY, SHARED, Scope
from desktop_mem.core.memory.store import NewMemory
from desktop_mem.core.models.llm import OllamaChat
from desktop_mem.core.profile import Profile
from desktop_mem.core.service import Service
from tests.fakes.ollama_server import FakeOllama

FAMILY_SECRET = "My sister Priya is getting married in March"


def chat(profile: Profile, fake: FakeOllama, **kw: Any) -> ChatSession:
    return ChatSession(profile, OllamaChat(fake.url), **kw)


def texts(profile: Profile, query: str, scope: Scope) -> set[str]:
    hits = profile.search.search(query, k=20, scope=scope, relevant_only=False).hits
    return {h.memory.text for h in hits}


# -- leaks ------------------------------------------------------------------------------


def test_the_rest_kept_of_a_forgotten_memory_stays_in_its_space(profile: Profile) -> None:
    """Attack: in a kept-apart client space, "forget Priya" offers a client memory
    that also holds the client's budget; the person keeps the rest of it ("keep the
    budget, forget the name"). _keep_rests stores that rest with NewMemory(...) and no
    `space`, so the client's budget becomes a shared memory: every other space's
    chats, the "about you" rewrite and any app given the shared space now see it."""
    client = profile.spaces.create("Client", apart=True).id
    family = profile.spaces.create("Family").id
    m = profile.memories.add(
        NewMemory("My contact Priya approved the Zephyr budget of 5 million", space=client)
    ).memory
    forget.carry_out(
        profile, [m.id], [], [], [], "Priya", None,
        rests={m.id: "The Zephyr budget is 5 million"},
    )  # fmt: skip
    [rest] = [x for x in profile.memories.list(scope=EVERY) if "Zephyr" in x.text]
    assert rest.space == client
    assert not texts(profile, "Zephyr budget", profile.spaces.scope(family))
    assert not texts(profile, "Zephyr budget", SHARED)


def test_a_chat_moved_to_another_space_is_not_given_its_old_spaces_memories(
    profile: Profile, fake_ollama: FakeOllama
) -> None:
    """Attack: a chat is open in Family; the person moves the conversation to Work (the
    window's move, or the same move arriving by sync from the other computer) and
    keeps talking in it. ChatSession.space was read once, when the session was made,
    and scope() uses it, so every later turn, regenerate and edit of a conversation
    that is now in Work is given Family's memories (and, for a move into a kept-apart
    space, the shared space's), while what it learns goes to Work (Learner.scope_of
    reads the conversation's space now)."""
    work = profile.spaces.create("Work").id
    family = profile.spaces.create("Family").id
    profile.memories.add(NewMemory(FAMILY_SECRET, space=family, pinned=True))  # core
    s = chat(profile, fake_ollama, space=family)
    fake_ollama.reply("Noted.")
    s.send("Priya called me about her plans")
    assert "married" in fake_ollama.last_prompt()  # Family's chat: as it should be
    profile.conversations.move(s.conversation_id or 0, work)
    fake_ollama.reply("Noted.")
    s.send("What does Priya want from me this week?")
    seen = fake_ollama.last_prompt()
    s.close()
    assert "married" not in seen


def test_a_new_space_never_takes_the_id_of_one_taken_out(
    profile: Profile, fake_ollama: FakeOllama
) -> None:
    """Attack: a chat is open in Work; Work is taken out with its contents moved to the
    shared space (the conversation with them), and a space "Health" is made. SQLite
    gives it Work's old id (the largest rowid was freed), so everything that still
    holds the number (the open ChatSession, the window's selection, a script's
    `space=2`, memory_history.space_id) now means Health: the conversation, which is in
    the shared space now, is given Health's memories."""
    work = profile.spaces.create("Work").id
    s = chat(profile, fake_ollama, space=work)
    fake_ollama.reply("Noted.")
    s.send("The quarterly report is due on Friday")
    profile.conversations.move(s.conversation_id or 0, None)
    profile.spaces.remove(work)
    health = profile.spaces.create("Health", apart=True).id
    profile.memories.add(
        NewMemory("Sees a therapist about panic attacks", space=health, pinned=True)
    )
    fake_ollama.reply("Noted.")
    s.send("Which appointments do I have this week?")
    seen = fake_ollama.last_prompt()
    s.close()
    assert "therapist" not in seen
    assert health != work


def test_the_profile_never_quotes_a_memory_moved_into_a_space(
    profile: Profile, fake_ollama: FakeOllama
) -> None:
    """Attack: the "about you" profile is built from shared memories only. A shared
    memory is cited by a profile line; then the person moves that memory into their
    kept-apart client space. Until the next rewrite (which needs the model and runs
    when the app is idle) the line, the memory's text in other words, is given in every
    prompt of every space that sees the shared space, here a Family chat."""
    client = profile.spaces.create("Client", apart=True).id
    family = profile.spaces.create("Family").id
    m = profile.memories.add(NewMemory("Is negotiating the Zephyr merger in secret")).memory
    profile.about.replace_model_lines([("Negotiates the Zephyr merger in secret", [m.id])])
    assert profile.memories.move(m.id, client) == 1
    s = chat(profile, fake_ollama, space=family)
    fake_ollama.reply("Noted.")
    s.send("Help me plan the family dinner on Sunday")
    seen = fake_ollama.last_prompt()
    s.close()
    assert "Zephyr" not in seen


def test_learning_in_a_space_never_rewrites_a_shared_memory_with_the_spaces_words(
    profile: Profile, fake_ollama: FakeOllama
) -> None:
    """Attack: a chat in Work (which sees the shared space) learns a fact close to a
    shared memory; the model decides UPDATE. Extractor._apply edits the shared memory
    in place (store.edit keeps its space), so what was said in Work (the Acme office,
    the client) becomes the text of a shared memory: given in Family's chats and
    to every app given the shared space. learned_in() is only asked for ADD and
    INVALIDATE, never for UPDATE."""
    work = profile.spaces.create("Work").id
    family = profile.spaces.create("Family").id
    profile.memories.add(NewMemory("Walks to the Lisbon office near the river"))
    fake_ollama.reply_json({"memories": [{"text": "Walks to the Porto office near the river"}]})
    fake_ollama.reply_json(
        {
            "action": "UPDATE",
            "id": 1,
            "text": "Walks to the Acme client's Porto office near the river",
        }
    )
    s = chat(profile, fake_ollama, space=work)
    fake_ollama.reply("Noted.")
    changes = s.send("I walk to the Acme client's Porto office near the river now").learned(10)
    s.close()
    assert changes  # the fact was learned (updated, or added in Work)
    shared = {m.text for m in profile.memories.list(scope=SHARED)}
    assert not [t for t in shared if "Acme" in t or "Porto" in t]
    assert not [t for t in texts(profile, "office river", profile.spaces.scope(family))
                if "Acme" in t]  # fmt: skip


def test_a_space_named_with_a_number_is_never_taken_for_another_space(
    profile: Profile, tmp_path: Path
) -> None:
    """Attack: a memories file (exported from a profile with a space named "1", or
    written by anyone) has rows whose space is "1". import_file resolves the name with
    SpaceStore.find, which tries the text as an id before a name, so the rows go into
    space #1 (here the kept-apart client space) instead of the space named "1". The
    same resolution serves `--space` on the command line, the API's `space=` and an
    app's add_memory(space=...)."""
    client = profile.spaces.create("Client", apart=True)
    named_one = profile.spaces.create(str(client.id))  # a space named "1"
    assert named_one.id != client.id
    data = {
        "format": "desktop-mem/memories", "version": 1,
        "memories": [{"text": "The garage code is 4711", "kind": "fact",
                      "space": str(client.id)}],
    }  # fmt: skip
    path = tmp_path / "mem.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    import_file(profile.memories, path, spaces=profile.spaces)
    [m] = [m for m in profile.memories.list(scope=EVERY) if "garage" in m.text]
    assert m.space == named_one.id
    assert profile.spaces.find(str(client.id)).id == named_one.id


def test_a_space_kept_apart_stays_apart_through_export_and_import(
    profile: Profile, tmp_path: Path, config: Config, vault: Vault, fake_ollama: FakeOllama
) -> None:
    """Attack: the person exports everything (a backup, or moving to a new computer)
    and imports the file into a fresh profile. The client space was kept apart; the
    file says only "space": "Client", so import_file makes a space "Client" that sees
    the shared space: its chats are now given the person's health and private shared
    memories, and its health facts are learned into the shared space."""
    client = profile.spaces.create("Client", apart=True).id
    profile.memories.add(NewMemory("The client's launch is on 3 May", space=client))
    profile.memories.add(NewMemory("Takes sertraline every morning"))
    out = tmp_path / "mem.json"
    write_export(profile.memories, out, "json")
    config.profile = "other"
    with Profile.open(config, vault) as other:
        import_file(other.memories, out, spaces=other.spaces)
        [there] = other.spaces.list()
        assert there.name == "Client"
        assert there.apart


# -- what held (regression guards) ----------------------------------------------------


def test_a_consolidated_write_in_a_space_is_not_skipped_for_another_spaces_copy(
    config: Config, vault: Vault, fake_ollama: FakeOllama
) -> None:
    """Held: a script's (or an app's) consolidated add to Work of a text Family already
    holds is added in Work: find_duplicate is asked within the target space only, so
    nothing is skipped because of another space's memory and the answer never names
    another space's memory."""
    service = Service.open(config, vault)
    try:
        family = service.spaces.create("Family").id
        service.spaces.create("Work")
        kept = service.memories.add(NewMemory(FAMILY_SECRET, space=family)).memory
        layer = MemoryLayer(service)
        done = layer.add(FAMILY_SECRET, consolidate=True, space="Work")
        [change] = done["changes"]
        assert change["action"] == "added" and change["memory_id"] != kept.id
        assert service.memories.get(change["memory_id"]).space == service.spaces.find("Work").id
    finally:
        service.close()


def test_a_chat_in_a_kept_apart_space_neither_recalls_nor_learns_shared(
    profile: Profile, fake_ollama: FakeOllama
) -> None:
    """Held: a kept-apart space's chat is given no past message of a shared
    conversation (the recall tier is scoped like memories), and a health fact it
    learns stays in the space (not proposed for the shared one)."""
    client = profile.spaces.create("Client", apart=True).id
    home = chat(profile, fake_ollama)
    fake_ollama.reply("Noted.")
    home.send("My daughter Mira starts at the Rosewood school in September")
    home.close()
    s = chat(profile, fake_ollama, space=client)
    fake_ollama.reply_json({"memories": [{"text": "Is allergic to latex", "importance": 0.9}]})
    fake_ollama.reply("Noted.")
    changes = s.send("Which school does Mira start at in September? I'm allergic to latex").learned(
        10
    )
    seen = fake_ollama.last_prompt()  # the answer's request (learning is structured)
    s.close()
    assert "Rosewood" not in seen
    assert [profile.memories.get(c.memory_id).space for c in changes] == [client]
