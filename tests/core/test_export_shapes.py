"""Every export people have today (tests/exports.py builds them): ChatGPT's split export
in a zip, in a folder or by one of its files, its recent content types, its custom
instructions' "about me" proposed as facts; Claude's export with thinking, tools and
its memory export. Only what was said on the kept branch is imported."""

from __future__ import annotations

import json
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from desktop_mem.core.chat.foreign import open_export
from desktop_mem.core.profile import Profile
from desktop_mem.core.service import Service
from tests import exports
from tests.conftest import Run


@pytest.fixture
def app(profile: Profile) -> Iterator[Service]:
    service = Service(profile)
    yield service
    service.background.shutdown(wait=True)


def _said(path: Path) -> list[list[str]]:
    return [[m.text for m in c.messages] for c in open_export(path).conversations()]


def _expected(ns: range) -> list[list[str]]:
    return [
        [
            f"{exports.kept(n)[0]}\n[attached: photo-{n}.jpg]",
            *exports.kept(n)[1:],
        ]
        for n in ns
    ]


@pytest.mark.parametrize("prefix", ["", "Export 2026-12-01/"])
def test_a_split_chatgpt_zip_is_read_whole_in_order(tmp_path: Path, prefix: str) -> None:
    path = exports.chatgpt_split_zip(tmp_path / "export.zip", count=5, prefix=prefix)
    export = open_export(path)
    assert export.kind == "chatgpt"
    assert export.conversation_files == [
        f"{prefix}conversations-000.json",
        f"{prefix}conversations-001.json",
        f"{prefix}conversations-002.json",
    ]
    assert _said(path) == _expected(range(4, -1, -1))  # newest first, as exported
    assert export.unknown_files == []


def test_a_split_chatgpt_folder_and_one_of_its_files(tmp_path: Path) -> None:
    folder = exports.chatgpt_split_folder(tmp_path / "unpacked", count=5)
    assert _said(folder) == _expected(range(4, -1, -1))
    # choosing any one of the numbered files reads them all
    assert _said(folder / "conversations-001.json") == _expected(range(4, -1, -1))
    # unpacked into a folder of its own, inside the one chosen
    outer = tmp_path / "outer"
    outer.mkdir()
    (tmp_path / "unpacked").rename(outer / "export")
    assert _said(outer) == _expected(range(4, -1, -1))


def test_conversations_json_chosen_in_an_unpacked_claude_export_brings_the_rest(
    tmp_path: Path,
) -> None:
    """Its memories and projects are beside it: chosen alone, they were left out."""
    folder = tmp_path / "claude"
    with zipfile.ZipFile(exports.claude_zip(tmp_path / "claude.zip", count=2)) as z:
        z.extractall(folder)
    export = open_export(folder / "conversations.json")
    assert export.folder and export.kind == "claude"
    assert [m.text for m in export.memories] == [
        "The user is a nurse in Leeds.",
        "The user keeps an allotment.",
    ]
    assert len(list(export.conversations())) == 2


def test_a_folder_link_is_not_followed(tmp_path: Path) -> None:
    elsewhere = exports.chatgpt_split_folder(tmp_path / "elsewhere", count=2)
    folder = tmp_path / "chosen"
    folder.mkdir()
    (folder / "conversations-000.json").symlink_to(elsewhere / "conversations-000.json")
    from desktop_mem.core.errors import ImportRejected

    with pytest.raises(ImportRejected, match="holds no conversations.json"):
        open_export(folder)


def test_recent_content_types_leave_only_what_was_said(tmp_path: Path) -> None:
    path = tmp_path / "conversations.json"
    path.write_text(json.dumps([exports.chatgpt_conversation(1, exports.ABOUT, exports.HOW)]))
    export = open_export(path)
    (conv,) = list(export.conversations())
    assert [m.role for m in conv.messages] == ["user", "assistant", "user", "assistant"]
    said = " ".join(m.text for m in conv.messages)
    assert not [h for h in exports.HIDDEN if h in said]
    assert export.instructions == exports.HOW
    assert [m.text for m in export.about] == ["I'm a nurse in Leeds.", "I keep an allotment."]


def test_claude_export_with_thinking_tools_and_its_memory(tmp_path: Path) -> None:
    path = exports.claude_zip(tmp_path / "claude.zip", count=3)
    export = open_export(path)
    assert export.kind == "claude"
    convs = list(export.conversations())
    assert [[m.text for m in c.messages] for c in convs] == [
        [f"{exports.kept(n)[0]}\n[attached: notes-{n}.txt]", *exports.kept(n)[1:]] for n in range(3)
    ]
    assert [m.text for m in export.memories] == [
        "The user is a nurse in Leeds.",
        "The user keeps an allotment.",
    ]


def test_the_about_me_of_a_split_zip_is_proposed_as_facts(run: Run, tmp_path: Path) -> None:
    path = exports.chatgpt_split_zip(tmp_path / "export.zip", count=5)
    code, out, err = run("import", str(path), "--dry-run")
    assert code == 0, err
    assert "5 new conversations (20 messages)" in out
    assert "2 facts you told it about yourself (proposed for review)" in out
    code, out, err = run("import", str(path))
    assert code == 0, err
    assert "Imported 5 conversations (20 messages)" in out
    waiting = json.loads(run("review", "list", "--json")[1])["waiting"]
    assert sorted(w["text"] for w in waiting) == ["I keep an allotment.", "I'm a nurse in Leeds."]
    assert {w["origin"] for w in waiting} == {"chatgpt"}
    # the same export again, unpacked: nothing new
    folder = tmp_path / "unpacked"
    with zipfile.ZipFile(path) as z:
        z.extractall(folder)
    code, out, _ = run("import", str(folder), "--json")
    assert json.loads(out)["imported"]["conversations"] == 0


def test_claude_zip_imports_and_proposes_its_memory(app: Service, tmp_path: Path) -> None:
    path = exports.claude_zip(tmp_path / "claude.zip", count=3)
    done, _ = app.imports.run(path)
    assert (done.conversations, done.messages, done.proposed) == (3, 12, 2)
    everything = " ".join(
        m.content for c in app.conversations.list() for m in app.conversations.messages(c.id)
    )
    assert not [h for h in exports.HIDDEN if h in everything]


@pytest.mark.parametrize("kind", ["chatgpt", "claude"])
def test_a_long_conversation_is_walked_in_steps_linear_in_its_length(
    tmp_path: Path, kind: str
) -> None:
    """Counted in Python calls, not seconds: twice the messages, about twice the calls,
    and never more than a bound per message (a loop in Python fails it; the speed of
    100,000 messages is measured in benchmarks/imports.py)."""
    from tests.core.test_import_mutations import bounded, calls_of

    calls = {}
    for n in (5_000, 10_000):
        conv = exports.long_chatgpt(n) if kind == "chatgpt" else exports.long_claude(n)
        path = tmp_path / f"{kind}-{n}.json"
        path.write_text(json.dumps([conv]))

        def read(path: Path = path) -> list[int]:
            return [len(c.messages) for c in open_export(path).conversations()]

        said, calls[n] = calls_of(read)
        assert said == [n] and bounded(read, 40 * n) == [n]
    assert calls[10_000] < 2.2 * calls[5_000], calls
