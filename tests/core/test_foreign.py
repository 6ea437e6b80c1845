"""Reading other assistants' exports (core/chat/foreign/) from the samples in
tests/data/imports: the kept branch only, tool calls left out, every format recognised by
what it holds, and bad files refused with one sentence."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path
from typing import Any

import pytest

from desktop_mem.core.chat.foreign import iter_array, open_export
from desktop_mem.core.errors import ImportRejected

DATA = Path(__file__).resolve().parents[1] / "data" / "imports"


def texts(path: Path) -> dict[str, list[tuple[str, str]]]:
    return {
        c.title: [(m.role, m.text) for m in c.messages] for c in open_export(path).conversations()
    }


@pytest.mark.parametrize("name", ["chatgpt_conversations.json", "chatgpt_export.zip"])
def test_chatgpt_keeps_only_the_branch_ending_at_current_node(name: str) -> None:
    export = open_export(DATA / name)
    assert export.kind == "chatgpt"
    convs = list(export.conversations())
    by_title = {c.title: c for c in convs}
    sourdough = [m.text for m in by_title["Sourdough starter schedule"].messages]
    assert sourdough == [
        "I work night shifts on Tuesdays and Wednesdays. When should I feed my sourdough starter?",
        "Twice a day: when you leave for your shift and when you come back.",  # regenerated
        "My starter is called Bubbles and lives in the fridge during the week.",
        "Then feed Bubbles once a week and take it out the night before baking.",
        "I bake on Saturdays with spelt flour, not rye.",  # the edited question
        "Spelt is gentle: take Bubbles out on Friday evening.",
    ]
    everything = " ".join(m.text for c in convs for m in c.messages)
    assert "rye flour" not in everything and "8 pm" not in everything  # abandoned branches
    assert [len(c.messages) for c in convs] == [6, 4, 4, 0, 0]
    # "how to respond" is offered as instructions; "about me" is facts, for review
    assert export.instructions == "Answer briefly, in British English."
    assert [(m.text, m.kind, m.origin) for m in export.about] == [
        ("I'm a nurse in Leeds who bakes at weekends.", "fact", "chatgpt")
    ]


def test_chatgpt_tool_calls_are_not_messages_and_attachments_are_named() -> None:
    run = texts(DATA / "chatgpt_conversations.json")["Half marathon training plan"]
    assert [r for r, _ in run] == ["user", "assistant", "user", "assistant"]
    assert run[0][1].endswith("[attached: running-log-april.png]")
    joined = " ".join(t for _, t in run)
    assert "search(" not in joined and "print(" not in joined and "30.0 km" in joined


def test_chatgpt_dates_and_chinese() -> None:
    convs = {c.title: c for c in open_export(DATA / "chatgpt_conversations.json").conversations()}
    hz = convs["周末去杭州"]
    assert hz.created_at == "2024-09-20T12:00:00+00:00"
    assert hz.messages[0].text.startswith("我下个月要去杭州出差")
    assert hz.key == "6a1f0c2e-0003-4a7b-9d3e-1c2b3a4d5e03"
    assert convs["Sourdough starter schedule"].messages[0].created_at == "2024-03-02T09:15:00+00:00"


@pytest.mark.parametrize("name", ["claude_conversations.json", "claude_export.zip"])
def test_claude_keeps_the_newest_branch_with_its_text_blocks(name: str) -> None:
    export = open_export(DATA / name)
    assert export.kind == "claude"
    convs = {c.title: c for c in export.conversations()}
    bike = [m.text for m in convs["Choosing a bike for commuting"].messages]
    assert len(bike) == 4 and "2,000 pounds" in bike[2] and "1,500" not in " ".join(bike)
    assert bike[3] == (
        "Let me look at prices.\n\nCargo e-bikes start at about 1,800 pounds, so 2,000 is "
        "enough for a basic one."
    )
    letter = convs["Thank-you letter"].messages[0]
    assert letter.role == "user" and letter.text.endswith("[attached: letter.txt]")
    assert [len(c.messages) for c in convs.values() if not c.project] == [4, 2, 0, 2]
    assert convs["学中文"].messages[0].created_at == "2024-08-08T08:00:00+00:00"


ALLOTMENT = "9a9a9a9a-0001-4000-8000-000000000001"


def test_claude_zip_offers_its_memories_and_its_projects() -> None:
    export = open_export(DATA / "claude_export.zip")
    assert export.projects == 1
    # what Claude remembered of a project is for that project's space
    assert [(m.text, m.space) for m in export.memories] == [
        ("The user is a nurse in Leeds who works night shifts.", None),
        ("The user commutes 12 km by bike.", None),
        ("The user prefers brief answers in British English.", None),
        ("The user grows potatoes and beans on an allotment.", ALLOTMENT),
    ]
    # the project's instructions are its space's, not a memory
    allotment = export.spaces[ALLOTMENT]
    assert (allotment.origin, allotment.name, allotment.instruction) == (
        "claude",
        "Allotment",
        "I have a 10 by 5 metre allotment plot in Leeds.",
    )


def test_memory_lists() -> None:
    pasted = open_export(DATA / "pasted_memories.txt")
    assert pasted.kind == "pasted" and pasted.conversation_files == []
    assert [m.text for m in pasted.memories][2:4] == [
        "Is allergic to peanuts",
        "Has a seven-year-old daughter called Xiaoyu",
    ]
    assert len(pasted.memories) == 6
    mem0 = open_export(DATA / "mem0_export.json")
    assert mem0.kind == "mem0"
    assert [(m.text, m.created_at) for m in mem0.memories][0] == (
        "Training for the York half marathon in October",
        "2024-05-14T18:00:00+00:00",
    )
    om = open_export(DATA / "openmemory_export.json")
    assert om.kind == "openmemory" and [m.text for m in om.memories] == ["Prefers tea to coffee"]


def test_a_stream_is_read_element_by_element_across_chunk_boundaries(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from desktop_mem.core.chat.foreign import stream

    monkeypatch.setattr(stream, "CHUNK", 7)
    items = [{"a": "x" * n, "n": 12345678901234567890, "f": 1.5e10} for n in range(30)]
    items.append(123456789)
    text = " [ " + " ,\n".join(json.dumps(i) for i in items) + " ] "
    assert list(iter_array(io.StringIO(text), "t")) == items


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ('[{"mapping": {}}, {"mapping": {"a": ', "character 37"),
        ('[{"mapping": {}} {"mapping": {}}]', "character 18"),
        ('[{"mapping": {}},', "ends before"),
    ],
)
def test_a_truncated_or_malformed_file_says_where(text: str, where: str) -> None:
    with pytest.raises(ImportRejected) as exc:
        list(iter_array(io.StringIO(text), "conversations.json"))
    assert where in str(exc.value) and "conversations.json" in str(exc.value)


def test_other_files_and_hostile_zips_are_refused(tmp_path: Path) -> None:
    other = tmp_path / "photo.png"
    other.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00")
    with pytest.raises(ImportRejected, match="not an export this app reads"):
        open_export(other)
    listing = tmp_path / "table.json"
    listing.write_text('[{"name": "a", "price": 3}]')
    with pytest.raises(ImportRejected, match="not an export this app reads"):
        open_export(listing)
    outside = tmp_path / "outside.zip"
    with zipfile.ZipFile(outside, "w") as z:
        z.writestr("../../etc/conversations.json", "[]")
    with pytest.raises(ImportRejected, match="points outside it"):
        open_export(outside)
    bomb = tmp_path / "bomb.zip"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("conversations.json", "[" + " " * (64 * 1024 * 1024) + "]")
    with pytest.raises(ImportRejected, match="zip bomb"):
        open_export(bomb)


def test_an_unknown_newer_version_imports_what_it_recognises(tmp_path: Path) -> None:
    convs = json.loads((DATA / "chatgpt_conversations.json").read_text())
    newer = tmp_path / "conversations.json"
    newer.write_text(json.dumps([convs[0], {"format_v9": True, "turns": []}, convs[1]]))
    export = open_export(newer)
    assert [len(c.messages) for c in export.conversations()] == [6, 4]
    assert export.skipped == 1


def test_claude_projects_bring_their_instructions_and_documents() -> None:
    export = open_export(DATA / "claude_projects.json")
    assert (export.kind, export.projects, export.memories) == ("claude", 3, [])
    # Claude's own starter project ("How to use Claude") is not the user's: left out
    assert [(s.name, s.instruction) for s in export.spaces.values()] == [
        ("Allotment", "I have a 10 by 5 metre allotment plot in Leeds."),
        ("York half marathon", ""),
        ("学中文", "请用简体中文回答,句子要短。我是初学者,每个新词请加拼音。"),
    ]
    projects = {c.title: c for c in export.conversations()}
    assert list(projects) == ["Allotment", "York half marathon", "学中文"]
    assert all(c.project and c.key.startswith("project:") for c in projects.values())
    assert [c.space for c in projects.values()] == list(export.spaces)
    allotment = [m.text for m in projects["Allotment"].messages]
    assert allotment == [
        "Claude project \u201cAllotment\u201d\n\nPlanning the vegetable plot\n\n"
        "Instructions: I have a 10 by 5 metre allotment plot in Leeds.",
        "planting.md (in the project \u201cAllotment\u201d)\n\nPotatoes in March, beans in May.",
    ]
    # no description or instructions: only its document, with the document's date (the
    # empty document is left out)
    run = projects["York half marathon"].messages
    assert len(run) == 1 and "Race day: 13 October" in run[0].text
    assert run[0].created_at == "2024-05-03T18:05:00+00:00"
    assert [m.role for m in projects["学中文"].messages] == ["user"]


def _chatgpt_in(project: str | None, field: str = "conversation_template_id") -> dict[str, Any]:
    conv = json.loads((DATA / "chatgpt_conversations.json").read_text())[0]
    conv[field] = project
    return conv


def test_a_chatgpt_conversation_says_its_project_by_its_id(tmp_path: Path) -> None:
    convs = [
        _chatgpt_in("g-p-67a1b2c3d4e5f60718293a4b5c6d7e8f"),
        _chatgpt_in("g-p-0123", "gizmo_id") | {"id": "two", "conversation_id": "two"},
        _chatgpt_in("g-abc") | {"id": "three", "conversation_id": "three"},  # a custom GPT
        _chatgpt_in("g-p-") | {"id": "four", "conversation_id": "four"},  # no id after it
    ]
    path = tmp_path / "conversations.json"
    path.write_text(json.dumps(convs))
    export = open_export(path)
    assert [c.space for c in export.conversations()] == [
        "g-p-67a1b2c3d4e5f60718293a4b5c6d7e8f", "g-p-0123", None, None,
    ]  # fmt: skip
    # the export names no project: its space is numbered when it is made
    assert [(s.origin, s.name) for s in export.spaces.values()] == [
        ("chatgpt", None), ("chatgpt", None),
    ]  # fmt: skip


def test_a_claude_conversation_that_says_its_project(tmp_path: Path) -> None:
    convs = json.loads((DATA / "claude_conversations.json").read_text())
    convs[0]["project_uuid"] = ALLOTMENT
    convs[1]["project"] = {"uuid": "elsewhere", "name": "Garden shed"}
    path = tmp_path / "claude.zip"
    projects = json.loads((DATA / "claude_projects.json").read_text())
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("conversations.json", json.dumps(convs))
        # newer exports: a project a file, in projects/
        for p in projects:
            z.writestr(f"projects/{p['uuid']}.json", json.dumps(p))
    export = open_export(path)
    assert export.unknown_files == []
    spaces = [c.space for c in export.conversations() if not c.project]
    assert spaces[:3] == [ALLOTMENT, "elsewhere", None]
    assert {s.key: s.name for s in export.spaces.values()} == {
        ALLOTMENT: "Allotment", "elsewhere": "Garden shed",
        "9a9a9a9a-0002-4000-8000-000000000002": "York half marathon",
        "9a9a9a9a-0003-4000-8000-000000000003": "学中文",
    }  # fmt: skip
    assert export.projects == 3
    unpacked = tmp_path / "unpacked"
    zipfile.ZipFile(path).extractall(unpacked)
    assert open_export(unpacked).projects == 3
