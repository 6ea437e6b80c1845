"""Imports land in spaces: a ChatGPT or Claude project is imported into a space of its
own, named as it was (numbered when the export names none), made once and found again
by the project's id; its conversations go there, what is found in them is proposed for
it (what applies everywhere for the shared space), and accepting adds it there. A
project's name that no space may have is cleaned or numbered, never a failure."""

from __future__ import annotations

import json
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from desktop_mem.core.errors import NotFound
from desktop_mem.core.memory.spaces import EVERY, MAX_NAME, only
from desktop_mem.core.profile import Profile
from desktop_mem.core.service import Service
from tests.fakes.ollama_server import FakeOllama

DATA = Path(__file__).resolve().parents[1] / "data" / "imports"
ALLOTMENT = "9a9a9a9a-0001-4000-8000-000000000001"
BAKING, TRAVEL = "g-p-67a1b2c3d4e5f60718293a4b5c6d7e8f", "g-p-0f1e2d3c4b5a69788796a5b4c3d2e1f0"


@pytest.fixture
def app(profile: Profile) -> Iterator[Service]:
    service = Service(profile)
    yield service
    service.background.shutdown(wait=True)


def _finds(body: dict[str, Any]) -> dict[str, Any]:
    """The model: a fact a message says, and a new fact is never a close call."""
    if "action" in body["format"]["properties"]:
        return {"action": "ADD"}
    said = body["messages"][-1]["content"].split("Assistant")[0]
    found = {
        "starter is called Bubbles": "Has a sourdough starter called Bubbles",
        "我对花生过敏": "Is allergic to peanuts",  # health: applies everywhere
        "我女儿叫小雨": "Has a daughter called Xiaoyu",  # who the person is: everywhere too
    }
    return {
        "memories": [
            {"text": fact, "kind": "fact", "importance": 0.6}
            for word, fact in found.items()
            if word in said
        ]
    }


def _chatgpt_projects(path: Path, extra: bool = False) -> Path:
    convs = json.loads((DATA / "chatgpt_conversations.json").read_text())
    convs[0]["conversation_template_id"] = BAKING  # Sourdough starter schedule
    convs[1]["gizmo_id"], convs[1]["gizmo_type"] = BAKING, "snorlax"  # Half marathon
    convs[2]["conversation_template_id"] = TRAVEL  # 周末去杭州
    if extra:  # a later export: a new conversation in the first project
        more = json.loads(json.dumps(convs[0]))
        more.update(id="later", conversation_id="later", title="Rye loaf", create_time=1.8e9)
        convs.append(more)
    path.write_text(json.dumps(convs), encoding="utf-8")
    return path


def test_chatgpt_projects_become_numbered_spaces_and_their_facts_go_there(
    app: Service, fake_ollama: FakeOllama, tmp_path: Path
) -> None:
    export = _chatgpt_projects(tmp_path / "conversations.json")
    assert app.imports.survey(export).spaces == 2
    done, _ = app.imports.run(export)
    assert (done.conversations, done.spaces) == (3, 2)
    # the export names no project: numbered, in the order they are met
    spaces = {s.name: s for s in app.spaces.list()}
    assert list(spaces) == ["ChatGPT project 1", "ChatGPT project 2"]
    assert not any(s.apart or s.instruction for s in spaces.values())
    baking, travel = spaces["ChatGPT project 1"].id, spaces["ChatGPT project 2"].id
    convs = {c.title: c.space for c in app.conversations.list()}
    assert convs == {
        "Sourdough starter schedule": baking,
        "Half marathon training plan": baking,
        "周末去杭州": travel,
    }

    fake_ollama.json_responder = _finds
    app.imports.propose_facts()
    where = {p.text: p.space for p in app.imports.proposals()}
    assert where == {
        "I'm a nurse in Leeds who bakes at weekends.": None,  # custom instructions' about me
        "Has a sourdough starter called Bubbles": baking,
        "Is allergic to peanuts": None,
        "Has a daughter called Xiaoyu": None,
    }
    assert where == {p["text"]: p["space"] for p in (p.to_dict() for p in app.imports.proposals())}
    app.imports.accept()
    kept = {m.text: m.space for m in app.memories.store.list(scope=EVERY)}
    assert kept == where

    # a second export: the space is found again by the project's id, renamed or not
    app.spaces.change(baking, name="Baking")
    again, _ = app.imports.run(_chatgpt_projects(tmp_path / "later.json", extra=True))
    assert (again.conversations, again.already, again.spaces) == (1, 3, 1)
    assert [s.name for s in app.spaces.list()] == ["Baking", "ChatGPT project 2"]
    assert {c.title: c.space for c in app.conversations.list()}["Rye loaf"] == baking


def test_a_project_kept_apart_keeps_even_what_applies_everywhere(
    app: Service, fake_ollama: FakeOllama, tmp_path: Path
) -> None:
    app.imports.run(_chatgpt_projects(tmp_path / "conversations.json"))
    travel = app.spaces.find("ChatGPT project 2").id
    app.spaces.change(travel, apart=True)
    fake_ollama.json_responder = _finds
    app.imports.propose_facts()
    where = {p.text: p.space for p in app.imports.proposals()}
    assert where["Is allergic to peanuts"] == travel
    assert where["Has a daughter called Xiaoyu"] == travel


def test_an_import_into_a_space_keeps_its_projects_apart_and_what_applies_everywhere_shared(
    app: Service, fake_ollama: FakeOllama, tmp_path: Path
) -> None:
    """`import --space Work`: what is in no project goes to Work, and what is found in
    it is proposed for Work, but a project still gets a space of its own, and health
    and who the person is are still proposed for the shared space."""
    work = app.spaces.create("Work").id
    convs = json.loads((DATA / "chatgpt_conversations.json").read_text())
    convs[2]["conversation_template_id"] = TRAVEL  # 周末去杭州: a project
    export = tmp_path / "conversations.json"
    export.write_text(json.dumps(convs), encoding="utf-8")
    done, _ = app.imports.run(export, space=work)
    assert (done.conversations, done.spaces) == (3, 1)
    travel = app.spaces.find("ChatGPT project 1").id
    assert {c.title: c.space for c in app.conversations.list()} == {
        "Sourdough starter schedule": work,
        "Half marathon training plan": work,
        "周末去杭州": travel,
    }
    fake_ollama.json_responder = _finds
    app.imports.propose_facts()
    assert {p.text: p.space for p in app.imports.proposals()} == {
        "I'm a nurse in Leeds who bakes at weekends.": None,
        "Has a sourdough starter called Bubbles": work,
        "Is allergic to peanuts": None,
        "Has a daughter called Xiaoyu": None,
    }


def test_an_import_into_a_space_that_is_not_there_writes_nothing(
    app: Service, tmp_path: Path
) -> None:
    export = tmp_path / "conversations.json"
    export.write_text((DATA / "chatgpt_conversations.json").read_text(), encoding="utf-8")
    with pytest.raises(NotFound):
        app.imports.run(export, space=404)
    assert not app.conversations.list()
    assert not app.imports.proposals()


def _claude_zip(path: Path, projects: list[dict[str, Any]], links: dict[int, Any]) -> Path:
    """Claude's newer layout: a project a file in projects/; conversations that say
    their project (`links`: conversation index -> its project_uuid or project object)."""
    convs = json.loads((DATA / "claude_conversations.json").read_text())
    for n, link in links.items():
        convs[n]["project" if isinstance(link, dict) else "project_uuid"] = link
    memories = [{"conversations_memory": "**Work**\n\nThe user is a nurse in Leeds.",
                 "project_memories": {ALLOTMENT: "The user grows potatoes on an allotment."}}]  # fmt: skip
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("conversations.json", json.dumps(convs))
        z.writestr("memories.json", json.dumps(memories))
        for n, p in enumerate(projects):
            z.writestr(f"projects/{p.get('uuid') or n}.json", json.dumps(p))
    return path


def test_claude_projects_and_the_conversations_that_name_them(
    app: Service, fake_ollama: FakeOllama, tmp_path: Path
) -> None:
    projects = json.loads((DATA / "claude_projects.json").read_text())
    links = {0: ALLOTMENT, 1: {"uuid": "not-in-the-export", "name": "Letters"}, 3: "nowhere"}
    export = _claude_zip(tmp_path / "claude.zip", projects, links)
    done, _ = app.imports.run(export)
    assert (done.projects, done.conversations) == (3, 3)
    spaces = {s.name: s for s in app.spaces.list()}
    # a project the export holds nothing else of: named by what the conversation says,
    # else numbered (a space of its own: it was kept apart there)
    assert sorted(spaces) == sorted(
        ["Allotment", "York half marathon", "学中文", "Letters", "Claude project 1"]
    )
    allotment = spaces["Allotment"].id
    assert spaces["Allotment"].instruction == "I have a 10 by 5 metre allotment plot in Leeds."
    convs = {c.title: c.space for c in app.conversations.list()}
    assert convs["Choosing a bike for commuting"] == allotment
    assert convs["Allotment"] == allotment  # the project's description and documents
    assert convs["Thank-you letter"] == spaces["Letters"].id
    # what Claude remembered of the project is proposed for its space
    where = {p.text: p.space for p in app.imports.proposals()}
    assert where == {
        "The user is a nurse in Leeds.": None,
        "The user grows potatoes on an allotment.": allotment,
    }
    app.imports.accept()
    in_allotment = app.memories.store.list(scope=only(allotment))
    assert [m.text for m in in_allotment] == ["The user grows potatoes on an allotment."]

    again, _ = app.imports.run(export)
    assert (again.conversations, again.already, again.proposed) == (0, 3, 0)
    assert len(app.spaces.list()) == 5


def test_a_projects_name_that_no_space_may_have_still_imports(app: Service, tmp_path: Path) -> None:
    app.spaces.create("Allotment")  # the person's own: the project of that name joins it
    names = ["", "   ", "Shared", "共享", "x" * 500, "Bad\x00\x1b[31mname\u202e", "\n\t",
             "Notes", "notes", "Allotment"]  # fmt: skip
    projects = [
        {"uuid": f"p-{n}", "name": name, "prompt_template": "y" * 5000 if n == 4 else "",
         "docs": [{"filename": "a.txt", "content": f"Document {n}"}]}
        for n, name in enumerate(names)
    ]  # fmt: skip
    projects.append({"name": "No uuid at all", "prompt_template": "Be brief."})
    done, _ = app.imports.run(_claude_zip(tmp_path / "claude.zip", projects, {}))
    assert done.projects == len(projects)
    spaces = {s.name: s for s in app.spaces.list()}
    # no name: Claude's own "Untitled project"; the shared space's: numbered (and the
    # memories file's project that is not in the export); controls out; cut to fit
    assert sorted(spaces) == sorted(
        ["Untitled project", "Untitled project (2)", "Untitled project (3)",
         "Claude project 1", "Claude project 2", "Claude project 3", "x" * MAX_NAME,
         "Bad[31mname", "Notes", "notes (2)", "Allotment", "No uuid at all"]
    )  # fmt: skip
    assert len(spaces["x" * MAX_NAME].instruction) == 2_000
    assert all(not s.apart for s in spaces.values())
    # every project's documents are in its space
    assert sum(c.space is not None for c in app.conversations.list()) == len(projects)
    again, _ = app.imports.run(_claude_zip(tmp_path / "claude.zip", projects, {}))
    assert len(app.spaces.list()) == len(spaces)


def test_a_space_taken_out_while_an_import_runs_takes_what_follows_to_the_shared_space(
    app: Service, tmp_path: Path
) -> None:
    """The person takes out the space an import goes to (and a project's space it made)
    while the import runs, between two of its transactions: the next one failed on the
    space's id ("FOREIGN KEY constraint failed"), what had been imported stayed and the
    rest did not come in. What follows goes to the shared space, as what a space taken
    out held goes there."""
    from desktop_mem.core.chat.importing import BATCH

    work = app.spaces.create("Work").id
    base = json.loads((DATA / "chatgpt_conversations.json").read_text())
    convs = []
    for n in range(2 * BATCH + 2):
        conv = json.loads(json.dumps(base[n % 2]))
        conv.update(id=f"c{n}", conversation_id=f"c{n}", title=f"Chat {n}")
        if n % 2:
            conv["conversation_template_id"] = TRAVEL  # a project: a space of its own
        convs.append(conv)
    export = tmp_path / "conversations.json"
    export.write_text(json.dumps(convs), encoding="utf-8")

    def take_out(seen: int, _total: int) -> None:
        if seen == BATCH + 1:  # the first batch is in: both spaces hold something
            for space in (work, app.spaces.find("ChatGPT project 1").id):
                app.spaces.remove(space, "move")

    done, _ = app.imports.run(export, space=work, progress=take_out)
    assert done.conversations + done.projects == len(convs)
    assert not app.spaces.list()
    where = {c.title: c.space for c in app.conversations.list()}
    assert len(where) == len(convs) and set(where.values()) == {None}
