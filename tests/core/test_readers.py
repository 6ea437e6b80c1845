"""The registry of export readers is the one door: every built-in format is a reader
found through it, a format left out of it is not read, and a reader registered the way
the built-ins are (a module's register_readers) imports through the normal path."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from desktop_mem.core.chat.foreign import Export, Reader, open_export, registry
from desktop_mem.core.chat.foreign.fields import as_list, as_text
from desktop_mem.core.chat.foreign.items import ForeignConversation, ForeignMessage
from desktop_mem.core.errors import ImportRejected
from tests.conftest import Run

DATA = Path(__file__).resolve().parents[1] / "data" / "imports"


@pytest.fixture
def own_registry(monkeypatch: pytest.MonkeyPatch) -> list[Reader]:
    """The registry's readers as a list of this test's: changes go when it ends."""
    readers = registry.readers()
    monkeypatch.setattr(registry, "_readers", readers)
    return readers


def _own_files(tmp_path: Path) -> tuple[Path, Path]:
    conversation = tmp_path / "tea.json"
    conversation.write_text(
        json.dumps(
            {
                "format": "desktop-mem/conversation",
                "conversation": {"title": "Tea", "created_at": "2025-01-01T10:00:00Z"},
                "messages": [{"role": "user", "content": "I drink green tea."}],
            }
        )
    )
    memories = tmp_path / "memories-export.json"
    memories.write_text(
        json.dumps({"format": "desktop-mem/memories", "memories": [{"text": "Keeps bees"}]})
    )
    return conversation, memories


def test_every_built_in_format_is_a_reader_found_through_the_registry(tmp_path: Path) -> None:
    names = [r.name for r in registry.readers()]
    assert names[:6] == ["chatgpt", "claude", "desktop-mem", "mem0", "openmemory", "pasted"]
    own_conversation, own_memories = _own_files(tmp_path)
    files = {
        DATA / "chatgpt_export.zip": "chatgpt",
        DATA / "chatgpt_conversations.json": "chatgpt",
        DATA / "claude_export.zip": "claude",
        DATA / "claude_projects.json": "claude",
        DATA / "mem0_export.json": "mem0",
        DATA / "openmemory_export.json": "openmemory",
        DATA / "pasted_memories.txt": "pasted",
        own_conversation: "desktop-mem",
        own_memories: "desktop-mem",
    }
    for path, kind in files.items():
        export = open_export(path)
        assert (path.name, export.kind) == (path.name, kind)
        assert export.reader is registry.reader(kind)  # the registered object, no other
    assert open_export(own_conversation).reader.label == "desktop-mem"
    assert open_export(DATA / "claude_export.zip").label == "Claude"


@pytest.mark.parametrize(
    ("left_out", "path"),
    [
        ("chatgpt", DATA / "chatgpt_export.zip"),
        ("chatgpt", DATA / "chatgpt_conversations.json"),
        ("claude", DATA / "claude_conversations.json"),
        ("mem0", DATA / "mem0_export.json"),
        ("pasted", DATA / "pasted_memories.txt"),
    ],
)
def test_a_format_left_out_of_the_registry_is_not_read(
    own_registry: list[Reader], left_out: str, path: Path
) -> None:
    assert open_export(path).kind == left_out
    own_registry[:] = [r for r in own_registry if r.name != left_out]
    with pytest.raises(ImportRejected, match="not an export this app reads"):
        open_export(path)


# -- a format this test adds --------------------------------------------------------------


class TinyChat(Reader):
    """A format no service writes: a list of {"tiny": id, "topic", "turns": [[who, text]]}."""

    name = "tinychat"
    marks = ("tiny",)

    def conversation(self, item: Any, out: Export, n: int) -> ForeignConversation | None:
        if not isinstance(item, dict) or "tiny" not in item:
            return super().conversation(item, out, n)
        conv = ForeignConversation(
            self.name, as_text(item["tiny"], "its id"), as_text(item.get("topic"), "its topic"),
            "2025-03-01T09:00:00+00:00", "2025-03-01T09:05:00+00:00",
        )  # fmt: skip
        for who, text in as_list(item.get("turns"), "its turns"):
            role = {"me": "user", "bot": "assistant"}[who]
            conv.messages.append(ForeignMessage(role, text, conv.created_at))
        return conv


def register_readers(register: Callable[[Reader], None]) -> None:
    register(TinyChat())


def test_a_reader_registered_like_the_built_ins_imports_through_the_normal_path(
    run: Run, tmp_path: Path, own_registry: list[Reader]
) -> None:
    path = tmp_path / "tiny.json"
    path.write_text(
        json.dumps(
            [
                {"tiny": "t1", "topic": "Bees", "turns": [["me", "I keep bees."], ["bot", "Nice"]]},
                {"unknown": True},
                {"tiny": "t2", "topic": "Tea", "turns": [["me", "I drink green tea."]]},
            ]
        )
    )
    code, _, err = run("import", str(path), "--dry-run")
    assert code == 2 and "not an export this app reads" in err  # not yet registered
    registry.load(SimpleNamespace(register_readers=register_readers))
    assert [r.name for r in own_registry][-1] == "tinychat"
    export = open_export(path)
    assert export.kind == "tinychat" and export.label == "tinychat"
    assert [c.title for c in export.conversations()] == ["Bees", "Tea"]
    assert export.skipped == 1
    code, out, err = run("import", str(path))
    assert code == 0 and "Imported 2 conversations (3 messages)" in out, err
    listed = json.loads(run("conversations", "list", "--json")[1])
    assert sorted((c["title"], c["origin"]) for c in listed) == [
        ("Bees", "tinychat"),
        ("Tea", "tinychat"),
    ]
    with pytest.raises(ValueError, match="a name of its own"):
        registry.register(TinyChat())
