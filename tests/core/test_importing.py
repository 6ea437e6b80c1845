"""Importing another assistant's history through the application service: the
conversations join the recall tier with their own dates and a source label, once;
the facts in them are proposed, and none reaches a prompt before it is accepted."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from desktop_mem.core.errors import ImportRejected
from desktop_mem.core.memory.store import NewMemory
from desktop_mem.core.profile import Profile
from desktop_mem.core.service import Service
from tests import leaks
from tests.fakes.ollama_server import FakeOllama

DATA = Path(__file__).resolve().parents[1] / "data" / "imports"


@pytest.fixture
def app(profile: Profile) -> Iterator[Service]:
    service = Service(profile)
    yield service
    service.background.shutdown(wait=True)


def extraction(*texts: str) -> dict[str, Any]:
    return {"memories": [{"text": t, "kind": "fact", "importance": 0.6} for t in texts]}


def test_the_survey_says_what_is_there_and_writes_nothing(app: Service) -> None:
    found = app.imports.survey(DATA / "chatgpt_export.zip")
    assert (found.kind, found.label) == ("chatgpt", "ChatGPT")
    assert (found.conversations, found.messages, found.empty, found.already) == (3, 14, 2, 0)
    assert found.first == "2024-03-02T09:15:00+00:00" and found.last.startswith("2024-09-20")
    assert found.instructions == "Answer briefly, in British English."
    assert found.about == 1  # "I'm a nurse in Leeds…": a fact, proposed for review
    assert app.counts()["messages"] == 0 and app.conversations.list() == []


def test_conversations_keep_their_dates_and_source_and_import_once(app: Service) -> None:
    done, warnings = app.imports.run(DATA / "chatgpt_conversations.json")
    assert warnings == []
    assert (done.conversations, done.messages, done.empty) == (3, 14, 2)
    convs = {c.title: c for c in app.conversations.list()}
    sour = convs["Sourdough starter schedule"]
    assert sour.source == "from ChatGPT, 2024-03-02" and sour.messages == 6
    assert sour.created_at.startswith("2024-03-02T09:15")
    msgs = app.conversations.messages(sour.id)
    assert [m.created_at[:16] for m in msgs][:2] == ["2024-03-02T09:15", "2024-03-02T09:16"]
    assert "rye flour" not in " ".join(m.content for m in msgs)
    hits, _ = app.conversations.search("Bubbles fridge", relevant_only=False)
    assert hits and hits[0].message.conversation_id == sour.id
    hits, _ = app.conversations.search("花生过敏", relevant_only=False)
    assert hits and "杭州" in hits[0].message.content

    again, _ = app.imports.run(DATA / "chatgpt_export.zip")  # the same export, zipped
    assert (again.conversations, again.messages, again.already) == (0, 0, 3)
    assert app.counts()["messages"] == 14 and len(app.conversations.list()) == 3
    assert app.imports.survey(DATA / "chatgpt_export.zip").already == 3


def test_the_chat_recalls_an_imported_message_with_its_date(
    app: Service, fake_ollama: FakeOllama
) -> None:
    app.imports.run(DATA / "claude_conversations.json", propose=False)
    chat = app.chat()
    chat.send("Which cargo bike budget did I mention?")
    seen = fake_ollama.last_prompt()
    assert "<past_messages>" in seen and "2,000 pounds" in seen and "2024-04-10" in seen
    chat.close()


def test_a_stopped_import_resumes_without_duplicates(app: Service) -> None:
    first, _ = app.imports.run(DATA / "claude_export.zip", should_stop=lambda: True)
    assert first.stopped and first.conversations == 1
    rest, _ = app.imports.run(DATA / "claude_export.zip")
    assert rest.already == 1 and first.conversations + rest.conversations == 3
    assert rest.projects == 1  # the Allotment project: its description, its document
    assert app.counts()["messages"] == 8 + 2


def test_only_the_last_year(app: Service) -> None:
    done, _ = app.imports.run(DATA / "chatgpt_conversations.json", since="2024-06-01")
    assert [c.title for c in app.conversations.list()] == ["周末去杭州"]
    assert done.older == 2


def test_nothing_in_plain_text_on_disk(
    app: Service, profile: Profile, home: Path, tmp_path: Path
) -> None:
    canary = "Zebrafinch4471 keeps the spare key in 蓝色花盆"
    convs = json.loads((DATA / "chatgpt_conversations.json").read_text())
    node = convs[0]["mapping"]["u2"]["message"]
    node["content"]["parts"] = [canary]
    export = tmp_path / "export" / "conversations.json"
    export.parent.mkdir()
    export.write_text(json.dumps(convs, ensure_ascii=False))
    app.imports.run(export)
    assert app.conversations.search("Zebrafinch4471", relevant_only=False)[0]
    needles = ["zebrafinch4471", "蓝色花盆", "spare key"]
    assert leaks.scan_files(leaks.files_under(home), needles) == []
    profile.close()
    assert leaks.scan_files(leaks.files_under(home), needles) == []


def test_facts_are_proposed_then_accepted_edited_or_rejected(
    app: Service, profile: Profile, fake_ollama: FakeOllama
) -> None:
    app.memories.add(NewMemory("Works night shifts on Tuesdays and Wednesdays"))
    app.imports.run(DATA / "chatgpt_conversations.json")
    assert app.imports.to_read() == 7
    about = app.imports.proposals()
    assert [(p.text, p.source) for p in about] == [
        ("I'm a nurse in Leeds who bakes at weekends.", "from ChatGPT, 2024-03-02")
    ]
    app.imports.reject([about[0].id])
    fake_ollama.reply_json(extraction("Works night shifts on Tuesdays and Wednesdays"))
    fake_ollama.reply_json(extraction("Has a sourdough starter called Bubbles"))
    fake_ollama.reply_json(extraction("Bakes on Saturdays with spelt flour"))
    fake_ollama.reply_json(extraction("Is training for the York half marathon"))
    done = app.imports.propose_facts(limit=4)
    assert (done.read, done.proposed, done.left) == (4, 4, 3)
    # the extraction was asked with the conversation's date
    asked = fake_ollama.chat_requests(structured=True)[0]["messages"][-1]["content"]
    assert "2024-03-02" in asked
    waiting = app.imports.proposals()
    assert [p.text for p in waiting][:2] == [
        "Works night shifts on Tuesdays and Wednesdays",
        "Has a sourdough starter called Bubbles",
    ]
    held = app.memories.store.find_duplicate("Works night shifts on Tuesdays and Wednesdays")
    assert waiting[0].duplicate_of == held.id and waiting[1].duplicate_of is None
    assert waiting[1].source == "from ChatGPT, 2024-03-02"
    assert app.counts()["memories"] == 1  # nothing imposed

    chat = app.chat()
    chat.send("What is my starter called?")
    assert (
        "sourdough starter called Bubbles"
        not in fake_ollama.last_prompt().split("<past_messages>")[0]
    )
    chat.close()

    by_text = {p.text: p.id for p in waiting}
    app.imports.accept([by_text["Has a sourdough starter called Bubbles"]])
    app.imports.accept([by_text["Bakes on Saturdays with spelt flour"]], text="Bakes on Saturdays")
    assert app.imports.reject([by_text["Is training for the York half marathon"]]) == 1
    assert app.imports.accept() == []  # the duplicate: marked accepted, not added twice
    texts = sorted(m.text for m in app.memories.store.list())
    assert texts == [
        "Bakes on Saturdays",
        "Has a sourdough starter called Bubbles",
        "Works night shifts on Tuesdays and Wednesdays",
    ]
    bubbles = app.memories.store.find_duplicate("Has a sourdough starter called Bubbles")
    assert bubbles.source == "import" and bubbles.created_at.startswith("2024-03-02")
    assert app.imports.counts() == {"waiting": 0, "accepted": 3, "rejected": 2}

    chat = app.chat()
    chat.send("What is my starter called?")
    assert "Has a sourdough starter called Bubbles" in fake_ollama.last_prompt()
    chat.close()


def test_a_model_server_failure_leaves_the_rest_to_read(
    app: Service, fake_ollama: FakeOllama
) -> None:
    app.imports.run(DATA / "claude_conversations.json")
    fake_ollama.fail_next(503, times=10)
    done = app.imports.propose_facts()
    assert done.read == 0 and done.failed and done.left == 4


def test_memory_lists_are_proposed_once(app: Service) -> None:
    app.memories.add(NewMemory("Is allergic to peanuts"))
    done, _ = app.imports.run(DATA / "pasted_memories.txt")
    assert done.proposed == 6 and done.conversations == 0
    dup = [p for p in app.imports.proposals() if p.duplicate_of]
    assert [p.text for p in dup] == ["Is allergic to peanuts"]
    again, _ = app.imports.run(DATA / "pasted_memories.txt")
    assert again.proposed == 0
    mem0, _ = app.imports.run(DATA / "mem0_export.json")
    assert mem0.proposed == 2
    claude, _ = app.imports.run(DATA / "claude_export.zip")
    # the project's instructions are its space's instruction, not a memory
    assert claude.proposed == 4 and claude.conversations == 3 and claude.spaces == 1
    app.imports.reject()
    assert app.imports.proposals() == [] and app.counts()["memories"] == 1


def test_a_file_of_another_kind_writes_nothing(app: Service, tmp_path: Path) -> None:
    bad = tmp_path / "notes.json"
    bad.write_text('{"shopping": ["milk"]}')
    with pytest.raises(ImportRejected, match="not an export this app reads"):
        app.imports.run(bad)
    cut = tmp_path / "conversations.json"
    cut.write_text((DATA / "chatgpt_conversations.json").read_text()[:9000])
    with pytest.raises(ImportRejected, match="character"):
        app.imports.survey(cut)
    assert app.counts()["messages"] == 0


def test_the_conversations_export_is_read_back_whole(app: Service, tmp_path: Path) -> None:
    app.imports.run(DATA / "chatgpt_conversations.json", propose=False)
    chat = app.chat()
    chat.send("我住在杭州，喜欢龙井茶。")
    chat.close()
    before = {
        c.title: [(m.role, m.content, m.created_at) for m in app.conversations.messages(c.id)]
        for c in app.conversations.list()
    }
    out = tmp_path / "all.json"
    assert app.conversations.export_all(out) == 4
    md = tmp_path / "all.md"
    app.conversations.export_all(md, "md")
    assert "I bake on Saturdays with spelt flour" in md.read_text()
    for c in app.conversations.list():
        app.conversations.delete(c.id)
    found = app.imports.survey(out)
    assert (found.kind, found.conversations, found.messages) == ("desktop-mem", 4, 16)
    done, _ = app.imports.run(out, propose=False)
    after = {
        c.title: [(m.role, m.content, m.created_at) for m in app.conversations.messages(c.id)]
        for c in app.conversations.list()
    }
    assert after == before
    again, _ = app.imports.run(out)
    assert again.conversations == 0 and again.already == 4


def test_a_decided_or_forgotten_proposal_leaves_no_text(
    app: Service, profile: Profile, isolated: Any, fake_ollama: FakeOllama
) -> None:
    from tests.fakes.keyrings import stored_key
    from tests.sqlcipher_pages import decrypted_pages

    app.imports.run(DATA / "claude_conversations.json")
    fake_ollama.reply_json(extraction("Keeps a kayak called Quillwort9 in the garage"))
    fake_ollama.reply_json(extraction("Collects stamps from Zanzibar7781"))
    app.imports.propose_facts(limit=2)
    kayak, stamps = (p.id for p in app.imports.proposals())
    key = stored_key(isolated, profile.db.path)
    needles = [b"quillwort9", b"zanzibar7781"]

    def found() -> list[bytes]:
        pages = b"".join(decrypted_pages(profile.db.path, secret_hex=key)).lower()
        return [n for n in needles if n in pages]

    assert found() == needles
    app.imports.reject([stamps])
    (memory,) = app.imports.accept([kayak])
    app.memories.store.delete(memory)
    assert found() == []
    # a conversation deleted takes the facts found in it; forget everything takes all
    fake_ollama.reply_json(extraction("Keeps a kayak called Quillwort9 in the garage"))
    app.imports.propose_facts(limit=1)
    assert app.imports.proposals() == []  # decided before: not proposed again
    fake_ollama.reply_json(extraction("Sings in a choir called Zanzibar7781"))
    app.imports.propose_facts(limit=1)
    (sings,) = app.imports.proposals()
    app.conversations.delete(app.conversations.message(sings.message_id).conversation_id)
    assert app.imports.proposals() == [] and found() == []
    app.imports.run(DATA / "pasted_memories.txt")
    assert app.imports.proposals()
    app.forget_everything()
    assert app.imports.counts() == {"waiting": 0, "accepted": 0, "rejected": 0}


def test_what_goes_with_a_message_is_announced_after_the_commit(
    app: Service, profile: Profile, fake_ollama: FakeOllama
) -> None:
    """The proposals store alone writes its table: a conversation deleted, or everything
    forgotten, has it forget what was found there inside the same transaction, and it
    says so once that commits (the review then lists what is left)."""
    from desktop_mem.core.events import Event, ProposalsChanged

    app.imports.run(DATA / "claude_conversations.json")
    fake_ollama.reply_json(extraction("Sings in a choir called Zanzibar7781"))
    app.imports.propose_facts(limit=1)
    (sings,) = app.imports.proposals()
    heard: list[int] = []

    def listener(event: Event) -> None:
        if isinstance(event, ProposalsChanged):
            heard.append(len(app.imports.proposals()))

    profile.events.subscribe(listener)
    app.conversations.delete(app.conversations.message(sings.message_id).conversation_id)
    assert heard == [0]
    app.imports.run(DATA / "pasted_memories.txt")
    assert heard[-1] > 0
    heard.clear()
    app.forget_everything()
    assert heard == [0]


def test_imported_messages_are_read_for_facts_while_the_user_is_away(
    app: Service, fake_ollama: FakeOllama
) -> None:
    app.settings.set("sleep_consolidation", False)  # only the imported messages are due
    assert not app.memories.idle_due()
    app.imports.run(DATA / "claude_conversations.json")
    assert app.memories.idle_due()
    fake_ollama.reply_json(extraction("Commutes 12 km to the hospital by bike"))
    # the user comes back once the first fact is found
    first = app.memories.idle_pass(should_stop=lambda: bool(app.imports.proposals()))
    assert first.stopped and first.proposed == 1 and app.imports.to_read() == 3
    rest = app.memories.idle_pass()
    assert not rest.stopped and app.imports.to_read() == 0 and not app.memories.idle_due()
    app.settings.set("auto_memory", False)
    app.imports.run(DATA / "chatgpt_conversations.json")
    assert not app.memories.idle_due()  # learning off: nothing runs while away


def test_facts_are_read_only_from_the_last_year_when_asked(app: Service) -> None:
    done, _ = app.imports.run(DATA / "chatgpt_conversations.json", facts_since="2024-06-01")
    assert done.conversations == 3 and app.imports.to_read() == 2  # the Hangzhou chat's
    rest, _ = app.imports.run(DATA / "claude_conversations.json", facts_since="2024-08-08")
    assert rest.to_read == 3  # and 学中文's one message of that day


def test_this_apps_memories_export_is_proposed_and_a_table_refused(
    app: Service, tmp_path: Path
) -> None:
    app.memories.add(NewMemory("Grows tomatoes on the balcony"))
    mine = tmp_path / "memories.json"
    app.memories.export(mine)
    app.memories.store.delete(app.memories.store.list()[0].id)
    found = app.imports.survey(mine)
    assert (found.kind, found.memories) == ("desktop-mem", 1)
    app.imports.run(mine)
    assert [p.text for p in app.imports.proposals()] == ["Grows tomatoes on the balcony"]
    table = tmp_path / "memories.csv"
    table.write_text("text,kind\nLikes figs,fact\n")
    with pytest.raises(ImportRejected, match="not an export this app reads"):
        app.imports.survey(table)


def _moves_export(path: Path) -> Path:
    """A Claude export where the newer conversation comes first in the file."""

    def conv(key: str, when: str, said: str) -> dict[str, Any]:
        def msg(uuid: str, sender: str, text: str) -> dict[str, Any]:
            return {"uuid": uuid, "text": text, "sender": sender, "created_at": when,
                    "content": [{"type": "text", "text": text}], "attachments": []}  # fmt: skip

        return {"uuid": key, "name": f"Moving ({when[:4]})", "created_at": when,
                "updated_at": when, "chat_messages": [
                    msg(f"{key}-1", "human", said), msg(f"{key}-2", "assistant", "Noted.")]}  # fmt: skip

    path.write_text(
        json.dumps(
            [
                conv("c-2024", "2024-06-10T08:00:00Z", "We finally moved to Lisbon last week."),
                conv("c-2023", "2023-02-01T08:00:00Z", "I live in Berlin, in Kreuzberg."),
            ]
        ),  # fmt: skip
        encoding="utf-8",
    )
    return path


def _mover(body: dict[str, Any]) -> dict[str, Any]:
    """The model: finds where the user lives, and says a new home replaces the old."""
    asked = body["messages"][-1]["content"]
    if "action" in body["format"]["properties"]:
        stored, new = asked.split("New statement:")
        city = "Lisbon" if "Lisbon" in new else "Berlin"
        lines = [ln for ln in stored.splitlines() if ln.startswith("[")]
        for before in {"Lisbon": ("Berlin", "Paris"), "Berlin": ("Lisbon", "Paris")}[city]:
            for line in lines:
                if before in line:
                    return {"action": "INVALIDATE", "id": int(line[1 : line.index("]")])}
        return {"action": "ADD"}
    for city in ("Lisbon", "Berlin"):
        if city in asked.split("Assistant")[0]:
            return extraction(f"Lives in {city}")
    return extraction()


def test_a_newer_fact_replaces_an_older_one_by_date_not_by_click(
    app: Service, fake_ollama: FakeOllama, tmp_path: Path
) -> None:
    app.memories.add(NewMemory("Lives in Paris", created_at="2021-09-01T00:00:00Z"))
    paris = app.memories.store.find_duplicate("Lives in Paris")
    fake_ollama.json_responder = _mover
    app.imports.run(_moves_export(tmp_path / "conversations.json"))
    done = app.imports.propose_facts()
    assert (done.read, done.proposed, done.failed) == (2, 2, None)
    by_text = {p.text: p for p in app.imports.proposals()}
    lisbon, berlin = by_text["Lives in Lisbon"], by_text["Lives in Berlin"]
    # the review says what each would change: Lisbon (2024) replaces Paris (2021), and
    # Berlin (2023), found after it, is replaced by it
    assert lisbon.replaces == {"text": "Lives in Paris", "date": "2021-09-01"}
    assert lisbon.replaced_by is None and berlin.replaces is None
    assert berlin.replaced_by == {"text": "Lives in Lisbon", "date": "2024-06-10"}
    assert berlin.to_dict()["replaced_by"]["text"] == "Lives in Lisbon"

    # the newer accepted first, then the older: the older does not overwrite it
    app.imports.accept([lisbon.id])
    app.imports.accept([berlin.id])
    current = [m.text for m in app.memories.store.list(include_expired=False)]
    assert current == ["Lives in Lisbon"]
    every = {m.text: m for m in app.memories.store.list(include_expired=True)}
    assert every["Lives in Berlin"].valid_until.startswith("2024-06-10")
    assert app.memories.store.get(paris.id).valid_until.startswith("2024-06-10")
    assert every["Lives in Lisbon"].valid_until is None
    history = app.memories.store.history(every["Lives in Berlin"].id)
    assert history[-1].action == "replaced by a newer statement"

    chat = app.chat()
    chat.send("Do I live in Lisbon or in Berlin now?")
    seen = fake_ollama.last_prompt()
    memories = seen[seen.index("<memories>") : seen.index("</memories>")]
    assert "Lives in Lisbon" in memories and "Lives in Berlin" not in memories
    chat.close()


def test_accepting_all_at_once_lets_the_date_decide(
    app: Service, fake_ollama: FakeOllama, tmp_path: Path
) -> None:
    fake_ollama.json_responder = _mover
    app.imports.run(_moves_export(tmp_path / "conversations.json"))
    app.imports.propose_facts()
    app.imports.accept()
    current = [m.text for m in app.memories.store.list(include_expired=False)]
    assert current == ["Lives in Lisbon"]
    every = {m.text: m for m in app.memories.store.list(include_expired=True)}
    assert every["Lives in Berlin"].valid_until.startswith("2024-06-10")


def test_claude_projects_become_spaces_with_their_documents_recalled_there(
    app: Service, fake_ollama: FakeOllama
) -> None:
    found = app.imports.survey(DATA / "claude_projects.json")
    assert (found.kind, found.projects, found.memories, found.conversations) == ("claude", 3, 0, 0)
    assert found.spaces == 3 and app.spaces.list() == []
    done, _ = app.imports.run(DATA / "claude_projects.json")
    assert (done.projects, done.spaces, done.proposed, done.conversations) == (3, 3, 0, 0)
    spaces = {s.name: s for s in app.spaces.list()}
    assert [(n, s.instruction, s.apart) for n, s in spaces.items()] == [
        ("Allotment", "I have a 10 by 5 metre allotment plot in Leeds.", False),
        ("York half marathon", "", False),
        ("学中文", "请用简体中文回答,句子要短。我是初学者,每个新词请加拼音。", False),
    ]
    assert app.counts()["memories"] == 0 and app.imports.proposals() == []
    run = {c.title: c for c in app.conversations.list()}["York half marathon"]
    assert run.source == "from Claude, 2024-05-03"
    assert run.space == spaces["York half marathon"].id
    assert app.conversations.search("race day university start", relevant_only=False)[0] == []
    hits, _ = app.conversations.store.search(
        "race day university start", relevant_only=False, scope=app.spaces.scope(run.space)
    )
    assert hits and hits[0].message.conversation_id == run.id
    chat = app.chat(space=spaces["York half marathon"].id)
    chat.send("When is race day for my half marathon?")
    assert "13 October" in fake_ollama.last_prompt()
    chat.close()
    chat = app.chat()  # the shared space is not given a project's documents
    chat.send("When is race day for my half marathon?")
    assert "13 October" not in fake_ollama.last_prompt()
    chat.close()
    again, _ = app.imports.run(DATA / "claude_projects.json")
    assert (again.projects, again.proposed, again.already) == (0, 0, 0)
    assert len(app.spaces.list()) == 3
    assert len(app.conversations.list()) == 3 + 2  # and the chats just had


def test_saved_memories_are_weighed_against_the_profile_by_date(
    app: Service, fake_ollama: FakeOllama, tmp_path: Path
) -> None:
    app.memories.add(NewMemory("Lives in Lisbon", created_at="2024-06-10T08:00:00Z"))
    saved = tmp_path / "mem0.json"
    saved.write_text(
        json.dumps(
            {
                "results": [
                    {
                        "id": "m-1",
                        "memory": "Lives in Berlin",
                        "created_at": "2023-02-01T08:00:00Z",
                    },
                ]
            }
        ),  # fmt: skip
        encoding="utf-8",
    )
    fake_ollama.json_responder = _mover
    done, _ = app.imports.run(saved)
    assert done.proposed == 1 and app.imports.to_weigh() == 1
    assert app.memories.idle_due()  # weighed while the user is away, with the model
    [berlin] = app.imports.proposals()
    assert berlin.replaced_by is None  # not weighed yet: no model call at import
    assert app.imports.propose_facts().failed is None
    assert app.imports.to_weigh() == 0
    [berlin] = app.imports.proposals()
    assert berlin.replaced_by == {"text": "Lives in Lisbon", "date": "2024-06-10"}
    app.imports.accept()
    current = [m.text for m in app.memories.store.list(include_expired=False)]
    assert current == ["Lives in Lisbon"]


def test_one_pass_reads_at_a_time(app: Service, fake_ollama: FakeOllama) -> None:
    """The window's reading after an import and the idle pass never read one message
    twice: a second pass returns at once (busy), or waits for the first to end."""
    import threading

    gate, asked = threading.Semaphore(0), threading.Event()

    def slow(body: dict[str, Any]) -> dict[str, Any]:
        asked.set()
        assert gate.acquire(timeout=60)
        return extraction("Commutes 12 km to the hospital by bike")

    fake_ollama.json_responder = slow
    app.imports.run(DATA / "claude_conversations.json")
    first: list[Any] = []
    reader = threading.Thread(target=lambda: first.append(app.imports.propose_facts()))
    reader.start()
    assert asked.wait(60)  # the first pass is reading
    second = app.imports.propose_facts()
    assert second.busy and second.read == 0
    stopped = app.imports.propose_facts(wait=True, should_stop=lambda: True)
    assert stopped.busy and stopped.read == 0
    for _ in range(4):
        gate.release()
    reader.join(60)
    assert first[0].read == 4 and not first[0].busy
    assert app.imports.propose_facts(wait=True).read == 0  # nothing left, nothing twice
    assert len(app.imports.proposals()) == 1
